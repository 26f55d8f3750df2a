/*
 * badpart: a rendering part (gen/cli/renderpart.h) of the right version and
 * layout whose sheet command needs a function no library defines, as a
 * part built against a newer library than the one installed would. Linked
 * with the real parts' binding options (GS_PART_BIND_OPTIONS, -z now) but
 * without -z defs, so that the link lets it through: the executable must
 * refuse it when it loads it, with the loader's words naming the symbol,
 * instead of starting the command and dying halfway through
 * (tests/scripts/startup-lean.sh).
 */
#include "renderpart.h"

int gs_test_missing_symbol(int argc, char **argv);  /* defined nowhere */

/* a call (bound lazily without -z now), not the function's address (a
 * data relocation, bound at load time whatever the options) */
static int S_sheet(int argc, char **argv)
{
	return gs_test_missing_symbol(argc, argv);
}

static int S_unused(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return 1;
}

static void S_unused_check(const char *path, const char *rng, gs_diag *d)
{
	(void)path;
	(void)rng;
	(void)d;
}

const gs_render_part gs_render_part_table = {
	GS_VERSION, sizeof(gs_render_part),
	S_sheet, S_unused, S_unused, S_unused, S_unused, S_unused_check,
};
