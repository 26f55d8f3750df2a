/* cmd_model: `gpusheet model PATH|ORG/NAME[@REVISION]`, the model's geometry and weights from its files. */
#define _DEFAULT_SOURCE
#include <getopt.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "jsonout.h"
#include "model.h"
#include "quantity.h"
#include "sizing.h"
#include "labels.h"
#include "suggest.h"
#include "util.h"

static int S_usage(const char *msg)
{
	fprintf(stderr, "gpusheet model: %s (see gpusheet --help)\n", msg);
	return GS_EXIT_USAGE;
}

/* ---- JSON ---- */

static json_t *S_opt_uint(int has, uint64_t v)
{
	return has ? gs_jw_new_u64(v) : json_null();
}

static json_t *S_strvec_json(const gs_strvec *v)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; i < v->n; i++)
		json_array_append_new(a, json_string(v->v[i]));
	return a;
}

/* The cache's values are the model's dtype: its bytes, or 2 (assumed 16-bit). */
static uint64_t S_cache_bpv(const gs_model *m, int *assumed)
{
	*assumed = m->torch_dtype_bits == 0;
	return m->torch_dtype_bits ? m->torch_dtype_bits / 8 : 2;
}

/* One sequence's cache at tokens, as engine keeps it; -1 when it does not fit. */
static int S_cost(const gs_model *m, const char *engine, uint64_t tokens, gs_cache_cost *c)
{
	int assumed;

	return gs_sizing_cache_engine(m->layout, m->nlayout, engine, S_cache_bpv(m, &assumed),
				      tokens, c);
}

static json_t *S_cache_json(const gs_model *m)
{
	json_t *o, *groups = json_array(), *eng = json_object();
	gs_cache_cost c;
	uint64_t bpv;
	int assumed;
	size_t i, e;

	if (!m->nlayout) {
		json_decref(groups);
		json_decref(eng);
		return json_null();
	}
	for (i = 0; i < m->nlayout; i++)
		json_array_append_new(groups, gs_kvlayout_group_json(&m->layout[i]));
	for (e = 0; gs_sizing_cache_engines[e]; e++) {
		const char *n = gs_sizing_cache_engines[e];
		json_t *x = json_object();
		if (S_cost(m, n, 1, &c) == 0) {
			json_object_set_new(x, "bytes_per_token", gs_jw_new_u64(c.per_token));
			json_object_set_new(x, "state_bytes_per_sequence", gs_jw_new_u64(c.state));
		}
		if (S_cost(m, n, 32768, &c) == 0)
			json_object_set_new(x, "bytes_per_sequence_at_32768", gs_jw_new_u64(c.bytes));
		if (m->has_context && S_cost(m, n, m->context, &c) == 0)
			json_object_set_new(x, "bytes_per_sequence_at_context", gs_jw_new_u64(c.bytes));
		json_object_set_new(eng, n, x);
	}
	/* the width first: json_pack's arguments are evaluated in no set order */
	bpv = S_cache_bpv(m, &assumed);
	o = json_pack("{s:o,s:o,s:b,s:o}", "layout", groups, "bytes_per_value",
		      gs_jw_new_u64(bpv), "bytes_per_value_assumed", assumed, "engines", eng);
	return o;
}

static json_t *S_model_json(const gs_model *m)
{
	json_t *j = json_object(), *g = json_object(), *w = json_object(), *rows = json_array();
	uint64_t p;
	size_t i;

	json_object_set_new(j, "command", json_string("model"));
	json_object_set_new(j, "path", json_string(m->path));
	json_object_set_new(j, "hub", m->repo_id ? json_pack("{s:s,s:s,s:s,s:s}", "repo_id",
			    m->repo_id, "revision", m->revision, "commit", m->commit, "snapshot",
			    m->folder) : json_null());
	if (m->ollama)
		/* Ollama's store: the manifest, and the blob checked against it */
		json_object_set_new(j, "ollama", json_pack("{s:s,s:s,s:s,s:b}", "name", m->ollama,
				    "manifest", m->ollama_manifest, "blobs", m->folder,
				    "sha256_checked", 1));
	json_object_set_new(j, "architecture", m->architecture ? json_string(m->architecture) : json_null());
	json_object_set_new(j, "covered", json_boolean(m->arch != GS_ARCH_UNKNOWN));
	json_object_set_new(g, "source", m->geometry_file ? json_string(m->geometry_file) : json_null());
	json_object_set_new(g, "layers", S_opt_uint(m->has_layers, m->layers));
	json_object_set_new(g, "attention_heads", S_opt_uint(m->has_attention_heads, m->attention_heads));
	json_object_set_new(g, "kv_heads", S_opt_uint(m->has_kv_heads, m->kv_heads));
	json_object_set_new(g, "head_dim", S_opt_uint(m->has_head_dim, m->head_dim));
	json_object_set_new(g, "hidden_size", S_opt_uint(m->has_hidden, m->hidden));
	json_object_set_new(g, "intermediate_size", S_opt_uint(m->has_intermediate, m->intermediate));
	json_object_set_new(g, "vocabulary", S_opt_uint(m->has_vocab, m->vocab));
	json_object_set_new(g, "context_length", S_opt_uint(m->has_context, m->context));
	json_object_set_new(g, "sliding_window", S_opt_uint(m->has_sliding_window, m->sliding_window));
	json_object_set_new(g, "sliding_pattern", m->sliding_pattern
			    ? json_string(m->sliding_pattern) : json_null());
	json_object_set_new(g, "sliding_layers", S_opt_uint(m->sliding_layers > 0,
							      m->sliding_layers));
	json_object_set_new(g, "experts", S_opt_uint(m->has_experts, m->experts));
	json_object_set_new(g, "experts_active", S_opt_uint(m->has_experts, m->experts_active));
	json_object_set_new(g, "tied_embeddings", m->tied < 0 ? json_null() : json_boolean(m->tied));
	json_object_set_new(g, "torch_dtype", m->torch_dtype ? json_string(m->torch_dtype) : json_null());
	json_object_set_new(g, "found_keys", S_strvec_json(&m->found_keys));
	json_object_set_new(g, "missing_keys", S_strvec_json(&m->missing_keys));
	json_object_set_new(g, "experts_shared", S_opt_uint(m->has_experts, m->experts_shared));
	json_object_set_new(g, "moe_intermediate_size", S_opt_uint(m->has_experts, m->moe_intermediate));
	json_object_set_new(g, "moe_layers", S_opt_uint(m->has_experts && m->entry, m->moe_layers));
	json_object_set_new(g, "quant_method", m->quant_method ? json_string(m->quant_method)
									: json_null());
	json_object_set_new(j, "geometry", g);
	json_object_set_new(j, "active_parameters", S_opt_uint(m->has_active_params, m->active_params));
	json_object_set_new(j, "vision_parameters", S_opt_uint(m->has_vision == 1, m->vision_params));
	json_object_set_new(j, "not_counted", m->params_note
			    ? json_pack("{s:s,s:o}", "what", m->params_note, "parameters",
					S_opt_uint(m->has_params_note_value, m->params_note_value))
			    : json_null());
	json_object_set_new(j, "cache", S_cache_json(m));
	json_object_set_new(j, "parameters_from_geometry",
			    S_opt_uint(m->has_config_params, m->config_params));
	json_object_set_new(j, "parameters_from_headers",
			    S_opt_uint(m->has_header_params, m->header_params));
	json_object_set_new(j, "parameters", gs_model_params(m, &p) == 0
			    ? gs_jw_new_u64(p) : json_null());
	for (i = 0; i < m->ndtypes; i++)
		json_array_append_new(rows, json_pack("{s:s,s:o,s:o,s:o,s:o,s:o}",
			"type", m->dtypes[i].name, "tensors", gs_jw_new_u64(m->dtypes[i].tensors),
			"parameters", gs_jw_new_u64(m->dtypes[i].params),
			"bytes", gs_jw_new_u64(m->dtypes[i].bytes),
			"values_per_block", gs_jw_new_u64(m->dtypes[i].block),
			"bytes_per_block", gs_jw_new_u64(m->dtypes[i].block_bytes)));
	json_object_set_new(w, "source", json_string(m->weights == GS_WEIGHTS_INDEX ? "index"
		: m->weights == GS_WEIGHTS_SAFETENSORS ? "safetensors headers"
		: m->weights == GS_WEIGHTS_GGUF ? "gguf header" : "none"));
	json_object_set_new(w, "files", S_strvec_json(&m->weight_files));
	json_object_set_new(w, "index", m->index_file ? json_string(m->index_file) : json_null());
	json_object_set_new(w, "missing_shards", S_strvec_json(&m->missing_shards));
	json_object_set_new(w, "bytes", m->weights != GS_WEIGHTS_NONE
			    ? gs_jw_new_u64(m->weight_bytes) : json_null());
	json_object_set_new(w, "provenance", json_string(m->weights != GS_WEIGHTS_NONE
			    ? "calculated" : "missing"));
	json_object_set_new(w, "per_type", rows);
	json_object_set_new(w, "buffers", S_strvec_json(&m->buffers));
	json_object_set_new(w, "gguf_version", m->gguf_version
			    ? json_integer(m->gguf_version) : json_null());
	json_object_set_new(j, "weights", w);
	return j;
}

/* ---- text ---- */

static void S_size(const gs_strings *t, uint64_t bytes)
{
	char a[GS_FMT_MAX], b[GS_FMT_MAX], c[GS_FMT_MAX];

	printf("%s %s = %s = %s", gs_qty_fmt_int(a, bytes, t->lang), gs_tr(t, "unit.bytes"),
	       gs_qty_fmt_gb(b, bytes, t->lang), gs_qty_fmt_gib(c, bytes, t->lang));
}

static void S_line(const gs_strings *t, const char *key, int has, uint64_t v)
{
	char a[GS_FMT_MAX];

	if (has)
		printf("  %s: %s\n", gs_tr(t, key), gs_qty_fmt_int(a, v, t->lang));
	else
		printf("  %s: %s\n", gs_tr(t, key), gs_tr(t, "model.missing"));
}

static void S_print_list(const gs_strvec *v)
{
	size_t i;

	for (i = 0; i < v->n; i++)
		printf("%s%s", i ? ", " : "", v->v[i]);
	printf("\n");
}

static void S_geometry(const gs_strings *t, const gs_model *m)
{
	char a[GS_FMT_MAX], b[GS_FMT_MAX], c[GS_FMT_MAX], a2[GS_FMT_MAX], b2[GS_FMT_MAX];

	printf("%s: %s", gs_tr(t, "model.architecture"),
	       m->architecture ? m->architecture : gs_tr(t, "model.missing"));
	if (m->model_type)
		printf(" (model_type %s)", m->model_type);
	printf("\n");
	if (!m->geometry_file) {
		printf("%s\n", gs_tr(t, "model.no_geometry"));
		if (m->missing_keys.n) {
			printf("  %s: ", gs_tr(t, "model.keys_missing"));
			S_print_list(&m->missing_keys);
		}
		return;
	}
	if (m->arch == GS_ARCH_UNKNOWN && m->weights != GS_WEIGHTS_GGUF)
		printf("%s\n", gs_tr(t, "model.not_covered"));
	printf("%s %s:\n", gs_tr(t, "model.geometry"), m->geometry_file);
	S_line(t, "model.layers", m->has_layers, m->layers);
	S_line(t, "model.attention_heads", m->has_attention_heads, m->attention_heads);
	S_line(t, "model.kv_heads", m->has_kv_heads, m->kv_heads);
	if (m->has_head_dim && !m->head_dim_explicit)
		printf("  %s: %s (%s / %s)\n", gs_tr(t, "model.head_dim"),
		       gs_qty_fmt_int(a, m->head_dim, t->lang), gs_qty_fmt_int(b, m->hidden, t->lang),
		       gs_qty_fmt_int(c, m->attention_heads, t->lang));
	else
		S_line(t, "model.head_dim", m->has_head_dim, m->head_dim);
	if (m->kv_lora_rank)
		printf("  MLA: q_lora_rank %s, kv_lora_rank %s, qk_nope_head_dim %s, "
		       "qk_rope_head_dim %s, v_head_dim %s (%s)\n",
		       gs_qty_fmt_int(a, m->q_lora_rank, t->lang),
		       gs_qty_fmt_int(b, m->kv_lora_rank, t->lang),
		       gs_qty_fmt_int(c, m->qk_nope_head_dim, t->lang),
		       gs_qty_fmt_int(a2, m->qk_rope_head_dim, t->lang),
		       gs_qty_fmt_int(b2, m->v_head_dim, t->lang), gs_tr(t, "model.mla_head_dim"));
	S_line(t, "model.hidden", m->has_hidden, m->hidden);
	S_line(t, "model.intermediate", m->has_intermediate, m->intermediate);
	S_line(t, "model.vocab", m->has_vocab, m->vocab);
	S_line(t, "model.context", m->has_context, m->context);
	if (m->has_sliding_window) {
		char *k = gs_xasprintf("model.pattern.%s", m->sliding_pattern);
		printf("  %s: %s (", gs_tr(t, "model.sliding_window"),
		       gs_qty_fmt_int(a, m->sliding_window, t->lang));
		if (m->sliding_layers && strcmp(m->sliding_pattern, "layer_types") == 0)
			printf("%s / %s ", gs_qty_fmt_int(b, m->sliding_layers, t->lang),
			       gs_qty_fmt_int(c, m->layers, t->lang));
		printf("%s)\n", gs_tr(t, k));
		free(k);
	}
	else
		printf("  %s: %s\n", gs_tr(t, "model.sliding_window"),
		       /* absent from a covered config.json: none; elsewhere: not said */
		       gs_tr(t, m->arch != GS_ARCH_UNKNOWN && m->config_file ? "model.none"
									      : "model.missing"));
	if (m->has_experts)
		printf("  %s: %s, %s %s\n", gs_tr(t, "model.experts"),
		       gs_qty_fmt_int(a, m->experts, t->lang), gs_qty_fmt_int(b, m->experts_active, t->lang),
		       gs_tr(t, "model.experts_active"));
	if (m->has_experts && m->entry)
		printf("  %s: %s; %s: %s\n", gs_tr(t, "model.experts_shared"),
		       gs_qty_fmt_int(a, m->experts_shared, t->lang), gs_tr(t, "model.moe_layers"),
		       gs_qty_fmt_int(b, m->moe_layers, t->lang));
	if (m->tied >= 0)
		printf("  %s: %s%s\n", gs_tr(t, "model.tied"),
		       gs_tr(t, m->tied ? "model.yes" : "model.no"),
		       m->tied_default ? gs_tr(t, "model.arch_default") : "");
	if (m->torch_dtype)
		printf("  torch_dtype: %s\n", m->torch_dtype);
	if (m->quant_method)
		printf("  quantization_config.quant_method: %s\n", m->quant_method);
	if (m->quant_bits)
		printf("  quantization_config bits: %llu\n", (unsigned long long)m->quant_bits);
	if (m->quant_group)
		printf("  quantization_config group size: %llu\n",
		       (unsigned long long)m->quant_group);
	if (m->quant_block_rows)
		printf("  quantization_config weight blocks: %llu x %llu\n",
		       (unsigned long long)m->quant_block_rows,
		       (unsigned long long)m->quant_block_cols);
	if (m->quant_kept.n) {
		printf("  quantization_config modules kept in another format: ");
		S_print_list(&m->quant_kept);
	}
	if (m->missing_keys.n) {
		printf("  %s: ", gs_tr(t, "model.keys_found"));
		S_print_list(&m->found_keys);
		printf("  %s: ", gs_tr(t, "model.keys_missing"));
		S_print_list(&m->missing_keys);
	}
}

static void S_dtype_table(const gs_strings *t, const gs_model *m)
{
	char a[GS_FMT_MAX], b[GS_FMT_MAX], c[GS_FMT_MAX], e[GS_FMT_MAX];
	size_t i;

	printf("\n| %s | %s | %s | %s | %s | %s |\n", gs_tr(t, "model.col_type"),
	       gs_tr(t, "model.col_block"), gs_tr(t, "model.col_tensors"),
	       gs_tr(t, "model.col_params"), gs_tr(t, "col.weights_bytes"),
	       gs_tr(t, "col.weights_gib"));
	printf("|---|---:|---:|---:|---:|---:|\n");
	for (i = 0; i < m->ndtypes; i++) {
		const gs_model_dtype *r = &m->dtypes[i];
		printf("| %s | %llu / %llu B | %s | %s | %s | %s |\n", r->name,
		       (unsigned long long)r->block, (unsigned long long)r->block_bytes,
		       gs_qty_fmt_int(a, r->tensors, t->lang), gs_qty_fmt_int(b, r->params, t->lang),
		       gs_qty_fmt_int(c, r->bytes, t->lang), gs_qty_fmt_fixed2(e, r->bytes, GS_GIB, t->lang));
	}
}

/*
 * A quantized GGUF against parameters x the nominal width of its main
 * quantized type (the digit of its name: Q4_K 4, IQ2_XXS 2, Q8_0 8): the
 * file holds more, the blocks' scales and the tensors kept in other types.
 */
static void S_compare_nominal(const gs_strings *t, const gs_model *m)
{
	const gs_model_dtype *q = NULL;
	const char *d;
	char a[GS_FMT_MAX], b[GS_FMT_MAX];
	unsigned bits;
	uint64_t nominal;
	size_t i;

	for (i = 0; i < m->ndtypes; i++)
		if (m->dtypes[i].block > 1 && (!q || m->dtypes[i].bytes > q->bytes))
			q = &m->dtypes[i];
	for (d = q->name; *d && !(*d >= '0' && *d <= '9'); d++)
		;
	if (!*d)
		return;
	bits = (unsigned)(*d - '0');
	if (gs_sizing_weights_bytes(m->header_params, bits, &nominal))
		return;
	printf("%s: %s x %u / 8 (%s %s) = ", gs_tr(t, "model.compare"),
	       gs_qty_fmt_int(a, m->header_params, t->lang), bits, gs_tr(t, "model.nominal_of"),
	       q->name);
	S_size(t, nominal);
	printf("\n");
	if (m->weight_bytes > nominal)
		printf("  %s %s %s %s\n", gs_tr(t, "model.file_holds_more"),
		       gs_qty_fmt_int(b, m->weight_bytes - nominal, t->lang), gs_tr(t, "unit.bytes"),
		       gs_tr(t, "model.nominal_why"));
}

/* Weights read against parameters x bits: equal, or where they differ and why. */
static void S_compare(const gs_strings *t, const gs_model *m)
{
	char a[GS_FMT_MAX], b[GS_FMT_MAX], c[GS_FMT_MAX];
	uint64_t params, simple;
	unsigned bits = m->torch_dtype_bits;
	const gs_model_dtype *main = gs_model_main_dtype(m);

	if (m->weights == GS_WEIGHTS_GGUF && m->header_params > 0) {
		size_t i;
		int blocks = 0;
		uint64_t bits8;
		/* bytes x 8 / parameters, two decimals rounded half up */
		if (gs_qty_mul_u64(m->weight_bytes, 8, &bits8) == 0)
			printf("\n%s: %s (%s)\n", gs_tr(t, "model.effective_bits"),
			       gs_qty_fmt_fixed2(a, bits8, m->header_params, t->lang),
			       gs_tr(t, "model.effective_bits_how"));
		for (i = 0; i < m->ndtypes; i++)
			blocks |= m->dtypes[i].block > 1;
		if (blocks) {
			printf("%s\n", gs_tr(t, "model.gguf_not_theoretical"));
			S_compare_nominal(t, m);
		}
		return;
	}
	if (!bits && main && m->weights == GS_WEIGHTS_SAFETENSORS)
		bits = (unsigned)(main->block_bytes * 8);
	if (!bits || gs_model_params(m, &params) || gs_sizing_weights_bytes(params, bits, &simple) ||
	    m->weights == GS_WEIGHTS_NONE)
		return;
	printf("\n%s: %s x %u / 8 = ", gs_tr(t, "model.compare"),
	       gs_qty_fmt_int(a, params, t->lang), bits);
	S_size(t, simple);
	printf("\n");
	if (simple == m->weight_bytes) {
		printf("  %s\n", gs_tr(t, "model.compare_equal"));
	} else {
		uint64_t diff = simple > m->weight_bytes ? simple - m->weight_bytes
							 : m->weight_bytes - simple;
		printf("  %s %s %s.", gs_tr(t, "model.compare_differ"), gs_qty_fmt_int(b, diff, t->lang),
		       gs_tr(t, "unit.bytes"));
		if (m->ndtypes > 1)
			printf(" %s", gs_tr(t, "model.compare_mixed"));
		printf("\n");
	}
	if (m->has_config_params && m->has_header_params && m->config_params != m->header_params) {
		uint64_t d = m->config_params > m->header_params
			? m->config_params - m->header_params : m->header_params - m->config_params;
		printf("  %s %s, %s %s: %s %s.\n", gs_tr(t, "model.params_geometry"),
		       gs_qty_fmt_int(a, m->config_params, t->lang), gs_tr(t, "model.params_headers"),
		       gs_qty_fmt_int(b, m->header_params, t->lang), gs_tr(t, "model.params_differ"),
		       gs_qty_fmt_int(c, d, t->lang));
		if (m->buffers.n) {
			printf("  %s %s (%s): ", gs_tr(t, "model.buffers"),
			       gs_qty_fmt_int(a, m->buffer_params, t->lang), gs_tr(t, "model.values"));
			S_print_list(&m->buffers);
		}
	}
}

/* The cache per layer kind, and one sequence's bytes as each runtime keeps them. */
static void S_cache(const gs_strings *t, const gs_model *m)
{
	char a[GS_FMT_MAX], b[GS_FMT_MAX];
	static const char *const rows[] = { "model.cache_per_token", "model.cache_state",
					    "model.cache_at_32k", "model.cache_at_context" };
	uint64_t bpv, tokens[4] = { 1, 1, 32768, m->context }, v;
	gs_cache_cost c;
	int assumed;
	size_t i, e, k;

	if (!m->nlayout)
		return;
	bpv = S_cache_bpv(m, &assumed);
	printf("\n%s (%s, %s %s; %llu B %s%s):\n", gs_tr(t, "model.cache_layout"),
	       gs_tr(t, "prov.calculated"), gs_tr(t, "model.read_from"), m->geometry_file,
	       (unsigned long long)bpv, gs_tr(t, "model.cache_per_value"),
	       assumed ? gs_tr(t, "model.cache_bpv_assumed") : "");
	for (i = 0; i < m->nlayout; i++) {
		const gs_kv_group *g = &m->layout[i];
		const char *const *keys = gs_kvlayout_kind_keys(g->kind);
		gs_kv_group copy = *g;
		printf("  %s x %s", gs_qty_fmt_int(a, g->layers, t->lang), gs_kvlayout_kind_id(g->kind));
		for (k = 0; keys[k]; k++)
			printf("%s %s %s", k ? "," : ":", keys[k],
			       gs_qty_fmt_int(b, *gs_kvlayout_field(&copy, keys[k]), t->lang));
		printf("\n");
	}
	printf("\n| %s |", gs_tr(t, "model.cache_col"));
	for (e = 0; gs_sizing_cache_engines[e]; e++)
		printf(" %s (B) |", gs_sizing_cache_engines[e]);
	printf("\n|---|");
	for (e = 0; gs_sizing_cache_engines[e]; e++)
		printf("---:|");
	printf("\n");
	for (i = 0; i < 4; i++) {
		if (i == 3 && !m->has_context)
			continue;
		printf("| %s", gs_tr(t, rows[i]));
		if (i == 3)
			printf(" (%s)", gs_qty_fmt_int(a, m->context, t->lang));
		printf(" |");
		for (e = 0; gs_sizing_cache_engines[e]; e++) {
			if (S_cost(m, gs_sizing_cache_engines[e], tokens[i], &c)) {
				printf(" %s |", gs_tr(t, "model.missing"));
				continue;
			}
			v = i == 0 ? c.per_token : i == 1 ? c.state : c.bytes;
			printf(" %s |", gs_qty_fmt_int(a, v, t->lang));
		}
		printf("\n");
	}
	printf("%s\n", gs_tr(t, "model.cache_how"));
}

/* Active parameters, the vision tower, what the count leaves out. */
static void S_counts(const gs_strings *t, const gs_model *m)
{
	char a[GS_FMT_MAX], b[GS_FMT_MAX];

	if (m->has_vision == 1)
		printf("%s (%s): %s\n", gs_tr(t, "model.vision"), gs_tr(t, "prov.calculated"),
		       gs_qty_fmt_int(a, m->vision_params, t->lang));
	if (m->has_active_params)
		printf("%s (%s): %s %s %s\n", gs_tr(t, "model.active"), gs_tr(t, "prov.calculated"),
		       gs_qty_fmt_int(a, m->active_params, t->lang), gs_tr(t, "model.active_of"),
		       gs_qty_fmt_int(b, m->config_params, t->lang));
	if (m->params_note) {
		printf("%s: %s", gs_tr(t, "model.not_counted"), m->params_note);
		if (m->has_params_note_value)
			printf(" (%s %s)", gs_qty_fmt_int(a, m->params_note_value, t->lang),
			       gs_tr(t, "model.parameters_word"));
		printf("\n");
	}
}

static void S_weights(const gs_strings *t, const gs_model *m)
{
	char a[GS_FMT_MAX];
	uint64_t p;
	size_t i;

	printf("\n");
	if (m->has_header_params)
		printf("%s (%s, %s): %s\n", gs_tr(t, "model.parameters"), gs_tr(t, "prov.calculated"),
		       gs_tr(t, "model.from_headers"), gs_qty_fmt_int(a, m->header_params, t->lang));
	else if (gs_model_params(m, &p) == 0)
		printf("%s (%s, %s %s): %s\n", gs_tr(t, "model.parameters"),
		       gs_tr(t, "prov.calculated"), gs_tr(t, "model.from_geometry"),
		       m->geometry_file, gs_qty_fmt_int(a, p, t->lang));
	else
		printf("%s: %s\n", gs_tr(t, "model.parameters"), gs_tr(t, "model.missing"));
	if (m->has_header_params && m->has_config_params)
		printf("%s %s: %s\n", gs_tr(t, "model.params_geometry_line"), m->geometry_file,
		       gs_qty_fmt_int(a, m->config_params, t->lang));
	S_counts(t, m);

	switch (m->weights) {
	case GS_WEIGHTS_NONE:
		printf("%s: %s\n", gs_tr(t, "size.weights"), gs_tr(t, "model.no_weights"));
		return;
	case GS_WEIGHTS_INDEX:
		printf("%s (%s, %s %s, metadata.total_size): ", gs_tr(t, "size.weights"),
		       gs_tr(t, "prov.calculated"), gs_tr(t, "model.read_from"), m->index_file);
		S_size(t, m->weight_bytes);
		printf("\n  %s: ", gs_tr(t, m->bin_index ? "model.shards_pickle"
							      : "model.shards_absent"));
		S_print_list(&m->missing_shards);
		break;
	default:
		printf("%s (%s, %s): ", gs_tr(t, "size.weights"), gs_tr(t, "prov.calculated"),
		       gs_tr(t, "model.from_headers"));
		S_size(t, m->weight_bytes);
		printf("\n  %s: ", gs_tr(t, "model.files"));
		for (i = 0; i < m->weight_files.n; i++)
			printf("%s%s", i ? ", " : "", m->weight_files.v[i]);
		if (m->gguf_version)
			printf(" (GGUF v%u)", m->gguf_version);
		printf("\n");
		if (m->index_file)
			printf("  %s %s metadata.total_size\n", gs_tr(t, "model.index_agrees"),
			       m->index_file);
		S_dtype_table(t, m);
		break;
	}
	S_compare(t, m);
}

int gs_cmd_model(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "lang", required_argument, NULL, 'l' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	int json = 0, c;
	gs_lang lang = GS_LANG_EN;
	gs_model m;
	gs_diag d = GS_DIAG_INIT;
	gs_strings t;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'j': json = 1; break;
		case 'l':
			if (gs_tr_lang_parse(optarg, &lang))
				return S_usage("--lang takes en or es");
			break;
		case 'h':
			printf("usage: gpusheet model PATH|ORG/NAME[@REVISION]|ollama:NAME[:TAG] [--json] "
			       "[--lang en|es]\n");
			return GS_EXIT_OK;
		default:
			gs_suggest_bad_option("model", opts, argv, optind);
			return GS_EXIT_USAGE;
		}
	}
	if (optind != argc - 1)
		return S_usage("expected one PATH (a folder, config.json, index, .safetensors or "
			       ".gguf), a repo id ORG/NAME[@REVISION] of the Hugging Face cache or "
			       "ollama:NAME[:TAG] of Ollama's store");
	if (gs_model_read_ref(argv[optind], &m, &d)) {
		gs_diag_print(&d, stderr);
		gs_diag_release(&d);
		return GS_EXIT_INVALID;
	}
	if (json) {
		json_t *j = S_model_json(&m);
		char *s = gs_jw_dumps(j, JSON_SORT_KEYS | JSON_INDENT(2));
		if (!s)
			GS_OOM("json_dumps of the model");
		fputs(s, stdout);
		free(s);
		json_decref(j);
		gs_model_release(&m);
		return GS_EXIT_OK;
	}
	if (gs_tr_load(lang, &t, &d)) {
		fprintf(stderr, "gpusheet model: cannot load the labels:\n");
		gs_diag_print(&d, stderr);
		gs_diag_release(&d);
		gs_model_release(&m);
		return GS_EXIT_INVALID;
	}
	printf("%s: %s\n", gs_tr(&t, "model.path"), m.path);
	if (m.ollama)
		printf("%s: %s\n  %s: %s\n  %s: %s/%s (%s)\n", gs_tr(&t, "model.ollama"), m.ollama,
		       gs_tr(&t, "model.ollama_manifest"), m.ollama_manifest,
		       gs_tr(&t, "model.ollama_blob"), m.folder, m.weight_files.n ? m.weight_files.v[0]
		       : "", gs_tr(&t, "model.ollama_checked"));
	if (m.repo_id)
		printf("%s: %s, %s %s = %s %s\n  %s: %s\n", gs_tr(&t, "model.hf_cache"), m.repo_id,
		       gs_tr(&t, "model.hf_revision"), m.revision, gs_tr(&t, "model.hf_commit"),
		       m.commit, gs_tr(&t, "model.hf_snapshot"), m.folder);
	S_geometry(&t, &m);
	S_weights(&t, &m);
	S_cache(&t, &m);
	gs_tr_release(&t);
	gs_model_release(&m);
	return GS_EXIT_OK;
}
