/* publish: the pipeline of one workload, edge to edge. */
#define _POSIX_C_SOURCE 200809L
#include "publish.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "doc.h"
#include "infile.h"
#include "model.h"
#include "outfile.h"
#include "sheet.h"
#include "util.h"

/*
 * Reads cited file i of the workload once: it must be a regular file inside
 * the workload's folder, reached without following a symbolic link, and
 * that is checked on the descriptor its bytes are read from, before any
 * byte is read, so a refused file (a FIFO, a link to /etc/passwd) is
 * neither read nor quoted, and no link swapped in after the check is
 * followed. Its bytes are parsed into ms[i] and kept with their SHA-256
 * (the same file cited again shares the bytes read first). The bytes kept
 * of distinct files are at most GS_JOB_EVIDENCE_MAX_BYTES together. 0, or
 * -1 with the error in d (-2: that bound crossed, no more to read).
 */
/*
 * The log an imported measurement names (import.log), read beside the
 * measurement's file in the same way (inside the workload's folder, no
 * link followed), and only when its bytes have the SHA-256 the measurement
 * records. 0 with f->log_bytes (or nothing to read), -1 with the error in d.
 */
int gs_publish_read_log(const char *mpath, const gs_measurement *m, char **bytes, size_t *len,
		    gs_error *why)
{
	const char *slash = strrchr(mpath, '/');
	char *dir, sha[GS_SHA256_HEX_SIZE];
	int fd;

	*bytes = NULL;
	*len = 0;
	if (!m->import_log_sha256 || !m->import_log_archived_as)
		return 0;
	dir = slash ? gs_xasprintf("%.*s", (int)(slash - mpath), mpath) : gs_xstrdup(".");
	fd = gs_infile_open_beneath(*dir ? dir : "/", m->import_log_archived_as, GS_INPUT_MAX_BYTES, why);
	free(dir);
	if (fd < 0)
		return -1;
	*bytes = gs_infile_read_fd(fd, GS_INPUT_MAX_BYTES, len, why);
	if (!*bytes)
		return -1;
	gs_evidence_sha256_buffer(*bytes, *len, sha);
	if (strcmp(sha, m->import_log_sha256) != 0) {
		gs_error_set(why, "%s is not the log the import read: its SHA-256 is %s, "
			 "the measurement records %s", m->import_log_archived_as, sha,
			 m->import_log_sha256);
		free(*bytes);
		*bytes = NULL;
		return -1;
	}
	return 0;
}

/*
 * Measurements parsed before, by the SHA-256 of their bytes, the bytes
 * compared in full on a hit: a site cites the same measurements from many
 * workloads, each a copy in its own folder (the 200-workload benchmark:
 * 160 cited files, 5 distinct contents), and parsing them (jansson, then
 * the strict reader) was 6 % of a site's CPU. A hit is a copy of the measurement parsed (gs_measurement_copy),
 * named by the citing path, which is what parsing it there gives; a file
 * that did not parse is not kept, so its messages are given every time,
 * under each path. S_MCACHE entries replaced in turn, files of at most
 * S_MCACHE_FILE bytes: at most 16 MiB held, until the process ends (each
 * -j worker has its own).
 */
#define S_MCACHE 64
#define S_MCACHE_FILE (256u * 1024u)

typedef struct {
	char sha256[GS_SHA256_HEX_SIZE];
	char *bytes;
	size_t len;
	gs_measurement m;
} S_mentry;

static S_mentry S_mcache[S_MCACHE];
static size_t S_mcache_used, S_mcache_next;

static int S_parse_cached(const char *path, const gs_job_file *f, gs_measurement *m, gs_diag *d)
{
	S_mentry *e;
	size_t k;

	for (k = 0; k < S_mcache_used; k++) {
		e = &S_mcache[k];
		if (e->len == f->len && memcmp(e->sha256, f->sha256, sizeof(e->sha256)) == 0 &&
		    memcmp(e->bytes, f->bytes, f->len) == 0) {
			gs_measurement_copy(m, &e->m, path);
			return 0;
		}
	}
	if (gs_measurement_parse(path, f->bytes, f->len, m, d) != 0)
		return -1;
	if (f->len > S_MCACHE_FILE)
		return 0;
	e = &S_mcache[S_mcache_next];
	S_mcache_next = (S_mcache_next + 1) % S_MCACHE;
	if (S_mcache_used < S_MCACHE)
		S_mcache_used++;
	free(e->bytes);
	gs_measurement_release(&e->m);
	memcpy(e->sha256, f->sha256, sizeof(e->sha256));
	e->bytes = gs_xmalloc(f->len + 1);
	memcpy(e->bytes, f->bytes, f->len);
	e->bytes[f->len] = '\0';
	e->len = f->len;
	gs_measurement_copy(&e->m, m, path);
	return 0;
}

static int S_read_cited(gs_job *job, size_t i, gs_diag *d)
{
	const gs_evidence_ref *e = &job->w.evidence[i];
	gs_job_file f;
	size_t dl, k;
	gs_error why = GS_ERROR_INIT;
	char *dir;
	int fd;

	memset(&f, 0, sizeof(f));
	for (k = 0; k < job->nev; k++)
		if (strcmp(job->ev[k].ref->file, e->file) == 0) {
			f = job->files[k];
			f.shared = 1;
			break;
		}
	if (!f.shared) {
		dl = strlen(e->path) - strlen(e->file);
		dir = gs_xasprintf("%.*s", (int)dl, e->path);
		fd = gs_infile_open_beneath(dir, e->file, GS_INPUT_MAX_BYTES, &why);
		free(dir);
		if (fd < 0) {
			char *jp = gs_xasprintf("$.evidence[%zu].file", i);
			gs_diag_add(d, job->w.path, 0, 0, jp, "evidence '%s': %s", e->file,
				    gs_error_message(&why));
			gs_error_release(&why);
			free(jp);
			return -1;
		}
		/* (the message gs_measurement_read gives for a file it cannot read) */
		f.bytes = gs_infile_read_fd(fd, GS_INPUT_MAX_BYTES, &f.len, &why);
		if (!f.bytes) {
			gs_diag_add(d, e->path, 0, 0, NULL, "%s", gs_error_message(&why));
			gs_error_release(&why);
			return -1;
		}
		if (f.len > GS_JOB_EVIDENCE_MAX_BYTES - job->held) {
			char *jp = gs_xasprintf("$.evidence[%zu].file", i);
			gs_diag_add(d, job->w.path, 0, 0, jp,
				    "evidence '%s': the files cited up to it are %zu bytes "
				    "together, more than the bound of %zu bytes for a workload",
				    e->file, job->held + f.len, GS_JOB_EVIDENCE_MAX_BYTES);
			free(jp);
			free(f.bytes);
			return -2;
		}
		gs_evidence_sha256_buffer(f.bytes, f.len, f.sha256);
	}
	f.rel[0] = '\0';
	if (S_parse_cached(e->path, &f, &job->ms[i], d) != 0) {
		if (!f.shared)
			free(f.bytes);
		return -1;
	}
	if (!f.shared) {
		gs_error why2 = GS_ERROR_INIT;
		if (gs_publish_read_log(e->path, &job->ms[i], &f.log_bytes, &f.log_len, &why2) != 0) {
			gs_diag_add(d, e->path, 0, 0, "$.import.log.archived_as", "%s",
				    gs_error_message(&why2));
			gs_error_release(&why2);
			gs_measurement_release(&job->ms[i]);
			memset(&job->ms[i], 0, sizeof(job->ms[i]));
			free(f.bytes);
			return -1;
		}
		if (f.log_len > GS_JOB_EVIDENCE_MAX_BYTES - job->held - f.len) {
			char *jp = gs_xasprintf("$.evidence[%zu].file", i);
			gs_diag_add(d, job->w.path, 0, 0, jp,
				    "evidence '%s': the files cited up to it and its log are "
				    "more than the bound of %zu bytes for a workload", e->file,
				    GS_JOB_EVIDENCE_MAX_BYTES);
			free(jp);
			gs_measurement_release(&job->ms[i]);
			memset(&job->ms[i], 0, sizeof(job->ms[i]));
			free(f.bytes);
			free(f.log_bytes);
			return -2;
		}
	}
	f.log_rel[0] = '\0';
	job->ev[job->nev].m = &job->ms[i];
	job->ev[job->nev].ref = e;
	job->files[job->nev] = f;
	job->nev++;
	if (!f.shared)
		job->held += f.len + f.log_len;
	return 0;
}

static void S_sha_fn(const void *bytes, size_t len, char hex[65])
{
	gs_evidence_sha256_buffer(bytes, len, hex);
}

void gs_publish_models_from(const char *site_dir)
{
	char *ev = gs_xasprintf("%s/%s", site_dir, GS_EVIDENCE_DIR);

	gs_model_archive_use(ev, S_sha_fn);
	free(ev);
}

/* The model's files and their record (gs_job.mfiles). */
static void S_model_files(gs_job *job)
{
	gs_model *m = job->w.model;
	size_t i;

	if (!m || !job->w.model_key || m->nfiles == 0)
		return;
	job->mfiles = gs_xcalloc(m->nfiles + 1, sizeof(*job->mfiles));
	for (i = 0; i < m->nfiles; i++) {
		gs_model_file *f = &m->files[i];
		gs_job_file *jf = &job->mfiles[i];
		if (!f->sha256[0])
			gs_evidence_sha256_buffer(f->bytes, f->len, f->sha256);
		jf->bytes = f->bytes;
		jf->len = f->len;
		jf->shared = 1;
		memcpy(jf->sha256, f->sha256, GS_SHA256_HEX_SIZE);
		gs_util_strvec_push(&job->mnames, gs_xasprintf("model:%s/%s%s", job->w.model_key, f->name,
							  f->header ? ".header" : ""));
	}
	job->mfiles[i].bytes = gs_model_record(m, job->w.model_key, &job->mfiles[i].len);
	gs_evidence_sha256_buffer(job->mfiles[i].bytes, job->mfiles[i].len, job->mfiles[i].sha256);
	gs_util_strvec_push(&job->mnames, gs_model_record_name(job->w.model_key));
	job->nm = m->nfiles + 1;
}

int gs_publish_load(const char *workload_path, const gs_catalog *cat, gs_job *job, gs_diag *d)
{
	return gs_publish_load_sha(workload_path, cat, job, d, NULL);
}

static void S_hash_bytes(void *arg, const char *text, size_t len)
{
	gs_evidence_sha256_buffer(text, len, arg);
}

int gs_publish_load_sha(const char *workload_path, const gs_catalog *cat, gs_job *job, gs_diag *d,
		    char *sha256_hex)
{
	size_t before = gs_diag_count(d), i;
	gs_error err = GS_ERROR_INIT;

	memset(job, 0, sizeof(*job));
	if (gs_workload_read_with(workload_path, &job->w, d, sha256_hex ? S_hash_bytes : NULL,
				  sha256_hex))
		return -1;
	S_model_files(job);
	job->ms = gs_xcalloc(job->w.nevidence + 1, sizeof(*job->ms));
	job->ev = gs_xcalloc(job->w.nevidence + 1, sizeof(*job->ev));
	job->files = gs_xcalloc(job->w.nevidence + 1, sizeof(*job->files));
	for (i = 0; i < job->w.nevidence; i++)
		if (S_read_cited(job, i, d) == -2)
			break;
	if (job->w.notes_md) {
		gs_error why = GS_ERROR_INIT;

		if (gs_doc_bounds_check(job->w.notes_md, &why))
			gs_diag_add(d, workload_path, 0, 0, "$.notes", "%s", gs_error_message(&why));
		gs_error_release(&why);
	}
	gs_verdict_check_candidates(&job->w, cat, d);
	if (gs_diag_count(d) > before)
		return -1;
	if (gs_sizing_workload(&job->w, &job->s, &err)) {
		gs_diag_add(d, workload_path, 0, 0, "$", "%s", gs_error_message(&err));
		gs_error_release(&err);
		return -1;
	}
	return 0;
}

void gs_publish_release(gs_job *job)
{
	size_t i;

	if (job->ms)
		for (i = 0; i < job->w.nevidence; i++)
			gs_measurement_release(&job->ms[i]);
	free(job->ms);
	for (i = 0; i < job->nev; i++)
		if (!job->files[i].shared) {
			free(job->files[i].bytes);
			free(job->files[i].log_bytes);
		}
	free(job->files);
	free(job->ev);
	for (i = 0; i < job->nm; i++)
		if (!job->mfiles[i].shared)
			free(job->mfiles[i].bytes);
	free(job->mfiles);
	gs_util_strvec_release(&job->mnames);
	gs_workload_release(&job->w);
	memset(job, 0, sizeof(*job));
}

int gs_publish_archive(gs_job *job, gs_archive *archive, const char *citing_sheet,
		   gs_error *err)
{
	size_t k;

	for (k = 0; k < job->nev; k++) {
		gs_job_file *f = &job->files[k];
		const gs_measurement *m = job->ev[k].m;
		/* an imported measurement's log goes with it, like raw results */
		if (f->log_bytes && !f->log_rel[0] &&
		    gs_evidence_archive_add_log_bytes(archive, f->log_bytes, f->log_len, m->import_log_sha256,
					 m->import_log_name, citing_sheet, f->log_rel, err)) {
			f->log_rel[0] = '\0';
			return gs_error_prefix(err, "%s: %s: ", job->ev[k].ref->path,
					       m->import_log_archived_as);
		}
		if (f->rel[0])
			continue;
		if (gs_evidence_archive_add_bytes(archive, f->bytes, f->len, f->sha256, job->ev[k].ref->file,
					 citing_sheet, f->rel, err)) {
			f->rel[0] = '\0';
			return gs_error_prefix(err, "%s: ", job->ev[k].ref->path);
		}
	}
	for (k = 0; k < job->nm; k++) {
		gs_job_file *f = &job->mfiles[k];
		if (f->rel[0])
			continue;
		if (gs_evidence_archive_add_bytes(archive, f->bytes, f->len, f->sha256, job->mnames.v[k],
					 citing_sheet, f->rel, err)) {
			f->rel[0] = '\0';
			return gs_error_prefix(err, "%s: model file %s: ", job->w.path,
					       job->mnames.v[k]);
		}
	}
	return 0;
}

static int S_write(gs_outtx *tx, const char *dir, const char *name, const char *data,
		   size_t len, gs_error *err)
{
	return gs_outfile_tx_add(tx, dir, name, data, len, err);
}

/* The names of the files gs_publish_job writes into its folder, in order. */
static void S_result_files(gs_publish_result *res, const gs_sheet *sheet, int png, int md)
{
	size_t i;

	for (i = 0; i < sheet->ncharts; i++) {
		gs_util_strvec_push(&res->files, gs_xasprintf("%s.svg", sheet->charts[i].name));
		if (png)
			gs_util_strvec_push(&res->files, gs_xasprintf("%s.png", sheet->charts[i].name));
	}
	gs_util_strvec_push(&res->files, gs_xasprintf("%s.json", res->id));
	if (md)
		gs_util_strvec_push(&res->files, gs_xasprintf("%s.md", res->id));
	gs_util_strvec_push(&res->files, gs_xasprintf("%s.html", res->id));
}

/* The CI summary of the sheet html_name, added to tx at summary_path: 0, or -1 (err). */
static int S_write_summary(gs_outtx *tx, const gs_sheet_input *in, const char *html_name,
			   const char *summary_path, gs_error *err)
{
	char *sum = gs_render_summary(in, html_name);
	char *slash, *sdir, *sname;
	int rc;

	if (!sum) {
		gs_error_set(err, "cannot render the summary");
		return -1;
	}
	sdir = gs_xstrdup(summary_path);
	slash = strrchr(sdir, '/');
	if (slash) {
		*slash = '\0';
		sname = slash + 1;
	} else {
		sname = sdir;
	}
	rc = gs_outfile_tx_add(tx, slash ? sdir : ".", sname, sum, strlen(sum), err);
	free(sdir);
	free(sum);
	return rc ? -1 : 0;
}

/* The answer for the terminal (env->brief): the sheet's HTML, Markdown
 * (when written) and decision JSON named under env->brief_dir. */
static char *S_brief(const gs_sheet_input *in, const gs_publish_env *env,
		     const gs_publish_result *res)
{
	const char *dir = env->brief_dir ? env->brief_dir : ".";
	char *paths[3], *text, *out;
	size_t n = 0, i;

	paths[n++] = gs_xasprintf("%s/%s.html", dir, res->id);
	if (env->md)
		paths[n++] = gs_xasprintf("%s/%s.md", dir, res->id);
	paths[n++] = gs_xasprintf("%s/%s.json", dir, res->id);
	if (env->brief == GS_PUBLISH_BRIEF_JSON) {
		out = gs_sheet_brief_json(in, (const char *const *)paths, n);
	} else {
		gs_buf b;
		text = gs_sheet_brief_text(in);
		gs_buf_init(&b, 512);
		gs_buf_puts(&b, text);
		gs_buf_putc(&b, '\n');
		for (i = 0; i < n; i++)
			gs_buf_printf(&b, "%s\n", paths[i]);
		free(text);
		out = gs_buf_detach(&b, NULL);
	}
	for (i = 0; i < n; i++)
		free(paths[i]);
	return out;
}

int gs_publish_job(gs_job *job, const gs_publish_env *env, gs_archive *archive,
		   const char *dir, const char *summary_path, gs_publish_result *res,
		   gs_error *err)
{
	gs_decision d;
	gs_sheet sheet;
	gs_sheet_input in;
	gs_sheet_reasonset rs;
	int have_rs = 0;
	char **links = gs_xcalloc(job->nev + 1, sizeof(*links)), **mlinks = NULL;
	char **log_links = gs_xcalloc(job->nev + 1, sizeof(*log_links));
	char *md = NULL, *html = NULL, *json = NULL, *name = NULL, *title = NULL;
	char **reasons = NULL;
	/* Every file of the sheet, its new evidence and (for a lone sheet) the
	 * manifest: all written before any becomes visible (see outfile.h). */
	gs_outtx *tx;
	int rc = -1;
	size_t i;

	memset(res, 0, sizeof(*res));
	gs_verdict_classify(&job->w, &job->s, job->ev, job->nev, env->cat, env->accept_synthetic, &d);
	tx = env->in_stage ? gs_outfile_tx_new_direct() : gs_outfile_tx_new();
	gs_evidence_archive_set_tx(archive, tx);
	{
		/* (a site's key archived them already: their links are kept) */
		char *sheet_rel = gs_xasprintf("%s%s.html", env->sheet_prefix, job->w.id);
		int arc = gs_publish_archive(job, archive, sheet_rel, err);
		free(sheet_rel);
		if (arc)
			goto out;
	}
	for (i = 0; i < job->nev; i++) {
		links[i] = gs_xasprintf("%s%s", env->link_prefix, job->files[i].rel);
		if (job->files[i].log_rel[0])
			log_links[i] = gs_xasprintf("%s%s", env->link_prefix, job->files[i].log_rel);
	}
	mlinks = gs_xcalloc(job->nm + 1, sizeof(*mlinks));
	for (i = 0; i < job->nm; i++)
		mlinks[i] = gs_xasprintf("%s%s", env->link_prefix, job->mfiles[i].rel);
	memset(&in, 0, sizeof(in));
	in.w = &job->w;
	in.s = &job->s;
	in.ev = job->ev;
	in.nev = job->nev;
	in.ev_links = (const char *const *)links;
	in.ev_log_links = (const char *const *)log_links;
	in.model_names = (const char *const *)job->mnames.v;
	in.model_links = (const char *const *)mlinks;
	in.nmodel = job->nm;
	in.cat = env->cat;
	in.d = &d;
	in.t = env->t;
	in.date = env->date;
	in.catalog_name = env->catalog_name;
	in.png = env->png;
	in.notes_masked = env->notes_masked;
	reasons = gs_sheet_reasons(env->t, &d);
	in.reasons = reasons;
	/* the distinct reasons, once for the sheet and its decision JSON */
	gs_sheet_reasons_set_build(&in, &rs);
	have_rs = 1;
	in.rs = &rs;
	if (gs_sheet_build(&in, &sheet)) {
		gs_error_set(err, "cannot build the sheet");
		goto out;
	}
	if (env->md)
		md = gs_render_markdown(&sheet.doc);
	title = gs_xasprintf("%s: %s", gs_tr(env->t, "sheet.title"), job->w.title);
	/* a site's sheet (with its navigation) links the site's style sheet */
	html = gs_render_html(env->tp, &sheet.doc, env->t->lang, title, env->nav_html,
			      env->nav_html ? env->link_prefix : NULL);
	json = gs_render_decision_json(&in);
	if ((env->md && !md) || !html || !json) {
		gs_error_set(err, "cannot render the sheet");
		goto out_sheet;
	}
	/* Charts first, then the documents that show them. */
	for (i = 0; i < sheet.ncharts; i++) {
		const gs_sheet_chart *ch = &sheet.charts[i];
		free(name);
		name = gs_xasprintf("%s.svg", ch->name);
		if (S_write(tx, dir, name, (const char *)ch->out.svg.data, ch->out.svg.len, err))
			goto out_sheet;
		if (!env->png)
			continue;
		free(name);
		name = gs_xasprintf("%s.png", ch->name);
		if (S_write(tx, dir, name, (const char *)ch->out.png.data, ch->out.png.len, err))
			goto out_sheet;
	}
	free(name);
	name = gs_xasprintf("%s.json", job->w.id);
	if (S_write(tx, dir, name, json, strlen(json), err))
		goto out_sheet;
	if (md) {
		free(name);
		name = gs_xasprintf("%s.md", job->w.id);
		if (S_write(tx, dir, name, md, strlen(md), err))
			goto out_sheet;
	}
	free(name);
	name = gs_xasprintf("%s.html", job->w.id);
	if (S_write(tx, dir, name, html, strlen(html), err))
		goto out_sheet;
	if (summary_path && S_write_summary(tx, &in, name, summary_path, err))
		goto out_sheet;
	if (env->write_manifest && gs_evidence_archive_write_manifest(archive, err))
		goto out_sheet;
	if (gs_outfile_tx_commit(tx, err))
		goto out_sheet;
	res->id = gs_xstrdup(job->w.id);
	res->title = gs_xstrdup(job->w.title);
	gs_publish_result_from_decision(&d, env->cat, res);
	gs_publish_result_reasons(&d, env->cat, env->t, reasons, res);
	S_result_files(res, &sheet, env->png, env->md);
	if (env->brief)
		res->brief = S_brief(&in, env, res);
	rc = 0;
out_sheet:
	gs_sheet_release(&sheet);
out:
	for (i = 0; i < job->nev; i++) {
		free(links[i]);
		free(log_links[i]);
	}
	free(links);
	free(log_links);
	for (i = 0; mlinks && i < job->nm; i++)
		free(mlinks[i]);
	free(mlinks);
	free(md);
	free(html);
	free(json);
	free(name);
	free(title);
	if (have_rs)
		gs_sheet_reasons_set_release(&rs);
	gs_sheet_reasons_free(reasons, d.ncands);
	gs_verdict_release(&d);
	gs_evidence_archive_set_tx(archive, NULL);
	gs_outfile_tx_free(tx);
	return rc;
}

void gs_publish_result_from_decision(const gs_decision *d, const gs_catalog *cat,
				     gs_publish_result *res)
{
	const gs_candidate *best = gs_verdict_best(d);
	size_t i;
	int q;

	/* Indexed like the catalog; offers the workload does not compare stay 3. */
	res->noffers = cat->noffers;
	res->status = gs_xmalloc(res->noffers + 1);
	memset(res->status, 3, res->noffers + 1);
	res->cost = gs_xcalloc(res->noffers + 1, sizeof(*res->cost));
	res->currency = gs_xcalloc(res->noffers + 1, sizeof(*res->currency));
	gs_publish_result_classes_alloc(res);
	{
		unsigned char *lot = gs_xmalloc(d->ncands + 1);
		gs_sheet_offers_in_lots(d, lot);
		for (i = 0; i < d->ncands; i++)
			res->in_lot[d->cands[i].offer - cat->offers] = lot[i];
		free(lot);
	}
	for (i = 0; i < d->ncands; i++) {
		const gs_candidate *c = &d->cands[i];
		size_t k = (size_t)(c->offer - cat->offers);
		/* a reference card is neither pre-selected nor excluded: 4 */
		res->status[k] = c->cls == GS_CLASS_REFERENCE ? 4 : c->retained ? 0 : c->excluded ? 2 : 1;
		res->cls[k] = (unsigned char)c->cls;
		/* a million tokens at the bound: on-demand, else interruptible */
		if (c->has_mtok_on_demand) {
			res->mtok[k] = c->mtok_on_demand;
			res->mtok_currency[k] = c->on_demand.plan->currency;
		} else if (c->has_mtok_interruptible) {
			res->mtok[k] = c->mtok_interruptible;
			res->mtok_currency[k] = c->interruptible.plan->currency;
			res->mtok_intr[k] = 1;
		}
		if (c->plan) {
			res->cost[k] = c->cost;
			res->currency[k] = c->plan->currency;
		}
		if (c->retained && c->synthetic)
			res->nretained_synthetic++;
	}
	res->synthetic = d->synthetic;
	res->demonstration = d->demonstration;
	res->nretained = d->nretained;
	res->npreselected = d->npreselected;
	res->best = best ? (size_t)(best->offer - cat->offers) : GS_PUBLISH_NO_BEST;
	res->best_missing = 0;
	res->best_hour = 0;
	res->best_hour_currency = NULL;
	res->best_hour_interruptible = 0;
	if (best) {
		const gs_rate *r = best->on_demand.plan ? &best->on_demand : &best->interruptible;
		if (r->plan) {
			res->best_hour = r->micro_per_hour;
			res->best_hour_currency = r->plan->currency;
			res->best_hour_interruptible = r == &best->interruptible;
		}
	}
	if (best)
		for (q = 0; q < GS_REQ_COUNT; q++)
			if (best->v[q].kind == GS_V_TO_CONFIRM)
				res->best_missing |= 1u << q;
}

/* "3.99 (assumed)": GiB with two decimals (the offer page's header gives the unit), '−' first when neg. */
static void S_gib_words(gs_buf *o, const gs_strings *t, uint64_t mag, int neg,
			gs_prov prov, int synthetic)
{
	char g[GS_FMT_MAX];

	if (neg)
		gs_buf_puts(o, "\xe2\x88\x92");
	gs_buf_puts(o, gs_qty_fmt_fixed2(g, mag, GS_GIB, t->lang));
	gs_buf_puts(o, " (");
	gs_buf_puts(o, gs_sheet_words_prov(t, prov, synthetic));
	gs_buf_puts(o, ")");
}

/*
 * An exclusion's reason on the offer page: the sheet's sentence (label
 * why.X), or its shorter form where one exists (label site.why.X), without
 * what the page's header or the row's other cells give (the capacity per
 * card, the total cost).
 */
static char *S_short_reason(const gs_strings *t, const gs_verdict *v, char *const *reasons,
			    size_t at)
{
	char key[128];
	gs_verdict sv;

	if (v->why && (size_t)snprintf(key, sizeof(key), "site.%s", v->why) < sizeof(key) &&
	    gs_tr_opt(t, key)) {
		sv = *v;
		sv.why = key;
		return gs_sheet_words_reason_text(t, &sv);
	}
	return reasons ? gs_xstrdup(reasons[at]) : gs_sheet_words_reason_text(t, v);
}

void gs_publish_result_reasons(const gs_decision *d, const gs_catalog *cat,
			       const gs_strings *t, char *const *reasons,
			       gs_publish_result *res)
{
	size_t i;
	int q;

	res->reason = gs_xcalloc(res->noffers + 1, sizeof(*res->reason));
	for (i = 0; i < d->ncands; i++) {
		const gs_candidate *c = &d->cands[i];
		const gs_offer *o = c->offer;
		size_t k = (size_t)(c->offer - cat->offers), len;
		uint64_t listed = o->has_declared_bytes ? o->declared_bytes : o->nominal_bytes;
		gs_buf out = GS_BUF_INIT;
		char *s;
		int n = 0;

		/* the need per card, then the margin, each with its provenance */
		if (c->need.present)
			S_gib_words(&out, t, c->need.bytes, 0, c->need.prov,
				    c->need.synthetic);
		else
			gs_buf_puts(&out, gs_tr(t, "word.missing"));
		gs_buf_puts(&out, "\t");
		if (c->has_margin) {
			int64_t m = c->margin;
			gs_qty p = gs_verdict_margin_prov(c->need, c->capacity);
			S_gib_words(&out, t, gs_i64_mag(m), m < 0, p.prov, p.synthetic);
		} else {
			gs_buf_puts(&out, gs_tr(t, "word.missing"));
		}
		gs_buf_puts(&out, "\t");
		/* a capacity other than the catalog's (the page's header gives that one) */
		if (c->capacity.present && (c->cap_source == GS_CAP_OBSERVED || o->memory_unknown ||
					    c->capacity.bytes != listed)) {
			char g[GS_FMT_MAX];
			gs_buf_puts(&out, gs_tr(t, "site.row_capacity"));
			gs_buf_puts(&out, " ");
			gs_buf_puts(&out, gs_qty_fmt_gib(g, c->capacity.bytes, t->lang));
			gs_buf_puts(&out, " (");
			gs_buf_puts(&out,
				    gs_sheet_words_prov(t, c->capacity.prov, c->capacity.synthetic));
			gs_buf_puts(&out, ").");
			n++;
		}
		if (!c->excluded && !c->retained) {
			/* Pre-selected: the requirements still to confirm, by name
			 * (the column says what they are); their reasons are in the
			 * sheet, where the row links. */
			int named = 0;
			for (q = 0; q < GS_REQ_COUNT; q++) {
				if (c->v[q].kind != GS_V_TO_CONFIRM)
					continue;
				if (named++) {
					gs_buf_puts(&out, ", ");
				} else if (n) {
					/* after a capacity: say what the names are */
					gs_buf_puts(&out, " ");
					gs_buf_puts(&out, gs_tr(t, "cand.to_confirm"));
					gs_buf_puts(&out, " ");
				}
				gs_buf_puts(&out, gs_sheet_words_req_label(t, (gs_req)q));
			}
		}
		for (q = 0; q < GS_REQ_COUNT && c->excluded; q++) {
			const gs_verdict *v = &c->v[q];
			char *why;
			/* Excluded: every exclusion, by its reason; a retained
			 * offer needs none here (its reasons are in the sheet). */
			if (v->kind != GS_V_EXCLUDE)
				continue;
			why = S_short_reason(t, v, reasons, i * GS_REQ_COUNT + (size_t)q);
			gs_buf_puts(&out, n++ ? " " : "");
			gs_buf_puts(&out, gs_sheet_words_req_label(t, (gs_req)q));
			gs_buf_puts(&out, ": ");
			gs_buf_puts(&out, why);
			free(why);
		}
		/* kept for the whole build: no slack (a gs_buf grows by doubling) */
		s = gs_buf_detach(&out, &len);
		res->reason[k] = gs_xrealloc(s, len + 1);
	}
}

void gs_publish_result_classes_alloc(gs_publish_result *r)
{
	r->cls = gs_xmalloc(r->noffers + 1);
	memset(r->cls, GS_CLASS_COUNT, r->noffers + 1);
	r->in_lot = gs_xcalloc(r->noffers + 1, 1);
	r->mtok = gs_xcalloc(r->noffers + 1, sizeof(*r->mtok));
	r->mtok_currency = gs_xcalloc(r->noffers + 1, sizeof(*r->mtok_currency));
	r->mtok_intr = gs_xcalloc(r->noffers + 1, 1);
}

void gs_publish_result_release(gs_publish_result *r)
{
	size_t k;

	if (r->reason)
		for (k = 0; k < r->noffers; k++)
			free(r->reason[k]);
	free(r->reason);
	free(r->id);
	free(r->title);
	free(r->status);
	free(r->cost);
	free(r->currency);
	free(r->cls);
	free(r->in_lot);
	free(r->mtok);
	free(r->mtok_currency);
	free(r->mtok_intr);
	gs_util_strvec_release(&r->files);
	free(r->brief);
	memset(r, 0, sizeof(*r));
}
