/* site: the render pass: sheets rendered in one process or in workers (site_one.c: each result). */
#define _DEFAULT_SOURCE
#include "site_ctx.h"

#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "evidence.h"
#include "sheet.h"
#include "site_results.h"
#include "util.h"
#include "workers.h"

/* Renders workloads [from, to), each finished (gs_site_one_finish); 0, or -1 with err naming the workload. */
static int S_render_range(gs_site_ctx *c, size_t from, size_t to, size_t *done)
{
	size_t i;

	for (i = from; i < to; i++) {
		gs_job job;
		gs_diag d = GS_DIAG_INIT;
		int jrc, keyed = 0;

		/* What the validation learnt of it: enough to reuse its sheet
		 * unread, and what its reading now must find again. */
		gs_site_learnt_item item, *in = NULL;
		char (*rels)[GS_EVIDENCE_REL_SIZE] = NULL;
		char wsha[GS_SHA256_HEX_SIZE];

		if (c->inputs) {
			if (gs_site_learnt_get(c->inputs, c->inputs_from + i, &item, c->err))
				return -1;
			in = &item;
		}
		if (in && c->site_key && c->old.f) {
			rels = gs_xcalloc(in->nev + 1, sizeof(*rels));
			gs_site_keys_input_key(c, in, rels, c->key);
			keyed = 1;
			if (gs_site_keys_reuse(c, i, in->id, in->title, c->key)) {
				jrc = gs_site_keys_input_archive(c, i, in, rels);
				free(rels);
				(*done)++;
				if (jrc || gs_site_one_finish(c, i))
					return -1;
				continue;
			}
			free(rels);
		}
		/* Validated already; a file that changed since is an error. */
		if (gs_publish_load_sha(c->paths[i], c->env->cat, &job, &d, wsha) ||
		    (in && !gs_site_keys_same_input(&job, wsha, in))) {
			gs_error_set(c->err, "%s changed while the site was built", c->paths[i]);
			gs_diag_release(&d);
			gs_publish_release(&job);
			return -1;
		}
		if (c->site_key && !keyed) {
			if (gs_site_keys_job_key(c, i, &job, wsha, c->key)) {
				gs_publish_release(&job);
				return -1;
			}
			if (gs_site_keys_reuse(c, i, job.w.id, job.w.title, c->key)) {
				gs_publish_release(&job);
				(*done)++;
				if (gs_site_one_finish(c, i))
					return -1;
				continue;
			}
		}
		jrc = gs_site_one_publish(c, i, &job, done);
		gs_publish_release(&job);
		if (jrc)
			return -1;
	}
	return 0;
}

/* In a worker: render [from, to), writing the report as it goes (or the error alone) to out. */
static int S_worker(size_t from, size_t to, void *ctx, FILE *out)
{
	gs_site_ctx *c = ctx;
	size_t done = 0, n;
	json_t *root;
	char *man;

	c->report = out;
	if (S_render_range(c, from, to, &done)) {
		/* the report of a failure is its message alone */
		if (fflush(out) != 0 || ftruncate(fileno(out), 0) != 0 || fseek(out, 0, SEEK_SET) != 0)
			return -1;
		fputs(gs_error_message(c->err), out);
		return -1;
	}
	man = gs_evidence_archive_export(c->archive, &n);
	root = json_object();
	json_object_set_new(root, "rendered", json_integer((json_int_t)c->rendered));
	json_object_set_new(root, "manifest", json_stringn(man, n));
	free(man);
	if (json_dumpf(root, out, JSON_COMPACT) != 0 || fputc('\n', out) == EOF)
		GS_BUG("cannot write a worker's report");
	json_decref(root);
	return 0;
}

/*
 * Renders every workload in jobs worker processes (workers.h), then merges
 * their results and evidence entries in worker order, which is workload
 * order: the same bytes as one process. A report is read a line (a result)
 * at a time, each result spooled as in one process. 1: two workers named
 * the same evidence bytes differently (the caller builds again in one
 * process).
 */
int gs_site_render_parallel(gs_site_ctx *c, size_t npaths, unsigned jobs, size_t *done)
{
	gs_worker_reports rep;
	size_t k, i, cap = 0;
	char *line = NULL;
	int rc = 0;

	if (gs_workers_run(npaths, jobs, S_worker, c, c->dir, &rep, c->err))
		return -1;
	for (k = 0; k < rep.n && rc == 0; k++) {
		FILE *f = rep.report[k];
		json_t *root;
		const char *man;
		ssize_t len;

		for (i = rep.from[k]; rc == 0 && i < rep.to[k]; i++) {
			json_t *o;

			len = getline(&line, &cap, f);
			o = len > 0 ? json_loadb(line, (size_t)len, 0, NULL) : NULL;
			if (!o) {
				gs_error_set(c->err, "the report of a worker cannot be read");
				rc = -1;
			} else if (gs_site_one_take_result(c, i, o, f, done)) {
				rc = -1;
			}
			json_decref(o);
		}
		if (rc)
			break;
		len = getline(&line, &cap, f);
		root = len > 0 ? json_loadb(line, (size_t)len, 0, NULL) : NULL;
		man = json_string_value(json_object_get(root, "manifest"));
		if (!man) {
			gs_error_set(c->err, "the report of a worker cannot be read");
			rc = -1;
		} else {
			c->rendered += (size_t)json_integer_value(json_object_get(root, "rendered"));
			gs_error ie = GS_ERROR_INIT;
			/* (1, two names for the same bytes: built again, no message) */
			rc = gs_evidence_archive_import(c->archive, man, strlen(man), &ie);
			if (rc < 0)
				gs_error_set(c->err, "%s", gs_error_message(&ie));
			gs_error_release(&ie);
		}
		json_decref(root);
	}
	free(line);
	gs_workers_reports_release(&rep);
	return rc;
}

/*** the pass that reads every workload as it renders it ***/

/*
 * Phase 1: renders workloads c->paths[0, n) into dir: their sheets in
 * sheets/, their evidence in evidence/ with its manifest, res[] and keys[]
 * filled. 0, -1 with err, or 1 (see gs_site_render_parallel).
 */
int gs_site_render_sheets(gs_site_ctx *c, size_t n, unsigned jobs, size_t *done,
			  const gs_site_opts *opts)
{
	int rc;

	if (c->learn) {
		rc = gs_site_learn_pass(c, jobs, done, opts->validated, opts->validated_arg);
		if (rc)
			return rc;
	} else if (jobs > 1 && n > 1) {
		rc = gs_site_render_parallel(c, n, jobs, done);
		if (rc)
			return rc;
	} else if (S_render_range(c, 0, n, done)) {
		return -1;
	}
	if (gs_evidence_archive_write_manifest(c->archive, c->err))
		return -1;
	return 0;
}
