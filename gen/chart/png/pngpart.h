/*
 * pngpart: the PNG back end of the charts (chart_cairo.c: Cairo, pixman,
 * FreeType, fontconfig, libpng and the X11 libraries Debian's Cairo brings)
 * is a part of its own, gpusheet-png.so, loaded only when a chart is asked
 * as PNG (--png). It is the one part gpusheet loads: every other command,
 * `sheet` and `site` without --png included, runs without Cairo and the
 * libraries under it (the charts are laid out with built-in font metrics,
 * fontmetrics.h, and written as SVG directly). Measured: bench/README.md,
 * start-up.
 *
 * Invariants:
 *  - the part is looked for next to the running executable (the build
 *    tree), then in BIN/../LIBDIR/gpusheet/ (an install); the first file
 *    found is loaded, once per process, and never unloaded;
 *  - a part from another version or layout is refused (its table carries
 *    GS_VERSION and the table's size);
 *  - the part is loaded RTLD_LAZY but linked -z now: its own references
 *    are all bound at load (one that no library defines is refused there,
 *    with the loader's "undefined symbol: NAME");
 *  - when it cannot be loaded, gs_chart_png_render says why on stderr and
 *    fails (the sheet then fails: nothing is written);
 *  - the part's one entry is its table, gs_png_part_table
 *    (pngpart_table.c), whose render is the part's gs_chart_cairo_render;
 *    the rest of gpusheet calls gs_chart_png_render and gs_chart_png_ready
 *    (chart_png.c), defined once, by the loader;
 *  - built with -DGPUSHEET_LAZY_PNG=OFF, and in the tests, the part is
 *    linked in: the loader is built with GS_PNG_LINKED and takes the table
 *    directly (CMakeLists.txt: gspnglinked).
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
extern const gs_png_part gs_png_part_table;  /* defined in the part only */
#define GS_PNG_PART_NAME "gpusheet-png.so"

#endif
