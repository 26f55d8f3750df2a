/* render: Markdown, HTML page and decision JSON from one sheet. */
#include "render.h"
#include "jsonout.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datadir.h"
#include "util.h"
#include "outfile.h"
#include "verdict.h"

void gs_str_append(char **buf, size_t *len, size_t *cap, const char *s)
{
	gs_mem_append(buf, len, cap, s, strlen(s));
	(*buf)[*len] = '\0';
}

void gs_html_escape_append(char **buf, size_t *len, size_t *cap, const char *s)
{
	char one[2] = { 0, 0 };

	for (; *s; s++) {
		switch (*s) {
		case '<': gs_str_append(buf, len, cap, "&lt;"); break;
		case '>': gs_str_append(buf, len, cap, "&gt;"); break;
		case '&': gs_str_append(buf, len, cap, "&amp;"); break;
		case '"': gs_str_append(buf, len, cap, "&quot;"); break;
		case '\'': gs_str_append(buf, len, cap, "&#39;"); break;
		default:
			one[0] = *s;
			gs_str_append(buf, len, cap, one);
		}
	}
}

int gs_templates_load(gs_templates *tp, char *err, size_t errlen)
{
	char p1[4096], p2[4096], p3[4096];

	memset(tp, 0, sizeof(*tp));
	if (!gs_datapath(p1, sizeof(p1), "templates/page.html") ||
	    !gs_datapath(p2, sizeof(p2), "templates/sheet.css") ||
	    !gs_datapath(p3, sizeof(p3), "templates/matrix.js")) {
		snprintf(err, errlen, "%s", gs_datadir_error() ? gs_datadir_error()
			 : "data folder path too long");
		return -1;
	}
	tp->page = gs_read_file(p1, NULL);
	tp->css = gs_read_file(p2, NULL);
	tp->script = gs_read_file(p3, NULL);
	if (!tp->page || !tp->css || !tp->script) {
		snprintf(err, errlen, "cannot read %s", !tp->page ? p1 : !tp->css ? p2 : p3);
		gs_templates_release(tp);
		return -1;
	}
	return 0;
}

void gs_templates_release(gs_templates *tp)
{
	free(tp->page);
	free(tp->css);
	free(tp->script);
	memset(tp, 0, sizeof(*tp));
}

char *gs_render_markdown(const gs_doc *doc)
{
	return gs_doc_render_markdown(doc);
}

char *gs_render_html(const gs_templates *tp, const gs_doc *doc, gs_lang lang,
		     const char *title, const char *nav_html)
{
	return gs_render_html_tail(tp, doc, lang, title, nav_html, NULL, NULL);
}

char *gs_render_html_tail(const gs_templates *tp, const gs_doc *doc, gs_lang lang,
			  const char *title, const char *nav_html, const char *tail_html,
			  const char *script_src)
{
	char *body = gs_doc_render_html(doc);
	char *out = NULL;
	size_t len = 0, cap = 0;
	const char *p = tp->page;

	/* {{lang}} {{title}} {{css}} {{nav}} {{body}}; one pass. */
	while (*p) {
		const char *open = strstr(p, "{{");
		const char *close = open ? strstr(open, "}}") : NULL;
		char key[16];
		size_t klen;

		if (!open || !close) {
			gs_str_append(&out, &len, &cap, p);
			break;
		}
		{
			size_t n = (size_t)(open - p);
			char *chunk = gs_xmalloc(n + 1);
			memcpy(chunk, p, n);
			chunk[n] = '\0';
			gs_str_append(&out, &len, &cap, chunk);
			free(chunk);
		}
		klen = (size_t)(close - open - 2);
		if (klen >= sizeof(key))
			klen = sizeof(key) - 1;
		memcpy(key, open + 2, klen);
		key[klen] = '\0';
		if (strcmp(key, "lang") == 0)
			gs_str_append(&out, &len, &cap, gs_lang_id(lang));
		else if (strcmp(key, "title") == 0)
			gs_html_escape_append(&out, &len, &cap, title);
		else if (strcmp(key, "css") == 0)
			gs_str_append(&out, &len, &cap, tp->css);
		else if (strcmp(key, "nav") == 0)
			gs_str_append(&out, &len, &cap, nav_html ? nav_html : "");
		else if (strcmp(key, "csp_script") == 0 && script_src)
			gs_str_append(&out, &len, &cap, " script-src 'self';");
		else if (strcmp(key, "script") == 0 && script_src) {
			gs_str_append(&out, &len, &cap, "\n<script src=\"");
			gs_html_escape_append(&out, &len, &cap, script_src);
			gs_str_append(&out, &len, &cap, "\" defer></script>");
		} else if (strcmp(key, "body") == 0) {
			gs_str_append(&out, &len, &cap, body);
			if (tail_html)
				gs_str_append(&out, &len, &cap, tail_html);
		}
		p = close + 2;
	}
	free(body);
	return out;
}

static json_t *S_qty(gs_qty q)
{
	json_t *o;

	if (!q.present)
		return json_null();
	o = json_pack("{s:o,s:s}", "bytes", gs_jo_u64(q.bytes), "provenance", gs_prov_id(q.prov));
	if (q.synthetic)
		json_object_set_new(o, "synthetic", json_true());
	return o;
}

static const char *S_basis_id(gs_basis b)
{
	switch (b) {
	case GS_BASIS_OBSERVED_FAILURE: return "observed_failure";
	case GS_BASIS_CALCULATED_CERTAINTY: return "calculated_certainty";
	case GS_BASIS_CATALOG: return "catalog_claim";
	case GS_BASIS_NONE: break;
	}
	return NULL;
}

static json_t *S_str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

static const char *S_status(const gs_candidate *c)
{
	return c->retained ? "retained" : c->excluded ? "excluded" : "preselected";
}

/* The files the weights were read from ("model": {"from": ...}), when any. */
static void S_weights_source(json_t *sizing, const gs_workload *w)
{
	if (!w->weights_source)
		return;
	json_object_set_new(sizing, "weights_source", json_pack("{s:s,s:s}",
		"files", w->weights_source,
		"read_from", w->weights_from_index ? "index metadata.total_size" : "checkpoint headers"));
}


char *gs_render_decision_json(const gs_sheet_input *in)
{
	const gs_decision *d = in->d;
	const gs_sizing *s = in->s;
	json_t *root = json_object(), *cands = json_array(), *ev = json_array();
	json_t *retained = json_array(), *pre = json_array(), *reasons = json_array();
	gs_sheet_reasonset rs;
	char *out;
	size_t i;
	int r;

	json_object_set_new(root, "schema", json_string("gpusheet-decision"));
	json_object_set_new(root, "schema_version", json_integer(2));
	json_object_set_new(root, "generator", json_string("gpusheet " GS_VERSION));
	json_object_set_new(root, "lang", json_string(gs_lang_id(in->t->lang)));
	json_object_set_new(root, "date", S_str_or_null(in->date));
	json_object_set_new(root, "catalog", json_string(in->catalog_name));
	json_object_set_new(root, "workload", json_pack("{s:s,s:s,s:s,s:s}",
		"id", in->w->id, "title", in->w->title, "model", in->w->model_name,
		"task", gs_task_id(in->w->task)));
	json_object_set_new(root, "synthetic_evidence", json_boolean(d->synthetic));
	json_object_set_new(root, "accept_synthetic", json_boolean(d->accept_synthetic));
	json_object_set_new(root, "demonstration", json_boolean(d->demonstration));
	json_object_set_new(root, "sizing", json_pack("{s:o,s:b,s:o,s:o,s:o,s:o,s:o}",
		"weights", S_qty(s->weights), "weights_theoretical", s->theoretical,
		"reserve", S_qty(s->reserve), "envelope", S_qty(s->envelope),
		"kv_cache", S_qty(s->kv), "training", S_qty(s->training),
		"need", S_qty(s->need)));
	S_weights_source(json_object_get(root, "sizing"), in->w);
	/* Each distinct reason once ("reasons"), each verdict with its index. */
	gs_sheet_reasonset_build(in, &rs);
	for (i = 0; i < rs.n; i++) {
		const gs_verdict *v = rs.r[i].v;
		/* one per distinct reason: set directly (json_pack parses its
		 * format each time), keys in sorted order (the serializer then
		 * has nothing to sort) */
		json_t *jv = json_object();
		json_object_set_new(jv, "evidence", S_str_or_null(v->evidence));
		json_object_set_new(jv, "evidence_date", S_str_or_null(v->evidence_date));
		json_object_set_new(jv, "exclusion",
			S_str_or_null(v->kind == GS_V_EXCLUDE ? S_basis_id(v->basis) : NULL));
		json_object_set_new(jv, "lower_bound", json_boolean(v->lower_bound));
		json_object_set_new(jv, "missing", S_str_or_null(v->missing));
		json_object_set_new(jv, "note", S_str_or_null(v->note));
		json_object_set_new(jv, "orientation", S_str_or_null(v->orientation));
		json_object_set_new(jv, "reason", json_string(v->why));
		json_object_set_new(jv, "requirement", json_string(gs_req_id(rs.r[i].req)));
		json_object_set_new(jv, "rests_on_synthetic",
			json_boolean(v->synthetic && v->kind != GS_V_TO_CONFIRM));
		json_object_set_new(jv, "text", json_string(rs.r[i].text));
		json_object_set_new(jv, "verdict", json_string(gs_verdict_id(v->kind)));
		json_array_append_new(reasons, jv);
	}
	for (i = 0; i < d->ncands; i++) {
		const gs_candidate *c = &d->cands[d->order[i]];
		json_t *reqs = json_object(), *jc;

		for (r = 0; r < GS_REQ_COUNT; r++) {
			json_t *jv = json_object();
			json_object_set_new(jv, "verdict", json_string(gs_verdict_id(c->v[r].kind)));
			json_object_set_new(jv, "why", json_integer(
				(json_int_t)rs.of[d->order[i] * GS_REQ_COUNT + (size_t)r]));
			json_object_set_new(reqs, gs_req_id((gs_req)r), jv);
		}
		jc = json_pack("{s:s,s:s,s:o,s:o,s:o,s:s,s:o,s:o,s:s,s:o,s:b}",
			"offer", c->offer->id, "gpu_model", c->offer->gpu_model,
			"cards", gs_jo_u64(c->offer->cards),
			"nominal_bytes", c->offer->memory_unknown ? json_null() : gs_jo_u64(c->offer->nominal_bytes),
			"capacity_per_card", S_qty(c->capacity),
			"capacity_source", c->cap_source == GS_CAP_OBSERVED ? "observed"
					   : c->cap_source == GS_CAP_DECLARED ? "declared" : "nominal",
			"need_per_card", S_qty(c->need),
			"margin_bytes", c->has_margin ? json_integer((json_int_t)c->margin) : json_null(),
			"status", S_status(c), "requirements", reqs,
			"rests_on_synthetic", c->synthetic);
		/* The margin's provenance: the weaker of the capacity and the need. */
		if (c->has_margin && c->need.present && c->capacity.present) {
			gs_qty mq = gs_qty_make(0, gs_prov_weakest(c->need.prov, c->capacity.prov));
			json_object_set_new(jc, "margin_provenance", json_string(gs_prov_id(mq.prov)));
			if (c->need.synthetic || c->capacity.synthetic)
				json_object_set_new(jc, "margin_synthetic", json_true());
		} else {
			json_object_set_new(jc, "margin_provenance", json_null());
		}
		json_object_set_new(jc, "total_cost", c->plan
			? json_pack("{s:o,s:s,s:o,s:o,s:s}", "hundredths", gs_jo_i64(c->cost),
				    "currency", c->plan->currency, "plan_hours", gs_jo_u64(c->plan->hours),
				    "plan_units", gs_jo_u64(c->plan_units), "provenance", "assumed")
			: json_null());
		json_array_append_new(cands, jc);
		if (c->retained)
			json_array_append_new(retained, json_string(c->offer->id));
		else if (!c->excluded)
			json_array_append_new(pre, json_string(c->offer->id));
	}
	json_object_set_new(root, "candidates", cands);
	json_object_set_new(root, "reasons", reasons);
	gs_sheet_reasonset_release(&rs);
	json_object_set_new(root, "decision", json_pack("{s:s,s:o,s:o,s:o}",
		"kind", d->nretained ? "retained" : d->npreselected ? "preselection" : "none",
		"choice", d->nretained ? json_string(d->cands[d->order[0]].offer->id) : json_null(),
		"retained", retained,
		"preselected", d->nretained ? (json_decref(pre), json_array()) : pre));
	for (i = 0; i < in->nev; i++)
		json_array_append_new(ev, json_pack("{s:s,s:s,s:b,s:o}",
			"file", in->ev[i].ref->file, "link", in->ev_links[i],
			"synthetic", in->ev[i].m->synthetic,
			"covers", S_str_or_null(in->ev[i].ref->covers)));
	json_object_set_new(root, "evidence", ev);
	out = gs_jo_dumps(root, JSON_SORT_KEYS | JSON_INDENT(2) | JSON_REAL_PRECISION(15));
	json_decref(root);
	return out;
}

/*
 * A user string cut to at most max bytes at a UTF-8 boundary, marked with
 * its full length when cut, so that the summary stays bounded. Caller frees.
 */
static char *S_cut(const gs_strings *t, const char *s, size_t max)
{
	size_t n = strlen(s), k = max;

	if (n <= max)
		return gs_xstrdup(s);
	while (k > 0 && ((unsigned char)s[k] & 0xC0) == 0x80)
		k--;
	return gs_xasprintf("%.*s\xe2\x80\xa6 [%s %zu B]", (int)k, s, gs_tr(t, "summary.cut"), n);
}

char *gs_render_summary(const gs_sheet_input *in, const char *sheet_link)
{
	const gs_decision *d = in->d;
	const gs_strings *t = in->t;
	gs_doc doc;
	cmark_node *p, *list;
	char *out;
	size_t i, shown = 0;
	int r;

	if (gs_doc_init(&doc))
		return NULL;
	{
		/* Bounded: every user string is cut, at most 50 offers are listed. */
		char *title = S_cut(t, in->w->title, GS_SUMMARY_MAX_STRING);
		gs_doc_heading(doc.root, 3, title);
		free(title);
	}
	if (d->synthetic) {
		p = gs_doc_para(gs_doc_quote(doc.root));
		gs_doc_strong(p, gs_tr(t, d->demonstration ? "demo.title" : "synthetic.title"));
		gs_doc_text(p, " ");
		gs_doc_text(p, gs_tr(t, d->demonstration ? "demo.sheet_body"
				     : d->accept_synthetic ? "synthetic.body_accepted" : "synthetic.body"));
	}
	p = gs_doc_para(doc.root);
	gs_doc_strong(p, gs_tr(t, d->demonstration ? "decision.label_demo" : "decision.label"));
	gs_doc_text(p, " ");
	gs_doc_text(p, gs_tr(t, d->nretained ? "decision.retained" : d->npreselected
			     ? "decision.preselection" : "decision.none"));
	list = gs_doc_list(doc.root, 0);
	/* Bounded: at most 50 offers listed, so the summary stays small. */
	for (i = 0; i < d->ncands && shown < 50; i++) {
		const gs_candidate *c = &d->cands[d->order[i]];
		int k = 0;
		if (c->excluded || (d->nretained && !c->retained))
			continue;
		p = gs_doc_item(list);
		gs_doc_code(p, c->offer->id);
		gs_doc_textf(p, " %s", gs_tr(t, c->retained ? "overall.retained" : "overall.preselected"));
		for (r = 0; r < GS_REQ_COUNT; r++)
			if (c->v[r].kind == GS_V_TO_CONFIRM) {
				gs_doc_textf(p, "%s%s", k++ ? ", " : gs_tr(t, "summary.to_confirm"),
					     gs_sheet_req_label(t, (gs_req)r));
			}
		shown++;
	}
	/* The excluded, with what excludes them, within the same bound. */
	for (i = 0; i < d->ncands && shown < 50; i++) {
		const gs_candidate *c = &d->cands[d->order[i]];
		int k = 0;
		if (!c->excluded)
			continue;
		p = gs_doc_item(list);
		gs_doc_code(p, c->offer->id);
		gs_doc_textf(p, " %s", gs_tr(t, "overall.excluded"));
		for (r = 0; r < GS_REQ_COUNT; r++)
			if (c->v[r].kind == GS_V_EXCLUDE)
				gs_doc_textf(p, "%s%s", k++ ? ", " : gs_tr(t, "summary.excluded_by"),
					     gs_sheet_req_label(t, (gs_req)r));
		shown++;
	}
	if (shown == 50 && d->ncands > 50) {
		p = gs_doc_para(doc.root);
		gs_doc_textf(p, "%s %zu.", gs_tr(t, "summary.more"), d->ncands - shown);
	}
	p = gs_doc_para(doc.root);
	gs_doc_text(p, gs_tr(t, "summary.full_sheet"));
	gs_doc_text(p, " ");
	{
		char *link = S_cut(t, sheet_link, GS_SUMMARY_MAX_STRING);
		gs_doc_code(p, link);
		free(link);
	}
	out = gs_doc_render_markdown(&doc);
	gs_doc_release(&doc);
	return out;
}
