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

/* A decimal attribute: ' NAME="V"'. */
static void S_attr_num(gs_buf *o, const char *name, int64_t v)
{
	char d[GS_DEC_MAX], *p = gs_dec(d, gs_i64_mag(v), v < 0);

	gs_buf_puts(o, " ");
	gs_buf_puts(o, name);
	gs_buf_puts(o, "=\"");
	gs_buf_put(o, p, (size_t)(d + GS_DEC_MAX - p));
	gs_buf_puts(o, "\"");
}

/*
 * Offer k's cost of a million output tokens at the speed bound, a lower
 * bound on the cost: "<br>≥ 0.0123 USD per million tokens (bound)", and
 * "interruptible" when the on-demand plan has none; nothing when no bound
 * is known.
 */
static void S_mtok_html(gs_buf *o, const gs_strings *t, const gs_publish_result *pr, size_t k)
{
	char m[GS_FMT_MAX];

	if (!pr->mtok_currency || !pr->mtok_currency[k])
		return;
	gs_buf_puts(o, "<br><span class=\"cost\">\xe2\x89\xa5 ");
	gs_html_escape_str(o, gs_qty_fmt_micro_down(m, pr->mtok[k], t->lang));
	gs_buf_puts(o, " ");
	gs_html_escape_str(o, pr->mtok_currency[k]);
	gs_buf_puts(o, "</span> ");
	gs_html_escape_str(o, gs_tr(t, "site.mtok_unit"));
	if (pr->mtok_intr[k]) {
		gs_buf_puts(o, " ");
		gs_html_escape_str(o, gs_tr(t, "price.interruptible"));
	}
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
	/* provider, lot and price per hour first: what a reader compares */
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
	S_mtok_html(o, t, pr, pr->best);
	/* then its class (its verdict's symbol) and the offer, linked to its row of the sheet */
	gs_buf_puts(o, "<br>");
	gs_html_escape_str(o, gs_site_nav_status_symbol(pr->status[pr->best]));
	gs_buf_puts(o, " ");
	gs_html_escape_str(o, gs_tr(t, gs_site_nav_class_key(pr->cls[pr->best])));
	gs_buf_puts(o, ": <a href=\"");
	gs_html_escape_str(o, link);
	gs_buf_puts(o, "#");
	{
		char *frag = gs_sheet_offers_fragment(&cat->offers[pr->best], (gs_class)pr->cls[pr->best],
						      pr->in_lot && pr->in_lot[pr->best]);
		gs_html_escape_str(o, frag);
		free(frag);
	}
	gs_buf_puts(o, "\"><code class=\"id\">");
	gs_site_index_id_html(o, id);
	gs_buf_puts(o, "</code></a>");
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
	{ "filter", "site.js_filter" }, { "hour", "site.js_by_hour" },
	{ "mem", "site.js_min_mem" }, { "mtok", "site.js_by_mtok" },
	{ "none", "site.none" }, { "order", "site.js_order" },
	{ "preselected", "site.preselection" },
	{ "retained", "site.retained" }, { "shown", "site.js_shown" },
	{ "sort", "site.js_sort" }, { "text", "site.js_text" },
};

/*
 * What matrix.js sorts by: a lot's cell <td class="vS" data-c="C"
 * data-cost="MILLIONTHS" data-mtok="MILLIONTHS"> (the verdict, its colour;
 * the class, gs_class; the price per hour; the cost of a million tokens at
 * the bound: gs_site_index_lot_cell), the offer to take's <td class="best"
 * data-v="S" data-c="C" data-cost="MILLIONTHS" data-mtok="MILLIONTHS">, each
 * figure when known.
 */
static void S_best_td_open(gs_buf *o, unsigned st, const gs_publish_result *pr)
{
	S_LIT(o, "<td class=\"best\"");
	S_attr_num(o, "data-v", st);
	if (pr->best < pr->noffers)
		S_attr_num(o, "data-c", pr->cls[pr->best]);
	if (pr->best_hour_currency)
		S_attr_num(o, "data-cost", pr->best_hour);
	if (pr->best < pr->noffers && pr->mtok_currency[pr->best])
		S_attr_num(o, "data-mtok", pr->mtok[pr->best]);
	S_LIT(o, ">");
}

/*
 * The matrix of one index page as HTML built here (every user string
 * escaped): a table in its own scrolling box, sticky header rows and first
 * column, the offer to take, then a column per lot of a GPU model.
 */
/* The matrix's columns shown: columns [c0, c1) of order and start (gs_site_figures_gpu_columns). */
typedef struct {
	const size_t *order, *start;
	size_t c0, c1;
	const gs_site_pagekeys *pp;
} S_cols;

/* The first offer of column j (of those shown) and its number of offers. */
#define S_FIRST(cl, j) ((cl)->order[(cl)->start[(cl)->c0 + (j)]])
#define S_NOF(cl, j) ((cl)->start[(cl)->c0 + (j) + 1] - (cl)->start[(cl)->c0 + (j)])

void gs_site_index_id_html(gs_site_w *w, const char *id)
{
	const char *p = id, *q;

	for (q = id; *q; q++)
		if (*q == '-' || *q == '_' || *q == '.' || *q == '/') {
			gs_html_escape(w, p, (size_t)(q + 1 - p));
			S_LIT(w, "<wbr>");
			p = q + 1;
		}
	gs_html_escape(w, p, (size_t)(q - p));
}

/* "0.3698–0.4689 USD/h": the range of a column's hourly prices (each plan's
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

/* The heading of the memory-per-lot group starting at column j; its end in *end. */
static char *S_lot_group(const gs_strings *t, const gs_catalog *cat, const S_cols *cl, size_t j,
			 size_t *end)
{
	size_t ncols = cl->c1 - cl->c0, g;
	uint64_t mem = gs_site_figures_lot_memory(&cat->offers[S_FIRST(cl, j)]);
	char m[GS_FMT_MAX];

	for (g = j + 1; g < ncols && gs_site_figures_lot_memory(&cat->offers[S_FIRST(cl, g)]) == mem; g++)
		;
	*end = g;
	if (mem == UINT64_MAX)
		return gs_xstrdup(gs_tr(t, "site.mem_unknown"));
	return gs_xasprintf("%s %s", gs_qty_fmt_gib(m, mem, t->lang), gs_tr(t, "site.per_lot"));
}

/* The heading of column j: "1 × H100 80 GB" linked to the GPU's page, then
 * its offers and the range of their hourly prices. */
static void S_lot_head(gs_site_w *w, const gs_strings *t, const gs_catalog *cat, const S_cols *cl,
		       size_t j)
{
	const gs_offer *o = &cat->offers[S_FIRST(cl, j)];
	size_t nof = S_NOF(cl, j);
	char mem[GS_FMT_MAX], b[48];

	H("<th scope=\"col\" class=\"lot\"");
	if (gs_site_figures_offer_memory(o) != UINT64_MAX) {
		snprintf(b, sizeof(b), " data-mem=\"%llu\"",
			 (unsigned long long)gs_site_figures_offer_memory(o));
		H(b);
	}
	H("><a href=\"");
	E(cl->pp->gpu_page[cl->pp->gpu_of[S_FIRST(cl, j)]]);
	H("\">");
	E(gs_qty_fmt_int(mem, o->cards, t->lang));
	H(" × ");
	E(o->gpu_model);
	H(" ");
	E(gs_catalog_offer_memory_label(o, gs_tr(t, "word.missing"), mem, sizeof(mem)));
	H("</a><span class=\"sub\">");
	E(gs_qty_fmt_int(mem, nof, t->lang));
	H(" ");
	E(gs_tr(t, nof == 1 ? "site.offer_one" : "cand.offers"));
	S_group_prices(w, t, cat, cl, j);
	H("</span></th>");
}

/* The matrix's box, its caption, and its heading rows: the groups by memory
 * per lot above the columns (a lot of a GPU model each). */
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
	 * Columns grouped by memory per lot (they come in that order): a
	 * <colgroup> and a heading cell (scope="colgroup") per group above the
	 * columns' row; the workload and best-offer headings span both rows.
	 */
	H("<colgroup span=\"2\"></colgroup>");
	for (j = 0; j < ncols; j = g) {
		char b[64];
		free(S_lot_group(t, cat, cl, j, &g));
		snprintf(b, sizeof(b), "<colgroup span=\"%zu\"></colgroup>", g - j);
		H(b);
	}
	H("\n<thead>\n<tr class=\"groups\"><th scope=\"col\" rowspan=\"2\" class=\"wl\">");
	E(gs_tr(t, "site.col_workload"));
	H("</th><th scope=\"col\" rowspan=\"2\" class=\"best\">");
	E(gs_tr(t, "site.col_best"));
	H("</th>");
	for (j = 0; j < ncols; j = g) {
		char b[96], *label = S_lot_group(t, cat, cl, j, &g);
		snprintf(b, sizeof(b), "<th scope=\"colgroup\" colspan=\"%zu\" class=\"group\">",
			 g - j);
		H(b);
		E(label);
		free(label);
		H("</th>");
	}
	H("</tr>\n<tr>");
	for (j = 0; j < ncols; j++)
		S_lot_head(w, t, cat, cl, j);
	H("</tr>\n</thead>\n<tbody>\n");
}

/* The rank of a class in a column: the sheet's order (retained, fits, ...,
 * excluded), then not compared, then a reference card. */
static unsigned S_rank(unsigned char cls)
{
	return cls < GS_CLASS_REFERENCE ? cls : cls == GS_CLASS_REFERENCE ? GS_CLASS_COUNT + 1
										: GS_CLASS_COUNT;
}

/* An offer's price per hour of the lot: on-demand, else interruptible (*intr 1); -1 when none. */
static int S_hour(const gs_offer *o, int64_t *micro, const char **cur, int *intr)
{
	*intr = 0;
	if (!gs_site_figures_offer_hour(o, 0, micro, cur))
		return 0;
	*intr = 1;
	return gs_site_figures_offer_hour(o, 1, micro, cur);
}

/* Whether offer a is a better pick than b for pr: class, then price per hour (known first,
 * currencies in byte order), then catalog order (a < b is left to the caller's scan). */
static int S_better(const gs_catalog *cat, const gs_publish_result *pr, size_t a, size_t b)
{
	unsigned ra = S_rank(a < pr->noffers ? pr->cls[a] : GS_CLASS_COUNT);
	unsigned rb = S_rank(b < pr->noffers ? pr->cls[b] : GS_CLASS_COUNT);
	int64_t ma, mb;
	const char *ca, *cb;
	int ia, ib, ha, hb, c;

	if (ra != rb)
		return ra < rb;
	ha = !S_hour(&cat->offers[a], &ma, &ca, &ia);
	hb = !S_hour(&cat->offers[b], &mb, &cb, &ib);
	if (ha != hb)
		return ha;
	if (!ha)
		return 0;
	if (ia != ib)
		return ia < ib;
	if ((c = strcmp(ca, cb)) != 0)
		return c < 0;
	return ma < mb;
}

void gs_site_index_lot_cell(gs_site_w *w, const gs_strings *t, const gs_catalog *cat,
			    const gs_publish_result *pr, const size_t *order, size_t from, size_t to,
			    const char *root)
{
	size_t k = order[from], i;
	unsigned char st, cls;
	int64_t micro = 0;
	const char *cur = NULL;
	int intr = 0, priced;
	char m[GS_FMT_MAX];
	const gs_offer *o;

	for (i = from + 1; i < to; i++)
		if (S_better(cat, pr, order[i], k))
			k = order[i];
	o = &cat->offers[k];
	st = k < pr->noffers ? pr->status[k] : 3;
	cls = k < pr->noffers ? pr->cls[k] : GS_CLASS_COUNT;
	priced = !S_hour(o, &micro, &cur, &intr);
	{
		char v[14] = "<td class=\"vS\"";
		v[12] = (char)('0' + (st <= 4 ? st : 3));
		gs_buf_put(w, v, 14);
	}
	/* matrix.js sorts by class, then the price per hour or the cost of a
	 * million tokens, in millionths (S_best_td_open) */
	if (cls < GS_CLASS_COUNT)
		S_attr_num(w, "data-c", cls);
	if (priced)
		S_attr_num(w, "data-cost", micro);
	if (st != 3 && pr->mtok_currency[k])
		S_attr_num(w, "data-mtok", pr->mtok[k]);
	S_LIT(w, ">");
	if (st == 3) {
		E(gs_site_nav_status_symbol(3));
		H(" ");
		E(gs_tr(t, gs_site_nav_status_key(3)));
		H("</td>");
		return;
	}
	H("<a href=\"");
	E(root);
	H("sheets/");
	E(pr->id);
	H(".html#");
	{
		char *frag = gs_sheet_offers_fragment(o, (gs_class)cls, k < pr->noffers && pr->in_lot && pr->in_lot[k]);
		E(frag);
		free(frag);
	}
	H("\" title=\"");
	E(o->provider ? o->provider : gs_tr(t, "site.no_provider"));
	H(" · ");
	E(o->id);
	H("\">");
	E(gs_site_nav_status_symbol(st));
	H(" ");
	E(gs_tr(t, gs_site_nav_class_key(cls)));
	H("</a>");
	if (priced) {
		H("<br><span class=\"cost\">");
		E(gs_qty_fmt_micro(m, micro, t->lang));
		H(" ");
		E(cur);
		H("/h</span>");
		if (intr) {
			H(" ");
			E(gs_tr(t, "price.interruptible"));
		}
	}
	S_mtok_html(w, t, pr, k);
	/* the provider, for screen readers (sighted readers have the title) */
	H("<span class=\"sr\">, ");
	E(o->provider ? o->provider : gs_tr(t, "site.no_provider"));
	H("</span></td>");
}

/* The row of workload pr: its heading cell, its best offer, then a cell per lot. */
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
	H("\"><code class=\"id\">");
	gs_site_index_id_html(w, pr->id);
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
	S_best_td_open(w, pr->best < pr->noffers ? pr->status[pr->best] : 3, pr);
	S_best_html(w, t, cat, pr, link);
	H("</td>");
	for (j = 0; j < ncols; j++)
		gs_site_index_lot_cell(w, t, cat, pr, cl->order, cl->start[cl->c0 + j],
				       cl->start[cl->c0 + j + 1], "");
	H("</tr>\n");
	free(shrt);
	free(link);
}

static void S_matrix_html(gs_site_w *w, const gs_publish_env *env, const gs_site_results *rs,
			  size_t from, size_t to, const S_cols *cl, const size_t (*counts)[3])
{
	size_t i;

	S_matrix_head(w, env->t, env->cat, cl);
	(void)counts;
	for (i = from; i < to; i++)
		S_matrix_row(w, env->t, env->cat, gs_site_results_get(rs, i), cl);
	H("</tbody>\n</table>\n</div>\n");
}

#undef H
#undef E

/* The classes a cell names, each with the sheet's name of it (its class table's). */
static void S_legend_classes(gs_site_w *w, const gs_strings *t)
{
	unsigned char k;

	S_LIT(w, "<p>");
	gs_site_html_text(w, gs_tr(t, "site.legend_classes"));
	for (k = 0; k < GS_CLASS_COUNT; k++) {
		gs_buf_puts(w, k ? "; " : " ");
		gs_site_html_text(w, gs_site_nav_status_symbol(gs_site_nav_class_status(k)));
		S_LIT(w, " ");
		gs_site_html_text(w, gs_tr(t, gs_site_nav_class_key(k)));
		S_LIT(w, ": ");
		gs_site_html_text(w, gs_tr(t, gs_sheet_words_class_key((gs_class)k)));
	}
	S_LIT(w, ".</p>\n");
}

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
	cl.pp = pp;
	cl.c0 = col * GS_SITE_PAGE_COLS;
	cl.c1 = cl.c0 + GS_SITE_PAGE_COLS;
	if (to > n)
		to = n;
	if (cl.c1 > pp->ncolumns)
		cl.c1 = pp->ncolumns;
	gs_site_html_h1(&w, gs_tr(t, "site.title"));
	gs_site_html_demo(&w, t, demonstration);
	gs_site_html_pager(&w, gs_tr(t, "site.page"), page, npages, gs_site_nav_row_page, col, NULL);
	gs_site_html_pager(&w, gs_tr(t, "site.gpu_columns"), col, ncols, gs_site_nav_col_page, page, NULL);
	if (!n)
		gs_site_html_para(&w, gs_tr(t, "site.empty"));
	else
		S_matrix_html(&w, env, rs, from, to, &cl, counts);
	/* The first screen is the table; what it says and how to read it below, behind a disclosure. */
	S_LIT(&w, "<details class=\"help\"><summary>");
	gs_site_html_text(&w, gs_tr(t, "site.how_to_read"));
	S_LIT(&w, "</summary>\n");
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
	S_legend_classes(&w, t);
	gs_site_html_para(&w, gs_tr(t, "site.matrix_help"));
	gs_site_html_para(&w, gs_tr(t, "site.mtok_help"));
	S_LIT(&w, "</details>\n");
	gs_site_nav_page_name(name, sizeof(name), page, col);
	return gs_site_html_page(env, dir, name, &w, gs_tr(t, "site.title"), nav, "", n ? "matrix.js" : NULL,
			err);
}

/*
 * The workload x GPU matrix, paginated both ways: GS_SITE_PAGE_ROWS
 * workloads by GS_SITE_PAGE_COLS columns a page, so that no page grows
 * with the catalog or the number of workloads. A column is a lot of one
 * GPU model (gs_site_figures_gpu_columns: model, cards per lot, memory per
 * card), in order of memory per lot; its head names the lot, links to the
 * GPU's page (site_gpus.c: every offer of it, each with its own page) and
 * gives the number of its offers and the range of their hourly prices. Its
 * cell for a workload is the lot's best offer for it (its class, then its
 * price per hour: named by its class, price per hour and cost of a million
 * tokens at the speed bound) linked to the sheet's row of that offer (the
 * sheet keeps an anchor for every offer). The results are read back a page of
 * workloads at a time.
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
