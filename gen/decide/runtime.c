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
