/*
 * fuzz_keys: a replaced site's keys file (docs/formats.md section 6) as a
 * rebuild, merge and verify read it: its opening, which reads it a line at
 * a time and notes where each sheet's line lies by its prefix
 * (gs_site_keys_open), the pages' lines parsed in order
 * (gs_site_keys_pages), each sheet's line parsed by jansson
 * (gs_site_keys_load), merge's reading of every sheet (gs_site_keys_read,
 * against the two bundled catalogs, as the committed site/ whose keys file
 * seeds the corpus) and verify's check of every line (gs_site_keys_check).
 *
 * The oracle, beyond the sanitizers: a file opened has its sheets' lines
 * sorted by id, each id a valid one ([a-z0-9][a-z0-9._-]*) that its
 * line's bytes start with ({"sheet":"ID",) and found by gs_site_keys_find,
 * each line ended by its newline; a line loaded is an object whose
 * "sheet" is that id. Else the harness aborts: a finding.
 */
#include "fuzz.h"

#include <jansson.h>
#include <unistd.h>

#include "cmd_common.h"
#include "datadir.h"
#include "jsonread.h"
#include "site.h"
#include "site_ctx.h"
#include "site_keys.h"
#include "site_results.h"

#define S_MAX_ENTRIES 64

static gs_run_ctx S_ctx;

static void S_page(void *arg, const char *name, const char *key)
{
	size_t *n = arg;

	if (!name || !key)
		abort();
	(*n)++;
}

static void S_fail(const char *what, const char *id)
{
	fprintf(stderr, "%s (sheet %s)\n", what, id);
	abort();
}

/* The oracle on sheet line i of k. */
static void S_sheet(const gs_site_keys *k, size_t i)
{
	const gs_site_keys_line *l = &k->sheets[i];
	const char *id = gs_site_keys_line_id(k, l);
	char *bytes, *prefix;
	json_t *o;

	if (!gs_jr_is_id(id))
		S_fail("an id that is not one", id);
	if (i && strcmp(gs_site_keys_line_id(k, &k->sheets[i - 1]), id) >= 0)
		S_fail("sheets out of order", id);
	if (gs_site_keys_find(k, id) != l)
		S_fail("a sheet not found by its id", id);
	o = gs_site_keys_load(k, l, &bytes, NULL);
	if (!o)
		return;
	prefix = gs_xasprintf("{\"sheet\":\"%s\",", id);
	if (strncmp(bytes, prefix, strlen(prefix)) != 0 || bytes[l->len - 1] != '\n')
		S_fail("a line without its prefix or its newline", id);
	if (strcmp(json_string_value(json_object_get(o, "sheet")), id) != 0)
		S_fail("a line whose \"sheet\" is another id", id);
	free(prefix);
	free(bytes);
	json_decref(o);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int ready;
	gs_error err = GS_ERROR_INIT;
	gs_site_keys k;
	size_t i, n, npages = 0;

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
	(void)fuzz_file(GS_SITE_KEYS_FILE, data, size);
	if (gs_site_keys_open(fuzz_tmpdir(), &k, &err) != 0) {
		if (!gs_error_is_set(&err))
			abort();   /* refused without a reason */
		gs_error_release(&err);
		return 0;
	}
	(void)gs_site_keys_pages(&k, S_page, &npages, NULL);
	n = k.nsheets < S_MAX_ENTRIES ? k.nsheets : S_MAX_ENTRIES;
	for (i = 0; i < n; i++)
		S_sheet(&k, i);
	if (n) {
		/* merge: every line parsed whole, the first error stops it */
		gs_site_results *rs = gs_site_results_new(fuzz_tmpdir(), &S_ctx.cat,
							  GS_SITE_PAGE_ROWS, &err);
		char **ids = calloc(n, sizeof(*ids));
		if (!rs || !ids)
			abort();
		for (i = 0; i < n; i++)
			ids[i] = k.ids.data + k.sheets[i].id;
		(void)gs_site_keys_read(fuzz_tmpdir(), &S_ctx.cat, ids, n, rs, &err);
		free(ids);
		gs_error_release(&err);
		gs_site_results_free(rs);
	}
	gs_site_keys_close(&k);
	(void)gs_site_keys_check(fuzz_tmpdir(), NULL);
	return 0;
}
