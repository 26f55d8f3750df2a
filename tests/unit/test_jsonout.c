/*
 * jsonout: every unsigned 64-bit number comes out exact (finding 8: values
 * at or above 2^63 came out as -1 or -2), and no input string can pass for
 * the internal marker.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "jsonout.h"

static void test_u64(void)
{
	json_t *o = json_object();
	char *s;

	json_object_set_new(o, "max", gs_jw_new_u64(UINT64_MAX));
	json_object_set_new(o, "two63", gs_jw_new_u64(UINT64_C(9223372036854775808)));
	json_object_set_new(o, "small", gs_jw_new_u64(42));
	json_object_set_new(o, "neg", gs_jw_new_i64(-5));
	/* what a hostile title could hold: the marker's public part */
	json_object_set_new(o, "title", json_string("\001u64:123"));
	s = gs_jw_dumps(o, JSON_SORT_KEYS | JSON_COMPACT);
	CHECK_STR(s, "{\"max\":18446744073709551615,\"neg\":-5,\"small\":42,"
		     "\"title\":\"\\u0001u64:123\",\"two63\":9223372036854775808}\n");
	free(s);
	json_decref(o);
}

/* A small deterministic generator (xorshift64*), so that a failure reproduces. */
static uint64_t S_state = UINT64_C(0x2545F4914F6CDD1D);

static uint64_t S_rand(void)
{
	S_state ^= S_state >> 12;
	S_state ^= S_state << 25;
	S_state ^= S_state >> 27;
	return S_state * UINT64_C(0x2545F4914F6CDD1D);
}

/* Text with what the serializer must escape or keep: quotes, backslashes,
 * control characters, slashes, 2-, 3- and 4-byte UTF-8. */
static json_t *S_text(char *buf, size_t cap)
{
	static const char *const pieces[] = {
		"a", "Z", "\"", "\\", "/", "\n", "\r", "\t", "\b", "\f", "\001", "\037", "\177",
		"é", "—", "€", "𝄞", "GiB", " ", "{a}", "\001u64:", "0"
	};
	/* up to 23 pieces: runs of eight bytes and more, scanned at once */
	size_t n = S_rand() % 24, len = 0, i;

	for (i = 0; i < n; i++) {
		const char *p = pieces[S_rand() % (sizeof(pieces) / sizeof(pieces[0]))];
		size_t k = strlen(p);
		if (len + k + 1 > cap)
			break;
		memcpy(buf + len, p, k);
		len += k;
	}
	buf[len] = '\0';
	if (S_rand() % 16 == 0 && len + 1 < cap)
		return json_stringn(buf, len + 1);   /* with a NUL inside: \u0000 */
	return json_string(buf);
}

static json_t *S_tree(int depth)
{
	char buf[128];
	unsigned kind = (unsigned)(S_rand() % (depth > 4 ? 7 : 9));
	json_t *v;
	size_t i, n;

	switch (kind) {
	case 0: return json_null();
	case 1: return json_true();
	case 2: return json_false();
	case 3: return json_integer((json_int_t)S_rand() >> (S_rand() % 64));
	case 4: return json_integer(-(json_int_t)(S_rand() % 100000));
	case 5: return json_real((double)(S_rand() % 100000) / 7.0);
	case 6: return S_text(buf, sizeof(buf));
	case 7:
		v = json_array();
		n = S_rand() % 5;
		for (i = 0; i < n; i++)
			json_array_append_new(v, S_tree(depth + 1));
		return v;
	default:
		v = json_object();
		n = S_rand() % 6;
		for (i = 0; i < n; i++) {
			json_t *k = S_text(buf, sizeof(buf));
			json_object_setn_new(v, json_string_value(k), json_string_length(k), S_tree(depth + 1));
			json_decref(k);
		}
		return v;
	}
}

/*
 * gs_jw_dumps writes its own bytes for speed: they must be json_dumps's
 * bytes and a newline, for every flag set gpusheet uses, on documents that
 * hold every kind of value, escape and nesting.
 */
static void test_same_as_jansson(void)
{
	static const size_t flags[] = {
		JSON_SORT_KEYS | JSON_INDENT(2) | JSON_REAL_PRECISION(15),
		JSON_SORT_KEYS | JSON_INDENT(2),
		JSON_SORT_KEYS | JSON_INDENT(1),
		JSON_SORT_KEYS | JSON_COMPACT,
		JSON_COMPACT,
		JSON_INDENT(4),
		0,
	};
	int t, f, differ = 0;

	for (t = 0; t < 2000; t++) {
		json_t *root = json_object();
		json_object_set_new(root, "doc", S_tree(0));
		json_object_set_new(root, "more", S_tree(0));
		for (f = 0; f < (int)(sizeof(flags) / sizeof(flags[0])); f++) {
			char *want = json_dumps(root, flags[f]), *got = gs_jw_dumps(root, flags[f]);
			if (!want || !got || strlen(got) != strlen(want) + 1 ||
			    strncmp(got, want, strlen(want)) != 0 || got[strlen(want)] != '\n') {
				if (differ++ < 3)
					fprintf(stderr, "flags %#zx:\nwant %s\ngot  %s\n", flags[f],
						want ? want : "(null)", got ? got : "(null)");
			}
			free(want);
			free(got);
		}
		json_decref(root);
	}
	CHECK_INT(differ, 0);
}

static int S_by_key(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* v written through gs_jw, keys sorted; -1 for what it does not write (reals, NULs). */
static int S_emit(gs_jw *w, json_t *v)
{
	size_t i, n;

	switch (json_typeof(v)) {
	case JSON_NULL: gs_jw_null(w); return 0;
	case JSON_TRUE: gs_jw_bool(w, 1); return 0;
	case JSON_FALSE: gs_jw_bool(w, 0); return 0;
	case JSON_INTEGER: gs_jw_i64(w, json_integer_value(v)); return 0;
	case JSON_REAL: return -1;
	case JSON_STRING:
		if (strlen(json_string_value(v)) != json_string_length(v))
			return -1;
		gs_jw_str(w, json_string_value(v));
		return 0;
	case JSON_ARRAY:
		gs_jw_array(w);
		for (i = 0; i < json_array_size(v); i++)
			if (S_emit(w, json_array_get(v, i)))
				return -1;
		gs_jw_end(w);
		return 0;
	case JSON_OBJECT: {
		const char **keys = calloc(json_object_size(v) + 1, sizeof(*keys));
		const char *k;
		json_t *x;
		int rc = 0;

		n = 0;
		json_object_foreach(v, k, x) {
			if (strlen(k) != json_object_iter_key_len(json_object_key_to_iter(k)))
				rc = -1;
			keys[n++] = k;
		}
		qsort(keys, n, sizeof(*keys), S_by_key);
		gs_jw_object(w);
		for (i = 0; i < n && !rc; i++) {
			gs_jw_key(w, keys[i]);
			rc = S_emit(w, json_object_get(v, keys[i]));
		}
		if (!rc)
			gs_jw_end(w);
		free(keys);
		return rc;
	}
	}
	return -1;
}

/*
 * The streaming writer (gs_jw, the decision JSON's) writes what
 * gs_jw_dumps(JSON_SORT_KEYS | JSON_INDENT(2)) writes for the same
 * document: on the generated documents without reals or NULs in strings,
 * and on u64 and i64 extremes.
 */
static void test_writer(void)
{
	int t, written = 0, differ = 0;
	gs_jw w;
	char *got, *want;
	json_t *root;

	for (t = 0; t < 2000; t++) {
		root = json_object();
		json_object_set_new(root, "doc", S_tree(0));
		json_object_set_new(root, "more", S_tree(0));
		gs_jw_init(&w);
		if (S_emit(&w, root) == 0) {
			written++;
			got = gs_jw_finish(&w);
			want = gs_jw_dumps(root, JSON_SORT_KEYS | JSON_INDENT(2));
			if ((!got || !want || strcmp(got, want) != 0) && differ++ < 3)
				fprintf(stderr, "want %s\ngot  %s\n", want ? want : "(null)", got ? got : "(null)");
			free(got);
			free(want);
		} else {
			gs_buf_release(&w.b);   /* left half-written: open containers */
		}
		json_decref(root);
	}
	CHECK_INT(differ, 0);
	CHECK(written > 500);

	/* flat from depth 2, 3 or 4: the same document (read back by jansson,
	 * where its numbers fit an int64), and no line break below the flat depth */
	for (t = 0, written = 0, differ = 0; t < 2000; t++) {
		size_t flat = 2 + (size_t)(t % 3), depth = 0;
		const char *q;
		int in_str = 0;
		root = json_object();
		json_object_set_new(root, "doc", S_tree(0));
		gs_jw_init_flat(&w, flat);
		if (S_emit(&w, root) == 0) {
			json_t *back;
			got = gs_jw_finish(&w);
			back = got ? json_loads(got, 0, NULL) : NULL;
			if (back) {
				written++;
				if (!json_equal(back, root) && differ++ < 3)
					fprintf(stderr, "flat %zu: not the same document: %s\n", flat, got);
				json_decref(back);
			}
			for (q = got; q && *q; q++) {
				if (in_str) {
					if (*q == '\\')
						q++;
					else if (*q == '"')
						in_str = 0;
				} else if (*q == '"') {
					in_str = 1;
				} else if (*q == '{' || *q == '[') {
					depth++;
				} else if (*q == '}' || *q == ']') {
					/* a closing bracket on its own line is at the container's depth */
					if (depth >= flat && q > got && q[-1] == ' ' && differ++ < 3)
						fprintf(stderr, "flat %zu: a line break at depth %zu: %s\n", flat, depth, got);
					depth--;
				} else if (*q == '\n' && q[1] && depth >= flat && differ++ < 3) {
					fprintf(stderr, "flat %zu: a line break at depth %zu: %s\n", flat, depth, got);
				}
			}
			free(got);
		} else {
			gs_buf_release(&w.b);
		}
		json_decref(root);
	}
	CHECK_INT(differ, 0);
	CHECK(written > 300);

	/* flat, by hand: members of the array's elements on their line */
	gs_jw_init_flat(&w, 3);
	gs_jw_object(&w);
	gs_jw_key(&w, "a");
	gs_jw_array(&w);
	gs_jw_object(&w);
	gs_jw_key(&w, "k");
	gs_jw_array(&w);
	gs_jw_u64(&w, 1);
	gs_jw_str(&w, "x");
	gs_jw_end(&w);
	gs_jw_key(&w, "m");
	gs_jw_object(&w);
	gs_jw_end(&w);
	gs_jw_end(&w);
	gs_jw_u64(&w, 2);
	gs_jw_end(&w);
	gs_jw_key(&w, "b");
	gs_jw_bool(&w, 1);
	gs_jw_end(&w);
	got = gs_jw_finish(&w);
	CHECK_STR(got, "{\n  \"a\": [\n    {\"k\":[1,\"x\"],\"m\":{}},\n    2\n  ],\n  \"b\": true\n}\n");
	free(got);

	/* by hand */
	gs_jw_init(&w);
	gs_jw_object(&w);
	gs_jw_key(&w, "a");
	gs_jw_array(&w);
	gs_jw_u64(&w, UINT64_MAX);
	gs_jw_i64(&w, INT64_MIN);
	gs_jw_str(&w, NULL);
	gs_jw_object(&w);
	gs_jw_end(&w);
	gs_jw_array(&w);
	gs_jw_end(&w);
	gs_jw_end(&w);
	gs_jw_key(&w, "b\"");
	gs_jw_str(&w, "x\n\001é");
	gs_jw_end(&w);
	got = gs_jw_finish(&w);
	CHECK_STR(got, "{\n  \"a\": [\n    18446744073709551615,\n    -9223372036854775808,\n"
		       "    null,\n    {},\n    []\n  ],\n  \"b\\\"\": \"x\\n\\u0001é\"\n}\n");
	free(got);
	/* a string not UTF-8: no document */
	gs_jw_init(&w);
	gs_jw_array(&w);
	gs_jw_str(&w, "\xC0\xAF");
	gs_jw_end(&w);
	CHECK(gs_jw_finish(&w) == NULL);
}

/* Invalid UTF-8 (json_string_nocheck lets it in) fails as in json_dumps. */
static void test_invalid_utf8(void)
{
	json_t *o = json_object();

	json_object_set_new(o, "bad", json_string_nocheck("\xC0\xAF"));
	CHECK(gs_jw_dumps(o, JSON_SORT_KEYS | JSON_INDENT(2)) == NULL);
	CHECK(json_dumps(o, JSON_SORT_KEYS | JSON_INDENT(2)) == NULL);
	json_decref(o);
}

int main(void)
{
	test_u64();
	test_same_as_jansson();
	test_writer();
	test_invalid_utf8();
	return gs_check_exit("test_jsonout");
}
