/* error: see error.h. */
#include "error.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

void gs_error_release(gs_error *err)
{
	if (!err)
		return;
	free(err->message);
	free(err->file);
	free(err->path);
	memset(err, 0, sizeof(*err));
}

int gs_error_vset(gs_error *err, const char *fmt, va_list ap)
{
	char *m;

	int saved = errno;   /* a caller may still read errno after the failure */

	if (!err)
		return -1;
	m = gs_xvasprintf(fmt, ap);   /* before the release: fmt may name err's own text */
	gs_error_release(err);
	err->message = m;
	errno = saved;
	return -1;
}

int gs_error_set(gs_error *err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	gs_error_vset(err, fmt, ap);
	va_end(ap);
	return -1;
}

int gs_error_set_at(gs_error *err, const char *file, int line, int column, const char *path,
		    const char *fmt, ...)
{
	va_list ap;
	char *f, *p;
	int saved = errno;

	if (!err)
		return -1;
	f = gs_xstrdup_or_null(file);
	p = gs_xstrdup_or_null(path);
	va_start(ap, fmt);
	gs_error_vset(err, fmt, ap);
	va_end(ap);
	err->file = f;
	err->path = p;
	err->line = line;
	err->column = column;
	errno = saved;
	return -1;
}

int gs_error_prefix(gs_error *err, const char *fmt, ...)
{
	va_list ap;
	char *pre, *m;
	int saved = errno;

	if (!err)
		return -1;
	va_start(ap, fmt);
	pre = gs_xvasprintf(fmt, ap);
	va_end(ap);
	m = gs_xasprintf("%s%s", pre, err->message ? err->message : "");
	free(pre);
	free(err->message);
	err->message = m;
	errno = saved;
	return -1;
}

const char *gs_error_message(const gs_error *err)
{
	return err && err->message ? err->message : "";
}

int gs_error_is_set(const gs_error *err)
{
	return err && err->message != NULL;
}

void gs_error_move(gs_error *dst, gs_error *src)
{
	gs_error_release(dst);
	*dst = *src;
	memset(src, 0, sizeof(*src));
}
