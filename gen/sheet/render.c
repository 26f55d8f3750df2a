/* render: Markdown, HTML page and decision JSON from one sheet. */
#include "render.h"
#include "runtime.h"
#include "jsonout.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "hash.h"
#include "datadir.h"
#include "html.h"
#include "util.h"
#include "outfile.h"
#include "verdict.h"

int gs_render_templates_load(gs_templates *tp, gs_error *err)
{
	char p1[4096], p2[4096], p3[4096];

	memset(tp, 0, sizeof(*tp));
	if (!gs_datadir_path(p1, sizeof(p1), "templates/page.html", err) ||
	    !gs_datadir_path(p2, sizeof(p2), "templates/sheet.css", err) ||
	    !gs_datadir_path(p3, sizeof(p3), "templates/matrix.js", err))
		return -1;
	tp->page = gs_outfile_read(p1, NULL);
	tp->css = gs_outfile_read(p2, NULL);
	tp->script = gs_outfile_read(p3, NULL);
	if (!tp->page || !tp->css || !tp->script) {
		gs_error_set(err, "cannot read %s", !tp->page ? p1 : !tp->css ? p2 : p3);
		gs_render_templates_release(tp);
		return -1;
	}
	return 0;
}

void gs_render_templates_release(gs_templates *tp)
{
	free(tp->page);
	free(tp->css);
	free(tp->script);
	memset(tp, 0, sizeof(*tp));
}

char *gs_render_markdown(const gs_doc *doc)
{
	return gs_doc_md_render(doc);
}

char *gs_render_html(const gs_templates *tp, const gs_doc *doc, gs_lang lang,
		     const char *title, const char *nav_html, const char *site_root)
{
	char *body = gs_doc_html_render(doc), *out;

	if (!body)
		return NULL;
	out = gs_render_page(tp, lang, title, nav_html, site_root, body, NULL);
	free(body);
	return out;
}

char *gs_render_page(const gs_templates *tp, gs_lang lang, const char *title,
		     const char *nav_html, const char *site_root, const char *body_html,
		     const char *script_src)
{
	gs_buf out;
	const char *p = tp->page;

	gs_buf_init(&out, 16384);
	/* {{lang}} {{title}} {{csp_style}} {{css}} {{nav}} {{body}}; one pass. */
	while (*p) {
		const char *open = strstr(p, "{{");
		const char *close = open ? strstr(open, "}}") : NULL;
		char key[16];
		size_t klen;

		if (!open || !close) {
			gs_buf_puts(&out, p);
			break;
		}
		gs_buf_put(&out, p, (size_t)(open - p));
		klen = (size_t)(close - open - 2);
		if (klen >= sizeof(key))
			klen = sizeof(key) - 1;
		memcpy(key, open + 2, klen);
		key[klen] = '\0';
		if (strcmp(key, "lang") == 0)
			gs_buf_puts(&out, gs_tr_lang_id(lang));
		else if (strcmp(key, "title") == 0)
			gs_html_escape_str(&out, title);
		else if (strcmp(key, "csp_style") == 0)
			gs_buf_puts(&out, site_root ? "'self'" : "'unsafe-inline'");
		else if (strcmp(key, "css") == 0 && site_root) {
			gs_buf_puts(&out, "<link rel=\"stylesheet\" href=\"");
			gs_html_escape_str(&out, site_root);
			gs_buf_puts(&out, GS_SITE_CSS "\">");
		} else if (strcmp(key, "css") == 0) {
			gs_buf_puts(&out, "<style>\n");
			gs_buf_puts(&out, tp->css);
			gs_buf_puts(&out, "\n</style>");
		} else if (strcmp(key, "nav") == 0)
			gs_buf_puts(&out, nav_html ? nav_html : "");
		else if (strcmp(key, "csp_script") == 0 && script_src)
			gs_buf_puts(&out, " script-src 'self';");
		else if (strcmp(key, "script") == 0 && script_src) {
			gs_buf_puts(&out, "\n<script src=\"");
			gs_html_escape_str(&out, script_src);
			gs_buf_puts(&out, "\" defer></script>");
		} else if (strcmp(key, "body") == 0) {
			gs_buf_puts(&out, body_html);
		}
		p = close + 2;
	}
	return gs_buf_detach(&out, NULL);
}


/* sizing.training_recipe.layer_kinds: each kind of layer with its count,
 * one layer's linear parameters and activations without checkpointing */
static void S_training_kinds(gs_jw *w, const gs_recipe *rc, const gs_training *t)
{
	int k;

	static const char *const mixers[GS_MIXERS] = { "none", "attention", "mamba2",
						       "gated_deltanet" };
	static const char *const ffns[3] = { "none", "dense", "experts" };
	size_t i;

	gs_jw_key(w, "layer_kinds");
	gs_jw_array(w);
	/* a hybrid's kinds: its token mixer and feed-forward block */
	for (i = 0; i < t->nhy; i++) {
		gs_jw_object(w);
		gs_jw_key(w, "activations_per_layer");
		gs_jw_qty(w, gs_qty_make(t->hy[i].act, GS_PROV_ASSUMED));
		gs_jw_key(w, "layers");
		gs_jw_u64(w, t->hy[i].layers);
		gs_jw_key(w, "linear_parameters_per_layer");
		gs_jw_u64(w, t->hy[i].linear);
		gs_jw_key(w, "mixer");
		gs_jw_str(w, mixers[t->hy[i].mixer]);
		gs_jw_key(w, "mlp");
		gs_jw_str(w, ffns[t->hy[i].ffn]);
		gs_jw_end(w);
	}
	for (k = 0; k < 2; k++) {
		if (!t->kind_layers[k])
			continue;
		gs_jw_object(w);
		gs_jw_key(w, "activations_per_layer");
		gs_jw_qty(w, gs_qty_make(t->kind_act[k], GS_PROV_ASSUMED));
		gs_jw_key(w, "attention");
		gs_jw_str(w, rc->mla ? "mla" : "heads");
		gs_jw_key(w, "layers");
		gs_jw_u64(w, t->kind_layers[k]);
		gs_jw_key(w, "linear_parameters_per_layer");
		gs_jw_u64(w, t->kind_linear[k]);
		gs_jw_key(w, "mlp");
		gs_jw_str(w, k ? "experts" : "dense");
		gs_jw_end(w);
	}
	gs_jw_end(w);
}

/* sizing.training_recipe.checkpoint: the parameters per kind calculated
 * from the checkpoint's headers, and the geometry's figures beside the
 * trainable (and QLoRA's 4-bit) parameters counted from them */
static void S_training_ck(gs_jw *w, const gs_recipe *rc, const gs_training *t)
{
	static const char *const ids[GS_PK_COUNT] = {
		"embeddings", "head", "attention", "dense_mlp", "routed_experts",
		"shared_experts", "routers", "norms", "scales", "other", "beyond_layers"
	};
	/* the ids sorted */
	static const gs_model_pkind order[GS_PK_COUNT] = {
		GS_PK_ATTENTION, GS_PK_BEYOND, GS_PK_DENSE, GS_PK_EMBED, GS_PK_HEAD, GS_PK_NORM,
		GS_PK_OTHER, GS_PK_ROUTED, GS_PK_ROUTER, GS_PK_SCALE, GS_PK_SHARED
	};
	int k;

	gs_jw_key(w, "checkpoint");
	gs_jw_object(w);
	gs_jw_key(w, "linear_parameters");
	gs_jw_u64(w, rc->ck.linear);
	gs_jw_key(w, "parameters_per_kind");
	gs_jw_object(w);
	for (k = 0; k < GS_PK_COUNT; k++) {
		gs_jw_key(w, ids[order[k]]);
		gs_jw_u64(w, rc->ck.params[order[k]]);
	}
	gs_jw_end(w);
	if (rc->method == GS_METHOD_QLORA) {
		gs_jw_key(w, "quantized_parameters_config");
		gs_jw_u64(w, t->quantized_config);
	}
	gs_jw_key(w, "total");
	gs_jw_u64(w, rc->ck.total);
	gs_jw_key(w, "trainable_parameters_config");
	gs_jw_u64(w, t->trainable_config);
	gs_jw_end(w);
}

/* sizing.training_recipe: the recipe, its items per card and its phases */
static void S_training_recipe(gs_jw *w, const gs_workload *wl, const gs_training *t)
{
	/* the keys sorted: the items' and the phases' ids in that order */
	static const gs_train_kind items[GS_TI_COUNT] = {
		GS_TI_ACTIVATIONS, GS_TI_ADAPTERS, GS_TI_GRADIENTS, GS_TI_LOGITS, GS_TI_MASTER,
		GS_TI_OPTIMIZER, GS_TI_WEIGHTS
	};
	static const gs_train_phase phases[GS_TP_COUNT] = {
		GS_TP_EVAL, GS_TP_EXPORT, GS_TP_FIRST_STEP, GS_TP_LOAD, GS_TP_STEADY
	};
	const gs_recipe *rc = &wl->recipe;
	size_t k;

	gs_jw_key(w, "training_recipe");
	gs_jw_object(w);
	gs_jw_key(w, "cards");
	gs_jw_u64(w, t->cards);
	if (t->from_ck)
		S_training_ck(w, rc, t);
	gs_jw_key(w, "checkpointing");
	gs_jw_str(w, gs_recipe_ckpt_id(rc->checkpointing));
	if (rc->gguf_width) {
		/* a GGUF base, dequantised to this width (recipe.h) */
		gs_jw_key(w, "gguf_base");
		gs_jw_object(w);
		gs_jw_key(w, "bytes_per_value");
		gs_jw_u64(w, rc->gguf_width);
		gs_jw_key(w, "width_stated");
		gs_jw_bool(w, rc->gguf_width_stated);
		gs_jw_end(w);
	}
	gs_jw_key(w, "host_memory");
	gs_jw_qty(w, gs_qty_make(t->host, GS_PROV_CALCULATED));
	gs_jw_key(w, "items");
	gs_jw_object(w);
	for (k = 0; k < GS_TI_COUNT; k++) {
		const gs_train_item *it = &t->items[items[k]];
		gs_jw_key(w, it->id);
		gs_jw_object(w);
		gs_jw_key(w, "divided");
		gs_jw_bool(w, it->divided);
		gs_jw_key(w, "host");
		gs_jw_u64(w, it->host);
		gs_jw_key(w, "per_card");
		gs_jw_u64(w, it->per_card);
		gs_jw_key(w, "provenance");
		gs_jw_str(w, gs_qty_prov_id(it->prov));
		gs_jw_key(w, "total");
		gs_jw_u64(w, it->total);
		gs_jw_end(w);
	}
	gs_jw_end(w);
	if (rc->experts || rc->mla || rc->hybrid)
		S_training_kinds(w, rc, t);
	gs_jw_key(w, "method");
	gs_jw_str(w, gs_recipe_method_id(rc->method));
	gs_jw_key(w, "offload");
	gs_jw_str(w, gs_recipe_offload_id(rc->offload));
	gs_jw_key(w, "optimizer");
	gs_jw_str(w, gs_recipe_optimizer_id(rc->optimizer));
	gs_jw_key(w, "peak_phase");
	gs_jw_str(w, gs_training_phase_id(t->peak));
	gs_jw_key(w, "phases");
	gs_jw_object(w);
	for (k = 0; k < GS_TP_COUNT; k++) {
		gs_jw_key(w, gs_training_phase_id(phases[k]));
		gs_jw_u64(w, t->phases[phases[k]]);
	}
	gs_jw_end(w);
	gs_jw_key(w, "sharding");
	gs_jw_str(w, gs_recipe_shard_id(rc->sharding));
	gs_jw_key(w, "trainable_parameters");
	gs_jw_u64(w, t->trainable);
	if (rc->vis_depth) {
		/* Qwen2.5-VL's vision tower, counted as trained (training.h) */
		gs_jw_key(w, "vision_tower");
		gs_jw_object(w);
		if (rc->method == GS_METHOD_QLORA) {
			gs_jw_key(w, "quantized_parameters_config");
			gs_jw_u64(w, t->vision_quantized);
		}
		gs_jw_key(w, "trainable_parameters_config");
		gs_jw_u64(w, t->vision_trainable);
		gs_jw_end(w);
	}
	gs_jw_end(w);
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

/* A member whose value is a string, or null. */
static void S_member_str(gs_jw *w, const char *key, const char *v)
{
	gs_jw_key(w, key);
	gs_jw_str(w, v);
}

/* A whole number when has, else null. */
static void S_u64_or_null(gs_jw *w, int has, uint64_t v)
{
	if (has)
		gs_jw_u64(w, v);
	else
		gs_jw_null(w);
}

/*
 * A table of the decision JSON (schema 5): what many candidates share,
 * each distinct value written once (compared by its bytes) and named by
 * its index. A value is written apart (S_sub_begin, one line) and added;
 * the table is written as an array, a value a line.
 */
typedef struct {
	char **v;
	uint64_t *h;
	size_t n, cap;
	size_t *slot;          /* open addressing: index + 1, 0 empty */
	size_t nslot;          /* a power of two, at least twice n */
	int bad;               /* a value was not UTF-8 */
} S_table;

static void S_sub_begin(gs_jw *sub)
{
	gs_jw_init_flat(sub, 1);
}

/* The value written in sub, as the index of its copy in t. */
static size_t S_table_add(S_table *t, gs_jw *sub)
{
	char *v = gs_jw_finish(sub);
	uint64_t h;
	size_t k, i, n;

	if (!v) {
		v = gs_xstrdup("null");
		t->bad = 1;
	}
	n = strlen(v);
	if (n && v[n - 1] == '\n')
		v[n - 1] = '\0';
	h = gs_hash_str(v);
	if (2 * (t->n + 1) > t->nslot) {
		size_t ns = t->nslot ? 2 * t->nslot : 64;
		free(t->slot);
		t->slot = gs_xcalloc(ns, sizeof(*t->slot));
		t->nslot = ns;
		for (i = 0; i < t->n; i++) {
			for (k = (size_t)t->h[i] & (ns - 1); t->slot[k]; k = (k + 1) & (ns - 1))
				;
			t->slot[k] = i + 1;
		}
	}
	for (k = (size_t)h & (t->nslot - 1); t->slot[k]; k = (k + 1) & (t->nslot - 1)) {
		i = t->slot[k] - 1;
		if (t->h[i] == h && strcmp(t->v[i], v) == 0) {
			free(v);
			return i;
		}
	}
	if (t->n == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 64;
		t->v = gs_xrealloc(t->v, t->cap * sizeof(*t->v));
		t->h = gs_xrealloc(t->h, t->cap * sizeof(*t->h));
	}
	t->v[t->n] = v;
	t->h[t->n] = h;
	t->slot[k] = t->n + 1;
	return t->n++;
}

static void S_table_write(gs_jw *w, const char *key, S_table *t)
{
	size_t i;

	gs_jw_key(w, key);
	gs_jw_array(w);
	if (t->bad)
		gs_jw_raw(w, NULL);   /* the document fails, as a string not UTF-8 does */
	for (i = 0; i < t->n; i++) {
		gs_jw_raw(w, t->v[i]);
		free(t->v[i]);
	}
	gs_jw_end(w);
	free(t->v);
	free(t->h);
	free(t->slot);
	memset(t, 0, sizeof(*t));
}

/* The tables of one decision JSON. */
typedef struct {
	S_table gpus, lots, plans, requirements, speeds, speed_sources;
	gs_sheet_reasonmerge m;
} S_tables;

/* The members of a reason, in order ("reason_fields"). */
static const char *const S_reason_fields[] = {
	"requirement", "verdict", "reason", "text", "evidence", "evidence_date", "exclusion",
	"missing", "note", "orientation", "lower_bound", "rests_on_synthetic"
};

/*
 * The distinct reasons (gs_sheet_reasonset), each once, a row of
 * S_reason_fields; a budget reason merged into an earlier one (they differ
 * by the cost alone: gs_sheet_reasons_merge) is null, so that reasons[N]
 * stays the sheet's #why-N, and the earlier one says the range of the
 * costs and lists the evidence's lines.
 */
static void S_reasons(gs_jw *w, const gs_sheet_reasonset *rs, const gs_sheet_reasonmerge *m)
{
	size_t i;

	gs_jw_array(w);
	for (i = 0; i < rs->n; i++) {
		const gs_verdict *v = rs->r[i].v;

		if (m->rep[i] != i) {
			gs_jw_null(w);
			continue;
		}
		gs_jw_array(w);
		gs_jw_str(w, gs_verdict_req_id(rs->r[i].req));
		gs_jw_str(w, gs_verdict_id(v->kind));
		gs_jw_str(w, v->why);
		gs_jw_str(w, m->text[i] ? m->text[i] : rs->r[i].text);
		gs_jw_str(w, m->evidence[i] ? m->evidence[i] : v->evidence);
		gs_jw_str(w, v->evidence_date);
		gs_jw_str(w, v->kind == GS_V_EXCLUDE ? S_basis_id(v->basis) : NULL);
		gs_jw_str(w, v->missing);
		gs_jw_str(w, v->note);
		gs_jw_str(w, v->orientation);
		gs_jw_bool(w, v->lower_bound);
		gs_jw_bool(w, v->synthetic && v->kind != GS_V_TO_CONFIRM);
		gs_jw_end(w);
	}
	gs_jw_end(w);
}

/* The members of a row of "requirements", in order ("requirement_fields"):
 * each requirement but the budget, in gs_req order. */
static const char *const S_req_fields[] = {
	"memory", "software", "calendar", "quality", "host", "regions", "speed"
};

/*
 * A candidate's requirements but the budget, each the index of its reason,
 * as an index of the "requirements" table.
 */
static size_t S_requirements(S_tables *tb, const gs_sheet_reasonset *rs, size_t ci)
{
	gs_jw sub;
	int q;

	if (sizeof(S_req_fields) / sizeof(S_req_fields[0]) != GS_REQ_COUNT - 1)
		GS_BUG("decision JSON: %d requirements, %zu named", GS_REQ_COUNT - 1,
		       sizeof(S_req_fields) / sizeof(S_req_fields[0]));
	S_sub_begin(&sub);
	gs_jw_array(&sub);
	for (q = 0; q < GS_REQ_COUNT; q++)
		if (q != GS_REQ_BUDGET)
			gs_jw_u64(&sub, tb->m.rep[rs->of[ci * GS_REQ_COUNT + (size_t)q]]);
	gs_jw_end(&sub);
	return S_table_add(&tb->requirements, &sub);
}

/*
 * A price's plan {currency, date, hours, interruptible, source} as an index
 * of the "plans" table, its source's line(s) written "{line}" there; *line
 * the words cut out ("line 2", "lines 2, 4"; NULL when the source cites
 * none; caller frees).
 */
static size_t S_plan(S_tables *tb, const gs_plan *pl, char **line)
{
	char *spec = NULL, *masked = gs_sheet_sources_line_mask(pl->claim.source ? pl->claim.source : "", &spec);
	gs_jw sub;
	size_t k;

	free(spec);
	spec = NULL;
	*line = NULL;
	if (masked) {
		/* the words cut out: between the mask's place and the rest */
		const char *src = pl->claim.source;
		char *at = strchr(masked, '\2');
		size_t pre = (size_t)(at - masked), post = strlen(at + 1);
		*line = gs_xasprintf("%.*s", (int)(strlen(src) - pre - post), src + pre);
		*at = '\0';
		spec = gs_xasprintf("%s{line}%s", masked, at + 1);
	}
	S_sub_begin(&sub);
	gs_jw_object(&sub);
	S_member_str(&sub, "currency", pl->currency);
	S_member_str(&sub, "date", pl->claim.date);
	gs_jw_key(&sub, "hours");
	gs_jw_u64(&sub, pl->hours);
	gs_jw_key(&sub, "interruptible");
	gs_jw_bool(&sub, pl->interruptible);
	S_member_str(&sub, "source", spec ? spec : pl->claim.source);
	gs_jw_end(&sub);
	k = S_table_add(&tb->plans, &sub);
	free(masked);
	free(spec);
	return k;
}

/*
 * A price: [amount, plan], [hundredths, plan units, plan] for the
 * campaign's cost, or null; its source's line(s) last when they are not
 * the candidate's "line" (row_line).
 */
static void S_price(gs_jw *w, S_tables *tb, int64_t amount, const uint64_t *units, const gs_plan *pl,
		    const char *row_line)
{
	char *line;
	size_t k;

	if (!pl) {
		gs_jw_null(w);
		return;
	}
	k = S_plan(tb, pl, &line);
	gs_jw_array(w);
	gs_jw_i64(w, amount);
	if (units)
		gs_jw_u64(w, *units);
	gs_jw_u64(w, k);
	if (!(line == row_line || (line && row_line && strcmp(line, row_line) == 0)))
		gs_jw_str(w, line);
	gs_jw_end(w);
	free(line);
}

static void S_setting(gs_jw *w, const char *key, uint64_t v, int def, const char *src)
{
	gs_jw_key(w, key);
	gs_jw_object(w);
	gs_jw_key(w, "default");
	gs_jw_bool(w, def);
	S_member_str(w, "source", def ? src : NULL);
	gs_jw_key(w, "value");
	gs_jw_u64(w, v);
	gs_jw_end(w);
}

/* The workload's runtime with every setting, stated or the version's default. */
static void S_runtime(gs_jw *w, const gs_workload *wl)
{
	gs_runtime_settings rs;

	gs_jw_key(w, "runtime");
	if (gs_runtime_settings_of(wl, &rs) != 0) {
		gs_jw_null(w);
		return;
	}
	gs_jw_object(w);
	S_member_str(w, "engine", rs.id == GS_ENGINE_SGLANG ? "sglang" : "vllm");
	if (rs.id == GS_ENGINE_VLLM) {
		/* `vllm serve` or the LLM class; the larger step budget's rule by
		 * the card (each lot's runtime gives its card's figure) */
		gs_jw_key(w, "entry_point");
		gs_jw_object(w);
		gs_jw_key(w, "default");
		gs_jw_bool(w, rs.entry_default);
		gs_jw_key(w, "value");
		gs_jw_str(w, rs.entry_llm ? "llm" : "serve");
		gs_jw_end(w);
		S_member_str(w, "max_num_batched_tokens_by_card", gs_runtime_mnbt_rule_text(&rs));
	}
	gs_jw_key(w, "settings");
	gs_jw_object(w);
	if (rs.id == GS_ENGINE_SGLANG) {
		/* chunked_prefill_size and cuda_graph_max_bs: 0 when by the card's
		 * memory, mem_fraction_static 0 when by the version's rule: each
		 * lot's runtime gives the card's figures */
		S_setting(w, "chunked_prefill_size", rs.chunked_prefill_size,
			  !rs.chunked_prefill_size, rs.mfs_source);
		S_setting(w, "cuda_graph_max_bs", rs.cuda_graph_max_bs, !rs.cuda_graph_max_bs,
			  rs.mfs_source);
		S_setting(w, "mem_fraction_static_permille", rs.mfs_permille, !rs.mfs_permille,
			  rs.mfs_source);
		S_setting(w, "page_size", rs.block_size, rs.block_default, rs.block_source);
	} else {
		S_setting(w, "block_size", rs.block_size, rs.block_default, rs.block_source);
		S_setting(w, "gpu_memory_utilization_permille", rs.util_permille, rs.util_default,
			  rs.util_source);
		S_setting(w, "max_num_batched_tokens", rs.max_num_batched_tokens, rs.mnbt_default,
			  rs.mnbt_source);
	}
	gs_jw_end(w);
	S_member_str(w, "version", rs.version);
	gs_jw_key(w, "version_given");
	gs_jw_bool(w, !rs.version_assumed);
	gs_jw_end(w);
}

/* A member whose value is a whole number when has, else null. */
static void S_opt_u64(gs_jw *w, const char *key, int has, uint64_t v)
{
	gs_jw_key(w, key);
	S_u64_or_null(w, has, v);
}

/* A quantity in a table's row: [bytes, provenance], [bytes, provenance,
 * true] when it rests on synthetic evidence, or null when missing. */
static void S_qty_cell(gs_jw *w, gs_qty q)
{
	if (!q.present) {
		gs_jw_null(w);
		return;
	}
	gs_jw_array(w);
	gs_jw_u64(w, q.bytes);
	gs_jw_str(w, gs_qty_prov_id(q.prov));
	if (q.synthetic)
		gs_jw_bool(w, 1);
	gs_jw_end(w);
}

/* The members of a row of "speeds", in order ("speed_fields"). */
static const char *const S_speed_fields[] = {
	"cards", "sequences", "bandwidth_bytes_per_second", "bytes_per_step",
	"decode_milli_per_sequence", "decode_milli_per_sequence_weights_only", "decode_milli_total",
	"prefill_milli", "time_to_first_token_micro", "source",
	"observed_per_sequence", "observed_total",
	"expected_milli_per_sequence", "expected_milli_total"
};

/* An observed speed of the workload's evidence and its bound, or null. */
static void S_speed_obs(gs_jw *w, int has, uint64_t milli, const char *text, const char *file,
			const char *source, uint64_t line, uint64_t bound, uint64_t ratio, int above)
{
	if (!has) {
		gs_jw_null(w);
		return;
	}
	gs_jw_object(w);
	gs_jw_key(w, "above_bound");
	gs_jw_bool(w, above);
	gs_jw_key(w, "as_printed");
	gs_jw_str(w, text);
	gs_jw_key(w, "bound_milli");
	gs_jw_u64(w, bound);
	gs_jw_key(w, "evidence");
	gs_jw_str(w, file);
	gs_jw_key(w, "line");
	gs_jw_u64(w, line);
	gs_jw_key(w, "milli");
	gs_jw_u64(w, milli);
	gs_jw_key(w, "provenance");
	gs_jw_str(w, "observed");
	gs_jw_key(w, "ratio_milli");
	gs_jw_u64(w, ratio);
	gs_jw_key(w, "source");
	if (source)
		gs_jw_str(w, source);
	else
		gs_jw_null(w);
	gs_jw_end(w);
}

/*
 * The calculated upper bounds of speed on the lot (docs/formats.md, 4.1),
 * speeds in thousandths of a token per second (rounded up), the first
 * token's time in microseconds (rounded down), as an index of the
 * "speeds" table; null without a bound. The cost of a million output
 * tokens at the bound is the candidate's.
 */
static void S_speed(gs_jw *w, S_tables *tb, const gs_candidate *c)
{
	const gs_speed *sp = &c->speed;
	gs_jw sub, src;

	if (!sp->known) {
		gs_jw_null(w);
		return;
	}
	S_sub_begin(&sub);
	gs_jw_array(&sub);
	gs_jw_u64(&sub, sp->load.cards);
	gs_jw_u64(&sub, sp->load.sequences);
	gs_jw_u64(&sub, sp->bw);
	gs_jw_u64(&sub, sp->bytes_per_step);
	gs_jw_u64(&sub, sp->decode_seq_milli);
	gs_jw_u64(&sub, sp->decode_weights_milli);
	gs_jw_u64(&sub, sp->decode_total_milli);
	S_u64_or_null(&sub, sp->has_prefill, sp->prefill_milli);
	S_u64_or_null(&sub, sp->has_ttft, sp->ttft_micro);
	/* an ambiguous name: the bound of the fastest variant it allows; the
	 * datasheet's words once, in "speed_sources" */
	S_sub_begin(&src);
	gs_jw_str(&src, gs_speed_source(sp));
	gs_jw_u64(&sub, S_table_add(&tb->speed_sources, &src));
	S_speed_obs(&sub, sp->has_obs_seq, sp->obs_seq_milli, sp->obs_seq_text, sp->obs_seq_file,
		    sp->obs_seq_source, sp->obs_seq_line, sp->obs_seq_bound_milli,
		    sp->obs_seq_ratio_milli, sp->obs_seq_above);
	S_speed_obs(&sub, sp->has_obs_total, sp->obs_total_milli, sp->obs_total_text,
		    sp->obs_total_file, sp->obs_total_source, sp->obs_total_line,
		    sp->obs_total_bound_milli, sp->obs_total_ratio_milli, sp->obs_total_above);
	/* assumed: the workload's speed_assumptions applied to the bound */
	S_u64_or_null(&sub, sp->has_expected, sp->expected_seq_milli);
	S_u64_or_null(&sub, sp->has_expected, sp->expected_total_milli);
	gs_jw_end(&sub);
	gs_jw_u64(w, S_table_add(&tb->speeds, &sub));
}

/*
 * The workload's speed_assumptions, or null: speculative decoding's most
 * tokens a step (draft tokens + 1: calculated, in every decode bound) and
 * the figures of the expected speeds (assumed), with their source.
 */
static void S_speed_assumptions(gs_jw *w, const gs_workload *wl)
{
	gs_jw_key(w, "speed_assumptions");
	if (!wl->has_decode_efficiency && !wl->spec_draft_tokens) {
		gs_jw_null(w);
		return;
	}
	gs_jw_object(w);
	S_opt_u64(w, "decode_efficiency_milli", wl->has_decode_efficiency, wl->decode_efficiency_milli);
	S_opt_u64(w, "draft_tokens", wl->spec_draft_tokens != 0, wl->spec_draft_tokens);
	S_member_str(w, "source", wl->speed_assumptions_source);
	S_opt_u64(w, "tokens_per_step_max", wl->spec_draft_tokens != 0, wl->spec_draft_tokens + 1);
	S_opt_u64(w, "tokens_per_step_milli", wl->has_spec_tokens_per_step,
		  wl->spec_tokens_per_step_milli);
	gs_jw_end(w);
}

/* The engine's budget on this offer's card, or null (docs/formats.md, 7) */
static void S_lot_runtime(gs_jw *w, const gs_candidate *c)
{
	if (!c->has_runtime) {
		gs_jw_null(w);
		return;
	}
	gs_jw_object(w);
	gs_jw_key(w, "budget_per_card");
	gs_jw_qty(w, c->capacity);
	gs_jw_key(w, "card_total");
	gs_jw_qty(w, c->card_total);
	S_opt_u64(w, "kv_blocks", c->rt_pool_known, c->rt.blocks);
	S_opt_u64(w, "kv_pool_bytes", c->rt_pool_known, c->rt.pool);
	S_opt_u64(w, "kv_tokens", c->rt_pool_known, c->rt.tokens);
	S_opt_u64(w, "max_concurrency_hundredths", c->rt_pool_known && c->rt.concurrency_hundredths,
		  c->rt.concurrency_hundredths);
	if (c->rt_engine == GS_ENGINE_VLLM) {
		/* the step budget on this card, and the profiling-step terms the
		 * need per card counts at it */
		gs_jw_key(w, "max_num_batched_tokens");
		gs_jw_u64(w, c->rt_mnbt);
		gs_jw_key(w, "profiling_step_bytes");
		gs_jw_u64(w, c->rt_step_then);
	}
	if (c->rt_engine == GS_ENGINE_SGLANG) {
		/* SGLang's mem_fraction_static on this card (0: the card is too
		 * small for its reserve), and the rule's figures when by the rule */
		gs_jw_key(w, "mem_fraction_static_permille");
		gs_jw_u64(w, c->rt_share.permille);
		gs_jw_key(w, "mem_fraction_static_unrounded");
		if (c->rt_share.unrounded) {
			gs_jw_array(w);
			gs_jw_u64(w, c->rt_share.num);
			gs_jw_u64(w, c->rt_share.den);
			gs_jw_end(w);
		} else {
			gs_jw_null(w);
		}
		S_opt_u64(w, "reserved_half_mib", c->rt_share.reserved_half_mib != 0,
			  c->rt_share.reserved_half_mib);
		S_opt_u64(w, "reserved_tenth_mib", c->rt_share.reserved_tenth_mib != 0,
			  c->rt_share.reserved_tenth_mib);
	}
	S_opt_u64(w, "short_bytes", c->rt_pool_known && c->rt.short_bytes, c->rt.short_bytes);
	gs_jw_end(w);
}

/* The members of a row of "gpus", in order ("gpu_fields"). */
static const char *const S_gpu_fields[] = {
	"gpu_model", "memory_figure_from", "nominal_bytes", "capacity_per_card", "capacity_source",
	"capacity_source_url", "capacity_from", "capacity_upper_per_card"
};

/* The card of a candidate and its memory figure, as an index of "gpus". */
static size_t S_gpu(S_tables *tb, const gs_candidate *c)
{
	gs_jw sub, *w = &sub;

	S_sub_begin(&sub);
	gs_jw_array(w);
	gs_jw_str(w, c->offer->gpu_model);
	/* where the catalog's memory figure comes from: a claim of the
	 * provider's file or page, or the vendor table; null without one */
	gs_jw_str(w, c->offer->memory_origin == GS_MEMORY_FROM_VENDOR ? "vendor_table"
		  : c->offer->memory_origin == GS_MEMORY_FROM_CATALOG ? "catalog_claim" : NULL);
	if (c->offer->memory_unknown)
		gs_jw_null(w);
	else
		gs_jw_u64(w, c->offer->nominal_bytes);
	S_qty_cell(w, c->capacity);
	/* a missing figure has no source */
	gs_jw_str(w, !c->capacity.present ? NULL
		  : c->cap_source == GS_CAP_OBSERVED ? "observed"
		  : c->cap_source == GS_CAP_DECLARED ? "declared"
		  : c->cap_source == GS_CAP_REPORTED ? "reported" : "nominal");
	/* where a reported total was read (a public log), or null */
	gs_jw_str(w, c->capacity.present && c->cap_source == GS_CAP_REPORTED && c->gpu
		  ? c->gpu->reported_source : NULL);
	/* the measurement whose device total is the capacity (observed), or null */
	gs_jw_str(w, c->cap_source == GS_CAP_OBSERVED && c->cap_from ? c->cap_from->ref->file : NULL);
	S_qty_cell(w, c->upper);
	gs_jw_end(w);
	return S_table_add(&tb->gpus, &sub);
}

/* The members of a row of "lots", in order ("lot_fields"). */
static const char *const S_lot_fields[] = {
	"gpu", "cards", "requirements", "need_per_card", "lower_bound_per_card", "margin", "headroom",
	"runtime", "speed"
};

/*
 * What a candidate shares with its equivalent offers (its card, their
 * number, the reasons of its requirements but the budget, the need
 * against its memory, its speed), as an index of the "lots" table.
 */
static size_t S_lot(S_tables *tb, const gs_sheet_reasonset *rs, const gs_candidate *c, size_t ci)
{
	gs_jw sub, *w = &sub;
	gs_qty mq;

	S_sub_begin(&sub);
	gs_jw_array(w);
	gs_jw_u64(w, S_gpu(tb, c));
	gs_jw_u64(w, c->offer->cards);
	gs_jw_u64(w, S_requirements(tb, rs, ci));
	S_qty_cell(w, c->need);
	S_qty_cell(w, c->lower);
	/* the margin (capacity - need, signed), its provenance the weaker of
	 * the capacity's and the need's */
	mq = gs_verdict_margin_prov(c->need, c->capacity);
	if (c->has_margin) {
		gs_jw_array(w);
		gs_jw_i64(w, (int64_t)c->margin);
		gs_jw_str(w, mq.present ? gs_qty_prov_id(mq.prov) : NULL);
		if (mq.present && mq.synthetic)
			gs_jw_bool(w, 1);
		gs_jw_end(w);
	} else {
		gs_jw_null(w);
	}
	if (c->has_headroom) {
		gs_jw_array(w);
		gs_jw_u64(w, c->headroom_sequences);
		gs_jw_u64(w, c->headroom_tokens);
		gs_jw_str(w, gs_qty_prov_id(c->headroom_prov));
		gs_jw_bool(w, c->headroom_without_reserve);
		if (c->headroom_synthetic)
			gs_jw_bool(w, 1);
		gs_jw_end(w);
	} else {
		gs_jw_null(w);
	}
	S_lot_runtime(w, c);
	S_speed(w, tb, c);
	gs_jw_end(w);
	return S_table_add(&tb->lots, &sub);
}

/* The members of a candidate's row, in order ("candidate_fields"). */
static const char *const S_fields[] = {
	"offer", "class", "lot", "budget", "total_cost", "on_demand", "interruptible",
	"cost_per_million_output_tokens", "line"
};

static void S_mtok(gs_jw *w, int has, int64_t micro)
{
	if (has)
		gs_jw_i64(w, micro);
	else
		gs_jw_null(w);
}

/* The line(s) of the source of a candidate's first price (the campaign's,
 * else on demand, else interruptible), or NULL; caller frees. */
static char *S_row_line(S_tables *tb, const gs_candidate *c)
{
	const gs_plan *pl = c->plan && c->plan->currency ? c->plan
			    : c->on_demand.plan ? c->on_demand.plan : c->interruptible.plan;
	char *line = NULL;

	if (pl)
		S_plan(tb, pl, &line);
	return line;
}

/* A candidate: a row of S_fields, on one line. */
static void S_candidate(gs_jw *w, S_tables *tb, const gs_sheet_input *in,
			const gs_sheet_reasonset *rs, size_t ci)
{
	const gs_candidate *c = &in->d->cands[ci];
	char *line = S_row_line(tb, c);

	gs_jw_array(w);
	gs_jw_str(w, c->offer->id);
	gs_jw_str(w, gs_verdict_class_id(c->cls));
	gs_jw_u64(w, S_lot(tb, rs, c, ci));
	gs_jw_u64(w, tb->m.rep[rs->of[ci * GS_REQ_COUNT + GS_REQ_BUDGET]]);
	if (c->plan && c->plan->currency) {
		uint64_t units = c->plan_units;
		S_price(w, tb, c->cost, &units, c->plan, line);
	} else {
		gs_jw_null(w);
	}
	S_price(w, tb, c->on_demand.micro_per_hour, NULL, c->on_demand.plan, line);
	S_price(w, tb, c->interruptible.micro_per_hour, NULL, c->interruptible.plan, line);
	if (c->speed.known) {
		gs_jw_array(w);
		S_mtok(w, c->has_mtok_on_demand, c->mtok_on_demand);
		S_mtok(w, c->has_mtok_interruptible, c->mtok_interruptible);
		gs_jw_end(w);
	} else {
		gs_jw_null(w);
	}
	gs_jw_str(w, line);
	gs_jw_end(w);
	free(line);
}

/* A row's member names: key, then the array of names. */
static void S_fields_write(gs_jw *w, const char *key, const char *const *f, size_t n)
{
	size_t i;

	gs_jw_key(w, key);
	gs_jw_array(w);
	for (i = 0; i < n; i++)
		gs_jw_str(w, f[i]);
	gs_jw_end(w);
}

#define S_FIELDS(w, key, f) S_fields_write(w, key, f, sizeof(f) / sizeof(f[0]))

/* "decision": the choice, the count of each class, the offer to take, the retained. */
static void S_decision(gs_jw *w, const gs_decision *d)
{
	size_t i;

	gs_jw_key(w, "decision");
	gs_jw_object(w);
	S_member_str(w, "choice", d->nretained ? d->cands[d->order[0]].offer->id : NULL);
	gs_jw_key(w, "classes");
	gs_jw_object(w);
	{
		/* the class ids in sorted order */
		static const gs_class sorted[GS_CLASS_COUNT] = {
			GS_CLASS_UNKNOWN, GS_CLASS_EXCLUDED, GS_CLASS_FITS,
			GS_CLASS_LOWER_FITS, GS_CLASS_UNSURE, GS_CLASS_REFERENCE,
			GS_CLASS_RETAINED
		};
		int k;
		for (k = 0; k < GS_CLASS_COUNT; k++) {
			gs_jw_key(w, gs_verdict_class_id(sorted[k]));
			gs_jw_u64(w, d->nclass[sorted[k]]);
		}
	}
	gs_jw_end(w);
	S_member_str(w, "kind", d->nretained ? "retained" : d->npreselected ? "preselection" : "none");
	{
		const gs_candidate *b = gs_verdict_best(d);
		S_member_str(w, "offer_to_take", b ? b->offer->id : NULL);
	}
	/* the preselected offers are the candidates of no class but
	 * excluded, reference and retained, in order (schema 5: not
	 * listed again here) */
	gs_jw_key(w, "retained");
	gs_jw_array(w);
	for (i = 0; i < d->ncands; i++) {
		const gs_candidate *c = &d->cands[d->order[i]];
		if (c->retained && c->offer->id)
			gs_jw_str(w, c->offer->id);
	}
	gs_jw_end(w);
	gs_jw_end(w);
}

/* "evidence": each file of evidence linked from the sheet. */
static void S_evidence(gs_jw *w, const gs_sheet_input *in)
{
	size_t i;

	gs_jw_key(w, "evidence");
	gs_jw_array(w);
	for (i = 0; i < in->nev; i++) {
		if (!in->ev[i].ref->file || !in->ev_links[i])
			continue;
		gs_jw_object(w);
		S_member_str(w, "covers", in->ev[i].ref->covers);
		S_member_str(w, "file", in->ev[i].ref->file);
		S_member_str(w, "link", in->ev_links[i]);
		gs_jw_key(w, "synthetic");
		gs_jw_bool(w, in->ev[i].m->synthetic);
		gs_jw_end(w);
	}
	gs_jw_end(w);
}

/*
 * sizing.kv_dtype: the cache dtype the workload names (cache.dtype,
 * kvdtype.h), its width as blocks (a plain dtype: 1 value of its bytes)
 * and the bytes one token adds to a sequence's cache on the layers that
 * keep every token (all of them for a uniform cache), calculated.
 */
static void S_kv_dtype(gs_jw *w, const gs_sizing *s, const gs_workload *wl)
{
	const gs_kvdtype *t = wl->cache_dtype;

	gs_jw_key(w, "kv_dtype");
	gs_jw_object(w);
	gs_jw_key(w, "block_bytes");
	gs_jw_u64(w, t->block_bytes);
	gs_jw_key(w, "block_values");
	gs_jw_u64(w, t->block_values);
	gs_jw_key(w, "bytes_per_token");
	gs_jw_qty(w, gs_qty_make(s->kv_per_token, GS_PROV_CALCULATED));
	S_member_str(w, "dtype", t->name);
	S_member_str(w, "source", t->source);
	gs_jw_end(w);
}

/* "sizing": the memory figures, the training recipe, where the weights were read. */
static void S_sizing(gs_jw *w, const gs_sizing *s, const gs_workload *wl)
{
	gs_jw_key(w, "sizing");
	gs_jw_object(w);
	gs_jw_key(w, "envelope");
	gs_jw_qty(w, s->envelope);
	gs_jw_key(w, "kv_cache");
	gs_jw_qty(w, s->kv);
	if (wl->cache_dtype && s->kv.present && s->kv_per_token)
		S_kv_dtype(w, s, wl);
	gs_jw_key(w, "need");
	gs_jw_qty(w, s->need);
	gs_jw_key(w, "reserve");
	gs_jw_qty(w, s->reserve);
	gs_jw_key(w, "training");
	gs_jw_qty(w, s->training);
	if (s->has_train)
		S_training_recipe(w, wl, &s->train);
	gs_jw_key(w, "weights");
	gs_jw_qty(w, s->weights);
	if (wl->weights_source) {
		/* the files the weights were read from ("model": {"from": ...}) */
		gs_jw_key(w, "weights_source");
		gs_jw_object(w);
		S_member_str(w, "files", wl->weights_source);
		S_member_str(w, "read_from", wl->weights_from_index ? "index metadata.total_size"
								   : "checkpoint headers");
		gs_jw_end(w);
	}
	gs_jw_key(w, "weights_theoretical");
	gs_jw_bool(w, s->theoretical);
	gs_jw_end(w);
}

/* "workload": what the sheet sizes, by its id, model, task and title. */
static void S_workload(gs_jw *w, const gs_workload *wl)
{
	gs_jw_key(w, "workload");
	gs_jw_object(w);
	S_member_str(w, "id", wl->id);
	S_member_str(w, "model", wl->model_name);
	S_member_str(w, "task", gs_workload_task_id(wl->task));
	S_member_str(w, "title", wl->title);
	gs_jw_end(w);
}

/*
 * The decision JSON, written as it goes (gs_jw), every object's keys in
 * sorted order (docs/formats.md lists them). What a NULL string would do
 * to jansson's tree, which this writer replaced, is kept: a member or an
 * element built from it is left out.
 */
char *gs_render_decision_json(const gs_sheet_input *in)
{
	const gs_decision *d = in->d;
	const gs_sizing *s = in->s;
	const gs_workload *wl = in->w;
	gs_sheet_reasonset own;
	const gs_sheet_reasonset *rs = in->rs;
	gs_jw w;
	S_tables tb;
	size_t i;

	/* each distinct reason once ("reasons"), each verdict with its index */
	if (!rs) {
		gs_sheet_reasons_set_build(in, &own);
		rs = &own;
	}
	memset(&tb, 0, sizeof(tb));
	gs_sheet_reasons_merge(in, rs, &tb.m);
	/* each candidate, reason and table entry on one line (docs/formats.md) */
	gs_jw_init_flat(&w, 3);
	gs_jw_object(&w);
	gs_jw_key(&w, "accept_synthetic");
	gs_jw_bool(&w, d->accept_synthetic);
	S_FIELDS(&w, "candidate_fields", S_fields);
	gs_jw_key(&w, "candidates");
	gs_jw_array(&w);
	for (i = 0; i < d->ncands; i++) {
		const gs_candidate *c = &d->cands[d->order[i]];
		if (c->offer->id && c->offer->gpu_model)
			S_candidate(&w, &tb, in, rs, d->order[i]);
	}
	gs_jw_end(&w);
	if (in->catalog_name)
		S_member_str(&w, "catalog", in->catalog_name);
	S_member_str(&w, "date", in->date);
	if (!d->nretained || d->cands[d->order[0]].offer->id)
		S_decision(&w, d);
	gs_jw_key(&w, "demonstration");
	gs_jw_bool(&w, d->demonstration);
	S_evidence(&w, in);
	S_member_str(&w, "generator", "gpusheet " GS_VERSION);
	S_FIELDS(&w, "gpu_fields", S_gpu_fields);
	S_table_write(&w, "gpus", &tb.gpus);
	S_member_str(&w, "lang", gs_tr_lang_id(in->t->lang));
	S_FIELDS(&w, "lot_fields", S_lot_fields);
	S_table_write(&w, "lots", &tb.lots);
	S_table_write(&w, "plans", &tb.plans);
	S_FIELDS(&w, "reason_fields", S_reason_fields);
	gs_jw_key(&w, "reasons");
	S_reasons(&w, rs, &tb.m);
	gs_sheet_reasons_merge_release(&tb.m);
	if (rs == &own)
		gs_sheet_reasons_set_release(&own);
	S_FIELDS(&w, "requirement_fields", S_req_fields);
	S_table_write(&w, "requirements", &tb.requirements);
	S_runtime(&w, in->w);
	S_member_str(&w, "schema", "gpusheet-decision");
	gs_jw_key(&w, "schema_version");
	gs_jw_i64(&w, 7);
	S_sizing(&w, s, wl);
	S_speed_assumptions(&w, wl);
	S_FIELDS(&w, "speed_fields", S_speed_fields);
	S_table_write(&w, "speed_sources", &tb.speed_sources);
	S_table_write(&w, "speeds", &tb.speeds);
	gs_jw_key(&w, "synthetic_evidence");
	gs_jw_bool(&w, d->synthetic);
	if (wl->id && wl->title && wl->model_name)
		S_workload(&w, wl);
	gs_jw_end(&w);
	return gs_jw_finish(&w);
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
		if (c->excluded || c->cls == GS_CLASS_REFERENCE || (d->nretained && !c->retained))
			continue;
		p = gs_doc_item(list);
		gs_doc_code(p, c->offer->id);
		gs_doc_textf(p, " %s", gs_tr(t, c->retained ? "overall.retained" : "overall.preselected"));
		gs_doc_textf(p, " (%s)", gs_tr(t, gs_sheet_words_class_key(c->cls)));
		for (r = 0; r < GS_REQ_COUNT; r++)
			if (c->v[r].kind == GS_V_TO_CONFIRM) {
				gs_doc_textf(p, "%s%s", k++ ? ", " : gs_tr(t, "summary.to_confirm"),
					     gs_sheet_words_req_label(t, (gs_req)r));
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
					     gs_sheet_words_req_label(t, (gs_req)r));
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
	out = gs_doc_md_render(&doc);
	gs_doc_release(&doc);
	return out;
}
