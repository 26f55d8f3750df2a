/*
 * outfile: writing outputs so that nothing is ever half-written.
 *
 * Invariants:
 *  - each file goes to a temporary file in its destination folder, is
 *    flushed to disk, then renamed over its final name: a reader sees the
 *    old file or the new one, never a part;
 *  - temporary files are created with O_CREAT|O_EXCL|O_NOFOLLOW under an
 *    unpredictable name, GS_TEMP_PREFIX followed by 16 random hex digits:
 *    a symlink or file planted in the folder is never followed nor reused;
 *    gs_outfile_is_temp_name recognises these names (and the older ".NAME.tmp-PID"
 *    ones), so that `verify` can report a stray one;
 *  - names given to gs_outfile_write_atomic are confined to their folder (no '/',
 *    no "..");
 *  - a stage (gs_outfile_stage_*) is a folder next to OUT, named
 *    ".BASE" GS_STAGE_INFIX "XXXXXX", where a whole output tree is built
 *    and then swapped in with one rename: renameat2(RENAME_EXCHANGE) where
 *    the kernel and file system have it, else OUT moves aside and the stage
 *    takes its name (a crash between the two renames leaves no OUT, the old
 *    tree kept under ".BASE" GS_STAGE_OLD_INFIX "XXXXXX"). Whatever the
 *    kill or the write failure before the swap, OUT is the complete old
 *    tree; after it, the complete new one. A stage holds an flock on its
 *    folder while it lives; the next stage of the same OUT removes the
 *    unlocked ones (left by a killed run);
 *  - test builds (GS_FAULT_INJECTION) read GS_TEST_WRITE_BUDGET=N from the
 *    environment: once N bytes have gone through gs_outfile_write_all in this
 *    process, every further write fails with ENOSPC, as on a full disk;
 *    GS_TEST_SYNC_FAIL=N: in each transaction (gs_outfile_tx_*), the sync of
 *    the N-th file added (from 1) fails with EIO, as on a failing disk
 *    (in a stage, whose files are flushed at its commit, the transaction's
 *    commit fails as that flush would);
 *    GS_TEST_SYNC_SAY=1: each folder a transaction or a stage's commit
 *    syncs is named on stderr ("gs-test: folder synced: DIR"), and a
 *    stage's flush of its file system before the swap too ("gs-test: file
 *    system flushed: PARENT").
 */
#ifndef GS_OUTFILE_H
#define GS_OUTFILE_H

#include "error.h"

#include <stddef.h>
#include <stdio.h>

#define GS_TEMP_PREFIX ".gs-tmp-"
#define GS_STAGE_INFIX ".gs-staging-"
#define GS_STAGE_OLD_INFIX ".gs-old-"

/*
 * mkdir -p; 0 or -1 with errno. Outside a stage, the folders it creates
 * are remembered, and the next gs_outfile_tx_commit syncs their parent folders
 * with its files: a file committed into a new folder survives a crash
 * with its folder.
 */
int gs_outfile_mkdirs(const char *dir);
/*
 * fsync(fd), unless a stage is alive in this process (gs_outfile_stage_begin until
 * gs_outfile_stage_free): its commit flushes the whole tree with one syncfs(2)
 * before the swap, then fsyncs OUT's folder, so that a site costs one flush
 * instead of one per file. 0, or -1 with errno.
 */
int gs_outfile_fsync(int fd);
/* write(2) until all n bytes are written (EINTR retried); 0 or -1 with errno. */
int gs_outfile_write_all(int fd, const void *buf, size_t n);
/*
 * A new temporary file in dir (see the invariants), opened for writing,
 * mode 0666 less the umask. Returns the descriptor and sets *path to the
 * malloc'd "dir/name" (the caller frees it), or -1 with errno (*path NULL).
 */
int gs_outfile_temp_open(const char *dir, char **path);
/* 1 if name (a base name) is one of the temporary names above. */
int gs_outfile_is_temp_name(const char *name);
/* Writes dir/name atomically; 0, or -1 with a message in err. */
int gs_outfile_write_atomic(const char *dir, const char *name, const void *data, size_t len,
		    gs_error *err);
/*
 * dir/name written atomically a piece at a time (a file too large to build
 * in memory first): gs_outfile_stream_open gives a temporary file in dir to
 * write through gs_outfile_stream_file; gs_outfile_stream_commit flushes, syncs
 * (gs_outfile_fsync) and renames it to dir/name, gs_outfile_stream_abort removes it.
 * Both free the stream. NULL or -1 with a message in err.
 */
typedef struct gs_outstream gs_outstream;

gs_outstream *gs_outfile_stream_open(const char *dir, const char *name, gs_error *err);
FILE *gs_outfile_stream_file(gs_outstream *o);
int gs_outfile_stream_commit(gs_outstream *o, gs_error *err);
void gs_outfile_stream_abort(gs_outstream *o);
/*
 * Reads a whole regular file of at most GS_FILE_MAX_BYTES into a
 * NUL-terminated buffer: gs_infile_read (infile.h), the reason dropped; NULL
 * with errno set on error (EINVAL: a FIFO, a device, a folder; EFBIG: over
 * the bound). A caller that reports the error calls gs_infile_read.
 */
char *gs_outfile_read(const char *path, size_t *len);
/*
 * Removes path and everything under it, never following a symbolic link
 * nor entering another file system, by descriptors (openat, unlinkat: no
 * path walk nor stat per name). 0, or -1 with errno (what could be removed
 * is).
 */
int gs_outfile_remove_tree(const char *path);

/*
 * A transaction over files in one or more folders: every file's bytes go to
 * a temporary file when it is added (its write-back to the disk started
 * then), and nothing is visible until gs_outfile_tx_commit has waited for all of
 * them (an fdatasync per file, the files' in threads side by side: their
 * writes and the disk's cache flushes overlap instead of one fsync after
 * the other), renamed them, in the order added, then fsynced their folders. A write failure (a full disk) therefore happens
 * before the first rename, and leaves every final name as it was; freeing a
 * transaction not committed removes its temporary files. The window in
 * which a kill leaves part of it is the renames only (no byte is written
 * then); a whole site is made kill-safe by a stage (below).
 */
typedef struct gs_outtx gs_outtx;

gs_outtx *gs_outfile_tx_new(void);
/*
 * For a folder nobody sees until it is swapped in whole (a site's stage,
 * below): gs_outfile_tx_add creates each file under its final name at once
 * (O_EXCL: never replacing one), saving a temporary name and a rename per
 * file; the stage gives the atomicity. Freed uncommitted, its files are
 * removed as well.
 */
gs_outtx *gs_outfile_tx_new_direct(void);
/* Writes dir/name's bytes to a temporary file; 0, or -1 with a message in err. */
int gs_outfile_tx_add(gs_outtx *tx, const char *dir, const char *name, const void *data,
		 size_t len, gs_error *err);
/*
 * Takes over tmp_path (malloc'd, a complete, fsync'ed temporary file) to be
 * hard-linked to final_path at commit, never replacing a file there (for
 * content-addressed files: one already there is kept).
 */
void gs_outfile_tx_add_noreplace(gs_outtx *tx, char *tmp_path, const char *final_path);
/* Makes every file visible; 0, or -1 with a message in err. */
int gs_outfile_tx_commit(gs_outtx *tx, gs_error *err);
/* Frees tx, removing the temporary files of a transaction not committed. */
void gs_outfile_tx_free(gs_outtx *tx);

typedef struct gs_stage gs_stage;

/*
 * Starts a stage for out. out must not be a symbolic link, and if it exists
 * it must be a folder that is empty or holds every name in must_hold
 * (NULL-terminated, may be NULL): a guard against replacing a folder that is
 * not ours. Returns NULL with a message in err on failure.
 */
gs_stage *gs_outfile_stage_begin(const char *out, const char *const *must_hold,
			 gs_error *err);
/*
 * gs_outfile_stage_begin naming what out is in its messages (what: "site",
 * "shard", "sheet folder"; the other says "site"). Both refuse, before
 * anything is built, an out that is a mount point (it cannot be renamed),
 * and take out's lock (outlock.h) unless this process holds it.
 */
gs_stage *gs_outfile_stage_begin_as(const char *out, const char *const *must_hold,
			    const char *what, gs_error *err);
/* The folder to build into. */
const char *gs_outfile_stage_dir(const gs_stage *st);
/* out as it was when the stage began (a folder), or NULL when there was none. */
const char *gs_outfile_stage_previous(const gs_stage *st);
/*
 * Flushes the stage to disk and swaps it in for out, then removes the old
 * tree. 0, or -1 with a message in err (out is then untouched, unless the
 * fallback's second rename failed, which err says).
 */
int gs_outfile_stage_commit(gs_stage *st, gs_error *err);
/* Frees the stage; a stage not committed is removed from disk. */
void gs_outfile_stage_free(gs_stage *st);

/* Creates the missing folders of the folder of out (as mkdir -p does);
 * 0, or -1 with "gpusheet CMD: ..." printed on stderr. */
int gs_outfile_make_parents(const char *out, const char *cmd);

#endif
