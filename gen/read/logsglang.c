/* logsglang: SGLang start-up logs (logimport.h). */
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

/* ---- SGLang ---- */

/* SGLang divides by 1 << 30 and prints "GB" (srt/utils.py get_available_gpu_memory,
 * srt/mem_cache/memory_pool.py GB = 1024 * 1024 * 1024) */
static const char S_note_sgl[] =
	"SGLang prints GB for GiB (it divides by 2^30), with 2 decimals: within 0.005 GiB";

/* "[2025-07-29 18:14:43 TP0] " or "[... DP0 TP3 EP3] ": the rank; text after it. */
static const char *S_sglang_prefix(gs_logctx *c, const char *t)
{
	const char *p = t, *close, *tp;

	c->device = 0;
	gs_logline_blanks(&p);
	if (*p != '[')
		return t;
	close = strchr(p, ']');
	if (!close || close - p > 120)
		return t;
	tp = memmem(p, (size_t)(close - p), " TP", 3);
	if (tp && isdigit((unsigned char)tp[3]))
		c->device = strtol(tp + 3, NULL, 10);
	p = close + 1;
	gs_logline_blanks(&p);
	return p;
}

/* "KEY=X GB" after lit in t: the figure name, SGLang's GiB. */
static int S_sglang_size(gs_logctx *c, const char *t, const char *lit, const char *name)
{
	return gs_logvllm_size_after(c, t, lit, name, gs_logvllm_gb_as_gib, S_note_sgl);
}

/* "key=N" (an integer) after lit; a setting when set is 1, else a figure of unit u. */
static int S_sglang_int(gs_logctx *c, const char *t, const char *lit, const char *name, int set,
			gs_log_unit u)
{
	const char *p = strstr(t, lit);
	int64_t v;
	gs_logline_num x;
	int r;

	if (!p)
		return GS_LL_NO;
	p += strlen(lit);
	if ((r = gs_logline_number(c, &p, 0, &x)) != GS_LL_OK)
		return r;
	if (gs_logline_int(c, &x, &v) != GS_LL_OK)
		return GS_LL_FAIL;
	if (set)
		gs_logline_add_setting(c, name, x.s, x.n);
	else
		gs_logline_fig_int(c, name, c->device, u, v, x.s, x.n, 0);
	return GS_LL_OK;
}

/* "key=word" (up to ',' or ' ', quotes dropped) after lit: a setting. */
static void S_sglang_word(gs_logctx *c, const char *t, const char *lit, const char *name)
{
	const char *p = strstr(t, lit), *e;

	if (!p)
		return;
	p += strlen(lit);
	if (*p == '\'')
		p++;
	for (e = p; *e && *e != ',' && *e != ' ' && *e != '\'' && *e != ')'; e++)
		;
	/* None and auto state nothing: the engine decides, and a later line says what */
	if (e > p && !(e - p == 4 && (memcmp(p, "None", 4) == 0 || memcmp(p, "auto", 4) == 0)))
		gs_logline_add_setting(c, name, p, (size_t)(e - p));
}

/*
 * SGLang's start-up lines (srt/model_executor/model_runner.py,
 * srt/mem_cache/memory_pool.py, srt/managers/scheduler.py, the
 * server_args line). Each "GB" is SGLang's GiB.
 */
int gs_logsglang_line(gs_logctx *c)
{
	const char *t = S_sglang_prefix(c, c->text), *p;
	int any = 0, r = GS_LL_NO;

#define S_SGL(call)                         \
	do {                                \
		int r_ = (call);            \
		if (r_ == GS_LL_FAIL)           \
			return GS_LL_FAIL;      \
		any |= r_ == GS_LL_OK;          \
	} while (0)
	if (strstr(t, "ServerArgs(") || strstr(t, "server_args=")) {
		S_sglang_word(c, t, "model_path=", "model");
		S_sglang_word(c, t, " dtype=", "dtype");
		S_sglang_word(c, t, "kv_cache_dtype=", "kv_cache_dtype");
		S_sglang_word(c, t, "quantization=", "quantization");
		S_sglang_word(c, t, "mem_fraction_static=", "mem_fraction_static");
		S_sglang_word(c, t, "tp_size=", "tensor_parallel_size");
		S_sglang_word(c, t, "context_length=", "context_length");
		return GS_LL_OK;
	}
	if ((p = strstr(t, "Load weight begin.")))
		S_SGL(S_sglang_size(c, p, "avail mem=", "available_before_weights"));
	if ((p = strstr(t, "Load weight end."))) {
		S_sglang_word(c, p, "type=", "architecture");
		S_sglang_word(c, p, "dtype=", "dtype");
		S_SGL(S_sglang_size(c, p, "avail mem=", "available_after_weights"));
		S_SGL(S_sglang_size(c, p, "mem usage=", "weights"));
	}
	if ((p = strstr(t, "KV Cache is allocated."))) {
		S_sglang_word(c, p, "dtype: ", "kv_cache_dtype");
		S_SGL(S_sglang_int(c, p, "#tokens: ", "kv_cache_tokens", 0, GS_LU_TOKENS));
		S_SGL(S_sglang_size(c, p, " K size: ", "kv_cache_k"));
		S_SGL(S_sglang_size(c, p, " V size: ", "kv_cache_v"));
		S_SGL(S_sglang_size(c, p, "KV size: ", "kv_cache_memory"));
	}
	if ((p = strstr(t, "Memory pool end.")))
		S_SGL(S_sglang_size(c, p, "avail mem=", "available_after_kv_cache"));
	if ((p = strstr(t, "Capture cuda graph begin.")))
		S_SGL(S_sglang_size(c, p, "avail mem=", "available_before_cuda_graphs"));
	if ((p = strstr(t, "Capture cuda graph end."))) {
		S_SGL(S_sglang_size(c, p, "mem usage=", "cuda_graphs"));
		S_SGL(S_sglang_size(c, p, "avail mem=", "available_after_cuda_graphs"));
	}
	if ((p = strstr(t, "max_total_num_tokens="))) {
		S_SGL(S_sglang_int(c, p, "max_total_num_tokens=", "max_total_num_tokens", 0,
				   GS_LU_TOKENS));
		S_SGL(S_sglang_int(c, p, "chunked_prefill_size=", "chunked_prefill_size", 1, 0));
		S_SGL(S_sglang_int(c, p, "max_prefill_tokens=", "max_prefill_tokens", 1, 0));
		S_SGL(S_sglang_int(c, p, "max_running_requests=", "max_running_requests", 1, 0));
		S_SGL(S_sglang_int(c, p, "context_len=", "max_model_len", 1, 0));
		S_SGL(S_sglang_size(c, p, "available_gpu_mem=", "available_after_start"));
	}
#undef S_SGL
	(void)r;
	return any ? GS_LL_OK : GS_LL_NO;
}

