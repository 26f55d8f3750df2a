/*
 * speedlog: llama-bench rows, llama.cpp timings, vLLM benchmark summaries and
 * stats lines (speedlog.h).
 */
#define _GNU_SOURCE
#include "speedlog.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

#define S_MAX_COLS 24

typedef struct {
	const char *p;
	size_t n;
} s_span;

typedef struct {
	gs_speedlog *out;
	size_t cap;
	char *err;
	size_t errlen;
	/* the llama-bench table being read */
	int state;               /* 0 none, 1 header seen (separator next), 2 rows */
	size_t ncols;
	int c_model, c_size, c_backend, c_ngl, c_test, c_ts;
} s_ctx;

#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static int S_fail(s_ctx *c, size_t line, const char *fmt, ...)
{
	va_list ap;
	int k;

	k = snprintf(c->err, c->errlen, "line %zu: ", line);
	if (k < 0 || (size_t)k >= c->errlen)
		return -1;
	va_start(ap, fmt);
	vsnprintf(c->err + k, c->errlen - (size_t)k, fmt, ap);
	va_end(ap);
	return -1;
}

static s_span S_trim(s_span s)
{
	while (s.n && (s.p[0] == ' ' || s.p[0] == '\t'))
		s.p++, s.n--;
	while (s.n && (s.p[s.n - 1] == ' ' || s.p[s.n - 1] == '\t' || s.p[s.n - 1] == '\r'))
		s.n--;
	return s;
}

static int S_eq(s_span s, const char *t)
{
	return s.n == strlen(t) && memcmp(s.p, t, s.n) == 0;
}

/* Consumes prefix t (case-insensitive) from *s. */
static int S_eat(s_span *s, const char *t)
{
	size_t n = strlen(t), i;

	if (s->n < n)
		return 0;
	for (i = 0; i < n; i++) {
		char a = s->p[i], b = t[i];

		if (a >= 'A' && a <= 'Z')
			a = (char)(a - 'A' + 'a');
		if (b >= 'A' && b <= 'Z')
			b = (char)(b - 'A' + 'a');
		if (a != b)
			return 0;
	}
	s->p += n;
	s->n -= n;
	return 1;
}

static void S_skip_ws(s_span *s)
{
	while (s->n && (s->p[0] == ' ' || s->p[0] == '\t'))
		s->p++, s->n--;
}

/*
 * A decimal at the start of *s, consumed: *scaled its digits as an integer,
 * *dec the digits after the point. 0, or -1: no digit, or beyond 18 digits.
 */
static int S_decimal(s_span *s, uint64_t *scaled, unsigned *dec)
{
	uint64_t v = 0;
	unsigned digits = 0, d = 0;
	int point = 0;

	while (s->n) {
		char ch = s->p[0];

		if (ch == '.' && !point) {
			point = 1;
		} else if (ch >= '0' && ch <= '9') {
			if (++digits > 18)
				return -1;
			v = v * 10 + (uint64_t)(ch - '0');
			d += (unsigned)point;
		} else {
			break;
		}
		s->p++, s->n--;
	}
	if (!digits)
		return -1;
	*scaled = v;
	*dec = d;
	return 0;
}

/* A rate at the start of *s as thousandths: "61.03" -> 61030. */
static int S_milli(s_ctx *c, size_t line, s_span *s, const char *what, uint64_t *out)
{
	uint64_t v;
	unsigned d;

	S_skip_ws(s);
	if (S_decimal(s, &v, &d) != 0)
		return S_fail(c, line, "expected %s as a number (digits, a point, at most three decimals)", what);
	if (d > 3)
		return S_fail(c, line, "%s has %u decimals: at most three are read exactly", what, d);
	for (; d < 3; d++)
		v *= 10;
	*out = v;
	return 0;
}

static gs_speedlog_rec *S_push(s_ctx *c, gs_speedlog_source src, gs_speedlog_metric m, size_t line, uint64_t milli)
{
	gs_speedlog_rec *r;

	if (c->out->n == c->cap) {
		c->cap = c->cap ? c->cap * 2 : 16;
		c->out->recs = gs_xrealloc(c->out->recs, c->cap * sizeof(*c->out->recs));
	}
	r = &c->out->recs[c->out->n++];
	memset(r, 0, sizeof(*r));
	r->source = src;
	r->metric = m;
	r->line = line;
	r->milli = milli;
	r->ngl = -1;
	return r;
}

/* Splits "| a | b |" into trimmed cells; the number of cells, or -1. */
static int S_cells(s_span row, s_span *cells)
{
	size_t i, start, n = 0;

	row = S_trim(row);
	if (!row.n || row.p[0] != '|')
		return -1;
	if (row.n > 1 && row.p[row.n - 1] == '|')
		row.n--;
	start = 1;
	for (i = 1; i <= row.n; i++) {
		if (i == row.n || row.p[i] == '|') {
			if (n == S_MAX_COLS)
				return -1;
			cells[n].p = row.p + start;
			cells[n].n = i - start;
			cells[n] = S_trim(cells[n]);
			n++;
			start = i + 1;
		}
	}
	return (int)n;
}

static void S_copy(char *dst, s_span s)
{
	size_t n = s.n < GS_SPEEDLOG_TEXT - 1 ? s.n : GS_SPEEDLOG_TEXT - 1;

	memcpy(dst, s.p, n);
	dst[n] = 0;
}

static int S_header(s_ctx *c, const s_span *cells, int n)
{
	int i, model = -1, size = -1, backend = -1, ngl = -1, test = -1, ts = -1;

	for (i = 0; i < n; i++) {
		if (S_eq(cells[i], "model"))
			model = i;
		else if (S_eq(cells[i], "size"))
			size = i;
		else if (S_eq(cells[i], "backend"))
			backend = i;
		else if (S_eq(cells[i], "ngl"))
			ngl = i;
		else if (S_eq(cells[i], "test"))
			test = i;
		else if (S_eq(cells[i], "t/s"))
			ts = i;
	}
	if (model < 0 || test < 0 || ts < 0)
		return 0;
	c->c_model = model;
	c->c_size = size;
	c->c_backend = backend;
	c->c_ngl = ngl;
	c->c_test = test;
	c->c_ts = ts;
	c->ncols = (size_t)n;
	c->state = 1;
	return 1;
}

/* "12.55 GiB": the least byte count printed so (half a unit of the last
 * digit below, rounded up). */
static int S_size(s_ctx *c, size_t line, s_span s, uint64_t *out)
{
	uint64_t v;
	unsigned d, shift, i;
	unsigned __int128 num, den = 2;

	if (S_decimal(&s, &v, &d) != 0 || d > 6)
		return S_fail(c, line, "expected the size column as a number and a unit (\"12.55 GiB\")");
	S_skip_ws(&s);
	if (S_eq(s, "GiB"))
		shift = 30;
	else if (S_eq(s, "MiB"))
		shift = 20;
	else if (S_eq(s, "KiB"))
		shift = 10;
	else
		return S_fail(c, line, "expected the size column's unit as GiB, MiB or KiB");
	if (v == 0)
		return S_fail(c, line, "the size column is 0");
	for (i = 0; i < d; i++)
		den *= 10;
	num = ((unsigned __int128)(2 * v - 1)) << shift;
	num = (num + den - 1) / den;
	if (num > UINT64_MAX)
		return S_fail(c, line, "the size column is beyond 64 bits of bytes");
	*out = (uint64_t)num;
	return 0;
}

static int S_row(s_ctx *c, size_t line, const s_span *cells, int n)
{
	gs_speedlog_rec *r;
	gs_speedlog_metric m = GS_SPEEDLOG_OTHER_TEST;
	uint64_t milli, tokens = 0, sd = 0;
	int has_sd = 0;
	s_span t, test;

	if ((size_t)n != c->ncols)
		return S_fail(c, line, "a llama-bench row of %d cells under a header of %zu", n, c->ncols);
	t = cells[c->c_ts];
	test = cells[c->c_test];
	if (S_milli(c, line, &t, "the t/s column", &milli) != 0)
		return -1;
	S_skip_ws(&t);
	if (S_eat(&t, "\xc2\xb1")) {
		if (S_milli(c, line, &t, "the t/s column's deviation (after \xc2\xb1)", &sd) != 0)
			return -1;
		has_sd = 1;
	}
	S_skip_ws(&t);
	if (t.n)
		return S_fail(c, line, "unexpected text after the t/s figure: \"%.*s\"", (int)t.n, t.p);
	{
		s_span k = test;
		unsigned dd;
		int dec = S_eat(&k, "tg"), pre = !dec && S_eat(&k, "pp");

		if (dec || pre) {
			S_skip_ws(&k);
			if (S_decimal(&k, &tokens, &dd) == 0 && dd == 0 && !k.n && tokens)
				m = dec ? GS_SPEEDLOG_DECODE : GS_SPEEDLOG_PREFILL;
			else
				tokens = 0;
		}
	}
	r = S_push(c, GS_SPEEDLOG_LLAMA_BENCH, m, line, milli);
	r->has_sd = has_sd;
	r->sd_milli = sd;
	r->test_tokens = tokens;
	S_copy(r->model, cells[c->c_model]);
	S_copy(r->test, test);
	if (c->c_backend >= 0)
		S_copy(r->backend, cells[c->c_backend]);
	if (c->c_size >= 0) {
		if (S_size(c, line, cells[c->c_size], &r->size_bytes_min) != 0)
			return -1;
		r->has_size = 1;
	}
	if (c->c_ngl >= 0) {
		s_span g = cells[c->c_ngl];
		uint64_t v;
		unsigned dd;

		if (S_decimal(&g, &v, &dd) != 0 || dd || g.n || v > 100000)
			return S_fail(c, line, "expected the ngl column as a whole number");
		r->ngl = (int)v;
	}
	return 0;
}

/* A table line: the header, its separator or a row. 1 taken, 0 not a
 * llama-bench line, -1 error. */
static int S_table(s_ctx *c, size_t line, s_span ln)
{
	s_span cells[S_MAX_COLS];
	int n = S_cells(ln, cells), i;

	if (n < 0) {
		if (c->state == 1)
			return S_fail(c, line, "expected the separator row (| --- | ... |) under the llama-bench header");
		c->state = 0;
		return 0;
	}
	if (c->state == 1) {
		if ((size_t)n != c->ncols)
			return S_fail(c, line, "a separator of %d cells under a header of %zu", n, c->ncols);
		for (i = 0; i < n; i++) {
			size_t j;

			for (j = 0; j < cells[i].n; j++)
				if (cells[i].p[j] != '-' && cells[i].p[j] != ':')
					return S_fail(c, line, "expected the separator row (| --- | ... |) under the llama-bench header");
		}
		c->state = 2;
		return 1;
	}
	if (S_header(c, cells, n))
		return 1;
	if (c->state == 2)
		return S_row(c, line, cells, n) == 0 ? 1 : -1;
	return 0;
}

/* " 4326.03 tokens/s" after "Throughput: 16.90 requests/s,". */
static int S_throughput(s_ctx *c, size_t line, s_span s)
{
	uint64_t v;
	int tokens = 0;

	if (S_milli(c, line, &s, "requests per second", &v) != 0)
		return -1;
	S_skip_ws(&s);
	if (!S_eat(&s, "requests/s"))
		return S_fail(c, line, "expected \"requests/s\" after the Throughput figure");
	S_push(c, GS_SPEEDLOG_VLLM_THROUGHPUT, GS_SPEEDLOG_REQUESTS, line, v);
	while (S_eat(&s, ",")) {
		gs_speedlog_metric m = GS_SPEEDLOG_TOTAL_TOKENS;

		if (S_milli(c, line, &s, "tokens per second", &v) != 0)
			return -1;
		S_skip_ws(&s);
		if (S_eat(&s, "output "))
			m = GS_SPEEDLOG_OUTPUT_TOKENS;
		else
			(void)S_eat(&s, "total ");
		if (!S_eat(&s, "tokens/s"))
			return S_fail(c, line, "expected \"tokens/s\", \"total tokens/s\" or \"output tokens/s\"");
		S_push(c, GS_SPEEDLOG_VLLM_THROUGHPUT, m, line, v);
		tokens = 1;
	}
	S_skip_ws(&s);
	if (s.n)
		return S_fail(c, line, "unexpected text after the Throughput figures: \"%.*s\"", (int)s.n, s.p);
	if (!tokens) /* benchmark_serving before its summary block */
		c->out->recs[c->out->n - 1].source = GS_SPEEDLOG_VLLM_SERVING;
	return 1;
}

static const struct {
	const char *name;
	gs_speedlog_metric m;
	const char *unit;     /* after "NAME:" without the "(tok/s)" form */
} S_serving[] = {
	{ "Request throughput", GS_SPEEDLOG_REQUESTS, "requests/s" },
	{ "Output token throughput", GS_SPEEDLOG_OUTPUT_TOKENS, "tokens/s" },
	{ "Total Token throughput", GS_SPEEDLOG_TOTAL_TOKENS, "tokens/s" },
	{ "Input token throughput", GS_SPEEDLOG_INPUT_TOKENS, "tokens/s" },
};

/* A vLLM summary line: 1 taken, 0 not one, -1 error. */
static int S_vllm(s_ctx *c, size_t line, s_span s)
{
	size_t i;

	s = S_trim(s);
	if (S_eat(&s, "Throughput:"))
		return S_throughput(c, line, s);
	for (i = 0; i < sizeof(S_serving) / sizeof(S_serving[0]); i++) {
		s_span k = s;
		uint64_t v;
		int paren;

		if (!S_eat(&k, S_serving[i].name))
			continue;
		S_skip_ws(&k);
		paren = S_eat(&k, "(req/s)") || S_eat(&k, "(tok/s)");
		if (!S_eat(&k, ":"))
			continue;
		if (S_milli(c, line, &k, S_serving[i].name, &v) != 0)
			return -1;
		S_skip_ws(&k);
		if (!paren && !S_eat(&k, S_serving[i].unit))
			return S_fail(c, line, "expected \"%s\" after the %s figure", S_serving[i].unit, S_serving[i].name);
		S_skip_ws(&k);
		if (k.n)
			return S_fail(c, line, "unexpected text after the %s figure: \"%.*s\"", S_serving[i].name, (int)k.n, k.p);
		S_push(c, GS_SPEEDLOG_VLLM_SERVING, S_serving[i].m, line, v);
		return 1;
	}
	return 0;
}

/* The first occurrence of t in s (exact case), or NULL. */
static const char *S_find(s_span s, const char *t)
{
	return memmem(s.p, s.n, t, strlen(t));
}

/* A whole count ("971"), no point: 0, or -1 with the error set. */
static int S_count(s_ctx *c, size_t line, s_span *s, const char *what, uint64_t *out)
{
	unsigned d;

	S_skip_ws(s);
	if (S_decimal(s, out, &d) != 0 || d)
		return S_fail(c, line, "expected %s as a whole number", what);
	return 0;
}

/* "inf", "nan" or "-nan" where a rate stands: the line times nothing. */
static int S_not_a_rate(s_span s)
{
	S_skip_ws(&s);
	return S_eat(&s, "inf") || S_eat(&s, "nan") || S_eat(&s, "-nan");
}

static uint64_t S_absdiff(unsigned __int128 a, unsigned __int128 b)
{
	unsigned __int128 d = a > b ? a - b : b - a;

	return d > UINT64_MAX ? UINT64_MAX : (uint64_t)d;
}

/*
 * The three figures of a timing line agree to their printed rounding
 * (two decimals: each within 5 thousandths of the true value): total =
 * per token x n, and rate x total = n x 10^6 (ms and tokens per second,
 * both in thousandths: rate_m x total_m = n x 10^9).
 */
static int S_timing_agrees(uint64_t total, uint64_t n, uint64_t per, uint64_t rate)
{
	unsigned __int128 t = total, r = rate;

	if (S_absdiff((unsigned __int128)per * n, t) > 5 * n + 5)
		return 0;
	return S_absdiff(r * t, (unsigned __int128)n * 1000000000u) <= 5 * (total + rate) + 25;
}

/*
 * llama.cpp's timing line: "[prompt |generation ]eval time = T ms / N
 * tokens|runs ( P ms per token, R tokens per second)", then nothing, or
 * the old server's " | tid=..." fields. 1 taken, 0 not one, -1 error.
 */
static int S_timing(s_ctx *c, size_t line, s_span s)
{
	const char *at = S_find(s, "eval time");
	s_span k;
	uint64_t total, n, per, rate;
	int prompt;
	gs_speedlog_rec *r;

	if (!at)
		return 0;
	prompt = at - s.p >= 7 && memcmp(at - 7, "prompt ", 7) == 0;
	k.p = at + 9;
	k.n = s.n - (size_t)(k.p - s.p);
	S_skip_ws(&k);
	if (!S_eat(&k, "="))
		return 0; /* prose about an eval time */
	if (S_milli(c, line, &k, "the eval time in ms", &total) != 0)
		return -1;
	S_skip_ws(&k);
	if (!S_eat(&k, "ms"))
		return S_fail(c, line, "expected \"ms\" after the eval time");
	S_skip_ws(&k);
	if (!S_eat(&k, "/"))
		return S_fail(c, line, "expected \"/ N tokens\" after the eval time");
	if (S_count(c, line, &k, "the tokens timed", &n) != 0)
		return -1;
	S_skip_ws(&k);
	if (!S_eat(&k, "tokens") && !S_eat(&k, "runs"))
		return S_fail(c, line, "expected \"tokens\" or \"runs\" after the count");
	S_skip_ws(&k);
	if (!S_eat(&k, "("))
		return S_fail(c, line, "expected \"(\" before the time per token");
	if (n == 0 || S_not_a_rate(k))
		return 1; /* times no token */
	if (S_milli(c, line, &k, "the time per token in ms", &per) != 0)
		return -1;
	S_skip_ws(&k);
	if (!S_eat(&k, "ms per token,"))
		return S_fail(c, line, "expected \"ms per token,\" after the time per token");
	if (S_not_a_rate(k))
		return 1;
	if (S_milli(c, line, &k, "tokens per second", &rate) != 0)
		return -1;
	S_skip_ws(&k);
	if (!S_eat(&k, "tokens per second)"))
		return S_fail(c, line, "expected \"tokens per second)\" after the rate");
	S_skip_ws(&k);
	if (k.n && k.p[0] != '|')
		return S_fail(c, line, "unexpected text after the timing: \"%.*s\"", (int)k.n, k.p);
	if (!S_timing_agrees(total, n, per, rate))
		return S_fail(c, line, "the line's figures disagree (%llu tokens in the time given "
			      "are not the time per token or the rate printed): a line edited "
			      "by hand is not read", (unsigned long long)n);
	r = S_push(c, GS_SPEEDLOG_LLAMA_TIMINGS, prompt ? GS_SPEEDLOG_PREFILL : GS_SPEEDLOG_DECODE,
		   line, rate);
	r->test_tokens = n;
	return 1;
}

/* ", NAME: N reqs" of a vLLM stats line: 1 read into *v, 0 another name, -1 error. */
static int S_reqs(s_ctx *c, size_t line, s_span *s, const char *name, uint64_t *v)
{
	s_span k = *s;

	if (!S_eat(&k, ",") || (S_skip_ws(&k), !S_eat(&k, name)))
		return 0;
	if (S_count(c, line, &k, name, v) != 0)
		return -1;
	S_skip_ws(&k);
	if (!S_eat(&k, "reqs"))
		return S_fail(c, line, "expected \"reqs\" after the %s count", name);
	*s = k;
	return 1;
}

/*
 * vLLM's periodic stats line, from "Avg prompt throughput:" on (a prefix
 * before it, timestamps and process names, is not read). 1 taken, 0 not
 * one, -1 error.
 */
static int S_stats(s_ctx *c, size_t line, s_span s)
{
	const char *at = S_find(s, "Avg prompt throughput:");
	s_span k;
	uint64_t prompt, gen, running, waiting = 0, v;
	int got, any = 0;
	gs_speedlog_rec *r;

	if (!at)
		return 0;
	k.p = at + 22;
	k.n = s.n - (size_t)(k.p - s.p);
	if (S_milli(c, line, &k, "the prompt throughput", &prompt) != 0)
		return -1;
	S_skip_ws(&k);
	if (!S_eat(&k, "tokens/s,"))
		return S_fail(c, line, "expected \"tokens/s,\" after the prompt throughput");
	S_skip_ws(&k);
	if (!S_eat(&k, "Avg generation throughput:"))
		return S_fail(c, line, "expected \"Avg generation throughput:\" after the prompt throughput");
	if (S_milli(c, line, &k, "the generation throughput", &gen) != 0)
		return -1;
	S_skip_ws(&k);
	if (!S_eat(&k, "tokens/s"))
		return S_fail(c, line, "expected \"tokens/s\" after the generation throughput");
	if ((got = S_reqs(c, line, &k, "Running:", &running)) <= 0)
		return got < 0 ? -1 : S_fail(c, line, "expected \", Running: N reqs\" after the throughputs");
	/* V0: Swapped, Pending; V1: Waiting */
	if ((got = S_reqs(c, line, &k, "Swapped:", &v)) < 0)
		return -1;
	waiting += got ? v : 0;
	while ((got = S_reqs(c, line, &k, "Pending:", &v)) != 0 ||
	       (got = S_reqs(c, line, &k, "Waiting:", &v)) != 0) {
		if (got < 0)
			return -1;
		waiting += v;
		any = 1;
	}
	if (!any)
		return S_fail(c, line, "expected \"Waiting: N reqs\" or \"Pending: N reqs\" after the "
			      "running requests");
	r = S_push(c, GS_SPEEDLOG_VLLM_METRICS, GS_SPEEDLOG_INTERVAL, line, gen);
	/* V1 names the engine core: "Engine 000: Avg prompt ..." */
	if (at - s.p >= 13 && memcmp(at - 13, "Engine ", 7) == 0 && at[-2] == ':') {
		const char *d;
		for (d = at - 6; d < at - 2 && *d >= '0' && *d <= '9'; d++)
			r->engine = r->engine * 10 + (uint64_t)(*d - '0');
	}
	r->prompt_milli = prompt;
	r->running = running;
	r->waiting = waiting;
	return 1;
}

int gs_speedlog_parse(const char *data, size_t len, gs_speedlog *out, char *err, size_t errlen)
{
	s_ctx c;
	size_t pos = 0, line = 0;

	memset(out, 0, sizeof(*out));
	memset(&c, 0, sizeof(c));
	c.out = out;
	c.err = err;
	c.errlen = errlen;
	while (pos < len) {
		const char *nl = memchr(data + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - data) : len;
		s_span ln = { data + pos, end - pos };
		int k;

		line++;
		pos = end + 1;
		k = S_table(&c, line, ln);
		if (k == 0)
			k = S_vllm(&c, line, ln);
		if (k == 0)
			k = S_stats(&c, line, ln);
		if (k == 0)
			k = S_timing(&c, line, ln);
		if (k < 0) {
			gs_speedlog_free(out);
			return -1;
		}
	}
	if (c.state == 1) {
		gs_speedlog_free(out);
		return S_fail(&c, line, "the text ends under a llama-bench header, before its separator row");
	}
	if (!out->n) {
		gs_speedlog_free(out);
		return S_fail(&c, line, "no llama-bench row, llama.cpp timing line, vLLM benchmark "
			      "summary or vLLM stats line in the text");
	}
	return 0;
}

void gs_speedlog_free(gs_speedlog *l)
{
	free(l->recs);
	l->recs = NULL;
	l->n = 0;
}

const char *gs_speedlog_metric_name(gs_speedlog_metric m)
{
	switch (m) {
	case GS_SPEEDLOG_DECODE: return "decode";
	case GS_SPEEDLOG_PREFILL: return "prefill";
	case GS_SPEEDLOG_OTHER_TEST: return "other test";
	case GS_SPEEDLOG_REQUESTS: return "requests";
	case GS_SPEEDLOG_TOTAL_TOKENS: return "total tokens";
	case GS_SPEEDLOG_OUTPUT_TOKENS: return "output tokens";
	case GS_SPEEDLOG_INPUT_TOKENS: return "input tokens";
	case GS_SPEEDLOG_INTERVAL: return "interval";
	}
	return "?";
}
