/*
 * site: the GPU pages, gpus/SLUG.html, one per GPU model of the catalog:
 * every offer of that model across providers and regions, by price per
 * hour (on-demand, interruptible apart), its capacity as the catalog
 * reports it with its source, and how many workloads retain, pre-select
 * or exclude it (its own page lists them); then the first page of
 * workloads against each lot of the model, as the index's cells.
 * The pages' names are site_pagekeys.c's (gs_site_pagekeys_setup).
 */
#define _DEFAULT_SOURCE
#include "site_ctx.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "html.h"
#include "outfile.h"
#include "render.h"
#include "util.h"

/* An offer's key on its GPU page: price per hour on-demand (known first, currencies in byte order), then catalog order. */
typedef struct {
	size_t k;
	int priced;
	int64_t micro;
	const char *cur;
} S_row;

static int S_by_price(const void *a, const void *b)
{
	const S_row *x = a, *y = b;
	int c;

	if (x->priced != y->priced)
		return x->priced ? -1 : 1;
	if (x->priced) {
		if ((c = strcmp(x->cur, y->cur)) != 0)
			return c;
		if (x->micro != y->micro)
			return x->micro < y->micro ? -1 : 1;
	}
	return x->k < y->k ? -1 : x->k > y->k;
}

/* A price per hour cell: the cheapest plan of that kind, or "none". */
static void S_hour_cell(gs_site_w *w, const gs_strings *t, const gs_offer *o, int interruptible)
{
	int64_t micro;
	const char *cur;
	char m[GS_FMT_MAX];

	if (gs_site_figures_offer_hour(o, interruptible, &micro, &cur)) {
		S_LIT(w, "<td>");
		gs_site_html_text(w, gs_tr(t, "site.none_plan"));
		S_LIT(w, "</td>");
		return;
	}
	gs_buf_printf(w, "<td data-cost=\"%lld\">", (long long)micro);
	gs_site_html_textf(w, "%s %s/h", gs_qty_fmt_micro(m, micro, t->lang), cur);
	S_LIT(w, "</td>");
}

/* The capacity cell: the stock the catalog reports (lots), with its source, else its availability. */
static void S_capacity_cell(gs_site_w *w, const gs_publish_env *env, const gs_offer *o)
{
	const gs_strings *t = env->t;
	const gs_availability *a = &o->availability;
	char n[GS_FMT_MAX], w1[256];

	if (a->kind != GS_AVAIL_STOCK || !a->has_stock) {
		gs_site_offers_calendar_cell(w, env, o);
		return;
	}
	gs_site_html_td(w);
	gs_site_html_textf(w, "%s %s (%s, %s)", gs_qty_fmt_int(n, a->stock, t->lang),
			   gs_tr(t, "site.lots_reported"), a->claim.source,
			   gs_catalog_claim_when(&a->claim, gs_tr(t, "claim.undated"), w1, sizeof(w1)));
	S_LIT(w, "</td>");
}

/* The workloads cell: how many retain, pre-select or exclude it, and its page. */
static void S_workloads_cell(gs_site_w *w, const gs_strings *t, const gs_offer *o,
			     const size_t counts[3])
{
	static const char *const key[3] = { "overall.retained", "overall.preselected",
					    "overall.excluded" };
	char n[GS_FMT_MAX];
	unsigned char s;

	S_LIT(w, "<td>");
	for (s = 0; s < 3; s++) {
		if (s)
			S_LIT(w, ", ");
		gs_site_html_textf(w, "%s %s %s", gs_site_nav_status_symbol(s),
				   gs_qty_fmt_int(n, counts[s], t->lang), gs_tr(t, key[s]));
	}
	S_LIT(w, "<br><a href=\"../offers/");
	gs_html_escape_str(w, o->id);
	S_LIT(w, ".html\">");
	gs_site_html_text(w, gs_tr(t, "site.offer_link"));
	S_LIT(w, "</a></td>");
}

/* The offers table: every offer of model m, by price per hour. */
static void S_offers_table(gs_site_w *w, const gs_publish_env *env, const gs_site_pagekeys *pp,
			   size_t m)
{
	const gs_strings *t = env->t;
	const gs_catalog *cat = env->cat;
	static const char *const heads[] = {
		"site.col_provider", "site.col_hour_on_demand", "site.col_hour_interruptible",
		"site.offer_title", "site.col_cards", "site.col_mem", "site.col_regions",
		"site.col_capacity", "site.col_workloads",
	};
	const char *h[sizeof(heads) / sizeof(heads[0])];
	S_row *rows = gs_xcalloc(cat->noffers + 1, sizeof(*rows));
	size_t k, n = 0, i, r;

	for (k = 0; k < cat->noffers; k++)
		if (pp->gpu_of[k] == m) {
			rows[n].k = k;
			rows[n].priced = !gs_site_figures_offer_hour(&cat->offers[k], 0, &rows[n].micro,
								     &rows[n].cur);
			n++;
		}
	qsort(rows, n, sizeof(*rows), S_by_price);
	for (i = 0; i < sizeof(heads) / sizeof(heads[0]); i++)
		h[i] = gs_tr(t, heads[i]);
	gs_site_html_table(w, gs_tr(t, "site.cap_gpu_offers"), h, sizeof(heads) / sizeof(heads[0]));
	S_LIT(w, "\n<tbody>\n");
	for (r = 0; r < n; r++) {
		const gs_offer *o = &cat->offers[rows[r].k];
		char g[GS_FMT_MAX], mem[GS_FMT_MAX];
		S_LIT(w, "<tr><th scope=\"row\">");
		gs_site_html_text(w, o->provider ? o->provider : gs_tr(t, "site.no_provider"));
		S_LIT(w, "</th>");
		/* the prices next to the provider: the first two columns, never clipped */
		S_hour_cell(w, t, o, 0);
		S_hour_cell(w, t, o, 1);
		S_LIT(w, "<td><a href=\"../offers/");
		gs_html_escape_str(w, o->id);
		S_LIT(w, ".html\"><code class=\"id\">");
		gs_site_index_id_html(w, o->id);
		S_LIT(w, "</code></a></td><td>");
		gs_site_html_text(w, gs_qty_fmt_int(g, o->cards, t->lang));
		S_LIT(w, "</td><td>");
		gs_site_html_text(w, gs_catalog_offer_memory_label(o, gs_tr(t, "word.missing"), mem,
								   sizeof(mem)));
		S_LIT(w, "</td><td>");
		for (i = 0; i < o->nregions; i++) {
			if (i)
				S_LIT(w, ", ");
			gs_site_html_text(w, o->regions[i]);
		}
		if (!o->nregions)
			gs_site_html_text(w, gs_tr(t, "word.missing"));
		S_LIT(w, "</td>");
		S_capacity_cell(w, env, o);
		S_workloads_cell(w, t, o, pp->counts[rows[r].k]);
		S_LIT(w, "</tr>\n");
	}
	S_LIT(w, "</tbody>\n</table>\n");
	free(rows);
}

/* The workloads table: the first page of workloads (loaded) against each lot of model m. */
static void S_workloads_table(gs_site_w *w, const gs_publish_env *env, const gs_site_pagekeys *pp,
			      size_t m, size_t from, size_t to)
{
	const gs_strings *t = env->t;
	const gs_catalog *cat = env->cat;
	size_t c, i, ncols = 0;
	char g[GS_FMT_MAX], mem[GS_FMT_MAX];

	S_LIT(w, "<div class=\"matrix-box\" role=\"region\" tabindex=\"0\" aria-labelledby=\"gpu-workloads\">\n");
	S_LIT(w, "<table class=\"matrix\">\n<caption id=\"gpu-workloads\">");
	gs_site_html_text(w, gs_tr(t, "site.cap_gpu_workloads"));
	S_LIT(w, "</caption>\n<thead>\n<tr><th scope=\"col\" class=\"wl\">");
	gs_site_html_text(w, gs_tr(t, "site.col_workload"));
	S_LIT(w, "</th>");
	for (c = 0; c < pp->ncolumns; c++) {
		const gs_offer *o = &cat->offers[pp->order[pp->start[c]]];
		if (pp->gpu_of[pp->order[pp->start[c]]] != m)
			continue;
		ncols++;
		S_LIT(w, "<th scope=\"col\">");
		gs_site_html_textf(w, "%s × %s %s", gs_qty_fmt_int(g, o->cards, t->lang), o->gpu_model,
				   gs_catalog_offer_memory_label(o, gs_tr(t, "word.missing"), mem,
								 sizeof(mem)));
		S_LIT(w, "</th>");
	}
	S_LIT(w, "</tr>\n</thead>\n<tbody>\n");
	for (i = from; i < to; i++) {
		const gs_publish_result *pr = gs_site_results_get(pp->rs, i);
		S_LIT(w, "<tr><th scope=\"row\" class=\"wl\"><a href=\"../sheets/");
		gs_html_escape_str(w, pr->id);
		S_LIT(w, ".html\"><code class=\"id\">");
		gs_site_index_id_html(w, pr->id);
		S_LIT(w, "</code></a></th>");
		for (c = 0; c < pp->ncolumns; c++)
			if (pp->gpu_of[pp->order[pp->start[c]]] == m)
				gs_site_index_lot_cell(w, t, cat, pr, pp->order, pp->start[c],
						       pp->start[c + 1], "../");
		S_LIT(w, "</tr>\n");
	}
	S_LIT(w, "</tbody>\n</table>\n</div>\n");
	(void)ncols;
}

static int S_gpu_page(const gs_publish_env *env, const gs_site_pagekeys *pp, size_t m, size_t n,
		      size_t shown, const char *dir, const char *nav, int demonstration,
		      gs_error *err)
{
	const gs_strings *t = env->t;
	gs_site_w w = GS_BUF_INIT;
	char *title = gs_xasprintf("%s %s", gs_tr(t, "site.gpu_title"), pp->gpu_model[m]);
	int rc;

	gs_site_html_h1(&w, title);
	gs_site_html_demo(&w, t, demonstration);
	S_offers_table(&w, env, pp, m);
	if (shown)
		S_workloads_table(&w, env, pp, m, 0, shown);
	else
		gs_site_html_para(&w, gs_tr(t, "site.empty"));
	if (shown < n) {
		char a[GS_FMT_MAX], b[GS_FMT_MAX];
		/* "The first 100 of 250 workloads; every one on the index pages:" */
		S_LIT(&w, "<p>");
		gs_site_html_textf(&w, "%s %s %s %s.", gs_tr(t, "site.gpu_first"),
				   gs_qty_fmt_int(a, shown, t->lang), gs_tr(t, "site.gpu_of"),
				   gs_qty_fmt_int(b, n, t->lang));
		S_LIT(&w, " <a href=\"../index.html\">");
		gs_site_html_text(&w, gs_tr(t, "site.index"));
		S_LIT(&w, "</a></p>\n");
	}
	S_LIT(&w, "<details class=\"help\"><summary>");
	gs_site_html_text(&w, gs_tr(t, "site.how_to_read"));
	S_LIT(&w, "</summary>\n");
	gs_site_html_para(&w, gs_tr(t, "site.gpu_help"));
	S_LIT(&w, "</details>\n");
	rc = gs_site_html_page(env, dir, pp->gpu_page[m] + 5, &w, title, nav, "../", NULL, err);
	free(title);
	return rc;
}

int gs_site_gpus_pages(const gs_publish_env *env, gs_site_pagekeys *pp, size_t n, const char *dir,
		       int demonstration, gs_error *err)
{
	char *sub = gs_xasprintf("%s/gpus", dir), *nav = gs_site_nav(env->t, "../");
	size_t shown = n < GS_SITE_PAGE_ROWS ? n : GS_SITE_PAGE_ROWS, m;
	int rc = 0;

	if (gs_outfile_mkdirs(sub)) {
		gs_error_set(err, "cannot create %s", sub);
		rc = -1;
	}
	if (!rc && shown)
		rc = gs_site_results_load(pp->rs, 0, shown, 0, err);
	for (m = 0; m < pp->ngpus && !rc; m++)
		rc = S_gpu_page(env, pp, m, n, shown, sub, nav, demonstration, err);
	free(sub);
	free(nav);
	return rc ? -1 : 0;
}
