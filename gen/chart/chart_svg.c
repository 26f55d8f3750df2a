/*
 * chart_svg: a chart's display list written as SVG text, directly.
 *
 * Why not Cairo's SVG surface: it draws every glyph as an outline and
 * formats every coordinate through printf (97-142 KB per chart, a quarter
 * of a sheet's CPU), and the text is then neither searchable nor read by a
 * screen reader. Here text is real <text> in DejaVu Sans, coordinates are
 * written by a small fixed-point writer (hundredths of a pixel, trailing
 * zeros and a leading zero dropped, no locale; a line along an axis as H or
 * V), colours as "#rgb" where that is the same colour, and hatching is one
 * <pattern> per colour.
 *
 * Presentation attributes (fill, stroke, fonts...) that neighbouring marks
 * share are written once on a <g> around them (see "groups" below), never
 * as a <style> element or classes: a page may show the chart under a
 * Content-Security-Policy without inline styles, and attributes are what
 * every SVG reader understands. What each element ends up with, inherited
 * or its own, is what the display list says (test_chart_svg reads it back).
 */
#include "chart_cache.h"
#include "chart_list.h"

#include <stdlib.h>
#include <string.h>
#include "html.h"
#include "util.h"

/* The text is written into a gs_buf (buf.h), which starts at S_OUT_START
 * bytes: a chart is 5-40 KB, so it grows a few times at most. */
#define S_OUT_START 8192

/*
 * A coordinate rounded to the hundredth of a pixel into b (at least
 * S_NUM_MAX bytes, not terminated): "12", "12.5", "-0.25" written
 * "-.25", "0.5" written ".5" (the same number to any SVG reader); returns
 * its length. Values beyond +-1e9 px are clamped (nothing drawn lies there;
 * the clamp keeps the conversion to an integer defined).
 */
#define S_NUM_MAX 16

static int64_t S_hundredths(double v)
{
	if (!(v > -1e9))  /* also NaN */
		v = -1e9;
	if (v > 1e9)
		v = 1e9;
	return (int64_t)(v * 100.0 + (v < 0 ? -0.5 : 0.5));
}

static size_t S_fmt_h(char *b, int64_t h)
{
	char d[GS_DEC_MAX], *p;
	uint64_t a;
	size_t n = 0, k;

	if (h < 0) {
		b[n++] = '-';
		a = (uint64_t)(-h);
	} else {
		a = (uint64_t)h;
	}
	if (a / 100 || a == 0) {
		p = gs_dec(d, a / 100, 0);
		k = (size_t)(d + GS_DEC_MAX - p);
		memcpy(b + n, p, k);
		n += k;
	}
	a %= 100;
	if (a) {
		b[n++] = '.';
		b[n++] = (char)('0' + a / 10);
		if (a % 10)
			b[n++] = (char)('0' + a % 10);
	}
	return n;
}

/* A number of hundredths h, formatted in place. */
static void S_h(gs_buf *o, int64_t h)
{
	gs_buf_grow(o, S_NUM_MAX);
	o->len += S_fmt_h(o->data + o->len, h);
	o->data[o->len] = '\0';
}

static void S_num(gs_buf *o, double v)
{
	S_h(o, S_hundredths(v));
}

/* name="number" with a leading space. */
static void S_attr_num(gs_buf *o, const char *name, double v)
{
	gs_buf_puts(o, name);
	gs_buf_put(o, "=\"", 2);
	S_num(o, v);
	gs_buf_putc(o, '"');
}

/* "#rrggbb", or "#rgb" where each channel's two digits are the same, into
 * b (7 bytes, not terminated); returns its length. */
static size_t S_fmt_hex(char *b, gs_chart_rgba c)
{
	static const char hx[] = "0123456789abcdef";

	b[0] = '#';
	if (c.r % 17 == 0 && c.g % 17 == 0 && c.b % 17 == 0) {
		b[1] = hx[c.r & 15];
		b[2] = hx[c.g & 15];
		b[3] = hx[c.b & 15];
		return 4;
	}
	b[1] = hx[c.r >> 4];
	b[2] = hx[c.r & 15];
	b[3] = hx[c.g >> 4];
	b[4] = hx[c.g & 15];
	b[5] = hx[c.b >> 4];
	b[6] = hx[c.b & 15];
	return 7;
}

static void S_hex(gs_buf *o, gs_chart_rgba c)
{
	char b[7];

	gs_buf_put(o, b, S_fmt_hex(b, c));
}

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
static void S_pat_write(gs_buf *o, const S_pat *p, size_t id)
{
	gs_buf_puts(o, "<pattern id=\"p");
	gs_buf_u64(o, id);
	gs_buf_puts(o, "\" width=\"7\" height=\"7\" patternUnits=\"userSpaceOnUse\">"
		  "<rect width=\"7\" height=\"7\" fill=\"");
	S_hex(o, p->bg);
	gs_buf_puts(o, "\"/><path d=\"M-1 1L1-1M0 7L7 0M6 8L8 6");
	if (p->hatch == GS_HATCH_CROSS)
		gs_buf_puts(o, "M-1 6L1 8M0 0L7 7M6-1L8 1");
	gs_buf_puts(o, "\" stroke=\"");
	S_hex(o, p->ink);
	gs_buf_puts(o, "\" stroke-width=\"2\"/></pattern>\n");
}

/* ------------------------------------------------------------ paint */

/*
 * What a mark's look depends on, beyond its geometry, is a handful of
 * inherited presentation attributes. Each mark needs a value of each, or
 * none ("any": stroke-width without a stroke, a text property on a shape).
 * Value 0 of each is what an element gets from the <svg> element without
 * writing anything: fill #1a1a1a, font-size 12 (written there) and SVG's
 * initial values for the others.
 */
enum {
	S_P_FILL, S_P_FILL_OPACITY, S_P_STROKE, S_P_STROKE_WIDTH, S_P_DASH,
	S_P_ANCHOR, S_P_FONT_SIZE, S_P_FONT_WEIGHT, S_NPROP
};

/* ' name="' of each, and its length */
#define S_ATTR(name) { " " name "=\"", sizeof(" " name "=\"") - 1 }
static const struct {
	const char *s;
	uint8_t len;
} S_prop_attr[S_NPROP] = {
	S_ATTR("fill"), S_ATTR("fill-opacity"), S_ATTR("stroke"), S_ATTR("stroke-width"),
	S_ATTR("stroke-dasharray"), S_ATTR("text-anchor"), S_ATTR("font-size"), S_ATTR("font-weight")
};
#undef S_ATTR

#define S_ANY 0xFFFFu
#define S_VAL_MAX 32

typedef struct {
	uint64_t key;             /* S_key_*: one per text of the property */
	char s[S_VAL_MAX];
	uint8_t len;
	uint32_t cost;            /* bytes of ' name="value"' */
} S_val;

typedef struct {
	S_val *v[S_NPROP];
	size_t nv[S_NPROP], cap[S_NPROP];
	uint16_t *need;           /* S_NPROP per mark: value index or S_ANY */
} S_paintset;

/* Values are looked up by a key, and written out only when new: a number
 * by its hundredths, a colour by its red, green and blue, a pattern by its
 * index, a word by its index in its list. */
#define S_KEY_NONE (1ull << 62)
#define S_KEY_RGB(c) ((1ull << 61) | (uint64_t)(c).r << 16 | (uint64_t)(c).g << 8 | (c).b)
#define S_KEY_PAT(i) ((1ull << 60) | (uint64_t)(i))

static uint16_t S_find(const S_paintset *ps, int p, uint64_t key)
{
	size_t i;

	for (i = 0; i < ps->nv[p]; i++)
		if (ps->v[p][i].key == key)
			return (uint16_t)i;
	return S_ANY;
}

/* Add value s (n bytes) of property p under key; returns its index.
 * Distinct values are few (colours, widths, sizes); more than 65,534 of
 * one property are not expected: a bug (GS_BUG). */
static uint16_t S_add(S_paintset *ps, int p, uint64_t key, const char *s, size_t n)
{
	S_val *v;

	if (ps->nv[p] >= S_ANY - 1 || n >= S_VAL_MAX)
		GS_BUG("chart: %zu values of one SVG property, or one of %zu bytes", ps->nv[p], n);
	if (ps->nv[p] == ps->cap[p]) {
		ps->cap[p] = ps->cap[p] ? ps->cap[p] * 2 : 8;
		ps->v[p] = gs_xrealloc(ps->v[p], ps->cap[p] * sizeof(*ps->v[p]));
	}
	v = &ps->v[p][ps->nv[p]];
	v->key = key;
	memcpy(v->s, s, n);
	v->len = (uint8_t)n;
	v->cost = (uint32_t)(S_prop_attr[p].len + n + 1);   /* ' name="', the value, '"' */
	return (uint16_t)ps->nv[p]++;
}

static uint16_t S_num_val(S_paintset *ps, int p, double v)
{
	int64_t h = S_hundredths(v);
	uint16_t i = S_find(ps, p, (uint64_t)h);
	char b[S_NUM_MAX];

	return i != S_ANY ? i : S_add(ps, p, (uint64_t)h, b, S_fmt_h(b, h));
}

static uint16_t S_rgb_val(S_paintset *ps, int p, gs_chart_rgba c)
{
	uint16_t i = S_find(ps, p, S_KEY_RGB(c));
	char b[7];

	return i != S_ANY ? i : S_add(ps, p, S_KEY_RGB(c), b, S_fmt_hex(b, c));
}

/* Word k of list w (k < the list's length). */
static uint16_t S_word_val(S_paintset *ps, int p, const char *const *w, unsigned k)
{
	uint16_t i = S_find(ps, p, k);

	return i != S_ANY ? i : S_add(ps, p, k, w[k], strlen(w[k]));
}

static const char *const S_anchor[] = { "start", "middle", "end" };
static const char *const S_dash[] = { "none", "7 4", "1.5 3", "4 3" };
static const char *const S_weight[] = { "normal", "bold" };

/* Value 0 of each property, what the <svg> element gives. */
static void S_initial(S_paintset *ps)
{
	static const gs_chart_rgba ink = { 26, 26, 26, 255 };

	S_rgb_val(ps, S_P_FILL, ink);
	S_num_val(ps, S_P_FILL_OPACITY, 1);
	S_add(ps, S_P_STROKE, S_KEY_NONE, "none", 4);
	S_num_val(ps, S_P_STROKE_WIDTH, 1);
	S_word_val(ps, S_P_DASH, S_dash, 0);
	S_word_val(ps, S_P_ANCHOR, S_anchor, 0);
	S_num_val(ps, S_P_FONT_SIZE, 12);
	S_word_val(ps, S_P_FONT_WEIGHT, S_weight, 0);
}

/*
 * The values mark m needs. A hatched fill is its pattern, opaque; text
 * without a colour of its own (alpha 0) is in the colour of most text; a
 * shape without fill is fill="none", one without stroke has no stroke.
 */
static void S_needs(S_paintset *ps, uint16_t *need, const gs_chart_mark *m,
		    const S_pat *pats, size_t npats)
{
	int p;

	for (p = 0; p < S_NPROP; p++)
		need[p] = S_ANY;
	if (m->kind != GS_MARK_RECT && m->kind != GS_MARK_CIRCLE && m->kind != GS_MARK_TEXT &&
	    !(m->kind == GS_MARK_PATH && m->np))
		return;  /* not drawn */
	if (m->hatch != GS_HATCH_NONE) {
		size_t pi = S_pat_find(pats, npats, m);

		need[S_P_FILL] = S_find(ps, S_P_FILL, S_KEY_PAT(pi));
		if (need[S_P_FILL] == S_ANY) {
			char b[S_VAL_MAX];
			char d[GS_DEC_MAX], *q = gs_dec(d, pi, 0);
			size_t k = (size_t)(d + GS_DEC_MAX - q);

			memcpy(b, "url(#p", 6);
			memcpy(b + 6, q, k);
			b[6 + k] = ')';
			need[S_P_FILL] = S_add(ps, S_P_FILL, S_KEY_PAT(pi), b, k + 7);
		}
		need[S_P_FILL_OPACITY] = 0;
	} else if (m->fill.a) {
		need[S_P_FILL] = S_rgb_val(ps, S_P_FILL, m->fill);
		need[S_P_FILL_OPACITY] = m->fill.a == 255 ? 0 :
					 S_num_val(ps, S_P_FILL_OPACITY, m->fill.a / 255.0);
	} else if (m->kind == GS_MARK_TEXT) {
		need[S_P_FILL] = 0;
		need[S_P_FILL_OPACITY] = 0;
	} else {
		need[S_P_FILL] = S_find(ps, S_P_FILL, S_KEY_NONE);
		if (need[S_P_FILL] == S_ANY)
			need[S_P_FILL] = S_add(ps, S_P_FILL, S_KEY_NONE, "none", 4);
	}
	if (m->stroke.a) {
		need[S_P_STROKE] = S_rgb_val(ps, S_P_STROKE, m->stroke);
		need[S_P_STROKE_WIDTH] = S_num_val(ps, S_P_STROKE_WIDTH, m->lw);
		need[S_P_DASH] = m->dash <= GS_DASH_SHORT ? S_word_val(ps, S_P_DASH, S_dash, m->dash) : 0;
	} else {
		need[S_P_STROKE] = 0;
	}
	if (m->kind == GS_MARK_TEXT) {
		need[S_P_ANCHOR] = S_word_val(ps, S_P_ANCHOR, S_anchor,
					      m->anchor <= GS_ANCHOR_END ? m->anchor : 0);
		need[S_P_FONT_SIZE] = S_num_val(ps, S_P_FONT_SIZE, m->h);
		need[S_P_FONT_WEIGHT] = m->bold ? S_word_val(ps, S_P_FONT_WEIGHT, S_weight, 1) : 0;
	}
}

/* ' name="value"' for each property whose value in[] differs from ctx[]. */
static void S_paint(gs_buf *o, const S_paintset *ps, const uint16_t *in, const uint16_t *ctx)
{
	int p;

	for (p = 0; p < S_NPROP; p++) {
		const S_val *v;

		if (in[p] == S_ANY || in[p] == ctx[p])
			continue;
		v = &ps->v[p][in[p]];
		gs_buf_put(o, S_prop_attr[p].s, S_prop_attr[p].len);
		gs_buf_put(o, v->s, v->len);
		gs_buf_putc(o, '"');
	}
}

/* ---------------------------------------------------------------- groups */

/*
 * Consecutive marks that share values are wrapped in a <g> that carries
 * them, once; a mark in it writes only what differs from its group (a
 * value 0 differing from the group's is written out: stroke="none"). The
 * marks are cut into runs, each bare or one group (no nesting), by dynamic
 * programming on the bytes written: best[j] is the fewest bytes for marks
 * [0, j). For a group [i, j), each property independently takes the value
 * that saves the most bytes, or none. Painting order is the list's:
 * a group only wraps marks that are next to each other. Ties go to the
 * first found, so the output is a function of the list.
 *
 * A group spans at most S_GROUP_MAX marks, which bounds the work at
 * S_GROUP_MAX x S_NPROP steps per mark: 8 writes 0.5 % more bytes than
 * 256 on the bench site's charts (2 % on the examples'), for a fraction
 * of the work.
 */
#define S_GROUP_MAX 8
#define S_GROUP_COST 9            /* "<g" ">\n" "</g>\n" */

typedef struct {
	uint64_t cost;            /* bytes of paint for marks [0, j) */
	size_t from;              /* the last run starts at from */
	int group;                /* and is a group */
} S_step;

/* The value each property of the group [i, j) takes (0: none written). */
static void S_group_values(const S_paintset *ps, size_t i, size_t j, uint64_t *save,
			   uint16_t *ctx)
{
	int p;

	for (p = 0; p < S_NPROP; p++) {
		size_t k, nv = ps->nv[p];
		uint64_t zero = 0, best = 0;

		memset(save, 0, nv * sizeof(*save));
		for (k = i; k < j; k++) {
			uint16_t v = ps->need[k * S_NPROP + p];

			if (v == 0)
				zero += ps->v[p][0].cost;
			else if (v != S_ANY)
				save[v] += ps->v[p][v].cost;
		}
		ctx[p] = 0;
		for (k = 1; k < nv; k++)
			if (save[k] > ps->v[p][k].cost + zero &&
			    save[k] - ps->v[p][k].cost - zero > best) {
				best = save[k] - ps->v[p][k].cost - zero;
				ctx[p] = (uint16_t)k;
			}
	}
}

/* A value a mark needs, flattened for the planner: its slot among all
 * values of all properties, its bytes, its property, and whether it is
 * value 0 (which a group with another value makes the mark write). */
typedef struct {
	uint32_t slot, cost;
	uint8_t prop;
} S_use;

static void S_plan(const S_paintset *ps, size_t n, S_step *best)
{
	size_t vtot = 0, i, j, k, nuse = 0;
	size_t off[S_NPROP];
	uint64_t *save, *bare, *zpre, gain[S_NPROP];
	int active[S_NPROP];
	uint8_t gp[S_NPROP];
	S_use *use;
	size_t *u0;
	int p;

	for (p = 0; p < S_NPROP; p++) {
		off[p] = vtot;
		vtot += ps->nv[p];
	}
	/*
	 * A value needed by one mark saves nothing on a group (its bytes move
	 * there), so no group takes it, and a property without any other
	 * value is never on a group: the planner leaves their uses out.
	 * save[] counts the marks needing each value first.
	 */
	save = gs_xcalloc(vtot ? vtot : 1, sizeof(*save));
	for (k = 0; k < n * S_NPROP; k++)
		if (ps->need[k] != S_ANY)
			save[off[k % S_NPROP] + ps->need[k]]++;
	for (p = 0; p < S_NPROP; p++) {
		active[p] = 0;
		for (k = 1; k < ps->nv[p]; k++)
			if (save[off[p] + k] > 1)
				active[p] = 1;
	}
	/*
	 * Each mark's uses of a value other than 0, u0[k] .. u0[k + 1];
	 * bare[k]: the bytes of marks [0, k) bare; zpre[k * S_NPROP + p]: the
	 * bytes of their uses of value 0 of p, which a group taking another
	 * value of p makes them write.
	 */
	use = gs_xmalloc((n ? n : 1) * S_NPROP * sizeof(*use));
	u0 = gs_xmalloc((n + 1) * sizeof(*u0));
	bare = gs_xmalloc((n + 1) * sizeof(*bare));
	zpre = gs_xmalloc((n + 1) * S_NPROP * sizeof(*zpre));
	bare[0] = 0;
	for (p = 0; p < S_NPROP; p++)
		zpre[p] = 0;
	for (k = 0; k < n; k++) {
		const uint16_t *need = &ps->need[k * S_NPROP];

		u0[k] = nuse;
		bare[k + 1] = bare[k];
		for (p = 0; p < S_NPROP; p++) {
			uint16_t v = need[p];
			S_use *u;

			zpre[(k + 1) * S_NPROP + p] = zpre[k * S_NPROP + p] +
						      (v == 0 ? ps->v[p][0].cost : 0);
			if (v == S_ANY || v == 0)
				continue;
			bare[k + 1] += ps->v[p][v].cost;
			if (!active[p] || save[off[p] + v] < 2)
				continue;
			u = &use[nuse++];
			u->slot = (uint32_t)(off[p] + v);
			u->cost = ps->v[p][v].cost;
			u->prop = (uint8_t)p;
		}
	}
	u0[n] = nuse;
	best[0].cost = 0;
	best[0].from = 0;
	best[0].group = 0;
	for (j = 1; j <= n; j++)
		best[j].cost = UINT64_MAX;
	for (i = 0; i < n; i++) {
		uint64_t base = best[i].cost, c;
		size_t ngp = 0;

		c = base + bare[i + 1] - bare[i];
		if (c < best[i + 1].cost) {
			best[i + 1].cost = c;
			best[i + 1].from = i;
			best[i + 1].group = 0;
		}
		/* a group whose first mark takes none of its values costs no less
		 * than that mark bare and the group after it: none starts here */
		if (u0[i] == u0[i + 1])
			continue;
		memset(save, 0, vtot * sizeof(*save));
		for (p = 0; p < S_NPROP; p++)
			gain[p] = 0;
		/* the bytes the group [i, j + 1) saves, property by property: its
		 * best value's uses less the value's own bytes, less the bytes of
		 * the uses of value 0 it makes written; gp[]: the properties with
		 * a value worth taking so far */
		for (j = i; j < n && j < i + S_GROUP_MAX; j++) {
			const uint64_t *z0 = &zpre[i * S_NPROP], *z1 = &zpre[(j + 1) * S_NPROP];
			uint64_t g = 0;

			for (k = u0[j]; k < u0[j + 1]; k++) {
				const S_use *u = &use[k];
				uint64_t sv = save[u->slot] += u->cost;

				if (sv - u->cost > gain[u->prop]) {
					if (gain[u->prop] == 0)
						gp[ngp++] = u->prop;
					gain[u->prop] = sv - u->cost;
				}
			}
			for (k = 0; k < ngp; k++) {
				uint64_t z = z1[gp[k]] - z0[gp[k]];

				if (gain[gp[k]] > z)
					g += gain[gp[k]] - z;
			}
			if (g <= S_GROUP_COST)
				continue;
			c = base + bare[j + 1] - bare[i] + S_GROUP_COST - g;
			if (c < best[j + 1].cost) {
				best[j + 1].cost = c;
				best[j + 1].from = i;
				best[j + 1].group = 1;
			}
		}
	}
	free(save);
	free(zpre);
	free(bare);
	free(u0);
	free(use);
}

/* ---------------------------------------------------------------- marks */

static void S_path_data(gs_buf *o, const gs_chart_list *l, const gs_chart_mark *m)
{
	size_t i;
	int64_t cx = 0, cy = 0, sx = 0, sy = 0;
	int cur = 0;

	for (i = m->p0; i < m->p0 + m->np; i++) {
		const gs_chart_pt *p = &l->pt[i];
		int64_t x, y;

		if (p->op == GS_OP_CLOSE) {
			gs_buf_putc(o, 'Z');
			cx = sx;
			cy = sy;
			continue;
		}
		x = S_hundredths(p->x);
		y = S_hundredths(p->y);
		/* a line along an axis from the current point: "H x" or "V y" */
		if (p->op == GS_OP_LINE && cur && y == cy) {
			gs_buf_putc(o, 'H');
			S_h(o, x);
		} else if (p->op == GS_OP_LINE && cur && x == cx) {
			gs_buf_putc(o, 'V');
			S_h(o, y);
		} else {
			gs_buf_putc(o, p->op == GS_OP_MOVE ? 'M' : 'L');
			S_h(o, x);
			if (y >= 0)
				gs_buf_putc(o, ' ');
			S_h(o, y);
		}
		cx = x;
		cy = y;
		if (p->op == GS_OP_MOVE) {
			sx = x;
			sy = y;
			cur = 1;
		}
	}
}

static void S_mark(gs_buf *o, const gs_chart_list *l, const gs_chart_mark *m,
		   const S_paintset *ps, const uint16_t *need, const uint16_t *ctx)
{
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
		gs_buf_puts(o, "<path d=\"");
		S_path_data(o, l, m);
		gs_buf_puts(o, "\"");
		break;
	case GS_MARK_TEXT:
		S_attr_num(o, "<text x", m->x);
		S_attr_num(o, " y", m->y);
		if (m->vertical) {
			gs_buf_puts(o, " transform=\"rotate(-90 ");
			S_num(o, m->x);
			gs_buf_putc(o, ' ');
			S_num(o, m->y);
			gs_buf_puts(o, ")\"");
		}
		S_paint(o, ps, need, ctx);
		gs_buf_putc(o, '>');
		gs_html_escape_str(o, l->str + m->s0);
		gs_buf_puts(o, "</text>\n");
		return;
	default:
		return;
	}
	S_paint(o, ps, need, ctx);
	gs_buf_puts(o, "/>\n");
}

static void S_render(const gs_chart_list *l, gs_buf *out)
{
	gs_buf o;
	S_pat *pats = NULL;
	S_paintset ps;
	S_step *best;
	size_t npats = 0, i, nrun = 0, *runs;
	uint64_t *save;
	int p;

	gs_buf_init(&o, S_OUT_START);
	gs_buf_puts(&o, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		   "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"");
	gs_buf_u64(&o, GS_CHART_WIDTH);
	gs_buf_puts(&o, "\" height=\"");
	gs_buf_u64(&o, gs_chart_list_height(l));
	gs_buf_puts(&o, "\" viewBox=\"0 0 ");
	gs_buf_u64(&o, GS_CHART_WIDTH);
	gs_buf_putc(&o, ' ');
	gs_buf_u64(&o, gs_chart_list_height(l));
	gs_buf_puts(&o, "\" role=\"img\" aria-labelledby=\"title desc\""
		   " font-family=\"DejaVu Sans, sans-serif\" font-size=\"12\" fill=\"#1a1a1a\">\n"
		   "<title id=\"title\">");
	gs_html_escape_str(&o, l->title ? l->title : "");
	gs_buf_puts(&o, "</title>\n<desc id=\"desc\">");
	gs_html_escape_str(&o, l->desc ? l->desc : "");
	gs_buf_puts(&o, "</desc>\n");

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
		gs_buf_puts(&o, "<defs>\n");
		for (i = 0; i < npats; i++)
			S_pat_write(&o, &pats[i], i);
		gs_buf_puts(&o, "</defs>\n");
	}
	gs_buf_puts(&o, "<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n");

	memset(&ps, 0, sizeof(ps));
	S_initial(&ps);
	ps.need = gs_xmalloc((l->n ? l->n : 1) * S_NPROP * sizeof(*ps.need));
	for (i = 0; i < l->n; i++)
		S_needs(&ps, &ps.need[i * S_NPROP], &l->m[i], pats, npats);
	best = gs_xmalloc((l->n + 1) * sizeof(*best));
	S_plan(&ps, l->n, best);
	/* the runs, found backwards from the end, written forwards */
	runs = gs_xmalloc((l->n + 1) * sizeof(*runs));
	for (i = l->n; i > 0; i = best[i].from)
		runs[nrun++] = i;
	{
		size_t vmax = 1, r, from = 0;

		for (p = 0; p < S_NPROP; p++)
			if (ps.nv[p] > vmax)
				vmax = ps.nv[p];
		save = gs_xmalloc(vmax * sizeof(*save));
		for (r = nrun; r > 0; r--) {
			size_t to = runs[r - 1], k;
			uint16_t ctx[S_NPROP] = { 0 };

			if (best[to].group) {
				S_group_values(&ps, from, to, save, ctx);
				gs_buf_put(&o, "<g", 2);
				S_paint(&o, &ps, ctx, (const uint16_t[S_NPROP]){ 0 });
				gs_buf_put(&o, ">\n", 2);
			}
			for (k = from; k < to; k++)
				S_mark(&o, l, &l->m[k], &ps, &ps.need[k * S_NPROP], ctx);
			if (best[to].group)
				gs_buf_puts(&o, "</g>\n");
			from = to;
		}
		free(save);
	}
	gs_buf_puts(&o, "</svg>\n");
	free(runs);
	free(best);
	free(ps.need);
	for (p = 0; p < S_NPROP; p++)
		free(ps.v[p]);
	free(pats);
	gs_buf_release(out);
	*out = o;
}

/* ------------------------------------------------------------- the cache */

/*
 * The SVG of a list rendered before (chart_cache.h), its title and
 * description part of the key: rendering the charts was 5.6 % of a site's
 * CPU, and the 200-workload benchmark renders 129 distinct SVGs of 402 (5
 * distinct phases charts of 160, 1 sweep of 40, 123 budgets of 200). Lists
 * of at most S_CACHE_LIST bytes: at most 64 x (1 MiB + its SVG).
 */
#define S_CACHE_LIST (1024u * 1024u)

static gs_chart_cache S_cache = { .with_text = 1 };

int gs_chart_svg_render(const gs_chart_list *l, gs_buf *out)
{
	uint64_t hash = gs_chart_cache_hash(&S_cache, l);
	const gs_chart_cache_entry *e = gs_chart_cache_get(&S_cache, l, hash);

	if (e) {
		gs_buf_release(out);
		gs_buf_init(out, e->len + 1);
		gs_buf_put(out, e->bytes, e->len);
		return 0;
	}
	S_render(l, out);
	if (out->len && gs_chart_cache_list_bytes(l) <= S_CACHE_LIST)
		gs_chart_cache_put(&S_cache, l, hash, out->data, out->len);
	return 0;
}
