/* cmd_check: `gpusheet check FILE...`, validate each input by its kind. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog.h"
#include "commands.h"
#include "datadir.h"
#include "doc_bounds.h"
#include "jsonread.h"
#include "measurement.h"
#include "workload.h"

static int S_ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* The kind of a JSON input, from its "schema" key (its bytes, read once,
 * into *text: the reader of that kind parses them); NULL after an error. */
static const char *S_json_kind(const char *path, gs_diag *d, char **text, size_t *len)
{
	gs_jr r;
	json_t *root;
	const char *kind = NULL, *schema;

	/* the reader's bounds and file checks, once, before the kind is known */
	gs_jr_init(&r, path, d);
	*text = gs_jr_read(&r, len);
	if (!*text)
		return NULL;
	r.text = *text;
	r.len = *len;
	root = gs_jr_load(&r);
	if (!root)
		return NULL;
	schema = json_string_value(json_object_get(root, "schema"));
	if (schema && strcmp(schema, "gpusheet-workload") == 0)
		kind = "workload";
	else if (schema && strcmp(schema, "gpusheet-measurement") == 0)
		kind = "measurement";
	else
		gs_diag_add(d, path, 0, 0, "$.schema",
			    "expected \"gpusheet-workload\" or \"gpusheet-measurement\"");
	json_decref(root);
	return kind;
}

static void S_check_catalog(const char *path, const char *rng, gs_diag *d)
{
	gs_catalog c;

	gs_catalog_read(path, rng, &c, d);
	gs_catalog_release(&c);
}

static int S_check_one(const char *path, const char *rng, gs_diag *d)
{
	size_t before = gs_diag_count(d), len = 0;
	const char *kind;
	char *text = NULL;

	if (S_ends_with(path, ".xml") || S_ends_with(path, ".csv")) {
		/* a .csv goes to the catalog reader, which names the import
		 * command for a SkyPilot price file */
		kind = "catalog";
		S_check_catalog(path, rng, d);
	} else {
		kind = S_json_kind(path, d, &text, &len);
		if (kind && strcmp(kind, "workload") == 0) {
			gs_workload w;
			gs_error why = GS_ERROR_INIT;
			/* the notes' Markdown bounds, as `sheet` checks them */
			if (gs_workload_parse(path, text, len, &w, d) == 0 && w.notes_md &&
			    gs_doc_bounds_check(w.notes_md, &why))
				gs_diag_add(d, path, 0, 0, "$.notes", "%s", gs_error_message(&why));
			gs_error_release(&why);
			gs_workload_release(&w);
		} else if (kind) {
			gs_measurement m;
			gs_measurement_parse(path, text, len, &m, d);
			gs_measurement_release(&m);
		}
		free(text);
	}
	if (gs_diag_count(d) > before)
		return -1;
	printf("%s: ok (%s)\n", path, kind);
	return 0;
}

int gs_cmd_check(int argc, char **argv)
{
	char rng[4096];
	gs_diag d = GS_DIAG_INIT;
	gs_error e = GS_ERROR_INIT;
	int i, failed = 0;

	if (argc < 2 || strcmp(argv[1], "--help") == 0) {
		fputs("usage: gpusheet check FILE...\n"
		      "  validates workload sheets (.json, schema gpusheet-workload), measurements\n"
		      "  (.json, schema gpusheet-measurement) and catalogs (.xml)\n",
		      argc < 2 ? stderr : stdout);
		return argc < 2 ? GS_EXIT_USAGE : GS_EXIT_OK;
	}
	if (!gs_datadir_path(rng, sizeof(rng), "catalog/catalog.rng", &e)) {
		gs_diag_error_print("check", "%s", gs_error_message(&e));
		gs_error_release(&e);
		return GS_EXIT_INVALID;
	}
	for (i = 1; i < argc; i++) {
		size_t before = gs_diag_count(&d);
		if (S_check_one(argv[i], rng, &d))
			failed = 1;
		/* Print as we go, so errors follow the files' order. */
		if (gs_diag_count(&d) > before) {
			gs_diag part = d;
			part.items = d.items + before;
			part.count = d.count - before;
			fflush(stdout);
			gs_diag_print(&part, stderr);
		}
	}
	gs_diag_release(&d);
	return failed ? GS_EXIT_INVALID : GS_EXIT_OK;
}
