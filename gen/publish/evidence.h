/*
 * evidence: the content-addressed archive of raw measurement files inside a
 * site folder SITE.
 *
 * Invariants:
 *  - an archived file lives at SITE/evidence/<sha256hex>.<ext>, where the
 *    hex is the lowercase SHA-256 of its bytes and <ext> says its kind,
 *    never the name it was given: "json" for a measurement or a model's
 *    JSON file, "header" for a model file's header bytes, "log" for an
 *    engine's log ("txt" when it was so named). None is an extension a
 *    browser renders as a page, so no file of a workload or a log can
 *    become a page of the site that runs script; a manifest naming another
 *    extension is refused (so is such a file, by `verify`). A hash archived
 *    once keeps its first file name (recorded in the manifest), whatever
 *    later names say;
 *  - an archived file is never overwritten: if the target already exists its
 *    bytes are re-hashed and must match, otherwise gs_evidence_archive_add fails;
 *  - files appear whole or not at all: bytes go to a temporary file in
 *    SITE/evidence/, which is fsync'ed and then link()ed to its final name
 *    (link fails rather than replace); the folder itself is fsync'ed by
 *    gs_evidence_archive_write_manifest, once per build;
 *  - the bytes archived are the bytes given (gs_evidence_archive_add_bytes: a
 *    workload's cited files as they were read and parsed, publish.h) or
 *    read once from a path, in large chunks (hash and copy from the same
 *    pass); never read again from the source;
 *  - SITE/evidence/manifest.json is written atomically (temporary file,
 *    fsync, rename) and merged with the manifest found there when the
 *    archive was created, so a second build over the same folder loses no
 *    entry, name or citation; a manifest that cannot be read makes the
 *    archive refuse to add or write anything;
 *  - the manifest bytes are deterministic: keys sorted, arrays sorted and
 *    unique, no dates; when the bytes would not change the file is left
 *    untouched (same inode, same mtime).
 *
 * Manifest format (JSON_SORT_KEYS | JSON_INDENT(2), trailing newline):
 *   {
 *     "entries": {
 *       "<sha256hex>": {
 *         "cited_by": ["sheets/a.html", ...],   sorted unique, relative to SITE
 *         "file": "<sha256hex>.json",           name inside evidence/
 *         "names": ["run-a.json", ...],         sorted unique original names
 *         "sha256": "<sha256hex>",
 *         "size": 1234
 *       }, ...
 *     },
 *     "format": "gpusheet-evidence/1"
 *   }
 */
#ifndef GS_EVIDENCE_H
#define GS_EVIDENCE_H

#include <stddef.h>
#include <stdint.h>

#include "outfile.h"

#define GS_SHA256_HEX_SIZE 65      /* 64 hex digits + NUL */
#define GS_EVIDENCE_EXT_MAX 16     /* longest kept extension, without dot */
/* "evidence/" + 64 hex + "." + extension + NUL */
#define GS_EVIDENCE_REL_SIZE (9 + 64 + 1 + GS_EVIDENCE_EXT_MAX + 1)
#define GS_EVIDENCE_DIR "evidence"
#define GS_EVIDENCE_MANIFEST "manifest.json"
#define GS_EVIDENCE_FORMAT "gpusheet-evidence/1"

typedef struct gs_archive gs_archive;

/* The kinds of archived files, which give their extension (see above). */
enum gs_evidence_kind { GS_EVIDENCE_DATA = 0, GS_EVIDENCE_LOG = 1 };

/*
 * 1 when an archived file's extension (from its last '.', e.g. ".json";
 * "" or NULL-free names without one count as none) is one the archive
 * writes: ".json", ".log", ".txt", ".header" or none; 0 for any other (an
 * ".html", ".svg", ".xhtml"... a browser may render and run).
 */
int gs_evidence_ext_allowed(const char *file);

/* Lowercase hex of n bytes into out (2n + 1 bytes, NUL-terminated). */
void gs_evidence_hex_encode(const unsigned char *bytes, size_t n, char *out);

/* 1 if s is exactly 64 lowercase hex digits. */
int gs_evidence_sha256_hex_valid(const char *s);

/* SHA-256 of a buffer, as lowercase hex. */
void gs_evidence_sha256_buffer(const void *data, size_t n, char hex[GS_SHA256_HEX_SIZE]);

/*
 * SHA-256 of a file's bytes, as lowercase hex; *size_out (may be NULL)
 * receives the byte count. 0 on success, -1 with errno set on failure.
 */
int gs_evidence_sha256_file(const char *path, char hex[GS_SHA256_HEX_SIZE],
		   uint64_t *size_out);

/*
 * A new archive for site_dir (which should exist; evidence/ is created on
 * the first add). Reads an existing evidence/manifest.json for merging; if
 * that fails err says why (when not NULL) and the archive is still
 * returned, in an error state: it refuses every add and write, each
 * failing with that same message (a caller may so find a damaged archive
 * at once, or at its first use). Returns NULL only when site_dir is NULL
 * or empty (err: "cannot open the evidence archive"). Free with
 * gs_evidence_archive_free.
 *
 * Every fallible gs_evidence_archive_* below takes a gs_error *err (error.h), which
 * it fills on failure only.
 */
gs_archive *gs_evidence_archive(const char *site_dir, gs_error *err);

/*
 * From now on, new files and the manifest are not made visible by
 * gs_evidence_archive_add / gs_evidence_archive_write_manifest but staged into tx (see
 * outfile.h) and made visible by gs_outfile_tx_commit, together with the files
 * of the sheet that cites them. An archive whose transaction is not
 * committed must be freed, not used further. NULL: back to writing at once.
 */
void gs_evidence_archive_set_tx(gs_archive *a, gs_outtx *tx);

/*
 * The site that the archive's site will replace (a stage, see outfile.h):
 * a file it already holds with the same bytes is hard-linked into the new
 * tree instead of copied, so archived evidence keeps its inode and mtime
 * from build to build; so is its manifest when the bytes are the same.
 * Its manifest is not merged: the new site holds what this build cites.
 * NULL: none.
 */
void gs_evidence_archive_set_previous(gs_archive *a, const char *prev_site);

/*
 * Archive src_path (GS_EVIDENCE_DATA). original_name (NULL: the base name
 * of src_path) is recorded in "names"; citing_sheet (NULL: none)
 * is recorded in "cited_by": a path relative to SITE, or a path that starts
 * with site_dir + "/" (that prefix is removed); a leading "./" is dropped.
 * On success out_rel (may be NULL) receives "evidence/<file>", the link to
 * use from a page at the site root, and 0 is returned. On failure -1 is
 * returned and err says why; nothing half-written remains.
 */
int gs_evidence_archive_add(gs_archive *a, const char *src_path,
		   const char *original_name, const char *citing_sheet,
		   char out_rel[GS_EVIDENCE_REL_SIZE], gs_error *err);

/*
 * gs_evidence_archive_add of bytes held already: len bytes, whose SHA-256 the caller
 * computed from them as lowercase hex (sha256_hex, checked for its form
 * only), named original_name (required: the name in the workload). The
 * archive stores these bytes, never a file's, so that what is archived is
 * what was parsed; the checks, the first name kept, the link from the
 * replaced site and the transaction are gs_evidence_archive_add's.
 */
int gs_evidence_archive_add_bytes(gs_archive *a, const void *bytes, size_t len,
			 const char *sha256_hex, const char *original_name,
			 const char *citing_sheet, char out_rel[GS_EVIDENCE_REL_SIZE], gs_error *err);

/* gs_evidence_archive_add_bytes of an engine's log (GS_EVIDENCE_LOG: ".log" or ".txt"). */
int gs_evidence_archive_add_log_bytes(gs_archive *a, const void *bytes, size_t len,
			     const char *sha256_hex, const char *original_name,
			     const char *citing_sheet, char out_rel[GS_EVIDENCE_REL_SIZE],
			     gs_error *err);

/*
 * gs_evidence_archive_add of bytes not read again: size bytes of that SHA-256
 * (what an earlier build read and recorded, site_keys.c), named
 * original_name, taken unread from the replaced site's archive (its file
 * is named by the hash; `gpusheet verify` checks its bytes), or known to
 * this archive already. 0 (out_rel as gs_evidence_archive_add's), 1 when neither
 * holds it (the caller reads the file: gs_evidence_archive_add), -1 on error (err
 * is filled only when the archive is damaged or evidence/ cannot be made).
 */
int gs_evidence_archive_add_known(gs_archive *a, const char *sha256_hex, uint64_t size,
			 const char *original_name, const char *citing_sheet,
			 char out_rel[GS_EVIDENCE_REL_SIZE], gs_error *err);

/*
 * The link gs_evidence_archive_add would give now to bytes of that SHA-256 named
 * original_name ("evidence/<file>": the hash's first name when it is
 * known, else by its kind), without adding anything:
 * for a key computed before the bytes are at hand (site.c).
 */
void gs_evidence_archive_name(gs_archive *a, const char *sha256_hex, const char *original_name,
		     char out_rel[GS_EVIDENCE_REL_SIZE]);
/* The same for an engine's log (gs_evidence_archive_add_log_bytes). */
void gs_evidence_archive_name_log(gs_archive *a, const char *sha256_hex, const char *original_name,
			 char out_rel[GS_EVIDENCE_REL_SIZE]);

/*
 * Write SITE/evidence/manifest.json (merged: see above). Does nothing and
 * succeeds when the archive is empty and SITE/evidence/ does not exist,
 * unless gs_evidence_archive_always_manifest was called (a site, whose every page
 * links to the manifest: an empty one is written).
 * 0 on success, -1 on failure (err says why).
 */
int gs_evidence_archive_write_manifest(gs_archive *a, gs_error *err);
void gs_evidence_archive_always_manifest(gs_archive *a);

/* Entries known (from the old manifest and this session). */
size_t gs_evidence_archive_count(const gs_archive *a);

/* Files copied into evidence/ by this archive object (0 on a rebuild). */
size_t gs_evidence_archive_added(const gs_archive *a);

/*
 * For worker processes (workers.h) that archive into the same site: the
 * entries of a worker's archive as manifest text (caller frees), and their
 * merge into the parent's archive (names and citations added). The import
 * returns 0; 1 when a hash is known under another file name (two workers
 * named the same bytes differently: a one-process build would have kept the
 * first name); -1 on text that is not a manifest. err says why (both).
 */
char *gs_evidence_archive_export(gs_archive *a, size_t *len);
int gs_evidence_archive_import(gs_archive *a, const char *text, size_t len, gs_error *err);
/* The same, for a manifest read from elsewhere (a shard's, merge.h): name
 * says where in the messages. */
int gs_evidence_archive_import_from(gs_archive *a, const char *text, size_t len, const char *name, gs_error *err);

void gs_evidence_archive_free(gs_archive *a);

#endif
