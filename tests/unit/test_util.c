/*
 * util tests: gs_xasprintf, gs_util_strcmp_ptr, gs_util_eq_ci,
 * gs_util_contains_ci, and gs_strvec (push, push_dup, sort, sort_unique,
 * release); the labels' lookup (gs_tr_opt) with its memory of where a key
 * was found; the labels read by jansson (gs_tr_parse: by hand, what it
 * refuses and where); the eight-bytes-at-once tests (gs_swar_*)
 * against a byte-by-byte loop; gs_util_vfmt against vsnprintf.
 */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


#include "check.h"
#include "diag.h"
#include "labels.h"
#include "util.h"

static void S_test_asprintf(void)
{
	char *s = gs_xasprintf("%s/%d%c%s", "dir", 42, '\001', "x");
	char *e = gs_xasprintf("%s", "");
	char big[3000];
	char *b;

	CHECK_STR(s, "dir/42\001x");
	CHECK(e && e[0] == '\0');
	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	b = gs_xasprintf("<%s>", big);
	CHECK(b && strlen(b) == sizeof(big) + 1 && b[0] == '<' && b[sizeof(big)] == '>');
	free(s);
	free(e);
	free(b);
	/* 255 and 256 bytes: the last formatted on the stack, the first not */
	b = gs_xasprintf("%.*s", 255, big);
	CHECK(b && strlen(b) == 255 && b[254] == 'a');
	free(b);
	b = gs_xasprintf("%.*s", 256, big);
	CHECK(b && strlen(b) == 256 && b[255] == 'a');
	free(b);
}

/*
 * The same key in two tables, asked for in turn; a key in a buffer reused
 * for another key; an unknown key: each answer is the table's own
 * (en.json and es.json, by hand).
 */
static void S_test_labels(void)
{
	gs_strings en, es;
	gs_diag d = GS_DIAG_INIT;
	char key[32];
	int i;

	if (!CHECK(gs_tr_load(GS_LANG_EN, &en, &d) == 0 && gs_tr_load(GS_LANG_ES, &es, &d) == 0))
		return;
	for (i = 0; i < 3; i++) {
		CHECK_STR(gs_tr_opt(&en, "sheet.title"), "Decision sheet");
		CHECK_STR(gs_tr_opt(&es, "sheet.title"), "Ficha de decisión");
	}
	snprintf(key, sizeof(key), "%s", "site.title");
	CHECK_STR(gs_tr_opt(&en, key), "Workloads against offers");
	snprintf(key, sizeof(key), "%s", "sheet.title");
	CHECK_STR(gs_tr_opt(&en, key), "Decision sheet");
	snprintf(key, sizeof(key), "%s", "no.such.key");
	CHECK(gs_tr_opt(&en, key) == NULL);
	CHECK(gs_tr_opt(&es, key) == NULL);
	gs_tr_release(&en);
	gs_tr_release(&es);
	gs_diag_release(&d);
}

static void S_test_strdup(void)
{
	char *s = gs_xstrdup("abc");

	CHECK_STR(s, "abc");
	CHECK(gs_xstrdup_or_null(NULL) == NULL);
	free(s);
	s = gs_xstrdup_or_null("");
	CHECK(s && s[0] == '\0');
	free(s);
}

static void S_test_cmp(void)
{
	const char *a[] = { "b", "B", "a", "ab", "" };
	const char *k = "ab";

	qsort(a, 5, sizeof(*a), gs_util_strcmp_ptr);
	CHECK(STREQ(a[0], "") && STREQ(a[1], "B") && STREQ(a[2], "a") &&
	      STREQ(a[3], "ab") && STREQ(a[4], "b"));
	CHECK(bsearch(&k, a, 5, sizeof(*a), gs_util_strcmp_ptr) == &a[3]);
	CHECK(gs_util_strcmp_ptr(&a[2], &a[2]) == 0);
	CHECK(gs_util_strcmp_ptr(&a[2], &a[3]) < 0 && gs_util_strcmp_ptr(&a[4], &a[3]) > 0);
}

/* The one case-insensitive comparison of gen/ (ASCII, any locale). */
static void S_test_ci(void)
{
	CHECK(gs_util_eq_ci("RTX 4090", "rtx 4090"));
	CHECK(!gs_util_eq_ci("RTX 4090", "rtx 409"));
	CHECK(!gs_util_eq_ci("rtx", "rtx 4090"));
	CHECK(gs_util_eq_ci("", ""));
	CHECK(!gs_util_eq_ci("\xc3\x89", "\xc3\xa9"));   /* not ASCII: as bytes */
	CHECK(gs_util_contains_ci("NVIDIA GeForce RTX 4090", "rtx 4090"));
	CHECK(gs_util_contains_ci("PyTorch 2.4", "pytorch"));
	CHECK(!gs_util_contains_ci("rtx 409", "rtx 4090"));
	CHECK(!gs_util_contains_ci("", "a"));
	CHECK(gs_util_contains_ci("anything", ""));   /* an empty needle is in every hay */
	CHECK(gs_util_contains_ci("", ""));
}

static void S_test_strvec(void)
{
	gs_strvec v = GS_STRVEC_INIT;
	size_t i;

	gs_util_strvec_sort_unique(&v); /* empty: nothing to do */
	CHECK(v.n == 0);
	for (i = 0; i < 40; i++)
		gs_util_strvec_push(&v, gs_xasprintf("k%02zu", (40 - i) % 7));
	gs_util_strvec_push_dup(&v, "z");
	gs_util_strvec_push_dup(&v, "a");
	gs_util_strvec_push_dup(&v, "z");
	CHECK(v.n == 43 && v.cap >= 43);
	gs_util_strvec_sort_unique(&v);
	CHECK(v.n == 9);
	CHECK(STREQ(v.v[0], "a") && STREQ(v.v[1], "k00") && STREQ(v.v[7], "k06") &&
	      STREQ(v.v[8], "z"));
	for (i = 1; i < v.n; i++)
		CHECK(strcmp(v.v[i - 1], v.v[i]) < 0);
	gs_util_strvec_release(&v);
	CHECK(v.v == NULL && v.n == 0 && v.cap == 0);

	/* sort keeps repeats; the vector is reusable after release */
	gs_util_strvec_push_dup(&v, "y");
	gs_util_strvec_push_dup(&v, "x");
	gs_util_strvec_push_dup(&v, "y");
	gs_util_strvec_sort(&v);
	CHECK(v.n == 3 && STREQ(v.v[0], "x") && STREQ(v.v[1], "y") && STREQ(v.v[2], "y"));
	gs_util_strvec_release(&v);
}

/* gs_tr_parse: jansson's reading of a labels file, sorted by key; what is
 * not an object of distinct string members is refused, with the place. */
static void S_test_parse(void)
{
	/* a = "x", e-acute, U+1F600 from its surrogate pair, then newline,
	 * quote, backslash, slash; b = raw C3 A9 */
	static const char good[] = " {\"b\":\"\xC3\xA9\",\r\n\t\"a\" : \"x\\u00e9\\ud83d\\ude00\\n\\\"\\\\\\/\"} \n";
	static const struct {
		const char *text;
		const char *path;   /* the error's JSON path, or NULL: a line */
	} refused[] = {
		{ "{\"a\":1}", "$.a" }, { "{\"a\":\"x\",\"a\":\"y\"}", NULL },
		{ "{\"a\":\"\\u0000\"}", NULL }, { "{\"a\":\"\\ud800\"}", NULL },
		{ "{\"a\":\"\xC0\xAF\"}", NULL }, { "{\"a\":\"x\"} x", NULL },
		{ "[]", "$" }, { "{\"a\":null}", "$.a" }, { "", NULL },
	};
	gs_strings s;
	size_t i;

	for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		gs_diag d = GS_DIAG_INIT;
		CHECK(gs_tr_parse(refused[i].text, strlen(refused[i].text), "l.json", &s, &d) == -1);
		CHECK(s.count == 0 && s.items == NULL);
		if (CHECK(d.count == 1)) {
			if (refused[i].path)
				CHECK_STR(d.items[0].path, refused[i].path);
			else
				CHECK(d.items[0].path == NULL && d.items[0].line >= 1);
		}
		gs_diag_release(&d);
	}
	{
		gs_diag d = GS_DIAG_INIT;
		if (CHECK(gs_tr_parse(good, sizeof(good) - 1, "l.json", &s, &d) == 0) &&
		    CHECK(s.count == 2)) {
			CHECK_STR(s.items[0].key, "a");
			CHECK_STR(s.items[0].text, "x\xC3\xA9\xF0\x9F\x98\x80\n\"\\/");
			CHECK_STR(s.items[1].key, "b");
			CHECK_STR(s.items[1].text, "\xC3\xA9");
			CHECK(s.items[2].key == NULL);
		}
		gs_tr_release(&s);
		gs_diag_release(&d);
	}
}

/*
 * gs_swar_eq / below / high against the byte-by-byte answer, for every byte
 * value at every one of the 8 places, among fillers around the bytes tested
 * (a borrow out of a byte below must not make a match that is not there).
 */
static void S_test_swar(void)
{
	static const unsigned char fill[] = { 0x00, 0x01, 0x1f, 0x20, 0x21, 0x22, 0x23, 0x5b,
					      0x5c, 0x5d, 0x7f, 0x80, 0xc3, 0xff, 'a' };
	static const unsigned char eq[] = { '"', '\\', '&', '<', '>', '|', 0x01, 0x7f };
	static const unsigned char below[] = { 0x01, 0x20, 0x21, 0x80 };
	size_t f, pos, k, j, bad = 0;
	unsigned v;

	for (f = 0; f < sizeof(fill); f++)
		for (pos = 0; pos < 8; pos++)
			for (v = 0; v < 256; v++) {
				unsigned char b[8];
				uint64_t x;
				memset(b, fill[f], sizeof(b));
				b[pos] = (unsigned char)v;
				x = gs_swar_load(b);
				for (k = 0; k < sizeof(eq); k++) {
					int want = 0;
					for (j = 0; j < 8; j++)
						want |= b[j] == eq[k];
					bad += !gs_swar_eq(x, eq[k]) != !want;
				}
				for (k = 0; k < sizeof(below); k++) {
					int want = 0;
					for (j = 0; j < 8; j++)
						want |= b[j] < below[k];
					bad += !gs_swar_below(x, below[k]) != !want;
				}
				bad += !gs_swar_high(x) != !(fill[f] >= 0x80 || v >= 0x80);
			}
	CHECK(bad == 0);
}

/* gs_util_vfmt and vsnprintf on the same arguments: the same bytes and count. */
static int S_fmt_same(size_t cap, const char *fmt, ...)
{
	char a[64], b[64];
	va_list ap;
	int na, nb;

	memset(a, 'x', sizeof(a));
	memset(b, 'x', sizeof(b));
	va_start(ap, fmt);
	na = gs_util_vfmt(a, cap, fmt, ap);
	va_end(ap);
	va_start(ap, fmt);
	nb = vsnprintf(b, cap, fmt, ap);
	va_end(ap);
	return na == nb && memcmp(a, b, sizeof(a)) == 0;
}

static int S_fmt_refused(const char *fmt, ...)
{
	char a[16];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = gs_util_vfmt(a, sizeof(a), fmt, ap);
	va_end(ap);
	return n == -2;
}

static void S_test_vfmt(void)
{
	size_t cap;

	/* every cap from none to past the end: truncated as vsnprintf does */
	for (cap = 0; cap <= 40; cap++) {
		CHECK(S_fmt_same(cap, "%s: %s (%s)", "GPU", "H100 80 GB", "é"));
		CHECK(S_fmt_same(cap, "%d|%d|%d|%u", 0, -7, INT_MIN, UINT_MAX));
		CHECK(S_fmt_same(cap, "%zu / %llu %%", (size_t)SIZE_MAX, ULLONG_MAX));
		CHECK(S_fmt_same(cap, "%c%c%s", 'a', 0, "b"));
		CHECK(S_fmt_same(cap, "plain text, no conversion"));
		CHECK(S_fmt_same(cap, "%s", ""));
	}
	CHECK(S_fmt_same(32, "[%s]", (const char *)NULL));   /* "(null)", as glibc writes it */
	/* what it does not write: flags, widths, precisions, other conversions */
	CHECK(S_fmt_refused("%.*s", 2, "abc"));
	CHECK(S_fmt_refused("%5s", "a"));
	CHECK(S_fmt_refused("%x", 10u));
	CHECK(S_fmt_refused("%lu", 10ul));
	CHECK(S_fmt_refused("%s %f", "a", 1.0));
	CHECK(S_fmt_refused("100%"));
}

/* gs_dec: printf's %llu / %lld bytes, at the end of its buffer. */
static void S_test_dec(void)
{
	char d[GS_DEC_MAX], want[32];
	const uint64_t v[] = { 0, 1, 9, 10, 4714, 9223372036854775807ull,
			       9223372036854775808ull, UINT64_MAX };
	size_t i;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		char *p = gs_dec(d, v[i], 0);
		snprintf(want, sizeof(want), "%llu", (unsigned long long)v[i]);
		CHECK(strlen(want) == (size_t)(d + GS_DEC_MAX - p) && memcmp(p, want, strlen(want)) == 0);
	}
	/* INT64_MIN's magnitude, negative */
	{
		char *p = gs_dec(d, 9223372036854775808ull, 1);
		CHECK(memcmp(p, "-9223372036854775808", 20) == 0 && d + GS_DEC_MAX - p == 20);
	}
	/* gs_i64_mag: |v| without signed overflow, INT64_MIN included */
	CHECK(gs_i64_mag(0) == 0);
	CHECK(gs_i64_mag(-4714) == 4714 && gs_i64_mag(4714) == 4714);
	CHECK(gs_i64_mag(INT64_MAX) == 9223372036854775807ull);
	CHECK(gs_i64_mag(INT64_MIN) == 9223372036854775808ull);
}

int main(void)
{
	S_test_dec();
	S_test_asprintf();
	S_test_strdup();
	S_test_cmp();
	S_test_ci();
	S_test_strvec();
	S_test_labels();
	S_test_parse();
	S_test_swar();
	S_test_vfmt();
	return gs_check_exit("test_util");
}
