/* outfile: writing outputs so that nothing is ever half-written. */
#define _POSIX_C_SOURCE 200809L
#include "outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int gs_mkdirs(const char *dir)
{
	char buf[4096];
	size_t n = strlen(dir), i;

	if (n == 0 || n >= sizeof(buf))
		return -1;
	memcpy(buf, dir, n + 1);
	for (i = 1; i <= n; i++) {
		if (buf[i] == '/' || buf[i] == '\0') {
			char saved = buf[i];
			buf[i] = '\0';
			if (mkdir(buf, 0777) != 0 && errno != EEXIST)
				return -1;
			buf[i] = saved;
		}
	}
	return 0;
}

int gs_write_all(int fd, const void *buf, size_t n)
{
	const char *p = buf;

	while (n > 0) {
		ssize_t w = write(fd, p, n);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

int gs_write_atomic(const char *dir, const char *name, const void *data, size_t len,
		    char *err, size_t errlen)
{
	char tmp[4096], dst[4096];
	const char *p = data;
	int fd;

	if (strchr(name, '/') || strcmp(name, "..") == 0 || strcmp(name, ".") == 0 || !*name) {
		snprintf(err, errlen, "refusing output name \"%s\"", name);
		return -1;
	}
	if (snprintf(dst, sizeof(dst), "%s/%s", dir, name) >= (int)sizeof(dst) ||
	    snprintf(tmp, sizeof(tmp), "%s/.%s.tmp-%ld", dir, name, (long)getpid()) >= (int)sizeof(tmp)) {
		snprintf(err, errlen, "path too long: %s/%s", dir, name);
		return -1;
	}
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0666);
	if (fd < 0) {
		snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
		return -1;
	}
	if (gs_write_all(fd, p, len) != 0) {
		snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
		close(fd);
		unlink(tmp);
		return -1;
	}
	if (fsync(fd) != 0 || close(fd) != 0) {
		snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
		unlink(tmp);
		return -1;
	}
	if (rename(tmp, dst) != 0) {
		snprintf(err, errlen, "%s: %s", dst, strerror(errno));
		unlink(tmp);
		return -1;
	}
	return 0;
}

char *gs_read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
		buf = malloc((size_t)n + 1);
		if (buf && fread(buf, 1, (size_t)n, f) == (size_t)n) {
			buf[n] = '\0';
			if (len)
				*len = (size_t)n;
		} else {
			free(buf);
			buf = NULL;
		}
	}
	fclose(f);
	return buf;
}
