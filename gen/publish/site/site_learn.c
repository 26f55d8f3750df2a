/* site: the pass that reads and validates every workload as it renders. */
#define _DEFAULT_SOURCE
#include "site_ctx.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "evidence.h"
#include "sheet.h"
#include "site_results.h"
#include "util.h"
#include "workers.h"

/*
 * Reads and validates the workload at path and hashes its bytes (as read
 * and parsed: the file is read once) and each file it cites: what a build
 * keeps of it (in: id and title once it is read, sha256 and the cited
 * files) and its errors (d, empty before). 0 when it is valid, with job
 * loaded; else -1. The caller releases job and in.
 */
static int S_learn_one(const char *path, const gs_catalog *cat, gs_job *job, gs_site_input *in,
		       gs_diag *d, const struct timespec *since)
{
	struct stat wst;
	int stat_ok;
	size_t k;

	memset(in, 0, sizeof(*in));
	/* the workload's stat fields before it is read (site_stat.c) */
	stat_ok = since && stat(path, &wst) == 0;
	if (gs_publish_load_sha(path, cat, job, d, in->sha256)) {
		in->sha256[0] = '\0';
		return -1;
	}
	in->id = gs_xstrdup(job->w.id);
	in->title = gs_xstrdup(job->w.title);
	for (k = 0; k < job->nev; k++) {
		gs_util_strvec_push_dup(&in->ev_path, job->ev[k].ref->path);
		gs_util_strvec_push_dup(&in->ev_file, job->ev[k].ref->file);
		/* hashed as they were read (gs_job_file), not read again */
		gs_util_strvec_push_dup(&in->ev_sha256, job->files[k].sha256);
	}
	/* then the model's files, by their archive names ("model:..."): read
	 * from the replaced site's archive when the sheet is reused unread */
	for (k = 0; k < job->nm; k++) {
		gs_util_strvec_push_dup(&in->ev_path, "");
		gs_util_strvec_push_dup(&in->ev_file, job->mnames.v[k]);
		gs_util_strvec_push_dup(&in->ev_sha256, job->mfiles[k].sha256);
	}
	/* (a model's files or an imported log: read every time) */
	for (k = 0; k < job->nev; k++)
		stat_ok = stat_ok && !job->files[k].log_bytes;
	if (stat_ok && job->nm == 0)
		in->stat = gs_site_stat_text(&wst, &in->ev_path, since, NULL, NULL);
	return 0;
}

/*
 * In a worker's report, what S_learn_one found (compact JSON): "d", its
 * errors in printed form ([file, line, column, path or null, message]),
 * and once it was read "id", "title", "sha" and "ev" ([name, SHA-256 or
 * "" when unreadable] per cited file). Not the cited files' paths, which
 * S_learn_unpack makes as the workload's reader does: a JSON string must
 * be UTF-8, a folder's name need not.
 */
static json_t *S_learn_pack(const gs_site_input *in, const gs_diag *d)
{
	json_t *o = json_object(), *items = json_array();
	size_t k;

	if (in->id) {
		json_t *ev = json_array();
		json_object_set_new(o, "id", json_string(in->id));
		json_object_set_new(o, "title", json_string(in->title));
		json_object_set_new(o, "sha", json_string(in->sha256));
		if (in->stat)
			json_object_set_new(o, "st", json_string(in->stat));
		for (k = 0; k < in->ev_path.n; k++)
			json_array_append_new(ev, json_pack("[ss]", in->ev_file.v[k],
							    in->ev_sha256.v[k]));
		json_object_set_new(o, "ev", ev);
	}
	for (k = 0; k < d->count; k++)
		json_array_append_new(items, json_pack("[siios]", d->items[k].file, d->items[k].line,
						       d->items[k].column,
						       d->items[k].path ? json_string(d->items[k].path)
								       : json_null(),
						       d->items[k].message));
	json_object_set_new(o, "d", items);
	return o;
}

/* S_learn_pack's object o of the workload at path into in and d; 0 or -1. */
static int S_learn_unpack(json_t *o, const char *path, gs_site_input *in, gs_diag *d)
{
	const char *slash = strrchr(path, '/');
	/* a cited file's path: the workload's folder (up to its last '/') and its name */
	int dl = slash ? (int)(slash - path) + 1 : 0;
	const char *id = json_string_value(json_object_get(o, "id"));
	json_t *e;
	size_t k;

	if (!json_is_array(json_object_get(o, "d")))
		return -1;
	json_array_foreach(json_object_get(o, "d"), k, e)
		gs_diag_add_shown(d, json_string_value(json_array_get(e, 0)),
				  (int)json_integer_value(json_array_get(e, 1)),
				  (int)json_integer_value(json_array_get(e, 2)),
				  json_string_value(json_array_get(e, 3)),
				  json_string_value(json_array_get(e, 4)));
	if (id) {
		in->id = gs_xstrdup(id);
		in->title = gs_xstrdup(json_string_value(json_object_get(o, "title")));
		snprintf(in->sha256, sizeof(in->sha256), "%s",
			 json_string_value(json_object_get(o, "sha")));
		if (json_string_value(json_object_get(o, "st")))
			in->stat = gs_xstrdup(json_string_value(json_object_get(o, "st")));
		json_array_foreach(json_object_get(o, "ev"), k, e) {
			const char *name = json_string_value(json_array_get(e, 0));
			const char *sha = json_string_value(json_array_get(e, 1));
			if (!name || !sha)
				return -1;
			gs_util_strvec_push(&in->ev_path, gs_xasprintf("%.*s%s", dl, path, name));
			gs_util_strvec_push_dup(&in->ev_file, name);
			gs_util_strvec_push_dup(&in->ev_sha256, sha);
		}
	}
	return 0;
}

/* Every error of src after those of dst, as they are (already in printed form). */
static void S_diag_append(gs_diag *dst, const gs_diag *src)
{
	size_t k;

	for (k = 0; k < src->count; k++)
		gs_diag_add_shown(dst, src->items[k].file, src->items[k].line, src->items[k].column,
				  src->items[k].path, src->items[k].message);
}

/* Loaded, valid workload i of this build's range: its sheet reused (its key unchanged) or rendered. */
static int S_sheet_job(gs_site_ctx *c, size_t i, gs_job *job, const gs_site_input *in,
		       size_t *done)
{
	if (c->site_key) {
		if (gs_site_keys_job_key(c, i, job, in->sha256, c->key))
			return -1;
		if (gs_site_keys_reuse(c, i, in->id, in->title, c->key)) {
			(*done)++;
			return gs_site_one_finish(c, i);
		}
	}
	return gs_site_one_publish(c, i, job, done);
}

/*
 * Workload a of all: read (S_learn_one) and, when it is valid and in this
 * build's range, its sheet reused or rendered at once, from what was read,
 * unless a sheet failed already (a workload's error comes before a
 * sheet's) or a workload has an error (c->invalid): the rest is then only
 * read, for its errors. In a worker, one line to out: S_learn_pack's
 * object, with "r": the result (gs_site_one_result_pack_all) when there is one;
 * else into c->learn (path a's record) and c->diag. 0, or -1 when out cannot be written.
 */
int gs_site_learn_item(gs_site_ctx *c, size_t a, FILE *out, size_t *done)
{
	gs_diag d = GS_DIAG_INIT;
	gs_site_input in;
	gs_job job;
	uint64_t *sizes = NULL;
	int rc = 0, t = 0;

	/* unchanged since the site replaced was built (its stat fields): trusted unread */
	if (c->statcache && !c->failed && !(c->invalid && *c->invalid) && c->archive &&
	    c->site_key && a >= c->from && a - c->from < c->n &&
	    gs_site_stat_get(c->statcache, c->all[a], &in, &sizes)) {
		t = gs_site_keys_trusted(c, a - c->from, &in, sizes, done);
		free(sizes);
		if (t < 0) {
			c->failed = 1;
			gs_publish_result_release(&c->cur);
		} else if (t == 0) {
			gs_site_learnt_input_release(&in);
		}
	}
	memset(&job, 0, sizeof(job));
	if (t != 0) {
		/* reused unread, or failed */
	} else if (S_learn_one(c->all[a], c->env->cat, &job, &in, &d,
			       c->since_set ? &c->since : NULL) != 0) {
		if (c->invalid && d.count)
			*c->invalid = 1;
	} else if (!c->failed && !(c->invalid && *c->invalid) && c->archive &&
		   a >= c->from && a - c->from < c->n &&
		   S_sheet_job(c, a - c->from, &job, &in, done)) {
		c->failed = 1;
		gs_publish_result_release(&c->cur);
	}
	gs_publish_release(&job);
	if (out) {
		json_t *o = S_learn_pack(&in, &d);
		if (c->pending)
			json_object_set_new(o, "r", c->pending);
		c->pending = NULL;
		rc = json_dumpf(o, out, JSON_COMPACT) == 0 && fputc('\n', out) != EOF ? 0 : -1;
		if (!rc && c->pending_why &&
		    fwrite(c->pending_why, 1, c->pending_why_len, out) != c->pending_why_len)
			rc = -1;
		free(c->pending_why);
		c->pending_why = NULL;
		json_decref(o);
	} else {
		if (!c->lost && gs_site_learnt_put(c->learn, a, &in, c->err)) {
			/* the spool's write failed while this one was recorded */
			gs_error_prefix(c->err, "%s: ", c->all[a]);
			c->lost = 1;
		}
		S_diag_append(c->diag, &d);
	}
	gs_site_learnt_input_release(&in);
	gs_diag_release(&d);
	return rc;
}

/*
 * The order in which the workers take the paths when only some are
 * rendered (a shard): each path rendered followed by its share of those
 * only read, so that the workers' equal ranges (workers.h) are about equal
 * work. The rendered keep their order, and so do their results spooled
 * and the evidence's first names.
 */
size_t *gs_site_learn_order(size_t nall, size_t from, size_t n)
{
	size_t *v = gs_xcalloc(nall + 1, sizeof(*v)), o = nall - n, j = 0, q, x = 0;

	if (!n) {
		for (j = 0; j < nall; j++)
			v[j] = j;
		return v;
	}
	for (q = 0; q < n; q++) {
		v[j++] = from + q;
		for (; x < (q + 1) * o / n; x++)
			v[j++] = x < from ? x : x + n;
	}
	return v;
}

/* In a worker: the items [from, to) of c->order, then a last line (S_learn_parallel). */
static int S_learn_worker(size_t from, size_t to, void *ctx, FILE *out)
{
	gs_site_ctx *c = ctx;
	size_t j, done = 0, n;
	json_t *root;
	char *man;

	c->report = out;
	for (j = from; j < to; j++)
		if (gs_site_learn_item(c, c->order ? c->order[j] : j, out, &done)) {
			/* the report of a failure is its message alone */
			if (fflush(out) == 0 && ftruncate(fileno(out), 0) == 0 &&
			    fseek(out, 0, SEEK_SET) == 0)
				fputs("cannot write a worker's report", out);
			return -1;
		}
	if (c->failed) {
		/* the message as it is (a path need not be UTF-8), to the end */
		fputs("!\n", out);
		fputs(gs_error_message(c->err), out);
		return 0;
	}
	man = c->archive ? gs_evidence_archive_export(c->archive, &n) : NULL;
	root = json_object();
	json_object_set_new(root, "rendered", json_integer((json_int_t)c->rendered));
	json_object_set_new(root, "unread", json_integer((json_int_t)c->unread));
	json_object_set_new(root, "manifest", man ? json_stringn(man, n) : json_string(""));
	free(man);
	if (json_dumpf(root, out, JSON_COMPACT) != 0 || fputc('\n', out) == EOF)
		GS_BUG("cannot write a worker's report");
	json_decref(root);
	return 0;
}

/* The rest of f, to its end (a failed worker's message); the caller frees it. */
static char *S_read_rest(FILE *f)
{
	size_t n = 0, cap = 256, got;
	char *buf = gs_xmalloc(cap);

	while ((got = fread(buf + n, 1, cap - 1 - n, f)) > 0) {
		n += got;
		if (cap - 1 - n == 0)
			buf = gs_xrealloc(buf, cap *= 2);
	}
	buf[n] = '\0';
	return buf;
}

/* Past the reasons' block of result r in f, not read (a sheet failed already); 0 or -1. */
static int S_skip_why(FILE *f, json_t *r)
{
	json_int_t n = json_integer_value(json_object_get(r, "why"));

	return n < 0 || n > ((json_int_t)1 << 30) || fseeko(f, (off_t)n, SEEK_CUR) != 0 ? -1 : 0;
}

/*
 * gs_site_learn_item over all, in jobs workers: their reports read in worker order,
 * each item's errors put back in the paths' order, the results taken as
 * gs_site_render_parallel takes them, each worker's evidence entries imported
 * unless a sheet failed. 0, 1 (as gs_site_render_parallel), or -1 with err.
 */
static int S_learn_parallel(gs_site_ctx *c, unsigned jobs, size_t *done)
{
	gs_worker_reports rep;
	size_t k, j, cap = 0;
	char *line = NULL;
	int rc = 0;

	if (c->from || c->n < c->nall) {
		c->order = gs_site_learn_order(c->nall, c->from, c->n);
		c->item_diag = gs_xcalloc(c->nall + 1, sizeof(*c->item_diag));
	}
	if (gs_workers_run(c->nall, jobs, S_learn_worker, c, c->dir, &rep, c->err))
		return -1;
	for (k = 0; k < rep.n && rc >= 0; k++) {
		FILE *f = rep.report[k];
		json_t *root;
		const char *man;
		ssize_t len;

		for (j = rep.from[k]; rc >= 0 && j < rep.to[k]; j++) {
			size_t a = c->order ? c->order[j] : j;
			gs_site_input in;
			json_t *o, *r;
			int bad;

			len = getline(&line, &cap, f);
			o = len > 0 ? json_loadb(line, (size_t)len, 0, NULL) : NULL;
			r = json_object_get(o, "r");
			memset(&in, 0, sizeof(in));
			bad = !o || S_learn_unpack(o, c->all[a], &in,
						   c->item_diag ? &c->item_diag[a] : c->diag);
			if (!bad && gs_site_learnt_put(c->learn, a, &in, c->err)) {
				gs_error_prefix(c->err, "%s: ", c->all[a]);
				rc = -1;   /* said why */
			} else if (bad) {
				gs_error_set(c->err, "the report of a worker cannot be read");
				rc = -1;
			} else if (r && !c->failed && (a < c->from || a - c->from >= c->n ||
						       gs_site_one_take_result(c, a - c->from, r, f, done))) {
				gs_error_set(c->err, "the report of a worker cannot be read");
				rc = -1;
			} else if (r && c->failed && S_skip_why(f, r)) {
				gs_error_set(c->err, "the report of a worker cannot be read");
				rc = -1;
			}
			gs_site_learnt_input_release(&in);
			json_decref(o);
		}
		if (rc < 0)
			break;
		len = getline(&line, &cap, f);
		if (len == 2 && line[0] == '!') {
			/* a sheet failed: its message, the first in the paths' order */
			if (!c->failed) {
				char *msg = S_read_rest(f);
				gs_error_set(c->err, "%s", msg);
				free(msg);
				c->failed = 1;
			}
			continue;
		}
		root = len > 0 ? json_loadb(line, (size_t)len, 0, NULL) : NULL;
		man = json_string_value(json_object_get(root, "manifest"));
		if (!man) {
			gs_error_set(c->err, "the report of a worker cannot be read");
			rc = -1;
		} else if (!c->failed && rc == 0 && c->archive) {
			gs_error ie = GS_ERROR_INIT;
			int ir;
			c->rendered += (size_t)json_integer_value(json_object_get(root, "rendered"));
			c->unread += (size_t)json_integer_value(json_object_get(root, "unread"));
			/* (1, two names for the same bytes: built again, no message) */
			ir = gs_evidence_archive_import(c->archive, man, strlen(man), &ie);
			if (ir < 0) {
				gs_error_set(c->err, "%s", gs_error_message(&ie));
				c->failed = 1;
			} else if (ir > 0) {
				rc = 1;
			}
			gs_error_release(&ie);
		}
		json_decref(root);
	}
	free(line);
	gs_workers_reports_release(&rep);
	return rc;
}

/*
 * Every workload of c->all read and validated, and the sheets of this
 * build's range rendered as they are read (gs_site_learn_item), in jobs workers when
 * there are several; then the caller's check (validated). 0, 1 (as
 * gs_site_render_parallel), 2 when validated stopped the build, or -1 with err
 * (a sheet failed, or the workers).
 */
int gs_site_learn_pass(gs_site_ctx *c, unsigned jobs, size_t *done,
		       int (*validated)(void *, gs_site_learnt *), void *arg)
{
	size_t a;
	int rc = 0;
	void *shared = mmap(NULL, sizeof(*c->invalid), PROT_READ | PROT_WRITE,
			    MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	/* (without the mapping, a workload's error just comes after the rendering) */
	c->invalid = shared != MAP_FAILED ? shared : NULL;
	if (c->invalid)
		*c->invalid = 0;
	if (jobs > 1 && c->nall > 1) {
		rc = S_learn_parallel(c, jobs, done);
	} else {
		for (a = 0; a < c->nall; a++)
			(void)gs_site_learn_item(c, a, NULL, done);
	}
	if (c->invalid)
		(void)munmap(shared, sizeof(*c->invalid));
	c->invalid = NULL;
	if (c->item_diag) {
		for (a = 0; a < c->nall; a++) {
			if (rc >= 0)
				S_diag_append(c->diag, &c->item_diag[a]);
			gs_diag_release(&c->item_diag[a]);
		}
		free(c->item_diag);
		c->item_diag = NULL;
	}
	free(c->order);
	c->order = NULL;
	if (rc < 0 || c->lost)
		return -1;
	if (validated && validated(arg, c->learn))
		return 2;
	/* a workload's error stopped the rendering: the build must stop */
	if (gs_diag_count(c->diag))
		GS_BUG("%zu errors in the workloads, and the build goes on", gs_diag_count(c->diag));
	return c->failed ? -1 : rc;
}
