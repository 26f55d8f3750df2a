/* cmd_common: what the sheet and site commands share. */
#define _POSIX_C_SOURCE 200809L
#include "cmd_common.h"

#include <sys/stat.h>

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

/*
 * Reads every catalog, each labelled as the pages name it (its file name),
 * and merges them in the order given; rc->catalog_name lists them.
 */
static int S_load_catalogs(gs_run_ctx *rc, const char *const *catalogs, size_t n,
			   const char *bundled, const char *rng, gs_diag *d)
{
	size_t i;

	if (n == 0) {
		if (gs_catalog_read(bundled, rng, &rc->cat, d))
			return -1;
		rc->cat.label = gs_xstrdup("offers.xml (bundled)");
		rc->catalog_name = gs_xstrdup(rc->cat.label);
		return 0;
	}
	/* the same file given twice: said once, before anything is read */
	for (i = 1; i < n; i++) {
		struct stat a, b;
		size_t j;
		if (stat(catalogs[i], &a) != 0)
			continue;
		for (j = 0; j < i; j++)
			if (stat(catalogs[j], &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino) {
				gs_diag_add(d, catalogs[i], 0, 0, NULL,
					    "this catalog is given twice (--catalog %s, and --catalog %s "
					    "before it): give each catalog once", catalogs[i], catalogs[j]);
				return -1;
			}
	}
	for (i = 0; i < n; i++) {
		gs_catalog one, *c = i ? &one : &rc->cat;
		const char *base = strrchr(catalogs[i], '/');
		char *names;
		if (gs_catalog_read(catalogs[i], rng, c, d))
			return -1;
		/* Pages name a catalog by its file name, not by the path it was
		 * given as: the builder's folders stay out of published pages. */
		c->label = gs_xstrdup(base ? base + 1 : catalogs[i]);
		if (i == 0) {
			rc->catalog_name = gs_xstrdup(c->label);
			continue;
		}
		names = gs_xasprintf("%s, %s", rc->catalog_name, c->label);
		free(rc->catalog_name);
		rc->catalog_name = names;
		if (gs_catalog_merge(&rc->cat, &one, d)) {
			gs_catalog_release(&one);
			return -1;
		}
		gs_catalog_release(&one);
	}
	return 0;
}

int gs_cmd_common_run_ctx_init(gs_run_ctx *rc, const char *cmd, const char *const *catalogs,
		    size_t ncatalogs, gs_lang lang, const char *date_flag)
{
	char rng[4096], bundled[4096];
	gs_error e = GS_ERROR_INIT;
	gs_diag d = GS_DIAG_INIT;
	const char *sde = getenv("SOURCE_DATE_EPOCH");

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
	if (!gs_datadir_path(rng, sizeof(rng), "catalog/catalog.rng", &e) ||
	    !gs_datadir_path(bundled, sizeof(bundled), "catalog/offers.xml", &e)) {
		gs_diag_error_print(cmd, "%s", gs_error_message(&e));
		gs_error_release(&e);
		return GS_EXIT_INVALID;
	}
	if (gs_tr_load(lang, &rc->t, &d) || S_load_catalogs(rc, catalogs, ncatalogs, bundled, rng, &d)) {
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
		 * whatever bytes the paths have (the JSON field would be lost) */
		char *shown = gs_diag_show(rc->catalog_name, GS_SHOW_MAX);
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
	char bundled[4096];
	const char *one[1];
	gs_strvec parts = GS_STRVEC_INIT;
	gs_buf joined = GS_BUF_INIT;
	size_t i;

	if (!n) {
		if (!gs_datadir_path(bundled, sizeof(bundled), "catalog/offers.xml", err))
			return -1;
		one[0] = bundled;
		catalogs = one;
		n = 1;
	}
	for (i = 0; i < n; i++) {
		char h[GS_SHA256_HEX_SIZE];
		if (gs_evidence_sha256_file(catalogs[i], h, NULL)) {
			gs_error_set(err, "%s: cannot read: %s", catalogs[i], strerror(errno));
			gs_util_strvec_release(&parts);
			return -1;
		}
		gs_util_strvec_push(&parts, gs_xasprintf("%s\n", h));
	}
	for (i = 0; i < parts.n; i++)
		gs_buf_puts(&joined, parts.v[i]);
	gs_evidence_sha256_buffer(joined.data, joined.len, hex);
	gs_buf_release(&joined);
	gs_util_strvec_release(&parts);
	return 0;
}
