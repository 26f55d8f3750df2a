/* logline: the scanning helpers the log readers share (logimport_int.h). */
#define _GNU_SOURCE
#include "logimport_int.h"
#include "buf.h"
#include "util.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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


/* The kinds of excess: one line each in a refusal, with the count (gs_logline_over_say). */
enum { S_OVER_FIGS, S_OVER_PHASES, S_OVER_DEVICES };

void gs_logline_over(gs_logctx *c, int kind)
{
	if (c->over[kind]++ == 0)
		c->over_line[kind] = c->line;
	c->errors++;
}

/* One line per kind of excess, with its count and its first line. */
void gs_logline_over_say(gs_logctx *c)
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
void gs_logline_err(gs_logctx *c, const char *at, const char *fmt, ...)
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

gs_logdevice *gs_logline_device(gs_logctx *c, int64_t index)
{
	gs_logimport *li = c->li;
	size_t i;

	for (i = 0; i < li->ndevices; i++)
		if (li->devices[i].index == index)
			return &li->devices[i];
	if (li->ndevices >= GS_LOG_MAX_DEVICES) {
		gs_logline_over(c, S_OVER_DEVICES);
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
void gs_logline_drop_run(gs_logctx *c, int run)
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

void gs_logline_new_run(gs_logctx *c)
{
	gs_logimport *li = c->li;

	if (li->nruns > 0 && c->run != (c->o && c->o->run ? c->o->run : 1))
		gs_logline_drop_run(c, c->run);
	c->run_figs = c->run_phases = 0;
	if (li->nruns == c->cap_runs) {
		c->cap_runs = c->cap_runs ? 2 * c->cap_runs : 4;
		li->run_lines = gs_xrealloc(li->run_lines, c->cap_runs * sizeof(*li->run_lines));
	}
	li->run_lines[li->nruns++] = c->line;
	c->run = (int)li->nruns;
}

/* The first figure or setting starts run 1. */
void gs_logline_touch_run(gs_logctx *c)
{
	if (c->li->nruns == 0)
		gs_logline_new_run(c);
}

/* vLLM: the quantities one start states once. */
const char *gs_logline_group(const char *name)
{
	if (strcmp(name, "kv_cache_blocks") == 0 || strcmp(name, "kv_cache_tokens") == 0)
		return "kv_capacity";
	return name;
}


void gs_logline_add_fig(gs_logctx *c, const gs_logline_fig *f)
{
	gs_logimport *li = c->li;
	gs_logfig *g;
	size_t i;

	gs_logline_touch_run(c);
	for (i = 0; i < li->nfigs; i++) {
		const gs_logfig *e = &li->figs[i];
		int same_value;
		if (e->run != c->run || e->device != f->device)
			continue;
		if (strcmp(gs_logline_group(e->name), gs_logline_group(f->name)) != 0)
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
			gs_logline_new_run(c);
			break;
		}
		gs_logline_err(c, f->aw, "%s of device %" PRId64 " is %.*s here but line %zu says %s",
		      f->name, f->device, (int)f->aw_len, f->aw, e->line, e->as_written);
		return;
	}
	if (c->run_figs >= GS_LOG_MAX_FIGURES) {
		gs_logline_over(c, S_OVER_FIGS);
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
		gs_logline_device(c, f->device);
}

void gs_logline_add_setting(gs_logctx *c, const char *name, const char *v, size_t n)
{
	gs_logimport *li = c->li;
	gs_logsetting *s;
	size_t i;

	gs_logline_touch_run(c);
	for (i = 0; i < li->nsettings; i++) {
		const gs_logsetting *e = &li->settings[i];
		if (e->run != c->run || strcmp(e->name, name) != 0)
			continue;
		if (strlen(e->value) == n && memcmp(e->value, v, n) == 0)
			return;
		if (c->kind == GS_LOG_VLLM) {
			gs_logline_new_run(c);
			break;
		}
		gs_logline_err(c, v, "%s is %.*s here but line %zu says %s", name, (int)n, v, e->line,
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

gs_logphase *gs_logline_add_phase(gs_logctx *c, const char *name, int64_t device, int failed,
				const char *error)
{
	gs_logimport *li = c->li;
	gs_logphase *p;
	size_t i;

	gs_logline_touch_run(c);
	for (i = 0; i < li->nphases; i++) {
		p = &li->phases[i];
		if (p->run == c->run && p->device == device && p->error && error &&
		    strcmp(p->error, error) == 0)
			return NULL;   /* the same failure printed again */
	}
	if (c->run_phases >= GS_LOG_MAX_FIGURES) {
		gs_logline_over(c, S_OVER_PHASES);
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
	gs_logline_device(c, device);
	return p;
}

/* A device's total (and free at start), as the log reports them. */
void gs_logline_total(gs_logctx *c, int64_t device, int64_t total, const char *at, size_t at_len)
{
	gs_logdevice *dv;

	if (total <= 0) {
		gs_logline_err(c, at, "a device total of %.*s: not a capacity", (int)at_len, at);
		return;
	}
	dv = gs_logline_device(c, device);
	if (!dv)
		return;
	if (dv->has_total && dv->total != (uint64_t)total) {
		gs_logline_err(c, at, "device %" PRId64 " has a total of %.*s here (%" PRId64 " bytes) but "
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

void gs_logline_free_at_start(gs_logctx *c, int64_t device, int64_t v, const char *at, size_t n)
{
	gs_logdevice *dv = gs_logline_device(c, device);

	if (!dv)
		return;
	if (v < 0) {
		gs_logline_err(c, at, "free memory of %.*s: below zero", (int)n, at);
		return;
	}
	if (dv->has_free && dv->free_bytes != (uint64_t)v) {
		gs_logline_err(c, at, "device %" PRId64 " has %.*s free here but line %zu gives %" PRIu64
		      " bytes", device, (int)n, at, dv->free_line, dv->free_bytes);
		return;
	}
	dv->has_free = 1;
	dv->free_bytes = (uint64_t)v;
	dv->free_line = c->line;
}

/* ---- scanning ---- */


/* A space in lit matches any run of blanks (or none); the rest byte for byte. */
int gs_logline_lit(const char **pp, const char *lit)
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
			return GS_LL_MORE;
		if (*p != *lit)
			return GS_LL_NO;
		p++;
		lit++;
	}
	*pp = p;
	return GS_LL_OK;
}

void gs_logline_blanks(const char **pp)
{
	while (**pp == ' ' || **pp == '\t')
		(*pp)++;
}


/*
 * A number at *pp: [-]digits[.digits], with thousands separators when
 * commas is set ("2,042,016"). GS_LL_OK, GS_LL_NO (none there), GS_LL_MORE (the text
 * ends where a number should be) or GS_LL_FAIL (reported: nan, inf, 40 digits).
 */
int gs_logline_number(gs_logctx *c, const char **pp, int commas, gs_logline_num *out)
{
	const char *p = *pp, *start;
	size_t ip = 0, fp = 0;

	gs_logline_blanks(&p);
	if (!*p)
		return GS_LL_MORE;
	start = p;
	if (strncasecmp(p, "nan", 3) == 0 || strncasecmp(p, "-nan", 4) == 0) {
		gs_logline_err(c, p, "a figure that is not a number (nan)");
		return GS_LL_FAIL;
	}
	if (strncasecmp(p, "inf", 3) == 0 || strncasecmp(p, "-inf", 4) == 0) {
		gs_logline_err(c, p, "an infinite figure (inf)");
		return GS_LL_FAIL;
	}
	out->neg = *p == '-';
	if (*p == '-')
		p++;
	if (!isdigit((unsigned char)*p))
		return GS_LL_NO;
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
		gs_logline_err(c, start, "a number of %zu digits: beyond what is read exactly", ip + fp);
		return GS_LL_FAIL;
	}
	if (strncasecmp(p, "e+", 2) == 0 || strncasecmp(p, "e-", 2) == 0) {
		gs_logline_err(c, start, "a number with an exponent: not read");
		return GS_LL_FAIL;
	}
	out->s = start;
	out->n = (size_t)(p - start);
	*pp = p;
	return GS_LL_OK;
}

int gs_logline_int(gs_logctx *c, const gs_logline_num *x, int64_t *v)
{
	const char *why;

	if (x->has_dot) {
		gs_logline_err(c, x->s, "%.*s: expected a whole number", (int)x->n, x->s);
		return GS_LL_FAIL;
	}
	if (gs_logimport_decimal_bytes(x->s, x->n, 1, v, &why) != 0) {
		gs_logline_err(c, x->s, "%.*s: %s", (int)x->n, x->s, why);
		return GS_LL_FAIL;
	}
	return GS_LL_OK;
}

int gs_logline_scale(gs_logctx *c, const gs_logline_num *x, uint64_t mult, int64_t *v)
{
	const char *why;

	if (gs_logimport_decimal_bytes(x->s, x->n, mult, v, &why) != 0) {
		gs_logline_err(c, x->s, "%.*s: %s", (int)x->n, x->s, why);
		return GS_LL_FAIL;
	}
	return GS_LL_OK;
}


uint64_t gs_logline_unit_at(const char **pp, const gs_logline_unit *units)
{
	const char *p = *pp;
	size_t i, n;

	gs_logline_blanks(&p);
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
const gs_logline_unit gs_logline_torch_units[] = {
	{ "GiB", GIB }, { "MiB", MIB }, { "KiB", KIB }, { "bytes", 1 }, { "B", 1 }, { NULL, 0 }
};

/* A size: number and binary unit. as_written spans both. */
int gs_logline_size(gs_logctx *c, const char **pp, const gs_logline_unit *units, int64_t *v,
		  const char **aw, size_t *aw_len)
{
	const char *p = *pp;
	uint64_t mult;
	gs_logline_num x;
	int r = gs_logline_number(c, &p, 0, &x);

	if (r != GS_LL_OK)
		return r;
	mult = gs_logline_unit_at(&p, units);
	if (!mult)
		return *p ? GS_LL_NO : GS_LL_MORE;
	if (gs_logline_scale(c, &x, mult, v) != GS_LL_OK)
		return GS_LL_FAIL;
	*aw = x.s;
	*aw_len = (size_t)(p - x.s);
	*pp = p;
	return GS_LL_OK;
}

void gs_logline_fig_size(gs_logctx *c, const char *name, int64_t device, int64_t v, const char *aw,
		       size_t aw_len, const char *note)
{
	gs_logline_fig f;

	memset(&f, 0, sizeof(f));
	f.name = name;
	f.device = device;
	f.unit = GS_LU_BYTES;
	f.is_int = 1;
	f.value = v;
	f.aw = aw;
	f.aw_len = aw_len;
	f.note = note;
	gs_logline_add_fig(c, &f);
}

void gs_logline_fig_int(gs_logctx *c, const char *name, int64_t device, gs_log_unit unit, int64_t v,
		      const char *aw, size_t aw_len, int nosplit)
{
	gs_logline_fig f;

	memset(&f, 0, sizeof(f));
	f.name = name;
	f.device = device;
	f.unit = unit;
	f.is_int = 1;
	f.value = v;
	f.aw = aw;
	f.aw_len = aw_len;
	f.nosplit = nosplit;
	gs_logline_add_fig(c, &f);
}

void gs_logline_fig_dec(gs_logctx *c, const char *name, int64_t device, gs_log_unit unit,
		      const gs_logline_num *x, const char *aw, size_t aw_len)
{
	gs_logline_fig f;

	memset(&f, 0, sizeof(f));
	f.name = name;
	f.device = device;
	f.unit = unit;
	f.dec = x->s;
	f.dec_len = x->n;
	f.aw = aw;
	f.aw_len = aw_len;
	gs_logline_add_fig(c, &f);
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

