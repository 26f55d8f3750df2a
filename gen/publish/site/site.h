/*
 * site: the comparison site of many workloads against the catalog.
 *
 * Layout of the output folder:
 *   index.html, index-2.html, ...  workload x GPU matrix, 100 workloads by
 *   index-1-2.html, ...             20 columns a page (index-R-C: workload page R,
 *                                   column page C; C = 1 is index-R.html), a
 *                                   column per lot of a GPU model in order of
 *                                   memory per lot; each cell gives the lot's
 *                                   best offer for the workload, its verdict and
 *                                   price per hour, linked to its row or lot
 *                                   in sheets/ID.html (gs_sheet_offers_fragment)
 *   gpus/MODEL.html                 one page per GPU model: its offers by price
 *                                   per hour, capacity, workloads (site_gpus.c)
 *   offers.html, offers-2.html, ... the catalog, 100 offers a page, grouped by
 *                                   provider and GPU model: capacity, plans,
 *                                   cost per GiB-day, sources
 *   offers/OFFER.html, OFFER~2.html, ...   one page per offer: every workload
 *                                   (100 a page) with its verdict and reason
 *   matrix.js                       the index's sorting and filters (optional)
 *   sheets/ID.{html,json,*.svg}            one decision sheet per workload
 *                                         (ID.md with --md, *.png with --png)
 *   evidence/SHA256.json + manifest.json   raw measurements, content-addressed
 *
 * Invariants: every workload is read and validated before anything is
 * kept (a sheet rendered as its workload is read goes into the stage,
 * which is discarded when any workload has an error); the work per workload is constant (linear in the number of
 * workloads); pages are bounded in size by pagination; no page requests
 * anything outside the folder.
 *
 * Memory is flat in the number of workloads: each result (gs_publish_result:
 * a status, a cost and a currency per offer, the id, title and file names,
 * its key and, a sentence per offer, its reasons) is spooled to anonymous
 * files in the stage as it completes (site_results.h, spool.h) and read
 * back a page of workloads at a time by the index and per-offer pages, a
 * sheet at a time by the keys file; what the pages show of all of them
 * (the footers' counts per offer, the demonstration flag) is summed as they
 * come. What the validation learnt of each workload (its id, title,
 * SHA-256 and cited files, site_learnt.h) is spooled likewise as it is
 * read, and read back in order by the caller's check (the ids used twice
 * are found through a hash of each) and by a rendering that reuses sheets
 * from it. What stays in memory per workload is its path (the caller's
 * list, end to end in one block), its id (the keys file is sorted by id)
 * and an offset per spool: about 0.11 KB. The keys file is written a
 * sheet at a time and read a line at a time, parsing only the lines used
 * (site_keys.h); a worker writes its report a result a line as it goes, and
 * the parent reads it a line at a time (tests/scripts/site-memory.sh
 * checks the peak, bench/README.md gives figures).
 */
/* The site's other APIs: site_find.h (the workloads), site_keys.h (the keys
 * file), site_figures.h (the offers' figures), site_nav.h (the pager). */
#ifndef GS_SITE_H
#define GS_SITE_H

#include <stddef.h>
#include <stdint.h>
#include "diag.h"
#include "evidence.h"
#include "util.h"
#include "publish.h"
#include "site_learnt.h"
#include "site_results.h"

#define GS_SITE_PAGE_ROWS 100    /* workloads on an index page */
#define GS_SITE_PAGE_COLS 20     /* offers on an index page */
#define GS_SITE_PAGE_OFFERS 100  /* offers on an offers page */

/*
 * The revision of what this generator renders, in every sheet's key (and so
 * in every page's): a rebuild by a gpusheet that renders other bytes for
 * the same inputs must not reuse what an older one rendered, and the
 * version alone (GS_VERSION) does not change with every such commit. Bump
 * it with any change to the bytes of a sheet or a page;
 * tests/scripts/render-revision.sh fails when the committed site/ renders
 * otherwise than at the revision recorded in tests/render-revision.txt.
 */
#define GS_SITE_RENDER_REVISION 20

typedef struct {
	unsigned jobs;            /* worker processes (workers.h); 0 or 1: none */
	const char *catalog_key;  /* hex SHA-256 of the catalogs' bytes; NULL: no keys, no reuse */
	size_t *rendered;         /* or NULL: receives the number of sheets rendered (not reused) */
	/* or NULL: the index and per-offer pages with a key, linked from the
	 * replaced site (reused) or rendered */
	size_t *pages_reused, *pages_rendered;
	/* or NULL: receives the number of workloads reused unread, their stat
	 * fields those of the stat cache (site_stat.c) */
	size_t *unread;
	/* 1: every input read and hashed again, the stat cache ignored (it is
	 * written anew) */
	int rehash;
	/* or NULL: receives 1 when OUT was left untouched, every input
	 * unchanged since it was built (site_stat.c), else 0 */
	int *untouched;
	/* --shard K/N (shard.h): shard_n 0: the whole site. A shard needs
	 * catalog_key, workloads_key and inputs_key (shard.h: the SHA-256 of
	 * the ids, and of the ids with their inputs' bytes, in the paths'
	 * order). */
	unsigned shard_k, shard_n;
	const char *workloads_key, *inputs_key;
	/*
	 * Or 0: each workload is read again as it is rendered, unchecked.
	 * Else the build reads and validates every one of the npaths itself
	 * (a shard's too), in the same pass as it renders them: each workload
	 * file is read, parsed and hashed once. What it learns of each
	 * (site_learnt.h) is spooled in the stage as it is read, and its
	 * errors added to diag, in the paths' order for any jobs; then,
	 * before anything else is kept, it calls validated(validated_arg,
	 * learnt), which may read what was learnt (ids used twice), fill
	 * workloads_key and inputs_key, and print the errors: 0 goes on, -1
	 * stops the build (said why; gs_site_build then returns 2 and out_dir
	 * is untouched). A sheet is rendered only for a valid workload, and its
	 * failure reported only when validated goes on. Once any workload has
	 * an error, every worker only reads the rest (the build will stop):
	 * validated must stop the build when diag is not empty. Where the stage cannot
	 * be made, or only by creating out_dir's parent, the workloads are read
	 * first with nothing written (what was learnt spooled in the temporary
	 * folder, TMPDIR), then read again to be rendered. A rendering in one
	 * process after the pass (workers.h: evidence named differently by two
	 * workers) or after that first reading reuses a sheet from what was
	 * learnt, without reading its workload, and finds the same bytes in
	 * what it reads (else the workload changed while the site was built).
	 */
	int learn;
	gs_diag *diag;
	int (*validated)(void *arg, gs_site_learnt *learnt);
	void *validated_arg;
} gs_site_opts;

/*
 * The evidence archive of a site (or shard) folder dir: opened, checked,
 * and set to write its manifest even when empty (every page's navigation
 * links to it). NULL with a message in err.
 */
gs_archive *gs_site_archive(const char *dir, gs_error *err);

/*
 * Phase 2 of a site, from the results of its sheets in the site's order,
 * each with its key (rs, site_results.h: item i is sheet i's; memory stays
 * flat whatever their number): the index pages with matrix.js, the offers
 * pages, the per-offer pages and the keys file (the files listed in each
 * result's files). Writes nothing else: the sheets and the evidence
 * archive are the caller's. Used by `merge` (the site itself goes through
 * the same code with what it may take from the site it replaces). 0, or -1
 * with a message in err.
 */
int gs_site_pages(const gs_publish_env *env, gs_site_results *rs, const char *dir, gs_error *err);

/*
 * Builds the site from the workloads (already validated by the caller, or
 * read in the build: opts->learn) into a stage next to
 * out_dir and swaps it in whole (see gs_outfile_stage_* in outfile.h): out_dir is
 * the complete old site or the complete new one, whatever the failure or
 * the kill. An existing out_dir must be empty or a site (index.html and
 * sheets/); it is replaced, not merged: sheets and evidence of workloads no
 * longer given are gone. Evidence already archived with the same bytes is
 * hard-linked from the old site. Returns 0, or -1 with a message in err
 * (out_dir then untouched).
 *
 * The output is the same bytes for any opts->jobs, and for a rebuild that
 * reuses sheets as for a clean build.
 *
 * With opts->shard_n, out_dir is shard K's folder instead (shard.h): the
 * sheets and evidence of its workloads, the keys file of its sheets and
 * GS_SHARD_FILE, no pages; an existing out_dir must be empty or a shard
 * (GS_SHARD_FILE and sheets/), and a site is never replaced by a shard nor
 * a shard by a site. An error in a workload names it and
 * stops the build.
 *
 * With opts->learn, out_dir NULL: the workloads are read and validated and
 * opts->validated called, nothing else (0 or 2). 2: opts->validated
 * stopped the build.
 */
int gs_site_build(char *const *paths, size_t npaths, const gs_publish_env *env,
		  const gs_site_opts *opts, const char *out_dir, gs_error *err);

#endif
