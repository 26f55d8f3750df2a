/*
 * sheet_memory: the workload and its memory: the identity table, the sizing and
 * its formats, the memory budget chart and its data.
 */
#define _DEFAULT_SOURCE
#include "sheet_int.h"

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

/* The identity's cache row: its kind, its dtype and width, a static
 * cache's maximum. The caller frees it. */
static char *S_cache_words(const S_ctx *c)
{
	const gs_workload *w = c->in->w;
	char key[32], a[GS_FMT_MAX], *cv;

	snprintf(key, sizeof(key), "cache.%s", gs_workload_cache_id(w->cache));
	if (w->cache_dtype && gs_kvdtype_is_block(w->cache_dtype))
		cv = gs_xasprintf("%s, %s, %llu B %s %llu %s", TR(key), w->cache_dtype->name,
				  (unsigned long long)w->cache_block_bytes, TR("word.block_of"),
				  (unsigned long long)w->cache_block_values, TR("word.values"));
	else if (w->cache_dtype)
		cv = gs_xasprintf("%s, %s, %llu B/%s", TR(key), w->cache_dtype->name,
				  (unsigned long long)w->cache_bytes_per_value, TR("word.value"));
	else
		cv = gs_xasprintf("%s, %llu B/%s", TR(key),
				  (unsigned long long)w->cache_bytes_per_value, TR("word.value"));
	if (w->has_cache_max_tokens) {
		char *more = gs_xasprintf("%s, %s %s", cv, gs_qty_fmt_int(a, w->cache_max_tokens, c->lang),
					  TR("word.tokens"));
		free(cv);
		cv = more;
	}
	return cv;
}

void gs_sheet_memory_identity(S_ctx *c)
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
	ROW(TR("id.parameters"), gs_qty_fmt_int(a, w->parameters, c->lang));
	gs_qty_fmt_millibits(a, gs_workload_millibits(w));
	r = gs_doc_row(tb);
	gs_doc_cell_text(r, TR("id.storage"));
	{
		cmark_node *cell = gs_doc_cell(r);
		gs_doc_textf(cell, "%s, %s bits", w->storage_format, a);
		if (c->in->s->theoretical) {
			gs_doc_text(cell, " — ");
			gs_doc_text(cell, TR(w->weights_format ? "note.theoretical_format"
							 : "note.theoretical"));
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
		ROW(TR("id.window"), gs_qty_fmt_int(a, w->sliding_window, c->lang));
	for (i = 0; i < w->ndims; i++) {
		char *label = gs_xasprintf("%s: %s", TR("id.dimension"), w->dims[i].name);
		ROW(label, gs_qty_fmt_int(a, w->dims[i].value, c->lang));
		free(label);
	}
	if (w->cache != GS_CACHE_NONE) {
		char *cv = S_cache_words(c);
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
				    gs_qty_fmt_int(a, w->campaign_days, c->lang), TR("word.days"));
		ROW(TR("req.calendar"), cp);
		free(cp);
	} else {
		ROW(TR("req.calendar"), TR("word.not_stated"));
	}
	if (w->has_budget) {
		char *bp = gs_xasprintf("%s %s", gs_qty_fmt_money(a, w->budget_hundredths, c->lang),
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
		char *ram = w->has_host_ram ? gs_xasprintf("%s (%s)", gs_qty_fmt_gib(g, w->host_ram_bytes, c->lang),
						       TR("req.stated_assumed"))
					    : gs_xstrdup("");
		char *hp = gs_xasprintf("%s%s%s", ram,
				    w->has_host_ram && w->host_interconnect ? ", " : "",
				    w->host_interconnect ? w->host_interconnect : "");
		ROW(TR("req.host"), hp);
		free(hp);
		free(ram);
	} else if (c->in->s->has_train && c->in->s->train.host) {
		char g[GS_FMT_MAX];
		char *hp = gs_xasprintf("≥ %s (%s)", gs_qty_fmt_gib(g, c->in->s->train.host, c->lang),
					TR("req.host_offload"));
		ROW(TR("req.host"), hp);
		free(hp);
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
					     gs_qty_fmt_int(a, in->dims[k].value, c->lang));
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

/* A cache sized by layer kind (model.cache_layout), as one runtime keeps it
 * (sizing.h gs_sizing_cache_engine): its terms per sequence. */
static char *S_kv_engine_label(S_ctx *c, const char *engine, const gs_cache_cost *k,
			       const gs_sizing *s, const char *key)
{
	char a[GS_FMT_MAX], b[GS_FMT_MAX], d[GS_FMT_MAX], e[GS_FMT_MAX];

	return gs_xasprintf("%s %s (%s %s %s %s + %s %s + %s %s, x %llu %s; %s)", TR(key), engine,
			    gs_qty_fmt_int(a, k->per_token, c->lang), TR("size.kv_per_token"),
			    gs_qty_fmt_int(b, s->kv_tokens_kept, c->lang), TR("word.tokens"),
			    gs_qty_fmt_int(d, k->bounded, c->lang), TR("size.kv_bounded"),
			    gs_qty_fmt_int(e, k->state, c->lang), TR("size.kv_state"),
			    (unsigned long long)s->kv_sequences, TR("size.kv_sequences"),
			    strcmp(key, "size.kv_runtime") != 0 ? TR("size.kv_not_counted")
			    : s->kv_engine_declared ? TR("size.kv_declared") : TR("size.kv_larger"));
}

/*
 * The KV cache row of a workload that names its cache dtype: the bytes per
 * token with their derivation, then the tokens and the sequences. A block
 * type (q8_0, q4_0) takes block_bytes per block_values values along each
 * head: 2 x layers x kv_heads x head_dim / 32 x 34 B for q8_0.
 */
static char *S_kv_dtype_label(S_ctx *c)
{
	const gs_workload *w = c->in->w;
	const gs_sizing *s = c->in->s;
	char a[GS_FMT_MAX], b[GS_FMT_MAX], width[96];

	if (gs_kvdtype_is_block(w->cache_dtype))
		snprintf(width, sizeof(width), "%llu / %llu x %llu B",
			 (unsigned long long)w->head_dim, (unsigned long long)w->cache_block_values,
			 (unsigned long long)w->cache_block_bytes);
	else
		snprintf(width, sizeof(width), "%llu x %llu B", (unsigned long long)w->head_dim,
			 (unsigned long long)w->cache_bytes_per_value);
	return gs_xasprintf("%s, %s (2 x %llu x %llu x %s = %s %s; x %s %s x %llu)", TR("size.kv"),
			    w->cache_dtype->name, (unsigned long long)w->layers,
			    (unsigned long long)w->kv_heads, width,
			    gs_qty_fmt_int(a, s->kv_per_token, c->lang), TR("size.kv_token"),
			    gs_qty_fmt_int(b, s->kv_tokens_kept, c->lang), TR("word.tokens"),
			    (unsigned long long)s->kv_sequences);
}

static char *S_weights_label(S_ctx *c)
{
	const gs_workload *w = c->in->w;
	char a[GS_FMT_MAX], b[GS_FMT_MAX];

	if (w->weights_format)
		return gs_xasprintf("%s (%s %s%s)", TR("size.weights"), w->storage_format,
				    TR("size.weights_format"),
				    w->weights_format_experts_only ? TR("size.weights_format_experts")
								   : "");
	if (w->has_weights_bytes)
		return gs_xasprintf("%s (%s: %s)", TR("size.weights"),
				    TR(w->weights_from_index ? "size.weights_index" : "size.weights_read"),
				    w->weights_source);
	return gs_xasprintf("%s (%s x %s / 8%s)", TR("size.weights"),
			    gs_qty_fmt_int(a, w->parameters, c->lang), gs_qty_fmt_millibits(b, gs_workload_millibits(w)),
			    c->in->s->rounded ? TR("size.rounded_up") : "");
}

void gs_sheet_memory_sizing(S_ctx *c)
{
	const gs_workload *w = c->in->w;
	const gs_sizing *s = c->in->s;
	const char *h[5];
	cmark_node *tb, *r, *p;
	char a[GS_FMT_MAX], b[GS_FMT_MAX];
	size_t i;

	if (s->has_train) {
		gs_sheet_training_sizing(c);
		return;
	}
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
	if (s->kv.present && s->kv_engine)
		gs_sheet_words_cell_owned(r, S_kv_engine_label(c, s->kv_engine, &s->kv_cost, s,
						       "size.kv_runtime"));
	else if (s->kv.present && w->cache_dtype)
		gs_sheet_words_cell_owned(r, S_kv_dtype_label(c));
	else if (s->kv.present)
		gs_sheet_words_cell_owned(r, gs_xasprintf("%s (2 x %llu x %llu x %llu x %s %s x %llu B x %llu)",
					 TR("size.kv"), (unsigned long long)w->layers,
					 (unsigned long long)w->kv_heads, (unsigned long long)w->head_dim,
					 gs_qty_fmt_int(a, s->kv_tokens_kept, c->lang), TR("word.tokens"),
					 (unsigned long long)w->cache_bytes_per_value,
					 (unsigned long long)s->kv_sequences));
	else
		gs_sheet_words_cell_owned(r, gs_xasprintf("%s — %s", TR("size.kv"), TR("size.kv_none")));
	gs_sheet_words_size_cells(c, r, s->kv);
	if (s->kv_other.present && s->kv_other_engine) {
		r = gs_doc_row(tb);
		gs_sheet_words_cell_owned(r, S_kv_engine_label(c, s->kv_other_engine,
						       &s->kv_other_cost, s, "size.kv_runtime_other"));
		gs_sheet_words_size_cells(c, r, s->kv_other);
	} else if (s->kv_other.present) {
		/* the window bounds the cache only in a runtime that keeps it */
		char win[GS_FMT_MAX];
		r = gs_doc_row(tb);
		gs_sheet_words_cell_owned(r, gs_xasprintf("%s (%s %s %s; %s %s; %s)",
					 TR(s->kv_other_windowed ? "size.kv_windowed" : "size.kv_dense"),
					 gs_qty_fmt_int(a, s->kv_other_tokens, c->lang), TR("word.tokens"),
					 TR("size.kv_other_kept"), TR("size.kv_window"),
					 gs_qty_fmt_int(win, w->sliding_window, c->lang),
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
				     gs_qty_fmt_int(a, w->trainable_parameters, c->lang));
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
			     gs_qty_fmt_gib(b, s->reserve.bytes, c->lang), TR("formats.provenance"));
		tb = gs_doc_table(c->doc, c->root, TR("cap.formats"), 6, hf);
		for (i = 0; i < s->nformats; i++) {
			const gs_format_row *fr = &s->formats[i];
			r = gs_doc_row(tb);
			snprintf(a, sizeof(a), "%u", fr->bits);
			gs_doc_cell_text(r, a);
			gs_doc_cell_text(r, gs_qty_fmt_int(a, fr->weights, c->lang));
			gs_doc_cell_text(r, gs_qty_fmt_fixed2(a, fr->weights, GS_GIB, c->lang));
			gs_doc_cell_text(r, gs_qty_fmt_fixed2(a, fr->envelope, GS_GIB, c->lang));
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
	gs_doc_cell_text(r, gs_qty_fmt_int(a, q.bytes, c->lang));
	gs_doc_cell_text(r, gs_qty_fmt_fixed2(a, q.bytes, GS_GIB, c->lang));
	gs_doc_cell_text(r, gs_sheet_words_qprov(c, q));
}

/*
 * A capacity line of the budget chart for cd, unless one of its capacity
 * is drawn already (then that line names cd's model too) or six are:
 * "H100 80GB (80 GB)", or with tag ("offer to take: H100 80GB (80 GB)").
 * labels[] keeps the strings made, to free.
 */
static void S_cap_add(S_ctx *c, const gs_candidate *cd, const char *tag, gs_chart_line *caps,
		      size_t *nc, char **labels, size_t *nl)
{
	char mem[GS_FMT_MAX];
	size_t k;

	if (!cd->capacity.present || *nc >= 6)
		return;
	for (k = 0; k < *nc; k++) {
		char *merged;
		size_t li;
		if (caps[k].value.bytes != cd->capacity.bytes)
			continue;
		/* Same capacity: one line, both models named. */
		if (strstr(caps[k].label, cd->offer->gpu_model))
			return;
		merged = gs_xasprintf("%s / %s", caps[k].label, cd->offer->gpu_model);
		for (li = 0; li < *nl; li++)
			if (labels[li] == caps[k].label) {
				free(labels[li]);
				labels[li] = merged;
			}
		caps[k].label = merged;
		return;
	}
	labels[*nl] = gs_xasprintf("%s%s%s (%s)", tag ? tag : "", tag ? ": " : "", cd->offer->gpu_model,
				   gs_catalog_offer_memory_label(cd->offer, TR("word.missing"), mem,
								 sizeof(mem)));
	caps[*nc].label = labels[(*nl)++];
	caps[(*nc)++].value = cd->capacity;
}

void gs_sheet_memory_budget_chart(S_ctx *c)
{
	const gs_workload *w = c->in->w;
	const gs_sizing *s = c->in->s;
	const gs_decision *d = c->in->d;
	gs_chart_segment *segs = gs_xcalloc(4 + GS_TI_COUNT + w->nreserve + w->ntraining, sizeof(*segs));
	gs_chart_line *caps = gs_xcalloc(d->ncands + 1, sizeof(*caps));
	gs_chart_line *peaks = gs_xcalloc(c->in->nev + 1, sizeof(*peaks));
	char **labels = gs_xcalloc(d->ncands + c->in->nev + 1, sizeof(*labels));
	size_t ns = 0, nc = 0, np = 0, nl = 0, i;
	gs_chart_text ct;
	gs_chart_out o;
	const char *h[5];
	cmark_node *tb;

	if (s->has_train) {
		/* a recipe: its items per card */
		ns = gs_sheet_training_segments(c, segs);
	} else {
		segs[ns].label = TR("size.weights");
		segs[ns++].value = s->weights;
	}
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
	 * share it), at most six: first the offer to take and the best offer
	 * of each class, each labelled so, then the offers whose memory
	 * verdict rests on a measurement (admissible or excluded), then the
	 * others in ranking order. */
	{
		const gs_candidate *best = gs_verdict_best(d);
		int pass, k;
		if (best)
			S_cap_add(c, best, TR("chart.cap_take"), caps, &nc, labels, &nl);
		for (k = GS_CLASS_RETAINED; k <= GS_CLASS_UNSURE; k++) {
			const gs_candidate *cd = gs_verdict_first_of(d, (gs_class)k);
			if (cd && cd != best)
				S_cap_add(c, cd, TR("chart.cap_best"), caps, &nc, labels, &nl);
		}
		for (pass = 0; pass < 2; pass++) {
			for (i = 0; i < d->ncands && nc < 6; i++) {
				const gs_candidate *cd = &d->cands[d->order[i]];
				int decided = cd->v[GS_REQ_MEMORY].kind == GS_V_ADMISSIBLE ||
					      cd->v[GS_REQ_MEMORY].kind == GS_V_EXCLUDE;
				if (decided == (pass == 0))
					S_cap_add(c, cd, NULL, caps, &nc, labels, &nl);
			}
		}
	}
	for (i = 0; i < c->in->nev; i++) {
		gs_qty n = gs_verdict_measurement_need(c->in->ev[i].m, NULL);
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

/* At most this many offers in the runtime's table (the decision JSON has every one). */
#define S_RUNTIME_ROWS 12

/* The engine's settings, each stated or its version's default with the source. */
static void S_runtime_settings_para(S_ctx *c, const gs_runtime_settings *rs)
{
	cmark_node *p = gs_doc_para(c->root);

	gs_doc_textf(p, "%s %s %s", TR("rt.intro"), rs->engine, rs->version);
	if (rs->version_assumed)
		gs_doc_textf(p, " (%s %s %s%s)", TR("rt.version_assumed"), rs->engine, rs->version,
			     TR("rt.version_assumed_tail"));
	gs_doc_text(p, ". ");
	if (rs->id == GS_ENGINE_SGLANG) {
		if (rs->mfs_permille)
			gs_doc_textf(p, "mem_fraction_static %llu.%03llu (%s)",
				     (unsigned long long)(rs->mfs_permille / 1000),
				     (unsigned long long)(rs->mfs_permille % 1000), TR("rt.stated"));
		else
			gs_doc_textf(p, "mem_fraction_static %s (%s)", TR("rt.sglang_by_rule"),
				     rs->mfs_source);
		if (rs->chunked_prefill_size)
			gs_doc_textf(p, "; chunked_prefill_size %llu (%s)",
				     (unsigned long long)rs->chunked_prefill_size, TR("rt.stated"));
		if (rs->cuda_graph_max_bs)
			gs_doc_textf(p, "; cuda_graph_max_bs %llu (%s)",
				     (unsigned long long)rs->cuda_graph_max_bs, TR("rt.stated"));
		gs_doc_textf(p, "; page_size %llu (%s). %s.", (unsigned long long)rs->block_size,
			     rs->block_source, rs->pool_source);
		return;
	}
	gs_doc_textf(p, "gpu_memory_utilization %llu.%03llu (%s); block_size %llu (%s); "
		     "entry_point %s (%s); max_num_batched_tokens %llu (%s).",
		     (unsigned long long)(rs->util_permille / 1000), (unsigned long long)(rs->util_permille % 1000),
		     rs->util_default ? rs->util_source : TR("rt.stated"),
		     (unsigned long long)rs->block_size, rs->block_default ? rs->block_source : TR("rt.stated"),
		     rs->entry_llm ? "llm" : "serve",
		     rs->entry_default ? TR("rt.entry_default") : TR("rt.stated"),
		     (unsigned long long)rs->max_num_batched_tokens,
		     rs->mnbt_default ? rs->mnbt_source : TR("rt.stated"));
	if (gs_runtime_mnbt_rule_text(rs)) {
		p = gs_doc_para(c->root);
		gs_doc_textf(p, "%s %s. %s", TR("rt.step_rule"), gs_runtime_mnbt_rule_text(rs),
			     TR("rt.step_rule_tail"));
	}
}

/* An offer gs_sheet_memory_runtime shows (in the order, the first S_RUNTIME_ROWS). */
static int S_runtime_row(const gs_candidate *cd)
{
	return cd->has_runtime && cd->cls != GS_CLASS_EXCLUDED && cd->cls != GS_CLASS_REFERENCE;
}

/* Does a shown vLLM row's step budget differ from the workload-wide one? */
static int S_runtime_step_differs(const gs_decision *d, const gs_runtime_settings *rs)
{
	size_t i, shown = 0;

	for (i = 0; i < d->ncands && shown < S_RUNTIME_ROWS; i++) {
		const gs_candidate *cd = &d->cands[d->order[i]];
		if (!S_runtime_row(cd))
			continue;
		shown++;
		if (cd->rt_engine == GS_ENGINE_VLLM && cd->rt_mnbt != rs->max_num_batched_tokens)
			return 1;
	}
	return 0;
}

/* A row's pool in bytes and tokens and its concurrency. */
static void S_runtime_pool_cells(S_ctx *c, cmark_node *r, const gs_candidate *cd)
{
	char a[GS_FMT_MAX];

	gs_sheet_words_cell_owned(r, gs_xasprintf("%s (%s)", gs_qty_fmt_gib(a, cd->rt.pool, c->lang),
				 gs_sheet_words_qprov(c, gs_qty_make(cd->rt.pool,
					gs_qty_prov_weakest(cd->card_total.prov, c->in->s->need.prov)))));
	gs_sheet_words_cell_owned(r, gs_xasprintf("%s", gs_qty_fmt_int(a, cd->rt.tokens, c->lang)));
	gs_sheet_words_cell_owned(r, gs_xasprintf("%llu.%02llux", (unsigned long long)(cd->rt.concurrency_hundredths / 100),
				 (unsigned long long)(cd->rt.concurrency_hundredths % 100)));
}

/*
 * "The workload under its runtime": the settings (stated, or the version's
 * default with its source), then, for the first offers in the order, the
 * budget, the KV pool in bytes and tokens and the concurrency at the
 * workload's tokens per sequence: the figures vLLM prints at start-up
 * (SGLang: its mem_fraction_static on the card beside the budget, and
 * max_total_num_tokens).
 */
void gs_sheet_memory_runtime(S_ctx *c)
{
	const gs_decision *d = c->in->d;
	gs_runtime_settings rs;
	const char *h[7];
	cmark_node *tb, *r, *p;
	char a[GS_FMT_MAX], b[GS_FMT_MAX];
	size_t i, shown = 0, more = 0;
	int sgl, step;

	if (gs_runtime_settings_of(c->in->w, &rs) != 0)
		return;
	sgl = rs.id == GS_ENGINE_SGLANG;
	gs_doc_heading(c->root, 2, TR("sec.runtime"));
	S_runtime_settings_para(c, &rs);
	p = gs_doc_para(c->root);
	gs_doc_text(p, sgl ? TR("rt.rule_sglang") : TR("rt.rule"));
	/* how far the assumed terms were off on the real logs (bench/predict-logs.sh) */
	p = gs_doc_para(c->root);
	gs_doc_text(p, sgl ? TR("rt.assumed_check_sglang") : TR("rt.assumed_check"));
	h[0] = TR("col.offer");
	h[1] = TR("rt.col_total");
	h[2] = sgl ? TR("rt.col_budget_sglang") : TR("rt.col_budget");
	h[3] = sgl ? TR("rt.col_pool_sglang") : TR("rt.col_pool");
	h[4] = sgl ? TR("rt.col_tokens_sglang") : TR("rt.col_tokens");
	h[5] = sgl ? TR("rt.col_concurrency_sglang") : TR("rt.col_concurrency");
	h[6] = TR("rt.col_step");
	/* the step budget per offer, where one differs from the workload-wide one */
	step = !sgl && S_runtime_step_differs(d, &rs);
	{
		char *cap = gs_xasprintf("%s %s %s", sgl ? TR("rt.caption_sglang") : TR("rt.caption"),
					 gs_qty_fmt_int(a, c->in->s->kv_tokens_kept, c->lang), TR("rt.caption_tokens"));
		tb = gs_doc_table(c->doc, c->root, cap, step ? 7 : 6, h);
		free(cap);
	}
	for (i = 0; i < d->ncands; i++) {
		const gs_candidate *cd = &d->cands[d->order[i]];
		if (!S_runtime_row(cd))
			continue;
		if (shown == S_RUNTIME_ROWS) {
			more++;
			continue;
		}
		shown++;
		r = gs_doc_row(tb);
		gs_doc_code(gs_doc_cell(r), cd->offer->id);
		gs_sheet_words_cell_owned(r, gs_xasprintf("%s (%s)", gs_qty_fmt_gib(a, cd->card_total.bytes, c->lang),
					 gs_sheet_words_qprov(c, cd->card_total)));
		if (sgl)
			gs_sheet_words_cell_owned(r, gs_xasprintf("%s (%llu%c%03llu, %s)",
				gs_qty_fmt_gib(b, cd->capacity.bytes, c->lang),
				(unsigned long long)(cd->rt_share.permille / 1000),
				c->lang == GS_LANG_ES ? ',' : '.',
				(unsigned long long)(cd->rt_share.permille % 1000),
				gs_sheet_words_qprov(c, gs_qty_make(cd->capacity.bytes, cd->card_total.prov))));
		else
			gs_sheet_words_cell_owned(r, gs_xstrdup(gs_qty_fmt_gib(b, cd->capacity.bytes, c->lang)));
		if (!cd->rt_pool_known) {
			gs_doc_cell_text(r, TR("word.missing"));
			gs_doc_cell_text(r, TR("word.missing"));
			gs_doc_cell_text(r, TR("word.missing"));
		} else if (cd->rt.short_bytes) {
			gs_sheet_words_cell_owned(r, gs_xasprintf("%s: %s", TR("rt.short"),
						 gs_qty_fmt_gib(a, cd->rt.short_bytes, c->lang)));
			gs_doc_cell_text(r, "0");
			gs_doc_cell_text(r, "0");
		} else {
			S_runtime_pool_cells(c, r, cd);
		}
		if (step)
			gs_sheet_words_cell_owned(r, cd->rt_mnbt_large
				? gs_xasprintf("%s (%s)", gs_qty_fmt_int(a, cd->rt_mnbt, c->lang), TR("rt.step_large"))
				: gs_xstrdup(gs_qty_fmt_int(a, cd->rt_mnbt, c->lang)));
	}
	if (more) {
		p = gs_doc_para(c->root);
		gs_doc_textf(p, "%zu %s", more, TR("rt.more"));
	}
}
