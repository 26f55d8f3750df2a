/*
 * sheet_answer: the answer first: the decision in one sentence, the best offer of
 * each class, the levers when no offer holds the need, the summary card;
 * and the decision section (the ranking or the pre-selection).
 */
#define _DEFAULT_SOURCE
#include "sheet_int.h"
#include "model.h"
#include "wformat.h"

void gs_sheet_answer_warning_synthetic(S_ctx *c)
{
	size_t i;
	cmark_node *q, *p;

	if (!c->in->d->synthetic)
		return;
	q = gs_doc_quote(c->root);
	p = gs_doc_para(q);
	if (c->in->d->demonstration) {
		gs_doc_strong(p, TR("demo.title"));
		gs_doc_text(p, " ");
		gs_doc_text(p, TR("demo.sheet_body"));
	} else {
		gs_doc_strong(p, TR("synthetic.title"));
		gs_doc_text(p, " ");
		gs_doc_text(p, TR(c->in->d->accept_synthetic ? "synthetic.body_accepted"
							     : "synthetic.body"));
	}
	for (i = 0; i < c->in->nev; i++)
		if (c->in->ev[i].m->synthetic) {
			gs_doc_text(p, " ");
			gs_doc_code(p, c->in->ev[i].ref->file);
			if (c->in->ev[i].m->synthetic_note) {
				gs_doc_text(p, ": ");
				gs_doc_text(p, c->in->ev[i].m->synthetic_note);
			}
		}
}

/* "3.99 USD/h on-demand, 3.59 interruptible", or the campaign's total;
 * text appended to p. Returns 0 when the candidate has no price at all. */
int gs_sheet_answer_price_text(S_ctx *c, cmark_node *p, const gs_candidate *cd)
{
	char m[GS_FMT_MAX];
	int any = 0;

	if (cd->plan) {
		gs_doc_textf(p, "%s %s %s", gs_qty_fmt_money(m, cd->cost, c->lang), cd->plan->currency,
			     TR("answer.campaign"));
		any = 1;
	}
	if (cd->on_demand.plan) {
		gs_doc_textf(p, "%s%s %s/h %s", any ? "; " : "",
			     gs_qty_fmt_micro(m, cd->on_demand.micro_per_hour, c->lang),
			     cd->on_demand.plan->currency, TR("price.on_demand"));
		any = 1;
	}
	if (cd->interruptible.plan) {
		gs_doc_textf(p, "%s%s %s/h %s", any ? (cd->plan ? "; " : ", ") : "",
			     gs_qty_fmt_micro(m, cd->interruptible.micro_per_hour, c->lang),
			     cd->interruptible.plan->currency, TR("price.interruptible"));
		any = 1;
	}
	if (!any)
		gs_doc_text(p, TR("answer.no_price"));
	return any;
}

/* Prices older than this many days on the sheet's date are flagged (docs/formats.md, 4). */
#define S_STALE_DAYS 30

/* Days since 1970-01-01 of a valid YYYY-MM-DD (proleptic Gregorian). */
static long S_day_number(const char *d)
{
	long y = strtol(d, NULL, 10), m = strtol(d + 5, NULL, 10), dd = strtol(d + 8, NULL, 10);
	long era, yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + dd - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

/*
 * "; prices of 2026-11-29, 6 days old on 2026-12-05": the date of the
 * price the answer quotes (the campaign's plan, else the cheapest hourly
 * one), how old it is on the sheet's date, and a warning past
 * S_STALE_DAYS; an undated price says so with its reference.
 */
static void S_price_date(S_ctx *c, cmark_node *p, const gs_candidate *cd)
{
	const gs_plan *pl = cd->plan ? cd->plan : cd->on_demand.plan ? cd->on_demand.plan : cd->interruptible.plan;
	long age;

	if (!pl)
		return;
	if (!pl->claim.date) {
		gs_doc_textf(p, "; %s%s%s", TR("answer.prices_undated"), pl->claim.ref ? ", " : "",
			     pl->claim.ref ? pl->claim.ref : "");
		return;
	}
	gs_doc_textf(p, "; %s %s", TR("answer.prices_of"), pl->claim.date);
	if (!c->in->date)
		return;
	age = S_day_number(c->in->date) - S_day_number(pl->claim.date);
	if (age < 0)
		return;
	gs_doc_textf(p, ", %ld %s %s", age, TR("answer.days_old"), c->in->date);
	if (age > S_STALE_DAYS)
		gs_doc_textf(p, " (%s)", TR("answer.prices_stale"));
}

/* "61,440 tokens; 15 sequences (assumed)" (the required sequences and
 * context are the column's header), or "—" when the headroom is not
 * calculated. */
void gs_sheet_answer_headroom_text(S_ctx *c, cmark_node *p, const gs_candidate *cd)
{
	char a[GS_FMT_MAX], b[GS_FMT_MAX];

	if (!cd->has_headroom) {
		gs_doc_text(p, "—");
		return;
	}
	gs_doc_textf(p, "%s %s; %s %s (%s%s)",
		     gs_qty_fmt_int(a, cd->headroom_tokens, c->lang), TR("headroom.tokens"),
		     gs_qty_fmt_int(b, cd->headroom_sequences, c->lang), TR("headroom.sequences"),
		     gs_sheet_words_prov(c->t, cd->headroom_prov, cd->headroom_synthetic),
		     cd->headroom_without_reserve ? TR("headroom.without_reserve") : "");
}

/* The requirements still to confirm, in words, or "nothing". */
static void S_to_confirm_text(S_ctx *c, cmark_node *p, const gs_candidate *cd)
{
	int q, k = 0;

	for (q = 0; q < GS_REQ_COUNT; q++)
		if (cd->v[q].kind == GS_V_TO_CONFIRM)
			gs_doc_textf(p, "%s%s", k++ ? ", " : "", TR(gs_sheet_words_req_keys[q]));
	if (!k)
		gs_doc_text(p, TR("answer.nothing"));
}

/* Rentable offers of known capacity whose card would hold the calculated
 * lower bound with w_bytes of weights (another format). */
static size_t S_count_holding(const S_ctx *c, uint64_t w_bytes)
{
	const gs_decision *d = c->in->d;
	size_t i, n = 0;

	for (i = 0; i < d->ncands; i++) {
		const gs_candidate *cd = &d->cands[i];
		if (cd->cls == GS_CLASS_REFERENCE || !cd->capacity.present)
			continue;
		if (gs_verdict_candidate_lower_with_weights(c->in->w, c->in->s, cd, w_bytes) <=
		    cd->capacity.bytes)
			n++;
	}
	return n;
}

/*
 * The weights lever on a model read from its files: the real formats
 * (wformat.h) smaller than the weights counted, each with its bytes by the
 * format's rule and the offers that would hold the lower bound. Returns
 * how many were named.
 */
static int S_real_formats(const S_ctx *c, cmark_node *p, uint64_t counted)
{
	const gs_workload *w = c->in->w;
	int id, any = 0;

	for (id = GS_WF_INT8; id < GS_WF_COUNT; id++) {
		gs_wformat_result r;
		char *why = NULL;
		char g[GS_FMT_MAX], n[GS_FMT_MAX];

		if (gs_wformat_bytes(w->model, (gs_wformat_id)id, &r, &why) || r.bytes >= counted) {
			free(why);
			continue;
		}
		gs_doc_textf(p, "%s%s: %s, %s %s", any++ ? "; " : " ", r.name,
			     gs_qty_fmt_gib(g, r.bytes, c->lang),
			     gs_qty_fmt_int(n, S_count_holding(c, r.bytes), c->lang),
			     TR("lever.offers_hold"));
	}
	if (any)
		gs_doc_textf(p, " (%s%s)", TR("prov.calculated"), TR("lever.format_rule"));
	return any;
}

/*
 * The KV lever: the cache dtypes narrower than the one counted (kvdtype.h),
 * each with the KV cache it would keep and the offers that would hold the
 * lower bound with it; llama.cpp's block types only where the workload
 * could keep them (sizing.h gs_sizing_kv_with_dtype). Returns how many
 * were named.
 */
static int S_kv_dtypes(const S_ctx *c, cmark_node *p)
{
	const gs_workload *w = c->in->w;
	const gs_sizing *s = c->in->s;
	const gs_decision *d = c->in->d;
	size_t k, i;
	int any = 0;

	for (k = 0; gs_kvdtype_ids[k]; k++) {
		const gs_kvdtype *t = gs_kvdtype_find(gs_kvdtype_ids[k]);
		uint64_t kv, n = 0;
		char g[GS_FMT_MAX], m[GS_FMT_MAX];

		if (gs_sizing_kv_with_dtype(w, s, t, &kv) || kv >= s->kv.bytes)
			continue;
		for (i = 0; i < d->ncands; i++) {
			const gs_candidate *cd = &d->cands[i];
			if (cd->cls == GS_CLASS_REFERENCE || !cd->capacity.present)
				continue;
			if (gs_verdict_candidate_lower_with_kv(w, s, cd, kv) <= cd->capacity.bytes)
				n++;
		}
		if (!any)
			gs_doc_textf(p, " %s", TR("lever.kv_dtypes"));
		gs_doc_textf(p, "%s%s%s: %s, %s %s", any++ ? "; " : " ", t->name,
			     gs_kvdtype_is_block(t) ? TR("lever.kv_block") : "",
			     gs_qty_fmt_gib(g, kv, c->lang), gs_qty_fmt_int(m, n, c->lang),
			     TR("lever.offers_hold"));
	}
	if (any)
		gs_doc_textf(p, " (%s).", TR("prov.calculated"));
	return any;
}

/*
 * When no offer holds the whole calculated need: what to change, one lever
 * for the largest item (the seeds name one per item), one thing at a time.
 */
static void S_levers(S_ctx *c)
{
	const gs_decision *d = c->in->d;
	const gs_sizing *s = c->in->s;
	const gs_workload *w = c->in->w;
	cmark_node *p;
	uint64_t train = s->training.present ? s->training.bytes : 0;
	uint64_t kv = s->kv.present ? s->kv.bytes : 0, room_tokens, room_seqs;
	gs_verdict v;
	char g[GS_FMT_MAX], *t;
	size_t i;

	if (d->nclass[GS_CLASS_RETAINED] || d->nclass[GS_CLASS_FITS] || !d->ncands)
		return;
	/* the labels' placeholders are a verdict's: {a} {b} {s1} {s2} {n1}-{n3} */
	memset(&v, 0, sizeof(v));
	v.b = v.w = v.kv = gs_qty_missing();
	p = gs_doc_para(c->root);
	gs_doc_strong(p, TR("lever.label"));
	gs_doc_text(p, " ");
	if (s->has_train) {
		gs_sheet_training_lever(c, p);
	} else if (w->task != GS_TASK_INFERENCE && train >= s->weights.bytes && train >= kv) {
		v.a = s->training;
		t = gs_sheet_words_expand(c, TR("lever.training"), &v);
		gs_doc_text(p, t);
		free(t);
	} else if (kv > s->weights.bytes) {
		const gs_candidate *big = NULL;
		v.a = s->kv;
		t = gs_sheet_words_expand(c, TR("lever.kv"), &v);
		gs_doc_text(p, t);
		free(t);
		/* the largest rentable card: what it holds at the required figures */
		for (i = 0; i < d->ncands; i++) {
			const gs_candidate *cd = &d->cands[i];
			if (cd->cls == GS_CLASS_REFERENCE || !cd->capacity.present)
				continue;
			if (!big || cd->capacity.bytes > big->capacity.bytes)
				big = cd;
		}
		if (big && gs_verdict_candidate_room(w, s, big, &room_tokens, &room_seqs) == 0) {
			char a[GS_FMT_MAX], b[GS_FMT_MAX], tk[GS_FMT_MAX], q[GS_FMT_MAX];
			v.s1 = big->offer->id;
			v.b = big->capacity;
			v.n1 = gs_qty_fmt_int(a, room_tokens, c->lang);
			v.n2 = gs_qty_fmt_int(q, s->kv_sequences, c->lang);
			v.n3 = gs_qty_fmt_int(b, room_seqs, c->lang);
			v.s2 = gs_qty_fmt_int(tk, s->kv_tokens_kept, c->lang);
			t = gs_sheet_words_expand(c, TR("lever.kv_headroom"), &v);
			gs_doc_textf(p, " %s", t);
			free(t);
		}
		if (S_kv_dtypes(c, p))
			gs_doc_textf(p, " %s", TR("lever.quality"));
	} else {
		int any = 0, real = 0;
		v.a = s->weights;
		t = gs_sheet_words_expand(c, TR("lever.weights"), &v);
		gs_doc_text(p, t);
		free(t);
		if (w->model && w->model->has_matrices && !w->weights_format)
			any = real = S_real_formats(c, p, s->weights.bytes);
		for (i = 0; !real && i < s->nformats; i++) {
			const gs_format_row *fr = &s->formats[i];
			char n[GS_FMT_MAX];
			if (fr->weights >= s->weights.bytes)
				continue;
			gs_doc_textf(p, "%s%u-bit%s: %s (%s), %s %s", any++ ? "; " : " ", fr->bits,
				     fr->theoretical ? TR("lever.theoretical") : "",
				     gs_qty_fmt_gib(g, fr->weights, c->lang), TR("prov.calculated"),
				     gs_qty_fmt_int(n, S_count_holding(c, fr->weights), c->lang),
				     TR("lever.offers_hold"));
		}
		gs_doc_text(p, any ? "." : "");
		gs_doc_textf(p, " %s", TR("lever.quality"));
	}
	gs_doc_textf(p, " %s", TR("lever.one_at_a_time"));
}

/*
 * The first screen answers: one sentence that names the offer to take (or
 * says that there is none, and why), its price, its capacity against the
 * need with the margin, and what remains to confirm; then the best offer of
 * each class with the count of each.
 */
void gs_sheet_answer_decision_summary(S_ctx *c)
{
	const gs_decision *d = c->in->d;
	const gs_candidate *best = gs_verdict_best(d);
	cmark_node *p = gs_doc_para(c->root), *tb, *r, *cell;
	const char *h[5];
	int k;

	gs_doc_strong(p, TR(d->demonstration ? "decision.label_demo" : "answer.label"));
	gs_doc_text(p, " ");
	if (!d->ncands) {
		gs_doc_text(p, TR("answer.none_compared"));
		return;
	}
	if (best) {
		char *nw, *cw;
		gs_doc_textf(p, "%s ", TR("answer.take"));
		gs_doc_code(p, best->offer->id);
		gs_doc_textf(p, " (%s, %llu x %s) — %s; %s ", best->offer->provider,
			     (unsigned long long)best->offer->cards, best->offer->gpu_model,
			     TR(best->cls == GS_CLASS_RETAINED ? "answer.retained"
				: best->cls == GS_CLASS_FITS ? "answer.fits"
				: c->in->s->has_train ? "answer.lower_fits_recipe" : "answer.lower_fits"),
			     TR("answer.price"));
		gs_sheet_answer_price_text(c, p, best);
		S_price_date(c, p, best);
		if (best->cls == GS_CLASS_LOWER_FITS) {
			nw = gs_sheet_words_qty_words(c, best->lower);
			gs_doc_textf(p, "; %s %s", TR("answer.lower"), nw);
		} else {
			nw = gs_sheet_words_qty_words(c, best->need);
			gs_doc_textf(p, "; %s %s", TR("answer.need"), nw);
		}
		free(nw);
		cw = gs_sheet_words_qty_words(c, best->capacity);
		gs_doc_textf(p, " %s %s", TR("answer.against"), cw);
		free(cw);
		if (best->has_margin) {
			char *mg = gs_sheet_words_signed_gib(c, best->margin, best->need, best->capacity);
			gs_doc_textf(p, " (%s %s)", TR("answer.margin"), mg);
			free(mg);
		}
		gs_doc_textf(p, "; %s ", TR("answer.to_confirm"));
		S_to_confirm_text(c, p, best);
		gs_doc_text(p, ".");
	} else {
		gs_doc_textf(p, "%s %s", TR("answer.none"), TR("answer.why_none"));
		gs_doc_text(p, ".");
	}
	/* The best of each class, at most five rows; the excluded and the
	 * reference cards counted below. */
	h[0] = TR("answer.col_class");
	h[1] = TR("answer.col_count");
	h[2] = TR("answer.col_best");
	h[3] = TR("answer.col_price");
	h[4] = TR("answer.col_needs");
	tb = NULL;
	for (k = GS_CLASS_RETAINED; k <= GS_CLASS_UNKNOWN; k++) {
		const gs_candidate *cd = gs_verdict_first_of(d, (gs_class)k);
		char n[GS_DEC_MAX + 1];
		if (!cd)
			continue;
		if (!tb)
			tb = gs_doc_table(c->doc, c->root, TR("answer.table_caption"), 5, h);
		n[GS_DEC_MAX] = '\0';
		r = gs_doc_row(tb);
		gs_doc_cell_text(r, gs_sheet_words_class_words(c, (gs_class)k));
		gs_doc_cell_text(r, gs_dec(n, d->nclass[k], 0));
		cell = gs_doc_cell(r);
		gs_doc_code(cell, cd->offer->id);
		gs_doc_textf(cell, " %llu x %s", (unsigned long long)cd->offer->cards,
			     cd->offer->gpu_model);
		cell = gs_doc_cell(r);
		gs_sheet_answer_price_text(c, cell, cd);
		cell = gs_doc_cell(r);
		if (k == GS_CLASS_UNKNOWN)
			gs_doc_text(cell, TR("answer.unknown_lacks"));
		else
			S_to_confirm_text(c, cell, cd);
	}
	p = gs_doc_para(c->root);
	gs_doc_textf(p, "%s %zu", TR("answer.excluded_count"), d->nclass[GS_CLASS_EXCLUDED]);
	gs_doc_textf(p, ". %s %zu.", TR("answer.reference_count"), d->nclass[GS_CLASS_REFERENCE]);
	S_levers(c);
}

/* "[#######-----]" of need against capacity, 20 cells; text, so that it
 * reads the same in Markdown, HTML, print and a screen reader. */
static void S_bar(char *buf, size_t cap, uint64_t need, uint64_t capacity)
{
	unsigned __int128 k = capacity ? (unsigned __int128)need * 20 / capacity : 20;
	size_t i, n = 0, full = k > 20 ? 20 : (size_t)k;

	if (cap < 3 * 20 + 3)
		return;
	buf[n++] = '[';
	for (i = 0; i < 20; i++) {
		/* U+2588 full block, U+2591 light shade */
		const char *b = i < full ? "\xe2\x96\x88" : "\xe2\x96\x91";
		memcpy(buf + n, b, 3);
		n += 3;
	}
	buf[n++] = ']';
	buf[n] = '\0';
}

/*
 * The summary card, before the details: the decision, the offer to take and
 * its cost, need against capacity as one bar, what remains to confirm, and
 * the synthetic warning when there is one.
 */
void gs_sheet_answer_summary_card(S_ctx *c)
{
	const gs_decision *d = c->in->d;
	const gs_candidate *best = gs_verdict_best(d);
	const char *h[2];
	cmark_node *tb, *r, *cell;
	int q, k = 0;

	h[0] = TR("card.item");
	h[1] = TR("col.value");
	tb = gs_doc_table(c->doc, c->root, TR("card.caption"), 2, h);
	r = gs_doc_row(tb);
	gs_doc_cell_text(r, TR("card.decision"));
	gs_doc_cell_text(r, TR(d->nretained ? "site.retained" : d->npreselected ? "site.preselection"
										   : "site.none"));
	r = gs_doc_row(tb);
	gs_doc_cell_text(r, TR(d->nretained ? "card.best_retained" : "card.best_preselected"));
	cell = gs_doc_cell(r);
	if (!best) {
		gs_doc_text(cell, TR("card.no_offer"));
		return;
	}
	gs_doc_code(cell, best->offer->id);
	gs_doc_textf(cell, " %s", best->offer->gpu_model);
	gs_doc_textf(cell, " — %s ", TR("card.price"));
	gs_sheet_answer_price_text(c, cell, best);
	gs_doc_textf(cell, " (%s)", TR("price.calculated"));
	if (best->v[GS_REQ_MEMORY].synthetic && best->v[GS_REQ_MEMORY].kind != GS_V_TO_CONFIRM)
		gs_doc_textf(cell, " (%s)", TR("demo.rests_on"));
	if (best->need.present && best->capacity.present) {
		char bar[96], *nw = gs_sheet_words_qty_words(c, best->need), *cw = gs_sheet_words_qty_words(c, best->capacity);
		S_bar(bar, sizeof(bar), best->need.bytes, best->capacity.bytes);
		r = gs_doc_row(tb);
		gs_doc_cell_text(r, TR("card.need_capacity"));
		gs_sheet_words_cell_owned(r, gs_xasprintf("%s %s %s / %s %s%s", bar, TR("card.need"), nw,
					 TR("card.capacity"), cw,
					 best->v[GS_REQ_MEMORY].lower_bound ? TR("card.lower_bound") : ""));
		free(nw);
		free(cw);
	}
	r = gs_doc_row(tb);
	gs_doc_cell_text(r, TR("card.to_confirm"));
	cell = gs_doc_cell(r);
	for (q = 0; q < GS_REQ_COUNT; q++)
		if (best->v[q].kind == GS_V_TO_CONFIRM)
			gs_doc_textf(cell, "%s%s", k++ ? ", " : "", TR(gs_sheet_words_req_keys[q]));
	if (!k)
		gs_doc_text(cell, TR("card.nothing"));
	if (d->synthetic) {
		r = gs_doc_row(tb);
		gs_doc_cell_text(r, TR("card.synthetic"));
		gs_doc_cell_text(r, TR(d->demonstration ? "demo.title" : "synthetic.title"));
	}
}

/* The requirements of cd still to confirm, as a bit set (1 << requirement). */
static unsigned S_to_confirm_set(const gs_candidate *cd)
{
	unsigned set = 0;
	int q;

	for (q = 0; q < GS_REQ_COUNT; q++)
		if (cd->v[q].kind == GS_V_TO_CONFIRM)
			set |= 1u << q;
	return set;
}

/*
 * For the pre-selection, the offers of the short table that are not
 * excluded: lot[j], the position of the first offer with j's fragment
 * (its lot) and the same set to confirm; n[j] at that first, their count
 * (SIZE_MAX in lot: an offer of the candidates table or excluded).
 */
static void S_lots_by_set(S_ctx *c, size_t *lot, size_t *n)
{
	const gs_decision *d = c->in->d;
	size_t nslot = 16, i, k;
	size_t *slot;
	const char **frag = gs_xcalloc(d->ncands + 1, sizeof(*frag));
	unsigned *set = gs_xcalloc(d->ncands + 1, sizeof(*set));

	while (nslot < 2 * d->ncands)
		nslot *= 2;
	slot = gs_xcalloc(nslot, sizeof(*slot));
	for (i = 0; i < d->ncands; i++) {
		const gs_candidate *cd = &d->cands[d->order[i]];
		uint64_t h;
		lot[i] = SIZE_MAX;
		n[i] = 0;
		if (!c->lot_frag || !c->lot_frag[i] || cd->excluded)
			continue;
		frag[i] = c->lot_frag[i];
		set[i] = S_to_confirm_set(cd);
		h = gs_hash_mix(gs_hash_str(frag[i]), &set[i], sizeof(set[i]));
		for (k = (size_t)h & (nslot - 1); slot[k]; k = (k + 1) & (nslot - 1))
			if (set[slot[k] - 1] == set[i] && strcmp(frag[slot[k] - 1], frag[i]) == 0)
				break;
		if (!slot[k])
			slot[k] = i + 1;
		lot[i] = slot[k] - 1;
		n[lot[i]]++;
	}
	free(frag);
	free(set);
	free(slot);
}

/*
 * The pre-selection: the offers without exclusion, grouped by the
 * requirements they still have to confirm, a group per distinct set in
 * order of its first offer in the table, its offers in the table's order.
 * Fifty offers often share two or three sets: each set is written once,
 * and each row of the candidates table once, by its first offer (the
 * table names the others: a row's offers share their verdicts); an offer
 * of the short table, by its lot's first offer with the same set.
 * (Without a retained offer, an offer not excluded has one at least.)
 */
static void S_preselection(S_ctx *c)
{
	const gs_decision *d = c->in->d;
	const char *const *rk = gs_sheet_words_req_keys;
	unsigned char done[1u << GS_REQ_COUNT] = { 0 };
	cmark_node *list = gs_doc_list(c->root, 0), *p;
	size_t *lot = gs_xmalloc((d->ncands + 1) * sizeof(*lot));
	size_t *nlot = gs_xmalloc((d->ncands + 1) * sizeof(*nlot));
	size_t i, j;
	int q, k;

	S_lots_by_set(c, lot, nlot);
	for (i = 0; i < d->ncands; i++) {
		const gs_candidate *cd = &d->cands[d->order[i]];
		unsigned set;
		if (cd->excluded || cd->cls == GS_CLASS_REFERENCE || done[set = S_to_confirm_set(cd)])
			continue;
		done[set] = 1;
		p = gs_doc_item(list);
		gs_doc_textf(p, "%s ", TR("decision.group_needs"));
		for (q = 0, k = 0; q < GS_REQ_COUNT; q++)
			if (set & (1u << q))
				gs_doc_textf(p, "%s%s", k++ ? ", " : "", TR(rk[q]));
		gs_doc_text(p, ": ");
		for (j = i, k = 0; j < d->ncands; j++) {
			const gs_candidate *cj = &d->cands[d->order[j]];
			size_t n;
			if (cj->excluded || cj->cls == GS_CLASS_REFERENCE || S_to_confirm_set(cj) != set ||
			    !(n = lot[j] == SIZE_MAX ? (c->row_n ? c->row_n[j] : 1) : lot[j] == j ? nlot[j] : 0))
				continue;
			if (k++)
				gs_doc_text(p, ", ");
			gs_doc_code(p, cj->offer->id);
			if (n > 1)
				gs_doc_textf(p, " (+%zu)", n - 1);
		}
		gs_doc_text(p, ".");
	}
	free(lot);
	free(nlot);
}

void gs_sheet_answer_decision(S_ctx *c)
{
	const gs_decision *d = c->in->d;
	cmark_node *list, *p;
	size_t i;

	gs_doc_heading(c->root, 2, TR("sec.decision"));
	p = gs_doc_para(c->root);
	if (d->nretained) {
		gs_doc_text(p, TR("decision.ranking_intro"));
		list = gs_doc_list(c->root, 1);
		for (i = 0; i < d->ncands; i++) {
			const gs_candidate *cd = &d->cands[d->order[i]];
			if (!cd->retained)
				continue;
			p = gs_doc_item(list);
			gs_doc_code(p, cd->offer->id);
			if (cd->plan) {
				char m[GS_FMT_MAX];
				gs_doc_textf(p, " — %s %s %s", TR("col.total_cost"),
					     gs_qty_fmt_money(m, cd->cost, c->lang), cd->plan->currency);
			}
			if (cd->has_margin) {
				char *mg = gs_sheet_words_signed_gib(c, cd->margin, cd->need, cd->capacity);
				gs_doc_textf(p, "; %s %s", TR("cand.margin"), mg);
				free(mg);
			}
		}
		p = gs_doc_para(c->root);
		gs_doc_strong(p, TR("decision.choice"));
		gs_doc_text(p, " ");
		gs_doc_code(p, d->cands[d->order[0]].offer->id);
	} else {
		gs_doc_text(p, TR(d->npreselected ? "decision.preselection_intro" : "decision.none"));
		if (d->npreselected)
			S_preselection(c);
	}
}
