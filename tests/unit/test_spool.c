/*
 * spool and jsonscan tests: what a site keeps out of memory comes back
 * byte for byte (spool.h), and the members of a keys-like file are found
 * with their exact byte ranges, without a tree, and malformed files are
 * refused (jsonscan.h).
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "jsonscan.h"
#include "spool.h"
#include "util.h"

static void S_test_spool(const char *dir)
{
	gs_error err = GS_ERROR_INIT;
	gs_spool *s = gs_spool_new(dir, &err);
	char *v[3];
	char *big;
	size_t i;

	if (!CHECK(s != NULL))
		return;
	/* anonymous: nothing visible in the folder */
	CHECK_INT(gs_check_entries(dir), 0);
	/* item 0: "a", NULL, "" (an empty string is not NULL) */
	v[0] = "a";
	v[1] = NULL;
	v[2] = "";
	CHECK_INT(gs_spool_put(s, v, 3, &err), 0);
	/* item 1: no strings (a result without reasons) */
	CHECK_INT(gs_spool_put(s, NULL, 0, &err), 0);
	/* item 2: 100,000 bytes, more than the 64 KiB write buffer */
	big = gs_xmalloc(100001);
	memset(big, 'x', 100000);
	big[100000] = '\0';
	big[0] = 'B';
	v[0] = big;
	CHECK_INT(gs_spool_put(s, v, 1, &err), 0);
	/* items 3..2002: "item N", to cross the buffer many times */
	for (i = 3; i < 2003; i++) {
		char *t = gs_xasprintf("item %zu with some words after it, as a reason has", i);
		v[0] = NULL;
		v[1] = t;
		CHECK_INT(gs_spool_put(s, v, 2, &err), 0);
		free(t);
	}
	CHECK_INT(gs_spool_count(s), 2003);
	if (CHECK_INT(gs_spool_load(s, 0, 3, &err), 0)) {
		CHECK_INT(gs_spool_size(s, 0), 3);
		CHECK_STR(gs_spool_get(s, 0, 0), "a");
		CHECK(gs_spool_get(s, 0, 1) == NULL);
		CHECK_STR(gs_spool_get(s, 0, 2), "");
		CHECK(gs_spool_get(s, 0, 3) == NULL);   /* past the list */
		CHECK_INT(gs_spool_size(s, 1), 0);
		CHECK(gs_spool_get(s, 1, 0) == NULL);
		CHECK_STR(gs_spool_get(s, 2, 0), big);
	}
	/* a range in the middle, then one item, then the last */
	if (CHECK_INT(gs_spool_load(s, 1000, 1100, &err), 0)) {
		CHECK_STR(gs_spool_get(s, 1000, 1), "item 1000 with some words after it, as a reason has");
		CHECK_STR(gs_spool_get(s, 1099, 1), "item 1099 with some words after it, as a reason has");
		CHECK(gs_spool_get(s, 1050, 0) == NULL);
	}
	if (CHECK_INT(gs_spool_load(s, 2002, 2003, &err), 0))
		CHECK_STR(gs_spool_get(s, 2002, 1), "item 2002 with some words after it, as a reason has");
	/* appending after a load, then loading the new item */
	v[0] = "late";
	CHECK_INT(gs_spool_put(s, v, 1, &err), 0);
	if (CHECK_INT(gs_spool_load(s, 2003, 2004, &err), 0))
		CHECK_STR(gs_spool_get(s, 2003, 0), "late");
	/* an empty range */
	CHECK_INT(gs_spool_load(s, 5, 5, &err), 0);
	gs_spool_free(s);
	free(big);
	CHECK_INT(gs_check_entries(dir), 0);
	/* a folder that is not there */
	s = gs_spool_new("/nonexistent-gs-folder", &err);
	CHECK(s == NULL && strstr(gs_error_message(&err), "/nonexistent-gs-folder") != NULL);
	gs_error_release(&err);
}

/* f holding text, rewound. */
static FILE *S_file(const char *text)
{
	FILE *f = tmpfile();

	if (f) {
		fputs(text, f);
		fflush(f);
	}
	return f;
}

/* The bytes of m's range in text. */
static char *S_range(const char *text, const gs_jscan_member *m)
{
	return m ? gs_xasprintf("%.*s", (int)m->len, text + m->off) : NULL;
}

static void S_test_jscan(void)
{
	/* names with escapes (a quote, \u00e9 = é, a slash), nested values with
	 * brackets inside strings, members not in order */
	const char *text = "{\n \"format\": \"k/1\",\n \"sheets\": {\n  \"z\": {\"a\": [1, {\"b\": \"}]\"}]},"
			   "\n  \"q\\\"\\u00e9/\": null, \"m\":-1.5e3 ,\"e\":{}\n },\n \"n\": [true, false]\n}\n";
	FILE *f = S_file(text);
	gs_jscan s;
	char *r;
	json_t *v;

	if (!CHECK(f != NULL))
		return;
	if (CHECK_INT(gs_jsonscan_file(f, "sheets", &s), 0)) {
		CHECK_INT(s.ntop, 3);
		CHECK_INT(s.ninner, 4);
		/* sorted by name: "e", "m", "q\"é/", "z" */
		CHECK_STR(s.inner[0].name, "e");
		CHECK_STR(s.inner[1].name, "m");
		CHECK_STR(s.inner[2].name, "q\"\xc3\xa9/");
		CHECK_STR(s.inner[3].name, "z");
		r = S_range(text, gs_jsonscan_find(&s, 0, "z"));
		CHECK_STR(r, "{\"a\": [1, {\"b\": \"}]\"}]}");
		free(r);
		r = S_range(text, gs_jsonscan_find(&s, 0, "m"));
		CHECK_STR(r, "-1.5e3");
		free(r);
		r = S_range(text, gs_jsonscan_find(&s, 0, "e"));
		CHECK_STR(r, "{}");
		free(r);
		r = S_range(text, gs_jsonscan_find(&s, 1, "format"));
		CHECK_STR(r, "\"k/1\"");
		free(r);
		r = S_range(text, gs_jsonscan_find(&s, 1, "n"));
		CHECK_STR(r, "[true, false]");
		free(r);
		CHECK(gs_jsonscan_find(&s, 0, "absent") == NULL);
		CHECK(gs_jsonscan_find(&s, 0, "format") == NULL);  /* a top member, not inner */
		v = gs_jsonscan_load(fileno(f), gs_jsonscan_find(&s, 0, "z"), 0);
		CHECK(json_is_object(v) && json_is_array(json_object_get(v, "a")));
		json_decref(v);
		v = gs_jsonscan_load(fileno(f), gs_jsonscan_find(&s, 0, "q\"\xc3\xa9/"), 0);
		CHECK(json_is_null(v));
		json_decref(v);
		gs_jsonscan_release(&s);
	}
	fclose(f);

	/* inner absent, or not an object: inner is NULL */
	f = S_file("{\"sheets\": [1]}");
	if (f && CHECK_INT(gs_jsonscan_file(f, "sheets", &s), 0)) {
		CHECK(s.inner == NULL && s.ntop == 1);
		gs_jsonscan_release(&s);
	}
	if (f)
		fclose(f);
	/* an empty inner object is not NULL */
	f = S_file("{\"sheets\": {}}");
	if (f && CHECK_INT(gs_jsonscan_file(f, "sheets", &s), 0)) {
		CHECK(s.inner != NULL && s.ninner == 0);
		gs_jsonscan_release(&s);
	}
	if (f)
		fclose(f);

	/* refused: each breaks the structure (or names a member twice) */
	{
		static const char *const bad[] = {
			"",                                       /* nothing */
			"[1]",                                    /* not an object */
			"{\"a\": 1",                              /* not closed */
			"{\"a\": 1} x",                           /* something after */
			"{\"a\" 1}",                              /* no ':' */
			"{\"a\": 1 \"b\": 2}",                    /* no ',' */
			"{\"a\": [1}",                            /* brackets crossed */
			"{\"a\": \"x}",                           /* string not closed */
			"{\"a\": 1, \"a\": 2}",                   /* a top name twice */
			"{\"sheets\": {\"x\": 1, \"x\": 2}}",     /* an inner name twice */
			"{\"sheets\": {\"x\": 1,}}",              /* a trailing ',' */
			"{a: 1}",                                 /* a name not quoted */
			"{\"a\": }",                              /* no value */
			"{\"a\": \"tab\there\"}",                 /* a raw control byte */
		};
		size_t i;
		for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			f = S_file(bad[i]);
			if (!f)
				continue;
			if (!gs_check_at(gs_jsonscan_file(f, "sheets", &s) == -1, __FILE__, __LINE__,
					 "accepted: %s", bad[i]))
				gs_jsonscan_release(&s);
			CHECK(s.top == NULL && s.inner == NULL);
			fclose(f);
		}
	}
}

int main(void)
{
	char tmpl[] = "/tmp/gs-spool-XXXXXX";
	char *tmp = mkdtemp(tmpl);

	if (!CHECK(tmp != NULL))
		return gs_check_exit("test_spool");
	S_test_spool(tmp);
	S_test_jscan();
	rmdir(tmp);
	return gs_check_exit("test_spool");
}
