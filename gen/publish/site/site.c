/* site: the comparison site of many workloads against the catalog; here the build: gs_site_build, the stage it builds in, the pages of a site, a shard's folder. */
#define _DEFAULT_SOURCE
#include "site_ctx.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "evidence.h"
#include "outfile.h"
#include "render.h"
#include "shard.h"
#include "site_results.h"
#include "util.h"

gs_archive *gs_site_archive(const char *dir, gs_error *err)
{
	gs_error e = GS_ERROR_INIT;
	gs_archive *a = gs_evidence_archive(dir, &e);

	if (!a || gs_error_is_set(&e)) {
		/* a damaged archive is found before anything is written */
		gs_error_set(err, "%s", gs_error_message(&e));
		gs_error_release(&e);
		if (a)
			gs_evidence_archive_free(a);
		return NULL;
	}
	gs_evidence_archive_always_manifest(a);
	return a;
}

/* gs_site_pages, taking from the replaced site what pp allows (gs_site_pagekeys). */
static int S_site_pages(const gs_publish_env *env, const char *dir, gs_site_pagekeys *pp,
			gs_error *err)
{
	size_t n = gs_site_results_count(pp->rs);
	int demonstration = gs_site_results_demonstration(pp->rs);
	char *nav_root = gs_site_nav(env->t, "");
	int rc = -1;

	gs_site_pagekeys_setup(pp, env->cat);
	/* the style sheet every page of the site links (GS_SITE_CSS), once */
	if (gs_outfile_write_atomic(dir, GS_SITE_CSS, env->tp->css, strlen(env->tp->css), err))
		goto out;
	if (gs_site_index_pages(env, pp->rs, n, dir, nav_root, demonstration, pp, err) ||
	    gs_site_offers_pages(env, pp->rs, n, dir, nav_root, demonstration, err) ||
	    gs_site_offer_detail_pages(env, n, dir, demonstration, pp, err) ||
	    gs_site_gpus_pages(env, pp, n, dir, demonstration, err))
		goto out;
	if (pp->keyed && gs_site_keys_write(pp->rs, pp->old_fd, pp, dir, err))
		goto out;
	rc = 0;
out:
	free(nav_root);
	return rc;
}

int gs_site_pages(const gs_publish_env *env, gs_site_results *rs, const char *dir, gs_error *err)
{
	gs_site_pagekeys pp;
	int rc;

	memset(&pp, 0, sizeof(pp));
	pp.rs = rs;
	pp.keyed = 1;
	pp.old_fd = -1;
	rc = S_site_pages(env, dir, &pp, err);
	gs_site_pagekeys_release(&pp);
	return rc;
}

/* A shard's identity (shard.h) from what it rendered. */
static int S_write_shard(const gs_publish_env *env, const gs_site_opts *opts, size_t npaths,
			 size_t from, const gs_site_results *rs, const char *site_key,
			 const char *dir, gs_error *err)
{
	gs_shard s;
	size_t i;
	int rc;

	memset(&s, 0, sizeof(s));
	s.k = opts->shard_k;
	s.n = opts->shard_n;
	s.workloads = npaths;
	s.from = from;
	for (i = 0; i < gs_site_results_count(rs); i++)
		gs_util_strvec_push_dup(&s.ids, gs_site_results_id(rs, i));
	snprintf(s.workloads_sha256, sizeof(s.workloads_sha256), "%s", opts->workloads_key);
	snprintf(s.inputs_sha256, sizeof(s.inputs_sha256), "%s", opts->inputs_key);
	snprintf(s.catalog_sha256, sizeof(s.catalog_sha256), "%s", opts->catalog_key);
	snprintf(s.site_key, sizeof(s.site_key), "%s", site_key);
	s.generator = gs_xstrdup("gpusheet " GS_VERSION);
	s.lang = gs_xstrdup(gs_tr_lang_id(env->t->lang));
	s.date = gs_xstrdup_or_null(env->date);
	s.png = env->png;
	s.md = env->md;
	s.accept_synthetic = env->accept_synthetic;
	rc = gs_shard_write(&s, dir, err);
	gs_shard_release(&s);
	return rc;
}

/*
 * Builds the whole site, or one shard of it (opts->shard_n), into dir (a
 * fresh stage): phase 1 renders the sheets (gs_site_render_sheets), phase 2 builds
 * the pages from their results (gs_site_pages), or for a shard writes the
 * results and the shard's identity for `merge`. prev: the site or shard it
 * replaces, or NULL; site_key (gs_site_keys_of), or NULL without keys;
 * statcache: prev's stat cache, or NULL (the caller's). With opts->learn, what the pass learns is spooled in
 * dir, into *learnt (the caller frees it); else *learnt is what was
 * learnt before, or NULL. 0, -1 with err, or 1 (see gs_site_render_parallel).
 */
static int S_build_into(char *const *paths, size_t npaths, const gs_publish_env *env0,
			const gs_site_opts *opts, gs_site_learnt **learnt, unsigned jobs,
			const char *dir, const char *prev, const char *site_key,
			const gs_site_statcache *statcache, gs_error *err)
{
	gs_publish_env env = *env0;
	size_t from = 0, to = npaths, n;
	char *sheets = gs_xasprintf("%s/sheets", dir);
	char *nav_sheet = gs_site_nav(env.t, "../");
	gs_archive *archive = NULL;
	gs_site_ctx c;
	size_t done = 0;
	char **notes = NULL;
	int rc = -1;

	if (opts->shard_n)
		gs_shard_range(npaths, opts->shard_k, opts->shard_n, &from, &to);
	n = to - from;
	memset(&c, 0, sizeof(c));
	c.prev_sheets_fd = c.sheets_fd = -1;
	if (gs_outfile_mkdirs(sheets)) {
		gs_error_set(err, "cannot create %s", sheets);
		goto out;
	}
	{
		/* the start of this build, in the file system's clock: a file
		 * not older is never trusted unread (site_stat.c) */
		struct stat sb;
		if (stat(sheets, &sb) == 0) {
			c.since = sb.st_mtim;
			c.since_set = 1;
		}
	}
	archive = gs_site_archive(dir, err);
	if (!archive)
		goto out;
	c.out = gs_site_results_new(dir, env.cat, GS_SITE_PAGE_ROWS, err);
	if (!c.out)
		goto out;
	gs_evidence_archive_set_previous(archive, prev);
	env.nav_html = nav_sheet;
	env.link_prefix = "../";
	env.sheet_prefix = "sheets/";
	if (!env.notes_masked) {
		/* the catalog's notes masked once, before the workers fork, not
		 * for every offer of every sheet */
		notes = gs_sheet_sources_notes_masked(env.cat);
		env.notes_masked = (const char *const *)notes;
	}
	c.paths = paths + from;
	c.inputs = *learnt;
	c.inputs_from = from;
	c.env = &env;
	c.archive = archive;
	c.dir = dir;
	c.sheets = sheets;
	c.err = err;
	if (site_key) {
		c.site_key = site_key;
		if (prev)
			gs_site_keys_open(prev, &c.old, NULL); /* none usable: a full build */
		if (prev && c.old.f)
			c.statcache = statcache;
		c.prev_sheets = prev ? gs_xasprintf("%s/sheets", prev) : NULL;
		if (c.prev_sheets)
			c.prev_sheets_fd = open(c.prev_sheets, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	}
	c.sheets_fd = open(sheets, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (opts->learn) {
		*learnt = gs_site_learnt_new(dir, npaths, err);
		if (!*learnt)
			goto out;
		c.all = paths;
		c.nall = npaths;
		c.from = from;
		c.n = n;
		c.learn = *learnt;
		c.diag = opts->diag;
		c.inputs = NULL;
	} else if (c.inputs && jobs > 1 && gs_site_learnt_flush(c.inputs, err)) {
		goto out;   /* (the workers read it) */
	}
	rc = gs_site_render_sheets(&c, n, jobs, &done, opts);
	if (rc)
		goto out;
	rc = -1;
	if (gs_site_results_count(c.out) != n)
		GS_BUG("%zu workloads but %zu results", n, gs_site_results_count(c.out));
	if (opts->shard_n) {
		if (gs_site_keys_write(c.out, c.old.f ? fileno(c.old.f) : -1, NULL, dir, err) ||
		    S_write_shard(&env, opts, npaths, from, c.out, site_key, dir, err))
			goto out;
	} else {
		gs_site_pagekeys pp;
		memset(&pp, 0, sizeof(pp));
		pp.rs = c.out;
		pp.keyed = opts->catalog_key != NULL;
		pp.old_fd = c.old.f ? fileno(c.old.f) : -1;
		pp.prev = prev;
		pp.old = c.old.f ? &c.old : NULL;
		rc = S_site_pages(&env, dir, &pp, err);
		if (opts->pages_reused)
			*opts->pages_reused = pp.pages_reused;
		if (opts->pages_rendered)
			*opts->pages_rendered = pp.pages_rendered;
		gs_site_pagekeys_release(&pp);
		if (rc) {
			rc = -1;
			goto out;
		}
		rc = -1;
	}
	if (opts->rendered)
		*opts->rendered = c.rendered;
	if (opts->unread)
		*opts->unread = c.unread;
	rc = 0;
out:
	/* (a build that failed may have left one) */
	gs_publish_result_release(&c.cur);
	free(sheets);
	free(nav_sheet);
	free(c.prev_sheets);
	if (c.prev_sheets_fd >= 0)
		close(c.prev_sheets_fd);
	if (c.sheets_fd >= 0)
		close(c.sheets_fd);
	gs_site_keys_close(&c.old);
	gs_site_results_free(c.out);
	if (archive)
		gs_evidence_archive_free(archive);
	gs_sheet_sources_notes_masked_free(notes, env.cat->noffers);
	return rc;
}

/* What an existing, non-empty shard folder must hold to be replaced. */
/* What an existing, non-empty OUT must hold to be replaced: a site of ours. */
static const char *const S_site_marks[] = { "index.html", "sheets", NULL };
static const char *const S_shard_marks[] = { GS_SHARD_FILE, "sheets", NULL };

/*
 * opts->learn without a stage: every workload read and validated, nothing
 * rendered or written (what was learnt spooled into *learnt, an anonymous
 * file in the temporary folder; the caller frees it), then
 * opts->validated. 0, 2 (validated stopped the build) or -1 with err.
 */
static int S_learn_only(char *const *paths, size_t npaths, const gs_publish_env *env,
			const gs_site_opts *opts, gs_site_learnt **learnt, unsigned jobs, gs_error *err)
{
	const char *tmp = getenv("TMPDIR");
	gs_site_ctx c;
	size_t done = 0;

	/* what is learnt goes to the temporary folder: nothing visible is written */
	*learnt = gs_site_learnt_new(tmp && *tmp ? tmp : P_tmpdir, npaths, err);
	if (!*learnt)
		return -1;
	memset(&c, 0, sizeof(c));
	c.prev_sheets_fd = c.sheets_fd = -1;
	c.env = env;
	c.err = err;
	c.all = c.paths = paths;
	c.nall = npaths;
	c.learn = *learnt;
	c.diag = opts->diag;
	return gs_site_learn_pass(&c, jobs, &done, opts->validated, opts->validated_arg);
}

/* Whether out's parent folder exists (gs_outfile_stage_begin would create it). */
static int S_parent_exists(const char *out)
{
	char *p = gs_xstrdup(out), *slash;
	size_t n = strlen(p);
	struct stat sb;
	int rc = 1;

	while (n > 1 && p[n - 1] == '/')
		p[--n] = '\0';
	slash = strrchr(p, '/');
	if (slash && slash != p) {
		*slash = '\0';
		rc = stat(p, &sb) == 0;
	}
	free(p);
	return rc;
}

/*
 * Whether out is a whole site this build would write byte for byte (the
 * stat cache's unchanged site, site_stat.c): then nothing is read,
 * rendered or written, and opts's counts say so. 1 or 0.
 */
static int S_untouched(const gs_site_statcache *cache, char *const *paths, size_t npaths,
		       const gs_site_opts *opts, const char *out, const char *signature)
{
	size_t pages = 0;

	if (!gs_site_stat_unchanged(cache, out, paths, npaths, signature, &pages))
		return 0;
	if (opts->rendered)
		*opts->rendered = 0;
	if (opts->unread)
		*opts->unread = npaths;
	if (opts->pages_reused)
		*opts->pages_reused = pages;
	if (opts->pages_rendered)
		*opts->pages_rendered = 0;
	if (opts->untouched)
		*opts->untouched = 1;
	return 1;
}

int gs_site_build(char *const *paths, size_t npaths, const gs_publish_env *env,
		  const gs_site_opts *opts0, const char *out_dir, gs_error *err)
{
	unsigned jobs = opts0->jobs ? opts0->jobs : 1;
	gs_site_opts opts = *opts0;
	gs_site_learnt *learnt = NULL;   /* what the validation learnt, once it did */
	/* with keys: what every sheet depends on, what this build is asked,
	 * and the stat cache beside OUT (--rehash: none) */
	char site_key[GS_SHA256_HEX_SIZE], signature[GS_SHA256_HEX_SIZE] = "";
	gs_site_statcache *cache = NULL;
	size_t pages_reused = 0, pages_rendered = 0;
	int rc;

	if (opts.untouched)
		*opts.untouched = 0;
	if (opts.catalog_key) {
		gs_site_keys_of(env, opts.catalog_key, site_key);
		if (!opts.shard_n)
			gs_site_keys_signature(site_key, env->reference, paths, npaths, signature);
		if (out_dir && !opts.rehash)
			cache = gs_site_stat_open(out_dir);
	}
	/* a whole site with keys, every input as it was: left as it is */
	if (cache && !opts.shard_n && S_untouched(cache, paths, npaths, &opts, out_dir, signature)) {
		gs_site_stat_free(cache);
		return 0;
	}
	if (!opts.pages_reused)
		opts.pages_reused = &pages_reused;
	if (!opts.pages_rendered)
		opts.pages_rendered = &pages_rendered;

	if (opts.learn && (!out_dir || !S_parent_exists(out_dir))) {
		/* Nothing may be written before every workload is read: not even
		 * OUT's parent folder, which the stage would create. They are read
		 * first, then rendered from what was learnt. */
		rc = S_learn_only(paths, npaths, env, &opts, &learnt, jobs, err);
		if (rc || !out_dir)
			goto out;
		opts.learn = 0;
	}
	if (opts.shard_n && (!opts.catalog_key || !opts.workloads_key || !opts.inputs_key))
		GS_BUG("a shard needs the catalog's and the workloads' keys");
	for (;;) {
		gs_stage *st = gs_outfile_stage_begin_as(out_dir, opts.shard_n ? S_shard_marks : S_site_marks,
						    opts.shard_n ? "shard" : "site",
					      err);

		if (!st) {
			if (opts.learn) {
				/* the workloads' errors come first, as when nothing is staged */
				char *said = gs_xstrdup(gs_error_message(err));
				rc = S_learn_only(paths, npaths, env, &opts, &learnt, jobs, err);
				if (rc == 0)
					gs_error_set(err, "%s", said);
				free(said);
				rc = rc ? rc : -1;
				goto out;
			}
			rc = -1;
			goto out;
		}
		rc = S_build_into(paths, npaths, env, &opts, &learnt, jobs, gs_outfile_stage_dir(st),
				  gs_outfile_stage_previous(st), opts.catalog_key ? site_key : NULL,
				  cache, err);
		if (rc == 0)
			rc = gs_outfile_stage_commit(st, err);
		gs_outfile_stage_free(st);
		if (rc == 0 && opts.catalog_key) {
			size_t from = 0, to = npaths;
			if (opts.shard_n)
				gs_shard_range(npaths, opts.shard_k, opts.shard_n, &from, &to);
			gs_site_stat_write(out_dir, paths, from, to - from, learnt,
						opts.shard_n ? NULL : signature,
						*opts.pages_reused + *opts.pages_rendered);
		}
		if (rc != 1)
			goto out;
		jobs = 1; /* evidence named differently by two workers: once more, in one process */
		/* read already: rendered from what was learnt (its spool outlives the stage) */
		opts.learn = 0;
	}
out:
	gs_site_stat_free(cache);
	gs_site_learnt_free(learnt);
	return rc;
}
