/* logimport: engines' memory lines read into figures with their lines (logimport.h). */
#define _GNU_SOURCE
#include "logimport_int.h"
#include "logsniff.h"
#include "buf.h"
#include "util.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define S_JOIN_MAX 4           /* physical lines one wrapped message may span */
#define S_STARTS_SHOWN 20      /* starts listed with their lines in a refusal */

int gs_logimport_kind_parse(const char *s)
{
	size_t i;

	for (i = 0; s && i < gs_logformat_count(); i++)
		if (strcmp(s, gs_logformat_at(i)->id) == 0)
			return (int)gs_logformat_at(i)->kind;
	return -1;
}

const char *gs_logimport_kind_id(gs_log_kind k)
{
	const gs_logformat *f = gs_logformat_of(k);

	return f ? f->id : "unknown";
}

const char *gs_logimport_unit_id(gs_log_unit u)
{
	static const char *const ids[] = { "bytes", "tokens", "blocks", "count", "times",
					   "seconds", "fraction", "as_printed", "tokens_per_second",
					   "requests_per_second" };
	return (unsigned)u < sizeof(ids) / sizeof(ids[0]) ? ids[u] : NULL;
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

static int S_dispatch(gs_logctx *c)
{
	const gs_logformat *f = gs_logformat_of(c->kind);

	return f && f->line ? f->line(c) : GS_LL_NO;
}

/*
 * A log that is of another kind than the reader's is refused by its name,
 * at the line that shows it (document: only a Markdown document, before
 * reading). 1 when refused so.
 */
static int S_named(gs_logctx *c, int document)
{
	gs_logsniff s;
	const gs_logformat *f = gs_logformat_of(c->kind);

	if (!gs_logsniff_text(c->data, c->len, &s) || (int)s.kind == f->sniff)
		return 0;
	if (document && s.kind != GS_SNIFF_MARKDOWN)
		return 0;
	gs_diag_add(c->d, c->file, (int)s.line, 0, NULL, "this is %s, not %s: %s", s.name,
		    f->name, s.why);
	return 1;
}

/* After the pass: keep one run, derive what the kept lines give together. */
static int S_finish(gs_logctx *c)
{
	const gs_logformat *f = gs_logformat_of(c->kind);
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
	/* what the format derives from the kept lines together */
	if (f->finish && f->finish(c) != 0)
		return -1;
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
			gs_logline_add_phase(c, "model_load", li->devices[i].index, 0, NULL);
		}
	}
	return 0;
}

int gs_logimport_parse(gs_log_kind kind, const char *file, const char *data, size_t len,
		       const gs_logimport_opts *o, gs_logimport *out, gs_diag *d)
{
	gs_logctx c;
	char *buf, *pend = NULL;
	size_t pos = 0, lineno = 0, pend_lines = 0, pend_first = 0, i;
	size_t before = gs_diag_count(d);
	const gs_logformat *fmt;

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
	fmt = gs_logformat_of(kind);
	if (!fmt) {
		gs_diag_add(d, file, 0, 0, NULL, "no reader of logs of kind %d", (int)kind);
		return -1;
	}
	out->engine = fmt->engine;
	if (len > GS_LOG_MAX_BYTES) {
		gs_diag_add(d, file, 0, 0, NULL, "the log is %zu bytes, more than the bound of %u "
			    "bytes (64 MiB)", len, GS_LOG_MAX_BYTES);
		return -1;
	}
	if (S_named(&c, 1))
		return -1;
	if (fmt->whole) {
		int r;
		/* text that is no JSON and another kind's is refused by that kind's name */
		for (i = 0; i < len && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' ||
					data[i] == '\r'); i++)
			;
		if (i < len && data[i] != '{' && data[i] != '[' && S_named(&c, 0))
			return -1;
		r = fmt->whole(&c, data, len);
		gs_logline_over_say(&c);
		if (r == GS_LL_OK && gs_diag_count(d) == before && S_finish(&c) == 0 &&
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
			if (r == GS_LL_MORE && pend_lines + 1 < S_JOIN_MAX && pos < len) {
				free(pend);
				pend = joined;
				pend_lines++;
				continue;
			}
			free(joined);
			free(pend);
			pend = NULL;
			if (r == GS_LL_MORE) {
				gs_diag_add(d, file, (int)pend_first, 0, NULL, "a message cut short: it "
					    "goes on over more than %d lines or past the end of the log",
					    S_JOIN_MAX);
				continue;
			}
			if (r != GS_LL_NO)
				continue;
			/* not a continuation after all: the line on its own */
		}
		c.text = buf;
		c.line = c.last_line = lineno;
		r = S_dispatch(&c);
		if (r == GS_LL_MORE) {
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
	gs_logline_over_say(&c);
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

