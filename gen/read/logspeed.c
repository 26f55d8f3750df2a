/*
 * logspeed: the speed a benchmark printed (llama-bench's table, vLLM's
 * benchmark summaries), read by speedlog.c and kept as observed figures
 * of tokens (or requests) per second, each with its line (logimport.h).
 *
 * A run is one benchmark: for llama-bench, the rows of one model, backend
 * and offload; for vLLM, one summary. A paste of several is refused until
 * --start N picks one. The GPU is the one the paste's "Device N: NAME"
 * line names (llama.cpp prints it above the table), else --gpu's.
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
		*note = "llama-bench's tgN: one sequence generating N tokens, the mean over its repetitions";
		return "decode_tokens_per_second";
	case GS_SPEEDLOG_PREFILL:
		*note = "llama-bench's ppN: a prompt of N tokens, the mean over its repetitions";
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
	if (s < data + len && (*s == '|' || memmem(s, (size_t)(data + len - s), "hroughput", 9))) {
		gs_diag_add(c->d, c->file, (int)c->li->nlines, 0, NULL, "a line cut short at the end "
			    "of the log: \"%.*s\"", (int)(data + len - s), s);
		return 1;
	}
	return 0;
}

/* Every record of the wanted source (llama-bench, or vLLM's). */
static int S_read(gs_logctx *c, const char *data, size_t len, int llama)
{
	gs_speedlog sl;
	const gs_speedlog_rec *prev = NULL;
	char err[256], *buf;
	size_t i, last;

	if (gs_speedlog_parse(data, len, &sl, err, sizeof(err)) != 0) {
		size_t line = 0;
		const char *msg = err;
		if (sscanf(err, "line %zu: ", &line) == 1 && strstr(err, ": "))
			msg = strstr(err, ": ") + 2;
		gs_diag_add(c->d, c->file, (int)line, 0, NULL, "%s", msg);
		return GS_LL_FAIL;
	}
	for (i = 0; i < len; i++)
		c->li->nlines += data[i] == '\n';
	if (len && data[len - 1] != '\n')
		c->li->nlines++;
	if (S_cut_last(c, data, len, &sl)) {
		gs_speedlog_free(&sl);
		return GS_LL_FAIL;
	}
	buf = gs_xmalloc(GS_LOG_MAX_LINE + 1);
	S_devices(c, data, len);
	last = 1;
	for (i = 0; i < sl.n; i++) {
		const gs_speedlog_rec *r = &sl.recs[i];
		gs_logline_fig f;
		gs_log_unit unit;
		const char *note = NULL, *name = S_name(r, &note, &unit);
		if ((r->source == GS_SPEEDLOG_LLAMA_BENCH) != llama || !name)
			continue;
		S_line_text(data, len, r->line, buf, GS_LOG_MAX_LINE + 1);
		c->text = buf;
		c->line = c->last_line = r->line;
		if (S_new_run(c, r, prev, name)) {
			gs_logline_new_run(c);
			gs_logline_add_phase(c, "benchmark", 0, 0, NULL);
			if (!llama) {
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

int gs_logspeed_llama_bench(gs_logctx *c, const char *data, size_t len)
{
	return S_read(c, data, len, 1);
}

int gs_logspeed_vllm_bench(gs_logctx *c, const char *data, size_t len)
{
	return S_read(c, data, len, 0);
}
