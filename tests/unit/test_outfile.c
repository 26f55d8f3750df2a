/*
 * outfile tests: temporary files never follow a planted symlink (finding
 * D11), temporary names are unpredictable and recognised, a transaction
 * shows nothing before its commit and leaves nothing when freed (nor an
 * open descriptor, however many files it holds), a stage
 * replaces a folder whole and refuses a folder that is not ours.
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "outfile.h"
#include "util.h"

static char *S_read(const char *path)
{
	return gs_outfile_read(path, NULL);
}

static void S_put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static void S_test_planted_symlinks(const char *tmp)
{
	char *dir = gs_xasprintf("%s/out", tmp), *outside = gs_xasprintf("%s/outside.txt", tmp);
	char *planted = gs_xasprintf("%s/.x.json.tmp-%ld", dir, (long)getpid());
	char *final = gs_xasprintf("%s/y.json", dir), *p;
	gs_error err = GS_ERROR_INIT;
	struct stat st;

	mkdir(dir, 0777);
	S_put(outside, "precious\n");
	/* the temporary name earlier versions used, predictable from the pid */
	CHECK(symlink(outside, planted) == 0);
	CHECK_INT(gs_outfile_write_atomic(dir, "x.json", "new\n", 4, &err), 0);
	p = S_read(outside);
	CHECK_STR(p, "precious\n");
	free(p);
	/* a symlink at the final name is replaced, not followed */
	CHECK(symlink(outside, final) == 0);
	CHECK_INT(gs_outfile_write_atomic(dir, "y.json", "y\n", 2, &err), 0);
	p = S_read(outside);
	CHECK_STR(p, "precious\n");
	free(p);
	CHECK(lstat(final, &st) == 0 && S_ISREG(st.st_mode));
	/* x.json, y.json and the planted link: no temporary file left */
	CHECK_INT(gs_check_entries(dir), 3);
	free(dir);
	free(outside);
	free(planted);
	free(final);
	gs_error_release(&err);
}

static void S_test_temp_names(const char *tmp)
{
	char *a = NULL, *b = NULL;
	int fa = gs_outfile_temp_open(tmp, &a), fb = gs_outfile_temp_open(tmp, &b);
	const char *na, *nb;

	CHECK(fa >= 0 && fb >= 0);
	if (fa >= 0 && fb >= 0) {
		na = strrchr(a, '/') + 1;
		nb = strrchr(b, '/') + 1;
		/* ".gs-tmp-" + 16 hex digits: 64 random bits, two draws differ */
		CHECK_INT((long)strlen(na), 8 + 16);
		CHECK(strcmp(na, nb) != 0);
		CHECK(gs_outfile_is_temp_name(na));
		close(fa);
		close(fb);
		unlink(a);
		unlink(b);
	}
	CHECK(gs_outfile_is_temp_name(".x.json.tmp-123"));
	CHECK(gs_outfile_is_temp_name(".tmp-AbC123"));
	CHECK(!gs_outfile_is_temp_name("x.json"));
	CHECK(!gs_outfile_is_temp_name(".nojekyll"));
	free(a);
	free(b);
}

static void S_test_tx(const char *tmp)
{
	char *dir = gs_xasprintf("%s/tx", tmp), *f1 = gs_xasprintf("%s/a.txt", dir);
	char *f2 = gs_xasprintf("%s/b.txt", dir), *p;
	gs_error err = GS_ERROR_INIT;
	gs_outtx *tx;

	mkdir(dir, 0777);
	S_put(f1, "old a\n");
	tx = gs_outfile_tx_new();
	CHECK_INT(gs_outfile_tx_add(tx, dir, "a.txt", "new a\n", 6, &err), 0);
	CHECK_INT(gs_outfile_tx_add(tx, dir, "b.txt", "new b\n", 6, &err), 0);
	CHECK_INT(gs_outfile_tx_add(tx, dir, "../c.txt", "c", 1, &err), -1);
	/* before the commit: the old a, no b */
	p = S_read(f1);
	CHECK_STR(p, "old a\n");
	free(p);
	CHECK(access(f2, F_OK) != 0);
	gs_outfile_tx_free(tx); /* not committed: its temporary files go */
	CHECK_INT(gs_check_entries(dir), 1);
	tx = gs_outfile_tx_new();
	CHECK_INT(gs_outfile_tx_add(tx, dir, "a.txt", "new a\n", 6, &err), 0);
	CHECK_INT(gs_outfile_tx_add(tx, dir, "b.txt", "new b\n", 6, &err), 0);
	CHECK_INT(gs_outfile_tx_commit(tx, &err), 0);
	gs_outfile_tx_free(tx);
	p = S_read(f1);
	CHECK_STR(p, "new a\n");
	free(p);
	p = S_read(f2);
	CHECK_STR(p, "new b\n");
	free(p);
	CHECK_INT(gs_check_entries(dir), 2);
	free(dir);
	free(f1);
	free(f2);
	gs_error_release(&err);
}

/* Descriptors this process has open (from /proc/self/fd), -1 if unknown. */
static int S_open_fds(void)
{
	return gs_check_entries("/proc/self/fd");
}

/* More files than a transaction keeps open until its commit (32): the
 * first ones wait for the commit, the rest are synced as written; every
 * file arrives with its bytes, and no descriptor is left open, committed
 * or not. */
static void S_test_tx_many(const char *tmp)
{
	gs_error err = GS_ERROR_INIT;
	char *dir = gs_xasprintf("%s/txm", tmp), name[32], text[32], *p, *path;
	int fds = S_open_fds(), i, round;
	gs_outtx *tx;

	mkdir(dir, 0777);
	for (round = 0; round < 2; round++) {
		tx = gs_outfile_tx_new();
		for (i = 0; i < 40; i++) {
			snprintf(name, sizeof(name), "f%02d.txt", i);
			snprintf(text, sizeof(text), "file %d, round %d\n", i, round);
			CHECK_INT(gs_outfile_tx_add(tx, dir, name, text, strlen(text), &err), 0);
		}
		CHECK_INT(S_open_fds(), fds + 32);   /* the first 32 wait for the commit */
		if (round == 1)
			CHECK_INT(gs_outfile_tx_commit(tx, &err), 0);
		gs_outfile_tx_free(tx);
		CHECK_INT(S_open_fds(), fds);
		CHECK_INT(gs_check_entries(dir), round == 0 ? 0 : 40);
	}
	for (i = 0; i < 40; i += 13) {
		snprintf(text, sizeof(text), "file %d, round 1\n", i);
		path = gs_xasprintf("%s/f%02d.txt", dir, i);
		p = S_read(path);
		CHECK_STR(p, text);
		free(p);
		free(path);
	}
	gs_outfile_remove_tree(dir);
	free(dir);
	gs_error_release(&err);
}

/* Direct transactions (a stage's files): final names at once, never
 * replacing a file, never through a link; removed when not committed. */
static void S_test_tx_direct(const char *tmp)
{
	char *dir = gs_xasprintf("%s/txd", tmp), *f1 = gs_xasprintf("%s/a.txt", dir);
	char *lnk = gs_xasprintf("%s/l.txt", dir), *p;
	gs_error err = GS_ERROR_INIT;
	gs_outtx *tx;

	mkdir(dir, 0777);
	CHECK(symlink(f1, lnk) == 0);
	tx = gs_outfile_tx_new_direct();
	CHECK_INT(gs_outfile_tx_add(tx, dir, "a.txt", "a\n", 2, &err), 0);
	p = S_read(f1);   /* visible at once: the stage hides it */
	CHECK_STR(p, "a\n");
	free(p);
	CHECK_INT(gs_outfile_tx_add(tx, dir, "a.txt", "again\n", 6, &err), -1);
	CHECK(strstr(gs_error_message(&err), "cannot create") != NULL);
	CHECK_INT(gs_outfile_tx_add(tx, dir, "l.txt", "via link\n", 9, &err), -1);
	CHECK_INT(gs_outfile_tx_add(tx, dir, "../x.txt", "x", 1, &err), -1);
	gs_outfile_tx_free(tx);   /* not committed: a.txt goes, the link stays */
	CHECK(access(f1, F_OK) != 0);
	CHECK_INT(gs_check_entries(dir), 1);
	tx = gs_outfile_tx_new_direct();
	CHECK_INT(gs_outfile_tx_add(tx, dir, "a.txt", "kept\n", 5, &err), 0);
	CHECK_INT(gs_outfile_tx_commit(tx, &err), 0);
	gs_outfile_tx_free(tx);
	p = S_read(f1);
	CHECK_STR(p, "kept\n");
	free(p);
	CHECK_INT(gs_check_entries(dir), 2);
	gs_outfile_remove_tree(dir);
	free(dir);
	free(f1);
	free(lnk);
	gs_error_release(&err);
}

static void S_test_stage(const char *tmp)
{
	gs_error err = GS_ERROR_INIT;
	static const char *const marks[] = { "index.html", NULL };
	char *out = gs_xasprintf("%s/site", tmp), *idx = gs_xasprintf("%s/site/index.html", tmp);
	char *other = gs_xasprintf("%s/notours", tmp), *link = gs_xasprintf("%s/linked", tmp);
	char *p, *f;
	gs_stage *st;

	/* no OUT yet: created by the commit */
	st = gs_outfile_stage_begin(out, marks, &err);
	if (CHECK(st != NULL)) {
		CHECK(gs_outfile_stage_previous(st) == NULL);
		f = gs_xasprintf("%s/index.html", gs_outfile_stage_dir(st));
		S_put(f, "one\n");
		free(f);
		CHECK(access(out, F_OK) != 0);
		CHECK_INT(gs_outfile_stage_commit(st, &err), 0);
		gs_outfile_stage_free(st);
	}
	p = S_read(idx);
	CHECK_STR(p, "one\n");
	free(p);
	/* an existing site: swapped whole; an abandoned stage changes nothing */
	st = gs_outfile_stage_begin(out, marks, &err);
	if (CHECK(st != NULL)) {
		CHECK_STR(gs_outfile_stage_previous(st), out);
		gs_outfile_stage_free(st);
	}
	p = S_read(idx);
	CHECK_STR(p, "one\n");
	free(p);
	st = gs_outfile_stage_begin(out, marks, &err);
	if (CHECK(st != NULL)) {
		f = gs_xasprintf("%s/index.html", gs_outfile_stage_dir(st));
		S_put(f, "two\n");
		free(f);
		CHECK_INT(gs_outfile_stage_commit(st, &err), 0);
		gs_outfile_stage_free(st);
	}
	p = S_read(idx);
	CHECK_STR(p, "two\n");
	free(p);
	/* tmp holds out, outside.txt, tx and site: no stage, no old tree left */
	CHECK_INT(gs_check_entries(tmp), 4);
	/* a non-empty folder without the marks, and a symlink: refused */
	mkdir(other, 0777);
	f = gs_xasprintf("%s/thesis.tex", other);
	S_put(f, "mine\n");
	st = gs_outfile_stage_begin(other, marks, &err);
	CHECK(st == NULL && strstr(gs_error_message(&err), "not replaced") != NULL);
	gs_outfile_stage_free(st);
	p = S_read(f);
	CHECK_STR(p, "mine\n");
	free(p);
	free(f);
	CHECK(symlink(out, link) == 0);
	st = gs_outfile_stage_begin(link, marks, &err);
	CHECK(st == NULL && strstr(gs_error_message(&err), "symbolic link") != NULL);
	gs_outfile_stage_free(st);
	free(out);
	free(idx);
	free(other);
	free(link);
	gs_error_release(&err);
}

int main(void)
{
	char tmpl[] = "/tmp/gs-outfile-XXXXXX";
	char *tmp = mkdtemp(tmpl);

	if (!CHECK(tmp != NULL))
		return gs_check_exit("test_outfile");
	S_test_planted_symlinks(tmp);
	S_test_temp_names(tmp);
	S_test_tx(tmp);
	S_test_tx_many(tmp);
	S_test_tx_direct(tmp);
	S_test_stage(tmp);
	gs_outfile_remove_tree(tmp);
	return gs_check_exit("test_outfile");
}
