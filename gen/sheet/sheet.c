/*
 * sheet: the decision sheet as one document tree plus its charts: the
 * sections in their order (gs_sheet_build); each is made by a sheet_*.c,
 * their shared context in sheet_int.h.
 */
#define _DEFAULT_SOURCE
#include "sheet_int.h"

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
				     gs_qty_fmt_int(a, w->inputs[2].dims[k].value, c->lang));
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
	size_t i;

	memset(out, 0, sizeof(*out));
	memset(&ctx, 0, sizeof(ctx));
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
	/* The first screen answers once: the sentence, then the class table;
	 * the synthetic warning (when there is one) and the legend after them,
	 * the summary card beside the budget chart. */
	gs_sheet_answer_decision_summary(c);
	gs_sheet_answer_warning_synthetic(c);
	p = gs_doc_para(c->root);
	gs_doc_text(p, TR("sheet.legend"));
	gs_sheet_memory_identity(c);
	gs_sheet_memory_sizing(c);
	gs_sheet_memory_runtime(c);
	gs_sheet_answer_summary_card(c);
	gs_sheet_memory_budget_chart(c);
	gs_sheet_measure_measurements(c);
	gs_sheet_offers_candidates(c);
	gs_sheet_answer_decision(c);
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
	free(ctx.row_n);
	free(ctx.in_lot);
	if (ctx.lot_frag)
		for (i = 0; i < in->d->ncands; i++)
			free(ctx.lot_frag[i]);
	free(ctx.lot_frag);
	free(ctx.lot_of);
	return 0;
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
