/*
 * site_results: the results of a site's sheets (gs_publish_result, with
 * each sheet's key and where a reused sheet's reasons lie) kept in two
 * spools (spool.h) instead of in memory, read back a range at a time.
 *
 * Why: a site needs every result only at its end, for the index and
 * per-offer pages and the keys file, a page of workloads (or a sheet) at a
 * time. Held in memory, a result at 50 offers was ~1.4 KB (a status, a cost
 * and a currency per offer, the id, title, file names, key) and its
 * reasons ~7.5 KB more: the build's peak grew with the number of workloads.
 * Spooled as each result completes, what stays in memory per workload is
 * its two offsets in the spools and its id (for the keys file's order and
 * --reference); what the pages show of all of them (the counts per offer
 * and status of the footers, the demonstration flag) is summed as they
 * come, in O(offers), and the keys of each page of workloads hashed, in
 * O(pages).
 *
 * Invariants:
 *  - results are appended in the site's order, item i is workload i's; the
 *    spools are anonymous files in the folder given (a stage), gone with
 *    the process;
 *  - gs_site_results_put takes the result: it is released, spooled or
 *    not; a result read back is equal to the one put, field by field (its
 *    currencies the catalog's own strings, as gs_publish_result's);
 *  - one range is loaded at a time; the pointers gs_site_results_get and
 *    gs_site_results_reason return are valid until the next load or the
 *    free.
 */
#ifndef GS_SITERESULTS_H
#define GS_SITERESULTS_H

#include <stddef.h>
#include <stdint.h>
#include "catalog.h"
#include "publish.h"

/*
 * Where a reused sheet's reasons lie in the replaced site's keys file: the
 * bytes of its entry's "why" array (len 0: not reused, its reasons are
 * spooled with it).
 */
typedef struct {
	uint64_t off, len;
} gs_site_span;

typedef struct gs_site_results gs_site_results;

/* New and empty, for results against cat, spooled in dir, in groups of
 * page_rows (a page of workloads, gs_site_results_rows); NULL with err. */
gs_site_results *gs_site_results_new(const char *dir, const gs_catalog *cat, size_t page_rows,
				     gs_error *err);
/*
 * Appends result gs_site_results_count(rs): r with its reasons (r->reason,
 * or none), key (hex, or NULL: a build without keys) and span (or NULL:
 * none). r is released whatever the outcome. 0, or -1 with err.
 */
int gs_site_results_put(gs_site_results *rs, gs_publish_result *r, const char *key,
			const gs_site_span *span, gs_error *err);
size_t gs_site_results_count(const gs_site_results *rs);
/* Result i's id, from memory (any i < count). */
const char *gs_site_results_id(const gs_site_results *rs, size_t i);
/* Of the results put so far: per offer (catalog order) the number of
 * workloads that give it status s (0, 1, 2), as gs_site_figures_offer_counts. */
const size_t (*gs_site_results_counts(const gs_site_results *rs))[3];
/* Whether any result put so far is a demonstration. */
int gs_site_results_demonstration(const gs_site_results *rs);
/*
 * The SHA-256 (hex) of the keys, each with its NUL, of group g: results
 * [g x page_rows, (g + 1) x page_rows) of those put (at least one), hashed
 * as they come: what a page of workloads' key needs of its sheets, without
 * reading them back.
 */
void gs_site_results_rows(const gs_site_results *rs, size_t g, char hex[GS_SHA256_HEX_SIZE]);

/*
 * Makes results [from, to) readable (to <= count), and their reasons when
 * why is not 0: one read per spool. 0, or -1 with err.
 */
int gs_site_results_load(gs_site_results *rs, size_t from, size_t to, int why, gs_error *err);
/* Result i (loaded): its reason is NULL (gs_site_results_reason). */
const gs_publish_result *gs_site_results_get(const gs_site_results *rs, size_t i);
/* Its key ("" when put without one) and its span ({0, 0} when none). */
const char *gs_site_results_key(const gs_site_results *rs, size_t i);
gs_site_span gs_site_results_span(const gs_site_results *rs, size_t i);
/* Offer k's reason for result i (loaded with why), or NULL. */
const char *gs_site_results_reason(const gs_site_results *rs, size_t i, size_t k);
void gs_site_results_free(gs_site_results *rs);

#endif
