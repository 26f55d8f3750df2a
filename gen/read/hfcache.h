/*
 * hfcache: a model in the local Hugging Face cache, found by its repo id
 * and revision, offline.
 *
 * The cache is HF_HUB_CACHE, else HF_HOME/hub, else ~/.cache/huggingface/hub.
 * A repo id ORG/NAME lives in ROOT/models--ORG--NAME/:
 *   refs/REVISION        a file holding the commit (40 hex digits) that a
 *                        branch or a tag names;
 *   snapshots/COMMIT/    the files of that commit, each a symbolic link into
 *   blobs/HASH           the content, stored once.
 *
 * Invariants:
 *  - nothing is downloaded, nothing is written;
 *  - a revision is a commit (40 lower-case hex digits) or the name of a file
 *    under refs/, resolved beneath it without following any link, no "..";
 *  - a file of a snapshot is a regular file, or a symbolic link whose target
 *    resolves (by its text, never by the file system) to blobs/NAME of the
 *    same models--… folder; the blob is opened without following any further
 *    link. A link that leaves the model's folder, or points elsewhere in it,
 *    is refused with its target; a link to an absent blob is named dangling;
 *  - every message names the path looked at and, when the model is not there,
 *    the Hub command that fetches only its small files.
 */
#ifndef GS_HFCACHE_H
#define GS_HFCACHE_H

#include "error.h"

#include <stddef.h>
#include "diag.h"

#define GS_HF_COMMIT_LEN 40

typedef struct {
	char *root;           /* the cache folder, or NULL when given a models--… folder */
	const char *root_from;/* "HF_HUB_CACHE", "HF_HOME", "HOME" or NULL */
	char *repo_id;        /* "ORG/NAME" */
	char *repo_dir;       /* the models--ORG--NAME folder */
	char *revision;       /* as asked ("main", a tag, a commit) */
	char *commit;         /* 40 hex digits */
	char *snapshot;       /* repo_dir/snapshots/COMMIT */
	int repo_fd;          /* the models--… folder, open */
	int snap_fd;          /* the snapshot folder, open */
	char *repo_real;      /* repo_dir with every link resolved (absolute link targets) */
} gs_hf_model;

/* 1 when s is ORG/NAME (each 1 to 96 of [A-Za-z0-9._-], not starting with
 * '.' or '-', no ".." nor "--"), 0 otherwise. */
int gs_hfcache_is_repo_id(const char *s);
/* 1 when s is 40 lower-case hex digits. */
int gs_hfcache_is_commit(const char *s);

/*
 * Splits "ORG/NAME[@REVISION]" into fresh strings (*rev NULL without '@').
 * 0, or -1 when it is not of that form.
 */
int gs_hfcache_split_ref(const char *ref, char **repo, char **rev);


/*
 * Opens REPO_ID at REVISION (NULL: "main") in the cache. 0, or -1 with
 * every message in d (h released then).
 */
int gs_hfcache_open(const char *repo_id, const char *revision, gs_hf_model *h, gs_diag *d);

/*
 * Opens a models--ORG--NAME folder given by its path at REVISION (NULL:
 * "main"), or a snapshot folder (REPO/snapshots/COMMIT) given by its path.
 * 1 when path is one of those and was opened, 0 when path is neither (h
 * untouched), -1 with messages in d.
 */
int gs_hfcache_open_path(const char *path, const char *revision, gs_hf_model *h, gs_diag *d);

/*
 * Opens the snapshot's file NAME (one component) for reading, as the
 * invariants say: a descriptor of a regular file of at most max_bytes (0:
 * no bound), blocking, close-on-exec; or -1 with a message in err.
 */
int gs_hfcache_open_file(const gs_hf_model *h, const char *name, size_t max_bytes, gs_error *err);

void gs_hfcache_release(gs_hf_model *h);

#endif
