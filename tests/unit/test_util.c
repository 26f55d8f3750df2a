/*
 * util tests: gs_xasprintf, gs_strcmp_ptr, and gs_strvec (push, push_dup,
 * sort, sort_unique, release); the labels' lookup (gs_tr_opt) with its
 * memory of where a key was found.
 */
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

	if (!CHECK(gs_strings_load(GS_LANG_EN, &en, &d) == 0 && gs_strings_load(GS_LANG_ES, &es, &d) == 0))
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
	gs_strings_release(&en);
	gs_strings_release(&es);
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

	qsort(a, 5, sizeof(*a), gs_strcmp_ptr);
	CHECK(STREQ(a[0], "") && STREQ(a[1], "B") && STREQ(a[2], "a") &&
	      STREQ(a[3], "ab") && STREQ(a[4], "b"));
	CHECK(bsearch(&k, a, 5, sizeof(*a), gs_strcmp_ptr) == &a[3]);
	CHECK(gs_strcmp_ptr(&a[2], &a[2]) == 0);
	CHECK(gs_strcmp_ptr(&a[2], &a[3]) < 0 && gs_strcmp_ptr(&a[4], &a[3]) > 0);
}

static void S_test_strvec(void)
{
	gs_strvec v = GS_STRVEC_INIT;
	size_t i;

	gs_strvec_sort_unique(&v); /* empty: nothing to do */
	CHECK(v.n == 0);
	for (i = 0; i < 40; i++)
		gs_strvec_push(&v, gs_xasprintf("k%02zu", (40 - i) % 7));
	gs_strvec_push_dup(&v, "z");
	gs_strvec_push_dup(&v, "a");
	gs_strvec_push_dup(&v, "z");
	CHECK(v.n == 43 && v.cap >= 43);
	gs_strvec_sort_unique(&v);
	CHECK(v.n == 9);
	CHECK(STREQ(v.v[0], "a") && STREQ(v.v[1], "k00") && STREQ(v.v[7], "k06") &&
	      STREQ(v.v[8], "z"));
	for (i = 1; i < v.n; i++)
		CHECK(strcmp(v.v[i - 1], v.v[i]) < 0);
	gs_strvec_release(&v);
	CHECK(v.v == NULL && v.n == 0 && v.cap == 0);

	/* sort keeps repeats; the vector is reusable after release */
	gs_strvec_push_dup(&v, "y");
	gs_strvec_push_dup(&v, "x");
	gs_strvec_push_dup(&v, "y");
	gs_strvec_sort(&v);
	CHECK(v.n == 3 && STREQ(v.v[0], "x") && STREQ(v.v[1], "y") && STREQ(v.v[2], "y"));
	gs_strvec_release(&v);
}

int main(void)
{
	S_test_asprintf();
	S_test_strdup();
	S_test_cmp();
	S_test_strvec();
	S_test_labels();
	return gs_check_exit("test_util");
}
