/*
 * shard: the identity of one shard of a site (`gpusheet site --shard K/N`),
 * written into the shard's folder as SHARD/.gpusheet-shard.json and read
 * back by `gpusheet merge`, which refuses shards that do not belong
 * together.
 *
 * The partition: the workloads, in the site's order (their paths sorted by
 * bytes, site.h), are cut into N contiguous ranges; shard K (1 <= K <= N)
 * gets [(K-1)*W/N, K*W/N) of the W workloads (gs_shard_range). The cut
 * depends only on W, K and N, never on the machine. Contiguous ranges and
 * not "workload i to shard i mod N" because merging them in K order is then
 * the site's order, for the results as for the evidence archive, whose
 * first name given to some bytes wins (evidence.h): shard 1's names come
 * first, as in a one-machine build. A shard may be empty (N > W).
 *
 * Format (JSON_SORT_KEYS | JSON_INDENT(1), no newline at end):
 *   {"catalog_sha256": "<hex>",      gs_cmd_common_catalog_key of the --catalog files
 *    "format": "gpusheet-shard/1",
 *    "from": 0,                      index of the shard's first workload
 *    "generator": "gpusheet X.Y.Z",
 *    "ids": ["a", ...],              the shard's workload ids, in order
 *    "inputs_sha256": "<hex>",       SHA-256 of, per workload in order: its id,
 *                                    the hex SHA-256 of its workload.json, and
 *                                    per cited file its name in the workload and
 *                                    the hex SHA-256 of its bytes, each followed
 *                                    by a newline: shards built from other
 *                                    checkouts of the inputs differ here
 *    "options": {"accept_synthetic": false, "date": "YYYY-MM-DD" or null,
 *                "lang": "en", "md": false, "png": false},
 *    "shard": K, "shards": N,
 *    "site_key": "<hex>",            everything every sheet depends on (site.h)
 *    "workloads": W,
 *    "workloads_sha256": "<hex>"}    SHA-256 of every workload's id in order,
 *                                    each followed by a newline
 */
#ifndef GS_SHARD_H
#define GS_SHARD_H

#include "error.h"

#include <stddef.h>
#include <nettle/sha2.h>
#include "util.h"

#define GS_SHARD_FILE ".gpusheet-shard.json"
#define GS_SHARD_FORMAT "gpusheet-shard/1"
#define GS_SHARD_MAX 100000      /* the largest N */

typedef struct {
	unsigned k, n;               /* shard k of n */
	size_t workloads;            /* W: workloads of the whole site */
	size_t from;                 /* first workload of the shard */
	gs_strvec ids;               /* the shard's ids, in order (to = from + ids.n) */
	char workloads_sha256[65];
	char inputs_sha256[65];
	char catalog_sha256[65];
	char site_key[65];
	char *generator;
	char *lang;
	char *date;                  /* or NULL */
	int png, md, accept_synthetic;
} gs_shard;

/* [*from, *to): the workloads of shard k of n among w (see above). */
void gs_shard_range(size_t w, unsigned k, unsigned n, size_t *from, size_t *to);
/* Parses "K/N" (1 <= K <= N <= GS_SHARD_MAX, decimal, no sign); 0 or -1. */
int gs_shard_parse(const char *spec, unsigned *k, unsigned *n);
/* Writes dir/GS_SHARD_FILE; 0, or -1 with a message in err. */
int gs_shard_write(const gs_shard *s, const char *dir, gs_error *err);
/*
 * Reads dir/GS_SHARD_FILE and checks it: its format, K and N, the range
 * (from and the number of ids are the partition's), hex keys. 0, or -1
 * with a message in err (without dir: the caller names it). s is released
 * on failure.
 */
int gs_shard_read(const char *dir, gs_shard *s, gs_error *err);
void gs_shard_release(gs_shard *s);

/*
 * The shards' keys, workloads_sha256 and inputs_sha256 above, hashed as
 * the workloads come, in the site's order (never built as one text): per
 * workload gs_shard_keys_workload, then gs_shard_keys_file for each file it
 * cites; gs_shard_keys_end writes both as hex.
 */
typedef struct {
	struct sha256_ctx workloads, inputs;
} gs_shard_keys;

void gs_shard_keys_init(gs_shard_keys *k);
/* id, and the hex SHA-256 of its workload.json */
void gs_shard_keys_workload(gs_shard_keys *k, const char *id, const char *sha256);
/* a cited file: its name in the workload and the hex SHA-256 of its bytes */
void gs_shard_keys_file(gs_shard_keys *k, const char *name, const char *sha256);
void gs_shard_keys_end(gs_shard_keys *k, char workloads_hex[65],
		       char inputs_hex[65]);

#endif
