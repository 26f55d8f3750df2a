/*
 * site: the comparison site of many workloads against the catalog.
 *
 * Layout of the output folder:
 *   index.html, index-2.html, ...  workload x offer matrix, 100 workloads by
 *   index-1-2.html, ...             20 offers a page (index-R-C: workload page R,
 *                                   offer page C; C = 1 is index-R.html), offers
 *                                   in order of memory per card; each cell links
 *                                   to sheets/ID.html#offer-OFFER
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
 * files in the stage as it completes (siteresults.h, spool.h) and read
 * back a page of workloads at a time by the index and per-offer pages, a
 * sheet at a time by the keys file; what the pages show of all of them
 * (the footers' counts per offer, the demonstration flag) is summed as they
 * come. What the validation learnt of each workload (its id, title,
 * SHA-256 and cited files, sitelearnt.h) is spooled likewise as it is
 * read, and read back in order by the caller's check (the ids used twice
 * are found through a hash of each) and by a rendering that reuses sheets
 * from it. What stays in memory per workload is its path (the caller's
 * list, end to end in one block), its id (the keys file is sorted by id)
 * and an offset per spool: about 0.11 KB. The keys file is written a
 * sheet at a time and read by a scan that parses only the entries used
 * (jsonscan.h); a worker writes its report a result a line as it goes, and
 * the parent reads it a line at a time (tests/scripts/site-memory.sh
 * checks the peak, bench/README.md gives figures).
 */
#ifndef GS_SITE_H
#define GS_SITE_H

#include <stddef.h>
#include <stdint.h>
#include "diag.h"
#include "evidence.h"
#include "util.h"
#include "publish.h"
#include "sitelearnt.h"
#include "siteresults.h"

#define GS_SITE_PAGE_ROWS 100    /* workloads on an index page */
#define GS_SITE_PAGE_COLS 20     /* offers on an index page */
#define GS_SITE_PAGE_OFFERS 100  /* offers on an offers page */

/*
 * Incremental builds: OUT/.gpusheet-keys.json (GS_SITE_KEYS_FILE) holds, per
 * sheet id, the key of its inputs (hex SHA-256 of: GS_SITE_KEYS_FORMAT, the
 * generator's version, lang, date, --png, --md, --accept-synthetic, the catalogs'
 * names and bytes, the templates, the labels, the SHA-256 of the workload's
 * bytes, and each cited file's name and archived file, which holds the SHA-256 of
 * its bytes), the names of its files in sheets/, what the index pages
 * need of it and, last, its reasons ("why"); and per index and per-offer
 * page a key: the keys of the sheets it shows and what it shows of the
 * others (counts). A rebuild links a sheet's files from the old site when
 * its key is unchanged, and renders it otherwise; it links a page whose key
 * is unchanged; the offers pages, manifest and keys are always written.
 * Compact, keys sorted, a line per page and per sheet (docs/formats.md 6):
 *   {"format":"gpusheet-keys/3","pages":{
 *   "index.html":"<sha256hex>",
 *   ...},"sheets":{
 *   "ID":{"files":["ID-budget.svg",...,"ID.html"],"key":"<sha256hex>","result":{...},"why":[...]},
 *   ...}}
 * A reused sheet's entry is parsed without its "why" (most of its bytes),
 * which is copied into the new file as it is and parsed only for a page
 * rendered again.
 */
/*
 * The revision of what this generator renders, in every sheet's key (and so
 * in every page's): a rebuild by a gpusheet that renders other bytes for
 * the same inputs must not reuse what an older one rendered, and the
 * version alone (GS_VERSION) does not change with every such commit. Bump
 * it with any change to the bytes of a sheet or a page;
 * tests/scripts/render-revision.sh fails when the committed site/ renders
 * otherwise than at the revision recorded in tests/render-revision.txt.
 */
#define GS_SITE_RENDER_REVISION 5
#define GS_SITE_KEYS_FILE ".gpusheet-keys.json"
#define GS_SITE_KEYS_FORMAT "gpusheet-keys/3"

typedef struct {
	unsigned jobs;            /* worker processes (workers.h); 0 or 1: none */
	const char *catalog_key;  /* hex SHA-256 of the catalogs' bytes; NULL: no keys, no reuse */
	size_t *rendered;         /* or NULL: receives the number of sheets rendered (not reused) */
	/* or NULL: the index and per-offer pages with a key, linked from the
	 * replaced site (reused) or rendered */
	size_t *pages_reused, *pages_rendered;
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
	 * (sitelearnt.h) is spooled in the stage as it is read, and its
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
 * The key of what every sheet depends on besides its own files: the keys
 * format, the generator's version, lang, date, --png, --md, --accept-synthetic,
 * the catalogs' names and bytes (catalog_key), the templates and labels.
 */
void gs_site_key(const gs_publish_env *env, const char *catalog_key,
		 char hex[GS_SHA256_HEX_SIZE]);

/*
 * Finds every file named workload.json under each dir, sorted; the caller
 * frees them with gs_site_free_paths. The paths lie end to end in one
 * block (no allocation's overhead per path: the list stays in memory for
 * the whole build). skipped (when not NULL) receives "PATH: why" for each
 * file that looks meant as a workload and is not read: a workload sheet
 * under another name, a workload.json that is a link.
 */
int gs_site_find_workloads(const char *const *dirs, size_t ndirs, char ***paths,
			   size_t *npaths, gs_strvec *skipped, gs_diag *d);
void gs_site_free_paths(char **paths, size_t n);

/* Longest short title in the matrix's first column, in bytes (then "…"). */
#define GS_SITE_SHORT_TITLE 48

/*
 * counts[k][s]: how many of the n workloads give offer k (catalog order) the
 * overall status s (0 retained, 1 pre-selected, 2 excluded); "not compared"
 * is not counted. counts has noffers rows.
 */
void gs_site_offer_counts(const gs_publish_result *res, size_t n, size_t noffers,
			  size_t (*counts)[3]);
/*
 * The matrix's column order: catalog indexes sorted by memory per card
 * (device-declared, else nominal; unknown last), ties in catalog order.
 * order has cat->noffers entries.
 */
void gs_site_offer_order(const gs_catalog *cat, size_t *order);
/*
 * The offers page's order: grouped by provider (byte order; offers without
 * one last), then GPU model, ties in catalog order. order has cat->noffers
 * entries.
 */
void gs_site_offer_groups(const gs_catalog *cat, size_t *order);

/*
 * The pages a pager of n pages links from page cur (0-based), in order,
 * into pages (at most GS_SITE_PAGER_MAX); returns how many. Every page when
 * n <= GS_SITE_PAGER_ALL; else the first and the last, cur and two on each
 * side, and at each scale p = 10, 100, ... below n the multiples of p
 * (in page numbers, from 1) in the block of 10 p pages that holds cur: a
 * page links O(log n) others instead of n (a pager of every page made the
 * per-offer pages grow as the square of the workloads), and any page is a
 * few links away from any other.
 */
#define GS_SITE_PAGER_ALL 15
#define GS_SITE_PAGER_MAX 200
size_t gs_site_pager_pages(size_t cur, size_t n, size_t *pages);

/*
 * The evidence archive of a site (or shard) folder dir: opened, checked,
 * and set to write its manifest even when empty (every page's navigation
 * links to it). NULL with a message in err.
 */
gs_archive *gs_site_archive(const char *dir, char *err, size_t errlen);

/*
 * Phase 2 of a site, from the results of its sheets in the site's order,
 * each with its key (rs, siteresults.h: item i is sheet i's; memory stays
 * flat whatever their number): the index pages with matrix.js, the offers
 * pages, the per-offer pages and the keys file (the files listed in each
 * result's files). Writes nothing else: the sheets and the evidence
 * archive are the caller's. Used by `merge` (the site itself goes through
 * the same code with what it may take from the site it replaces). 0, or -1
 * with a message in err.
 */
int gs_site_pages(const gs_publish_env *env, gs_site_results *rs, const char *dir, char *err,
		  size_t errlen);

/*
 * Reads dir's keys file (a site's or a shard's): for each of the n ids,
 * in order, its result with its files, reasons and key appended to rs.
 * Only the entries of those ids are parsed (the file is scanned, not
 * loaded, jsonscan.h). 0, or -1 with a message in err naming the file and
 * the JSON path.
 */
int gs_site_read_keys(const char *dir, const gs_catalog *cat, char *const *ids, size_t n,
		      gs_site_results *rs, char *err, size_t errlen);

/*
 * The offers page's charts (S_offers_page), computed from the catalog and
 * the results alone, so that a site rebuilt from results draws the same:
 *  - cost per GiB-day: one bar per plan of each offer with a price and a
 *    memory figure: price x 2^30 x 24 / (bytes per card x cards x hours),
 *    in ten-thousandths of the plan's currency, rounded half up, exact
 *    (128-bit); bars by value, ties in page order;
 *  - campaign: with a reference workload, its total cost on each offer it
 *    compares (gs_publish_result.cost, hundredths) and its verdict there;
 *    without one, each offer's cheapest hourly price per currency
 *    (price x 100 / hours, ten-thousandths, rounded half up); by memory
 *    per card (unknown last), then value, ties in page order.
 * One series per currency (currencies in byte order): amounts in different
 * currencies never share an axis. An offer without a figure is listed with
 * why (never drawn as 0).
 */
enum gs_site_why {
	GS_SITE_NO_PRICE,         /* no plan */
	GS_SITE_NO_MEMORY,        /* no memory figure: no cost per GiB */
	GS_SITE_NOT_COMPARED,     /* the reference workload does not compare it */
	GS_SITE_NO_COST           /* compared, but the reference gives no cost on it */
};

typedef struct {
	size_t offer;             /* catalog index */
	size_t plan;              /* index of the plan in the offer (campaign: its cheapest) */
	uint64_t value;           /* see above */
	unsigned char status;     /* campaign with a reference: 0 retained, 1 pre-selected, 2 excluded; else 3 */
} gs_site_point;

typedef struct {
	const char *currency;     /* borrowed from the catalog */
	gs_site_point *pts;
	size_t n;
} gs_site_series;

typedef struct {
	gs_site_series *series;   /* currencies in byte order */
	size_t nseries;
	size_t *missing;          /* catalog indexes of the offers not drawn, in page order */
	unsigned char *why;       /* enum gs_site_why, per missing offer */
	size_t nmissing;
} gs_site_chart_data;

/* Cost per GiB-day of plan p on bytes_per_card x cards: 0 and *q in
 * ten-thousandths of the plan's currency; -1 when bytes, cards or hours is 0
 * or the figure exceeds 64 bits. */
int gs_site_gib_day(const gs_plan *p, uint64_t bytes_per_card, uint64_t cards, uint64_t *q);
/* Memory per card the site groups and divides by: device-declared, else
 * nominal; UINT64_MAX when unknown. */
uint64_t gs_site_offer_memory(const gs_offer *o);
/* The offers offers[0..n) (catalog indexes, page order); out is filled, the
 * caller releases it. */
void gs_site_gib_day_data(const gs_catalog *cat, const size_t *offers, size_t n,
			  gs_site_chart_data *out);
/* ref: the reference workload's result, or NULL (hourly prices). */
void gs_site_campaign_data(const gs_catalog *cat, const size_t *offers, size_t n,
			   const gs_publish_result *ref, gs_site_chart_data *out);
void gs_site_chart_data_release(gs_site_chart_data *d);

/*
 * Builds the site from the workloads (already validated by the caller, or
 * read in the build: opts->learn) into a stage next to
 * out_dir and swaps it in whole (see gs_stage_* in outfile.h): out_dir is
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
		  const gs_site_opts *opts, const char *out_dir, char *err, size_t errlen);

#endif
