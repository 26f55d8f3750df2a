/*
 * chart_list: the display list a chart is described by, once, and the two
 * back ends that render it (chart_svg.c: SVG text written directly;
 * chart_cairo.c: Cairo rasterising, libdeflate compressing). Private to the
 * chart module: only chart*.c include this header; the rest of the
 * generator sees chart.h.
 *
 * Invariants:
 *  - a list holds marks in painting order; every coordinate is in page
 *    pixels (0..GS_CHART_WIDTH, 0..height, y downwards), already
 *    laid out: a back end never measures or moves anything except to place
 *    a text by its anchor;
 *  - text is clean UTF-8 without control characters (chart.c cleans and
 *    shortens it before it enters the list); a text mark carries its width
 *    (fontmetrics.h, as Cairo measures it), so that both back ends agree on
 *    the layout;
 *  - colours are 8-bit sRGB with an alpha byte; alpha 0 means "none"
 *    (no fill, no stroke);
 *  - the list owns its arrays (gs_chart_list_release frees them); out of
 *    memory aborts (util.h).
 */
#ifndef GS_CHART_LIST_H
#define GS_CHART_LIST_H

#include <cairo.h>
#include <stddef.h>
#include <stdint.h>
#include "buf.h"

/* The page of a chart, in px (a list may grow its height). */
#define GS_CHART_WIDTH  800
#define GS_CHART_HEIGHT 450

#define GS_CHART_FONT "DejaVu Sans"

typedef struct {
	uint8_t r, g, b, a;       /* a: 0 none, 255 opaque */
} gs_chart_rgba;

enum gs_chart_mark_kind {
	GS_MARK_RECT,             /* x, y, w, h */
	GS_MARK_PATH,             /* points pt[p0 .. p0 + np) */
	GS_MARK_CIRCLE,           /* centre x, y; radius w */
	GS_MARK_TEXT              /* baseline anchor x, y; w measured width; h font size */
};

enum gs_chart_dash {
	GS_DASH_NONE,
	GS_DASH_LONG,             /* 7 on, 4 off: assumed capacities, missing boxes */
	GS_DASH_DOT,              /* 1.5 on, 3 off: leaders from a peak */
	GS_DASH_SHORT             /* 4 on, 3 off: a failed phase's band */
};

enum gs_chart_hatch {
	GS_HATCH_NONE,
	GS_HATCH_DIAG,            /* lines x + y = 7k (assumed) */
	GS_HATCH_CROSS            /* and x - y = 7k (observed) */
};

enum gs_chart_anchor { GS_ANCHOR_START, GS_ANCHOR_MIDDLE, GS_ANCHOR_END };

typedef struct {
	uint8_t kind;             /* enum gs_chart_mark_kind */
	uint8_t dash;             /* enum gs_chart_dash, for the stroke */
	uint8_t hatch;            /* enum gs_chart_hatch, over the fill */
	uint8_t anchor;           /* text: enum gs_chart_anchor */
	uint8_t bold;             /* text: 1 bold */
	uint8_t vertical;         /* text: 1 turned a quarter anticlockwise around (x, y) */
	gs_chart_rgba fill, stroke, hatch_ink;
	double lw;                /* stroke width, px */
	double x, y, w, h;
	size_t p0, np;            /* path */
	size_t s0;                /* text: offset of its NUL-terminated bytes in str */
} gs_chart_mark;

enum gs_chart_op { GS_OP_MOVE, GS_OP_LINE, GS_OP_CLOSE };

typedef struct {
	double x, y;
	uint8_t op;               /* enum gs_chart_op; CLOSE ignores x, y */
} gs_chart_pt;

typedef struct {
	gs_chart_mark *m;
	size_t n, cap;
	gs_chart_pt *pt;
	size_t npt, ptcap;
	char *str;                /* text bytes, each NUL-terminated */
	size_t nstr, strcap;
	unsigned height;          /* page height in px; 0: GS_CHART_HEIGHT (bars grow downwards) */
	char *title;              /* <title>: the chart's title ("" if none) */
	char *desc;               /* <desc>: its legend and annotations in words */
	size_t ndesc, desccap;
} gs_chart_list;

void gs_chart_list_init(gs_chart_list *l);
void gs_chart_list_release(gs_chart_list *l);

/* Append a mark (returned for the caller to fill in) with everything zero:
 * no fill, no stroke, solid, no hatch. */
gs_chart_mark *gs_chart_list_add(gs_chart_list *l, enum gs_chart_mark_kind kind);
/* Append a path point to the last mark, which must be a path. */
void gs_chart_list_pt(gs_chart_list *l, enum gs_chart_op op, double x, double y);
/* Copy s into the list's text bytes; returns its offset. */
size_t gs_chart_list_str(gs_chart_list *l, const char *s);
/* Append a sentence to the description ("; " between sentences). */
void gs_chart_list_desc(gs_chart_list *l, const char *s);

/* The list's page height in px (its height, or GS_CHART_HEIGHT). Inline:
 * the PNG part (chart_cairo.c) calls nothing of the render part's files. */
static inline unsigned gs_chart_list_height(const gs_chart_list *l)
{
	return l->height ? l->height : GS_CHART_HEIGHT;
}

/* SVG: real <text> in DejaVu Sans, fixed-point coordinates, no glyph
 * outlines, attributes that neighbouring marks share written once on a
 * <g> (no <style>, no classes); deterministic. *out (an initialised
 * gs_buf, buf.h) is released and then holds the text, NUL-terminated. */
int gs_chart_svg_render(const gs_chart_list *l, gs_buf *out);
/* PNG through Cairo and libdeflate; deterministic. *out as above; on failure
 * it is left empty. The entry point (chart_png.c): the PNG part loaded on
 * first use, or linked in (pngpart.h). */
int gs_chart_png_render(const gs_chart_list *l, gs_buf *out);
/* The same, drawn: the PNG part's own function (chart_cairo.c), called
 * through the part's table only. */
int gs_chart_cairo_render(const gs_chart_list *l, gs_buf *out);

/*
 * The font options every Cairo context of the module uses, for measuring
 * (chart.c) and for drawing (chart_cairo.c): no hinting, no hinted metrics,
 * grey antialiasing. Without them two identical runs were seen to differ,
 * and hinted metrics would make measured widths depend on the size.
 */
void gs_chart_cairo_setup(cairo_t *cr);
/* Select DejaVu Sans at size px, bold or not. */
void gs_chart_cairo_font(cairo_t *cr, double size, int bold);

#endif
