/*
 * sheet_columns: the candidates table's columns, one descriptor each in
 * one table (gs_sheet_columns): its header words, when it is shown, its
 * cell, and how it takes part in the identity of a row of equivalent
 * offers. The header row, the cells and the grouping of equivalent offers
 * (gs_sheet_columns_row_hash, gs_sheet_columns_same_row) all come from the
 * table, so a column cannot be half added: a new column is one entry here
 * (and its words in the strings), nothing else.
 */
#define _DEFAULT_SOURCE
#include "sheet_int.h"

/* ---- the row identity ---------------------------------------------- */

/* v mixed into h with the one hash (hash.h) */
static uint64_t S_mix(uint64_t h, uint64_t v)
{
	return gs_hash_mix(h, &v, sizeof(v));
}

static const char *S_cur(const gs_plan *p)
{
	return p ? p->currency : NULL;
}

#define S_CAND(i) (&c->in->d->cands[i])

/* the lot: one GPU model of the vendor table, as many cards, whoever the
 * provider and whatever its memory figure (the cell counts the providers,
 * the capacity column's identity keeps the capacity used); an offer whose GPU the vendor table does not know groups by its
 * lot (the index matrix's rule: gs_verdict_offer_same_lot) */
static int S_offer_same(const S_ctx *c, const gs_sheet_reasonset *rs, int arg, size_t ca, size_t cb)
{
	const gs_candidate *a = S_CAND(ca), *b = S_CAND(cb);
	const gs_offer *x = a->offer, *y = b->offer;

	(void)rs, (void)arg;
	if (!a->gpu || !b->gpu)
		return !a->gpu && !b->gpu && gs_verdict_offer_same_lot(c->in->cat, x, y);
	return gs_sheet_words_same_str(a->gpu->model, b->gpu->model) && x->cards == y->cards &&
	       x->memory_unknown == y->memory_unknown;
}

static uint64_t S_str_hash(uint64_t h, const char *s)
{
	return gs_hash_mix(h, s, s ? strlen(s) : 0);
}

static uint64_t S_offer_hash(const S_ctx *c, const gs_sheet_reasonset *rs, int arg, size_t ci)
{
	const gs_candidate *a = S_CAND(ci);

	(void)rs, (void)arg;
	if (!a->gpu)
		return gs_verdict_offer_lot_hash(c->in->cat, a->offer);
	return S_mix(S_mix(S_str_hash(1, a->gpu->model), a->offer->cards), a->offer->memory_unknown);
}

/* the capacity, where it comes from, and the file or log it was read in */
static int S_capacity_same(const S_ctx *c, const gs_sheet_reasonset *rs, int arg, size_t ca, size_t cb)
{
	const gs_candidate *a = S_CAND(ca), *b = S_CAND(cb);
	const gs_evidence *x = a->cap_from, *y = b->cap_from;

	(void)rs, (void)arg;
	if (!gs_sheet_words_same_qty(a->capacity, b->capacity) || a->cap_source != b->cap_source ||
	    !a->gpu != !b->gpu)
		return 0;
	if (a->cap_source == GS_CAP_REPORTED && a->gpu && b->gpu &&
	    !gs_sheet_words_same_str(a->gpu->reported_source, b->gpu->reported_source))
		return 0;
	if (a->cap_source != GS_CAP_OBSERVED)
		return 1;
	return !x == !y && (!x || (gs_sheet_words_same_str(x->ref->file, y->ref->file) &&
				   gs_sheet_words_same_str(x->m->import_source, y->m->import_source)));
}

static uint64_t S_capacity_hash(const S_ctx *c, const gs_sheet_reasonset *rs, int arg, size_t ci)
{
	const gs_candidate *a = S_CAND(ci);

	(void)rs, (void)arg;
	return S_mix(a->capacity.present ? a->capacity.bytes : 0, (uint64_t)a->cap_source);
}

/* a requirement: the same kind of verdict (the reasons may differ, the
 * prices' and the providers' figures: the cell links to the requirement's
 * reasons then) */
static int S_req_same(const S_ctx *c, const gs_sheet_reasonset *rs, int q, size_t ca, size_t cb)
{
	const gs_verdict *u = &S_CAND(ca)->v[q], *v = &S_CAND(cb)->v[q];

	(void)rs;
	return u->kind == v->kind && !u->synthetic == !v->synthetic;
}

static uint64_t S_req_hash(const S_ctx *c, const gs_sheet_reasonset *rs, int q, size_t ci)
{
	(void)rs;
	return (uint64_t)S_CAND(ci)->v[q].kind;
}

/* the price: the same kinds of plan in the same currencies (the cell
 * gives the range of the amounts) */
static int S_price_same(const S_ctx *c, const gs_sheet_reasonset *rs, int arg, size_t ca, size_t cb)
{
	const gs_candidate *a = S_CAND(ca), *b = S_CAND(cb);

	(void)rs, (void)arg;
	return !a->plan == !b->plan && gs_sheet_words_same_str(S_cur(a->plan), S_cur(b->plan)) &&
	       gs_sheet_words_same_str(S_cur(a->on_demand.plan), S_cur(b->on_demand.plan)) &&
	       gs_sheet_words_same_str(S_cur(a->interruptible.plan), S_cur(b->interruptible.plan));
}

static int S_speed_same(const S_ctx *c, const gs_sheet_reasonset *rs, int arg, size_t ca, size_t cb)
{
	const gs_speed *a = &S_CAND(ca)->speed, *b = &S_CAND(cb)->speed;

	(void)rs, (void)arg;
	return a->known == b->known &&
	       (!a->known || (a->decode_seq_milli == b->decode_seq_milli &&
			      a->decode_total_milli == b->decode_total_milli &&
			      a->has_prefill == b->has_prefill && a->prefill_milli == b->prefill_milli));
}

static uint64_t S_speed_hash(const S_ctx *c, const gs_sheet_reasonset *rs, int arg, size_t ci)
{
	(void)rs, (void)arg;
	return S_CAND(ci)->speed.known ? S_CAND(ci)->speed.decode_seq_milli : 0;
}

/* the cost of a million tokens: the same kinds (the cell gives the range) */
static int S_mtok_same(const S_ctx *c, const gs_sheet_reasonset *rs, int arg, size_t ca, size_t cb)
{
	const gs_candidate *a = S_CAND(ca), *b = S_CAND(cb);

	(void)rs, (void)arg;
	return a->has_mtok_on_demand == b->has_mtok_on_demand &&
	       a->has_mtok_interruptible == b->has_mtok_interruptible;
}

static int S_room_same(const S_ctx *c, const gs_sheet_reasonset *rs, int arg, size_t ca, size_t cb)
{
	const gs_candidate *a = S_CAND(ca), *b = S_CAND(cb);

	(void)rs, (void)arg;
	return a->has_headroom == b->has_headroom &&
	       (!a->has_headroom || (a->headroom_tokens == b->headroom_tokens &&
				     a->headroom_sequences == b->headroom_sequences &&
				     a->headroom_prov == b->headroom_prov &&
				     !a->headroom_synthetic == !b->headroom_synthetic &&
				     !a->headroom_without_reserve == !b->headroom_without_reserve));
}

static int S_class_same(const S_ctx *c, const gs_sheet_reasonset *rs, int arg, size_t ca, size_t cb)
{
	(void)rs, (void)arg;
	return S_CAND(ca)->cls == S_CAND(cb)->cls;
}

static uint64_t S_class_hash(const S_ctx *c, const gs_sheet_reasonset *rs, int arg, size_t ci)
{
	(void)rs, (void)arg;
	return (uint64_t)S_CAND(ci)->cls;
}

/* ---- when a column is shown, its header ------------------------------ */

static int S_req_shown(const gs_sheet_cands *t, int q)
{
	return !t->same[q];
}

static int S_speed_shown(const gs_sheet_cands *t, int arg)
{
	(void)arg;
	return t->any_speed;
}

/* no headroom calculated for any row (a training, a cache that is not
 * dense): no headroom column */
static int S_room_shown(const gs_sheet_cands *t, int arg)
{
	(void)arg;
	return t->any_room;
}

/* "{n1} sequences": the speed's header names the batch */
static char *S_speed_header(S_ctx *c, const char *words)
{
	gs_verdict hv;
	char a[GS_FMT_MAX];

	memset(&hv, 0, sizeof(hv));
	hv.n1 = gs_qty_fmt_int(a, c->in->s->kv_sequences ? c->in->s->kv_sequences : 1, c->lang);
	return gs_sheet_words_expand(c, words, &hv);
}

static char *S_room_header(S_ctx *c, const char *words)
{
	gs_verdict hv;
	char a[GS_FMT_MAX], b[GS_FMT_MAX];

	memset(&hv, 0, sizeof(hv));
	hv.n1 = gs_qty_fmt_int(a, c->in->s->kv_sequences, c->lang);
	hv.n2 = gs_qty_fmt_int(b, c->in->s->kv_tokens_kept, c->lang);
	return gs_sheet_words_expand(c, words, &hv);
}

/* ---- the cells ------------------------------------------------------- */

#define S_FIRST(t, first) (&(t)->c->in->d->cands[(t)->c->in->d->order[first]])

/* "Cudo · 1 x A40 · 49152 MiB (assumed: ...) · 13 offers (`a`, ...)", or
 * the one offer's id, model, cards and memory figure; the other offers of
 * a row are anchors in its first cell (sheets/ID.html#offer-OFFER) */
static void S_offer_cell(gs_sheet_cands *t, int arg, cmark_node *r, size_t first, size_t nof)
{
	S_ctx *c = t->c;
	const gs_decision *d = c->in->d;
	const gs_candidate *cd = S_FIRST(t, first);
	cmark_node *cell = gs_doc_cell(r);
	char mem[GS_FMT_MAX];
	/* the figure's words, unless the capacity cell says them */
	const char *mem_words = cd->offer->memory_unknown ||
		(cd->capacity.present && cd->cap_source == GS_CAP_NOMINAL) ? ""
		: TR(cd->offer->mib_text ? "cand.provider_assumed" : "cand.nominal_assumed");
	size_t i;

	(void)arg;
	gs_catalog_offer_memory_label(cd->offer, TR("word.missing"), mem, sizeof(mem));
	if (nof == 1) {
		gs_doc_code(cell, cd->offer->id);
		gs_doc_textf(cell, " %s, %llu x %s%s%s", cd->offer->gpu_model,
			     (unsigned long long)cd->offer->cards, mem, *mem_words ? " " : "", mem_words);
		if (cd->offer->provider)
			gs_doc_textf(cell, " — %s", cd->offer->provider);
	} else {
		size_t k = 0, nprov = 0, j;
		int one_model = 1, one_mem = 1, one_origin = 1;
		char other[GS_FMT_MAX];
		for (i = first; i != SIZE_MAX; i = t->next[i]) {
			const gs_offer *o = d->cands[d->order[i]].offer;
			for (j = first; j != i; j = t->next[j])
				if (gs_sheet_words_same_str(d->cands[d->order[j]].offer->provider, o->provider))
					break;
			nprov += j == i;
			one_model &= gs_sheet_words_same_str(o->gpu_model, cd->offer->gpu_model);
			gs_catalog_offer_memory_label(o, TR("word.missing"), other, sizeof(other));
			one_mem &= strcmp(other, mem) == 0 && !o->mib_text == !cd->offer->mib_text;
			one_origin &= !c->in->cat->origins ||
				gs_sheet_words_same_str(gs_catalog_origin(c->in->cat, o),
							gs_catalog_origin(c->in->cat, cd->offer));
		}
		/* reference cards (no provider) share rows among themselves */
		if (nprov > 1)
			gs_doc_textf(cell, "%zu %s · ", nprov, TR("cand.providers"));
		else if (cd->offer->provider)
			gs_doc_textf(cell, "%s · ", cd->offer->provider);
		gs_doc_textf(cell, "%llu x %s · ", (unsigned long long)cd->offer->cards,
			     one_model || !cd->gpu ? cd->offer->gpu_model : cd->gpu->model);
		/* the providers' figures, where they differ: the capacity cell
		 * gives the one used */
		if (one_mem)
			gs_doc_textf(cell, "%s%s%s · ", mem, *mem_words ? " " : "", mem_words);
		/* every offer named (the decision section names the row by its
		 * first), each but the first with its fragment #offer-ID (the
		 * row carries the first's) */
		gs_doc_textf(cell, "%zu %s (", nof, TR("cand.offers"));
		for (i = first; i != SIZE_MAX; i = t->next[i], k++) {
			const char *id = d->cands[d->order[i]].offer->id;
			if (k)
				gs_doc_text(cell, ", ");
			if (i == first)
				gs_doc_code(cell, id);
			else {
				char *a = gs_xasprintf("offer-%s", id);
				gs_doc_code_id(c->doc, cell, id, a);
				free(a);
			}
		}
		gs_doc_text(cell, ")");
		if (!one_origin)
			return;
	}
	if (c->in->cat->origins)
		gs_doc_textf(cell, " (%s: %s)", TR("site.catalog"), gs_catalog_origin(c->in->cat, cd->offer));
}

/* The number (from 1) of a capacity basis below the table; the words are
 * kept (or freed when already there). */
static size_t S_cap_mark(gs_sheet_cands *t, char *basis, const char *log)
{
	size_t i;

	for (i = 0; i < t->ncap; i++)
		if (strcmp(t->cap_basis[i], basis) == 0 && gs_sheet_words_same_str(t->cap_log[i], log)) {
			free(basis);
			return i + 1;
		}
	t->cap_basis = gs_xrealloc(t->cap_basis, (t->ncap + 1) * sizeof(*t->cap_basis));
	t->cap_log = gs_xrealloc(t->cap_log, (t->ncap + 1) * sizeof(*t->cap_log));
	t->cap_basis[t->ncap] = basis;
	t->cap_log[t->ncap] = log;
	return ++t->ncap;
}

static void S_capacity_cell(gs_sheet_cands *t, int arg, cmark_node *r, size_t first, size_t nof)
{
	S_ctx *c = t->c;
	const gs_candidate *cd = S_FIRST(t, first);
	char gb[GS_FMT_MAX];
	cmark_node *last;
	char *basis;
	/* a reported total cites the public log it was read in */
	const char *log = cd->cap_source == GS_CAP_REPORTED && cd->gpu ? cd->gpu->reported_source : NULL;

	(void)arg, (void)nof;
	if (!cd->capacity.present) {
		gs_doc_cell_text(r, TR("word.missing"));
		return;
	}
	basis = gs_xasprintf("%s%s",
		TR(cd->cap_source == GS_CAP_OBSERVED ? "cap.observed"
		   : cd->cap_source == GS_CAP_DECLARED ? "cap.declared"
		   : cd->cap_source == GS_CAP_REPORTED ? "cap.reported"
		   : cd->gpu ? "cap.nominal"
		   : cd->offer->mib_text ? "cap.provider_mib_decimal" : "cap.nominal"),
		cd->cap_source != GS_CAP_OBSERVED &&
		(cd->gpu || cd->offer->memory_origin == GS_MEMORY_FROM_VENDOR)
		? TR("cap.from_vendor_table") : "");
	/* an observed capacity names its own file: in its cell */
	if (t->cap_marks && cd->cap_source != GS_CAP_OBSERVED) {
		/* the figure in the header's unit with its label (every figure
		 * says how it is known, in its cell), its basis below the table */
		gs_sheet_words_cell_owned(r, gs_xasprintf("%s (%s) [c%zu]",
							  gs_qty_fmt_fixed2(gb, cd->capacity.bytes, GS_GIB, c->lang),
							  gs_sheet_words_qprov(c, cd->capacity),
							  S_cap_mark(t, basis, log)));
		return;
	}
	gs_sheet_words_cell_owned(r, gs_xasprintf("%s (%s, %s)", gs_qty_fmt_gib(gb, cd->capacity.bytes, c->lang),
						  gs_sheet_words_qprov(c, cd->capacity), basis));
	free(basis);
	last = cmark_node_last_child(r);
	if (log) {
		gs_doc_textf(last, " — %s ", TR("cap.reported_in"));
		gs_doc_code(last, log);
	}
	/* an observed capacity names the file, and who reported an imported log */
	if (cd->cap_source == GS_CAP_OBSERVED && cd->cap_from && cd->cap_from->ref->file) {
		gs_doc_textf(last, " — %s ", TR("cap.observed_in"));
		gs_doc_code(last, cd->cap_from->ref->file);
		if (cd->cap_from->m->import_source)
			gs_doc_textf(last, ", %s %s", TR("cap.reported_by"), cd->cap_from->m->import_source);
	}
}

void gs_sheet_columns_cap_bases(gs_sheet_cands *t)
{
	S_ctx *c = t->c;
	cmark_node *p;
	size_t i;

	if (t->ncap) {
		p = gs_doc_para(c->root);
		gs_doc_text(p, TR("cand.cap_bases"));
		for (i = 0; i < t->ncap; i++) {
			gs_doc_textf(p, " [c%zu] %s", i + 1, t->cap_basis[i]);
			if (t->cap_log[i]) {
				gs_doc_textf(p, " — %s ", TR("cap.reported_in"));
				gs_doc_code(p, t->cap_log[i]);
			}
			gs_doc_text(p, ".");
		}
	}
	for (i = 0; i < t->ncap; i++)
		free(t->cap_basis[i]);
	free(t->cap_basis);
	free(t->cap_log);
	t->cap_basis = NULL;
	t->cap_log = NULL;
	t->ncap = 0;
}

static void S_req_cell(gs_sheet_cands *t, int q, cmark_node *r, size_t first, size_t nof)
{
	S_ctx *c = t->c;
	const gs_decision *d = c->in->d;
	const gs_verdict *v = &S_FIRST(t, first)->v[q];
	size_t why = t->rep[t->rs->of[d->order[first] * GS_REQ_COUNT + (size_t)q]], i;
	cmark_node *cell = gs_doc_cell_text(r, t->vshort[v->kind][v->synthetic && v->kind != GS_V_TO_CONFIRM]);
	char n[GS_DEC_MAX + 1];

	(void)nof;
	if (v->kind == GS_V_NOT_REQUIRED)
		return;
	for (i = t->next[first]; i != SIZE_MAX; i = t->next[i])
		if (t->rep[t->rs->of[d->order[i] * GS_REQ_COUNT + (size_t)q]] != why)
			break;
	n[GS_DEC_MAX] = '\0';
	if (i == SIZE_MAX)
		gs_sheet_words_anchor(c->doc, cell, "why-", gs_dec(n, why, 0), gs_doc_cell_link);
	else
		gs_sheet_words_anchor(c->doc, cell, "reasons-", gs_verdict_req_id((gs_req)q), gs_doc_cell_link);
}

/*
 * The total cost cell: the total, then how it is made (units x plan hours
 * x the plan's price), interruptible, and how a per-hour plan's hours are
 * billed.
 */
static void S_cost_cell(S_ctx *c, cmark_node *row, const gs_candidate *cd, int *unstated)
{
	char m[GS_FMT_MAX], pm[GS_FMT_MAX];
	cmark_node *cell = gs_doc_cell(row);

	gs_doc_textf(cell, "%s %s = %llu x %llu h x %s %s%s%s",
		     gs_qty_fmt_money(m, cd->cost, c->lang), cd->plan->currency,
		     (unsigned long long)cd->plan_units, (unsigned long long)cd->plan->hours,
		     gs_qty_fmt_micro(pm, gs_catalog_plan_micro(cd->plan), c->lang), cd->plan->currency,
		     cd->plan->interruptible ? ", " : "",
		     cd->plan->interruptible ? TR("site.interruptible") : "");
	/* A per-hour price: say how the campaign's hours are billed. */
	if (cd->plan->billing_hours)
		gs_doc_textf(cell, ". %s %llu h.", TR("cost.billing_unit"),
			     (unsigned long long)cd->plan->billing_hours);
	else if (cd->plan->hours == 1) {
		/* the same sentence on most rows: a mark here, the sentence
		 * once below the table */
		gs_doc_text(cell, " †");
		*unstated = 1;
	}
}

/* "26.63–33.76 USD; 0.3698–0.4689 USD/h on-demand, 0.30 interruptible":
 * the range of a row's prices (one figure when they are the same), the
 * campaign's total first (the header says it), in
 * gs_sheet_answer_price_text's words. */
static void S_range_text(S_ctx *c, cmark_node *p, const size_t *next, size_t first)
{
	const gs_decision *d = c->in->d;
	const gs_candidate *f = &d->cands[d->order[first]];
	int64_t lo[3], hi[3];
	const gs_plan *pl[3];
	const char *word[3];
	size_t i;
	int k, any = 0;

	pl[0] = f->plan;
	pl[1] = f->on_demand.plan;
	pl[2] = f->interruptible.plan;
	word[0] = NULL;   /* the campaign's total: the header says it */
	word[1] = TR("price.on_demand");
	word[2] = TR("price.interruptible");
	for (k = 0; k < 3; k++)
		lo[k] = INT64_MAX, hi[k] = INT64_MIN;
	for (i = first; i != SIZE_MAX; i = next[i]) {
		const gs_candidate *cd = &d->cands[d->order[i]];
		int64_t v[3];
		v[0] = cd->plan ? cd->cost : 0;
		v[1] = cd->on_demand.plan ? cd->on_demand.micro_per_hour : 0;
		v[2] = cd->interruptible.plan ? cd->interruptible.micro_per_hour : 0;
		for (k = 0; k < 3; k++) {
			if (v[k] < lo[k])
				lo[k] = v[k];
			if (v[k] > hi[k])
				hi[k] = v[k];
		}
	}
	for (k = 0; k < 3; k++) {
		char a[GS_FMT_MAX], b[GS_FMT_MAX];
		if (!pl[k])
			continue;
		if (k == 0) {
			gs_qty_fmt_money(a, lo[k], c->lang);
			gs_qty_fmt_money(b, hi[k], c->lang);
		} else {
			gs_qty_fmt_micro(a, lo[k], c->lang);
			gs_qty_fmt_micro(b, hi[k], c->lang);
		}
		gs_doc_textf(p, "%s%s%s%s %s%s%s%s",
			     !any ? "" : k == 2 && !pl[0] ? ", " : "; ",
			     a, lo[k] != hi[k] ? "–" : "", lo[k] != hi[k] ? b : "",
			     pl[k]->currency, k ? "/h" : "", word[k] ? " " : "", word[k] ? word[k] : "");
		any = 1;
	}
	if (!any)
		gs_doc_text(p, TR("word.missing"));
}

static void S_price_cell(gs_sheet_cands *t, int arg, cmark_node *r, size_t first, size_t nof)
{
	S_ctx *c = t->c;
	const gs_candidate *cd = S_FIRST(t, first);

	(void)arg;
	if (nof > 1)
		S_range_text(c, gs_doc_cell(r), t->next, first);
	else if (cd->plan)
		S_cost_cell(c, r, cd, &t->unstated);
	else if (cd->on_demand.plan || cd->interruptible.plan)
		gs_sheet_answer_price_text(c, gs_doc_cell(r), cd);
	else
		gs_doc_cell_text(r, TR("word.missing"));
}

static void S_speed_cell(gs_sheet_cands *t, int arg, cmark_node *r, size_t first, size_t nof)
{
	(void)arg, (void)nof;
	gs_sheet_speed_bound_cell(t->c, r, S_FIRST(t, first));
}

static void S_mtok_cell(gs_sheet_cands *t, int arg, cmark_node *r, size_t first, size_t nof)
{
	(void)arg, (void)nof;
	gs_sheet_speed_mtok_cell(t->c, r, t->next, first);
}

/* "11,246; 5 (assumed)": the header names the tokens and the sequences */
static void S_room_cell(gs_sheet_cands *t, int arg, cmark_node *r, size_t first, size_t nof)
{
	S_ctx *c = t->c;
	const gs_candidate *cd = S_FIRST(t, first);
	char a[GS_FMT_MAX], b[GS_FMT_MAX];

	(void)arg, (void)nof;
	if (!cd->has_headroom) {
		gs_doc_cell_text(r, "—");
		return;
	}
	gs_doc_textf(gs_doc_cell(r), "%s; %s (%s%s)", gs_qty_fmt_int(a, cd->headroom_tokens, c->lang),
		     gs_qty_fmt_int(b, cd->headroom_sequences, c->lang),
		     gs_sheet_words_prov(c->t, cd->headroom_prov, cd->headroom_synthetic),
		     cd->headroom_without_reserve ? TR("headroom.without_reserve") : "");
}

static void S_class_cell(gs_sheet_cands *t, int arg, cmark_node *r, size_t first, size_t nof)
{
	(void)arg, (void)nof;
	gs_doc_cell_text(r, t->w_status[S_FIRST(t, first)->cls]);
}

/* "sources 1–4, 7" or "source 3": numbers (from 0, SIZE_MAX left out),
 * sorted, each once, consecutive ones as a range. Returns 1 if any. */
static int S_numbers(cmark_node *p, const char *one, const char *many, size_t *num, size_t n,
		     const char *sep)
{
	size_t i, k = 0, j;

	for (i = 0; i < n; i++)
		if (num[i] != SIZE_MAX)
			num[k++] = num[i];
	if (!k)
		return 0;
	qsort(num, k, sizeof(*num), gs_sheet_words_cmp_size);
	for (i = 1, j = 1; i < k; i++)
		if (num[i] != num[j - 1])
			num[j++] = num[i];
	gs_doc_textf(p, "%s%s ", sep, j > 1 ? many : one);
	for (i = 0; i < j; i = k) {
		for (k = i + 1; k < j && num[k] == num[k - 1] + 1; k++)
			;
		if (k - i > 1)
			gs_doc_textf(p, "%s%zu–%zu", i ? ", " : "", num[i] + 1, num[k - 1] + 1);
		else
			gs_doc_textf(p, "%s%zu", i ? ", " : "", num[i] + 1);
	}
	return 1;
}

/* its sources (the memory figure's, the price's) and note, by number */
static void S_sources_cell(gs_sheet_cands *t, int arg, cmark_node *r, size_t first, size_t nof)
{
	S_ctx *c = t->c;
	cmark_node *cell = gs_doc_cell(r);
	const char *w_source = TR("cand.source"), *w_note = TR("cand.note");
	size_t i, k = 0;
	int any = 0;

	(void)arg;
	if (nof == 1) {
		size_t m = t->src_of[2 * first], pr = t->src_of[2 * first + 1];
		if (m != SIZE_MAX) {
			gs_doc_textf(cell, "%s %zu", w_source, m + 1);
			any = 1;
		}
		if (pr != SIZE_MAX && pr != m) {
			gs_doc_textf(cell, "%s%s %zu", any ? ", " : "", w_source, pr + 1);
			any = 1;
		}
		if (t->note_of[first] != SIZE_MAX) {
			gs_doc_textf(cell, "%s%s %zu", any ? "; " : "", w_note, t->note_of[first] + 1);
			any = 1;
		}
	} else {
		for (i = first; i != SIZE_MAX; i = t->next[i]) {
			t->nums[k++] = t->src_of[2 * i];
			t->nums[k++] = t->src_of[2 * i + 1];
		}
		any = S_numbers(cell, w_source, TR("cand.sources_short"), t->nums, k, "");
		k = 0;
		for (i = first; i != SIZE_MAX; i = t->next[i])
			t->nums[k++] = t->note_of[i];
		any |= S_numbers(cell, w_note, TR("cand.notes_short"), t->nums, k, any ? "; " : "");
	}
	if (!any)
		gs_doc_text(cell, "—");
}

/* ---- the table ------------------------------------------------------- */

#define S_REQ(q) { .key = NULL, .arg = (q), .shown = S_req_shown, .cell = S_req_cell, \
		   .ident = GS_COL_KEY, .same = S_req_same, .hash = S_req_hash }

const gs_sheet_column gs_sheet_columns[] = {
	{ .key = "col.offer", .cell = S_offer_cell, .ident = GS_COL_KEY,
	  .same = S_offer_same, .hash = S_offer_hash },
	{ .key = "col.capacity", .cell = S_capacity_cell, .ident = GS_COL_KEY,
	  .same = S_capacity_same, .hash = S_capacity_hash },
	S_REQ(GS_REQ_MEMORY), S_REQ(GS_REQ_SOFTWARE), S_REQ(GS_REQ_CALENDAR), S_REQ(GS_REQ_BUDGET),
	S_REQ(GS_REQ_QUALITY), S_REQ(GS_REQ_HOST), S_REQ(GS_REQ_REGIONS), S_REQ(GS_REQ_SPEED),
	{ .key = "col.price", .cell = S_price_cell, .ident = GS_COL_RANGE, .same = S_price_same },
	{ .key = "col.speed", .shown = S_speed_shown, .header = S_speed_header, .cell = S_speed_cell,
	  .ident = GS_COL_KEY, .same = S_speed_same, .hash = S_speed_hash },
	{ .key = "col.mtok", .shown = S_speed_shown, .cell = S_mtok_cell, .ident = GS_COL_RANGE,
	  .same = S_mtok_same },
	{ .key = "col.headroom", .shown = S_room_shown, .header = S_room_header, .cell = S_room_cell,
	  .ident = GS_COL_KEY, .same = S_room_same },
	{ .key = "col.overall", .cell = S_class_cell, .ident = GS_COL_KEY,
	  .same = S_class_same, .hash = S_class_hash },
	{ .key = "col.sources_notes", .cell = S_sources_cell, .ident = GS_COL_EACH },
};

const size_t gs_sheet_ncolumns = sizeof(gs_sheet_columns) / sizeof(gs_sheet_columns[0]);

uint64_t gs_sheet_columns_row_hash(const S_ctx *c, const gs_sheet_reasonset *rs, size_t ci)
{
	uint64_t h = 0;
	size_t k;

	for (k = 0; k < gs_sheet_ncolumns; k++)
		if (gs_sheet_columns[k].hash)
			h = S_mix(h, gs_sheet_columns[k].hash(c, rs, gs_sheet_columns[k].arg, ci));
	return h;
}

int gs_sheet_columns_same_row(const S_ctx *c, const gs_sheet_reasonset *rs, size_t ca, size_t cb)
{
	size_t k;

	for (k = 0; k < gs_sheet_ncolumns; k++) {
		const gs_sheet_column *col = &gs_sheet_columns[k];
		/* a column that the row's offers share must say how */
		if ((col->ident == GS_COL_EACH) != !col->same || (col->hash && !col->same))
			GS_BUG("sheet: column %zu (%s) has no row identity of its kind", k,
			       col->key ? col->key : gs_sheet_words_req_keys[col->arg]);
		if (col->same && !col->same(c, rs, col->arg, ca, cb))
			return 0;
	}
	return 1;
}

int gs_sheet_columns_shown(const gs_sheet_cands *t, size_t k)
{
	return !gs_sheet_columns[k].shown || gs_sheet_columns[k].shown(t, gs_sheet_columns[k].arg);
}

char *gs_sheet_columns_header(S_ctx *c, size_t k)
{
	const gs_sheet_column *col = &gs_sheet_columns[k];
	const char *words = TR(col->key ? col->key : gs_sheet_words_req_keys[col->arg]);

	return col->header ? col->header(c, words) : gs_xstrdup(words);
}
