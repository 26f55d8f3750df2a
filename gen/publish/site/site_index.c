/* site: the index pages: the workload x offer matrix. */
#define _DEFAULT_SOURCE
#include "site_ctx.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "outfile.h"
#include "render.h"
#include "sheet.h"
#include "siteresults.h"
#include "util.h"

/* A short title: at most GS_SITE_SHORT_TITLE bytes, cut on a character boundary. */
char *gs_site_short_title(const char *title, int *cut)
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
#define H(s) gs_mem_append(&out, &len, &cap, (s), strlen(s))
#define E(s) gs_html_escape_append(&out, &len, &cap, (s))

/* A literal appended to (o, l, c), its length counted by the compiler. */
#define S_OLIT(o, l, c, lit) gs_mem_append((o), (l), (c), (lit), sizeof(lit) - 1)

/* "1,234.00 USD (assumed)" or nothing when no plan is known. */
static void S_cost_html(char **o, size_t *l, size_t *c, const gs_strings *t,
			const gs_publish_result *pr, size_t k)
{
	char m[GS_FMT_MAX];

	if (!pr->currency[k])
		return;
	S_OLIT(o, l, c, "<span class=\"cost\">");
	gs_html_escape_append(o, l, c, gs_fmt_money(m, pr->cost[k], t->lang));
	S_OLIT(o, l, c, " ");
	gs_html_escape_append(o, l, c, pr->currency[k]);
	S_OLIT(o, l, c, "</span>");
}

/* The best-offer cell: the first retained and its cost, else the closest pre-selected and what it needs. */
static void S_best_html(char **o, size_t *l, size_t *c, const gs_strings *t,
			const gs_catalog *cat, const gs_publish_result *pr, const char *link)
{
	const char *id;
	int q, k = 0;

	if (pr->best == GS_PUBLISH_NO_BEST || pr->best >= cat->noffers) {
		gs_html_escape_append(o, l, c, gs_tr(t, "card.no_offer"));
		return;
	}
	id = cat->offers[pr->best].id;
	gs_str_append(o, l, c, "<a href=\"");
	gs_html_escape_append(o, l, c, link);
	gs_str_append(o, l, c, "#offer-");
	gs_html_escape_append(o, l, c, id);
	gs_str_append(o, l, c, "\"><code>");
	gs_html_escape_append(o, l, c, id);
	gs_str_append(o, l, c, "</code></a> ");
	gs_html_escape_append(o, l, c, gs_site_status_symbol(pr->status[pr->best]));
	gs_str_append(o, l, c, " ");
	gs_html_escape_append(o, l, c, gs_tr(t, gs_site_status_key(pr->status[pr->best])));
	gs_str_append(o, l, c, "<br>");
	gs_html_escape_append(o, l, c, gs_tr(t, "col.total_cost"));
	gs_str_append(o, l, c, ": ");
	if (pr->currency[pr->best]) {
		S_cost_html(o, l, c, t, pr, pr->best);
		gs_str_append(o, l, c, " (");
		gs_html_escape_append(o, l, c, gs_tr(t, "prov.assumed"));
		gs_str_append(o, l, c, ")");
	} else {
		gs_html_escape_append(o, l, c, gs_tr(t, "word.missing"));
	}
	if (!pr->best_missing)
		return;
	gs_str_append(o, l, c, "<br>");
	gs_html_escape_append(o, l, c, gs_tr(t, "site.still_needs"));
	gs_str_append(o, l, c, " ");
	for (q = 0; q < GS_REQ_COUNT; q++)
		if (pr->best_missing & (1u << q)) {
			if (k++)
				gs_str_append(o, l, c, ", ");
			gs_html_escape_append(o, l, c, gs_sheet_req_label(t, (gs_req)q));
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
static void S_td_open(char **o, size_t *l, size_t *c, int best, unsigned st,
		      const gs_publish_result *pr, size_t k)
{
	char d[GS_DEC_MAX], *p;

	if (best) {
		S_OLIT(o, l, c, "<td class=\"best\" data-v=\"");
		p = gs_dec(d, st, 0);
		gs_mem_append(o, l, c, p, (size_t)(d + GS_DEC_MAX - p));
		S_OLIT(o, l, c, "\"");
	} else {
		char v[14] = "<td class=\"vS\"";
		v[12] = (char)('0' + (st <= 4 ? st : 3));
		gs_mem_append(o, l, c, v, 14);
	}
	if (k < pr->noffers && pr->currency[k]) {
		int64_t v = pr->cost[k];
		uint64_t mag = gs_i64_mag(v);
		S_OLIT(o, l, c, " data-cost=\"");
		p = gs_dec(d, mag, v < 0);
		gs_mem_append(o, l, c, p, (size_t)(d + GS_DEC_MAX - p));
		S_OLIT(o, l, c, "\"");
	}
	S_OLIT(o, l, c, ">");
}

/*
 * The matrix of one index page as HTML built here (every user string
 * escaped): a table in its own scrolling box, sticky header row and first
 * column, a best-offer column and a footer row per verdict with how many
 * workloads each offer gets.
 */
/* The matrix's box, its caption, and its heading rows: the memory groups
 * above the offers (cols, ncols). */
static void S_matrix_head(gs_site_w *w, const gs_strings *t, const gs_catalog *cat,
			  const size_t *cols, size_t ncols)
{
	char *out = w->b;
	size_t len = w->n, cap = w->cap;
	size_t j, g;

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
	 * Offers grouped by memory per card (cols come in that order): a
	 * <colgroup> and a heading cell (scope="colgroup") per group above the
	 * offers' row; the workload and best-offer headings span both rows.
	 */
	H("<colgroup span=\"2\"></colgroup>");
	for (j = 0; j < ncols; j = g) {
		char b[64];
		for (g = j + 1; g < ncols && gs_site_offer_memory(&cat->offers[cols[g]]) ==
					      gs_site_offer_memory(&cat->offers[cols[j]]); g++)
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
		for (g = j + 1; g < ncols && gs_site_offer_memory(&cat->offers[cols[g]]) ==
					      gs_site_offer_memory(&cat->offers[cols[j]]); g++)
			;
		snprintf(b, sizeof(b), "<th scope=\"colgroup\" colspan=\"%zu\" class=\"group\">",
			 g - j);
		H(b);
		label = gs_site_mem_group(t, gs_site_offer_memory(&cat->offers[cols[j]]));
		E(label);
		free(label);
		H("</th>");
	}
	H("</tr>\n<tr>");
	for (j = 0; j < ncols; j++) {
		const gs_offer *o = &cat->offers[cols[j]];
		char mem[GS_FMT_MAX];
		H("<th scope=\"col\"");
		if (gs_site_offer_memory(o) != UINT64_MAX) {
			char b[48];
			snprintf(b, sizeof(b), " data-mem=\"%llu\"", (unsigned long long)gs_site_offer_memory(o));
			H(b);
		}
		H("><a href=\"offers/");
		E(o->id);
		H(".html\"><code>");
		E(o->id);
		H("</code></a><br><span class=\"sub\">");
		E(o->gpu_model);
		H(", ");
		E(gs_offer_memory_label(o, gs_tr(t, "word.missing"), mem, sizeof(mem)));
		H("</span></th>");
	}
	H("</tr>\n</thead>\n<tbody>\n");
	w->b = out;
	w->n = len;
	w->cap = cap;
}

/* The row of workload pr: its heading cell, its best offer, then a cell per offer. */
static void S_matrix_row(gs_site_w *w, const gs_strings *t, const gs_catalog *cat,
			 const gs_publish_result *pr, const size_t *cols, size_t ncols)
{
	char *out = w->b;
	size_t len = w->n, cap = w->cap;
	size_t j;
	char *link = gs_xasprintf("sheets/%s.html", pr->id);
	int cut;
	char *shrt = gs_site_short_title(pr->title, &cut);

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
	S_td_open(&out, &len, &cap, 1, pr->best < pr->noffers ? pr->status[pr->best] : 3,
		  pr, pr->best);
	S_best_html(&out, &len, &cap, t, cat, pr, link);
	H("</td>");
	for (j = 0; j < ncols; j++) {
		size_t k = cols[j];
		unsigned st = k < pr->noffers ? pr->status[k] : 3;
		S_td_open(&out, &len, &cap, 0, st, pr, k);
		if (st == 3) {
			E(gs_site_status_symbol(3));
			H(" ");
			E(gs_tr(t, gs_site_status_key(3)));
			H("</td>");
			continue;
		}
		H("<a href=\"");
		E(link);
		H("#offer-");
		E(cat->offers[k].id);
		H("\">");
		E(gs_site_status_symbol(st));
		H(" ");
		E(gs_tr(t, gs_site_status_key(st)));
		H("</a>");
		if (pr->currency[k]) {
			H("<br>");
			S_cost_html(&out, &len, &cap, t, pr, k);
		}
		H("</td>");
	}
	H("</tr>\n");
	free(shrt);
	free(link);
	w->b = out;
	w->n = len;
	w->cap = cap;
}

/* The footer rows: per status, how many workloads give each offer that status. */
static void S_matrix_foot(gs_site_w *w, const gs_strings *t, const size_t *cols, size_t ncols,
			  const size_t (*counts)[3])
{
	char *out = w->b;
	size_t len = w->n, cap = w->cap;
	size_t j;
	int s;
	static const char *const foot[3] = { "site.foot_retained", "site.foot_preselected",
					     "site.foot_excluded" };

	H("</tbody>\n<tfoot>\n");
	for (s = 0; s < 3; s++) {
		H("<tr><th scope=\"row\" colspan=\"2\" class=\"wl\">");
		E(gs_site_status_symbol((unsigned char)s));
		H(" ");
		E(gs_tr(t, foot[s]));
		H("</th>");
		for (j = 0; j < ncols; j++) {
			char num[GS_FMT_MAX];
			H("<td>");
			E(gs_fmt_int(num, counts[cols[j]][s], t->lang));
			H("</td>");
		}
		H("</tr>\n");
	}
	H("</tfoot>\n</table>\n</div>\n");
	w->b = out;
	w->n = len;
	w->cap = cap;
}

static void S_matrix_html(gs_site_w *w, const gs_publish_env *env, const gs_site_results *rs,
			  size_t from, size_t to, const size_t *cols, size_t ncols,
			  const size_t (*counts)[3])
{
	size_t i;

	S_matrix_head(w, env->t, env->cat, cols, ncols);
	for (i = from; i < to; i++)
		S_matrix_row(w, env->t, env->cat, gs_site_results_get(rs, i), cols, ncols);
	S_matrix_foot(w, env->t, cols, ncols, counts);
}

#undef H
#undef E

/* One page of the matrix: workloads [from, to) (loaded) x offers cols[c0, c1) (memory order). */
static int S_index_page(const gs_publish_env *env, const gs_site_results *rs, size_t n,
			const size_t *order, const size_t (*counts)[3],
			size_t page, size_t npages, size_t col, size_t ncols, const char *dir,
			const char *nav, int demonstration, char *err, size_t errlen)
{
	const gs_strings *t = env->t;
	const gs_catalog *cat = env->cat;
	size_t from = page * GS_SITE_PAGE_ROWS, to = from + GS_SITE_PAGE_ROWS;
	size_t c0 = col * GS_SITE_PAGE_COLS, c1 = c0 + GS_SITE_PAGE_COLS;
	gs_site_w w = { 0 };
	char name[64];

	if (to > n)
		to = n;
	if (c1 > cat->noffers)
		c1 = cat->noffers;
	gs_site_w_h1(&w, gs_tr(t, "site.title"));
	gs_site_w_demo(&w, t, demonstration);
	gs_site_w_para(&w, gs_tr(t, "site.intro"));
	S_LIT(&w, "<p>");
	gs_site_w_text(&w, gs_tr(t, "site.legend"));
	{
		/* each status in order: its symbol and word */
		unsigned char st;
		for (st = 0; st <= 4; st++) {
			if (st)
				S_LIT(&w, ", ");
			else
				S_LIT(&w, " ");
			gs_site_w_text(&w, gs_site_status_symbol(st));
			S_LIT(&w, " ");
			gs_site_w_text(&w, gs_tr(t, gs_site_status_key(st)));
		}
	}
	S_LIT(&w, ".</p>\n");
	gs_site_w_para(&w, gs_tr(t, "site.matrix_help"));
	gs_site_w_pager(&w, gs_tr(t, "site.page"), page, npages, gs_site_row_page, col, NULL);
	gs_site_w_pager(&w, gs_tr(t, "site.offers"), col, ncols, gs_site_col_page, page, NULL);
	if (!n)
		gs_site_w_para(&w, gs_tr(t, "site.empty"));
	else
		S_matrix_html(&w, env, rs, from, to, order + c0, c1 - c0, counts);
	gs_site_page_name(name, sizeof(name), page, col);
	return gs_site_w_page(env, dir, name, &w, gs_tr(t, "site.title"), nav, "", n ? "matrix.js" : NULL,
			err, errlen);
}

/*
 * The workload x offer matrix, paginated both ways: GS_SITE_PAGE_ROWS
 * workloads by GS_SITE_PAGE_COLS offers a page, so that no page grows with
 * the catalog or the number of workloads. Offers go in order of memory per
 * card (gs_site_offer_order), so that a page groups like cards. The
 * results are read back a page of workloads at a time; the footers' counts
 * were summed as they came (siteresults.h).
 */
int gs_site_index_pages(const gs_publish_env *env, gs_site_results *rs, size_t n,
			const char *dir, const char *nav, int demonstration, gs_site_pagekeys *pp,
			char *err, size_t errlen)
{
	size_t npages = n ? (n + GS_SITE_PAGE_ROWS - 1) / GS_SITE_PAGE_ROWS : 1;
	size_t noff = env->cat->noffers;
	size_t ncols = noff ? (noff + GS_SITE_PAGE_COLS - 1) / GS_SITE_PAGE_COLS : 1;
	size_t page, col;
	size_t *order = gs_xcalloc(noff + 1, sizeof(*order));
	const size_t (*counts)[3] = gs_site_results_counts(rs);
	int rc = 0;

	/* Sorting and filters (templates/matrix.js), optional: the pages are complete without. */
	if (gs_write_atomic(dir, "matrix.js", env->tp->script, strlen(env->tp->script), err, errlen)) {
		free(order);
		return -1;
	}
	gs_site_offer_order(env->cat, order);
	for (page = 0; page < npages && !rc; page++) {
		size_t from = page * GS_SITE_PAGE_ROWS < n ? page * GS_SITE_PAGE_ROWS : n;
		size_t to = (page + 1) * GS_SITE_PAGE_ROWS < n ? (page + 1) * GS_SITE_PAGE_ROWS : n;
		for (col = 0; col < ncols && !rc; col++) {
			if (pp->keyed && from < to) {
				/* its key: gs_site_tuple_key */
				char name[64];
				gs_site_page_name(name, sizeof(name), page, col);
				if (gs_site_page_reuse(pp, dir, name, page * ncols + col))
					continue;
			}
			/* the page's results read back, once for its columns */
			rc = gs_site_results_load(rs, from, to, 0, err, errlen);
			if (!rc)
				rc = S_index_page(env, rs, n, order, counts, page,
					  npages, col, ncols, dir, nav, demonstration, err, errlen);
		}
	}
	free(order);
	return rc ? -1 : 0;
}
