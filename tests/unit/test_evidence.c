/* Unit tests: evidence archive (gen/publish/evidence.c) and site verification
 * (gen/publish/verify.c), on a temporary site folder. */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE

#include "evidence.h"
#include "verify.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "check.h"

/* The archive's messages (error.h): each failure replaces it, a success leaves it. */
static gs_error S_ae = GS_ERROR_INIT;

static char *S_path(const char *a, const char *b)
{
	size_t n = strlen(a) + strlen(b) + 2;
	char *r = malloc(n);

	if (!r)
		abort();
	snprintf(r, n, "%s/%s", a, b);
	return r;
}

static void S_write(const char *path, const char *text, size_t n)
{
	FILE *f = fopen(path, "wb");

	if (!f) {
		perror(path);
		exit(2);
	}
	if (n && fwrite(text, 1, n, f) != n) {
		perror(path);
		exit(2);
	}
	fclose(f);
}

static void S_write_str(const char *dir, const char *rel, const char *text)
{
	char *p = S_path(dir, rel);

	S_write(p, text, strlen(text));
	free(p);
}

static char *S_read(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)n + 1);
	if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n)
		abort();
	buf[n] = '\0';
	fclose(f);
	if (len)
		*len = (size_t)n;
	return buf;
}

static void S_rm_rf(const char *path)
{
	struct stat st;
	DIR *d;
	struct dirent *de;

	if (lstat(path, &st) != 0)
		return;
	if (S_ISDIR(st.st_mode) && (d = opendir(path)) != NULL) {
		while ((de = readdir(d)) != NULL) {
			char *c;
			if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
				continue;
			c = S_path(path, de->d_name);
			S_rm_rf(c);
			free(c);
		}
		closedir(d);
		rmdir(path);
	} else {
		unlink(path);
	}
}

/* Run verify; returns its count, *out the report (caller frees). */
static int S_verify(const char *site, char **out)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int n;

	if (!f)
		abort();
	n = gs_verify_site(site, f);
	fclose(f);
	*out = buf;
	return n;
}

static int S_has_line(const char *report, const char *line)
{
	size_t n = strlen(line);
	const char *p = report;

	while ((p = strstr(p, line)) != NULL) {
		if ((p == report || p[-1] == '\n') && p[n] == '\n')
			return 1;
		p += n;
	}
	return 0;
}

static void S_test_sha256(const char *tmp)
{
	char hex[GS_SHA256_HEX_SIZE];
	char *p = S_path(tmp, "abc.txt");
	uint64_t size = 0;
	unsigned char bytes[3] = { 0x00, 0xab, 0xff };

	gs_evidence_sha256_buffer("abc", 3, hex);
	CHECK_STR(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	S_write(p, "abc", 3);
	CHECK(gs_evidence_sha256_file(p, hex, &size) == 0);
	CHECK(size == 3);
	CHECK_STR(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	gs_evidence_sha256_buffer("", 0, hex);
	CHECK_STR(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	CHECK(gs_evidence_sha256_hex_valid(hex));
	CHECK(!gs_evidence_sha256_hex_valid("abc"));
	gs_evidence_hex_encode(bytes, 3, hex);
	CHECK_STR(hex, "00abff");
	CHECK(gs_evidence_sha256_file("/nonexistent/gs-test", hex, NULL) == -1);
	free(p);
}

typedef struct {
	ino_t ino;
	struct timespec mtime;
} S_stamp;

static S_stamp S_stamp_of(const char *path)
{
	struct stat st;
	S_stamp s;

	memset(&s, 0, sizeof(s));
	if (stat(path, &st) == 0) {
		s.ino = st.st_ino;
		s.mtime = st.st_mtim;
	}
	return s;
}

static int S_same_stamp(S_stamp a, S_stamp b)
{
	return a.ino == b.ino && a.mtime.tv_sec == b.mtime.tv_sec &&
	       a.mtime.tv_nsec == b.mtime.tv_nsec;
}

/* One build: archive both files, write the manifest. */
static void S_build(const char *site, const char *src_a, const char *src_b,
		    char rel_a[GS_EVIDENCE_REL_SIZE],
		    char rel_b[GS_EVIDENCE_REL_SIZE], size_t *added)
{
	gs_archive *a;
	char *abs_b = S_path(site, "sheets/b.html");
	char again[GS_EVIDENCE_REL_SIZE];

	gs_error_release(&S_ae);
	a = gs_evidence_archive(site, &S_ae);
	CHECK(a != NULL);
	CHECK(!gs_error_is_set(&S_ae));
	CHECK(gs_evidence_archive_add(a, src_a, "run-a.json", "sheets/a.html", rel_a, &S_ae) == 0);
	CHECK(gs_evidence_archive_add(a, src_a, "run-a.json", abs_b, again, &S_ae) == 0);
	CHECK_STR(again, rel_a);
	CHECK(gs_evidence_archive_add(a, src_b, "run-b.JSON", "./sheets/b.html", rel_b, &S_ae) == 0);
	CHECK(gs_evidence_archive_count(a) == 2);
	CHECK(gs_evidence_archive_write_manifest(a, &S_ae) == 0);
	CHECK(!gs_error_is_set(&S_ae));
	*added = gs_evidence_archive_added(a);
	gs_evidence_archive_free(a);
	free(abs_b);
}

static void S_check_manifest(const char *site, const char *hash_a,
			     const char *hash_b)
{
	char *p = S_path(site, "evidence/manifest.json");
	json_error_t err;
	json_t *root = json_load_file(p, JSON_REJECT_DUPLICATES, &err);
	json_t *entries, *ea, *eb;

	CHECK(root != NULL);
	if (!root) {
		free(p);
		return;
	}
	CHECK(json_is_string(json_object_get(root, "format")));
	entries = json_object_get(root, "entries");
	CHECK(json_object_size(entries) == 2);
	ea = json_object_get(entries, hash_a);
	eb = json_object_get(entries, hash_b);
	CHECK(ea && eb);
	if (ea && eb) {
		json_t *c = json_object_get(ea, "cited_by");
		CHECK_STR(json_string_value(json_object_get(ea, "sha256")), hash_a);
		CHECK(json_integer_value(json_object_get(ea, "size")) == 26);
		CHECK(json_array_size(c) == 2);
		CHECK_STR(json_string_value(json_array_get(c, 0)), "sheets/a.html");
		CHECK_STR(json_string_value(json_array_get(c, 1)), "sheets/b.html");
		CHECK(json_array_size(json_object_get(ea, "names")) == 1);
		CHECK_STR(json_string_value(json_array_get(json_object_get(eb, "names"), 0)),
			  "run-b.JSON");
		c = json_object_get(eb, "cited_by");
		CHECK(json_array_size(c) == 1);
		CHECK_STR(json_string_value(json_array_get(c, 0)), "sheets/b.html");
	}
	json_decref(root);
	free(p);
}

static void S_test_site(const char *tmp)
{
	char *site = S_path(tmp, "site"), *srcdir = S_path(tmp, "src");
	char *src_a = S_path(srcdir, "run-a.json"), *src_b = S_path(srcdir, "run-b.JSON");
	char rel_a[GS_EVIDENCE_REL_SIZE], rel_b[GS_EVIDENCE_REL_SIZE];
	char rel_a2[GS_EVIDENCE_REL_SIZE], rel_b2[GS_EVIDENCE_REL_SIZE];
	char hash_a[GS_SHA256_HEX_SIZE], hash_b[GS_SHA256_HEX_SIZE];
	char *ev_a, *ev_b, *manifest, *m1, *m2, *report, *report2, *page;
	char *p, *want;
	size_t added = 0, n1 = 0, n2 = 0;
	S_stamp sa, sb, sm;
	const char *content_a = "{\"phase\": \"warm_forward\"}\n"; /* 26 bytes */
	const char *content_b = "{\"phase\": \"cold_forward\", \"ok\": false}\n";
	int n;

	CHECK(mkdir(site, 0755) == 0);
	CHECK(mkdir(srcdir, 0755) == 0);
	p = S_path(site, "sheets");
	CHECK(mkdir(p, 0755) == 0);
	free(p);
	S_write(src_a, content_a, strlen(content_a));
	S_write(src_b, content_b, strlen(content_b));
	gs_evidence_sha256_buffer(content_a, strlen(content_a), hash_a);
	gs_evidence_sha256_buffer(content_b, strlen(content_b), hash_b);

	/* a site without evidence/ has nothing to verify there */
	CHECK(S_verify(site, &report) == 0);
	free(report);

	/* first build */
	S_build(site, src_a, src_b, rel_a, rel_b, &added);
	CHECK(added == 2);
	want = malloc(200);
	snprintf(want, 200, "evidence/%s.json", hash_a);
	CHECK_STR(rel_a, want);
	snprintf(want, 200, "evidence/%s.json", hash_b);
	CHECK_STR(rel_b, want); /* extension lowercased */
	ev_a = S_path(site, rel_a);
	ev_b = S_path(site, rel_b);
	manifest = S_path(site, "evidence/manifest.json");
	m1 = S_read(ev_a, &n1);
	CHECK(m1 && n1 == strlen(content_a) && memcmp(m1, content_a, n1) == 0);
	free(m1);
	S_check_manifest(site, hash_a, hash_b);

	/* pages linking to each other and to the evidence (only the sheets
	 * the manifest cites link to it: verify checks both ways) */
	page = malloc(4096);
	snprintf(page, 4096,
		 "<!DOCTYPE html><html><head><title>Index</title>"
		 "<link rel=\"stylesheet\" href=\"style.css?v=1\"></head><body>"
		 "<h1 id=\"intro\">Sheets</h1><a href=\"#intro\">top</a> "
		 "<a href=\"sheets/a.html#verdicts\">A</a> "
		 "<a href=\"sheets/b.html\">B</a> <a href=\"sheets/\">all</a> "
		 "<a href=\"mailto:x@example.org\">m</a>"
		 "<img src=\"img/chart%%20one.svg\" alt=\"\">"
		 "</body></html>\n");
	S_write_str(site, "index.html", page);
	S_write_str(site, "style.css", "body{}\n");
	p = S_path(site, "img");
	CHECK(mkdir(p, 0755) == 0);
	free(p);
	S_write_str(site, "img/chart one.svg", "<svg/>\n");
	snprintf(page, 4096,
		 "<!DOCTYPE html><html><head><title>A</title></head><body>"
		 "<h2 id=\"verdicts\">Verdicts</h2>"
		 "<a href=\"../index.html#intro\">home</a> "
		 "<a href=\"b.html#run\">B</a> <a href=\"../%s\">raw</a> "
		 "<a href=\"#verdicts\">here</a></body></html>\n", rel_a);
	S_write_str(site, "sheets/a.html", page);
	snprintf(page, 4096,
		 "<!DOCTYPE html><html><head><title>B</title></head><body>"
		 "<a name=\"run\"></a><a href=\"./a.html\">A</a> "
		 "<a href=\"../%s\">raw A</a> <a href=\"../%s\">raw B</a>"
		 "</body></html>\n", rel_a, rel_b);
	S_write_str(site, "sheets/b.html", page);
	S_write_str(site, "sheets/index.html",
		    "<html><body><a href=\"a.html\">a</a>"
		    "<a href=\"..\">up</a></body></html>\n");
	n = S_verify(site, &report);
	CHECK(n == 0);
	if (n != 0)
		fprintf(stderr, "unexpected report:\n%s", report);
	free(report);

	/* second build over the same folder: nothing added, nothing touched */
	sa = S_stamp_of(ev_a);
	sb = S_stamp_of(ev_b);
	sm = S_stamp_of(manifest);
	m1 = S_read(manifest, &n1);
	S_build(site, src_a, src_b, rel_a2, rel_b2, &added);
	CHECK(added == 0);
	CHECK(strcmp(rel_a, rel_a2) == 0 && strcmp(rel_b, rel_b2) == 0);
	m2 = S_read(manifest, &n2);
	CHECK(m1 && m2 && n1 == n2 && memcmp(m1, m2, n1) == 0);
	CHECK(S_same_stamp(sa, S_stamp_of(ev_a)));
	CHECK(S_same_stamp(sb, S_stamp_of(ev_b)));
	CHECK(S_same_stamp(sm, S_stamp_of(manifest)));
	free(m2);

	/* a later build that cites only one file keeps the other entry */
	{
		gs_archive *a = gs_evidence_archive(site, &S_ae);
		CHECK(gs_evidence_archive_count(a) == 2);
		CHECK(gs_evidence_archive_add(a, src_a, "renamed.json", "sheets/c.html", NULL, &S_ae) == 0);
		CHECK(gs_evidence_archive_write_manifest(a, &S_ae) == 0);
		CHECK(gs_evidence_archive_added(a) == 0);
		gs_evidence_archive_free(a);
		a = gs_evidence_archive(site, &S_ae);
		CHECK(gs_evidence_archive_count(a) == 2);
		gs_evidence_archive_free(a);
		m2 = S_read(manifest, &n2);
		CHECK(m2 && strstr(m2, "\"renamed.json\"") && strstr(m2, "\"run-a.json\""));
		CHECK(m2 && strstr(m2, "\"sheets/c.html\"") && strstr(m2, hash_b));
		free(m2);
		/* put back the first manifest for the checks below */
		S_write(manifest, m1, n1);
	}
	free(m1);

	/* one byte changed in an archived file */
	S_write(ev_a, "{\"phase\": \"warm_forwarD\"}\n", strlen(content_a));
	n = S_verify(site, &report);
	CHECK(n == 1);
	{
		char found[GS_SHA256_HEX_SIZE];
		gs_evidence_sha256_file(ev_a, found, NULL);
		snprintf(page, 4096, "%s: hash mismatch (expected %s, found %s)",
			 rel_a, hash_a, found);
		CHECK(S_has_line(report, page));
	}
	free(report);
	/* the archive refuses to overwrite it */
	{
		gs_archive *a = gs_evidence_archive(site, &S_ae);
		CHECK(gs_evidence_archive_add(a, src_a, "run-a.json", "sheets/a.html", NULL, &S_ae) == -1);
		CHECK(strstr(gs_error_message(&S_ae), "not overwritten"));
		gs_evidence_archive_free(a);
		m2 = S_read(ev_a, &n2);
		CHECK(m2 && strcmp(m2, "{\"phase\": \"warm_forwarD\"}\n") == 0);
		free(m2);
	}
	S_write(ev_a, content_a, strlen(content_a));
	/* size changed */
	S_write(ev_a, "{}\n", 3);
	n = S_verify(site, &report);
	CHECK(n == 1);
	snprintf(page, 4096, "%s: size mismatch (expected %zu, found 3)", rel_a,
		 strlen(content_a));
	CHECK(S_has_line(report, page));
	free(report);
	S_write(ev_a, content_a, strlen(content_a));

	/* a deleted file: missing, and the pages' links to it are broken */
	CHECK(unlink(ev_b) == 0);
	n = S_verify(site, &report);
	snprintf(page, 4096, "%s: missing file", rel_b);
	CHECK(S_has_line(report, page));
	snprintf(page, 4096, "sheets/b.html: broken link: ../%s", rel_b);
	CHECK(S_has_line(report, page));
	CHECK(n == 2);
	free(report);
	S_write(ev_b, content_b, strlen(content_b));

	/* a stray file in evidence/ */
	S_write_str(site, "evidence/stray.json", "{}\n");
	n = S_verify(site, &report);
	CHECK(n == 1);
	CHECK(S_has_line(report, "evidence/stray.json: not in manifest"));
	free(report);
	p = S_path(site, "evidence/stray.json");
	unlink(p);
	free(p);

	/* a page with every kind of bad link */
	S_write_str(site, "sheets/bad.html",
		    "<html><head><script src=\"https://cdn.example/x.js\"></script>"
		    "<style>@import \"//fonts.example/f.css\"; "
		    "body{background:url('../img/chart%20one.svg')}</style></head>"
		    "<body><a href=\"nothere.html\">x</a>"
		    "<a href=\"javascript:alert(1)\">y</a>"
		    "<a href=\"#missing-anchor\">z</a>"
		    "<a href=\"a.html#nope\">w</a>"
		    "<a href=\"../../outside.html\">o</a>"
		    "<a href=\"/etc/passwd\">abs</a>"
		    "<img srcset=\"../img/chart%20one.svg 1x, ../img/gone.svg 2x\">"
		    "<a href=\"a.html#verdicts\">fine</a>"
		    "</body></html>\n");
	n = S_verify(site, &report);
	CHECK(S_has_line(report, "sheets/bad.html: external request: https://cdn.example/x.js"));
	CHECK(S_has_line(report, "sheets/bad.html: external request: //fonts.example/f.css"));
	CHECK(S_has_line(report, "sheets/bad.html: broken link: nothere.html"));
	CHECK(S_has_line(report, "sheets/bad.html: script link: javascript:alert(1)"));
	CHECK(S_has_line(report, "sheets/bad.html: missing anchor: #missing-anchor"));
	CHECK(S_has_line(report, "sheets/bad.html: missing anchor: a.html#nope"));
	CHECK(S_has_line(report, "sheets/bad.html: link escapes the site: ../../outside.html"));
	CHECK(S_has_line(report, "sheets/bad.html: absolute path: /etc/passwd"));
	CHECK(S_has_line(report, "sheets/bad.html: broken link: ../img/gone.svg"));
	CHECK(n == 9);
	if (n != 9)
		fprintf(stderr, "report:\n%s", report);
	/* deterministic */
	CHECK(S_verify(site, &report2) == n);
	CHECK_STR(report, report2);
	free(report);
	free(report2);
	p = S_path(site, "sheets/bad.html");
	unlink(p);
	free(p);

	/* evidence/ without its manifest */
	p = S_path(tmp, "manifest.saved");
	CHECK(rename(manifest, p) == 0);
	n = S_verify(site, &report);
	CHECK(n == 1);
	CHECK(S_has_line(report, "evidence/manifest.json: missing manifest"));
	free(report);
	CHECK(rename(p, manifest) == 0);
	free(p);
	CHECK(S_verify(site, &report) == 0);
	free(report);

	/* a folder that cannot be read */
	p = S_path(tmp, "no-such-site");
	CHECK(S_verify(p, &report) == -1);
	free(report);
	free(p);

	free(page);
	free(want);
	free(ev_a);
	free(ev_b);
	free(manifest);
	free(src_a);
	free(src_b);
	free(site);
	free(srcdir);
}

static void S_test_archive_edges(const char *tmp)
{
	char *site = S_path(tmp, "site2"), *src = S_path(tmp, "raw"), *p;
	char rel[GS_EVIDENCE_REL_SIZE], hex[GS_SHA256_HEX_SIZE];
	gs_archive *a;
	char *big;
	size_t bign = ((size_t)64 << 20) + 12345, i;

	CHECK(mkdir(site, 0755) == 0);
	/* an existing file under the target name with other bytes */
	S_write(src, "raw bytes", 9);
	gs_evidence_sha256_buffer("raw bytes", 9, hex);
	a = gs_evidence_archive(site, &S_ae);
	CHECK(gs_evidence_archive_add(a, src, NULL, NULL, rel, &S_ae) == 0);
	CHECK(gs_evidence_archive_count(a) == 1);
	CHECK(gs_evidence_archive_write_manifest(a, &S_ae) == 0);
	gs_evidence_archive_free(a);
	p = malloc(300);
	snprintf(p, 300, "%s/evidence/%s.json", site, hex); /* data, whatever the name ("raw") */
	{
		struct stat st;
		CHECK(stat(p, &st) == 0 && st.st_size == 9);
	}
	/* a planted file where a new hash would go: refused, kept */
	S_write(src, "other bytes", 11);
	gs_evidence_sha256_buffer("other bytes", 11, hex);
	snprintf(p, 300, "%s/evidence/%s.json", site, hex);
	S_write(p, "planted", 7);
	gs_error_release(&S_ae);
	a = gs_evidence_archive(site, &S_ae);
	CHECK(gs_evidence_archive_add(a, src, "x.json", NULL, rel, &S_ae) == -1);
	CHECK(gs_error_is_set(&S_ae));
	gs_evidence_archive_free(a);
	{
		char *got = S_read(p, NULL);
		CHECK(got && strcmp(got, "planted") == 0);
		free(got);
	}
	unlink(p);

	/* a big file (spills to a temporary file while hashing) */
	big = malloc(bign);
	if (!big)
		abort();
	for (i = 0; i < bign; i++)
		big[i] = (char)(i * 131 + (i >> 13));
	S_write(src, big, bign);
	gs_evidence_sha256_buffer(big, bign, hex);
	a = gs_evidence_archive(site, &S_ae);
	/* cited by no page: verify checks that a citation names a page */
	CHECK(gs_evidence_archive_add(a, src, "big.json", NULL, rel, &S_ae) == 0);
	CHECK(gs_evidence_archive_added(a) == 1);
	CHECK(gs_evidence_archive_write_manifest(a, &S_ae) == 0);
	gs_evidence_archive_free(a);
	snprintf(p, 300, "%s/evidence/%s.json", site, hex);
	{
		char h2[GS_SHA256_HEX_SIZE];
		uint64_t sz = 0;
		CHECK(gs_evidence_sha256_file(p, h2, &sz) == 0);
		CHECK(sz == bign && strcmp(h2, hex) == 0);
	}
	free(big);
	/* a file named as a page is archived by its kind, never as a page: a
	 * measurement ".json", a log ".log" (whatever the name given) */
	{
		const char *cap = "<script src=\"https://cdn.example/x.js\"></script>";
		char lhex[GS_SHA256_HEX_SIZE];
		S_write(src, cap, strlen(cap));
		a = gs_evidence_archive(site, &S_ae);
		CHECK(gs_evidence_archive_add(a, src, "capture.HTML", NULL, rel, &S_ae) == 0);
		CHECK(strlen(rel) == 9 + 64 + 5 && strcmp(rel + 73, ".json") == 0);
		gs_evidence_sha256_buffer("<svg onload=alert(1)>", 21, lhex);
		CHECK(gs_evidence_archive_add_log_bytes(a, "<svg onload=alert(1)>", 21, lhex, "x.svg",
						 NULL, rel, &S_ae) == 0);
		CHECK(strcmp(rel + 73, ".log") == 0);
		CHECK(gs_evidence_archive_write_manifest(a, &S_ae) == 0);
		gs_evidence_archive_free(a);
	}
	/* nothing but the archived files and the manifest: no temp left */
	{
		char *report;
		CHECK(S_verify(site, &report) == 0);
		free(report);
	}
	/* a page planted in the archive (an older gpusheet kept the name's
	 * extension): verify refuses it, and an archive whose manifest names
	 * one is refused before anything is added */
	{
		char *report, *page = gs_xasprintf("%s/evidence/%064d.html", site, 0);
		char *mpath = gs_xasprintf("%s/evidence/manifest.json", site), *mtext;
		size_t mlen;
		S_write(page, "<script>alert(1)</script>", 25);
		CHECK(S_verify(site, &report) > 0);
		CHECK(strstr(report, ".html: archived under the extension .html, which a browser may "
				     "render as a page running script") != NULL);
		free(report);
		CHECK(unlink(page) == 0);
		mtext = gs_outfile_read(mpath, &mlen);
		CHECK(mtext && strstr(mtext, ".log\""));
		if (mtext) {
			char *at = strstr(mtext, ".log\"");
			memcpy(at, ".htm", 4);
			S_write(mpath, mtext, mlen);
			a = gs_evidence_archive(site, &S_ae);
			CHECK(gs_evidence_archive_add(a, src, "y.json", NULL, rel, &S_ae) == -1);
			CHECK(strstr(gs_error_message(&S_ae), "a browser could render it as a page"));
			gs_evidence_archive_free(a);
			memcpy(at, ".log", 4);
			S_write(mpath, mtext, mlen);
		}
		free(mtext);
		free(mpath);
		free(page);
	}

	/* a corrupt manifest makes the archive refuse to write */
	snprintf(p, 300, "%s/evidence/manifest.json", site);
	S_write(p, "{\"format\": 1", 12);
	gs_error_release(&S_ae);
	a = gs_evidence_archive(site, &S_ae);
	CHECK(a != NULL && gs_error_is_set(&S_ae));
	{
		/* every later use fails with the same message */
		char *load = gs_xstrdup(gs_error_message(&S_ae));
		gs_error_release(&S_ae);
		CHECK(gs_evidence_archive_add(a, src, NULL, NULL, rel, &S_ae) == -1);
		CHECK_STR(gs_error_message(&S_ae), load);
		gs_error_release(&S_ae);
		CHECK(gs_evidence_archive_write_manifest(a, &S_ae) == -1);
		CHECK_STR(gs_error_message(&S_ae), load);
		free(load);
	}
	gs_evidence_archive_free(a);
	{
		char *got = S_read(p, NULL);
		CHECK(got && strcmp(got, "{\"format\": 1") == 0);
		free(got);
	}
	free(p);
	free(site);
	free(src);
}

/*
 * Worker archives (gs_evidence_archive_export / gs_evidence_archive_import): two archives of
 * one site, as two worker processes have, merged into a third. Expected by
 * hand: the bytes "x" cited by sheets/a.html as x.json (worker 1) and by
 * sheets/b.html as y.json (worker 2) make one entry, names [x.json, y.json],
 * cited_by [sheets/a.html, sheets/b.html]; the merged manifest is the one a
 * single archive that added both would write. The same bytes named z.txt by
 * a worker that saw them first are a conflict (1).
 */
static void S_test_export_import(const char *tmp)
{
	char *site = S_path(tmp, "workers"), *x = S_path(tmp, "workers-x.json");
	char *y = S_path(tmp, "workers-y.json"), *z = S_path(tmp, "workers-z.txt");
	gs_archive *w1, *w2, *parent, *one;
	char rel[GS_EVIDENCE_REL_SIZE];
	char *t1, *t2, *merged, *single;
	size_t n1, n2, nm, ns;

	CHECK(mkdir(site, 0755) == 0);
	S_write(x, "x", 1);
	S_write(y, "x", 1);
	S_write(z, "x", 1);
	w1 = gs_evidence_archive(site, &S_ae);
	w2 = gs_evidence_archive(site, &S_ae);
	CHECK(gs_evidence_archive_add(w1, x, "x.json", "sheets/a.html", rel, &S_ae) == 0);
	CHECK(gs_evidence_archive_add(w2, y, "y.json", "sheets/b.html", rel, &S_ae) == 0);
	t1 = gs_evidence_archive_export(w1, &n1);
	t2 = gs_evidence_archive_export(w2, &n2);
	parent = gs_evidence_archive(site, &S_ae);
	CHECK(gs_evidence_archive_import(parent, t1, n1, &S_ae) == 0);
	CHECK(gs_evidence_archive_import(parent, t2, n2, &S_ae) == 0);
	CHECK(gs_evidence_archive_count(parent) == 1);
	merged = gs_evidence_archive_export(parent, &nm);
	one = gs_evidence_archive(site, &S_ae);
	CHECK(gs_evidence_archive_add(one, x, "x.json", "sheets/a.html", rel, &S_ae) == 0);
	CHECK(gs_evidence_archive_add(one, y, "y.json", "sheets/b.html", rel, &S_ae) == 0);
	single = gs_evidence_archive_export(one, &ns);
	CHECK(nm == ns && strcmp(merged, single) == 0);
	CHECK(strstr(merged, "\"x.json\",\n        \"y.json\"") != NULL);
	CHECK(strstr(merged, "\"sheets/a.html\",\n        \"sheets/b.html\"") != NULL);
	gs_evidence_archive_free(w1);
	gs_evidence_archive_free(w2);
	free(t1);
	free(t2);
	free(merged);
	free(single);
	gs_evidence_archive_free(one);

	/* the same bytes under another file name: a conflict, said */
	{
		char *sub = S_path(tmp, "workers2");
		gs_archive *w3;
		char *t3;
		size_t n3;
		CHECK(mkdir(sub, 0755) == 0);
		w3 = gs_evidence_archive(sub, &S_ae);
		char zhex[GS_SHA256_HEX_SIZE];
		/* (a log's bytes: a log is archived as ".txt" or ".log", by its kind) */
		gs_evidence_sha256_buffer("x", 1, zhex);
		CHECK(gs_evidence_archive_add_log_bytes(w3, "x", 1, zhex, "z.txt", "sheets/c.html", rel,
						 &S_ae) == 0);
		CHECK(strcmp(rel + 73, ".txt") == 0);
		t3 = gs_evidence_archive_export(w3, &n3);
		CHECK(gs_evidence_archive_import(parent, t3, n3, &S_ae) == 1);
		CHECK(strstr(gs_error_message(&S_ae), ".txt"));
		/* not a manifest */
		CHECK(gs_evidence_archive_import(parent, "{\"format\": 2}", 13, &S_ae) == -1);
		CHECK(gs_evidence_archive_import(parent, "nope", 4, &S_ae) == -1);
		free(t3);
		gs_evidence_archive_free(w3);
		free(sub);
	}
	gs_evidence_archive_free(parent);
	free(site);
	free(x);
	free(y);
	free(z);
}

/*
 * gs_evidence_archive_add_bytes: the archive stores the bytes given, as they are
 * (a NUL byte in them too), under the SHA-256 given: a file of the same
 * name with other bytes is never read. The rules of gs_evidence_archive_add hold:
 * the name gs_evidence_archive_name said, a known hash keeps its first name, the
 * size checked against the manifest, a file of the replaced site with the
 * same bytes linked (same inode), one with other bytes not, a transaction
 * shows nothing before its commit. Expected by hand: 13 bytes, one entry
 * named [run.json, second.txt].
 */
static void S_test_add_bytes(const char *tmp)
{
	static const char bytes[13] = "parsed\0bytes\n";
	char *site = S_path(tmp, "site-bytes"), *next = S_path(tmp, "site-bytes-next");
	char *decoy = S_path(tmp, "run.json"), *p = NULL, *got;
	char hex[GS_SHA256_HEX_SIZE], other[GS_SHA256_HEX_SIZE];
	char rel[GS_EVIDENCE_REL_SIZE], named[GS_EVIDENCE_REL_SIZE];
	gs_error err = GS_ERROR_INIT;
	struct stat st1, st2;
	gs_archive *a;
	gs_outtx *tx;
	size_t n = 0;

	CHECK(mkdir(site, 0755) == 0);
	CHECK(mkdir(next, 0755) == 0);
	/* a file of the name given, with other bytes: not what is archived */
	S_write(decoy, "changed since it was parsed", 27);
	gs_evidence_sha256_buffer(bytes, sizeof(bytes), hex);
	a = gs_evidence_archive(site, &S_ae);
	gs_evidence_archive_name(a, hex, "run.json", named);
	CHECK(gs_evidence_archive_add_bytes(a, bytes, sizeof(bytes), hex, "run.json", "sheets/a.html",
				   rel, &S_ae) == 0);
	CHECK_STR(rel, named);
	CHECK(strncmp(rel, "evidence/", 9) == 0 && strncmp(rel + 9, hex, 64) == 0 &&
	      strcmp(rel + 73, ".json") == 0);
	CHECK(gs_evidence_archive_added(a) == 1);
	/* the same bytes under another name keep the first */
	gs_evidence_archive_name_log(a, hex, "second.txt", named);
	CHECK_STR(named, rel);
	CHECK(gs_evidence_archive_add_log_bytes(a, bytes, sizeof(bytes), hex, "second.txt", "sheets/b.html",
				   named, &S_ae) == 0);
	CHECK_STR(named, rel);
	CHECK(gs_evidence_archive_added(a) == 1);
	/* a SHA-256 that is not 64 lowercase hex digits, no name: refused */
	CHECK(gs_evidence_archive_add_bytes(a, bytes, sizeof(bytes), "ABC", "x.json", NULL, NULL, &S_ae) == -1);
	CHECK(gs_evidence_archive_add_bytes(a, bytes, sizeof(bytes), hex, "", NULL, NULL, &S_ae) == -1);
	CHECK(gs_evidence_archive_write_manifest(a, &S_ae) == 0);
	/* a success leaves the message of the failure before it */
	CHECK(strstr(gs_error_message(&S_ae), "no file name, bytes or SHA-256 given"));
	gs_evidence_archive_free(a);
	p = S_path(site, rel);
	got = S_read(p, &n);
	CHECK(got && n == sizeof(bytes) && memcmp(got, bytes, n) == 0);
	free(got);
	got = S_read(decoy, &n);
	CHECK(got && n == 27);
	free(got);
	{
		char *man = S_path(site, "evidence/manifest.json");
		got = S_read(man, NULL);
		CHECK(got && strstr(got, "\"run.json\",\n") && strstr(got, "\"second.txt\"") &&
		      strstr(got, "\"size\": 13"));
		free(got);
		free(man);
	}

	/* the replaced site holds the same bytes: linked, not written */
	a = gs_evidence_archive(next, &S_ae);
	gs_evidence_archive_set_previous(a, site);
	CHECK(gs_evidence_archive_add_bytes(a, bytes, sizeof(bytes), hex, "run.json", NULL, rel, &S_ae) == 0);
	CHECK(gs_evidence_archive_added(a) == 0);
	gs_evidence_archive_free(a);
	{
		char *q = S_path(next, rel);
		CHECK(stat(p, &st1) == 0 && stat(q, &st2) == 0 && st1.st_ino == st2.st_ino);
		unlink(q);
		free(q);
	}
	/* ... but not when its file has other bytes: the bytes given are written */
	S_write(p, "tampered bytes", 14);
	a = gs_evidence_archive(next, &S_ae);
	gs_evidence_archive_set_previous(a, site);
	CHECK(gs_evidence_archive_add_bytes(a, bytes, sizeof(bytes), hex, "run.json", NULL, rel, &S_ae) == 0);
	CHECK(gs_evidence_archive_added(a) == 1);
	gs_evidence_archive_free(a);
	{
		char *q = S_path(next, rel);
		got = S_read(q, &n);
		CHECK(got && n == sizeof(bytes) && memcmp(got, bytes, n) == 0);
		CHECK(stat(p, &st1) == 0 && stat(q, &st2) == 0 && st1.st_ino != st2.st_ino);
		free(got);
		/* an archived file with other bytes under the name: refused, kept */
		S_write(q, "planted", 7);
		a = gs_evidence_archive(next, &S_ae);
		CHECK(gs_evidence_archive_add_bytes(a, bytes, sizeof(bytes), hex, "run.json", NULL, rel, &S_ae) == -1);
		CHECK(strstr(gs_error_message(&S_ae), "other content"));
		gs_evidence_archive_free(a);
		got = S_read(q, &n);
		CHECK(got && n == 7);
		free(got);
		unlink(q);
		free(q);
	}

	/* the manifest knows the hash with another size: refused */
	a = gs_evidence_archive(site, &S_ae);
	CHECK(gs_evidence_archive_add_bytes(a, bytes, 6, hex, "run.json", NULL, rel, &S_ae) == -1);
	CHECK(strstr(gs_error_message(&S_ae), "manifest says 13 bytes, content has 6"));
	gs_evidence_archive_free(a);

	/* in a transaction: nothing visible before the commit */
	gs_evidence_sha256_buffer("other", 5, other);
	a = gs_evidence_archive(next, &S_ae);
	tx = gs_outfile_tx_new();
	gs_evidence_archive_set_tx(a, tx);
	CHECK(gs_evidence_archive_add_bytes(a, "other", 5, other, "o.json", NULL, rel, &S_ae) == 0);
	{
		char *q = S_path(next, rel);
		CHECK(lstat(q, &st1) != 0);
		CHECK(gs_outfile_tx_commit(tx, &err) == 0);
		got = S_read(q, &n);
		CHECK(got && n == 5 && memcmp(got, "other", 5) == 0);
		free(got);
		free(q);
	}
	gs_evidence_archive_set_tx(a, NULL);
	gs_outfile_tx_free(tx);
	gs_evidence_archive_free(a);
	free(p);
	free(decoy);
	free(site);
	free(next);
	gs_error_release(&err);
}

int main(void)
{
	char tmpl[] = "/tmp/gs-test-evidence-XXXXXX";
	char *tmp = mkdtemp(tmpl);

	if (!tmp) {
		perror("mkdtemp");
		return 2;
	}
	S_test_sha256(tmp);
	S_test_site(tmp);
	S_test_archive_edges(tmp);
	S_test_export_import(tmp);
	S_test_add_bytes(tmp);
	S_rm_rf(tmp);
	gs_error_release(&S_ae);
	return gs_check_exit("test_evidence");
}
