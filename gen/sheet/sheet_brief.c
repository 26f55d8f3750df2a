/*
 * sheet_brief: the sheet's answer for a terminal and for scripts, made from
 * the same nodes as the sheet's first screen (gs_sheet_answer_decision_summary
 * on a scratch document): the answer sentence, then one line per class (the
 * best offer of each, at most five) and one line of counts, at most six
 * lines under the sentence; or the decision's summary as JSON.
 */
#define _DEFAULT_SOURCE
#include "sheet_int.h"

#include "buf.h"
#include "jsonout.h"

/* The text of an inline tree: text and code as written, emphasis and
 * links by their text; a soft or hard break as one space. */
static void S_inline(gs_buf *b, cmark_node *n)
{
	cmark_node *k;

	for (k = cmark_node_first_child(n); k; k = cmark_node_next(k)) {
		switch (cmark_node_get_type(k)) {
		case CMARK_NODE_TEXT:
		case CMARK_NODE_CODE:
			gs_buf_puts(b, cmark_node_get_literal(k));
			break;
		case CMARK_NODE_SOFTBREAK:
		case CMARK_NODE_LINEBREAK:
			gs_buf_putc(b, ' ');
			break;
		default:
			S_inline(b, k);
			break;
		}
	}
}

static char *S_inline_text(cmark_node *n)
{
	gs_buf b;

	gs_buf_init(&b, 256);
	S_inline(&b, n);
	return gs_buf_detach(&b, NULL);
}

/* The scratch document of the answer: its sentence, its class table (or
 * NULL) and its line of counts (or NULL), in the tree c->root. */
typedef struct {
	gs_doc doc;
	cmark_node *sentence, *table, *counts;
	S_ctx c;
	gs_sheet out;
} S_brief;

static int S_brief_build(const gs_sheet_input *in, S_brief *b)
{
	cmark_node *n;

	memset(b, 0, sizeof(*b));
	if (gs_doc_init(&b->doc))
		return -1;
	b->c.in = in;
	b->c.t = in->t;
	b->c.lang = in->t->lang;
	b->c.doc = &b->doc;
	b->c.root = b->doc.root;
	b->c.out = &b->out;
	gs_sheet_answer_decision_summary(&b->c);
	/* the sentence, the table, the counts, then the levers (not kept) */
	n = cmark_node_first_child(b->doc.root);
	b->sentence = n;
	for (n = n ? cmark_node_next(n) : NULL; n; n = cmark_node_next(n)) {
		if (cmark_node_get_type(n) == CMARK_NODE_PARAGRAPH) {
			b->counts = n;
			break;
		}
		b->table = n;
	}
	return 0;
}

static void S_brief_release(S_brief *b)
{
	gs_doc_release(&b->doc);
}

/* "  Fits the whole need (12): `id` 2 x H100 — 3.99 USD/h on-demand — still
 * needs: Quality": one body row of the class table as one line. */
static void S_row_line(gs_buf *o, cmark_node *row, const char *needs, const char *lacks)
{
	cmark_node *cell = cmark_node_first_child(row);
	char *t[5] = { NULL };
	int k, lack;

	for (k = 0; k < 5 && cell; k++, cell = cmark_node_next(cell))
		t[k] = S_inline_text(cell);
	/* (the offers of unknown capacity say what they lack, not what they need) */
	lack = t[4] && strcmp(t[4], lacks) == 0;
	gs_buf_printf(o, "  %s (%s): %s — %s — %s%s%s\n", t[0] ? t[0] : "", t[1] ? t[1] : "",
		      t[2] ? t[2] : "", t[3] ? t[3] : "", lack ? "" : needs, lack ? "" : ": ",
		      t[4] ? t[4] : "");
	for (k = 0; k < 5; k++)
		free(t[k]);
}

char *gs_sheet_brief_text(const gs_sheet_input *in)
{
	S_brief b;
	gs_buf o;
	char *s;

	if (S_brief_build(in, &b))
		return NULL;
	gs_buf_init(&o, 1024);
	s = b.sentence ? S_inline_text(b.sentence) : gs_xstrdup("");
	gs_buf_printf(&o, "%s\n", s);
	free(s);
	if (b.table) {
		cmark_node *row = cmark_node_first_child(b.table);
		/* the header row is not a line: each line names its class */
		for (row = row ? cmark_node_next(row) : NULL; row; row = cmark_node_next(row))
			S_row_line(&o, row, gs_tr(in->t, "answer.col_needs"),
				   gs_tr(in->t, "answer.unknown_lacks"));
	}
	if (b.counts) {
		s = S_inline_text(b.counts);
		gs_buf_printf(&o, "  %s\n", s);
		free(s);
	}
	S_brief_release(&b);
	return gs_buf_detach(&o, NULL);
}

/* {"currency", "micro_per_hour", "provenance"} of a rate (the cheapest
 * price per hour of its kind, calculated from the catalog's claims), or null. */
static void S_rate(gs_jw *w, const gs_rate *r)
{
	if (!r->plan) {
		gs_jw_null(w);
		return;
	}
	gs_jw_object(w);
	gs_jw_key(w, "currency");
	gs_jw_str(w, r->plan->currency);
	gs_jw_key(w, "micro_per_hour");
	gs_jw_i64(w, r->micro_per_hour);
	gs_jw_key(w, "provenance");
	gs_jw_str(w, "calculated");
	gs_jw_end(w);
}

/* A quantity under key, as the decision JSON writes one (gs_jw_qty). */
static void S_qty(gs_jw *w, const char *key, gs_qty q)
{
	gs_jw_key(w, key);
	gs_jw_qty(w, q);
}

/* One offer as the summary names it: the best of a class or the one to take. */
static void S_offer(gs_jw *w, const gs_candidate *cd)
{
	gs_qty mq;

	gs_jw_object(w);
	S_qty(w, "capacity_per_card", cd->capacity);
	gs_jw_key(w, "cards");
	gs_jw_u64(w, cd->offer->cards);
	gs_jw_key(w, "class");
	gs_jw_str(w, gs_verdict_class_id(cd->cls));
	gs_jw_key(w, "gpu");
	gs_jw_str(w, cd->offer->gpu_model);
	gs_jw_key(w, "id");
	gs_jw_str(w, cd->offer->id);
	gs_jw_key(w, "interruptible");
	S_rate(w, &cd->interruptible);
	/* the margin: capacity less the need, its provenance the weaker of theirs */
	gs_jw_key(w, "margin");
	mq = gs_verdict_margin_prov(cd->need, cd->capacity);
	if (cd->has_margin && mq.present) {
		gs_jw_object(w);
		gs_jw_key(w, "bytes");
		gs_jw_i64(w, (int64_t)cd->margin);
		gs_jw_key(w, "provenance");
		gs_jw_str(w, gs_qty_prov_id(mq.prov));
		if (mq.synthetic) {
			gs_jw_key(w, "synthetic");
			gs_jw_bool(w, 1);
		}
		gs_jw_end(w);
	} else {
		gs_jw_null(w);
	}
	S_qty(w, cd->cls == GS_CLASS_LOWER_FITS ? "need_lower_bound_per_card" : "need_per_card",
	      cd->cls == GS_CLASS_LOWER_FITS ? cd->lower : cd->need);
	gs_jw_key(w, "on_demand");
	S_rate(w, &cd->on_demand);
	gs_jw_key(w, "provider");
	gs_jw_str(w, cd->offer->provider);
	gs_jw_key(w, "to_confirm");
	gs_jw_array(w);
	{
		int q;
		for (q = 0; q < GS_REQ_COUNT; q++)
			if (cd->v[q].kind == GS_V_TO_CONFIRM)
				gs_jw_str(w, gs_verdict_req_id((gs_req)q));
	}
	gs_jw_end(w);
	gs_jw_end(w);
}

char *gs_sheet_brief_json(const gs_sheet_input *in, const char *const *paths, size_t npaths)
{
	const gs_decision *d = in->d;
	const gs_candidate *best = gs_verdict_best(d);
	S_brief b;
	gs_jw w;
	char *s;
	size_t i;
	int k;

	if (S_brief_build(in, &b))
		return NULL;
	gs_jw_init(&w);
	gs_jw_object(&w);
	s = b.sentence ? S_inline_text(b.sentence) : gs_xstrdup("");
	gs_jw_key(&w, "answer");
	gs_jw_str(&w, s);
	free(s);
	S_brief_release(&b);
	/* the best offer of each class, in the order of the recommendation */
	gs_jw_key(&w, "classes");
	gs_jw_array(&w);
	for (k = GS_CLASS_RETAINED; k < GS_CLASS_COUNT; k++) {
		const gs_candidate *cd = gs_verdict_first_of(d, (gs_class)k);
		gs_jw_object(&w);
		gs_jw_key(&w, "best");
		if (cd && k <= GS_CLASS_UNKNOWN)
			S_offer(&w, cd);
		else
			gs_jw_null(&w);
		gs_jw_key(&w, "class");
		gs_jw_str(&w, gs_verdict_class_id((gs_class)k));
		gs_jw_key(&w, "offers");
		gs_jw_u64(&w, d->nclass[k]);
		gs_jw_end(&w);
	}
	gs_jw_end(&w);
	gs_jw_key(&w, "demonstration");
	gs_jw_bool(&w, d->demonstration);
	gs_jw_key(&w, "files");
	gs_jw_array(&w);
	for (i = 0; i < npaths; i++)
		gs_jw_str(&w, paths[i]);
	gs_jw_end(&w);
	gs_jw_key(&w, "kind");
	gs_jw_str(&w, d->nretained ? "retained" : d->npreselected ? "preselection" : "none");
	gs_jw_key(&w, "offer_to_take");
	if (best)
		S_offer(&w, best);
	else
		gs_jw_null(&w);
	gs_jw_key(&w, "schema");
	gs_jw_str(&w, "gpusheet-brief");
	gs_jw_key(&w, "schema_version");
	gs_jw_i64(&w, 1);
	gs_jw_key(&w, "synthetic");
	gs_jw_bool(&w, d->synthetic);
	gs_jw_key(&w, "workload");
	gs_jw_str(&w, in->w->id);
	gs_jw_end(&w);
	return gs_jw_finish(&w);
}
