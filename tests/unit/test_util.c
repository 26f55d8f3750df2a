/*
 * util tests: gs_xasprintf, gs_strcmp_ptr, and gs_strvec (push, push_dup,
 * sort, sort_unique, release).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
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
	return gs_check_exit("test_util");
}
