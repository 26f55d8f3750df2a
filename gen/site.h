/*
 * site: the comparison site of many workloads against the catalog.
 *
 * Layout of the output folder:
 *   index.html, index-2.html, ...  workload x offer matrix, 100 workloads a page
 *   offers.html                     the catalog: capacity, plans, cost per GiB-day, sources
 *   sheets/ID.{html,md,json,*.svg,*.png}   one decision sheet per workload
 *   evidence/SHA256.json + manifest.json   raw measurements, content-addressed
 *
 * Invariants: every workload is read and validated before anything is
 * written; the work per workload is constant (linear in the number of
 * workloads); pages are bounded in size by pagination; no page requests
 * anything outside the folder.
 */
#ifndef GS_SITE_H
#define GS_SITE_H

#include <stddef.h>
#include "diag.h"
#include "publish.h"

#define GS_SITE_PAGE_ROWS 100

/* Finds every file named workload.json under each dir, sorted; caller frees. */
int gs_site_find_workloads(const char *const *dirs, size_t ndirs, char ***paths,
			   size_t *npaths, gs_diag *d);
void gs_site_free_paths(char **paths, size_t n);

/*
 * Builds the site into out_dir from already-validated workloads. Returns 0,
 * or -1 with a message in err.
 */
int gs_site_build(char *const *paths, size_t npaths, const gs_publish_env *env,
		  const char *out_dir, char *err, size_t errlen);

#endif
