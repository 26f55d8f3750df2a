/* workers: a range of independent items split among worker processes. */
#define _GNU_SOURCE
#include "workers.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util.h"

unsigned gs_workers_default(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1 ? 1u : n > 256 ? 256u : (unsigned)n;
}

/* The whole of f from its start, NUL-terminated. */
static char *S_slurp(FILE *f, size_t *len)
{
	size_t n = 0, cap = 4096;
	char *buf = gs_xmalloc(cap);

	if (fseek(f, 0, SEEK_SET) == 0) {
		for (;;) {
			size_t got = fread(buf + n, 1, cap - n - 1, f);
			n += got;
			if (got == 0)
				break;
			if (cap - n - 1 == 0) {
				cap *= 2;
				buf = gs_xrealloc(buf, cap);
			}
		}
	}
	buf[n] = '\0';
	*len = n;
	return buf;
}

/* A worker's exit status above this is S_EXIT_ERRNO + the errno of its report's write. */
#define S_EXIT_ERRNO 16

static void S_child(size_t from, size_t to, gs_worker_fn fn, void *ctx, FILE *out,
		    pid_t parent)
{
	int rc;

	/* Dies with the parent; if the parent is already gone, stop here. */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent)
		_exit(3);
	rc = fn(from, to, ctx, out);
#ifdef GS_FAULT_INJECTION
	/* test builds: the report's disk is full when it is flushed */
	if (getenv("GS_TEST_REPORT_ENOSPC")) {
		errno = ENOSPC;
		_exit(S_EXIT_ERRNO + ENOSPC);
	}
#endif
	if (fflush(out) != 0 || ferror(out)) {
		/* the report is lost (a full disk): its errno says why, by the
		 * exit status, since nothing else reaches the parent */
		int e = errno;
		_exit(e > 0 && e < 256 - S_EXIT_ERRNO ? S_EXIT_ERRNO + e : 2);
	}
	_exit(rc ? 1 : 0);
}

/* A new anonymous file for a report, in dir when it allows O_TMPFILE; NULL with errno. */
static FILE *S_report_file(const char *dir)
{
	if (dir) {
		int fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
		FILE *f;

		if (fd >= 0) {
			f = fdopen(fd, "w+b");
			if (f)
				return f;
			close(fd);
		}
	}
	return tmpfile();
}

int gs_workers_run(size_t n, unsigned jobs, gs_worker_fn fn, void *ctx, const char *dir,
		   gs_worker_reports *rep, gs_error *err)
{
	size_t nw = jobs < 1 ? 1 : jobs, k, alive = 0, failed = (size_t)-1;
	pid_t *pids, self = getpid();
	FILE **outs;
	int *status;
	int rc = -1;

	memset(rep, 0, sizeof(*rep));
	if (nw > n)
		nw = n ? n : 1;
	pids = gs_xcalloc(nw, sizeof(*pids));
	outs = gs_xcalloc(nw, sizeof(*outs));
	status = gs_xcalloc(nw, sizeof(*status));
	rep->n = nw;
	rep->from = gs_xcalloc(nw, sizeof(*rep->from));
	rep->to = gs_xcalloc(nw, sizeof(*rep->to));
	rep->report = gs_xcalloc(nw, sizeof(*rep->report));
	/* Nothing buffered may be written twice (once by a worker). */
	fflush(NULL);
	for (k = 0; k < nw; k++) {
		rep->from[k] = (size_t)((unsigned __int128)n * k / nw);
		rep->to[k] = (size_t)((unsigned __int128)n * (k + 1) / nw);
		outs[k] = S_report_file(dir);
		if (!outs[k]) {
			gs_error_set(err, "cannot create a temporary file for a worker: %s",
				 strerror(errno));
			goto stop;
		}
		pids[k] = fork();
		if (pids[k] < 0) {
			gs_error_set(err, "cannot start a worker process: %s", strerror(errno));
			pids[k] = 0;
			goto stop;
		}
		if (pids[k] == 0)
			S_child(rep->from[k], rep->to[k], fn, ctx, outs[k], self);
		alive++;
	}
	while (alive) {
		int st;
		pid_t p = waitpid(-1, &st, 0);

		if (p < 0) {
			if (errno == EINTR)
				continue;
			GS_BUG("waitpid: %s", strerror(errno));
		}
		for (k = 0; k < nw && pids[k] != p; k++)
			;
		if (k == nw)
			continue; /* not one of ours */
		pids[k] = 0;
		alive--;
		status[k] = st;
		if (!(WIFEXITED(st) && WEXITSTATUS(st) == 0) && failed == (size_t)-1) {
			failed = k;
			goto stop;
		}
	}
	for (k = 0; k < nw; k++) {
		if (fseek(outs[k], 0, SEEK_SET) != 0) {
			gs_error_set(err, "cannot read the report of a worker: %s", strerror(errno));
			goto out;
		}
		rep->report[k] = outs[k];
		outs[k] = NULL;
	}
	rc = 0;
	goto out;
stop:
	/* Stop the others, then report the lowest-numbered failed worker. */
	for (k = 0; k < nw; k++)
		if (pids[k] > 0)
			kill(pids[k], SIGKILL);
	for (k = 0; k < nw; k++)
		if (pids[k] > 0) {
			int st;
			while (waitpid(pids[k], &st, 0) < 0 && errno == EINTR)
				;
			status[k] = st;
			if (WIFEXITED(st) && WEXITSTATUS(st) == 1 && k < failed)
				failed = k;
		}
	if (failed != (size_t)-1) {
		int st = status[failed];
		if (WIFEXITED(st) && WEXITSTATUS(st) == 1) {
			size_t len;
			char *msg = S_slurp(outs[failed], &len);
			gs_error_set(err, "%s", len ? msg : "a worker failed");
			free(msg);
		} else if (WIFSIGNALED(st)) {
			gs_error_set(err, "the worker of items %zu to %zu died of signal %d",
				 rep->from[failed] + 1, rep->to[failed], WTERMSIG(st));
		} else if (WIFEXITED(st) && WEXITSTATUS(st) > S_EXIT_ERRNO) {
			gs_error_set(err, "the worker of items %zu to %zu could not write its report "
				     "(kept %s): %s", rep->from[failed] + 1, rep->to[failed],
				     dir ? "beside the output" : "in the temporary folder",
				     strerror(WEXITSTATUS(st) - S_EXIT_ERRNO));
		} else {
			gs_error_set(err, "the worker of items %zu to %zu failed (exit %d)",
				 rep->from[failed] + 1, rep->to[failed], WEXITSTATUS(st));
		}
	}
out:
	for (k = 0; k < nw; k++)
		if (outs[k])
			fclose(outs[k]);
	free(pids);
	free(outs);
	free(status);
	if (rc)
		gs_workers_reports_release(rep);
	return rc;
}

void gs_workers_reports_release(gs_worker_reports *rep)
{
	size_t k;

	if (rep->report)
		for (k = 0; k < rep->n; k++)
			if (rep->report[k])
				fclose(rep->report[k]);
	free(rep->report);
	free(rep->from);
	free(rep->to);
	memset(rep, 0, sizeof(*rep));
}
