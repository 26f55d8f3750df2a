/* site: page names, the navigation and the pager's pages. */
#define _DEFAULT_SOURCE
#include "site_ctx.h"

#include <stdio.h>
#include <stdlib.h>

#include "html.h"
#include "render.h"
#include "sheet.h"

char *gs_site_nav(const gs_strings *t, const char *prefix)
{
	gs_buf out = GS_BUF_INIT;

	gs_buf_puts(&out, "<nav aria-label=\"");
	gs_html_escape_str(&out, gs_tr(t, "site.nav"));
	gs_buf_puts(&out, "\"><a href=\"");
	gs_buf_puts(&out, prefix);
	gs_buf_puts(&out, "index.html\">");
	gs_html_escape_str(&out, gs_tr(t, "site.index"));
	gs_buf_puts(&out, "</a><a href=\"");
	gs_buf_puts(&out, prefix);
	gs_buf_puts(&out, "offers.html\">");
	gs_html_escape_str(&out, gs_tr(t, "site.offers"));
	gs_buf_puts(&out, "</a><a href=\"");
	gs_buf_puts(&out, prefix);
	gs_buf_puts(&out, "evidence/manifest.json\">");
	gs_html_escape_str(&out, gs_tr(t, "site.manifest"));
	gs_buf_puts(&out, "</a></nav>");
	return gs_buf_detach(&out, NULL);
}

const char *gs_site_nav_status_key(unsigned char s)
{
	return s == 0 ? "overall.retained" : s == 1 ? "overall.preselected"
	       : s == 2 ? "overall.excluded" : s == 4 ? "overall.reference" : "overall.not_compared";
}

const char *gs_site_nav_status_symbol(unsigned char s)
{
	return gs_sheet_words_verdict_symbol(s == 0 ? GS_V_ADMISSIBLE : s == 1 ? GS_V_TO_CONFIRM
				       : s == 2 ? GS_V_EXCLUDE : GS_V_NOT_REQUIRED);
}

unsigned char gs_site_nav_class_status(unsigned char cls)
{
	switch (cls) {
	case GS_CLASS_RETAINED:
		return 0;
	case GS_CLASS_FITS:
	case GS_CLASS_LOWER_FITS:
	case GS_CLASS_UNSURE:
	case GS_CLASS_UNKNOWN:
		return 1;
	case GS_CLASS_EXCLUDED:
		return 2;
	case GS_CLASS_REFERENCE:
		return 4;
	default:
		return 3;
	}
}

const char *gs_site_nav_class_key(unsigned char cls)
{
	static const char *const keys[GS_CLASS_COUNT + 1] = {
		"site.class.retained", "site.class.fits", "site.class.lower_bound_fits",
		"site.class.only_a_measurement", "site.class.capacity_unknown",
		"site.class.excluded", "site.class.reference", "overall.not_compared"
	};
	return keys[cls <= GS_CLASS_COUNT ? cls : GS_CLASS_COUNT];
}

/* index.html, index-2.html (workload page 2), index-1-2.html (offer page 2), ... */
void gs_site_nav_page_name(char *buf, size_t len, size_t page, size_t col)
{
	if (page == 0 && col == 0)
		snprintf(buf, len, "index.html");
	else if (col == 0)
		snprintf(buf, len, "index-%zu.html", page + 1);
	else
		snprintf(buf, len, "index-%zu-%zu.html", page + 1, col + 1);
}

/* offers.html, offers-2.html, ... */
void gs_site_nav_offers_name(char *buf, size_t len, size_t page)
{
	if (page == 0)
		snprintf(buf, len, "offers.html");
	else
		snprintf(buf, len, "offers-%zu.html", page + 1);
}

/*
 * name_of for gs_site_html_pager, the name of page i: index pages whose rows vary
 * (other = the column page) or whose columns vary, offers pages, and (see
 * S_detail_page) the pages of one offer (id).
 */
void gs_site_nav_row_page(char *buf, size_t len, size_t i, size_t col, const char *id)
{
	(void)id;
	gs_site_nav_page_name(buf, len, i, col);
}

void gs_site_nav_col_page(char *buf, size_t len, size_t i, size_t row, const char *id)
{
	(void)id;
	gs_site_nav_page_name(buf, len, row, i);
}

void gs_site_nav_offer_page(char *buf, size_t len, size_t i, size_t other, const char *id)
{
	(void)other;
	(void)id;
	gs_site_nav_offers_name(buf, len, i);
}

static int S_cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return x < y ? -1 : x > y;
}

size_t gs_site_nav_pager_pages(size_t cur, size_t n, size_t *pages)
{
	size_t k = 0, i, m, p, lo, hi;

	if (n <= GS_SITE_PAGER_ALL) {
		for (i = 0; i < n; i++)
			pages[i] = i;
		return n;
	}
	if (cur >= n)
		cur = n - 1;
	pages[k++] = 0;
	pages[k++] = n - 1;
	lo = cur > 2 ? cur - 2 : 0;
	hi = cur + 2 < n ? cur + 2 : n - 1;
	for (i = lo; i <= hi; i++)
		pages[k++] = i;
	/* page numbers from 1: the multiples of p in the block of 10 p holding cur + 1 */
	for (p = 10; p < n && p <= SIZE_MAX / 10; p *= 10) {
		size_t base = cur / (10 * p) * (10 * p);
		for (i = 1; i <= 10 && base + i * p <= n; i++)
			pages[k++] = base + i * p - 1;
	}
	/* at most 2 + 5 + 10 a scale, and fewer than 20 scales in a size_t */
	qsort(pages, k, sizeof(*pages), S_cmp_size);
	for (i = m = 0; i < k; i++)
		if (!m || pages[i] != pages[m - 1])
			pages[m++] = pages[i];
	return m;
}

/* offers/ID.html, offers/ID~2.html, ... ('~' is never in an offer id). */
void gs_site_nav_detail_name(char *buf, size_t len, const char *id, size_t page)
{
	if (page == 0)
		snprintf(buf, len, "%s.html", id);
	else
		snprintf(buf, len, "%s~%zu.html", id, page + 1);
}
