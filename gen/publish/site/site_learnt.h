/*
 * site_learnt: what a site's validation learnt of each workload (its id,
 * title, the SHA-256 of its bytes and, per cited file, its path, name and
 * SHA-256) kept in a spool (spool.h) instead of in memory, read back a
 * range of workloads at a time.
 *
 * Why: a site reads and validates every workload before it keeps anything,
 * and needs what it learnt of each after that pass: the caller's check of
 * ids used twice and the shards' keys (site.h, gs_site_opts.validated),
 * and a build that renders again (in one process, or after a validation
 * that wrote nothing) to reuse a sheet unread and to find the same bytes.
 * Held in memory, that was an array of gs_site_input (~160 bytes) and its
 * strings, ~240 bytes a workload without cited files; spooled as each
 * workload is read, what stays in memory per workload is the spool's
 * offset (8 bytes) and, only when the workloads were not put in the
 * paths' order (a shard's workers, site.c's S_order), an index (4 bytes).
 *
 * Invariants:
 *  - path i's record is put once, in any order, for each of the n paths;
 *    a workload that could not be read is put without an id;
 *  - the spool is an anonymous file in the folder given (a stage, or the
 *    temporary folder when nothing may be written yet), gone with the
 *    process; it is written out (gs_site_learnt_flush) before worker
 *    processes are forked, which then only read it (pread: no shared
 *    offset);
 *  - a record read back is the one put, string by string;
 *    gs_site_learnt_get loads a range of records with one read, and the
 *    pointers it gives are valid until a get outside that range or the
 *    free.
 */
#ifndef GS_SITELEARNT_H
#define GS_SITELEARNT_H

#include <stddef.h>
#include "evidence.h"
#include "spool.h"
#include "util.h"

/*
 * What the validation of one workload learnt of it, as it is read (the
 * record put; gs_site_learnt_input_release frees it).
 */
typedef struct {
	char *id, *title;                  /* NULL: the workload could not be read */
	char sha256[GS_SHA256_HEX_SIZE];   /* of the workload's bytes, as validated */
	gs_strvec ev_path, ev_file;        /* each cited file read: its path, its name in the workload */
	gs_strvec ev_sha256;               /* and the SHA-256 of its bytes, as read and parsed */
	/* the stat fields of the workload and of each cited file, as read
	 * (site_keys.c, gs_site_stat_text), or NULL: not to be trusted unread */
	char *stat;
} gs_site_input;

void gs_site_learnt_input_release(gs_site_input *in);

typedef struct gs_site_learnt gs_site_learnt;

/*
 * A record read back (gs_site_learnt_get): its strings are the spool's,
 * valid as said above; nev cited files, each read with gs_site_learnt_ev.
 */
typedef struct {
	const char *id, *title;   /* id NULL: the workload could not be read */
	const char *sha256;       /* "" when it could not be read */
	const char *stat;         /* gs_site_input.stat, "" for none */
	size_t nev;
	const gs_spool *spool;    /* (where its files' strings are) */
	size_t item;
} gs_site_learnt_item;

/* New and empty, for n paths, spooled in dir; NULL with err. */
gs_site_learnt *gs_site_learnt_new(const char *dir, size_t n, gs_error *err);
/* The number of paths it was made for. */
size_t gs_site_learnt_paths(const gs_site_learnt *l);
/* Path i's record (i < n, not put before); 0, or -1 with err. */
int gs_site_learnt_put(gs_site_learnt *l, size_t i, const gs_site_input *in, gs_error *err);
/* Writes out what is still buffered (before a fork); 0, or -1 with err. */
int gs_site_learnt_flush(gs_site_learnt *l, gs_error *err);
/* Path i's record (put) into it, loading it and a few after it when it
 * is not loaded; 0, or -1 with err. */
int gs_site_learnt_get(gs_site_learnt *l, size_t i, gs_site_learnt_item *it, gs_error *err);
/* Cited file k (< it->nev) of a record read: its path, its name in the
 * workload, the SHA-256 of its bytes. */
const char *gs_site_learnt_ev_path(const gs_site_learnt_item *it, size_t k);
const char *gs_site_learnt_ev_file(const gs_site_learnt_item *it, size_t k);
const char *gs_site_learnt_ev_sha256(const gs_site_learnt_item *it, size_t k);
void gs_site_learnt_free(gs_site_learnt *l);

#endif
