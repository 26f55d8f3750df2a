/* cmd_init: placeholder until the init command lands. */
#include "commands.h"
#include <stdio.h>
int gs_cmd_init(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "gpusheet init: not available\n");
	return GS_EXIT_USAGE;
}
