/*
 * site_learnt tests: what a site's validation learnt of each workload,
 * spooled (site_learnt.h), comes back string by string as it was put, in
 * the paths' order or another (a shard's workers), a record at a time and
 * across the ranges a get loads; a workload not read comes back without
 * an id; a process forked after the flush reads the same; nothing is
 * visible in the folder.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "site_learnt.h"
#include "util.h"

#define S_N 300   /* more than two of the ranges a get loads */

/* Path i's record as the test puts it (in, allocated); i % 7 == 3: not read. */
static void S_input(size_t i, gs_site_input *in)
{
	size_t k;

	memset(in, 0, sizeof(*in));
	if (i % 7 == 3)
		return;
	in->id = gs_xasprintf("w%05zu", i);
	in->title = i % 11 == 5 ? gs_xstrdup("") : gs_xasprintf("title %zu \"é\"\n", i);
	snprintf(in->sha256, sizeof(in->sha256), "%064zx", i * 2654435761u);
	for (k = 0; k < i % 4; k++) {
		gs_util_strvec_push(&in->ev_path, gs_xasprintf("dir %zu/m%zu.json", i, k));
		gs_util_strvec_push(&in->ev_file, gs_xasprintf("m%zu.json", k));
		gs_util_strvec_push(&in->ev_sha256, gs_xasprintf("%064zx", i * 31 + k));
	}
}

/* Whether path i's record reads back as it was put (it: got from l). */
static int S_same(size_t i, const gs_site_learnt_item *it)
{
	gs_site_input in;
	size_t k;
	int ok;

	S_input(i, &in);
	if (!in.id) {
		ok = CHECK(it->id == NULL) && CHECK_STR(it->sha256, "") && CHECK_INT(it->nev, 0);
		gs_site_learnt_input_release(&in);
		return ok;
	}
	ok = CHECK_STR(it->id, in.id) && CHECK_STR(it->title, in.title) &&
	     CHECK_STR(it->sha256, in.sha256) && CHECK_INT(it->nev, in.ev_path.n);
	for (k = 0; ok && k < in.ev_path.n; k++)
		ok = CHECK_STR(gs_site_learnt_ev_path(it, k), in.ev_path.v[k]) &&
		     CHECK_STR(gs_site_learnt_ev_file(it, k), in.ev_file.v[k]) &&
		     CHECK_STR(gs_site_learnt_ev_sha256(it, k), in.ev_sha256.v[k]);
	gs_site_learnt_input_release(&in);
	return ok;
}

/* Puts every record in the order given by order (NULL: the paths'). */
static gs_site_learnt *S_fill(const char *dir, const size_t *order)
{
	gs_error err = GS_ERROR_INIT;
	gs_site_learnt *l = gs_site_learnt_new(dir, S_N, &err);
	size_t j;

	if (!CHECK(l != NULL))
		return NULL;
	CHECK_INT(gs_site_learnt_paths(l), S_N);
	for (j = 0; j < S_N; j++) {
		gs_site_input in;
		size_t i = order ? order[j] : j;
		S_input(i, &in);
		CHECK_INT(gs_site_learnt_put(l, i, &in, &err), 0);
		gs_site_learnt_input_release(&in);
	}
	return l;
}

static void S_test(const char *dir)
{
	size_t order[S_N], i, bad = 0;
	gs_site_learnt_item it, first;
	gs_site_learnt *l;
	gs_error err = GS_ERROR_INIT;
	pid_t pid;
	int st;

	/* in the paths' order: read forwards, backwards, a record at a time */
	l = S_fill(dir, NULL);
	if (!l)
		return;
	for (i = 0; i < S_N; i++)
		if (!CHECK_INT(gs_site_learnt_get(l, i, &it, &err), 0) || !S_same(i, &it))
			bad++;
	for (i = S_N; i-- > 0;)
		if (!CHECK_INT(gs_site_learnt_get(l, i, &it, &err), 0) || !S_same(i, &it))
			bad++;
	CHECK_INT(bad, 0);
	/* a record got stays valid while the next is in the range loaded */
	CHECK_INT(gs_site_learnt_get(l, 10, &first, &err), 0);
	CHECK_INT(gs_site_learnt_get(l, 11, &it, &err), 0);
	CHECK(S_same(10, &first) && S_same(11, &it));
	CHECK_INT(gs_check_entries(dir), 0);
	gs_site_learnt_free(l);

	/* in another order (as a shard's workers report them): each path its own */
	for (i = 0; i < S_N; i++)
		order[i] = (i * 7 + 5) % S_N;   /* 7 and 300 coprime: a permutation */
	l = S_fill(dir, order);
	if (!l)
		return;
	bad = 0;
	for (i = 0; i < S_N; i++)
		if (!CHECK_INT(gs_site_learnt_get(l, i, &it, &err), 0) || !S_same(i, &it))
			bad++;
	CHECK_INT(bad, 0);
	/* written out before a fork: a child reads the same, and writes nothing */
	CHECK_INT(gs_site_learnt_flush(l, &err), 0);
	pid = fork();
	if (pid == 0) {
		int ok = 1;
		for (i = S_N; i-- > 0 && ok;)
			ok = gs_site_learnt_get(l, i, &it, &err) == 0 && S_same(i, &it);
		_exit(ok && gs_check_failed == 0 ? 0 : 1);
	}
	CHECK(pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0);
	CHECK_INT(gs_site_learnt_get(l, 0, &it, &err), 0);
	CHECK(S_same(0, &it));
	CHECK_INT(gs_check_entries(dir), 0);
	gs_site_learnt_free(l);

	/* none */
	l = gs_site_learnt_new(dir, 0, &err);
	if (CHECK(l != NULL))
		CHECK_INT(gs_site_learnt_flush(l, &err), 0);
	gs_site_learnt_free(l);
	/* a folder that is not there: said */
	gs_error_release(&err);
	CHECK(gs_site_learnt_new("/nonexistent-folder-of-gs-tests", 1, &err) == NULL);
	CHECK(strstr(gs_error_message(&err), "cannot create a temporary file") != NULL);
	gs_error_release(&err);
}

int main(void)
{
	char tmpl[] = "/tmp/gs-site-learnt-XXXXXX";
	char *tmp = mkdtemp(tmpl);

	if (!CHECK(tmp != NULL))
		return gs_check_exit("test_site_learnt");
	S_test(tmp);
	rmdir(tmp);
	return gs_check_exit("test_site_learnt");
}
