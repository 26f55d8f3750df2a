/*
 * doc: a small builder over cmark-gfm trees, shared by the sheet and the
 * site pages, so that both are one document rendered several ways.
 *
 * Invariants: every string given here enters the tree as a TEXT or CODE
 * node, never as HTML or Markdown source, so that it is escaped by
 * construction in both renderings. Tables always get their alignments set
 * (an unset alignment array crashes cmark-gfm's renderer).
 */
#ifndef GS_DOC_H
#define GS_DOC_H

#include "buf.h"
#include "doc_bounds.h"

#define CMARK_NO_SHORT_NAMES
#include <cmark-gfm.h>
#include <stddef.h>

/*
 * The table extension's node types: exported by libcmark-gfm-extensions,
 * declared in none of its installed headers (cmark-gfm 0.29), so here,
 * once, for the document's builder and its writers.
 */
extern cmark_node_type CMARK_NODE_TABLE, CMARK_NODE_TABLE_ROW, CMARK_NODE_TABLE_CELL;

typedef struct {
	cmark_node *root;
	/* Caption of every table, in document order, for the HTML <caption>. */
	char **captions;
	size_t ncaptions, acaptions;
	/* Headings given a stable HTML id (gs_doc_heading_id), with that id. */
	cmark_node **anchor_nodes;
	char **anchor_ids;
	size_t nanchors, aanchors;
	/* HTML only, each in document order: table cells whose content links
	 * to a fragment (gs_doc_cell_link), list items given an id (gs_doc_item_id). */
	cmark_node **link_cells;
	char **link_ids;
	size_t nlinks, alinks;
	cmark_node **id_items;
	char **item_ids;
	size_t nitems, aitems;
	cmark_node **id_rows;      /* table rows given an id (gs_doc_row_id) */
	char **row_ids;
	size_t nrows, arows;
	cmark_node **id_cells;     /* body cells holding extra ids (gs_doc_cell_id) */
	char **cell_ids;
	size_t ncellids, acellids;
	cmark_node **id_codes;     /* inline code given an id (gs_doc_code_id) */
	char **code_ids;
	size_t ncodeids, acodeids;
} gs_doc;

int gs_doc_init(gs_doc *d);
void gs_doc_release(gs_doc *d);

cmark_node *gs_doc_heading(cmark_node *parent, int level, const char *text);
/*
 * A heading whose HTML rendering carries id="ID", a fragment other pages can
 * link to. id is built by us: letters, digits, '-', '.', '_' only (checked).
 */
cmark_node *gs_doc_heading_id(gs_doc *d, cmark_node *parent, int level, const char *text,
			      const char *id);
/*
 * HTML only: the content of cell (a body cell, from gs_doc_cell) links to
 * "#ID", and the list item of item (a paragraph from gs_doc_item) carries
 * id="ID". The Markdown stays plain: these ids exist in the HTML alone.
 * Each kind must be registered in document order; ids as gs_doc_heading_id.
 */
void gs_doc_cell_link(gs_doc *d, cmark_node *cell, const char *id);
void gs_doc_item_id(gs_doc *d, cmark_node *item, const char *id);
/* HTML only: the body row (from gs_doc_row) carries id="ID"; as above. */
void gs_doc_row_id(gs_doc *d, cmark_node *row, const char *id);
/*
 * HTML only: an empty <a id="ID"></a> opens the content of cell (a body
 * cell), before its link if it has one: a fragment target for what a row
 * stands for besides its own id (the other offers of a grouped row). A cell
 * may hold several, written in the order given; as above.
 */
void gs_doc_cell_id(gs_doc *d, cmark_node *cell, const char *id);
/*
 * Appends inline code (as gs_doc_code) whose HTML element carries id="ID":
 * <code id="ID">text</code>, a fragment target that names what it marks
 * once. The Markdown stays `text`; registered in document order, as above.
 */
void gs_doc_code_id(gs_doc *d, cmark_node *inl, const char *text, const char *id);
cmark_node *gs_doc_para(cmark_node *parent);
/* Appends inline content to a paragraph, heading or cell. */
void gs_doc_text(cmark_node *inl, const char *text);
void gs_doc_textf(cmark_node *inl, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void gs_doc_strong(cmark_node *inl, const char *text);
void gs_doc_code(cmark_node *inl, const char *text);
/* A link whose text and URL are both plain strings (URL built by us). */
void gs_doc_link(cmark_node *inl, const char *url, const char *text);
void gs_doc_image(cmark_node *inl, const char *url, const char *alt);
cmark_node *gs_doc_list(cmark_node *parent, int ordered);
/* A list item holding one paragraph; returns the paragraph. */
cmark_node *gs_doc_item(cmark_node *list);
cmark_node *gs_doc_quote(cmark_node *parent);

/* Tables: a caption (kept for HTML), a header row, then body rows. */
cmark_node *gs_doc_table(gs_doc *d, cmark_node *parent, const char *caption,
			 size_t ncols, const char *const *headers);
cmark_node *gs_doc_row(cmark_node *table);
/* Appends a cell to a row and returns it, to fill with gs_doc_text etc. */
cmark_node *gs_doc_cell(cmark_node *row);
cmark_node *gs_doc_cell_text(cmark_node *row, const char *text);

/*
 * User-written Markdown (notes): parsed without raw HTML; HTML nodes become
 * text, images become their alt text and links keep only their text, so that
 * nothing in it can run, load or point anywhere. Appended to parent.
 */
void gs_doc_user_markdown(cmark_node *parent, const char *md);

/* The document as Markdown (doc_md.c: the writers call into doc.c, never
 * the other way). */
char *gs_doc_md_render(const gs_doc *d);
/*
 * The Markdown of the tree at root written directly (doc_md.c): the bytes
 * cmark_render_commonmark(root, CMARK_OPT_DEFAULT, 0) gives, several times
 * faster, for the trees gpusheet builds. The blocks of a user's notes
 * (gs_doc_user_markdown: any Markdown, with all the corner cases of
 * cmark-gfm's writer) are written by cmark-gfm, each whole. NULL when the
 * tree holds a node it does not write (or notes below the top level);
 * gs_doc_md_render then asks cmark-gfm.
 */
char *gs_doc_md_direct(cmark_node *root);
/* 1 when n is a top-level block appended by gs_doc_user_markdown. */
int gs_doc_is_user_block(cmark_node *n);
/* HTML body, with table captions, header scopes and heading ids added
 * (doc_html.c). */
char *gs_doc_html_render(const gs_doc *d);
/* The same, always through cmark-gfm's HTML renderer (for the tests). */
char *gs_doc_render_html_cmark(const gs_doc *d);
/*
 * The HTML of the tree at root written directly (doc_html.c): the bytes
 * cmark_render_html(root, CMARK_OPT_DEFAULT, NULL) gives, for the trees
 * gpusheet builds; the blocks of a user's notes in it are written by
 * cmark-gfm, each whole. NULL when the tree holds a node it does not write.
 */
char *gs_doc_html_direct(cmark_node *root);
/* gs_doc_html_render's bytes written directly; NULL as gs_doc_html_direct. */
char *gs_doc_html_body_direct(const gs_doc *d);
/*
 * For pages written as HTML directly (the site's own pages), the same bytes
 * as the tree would give: url as a link's href (left empty when cmark-gfm
 * would drop it), appended to b. A text node's HTML is gs_html_escape's
 * (html.h: & < > " escaped).
 */
void gs_doc_html_url(gs_buf *b, const char *url);

#endif
