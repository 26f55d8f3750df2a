/* cmd_verify: `gpusheet verify DIR`, recompute evidence hashes and follow links. */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "diag.h"
#include "verify.h"

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
		gs_diag_error_print("verify", "cannot read \"%s\"", argv[1]);
		return GS_EXIT_INVALID;
	}
	if (problems > 0) {
		gs_diag_error_print("verify", "%d problem%s in \"%s\"", problems,
			       problems == 1 ? "" : "s", argv[1]);
		return GS_EXIT_INVALID;
	}
	printf("%s: ok\n", argv[1]);
	return GS_EXIT_OK;
}
