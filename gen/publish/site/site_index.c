/* site: the index pages: the workload x offer matrix. */
#define _DEFAULT_SOURCE
#include "site_ctx.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "html.h"
#include "outfile.h"
#include "render.h"
#include "sheet.h"
#include "site_results.h"
#include "util.h"

/* A short title: at most GS_SITE_SHORT_TITLE bytes, cut on a character boundary. */
char *gs_site_index_short_title(const char *title, int *cut)
{
	size_t n = strlen(title), k;

	*cut = n > GS_SITE_SHORT_TITLE;
	if (!*cut)
		return gs_xstrdup(title);
	k = GS_SITE_SHORT_TITLE;
	while (k > 0 && ((unsigned char)title[k] & 0xC0) == 0x80)
		k--;
	return gs_xasprintf("%.*s…", (int)k, title);
}

/* (strlen of a literal is folded by the compiler: no scan) */
#define H(s) gs_buf_puts(w, (s))
#define E(s) gs_html_escape_str(w, (s))


/* "1,234.00 USD (assumed)" or nothing when no plan is known. */
static void S_cost_html(gs_buf *o, const gs_strings *t, const gs_publish_result *pr, size_t k)
{
	char m[GS_FMT_MAX];

	if (!pr->currency[k])
		return;
	S_LIT(o, "<span class=\"cost\">");
	gs_html_escape_str(o, gs_qty_fmt_money(m, pr->cost[k], t->lang));
	S_LIT(o, " ");
	gs_html_escape_str(o, pr->currency[k]);
	S_LIT(o, "</span>");
}

/* The best-offer cell: the first retained and its cost, else the closest pre-selected and what it needs. */
static void S_best_html(gs_buf *o, const gs_strings *t,
			const gs_catalog *cat, const gs_publish_result *pr, const char *link)
{
	const char *id;
	int q, k = 0;

	if (pr->best == GS_PUBLISH_NO_BEST || pr->best >= cat->noffers) {
		gs_html_escape_str(o, gs_tr(t, "card.no_offer"));
		return;
	}
	id = cat->offers[pr->best].id;
	gs_buf_puts(o, "<a href=\"");
	gs_html_escape_str(o, link);
	gs_buf_puts(o, "#offer-");
	gs_html_escape_str(o, id);
	gs_buf_puts(o, "\"><code>");
	gs_html_escape_str(o, id);
	gs_buf_puts(o, "</code></a> ");
	gs_html_escape_str(o, gs_site_nav_status_symbol(pr->status[pr->best]));
	gs_buf_puts(o, " ");
	gs_html_escape_str(o, gs_tr(t, gs_site_nav_status_key(pr->status[pr->best])));
	/* provider, lot and price per hour: what a reader compares */
	gs_buf_puts(o, "<br>");
	gs_html_escape_str(o, cat->offers[pr->best].provider ? cat->offers[pr->best].provider : "");
	gs_buf_printf(o, ", %llu \xc3\x97 ", (unsigned long long)cat->offers[pr->best].cards);
	gs_html_escape_str(o, cat->offers[pr->best].gpu_model);
	if (pr->best_hour_currency) {
		char m[GS_FMT_MAX];
		gs_buf_puts(o, " \xe2\x80\x94 <span class=\"hour\">");
		gs_html_escape_str(o, gs_qty_fmt_micro(m, pr->best_hour, t->lang));
		gs_buf_puts(o, " ");
		gs_html_escape_str(o, pr->best_hour_currency);
		gs_buf_puts(o, "/h</span> ");
		gs_html_escape_str(o, gs_tr(t, pr->best_hour_interruptible ? "price.interruptible"
							      : "price.on_demand"));
		gs_buf_puts(o, " (");
		gs_html_escape_str(o, gs_tr(t, "prov.calculated"));
		gs_buf_puts(o, ")");
	}
	/* the campaign's total only where the workload states a campaign */
	if (pr->currency[pr->best]) {
		gs_buf_puts(o, "<br>");
		gs_html_escape_str(o, gs_tr(t, "col.total_cost"));
		gs_buf_puts(o, ": ");
		S_cost_html(o, t, pr, pr->best);
		gs_buf_puts(o, " (");
		gs_html_escape_str(o, gs_tr(t, "prov.assumed"));
		gs_buf_puts(o, ")");
	}
	if (!pr->best_missing)
		return;
	gs_buf_puts(o, "<br>");
	gs_html_escape_str(o, gs_tr(t, "site.still_needs"));
	gs_buf_puts(o, " ");
	for (q = 0; q < GS_REQ_COUNT; q++)
		if (pr->best_missing & (1u << q)) {
			if (k++)
				gs_buf_puts(o, ", ");
			gs_html_escape_str(o, gs_sheet_words_req_label(t, (gs_req)q));
		}
}

/* For matrix.js: data-l-NAME (attribute) = label key. */
static const char *const S_js_labels[][2] = {
	{ "all", "site.js_all" }, { "decision", "site.col_decision" },
	{ "filter", "site.js_filter" }, { "mem", "site.js_min_mem" },
	{ "none", "site.none" }, { "preselected", "site.preselection" },
	{ "retained", "site.retained" }, { "shown", "site.js_shown" },
	{ "sort", "site.js_sort" }, { "text", "site.js_text" },
};

/*
 * What matrix.js sorts by: an offer's cell <td class="vS"> (the verdict,
 * also its colour: no other attribute repeats it on every cell), the best
 * offer's <td class="best" data-v="S">; data-cost="HUNDREDTHS" when known.
 */
static void S_td_open(gs_buf *o, int best, unsigned st, const gs_publish_result *pr, size_t k)
{
	char d[GS_DEC_MAX], *p;

	if (best) {
		S_LIT(o, "<td class=\"best\" data-v=\"");
		p = gs_dec(d, st, 0);
		gs_buf_put(o, p, (size_t)(d + GS_DEC_MAX - p));
		S_LIT(o, "\"");
	} else {
		char v[14] = "<td class=\"vS\"";
		v[12] = (char)('0' + (st <= 4 ? st : 3));
		gs_buf_put(o, v, 14);
	}
	if (k < pr->noffers && pr->currency[k]) {
		int64_t v = pr->cost[k];
		uint64_t mag = gs_i64_mag(v);
		S_LIT(o, " data-cost=\"");
		p = gs_dec(d, mag, v < 0);
		gs_buf_put(o, p, (size_t)(d + GS_DEC_MAX - p));
		S_LIT(o, "\"");
	}
	S_LIT(o, ">");
}

/*
 * The matrix of one index page as HTML built here (every user string
 * escaped): a table in its own scrolling box, sticky header row and first
 * column, a best-offer column and a footer row per verdict with how many
 * workloads each offer gets.
 */
/* The matrix's columns shown: columns [c0, c1) of order and start (gs_site_figures_matrix_columns). */
typedef struct {
	const size_t *order, *start;
	size_t c0, c1;
} S_cols;

/* The first offer of column j (of those shown) and its number of offers. */
#define S_FIRST(cl, j) ((cl)->order[(cl)->start[(cl)->c0 + (j)]])
#define S_NOF(cl, j) ((cl)->start[(cl)->c0 + (j) + 1] - (cl)->start[(cl)->c0 + (j)])

/* "0.3698–0.4689 USD/h": the range of a group's hourly prices (each plan's
 * price / its hours, millionths, rounded half up), when all its plans are
 * in one currency; nothing otherwise. */
static void S_group_prices(gs_buf *o, const gs_strings *t,
			   const gs_catalog *cat, const S_cols *cl, size_t j)
{
	const char *cur = NULL;
	int64_t lo = INT64_MAX, hi = INT64_MIN;
	size_t i, p;
	char a[GS_FMT_MAX], b[GS_FMT_MAX];

	for (i = cl->start[cl->c0 + j]; i < cl->start[cl->c0 + j + 1]; i++) {
		const gs_offer *of = &cat->offers[cl->order[i]];
		for (p = 0; p < of->nplans; p++) {
			const gs_plan *pl = &of->plans[p];
			int64_t m = gs_catalog_plan_micro(pl), v;
			if (!pl->hours || m < 0 || !pl->currency)
				return;
			if (cur && strcmp(cur, pl->currency) != 0)
				return;
			cur = pl->currency;
			v = (int64_t)(((uint64_t)m + pl->hours / 2) / pl->hours);
			if (v < lo)
				lo = v;
			if (v > hi)
				hi = v;
		}
	}
	if (!cur)
		return;
	S_LIT(o, " · ");
	gs_html_escape_str(o, gs_qty_fmt_micro(a, lo, t->lang));
	if (hi != lo) {
		S_LIT(o, "–");
		gs_html_escape_str(o, gs_qty_fmt_micro(b, hi, t->lang));
	}
	S_LIT(o, " ");
	gs_html_escape_str(o, cur);
	S_LIT(o, "/h");
}

/* How many of a group's offers its head links to their pages; the others through the offers page. */
#define S_FEW_OFFERS 3

/* The matrix's box, its caption, and its heading rows: the memory groups
 * above the columns (an offer, or a group of equivalent offers). */
static void S_matrix_head(gs_site_w *w, const gs_strings *t, const gs_catalog *cat,
			  const S_cols *cl)
{
	size_t j, g, ncols = cl->c1 - cl->c0;

	H("<div class=\"matrix-box\" role=\"region\" tabindex=\"0\" aria-labelledby=\"matrix-caption\">\n");
	/* Labels of matrix.js's controls, in the page's language. */
	H("<table class=\"matrix\" id=\"matrix\"");
	for (j = 0; j < sizeof(S_js_labels) / sizeof(S_js_labels[0]); j++) {
		H(" data-l-");
		H(S_js_labels[j][0]);
		H("=\"");
		E(gs_tr(t, S_js_labels[j][1]));
		H("\"");
	}
	H(">\n<caption id=\"matrix-caption\">");
	E(gs_tr(t, "site.cap_matrix"));
	H("</caption>\n");
	/*
	 * Columns grouped by memory per card (they come in that order): a
	 * <colgroup> and a heading cell (scope="colgroup") per group above the
	 * columns' row; the workload and best-offer headings span both rows.
	 */
	H("<colgroup span=\"2\"></colgroup>");
	for (j = 0; j < ncols; j = g) {
		char b[64];
		for (g = j + 1; g < ncols && gs_site_figures_offer_memory(&cat->offers[S_FIRST(cl, g)]) ==
					      gs_site_figures_offer_memory(&cat->offers[S_FIRST(cl, j)]); g++)
			;
		snprintf(b, sizeof(b), "<colgroup span=\"%zu\"></colgroup>", g - j);
		H(b);
	}
	H("\n<thead>\n<tr class=\"groups\"><th scope=\"col\" rowspan=\"2\" class=\"wl\">");
	E(gs_tr(t, "site.col_workload"));
	H("</th><th scope=\"col\" rowspan=\"2\" class=\"best\">");
	E(gs_tr(t, "site.col_best"));
	H("</th>");
	for (j = 0; j < ncols; j = g) {
		char b[96], *label;
		for (g = j + 1; g < ncols && gs_site_figures_offer_memory(&cat->offers[S_FIRST(cl, g)]) ==
					      gs_site_figures_offer_memory(&cat->offers[S_FIRST(cl, j)]); g++)
			;
		snprintf(b, sizeof(b), "<th scope=\"colgroup\" colspan=\"%zu\" class=\"group\">",
			 g - j);
		H(b);
		label = gs_site_offers_mem_group(t, gs_site_figures_offer_memory(&cat->offers[S_FIRST(cl, j)]));
		E(label);
		free(label);
		H("</th>");
	}
	H("</tr>\n<tr>");
	for (j = 0; j < ncols; j++) {
		const gs_offer *o = &cat->offers[S_FIRST(cl, j)];
		size_t nof = S_NOF(cl, j), i, k;
		char mem[GS_FMT_MAX];
		H("<th scope=\"col\"");
		if (gs_site_figures_offer_memory(o) != UINT64_MAX) {
			char b[48];
			snprintf(b, sizeof(b), " data-mem=\"%llu\"", (unsigned long long)gs_site_figures_offer_memory(o));
			H(b);
		}
		if (nof == 1) {
			H("><a href=\"offers/");
			E(o->id);
			H(".html\"><code>");
			E(o->id);
			H("</code></a><br><span class=\"sub\">");
			E(o->gpu_model);
			H(", ");
			E(gs_catalog_offer_memory_label(o, gs_tr(t, "word.missing"), mem, sizeof(mem)));
			H("</span></th>");
			continue;
		}
		/* "RunPod · 1 x H200 · 141 GB · 3.59–3.99 USD/h", then "13 offers (a, b, c and 10 more)" */
		H(" class=\"lot\">");
		if (o->provider) {
			E(o->provider);
			H(" · ");
		}
		{
			char b[32];
			snprintf(b, sizeof(b), "%llu x ", (unsigned long long)o->cards);
			H(b);
		}
		E(o->gpu_model);
		H(" · ");
		E(gs_catalog_offer_memory_label(o, gs_tr(t, "word.missing"), mem, sizeof(mem)));
		S_group_prices(w, t, cat, cl, j);
		H("<span class=\"sub\">");
		E(gs_qty_fmt_int(mem, nof, t->lang));
		H(" ");
		E(gs_tr(t, "cand.offers"));
		H(" (");
		for (i = cl->start[cl->c0 + j], k = 0; k < S_FEW_OFFERS && k < nof; i++, k++) {
			if (k)
				H(k + 1 == nof ? " " : ", ");
			if (k && k + 1 == nof) {
				E(gs_tr(t, "cand.and"));
				H(" ");
			}
			H("<a href=\"offers/");
			E(cat->offers[cl->order[i]].id);
			H(".html\"><code>");
			E(cat->offers[cl->order[i]].id);
			H("</code></a>");
		}
		if (nof > k) {
			H(" <a href=\"offers.html\">");
			E(gs_tr(t, "cand.and"));
			H(" ");
			E(gs_qty_fmt_int(mem, nof - k, t->lang));
			H(" ");
			E(gs_tr(t, "cand.more"));
			H("</a>");
		}
		H(")</span></th>");
	}
	H("</tr>\n</thead>\n<tbody>\n");
}

/* The row of workload pr: its heading cell, its best offer, then a cell per offer. */
static void S_matrix_row(gs_site_w *w, const gs_strings *t, const gs_catalog *cat,
			 const gs_publish_result *pr, const S_cols *cl)
{
	size_t j, ncols = cl->c1 - cl->c0;
	char *link = gs_xasprintf("sheets/%s.html", pr->id);
	int cut;
	char *shrt = gs_site_index_short_title(pr->title, &cut);

	H("<tr data-decision=\"");
	H(pr->nretained ? "0" : pr->npreselected ? "1" : "2");
	H("\" data-id=\"");
	E(pr->id);
	H("\"><th scope=\"row\" class=\"wl\"><a href=\"");
	E(link);
	H("\"><code>");
	E(pr->id);
	H("</code> ");
	E(shrt);
	H("</a>");
	if (cut) {
		H("<span class=\"sub full\">");
		E(pr->title);
		H("</span>");
	}
	H("<span class=\"sub\">");
	E(gs_tr(t, "site.col_decision"));
	H(": ");
	E(gs_tr(t, pr->nretained ? "site.retained" : pr->npreselected ? "site.preselection"
			 : "site.none"));
	if (pr->demonstration) {
		H(" (");
		E(gs_tr(t, "demo.short"));
		H(")");
	} else if (pr->synthetic) {
		H(" (");
		E(gs_tr(t, "synthetic.short"));
		H(")");
	}
	H("</span></th>");
	S_td_open(w, 1, pr->best < pr->noffers ? pr->status[pr->best] : 3,
		  pr, pr->best);
	S_best_html(w, t, cat, pr, link);
	H("</td>");
	for (j = 0; j < ncols; j++) {
		/* a group's offers have the same status and currency here: its cheapest cost */
		size_t k = S_FIRST(cl, j), i, lo = k, hi = k;
		unsigned st = k < pr->noffers ? pr->status[k] : 3;
		for (i = cl->start[cl->c0 + j] + 1; i < cl->start[cl->c0 + j + 1]; i++) {
			size_t m = cl->order[i];
			if (m >= pr->noffers || !pr->currency[m])
				continue;
			if (pr->cost[m] < pr->cost[lo])
				lo = m;
			if (pr->cost[m] > pr->cost[hi])
				hi = m;
		}
		S_td_open(w, 0, st, pr, lo);
		if (st == 3) {
			E(gs_site_nav_status_symbol(3));
			H(" ");
			E(gs_tr(t, gs_site_nav_status_key(3)));
			H("</td>");
			continue;
		}
		H("<a href=\"");
		E(link);
		H("#offer-");
		E(cat->offers[k].id);
		H("\">");
		E(gs_site_nav_status_symbol(st));
		H(" ");
		E(gs_tr(t, gs_site_nav_status_key(st)));
		H("</a>");
		if (k < pr->noffers && pr->currency[k]) {
			H("<br>");
			if (pr->cost[lo] == pr->cost[hi]) {
				S_cost_html(w, t, pr, k);
			} else {
				char m[GS_FMT_MAX];
				H("<span class=\"cost\">");
				E(gs_qty_fmt_money(m, pr->cost[lo], t->lang));
				H("–");
				E(gs_qty_fmt_money(m, pr->cost[hi], t->lang));
				H(" ");
				E(pr->currency[k]);
				H("</span>");
			}
		}
		H("</td>");
	}
	H("</tr>\n");
	free(shrt);
	free(link);
}

/* The footer rows: per status, how many workloads give each offer that status. */
static void S_matrix_foot(gs_site_w *w, const gs_strings *t, const S_cols *cl,
			  const size_t (*counts)[3])
{
	size_t j, ncols = cl->c1 - cl->c0;
	int s;
	static const char *const foot[3] = { "site.foot_retained", "site.foot_preselected",
					     "site.foot_excluded" };

	H("</tbody>\n<tfoot>\n");
	for (s = 0; s < 3; s++) {
		H("<tr><th scope=\"row\" colspan=\"2\" class=\"wl\">");
		E(gs_site_nav_status_symbol((unsigned char)s));
		H(" ");
		E(gs_tr(t, foot[s]));
		H("</th>");
		for (j = 0; j < ncols; j++) {
			char num[GS_FMT_MAX];
			H("<td>");
			E(gs_qty_fmt_int(num, counts[S_FIRST(cl, j)][s], t->lang));
			H("</td>");
		}
		H("</tr>\n");
	}
	H("</tfoot>\n</table>\n</div>\n");
}

static void S_matrix_html(gs_site_w *w, const gs_publish_env *env, const gs_site_results *rs,
			  size_t from, size_t to, const S_cols *cl, const size_t (*counts)[3])
{
	size_t i;

	S_matrix_head(w, env->t, env->cat, cl);
	for (i = from; i < to; i++)
		S_matrix_row(w, env->t, env->cat, gs_site_results_get(rs, i), cl);
	S_matrix_foot(w, env->t, cl, counts);
}

#undef H
#undef E

/* One page of the matrix: workloads [from, to) (loaded) x columns [c0, c1) (memory order). */
static int S_index_page(const gs_publish_env *env, const gs_site_results *rs, size_t n,
			const gs_site_pagekeys *pp, const size_t (*counts)[3],
			size_t page, size_t npages, size_t col, size_t ncols, const char *dir,
			const char *nav, int demonstration, gs_error *err)
{
	const gs_strings *t = env->t;
	size_t from = page * GS_SITE_PAGE_ROWS, to = from + GS_SITE_PAGE_ROWS;
	S_cols cl;
	gs_site_w w = GS_BUF_INIT;
	char name[64];

	cl.order = pp->order;
	cl.start = pp->start;
	cl.c0 = col * GS_SITE_PAGE_COLS;
	cl.c1 = cl.c0 + GS_SITE_PAGE_COLS;
	if (to > n)
		to = n;
	if (cl.c1 > pp->ncolumns)
		cl.c1 = pp->ncolumns;
	gs_site_html_h1(&w, gs_tr(t, "site.title"));
	gs_site_html_demo(&w, t, demonstration);
	gs_site_html_pager(&w, gs_tr(t, "site.page"), page, npages, gs_site_nav_row_page, col, NULL);
	gs_site_html_pager(&w, gs_tr(t, "site.offers"), col, ncols, gs_site_nav_col_page, page, NULL);
	if (!n)
		gs_site_html_para(&w, gs_tr(t, "site.empty"));
	else
		S_matrix_html(&w, env, rs, from, to, &cl, counts);
	/* The first screen is the table; what it says and how to read it below. */
	gs_site_html_para(&w, gs_tr(t, "site.intro"));
	S_LIT(&w, "<p>");
	gs_site_html_text(&w, gs_tr(t, "site.legend"));
	{
		/* each status in order: its symbol and word */
		unsigned char st;
		for (st = 0; st <= 4; st++) {
			if (st)
				S_LIT(&w, ", ");
			else
				S_LIT(&w, " ");
			gs_site_html_text(&w, gs_site_nav_status_symbol(st));
			S_LIT(&w, " ");
			gs_site_html_text(&w, gs_tr(t, gs_site_nav_status_key(st)));
		}
	}
	S_LIT(&w, ".</p>\n");
	gs_site_html_para(&w, gs_tr(t, "site.matrix_help"));
	gs_site_nav_page_name(name, sizeof(name), page, col);
	return gs_site_html_page(env, dir, name, &w, gs_tr(t, "site.title"), nav, "", n ? "matrix.js" : NULL,
			err);
}

/*
 * The workload x offer matrix, paginated both ways: GS_SITE_PAGE_ROWS
 * workloads by GS_SITE_PAGE_COLS columns a page, so that no page grows
 * with the catalog or the number of workloads. A column is an offer, or a
 * group of equivalent offers: one lot (gs_verdict_offer_same_lot) to which every
 * workload of the site gives the same status (gs_site_results_groups,
 * summed as the results came); its head names the lot, the range of its
 * hourly prices and its offers (their pages), its cells link to the
 * sheet's row of its first offer (the sheet keeps an anchor for every
 * offer). Columns go in order of memory per card (gs_site_figures_offer_order),
 * so that a page groups like cards. The results are read back a page of
 * workloads at a time; the footers' counts were summed as they came
 * (site_results.h).
 */
int gs_site_index_pages(const gs_publish_env *env, gs_site_results *rs, size_t n,
			const char *dir, const char *nav, int demonstration, gs_site_pagekeys *pp,
			gs_error *err)
{
	size_t npages = n ? (n + GS_SITE_PAGE_ROWS - 1) / GS_SITE_PAGE_ROWS : 1;
	size_t ncols = pp->ncols;
	size_t page, col;
	const size_t (*counts)[3] = gs_site_results_counts(rs);
	int rc = 0;

	/* Sorting and filters (templates/matrix.js), optional: the pages are complete without. */
	if (gs_outfile_write_atomic(dir, "matrix.js", env->tp->script, strlen(env->tp->script), err))
		return -1;
	for (page = 0; page < npages && !rc; page++) {
		size_t from = page * GS_SITE_PAGE_ROWS < n ? page * GS_SITE_PAGE_ROWS : n;
		size_t to = (page + 1) * GS_SITE_PAGE_ROWS < n ? (page + 1) * GS_SITE_PAGE_ROWS : n;
		for (col = 0; col < ncols && !rc; col++) {
			if (pp->keyed && from < to) {
				/* its key: gs_site_pagekeys_tuple_key */
				char name[64];
				gs_site_nav_page_name(name, sizeof(name), page, col);
				if (gs_site_pagekeys_page_reuse(pp, dir, name, page * ncols + col))
					continue;
			}
			/* the page's results read back, once for its columns */
			rc = gs_site_results_load(rs, from, to, 0, err);
			if (!rc)
				rc = S_index_page(env, rs, n, pp, counts, page,
					  npages, col, ncols, dir, nav, demonstration, err);
		}
	}
	return rc ? -1 : 0;
}
