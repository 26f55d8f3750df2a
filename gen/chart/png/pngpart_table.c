/* pngpart_table: the entry point of the PNG part (pngpart.h). */
#include "chart_list.h"
#include "pngpart.h"

const gs_png_part gs_png_part_table = {
	GS_VERSION, sizeof(gs_png_part), gs_chart_cairo_render,
};
