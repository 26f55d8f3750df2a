/*
 * chart: the decision sheet's charts (memory budget, per-phase counters,
 * sweep) and the offers page's bars of money. Each chart is described once, as a display list of marks
 * (rectangles, paths, circles, text with an anchor), then rendered twice:
 * SVG written directly, with real <text> in DejaVu Sans and no glyph
 * outlines (a few KB per chart), and, only when GS_CHART_PNG is asked,
 * PNG rasterised by Cairo. Text is measured with the font's advance widths
 * (fontmetrics.h), the ones Cairo draws with, so that both outputs share
 * one layout and an SVG chart loads no font library.
 *
 * Invariants:
 *  - deterministic bytes: the same inputs give byte-identical SVG and PNG,
 *    whether a chart is the first or the hundredth of the process and
 *    whatever fonts the machine has (widths come from a built-in table;
 *    font options are set explicitly on every Cairo context; SVG
 *    coordinates are written in hundredths of a pixel without printf or
 *    the locale);
 *  - the SVG is readable without the picture: a <title> (the chart's
 *    title) and a <desc> (every drawn value in words) for screen readers,
 *    and its labels are text that a search finds;
 *  - sizes arrive as exact bytes (gs_qty); bytes become GiB as a double only
 *    to place things on the page; tick labels are whole hundredths of a GiB
 *    formatted by quantity (decimal comma in es);
 *  - a missing value (present == 0) is drawn as a visible "missing" mark,
 *    never as a zero-height bar;
 *  - meaning never rests on colour alone: provenance is a fill pattern
 *    (calculated: solid, assumed: diagonal hatching, observed: cross
 *    hatching) and a word, assumed lines are dashed, success and failure
 *    are marker shapes, and every chart carries a legend in words;
 *  - text is "DejaVu Sans" (measured with its own advances; in the SVG
 *    "DejaVu Sans, sans-serif"), at least 12 px, on an 800 x 450 px page
 *    (bars: 800 px wide, as high as their rows need);
 *    long labels are shortened with an ellipsis; a text keeps its anchor
 *    (start, middle, end), so that a viewer's slightly different metrics
 *    never move it off its mark;
 *  - no global mutable state; the input is only read; the caller owns the
 *    output buffers, two gs_buf (buf.h): gs_chart_out_release, or
 *    gs_buf_release / gs_buf_detach each.
 *
 * Every gs_chart_* function returns 0 on success and -1 on failure (a Cairo
 * error or an impossible total; out of memory aborts, as util.h says); on
 * failure *out is left empty (both buffers empty: len 0, data ""), and
 * without GS_CHART_PNG out->png is empty too. *out need not be initialised
 * before the call (what it held is not freed).
 */
#ifndef GS_CHART_H
#define GS_CHART_H

#include <stddef.h>
#include <stdint.h>
#include "buf.h"
#include "quantity.h"


typedef struct {
	gs_buf svg, png;        /* the SVG text (NUL-terminated), the PNG bytes */
} gs_chart_out;

void gs_chart_out_release(gs_chart_out *out);

/* What to render besides the SVG. */
enum gs_chart_flags {
	GS_CHART_PNG = 1 << 0     /* also the PNG (out->png); else it stays empty */
};

/*
 * Words drawn in a chart, already translated by the caller. Any NULL word
 * is drawn in English (the default in brackets).
 */
typedef struct {
	unsigned flags;           /* enum gs_chart_flags */
	const char *title;        /* drawn at the top; NULL: no title */
	const char *axis_label;   /* value axis ["Memory (GiB)"]; the unit is always GiB */
	const char *x_label;      /* sweep: the varied dimension ["context (tokens)"] */
	gs_lang lang;             /* number format of tick and value labels */
	const char *calculated;   /* ["calculated"] */
	const char *assumed;      /* ["assumed"] */
	const char *observed;     /* ["observed"] */
	const char *capacity;     /* ["capacity"] */
	const char *peak;         /* ["peak"] */
	const char *total;        /* ["total"] */
	const char *missing;      /* ["missing"] */
	const char *failed;       /* ["failed"] */
	const char *not_run;      /* ["not run"] */
	const char *succeeded;    /* ["succeeded"] */
	const char *allocated;    /* ["allocated"] */
	const char *reserved;     /* ["reserved"] */
	const char *start;        /* ["start"] */
	const char *end;          /* ["end"] */
	const char *retained;     /* bars: ["retained"] */
	const char *preselected;  /* bars: ["pre-selected"] */
	const char *excluded;     /* bars: ["excluded"] */
} gs_chart_text;

/* One part of the budget bar: weights, KV cache, one reserve item, ... */
typedef struct {
	const char *label;
	gs_qty value;             /* missing: listed as missing, not drawn */
} gs_chart_segment;

/* A horizontal line (a card's capacity) or a marker (an observed peak). */
typedef struct {
	const char *label;        /* "RTX 4090 (24 GB)" */
	gs_qty value;             /* missing: listed as missing, not drawn */
} gs_chart_line;

/* 1. Memory budget: one stacked bar, drawn bottom to top in array order;
 *    capacity lines (dashed when assumed) and observed peaks (diamonds). */
int gs_chart_budget(const gs_chart_text *t,
		    const gs_chart_segment *segs, size_t nsegs,
		    const gs_chart_line *caps, size_t ncaps,
		    const gs_chart_line *peaks, size_t npeaks,
		    gs_chart_out *out);

/* 2. Per-phase counters: one group per phase, in array order; within a
 *    group the allocated / reserved pair at start, peak and end. */
enum { GS_CHART_START = 0, GS_CHART_PEAK = 1, GS_CHART_END = 2, GS_CHART_NCHECK = 3 };

typedef struct {
	const char *name;                     /* model_load, cold_forward, ... */
	int failed;                           /* 1: the phase failed */
	int not_run;                          /* 1: the phase never ran */
	gs_qty allocated[GS_CHART_NCHECK];    /* indexed by GS_CHART_START.. */
	gs_qty reserved[GS_CHART_NCHECK];
} gs_chart_phase;

/* At most this many phases are drawn: beyond, the ones with the highest
 * counters, in their order, and the title starts "K of N phases (the
 * highest peaks; all in the table)". */
#define GS_CHART_MAX_PHASES 24

int gs_chart_phases(const gs_chart_text *t,
		    const gs_chart_phase *phases, size_t nphases,
		    gs_chart_out *out);

/* 3. Sweep: peak reserved against one varied integer dimension. Distinct
 *    x values become evenly spaced categories in ascending order; points
 *    that share an x share a column. Successful points are filled circles
 *    joined by a line, failed points are crosses (their peak is partial). */
typedef struct {
	uint64_t x;               /* the varied dimension's value */
	gs_qty peak;              /* peak reserved; missing: "?" mark */
	int failed;               /* 1: the run failed (e.g. out of memory) */
} gs_chart_point;

int gs_chart_sweep(const gs_chart_text *t,
		   const gs_chart_point *pts, size_t npts,
		   const gs_chart_line *caps, size_t ncaps,
		   gs_chart_out *out);

/*
 * 4. Bars of money: one horizontal bar per item, top to bottom in array
 *    order, its label on the left, its value (with the unit and the item's
 *    words) at its end; a heading row comes before an item whose group
 *    differs from the previous item's. Values are exact integers in units
 *    of 10^-decimals of the unit (hundredths: decimals 2; at most 6); the
 *    axis label (t->axis_label) names the unit. A missing value is never
 *    passed: the caller lists it beside the chart, so that nothing missing
 *    reads as a zero bar. The page is GS_CHART_WIDTH wide and grows
 *    downwards, one row per bar and per heading; more than
 *    GS_CHART_MAX_BARS items is -1 (the caller splits or says so).
 *    The mark is a verdict shown by colour, by the symbol and word in
 *    words (drawn after the value) and by the legend, never by colour alone.
 */
enum gs_chart_bar_mark {
	GS_BAR_PLAIN = 0,         /* no verdict (a catalog figure) */
	GS_BAR_RETAINED,
	GS_BAR_PRESELECTED,
	GS_BAR_EXCLUDED
};

typedef struct {
	const char *label;        /* left of the bar ("rtx4090-1x") */
	const char *group;        /* heading of its group, or NULL: none */
	uint64_t value;           /* bar length, 10^-decimals of the unit */
	int mark;                 /* enum gs_chart_bar_mark */
	const char *words;        /* after the value ("\u2713 retained"), or NULL */
} gs_chart_bar;

#define GS_CHART_MAX_BARS 100

int gs_chart_bars(const gs_chart_text *t, const gs_chart_bar *bars, size_t nbars,
		  unsigned decimals, const char *unit, gs_chart_out *out);

/*
 * 0 when Cairo's toy font "DejaVu Sans" resolves to a face of that family
 * on this machine, -1 otherwise (Cairo falls back silently, and the PNG
 * would then be drawn in another font than the layout was measured for).
 */
int gs_chart_cairo_font_check(void);

/*
 * 1 when charts can be rendered as PNG: the PNG part loads (pngpart.h), or
 * is linked in; else 0, having said why on stderr. `sheet --png` and
 * `site --png` ask before anything is read or written.
 */
int gs_chart_png_ready(void);

#endif
