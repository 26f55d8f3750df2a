/* util: allocate-or-abort wrappers, printf to a string, a string vector. */
#include "util.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void gs_util_bug(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "gpusheet: BUG at %s:%d: ", file, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

void gs_util_oom_at(const char *file, int line, const char *what)
{
	fprintf(stderr, "gpusheet: out of memory (%s at %s:%d)\n", what, file, line);
	abort();
}

static void S_oom(const char *file, int line, size_t n)
{
	char what[64];

	snprintf(what, sizeof(what), "%zu bytes asked", n);
	gs_util_oom_at(file, line, what);
}

void *gs_xmalloc_at(size_t n, const char *file, int line)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		S_oom(file, line, n);
	return p;
}

void *gs_xcalloc_at(size_t n, size_t size, const char *file, int line)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		S_oom(file, line, n * size);
	return p;
}

void *gs_xrealloc_at(void *p, size_t n, const char *file, int line)
{
	void *np = realloc(p, n ? n : 1);

	if (!np)
		S_oom(file, line, n);
	return np;
}

char *gs_xstrdup_at(const char *s, const char *file, int line)
{
	size_t n = strlen(s) + 1;

	return memcpy(gs_xmalloc_at(n, file, line), s, n);
}

char *gs_xstrdup_or_null_at(const char *s, const char *file, int line)
{
	return s ? gs_xstrdup_at(s, file, line) : NULL;
}

/* Bytes of a gs_util_vfmt output: written while they fit (cap - 1 at most), all counted. */
typedef struct {
	char *p;
	size_t cap, n;
} S_fmt_out;

static void S_fmt_put(S_fmt_out *o, const char *s, size_t k)
{
	if (o->cap && o->n < o->cap - 1) {
		size_t room = o->cap - 1 - o->n;
		memcpy(o->p + o->n, s, k < room ? k : room);
	}
	o->n += k;
}

static void S_fmt_dec(S_fmt_out *o, unsigned long long u, int neg)
{
	char d[GS_DEC_MAX], *p = gs_dec(d, u, neg);

	S_fmt_put(o, p, (size_t)(d + GS_DEC_MAX - p));
}

int gs_util_vfmt(char *buf, size_t cap, const char *fmt, va_list ap)
{
	S_fmt_out o = { buf, cap, 0 };
	const char *f;

	/* every conversion one of ours, before anything is read from ap */
	for (f = fmt; *f; f++) {
		if (*f != '%')
			continue;
		f++;
		if (*f == 's' || *f == 'd' || *f == 'u' || *f == 'c' || *f == '%')
			continue;
		if (f[0] == 'z' && f[1] == 'u')
			f++;
		else if (f[0] == 'l' && f[1] == 'l' && f[2] == 'u')
			f += 2;
		else
			return -2;
	}
	for (f = fmt; *f;) {
		const char *lit = f;

		while (*f && *f != '%')
			f++;
		S_fmt_put(&o, lit, (size_t)(f - lit));
		if (!*f)
			break;
		f++;
		switch (*f) {
		case 's': {
			const char *s = va_arg(ap, const char *);
			if (!s)
				s = "(null)";   /* as the C library writes it */
			S_fmt_put(&o, s, strlen(s));
			break;
		}
		case 'd': {
			int v = va_arg(ap, int);
			S_fmt_dec(&o, v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v, v < 0);
			break;
		}
		case 'u':
			S_fmt_dec(&o, va_arg(ap, unsigned), 0);
			break;
		case 'c': {
			char c = (char)va_arg(ap, int);
			S_fmt_put(&o, &c, 1);
			break;
		}
		case 'z':
			S_fmt_dec(&o, va_arg(ap, size_t), 0);
			f++;
			break;
		case 'l':
			S_fmt_dec(&o, va_arg(ap, unsigned long long), 0);
			f += 2;
			break;
		default:   /* '%' */
			S_fmt_put(&o, "%", 1);
			break;
		}
		f++;
	}
	if (cap)
		buf[o.n < cap - 1 ? o.n : cap - 1] = '\0';
	return o.n > INT_MAX ? -1 : (int)o.n;
}

/* vsnprintf, through gs_util_vfmt when the format is one of its own. */
static int S_vsnprintf(char *buf, size_t cap, const char *fmt, va_list ap)
{
	va_list ap2;
	int n;

	va_copy(ap2, ap);
	n = gs_util_vfmt(buf, cap, fmt, ap2);
	va_end(ap2);
	return n == -2 ? vsnprintf(buf, cap, fmt, ap) : n;
}

char *gs_xvasprintf_at(const char *file, int line, const char *fmt, va_list ap)
{
	va_list ap2;
	char *buf;
	int n;

	char small[256];

	/* one formatting for the short texts (most), two for the others */
	va_copy(ap2, ap);
	n = S_vsnprintf(small, sizeof(small), fmt, ap2);
	va_end(ap2);
	if (n < 0)
		n = 0;
	buf = gs_xmalloc_at((size_t)n + 1, file, line);
	if ((size_t)n < sizeof(small)) {
		memcpy(buf, small, (size_t)n + 1);
		return buf;
	}
	buf[0] = '\0';
	S_vsnprintf(buf, (size_t)n + 1, fmt, ap);
	return buf;
}

const char *gs_util_vfmt_small(char *small, size_t cap, char **heap, const char *fmt, va_list ap)
{
	va_list ap2;
	int n;

	va_copy(ap2, ap);
	n = S_vsnprintf(small, cap, fmt, ap2);
	va_end(ap2);
	*heap = NULL;
	if (n >= 0 && (size_t)n < cap)
		return small;
	*heap = gs_xvasprintf(fmt, ap);
	return *heap;
}

char *gs_xasprintf_at(const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	char *buf;

	va_start(ap, fmt);
	buf = gs_xvasprintf_at(file, line, fmt, ap);
	va_end(ap);
	return buf;
}

int gs_util_strcmp_ptr(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int S_lower(int ch)
{
	return ch >= 'A' && ch <= 'Z' ? ch - 'A' + 'a' : ch;
}

int gs_util_eq_ci(const char *a, const char *b)
{
	for (; *a && *b; a++, b++)
		if (S_lower((unsigned char)*a) != S_lower((unsigned char)*b))
			return 0;
	return *a == *b;
}

int gs_util_contains_ci(const char *hay, const char *needle)
{
	size_t n = strlen(needle), i;

	if (!n)
		return 1;
	for (; *hay; hay++) {
		for (i = 0; i < n && hay[i]; i++)
			if (S_lower((unsigned char)hay[i]) != S_lower((unsigned char)needle[i]))
				break;
		if (i == n)
			return 1;
	}
	return 0;
}

void gs_util_strvec_push(gs_strvec *v, char *s)
{
	if (v->n == v->cap) {
		size_t nc = v->cap ? v->cap * 2 : 16;
		v->v = gs_xrealloc(v->v, nc * sizeof(*v->v));
		v->cap = nc;
	}
	v->v[v->n++] = s;
}

void gs_util_strvec_push_dup(gs_strvec *v, const char *s)
{
	gs_util_strvec_push(v, gs_xstrdup(s));
}

void gs_util_strvec_sort(gs_strvec *v)
{
	if (v->n > 1)
		qsort(v->v, v->n, sizeof(*v->v), gs_util_strcmp_ptr);
}

void gs_util_strvec_sort_unique(gs_strvec *v)
{
	size_t i, o;

	if (v->n < 2)
		return;
	qsort(v->v, v->n, sizeof(*v->v), gs_util_strcmp_ptr);
	for (i = 1, o = 1; i < v->n; i++) {
		if (strcmp(v->v[i], v->v[o - 1]) == 0)
			free(v->v[i]);
		else
			v->v[o++] = v->v[i];
	}
	v->n = o;
}

void gs_util_strvec_release(gs_strvec *v)
{
	size_t i;

	for (i = 0; i < v->n; i++)
		free(v->v[i]);
	free(v->v);
	v->v = NULL;
	v->n = v->cap = 0;
}

size_t gs_util_utf8_decode(const unsigned char *s, size_t n, uint32_t *cp)
{
	uint32_t c;
	size_t k, i;

	*cp = n ? s[0] : 0;
	if (n == 0)
		return 0;
	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xC2 && s[0] <= 0xDF)
		k = 2, c = s[0] & 0x1Fu;
	else if (s[0] >= 0xE0 && s[0] <= 0xEF)
		k = 3, c = s[0] & 0x0Fu;
	else if (s[0] >= 0xF0 && s[0] <= 0xF4)
		k = 4, c = s[0] & 0x07u;
	else
		return 0;
	for (i = 1; i < k; i++) {
		if (i >= n || (s[i] & 0xC0) != 0x80)
			return 0;
		c = (c << 6) | (s[i] & 0x3Fu);
	}
	if ((k == 3 && (c < 0x800 || (c >= 0xD800 && c <= 0xDFFF))) ||
	    (k == 4 && (c < 0x10000 || c > 0x10FFFF)))
		return 0;
	*cp = c;
	return k;
}

const char *gs_util_basename(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

int gs_util_posint(const char *s, uint64_t *out)
{
	char *e;
	unsigned long long v;

	if (!s || !*s || *s == '-' || *s == '+' || *s == ' ')
		return -1;
	errno = 0;
	v = strtoull(s, &e, 10);
	if (errno || *e || v == 0 || v > (unsigned long long)INT64_MAX)
		return -1;
	*out = v;
	return 0;
}
