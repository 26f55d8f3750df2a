/*
 * Unit tests of the speed-line reader (gen/read/speedlog.h), and the
 * published runs of tests/data/speedlog/ (sources in its README) kept
 * below gpusheet's calculated decode bound (gen/decide/speed.h).
 *
 * The bound for one sequence: bandwidth / bytes read per step, in
 * thousandths of a token per second rounded up. The weights are the least
 * byte count that llama-bench's size column prints as its figure (two
 * decimals of GiB or MiB: the figure less half a hundredth), so the bound
 * is never lowered by the rounding of the size; the KV cache is left out
 * (llama-bench's tg128 starts from an empty context, and leaving the cache
 * out only raises the bound). Worked by hand:
 *
 *  - "llama 7B F16 | 12.55 GiB", RTX 4090 (1,008 GB/s): weights
 *    12.545 x 2^30 = 13,470,091,182.08 -> 13,470,091,183 B (codellama-7b
 *    has 6,738,546,688 parameters x 2 B = 13,477,093,376 B: the column
 *    agrees); bound 1.008e12 / 13,470,091,183 = 74.8324... -> 74,833.
 *    Published tg 128: 61.03 t/s; 61.030 / 74.833 = 0.8155.
 *  - "llama 7B Q8_0 | 6.67 GiB", RTX 4090: 6.665 x 2^30 = 7,156,489,256.96
 *    -> 7,156,489,257 B (8.5 bits per weight: 6.74e9 x 8.5 / 8 = 7.16e9);
 *    bound 140.8515... -> 140,852. Published 98.13: ratio 0.6967.
 *  - "llama 1B Q4_K - Medium | 636.18 MiB", RTX 4090 (Vulkan): 636.175 x
 *    2^20 = 667,077,836.8 -> 667,077,837 B; bound 1,511.0686... ->
 *    1,511,069. Published tg128 762.37: ratio 0.5045.
 *  - vLLM benchmark_throughput, Meta-Llama-3-8B-Instruct in bf16
 *    (8,030,261,248 parameters x 2 B = 16,060,522,496 B) on an RTX A6000
 *    (768 GB/s), 128 input and 128 output tokens a request: "4326.03
 *    tokens/s" counts both, so output tokens are half: 2,163.015 tokens/s.
 *    Bound in total at 256 sequences (vLLM's default max_num_seqs at the
 *    time: assumed; the cache left out): 768e9 x 256 / 16,060,522,496 =
 *    12,241.693... -> 12,241,694. Ratio 0.1767.
 *  - vLLM benchmark_serving, Qwen3-14B-AWQ on "1x A100 80GB" at one
 *    request at a time, 16,000 input tokens: bytes a step at least
 *    (lower bytes, higher bound): the 40 layers' linear weights at 4 bits
 *    (scales left out): 40 x (2 x 5,120^2 + 2 x 5,120 x 1,024 + 3 x 5,120
 *    x 17,408) = 13,212,057,600 parameters -> 6,606,028,800 B; the output
 *    head in 16 bits, 151,936 x 5,120 x 2 = 1,555,824,640 B (the embedding
 *    is read a row at a time: left out); the KV cache of 16,000 tokens
 *    (the least a step reads), 2 x 40 x 8 x 128 x 2 x 16,000 =
 *    2,621,440,000 B; in all 10,783,293,440 B. A100 80GB at its higher
 *    figure (SXM, 2,039 GB/s): 2.039e12 / 10,783,293,440 = 189.088... ->
 *    189,089. Published output token throughput 26.84 (its duration also
 *    counts the prefills): ratio 0.1419.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "speed.h"
#include "speedlog.h"

#ifndef GS_TEST_SOURCE_DIR
#define GS_TEST_SOURCE_DIR "."
#endif

/* The file's bytes, or NULL. */
static char *S_read(const char *name, size_t *len)
{
	char path[4096];
	FILE *f;
	char *buf;
	long n;

	snprintf(path, sizeof(path), "%s/tests/data/speedlog/%s", GS_TEST_SOURCE_DIR, name);
	f = fopen(path, "rb");
	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
		fclose(f);
		return NULL;
	}
	buf = malloc((size_t)n + 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	if (buf)
		buf[n] = 0;
	*len = (size_t)n;
	return buf;
}

static int S_parse(const char *name, gs_speedlog *l)
{
	char err[256] = "";
	size_t len = 0;
	char *d = S_read(name, &len);
	int rc;

	if (!CHECK(d != NULL))
		return 0;
	rc = gs_speedlog_parse(d, len, l, err, sizeof(err));
	free(d);
	if (!CHECK_STR(err, ""))
		return 0;
	return CHECK_INT(rc, 0);
}

/* llama.cpp's timing lines: every prefix, the figures and the tokens timed. */
static void test_llama_timings(void)
{
	static const struct {
		const char *file;
		size_t n;
		gs_speedlog_metric m[3];
		uint64_t milli[3], tokens[3];
		size_t line[3];
	} cases[] = {
		/* llama_print_timings: the sample time line is no eval */
		{ "llama-timings-cpu.txt", 2, { GS_SPEEDLOG_PREFILL, GS_SPEEDLOG_DECODE },
		  { 43050, 4430 }, { 271, 510 }, { 3, 4 } },
		{ "llama-timings-server-rtx3060.txt", 2, { GS_SPEEDLOG_PREFILL, GS_SPEEDLOG_DECODE },
		  { 111170, 17660 }, { 971, 19 }, { 1, 2 } },
		/* the old server's "generation eval time ... | tid=" */
		{ "llama-timings-old-server.txt", 3,
		  { GS_SPEEDLOG_DECODE, GS_SPEEDLOG_PREFILL, GS_SPEEDLOG_DECODE },
		  { 95690, 1675530, 95690 }, { 512, 271, 512 }, { 1, 4, 5 } },
		/* "prompt processing, ... tokens per second" progress lines are passed over */
		{ "llama-timings-slots-2x3090.txt", 2, { GS_SPEEDLOG_PREFILL, GS_SPEEDLOG_DECODE },
		  { 1143450, 14630 }, { 100961, 2 }, { 3, 4 } },
	};
	size_t i, k;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		gs_speedlog l;
		if (!S_parse(cases[i].file, &l))
			continue;
		if (CHECK_U64(l.n, cases[i].n))
			for (k = 0; k < l.n; k++) {
				CHECK_INT(l.recs[k].source, GS_SPEEDLOG_LLAMA_TIMINGS);
				CHECK_INT(l.recs[k].metric, cases[i].m[k]);
				CHECK_U64(l.recs[k].milli, cases[i].milli[k]);
				CHECK_U64(l.recs[k].test_tokens, cases[i].tokens[k]);
				CHECK_U64(l.recs[k].line, cases[i].line[k]);
			}
		gs_speedlog_free(&l);
	}
}

/* vLLM's stats lines, V0 and V1: throughputs and request counts per line. */
static void test_vllm_stats(void)
{
	gs_speedlog l;

	if (S_parse("vllm-stats-v0-one-request.txt", &l)) {
		CHECK_U64(l.n, 6);
		CHECK_INT(l.recs[0].source, GS_SPEEDLOG_VLLM_METRICS);
		CHECK_INT(l.recs[0].metric, GS_SPEEDLOG_INTERVAL);
		CHECK_U64(l.recs[2].milli, 41500);
		CHECK_U64(l.recs[2].prompt_milli, 0);
		CHECK_U64(l.recs[2].running, 1);
		CHECK_U64(l.recs[2].waiting, 0);
		CHECK_U64(l.recs[2].engine, 0);
		gs_speedlog_free(&l);
	}
	if (S_parse("vllm-stats-v1-a100.txt", &l)) {
		CHECK_U64(l.n, 3);
		CHECK_U64(l.recs[0].prompt_milli, 7109800);
		CHECK_U64(l.recs[1].milli, 296400);
		CHECK_U64(l.recs[1].running, 12);
		CHECK_U64(l.recs[2].running, 11);
		CHECK_U64(l.recs[2].line, 6);
		gs_speedlog_free(&l);
	}
	/* the SpecDecoding lines are no stats line */
	if (S_parse("vllm-stats-v1-mtp-2x3090.txt", &l)) {
		CHECK_U64(l.n, 2);
		CHECK_U64(l.recs[1].line, 4);
		CHECK_U64(l.recs[1].milli, 72000);
		gs_speedlog_free(&l);
	}
}

/* published < bound, both thousandths; prints the ratio. */
static void S_below(const char *what, uint64_t published, uint64_t bound, uint64_t ratio_milli)
{
	printf("%s: published %llu.%03llu, bound %llu.%03llu tokens/s, ratio 0.%03llu\n", what,
	       (unsigned long long)(published / 1000), (unsigned long long)(published % 1000),
	       (unsigned long long)(bound / 1000), (unsigned long long)(bound % 1000),
	       (unsigned long long)(published * 1000 / bound));
	CHECK(published < bound);
	CHECK_U64(published * 1000 / bound, ratio_milli);
}

/* One sequence on one card, the weights alone: the decode bound. */
static uint64_t S_bound(const char *gpu, uint64_t weights, uint64_t seqs, int total)
{
	const gs_speed_gpu *g = gs_speed_gpu_of(gpu);
	gs_speed_load l;
	gs_speed s;

	if (!CHECK(g != NULL))
		return 0;
	memset(&l, 0, sizeof(l));
	l.weights_read = weights;
	l.sequences = seqs;
	l.cards = 1;
	if (!CHECK_INT(gs_speed_bound(g, &l, "fp16", &s), 0) || !CHECK(s.known))
		return 0;
	return total ? s.decode_total_milli : s.decode_seq_milli;
}

static void test_llama_bench_cuda(void)
{
	gs_speedlog l;
	uint64_t b;

	if (!S_parse("llama-bench-rtx4090-cuda.md", &l))
		return;
	if (CHECK_U64(l.n, 5)) {
		CHECK_INT(l.recs[0].metric, GS_SPEEDLOG_PREFILL);
		CHECK_U64(l.recs[0].milli, 11048220);
		CHECK_U64(l.recs[0].sd_milli, 269740);
		CHECK_U64(l.recs[0].test_tokens, 512);
		CHECK_U64(l.recs[0].line, 4);
		CHECK_STR(l.recs[1].model, "llama 7B F16");
		CHECK_STR(l.recs[1].backend, "CUDA");
		CHECK_STR(l.recs[1].test, "tg 128");
		CHECK_INT(l.recs[1].ngl, 99);
		CHECK_INT(l.recs[1].metric, GS_SPEEDLOG_DECODE);
		CHECK_U64(l.recs[1].test_tokens, 128);
		CHECK_U64(l.recs[1].milli, 61030);
		CHECK(l.recs[1].has_sd);
		CHECK_U64(l.recs[1].sd_milli, 70);
		CHECK(l.recs[1].has_size);
		CHECK_U64(l.recs[1].size_bytes_min, UINT64_C(13470091183));
		b = S_bound("RTX 4090", l.recs[1].size_bytes_min, 1, 0);
		CHECK_U64(b, 74833);
		S_below("RTX 4090, llama 7B F16, tg 128", l.recs[1].milli, b, 815);
		CHECK_U64(l.recs[3].size_bytes_min, UINT64_C(7156489257));
		CHECK_U64(l.recs[3].milli, 98130);
		b = S_bound("RTX 4090", l.recs[3].size_bytes_min, 1, 0);
		CHECK_U64(b, 140852);
		S_below("RTX 4090, llama 7B Q8_0, tg 128", l.recs[3].milli, b, 696);
	}
	gs_speedlog_free(&l);
}

/*
 * slaren's table (llama.cpp pull request 4812), RTX 3090 Ti (1,008 GB/s),
 * "llama 7B Q4_0 | 3.56 GiB": 3.555 x 2^30 = 3,817,152,184.32 ->
 * 3,817,152,185 B; bound 1.008e12 / 3,817,152,185 = 264.0714... ->
 * 264,072. tg 128 with the cache on the card (nkvo 0): 127.43, ratio
 * 0.4825; with the cache in host memory (nkvo 1): 59.99, ratio 0.2271.
 */
static void test_llama_bench_nkvo(void)
{
	gs_speedlog l;
	uint64_t b;

	if (!S_parse("llama-bench-rtx3090ti-nkvo.md", &l))
		return;
	if (CHECK_U64(l.n, 4)) {
		CHECK_INT(l.recs[1].metric, GS_SPEEDLOG_DECODE);
		CHECK_U64(l.recs[1].size_bytes_min, UINT64_C(3817152185));
		b = S_bound("RTX 3090 Ti", l.recs[1].size_bytes_min, 1, 0);
		CHECK_U64(b, 264072);
		S_below("RTX 3090 Ti, llama 7B Q4_0, tg 128, cache on the card", l.recs[1].milli, b, 482);
		S_below("RTX 3090 Ti, llama 7B Q4_0, tg 128, cache in host memory", l.recs[3].milli, b, 227);
	}
	gs_speedlog_free(&l);
}

static void test_llama_bench_vulkan(void)
{
	gs_speedlog l;
	uint64_t b;

	if (!S_parse("llama-bench-rtx4090-vulkan.md", &l))
		return;
	if (CHECK_U64(l.n, 4)) {
		CHECK_INT(l.recs[3].metric, GS_SPEEDLOG_OTHER_TEST);
		CHECK_STR(l.recs[3].test, "pp4096+tg128");
		CHECK_U64(l.recs[3].test_tokens, 0);
		CHECK_INT(l.recs[2].metric, GS_SPEEDLOG_DECODE);
		CHECK_STR(l.recs[2].model, "llama 1B Q4_K - Medium");
		CHECK_STR(l.recs[2].backend, "Vulkan");
		CHECK_U64(l.recs[2].size_bytes_min, UINT64_C(667077837));
		CHECK_U64(l.recs[2].milli, 762370);
		CHECK_U64(l.recs[2].line, 7);
		b = S_bound("RTX 4090", l.recs[2].size_bytes_min, 1, 0);
		CHECK_U64(b, 1511069);
		S_below("RTX 4090 (Vulkan), llama 1B Q4_K - Medium, tg128", l.recs[2].milli, b, 504);
	}
	gs_speedlog_free(&l);
}

static void test_vllm(void)
{
	gs_speedlog l;
	uint64_t b;

	if (S_parse("vllm-throughput-rtx-a6000.txt", &l)) {
		if (CHECK_U64(l.n, 2)) {
			CHECK_INT(l.recs[0].source, GS_SPEEDLOG_VLLM_THROUGHPUT);
			CHECK_INT(l.recs[0].metric, GS_SPEEDLOG_REQUESTS);
			CHECK_U64(l.recs[0].milli, 16900);
			CHECK_INT(l.recs[1].metric, GS_SPEEDLOG_TOTAL_TOKENS);
			CHECK_U64(l.recs[1].milli, 4326030);
			CHECK_U64(l.recs[1].line, 3);
			/* 128 input + 128 output tokens a request: half are output */
			b = S_bound("RTX A6000", UINT64_C(16060522496), 256, 1);
			CHECK_U64(b, 12241694);
			S_below("RTX A6000, Llama-3-8B bf16, vLLM output at <= 256 sequences",
				l.recs[1].milli / 2, b, 176);
		}
		gs_speedlog_free(&l);
	}
	if (S_parse("vllm-serving-a100-qwen3-14b-awq.txt", &l)) {
		if (CHECK_U64(l.n, 3) && CHECK_INT(l.recs[1].metric, GS_SPEEDLOG_OUTPUT_TOKENS)) {
			CHECK_U64(l.recs[1].milli, 26840);
			b = S_bound("A100 80GB", UINT64_C(6606028800) + UINT64_C(1555824640) + UINT64_C(2621440000), 1, 0);
			CHECK_U64(b, 189089);
			S_below("A100 80GB, Qwen3-14B-AWQ, vLLM output at one request", l.recs[1].milli, b, 141);
		}
		gs_speedlog_free(&l);
	}
	if (S_parse("vllm-bench-serve.txt", &l)) {
		if (CHECK_U64(l.n, 3)) {
			CHECK_INT(l.recs[0].source, GS_SPEEDLOG_VLLM_SERVING);
			CHECK_INT(l.recs[0].metric, GS_SPEEDLOG_REQUESTS);
			CHECK_U64(l.recs[0].milli, 32420);
			CHECK_INT(l.recs[1].metric, GS_SPEEDLOG_OUTPUT_TOKENS);
			CHECK_U64(l.recs[1].milli, 6582870);
			CHECK_U64(l.recs[1].line, 7);
			CHECK_INT(l.recs[2].metric, GS_SPEEDLOG_TOTAL_TOKENS);
			CHECK_U64(l.recs[2].milli, 14029440);
		}
		gs_speedlog_free(&l);
	}
	if (S_parse("vllm-serving-old-a100.txt", &l)) {
		if (CHECK_U64(l.n, 1)) {
			CHECK_INT(l.recs[0].source, GS_SPEEDLOG_VLLM_SERVING);
			CHECK_INT(l.recs[0].metric, GS_SPEEDLOG_REQUESTS);
			CHECK_U64(l.recs[0].milli, 5990);
		}
		gs_speedlog_free(&l);
	}
	if (S_parse("serving-older-form-jetstream.txt", &l)) {
		if (CHECK_U64(l.n, 3)) {
			CHECK_INT(l.recs[1].metric, GS_SPEEDLOG_INPUT_TOKENS);
			CHECK_U64(l.recs[1].milli, 430240);
			CHECK_INT(l.recs[2].metric, GS_SPEEDLOG_OUTPUT_TOKENS);
			CHECK_U64(l.recs[2].milli, 1038350);
		}
		gs_speedlog_free(&l);
	}
}

static void S_bad(const char *text, const char *want)
{
	gs_speedlog l;
	char err[256] = "";

	CHECK_INT(gs_speedlog_parse(text, strlen(text), &l, err, sizeof(err)), -1);
	CHECK_STR(err, want);
	CHECK(l.recs == NULL && l.n == 0);
}

static void test_bad(void)
{
	const char *hdr = "| model | size | test | t/s |\n| --- | ---: | --- | ---: |\n";
	char t[512];

	S_bad("nothing here\n", "line 1: no llama-bench row, llama.cpp timing line, vLLM benchmark summary or vLLM stats line in the text");
	snprintf(t, sizeof(t), "%s| llama 7B F16 | 12.55 GiB | tg128 | 61.0345 \xc2\xb1 0.07 |\n", hdr);
	S_bad(t, "line 3: the t/s column has 4 decimals: at most three are read exactly");
	snprintf(t, sizeof(t), "%s| llama 7B F16 | 12.55 GiB | tg128 | fast |\n", hdr);
	S_bad(t, "line 3: expected the t/s column as a number (digits, a point, at most three decimals)");
	snprintf(t, sizeof(t), "%s| llama 7B F16 | 12.55 GB | tg128 | 61.03 |\n", hdr);
	S_bad(t, "line 3: expected the size column's unit as GiB, MiB or KiB");
	snprintf(t, sizeof(t), "%s| llama 7B F16 | tg128 | 61.03 |\n", hdr);
	S_bad(t, "line 3: a llama-bench row of 3 cells under a header of 4");
	S_bad("| model | test | t/s |\nno separator\n",
	      "line 2: expected the separator row (| --- | ... |) under the llama-bench header");
	S_bad("x\nThroughput: 16.90 requests/s, 4326.03 tokens\n",
	      "line 2: expected \"tokens/s\", \"total tokens/s\" or \"output tokens/s\"");
	S_bad("Output token throughput (tok/s): 12.5.1\n",
	      "line 1: unexpected text after the Output token throughput figure: \".1\"");
	S_bad("Throughput: 99999999999999999999 requests/s\n",
	      "line 1: expected requests per second as a number (digits, a point, at most three decimals)");
	/* llama.cpp: an edited line (llama-cpp-python issue 1123's paste), a wrong unit */
	S_bad("llama_print_timings:        eval time =      81.91 ms /     2 runs   (   40.95 ms per token,    1.02 tokens per second)\n",
	      "line 1: the line's figures disagree (2 tokens in the time given are not the time "
	      "per token or the rate printed): a line edited by hand is not read");
	S_bad("eval time = 10.00 s / 5 tokens (2.00 ms per token, 500.00 tokens per second)\n",
	      "line 1: expected \"ms\" after the eval time");
	/* vLLM: a stats line wrapped by the paste, one without its queue */
	S_bad("INFO metrics.py:536] Avg prompt throughput: 0.0 tokens/s, Avg generation throughput: 616.1 tokens/s, Running: 32 r\neqs, Swapped: 0 reqs\n",
	      "line 1: expected \"reqs\" after the Running: count");
	S_bad("Avg prompt throughput: 0.0 tokens/s, Avg generation throughput: 6.1 tokens/s, Running: 3 reqs\n",
	      "line 1: expected \"Waiting: N reqs\" or \"Pending: N reqs\" after the running requests");
}

int main(void)
{
	test_llama_bench_cuda();
	test_llama_bench_vulkan();
	test_llama_bench_nkvo();
	test_vllm();
	test_llama_timings();
	test_vllm_stats();
	test_bad();
	return gs_check_exit("test_speedlog");
}
