/*
 * site_figures: the figures of the offers the site's pages show: counts
 * per status, the matrix's and the offers page's orders, memory per card,
 * cost per GiB-day and the offers page's charts' data.
 */
#ifndef GS_SITE_FIGURES_H
#define GS_SITE_FIGURES_H

#include <stddef.h>
#include <stdint.h>
#include "catalog.h"
#include "publish.h"

/*
 * counts[k][s]: how many of the n workloads give offer k (catalog order) the
 * overall status s (0 retained, 1 pre-selected, 2 excluded); "not compared"
 * is not counted. counts has noffers rows.
 */
void gs_site_figures_offer_counts(const gs_publish_result *res, size_t n, size_t noffers,
			  size_t (*counts)[3]);
/*
 * The matrix's column order: catalog indexes sorted by memory per card
 * (device-declared, else nominal; unknown last), ties in catalog order.
 * order has cat->noffers entries.
 */
void gs_site_figures_offer_order(const gs_catalog *cat, size_t *order);
/*
 * The offers page's order: grouped by provider (byte order; offers without
 * one last), then GPU model, ties in catalog order. order has cat->noffers
 * entries.
 */
void gs_site_figures_offer_groups(const gs_catalog *cat, size_t *order);

/*
 * The offers page's charts (S_offers_page), computed from the catalog and
 * the results alone, so that a site rebuilt from results draws the same:
 *  - cost per GiB-day: one bar per plan of each offer with a price and a
 *    memory figure: price x 2^30 x 24 / (bytes per card x cards x hours),
 *    in ten-thousandths of the plan's currency, rounded half up, exact
 *    (128-bit); bars by value, ties in page order;
 *  - campaign: with a reference workload, its total cost on each offer it
 *    compares (gs_publish_result.cost, hundredths) and its verdict there;
 *    without one, each offer's cheapest hourly price per currency
 *    (price x 100 / hours, ten-thousandths, rounded half up); by memory
 *    per card (unknown last), then value, ties in page order.
 * One series per currency (currencies in byte order): amounts in different
 * currencies never share an axis. An offer without a figure is listed with
 * why (never drawn as 0).
 */
enum gs_site_why {
	GS_SITE_NO_PRICE,         /* no plan */
	GS_SITE_NO_MEMORY,        /* no memory figure: no cost per GiB */
	GS_SITE_NOT_COMPARED,     /* the reference workload does not compare it */
	GS_SITE_NO_COST           /* compared, but the reference gives no cost on it */
};

typedef struct {
	size_t offer;             /* catalog index */
	size_t plan;              /* index of the plan in the offer (campaign: its cheapest) */
	uint64_t value;           /* see above */
	unsigned char status;     /* campaign with a reference: 0 retained, 1 pre-selected, 2 excluded; else 3 */
} gs_site_point;

typedef struct {
	const char *currency;     /* borrowed from the catalog */
	gs_site_point *pts;
	size_t n;
} gs_site_series;

typedef struct {
	gs_site_series *series;   /* currencies in byte order */
	size_t nseries;
	size_t *missing;          /* catalog indexes of the offers not drawn, in page order */
	unsigned char *why;       /* enum gs_site_why, per missing offer */
	size_t nmissing;
} gs_site_chart_data;

/* Cost per GiB-day of plan p on bytes_per_card x cards: 0 and *q in
 * ten-thousandths of the plan's currency; -1 when bytes, cards or hours is 0
 * or the figure exceeds 64 bits. */
int gs_site_figures_gib_day(const gs_plan *p, uint64_t bytes_per_card, uint64_t cards, uint64_t *q);
/* Memory per card the site groups and divides by: device-declared, else
 * nominal; UINT64_MAX when unknown. */
uint64_t gs_site_figures_offer_memory(const gs_offer *o);
/* The offers offers[0..n) (catalog indexes, page order); out is filled, the
 * caller releases it. */
void gs_site_figures_gib_day_data(const gs_catalog *cat, const size_t *offers, size_t n,
			  gs_site_chart_data *out);
/* ref: the reference workload's result, or NULL (hourly prices). */
void gs_site_figures_campaign_data(const gs_catalog *cat, const size_t *offers, size_t n,
			   const gs_publish_result *ref, gs_site_chart_data *out);
void gs_site_figures_chart_data_release(gs_site_chart_data *d);

/* Memory per lot: memory per card (gs_site_figures_offer_memory) x cards;
 * UINT64_MAX when unknown or beyond 64 bits. */
uint64_t gs_site_figures_lot_memory(const gs_offer *o);
/*
 * The index matrix's columns by GPU: a column per lot of one GPU model
 * (same model, cards per lot and memory per card), in order of memory per
 * lot (unknown last), then model (byte order), cards and memory per card;
 * a column's offers in catalog order. Column c is offers order[start[c]]
 * to order[start[c + 1] - 1]. order has cat->noffers entries, start
 * cat->noffers + 1; returns the number of columns.
 */
size_t gs_site_figures_gpu_columns(const gs_catalog *cat, size_t *order, size_t *start);
/*
 * An offer's price per hour of the lot: its cheapest plan (interruptible,
 * or not) price / hours in millionths, rounded half up, in the first
 * currency (byte order) of such plans. 0, or -1 when it has no such plan.
 */
int gs_site_figures_offer_hour(const gs_offer *o, int interruptible, int64_t *micro, const char **cur);

#endif
