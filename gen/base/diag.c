/* diag: the list of errors found while reading or checking inputs. */
#include "diag.h"
#include "buf.h"
#include "util.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Appends s[0..n) escaped, cut after max bytes of input (0: no cut). */
static void S_show_put(gs_buf *o, const char *s, size_t n, size_t max)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;

	while (i < n) {
		uint32_t cp;
		size_t k = gs_util_utf8_decode(p + i, n - i, &cp);
		if (max && i + (k ? k : 1) > max) {
			char tail[64];
			snprintf(tail, sizeof(tail), "...(%zu bytes)", n);
			gs_buf_put(o, tail, strlen(tail));
			return;
		}
		if (k == 0 || (k == 1 && (p[i] < 0x20 || p[i] == 0x7f))) {
			char hex[5];
			snprintf(hex, sizeof(hex), "\\x%02x", p[i]);
			gs_buf_put(o, hex, 4);
			i++;
		} else {
			gs_buf_put(o, s + i, k);
			i += k;
		}
	}
}

char *gs_diag_show(const char *s, size_t max)
{
	gs_buf o = GS_BUF_INIT;

	S_show_put(&o, s, strlen(s), max);
	return gs_buf_detach(&o, NULL);
}

/* The message escaped, each "quoted" value cut at GS_SHOW_MAX, the whole at
 * GS_SHOW_MAX_MESSAGE. */
static char *S_clean_message(const char *m)
{
	gs_buf o = GS_BUF_INIT;
	const char *p = m;

	while (*p) {
		const char *q = strchr(p, '"'), *end;
		if (!q) {
			S_show_put(&o, p, strlen(p), 0);
			break;
		}
		S_show_put(&o, p, (size_t)(q - p) + 1, 0);
		end = strchr(q + 1, '"');
		if (!end) {
			S_show_put(&o, q + 1, strlen(q + 1), GS_SHOW_MAX);
			break;
		}
		S_show_put(&o, q + 1, (size_t)(end - q - 1), GS_SHOW_MAX);
		gs_buf_put(&o, "\"", 1);
		p = end + 1;
	}
	if (o.len > GS_SHOW_MAX_MESSAGE) {
		char *cut = gs_diag_show(o.data, GS_SHOW_MAX_MESSAGE);
		gs_buf_release(&o);
		return cut;
	}
	return gs_buf_detach(&o, NULL);
}

void gs_diag_error_print(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	char *m, *c;

	va_start(ap, fmt);
	m = gs_xvasprintf(fmt, ap);
	va_end(ap);
	c = S_clean_message(m);
	fprintf(stderr, "gpusheet %s: %s\n", cmd, c);
	free(c);
	free(m);
}

void gs_diag_add(gs_diag *d, const char *file, int line, int column,
		 const char *path, const char *fmt, ...)
{
	char *msg;
	gs_diag_item *it;
	va_list ap;

	if (d->count == d->alloc) {
		size_t na = d->alloc ? d->alloc * 2 : 8;
		d->items = gs_xrealloc(d->items, na * sizeof(*d->items));
		d->alloc = na;
	}
	it = &d->items[d->count++];
	it->file = gs_diag_show(file ? file : "-", 0);   /* a path: never cut */
	it->line = line;
	it->column = column;
	it->path = path ? gs_diag_show(path, GS_SHOW_MAX) : NULL;
	va_start(ap, fmt);
	msg = gs_xvasprintf(fmt, ap);
	va_end(ap);
	it->message = S_clean_message(msg);
	free(msg);
}

void gs_diag_add_shown(gs_diag *d, const char *file, int line, int column,
		       const char *path, const char *message)
{
	gs_diag_item *it;

	if (d->count == d->alloc) {
		size_t na = d->alloc ? d->alloc * 2 : 8;
		d->items = gs_xrealloc(d->items, na * sizeof(*d->items));
		d->alloc = na;
	}
	it = &d->items[d->count++];
	it->file = gs_xstrdup(file);
	it->line = line;
	it->column = column;
	it->path = path ? gs_xstrdup(path) : NULL;
	it->message = gs_xstrdup(message);
}

size_t gs_diag_count(const gs_diag *d)
{
	return d->count;
}

void gs_diag_print(const gs_diag *d, FILE *out)
{
	size_t i;

	for (i = 0; i < d->count; i++) {
		const gs_diag_item *it = &d->items[i];
		fputs(it->file, out);
		if (it->line > 0) {
			fprintf(out, ":%d", it->line);
			if (it->column > 0)
				fprintf(out, ":%d", it->column);
		}
		fputs(": error: ", out);
		if (it->path)
			fprintf(out, "at %s: ", it->path);
		fprintf(out, "%s\n", it->message);
	}
}

void gs_diag_release(gs_diag *d)
{
	size_t i;

	for (i = 0; i < d->count; i++) {
		free(d->items[i].file);
		free(d->items[i].path);
		free(d->items[i].message);
	}
	free(d->items);
	d->items = NULL;
	d->count = d->alloc = 0;
}
