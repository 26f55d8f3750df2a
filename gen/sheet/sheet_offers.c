/*
 * sheet_offers: the candidates: equivalent offers as one row, the candidates
 * table with its sources and notes by number, the compact table of the
 * excluded offers and those of unknown capacity.
 */
#define _DEFAULT_SOURCE
#include "sheet_int.h"

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

/*
 * Equivalent offers, one row: offers of one provider (or reference cards,
 * of none) with the same GPU model, cards per lot, memory figure (its words, the capacity per card
 * and where it comes from), class, headroom, the same kinds of plan in the
 * same currencies, the same reason for every requirement but the budget
 * and the same budget verdict. Their prices, and so their budget reasons,
 * may differ: the row gives the range. Grouped by a hash of that key, in
 * one pass over the offers in table order: a row stands where its first
 * (best ranked) offer stands, its offers in table order.
 */
typedef struct {
	size_t first;      /* position in d->order of its first offer */
	size_t n;          /* its offers */
	size_t last;       /* position of its last offer (while grouping) */
	uint64_t hash;
} S_row;

typedef struct {
	S_row *row;
	size_t nrow;
	size_t *next;      /* next[pos]: the next offer of pos's row, SIZE_MAX after the last */
} S_rows;

static uint64_t S_mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
	return h * 1099511628211ULL;
}

static const char *S_cur(const gs_plan *p)
{
	return p ? p->currency : NULL;
}

static uint64_t S_row_hash(const S_ctx *c, const gs_sheet_reasonset *rs, size_t ci)
{
	const gs_candidate *a = &c->in->d->cands[ci];
	uint64_t h = gs_verdict_offer_lot_hash(c->in->cat, a->offer);
	int q;

	h = S_mix(h, (uint64_t)a->cls);
	h = S_mix(h, a->capacity.present ? a->capacity.bytes : 0);
	h = S_mix(h, a->speed.known ? a->speed.decode_seq_milli : 0);
	for (q = 0; q < GS_REQ_COUNT; q++)
		h = S_mix(h, q == GS_REQ_BUDGET ? (uint64_t)a->v[q].kind
			  : (uint64_t)rs->of[ci * GS_REQ_COUNT + (size_t)q]);
	return h;
}

static int S_same_row(const S_ctx *c, const gs_sheet_reasonset *rs, size_t ca, size_t cb)
{
	const gs_candidate *a = &c->in->d->cands[ca], *b = &c->in->d->cands[cb];
	const gs_offer *x = a->offer, *y = b->offer;
	int q;

	/* the lot (the index matrix's columns group by the same rule), then the verdicts */
	if (!gs_verdict_offer_same_lot(c->in->cat, x, y) || a->cls != b->cls ||
	    !gs_sheet_words_same_qty(a->capacity, b->capacity) || a->cap_source != b->cap_source)
		return 0;
	if (!a->plan != !b->plan || !gs_sheet_words_same_str(S_cur(a->plan), S_cur(b->plan)) ||
	    !gs_sheet_words_same_str(S_cur(a->on_demand.plan), S_cur(b->on_demand.plan)) ||
	    !gs_sheet_words_same_str(S_cur(a->interruptible.plan), S_cur(b->interruptible.plan)))
		return 0;
	/* the speed columns: the same bounds, the same kinds of price per token */
	if (a->speed.known != b->speed.known ||
	    (a->speed.known && (a->speed.decode_seq_milli != b->speed.decode_seq_milli ||
				a->speed.decode_total_milli != b->speed.decode_total_milli ||
				a->speed.has_prefill != b->speed.has_prefill ||
				a->speed.prefill_milli != b->speed.prefill_milli)) ||
	    a->has_mtok_on_demand != b->has_mtok_on_demand ||
	    a->has_mtok_interruptible != b->has_mtok_interruptible)
		return 0;
	if (a->has_headroom != b->has_headroom ||
	    (a->has_headroom && (a->headroom_tokens != b->headroom_tokens ||
				 a->headroom_sequences != b->headroom_sequences ||
				 a->headroom_prov != b->headroom_prov ||
				 !a->headroom_synthetic != !b->headroom_synthetic ||
				 !a->headroom_without_reserve != !b->headroom_without_reserve)))
		return 0;
	for (q = 0; q < GS_REQ_COUNT; q++) {
		const gs_verdict *u = &a->v[q], *v = &b->v[q];
		if (q == GS_REQ_BUDGET) {
			if (u->kind != v->kind || !u->synthetic != !v->synthetic)
				return 0;
		} else if (rs->of[ca * GS_REQ_COUNT + (size_t)q] != rs->of[cb * GS_REQ_COUNT + (size_t)q]) {
			return 0;
		}
	}
	return 1;
}

static void S_rows_build(const S_ctx *c, const gs_sheet_reasonset *rs, S_rows *rw)
{
	const gs_decision *d = c->in->d;
	size_t n = d->ncands, nslot = 16, i;
	size_t *slot;

	while (nslot < 2 * n)
		nslot *= 2;
	slot = gs_xcalloc(nslot, sizeof(*slot));
	rw->row = gs_xmalloc((n + 1) * sizeof(*rw->row));
	rw->next = gs_xmalloc((n + 1) * sizeof(*rw->next));
	rw->nrow = 0;
	for (i = 0; i < n; i++) {
		size_t ci = d->order[i], g = SIZE_MAX, k = 0;
		uint64_t h = 0;

		rw->next[i] = SIZE_MAX;
		{
			h = S_row_hash(c, rs, ci);
			for (k = (size_t)h & (nslot - 1); slot[k]; k = (k + 1) & (nslot - 1)) {
				const S_row *o = &rw->row[slot[k] - 1];
				if (o->hash == h && S_same_row(c, rs, d->order[o->first], ci)) {
					g = slot[k] - 1;
					break;
				}
			}
		}
		if (g == SIZE_MAX) {
			g = rw->nrow++;
			rw->row[g].first = rw->row[g].last = i;
			rw->row[g].n = 1;
			rw->row[g].hash = h;
			slot[k] = g + 1;
		} else {
			rw->next[rw->row[g].last] = i;
			rw->row[g].last = i;
			rw->row[g].n++;
		}
	}
	free(slot);
}

static void S_rows_release(S_rows *rw)
{
	free(rw->row);
	free(rw->next);
}

/* "26.63–33.76 USD for the campaign; 0.3698–0.4689 USD/h on-demand, 0.30
 * interruptible": the range of a row's prices (one figure when they are
 * the same), in gs_sheet_answer_price_text's words. */
static void S_range_text(S_ctx *c, cmark_node *p, const S_rows *rw, size_t g)
{
	const gs_decision *d = c->in->d;
	const gs_candidate *f = &d->cands[d->order[rw->row[g].first]];
	int64_t lo[3], hi[3];
	const gs_plan *pl[3];
	const char *word[3];
	size_t i;
	int k, any = 0;

	pl[0] = f->plan;
	pl[1] = f->on_demand.plan;
	pl[2] = f->interruptible.plan;
	word[0] = TR("answer.campaign");
	word[1] = TR("price.on_demand");
	word[2] = TR("price.interruptible");
	for (k = 0; k < 3; k++)
		lo[k] = INT64_MAX, hi[k] = INT64_MIN;
	for (i = rw->row[g].first; i != SIZE_MAX; i = rw->next[i]) {
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
		gs_doc_textf(p, "%s%s%s%s %s%s %s",
			     !any ? "" : k == 2 && !pl[0] ? ", " : "; ",
			     a, lo[k] != hi[k] ? "–" : "", lo[k] != hi[k] ? b : "",
			     pl[k]->currency, k ? "/h" : "", word[k]);
		any = 1;
	}
	if (!any)
		gs_doc_text(p, TR("word.missing"));
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

/* Excluded offers and those of unknown capacity are not rows of the table:
 * their verdict that decides, and the offers it decides, in a short table. */
static int S_compact(const gs_candidate *cd)
{
	return cd->cls == GS_CLASS_EXCLUDED || cd->cls == GS_CLASS_UNKNOWN;
}

/* The verdict that decides a compact offer's class: an exclusion (each),
 * or the memory verdict of an offer of unknown capacity. */
static int S_deciding(const gs_candidate *cd, int q)
{
	return cd->cls == GS_CLASS_EXCLUDED ? cd->v[q].kind == GS_V_EXCLUDE : q == GS_REQ_MEMORY;
}

/*
 * The compact offers grouped by their class, the requirement whose verdict
 * decides it and that verdict's kind of reason (its label key: "above the
 * budget", whatever the cost): a row per group in order of its first offer
 * in the table, its offers in table order, each named, and each offer's
 * fragment (#offer-ID) in its first group's cell; the verdict links to the
 * reason (budget reasons merged, rep), or to the requirement's reasons when
 * the group's offers have several. An offer excluded by two requirements
 * is in two groups.
 */
static void S_compact_table(S_ctx *c, const gs_sheet_reasonset *rs, const size_t *rep,
			    char *vtext[4][2])
{
	const gs_decision *d = c->in->d;
	const char *h[3];
	size_t n = d->ncands, i, j, g, ng = 0;
	size_t *gcls = NULL, *gq = NULL, *gwhy = NULL, *gnext, *glast = NULL, *gfirst = NULL;
	unsigned char *gmixed = NULL;
	unsigned char *named;
	cmark_node *tb = NULL, *r, *cell, *p;
	int q;

	for (i = 0; i < n && !S_compact(&d->cands[d->order[i]]); i++)
		;
	if (i == n)
		return;
	gnext = gs_xmalloc((n * GS_REQ_COUNT + 1) * sizeof(*gnext));
	named = gs_xcalloc(n + 1, 1);
	for (i = 0; i < n; i++) {
		size_t ci = d->order[i];
		const gs_candidate *cd = &d->cands[ci];
		for (q = 0; q < GS_REQ_COUNT; q++) {
			size_t k = i * GS_REQ_COUNT + (size_t)q, why;
			gnext[k] = SIZE_MAX;
			if (!S_compact(cd) || !S_deciding(cd, q))
				continue;
			why = rep[rs->of[ci * GS_REQ_COUNT + (size_t)q]];
			for (g = 0; g < ng; g++) {
				const gs_verdict *u = &d->cands[d->order[gfirst[g] / GS_REQ_COUNT]].v[q];
				const gs_verdict *v = &cd->v[q];
				if (gcls[g] == (size_t)cd->cls && gq[g] == (size_t)q && u->kind == v->kind &&
				    !u->synthetic == !v->synthetic && gs_sheet_words_same_str(u->why, v->why))
					break;
			}
			if (g == ng) {
				gcls = gs_xrealloc(gcls, (ng + 1) * sizeof(*gcls));
				gq = gs_xrealloc(gq, (ng + 1) * sizeof(*gq));
				gwhy = gs_xrealloc(gwhy, (ng + 1) * sizeof(*gwhy));
				gfirst = gs_xrealloc(gfirst, (ng + 1) * sizeof(*gfirst));
				glast = gs_xrealloc(glast, (ng + 1) * sizeof(*glast));
				gmixed = gs_xrealloc(gmixed, ng + 1);
				gmixed[g] = 0;
				gcls[g] = (size_t)cd->cls;
				gq[g] = (size_t)q;
				gwhy[g] = why;
				gfirst[g] = glast[g] = k;
				ng++;
			} else {
				gnext[glast[g]] = k;
				glast[g] = k;
				gmixed[g] |= why != gwhy[g];
			}
		}
	}
	p = gs_doc_para(c->root);
	gs_doc_text(p, TR("cand.compact_intro"));
	h[0] = TR("col.overall");
	h[1] = TR("col.deciding");
	h[2] = TR("col.offers");
	for (g = 0; g < ng; g++) {
		size_t cnt = 0, k;
		gs_verdict_kind kind;
		int syn;
		char num[GS_DEC_MAX + 1];
		for (k = gfirst[g]; k != SIZE_MAX; k = gnext[k])
			cnt++;
		{
			const gs_verdict *v = &d->cands[d->order[gfirst[g] / GS_REQ_COUNT]].v[gq[g]];
			kind = v->kind;
			syn = v->synthetic && v->kind != GS_V_TO_CONFIRM;
		}
		if (!tb)
			tb = gs_doc_table(c->doc, c->root, TR("cap.compact"), 3, h);
		r = gs_doc_row(tb);
		gs_doc_cell_text(r, gs_sheet_words_class_words(c, (gs_class)gcls[g]));
		cell = gs_doc_cell(r);
		gs_doc_textf(cell, "%s: %s", TR(gs_sheet_words_req_keys[gq[g]]), vtext[kind][syn]);
		num[GS_DEC_MAX] = '\0';
		if (gmixed[g])
			gs_sheet_words_anchor(c->doc, cell, "reasons-", gs_verdict_req_id((gs_req)gq[g]), gs_doc_cell_link);
		else
			gs_sheet_words_anchor(c->doc, cell, "why-", gs_dec(num, gwhy[g], 0), gs_doc_cell_link);
		cell = gs_doc_cell(r);
		/* sheets/ID.html#offer-OFFER: the site's pages link to each offer */
		for (k = gfirst[g]; k != SIZE_MAX; k = gnext[k])
			if (!named[k / GS_REQ_COUNT]) {
				named[k / GS_REQ_COUNT] = 1;
				gs_sheet_words_anchor(c->doc, cell, "offer-", d->cands[d->order[k / GS_REQ_COUNT]].offer->id,
					 gs_doc_cell_id);
			}
		if (cnt > 1)
			gs_doc_textf(cell, "%zu %s: ", cnt, TR("cand.offers"));
		for (k = gfirst[g], j = 0; k != SIZE_MAX; k = gnext[k], j++) {
			if (j)
				gs_doc_text(cell, ", ");
			gs_doc_code(cell, d->cands[d->order[k / GS_REQ_COUNT]].offer->id);
		}
	}
	free(gcls);
	free(gq);
	free(gwhy);
	free(gfirst);
	free(glast);
	free(gmixed);
	free(gnext);
	free(named);
}

void gs_sheet_offers_candidates(S_ctx *c)
{
	const gs_decision *d = c->in->d;
	const char *h[GS_REQ_COUNT + 8];
	char *vtext[4][2], *hroom, *hspeed = NULL;
	int same[GS_REQ_COUNT], ncols, unstated = 0, any_room = 0, any_speed = gs_sheet_speed_any(d);
	size_t ntab = 0, f0;
	const char *w_missing, *w_source, *w_note, *w_status[GS_CLASS_COUNT];
	const char *const *rk = gs_sheet_words_req_keys;
	cmark_node *tb, *r, *p;
	gs_sheet_reasonset own;
	const gs_sheet_reasonset *rs = c->in->rs;
	gs_sheet_sharedset sources = { 0 }, notes = { 0 };
	S_rows rw;
	size_t i, g, *src_of, *note_of, *nums, *rep, *rnext;
	int q;

	if (!rs) {
		gs_sheet_reasons_set_build(c->in, &own);
		rs = &own;
	}
	S_rows_build(c, rs, &rw);
	rep = gs_xmalloc((rs->n + 1) * sizeof(*rep));
	rnext = gs_xmalloc((rs->n + 1) * sizeof(*rnext));
	gs_sheet_reasons_budget_merge(c, rs, rep, rnext);
	/* The sources and catalog notes the offers share, numbered once in
	 * table order, the offers of a row one after the other (SIZE_MAX:
	 * none). */
	src_of = gs_xmalloc((2 * d->ncands + 1) * sizeof(*src_of));
	note_of = gs_xmalloc((d->ncands + 1) * sizeof(*note_of));
	nums = gs_xmalloc((3 * d->ncands + 1) * sizeof(*nums));
	for (g = 0; g < rw.nrow; g++)
		for (i = rw.row[g].first; i != SIZE_MAX; i = rw.next[i]) {
			const gs_candidate *cd = &d->cands[d->order[i]];
			char w1[256];

			src_of[2 * i] = src_of[2 * i + 1] = note_of[i] = SIZE_MAX;
			if (S_compact(cd))
				continue;
			if (!cd->offer->memory_unknown)
				src_of[2 * i] = gs_sheet_sources_share_source(&sources, gs_xasprintf("%s (%s)",
					cd->offer->memory_claim.source,
					gs_catalog_claim_when(&cd->offer->memory_claim, TR("claim.undated"), w1, sizeof(w1))), 0, i);
			if (cd->plan)
				src_of[2 * i + 1] = gs_sheet_sources_share_source(&sources, gs_xasprintf("%s (%s)",
					cd->plan->claim.source,
					gs_catalog_claim_when(&cd->plan->claim, TR("claim.undated"), w1, sizeof(w1))), 1, i);
			if (cd->offer->notes) {
				char *masked = gs_sheet_sources_offer_note_masked(c, cd->offer);
				note_of[i] = masked
					? gs_sheet_sources_share_shown(&notes, masked, gs_xstrdup(cd->offer->notes), 0, i)
					: gs_sheet_sources_share(&notes, gs_xstrdup(cd->offer->notes), 0, i);
			}
		}

	/* A requirement whose verdict and reason are the same for every offer
	 * of the table is one sentence above it, not a column. */
	for (q = 0; q < GS_REQ_COUNT; q++)
		same[q] = 1;
	for (g = 0; g < rw.nrow && S_compact(&d->cands[d->order[rw.row[g].first]]); g++)
		;
	f0 = g < rw.nrow ? d->order[rw.row[g].first] : 0;
	for (g = 0; g < rw.nrow; g++) {
		size_t first = rw.row[g].first;
		if (S_compact(&d->cands[d->order[first]]))
			continue;
		for (i = first; i != SIZE_MAX; i = rw.next[i])
			for (q = 0; q < GS_REQ_COUNT; q++)
				if (rep[rs->of[d->order[i] * GS_REQ_COUNT + (size_t)q]] !=
				    rep[rs->of[f0 * GS_REQ_COUNT + (size_t)q]])
					same[q] = 0;
		/* no headroom calculated for any row (a training, a cache that
		 * is not dense): no headroom column */
		any_room |= d->cands[d->order[first]].has_headroom;
		ntab++;
	}
	/* What every row repeats, looked up and formatted once: the verdict
	 * cells' texts (by kind, then synthetic), the words of the last
	 * columns. */
	for (q = 0; q < 4; q++) {
		vtext[q][0] = gs_xasprintf("%s %s", gs_sheet_words_verdict_symbol((gs_verdict_kind)q),
					   gs_sheet_words_verdict_word(c, (gs_verdict_kind)q));
		vtext[q][1] = gs_xasprintf("%s%s", vtext[q][0], TR("verdict.synthetic_suffix"));
	}
	gs_doc_heading(c->root, 2, TR("sec.candidates"));
	p = gs_doc_para(c->root);
	gs_doc_text(p, TR("cand.intro"));
	tb = NULL;
	hroom = NULL;
	if (ntab) {
		int k = 0;
		for (q = 0; q < GS_REQ_COUNT; q++) {
			const gs_verdict *v = &d->cands[f0].v[q];
			if (!same[q])
				continue;
			if (!k++) {
				p = gs_doc_para(c->root);
				gs_doc_text(p, TR("cand.same_all"));
			}
			gs_doc_textf(p, "%s %s: %s", k > 1 ? ";" : "", TR(rk[q]),
				     vtext[v->kind][v->synthetic && v->kind != GS_V_TO_CONFIRM]);
		}
		if (k)
			gs_doc_text(p, ".");
		if (any_room) {
			gs_verdict hv;
			char a[GS_FMT_MAX], b[GS_FMT_MAX];
			memset(&hv, 0, sizeof(hv));
			hv.n1 = gs_qty_fmt_int(a, c->in->s->kv_sequences, c->lang);
			hv.n2 = gs_qty_fmt_int(b, c->in->s->kv_tokens_kept, c->lang);
			hroom = gs_sheet_words_expand(c, TR("col.headroom"), &hv);
		}
		ncols = 0;
		h[ncols++] = TR("col.offer");
		h[ncols++] = TR("col.capacity");
		for (q = 0; q < GS_REQ_COUNT; q++)
			if (!same[q])
				h[ncols++] = TR(rk[q]);
		h[ncols++] = TR("col.price");
		if (any_speed)
			gs_sheet_speed_header(c, h, &ncols, (int)(sizeof(h) / sizeof(h[0])) - 3, &hspeed);
		if (any_room)
			h[ncols++] = hroom;
		h[ncols++] = TR("col.overall");
		h[ncols++] = TR("col.sources_notes");
		tb = gs_doc_table(c->doc, c->root, TR("cap.candidates"), (size_t)ncols, h);
	}
	w_missing = TR("word.missing");
	w_source = TR("cand.source");
	w_note = TR("cand.note");
	for (q = 0; q < GS_CLASS_COUNT; q++)
		w_status[q] = gs_sheet_words_class_words(c, (gs_class)q);
	for (g = 0; g < rw.nrow; g++) {
		size_t first = rw.row[g].first, nof = rw.row[g].n;
		const gs_candidate *cd = &d->cands[d->order[first]];
		char gb[GS_FMT_MAX];
		cmark_node *cell;
		char mem[GS_FMT_MAX];
		/* the figure's words, unless the capacity cell says them */
		const char *mem_words = cd->offer->memory_unknown ||
			(cd->capacity.present && cd->cap_source == GS_CAP_NOMINAL) ? ""
			: TR(cd->offer->mib_text ? "cand.provider_assumed" : "cand.nominal_assumed");

		if (S_compact(cd))
			continue;
		r = gs_doc_row(tb);
		/* sheets/ID.html#offer-OFFER: the site's matrix and offer pages
		 * link to the offer's row; the other offers of a row are
		 * anchors in its first cell */
		gs_sheet_words_anchor(c->doc, r, "offer-", cd->offer->id, gs_doc_row_id);
		cell = gs_doc_cell(r);
		gs_catalog_offer_memory_label(cd->offer, w_missing, mem, sizeof(mem));
		if (nof == 1) {
			gs_doc_code(cell, cd->offer->id);
			gs_doc_textf(cell, " %s, %llu x %s%s%s", cd->offer->gpu_model,
				     (unsigned long long)cd->offer->cards, mem,
				     *mem_words ? " " : "", mem_words);
			if (cd->offer->provider)
				gs_doc_textf(cell, " — %s", cd->offer->provider);
		} else {
			/* "Cudo · 1 x A40 · 49152 MiB (assumed: ...) · 13 offers (`a`, ...)" */
			size_t *pos = nums, k = 0;
			for (i = first; i != SIZE_MAX; i = rw.next[i]) {
				if (i != first)
					gs_sheet_words_anchor(c->doc, cell, "offer-", d->cands[d->order[i]].offer->id,
						 gs_doc_cell_id);
				if (k < GS_SHEET_FEW_OFFERS)
					pos[k++] = i;
			}
			/* reference cards (no provider) share rows among themselves */
			if (cd->offer->provider)
				gs_doc_textf(cell, "%s · ", cd->offer->provider);
			gs_doc_textf(cell, "%llu x %s · %s%s%s · ",
				     (unsigned long long)cd->offer->cards, cd->offer->gpu_model, mem,
				     *mem_words ? " " : "", mem_words);
			gs_doc_textf(cell, "%zu %s (", nof, TR("cand.offers"));
			gs_sheet_sources_offer_list(c, cell, pos, k);
			if (nof > k)
				gs_doc_textf(cell, " %s %zu %s", TR("cand.and"), nof - k, TR("cand.more"));
			gs_doc_text(cell, ")");
		}
		if (c->in->cat->origins)
			gs_doc_textf(cell, " (%s: %s)", TR("site.catalog"),
				     gs_catalog_origin(c->in->cat, cd->offer));
		if (!cd->capacity.present)
			gs_doc_cell_text(r, w_missing);
		else
			gs_sheet_words_cell_owned(r, gs_xasprintf("%s (%s, %s%s)", gs_qty_fmt_gib(gb, cd->capacity.bytes, c->lang),
						 gs_sheet_words_qprov(c, cd->capacity),
						 TR(cd->cap_source == GS_CAP_OBSERVED ? "cap.observed"
						    : cd->cap_source == GS_CAP_DECLARED ? "cap.declared"
						    : cd->cap_source == GS_CAP_REPORTED ? "cap.reported"
						    : cd->gpu ? "cap.nominal"
						    : cd->offer->mib_text ? "cap.provider_mib_decimal" : "cap.nominal"),
						 cd->cap_source != GS_CAP_OBSERVED &&
						 (cd->gpu || cd->offer->memory_origin == GS_MEMORY_FROM_VENDOR)
						 ? TR("cap.from_vendor_table") : ""));
		/* a reported total cites the public log it was read in */
		if (cd->cap_source == GS_CAP_REPORTED && cd->gpu && cd->gpu->reported_source) {
			cmark_node *last = cmark_node_last_child(r);
			gs_doc_textf(last, " — %s ", TR("cap.reported_in"));
			gs_doc_code(last, cd->gpu->reported_source);
		}
		/* an observed capacity names the file, and who reported an imported log */
		if (cd->cap_source == GS_CAP_OBSERVED && cd->cap_from && cd->cap_from->ref->file) {
			cmark_node *last = cmark_node_last_child(r);
			gs_doc_textf(last, " — %s ", TR("cap.observed_in"));
			gs_doc_code(last, cd->cap_from->ref->file);
			if (cd->cap_from->m->import_source)
				gs_doc_textf(last, ", %s %s", TR("cap.reported_by"),
					     cd->cap_from->m->import_source);
		}
		for (q = 0; q < GS_REQ_COUNT; q++) {
			const gs_verdict *v = &cd->v[q];
			size_t why = rep[rs->of[d->order[first] * GS_REQ_COUNT + (size_t)q]];
			if (same[q])
				continue;
			cell = gs_doc_cell_text(r, vtext[v->kind][v->synthetic && v->kind != GS_V_TO_CONFIRM]);
			/* In the HTML, the verdict links to its reason (listed below
			 * unless not required); a row whose offers have several
			 * budget reasons, to the budget's reasons */
			if (v->kind != GS_V_NOT_REQUIRED) {
				char n[GS_DEC_MAX + 1];
				for (i = rw.next[first]; i != SIZE_MAX; i = rw.next[i])
					if (rep[rs->of[d->order[i] * GS_REQ_COUNT + (size_t)q]] != why)
						break;
				n[GS_DEC_MAX] = '\0';
				if (i == SIZE_MAX)
					gs_sheet_words_anchor(c->doc, cell, "why-", gs_dec(n, why, 0), gs_doc_cell_link);
				else
					gs_sheet_words_anchor(c->doc, cell, "reasons-", gs_verdict_req_id((gs_req)q), gs_doc_cell_link);
			}
		}
		if (nof > 1) {
			cell = gs_doc_cell(r);
			S_range_text(c, cell, &rw, g);
		} else if (cd->plan) {
			S_cost_cell(c, r, cd, &unstated);
		} else if (cd->on_demand.plan || cd->interruptible.plan) {
			cell = gs_doc_cell(r);
			gs_sheet_answer_price_text(c, cell, cd);
		} else {
			gs_doc_cell_text(r, w_missing);
		}
		if (any_speed)
			gs_sheet_speed_cells(c, r, rw.next, first);
		if (any_room) {
			cell = gs_doc_cell(r);
			gs_sheet_answer_headroom_text(c, cell, cd);
		}
		gs_doc_cell_text(r, w_status[cd->cls]);
		/* its sources (the memory figure's, the price's) and note, by number */
		cell = gs_doc_cell(r);
		if (nof == 1) {
			size_t m = src_of[2 * first], pr = src_of[2 * first + 1];
			int any = 0;
			if (m != SIZE_MAX) {
				gs_doc_textf(cell, "%s %zu", w_source, m + 1);
				any = 1;
			}
			if (pr != SIZE_MAX && pr != m) {
				gs_doc_textf(cell, "%s%s %zu", any ? ", " : "", w_source, pr + 1);
				any = 1;
			}
			if (note_of[first] != SIZE_MAX) {
				gs_doc_textf(cell, "%s%s %zu", any ? "; " : "", w_note, note_of[first] + 1);
				any = 1;
			}
			if (!any)
				gs_doc_text(cell, "—");
		} else {
			size_t k = 0;
			int any;
			for (i = first; i != SIZE_MAX; i = rw.next[i]) {
				nums[k++] = src_of[2 * i];
				nums[k++] = src_of[2 * i + 1];
			}
			any = S_numbers(cell, w_source, TR("cand.sources_short"), nums, k, "");
			k = 0;
			for (i = first; i != SIZE_MAX; i = rw.next[i])
				nums[k++] = note_of[i];
			any |= S_numbers(cell, w_note, TR("cand.notes_short"), nums, k, any ? "; " : "");
			if (!any)
				gs_doc_text(cell, "—");
		}
	}
	free(hroom);
	free(hspeed);
	if (unstated) {
		p = gs_doc_para(c->root);
		gs_doc_textf(p, "† %s", TR("cand.billing_mark"));
	}
	if (ntab)
		gs_sheet_speed_para(c);
	S_compact_table(c, rs, rep, vtext);
	for (q = 0; q < 4; q++) {
		free(vtext[q][0]);
		free(vtext[q][1]);
	}

	gs_sheet_reasons_section(c, rs, &sources, rep, rnext);
	free(rep);
	free(rnext);
	if (rs == &own)
		gs_sheet_reasons_set_release(&own);
	gs_sheet_sources_shared_list(c, &sources, "cand.sources", "sources", "source", 1);
	gs_sheet_sources_shared_list(c, &notes, "cand.notes", "catalog-notes", "note", 0);
	gs_sheet_sources_shared_release(&sources);
	gs_sheet_sources_shared_release(&notes);
	S_rows_release(&rw);
	free(src_of);
	free(note_of);
	free(nums);
}
