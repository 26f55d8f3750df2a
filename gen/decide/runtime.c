/* runtime: an engine's defaults and vLLM's budget. */
#include "runtime.h"

#include <string.h>

/*
 * vLLM's defaults. gpu_memory_utilization 0.9 and block_size 16 hold from
 * 0.1 to today; the scheduler's token budget changed with the V1 engine
 * (the default from 0.8): `vllm serve` plans 2,048 tokens a step (chunked
 * prefill), V0 as many as the longest sequence, at least 2,048.
 */
#define S_UTIL_SRC "vLLM, vllm/engine/arg_utils.py, EngineArgs.gpu_memory_utilization = 0.9"
#define S_BLOCK_SRC "vLLM, vllm/config.py, CacheConfig: block_size 16 on CUDA"
#define S_MNBT_V1_SRC "vLLM 0.8, vllm/engine/arg_utils.py, EngineArgs._set_default_args_v1: 2048 for `vllm serve` (8192 for the LLM class)"
#define S_MNBT_V0_SRC "vLLM 0.7, vllm/config.py, SchedulerConfig: max(max_model_len, 2048) without chunked prefill"

/* The newest version the table knows; a workload that names none gets it. */
#define S_NEWEST "0.8"

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
 *    outside the budget, in every version the table knows (vLLM counts an
 *    estimate of them in the budget from 0.21, which this table does not
 *    reach).
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

int gs_runtime_settings_of(const gs_workload *w, gs_runtime_settings *out)
{
	const gs_runtime *rt = &w->runtime;
	uint64_t len = 0;
	int found;

	memset(out, 0, sizeof(*out));
	if (rt->engine != GS_ENGINE_VLLM)
		return -1;
	out->engine = "vLLM";
	out->version = rt->version ? rt->version : S_NEWEST;
	out->v1 = gs_workload_version_at_least(out->version, "0.8") == 1;
	out->util_permille = rt->has_util ? rt->util_permille : 900;
	out->util_default = !rt->has_util;
	out->util_source = S_UTIL_SRC;
	out->block_size = rt->has_block_size ? rt->block_size : 16;
	out->block_default = !rt->has_block_size;
	out->block_source = S_BLOCK_SRC;
	if (rt->has_max_num_batched_tokens) {
		out->max_num_batched_tokens = rt->max_num_batched_tokens;
	} else if (out->v1) {
		out->max_num_batched_tokens = 2048;
		out->mnbt_default = 1;
		out->mnbt_source = S_MNBT_V1_SRC;
	} else {
		uint64_t in = gs_workload_dim(w, "input_tokens", &found);
		uint64_t o = found ? gs_workload_dim(w, "output_tokens", &found) : 0;
		len = in + o;
		out->max_num_batched_tokens = len > 2048 ? len : 2048;
		out->mnbt_default = 1;
		out->mnbt_source = S_MNBT_V0_SRC;
	}
	out->logits_every_token = out->v1;
	if (gs_workload_version_at_least(out->version, "0.9") == 1) {
		/* vllm/engine/arg_utils.py: `vllm serve` plans 8,192 tokens a
		 * step on a card of 70 GiB or more whose name has no "a100" */
		if (out->mnbt_default)
			out->mnbt_large_card = 8192;
		out->accounting_source = S_ACC_V09;
		out->non_torch = S_CGIB(13);
		out->non_torch_tp = S_CGIB(55);
		out->non_torch_source = S_NT_INC;
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
	unsigned __int128 b, per_block;

	memset(out, 0, sizeof(*out));
	if (!block_size || !kv_per_token || util_permille > 1000)
		return -1;
	b = (unsigned __int128)total * util_permille / 1000u;
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
