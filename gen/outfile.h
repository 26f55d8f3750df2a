/*
 * outfile: writing outputs so that nothing is ever half-written.
 *
 * Each file goes to a temporary name in its destination folder, is flushed
 * to disk, then renamed over its final name: a reader sees the old file or
 * the new one, never a part. Names are confined to their folder (no '/',
 * no "..").
 */
#ifndef GS_OUTFILE_H
#define GS_OUTFILE_H

#include <stddef.h>

/* mkdir -p; 0 or -1 with errno. */
int gs_mkdirs(const char *dir);
/* write(2) until all n bytes are written (EINTR retried); 0 or -1 with errno. */
int gs_write_all(int fd, const void *buf, size_t n);
/* Writes dir/name atomically; 0, or -1 with a message in err. */
int gs_write_atomic(const char *dir, const char *name, const void *data, size_t len,
		    char *err, size_t errlen);
/* Reads a whole file into a NUL-terminated buffer; NULL on error. */
char *gs_read_file(const char *path, size_t *len);

#endif
