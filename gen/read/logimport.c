/* logimport: engines' memory lines read into figures with their lines (logimport.h). */
#define _GNU_SOURCE
#include "logimport.h"
#include "logsniff.h"
#include "buf.h"
#include "util.h"

#include <ctype.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define GIB (1ull << 30)
#define MIB (1ull << 20)
#define KIB (1ull << 10)
#define S_JOIN_MAX 4           /* physical lines one wrapped message may span */
#define S_STARTS_SHOWN 20      /* starts listed with their lines in a refusal */

static const char *const S_kind_ids[] = { "vllm", "torch-oom", "torch-stats", "llama.cpp",
					   "sglang", NULL };

int gs_logimport_kind_parse(const char *s)
{
	int i;

	for (i = 0; s && S_kind_ids[i]; i++)
		if (strcmp(s, S_kind_ids[i]) == 0)
			return i;
	return -1;
}

const char *gs_logimport_kind_id(gs_log_kind k)
{
	return (unsigned)k < 5 ? S_kind_ids[k] : "unknown";
}

const char *gs_logimport_unit_id(gs_log_unit u)
{
	static const char *const ids[] = { "bytes", "tokens", "blocks", "count", "times",
					   "seconds", "fraction", "as_printed" };
	return (unsigned)u < sizeof(ids) / sizeof(ids[0]) ? ids[u] : "unknown";
}

/* ---- exact decimals ---- */

int gs_logimport_decimal_bytes(const char *text, size_t n, uint64_t mult, int64_t *out,
			 const char **why)
{
	unsigned __int128 num = 0, den = 1, q, r;
	size_t i = 0, ip = 0, fp = 0;
	int neg = 0, dot = 0;

	if (i < n && (text[i] == '-' || text[i] == '+'))
		neg = text[i++] == '-';
	for (; i < n; i++) {
		char c = text[i];
		if (c == '.' && !dot) {
			dot = 1;
			continue;
		}
		if (c == ',' && !dot)
			continue;   /* a thousands separator, checked by the scanner */
		if (c < '0' || c > '9') {
			*why = "not a decimal number";
			return -1;
		}
		if (dot) {
			if (++fp > 18) {
				*why = "more than 18 decimals";
				return -1;
			}
			den *= 10;
		} else if (++ip > 19) {
			*why = "more than 19 digits before the decimal point";
			return -1;
		}
		num = num * 10 + (unsigned)(c - '0');
	}
	if (ip == 0 && fp == 0) {
		*why = "not a decimal number";
		return -1;
	}
	/* num < 10^37, mult <= 2^40: the product fits in 128 bits */
	num *= mult;
	q = num / den;
	r = num % den;
	if (r * 2 >= den)
		q++;
	if (q > (unsigned __int128)INT64_MAX) {
		*why = "beyond 2^63 - 1";
		return -1;
	}
	*out = neg ? -(int64_t)q : (int64_t)q;
	return 0;
}

/* ---- the reading context ---- */

typedef struct {
	const char *file;
	const char *data;      /* the whole log, for naming what it is (logsniff.h) */
	size_t len;
	gs_diag *d;
	gs_log_kind kind;
	const gs_logimport_opts *o;
	gs_logimport *li;
	size_t cap_figs, cap_settings, cap_devices, cap_phases, cap_runs;
	int run;
	/* the line being read */
	const char *text;      /* cleaned, joined */
	size_t line, last_line;
	char *prefix;          /* vLLM's process prefix ("VllmWorkerProcess pid=521"), or NULL */
	int64_t device;        /* the rank its prefix names */
	int errors;
	/* vLLM worker processes numbered by first appearance */
	char **workers;
	size_t nworkers;
	/* the figures and phases of the current start (each bounded alone) */
	size_t run_figs, run_phases;
	/* past a bound: how many, and the first line, per kind (S_OVER_*) */
	size_t over[3], over_line[3];
} S_ctx;

/* The kinds of excess: one line each in a refusal, with the count (S_over_say). */
enum { S_OVER_FIGS, S_OVER_PHASES, S_OVER_DEVICES };

static void S_over(S_ctx *c, int kind)
{
	if (c->over[kind]++ == 0)
		c->over_line[kind] = c->line;
	c->errors++;
}

/* One line per kind of excess, with its count and its first line. */
static void S_over_say(S_ctx *c)
{
	static const char *const what[] = { "figures in one start of the engine",
					    "phases in one start of the engine",
					    "devices in one log" };
	int k;

	for (k = 0; k < 3; k++)
		if (c->over[k])
			gs_diag_add(c->d, c->file, (int)c->over_line[k], 0, NULL,
				    "more than %d %s (a measurement's bound): %zu past it, the "
				    "first here", k == S_OVER_DEVICES ? GS_LOG_MAX_DEVICES
				    : GS_LOG_MAX_FIGURES, what[k], c->over[k]);
}

#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static void S_err(S_ctx *c, const char *at, const char *fmt, ...)
{
	char *msg;
	va_list ap;
	int col = at && at >= c->text ? (int)(at - c->text) + 1 : 0;

	va_start(ap, fmt);
	msg = gs_xvasprintf(fmt, ap);
	va_end(ap);
	gs_diag_add(c->d, c->file, (int)c->line, col, NULL, "%s", msg);
	free(msg);
	c->errors++;
}

static gs_logdevice *S_device(S_ctx *c, int64_t index)
{
	gs_logimport *li = c->li;
	size_t i;

	for (i = 0; i < li->ndevices; i++)
		if (li->devices[i].index == index)
			return &li->devices[i];
	if (li->ndevices >= GS_LOG_MAX_DEVICES) {
		S_over(c, S_OVER_DEVICES);
		return NULL;
	}
	if (li->ndevices == c->cap_devices) {
		c->cap_devices = c->cap_devices ? 2 * c->cap_devices : 8;
		li->devices = gs_xrealloc(li->devices, c->cap_devices * sizeof(*li->devices));
	}
	memset(&li->devices[li->ndevices], 0, sizeof(li->devices[0]));
	li->devices[li->ndevices].index = index;
	li->devices[li->ndevices].label = gs_xstrdup_or_null(c->prefix);
	li->devices[li->ndevices].run = c->run;
	return &li->devices[li->ndevices++];
}

/*
 * What start run of the engine said, forgotten: a start that is not the
 * one kept (--start N, else the first) is not held while the log is read,
 * so that a log of thousands of starts is read in one pass, in the memory
 * of two, each start within the bounds alone.
 */
static void S_drop_run(S_ctx *c, int run)
{
	gs_logimport *li = c->li;
	size_t i, k;

	for (i = k = 0; i < li->nfigs; i++)
		if (li->figs[i].run != run) {
			li->figs[k++] = li->figs[i];
		} else {
			free(li->figs[i].decimal);
			free(li->figs[i].as_written);
			free(li->figs[i].text);
		}
	li->nfigs = k;
	for (i = k = 0; i < li->nsettings; i++)
		if (li->settings[i].run != run) {
			li->settings[k++] = li->settings[i];
		} else {
			free(li->settings[i].value);
			free(li->settings[i].text);
		}
	li->nsettings = k;
	for (i = k = 0; i < li->nphases; i++)
		if (li->phases[i].run != run)
			li->phases[k++] = li->phases[i];
		else
			free(li->phases[i].error);
	li->nphases = k;
}

static void S_new_run(S_ctx *c)
{
	gs_logimport *li = c->li;

	if (li->nruns > 0 && c->run != (c->o && c->o->run ? c->o->run : 1))
		S_drop_run(c, c->run);
	c->run_figs = c->run_phases = 0;
	if (li->nruns == c->cap_runs) {
		c->cap_runs = c->cap_runs ? 2 * c->cap_runs : 4;
		li->run_lines = gs_xrealloc(li->run_lines, c->cap_runs * sizeof(*li->run_lines));
	}
	li->run_lines[li->nruns++] = c->line;
	c->run = (int)li->nruns;
}

/* The first figure or setting starts run 1. */
static void S_touch_run(S_ctx *c)
{
	if (c->li->nruns == 0)
		S_new_run(c);
}

/* vLLM: the quantities one start states once. */
static const char *S_group(const char *name)
{
	if (strcmp(name, "kv_cache_blocks") == 0 || strcmp(name, "kv_cache_tokens") == 0)
		return "kv_capacity";
	return name;
}

typedef struct {
	const char *name;
	int64_t device;
	gs_log_unit unit;
	int is_int;
	int64_t value;
	const char *dec;       /* !is_int: the decimal's text */
	size_t dec_len;
	const char *aw;        /* as written: start and length in c->text */
	size_t aw_len;
	const char *note;
	int estimate;
	int nosplit;           /* read from an error message: never starts a run */
} S_fig;

static void S_add_fig(S_ctx *c, const S_fig *f)
{
	gs_logimport *li = c->li;
	gs_logfig *g;
	size_t i;

	S_touch_run(c);
	for (i = 0; i < li->nfigs; i++) {
		const gs_logfig *e = &li->figs[i];
		int same_value;
		if (e->run != c->run || e->device != f->device)
			continue;
		if (strcmp(S_group(e->name), S_group(f->name)) != 0)
			continue;
		same_value = strcmp(e->name, f->name) == 0 && e->is_int == f->is_int &&
			     (f->is_int ? e->value == f->value
					: strlen(e->decimal) == f->dec_len &&
						  memcmp(e->decimal, f->dec, f->dec_len) == 0);
		if (c->kind == GS_LOG_TORCH_OOM && !(same_value && strcmp(e->text, c->text) == 0))
			continue;   /* each message is its own failure */
		/* vLLM prints its weights once per start: the same line again later
		 * (not printed twice in a row) is the next start; another line with
		 * the same figure is the same figure (V1 prints the weights twice) */
		if (same_value && !(c->kind == GS_LOG_VLLM && strcmp(f->name, "weights") == 0 &&
				    strcmp(e->text, c->text) == 0 && e->line + 1 < c->line))
			return;
		if (f->nosplit)
			continue;
		if (c->kind == GS_LOG_VLLM || c->kind == GS_LOG_SGLANG) {
			S_new_run(c);
			break;
		}
		S_err(c, f->aw, "%s of device %" PRId64 " is %.*s here but line %zu says %s",
		      f->name, f->device, (int)f->aw_len, f->aw, e->line, e->as_written);
		return;
	}
	if (c->run_figs >= GS_LOG_MAX_FIGURES) {
		S_over(c, S_OVER_FIGS);
		return;
	}
	c->run_figs++;
	if (li->nfigs == c->cap_figs) {
		c->cap_figs = c->cap_figs ? 2 * c->cap_figs : 16;
		li->figs = gs_xrealloc(li->figs, c->cap_figs * sizeof(*li->figs));
	}
	g = &li->figs[li->nfigs++];
	memset(g, 0, sizeof(*g));
	g->name = f->name;
	g->device = f->device;
	g->unit = f->unit;
	g->is_int = f->is_int;
	g->value = f->value;
	if (!f->is_int)
		g->decimal = gs_xasprintf("%.*s", (int)f->dec_len, f->dec);
	g->as_written = gs_xasprintf("%.*s", (int)f->aw_len, f->aw);
	g->note = f->note;
	g->estimate = f->estimate;
	g->line = c->line;
	g->last_line = c->last_line;
	g->text = gs_xstrdup(c->text);
	g->run = c->run;
	if (f->device >= 0)
		S_device(c, f->device);
}

static void S_add_setting(S_ctx *c, const char *name, const char *v, size_t n)
{
	gs_logimport *li = c->li;
	gs_logsetting *s;
	size_t i;

	S_touch_run(c);
	for (i = 0; i < li->nsettings; i++) {
		const gs_logsetting *e = &li->settings[i];
		if (e->run != c->run || strcmp(e->name, name) != 0)
			continue;
		if (strlen(e->value) == n && memcmp(e->value, v, n) == 0)
			return;
		if (c->kind == GS_LOG_VLLM) {
			S_new_run(c);
			break;
		}
		S_err(c, v, "%s is %.*s here but line %zu says %s", name, (int)n, v, e->line,
		      e->value);
		return;
	}
	if (li->nsettings == c->cap_settings) {
		c->cap_settings = c->cap_settings ? 2 * c->cap_settings : 8;
		li->settings = gs_xrealloc(li->settings, c->cap_settings * sizeof(*li->settings));
	}
	s = &li->settings[li->nsettings++];
	s->name = name;
	s->value = gs_xasprintf("%.*s", (int)n, v);
	s->line = c->line;
	s->text = gs_xstrdup(c->text);
	s->run = c->run;
}

static gs_logphase *S_add_phase(S_ctx *c, const char *name, int64_t device, int failed,
				const char *error)
{
	gs_logimport *li = c->li;
	gs_logphase *p;
	size_t i;

	S_touch_run(c);
	for (i = 0; i < li->nphases; i++) {
		p = &li->phases[i];
		if (p->run == c->run && p->device == device && p->error && error &&
		    strcmp(p->error, error) == 0)
			return NULL;   /* the same failure printed again */
	}
	if (c->run_phases >= GS_LOG_MAX_FIGURES) {
		S_over(c, S_OVER_PHASES);
		return NULL;
	}
	c->run_phases++;
	if (li->nphases == c->cap_phases) {
		c->cap_phases = c->cap_phases ? 2 * c->cap_phases : 4;
		li->phases = gs_xrealloc(li->phases, c->cap_phases * sizeof(*li->phases));
	}
	p = &li->phases[li->nphases++];
	memset(p, 0, sizeof(*p));
	p->name = name;
	p->device = device;
	p->failed = failed;
	p->error = gs_xstrdup_or_null(error);
	p->line = c->line;
	p->run = c->run;
	S_device(c, device);
	return p;
}

/* A device's total (and free at start), as the log reports them. */
static void S_total(S_ctx *c, int64_t device, int64_t total, const char *at, size_t at_len)
{
	gs_logdevice *dv;

	if (total <= 0) {
		S_err(c, at, "a device total of %.*s: not a capacity", (int)at_len, at);
		return;
	}
	dv = S_device(c, device);
	if (!dv)
		return;
	if (dv->has_total && dv->total != (uint64_t)total) {
		S_err(c, at, "device %" PRId64 " has a total of %.*s here (%" PRId64 " bytes) but "
		      "line %zu gives %" PRIu64 " bytes: two totals for one device", device,
		      (int)at_len, at, total, dv->total_line, dv->total);
		return;
	}
	if (!dv->has_total) {
		dv->has_total = 1;
		dv->total = (uint64_t)total;
		dv->total_line = c->line;
	}
}

static void S_free_at_start(S_ctx *c, int64_t device, int64_t v, const char *at, size_t n)
{
	gs_logdevice *dv = S_device(c, device);

	if (!dv)
		return;
	if (v < 0) {
		S_err(c, at, "free memory of %.*s: below zero", (int)n, at);
		return;
	}
	if (dv->has_free && dv->free_bytes != (uint64_t)v) {
		S_err(c, at, "device %" PRId64 " has %.*s free here but line %zu gives %" PRIu64
		      " bytes", device, (int)n, at, dv->free_line, dv->free_bytes);
		return;
	}
	dv->has_free = 1;
	dv->free_bytes = (uint64_t)v;
	dv->free_line = c->line;
}

/* ---- scanning ---- */

enum { S_NO = 0, S_OK = 1, S_MORE = 2, S_FAIL = -1 };

/* A space in lit matches any run of blanks (or none); the rest byte for byte. */
static int S_lit(const char **pp, const char *lit)
{
	const char *p = *pp;

	while (*lit) {
		if (*lit == ' ') {
			while (*p == ' ' || *p == '\t')
				p++;
			lit++;
			continue;
		}
		if (!*p)
			return S_MORE;
		if (*p != *lit)
			return S_NO;
		p++;
		lit++;
	}
	*pp = p;
	return S_OK;
}

static void S_blanks(const char **pp)
{
	while (**pp == ' ' || **pp == '\t')
		(*pp)++;
}

typedef struct {
	const char *s;      /* the number's text */
	size_t n;
	int has_dot;
	int neg;
} S_num;

/*
 * A number at *pp: [-]digits[.digits], with thousands separators when
 * commas is set ("2,042,016"). S_OK, S_NO (none there), S_MORE (the text
 * ends where a number should be) or S_FAIL (reported: nan, inf, 40 digits).
 */
static int S_number(S_ctx *c, const char **pp, int commas, S_num *out)
{
	const char *p = *pp, *start;
	size_t ip = 0, fp = 0;

	S_blanks(&p);
	if (!*p)
		return S_MORE;
	start = p;
	if (strncasecmp(p, "nan", 3) == 0 || strncasecmp(p, "-nan", 4) == 0) {
		S_err(c, p, "a figure that is not a number (nan)");
		return S_FAIL;
	}
	if (strncasecmp(p, "inf", 3) == 0 || strncasecmp(p, "-inf", 4) == 0) {
		S_err(c, p, "an infinite figure (inf)");
		return S_FAIL;
	}
	out->neg = *p == '-';
	if (*p == '-')
		p++;
	if (!isdigit((unsigned char)*p))
		return S_NO;
	while (isdigit((unsigned char)*p) ||
	       (commas && *p == ',' && isdigit((unsigned char)p[1]) &&
		isdigit((unsigned char)p[2]) && isdigit((unsigned char)p[3]) &&
		!isdigit((unsigned char)p[4]))) {
		if (*p != ',')
			ip++;
		p++;
	}
	out->has_dot = 0;
	if (*p == '.' && isdigit((unsigned char)p[1])) {
		out->has_dot = 1;
		p++;
		while (isdigit((unsigned char)*p)) {
			fp++;
			p++;
		}
	}
	if (ip > 19 || fp > 18) {
		S_err(c, start, "a number of %zu digits: beyond what is read exactly", ip + fp);
		return S_FAIL;
	}
	if (strncasecmp(p, "e+", 2) == 0 || strncasecmp(p, "e-", 2) == 0) {
		S_err(c, start, "a number with an exponent: not read");
		return S_FAIL;
	}
	out->s = start;
	out->n = (size_t)(p - start);
	*pp = p;
	return S_OK;
}

static int S_int(S_ctx *c, const S_num *x, int64_t *v)
{
	const char *why;

	if (x->has_dot) {
		S_err(c, x->s, "%.*s: expected a whole number", (int)x->n, x->s);
		return S_FAIL;
	}
	if (gs_logimport_decimal_bytes(x->s, x->n, 1, v, &why) != 0) {
		S_err(c, x->s, "%.*s: %s", (int)x->n, x->s, why);
		return S_FAIL;
	}
	return S_OK;
}

static int S_scale(S_ctx *c, const S_num *x, uint64_t mult, int64_t *v)
{
	const char *why;

	if (gs_logimport_decimal_bytes(x->s, x->n, mult, v, &why) != 0) {
		S_err(c, x->s, "%.*s: %s", (int)x->n, x->s, why);
		return S_FAIL;
	}
	return S_OK;
}

/* A unit after a number: returns its multiplier, 0 for none there. */
typedef struct {
	const char *word;
	uint64_t mult;
} S_unit;

static uint64_t S_unit_at(const char **pp, const S_unit *units)
{
	const char *p = *pp;
	size_t i, n;

	S_blanks(&p);
	for (i = 0; units[i].word; i++) {
		n = strlen(units[i].word);
		if (strncmp(p, units[i].word, n) == 0 && !isalpha((unsigned char)p[n])) {
			*pp = p + n;
			return units[i].mult;
		}
	}
	return 0;
}

/* format_size of c10's CUDA caching allocator: bytes, KiB, MiB, GiB (binary). */
static const S_unit S_torch_units[] = {
	{ "GiB", GIB }, { "MiB", MIB }, { "KiB", KIB }, { "bytes", 1 }, { "B", 1 }, { NULL, 0 }
};

/* A size: number and binary unit. as_written spans both. */
static int S_size(S_ctx *c, const char **pp, const S_unit *units, int64_t *v,
		  const char **aw, size_t *aw_len)
{
	const char *p = *pp;
	uint64_t mult;
	S_num x;
	int r = S_number(c, &p, 0, &x);

	if (r != S_OK)
		return r;
	mult = S_unit_at(&p, units);
	if (!mult)
		return *p ? S_NO : S_MORE;
	if (S_scale(c, &x, mult, v) != S_OK)
		return S_FAIL;
	*aw = x.s;
	*aw_len = (size_t)(p - x.s);
	*pp = p;
	return S_OK;
}

static void S_fig_size(S_ctx *c, const char *name, int64_t device, int64_t v, const char *aw,
		       size_t aw_len, const char *note)
{
	S_fig f;

	memset(&f, 0, sizeof(f));
	f.name = name;
	f.device = device;
	f.unit = GS_LU_BYTES;
	f.is_int = 1;
	f.value = v;
	f.aw = aw;
	f.aw_len = aw_len;
	f.note = note;
	S_add_fig(c, &f);
}

static void S_fig_int(S_ctx *c, const char *name, int64_t device, gs_log_unit unit, int64_t v,
		      const char *aw, size_t aw_len, int nosplit)
{
	S_fig f;

	memset(&f, 0, sizeof(f));
	f.name = name;
	f.device = device;
	f.unit = unit;
	f.is_int = 1;
	f.value = v;
	f.aw = aw;
	f.aw_len = aw_len;
	f.nosplit = nosplit;
	S_add_fig(c, &f);
}

static void S_fig_dec(S_ctx *c, const char *name, int64_t device, gs_log_unit unit,
		      const S_num *x, const char *aw, size_t aw_len)
{
	S_fig f;

	memset(&f, 0, sizeof(f));
	f.name = name;
	f.device = device;
	f.unit = unit;
	f.dec = x->s;
	f.dec_len = x->n;
	f.aw = aw;
	f.aw_len = aw_len;
	S_add_fig(c, &f);
}

/* ---- PyTorch out-of-memory messages ---- */

static const char S_note_torch[] =
	"printed by format_size with 2 decimals: within half a unit of the last digit";

/*
 * One message at p ("CUDA out of memory." found there). Every wording
 * since 1.0 (docs/formats.md §3.2).
 */
static int S_oom(S_ctx *c, const char *p, int64_t force_device)
{
	const char *q = p, *aw, *msg_start = p, *exc = NULL;
	const char *aw_q = NULL, *aw_t = NULL, *aw_f = NULL, *aw_a = NULL, *aw_r = NULL, *aw_u = NULL;
	size_t n, n_q = 0, n_t = 0, n_f = 0, n_a = 0, n_r = 0, n_u = 0;
	int64_t req, gpu, total, freeb, alloc, reserved = 0, unalloc = 0, v;
	int r, form = 0; /* 1 cached (<=1.3), 2 reserved in total (1.4-2.0), 3 capacty (2.1), 4 capacity (2.2+) */
	int has_reserved = 0, has_unalloc = 0;
	const char *version;
	gs_logphase *ph;
	S_num x;
	static const char *const excs[] = { "torch.cuda.OutOfMemoryError: ",
					    "torch.OutOfMemoryError: ", "RuntimeError: ", NULL };
	size_t i;
	char *err;

	for (i = 0; excs[i]; i++) {
		size_t el = strlen(excs[i]);
		if ((size_t)(p - c->text) >= el && memcmp(p - el, excs[i], el) == 0) {
			exc = excs[i];
			msg_start = p - el;
		}
	}
	if ((r = S_lit(&q, "CUDA out of memory. Tried to allocate ")) != S_OK)
		return r == S_MORE ? S_MORE : S_NO;
	if ((r = S_size(c, &q, S_torch_units, &req, &aw_q, &n_q)) != S_OK)
		return r;
	S_blanks(&q);
	if (*q == '(') {
		/* until 2.0: (GPU N; T total capacity; A already allocated; F free; R cached|reserved...) */
		q++;
		if ((r = S_lit(&q, "GPU ")) != S_OK || (r = S_number(c, &q, 0, &x)) != S_OK)
			goto bad;
		if (S_int(c, &x, &gpu) != S_OK)
			return S_FAIL;
		if ((r = S_lit(&q, "; ")) != S_OK ||
		    (r = S_size(c, &q, S_torch_units, &total, &aw_t, &n_t)) != S_OK ||
		    (r = S_lit(&q, " total capacity; ")) != S_OK ||
		    (r = S_size(c, &q, S_torch_units, &alloc, &aw_a, &n_a)) != S_OK ||
		    (r = S_lit(&q, " already allocated; ")) != S_OK ||
		    (r = S_size(c, &q, S_torch_units, &freeb, &aw_f, &n_f)) != S_OK ||
		    (r = S_lit(&q, " free; ")) != S_OK ||
		    (r = S_size(c, &q, S_torch_units, &reserved, &aw_r, &n_r)) != S_OK)
			goto bad;
		has_reserved = 1;
		S_blanks(&q);
		if ((r = S_lit(&q, "cached)")) == S_OK)
			form = 1;
		else if (r == S_NO && (r = S_lit(&q, "reserved in total by PyTorch)")) == S_OK)
			form = 2;
		else
			goto bad;
	} else {
		/* 2.1 on: . GPU N has a total capac(i)ty of T of which F is free. ... */
		if ((r = S_lit(&q, ". GPU ")) != S_OK || (r = S_number(c, &q, 0, &x)) != S_OK)
			goto bad;
		if (S_int(c, &x, &gpu) != S_OK)
			return S_FAIL;
		if ((r = S_lit(&q, " has a total capacty of ")) == S_OK)
			form = 3;
		else if (r == S_NO && (r = S_lit(&q, " has a total capacity of ")) == S_OK)
			form = 4;
		else
			goto bad;
		if ((r = S_size(c, &q, S_torch_units, &total, &aw_t, &n_t)) != S_OK ||
		    (r = S_lit(&q, " of which ")) != S_OK ||
		    (r = S_size(c, &q, S_torch_units, &freeb, &aw_f, &n_f)) != S_OK ||
		    (r = S_lit(&q, " is free. ")) != S_OK)
			goto bad;
		for (;;) {
			const char *s = q;
			/* NVML's figure per process: kept, never decides */
			if ((r = S_lit(&s, "Process ")) == S_OK) {
				const char *pid;
				if ((r = S_number(c, &s, 0, &x)) != S_OK)
					goto bad;
				pid = x.s;
				(void)pid;
				if ((r = S_lit(&s, " has ")) != S_OK || (r = S_number(c, &s, 0, &x)) != S_OK)
					goto bad;
				{
					uint64_t mult = S_unit_at(&s, S_torch_units);
					const char *why, *unit_end = s;
					if (!mult) {
						r = *s ? S_NO : S_MORE;
						goto bad;
					}
					if ((r = S_lit(&s, " memory in use. ")) != S_OK)
						goto bad;
					if (gs_logimport_decimal_bytes(x.s, x.n, mult, &v, &why) != 0) {
						/* NVML's garbage (17179869184.00 GiB): kept as printed */
						S_fig f;
						memset(&f, 0, sizeof(f));
						f.name = "process_memory_nvml";
						f.device = force_device >= 0 ? force_device : gpu;
						f.unit = GS_LU_AS_PRINTED;
						f.dec = x.s;
						f.dec_len = x.n;
						f.aw = x.s;
						f.aw_len = (size_t)(unit_end - x.s);
						f.note = "NVML's figure for one process, beyond 2^63 - 1 bytes: "
							 "kept as printed, never decides";
						f.nosplit = 1;
						S_add_fig(c, &f);
						q = s;
						continue;
					}
				}
				{
					S_fig f;
					memset(&f, 0, sizeof(f));
					f.name = "process_memory_nvml";
					f.device = force_device >= 0 ? force_device : gpu;
					f.unit = GS_LU_BYTES;
					f.is_int = 1;
					f.value = v;
					f.aw = q;
					f.aw_len = (size_t)(s - q);
					f.note = "NVML's figure for one process: kept, never decides "
						 "(it is known to be wrong at times)";
					f.nosplit = 1;
					S_add_fig(c, &f);
				}
				q = s;
				continue;
			}
			if (r == S_MORE)
				goto bad;
			s = q;
			if ((r = S_lit(&s, "Including non-PyTorch memory, this process has ")) == S_OK) {
				if ((r = S_size(c, &s, S_torch_units, &v, &aw, &n)) != S_OK ||
				    (r = S_lit(&s, " memory in use. ")) != S_OK)
					goto bad;
				S_fig_size(c, "process_memory", force_device >= 0 ? force_device : gpu,
					   v, aw, n, "this process's use, PyTorch's and not (NVML)");
				q = s;
				continue;
			}
			if (r == S_MORE)
				goto bad;
			break;
		}
		if ((r = S_lit(&q, "Of the allocated memory ")) != S_OK ||
		    (r = S_size(c, &q, S_torch_units, &alloc, &aw_a, &n_a)) != S_OK ||
		    (r = S_lit(&q, " is allocated by PyTorch, ")) != S_OK)
			goto bad;
		if ((r = S_lit(&q, "with ")) == S_OK) {
			if ((r = S_size(c, &q, S_torch_units, &v, &aw, &n)) != S_OK ||
			    (r = S_lit(&q, " allocated in private pools (e.g., CUDA Graphs), ")) != S_OK)
				goto bad;
			S_fig_size(c, "allocated_private_pools", force_device >= 0 ? force_device : gpu,
				   v, aw, n, S_note_torch);
		} else if (r == S_MORE) {
			goto bad;
		}
		if ((r = S_lit(&q, "and ")) != S_OK ||
		    (r = S_size(c, &q, S_torch_units, &unalloc, &aw_u, &n_u)) != S_OK ||
		    (r = S_lit(&q, " is reserved by PyTorch but unallocated.")) != S_OK)
			goto bad;
		has_unalloc = 1;
	}
	if (force_device >= 0)
		gpu = force_device;
	S_total(c, gpu, total, aw_t, n_t);
	if (c->errors)
		return S_FAIL;
	S_fig_size(c, "oom_request", gpu, req, aw_q, n_q, S_note_torch);
	S_fig_size(c, "device_total", gpu, total, aw_t, n_t, S_note_torch);
	S_fig_size(c, "device_free", gpu, freeb, aw_f, n_f, S_note_torch);
	S_fig_size(c, "allocated", gpu, alloc, aw_a, n_a, S_note_torch);
	if (has_reserved)
		S_fig_size(c, form == 1 ? "cached" : "reserved", gpu, reserved, aw_r, n_r,
			   form == 1 ? "\"cached\" until 1.3: the caching allocator's reserved bytes"
				     : S_note_torch);
	if (has_unalloc) {
		S_fig_size(c, "reserved_unallocated", gpu, unalloc, aw_u, n_u, S_note_torch);
		if (__builtin_add_overflow(alloc, unalloc, &reserved)) {
			S_err(c, aw_u, "allocated plus unallocated is beyond range");
			return S_FAIL;
		}
	}
	if (freeb > total) {
		S_err(c, aw_f, "free (%.*s) above the total (%.*s)", (int)n_f, aw_f, (int)n_t, aw_t);
		return S_FAIL;
	}
	err = gs_xasprintf("%s", msg_start);
	/* the message ends with its sentence; a hint after it is kept too */
	ph = S_add_phase(c, c->o && c->o->phase ? c->o->phase : "unknown", gpu, 1, err);
	free(err);
	if (ph) {
		ph->alloc_end.has = 1;
		ph->alloc_end.v = (uint64_t)alloc;
		ph->reserved_end.has = 1;
		ph->reserved_end.v = (uint64_t)reserved;
		ph->used_end.has = 1;
		ph->used_end.v = (uint64_t)(total - freeb);
	}
	switch (form) {
	case 1: version = "<=1.3"; break;
	case 2: version = exc && strcmp(exc, "RuntimeError: ") != 0 ? "1.13-2.0" : "1.4-2.0"; break;
	case 3: version = "2.1"; break;
	default: version = ">=2.2"; break;
	}
	if (!c->li->version) {
		c->li->version = gs_xstrdup(version);
		c->li->version_line = c->line;
	} else if (strcmp(c->li->version, version) != 0) {
		S_err(c, p, "a message in the wording of PyTorch %s, but line %zu is in the "
		      "wording of %s: two versions in one log", version, c->li->version_line,
		      c->li->version);
		return S_FAIL;
	}
	return S_OK;
bad:
	if (r == S_MORE)
		return S_MORE;
	if (r == S_FAIL)
		return S_FAIL;
	S_err(c, q, "an out-of-memory message in a wording this reader does not know");
	return S_FAIL;
}

static int S_line_oom(S_ctx *c)
{
	const char *p = strstr(c->text, "CUDA out of memory.");

	if (!p) {
		/* the message's start alone, wrapped before its period */
		size_t n = strlen(c->text);
		static const char head[] = "CUDA out of memory.";
		size_t k;
		for (k = n < sizeof(head) - 1 ? n : sizeof(head) - 2; k >= 4; k--)
			if (memcmp(c->text + n - k, head, k) == 0)
				return S_MORE;
		return S_NO;
	}
	return S_oom(c, p, -1);
}

/* ---- vLLM ---- */

static const S_unit S_gib_units[] = { { "GiB", GIB }, { NULL, 0 } };
static const S_unit S_gb_as_gib[] = { { "GiB", GIB }, { "GB", GIB }, { NULL, 0 } };
static const char S_note_gb[] =
	"labelled GB but computed in GiB (bytes / 2^30) by vLLM: read as GiB";
static const char S_note_2d[] = "printed with 2 decimals: within 0.005 GiB";

/* The rank a process prefix names; sets c->prefix. Returns text after it. */
static const char *S_vllm_prefix(S_ctx *c, const char *t)
{
	const char *p = t, *close, *name, *tp;
	size_t i, n;

	free(c->prefix);
	c->prefix = NULL;
	c->device = 0;
	S_blanks(&p);
	if (*p != '(')
		return t;
	close = strchr(p, ')');
	if (!close || close - p > 200 || !memmem(p, (size_t)(close - p), " pid=", 5))
		return t;
	name = p + 1;
	n = (size_t)(close - name);
	c->prefix = gs_xasprintf("%.*s", (int)n, name);
	tp = memmem(name, n, "_TP", 3);
	if (tp && isdigit((unsigned char)tp[3])) {
		c->device = strtol(tp + 3, NULL, 10);
	} else if (strncmp(name, "EngineCore_DP", 13) == 0 && isdigit((unsigned char)name[13])) {
		c->device = strtol(name + 13, NULL, 10);
	} else if (strncmp(name, "VllmWorkerProcess", 17) == 0 ||
		   strncmp(name, "RayWorkerWrapper", 16) == 0) {
		/* the log gives no rank: numbered 1, 2, ... as their pids first appear */
		for (i = 0; i < c->nworkers; i++)
			if (strcmp(c->workers[i], c->prefix) == 0)
				break;
		if (i == c->nworkers) {
			c->workers = gs_xrealloc(c->workers, (c->nworkers + 1) * sizeof(*c->workers));
			c->workers[c->nworkers++] = gs_xstrdup(c->prefix);
		}
		c->device = (int64_t)i + 1;
	}
	return close + 1;
}

/* "X GiB" (or mislabelled GB) after the literal at p; figure name. */
static int S_vllm_size_after(S_ctx *c, const char *t, const char *lit, const char *name,
			     const S_unit *units, const char *note)
{
	const char *p = strstr(t, lit), *aw;
	int64_t v;
	size_t n;
	int r;

	if (!p)
		return S_NO;
	p += strlen(lit);
	r = S_size(c, &p, units, &v, &aw, &n);
	if (r != S_OK)
		return r;
	if (units == S_gb_as_gib && memmem(aw, n, "GiB", 3))
		note = S_note_2d;
	S_fig_size(c, name, c->device, v, aw, n, note);
	return S_OK;
}

static void S_vllm_config(S_ctx *c, const char *p)
{
	static const struct {
		const char *key, *name;
	} keys[] = {
		{ "model", "model" },
		{ "dtype", "dtype" },
		{ "max_seq_len", "max_model_len" },
		{ "tensor_parallel_size", "tensor_parallel_size" },
		{ "pipeline_parallel_size", "pipeline_parallel_size" },
		{ "quantization", "quantization" },
		{ "kv_cache_dtype", "kv_cache_dtype" },
		{ "block_size", "block_size" },
		{ "gpu_memory_utilization", "gpu_memory_utilization" },
		{ NULL, NULL }
	};
	while (*p) {
		const char *k = p, *v, *e;
		size_t kn, i;
		int depth = 0;
		while (*p == '_' || isalnum((unsigned char)*p))
			p++;
		kn = (size_t)(p - k);
		if (*p != '=' || kn == 0) {
			/* not key=value: skip to the next ", " */
			while (*p && !(p[0] == ',' && p[1] == ' '))
				p++;
			if (*p)
				p += 2;
			continue;
		}
		v = ++p;
		if (*p == '\'' || *p == '"') {
			char qc = *p++;
			v = p;
			while (*p && *p != qc)
				p++;
			e = p;
			if (*p)
				p++;
		} else {
			while (*p && !(depth == 0 && p[0] == ',' && (p[1] == ' ' || !p[1])) &&
			       !(depth == 0 && *p == ')')) {
				if (*p == '(' || *p == '[' || *p == '{')
					depth++;
				else if ((*p == ')' || *p == ']' || *p == '}') && depth > 0)
					depth--;
				p++;
			}
			e = p;
		}
		for (i = 0; keys[i].key; i++) {
			if (strlen(keys[i].key) != kn || memcmp(keys[i].key, k, kn) != 0)
				continue;
			if (strcmp(keys[i].key, "dtype") == 0 && e - v > 6 &&
			    memcmp(v, "torch.", 6) == 0)
				v += 6;
			if (e > v && !(e - v == 4 && memcmp(v, "None", 4) == 0))
				S_add_setting(c, keys[i].name, v, (size_t)(e - v));
		}
		while (*p == ',' || *p == ' ' || *p == ')')
			p++;
	}
}

/* key=value items of the profiling results (0.6.4 and 0.6.5 forms). */
static int S_vllm_kv_items(S_ctx *c, const char *t)
{
	static const struct {
		const char *key, *name;
		int kind;   /* 0 size, 1 fraction setting, 2 seconds, 3 device total */
	} keys[] = {
		{ "total_gpu_memory=", "total_gpu_memory", 3 },
		{ "initial_memory_usage=", "initial_memory_usage", 0 },
		{ "peak_torch_memory=", "peak_torch_memory", 0 },
		{ "memory_usage_post_profile=", "memory_usage_post_profile", 0 },
		{ "non_torch_memory=", "non_torch_memory", 0 },
		{ "kv_cache_size=", "kv_cache_memory", 0 },
		{ "gpu_memory_utilization=", "gpu_memory_utilization", 1 },
		{ "duration=", "profile_seconds", 2 },
		{ NULL, NULL, 0 }
	};
	size_t i;
	int any = 0;

	for (i = 0; keys[i].key; i++) {
		const char *p = strstr(t, keys[i].key), *aw;
		int64_t v;
		size_t n;
		S_num x;
		int r;
		if (!p || (p > t && (isalnum((unsigned char)p[-1]) || p[-1] == '_')))
			continue;
		p += strlen(keys[i].key);
		if (keys[i].kind == 1 || keys[i].kind == 2) {
			if ((r = S_number(c, &p, 0, &x)) != S_OK)
				return r == S_FAIL ? S_FAIL : S_NO;
			if (keys[i].kind == 1)
				S_add_setting(c, keys[i].name, x.s, x.n);
			else
				S_fig_dec(c, keys[i].name, c->device, GS_LU_SECONDS, &x, x.s, x.n);
			any = 1;
			continue;
		}
		r = S_size(c, &p, S_gib_units, &v, &aw, &n);
		if (r == S_FAIL)
			return S_FAIL;
		if (r != S_OK)
			continue;
		if (keys[i].kind == 3)
			S_total(c, c->device, v, aw, n);
		S_fig_size(c, keys[i].name, c->device, v, aw, n, S_note_2d);
		any = 1;
	}
	return any ? S_OK : S_NO;
}

static int S_vllm_failure(S_ctx *c, const char *msg)
{
	return S_add_phase(c, "kv_cache_init", c->device, 1, msg) ? S_OK : S_NO;
}

static int S_line_vllm(S_ctx *c)
{
	const char *t = S_vllm_prefix(c, c->text), *p, *aw;
	int64_t v;
	size_t n;
	S_num x;
	int r, any = 0;

	/* the version and the engine configuration */
	if ((p = strstr(t, "Initializing a V1 LLM engine (v")) ||
	    (p = strstr(t, "Initializing an LLM engine (v"))) {
		const char *vs = strstr(p, "(v") + 2, *ve = strchr(vs, ')');
		if (ve && ve > vs && ve - vs < 64) {
			if (c->li->version && c->li->run_lines &&
			    (strlen(c->li->version) != (size_t)(ve - vs) ||
			     memcmp(c->li->version, vs, (size_t)(ve - vs)) != 0)) {
				S_err(c, vs, "vLLM %.*s here, but line %zu says %s: two versions in one log",
				      (int)(ve - vs), vs, c->li->version_line, c->li->version);
				return S_FAIL;
			}
			if (!c->li->version) {
				c->li->version = gs_xasprintf("%.*s", (int)(ve - vs), vs);
				c->li->version_line = c->line;
			}
		}
	}
	if ((p = strstr(t, "engine with config: ")) || (p = strstr(t, "engine (v"))) {
		const char *cfg = strstr(p, "with config: ");
		if (cfg) {
			S_vllm_config(c, cfg + strlen("with config: "));
			any = 1;
		}
	}
	/* V0 block counts, V1's first form */
	if ((p = strstr(t, "GPU blocks: ")) || (p = strstr(t, "CUDA blocks: "))) {
		p = strchr(p, ':') + 1;
		if ((r = S_number(c, &p, 1, &x)) == S_FAIL)
			return S_FAIL;
		if (r == S_OK) {
			if (S_int(c, &x, &v) != S_OK)
				return S_FAIL;
			S_fig_int(c, "kv_cache_blocks", c->device, GS_LU_BLOCKS, v, x.s, x.n, 0);
			any = 1;
			if ((p = strstr(p, "CPU blocks: "))) {
				p += strlen("CPU blocks: ");
				if ((r = S_number(c, &p, 1, &x)) == S_FAIL)
					return S_FAIL;
				if (r == S_OK) {
					if (S_int(c, &x, &v) != S_OK)
						return S_FAIL;
					S_fig_int(c, "cpu_blocks", c->device, GS_LU_BLOCKS, v, x.s, x.n, 0);
				}
			}
		}
	}
	/* weights */
	if ((p = strstr(t, "Loading model weights took ")) || (p = strstr(t, "Model loading took "))) {
		p = strstr(p, "took ") + 5;
		if ((r = S_size(c, &p, S_gb_as_gib, &v, &aw, &n)) == S_FAIL)
			return S_FAIL;
		if (r == S_MORE)
			return S_MORE;
		if (r == S_OK) {
			S_fig_size(c, "weights", c->device, v, aw, n,
				   memmem(aw, n, "GiB", 3) ? S_note_2d : S_note_gb);
			any = 1;
			S_lit(&p, " memory");
			if (S_lit(&p, " and ") == S_OK && S_number(c, &p, 0, &x) == S_OK &&
			    S_lit(&p, " seconds") == S_OK)
				S_fig_dec(c, "load_seconds", c->device, GS_LU_SECONDS, &x, x.s, x.n);
		}
	}
	/* V0 profiling, key=value forms */
	if (strstr(t, "total_gpu_memory=") || strstr(t, "kv_cache_size=") ||
	    strstr(t, "peak_torch_memory=") || strstr(t, "non_torch_memory=")) {
		if ((r = S_vllm_kv_items(c, t)) == S_FAIL)
			return S_FAIL;
		any |= r == S_OK;
	}
	/* V0 sentence form */
	if ((p = strstr(t, "can use total_gpu_memory ("))) {
		p += strlen("can use total_gpu_memory (");
		if ((r = S_size(c, &p, S_gib_units, &v, &aw, &n)) == S_FAIL)
			return S_FAIL;
		if (r == S_OK) {
			S_total(c, c->device, v, aw, n);
			S_fig_size(c, "total_gpu_memory", c->device, v, aw, n, S_note_2d);
			any = 1;
			if (S_lit(&p, ") x gpu_memory_utilization (") == S_OK &&
			    S_number(c, &p, 0, &x) == S_OK) {
				S_add_setting(c, "gpu_memory_utilization", x.s, x.n);
				if (S_lit(&p, ") = ") == S_OK &&
				    S_size(c, &p, S_gib_units, &v, &aw, &n) == S_OK)
					S_fig_size(c, "usable_memory", c->device, v, aw, n, S_note_2d);
			}
		}
	}
	{
		static const struct {
			const char *lit, *name;
		} sent[] = {
			{ "model weights take ", "weights" },
			{ "non_torch_memory takes ", "non_torch_memory" },
			{ "PyTorch activation peak memory takes ", "activation_peak" },
			{ "the rest of the memory reserved for KV Cache is ", "kv_cache_memory" },
			/* V1 DEBUG profiling line */
			{ "Total non KV cache memory: ", "non_kv_cache_memory" },
			{ "torch peak memory increase: ", "activation_peak" },
			{ "non-torch forward increase memory: ", "non_torch_memory" },
			{ "weights memory: ", "weights" },
			/* V1 capacity */
			{ "Available KV cache memory: ", "kv_cache_memory" },
			{ NULL, NULL }
		};
		size_t i;
		for (i = 0; sent[i].lit; i++) {
			r = S_vllm_size_after(c, t, sent[i].lit, sent[i].name, S_gib_units, S_note_2d);
			if (r == S_FAIL)
				return S_FAIL;
			any |= r == S_OK;
		}
	}
	if ((p = strstr(t, "Memory profiling takes "))) {
		p += strlen("Memory profiling takes ");
		if ((r = S_number(c, &p, 0, &x)) == S_FAIL)
			return S_FAIL;
		if (r == S_OK && S_lit(&p, " seconds") == S_OK) {
			S_fig_dec(c, "profile_seconds", c->device, GS_LU_SECONDS, &x, x.s, x.n);
			any = 1;
		}
	}
	/* V1 ledger: Free memory on device (F/T GiB) on startup. Desired ... (u, R GiB). Actual usage is ... */
	if ((p = strstr(t, "Free memory on device ("))) {
		const char *q = p + strlen("Free memory on device (");
		int64_t fr, tot;
		const char *aw_f;
		size_t n_f;
		S_num xf;
		if ((r = S_number(c, &q, 0, &xf)) == S_FAIL)
			return S_FAIL;
		if (r == S_OK && S_lit(&q, "/") == S_OK && S_number(c, &q, 0, &x) == S_OK &&
		    S_lit(&q, " GiB) on startup") == S_OK) {
			if (S_scale(c, &xf, GIB, &fr) != S_OK || S_scale(c, &x, GIB, &tot) != S_OK)
				return S_FAIL;
			aw_f = xf.s;
			n_f = (size_t)(x.s + x.n - xf.s);
			S_total(c, c->device, tot, x.s, x.n);
			S_free_at_start(c, c->device, fr, aw_f, n_f);
			S_fig_size(c, "total_gpu_memory", c->device, tot, x.s, x.n, S_note_2d);
			S_fig_size(c, "free_at_startup", c->device, fr, xf.s, xf.n, S_note_2d);
			any = 1;
			if ((p = strstr(q, "GPU memory utilization ("))) {
				q = p + strlen("GPU memory utilization (");
				if (S_number(c, &q, 0, &x) == S_OK) {
					S_add_setting(c, "gpu_memory_utilization", x.s, x.n);
					if (S_lit(&q, ", ") == S_OK &&
					    S_size(c, &q, S_gib_units, &v, &aw, &n) == S_OK)
						S_fig_size(c, "usable_memory", c->device, v, aw, n, S_note_2d);
				}
			} else if ((p = strstr(q, "utilization is ("))) {
				q = p + strlen("utilization is (");
				if (S_number(c, &q, 0, &x) == S_OK) {
					S_add_setting(c, "gpu_memory_utilization", x.s, x.n);
					if (S_lit(&q, ", ") == S_OK &&
					    S_size(c, &q, S_gib_units, &v, &aw, &n) == S_OK)
						S_fig_size(c, "usable_memory", c->device, v, aw, n, S_note_2d);
				}
			}
			if (strstr(t, "is less than desired GPU memory utilization"))
				S_vllm_failure(c, t);
		}
	}
	if ((p = strstr(t, "Actual usage is "))) {
		static const struct {
			const char *after, *name;
		} led[] = {
			{ " for weight", "weights" },
			{ " for peak activation", "activation_peak" },
			{ " for non-torch memory", "non_torch_memory" },
			{ " non-torch memory", "non_torch_memory" },
			{ " for CUDAGraph memory", "cuda_graph_memory" },
			{ NULL, NULL }
		};
		const char *q = p + strlen("Actual usage is ");
		while (*q) {
			size_t i;
			S_blanks(&q);
			if (S_lit(&q, "and ") == S_OK)
				continue;
			if ((r = S_size(c, &q, S_gib_units, &v, &aw, &n)) == S_FAIL)
				return S_FAIL;
			if (r != S_OK)
				break;
			for (i = 0; led[i].after; i++) {
				const char *s = q;
				if (S_lit(&s, led[i].after) == S_OK) {
					S_fig_size(c, led[i].name, c->device, v, aw, n,
						   strcmp(led[i].name, "cuda_graph_memory") == 0
							   ? "as vLLM's start-up ledger states it"
							   : S_note_2d);
					q = s;
					any = 1;
					break;
				}
			}
			if (!led[i].after)
				break;
			while (*q == ',' || *q == '.' || *q == ' ')
				q++;
		}
	}
	if ((p = strstr(t, "Graph capturing finished in "))) {
		const char *q = strstr(p, ", took ");
		if (q) {
			q += strlen(", took ");
			if ((r = S_size(c, &q, S_gib_units, &v, &aw, &n)) == S_FAIL)
				return S_FAIL;
			if (r == S_OK) {
				S_fig_size(c, "cuda_graph_memory", c->device, v, aw, n,
					   "measured after capture (an actual, not an estimate)");
				any = 1;
			}
		}
	}
	if ((p = strstr(t, "Estimated CUDA graph memory: "))) {
		const char *q = p + strlen("Estimated CUDA graph memory: ");
		if ((r = S_size(c, &q, S_gib_units, &v, &aw, &n)) == S_FAIL)
			return S_FAIL;
		if (r == S_OK) {
			S_fig f;
			memset(&f, 0, sizeof(f));
			f.name = "cuda_graph_memory_estimate";
			f.device = c->device;
			f.unit = GS_LU_BYTES;
			f.is_int = 1;
			f.value = v;
			f.aw = aw;
			f.aw_len = n;
			f.note = "vLLM's estimate before capture";
			f.estimate = 1;
			S_add_fig(c, &f);
			any = 1;
		}
	}
	/* V1 capacity in tokens, concurrency */
	if ((p = strstr(t, "GPU KV cache size: "))) {
		p += strlen("GPU KV cache size: ");
		if ((r = S_number(c, &p, 1, &x)) == S_FAIL)
			return S_FAIL;
		if (r == S_OK && S_lit(&p, " tokens") == S_OK) {
			if (S_int(c, &x, &v) != S_OK)
				return S_FAIL;
			S_fig_int(c, "kv_cache_tokens", c->device, GS_LU_TOKENS, v, x.s,
				  (size_t)(p - x.s), 0);
			any = 1;
		}
	}
	if ((p = strstr(t, "Maximum concurrency for "))) {
		const char *ms;
		p += strlen("Maximum concurrency for ");
		if ((r = S_number(c, &p, 1, &x)) == S_FAIL)
			return S_FAIL;
		if (r == S_OK) {
			char buf[32];
			size_t k = 0, i;
			if (S_int(c, &x, &v) != S_OK)
				return S_FAIL;
			for (i = 0; i < x.n && k + 1 < sizeof(buf); i++)
				if (x.s[i] != ',')
					buf[k++] = x.s[i];
			buf[k] = '\0';
			ms = x.s;
			(void)ms;
			if (S_lit(&p, " tokens per request: ") == S_OK) {
				S_add_setting(c, "max_model_len", buf, k);
				if ((r = S_number(c, &p, 0, &x)) == S_FAIL)
					return S_FAIL;
				if (r == S_OK) {
					const char *e = p;
					if (*e == 'x')
						e++;
					else if (!strncmp(e, "\xc3\x97", 2))
						e += 2;
					S_fig_dec(c, "max_concurrency", c->device, GS_LU_TIMES, &x, x.s,
						  (size_t)(e - x.s));
				}
				any = 1;
			}
		}
	}
	/* errors */
	if ((p = strstr(t, "max seq len ("))) {
		const char *q = p + strlen("max seq len (");
		S_num xl;
		if ((r = S_number(c, &q, 1, &xl)) == S_FAIL)
			return S_FAIL;
		if (r == S_OK && S_lit(&q, ")") == S_OK) {
			char buf[32];
			size_t k = 0, i;
			for (i = 0; i < xl.n && k + 1 < sizeof(buf); i++)
				if (xl.s[i] != ',')
					buf[k++] = xl.s[i];
			if (strstr(q, "is larger than the maximum number of tokens that can be stored in KV cache (")) {
				S_add_setting(c, "max_model_len", buf, k);
				q = strstr(q, "stored in KV cache (") + strlen("stored in KV cache (");
				if ((r = S_number(c, &q, 1, &x)) == S_FAIL)
					return S_FAIL;
				if (r == S_OK) {
					if (S_int(c, &x, &v) != S_OK)
						return S_FAIL;
					S_fig_int(c, "kv_cache_tokens", c->device, GS_LU_TOKENS, v, x.s, x.n, 1);
				}
				S_vllm_failure(c, p - strlen("The model's ") >= t ? p - strlen("The model's ") : p);
				any = 1;
			} else if (strstr(q, "KV cache is needed, which is larger than the available KV cache memory (")) {
				const char *s;
				S_add_setting(c, "max_model_len", buf, k);
				s = q;
				S_lit(&s, ", (");
				if ((r = S_size(c, &s, S_gib_units, &v, &aw, &n)) == S_FAIL)
					return S_FAIL;
				if (r == S_OK)
					S_fig_size(c, "kv_cache_needed", c->device, v, aw, n, S_note_2d);
				s = strstr(q, "available KV cache memory (") + strlen("available KV cache memory (");
				if ((r = S_size(c, &s, S_gib_units, &v, &aw, &n)) == S_FAIL)
					return S_FAIL;
				if (r == S_OK) {
					S_fig f;
					memset(&f, 0, sizeof(f));
					f.name = "kv_cache_memory";
					f.device = c->device;
					f.unit = GS_LU_BYTES;
					f.is_int = 1;
					f.value = v;
					f.aw = aw;
					f.aw_len = n;
					f.note = S_note_2d;
					S_add_fig(c, &f);
				}
				if ((s = strstr(q, "estimated maximum model length is "))) {
					s += strlen("estimated maximum model length is ");
					if ((r = S_number(c, &s, 1, &x)) == S_FAIL)
						return S_FAIL;
					if (r == S_OK) {
						if (S_int(c, &x, &v) != S_OK)
							return S_FAIL;
						S_fig f;
						memset(&f, 0, sizeof(f));
						f.name = "estimated_max_model_len";
						f.device = c->device;
						f.unit = GS_LU_TOKENS;
						f.is_int = 1;
						f.value = v;
						f.aw = x.s;
						f.aw_len = x.n;
						f.note = "vLLM's estimate from the available memory";
						f.estimate = 1;
						f.nosplit = 1;
						S_add_fig(c, &f);
					}
				}
				{
					const char *m = strstr(t, "To serve at least one request");
					S_vllm_failure(c, m ? m : p);
				}
				any = 1;
			}
		}
	}
	if ((p = strstr(t, "No available memory for the cache blocks"))) {
		S_vllm_failure(c, p);
		any = 1;
	}
	return any ? S_OK : S_NO;
}

/* ---- llama.cpp ---- */

static const S_unit S_mib_units[] = { { "MiB", MIB }, { NULL, 0 } };
static const S_unit S_mb_as_mib[] = { { "MB", MIB }, { "MiB", MIB }, { NULL, 0 } };
static const char S_note_mb[] =
	"labelled MB but computed in MiB (bytes / 2^20) by llama.cpp: read as MiB";
static const char S_note_mib[] = "printed with 2 decimals: within 0.005 MiB";

/* "CUDA3" -> 3; -1 for a host buffer (CPU, CUDA_Host, ...); -2 for none. */
static int64_t S_llama_buf_device(const char *s, size_t n)
{
	static const char *const gpus[] = { "CUDA", "ROCm", "Vulkan", "SYCL", NULL };
	size_t i, k;

	for (i = 0; gpus[i]; i++) {
		k = strlen(gpus[i]);
		if (n > k && memcmp(s, gpus[i], k) == 0) {
			size_t j;
			for (j = k; j < n; j++)
				if (!isdigit((unsigned char)s[j]))
					break;
			if (j == n && n - k < 6)
				return strtol(s + k, NULL, 10);
		}
	}
	return -1;
}

static int S_line_llama(S_ctx *c)
{
	const char *t = c->text, *p, *aw;
	int64_t v;
	size_t n;
	S_num x;
	int r, any = 0;

	/* build: 4722 (1d8d1f0e) */
	if ((p = strstr(t, "build: ")) && (p == t || p[-1] == ' ' || p[-1] == ':') &&
	    isdigit((unsigned char)p[7])) {
		const char *q = p + 7, *e = q;
		while (isdigit((unsigned char)*e))
			e++;
		if (e - q < 12 && !c->li->version) {
			c->li->version = gs_xasprintf("b%.*s", (int)(e - q), q);
			c->li->version_line = c->line;
		}
	}
	/* Device 0: NVIDIA GeForce RTX 3090, compute capability 8.6 */
	if ((p = strstr(t, "Device ")) && isdigit((unsigned char)p[7]) &&
	    strstr(t, "compute capability")) {
		const char *q = p + 7, *e;
		int64_t idx;
		if (S_number(c, &q, 0, &x) == S_OK && S_int(c, &x, &idx) == S_OK &&
		    S_lit(&q, ": ") == S_OK && (e = strstr(q, ", compute capability")) && e > q) {
			gs_logdevice *dv = S_device(c, idx);
			if (dv && !dv->name) {
				dv->name = gs_xasprintf("%.*s", (int)(e - q), q);
				dv->name_line = c->line;
			}
			any = 1;
		}
	}
	/* n_ctx = 4096, n_seq_max = 8 */
	{
		static const struct {
			const char *key, *name;
		} keys[] = { { "n_ctx ", "n_ctx" }, { "n_seq_max ", "n_seq_max" },
			     { "n_batch ", "n_batch" }, { "n_ubatch ", "n_ubatch" },
			     { NULL, NULL } };
		size_t i;
		for (i = 0; keys[i].key; i++) {
			const char *q;
			if (!(p = strstr(t, ": "))) break;
			q = p + 2;
			S_blanks(&q);
			if (strncmp(q, keys[i].key, strlen(keys[i].key)) != 0)
				continue;
			q += strlen(keys[i].key);
			if (S_lit(&q, " = ") != S_OK)
				continue;
			if ((r = S_number(c, &q, 0, &x)) == S_FAIL)
				return S_FAIL;
			S_blanks(&q);
			if (r == S_OK && !*q && !x.has_dot) {
				S_add_setting(c, keys[i].name, x.s, x.n);
				any = 1;
			}
		}
	}
	/* type_k = 'q4_0', type_v = 'f16' */
	{
		static const char *const tk[] = { "type_k = '", "type_v = '", NULL };
		static const char *const tn[] = { "type_k", "type_v" };
		size_t i;
		for (i = 0; tk[i]; i++) {
			if ((p = strstr(t, tk[i]))) {
				const char *q = p + strlen(tk[i]), *e = strchr(q, '\'');
				if (e && e > q && e - q < 32) {
					S_add_setting(c, tn[i], q, (size_t)(e - q));
					any = 1;
				}
			}
		}
	}
	/* 2024/2025: <BUF> [model|KV|compute|output] buffer size = X MiB */
	if ((p = strstr(t, " buffer size = "))) {
		const char *q = p + strlen(" buffer size = "), *w1e = p, *w1, *w0e, *w0;
		const char *kind = NULL;
		int64_t dev;
		/* the word before "buffer size", and the one before it */
		w1 = w1e;
		while (w1 > t && w1[-1] != ' ' && w1[-1] != ':')
			w1--;
		w0e = w1;
		while (w0e > t && w0e[-1] == ' ')
			w0e--;
		w0 = w0e;
		while (w0 > t && w0[-1] != ' ' && w0[-1] != ':')
			w0--;
		if (w1e - w1 == 5 && memcmp(w1, "model", 5) == 0)
			kind = "model_buffer";
		else if (w1e - w1 == 2 && memcmp(w1, "KV", 2) == 0)
			kind = "kv_buffer";
		else if (w1e - w1 == 7 && memcmp(w1, "compute", 7) == 0)
			kind = "compute_buffer";
		else if (w1e - w1 == 6 && memcmp(w1, "output", 6) == 0)
			kind = "output_buffer";
		else if (w1e - w1 == 3 && memcmp(w1, "RS", 2) == 0)
			kind = "recurrent_state_buffer";
		if (kind) {
			dev = S_llama_buf_device(w0, (size_t)(w0e - w0));
		} else {
			/* llm_load_tensors: CUDA0 buffer size: the model's buffer */
			dev = S_llama_buf_device(w1, (size_t)(w1e - w1));
			kind = "model_buffer";
			w0 = w1;
			w0e = w1e;
		}
		if ((r = S_size(c, &q, S_mib_units, &v, &aw, &n)) == S_FAIL)
			return S_FAIL;
		if (r == S_OK) {
			if (dev >= 0) {
				S_fig_size(c, kind, dev, v, aw, n, S_note_mib);
			} else {
				/* a host buffer: named by its buffer */
				static const char *const host[] = { "host_model_buffer", "host_kv_buffer",
								    "host_compute_buffer",
								    "host_output_buffer" };
				const char *hn = strcmp(kind, "model_buffer") == 0     ? host[0]
						 : strcmp(kind, "kv_buffer") == 0      ? host[1]
						 : strcmp(kind, "compute_buffer") == 0 ? host[2]
										       : host[3];
				S_fig f;
				memset(&f, 0, sizeof(f));
				f.name = hn;
				f.device = -1;
				f.unit = GS_LU_BYTES;
				f.is_int = 1;
				f.value = v;
				f.aw = w0;
				f.aw_len = (size_t)(aw + n - w0);
				f.note = "host memory, on no GPU";
				S_add_fig(c, &f);
			}
			any = 1;
		}
	}
	/* KV self size = X MiB, K (f16): Y MiB, V (f16): Z MiB (2023: MB) */
	if ((p = strstr(t, "KV self size"))) {
		const char *q = p + strlen("KV self size");
		if (S_lit(&q, " = ") == S_OK) {
			if ((r = S_size(c, &q, S_mb_as_mib, &v, &aw, &n)) == S_FAIL)
				return S_FAIL;
			if (r == S_OK) {
				S_fig_size(c, "kv_self_size", -1, v, aw, n,
					   memmem(aw, n, "MiB", 3) ? "all devices together" : S_note_mb);
				any = 1;
				if (S_lit(&q, ", K (") == S_OK) {
					const char *ke = strchr(q, ')');
					if (ke && ke - q < 32) {
						S_add_setting(c, "type_k", q, (size_t)(ke - q));
						q = ke + 1;
						if (S_lit(&q, ": ") == S_OK &&
						    S_size(c, &q, S_mib_units, &v, &aw, &n) == S_OK)
							S_fig_size(c, "kv_self_k", -1, v, aw, n, "all devices together");
						if (S_lit(&q, ", V (") == S_OK && (ke = strchr(q, ')')) &&
						    ke - q < 32) {
							S_add_setting(c, "type_v", q, (size_t)(ke - q));
							q = ke + 1;
							if (S_lit(&q, ": ") == S_OK &&
							    S_size(c, &q, S_mib_units, &v, &aw, &n) == S_OK)
								S_fig_size(c, "kv_self_v", -1, v, aw, n,
									   "all devices together");
						}
					}
				}
			}
		}
	}
	/* 2023 */
	{
		static const struct {
			const char *lit, *name, *note;
		} old[] = {
			{ "mem required  = ", "host_memory_required", "host memory; labelled MB, computed in MiB" },
			{ "mem required = ", "host_memory_required", "host memory; labelled MB, computed in MiB" },
			{ "total VRAM used: ", "vram_used", "all GPUs together; labelled MB, computed in MiB" },
			{ "compute buffer total size = ", "compute_buffer_total", S_note_mb },
			{ "kv self size  = ", "kv_self_size", S_note_mb },
			{ NULL, NULL, NULL }
		};
		size_t i;
		for (i = 0; old[i].lit; i++) {
			const char *q = strstr(t, old[i].lit);
			if (!q)
				continue;
			q += strlen(old[i].lit);
			if ((r = S_size(c, &q, S_mb_as_mib, &v, &aw, &n)) == S_FAIL)
				return S_FAIL;
			if (r == S_OK) {
				S_fig_size(c, old[i].name, -1, v, aw, n, old[i].note);
				any = 1;
			}
		}
	}
	/* memory breakdown on exit:  - CUDA0 (RTX 4090):  24080 = 9436 + (14193 = 13169 + 38 + 985) + 451 */
	if ((p = strstr(t, "- ")) && (strstr(t, "memory_breakdown") || strstr(t, "memory breakdown"))) {
		const char *q = p + 2, *ne, *dn = NULL, *de = NULL;
		int64_t dev, vals[7];
		const char *aws[7];
		size_t ns[7], k = 0;
		ne = q;
		while (*ne && *ne != ' ' && *ne != ':' && *ne != '|')
			ne++;
		dev = S_llama_buf_device(q, (size_t)(ne - q));
		q = ne;
		S_blanks(&q);
		if (*q == '(') {
			dn = q + 1;
			de = strchr(dn, ')');
			q = de ? de + 1 : q;
		}
		while (*q == ':' || *q == '|' || *q == ' ')
			q++;
		while (k < 7) {
			r = S_number(c, &q, 0, &x);
			if (r == S_FAIL)
				return S_FAIL;
			if (r != S_OK)
				break;
			if (S_scale(c, &x, MIB, &vals[k]) != S_OK)
				return S_FAIL;
			aws[k] = x.s;
			ns[k] = x.n;
			k++;
			while (*q == ' ' || *q == '=' || *q == '+' || *q == '(' || *q == ')' || *q == '|')
				q++;
		}
		if (dev >= 0 && k == 7) {
			static const char *const names[] = { "device_total", "device_free_at_exit",
							      "self", "model_buffer", "context_buffer",
							      "compute_buffer", "unaccounted" };
			size_t i;
			gs_logdevice *dv = S_device(c, dev);
			if (dv && de && !dv->name) {
				dv->name = gs_xasprintf("%.*s", (int)(de - dn), dn);
				dv->name_line = c->line;
			}
			S_total(c, dev, vals[0], aws[0], ns[0]);
			for (i = 0; i < 7; i++)
				S_fig_size(c, names[i], dev, vals[i], aws[i], ns[i],
					   "MiB, whole (the breakdown's unit)");
			any = 1;
		}
	}
	/* general.name of the model */
	if ((p = strstr(t, "general.name ")) || (p = strstr(t, "general.name="))) {
		const char *q = p + strlen("general.name");
		S_blanks(&q);
		if (strncmp(q, "str", 3) == 0)
			q += 3;
		S_blanks(&q);
		if (*q == '=') {
			q++;
			S_blanks(&q);
			if (*q) {
				const char *e = q + strlen(q);
				while (e > q && e[-1] == ' ')
					e--;
				S_add_setting(c, "model", q, (size_t)(e - q));
				any = 1;
			}
		}
	}
	return any ? S_OK : S_NO;
}

/* ---- SGLang ---- */

/* SGLang divides by 1 << 30 and prints "GB" (srt/utils.py get_available_gpu_memory,
 * srt/mem_cache/memory_pool.py GB = 1024 * 1024 * 1024) */
static const char S_note_sgl[] =
	"SGLang prints GB for GiB (it divides by 2^30), with 2 decimals: within 0.005 GiB";

/* "[2025-07-29 18:14:43 TP0] " or "[... DP0 TP3 EP3] ": the rank; text after it. */
static const char *S_sglang_prefix(S_ctx *c, const char *t)
{
	const char *p = t, *close, *tp;

	c->device = 0;
	S_blanks(&p);
	if (*p != '[')
		return t;
	close = strchr(p, ']');
	if (!close || close - p > 120)
		return t;
	tp = memmem(p, (size_t)(close - p), " TP", 3);
	if (tp && isdigit((unsigned char)tp[3]))
		c->device = strtol(tp + 3, NULL, 10);
	p = close + 1;
	S_blanks(&p);
	return p;
}

/* "KEY=X GB" after lit in t: the figure name, SGLang's GiB. */
static int S_sglang_size(S_ctx *c, const char *t, const char *lit, const char *name)
{
	return S_vllm_size_after(c, t, lit, name, S_gb_as_gib, S_note_sgl);
}

/* "key=N" (an integer) after lit; a setting when set is 1, else a figure of unit u. */
static int S_sglang_int(S_ctx *c, const char *t, const char *lit, const char *name, int set,
			gs_log_unit u)
{
	const char *p = strstr(t, lit);
	int64_t v;
	S_num x;
	int r;

	if (!p)
		return S_NO;
	p += strlen(lit);
	if ((r = S_number(c, &p, 0, &x)) != S_OK)
		return r;
	if (S_int(c, &x, &v) != S_OK)
		return S_FAIL;
	if (set)
		S_add_setting(c, name, x.s, x.n);
	else
		S_fig_int(c, name, c->device, u, v, x.s, x.n, 0);
	return S_OK;
}

/* "key=word" (up to ',' or ' ', quotes dropped) after lit: a setting. */
static void S_sglang_word(S_ctx *c, const char *t, const char *lit, const char *name)
{
	const char *p = strstr(t, lit), *e;

	if (!p)
		return;
	p += strlen(lit);
	if (*p == '\'')
		p++;
	for (e = p; *e && *e != ',' && *e != ' ' && *e != '\'' && *e != ')'; e++)
		;
	/* None and auto state nothing: the engine decides, and a later line says what */
	if (e > p && !(e - p == 4 && (memcmp(p, "None", 4) == 0 || memcmp(p, "auto", 4) == 0)))
		S_add_setting(c, name, p, (size_t)(e - p));
}

/*
 * SGLang's start-up lines (srt/model_executor/model_runner.py,
 * srt/mem_cache/memory_pool.py, srt/managers/scheduler.py, the
 * server_args line). Each "GB" is SGLang's GiB.
 */
static int S_line_sglang(S_ctx *c)
{
	const char *t = S_sglang_prefix(c, c->text), *p;
	int any = 0, r = S_NO;

#define S_SGL(call)                         \
	do {                                \
		int r_ = (call);            \
		if (r_ == S_FAIL)           \
			return S_FAIL;      \
		any |= r_ == S_OK;          \
	} while (0)
	if (strstr(t, "ServerArgs(") || strstr(t, "server_args=")) {
		S_sglang_word(c, t, "model_path=", "model");
		S_sglang_word(c, t, " dtype=", "dtype");
		S_sglang_word(c, t, "kv_cache_dtype=", "kv_cache_dtype");
		S_sglang_word(c, t, "quantization=", "quantization");
		S_sglang_word(c, t, "mem_fraction_static=", "mem_fraction_static");
		S_sglang_word(c, t, "tp_size=", "tensor_parallel_size");
		S_sglang_word(c, t, "context_length=", "context_length");
		return S_OK;
	}
	if ((p = strstr(t, "Load weight begin.")))
		S_SGL(S_sglang_size(c, p, "avail mem=", "available_before_weights"));
	if ((p = strstr(t, "Load weight end."))) {
		S_sglang_word(c, p, "type=", "architecture");
		S_sglang_word(c, p, "dtype=", "dtype");
		S_SGL(S_sglang_size(c, p, "avail mem=", "available_after_weights"));
		S_SGL(S_sglang_size(c, p, "mem usage=", "weights"));
	}
	if ((p = strstr(t, "KV Cache is allocated."))) {
		S_sglang_word(c, p, "dtype: ", "kv_cache_dtype");
		S_SGL(S_sglang_int(c, p, "#tokens: ", "kv_cache_tokens", 0, GS_LU_TOKENS));
		S_SGL(S_sglang_size(c, p, " K size: ", "kv_cache_k"));
		S_SGL(S_sglang_size(c, p, " V size: ", "kv_cache_v"));
		S_SGL(S_sglang_size(c, p, "KV size: ", "kv_cache_memory"));
	}
	if ((p = strstr(t, "Memory pool end.")))
		S_SGL(S_sglang_size(c, p, "avail mem=", "available_after_kv_cache"));
	if ((p = strstr(t, "Capture cuda graph begin.")))
		S_SGL(S_sglang_size(c, p, "avail mem=", "available_before_cuda_graphs"));
	if ((p = strstr(t, "Capture cuda graph end."))) {
		S_SGL(S_sglang_size(c, p, "mem usage=", "cuda_graphs"));
		S_SGL(S_sglang_size(c, p, "avail mem=", "available_after_cuda_graphs"));
	}
	if ((p = strstr(t, "max_total_num_tokens="))) {
		S_SGL(S_sglang_int(c, p, "max_total_num_tokens=", "max_total_num_tokens", 0,
				   GS_LU_TOKENS));
		S_SGL(S_sglang_int(c, p, "chunked_prefill_size=", "chunked_prefill_size", 1, 0));
		S_SGL(S_sglang_int(c, p, "max_prefill_tokens=", "max_prefill_tokens", 1, 0));
		S_SGL(S_sglang_int(c, p, "max_running_requests=", "max_running_requests", 1, 0));
		S_SGL(S_sglang_int(c, p, "context_len=", "max_model_len", 1, 0));
		S_SGL(S_sglang_size(c, p, "available_gpu_mem=", "available_after_start"));
	}
#undef S_SGL
	(void)r;
	return any ? S_OK : S_NO;
}

/* ---- torch.cuda.memory_stats() as JSON ---- */

/* Line and column of "key" in the text (the dump has it once: duplicates are refused). */
static void S_json_pos(const char *data, size_t len, const char *key, size_t *line, int *col)
{
	size_t kl = strlen(key), i, ln = 1, ls = 0;

	*line = 0;
	*col = 0;
	for (i = 0; i + kl + 2 <= len; i++) {
		if (data[i] == '\n') {
			ln++;
			ls = i + 1;
		}
		if (data[i] == '"' && memcmp(data + i + 1, key, kl) == 0 && data[i + 1 + kl] == '"') {
			*line = ln;
			*col = (int)(i - ls) + 1;
			return;
		}
	}
}

static int S_stats(S_ctx *c, const char *data, size_t len)
{
	static const struct {
		const char *key, *name;
		int slot;   /* 1 alloc peak, 2 alloc end, 3 reserved peak, 4 reserved end, 0 figure only */
		gs_log_unit unit;
	} keys[] = {
		{ "allocated_bytes.all.peak", "allocated_peak", 1, GS_LU_BYTES },
		{ "allocated_bytes.all.current", "allocated", 2, GS_LU_BYTES },
		{ "reserved_bytes.all.peak", "reserved_peak", 3, GS_LU_BYTES },
		{ "reserved_bytes.all.current", "reserved", 4, GS_LU_BYTES },
		{ "active_bytes.all.peak", "active_peak", 0, GS_LU_BYTES },
		{ "active_bytes.all.current", "active", 0, GS_LU_BYTES },
		{ "inactive_split_bytes.all.current", "inactive_split", 0, GS_LU_BYTES },
		{ "inactive_split_bytes.all.peak", "inactive_split_peak", 0, GS_LU_BYTES },
		{ "requested_bytes.all.peak", "requested_peak", 0, GS_LU_BYTES },
		{ "requested_bytes.all.current", "requested", 0, GS_LU_BYTES },
		{ "num_ooms", "num_ooms", 0, GS_LU_COUNT },
		{ "num_alloc_retries", "num_alloc_retries", 0, GS_LU_COUNT },
		{ NULL, NULL, 0, 0 }
	};
	json_error_t je;
	json_t *root;
	gs_logphase *ph;
	int64_t dev = c->o ? c->o->device : 0;
	size_t i;
	int any = 0;
	char *lines;

	root = json_loadb(data, len, JSON_REJECT_DUPLICATES, &je);
	if (!root) {
		gs_diag_add(c->d, c->file, je.line, je.column, NULL, "not a memory_stats() dump: %s",
			    je.text);
		return S_FAIL;
	}
	if (!json_is_object(root)) {
		gs_diag_add(c->d, c->file, 1, 1, NULL,
			    "not a memory_stats() dump: expected an object of \"name\": count");
		json_decref(root);
		return S_FAIL;
	}
	c->line = 1;
	c->text = "";
	S_new_run(c);
	ph = S_add_phase(c, c->o && c->o->phase ? c->o->phase : "unknown", dev, 0, NULL);
	lines = NULL;
	for (i = 0; keys[i].key; i++) {
		json_t *v = json_object_get(root, keys[i].key);
		size_t ln;
		int col;
		json_int_t n;
		if (!v)
			continue;
		S_json_pos(data, len, keys[i].key, &ln, &col);
		if (!json_is_integer(v) || (n = json_integer_value(v)) < 0) {
			gs_diag_add(c->d, c->file, (int)ln, col, NULL,
				    "\"%s\": expected an integer >= 0", keys[i].key);
			c->errors++;
			continue;
		}
		c->line = c->last_line = ln;
		free(lines);
		lines = gs_xasprintf("\"%s\": %" PRId64, keys[i].key, (int64_t)n);
		c->text = lines;
		{
			char aw[32];
			int an = snprintf(aw, sizeof(aw), "%" PRId64, (int64_t)n);
			S_fig_int(c, keys[i].name, dev, keys[i].unit, (int64_t)n, aw, (size_t)an, 0);
			/* as_written points into aw: S_add_fig copied it */
		}
		any = 1;
		switch (keys[i].slot) {
		case 1: ph->alloc_peak.has = 1; ph->alloc_peak.v = (uint64_t)n; break;
		case 2: ph->alloc_end.has = 1; ph->alloc_end.v = (uint64_t)n; break;
		case 3: ph->reserved_peak.has = 1; ph->reserved_peak.v = (uint64_t)n; break;
		case 4: ph->reserved_end.has = 1; ph->reserved_end.v = (uint64_t)n; break;
		default: break;
		}
	}
	c->text = "";
	free(lines);
	json_decref(root);
	if (!any && !c->errors) {
		gs_diag_add(c->d, c->file, 1, 1, NULL, "not a memory_stats() dump: none of "
			    "\"allocated_bytes.all.current\", \"reserved_bytes.all.peak\", ... is there");
		return S_FAIL;
	}
	if (ph && ph->alloc_peak.has && ph->alloc_end.has && ph->alloc_peak.v < ph->alloc_end.v) {
		gs_diag_add(c->d, c->file, 1, 0, NULL, "allocated_bytes.all.peak is below "
			    "allocated_bytes.all.current");
		return S_FAIL;
	}
	if (ph && ph->reserved_peak.has && ph->reserved_end.has &&
	    ph->reserved_peak.v < ph->reserved_end.v) {
		gs_diag_add(c->d, c->file, 1, 0, NULL, "reserved_bytes.all.peak is below "
			    "reserved_bytes.all.current");
		return S_FAIL;
	}
	return c->errors ? S_FAIL : S_OK;
}

/* ---- the pass over the lines ---- */

/* The line without its CR and ANSI escape sequences, into buf (NUL-terminated). */
static size_t S_clean(const char *s, size_t n, char *buf)
{
	size_t i, k = 0;

	for (i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)s[i];
		if (ch == 0x1b) {
			if (i + 1 < n && s[i + 1] == '[') {
				i += 2;
				while (i < n && (unsigned char)s[i] >= 0x20 && (unsigned char)s[i] <= 0x3f)
					i++;
				while (i < n && (unsigned char)s[i] >= 0x20 && (unsigned char)s[i] <= 0x2f)
					i++;
				/* s[i] is the final byte (or the line ended) */
			} else if (i + 1 < n && s[i + 1] == ']') {
				/* OSC: to BEL or ESC \ */
				i += 2;
				while (i < n && s[i] != 0x07 && !(s[i] == 0x1b && i + 1 < n && s[i + 1] == '\\'))
					i++;
				if (i < n && s[i] == 0x1b)
					i++;
			} else {
				i++;
			}
			continue;
		}
		if (ch == '\r') {
			if (i + 1 == n)
				break;
			buf[k++] = ' ';   /* a terminal's carriage return (a progress bar) */
			continue;
		}
		buf[k++] = (char)ch;
	}
	while (k > 0 && (buf[k - 1] == ' ' || buf[k - 1] == '\t'))
		k--;
	buf[k] = '\0';
	return k;
}

static int S_dispatch(S_ctx *c)
{
	switch (c->kind) {
	case GS_LOG_VLLM:
		return S_line_vllm(c);
	case GS_LOG_TORCH_OOM:
		return S_line_oom(c);
	case GS_LOG_LLAMACPP:
		return S_line_llama(c);
	case GS_LOG_SGLANG:
		return S_line_sglang(c);
	default:
		return S_NO;
	}
}

static int S_cmp_fig(const void *a, const void *b)
{
	const gs_logfig *x = a, *y = b;

	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return 0;
}

/* What each reader reads, as logsniff names it. */
static const gs_sniff_kind S_sniff_of[] = { GS_SNIFF_VLLM, GS_SNIFF_TORCH_OOM, GS_SNIFF_TORCH_STATS,
					    GS_SNIFF_LLAMACPP, GS_SNIFF_SGLANG };
static const char *const S_reader_name[] = { "a vLLM start-up log", "a PyTorch out-of-memory message",
					     "a torch.cuda.memory_stats() dump", "a llama.cpp load log",
					     "an SGLang start-up log" };

/*
 * A log that is of another kind than the reader's is refused by its name,
 * at the line that shows it (document: only a Markdown document, before
 * reading). 1 when refused so.
 */
static int S_named(S_ctx *c, int document)
{
	gs_logsniff s;

	if (!gs_logsniff_text(c->data, c->len, &s) || s.kind == S_sniff_of[c->kind])
		return 0;
	if (document && s.kind != GS_SNIFF_MARKDOWN)
		return 0;
	gs_diag_add(c->d, c->file, (int)s.line, 0, NULL, "this is %s, not %s: %s", s.name,
		    S_reader_name[c->kind], s.why);
	return 1;
}

/* After the pass: keep one run, derive what the kept lines give together. */
static int S_finish(S_ctx *c)
{
	gs_logimport *li = c->li;
	size_t i, k;
	int want;

	if (li->nruns == 0) {
		if (S_named(c, 0))
			return -1;
		gs_diag_add(c->d, c->file, 0, 0, NULL, "no line of a %s log that this reader knows: "
			    "nothing to import", gs_logimport_kind_id(c->kind));
		return -1;
	}
	want = c->o && c->o->run ? c->o->run : 0;
	if (want == 0 && li->nruns > 1) {
		/* the first S_STARTS_SHOWN starts with their lines, then the count */
		gs_buf lines = GS_BUF_INIT;
		for (i = 0; i < li->nruns && i < S_STARTS_SHOWN; i++) {
			if (i)
				gs_buf_puts(&lines, ", ");
			gs_buf_u64(&lines, li->run_lines[i]);
		}
		if (li->nruns > S_STARTS_SHOWN)
			gs_buf_printf(&lines, " and %zu more", li->nruns - S_STARTS_SHOWN);
		gs_diag_add(c->d, c->file, (int)li->run_lines[1], 0, NULL,
			    "the log holds %zu starts of the engine (at lines %s): choose one with "
			    "--start N", li->nruns, lines.data);
		gs_buf_release(&lines);
		return -1;
	}
	if (want == 0)
		want = 1;
	if ((size_t)want > li->nruns) {
		gs_diag_add(c->d, c->file, 0, 0, NULL, "--start %d: the log holds %zu start%s",
			    want, li->nruns, li->nruns == 1 ? "" : "s");
		return -1;
	}
	li->run = want;
	/* drop what other runs said */
	for (i = k = 0; i < li->nfigs; i++) {
		if (li->figs[i].run == want) {
			li->figs[k++] = li->figs[i];
		} else {
			free(li->figs[i].decimal);
			free(li->figs[i].as_written);
			free(li->figs[i].text);
		}
	}
	li->nfigs = k;
	for (i = k = 0; i < li->nsettings; i++) {
		if (li->settings[i].run == want) {
			li->settings[k++] = li->settings[i];
		} else {
			free(li->settings[i].value);
			free(li->settings[i].text);
		}
	}
	li->nsettings = k;
	for (i = k = 0; i < li->nphases; i++) {
		if (li->phases[i].run == want) {
			li->phases[k++] = li->phases[i];
		} else {
			free(li->phases[i].error);
		}
	}
	li->nphases = k;
	/* (the phases added below count against the kept start's bound) */
	c->run_figs = li->nfigs;
	c->run_phases = li->nphases;
	/* vLLM: per device, the phases its figures show */
	if (c->kind == GS_LOG_VLLM) {
		size_t nd = li->ndevices;
		for (i = 0; i < nd; i++) {
			int64_t dev = li->devices[i].index;
			const gs_logfig *w = gs_logimport_fig(li, "weights", dev);
			const gs_logfig *kv = gs_logimport_fig(li, "kv_cache_tokens", dev);
			const gs_logfig *kb = gs_logimport_fig(li, "kv_cache_blocks", dev);
			const gs_logfig *km = gs_logimport_fig(li, "kv_cache_memory", dev);
			const gs_logfig *ap = gs_logimport_fig(li, "activation_peak", dev);
			const gs_logfig *pt = gs_logimport_fig(li, "peak_torch_memory", dev);
			int failed = 0;
			for (k = 0; k < li->nphases; k++)
				if (li->phases[k].device == dev && li->phases[k].failed)
					failed = 1;
			c->run = want;
			if (w) {
				c->line = w->line;
				S_add_phase(c, "model_load", dev, 0, NULL);
			}
			if (ap || pt) {
				c->line = (ap ? ap : pt)->line;
				S_add_phase(c, "profile", dev, 0, NULL);
			}
			if (!failed && (kv || kb || km)) {
				c->line = (kv ? kv : kb ? kb : km)->line;
				S_add_phase(c, "kv_cache_init", dev, 0, NULL);
			}
			/* blocks become tokens with the block size */
			if (kb && !kv) {
				const gs_logsetting *bs = gs_logimport_setting(li, "block_size");
				uint64_t size = 0;
				const char *why;
				int64_t b = 0;
				if (bs && gs_logimport_decimal_bytes(bs->value, strlen(bs->value), 1, &b, &why) == 0 && b > 0)
					size = (uint64_t)b;
				if (c->o && c->o->block_size) {
					if (size && size != c->o->block_size) {
						gs_diag_add(c->d, c->file, (int)bs->line, 0, NULL,
							    "--block-size %" PRIu64 " contradicts the log, "
							    "which says block_size=%s: %s", c->o->block_size,
							    bs->value, bs->text);
						return -1;
					}
					size = c->o->block_size;
				}
				if (size && kb->value >= 0) {
					int64_t tok;
					gs_logfig *g;
					if (__builtin_mul_overflow(kb->value, (int64_t)size, &tok)) {
						gs_diag_add(c->d, c->file, (int)kb->line, 0, NULL,
							    "%" PRId64 " blocks of %" PRIu64 " tokens: beyond range",
							    kb->value, size);
						return -1;
					}
					c->line = c->last_line = kb->line;
					c->text = kb->text;
					{
						S_fig f;
						char aw[96];
						int an = snprintf(aw, sizeof(aw), "%" PRId64 " blocks x %" PRIu64
								  " tokens", kb->value, size);
						memset(&f, 0, sizeof(f));
						f.name = "kv_cache_tokens";
						f.device = dev;
						f.unit = GS_LU_TOKENS;
						f.is_int = 1;
						f.value = tok;
						f.aw = aw;
						f.aw_len = (size_t)an;
						f.note = bs && !(c->o && c->o->block_size)
								 ? "blocks times the block size of the configuration line"
								 : "blocks times the block size given by --block-size";
						f.nosplit = 1;
						S_add_fig(c, &f);
					}
					g = &li->figs[li->nfigs - 1];
					(void)g;
					c->text = "";
				}
			}
		}
		if (li->nfigs > 1)
			qsort(li->figs, li->nfigs, sizeof(*li->figs), S_cmp_fig);
	}
	/* devices that the kept run does not mention go */
	for (i = k = 0; i < li->ndevices; i++) {
		size_t j;
		int used = 0;
		for (j = 0; j < li->nfigs && !used; j++)
			used = li->figs[j].device == li->devices[i].index;
		for (j = 0; j < li->nphases && !used; j++)
			used = li->phases[j].device == li->devices[i].index;
		if (used) {
			li->devices[k++] = li->devices[i];
		} else {
			free(li->devices[i].label);
			free(li->devices[i].name);
		}
	}
	li->ndevices = k;
	if (li->nphases == 0 && li->ndevices == 0) {
		if (S_named(c, 0))
			return -1;
		gs_diag_add(c->d, c->file, 0, 0, NULL, "the log names no device and no phase: "
			    "nothing to import");
		return -1;
	}
	if (li->nphases == 0) {
		/* llama.cpp: each device's buffers were allocated at load */
		for (i = 0; i < li->ndevices; i++) {
			c->run = want;
			c->line = li->figs[0].line;
			S_add_phase(c, "model_load", li->devices[i].index, 0, NULL);
		}
	}
	return 0;
}

int gs_logimport_parse(gs_log_kind kind, const char *file, const char *data, size_t len,
		       const gs_logimport_opts *o, gs_logimport *out, gs_diag *d)
{
	S_ctx c;
	char *buf, *pend = NULL;
	size_t pos = 0, lineno = 0, pend_lines = 0, pend_first = 0, i;
	size_t before = gs_diag_count(d);

	memset(out, 0, sizeof(*out));
	memset(&c, 0, sizeof(c));
	c.file = file;
	c.d = d;
	c.kind = kind;
	c.data = data;
	c.len = len;
	c.o = o;
	c.li = out;
	out->kind = kind;
	out->engine = kind == GS_LOG_VLLM       ? "vLLM"
		      : kind == GS_LOG_LLAMACPP ? "llama.cpp"
		      : kind == GS_LOG_SGLANG   ? "SGLang"
						: "PyTorch";
	if (len > GS_LOG_MAX_BYTES) {
		gs_diag_add(d, file, 0, 0, NULL, "the log is %zu bytes, more than the bound of %u "
			    "bytes (64 MiB)", len, GS_LOG_MAX_BYTES);
		return -1;
	}
	if (S_named(&c, 1))
		return -1;
	if (kind == GS_LOG_TORCH_STATS) {
		int r;
		/* text that is no JSON and another kind's is refused by that kind's name */
		for (i = 0; i < len && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' ||
					data[i] == '\r'); i++)
			;
		if (i < len && data[i] != '{' && data[i] != '[' && S_named(&c, 0))
			return -1;
		r = S_stats(&c, data, len);
		S_over_say(&c);
		if (r == S_OK && gs_diag_count(d) == before && S_finish(&c) == 0 &&
		    gs_diag_count(d) == before)
			return 0;
		gs_logimport_release(out);
		return -1;
	}
	buf = gs_xmalloc(GS_LOG_MAX_LINE + 1);
	while (pos < len) {
		const char *nl = memchr(data + pos, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - (data + pos)) : len - pos;
		int r;
		lineno++;
		if (n > GS_LOG_MAX_LINE) {
			gs_diag_add(d, file, (int)lineno, 0, NULL, "a line of %zu bytes, more than the "
				    "bound of %u bytes (64 KiB)", n, GS_LOG_MAX_LINE);
			break;
		}
		if (memchr(data + pos, '\0', n)) {
			gs_diag_add(d, file, (int)lineno, (int)((const char *)memchr(data + pos, '\0', n) -
								(data + pos)) + 1,
				    NULL, "a NUL byte: not a text log");
			break;
		}
		S_clean(data + pos, n, buf);
		pos += n + (nl ? 1 : 0);
		if (pend) {
			/* a message wrapped by the paste: read joined */
			char *joined = gs_xasprintf("%s %s", pend, buf);
			c.text = joined;
			c.line = pend_first;
			c.last_line = lineno;
			r = S_dispatch(&c);
			if (r == S_MORE && pend_lines + 1 < S_JOIN_MAX && pos < len) {
				free(pend);
				pend = joined;
				pend_lines++;
				continue;
			}
			free(joined);
			free(pend);
			pend = NULL;
			if (r == S_MORE) {
				gs_diag_add(d, file, (int)pend_first, 0, NULL, "a message cut short: it "
					    "goes on over more than %d lines or past the end of the log",
					    S_JOIN_MAX);
				continue;
			}
			if (r != S_NO)
				continue;
			/* not a continuation after all: the line on its own */
		}
		c.text = buf;
		c.line = c.last_line = lineno;
		r = S_dispatch(&c);
		if (r == S_MORE) {
			if (pos >= len) {
				gs_diag_add(d, file, (int)lineno, 0, NULL, "a message cut short at the end "
					    "of the log");
				continue;
			}
			pend = gs_xstrdup(buf);
			pend_first = lineno;
			pend_lines = 1;
		}
	}
	free(pend);
	free(buf);
	c.text = "";
	out->nlines = lineno;
	S_over_say(&c);
	if (gs_diag_count(d) == before && S_finish(&c) == 0 && gs_diag_count(d) == before) {
		free(c.prefix);
		for (i = 0; i < c.nworkers; i++)
			free(c.workers[i]);
		free(c.workers);
		return 0;
	}
	free(c.prefix);
	for (i = 0; i < c.nworkers; i++)
		free(c.workers[i]);
	free(c.workers);
	gs_logimport_release(out);
	return -1;
}

void gs_logimport_release(gs_logimport *li)
{
	size_t i;

	if (!li)
		return;
	for (i = 0; i < li->nfigs; i++) {
		free(li->figs[i].decimal);
		free(li->figs[i].as_written);
		free(li->figs[i].text);
	}
	free(li->figs);
	for (i = 0; i < li->nsettings; i++) {
		free(li->settings[i].value);
		free(li->settings[i].text);
	}
	free(li->settings);
	for (i = 0; i < li->ndevices; i++) {
		free(li->devices[i].label);
		free(li->devices[i].name);
	}
	free(li->devices);
	for (i = 0; i < li->nphases; i++)
		free(li->phases[i].error);
	free(li->phases);
	free(li->run_lines);
	free(li->version);
	memset(li, 0, sizeof(*li));
}

const gs_logsetting *gs_logimport_setting(const gs_logimport *li, const char *name)
{
	size_t i;

	for (i = 0; i < li->nsettings; i++)
		if ((!li->run || li->settings[i].run == li->run) &&
		    strcmp(li->settings[i].name, name) == 0)
			return &li->settings[i];
	return NULL;
}

const gs_logfig *gs_logimport_fig(const gs_logimport *li, const char *name, int64_t device)
{
	size_t i;

	for (i = 0; i < li->nfigs; i++)
		if ((!li->run || li->figs[i].run == li->run) && strcmp(li->figs[i].name, name) == 0 &&
		    (device == -2 || li->figs[i].device == device))
			return &li->figs[i];
	return NULL;
}
