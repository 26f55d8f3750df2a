/*
 * spool and keys file tests: what a site keeps out of memory comes back
 * byte for byte (spool.h), and a keys file's lines are found by their
 * prefix, parsed by jansson one at a time, and a malformed file is refused
 * naming its line (site_keysfile.c).
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "site_ctx.h"
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

/* dir's keys file holding text. */
static void S_keys(const char *dir, const char *text)
{
	char *path = gs_xasprintf("%s/%s", dir, GS_SITE_KEYS_FILE);
	FILE *f = fopen(path, "wb");

	if (CHECK(f != NULL)) {
		fputs(text, f);
		fclose(f);
	}
	free(path);
}

static void S_count_page(void *arg, const char *name, const char *key)
{
	size_t *n = arg;

	(*n)++;
	CHECK(strcmp(name, "index.html") == 0 || strcmp(name, "offers/a.b.html") == 0);
	CHECK_STR(key, "k");
}

/* The keys file read by lines (site_keysfile.c): found by prefix, parsed by jansson. */
static void S_test_keys(const char *dir)
{
	const char *text = "{\"format\":\"" GS_SITE_KEYS_FORMAT "\"}\n"
			   "{\"page\":\"index.html\",\"key\":\"k\"}\n"
			   "{\"page\":\"offers\\/a.b.html\",\"key\":\"k\"}\n"
			   "{\"sheet\":\"a-1\",\"n\":[1,\"x\\\"\"]}\n"
			   "{\"sheet\":\"b.2\",\"n\":{}}\n";
	gs_error why = GS_ERROR_INIT;
	gs_site_keys k;
	const gs_site_keys_line *l;
	size_t npages = 0;
	char *bytes;
	json_t *o;

	S_keys(dir, text);
	if (!CHECK_INT(gs_site_keys_open(dir, &k, &why), 0)) {
		fprintf(stderr, "  %s\n", gs_error_message(&why));
		gs_error_release(&why);
		return;
	}
	CHECK_INT(k.nsheets, 2);
	CHECK_INT(gs_site_keys_pages(&k, S_count_page, &npages, NULL), 0);
	CHECK_INT(npages, 2);
	l = gs_site_keys_find(&k, "b.2");
	if (CHECK(l != NULL)) {
		CHECK_STR(gs_site_keys_line_id(&k, l), "b.2");
		CHECK_INT(gs_site_keys_lineno(&k, l), 5);
		o = gs_site_keys_load(&k, l, &bytes, NULL);
		CHECK(json_is_object(json_object_get(o, "n")));
		CHECK_STR(bytes, "{\"sheet\":\"b.2\",\"n\":{}}\n");
		json_decref(o);
		free(bytes);
	}
	CHECK(gs_site_keys_find(&k, "a-1") != NULL);
	CHECK(gs_site_keys_find(&k, "c") == NULL);
	gs_site_keys_close(&k);
	CHECK_INT(gs_site_keys_check(dir, NULL), 0);

	/* a sheet's line that jansson refuses: found, its load names its line */
	S_keys(dir, "{\"format\":\"" GS_SITE_KEYS_FORMAT "\"}\n{\"sheet\":\"a\",\"n\":[1,]}\n");
	if (CHECK_INT(gs_site_keys_open(dir, &k, NULL), 0)) {
		l = gs_site_keys_find(&k, "a");
		CHECK(l != NULL && gs_site_keys_load(&k, l, NULL, &why) == NULL);
		CHECK(strncmp(gs_error_message(&why), "line 2, column ", 15) == 0);
		gs_error_release(&why);
		gs_site_keys_close(&k);
	}
	CHECK_INT(gs_site_keys_check(dir, NULL), -1);

	/* refused at the opening, with the line named */
	{
		static const char *const bad[][2] = {
			{ "", "is empty" },
			{ "{\"format\":\"gpusheet-keys/3\",\"pages\":{\n}}\n", "is of format gpusheet-keys/3," },
			{ "{\"format\":\"x\"}\n", "line 1:" },
			{ "{\"format\":\"" GS_SITE_KEYS_FORMAT "\"}", "line 1: cut short" },
			{ "{\"format\":\"" GS_SITE_KEYS_FORMAT "\"}\n{\"sheet\":\"a\",\"n\":1}", "line 2: cut short" },
			{ "{\"format\":\"" GS_SITE_KEYS_FORMAT "\"}\n\n", "line 2: expected" },
			{ "{\"format\":\"" GS_SITE_KEYS_FORMAT "\"}\n{\"sheet\": \"a\",\"n\":1}\n", "line 2: expected" },
			{ "{\"format\":\"" GS_SITE_KEYS_FORMAT "\"}\n{\"sheet\":\"A\",\"n\":1}\n", "line 2: a sheet's id" },
			{ "{\"format\":\"" GS_SITE_KEYS_FORMAT "\"}\n{\"sheet\":\"a\"}\n", "line 2: expected" },
			{ "{\"format\":\"" GS_SITE_KEYS_FORMAT "\"}\n{\"sheet\":\"b\",\"n\":1}\n{\"sheet\":\"a\",\"n\":1}\n", "line 3: sheet a after b" },
			{ "{\"format\":\"" GS_SITE_KEYS_FORMAT "\"}\n{\"sheet\":\"a\",\"n\":1}\n{\"sheet\":\"a\",\"n\":1}\n", "line 3: sheet a after a" },
			{ "{\"format\":\"" GS_SITE_KEYS_FORMAT "\"}\n{\"sheet\":\"a\",\"n\":1}\n{\"page\":\"x\",\"key\":\"k\"}\n", "line 3: expected" },
		};
		size_t i;
		for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			S_keys(dir, bad[i][0]);
			if (!gs_check_at(gs_site_keys_open(dir, &k, &why) == -1, __FILE__, __LINE__,
					 "accepted: %s", bad[i][0])) {
				gs_site_keys_close(&k);
				continue;
			}
			gs_check_at(strstr(gs_error_message(&why), bad[i][1]) != NULL, __FILE__,
				    __LINE__, "%s: said \"%s\"", bad[i][1], gs_error_message(&why));
			gs_error_release(&why);
			CHECK(k.f == NULL && k.sheets == NULL);
		}
	}
	/* a page's line that is not a name and a key: the pages refused, line named */
	S_keys(dir, "{\"format\":\"" GS_SITE_KEYS_FORMAT "\"}\n{\"page\":\"x\",\"key\":7}\n");
	if (CHECK_INT(gs_site_keys_open(dir, &k, NULL), 0)) {
		CHECK_INT(gs_site_keys_pages(&k, S_count_page, &npages, &why), -1);
		CHECK(strncmp(gs_error_message(&why), "line 2:", 7) == 0);
		gs_error_release(&why);
		gs_site_keys_close(&k);
	}
	S_keys(dir, "");
	{
		char *path = gs_xasprintf("%s/%s", dir, GS_SITE_KEYS_FILE);
		unlink(path);
		free(path);
	}
}

int main(void)
{
	char tmpl[] = "/tmp/gs-spool-XXXXXX";
	char *tmp = mkdtemp(tmpl);

	if (!CHECK(tmp != NULL))
		return gs_check_exit("test_spool");
	S_test_spool(tmp);
	S_test_keys(tmp);
	rmdir(tmp);
	return gs_check_exit("test_spool");
}
