/* logvllm: vLLM start-up logs (logimport.h). */
#define _GNU_SOURCE
#include "logimport_int.h"
#include "buf.h"
#include "util.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- vLLM ---- */

static const gs_logline_unit S_gib_units[] = { { "GiB", GIB }, { NULL, 0 } };
const gs_logline_unit gs_logvllm_gb_as_gib[] = { { "GiB", GIB }, { "GB", GIB }, { NULL, 0 } };
static const char S_note_gb[] =
	"labelled GB but computed in GiB (bytes / 2^30) by vLLM: read as GiB";
static const char S_note_2d[] = "printed with 2 decimals: within 0.005 GiB";

/* The rank a process prefix names; sets c->prefix. Returns text after it. */
static const char *S_vllm_prefix(gs_logctx *c, const char *t)
{
	const char *p = t, *close, *name, *tp;
	size_t i, n;

	free(c->prefix);
	c->prefix = NULL;
	c->device = 0;
	gs_logline_blanks(&p);
	if (*p != '(')
		return t;
	close = strchr(p, ')');
	if (!close || close - p > 200 || !memmem(p, (size_t)(close - p), " pid=", 5))
		return t;
	name = p + 1;
	n = (size_t)(close - name);
	c->prefix = gs_xasprintf("%.*s", (int)n, name);
	tp = memmem(name, n, "_TP", 3);
	if (tp && isdigit((unsigned char)tp[3])) {
		c->device = strtol(tp + 3, NULL, 10);
	} else if (strncmp(name, "EngineCore_DP", 13) == 0 && isdigit((unsigned char)name[13])) {
		c->device = strtol(name + 13, NULL, 10);
	} else if (strncmp(name, "VllmWorkerProcess", 17) == 0 ||
		   strncmp(name, "RayWorkerWrapper", 16) == 0) {
		/* the log gives no rank: numbered 1, 2, ... as their pids first appear */
		for (i = 0; i < c->nworkers; i++)
			if (strcmp(c->workers[i], c->prefix) == 0)
				break;
		if (i == c->nworkers) {
			c->workers = gs_xrealloc(c->workers, (c->nworkers + 1) * sizeof(*c->workers));
			c->workers[c->nworkers++] = gs_xstrdup(c->prefix);
		}
		c->device = (int64_t)i + 1;
	}
	return close + 1;
}

/* "X GiB" (or mislabelled GB) after the literal at p; figure name. */
int gs_logvllm_size_after(gs_logctx *c, const char *t, const char *lit, const char *name,
			     const gs_logline_unit *units, const char *note)
{
	const char *p = strstr(t, lit), *aw;
	int64_t v;
	size_t n;
	int r;

	if (!p)
		return GS_LL_NO;
	p += strlen(lit);
	r = gs_logline_size(c, &p, units, &v, &aw, &n);
	if (r != GS_LL_OK)
		return r;
	if (units == gs_logvllm_gb_as_gib && memmem(aw, n, "GiB", 3))
		note = S_note_2d;
	gs_logline_fig_size(c, name, c->device, v, aw, n, note);
	return GS_LL_OK;
}

static void S_vllm_config(gs_logctx *c, const char *p)
{
	static const struct {
		const char *key, *name;
	} keys[] = {
		{ "model", "model" },
		{ "dtype", "dtype" },
		{ "max_seq_len", "max_model_len" },
		{ "tensor_parallel_size", "tensor_parallel_size" },
		{ "pipeline_parallel_size", "pipeline_parallel_size" },
		{ "quantization", "quantization" },
		{ "kv_cache_dtype", "kv_cache_dtype" },
		{ "block_size", "block_size" },
		{ "gpu_memory_utilization", "gpu_memory_utilization" },
		{ NULL, NULL }
	};
	while (*p) {
		const char *k = p, *v, *e;
		size_t kn, i;
		int depth = 0;
		while (*p == '_' || isalnum((unsigned char)*p))
			p++;
		kn = (size_t)(p - k);
		if (*p != '=' || kn == 0) {
			/* not key=value: skip to the next ", " */
			while (*p && !(p[0] == ',' && p[1] == ' '))
				p++;
			if (*p)
				p += 2;
			continue;
		}
		v = ++p;
		if (*p == '\'' || *p == '"') {
			char qc = *p++;
			v = p;
			while (*p && *p != qc)
				p++;
			e = p;
			if (*p)
				p++;
		} else {
			while (*p && !(depth == 0 && p[0] == ',' && (p[1] == ' ' || !p[1])) &&
			       !(depth == 0 && *p == ')')) {
				if (*p == '(' || *p == '[' || *p == '{')
					depth++;
				else if ((*p == ')' || *p == ']' || *p == '}') && depth > 0)
					depth--;
				p++;
			}
			e = p;
		}
		for (i = 0; keys[i].key; i++) {
			if (strlen(keys[i].key) != kn || memcmp(keys[i].key, k, kn) != 0)
				continue;
			if (strcmp(keys[i].key, "dtype") == 0 && e - v > 6 &&
			    memcmp(v, "torch.", 6) == 0)
				v += 6;
			if (e > v && !(e - v == 4 && memcmp(v, "None", 4) == 0))
				gs_logline_add_setting(c, keys[i].name, v, (size_t)(e - v));
		}
		while (*p == ',' || *p == ' ' || *p == ')')
			p++;
	}
}

/* key=value items of the profiling results (0.6.4 and 0.6.5 forms). */
static int S_vllm_kv_items(gs_logctx *c, const char *t)
{
	static const struct {
		const char *key, *name;
		int kind;   /* 0 size, 1 fraction setting, 2 seconds, 3 device total */
	} keys[] = {
		{ "total_gpu_memory=", "total_gpu_memory", 3 },
		{ "initial_memory_usage=", "initial_memory_usage", 0 },
		{ "peak_torch_memory=", "peak_torch_memory", 0 },
		{ "memory_usage_post_profile=", "memory_usage_post_profile", 0 },
		{ "non_torch_memory=", "non_torch_memory", 0 },
		{ "kv_cache_size=", "kv_cache_memory", 0 },
		{ "gpu_memory_utilization=", "gpu_memory_utilization", 1 },
		{ "duration=", "profile_seconds", 2 },
		{ NULL, NULL, 0 }
	};
	size_t i;
	int any = 0;

	for (i = 0; keys[i].key; i++) {
		const char *p = strstr(t, keys[i].key), *aw;
		int64_t v;
		size_t n;
		gs_logline_num x;
		int r;
		if (!p || (p > t && (isalnum((unsigned char)p[-1]) || p[-1] == '_')))
			continue;
		p += strlen(keys[i].key);
		if (keys[i].kind == 1 || keys[i].kind == 2) {
			if ((r = gs_logline_number(c, &p, 0, &x)) != GS_LL_OK)
				return r == GS_LL_FAIL ? GS_LL_FAIL : GS_LL_NO;
			if (keys[i].kind == 1)
				gs_logline_add_setting(c, keys[i].name, x.s, x.n);
			else
				gs_logline_fig_dec(c, keys[i].name, c->device, GS_LU_SECONDS, &x, x.s, x.n);
			any = 1;
			continue;
		}
		r = gs_logline_size(c, &p, S_gib_units, &v, &aw, &n);
		if (r == GS_LL_FAIL)
			return GS_LL_FAIL;
		if (r != GS_LL_OK)
			continue;
		if (keys[i].kind == 3)
			gs_logline_total(c, c->device, v, aw, n);
		gs_logline_fig_size(c, keys[i].name, c->device, v, aw, n, S_note_2d);
		any = 1;
	}
	return any ? GS_LL_OK : GS_LL_NO;
}

static int S_vllm_failure(gs_logctx *c, const char *msg)
{
	return gs_logline_add_phase(c, "kv_cache_init", c->device, 1, msg) ? GS_LL_OK : GS_LL_NO;
}

/* the version and the engine configuration */
static int S_vllm_start(gs_logctx *c, const char *t)
{
	const char *p;
	int any = 0;

	/* the version and the engine configuration */
	if ((p = strstr(t, "Initializing a V1 LLM engine (v")) ||
	    (p = strstr(t, "Initializing an LLM engine (v"))) {
		const char *vs = strstr(p, "(v") + 2, *ve = strchr(vs, ')');
		if (ve && ve > vs && ve - vs < 64) {
			if (c->li->version && c->li->run_lines &&
			    (strlen(c->li->version) != (size_t)(ve - vs) ||
			     memcmp(c->li->version, vs, (size_t)(ve - vs)) != 0)) {
				gs_logline_err(c, vs, "vLLM %.*s here, but line %zu says %s: two versions in one log",
				      (int)(ve - vs), vs, c->li->version_line, c->li->version);
				return GS_LL_FAIL;
			}
			if (!c->li->version) {
				c->li->version = gs_xasprintf("%.*s", (int)(ve - vs), vs);
				c->li->version_line = c->line;
			}
		}
	}
	if ((p = strstr(t, "engine with config: ")) || (p = strstr(t, "engine (v"))) {
		const char *cfg = strstr(p, "with config: ");
		if (cfg) {
			S_vllm_config(c, cfg + strlen("with config: "));
			any = 1;
		}
	}
	return any ? GS_LL_OK : GS_LL_NO;
}

/* V0 block counts (and V1's first form), the weights, V0's profiling lines */
static int S_vllm_v0(gs_logctx *c, const char *t)
{
	const char *p, *aw;
	int64_t v;
	size_t n;
	gs_logline_num x;
	int r;
	int any = 0;

	/* V0 block counts, V1's first form */
	if ((p = strstr(t, "GPU blocks: ")) || (p = strstr(t, "CUDA blocks: "))) {
		p = strchr(p, ':') + 1;
		if ((r = gs_logline_number(c, &p, 1, &x)) == GS_LL_FAIL)
			return GS_LL_FAIL;
		if (r == GS_LL_OK) {
			if (gs_logline_int(c, &x, &v) != GS_LL_OK)
				return GS_LL_FAIL;
			gs_logline_fig_int(c, "kv_cache_blocks", c->device, GS_LU_BLOCKS, v, x.s, x.n, 0);
			any = 1;
			if ((p = strstr(p, "CPU blocks: "))) {
				p += strlen("CPU blocks: ");
				if ((r = gs_logline_number(c, &p, 1, &x)) == GS_LL_FAIL)
					return GS_LL_FAIL;
				if (r == GS_LL_OK) {
					if (gs_logline_int(c, &x, &v) != GS_LL_OK)
						return GS_LL_FAIL;
					gs_logline_fig_int(c, "cpu_blocks", c->device, GS_LU_BLOCKS, v, x.s, x.n, 0);
				}
			}
		}
	}
	/* weights */
	if ((p = strstr(t, "Loading model weights took ")) || (p = strstr(t, "Model loading took "))) {
		p = strstr(p, "took ") + 5;
		if ((r = gs_logline_size(c, &p, gs_logvllm_gb_as_gib, &v, &aw, &n)) == GS_LL_FAIL)
			return GS_LL_FAIL;
		if (r == GS_LL_MORE)
			return GS_LL_MORE;
		if (r == GS_LL_OK) {
			gs_logline_fig_size(c, "weights", c->device, v, aw, n,
				   memmem(aw, n, "GiB", 3) ? S_note_2d : S_note_gb);
			any = 1;
			gs_logline_lit(&p, " memory");
			if (gs_logline_lit(&p, " and ") == GS_LL_OK && gs_logline_number(c, &p, 0, &x) == GS_LL_OK &&
			    gs_logline_lit(&p, " seconds") == GS_LL_OK)
				gs_logline_fig_dec(c, "load_seconds", c->device, GS_LU_SECONDS, &x, x.s, x.n);
		}
	}
	/* V0 profiling, key=value forms */
	if (strstr(t, "total_gpu_memory=") || strstr(t, "kv_cache_size=") ||
	    strstr(t, "peak_torch_memory=") || strstr(t, "non_torch_memory=")) {
		if ((r = S_vllm_kv_items(c, t)) == GS_LL_FAIL)
			return GS_LL_FAIL;
		any |= r == GS_LL_OK;
	}
	/* V0 sentence form */
	if ((p = strstr(t, "can use total_gpu_memory ("))) {
		p += strlen("can use total_gpu_memory (");
		if ((r = gs_logline_size(c, &p, S_gib_units, &v, &aw, &n)) == GS_LL_FAIL)
			return GS_LL_FAIL;
		if (r == GS_LL_OK) {
			gs_logline_total(c, c->device, v, aw, n);
			gs_logline_fig_size(c, "total_gpu_memory", c->device, v, aw, n, S_note_2d);
			any = 1;
			if (gs_logline_lit(&p, ") x gpu_memory_utilization (") == GS_LL_OK &&
			    gs_logline_number(c, &p, 0, &x) == GS_LL_OK) {
				gs_logline_add_setting(c, "gpu_memory_utilization", x.s, x.n);
				if (gs_logline_lit(&p, ") = ") == GS_LL_OK &&
				    gs_logline_size(c, &p, S_gib_units, &v, &aw, &n) == GS_LL_OK)
					gs_logline_fig_size(c, "usable_memory", c->device, v, aw, n, S_note_2d);
			}
		}
	}
	return any ? GS_LL_OK : GS_LL_NO;
}

/* the sentences that state one size each, the profiling time */
static int S_vllm_sentences(gs_logctx *c, const char *t)
{
	const char *p;
	gs_logline_num x;
	int r;
	int any = 0;

	{
		static const struct {
			const char *lit, *name;
		} sent[] = {
			{ "model weights take ", "weights" },
			{ "non_torch_memory takes ", "non_torch_memory" },
			{ "PyTorch activation peak memory takes ", "activation_peak" },
			{ "the rest of the memory reserved for KV Cache is ", "kv_cache_memory" },
			/* V1 DEBUG profiling line */
			{ "Total non KV cache memory: ", "non_kv_cache_memory" },
			{ "torch peak memory increase: ", "activation_peak" },
			{ "non-torch forward increase memory: ", "non_torch_memory" },
			{ "weights memory: ", "weights" },
			/* V1 capacity */
			{ "Available KV cache memory: ", "kv_cache_memory" },
			{ NULL, NULL }
		};
		size_t i;
		for (i = 0; sent[i].lit; i++) {
			r = gs_logvllm_size_after(c, t, sent[i].lit, sent[i].name, S_gib_units, S_note_2d);
			if (r == GS_LL_FAIL)
				return GS_LL_FAIL;
			any |= r == GS_LL_OK;
		}
	}
	if ((p = strstr(t, "Memory profiling takes "))) {
		p += strlen("Memory profiling takes ");
		if ((r = gs_logline_number(c, &p, 0, &x)) == GS_LL_FAIL)
			return GS_LL_FAIL;
		if (r == GS_LL_OK && gs_logline_lit(&p, " seconds") == GS_LL_OK) {
			gs_logline_fig_dec(c, "profile_seconds", c->device, GS_LU_SECONDS, &x, x.s, x.n);
			any = 1;
		}
	}
	return any ? GS_LL_OK : GS_LL_NO;
}

/* V1's ledger: free and total at start-up, the usage it states */
static int S_vllm_ledger(gs_logctx *c, const char *t)
{
	const char *p, *aw;
	int64_t v;
	size_t n;
	gs_logline_num x;
	int r;
	int any = 0;

	/* V1 ledger: Free memory on device (F/T GiB) on startup. Desired ... (u, R GiB). Actual usage is ... */
	if ((p = strstr(t, "Free memory on device ("))) {
		const char *q = p + strlen("Free memory on device (");
		int64_t fr, tot;
		const char *aw_f;
		size_t n_f;
		gs_logline_num xf;
		if ((r = gs_logline_number(c, &q, 0, &xf)) == GS_LL_FAIL)
			return GS_LL_FAIL;
		if (r == GS_LL_OK && gs_logline_lit(&q, "/") == GS_LL_OK && gs_logline_number(c, &q, 0, &x) == GS_LL_OK &&
		    gs_logline_lit(&q, " GiB) on startup") == GS_LL_OK) {
			if (gs_logline_scale(c, &xf, GIB, &fr) != GS_LL_OK || gs_logline_scale(c, &x, GIB, &tot) != GS_LL_OK)
				return GS_LL_FAIL;
			aw_f = xf.s;
			n_f = (size_t)(x.s + x.n - xf.s);
			gs_logline_total(c, c->device, tot, x.s, x.n);
			gs_logline_free_at_start(c, c->device, fr, aw_f, n_f);
			gs_logline_fig_size(c, "total_gpu_memory", c->device, tot, x.s, x.n, S_note_2d);
			gs_logline_fig_size(c, "free_at_startup", c->device, fr, xf.s, xf.n, S_note_2d);
			any = 1;
			if ((p = strstr(q, "GPU memory utilization ("))) {
				q = p + strlen("GPU memory utilization (");
				if (gs_logline_number(c, &q, 0, &x) == GS_LL_OK) {
					gs_logline_add_setting(c, "gpu_memory_utilization", x.s, x.n);
					if (gs_logline_lit(&q, ", ") == GS_LL_OK &&
					    gs_logline_size(c, &q, S_gib_units, &v, &aw, &n) == GS_LL_OK)
						gs_logline_fig_size(c, "usable_memory", c->device, v, aw, n, S_note_2d);
				}
			} else if ((p = strstr(q, "utilization is ("))) {
				q = p + strlen("utilization is (");
				if (gs_logline_number(c, &q, 0, &x) == GS_LL_OK) {
					gs_logline_add_setting(c, "gpu_memory_utilization", x.s, x.n);
					if (gs_logline_lit(&q, ", ") == GS_LL_OK &&
					    gs_logline_size(c, &q, S_gib_units, &v, &aw, &n) == GS_LL_OK)
						gs_logline_fig_size(c, "usable_memory", c->device, v, aw, n, S_note_2d);
				}
			}
			if (strstr(t, "is less than desired GPU memory utilization"))
				S_vllm_failure(c, t);
		}
	}
	if ((p = strstr(t, "Actual usage is "))) {
		static const struct {
			const char *after, *name;
		} led[] = {
			{ " for weight", "weights" },
			{ " for peak activation", "activation_peak" },
			{ " for non-torch memory", "non_torch_memory" },
			{ " non-torch memory", "non_torch_memory" },
			{ " for CUDAGraph memory", "cuda_graph_memory" },
			{ NULL, NULL }
		};
		const char *q = p + strlen("Actual usage is ");
		while (*q) {
			size_t i;
			gs_logline_blanks(&q);
			if (gs_logline_lit(&q, "and ") == GS_LL_OK)
				continue;
			if ((r = gs_logline_size(c, &q, S_gib_units, &v, &aw, &n)) == GS_LL_FAIL)
				return GS_LL_FAIL;
			if (r != GS_LL_OK)
				break;
			for (i = 0; led[i].after; i++) {
				const char *s = q;
				if (gs_logline_lit(&s, led[i].after) == GS_LL_OK) {
					gs_logline_fig_size(c, led[i].name, c->device, v, aw, n,
						   strcmp(led[i].name, "cuda_graph_memory") == 0
							   ? "as vLLM's start-up ledger states it"
							   : S_note_2d);
					q = s;
					any = 1;
					break;
				}
			}
			if (!led[i].after)
				break;
			while (*q == ',' || *q == '.' || *q == ' ')
				q++;
		}
	}
	return any ? GS_LL_OK : GS_LL_NO;
}

/* CUDA graphs (measured and estimated), the capacity in tokens, the concurrency */
static int S_vllm_graphs_kv(gs_logctx *c, const char *t)
{
	const char *p, *aw;
	int64_t v;
	size_t n;
	gs_logline_num x;
	int r;
	int any = 0;

	if ((p = strstr(t, "Graph capturing finished in "))) {
		const char *q = strstr(p, ", took ");
		if (q) {
			q += strlen(", took ");
			if ((r = gs_logline_size(c, &q, S_gib_units, &v, &aw, &n)) == GS_LL_FAIL)
				return GS_LL_FAIL;
			if (r == GS_LL_OK) {
				gs_logline_fig_size(c, "cuda_graph_memory", c->device, v, aw, n,
					   "measured after capture (an actual, not an estimate)");
				any = 1;
			}
		}
	}
	if ((p = strstr(t, "Estimated CUDA graph memory: "))) {
		const char *q = p + strlen("Estimated CUDA graph memory: ");
		if ((r = gs_logline_size(c, &q, S_gib_units, &v, &aw, &n)) == GS_LL_FAIL)
			return GS_LL_FAIL;
		if (r == GS_LL_OK) {
			gs_logline_fig f;
			memset(&f, 0, sizeof(f));
			f.name = "cuda_graph_memory_estimate";
			f.device = c->device;
			f.unit = GS_LU_BYTES;
			f.is_int = 1;
			f.value = v;
			f.aw = aw;
			f.aw_len = n;
			f.note = "vLLM's estimate before capture";
			f.estimate = 1;
			gs_logline_add_fig(c, &f);
			any = 1;
		}
	}
	/* V1 capacity in tokens, concurrency */
	if ((p = strstr(t, "GPU KV cache size: "))) {
		p += strlen("GPU KV cache size: ");
		if ((r = gs_logline_number(c, &p, 1, &x)) == GS_LL_FAIL)
			return GS_LL_FAIL;
		if (r == GS_LL_OK && gs_logline_lit(&p, " tokens") == GS_LL_OK) {
			if (gs_logline_int(c, &x, &v) != GS_LL_OK)
				return GS_LL_FAIL;
			gs_logline_fig_int(c, "kv_cache_tokens", c->device, GS_LU_TOKENS, v, x.s,
				  (size_t)(p - x.s), 0);
			any = 1;
		}
	}
	if ((p = strstr(t, "Maximum concurrency for "))) {
		const char *ms;
		p += strlen("Maximum concurrency for ");
		if ((r = gs_logline_number(c, &p, 1, &x)) == GS_LL_FAIL)
			return GS_LL_FAIL;
		if (r == GS_LL_OK) {
			char buf[32];
			size_t k = 0, i;
			if (gs_logline_int(c, &x, &v) != GS_LL_OK)
				return GS_LL_FAIL;
			for (i = 0; i < x.n && k + 1 < sizeof(buf); i++)
				if (x.s[i] != ',')
					buf[k++] = x.s[i];
			buf[k] = '\0';
			ms = x.s;
			(void)ms;
			if (gs_logline_lit(&p, " tokens per request: ") == GS_LL_OK) {
				gs_logline_add_setting(c, "max_model_len", buf, k);
				if ((r = gs_logline_number(c, &p, 0, &x)) == GS_LL_FAIL)
					return GS_LL_FAIL;
				if (r == GS_LL_OK) {
					const char *e = p;
					if (*e == 'x')
						e++;
					else if (!strncmp(e, "\xc3\x97", 2))
						e += 2;
					gs_logline_fig_dec(c, "max_concurrency", c->device, GS_LU_TIMES, &x, x.s,
						  (size_t)(e - x.s));
				}
				any = 1;
			}
		}
	}
	return any ? GS_LL_OK : GS_LL_NO;
}

/* the errors: a start that cannot hold one request */
static int S_vllm_errors(gs_logctx *c, const char *t)
{
	const char *p, *aw;
	int64_t v;
	size_t n;
	gs_logline_num x;
	int r;
	int any = 0;

	/* errors */
	if ((p = strstr(t, "max seq len ("))) {
		const char *q = p + strlen("max seq len (");
		gs_logline_num xl;
		if ((r = gs_logline_number(c, &q, 1, &xl)) == GS_LL_FAIL)
			return GS_LL_FAIL;
		if (r == GS_LL_OK && gs_logline_lit(&q, ")") == GS_LL_OK) {
			char buf[32];
			size_t k = 0, i;
			for (i = 0; i < xl.n && k + 1 < sizeof(buf); i++)
				if (xl.s[i] != ',')
					buf[k++] = xl.s[i];
			if (strstr(q, "is larger than the maximum number of tokens that can be stored in KV cache (")) {
				gs_logline_add_setting(c, "max_model_len", buf, k);
				q = strstr(q, "stored in KV cache (") + strlen("stored in KV cache (");
				if ((r = gs_logline_number(c, &q, 1, &x)) == GS_LL_FAIL)
					return GS_LL_FAIL;
				if (r == GS_LL_OK) {
					if (gs_logline_int(c, &x, &v) != GS_LL_OK)
						return GS_LL_FAIL;
					gs_logline_fig_int(c, "kv_cache_tokens", c->device, GS_LU_TOKENS, v, x.s, x.n, 1);
				}
				S_vllm_failure(c, p - strlen("The model's ") >= t ? p - strlen("The model's ") : p);
				any = 1;
			} else if (strstr(q, "KV cache is needed, which is larger than the available KV cache memory (")) {
				const char *s;
				gs_logline_add_setting(c, "max_model_len", buf, k);
				s = q;
				gs_logline_lit(&s, ", (");
				if ((r = gs_logline_size(c, &s, S_gib_units, &v, &aw, &n)) == GS_LL_FAIL)
					return GS_LL_FAIL;
				if (r == GS_LL_OK)
					gs_logline_fig_size(c, "kv_cache_needed", c->device, v, aw, n, S_note_2d);
				s = strstr(q, "available KV cache memory (") + strlen("available KV cache memory (");
				if ((r = gs_logline_size(c, &s, S_gib_units, &v, &aw, &n)) == GS_LL_FAIL)
					return GS_LL_FAIL;
				if (r == GS_LL_OK) {
					gs_logline_fig f;
					memset(&f, 0, sizeof(f));
					f.name = "kv_cache_memory";
					f.device = c->device;
					f.unit = GS_LU_BYTES;
					f.is_int = 1;
					f.value = v;
					f.aw = aw;
					f.aw_len = n;
					f.note = S_note_2d;
					gs_logline_add_fig(c, &f);
				}
				if ((s = strstr(q, "estimated maximum model length is "))) {
					s += strlen("estimated maximum model length is ");
					if ((r = gs_logline_number(c, &s, 1, &x)) == GS_LL_FAIL)
						return GS_LL_FAIL;
					if (r == GS_LL_OK) {
						if (gs_logline_int(c, &x, &v) != GS_LL_OK)
							return GS_LL_FAIL;
						gs_logline_fig f;
						memset(&f, 0, sizeof(f));
						f.name = "estimated_max_model_len";
						f.device = c->device;
						f.unit = GS_LU_TOKENS;
						f.is_int = 1;
						f.value = v;
						f.aw = x.s;
						f.aw_len = x.n;
						f.note = "vLLM's estimate from the available memory";
						f.estimate = 1;
						f.nosplit = 1;
						gs_logline_add_fig(c, &f);
					}
				}
				{
					const char *m = strstr(t, "To serve at least one request");
					S_vllm_failure(c, m ? m : p);
				}
				any = 1;
			}
		}
	}
	if ((p = strstr(t, "No available memory for the cache blocks"))) {
		S_vllm_failure(c, p);
		any = 1;
	}
	return any ? GS_LL_OK : GS_LL_NO;
}

int gs_logvllm_line(gs_logctx *c)
{
	static int (*const parts[])(gs_logctx *, const char *) = {
		S_vllm_start, S_vllm_v0, S_vllm_sentences, S_vllm_ledger, S_vllm_graphs_kv, S_vllm_errors
	};
	const char *t = S_vllm_prefix(c, c->text);
	size_t i;
	int r, any = 0;

	for (i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		r = parts[i](c, t);
		if (r == GS_LL_FAIL || r == GS_LL_MORE)
			return r;
		any |= r == GS_LL_OK;
	}
	return any ? GS_LL_OK : GS_LL_NO;
}


static int S_cmp_fig(const void *a, const void *b)
{
	const gs_logfig *x = a, *y = b;

	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return 0;
}

/* After the kept start is chosen: per device, the phases its figures show,
 * and KV blocks become tokens with the block size. 0, or -1 (said). */
int gs_logvllm_finish(gs_logctx *c)
{
	gs_logimport *li = c->li;
	size_t i, k;

	size_t nd = li->ndevices;
	for (i = 0; i < nd; i++) {
		int64_t dev = li->devices[i].index;
		const gs_logfig *w = gs_logimport_fig(li, "weights", dev);
		const gs_logfig *kv = gs_logimport_fig(li, "kv_cache_tokens", dev);
		const gs_logfig *kb = gs_logimport_fig(li, "kv_cache_blocks", dev);
		const gs_logfig *km = gs_logimport_fig(li, "kv_cache_memory", dev);
		const gs_logfig *ap = gs_logimport_fig(li, "activation_peak", dev);
		const gs_logfig *pt = gs_logimport_fig(li, "peak_torch_memory", dev);
		int failed = 0;
		for (k = 0; k < li->nphases; k++)
			if (li->phases[k].device == dev && li->phases[k].failed)
				failed = 1;
		c->run = li->run;
		if (w) {
			c->line = w->line;
			gs_logline_add_phase(c, "model_load", dev, 0, NULL);
		}
		if (ap || pt) {
			c->line = (ap ? ap : pt)->line;
			gs_logline_add_phase(c, "profile", dev, 0, NULL);
		}
		if (!failed && (kv || kb || km)) {
			c->line = (kv ? kv : kb ? kb : km)->line;
			gs_logline_add_phase(c, "kv_cache_init", dev, 0, NULL);
		}
		/* blocks become tokens with the block size */
		if (kb && !kv) {
			const gs_logsetting *bs = gs_logimport_setting(li, "block_size");
			uint64_t size = 0;
			const char *why;
			int64_t b = 0;
			if (bs && gs_logimport_decimal_bytes(bs->value, strlen(bs->value), 1, &b, &why) == 0 && b > 0)
				size = (uint64_t)b;
			if (c->o && c->o->block_size) {
				if (size && size != c->o->block_size) {
					gs_diag_add(c->d, c->file, (int)bs->line, 0, NULL,
						    "--block-size %" PRIu64 " contradicts the log, "
						    "which says block_size=%s: %s", c->o->block_size,
						    bs->value, bs->text);
					return -1;
				}
				size = c->o->block_size;
			}
			if (size && kb->value >= 0) {
				int64_t tok;
				gs_logfig *g;
				if (__builtin_mul_overflow(kb->value, (int64_t)size, &tok)) {
					gs_diag_add(c->d, c->file, (int)kb->line, 0, NULL,
						    "%" PRId64 " blocks of %" PRIu64 " tokens: beyond range",
						    kb->value, size);
					return -1;
				}
				c->line = c->last_line = kb->line;
				c->text = kb->text;
				{
					gs_logline_fig f;
					char aw[96];
					int an = snprintf(aw, sizeof(aw), "%" PRId64 " blocks x %" PRIu64
							  " tokens", kb->value, size);
					memset(&f, 0, sizeof(f));
					f.name = "kv_cache_tokens";
					f.device = dev;
					f.unit = GS_LU_TOKENS;
					f.is_int = 1;
					f.value = tok;
					f.aw = aw;
					f.aw_len = (size_t)an;
					f.note = bs && !(c->o && c->o->block_size)
							 ? "blocks times the block size of the configuration line"
							 : "blocks times the block size given by --block-size";
					f.nosplit = 1;
					gs_logline_add_fig(c, &f);
				}
				g = &li->figs[li->nfigs - 1];
				(void)g;
				c->text = "";
			}
		}
	}
	if (li->nfigs > 1)
		qsort(li->figs, li->nfigs, sizeof(*li->figs), S_cmp_fig);
	return 0;
}
