/* evidence: the content-addressed archive of raw measurement files. */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE

#include "evidence.h"
#include "buf.h"
#include "infile.h"
#include "outfile.h"
#include "util.h"
#include "jsonread.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>
#include <nettle/sha2.h>

#define S_CHUNK ((size_t)1 << 20)          /* read size */
#define S_MEM_LIMIT ((size_t)64 << 20)     /* above this, spill to a temp file */

typedef struct {
	char hash[GS_SHA256_HEX_SIZE];
	char *file;       /* name inside evidence/ */
	uint64_t size;
	gs_strvec names;
	gs_strvec cited;
	int verified;     /* the file on disk was checked by this object */
} S_entry;

struct gs_archive {
	char *site;       /* without trailing slashes */
	char *evdir;      /* site/evidence */
	char *prev_evdir; /* evidence/ of the site being replaced, or NULL */
	S_entry *entries;
	size_t count, cap;
	size_t *slots;    /* open addressing: index + 1, 0 = empty */
	size_t nslots;    /* power of two */
	size_t added;
	int dir_dirty;    /* new names in evidence/ not yet fsync'ed */
	int broken;       /* the old manifest could not be read */
	int always;       /* gs_evidence_archive_always_manifest: written even when empty */
	gs_outtx *tx;     /* where new files and the manifest go, or NULL: now */
	char *load_err;   /* why the old manifest could not be read (broken) */
};

/* ---- small helpers ---- */

static void S_strvec_push(gs_strvec *v, const char *s)
{
	if (v->n && strcmp(v->v[v->n - 1], s) == 0)
		return; /* cheap dedup of repeats; full dedup when written */
	gs_util_strvec_push_dup(v, s);
}

static void S_fsync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd >= 0) {
		(void)gs_outfile_fsync(fd);
		close(fd);
	}
}

/* ---- hashing ---- */

void gs_evidence_hex_encode(const unsigned char *bytes, size_t n, char *out)
{
	static const char digits[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < n; i++) {
		out[2 * i] = digits[bytes[i] >> 4];
		out[2 * i + 1] = digits[bytes[i] & 0xf];
	}
	out[2 * n] = '\0';
}

int gs_evidence_sha256_hex_valid(const char *s)
{
	size_t i;

	for (i = 0; i < 64; i++) {
		char c = s[i];
		if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')))
			return 0;
	}
	return s[64] == '\0';
}

void gs_evidence_sha256_buffer(const void *data, size_t n, char hex[GS_SHA256_HEX_SIZE])
{
	struct sha256_ctx ctx;
	uint8_t dig[SHA256_DIGEST_SIZE];

	sha256_init(&ctx);
	sha256_update(&ctx, n, data);
	sha256_digest(&ctx, SHA256_DIGEST_SIZE, dig);
	gs_evidence_hex_encode(dig, SHA256_DIGEST_SIZE, hex);
}

static int S_sha256_fd(int fd, char hex[GS_SHA256_HEX_SIZE], uint64_t *size_out)
{
	struct sha256_ctx ctx;
	uint8_t dig[SHA256_DIGEST_SIZE];
	unsigned char *buf = gs_xmalloc(S_CHUNK);
	uint64_t total = 0;

	sha256_init(&ctx);
	for (;;) {
		ssize_t r = read(fd, buf, S_CHUNK);
		if (r < 0) {
			int e = errno;
			if (e == EINTR)
				continue;
			free(buf);
			errno = e;
			return -1;
		}
		if (r == 0)
			break;
		sha256_update(&ctx, (size_t)r, buf);
		total += (uint64_t)r;
	}
	free(buf);
	sha256_digest(&ctx, SHA256_DIGEST_SIZE, dig);
	gs_evidence_hex_encode(dig, SHA256_DIGEST_SIZE, hex);
	if (size_out)
		*size_out = total;
	return 0;
}

int gs_evidence_sha256_file(const char *path, char hex[GS_SHA256_HEX_SIZE],
		   uint64_t *size_out)
{
	int fd = gs_infile_open_regular(path, 0, NULL);  /* a FIFO: EINVAL, no wait */
	int rc, e;

	if (fd < 0)
		return -1;
	rc = S_sha256_fd(fd, hex, size_out);
	e = errno;
	close(fd);
	errno = e;
	return rc;
}

/* ---- the entry table ---- */

static size_t S_slot_of(const char *hash, size_t mask)
{
	size_t h = 0;
	int i;

	for (i = 0; i < 16; i++) {
		char c = hash[i];
		h = h * 16 + (size_t)(c <= '9' ? c - '0' : c - 'a' + 10);
	}
	return h & mask;
}

static S_entry *S_find(gs_archive *a, const char *hash)
{
	size_t mask, i;

	if (!a->nslots)
		return NULL;
	mask = a->nslots - 1;
	for (i = S_slot_of(hash, mask); a->slots[i]; i = (i + 1) & mask) {
		S_entry *e = &a->entries[a->slots[i] - 1];
		if (strcmp(e->hash, hash) == 0)
			return e;
	}
	return NULL;
}

static void S_rehash(gs_archive *a, size_t nslots)
{
	size_t k, mask = nslots - 1;

	free(a->slots);
	a->slots = gs_xcalloc(nslots, sizeof(*a->slots));
	a->nslots = nslots;
	for (k = 0; k < a->count; k++) {
		size_t i = S_slot_of(a->entries[k].hash, mask);
		while (a->slots[i])
			i = (i + 1) & mask;
		a->slots[i] = k + 1;
	}
}

/* A new entry; hash must not be present. */
static S_entry *S_insert(gs_archive *a, const char *hash, const char *file,
			 uint64_t size)
{
	S_entry *e;

	if (a->count == a->cap) {
		size_t nc = a->cap ? a->cap * 2 : 16;
		a->entries = gs_xrealloc(a->entries, nc * sizeof(*a->entries));
		a->cap = nc;
	}
	e = &a->entries[a->count++];
	memset(e, 0, sizeof(*e));
	memcpy(e->hash, hash, GS_SHA256_HEX_SIZE);
	e->file = gs_xstrdup(file);
	e->size = size;
	if ((a->count) * 2 > a->nslots)
		S_rehash(a, a->nslots ? a->nslots * 2 : 64);
	else {
		size_t mask = a->nslots - 1, i = S_slot_of(hash, mask);
		while (a->slots[i])
			i = (i + 1) & mask;
		a->slots[i] = a->count;
	}
	return e;
}

/* ---- file names ---- */

static const char *S_basename(const char *p)
{
	const char *s = strrchr(p, '/');
	return s ? s + 1 : p;
}

/* 1 if name ends in suffix (ASCII letters compared without case). */
static int S_ends_ci(const char *name, const char *suffix)
{
	size_t n = strlen(name), m = strlen(suffix), i;

	if (n < m)
		return 0;
	for (i = 0; i < m; i++) {
		char c = name[n - m + i];
		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		if (c != suffix[i])
			return 0;
	}
	return 1;
}

/*
 * The extension of an archived file, by its kind, never by the name it was
 * given (a file named "x.html" must not become a page of the site): a
 * measurement or a model's JSON file ".json", a model file's header
 * ("model:...header", binary) ".header", a log ".txt" when so named, else
 * ".log". Served as data or text, none is rendered by a browser.
 */
static const char *S_kind_ext(int kind, const char *name)
{
	if (kind == GS_EVIDENCE_LOG)
		return S_ends_ci(name, ".txt") ? ".txt" : ".log";
	if (strncmp(name, "model:", 6) == 0 && S_ends_ci(name, ".header"))
		return ".header";
	return ".json";
}

int gs_evidence_ext_allowed(const char *file)
{
	const char *dot = strrchr(file, '.');
	static const char *const ok[] = { ".json", ".log", ".txt", ".header", NULL };
	size_t i;

	if (!dot)
		return 1;
	for (i = 0; ok[i]; i++)
		if (strcmp(dot, ok[i]) == 0)
			return 1;
	return 0;
}

/* A valid evidence file name for hash: "<hash>" or "<hash>.<ext>", ext one archived. */
static int S_file_name_valid(const char *file, const char *hash)
{
	if (strncmp(file, hash, 64) != 0)
		return 0;
	if (file[64] == '\0')
		return 1;
	return file[64] == '.' && !strchr(file + 65, '.') && gs_evidence_ext_allowed(file + 64);
}

/* ---- manifest loading ---- */

static int S_load_strings(json_t *arr, gs_strvec *v,
			  const char *path, const char *key, const char *field, gs_error *err)
{
	size_t i;
	json_t *x;

	if (!json_is_array(arr)) {
		gs_error_set(err, "%s: entry %s: \"%s\" is not an array", path, key, field);
		return -1;
	}
	json_array_foreach(arr, i, x) {
		if (!json_is_string(x)) {
			gs_error_set(err, "%s: entry %s: \"%s\" holds a non-string", path,
			      key, field);
			return -1;
		}
		S_strvec_push(v, json_string_value(x));
	}
	return 0;
}

/*
 * The entries of a parsed manifest (root) into a. merge: an entry already
 * known gets the names and citations added (same size and file name, else
 * 1 is returned: the same bytes under another name); else none may be known.
 */
static int S_load_entries(gs_archive *a, json_t *root, const char *path, int merge, gs_error *err)
{
	json_t *entries, *fmt, *val;
	const char *key;

	fmt = json_object_get(root, "format");
	entries = json_object_get(root, "entries");
	if (!json_is_object(root) || !json_is_string(fmt) ||
	    strcmp(json_string_value(fmt), GS_EVIDENCE_FORMAT) != 0) {
		gs_error_set(err, "%s: not a manifest of format %s", path, GS_EVIDENCE_FORMAT);
		return -1;
	}
	if (!json_is_object(entries)) {
		gs_error_set(err, "%s: \"entries\" is not an object", path);
		return -1;
	}
	json_object_foreach(entries, key, val) {
		json_t *sha = json_object_get(val, "sha256");
		json_t *size = json_object_get(val, "size");
		json_t *file = json_object_get(val, "file");
		S_entry *e;

		if (!gs_evidence_sha256_hex_valid(key) || !json_is_object(val) ||
		    !json_is_string(sha) ||
		    strcmp(json_string_value(sha), key) != 0 ||
		    !json_is_integer(size) || json_integer_value(size) < 0 ||
		    !json_is_string(file)) {
			gs_error_set(err, "%s: malformed entry %.80s", path, key);
			return -1;
		}
		if (!S_file_name_valid(json_string_value(file), key)) {
			gs_error_set(err, "%s: entry %.80s: file \"%s\" is not <sha256>.json, "
				     ".log, .txt or .header (a browser could render it as a page)",
				     path, key, json_string_value(file));
			return -1;
		}
		e = merge ? S_find(a, key) : NULL;
		if (e && (e->size != (uint64_t)json_integer_value(size) ||
			  strcmp(e->file, json_string_value(file)) != 0)) {
			gs_error_set(err, "%s: %s is archived as %s and as %s", path, key, e->file,
			      json_string_value(file));
			return 1;
		}
		if (!e)
			e = S_insert(a, key, json_string_value(file),
				     (uint64_t)json_integer_value(size));
		if (S_load_strings(json_object_get(val, "names"), &e->names,
				   path, key, "names", err) != 0 ||
		    S_load_strings(json_object_get(val, "cited_by"),
				   &e->cited, path, key, "cited_by", err) != 0)
			return -1;
	}
	return 0;
}

static int S_load_manifest(gs_archive *a, gs_error *err)
{
	char *path = gs_xasprintf("%s/%s", a->evdir, GS_EVIDENCE_MANIFEST);
	json_error_t jerr;
	json_t *root;
	int rc;

	gs_error why = GS_ERROR_INIT;
	size_t len = 0;
	/* gpusheet's own file: never through a link, never a FIFO or a device */
	char *text = gs_infile_read_nofollow(path, GS_FILE_MAX_BYTES, &len, &why);

	if (!text) {
		int e = errno;
		struct stat st;
		if (e == ENOENT && lstat(path, &st) != 0) {
			gs_error_release(&why);
			free(path);
			return 0;
		}
		gs_error_set(err, "%s: cannot read manifest: %s", path, gs_error_message(&why));
		gs_error_release(&why);
		free(path);
		return -1;
	}
	root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
	free(text);
	if (!root) {
		gs_error_set(err, "%s:%d:%d: cannot read manifest: %s", path, jerr.line,
		      jerr.column, jerr.text);
		free(path);
		return -1;
	}
	rc = S_load_entries(a, root, path, 0, err) ? -1 : 0;
	json_decref(root);
	free(path);
	return rc;
}

/* ---- the archive ---- */

gs_archive *gs_evidence_archive(const char *site_dir, gs_error *err)
{
	gs_error le = GS_ERROR_INIT;
	gs_archive *a;
	size_t n;

	if (!site_dir || !*site_dir) {
		gs_error_set(err, "cannot open the evidence archive");
		return NULL;
	}
	a = gs_xmalloc(sizeof(*a));
	memset(a, 0, sizeof(*a));
	a->site = gs_xstrdup(site_dir);
	n = strlen(a->site);
	while (n > 1 && a->site[n - 1] == '/')
		a->site[--n] = '\0';
	a->evdir = gs_xasprintf("%s/%s", a->site, GS_EVIDENCE_DIR);
	if (S_load_manifest(a, &le) != 0) {
		a->broken = 1;
		a->load_err = gs_xstrdup(gs_error_message(&le));
		if (err)
			gs_error_move(err, &le);
		gs_error_release(&le);
	}
	return a;
}

size_t gs_evidence_archive_count(const gs_archive *a)
{
	return a ? a->count : 0;
}

size_t gs_evidence_archive_added(const gs_archive *a)
{
	return a ? a->added : 0;
}

void gs_evidence_archive_free(gs_archive *a)
{
	size_t i;

	if (!a)
		return;
	for (i = 0; i < a->count; i++) {
		free(a->entries[i].file);
		gs_util_strvec_release(&a->entries[i].names);
		gs_util_strvec_release(&a->entries[i].cited);
	}
	free(a->entries);
	free(a->slots);
	free(a->site);
	free(a->evdir);
	free(a->prev_evdir);
	free(a->load_err);
	free(a);
}

static int S_begin(gs_archive *a, gs_error *err)
{
	if (a->broken) /* the load error, again */
		return gs_error_set(err, "%s", a->load_err);
	return 0;
}

static int S_ensure_evdir(gs_archive *a, gs_error *err)
{
	struct stat st;

	if (mkdir(a->evdir, 0755) != 0 && errno != EEXIST) {
		gs_error_set(err, "%s: cannot create folder: %s", a->evdir, strerror(errno));
		return -1;
	}
	if (lstat(a->evdir, &st) != 0 || !S_ISDIR(st.st_mode)) {
		gs_error_set(err, "%s: not a folder", a->evdir);
		return -1;
	}
	return 0;
}

void gs_evidence_archive_set_tx(gs_archive *a, gs_outtx *tx)
{
	a->tx = tx;
}

void gs_evidence_archive_set_previous(gs_archive *a, const char *prev_site)
{
	free(a->prev_evdir);
	a->prev_evdir = prev_site ? gs_xasprintf("%s/%s", prev_site, GS_EVIDENCE_DIR) : NULL;
}

/* Create a temporary file in evidence/; path receives its name. */
static int S_temp(gs_archive *a, char **path, gs_error *err)
{
	int fd = gs_outfile_temp_open(a->evdir, path);

	if (fd < 0) {
		gs_error_set(err, "%s: cannot create a temporary file: %s", a->evdir,
		      strerror(errno));
		return -1;
	}
	(void)fchmod(fd, 0644);
	return fd;
}

/* Check an existing target against the expected hash and size. */
static int S_check_existing(const char *target,
			    const char *hash, uint64_t size, gs_error *err)
{
	struct stat st;
	char found[GS_SHA256_HEX_SIZE];
	uint64_t got;
	int fd;

	if (lstat(target, &st) != 0) {
		gs_error_set(err, "%s: %s", target, strerror(errno));
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		gs_error_set(err, "%s: exists and is not a regular file; not overwritten",
		      target);
		return -1;
	}
	fd = gs_infile_open_at(AT_FDCWD, target, 0, 0, NULL);
	if (fd < 0 || S_sha256_fd(fd, found, &got) != 0) {
		gs_error_set(err, "%s: cannot read: %s", target, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	if (got != size || strcmp(found, hash) != 0) {
		gs_error_set(err, "%s: exists with other content (expected %s, found %s); "
		      "not overwritten", target, hash, found);
		return -1;
	}
	return 0;
}

/* 1 if path is a regular file (not a symlink) of that size and hash. */
static int S_matches(const char *path, const char *hash, uint64_t size)
{
	struct stat st;
	char found[GS_SHA256_HEX_SIZE];
	uint64_t got;
	int fd, same;

	fd = gs_infile_open_at(AT_FDCWD, path, 0, 0, NULL);   /* (a FIFO never opened) */
	if (fd < 0)
		return 0;
	same = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
	       (uint64_t)st.st_size == size && S_sha256_fd(fd, found, &got) == 0 &&
	       got == size && strcmp(found, hash) == 0;
	close(fd);
	return same;
}

/*
 * The site being replaced already holds this file, checked byte for byte:
 * link it into the new tree (same inode, same mtime) instead of copying.
 * 1 if linked, 0 if not (the caller copies).
 */
static int S_reuse_previous(gs_archive *a, const char *fname, const char *target,
			    const char *hash, uint64_t size)
{
	char *prev;
	int ok;

	if (!a->prev_evdir)
		return 0;
	prev = gs_xasprintf("%s/%s", a->prev_evdir, fname);
	ok = S_matches(prev, hash, size) && link(prev, target) == 0;
	free(prev);
	return ok;
}

/* Normalized citation, relative to the site; NULL if none. */
static char *S_citation(const gs_archive *a, const char *sheet)
{
	size_t n = strlen(a->site);

	if (!sheet || !*sheet)
		return NULL;
	if (strncmp(sheet, a->site, n) == 0 && sheet[n] == '/')
		sheet += n + 1;
	while (sheet[0] == '.' && sheet[1] == '/')
		sheet += 2;
	return *sheet ? gs_xstrdup(sheet) : NULL;
}

/*
 * The manifest entry of a file placed or found under fname (e, or a new
 * one): verified, with its name in the workload and the sheet citing it;
 * out_rel (when not NULL) its link in the site.
 */
static void S_record(gs_archive *a, S_entry *e, const char *hex, const char *fname,
		     uint64_t size, const char *original_name, const char *citing_sheet,
		     char *out_rel)
{
	char *cite;

	if (!e)
		e = S_insert(a, hex, fname, size);
	e->verified = 1;
	S_strvec_push(&e->names, original_name);
	cite = S_citation(a, citing_sheet);
	if (cite) {
		S_strvec_push(&e->cited, cite);
		free(cite);
	}
	if (out_rel)
		snprintf(out_rel, GS_EVIDENCE_REL_SIZE, "%s/%s", GS_EVIDENCE_DIR, fname);
}

/* The bytes of one source file, read once: hashed, and kept in memory or,
 * past S_MEM_LIMIT, in a temporary file of evidence/; or the caller's bytes
 * and hash (gs_evidence_archive_add_bytes). */
typedef struct {
	gs_buf b;         /* the bytes read, while there is no spill file */
	int tfd;          /* spill file, or -1 */
	char *tmp;        /* its path, or NULL */
	uint64_t total;
	char hex[GS_SHA256_HEX_SIZE];
	const void *given; /* or NULL: the caller's bytes (gs_evidence_archive_add_bytes), given_len of them */
	size_t given_len;
} S_copy;

static void S_copy_release(S_copy *c)
{
	if (c->tfd >= 0)
		close(c->tfd);
	if (c->tmp) {
		unlink(c->tmp);
		free(c->tmp);
	}
	gs_buf_release(&c->b);
}

/* Step 1: one pass over the source, which must be a regular file. */
static int S_read_source(gs_archive *a, const char *src_path, S_copy *c, gs_error *err)
{
	struct sha256_ctx ctx;
	uint8_t dig[SHA256_DIGEST_SIZE];
	struct stat st;
	int src;

	/* O_NONBLOCK: a FIFO planted as evidence must not hang the open. */
	src = open(src_path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (src < 0 || fstat(src, &st) != 0) {
		gs_error_set(err, "%s: cannot open: %s", src_path, strerror(errno));
		if (src >= 0)
			close(src);
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		gs_error_set(err, "%s: not a regular file", src_path);
		close(src);
		return -1;
	}
	sha256_init(&ctx);
	for (;;) {
		ssize_t r;

		/* room for a chunk (and the NUL) in memory, at most S_MEM_LIMIT
		 * bytes, else the file from here on; its room stays, for each chunk */
		if (c->tfd < 0 && c->b.len + S_CHUNK >= S_MEM_LIMIT) {
			c->tfd = S_temp(a, &c->tmp, err);
			if (c->tfd < 0)
				goto fail;
			if (gs_outfile_write_all(c->tfd, c->b.data, c->b.len) != 0)
				goto write_err;
			gs_buf_truncate(&c->b, 0);
		} else if (c->tfd < 0) {
			gs_buf_grow(&c->b, S_CHUNK);
		}
		r = read(src, c->b.data + c->b.len, S_CHUNK);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			gs_error_set(err, "%s: read error: %s", src_path, strerror(errno));
			goto fail;
		}
		if (r == 0)
			break;
		sha256_update(&ctx, (size_t)r, (const uint8_t *)c->b.data + c->b.len);
		c->total += (uint64_t)r;
		c->b.len += (size_t)r;
		c->b.data[c->b.len] = '\0';
		if (c->tfd >= 0) {
			/* spilling: the chunk straight to the file */
			if (gs_outfile_write_all(c->tfd, c->b.data, c->b.len) != 0)
				goto write_err;
			gs_buf_truncate(&c->b, 0);
		}
	}
	close(src);
	sha256_digest(&ctx, SHA256_DIGEST_SIZE, dig);
	gs_evidence_hex_encode(dig, SHA256_DIGEST_SIZE, c->hex);
	return 0;
write_err:
	gs_error_set(err, "%s: cannot write: %s", c->tmp ? c->tmp : a->evdir, strerror(errno));
fail:
	close(src);
	return -1;
}

/* Step 3, new file: the bytes to a complete, fsync'ed temporary file, then
 * linked to target now, or at the commit of the archive's transaction. */
static int S_write_new(gs_archive *a, const char *target, S_copy *c, gs_error *err)
{
	struct stat st;

	if (c->tfd < 0) {
		c->tfd = S_temp(a, &c->tmp, err);
		if (c->tfd < 0)
			return -1;
		if (gs_outfile_write_all(c->tfd, c->given ? c->given : c->b.data,
				 c->given ? c->given_len : c->b.len) != 0)
			goto write_err;
	}
	if (gs_outfile_fsync(c->tfd) != 0)
		goto write_err;
	if (close(c->tfd) != 0) {
		c->tfd = -1;
		goto write_err;
	}
	c->tfd = -1;
	a->added++;
	a->dir_dirty = 1; /* the folder is fsync'ed with the manifest */
	if (a->tx) {
		gs_outfile_tx_add_noreplace(a->tx, c->tmp, target);
		c->tmp = NULL;
		return 0;
	}
	if (link(c->tmp, target) == 0)
		return 0;
	if (errno == EEXIST) /* someone else archived it meanwhile: check theirs */
		return S_check_existing(target, c->hex, c->total, err);
	if (errno != EPERM && errno != ENOTSUP && errno != ENOSYS) {
		gs_error_set(err, "%s: cannot create: %s", target, strerror(errno));
		return -1;
	}
	/* no hard links on this file system */
	if (lstat(target, &st) == 0)
		return S_check_existing(target, c->hex, c->total, err);
	if (rename(c->tmp, target) != 0) {
		gs_error_set(err, "%s: cannot create: %s", target, strerror(errno));
		return -1;
	}
	free(c->tmp);
	c->tmp = NULL;
	return 0;
write_err:
	gs_error_set(err, "%s: cannot write: %s", c->tmp ? c->tmp : a->evdir, strerror(errno));
	return -1;
}

/* Step 3: the file in evidence/: already there (checked), reused from the
 * replaced site, or written. */
static int S_place(gs_archive *a, S_entry *e, const char *fname, S_copy *c, gs_error *err)
{
	char *target = gs_xasprintf("%s/%s", a->evdir, fname);
	struct stat st;
	int rc;

	if (e && e->verified)
		rc = 0; /* checked earlier by this object */
	else if (lstat(target, &st) == 0)
		rc = S_check_existing(target, c->hex, c->total, err);
	else if (errno != ENOENT) {
		gs_error_set(err, "%s: %s", target, strerror(errno));
		rc = -1;
	} else if (S_reuse_previous(a, fname, target, c->hex, c->total)) {
		a->dir_dirty = 1;
		rc = 0;
	} else {
		rc = S_write_new(a, target, c, err);
	}
	free(target);
	return rc;
}

/* The name in evidence/ of hash for a file named original_name: a hash
 * known keeps its first name. The entry, or NULL when the hash is new. */
static S_entry *S_name(gs_archive *a, const char *hash, const char *original_name, int kind,
		       char fname[GS_SHA256_HEX_SIZE + GS_EVIDENCE_EXT_MAX + 1])
{
	S_entry *e = S_find(a, hash);

	if (e)
		snprintf(fname, GS_SHA256_HEX_SIZE + GS_EVIDENCE_EXT_MAX + 1, "%s", e->file);
	else
		snprintf(fname, GS_SHA256_HEX_SIZE + GS_EVIDENCE_EXT_MAX + 1, "%s%s", hash,
			 S_kind_ext(kind, original_name));
	return e;
}

/* Steps 2 to 4 of the bytes in c (read, or given), named original_name. */
static int S_add(gs_archive *a, S_copy *c, const char *original_name, int kind,
		 const char *citing_sheet, char out_rel[GS_EVIDENCE_REL_SIZE], gs_error *err)
{
	char fname[GS_SHA256_HEX_SIZE + GS_EVIDENCE_EXT_MAX + 1];
	S_entry *e;

	/* Step 2: the name in evidence/; a hash known keeps its first name. */
	e = S_name(a, c->hex, original_name, kind, fname);
	if (e && e->size != c->total) {
		gs_error_set(err, "%s/%s: manifest says %llu bytes, content has %llu",
		      a->evdir, fname, (unsigned long long)e->size,
		      (unsigned long long)c->total);
		return -1;
	}
	if (S_place(a, e, fname, c, err) != 0)
		return -1;

	/* Step 4: the manifest entry. */
	S_record(a, e, c->hex, fname, c->total, original_name, citing_sheet, out_rel);
	return 0;
}

int gs_evidence_archive_add(gs_archive *a, const char *src_path,
		   const char *original_name, const char *citing_sheet,
		   char out_rel[GS_EVIDENCE_REL_SIZE], gs_error *err)
{
	S_copy c;
	int rc = -1;

	if (!a || S_begin(a, err) != 0)
		return -1;
	if (!src_path || !*src_path) {
		gs_error_set(err, "no source file given");
		return -1;
	}
	if (!original_name || !*original_name)
		original_name = S_basename(src_path);
	if (S_ensure_evdir(a, err) != 0)
		return -1;
	memset(&c, 0, sizeof(c));
	gs_buf_init(&c.b, 0);
	c.tfd = -1;
	if (S_read_source(a, src_path, &c, err) == 0)
		rc = S_add(a, &c, original_name, GS_EVIDENCE_DATA, citing_sheet, out_rel, err);
	S_copy_release(&c);
	return rc;
}

static int S_add_bytes(gs_archive *a, const void *bytes, size_t len, const char *sha256_hex,
		       const char *original_name, int kind, const char *citing_sheet,
		       char out_rel[GS_EVIDENCE_REL_SIZE], gs_error *err)
{
	S_copy c;
	int rc;

	if (!a || S_begin(a, err) != 0)
		return -1;
	if (!original_name || !*original_name || (!bytes && len) || !sha256_hex ||
	    !gs_evidence_sha256_hex_valid(sha256_hex)) {
		gs_error_set(err, "no file name, bytes or SHA-256 given");
		return -1;
	}
	if (S_ensure_evdir(a, err) != 0)
		return -1;
	memset(&c, 0, sizeof(c));
	gs_buf_init(&c.b, 0);
	c.tfd = -1;
	c.given = bytes;
	c.given_len = len;
	c.total = len;
	memcpy(c.hex, sha256_hex, GS_SHA256_HEX_SIZE);
	rc = S_add(a, &c, original_name, kind, citing_sheet, out_rel, err);
	S_copy_release(&c);
	return rc;
}

int gs_evidence_archive_add_bytes(gs_archive *a, const void *bytes, size_t len,
			 const char *sha256_hex, const char *original_name,
			 const char *citing_sheet, char out_rel[GS_EVIDENCE_REL_SIZE], gs_error *err)
{
	return S_add_bytes(a, bytes, len, sha256_hex, original_name, GS_EVIDENCE_DATA, citing_sheet,
			   out_rel, err);
}

int gs_evidence_archive_add_log_bytes(gs_archive *a, const void *bytes, size_t len,
			     const char *sha256_hex, const char *original_name,
			     const char *citing_sheet, char out_rel[GS_EVIDENCE_REL_SIZE],
			     gs_error *err)
{
	return S_add_bytes(a, bytes, len, sha256_hex, original_name, GS_EVIDENCE_LOG, citing_sheet,
			   out_rel, err);
}

int gs_evidence_archive_add_known(gs_archive *a, const char *sha256_hex, uint64_t size,
			 const char *original_name, const char *citing_sheet,
			 char out_rel[GS_EVIDENCE_REL_SIZE], gs_error *err)
{
	char fname[GS_SHA256_HEX_SIZE + GS_EVIDENCE_EXT_MAX + 1];
	S_entry *e;

	if (!a || S_begin(a, err) != 0 || !original_name || !*original_name || !sha256_hex ||
	    !gs_evidence_sha256_hex_valid(sha256_hex) || S_ensure_evdir(a, err) != 0)
		return -1;
	e = S_name(a, sha256_hex, original_name, GS_EVIDENCE_DATA, fname);
	if (e && e->size != size)
		return 1;
	if (!e || !e->verified) {
		/* only a file of the replaced site, linked unread (its name is its hash) */
		char *prev, *target;
		struct stat st;
		int ok;
		if (!a->prev_evdir)
			return 1;
		prev = gs_xasprintf("%s/%s", a->prev_evdir, fname);
		target = gs_xasprintf("%s/%s", a->evdir, fname);
		ok = lstat(prev, &st) == 0 && S_ISREG(st.st_mode) && (uint64_t)st.st_size == size &&
		     lstat(target, &st) != 0 && errno == ENOENT && link(prev, target) == 0;
		free(prev);
		free(target);
		if (!ok)
			return 1;
		a->dir_dirty = 1;
	}
	S_record(a, e, sha256_hex, fname, size, original_name, citing_sheet, out_rel);
	return 0;
}

void gs_evidence_archive_name(gs_archive *a, const char *sha256_hex, const char *original_name,
		     char out_rel[GS_EVIDENCE_REL_SIZE])
{
	char fname[GS_SHA256_HEX_SIZE + GS_EVIDENCE_EXT_MAX + 1];

	(void)S_name(a, sha256_hex, original_name, GS_EVIDENCE_DATA, fname);
	snprintf(out_rel, GS_EVIDENCE_REL_SIZE, "%s/%s", GS_EVIDENCE_DIR, fname);
}

void gs_evidence_archive_name_log(gs_archive *a, const char *sha256_hex, const char *original_name,
			 char out_rel[GS_EVIDENCE_REL_SIZE])
{
	char fname[GS_SHA256_HEX_SIZE + GS_EVIDENCE_EXT_MAX + 1];

	(void)S_name(a, sha256_hex, original_name, GS_EVIDENCE_LOG, fname);
	snprintf(out_rel, GS_EVIDENCE_REL_SIZE, "%s/%s", GS_EVIDENCE_DIR, fname);
}

static int S_entry_cmp(const void *x, const void *y)
{
	return strcmp(((const S_entry *)x)->hash, ((const S_entry *)y)->hash);
}

static json_t *S_json_strings(gs_strvec *v)
{
	json_t *arr = json_array();
	size_t i;

	gs_util_strvec_sort_unique(v);
	for (i = 0; i < v->n; i++)
		json_array_append_new(arr, json_string(v->v[i]));
	return arr;
}

/* 1 if path holds exactly bytes[0..n). */
static int S_same_bytes(const char *path, const char *bytes, size_t n)
{
	/* (a FIFO or a device planted there is never opened for reading) */
	int fd = gs_infile_open_at(AT_FDCWD, path, 0, n, NULL);
	struct stat st;
	char *buf;
	size_t got = 0;
	int same = 0;

	if (fd < 0)
		return 0;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (size_t)st.st_size == n) {
		buf = gs_xmalloc(n);
		while (got < n) {
			ssize_t r = read(fd, buf + got, n - got);
			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0)
				break;
			got += (size_t)r;
		}
		same = got == n && memcmp(buf, bytes, n) == 0;
		free(buf);
	}
	close(fd);
	return same;
}

/* The manifest's bytes (sorted, unique, trailing newline); caller frees. */
static char *S_manifest_text(gs_archive *a, size_t *len)
{
	json_t *root, *entries;
	char *text;
	size_t i, n;

	/* sort the entries (and rebuild the index) for a stable order */
	if (a->count > 1) {
		qsort(a->entries, a->count, sizeof(*a->entries), S_entry_cmp);
		S_rehash(a, a->nslots);
	}

	root = json_object();
	entries = json_object();
	for (i = 0; i < a->count; i++) {
		S_entry *e = &a->entries[i];
		json_t *o = json_object();
		json_object_set_new(o, "sha256", json_string(e->hash));
		json_object_set_new(o, "size", json_integer((json_int_t)e->size));
		json_object_set_new(o, "file", json_string(e->file));
		json_object_set_new(o, "names", S_json_strings(&e->names));
		json_object_set_new(o, "cited_by", S_json_strings(&e->cited));
		json_object_set_new(entries, e->hash, o);
	}
	json_object_set_new(root, "entries", entries);
	json_object_set_new(root, "format", json_string(GS_EVIDENCE_FORMAT));
	text = json_dumps(root, JSON_SORT_KEYS | JSON_INDENT(2));
	json_decref(root);
	if (!text)
		GS_BUG("json_dumps of the manifest failed (out of memory)");
	n = strlen(text);
	{
		text = gs_xrealloc(text, n + 2);
		text[n++] = '\n';
		text[n] = '\0';
	}
	*len = n;
	return text;
}

void gs_evidence_archive_always_manifest(gs_archive *a)
{
	a->always = 1;
}

int gs_evidence_archive_write_manifest(gs_archive *a, gs_error *err)
{
	char *text = NULL, *path = NULL;
	size_t n;
	int rc = -1;
	struct stat st;

	if (!a || S_begin(a, err) != 0)
		return -1;
	if (a->count == 0 && !a->always && lstat(a->evdir, &st) != 0 && errno == ENOENT)
		return 0;
	if (S_ensure_evdir(a, err) != 0)
		return -1;
	text = S_manifest_text(a, &n);

	path = gs_xasprintf("%s/%s", a->evdir, GS_EVIDENCE_MANIFEST);
	if (a->prev_evdir && lstat(path, &st) != 0) {
		/* the replaced site's manifest, when the same bytes: linked, untouched */
		char *prev = gs_xasprintf("%s/%s", a->prev_evdir, GS_EVIDENCE_MANIFEST);
		int same = S_same_bytes(prev, text, n) && link(prev, path) == 0;
		free(prev);
		if (same) {
			S_fsync_dir(a->evdir);
			a->dir_dirty = 0;
			rc = 0;
			goto out;
		}
	}
	if (S_same_bytes(path, text, n)) {
		if (a->dir_dirty && !a->tx)
			S_fsync_dir(a->evdir);
		a->dir_dirty = 0;
		rc = 0;
		goto out;
	}
	if (a->tx ? gs_outfile_tx_add(a->tx, a->evdir, GS_EVIDENCE_MANIFEST, text, n, err)
		  : gs_outfile_write_atomic(a->evdir, GS_EVIDENCE_MANIFEST, text, n, err))
		goto out;
	if (!a->tx) /* else the commit fsyncs the folder */
		S_fsync_dir(a->evdir);
	a->dir_dirty = 0;
	rc = 0;
out:
	free(path);
	free(text);
	return rc;
}

char *gs_evidence_archive_export(gs_archive *a, size_t *len)
{
	return S_manifest_text(a, len);
}

int gs_evidence_archive_import(gs_archive *a, const char *text, size_t len, gs_error *err)
{
	return gs_evidence_archive_import_from(a, text, len, "a worker's manifest", err);
}

int gs_evidence_archive_import_from(gs_archive *a, const char *text, size_t len, const char *name, gs_error *err)
{
	json_error_t jerr;
	json_t *root;
	int rc;

	if (!a || S_begin(a, err) != 0)
		return -1;
	root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
	if (!root) {
		gs_error_set(err, "%s:%d:%d: %s", name, jerr.line, jerr.column, jerr.text);
		return -1;
	}
	rc = S_load_entries(a, root, name, 1, err);
	json_decref(root);
	return rc;
}
