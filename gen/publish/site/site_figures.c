/* site: the figures of the offers: memory, order, groups, cost per GiB-day, the charts' data. */
#define _DEFAULT_SOURCE
#include "site_ctx.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chart.h"
#include "render.h"
#include "sheet.h"
#include "site_results.h"
#include "util.h"

/*** the matrix ***/

void gs_site_figures_offer_counts(const gs_publish_result *res, size_t n, size_t noffers,
			  size_t (*counts)[3])
{
	size_t i, k;

	memset(counts, 0, noffers * sizeof(*counts));
	for (i = 0; i < n; i++)
		for (k = 0; k < noffers && k < res[i].noffers; k++)
			if (res[i].status[k] < 3)
				counts[k][res[i].status[k]]++;
}

/* Capacity per card the matrix groups offers by: declared, else nominal; unknown last. */
uint64_t gs_site_figures_offer_memory(const gs_offer *o)
{
	return o->has_declared_bytes ? o->declared_bytes : !o->memory_unknown ? o->nominal_bytes
										 : UINT64_MAX;
}

typedef struct {
	uint64_t mem;
	size_t k;
} S_memkey;

static int S_by_memory(const void *a, const void *b)
{
	const S_memkey *x = a, *y = b;

	if (x->mem != y->mem)
		return x->mem < y->mem ? -1 : 1;
	return x->k < y->k ? -1 : x->k > y->k;
}

void gs_site_figures_offer_order(const gs_catalog *cat, size_t *order)
{
	S_memkey *keys = gs_xcalloc(cat->noffers + 1, sizeof(*keys));
	size_t k;

	for (k = 0; k < cat->noffers; k++) {
		keys[k].mem = gs_site_figures_offer_memory(&cat->offers[k]);
		keys[k].k = k;
	}
	qsort(keys, cat->noffers, sizeof(*keys), S_by_memory);
	for (k = 0; k < cat->noffers; k++)
		order[k] = keys[k].k;
	free(keys);
}

int gs_site_figures_gib_day(const gs_plan *p, uint64_t bytes_per_card, uint64_t cards, uint64_t *q)
{
	/* price x 2^30 x 24 / (bytes x cards x hours), in ten-thousandths:
	 * millionths x 2^30 x 24 / (bytes x cards x hours x 100), half up */
	unsigned __int128 num, den, r;
	int64_t micro = gs_catalog_plan_micro(p);

	if (micro < 0)
		return -1;
	num = (unsigned __int128)(uint64_t)micro * GS_GIB * 24u;
	den = (unsigned __int128)bytes_per_card * cards * p->hours * 100u;
	if (!den)
		return -1;
	r = (num + den / 2) / den;
	if (r > UINT64_MAX)
		return -1;
	*q = (uint64_t)r;
	return 0;
}

/* v ten-thousandths with four decimals: "0.7030", "0,7030". */
char *gs_site_figures_fmt_q4(char *buf, size_t len, uint64_t v, gs_lang lang)
{
	char whole[GS_FMT_MAX];

	gs_qty_fmt_int(whole, v / 10000u, lang);
	if (snprintf(buf, len, "%s%c%04u", whole, lang == GS_LANG_ES ? ',' : '.',
		     (unsigned)(v % 10000u)) >= (int)len)
		snprintf(buf, len, "?");
	return buf;
}

/* price per GiB and day, four decimals (gs_site_figures_gib_day), or "?". */
void gs_site_figures_cost_per_gib_day(char *buf, size_t len, const gs_plan *p, uint64_t bytes,
			      uint64_t cards, gs_lang lang)
{
	uint64_t q;

	if (gs_site_figures_gib_day(p, bytes, cards, &q))
		snprintf(buf, len, "?");
	else
		gs_site_figures_fmt_q4(buf, len, q, lang);
}

typedef struct {
	const gs_offer *o;
	size_t k;
} S_groupkey;

static int S_by_group(const void *a, const void *b)
{
	const S_groupkey *x = a, *y = b;
	int c;

	/* Offers without a provider (reference entries) after those with one. */
	if (!x->o->provider != !y->o->provider)
		return x->o->provider ? -1 : 1;
	if (x->o->provider && (c = strcmp(x->o->provider, y->o->provider)) != 0)
		return c;
	if ((c = strcmp(x->o->gpu_model, y->o->gpu_model)) != 0)
		return c;
	return x->k < y->k ? -1 : x->k > y->k;
}

void gs_site_figures_offer_groups(const gs_catalog *cat, size_t *order)
{
	S_groupkey *keys = gs_xcalloc(cat->noffers + 1, sizeof(*keys));
	size_t k;

	for (k = 0; k < cat->noffers; k++) {
		keys[k].o = &cat->offers[k];
		keys[k].k = k;
	}
	qsort(keys, cat->noffers, sizeof(*keys), S_by_group);
	for (k = 0; k < cat->noffers; k++)
		order[k] = keys[k].k;
	free(keys);
}

/* Same provider (both NULL counts as same) and same GPU model. */
int gs_site_figures_same_group(const gs_offer *a, const gs_offer *b)
{
	if (!a->provider != !b->provider)
		return 0;
	if (a->provider && strcmp(a->provider, b->provider) != 0)
		return 0;
	return strcmp(a->gpu_model, b->gpu_model) == 0;
}

/*** the offers page's charts ***/

void gs_site_figures_chart_data_release(gs_site_chart_data *d)
{
	size_t i;

	for (i = 0; i < d->nseries; i++)
		free(d->series[i].pts);
	free(d->series);
	free(d->missing);
	free(d->why);
	memset(d, 0, sizeof(*d));
}

static void S_missing(gs_site_chart_data *d, size_t k, enum gs_site_why why, size_t cap)
{
	if (!d->missing) {
		d->missing = gs_xcalloc(cap + 1, sizeof(*d->missing));
		d->why = gs_xcalloc(cap + 1, 1);
	}
	d->missing[d->nmissing] = k;
	d->why[d->nmissing++] = (unsigned char)why;
}

/* The series of currency cur (created in byte order of currencies); room for cap points. */
static gs_site_series *S_series(gs_site_chart_data *d, const char *cur, size_t cap)
{
	size_t i, j;

	for (i = 0; i < d->nseries; i++) {
		int c = strcmp(d->series[i].currency, cur);
		if (c == 0)
			return &d->series[i];
		if (c > 0)
			break;
	}
	d->series = gs_xrealloc(d->series, (d->nseries + 1) * sizeof(*d->series));
	for (j = d->nseries; j > i; j--)
		d->series[j] = d->series[j - 1];
	d->nseries++;
	d->series[i].currency = cur;
	d->series[i].pts = gs_xcalloc(cap + 1, sizeof(*d->series[i].pts));
	d->series[i].n = 0;
	return &d->series[i];
}

typedef struct {
	gs_site_point p;
	uint64_t mem;             /* 0 for the cost per GiB-day: order by value alone */
	size_t pos;               /* order of arrival (page order) */
} S_sortpt;

static int S_by_mem_value(const void *a, const void *b)
{
	const S_sortpt *x = a, *y = b;

	if (x->mem != y->mem)
		return x->mem < y->mem ? -1 : 1;
	if (x->p.value != y->p.value)
		return x->p.value < y->p.value ? -1 : 1;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

/* Sort each series' points (memory, then value, then arrival). */
static void S_series_sort(gs_site_chart_data *d, const gs_catalog *cat, int by_memory)
{
	size_t i, j;

	for (i = 0; i < d->nseries; i++) {
		gs_site_series *s = &d->series[i];
		S_sortpt *v = gs_xcalloc(s->n + 1, sizeof(*v));
		for (j = 0; j < s->n; j++) {
			v[j].p = s->pts[j];
			v[j].mem = by_memory ? gs_site_figures_offer_memory(&cat->offers[s->pts[j].offer]) : 0;
			v[j].pos = j;
		}
		qsort(v, s->n, sizeof(*v), S_by_mem_value);
		for (j = 0; j < s->n; j++)
			s->pts[j] = v[j].p;
		free(v);
	}
}

void gs_site_figures_gib_day_data(const gs_catalog *cat, const size_t *offers, size_t n,
			  gs_site_chart_data *out)
{
	size_t i, p, nplans = 0;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < n; i++)
		nplans += cat->offers[offers[i]].nplans;
	for (i = 0; i < n; i++) {
		const gs_offer *o = &cat->offers[offers[i]];
		uint64_t mem = gs_site_figures_offer_memory(o);
		if (!o->nplans) {
			S_missing(out, offers[i], GS_SITE_NO_PRICE, n);
			continue;
		}
		if (mem == UINT64_MAX) {
			S_missing(out, offers[i], GS_SITE_NO_MEMORY, n);
			continue;
		}
		for (p = 0; p < o->nplans; p++) {
			gs_site_series *s;
			uint64_t q;
			if (gs_site_figures_gib_day(&o->plans[p], mem, o->cards, &q))
				continue;  /* zero hours or cards: refused by the catalog reader */
			s = S_series(out, o->plans[p].currency, nplans);
			s->pts[s->n].offer = offers[i];
			s->pts[s->n].plan = p;
			s->pts[s->n].value = q;
			s->pts[s->n++].status = 3;
		}
	}
	S_series_sort(out, cat, 0);
}

void gs_site_figures_campaign_data(const gs_catalog *cat, const size_t *offers, size_t n,
			   const gs_publish_result *ref, gs_site_chart_data *out)
{
	size_t i, p, nplans = 0;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < n; i++)
		nplans += cat->offers[offers[i]].nplans + 1;
	for (i = 0; i < n; i++) {
		size_t k = offers[i];
		const gs_offer *o = &cat->offers[k];
		gs_site_series *s;
		if (ref) {
			unsigned st = k < ref->noffers ? ref->status[k] : 3;
			if (st == 4) {
				/* a reference card: no priced plan, or no provider */
				S_missing(out, k, o->nplans ? GS_SITE_NO_COST : GS_SITE_NO_PRICE, n);
				continue;
			}
			if (st > 2) {
				S_missing(out, k, GS_SITE_NOT_COMPARED, n);
				continue;
			}
			if (!ref->currency || !ref->cost || !ref->currency[k] || ref->cost[k] < 0) {
				S_missing(out, k, o->nplans ? GS_SITE_NO_COST : GS_SITE_NO_PRICE, n);
				continue;
			}
			s = S_series(out, ref->currency[k], nplans);
			s->pts[s->n].offer = k;
			s->pts[s->n].plan = 0;
			s->pts[s->n].value = (uint64_t)ref->cost[k];
			s->pts[s->n++].status = (unsigned char)st;
			continue;
		}
		if (!o->nplans) {
			S_missing(out, k, GS_SITE_NO_PRICE, n);
			continue;
		}
		/* the cheapest hourly price per currency: price x 100 / hours, half up */
		for (p = 0; p < o->nplans; p++) {
			const gs_plan *pl = &o->plans[p];
			unsigned __int128 r;
			uint64_t v;
			size_t j;
			if (!pl->hours || gs_catalog_plan_micro(pl) < 0)
				continue;
			/* ten-thousandths per hour: millionths / 100 / hours, half up */
			r = ((unsigned __int128)(uint64_t)gs_catalog_plan_micro(pl) + (unsigned __int128)pl->hours * 50u) /
			    ((unsigned __int128)pl->hours * 100u);
			if (r > UINT64_MAX / 4)
				continue;  /* beyond what a chart draws; the table still gives the plan */
			v = (uint64_t)r;
			s = S_series(out, pl->currency, nplans);
			for (j = 0; j < s->n && s->pts[j].offer != k; j++)
				;
			if (j < s->n) {
				if (v < s->pts[j].value) {
					s->pts[j].value = v;
					s->pts[j].plan = p;
				}
				continue;
			}
			s->pts[s->n].offer = k;
			s->pts[s->n].plan = p;
			s->pts[s->n].value = v;
			s->pts[s->n++].status = 3;
		}
	}
	S_series_sort(out, cat, 1);
}

/*** the matrix's GPU columns ***/

uint64_t gs_site_figures_lot_memory(const gs_offer *o)
{
	uint64_t m = gs_site_figures_offer_memory(o);

	if (m == UINT64_MAX || !o->cards || m > (UINT64_MAX - 1) / o->cards)
		return UINT64_MAX;
	return m * o->cards;
}

typedef struct {
	uint64_t lot, card, cards;
	const char *model;
	size_t k;
} S_lotkey;

static int S_lot_cmp(const S_lotkey *x, const S_lotkey *y)
{
	int c;

	if (x->lot != y->lot)
		return x->lot < y->lot ? -1 : 1;
	if ((c = strcmp(x->model, y->model)) != 0)
		return c;
	if (x->cards != y->cards)
		return x->cards < y->cards ? -1 : 1;
	if (x->card != y->card)
		return x->card < y->card ? -1 : 1;
	return 0;
}

static int S_by_lot(const void *a, const void *b)
{
	const S_lotkey *x = a, *y = b;
	int c = S_lot_cmp(x, y);

	if (c)
		return c;
	return x->k < y->k ? -1 : x->k > y->k;
}

size_t gs_site_figures_gpu_columns(const gs_catalog *cat, size_t *order, size_t *start)
{
	S_lotkey *keys = gs_xcalloc(cat->noffers + 1, sizeof(*keys));
	size_t k, nc = 0;

	for (k = 0; k < cat->noffers; k++) {
		const gs_offer *o = &cat->offers[k];
		keys[k].lot = gs_site_figures_lot_memory(o);
		keys[k].card = gs_site_figures_offer_memory(o);
		keys[k].cards = o->cards;
		keys[k].model = o->gpu_model ? o->gpu_model : "";
		keys[k].k = k;
	}
	qsort(keys, cat->noffers, sizeof(*keys), S_by_lot);
	for (k = 0; k < cat->noffers; k++) {
		if (!k || S_lot_cmp(&keys[k - 1], &keys[k]) != 0)
			start[nc++] = k;
		order[k] = keys[k].k;
	}
	start[nc] = cat->noffers;
	free(keys);
	return nc;
}

int gs_site_figures_offer_hour(const gs_offer *o, int interruptible, int64_t *micro, const char **cur)
{
	const char *best_cur = NULL;
	uint64_t best = 0;
	size_t p;

	for (p = 0; p < o->nplans; p++) {
		const gs_plan *pl = &o->plans[p];
		int64_t m = gs_catalog_plan_micro(pl);
		unsigned __int128 v;
		int c;
		if (!pl->hours || m < 0 || !pl->currency || !pl->interruptible != !interruptible)
			continue;
		/* millionths per hour of the lot, rounded half up */
		v = ((unsigned __int128)(uint64_t)m + pl->hours / 2) / pl->hours;
		if (v > INT64_MAX)
			continue;
		c = best_cur ? strcmp(pl->currency, best_cur) : -1;
		if (c < 0 || (c == 0 && (uint64_t)v < best)) {
			best_cur = pl->currency;
			best = (uint64_t)v;
		}
	}
	if (!best_cur)
		return -1;
	*micro = (int64_t)best;
	*cur = best_cur;
	return 0;
}
