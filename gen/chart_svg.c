/*
 * chart_svg: a chart's display list written as SVG text, directly.
 *
 * Why not Cairo's SVG surface: it draws every glyph as an outline and
 * formats every coordinate through printf (97-142 KB per chart, a quarter
 * of a sheet's CPU), and the text is then neither searchable nor read by a
 * screen reader. Here text is real <text> in DejaVu Sans, coordinates are
 * written by a small fixed-point writer (hundredths of a pixel, trailing
 * zeros dropped, no locale), and hatching is one <pattern> per colour.
 */
#include "chart_list.h"

#include <stdlib.h>
#include <string.h>
#include "util.h"

typedef struct {
	char *d;
	size_t len, cap;
} S_out;

static void S_put(S_out *o, const char *s, size_t n)
{
	gs_mem_append(&o->d, &o->len, &o->cap, s, n);
}

static void S_puts(S_out *o, const char *s)
{
	S_put(o, s, strlen(s));
}

/* An unsigned integer in decimal. */
static void S_uint(S_out *o, uint64_t v)
{
	char b[GS_DEC_MAX], *p = gs_dec(b, v, 0);

	S_put(o, p, (size_t)(b + GS_DEC_MAX - p));
}

/*
 * A coordinate rounded to the hundredth of a pixel: "12", "12.5", "-0.25".
 * Values beyond +-1e9 px are clamped (nothing drawn lies there; the clamp
 * keeps the conversion to an integer defined).
 */
static void S_num(S_out *o, double v)
{
	int64_t h;
	uint64_t a;

	if (!(v > -1e9))  /* also NaN */
		v = -1e9;
	if (v > 1e9)
		v = 1e9;
	h = (int64_t)(v * 100.0 + (v < 0 ? -0.5 : 0.5));
	if (h < 0) {
		S_put(o, "-", 1);
		a = (uint64_t)(-h);
	} else {
		a = (uint64_t)h;
	}
	S_uint(o, a / 100);
	a %= 100;
	if (a) {
		char f[3];

		f[0] = '.';
		f[1] = (char)('0' + a / 10);
		f[2] = (char)('0' + a % 10);
		S_put(o, f, a % 10 ? 3 : 2);
	}
}

/* name="number" with a leading space. */
static void S_attr_num(S_out *o, const char *name, double v)
{
	S_puts(o, name);
	S_put(o, "=\"", 2);
	S_num(o, v);
	S_put(o, "\"", 1);
}

static void S_hex(S_out *o, gs_chart_rgba c)
{
	static const char hx[] = "0123456789abcdef";
	char b[7];

	b[0] = '#';
	b[1] = hx[c.r >> 4];
	b[2] = hx[c.r & 15];
	b[3] = hx[c.g >> 4];
	b[4] = hx[c.g & 15];
	b[5] = hx[c.b >> 4];
	b[6] = hx[c.b & 15];
	S_put(o, b, 7);
}

/* Text escaped for element content and attribute values. */
static void S_esc(S_out *o, const char *s)
{
	const char *run = s;

	for (; *s; s++) {
		const char *rep;

		switch (*s) {
		case '&': rep = "&amp;"; break;
		case '<': rep = "&lt;"; break;
		case '>': rep = "&gt;"; break;
		case '"': rep = "&quot;"; break;
		default: continue;
		}
		S_put(o, run, (size_t)(s - run));
		S_puts(o, rep);
		run = s + 1;
	}
	S_put(o, run, (size_t)(s - run));
}

/* The colour of most text, written once on the <svg> element. */
static const gs_chart_rgba S_text_ink = { 26, 26, 26, 255 };

/* ------------------------------------------------------------- patterns */

typedef struct {
	uint8_t hatch;
	gs_chart_rgba bg, ink;
} S_pat;

static int S_pat_eq(const S_pat *a, const gs_chart_mark *m)
{
	return a->hatch == m->hatch && memcmp(&a->bg, &m->fill, sizeof(a->bg)) == 0 &&
	       memcmp(&a->ink, &m->hatch_ink, sizeof(a->ink)) == 0;
}

/* Index of m's pattern in pats[0..n), or n when it is new. */
static size_t S_pat_find(const S_pat *pats, size_t n, const gs_chart_mark *m)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (S_pat_eq(&pats[i], m))
			break;
	return i;
}

/*
 * One 7 x 7 tile in page coordinates (userSpaceOnUse), so that hatching
 * lines are x + y = 7k (and x - y = 7k), exactly as the PNG back end draws
 * them; the short segments at the corners continue the lines of the
 * neighbouring tiles.
 */
static void S_pat_write(S_out *o, const S_pat *p, size_t id)
{
	S_puts(o, "<pattern id=\"p");
	S_uint(o, id);
	S_puts(o, "\" width=\"7\" height=\"7\" patternUnits=\"userSpaceOnUse\">"
		  "<rect width=\"7\" height=\"7\" fill=\"");
	S_hex(o, p->bg);
	S_puts(o, "\"/><path d=\"M-1 1L1-1M0 7L7 0M6 8L8 6");
	if (p->hatch == GS_HATCH_CROSS)
		S_puts(o, "M-1 6L1 8M0 0L7 7M6-1L8 1");
	S_puts(o, "\" stroke=\"");
	S_hex(o, p->ink);
	S_puts(o, "\" stroke-width=\"2\"/></pattern>\n");
}

/* ---------------------------------------------------------------- marks */

static void S_paint(S_out *o, const gs_chart_mark *m, const S_pat *pats, size_t npats)
{
	if (m->hatch != GS_HATCH_NONE) {
		S_puts(o, " fill=\"url(#p");
		S_uint(o, S_pat_find(pats, npats, m));
		S_puts(o, ")\"");
	} else if (m->kind == GS_MARK_TEXT && memcmp(&m->fill, &S_text_ink, sizeof(m->fill)) == 0) {
		/* inherited from <svg fill=...> */
	} else if (m->fill.a) {
		S_puts(o, " fill=\"");
		S_hex(o, m->fill);
		S_puts(o, "\"");
		if (m->fill.a != 255)
			S_attr_num(o, " fill-opacity", m->fill.a / 255.0);
	} else if (m->kind != GS_MARK_TEXT) {
		S_puts(o, " fill=\"none\"");
	}
	if (!m->stroke.a)
		return;
	S_puts(o, " stroke=\"");
	S_hex(o, m->stroke);
	S_puts(o, "\"");
	if (m->lw != 1.0)
		S_attr_num(o, " stroke-width", m->lw);
	switch (m->dash) {
	case GS_DASH_LONG:
		S_puts(o, " stroke-dasharray=\"7 4\"");
		break;
	case GS_DASH_DOT:
		S_puts(o, " stroke-dasharray=\"1.5 3\"");
		break;
	case GS_DASH_SHORT:
		S_puts(o, " stroke-dasharray=\"4 3\"");
		break;
	default:
		break;
	}
}

static void S_path_data(S_out *o, const gs_chart_list *l, const gs_chart_mark *m)
{
	size_t i;

	for (i = m->p0; i < m->p0 + m->np; i++) {
		const gs_chart_pt *p = &l->pt[i];

		if (p->op == GS_OP_CLOSE) {
			S_put(o, "Z", 1);
			continue;
		}
		S_put(o, p->op == GS_OP_MOVE ? "M" : "L", 1);
		S_num(o, p->x);
		S_put(o, " ", 1);
		S_num(o, p->y);
	}
}

static void S_mark(S_out *o, const gs_chart_list *l, const gs_chart_mark *m,
		   const S_pat *pats, size_t npats)
{
	static const char *const anchor[] = { "", " text-anchor=\"middle\"", " text-anchor=\"end\"" };

	switch (m->kind) {
	case GS_MARK_RECT:
		S_attr_num(o, "<rect x", m->x);
		S_attr_num(o, " y", m->y);
		S_attr_num(o, " width", m->w);
		S_attr_num(o, " height", m->h);
		break;
	case GS_MARK_CIRCLE:
		S_attr_num(o, "<circle cx", m->x);
		S_attr_num(o, " cy", m->y);
		S_attr_num(o, " r", m->w);
		break;
	case GS_MARK_PATH:
		if (m->np == 0)
			return;
		S_puts(o, "<path d=\"");
		S_path_data(o, l, m);
		S_puts(o, "\"");
		break;
	case GS_MARK_TEXT:
		S_attr_num(o, "<text x", m->x);
		S_attr_num(o, " y", m->y);
		S_puts(o, anchor[m->anchor <= GS_ANCHOR_END ? m->anchor : 0]);
		if (m->h != 12.0)
			S_attr_num(o, " font-size", m->h);
		if (m->bold)
			S_puts(o, " font-weight=\"bold\"");
		if (m->vertical) {
			S_puts(o, " transform=\"rotate(-90 ");
			S_num(o, m->x);
			S_put(o, " ", 1);
			S_num(o, m->y);
			S_puts(o, ")\"");
		}
		S_paint(o, m, pats, npats);
		S_put(o, ">", 1);
		S_esc(o, l->str + m->s0);
		S_puts(o, "</text>\n");
		return;
	default:
		return;
	}
	S_paint(o, m, pats, npats);
	S_puts(o, "/>\n");
}

int gs_chart_svg_render(const gs_chart_list *l, gs_buf *out)
{
	S_out o = { NULL, 0, 0 };
	S_pat *pats = NULL;
	size_t npats = 0, i;

	S_puts(&o, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		   "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"");
	S_uint(&o, GS_CHART_WIDTH);
	S_puts(&o, "\" height=\"");
	S_uint(&o, gs_chart_list_height(l));
	S_puts(&o, "\" viewBox=\"0 0 ");
	S_uint(&o, GS_CHART_WIDTH);
	S_put(&o, " ", 1);
	S_uint(&o, gs_chart_list_height(l));
	S_puts(&o, "\" role=\"img\" aria-labelledby=\"title desc\""
		   " font-family=\"DejaVu Sans, sans-serif\" font-size=\"12\" fill=\"#1a1a1a\">\n"
		   "<title id=\"title\">");
	S_esc(&o, l->title ? l->title : "");
	S_puts(&o, "</title>\n<desc id=\"desc\">");
	S_esc(&o, l->desc ? l->desc : "");
	S_puts(&o, "</desc>\n");

	for (i = 0; i < l->n; i++) {
		const gs_chart_mark *m = &l->m[i];

		if (m->hatch == GS_HATCH_NONE || S_pat_find(pats, npats, m) < npats)
			continue;
		pats = gs_xrealloc(pats, (npats + 1) * sizeof(*pats));
		pats[npats].hatch = m->hatch;
		pats[npats].bg = m->fill;
		pats[npats].ink = m->hatch_ink;
		npats++;
	}
	if (npats) {
		S_puts(&o, "<defs>\n");
		for (i = 0; i < npats; i++)
			S_pat_write(&o, &pats[i], i);
		S_puts(&o, "</defs>\n");
	}
	S_puts(&o, "<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n");
	for (i = 0; i < l->n; i++)
		S_mark(&o, l, &l->m[i], pats, npats);
	S_puts(&o, "</svg>\n");
	free(pats);
	o.d[o.len] = '\0';
	out->data = (uint8_t *)o.d;
	out->len = o.len;
	return 0;
}
