/* site: the offers pages and their charts. */
#define _DEFAULT_SOURCE
#include "site_ctx.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doc.h"
#include "outfile.h"
#include "chart.h"
#include "render.h"
#include "sheet.h"
#include "site_results.h"
#include "util.h"

/* "74.51 GiB per card", or "memory per card unknown". */
char *gs_site_offers_mem_group(const gs_strings *t, uint64_t mem)
{
	char g[GS_FMT_MAX];

	if (mem == UINT64_MAX)
		return gs_xstrdup(gs_tr(t, "site.mem_unknown"));
	return gs_xasprintf("%s %s", gs_qty_fmt_gib(g, mem, t->lang), gs_tr(t, "site.per_card"));
}

static const char *S_why_key(unsigned char why)
{
	switch (why) {
	case GS_SITE_NO_PRICE: return "site.no_price";
	case GS_SITE_NO_MEMORY: return "site.no_memory_figure";
	case GS_SITE_NOT_COMPARED: return "site.ref_not_compared";
	default: return "site.ref_no_cost";
	}
}

/* The same, leading a list under the charts. */
static const char *S_why_list_key(unsigned char why)
{
	switch (why) {
	case GS_SITE_NO_PRICE: return "site.list_no_price";
	case GS_SITE_NO_MEMORY: return "site.list_no_memory";
	case GS_SITE_NOT_COMPARED: return "site.list_not_compared";
	default: return "site.list_no_cost";
	}
}

/* "No price known: a, b." then "No memory figure, ...: c." under a chart. */
static void S_missing_para(gs_site_w *w, const gs_strings *t, const gs_catalog *cat,
			   const gs_site_chart_data *d)
{
	unsigned char y;
	size_t i;

	for (y = 0; y <= GS_SITE_NO_COST; y++) {
		int open = 0;
		for (i = 0; i < d->nmissing; i++) {
			if (d->why[i] != y)
				continue;
			if (!open++) {
				S_LIT(w, "<p>");
				gs_site_html_text(w, gs_tr(t, S_why_list_key(y)));
				S_LIT(w, ": ");
			} else {
				S_LIT(w, ", ");
			}
			gs_site_html_code(w, cat->offers[d->missing[i]].id);
		}
		if (open)
			S_LIT(w, ".</p>\n");
	}
}

/* Chart kinds on the offers page. */
enum { S_GIB_DAY, S_CAMPAIGN, S_HOURLY };

/* The SVG (and PNG) of one chart into dir, its image and PNG link into w. */
static int S_offers_chart_files(const gs_publish_env *env, gs_site_w *w, const char *dir,
				const char *stem, const char *title, gs_chart_out *o, gs_error *err)
{
	char *svg = gs_xasprintf("%s.svg", stem), *png = gs_xasprintf("%s.png", stem);
	int rc;

	rc = gs_outfile_write_atomic(dir, svg, o->svg.data, o->svg.len, err);
	if (!rc && env->png)
		rc = gs_outfile_write_atomic(dir, png, o->png.data, o->png.len, err);
	S_LIT(w, "<p><img src=\"");
	gs_doc_html_url(w, svg);
	S_LIT(w, "\" alt=\"");
	gs_site_html_text(w, title);
	S_LIT(w, "\" /></p>\n");
	if (env->png) {
		S_LIT(w, "<p>");
		gs_site_html_text(w, gs_tr(env->t, "chart.png_version"));
		S_LIT(w, " ");
		gs_site_html_a(w, png);
		gs_site_html_text(w, png);
		S_LIT(w, "</a></p>\n");
	}
	free(svg);
	free(png);
	return rc;
}

static void S_chart_words(const gs_publish_env *env, gs_chart_text *ct, const char *title,
			  const char *axis)
{
	const gs_strings *t = env->t;

	memset(ct, 0, sizeof(*ct));
	ct->flags = env->png ? GS_CHART_PNG : 0;
	ct->title = title;
	ct->axis_label = axis;
	ct->lang = t->lang;
	ct->missing = gs_tr(t, "word.missing");
	ct->retained = gs_tr(t, "overall.retained");
	ct->preselected = gs_tr(t, "overall.preselected");
	ct->excluded = gs_tr(t, "overall.excluded");
}

/* The words and figures of one kind of chart. */
typedef struct {
	int kind;                 /* S_GIB_DAY, S_CAMPAIGN, S_HOURLY */
	const char *heading;      /* label keys: the section's heading, */
	const char *title;        /* the chart's title, */
	const char *note;         /* what it shows and where its figures come from, */
	const char *col;          /* the value's column (the unit follows) */
	const char *file;         /* file name part */
	unsigned decimals;        /* of the values: 4 ten-thousandths, 2 hundredths */
} S_chart_kind;

static const S_chart_kind S_kinds[] = {
	{ S_GIB_DAY, "site.chart_gib_day", "site.chart_gib_day", "site.chart_note_gib_day",
	  "site.col_gib_day", "gib-day", 4 },
	{ S_CAMPAIGN, "site.chart_campaign", "site.chart_campaign_title",
	  "site.chart_note_campaign", "col.total_cost", "campaign", 2 },
	{ S_HOURLY, "site.chart_hourly", "site.chart_hourly_title", "site.chart_note_hourly",
	  "site.col_hourly", "hourly", 4 },
};

/*
 * The bars of series s (at most nb): labels, groups by memory per card
 * (campaign and hourly), verdict marks and words. Strings made here go to
 * own[*no] (the caller frees them).
 */
static void S_series_bars(const gs_strings *t, const gs_catalog *cat, const S_chart_kind *k,
			  const gs_site_series *s, size_t nb, gs_chart_bar *bars, char **own,
			  size_t *no)
{
	size_t j;

	for (j = 0; j < nb; j++) {
		const gs_site_point *pt = &s->pts[j];
		const gs_offer *o = &cat->offers[pt->offer];
		const gs_plan *pl = &o->plans[pt->plan];
		bars[j].value = pt->value;
		if (k->kind == S_GIB_DAY && o->nplans > 1)
			bars[j].label = own[(*no)++] = gs_xasprintf("%s (%llu h)", o->id,
								    (unsigned long long)pl->hours);
		else
			bars[j].label = o->id;
		if (k->kind != S_GIB_DAY)
			bars[j].group = own[(*no)++] = gs_site_offers_mem_group(t, gs_site_figures_offer_memory(o));
		if (k->kind == S_CAMPAIGN && pt->status < 3) {
			bars[j].mark = pt->status == 0 ? GS_BAR_RETAINED : pt->status == 1
				       ? GS_BAR_PRESELECTED : GS_BAR_EXCLUDED;
			bars[j].words = own[(*no)++] = gs_xasprintf("%s %s", gs_site_nav_status_symbol(pt->status),
								    gs_tr(t, gs_site_nav_status_key(pt->status)));
		} else if (pl->interruptible) {
			bars[j].words = gs_tr(t, "site.interruptible");
		}
	}
}

/* Memory per card in GiB, two decimals (the unit is in the header), or "missing". */
static void S_mem_cell(gs_site_w *w, const gs_strings *t, const gs_offer *o)
{
	uint64_t mem = gs_site_figures_offer_memory(o);
	char g[GS_FMT_MAX];

	gs_site_html_td(w);
	gs_site_html_text(w, mem == UINT64_MAX ? gs_tr(t, "word.missing")
		 : gs_qty_fmt_fixed2(g, mem, GS_GIB, t->lang));
	S_LIT(w, "</td>");
}

/*
 * The chart's data table: every figure of series s (all of them, also
 * beyond what the chart draws), then the offers not drawn, with why.
 */
static void S_series_table(const gs_strings *t, const gs_catalog *cat, gs_site_w *w,
			   const S_chart_kind *k, const gs_site_series *s,
			   const gs_site_chart_data *d, const gs_publish_result *ref,
			   const char *title)
{
	const char *und = gs_tr(t, "claim.undated");
	char *h[6], *capt;
	const char *hc[6];
	size_t j, rows = 0;

	h[0] = gs_xstrdup(gs_tr(t, "col.offer"));
	h[1] = gs_xasprintf("%s (GiB)", gs_tr(t, "site.col_mem"));
	h[2] = gs_xasprintf("%s (%s)", gs_tr(t, k->col), s->currency);
	h[3] = gs_xstrdup(gs_tr(t, k->kind == S_CAMPAIGN ? "site.col_verdict" : "site.col_plan"));
	h[4] = gs_xstrdup(gs_tr(t, "col.provenance"));
	h[5] = gs_xstrdup(gs_tr(t, "site.col_sources"));
	for (j = 0; j < 6; j++)
		hc[j] = h[j];
	capt = gs_xasprintf("%s: %s", gs_tr(t, "site.cap_chart_data"), title);
	gs_site_html_table(w, capt, hc, 6);
	for (j = 0; j < s->n; j++) {
		const gs_site_point *pt = &s->pts[j];
		const gs_offer *o = &cat->offers[pt->offer];
		const gs_plan *pl = &o->plans[pt->plan];
		char v[GS_FMT_MAX], w1[256];
		gs_site_html_row(w, &rows);
		gs_site_html_td(w);
		gs_site_html_code(w, o->id);
		S_LIT(w, "</td>");
		S_mem_cell(w, t, o);
		if (k->kind == S_CAMPAIGN)
			gs_qty_fmt_money(v, (int64_t)pt->value, t->lang);
		else
			gs_site_figures_fmt_q4(v, sizeof(v), pt->value, t->lang);
		gs_site_html_td(w);
		gs_site_html_text(w, v);
		S_LIT(w, "</td>");
		gs_site_html_td(w);
		if (k->kind == S_CAMPAIGN && pt->status < 3) {
			gs_site_html_text(w, gs_site_nav_status_symbol(pt->status));
			S_LIT(w, " ");
			gs_site_html_text(w, gs_tr(t, gs_site_nav_status_key(pt->status)));
		} else {
			gs_site_html_num(w, pl->hours);
			S_LIT(w, " h");
			if (pl->interruptible) {
				S_LIT(w, ", ");
				gs_site_html_text(w, gs_tr(t, "site.interruptible"));
			}
		}
		S_LIT(w, "</td>");
		gs_site_html_td(w);
		gs_site_html_text(w, gs_tr(t, k->kind == S_HOURLY ? "site.prov_catalog"
				  : "site.prov_from_catalog"));
		S_LIT(w, "</td>");
		gs_site_html_td(w);
		if (k->kind == S_CAMPAIGN) {
			gs_site_html_text(w, gs_tr(t, "site.sheet_of"));
			S_LIT(w, ": ");
			gs_site_html_text(w, ref ? ref->id : "");
		} else {
			gs_site_html_text(w, pl->claim.source);
			S_LIT(w, " (");
			gs_site_html_text(w, gs_catalog_claim_when(&pl->claim, und, w1, sizeof(w1)));
			S_LIT(w, ")");
		}
		S_LIT(w, "</td>");
	}
	for (j = 0; j < d->nmissing; j++) {
		const gs_offer *o = &cat->offers[d->missing[j]];
		gs_site_html_row(w, &rows);
		gs_site_html_td(w);
		gs_site_html_code(w, o->id);
		S_LIT(w, "</td>");
		S_mem_cell(w, t, o);
		gs_site_html_td(w);
		gs_site_html_text(w, gs_tr(t, S_why_key(d->why[j])));
		S_LIT(w, "</td>\n<td></td>\n<td></td>\n<td></td>");
	}
	gs_site_html_table_end(w, rows);
	for (j = 0; j < 6; j++)
		free(h[j]);
	free(capt);
}

/* The heading and note of a kind of chart (naming the reference workload, if any). */
static void S_chart_intro(const gs_strings *t, gs_site_w *w, const S_chart_kind *k,
			  const gs_publish_result *ref)
{
	S_LIT(w, "<h3>");
	gs_site_html_text(w, gs_tr(t, k->heading));
	S_LIT(w, "</h3>\n<p>");
	gs_site_html_text(w, gs_tr(t, k->note));
	if (ref) {
		char *link = gs_xasprintf("sheets/%s.html", ref->id);
		S_LIT(w, " ");
		gs_site_html_text(w, gs_tr(t, "site.chart_reference"));
		S_LIT(w, " ");
		gs_site_html_a(w, link);
		gs_site_html_text(w, ref->id);
		S_LIT(w, "</a> (");
		gs_site_html_text(w, ref->title);
		S_LIT(w, ").");
		free(link);
	}
	S_LIT(w, "</p>\n");
}

/*
 * One chart per currency of d, each followed by its data table (the same
 * figures in words, units in the headers), then the offers not drawn.
 */
static int S_offers_chart(const gs_publish_env *env, gs_site_w *w,
			  const char *dir, const char *prefix, int kind,
			  const gs_site_chart_data *d, const gs_publish_result *ref, gs_error *err)
{
	const gs_strings *t = env->t;
	const S_chart_kind *k = &S_kinds[kind];
	size_t i, j;
	int rc = 0;

	S_chart_intro(t, w, k, ref);
	if (!d->nseries)
		gs_site_html_para(w, gs_tr(t, "site.chart_none"));
	for (i = 0; i < d->nseries && !rc; i++) {
		const gs_site_series *s = &d->series[i];
		size_t nb = s->n < GS_CHART_MAX_BARS ? s->n : GS_CHART_MAX_BARS, no = 0;
		gs_chart_bar *bars = gs_xcalloc(nb + 1, sizeof(*bars));
		char **own = gs_xcalloc(3 * nb + 1, sizeof(*own));
		char *title, *axis, *stem;
		gs_chart_text ct;
		gs_chart_out co;

		if (ref)
			title = gs_xasprintf("%s: %s, %s", gs_tr(t, k->title), ref->id, s->currency);
		else
			title = gs_xasprintf("%s, %s", gs_tr(t, k->title), s->currency);
		if (nb < s->n) {
			char *more = gs_xasprintf("%s (%zu / %zu; %s)", title, nb, s->n,
						  gs_tr(t, "site.chart_all_in_table"));
			free(title);
			title = more;
		}
		axis = gs_xasprintf("%s (%s)", gs_tr(t, k->col), s->currency);
		S_series_bars(t, env->cat, k, s, nb, bars, own, &no);
		S_chart_words(env, &ct, title, axis);
		stem = gs_xasprintf("%s-%s-%zu", prefix, k->file, i + 1);
		if (gs_chart_bars(&ct, bars, nb, k->decimals, s->currency, &co) != 0) {
			gs_error_set(err, "cannot draw the chart %s", stem);
			rc = -1;
		} else {
			rc = S_offers_chart_files(env, w, dir, stem, title, &co, err);
			gs_chart_out_release(&co);
		}
		S_series_table(t, env->cat, w, k, s, d, ref, title);
		for (j = 0; j < no; j++)
			free(own[j]);
		free(own);
		free(bars);
		free(stem);
		free(axis);
		free(title);
	}
	S_missing_para(w, t, env->cat, d);
	return rc;
}

/* The charts of one offers page (its offers, page order), before its tables. */
static int S_offers_charts(const gs_publish_env *env, gs_site_w *w, const char *dir, size_t page,
			   const size_t *offers, size_t n, const gs_publish_result *ref,
			   gs_error *err)
{
	gs_site_chart_data d;
	char prefix[64];
	int rc;

	if (page == 0)
		snprintf(prefix, sizeof(prefix), "offers");
	else
		snprintf(prefix, sizeof(prefix), "offers-%zu", page + 1);
	S_LIT(w, "<h2>");
	gs_site_html_text(w, gs_tr(env->t, "site.charts"));
	S_LIT(w, "</h2>\n");
	gs_site_figures_gib_day_data(env->cat, offers, n, &d);
	rc = S_offers_chart(env, w, dir, prefix, S_GIB_DAY, &d, NULL, err);
	gs_site_figures_chart_data_release(&d);
	if (rc)
		return rc;
	gs_site_figures_campaign_data(env->cat, offers, n, ref, &d);
	rc = S_offers_chart(env, w, dir, prefix, ref ? S_CAMPAIGN : S_HOURLY, &d, ref,
			    err);
	gs_site_figures_chart_data_release(&d);
	return rc;
}

/* The offers table's cell of the offer: id, page link, model, provider, catalog, regions. */
static void S_offer_cell_name(gs_site_w *w, const gs_publish_env *env, const gs_offer *o)
{
	const gs_strings *t = env->t;
	const gs_catalog *cat = env->cat;

	gs_site_html_td(w);
	gs_site_html_code(w, o->id);
	gs_site_html_textf(w, " %s", o->gpu_model);
	{
		char *link = gs_xasprintf("offers/%s.html", o->id);
		S_LIT(w, " (");
		gs_site_html_a(w, link);
		gs_site_html_text(w, gs_tr(t, "site.offer_link"));
		S_LIT(w, "</a>)");
		free(link);
	}
	if (o->provider)
		gs_site_html_textf(w, " — %s", o->provider);
	if (cat->origins)
		gs_site_html_textf(w, " (%s: %s)", gs_tr(t, "site.catalog"), gs_catalog_origin(cat, o));
	if (o->nregions)
		gs_site_html_textf(w, "; %s: %zu", gs_tr(t, "site.regions"), o->nregions);
	S_LIT(w, "</td>");
}

/* The offers table's cell of the number of cards. */
static void S_offer_cell_cards(gs_site_w *w, const gs_publish_env *env, const gs_offer *o)
{
	const gs_lang lang = env->t->lang;
	char g1[GS_FMT_MAX];

	gs_site_html_td(w);
	gs_site_html_text(w, gs_qty_fmt_int(g1, o->cards, lang));
	S_LIT(w, "</td>");
}

/* The offers table's cell of the nominal memory per card (assumed). */
static void S_offer_cell_nominal(gs_site_w *w, const gs_publish_env *env, const gs_offer *o)
{
	const gs_strings *t = env->t;
	const gs_lang lang = t->lang;
	char g2[GS_FMT_MAX], mem[GS_FMT_MAX];

	gs_site_html_td(w);
	if (!o->memory_unknown)
		gs_site_html_textf(w, "%s = %s (%s)", gs_catalog_offer_memory_label(o, "", mem, sizeof(mem)),
			     gs_qty_fmt_gib(g2, o->nominal_bytes, lang), gs_tr(t, "prov.assumed"));
	else
		gs_site_html_text(w, gs_tr(t, "word.missing"));
	S_LIT(w, "</td>");
}

/* The offers table's cell of the memory per card the device declares, with its source. */
static void S_offer_cell_declared(gs_site_w *w, const gs_publish_env *env, const gs_offer *o)
{
	const gs_strings *t = env->t;
	const gs_lang lang = t->lang;
	char g1[GS_FMT_MAX], g2[GS_FMT_MAX], w1[256];
	const char *und = gs_tr(t, "claim.undated");

	gs_site_html_td(w);
	if (o->has_declared_bytes)
		gs_site_html_textf(w, "%s B = %s (%s, %s)", gs_qty_fmt_int(g1, o->declared_bytes, lang),
			     gs_qty_fmt_gib(g2, o->declared_bytes, lang), o->declared_claim.source,
			     gs_catalog_claim_when(&o->declared_claim, und, w1, sizeof(w1)));
	else
		gs_site_html_text(w, gs_tr(t, "word.missing"));
	S_LIT(w, "</td>");
}

/* The offers table's cell of the plans: hours, price and cost per GiB-day, with their sources. */
static void S_offer_cell_plans(gs_site_w *w, const gs_publish_env *env, const gs_offer *o)
{
	const gs_strings *t = env->t;
	const gs_lang lang = t->lang;
	char w1[256];
	const char *und = gs_tr(t, "claim.undated");
	uint64_t cap = o->has_declared_bytes ? o->declared_bytes
		       : !o->memory_unknown ? o->nominal_bytes : 0;
	size_t k;

	gs_site_html_td(w);
	if (!o->nplans)
		gs_site_html_text(w, gs_tr(t, "site.no_price"));
	for (k = 0; k < o->nplans; k++) {
		const gs_plan *pl = &o->plans[k];
		char m[GS_FMT_MAX], c[GS_FMT_MAX];
		gs_site_figures_cost_per_gib_day(c, sizeof(c), pl, cap, o->cards, lang);
		gs_site_html_textf(w, "%s%llu h: %s %s (%s %s %s; %s%s%s, %s)", k ? "; " : "",
			     (unsigned long long)pl->hours, gs_qty_fmt_micro(m, gs_catalog_plan_micro(pl), lang),
			     pl->currency, c, pl->currency, gs_tr(t, "site.per_gib_day"),
			     pl->interruptible ? gs_tr(t, "site.interruptible") : "",
			     pl->interruptible ? "; " : "",
			     pl->claim.source, gs_catalog_claim_when(&pl->claim, und, w1, sizeof(w1)));
	}
	S_LIT(w, "</td>");
}

/* The offers table's cell of the availability, with its source. */
void gs_site_offers_calendar_cell(gs_site_w *w, const gs_publish_env *env, const gs_offer *o)
{
	const gs_strings *t = env->t;
	char w1[256];
	const char *und = gs_tr(t, "claim.undated");
	const gs_availability *a = &o->availability;
	size_t k;

	gs_site_html_td(w);
	switch (a->kind) {
	case GS_AVAIL_WINDOW:
		gs_site_html_textf(w, "%s → %s (%s, %s)", a->from, a->to, a->claim.source, gs_catalog_claim_when(&a->claim, und, w1, sizeof(w1)));
		break;
	case GS_AVAIL_STOCK:
		gs_site_html_textf(w, "%s (%s, %s)", gs_tr(t, "site.stock"), a->claim.source, gs_catalog_claim_when(&a->claim, und, w1, sizeof(w1)));
		break;
	case GS_AVAIL_ON_REQUEST:
		gs_site_html_textf(w, "%s (%s, %s)", gs_tr(t, "site.on_request"), a->claim.source, gs_catalog_claim_when(&a->claim, und, w1, sizeof(w1)));
		break;
	case GS_AVAIL_UNAVAILABLE:
		gs_site_html_textf(w, "%s (%s, %s)", gs_tr(t, "site.unavailable"), a->claim.source, gs_catalog_claim_when(&a->claim, und, w1, sizeof(w1)));
		break;
	default:
		gs_site_html_text(w, gs_tr(t, "word.missing"));
	}
	for (k = 0; k < o->nplans; k++)
		if (o->plans[k].interruptible) {
			gs_site_html_textf(w, "; %s", gs_tr(t, "site.spot_calendar"));
			break;
		}
	S_LIT(w, "</td>");
}

/* The offers table's cell of the sources of the other figures. */
static void S_offer_cell_sources(gs_site_w *w, const gs_publish_env *env, const gs_offer *o)
{
	const gs_strings *t = env->t;
	const gs_lang lang = t->lang;
	char g1[GS_FMT_MAX], w1[256];
	const char *und = gs_tr(t, "claim.undated");
	size_t k;

	gs_site_html_td(w);
	if (!o->memory_unknown)
		gs_site_html_textf(w, "%s: %s (%s)", gs_tr(t, "site.memory_claim"), o->memory_claim.source,
			     gs_catalog_claim_when(&o->memory_claim, und, w1, sizeof(w1)));
	else
		gs_site_html_textf(w, "%s: %s", gs_tr(t, "site.memory_claim"), gs_tr(t, "word.missing"));
	if (o->nregions)
		gs_site_html_textf(w, "; %s: %s (%s)", gs_tr(t, "site.regions"), o->regions_claim.source,
			     gs_catalog_claim_when(&o->regions_claim, und, w1, sizeof(w1)));
	for (k = 0; k < o->nsoftware; k++)
		gs_site_html_textf(w, "; %s: %s (%s, %s)", gs_tr(t, "req.software"), o->software[k].name,
			     o->software[k].claim.source,
			     gs_catalog_claim_when(&o->software[k].claim, und, w1, sizeof(w1)));
	if (o->has_host_ram)
		gs_site_html_textf(w, "; RAM %s (%s, %s)", gs_qty_fmt_gib(g1, o->host_ram_bytes, lang),
			     o->host_ram_claim.source, gs_catalog_claim_when(&o->host_ram_claim, und, w1, sizeof(w1)));
	if (o->interconnect)
		gs_site_html_textf(w, "; %s (%s, %s)", o->interconnect, o->interconnect_claim.source,
			     gs_catalog_claim_when(&o->interconnect_claim, und, w1, sizeof(w1)));
	S_LIT(w, "</td>");
}

/* The top of offers page page: its heading, intro, pager and charts. 0, or -1
 * with a message in err. */
static int S_offers_page_top(gs_site_w *w, const gs_publish_env *env, const char *dir,
			     int demonstration, const size_t *order, size_t page, size_t npages,
			     const gs_publish_result *ref, gs_error *err)
{
	const gs_strings *t = env->t;
	const gs_catalog *cat = env->cat;

	gs_site_html_h1(w, gs_tr(t, "site.offers"));
	gs_site_html_demo(w, t, demonstration);
	S_LIT(w, "<p>");
	gs_site_html_text(w, gs_tr(t, "site.offers_intro"));
	S_LIT(w, " ");
	gs_site_html_code(w, env->catalog_name);
	S_LIT(w, "</p>\n");
	gs_site_html_pager(w, gs_tr(t, "site.page"), page, npages, gs_site_nav_offer_page, 0, NULL);
	{
		size_t from = page * GS_SITE_PAGE_OFFERS, to = from + GS_SITE_PAGE_OFFERS;
		if (to > cat->noffers)
			to = cat->noffers;
		if (S_offers_charts(env, w, dir, page, order + from, to - from, ref, err)) {
			return -1;
		}
	}
	return 0;
}

static int S_offers_page(const gs_publish_env *env, const char *dir, const char *nav,
			 int demonstration, const size_t *order, size_t page, size_t npages,
			 const gs_publish_result *ref, gs_error *err)
{
	const gs_strings *t = env->t;
	const gs_catalog *cat = env->cat;
	gs_site_w w = GS_BUF_INIT;
	const char *h[7];
	size_t i, rows = 0;
	int tb = 0;

	if (S_offers_page_top(&w, env, dir, demonstration, order, page, npages, ref, err)) {
		gs_buf_release(&w);
		return -1;
	}
	h[0] = gs_tr(t, "col.offer");
	h[1] = gs_tr(t, "site.col_cards");
	h[2] = gs_tr(t, "site.col_nominal");
	h[3] = gs_tr(t, "site.col_declared");
	h[4] = gs_tr(t, "site.col_plans");
	h[5] = gs_tr(t, "req.calendar");
	h[6] = gs_tr(t, "site.col_sources");
	for (i = page * GS_SITE_PAGE_OFFERS; i < cat->noffers && i < (page + 1) * GS_SITE_PAGE_OFFERS; i++) {
		const gs_offer *o = &cat->offers[order[i]];

		/* A heading and a table per provider and GPU model. */
		if (!tb || !gs_site_figures_same_group(o, &cat->offers[order[i - 1]])) {
			char *head = gs_xasprintf("%s — %s", o->provider ? o->provider
						  : gs_tr(t, "site.no_provider"), o->gpu_model);
			char *capt = gs_xasprintf("%s: %s", gs_tr(t, "site.cap_offers"), head);
			if (tb)
				gs_site_html_table_end(&w, rows);
			S_LIT(&w, "<h2>");
			gs_site_html_text(&w, head);
			S_LIT(&w, "</h2>\n");
			gs_site_html_table(&w, capt, h, 7);
			tb = 1;
			rows = 0;
			free(head);
			free(capt);
		}
		gs_site_html_row(&w, &rows);
		S_offer_cell_name(&w, env, o);
		S_offer_cell_cards(&w, env, o);
		S_offer_cell_nominal(&w, env, o);
		S_offer_cell_declared(&w, env, o);
		S_offer_cell_plans(&w, env, o);
		gs_site_offers_calendar_cell(&w, env, o);
		S_offer_cell_sources(&w, env, o);
	}
	if (tb)
		gs_site_html_table_end(&w, rows);
	gs_site_html_para(&w, gs_tr(t, "site.offers_note"));
	{
		char name[64];
		gs_site_nav_offers_name(name, sizeof(name), page);
		return gs_site_html_page(env, dir, name, &w, gs_tr(t, "site.offers"), nav, "", NULL, err);
	}
}


/*
 * The catalog, GS_SITE_PAGE_OFFERS offers a page, each page with its charts
 * (from the catalog and the results alone; env->reference: the workload id
 * of the campaign chart, or NULL).
 */
int gs_site_offers_pages(const gs_publish_env *env, gs_site_results *rs, size_t nres,
			 const char *dir, const char *nav, int demonstration, gs_error *err)
{
	const char *reference = env->reference;
	size_t n = env->cat->noffers;
	size_t npages = n ? (n + GS_SITE_PAGE_OFFERS - 1) / GS_SITE_PAGE_OFFERS : 1, page, i;
	size_t *order;
	const gs_publish_result *ref = NULL;
	int rc = 0;

	for (i = 0; reference && i < nres; i++)
		if (strcmp(gs_site_results_id(rs, i), reference) == 0)
			break;
	if (reference && i == nres) {
		gs_error_set(err, "--reference '%s': no workload of the site has this id", reference);
		return -1;
	}
	if (reference) {
		/* the one result these pages show, read back */
		if (gs_site_results_load(rs, i, i + 1, 0, err))
			return -1;
		ref = gs_site_results_get(rs, i);
	}
	order = gs_xcalloc(n + 1, sizeof(*order));
	gs_site_figures_offer_groups(env->cat, order);
	for (page = 0; page < npages && !rc; page++)
		rc = S_offers_page(env, dir, nav, demonstration, order, page, npages, ref, err);
	free(order);
	return rc ? -1 : 0;
}
