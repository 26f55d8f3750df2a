/* chart_list: the display list of a chart. See chart_list.h. */
#include "chart_list.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util.h"

void gs_chart_list_init(gs_chart_list *l)
{
	memset(l, 0, sizeof(*l));
}

void gs_chart_list_release(gs_chart_list *l)
{
	free(l->m);
	free(l->pt);
	free(l->str);
	free(l->title);
	free(l->desc);
	gs_chart_list_init(l);
}

/* Grow *p (n used, *cap allocated, elements of size sz) to hold one more. */
static void *S_grow(void *p, size_t n, size_t *cap, size_t sz, size_t more)
{
	size_t nc;

	if (n + more <= *cap)
		return p;
	nc = *cap ? *cap : 32;
	while (nc < n + more) {
		if (nc > ((size_t)-1) / 2 / sz)
			GS_OOM("chart display list");
		nc *= 2;
	}
	*cap = nc;
	return gs_xrealloc(p, nc * sz);
}

gs_chart_mark *gs_chart_list_add(gs_chart_list *l, enum gs_chart_mark_kind kind)
{
	gs_chart_mark *m;

	l->m = S_grow(l->m, l->n, &l->cap, sizeof(*l->m), 1);
	m = &l->m[l->n++];
	memset(m, 0, sizeof(*m));
	m->kind = (uint8_t)kind;
	m->p0 = l->npt;
	return m;
}

void gs_chart_list_pt(gs_chart_list *l, enum gs_chart_op op, double x, double y)
{
	gs_chart_pt *p;

	l->pt = S_grow(l->pt, l->npt, &l->ptcap, sizeof(*l->pt), 1);
	p = &l->pt[l->npt++];
	p->x = x;
	p->y = y;
	p->op = (uint8_t)op;
	if (l->n)
		l->m[l->n - 1].np++;
}

size_t gs_chart_list_str(gs_chart_list *l, const char *s)
{
	size_t n = strlen(s) + 1, at = l->nstr;

	l->str = S_grow(l->str, l->nstr, &l->strcap, 1, n);
	memcpy(l->str + at, s, n);
	l->nstr += n;
	return at;
}

void gs_chart_list_desc(gs_chart_list *l, const char *s)
{
	size_t n = strlen(s);

	l->desc = S_grow(l->desc, l->ndesc, &l->desccap, 1, n + 3);
	if (l->ndesc) {
		memcpy(l->desc + l->ndesc, "; ", 2);
		l->ndesc += 2;
	}
	memcpy(l->desc + l->ndesc, s, n);
	l->ndesc += n;
	l->desc[l->ndesc] = '\0';
}
