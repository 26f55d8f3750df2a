/* renderpart_table: the entry points of the rendering part (renderpart.h). */
#include "catalog.h"
#include "commands.h"
#include "renderpart.h"

static void S_catalog_check(const char *path, const char *rng, gs_diag *d)
{
	gs_catalog c;

	gs_catalog_read(path, rng, &c, d);
	gs_catalog_release(&c);
}

const gs_render_part gs_render_part_table = {
	GS_VERSION, sizeof(gs_render_part),
	gs_cmd_sheet, gs_cmd_site, gs_cmd_verify, gs_cmd_catalog, gs_cmd_merge, S_catalog_check,
	gs_cmd_evidence,
};
