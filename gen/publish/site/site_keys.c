/* site: incremental builds: the keys file, the sheets' keys, reuse. */
#define _DEFAULT_SOURCE
#include "site_ctx.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <nettle/sha2.h>

#include "evidence.h"
#include "jsonout.h"
#include "outfile.h"
#include "sheet.h"
#include "site_results.h"
#include "util.h"

/*** incremental builds ***/

#define S_STR_(x) #x
#define S_STR(x) S_STR_(x)

/*
 * What every sheet depends on besides its own files: the generator's
 * version and render revision, the options that change a sheet, the labels, the templates and
 * the catalogs' bytes (catalog_key, from the caller).
 */
void gs_site_keys_of(const gs_publish_env *env, const char *catalog_key,
		 char hex[GS_SHA256_HEX_SIZE])
{
	struct sha256_ctx h;
	uint8_t dig[SHA256_DIGEST_SIZE];
	size_t i;

	sha256_init(&h);
	gs_site_pagekeys_hash_str(&h, GS_SITE_KEYS_FORMAT);
	gs_site_pagekeys_hash_str(&h, "gpusheet " GS_VERSION);
	gs_site_pagekeys_hash_str(&h, "render " S_STR(GS_SITE_RENDER_REVISION));
	gs_site_pagekeys_hash_str(&h, gs_tr_lang_id(env->t->lang));
	gs_site_pagekeys_hash_str(&h, env->date ? env->date : "");
	gs_site_pagekeys_hash_str(&h, env->png ? "png" : "");
	gs_site_pagekeys_hash_str(&h, env->md ? "md" : "");
	gs_site_pagekeys_hash_str(&h, env->accept_synthetic ? "accept-synthetic" : "");
	gs_site_pagekeys_hash_str(&h, env->catalog_name ? env->catalog_name : "");
	gs_site_pagekeys_hash_str(&h, catalog_key);
	gs_site_pagekeys_hash_str(&h, env->tp->page ? env->tp->page : "");
	gs_site_pagekeys_hash_str(&h, env->tp->css ? env->tp->css : "");
	for (i = 0; i < env->t->count; i++) {
		gs_site_pagekeys_hash_str(&h, env->t->items[i].key);
		gs_site_pagekeys_hash_str(&h, env->t->items[i].text);
	}
	sha256_digest(&h, SHA256_DIGEST_SIZE, dig);
	gs_evidence_hex_encode(dig, SHA256_DIGEST_SIZE, hex);
}

void gs_site_keys_signature(const char *site_key, const char *reference, char *const *paths,
		       size_t npaths, char hex[GS_SHA256_HEX_SIZE])
{
	struct sha256_ctx h;
	uint8_t dig[SHA256_DIGEST_SIZE];
	char n[32];
	size_t i;

	sha256_init(&h);
	gs_site_pagekeys_hash_str(&h, "signature");
	gs_site_pagekeys_hash_str(&h, site_key);
	gs_site_pagekeys_hash_str(&h, reference ? "reference" : "");
	gs_site_pagekeys_hash_str(&h, reference ? reference : "");
	snprintf(n, sizeof(n), "%zu", npaths);
	gs_site_pagekeys_hash_str(&h, n);
	for (i = 0; i < npaths; i++)
		gs_site_pagekeys_hash_str(&h, paths[i]);
	sha256_digest(&h, SHA256_DIGEST_SIZE, dig);
	gs_evidence_hex_encode(dig, SHA256_DIGEST_SIZE, hex);
}

/*
 * The key of a sheet: the site key, the SHA-256 of its workload's bytes
 * (wsha: not its path, the site does not depend on the path given), and
 * each cited file as archived: its name in the workload and its link in
 * the site ("evidence/<file>", which holds the SHA-256 of its bytes and
 * the name it gets in this site, first name wins). S_key_begin, a
 * S_key_file per cited file, S_key_end.
 */
static void S_key_begin(const gs_site_ctx *c, const char *wsha, struct sha256_ctx *h)
{
	sha256_init(h);
	gs_site_pagekeys_hash_str(h, c->site_key);
	gs_site_pagekeys_hash_str(h, wsha);
}

static void S_key_file(struct sha256_ctx *h, const char *file, const char *rel)
{
	gs_site_pagekeys_hash_str(h, file);
	gs_site_pagekeys_hash_str(h, rel);
}

static void S_key_end(struct sha256_ctx *h, char hex[GS_SHA256_HEX_SIZE])
{
	uint8_t dig[SHA256_DIGEST_SIZE];

	sha256_digest(h, SHA256_DIGEST_SIZE, dig);
	gs_evidence_hex_encode(dig, SHA256_DIGEST_SIZE, hex);
}

/*
 * The key of loaded workload i, whose bytes hash to wsha: its cited files
 * are archived here, from the bytes the job read (gs_publish_archive), so that
 * their links are known; the publishing keeps them (the archive is not
 * asked twice).
 */
int gs_site_keys_job_key(gs_site_ctx *c, size_t i, gs_job *job, const char *wsha,
		    char hex[GS_SHA256_HEX_SIZE])
{
	struct sha256_ctx h;
	char *sheet_rel = gs_xasprintf("%s%s.html", c->env->sheet_prefix, job->w.id);
	size_t k;
	int rc = gs_publish_archive(job, c->archive, sheet_rel, c->err);

	free(sheet_rel);
	if (rc)
		return gs_error_prefix(c->err, "%s: ", c->paths[i]);
	S_key_begin(c, wsha, &h);
	for (k = 0; k < job->nev; k++)
		S_key_file(&h, job->ev[k].ref->file, job->files[k].rel);
	/* the model's files: their contents, as their links are their hashes */
	for (k = 0; k < job->nm; k++)
		S_key_file(&h, job->mnames.v[k], job->mfiles[k].rel);
	S_key_end(&h, hex);
	return 0;
}

/*
 * The key of workload i from what its validation learnt (in), before its
 * cited files are at hand: their links are the archive's names for the
 * SHA-256 of the bytes validated (gs_evidence_archive_name), into rels (in->nev
 * of them), which the archiving must then give (gs_site_keys_input_archive).
 */
void gs_site_keys_input_key(const gs_site_ctx *c, const gs_site_learnt_item *in,
		       char (*rels)[GS_EVIDENCE_REL_SIZE], char hex[GS_SHA256_HEX_SIZE])
{
	struct sha256_ctx h;
	size_t k;

	S_key_begin(c, in->sha256, &h);
	for (k = 0; k < in->nev; k++) {
		gs_evidence_archive_name(c->archive, gs_site_learnt_ev_sha256(in, k),
				gs_site_learnt_ev_file(in, k), rels[k]);
		S_key_file(&h, gs_site_learnt_ev_file(in, k), rels[k]);
	}
	S_key_end(&h, hex);
}

/*
 * Workload i of this build's range, trusted unread (in: what the stat
 * cache recorded of it, sizes: its cited files'): its sheet reused when its
 * key is the one it had, its cited files archived by their recorded
 * hashes, linked unread from the replaced site (else read:
 * gs_evidence_archive_add, which must find the same bytes). 1 reused, 0 not (the
 * caller reads the workload), -1 with err.
 */
int gs_site_keys_trusted(gs_site_ctx *c, size_t i, gs_site_input *in, const uint64_t *sizes,
		    size_t *done)
{
	size_t k, nev = in->ev_path.n;
	char (*rels)[GS_EVIDENCE_REL_SIZE] = gs_xcalloc(nev + 1, sizeof(*rels));
	char rel[GS_EVIDENCE_REL_SIZE], *sheet_rel;
	struct sha256_ctx h;
	int rc = 0;

	S_key_begin(c, in->sha256, &h);
	for (k = 0; k < nev; k++) {
		gs_evidence_archive_name(c->archive, in->ev_sha256.v[k], in->ev_file.v[k], rels[k]);
		S_key_file(&h, in->ev_file.v[k], rels[k]);
	}
	S_key_end(&h, c->key);
	if (!gs_site_keys_reuse(c, i, in->id, in->title, c->key)) {
		free(rels);
		return 0;
	}
	sheet_rel = gs_xasprintf("%s%s.html", c->env->sheet_prefix, in->id);
	for (k = 0; k < nev && rc == 0; k++) {
		gs_error ae = GS_ERROR_INIT;
		int r = gs_evidence_archive_add_known(c->archive, in->ev_sha256.v[k], sizes[k],
					     in->ev_file.v[k], sheet_rel, rel, &ae);
		if (r == 1)
			r = gs_evidence_archive_add(c->archive, in->ev_path.v[k], in->ev_file.v[k], sheet_rel,
					   rel, &ae);
		if (r) {
			gs_error_set(c->err, "%s: %s: %s", c->paths[i], in->ev_path.v[k],
				     gs_error_is_set(&ae) ? gs_error_message(&ae) : "cannot be archived");
			gs_error_release(&ae);
			rc = -1;
		} else if (strcmp(rel, rels[k]) != 0) {
			gs_error_set(c->err, "%s changed while the site was built",
				 in->ev_path.v[k]);
			rc = -1;
		}
	}
	free(sheet_rel);
	free(rels);
	if (rc)
		return -1;
	(*done)++;
	c->unread++;
	return gs_site_one_finish(c, i) ? -1 : 1;
}

/*
 * Sheet i reused unread (gs_site_keys_input_key): its cited files archived from their
 * paths, each read once, which must give the links of its key (the bytes
 * validated), else the file changed since. 0, or -1 with err.
 */
/* An imported measurement's log, archived with it as a loaded job does
 * (gs_publish_archive): the measurement read again for its import record, the
 * log checked against the SHA-256 it records. 0, or -1 with err. */
static int S_input_archive_log(gs_site_ctx *c, size_t i, const char *path,
			       const char *sheet_rel)
{
	gs_measurement m;
	gs_diag d = GS_DIAG_INIT;
	char rel[GS_EVIDENCE_REL_SIZE], *bytes = NULL;
	size_t len = 0;
	int rc = 0;

	if (gs_measurement_read(path, &m, &d) != 0) {
		gs_error_set(c->err, "%s changed while the site was built", path);
		gs_diag_release(&d);
		return -1;
	}
	gs_diag_release(&d);
	if (gs_publish_read_log(path, &m, &bytes, &len, c->err) != 0 ||
	    (bytes && gs_evidence_archive_add_log_bytes(c->archive, bytes, len, m.import_log_sha256,
					   m.import_log_name, sheet_rel, rel, c->err))) {
		gs_error_prefix(c->err, "%s: %s: ", c->paths[i], path);
		rc = -1;
	}
	free(bytes);
	gs_measurement_release(&m);
	return rc;
}

int gs_site_keys_input_archive(gs_site_ctx *c, size_t i, const gs_site_learnt_item *in,
			  char (*rels)[GS_EVIDENCE_REL_SIZE])
{
	char *sheet_rel = gs_xasprintf("%s%s.html", c->env->sheet_prefix, in->id);
	char rel[GS_EVIDENCE_REL_SIZE];
	size_t k;
	int rc = 0;

	for (k = 0; k < in->nev && rc == 0; k++) {
		const char *path = gs_site_learnt_ev_path(in, k), *name = gs_site_learnt_ev_file(in, k);
		char *from = NULL;
		if (strncmp(name, "model:", 6) == 0 && !c->prev_sheets) {
			gs_error_set(c->err, "%s: no replaced site to take the model's "
				 "files from", c->paths[i]);
			rc = -1;
			break;
		}
		if (strncmp(name, "model:", 6) == 0) {
			/* a model's file: the bytes the replaced site archived under
			 * the same hash (its key is the one this sheet had there) */
			size_t pl = strlen(c->prev_sheets) - strlen("sheets");
			path = from = gs_xasprintf("%.*s%s", (int)pl, c->prev_sheets, rels[k]);
		}
		rc = -1;
		if (gs_evidence_archive_add(c->archive, path, name, sheet_rel, rel, c->err))
			gs_error_prefix(c->err, "%s: %s: ", c->paths[i], path);
		else if (strcmp(rel, rels[k]) != 0)
			gs_error_set(c->err, "%s changed while the site was built", path);
		else
			rc = from ? 0 : S_input_archive_log(c, i, path, sheet_rel);
		free(from);
	}
	free(sheet_rel);
	return rc;
}

/* 1 if loaded job read the bytes in was validated with (its workload's: wsha). */
int gs_site_keys_same_input(const gs_job *job, const char *wsha, const gs_site_learnt_item *in)
{
	size_t k;

	if (strcmp(wsha, in->sha256) != 0 || job->nev + job->nm != in->nev)
		return 0;
	for (k = 0; k < job->nev; k++)
		if (strcmp(job->files[k].sha256, gs_site_learnt_ev_sha256(in, k)) != 0)
			return 0;
	for (k = 0; k < job->nm; k++)
		if (strcmp(job->mfiles[k].sha256, gs_site_learnt_ev_sha256(in, job->nev + k)) != 0)
			return 0;
	return 1;
}

/* dst as a hard link to src, else a copy; 0 or -1. */
static int S_link_or_copy(const char *src, const char *dir, const char *name)
{
	char *dst = gs_xasprintf("%s/%s", dir, name);
	int rc = link(src, dst);

	if (rc != 0) {
		size_t n;
		char *bytes = gs_outfile_read(src, &n);
		/* (the caller says what failed) */
		rc = bytes ? gs_outfile_write_atomic(dir, name, bytes, n, NULL) : -1;
		free(bytes);
	}
	free(dst);
	return rc;
}

/*
 * name linked from the folder open as from_fd (path from) into to_fd (path
 * to), by descriptors (no path walked per file), else copied; 0 or -1.
 */
static int S_link_at(int from_fd, int to_fd, const char *name, const char *from, const char *to)
{
	char *src;
	int rc;

	if (from_fd >= 0 && to_fd >= 0 && linkat(from_fd, name, to_fd, name, 0) == 0)
		return 0;
	src = gs_xasprintf("%s/%s", from, name);
	rc = S_link_or_copy(src, to, name);
	free(src);
	return rc;
}

/* qsort's: two JSON strings by length, then bytes. */
static int S_by_text(const void *a, const void *b)
{
	const json_t *x = *(const json_t *const *)a, *y = *(const json_t *const *)b;
	size_t lx = json_string_length(x), ly = json_string_length(y);

	if (lx != ly)
		return lx < ly ? -1 : 1;
	return memcmp(json_string_value(x), json_string_value(y), lx);
}

/*
 * 1 when why is the reasons of n offers as gs_site_one_why_pack writes
 * them: per offer a string, null or the index of an earlier string, no
 * text twice (sorted, equal texts are neighbours: no comparison of each
 * pair).
 */
static int S_why_as_written(json_t *why, size_t n)
{
	json_t **s;
	size_t k, ns = 0;
	int ok = json_is_array(why) && json_array_size(why) == n;

	if (!ok)
		return 0;
	s = gs_xcalloc(n + 1, sizeof(*s));
	for (k = 0; ok && k < n; k++) {
		json_t *e = json_array_get(why, k);
		json_int_t j = json_integer_value(e);
		if (json_is_string(e))
			s[ns++] = e;
		else if (!json_is_null(e) &&
			 !(json_is_integer(e) && j >= 0 && (size_t)j < k &&
			   json_is_string(json_array_get(why, (size_t)j))))
			ok = 0;
	}
	if (ok && ns > 1)
		qsort(s, ns, sizeof(*s), S_by_text);
	for (k = 1; ok && k < ns; k++)
		if (S_by_text(&s[k - 1], &s[k]) == 0)
			ok = 0;
	free(s);
	return ok;
}

/*
 * 1 when a sheet's line o (parsed from bytes, len of them, its newline
 * included), whose result is r, is the line a build writes of r: its
 * reasons as written (S_why_as_written); nothing but its files, key,
 * result and reasons; its result the one r packs again; its bytes the
 * compact dump with sorted keys. Only then are its bytes copied into the
 * new keys file as they are.
 */
static int S_as_written(json_t *o, const char *bytes, uint64_t len, const gs_publish_result *r)
{
	json_t *again;
	const size_t pl = sizeof("{\"sheet\":\"\",") - 1 + strlen(r->id);
	size_t tl;
	char *text;
	int ok;

	if (json_object_size(o) != 5 || !S_why_as_written(json_object_get(o, "why"), r->noffers))
		return 0;
	again = gs_site_one_result_pack(r);
	ok = json_equal(again, json_object_get(o, "result"));
	json_decref(again);
	if (!ok)
		return 0;
	/* the bytes after {"sheet":"ID", against a dump of the rest */
	json_object_del(o, "sheet");
	text = gs_jw_dumps(o, JSON_SORT_KEYS | JSON_COMPACT);
	if (!text)
		GS_BUG("json_dumps of a sheet's keys failed (out of memory)");
	tl = strlen(text);
	ok = len > pl && tl - 1 == len - pl && memcmp(bytes + pl, text + 1, tl - 1) == 0;
	free(text);
	return ok;
}

/*
 * Workload i's sheet from the replaced site, when its key is the one it had
 * there and its files are all there: 1 (c->cur filled, its line left in
 * the old keys file: c->span), else 0.
 */
int gs_site_keys_reuse(gs_site_ctx *c, size_t i, const char *id, const char *title, const char *key)
{
	const gs_site_keys_line *l = c->old.f ? gs_site_keys_find(&c->old, id) : NULL;
	json_t *o = NULL, *files, *f;
	const char *old_key;
	char *bytes = NULL;
	size_t k;

	(void)i;
	if (!l || !(o = gs_site_keys_load(&c->old, l, &bytes, NULL)))
		return 0;
	files = json_object_get(o, "files");
	old_key = json_string_value(json_object_get(o, "key"));
	if (!old_key || strcmp(old_key, key) != 0 || !json_is_array(files) ||
	    gs_site_one_result_unpack(json_object_get(o, "result"), c->env->cat, &c->cur))
		goto none;
	/* a keys file edited by hand must not change the index */
	if (strcmp(c->cur.id, id) != 0 || strcmp(c->cur.title, title) != 0 ||
	    c->cur.noffers != c->env->cat->noffers)
		goto no;
	if (!S_as_written(o, bytes, l->len, &c->cur))
		goto no;
	json_array_foreach(files, k, f) {
		const char *name = json_string_value(f);
		if (!name || !*name || strchr(name, '/') || name[0] == '.')
			goto no;
		if (S_link_at(c->prev_sheets_fd, c->sheets_fd, name, c->prev_sheets, c->sheets))
			goto no;
		gs_util_strvec_push_dup(&c->cur.files, name);
	}
	c->span.off = l->off;
	c->span.len = l->len;
	json_decref(o);
	free(bytes);
	return 1;
no:
	/* the rendering creates its files anew (never over a name) */
	for (k = 0; k < c->cur.files.n; k++)
		(void)unlinkat(c->sheets_fd, c->cur.files.v[k], 0);
	gs_publish_result_release(&c->cur);
none:
	json_decref(o);
	free(bytes);
	return 0;
}

/* n bytes of fd at off to f; 0 or -1. */
static int S_copy_range(int fd, uint64_t off, uint64_t n, FILE *f)
{
	char buf[16384];

	while (n) {
		size_t want = n < sizeof(buf) ? (size_t)n : sizeof(buf);
		ssize_t r = pread(fd, buf, want, (off_t)off);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0 || fwrite(buf, 1, (size_t)r, f) != (size_t)r)
			return -1;
		off += (uint64_t)r;
		n -= (uint64_t)r;
	}
	return 0;
}

/* The pages' lines (gs_site_pagekeys, keys computed again here), sorted by name. */
static void S_write_pages(const gs_site_pagekeys *pages, FILE *f)
{
	/* the pages' names, made for the sort and dropped (a few bytes a page) */
	gs_buf names = GS_BUF_INIT;
	size_t nt = pages->ntuples, j;
	size_t *at = gs_xcalloc(nt + 1, sizeof(*at));
	gs_site_idref *by = gs_xcalloc(nt + 1, sizeof(*by));

	for (j = 0; j < nt; j++) {
		char name[160];
		gs_site_pagekeys_tuple_name(pages, j, name, sizeof(name));
		at[j] = names.len;
		gs_buf_put(&names, name, strlen(name) + 1);
	}
	for (j = 0; j < nt; j++) {
		by[j].id = names.data + at[j];
		by[j].i = j;
	}
	free(at);
	qsort(by, nt, sizeof(*by), gs_site_pagekeys_by_id);
	for (j = 0; j < nt; j++) {
		json_t *name = json_string(by[j].id);
		char *tname = json_dumps(name, JSON_ENCODE_ANY), key[GS_SHA256_HEX_SIZE];
		if (!tname)
			GS_BUG("json_dumps of a page's name failed (out of memory)");
		gs_site_pagekeys_tuple_key(pages, by[j].i, key);
		fprintf(f, "{\"page\":%s,\"key\":\"%s\"}\n", tname, key);
		free(tname);
		json_decref(name);
	}
	free(by);
	gs_buf_release(&names);
}

/* Sheet i's line, from its result, files, key and reasons in rs; 0 or -1 with err. */
static int S_write_sheet(gs_site_results *rs, size_t i, FILE *f, gs_error *err)
{
	const gs_publish_result *r;
	json_t *o, *files;
	char *text;
	size_t k;

	if (gs_site_results_load(rs, i, i + 1, 1, err))
		return -1;
	r = gs_site_results_get(rs, i);
	o = json_object();
	files = json_array();
	for (k = 0; k < r->files.n; k++)
		json_array_append_new(files, json_string(r->files.v[k]));
	json_object_set_new(o, "key", json_string(gs_site_results_key(rs, i)));
	json_object_set_new(o, "files", files);
	json_object_set_new(o, "result", gs_site_one_result_pack(r));
	json_object_set_new(o, "why", gs_site_one_why_pack(rs, i, r->noffers));
	/* gs_jw_dumps: json_dumps's bytes, several times faster, and a newline */
	text = gs_jw_dumps(o, JSON_SORT_KEYS | JSON_COMPACT);
	json_decref(o);
	if (!text)
		GS_BUG("json_dumps of a sheet's keys failed (out of memory)");
	/* {"sheet":"ID", first, so that a reader finds the line by its prefix
	 * (an id needs no escape: gs_jr_is_id), then the sorted members */
	fprintf(f, "{\"sheet\":\"%s\",%s", r->id, text + 1);
	free(text);
	return 0;
}

/*
 * DIR/.gpusheet-keys.json (site_keys.h), a line at a time, never built as
 * one tree: the format's line, the pages' lines (pages: gs_site_pagekeys,
 * or NULL), then a line per sheet, sorted by id with strcmp, each dumped
 * from rs or, for a reused sheet (its span), the bytes of its line in the
 * replaced keys file (old_fd), which gs_site_keys_reuse checked to be what
 * a dump writes.
 */
int gs_site_keys_write(gs_site_results *rs, int old_fd, const gs_site_pagekeys *pages, const char *dir,
		       gs_error *err)
{
	gs_outstream *os = gs_outfile_stream_open(dir, GS_SITE_KEYS_FILE, err);
	size_t n = gs_site_results_count(rs);
	gs_site_idref *order;
	FILE *f;
	size_t i, j;

	if (!os)
		return -1;
	f = gs_outfile_stream_file(os);
	fputs("{\"format\":\"" GS_SITE_KEYS_FORMAT "\"}\n", f);
	if (pages && pages->ntuples)
		S_write_pages(pages, f);
	/* (the ids stay in memory, site_results.h: an id and an index a sheet here) */
	order = gs_xcalloc(n + 1, sizeof(*order));
	for (i = 0; i < n; i++) {
		order[i].id = gs_site_results_id(rs, i);
		order[i].i = i;
	}
	qsort(order, n, sizeof(*order), gs_site_pagekeys_by_id);
	for (j = 0; j < n; j++) {
		gs_site_span sp;
		/* (without its reasons: a reused sheet's line is copied as it is) */
		if (gs_site_results_load(rs, order[j].i, order[j].i + 1, 0, err))
			goto fail;
		sp = gs_site_results_span(rs, order[j].i);
		if (sp.len && S_copy_range(old_fd, sp.off, sp.len, f)) {
			gs_error_set(err, "%s: cannot read the replaced keys file: %s",
				     GS_SITE_KEYS_FILE, strerror(errno));
			goto fail;
		}
		if (!sp.len && S_write_sheet(rs, order[j].i, f, err))
			goto fail;
	}
	free(order);
	return gs_outfile_stream_commit(os, err);
fail:
	free(order);
	gs_outfile_stream_abort(os);
	return -1;
}

/* Sheet id's line l of kf, parsed into r; 0, or -1 with err naming the line. */
static int S_read_sheet(const gs_site_keys *kf, const gs_site_keys_line *l, const char *id,
			const gs_catalog *cat, gs_publish_result *r, char key[GS_SHA256_HEX_SIZE],
			gs_error *err)
{
	size_t lineno = gs_site_keys_lineno(kf, l), m;
	gs_error why = GS_ERROR_INIT;
	json_t *o = gs_site_keys_load(kf, l, NULL, &why), *files, *f;
	const char *k, *bad = NULL;

	if (!o) {
		gs_error_set(err, "%s: %s", GS_SITE_KEYS_FILE, gs_error_message(&why));
		gs_error_release(&why);
		return -1;
	}
	files = json_object_get(o, "files");
	k = json_string_value(json_object_get(o, "key"));
	memset(r, 0, sizeof(*r));
	if (!k || !gs_evidence_sha256_hex_valid(k) || !json_is_array(files) ||
	    gs_site_one_result_unpack(json_object_get(o, "result"), cat, r))
		bad = "not a sheet's key, files and result for this catalog";
	else if (gs_site_one_why_unpack(json_object_get(o, "why"), r))
		bad = "\"why\": expected a reason (or null) per offer";
	else if (strcmp(r->id, id) != 0)
		bad = "\"result\".\"id\": another id";
	json_array_foreach(files, m, f) {
		const char *name = json_string_value(f);
		if (bad)
			break;
		if (!name || !*name || strchr(name, '/') || name[0] == '.')
			bad = "\"files\": expected file names";
		else
			gs_util_strvec_push_dup(&r->files, name);
	}
	if (!bad)
		snprintf(key, GS_SHA256_HEX_SIZE, "%s", k);
	json_decref(o);
	if (!bad)
		return 0;
	gs_error_set(err, "%s: line %zu: sheet %s: %s", GS_SITE_KEYS_FILE, lineno, id, bad);
	gs_publish_result_release(r);
	return -1;
}

int gs_site_keys_read(const char *dir, const gs_catalog *cat, char *const *ids, size_t n,
		      gs_site_results *rs, gs_error *err)
{
	gs_site_keys kf;
	gs_error why = GS_ERROR_INIT;
	size_t i;
	int rc = -1;

	if (gs_site_keys_open(dir, &kf, &why)) {
		gs_error_set(err, "%s: %s", GS_SITE_KEYS_FILE, gs_error_message(&why));
		gs_error_release(&why);
		return -1;
	}
	for (i = 0; i < n; i++) {
		const gs_site_keys_line *l = gs_site_keys_find(&kf, ids[i]);
		gs_publish_result r;
		char key[GS_SHA256_HEX_SIZE];
		if (!l) {
			gs_error_set(err, "%s: no line for sheet %s", GS_SITE_KEYS_FILE, ids[i]);
			goto out;
		}
		if (S_read_sheet(&kf, l, ids[i], cat, &r, key, err) ||
		    gs_site_results_put(rs, &r, key, NULL, err))
			goto out;
	}
	rc = 0;
out:
	gs_site_keys_close(&kf);
	return rc;
}
