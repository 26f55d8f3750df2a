/* diag: the list of errors found while reading or checking inputs. */
#include "diag.h"
#include "util.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void gs_diag_add(gs_diag *d, const char *file, int line, int column,
		 const char *path, const char *fmt, ...)
{
	gs_diag_item *it;
	va_list ap;

	if (d->count == d->alloc) {
		size_t na = d->alloc ? d->alloc * 2 : 8;
		d->items = gs_xrealloc(d->items, na * sizeof(*d->items));
		d->alloc = na;
	}
	it = &d->items[d->count++];
	it->file = gs_xstrdup_or_null(file ? file : "-");
	it->line = line;
	it->column = column;
	it->path = gs_xstrdup_or_null(path);
	va_start(ap, fmt);
	it->message = gs_xvasprintf(fmt, ap);
	va_end(ap);
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
