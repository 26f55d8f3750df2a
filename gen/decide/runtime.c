/* runtime: an engine's defaults and vLLM's budget. */
#include "runtime.h"

#include <string.h>

#include "util.h"

/*
 * vLLM's defaults. gpu_memory_utilization 0.9 and block_size 16 hold from
 * 0.1 to 0.20; the scheduler's token budget changed with the V1 engine
 * (the default from 0.8): V0 plans as many tokens as the longest sequence,
 * at least 2,048; V1 chunks its prefill and plans max_num_batched_tokens a
 * step by the entry point (vLLM's UsageContext: OPENAI_API_SERVER for
 * `vllm serve`, LLM_CLASS for the LLM class) and by the card
 * (vllm/engine/arg_utils.py, read at each version; the rules are written
 * here, not copied): 2,048 for `vllm serve` and 8,192 for the LLM class,
 * 8,192 and 16,384 on a card the version's rule enlarges:
 *  - 0.8.0 to 0.8.4 (EngineArgs._set_default_args_v1, PR 12369): a card
 *    whose name (CUDA's, lower-cased) has "h100" or "h200";
 *  - 0.8.5 (the same function, PR 17073, merged 2025-04-24, four days
 *    before 0.8.5 was released): a card whose total memory is 70 GiB or
 *    more (current_platform.get_device_total_memory());
 *  - 0.9 and later (PR 17885): 70 GiB or more and a name without "a100";
 *    the function is _set_default_args_v1 to 0.10, _set_default_args in
 *    0.11 (PR 25409), get_batch_defaults from 0.12 (PR 28665), the same
 *    rule to 0.21. (A card whose total is not read keeps the smaller one;
 *    TPUs and CPUs have tables of their own, not sized here.)
 */
#define S_UTIL_SRC "vLLM, vllm/engine/arg_utils.py, EngineArgs.gpu_memory_utilization = 0.9"
#define S_UTIL21_SRC "vLLM 0.21, vllm/config/cache.py, CacheConfig.gpu_memory_utilization = 0.92 (PR 38284, with CUDA graph memory counted in the budget)"
#define S_BLOCK_SRC "vLLM, vllm/config.py, CacheConfig: block_size 16 on CUDA"
#define S_MNBT_V0_SRC "vLLM 0.7, vllm/config.py, SchedulerConfig: max(max_model_len, 2048) without chunked prefill"
#define S_MNBT_SERVE ": 2048 for `vllm serve` (UsageContext.OPENAI_API_SERVER; 8192 for the LLM class)"
#define S_MNBT_LLM ": 8192 for the LLM class (UsageContext.LLM_CLASS; 2048 for `vllm serve`)"
#define S_MNBT_V08 "vLLM 0.8 to 0.8.4, vllm/engine/arg_utils.py, EngineArgs._set_default_args_v1 (PR 12369)"
#define S_MNBT_V085 "vLLM 0.8.5, vllm/engine/arg_utils.py, EngineArgs._set_default_args_v1 (PR 17073)"
#define S_MNBT_V09 "vLLM 0.9 to 0.10, vllm/engine/arg_utils.py, EngineArgs._set_default_args_v1 (PR 17885)"
#define S_MNBT_V011 "vLLM 0.11, vllm/engine/arg_utils.py, EngineArgs._set_default_args (PR 25409)"
#define S_MNBT_V012 "vLLM 0.12 and later, vllm/engine/arg_utils.py, EngineArgs.get_batch_defaults (PR 28665)"
#define S_MNBT_RULE_H100 "16384 for the LLM class and 8192 for `vllm serve` on a card whose name has \"h100\" or \"h200\" (vLLM 0.8 to 0.8.4, vllm/engine/arg_utils.py, EngineArgs._set_default_args_v1, PR 12369)"
#define S_MNBT_RULE_70 "16384 for the LLM class and 8192 for `vllm serve` on a card of 70 GiB or more (vLLM 0.8.5, vllm/engine/arg_utils.py, EngineArgs._set_default_args_v1, PR 17073)"
#define S_MNBT_RULE_70A "16384 for the LLM class and 8192 for `vllm serve` on a card of 70 GiB or more whose name has no \"a100\" (vLLM 0.9 and later, vllm/engine/arg_utils.py: EngineArgs._set_default_args_v1 of 0.9 and 0.10, PR 17885; _set_default_args of 0.11; get_batch_defaults from 0.12)"

/* The newest version the table knows; a workload that names none gets it
 * (vLLM's current releases are 0.21 and later: a user who names no
 * version runs the newest). */
#define S_NEWEST "0.21"

/*
 * How each version accounts for the memory outside the weights and the KV
 * cache (read in vLLM's code; the figures are not copied from it):
 *  - V0 to 0.6 (vllm/worker/worker.py, determine_num_available_blocks,
 *    the "Memory profiling results" line of 0.6.4): the KV pool is
 *    total x utilization less the torch peak of the profiling step (weights
 *    and activations) less the non-torch memory, measured as the device's
 *    used memory less what torch allocated: the CUDA context is inside it.
 *  - V0 0.7 (vllm/utils.py memory_profiling, PR 12126 "further polish
 *    memory profiling"): the same terms, the non-torch one measured as the
 *    increase since the worker started: the CUDA context is outside the
 *    budget, in the share the utilization leaves.
 *  - V1 0.8 (vllm/v1/worker/gpu_worker.py, determine_available_memory of
 *    0.8.x): torch's peak plus the device's used memory less torch's
 *    current allocation: the CUDA context inside again.
 *  - V1 from 0.9 (the same file, memory_profiling as in V0 0.7): the
 *    increase only. CUDA graphs are captured after the KV cache is sized,
 *    outside the budget, up to 0.20.
 *  - V1 from 0.21: the same, and the profiled CUDA graph memory inside the
 *    budget (below), with gpu_memory_utilization 0.92.
 * Non-torch memory: assumed, from published start-up lines.
 */
#define S_ACC_V06 "vLLM 0.6, vllm/worker/worker.py, determine_num_available_blocks: used memory less torch's allocation, CUDA context included"
#define S_ACC_V07 "vLLM 0.7, vllm/utils.py, memory_profiling (PR 12126): the increase of non-torch memory since the worker started, CUDA context outside the budget"
#define S_ACC_V08 "vLLM 0.8, vllm/v1/worker/gpu_worker.py, determine_available_memory: used memory less torch's allocation, CUDA context included"
#define S_ACC_V09 "vLLM 0.9 and later, vllm/v1/worker/gpu_worker.py with vllm/utils memory_profiling: the increase since the worker started, CUDA context outside the budget"
#define S_NT_CTX "0.35 GiB: non_torch_memory of vLLM 0.6.4 on an RTX 3090, one card (vLLM issue 10517, \"Memory profiling results\")"
#define S_NT_INC "0.13 GiB on one card, 0.55 GiB under tensor parallelism 2: non-torch memory of vLLM V1 on an H100 (llm-d-benchmark, config_explorer/empirical-vllm-memory-results.md, Llama-3.1-8B and Llama-3.3-70B-FP8)"
#define S_NT_INC07 "0.16 GiB on one card (vLLM PR 12126, H100), 0.20 GiB under tensor parallelism (vLLM PR 14447, 24 GB cards): \"non_torch_memory takes\" of vLLM V0 0.7 and 0.8"
#define S_CGIB(h) ((uint64_t)(h) * (UINT64_C(1) << 30) / 100u)

/*
 * CUDA graphs inside the budget (vLLM 0.21). PR 30515 (March 2026) added a
 * profiling capture of the CUDA graphs before the KV cache is sized
 * (vllm/v1/worker/gpu_model_runner.py, profile_cudagraph_memory: a few
 * graphs of each mode captured on a small dummy KV cache, the rest
 * extrapolated), subtracted from the requested memory in
 * vllm/v1/worker/gpu_worker.py, determine_available_memory, only with
 * VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS=1 (off by default). PR 38284
 * (April 2026) made it the default "as of v0.21.0" (vllm/envs.py) and
 * raised gpu_memory_utilization to 0.92 to keep the pool about as large.
 * The estimate is a measurement at start-up, not a formula: assumed here
 * from a published start-up of the same version. On ROCm the estimate is
 * 0 in 0.21 (gpu_worker.py skips it there).
 */
#define S_ACC_V21 "vLLM 0.21 and later, vllm/v1/worker/gpu_worker.py, determine_available_memory (PR 30515, default from PR 38284): the increase since the worker started, CUDA context outside the budget; the profiled CUDA graph memory subtracted from the budget before the KV cache"
#define S_CG_V21 "0.52 GiB: \"Estimated CUDA graph memory\" of vLLM 0.21.0 for Qwen3-8B on one RTX A5000, the default capture sizes (PIECEWISE 51, FULL 35) (LMCache issue 3430); profiled at start-up by vllm/v1/worker/gpu_model_runner.py, profile_cudagraph_memory; none on an AMD card"

/*
 * SGLang's defaults (python/sglang/srt/server_args.py, read in SGLang's
 * code at each release, the commit that sets the release's version in
 * python/pyproject.toml; the rules are written here, not copied).
 * mem_fraction_static is the share of the card that holds the weights and
 * the KV pool; activations and CUDA graphs live in the rest. gpu_mem is the
 * card's memory in MiB as SGLang reads it (nvidia-smi's memory.total), taken
 * here as the card's total rounded down to a MiB; "tp" is SGLang's
 * tp_size x pp_size from 0.4.6.post2 (PR 5724), pipeline parallelism 1 here.
 *  - 0.4 to 0.4.5.post2 (ServerArgs.__post_init__): by tensor parallelism
 *    only: 0.88, 0.87 at 2, 0.85 at 4, 0.81 at 8, 0.79 at 16 (0.81 at 8
 *    since PR 2325, merged before 0.4.0; 0.83 before).
 *  - 0.4.5.post3 to 0.4.6.post1 (PR 5604): the same table on a card of at
 *    most 81,920 MiB; above, (gpu_mem - 13,312) / gpu_mem, unrounded.
 *  - 0.4.6.post2 to 0.4.6.post5 (PR 5893, PR 5724): the table on a card of
 *    at most 81,920 MiB, else 0.88; then, above 98,304 MiB, the lesser of
 *    f + 49,152 x (1 - f) / gpu_mem and (gpu_mem - 18,432) / gpu_mem,
 *    unrounded.
 *  - 0.4.7 (PR 6718): the same, but 0.79 on a CUDA card above 180,000 MiB
 *    (an AMD card keeps the rule above).
 *  - 0.4.7.post1 to 0.5.2 (PR 7054; 0.5.0 had release candidates only):
 *    a reserve in MiB by the card's memory, (2.8 + tp / 10) x 1,024 below
 *    35 GiB, (9.5 + tp / 2) x 1,024 below 90 GiB, (12 + tp / 2) x 1,024
 *    below 160 GiB, else 32,768, and round((gpu_mem - reserved) / gpu_mem, 3).
 *  - 0.5.3 and later (_handle_gpu_memory_settings, PR 10975 and PR 11076):
 *    chunked_prefill_size and cuda_graph_max_bs by the card's memory, then
 *    a reserve in MiB and round((gpu_mem - reserved) / gpu_mem, 3).
 * Not counted, in any version: the reserve of DP attention, of speculative
 * decoding, of piecewise CUDA graphs, and the lower fraction of a
 * multimodal model: none is a default of a text model; nor the x 0.85 of
 * the aiter attention backend (ROCm) above 8,192 tokens of context
 * (model_runner.py, PR 6564, from 0.4.7). Versions below 0.4 are not in
 * the table.
 * The pool (python/sglang/srt/model_executor/model_runner.py,
 * profile_max_num_token, the same form in every version above): the free
 * memory after the weights less total x (1 - mem_fraction_static), in
 * cells of the KV bytes of one token of every layer, rounded down; "total"
 * is the free memory SGLang measured before loading the weights, taken
 * here as the card's total (an assumption: it overstates the pool by
 * mem_fraction_static x what the CUDA context and NCCL hold then, 1.77 to
 * 2.01 GiB a rank under tensor parallelism 8 in
 * tests/data/evidence-logs/sglang-04).
 */
#define S_SGL_V04_SRC "SGLang 0.4 to 0.4.5.post2, python/sglang/srt/server_args.py, ServerArgs.__post_init__: 0.88 on one card, 0.87 at tp 2, 0.85 at tp 4, 0.81 at tp 8, 0.79 at tp 16"
#define S_SGL_13G_SRC "SGLang 0.4.5.post3 to 0.4.6.post1, python/sglang/srt/server_args.py, ServerArgs.__post_init__ (PR 5604): the tensor-parallel table (0.88 to 0.79) on a card of at most 81,920 MiB, above it (gpu_mem - 13,312) / gpu_mem, unrounded"
#define S_SGL_18G_SRC "SGLang 0.4.6.post2 to 0.4.6.post5, python/sglang/srt/server_args.py, ServerArgs.__post_init__ (PR 5893, PR 5724): the tensor-parallel table on a card of at most 81,920 MiB, else 0.88; above 98,304 MiB the lesser of f + 49,152 x (1 - f) / gpu_mem and (gpu_mem - 18,432) / gpu_mem, unrounded"
#define S_SGL_B200_SRC "SGLang 0.4.7, python/sglang/srt/server_args.py, ServerArgs.__post_init__ (PR 6718): as 0.4.6.post2, but 0.79 on a CUDA card above 180,000 MiB"
#define S_SGL_BKT_SRC "SGLang 0.4.7.post1 to 0.5.2, python/sglang/srt/server_args.py, ServerArgs.__post_init__ (PR 7054): round((gpu_mem - reserved) / gpu_mem, 3), reserved = (2.8 + tp / 10) x 1024 MiB below 35 GiB, (9.5 + tp / 2) x 1024 below 90 GiB, (12 + tp / 2) x 1024 below 160 GiB, else 32,768"
#define S_SGL_V053_SRC "SGLang 0.5.3 and later, python/sglang/srt/server_args.py, _handle_gpu_memory_settings (PR 10975, PR 11076): round((gpu_mem - reserved) / gpu_mem, 3), reserved = 512 + 1.5 x max(chunked_prefill_size, 2048) + 2 x cuda_graph_max_bs + 1024 x tp / 8 MiB, at least 10,240 MiB on a card above 60 GiB"
#define S_SGL_PAGE_SRC "SGLang, python/sglang/srt/server_args.py: page_size 1"
#define S_SGL_POOL_SRC "SGLang, python/sglang/srt/model_executor/model_runner.py, profile_max_num_token: (free memory after the weights - total x (1 - mem_fraction_static)) / KV bytes a token, rounded down; total taken as the card's (assumed: SGLang measures it before the weights load)"
#define S_SGL_NEWEST "0.5.3"

/* The rule of an SGLang release (gs_workload_sglang_version_known holds). */
static gs_sglang_rule S_sglang_rule(const char *v, const char **src)
{
	uint64_t post = gs_workload_version_post(v);

	if (gs_workload_version_at_least(v, "0.5.3") == 1) {
		*src = S_SGL_V053_SRC;
		return GS_SGLANG_RULE_RESERVE;
	}
	if (gs_workload_version_at_least(v, "0.4.8") == 1 ||
	    (gs_workload_version_at_least(v, "0.4.7") == 1 && post)) {
		*src = S_SGL_BKT_SRC;
		return GS_SGLANG_RULE_BUCKETS;
	}
	if (gs_workload_version_at_least(v, "0.4.7") == 1) {
		*src = S_SGL_B200_SRC;
		return GS_SGLANG_RULE_TP_B200;
	}
	if (gs_workload_version_at_least(v, "0.4.6") == 1 && post >= 2) {
		*src = S_SGL_18G_SRC;
		return GS_SGLANG_RULE_TP_18G;
	}
	if (gs_workload_version_at_least(v, "0.4.6") == 1) {
		*src = S_SGL_13G_SRC;
		return GS_SGLANG_RULE_TP_13G;
	}
	if (gs_workload_version_at_least(v, "0.4.5") == 1 && post >= 3) {
		*src = S_SGL_13G_SRC;
		return GS_SGLANG_RULE_TP_13G;
	}
	*src = S_SGL_V04_SRC;
	return GS_SGLANG_RULE_TP;
}

static int S_sglang_settings_of(const gs_runtime *rt, gs_runtime_settings *out)
{
	out->id = GS_ENGINE_SGLANG;
	out->engine = "SGLang";
	out->version = rt->version ? rt->version : S_SGL_NEWEST;
	out->version_assumed = !rt->version;
	out->block_size = 1;
	out->block_default = 1;
	out->block_source = S_SGL_PAGE_SRC;
	out->pool_source = S_SGL_POOL_SRC;
	out->chunked_prefill_size = rt->has_chunked_prefill_size ? rt->chunked_prefill_size : 0;
	out->cuda_graph_max_bs = rt->has_cuda_graph_max_bs ? rt->cuda_graph_max_bs : 0;
	if (rt->has_mfs) {
		out->mfs_permille = rt->mfs_permille;
		return 0;
	}
	if (!gs_workload_sglang_version_known(out->version))
		return -1;
	out->mfs_rule = S_sglang_rule(out->version, &out->mfs_source);
	return 0;
}

/* SGLang 0.5.3's defaults by the card's memory in MiB (its buckets). */
static void S_sglang_buckets(uint64_t mib, uint64_t tp, uint64_t *cps, uint64_t *bs)
{
	if (mib < 20u * 1024) {           /* "T4, 4080" */
		*cps = 2048;
		*bs = 8;
	} else if (mib < 35u * 1024) {    /* "A10, 4090, 5090" */
		*cps = 2048;
		*bs = tp < 4 ? 24 : 80;
	} else if (mib < 60u * 1024) {    /* "A100 (40GB), L40" */
		*cps = 4096;
		*bs = tp < 4 ? 32 : 160;
	} else if (mib < 160u * 1024) {   /* "H100, A100", "H20, H200" */
		*cps = 8192;
		*bs = tp < 4 ? 256 : 512;
	} else {                          /* "B200, MI300" */
		*cps = 16384;
		*bs = 512;
	}
}

/* round(num / den, 3) x 1000, half up (den > 0, num <= den) */
static uint64_t S_permille_of(uint64_t num, uint64_t den)
{
	return (uint64_t)(((unsigned __int128)num * 2000u + den) / (2u * (unsigned __int128)den));
}

/* The share as a permille (num = permille, den = 1000). */
static int S_share_permille(gs_runtime_share *out, uint64_t permille)
{
	out->permille = permille;
	out->num = permille;
	out->den = 1000;
	return permille ? 0 : -1;
}

/* The 0.4 table by tensor parallelism, in permille. */
static uint64_t S_sglang_tp_permille(uint64_t tp)
{
	return tp >= 16 ? 790 : tp >= 8 ? 810 : tp >= 4 ? 850 : tp >= 2 ? 870 : 880;
}

/* SGLang 0.4.5.post3 to 0.4.7 (runtime.c's list): exact fractions. */
static int S_sglang_share_04(gs_sglang_rule rule, uint64_t g, uint64_t tp, int rocm,
			     gs_runtime_share *out)
{
	uint64_t f, a, b;

	out->gpu_mem_mib = g;
	if (rule == GS_SGLANG_RULE_TP_13G) {
		if (g <= 81920)
			return S_share_permille(out, S_sglang_tp_permille(tp));
		out->num = g - 13312;
		out->den = g;
	} else {
		if (rule == GS_SGLANG_RULE_TP_B200 && g > 180000 && !rocm)
			return S_share_permille(out, 790);
		f = g <= 81920 ? S_sglang_tp_permille(tp) : 880;
		if (g <= 98304)
			return S_share_permille(out, f);
		/* over 1000 x g: f x g + 49,152 x (1000 - f), and 1000 x (g - 18,432) */
		a = f * g + 49152u * (1000u - f);
		b = 1000u * (g - 18432u);
		out->num = a < b ? a : b;
		out->den = 1000u * g;
	}
	out->unrounded = 1;
	out->permille = S_permille_of(out->num, out->den);
	return 0;
}

/* SGLang 0.4.7.post1 to 0.5.2: the reserve by bucket, in tenths of a MiB. */
static int S_sglang_share_buckets(uint64_t g, uint64_t tp, gs_runtime_share *out)
{
	uint64_t r10, g10 = 10u * g;

	out->gpu_mem_mib = g;
	if (g < 35u * 1024)
		r10 = 28672u + 1024u * tp;          /* (2.8 + tp / 10) x 1024 */
	else if (g < 90u * 1024)
		r10 = 97280u + 5120u * tp;          /* (9.5 + tp / 2) x 1024 */
	else if (g < 160u * 1024)
		r10 = 122880u + 5120u * tp;         /* (12 + tp / 2) x 1024 */
	else
		r10 = 327680u;                      /* 32 x 1024 */
	out->reserved_tenth_mib = r10;
	if (g10 <= r10)
		return -1;
	return S_share_permille(out, S_permille_of(g10 - r10, g10));
}

int gs_runtime_share_of(const gs_runtime_settings *rs, uint64_t total, uint64_t tp, int rocm,
			gs_runtime_share *out)
{
	uint64_t cps, bs, r2, g2;

	memset(out, 0, sizeof(*out));
	tp = tp > 1 ? tp : 1;
	if (rs->id != GS_ENGINE_SGLANG)
		return S_share_permille(out, rs->util_permille);
	if (rs->mfs_permille)
		return S_share_permille(out, rs->mfs_permille);
	out->by_rule = 1;
	if (tp > (UINT64_C(1) << 20))
		return -1;
	if (rs->mfs_rule == GS_SGLANG_RULE_TP)
		return S_share_permille(out, S_sglang_tp_permille(tp));
	if (rs->mfs_rule == GS_SGLANG_RULE_TP_13G || rs->mfs_rule == GS_SGLANG_RULE_TP_18G ||
	    rs->mfs_rule == GS_SGLANG_RULE_TP_B200)
		return S_sglang_share_04(rs->mfs_rule, total >> 20, tp, rocm, out);
	if (rs->mfs_rule == GS_SGLANG_RULE_BUCKETS)
		return S_sglang_share_buckets(total >> 20, tp, out);
	/* SGLang reads the card's memory in MiB (nvidia-smi's memory.total);
	 * taken here as the card's total, rounded down */
	out->gpu_mem_mib = total >> 20;
	S_sglang_buckets(out->gpu_mem_mib, tp, &cps, &bs);
	out->chunked_prefill_size = rs->chunked_prefill_size ? rs->chunked_prefill_size : cps;
	out->cuda_graph_max_bs = rs->cuda_graph_max_bs ? rs->cuda_graph_max_bs : bs;
	if (out->chunked_prefill_size > (UINT64_C(1) << 40) ||
	    out->cuda_graph_max_bs > (UINT64_C(1) << 40))
		return -1;
	/* twice the reserve: 2 x 512 + 3 x max(cps, 2048) + 4 x bs + 256 x tp */
	r2 = 1024u + 3u * (out->chunked_prefill_size > 2048 ? out->chunked_prefill_size : 2048) +
	     4u * out->cuda_graph_max_bs + 256u * tp;
	if (out->gpu_mem_mib > 60u * 1024 && r2 < 2u * 10240)
		r2 = 2u * 10240;
	out->reserved_half_mib = r2;
	g2 = 2u * out->gpu_mem_mib;
	if (g2 <= r2)
		return -1;
	/* round((g - r) / g, 3), half up: Python's round differs on an exact tie only */
	return S_share_permille(out, S_permille_of(g2 - r2, g2));
}

uint64_t gs_runtime_share_apply(const gs_runtime_share *sh, uint64_t x)
{
	if (!sh->den)
		return (uint64_t)((unsigned __int128)x * sh->permille / 1000u);
	return (uint64_t)((unsigned __int128)x * sh->num / sh->den);
}

/* vLLM's default max_num_batched_tokens and its rule by the card (the list above). */
static void S_vllm_mnbt(const gs_workload *w, gs_runtime_settings *out)
{
	const char *v = out->version;
	int found;

	out->mnbt_default = 1;
	if (!out->v1) {
		uint64_t in = gs_workload_dim(w, "input_tokens", &found);
		uint64_t o = found ? gs_workload_dim(w, "output_tokens", &found) : 0;
		uint64_t len = in + o;
		out->max_num_batched_tokens = len > 2048 ? len : 2048;
		out->mnbt_source = S_MNBT_V0_SRC;
		return;
	}
	out->max_num_batched_tokens = out->entry_llm ? 8192 : 2048;
	out->mnbt_large = out->entry_llm ? 16384 : 8192;
	if (gs_workload_version_at_least(v, "0.12") == 1)
		out->mnbt_source = out->entry_llm ? S_MNBT_V012 S_MNBT_LLM : S_MNBT_V012 S_MNBT_SERVE;
	else if (gs_workload_version_at_least(v, "0.11") == 1)
		out->mnbt_source = out->entry_llm ? S_MNBT_V011 S_MNBT_LLM : S_MNBT_V011 S_MNBT_SERVE;
	else if (gs_workload_version_at_least(v, "0.9") == 1)
		out->mnbt_source = out->entry_llm ? S_MNBT_V09 S_MNBT_LLM : S_MNBT_V09 S_MNBT_SERVE;
	else if (gs_workload_version_at_least(v, "0.8.5") == 1)
		out->mnbt_source = out->entry_llm ? S_MNBT_V085 S_MNBT_LLM : S_MNBT_V085 S_MNBT_SERVE;
	else
		out->mnbt_source = out->entry_llm ? S_MNBT_V08 S_MNBT_LLM : S_MNBT_V08 S_MNBT_SERVE;
	out->mnbt_rule = gs_workload_version_at_least(v, "0.9") == 1 ? GS_MNBT_70GIB_NOT_A100
		       : gs_workload_version_at_least(v, "0.8.5") == 1 ? GS_MNBT_70GIB
		       : GS_MNBT_NAME_H100;
}

/* The accounting of the memory outside the weights and the KV cache (the list above). */
static void S_vllm_accounting(gs_runtime_settings *out)
{
	out->logits_every_token = out->v1;
	if (gs_workload_version_at_least(out->version, "0.9") == 1) {
		out->accounting_source = S_ACC_V09;
		out->non_torch = S_CGIB(13);
		out->non_torch_tp = S_CGIB(55);
		out->non_torch_source = S_NT_INC;
		if (gs_workload_version_at_least(out->version, "0.21") == 1) {
			out->accounting_source = S_ACC_V21;
			out->cuda_graphs = S_CGIB(52);
			out->cuda_graphs_source = S_CG_V21;
		}
	} else if (out->v1) {
		out->context_counted = 1;
		out->accounting_source = S_ACC_V08;
		out->non_torch = out->non_torch_tp = S_CGIB(35);
		out->non_torch_source = S_NT_CTX;
	} else if (gs_workload_version_at_least(out->version, "0.7") == 1) {
		out->accounting_source = S_ACC_V07;
		out->non_torch = S_CGIB(16);
		out->non_torch_tp = S_CGIB(20);
		out->non_torch_source = S_NT_INC07;
	} else {
		out->context_counted = 1;
		out->accounting_source = S_ACC_V06;
		out->non_torch = out->non_torch_tp = S_CGIB(35);
		out->non_torch_source = S_NT_CTX;
	}
}

int gs_runtime_settings_of(const gs_workload *w, gs_runtime_settings *out)
{
	const gs_runtime *rt = &w->runtime;

	memset(out, 0, sizeof(*out));
	if (rt->engine == GS_ENGINE_SGLANG)
		return S_sglang_settings_of(rt, out);
	if (rt->engine != GS_ENGINE_VLLM)
		return -1;
	out->id = GS_ENGINE_VLLM;
	out->engine = "vLLM";
	out->version = rt->version ? rt->version : S_NEWEST;
	out->version_assumed = !rt->version;
	out->v1 = gs_workload_version_at_least(out->version, "0.8") == 1;
	out->util_permille = rt->has_util ? rt->util_permille
			   : gs_workload_version_at_least(out->version, "0.21") == 1 ? 920 : 900;
	out->util_default = !rt->has_util;
	out->util_source = gs_workload_version_at_least(out->version, "0.21") == 1
			   ? S_UTIL21_SRC : S_UTIL_SRC;
	out->block_size = rt->has_block_size ? rt->block_size : 16;
	out->block_default = !rt->has_block_size;
	out->block_source = S_BLOCK_SRC;
	out->entry_llm = rt->has_entry_point && rt->entry_llm;
	out->entry_default = !rt->has_entry_point;
	if (rt->has_max_num_batched_tokens)
		out->max_num_batched_tokens = rt->max_num_batched_tokens;
	else
		S_vllm_mnbt(w, out);
	S_vllm_accounting(out);
	return 0;
}

uint64_t gs_runtime_mnbt_on_card(const gs_runtime_settings *rs, uint64_t total, const char *gpu,
				 int *large)
{
	int big = 0;
	uint64_t gib70 = UINT64_C(70) << 30;

	if (!gpu)
		gpu = "";
	if (rs->id == GS_ENGINE_VLLM && rs->mnbt_default && rs->mnbt_large) {
		if (rs->mnbt_rule == GS_MNBT_NAME_H100)
			big = gs_util_contains_ci(gpu, "h100") || gs_util_contains_ci(gpu, "h200");
		else if (rs->mnbt_rule == GS_MNBT_70GIB)
			big = total >= gib70;
		else if (rs->mnbt_rule == GS_MNBT_70GIB_NOT_A100)
			big = total >= gib70 && !gs_util_contains_ci(gpu, "a100");
	}
	if (large)
		*large = big;
	return big ? rs->mnbt_large : rs->max_num_batched_tokens;
}

const char *gs_runtime_mnbt_rule_text(const gs_runtime_settings *rs)
{
	if (!rs->mnbt_default || !rs->mnbt_large)
		return NULL;
	switch (rs->mnbt_rule) {
	case GS_MNBT_NAME_H100:
		return S_MNBT_RULE_H100;
	case GS_MNBT_70GIB:
		return S_MNBT_RULE_70;
	case GS_MNBT_70GIB_NOT_A100:
		return S_MNBT_RULE_70A;
	default:
		return NULL;
	}
}

int gs_runtime_step_terms(const gs_workload *w, const gs_runtime_settings *rs, uint64_t tokens,
			  uint64_t *now, uint64_t *then)
{
	uint64_t t0 = rs->max_num_batched_tokens, a = 0, b = 0;
	unsigned __int128 v;
	size_t i;

	*now = *then = 0;
	if (rs->id != GS_ENGINE_VLLM || !t0)
		return 0;
	for (i = 0; i < w->nreserve; i++) {
		const gs_item *it = &w->reserve[i];
		if (!it->name || (strcmp(it->name, "vLLM profiling activation peak") != 0 &&
				  strcmp(it->name, "vLLM profiling logits") != 0) ||
		    it->bytes % t0 != 0)
			continue;
		v = (unsigned __int128)(it->bytes / t0) * tokens;
		if (v > UINT64_MAX || a > UINT64_MAX - it->bytes || b > UINT64_MAX - (uint64_t)v)
			return -1;
		a += it->bytes;
		b += (uint64_t)v;
	}
	*now = a;
	*then = b;
	return 0;
}

/*
 * The profiling step's terms. Its tokens are max_num_batched_tokens (the
 * dummy batch of vllm/worker/model_runner.py profile_run in V0, of
 * vllm/v1/worker/gpu_model_runner.py profile_run in V1).
 *  - The activation peak: at the MLP, the gate-and-up output (2 x
 *    intermediate), the activated half (intermediate) and three hidden-size
 *    buffers (input, residual, output) of every token, the intermediate
 *    split by tensor parallelism: (3 x I / tp + 3 x H) x value bytes a
 *    token. Calculated from the geometry; the shape is an assumption,
 *    checked by hand in tests/unit/test_runtime.c: Llama-3.1-8B under vLLM
 *    0.6.4 at 20,000 and 29,000 tokens (vLLM issue 10517, peak_torch_memory
 *    less the weights: 2.07 and 2.99 GiB; this rule: 2.06 and 2.99 GiB).
 *  - The logits of V1's profiling step: float32 logits of every token of
 *    the step, T x vocab x 4 B, on the rank that gathers them (the first):
 *    an assumption, the shape that llm-d's H100 measurements of vLLM V1
 *    show (Llama-3.1-8B at 8,192 tokens: a peak of 4.76 GiB; this rule and
 *    the MLP term: 3.91 + 0.84 GiB). V0 computes logits for one token a
 *    sequence, after the MLP's peak: none counted.
 */
int gs_runtime_vllm_terms_of(const gs_runtime_settings *rs, const gs_runtime_geometry *g,
			     gs_runtime_vllm_terms *out)
{
	uint64_t tp = g->tp > 1 ? g->tp : 1;
	unsigned __int128 per, v;

	memset(out, 0, sizeof(*out));
	if (!g->hidden || !g->intermediate || !g->value_bytes || !rs->max_num_batched_tokens)
		return -1;
	out->tokens = rs->max_num_batched_tokens;
	per = ((unsigned __int128)3 * (g->intermediate / tp + (g->intermediate % tp != 0)) +
	       (unsigned __int128)3 * g->hidden) * g->value_bytes;
	v = per * out->tokens;
	if (v > UINT64_MAX)
		return -1;
	out->act_per_token = (uint64_t)per;
	out->activation = (uint64_t)v;
	if (rs->logits_every_token) {
		if (!g->vocab)
			return -1;
		out->logit_rows = out->tokens;
		v = (unsigned __int128)out->logit_rows * g->vocab * 4u;
		if (v > UINT64_MAX)
			return -1;
		out->logits = (uint64_t)v;
	}
	out->non_torch = tp > 1 ? rs->non_torch_tp : rs->non_torch;
	out->cuda_graphs = rs->cuda_graphs;
	return 0;
}

uint64_t gs_runtime_round_blocks(uint64_t tokens, uint64_t block_size)
{
	uint64_t b = tokens / block_size + (tokens % block_size != 0);

	return b > UINT64_MAX / block_size ? UINT64_MAX : b * block_size;
}

int gs_runtime_vllm_budget(uint64_t total, uint64_t util_permille, uint64_t fixed,
			   uint64_t kv_per_token, uint64_t block_size, uint64_t tokens_per_seq,
			   gs_runtime_budget *out)
{
	return gs_runtime_budget_frac(total, util_permille, 1000, fixed, kv_per_token, block_size,
				      tokens_per_seq, out);
}

int gs_runtime_budget_frac(uint64_t total, uint64_t num, uint64_t den, uint64_t fixed,
			   uint64_t kv_per_token, uint64_t block_size, uint64_t tokens_per_seq,
			   gs_runtime_budget *out)
{
	unsigned __int128 b, per_block;

	memset(out, 0, sizeof(*out));
	if (!block_size || !kv_per_token || !den || num > den)
		return -1;
	b = (unsigned __int128)total * num / den;
	out->budget = (uint64_t)b;    /* <= total */
	if (fixed > out->budget) {
		out->short_bytes = fixed - out->budget;
		return 0;
	}
	per_block = (unsigned __int128)kv_per_token * block_size;
	out->blocks = (uint64_t)((out->budget - fixed) / per_block);
	out->pool = (uint64_t)(out->blocks * per_block);   /* <= budget */
	b = (unsigned __int128)out->blocks * block_size;
	if (b > UINT64_MAX)
		return -1;
	out->tokens = (uint64_t)b;
	if (tokens_per_seq) {
		/* tokens x 100 / L, half up */
		unsigned __int128 c = ((unsigned __int128)out->tokens * 200u + tokens_per_seq) /
				      (2u * (unsigned __int128)tokens_per_seq);
		if (c > UINT64_MAX)
			return -1;
		out->concurrency_hundredths = (uint64_t)c;
	}
	return 0;
}
