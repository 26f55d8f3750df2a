/*
 * test_runtime: vLLM's and SGLang's budgets (gen/decide/runtime.h) worked
 * by hand on the figures real engine logs print (tests/data/evidence-logs/,
 * each named below): the log's own terms in, its KV blocks, tokens and
 * concurrency out, block rounding included.
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
	CHECK(rs.util_permille == 920 && rs.util_default && rs.util_source);
	CHECK(rs.block_size == 16 && rs.block_default);
	CHECK(rs.v1 && rs.max_num_batched_tokens == 2048 && rs.mnbt_default);
	/* no version named: the newest the table knows, said so (0.21:
	 * gpu_memory_utilization 0.92) */
	CHECK_STR(rs.version, "0.21");
	CHECK(rs.version_assumed && rs.util_permille == 920);
	w.runtime.version = "0.21";
	CHECK(gs_runtime_settings_of(&w, &rs) == 0 && !rs.version_assumed);
	w.runtime.version = "0.8";
	CHECK(gs_runtime_settings_of(&w, &rs) == 0 && rs.util_permille == 900);
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

/*
 * vLLM's terms outside the weights and the KV cache (runtime.h
 * gs_runtime_vllm_terms_of), worked by hand.
 *
 * Llama-3.1-8B (hidden 4,096, intermediate 14,336, vocabulary 128,256,
 * bf16): the MLP peak a token is (3 x 14,336 + 3 x 4,096) x 2 B = 110,592 B.
 *  - vLLM 0.6.4 (V0), vllm-04_v0.6.4_profiling-results_issue10517.log,
 *    max_model_len 20,000: the step is max(20,000, 2,048) = 20,000 tokens,
 *    20,000 x 110,592 = 2,211,840,000 B = 2.060 GiB; the log's
 *    peak_torch_memory less its weights, 17.06 - 14.9888 = 2.071 GiB. At
 *    29,000: 3,207,168,000 B = 2.987 GiB; the log: 17.98 - 14.9888 = 2.991.
 *    V0 counts no logits; non-torch 0.35 GiB = 375,809,638 B (that log's
 *    own figure: the one term of the pair not predicted independently).
 *    Budget: total 23.58 GiB = 25,318,832,209 B x 0.9 = 22,786,948,988;
 *    weights 14.9888 GiB = 16,094,101,451; pool 22,786,948,988 -
 *    16,094,101,451 - 2,211,840,000 - 375,809,638 = 4,105,197,899 B =
 *    1,957 blocks of 2 MiB; the log: 1,952. At 29,000: 3,109,869,899 B =
 *    1,482 blocks; the log: 1,478. The five printed figures (0.005 GiB each
 *    at most, the total's x 0.9) allow 5 blocks either way.
 *  - vLLM V1 at 8,192 tokens: 905,969,664 B of MLP and 8,192 x 128,256 x 4
 *    = 4,202,692,608 B of float32 logits, 5,108,662,272 B = 4.758 GiB
 *    together; llm-d's H100 measurement of vLLM V1 (llm-d-benchmark,
 *    config_explorer/empirical-vllm-memory-results.md): 4.76 GiB.
 *
 * Qwen3-235B-A22B under tensor parallelism 4 (hidden 4,096, 8 active
 * experts of 1,536, vocabulary 151,936): intermediate 8 x 1,536 = 12,288,
 * a quarter a card: (3 x 3,072 + 3 x 4,096) x 2 B = 43,008 B a token,
 * x 8,192 = 352,321,536 B; logits 8,192 x 151,936 x 4 = 4,978,638,848 B;
 * non-torch under tensor parallelism 0.55 GiB = 590,558,003 B.
 */
static void test_terms(void)
{
	gs_workload w;
	gs_runtime_settings rs;
	gs_runtime_geometry g = { 4096, 14336, 128256, 2, 0 };
	gs_runtime_vllm_terms t;
	gs_runtime_budget b;
	gs_dim dims[2] = { { "input_tokens", 19999 }, { "output_tokens", 1 } };
	uint64_t total = CGIB(2358), weights = 149888 * GIB / 10000, d;

	memset(&w, 0, sizeof(w));
	w.dims = dims;
	w.ndims = 2;
	w.runtime.engine = GS_ENGINE_VLLM;
	w.runtime.version = "0.6.4";
	CHECK(gs_runtime_settings_of(&w, &rs) == 0);
	CHECK(rs.context_counted && !rs.logits_every_token && rs.non_torch_source);
	CHECK(gs_runtime_vllm_terms_of(&rs, &g, &t) == 0);
	CHECK(t.tokens == 20000 && t.act_per_token == 110592);
	CHECK(t.activation == UINT64_C(2211840000) && t.logits == 0 && t.logit_rows == 0);
	CHECK(t.non_torch == UINT64_C(375809638));
	CHECK(total == UINT64_C(25318832209) && weights == UINT64_C(16094101451));
	CHECK(gs_runtime_vllm_budget(total, 900, weights + t.activation + t.non_torch, 131072, 16,
				     20000, &b) == 0);
	CHECK(b.budget == UINT64_C(22786948988) && b.blocks == 1957);
	d = b.blocks > 1952 ? b.blocks - 1952 : 1952 - b.blocks;
	CHECK(d <= 5);
	dims[0].value = 28999;
	CHECK(gs_runtime_settings_of(&w, &rs) == 0 && gs_runtime_vllm_terms_of(&rs, &g, &t) == 0);
	CHECK(t.activation == UINT64_C(3207168000));
	CHECK(gs_runtime_vllm_budget(total, 900, weights + t.activation + t.non_torch, 131072, 16,
				     29000, &b) == 0);
	CHECK(b.blocks == 1482);
	/* V1 0.8, the LLM class's 8,192 tokens: MLP and logits */
	w.runtime.version = "0.8.4";
	w.runtime.max_num_batched_tokens = 8192;
	w.runtime.has_max_num_batched_tokens = 1;
	CHECK(gs_runtime_settings_of(&w, &rs) == 0);
	CHECK(rs.context_counted && rs.logits_every_token);
	CHECK(gs_runtime_vllm_terms_of(&rs, &g, &t) == 0);
	CHECK(t.activation == UINT64_C(905969664) && t.logit_rows == 8192);
	CHECK(t.logits == UINT64_C(4202692608));
	CHECK(t.activation + t.logits == UINT64_C(5108662272));
	CHECK(rs.mnbt_large == 0 && rs.mnbt_rule == GS_MNBT_FIXED);
	/* from 0.9 the non-torch increase only; 0.7 (V0) likewise */
	w.runtime.version = "0.10";
	CHECK(gs_runtime_settings_of(&w, &rs) == 0 && !rs.context_counted);
	CHECK(rs.mnbt_large == 0);    /* the step budget is the workload's */
	CHECK(gs_runtime_mnbt_on_card(&rs, CGIB(7922), "H100 SXM", NULL) == 8192);
	w.runtime.has_max_num_batched_tokens = 0;
	CHECK(gs_runtime_settings_of(&w, &rs) == 0);
	CHECK(rs.max_num_batched_tokens == 2048 && rs.mnbt_large == 8192);
	w.runtime.has_max_num_batched_tokens = 1;
	CHECK(gs_runtime_settings_of(&w, &rs) == 0);
	CHECK(gs_runtime_vllm_terms_of(&rs, &g, &t) == 0 && t.non_torch == UINT64_C(139586437));
	CHECK(t.cuda_graphs == 0 && rs.cuda_graphs_source == NULL && rs.util_permille == 900);
	/* 0.21: the profiled CUDA graphs inside the budget, assumed 0.52 GiB =
	 * 52 x 2^30 / 100 = 558,345,748.48 -> 558,345,748 B (LMCache issue
	 * 3430), and gpu_memory_utilization 0.92 (PR 38284); 0.20 neither */
	w.runtime.version = "0.21";
	CHECK(gs_runtime_settings_of(&w, &rs) == 0 && rs.util_permille == 920 && rs.util_default);
	CHECK(rs.cuda_graphs == UINT64_C(558345748) && rs.cuda_graphs_source && !rs.context_counted);
	CHECK(gs_runtime_vllm_terms_of(&rs, &g, &t) == 0 && t.cuda_graphs == UINT64_C(558345748));
	CHECK(t.non_torch == UINT64_C(139586437));
	w.runtime.util_permille = 900;
	w.runtime.has_util = 1;
	CHECK(gs_runtime_settings_of(&w, &rs) == 0 && rs.util_permille == 900 && !rs.util_default);
	w.runtime.has_util = 0;
	w.runtime.version = "0.20.2";
	CHECK(gs_runtime_settings_of(&w, &rs) == 0 && rs.util_permille == 900 && rs.cuda_graphs == 0);
	w.runtime.version = "0.7.3";
	CHECK(gs_runtime_settings_of(&w, &rs) == 0 && !rs.context_counted && !rs.logits_every_token);
	CHECK(rs.non_torch == UINT64_C(171798691));
	/* Qwen3-235B-A22B under tensor parallelism 4, vLLM 0.10 at 8,192 tokens */
	w.runtime.version = "0.10";
	g.hidden = 4096;
	g.intermediate = 8 * 1536;
	g.vocab = 151936;
	g.tp = 4;
	CHECK(gs_runtime_settings_of(&w, &rs) == 0 && gs_runtime_vllm_terms_of(&rs, &g, &t) == 0);
	CHECK(t.act_per_token == 43008 && t.activation == UINT64_C(352321536));
	CHECK(t.logits == UINT64_C(4978638848) && t.non_torch == UINT64_C(590558003));
	/* a missing figure: refused, never a zero term */
	g.vocab = 0;
	CHECK(gs_runtime_vllm_terms_of(&rs, &g, &t) == -1);
	g.vocab = 151936;
	g.hidden = 0;
	CHECK(gs_runtime_vllm_terms_of(&rs, &g, &t) == -1);
	/* overflow reported */
	g.hidden = UINT64_MAX / 2;
	CHECK(gs_runtime_vllm_terms_of(&rs, &g, &t) == -1);
}

/*
 * vLLM's default max_num_batched_tokens by the card and the entry point
 * (runtime.c, vllm/engine/arg_utils.py at each version), the card's total
 * as the sheet takes it (the reported totals of the vendor table):
 *  - 0.9 and later: 70 GiB = 75,161,927,680 B or more, and a name without
 *    "a100". An H100 SXM, 79.22 GiB = 85,061,827,297 B: `vllm serve`
 *    8,192, the LLM class 16,384. An A100 80GB, 79.25 GiB: 2,048 and 8,192
 *    (the name). An RTX 3090, 23.58 GiB: 2,048 and 8,192 (the memory). A
 *    card of exactly 70 GiB takes the larger, one byte less the smaller.
 *  - 0.8.5: 70 GiB or more, whatever the name: the A100 80GB 8,192.
 *  - 0.8 to 0.8.4: by the name, "h100" or "h200": the H100 SXM and a
 *    GH200 8,192, the A100 80GB and an MI300X 2,048 whatever their memory.
 *  - stated, or V0 (0.7): the one figure on every card.
 * The reserve's profiling-step terms scale with the step: Mistral-7B's
 * (hidden 4,096, intermediate 14,336, vocabulary 32,000, bf16) activation
 * peak 2,048 x 110,592 = 226,492,416 B and logits 2,048 x 32,000 x 4 =
 * 262,144,000 B, 488,636,416 B together at 2,048 tokens; on the H100
 * under `vllm serve`, 8,192 tokens: 905,969,664 + 1,048,576,000 =
 * 1,954,545,664 B. Under the LLM class (8,192 workload-wide, written so by
 * init), the H100's 16,384: 3,909,091,328 B. An item of the name whose
 * bytes are not a multiple of the workload's step (a figure from a log)
 * is not scaled.
 */
static void test_step_by_card(void)
{
	gs_workload w;
	gs_runtime_settings rs;
	gs_item items[3];
	uint64_t h100 = CGIB(7922), a100 = CGIB(7925), r3090 = CGIB(2358), now, then;
	uint64_t gib70 = UINT64_C(70) * GIB;
	int large;

	memset(&w, 0, sizeof(w));
	memset(items, 0, sizeof(items));
	w.runtime.engine = GS_ENGINE_VLLM;
	w.runtime.version = "0.21";
	CHECK(h100 == UINT64_C(85061827297) && gib70 == UINT64_C(75161927680));
	CHECK(gs_runtime_settings_of(&w, &rs) == 0 && rs.entry_default && !rs.entry_llm);
	CHECK(rs.mnbt_rule == GS_MNBT_70GIB_NOT_A100 && rs.mnbt_large == 8192);
	CHECK(strstr(rs.mnbt_source, "get_batch_defaults") != NULL);
	CHECK(gs_runtime_mnbt_on_card(&rs, h100, "H100 SXM", &large) == 8192 && large);
	CHECK(gs_runtime_mnbt_on_card(&rs, a100, "A100 80GB", &large) == 2048 && !large);
	CHECK(gs_runtime_mnbt_on_card(&rs, r3090, "RTX 3090", &large) == 2048 && !large);
	CHECK(gs_runtime_mnbt_on_card(&rs, gib70, "X", NULL) == 8192);
	CHECK(gs_runtime_mnbt_on_card(&rs, gib70 - 1, "X", NULL) == 2048);
	CHECK(gs_runtime_mnbt_on_card(&rs, h100, NULL, NULL) == 8192);
	CHECK(gs_runtime_mnbt_rule_text(&rs) != NULL);
	/* the LLM class */
	w.runtime.entry_llm = 1;
	w.runtime.has_entry_point = 1;
	CHECK(gs_runtime_settings_of(&w, &rs) == 0 && !rs.entry_default && rs.entry_llm);
	CHECK(rs.max_num_batched_tokens == 8192 && rs.mnbt_large == 16384);
	CHECK(gs_runtime_mnbt_on_card(&rs, h100, "H100 SXM", NULL) == 16384);
	CHECK(gs_runtime_mnbt_on_card(&rs, a100, "A100 80GB", NULL) == 8192);
	CHECK(gs_runtime_mnbt_on_card(&rs, r3090, "RTX 3090", NULL) == 8192);
	/* the function by version, the rule the same from 0.9 */
	w.runtime.has_entry_point = 0;
	w.runtime.version = "0.11.0";
	CHECK(gs_runtime_settings_of(&w, &rs) == 0 && strstr(rs.mnbt_source, "_set_default_args (") != NULL);
	w.runtime.version = "0.9";
	CHECK(gs_runtime_settings_of(&w, &rs) == 0 && strstr(rs.mnbt_source, "_set_default_args_v1") != NULL);
	CHECK(gs_runtime_mnbt_on_card(&rs, a100, "A100 80GB", NULL) == 2048);
	/* 0.8.5: the memory alone */
	w.runtime.version = "0.8.5";
	CHECK(gs_runtime_settings_of(&w, &rs) == 0 && rs.mnbt_rule == GS_MNBT_70GIB);
	CHECK(gs_runtime_mnbt_on_card(&rs, a100, "A100 80GB", NULL) == 8192);
	CHECK(gs_runtime_mnbt_on_card(&rs, r3090, "RTX 3090", NULL) == 2048);
	/* 0.8 to 0.8.4: the name alone */
	w.runtime.version = "0.8.4";
	CHECK(gs_runtime_settings_of(&w, &rs) == 0 && rs.mnbt_rule == GS_MNBT_NAME_H100);
	CHECK(gs_runtime_mnbt_on_card(&rs, h100, "H100 SXM", NULL) == 8192);
	CHECK(gs_runtime_mnbt_on_card(&rs, CGIB(9500), "GH200 96GB", NULL) == 8192);
	CHECK(gs_runtime_mnbt_on_card(&rs, a100, "A100 80GB", NULL) == 2048);
	CHECK(gs_runtime_mnbt_on_card(&rs, CGIB(19200), "MI300X", NULL) == 2048);
	/* stated: the one figure; V0: no rule by the card */
	w.runtime.max_num_batched_tokens = 4096;
	w.runtime.has_max_num_batched_tokens = 1;
	CHECK(gs_runtime_settings_of(&w, &rs) == 0 && gs_runtime_mnbt_rule_text(&rs) == NULL);
	CHECK(gs_runtime_mnbt_on_card(&rs, h100, "H100 SXM", &large) == 4096 && !large);
	w.runtime.has_max_num_batched_tokens = 0;
	w.runtime.version = "0.7";
	CHECK(gs_runtime_settings_of(&w, &rs) == 0 && rs.mnbt_rule == GS_MNBT_FIXED);
	CHECK(gs_runtime_mnbt_on_card(&rs, h100, "H100 SXM", NULL) == 2048);
	/* the reserve's step terms scaled */
	items[0].name = "vLLM profiling activation peak";
	items[0].bytes = UINT64_C(226492416);
	items[1].name = "vLLM profiling logits";
	items[1].bytes = UINT64_C(262144000);
	items[2].name = "vLLM non-torch memory";
	items[2].bytes = UINT64_C(139586437);
	w.reserve = items;
	w.nreserve = 3;
	w.runtime.version = "0.21";
	CHECK(gs_runtime_settings_of(&w, &rs) == 0);
	CHECK(gs_runtime_step_terms(&w, &rs, gs_runtime_mnbt_on_card(&rs, h100, "H100 SXM", NULL),
				    &now, &then) == 0);
	CHECK(now == UINT64_C(488636416) && then == UINT64_C(1954545664));
	CHECK(gs_runtime_step_terms(&w, &rs, 2048, &now, &then) == 0 && now == then);
	w.runtime.entry_llm = 1;
	w.runtime.has_entry_point = 1;
	items[0].bytes = UINT64_C(905969664);
	items[1].bytes = UINT64_C(1048576000);
	CHECK(gs_runtime_settings_of(&w, &rs) == 0);
	CHECK(gs_runtime_step_terms(&w, &rs, gs_runtime_mnbt_on_card(&rs, h100, "H100 SXM", NULL),
				    &now, &then) == 0);
	CHECK(now == UINT64_C(1954545664) && then == UINT64_C(3909091328));
	/* a figure not a multiple of the step: kept as it is, in both */
	items[0].bytes = UINT64_C(2222615757);
	CHECK(gs_runtime_step_terms(&w, &rs, 16384, &now, &then) == 0);
	CHECK(now == UINT64_C(1048576000) && then == UINT64_C(2097152000));
}

/*
 * SGLang 0.4.5.post3 to 0.5.2 (runtime.c's list, read in SGLang's
 * server_args.py at each release), worked by hand; gpu_mem is the card's
 * total in MiB, rounded down.
 *  - 0.4.6 (PR 5604): an H100, 81,080 MiB <= 81,920: the table, 0.88. A
 *    card of 140 GiB, 143,360 MiB: (143,360 - 13,312) / 143,360 = 130,048 /
 *    143,360 = 0.90714..., unrounded.
 *  - 0.4.6.post2 (PR 5893): 140 GiB: f = 0.88 (above 81,920); the lesser of
 *    0.88 + 49,152 x 0.12 / 143,360 = 0.92114... and (143,360 - 18,432) /
 *    143,360 = 0.87142...: over 1000 x 143,360, 132,055,040 and 124,928,000:
 *    124,928,000 / 143,360,000. 90 GiB (92,160 MiB, between 81,920 and
 *    98,304): 0.88 even at tp 8; an H100 at tp 8: 0.81.
 *  - 0.4.7 (PR 6718): 180 GiB (184,320 MiB > 180,000): 0.79 on a CUDA card;
 *    an AMD card the rule above: 165,888,000 / 184,320,000 = 0.9 exactly.
 *  - 0.4.7.post1 to 0.5.2 (PR 7054): an H100, 81,080 MiB (below 90 GiB):
 *    (9.5 + 1 / 2) x 1,024 = 10,240, 70,840 / 81,080 = 0.8737 -> 0.874; at
 *    tp 4, 11,776: 0.8548 -> 0.855. An RTX 3090, 24,145 MiB: (2.8 + 0.1) x
 *    1,024 = 2,969.6, 21,175.4 / 24,145 = 0.8770 -> 0.877. 140 GiB at tp 8:
 *    (12 + 4) x 1,024 = 16,384, 126,976 / 143,360 = 0.8857 -> 0.886. 180
 *    GiB: 32,768, 151,552 / 184,320 = 0.8222 -> 0.822.
 */
static void test_sglang_rule_04(gs_workload *w)
{
	gs_runtime_settings rs;
	gs_runtime_share sh;

	w->runtime.version = "0.4.6";
	CHECK(gs_runtime_settings_of(w, &rs) == 0 && rs.mfs_rule == GS_SGLANG_RULE_TP_13G);
	CHECK(gs_runtime_share_of(&rs, CGIB(7918), 1, 0, &sh) == 0 && sh.permille == 880);
	CHECK(!sh.unrounded && sh.den == 1000);
	CHECK(gs_runtime_share_of(&rs, 140 * GIB, 1, 0, &sh) == 0 && sh.unrounded);
	CHECK(sh.num == 130048 && sh.den == 143360 && sh.permille == 907);
	CHECK_U64(gs_runtime_share_apply(&sh, 140 * GIB), 130048ULL * MIB);
	w->runtime.version = "0.4.5.post3";
	CHECK(gs_runtime_settings_of(w, &rs) == 0 && rs.mfs_rule == GS_SGLANG_RULE_TP_13G);
	w->runtime.version = "0.4.6.post2";
	CHECK(gs_runtime_settings_of(w, &rs) == 0 && rs.mfs_rule == GS_SGLANG_RULE_TP_18G);
	CHECK(gs_runtime_share_of(&rs, 140 * GIB, 1, 0, &sh) == 0 && sh.unrounded);
	CHECK(sh.num == 124928000ULL && sh.den == 143360000ULL && sh.permille == 871);
	CHECK(gs_runtime_share_of(&rs, 90 * GIB, 8, 0, &sh) == 0 && sh.permille == 880);
	CHECK(!sh.unrounded);
	CHECK(gs_runtime_share_of(&rs, CGIB(7918), 8, 0, &sh) == 0 && sh.permille == 810);
	w->runtime.version = "0.4.7";
	CHECK(gs_runtime_settings_of(w, &rs) == 0 && rs.mfs_rule == GS_SGLANG_RULE_TP_B200);
	CHECK(gs_runtime_share_of(&rs, 180 * GIB, 1, 0, &sh) == 0 && sh.permille == 790);
	CHECK(gs_runtime_share_of(&rs, 180 * GIB, 1, 1, &sh) == 0 && sh.unrounded);
	CHECK(sh.num == 165888000ULL && sh.den == 184320000ULL && sh.permille == 900);
	w->runtime.version = "0.4.7.post1";
	CHECK(gs_runtime_settings_of(w, &rs) == 0 && rs.mfs_rule == GS_SGLANG_RULE_BUCKETS);
	w->runtime.version = "0.5.2";
	CHECK(gs_runtime_settings_of(w, &rs) == 0 && rs.mfs_rule == GS_SGLANG_RULE_BUCKETS);
	CHECK(gs_runtime_share_of(&rs, CGIB(7918), 1, 0, &sh) == 0 && sh.permille == 874);
	CHECK(sh.reserved_tenth_mib == 102400 && sh.gpu_mem_mib == 81080);
	CHECK(gs_runtime_share_of(&rs, CGIB(7918), 4, 0, &sh) == 0 && sh.permille == 855);
	CHECK(gs_runtime_share_of(&rs, CGIB(2358), 1, 0, &sh) == 0 && sh.permille == 877);
	CHECK(sh.reserved_tenth_mib == 29696);
	CHECK(gs_runtime_share_of(&rs, 140 * GIB, 8, 0, &sh) == 0 && sh.permille == 886);
	CHECK(gs_runtime_share_of(&rs, 180 * GIB, 1, 0, &sh) == 0 && sh.permille == 822);
	CHECK(gs_runtime_share_of(&rs, 2 * GIB, 1, 0, &sh) == -1);
	w->runtime.version = "0.5.3";
	CHECK(gs_runtime_settings_of(w, &rs) == 0 && rs.mfs_rule == GS_SGLANG_RULE_RESERVE);
	CHECK(gs_workload_release_valid("0.4.7.post1") && !gs_workload_release_valid("0.4.7.post"));
	CHECK(!gs_workload_release_valid("0.5.3rc0") && !gs_workload_release_valid(".post1"));
	CHECK_U64(gs_workload_version_post("0.4.6.post12"), 12);
	CHECK_U64(gs_workload_version_post("0.4.6"), 0);
}

/*
 * SGLang's default mem_fraction_static (runtime.c), worked by hand.
 * 0.5.3 and later: reserved = 512 + 1.5 x max(chunked_prefill_size, 2048)
 * + 2 x cuda_graph_max_bs + 1024 x tp / 8 MiB, at least 10,240 MiB on a
 * card above 60 GiB; mem_fraction_static = round((gpu_mem - reserved) /
 * gpu_mem, 3).
 *  - H100 SXM, 79.18 GiB = 81,080 MiB: chunked_prefill_size 8,192,
 *    cuda_graph_max_bs 256 (tp < 4): 512 + 12,288 + 512 + 128 = 13,440 MiB,
 *    67,640 / 81,080 = 0.8342 -> 0.834. Under tp 4: cuda_graph_max_bs 512,
 *    512 + 12,288 + 1,024 + 512 = 14,336, 66,744 / 81,080 = 0.8232 -> 0.823.
 *  - RTX 3090, 23.58 GiB = 24,145 MiB: 2,048 and 24: 512 + 3,072 + 48 + 128
 *    = 3,760, 20,385 / 24,145 = 0.8443 -> 0.844.
 *  - 64 GiB with chunked_prefill_size 2,048 and cuda_graph_max_bs 8 stated:
 *    3,728 MiB, raised to 10,240 above 60 GiB: 55,296 / 65,536 = 0.84375
 *    -> 0.844 (half up).
 * 0.4 to 0.4.5.post2: by tensor parallelism only.
 */
static void test_sglang_rule(void)
{
	gs_workload w;
	gs_runtime_settings rs;
	gs_runtime_share sh;

	memset(&w, 0, sizeof(w));
	w.runtime.engine = GS_ENGINE_SGLANG;
	CHECK(gs_runtime_settings_of(&w, &rs) == 0);
	CHECK(rs.id == GS_ENGINE_SGLANG && rs.mfs_rule == GS_SGLANG_RULE_RESERVE);
	CHECK(rs.block_size == 1 && rs.mfs_permille == 0 && rs.mfs_source && rs.pool_source);
	CHECK_STR(rs.version, "0.5.3");
	CHECK(gs_runtime_share_of(&rs, CGIB(7918), 1, 0, &sh) == 0);
	CHECK(sh.by_rule && sh.gpu_mem_mib == 81080 && sh.chunked_prefill_size == 8192);
	CHECK(sh.cuda_graph_max_bs == 256 && sh.reserved_half_mib == 2 * 13440);
	CHECK(sh.permille == 834);
	CHECK(gs_runtime_share_of(&rs, CGIB(7918), 4, 0, &sh) == 0);
	CHECK(sh.cuda_graph_max_bs == 512 && sh.reserved_half_mib == 2 * 14336 && sh.permille == 823);
	CHECK(gs_runtime_share_of(&rs, CGIB(2358), 1, 0, &sh) == 0);
	CHECK(sh.gpu_mem_mib == 24145 && sh.reserved_half_mib == 2 * 3760 && sh.permille == 844);
	/* a card smaller than the reserve has no budget */
	CHECK(gs_runtime_share_of(&rs, 2 * GIB, 1, 0, &sh) == -1);
	w.runtime.chunked_prefill_size = 2048;
	w.runtime.has_chunked_prefill_size = 1;
	w.runtime.cuda_graph_max_bs = 8;
	w.runtime.has_cuda_graph_max_bs = 1;
	CHECK(gs_runtime_settings_of(&w, &rs) == 0);
	CHECK(gs_runtime_share_of(&rs, 64 * GIB, 1, 0, &sh) == 0);
	CHECK(sh.reserved_half_mib == 2 * 10240 && sh.permille == 844);
	/* 0.4 to 0.4.5.post2: by tensor parallelism */
	w.runtime.version = "0.4.5.post2";
	CHECK(gs_runtime_settings_of(&w, &rs) == 0 && rs.mfs_rule == GS_SGLANG_RULE_TP);
	CHECK(gs_runtime_share_of(&rs, CGIB(7918), 1, 0, &sh) == 0 && sh.permille == 880);
	CHECK(gs_runtime_share_of(&rs, CGIB(7918), 2, 0, &sh) == 0 && sh.permille == 870);
	CHECK(gs_runtime_share_of(&rs, CGIB(7918), 4, 0, &sh) == 0 && sh.permille == 850);
	CHECK(gs_runtime_share_of(&rs, CGIB(7918), 8, 0, &sh) == 0 && sh.permille == 810);
	CHECK(gs_runtime_share_of(&rs, CGIB(7918), 16, 0, &sh) == 0 && sh.permille == 790);
	CHECK(gs_runtime_share_of(&rs, 140 * GIB, 1, 0, &sh) == 0 && sh.permille == 880);
	CHECK(sh.num == 880 && sh.den == 1000 && !sh.unrounded);
	test_sglang_rule_04(&w);
	w.runtime.version = "0.3";
	CHECK(gs_runtime_settings_of(&w, &rs) == -1);
	w.runtime.mfs_permille = 930;
	w.runtime.has_mfs = 1;
	CHECK(gs_runtime_settings_of(&w, &rs) == 0);
	CHECK(gs_runtime_share_of(&rs, CGIB(7918), 4, 0, &sh) == 0 && sh.permille == 930 && !sh.by_rule);
	CHECK(gs_workload_sglang_version_known("0.4") && gs_workload_sglang_version_known("0.5.3"));
	CHECK(gs_workload_sglang_version_known("0.5.10") && gs_workload_sglang_version_known("0.4.7"));
	CHECK(gs_workload_sglang_version_known("0.5.0") && !gs_workload_sglang_version_known("0.3.6"));
}

/*
 * SGLang's pool on the figures of a real log:
 * sglang-05_kv-dtype-form-rocm_pr18263.log (Qwen3MoeForCausalLM, one rank,
 * an AMD Instinct card not named). Its KV bytes a token: "K size: 76.44 GB"
 * for "#tokens: 1669816" is 49,152 B of keys, 98,304 B with the values:
 * 48 layers x 4 KV heads x 128 x 2 x 2 B (Qwen3-30B-A3B's geometry; its
 * 56.98 GiB of weights are that model's in bf16).
 *  - mem_fraction_static: the log prints 0.911. The rule of 0.5.3 gives it
 *    on a card of 288 GiB = 294,912 MiB (chunked_prefill_size 16,384,
 *    cuda_graph_max_bs 512: 512 + 24,576 + 1,024 + 128 = 26,240 MiB,
 *    268,672 / 294,912 = 0.91102), and on any card from 293,185 to
 *    296,497 MiB; the log does not name its card.
 *  - The pool: total (the free memory before the weights: "avail
 *    mem=230.20 GB" after them plus "mem usage=56.98 GB") 287.18 GiB x
 *    0.911 less the weights = 204.641 GiB; the log prints "initial
 *    available_bytes 219721119039" (204.631 GiB). Three printed figures,
 *    0.005 GiB each at most: 0.015 GiB either way.
 *  - max_total_num_tokens: the log's budget after its ROCm attention
 *    backend's own adjustment ("candidate_kv_budget 164149629787", not in
 *    the table) over 98,304 B, rounded down: "#tokens: 1669816", exactly.
 */
static void test_sglang_log(void)
{
	gs_workload w;
	gs_runtime_settings rs;
	gs_runtime_share sh;
	gs_runtime_budget b;
	uint64_t obs = UINT64_C(219721119039), d;

	memset(&w, 0, sizeof(w));
	w.runtime.engine = GS_ENGINE_SGLANG;
	CHECK(gs_runtime_settings_of(&w, &rs) == 0);
	CHECK(gs_runtime_share_of(&rs, 288 * GIB, 1, 0, &sh) == 0);
	CHECK(sh.reserved_half_mib == 2 * 26240 && sh.permille == 911);
	CHECK(gs_runtime_share_of(&rs, UINT64_C(293185) * MIB, 1, 0, &sh) == 0 && sh.permille == 911);
	CHECK(gs_runtime_share_of(&rs, UINT64_C(296497) * MIB, 1, 0, &sh) == 0 && sh.permille == 911);
	CHECK(gs_runtime_share_of(&rs, UINT64_C(296498) * MIB, 1, 0, &sh) == 0 && sh.permille == 912);
	CHECK(gs_runtime_share_of(&rs, UINT64_C(293184) * MIB, 1, 0, &sh) == 0 && sh.permille == 910);
	CHECK(gs_runtime_vllm_budget(CGIB(28718), 911, CGIB(5698), 98304, rs.block_size, 0, &b) == 0);
	d = b.pool > obs ? b.pool - obs : obs - b.pool;
	CHECK(d <= CGIB(1) + CGIB(1) / 2);
	/* 308,357,177,016 x 0.911 = 280,913,388,261 less 61,181,809,131 =
	 * 219,731,579,130 B: 2,235,225 tokens of 98,304 B (the pool in whole
	 * tokens, 219,731,558,400 B) */
	CHECK(b.budget == UINT64_C(280913388261) && b.tokens == 2235225 &&
	      b.pool == UINT64_C(219731558400));
	CHECK(gs_runtime_vllm_budget(UINT64_C(164149629787), 1000, 0, 98304, 1, 0, &b) == 0);
	CHECK(b.tokens == 1669816 && b.blocks == 1669816);
}

int main(void)
{
	test_v1_concurrency();
	test_v0_profile();
	test_short_and_bounds();
	test_defaults();
	test_terms();
	test_step_by_card();
	test_sglang_rule();
	test_sglang_log();
	return gs_check_exit("test_runtime");
}
