/*
 * fuzz_keys: a replaced site's keys file (docs/formats.md section 6) as a
 * rebuild and merge read it: the scan of its members and of "sheets"
 * (jsonscan.h), the streaming reader of "pages" and the check of each
 * sheet's "why" (keysread.h), the entry without its reasons and the
 * reasons as jansson parses them, and merge's reading of every entry
 * (gs_site_keys_read, against the two bundled catalogs, as the committed
 * site/ whose keys file seeds the corpus). The input is also
 * given whole to the "why" check.
 *
 * The oracle, beyond the sanitizers: a "why" that gs_keysread_why_count
 * accepts must be one jansson loads, an array of that many strings, nulls
 * and indexes of earlier strings (a rebuild copies such bytes into the new
 * keys file and parses them when a page that shows them is rendered);
 * a page's name and key handed over are within their bounds. Else the
 * harness aborts: a finding.
 */
#include "fuzz.h"

#include <jansson.h>
#include <unistd.h>

#include "cmd_common.h"
#include "datadir.h"
#include "jsonscan.h"
#include "keysread.h"
#include "site.h"
#include "site_keys.h"
#include "site_results.h"

#define S_MAX_ENTRIES 64
#define S_MAX_ENTRY (1u << 20)

static gs_run_ctx S_ctx;

static void S_page(void *arg, const char *name, const char *value)
{
	size_t *n = arg;

	if (strlen(name) > GS_KEYS_NAME_MAX || strlen(value) > GS_KEYS_VALUE_MAX) {
		fprintf(stderr, "a page's name or key beyond its bound\n");
		abort();
	}
	(*n)++;
}

/* The oracle: why (n bytes) was accepted with count elements. */
static void S_check_why(const char *why, size_t n, long count)
{
	json_error_t e;
	json_t *a = json_loadb(why, n, 0, &e);
	size_t k;

	if (!json_is_array(a) || json_array_size(a) != (size_t)count) {
		fprintf(stderr, "a \"why\" accepted with %ld elements that jansson reads otherwise: %s\n",
			count, a ? "another array" : e.text);
		abort();
	}
	for (k = 0; k < (size_t)count; k++) {
		json_t *x = json_array_get(a, k);
		json_int_t j = json_integer_value(x);
		if (!json_is_string(x) && !json_is_null(x) &&
		    !(json_is_integer(x) && j >= 0 && (size_t)j < k &&
		      json_is_string(json_array_get(a, (size_t)j)))) {
			fprintf(stderr, "a \"why\" accepted with element %zu neither a string, "
				"null nor the index of an earlier string\n", k);
			abort();
		}
	}
	json_decref(a);
}

/* Sheet m's entry as a rebuild reads it to reuse the sheet (site.c, S_reuse). */
static void S_entry(FILE *f, const gs_jscan_member *m)
{
	char *buf;
	size_t why_len;
	long why;
	json_t *o;

	if (m->len > S_MAX_ENTRY)
		return;
	buf = malloc((size_t)m->len + 1);
	if (!buf)
		abort();
	if (pread(fileno(f), buf, (size_t)m->len, (off_t)m->off) != (ssize_t)m->len)
		abort();
	buf[m->len] = '\0';
	why = gs_keysread_why_at(buf, (size_t)m->len, S_ctx.cat.noffers, &why_len);
	if (why >= 0) {
		if ((size_t)why + why_len + 1 != m->len || why < 7)
			abort();
		S_check_why(buf + why, why_len, (long)S_ctx.cat.noffers);
		buf[why - 7] = '}';
		o = json_loadb(buf, (size_t)why - 7 + 1, JSON_REJECT_DUPLICATES, NULL);
		json_decref(o);
	}
	free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int ready;
	gs_error err = GS_ERROR_INIT;
	const char *path;
	gs_jscan scan;
	FILE *f;
	long count;
	size_t i, npages = 0;

	if (!ready) {
		/* the catalogs of the committed site, whose keys file seeds the corpus */
		static char a[4096], b[4096];
		const char *cats[2] = { a, b };
		if (!gs_datadir_path(a, sizeof(a), "catalog/offers.xml", NULL) ||
		    !gs_datadir_path(b, sizeof(b), "catalog/lambda.xml", NULL) ||
		    gs_cmd_common_run_ctx_init(&S_ctx, "fuzz", cats, 2, GS_LANG_EN, "2026-11-29"))
			abort();
		ready = 1;
	}
	count = gs_keysread_why_count((const char *)data, size);
	if (count >= 0)
		S_check_why((const char *)data, size, count);

	path = fuzz_file(GS_SITE_KEYS_FILE, data, size);
	f = fopen(path, "rb");
	if (!f)
		abort();
	if (gs_jsonscan_file(f, "sheets", &scan) == 0) {
		const gs_jscan_member *m = gs_jsonscan_find(&scan, 1, "pages");
		if (m && fseeko(f, (off_t)m->off, SEEK_SET) == 0)
			(void)gs_keysread_pages(f, m->len, S_page, &npages);
		for (i = 0; i < scan.ninner && i < S_MAX_ENTRIES; i++)
			S_entry(f, &scan.inner[i]);
		if (scan.ninner) {
			/* merge: every entry parsed whole, the first error stops it */
			gs_site_results *rs = gs_site_results_new(fuzz_tmpdir(), &S_ctx.cat,
								  GS_SITE_PAGE_ROWS, &err);
			char **ids = calloc(scan.ninner, sizeof(*ids));
			size_t n = scan.ninner < S_MAX_ENTRIES ? scan.ninner : S_MAX_ENTRIES;
			if (!rs || !ids)
				abort();
			for (i = 0; i < n; i++)
				ids[i] = scan.inner[i].name;
			(void)gs_site_keys_read(fuzz_tmpdir(), &S_ctx.cat, ids, n, rs, &err);
			free(ids);
			gs_error_release(&err);
			gs_site_results_free(rs);
		}
		gs_jsonscan_release(&scan);
	}
	fclose(f);
	return 0;
}
