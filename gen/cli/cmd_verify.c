/* cmd_verify: `gpusheet verify DIR`, recompute evidence hashes and follow links. */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "commands.h"
#include "diag.h"
#include "site_keys.h"
#include "util.h"
#include "verify.h"

/*
 * The keys file of an incremental build, which the walk lists as a file
 * like any other: a regular file (a FIFO or a link the walk has said
 * already), within its bound, of its format. 1 problem said, or 0.
 */
static int S_keys_file(const char *dir)
{
	char *path = gs_xasprintf("%s/%s", dir, GS_SITE_KEYS_FILE);
	gs_error why = GS_ERROR_INIT;
	struct stat st;
	int bad = 0;

	if (lstat(path, &st) == 0 && (S_ISREG(st.st_mode) || S_ISDIR(st.st_mode)) &&
	    gs_site_keys_check(dir, &why)) {
		printf("%s: %s (the keys file of an incremental build)\n", GS_SITE_KEYS_FILE,
		       gs_error_message(&why));
		bad = 1;
	}
	gs_error_release(&why);
	free(path);
	return bad;
}

int gs_cmd_verify(int argc, char **argv)
{
	int problems;

	if (argc == 2 && strcmp(argv[1], "--help") == 0) {
		puts("usage: gpusheet verify DIR\n"
		     "  recomputes the SHA-256 of every archived evidence file, checks the manifest,\n"
		     "  and follows every link of every page; exit 1 naming each problem");
		return GS_EXIT_OK;
	}
	if (argc != 2) {
		fputs("gpusheet verify: exactly one DIR is required (see gpusheet --help)\n", stderr);
		return GS_EXIT_USAGE;
	}
	problems = gs_verify_site(argv[1], stdout);
	if (problems < 0) {
		gs_diag_error_print("verify", "cannot read '%s'", argv[1]);
		return GS_EXIT_INVALID;
	}
	problems += S_keys_file(argv[1]);
	if (problems > 0) {
		gs_diag_error_print("verify", "%d problem%s in '%s'", problems,
			       problems == 1 ? "" : "s", argv[1]);
		return GS_EXIT_INVALID;
	}
	printf("%s: ok\n", argv[1]);
	return GS_EXIT_OK;
}
