/*
 * check.h: the assertions of the unit tests, header only (static functions
 * and macros; include it from the one .c file of a test).
 *
 * Every check counts; a failed one prints "file:line: " and what failed,
 * with both values for the comparisons, and the test goes on. Each check
 * returns 1 when it held, so a test can skip what depends on it:
 *
 *	if (CHECK(p != NULL))
 *		CHECK_STR(p->name, "x");
 *
 * main ends with `return gs_check_exit("test_name");`, which prints the
 * count and gives the exit status (0, or 1 when any check failed).
 */
#ifndef GS_TEST_CHECK_H
#define GS_TEST_CHECK_H

#include <dirent.h>
#include <locale.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int gs_check_run, gs_check_failed;

#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
static inline int gs_check_at(int ok, const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	gs_check_run++;
	if (ok)
		return 1;
	gs_check_failed++;
	fprintf(stderr, "%s:%d: ", file, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return 0;
}

/* 1 when both strings are there and equal. */
/* One xorshift64 step of *s (never 0): the tests' random inputs, the same
 * on every run and every machine. */
static inline uint64_t gs_check_xorshift(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static inline int gs_streq(const char *a, const char *b)
{
	return a && b && strcmp(a, b) == 0;
}

#define STREQ(a, b) gs_streq((a), (b))

static inline int gs_check_str(const char *got, const char *want, const char *expr,
			       const char *file, int line)
{
	return gs_check_at(gs_streq(got, want), file, line,
			   "CHECK_STR failed: %s is %s%s%s, want %s%s%s", expr,
			   got ? "\"" : "", got ? got : "(null)", got ? "\"" : "",
			   want ? "\"" : "", want ? want : "(null)", want ? "\"" : "");
}

static inline int gs_check_int(intmax_t got, intmax_t want, const char *expr,
			       const char *file, int line)
{
	return gs_check_at(got == want, file, line,
			   "CHECK_INT failed: %s is %jd, want %jd", expr, got, want);
}

static inline int gs_check_u64(uint64_t got, uint64_t want, const char *expr,
			       const char *file, int line)
{
	return gs_check_at(got == want, file, line,
			   "CHECK_U64 failed: %s is %ju, want %ju", expr,
			   (uintmax_t)got, (uintmax_t)want);
}

/* cond holds. */
#define CHECK(cond) gs_check_at(!!(cond), __FILE__, __LINE__, "CHECK failed: %s", #cond)
/* Two strings are equal; NULL equals nothing, not even NULL. */
#define CHECK_STR(got, want) gs_check_str((got), (want), #got, __FILE__, __LINE__)
/* Two integers are equal, compared as intmax_t. */
#define CHECK_INT(got, want) gs_check_int((intmax_t)(got), (intmax_t)(want), #got, __FILE__, __LINE__)
/* Two byte counts (or other uint64_t) are equal. */
#define CHECK_U64(got, want) gs_check_u64((uint64_t)(got), (uint64_t)(want), #got, __FILE__, __LINE__)

/* The entries of dir other than "." and ".." (the tests that watch a
 * folder for leftovers), or -1 when it cannot be opened. */
static inline int gs_check_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)) != NULL)
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			n++;
	closedir(d);
	return n;
}

/* Prints "name: N checks, M failed"; the exit status for main. */
static inline int gs_check_exit(const char *name)
{
	printf("%s: %d checks, %d failed\n", name, gs_check_run, gs_check_failed);
	fflush(stdout);
	return gs_check_failed ? 1 : 0;
}

/*
 * The decimal-comma locale of the locale checks (tools/install-deps.sh
 * --test generates it): setlocale(LC_ALL, "de_DE.UTF-8") and proof that it
 * is active (localeconv's decimal point ",", printf's "%.1f" of 1.5 "1,5").
 * 1 when it is; 0 when it is missing (the locale left "C"): the caller
 * then ends with gs_check_locale_missing's code.
 */
static inline int gs_check_decimal_comma(void)
{
	char buf[16];

	if (!setlocale(LC_ALL, "de_DE.UTF-8"))
		return 0;
	snprintf(buf, sizeof(buf), "%.1f", 1.5);
	gs_check_at(strcmp(localeconv()->decimal_point, ",") == 0 && strcmp(buf, "1,5") == 0,
		    __FILE__, __LINE__, "de_DE.UTF-8 is set but not active: decimal point "
		    "\"%s\", %%.1f of 1.5 \"%s\"", localeconv()->decimal_point, buf);
	return 1;
}

/*
 * A test whose locale check could not run: 1 (a failure) under CI (the
 * environment variable CI set), where the locale must be installed; else
 * 77, which ctest shows as skipped, never as passed. A failure elsewhere
 * in the test still fails it (rc).
 */
static inline int gs_check_locale_missing(const char *name, int rc)
{
	if (rc)
		return rc;
	if (getenv("CI")) {
		fprintf(stderr, "%s: FAIL: the de_DE.UTF-8 locale is not installed "
			"(sh tools/install-deps.sh --test generates it)\n", name);
		return 1;
	}
	fprintf(stderr, "%s: SKIPPED: the de_DE.UTF-8 locale is not installed, the locale "
		"check did not run (sh tools/install-deps.sh --test generates it)\n", name);
	return 77;
}

#endif
