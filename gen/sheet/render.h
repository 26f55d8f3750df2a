/*
 * render: one document, several renderings. The sheet's tree becomes GFM
 * Markdown and a standalone HTML page (skeleton and CSS from templates/);
 * the decision becomes JSON (schemas/decision.schema.json).
 *
 * Invariants: the HTML page requests nothing outside its folder (styles
 * inline, images are the sheet's own files, a Content-Security-Policy
 * forbids remote loads and every script but the site's own matrix.js, on
 * the index pages only); every user string is escaped by construction; output is
 * a pure function of the inputs (no clock).
 */
#ifndef GS_RENDER_H
#define GS_RENDER_H

#include "error.h"

#include "doc.h"
#include "sheet.h"
#include "labels.h"

typedef struct {
	char *page;   /* templates/page.html */
	char *css;    /* templates/sheet.css */
	char *script; /* templates/matrix.js: the index matrix's sorting and filters */
} gs_templates;

int gs_render_templates_load(gs_templates *tp, gs_error *err);
void gs_render_templates_release(gs_templates *tp);

char *gs_render_markdown(const gs_doc *doc);
/*
 * nav_html: trusted HTML built by the caller (site navigation), or NULL.
 * site_root: NULL for a page that stands alone (its style sheet inline), or
 * the relative path from the page's folder to the site's root ("" or
 * "../"), where the site writes the style sheet once (GS_SITE_CSS): a
 * site's pages link to it instead of each carrying a copy.
 */
#define GS_SITE_CSS "style.css"
char *gs_render_html(const gs_templates *tp, const gs_doc *doc, gs_lang lang,
		     const char *title, const char *nav_html, const char *site_root);
/*
 * The page template around body_html (trusted HTML built by the caller,
 * every user string escaped: a page written without a document tree), the
 * rest as gs_render_html, and script_src (a file name of ours in the page's
 * folder, or NULL): loaded deferred, and the only script the page's CSP
 * allows ('self'). gs_render_html is this with the document's HTML.
 */
char *gs_render_page(const gs_templates *tp, gs_lang lang, const char *title,
		     const char *nav_html, const char *site_root, const char *body_html,
		     const char *script_src);
char *gs_render_decision_json(const gs_sheet_input *in);
/* Longest user string in the summary, in bytes, before it is cut and marked. */
#define GS_SUMMARY_MAX_STRING 1000
/*
 * Compact GFM summary for a CI job (decision, offers, what remains, link),
 * at most 1 MiB whatever the input: user strings cut at
 * GS_SUMMARY_MAX_STRING bytes, at most 50 offers listed.
 */
char *gs_render_summary(const gs_sheet_input *in, const char *sheet_link);

#endif
