/* outfile: writing outputs so that nothing is ever half-written. */
#define _GNU_SOURCE /* renameat2, syncfs; flock comes with it */
#include "outfile.h"
#include "infile.h"
#include "outlock.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"

static void S_fsync_parent(const char *path);
static int S_stages_alive;

/*
 * Folders gs_outfile_mkdirs created outside a stage, whose names in their parent
 * folders are not yet known to be on disk: the next transaction's commit
 * syncs those parents along with its files (S_tx_sync_all), so that a
 * sheet written into a new folder does not lose the folder in a crash.
 * Past S_NEW_DIRS_MAX, a parent is synced at once. (A stage's commit
 * flushes its whole file system, and syncs the folder it is in.)
 */
#define S_NEW_DIRS_MAX 16
static char *S_new_dirs[S_NEW_DIRS_MAX];
static size_t S_nnew_dirs;

static void S_note_new_dir(const char *dir)
{
	if (S_stages_alive)
		return;
	if (S_nnew_dirs < S_NEW_DIRS_MAX)
		S_new_dirs[S_nnew_dirs++] = gs_xstrdup(dir);
	else
		S_fsync_parent(dir);
}

int gs_outfile_mkdirs(const char *dir)
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
			if (mkdir(buf, 0777) == 0)
				S_note_new_dir(buf);
			else if (errno != EEXIST)
				return -1;
			buf[i] = saved;
		}
	}
	return 0;
}

#ifdef GS_FAULT_INJECTION
/* The test seam of the header: a byte budget, as on a disk about to fill. */
static int S_budget_exceeded(size_t n)
{
	static int read_env;
	static int64_t left = -1;

	if (!read_env) {
		const char *v = getenv("GS_TEST_WRITE_BUDGET");
		read_env = 1;
		if (v && *v)
			left = strtoll(v, NULL, 10);
	}
	if (left < 0)
		return 0;
	if ((uint64_t)left < n) {
		left = 0;
		return 1;
	}
	left -= (int64_t)n;
	return 0;
}
#endif

int gs_outfile_write_all(int fd, const void *buf, size_t n)
{
	const char *p = buf;

#ifdef GS_FAULT_INJECTION
	if (S_budget_exceeded(n)) {
		errno = ENOSPC;
		return -1;
	}
#endif
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

/* 16 hex digits from the kernel's random source. */
static int S_random_hex(char out[17])
{
	static const char digits[] = "0123456789abcdef";
	unsigned char b[8];
	size_t got = 0;
	int i;

	while (got < sizeof(b)) {
		ssize_t r = getrandom(b + got, sizeof(b) - got, 0);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		got += (size_t)r;
	}
	for (i = 0; i < 8; i++) {
		out[2 * i] = digits[b[i] >> 4];
		out[2 * i + 1] = digits[b[i] & 0xf];
	}
	out[16] = '\0';
	return 0;
}

int gs_outfile_temp_open(const char *dir, char **path)
{
	int tries;

	*path = NULL;
	for (tries = 0; tries < 100; tries++) {
		char hex[17];
		char *p;
		int fd;

		if (S_random_hex(hex) != 0)
			return -1;
		p = gs_xasprintf("%s/%s%s", dir, GS_TEMP_PREFIX, hex);
		/* O_EXCL: never an existing file, never through a symlink. */
		fd = open(p, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
		if (fd >= 0) {
			*path = p;
			return fd;
		}
		free(p);
		if (errno != EEXIST)
			return -1;
	}
	errno = EEXIST;
	return -1;
}

int gs_outfile_is_temp_name(const char *name)
{
	const char *t;

	if (strncmp(name, GS_TEMP_PREFIX, strlen(GS_TEMP_PREFIX)) == 0 ||
	    strncmp(name, ".tmp-", 5) == 0)
		return 1;
	/* the names of earlier versions: ".NAME.tmp-PID" */
	t = strstr(name, ".tmp-");
	return name[0] == '.' && t != NULL;
}

/* Stages alive in this process (their commit flushes everything at once);
 * declared above gs_outfile_mkdirs. */

int gs_outfile_fsync(int fd)
{
	return S_stages_alive ? 0 : fsync(fd);
}

/* Writes data to fd, syncs (see gs_outfile_fsync) and closes it; 0, or -1 with
 * "dst: cannot write: ..." in err (fd closed either way). With keep, the
 * file's write-back is only started (sync_file_range) and fd stays open:
 * the caller waits for it with fdatasync, so that the writes of several
 * files go to the disk together instead of one after the other. */
static int S_fill(int fd, const char *dst, const void *data, size_t len, int keep,
		  gs_error *err)
{
	if (gs_outfile_write_all(fd, data, len) != 0 || (!keep && gs_outfile_fsync(fd) != 0)) {
		gs_error_set(err, "%s: cannot write: %s", dst, strerror(errno));
		close(fd);
		return -1;
	}
	if (keep) {
		if (!S_stages_alive)
			(void)sync_file_range(fd, 0, 0, SYNC_FILE_RANGE_WRITE); /* a hint */
		return 0;
	}
	if (close(fd) != 0) {
		gs_error_set(err, "%s: cannot write: %s", dst, strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * Writes data to a new temporary file in dir, synced and closed: 0 with the
 * temporary path and the final path dir/name (caller frees both), or -1 with
 * err and nothing left behind. With fd_out, the file is left open there,
 * its write-back started but not waited for (see S_fill).
 */
static int S_write_temp(const char *dir, const char *name, const void *data, size_t len,
			int *fd_out, char **tmp_out, char **dst_out, gs_error *err)
{
	char *tmp = NULL, *dst;
	int fd;

	if (strchr(name, '/') || strcmp(name, "..") == 0 || strcmp(name, ".") == 0 || !*name) {
		gs_error_set(err, "refusing output name \"%s\"", name);
		return -1;
	}
	fd = gs_outfile_temp_open(dir, &tmp);
	if (fd < 0) {
		gs_error_set(err, "%s: cannot create a temporary file: %s", dir, strerror(errno));
		return -1;
	}
	dst = gs_xasprintf("%s/%s", dir, name);
	if (S_fill(fd, dst, data, len, fd_out != NULL, err))
		goto fail;
	if (fd_out)
		*fd_out = fd;
	*tmp_out = tmp;
	*dst_out = dst;
	return 0;
fail:
	unlink(tmp);
	free(tmp);
	free(dst);
	return -1;
}

int gs_outfile_write_atomic(const char *dir, const char *name, const void *data, size_t len,
		    gs_error *err)
{
	char *tmp, *dst;
	int rc = 0;

	if (S_write_temp(dir, name, data, len, NULL, &tmp, &dst, err))
		return -1;
	if (rename(tmp, dst) != 0) {
		gs_error_set(err, "%s: %s", dst, strerror(errno));
		unlink(tmp);
		rc = -1;
	}
	free(tmp);
	free(dst);
	return rc;
}

struct gs_outstream {
	FILE *f;
	char *tmp, *dst;
};

gs_outstream *gs_outfile_stream_open(const char *dir, const char *name, gs_error *err)
{
	gs_outstream *o;
	char *tmp = NULL;
	int fd;
	FILE *f;

	if (strchr(name, '/') || strcmp(name, "..") == 0 || strcmp(name, ".") == 0 || !*name) {
		gs_error_set(err, "refusing output name \"%s\"", name);
		return NULL;
	}
	fd = gs_outfile_temp_open(dir, &tmp);
	if (fd < 0) {
		gs_error_set(err, "%s: cannot create a temporary file: %s", dir, strerror(errno));
		return NULL;
	}
	f = fdopen(fd, "w");
	if (!f) {
		gs_error_set(err, "%s: cannot create a temporary file: %s", dir, strerror(errno));
		close(fd);
		unlink(tmp);
		free(tmp);
		return NULL;
	}
	o = gs_xcalloc(1, sizeof(*o));
	o->f = f;
	o->tmp = tmp;
	o->dst = gs_xasprintf("%s/%s", dir, name);
	return o;
}

FILE *gs_outfile_stream_file(gs_outstream *o)
{
	return o->f;
}

static void S_outstream_free(gs_outstream *o)
{
	free(o->tmp);
	free(o->dst);
	free(o);
}

int gs_outfile_stream_commit(gs_outstream *o, gs_error *err)
{
	int rc = 0;

	if (fflush(o->f) != 0 || ferror(o->f) || gs_outfile_fsync(fileno(o->f)) != 0) {
		gs_error_set(err, "%s: cannot write: %s", o->dst, strerror(errno));
		rc = -1;
	}
	if (fclose(o->f) != 0 && rc == 0) {
		gs_error_set(err, "%s: cannot write: %s", o->dst, strerror(errno));
		rc = -1;
	}
	if (rc == 0 && rename(o->tmp, o->dst) != 0) {
		gs_error_set(err, "%s: %s", o->dst, strerror(errno));
		rc = -1;
	}
	if (rc)
		unlink(o->tmp);
	S_outstream_free(o);
	return rc;
}

void gs_outfile_stream_abort(gs_outstream *o)
{
	if (!o)
		return;
	fclose(o->f);
	unlink(o->tmp);
	S_outstream_free(o);
}

char *gs_outfile_read(const char *path, size_t *len)
{
	return gs_infile_read(path, GS_FILE_MAX_BYTES, len, NULL);
}

/*** transactions ***/

typedef struct {
	char *tmp;
	char *dst;
	int noreplace;
	int fd;       /* tmp still open, its write-back under way; or -1 */
	int sync_errno;  /* S_tx_sync_all: 0, or the errno of its fdatasync */
} S_txfile;

/* Temporary files a transaction keeps open until its commit (the rest are
 * synced as they are written): a bound on descriptors, not on files. */
#define S_TX_MAX_OPEN 32

struct gs_outtx {
	S_txfile *f;
	size_t n, cap;
	size_t open;  /* entries whose fd is open */
	int done;
	int direct;   /* gs_outfile_tx_new_direct: files written under their final names */
};

gs_outtx *gs_outfile_tx_new(void)
{
	return gs_xcalloc(1, sizeof(gs_outtx));
}

gs_outtx *gs_outfile_tx_new_direct(void)
{
	gs_outtx *tx = gs_outfile_tx_new();

	tx->direct = 1;
	return tx;
}

/* dir/name created (never replacing anything, never through a link) and written. */
static int S_write_direct(const char *dir, const char *name, const void *data, size_t len,
			  char **dst_out, gs_error *err)
{
	char *dst;
	int fd;

	if (strchr(name, '/') || strcmp(name, "..") == 0 || strcmp(name, ".") == 0 || !*name) {
		gs_error_set(err, "refusing output name \"%s\"", name);
		return -1;
	}
	dst = gs_xasprintf("%s/%s", dir, name);
	fd = open(dst, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
	if (fd < 0) {
		gs_error_set(err, "%s: cannot create: %s", dst, strerror(errno));
		free(dst);
		return -1;
	}
	if (S_fill(fd, dst, data, len, 0, err)) {
		unlink(dst);
		free(dst);
		return -1;
	}
	*dst_out = dst;
	return 0;
}

static void S_tx_push(gs_outtx *tx, char *tmp, char *dst, int noreplace)
{
	if (tx->n == tx->cap) {
		tx->cap = tx->cap ? 2 * tx->cap : 16;
		tx->f = gs_xrealloc(tx->f, tx->cap * sizeof(*tx->f));
	}
	tx->f[tx->n].tmp = tmp;
	tx->f[tx->n].dst = dst;
	tx->f[tx->n].noreplace = noreplace;
	tx->f[tx->n].fd = -1;
	tx->f[tx->n].sync_errno = 0;
	tx->n++;
}

int gs_outfile_tx_add(gs_outtx *tx, const char *dir, const char *name, const void *data,
		 size_t len, gs_error *err)
{
	char *tmp, *dst;
	int fd = -1;

	if (tx->direct) {
		if (S_write_direct(dir, name, data, len, &dst, err))
			return -1;
		S_tx_push(tx, NULL, dst, 0);
		return 0;
	}
	if (S_write_temp(dir, name, data, len, tx->open < S_TX_MAX_OPEN ? &fd : NULL, &tmp,
			 &dst, err))
		return -1;
	S_tx_push(tx, tmp, dst, 0);
	tx->f[tx->n - 1].fd = fd;
	if (fd >= 0)
		tx->open++;
	return 0;
}

void gs_outfile_tx_add_noreplace(gs_outtx *tx, char *tmp_path, const char *final_path)
{
	S_tx_push(tx, tmp_path, gs_xstrdup(final_path), 1);
}

static void S_fsync_parent(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir = slash ? gs_xasprintf("%.*s", (int)(slash - path), path) : gs_xstrdup(".");
	int fd = open(*dir ? dir : "/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd >= 0) {
		(void)gs_outfile_fsync(fd);
		close(fd);
#ifdef GS_FAULT_INJECTION
		/* GS_TEST_SYNC_SAY=1 (outfile.h): each folder synced, on stderr */
		if (!S_stages_alive && getenv("GS_TEST_SYNC_SAY"))
			fprintf(stderr, "gs-test: folder synced: %s\n", *dir ? dir : "/");
#endif
	}
	free(dir);
}

/* Closes an entry's open descriptor: 0, or -1 with errno when its
 * fdatasync (S_tx_sync_all) or the close failed. */
static int S_tx_close(gs_outtx *tx, S_txfile *f)
{
	int rc = 0;

	if (f->fd < 0)
		return 0;
	if (f->sync_errno) {
		errno = f->sync_errno;
		rc = -1;
	}
	if (close(f->fd) != 0 && rc == 0)
		rc = -1;
	f->fd = -1;
	tx->open--;
	return rc;
}

/*
 * The fdatasync of a transaction's open files (fdatasync: the data and the
 * size, all a new file needs), each in a thread of its own, at most
 * S_SYNC_THREADS with the calling one (more files are shared out among
 * them by index). Each fdatasync ends with a flush of the disk's cache;
 * asked for together, flushes are merged by the block layer, where one
 * after the other each waits for its own, behind whatever else the disk
 * is writing (other jobs): measured on a shared 2-core machine whose disk
 * others were writing to, a lone sheet's median wall went from 14-18 ms to
 * 12-15 ms, for ~0.2 ms more CPU (bench/README.md). Every file is still
 * synced by its own fdatasync before the first rename: the guarantee of
 * the loop this replaces. The parents of the folders gs_outfile_mkdirs created
 * (S_new_dirs) are synced by the same threads. A thread that cannot be
 * started leaves its share to the calling one; errors are kept per file
 * (sync_errno) for the commit to report in order.
 */
#define S_SYNC_THREADS 8

typedef struct {
	gs_outtx *tx;
	size_t first, step;
	size_t fail_at;   /* test seam: 1 + the index whose sync fails, or 0 */
} S_syncer;

static void *S_sync_some(void *arg)
{
	S_syncer *w = arg;
	size_t i;

	for (i = w->first; i < w->tx->n; i += w->step) {
		S_txfile *f = &w->tx->f[i];
		if (f->fd < 0)
			continue;
		if (w->fail_at == i + 1)
			f->sync_errno = EIO;
		else if (fdatasync(f->fd) != 0)
			f->sync_errno = errno ? errno : EIO;
	}
	/* the parents of the folders gs_outfile_mkdirs created (a folder's own sync
	 * failing is not reported, as for the commit's folders below) */
	for (i = w->first; i < S_nnew_dirs; i += w->step)
		S_fsync_parent(S_new_dirs[i]);
	return NULL;
}

static void S_tx_sync_all(gs_outtx *tx)
{
	pthread_t th[S_SYNC_THREADS];
	S_syncer w[S_SYNC_THREADS];
	int started[S_SYNC_THREADS] = { 0 };
	size_t jobs = tx->open > S_nnew_dirs ? tx->open : S_nnew_dirs;
	size_t n = jobs < S_SYNC_THREADS ? jobs : S_SYNC_THREADS, t, fail_at = 0;
	pthread_attr_t attr;

#ifdef GS_FAULT_INJECTION
	{
		/* GS_TEST_SYNC_FAIL=N (outfile.h): the N-th file's sync fails */
		const char *v = getenv("GS_TEST_SYNC_FAIL");
		if (v && *v)
			fail_at = (size_t)strtoull(v, NULL, 10);
	}
#endif
	if (n < 2)
		n = 1;
	for (t = 0; t < n; t++) {
		w[t].tx = tx;
		w[t].first = t;
		w[t].step = n;
		w[t].fail_at = fail_at;
	}
	/* a thread's stack: a few frames of ours and the syscall */
	pthread_attr_init(&attr);
	(void)pthread_attr_setstacksize(&attr, 256 * 1024);
	for (t = 1; t < n; t++)
		started[t] = pthread_create(&th[t], &attr, S_sync_some, &w[t]) == 0;
	pthread_attr_destroy(&attr);
	S_sync_some(&w[0]);
	for (t = 1; t < n; t++) {
		if (started[t])
			(void)pthread_join(th[t], NULL);
		else
			S_sync_some(&w[t]);
	}
	for (t = 0; t < S_nnew_dirs; t++)
		free(S_new_dirs[t]);
	S_nnew_dirs = 0;
}

int gs_outfile_tx_commit(gs_outtx *tx, gs_error *err)
{
	size_t i;

	/* Every byte on disk before the first rename: the write-back of every
	 * file was started as it was written, and the waits run together. */
	if (!S_stages_alive)
		S_tx_sync_all(tx);
#ifdef GS_FAULT_INJECTION
	else {
		/* GS_TEST_SYNC_FAIL=N in a stage: the N-th file's bytes fail to
		 * reach the disk, as the stage's flush would report it */
		const char *v = getenv("GS_TEST_SYNC_FAIL");
		size_t at = v && *v ? (size_t)strtoull(v, NULL, 10) : 0;
		if (at >= 1 && at <= tx->n && tx->f[at - 1].fd >= 0)
			tx->f[at - 1].sync_errno = EIO;
	}
#endif
	for (i = 0; i < tx->n; i++) {
		if (S_tx_close(tx, &tx->f[i]) != 0) {
			gs_error_set(err, "%s: cannot write: %s", tx->f[i].dst, strerror(errno));
			return -1;
		}
	}
	for (i = 0; i < tx->n; i++) {
		S_txfile *f = &tx->f[i];
		if (!f->tmp) {
			continue;   /* written under its final name (direct) */
		} else if (!f->noreplace) {
			if (rename(f->tmp, f->dst) != 0) {
				gs_error_set(err, "%s: %s", f->dst, strerror(errno));
				return -1;
			}
		} else if (link(f->tmp, f->dst) == 0 || errno == EEXIST) {
			(void)unlink(f->tmp); /* linked, or already there: kept */
		} else {
			/* no hard links on this file system: rename unless there */
			struct stat st;
			if ((errno != EPERM && errno != ENOTSUP && errno != ENOSYS) ||
			    (lstat(f->dst, &st) != 0 && rename(f->tmp, f->dst) != 0)) {
				gs_error_set(err, "%s: cannot create: %s", f->dst, strerror(errno));
				return -1;
			}
			(void)unlink(f->tmp);
		}
		free(f->tmp);
		f->tmp = NULL;
	}
	/* every new name on disk: the folders of the files, once each in a row
	 * (inside a stage, whose commit flushes the whole tree, a folder's sync
	 * is nothing: not even opened) */
	for (i = 0; i < tx->n && !S_stages_alive; i++) {
		const char *a = tx->f[i].dst, *sa = strrchr(a, '/');
		if (i > 0) {
			const char *b = tx->f[i - 1].dst, *sb = strrchr(b, '/');
			if (sa && sb && sa - a == sb - b && strncmp(a, b, (size_t)(sa - a)) == 0)
				continue;
		}
		S_fsync_parent(a);
	}
	tx->done = 1;
	return 0;
}

void gs_outfile_tx_free(gs_outtx *tx)
{
	size_t i;

	if (!tx)
		return;
	for (i = 0; i < tx->n; i++) {
		(void)S_tx_close(tx, &tx->f[i]);
		if (tx->f[i].tmp) {
			(void)unlink(tx->f[i].tmp);
			free(tx->f[i].tmp);
		} else if (tx->direct && !tx->done && !tx->f[i].noreplace) {
			(void)unlink(tx->f[i].dst);   /* a direct file of a transaction not committed */
		}
		free(tx->f[i].dst);
	}
	free(tx->f);
	free(tx);
}

/*** removing a tree ***/

/*
 * Removes name, a folder's entry open as dfd, and everything under it:
 * by descriptors (openat, unlinkat), so that each of a site's 45,000 names
 * costs one unlinkat and no path walk nor stat (nftw did both). A symbolic
 * link is removed, never followed (O_NOFOLLOW); a folder on another file
 * system (a mount point) is not entered, so its removal fails. 0, or -1
 * with errno.
 */
static int S_remove_at(int dfd, const char *name, dev_t dev, int depth)
{
	struct stat sb;
	DIR *d;
	struct dirent *e;
	int fd, pass, rc = 0;

	if (unlinkat(dfd, name, 0) == 0 || errno == ENOENT)
		return 0;
	if (errno != EISDIR && errno != EPERM)
		return -1;
	if (depth > 64) {
		errno = ELOOP;
		return -1;
	}
	fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (fstat(fd, &sb) != 0 || sb.st_dev != dev) {
		close(fd);
		errno = EXDEV;
		return -1;
	}
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return -1;
	}
	/* a second pass in case removing entries while reading skipped some */
	for (pass = 0; pass < 2 && rc == 0; pass++) {
		rewinddir(d);
		while ((e = readdir(d)) != NULL) {
			if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
				continue;
			if (e->d_type != DT_DIR && e->d_type != DT_UNKNOWN) {
				if (unlinkat(fd, e->d_name, 0) != 0 && errno != ENOENT)
					rc = -1;
			} else if (S_remove_at(fd, e->d_name, dev, depth + 1) != 0) {
				rc = -1;
			}
		}
		if (rc == 0 && unlinkat(dfd, name, AT_REMOVEDIR) == 0) {
			closedir(d);
			return 0;
		}
		if (rc == 0 && errno != ENOTEMPTY)
			rc = -1;
	}
	closedir(d);
	return -1;
}

int gs_outfile_remove_tree(const char *path)
{
	struct stat st;
	char *parent, *slash;
	int dfd, rc;

	if (lstat(path, &st) != 0)
		return errno == ENOENT ? 0 : -1;
	if (!S_ISDIR(st.st_mode))
		return unlink(path);
	parent = gs_xstrdup(path);
	for (slash = parent + strlen(parent); slash > parent + 1 && slash[-1] == '/'; )
		*--slash = '\0';
	slash = strrchr(parent, '/');
	if (slash == parent)
		parent[1] = '\0';
	else if (slash)
		*slash = '\0';
	dfd = slash ? open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : AT_FDCWD;
	rc = dfd >= 0 || dfd == AT_FDCWD ? S_remove_at(dfd, slash ? slash + 1 : parent, st.st_dev, 0) : -1;
	if (dfd >= 0)
		close(dfd);
	free(parent);
	return rc;
}

/*** stages ***/

struct gs_stage {
	char *out;       /* without trailing slashes */
	char *parent;    /* folder of out */
	char *base;      /* last component of out */
	char *dir;       /* the stage */
	char *previous;  /* out, when it existed */
	int lock_fd;     /* flock'ed descriptor of the stage folder */
	int committed;
	int own_lock;    /* took OUT's lock (outlock.h): released when freed */
	const char *what; /* what OUT is, in messages: "site", "sheet folder"... */
};

/*
 * 1 when path (a folder) is a mount point: another device than its
 * parent's, or the root of a mount of the same one (a bind mount, where
 * statx says so). A mount point cannot be renamed: a stage could never
 * be swapped in for it.
 */
static int S_mount_point(const char *path, const struct stat *sb, const char *parent)
{
	struct stat pb;
	struct statx sx;

	if (stat(parent, &pb) == 0 && pb.st_dev != sb->st_dev)
		return 1;
#ifdef STATX_ATTR_MOUNT_ROOT
	if (statx(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW, STATX_BASIC_STATS, &sx) == 0 &&
	    (sx.stx_attributes_mask & STATX_ATTR_MOUNT_ROOT) &&
	    (sx.stx_attributes & STATX_ATTR_MOUNT_ROOT))
		return 1;
#else
	(void)sx;
	(void)path;
#endif
	return 0;
}

/* 1 if the folder path is empty (only "." and ".."); -1 if unreadable. */
static int S_dir_empty(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;
	int empty = 1;

	if (!d)
		return -1;
	while ((e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
			empty = 0;
			break;
		}
	}
	closedir(d);
	return empty;
}

/*
 * The stage locks this process holds. A forked worker would share each
 * lock (flock belongs to the open file, which fork shares), so that a run
 * killed while its workers are still dying would leave its stage looking
 * live to the next run, which would not remove it. A child drops its copy
 * at once (pthread_atfork): the lock lives and dies with the run's process.
 */
#define S_MAX_LOCKS 4
static int S_locks[S_MAX_LOCKS];
static size_t S_nlocks;

static void S_locks_child(void)
{
	size_t i;

	for (i = 0; i < S_nlocks; i++)
		close(S_locks[i]);
	S_nlocks = 0;
}

static void S_lock_keep(int fd)
{
	static int registered;

	if (!registered && pthread_atfork(NULL, NULL, S_locks_child) == 0)
		registered = 1;
	if (S_nlocks < S_MAX_LOCKS)
		S_locks[S_nlocks++] = fd;
}

static void S_lock_forget(int fd)
{
	size_t i;

	for (i = 0; i < S_nlocks; i++)
		if (S_locks[i] == fd) {
			S_locks[i] = S_locks[--S_nlocks];
			return;
		}
}

/* Removes stages (and old trees) of the same out that no live run holds. */
static void S_remove_stale(const gs_stage *st)
{
	char *p1 = gs_xasprintf(".%s%s", st->base, GS_STAGE_INFIX);
	char *p2 = gs_xasprintf(".%s%s", st->base, GS_STAGE_OLD_INFIX);
	DIR *d = opendir(st->parent);
	struct dirent *e;
	gs_strvec stale = GS_STRVEC_INIT;
	size_t i;

	if (d) {
		while ((e = readdir(d)) != NULL) {
			const char *n = e->d_name;
			if ((strncmp(n, p1, strlen(p1)) == 0 && strlen(n) == strlen(p1) + 6) ||
			    (strncmp(n, p2, strlen(p2)) == 0 && strlen(n) == strlen(p2) + 6))
				gs_util_strvec_push(&stale, gs_xasprintf("%s/%s", st->parent, n));
		}
		closedir(d);
	}
	for (i = 0; i < stale.n; i++) {
		int fd = open(stale.v[i], O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0)
			continue;
		/* a live run holds its stage locked; a killed one does not */
		if (flock(fd, LOCK_EX | LOCK_NB) == 0)
			(void)gs_outfile_remove_tree(stale.v[i]);
		close(fd);
	}
	gs_util_strvec_release(&stale);
	free(p1);
	free(p2);
}

static void S_fsync_path(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd >= 0) {
		(void)fsync(fd);
		close(fd);
#ifdef GS_FAULT_INJECTION
		/* GS_TEST_SYNC_SAY=1 (outfile.h): each folder synced, on stderr */
		if (getenv("GS_TEST_SYNC_SAY"))
			fprintf(stderr, "gs-test: folder synced: %s\n", dir);
#endif
	}
}

gs_stage *gs_outfile_stage_begin(const char *out, const char *const *must_hold,
			 gs_error *err)
{
	return gs_outfile_stage_begin_as(out, must_hold, "site", err);
}

gs_stage *gs_outfile_stage_begin_as(const char *out, const char *const *must_hold,
			    const char *what, gs_error *err)
{
	gs_stage *st;
	struct stat sb;
	char *slash;
	size_t n;

	if (!out || !*out) {
		gs_error_set(err, "no output folder given");
		return NULL;
	}
	st = gs_xcalloc(1, sizeof(*st));
	S_stages_alive++; /* until gs_outfile_stage_free */
	st->lock_fd = -1;
	st->what = what;
	st->out = gs_xstrdup(out);
	n = strlen(st->out);
	while (n > 1 && st->out[n - 1] == '/')
		st->out[--n] = '\0';
	slash = strrchr(st->out, '/');
	if (slash) {
		st->parent = slash == st->out ? gs_xstrdup("/") : gs_xasprintf("%.*s", (int)(slash - st->out), st->out);
		st->base = gs_xstrdup(slash + 1);
	} else {
		st->parent = gs_xstrdup(".");
		st->base = gs_xstrdup(st->out);
	}
	if (!*st->base || strcmp(st->base, ".") == 0 || strcmp(st->base, "..") == 0 ||
	    strcmp(st->out, "/") == 0) {
		gs_error_set(err, "%s: give the output folder by its own name "
			 "(it is replaced whole)", out);
		goto fail;
	}
	if (lstat(st->out, &sb) == 0) {
		size_t i;
		if (S_ISLNK(sb.st_mode)) {
			gs_error_set(err, "%s: is a symbolic link; not replaced", st->out);
			goto fail;
		}
		if (!S_ISDIR(sb.st_mode)) {
			gs_error_set(err, "%s: exists and is not a folder; not replaced", st->out);
			goto fail;
		}
		if (S_mount_point(st->out, &sb, st->parent)) {
			/* found before anything is built: the swap would fail at the end */
			gs_error_set(err, "%s: is a mount point (a volume, a tmpfs), which cannot be "
				     "replaced whole as a %s is; give a folder inside it instead, "
				     "such as %s/%s", st->out, what, st->out, what[0] == 's' &&
				     what[1] == 'h' ? "sheet" : "site");
			goto fail;
		}
		if (S_dir_empty(st->out) == 0) {
			for (i = 0; must_hold && must_hold[i]; i++) {
				char *p = gs_xasprintf("%s/%s", st->out, must_hold[i]);
				int there = lstat(p, &sb) == 0;
				free(p);
				if (!there) {
					gs_error_set(err, "%s: exists, is not empty and has no %s: "
						 "not a %s made by gpusheet, so not replaced",
						 st->out, must_hold[i], what);
					goto fail;
				}
			}
		}
		st->previous = gs_xstrdup(st->out);
	} else if (errno != ENOENT) {
		gs_error_set(err, "%s: %s", st->out, strerror(errno));
		goto fail;
	} else if (gs_outfile_mkdirs(st->parent) != 0) {
		gs_error_set(err, "%s: cannot create the folder: %s", st->parent, strerror(errno));
		goto fail;
	}
	/* one run at a time into out (outlock.h): taken here unless the
	 * caller took it for the whole run */
	{
		int r = gs_outlock_ensure(st->out, err);
		if (r < 0)
			goto fail;
		st->own_lock = r == 1;
	}
	S_remove_stale(st);
	st->dir = gs_xasprintf("%s/.%s%sXXXXXX", st->parent, st->base, GS_STAGE_INFIX);
	if (!mkdtemp(st->dir)) {
		gs_error_set(err, "%s: cannot create a staging folder: %s", st->parent,
			 strerror(errno));
		free(st->dir);
		st->dir = NULL;
		goto fail;
	}
	{
		/* mkdtemp makes it 0700; a site is as readable as any new folder */
		mode_t um = umask(0);
		umask(um);
		(void)chmod(st->dir, 0777 & ~um);
	}
	st->lock_fd = open(st->dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (st->lock_fd < 0 || flock(st->lock_fd, LOCK_EX | LOCK_NB) != 0) {
		gs_error_set(err, "%s: cannot lock the staging folder: %s", st->dir,
			 strerror(errno));
		goto fail;
	}
	S_lock_keep(st->lock_fd);
	return st;
fail:
	gs_outfile_stage_free(st);
	return NULL;
}

const char *gs_outfile_stage_dir(const gs_stage *st)
{
	return st->dir;
}

const char *gs_outfile_stage_previous(const gs_stage *st)
{
	return st->previous;
}

int gs_outfile_stage_commit(gs_stage *st, gs_error *err)
{
	char *old = NULL;

	/* Every byte and every name of the stage on disk before it is visible. */
	if (syncfs(st->lock_fd) != 0) {
		gs_error_set(err, "%s: cannot flush to disk: %s", st->dir, strerror(errno));
		return -1;
	}
#ifdef GS_FAULT_INJECTION
	/* the folders made for the stage are on this file system: flushed too */
	if (getenv("GS_TEST_SYNC_SAY"))
		fprintf(stderr, "gs-test: file system flushed: %s\n", st->parent);
#endif
	if (!st->previous) {
		/* No old tree: one rename (over an empty folder made meanwhile, too). */
		if (rename(st->dir, st->out) != 0) {
			gs_error_set(err, "%s: cannot move the new %s in place: %s", st->out,
				 st->what, strerror(errno));
			return -1;
		}
	} else if (renameat2(AT_FDCWD, st->dir, AT_FDCWD, st->out, RENAME_EXCHANGE) == 0) {
		old = gs_xstrdup(st->dir); /* the old tree now has the stage's name */
	} else if (errno == ENOSYS || errno == EINVAL || errno == ENOTSUP) {
		/* No exchange here: move the old tree aside, then the new one in. */
		char hex[17];
		if (S_random_hex(hex) != 0) {
			gs_error_set(err, "no random source: %s", strerror(errno));
			return -1;
		}
		old = gs_xasprintf("%s/.%s%s%.6s", st->parent, st->base, GS_STAGE_OLD_INFIX, hex);
		if (rename(st->out, old) != 0) {
			gs_error_set(err, "%s: cannot move the old %s aside: %s", st->out,
				 st->what, strerror(errno));
			free(old);
			return -1;
		}
		if (rename(st->dir, st->out) != 0) {
			gs_error_set(err, "%s: cannot move the new %s in place (the old one is "
				 "kept as %s): %s", st->out, st->what, old, strerror(errno));
			free(old);
			return -1;
		}
	} else {
		gs_error_set(err, "%s: cannot swap the new %s in: %s", st->out, st->what, strerror(errno));
		return -1;
	}
	st->committed = 1;
	S_fsync_path(st->parent);
	if (old) {
		(void)gs_outfile_remove_tree(old);
		free(old);
	}
	return 0;
}

void gs_outfile_stage_free(gs_stage *st)
{
	if (!st)
		return;
	S_stages_alive--;
	if (st->dir && !st->committed)
		(void)gs_outfile_remove_tree(st->dir);
	if (st->lock_fd >= 0) {
		S_lock_forget(st->lock_fd);
		close(st->lock_fd);
	}
	if (st->own_lock)
		gs_outlock_release();
	free(st->out);
	free(st->parent);
	free(st->base);
	free(st->dir);
	free(st->previous);
	free(st);
}

/* Creates the missing folders of OUT's folder (as mkdir -p does); -1 printed. */
int gs_outfile_make_parents(const char *out, const char *cmd)
{
	char *dir = gs_xstrdup(out), *p;
	struct stat st;
	int rc = 0;

	p = strrchr(dir, '/');
	if (!p || p == dir) {
		free(dir);
		return 0;
	}
	*p = '\0';
	for (p = dir + 1; ; p++) {
		if (*p == '/' || *p == '\0') {
			char c = *p;
			*p = '\0';
			if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
				fprintf(stderr, "gpusheet %s: cannot create the folder '%s' of --out: "
					"%s\n", cmd, dir, strerror(errno));
				rc = -1;
				break;
			}
			if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
				int bad = stat(dir, &st) != 0;
				fprintf(stderr, "gpusheet %s: cannot use '%s' as a folder of --out: "
					"%s\n", cmd, dir, bad ? strerror(errno) : "not a folder");
				rc = -1;
				break;
			}
			*p = c;
			if (!c)
				break;
		}
	}
	free(dir);
	return rc;
}
