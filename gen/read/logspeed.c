/*
 * logspeed: the speed a benchmark or a server printed (llama-bench's
 * table, llama.cpp's timing lines, vLLM's benchmark summaries and its
 * periodic stats lines), read by speedlog.c and kept as observed figures
 * of tokens (or requests) per second, each with its line (logimport.h).
 *
 * A run is one benchmark: for llama-bench, the rows of one model, backend
 * and offload; for llama.cpp's timings, one request's prompt and
 * generation; for vLLM, one summary; for vLLM's stats, the steady decode
 * intervals at one count of running requests. A paste of several is
 * refused until --start N picks one. The GPU is the one the paste's
 * "Device N: NAME" line names (llama.cpp prints it at start-up), else
 * --gpu's.
 */
#define _GNU_SOURCE
#include "logimport_int.h"
#include "speedlog.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The cleaned text of line k (1-based) of data, into buf. */
static void S_line_text(const char *data, size_t len, size_t k, char *buf, size_t cap)
{
	size_t pos = 0, n, line = 1;
	const char *nl;

	buf[0] = '\0';
	while (pos < len && line < k) {
		nl = memchr(data + pos, '\n', len - pos);
		if (!nl)
			return;
		pos = (size_t)(nl - data) + 1;
		line++;
	}
	nl = memchr(data + pos, '\n', len - pos);
	n = nl ? (size_t)(nl - (data + pos)) : len - pos;
	while (n && (data[pos + n - 1] == '\r' || data[pos + n - 1] == ' ' || data[pos + n - 1] == '\t'))
		n--;
	if (n >= cap)
		n = cap - 1;
	memcpy(buf, data + pos, n);
	buf[n] = '\0';
}

/* The number as printed in t whose value is milli thousandths (the rightmost such). */
static const char *S_printed(const char *t, uint64_t milli, size_t *n)
{
	const char *p = t, *best = NULL;

	while (*p) {
		const char *s = p;
		uint64_t v = 0;
		unsigned d = 0;
		int dot = 0;
		if (*p < '0' || *p > '9' || (p > t && ((p[-1] >= '0' && p[-1] <= '9') || p[-1] == '.'))) {
			p++;
			continue;
		}
		while ((*p >= '0' && *p <= '9') || (*p == '.' && !dot && p[1] >= '0' && p[1] <= '9')) {
			if (*p == '.') {
				dot = 1;
			} else if (v < UINT64_MAX / 100) {
				v = v * 10 + (uint64_t)(*p - '0');
				d += dot;
			}
			p++;
		}
		for (; d < 3 && v < UINT64_MAX / 100; d++)
			v *= 10;
		if (d == 3 && v == milli) {
			best = s;
			*n = (size_t)(p - s);
		}
	}
	return best;
}

/* The figure's name and what it is, by metric; NULL for one not kept. */
static const char *S_name(const gs_speedlog_rec *r, const char **note, gs_log_unit *unit)
{
	*unit = GS_LU_TOKENS_PER_SECOND;
	switch (r->metric) {
	case GS_SPEEDLOG_DECODE:
		*note = r->source == GS_SPEEDLOG_LLAMA_TIMINGS
				? "llama.cpp's eval time: one sequence generating its tokens, the "
				  "request's own rate"
				: "llama-bench's tgN: one sequence generating N tokens, the mean over its repetitions";
		return "decode_tokens_per_second";
	case GS_SPEEDLOG_PREFILL:
		*note = r->source == GS_SPEEDLOG_LLAMA_TIMINGS
				? "llama.cpp's prompt eval time: the request's prompt, its own rate"
				: "llama-bench's ppN: a prompt of N tokens, the mean over its repetitions";
		return "prefill_tokens_per_second";
	case GS_SPEEDLOG_OUTPUT_TOKENS:
		*note = "output tokens per second, every request together";
		return "output_tokens_per_second";
	case GS_SPEEDLOG_TOTAL_TOKENS:
		*note = r->source == GS_SPEEDLOG_VLLM_THROUGHPUT
				? "input and output tokens per second, every request together "
				  "(benchmark_throughput's tokens/s)"
				: "input and output tokens per second, every request together";
		return "total_tokens_per_second";
	case GS_SPEEDLOG_INPUT_TOKENS:
		*note = "input tokens per second, every request together";
		return "input_tokens_per_second";
	case GS_SPEEDLOG_REQUESTS:
		*note = "requests completed per second";
		*unit = GS_LU_REQUESTS_PER_SECOND;
		return "requests_per_second";
	default:
		return NULL;
	}
}

/* "Device 0: NVIDIA GeForce RTX 4090, compute capability 8.9": the GPU of device N. */
static void S_devices(gs_logctx *c, const char *data, size_t len)
{
	size_t pos = 0, line = 0;

	while (pos < len) {
		const char *nl = memchr(data + pos, '\n', len - pos), *p, *e;
		size_t n = nl ? (size_t)(nl - (data + pos)) : len - pos;
		char *s = gs_xasprintf("%.*s", (int)n, data + pos);
		line++;
		pos += n + 1;
		if ((p = strstr(s, "Device ")) && p[7] >= '0' && p[7] <= '9' &&
		    (e = strstr(p, ", compute capability")) && strchr(p, ':') && strchr(p, ':') < e) {
			int64_t dev = strtoll(p + 7, NULL, 10);
			const char *name = strchr(p, ':') + 1;
			gs_logdevice *dv;
			while (*name == ' ')
				name++;
			dv = gs_logline_device(c, dev);
			if (dv && !dv->name && e > name) {
				dv->name = gs_xasprintf("%.*s", (int)(e - name), name);
				dv->name_line = line;
			}
		}
		free(s);
	}
}

/* The settings a run states: llama-bench's columns, the test's token count. */
static void S_settings(gs_logctx *c, const gs_speedlog_rec *r)
{
	char num[32];

	if (r->source == GS_SPEEDLOG_LLAMA_TIMINGS) {
		snprintf(num, sizeof(num), "%llu", (unsigned long long)r->test_tokens);
		gs_logline_add_setting(c, r->metric == GS_SPEEDLOG_DECODE ? "output_tokens" : "prompt_tokens",
				       num, strlen(num));
		return;
	}
	if (r->source != GS_SPEEDLOG_LLAMA_BENCH)
		return;
	if (r->model[0])
		gs_logline_add_setting(c, "model", r->model, strlen(r->model));
	if (r->backend[0] && strcmp(r->backend, "CUDA") != 0 && strcmp(r->backend, "ROCm") != 0) {
		gs_logline_err(c, NULL, "the backend is %s: a measurement records runs on CUDA or "
			       "ROCm (HIP) only", r->backend);
		return;
	}
	if (r->backend[0])
		gs_logline_add_setting(c, "backend", r->backend, strlen(r->backend));
	if (r->ngl >= 0) {
		snprintf(num, sizeof(num), "%d", r->ngl);
		gs_logline_add_setting(c, "n_gpu_layers", num, strlen(num));
	}
	if (r->test_tokens && (r->metric == GS_SPEEDLOG_DECODE || r->metric == GS_SPEEDLOG_PREFILL)) {
		snprintf(num, sizeof(num), "%llu", (unsigned long long)r->test_tokens);
		gs_logline_add_setting(c, r->metric == GS_SPEEDLOG_DECODE ? "output_tokens" : "prompt_tokens",
				       num, strlen(num));
	}
}

/* What a vLLM benchmark's paste says of the run, between lines a and b:
 * its command line's lengths and concurrency, its summary's counts. */
static void S_vllm_settings(gs_logctx *c, const char *data, size_t len, size_t a, size_t b,
			    char *buf)
{
	static const struct {
		const char *lit, *name;
	} keys[] = {
		{ "--input-len ", "input_len" },
		{ "--output-len ", "output_len" },
		{ "--random-input-len ", "input_len" },
		{ "--random-output-len ", "output_len" },
		{ "--max-concurrency ", "max_concurrency" },
		{ "--num-prompts ", "num_prompts" },
		{ "Maximum request concurrency:", "max_concurrency" },
		{ "Successful requests:", "successful_requests" },
		{ "Total input tokens:", "total_input_tokens" },
		{ "Total generated tokens:", "total_generated_tokens" },
		{ NULL, NULL }
	};
	const char *save = c->text;
	size_t k, i, line = c->line;

	for (k = a; k < b; k++) {
		S_line_text(data, len, k, buf, GS_LOG_MAX_LINE + 1);
		for (i = 0; keys[i].lit; i++) {
			const char *p = strstr(buf, keys[i].lit), *e;
			if (!p)
				continue;
			p += strlen(keys[i].lit);
			while (*p == ' ')
				p++;
			for (e = p; *e >= '0' && *e <= '9'; e++)
				;
			if (e == p || (*e && *e != ' '))
				continue;
			c->text = buf;
			c->line = c->last_line = k;
			if (!gs_logimport_setting(c->li, keys[i].name) ||
			    gs_logimport_setting(c->li, keys[i].name)->run != c->run)
				gs_logline_add_setting(c, keys[i].name, p, (size_t)(e - p));
		}
	}
	c->text = save;
	c->line = c->last_line = line;
}

/* A new run: another model, backend or offload (llama-bench), or a figure again. */
static int S_new_run(gs_logctx *c, const gs_speedlog_rec *r, const gs_speedlog_rec *prev,
		     const char *name)
{
	size_t i;

	if (!prev)
		return 1;
	/* llama.cpp's timings: each request opens with its prompt's line */
	if (r->source == GS_SPEEDLOG_LLAMA_TIMINGS && r->metric == GS_SPEEDLOG_PREFILL)
		return 1;
	if (r->source == GS_SPEEDLOG_LLAMA_BENCH &&
	    (strcmp(r->model, prev->model) != 0 || strcmp(r->backend, prev->backend) != 0 ||
	     r->ngl != prev->ngl || r->source != prev->source))
		return 1;
	for (i = 0; i < c->li->nfigs; i++)
		if (c->li->figs[i].run == c->run && strcmp(c->li->figs[i].name, name) == 0)
			return 1;
	return 0;
}

/* A last line without its newline that begins a speed line and gave no
 * figure (the paste was cut there): an error naming it. */
static int S_cut_last(gs_logctx *c, const char *data, size_t len, const gs_speedlog *sl)
{
	const char *s;
	size_t i, start;

	if (!len || data[len - 1] == '\n')
		return 0;
	for (start = len; start > 0 && data[start - 1] != '\n'; start--)
		;
	for (i = 0; i < sl->n; i++)
		if (sl->recs[i].line == c->li->nlines)
			return 0;
	s = data + start;
	while (s < data + len && (*s == ' ' || *s == '\t'))
		s++;
	if (s < data + len && (*s == '|' || memmem(s, (size_t)(data + len - s), "hroughput", 9) ||
			       memmem(s, (size_t)(data + len - s), "eval time", 9))) {
		gs_diag_add(c->d, c->file, (int)c->li->nlines, 0, NULL, "a line cut short at the end "
			    "of the log: \"%.*s\"", (int)(data + len - s), s);
		return 1;
	}
	return 0;
}

/* The paste's speed lines, read (0), or -1 with the error reported; its
 * lines counted, and a last line cut short refused. */
static int S_parse(gs_logctx *c, const char *data, size_t len, gs_speedlog *sl)
{
	char err[256];
	size_t i;

	if (gs_speedlog_parse(data, len, sl, err, sizeof(err)) != 0) {
		size_t line = 0;
		const char *msg = err;
		if (sscanf(err, "line %zu: ", &line) == 1 && strstr(err, ": "))
			msg = strstr(err, ": ") + 2;
		gs_diag_add(c->d, c->file, (int)line, 0, NULL, "%s", msg);
		return -1;
	}
	for (i = 0; i < len; i++)
		c->li->nlines += data[i] == '\n';
	if (len && data[len - 1] != '\n')
		c->li->nlines++;
	if (S_cut_last(c, data, len, sl)) {
		gs_speedlog_free(sl);
		return -1;
	}
	return 0;
}

/* Every record of the wanted source. */
static int S_read(gs_logctx *c, const char *data, size_t len, gs_speedlog_source want)
{
	gs_speedlog sl;
	const gs_speedlog_rec *prev = NULL;
	char *buf;
	size_t i, last;

	if (S_parse(c, data, len, &sl) != 0)
		return GS_LL_FAIL;
	buf = gs_xmalloc(GS_LOG_MAX_LINE + 1);
	S_devices(c, data, len);
	last = 1;
	for (i = 0; i < sl.n; i++) {
		const gs_speedlog_rec *r = &sl.recs[i];
		gs_logline_fig f;
		gs_log_unit unit;
		const char *note = NULL, *name = S_name(r, &note, &unit);
		int mine = r->source == want ||
			   (want == GS_SPEEDLOG_VLLM_SERVING && r->source == GS_SPEEDLOG_VLLM_THROUGHPUT);
		if (!mine || !name)
			continue;
		S_line_text(data, len, r->line, buf, GS_LOG_MAX_LINE + 1);
		c->text = buf;
		c->line = c->last_line = r->line;
		if (S_new_run(c, r, prev, name)) {
			gs_logline_new_run(c);
			gs_logline_add_phase(c, "benchmark", 0, 0, NULL);
			if (want == GS_SPEEDLOG_VLLM_SERVING) {
				char *tmp = gs_xmalloc(GS_LOG_MAX_LINE + 1);
				S_vllm_settings(c, data, len, last, r->line + 1, tmp);
				free(tmp);
			}
		}
		last = r->line + 1;
		prev = r;
		memset(&f, 0, sizeof(f));
		f.name = name;
		f.device = 0;
		f.unit = unit;
		f.dec = S_printed(buf, r->milli, &f.dec_len);
		if (!f.dec) {
			gs_logline_err(c, NULL, "the figure read is not printed on its line");
			break;
		}
		if (f.dec[f.dec_len] == '.' && r->line == c->li->nlines && data[len - 1] != '\n') {
			gs_logline_err(c, f.dec, "a figure cut short at the end of the log");
			break;
		}
		f.aw = f.dec;
		f.aw_len = f.dec_len;
		f.note = note;
		f.nosplit = 1;
		gs_logline_add_fig(c, &f);
		S_settings(c, r);
	}
	c->text = "";
	free(buf);
	gs_speedlog_free(&sl);
	return c->errors ? GS_LL_FAIL : GS_LL_OK;
}

/*
 * vLLM's stats lines: an interval is a steady decode when it read no
 * prompt token, none waited at its end, and the same count R >= 1 of
 * requests ran at both its ends (the line before it says R too): R
 * sequences generating together the whole interval. One run per R, in
 * the order each first shows; its figure the lower median of those
 * intervals' generation throughputs, its line cited.
 */
typedef struct {
	uint64_t running;
	size_t *at;          /* the intervals' records, in their order */
	size_t n, cap;
} S_steady;

static int S_cmp_gen(const void *a, const void *b, void *ctx)
{
	const gs_speedlog_rec *r = ctx;
	uint64_t x = r[*(const size_t *)a].milli, y = r[*(const size_t *)b].milli;

	return x < y ? -1 : x > y;
}

/* The steady intervals grouped by their running count; the groups' count. */
static size_t S_group(const gs_speedlog *sl, S_steady **out)
{
	S_steady *g = NULL;
	size_t ng = 0, i, k, prev = (size_t)-1;

	for (i = 0; i < sl->n; i++) {
		const gs_speedlog_rec *r = &sl->recs[i];
		int steady;
		if (r->source != GS_SPEEDLOG_VLLM_METRICS)
			continue;
		steady = prev != (size_t)-1 && r->prompt_milli == 0 && r->waiting == 0 &&
			 r->running >= 1 && sl->recs[prev].running == r->running;
		prev = i;
		if (!steady)
			continue;
		for (k = 0; k < ng && g[k].running != r->running; k++)
			;
		if (k == ng) {
			g = gs_xrealloc(g, (ng + 1) * sizeof(*g));
			memset(&g[ng++], 0, sizeof(*g));
			g[k].running = r->running;
		}
		if (g[k].n == g[k].cap) {
			g[k].cap = g[k].cap ? 2 * g[k].cap : 16;
			g[k].at = gs_xrealloc(g[k].at, g[k].cap * sizeof(size_t));
		}
		g[k].at[g[k].n++] = i;
	}
	*out = g;
	return ng;
}

/*
 * vLLM's "SpecDecoding metrics:" lines: the run drafted tokens and
 * accepted several per step (speculative decoding, MTP), so its rate is
 * not bounded by one read of the weights per token: the setting
 * speculative_decoding says so, citing the first such line (buf is
 * overwritten).
 */
static void S_speculative(gs_logctx *c, const char *data, size_t len, char *buf)
{
	const char *p = memmem(data, len, "SpecDecoding metrics:", 21);
	const char *save = c->text;
	size_t line = 1, save_line = c->line, i;

	if (!p)
		return;
	for (i = 0; i < (size_t)(p - data); i++)
		line += data[i] == '\n';
	S_line_text(data, len, line, buf, GS_LOG_MAX_LINE + 1);
	c->text = buf;
	c->line = c->last_line = line;
	gs_logline_add_setting(c, "speculative_decoding", "on", 2);
	c->text = save;
	c->line = c->last_line = save_line;
}

/* One run's figures: output tokens per second, and per sequence when R is 1. */
static void S_steady_run(gs_logctx *c, const char *data, size_t len, const gs_speedlog *sl,
			 S_steady *g, char *buf)
{
	const gs_speedlog_rec *r;
	char num[32];
	int pass;

	qsort_r(g->at, g->n, sizeof(size_t), S_cmp_gen, sl->recs);
	r = &sl->recs[g->at[(g->n - 1) / 2]];
	S_line_text(data, len, r->line, buf, GS_LOG_MAX_LINE + 1);
	c->text = buf;
	c->line = c->last_line = r->line;
	gs_logline_new_run(c);
	gs_logline_add_phase(c, "serving", 0, 0, NULL);
	for (pass = 0; pass < 1 + (g->running == 1); pass++) {
		gs_logline_fig f;
		memset(&f, 0, sizeof(f));
		f.name = pass ? "decode_tokens_per_second" : "output_tokens_per_second";
		f.unit = GS_LU_TOKENS_PER_SECOND;
		f.dec = strstr(buf, "generation throughput:");
		f.dec = f.dec ? S_printed(f.dec, r->milli, &f.dec_len) : NULL;
		if (!f.dec) {
			gs_logline_err(c, NULL, "the figure read is not printed on its line");
			return;
		}
		f.aw = f.dec;
		f.aw_len = f.dec_len;
		f.note = pass ? "vLLM's stats: one request generating alone, the lower median of "
				"its steady intervals"
			      : "vLLM's stats: the running requests generating together, the lower "
				"median of the steady intervals at that count (no prompt token, none "
				"waiting, the same count at both ends)";
		f.nosplit = 1;
		gs_logline_add_fig(c, &f);
	}
	snprintf(num, sizeof(num), "%llu", (unsigned long long)g->running);
	gs_logline_add_setting(c, "running_requests", num, strlen(num));
	snprintf(num, sizeof(num), "%zu", g->n);
	gs_logline_add_setting(c, "steady_intervals", num, strlen(num));
	S_speculative(c, data, len, buf);
}

int gs_logspeed_vllm_stats(gs_logctx *c, const char *data, size_t len)
{
	gs_speedlog sl;
	S_steady *g = NULL;
	size_t ng, i, nstats = 0, first = 0;
	char *buf;

	if (S_parse(c, data, len, &sl) != 0)
		return GS_LL_FAIL;
	for (i = 0; i < sl.n; i++) {
		const gs_speedlog_rec *r = &sl.recs[i];
		if (r->source != GS_SPEEDLOG_VLLM_METRICS)
			continue;
		if (nstats && r->engine != sl.recs[first].engine) {
			gs_diag_add(c->d, c->file, (int)r->line, 0, NULL, "the stats of engine %03llu "
				    "follow those of engine %03llu (data parallel): each engine's "
				    "intervals are its own; import one engine's lines",
				    (unsigned long long)r->engine,
				    (unsigned long long)sl.recs[first].engine);
			gs_speedlog_free(&sl);
			return GS_LL_FAIL;
		}
		if (!nstats++)
			first = i;
	}
	ng = S_group(&sl, &g);
	if (!nstats || !ng) {
		gs_diag_add(c->d, c->file, 0, 0, NULL, "%s", !nstats
			    ? "no vLLM stats line (\"Avg prompt throughput: ..., Avg generation "
			      "throughput: ..., Running: N reqs, ...\") in the log"
			    : "no steady decode interval among the log's stats lines (none with "
			      "\"Avg prompt throughput: 0.0\", no request waiting, and the same "
			      "running requests as the line before): nothing to import");
		free(g);
		gs_speedlog_free(&sl);
		return GS_LL_FAIL;
	}
	buf = gs_xmalloc(GS_LOG_MAX_LINE + 1);
	S_devices(c, data, len);
	for (i = 0; i < ng; i++) {
		if (!c->errors)
			S_steady_run(c, data, len, &sl, &g[i], buf);
		free(g[i].at);
	}
	c->text = "";
	free(buf);
	free(g);
	gs_speedlog_free(&sl);
	return c->errors ? GS_LL_FAIL : GS_LL_OK;
}

int gs_logspeed_llama_bench(gs_logctx *c, const char *data, size_t len)
{
	return S_read(c, data, len, GS_SPEEDLOG_LLAMA_BENCH);
}

int gs_logspeed_llama_timings(gs_logctx *c, const char *data, size_t len)
{
	return S_read(c, data, len, GS_SPEEDLOG_LLAMA_TIMINGS);
}

int gs_logspeed_vllm_bench(gs_logctx *c, const char *data, size_t len)
{
	return S_read(c, data, len, GS_SPEEDLOG_VLLM_SERVING);
}
