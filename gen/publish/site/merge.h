/*
 * merge: a site built from its shards (`gpusheet merge OUT SHARD...`,
 * shard.h), without rendering a sheet again.
 *
 * Invariants:
 *  - every shard is read and checked before anything is written: each is
 *    a shard folder; all have the same N, the same list of workloads, the
 *    same inputs (the bytes of every workload and cited file, shard.h) and
 *    the same generator; no K twice, none missing; no workload id in two
 *    shards; each was built with this run's options (lang, date, --png,
 *    --accept-synthetic), catalogs (their bytes) and templates and labels
 *    (the site key, site.h). A refusal names the shard folder and what
 *    differs, and leaves OUT as it was;
 *  - OUT is built in a stage and swapped in whole (gs_outfile_stage_*, outfile.h);
 *    an existing OUT must be empty or a site;
 *  - the sheets' files are hard-linked from the shards (copied where a
 *    link fails: another file system), which is safe because no file of a
 *    site or shard is ever rewritten in place (a rebuild writes new files
 *    and renames them, outfile.h); the evidence files too, and the
 *    shards' manifests are merged in K order, which is the site's order
 *    (gs_evidence_archive_import, evidence.h): bytes that two shards archived under
 *    different file names are refused (a one-machine build names them
 *    once, and the later shard's sheets link the other name);
 *  - the index, offers and per-offer pages, matrix.js and the keys file
 *    come from the shards' results through gs_site_pages, as in a
 *    one-machine build: the merged site is the same bytes as
 *    `gpusheet site` with the same inputs and options.
 */
#ifndef GS_MERGE_H
#define GS_MERGE_H

#include "error.h"

#include <stddef.h>
#include "evidence.h"
#include "publish.h"

/*
 * Builds out from the nshards folders. env: this run's catalogs, labels,
 * templates and options; catalog_key: gs_cmd_common_catalog_key of its catalogs.
 * 0, or -1 with a message in err (out untouched).
 */
int gs_merge_build(const char *out, const char *const *shards, size_t nshards,
		   const gs_publish_env *env, const char *catalog_key, gs_error *err);

#endif
