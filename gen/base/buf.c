/* buf: see buf.h. */
#include "buf.h"

#include <stdio.h>
#include <stdlib.h>

#include "util.h"

char gs_buf_empty[1];

void gs_buf_init(gs_buf *b, size_t hint)
{
	b->data = gs_buf_empty;
	b->len = b->cap = 0;
	if (hint)
		gs_buf_grow(b, hint);
}

void gs_buf_grow(gs_buf *b, size_t n)
{
	size_t want, c;

	if (n > SIZE_MAX - b->len - 1)
		GS_BUG("buffer of %zu bytes cannot grow by %zu", b->len, n);
	want = b->len + n + 1;
	if (want <= b->cap)
		return;
	c = b->cap ? b->cap : 64;
	while (c < want)
		c = c > SIZE_MAX / 2 ? want : c * 2;
	if (b->cap) {
		b->data = gs_xrealloc(b->data, c);
	} else {
		b->data = gs_xmalloc(c);
		b->data[0] = '\0';
	}
	b->cap = c;
}

void gs_buf_u64(gs_buf *b, uint64_t u)
{
	char d[GS_DEC_MAX], *p = gs_dec(d, u, 0);

	gs_buf_put(b, p, (size_t)(d + GS_DEC_MAX - p));
}

void gs_buf_i64(gs_buf *b, int64_t v)
{
	char d[GS_DEC_MAX], *p = gs_dec(d, gs_i64_mag(v), v < 0);

	gs_buf_put(b, p, (size_t)(d + GS_DEC_MAX - p));
}

void gs_buf_vprintf(gs_buf *b, const char *fmt, va_list ap)
{
	va_list aq;
	int n;

	va_copy(aq, ap);
	n = vsnprintf(b->data + b->len, b->cap ? b->cap - b->len : 0, fmt, aq);
	va_end(aq);
	if (n < 0) {
		b->data[b->len] = '\0';   /* an encoding error: nothing appended */
		return;
	}
	if ((size_t)n >= (b->cap ? b->cap - b->len : 0)) {
		gs_buf_grow(b, (size_t)n);
		vsnprintf(b->data + b->len, b->cap - b->len, fmt, ap);
	}
	b->len += (size_t)n;
}

void gs_buf_printf(gs_buf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	gs_buf_vprintf(b, fmt, ap);
	va_end(ap);
}

void gs_buf_truncate(gs_buf *b, size_t len)
{
	if (len > b->len)
		GS_BUG("truncating a buffer of %zu bytes to %zu", b->len, len);
	b->len = len;
	b->data[len] = '\0';   /* a cap-0 buffer has len 0: writes its own "" byte */
}

char *gs_buf_detach(gs_buf *b, size_t *len)
{
	char *s = b->cap ? b->data : gs_xstrdup("");

	if (len)
		*len = b->len;
	gs_buf_init(b, 0);
	return s;
}

void gs_buf_release(gs_buf *b)
{
	if (b->cap)
		free(b->data);
	gs_buf_init(b, 0);
}
