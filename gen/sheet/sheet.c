/* sheet: the decision sheet as one document tree plus its charts. */
#define _DEFAULT_SOURCE
#include "sheet_int.h"

static void S_warning_synthetic(S_ctx *c)
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
static int S_price_text(S_ctx *c, cmark_node *p, const gs_candidate *cd)
{
	char m[GS_FMT_MAX];
	int any = 0;

	if (cd->plan) {
		gs_doc_textf(p, "%s %s %s", gs_fmt_money(m, cd->cost, c->lang), cd->plan->currency,
			     TR("answer.campaign"));
		any = 1;
	}
	if (cd->on_demand.plan) {
		gs_doc_textf(p, "%s%s %s/h %s", any ? "; " : "",
			     gs_fmt_micro(m, cd->on_demand.micro_per_hour, c->lang),
			     cd->on_demand.plan->currency, TR("price.on_demand"));
		any = 1;
	}
	if (cd->interruptible.plan) {
		gs_doc_textf(p, "%s%s %s/h %s", any ? (cd->plan ? "; " : ", ") : "",
			     gs_fmt_micro(m, cd->interruptible.micro_per_hour, c->lang),
			     cd->interruptible.plan->currency, TR("price.interruptible"));
		any = 1;
	}
	if (!any)
		gs_doc_text(p, TR("answer.no_price"));
	return any;
}

/* "61,440 tokens; 15 sequences (assumed)" (the required sequences and
 * context are the column's header), or "—" when the headroom is not
 * calculated. */
static void S_headroom_text(S_ctx *c, cmark_node *p, const gs_candidate *cd)
{
	char a[GS_FMT_MAX], b[GS_FMT_MAX];

	if (!cd->has_headroom) {
		gs_doc_text(p, "—");
		return;
	}
	gs_doc_textf(p, "%s %s; %s %s (%s%s)",
		     gs_fmt_int(a, cd->headroom_tokens, c->lang), TR("headroom.tokens"),
		     gs_fmt_int(b, cd->headroom_sequences, c->lang), TR("headroom.sequences"),
		     gs_sheet_prov_words(c->t, cd->headroom_prov, cd->headroom_synthetic),
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
		if (gs_candidate_lower_with_weights(c->in->w, c->in->s, cd, w_bytes) <=
		    cd->capacity.bytes)
			n++;
	}
	return n;
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
	if (w->task != GS_TASK_INFERENCE && train >= s->weights.bytes && train >= kv) {
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
		if (big && gs_candidate_room(w, s, big, &room_tokens, &room_seqs) == 0) {
			char a[GS_FMT_MAX], b[GS_FMT_MAX], tk[GS_FMT_MAX], q[GS_FMT_MAX];
			v.s1 = big->offer->id;
			v.b = big->capacity;
			v.n1 = gs_fmt_int(a, room_tokens, c->lang);
			v.n2 = gs_fmt_int(q, s->kv_sequences, c->lang);
			v.n3 = gs_fmt_int(b, room_seqs, c->lang);
			v.s2 = gs_fmt_int(tk, s->kv_tokens_kept, c->lang);
			t = gs_sheet_words_expand(c, TR("lever.kv_headroom"), &v);
			gs_doc_textf(p, " %s", t);
			free(t);
		}
	} else {
		int any = 0;
		v.a = s->weights;
		t = gs_sheet_words_expand(c, TR("lever.weights"), &v);
		gs_doc_text(p, t);
		free(t);
		for (i = 0; i < s->nformats; i++) {
			const gs_format_row *fr = &s->formats[i];
			char n[GS_FMT_MAX];
			if (fr->weights >= s->weights.bytes)
				continue;
			gs_doc_textf(p, "%s%u-bit%s: %s (%s), %s %s", any++ ? "; " : " ", fr->bits,
				     fr->theoretical ? TR("lever.theoretical") : "",
				     gs_fmt_gib(g, fr->weights, c->lang), TR("prov.calculated"),
				     gs_fmt_int(n, S_count_holding(c, fr->weights), c->lang),
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
static void S_decision_summary(S_ctx *c)
{
	const gs_decision *d = c->in->d;
	const gs_candidate *best = gs_decision_best(d);
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
				: best->cls == GS_CLASS_FITS ? "answer.fits" : "answer.lower_fits"),
			     TR("answer.price"));
		S_price_text(c, p, best);
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
		const gs_candidate *cd = gs_decision_first_of(d, (gs_class)k);
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
		S_price_text(c, cell, cd);
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
static void S_summary_card(S_ctx *c)
{
	const gs_decision *d = c->in->d;
	const gs_candidate *best = gs_decision_best(d);
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
	S_price_text(c, cell, best);
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

/* Where the model's figures were read ("model": {"from": ...}), if anywhere. */
static void S_model_source_row(S_ctx *c, cmark_node *tb)
{
	const gs_workload *w = c->in->w;
	cmark_node *r, *cell;
	size_t i;

	if (!w->model_from)
		return;
	r = gs_doc_row(tb);
	gs_doc_cell_text(r, TR("id.model_files"));
	cell = gs_doc_cell(r);
	if (w->geometry_source)
		gs_doc_textf(cell, "%s: %s", TR("id.geometry_from"), w->geometry_source);
	if (w->weights_source)
		gs_doc_textf(cell, "%s%s: %s", w->geometry_source ? "; " : "",
			     TR("id.weights_from"), w->weights_source);
	/* each file archived, by its name in the model's folder (after
	 * "model:KEY/"), linked; the record of them last */
	for (i = 0; i < c->in->nmodel; i++) {
		const char *n = c->in->model_names[i], *slash;
		size_t kl = w->model_key ? strlen(w->model_key) : 0;
		char *shown;
		if (i == 0)
			gs_doc_textf(cell, "%s%s: ", w->geometry_source || w->weights_source ? "; " : "",
				     TR("id.model_archived"));
		else
			gs_doc_text(cell, ", ");
		if (i + 1 == c->in->nmodel) {
			gs_doc_link(cell, c->in->model_links[i], TR("id.model_record"));
			continue;
		}
		slash = strncmp(n, "model:", 6) == 0 && strlen(n) > 6 + kl ? n + 6 + kl : n;
		if (*slash == '/')
			slash++;
		shown = gs_xstrdup(slash);
		if (strlen(shown) > 7 && strcmp(shown + strlen(shown) - 7, ".header") == 0) {
			shown[strlen(shown) - 7] = '\0';
			gs_doc_link(cell, c->in->model_links[i], shown);
			gs_doc_textf(cell, " (%s)", TR("id.model_header"));
		} else {
			gs_doc_link(cell, c->in->model_links[i], shown);
		}
		free(shown);
	}
}

static void S_identity(S_ctx *c)
{
	const gs_workload *w = c->in->w;
	static const char *hk[] = { "col.field", "col.value" };
	const char *h[2];
	cmark_node *tb, *r;
	char a[GS_FMT_MAX];
	size_t i;

	h[0] = TR(hk[0]);
	h[1] = TR(hk[1]);
	gs_doc_heading(c->root, 2, TR("sec.identity"));
	tb = gs_doc_table(c->doc, c->root, TR("cap.identity"), 2, h);
#define ROW(label, value) do { r = gs_doc_row(tb); gs_doc_cell_text(r, label); gs_doc_cell_text(r, value); } while (0)
	ROW(TR("id.id"), w->id);
	ROW(TR("id.model"), w->model_name);
	ROW(TR("id.revision"), w->model_revision ? w->model_revision : TR("word.missing"));
	ROW(TR("id.task"), TR(w->task == GS_TASK_INFERENCE ? "task.inference"
			      : w->task == GS_TASK_ADAPTATION ? "task.adaptation" : "task.training"));
	ROW(TR("id.parameters"), gs_fmt_int(a, w->parameters, c->lang));
	gs_fmt_millibits(a, gs_workload_millibits(w));
	r = gs_doc_row(tb);
	gs_doc_cell_text(r, TR("id.storage"));
	{
		cmark_node *cell = gs_doc_cell(r);
		gs_doc_textf(cell, "%s, %s bits", w->storage_format, a);
		if (c->in->s->theoretical) {
			gs_doc_text(cell, " — ");
			gs_doc_text(cell, TR("note.theoretical"));
		}
	}
	ROW(TR("id.compute"), w->compute_format);
	S_model_source_row(c, tb);
	if (w->has_kv_geometry) {
		char *g = gs_xasprintf("%llu / %llu / %llu / %llu", (unsigned long long)w->layers,
				   (unsigned long long)w->attention_heads,
				   (unsigned long long)w->kv_heads, (unsigned long long)w->head_dim);
		ROW(TR("id.geometry"), g);
		free(g);
	}
	if (w->has_sliding_window)
		ROW(TR("id.window"), gs_fmt_int(a, w->sliding_window, c->lang));
	for (i = 0; i < w->ndims; i++) {
		char *label = gs_xasprintf("%s: %s", TR("id.dimension"), w->dims[i].name);
		ROW(label, gs_fmt_int(a, w->dims[i].value, c->lang));
		free(label);
	}
	if (w->cache != GS_CACHE_NONE) {
		char key[32], *cv;
		snprintf(key, sizeof(key), "cache.%s", gs_cache_id(w->cache));
		cv = gs_xasprintf("%s, %llu B/%s", TR(key),
			      (unsigned long long)w->cache_bytes_per_value, TR("word.value"));
		if (w->has_cache_max_tokens) {
			char *more = gs_xasprintf("%s, %s %s", cv, gs_fmt_int(a, w->cache_max_tokens, c->lang),
					      TR("word.tokens"));
			free(cv);
			cv = more;
		}
		ROW(TR("id.cache"), cv);
		free(cv);
	}
	/* The requirements the verdicts are checked against. */
	if (w->has_req_software) {
		cmark_node *cell;
		r = gs_doc_row(tb);
		gs_doc_cell_text(r, TR("req.software"));
		cell = gs_doc_cell(r);
		if (w->req_software)
			gs_doc_textf(cell, "%s: ", w->req_software);
		for (i = 0; i < w->nreq_sw; i++)
			gs_doc_textf(cell, "%s%s \xe2\x89\xa5 %s", i ? ", " : "", w->req_sw[i].name,
				     w->req_sw[i].min_version);
	} else {
		ROW(TR("req.software"), w->req_software ? w->req_software : TR("word.not_stated"));
	}
	if (w->has_campaign) {
		char *cp = gs_xasprintf("%s, %s %s", w->campaign_start,
				    gs_fmt_int(a, w->campaign_days, c->lang), TR("word.days"));
		ROW(TR("req.calendar"), cp);
		free(cp);
	} else {
		ROW(TR("req.calendar"), TR("word.not_stated"));
	}
	if (w->has_budget) {
		char *bp = gs_xasprintf("%s %s", gs_fmt_money(a, w->budget_hundredths, c->lang),
				    w->budget_currency);
		ROW(TR("req.budget"), bp);
		free(bp);
	} else {
		ROW(TR("req.budget"), TR("word.not_stated"));
	}
	ROW(TR("req.quality"), w->quality_criterion ? w->quality_criterion : TR("word.not_stated"));
	if (w->reference_format)
		ROW(TR("id.reference_format"), w->reference_format);
	if (w->quality_evidence) {
		char *qe = gs_xasprintf("%s (%s): %s", w->quality_evidence, w->quality_evidence_date,
				    w->quality_evidence_scope);
		ROW(TR("id.quality_evidence"), qe);
		free(qe);
	}
	for (i = 0; i < w->nconditions; i++) {
		char *label = gs_xasprintf("%s: %s", TR("id.condition"), w->conditions[i].name);
		ROW(label, w->conditions[i].value);
		free(label);
	}
	if (w->has_host_ram || w->host_interconnect) {
		char g[GS_FMT_MAX];
		char *ram = w->has_host_ram ? gs_xasprintf("%s (%s)", gs_fmt_gib(g, w->host_ram_bytes, c->lang),
						       TR("req.stated_assumed"))
					    : gs_xstrdup("");
		char *hp = gs_xasprintf("%s%s%s", ram,
				    w->has_host_ram && w->host_interconnect ? ", " : "",
				    w->host_interconnect ? w->host_interconnect : "");
		ROW(TR("req.host"), hp);
		free(hp);
		free(ram);
	} else {
		ROW(TR("req.host"), TR("word.not_stated"));
	}
	if (w->placement)
		ROW(TR("id.placement"), w->placement);
#undef ROW

	/* The protocol's three inputs. */
	{
		const char *h3[3];
		h3[0] = TR("col.input");
		h3[1] = TR("col.description");
		h3[2] = TR("col.dimensions");
		gs_doc_heading(c->root, 3, TR("sec.inputs"));
		tb = gs_doc_table(c->doc, c->root, TR("cap.inputs"), 3, h3);
		for (i = 0; i < 3; i++) {
			const gs_input *in = &w->inputs[i];
			static const char *const lk[] = { "input.usual", "input.long", "input.limit" };
			cmark_node *cell;
			size_t k;
			r = gs_doc_row(tb);
			gs_doc_cell_text(r, TR(lk[i]));
			gs_doc_cell_text(r, in->description ? in->description : TR("word.missing"));
			cell = gs_doc_cell(r);
			if (!in->ndims)
				gs_doc_text(cell, TR("word.missing"));
			for (k = 0; k < in->ndims; k++)
				gs_doc_textf(cell, "%s%s = %s", k ? ", " : "", in->dims[k].name,
					     gs_fmt_int(a, in->dims[k].value, c->lang));
		}
	}
}

/* Which item dominates the calculated need, and its share (floor, percent). */
static void S_dominant(S_ctx *c)
{
	const gs_workload *w = c->in->w;
	const gs_sizing *s = c->in->s;
	const char *label = TR("size.weights");
	gs_qty best = s->weights;
	cmark_node *p;
	char *words;
	size_t i;
	unsigned __int128 pct;

	if (s->kv.present && s->kv.bytes > best.bytes) {
		best = s->kv;
		label = TR("size.kv");
	}
	for (i = 0; i < w->nreserve; i++)
		if (w->reserve[i].bytes > best.bytes) {
			best = gs_qty_make(w->reserve[i].bytes, GS_PROV_ASSUMED);
			label = w->reserve[i].name;
		}
	for (i = 0; w->task != GS_TASK_INFERENCE && i < w->ntraining; i++)
		if (w->training[i].bytes > best.bytes) {
			best = gs_qty_make(w->training[i].bytes, GS_PROV_ASSUMED);
			label = w->training[i].name;
		}
	if (!s->need.present || s->need.bytes == 0)
		return;
	pct = (unsigned __int128)best.bytes * 100 / s->need.bytes;
	words = gs_sheet_words_qty_words(c, best);
	p = gs_doc_para(c->root);
	gs_doc_strong(p, TR("sizing.dominant"));
	gs_doc_text(p, " ");
	gs_doc_text(p, label);
	gs_doc_textf(p, ", %s, %u %% %s", words, (unsigned)pct, TR("sizing.of_need"));
	free(words);
}

/* The weights row's label: parameters x bits, or the checkpoint files read. */
static char *S_weights_label(S_ctx *c)
{
	const gs_workload *w = c->in->w;
	char a[GS_FMT_MAX], b[GS_FMT_MAX];

	if (w->has_weights_bytes)
		return gs_xasprintf("%s (%s: %s)", TR("size.weights"),
				    TR(w->weights_from_index ? "size.weights_index" : "size.weights_read"),
				    w->weights_source);
	return gs_xasprintf("%s (%s x %s / 8%s)", TR("size.weights"),
			    gs_fmt_int(a, w->parameters, c->lang), gs_fmt_millibits(b, gs_workload_millibits(w)),
			    c->in->s->rounded ? TR("size.rounded_up") : "");
}

static void S_sizing(S_ctx *c)
{
	const gs_workload *w = c->in->w;
	const gs_sizing *s = c->in->s;
	const char *h[5];
	cmark_node *tb, *r, *p;
	char a[GS_FMT_MAX], b[GS_FMT_MAX];
	size_t i;

	h[0] = TR("col.item");
	h[1] = TR("col.bytes");
	h[2] = TR("col.gb");
	h[3] = TR("col.gib");
	h[4] = TR("col.provenance");
	gs_doc_heading(c->root, 2, TR("sec.sizing"));
	p = gs_doc_para(c->root);
	gs_doc_text(p, TR("sizing.intro"));
	tb = gs_doc_table(c->doc, c->root, TR("cap.sizing"), 5, h);
	r = gs_doc_row(tb);
	gs_sheet_words_cell_owned(r, S_weights_label(c));
	gs_sheet_words_size_cells(c, r, s->weights);
	for (i = 0; i < w->nreserve; i++) {
		r = gs_doc_row(tb);
		gs_sheet_words_cell_owned(r, gs_xasprintf("%s: %s (%s %s) — %s", TR("size.reserve_item"),
					 w->reserve[i].name, w->reserve[i].amount, w->reserve[i].unit,
					 w->reserve[i].reason ? w->reserve[i].reason : ""));
		gs_sheet_words_size_cells(c, r, gs_qty_make(w->reserve[i].bytes, GS_PROV_ASSUMED));
	}
	r = gs_doc_row(tb);
	gs_doc_cell_text(r, TR("size.envelope_row"));
	gs_sheet_words_size_cells(c, r, s->envelope);
	r = gs_doc_row(tb);
	if (s->kv.present)
		gs_sheet_words_cell_owned(r, gs_xasprintf("%s (2 x %llu x %llu x %llu x %s %s x %llu B x %llu)",
					 TR("size.kv"), (unsigned long long)w->layers,
					 (unsigned long long)w->kv_heads, (unsigned long long)w->head_dim,
					 gs_fmt_int(a, s->kv_tokens_kept, c->lang), TR("word.tokens"),
					 (unsigned long long)w->cache_bytes_per_value,
					 (unsigned long long)s->kv_sequences));
	else
		gs_sheet_words_cell_owned(r, gs_xasprintf("%s — %s", TR("size.kv"), TR("size.kv_none")));
	gs_sheet_words_size_cells(c, r, s->kv);
	if (s->kv_other.present) {
		/* the window bounds the cache only in a runtime that keeps it */
		char win[GS_FMT_MAX];
		r = gs_doc_row(tb);
		gs_sheet_words_cell_owned(r, gs_xasprintf("%s (%s %s %s; %s %s; %s)",
					 TR(s->kv_other_windowed ? "size.kv_windowed" : "size.kv_dense"),
					 gs_fmt_int(a, s->kv_other_tokens, c->lang), TR("word.tokens"),
					 TR("size.kv_other_kept"), TR("size.kv_window"),
					 gs_fmt_int(win, w->sliding_window, c->lang),
					 TR("size.kv_not_counted")));
		gs_sheet_words_size_cells(c, r, s->kv_other);
	}
	if (w->task != GS_TASK_INFERENCE) {
		for (i = 0; i < w->ntraining; i++) {
			r = gs_doc_row(tb);
			gs_sheet_words_cell_owned(r, gs_xasprintf("%s: %s (%s %s) — %s", TR("size.training_item"),
						 w->training[i].name, w->training[i].amount,
						 w->training[i].unit,
						 w->training[i].reason ? w->training[i].reason : ""));
			gs_sheet_words_size_cells(c, r, gs_qty_make(w->training[i].bytes, GS_PROV_ASSUMED));
		}
	}
	r = gs_doc_row(tb);
	gs_doc_cell_text(r, TR("size.need_row"));
	gs_sheet_words_size_cells(c, r, s->need);

	S_dominant(c);
	p = gs_doc_para(c->root);
	gs_doc_text(p, TR("sizing.envelope_note"));
	if (w->task != GS_TASK_INFERENCE) {
		p = gs_doc_para(c->root);
		if (w->has_trainable_parameters)
			gs_doc_textf(p, "%s %s. ", TR("sizing.trainable"),
				     gs_fmt_int(a, w->trainable_parameters, c->lang));
		gs_doc_text(p, TR("sizing.no_multiplier"));
	}

	/* Format table, same reserve. */
	{
		const char *hf[6];
		char *prov = gs_xasprintf("%s: %s; %s: %s", TR("size.weights"), TR("prov.calculated"),
				      TR("col.envelope_gib"), gs_sheet_words_qprov(c, s->envelope));
		hf[0] = TR("col.bits");
		hf[1] = TR("col.weights_bytes");
		hf[2] = TR("col.weights_gib");
		hf[3] = TR("col.envelope_gib");
		hf[4] = TR("col.provenance");
		hf[5] = TR("col.note");
		gs_doc_heading(c->root, 3, TR("sec.formats"));
		p = gs_doc_para(c->root);
		gs_doc_textf(p, "%s %s. %s", TR("est.format_table"),
			     gs_fmt_gib(b, s->reserve.bytes, c->lang), TR("formats.provenance"));
		tb = gs_doc_table(c->doc, c->root, TR("cap.formats"), 6, hf);
		for (i = 0; i < s->nformats; i++) {
			const gs_format_row *fr = &s->formats[i];
			r = gs_doc_row(tb);
			snprintf(a, sizeof(a), "%u", fr->bits);
			gs_doc_cell_text(r, a);
			gs_doc_cell_text(r, gs_fmt_int(a, fr->weights, c->lang));
			gs_doc_cell_text(r, gs_fmt_fixed2(a, fr->weights, GS_GIB, c->lang));
			gs_doc_cell_text(r, gs_fmt_fixed2(a, fr->envelope, GS_GIB, c->lang));
			gs_doc_cell_text(r, prov);
			gs_doc_cell_text(r, fr->theoretical ? TR("note.theoretical") : "");
		}
		free(prov);
	}
}

/* One row of a chart's data table: label | kind | bytes | GiB | provenance. */
static void S_data_row(S_ctx *c, cmark_node *tb, const char *label, const char *kind_key, gs_qty q)
{
	char a[GS_FMT_MAX];
	cmark_node *r = gs_doc_row(tb);

	gs_doc_cell_text(r, label);
	gs_doc_cell_text(r, TR(kind_key));
	gs_doc_cell_text(r, gs_fmt_int(a, q.bytes, c->lang));
	gs_doc_cell_text(r, gs_fmt_fixed2(a, q.bytes, GS_GIB, c->lang));
	gs_doc_cell_text(r, gs_sheet_words_qprov(c, q));
}

static void S_budget_chart(S_ctx *c)
{
	const gs_workload *w = c->in->w;
	const gs_sizing *s = c->in->s;
	const gs_decision *d = c->in->d;
	gs_chart_segment *segs = gs_xcalloc(4 + w->nreserve + w->ntraining, sizeof(*segs));
	gs_chart_line *caps = gs_xcalloc(d->ncands + 1, sizeof(*caps));
	gs_chart_line *peaks = gs_xcalloc(c->in->nev + 1, sizeof(*peaks));
	char **labels = gs_xcalloc(d->ncands + c->in->nev + 1, sizeof(*labels));
	size_t ns = 0, nc = 0, np = 0, nl = 0, i;
	gs_chart_text ct;
	gs_chart_out o;
	const char *h[5];
	cmark_node *tb;

	segs[ns].label = TR("size.weights");
	segs[ns++].value = s->weights;
	if (s->kv.present) {
		segs[ns].label = TR("size.kv");
		segs[ns++].value = s->kv;
	}
	for (i = 0; i < w->ntraining; i++) {
		segs[ns].label = w->training[i].name;
		segs[ns++].value = gs_qty_make(w->training[i].bytes, GS_PROV_ASSUMED);
	}
	for (i = 0; i < w->nreserve; i++) {
		segs[ns].label = w->reserve[i].name;
		segs[ns++].value = gs_qty_make(w->reserve[i].bytes, GS_PROV_ASSUMED);
	}
	/* One capacity line per distinct capacity (models of equal capacity
	 * share it), at most six: first the
	 * offers whose memory verdict rests on a measurement (admissible or
	 * excluded), then the others in ranking order. */
	{
		int pass;
		for (pass = 0; pass < 2; pass++) {
			for (i = 0; i < d->ncands && nc < 6; i++) {
				const gs_candidate *cd = &d->cands[d->order[i]];
				int decided = cd->v[GS_REQ_MEMORY].kind == GS_V_ADMISSIBLE ||
					      cd->v[GS_REQ_MEMORY].kind == GS_V_EXCLUDE;
				size_t k;
				int dup = 0;
				if (!cd->capacity.present || decided != (pass == 0))
					continue;
				for (k = 0; k < nc && !dup; k++) {
					if (caps[k].value.bytes != cd->capacity.bytes)
						continue;
					dup = 1;
					/* Same capacity: one line, both models named. */
					if (!strstr(caps[k].label, cd->offer->gpu_model)) {
						char *merged = gs_xasprintf("%s / %s", caps[k].label,
									cd->offer->gpu_model);
						size_t li;
						for (li = 0; li < nl; li++)
							if (labels[li] == caps[k].label) {
								free(labels[li]);
								labels[li] = merged;
							}
						caps[k].label = merged;
					}
				}
				if (dup)
					continue;
				char mem[GS_FMT_MAX];
				labels[nl] = gs_xasprintf("%s (%s)", cd->offer->gpu_model,
						      gs_offer_memory_label(cd->offer, TR("word.missing"),
									    mem, sizeof(mem)));
				caps[nc].label = labels[nl++];
				caps[nc++].value = cd->capacity;
			}
		}
	}
	for (i = 0; i < c->in->nev; i++) {
		gs_qty n = gs_measurement_need(c->in->ev[i].m, NULL);
		if (!n.present || !gs_measurement_ok(c->in->ev[i].m))
			continue;
		labels[nl] = gs_xasprintf("%s", c->in->ev[i].ref->file);
		peaks[np].label = labels[nl++];
		peaks[np++].value = n;
	}
	gs_doc_heading(c->root, 3, TR("sec.budget_chart"));
	gs_sheet_words_chart_text(c, &ct, TR("chart.budget_title"));
	if (gs_chart_budget(&ct, segs, ns, caps, nc, peaks, np, &o) == 0)
		gs_sheet_words_add_chart(c, "budget", TR("chart.budget_title"), &o);

	/* The chart's data, beside it. */
	h[0] = TR("col.item");
	h[1] = TR("col.kind");
	h[2] = TR("col.bytes");
	h[3] = TR("col.gib");
	h[4] = TR("col.provenance");
	tb = gs_doc_table(c->doc, c->root, TR("cap.budget_data"), 5, h);
	for (i = 0; i < ns; i++)
		S_data_row(c, tb, segs[i].label, "chart.kind_segment", segs[i].value);
	for (i = 0; i < nc; i++)
		S_data_row(c, tb, caps[i].label, "chart.kind_capacity", caps[i].value);
	for (i = 0; i < np; i++)
		S_data_row(c, tb, peaks[i].label,
			   peaks[i].value.synthetic ? "chart.kind_peak_synthetic" : "chart.kind_peak",
			   peaks[i].value);
	for (i = 0; i < nl; i++)
		free(labels[i]);
	free(labels);
	free(segs);
	free(caps);
	free(peaks);
}

static const char *S_status_word(S_ctx *c, gs_phase_status st)
{
	return TR(st == GS_PHASE_OK ? "status.ok" : st == GS_PHASE_FAILED ? "status.failed"
									  : "status.not_run");
}

static void S_kv_table(S_ctx *c, const char *caption, const gs_kv *kv, size_t n)
{
	const char *h[2];
	cmark_node *tb, *r;
	size_t i;

	if (!n)
		return;
	h[0] = TR("col.name");
	h[1] = TR("col.value");
	tb = gs_doc_table(c->doc, c->root, caption, 2, h);
	for (i = 0; i < n; i++) {
		r = gs_doc_row(tb);
		gs_doc_cell_text(r, kv[i].name);
		gs_doc_cell_text(r, kv[i].value);
	}
}

/* The failing phase and what a failure there points to. */
static void S_failure_orientation(S_ctx *c, const gs_measurement *m)
{
	const gs_phase *f = gs_measurement_failure(m);
	cmark_node *p;

	if (!f)
		return;
	p = gs_doc_para(c->root);
	gs_doc_strong(p, TR("meas.failed_phase"));
	gs_doc_text(p, " ");
	gs_doc_code(p, f->name);
	gs_doc_text(p, ". ");
	gs_doc_text(p, TR(gs_phase_orientation(f->name)));
}

/* A reading of a measurement with its provenance: observed on a device,
 * or assumed for a synthetic file. Caller frees. */
static char *S_reading_words(S_ctx *c, const gs_measurement *m, gs_opt_u64 v)
{
	if (!v.has)
		return gs_xstrdup(TR("word.missing"));
	return gs_sheet_words_qty_words(c, m->synthetic ? gs_qty_synthetic(v.v)
					   : gs_qty_make(v.v, GS_PROV_OBSERVED));
}

static const char *S_meas_prov(S_ctx *c, const gs_measurement *m)
{
	return TR(m->synthetic ? "prov.synthetic" : "prov.observed");
}

/* Heading, what the file covers, its raw link and the synthetic flag. */
static void S_meas_header(S_ctx *c, size_t idx)
{
	const gs_evidence *e = &c->in->ev[idx];
	cmark_node *p;

	gs_doc_heading(c->root, 3, e->ref->file);
	p = gs_doc_para(c->root);
	gs_doc_strong(p, TR("meas.covers"));
	gs_doc_text(p, " ");
	gs_doc_text(p, e->ref->covers ? e->ref->covers : TR("word.missing"));
	p = gs_doc_para(c->root);
	gs_doc_strong(p, TR("meas.raw"));
	gs_doc_text(p, " ");
	gs_doc_link(p, c->in->ev_links[idx], e->ref->file);
	if (c->in->ev_log_links && c->in->ev_log_links[idx] && e->m->import_log_name) {
		p = gs_doc_para(c->root);
		gs_doc_strong(p, TR("meas.log"));
		gs_doc_text(p, " ");
		gs_doc_link(p, c->in->ev_log_links[idx], e->m->import_log_name);
		gs_doc_textf(p, " (%s)", e->m->import_source ? e->m->import_source : TR("word.missing"));
	}
	if (e->m->synthetic) {
		p = gs_doc_para(gs_doc_quote(c->root));
		gs_doc_strong(p, TR("synthetic.title"));
		gs_doc_text(p, " ");
		gs_doc_text(p, e->m->synthetic_note ? e->m->synthetic_note : TR("synthetic.body"));
	}
}

/* Identity, dimensions, environment, protocol, conditions and versions. */
static void S_meas_context(S_ctx *c, const gs_measurement *m)
{
	const char *h[2];
	cmark_node *tb, *r;
	char a[GS_FMT_MAX];
	size_t i;

	h[0] = TR("col.field");
	h[1] = TR("col.value");
	tb = gs_doc_table(c->doc, c->root, TR("cap.meas_context"), 2, h);
#define ROW(label, value) do { r = gs_doc_row(tb); gs_doc_cell_text(r, label); gs_doc_cell_text(r, (value) ? (value) : TR("word.missing")); } while (0)
	ROW(TR("meas.code"), m->code);
	ROW(TR("meas.revision"), m->revision);
	ROW(TR("meas.input_set"), m->input_set);
	if (m->seed.has) {
		const char *seed = a;
		snprintf(a, sizeof(a), "%llu", (unsigned long long)m->seed.v);
		ROW(TR("meas.seed"), seed);
	}
	ROW(TR("meas.date"), m->date);
	ROW(TR("meas.produced_by"), m->produced_by);
	for (i = 0; i < m->ndims; i++) {
		char *label = gs_xasprintf("%s: %s", TR("id.dimension"), m->dims[i].name);
		ROW(label, m->dims[i].is_number ? gs_fmt_int(a, m->dims[i].number, c->lang)
						: m->dims[i].value);
		free(label);
	}
	for (i = 0; i < m->ndevices; i++) {
		const gs_device *dv = &m->devices[i];
		char *label = gs_xasprintf("%s %llu", TR("meas.device"), (unsigned long long)dv->index);
		char *tot = S_reading_words(c, m, dv->total_bytes);
		char *fre = S_reading_words(c, m, dv->free_bytes);
		char *val = gs_xasprintf("%s; %s %s; %s %s; %s %s", dv->name, TR("meas.total"), tot,
				     TR("meas.free"), fre,
				     TR("meas.cc"), dv->compute_capability ? dv->compute_capability
									   : TR("word.missing"));
		ROW(label, val);
		free(label);
		free(val);
		free(tot);
		free(fre);
	}
	ROW(TR("meas.driver"), m->driver);
	ROW(TR("meas.runtime"), m->runtime);
	ROW(TR("meas.backend"), m->backend);
	ROW(TR("meas.allocator"), m->allocator_backend);
#undef ROW
	{
		cmark_node *cell;
		r = gs_doc_row(tb);
		gs_doc_cell_text(r, TR("meas.protocol"));
		cell = gs_doc_cell(r);
		gs_doc_textf(cell, "%s: %s", TR("meas.process"), m->process ? m->process : TR("word.missing"));
		if (m->order.has)
			gs_doc_textf(cell, "; %s %llu", TR("meas.order"), (unsigned long long)m->order.v);
		if (m->warmup.has)
			gs_doc_textf(cell, "; %s %llu", TR("meas.warmup"), (unsigned long long)m->warmup.v);
		if (m->repeats.has)
			gs_doc_textf(cell, "; %s %llu", TR("meas.repeats"), (unsigned long long)m->repeats.v);
		gs_doc_textf(cell, "; %s %s", TR("meas.empty_cache"),
			     TR(!m->has_empty_cache ? "word.missing" : m->empty_cache ? "word.yes" : "word.no"));
	}
	S_kv_table(c, TR("cap.conditions"), m->conditions, m->nconditions);
	S_kv_table(c, TR("cap.allocator_settings"), m->allocator_settings, m->nallocator_settings);
	S_kv_table(c, TR("cap.frameworks"), m->frameworks, m->nframeworks);
}

/* A difference of reserved and allocated read at one checkpoint, or missing. */
static gs_opt_u64 S_same_checkpoint_diff(gs_opt_u64 reserved, gs_opt_u64 allocated)
{
	gs_opt_u64 d = { 0, 0 };

	if (reserved.has && allocated.has && reserved.v >= allocated.v) {
		d.v = reserved.v - allocated.v;
		d.has = 1;
	}
	return d;
}

/* Phases: the four counters, first pass and warm passes apart; fills the chart's phases. */
static void S_meas_counters(S_ctx *c, const gs_measurement *m, gs_chart_phase *cp)
{
	const char *h[9];
	cmark_node *tb, *r, *p;
	char a[GS_FMT_MAX];
	size_t i;

	h[0] = TR("col.phase");
	h[1] = TR("col.pass");
	h[2] = TR("col.device");
	h[3] = TR("col.status");
	h[4] = TR("col.counter");
	h[5] = TR("col.start");
	h[6] = TR("col.peak");
	h[7] = TR("col.end");
	h[8] = TR("col.provenance");
	p = gs_doc_para(c->root);
	gs_doc_text(p, TR("meas.counters_note"));
	S_failure_orientation(c, m);
	tb = gs_doc_table(c->doc, c->root, TR("cap.phases"), 9, h);
	for (i = 0; i < m->nphases; i++) {
		const gs_phase *ph = &m->phases[i];
		int k;
		snprintf(a, sizeof(a), "%llu", (unsigned long long)ph->device);
		for (k = 0; k < 3; k++) {
			r = gs_doc_row(tb);
			gs_doc_cell_text(r, ph->name);
			gs_doc_cell_text(r, TR(ph->warm ? "pass.warm" : "pass.first"));
			gs_doc_cell_text(r, a);
			gs_doc_cell_text(r, S_status_word(c, ph->status));
			if (k == 0) {
				gs_doc_cell_text(r, TR("counter.allocated"));
				gs_sheet_words_cell_owned(r, gs_sheet_words_counter(c, ph->alloc_start));
				gs_sheet_words_cell_owned(r, gs_sheet_words_counter(c, ph->alloc_peak));
				gs_sheet_words_cell_owned(r, gs_sheet_words_counter(c, ph->alloc_end));
			} else if (k == 1) {
				gs_doc_cell_text(r, TR("counter.reserved"));
				gs_sheet_words_cell_owned(r, gs_sheet_words_counter(c, ph->reserved_start));
				gs_sheet_words_cell_owned(r, gs_sheet_words_counter(c, ph->reserved_peak));
				gs_sheet_words_cell_owned(r, gs_sheet_words_counter(c, ph->reserved_end));
			} else {
				/* Same checkpoint only: never max reserved - max allocated. */
				gs_doc_cell_text(r, TR("counter.difference"));
				gs_sheet_words_cell_owned(r, gs_sheet_words_counter(c, S_same_checkpoint_diff(ph->reserved_start,
										    ph->alloc_start)));
				gs_doc_cell_text(r, TR("counter.no_peak_difference"));
				gs_sheet_words_cell_owned(r, gs_sheet_words_counter(c, S_same_checkpoint_diff(ph->reserved_end,
										    ph->alloc_end)));
			}
			gs_doc_cell_text(r, S_meas_prov(c, m));
		}
		cp[i].name = ph->name;
		cp[i].failed = ph->status == GS_PHASE_FAILED;
		cp[i].not_run = ph->status == GS_PHASE_NOT_RUN;
#define Q(x) (!(x).has ? gs_qty_missing() : m->synthetic ? gs_qty_synthetic((x).v) \
					     : gs_qty_make((x).v, GS_PROV_OBSERVED))
		cp[i].allocated[GS_CHART_START] = Q(ph->alloc_start);
		cp[i].allocated[GS_CHART_PEAK] = Q(ph->alloc_peak);
		cp[i].allocated[GS_CHART_END] = Q(ph->alloc_end);
		cp[i].reserved[GS_CHART_START] = Q(ph->reserved_start);
		cp[i].reserved[GS_CHART_PEAK] = Q(ph->reserved_peak);
		cp[i].reserved[GS_CHART_END] = Q(ph->reserved_end);
#undef Q
	}
}

/* Outside the allocator (same checkpoint only), elapsed time and errors. */
static void S_meas_outside(S_ctx *c, const gs_measurement *m)
{
	const char *h[6];
	cmark_node *tb, *r;
	char a[GS_FMT_MAX];
	size_t i;

	h[0] = TR("col.phase");
	h[1] = TR("col.device");
	h[2] = TR("col.outside");
	h[3] = TR("col.provenance");
	h[4] = TR("col.elapsed");
	h[5] = TR("col.error");
	tb = gs_doc_table(c->doc, c->root, TR("cap.phase_extra"), 6, h);
	for (i = 0; i < m->nphases; i++) {
		const gs_phase *ph = &m->phases[i];
		r = gs_doc_row(tb);
		gs_doc_cell_text(r, ph->name);
		snprintf(a, sizeof(a), "%llu", (unsigned long long)ph->device);
		gs_doc_cell_text(r, a);
		if (ph->used_end.has && ph->reserved_end.has) {
			/* used below reserved at one checkpoint: nothing outside */
			gs_opt_u64 o = { ph->used_end.v >= ph->reserved_end.v
						 ? ph->used_end.v - ph->reserved_end.v : 0, 1 };
			gs_sheet_words_cell_owned(r, gs_sheet_words_counter(c, o));
			gs_doc_cell_text(r, S_meas_prov(c, m));
		} else {
			/* not read is missing, never 0 */
			gs_sheet_words_cell_owned(r, gs_xasprintf("%s (%s)", TR("word.missing"),
						 TR(ph->used_end.has ? "outside.no_reserved_end"
								     : "outside.no_device_used")));
			gs_doc_cell_text(r, TR("word.missing"));
		}
		if (ph->elapsed_us.has) {
			char ms[GS_FMT_MAX];
			gs_fmt_fixed2(ms, ph->elapsed_us.v, 1000, c->lang);
			gs_sheet_words_cell_owned(r, gs_xasprintf("%s ms", ms));
		} else {
			gs_doc_cell_text(r, TR("word.missing"));
		}
		gs_doc_cell_text(r, ph->error ? ph->error : "");
	}
}

/* One cited measurement: context, counters, outside the allocator, chart. */
static void S_measurement(S_ctx *c, size_t idx)
{
	const gs_evidence *e = &c->in->ev[idx];
	gs_chart_phase *cp = gs_xcalloc(e->m->nphases + 1, sizeof(*cp));
	gs_chart_text ct;
	gs_chart_out o;
	char *title, *suffix;

	S_meas_header(c, idx);
	S_meas_context(c, e->m);
	S_meas_counters(c, e->m, cp);
	S_meas_outside(c, e->m);
	title = gs_xasprintf("%s — %s", TR("chart.phases_title"), e->ref->file);
	suffix = gs_xasprintf("phases-%zu", idx + 1);
	gs_sheet_words_chart_text(c, &ct, title);
	if (gs_chart_phases(&ct, cp, e->m->nphases, &o) == 0)
		gs_sheet_words_add_chart(c, suffix, title, &o);
	free(title);
	free(suffix);
	free(cp);
}

int gs_sheet_find_sweep(const gs_evidence *ev, size_t nev, gs_sweep *sw)
{
	size_t i, j, k;

	memset(sw, 0, sizeof(*sw));
	if (nev < 2 || nev > 64)
		return 0;
	/* The varied dimension: the one numeric dimension that differs
	 * between the first file and the others, all else equal. */
	for (k = 0; k < ev[0].m->ndims; k++) {
		const gs_kv *d0 = &ev[0].m->dims[k];
		int ok = d0->is_number, varies = 0;
		for (i = 1; i < nev && ok; i++) {
			const gs_measurement *m = ev[i].m;
			const gs_kv *di = gs_measurement_dim(m, d0->name);
			if (m->ndims != ev[0].m->ndims || !di || !di->is_number) {
				ok = 0;
				break;
			}
			varies |= di->number != d0->number;
			for (j = 0; j < m->ndims; j++) {
				const gs_kv *o = gs_measurement_dim(ev[0].m, m->dims[j].name);
				if (strcmp(m->dims[j].name, d0->name) == 0)
					continue;
				if (!o || strcmp(o->value, m->dims[j].value) != 0)
					ok = 0;
			}
		}
		if (ok && varies) {
			sw->dim = d0->name;
			for (i = 0; i < nev; i++)
				sw->idx[i] = i;
			sw->n = nev;
			/* Insertion sort by the dimension's value (n <= 64). */
			for (i = 1; i < nev; i++)
				for (j = i; j > 0 &&
				     gs_measurement_dim(ev[sw->idx[j - 1]].m, d0->name)->number >
				     gs_measurement_dim(ev[sw->idx[j]].m, d0->name)->number; j--) {
					size_t tmp = sw->idx[j];
					sw->idx[j] = sw->idx[j - 1];
					sw->idx[j - 1] = tmp;
				}
			return 1;
		}
	}
	return 0;
}

static void S_sweep(S_ctx *c)
{
	gs_sweep sw;
	const char *h[5];
	cmark_node *tb, *r, *p;
	gs_chart_point pts[64];
	gs_chart_line caps[8];
	char a[GS_FMT_MAX];
	const gs_kv *last_ok = NULL, *first_fail = NULL;
	size_t i, nc = 0;

	if (!gs_sheet_find_sweep(c->in->ev, c->in->nev, &sw))
		return;
	gs_doc_heading(c->root, 3, TR("sec.sweep"));
	h[0] = sw.dim;
	h[1] = TR("col.status");
	h[2] = TR("col.peak_reserved");
	h[3] = TR("col.file");
	h[4] = TR("col.error");
	tb = gs_doc_table(c->doc, c->root, TR("cap.sweep"), 5, h);
	for (i = 0; i < sw.n; i++) {
		const gs_evidence *e = &c->in->ev[sw.idx[i]];
		const gs_kv *dv = gs_measurement_dim(e->m, sw.dim);
		const gs_phase *f = gs_measurement_failure(e->m);
		gs_qty peak = gs_measurement_need(e->m, NULL);
		int ok = gs_measurement_ok(e->m);

		r = gs_doc_row(tb);
		gs_doc_cell_text(r, gs_fmt_int(a, dv->number, c->lang));
		gs_doc_cell_text(r, TR(ok ? "status.ok" : "status.failed"));
		if (ok)
			gs_sheet_words_cell_owned(r, gs_sheet_words_qty_words(c, peak));
		else
		{
			char *pw = gs_sheet_words_qty_words(c, peak);
			gs_sheet_words_cell_owned(r, gs_xasprintf("%s: %s", TR("sweep.partial"), pw));
			free(pw);
		}
		gs_doc_cell_text(r, e->ref->file);
		gs_doc_cell_text(r, f && f->error ? f->error : "");
		if (ok)
			last_ok = dv;
		else if (!first_fail)
			first_fail = dv;
		pts[i].x = dv->number;
		pts[i].peak = peak;
		pts[i].failed = !ok;
	}
	p = gs_doc_para(c->root);
	gs_doc_strong(p, TR("sweep.frontier"));
	gs_doc_text(p, " ");
	if (last_ok && first_fail) {
		char b[GS_FMT_MAX];
		gs_doc_textf(p, "%s = %s (%s) / %s = %s (%s).", sw.dim,
			     gs_fmt_int(a, last_ok->number, c->lang), TR("sweep.last_ok"), sw.dim,
			     gs_fmt_int(b, first_fail->number, c->lang), TR("sweep.first_fail"));
	} else if (first_fail) {
		gs_doc_text(p, TR("sweep.all_failed"));
	} else {
		gs_doc_text(p, TR("sweep.none_failed"));
	}
	/* Capacity of the card the sweep ran on. */
	{
		const gs_measurement *m0 = c->in->ev[sw.idx[0]].m;
		if (m0->ndevices && m0->devices[0].total_bytes.has) {
			caps[nc].label = m0->devices[0].name;
			caps[nc++].value = m0->synthetic ? gs_qty_synthetic(m0->devices[0].total_bytes.v)
						    : gs_qty_make(m0->devices[0].total_bytes.v, GS_PROV_OBSERVED);
		}
	}
	{
		gs_chart_text ct;
		gs_chart_out o;
		gs_sheet_words_chart_text(c, &ct, TR("chart.sweep_title"));
		ct.x_label = sw.dim;
		if (gs_chart_sweep(&ct, pts, sw.n, caps, nc, &o) == 0)
			gs_sheet_words_add_chart(c, "sweep", TR("chart.sweep_title"), &o);
	}
}

static void S_measurements(S_ctx *c)
{
	const gs_workload *w = c->in->w;
	cmark_node *p;
	size_t i;
	const gs_measurement *largest = NULL;

	gs_doc_heading(c->root, 2, TR("sec.measurements"));
	if (!c->in->nev) {
		p = gs_doc_para(c->root);
		gs_doc_text(p, TR("meas.none"));
		return;
	}
	/* Largest load tested: the successful run with the largest dimensions. */
	for (i = 0; i < c->in->nev; i++) {
		const gs_measurement *m = c->in->ev[i].m;
		gs_qty n = gs_measurement_need(m, NULL), best;
		if (!gs_measurement_ok(m) || !n.present)
			continue;
		best = largest ? gs_measurement_need(largest, NULL) : gs_qty_missing();
		if (!largest || n.bytes > best.bytes)
			largest = m;
	}
	p = gs_doc_para(c->root);
	gs_doc_strong(p, TR("meas.largest"));
	gs_doc_text(p, " ");
	if (largest) {
		size_t k;
		for (k = 0; k < largest->ndims; k++)
		{
			char a[GS_FMT_MAX];
			gs_doc_textf(p, "%s%s = %s", k ? ", " : "", largest->dims[k].name,
				     largest->dims[k].is_number
					     ? gs_fmt_int(a, largest->dims[k].number, c->lang)
					     : largest->dims[k].value);
		}
		for (i = 0; i < c->in->nev; i++)
			if (c->in->ev[i].m == largest) {
				gs_doc_text(p, " (");
				gs_doc_code(p, c->in->ev[i].ref->file);
				gs_doc_text(p, ")");
			}
		if (!gs_measurement_covers(w, largest)) {
			gs_doc_text(p, ". ");
			gs_doc_text(p, TR("meas.largest_not_covering"));
		}
	} else {
		gs_doc_text(p, TR("meas.no_success"));
	}
	S_sweep(c);
	for (i = 0; i < c->in->nev; i++)
		S_measurement(c, i);
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
		     gs_fmt_money(m, cd->cost, c->lang), cd->plan->currency,
		     (unsigned long long)cd->plan_units, (unsigned long long)cd->plan->hours,
		     gs_fmt_micro(pm, gs_plan_micro(cd->plan), c->lang), cd->plan->currency,
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
 * What several offers share, written once: a source document (the memory
 * figure's or the price's, with its date) or a catalog note. Each distinct
 * text is numbered in first-appearance order over the offers in table
 * order; an offer's row names it by that number.
 */
typedef struct {
	char *text;            /* the source with its date, or the note (its name masked) */
	char *shown;           /* a note: the first offer's, as written; NULL: text */
	int names_differ;      /* a note: its offers' notes differ by their names */
	uint64_t hash;
	size_t *pos[2];        /* positions in d->order: [0] memory figure or note, [1] price */
	size_t npos[2];
	char **spec;           /* a source whose line numbers were masked: each offer's lines */
	size_t nspec;
} S_shared;

typedef struct {
	S_shared *s;
	size_t n, cap;
	size_t *slot;          /* open addressing by hash: entry + 1, 0 empty */
	size_t nslot;          /* a power of two, at least twice n */
} S_sharedset;

/* The slot of text (hash h) in set's index: its entry's, or the empty one
 * where it would go. */
static size_t *S_shared_slot(const S_sharedset *set, const char *text, uint64_t h)
{
	size_t k = (size_t)h & (set->nslot - 1);

	while (set->slot[k]) {
		const S_shared *e = &set->s[set->slot[k] - 1];
		if (e->hash == h && strcmp(e->text, text) == 0)
			break;
		k = (k + 1) & (set->nslot - 1);
	}
	return &set->slot[k];
}

/* The entry of text in set, or NULL. */
static const S_shared *S_shared_find(const S_sharedset *set, const char *text)
{
	size_t *sl;

	if (!set->n)
		return NULL;
	sl = S_shared_slot(set, text, gs_sheet_words_hash(text));
	return *sl ? &set->s[*sl - 1] : NULL;
}

/*
 * The number of text in set (added when new), noting position pos in list
 * k; shown (a note as its offer wrote it, text with its name masked) is
 * kept from the first offer, text and shown are taken.
 */
static size_t S_share_shown(S_sharedset *set, char *text, char *shown, int k, size_t pos)
{
	uint64_t h = gs_sheet_words_hash(text);
	S_shared *e = NULL;
	size_t *sl;

	if (2 * (set->n + 1) > set->nslot) {
		/* the index grows: every entry placed again */
		size_t i;
		set->nslot = set->nslot ? 2 * set->nslot : 16;
		free(set->slot);
		set->slot = gs_xcalloc(set->nslot, sizeof(*set->slot));
		for (i = 0; i < set->n; i++)
			*S_shared_slot(set, set->s[i].text, set->s[i].hash) = i + 1;
	}
	sl = S_shared_slot(set, text, h);
	if (*sl) {
		e = &set->s[*sl - 1];
		if (shown && !e->names_differ &&
		    strcmp(shown, e->shown ? e->shown : e->text) != 0)
			e->names_differ = 1;
		free(text);
		free(shown);
	} else {
		if (set->n == set->cap) {
			set->cap = set->cap ? set->cap * 2 : 8;
			set->s = gs_xrealloc(set->s, set->cap * sizeof(*set->s));
		}
		e = &set->s[set->n++];
		memset(e, 0, sizeof(*e));
		e->text = text;
		e->shown = shown;
		e->hash = h;
		*sl = set->n;
	}
	/* at most one entry per offer and list: positions come in order */
	if (!e->npos[k] || e->pos[k][e->npos[k] - 1] != pos)
		gs_sheet_words_pos_push(&e->pos[k], &e->npos[k], pos);
	return (size_t)(e - set->s);
}

static size_t S_share(S_sharedset *set, char *text, int k, size_t pos)
{
	return S_share_shown(set, text, NULL, k, pos);
}

/* ASCII lower case: the masking reads no locale. */
static unsigned char S_lower(unsigned char ch)
{
	return ch >= 'A' && ch <= 'Z' ? (unsigned char)(ch - 'A' + 'a') : ch;
}

/* Does p hold needle (n bytes) in any case (ASCII)? p has n bytes at least. */
static int S_at_nocase(const char *p, const char *needle, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (S_lower((unsigned char)p[i]) != S_lower((unsigned char)needle[i]))
			return 0;
	return 1;
}

/*
 * A catalog note with the offer's name masked, or NULL when it does not
 * name the offer: the name is the longest tail of the offer's id, the
 * whole id or what follows one of its '-', of 4 bytes at least, that the
 * note holds in any case ("Instance type n3-A100x1 of Hyperstack" for
 * hyperstack-n3-a100x1); every occurrence becomes one byte \1. Notes that
 * differ by their offers' names alone are then the same text.
 *
 * Every tail is a suffix of the id, so one pass over the note finds them
 * all: at each end e, the longest suffix of the id that the note ends
 * with at e; the name is the longest tail no longer than the longest
 * such suffix.
 */
static char *S_note_masked(const char *note, const char *id)
{
	size_t nl = strlen(note), il = strlen(id), e, l, best = 0, tl = 0, i, k = 0;
	const char *hit;
	char *out;

	if (il < 4)
		return NULL;
	for (e = 1; e <= nl && best < il; e++) {
		/* (a first byte that differs ends it at once, as most do) */
		for (l = 0; l < il && l < e &&
		     S_lower((unsigned char)note[e - 1 - l]) == S_lower((unsigned char)id[il - 1 - l]); l++)
			;
		if (l > best)
			best = l;
	}
	if (best >= il) {
		tl = il;
	} else {
		for (i = 0; i < il; i++)
			if (id[i] == '-' && il - i - 1 <= best) {
				tl = il - i - 1;   /* the first such '-' leaves the longest tail */
				break;
			}
	}
	if (tl < 4)
		return NULL;
	hit = id + il - tl;
	out = gs_xmalloc(nl + 1);
	for (i = 0; i < nl;) {
		if (nl - i >= tl && S_at_nocase(note + i, hit, tl)) {
			out[k++] = '\1';
			i += tl;
		} else {
			out[k++] = note[i++];
		}
	}
	out[k] = '\0';
	return out;
}

char **gs_sheet_notes_masked(const gs_catalog *cat)
{
	char **m = gs_xcalloc(cat->noffers + 1, sizeof(*m));
	size_t i;

	for (i = 0; i < cat->noffers; i++)
		if (cat->offers[i].notes)
			m[i] = S_note_masked(cat->offers[i].notes, cat->offers[i].id);
	return m;
}

void gs_sheet_notes_masked_free(char **m, size_t n)
{
	size_t i;

	if (!m)
		return;
	for (i = 0; i < n; i++)
		free(m[i]);
	free(m);
}

/* The note of o with its name masked (S_note_masked), from
 * in->notes_masked when the sheet has it, else made now; NULL when the
 * note does not name the offer. Caller frees. */
static char *S_offer_note_masked(const S_ctx *c, const gs_offer *o)
{
	const gs_catalog *cat = c->in->cat;

	if (c->in->notes_masked && cat && o >= cat->offers && o < cat->offers + cat->noffers) {
		const char *m = c->in->notes_masked[o - cat->offers];
		return m ? gs_xstrdup(m) : NULL;
	}
	return S_note_masked(o->notes, o->id);
}

/*
 * A source with its line numbers masked, or NULL when it cites none: the
 * first "line N" or "lines N, M" / "lines N-M" of the text becomes one
 * byte \2, and *spec (taken by the caller) the numbers as written ("113",
 * "5, 6"). Sources that differ by their line numbers alone (one CSV file,
 * an offer a line) are then one text, which lists the lines.
 */
char *gs_sheet_line_mask(const char *text, char **spec)
{
	const char *p, *q;
	char *out;

	for (p = text; (p = strstr(p, "line")) != NULL; p++) {
		if (p > text && p[-1] != ' ')
			continue;
		q = p + 4;
		if (*q == 's')
			q++;
		if (*q != ' ' || q[1] < '0' || q[1] > '9')
			continue;
		q++;
		{
			const char *n = q;
			for (;;) {
				while (*q >= '0' && *q <= '9')
					q++;
				if (q[0] == ',' && q[1] == ' ' && q[2] >= '0' && q[2] <= '9')
					q += 2;
				else if (q[0] == '-' && q[1] >= '0' && q[1] <= '9')
					q += 1;
				else
					break;
			}
			*spec = gs_xasprintf("%.*s", (int)(q - n), n);
		}
		out = gs_xasprintf("%.*s\2%s", (int)(p - text), text, q);
		return out;
	}
	*spec = NULL;
	return NULL;
}

/* The first number of a line spec ("113", "5, 6", "10-12"). */
static unsigned long S_spec_first(const char *s)
{
	return strtoul(s, NULL, 10);
}

static int S_cmp_spec(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;
	unsigned long u = S_spec_first(x), v = S_spec_first(y);

	return u < v ? -1 : u > v ? 1 : strcmp(x, y);
}

/*
 * The lines of n specs, each once, in order: "line 113" (or "lines 5, 6")
 * when one, else "lines 2, 8, 9, 113 and 40 more" (S_FEW_LINES of them,
 * then the count of the others). Sorts spec.
 */
#define S_FEW_LINES 4
char *gs_sheet_lines_text(const gs_strings *t, char **spec, size_t n)
{
	char *out = NULL;
	size_t len = 0, cap = 0, i, j, shown = 0;

	qsort(spec, n, sizeof(*spec), S_cmp_spec);
	for (i = 1, j = 1; i < n; i++)
		if (strcmp(spec[i], spec[j - 1]) != 0)
			spec[j++] = spec[i];
	if (j == 1)
		return gs_xasprintf("%s %s", strchr(spec[0], ',') || strchr(spec[0], '-') ? "lines" : "line",
				    spec[0]);
	gs_mem_append(&out, &len, &cap, "lines ", 6);
	for (i = 0; i < j && shown < S_FEW_LINES; i++, shown++) {
		if (i)
			gs_mem_append(&out, &len, &cap, ", ", 2);
		gs_mem_append(&out, &len, &cap, spec[i], strlen(spec[i]));
	}
	if (j > shown) {
		char *more = gs_xasprintf(" %s %zu %s", gs_tr(t, "cand.and"), j - shown, gs_tr(t, "cand.more"));
		gs_mem_append(&out, &len, &cap, more, strlen(more));
		free(more);
	}
	out[len] = '\0';
	return out;
}

/* text with its byte \2 replaced by lines (or text when it has none). */
static char *S_unmask(const char *text, const char *lines)
{
	const char *m = strchr(text, '\2');

	if (!m)
		return gs_xstrdup(text);
	return gs_xasprintf("%.*s%s%s", (int)(m - text), text, lines, m + 1);
}

/* The number of source text in set, its line numbers masked (kept per
 * offer); text is taken. */
static size_t S_share_source(S_sharedset *set, char *text, int k, size_t pos)
{
	char *spec, *masked = gs_sheet_line_mask(text, &spec);
	size_t n;
	S_shared *e;

	if (!masked)
		return S_share(set, text, k, pos);
	free(text);
	n = S_share(set, masked, k, pos);
	e = &set->s[n];
	if ((e->nspec & (e->nspec - 1)) == 0)
		e->spec = gs_xrealloc(e->spec, (e->nspec ? 2 * e->nspec : 1) * sizeof(*e->spec));
	e->spec[e->nspec++] = spec;
	return n;
}

static void S_shared_release(S_sharedset *set)
{
	size_t i, j;

	for (i = 0; i < set->n; i++) {
		for (j = 0; j < set->s[i].nspec; j++)
			free(set->s[i].spec[j]);
		free(set->s[i].spec);
		free(set->s[i].text);
		free(set->s[i].shown);
		free(set->s[i].pos[0]);
		free(set->s[i].pos[1]);
	}
	free(set->s);
	free(set->slot);
}

/* ", "-separated offer ids of positions pos (in d->order), as code. */
static void S_offer_list(S_ctx *c, cmark_node *p, const size_t *pos, size_t n)
{
	const gs_decision *d = c->in->d;
	size_t k;

	for (k = 0; k < n; k++) {
		if (k)
			gs_doc_text(p, ", ");
		gs_doc_code(p, d->cands[d->order[pos[k]]].offer->id);
	}
}

/*
 * The offers of a source, note or reason: their ids when they are few,
 * else their number; the table's last column gives each offer's numbers
 * and its verdict cells link to their reasons, so that a list of fifty ids
 * would only repeat them.
 */
#define S_FEW_OFFERS 3
static void S_offer_list_or_count(S_ctx *c, cmark_node *p, const size_t *pos, size_t n)
{
	if (n <= S_FEW_OFFERS)
		S_offer_list(c, p, pos, n);
	else
		gs_doc_textf(p, "%zu %s", n, TR("cand.offers"));
}

/*
 * The numbered list of a shared set under its heading (id heading_id):
 * each item's id (HTML) is PREFIX-N. A source: its text, then "memory
 * figure of a, b; price of c" (or "memory figure and price of" when both
 * are of the same offers); a note: "a, b: " then its text, as the catalog
 * wrote it. Beyond S_FEW_OFFERS offers, their number instead of their ids.
 */
static void S_shared_list(S_ctx *c, const S_sharedset *set, const char *heading_key,
			  const char *heading_id, const char *prefix, int sources)
{
	cmark_node *list, *p;
	size_t i;

	if (!set->n)
		return;
	gs_doc_heading_id(c->doc, c->root, 3, TR(heading_key), heading_id);
	list = gs_doc_list(c->root, 1);
	for (i = 0; i < set->n; i++) {
		const S_shared *e = &set->s[i];
		char *anchor = gs_xasprintf("%s-%zu", prefix, i + 1);

		p = gs_doc_item(list);
		gs_doc_item_id(c->doc, p, anchor);
		free(anchor);
		if (!sources) {
			/* a note: the offers it is written for, then the note;
			 * notes that differ by their offers' names alone are
			 * one, written as the first offer's */
			S_offer_list_or_count(c, p, e->pos[0], e->npos[0]);
			if (e->names_differ) {
				gs_doc_textf(p, ", %s ", TR("cand.group_note"));
				S_offer_list(c, p, e->pos[0], 1);
			}
			gs_doc_text(p, ": ");
		}
		if (e->nspec) {
			char **tmp = gs_xmalloc(e->nspec * sizeof(*tmp));
			char *lines, *t;
			memcpy(tmp, e->spec, e->nspec * sizeof(*tmp));
			lines = gs_sheet_lines_text(c->t, tmp, e->nspec);
			t = S_unmask(e->text, lines);
			gs_doc_text(p, t);
			free(t);
			free(lines);
			free(tmp);
		} else {
			gs_doc_text(p, e->shown ? e->shown : e->text);
		}
		if (sources) {
			gs_doc_text(p, ": ");
			if (e->npos[0] && e->npos[0] == e->npos[1] &&
			    memcmp(e->pos[0], e->pos[1], e->npos[0] * sizeof(*e->pos[0])) == 0) {
				gs_doc_textf(p, "%s ", TR("cand.memory_price_of"));
				S_offer_list_or_count(c, p, e->pos[0], e->npos[0]);
			} else {
				if (e->npos[0]) {
					gs_doc_textf(p, "%s ", TR("cand.memory_figure_of"));
					S_offer_list_or_count(c, p, e->pos[0], e->npos[0]);
				}
				if (e->npos[1]) {
					gs_doc_textf(p, "%s%s ", e->npos[0] ? "; " : "", TR("cand.price_of"));
					S_offer_list_or_count(c, p, e->pos[1], e->npos[1]);
				}
			}
			gs_doc_text(p, ".");
		}
	}
}

/*
 * The number (from 1) of the source "SOURCE (DATE)" among the sources of
 * the memory figures and prices, or 0: a dated catalog claim that is one
 * of them is cited by its number, not written again for every offer.
 */
static size_t S_source_number(const S_sharedset *sources, const char *source, const char *date)
{
	const S_shared *e;
	char *key;

	if (!date)
		return 0;
	key = gs_xasprintf("%s (%s)", source, date);
	e = S_shared_find(sources, key);
	if (!e) {
		char *spec, *masked = gs_sheet_line_mask(key, &spec);
		if (masked)
			e = S_shared_find(sources, masked);
		free(masked);
		free(spec);
	}
	free(key);
	return e ? (size_t)(e - sources->s) + 1 : 0;
}

/*
 * Budget reasons that differ by the cost alone (each price its own total)
 * are one: rep[i] is the first reason (in table order) of reason i's
 * group, next[i] the group's next reason (SIZE_MAX after its last). The
 * key is the sentence with the cost masked, the evidence with its line
 * numbers masked, and the verdict's other fields; by hash, in one pass.
 */
static void S_budget_merge(S_ctx *c, const gs_sheet_reasonset *rs, size_t *rep, size_t *next)
{
	size_t nslot = 16, i, k, *slot, *last = gs_xmalloc((rs->n + 1) * sizeof(*last));
	char **key = gs_xcalloc(rs->n + 1, sizeof(*key));
	uint64_t *hash = gs_xmalloc((rs->n + 1) * sizeof(*hash));

	while (nslot < 2 * rs->n)
		nslot *= 2;
	slot = gs_xcalloc(nslot, sizeof(*slot));
	for (i = 0; i < rs->n; i++) {
		const gs_verdict *v = rs->r[i].v;
		char *text, *spec = NULL, *ev = NULL;

		rep[i] = i;
		next[i] = SIZE_MAX;
		if (rs->r[i].req != GS_REQ_BUDGET || !v->has_money)
			continue;
		c->cost_mask = 1;
		text = gs_sheet_words_reason(c, v);
		c->cost_mask = 0;
		if (v->evidence && !(ev = gs_sheet_line_mask(v->evidence, &spec)))
			ev = gs_xstrdup(v->evidence);
		key[i] = gs_xasprintf("%d\1%d\1%d\1%s\1%s\1%s\1%s", (int)v->kind, (int)v->basis,
				      !v->synthetic, text, ev ? ev : "", v->evidence_date ? v->evidence_date : "",
				      v->missing ? v->missing : "");
		free(text);
		free(ev);
		free(spec);
		hash[i] = gs_sheet_words_hash(key[i]);
		for (k = (size_t)hash[i] & (nslot - 1); slot[k]; k = (k + 1) & (nslot - 1)) {
			size_t o = slot[k] - 1;
			if (hash[o] == hash[i] && strcmp(key[o], key[i]) == 0)
				break;
		}
		if (slot[k]) {
			size_t g = slot[k] - 1;
			rep[i] = g;
			next[last[g]] = i;
			last[g] = i;
		} else {
			slot[k] = i + 1;
			last[i] = i;
		}
	}
	for (i = 0; i < rs->n; i++)
		free(key[i]);
	free(key);
	free(hash);
	free(slot);
	free(last);
}

/*
 * The reasons, each written once: a subsection per requirement, an item
 * per distinct reason with its verdict and the offers it applies to (in
 * table order), then its sentence, evidence and what would confirm it.
 */
static void S_reasons(S_ctx *c, const gs_sheet_reasonset *rs, const S_sharedset *sources,
		      const size_t *rep, const size_t *next)
{
	const gs_decision *d = c->in->d;
	cmark_node *list, *p;
	size_t i;
	int q;

	for (i = 0; i < rs->n && rs->r[i].v->kind == GS_V_NOT_REQUIRED; i++)
		;
	if (i < rs->n) {
		p = gs_doc_para(c->root);
		gs_doc_text(p, TR("cand.reasons_intro"));
	}
	for (q = 0; q < GS_REQ_COUNT; q++) {
		list = NULL;
		for (i = 0; i < rs->n; i++) {
			const gs_sheet_reason *r = &rs->r[i];
			const gs_verdict *v = r->v;
			gs_verdict range;
			size_t *pos = r->pos, npos = r->npos, j;
			char *text = NULL, *evidence = NULL;
			if (r->req != (gs_req)q || v->kind == GS_V_NOT_REQUIRED || rep[i] != i)
				continue;
			if (next[i] != SIZE_MAX) {
				/* budget reasons that differ by the cost: the range of
				 * the costs, over all their offers (in table order), the
				 * evidence's lines listed */
				char **spec = NULL;
				size_t nspec = 0, cap = 0;
				int same_ev = 1;
				range = *v;
				c->cost_hi = v->cost;
				npos = 0;
				for (j = i; j != SIZE_MAX; j = next[j]) {
					const gs_verdict *u = rs->r[j].v;
					if (u->cost < range.cost)
						range.cost = u->cost;
					if (u->cost > c->cost_hi)
						c->cost_hi = u->cost;
					npos += rs->r[j].npos;
					same_ev &= gs_sheet_words_same_str(u->evidence, v->evidence);
				}
				pos = gs_xmalloc(npos * sizeof(*pos));
				npos = 0;
				for (j = i; j != SIZE_MAX; j = next[j]) {
					memcpy(pos + npos, rs->r[j].pos, rs->r[j].npos * sizeof(*pos));
					npos += rs->r[j].npos;
					if (!same_ev) {
						char *sp = NULL;
						free(gs_sheet_line_mask(rs->r[j].v->evidence, &sp));
						if (sp) {
							if (nspec == cap) {
								cap = cap ? 2 * cap : 8;
								spec = gs_xrealloc(spec, cap * sizeof(*spec));
							}
							spec[nspec++] = sp;
						}
					}
				}
				if (nspec) {
					char *sp, *masked = gs_sheet_line_mask(v->evidence, &sp);
					char *lines = gs_sheet_lines_text(c->t, spec, nspec);
					evidence = S_unmask(masked, lines);
					free(masked);
					free(sp);
					free(lines);
					for (j = 0; j < nspec; j++)
						free(spec[j]);
				}
				free(spec);
				qsort(pos, npos, sizeof(*pos), gs_sheet_words_cmp_size);
				c->cost_range = 1;
				text = gs_sheet_words_reason(c, &range);
				c->cost_range = 0;
				v = &range;
			}
			if (!list) {
				/* sheets/ID.html#reasons-memory: stable, one per requirement */
				char *anchor = gs_xasprintf("reasons-%s", gs_req_id((gs_req)q));
				gs_doc_heading_id(c->doc, c->root, 3, TR(gs_sheet_words_req_keys[q]), anchor);
				free(anchor);
				list = gs_doc_list(c->root, 0);
			}
			p = gs_doc_item(list);
			{
				/* sheets/ID.html#why-N: reasons[N] of the decision JSON;
				 * the table's verdict cells link here */
				char *anchor = gs_xasprintf("why-%zu", i);
				gs_doc_item_id(c->doc, p, anchor);
				free(anchor);
			}
			{
				char *verdict = gs_xasprintf("%s %s", gs_sheet_verdict_symbol(v->kind),
							     gs_sheet_words_verdict_word(c, v->kind));
				gs_doc_strong(p, verdict);
				free(verdict);
			}
			if (v->kind == GS_V_EXCLUDE)
				gs_doc_textf(p, " (%s)", TR(gs_sheet_words_basis_key(v->basis)));
			gs_doc_textf(p, " %s ", TR("cand.applies_to"));
			if (npos == d->ncands && d->ncands > 1)
				gs_doc_textf(p, "%s (%zu)", TR("cand.every_offer"), d->ncands);
			else
				S_offer_list_or_count(c, p, pos, npos);
			gs_doc_text(p, ". ");
			gs_doc_text(p, text ? text : r->text);
			if (v->evidence) {
				size_t src = S_source_number(sources, v->evidence, v->evidence_date);
				gs_doc_textf(p, " %s ", TR("cand.evidence"));
				if (src) {
					/* a price or memory figure: its source by number, listed below */
					gs_doc_textf(p, "%s %zu", TR("cand.source"), src);
				} else {
					gs_doc_code(p, evidence ? evidence : v->evidence);
					if (v->evidence_date)
						gs_doc_textf(p, " (%s)", v->evidence_date);
				}
				if (gs_sheet_words_evidence_synthetic(c, v->evidence)) {
					gs_doc_text(p, " ");
					gs_doc_strong(p, TR(v->synthetic ? "demo.rests_on" : "synthetic.short"));
				}
				gs_doc_text(p, ".");
			}
			if (v->missing)
				gs_doc_textf(p, " %s %s", TR("cand.to_confirm"), TR(v->missing));
			if (pos != r->pos)
				free(pos);
			free(text);
			free(evidence);
		}
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

static uint64_t S_mix_str(uint64_t h, const char *s)
{
	return S_mix(h, s ? gs_sheet_words_hash(s) : 0);
}

static const char *S_cur(const gs_plan *p)
{
	return p ? p->currency : NULL;
}

static uint64_t S_row_hash(const S_ctx *c, const gs_sheet_reasonset *rs, size_t ci)
{
	const gs_candidate *a = &c->in->d->cands[ci];
	const gs_offer *o = a->offer;
	uint64_t h = S_mix_str(S_mix_str(0, o->provider), o->gpu_model);
	int q;

	h = S_mix(h, o->cards);
	h = S_mix(h, o->nominal_bytes);
	h = S_mix(h, (uint64_t)a->cls);
	h = S_mix(h, a->capacity.present ? a->capacity.bytes : 0);
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

	if (!gs_sheet_words_same_str(x->provider, y->provider) || !gs_sheet_words_same_str(x->gpu_model, y->gpu_model) ||
	    x->cards != y->cards || x->memory_unknown != y->memory_unknown ||
	    x->nominal_bytes != y->nominal_bytes || !gs_sheet_words_same_str(x->mib_text, y->mib_text) ||
	    !gs_sheet_words_same_str(x->nominal_gb_text, y->nominal_gb_text) ||
	    x->memory_origin != y->memory_origin || a->cls != b->cls ||
	    !gs_sheet_words_same_qty(a->capacity, b->capacity) || a->cap_source != b->cap_source)
		return 0;
	if (c->in->cat->origins &&
	    !gs_sheet_words_same_str(gs_catalog_origin(c->in->cat, x), gs_catalog_origin(c->in->cat, y)))
		return 0;
	if (!a->plan != !b->plan || !gs_sheet_words_same_str(S_cur(a->plan), S_cur(b->plan)) ||
	    !gs_sheet_words_same_str(S_cur(a->on_demand.plan), S_cur(b->on_demand.plan)) ||
	    !gs_sheet_words_same_str(S_cur(a->interruptible.plan), S_cur(b->interruptible.plan)))
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
 * the same), in S_price_text's words. */
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
			gs_fmt_money(a, lo[k], c->lang);
			gs_fmt_money(b, hi[k], c->lang);
		} else {
			gs_fmt_micro(a, lo[k], c->lang);
			gs_fmt_micro(b, hi[k], c->lang);
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
			gs_sheet_words_anchor(c->doc, cell, "reasons-", gs_req_id((gs_req)gq[g]), gs_doc_cell_link);
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

static void S_candidates(S_ctx *c)
{
	const gs_decision *d = c->in->d;
	const char *h[GS_REQ_COUNT + 6];
	char *vtext[4][2], *hroom;
	int same[GS_REQ_COUNT], ncols, unstated = 0, any_room = 0;
	size_t ntab = 0, f0;
	const char *w_missing, *w_source, *w_note, *w_status[GS_CLASS_COUNT];
	const char *const *rk = gs_sheet_words_req_keys;
	cmark_node *tb, *r, *p;
	gs_sheet_reasonset own;
	const gs_sheet_reasonset *rs = c->in->rs;
	S_sharedset sources = { 0 }, notes = { 0 };
	S_rows rw;
	size_t i, g, *src_of, *note_of, *nums, *rep, *rnext;
	int q;

	if (!rs) {
		gs_sheet_reasonset_build(c->in, &own);
		rs = &own;
	}
	S_rows_build(c, rs, &rw);
	rep = gs_xmalloc((rs->n + 1) * sizeof(*rep));
	rnext = gs_xmalloc((rs->n + 1) * sizeof(*rnext));
	S_budget_merge(c, rs, rep, rnext);
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
				src_of[2 * i] = S_share_source(&sources, gs_xasprintf("%s (%s)",
					cd->offer->memory_claim.source,
					gs_claim_when(&cd->offer->memory_claim, TR("claim.undated"), w1, sizeof(w1))), 0, i);
			if (cd->plan)
				src_of[2 * i + 1] = S_share_source(&sources, gs_xasprintf("%s (%s)",
					cd->plan->claim.source,
					gs_claim_when(&cd->plan->claim, TR("claim.undated"), w1, sizeof(w1))), 1, i);
			if (cd->offer->notes) {
				char *masked = S_offer_note_masked(c, cd->offer);
				note_of[i] = masked
					? S_share_shown(&notes, masked, gs_xstrdup(cd->offer->notes), 0, i)
					: S_share(&notes, gs_xstrdup(cd->offer->notes), 0, i);
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
		vtext[q][0] = gs_xasprintf("%s %s", gs_sheet_verdict_symbol((gs_verdict_kind)q),
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
			hv.n1 = gs_fmt_int(a, c->in->s->kv_sequences, c->lang);
			hv.n2 = gs_fmt_int(b, c->in->s->kv_tokens_kept, c->lang);
			hroom = gs_sheet_words_expand(c, TR("col.headroom"), &hv);
		}
		ncols = 0;
		h[ncols++] = TR("col.offer");
		h[ncols++] = TR("col.capacity");
		for (q = 0; q < GS_REQ_COUNT; q++)
			if (!same[q])
				h[ncols++] = TR(rk[q]);
		h[ncols++] = TR("col.price");
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
		gs_offer_memory_label(cd->offer, w_missing, mem, sizeof(mem));
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
				if (k < S_FEW_OFFERS)
					pos[k++] = i;
			}
			/* reference cards (no provider) share rows among themselves */
			if (cd->offer->provider)
				gs_doc_textf(cell, "%s · ", cd->offer->provider);
			gs_doc_textf(cell, "%llu x %s · %s%s%s · ",
				     (unsigned long long)cd->offer->cards, cd->offer->gpu_model, mem,
				     *mem_words ? " " : "", mem_words);
			gs_doc_textf(cell, "%zu %s (", nof, TR("cand.offers"));
			S_offer_list(c, cell, pos, k);
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
			gs_sheet_words_cell_owned(r, gs_xasprintf("%s (%s, %s%s)", gs_fmt_gib(gb, cd->capacity.bytes, c->lang),
						 gs_sheet_words_qprov(c, cd->capacity),
						 TR(cd->cap_source == GS_CAP_OBSERVED ? "cap.observed"
						    : cd->cap_source == GS_CAP_DECLARED ? "cap.declared"
						    : cd->offer->mib_text ? "cap.provider_mib" : "cap.nominal"),
						 cd->cap_source != GS_CAP_OBSERVED &&
						 cd->offer->memory_origin == GS_MEMORY_FROM_VENDOR
						 ? TR("cap.from_vendor_table") : ""));
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
					gs_sheet_words_anchor(c->doc, cell, "reasons-", gs_req_id((gs_req)q), gs_doc_cell_link);
			}
		}
		if (nof > 1) {
			cell = gs_doc_cell(r);
			S_range_text(c, cell, &rw, g);
		} else if (cd->plan) {
			S_cost_cell(c, r, cd, &unstated);
		} else if (cd->on_demand.plan || cd->interruptible.plan) {
			cell = gs_doc_cell(r);
			S_price_text(c, cell, cd);
		} else {
			gs_doc_cell_text(r, w_missing);
		}
		if (any_room) {
			cell = gs_doc_cell(r);
			S_headroom_text(c, cell, cd);
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
	if (unstated) {
		p = gs_doc_para(c->root);
		gs_doc_textf(p, "† %s", TR("cand.billing_mark"));
	}
	S_compact_table(c, rs, rep, vtext);
	for (q = 0; q < 4; q++) {
		free(vtext[q][0]);
		free(vtext[q][1]);
	}

	S_reasons(c, rs, &sources, rep, rnext);
	free(rep);
	free(rnext);
	if (rs == &own)
		gs_sheet_reasonset_release(&own);
	S_shared_list(c, &sources, "cand.sources", "sources", "source", 1);
	S_shared_list(c, &notes, "cand.notes", "catalog-notes", "note", 0);
	S_shared_release(&sources);
	S_shared_release(&notes);
	S_rows_release(&rw);
	free(src_of);
	free(note_of);
	free(nums);
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
 * The pre-selection: the offers without exclusion, grouped by the
 * requirements they still have to confirm, a group per distinct set in
 * order of its first offer in the table, its offers in the table's order.
 * Fifty offers often share two or three sets: each set is written once.
 * (Without a retained offer, an offer not excluded has one at least.)
 */
static void S_preselection(S_ctx *c)
{
	const gs_decision *d = c->in->d;
	const char *const *rk = gs_sheet_words_req_keys;
	unsigned char done[1u << GS_REQ_COUNT] = { 0 };
	cmark_node *list = gs_doc_list(c->root, 0), *p;
	size_t i, j;
	int q, k;

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
			if (cj->excluded || cj->cls == GS_CLASS_REFERENCE || S_to_confirm_set(cj) != set)
				continue;
			if (k++)
				gs_doc_text(p, ", ");
			gs_doc_code(p, cj->offer->id);
		}
		gs_doc_text(p, ".");
	}
}

static void S_decision(S_ctx *c)
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
					     gs_fmt_money(m, cd->cost, c->lang), cd->plan->currency);
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

static void S_invalidate(S_ctx *c)
{
	const gs_workload *w = c->in->w;
	cmark_node *list, *p;
	size_t i;
	int has_warm = 0, has_cold = 0;

	gs_doc_heading(c->root, 2, TR("sec.invalidate"));
	list = gs_doc_list(c->root, 0);
	p = gs_doc_item(list);
	gs_doc_text(p, TR("inval.longer_input"));
	if (w->inputs[2].ndims) {
		size_t k;
		char a[GS_FMT_MAX];
		gs_doc_text(p, " (");
		for (k = 0; k < w->inputs[2].ndims; k++)
			gs_doc_textf(p, "%s%s = %s", k ? ", " : "", w->inputs[2].dims[k].name,
				     gs_fmt_int(a, w->inputs[2].dims[k].value, c->lang));
		gs_doc_text(p, ")");
	}
	if (w->has_sliding_window || w->cache == GS_CACHE_SLIDING)
		gs_doc_text(gs_doc_item(list), TR("inval.window"));
	gs_doc_text(gs_doc_item(list), TR("inval.evaluation"));
	gs_doc_text(gs_doc_item(list), TR("inval.library"));
	for (i = 0; i < c->in->nev; i++) {
		size_t k;
		for (k = 0; k < c->in->ev[i].m->nphases; k++) {
			if (c->in->ev[i].m->phases[k].warm)
				has_warm = 1;
			else if (strcmp(c->in->ev[i].m->phases[k].name, "cold_forward") == 0)
				has_cold = 1;
		}
	}
	if (!c->in->nev)
		gs_doc_text(gs_doc_item(list), TR("inval.no_measurement"));
	else if (!has_cold || !has_warm)
		gs_doc_text(gs_doc_item(list), TR("inval.unmeasured_pass"));
	if (w->task != GS_TASK_INFERENCE)
		gs_doc_text(gs_doc_item(list), TR("inval.training_phases"));
	if (c->in->nev)
		gs_doc_text(gs_doc_item(list), TR("inval.instrumentation"));
	if (c->in->d->synthetic)
		gs_doc_text(gs_doc_item(list), TR("inval.synthetic"));
}

static void S_evidence_links(S_ctx *c)
{
	cmark_node *list, *p;
	size_t i;

	gs_doc_heading(c->root, 2, TR("sec.evidence"));
	if (!c->in->nev) {
		gs_doc_text(gs_doc_para(c->root), TR("meas.none"));
		return;
	}
	list = gs_doc_list(c->root, 0);
	for (i = 0; i < c->in->nev; i++) {
		p = gs_doc_item(list);
		gs_doc_link(p, c->in->ev_links[i], c->in->ev[i].ref->file);
		if (c->in->ev[i].ref->covers)
			gs_doc_textf(p, " — %s", c->in->ev[i].ref->covers);
		if (c->in->ev[i].m->synthetic)
			gs_doc_textf(p, " (%s)", TR("synthetic.short"));
	}
}

int gs_sheet_build(const gs_sheet_input *in, gs_sheet *out)
{
	S_ctx ctx, *c = &ctx;
	cmark_node *p;
	char *title;

	memset(out, 0, sizeof(*out));
	if (gs_doc_init(&out->doc))
		return -1;
	ctx.in = in;
	ctx.t = in->t;
	ctx.lang = in->t->lang;
	ctx.doc = &out->doc;
	ctx.root = out->doc.root;
	ctx.out = out;

	title = gs_xasprintf("%s: %s", TR("sheet.title"), in->w->title);
	gs_doc_heading(c->root, 1, title);
	free(title);
	S_warning_synthetic(c);
	p = gs_doc_para(c->root);
	gs_doc_text(p, TR("sheet.legend"));
	S_decision_summary(c);
	S_summary_card(c);
	S_identity(c);
	S_sizing(c);
	S_budget_chart(c);
	S_measurements(c);
	S_candidates(c);
	S_decision(c);
	S_invalidate(c);
	S_evidence_links(c);
	if (in->w->notes_md) {
		gs_doc_heading(c->root, 2, TR("sec.notes"));
		gs_doc_user_markdown(c->root, in->w->notes_md);
	}
	p = gs_doc_para(c->root);
	gs_doc_textf(p, "%s gpusheet %s; %s ", TR("sheet.generated"), GS_VERSION, TR("sheet.catalog"));
	gs_doc_code(p, in->catalog_name);
	if (in->date)
		gs_doc_textf(p, "; %s %s", TR("sheet.date"), in->date);
	gs_doc_text(p, ".");
	return 0;
}

/* Do two verdicts give the same sentence? gs_sheet_words_reason reads these fields only. */
static int S_same_text(const gs_verdict *a, const gs_verdict *b)
{
	return gs_sheet_words_same_str(a->why, b->why) && gs_sheet_words_same_qty(a->a, b->a) && gs_sheet_words_same_qty(a->b, b->b) &&
	       a->has_margin == b->has_margin && (!a->has_margin || a->margin == b->margin) &&
	       a->has_money == b->has_money &&
	       (!a->has_money || (a->cost == b->cost && a->budget == b->budget)) &&
	       gs_sheet_words_same_str(a->s1, b->s1) && gs_sheet_words_same_str(a->s2, b->s2) &&
	       gs_sheet_words_same_str(a->note, b->note) && gs_sheet_words_same_str(a->n1, b->n1) &&
	       gs_sheet_words_same_str(a->n2, b->n2) && gs_sheet_words_same_str(a->n3, b->n3) &&
	       gs_sheet_words_same_str(a->orientation, b->orientation);
}

/*
 * Most offers of a sheet give the same sentence for a requirement (all of
 * them for software, calendar, quality, host; one per GPU model for
 * memory): a sentence already made for the same inputs is copied instead
 * of made again, looking among the first S_SAME_MAX distinct ones of the
 * requirement (the scan stays short whatever the number of offers).
 */
#define S_SAME_MAX 64

char **gs_sheet_reasons(const gs_strings *t, const gs_decision *d)
{
	char **r = gs_xcalloc(d->ncands * GS_REQ_COUNT + 1, sizeof(*r));
	size_t seen[GS_REQ_COUNT][S_SAME_MAX], nseen[GS_REQ_COUNT] = { 0 };
	size_t i, k;
	int q;

	for (i = 0; i < d->ncands; i++)
		for (q = 0; q < GS_REQ_COUNT; q++) {
			const gs_verdict *v = &d->cands[i].v[q];
			char **slot = &r[i * GS_REQ_COUNT + (size_t)q];

			for (k = 0; k < nseen[q]; k++)
				if (S_same_text(&d->cands[seen[q][k]].v[q], v)) {
					*slot = gs_xstrdup(r[seen[q][k] * GS_REQ_COUNT + (size_t)q]);
					break;
				}
			if (*slot)
				continue;
			*slot = gs_sheet_reason_text(t, v);
			if (nseen[q] < S_SAME_MAX)
				seen[q][nseen[q]++] = i;
		}
	return r;
}

void gs_sheet_reasons_free(char **r, size_t ncands)
{
	size_t i;

	if (!r)
		return;
	for (i = 0; i < ncands * GS_REQ_COUNT; i++)
		free(r[i]);
	free(r);
}

char *gs_sheet_reason_of(const gs_sheet_input *in, size_t c, int q)
{
	if (in->reasons)
		return gs_xstrdup(in->reasons[c * GS_REQ_COUNT + (size_t)q]);
	return gs_sheet_reason_text(in->t, &in->d->cands[c].v[q]);
}

/* Do two verdicts of one requirement say the same thing, in every field
 * the sheet and the decision JSON write? (The texts are compared apart.) */
static int S_same_verdict(const gs_verdict *a, const gs_verdict *b)
{
	return a->kind == b->kind && gs_sheet_words_same_str(a->why, b->why) &&
	       (a->kind != GS_V_EXCLUDE || a->basis == b->basis) &&
	       gs_sheet_words_same_str(a->evidence, b->evidence) &&
	       gs_sheet_words_same_str(a->evidence_date, b->evidence_date) &&
	       gs_sheet_words_same_str(a->missing, b->missing) && gs_sheet_words_same_str(a->note, b->note) &&
	       gs_sheet_words_same_str(a->orientation, b->orientation) &&
	       !a->synthetic == !b->synthetic && !a->lower_bound == !b->lower_bound;
}

void gs_sheet_reasonset_build(const gs_sheet_input *in, gs_sheet_reasonset *rs)
{
	const gs_decision *d = in->d;
	/* the reasons by hash of their text and requirement (open addressing:
	 * index + 1, 0 empty): every price its own budget reason must not make
	 * the lookup quadratic in the offers */
	size_t nslot = 16, *slot;
	size_t i, k, acap = 0;
	int q;

	while (nslot < 2 * d->ncands * GS_REQ_COUNT)
		nslot *= 2;
	slot = gs_xcalloc(nslot, sizeof(*slot));

	memset(rs, 0, sizeof(*rs));
	rs->borrowed = in->reasons != NULL;
	rs->of = gs_xmalloc((d->ncands * GS_REQ_COUNT + 1) * sizeof(*rs->of));
	for (i = 0; i < d->ncands; i++) {
		size_t c = d->order[i];
		for (q = 0; q < GS_REQ_COUNT; q++) {
			const gs_verdict *v = &d->cands[c].v[q];
			/* borrowed from in->reasons when there, else made */
			char *text = in->reasons ? in->reasons[c * GS_REQ_COUNT + (size_t)q]
					     : gs_sheet_reason_of(in, c, q);
			uint64_t h = gs_sheet_words_hash(text);
			gs_sheet_reason *r = NULL;

			for (k = (size_t)(h ^ ((uint64_t)q * 0x9e3779b97f4a7c15ULL)) & (nslot - 1); slot[k];
			     k = (k + 1) & (nslot - 1)) {
				gs_sheet_reason *o = &rs->r[slot[k] - 1];
				if (o->req == (gs_req)q && o->hash == h && S_same_verdict(o->v, v) &&
				    strcmp(o->text, text) == 0) {
					r = o;
					break;
				}
			}
			if (r) {
				if (!in->reasons)
					free(text);
			} else {
				if (rs->n == acap) {
					acap = acap ? acap * 2 : 16;
					rs->r = gs_xrealloc(rs->r, acap * sizeof(*rs->r));
				}
				slot[k] = rs->n + 1;
				r = &rs->r[rs->n++];
				r->req = (gs_req)q;
				r->v = v;
				r->text = text;
				r->hash = h;
				r->npos = 0;
				r->pos = NULL;
			}
			gs_sheet_words_pos_push(&r->pos, &r->npos, i);
			rs->of[c * GS_REQ_COUNT + (size_t)q] = (size_t)(r - rs->r);
		}
	}
	free(slot);
}

void gs_sheet_reasonset_release(gs_sheet_reasonset *rs)
{
	size_t i;

	for (i = 0; i < rs->n; i++) {
		if (!rs->borrowed)
			free(rs->r[i].text);
		free(rs->r[i].pos);
	}
	free(rs->r);
	free(rs->of);
	memset(rs, 0, sizeof(*rs));
}

void gs_sheet_release(gs_sheet *s)
{
	size_t i;

	gs_doc_release(&s->doc);
	for (i = 0; i < s->ncharts; i++) {
		free(s->charts[i].name);
		free(s->charts[i].title);
		gs_chart_out_release(&s->charts[i].out);
	}
	free(s->charts);
	memset(s, 0, sizeof(*s));
}
