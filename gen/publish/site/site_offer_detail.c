/* site: the per-offer pages. */
#define _DEFAULT_SOURCE
#include "site_ctx.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doc.h"
#include "outfile.h"
#include "sheet.h"
#include "site_results.h"
#include "util.h"

/* name_of for gs_site_html_pager: page i of the offer id. */
static void S_detail_page(char *buf, size_t len, size_t i, size_t other, const char *id)
{
	(void)other;
	gs_site_nav_detail_name(buf, len, id, i);
}

/*
 * The last three cells of an offer page's row from the sheet's reason on
 * the offer (gs_publish_result_reasons): need per card, margin, then what
 * remains to confirm or why it is excluded, tab-separated. The cells
 * between are written here: the row's "<td>" before, "</td>" after.
 */
static void S_w_reason_cells(gs_site_w *w, const char *why)
{
	int cell;

	for (cell = 0; cell < 2; cell++) {
		const char *tab = why ? strchr(why, '\t') : NULL;
		if (tab) {
			/* a figure and its provenance: short, on the stack */
			size_t n = (size_t)(tab - why);
			char small[128], *part = n < sizeof(small) ? small : gs_xmalloc(n + 1);
			memcpy(part, why, n);
			part[n] = '\0';
			gs_site_html_text(w, part);
			if (part != small)
				free(part);
			why = tab + 1;
		}
		S_LIT(w, "</td><td>");
	}
	if (why)
		gs_site_html_text(w, why);
}

/* The page's opening paragraph: the offer, and what every row's margin is against. */
static void S_detail_intro(gs_site_w *w, const gs_strings *t, const gs_offer *o)
{
	char mem[GS_FMT_MAX];

	S_LIT(w, "<p>");
	gs_site_html_code(w, o->id);
	S_LIT(w, " ");
	gs_site_html_text(w, o->gpu_model);
	S_LIT(w, ", ");
	gs_site_html_num(w, o->cards);
	S_LIT(w, " x ");
	gs_site_html_text(w, gs_catalog_offer_memory_label(o, gs_tr(t, "word.missing"), mem, sizeof(mem)));
	if (o->provider) {
		S_LIT(w, " — ");
		gs_site_html_text(w, o->provider);
	}
	/* what every row's margin is against, once for the page */
	S_LIT(w, ". ");
	gs_site_html_text(w, gs_tr(t, "site.offer_capacity"));
	S_LIT(w, ": ");
	if (o->memory_unknown && !o->has_declared_bytes) {
		gs_site_html_text(w, gs_tr(t, "word.missing"));
	} else {
		gs_site_html_text(w, gs_qty_fmt_gib(mem, o->has_declared_bytes ? o->declared_bytes
					: o->nominal_bytes, t->lang));
		S_LIT(w, " (");
		gs_site_html_text(w, gs_tr(t, o->has_declared_bytes ? "site.cap_src_declared"
				   : "site.cap_src_nominal"));
		S_LIT(w, ")");
	}
	S_LIT(w, ". ");
	gs_site_html_text(w, gs_tr(t, "site.offer_intro"));
	S_LIT(w, "</p>\n");
}

/* The table's head: workload, verdict, cost, need, margin, what remains. */
static void S_detail_table(gs_site_w *w, const gs_strings *t)
{
	const char *h[6];

	h[0] = gs_tr(t, "site.col_workload");
	h[1] = gs_tr(t, "site.col_verdict");
	h[2] = gs_tr(t, "col.total_cost");
	h[3] = gs_tr(t, "site.col_need");
	h[4] = gs_tr(t, "site.col_margin");
	h[5] = gs_tr(t, "site.col_remains");
	gs_site_html_table(w, gs_tr(t, "site.cap_offer"), h, 6);
}

/*
 * The verdict cell's link, ../sheets/ID.html#FRAGMENT (the offer's row,
 * or its lot's in the short table: gs_sheet_offers_fragment, by its class
 * in that sheet): the href of the whole, as the part up to ID then the
 * rest (sfx[class] for a lot's, sfx[GS_CLASS_COUNT] for the row's),
 * written once for the page per fragment (the href
 * escapes byte by byte; neither part nor the whole starts with a scheme
 * it would drop).
 */
static void S_detail_verdict(gs_site_w *w, const gs_offer *o, const gs_publish_result *pr,
			     const gs_strings *t, unsigned st, size_t k, gs_site_w *link, gs_site_w *sfxs)
{
	gs_class cls = k < pr->noffers && pr->cls[k] < GS_CLASS_COUNT ? (gs_class)pr->cls[k] : GS_CLASS_COUNT;
	int in_lot = k < pr->noffers && pr->in_lot && pr->in_lot[k];
	gs_site_w *sfx = &sfxs[in_lot ? cls : GS_CLASS_COUNT];

	if (st == 3) {
		gs_site_html_text(w, gs_site_nav_status_symbol(3));
		S_LIT(w, " ");
		gs_site_html_text(w, gs_tr(t, gs_site_nav_status_key(3)));
		return;
	}
	if (!sfx->len) {   /* not yet written: it ends with "> */
		char *frag = gs_sheet_offers_fragment(o, cls, in_lot);
		char *rest = gs_xasprintf(".html#%s", frag);
		free(frag);
		gs_doc_html_url(sfx, rest);
		S_LIT(sfx, "\">");
		free(rest);
	}
	gs_buf_truncate(link, 0);
	S_LIT(link, "../sheets/");
	gs_site_html_raw(link, pr->id);
	S_LIT(w, "<a href=\"");
	gs_doc_html_url(w, link->data);
	gs_buf_put(w, sfx->data, sfx->len);
	gs_site_html_text(w, gs_site_nav_status_symbol((unsigned char)st));
	S_LIT(w, " ");
	gs_site_html_text(w, gs_tr(t, gs_site_nav_status_key((unsigned char)st)));
	S_LIT(w, "</a>");
}

/* The cost cell: the campaign's total for this workload, or missing. */
static void S_detail_cost(gs_site_w *w, const gs_publish_result *pr, const gs_strings *t,
			  size_t k, unsigned st)
{
	char m[GS_FMT_MAX];

	if (st != 3 && pr->currency[k]) {
		gs_site_html_text(w, gs_qty_fmt_money(m, pr->cost[k], t->lang));
		S_LIT(w, " ");
		gs_site_html_text(w, pr->currency[k]);
		S_LIT(w, " (");
		gs_site_html_text(w, gs_tr(t, "prov.assumed"));
		S_LIT(w, ")");
	} else if (st != 3) {
		gs_site_html_text(w, gs_tr(t, "word.missing"));
	}
}

/*
 * Workload i's row. A row on one line, its cells without the newlines of a
 * tree's table: the bytes a row needs (at 10,000 workloads x 50 offers,
 * these pages are a quarter of a site's bytes).
 */
static void S_detail_row(gs_site_w *w, const gs_site_pagekeys *pp, const gs_strings *t,
			 const gs_offer *o, size_t i, size_t k, gs_site_w *link, gs_site_w *sfx)
{
	const gs_publish_result *pr = gs_site_results_get(pp->rs, i);
	unsigned st = k < pr->noffers ? pr->status[k] : 3;
	const char *why_k = st != 3 ? gs_site_pagekeys_reason(pp, i, k) : NULL;
	int cut;
	char *shrt = gs_site_index_short_title(pr->title, &cut);

	S_LIT(w, "<tr><td>");
	gs_site_html_code(w, pr->id);
	S_LIT(w, " ");
	gs_site_html_text(w, shrt);
	free(shrt);
	S_LIT(w, "</td><td>");
	S_detail_verdict(w, o, pr, t, st, k, link, sfx);
	S_LIT(w, "</td><td>");
	S_detail_cost(w, pr, t, k, st);
	S_LIT(w, "</td><td>");
	S_w_reason_cells(w, why_k);
	S_LIT(w, "</td></tr>\n");
}

/*
 * One page of an offer's workloads: [from, to) of pp->rs (loaded with their
 * reasons), each with its verdict and reason.
 */
static int S_offer_detail_page(const gs_publish_env *env, size_t n,
			       const gs_site_pagekeys *pp, size_t k, size_t page, size_t npages,
			       const char *dir, const char *nav, int demonstration, gs_error *err)
{
	const gs_strings *t = env->t;
	const gs_offer *o = &env->cat->offers[k];
	size_t from = page * GS_SITE_PAGE_ROWS, to = from + GS_SITE_PAGE_ROWS, i;
	gs_site_w w = GS_BUF_INIT, link = GS_BUF_INIT;
	gs_site_w sfx[GS_CLASS_COUNT + 1];
	char name[128];
	char *title = gs_xasprintf("%s %s", gs_tr(t, "site.offer_title"), o->id);
	int rc;

	for (i = 0; i <= GS_CLASS_COUNT; i++)
		gs_buf_init(&sfx[i], 0);
	if (to > n)
		to = n;
	gs_site_html_h1(&w, title);
	gs_site_html_demo(&w, t, demonstration);
	S_detail_intro(&w, t, o);
	gs_site_html_pager(&w, gs_tr(t, "site.page"), page, npages, S_detail_page, 0, o->id);
	S_detail_table(&w, t);
	if (from < to)
		S_LIT(&w, "\n<tbody>\n");
	for (i = from; i < to; i++)
		S_detail_row(&w, pp, t, o, i, k, &link, sfx);
	if (from < to)
		S_LIT(&w, "</tbody>\n</table>\n");
	else
		S_LIT(&w, "\n</table>\n");
	if (!n)
		gs_site_html_para(&w, gs_tr(t, "site.empty"));
	gs_site_nav_detail_name(name, sizeof(name), o->id, page);
	rc = gs_site_html_page(env, dir, name, &w, title, nav, "../", NULL, err);
	gs_buf_release(&link);
	for (i = 0; i <= GS_CLASS_COUNT; i++)
		gs_buf_release(&sfx[i]);
	free(title);
	return rc;
}

/*
 * offers/: one page per offer (GS_SITE_PAGE_ROWS workloads a page). Page
 * by page of workloads, every offer's: the results of a page's workloads
 * are read back once (one read), their reasons too when a page is
 * rendered, used by every offer.
 */
int gs_site_offer_detail_pages(const gs_publish_env *env, size_t n, const char *dir,
			       int demonstration, gs_site_pagekeys *pp, gs_error *err)
{
	char *sub = gs_xasprintf("%s/offers", dir), *nav = gs_site_nav(env->t, "../");
	size_t npages = n ? (n + GS_SITE_PAGE_ROWS - 1) / GS_SITE_PAGE_ROWS : 1, k, page;
	size_t noff = env->cat->noffers;
	unsigned char *todo = gs_xcalloc(noff + 1, 1);
	int rc = 0;

	if (gs_outfile_mkdirs(sub)) {
		gs_error_set(err, "cannot create %s", sub);
		rc = -1;
	}
	for (page = 0; page < npages && !rc; page++) {
		size_t from = page * GS_SITE_PAGE_ROWS < n ? page * GS_SITE_PAGE_ROWS : n;
		size_t to = (page + 1) * GS_SITE_PAGE_ROWS < n ? (page + 1) * GS_SITE_PAGE_ROWS : n;
		size_t ntodo = 0;
		for (k = 0; k < noff; k++) {
			todo[k] = 1;
			if (pp->keyed && from < to) {
				/* its key: gs_site_pagekeys_tuple_key */
				char dn[128], name[160];
				gs_site_nav_detail_name(dn, sizeof(dn), env->cat->offers[k].id, page);
				snprintf(name, sizeof(name), "offers/%s", dn);
				todo[k] = !gs_site_pagekeys_page_reuse(pp, dir, name,
							npages * pp->ncols + page * noff + k);
			}
			ntodo += todo[k];
		}
		if (!ntodo)
			continue;
		rc = gs_site_results_load(pp->rs, from, to, 1, err);
		if (!rc)
			rc = gs_site_pagekeys_why_page_load(pp, from, to, err);
		for (k = 0; k < noff && !rc; k++)
			if (todo[k])
				rc = S_offer_detail_page(env, n, pp, k, page, npages, sub, nav,
							 demonstration, err);
	}
	gs_site_pagekeys_why_page_free(pp);
	free(todo);
	free(sub);
	free(nav);
	return rc ? -1 : 0;
}
