/*
 * cmd_init: `gpusheet init`, a complete workload sheet for a model read from
 * its own files. Everything it cannot read is written as an assumed item
 * with its reason, or left for the user in the notes: it never types a
 * figure as if it were known.
 */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "commands.h"
#include "hfcache.h"
#include "ollama.h"
#include "jsonout.h"
#include "jsonread.h"
#include "kvdtype.h"
#include "model.h"
#include "outfile.h"
#include "runtime.h"
#include "quantity.h"
#include "suggest.h"
#include "util.h"
#include "vision.h"
#include "wformat.h"
#include "workload.h"

/* Assumed runtime overhead outside the weights: CUDA context and library
 * workspaces. A round figure, labelled assumed, to be replaced by a
 * measurement (gpusheet-probe reports what the allocator does not see). */
#define S_RUNTIME_GIB "1"
/* LoRA defaults written into the sheet, each stated in its reason. */
#define S_LORA_RANK 16

static int S_usage(const char *msg)
{
	fprintf(stderr, "gpusheet init: %s (see gpusheet --help)\n", msg);
	return GS_EXIT_USAGE;
}

static int S_uint(const char *opt, const char *text, uint64_t max, uint64_t *out)
{
	if (gs_qty_parse_u64(text, out) || *out < 1 || *out > max) {
		fprintf(stderr, "gpusheet init: invalid value for --%s: \"%s\" (expected a whole "
			"number from 1 to %llu)\n", opt, text, (unsigned long long)max);
		return -1;
	}
	return 0;
}

/* path made absolute from the current folder, "." and empty components dropped,
 * ".." taken lexically (the caller checks the result against the file system). */
static char *S_lexical_abs(const char *path)
{
	char cwd[PATH_MAX], *buf, *out, *tok, *save = NULL;
	size_t n = 0;

	if (path[0] == '/')
		buf = gs_xstrdup(path);
	else if (getcwd(cwd, sizeof(cwd)))
		buf = gs_xasprintf("%s/%s", cwd, path);
	else
		return NULL;
	out = gs_xmalloc(strlen(buf) + 2);
	out[0] = '\0';
	for (tok = strtok_r(buf, "/", &save); tok; tok = strtok_r(NULL, "/", &save)) {
		if (strcmp(tok, ".") == 0)
			continue;
		if (strcmp(tok, "..") == 0) {
			char *slash = strrchr(out, '/');
			if (slash)
				*slash = '\0';
			n = strlen(out);
			continue;
		}
		n += (size_t)sprintf(out + n, "/%s", tok);
	}
	if (!out[0])
		strcpy(out, "/");
	free(buf);
	return out;
}

/* 1 when DIR/REL is the file or folder whose real path is want. */
static int S_same(const char *dir, const char *rel, const char *want)
{
	char got[PATH_MAX];
	char *p = gs_xasprintf("%s/%s", dir, rel);
	int ok = realpath(p, got) && strcmp(got, want) == 0;

	free(p);
	return ok;
}

/*
 * How the sheet at OUT names the model at PATH (model.from), checked to
 * lead to it from the sheet's folder: inside that folder, the path beneath
 * it as typed (a folder link inside it is followed like a folder) or as
 * resolved; elsewhere a path up with "..", when the two share more than
 * the root, else the absolute path. NULL (message printed) when the folder
 * of OUT or PATH cannot be resolved.
 */
static char *S_from_path(const char *model, const char *out)
{
	char mreal[PATH_MAX], dreal[PATH_MAX];
	char *dir = gs_xstrdup(out), *slash = strrchr(dir, '/'), *rel = NULL;
	char *lm = NULL, *ld = NULL;
	const char *d;
	size_t n, common, k;

	if (slash)
		*slash = '\0';
	d = slash ? (dir[0] ? dir : "/") : ".";
	if (!realpath(d, dreal)) {
		fprintf(stderr, "gpusheet init: cannot use the folder '%s' of --out: %s\n", d,
			strerror(errno));
		free(dir);
		return NULL;
	}
	if (!realpath(model, mreal)) {
		fprintf(stderr, "gpusheet init: cannot read '%s': %s\n", model, strerror(errno));
		free(dir);
		return NULL;
	}
	/* inside the folder, as typed */
	lm = S_lexical_abs(model);
	ld = S_lexical_abs(d);
	if (lm && ld) {
		n = strlen(ld);
		if (n == 1 && lm[1])
			rel = gs_xstrdup(lm + 1);
		else if (strncmp(lm, ld, n) == 0 && lm[n] == '/' && lm[n + 1])
			rel = gs_xstrdup(lm + n + 1);
		if (rel && !S_same(dreal, rel, mreal)) {
			free(rel);
			rel = NULL;
		}
	}
	/* inside the folder, resolved */
	n = strlen(dreal);
	if (!rel && strncmp(mreal, dreal, n) == 0 && mreal[n] == '/' && mreal[n + 1])
		rel = gs_xstrdup(mreal + n + 1);
	else if (!rel && n == 1 && mreal[1])
		rel = gs_xstrdup(mreal + 1);
	/* elsewhere: up from the folder to what they share, then down */
	if (!rel) {
		for (common = 0, k = 0; dreal[k] && dreal[k] == mreal[k]; k++)
			if (dreal[k] == '/')
				common = k;
		if (!dreal[k] && mreal[k] == '/')
			common = k;
		if (common > 0) {
			char *up = gs_xstrdup("");
			for (k = common; dreal[k]; k++) {
				if (dreal[k] == '/') {
					char *u = gs_xasprintf("%s../", up);
					free(up);
					up = u;
				}
			}
			rel = gs_xasprintf("%s%s", up, mreal + common + 1);
			free(up);
			if (!S_same(dreal, rel, mreal)) {
				free(rel);
				rel = NULL;
			}
		}
	}
	if (!rel)
		rel = gs_xstrdup(mreal);
	free(lm);
	free(ld);
	free(dir);
	return rel;
}


/* An id from the model folder's name: lower case, [a-z0-9._-], at most 64. */
static char *S_default_id(const char *from)
{
	const char *base = from;
	char *id, *p;
	size_t n = strlen(from);

	while (n > 0 && from[n - 1] == '/')
		n--;
	for (p = (char *)(uintptr_t)from; p < from + n; p++)
		if (*p == '/')
			base = p + 1;
	id = gs_xmalloc(65);
	for (n = 0; base[n] && base[n] != '/' && n < 64; n++) {
		char c = base[n];
		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		id[n] = ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
			 c == '-') ? c : '-';
	}
	id[n] = '\0';
	/* an id starts with a letter or a digit */
	if (!((id[0] >= 'a' && id[0] <= 'z') || (id[0] >= '0' && id[0] <= '9')))
		id[0] = 'm';
	return id;
}

static json_t *S_size_bytes(uint64_t bytes)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)bytes);
	return json_pack("{s:s,s:s}", "amount", buf, "unit", "bytes");
}

static json_t *S_item(const char *name, json_t *size, char *reason)
{
	json_t *o = json_pack("{s:s,s:o,s:s}", "name", name, "size", size, "reason", reason);

	free(reason);
	return o;
}

static json_t *S_dims(uint64_t in, uint64_t out, uint64_t seq)
{
	return json_pack("{s:I,s:I,s:I}", "input_tokens", (json_int_t)in,
			 "output_tokens", (json_int_t)out, "sequences", (json_int_t)seq);
}

typedef struct {
	uint64_t context, output, sequences;
	int task;             /* 0 inference, 1 lora, 2 full */
	/* training: the recipe's options (gpusheet init --help) */
	uint64_t microbatch, accumulation, lora_rank, cards;
	unsigned targets;     /* GS_LORA_* */
	int targets_given;    /* 1: --lora-targets */
	int qlora;
	const char *optimizer, *checkpointing, *sharding, *offload;
	unsigned value_bytes; /* bytes per value of activations and KV: the compute width */
	unsigned kv_bytes;    /* bytes per KV value: value_bytes, or --kv-dtype's (0: a block type) */
	const char *kv_dtype; /* --kv-dtype as given, or NULL */
	const gs_kvdtype *kvt; /* --kv-dtype's width (kvdtype.h), or NULL */
	const char *engine;   /* --engine vllm, or NULL: no runtime */
	const char *engine_version; /* --engine-version, or NULL: the table's newest */
	uint64_t mnbt;        /* --max-num-batched-tokens, or 0: the version's default */
	const char *entry;    /* --entry-point serve|llm (vLLM), or NULL: `vllm serve` */
	const char *format;   /* --format (wformat.h), or NULL: the checkpoint's own */
	uint64_t tp;          /* --tensor-parallel, or 0 */
	/* --images WxH[xN]: each image's tokens by the processor (vision.h),
	 * all of them added to the input of every request */
	gs_vision_image img;
	uint64_t img_n, img_tokens;
	char *img_words;      /* where the rules came from, or NULL */
} S_plan;

/* The images of --images in a dimensions object: their tokens added to the
 * input, their size and count as the workload's dimensions. */
static json_t *S_img(json_t *dims, const S_plan *p)
{
	json_t *in = json_object_get(dims, "input_tokens");

	if (!p->img_n)
		return dims;
	json_integer_set(in, json_integer_value(in) + (json_int_t)p->img_tokens);
	json_object_set_new(dims, "image_width", json_integer((json_int_t)p->img.width));
	json_object_set_new(dims, "image_height", json_integer((json_int_t)p->img.height));
	json_object_set_new(dims, "images", json_integer((json_int_t)p->img_n));
	return dims;
}

/*
 * training.recipe from the options (docs/formats.md §1.4): the items are
 * calculated by the sheet from it and the model's files, none typed here.
 */
static json_t *S_training(const S_plan *p, unsigned lora_targets)
{
	json_t *rc = json_object(), *targets;
	size_t i;

	json_object_set_new(rc, "method", json_string(p->task == 2 ? "full" : p->qlora ? "qlora" : "lora"));
	if (p->task != 2) {
		targets = json_array();
		for (i = 0; i < GS_RECIPE_TARGETS; i++)
			if (lora_targets & (1u << gs_recipe_target_order[i]))
				json_array_append_new(targets, json_string(
					gs_recipe_target_names[gs_recipe_target_order[i]]));
		json_object_set_new(rc, "lora", json_pack("{s:I,s:o}", "rank", (json_int_t)p->lora_rank,
							  "targets", targets));
	}
	json_object_set_new(rc, "optimizer", json_string(p->optimizer));
	json_object_set_new(rc, "checkpointing", json_string(p->checkpointing));
	json_object_set_new(rc, "accumulation", json_integer((json_int_t)p->accumulation));
	json_object_set_new(rc, "sharding", json_string(p->sharding));
	json_object_set_new(rc, "cards", json_integer((json_int_t)p->cards));
	json_object_set_new(rc, "offload", json_string(p->offload));
	return json_pack("{s:o}", "recipe", rc);
}

/* vLLM's own terms outside the weights and the KV cache, for the version
 * and step budget of the plan (gen/decide/runtime.c, each rule with its
 * source in vLLM's code): the profiling step's activation peak and logits
 * (calculated from the geometry, on an assumed shape) and the non-torch
 * memory (assumed, cited). */
/* The geometry vLLM's terms are sized from (S_vllm_reserve). */
static int S_vllm_geometry(const gs_model *m)
{
	return m->has_hidden && m->hidden && m->has_intermediate && m->intermediate &&
	       m->has_vocab && m->vocab;
}

/* The step budget's rule by the card, in the item's reason ("" without one). */
static const char *S_vllm_step_note(const gs_runtime_settings *rs)
{
	static char buf[1024];
	const char *rule = gs_runtime_mnbt_rule_text(rs);

	if (!rule)
		return "";
	snprintf(buf, sizeof(buf), " This version plans %s: the sheet scales this term and the "
		 "logits to the step budget vLLM picks on each offer's card, and says which.", rule);
	return buf;
}

static int S_vllm_reserve(json_t *res, const gs_model *m, const S_plan *p)
{
	char a[GS_FMT_MAX], b[GS_FMT_MAX], c[GS_FMT_MAX], d[GS_FMT_MAX];
	gs_workload w;
	gs_runtime_settings rs;
	gs_runtime_geometry g;
	gs_runtime_vllm_terms t;
	gs_dim dims[2] = { { "input_tokens", p->context - p->output }, { "output_tokens", p->output } };
	char ver[64];

	snprintf(ver, sizeof(ver), "%s", p->engine_version ? p->engine_version : "");
	memset(&w, 0, sizeof(w));
	w.dims = dims;
	w.ndims = 2;
	w.runtime.engine = GS_ENGINE_VLLM;
	w.runtime.version = p->engine_version ? ver : NULL;
	w.runtime.max_num_batched_tokens = p->mnbt;
	w.runtime.has_max_num_batched_tokens = p->mnbt != 0;
	w.runtime.has_entry_point = p->entry != NULL;
	w.runtime.entry_llm = p->entry && strcmp(p->entry, "llm") == 0;
	memset(&g, 0, sizeof(g));
	g.hidden = m->has_hidden ? m->hidden : 0;
	g.intermediate = m->has_intermediate ? m->intermediate : 0;
	if (m->has_experts && m->moe_intermediate && m->experts_active)
		g.intermediate = m->moe_intermediate * m->experts_active + m->shared_intermediate;
	g.vocab = m->has_vocab ? m->vocab : 0;
	g.value_bytes = p->value_bytes;
	g.tp = p->tp;
	if (gs_runtime_settings_of(&w, &rs) != 0 || gs_runtime_vllm_terms_of(&rs, &g, &t) != 0)
		return -1;    /* a geometry figure missing: the generic items, said so */
	json_array_append_new(res, S_item("vLLM profiling activation peak", S_size_bytes(t.activation),
		gs_xasprintf("Calculated from the geometry, on an assumed shape: vLLM %s profiles one "
			     "step of max_num_batched_tokens (%s tokens, %s); its peak is taken at the "
			     "MLP: (3 x %s intermediate%s + 3 x %s hidden) x %u B = %s B a token "
			     "(gen/decide/runtime.c).%s Replace it by the log's activation peak "
			     "(gpusheet evidence import).", rs.version,
			     gs_qty_fmt_int(a, t.tokens, GS_LANG_EN),
			     rs.mnbt_default ? rs.mnbt_source : "the workload's setting",
			     gs_qty_fmt_int(b, g.intermediate, GS_LANG_EN),
			     g.tp > 1 ? " / tensor parallelism" : "",
			     gs_qty_fmt_int(c, g.hidden, GS_LANG_EN), p->value_bytes,
			     gs_qty_fmt_int(d, t.act_per_token, GS_LANG_EN),
			     S_vllm_step_note(&rs))));
	if (t.logit_rows)
		json_array_append_new(res, S_item("vLLM profiling logits", S_size_bytes(t.logits),
			gs_xasprintf("Assumed shape, sized from the geometry: vLLM V1's profiling step "
				     "holds float32 logits of each of its %s tokens: %s x %s vocabulary x "
				     "4 B, as llm-d's H100 measurements of vLLM V1 show (llm-d-benchmark, "
				     "config_explorer/empirical-vllm-memory-results.md: Llama-3.1-8B, "
				     "4.76 GiB peak activation at 8,192 tokens).",
				     gs_qty_fmt_int(a, t.tokens, GS_LANG_EN),
				     gs_qty_fmt_int(b, t.logit_rows, GS_LANG_EN),
				     gs_qty_fmt_int(c, g.vocab, GS_LANG_EN))));
	json_array_append_new(res, S_item("vLLM non-torch memory", S_size_bytes(t.non_torch),
		gs_xasprintf("Assumed: %s. How vLLM %s counts it: %s.%s", rs.non_torch_source,
			     rs.version, rs.accounting_source, t.cuda_graphs ? "" :
			     " CUDA graphs are captured after the KV cache is sized, outside the "
			     "budget, in the share gpu_memory_utilization leaves.")));
	if (t.cuda_graphs)
		json_array_append_new(res, S_item("vLLM CUDA graphs", S_size_bytes(t.cuda_graphs),
			gs_xasprintf("Assumed: %s. vLLM %s captures its CUDA graphs once while "
				     "profiling and counts them inside the budget, before the KV "
				     "cache (gen/decide/runtime.c). Replace it by the figure your "
				     "own start-up prints as \"Estimated CUDA graph memory\".",
				     rs.cuda_graphs_source, rs.version)));
	return 0;
}

/*
 * The vision tower's activations while it encodes the images (--images):
 * its largest transient, the MLP tensors of one block over every patch of
 * the images encoded at once, as the text's prefill item counts the gate
 * and up tensors. The tower sees each image as (H' / patch) x (W' / patch)
 * patches before any merger (Qwen2.5-VL: one temporal patch per image,
 * the image repeated temporal_patch_size times; Gemma 3: the SigLIP
 * square, (896 / 14)^2 = 4,096), and transformers encodes all the images
 * of a batch in one call (get_image_features: Qwen2_5_VLMLP's gate_proj
 * and up_proj in modeling_qwen2_5_vl.py, SiglipMLP's fc1 and its
 * activation in modeling_siglip.py): sequences x images x patches x
 * vision_config.intermediate_size x 2 x the compute width. Assumed; the
 * attention's scores (none with flash or memory-efficient SDPA kernels) and
 * vLLM's encoder budget are not counted. Qwen2.5-VL-7B, 4 images of 1,280 x
 * 720 (1,288 x 728: 52 x 92 = 4,784 patches): 4 x 4,784 x 3,420 x 2 x 2 B
 * = 261,780,480 B.
 */
static void S_vision_reserve(json_t *res, const gs_model *m, const S_plan *p)
{
	char a[GS_FMT_MAX], b[GS_FMT_MAX];
	uint64_t ph, pw, patches;
	unsigned __int128 v;

	if (!p->img_n || m->has_vision != 1 || !m->vision_intermediate || !m->vision_patch)
		return;
	ph = p->img.rheight / m->vision_patch;
	pw = p->img.rwidth / m->vision_patch;
	v = (unsigned __int128)ph * pw;
	if (v > UINT64_MAX)
		return;
	patches = (uint64_t)v;
	v = (unsigned __int128)p->sequences * p->img_n * patches;
	if (v > UINT64_MAX)
		return;
	v = v * m->vision_intermediate * 2 * p->value_bytes;
	if (v > UINT64_MAX)
		return;
	json_array_append_new(res, S_item("vision tower activations", S_size_bytes((uint64_t)v),
		gs_xasprintf("Assumed: the largest transient of the vision tower, the MLP "
			     "tensors of one block (%s) over every patch of the images encoded at "
			     "once, as transformers encodes them: %llu sequence(s) x %llu image(s) "
			     "x %s patches (%llu x %llu of %llu pixels, before %s) x %s "
			     "intermediate (`vision_config.intermediate_size`) x 2 x %u B. The "
			     "attention's scores are not counted (flash and memory-efficient SDPA "
			     "kernels keep none; eager attention keeps heads x patches^2 of them), "
			     "nor vLLM's encoder budget.",
			     m->vision_merge ? "gate and up, Qwen2_5_VLMLP" : "fc1 and its activation, "
			     "SiglipMLP", (unsigned long long)p->sequences, (unsigned long long)p->img_n,
			     gs_qty_fmt_int(a, patches, GS_LANG_EN), (unsigned long long)ph,
			     (unsigned long long)pw, (unsigned long long)m->vision_patch,
			     m->vision_merge ? "the merger" : "the pooling into `mm_tokens_per_image`",
			     gs_qty_fmt_int(b, m->vision_intermediate, GS_LANG_EN), p->value_bytes)));
}

static json_t *S_reserve(const gs_model *m, const S_plan *p)
{
	char a[GS_FMT_MAX], b[GS_FMT_MAX];
	json_t *res = json_array();
	uint64_t in = p->context - p->output + p->img_tokens;

	/* SGLang's static budget holds the weights and the KV pool only: its
	 * activations and CUDA graphs live in the share mem_fraction_static
	 * leaves (gen/decide/runtime.c), so no reserve item inside it */
	if (p->engine && p->task == 0 && strcmp(p->engine, "sglang") == 0)
		return res;
	/* vLLM's own terms need the hidden, intermediate and vocabulary sizes;
	 * without them the generic items below */
	if (p->engine && p->task == 0 && S_vllm_geometry(m) && S_vllm_reserve(res, m, p) == 0)
		return res;
	json_array_append_new(res, json_pack("{s:s,s:{s:s,s:s},s:s}", "name",
		"CUDA context and library workspaces", "size", "amount", S_RUNTIME_GIB,
		"unit", "GiB", "reason",
		"Assumed: the CUDA context, cuBLAS and attention-kernel workspaces and the "
		"allocator's rounding, outside the weights and the KV cache. Replace it by "
		"the device reading of a measured run (gpusheet-probe)."));
	if (m->has_intermediate && p->task == 0) {
		unsigned __int128 v = (unsigned __int128)p->sequences * in * m->intermediate * 2 *
				      p->value_bytes;
		if (v <= UINT64_MAX)
			json_array_append_new(res, S_item("prefill activations", S_size_bytes((uint64_t)v),
				gs_xasprintf("Assumed: the largest transient of the prefill, the MLP "
					     "gate and up tensors of one layer: %llu sequence(s) x "
					     "%s input tokens x %s intermediate x 2 x %u B. "
					     "Chunked prefill makes it smaller; logits over the "
					     "whole input make it larger.",
					     (unsigned long long)p->sequences, gs_qty_fmt_int(a, in, GS_LANG_EN),
					     gs_qty_fmt_int(b, m->intermediate, GS_LANG_EN), p->value_bytes)));
	}
	if (p->task == 0)
		S_vision_reserve(res, m, p);
	return res;
}

static json_t *S_train_dims(uint64_t tokens, uint64_t microbatch)
{
	return json_pack("{s:I,s:I}", "input_tokens", (json_int_t)tokens, "microbatch",
			 (json_int_t)microbatch);
}

static json_t *S_input(char *description, json_t *dims);

/* Training's three inputs: sequences of a quarter, half and all of the
 * length, at the microbatch. */
static json_t *S_train_inputs(const S_plan *p)
{
	uint64_t lim = p->context, usual = lim / 4 ? lim / 4 : 1, lng = lim / 2 ? lim / 2 : 1;
	char a[GS_FMT_MAX];
	json_t *o = json_object();

	json_object_set_new(o, "usual", S_input(
		gs_xasprintf("A usual microbatch: %llu sequence(s) of %s tokens, a quarter of the "
			     "length.", (unsigned long long)p->microbatch,
			     gs_qty_fmt_int(a, usual, GS_LANG_EN)),
		S_train_dims(usual, p->microbatch)));
	json_object_set_new(o, "long", S_input(
		gs_xasprintf("A long but expected microbatch: %llu sequence(s) of %s tokens.",
			     (unsigned long long)p->microbatch, gs_qty_fmt_int(a, lng, GS_LANG_EN)),
		S_train_dims(lng, p->microbatch)));
	json_object_set_new(o, "limit", S_input(
		gs_xasprintf("The limit: %llu sequence(s) of the whole %s tokens (longer samples "
			     "are cut or refused by the data pipeline).",
			     (unsigned long long)p->microbatch, gs_qty_fmt_int(a, lim, GS_LANG_EN)),
		S_train_dims(lim, p->microbatch)));
	return o;
}

static json_t *S_input(char *description, json_t *dims)
{
	json_t *o = json_pack("{s:s,s:o}", "description", description, "dimensions", dims);

	free(description);
	return o;
}

/* The protocol's three inputs: a quarter, half and all of the context's input. */
static json_t *S_inputs(const S_plan *p)
{
	uint64_t out = p->output, lim = p->context - out;
	uint64_t usual = lim / 4 ? lim / 4 : 1, lng = lim / 2 ? lim / 2 : 1;
	char a[GS_FMT_MAX], b[GS_FMT_MAX], c[GS_FMT_MAX];
	json_t *o = json_object();
	char *img = p->img_n ? gs_xasprintf(" With the %llu image(s), %s tokens more in the input.",
					   (unsigned long long)p->img_n,
					   gs_qty_fmt_int(a, p->img_tokens, GS_LANG_EN))
			     : gs_xstrdup("");

	json_object_set_new(o, "usual", S_input(
		gs_xasprintf("A usual request, a quarter of the input length: %s input tokens and "
			     "%s generated, %llu sequence(s) at once.%s", gs_qty_fmt_int(a, usual, GS_LANG_EN),
			     gs_qty_fmt_int(b, out, GS_LANG_EN), (unsigned long long)p->sequences, img),
		S_img(S_dims(usual, out, p->sequences), p)));
	json_object_set_new(o, "long", S_input(
		gs_xasprintf("A long but expected request, half of the input length: %s input "
			     "tokens and %s generated.%s", gs_qty_fmt_int(a, lng, GS_LANG_EN),
			     gs_qty_fmt_int(b, out, GS_LANG_EN), img),
		S_img(S_dims(lng, out, p->sequences), p)));
	json_object_set_new(o, "limit", S_input(
		gs_xasprintf("The functional limit, the whole context of %s tokens: %s input "
			     "tokens and %s generated.%s", gs_qty_fmt_int(c, p->context, GS_LANG_EN),
			     gs_qty_fmt_int(a, lim, GS_LANG_EN), gs_qty_fmt_int(b, out, GS_LANG_EN), img),
		S_img(S_dims(lim, out, p->sequences), p)));
	free(img);
	return o;
}

static const char S_notes_fill[] =
	"\n\n**To fill before the sheet can retain an offer** (under `requirements`): "
	"`software` (the stack the run needs), `campaign` (start and days), `budget` "
	"(amount and currency), `quality` (the criterion and the evaluation that shows it), "
	"and `host` or `placement` where they matter. Replace the assumed reserve items by "
	"a measurement as soon as one exists (`gpusheet-probe`), and list it under `evidence`.";

/* The notes' sentence on images: the processor's rule and its figures, or
 * a model that takes images and a workload that gives none. */
static char *S_vision_note(const gs_model *m, const S_plan *p)
{
	char a[GS_FMT_MAX], b[GS_FMT_MAX], c[GS_FMT_MAX], *rule, *s;

	if (m->has_vision != 1)
		return NULL;
	if (!p->img_n)
		return gs_xasprintf(" The model takes images: its vision tower, %s parameters "
				    "(calculated from `vision_config`), is in the weights; this "
				    "workload gives none (`gpusheet init --images WxH[xN]` adds "
				    "their tokens).", gs_qty_fmt_int(a, m->vision_params, GS_LANG_EN));
	/* how one image becomes tokens: a fixed count (Gemma 3) or a resize */
	if (m->vision_image_tokens)
		rule = gs_xasprintf(" and pools it into %llu tokens (`mm_tokens_per_image`), set "
				    "between a start and an end marker with a line break on each side: "
				    "at most %s tokens an image (a line break can merge with the text's)",
				    (unsigned long long)m->vision_image_tokens,
				    gs_qty_fmt_int(a, p->img.tokens, GS_LANG_EN));
	else
		rule = gs_xasprintf(", a side a multiple of %llu, then (%llu / %llu) x (%llu / %llu) "
				    "/ %llu = %s tokens after the merger",
				    (unsigned long long)(m->vision_patch * m->vision_merge),
				    (unsigned long long)p->img.rheight, (unsigned long long)m->vision_patch,
				    (unsigned long long)p->img.rwidth, (unsigned long long)m->vision_patch,
				    (unsigned long long)(m->vision_merge * m->vision_merge),
				    gs_qty_fmt_int(a, p->img.tokens, GS_LANG_EN));
	s = gs_xasprintf(" Every request carries %llu image(s) of %llu x %llu pixels: the "
			 "processor (%s) resizes each to %llu x %llu%s; %s image tokens in all, "
			 "added to the input. The vision tower, %s parameters (calculated from "
			 "`vision_config`), is in the weights; its activations while it encodes "
			 "are the reserve item `vision tower activations` (**assumed**, with its "
			 "formula), under `--engine vllm` left to vLLM's own terms.",
			 (unsigned long long)p->img_n, (unsigned long long)p->img.width,
			 (unsigned long long)p->img.height, p->img_words,
			 (unsigned long long)p->img.rwidth, (unsigned long long)p->img.rheight, rule,
			 gs_qty_fmt_int(b, p->img_tokens, GS_LANG_EN),
			 gs_qty_fmt_int(c, m->vision_params, GS_LANG_EN));
	free(rule);
	return s;
}

/* The notes' sentence on --format: the rule and its figures. */
static char *S_format_note(const gs_model *m, const char *format)
{
	gs_wformat_result r;
	char *why = NULL;
	char a[GS_FMT_MAX], b[GS_FMT_MAX], c[GS_FMT_MAX], d[GS_FMT_MAX], e[GS_FMT_MAX];

	if (gs_wformat_bytes(m, (gs_wformat_id)gs_wformat_find(format), &r, &why)) {
		free(why);
		return NULL;
	}
	return gs_xasprintf(" The weights are written in **%s** (`weights.format`), not in the "
			    "checkpoint's own format: %s parameters of the layers' matrices%s "
			    "stored as %s, %s B; the other %s parameters (embeddings, head, "
			    "norms, biases, routers) kept in bf16, %s B; %s B in all, "
			    "calculated from the geometry by the format's rule and "
			    "**theoretical** until a checkpoint in that format is read.",
			    format, gs_qty_fmt_int(a, r.quant_params, GS_LANG_EN),
			    r.experts_only ? " (the routed experts only, as gpt-oss ships MXFP4)"
					   : "",
			    gs_wformat_rule(r.id), gs_qty_fmt_int(b, r.quant_bytes, GS_LANG_EN),
			    gs_qty_fmt_int(c, r.kept_params, GS_LANG_EN),
			    gs_qty_fmt_int(d, r.kept_bytes, GS_LANG_EN),
			    gs_qty_fmt_int(e, r.bytes, GS_LANG_EN));
}

/* The notes' sentence on the KV cache's width. */
static char *S_kv_words(const gs_model *m, const S_plan *p)
{
	const gs_kvdtype *t = p->kvt;

	if (t && gs_kvdtype_is_block(t))
		return gs_xasprintf("The KV cache counts %llu B per block of %llu values along each "
				    "head (`--kv-dtype %s`: %s), llama.cpp's `-ctk %s -ctv %s`; "
				    "llama.cpp quantises the values' cache only with flash "
				    "attention (`-fa`).", (unsigned long long)t->block_bytes,
				    (unsigned long long)t->block_values, t->name, t->source, t->name,
				    t->name);
	if (t)
		return gs_xasprintf("The KV cache counts %u B per value (`--kv-dtype %s`: %s).",
				    p->kv_bytes, t->name, t->source);
	return gs_xasprintf("The KV cache counts %u B per value (%s).", p->kv_bytes,
			    m->weights == GS_WEIGHTS_GGUF ? "llama.cpp's default f16 cache"
			    : "the checkpoint's compute width");
}

/* The workload's notes: where each figure comes from, in words. */
static char *S_notes(const gs_model *m, const S_plan *p, const char *repo, const char *from,
		     uint64_t params, int kv, const char *replicated)
{
	char a[GS_FMT_MAX];
	char *notes, *where, *window = NULL, *moe = NULL, *fmt = NULL, *vis = NULL, *kvw;

	if (kv && m->has_sliding_window && m->sliding_pattern &&
	    strcmp(m->sliding_pattern, "every_layer") == 0)
		window = gs_xasprintf(" The model has a sliding window of %s tokens on every layer. "
				      "Whether it bounds the KV cache depends on the runtime: the "
				      "default cache of Hugging Face transformers keeps every token, "
				      "so the cache is counted dense here, and the sheet also shows "
				      "the windowed figure. Set `cache.kind` to `sliding` only for a "
				      "runtime that keeps no more than the window.",
				      gs_qty_fmt_int(a, m->sliding_window, GS_LANG_EN));
	if (m->has_active_params) {
		char b[GS_FMT_MAX];
		moe = gs_xasprintf(" A mixture of experts: every one of its %llu routed experts "
				   "is resident, so the weights count all %s parameters; %llu "
				   "experts run per token, %s parameters active per token "
				   "(`model.active_parameters`, for the speed of a token, not its "
				   "memory).", (unsigned long long)m->experts,
				   gs_qty_fmt_int(a, params, GS_LANG_EN),
				   (unsigned long long)m->experts_active,
				   gs_qty_fmt_int(b, m->active_params, GS_LANG_EN));
	}
	if (p->format)
		fmt = S_format_note(m, p->format);
	vis = S_vision_note(m, p);
	if (m->has_active_params && m->has_matrices && m->mat_experts.params && p->tp > 1) {
		char b[GS_FMT_MAX], c2[GS_FMT_MAX];
		char *ep = gs_xasprintf("%s Under expert parallelism over the %llu cards (vLLM's "
					"--enable-expert-parallel) each card would hold %llu of the %llu "
					"routed experts%s: their matrices, %s of the %s parameters "
					"(calculated from the geometry), divide by %llu, the rest "
					"follows the tensor-parallel rule; the sheet counts tensor "
					"parallelism only.", moe ? moe : "", (unsigned long long)p->tp,
					(unsigned long long)((m->experts + p->tp - 1) / p->tp),
					(unsigned long long)m->experts,
					m->experts % p->tp ? " at most (they do not divide evenly)" : "",
					gs_qty_fmt_int(b, m->mat_experts.params, GS_LANG_EN),
					gs_qty_fmt_int(c2, params, GS_LANG_EN), (unsigned long long)p->tp);
		free(moe);
		moe = ep;
	}
	kvw = S_kv_words(m, p);
	if (repo)
		where = gs_xasprintf("of `%s` at commit %s in the Hugging Face cache", repo,
				     m->commit);
	else if (m->ollama)
		where = gs_xasprintf("of `ollama:%s` in Ollama's store (the model layer %s of its "
				     "manifest, its size and SHA-256 checked)", m->ollama,
				     m->weight_files.n ? m->weight_files.v[0] : "");
	else
		where = gs_xasprintf("in `%s`", from);
	if (p->task)
		notes = gs_xasprintf("Written by `gpusheet init` from the files %s: the geometry, the "
				     "parameter count and the weight bytes are read from them, nothing "
				     "is typed by hand but the recipe (`training.recipe`: sequences of "
				     "%s tokens, microbatch %llu, accumulation %llu). The sheet "
				     "calculates each item per card from it (weights, adapters, "
				     "gradients, optimizer states, master weights, logits: calculated; "
				     "activations: assumed, %s), and counts no "
				     "KV cache: a training step keeps none. The reserve item is "
				     "**assumed**, with its reason. The first full step creates the "
				     "optimizer states: measure it.%s%s",
				     where, gs_qty_fmt_int(a, p->context, GS_LANG_EN),
				     (unsigned long long)p->microbatch,
				     (unsigned long long)p->accumulation,
				     gs_recipe_hybrid_arch((int)m->arch)
				     ? "the attention layers by the published formula, the state "
				       "layers by what their training kernels save for the backward "
				       "pass, per layer kind"
				     : "by the published formula", moe ? moe : "", S_notes_fill);
	else
	notes = gs_xasprintf("Written by `gpusheet init` from the files %s: the geometry%s"
			     "parameter count%s are read from them, nothing "
			     "is typed by hand but the context (%s tokens, %llu generated, %llu "
			     "sequence(s) at once). %s "
			     "%s%s%s%s%s%s%s%s",
			     where, p->format ? " and the " : ", the ",
			     p->format ? "" : " and the weight bytes",
			     gs_qty_fmt_int(a, p->context, GS_LANG_EN),
			     (unsigned long long)p->output, (unsigned long long)p->sequences,
			     kvw,
			     p->engine && !p->task && strcmp(p->engine, "sglang") == 0
			     ? "The reserve is empty: SGLang's static budget, mem_fraction_static x the "
			       "card's total, holds the weights and the KV pool only; its activations "
			       "and CUDA graphs live in the rest, and its mem_fraction_static follows "
			       "the version's rule from each card's memory (docs/formats.md, 1.4)."
			     : p->engine && !p->task && S_vllm_geometry(m)
			     ? "The reserve holds vLLM's own terms for its version, each with its "
			       "reason: the profiling step's, **calculated** from the geometry on an "
			       "assumed shape, and the non-torch memory, **assumed**."
			     : p->task ? "Every reserve and training item is **assumed**, with its reason."
			     : "Every reserve item is **assumed**, with its reason.",
			     !kv ? " The model files give no KV geometry: the KV cache is not "
				   "sized; add `cache` and the geometry by hand."
			     : gs_model_layout_needed(m)
			     ? " The model's layers do not all keep the same cache "
			       "(`model.cache_layout`: windows, chunks, a latent or a constant "
			       "state per layer kind): the sheet sizes it as vLLM and as Hugging "
			       "Face transformers keep it and counts the larger, no runtime being "
			       "declared."
			     : m->has_sliding_window && m->sliding_pattern &&
			       strcmp(m->sliding_pattern, "every_layer") != 0
			     ? " The architecture keeps a sliding window on some layers only: "
			       "the dense cache counted here, every layer keeping every token, "
			       "is an upper bound." : "",
			     window ? window : "", moe ? moe : "", replicated ? replicated : "",
			     fmt ? fmt : "", vis ? vis : "", S_notes_fill);
	free(where);
	free(window);
	free(moe);
	free(fmt);
	free(vis);
	free(kvw);
	return notes;
}

/*
 * LoRA's targets for the model's modules, as its checkpoint names them
 * (recipe.h gs_recipe_modules): the default, the attention's projections
 * (q_proj, k_proj, v_proj, o_proj; multi-head latent attention's
 * q_a_proj, q_b_proj or q_proj, kv_a_proj_with_mqa, kv_b_proj, o_proj;
 * Phi-3's qkv_proj, o_proj; GPT-NeoX's query_key_value, dense; a
 * hybrid's every token mixer's: Nemotron-H's q, k, v, o_proj and Mamba2's
 * in_proj, out_proj, Qwen3-Next's q, k, v, o_proj and Gated DeltaNet's
 * in_proj_qkvz, in_proj_ba, out_proj); a module it lacks refused, naming
 * the fused module that holds it, or the modules it has.
 */
static int S_train_targets(const gs_model *m, const S_plan *p, unsigned *targets)
{
	int mla = m->kv_lora_rank != 0;
	gs_lora_names names = gs_recipe_lora_names((int)m->arch);
	unsigned want = p->targets, bad, has = gs_recipe_modules(names, mla, m->q_lora_rank) |
		gs_recipe_extra_modules((int)m->arch, m->has_experts && m->experts > 1), i;
	const char *sep = "";

	if (!p->targets_given && mla)
		want = GS_LORA_ALL_LINEAR;
	else if (!p->targets_given && names == GS_LORA_NAMES_PHI3)
		want = GS_LORA_QKV | GS_LORA_O;
	else if (!p->targets_given && names == GS_LORA_NAMES_NEOX)
		want = GS_LORA_NEOX_QKV | GS_LORA_NEOX_DENSE;
	/* a hybrid: every token mixer's projections, the state layers' too */
	else if (!p->targets_given && names == GS_LORA_NAMES_NEMOTRON_H)
		want = GS_LORA_Q | GS_LORA_K | GS_LORA_V | GS_LORA_O | GS_LORA_IN | GS_LORA_OUT;
	else if (!p->targets_given && names == GS_LORA_NAMES_QWEN3_NEXT)
		want = GS_LORA_Q | GS_LORA_K | GS_LORA_V | GS_LORA_O | GS_LORA_IN_QKVZ |
		       GS_LORA_IN_BA | GS_LORA_OUT;
	*targets = gs_recipe_resolve(want, has, &bad);
	if (!p->targets_given && mla)
		*targets &= ~(unsigned)GS_LORA_MLP;
	if (!bad)
		return 0;
	if (names != GS_LORA_NAMES_SEPARATE || bad >= GS_LORA_QKV) {
		/* fused modules: the first name refused, in words (recipe.h) */
		for (i = 0; !(bad & (1u << i)); i++)
			;
		{
			char *msg = gs_recipe_bad_target(1u << i, names, mla, m->q_lora_rank);
			fprintf(stderr, "gpusheet init: %s: --lora-targets: %s\n", m->path, msg);
			free(msg);
		}
		return 1;
	}
	fprintf(stderr, "gpusheet init: %s: --lora-targets names ", m->path);
	for (i = 0; gs_recipe_target_names[i]; i++)
		if (bad & (1u << i)) {
			fprintf(stderr, "%s%s", sep, gs_recipe_target_names[i]);
			sep = ", ";
		}
	fprintf(stderr, ", which the model's %s does not have; its linear projections are ",
		mla ? "multi-head latent attention" : "attention");
	for (sep = "", i = 0; i < GS_RECIPE_TARGETS; i++)
		if (has & (1u << gs_recipe_target_order[i])) {
			fprintf(stderr, "%s%s", sep, gs_recipe_target_names[gs_recipe_target_order[i]]);
			sep = ", ";
		}
	fprintf(stderr, "\n");
	return 1;
}

/*
 * A training recipe that cannot be sized honestly for this model, refused
 * with the reason (docs/formats.md 1.4, layer kinds): 1 when refused.
 */
static int S_train_refused(const gs_model *m, const S_plan *p, unsigned *targets)
{
	size_t i;

	/* the layers that keep a state are sized for the hybrids the recipe
	 * knows (Nemotron-H, Qwen3-Next: docs/formats.md §1.4), from the
	 * model's files */
	for (i = 0; i < m->nlayout; i++)
		if (m->layout[i].kind == GS_KV_STATE && !gs_recipe_hybrid_arch((int)m->arch)) {
			fprintf(stderr, "gpusheet init: %s: %llu of the model's layers keep a state "
				"(Mamba2 or Gated DeltaNet) in an architecture whose state mixers "
				"the training recipe does not know, so it is not sized\n", m->path,
				(unsigned long long)m->layout[i].layers);
			return 1;
		}
	if (p->task == 1)
		return S_train_targets(m, p, targets);
	return 0;
}

/*
 * The workload as a JSON tree; NULL with a message when the model cannot be
 * sized. The model is named by repo (a repo id of the Hugging Face cache,
 * at its commit) or by from (a path).
 */
/* The runtime object: every setting not given left to the engine version's
 * default, which the sheet states with its source (no version: the newest
 * the table knows, said so there). */
static json_t *S_runtime_json(const S_plan *p)
{
	json_t *rt = json_pack("{s:s}", "engine", p->engine);

	if (p->engine_version)
		json_object_set_new(rt, "version", json_string(p->engine_version));
	if (p->mnbt || p->entry) {
		json_t *st = json_object();
		if (p->entry)
			json_object_set_new(st, "entry_point", json_string(p->entry));
		if (p->mnbt)
			json_object_set_new(st, "max_num_batched_tokens", json_integer((json_int_t)p->mnbt));
		json_object_set_new(rt, "settings", st);
	}
	return rt;
}

static json_t *S_workload(const gs_model *m, const char *repo, const char *from, const char *id,
			  const S_plan *p)
{
	static const char *const task_ids[] = { "inference", "adaptation", "training" };
	static const char *const task_words[] = { "inference", "LoRA adaptation",
						  "full fine-tuning" };
	json_t *w = json_object(), *model, *weights, *cache, *req;
	uint64_t params, rep, rep_tensors = 0;
	unsigned targets = p->targets;
	char *replicated = NULL;
	char a[GS_FMT_MAX];
	char *title, *notes;
	const gs_model_dtype *main = gs_model_main_dtype(m);
	int kv = m->has_layers && m->has_attention_heads && m->has_kv_heads && m->has_head_dim;

	/* a quantised checkpoint's index gives the weights' bytes and its
	 * quantization_config their format (gpt-oss: MXFP4, no torch_dtype) */
	if ((m->weights == GS_WEIGHTS_NONE ||
	     (m->weights == GS_WEIGHTS_INDEX && !m->quant_method)) && !m->torch_dtype_bits &&
	    !p->format) {
		/* nothing gives the bits of a weight: a plain refusal, not a workload
		 * that the workload's checks would refuse */
		fprintf(stderr, "gpusheet init: %s: no weight header (safetensors or GGUF) to "
			"read the weights' types from, and config.json's torch_dtype %s%s%s gives no width gpusheet knows: the "
			"weights' bits are missing; add the weight files, or write \"weights\" "
			"(storage_bits, storage_format, compute_format) by hand\n", m->path,
			m->torch_dtype ? "\"" : "", m->torch_dtype ? m->torch_dtype : "(absent)",
			m->torch_dtype ? "\"" : "");
		json_decref(w);
		return NULL;
	}
	if (p->task && (!m->has_hidden || !m->has_intermediate || !m->has_vocab)) {
		fprintf(stderr, "gpusheet init: %s: the model files give no %s: a training recipe "
			"needs the hidden and intermediate sizes and the vocabulary; write the "
			"workload's training.recipe.geometry by hand (docs/formats.md 1.4)\n", m->path,
			!m->has_hidden ? "hidden size" : !m->has_intermediate ? "intermediate size"
			: "vocabulary size");
		json_decref(w);
		return NULL;
	}
	if (p->task && S_train_refused(m, p, &targets)) {
		json_decref(w);
		return NULL;
	}
	if (gs_model_params(m, &params)) {
		fprintf(stderr, "gpusheet init: %s: the model files give no parameter count "
			"(no safetensors or GGUF header, and no covered architecture in "
			"config.json)\n", m->path);
		json_decref(w);
		return NULL;
	}
	{
		/* the model's name, never its architecture class */
		char *name = gs_model_display_name(m, from ? from : m->ollama);
		if (p->task)
			title = gs_xasprintf("%s, %s, sequences of %s tokens, microbatch %llu", name,
					     p->task == 1 && p->qlora ? "QLoRA adaptation" : task_words[p->task],
					     gs_qty_fmt_int(a, p->context, GS_LANG_EN),
					     (unsigned long long)p->microbatch);
		else
			title = gs_xasprintf("%s, %s, context of %s tokens", name, task_words[p->task],
					     gs_qty_fmt_int(a, p->context, GS_LANG_EN));
		free(name);
	}
	json_object_set_new(w, "schema", json_string("gpusheet-workload"));
	json_object_set_new(w, "schema_version", json_integer(1));
	json_object_set_new(w, "id", json_string(id));
	json_object_set_new(w, "title", json_string(title));
	free(title);
	model = json_object();
	if (repo)
		json_object_set_new(model, "repo", json_string(repo));
	else if (m->ollama)
		json_object_set_new(model, "ollama", json_string(m->ollama));
	else
		json_object_set_new(model, "from", json_string(from));
	if (m->commit)
		json_object_set_new(model, "revision", json_string(m->commit));
	/* what the files give and one geometry cannot say, written out so that
	 * a reader sees it (the sheet checks it against the files) */
	if (m->has_active_params)
		json_object_set_new(model, "active_parameters", gs_jw_new_u64(m->active_params));
	if (gs_model_layout_needed(m)) {
		json_t *groups = json_array();
		size_t i;
		for (i = 0; i < m->nlayout; i++)
			json_array_append_new(groups, gs_kvlayout_group_json(&m->layout[i]));
		json_object_set_new(model, "cache_layout", groups);
	}
	json_object_set_new(w, "model", model);
	json_object_set_new(w, "task", json_string(task_ids[p->task]));
	weights = json_object();
	if (p->format)
		json_object_set_new(weights, "format", json_string(p->format));
	else if (m->weights == GS_WEIGHTS_GGUF)
		json_object_set_new(weights, "compute_format", json_string(
			p->task ? "float32: transformers dequantizes the GGUF blocks to train "
				  "(bf16 for torch_dtype=torch.bfloat16)"
				: "f32 activations, GGUF blocks dequantized by the runtime"));
	json_object_set_new(w, "weights", weights);
	if (p->task)
		json_object_set_new(w, "dimensions", S_train_dims(p->context, p->microbatch));
	else
		json_object_set_new(w, "dimensions", S_img(S_dims(p->context - p->output, p->output,
								  p->sequences), p));
	/* a training step keeps no KV cache */
	if (kv && !p->task) {
		/* dense by default: whether a window bounds the cache depends on
		 * the runtime (the notes say so, and the sheet shows both) */
		cache = json_pack("{s:s}", "kind", "dense");
		if (p->kvt)
			json_object_set_new(cache, "dtype", json_string(p->kvt->name));
		/* a block type has no whole bytes per value: its dtype says it all */
		if (!p->kvt || !gs_kvdtype_is_block(p->kvt))
			json_object_set_new(cache, "bytes_per_value", json_integer((json_int_t)p->kv_bytes));
		json_object_set_new(w, "cache", cache);
	}
	json_object_set_new(w, "reserve", S_reserve(m, p));
	if (p->engine)
		json_object_set_new(w, "runtime", S_runtime_json(p));
	if (p->task != 0)
		json_object_set_new(w, "training", S_training(p, targets));
	req = json_object();
	if (gs_model_replicated(m, &rep, &rep_tensors) == 0 && rep > 0) {
		/* (none found, as in a shard whose tensors' names gpusheet does not
		 * place: nothing to state, and a size of 0 is not one) */
		/* read from every header: the sheet checks it against them */
		json_object_set_new(req, "tensor_parallel_replicated", S_size_bytes(rep));
		replicated = gs_xasprintf(" Under tensor parallelism the norms, the biases of "
					  "row-parallel layers and the router gates stay whole on "
					  "every card: %llu tensors, %s B read from the headers "
					  "(`requirements.tensor_parallel_replicated`); with "
					  "`requirements.tensor_parallel` the sheet splits the rest.",
					  (unsigned long long)rep_tensors,
					  gs_qty_fmt_int(a, rep, GS_LANG_EN));
	}
	if (p->tp)
		json_object_set_new(req, "tensor_parallel", json_integer((json_int_t)p->tp));
	json_object_set_new(w, "requirements", req);
	json_object_set_new(w, "inputs", p->task ? S_train_inputs(p) : S_inputs(p));
	notes = S_notes(m, p, repo, from, params, kv, replicated);
	json_object_set_new(w, "notes", json_string(notes));
	free(notes);
	free(replicated);
	(void)main;
	return w;
}

/*
 * Writes the text to OUT without ever replacing a file: a temporary file in
 * the same folder, checked as a workload, then linked to its name (link(2)
 * fails when the name exists) and the temporary removed.
 */
static int S_write_new(const char *out, const char *text)
{
	char *tmp = gs_xasprintf("%s.tmp-XXXXXX", out);
	int fd = mkstemp(tmp), rc = -1;
	gs_diag d = GS_DIAG_INIT;
	gs_workload w;

	if (fd < 0) {
		fprintf(stderr, "gpusheet init: cannot create a file next to '%s': %s\n", out,
			strerror(errno));
		free(tmp);
		return -1;
	}
	if (gs_outfile_write_all(fd, text, strlen(text)) || fsync(fd)) {
		fprintf(stderr, "gpusheet init: cannot write '%s': %s\n", tmp, strerror(errno));
	} else if (gs_workload_read(tmp, &w, &d)) {
		fprintf(stderr, "gpusheet init: internal error: the sheet written does not pass "
			"the checks:\n");
		gs_diag_print(&d, stderr);
	} else {
		gs_workload_release(&w);
		if (link(tmp, out) == 0)
			rc = 0;
		else
			fprintf(stderr, "gpusheet init: '%s': %s (init never overwrites a file)\n",
				out, errno == EEXIST ? "already exists" : strerror(errno));
	}
	close(fd);
	unlink(tmp);
	gs_diag_release(&d);
	free(tmp);
	return rc;
}

/* --kv-dtype: the KV cache's values in a runtime's cache dtype (vLLM
 * --kv-cache-dtype fp8, llama.cpp -ctk q8_0): kvdtype.h. */
static int S_kv_dtype(S_plan *p)
{
	p->kvt = gs_kvdtype_find(p->kv_dtype);
	if (!p->kvt) {
		fprintf(stderr, "gpusheet init: --kv-dtype takes %s, not \"%s\"\n",
			gs_kvdtype_names(), p->kv_dtype);
		return -1;
	}
	p->kv_bytes = gs_kvdtype_is_block(p->kvt) ? 0 : (unsigned)p->kvt->block_bytes;
	return 0;
}

/*
 * A block type (q8_0, q4_0) on the model read: llama.cpp refuses a head
 * that is not whole blocks ("K cache type q8_0 with block size 32 does not
 * divide n_embd_head_k", src/llama-context.cpp), and a model whose layers
 * keep different caches is sized as vLLM and transformers keep it, neither
 * of which keeps these types. -1 with the reason.
 */
static int S_kv_block_check(const gs_model *m, const S_plan *p)
{
	const gs_kvdtype *t = p->kvt;

	if (!t || !gs_kvdtype_is_block(t) || p->task)
		return 0;
	if (gs_model_layout_needed(m)) {
		fprintf(stderr, "gpusheet init: %s: --kv-dtype %s is llama.cpp's block type, and the "
			"model's layers do not all keep the same cache (windows, chunks, a latent or "
			"a state per layer kind): the sheet sizes such a cache as vLLM and "
			"transformers keep it, and neither keeps %s; use --kv-dtype fp8, bf16 or "
			"fp16\n", m->path, t->name, t->name);
		return -1;
	}
	if (m->has_head_dim && m->head_dim % t->block_values != 0) {
		fprintf(stderr, "gpusheet init: %s: --kv-dtype %s keeps blocks of %llu values along "
			"each head, and the head dimension %llu is not a multiple of %llu: llama.cpp "
			"refuses it (\"K cache type %s with block size %llu does not divide "
			"n_embd_head_k=%llu\"); use --kv-dtype fp8, bf16 or fp16\n", m->path, t->name,
			(unsigned long long)t->block_values, (unsigned long long)m->head_dim,
			(unsigned long long)t->block_values, t->name,
			(unsigned long long)t->block_values, (unsigned long long)m->head_dim);
		return -1;
	}
	return 0;
}

/* One of names (NULL-terminated), or a usage error naming the option. */
static int S_one_of(const char *opt, const char *v, const char *const *names, const char *dflt,
		    const char **out)
{
	size_t i;

	if (!v) {
		*out = dflt;
		return 0;
	}
	for (i = 0; names[i]; i++)
		if (strcmp(names[i], v) == 0) {
			*out = names[i];
			return 0;
		}
	fprintf(stderr, "gpusheet init: --%s takes", opt);
	for (i = 0; names[i]; i++)
		fprintf(stderr, "%s %s", i ? (names[i + 1] ? "," : " or") : "", names[i]);
	fprintf(stderr, ", not \"%s\"\n", v);
	return -1;
}

/*
 * The recipe of a training or an adaptation from the options, with their
 * defaults: microbatch 1, accumulation 1, LoRA rank 16 on q, k, v and o,
 * AdamW, full activation checkpointing, no sharding (one card), no offload.
 * The output tokens and sequences are inference's: refused here.
 */
static int S_train_plan(S_plan *p, const char *otext, const char *stext, const char *mb,
			const char *acc, const char *rank, const char *tgt, const char *cards)
{
	static const char *const opts[] = { "adamw", "adamw8bit", "sgd", "sgd-momentum", NULL };
	static const char *const ckpts[] = { "none", "selective", "full", NULL };
	static const char *const shards[] = { "none", "zero1", "zero2", "zero3", "fsdp", NULL };
	static const char *const offs[] = { "none", "optimizer", "parameters", NULL };
	const char *bad;

	if ((otext && strcmp(otext, "0") != 0) || stext) {
		fprintf(stderr, "gpusheet init: --output-tokens and --sequences are for inference; "
			"a training step generates nothing: give the sequence length as --context "
			"and the sequences per step as --microbatch\n");
		return -1;
	}
	p->microbatch = p->accumulation = p->cards = 1;
	p->lora_rank = S_LORA_RANK;
	p->targets = GS_LORA_Q | GS_LORA_K | GS_LORA_V | GS_LORA_O;
	p->targets_given = tgt != NULL;
	if ((mb && S_uint("microbatch", mb, 65536, &p->microbatch)) ||
	    (acc && S_uint("accumulation", acc, 1048576, &p->accumulation)) ||
	    (rank && S_uint("lora-rank", rank, 65536, &p->lora_rank)) ||
	    (cards && S_uint("cards", cards, 4096, &p->cards)))
		return -1;
	if (tgt && gs_recipe_parse_targets(tgt, &p->targets, &bad)) {
		fprintf(stderr, "gpusheet init: --lora-targets: unknown module at \"%s\" (q_proj, "
			"k_proj, v_proj, o_proj, gate_proj, up_proj, down_proj; for multi-head "
			"latent attention q_a_proj, q_b_proj, kv_a_proj_with_mqa, kv_b_proj; "
			"Phi-3's qkv_proj, gate_up_proj; GPT-NeoX's query_key_value, dense, "
			"dense_h_to_4h, dense_4h_to_h; Mamba2's in_proj, out_proj; Gated DeltaNet's "
			"in_proj_qkvz, in_proj_ba, out_proj; the linear routers gate, shared_expert_gate, "
			"router; Qwen2.5-VL's vision tower attn.qkv, attn.proj, merger.mlp.0, "
			"merger.mlp.2; or all-linear, separated by commas)\n", bad);
		return -1;
	}
	if (p->task == 2 && (rank || tgt || p->qlora)) {
		fprintf(stderr, "gpusheet init: --lora-rank, --lora-targets and --qlora are for "
			"--task adaptation; --task training trains every parameter\n");
		return -1;
	}
	if (S_one_of("optimizer", p->optimizer, opts, "adamw", &p->optimizer) ||
	    S_one_of("checkpointing", p->checkpointing, ckpts, "full", &p->checkpointing) ||
	    S_one_of("sharding", p->sharding, shards, "none", &p->sharding) ||
	    S_one_of("offload", p->offload, offs, "none", &p->offload))
		return -1;
	if (strcmp(p->sharding, "none") == 0 && p->cards > 1) {
		fprintf(stderr, "gpusheet init: --cards %llu needs --sharding (zero1, zero2, zero3 "
			"or fsdp): without it every card holds everything\n",
			(unsigned long long)p->cards);
		return -1;
	}
	if (strcmp(p->offload, "none") != 0 && strcmp(p->sharding, "none") == 0) {
		fprintf(stderr, "gpusheet init: --offload %s needs --sharding: DeepSpeed and FSDP "
			"offload what they shard\n", p->offload);
		return -1;
	}
	if (strcmp(p->offload, "parameters") == 0 && strcmp(p->sharding, "zero3") != 0 &&
	    strcmp(p->sharding, "fsdp") != 0) {
		fprintf(stderr, "gpusheet init: --offload parameters needs --sharding zero3 or fsdp\n");
		return -1;
	}
	return 0;
}

/* --images WxH[xN]: width, height and count (1 by default, at most 1,024). */
static int S_images_parse(const char *text, S_plan *p)
{
	char *dup = gs_xstrdup(text), *parts[4] = { NULL }, *save = NULL, *t;
	uint64_t v[3] = { 0, 0, 1 };
	int n = 0, bad = 0;

	for (t = strtok_r(dup, "x", &save); t && n < 4; t = strtok_r(NULL, "x", &save))
		parts[n++] = t;
	if (n < 2 || n > 3 || text[0] == 'x' || text[strlen(text) - 1] == 'x' || strstr(text, "xx"))
		bad = 1;
	for (int i = 0; !bad && i < n; i++)
		if (gs_qty_parse_u64(parts[i], &v[i]) || v[i] < 1 ||
		    v[i] > (i == 2 ? 1024 : 1000000))
			bad = 1;
	free(dup);
	if (bad) {
		fprintf(stderr, "gpusheet init: invalid value for --images: \"%s\" (expected "
			"WIDTHxHEIGHT or WIDTHxHEIGHTxCOUNT in pixels, such as 1280x720x4; "
			"sides from 1 to 1000000, at most 1024 images)\n", text);
		return -1;
	}
	p->img.width = v[0];
	p->img.height = v[1];
	p->img_n = v[2];
	return 0;
}

/* The images' tokens by the model's processor; -1 with a message. */
static int S_images_tokens(const gs_model *m, S_plan *p)
{
	gs_vision_rules r;
	uint64_t w = p->img.width, h = p->img.height;
	char *why = NULL;

	if (gs_vision_rules_read(m, &r, &why) ||
	    gs_vision_image_tokens(&r, w, h, &p->img, &why)) {
		fprintf(stderr, "gpusheet init: --images: %s: %s\n", m->path, why);
		free(why);
		gs_vision_rules_release(&r);
		return -1;
	}
	p->img_tokens = p->img.tokens * p->img_n;
	p->img_words = r.fixed
		? gs_xstrdup(r.from_file ? "preprocessor_config.json: no pan and scan"
					   : "no preprocessor_config.json: the processor class's default, "
					     "assumed, no pan and scan")
		: r.from_file
		? gs_xasprintf("preprocessor_config.json: min_pixels %llu, max_pixels %llu",
			       (unsigned long long)r.min_pixels, (unsigned long long)r.max_pixels)
		: gs_xasprintf("no preprocessor_config.json: the processor class's defaults, "
			       "assumed, min_pixels %llu, max_pixels %llu",
			       (unsigned long long)r.min_pixels, (unsigned long long)r.max_pixels);
	gs_vision_rules_release(&r);
	return 0;
}

/* The training options' texts (NULL: not given); any: one of them was. */
typedef struct {
	const char *mb, *acc, *rank, *tgt, *cards;
	int any;
} S_train_texts;

/* The plan from the options' texts: 0, or the exit code (message printed). */
static int S_plan_make(S_plan *p, const char *ctext, const char *otext, const char *stext,
		       const char *tptext, const char *imgtext, const char *task,
		       const S_train_texts *tt)
{
	/* the workload's words, and the older ones of this option */
	static const char *const tasks[] = { "inference", "adaptation", "training", "lora",
					     "full", NULL };
	int c, train = task && strcmp(task, "inference") != 0;

	p->sequences = 1;
	if (S_uint("context", ctext, UINT64_C(1) << 32, &p->context) ||
	    (otext && S_uint("output-tokens", otext, UINT64_C(1) << 32, &p->output)) ||
	    (stext && S_uint("sequences", stext, 65536, &p->sequences)) ||
	    (tptext && S_uint("tensor-parallel", tptext, 64, &p->tp)))
		return GS_EXIT_INVALID;
	if (imgtext && S_images_parse(imgtext, p))
		return GS_EXIT_INVALID;
	if (p->format && gs_wformat_find(p->format) < 0) {
		fprintf(stderr, "gpusheet init: --format takes %s, not \"%s\"\n",
			gs_wformat_names(), p->format);
		return GS_EXIT_USAGE;
	}
	/* default: 256 generated tokens, at most a quarter of the context;
	 * training generates none (S_train_plan) */
	if (train)
		otext = otext ? otext : "0";
	if (!otext)
		p->output = p->context / 4 < 256 ? p->context / 4 : 256;
	if (p->output == 0 && !train) {
		fprintf(stderr, "gpusheet init: --context %llu leaves no room for generated "
			"tokens: give at least 4, or --output-tokens\n",
			(unsigned long long)p->context);
		return GS_EXIT_INVALID;
	}
	if (p->output >= p->context && p->output) {
		fprintf(stderr, "gpusheet init: --output-tokens (%llu) must be less than --context "
			"(%llu): the context holds the input and the generated tokens\n",
			(unsigned long long)p->output, (unsigned long long)p->context);
		return GS_EXIT_INVALID;
	}
	if (task) {
		for (c = 0; tasks[c] && strcmp(tasks[c], task) != 0; c++)
			;
		if (!tasks[c]) {
			fprintf(stderr, "gpusheet init: --task takes inference, adaptation (LoRA) "
				"or training (full fine-tuning), not \"%s\" (see gpusheet --help)\n",
				task);
			return GS_EXIT_USAGE;
		}
		p->task = c == 3 ? 1 : c == 4 ? 2 : c;
	}
	if (p->task && S_train_plan(p, otext, stext, tt->mb, tt->acc, tt->rank, tt->tgt, tt->cards))
		return GS_EXIT_USAGE;
	if (!p->task && tt->any)
		return S_usage("--microbatch, --lora-rank, --optimizer and the other training "
			       "options need --task adaptation or --task training");
	if (p->kv_dtype && S_kv_dtype(p))
		return GS_EXIT_USAGE;
	if ((p->engine_version || p->mnbt || p->entry) && !p->engine)
		return S_usage("--engine-version, --max-num-batched-tokens and --entry-point need "
			       "--engine vllm");
	if (p->entry && strcmp(p->entry, "serve") != 0 && strcmp(p->entry, "llm") != 0) {
		fprintf(stderr, "gpusheet init: invalid value for --entry-point: \"%s\" (expected "
			"serve, `vllm serve`, or llm, vLLM's LLM class)\n", p->entry);
		return GS_EXIT_USAGE;
	}
	if (p->engine_version && !gs_workload_release_valid(p->engine_version)) {
		fprintf(stderr, "gpusheet init: invalid value for --engine-version: \"%s\" (expected "
			"a version such as \"0.8\", \"0.10.1\" or \"0.4.7.post1\")\n", p->engine_version);
		return GS_EXIT_USAGE;
	}
	if (p->engine && strcmp(p->engine, "vllm") != 0 && strcmp(p->engine, "sglang") != 0) {
		fprintf(stderr, "gpusheet init: --engine %s: only vllm and sglang have a budget of "
			"their own in this version (docs/formats.md, 1.4)\n", p->engine);
		return GS_EXIT_USAGE;
	}
	if (p->engine && strcmp(p->engine, "sglang") == 0) {
		if (p->mnbt)
			return S_usage("--max-num-batched-tokens is vLLM's: SGLang plans its "
				       "steps with chunked_prefill_size");
		if (p->entry)
			return S_usage("--entry-point is vLLM's (serve or llm)");
		if (p->engine_version && !gs_workload_sglang_version_known(p->engine_version)) {
			fprintf(stderr, "gpusheet init: --engine-version %s: SGLang's default "
				"mem_fraction_static for that version is not in the table (it knows "
				"0.4 and later, docs/formats.md 1.4); state "
				"runtime.settings.mem_fraction_static in the workload instead\n",
				p->engine_version);
			return GS_EXIT_USAGE;
		}
	}
	if (p->engine && p->kvt && gs_kvdtype_is_block(p->kvt)) {
		fprintf(stderr, "gpusheet init: --kv-dtype %s is llama.cpp's block type: %s keeps "
			"no such cache (its --kv-cache-dtype is auto or fp8); use --kv-dtype fp8, or "
			"leave --engine out\n", p->kvt->name,
			strcmp(p->engine, "sglang") == 0 ? "SGLang" : "vLLM");
		return GS_EXIT_USAGE;
	}
	return 0;
}

static int S_help(void)
{
	printf("usage: gpusheet init --model PATH|ORG/NAME[@REVISION]|ollama:NAME[:TAG] --context N "
	       "[--output-tokens N] [--sequences N] "
	       "[--task inference|adaptation|training] [--kv-dtype fp16|bf16|fp32|fp8|q8_0|q4_0] "
	       "[--engine vllm|sglang [--engine-version V] [--max-num-batched-tokens N (vllm)] [--entry-point serve|llm (vllm)]] [--format FORMAT] [--tensor-parallel N] "
	       "[--images WxH[xN]] "
	       "[--id ID] --out FILE\n"
	       "  training (--task adaptation|training): [--microbatch N] "
	       "[--accumulation N] [--lora-rank N] [--lora-targets q_proj,v_proj,...|all-linear] "
	       "[--qlora] [--optimizer adamw|adamw8bit|sgd|sgd-momentum] "
	       "[--checkpointing none|selective|full] "
	       "[--sharding none|zero1|zero2|zero3|fsdp] [--cards N] "
	       "[--offload none|optimizer|parameters]\n"
	       "FORMAT: %s\n", gs_wformat_names());
	return GS_EXIT_OK;
}

/* What the command line names: the texts, read into the plan by S_plan_make. */
typedef struct {
	const char *model, *ctext, *otext, *stext, *task;
	const char *idtext, *out, *tptext, *imgtext;
	S_train_texts tt;
} S_opts;

/* The options into o and p; -1 to go on, else the exit code (help, usage, a bad value). */
static int S_options(int argc, char **argv, S_opts *o, S_plan *p)
{
	static const struct option opts[] = {
		{ "model", required_argument, NULL, 'm' },
		{ "context", required_argument, NULL, 'c' },
		{ "output-tokens", required_argument, NULL, 'o' },
		{ "sequences", required_argument, NULL, 's' },
		{ "task", required_argument, NULL, 't' },
		{ "id", required_argument, NULL, 'i' },
		{ "kv-dtype", required_argument, NULL, 'k' },
		{ "engine", required_argument, NULL, 'e' },
		{ "engine-version", required_argument, NULL, 'V' },
		{ "max-num-batched-tokens", required_argument, NULL, 'M' },
		{ "entry-point", required_argument, NULL, 'E' },
		{ "format", required_argument, NULL, 'f' },
		{ "tensor-parallel", required_argument, NULL, 'X' },
		{ "images", required_argument, NULL, 'I' },
		{ "out", required_argument, NULL, 'O' },
		{ "microbatch", required_argument, NULL, 'B' },
		{ "accumulation", required_argument, NULL, 'A' },
		{ "lora-rank", required_argument, NULL, 'R' },
		{ "lora-targets", required_argument, NULL, 'T' },
		{ "qlora", no_argument, NULL, 'Q' },
		{ "optimizer", required_argument, NULL, 'P' },
		{ "checkpointing", required_argument, NULL, 'C' },
		{ "sharding", required_argument, NULL, 'S' },
		{ "cards", required_argument, NULL, 'N' },
		{ "offload", required_argument, NULL, 'F' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct stat st;
	int c, rc;

	memset(o, 0, sizeof(*o));
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'm': o->model = optarg; break;
		case 'c': o->ctext = optarg; break;
		case 'o': o->otext = optarg; break;
		case 's': o->stext = optarg; break;
		case 't': o->task = optarg; break;
		case 'i': o->idtext = optarg; break;
		case 'k': p->kv_dtype = optarg; break;
		case 'e': p->engine = optarg; break;
		case 'V': p->engine_version = optarg; break;
		case 'M':
			if (S_uint("max-num-batched-tokens", optarg, UINT64_C(1) << 30, &p->mnbt))
				return GS_EXIT_USAGE;
			break;
		case 'E': p->entry = optarg; break;
		case 'f': p->format = optarg; break;
		case 'X': o->tptext = optarg; break;
		case 'I': o->imgtext = optarg; break;
		case 'O': o->out = optarg; break;
		case 'B': o->tt.mb = optarg; o->tt.any = 1; break;
		case 'A': o->tt.acc = optarg; o->tt.any = 1; break;
		case 'R': o->tt.rank = optarg; o->tt.any = 1; break;
		case 'T': o->tt.tgt = optarg; o->tt.any = 1; break;
		case 'Q': p->qlora = 1; o->tt.any = 1; break;
		case 'P': p->optimizer = optarg; o->tt.any = 1; break;
		case 'C': p->checkpointing = optarg; o->tt.any = 1; break;
		case 'S': p->sharding = optarg; o->tt.any = 1; break;
		case 'N': o->tt.cards = optarg; o->tt.any = 1; break;
		case 'F': p->offload = optarg; o->tt.any = 1; break;
		case 'h':
			return S_help();
		default:
			gs_suggest_bad_option("init", opts, argv, optind);
			return GS_EXIT_USAGE;
		}
	}
	if (optind != argc)
		return S_usage("unexpected argument");
	if (!o->model || !o->ctext || !o->out)
		return S_usage("--model, --context and --out are required");
	rc = S_plan_make(p, o->ctext, o->otext, o->stext, o->tptext, o->imgtext, o->task, &o->tt);
	if (rc)
		return rc;
	if (o->idtext && !gs_jr_is_id(o->idtext)) {
		fprintf(stderr, "gpusheet init: invalid --id \"%s\" (1 to 64 characters "
			"[a-z0-9][a-z0-9._-]*)\n", o->idtext);
		return GS_EXIT_INVALID;
	}
	if (lstat(o->out, &st) == 0) {
		fprintf(stderr, "gpusheet init: '%s' already exists (init never overwrites a file)\n",
			o->out);
		return GS_EXIT_INVALID;
	}
	return -1;
}

/* The model read (a file, a folder or a repo id of the Hugging Face cache), checked
 * against the plan, and the sheet's folder made: 0, or the exit code (message printed;
 * nothing held). repo: the repo id, or NULL; from: the path to the model, or NULL. */
static int S_model(const S_opts *o, S_plan *p, gs_model *m, char **repop, char **fromp)
{
	gs_diag d = GS_DIAG_INIT;
	char *repo = NULL, *rev = NULL;
	struct stat st;
	int rc;

	*fromp = NULL;
	if (lstat(o->model, &st) != 0 && gs_ollama_is_ref(o->model)) {
		/* Ollama's store: named so in the sheet (model.ollama) */
		rc = gs_model_read_ollama(o->model, m, &d);
	} else if (lstat(o->model, &st) != 0 && gs_hfcache_split_ref(o->model, &repo, &rev) == 0) {
		/* a repo id of the Hugging Face cache: named so in the sheet */
		rc = gs_model_read_repo(repo, rev, m, &d);
		free(rev);
	} else if (stat(o->model, &st) != 0) {
		fprintf(stderr, "gpusheet init: cannot read '%s': %s\n", o->model, strerror(errno));
		return GS_EXIT_INVALID;
	} else {
		rc = gs_model_read(o->model, m, &d);
	}
	if (rc) {
		gs_diag_print(&d, stderr);
		gs_diag_release(&d);
		free(repo);
		return GS_EXIT_INVALID;
	}
	if (p->format) {
		gs_wformat_result fr;
		char *why = NULL;
		if (gs_wformat_bytes(m, (gs_wformat_id)gs_wformat_find(p->format), &fr, &why)) {
			fprintf(stderr, "gpusheet init: --format %s: %s\n", p->format, why);
			free(why);
			free(repo);
			gs_model_release(m);
			return GS_EXIT_INVALID;
		}
	}
	if (S_kv_block_check(m, p) || (o->imgtext && S_images_tokens(m, p))) {
		free(repo);
		gs_model_release(m);
		return GS_EXIT_INVALID;
	}
	/* the model read: the sheet's folder, created when missing, then the path to it */
	if (gs_outfile_make_parents(o->out, "init")
	    || (!repo && !m->ollama && !(*fromp = S_from_path(o->model, o->out)))) {
		free(repo);
		gs_model_release(m);
		return GS_EXIT_INVALID;
	}
	*repop = repo;
	return 0;
}

/* The workload written to out as new, its path said: the exit code. */
static int S_emit(const gs_model *m, const char *repo, const char *from, const char *id,
		  const S_plan *p, const char *out)
{
	json_t *w = S_workload(m, repo, from, id, p);
	char *text;
	int rc = GS_EXIT_INVALID;

	if (w) {
		text = json_dumps(w, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		if (!text)
			GS_OOM("json_dumps of the workload");
		{
			char *t2 = gs_xasprintf("%s\n", text);
			free(text);
			text = t2;
		}
		if (S_write_new(out, text) == 0) {
			printf("%s\n", out);
			rc = GS_EXIT_OK;
		}
		free(text);
		json_decref(w);
	}
	return rc;
}

int gs_cmd_init(int argc, char **argv)
{
	S_opts o;
	S_plan p;
	gs_model m;
	char *from, *id, *repo = NULL;
	int rc;
	unsigned bits;
	const gs_model_dtype *main;

	memset(&p, 0, sizeof(p));
	rc = S_options(argc, argv, &o, &p);
	if (rc >= 0)
		return rc;
	rc = S_model(&o, &p, &m, &repo, &from);
	if (rc)
		return rc;
	/* activations and KV values in the checkpoint's compute width; GGUF: f16 */
	main = gs_model_main_dtype(&m);
	bits = m.weights == GS_WEIGHTS_GGUF ? 16 : m.torch_dtype_bits ? m.torch_dtype_bits
		: main && main->block == 1 ? (unsigned)main->block_bytes * 8 : 16;
	p.value_bytes = bits / 8;
	if (!p.kv_dtype)
		p.kv_bytes = p.value_bytes;
	/* named after the model, never after a snapshot's commit */
	id = o.idtext ? gs_xstrdup(o.idtext) : S_default_id(m.repo_id ? m.repo_id
							     : m.ollama ? m.ollama : from);
	/* a context beyond the model's trained positions: said, not refused */
	if (m.has_context && p.context > m.context) {
		char a[GS_FMT_MAX], b[GS_FMT_MAX];
		fprintf(stderr, "gpusheet init: warning: the context of %s tokens exceeds the model's "
			"max_position_embeddings (%s): the sheet sizes it, but the model may not "
			"serve it\n", gs_qty_fmt_int(a, p.context, GS_LANG_EN),
			gs_qty_fmt_int(b, m.context, GS_LANG_EN));
	}
	rc = S_emit(&m, repo, from, id, &p, o.out);
	free(id);
	free(from);
	free(repo);
	free(p.img_words);
	gs_model_release(&m);
	return rc;
}
