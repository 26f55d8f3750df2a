/*
 * buf: the one growable byte buffer of the generator (git's strbuf, cmark's
 * cmark_strbuf): every writer (HTML, Markdown, JSON, SVG, PNG, CSV, the
 * messages) appends into a gs_buf.
 *
 * Invariants:
 *  - After gs_buf_init (or GS_BUF_INIT), data is never NULL and data[len]
 *    is always '\0': an empty buffer points to a shared, read-only "" with
 *    cap 0, so that a buffer nobody wrote to costs no allocation and can
 *    still be printed. Bytes may hold NULs of their own (a PNG does).
 *  - Out of memory aborts (util.h); no call here fails or returns a status.
 *  - Growth doubles (at least 64 bytes), so n appends cost O(total).
 *  - gs_buf_detach hands the bytes to the caller (malloc'd, NUL-terminated,
 *    free() them) and leaves the buffer empty, ready for reuse;
 *    gs_buf_release frees them and does the same.
 *  - Numbers are appended without printf (gs_buf_u64, gs_buf_i64): the
 *    bytes printf's "%llu" / "%lld" would write, whatever the locale.
 */
#ifndef GS_BUF_H
#define GS_BUF_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef struct gs_buf {
	char *data;     /* never NULL after init; data[len] == '\0' */
	size_t len;     /* bytes used */
	size_t cap;     /* bytes allocated; 0: data is the shared "" */
} gs_buf;

extern char gs_buf_empty[1];
#define GS_BUF_INIT { gs_buf_empty, 0, 0 }

/* An empty buffer, with room for hint bytes (0: none allocated yet). */
void gs_buf_init(gs_buf *b, size_t hint);
/* Room for n more bytes (and the NUL) without another allocation. */
void gs_buf_grow(gs_buf *b, size_t n);

static inline void gs_buf_put(gs_buf *b, const void *s, size_t n)
{
	if (b->len + n >= b->cap)
		gs_buf_grow(b, n);
	memcpy(b->data + b->len, s, n);
	b->len += n;
	b->data[b->len] = '\0';
}

static inline void gs_buf_puts(gs_buf *b, const char *s)
{
	gs_buf_put(b, s, strlen(s));
}

static inline void gs_buf_putc(gs_buf *b, char c)
{
	if (b->len + 1 >= b->cap)
		gs_buf_grow(b, 1);
	b->data[b->len++] = c;
	b->data[b->len] = '\0';
}

/* u (or v) in decimal, as printf's "%llu" ("%lld") writes it. */
void gs_buf_u64(gs_buf *b, uint64_t u);
void gs_buf_i64(gs_buf *b, int64_t v);
/* printf into the buffer, for messages (not for numbers in outputs). */
void gs_buf_printf(gs_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void gs_buf_vprintf(gs_buf *b, const char *fmt, va_list ap);
/* Keeps the first len bytes (len <= b->len). */
void gs_buf_truncate(gs_buf *b, size_t len);
/* The bytes, malloc'd and NUL-terminated (never NULL), their length in
 * *len when len is not NULL; the buffer is left empty. */
char *gs_buf_detach(gs_buf *b, size_t *len);
void gs_buf_release(gs_buf *b);

#endif
