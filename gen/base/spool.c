/* spool: per-item lists of strings kept in a temporary file. */
#define _GNU_SOURCE
#include "spool.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "outfile.h"
#include "util.h"

#define S_WBUF (64 * 1024)

struct gs_spool {
	int fd;
	uint64_t *off;          /* off[i]: where item i starts; off[count]: the end */
	size_t count, cap;
	char *wbuf;             /* appended bytes not yet written, from off of the first */
	size_t wlen, wcap;
	uint64_t written;       /* bytes in the file */
	char *rbuf;             /* items [rfrom, rto) as loaded */
	size_t rcap, rfrom, rto;
};

/*
 * An item: u32 nv, nv x u32 offset of string j from the item's start (0:
 * NULL), then the strings, each with its NUL. Native byte order: the file
 * lives and dies with the process.
 */

gs_spool *gs_spool_new(const char *dir, gs_error *err)
{
	gs_spool *s;
	int fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);

	if (fd < 0) {
		/* No O_TMPFILE on this file system: a named file, unlinked at once. */
		char *path = NULL;
		int wfd = gs_outfile_temp_open(dir, &path);
		if (wfd >= 0) {
			/* gs_outfile_temp_open opens for writing only: once more to read, then unlinked. */
			fd = open(path, O_RDWR | O_NOFOLLOW | O_CLOEXEC);
			unlink(path);
			close(wfd);
		}
		free(path);
	}
	if (fd < 0) {
		gs_error_set(err, "%s: cannot create a temporary file: %s", dir, strerror(errno));
		return NULL;
	}
	s = gs_xcalloc(1, sizeof(*s));
	s->fd = fd;
	s->cap = 64;
	s->off = gs_xcalloc(s->cap, sizeof(*s->off));
	s->wcap = S_WBUF;
	s->wbuf = gs_xmalloc(s->wcap);
	return s;
}

static int S_flush(gs_spool *s, gs_error *err)
{
	if (!s->wlen)
		return 0;
	if (gs_outfile_write_all(s->fd, s->wbuf, s->wlen) != 0) {
		gs_error_set(err, "cannot write a temporary file: %s", strerror(errno));
		return -1;
	}
	s->written += s->wlen;
	s->wlen = 0;
	return 0;
}

static void S_reserve(gs_spool *s, size_t more)
{
	while (s->wcap - s->wlen < more) {
		if (s->wcap > SIZE_MAX / 2)
			GS_BUG("spool item too large");
		s->wcap *= 2;
	}
	s->wbuf = gs_xrealloc(s->wbuf, s->wcap);
}

int gs_spool_put(gs_spool *s, char *const *v, size_t nv, gs_error *err)
{
	size_t head = 4 + 4 * nv, size = head, j, at;
	uint32_t u;

	for (j = 0; j < nv; j++)
		if (v[j])
			size += strlen(v[j]) + 1;
	if (nv > UINT32_MAX / 4 || size > UINT32_MAX) {
		gs_error_set(err, "an item of %zu bytes is too large to spool", size);
		return -1;
	}
	if (s->wlen && s->wcap - s->wlen < size && S_flush(s, err))
		return -1;
	S_reserve(s, size);
	at = s->wlen;
	u = (uint32_t)nv;
	memcpy(s->wbuf + at, &u, 4);
	size = head;
	for (j = 0; j < nv; j++) {
		u = v[j] ? (uint32_t)size : 0;
		memcpy(s->wbuf + at + 4 + 4 * j, &u, 4);
		if (v[j]) {
			size_t n = strlen(v[j]) + 1;
			memcpy(s->wbuf + at + size, v[j], n);
			size += n;
		}
	}
	s->wlen += size;
	if (s->count + 1 >= s->cap) {
		s->cap *= 2;
		s->off = gs_xrealloc(s->off, s->cap * sizeof(*s->off));
	}
	s->off[s->count + 1] = s->off[s->count] + size;
	s->count++;
	return 0;
}

int gs_spool_flush(gs_spool *s, gs_error *err)
{
	return S_flush(s, err);
}

size_t gs_spool_count(const gs_spool *s)
{
	return s->count;
}

int gs_spool_load(gs_spool *s, size_t from, size_t to, gs_error *err)
{
	uint64_t a, b;
	size_t n, got = 0;

	if (from > to || to > s->count)
		GS_BUG("spool range [%zu, %zu) of %zu items", from, to, s->count);
	a = s->off[from];
	b = s->off[to];
	if (b - a > SIZE_MAX - 1)
		GS_BUG("spool range too large");
	n = (size_t)(b - a);
	if (n + 1 > s->rcap) {
		s->rcap = n + 1;
		s->rbuf = gs_xrealloc(s->rbuf, s->rcap);
	}
	if (a >= s->written) {
		/* not written yet: copied from the buffer, nothing written or read */
		memcpy(s->rbuf, s->wbuf + (size_t)(a - s->written), n);
		got = n;
	} else if (S_flush(s, err)) {
		s->rfrom = s->rto = 0;
		return -1;
	}
	while (got < n) {
		ssize_t r = pread(s->fd, s->rbuf + got, n - got, (off_t)(a + got));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			gs_error_set(err, "cannot read a temporary file back: %s",
				 r < 0 ? strerror(errno) : "it is shorter than written");
			s->rfrom = s->rto = 0;
			return -1;
		}
		got += (size_t)r;
	}
	s->rfrom = from;
	s->rto = to;
	return 0;
}

static const char *S_item(const gs_spool *s, size_t i)
{
	if (i < s->rfrom || i >= s->rto)
		GS_BUG("spool item %zu not loaded ([%zu, %zu))", i, s->rfrom, s->rto);
	return s->rbuf + (s->off[i] - s->off[s->rfrom]);
}

size_t gs_spool_size(const gs_spool *s, size_t i)
{
	uint32_t nv;

	memcpy(&nv, S_item(s, i), 4);
	return nv;
}

const char *gs_spool_get(const gs_spool *s, size_t i, size_t j)
{
	const char *it = S_item(s, i);
	uint32_t nv, o;

	memcpy(&nv, it, 4);
	if (j >= nv)
		return NULL;
	memcpy(&o, it + 4 + 4 * j, 4);
	return o ? it + o : NULL;
}

void gs_spool_free(gs_spool *s)
{
	if (!s)
		return;
	close(s->fd);
	free(s->off);
	free(s->wbuf);
	free(s->rbuf);
	free(s);
}
