/*
 * speedlog: the speed lines people paste, read exactly: llama.cpp's
 * llama-bench Markdown table rows and timing lines, vLLM's benchmark
 * summaries and its periodic stats lines.
 *
 *   llama-bench: a header row naming the columns ("| model | size |
 *   params | backend | ngl | ... | test | t/s |"), a separator row, then
 *   one row per test, "llama 7B F16 | 12.55 GiB | 6.74 B | CUDA | 99 |
 *   tg128 | 61.03 ± 0.07"; the columns are found by name (versions add
 *   some), "tg 128" and "tg128" alike.
 *   vLLM benchmark_throughput: "Throughput: 16.90 requests/s, 4326.03
 *   tokens/s" (later: "... total tokens/s, ... output tokens/s").
 *   vLLM benchmark_serving / vllm bench serve: "Request throughput
 *   (req/s): 32.42", "Output token throughput (tok/s): 6582.87",
 *   "Total Token throughput (tok/s): ...", "Input token throughput:
 *   730.75 tokens/s" and the older "Throughput: 5.99 requests/s".
 *   llama.cpp's timings (llama_print_timings, llama_perf_context_print,
 *   llama-server's print_timing, with any prefix before them): "prompt
 *   eval time = 8734.21 ms / 971 tokens ( 9.00 ms per token, 111.17
 *   tokens per second)" and "eval time = ... ms / N runs|tokens (...)"
 *   ("generation eval time" alike); the three figures of a line must
 *   agree to their printed rounding, else the line is refused (a paste
 *   edited by hand); a line that times no token (0 runs, "inf" or "nan")
 *   is passed over.
 *   vLLM's periodic stats (V0 metrics.py, V1 loggers.py): "Avg prompt
 *   throughput: 0.0 tokens/s, Avg generation throughput: 41.7 tokens/s,
 *   Running: 1 reqs" then ", Swapped: 0 reqs, Pending: 0 reqs" (V0) or
 *   ", Waiting: 0 reqs" (V1), the rest of the line not read: one record
 *   per line, an interval's averages.
 *
 * Other lines (prose, logs around the paste) are passed over; a line that
 * starts as one of these and then is not is an error naming its line.
 *
 * Invariants:
 *  - pure: reads bytes, opens nothing;
 *  - exact: a rate is read as an integer of thousandths per second (at
 *    most three decimals, else an error), never through a float;
 *  - a figure the line does not give is flagged missing, never 0.
 */
#ifndef GS_SPEEDLOG_H
#define GS_SPEEDLOG_H

#include <stddef.h>
#include <stdint.h>

typedef enum {
	GS_SPEEDLOG_LLAMA_BENCH = 1,
	GS_SPEEDLOG_VLLM_THROUGHPUT,   /* benchmark_throughput's "Throughput:" line */
	GS_SPEEDLOG_VLLM_SERVING,      /* benchmark_serving / vllm bench serve */
	GS_SPEEDLOG_LLAMA_TIMINGS,     /* llama.cpp's "eval time = ..." lines */
	GS_SPEEDLOG_VLLM_METRICS       /* vLLM's periodic "Avg ... throughput" lines */
} gs_speedlog_source;

typedef enum {
	GS_SPEEDLOG_DECODE = 1,        /* llama-bench tgN: tokens generated per second, one sequence */
	GS_SPEEDLOG_PREFILL,           /* llama-bench ppN: prompt tokens per second */
	GS_SPEEDLOG_OTHER_TEST,        /* llama-bench pp512+tg128, pp512@d4096, ...: as printed */
	GS_SPEEDLOG_REQUESTS,          /* requests per second */
	GS_SPEEDLOG_TOTAL_TOKENS,      /* input and output tokens per second */
	GS_SPEEDLOG_OUTPUT_TOKENS,     /* output tokens per second, every sequence together */
	GS_SPEEDLOG_INPUT_TOKENS,      /* input tokens per second */
	GS_SPEEDLOG_INTERVAL           /* vLLM's stats line: milli the generation throughput */
} gs_speedlog_metric;

#define GS_SPEEDLOG_TEXT 96

typedef struct {
	gs_speedlog_source source;
	gs_speedlog_metric metric;
	size_t line;                   /* 1-based line of the figure */
	uint64_t milli;                /* per second, x 1000, exact */
	int has_sd;
	uint64_t sd_milli;             /* llama-bench's "± 0.07", x 1000 */
	/* llama-bench only ("" / 0 / -1 when the table has no such column) */
	char model[GS_SPEEDLOG_TEXT];  /* "llama 7B F16" */
	char backend[GS_SPEEDLOG_TEXT];
	char test[GS_SPEEDLOG_TEXT];   /* "tg128", as printed */
	uint64_t test_tokens;          /* 128 of tg128; 0 for OTHER_TEST */
	int has_size;
	uint64_t size_bytes_min;       /* the least byte count that prints as the size
					* column ("12.55 GiB": 12.545 GiB, rounded up) */
	int ngl;                       /* layers offloaded; -1: no column */
	/* llama.cpp's timings: test_tokens the tokens (or runs) timed.
	 * vLLM's stats line: the interval's prompt throughput (x 1000), the
	 * requests running at its end, and those waiting (V1 "Waiting", V0
	 * "Pending"; swapped ones count as waiting) */
	uint64_t prompt_milli;
	uint64_t running, waiting;
	uint64_t engine;               /* V1's "Engine 001:" (data parallel); 0 without */
} gs_speedlog_rec;

typedef struct {
	gs_speedlog_rec *recs;
	size_t n;
} gs_speedlog;

/*
 * Reads every speed line of data. Returns 0 with *out filled (at least
 * one record), or -1 with "line N: what was expected" in err (nothing in
 * *out to free). Records come in the order of their lines.
 */
int gs_speedlog_parse(const char *data, size_t len, gs_speedlog *out, char *err, size_t errlen);
void gs_speedlog_free(gs_speedlog *l);

/* "decode", "prefill", "requests", ...: a metric's name (static). */
const char *gs_speedlog_metric_name(gs_speedlog_metric m);

#endif
