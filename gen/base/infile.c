/* infile: opening input files so that a hostile path cannot hang, escape or leak. */
#define _POSIX_C_SOURCE 200809L
#include "infile.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *S_kind(mode_t m)
{
	return S_ISDIR(m) ? "a folder" : S_ISFIFO(m) ? "a FIFO" : S_ISSOCK(m) ? "a socket"
	       : S_ISCHR(m) ? "a character device" : S_ISBLK(m) ? "a block device"
	       : S_ISLNK(m) ? "a symbolic link" : "not a regular file";
}

/* fd open with O_NONBLOCK: a regular file within the bound, back to blocking. */
static int S_check_fd(int fd, size_t max_bytes, gs_error *err)
{
	struct stat st;
	int fl, e;

	if (fstat(fd, &st) != 0) {
		e = errno;
		gs_error_set(err, "cannot read: %s", strerror(e));
		goto fail;
	}
	if (!S_ISREG(st.st_mode)) {
		e = EINVAL;
		gs_error_set(err, "is %s, not a regular file", S_kind(st.st_mode));
		goto fail;
	}
	if (max_bytes && (unsigned long long)st.st_size > (unsigned long long)max_bytes) {
		e = EFBIG;
		gs_error_set(err, "is %llu bytes, more than the bound of %llu bytes",
			 (unsigned long long)st.st_size, (unsigned long long)max_bytes);
		goto fail;
	}
	fl = fcntl(fd, F_GETFL);
	if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) != 0) {
		e = errno;
		gs_error_set(err, "cannot read: %s", strerror(e));
		goto fail;
	}
	return fd;
fail:
	close(fd);
	errno = e;
	return -1;
}

int gs_infile_open_regular(const char *path, size_t max_bytes, gs_error *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);

	if (fd < 0) {
		gs_error_set(err, "cannot read: %s", strerror(errno));
		return -1;
	}
	return S_check_fd(fd, max_bytes, err);
}

int gs_infile_open_at(int dfd, const char *name, int follow, size_t max_bytes, gs_error *err)
{
	int fd = openat(dfd, name, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY |
			(follow ? 0 : O_NOFOLLOW));

	if (fd < 0) {
		int e = errno;
		struct stat st;
		char target[PATH_MAX];   /* a link's target, whole (a path is never cut) */
		ssize_t n;

		if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode)) {
			if (!follow) {
				gs_error_set(err, "is a symbolic link (not followed)");
				errno = ELOOP;
				return -1;
			}
			if (e == ENOENT && (n = readlinkat(dfd, name, target, sizeof(target) - 1)) >= 0) {
				target[n] = '\0';
				gs_error_set(err, "is a dangling symbolic link to '%s' (its target "
					 "does not exist)", target);
				errno = e;
				return -1;
			}
		}
		gs_error_set(err, "cannot read: %s", strerror(e));
		errno = e;
		return -1;
	}
	return S_check_fd(fd, max_bytes, err);
}

/*
 * Why component comp (at p, n bytes, of rel) could not be opened (errno e):
 * a symbolic link (ELOOP; ENOTDIR for a folder's component that is one),
 * else what the open said. Looked at after the open failed, for the message
 * only.
 */
static void S_refused(int dfd, const char *rel, const char *p, size_t n, const char *comp,
		      int e, gs_error *err)
{
	struct stat st;

	if ((e == ELOOP || e == ENOTDIR) && fstatat(dfd, comp, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    S_ISLNK(st.st_mode))
		gs_error_set(err, "'%.*s' is a symbolic link (not followed: only a regular "
			 "file inside the folder is read)", (int)(p - rel + (ptrdiff_t)n), rel);
	else
		gs_error_set(err, "cannot read: %s", strerror(e));
}

/*
 * Test builds (GS_FAULT_INJECTION): GS_TEST_SWAP_BEFORE_OPEN=FROM:TO renames
 * FROM to TO just before the open of a path's last component named as TO's
 * last, once per process: a link swapped in after any check a reader could
 * have made.
 */
static void S_seam_before_open(const char *comp)
{
#ifdef GS_FAULT_INJECTION
	static int done;
	const char *v = getenv("GS_TEST_SWAP_BEFORE_OPEN");
	const char *colon = v ? strchr(v, ':') : NULL, *base;

	base = colon ? strrchr(colon + 1, '/') : NULL;
	base = base ? base + 1 : colon ? colon + 1 : NULL;
	if (!done && colon && strcmp(base, comp) == 0) {
		char *from = gs_xasprintf("%.*s", (int)(colon - v), v);
		done = 1;
		if (rename(from, colon + 1) == 0)
			fprintf(stderr, "gs-test: swapped %s in before the open\n", colon + 1);
		free(from);
	}
#else
	(void)comp;
#endif
}

int gs_infile_open_beneath(const char *dir, const char *rel, size_t max_bytes, gs_error *err)
{
	int dfd, fd;
	const char *p = rel;

	if (!*rel || rel[0] == '/') {
		gs_error_set(err, "expected a path relative to the folder");
		return -1;
	}
	dfd = open(*dir ? dir : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0) {
		gs_error_set(err, "cannot open the folder: %s", strerror(errno));
		return -1;
	}
	for (;;) {
		const char *slash = strchr(p, '/');
		size_t n = slash ? (size_t)(slash - p) : strlen(p);
		char comp[256];

		if (n == 0 || n >= sizeof(comp) || (n == 1 && p[0] == '.') ||
		    (n == 2 && p[0] == '.' && p[1] == '.')) {
			gs_error_set(err, "a component of the path is empty, \".\", \"..\" "
				 "or longer than 255 bytes");
			close(dfd);
			return -1;
		}
		memcpy(comp, p, n);
		comp[n] = '\0';
		/*
		 * One open per component, never following a link (O_NOFOLLOW), and
		 * the check on the descriptor opened: nothing is looked at before,
		 * so no link swapped in between is followed. Only a refused open
		 * looks at the name again, to say what it is.
		 */
		if (slash) {
			fd = openat(dfd, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (fd < 0) {
				S_refused(dfd, rel, p, n, comp, errno, err);
				close(dfd);
				return -1;
			}
			close(dfd);
			dfd = fd;
			p = slash + 1;
			continue;
		}
		S_seam_before_open(comp);
		fd = openat(dfd, comp, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
		if (fd < 0) {
			S_refused(dfd, rel, p, n, comp, errno, err);
			close(dfd);
			return -1;
		}
		close(dfd);
		return S_check_fd(fd, max_bytes, err);
	}
}

char *gs_infile_read_fd(int fd, size_t max_bytes, size_t *len, gs_error *err)
{
	struct stat st;
	size_t cap = 4096, n = 0;
	char *buf;
	int e = EFBIG;

	if (fstat(fd, &st) == 0 && st.st_size > 0)
		cap = (size_t)st.st_size + 1;
	if (max_bytes && cap > max_bytes + 1)
		cap = max_bytes + 1;
	buf = gs_xmalloc(cap + 1);
	for (;;) {
		ssize_t r;

		if (n == cap) {
			if (max_bytes && cap > max_bytes) {
				gs_error_set(err, "is more than the bound of %zu bytes", max_bytes);
				goto fail;
			}
			cap *= 2;
			if (max_bytes && cap > max_bytes + 1)
				cap = max_bytes + 1;
			buf = gs_xrealloc(buf, cap + 1);
		}
		r = read(fd, buf + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			e = errno;
			gs_error_set(err, "cannot read: %s", strerror(e));
			goto fail;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	if (max_bytes && n > max_bytes) {
		gs_error_set(err, "is more than the bound of %zu bytes", max_bytes);
		goto fail;
	}
	close(fd);
	buf[n] = '\0';
	*len = n;
	return buf;
fail:
	close(fd);
	free(buf);
	errno = e;
	return NULL;
}

char *gs_infile_read(const char *path, size_t max_bytes, size_t *len, gs_error *err)
{
	int fd = gs_infile_open_regular(path, max_bytes, err);
	size_t n = 0;
	char *buf;

	if (fd < 0)
		return NULL;
	buf = gs_infile_read_fd(fd, max_bytes, &n, err);
	if (buf && len)
		*len = n;
	return buf;
}

char *gs_infile_read_nofollow(const char *path, size_t max_bytes, size_t *len, gs_error *err)
{
	int fd = gs_infile_open_at(AT_FDCWD, path, 0, max_bytes, err);
	size_t n = 0;
	char *buf;

	if (fd < 0)
		return NULL;
	buf = gs_infile_read_fd(fd, max_bytes, &n, err);
	if (buf && len)
		*len = n;
	return buf;
}
