/*
 * workers: a range of independent items split among worker processes.
 *
 * Why processes and not threads: each item (a sheet) goes through cmark-gfm,
 * libxml2, Cairo and fontconfig, and through our own modules, none of which
 * is audited for concurrent use (libxml2's catalog is documented as not
 * thread-safe, gen/read/catalog.h; fontconfig's and Cairo's caches are process
 * wide). A forked worker shares nothing writable with the others: no lock,
 * no race, no library to trust, and a crash in one worker is an error of the
 * build, not a corrupted parent. The price is a fork per worker (copy on
 * write) and that what the parent needs back must be serialised.
 *
 * Invariants:
 *  - items [0, n) are cut into at most `jobs` contiguous ranges, in order:
 *    worker k gets [k*n/w, (k+1)*n/w); the cut depends only on n and jobs;
 *  - each worker writes its report (bytes of its choosing) into a private
 *    anonymous temporary file and ends with _exit (no atexit handler, no
 *    stdio buffer of the parent flushed twice); the parent gets the reports
 *    as open files, rewound, to read in worker order, whatever the order in
 *    which the workers ended, a piece at a time (a report may be large);
 *  - a worker dies with the parent (PR_SET_PDEATHSIG), so a killed build
 *    leaves no process writing into its stage;
 *  - when a worker fails (non-zero return, a signal), the others are killed
 *    and gs_workers_run fails with the failed worker's report as the
 *    message (the lowest-numbered failed worker when several did); a worker
 *    whose report could not be written (a full disk) passes the errno of
 *    that write by its exit status, and the message says it ("could not
 *    write its report (kept beside the output): No space left on device");
 *  - test builds (GS_FAULT_INJECTION): GS_TEST_REPORT_ENOSPC set makes
 *    every worker's report fail so.
 */
#ifndef GS_WORKERS_H
#define GS_WORKERS_H

#include "error.h"

#include <stddef.h>
#include <stdio.h>

/*
 * Runs in the worker on items [from, to); writes its report to out. Returns
 * 0, or -1 after writing an error message (the report of a failure) to out.
 */
typedef int (*gs_worker_fn)(size_t from, size_t to, void *ctx, FILE *out);

/* Reports of the workers, in worker order. */
typedef struct {
	size_t n;             /* number of workers */
	size_t *from, *to;    /* the range of each */
	FILE **report;        /* the report of each, open for reading from its start */
} gs_worker_reports;

/* The number of online processors (at least 1). */
unsigned gs_workers_default(void);

/*
 * Runs fn over [0, n) in min(jobs, n) workers (jobs >= 1; n >= 1). The
 * reports are anonymous files in dir (O_TMPFILE) when dir is not NULL and
 * allows it, else tmpfile()'s: a site passes its stage, on disk, because
 * reports grow with the items and /tmp may be memory. Returns 0 with every
 * report in *rep (free with gs_workers_reports_release), or -1 with a
 * message in err.
 */
int gs_workers_run(size_t n, unsigned jobs, gs_worker_fn fn, void *ctx, const char *dir,
		   gs_worker_reports *rep, gs_error *err);
void gs_workers_reports_release(gs_worker_reports *rep);

#endif
