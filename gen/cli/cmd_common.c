/* cmd_common: what the sheet and site commands share. */
#define _POSIX_C_SOURCE 200809L
#include "cmd_common.h"

#include <sys/stat.h>
#include <dirent.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "buf.h"
#include "commands.h"
#include "diag.h"
#include "datadir.h"
#include "evidence.h"
#include "heap.h"
#include "util.h"

static int S_valid_date(const char *s)
{
	int y, m, d;
	static const int mdays[] = { 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };

	if (strlen(s) != 10 || s[4] != '-' || s[7] != '-' ||
	    sscanf(s, "%4d-%2d-%2d", &y, &m, &d) != 3)
		return 0;
	if (m < 1 || m > 12 || d < 1 || d > mdays[m - 1])
		return 0;
	if (m == 2 && d == 29 && !((y % 4 == 0 && y % 100 != 0) || y % 400 == 0))
		return 0;
	return 1;
}

/* The catalog files (.xml) of a folder, sorted by name. */
static int S_folder_files(const char *dir, int bundled, gs_strvec *files, gs_strvec *labels, gs_error *err)
{
	gs_strvec names = GS_STRVEC_INIT;
	DIR *dh = opendir(dir);
	struct dirent *de;
	size_t i, before = files->n;

	if (!dh)
		return gs_error_set(err, "%s: cannot read the folder: %s", dir, strerror(errno));
	while ((de = readdir(dh)) != NULL) {
		size_t len = strlen(de->d_name);
		if (de->d_name[0] != '.' && len > 4 && strcmp(de->d_name + len - 4, ".xml") == 0)
			gs_util_strvec_push_dup(&names, de->d_name);
	}
	closedir(dh);
	gs_util_strvec_sort(&names);
	for (i = 0; i < names.n; i++) {
		gs_util_strvec_push(files, gs_xasprintf("%s/%s", dir, names.v[i]));
		gs_util_strvec_push(labels, bundled ? gs_xasprintf("%s (bundled)", names.v[i]) : gs_xstrdup(names.v[i]));
	}
	gs_util_strvec_release(&names);
	if (files->n == before)
		return gs_error_set(err, "%s: no catalog (*.xml) in this folder", dir);
	return 0;
}

/*
 * The catalog files a run reads, with the labels pages name them by: each
 * --catalog a file, a folder (every *.xml in it, by name) or the name of a
 * bundled catalog ("offers.xml", "offers"); none: every bundled catalog.
 */
int gs_cmd_common_catalog_files(const char *const *catalogs, size_t n, gs_strvec *files,
				gs_strvec *labels, gs_error *err)
{
	char dir[4096], path[4096];
	size_t i;

	if (n == 0) {
		if (!gs_datadir_path(dir, sizeof(dir), "catalog", err))
			return -1;
		return S_folder_files(dir, 1, files, labels, err);
	}
	for (i = 0; i < n; i++) {
		struct stat st;
		const char *base = strrchr(catalogs[i], '/');
		if (stat(catalogs[i], &st) == 0 && S_ISDIR(st.st_mode)) {
			if (S_folder_files(catalogs[i], 0, files, labels, err))
				return -1;
			continue;
		}
		if (stat(catalogs[i], &st) != 0 && !strchr(catalogs[i], '/') && *catalogs[i]) {
			/* not a path: a bundled catalog by its name */
			char *rel = gs_xasprintf("catalog/%s%s", catalogs[i],
						 strstr(catalogs[i], ".xml") ? "" : ".xml");
			char *got = gs_datadir_path(path, sizeof(path), rel, NULL);
			free(rel);
			if (got && stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
				gs_util_strvec_push_dup(files, path);
				gs_util_strvec_push(labels, gs_xasprintf("%s (bundled)", strrchr(path, '/') + 1));
				continue;
			}
		}
		/* Pages name a catalog by its file name, not by the path it was
		 * given as: the builder's folders stay out of published pages. */
		gs_util_strvec_push_dup(files, catalogs[i]);
		gs_util_strvec_push_dup(labels, base ? base + 1 : catalogs[i]);
	}
	return 0;
}

/*
 * Two snapshots of one provider (the catalog's provider attribute): the
 * newer is kept when both are dated and the dates differ, said on stderr;
 * otherwise both are named and the run refused. keep[i] = 0 drops i.
 */
static int S_one_per_provider(gs_catalog *cats, const gs_strvec *labels, int *keep, gs_diag *d)
{
	size_t i, j;

	for (i = 0; i < labels->n; i++)
		for (j = 0; j < i; j++) {
			gs_catalog *a = &cats[j], *b = &cats[i];
			if (!keep[i] || !keep[j] || !a->provider || !b->provider || strcmp(a->provider, b->provider) != 0)
				continue;
			if (a->date && b->date && strcmp(a->date, b->date) != 0) {
				int newer_b = strcmp(b->date, a->date) > 0;
				fprintf(stderr, "gpusheet: note: %s (%s) and %s (%s) are two snapshots of %s's prices: "
					"the newer, %s, is used\n", labels->v[j], a->date, labels->v[i], b->date,
					a->provider, newer_b ? labels->v[i] : labels->v[j]);
				keep[newer_b ? j : i] = 0;
				continue;
			}
			gs_diag_add(d, b->path, 0, 0, NULL,
				    "%s and %s are two snapshots of %s's prices (%s and %s): give one, "
				    "or import the newer into the other's place (gpusheet catalog import --out FOLDER)",
				    labels->v[j], labels->v[i], a->provider,
				    a->date ? a->date : (a->ref ? a->ref : "undated"),
				    b->date ? b->date : (b->ref ? b->ref : "undated"));
			return -1;
		}
	return 0;
}

/*
 * Reads every catalog, each labelled as the pages name it (its file name),
 * and merges them in the order given; rc->catalog_name lists them.
 */
static int S_load_catalogs(gs_run_ctx *rc, const char *const *catalogs, size_t n,
			   const char *rng, gs_diag *d)
{
	gs_strvec files = GS_STRVEC_INIT, labels = GS_STRVEC_INIT;
	gs_error e = GS_ERROR_INIT;
	gs_catalog *cats = NULL;
	int *keep = NULL, rcode = -1;
	size_t i, first = 0;

	if (gs_cmd_common_catalog_files(catalogs, n, &files, &labels, &e)) {
		gs_diag_add(d, NULL, 0, 0, NULL, "%s", gs_error_message(&e));
		gs_error_release(&e);
		return -1;
	}
	/* the same file given twice: said once, before anything is read */
	for (i = 1; i < files.n; i++) {
		struct stat a, b;
		size_t j;
		if (stat(files.v[i], &a) != 0)
			continue;
		for (j = 0; j < i; j++)
			if (stat(files.v[j], &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino) {
				gs_diag_add(d, files.v[i], 0, 0, NULL,
					    "this catalog is given twice (--catalog %s, and --catalog %s "
					    "before it): give each catalog once", files.v[i], files.v[j]);
				goto done;
			}
	}
	cats = gs_xcalloc(files.n, sizeof(*cats));
	keep = gs_xcalloc(files.n, sizeof(*keep));
	for (i = 0; i < files.n; i++) {
		if (gs_catalog_read(files.v[i], rng, &cats[i], d))
			goto done;
		cats[i].label = gs_xstrdup(labels.v[i]);
		keep[i] = 1;
	}
	if (S_one_per_provider(cats, &labels, keep, d))
		goto done;
	while (!keep[first])
		first++;
	rc->cat = cats[first];
	memset(&cats[first], 0, sizeof(cats[first]));
	rc->catalog_name = gs_xstrdup(labels.v[first]);
	for (i = first + 1; i < files.n; i++) {
		char *names;
		if (!keep[i])
			continue;
		names = gs_xasprintf("%s, %s", rc->catalog_name, labels.v[i]);
		free(rc->catalog_name);
		rc->catalog_name = names;
		if (gs_catalog_merge(&rc->cat, &cats[i], d))
			goto done;
	}
	rcode = 0;
done:
	for (i = 0; cats && i < files.n; i++)
		gs_catalog_release(&cats[i]);
	free(cats);
	free(keep);
	gs_util_strvec_release(&files);
	gs_util_strvec_release(&labels);
	return rcode;
}

int gs_cmd_common_run_ctx_init(gs_run_ctx *rc, const char *cmd, const char *const *catalogs,
		    size_t ncatalogs, gs_lang lang, const char *date_flag)
{
	char rng[4096];
	gs_error e = GS_ERROR_INIT;
	gs_diag d = GS_DIAG_INIT;
	const char *sde = getenv("SOURCE_DATE_EPOCH");

	/* sheet, site and merge read every catalog and render: their heap is
	 * touched once and in bulk (heap.h) */
	gs_heap_prefer_huge_pages();
	memset(rc, 0, sizeof(*rc));
	if (date_flag) {
		if (!S_valid_date(date_flag)) {
			fprintf(stderr, "gpusheet %s: --date takes a date YYYY-MM-DD (got \"%s\")\n",
				cmd, date_flag);
			return GS_EXIT_USAGE;
		}
		strcpy(rc->date, date_flag);
	} else if (sde && *sde) {
		char *end;
		long long v;
		struct tm tm;
		time_t tt;
		errno = 0;
		v = strtoll(sde, &end, 10);
		if (errno || *end || v < 0) {
			fprintf(stderr, "gpusheet %s: SOURCE_DATE_EPOCH must be a number of seconds "
				"(got \"%s\")\n", cmd, sde);
			return GS_EXIT_USAGE;
		}
		tt = (time_t)v;
		if (!gmtime_r(&tt, &tm) || !strftime(rc->date, sizeof(rc->date), "%Y-%m-%d", &tm)) {
			fprintf(stderr, "gpusheet %s: SOURCE_DATE_EPOCH out of range\n", cmd);
			return GS_EXIT_USAGE;
		}
	}
	if (!gs_datadir_path(rng, sizeof(rng), "catalog/catalog.rng", &e)) {
		gs_diag_error_print(cmd, "%s", gs_error_message(&e));
		gs_error_release(&e);
		return GS_EXIT_INVALID;
	}
	if (gs_tr_load(lang, &rc->t, &d) || S_load_catalogs(rc, catalogs, ncatalogs, rng, &d)) {
		gs_diag_print(&d, stderr);
		gs_diag_release(&d);
		gs_cmd_common_run_ctx_release(rc);
		return GS_EXIT_INVALID;
	}
	if (gs_render_templates_load(&rc->tp, &e)) {
		gs_diag_error_print(cmd, "%s", gs_error_message(&e));
		gs_error_release(&e);
		gs_cmd_common_run_ctx_release(rc);
		return GS_EXIT_INVALID;
	}
	{
		/* shown in every output: valid UTF-8 without control characters,
		 * whatever bytes the paths have (the JSON field would be lost),
		 * and whole (diag.h: a path is never cut) */
		char *shown = gs_diag_show(rc->catalog_name, 0);
		free(rc->catalog_name);
		rc->catalog_name = shown;
	}
	return 0;
}

void gs_cmd_common_run_ctx_release(gs_run_ctx *rc)
{
	gs_catalog_release(&rc->cat);
	gs_tr_release(&rc->t);
	gs_render_templates_release(&rc->tp);
	free(rc->catalog_name);
	memset(rc, 0, sizeof(*rc));
}

/* gs_cmd_common_catalog_key: see cmd_common.h */
int gs_cmd_common_catalog_key(const char *cmd, const char *const *catalogs, size_t n,
		   char hex[GS_SHA256_HEX_SIZE])
{
	gs_error err = GS_ERROR_INIT;

	if (gs_cmd_common_catalog_key_err(catalogs, n, hex, &err)) {
		gs_diag_error_print(cmd, "%s", gs_error_message(&err));
		gs_error_release(&err);
		return -1;
	}
	return 0;
}

int gs_cmd_common_catalog_key_err(const char *const *catalogs, size_t n, char hex[GS_SHA256_HEX_SIZE],
		       gs_error *err)
{
	gs_strvec files = GS_STRVEC_INIT, labels = GS_STRVEC_INIT;
	gs_buf joined = GS_BUF_INIT;
	size_t i;
	int rc = -1;

	if (gs_cmd_common_catalog_files(catalogs, n, &files, &labels, err))
		goto done;
	for (i = 0; i < files.n; i++) {
		char h[GS_SHA256_HEX_SIZE];
		if (gs_evidence_sha256_file(files.v[i], h, NULL)) {
			gs_error_set(err, "%s: cannot read: %s", files.v[i], strerror(errno));
			goto done;
		}
		gs_buf_puts(&joined, h);
		gs_buf_puts(&joined, "\n");
	}
	gs_evidence_sha256_buffer(joined.data, joined.len, hex);
	rc = 0;
done:
	gs_buf_release(&joined);
	gs_util_strvec_release(&files);
	gs_util_strvec_release(&labels);
	return rc;
}
