/*
 * test_chart_svg: the SVG back end draws what the display list says. Lists
 * made here (one like the budget chart's annotations, and random ones with
 * runs of marks that look alike, so that the writer groups them) are
 * rendered by gs_chart_svg_render and read back with libxml2; each mark
 * drawn must be the next drawing element in document order (painting
 * order kept), with its geometry, its text, and the value of every
 * presentation attribute it depends on as the element inherits it from
 * its <g> and the <svg> element (or SVG's initial value). No <style>, no
 * class attribute, groups one deep, the title and description first.
 * The cache of rendered lists: lists one detail apart get their own SVG,
 * and a list rendered again gets the same bytes (check_cache).
 */
#include "chart_list.h"
#include "check.h"
#include "util.h"

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t S_seed = 0x9e3779b97f4a7c15ull;

static unsigned rnd(unsigned n)
{
	return (unsigned)(gs_check_xorshift(&S_seed) % n);
}

/* ------------------------------------------------------------ reading */

static int is_el(xmlNodePtr n, const char *name)
{
	return n && n->type == XML_ELEMENT_NODE && strcmp((const char *)n->name, name) == 0;
}

static xmlNodePtr next_el(xmlNodePtr n)
{
	while (n && n->type != XML_ELEMENT_NODE)
		n = n->next;
	return n;
}

/* The attribute's value, or NULL; the caller frees it. */
static char *attr(xmlNodePtr n, const char *name)
{
	return (char *)xmlGetNoNsProp(n, (const xmlChar *)name);
}

/* The value element n gets for an inherited property: its own, else its
 * ancestors' up to <svg>, else the initial value. */
static char *eff(xmlNodePtr n, const char *name, const char *initial)
{
	for (; n && n->type == XML_ELEMENT_NODE; n = n->parent) {
		char *v = attr(n, name);

		if (v)
			return v;
	}
	return (char *)xmlStrdup((const xmlChar *)initial);
}

static int num_is(const char *s, double want)
{
	char *end;
	double v;

	if (!s)
		return 0;
	v = strtod(s, &end);
	return *end == '\0' && end != s && fabs(v - want) <= 0.00501;
}

static int attr_num_is(xmlNodePtr n, const char *name, double want)
{
	char *v = attr(n, name);
	int ok = num_is(v, want);

	if (!ok)
		fprintf(stderr, "  %s=\"%s\", want %.4f\n", name, v ? v : "(none)", want);
	xmlFree(v);
	return ok;
}

/* "#rgb" or "#rrggbb" is colour c (alpha aside). */
static int colour_is(const char *s, gs_chart_rgba c)
{
	unsigned r, g, b;

	if (!s || s[0] != '#')
		return 0;
	if (strlen(s) == 4 && sscanf(s + 1, "%1x%1x%1x", &r, &g, &b) == 3)
		return r * 17 == c.r && g * 17 == c.g && b * 17 == c.b;
	if (strlen(s) == 7 && sscanf(s + 1, "%2x%2x%2x", &r, &g, &b) == 3)
		return r == c.r && g == c.g && b == c.b;
	return 0;
}

/* Path data with M, L, H, V and Z, absolute, is the mark's points. */
static int path_is(const char *d, const gs_chart_list *l, const gs_chart_mark *m)
{
	size_t i = m->p0;
	double cx = 0, cy = 0, sx = 0, sy = 0;

	while (d && *d) {
		char op = *d++;
		char *end;
		double x = cx, y = cy;

		if (i >= m->p0 + m->np)
			return 0;
		switch (op) {
		case 'Z':
			if (l->pt[i].op != GS_OP_CLOSE)
				return 0;
			cx = sx;
			cy = sy;
			i++;
			continue;
		case 'M': case 'L':
			x = strtod(d, &end);
			if (end == d)
				return 0;
			d = end;
			if (*d == ' ')
				d++;
			y = strtod(d, &end);
			if (end == d)
				return 0;
			d = end;
			break;
		case 'H':
			x = strtod(d, &end);
			if (end == d || i == m->p0)
				return 0;
			d = end;
			break;
		case 'V':
			y = strtod(d, &end);
			if (end == d || i == m->p0)
				return 0;
			d = end;
			break;
		default:
			return 0;
		}
		if (l->pt[i].op != (op == 'M' ? GS_OP_MOVE : GS_OP_LINE) ||
		    fabs(x - l->pt[i].x) > 0.00501 || fabs(y - l->pt[i].y) > 0.00501)
			return 0;
		cx = x;
		cy = y;
		if (op == 'M') {
			sx = x;
			sy = y;
		}
		i++;
	}
	return d && i == m->p0 + m->np;
}

/* No <style>, no style or class attribute; a <g> holds no <g>. */
static int clean_tree(xmlNodePtr n, int in_g)
{
	int ok = 1;

	for (; n; n = n->next) {
		if (n->type != XML_ELEMENT_NODE)
			continue;
		if (is_el(n, "style") || xmlHasProp(n, (const xmlChar *)"style") ||
		    xmlHasProp(n, (const xmlChar *)"class") || (in_g && is_el(n, "g")))
			ok = 0;
		if (!clean_tree(n->children, in_g || is_el(n, "g")))
			ok = 0;
	}
	return ok;
}

/* The pattern of id "pK" in <defs>: a rect in bg, a path of lines in ink,
 * the crossing lines when cross. */
static int pattern_is(xmlNodePtr svg, const char *url, const gs_chart_mark *m)
{
	xmlNodePtr d, p;
	char id[64];
	size_t n = strlen(url);

	if (n < 7 || strncmp(url, "url(#", 5) != 0 || url[n - 1] != ')' || n - 6 >= sizeof(id))
		return 0;
	memcpy(id, url + 5, n - 6);
	id[n - 6] = '\0';
	for (d = next_el(svg->children); d && !is_el(d, "defs"); d = next_el(d->next))
		;
	if (!d)
		return 0;
	for (p = next_el(d->children); p; p = next_el(p->next)) {
		char *pid = attr(p, "id");
		int hit = STREQ(pid, id);
		xmlNodePtr r, l;
		char *bg, *ink, *dd;
		int ok;

		xmlFree(pid);
		if (!hit)
			continue;
		r = next_el(p->children);
		l = r ? next_el(r->next) : NULL;
		if (!is_el(r, "rect") || !is_el(l, "path"))
			return 0;
		bg = attr(r, "fill");
		ink = attr(l, "stroke");
		dd = attr(l, "d");
		ok = colour_is(bg, m->fill) && colour_is(ink, m->hatch_ink) && dd &&
		     (strstr(dd, "M0 0L7 7") != NULL) == (m->hatch == GS_HATCH_CROSS);
		xmlFree(bg);
		xmlFree(ink);
		xmlFree(dd);
		return ok;
	}
	return 0;
}

/* ------------------------------------------------------------ checking */

static int prop_is(xmlNodePtr e, const char *name, const char *initial, const char *want)
{
	char *v = eff(e, name, initial);
	int ok = STREQ(v, want);

	if (!ok)
		fprintf(stderr, "  %s is \"%s\", want \"%s\"\n", name, v, want);
	xmlFree(v);
	return ok;
}

static int prop_num_is(xmlNodePtr e, const char *name, const char *initial, double want)
{
	char *v = eff(e, name, initial);
	int ok = num_is(v, want);

	if (!ok)
		fprintf(stderr, "  %s is \"%s\", want %.4f\n", name, v, want);
	xmlFree(v);
	return ok;
}

static int prop_colour_is(xmlNodePtr e, const char *name, const char *initial, gs_chart_rgba c)
{
	char *v = eff(e, name, initial);
	int ok = colour_is(v, c);

	if (!ok)
		fprintf(stderr, "  %s is \"%s\", want #%02x%02x%02x\n", name, v, c.r, c.g, c.b);
	xmlFree(v);
	return ok;
}

/* Element e draws mark m as the display list says. */
static int mark_is(xmlNodePtr svg, xmlNodePtr e, const gs_chart_list *l, const gs_chart_mark *m)
{
	static const char *const dash[] = { "none", "7 4", "1.5 3", "4 3" };
	static const char *const anchor[] = { "start", "middle", "end" };
	static const gs_chart_rgba ink = { 26, 26, 26, 255 };
	int ok = 1;

	switch (m->kind) {
	case GS_MARK_RECT:
		ok = is_el(e, "rect") && attr_num_is(e, "x", m->x) && attr_num_is(e, "y", m->y) &&
		     attr_num_is(e, "width", m->w) && attr_num_is(e, "height", m->h);
		break;
	case GS_MARK_CIRCLE:
		ok = is_el(e, "circle") && attr_num_is(e, "cx", m->x) && attr_num_is(e, "cy", m->y) &&
		     attr_num_is(e, "r", m->w);
		break;
	case GS_MARK_PATH: {
		char *d = attr(e, "d");

		ok = is_el(e, "path") && path_is(d, l, m);
		if (!ok)
			fprintf(stderr, "  path d=\"%s\"\n", d ? d : "(none)");
		xmlFree(d);
		break;
	}
	case GS_MARK_TEXT: {
		xmlChar *s = xmlNodeGetContent(e);
		char *tr = attr(e, "transform");
		double tx = 0, ty = 0;
		int end = 0;
		int turned = tr && sscanf(tr, "rotate(-90 %lf %lf)%n", &tx, &ty, &end) == 2 &&
			     end > 0 && tr[end] == '\0' && fabs(tx - m->x) <= 0.00501 &&
			     fabs(ty - m->y) <= 0.00501;

		ok = is_el(e, "text") && attr_num_is(e, "x", m->x) && attr_num_is(e, "y", m->y) &&
		     STREQ((const char *)s, l->str + m->s0) &&
		     (m->vertical ? turned : tr == NULL) &&
		     prop_is(e, "text-anchor", "start", anchor[m->anchor]) &&
		     prop_num_is(e, "font-size", "16", m->h) &&
		     prop_is(e, "font-weight", "normal", m->bold ? "bold" : "normal");
		xmlFree(s);
		xmlFree(tr);
		break;
	}
	default:
		return 0;
	}
	/* the fill: a pattern, a colour and its opacity, or none (a text
	 * without a colour takes the colour of most text) */
	if (m->hatch != GS_HATCH_NONE) {
		char *v = eff(e, "fill", "black");

		ok = ok && pattern_is(svg, v, m) && prop_num_is(e, "fill-opacity", "1", 1.0);
		xmlFree(v);
	} else if (m->fill.a) {
		ok = ok && prop_colour_is(e, "fill", "black", m->fill) &&
		     prop_num_is(e, "fill-opacity", "1", m->fill.a / 255.0);
	} else if (m->kind == GS_MARK_TEXT) {
		ok = ok && prop_colour_is(e, "fill", "black", ink) &&
		     prop_num_is(e, "fill-opacity", "1", 1.0);
	} else {
		ok = ok && prop_is(e, "fill", "black", "none");
	}
	if (m->stroke.a)
		ok = ok && prop_colour_is(e, "stroke", "none", m->stroke) &&
		     prop_num_is(e, "stroke-width", "1", m->lw) &&
		     prop_is(e, "stroke-dasharray", "none", dash[m->dash]);
	else
		ok = ok && prop_is(e, "stroke", "none", "none");
	return ok;
}

/* The next drawing element after e in document order (into and out of a
 * <g>), or NULL. */
static xmlNodePtr next_draw(xmlNodePtr e)
{
	xmlNodePtr n = next_el(e->next);

	if (!n && is_el(e->parent, "g"))
		n = next_el(e->parent->next);
	if (is_el(n, "g"))
		n = next_el(n->children) ? next_el(n->children) : next_draw(n);
	return n;
}

/* Render l, read it back, and check every mark; returns the SVG's size. */
static size_t check_list(const char *what, const gs_chart_list *l)
{
	gs_buf out = GS_BUF_INIT, again = GS_BUF_INIT;
	xmlDocPtr doc;
	xmlNodePtr svg, e;
	size_t i, ngroups = 0;

	if (!CHECK(gs_chart_svg_render(l, &out) == 0))
		return 0;
	CHECK(gs_chart_svg_render(l, &again) == 0);
	CHECK(out.len == again.len && memcmp(out.data, again.data, out.len) == 0);
	gs_buf_release(&again);
	doc = xmlReadMemory((const char *)out.data, (int)out.len, "chart.svg", NULL,
			    XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
	if (!CHECK(doc != NULL)) {
		gs_buf_release(&out);
		return 0;
	}
	svg = xmlDocGetRootElement(doc);
	CHECK(is_el(svg, "svg"));
	CHECK(clean_tree(svg, 0));
	{
		char *role = attr(svg, "role"), *lab = attr(svg, "aria-labelledby");

		CHECK_STR(role, "img");
		CHECK_STR(lab, "title desc");
		xmlFree(role);
		xmlFree(lab);
	}
	e = next_el(svg->children);
	CHECK(is_el(e, "title"));
	e = e ? next_el(e->next) : NULL;
	CHECK(is_el(e, "desc"));
	e = e ? next_el(e->next) : NULL;
	if (is_el(e, "defs"))
		e = next_el(e->next);
	/* the white page */
	{
		char *h = e ? attr(e, "height") : NULL;

		CHECK(is_el(e, "rect") && STREQ(h, "100%"));
		xmlFree(h);
	}
	e = e ? next_draw(e) : NULL;
	for (i = 0; i < l->n; i++) {
		const gs_chart_mark *m = &l->m[i];

		if (m->kind == GS_MARK_PATH && m->np == 0)
			continue;  /* nothing to draw */
		if (!gs_check_at(e && mark_is(svg, e, l, m), __FILE__, __LINE__,
				 "%s: mark %zu (kind %d) is not drawn as listed", what, i, m->kind))
			break;
		if (is_el(e->parent, "g") && e == next_el(e->parent->children))
			ngroups++;
		e = next_draw(e);
	}
	CHECK(e == NULL);  /* nothing drawn that the list does not hold */
	printf("%-10s %4zu marks, %3zu groups, %6zu bytes\n", what, l->n, ngroups, out.len);
	xmlFreeDoc(doc);
	gs_buf_release(&out);
	return out.len;
}

/* ------------------------------------------------------------ lists */

static gs_chart_rgba rgba(uint8_t r, uint8_t g, uint8_t b, uint8_t a)
{
	gs_chart_rgba c;

	c.r = r;
	c.g = g;
	c.b = b;
	c.a = a;
	return c;
}

static gs_chart_mark *line(gs_chart_list *l, double x0, double y0, double x1, double y1,
			   gs_chart_rgba c, double lw, int dash)
{
	gs_chart_mark *m = gs_chart_list_add(l, GS_MARK_PATH);

	m->stroke = c;
	m->lw = lw;
	m->dash = (uint8_t)dash;
	gs_chart_list_pt(l, GS_OP_MOVE, x0, y0);
	gs_chart_list_pt(l, GS_OP_LINE, x1, y1);
	return &l->m[l->n - 1];
}

static gs_chart_mark *text(gs_chart_list *l, double x, double y, const char *s,
			   gs_chart_rgba c, int bold)
{
	gs_chart_mark *m = gs_chart_list_add(l, GS_MARK_TEXT);

	m->x = x;
	m->y = y;
	m->h = 12;
	m->fill = c;
	m->bold = (uint8_t)bold;
	m->s0 = gs_chart_list_str(l, s);
	return m;
}

/* The budget chart's capacity lines and their annotations: dashed lines
 * alike, then leader, sample, name and caption for each. */
static void list_budget(gs_chart_list *l)
{
	static const gs_chart_rgba dark = { 26, 26, 26, 255 }, grey = { 140, 140, 140, 255 },
				   cap = { 102, 102, 102, 255 }, white = { 255, 255, 255, 255 };
	gs_chart_mark *m;
	int i;

	l->title = gs_xstrdup("Budget & <capacities>");
	gs_chart_list_desc(l, "capacity 22.35 GiB \xc2\xb7 assumed");
	for (i = 0; i < 7; i++)
		line(l, 72, 379.32 - 40 * i, 338, 379.32 - 40 * i, dark, 2, GS_DASH_LONG);
	for (i = 0; i < 7; i++) {
		line(l, 338, 379.32 - 40 * i, 346, 380 - 30 * i, grey, 1, GS_DASH_NONE);
		line(l, 350, 376 - 30 * i, 366, 376 - 30 * i, dark, 2, GS_DASH_LONG);
		text(l, 372, 380 - 30 * i, "RTX 4090 (24 GB)", dark, 1);
		text(l, 372, 395 - 30 * i, "capacity 22.35 GiB \xc2\xb7 assumed", cap, 0);
	}
	/* a diamond in a white outline, a vertical axis title */
	m = gs_chart_list_add(l, GS_MARK_PATH);
	m->fill = dark;
	m->stroke = white;
	m->lw = 1;
	gs_chart_list_pt(l, GS_OP_MOVE, 220, 381.17);
	gs_chart_list_pt(l, GS_OP_LINE, 226, 387.17);
	gs_chart_list_pt(l, GS_OP_LINE, 220, 393.17);
	gs_chart_list_pt(l, GS_OP_LINE, 214, 387.17);
	gs_chart_list_pt(l, GS_OP_CLOSE, 0, 0);
	m = text(l, 18, 238, "Memory (GiB)", dark, 0);
	m->anchor = GS_ANCHOR_MIDDLE;
	m->vertical = 1;
}

/* A few looks, drawn in runs, so that neighbours often share values. */
static void list_random(gs_chart_list *l, size_t n)
{
	static const gs_chart_rgba pal[] = {
		{ 26, 26, 26, 255 }, { 140, 140, 140, 255 }, { 102, 102, 102, 255 },
		{ 255, 255, 255, 255 }, { 0, 114, 178, 255 }, { 230, 159, 0, 255 },
		{ 255, 255, 255, 217 }, { 224, 224, 224, 255 }, { 26, 26, 26, 128 },
		{ 213, 94, 0, 0 }
	};
	static const double lws[] = { 1, 2, 1.5, 0.75 };
	static const double sizes[] = { 12, 16, 10.5 };
	static const char *const words[] = { "S", "peak", "a & b", "<x>", "\xe2\x9c\x98 excluded" };
	gs_chart_mark look;
	size_t i, k;

	l->title = gs_xstrdup("random");
	memset(&look, 0, sizeof(look));
	for (i = 0; i < n; i++) {
		gs_chart_mark *m;
		double x = rnd(80000) / 100.0 - 10, y = rnd(60000) / 100.0 - 10;

		if (i == 0 || rnd(3) == 0) {  /* a new look */
			look.kind = (uint8_t)rnd(4);
			look.fill = pal[rnd(10)];
			look.stroke = rnd(2) ? pal[rnd(10)] : rgba(0, 0, 0, 0);
			look.lw = lws[rnd(4)];
			look.dash = (uint8_t)rnd(4);
			look.hatch = look.kind == GS_MARK_RECT && rnd(3) == 0 ? (uint8_t)(1 + rnd(2)) : 0;
			look.hatch_ink = pal[rnd(3)];
			look.anchor = (uint8_t)rnd(3);
			look.bold = (uint8_t)rnd(2);
			look.vertical = rnd(5) == 0;
			look.h = sizes[rnd(3)];
		}
		m = gs_chart_list_add(l, (enum gs_chart_mark_kind)look.kind);
		m->fill = look.fill;
		m->x = x;
		m->y = y;
		switch (look.kind) {
		case GS_MARK_RECT:
			m->hatch = look.hatch;
			m->hatch_ink = look.hatch_ink;
			m->w = rnd(30000) / 100.0;
			m->h = rnd(30000) / 100.0;
			break;
		case GS_MARK_CIRCLE:
			m->w = rnd(1000) / 100.0;
			break;
		case GS_MARK_PATH:
			/* lines along an axis, turns, closes, an empty path now and then */
			for (k = rnd(7); k > 0; k--) {
				int op = k % 5 == 1 ? GS_OP_CLOSE : rnd(4) == 0 ? GS_OP_MOVE : GS_OP_LINE;

				if (l->m[l->n - 1].np == 0)
					op = GS_OP_MOVE;
				if (rnd(2))
					y = rnd(2) ? y : y + rnd(1000) / 100.0;
				else
					x = x + rnd(1000) / 100.0 - 5;
				gs_chart_list_pt(l, (enum gs_chart_op)op, x, y);
			}
			break;
		default:
			m->anchor = look.anchor;
			m->bold = look.bold;
			m->vertical = look.vertical;
			m->h = look.h;
			m->s0 = gs_chart_list_str(l, words[rnd(5)]);
			break;
		}
		if (look.kind != GS_MARK_TEXT) {
			m->stroke = look.stroke;
			m->lw = look.lw;
			m->dash = look.dash;
		}
	}
}

/* l rendered, its bytes into *out (released first). */
static void render_into(const gs_chart_list *l, gs_buf *out)
{
	gs_buf_release(out);
	gs_buf_init(out, 0);
	CHECK(gs_chart_svg_render(l, out) == 0);
}

static int same_buf(const gs_buf *a, const gs_buf *b)
{
	return a->len == b->len && memcmp(a->data, b->data, a->len) == 0;
}

/*
 * The cache of rendered lists (chart_svg.c): lists that differ in one
 * thing only (a point by a hundredth, a text byte, a colour, the title,
 * the description, the height) each get their own SVG, before and after
 * one another, and a list rendered again gives the same bytes, from the
 * cache and after the cache has replaced it (70 other lists rendered).
 */
static void check_cache(void)
{
	enum { NV = 7 };
	gs_chart_list v[NV], other;
	gs_buf first[NV], again = GS_BUF_INIT;
	char *s;
	int i, j;

	for (i = 0; i < NV; i++) {
		gs_chart_list_init(&v[i]);
		list_budget(&v[i]);
		gs_buf_init(&first[i], 0);
	}
	v[1].pt[2].x += 0.01;
	s = v[2].str + v[2].m[v[2].n - 1].s0;
	s[0] = s[0] == 'M' ? 'N' : 'M';
	v[3].m[0].stroke.r ^= 1;
	v[4].title[0] = 'b';
	v[5].desc[0] = 'C';
	v[6].height = 451;
	for (i = 0; i < NV; i++)
		render_into(&v[i], &first[i]);
	for (i = 0; i < NV; i++)
		for (j = i + 1; j < NV; j++)
			gs_check_at(!same_buf(&first[i], &first[j]), __FILE__, __LINE__,
				    "cache: variants %d and %d gave the same SVG", i, j);
	for (i = NV - 1; i >= 0; i--) {
		render_into(&v[i], &again);
		gs_check_at(same_buf(&first[i], &again), __FILE__, __LINE__,
			    "cache: variant %d rendered again differs", i);
	}
	for (i = 0; i < 70; i++) {
		gs_chart_list_init(&other);
		list_random(&other, 1 + rnd(40));
		render_into(&other, &again);
		gs_chart_list_release(&other);
	}
	for (i = 0; i < NV; i++) {
		render_into(&v[i], &again);
		gs_check_at(same_buf(&first[i], &again), __FILE__, __LINE__,
			    "cache: variant %d rendered after 70 others differs", i);
		gs_buf_release(&first[i]);
		gs_chart_list_release(&v[i]);
	}
	gs_buf_release(&again);
}

int main(void)
{
	gs_chart_list l;
	int r;

	/* nothing drawn */
	gs_chart_list_init(&l);
	check_list("empty", &l);
	gs_chart_list_release(&l);

	gs_chart_list_init(&l);
	list_budget(&l);
	check_list("budget", &l);
	gs_chart_list_release(&l);

	for (r = 0; r < 40; r++) {
		char what[32];

		gs_chart_list_init(&l);
		list_random(&l, 1 + rnd(r < 35 ? 120 : 700));
		snprintf(what, sizeof(what), "random %d", r);
		check_list(what, &l);
		gs_chart_list_release(&l);
	}
	check_cache();
	return gs_check_exit("test_chart_svg");
}
