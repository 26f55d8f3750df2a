/*
 * spool: per-item lists of strings kept in a temporary file instead of in
 * memory, read back a range of items at a time.
 *
 * Why: a site needs each workload's result (gs_publish_result: a status,
 * a cost and a currency per offer, its id, title and files, and a sentence
 * per offer on why it has its status, about 150 bytes x 50 offers) only at
 * the end, for the index and per-offer pages and the keys file. Held in
 * memory, the reasons made the build's peak grow by ~80 KB per workload,
 * the rest by ~1.4 KB; spooled (site_results.h keeps a result in two
 * spools, its fields and its reasons), what stays in memory per workload
 * is an offset per spool (8 bytes), and the reader holds one range (a page
 * of workloads) at a time.
 *
 * Invariants:
 *  - the file is anonymous (O_TMPFILE, else created and unlinked at once)
 *    in the folder given, so that it never appears in an output, however
 *    the process ends; it is a site's stage, on the output's file system,
 *    rather than /tmp, which may be memory;
 *  - items are appended in order 0, 1, 2, ...; each is a list of strings,
 *    any of them NULL; the bytes are kept as given;
 *  - gs_spool_load reads a range of items with one read, then
 *    gs_spool_get returns pointers into that buffer, valid until the next
 *    load or the free: one system call per range, never one per string; a
 *    range still in the write buffer (64 KiB) is copied from it, with
 *    nothing written or read (a small site's spool never touches the
 *    disk, and a failure to write comes only when something must be);
 *  - the write buffer is written out before worker processes are forked
 *    (gs_spool_flush), which may then only read (pread: no shared offset).
 */
#ifndef GS_SPOOL_H
#define GS_SPOOL_H

#include "error.h"

#include <stddef.h>

typedef struct gs_spool gs_spool;

/* A new, empty spool in dir; NULL with a message in err. */
gs_spool *gs_spool_new(const char *dir, gs_error *err);
/* Appends item gs_spool_count(s): its nv strings (each may be NULL). 0, or -1 with err. */
int gs_spool_put(gs_spool *s, char *const *v, size_t nv, gs_error *err);
/* Writes out the items appended and still buffered (before a fork: the
 * processes forked may then only read). 0, or -1 with err. */
int gs_spool_flush(gs_spool *s, gs_error *err);
/* Items appended so far. */
size_t gs_spool_count(const gs_spool *s);
/* Makes items [from, to) readable (to <= count). 0, or -1 with err. */
int gs_spool_load(gs_spool *s, size_t from, size_t to, gs_error *err);
/* String j of item i (loaded), or NULL: a NULL string, or j past the item's list. */
const char *gs_spool_get(const gs_spool *s, size_t i, size_t j);
/* The number of strings of item i (loaded). */
size_t gs_spool_size(const gs_spool *s, size_t i);
void gs_spool_free(gs_spool *s);

#endif
