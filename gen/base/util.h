/*
 * util: allocate-or-abort wrappers, a printf into a malloc'd string, and a
 * growable vector of strings, shared by every module of the generator.
 *
 * Invariants:
 *  - Out of memory aborts, as cmark's xcalloc does: "gpusheet: out of
 *    memory (N bytes asked at FILE:LINE)" goes to stderr and the process
 *    calls abort() (gs_util_oom_at, also GS_OOM for a library that failed where
 *    only memory could make it fail). Callers never check the result of a
 *    gs_x* function for NULL. Every other abort goes through GS_BUG, with a
 *    message; no other code calls abort() nor a raw malloc, calloc,
 *    realloc or strdup.
 *  - A request for 0 bytes (or 0 elements) allocates 1, so that the result
 *    is never NULL and can always be passed to free().
 *  - gs_xstrdup takes a string, never NULL; gs_xstrdup_or_null maps NULL
 *    to NULL and copies anything else.
 *  - gs_xasprintf / gs_xvasprintf return a malloc'd, NUL-terminated string;
 *    should the C library report an encoding error, the result is "".
 *  - gs_strvec owns its strings: gs_util_strvec_push takes the pointer (which
 *    must come from malloc), gs_util_strvec_push_dup pushes a copy, and
 *    gs_util_strvec_release frees every string and the array, and leaves the
 *    vector empty (GS_STRVEC_INIT), ready to be reused.
 *  - Sorting compares with strcmp (bytes, not the locale): the order does
 *    not depend on the environment. gs_util_strvec_sort_unique also frees the
 *    repeated strings, keeping one of each.
 */
#ifndef GS_UTIL_H
#define GS_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/*
 * The gs_x* family: each call site's file and line go with the request, so
 * that "gpusheet: out of memory (N bytes asked at FILE:LINE)" says where.
 */
void *gs_xmalloc_at(size_t n, const char *file, int line);
void *gs_xcalloc_at(size_t n, size_t size, const char *file, int line);
void *gs_xrealloc_at(void *p, size_t n, const char *file, int line);
char *gs_xstrdup_at(const char *s, const char *file, int line);
char *gs_xstrdup_or_null_at(const char *s, const char *file, int line);
char *gs_xasprintf_at(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
char *gs_xvasprintf_at(const char *file, int line, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));

#define gs_xmalloc(n) gs_xmalloc_at((n), __FILE__, __LINE__)
#define gs_xcalloc(n, size) gs_xcalloc_at((n), (size), __FILE__, __LINE__)
#define gs_xrealloc(p, n) gs_xrealloc_at((p), (n), __FILE__, __LINE__)
#define gs_xstrdup(s) gs_xstrdup_at((s), __FILE__, __LINE__)
#define gs_xstrdup_or_null(s) gs_xstrdup_or_null_at((s), __FILE__, __LINE__)
/*
 * vsnprintf(buf, cap, fmt, ap) for a format of text and the conversions
 * %s %d %u %c %zu %llu %% only (no flag, width or precision): the same
 * bytes and return value, without the C library's per-call set-up (a
 * tenth of a sheet's CPU went to formatting short texts). -2, with nothing
 * read from ap, for any other format: format it with vsnprintf.
 * gs_xasprintf and gs_doc_textf go through it.
 */
int gs_util_vfmt(char *buf, size_t cap, const char *fmt, va_list ap);
/*
 * fmt and ap formatted into small (cap bytes) when the text fits, else into
 * a new string left in *heap (NULL otherwise; the caller frees it): the
 * text, without an allocation for the short ones (most of a sheet's).
 */
const char *gs_util_vfmt_small(char *small, size_t cap, char **heap, const char *fmt, va_list ap);
#define gs_xasprintf(...) gs_xasprintf_at(__FILE__, __LINE__, __VA_ARGS__)
#define gs_xvasprintf(fmt, ap) gs_xvasprintf_at(__FILE__, __LINE__, (fmt), (ap))

/*
 * A library call that failed where only memory could make it fail (a
 * json_dumps, an fmemopen, libxml2's writer): "gpusheet: out of memory
 * (WHAT at FILE:LINE)", then abort(). The gs_x* family's one way out too.
 */
void gs_util_oom_at(const char *file, int line, const char *what) __attribute__((noreturn));
#define GS_OOM(what) gs_util_oom_at(__FILE__, __LINE__, (what))

/*
 * An impossible state: "gpusheet: BUG at FILE:LINE: MESSAGE", then abort().
 * With gs_util_oom_at, the one way the program aborts (git's BUG()).
 */
void gs_util_bug(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4), noreturn));
#define GS_BUG(...) gs_util_bug(__FILE__, __LINE__, __VA_ARGS__)

/* qsort / bsearch comparator over an array of char * (strcmp order). */
/* The last part of a path (after its last '/'), inside path. */
const char *gs_util_basename(const char *path);

/* s as a positive decimal integer up to INT64_MAX, digits only (no sign,
 * no space): 0, else -1 with *out untouched. */
int gs_util_posint(const char *s, uint64_t *out);

int gs_util_strcmp_ptr(const void *a, const void *b);
/* ASCII case-insensitive equality (the same in every locale). */
int gs_util_eq_ci(const char *a, const char *b);
/* Whether hay holds needle, ASCII case-insensitively; an empty needle is
 * in every hay (1). */
int gs_util_contains_ci(const char *hay, const char *needle);

typedef struct {
	char **v;
	size_t n, cap;
} gs_strvec;

#define GS_STRVEC_INIT { NULL, 0, 0 }

void gs_util_strvec_push(gs_strvec *v, char *s);            /* takes ownership of s */
void gs_util_strvec_push_dup(gs_strvec *v, const char *s);  /* pushes a copy of s */
void gs_util_strvec_sort(gs_strvec *v);
void gs_util_strvec_sort_unique(gs_strvec *v);
void gs_util_strvec_release(gs_strvec *v);

/*
 * u in decimal, '-' first when neg (the magnitude of a negative number),
 * written at the end of d: returns where it starts; it ends at
 * d + GS_DEC_MAX. printf's "%llu" (or "%lld") bytes, without printf.
 */
/* |v| as unsigned, INT64_MIN included (no signed overflow). */
static inline uint64_t gs_i64_mag(int64_t v)
{
	return v < 0 ? (uint64_t)(-(v + 1)) + 1 : (uint64_t)v;
}

#define GS_DEC_MAX 24
static inline char *gs_dec(char d[GS_DEC_MAX], uint64_t u, int neg)
{
	char *p = d + GS_DEC_MAX;

	do {
		*--p = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (neg)
		*--p = '-';
	return p;
}

/*
 * The UTF-8 sequence at s, of which n bytes may be read: its length (1 to
 * 4) with its code point in *cp, or 0 when it is not valid UTF-8 (overlong,
 * a surrogate, above U+10FFFF, cut short; *cp then holds s[0]). Reading
 * stops at the first byte that does not continue the sequence, so a
 * NUL-terminated string may be passed with n = 4.
 */
size_t gs_util_utf8_decode(const unsigned char *s, size_t n, uint32_t *cp);

/*
 * Eight bytes looked at at once (SWAR), for the writers that scan text for
 * the few bytes they escape: gs_swar_load reads s[0..7] (all readable);
 * gs_swar_eq(x, c) is nonzero when one of the eight equals c,
 * gs_swar_below(x, c) when one is below c (c <= 0x80), gs_swar_high(x)
 * when one is at or above 0x80. Exact whether any is found: a borrow only
 * ever starts at a byte that matches (which one is not told).
 */
#define GS_SWAR_ONES UINT64_C(0x0101010101010101)
#define GS_SWAR_HIGH UINT64_C(0x8080808080808080)

static inline uint64_t gs_swar_load(const void *s)
{
	uint64_t x;

	memcpy(&x, s, sizeof(x));
	return x;
}

static inline uint64_t gs_swar_below(uint64_t x, unsigned char c)
{
	return (x - GS_SWAR_ONES * c) & ~x & GS_SWAR_HIGH;
}

static inline uint64_t gs_swar_eq(uint64_t x, unsigned char c)
{
	return gs_swar_below(x ^ (GS_SWAR_ONES * c), 1);
}

static inline uint64_t gs_swar_high(uint64_t x)
{
	return x & GS_SWAR_HIGH;
}

#endif
