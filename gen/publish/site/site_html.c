/* site: the HTML writer of the site's pages (gs_site_w). */
#define _DEFAULT_SOURCE
#include "site_ctx.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doc.h"
#include "html.h"
#include "outfile.h"
#include "render.h"
#include "sheet.h"
#include "util.h"

/*** pages written as HTML directly ***/

void gs_site_html_raw(gs_site_w *w, const char *s)
{
	gs_buf_puts(w, s);
}

void gs_site_html_text(gs_site_w *w, const char *s)
{
	gs_html_escape_str(w, s);
}

/* gs_doc_textf's text, written directly (the same formatter: gs_util_vfmt, else vsnprintf). */
void gs_site_html_textf(gs_site_w *w, const char *fmt, ...)
{
	va_list ap;
	char small[256], *heap;

	va_start(ap, fmt);
	gs_site_html_text(w, gs_util_vfmt_small(small, sizeof(small), &heap, fmt, ap));
	va_end(ap);
	free(heap);
}

void gs_site_html_num(gs_site_w *w, uint64_t v)
{
	char d[GS_DEC_MAX], *p = gs_dec(d, v, 0);

	gs_buf_put(w, p, (size_t)(d + GS_DEC_MAX - p));
}

void gs_site_html_code(gs_site_w *w, const char *s)
{
	S_LIT(w, "<code>");
	gs_site_html_text(w, s);
	S_LIT(w, "</code>");
}

/* <a href="URL">, url as a whole (a link's href: the check of its scheme sees all of it). */
void gs_site_html_a(gs_site_w *w, const char *url)
{
	S_LIT(w, "<a href=\"");
	gs_doc_html_url(w, url);
	S_LIT(w, "\">");
}

void gs_site_html_para(gs_site_w *w, const char *text)
{
	S_LIT(w, "<p>");
	gs_site_html_text(w, text);
	S_LIT(w, "</p>\n");
}

void gs_site_html_h1(gs_site_w *w, const char *text)
{
	S_LIT(w, "<h1>");
	gs_site_html_text(w, text);
	S_LIT(w, "</h1>\n");
}

/* A table up to its header row's end; its body rows follow. */
void gs_site_html_table(gs_site_w *w, const char *caption, const char *const *heads, size_t ncols)
{
	size_t j;

	S_LIT(w, "<table tabindex=\"0\">\n<caption>");
	gs_site_html_text(w, caption);
	S_LIT(w, "</caption>\n<thead>\n<tr>");
	for (j = 0; j < ncols; j++) {
		S_LIT(w, "\n<th scope=\"col\">");
		gs_site_html_text(w, heads[j]);
		S_LIT(w, "</th>");
	}
	S_LIT(w, "\n</tr>\n</thead>");
}

/* A body row's start (the first opens <tbody>), a cell's start, and the table's end. */
void gs_site_html_row(gs_site_w *w, size_t *rows)
{
	if ((*rows)++)
		S_LIT(w, "\n</tr>\n<tr>");
	else
		S_LIT(w, "\n<tbody>\n<tr>");
}

void gs_site_html_td(gs_site_w *w)
{
	S_LIT(w, "\n<td>");
}

void gs_site_html_table_end(gs_site_w *w, size_t rows)
{
	if (rows)
		S_LIT(w, "\n</tr>\n</tbody>\n</table>\n");
	else
		S_LIT(w, "\n</table>\n");
}

/*
 * "LABEL k / n: 1 2 3" with links to the other pages (name_of(i, other,
 * id)); beyond GS_SITE_PAGER_ALL pages, those of gs_site_nav_pager_pages with
 * "…" where pages are left out.
 */
void gs_site_html_pager(gs_site_w *w, const char *label, size_t cur, size_t n,
		     void (*name_of)(char *, size_t, size_t, size_t, const char *), size_t other,
		     const char *id)
{
	size_t pages[GS_SITE_PAGER_MAX], np, j;

	if (n <= 1)
		return;
	np = gs_site_nav_pager_pages(cur, n, pages);
	S_LIT(w, "<p>");
	gs_site_html_text(w, label);
	S_LIT(w, " ");
	gs_site_html_num(w, cur + 1);
	S_LIT(w, " / ");
	gs_site_html_num(w, n);
	S_LIT(w, ": ");
	for (j = 0; j < np; j++) {
		size_t i = pages[j];
		char pn[160];
		if (j && i == pages[j - 1] + 1)
			S_LIT(w, " ");
		else if (j)
			S_LIT(w, " … ");
		if (i == cur) {
			S_LIT(w, "<strong>");
			gs_site_html_num(w, i + 1);
			S_LIT(w, "</strong>");
		} else {
			name_of(pn, sizeof(pn), i, other, id);
			gs_site_html_a(w, pn);
			gs_site_html_num(w, i + 1);
			S_LIT(w, "</a>");
		}
	}
	S_LIT(w, "</p>\n");
}

/* Built with --accept-synthetic and some verdict rests on a synthetic file. */
void gs_site_html_demo(gs_site_w *w, const gs_strings *t, int demonstration)
{
	if (!demonstration)
		return;
	S_LIT(w, "<blockquote>\n<p><strong>");
	gs_site_html_text(w, gs_tr(t, "demo.title"));
	S_LIT(w, "</strong> ");
	gs_site_html_text(w, gs_tr(t, "demo.site_body"));
	S_LIT(w, "</p>\n</blockquote>\n");
}

/*
 * The page: body (taken) in the page template, written to dir/name. root:
 * the relative path from dir to the site's root, "" or "../".
 */
int gs_site_html_page(const gs_publish_env *env, const char *dir, const char *name, gs_site_w *body,
		   const char *title, const char *nav, const char *root, const char *script,
		   gs_error *err)
{
	char *html;
	int rc;

	html = gs_render_page(env->tp, env->t->lang, title, nav, root, body->data, script);
	gs_buf_release(body);
	if (!html) {
		gs_error_set(err, "cannot render %s", name);
		return -1;
	}
	rc = gs_outfile_write_atomic(dir, name, html, strlen(html), err);
	free(html);
	return rc;
}
