/*
 * test_runtime: vLLM's budget (gen/decide/runtime.h) worked by hand on the
 * figures real vLLM logs print (tests/data/evidence-logs/, each named
 * below): the log's own terms in, its KV blocks, tokens and concurrency
 * out, block rounding included.
 */
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "runtime.h"
#include "workload.h"

#define GIB (UINT64_C(1) << 30)
#define MIB (UINT64_C(1) << 20)
/* a figure printed in hundredths of a GiB, as printed */
#define CGIB(h) ((uint64_t)(h) * GIB / 100u)

static void test_v1_concurrency(void)
{
	gs_runtime_budget b;
	/* vllm-10_v1_l40s_pr17122.log: Llama-3.1-8B (32 layers, 8 KV heads of
	 * 128, bf16: 131,072 B a token), block 16: "GPU KV cache size: 158,656
	 * tokens" = 9,916 blocks of 2 MiB; "Maximum concurrency for 32,768
	 * tokens per request: 4.84x". A pool of 9,916 blocks and a little less
	 * than one more gives exactly that. */
	uint64_t per_token = UINT64_C(131072), pool = 9916 * 2 * MIB + 2 * MIB - 1;
	uint64_t total = 50 * GIB;

	CHECK(gs_runtime_vllm_budget(total, 1000, total - pool, per_token, 16, 32768, &b) == 0);
	CHECK(b.budget == total);
	CHECK(b.blocks == 9916 && b.tokens == 158656 && b.pool == 9916 * 2 * MIB);
	CHECK(b.concurrency_hundredths == 484);
	CHECK(b.short_bytes == 0);
	/* vllm-09_v1_tokens_pr13596.log: 127,626 blocks -> "2,042,016 tokens",
	 * "Maximum concurrency for 2,048 tokens per request: 997.08x" */
	pool = 127626 * 16 * per_token;
	total = pool + 10 * GIB;
	CHECK(gs_runtime_vllm_budget(total, 1000, 10 * GIB, per_token, 16, 2048, &b) == 0);
	CHECK(b.tokens == 2042016 && b.concurrency_hundredths == 99708);
}

static void test_v0_profile(void)
{
	gs_runtime_budget b;
	/* vllm-20_v0.7_sentence-form_h100-llama3.2-11b-vision_pr12126.log:
	 * total_gpu_memory 79.22 GiB x 0.90; weights 19.86 GiB, non-torch 0.16
	 * GiB, activation peak 36.63 GiB; "# CUDA blocks: 6001" of 16 tokens
	 * of 40 layers x 8 KV heads x 128 x 2 x 2 B = 163,840 B a token. Each
	 * printed figure is within half a hundredth of a GiB of the true one:
	 * five of them, +/- 0.025 GiB, 10 blocks of 2.5 MiB at most. */
	uint64_t per_token = UINT64_C(163840), fixed = CGIB(1986) + CGIB(16) + CGIB(3663);
	uint64_t d;

	CHECK(gs_runtime_vllm_budget(CGIB(7922), 900, fixed, per_token, 16, 65536, &b) == 0);
	/* 79.22 GiB x 0.9 = 71.298 GiB: the log prints 71.29 */
	CHECK(b.budget / (GIB / 100) == 7129);
	d = b.blocks > 6001 ? b.blocks - 6001 : 6001 - b.blocks;
	CHECK(d <= 10);
	CHECK(b.blocks == 5999);
	/* the log's own KV memory, 14.65 GiB, gives 6,000 blocks: within the
	 * +/- 2 blocks its printed precision allows of 6,001 */
	CHECK(gs_runtime_vllm_budget(CGIB(1465), 1000, 0, per_token, 16, 0, &b) == 0);
	CHECK(b.blocks == 6000 && b.concurrency_hundredths == 0);
}

static void test_short_and_bounds(void)
{
	gs_runtime_budget b;

	/* the weights alone above the budget: no pool, by how much */
	CHECK(gs_runtime_vllm_budget(16 * GIB, 900, 15 * GIB, 131072, 16, 8192, &b) == 0);
	CHECK(b.budget == 16 * GIB / 10 * 9 + (16 * GIB % 10) * 9 / 10);
	CHECK(b.short_bytes == 15 * GIB - b.budget && b.blocks == 0 && b.tokens == 0);
	/* no block size, no cache: refused */
	CHECK(gs_runtime_vllm_budget(16 * GIB, 900, 0, 131072, 0, 8192, &b) == -1);
	CHECK(gs_runtime_vllm_budget(16 * GIB, 900, 0, 0, 16, 8192, &b) == -1);
	/* the largest figures do not overflow */
	CHECK(gs_runtime_vllm_budget(UINT64_MAX, 1000, 0, 1, 1, 0, &b) == 0);
	CHECK(b.tokens == UINT64_MAX);
	CHECK(gs_runtime_round_blocks(8193, 16) == 8208 && gs_runtime_round_blocks(8192, 16) == 8192);
	CHECK(gs_runtime_round_blocks(UINT64_MAX, 16) == UINT64_MAX);
}

static void test_defaults(void)
{
	gs_workload w;
	gs_runtime_settings rs;
	gs_dim dims[2] = { { "input_tokens", 30000 }, { "output_tokens", 2768 } };

	memset(&w, 0, sizeof(w));
	w.dims = dims;
	w.ndims = 2;
	CHECK(gs_runtime_settings_of(&w, &rs) == -1);
	w.runtime.engine = GS_ENGINE_VLLM;
	CHECK(gs_runtime_settings_of(&w, &rs) == 0);
	CHECK(rs.util_permille == 900 && rs.util_default && rs.util_source);
	CHECK(rs.block_size == 16 && rs.block_default);
	CHECK(rs.v1 && rs.max_num_batched_tokens == 2048 && rs.mnbt_default);
	CHECK_STR(rs.version, "0.8");
	/* V0: the longest sequence, at least 2,048 */
	w.runtime.version = "0.6.4";
	CHECK(gs_runtime_settings_of(&w, &rs) == 0);
	CHECK(!rs.v1 && rs.max_num_batched_tokens == 32768);
	/* stated settings are kept, not defaults */
	w.runtime.util_permille = 950;
	w.runtime.has_util = 1;
	w.runtime.block_size = 32;
	w.runtime.has_block_size = 1;
	CHECK(gs_runtime_settings_of(&w, &rs) == 0);
	CHECK(rs.util_permille == 950 && !rs.util_default && rs.block_size == 32 && !rs.block_default);
}

int main(void)
{
	test_v1_concurrency();
	test_v0_profile();
	test_short_and_bounds();
	test_defaults();
	return gs_check_exit("test_runtime");
}
