/*
 * chart: the three charts laid out once as display lists (chart_list.h),
 * then rendered to SVG (chart_svg.c) and, when asked, PNG (chart_png.c).
 * Text is measured with the font's own advance widths (fontmetrics.h), the
 * widths Cairo draws the PNG with, so that both outputs share one layout
 * and laying out loads no font. See chart.h.
 */
#include "chart.h"
#include "chart_list.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fontmetrics.h"
#include "util.h"

#define S_W GS_CHART_WIDTH
#define S_H GS_CHART_HEIGHT
#define S_FS 12.0          /* body text, px */
#define S_FS_TITLE 16.0
#define S_LABEL_MAX 512
#define S_GIB_D 1073741824.0

/* ---------------------------------------------------------------- colours */

typedef gs_chart_rgba S_rgb;

/* Okabe-Ito, readable with the common colour-vision deficiencies. */
static const S_rgb S_pal[] = {
	{ 0, 114, 178, 255 },     /* blue */
	{ 230, 159, 0, 255 },     /* orange */
	{ 0, 158, 115, 255 },     /* bluish green */
	{ 204, 121, 167, 255 },   /* reddish purple */
	{ 86, 180, 233, 255 },    /* sky blue */
	{ 213, 94, 0, 255 },      /* vermillion */
	{ 240, 228, 66, 255 },    /* yellow */
};
#define S_NPAL (sizeof(S_pal) / sizeof(S_pal[0]))
static const S_rgb S_ink = { 26, 26, 26, 255 };
static const S_rgb S_grey = { 102, 102, 102, 255 };
static const S_rgb S_grid = { 224, 224, 224, 255 };
static const S_rgb S_neutral = { 140, 140, 140, 255 };
static const S_rgb S_blue = { 0, 114, 178, 255 };
static const S_rgb S_orange = { 230, 159, 0, 255 };
static const S_rgb S_verm = { 213, 94, 0, 255 };
static const S_rgb S_white = { 255, 255, 255, 255 };
static const S_rgb S_halo = { 255, 255, 255, 217 };       /* 85 % white */
static const S_rgb S_fail_bg = { 255, 232, 219, 255 };
static const S_rgb S_notrun_bg = { 240, 240, 240, 255 };

static uint8_t S_chan(double v)
{
	return (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v + 0.5);
}

static S_rgb S_mix_white(S_rgb c, double k)
{
	S_rgb r = c;

	r.r = S_chan(c.r + (255 - c.r) * k);
	r.g = S_chan(c.g + (255 - c.g) * k);
	r.b = S_chan(c.b + (255 - c.b) * k);
	return r;
}

static S_rgb S_darken(S_rgb c, double k)
{
	S_rgb r = c;

	r.r = S_chan(c.r * (1.0 - k));
	r.g = S_chan(c.g * (1.0 - k));
	r.b = S_chan(c.b * (1.0 - k));
	return r;
}

/* ------------------------------------------------------------------ words */

static const char *S_w(const char *s, const char *dflt)
{
	return s ? s : dflt;
}

static const char *S_prov_word(const gs_chart_text *t, gs_prov p)
{
	switch (p) {
	case GS_PROV_OBSERVED:
		return S_w(t->observed, "observed");
	case GS_PROV_CALCULATED:
		return S_w(t->calculated, "calculated");
	default:
		return S_w(t->assumed, "assumed");
	}
}

/*
 * Copy s into dst as valid UTF-8 without control characters: an invalid
 * byte becomes '?', so does a C1 control or a noncharacter (one '?' for the
 * character), a C0 control character a space. Stops at a character
 * boundary when dst is full (room is kept for an ellipsis).
 */
static void S_clean(const char *s, char *dst, size_t cap)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	size_t o = 0;

	while (*p) {
		unsigned c = *p;
		size_t n, k, skip = 1;
		uint32_t cp, min;

		if (c < 0x80) {
			n = 1;
		} else if (c >= 0xC2 && c <= 0xDF) {
			n = 2;
		} else if (c >= 0xE0 && c <= 0xEF) {
			n = 3;
		} else if (c >= 0xF0 && c <= 0xF4) {
			n = 4;
		} else {
			n = 0;
		}
		if (n > 1) {
			cp = c & (n == 2 ? 0x1Fu : n == 3 ? 0x0Fu : 0x07u);
			for (k = 1; k < n; k++) {
				if ((p[k] & 0xC0) != 0x80)
					break;
				cp = (cp << 6) | (p[k] & 0x3Fu);
			}
			min = n == 2 ? 0x80 : n == 3 ? 0x800 : 0x10000;
			if (k < n || cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
				n = 0;
			else if ((cp >= 0x80 && cp < 0xA0) || (cp & 0xFFFEu) == 0xFFFEu ||
				 (cp >= 0xFDD0 && cp <= 0xFDEF))
				skip = n, n = 0;   /* C1 controls, noncharacters: Cairo refuses these */
		}
		if (o + (n ? n : 1) + 4 > cap)
			break;
		if (n == 0) {
			dst[o++] = '?';
			p += skip;
		} else if (n == 1) {
			dst[o++] = (char)(c < 0x20 || c == 0x7F ? ' ' : c);
			p++;
		} else {
			memcpy(dst + o, p, n);
			o += n;
			p += n;
		}
	}
	dst[o] = '\0';
}

/* -------------------------------------------------------------------- pen */

/*
 * A pen records marks into a display list with Cairo-like calls: a current
 * colour, line width and dash; a shape is begun (S_move, S_rect, S_arc) and
 * painted by S_fill / S_fill_keep / S_stroke, which set the paint of the
 * pending mark. Text is measured with fontmetrics.h.
 */
typedef struct {
	gs_chart_list *l;
	S_rgb col;
	double lw, fs;
	uint8_t dash;
	int bold;
	int open;                 /* 1: the last mark is a shape not yet painted */
} S_pen;

static void S_set(S_pen *pn, S_rgb c)
{
	pn->col = c;
}

static void S_lw(S_pen *pn, double w)
{
	pn->lw = w;
}

static void S_dash(S_pen *pn, enum gs_chart_dash d)
{
	pn->dash = (uint8_t)d;
}

static gs_chart_mark *S_shape(S_pen *pn, enum gs_chart_mark_kind kind)
{
	if (pn->open && pn->l->m[pn->l->n - 1].kind == kind && kind == GS_MARK_PATH)
		return &pn->l->m[pn->l->n - 1];
	pn->open = 1;
	return gs_chart_list_add(pn->l, kind);
}

static void S_move(S_pen *pn, double x, double y)
{
	S_shape(pn, GS_MARK_PATH);
	gs_chart_list_pt(pn->l, GS_OP_MOVE, x, y);
}

static void S_line(S_pen *pn, double x, double y)
{
	S_shape(pn, GS_MARK_PATH);
	gs_chart_list_pt(pn->l, GS_OP_LINE, x, y);
}

static void S_close(S_pen *pn)
{
	S_shape(pn, GS_MARK_PATH);
	gs_chart_list_pt(pn->l, GS_OP_CLOSE, 0, 0);
}

static void S_rect(S_pen *pn, double x, double y, double w, double h)
{
	gs_chart_mark *m = S_shape(pn, GS_MARK_RECT);

	m->x = x;
	m->y = y;
	m->w = w;
	m->h = h;
}

static void S_arc(S_pen *pn, double x, double y, double r)
{
	gs_chart_mark *m = S_shape(pn, GS_MARK_CIRCLE);

	m->x = x;
	m->y = y;
	m->w = r;
}

static gs_chart_mark *S_pending(S_pen *pn)
{
	return pn->open ? &pn->l->m[pn->l->n - 1] : NULL;
}

static void S_fill_keep(S_pen *pn)
{
	gs_chart_mark *m = S_pending(pn);

	if (m)
		m->fill = pn->col;
}

static void S_fill(S_pen *pn)
{
	S_fill_keep(pn);
	pn->open = 0;
}

static void S_stroke(S_pen *pn)
{
	gs_chart_mark *m = S_pending(pn);

	if (m) {
		m->stroke = pn->col;
		m->lw = pn->lw;
		m->dash = pn->dash;
	}
	pn->open = 0;
}

/* ------------------------------------------------------------------- text */

static void S_font(S_pen *pn, double size, int bold)
{
	pn->fs = size;
	pn->bold = bold;
}

static double S_width(S_pen *pn, const char *s)
{
	return gs_fontmetrics_width(s, pn->fs, pn->bold);
}

/* Clean s and shorten it with an ellipsis to at most maxw px (maxw <= 0:
 * no limit). Returns the width. */
static double S_fit(S_pen *pn, const char *s, double maxw, char *buf, size_t cap)
{
	size_t n;
	double w;

	S_clean(s, buf, cap);
	w = S_width(pn, buf);
	if (maxw <= 0 || w <= maxw)
		return w;
	n = strlen(buf);
	while (n > 0) {
		do
			n--;
		while (n > 0 && ((unsigned char)buf[n] & 0xC0) == 0x80);
		memcpy(buf + n, "\xE2\x80\xA6", 4);  /* U+2026 and NUL */
		w = S_width(pn, buf);
		if (w <= maxw)
			return w;
	}
	return w;
}

/* A text mark of clean bytes buf, w px wide, anchored at (x, y). */
static void S_text_mark(S_pen *pn, double x, double y, const char *buf, double w,
			double align, int vertical)
{
	gs_chart_mark *m;

	pn->open = 0;
	m = gs_chart_list_add(pn->l, GS_MARK_TEXT);
	m->x = x;
	m->y = y;
	m->w = w;
	m->h = pn->fs;
	m->bold = (uint8_t)pn->bold;
	m->fill = pn->col;
	m->anchor = align <= 0.25 ? GS_ANCHOR_START : align >= 0.75 ? GS_ANCHOR_END : GS_ANCHOR_MIDDLE;
	m->vertical = (uint8_t)vertical;
	m->s0 = gs_chart_list_str(pn->l, buf);
}

/* Draw s with its baseline at y; align 0 left, 0.5 centre, 1 right. */
static double S_text(S_pen *pn, double x, double y, const char *s,
		     double align, double maxw)
{
	char buf[S_LABEL_MAX];
	double w = S_fit(pn, s, maxw, buf, sizeof(buf));

	S_text_mark(pn, x, y, buf, w, align, 0);
	return w;
}

/* The same on a translucent white box, for labels drawn over lines. */
static void S_text_halo(S_pen *pn, double x, double y, const char *s,
			double align, double maxw, S_rgb c)
{
	char buf[S_LABEL_MAX];
	double w = S_fit(pn, s, maxw, buf, sizeof(buf));
	double fs = S_FS;

	S_set(pn, S_halo);
	S_rect(pn, x - align * w - 2, y - fs + 1, w + 4, fs + 3);
	S_fill(pn);
	S_set(pn, c);
	S_text_mark(pn, x, y, buf, w, align, 0);
}

/* First character of a word, ASCII letters upper-cased ("start" -> "S"). */
static void S_initial(const char *word, char *buf, size_t cap)
{
	size_t n = 1;

	S_clean(word, buf, cap);
	if (!buf[0])
		return;
	while (buf[n] && ((unsigned char)buf[n] & 0xC0) == 0x80)
		n++;
	buf[n] = '\0';
	if (buf[0] >= 'a' && buf[0] <= 'z')
		buf[0] = (char)(buf[0] - 'a' + 'A');
}

/* --------------------------------------------------------------- patterns */

/* Fill a rectangle with the provenance pattern of colour c:
 * calculated solid, assumed diagonal hatching, observed cross hatching. */
static void S_fill_prov(S_pen *pn, double x, double y, double w, double h,
			S_rgb c, gs_prov p)
{
	gs_chart_mark *m;

	if (w <= 0 || h <= 0)
		return;
	/*
	 * One mark: the fill on the rectangle inset by half a pixel, and its
	 * 1 px outline centred on that edge, which covers the outer half pixel
	 * (what a fill of the whole rectangle plus an inset outline drew, in
	 * one element instead of two).
	 */
	S_set(pn, p == GS_PROV_CALCULATED ? c : S_mix_white(c, 0.72));
	if (w < 1 || h < 1) {
		S_rect(pn, x, y, w, h);
		S_fill(pn);
		return;
	}
	S_rect(pn, x + 0.5, y + 0.5, w - 1, h - 1);
	m = S_pending(pn);
	if (p != GS_PROV_CALCULATED) {
		m->hatch = p == GS_PROV_OBSERVED ? GS_HATCH_CROSS : GS_HATCH_DIAG;
		m->hatch_ink = S_darken(c, 0.15);
	}
	S_fill_keep(pn);
	S_set(pn, S_ink);
	S_lw(pn, 1.0);
	S_dash(pn, GS_DASH_NONE);
	S_stroke(pn);
}

static void S_diamond(S_pen *pn, double x, double y, double r)
{
	S_move(pn, x, y - r);
	S_line(pn, x + r, y);
	S_line(pn, x, y + r);
	S_line(pn, x - r, y);
	S_close(pn);
	S_set(pn, S_ink);
	S_fill_keep(pn);
	S_set(pn, S_white);
	S_lw(pn, 1.0);
	S_stroke(pn);
}

static void S_circle(S_pen *pn, double x, double y, double r, int hollow)
{
	S_arc(pn, x, y, r);
	if (hollow) {
		S_set(pn, S_grey);
		S_lw(pn, 1.5);
		S_stroke(pn);
		return;
	}
	S_set(pn, S_blue);
	S_fill_keep(pn);
	S_set(pn, S_white);
	S_lw(pn, 1.0);
	S_stroke(pn);
}

static void S_cross(S_pen *pn, double x, double y, double r, int hollow)
{
	S_move(pn, x - r, y - r);
	S_line(pn, x + r, y + r);
	S_move(pn, x - r, y + r);
	S_line(pn, x + r, y - r);
	S_set(pn, hollow ? S_grey : S_verm);
	S_lw(pn, hollow ? 1.5 : 3.0);
	S_stroke(pn);
}

/* ----------------------------------------------------------- the driver */

typedef void (*S_draw_fn)(S_pen *pn, const void *arg);

void gs_chart_out_release(gs_chart_out *out)
{
	if (!out)
		return;
	gs_buf_release(&out->svg);
	gs_buf_release(&out->png);
}

/* Both buffers empty, whatever *out held (nothing freed). */
static void S_out_init(gs_chart_out *out)
{
	gs_buf_init(&out->svg, 0);
	gs_buf_init(&out->png, 0);
}

static const gs_chart_text S_no_text;

/*
 * Lay the chart out into a display list (draw), then render the list: SVG always, PNG when
 * t->flags asks for it. The description (<desc>) is written by draw
 * through gs_chart_list_desc.
 */
static int S_render(S_draw_fn draw, const void *arg, const gs_chart_text *t,
		    gs_chart_out *out)
{
	gs_chart_list l;
	S_pen pn;
	char title[S_LABEL_MAX];
	int rc = -1;

	S_out_init(out);
	memset(&pn, 0, sizeof(pn));
	gs_chart_list_init(&l);
	pn.l = &l;
	pn.lw = 1.0;
	S_font(&pn, S_FS, 0);
	S_clean(t->title, title, sizeof(title));
	l.title = gs_xstrdup(title);
	draw(&pn, arg);
	if (gs_chart_svg_render(&l, &out->svg) == 0 &&
	    (!(t->flags & GS_CHART_PNG) || gs_chart_png_render(&l, &out->png) == 0))
		rc = 0;
	gs_chart_list_release(&l);
	if (rc)
		gs_chart_out_release(out);
	return rc;
}

/* "label: words" into the chart's description. */
static void S_desc2(S_pen *pn, const char *label, const char *words)
{
	char a[S_LABEL_MAX], b[S_LABEL_MAX], buf[2 * S_LABEL_MAX + 4];

	S_clean(label, a, sizeof(a));
	S_clean(words, b, sizeof(b));
	snprintf(buf, sizeof(buf), "%s: %s", a, b);
	gs_chart_list_desc(pn->l, buf);
}

/* ------------------------------------------------------------------- axis */

/* A value axis from 0 to top, in hundredths of a GiB (ticks are exact). */
typedef struct {
	uint64_t step_h, top_h;
	double y0, y1;            /* page y of top_h and of 0 */
} S_axis;

static uint64_t S_hundredths_up(uint64_t bytes)
{
	uint64_t h = bytes / GS_GIB * 100;
	uint64_t r = bytes % GS_GIB * 100;

	return h + r / GS_GIB + (r % GS_GIB ? 1 : 0);
}

static void S_axis_make(uint64_t max_bytes, double y0, double y1, S_axis *ax)
{
	uint64_t m = S_hundredths_up(max_bytes), step = 1, mult = 1;
	static const uint64_t f[3] = { 1, 2, 5 };
	int i = 0;

	if (m == 0)
		m = 100;  /* nothing to draw: 0 to 1 GiB */
	else
		m += m / 20;  /* headroom for labels above the highest line */
	for (;;) {
		step = f[i] * mult;
		if ((m + step - 1) / step <= 5)
			break;
		if (++i == 3) {
			i = 0;
			mult *= 10;
		}
	}
	ax->step_h = step;
	ax->top_h = (m + step - 1) / step * step;
	ax->y0 = y0;
	ax->y1 = y1;
}

static double S_y(const S_axis *ax, uint64_t bytes)
{
	double gib = (double)bytes / S_GIB_D;
	double top = (double)ax->top_h / 100.0;

	return ax->y1 - gib / top * (ax->y1 - ax->y0);
}

static void S_axis_draw(S_pen *pn, const S_axis *ax, double x0, double x1,
			const gs_chart_text *t)
{
	uint64_t v;
	char buf[GS_FMT_MAX];

	S_font(pn, S_FS, 0);
	S_lw(pn, 1.0);
	for (v = 0; v <= ax->top_h; v += ax->step_h) {
		double y = ax->y1 - (double)v / (double)ax->top_h * (ax->y1 - ax->y0);
		double ys = (double)(long)y + 0.5;

		S_set(pn, v ? S_grid : S_ink);
		S_move(pn, x0, ys);
		S_line(pn, x1, ys);
		S_stroke(pn);
		if (ax->step_h % 100 == 0)  /* one format for the whole axis */
			gs_qty_fmt_int(buf, v / 100, t->lang);
		else
			gs_qty_fmt_fixed2(buf, v, 100, t->lang);
		S_set(pn, S_ink);
		S_text(pn, x0 - 6, y + 4, buf, 1.0, 0);  /* numbers are never shortened */
	}
	S_set(pn, S_ink);
	S_move(pn, x0 + 0.5, ax->y0);
	S_line(pn, x0 + 0.5, ax->y1);
	S_stroke(pn);
	{
		char buf2[S_LABEL_MAX];
		double w = S_fit(pn, S_w(t->axis_label, "Memory (GiB)"), ax->y1 - ax->y0,
				 buf2, sizeof(buf2));

		S_text_mark(pn, 18, (ax->y0 + ax->y1) / 2, buf2, w, 0.5, 1);
	}
}

static void S_title(S_pen *pn, const gs_chart_text *t)
{
	if (!t->title)
		return;
	S_font(pn, S_FS_TITLE, 1);
	S_set(pn, S_ink);
	S_text(pn, 16, 28, t->title, 0, S_W - 32);
}

static void S_note_center(S_pen *pn, double x, double y, const char *s)
{
	S_font(pn, S_FS, 0);
	S_set(pn, S_grey);
	S_text(pn, x, y, s, 0.5, 400);
}

/*
 * Spread label positions p[0..n) (ascending) so that neighbours are at
 * least gap apart, within [lo, hi] when they fit.
 */
static void S_spread(double *p, size_t n, double gap, double lo, double hi)
{
	size_t i;

	if (n == 0)
		return;
	if (p[0] < lo)
		p[0] = lo;
	for (i = 1; i < n; i++)
		if (p[i] < p[i - 1] + gap)
			p[i] = p[i - 1] + gap;
	if (p[n - 1] > hi) {
		p[n - 1] = hi;
		for (i = n - 1; i > 0; i--)
			if (p[i - 1] > p[i] - gap)
				p[i - 1] = p[i] - gap;
	}
	if (p[0] < lo) {
		for (i = 0; i < n; i++)
			p[i] = n > 1 ? lo + (hi - lo) * (double)i / (double)(n - 1) : lo;
	}
}

/* A legend entry's flow position (horizontal legends under the title). */
typedef struct {
	double x, y, x0, x1;
} S_flow;

static void S_flow_room(S_flow *f, double w)
{
	if (f->x + w > f->x1 && f->x > f->x0) {
		f->x = f->x0;
		f->y += 18;
	}
}

static void S_flow_text(S_pen *pn, S_flow *f, const char *s)
{
	char buf[S_LABEL_MAX];
	double w = S_fit(pn, s, 240, buf, sizeof(buf));

	S_flow_room(f, w);
	S_set(pn, S_ink);
	S_text_mark(pn, f->x, f->y, buf, w, 0, 0);
	f->x += w + 16;
}

/* --------------------------------------------------------- 1. the budget */

typedef struct {
	const gs_chart_text *t;
	const gs_chart_segment *segs;
	size_t nsegs;
	const gs_chart_line *caps;
	size_t ncaps;
	const gs_chart_line *peaks;
	size_t npeaks;
	uint64_t total;
	S_axis ax;
	struct S_ann *ann;        /* room for ncaps + npeaks annotations */
	double *ann_y;
} S_budget;

/* layout */
#define B_X0 72.0
#define B_X1 338.0
#define B_Y0 56.0
#define B_Y1 420.0
#define B_BAR0 96.0
#define B_BAR1 186.0
#define B_PEAK_X 220.0
#define B_ANN_X 350.0
#define B_ANN_W 234.0
#define B_LEG_X 592.0
#define B_LEG_W 200.0

typedef struct S_ann {
	double anchor;
	size_t idx;
	int is_peak;
} S_ann;

static int S_ann_cmp(const void *a, const void *b)
{
	const S_ann *x = a, *y = b;

	if (x->anchor != y->anchor)
		return x->anchor < y->anchor ? -1 : 1;
	if (x->is_peak != y->is_peak)
		return x->is_peak - y->is_peak;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* "22.35 GiB · assumed" */
static void S_value_words(char *buf, size_t cap, const gs_chart_text *t, gs_qty q)
{
	char v[GS_FMT_MAX];

	if (!q.present) {
		snprintf(buf, cap, "%s", S_w(t->missing, "missing"));
		return;
	}
	gs_qty_fmt_gib(v, q.bytes, t->lang);
	snprintf(buf, cap, "%s \xC2\xB7 %s", v, S_prov_word(t, q.prov));
}

static void S_line_sample(S_pen *pn, double x, double y, int dashed)
{
	S_set(pn, S_ink);
	S_lw(pn, 2.0);
	S_dash(pn, dashed ? GS_DASH_LONG : GS_DASH_NONE);
	S_move(pn, x, y);
	S_line(pn, x + 16, y);
	S_stroke(pn);
	S_dash(pn, GS_DASH_NONE);
}

static void S_budget_annotations(S_pen *pn, const S_budget *b)
{
	const gs_chart_text *t = b->t;
	S_ann *a = b->ann;
	double *p = b->ann_y;
	size_t n = 0, i;
	char buf[S_LABEL_MAX];

	for (i = 0; i < b->ncaps; i++) {
		if (!b->caps[i].value.present)
			continue;
		a[n].anchor = S_y(&b->ax, b->caps[i].value.bytes);
		a[n].idx = i;
		a[n].is_peak = 0;
		n++;
	}
	for (i = 0; i < b->npeaks; i++) {
		if (!b->peaks[i].value.present)
			continue;
		a[n].anchor = S_y(&b->ax, b->peaks[i].value.bytes);
		a[n].idx = i;
		a[n].is_peak = 1;
		n++;
	}
	qsort(a, n, sizeof(*a), S_ann_cmp);
	for (i = 0; i < n; i++)
		p[i] = a[i].anchor;
	S_spread(p, n, 30, B_Y0 + 4, B_Y1 - 10);

	for (i = 0; i < n; i++) {
		const gs_chart_line *l = a[i].is_peak ? &b->peaks[a[i].idx] : &b->caps[a[i].idx];
		double y = p[i];

		/* leader from the line end (or the marker) to the label */
		S_set(pn, S_neutral);
		S_lw(pn, 1.0);
		if (a[i].is_peak) {
			S_dash(pn, GS_DASH_DOT);
			S_move(pn, B_PEAK_X + 7, a[i].anchor);
			S_line(pn, B_X1, a[i].anchor);
			S_stroke(pn);
			S_dash(pn, GS_DASH_NONE);
		}
		S_move(pn, B_X1, a[i].anchor);
		S_line(pn, B_ANN_X - 4, y);
		S_stroke(pn);

		if (a[i].is_peak)
			S_diamond(pn, B_ANN_X + 8, y - 4, 5);
		else
			S_line_sample(pn, B_ANN_X, y - 4, l->value.prov == GS_PROV_ASSUMED);
		S_font(pn, S_FS, 1);
		S_set(pn, S_ink);
		S_text(pn, B_ANN_X + 22, y, l->label ? l->label : "", 0, B_ANN_W - 22);
		S_font(pn, S_FS, 0);
		S_set(pn, S_grey);
		if (a[i].is_peak) {
			char v[GS_FMT_MAX];

			snprintf(buf, sizeof(buf), "%s %s \xC2\xB7 %s",
				 S_w(t->peak, "peak"),
				 gs_qty_fmt_gib(v, l->value.bytes, t->lang),
				 S_prov_word(t, l->value.prov));
		} else {
			char v[GS_FMT_MAX];

			snprintf(buf, sizeof(buf), "%s %s \xC2\xB7 %s",
				 S_w(t->capacity, "capacity"),
				 gs_qty_fmt_gib(v, l->value.bytes, t->lang),
				 S_prov_word(t, l->value.prov));
		}
		S_text(pn, B_ANN_X + 22, y + 15, buf, 0, B_ANN_W - 22);
	}
}

static void S_budget_legend(S_pen *pn, const S_budget *b)
{
	const gs_chart_text *t = b->t;
	double y = 66, lim = S_H - 8;
	size_t i, k;
	int compact = b->nsegs > 5, seen[3] = { 0, 0, 0 }, assumed_cap = 0;
	char buf[S_LABEL_MAX], v[GS_FMT_MAX];

	/* segments, top of the stack first (the order they appear in the bar) */
	for (k = b->nsegs; k > 0 && y < lim; k--) {
		const gs_chart_segment *s = &b->segs[k - 1];
		S_rgb c = S_pal[(k - 1) % S_NPAL];

		if (s->value.present) {
			S_fill_prov(pn, B_LEG_X, y - 11, 14, 14, c, s->value.prov);
			seen[s->value.prov] = 1;
		} else {
			S_set(pn, S_grey);
			S_lw(pn, 1.0);
			S_dash(pn, GS_DASH_LONG);
			S_rect(pn, B_LEG_X + 0.5, y - 10.5, 13, 13);
			S_stroke(pn);
			S_dash(pn, GS_DASH_NONE);
		}
		S_font(pn, S_FS, 0);
		S_set(pn, S_ink);
		S_value_words(buf, sizeof(buf), t, s->value);
		if (compact) {
			double vw;

			S_set(pn, S_grey);
			vw = S_text(pn, B_LEG_X + B_LEG_W, y, s->value.present ?
				    gs_qty_fmt_gib(v, s->value.bytes, t->lang) :
				    S_w(t->missing, "missing"), 1.0, 0);
			S_set(pn, S_ink);
			S_text(pn, B_LEG_X + 20, y, s->label ? s->label : "", 0,
			       B_LEG_W - 26 - vw);
			y += 19;
		} else {
			S_text(pn, B_LEG_X + 20, y, s->label ? s->label : "", 0, B_LEG_W - 20);
			S_set(pn, S_grey);
			S_text(pn, B_LEG_X + 20, y + 15, buf, 0, B_LEG_W - 20);
			y += 36;
		}
	}
	if (y >= lim)
		return;
	S_font(pn, S_FS, 1);
	S_set(pn, S_ink);
	snprintf(buf, sizeof(buf), "%s: %s", S_w(t->total, "total"),
		 gs_qty_fmt_gib(v, b->total, t->lang));
	S_text(pn, B_LEG_X, y, buf, 0, B_LEG_W);
	y += 26;

	/* key: patterns, lines, markers */
	S_font(pn, S_FS, 0);
	seen[GS_PROV_CALCULATED] = seen[GS_PROV_ASSUMED] = 1;
	for (k = 3; k > 0 && y < lim; k--) {
		gs_prov pv = (gs_prov)(k - 1);

		if (!seen[pv])
			continue;
		S_fill_prov(pn, B_LEG_X, y - 11, 14, 14, S_neutral, pv);
		S_set(pn, S_ink);
		S_text(pn, B_LEG_X + 20, y, S_prov_word(t, pv), 0, B_LEG_W - 20);
		y += 19;
	}
	for (i = 0; i < b->ncaps; i++)
		if (b->caps[i].value.present && b->caps[i].value.prov == GS_PROV_ASSUMED)
			assumed_cap = 1;
	if (b->ncaps && y < lim) {
		S_line_sample(pn, B_LEG_X - 1, y - 4, 0);
		S_set(pn, S_ink);
		S_text(pn, B_LEG_X + 20, y, S_w(t->capacity, "capacity"), 0, B_LEG_W - 20);
		y += 19;
	}
	if (assumed_cap && y < lim) {
		S_line_sample(pn, B_LEG_X - 1, y - 4, 1);
		S_set(pn, S_ink);
		snprintf(buf, sizeof(buf), "%s \xC2\xB7 %s", S_w(t->capacity, "capacity"),
			 S_w(t->assumed, "assumed"));
		S_text(pn, B_LEG_X + 20, y, buf, 0, B_LEG_W - 20);
		y += 19;
	}
	if (b->npeaks && y < lim) {
		S_diamond(pn, B_LEG_X + 7, y - 4, 5);
		S_set(pn, S_ink);
		S_text(pn, B_LEG_X + 20, y, S_w(t->peak, "peak"), 0, B_LEG_W - 20);
		y += 19;
	}
	/* capacities and peaks without a value */
	for (i = 0; i < b->ncaps + b->npeaks && y < lim; i++) {
		const gs_chart_line *l = i < b->ncaps ? &b->caps[i] : &b->peaks[i - b->ncaps];

		if (l->value.present)
			continue;
		S_set(pn, S_grey);
		snprintf(buf, sizeof(buf), "%s: %s", l->label ? l->label : "",
			 S_w(t->missing, "missing"));
		S_text(pn, B_LEG_X, y, buf, 0, B_LEG_W);
		y += 19;
	}
}

/* The budget in words: parts, total, capacities, peaks. */
static void S_budget_desc(S_pen *pn, const S_budget *b)
{
	const gs_chart_text *t = b->t;
	char buf[2 * S_LABEL_MAX], v[GS_FMT_MAX];
	size_t i;

	for (i = 0; i < b->nsegs; i++) {
		S_value_words(buf, sizeof(buf), t, b->segs[i].value);
		S_desc2(pn, b->segs[i].label, buf);
	}
	S_desc2(pn, S_w(t->total, "total"), gs_qty_fmt_gib(v, b->total, t->lang));
	for (i = 0; i < b->ncaps + b->npeaks; i++) {
		const gs_chart_line *l = i < b->ncaps ? &b->caps[i] : &b->peaks[i - b->ncaps];
		char w[S_LABEL_MAX];

		S_value_words(w, sizeof(w), t, l->value);
		snprintf(buf, sizeof(buf), "%s %s", i < b->ncaps ? S_w(t->capacity, "capacity") :
			 S_w(t->peak, "peak"), w);
		S_desc2(pn, l->label, buf);
	}
}

static void S_budget_draw(S_pen *pn, const void *arg)
{
	const S_budget *b = arg;
	const gs_chart_text *t = b->t;
	uint64_t cum = 0;
	size_t i, npresent = 0;
	char v[GS_FMT_MAX];

	S_budget_desc(pn, b);

	S_title(pn, t);
	S_axis_draw(pn, &b->ax, B_X0, B_X1, t);

	for (i = 0; i < b->nsegs; i++) {
		const gs_chart_segment *s = &b->segs[i];
		double yb, yt;

		if (!s->value.present)
			continue;
		npresent++;
		yb = S_y(&b->ax, cum);
		cum += s->value.bytes;  /* cannot wrap: total was checked */
		yt = S_y(&b->ax, cum);
		S_fill_prov(pn, B_BAR0, yt, B_BAR1 - B_BAR0, yb - yt,
			    S_pal[i % S_NPAL], s->value.prov);
	}
	S_font(pn, S_FS, 1);
	S_set(pn, S_ink);
	if (npresent)
		S_text(pn, (B_BAR0 + B_BAR1) / 2, S_y(&b->ax, b->total) - 6,
		       gs_qty_fmt_gib(v, b->total, t->lang), 0.5, 0);
	else
		S_note_center(pn, (B_BAR0 + B_BAR1) / 2, B_Y1 - 8, S_w(t->missing, "missing"));

	/* capacity lines over the bar, then peaks */
	for (i = 0; i < b->ncaps; i++) {
		double y;

		if (!b->caps[i].value.present)
			continue;
		y = S_y(&b->ax, b->caps[i].value.bytes);
		S_set(pn, S_ink);
		S_lw(pn, 2.0);
		S_dash(pn, b->caps[i].value.prov == GS_PROV_ASSUMED ? GS_DASH_LONG : GS_DASH_NONE);
		S_move(pn, B_X0, y);
		S_line(pn, B_X1, y);
		S_stroke(pn);
		S_dash(pn, GS_DASH_NONE);
	}
	for (i = 0; i < b->npeaks; i++)
		if (b->peaks[i].value.present)
			S_diamond(pn, B_PEAK_X, S_y(&b->ax, b->peaks[i].value.bytes), 6);

	S_budget_annotations(pn, b);
	S_budget_legend(pn, b);
}

int gs_chart_budget(const gs_chart_text *t,
		    const gs_chart_segment *segs, size_t nsegs,
		    const gs_chart_line *caps, size_t ncaps,
		    const gs_chart_line *peaks, size_t npeaks,
		    gs_chart_out *out)
{
	S_budget b;
	uint64_t max = 0;
	size_t i;
	int rc;

	if (!out)
		return -1;
	S_out_init(out);
	if ((nsegs && !segs) || (ncaps && !caps) || (npeaks && !peaks))
		return -1;
	b.t = t ? t : &S_no_text;
	b.segs = segs;
	b.nsegs = nsegs;
	b.caps = caps;
	b.ncaps = ncaps;
	b.peaks = peaks;
	b.npeaks = npeaks;
	b.total = 0;
	for (i = 0; i < nsegs; i++)
		if (segs[i].value.present &&
		    gs_qty_add_u64(b.total, segs[i].value.bytes, &b.total))
			return -1;
	max = b.total;
	for (i = 0; i < ncaps; i++)
		if (caps[i].value.present && caps[i].value.bytes > max)
			max = caps[i].value.bytes;
	for (i = 0; i < npeaks; i++)
		if (peaks[i].value.present && peaks[i].value.bytes > max)
			max = peaks[i].value.bytes;
	S_axis_make(max, B_Y0, B_Y1, &b.ax);
	b.ann = gs_xcalloc(ncaps + npeaks + 1, sizeof(*b.ann));
	b.ann_y = gs_xcalloc(ncaps + npeaks + 1, sizeof(*b.ann_y));
	rc = S_render(S_budget_draw, &b, b.t, out);
	free(b.ann);
	free(b.ann_y);
	return rc;
}
/* ---------------------------------------------------------- 2. the phases */

typedef struct {
	const gs_chart_text *t;
	const gs_chart_phase *ph;
	size_t n;
	S_axis ax;
} S_phases;

#define P_X0 72.0
#define P_X1 784.0
#define P_Y0 84.0
#define P_Y1 384.0

static void S_failed_band(S_pen *pn, double x, double y, double w, double h)
{
	S_set(pn, S_fail_bg);
	S_rect(pn, x, y, w, h);
	S_fill(pn);
	S_set(pn, S_verm);
	S_lw(pn, 1.5);
	S_dash(pn, GS_DASH_SHORT);
	S_rect(pn, x + 0.75, y + 0.75, w - 1.5, h - 1.5);
	S_stroke(pn);
	S_dash(pn, GS_DASH_NONE);
}

static void S_notrun_band(S_pen *pn, double x, double y, double w, double h)
{
	S_set(pn, S_notrun_bg);
	S_rect(pn, x, y, w, h);
	S_fill(pn);
}

static void S_phases_legend(S_pen *pn, const S_phases *p)
{
	const gs_chart_text *t = p->t;
	S_flow f = { 16, 54, 16, S_W - 16 };
	const char *words[GS_CHART_NCHECK];
	char buf[S_LABEL_MAX], ini[16];
	size_t i;
	int any_failed = 0, any_notrun = 0;

	words[GS_CHART_START] = S_w(t->start, "start");
	words[GS_CHART_PEAK] = S_w(t->peak, "peak");
	words[GS_CHART_END] = S_w(t->end, "end");
	S_font(pn, S_FS, 0);

	S_flow_room(&f, 120);
	S_fill_prov(pn, f.x, f.y - 11, 14, 14, S_blue, GS_PROV_CALCULATED);
	f.x += 20;
	S_flow_text(pn, &f, S_w(t->allocated, "allocated"));
	S_flow_room(&f, 120);
	S_fill_prov(pn, f.x, f.y - 11, 14, 14, S_orange, GS_PROV_ASSUMED);
	f.x += 20;
	S_flow_text(pn, &f, S_w(t->reserved, "reserved"));
	for (i = 0; i < GS_CHART_NCHECK; i++) {
		char w[S_LABEL_MAX / 2];

		S_clean(words[i], w, sizeof(w));
		S_initial(words[i], ini, sizeof(ini));
		snprintf(buf, sizeof(buf), "%s = %s", ini, w);
		S_flow_text(pn, &f, buf);
	}
	snprintf(buf, sizeof(buf), "? = %s", S_w(t->missing, "missing"));
	S_flow_text(pn, &f, buf);
	for (i = 0; i < p->n; i++) {
		any_failed |= p->ph[i].failed != 0;
		any_notrun |= p->ph[i].not_run != 0;
	}
	if (any_failed) {
		S_flow_room(&f, 120);
		S_failed_band(pn, f.x, f.y - 11, 14, 14);
		f.x += 20;
		S_flow_text(pn, &f, S_w(t->failed, "failed"));
	}
	if (any_notrun) {
		S_flow_room(&f, 120);
		S_notrun_band(pn, f.x, f.y - 11, 14, 14);
		f.x += 20;
		S_flow_text(pn, &f, S_w(t->not_run, "not run"));
	}
}

/* Each phase in words: its state, then both counters at start, peak, end. */
static void S_phases_desc(S_pen *pn, const S_phases *p, const char *const *words)
{
	const gs_chart_text *t = p->t;
	size_t i, c, k;

	for (i = 0; i < p->n; i++) {
		const gs_chart_phase *ph = &p->ph[i];
		char buf[S_LABEL_MAX], v[GS_FMT_MAX];
		size_t o = 0;

		buf[0] = '\0';
		if (ph->failed || ph->not_run)
			o += (size_t)snprintf(buf, sizeof(buf), "%s, ", ph->failed ?
					      S_w(t->failed, "failed") : S_w(t->not_run, "not run"));
		for (k = 0; k < 2 && o < sizeof(buf); k++) {
			o += (size_t)snprintf(buf + o, sizeof(buf) - o, "%s%s", k ? "; " : "",
					      k ? S_w(t->reserved, "reserved") : S_w(t->allocated, "allocated"));
			for (c = 0; c < GS_CHART_NCHECK && o < sizeof(buf); c++) {
				gs_qty q = k ? ph->reserved[c] : ph->allocated[c];

				o += (size_t)snprintf(buf + o, sizeof(buf) - o, "%s %s %s", c ? "," : "",
						      words[c], q.present ? gs_qty_fmt_gib(v, q.bytes, t->lang) :
						      S_w(t->missing, "missing"));
			}
		}
		S_desc2(pn, ph->name ? ph->name : "", buf);
	}
}

static void S_phases_draw(S_pen *pn, const void *arg)
{
	const S_phases *p = arg;
	const gs_chart_text *t = p->t;
	const char *words[GS_CHART_NCHECK];
	double gw;
	size_t i, c;

	words[GS_CHART_START] = S_w(t->start, "start");
	words[GS_CHART_PEAK] = S_w(t->peak, "peak");
	words[GS_CHART_END] = S_w(t->end, "end");

	S_phases_desc(pn, p, words);
	S_title(pn, t);
	S_phases_legend(pn, p);
	if (p->n == 0) {
		S_axis_draw(pn, &p->ax, P_X0, P_X1, t);
		S_note_center(pn, (P_X0 + P_X1) / 2, (P_Y0 + P_Y1) / 2,
			      S_w(t->missing, "missing"));
		return;
	}
	gw = (P_X1 - P_X0) / (double)p->n;
	/* status bands behind the grid */
	for (i = 0; i < p->n; i++) {
		double gx = P_X0 + gw * (double)i;

		if (p->ph[i].failed)
			S_failed_band(pn, gx + 2, P_Y0, gw - 4, P_Y1 - P_Y0);
		else if (p->ph[i].not_run)
			S_notrun_band(pn, gx + 2, P_Y0, gw - 4, P_Y1 - P_Y0);
	}
	S_axis_draw(pn, &p->ax, P_X0, P_X1, t);

	for (i = 0; i < p->n; i++) {
		const gs_chart_phase *ph = &p->ph[i];
		double gx = P_X0 + gw * (double)i;
		double inner = gw * 0.84, pad = gw * 0.08;
		double bw = inner / (6.0 + 2 * 0.7), gap = bw * 0.7;

		for (c = 0; c < GS_CHART_NCHECK; c++) {
			double px = gx + pad + (double)c * (2 * bw + gap);
			int k;
			char ini[16];

			for (k = 0; k < 2; k++) {
				gs_qty q = k ? ph->reserved[c] : ph->allocated[c];
				double x = px + (double)k * bw, y;

				if (!q.present) {
					S_font(pn, S_FS, 1);
					S_set(pn, S_grey);
					S_text(pn, x + bw / 2, P_Y1 - 5, "?", 0.5, 0);
					continue;
				}
				y = S_y(&p->ax, q.bytes);
				if (y > P_Y1 - 2)
					y = P_Y1 - 2;  /* a real zero stays visible */
				S_fill_prov(pn, x, y, bw, P_Y1 - y,
					    k ? S_orange : S_blue,
					    k ? GS_PROV_ASSUMED : GS_PROV_CALCULATED);
			}
			if (2 * bw >= 9) {
				S_initial(words[c], ini, sizeof(ini));
				S_font(pn, S_FS, 0);
				S_set(pn, S_ink);
				S_text(pn, px + bw, P_Y1 + 15, ini, 0.5, 0);
			}
		}
		S_font(pn, S_FS, 0);
		S_set(pn, S_ink);
		S_text(pn, gx + gw / 2, P_Y1 + 33, ph->name ? ph->name : "", 0.5, gw - 6);
		if (ph->failed || ph->not_run) {
			S_font(pn, S_FS, 1);
			S_text_halo(pn, gx + gw / 2, P_Y0 + 16,
				    ph->failed ? S_w(t->failed, "failed") : S_w(t->not_run, "not run"),
				    0.5, gw - 8, ph->failed ? S_darken(S_verm, 0.3) : S_grey);
		}
	}
	S_set(pn, S_ink);
	S_lw(pn, 1.0);
	S_move(pn, P_X0, P_Y1 + 0.5);
	S_line(pn, P_X1, P_Y1 + 0.5);
	S_stroke(pn);
}

/* The highest counter of a phase, over every check. */
static uint64_t S_phase_top(const gs_chart_phase *ph)
{
	uint64_t m = 0;
	size_t c;

	for (c = 0; c < GS_CHART_NCHECK; c++) {
		if (ph->allocated[c].present && ph->allocated[c].bytes > m)
			m = ph->allocated[c].bytes;
		if (ph->reserved[c].present && ph->reserved[c].bytes > m)
			m = ph->reserved[c].bytes;
	}
	return m;
}

typedef struct {
	uint64_t top;
	size_t idx;
} S_top;

static int S_top_cmp(const void *a, const void *b)
{
	const S_top *x = a, *y = b;

	if (x->top != y->top)
		return x->top > y->top ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static int S_idx_cmp(const void *a, const void *b)
{
	const S_top *x = a, *y = b;

	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/*
 * More phases than a chart can show: the GS_CHART_MAX_PHASES with the
 * highest counters are drawn, in their order, and the title starts with
 * how many of how many (every phase stays in the sheet's table). Keeps the chart's
 * size and cost bounded whatever the measurement.
 */
static int S_phases_capped(const S_phases *p0, gs_chart_out *out)
{
	size_t n = p0->n, k = GS_CHART_MAX_PHASES, i;
	S_top *tops = gs_xcalloc(n, sizeof(*tops));
	gs_chart_phase *sel = gs_xcalloc(k, sizeof(*sel));
	gs_chart_text t = *p0->t;
	char *title;
	int rc;

	for (i = 0; i < n; i++) {
		tops[i].top = S_phase_top(&p0->ph[i]);
		tops[i].idx = i;
	}
	qsort(tops, n, sizeof(*tops), S_top_cmp);
	qsort(tops, k, sizeof(*tops), S_idx_cmp);
	for (i = 0; i < k; i++)
		sel[i] = p0->ph[tops[i].idx];
	/* the two languages of the sheets; no label file entry needed */
	title = gs_xasprintf(t.lang == GS_LANG_ES
			     ? "%zu de %zu fases (picos más altos; todas en la tabla)%s%s"
			     : "%zu of %zu phases (the highest peaks; all in the table)%s%s",
			     k, n, t.title ? ": " : "", t.title ? t.title : "");
	t.title = title;
	rc = gs_chart_phases(&t, sel, k, out);
	free(title);
	free(sel);
	free(tops);
	return rc;
}

int gs_chart_phases(const gs_chart_text *t,
		    const gs_chart_phase *phases, size_t nphases,
		    gs_chart_out *out)
{
	S_phases p;
	uint64_t max = 0;
	size_t i, c;

	if (!out)
		return -1;
	S_out_init(out);
	if (nphases && !phases)
		return -1;
	p.t = t ? t : &S_no_text;
	p.ph = phases;
	p.n = nphases;
	if (nphases > GS_CHART_MAX_PHASES)
		return S_phases_capped(&p, out);
	for (i = 0; i < nphases; i++)
		for (c = 0; c < GS_CHART_NCHECK; c++) {
			if (phases[i].allocated[c].present && phases[i].allocated[c].bytes > max)
				max = phases[i].allocated[c].bytes;
			if (phases[i].reserved[c].present && phases[i].reserved[c].bytes > max)
				max = phases[i].reserved[c].bytes;
		}
	S_axis_make(max, P_Y0 + 24, P_Y1, &p.ax);
	return S_render(S_phases_draw, &p, p.t, out);
}
/* ----------------------------------------------------------- 3. the sweep */

typedef struct {
	uint64_t x;
	size_t idx;
} S_pt;

typedef struct {
	const gs_chart_text *t;
	const gs_chart_point *pts;
	size_t n;
	const gs_chart_line *caps;
	size_t ncaps;
	S_pt *order;              /* points sorted by (x, index) */
	size_t *cat;              /* category of order[i] */
	size_t *rank, *count;     /* position within its column, column size */
	size_t ncat;
	size_t *lab_i;            /* room for ncaps capacity labels */
	double *lab_y;
	S_axis ax;
} S_sweep;

#define W_X0 72.0
#define W_X1 784.0
#define W_Y0 84.0
#define W_Y1 384.0

static int S_pt_cmp(const void *a, const void *b)
{
	const S_pt *x = a, *y = b;

	if (x->x != y->x)
		return x->x < y->x ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static double S_sweep_x(const S_sweep *s, size_t i)
{
	double cw = (W_X1 - W_X0) / (double)s->ncat;
	double off = ((double)s->rank[i] - ((double)s->count[i] - 1) / 2.0) * 10.0;

	return W_X0 + cw * ((double)s->cat[i] + 0.5) + off;
}

static void S_sweep_legend(S_pen *pn, const S_sweep *s)
{
	const gs_chart_text *t = s->t;
	S_flow f = { 16, 54, 16, S_W - 16 };
	char buf[S_LABEL_MAX];
	size_t i;
	int assumed = 0, solid = 0;

	S_font(pn, S_FS, 0);
	S_flow_room(&f, 120);
	S_circle(pn, f.x + 6, f.y - 4, 5, 0);
	f.x += 18;
	S_flow_text(pn, &f, S_w(t->succeeded, "succeeded"));
	S_flow_room(&f, 120);
	S_cross(pn, f.x + 6, f.y - 4, 5, 0);
	f.x += 18;
	S_flow_text(pn, &f, S_w(t->failed, "failed"));
	snprintf(buf, sizeof(buf), "? = %s", S_w(t->missing, "missing"));
	S_flow_text(pn, &f, buf);
	for (i = 0; i < s->ncaps; i++) {
		if (!s->caps[i].value.present)
			continue;
		if (s->caps[i].value.prov == GS_PROV_ASSUMED)
			assumed = 1;
		else
			solid = 1;
	}
	if (solid) {
		S_flow_room(&f, 120);
		S_line_sample(pn, f.x, f.y - 4, 0);
		f.x += 22;
		S_flow_text(pn, &f, S_w(t->capacity, "capacity"));
	}
	if (assumed) {
		S_flow_room(&f, 160);
		S_line_sample(pn, f.x, f.y - 4, 1);
		f.x += 22;
		snprintf(buf, sizeof(buf), "%s \xC2\xB7 %s", S_w(t->capacity, "capacity"),
			 S_w(t->assumed, "assumed"));
		S_flow_text(pn, &f, buf);
	}
}

/* Each point in words, in ascending order of x; then the capacities. */
static void S_sweep_desc(S_pen *pn, const S_sweep *s)
{
	const gs_chart_text *t = s->t;
	char buf[2 * S_LABEL_MAX], w[S_LABEL_MAX], x[GS_FMT_MAX];
	size_t i;

	for (i = 0; i < s->n; i++) {
		const gs_chart_point *pt = &s->pts[s->order[i].idx];

		S_value_words(w, sizeof(w), t, pt->peak);
		snprintf(buf, sizeof(buf), "%s %s%s%s", S_w(t->peak, "peak"), w,
			 pt->failed ? ", " : "", pt->failed ? S_w(t->failed, "failed") : "");
		S_desc2(pn, gs_qty_fmt_int(x, pt->x, t->lang), buf);
	}
	for (i = 0; i < s->ncaps; i++) {
		S_value_words(w, sizeof(w), t, s->caps[i].value);
		snprintf(buf, sizeof(buf), "%s %s", S_w(t->capacity, "capacity"), w);
		S_desc2(pn, s->caps[i].label, buf);
	}
}

static void S_sweep_draw(S_pen *pn, const void *arg)
{
	const S_sweep *s = arg;
	const gs_chart_text *t = s->t;
	double cw, maxw = 0, *ly = s->lab_y;
	size_t i, stride = 1, nl = 0, *li = s->lab_i;
	int have_prev = 0;
	char buf[S_LABEL_MAX];

	S_sweep_desc(pn, s);
	S_title(pn, t);
	S_sweep_legend(pn, s);
	S_axis_draw(pn, &s->ax, W_X0, W_X1, t);
	S_font(pn, S_FS, 0);
	S_set(pn, S_ink);
	S_text(pn, (W_X0 + W_X1) / 2, W_Y1 + 40, S_w(t->x_label, "context (tokens)"),
	       0.5, W_X1 - W_X0);
	if (s->n == 0) {
		S_note_center(pn, (W_X0 + W_X1) / 2, (W_Y0 + W_Y1) / 2,
			      S_w(t->missing, "missing"));
		goto caps;
	}
	cw = (W_X1 - W_X0) / (double)s->ncat;

	/* category labels, thinned so that they never overlap */
	for (i = 0; i < s->n; i++) {
		double w = S_width(pn, gs_qty_fmt_int(buf, s->order[i].x, t->lang));

		if (w > maxw)
			maxw = w;
	}
	while ((double)stride * cw < maxw + 10 && stride < s->ncat)
		stride++;
	S_set(pn, S_ink);
	for (i = 0; i < s->n; i++) {
		double x = W_X0 + cw * ((double)s->cat[i] + 0.5);

		if (s->rank[i] != 0 || s->cat[i] % stride != 0)
			continue;
		S_lw(pn, 1.0);
		S_move(pn, (double)(long)x + 0.5, W_Y1);
		S_line(pn, (double)(long)x + 0.5, W_Y1 + 5);
		S_stroke(pn);
		S_text(pn, x, W_Y1 + 19, gs_qty_fmt_int(buf, s->order[i].x, t->lang), 0.5, 0);
	}

	/* successful points joined in order */
	S_set(pn, S_blue);
	S_lw(pn, 1.5);
	for (i = 0; i < s->n; i++) {
		const gs_chart_point *pt = &s->pts[s->order[i].idx];

		if (pt->failed || !pt->peak.present)
			continue;
		if (have_prev)
			S_line(pn, S_sweep_x(s, i), S_y(&s->ax, pt->peak.bytes));
		else
			S_move(pn, S_sweep_x(s, i), S_y(&s->ax, pt->peak.bytes));
		have_prev = 1;
	}
	S_stroke(pn);

	for (i = 0; i < s->n; i++) {
		const gs_chart_point *pt = &s->pts[s->order[i].idx];
		double x = S_sweep_x(s, i);

		if (!pt->peak.present) {
			if (pt->failed)
				S_cross(pn, x, W_Y1 - 9, 4, 1);
			else
				S_circle(pn, x, W_Y1 - 9, 4, 1);
			S_font(pn, S_FS, 1);
			S_set(pn, S_grey);
			S_text(pn, x, W_Y1 - 18, "?", 0.5, 0);
			continue;
		}
		if (pt->failed)
			S_cross(pn, x, S_y(&s->ax, pt->peak.bytes), 6, 0);
		else
			S_circle(pn, x, S_y(&s->ax, pt->peak.bytes), 5.5, 0);
	}

caps:
	/* capacity lines, labelled at the right end above the line */
	for (i = 0; i < s->ncaps; i++) {
		const gs_chart_line *l = &s->caps[i];
		double y;

		if (!l->value.present)
			continue;
		y = S_y(&s->ax, l->value.bytes);
		S_set(pn, S_ink);
		S_lw(pn, 2.0);
		S_dash(pn, l->value.prov == GS_PROV_ASSUMED ? GS_DASH_LONG : GS_DASH_NONE);
		S_move(pn, W_X0, y);
		S_line(pn, W_X1, y);
		S_stroke(pn);
		S_dash(pn, GS_DASH_NONE);
		{
			/* insertion sort by y (top first), stable */
			size_t j = nl;

			while (j > 0 && ly[j - 1] > y - 5) {
				ly[j] = ly[j - 1];
				li[j] = li[j - 1];
				j--;
			}
			ly[j] = y - 5;
			li[j] = i;
			nl++;
		}
	}
	S_spread(ly, nl, 16, W_Y0 + 12, W_Y1 - 4);
	S_font(pn, S_FS, 0);
	for (i = 0; i < nl; i++) {
		const gs_chart_line *l = &s->caps[li[i]];
		char v[GS_FMT_MAX];

		snprintf(buf, sizeof(buf), "%s \xC2\xB7 %s \xC2\xB7 %s",
			 l->label ? l->label : "", gs_qty_fmt_gib(v, l->value.bytes, t->lang),
			 S_prov_word(t, l->value.prov));
		S_text_halo(pn, W_X1 - 4, ly[i], buf, 1.0, W_X1 - W_X0 - 8, S_ink);
	}
}

int gs_chart_sweep(const gs_chart_text *t,
		   const gs_chart_point *pts, size_t npts,
		   const gs_chart_line *caps, size_t ncaps,
		   gs_chart_out *out)
{
	S_sweep s;
	uint64_t max = 0;
	size_t i, j;
	int rc;

	if (!out)
		return -1;
	S_out_init(out);
	if ((npts && !pts) || (ncaps && !caps))
		return -1;
	memset(&s, 0, sizeof(s));
	s.t = t ? t : &S_no_text;
	s.pts = pts;
	s.n = npts;
	s.caps = caps;
	s.ncaps = ncaps;
	if (npts) {
		s.order = gs_xcalloc(npts, sizeof(*s.order));
		s.cat = gs_xcalloc(npts, sizeof(*s.cat));
		s.rank = gs_xcalloc(npts, sizeof(*s.rank));
		s.count = gs_xcalloc(npts, sizeof(*s.count));
		for (i = 0; i < npts; i++) {
			s.order[i].x = pts[i].x;
			s.order[i].idx = i;
			if (pts[i].peak.present && pts[i].peak.bytes > max)
				max = pts[i].peak.bytes;
		}
		qsort(s.order, npts, sizeof(*s.order), S_pt_cmp);
		for (i = 0; i < npts; i = j) {
			for (j = i; j < npts && s.order[j].x == s.order[i].x; j++) {
				s.cat[j] = s.ncat;
				s.rank[j] = j - i;
			}
			s.ncat++;
		}
		/* column sizes */
		for (i = 0; i < npts; i = j) {
			for (j = i; j < npts && s.cat[j] == s.cat[i]; j++)
				;
			{
				size_t k;

				for (k = i; k < j; k++)
					s.count[k] = j - i;
			}
		}
	}
	for (i = 0; i < ncaps; i++)
		if (caps[i].value.present && caps[i].value.bytes > max)
			max = caps[i].value.bytes;
	S_axis_make(max, W_Y0 + 24, W_Y1, &s.ax);
	s.lab_i = gs_xcalloc(ncaps + 1, sizeof(*s.lab_i));
	s.lab_y = gs_xcalloc(ncaps + 1, sizeof(*s.lab_y));
	rc = S_render(S_sweep_draw, &s, s.t, out);
	free(s.lab_i);
	free(s.lab_y);
	free(s.order);
	free(s.cat);
	free(s.rank);
	free(s.count);
	return rc;
}

/* ------------------------------------------------------------ 4. the bars */

typedef struct {
	const gs_chart_text *t;
	const gs_chart_bar *bars;
	size_t n;
	unsigned decimals;
	const char *unit;
	uint64_t step, top;       /* axis, in 10^-decimals of the unit */
} S_bars;

#define R_LBL 228.0           /* labels end here (anchored at their end) */
#define R_X0 236.0            /* value 0 */
#define R_X1 560.0            /* value top */
#define R_ROW 22.0            /* one bar or heading */

static const S_rgb S_green = { 0, 158, 115, 255 };

/* v in 10^-d units, d decimals, the language's separators: "1,234.5678". */
static char *S_fmt_dec(char *buf, uint64_t v, unsigned d, gs_lang lang)
{
	uint64_t p = 1, frac;
	unsigned i;
	size_t n;

	for (i = 0; i < d; i++)
		p *= 10;
	gs_qty_fmt_int(buf, v / p, lang);
	if (!d)
		return buf;
	n = strlen(buf);  /* at most 20 digits and 6 two-byte separators: room for 8 more */
	buf[n++] = lang == GS_LANG_ES ? ',' : '.';
	frac = v % p;
	for (i = d; i > 0; i--) {
		buf[n + i - 1] = (char)('0' + frac % 10);
		frac /= 10;
	}
	buf[n + d] = '\0';
	return buf;
}

static S_rgb S_bar_colour(int mark)
{
	switch (mark) {
	case GS_BAR_RETAINED: return S_green;
	case GS_BAR_PRESELECTED: return S_orange;
	case GS_BAR_EXCLUDED: return S_verm;
	default: return S_blue;
	}
}

static const char *S_bar_word(const gs_chart_text *t, int mark)
{
	switch (mark) {
	case GS_BAR_RETAINED: return S_w(t->retained, "retained");
	case GS_BAR_PRESELECTED: return S_w(t->preselected, "pre-selected");
	case GS_BAR_EXCLUDED: return S_w(t->excluded, "excluded");
	default: return "";
	}
}

static double S_bar_x(const S_bars *b, uint64_t v)
{
	return R_X0 + (double)v / (double)b->top * (R_X1 - R_X0);
}

/* Rows: one per bar, one per heading (a group differing from the previous bar's). */
static int S_new_group(const S_bars *b, size_t i)
{
	const char *g = b->bars[i].group, *p = i ? b->bars[i - 1].group : NULL;

	if (!g)
		return 0;
	return !p || strcmp(g, p) != 0;
}

static void S_bars_draw(S_pen *pn, const void *arg)
{
	const S_bars *b = arg;
	const gs_chart_text *t = b->t;
	char buf[S_LABEL_MAX], v[GS_FMT_MAX];
	double y, y0, y1;
	uint64_t tick;
	size_t i;
	int used[4] = { 0, 0, 0, 0 }, m;

	for (i = 0; i < b->n; i++) {
		const gs_chart_bar *r = &b->bars[i];
		snprintf(buf, sizeof(buf), "%s %s%s%s", S_fmt_dec(v, r->value, b->decimals, t->lang),
			 b->unit ? b->unit : "", r->words ? ", " : "", r->words ? r->words : "");
		S_desc2(pn, r->label, buf);
		if (r->mark >= 0 && r->mark < 4)
			used[r->mark] = 1;
	}
	S_title(pn, t);
	/* the legend of the marks used, in words */
	y0 = 48;
	if (used[1] || used[2] || used[3]) {
		S_flow f = { 16, 54, 16, S_W - 16 };
		S_font(pn, S_FS, 0);
		for (m = 1; m < 4; m++) {
			if (!used[m])
				continue;
			S_flow_room(&f, 140);
			S_set(pn, S_bar_colour(m));
			S_rect(pn, f.x, f.y - 11, 14, 14);
			S_fill(pn);
			f.x += 20;
			S_flow_text(pn, &f, S_bar_word(t, m));
		}
		y0 = f.y + 12;
	}
	/* rows */
	y = y0;
	for (i = 0; i < b->n; i++) {
		if (S_new_group(b, i)) {
			S_font(pn, S_FS, 1);
			S_set(pn, S_ink);
			S_text(pn, 16, y + 16, b->bars[i].group, 0, S_W - 32);
			y += R_ROW;
		}
		y += R_ROW;
	}
	y1 = y;
	pn->l->height = (unsigned)(y1 + 52);
	/* grid and ticks */
	S_font(pn, S_FS, 0);
	S_lw(pn, 1.0);
	for (tick = 0; tick <= b->top; tick += b->step) {
		double x = (double)(long)S_bar_x(b, tick) + 0.5;
		S_set(pn, tick ? S_grid : S_ink);
		S_move(pn, x, y0);
		S_line(pn, x, y1);
		S_stroke(pn);
		S_set(pn, S_ink);
		S_text(pn, x, y1 + 16, S_fmt_dec(v, tick, b->decimals, t->lang), 0.5, 0);
	}
	S_set(pn, S_ink);
	S_text(pn, (R_X0 + R_X1) / 2, y1 + 38, S_w(t->axis_label, ""), 0.5, S_W - 32);
	/* bars, labels, values */
	y = y0;
	for (i = 0; i < b->n; i++) {
		const gs_chart_bar *r = &b->bars[i];
		double xe;
		if (S_new_group(b, i))
			y += R_ROW;
		xe = S_bar_x(b, r->value);
		S_set(pn, S_bar_colour(r->mark));
		S_rect(pn, R_X0, y + 4, xe - R_X0 < 1 ? 1 : xe - R_X0, R_ROW - 8);
		S_fill(pn);
		S_font(pn, S_FS, 0);
		S_set(pn, S_ink);
		S_text(pn, R_LBL, y + 15, r->label ? r->label : "", 1.0, R_LBL - 16);
		snprintf(buf, sizeof(buf), "%s %s%s%s", S_fmt_dec(v, r->value, b->decimals, t->lang),
			 b->unit ? b->unit : "", r->words ? " " : "", r->words ? r->words : "");
		S_text(pn, xe + 6, y + 15, buf, 0, S_W - 8 - xe - 6);
		y += R_ROW;
	}
}

int gs_chart_bars(const gs_chart_text *t, const gs_chart_bar *bars, size_t nbars,
		  unsigned decimals, const char *unit, gs_chart_out *out)
{
	S_bars b;
	uint64_t max = 0, step = 1, mult = 1;
	static const uint64_t f[3] = { 1, 2, 5 };
	size_t i;
	int k = 0;

	if (!out)
		return -1;
	S_out_init(out);
	if ((nbars && !bars) || nbars > GS_CHART_MAX_BARS || decimals > 6)
		return -1;
	memset(&b, 0, sizeof(b));
	b.t = t ? t : &S_no_text;
	b.bars = bars;
	b.n = nbars;
	b.decimals = decimals;
	b.unit = unit;
	for (i = 0; i < nbars; i++)
		if (bars[i].value > max)
			max = bars[i].value;
	if (max > UINT64_MAX / 4)
		return -1;
	if (max == 0) {
		for (i = 0, max = 1; i < decimals; i++)
			max *= 10;  /* nothing above 0: an axis to one unit */
	}
	/* the smallest step 1, 2, 5 x 10^k giving at most 5 intervals */
	for (;;) {
		step = f[k] * mult;
		if ((max + step - 1) / step <= 5)
			break;
		if (++k == 3) {
			k = 0;
			mult *= 10;
		}
	}
	b.step = step;
	b.top = (max + step - 1) / step * step;
	return S_render(S_bars_draw, &b, b.t, out);
}
