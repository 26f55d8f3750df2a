/* verify: check a published site folder (links, offline use, evidence). */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE

#include "verify.h"
#include "diag.h"
#include "evidence.h"
#include "infile.h"
#include "infile.h"
#include "outfile.h"
#include "shard.h"
#include "util.h"
#include "jsonread.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>
#include <libxml/HTMLparser.h>
#include <libxml/tree.h>


typedef struct {
	char *path;
	size_t seq;
	char *msg;
} S_problem;

typedef struct {
	size_t page;    /* index in pages: where the link is */
	size_t target;  /* index in pages: where the id must be */
	char *frag;     /* raw fragment */
	char *show;     /* the link, escaped for the report */
} S_deferred;

typedef struct {
	const char *root;
	gs_strvec files;     /* relative paths of files (and symlinks), sorted */
	gs_strvec dirs;      /* relative paths of folders, sorted */
	gs_strvec pages;     /* relative paths of *.html / *.htm, sorted */
	gs_strvec *ids;      /* ids per page */
	unsigned char *bad;  /* per page: could not be parsed */
	S_deferred *defer;
	size_t ndefer, capdefer;
	S_problem *probs;
	size_t nprobs, capprobs;
	gs_strvec cited;     /* "evidence/FILE\001PAGE" from the manifest's cited_by */
	gs_strvec evlinks;   /* "evidence/FILE\001PAGE" from the pages' links */
	gs_strvec listed;    /* "evidence/FILE" of every manifest entry */
	int have_manifest;   /* the manifest was read: its citations are checked */
	char *cur_dir;       /* folder of the page being checked ("" = root) */
	size_t cur_page;
} S_site;

/* ---- small helpers ---- */

static char *S_xstrndup(const char *s, size_t n)
{
	char *r = gs_xmalloc(n + 1);
	memcpy(r, s, n);
	r[n] = '\0';
	return r;
}

static char *S_join(const char *a, const char *b)
{
	if (a[0] == '\0')
		return gs_xstrdup(b);
	return gs_xasprintf("%s/%s", a, b);
}

/* Index of s in a sorted vector, or -1. */
static long S_find(const gs_strvec *v, const char *s)
{
	size_t lo = 0, hi = v->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(v->v[mid], s);
		if (c == 0)
			return (long)mid;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

/* First index whose string is >= s. */
static size_t S_lower_bound(const gs_strvec *v, const char *s)
{
	size_t lo = 0, hi = v->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (strcmp(v->v[mid], s) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static void S_problem_add(S_site *s, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void S_problem_add(S_site *s, const char *path, const char *fmt, ...)
{
	S_problem *p;
	va_list ap;

	if (s->nprobs == s->capprobs) {
		size_t nc = s->capprobs ? s->capprobs * 2 : 16;
		s->probs = gs_xrealloc(s->probs, nc * sizeof(*s->probs));
		s->capprobs = nc;
	}
	p = &s->probs[s->nprobs];
	p->path = gs_xstrdup(path);
	p->seq = s->nprobs++;
	va_start(ap, fmt);
	p->msg = gs_xvasprintf(fmt, ap);
	va_end(ap);
}

static int S_problem_cmp(const void *x, const void *y)
{
	const S_problem *a = x, *b = y;
	int c = strcmp(a->path, b->path);

	if (c)
		return c;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* The link as shown in a report: control bytes escaped, cut. */
/* A value quoted in a report line: the program's one convention (diag.h),
 * control bytes and invalid UTF-8 as \xNN, cut at 200 bytes with its length. */
static char *S_show(const char *u)
{
	return gs_diag_show(u, GS_SHOW_MAX);
}

static int S_hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* %XX-decode s[0..n) into a new string; NULL if malformed or a NUL byte. */
static char *S_decode(const char *s, size_t n)
{
	char *r = gs_xmalloc(n + 1);
	size_t i, o = 0;

	for (i = 0; i < n; i++) {
		if (s[i] == '%') {
			int hi, lo;
			if (i + 2 >= n) {
				free(r);
				return NULL;
			}
			hi = S_hexval(s[i + 1]);
			lo = hi < 0 ? -1 : S_hexval(s[i + 2]);
			if (hi < 0 || lo < 0 || (hi == 0 && lo == 0)) {
				free(r);
				return NULL;
			}
			r[o++] = (char)(hi * 16 + lo);
			i += 2;
		} else {
			r[o++] = s[i];
		}
	}
	r[o] = '\0';
	return r;
}


static int S_has_suffix_ci(const char *s, const char *suf)
{
	size_t n = strlen(s), m = strlen(suf), i;

	if (n < m)
		return 0;
	for (i = 0; i < m; i++) {
		char c = s[n - m + i];
		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		if (c != suf[i])
			return 0;
	}
	return 1;
}

static int S_is_page(const char *rel)
{
	return S_has_suffix_ci(rel, ".html") || S_has_suffix_ci(rel, ".htm");
}

/* Read a whole file; NULL with the reason in why ("cannot read: ..."). */
static char *S_read_file(const char *path, size_t *len, gs_error *why)
{
	return gs_infile_read(path, 0, len, why);
}

/* ---- the walk ---- */

/* One folder: its files recorded, its subfolders pushed onto todo. */
static int S_walk_one(S_site *s, const char *rel, gs_strvec *todo)
{
	char *full = rel[0] ? S_join(s->root, rel) : gs_xstrdup(s->root);
	DIR *d = opendir(full);
	struct dirent *de;
	gs_strvec names = GS_STRVEC_INIT;
	size_t i;

	if (!d) {
		int e = errno;
		free(full);
		if (!rel[0])
			return -1;
		S_problem_add(s, rel, "cannot read folder: %s", strerror(e));
		return 0;
	}
	while ((de = readdir(d)) != NULL) {
		char kind;
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		switch (de->d_type) {
		case DT_DIR: kind = 'd'; break;
		case DT_REG: kind = 'f'; break;
		case DT_LNK: kind = 'l'; break;
		case DT_UNKNOWN: {
			struct stat st;
			char *p = S_join(full, de->d_name);
			if (lstat(p, &st) != 0)
				kind = 'o';
			else if (S_ISDIR(st.st_mode))
				kind = 'd';
			else if (S_ISREG(st.st_mode))
				kind = 'f';
			else if (S_ISLNK(st.st_mode))
				kind = 'l';
			else
				kind = 'o';
			free(p);
			break;
		}
		default: kind = 'o'; break;
		}
		/* name and kind in one string: kind first */
		{
			size_t n = strlen(de->d_name);
			char *e = gs_xmalloc(n + 2);
			memcpy(e, de->d_name, n + 1);
			e[n + 1] = kind;
			gs_util_strvec_push(&names, e);
		}
	}
	closedir(d);
	free(full);
	gs_util_strvec_sort(&names);
	for (i = 0; i < names.n; i++) {
		const char *name = names.v[i];
		char kind = name[strlen(name) + 1];
		char *child = S_join(rel, name);

		/* a write that never finished (or a file planted under such a name) */
		if (kind != 'd' && gs_outfile_is_temp_name(name))
			S_problem_add(s, child, "temporary file left behind");
		switch (kind) {
		case 'd':
			gs_util_strvec_push_dup(&s->dirs, child);
			gs_util_strvec_push_dup(todo, child);
			break;
		case 'f':
			/* archived evidence is raw content, not a page of the
			 * site: a link target only */
			if (S_is_page(child) &&
			    strncmp(child, GS_EVIDENCE_DIR "/",
				    strlen(GS_EVIDENCE_DIR "/")) != 0)
				gs_util_strvec_push_dup(&s->pages, child);
			gs_util_strvec_push_dup(&s->files, child);
			break;
		case 'l':
			S_problem_add(s, child, "symbolic link");
			gs_util_strvec_push_dup(&s->files, child);
			break;
		default:
			S_problem_add(s, child, "not a regular file or folder");
			break;
		}
		free(child);
	}
	gs_util_strvec_release(&names);
	return 0;
}

/* The whole tree, iteratively: a stack of folders to read, so the C stack
 * does not grow with the depth of the folder tree. -1 if the root fails. */
static int S_walk(S_site *s)
{
	gs_strvec todo = GS_STRVEC_INIT;
	int rc = S_walk_one(s, "", &todo);

	while (rc == 0 && todo.n > 0) {
		char *rel = todo.v[--todo.n];
		S_walk_one(s, rel, &todo);
		free(rel);
	}
	gs_util_strvec_release(&todo);
	return rc;
}

/* ---- evidence ---- */

static void S_check_entry(S_site *s, const char *file, const char *hash,
			  json_int_t size)
{
	char *rel = S_join(GS_EVIDENCE_DIR, file);
	char *full = S_join(s->root, rel);
	struct stat st;
	char found[GS_SHA256_HEX_SIZE];
	uint64_t got;

	if (lstat(full, &st) != 0) {
		S_problem_add(s, rel, "missing file");
	} else if (!S_ISREG(st.st_mode)) {
		if (!S_ISLNK(st.st_mode)) /* symlinks already reported */
			S_problem_add(s, rel, "not a regular file");
	} else if ((uint64_t)st.st_size != (uint64_t)size) {
		S_problem_add(s, rel, "size mismatch (expected %lld, found %lld)",
			      (long long)size, (long long)st.st_size);
	} else if (gs_evidence_sha256_file(full, found, &got) != 0) {
		S_problem_add(s, rel, "cannot read: %s", strerror(errno));
	} else if (strcmp(found, hash) != 0) {
		S_problem_add(s, rel, "hash mismatch (expected %s, found %s)",
			      hash, found);
	}
	free(full);
	free(rel);
}

/* 1 if v is an array of non-empty strings. */
static int S_string_array(json_t *v)
{
	size_t i;
	json_t *x;

	if (!json_is_array(v))
		return 0;
	json_array_foreach(v, i, x)
		if (!json_is_string(x) || !*json_string_value(x))
			return 0;
	return 1;
}

/* An entry's "names" and "cited_by": arrays of strings, sorted and unique
 * as the archive writes them; the citations are kept for S_check_citations. */
static void S_entry_lists(S_site *s, const char *mrel, const char *key, const char *fname,
			  json_t *val)
{
	static const char *const fields[] = { "names", "cited_by" };
	size_t f, i;

	for (f = 0; f < 2; f++) {
		json_t *v = json_object_get(val, fields[f]);
		if (!v)
			continue;
		if (!S_string_array(v)) {
			S_problem_add(s, mrel, "entry %s: \"%s\" is not an array of strings",
				      key, fields[f]);
			continue;
		}
		for (i = 1; i < json_array_size(v); i++) {
			if (strcmp(json_string_value(json_array_get(v, i - 1)),
				   json_string_value(json_array_get(v, i))) >= 0) {
				S_problem_add(s, mrel, "entry %s: \"%s\" is not sorted and unique",
					      key, fields[f]);
				break;
			}
		}
		if (f == 1)
			for (i = 0; i < json_array_size(v); i++)
				gs_util_strvec_push(&s->cited, gs_xasprintf("%s/%s%c%s", GS_EVIDENCE_DIR, fname,
								     '\001', json_string_value(json_array_get(v, i))));
	}
	gs_util_strvec_push(&s->listed, gs_xasprintf("%s/%s", GS_EVIDENCE_DIR, fname));
}

static void S_check_evidence(S_site *s)
{
	const char *mrel = GS_EVIDENCE_DIR "/" GS_EVIDENCE_MANIFEST;
	char *mfull, *show;
	json_t *root, *entries, *fmt, *val;
	json_error_t jerr;
	const char *key;
	gs_strvec listed = GS_STRVEC_INIT;
	size_t i, plen = strlen(GS_EVIDENCE_DIR "/");

	if (S_find(&s->dirs, GS_EVIDENCE_DIR) < 0)
		return; /* no evidence at all */
	if (S_find(&s->files, mrel) < 0) {
		S_problem_add(s, mrel, "missing manifest");
		return;
	}
	mfull = S_join(s->root, mrel);
	root = gs_jr_load_path(mfull, JSON_REJECT_DUPLICATES, &jerr);
	free(mfull);
	if (!root) {
		show = S_show(jerr.text);
		S_problem_add(s, mrel, "cannot parse manifest: %d:%d: %s",
			      jerr.line, jerr.column, show);
		free(show);
		return;
	}
	fmt = json_object_get(root, "format");
	entries = json_object_get(root, "entries");
	if (!json_is_object(root) || !json_is_string(fmt) ||
	    strcmp(json_string_value(fmt), GS_EVIDENCE_FORMAT) != 0 ||
	    !json_is_object(entries)) {
		S_problem_add(s, mrel, "not a manifest of format %s",
			      GS_EVIDENCE_FORMAT);
		json_decref(root);
		return;
	}
	s->have_manifest = 1;
	json_object_foreach(entries, key, val) {
		json_t *sha = json_object_get(val, "sha256");
		json_t *size = json_object_get(val, "size");
		json_t *file = json_object_get(val, "file");
		const char *fname = NULL;
		char *fbuf = NULL;

		if (!gs_evidence_sha256_hex_valid(key) || !json_is_object(val) ||
		    !json_is_string(sha) ||
		    strcmp(json_string_value(sha), key) != 0 ||
		    !json_is_integer(size) || json_integer_value(size) < 0 ||
		    (file && !json_is_string(file))) {
			show = S_show(key);
			S_problem_add(s, mrel, "malformed entry: %s", show);
			free(show);
			continue;
		}
		if (file) {
			fname = json_string_value(file);
			if (strncmp(fname, key, 64) != 0 ||
			    strchr(fname, '/') || (fname[64] && fname[64] != '.')) {
				show = S_show(fname);
				S_problem_add(s, mrel, "entry %s: bad file name: %s",
					      key, show);
				free(show);
				continue;
			}
		} else {
			/* no "file": the one evidence/<hash>[.ext] present */
			char *prefix = S_join(GS_EVIDENCE_DIR, key);
			size_t k = S_lower_bound(&s->files, prefix);
			size_t pl = strlen(prefix);
			if (k < s->files.n &&
			    strncmp(s->files.v[k], prefix, pl) == 0 &&
			    (s->files.v[k][pl] == '\0' || s->files.v[k][pl] == '.'))
				fbuf = gs_xstrdup(s->files.v[k] + plen);
			else
				fbuf = gs_xstrdup(key);
			fname = fbuf;
			free(prefix);
		}
		gs_util_strvec_push_dup(&listed, fname);
		S_check_entry(s, fname, key, json_integer_value(size));
		S_entry_lists(s, mrel, key, fname, val);
		free(fbuf);
	}
	json_decref(root);
	gs_util_strvec_sort_unique(&listed);

	/* files of evidence/ that the manifest does not list */
	for (i = S_lower_bound(&s->files, GS_EVIDENCE_DIR "/");
	     i < s->files.n && strncmp(s->files.v[i], GS_EVIDENCE_DIR "/", plen) == 0;
	     i++) {
		const char *name = s->files.v[i] + plen;
		if (strchr(name, '/') || strcmp(name, GS_EVIDENCE_MANIFEST) == 0)
			continue;
		/* evidence a browser would render (HTML, SVG: script on the
		 * site's own origin): never what gpusheet archives */
		if (!gs_evidence_ext_allowed(name)) {
			show = S_show(strrchr(name, '.'));
			S_problem_add(s, s->files.v[i], "archived under the extension %s, which a "
				      "browser may render as a page running script; evidence is "
				      "archived as .json, .log, .txt or .header", show);
			free(show);
		}
		if (S_find(&listed, name) < 0)
			S_problem_add(s, s->files.v[i], "not in manifest");
	}
	for (i = S_lower_bound(&s->dirs, GS_EVIDENCE_DIR "/");
	     i < s->dirs.n && strncmp(s->dirs.v[i], GS_EVIDENCE_DIR "/", plen) == 0;
	     i++) {
		if (!strchr(s->dirs.v[i] + plen, '/'))
			S_problem_add(s, s->dirs.v[i], "folder inside evidence/");
	}
	gs_util_strvec_release(&listed);
}

/* ---- links ---- */

static int S_has_id(const gs_strvec *ids, const char *frag)
{
	char *dec;
	int found;

	if (S_find(ids, frag) >= 0)
		return 1;
	dec = S_decode(frag, strlen(frag));
	found = dec && S_find(ids, dec) >= 0;
	free(dec);
	return found;
}

static int S_frag_trivial(const char *frag)
{
	return frag[0] == '\0' || gs_util_eq_ci(frag, "top");
}

/* Browsers drop tab/LF/CR anywhere and C0/space at both ends. */
static char *S_clean(const char *raw)
{
	size_t n = strlen(raw), i, o = 0;
	char *r = gs_xmalloc(n + 1);

	while (n > 0 && (unsigned char)raw[n - 1] <= 0x20)
		n--;
	i = 0;
	while (i < n && (unsigned char)raw[i] <= 0x20)
		i++;
	for (; i < n; i++)
		if (raw[i] != '\t' && raw[i] != '\n' && raw[i] != '\r')
			r[o++] = raw[i];
	r[o] = '\0';
	return r;
}

/* Length of a URL scheme before ':' (0: none). */
static size_t S_scheme_len(const char *u)
{
	size_t i = 0;

	if (!((u[0] >= 'a' && u[0] <= 'z') || (u[0] >= 'A' && u[0] <= 'Z')))
		return 0;
	for (i = 1; u[i]; i++) {
		char c = u[i];
		if (c == ':')
			return i;
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.'))
			return 0;
	}
	return 0;
}

/*
 * Normalize dir + "/" + path (path already decoded). Returns a new string
 * ("" = the site root), or NULL when it escapes the site. *is_dir is set
 * when the path names a folder (trailing slash, ".", "..").
 */
static char *S_resolve(const char *dir, const char *path, int *is_dir)
{
	size_t nd = strlen(dir), np = strlen(path);
	char *in = gs_xmalloc(nd + np + 2), *out = gs_xmalloc(nd + np + 2);
	size_t o = 0, i = 0, n;

	memcpy(in, dir, nd);
	in[nd] = '/';
	memcpy(in + nd + 1, path, np + 1);
	n = nd + 1 + np;
	*is_dir = 0;
	while (i < n) {
		size_t j = i, len;
		while (j < n && in[j] != '/')
			j++;
		len = j - i;
		if (len == 0 || (len == 1 && in[i] == '.')) {
			*is_dir = 1;
		} else if (len == 2 && in[i] == '.' && in[i + 1] == '.') {
			if (o == 0) {
				free(in);
				free(out);
				return NULL;
			}
			while (o > 0 && out[o - 1] != '/')
				o--;
			if (o > 0)
				o--; /* the slash */
			*is_dir = 1;
		} else {
			if (o > 0)
				out[o++] = '/';
			memcpy(out + o, in + i, len);
			o += len;
			*is_dir = 0;
		}
		i = j + 1;
		if (j < n && j + 1 == n)
			*is_dir = 1; /* trailing slash */
	}
	out[o] = '\0';
	free(in);
	return out;
}

static void S_defer(S_site *s, size_t target, const char *frag, const char *show)
{
	S_deferred *d;

	if (s->ndefer == s->capdefer) {
		size_t nc = s->capdefer ? s->capdefer * 2 : 64;
		s->defer = gs_xrealloc(s->defer, nc * sizeof(*s->defer));
		s->capdefer = nc;
	}
	d = &s->defer[s->ndefer++];
	d->page = s->cur_page;
	d->target = target;
	d->frag = gs_xstrdup(frag);
	d->show = gs_xstrdup(show);
}

static void S_check_link(S_site *s, const char *raw)
{
	const char *page = s->pages.v[s->cur_page];
	char *u = S_clean(raw), *show = S_show(u);
	size_t sl = S_scheme_len(u);

	if (u[0] == '\0') {
		/* the page itself */
	} else if (u[0] == '#') {
		if (!S_frag_trivial(u + 1) && !S_has_id(&s->ids[s->cur_page], u + 1))
			S_problem_add(s, page, "missing anchor: %s", show);
	} else if (sl) {
		char scheme[16];
		size_t k;
		for (k = 0; k < sl && k + 1 < sizeof(scheme); k++)
			scheme[k] = (char)((u[k] >= 'A' && u[k] <= 'Z') ?
					   u[k] - 'A' + 'a' : u[k]);
		scheme[k] = '\0';
		if (sl >= sizeof(scheme))
			scheme[0] = '\0';
		if (strcmp(scheme, "mailto") == 0 || strcmp(scheme, "tel") == 0 ||
		    strcmp(scheme, "data") == 0) {
			/* fine offline */
		} else if (strcmp(scheme, "javascript") == 0 ||
			   strcmp(scheme, "vbscript") == 0) {
			S_problem_add(s, page, "script link: %s", show);
		} else {
			S_problem_add(s, page, "external request: %s", show);
		}
	} else if ((u[0] == '/' || u[0] == '\\') &&
		   (u[1] == '/' || u[1] == '\\')) {
		S_problem_add(s, page, "external request: %s", show);
	} else if (u[0] == '/') {
		S_problem_add(s, page, "absolute path: %s", show);
	} else if (strchr(u, '\\')) {
		S_problem_add(s, page, "backslash in link: %s", show);
	} else {
		size_t plen = strcspn(u, "?#");
		const char *hash = strchr(u, '#');
		const char *frag = hash ? hash + 1 : "";
		char *path = S_decode(u, plen), *t = NULL, *idx = NULL;
		const char *target = NULL;
		int is_dir = 0;

		if (!path) {
			S_problem_add(s, page, "bad percent-encoding: %s", show);
		} else if (path[0] == '\0') {
			target = page; /* "?x" or "?x#y": this page */
		} else if (!(t = S_resolve(s->cur_dir, path, &is_dir))) {
			S_problem_add(s, page, "link escapes the site: %s", show);
		} else if (!is_dir && S_find(&s->files, t) >= 0) {
			target = t;
		} else if ((t[0] == '\0' || S_find(&s->dirs, t) >= 0)) {
			idx = S_join(t, "index.html");
			if (S_find(&s->files, idx) >= 0)
				target = idx;
			else
				S_problem_add(s, page,
					      "broken link: %s (folder without index.html)",
					      show);
		} else {
			S_problem_add(s, page, "broken link: %s", show);
		}
		/* a link to archived evidence, found or not (a missing file is
		 * reported once, as a broken link, not again as uncited) */
		if (t && strncmp(t, GS_EVIDENCE_DIR "/", strlen(GS_EVIDENCE_DIR "/")) == 0 &&
		    strcmp(t, GS_EVIDENCE_DIR "/" GS_EVIDENCE_MANIFEST) != 0)
			gs_util_strvec_push(&s->evlinks, gs_xasprintf("%s%c%s", t, '\001', page));
		if (target && !S_frag_trivial(frag)) {
			long pi = S_find(&s->pages, target);
			if (pi < 0) {
				/* not a page: nothing to check */
			} else if ((size_t)pi == s->cur_page) {
				if (!S_has_id(&s->ids[pi], frag))
					S_problem_add(s, page, "missing anchor: %s", show);
			} else {
				S_defer(s, (size_t)pi, frag, show);
			}
		}
		free(path);
		free(t);
		free(idx);
	}
	free(show);
	free(u);
}

/* srcset: "url [descriptor], url [descriptor], ..." */
static void S_check_srcset(S_site *s, const char *v)
{
	while (*v) {
		size_t n;
		char *one;
		while (*v == ',' || *v == ' ' || *v == '\t' || *v == '\n' ||
		       *v == '\r' || *v == '\f')
			v++;
		n = strcspn(v, " \t\n\r\f");
		if (n == 0)
			break;
		if (v[n - 1] == ',') /* "a.png," */
			one = S_xstrndup(v, n - 1);
		else
			one = S_xstrndup(v, n);
		S_check_link(s, one);
		free(one);
		v += n;
		v += strcspn(v, ",");
	}
}

static int S_prefix_ci(const char *s, const char *p)
{
	for (; *p; s++, p++) {
		char c = *s;
		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		if (c != *p)
			return 0;
	}
	return 1;
}

/* CSS text: url(...) and @import "..." */
static void S_check_css(S_site *s, const char *css)
{
	const char *p = css;

	while (*p) {
		if (p[0] == '/' && p[1] == '*') {
			const char *e = strstr(p + 2, "*/");
			p = e ? e + 2 : p + strlen(p);
		} else if (S_prefix_ci(p, "url(")) {
			const char *b, *e;
			char *one;
			p += 4;
			while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
				p++;
			if (*p == '"' || *p == '\'') {
				char q = *p++;
				b = p;
				e = strchr(p, q);
			} else {
				b = p;
				e = strchr(p, ')');
			}
			if (!e)
				e = p + strlen(p);
			one = S_xstrndup(b, (size_t)(e - b));
			S_check_link(s, one);
			free(one);
			p = *e ? e + 1 : e;
		} else if (S_prefix_ci(p, "@import")) {
			p += 7;
			while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
				p++;
			if (*p == '"' || *p == '\'') {
				char q = *p++;
				const char *e = strchr(p, q);
				char *one;
				if (!e)
					e = p + strlen(p);
				one = S_xstrndup(p, (size_t)(e - p));
				S_check_link(s, one);
				free(one);
				p = *e ? e + 1 : e;
			}
		} else {
			p++;
		}
	}
}

/* <meta http-equiv="refresh" content="5; url=next.html"> */
static void S_check_refresh(S_site *s, const char *content)
{
	const char *p = strchr(content, ';');
	char *one;
	size_t n;

	if (!p)
		p = strchr(content, ',');
	if (!p)
		return;
	p++;
	while (*p == ' ' || *p == '\t')
		p++;
	if (!S_prefix_ci(p, "url"))
		return;
	p += 3;
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p != '=')
		return;
	p++;
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p == '"' || *p == '\'') {
		char q = *p++;
		const char *e = strchr(p, q);
		n = e ? (size_t)(e - p) : strlen(p);
	} else {
		n = strlen(p);
	}
	one = S_xstrndup(p, n);
	S_check_link(s, one);
	free(one);
}

static int S_is_url_attr(const char *elem, const char *attr)
{
	static const char *const names[] = {
		"href", "src", "poster", "action", "formaction", "background",
		"xlink:href", "manifest", "longdesc", "icon", NULL
	};
	size_t i;

	for (i = 0; names[i]; i++)
		if (strcmp(attr, names[i]) == 0)
			return 1;
	return strcmp(attr, "data") == 0 && strcmp(elem, "object") == 0;
}

/* Next node in document order, staying inside the tree. */
static xmlNodePtr S_next(xmlNodePtr n)
{
	if (n->type == XML_ELEMENT_NODE && n->children)
		return n->children;
	while (n) {
		if (n->next)
			return n->next;
		n = n->parent;
		if (n && n->type != XML_ELEMENT_NODE)
			return NULL; /* back at the document */
	}
	return NULL;
}

static char *S_attr_value(xmlAttrPtr at)
{
	xmlChar *v = xmlNodeListGetString(at->doc, at->children, 1);
	char *r = gs_xstrdup(v ? (const char *)v : "");

	xmlFree(v);
	return r;
}

/* Pass 1: ids of the page. */
static void S_collect_ids(xmlDocPtr doc, gs_strvec *ids)
{
	xmlNodePtr n = xmlDocGetRootElement(doc);

	for (; n; n = S_next(n)) {
		xmlAttrPtr at;
		if (n->type != XML_ELEMENT_NODE)
			continue;
		for (at = n->properties; at; at = at->next) {
			const char *an = (const char *)at->name;
			if (strcmp(an, "id") == 0 ||
			    (strcmp(an, "name") == 0 &&
			     strcmp((const char *)n->name, "a") == 0))
				gs_util_strvec_push(ids, S_attr_value(at));
		}
	}
	gs_util_strvec_sort_unique(ids);
}

/* Pass 2: every link of the page. */
static void S_check_page_links(S_site *s, xmlDocPtr doc)
{
	xmlNodePtr n = xmlDocGetRootElement(doc);

	for (; n; n = S_next(n)) {
		const char *en;
		xmlAttrPtr at;
		int refresh = 0;

		if (n->type != XML_ELEMENT_NODE)
			continue;
		en = (const char *)n->name;
		if (strcmp(en, "style") == 0) {
			xmlChar *txt = xmlNodeGetContent(n);
			if (txt)
				S_check_css(s, (const char *)txt);
			xmlFree(txt);
		}
		if (strcmp(en, "meta") == 0) {
			xmlChar *he = xmlGetProp(n, (const xmlChar *)"http-equiv");
			refresh = he && gs_util_eq_ci((const char *)he, "refresh");
			xmlFree(he);
		}
		for (at = n->properties; at; at = at->next) {
			const char *an = (const char *)at->name;
			char *v;
			if (S_is_url_attr(en, an)) {
				v = S_attr_value(at);
				S_check_link(s, v);
			} else if (strcmp(an, "srcset") == 0 ||
				   strcmp(an, "imagesrcset") == 0) {
				v = S_attr_value(at);
				S_check_srcset(s, v);
			} else if (strcmp(an, "style") == 0) {
				v = S_attr_value(at);
				S_check_css(s, v);
			} else if (refresh && strcmp(an, "content") == 0) {
				v = S_attr_value(at);
				S_check_refresh(s, v);
			} else {
				continue;
			}
			free(v);
		}
	}
}

static void S_check_pages(S_site *s)
{
	size_t i;

	s->ids = gs_xcalloc(s->pages.n, sizeof(*s->ids));
	s->bad = gs_xcalloc(s->pages.n, 1);
	for (i = 0; i < s->pages.n; i++) {
		const char *rel = s->pages.v[i];
		char *full = S_join(s->root, rel), *buf, *slash;
		gs_error why = GS_ERROR_INIT;
		size_t len = 0;
		xmlDocPtr doc = NULL;

		buf = S_read_file(full, &len, &why);
		free(full);
		if (!buf) {
			S_problem_add(s, rel, "%s", gs_error_message(&why));
			gs_error_release(&why);
			s->bad[i] = 1;
			continue;
		}
		if (len <= INT32_MAX)
			doc = htmlReadMemory(buf, (int)len, rel, NULL,
					     HTML_PARSE_NONET | HTML_PARSE_NOERROR |
					     HTML_PARSE_NOWARNING);
		free(buf);
		if (!doc || !xmlDocGetRootElement(doc)) {
			S_problem_add(s, rel, "cannot parse as HTML");
			s->bad[i] = 1;
			if (doc)
				xmlFreeDoc(doc);
			continue;
		}
		s->cur_page = i;
		slash = strrchr(rel, '/');
		s->cur_dir = slash ? S_xstrndup(rel, (size_t)(slash - rel))
				   : gs_xstrdup("");
		S_collect_ids(doc, &s->ids[i]);
		S_check_page_links(s, doc);
		free(s->cur_dir);
		s->cur_dir = NULL;
		xmlFreeDoc(doc);
	}
	/* fragments into other pages, now that every page's ids are known */
	for (i = 0; i < s->ndefer; i++) {
		S_deferred *d = &s->defer[i];
		if (!s->bad[d->target] && !S_has_id(&s->ids[d->target], d->frag))
			S_problem_add(s, s->pages.v[d->page], "missing anchor: %s",
				      d->show);
	}
}

/*
 * Manifest and pages agree: every cited_by names a page that exists and
 * links to that evidence; every link from a page to archived evidence is
 * to a file in the manifest whose cited_by names the page.
 */
static void S_check_citations(S_site *s)
{
	const char *mrel = GS_EVIDENCE_DIR "/" GS_EVIDENCE_MANIFEST;
	size_t i;

	if (!s->have_manifest)
		return;
	gs_util_strvec_sort_unique(&s->cited);
	gs_util_strvec_sort_unique(&s->evlinks);
	gs_util_strvec_sort(&s->listed);
	for (i = 0; i < s->cited.n; i++) {
		const char *c = s->cited.v[i], *pg = strchr(c, '\001') + 1;
		long pi = S_find(&s->pages, pg);
		char *show = S_show(pg);
		if (pi < 0)
			S_problem_add(s, mrel, "cited_by of %.*s names a missing page: %s",
				      (int)(pg - 1 - c), c, show);
		else if (!s->bad[pi] && S_find(&s->evlinks, c) < 0)
			S_problem_add(s, mrel, "cited_by of %.*s names %s, which does not link to it",
				      (int)(pg - 1 - c), c, show);
		free(show);
	}
	for (i = 0; i < s->evlinks.n; i++) {
		const char *l = s->evlinks.v[i], *pg = strchr(l, '\001') + 1;
		char *ev = S_xstrndup(l, (size_t)(pg - 1 - l));
		if (S_find(&s->listed, ev) >= 0 && S_find(&s->cited, l) < 0)
			S_problem_add(s, pg, "links to %s, whose manifest entry does not cite this page",
				      ev);
		free(ev);
	}
}

/* ---- entry point ---- */

/* A path as printed: escaped as any value (diag.h), so one problem = one line. */
static void S_put_escaped(const char *p, FILE *out)
{
	char *e = gs_diag_show(p, 0);

	fputs(e, out);
	free(e);
}

int gs_verify_site(const char *dir, FILE *report)
{
	S_site s;
	struct stat st;
	size_t i;
	int count;

	if (!dir || !*dir) {
		if (report)
			fputs("verify: no folder given\n", report);
		return -1;
	}
	if (stat(dir, &st) != 0) {
		if (report)
			fprintf(report, "%s: cannot read folder: %s\n", dir,
				strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		if (report)
			fprintf(report, "%s: not a folder\n", dir);
		return -1;
	}
	memset(&s, 0, sizeof(s));
	s.root = dir;
	if (S_walk(&s) != 0) {
		if (report)
			fprintf(report, "%s: cannot read folder: %s\n", dir,
				strerror(errno));
		return -1;
	}
	gs_util_strvec_sort(&s.files);
	gs_util_strvec_sort(&s.dirs);
	gs_util_strvec_sort(&s.pages);
	if (S_find(&s.files, GS_SHARD_FILE) >= 0) {
		/* its pages link to pages only the merged site has: one problem, not one per link */
		S_problem_add(&s, GS_SHARD_FILE, "a shard of a site (gpusheet site --shard), not a "
			      "site: build the site with gpusheet merge, then verify it");
	} else {
		S_check_evidence(&s);
		S_check_pages(&s);
		S_check_citations(&s);
	}

	if (s.nprobs > 1)
		qsort(s.probs, s.nprobs, sizeof(*s.probs), S_problem_cmp);
	for (i = 0; i < s.nprobs; i++) {
		if (report) {
			S_put_escaped(s.probs[i].path, report);
			fprintf(report, ": %s\n", s.probs[i].msg);
		}
		free(s.probs[i].path);
		free(s.probs[i].msg);
	}
	count = s.nprobs > INT32_MAX ? INT32_MAX : (int)s.nprobs;
	free(s.probs);
	for (i = 0; s.ids && i < s.pages.n; i++)
		gs_util_strvec_release(&s.ids[i]);
	free(s.ids);
	free(s.bad);
	for (i = 0; i < s.ndefer; i++) {
		free(s.defer[i].frag);
		free(s.defer[i].show);
	}
	free(s.defer);
	gs_util_strvec_release(&s.files);
	gs_util_strvec_release(&s.dirs);
	gs_util_strvec_release(&s.pages);
	gs_util_strvec_release(&s.cited);
	gs_util_strvec_release(&s.evlinks);
	gs_util_strvec_release(&s.listed);
	return count;
}
