/*
 * commands: one function per subcommand of the gpusheet CLI. Each parses its
 * own options, calls the pipeline stages and returns the exit code:
 *   0 success, 1 invalid input or value, 2 usage error,
 *   3 sheet written but nothing retained (sheet --require-retained).
 */
#ifndef GS_COMMANDS_H
#define GS_COMMANDS_H

enum {
	GS_EXIT_OK = 0,
	GS_EXIT_INVALID = 1,
	GS_EXIT_USAGE = 2,
	GS_EXIT_NOT_RETAINED = 3
};

int gs_cmd_size_estimate(int argc, char **argv);
int gs_cmd_size_kv(int argc, char **argv);
int gs_cmd_check(int argc, char **argv);
int gs_cmd_sheet(int argc, char **argv);
int gs_cmd_site(int argc, char **argv);
int gs_cmd_verify(int argc, char **argv);
int gs_cmd_model(int argc, char **argv);
int gs_cmd_init(int argc, char **argv);
int gs_cmd_catalog(int argc, char **argv);
int gs_cmd_merge(int argc, char **argv);
int gs_cmd_evidence(int argc, char **argv);

#endif
