/* site: the keys file read a line at a time (site_keys.h, docs/formats.md 6). */
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

#include "infile.h"
#include "jsonread.h"
#include "util.h"

#define S_SHEET "{\"sheet\":\""
#define S_PAGE "{\"page\":"
#define S_FORMAT "{\"format\":\"gpusheet-keys/"
#define S_HEAD_MAX 4096                 /* bytes of a line looked at by its prefix */
#define S_LINE_MAX ((uint64_t)1 << 26)  /* a line's bytes (64 MiB; a sheet's: ~25 KB at 883 offers) */

/* The file read forward by blocks (pread: the descriptor's offset is shared with workers). */
typedef struct {
	int fd;
	char buf[65536];
	size_t pos, end;
	uint64_t at;         /* the file offset of buf[end] */
} S_rd;

/*
 * The next line: its offset and length (*len, its newline included) and
 * its first bytes, at most S_HEAD_MAX of them, in head (*hlen). 1, 0 at
 * the end of the file, -1 on a line without its newline (the file cut
 * short) or longer than S_LINE_MAX, -2 on a read error.
 */
static int S_line(S_rd *r, char *head, size_t *hlen, uint64_t *off, uint64_t *len)
{
	*hlen = 0;
	*len = 0;
	*off = r->at - (r->end - r->pos);
	for (;;) {
		const char *nl;
		size_t n, h;
		ssize_t got;

		if (r->pos == r->end) {
			do
				got = pread(r->fd, r->buf, sizeof(r->buf), (off_t)r->at);
			while (got < 0 && errno == EINTR);
			if (got < 0)
				return -2;
			if (got == 0)
				return *len ? -1 : 0;
			r->pos = 0;
			r->end = (size_t)got;
			r->at += (uint64_t)got;
		}
		nl = memchr(r->buf + r->pos, '\n', r->end - r->pos);
		n = nl ? (size_t)(nl - (r->buf + r->pos)) + 1 : r->end - r->pos;
		h = *hlen + n <= S_HEAD_MAX ? n : S_HEAD_MAX - *hlen;
		memcpy(head + *hlen, r->buf + r->pos, h);
		*hlen += h;
		*len += n;
		r->pos += n;
		if (*len > S_LINE_MAX)
			return -1;
		if (nl)
			return 1;
	}
}

void gs_site_keys_close(gs_site_keys *k)
{
	if (k->f)
		fclose(k->f);
	gs_buf_release(&k->ids);
	free(k->sheets);
	memset(k, 0, sizeof(*k));
}

/*
 * The first line (head, hlen bytes, its newline included): this format's
 * {"format": ...}, nothing else. 0, or -1 with why.
 */
static int S_header(const char *head, size_t hlen, uint64_t len, gs_error *why)
{
	json_t *o = len == hlen ? json_loadb(head, hlen - 1, JSON_REJECT_DUPLICATES, NULL) : NULL;
	const char *fs = json_string_value(json_object_get(o, "format"));
	int ours = fs && strcmp(fs, GS_SITE_KEYS_FORMAT) == 0;
	int ok = ours && json_object_size(o) == 1;

	json_decref(o);   /* (fs goes with it) */
	if (ok)
		return 0;
	if (hlen > sizeof(S_FORMAT) && memcmp(head, S_FORMAT, sizeof(S_FORMAT) - 1) == 0 && !ours) {
		/* an earlier gpusheet's (gpusheet-keys/3 was one JSON object) */
		size_t n = sizeof(S_FORMAT) - 1;
		while (n < hlen && n < 40 && head[n] >= '0' && head[n] <= '9')
			n++;
		gs_error_set(why, "is of format %.*s, written by an earlier gpusheet, not %s: "
			     "build the site again from scratch (a site build over it does; "
			     "shards must be built again)", (int)(n - 11), head + 11,
			     GS_SITE_KEYS_FORMAT);
		return -1;
	}
	gs_error_set(why, "line 1: expected {\"format\":\"%s\"} and a newline", GS_SITE_KEYS_FORMAT);
	return -1;
}

/*
 * A sheet's line (head: its first bytes, hlen of them): its id, after the
 * prefix and before '",' (an id needs no escape: [a-z0-9][a-z0-9._-]*, 1
 * to 64 bytes, gs_jr_is_id), pushed after the last one, which it must
 * follow in byte order. 0, or -1 with why.
 */
static int S_sheet(gs_site_keys *k, size_t *cap, const char *head, size_t hlen, uint64_t off,
		   uint64_t len, size_t lineno, gs_error *why)
{
	const size_t pl = sizeof(S_SHEET) - 1;
	const char *q = hlen > pl ? memchr(head + pl, '"', hlen - pl) : NULL;
	size_t idlen = q ? (size_t)(q - head) - pl : 0;
	char id[72];

	if (!q || idlen > 64 || (size_t)(q - head) + 2 > hlen || q[1] != ',') {
		gs_error_set(why, "line %zu: expected {\"sheet\":\"ID\", and the sheet's members",
			     lineno);
		return -1;
	}
	memcpy(id, head + pl, idlen);
	id[idlen] = '\0';
	if (!gs_jr_is_id(id)) {
		gs_error_set(why, "line %zu: a sheet's id is [a-z0-9][a-z0-9._-]*, 1 to 64 bytes",
			     lineno);
		return -1;
	}
	if (k->nsheets && strcmp(k->ids.data + k->sheets[k->nsheets - 1].id, id) >= 0) {
		gs_error_set(why, "line %zu: sheet %s after %s (the sheets are sorted by id, "
			     "each once)", lineno, id, k->ids.data + k->sheets[k->nsheets - 1].id);
		return -1;
	}
	if (k->nsheets == *cap) {
		*cap = *cap ? *cap * 2 : 64;
		k->sheets = gs_xrealloc(k->sheets, *cap * sizeof(*k->sheets));
	}
	k->sheets[k->nsheets].id = k->ids.len;
	k->sheets[k->nsheets].off = off;
	k->sheets[k->nsheets].len = len;
	k->nsheets++;
	gs_buf_put(&k->ids, id, idlen + 1);
	return 0;
}

/* The lines of k->f, indexed (gs_site_keys_open); 0 or -1 with why. */
static int S_index(gs_site_keys *k, gs_error *why)
{
	S_rd *r = gs_xcalloc(1, sizeof(*r));
	char *head = gs_xmalloc(S_HEAD_MAX);
	size_t hlen, lineno = 1, cap = 0, npages = 0;
	uint64_t off, len;
	int got, rc = -1;

	r->fd = fileno(k->f);
	got = S_line(r, head, &hlen, &off, &len);
	if (got == 0) {
		gs_error_set(why, "is empty (expected {\"format\":\"%s\"} on its first line)",
			     GS_SITE_KEYS_FORMAT);
		goto out;
	}
	if (got == 1 && S_header(head, hlen, len, why))
		goto out;
	if (got == 1)
		k->pages_off = off + len;
	else
		lineno = 0;   /* (the first line is the one that failed) */
	while (got == 1 && (got = S_line(r, head, &hlen, &off, &len)) == 1) {
		lineno++;
		if (hlen > sizeof(S_PAGE) - 1 && memcmp(head, S_PAGE, sizeof(S_PAGE) - 1) == 0 &&
		    !k->nsheets) {
			npages++;
			k->pages_len += len;
		} else if (hlen > sizeof(S_SHEET) - 1 &&
			   memcmp(head, S_SHEET, sizeof(S_SHEET) - 1) == 0) {
			if (S_sheet(k, &cap, head, hlen, off, len, lineno, why))
				goto out;
		} else {
			gs_error_set(why, "line %zu: expected a page's line ({\"page\":, before the "
				     "sheets) or a sheet's ({\"sheet\":\"ID\",)", lineno);
			goto out;
		}
	}
	if (got == -1)
		gs_error_set(why, "line %zu: cut short (no newline at its end) or over 64 MiB",
			     lineno + 1);
	else if (got == -2)
		gs_error_set(why, "line %zu: cannot read: %s", lineno + 1, strerror(errno));
	else
		rc = 0;
	k->sheets_lineno = 2 + npages;
out:
	free(head);
	free(r);
	return rc;
}

int gs_site_keys_open(const char *dir, gs_site_keys *k, gs_error *why)
{
	char *path = gs_xasprintf("%s/%s", dir, GS_SITE_KEYS_FILE);
	/* gpusheet's own file: a regular one within its bound, opened without
	 * following a link and without blocking (a FIFO planted there) */
	int fd = gs_infile_open_at(AT_FDCWD, path, 0, GS_SITE_KEYS_MAX_BYTES, why);

	memset(k, 0, sizeof(*k));
	free(path);
	if (fd < 0)
		return -1;
	k->f = fdopen(fd, "rb");
	if (!k->f)
		GS_OOM("fdopen of a keys file");
	if (S_index(k, why) == 0)
		return 0;
	gs_site_keys_close(k);
	return -1;
}

const char *gs_site_keys_line_id(const gs_site_keys *k, const gs_site_keys_line *l)
{
	return k->ids.data + l->id;
}

size_t gs_site_keys_lineno(const gs_site_keys *k, const gs_site_keys_line *l)
{
	return k->sheets_lineno + (size_t)(l - k->sheets);
}

const gs_site_keys_line *gs_site_keys_find(const gs_site_keys *k, const char *id)
{
	size_t lo = 0, hi = k->f ? k->nsheets : 0;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(k->ids.data + k->sheets[mid].id, id);
		if (c == 0)
			return &k->sheets[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* n bytes of fd at off into a new buffer (and a NUL), or NULL. */
static char *S_pread(int fd, uint64_t off, size_t n)
{
	char *buf = gs_xmalloc(n + 1);
	size_t got = 0;

	while (got < n) {
		ssize_t r = pread(fd, buf + got, n - got, (off_t)(off + got));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			free(buf);
			return NULL;
		}
		got += (size_t)r;
	}
	buf[n] = '\0';
	return buf;
}

json_t *gs_site_keys_load(const gs_site_keys *k, const gs_site_keys_line *l, char **bytes,
			  gs_error *why)
{
	size_t lineno = gs_site_keys_lineno(k, l);
	char *buf = S_pread(fileno(k->f), l->off, (size_t)l->len);
	json_error_t e;
	json_t *o;

	if (bytes)
		*bytes = NULL;
	if (!buf) {
		gs_error_set(why, "line %zu: cannot read it again", lineno);
		return NULL;
	}
	/* (its newline left out: jansson reads one text) */
	o = json_loadb(buf, (size_t)l->len - 1, JSON_REJECT_DUPLICATES, &e);
	if (!o) {
		gs_error_set(why, "line %zu, column %d: %s", lineno, e.column, e.text);
		free(buf);
		return NULL;
	}
	if (!json_is_string(json_object_get(o, "sheet"))) {
		/* (the prefix gives "sheet" first; jansson says where a text went wrong) */
		GS_BUG("line %zu parsed without its \"sheet\"", lineno);
	}
	if (bytes)
		*bytes = buf;
	else
		free(buf);
	return o;
}

int gs_site_keys_pages(const gs_site_keys *k, void (*fn)(void *arg, const char *name,
							 const char *key),
		       void *arg, gs_error *why)
{
	S_rd *r = gs_xcalloc(1, sizeof(*r));
	char *head = gs_xmalloc(S_HEAD_MAX);
	uint64_t off, len, end = k->pages_off + k->pages_len;
	size_t hlen, lineno = 1;
	int rc = 0;

	r->fd = fileno(k->f);
	r->at = k->pages_off;
	while (rc == 0 && r->at - (r->end - r->pos) < end &&
	       S_line(r, head, &hlen, &off, &len) == 1) {
		json_error_t e;
		json_t *o = len == hlen ? json_loadb(head, hlen - 1, JSON_REJECT_DUPLICATES, &e)
					: NULL;
		const char *name = json_string_value(json_object_get(o, "page"));
		const char *key = json_string_value(json_object_get(o, "key"));
		lineno++;
		if (name && key && json_object_size(o) == 2) {
			fn(arg, name, key);
		} else {
			gs_error_set(why, "line %zu: expected {\"page\":NAME,\"key\":KEY}, %s",
				     lineno, o ? "two strings" : len == hlen ? e.text : "over 4 KB");
			rc = -1;
		}
		json_decref(o);
	}
	free(head);
	free(r);
	return rc;
}

static void S_no_page(void *arg, const char *name, const char *key)
{
	(void)arg;
	(void)name;
	(void)key;
}

int gs_site_keys_check(const char *dir, gs_error *why)
{
	char *path = gs_xasprintf("%s/%s", dir, GS_SITE_KEYS_FILE);
	struct stat st;
	gs_site_keys k;
	size_t i;
	int absent = lstat(path, &st) != 0 && errno == ENOENT, rc = 0;

	free(path);
	if (absent)
		return 0;
	if (gs_site_keys_open(dir, &k, why))
		return -1;
	/* every line parsed, one at a time */
	if (gs_site_keys_pages(&k, S_no_page, NULL, why))
		rc = -1;
	for (i = 0; rc == 0 && i < k.nsheets; i++) {
		json_t *o = gs_site_keys_load(&k, &k.sheets[i], NULL, why);
		if (!o)
			rc = -1;
		json_decref(o);
	}
	gs_site_keys_close(&k);
	return rc;
}

int gs_site_keys_format(const char *dir, gs_error *why)
{
	char *path = gs_xasprintf("%s/%s", dir, GS_SITE_KEYS_FILE);
	int fd = gs_infile_open_at(AT_FDCWD, path, 0, GS_SITE_KEYS_MAX_BYTES, NULL), rc = 0;
	S_rd *r;
	char *head;
	size_t hlen;
	uint64_t off, len;

	free(path);
	if (fd < 0)
		return 0;
	r = gs_xcalloc(1, sizeof(*r));
	head = gs_xmalloc(S_HEAD_MAX);
	r->fd = fd;
	if (S_line(r, head, &hlen, &off, &len) == 1 && S_header(head, hlen, len, NULL) != 0 &&
	    hlen > sizeof(S_FORMAT) && memcmp(head, S_FORMAT, sizeof(S_FORMAT) - 1) == 0)
		rc = S_header(head, hlen, len, why);
	free(head);
	free(r);
	close(fd);
	return rc;
}
