/*
 * sheet_speed: the candidates' speed columns (the decode and prefill
 * bounds, the cost of a million output tokens at the bound) and the
 * paragraph that says how they are calculated.
 */
#include "sheet_int.h"

int gs_sheet_speed_any(const gs_decision *d)
{
	size_t i;

	for (i = 0; i < d->ncands; i++)
		if (d->cands[i].speed.known)
			return 1;
	return 0;
}

/* The lowest and highest of one kind over a row's offers: 0 when none has it. */
static int S_range(const gs_decision *d, const size_t *next, size_t first, int interruptible,
		   int64_t *lo, int64_t *hi, const char **cur)
{
	size_t i;
	int any = 0;

	for (i = first; i != SIZE_MAX; i = next[i]) {
		const gs_candidate *cd = &d->cands[d->order[i]];
		int has = interruptible ? cd->has_mtok_interruptible : cd->has_mtok_on_demand;
		int64_t v = interruptible ? cd->mtok_interruptible : cd->mtok_on_demand;
		if (!has)
			continue;
		if (!any || v < *lo)
			*lo = v;
		if (!any || v > *hi)
			*hi = v;
		*cur = interruptible ? cd->interruptible.plan->currency : cd->on_demand.plan->currency;
		any = 1;
	}
	return any;
}

/* "observed X tokens/s is above the calculated bound of B (ratio R): ..." */
static void S_above(S_ctx *c, cmark_node *cell, const char *text, uint64_t bound, uint64_t ratio)
{
	gs_verdict hv;
	char *s;

	memset(&hv, 0, sizeof(hv));
	hv.why = "why.speed.observed_above";   /* {m2} as a ratio */
	hv.s2 = text;
	hv.has_milli = 1;
	hv.m1 = bound;
	hv.m2 = ratio;
	s = gs_sheet_words_expand(c, TR("speed.above"), &hv);
	gs_doc_textf(cell, " (%s)", s);
	free(s);
}

void gs_sheet_speed_bound_cell(S_ctx *c, cmark_node *row, const gs_candidate *cd)
{
	const gs_speed *sp = &cd->speed;
	char a[GS_FMT_MAX], b[GS_FMT_MAX];
	cmark_node *cell;

	if (!sp->known) {
		gs_doc_cell_text(row, TR("word.missing"));
		return;
	}
	cell = gs_doc_cell(row);
	gs_doc_textf(cell, "≤ %s / ≤ %s", gs_speed_fmt(a, sp->decode_seq_milli, c->lang),
		     gs_speed_fmt(b, sp->decode_total_milli, c->lang));
	if (sp->has_prefill)
		gs_doc_textf(cell, "; ≤ %s", gs_speed_fmt(a, sp->prefill_milli, c->lang));
	/* assumed: the bound x the workload's efficiency and tokens a step */
	if (sp->has_expected)
		gs_doc_textf(cell, "; ≈ %s / ≈ %s %s", gs_speed_fmt_down(a, sp->expected_seq_milli, c->lang),
			     gs_speed_fmt_down(b, sp->expected_total_milli, c->lang), TR("speed.expected"));
	/* an ambiguous name: the bound of the fastest variant it allows */
	if (sp->variant_of)
		gs_doc_textf(cell, " (%s: %s)", TR("speed.fastest_variant"), sp->gpu->model);
	/* the user's own run on this GPU model, beside the bound */
	if (sp->has_obs_seq || sp->has_obs_total)
		gs_doc_textf(cell, "; %s %s / %s", TR("speed.observed"),
			     sp->has_obs_seq ? sp->obs_seq_text : TR("word.missing"),
			     sp->has_obs_total ? sp->obs_total_text : TR("word.missing"));
	/* never above the bound: say so beside the figure */
	if (sp->has_obs_seq && sp->obs_seq_above)
		S_above(c, cell, sp->obs_seq_text, sp->obs_seq_bound_milli, sp->obs_seq_ratio_milli);
	if (sp->has_obs_total && sp->obs_total_above)
		S_above(c, cell, sp->obs_total_text, sp->obs_total_bound_milli, sp->obs_total_ratio_milli);
}

void gs_sheet_speed_mtok_cell(S_ctx *c, cmark_node *row, const size_t *next, size_t first)
{
	const gs_decision *d = c->in->d;
	char a[GS_FMT_MAX], b[GS_FMT_MAX];
	cmark_node *cell;
	int k, any = 0;

	if (!d->cands[d->order[first]].speed.known) {
		gs_doc_cell_text(row, TR("word.missing"));
		return;
	}
	cell = gs_doc_cell(row);
	for (k = 0; k < 2; k++) {
		int64_t lo = 0, hi = 0;
		const char *cur = NULL;
		if (!S_range(d, next, first, k, &lo, &hi, &cur))
			continue;
		gs_doc_textf(cell, "%s≥ %s", any ? "; " : "", gs_qty_fmt_micro_down(a, lo, c->lang));
		if (hi != lo)
			gs_doc_textf(cell, "–%s", gs_qty_fmt_micro_down(b, hi, c->lang));
		gs_doc_textf(cell, " %s%s%s", cur, k ? ", " : "", k ? TR("speed.interruptible") : "");
		any = 1;
	}
	if (!any)
		gs_doc_text(cell, TR("word.missing"));
}

/* The workload's speed_assumptions in words: speculative decoding (a
 * certainty on the bound) and the expected figures (assumed). */
static void S_para_assumptions(S_ctx *c)
{
	const gs_workload *w = c->in->w;
	gs_verdict hv;
	char a[GS_FMT_MAX], b[GS_FMT_MAX], k[GS_FMT_MAX];
	char *text;

	memset(&hv, 0, sizeof(hv));
	hv.n1 = gs_qty_fmt_milli(a, w->has_decode_efficiency ? w->decode_efficiency_milli : 1000u, c->lang);
	hv.n2 = gs_qty_fmt_milli(b, w->has_spec_tokens_per_step ? w->spec_tokens_per_step_milli : 1000u,
			   c->lang);
	hv.n3 = gs_qty_fmt_int(k, w->spec_draft_tokens, c->lang);
	hv.s1 = w->speed_assumptions_source;
	if (w->spec_draft_tokens) {
		text = gs_sheet_words_expand(c, TR("speed.para_spec"), &hv);
		gs_doc_text(gs_doc_para(c->root), text);
		free(text);
	}
	if (w->has_decode_efficiency || w->has_spec_tokens_per_step) {
		text = gs_sheet_words_expand(c, TR("speed.para_expected"), &hv);
		gs_doc_text(gs_doc_para(c->root), text);
		free(text);
	}
}

void gs_sheet_speed_para(S_ctx *c)
{
	const gs_workload *w = c->in->w;
	const gs_sizing *s = c->in->s;
	gs_verdict hv;
	char a[GS_FMT_MAX], b[GS_FMT_MAX], n[GS_FMT_MAX];
	uint64_t wr;
	char *text;
	cmark_node *p;
	size_t i;

	if (!gs_sheet_speed_any(c->in->d))
		return;
	memset(&hv, 0, sizeof(hv));
	wr = gs_speed_active_bytes(s->weights.bytes, w->parameters,
				   w->has_active_parameters ? w->active_parameters : 0);
	hv.n1 = gs_qty_fmt_gb(a, wr, c->lang);
	hv.n2 = s->kv_per_sequence.present ? gs_qty_fmt_gb(b, s->kv_per_sequence.bytes, c->lang)
					   : TR("word.missing");
	hv.n3 = gs_qty_fmt_int(n, w->has_active_parameters ? w->active_parameters : w->parameters, c->lang);
	hv.s1 = w->compute_format ? w->compute_format : w->storage_format;
	text = gs_sheet_words_expand(c, TR("speed.para"), &hv);
	p = gs_doc_para(c->root);
	gs_doc_text(p, text);
	free(text);
	S_para_assumptions(c);
	for (i = 0; i < c->in->d->ncands; i++)
		if (c->in->d->cands[i].speed.has_obs_seq || c->in->d->cands[i].speed.has_obs_total) {
			gs_doc_text(gs_doc_para(c->root), TR("speed.para_observed"));
			break;
		}
	for (i = 0; i < c->in->d->ncands; i++)
		if (c->in->d->cands[i].speed.obs_seq_above || c->in->d->cands[i].speed.obs_total_above) {
			gs_doc_text(gs_doc_para(c->root), TR("speed.para_above"));
			break;
		}
}
