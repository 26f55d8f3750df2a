/*
 * infile: opening input files so that a hostile path cannot hang, escape
 * or leak.
 *
 * Invariants:
 *  - only regular files are opened for reading: a FIFO, a device, a socket
 *    or a folder is refused after an open that cannot block (O_NONBLOCK)
 *    and before any byte is read; every input read by its path goes
 *    through gs_infile_read (or gs_outfile_read, its bounded wrapper);
 *  - gs_infile_open_beneath resolves a relative path one component at a time with
 *    openat(O_NOFOLLOW) from its base folder: no symbolic link is followed
 *    (so none leads out of the folder), no component may be "..", "." or
 *    empty, and the path may not be absolute;
 *  - messages quote the path and say what it is, never a byte of the file;
 *  - GS_INPUT_MAX_BYTES bounds every JSON input (see docs/formats.md).
 */
#ifndef GS_INFILE_H
#define GS_INFILE_H

#include "error.h"

#include <stddef.h>

#define GS_INPUT_MAX_BYTES ((size_t)8 << 20) /* 8 MiB */
/* The bound of gs_outfile_read (outfile.h): a page, a chart, a template. */
#define GS_FILE_MAX_BYTES ((size_t)256 << 20) /* 256 MiB */

/*
 * Opens path for reading if it is a regular file of at most max_bytes (0:
 * no bound). Returns the descriptor (blocking mode, close-on-exec), or -1
 * with a message in err ("cannot read: ...", "is a FIFO, not a regular
 * file", "is N bytes, more than the bound of M") and errno set (EINVAL: not
 * a regular file; EFBIG: over the bound).
 */
int gs_infile_open_regular(const char *path, size_t max_bytes, gs_error *err);

/*
 * Opens dir/rel as gs_infile_open_regular does, rel resolved beneath dir without
 * following any symbolic link (see the invariants). -1 with a message in
 * err naming the component at fault.
 */
int gs_infile_open_beneath(const char *dir, const char *rel, size_t max_bytes, gs_error *err);

/*
 * Opens NAME, one component, in the open folder DFD as gs_infile_open_regular
 * does. follow = 0: a symbolic link is refused (O_NOFOLLOW); follow = 1: it
 * is followed, and one whose target does not exist is named so ("is a
 * dangling symbolic link to 'TARGET'").
 */
int gs_infile_open_at(int dfd, const char *name, int follow, size_t max_bytes, gs_error *err);

/*
 * Reads the whole of fd (opened by the functions above) into a fresh
 * NUL-terminated buffer, in as few read calls as its size allows, and
 * closes it. At most max_bytes (0: no bound): a file that grew past the
 * bound since it was checked is refused. NULL with a message in err and
 * errno set (EFBIG: over the bound).
 */
char *gs_infile_read_fd(int fd, size_t max_bytes, size_t *len, gs_error *err);

/*
 * The one way to read a whole input file by its path: gs_infile_open_regular then
 * gs_infile_read_fd (a FIFO, a device, a folder refused without a byte read, the
 * size bounded by max_bytes). NULL with the reason in err ("cannot read:
 * No such file or directory", "is a FIFO, not a regular file", "is N
 * bytes, more than the bound of M bytes") and errno set (ENOENT...; EINVAL
 * for a file that is not a regular one, EFBIG for one over the bound).
 */
char *gs_infile_read(const char *path, size_t max_bytes, size_t *len, gs_error *err);

/*
 * gs_infile_read for the files gpusheet keeps itself (a site's keys file,
 * its stat cache, an evidence manifest, a shard's files): the same checks,
 * and a symbolic link as the last component is refused, not followed ("is
 * a symbolic link (not followed)"), since gpusheet never writes one there.
 */
char *gs_infile_read_nofollow(const char *path, size_t max_bytes, size_t *len, gs_error *err);

#endif
