/*
 * site_keys: incremental builds. OUT/.gpusheet-keys.json (GS_SITE_KEYS_FILE) holds, per
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
 * A JSON text a line (docs/formats.md 6): the format's line, a line per
 * page (sorted by name), a line per sheet (sorted by id), each sheet's
 * line starting with a fixed prefix, so that it is found by its prefix
 * without being parsed:
 *   {"format":"gpusheet-keys/4"}
 *   {"page":"index.html","key":"<sha256hex>"}
 *   ...
 *   {"sheet":"ID","files":["ID-budget.svg",...,"ID.html"],"key":"<sha256hex>","result":{...},"why":[...]}
 *   ...
 * An id needs no escape ([a-z0-9][a-z0-9._-]*). The file is read a line at
 * a time (site_keysfile.c), a sheet's line parsed by jansson only when
 * that sheet may be reused, and a reused sheet's line copied into the new
 * file as it is, byte for byte.
 */
#ifndef GS_SITE_KEYS_H
#define GS_SITE_KEYS_H

#include <stddef.h>
#include "evidence.h"
#include "publish.h"
#include "site_results.h"

#define GS_SITE_KEYS_FILE ".gpusheet-keys.json"
#define GS_SITE_KEYS_FORMAT "gpusheet-keys/4"
/*
 * The bound on a keys file, and on the stat cache beside OUT (site_stat.c):
 * 22 MB per 1,000 workloads, so about 45,000 workloads; a larger file
 * (a 2 GB sparse one planted there) is refused before a byte is read.
 */
#define GS_SITE_KEYS_MAX_BYTES ((size_t)1 << 30) /* 1 GiB */

/*
 * The key of what every sheet depends on besides its own files: the keys
 * format, the generator's version, lang, date, --png, --md, --accept-synthetic,
 * the catalogs' names and bytes (catalog_key), the templates and labels.
 */
void gs_site_keys_of(const gs_publish_env *env, const char *catalog_key,
		 char hex[GS_SHA256_HEX_SIZE]);

/*
 * What a whole build was asked, for the stat cache's unchanged site
 * (site_stat.c): the site key (gs_site_keys_of), the reference workload, the
 * paths in their order.
 */
void gs_site_keys_signature(const char *site_key, const char *reference, char *const *paths,
		       size_t npaths, char hex[GS_SHA256_HEX_SIZE]);

/*
 * Reads dir's keys file (a site's or a shard's): for each of the n ids,
 * in order, its result with its files, reasons and key appended to rs.
 * Only the lines of those ids are parsed (the file is read a line at a
 * time, never loaded whole). 0, or -1 with a message in err naming the
 * file and the line.
 */
int gs_site_keys_read(const char *dir, const gs_catalog *cat, char *const *ids, size_t n,
		      gs_site_results *rs, gs_error *err);

/*
 * 0 when dir's keys file is of GS_SITE_KEYS_FORMAT (its first line; a file
 * absent or unreadable is 0 too: the caller says what else it lacks), else
 * -1 with the reason in why ("is of format gpusheet-keys/3, written by an
 * earlier gpusheet ...").
 */
int gs_site_keys_format(const char *dir, gs_error *why);

/*
 * For `verify`: dir's keys file, when there is one (0 when there is none),
 * opened as a build opens it (a regular file of at most
 * GS_SITE_KEYS_MAX_BYTES, no link followed, no blocking open) and read as
 * a keys file of GS_SITE_KEYS_FORMAT, every line parsed, one at a time: 0,
 * or -1 with the reason in why, naming the line.
 */
int gs_site_keys_check(const char *dir, gs_error *why);

#endif
