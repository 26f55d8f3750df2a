/*
 * Unit tests of the speed bounds (gen/decide/speed.h), worked by hand.
 *
 * Decode, per sequence: bandwidth / (active weight bytes + sequences x KV
 * bytes of one sequence), in thousandths of a token per second, rounded up.
 * The figures (weights as the checkpoints' bytes or parameters x 2 B in
 * bf16; KV per token 2 x layers x kv_heads x head_dim x 2 B):
 *
 *  - Llama-3.1-8B, bf16: 8,030,261,248 parameters, 16,060,522,496 B;
 *    KV 2 x 32 x 8 x 128 x 2 = 131,072 B per token.
 *    L4 (300 GB/s), weights alone: 300e9 / 16,060,522,496 = 18.6793...
 *    -> 18,680 (the issue's "at most 18.7 tokens per second").
 *    H100 SXM (3,350 GB/s), one sequence at 8,192 tokens: KV 1 GiB,
 *    3.35e12 / 17,134,264,320 = 195.5147... -> 195,515; at 32,768 tokens
 *    (KV 4 GiB): 3.35e12 / 20,355,489,792 = 164.5748... -> 164,575.
 *    Four sequences at 8,192: per sequence 3.35e12 / 20,355,489,792 =
 *    164,575 again (4 GiB of KV), in total x 4 = 658.299... -> 658,300.
 *    Prefill, bf16 (989.5 TFLOPS dense): 989.5e12 / (2 x 8,030,261,248)
 *    = 61,610.697... -> 61,610,698; the first token of 8,192 input tokens
 *    8,192 x 16,060,522,496 / 989.5e12 = 0.132963... s -> 132,963 us.
 *  - Mixtral-8x7B, bf16 (an MoE): 46,702,792,704 parameters, 12,879,925,248
 *    active; weights 93,405,585,408 B, active bytes 93,405,585,408 x
 *    12,879,925,248 / 46,702,792,704 = 25,759,850,496. A100 80GB (2,039
 *    GB/s) at 4,096 tokens (KV 536,870,912 B): 2.039e12 / 26,296,721,408 =
 *    77.538... -> 77,539; at 32,768 (KV 4 GiB): 2.039e12 / 30,054,817,792
 *    = 67.842... -> 67,843. Prefill (312 TFLOPS): 312e12 / 25,759,850,496
 *    = 12,111.871... -> 12,111,872.
 *  - DeepSeek-R1 (MLA) at 1 B per weight: 671,026,419,200 parameters,
 *    37,552,297,472 active (bytes alike); the vLLM latent 70,272 B per token,
 *    replicated on each of 8 H200 (4.8 TB/s): 8 x 4.8e12 / (37,552,297,472
 *    + 8 x 70,272 x 4,096) = 963.493... -> 963,494 at 4,096 tokens;
 *    at 32,768: / (37,552,297,472 + 8 x 2,302,672,896) = 686.036... -> 686,037.
 *  - Mistral-7B-v0.1 (a 4,096-token window), bf16: 14,483,464,192 B;
 *    L40S (864 GB/s) at 2,048 tokens (KV kept 2,048: 268,435,456 B):
 *    864e9 / 14,751,899,648 = 58.568... -> 58,569; at 32,768 tokens the
 *    window keeps 4,096 (536,870,912 B): 864e9 / 15,020,335,104 = 57.522...
 *    -> 57,523; the same on H100 SXM: 3.35e12 / 15,020,335,104 -> 223,031,
 *    on L4: 300e9 / 15,020,335,104 -> 19,973.
 *
 * Cost of a million output tokens: micro per hour x 10^6 x bytes per step /
 * (3,600 x bandwidth x sequences), rounded down:
 *  - L4 at 0.80 per hour, Llama-3.1-8B weights alone: 800,000 x 10^6 x
 *    16,060,522,496 / (3,600 x 300e9) = 11,896,683.3 -> 11,896,683
 *    millionths (11.8966 per million tokens);
 *  - H100 SXM at 2.99 per hour, four sequences at 8,192: 2,990,000 x 10^6
 *    x 20,355,489,792 / (3,600 x 3.35e12 x 4) = 1,261,669.6 -> 1,261,669;
 *  - interruptible at 1.20 per hour, the same lot: 506,355.5 -> 506,355.
 */
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "gpuname.h"
#include "speed.h"

static gs_speed_load S_load(uint64_t w, uint64_t kv, uint64_t seqs, uint64_t cards)
{
	gs_speed_load l;

	memset(&l, 0, sizeof(l));
	l.weights_read = w;
	l.kv_read = kv;
	l.sequences = seqs;
	l.cards = cards;
	return l;
}

#define S_LLAMA_W UINT64_C(16060522496)
#define S_LLAMA_P UINT64_C(8030261248)

/*
 * Speculative decoding and the expected figure, Llama-3.1-8B in bf16
 * (16,060,522,496 B) on one L4 (300 GB/s), one sequence, the cache left
 * out. One token a step: 300e9 / 16,060,522,496 = 18.6793 -> 18,680
 * (rounded up). With 3 draft tokens a step yields at most 4: 74.7173 ->
 * 74,718, and 30 tokens/s is no longer out of reach by calculation; 80
 * is. Expected at an efficiency of 0.5 and 2.4 tokens a step: 18.6793 x
 * 0.5 x 2.4 = 22.4152 -> 22,415 (rounded down: an expectation, no
 * bound). The cost of a million tokens at 1 USD an hour: 10^6 x
 * 16,060,522,496 / (3,600 x 300e9 x 4) = 3.7177 USD -> 3,717,713
 * millionths, a quarter of one token a step's.
 */
static void test_speculative(void)
{
	const gs_speed_gpu *l4 = gs_speed_gpu_of("L4");
	gs_speed_load l;
	gs_speed s;
	int64_t cost = 0;
	char b[GS_FMT_MAX];

	if (!CHECK(l4 != NULL))
		return;
	l = S_load(S_LLAMA_W, 0, 1, 1);
	l.tokens_per_step_max = 4;
	l.efficiency_milli = 500;
	l.tokens_per_step_milli = 2400;
	if (CHECK_INT(gs_speed_bound(l4, &l, "bf16", &s), 0) && CHECK(s.known)) {
		CHECK_U64(s.spec_max, 4);
		CHECK_U64(s.decode_weights_milli, 74718);
		CHECK_U64(s.decode_seq_milli, 74718);
		CHECK(!gs_speed_below(&s, 0, 30000));
		CHECK(gs_speed_below(&s, 0, 80000));
		CHECK(s.has_expected);
		CHECK_U64(s.expected_seq_milli, 22415);
		CHECK_U64(s.expected_total_milli, 22415);
		CHECK_STR(gs_speed_fmt_down(b, s.expected_seq_milli, GS_LANG_EN), "22.4");
		CHECK_INT(gs_speed_cost_per_mtok(&s, 1000000, &cost), 0);
		CHECK(cost == 3717713);
	}
	/* neither given: no expected figure, one token a step */
	l = S_load(S_LLAMA_W, 0, 1, 1);
	if (CHECK_INT(gs_speed_bound(l4, &l, "bf16", &s), 0)) {
		CHECK(!s.has_expected);
		CHECK_U64(s.spec_max, 1);
		CHECK_INT(gs_speed_cost_per_mtok(&s, 1000000, &cost), 0);
		CHECK(cost == 14870854);
	}
}

static void test_dense(void)
{
	const gs_speed_gpu *l4 = gs_speed_gpu_of("L4"), *h100 = gs_speed_gpu_of("H100 SXM");
	gs_speed_load l;
	gs_speed s;
	char b[GS_FMT_MAX];

	if (!CHECK(l4 && h100))
		return;
	l = S_load(S_LLAMA_W, 0, 1, 1);
	if (CHECK_INT(gs_speed_bound(l4, &l, "bf16", &s), 0) && CHECK(s.known)) {
		CHECK_U64(s.decode_weights_milli, 18680);
		CHECK_U64(s.decode_seq_milli, 18680);
		CHECK_STR(gs_speed_fmt(b, s.decode_seq_milli, GS_LANG_EN), "18.7");
		CHECK_STR(gs_speed_fmt(b, s.decode_seq_milli, GS_LANG_ES), "18,7");
		/* the case: 30 tokens/s per sequence is out of reach */
		CHECK(gs_speed_below(&s, 0, 30000));
		CHECK(!gs_speed_below(&s, 0, 18000));
		/* exact at the edge: 18.679 is below the bound, 18.680 above it */
		CHECK(!gs_speed_below(&s, 0, 18679));
		CHECK(gs_speed_below(&s, 0, 18680));
	}
	l = S_load(S_LLAMA_W, 131072u * 8192u, 1, 1);
	l.active_parameters = S_LLAMA_P;
	l.input_tokens = 8192;
	if (CHECK_INT(gs_speed_bound(h100, &l, "bf16", &s), 0)) {
		CHECK_U64(s.decode_seq_milli, 195515);
		CHECK(s.has_prefill);
		CHECK_U64(s.prefill_milli, 61610698);
		CHECK(s.has_ttft);
		CHECK_U64(s.ttft_micro, 132963);
		CHECK_STR(gs_speed_fmt_seconds(b, s.ttft_micro, GS_LANG_EN), "0.132");
		CHECK(gs_speed_ttft_above(&s, 132));
		CHECK(!gs_speed_ttft_above(&s, 133));
	}
	l = S_load(S_LLAMA_W, UINT64_C(4294967296), 1, 1);
	if (CHECK_INT(gs_speed_bound(h100, &l, "bf16", &s), 0))
		CHECK_U64(s.decode_seq_milli, 164575);
	l = S_load(S_LLAMA_W, 131072u * 8192u, 4, 1);
	if (CHECK_INT(gs_speed_bound(h100, &l, "bf16", &s), 0)) {
		CHECK_U64(s.decode_seq_milli, 164575);
		CHECK_U64(s.decode_total_milli, 658300);
		/* in total: 658.3 holds 600, not 700 */
		CHECK(!gs_speed_below(&s, 1, 600000));
		CHECK(gs_speed_below(&s, 1, 700000));
	}
	/* no vendor page cited for the L4's fp32 peak: no prefill bound, decode still */
	l = S_load(S_LLAMA_W, 0, 1, 1);
	l.active_parameters = S_LLAMA_P;
	if (CHECK_INT(gs_speed_bound(l4, &l, "float32", &s), 0)) {
		CHECK(s.known);
		CHECK(!s.has_prefill);
	}
	/* H100 SXM's FP32 67 TFLOPS: 67e12 / 16,060,522,496 = 4,171.719... */
	if (CHECK_INT(gs_speed_bound(h100, &l, "float32", &s), 0) && CHECK(s.has_prefill))
		CHECK_U64(s.prefill_milli, 4171720);
	/* tf32 is not fp32: the table gives no tf32 figure */
	CHECK_U64(gs_speed_peak_gflops(gs_speed_gpu_of("MI300X"), "tf32"), 0);
	/* a card without an fp8 figure: none */
	CHECK_U64(gs_speed_peak_gflops(gs_speed_gpu_of("A100 80GB"), "fp8"), 0);
	CHECK_U64(gs_speed_peak_gflops(h100, "FP8"), 1979000);
}

static void test_moe_mla_window(void)
{
	const gs_speed_gpu *a100 = gs_speed_gpu_of("A100 80GB"), *h200 = gs_speed_gpu_of("H200");
	const gs_speed_gpu *l40s = gs_speed_gpu_of("L40S"), *h100 = gs_speed_gpu_of("H100 SXM");
	const gs_speed_gpu *l4 = gs_speed_gpu_of("L4");
	uint64_t wa;
	gs_speed_load l;
	gs_speed s;

	if (!CHECK(a100 && h200 && l40s && h100 && l4))
		return;
	/* Mixtral-8x7B */
	wa = gs_speed_active_bytes(UINT64_C(93405585408), UINT64_C(46702792704), UINT64_C(12879925248));
	CHECK_U64(wa, UINT64_C(25759850496));
	l = S_load(wa, 131072u * 4096u, 1, 1);
	l.active_parameters = UINT64_C(12879925248);
	if (CHECK_INT(gs_speed_bound(a100, &l, "bf16", &s), 0)) {
		CHECK_U64(s.decode_seq_milli, 77539);
		CHECK_U64(s.prefill_milli, 12111872);
	}
	l = S_load(wa, UINT64_C(4294967296), 1, 1);
	if (CHECK_INT(gs_speed_bound(a100, &l, "bf16", &s), 0))
		CHECK_U64(s.decode_seq_milli, 67843);
	/* a dense model: the weights themselves */
	CHECK_U64(gs_speed_active_bytes(100, 0, 0), 100);
	CHECK_U64(gs_speed_active_bytes(100, 10, 10), 100);

	/* DeepSeek-R1 over 8 H200, the latent replicated */
	l = S_load(UINT64_C(37552297472), 70272u * 4096u, 1, 8);
	l.kv_replicated = 1;
	if (CHECK_INT(gs_speed_bound(h200, &l, "fp8", &s), 0))
		CHECK_U64(s.decode_seq_milli, 963494);
	l = S_load(UINT64_C(37552297472), UINT64_C(2302672896), 1, 8);
	l.kv_replicated = 1;
	if (CHECK_INT(gs_speed_bound(h200, &l, "fp8", &s), 0))
		CHECK_U64(s.decode_seq_milli, 686037);

	/* Mistral-7B-v0.1: the window keeps 4,096 tokens */
	l = S_load(UINT64_C(14483464192), 131072u * 2048u, 1, 1);
	if (CHECK_INT(gs_speed_bound(l40s, &l, "bf16", &s), 0))
		CHECK_U64(s.decode_seq_milli, 58569);
	l = S_load(UINT64_C(14483464192), 131072u * 4096u, 1, 1);
	if (CHECK_INT(gs_speed_bound(l40s, &l, "bf16", &s), 0))
		CHECK_U64(s.decode_seq_milli, 57523);
	if (CHECK_INT(gs_speed_bound(h100, &l, "bf16", &s), 0))
		CHECK_U64(s.decode_seq_milli, 223031);
	if (CHECK_INT(gs_speed_bound(l4, &l, "bf16", &s), 0))
		CHECK_U64(s.decode_seq_milli, 19973);
}

/*
 * fp32 and fp4 compute formats.
 *  - Llama-3.1-8B in fp32 on one MI300X (AMD's ROCm documentation: FP32
 *    163.4 TFLOPS; 5.3 TB/s): weights 8,030,261,248 x 4 = 32,121,044,992 B;
 *    decode 5.3e12 / 32,121,044,992 = 165.0008... -> 165,001; prefill
 *    163.4e12 / (2 x 8,030,261,248) = 163.4e12 / 16,060,522,496 =
 *    10,174.0152... -> 10,174,016; the first token of 8,192 input tokens
 *    8,192 x 16,060,522,496 / 163.4e12 = 0.805188... s -> 805,188 us.
 *  - fp4: no vendor page cited for any card yet, so B200's row gives none
 *    (no prefill bound). The dispatch is worked on a test card whose fp4
 *    peak is set here, 1 PFLOP/s (a fixture, no card's figure): prefill
 *    1e15 / 16,060,522,496 = 62,264.474... -> 62,264,475; over two cards
 *    124,528,950; 8,192 input tokens 131,567,800,287,232 / 1e15 =
 *    0.131567... s -> 131,567 us.
 */
static void test_fp32_fp4(void)
{
	const gs_speed_gpu *mi = gs_speed_gpu_of("MI300X"), *b200 = gs_speed_gpu_of("B200");
	const gs_speed_gpu fx = { "fixture", 1000, 2000000, 4000000, 100000, 1000000,
				  "test card: figures set by the test", NULL };
	static const char *const fp4[] = { "fp4", "NVFP4", "mxfp4", "e2m1", NULL };
	gs_speed_load l;
	gs_speed s;
	size_t i;

	if (!CHECK(mi && b200))
		return;
	CHECK_U64(mi->fp32_gflops, 163400);
	CHECK_U64(gs_speed_peak_gflops(mi, "fp32"), 163400);
	CHECK_U64(gs_speed_peak_gflops(mi, "F32"), 163400);
	l = S_load(S_LLAMA_P * 4u, 0, 1, 1);
	l.active_parameters = S_LLAMA_P;
	l.input_tokens = 8192;
	if (CHECK_INT(gs_speed_bound(mi, &l, "float32", &s), 0) && CHECK(s.known)) {
		CHECK_U64(s.decode_seq_milli, 165001);
		CHECK(s.has_prefill);
		CHECK_U64(s.peak_gflops, 163400);
		CHECK_U64(s.prefill_milli, 10174016);
		CHECK(s.has_ttft);
		CHECK_U64(s.ttft_micro, 805188);
		CHECK(gs_speed_ttft_above(&s, 805));
		CHECK(!gs_speed_ttft_above(&s, 806));
	}
	/* fp4 on B200: not cited, so missing, never 0 tokens/s */
	CHECK_U64(gs_speed_peak_gflops(b200, "nvfp4"), 0);
	l = S_load(S_LLAMA_W / 4u, 0, 1, 1);
	l.active_parameters = S_LLAMA_P;
	l.input_tokens = 8192;
	if (CHECK_INT(gs_speed_bound(b200, &l, "nvfp4", &s), 0)) {
		CHECK(s.known);
		CHECK(!s.has_prefill);
		CHECK(!s.has_ttft);
	}
	for (i = 0; fp4[i]; i++)
		CHECK_U64(gs_speed_peak_gflops(&fx, fp4[i]), 1000000);
	CHECK_U64(gs_speed_peak_gflops(&fx, "fp32"), 100000);
	if (CHECK_INT(gs_speed_bound(&fx, &l, "nvfp4", &s), 0)) {
		CHECK_U64(s.prefill_milli, 62264475);
		CHECK_U64(s.ttft_micro, 131567);
	}
	l.cards = 2;
	if (CHECK_INT(gs_speed_bound(&fx, &l, "mxfp4", &s), 0)) {
		CHECK_U64(s.peak_gflops, 2000000);
		CHECK_U64(s.prefill_milli, 124528950);
	}
}

static void test_cost(void)
{
	gs_speed_load l;
	gs_speed s;
	int64_t c;

	l = S_load(S_LLAMA_W, 0, 1, 1);
	if (CHECK_INT(gs_speed_bound(gs_speed_gpu_of("L4"), &l, "bf16", &s), 0) &&
	    CHECK_INT(gs_speed_cost_per_mtok(&s, 800000, &c), 0))
		CHECK_INT(c, 11896683);
	l = S_load(S_LLAMA_W, 131072u * 8192u, 4, 1);
	if (CHECK_INT(gs_speed_bound(gs_speed_gpu_of("H100 SXM"), &l, "bf16", &s), 0)) {
		if (CHECK_INT(gs_speed_cost_per_mtok(&s, 2990000, &c), 0))
			CHECK_INT(c, 1261669);
		if (CHECK_INT(gs_speed_cost_per_mtok(&s, 1200000, &c), 0))
			CHECK_INT(c, 506355);
		/* a negative price is not a price */
		CHECK_INT(gs_speed_cost_per_mtok(&s, -1, &c), -1);
	}
	/* unknown: no figure, never 0 */
	memset(&s, 0, sizeof(s));
	CHECK_INT(gs_speed_cost_per_mtok(&s, 800000, &c), -1);
	CHECK(!gs_speed_below(&s, 0, 1));
}

/*
 * The Blackwell cards, Llama-3.1-8B in bf16 (16,060,522,496 B of weights,
 * 8,030,261,248 parameters), worked by hand:
 *  - RTX 5090 (1,792 GB/s; 16-bit 419.2, fp8 838.4, fp4 1,676 TFLOPS
 *    dense): decode 1.792e12 / 16,060,522,496 = 111.5777... -> 111,578;
 *    prefill bf16 419.2e12 / (2 x 8,030,261,248) = 26,101.267... ->
 *    26,101,268, fp4 1,676e12 / 16,060,522,496 = 104,355.259... ->
 *    104,355,260, fp32 104.8e12 / 16,060,522,496 = 6,525.316... -> 6,525,317;
 *    the first token of 8,192 inputs 8,192 x 16,060,522,496 /
 *    419.2e12 = 0.313854... s; a million tokens at 0.69 per hour:
 *    690,000 x 10^6 x 16,060,522,496 / (3,600 x 1.792e12) = 1,717,782.6
 *    -> 1,717,782 millionths.
 *  - RTX PRO 6000 Blackwell (1,792 GB/s; bf16 503.8 TFLOPS), two cards,
 *    four sequences of 8,192 tokens (KV 4 GiB in all): 2 x 1.792e12 /
 *    20,355,489,792 = 176.0705... -> 176,071 per sequence, x 4 = 704.282...
 *    -> 704,282 in total; prefill 2 x 503.8e12 / 16,060,522,496 =
 *    62,737.684... -> 62,737,685.
 */
static void test_blackwell(void)
{
	const gs_speed_gpu *r5 = gs_speed_gpu_of("RTX 5090");
	const gs_speed_gpu *pro = gs_speed_gpu_of("RTX PRO 6000 Blackwell");
	gs_speed_load l;
	gs_speed s;
	int64_t m;

	if (!CHECK(r5 && pro))
		return;
	l = S_load(S_LLAMA_W, 0, 1, 1);
	l.active_parameters = S_LLAMA_P;
	l.input_tokens = 8192;
	if (CHECK_INT(gs_speed_bound(r5, &l, "bf16", &s), 0)) {
		CHECK_U64(s.decode_seq_milli, 111578);
		CHECK_U64(s.prefill_milli, 26101268);
		CHECK_U64(s.ttft_micro, 313854);
		if (CHECK_INT(gs_speed_cost_per_mtok(&s, 690000, &m), 0))
			CHECK_U64((uint64_t)m, 1717782);
	}
	if (CHECK_INT(gs_speed_bound(r5, &l, "nvfp4", &s), 0))
		CHECK_U64(s.prefill_milli, 104355260);
	/* fp32 104.8 TFLOPS: 104.8e12 / 16,060,522,496 = 6,525.316... */
	if (CHECK_INT(gs_speed_bound(r5, &l, "fp32", &s), 0))
		CHECK_U64(s.prefill_milli, 6525317);
	l = S_load(S_LLAMA_W, 131072u * 8192u, 4, 2);
	l.active_parameters = S_LLAMA_P;
	if (CHECK_INT(gs_speed_bound(pro, &l, "bf16", &s), 0)) {
		CHECK_U64(s.decode_seq_milli, 176071);
		CHECK_U64(s.decode_total_milli, 704282);
		CHECK_U64(s.prefill_milli, 62737685);
	}
}

/*
 * An ambiguous name: "H100" with 80 GB per card is H100 SXM or H100 PCIe
 * (both 80 GB; the NVL's 94 GB disagrees); the SXM's row is the highest
 * in every figure (3,350 >= 2,000 GB/s, 989.5 >= 756.5 TFLOPS bf16, ...),
 * so its bound holds for either: 3.35e12 / 16,060,522,496 = 208.5858... ->
 * 208,586. With 94 GB the name is the NVL alone (resolved, not
 * ambiguous); without a figure, no variant (one the table cannot cite may
 * be meant). H100 NVL against H100 SXM: neither is the highest in every
 * figure (3,900 > 3,350 GB/s, 835.5 < 989.5 TFLOPS): no row.
 */
static void test_fastest_variant(void)
{
	const char *m[3];
	const char *nvl_sxm[2] = { "H100 NVL", "H100 SXM" };
	const char *with_a4500[2] = { "H100 SXM", "RTX A4500" };   /* no row */
	const gs_speed_gpu *g;
	gs_speed_load l;
	gs_speed s;

	if (CHECK_U64(gs_gpuname_allowed("H100", NULL, UINT64_C(85899345920), m), 2)) {
		CHECK_STR(m[0], "H100 SXM");
		CHECK_STR(m[1], "H100 PCIe");
		g = gs_speed_fastest(m, 2);
		if (CHECK(g != NULL)) {
			CHECK_STR(g->model, "H100 SXM");
			l = S_load(S_LLAMA_W, 0, 1, 1);
			if (CHECK_INT(gs_speed_bound(g, &l, "bf16", &s), 0))
				CHECK_U64(s.decode_seq_milli, 208586);
		}
	}
	CHECK_U64(gs_gpuname_allowed("H100", NULL, UINT64_C(80000000000), m), 2);
	CHECK_U64(gs_gpuname_allowed("H100", NULL, 0, m), 0);
	CHECK_U64(gs_gpuname_allowed("H100", NULL, UINT64_C(94000000000), m), 1);
	CHECK_U64(gs_gpuname_allowed("H100 SXM", NULL, UINT64_C(85899345920), m), 0);
	/* a device name naming one model decides alone; one the table does not
	 * know leaves the model name to decide */
	CHECK_U64(gs_gpuname_allowed("H100", "H100 PCIe", UINT64_C(85899345920), m), 0);
	CHECK_U64(gs_gpuname_allowed("H100", "NVIDIA H100 80GB", UINT64_C(85899345920), m), 2);
	CHECK(gs_speed_fastest(nvl_sxm, 2) == NULL);
	CHECK(gs_speed_fastest(with_a4500, 2) == NULL);
}

static void test_table(void)
{
	size_t n, i;
	const gs_speed_gpu *t = gs_speed_table(&n);

	CHECK(n >= 17);
	for (i = 0; i < n; i++) {
		/* every row is a card the alias table names (B300: no memory
		 * figure in the vendor table), with its source */
		gs_gpu_match how;
		const char *c = gs_gpuname_canonical(t[i].model, &how);
		CHECK(gs_gpuname_nominal_of(t[i].model) != NULL || (c && strcmp(c, t[i].model) == 0));
		/* a decode bound needs the bandwidth; a peak no page was cited
		 * for is 0, missing (A16, MI355X have no 16-bit figure) */
		CHECK(t[i].bandwidth_gbs > 0 && t[i].source && *t[i].source);
		if (i)
			CHECK(strcmp(t[i - 1].model, t[i].model) < 0);
	}
	CHECK(gs_speed_gpu_of("RTX 5090") != NULL);
	CHECK(gs_speed_gpu_of("A30") == NULL);   /* no page cited */
	CHECK(gs_speed_gpu_of("RTX A5000") != NULL);
	CHECK_STR(gs_gpuname_canonical("A5000_PCIE", NULL), "RTX A5000");
	CHECK_STR(gs_gpuname_canonical("Tesla K80", NULL), "K80");
	/* per unit the catalogs count: one GPU of the K80 board (480 GB/s for
	 * two), one Inferentia2 chip (820 GiB/s, rounded up in 10^9 bytes) */
	CHECK_U64(gs_speed_gpu_of("K80")->bandwidth_gbs, 240);
	CHECK_U64(gs_speed_gpu_of("Inferentia2")->bandwidth_gbs, 881);
	/* a name several editions share holds the family's highest figure
	 * (RTX4070 at 16 GB is a 4070 Ti SUPER) and no FP32 peak */
	CHECK_U64(gs_speed_gpu_of("RTX 4070")->bandwidth_gbs, 672);
	CHECK_U64(gs_speed_peak_gflops(gs_speed_gpu_of("RTX 4070"), "fp32"), 0);
	/* the P4's fp16 is slower than its fp32: no 16-bit figure */
	CHECK_U64(gs_speed_peak_gflops(gs_speed_gpu_of("P4"), "fp16"), 0);
	CHECK(gs_speed_gpu_of("Virtex UltraScale (VU9P)") == NULL);
	/* A10G: the bandwidth alone, so a decode bound and no prefill bound */
	CHECK_U64(gs_speed_peak_gflops(gs_speed_gpu_of("A10G"), "bf16"), 0);
	/* no card: unknown */
	{
		gs_speed_load l = S_load(1, 0, 1, 1);
		gs_speed s;
		CHECK_INT(gs_speed_bound(NULL, &l, "bf16", &s), 0);
		CHECK(!s.known);
	}
}

int main(void)
{
	test_dense();
	test_speculative();
	test_moe_mla_window();
	test_fp32_fp4();
	test_cost();
	test_blackwell();
	test_fastest_variant();
	test_table();
	return gs_check_exit("test_speed");
}
