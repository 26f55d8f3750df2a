/*
 * chart_cache: the bytes a back end rendered for a chart list, kept by the
 * list's content, for the SVG writer (chart_svg.c) and the PNG part
 * (chart_cairo.c). A site draws the same chart many times (a measurement
 * cited by several workloads, two workloads of the same sizes): in the
 * 200-workload benchmark 129 distinct SVGs of 402, 131 distinct PNGs.
 *
 * Header only, private to the chart module as chart_list.h is: the PNG
 * part calls nothing of the executable's chart files (chart_list.h), so
 * each back end compiles its own copy of these functions.
 *
 * Invariants:
 *  - the key is everything a back end reads of a list: the page height,
 *    the marks, their points and text bytes, and, for a cache made with
 *    text (the SVG's <title> and <desc>), the title and description;
 *  - a hit is compared in full, never by the hash alone: it gives the
 *    bytes rendering would;
 *  - GS_CHART_CACHE entries, replaced in turn, held until the process ends
 *    (each -j worker has its own); the caller decides what is worth
 *    keeping (gs_chart_cache_list_bytes);
 *  - marks are zeroed before they are filled (gs_chart_list_add: no stray
 *    padding); points are hashed and compared by their fields.
 */
#ifndef GS_CHART_CACHE_H
#define GS_CHART_CACHE_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "chart_list.h"
#include "hash.h"
#include "util.h"

#define GS_CHART_CACHE 64

typedef struct {
	uint64_t hash;
	gs_chart_list key;   /* m, pt, str (and title, desc) copied; n, npt, nstr, height */
	char *bytes;         /* what was rendered; NULL: an empty place */
	size_t len;
} gs_chart_cache_entry;

typedef struct {
	gs_chart_cache_entry e[GS_CHART_CACHE];
	size_t used, next;
	int with_text;       /* the title and description are part of the key */
} gs_chart_cache;

static inline const char *gs_chart_cache_str0(const char *s)
{
	return s ? s : "";
}

static inline uint64_t gs_chart_cache_hash(const gs_chart_cache *c, const gs_chart_list *l)
{
	uint64_t h = GS_HASH_INIT;
	unsigned height = gs_chart_list_height(l);
	size_t i;

	h = gs_hash_mix(h, &height, sizeof(height));
	h = gs_hash_mix(h, &l->n, sizeof(l->n));
	h = gs_hash_mix(h, l->m, l->n * sizeof(*l->m));
	for (i = 0; i < l->npt; i++) {
		double xy[2];

		xy[0] = l->pt[i].x;
		xy[1] = l->pt[i].y;
		h = gs_hash_mix(h, xy, sizeof(xy));
		h = gs_hash_mix(h, &l->pt[i].op, 1);
	}
	h = gs_hash_mix(h, l->str, l->nstr);
	if (c->with_text) {
		const char *t = gs_chart_cache_str0(l->title), *d = gs_chart_cache_str0(l->desc);
		h = gs_hash_mix(h, t, strlen(t) + 1);
		h = gs_hash_mix(h, d, strlen(d));
	}
	return h;
}

static inline int gs_chart_cache_same(const gs_chart_cache *c, const gs_chart_list *a,
				      const gs_chart_list *b)
{
	size_t i;

	if (gs_chart_list_height(a) != gs_chart_list_height(b) || a->n != b->n ||
	    a->npt != b->npt || a->nstr != b->nstr)
		return 0;
	if (c->with_text &&
	    (strcmp(gs_chart_cache_str0(a->title), gs_chart_cache_str0(b->title)) != 0 ||
	     strcmp(gs_chart_cache_str0(a->desc), gs_chart_cache_str0(b->desc)) != 0))
		return 0;
	if ((a->n && memcmp(a->m, b->m, a->n * sizeof(*a->m))) ||
	    (a->nstr && memcmp(a->str, b->str, a->nstr)))
		return 0;
	for (i = 0; i < a->npt; i++)
		if (memcmp(&a->pt[i].x, &b->pt[i].x, sizeof(double)) ||
		    memcmp(&a->pt[i].y, &b->pt[i].y, sizeof(double)) || a->pt[i].op != b->pt[i].op)
			return 0;
	return 1;
}

/* The bytes a key of l would copy. */
static inline size_t gs_chart_cache_list_bytes(const gs_chart_list *l)
{
	return l->n * sizeof(*l->m) + l->npt * sizeof(*l->pt) + l->nstr +
	       strlen(gs_chart_cache_str0(l->title)) + strlen(gs_chart_cache_str0(l->desc));
}

/* The entry kept for l (hash: gs_chart_cache_hash's), or NULL. */
static inline const gs_chart_cache_entry *gs_chart_cache_get(const gs_chart_cache *c,
							     const gs_chart_list *l, uint64_t hash)
{
	size_t i;

	for (i = 0; i < c->used; i++) {
		const gs_chart_cache_entry *e = &c->e[i];
		if (e->bytes && e->hash == hash && gs_chart_cache_same(c, &e->key, l))
			return e;
	}
	return NULL;
}

static inline void *gs_chart_cache_dup(const void *p, size_t n)
{
	void *d;

	if (!n)
		return NULL;
	d = gs_xmalloc(n);
	memcpy(d, p, n);
	return d;
}

static inline void gs_chart_cache_entry_free(gs_chart_cache_entry *e)
{
	free(e->key.m);
	free(e->key.pt);
	free(e->key.str);
	free(e->key.title);
	free(e->key.desc);
	free(e->bytes);
	memset(e, 0, sizeof(*e));
}

/* Keeps a copy of l and of the len bytes rendered for it (len > 0), in the
 * place of the oldest. */
static inline void gs_chart_cache_put(gs_chart_cache *c, const gs_chart_list *l, uint64_t hash,
				      const char *bytes, size_t len)
{
	gs_chart_cache_entry *e = &c->e[c->next];

	c->next = (c->next + 1) % GS_CHART_CACHE;
	if (c->used < GS_CHART_CACHE)
		c->used++;
	gs_chart_cache_entry_free(e);
	e->hash = hash;
	e->key.n = l->n;
	e->key.npt = l->npt;
	e->key.nstr = l->nstr;
	e->key.height = gs_chart_list_height(l);
	e->key.m = gs_chart_cache_dup(l->m, l->n * sizeof(*l->m));
	e->key.pt = gs_chart_cache_dup(l->pt, l->npt * sizeof(*l->pt));
	e->key.str = gs_chart_cache_dup(l->str, l->nstr);
	if (c->with_text) {
		e->key.title = gs_xstrdup(gs_chart_cache_str0(l->title));
		e->key.desc = gs_xstrdup(gs_chart_cache_str0(l->desc));
	}
	e->bytes = gs_chart_cache_dup(bytes, len);
	e->len = len;
}

#endif
