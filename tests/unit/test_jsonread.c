/*
 * test_jsonread: the one-pass reader (gs_jr_parse_fast) gives the tree
 * jansson gives (json_loadb with JSON_REJECT_DUPLICATES), or gives up:
 * the same types, values, strings' bytes and the members in the same order
 * (what a reader iterates), for every JSON file of the source tree, for
 * cases at the edges of what it reads (escapes, UTF-8 jansson refuses,
 * numbers, words, duplicates, trailing bytes), and for 20,000 texts with
 * bytes changed at random; what jansson refuses it never accepts. And
 * gs_jr_load's bounds, which it skips walking for when the one-pass reader
 * measured the text within them.
 */
#define _XOPEN_SOURCE 700
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "buf.h"
#include "jsonread.h"
#include "outfile.h"

#ifndef GS_TEST_SOURCE_DIR
#error "GS_TEST_SOURCE_DIR must name the source tree"
#endif

/* 1 when a and b are the same tree, members in the same order. */
static int same_tree(json_t *a, json_t *b)
{
	if (json_typeof(a) != json_typeof(b))
		return 0;
	switch (json_typeof(a)) {
	case JSON_OBJECT: {
		void *ia = json_object_iter(a), *ib = json_object_iter(b);

		if (json_object_size(a) != json_object_size(b))
			return 0;
		for (; ia && ib; ia = json_object_iter_next(a, ia), ib = json_object_iter_next(b, ib))
			if (json_object_iter_key_len(ia) != json_object_iter_key_len(ib) ||
			    memcmp(json_object_iter_key(ia), json_object_iter_key(ib),
				   json_object_iter_key_len(ia)) != 0 ||
			    !same_tree(json_object_iter_value(ia), json_object_iter_value(ib)))
				return 0;
		return !ia && !ib;
	}
	case JSON_ARRAY: {
		size_t i;

		if (json_array_size(a) != json_array_size(b))
			return 0;
		for (i = 0; i < json_array_size(a); i++)
			if (!same_tree(json_array_get(a, i), json_array_get(b, i)))
				return 0;
		return 1;
	}
	case JSON_STRING:
		return json_string_length(a) == json_string_length(b) &&
		       memcmp(json_string_value(a), json_string_value(b), json_string_length(a)) == 0;
	case JSON_INTEGER:
		return json_integer_value(a) == json_integer_value(b);
	case JSON_REAL:
		return json_real_value(a) == json_real_value(b);
	default:
		return 1;
	}
}

static size_t S_fast_read, S_checked;

/* Checks text both ways; 1 when the one-pass reader read it. */
static int check_text(const char *what, const char *text, size_t len)
{
	json_error_t e;
	json_t *fast = gs_jr_parse_fast(text, len);
	json_t *ref = json_loadb(text, len, JSON_REJECT_DUPLICATES, &e);
	int read = fast != NULL;

	S_checked++;
	if (fast) {
		S_fast_read++;
		gs_check_at(ref != NULL, __FILE__, __LINE__,
			    "%s: read by the one-pass reader, refused by jansson (%s)", what, e.text);
		if (ref)
			gs_check_at(same_tree(fast, ref), __FILE__, __LINE__,
				    "%s: the one-pass reader's tree differs from jansson's", what);
	}
	json_decref(fast);
	json_decref(ref);
	return read;
}

#define CASE(text, want_read) \
	gs_check_at(check_text(text, text, sizeof(text) - 1) == (want_read), __FILE__, __LINE__, \
		    "%s: read %d, expected %d", text, !(want_read), (want_read))

static int S_file(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	size_t n = strlen(path), len = 0;
	char *text;

	(void)st;
	(void)ftw;
	if (type != FTW_F || n < 5 || strcmp(path + n - 5, ".json") != 0 || strstr(path, "/build"))
		return 0;
	text = gs_outfile_read(path, &len);
	if (text)
		check_text(path, text, len);
	free(text);
	return 0;
}

/* gs_jr_load of text: 0 when it loads, else -1 with an error at path. */
static int load_text(const char *text, const char *path)
{
	gs_diag d = GS_DIAG_INIT;
	gs_jr r;
	json_t *root;
	int rc;

	gs_jr_init(&r, "t.json", &d);
	r.text = text;
	r.len = strlen(text);
	root = gs_jr_load(&r);
	rc = root ? 0 : -1;
	if (root)
		CHECK(d.count == 0);
	else
		gs_check_at(d.count == 1 && STREQ(d.items[0].path, path), __FILE__, __LINE__,
			    "bound at %s: %zu messages, the first at %s", path, d.count,
			    d.count && d.items[0].path ? d.items[0].path : "(none)");
	json_decref(root);
	gs_diag_release(&d);
	return rc;
}

/* A text of n copies of item between open and close, comma-separated. */
static char *repeat(const char *open, const char *item, size_t n, const char *sep,
		    const char *close)
{
	size_t li = strlen(item), ls = strlen(sep), i;
	char *t = malloc(strlen(open) + n * (li + ls) + strlen(close) + 1), *p = t;

	if (!t)
		abort();
	p += sprintf(p, "%s", open);
	for (i = 0; i < n; i++) {
		if (i)
			p += sprintf(p, "%s", sep);
		memcpy(p, item, li);
		p += li;
	}
	sprintf(p, "%s", close);
	return t;
}

/*
 * gs_jr_load's bounds (a string, a key, an array, an object) hold whichever
 * reader read the text: at the bound it loads, one past it is refused at
 * the value's path; a string's bound is on its decoded bytes.
 */
static void check_bounds(void)
{
	char item[32], *t;
	int k;

	for (k = 0; k < 2; k++) {
		t = repeat("{\"s\": \"", "x", GS_JR_MAX_STRING + (size_t)k, "", "\"}");
		CHECK(load_text(t, "$.s") == -k);
		free(t);
		t = repeat("{\"s\": \"", "\\n", GS_JR_MAX_STRING + (size_t)k, "", "\"}");
		CHECK(load_text(t, "$.s") == -k);
		free(t);
		t = repeat("{\"a\": [", "1", GS_JR_MAX_ITEMS + (size_t)k, ", ", "]}");
		CHECK(load_text(t, "$.a") == -k);
		free(t);
		t = repeat("{\"", "k", GS_JR_MAX_STRING + (size_t)k, "", "\": 1}");
		CHECK(load_text(t, "$") == -k);
		free(t);
	}
	/* an object of 1,001 members (distinct names) */
	{
		gs_buf b = GS_BUF_INIT;
		size_t i;

		gs_buf_puts(&b, "{\"o\": {");
		for (i = 0; i <= GS_JR_MAX_ITEMS; i++) {
			snprintf(item, sizeof(item), "%s\"m%zu\": %zu", i ? ", " : "", i, i);
			gs_buf_puts(&b, item);
		}
		gs_buf_puts(&b, "}}");
		CHECK(load_text(b.data, "$.o") == -1);
		gs_buf_release(&b);
	}
}

static uint64_t S_seed = 0x2545f4914f6cdd1dull;

static unsigned rnd(unsigned n)
{
	return (unsigned)(gs_check_xorshift(&S_seed) % n);
}

int main(void)
{
	static const char sample[] =
		"{\"a\": [1, -2, 0, -0, 123456789012345678, true, false, null, {}, []],\n"
		" \"s\": \"x\\n\\t\\\"\\\\/\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\", \"o\": {\"k\": {\"\": \"e\"}},\n"
		" \"b\": \"caf\xc3\xa9\", \"n\\tk\": 7}";
	static const char alphabet[] = "{}[]\":,\\ntfu0123456789.-eE \t\r\n\x80\xc3\xa9\xed\xf5\x01";
	size_t files, i;
	int r;

	/* what it reads */
	CASE("{}", 1);
	CASE("[]", 1);
	CASE(" \t\r\n{ \"a\" : 1 } \n", 1);
	CASE("[0, -0, 7, -12, 999999999999999999, -999999999999999999]", 1);
	CASE("{\"esc\": \"\\\" \\\\ \\/ \\b \\f \\n \\r \\t\"}", 1);
	CASE("{\"k\\n\": \"v\", \"k\": \"w\"}", 1);
	CASE("[\"\xc2\xa2\", \"\xe2\x82\xac\", \"\xf0\x90\x8d\x88\", \"\xf4\x8f\xbf\xbf\"]", 1);
	CASE("[[[[[[[[]]]]]]]]", 1);
	CASE("[true,false,null]", 1);
	/* what it leaves to jansson (accepted or refused there) */
	CASE("{\"u\": \"\\u00e9\"}", 0);
	CASE("[1.5]", 0);
	CASE("[1e3]", 0);
	CASE("[1E3]", 0);
	CASE("[1234567890123456789]", 0);
	CASE("[99999999999999999999]", 0);
	CASE("[01]", 0);
	CASE("[-]", 0);
	CASE("[-a]", 0);
	CASE("{\"a\": 1, \"a\": 2}", 0);
	CASE("{\"a\\n\": 1, \"a\\n\": 2}", 0);
	CASE("[truex]", 0);
	CASE("[tru]", 0);
	CASE("[nul]", 0);
	CASE("[True]", 0);
	CASE("{} x", 0);
	CASE("{}{}", 0);
	CASE("\"s\"", 0);
	CASE("1", 0);
	CASE("", 0);
	CASE("   ", 0);
	CASE("[1,]", 0);
	CASE("{\"a\":1,}", 0);
	CASE("{\"a\" 1}", 0);
	CASE("{1: 2}", 0);
	CASE("[\"a\x01\"]", 0);
	CASE("[\"a\tb\"]", 0);
	CASE("[\"\\x\"]", 0);
	CASE("[\"abc]", 0);
	CASE("[\"\xc0\x80\"]", 0);          /* overlong */
	CASE("[\"\xc1\xbf\"]", 0);
	CASE("[\"\xe0\x80\x80\"]", 0);
	CASE("[\"\xf0\x80\x80\x80\"]", 0);
	CASE("[\"\xed\xa0\x80\"]", 0);      /* a surrogate */
	CASE("[\"\xf4\x90\x80\x80\"]", 0);  /* beyond U+10FFFF */
	CASE("[\"\xf5\x80\x80\x80\"]", 0);
	CASE("[\"\x80\"]", 0);
	CASE("[\"\xc3\"]", 0);
	CASE("[\"\xe2\x82\"]", 0);
	CASE("[1 \xc3\xa9]", 0);
	{
		static const char nul[] = "{\"a\": 1}\0";
		static const char nul2[] = "{\"a\0\": 1}";

		CHECK(check_text("NUL after", nul, sizeof(nul) - 1) == 0);
		CHECK(check_text("NUL in key", nul2, sizeof(nul2) - 1) == 0);
	}
	CHECK(check_text("sample", sample, sizeof(sample) - 1) == 1);

	check_bounds();

	/* the source tree's JSON files */
	CHECK(nftw(GS_TEST_SOURCE_DIR, S_file, 16, FTW_PHYS) == 0);
	files = S_checked;
	printf("%zu texts checked, %zu read by the one-pass reader\n", files, S_fast_read);
	CHECK(S_fast_read > 100);

	/* bytes changed at random: one to four of the sample's */
	for (i = 0; i < 20000; i++) {
		char t[sizeof(sample)];
		size_t n = sizeof(sample) - 1;
		char what[48];

		memcpy(t, sample, sizeof(sample));
		for (r = 1 + (int)rnd(4); r > 0; r--)
			t[rnd((unsigned)n)] = alphabet[rnd(sizeof(alphabet) - 1)];
		if (rnd(8) == 0)
			n = rnd((unsigned)n);
		snprintf(what, sizeof(what), "mutation %zu", i);
		check_text(what, t, n);
	}
	printf("%zu texts checked, %zu read by the one-pass reader\n", S_checked, S_fast_read);
	return gs_check_exit("test_jsonread");
}
