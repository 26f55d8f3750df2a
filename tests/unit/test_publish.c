/*
 * test_publish: a cited file is read once, by gs_publish_load, and what the
 * job does later takes its bytes from the job: the SHA-256 kept, the
 * archive (gs_publish_archive) and the published sheet's evidence hold the
 * bytes that were parsed, even when the file changes on disk after the
 * load (the file is not read again). The same file cited twice is read
 * once (its bytes shared, freed once: the sanitizers check it).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "catalog.h"
#include "check.h"
#include "evidence.h"
#include "labels.h"
#include "outfile.h"
#include "publish.h"
#include "render.h"

#ifndef GS_TEST_SOURCE_DIR
#error "GS_TEST_SOURCE_DIR must name the source tree"
#endif

static char *S_cat(const char *a, const char *b)
{
	char *p;

	if (asprintf(&p, "%s/%s", a, b) < 0)
		abort();
	return p;
}

static void S_write(const char *path, const char *text, size_t n)
{
	FILE *f = fopen(path, "wb");

	if (!f || fwrite(text, 1, n, f) != n || fclose(f) != 0) {
		perror(path);
		exit(2);
	}
}

/* 1 if path holds exactly bytes[0..n). */
static int S_holds(const char *path, const char *bytes, size_t n)
{
	size_t got = 0;
	char *b = gs_outfile_read(path, &got);
	int same = b && got == n && memcmp(b, bytes, n) == 0;

	free(b);
	return same;
}

/*
 * The probe-dense example copied into dir (its workload, citing its
 * measurement twice when twice), the measurement's bytes into *orig.
 */
static char *S_copy_example(const char *dir, int twice, char **orig, size_t *orig_len)
{
	char *src_w = S_cat(GS_TEST_SOURCE_DIR, "examples/probe-dense/workload.json");
	char *src_m = S_cat(GS_TEST_SOURCE_DIR,
			    "examples/probe-dense/measurements/h200-probe-dense.json");
	char *wp = S_cat(dir, "workload.json"), *md = S_cat(dir, "measurements");
	char *mp = S_cat(md, "h200-probe-dense.json"), *text;
	json_t *root, *ev;
	size_t n;

	CHECK(mkdir(dir, 0755) == 0 && mkdir(md, 0755) == 0);
	*orig = gs_outfile_read(src_m, orig_len);
	if (!*orig)
		abort();
	S_write(mp, *orig, *orig_len);
	root = json_load_file(src_w, 0, NULL);
	ev = json_object_get(root, "evidence");
	if (!json_is_array(ev) || json_array_size(ev) != 1)
		abort();
	if (twice)
		json_array_append(ev, json_array_get(ev, 0));
	text = json_dumps(root, JSON_INDENT(2));
	n = strlen(text);
	S_write(wp, text, n);
	free(text);
	json_decref(root);
	free(src_w);
	free(src_m);
	free(md);
	free(mp);
	return wp;
}

static void S_test(const char *tmp, const gs_catalog *cat, const gs_strings *t,
		   const gs_templates *tp)
{
	char *wdir = S_cat(tmp, "w"), *site = S_cat(tmp, "site"), *wp, *orig, *mp, *p, *html;
	char hex[GS_SHA256_HEX_SIZE], rel[GS_EVIDENCE_REL_SIZE];
	gs_error err = GS_ERROR_INIT;
	static const char changed[] = "{\"changed\": \"after the load\"}\n";
	gs_diag d = GS_DIAG_INIT;
	gs_publish_env env;
	gs_publish_result res;
	gs_archive *a;
	gs_job job;
	size_t orig_len, n;

	wp = S_copy_example(wdir, 1, &orig, &orig_len);
	mp = S_cat(wdir, "measurements/h200-probe-dense.json");
	gs_evidence_sha256_buffer(orig, orig_len, hex);
	if (!CHECK(gs_publish_load(wp, cat, &job, &d) == 0)) {
		gs_diag_print(&d, stderr);
		abort();
	}
	/* kept with the job: the bytes read, their SHA-256; once, for two citations */
	CHECK(job.nev == 2);
	CHECK(job.files[0].len == orig_len && memcmp(job.files[0].bytes, orig, orig_len) == 0);
	CHECK_STR(job.files[0].sha256, hex);
	CHECK(job.files[1].bytes == job.files[0].bytes && job.files[1].shared);
	CHECK_STR(job.files[1].sha256, hex);
	CHECK(job.files[0].rel[0] == '\0');

	/* the file changes on disk after the load: the job's bytes are archived */
	S_write(mp, changed, sizeof(changed) - 1);
	CHECK(mkdir(site, 0755) == 0);
	a = gs_evidence_archive(site, &err);
	CHECK(gs_publish_archive(&job, a, "sheets/w.html", &err) == 0);
	snprintf(rel, sizeof(rel), "evidence/%s.json", hex);
	CHECK_STR(job.files[0].rel, rel);
	CHECK_STR(job.files[1].rel, rel);
	CHECK(gs_evidence_archive_added(a) == 1);
	p = S_cat(site, rel);
	CHECK(S_holds(p, orig, orig_len));
	/* archived once: publishing keeps the links (and writes the sheet) */
	memset(&env, 0, sizeof(env));
	env.cat = cat;
	env.catalog_name = "offers.xml";
	env.t = t;
	env.tp = tp;
	env.date = "2026-11-29";
	env.link_prefix = "";
	env.sheet_prefix = "";
	env.accept_synthetic = 1;
	env.write_manifest = 1;
	CHECK(gs_publish_job(&job, &env, a, site, NULL, &res, &err) == 0);
	CHECK(!gs_error_is_set(&err));
	CHECK(gs_evidence_archive_added(a) == 1);
	CHECK(S_holds(p, orig, orig_len));
	free(p);
	p = S_cat(site, "probe-dense.html");
	html = gs_outfile_read(p, &n);
	CHECK(html && strstr(html, rel));
	free(html);
	free(p);
	gs_publish_result_release(&res);
	gs_evidence_archive_free(a);
	gs_error_release(&err);
	gs_publish_release(&job);
	gs_diag_release(&d);

	free(mp);
	free(wp);
	free(orig);
	free(wdir);
	free(site);
}

/* orig with its first "from" replaced by "to", written to dir's measurement. */
static void S_rewrite(const char *dir, const char *orig, const char *from, const char *to)
{
	char *mp = S_cat(dir, "measurements/h200-probe-dense.json");
	const char *at = strstr(orig, from);
	char *text;

	if (!at || asprintf(&text, "%.*s%s%s", (int)(at - orig), orig, to, at + strlen(from)) < 0)
		abort();
	S_write(mp, text, strlen(text));
	free(text);
	free(mp);
}

/* 1 when some message of d is about a file under dir. */
static int S_diag_names(const gs_diag *d, const char *dir)
{
	size_t i;

	for (i = 0; i < d->count; i++)
		if (d->items[i].file && strstr(d->items[i].file, dir))
			return 1;
	return 0;
}

/*
 * Parsed measurements are kept by their bytes (publish.c's cache): the same
 * bytes cited from another workload give the same measurement under that
 * workload's path, in memory of its own (each job frees its own: the
 * sanitizers check it); bytes that differ by one character (the seed, 1234
 * and 1235) give their own figures, whichever was parsed first; bytes that
 * do not parse are refused again, under each path that cites them.
 */
static void S_test_cache(const char *tmp, const gs_catalog *cat)
{
	const char *names[5] = { "c1", "c2", "c3", "c4", "c5" };
	char *dirs[5], *wps[5], *orig = NULL, *o;
	gs_diag d[5] = { GS_DIAG_INIT, GS_DIAG_INIT, GS_DIAG_INIT, GS_DIAG_INIT, GS_DIAG_INIT };
	gs_job jobs[5];
	int rc[5], i;
	size_t len, k;

	for (i = 0; i < 5; i++) {
		dirs[i] = S_cat(tmp, names[i]);
		wps[i] = S_copy_example(dirs[i], 0, &o, &len);
		if (i == 0)
			orig = o;
		else
			free(o);
	}
	S_rewrite(dirs[2], orig, "\"seed\": 1234", "\"seed\": 1235");
	S_rewrite(dirs[3], orig, "\"schema_version\": 1", "\"schema_version\": 2");
	S_rewrite(dirs[4], orig, "\"schema_version\": 1", "\"schema_version\": 2");
	for (i = 0; i < 5; i++)
		rc[i] = gs_publish_load(wps[i], cat, &jobs[i], &d[i]);
	CHECK(rc[0] == 0 && rc[1] == 0 && rc[2] == 0);
	if (rc[0] == 0 && rc[1] == 0) {
		const gs_measurement *a = &jobs[0].ms[0], *b = &jobs[1].ms[0];

		CHECK(strstr(a->path, "/c1/") != NULL);
		CHECK(strstr(b->path, "/c2/") != NULL);
		CHECK_STR(b->code, a->code);
		CHECK_STR(b->synthetic_note, a->synthetic_note);
		CHECK(b->seed.has && b->seed.v == 1234 && a->seed.v == 1234);
		CHECK(b->ndims == a->ndims && b->ndims > 0 && b->dims != a->dims);
		for (k = 0; k < a->ndims && k < b->ndims; k++) {
			CHECK_STR(b->dims[k].name, a->dims[k].name);
			CHECK_STR(b->dims[k].value, a->dims[k].value);
		}
		CHECK(b->nphases == a->nphases && b->nphases > 0 && b->phases != a->phases);
		for (k = 0; k < a->nphases && k < b->nphases; k++) {
			CHECK_STR(b->phases[k].name, a->phases[k].name);
			CHECK(b->phases[k].name != a->phases[k].name);
			CHECK(b->phases[k].alloc_peak.has == a->phases[k].alloc_peak.has &&
			      b->phases[k].alloc_peak.v == a->phases[k].alloc_peak.v);
		}
		CHECK(b->ndevices == a->ndevices && b->ndevices > 0);
		if (b->ndevices && a->ndevices)
			CHECK_STR(b->devices[0].name, a->devices[0].name);
	}
	if (rc[2] == 0)
		CHECK(jobs[2].ms[0].seed.v == 1235);
	CHECK(rc[3] != 0 && S_diag_names(&d[3], "/c4/"));
	CHECK(rc[4] != 0 && S_diag_names(&d[4], "/c5/") && !S_diag_names(&d[4], "/c4/"));
	for (i = 0; i < 5; i++) {
		gs_publish_release(&jobs[i]);
		gs_diag_release(&d[i]);
		free(wps[i]);
		free(dirs[i]);
	}
	free(orig);
}

int main(void)
{
	char tmpl[] = "/tmp/gs-test-publish-XXXXXX";
	char *tmp = mkdtemp(tmpl), *cp, *rng, *cmd, err[256];
	gs_diag d = GS_DIAG_INIT;
	gs_catalog cat;
	gs_strings t;
	gs_templates tp;

	if (!tmp) {
		perror("mkdtemp");
		return 2;
	}
	gs_error terr = GS_ERROR_INIT;

	err[0] = '\0';
	setenv("GPUSHEET_DATADIR", GS_TEST_SOURCE_DIR, 1);
	cp = S_cat(GS_TEST_SOURCE_DIR, "catalog/offers.xml");
	rng = S_cat(GS_TEST_SOURCE_DIR, "catalog/catalog.rng");
	if (gs_catalog_read(cp, rng, &cat, &d) || gs_tr_load(GS_LANG_EN, &t, &d) ||
	    gs_render_templates_load(&tp, &terr)) {
		gs_diag_print(&d, stderr);
		fprintf(stderr, "%s%s\n", err, gs_error_message(&terr));
		return 2;
	}
	S_test(tmp, &cat, &t, &tp);
	S_test_cache(tmp, &cat);
	gs_render_templates_release(&tp);
	gs_tr_release(&t);
	gs_catalog_release(&cat);
	gs_diag_release(&d);
	if (asprintf(&cmd, "rm -rf '%s'", tmp) < 0)
		abort();
	if (system(cmd) != 0)
		fprintf(stderr, "cannot remove %s\n", tmp);
	free(cmd);
	free(cp);
	free(rng);
	return gs_check_exit("test_publish");
}
