/*
 * pngpart: the PNG back end of the charts (chart_png.c: Cairo, pixman,
 * FreeType, fontconfig, libpng and the X11 libraries Debian's Cairo brings)
 * is a part of its own, gpusheet-png.so, loaded by the rendering part only
 * when a chart is asked as PNG (--png). A sheet without --png loads none of
 * those libraries: the charts are laid out with built-in font metrics
 * (fontmetrics.h) and written as SVG directly.
 *
 * Invariants (as renderpart.h):
 *  - the part is looked for next to the rendering part that loads it (the
 *    build tree, or the install's LIBDIR/gpusheet/); loaded once, never
 *    unloaded;
 *  - a part from another version or layout is refused;
 *  - when it cannot be loaded, gs_chart_png_render says why on stderr and
 *    fails (the sheet then fails: nothing is written);
 *  - built with -DGPUSHEET_LAZY_RENDER=OFF, and in the tests, chart_png.c
 *    is linked in and this loader is not built.
 */
#ifndef GS_PNGPART_H
#define GS_PNGPART_H

#include <stddef.h>
#include "chart_list.h"

typedef struct {
	const char *version;   /* GS_VERSION of the part */
	size_t size;           /* sizeof(gs_png_part) when it was built */
	int (*render)(const gs_chart_list *l, gs_buf *out);
} gs_png_part;

#define GS_PNG_PART_SYMBOL "gs_png_part_table"
#define GS_PNG_PART_NAME "gpusheet-png.so"

#endif
