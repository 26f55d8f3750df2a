/*
 * test_jsonread: gs_jr_load reads through jansson with duplicate keys
 * refused, the error at its line and column; the root must be an object;
 * and its bounds (a string, a key, an array, an object) hold: at the bound
 * it loads, one past it is refused at the value's path.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "buf.h"
#include "jsonread.h"

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

/* gs_jr_load's syntax errors: jansson's, at their line and column. */
static void check_syntax(void)
{
	static const struct {
		const char *text;
		int line, column;
		const char *has;
	} bad[] = {
		{ "{\"a\": 1,\n \"a\": 2}", 2, 4, "duplicate object key" },
		{ "{\"a\": 1.5e400}", 1, 13, "real number overflow" },
		{ "{\"a\": [1,]}", 1, 10, "unexpected token" },
		{ "{} x", 1, 4, "end of file expected" },
	};
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		gs_diag d = GS_DIAG_INIT;
		gs_jr r;
		json_t *root;

		gs_jr_init(&r, "t.json", &d);
		r.text = bad[i].text;
		r.len = strlen(bad[i].text);
		root = gs_jr_load(&r);
		if (CHECK(!root) && CHECK(d.count == 1)) {
			CHECK_INT(d.items[0].line, bad[i].line);
			CHECK_INT(d.items[0].column, bad[i].column);
			gs_check_at(strstr(d.items[0].message, bad[i].has) != NULL, __FILE__, __LINE__,
				    "%s: \"%s\" without \"%s\"", bad[i].text, d.items[0].message,
				    bad[i].has);
		}
		json_decref(root);
		gs_diag_release(&d);
	}
	/* the root must be an object */
	CHECK(load_text("[1, 2]", "$") == -1);
	CHECK(load_text("{\"u\": \"\\u00e9\", \"n\": -12, \"t\": [true, null]}", NULL) == 0);
}

int main(void)
{
	check_syntax();
	check_bounds();
	return gs_check_exit("test_jsonread");
}
