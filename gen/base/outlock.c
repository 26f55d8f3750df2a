/* outlock: one run at a time per output folder (a lock file beside it). */
#define _DEFAULT_SOURCE
#include "outlock.h"
#include "infile.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define S_MAGIC "gpusheet-lock"
#define S_MAX_BYTES 64            /* "gpusheet-lock PID START\n" fits */
#define S_POLL_NS 100000000L      /* --wait: a look every 100 ms */
#define S_DIR_TRIES 1000          /* the parent's flock: 10 s at most, never a hang */

static struct {
	char *out, *parent, *name, *path;  /* out normalized; the lock is parent/name */
	const char *cmd;
	int wait, held, pending, by_stage;
	pid_t owner;
} S_lk;

static void S_sleep_ns(long ns)
{
	struct timespec ts = { 0, ns };

	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

/* The start time of pid (clock ticks since boot), 0 when unknown; *zombie 1 for a dead one not reaped. */
static unsigned long long S_start_of(pid_t pid, int *zombie)
{
	char path[64], *text, *p;
	size_t len = 0;
	unsigned long long start = 0;
	int field;

	*zombie = 0;
	snprintf(path, sizeof(path), "/proc/%ld/stat", (long)pid);
	text = gs_infile_read(path, 4096, &len, NULL);
	if (!text)
		return 0;
	/* after the name in parentheses (which may hold any byte): field 3, the state */
	p = strrchr(text, ')');
	if (p && p[1] == ' ') {
		p += 2;
		*zombie = *p == 'Z' || *p == 'X';
		for (field = 3; field < 22 && p; field++) {
			p = strchr(p, ' ');
			p = p ? p + 1 : NULL;
		}
		if (p)
			start = strtoull(p, NULL, 10);
	}
	free(text);
	return start;
}

/* 1 when the run that wrote the lock (pid, start) is alive. */
static int S_alive(long pid, unsigned long long start)
{
	unsigned long long now;
	int zombie;

	if (pid <= 0 || (kill((pid_t)pid, 0) != 0 && errno == ESRCH))
		return 0;
	now = S_start_of((pid_t)pid, &zombie);
	if (zombie)
		return 0;
	/* the pid is another process's now */
	return !(start && now && now != start);
}

static void S_at_exit(void)
{
	gs_outlock_release();
}

/* Splits out into S_lk's names; 0, or -1 when out has no last component of its own. */
static int S_names(const char *out)
{
	char *o = gs_xstrdup(out), *slash;
	size_t n = strlen(o);

	while (n > 1 && o[n - 1] == '/')
		o[--n] = '\0';
	slash = strrchr(o, '/');
	if (strcmp(o, "/") == 0 || strcmp(slash ? slash + 1 : o, ".") == 0 ||
	    strcmp(slash ? slash + 1 : o, "..") == 0) {
		free(o);
		return -1;   /* (the stage says why) */
	}
	S_lk.out = o;
	if (slash) {
		S_lk.parent = slash == o ? gs_xstrdup("/") : gs_xasprintf("%.*s", (int)(slash - o), o);
		S_lk.name = gs_xasprintf(".%s%s", slash + 1, GS_OUTLOCK_SUFFIX);
	} else {
		S_lk.parent = gs_xstrdup(".");
		S_lk.name = gs_xasprintf(".%s%s", o, GS_OUTLOCK_SUFFIX);
	}
	S_lk.path = gs_xasprintf("%s/%s", S_lk.parent, S_lk.name);
	return 0;
}

static void S_forget(void)
{
	free(S_lk.out);
	free(S_lk.parent);
	free(S_lk.name);
	free(S_lk.path);
	memset(&S_lk, 0, sizeof(S_lk));
}

/* Creates the lock in dfd (flocked): 0, 1 when it exists, -1 with err. */
static int S_create(int dfd, gs_error *err)
{
	char text[S_MAX_BYTES];
	int zombie, fd, n;

	fd = openat(dfd, S_lk.name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0 && errno == EEXIST)
		return 1;
	if (fd < 0)
		return gs_error_set(err, "%s: cannot create the lock: %s", S_lk.path, strerror(errno));
	n = snprintf(text, sizeof(text), S_MAGIC " %ld %llu\n", (long)getpid(),
		     S_start_of(getpid(), &zombie));
	if (write(fd, text, (size_t)n) != n) {
		int e = errno;
		close(fd);
		unlinkat(dfd, S_lk.name, 0);
		return gs_error_set(err, "%s: cannot write the lock: %s", S_lk.path, strerror(e));
	}
	close(fd);
	return 0;
}

/*
 * The lock there (dfd flocked): its holder's pid when alive, 0 when stale
 * (removed then), -1 with err when it is not a lock gpusheet wrote.
 */
static long S_holder(int dfd, gs_error *err)
{
	gs_error why = GS_ERROR_INIT;
	int fd = gs_infile_open_at(dfd, S_lk.name, 0, S_MAX_BYTES, &why);
	char *text = NULL;
	size_t len = 0;
	long pid = -1;
	unsigned long long start = 0;
	int k = 0;

	if (fd < 0 && errno == ENOENT) {
		gs_error_release(&why);
		return 0;   /* gone meanwhile */
	}
	if (fd >= 0)
		text = gs_infile_read_fd(fd, S_MAX_BYTES, &len, &why);
	/* A lock is created and written under the folder's flock, which we
	 * hold: a beginning of a lock's text without its newline (empty too)
	 * is what a run killed between the two left. Stale: removed. */
	if (text && !memchr(text, '\n', len) &&
	    strncmp(text, S_MAGIC, len < sizeof(S_MAGIC) - 1 ? len : sizeof(S_MAGIC) - 1) == 0) {
		free(text);
		if (unlinkat(dfd, S_lk.name, 0) != 0 && errno != ENOENT)
			return gs_error_set(err, "%s: cannot remove the lock a killed run left: %s",
					    S_lk.path, strerror(errno));
		return 0;
	}
	if (text && (sscanf(text, S_MAGIC " %ld %llu\n%n", &pid, &start, &k) != 2 ||
		     (size_t)k != len || pid <= 0))
		gs_error_set(&why, "holds other text");
	if (!text || gs_error_is_set(&why)) {
		gs_error_set(err, "%s: %s: not a lock gpusheet wrote, so neither taken nor "
			     "removed; remove it when no gpusheet writes %s", S_lk.path,
			     gs_error_message(&why), S_lk.out);
		gs_error_release(&why);
		free(text);
		return -1;
	}
	free(text);
	if (S_alive(pid, start))
		return pid;
	/* stale: the run that took it has gone without removing it */
	if (unlinkat(dfd, S_lk.name, 0) != 0 && errno != ENOENT)
		return gs_error_set(err, "%s: cannot remove the lock of a run that ended: %s",
				    S_lk.path, strerror(errno));
	return 0;
}

/* Takes the lock now (the parent folder exists); 0 or -1 with err. */
static int S_acquire(gs_error *err)
{
	int dfd = open(S_lk.parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC), said = 0, tries, rc;
	static int registered;

	if (dfd < 0)
		return gs_error_set(err, "%s: cannot open the folder to lock %s: %s", S_lk.parent,
				    S_lk.out, strerror(errno));
	for (;;) {
		long pid;

		/* a short section: looking at the lock and replacing a stale one */
		for (tries = 0; flock(dfd, LOCK_EX | LOCK_NB) != 0; tries++) {
			if ((errno != EWOULDBLOCK && errno != EINTR) || tries == S_DIR_TRIES) {
				rc = gs_error_set(err, "%s: cannot lock the folder: %s", S_lk.parent,
						  strerror(errno));
				goto out;
			}
			S_sleep_ns(S_POLL_NS / 10);
		}
		rc = S_create(dfd, err);
		pid = rc == 1 ? S_holder(dfd, err) : 0;
		if (rc == 1 && pid == 0)
			rc = S_create(dfd, err);   /* a stale one removed */
		(void)flock(dfd, LOCK_UN);
		if (rc <= 0 || pid < 0) {
			rc = pid < 0 ? -1 : rc;
			goto out;
		}
		if (rc == 1 && pid == 0)
			continue;   /* taken by another run between the two */
		if (!S_lk.wait) {
			rc = gs_error_set(err, "%s: another gpusheet run (pid %ld) is writing it "
					  "(its lock: %s); run this one when it ends, or give --wait "
					  "to wait for it", S_lk.out, pid, S_lk.path);
			goto out;
		}
		if (!said) {
			fprintf(stderr, "gpusheet %s: %s: another gpusheet run (pid %ld) is writing "
				"it; waiting for it to end\n", S_lk.cmd ? S_lk.cmd : "", S_lk.out, pid);
			said = 1;
		}
		S_sleep_ns(S_POLL_NS);
	}
out:
	close(dfd);
	if (rc == 0) {
		S_lk.held = 1;
		S_lk.pending = 0;
		S_lk.owner = getpid();
		if (!registered && atexit(S_at_exit) == 0)
			registered = 1;
	}
	return rc;
}

int gs_outlock_take(const char *out, const char *cmd, int wait, gs_error *err)
{
	struct stat sb;
	char *probe;
	int rc;

	if (S_lk.out) {
		size_t n;
		probe = gs_xstrdup(out);
		n = strlen(probe);
		while (n > 1 && probe[n - 1] == '/')
			probe[--n] = '\0';
		rc = strcmp(S_lk.out, probe);
		free(probe);
		if (rc != 0)
			GS_BUG("the lock of %s asked while %s is held", out, S_lk.out);
		return 0;
	}
	if (S_names(out))
		return 0;
	S_lk.cmd = cmd;
	S_lk.wait = wait;
	if (stat(S_lk.parent, &sb) != 0 || !S_ISDIR(sb.st_mode)) {
		/* nothing written before the inputs are read: the stage makes
		 * the folder, then takes the lock (gs_outlock_ensure) */
		S_lk.pending = 1;
		return 0;
	}
	if (S_acquire(err)) {
		S_forget();
		return -1;
	}
	return 0;
}

int gs_outlock_ensure(const char *out, gs_error *err)
{
	if (!S_lk.out) {
		if (gs_outlock_take(out, NULL, 0, err))
			return -1;
		if (!S_lk.out)
			return 0;
		if (S_lk.pending && S_acquire(err)) {
			S_forget();
			return -1;
		}
		S_lk.by_stage = 1;
		return 1;
	}
	if (S_lk.pending && S_acquire(err))
		return -1;
	return 0;
}

void gs_outlock_release(void)
{
	if (S_lk.held && S_lk.owner == getpid())
		(void)unlink(S_lk.path);
	if (S_lk.owner == getpid() || !S_lk.held)
		S_forget();
}
