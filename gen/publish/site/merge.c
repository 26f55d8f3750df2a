/* merge: a site built from its shards (merge.h). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>
#include <nettle/sha2.h>

#include "infile.h"
#include "merge.h"
#include "outfile.h"
#include "shard.h"
#include "site.h"
#include "site_keys.h"
#include "util.h"

/* What an existing, non-empty OUT must hold to be replaced: a site of ours. */
static const char *const S_site_marks[] = { "index.html", "sheets", NULL };

/* dir/name as a hard link to src, else (another file system) a copy; 0, or -1 with errno. */
static int S_link_or_copy(const char *src, const char *dir, const char *name)
{
	char *dst = gs_xasprintf("%s/%s", dir, name);
	size_t n;
	char *bytes;
	int rc = link(src, dst);

	if (rc != 0 && errno != EEXIST && errno != ENOENT) {
		bytes = gs_outfile_read(src, &n);
		rc = bytes ? gs_outfile_write_atomic(dir, name, bytes, n, NULL) : -1;
		if (rc && bytes)
			errno = EIO;
		free(bytes);
	}
	free(dst);
	return rc;
}

static const char *S_or_none(const char *s)
{
	return s ? s : "none";
}

/* A workload id and the index of the shard folder that holds it (S_check). */
typedef struct {
	const char *id;
	size_t shard;
} S_idat;

/* By id, then by the shard's index written in decimal (bytes: "10" before "2"). */
static int S_by_id_shard(const void *a, const void *b)
{
	const S_idat *x = a, *y = b;
	char dx[32], dy[32];
	int c = strcmp(x->id, y->id);

	if (c)
		return c;
	snprintf(dx, sizeof(dx), "%zu", x->shard);
	snprintf(dy, sizeof(dy), "%zu", y->shard);
	return strcmp(dx, dy);
}

/*
 * Every shard read, and checked against the others and this run: 0, or -1
 * with err naming the shard folder. *byk_out (the caller frees it, also on
 * failure): byk[k - 1], the index in shards of shard k, N of them (sized
 * by the first shard's N, not by the largest N allowed).
 */
static int S_check(const char *const *shards, size_t nshards, gs_shard *sh, size_t **byk_out,
		   const gs_publish_env *env, const char *catalog_key, gs_error *err)
{
	char site_key[GS_SHA256_HEX_SIZE], hex[GS_SHA256_HEX_SIZE];
	const char *lang = gs_tr_lang_id(env->t->lang);
	S_idat *all = NULL;
	size_t i, k, nall = 0;
	struct sha256_ctx h;
	uint8_t dig[SHA256_DIGEST_SIZE];
	unsigned n;
	size_t *byk = NULL;
	int rc = -1;

	for (i = 0; i < nshards; i++) {
		if (gs_shard_read(shards[i], &sh[i], err)) {
			gs_error_prefix(err, "%s: ", shards[i]);
			return -1;
		}
		if (i == 0) {
			/* (every shard's K is at most its N, and every N is the first's) */
			byk = *byk_out = gs_xmalloc((sh[0].n + 1) * sizeof(*byk));
			for (k = 0; k < sh[0].n; k++)
				byk[k] = (size_t)-1;
		}
		if (sh[i].n != sh[0].n) {
			gs_error_set(err, "%s: shard %u/%u, but %s is shard %u/%u: shards of "
				 "different N", shards[i], sh[i].k, sh[i].n, shards[0], sh[0].k, sh[0].n);
			return -1;
		}
		if (sh[i].workloads != sh[0].workloads ||
		    strcmp(sh[i].workloads_sha256, sh[0].workloads_sha256) != 0) {
			gs_error_set(err, "%s: a shard of another list of workloads (%zu, ids' "
				 "SHA-256 %.12s...) than %s (%zu, %.12s...)", shards[i], sh[i].workloads,
				 sh[i].workloads_sha256, shards[0], sh[0].workloads, sh[0].workloads_sha256);
			return -1;
		}
		if (strcmp(sh[i].inputs_sha256, sh[0].inputs_sha256) != 0) {
			gs_error_set(err, "%s: a shard of other inputs than %s: the same workload "
				 "ids, but a workload or a file it cites has other bytes "
				 "($.inputs_sha256; built from another checkout?)", shards[i], shards[0]);
			return -1;
		}
		if (byk[sh[i].k - 1] != (size_t)-1) {
			gs_error_set(err, "%s: shard %u/%u given twice (%s is that shard too)",
				 shards[i], sh[i].k, sh[i].n, shards[byk[sh[i].k - 1]]);
			return -1;
		}
		byk[sh[i].k - 1] = i;
	}
	n = sh[0].n;
	for (k = 0; k < n; k++)
		if (byk[k] == (size_t)-1) {
			gs_error_set(err, "shard %zu/%u is missing (%zu shard folder%s given, "
				 "the first %s)", k + 1, n, nshards, nshards == 1 ? "" : "s", shards[0]);
			return -1;
		}
	/* a workload id in two shards; then the ids are the list they were split from */
	for (i = 0; i < nshards; i++)
		nall += sh[i].ids.n;
	all = gs_xcalloc(nall + 1, sizeof(*all));
	for (i = 0, nall = 0; i < nshards; i++)
		for (k = 0; k < sh[i].ids.n; k++) {
			all[nall].id = sh[i].ids.v[k];
			all[nall++].shard = i;
		}
	qsort(all, nall, sizeof(*all), S_by_id_shard);
	for (k = 1; k < nall; k++)
		if (strcmp(all[k - 1].id, all[k].id) == 0) {
			gs_error_set(err, "%s: the workload id \"%s\" is also in %s",
				 shards[all[k].shard], all[k].id, shards[all[k - 1].shard]);
			goto out;
		}
	/* (hashed as they come, never joined into one text) */
	sha256_init(&h);
	for (k = 0; k < n; k++)
		for (i = 0; i < sh[byk[k]].ids.n; i++) {
			sha256_update(&h, strlen(sh[byk[k]].ids.v[i]), (const uint8_t *)sh[byk[k]].ids.v[i]);
			sha256_update(&h, 1, (const uint8_t *)"\n");
		}
	sha256_digest(&h, SHA256_DIGEST_SIZE, dig);
	gs_evidence_hex_encode(dig, SHA256_DIGEST_SIZE, hex);
	if (strcmp(hex, sh[0].workloads_sha256) != 0) {
		gs_error_set(err, "%s: the ids of the %u shards are not the list of workloads "
			 "they say they were split from ($.workloads_sha256)", shards[0], n);
		goto out;
	}
	/* this run's options, catalogs, generator, templates and labels */
	gs_site_keys_of(env, catalog_key, site_key);
	for (i = 0; i < nshards; i++) {
		const gs_shard *s = &sh[i];
		const char *what = NULL, *theirs = NULL, *ours = NULL;

		if (strcmp(s->lang, lang) != 0)
			what = "--lang", theirs = s->lang, ours = lang;
		else if ((s->date == NULL) != (env->date == NULL) ||
			 (s->date && strcmp(s->date, env->date) != 0))
			what = "--date", theirs = S_or_none(s->date), ours = S_or_none(env->date);
		else if (s->png != (env->png != 0))
			what = "--png", theirs = s->png ? "yes" : "no", ours = env->png ? "yes" : "no";
		else if (s->md != (env->md != 0))
			what = "--md", theirs = s->md ? "yes" : "no", ours = env->md ? "yes" : "no";
		else if (s->accept_synthetic != (env->accept_synthetic != 0))
			what = "--accept-synthetic", theirs = s->accept_synthetic ? "yes" : "no",
			ours = env->accept_synthetic ? "yes" : "no";
		else if (strcmp(s->catalog_sha256, catalog_key) != 0)
			what = "catalogs than this merge's --catalog files (the SHA-256 of their "
			       "bytes differs)";
		else if (strcmp(s->generator, "gpusheet " GS_VERSION) != 0)
			what = "generator", theirs = s->generator, ours = "gpusheet " GS_VERSION;
		else if (strcmp(s->site_key, site_key) != 0)
			what = "templates or labels than this merge's (the site key differs)";
		if (what && strcmp(s->site_key, site_key) != 0 &&
		    gs_site_keys_format(shards[i], err) != 0) {
			/* (the keys format is in the site key: say which, not "templates") */
			gs_error_prefix(err, "%s: %s: ", shards[i], GS_SITE_KEYS_FILE);
			goto out;
		}
		if (what && theirs) {
			gs_error_set(err, "%s: shard %u/%u was built with another %s: %s, this "
				 "merge: %s", shards[i], s->k, s->n, what, theirs, ours);
			goto out;
		} else if (what) {
			gs_error_set(err, "%s: shard %u/%u was built with other %s", shards[i],
				 s->k, s->n, what);
			goto out;
		}
	}
	rc = 0;
out:
	free(all);
	return rc;
}

/*
 * The evidence of shard dir: its files linked into out's evidence/, its
 * manifest merged into a. 0, or -1 with err.
 */
static int S_evidence(gs_archive *a, const char *dir, const char *out, gs_error *err)
{
	char *path = gs_xasprintf("%s/%s/%s", dir, GS_EVIDENCE_DIR, GS_EVIDENCE_MANIFEST);
	char *src_dir = gs_xasprintf("%s/%s", dir, GS_EVIDENCE_DIR);
	char *dst_dir = gs_xasprintf("%s/%s", out, GS_EVIDENCE_DIR);
	size_t n;
	gs_error why = GS_ERROR_INIT;
	char *text = gs_infile_read_nofollow(path, GS_FILE_MAX_BYTES, &n, &why);
	json_t *root = NULL, *v;
	const char *hash;
	struct stat st;
	int rc = -1, irc;

	if (!text) {
		if (lstat(src_dir, &st) != 0 && errno == ENOENT)
			rc = 0; /* no evidence in this shard */
		else
			gs_error_set(err, "%s: %s/%s: %s", dir, GS_EVIDENCE_DIR,
				 GS_EVIDENCE_MANIFEST, gs_error_message(&why));
		gs_error_release(&why);
		goto out;
	}
	irc = gs_evidence_archive_import_from(a, text, n, path, err);
	if (irc) {
		if (irc > 0)
			gs_error_set(err, "%s: an earlier shard archived the same bytes under the "
				     "other name, which a one-machine build would link from this "
				     "shard's sheets too: give the cited files the same extension",
				     gs_error_message(err));
		goto out;
	}
	if (gs_outfile_mkdirs(dst_dir)) {
		gs_error_set(err, "cannot create %s: %s", dst_dir, strerror(errno));
		goto out;
	}
	root = json_loadb(text, n, 0, NULL);
	json_object_foreach(json_object_get(root, "entries"), hash, v) {
		const char *file = json_string_value(json_object_get(v, "file"));
		char *src = gs_xasprintf("%s/%s", src_dir, file);
		int lrc = S_link_or_copy(src, dst_dir, file);
		free(src);
		if (lrc && errno != EEXIST) {
			gs_error_set(err, "%s: %s/%s: cannot link or copy: %s", dir,
				 GS_EVIDENCE_DIR, file, strerror(errno));
			goto out;
		}
	}
	rc = 0;
out:
	json_decref(root);
	free(text);
	free(path);
	free(src_dir);
	free(dst_dir);
	return rc;
}

/* The site from the checked shards into dir (a fresh stage). */
static int S_build_into(const char *const *shards, const gs_shard *sh, const size_t *byk,
			const gs_publish_env *env, const char *dir, gs_error *err)
{
	size_t i, k, m;
	char *sheets = gs_xasprintf("%s/sheets", dir);
	gs_archive *archive = NULL;
	gs_site_results *rs = NULL;
	int rc = -1;

	if (gs_outfile_mkdirs(sheets)) {
		gs_error_set(err, "cannot create %s: %s", sheets, strerror(errno));
		goto out;
	}
	archive = gs_site_archive(dir, err);
	if (!archive)
		goto out;
	/* the results (site_results.h), appended in K order: item i is workload i's */
	rs = gs_site_results_new(dir, env->cat, GS_SITE_PAGE_ROWS, err);
	if (!rs)
		goto out;
	/* in K order, which is the site's order (shard.h) */
	for (k = 0; k < sh[0].n; k++) {
		const char *d = shards[byk[k]];
		const gs_shard *s = &sh[byk[k]];

		if (gs_site_keys_read(d, env->cat, s->ids.v, s->ids.n, rs, err)) {
			gs_error_prefix(err, "%s: ", d);
			goto out;
		}
		/* its sheets' files, read back a page of results at a time */
		for (i = s->from; i < s->from + s->ids.n; i++) {
			const gs_publish_result *r;
			if ((i - s->from) % GS_SITE_PAGE_ROWS == 0) {
				size_t to = i + GS_SITE_PAGE_ROWS;
				if (to > s->from + s->ids.n)
					to = s->from + s->ids.n;
				if (gs_site_results_load(rs, i, to, 0, err))
					goto out;
			}
			r = gs_site_results_get(rs, i);
			for (m = 0; m < r->files.n; m++) {
				char *src = gs_xasprintf("%s/sheets/%s", d, r->files.v[m]);
				int lrc = S_link_or_copy(src, sheets, r->files.v[m]);
				free(src);
				if (lrc) {
					gs_error_set(err, "%s: sheets/%s: cannot link or copy: %s", d,
						 r->files.v[m], strerror(errno));
					goto out;
				}
			}
		}
		if (S_evidence(archive, d, dir, err))
			goto out;
	}
	if (gs_evidence_archive_write_manifest(archive, err))
		goto out;
	if (gs_site_results_count(rs) != sh[0].workloads)
		GS_BUG("%zu workloads but %zu results", sh[0].workloads, gs_site_results_count(rs));
	if (gs_site_pages(env, rs, dir, err))
		goto out;
	rc = 0;
out:
	free(sheets);
	gs_site_results_free(rs);
	if (archive)
		gs_evidence_archive_free(archive);
	return rc;
}

int gs_merge_build(const char *out, const char *const *shards, size_t nshards,
		   const gs_publish_env *env, const char *catalog_key, gs_error *err)
{
	gs_shard *sh = gs_xcalloc(nshards + 1, sizeof(*sh));
	size_t *byk = NULL, i;
	gs_stage *st = NULL;
	int rc = -1;

	if (!nshards) {
		gs_error_set(err, "no shard folder given");
		goto out;
	}
	if (S_check(shards, nshards, sh, &byk, env, catalog_key, err))
		goto out;
	st = gs_outfile_stage_begin(out, S_site_marks, err);
	if (!st)
		goto out;
	if (S_build_into(shards, sh, byk, env, gs_outfile_stage_dir(st), err) == 0)
		rc = gs_outfile_stage_commit(st, err);
out:
	if (st)
		gs_outfile_stage_free(st);
	for (i = 0; i < nshards; i++)
		gs_shard_release(&sh[i]);
	free(sh);
	free(byk);
	return rc;
}
