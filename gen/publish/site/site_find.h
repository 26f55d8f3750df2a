/* site_find: the workloads of a site, found under its folders. */
#ifndef GS_SITE_FIND_H
#define GS_SITE_FIND_H

#include <stddef.h>
#include "diag.h"
#include "util.h"

/*
 * Finds every file named workload.json under each dir, sorted; the caller
 * frees them with gs_site_find_free_paths. The paths lie end to end in one
 * block (no allocation's overhead per path: the list stays in memory for
 * the whole build). skipped (when not NULL) receives "PATH: why" for each
 * file that looks meant as a workload and is not read: a workload sheet
 * under another name, a workload.json that is a link.
 */
int gs_site_find_workloads(const char *const *dirs, size_t ndirs, char ***paths,
			   size_t *npaths, gs_strvec *skipped, gs_diag *d);
void gs_site_find_free_paths(char **paths, size_t n);

#endif
