/*
 * util: allocate-or-abort wrappers, a printf into a malloc'd string, and a
 * growable vector of strings, shared by every module of the generator.
 *
 * Invariants:
 *  - Out of memory aborts, as cmark's xcalloc does: "gpusheet: out of
 *    memory" goes to stderr and the process calls abort(). Callers never
 *    check the result of a gs_x* function for NULL.
 *  - A request for 0 bytes (or 0 elements) allocates 1, so that the result
 *    is never NULL and can always be passed to free().
 *  - gs_xstrdup takes a string, never NULL; gs_xstrdup_or_null maps NULL
 *    to NULL and copies anything else.
 *  - gs_xasprintf / gs_xvasprintf return a malloc'd, NUL-terminated string;
 *    should the C library report an encoding error, the result is "".
 *  - gs_strvec owns its strings: gs_strvec_push takes the pointer (which
 *    must come from malloc), gs_strvec_push_dup pushes a copy, and
 *    gs_strvec_release frees every string and the array, and leaves the
 *    vector empty (GS_STRVEC_INIT), ready to be reused.
 *  - Sorting compares with strcmp (bytes, not the locale): the order does
 *    not depend on the environment. gs_strvec_sort_unique also frees the
 *    repeated strings, keeping one of each.
 */
#ifndef GS_UTIL_H
#define GS_UTIL_H

#include <stdarg.h>
#include <stddef.h>

void *gs_xmalloc(size_t n);
void *gs_xcalloc(size_t n, size_t size);
void *gs_xrealloc(void *p, size_t n);
char *gs_xstrdup(const char *s);
char *gs_xstrdup_or_null(const char *s);
char *gs_xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *gs_xvasprintf(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));

/* qsort / bsearch comparator over an array of char * (strcmp order). */
int gs_strcmp_ptr(const void *a, const void *b);

typedef struct {
	char **v;
	size_t n, cap;
} gs_strvec;

#define GS_STRVEC_INIT { NULL, 0, 0 }

void gs_strvec_push(gs_strvec *v, char *s);            /* takes ownership of s */
void gs_strvec_push_dup(gs_strvec *v, const char *s);  /* pushes a copy of s */
void gs_strvec_sort(gs_strvec *v);
void gs_strvec_sort_unique(gs_strvec *v);
void gs_strvec_release(gs_strvec *v);

#endif
