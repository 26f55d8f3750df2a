/*
 * badpart: a PNG part (gen/chart/png/pngpart.h) of the right version and
 * layout whose render needs a function no library defines, as a part built
 * against a newer library than the one installed would. Linked with the
 * real part's binding options (GS_PART_BIND_OPTIONS, -z now) but without
 * -z defs, so that the link lets it through: the executable must refuse it
 * when it loads it, with the loader's words naming the symbol, instead of
 * starting to render and dying halfway through
 * (tests/scripts/startup-lean.sh).
 */
#include "pngpart.h"

int gs_test_missing_symbol(const gs_chart_list *l, gs_buf *out);  /* defined nowhere */

/* a call (bound lazily without -z now), not the function's address (a
 * data relocation, bound at load time whatever the options) */
static int S_render(const gs_chart_list *l, gs_buf *out)
{
	return gs_test_missing_symbol(l, out);
}

const gs_png_part gs_png_part_table = {
	GS_VERSION, sizeof(gs_png_part), S_render,
};
