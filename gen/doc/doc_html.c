/*
 * doc_html: the HTML rendering of a document, written directly.
 *
 * cmark-gfm's HTML renderer was, after the Markdown went direct (doc_md.c),
 * most of what a sheet spent in cmark-gfm, and its output then took a
 * second pass to add the tables' captions, the headings' ids and the header
 * cells' scope. This writer walks the tree once and writes, for the nodes
 * gpusheet builds (headings, paragraphs, text, strong, emphasis, code,
 * links, images, line breaks, lists, block quotes, GFM tables, thematic
 * breaks), the bytes cmark_render_html(root, CMARK_OPT_DEFAULT, NULL) of
 * cmark-gfm 0.29.0.gfm.6 gives, with those additions made on the way (and,
 * HTML only, the links of gs_doc_cell_link, the ids of gs_doc_item_id and
 * gs_doc_row_id, and the empty anchors of gs_doc_cell_id). The
 * blocks of a user's notes (any Markdown) are written by cmark-gfm, each
 * whole (S_user_block); a document with any other node is refused and
 * doc.c renders it through cmark-gfm, so the output never depends on which
 * writer ran.
 *
 * The rules, as cmark-gfm 0.29 writes HTML with its default options: a
 * block starts on a new line (a newline is added unless the output is empty
 * or already ends with one); text, code and the alt text of an image escape
 * & < > " (never ' or /); a URL keeps letters, digits and
 * -_.+!*(),%#@?=;:/$~, writes & and ' as entities and every other byte as
 * %XX, and is left empty when it starts (in any case) with javascript:,
 * vbscript:, file: or data: other than data:image/png, gif, jpeg or webp;
 * a paragraph directly in a tight list's item has no <p>; an image's
 * children are written as its alt text (text and code escaped, breaks as
 * spaces, the rest dropped); a table's first body row opens <tbody>.
 * test_doc compares it with cmark-gfm's renderer on generated documents.
 */
#include "doc.h"
#include "html.h"
#include "util.h"

#include <cmark-gfm-core-extensions.h>

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


typedef struct {
	gs_buf b;                  /* the HTML */
	const gs_doc *d;           /* NULL: cmark-gfm's bytes, nothing added */
	size_t ntable, nanchor;
	size_t nlink, nitem, nrow; /* the next gs_doc_cell_link, gs_doc_item_id, gs_doc_row_id */
	size_t ncellid;            /* the next gs_doc_cell_id */
	size_t ncodeid;            /* the next gs_doc_code_id */
	bool link_open;            /* a cell's link to close with the cell */
	cmark_node *plain;         /* an image whose children are its alt text */
	size_t col;                /* the place of the next cell in its row */
	bool in_head, need_tbody_close;
} S_html;

static inline void S_put(S_html *h, const char *s, size_t n)
{
	if (n)   /* s may be NULL then */
		gs_buf_put(&h->b, s, n);
}

#define S_PUTS(h, lit) S_put((h), (lit), sizeof(lit) - 1)

/* A block starts on a new line. */
static void S_cr(S_html *h)
{
	if (h->b.len && h->b.data[h->b.len - 1] != '\n')
		S_put(h, "\n", 1);
}

/* Text as a text node's HTML: the one escaper (html.h). */
static void S_text(S_html *h, const char *s)
{
	gs_html_escape_str(&h->b, s);
}

static bool S_href_safe(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       (c && strchr("-_.+!*(),%#@?=;:/$~", c));
}

static void S_href(S_html *h, const char *s)
{
	static const char hex[] = "0123456789ABCDEF";
	const unsigned char *p = (const unsigned char *)s;

	for (; *p; p++) {
		if (S_href_safe(*p)) {
			S_put(h, (const char *)p, 1);
		} else if (*p == '&') {
			S_PUTS(h, "&amp;");
		} else if (*p == '\'') {
			S_PUTS(h, "&#x27;");
		} else {
			char e[3] = { '%', hex[*p >> 4], hex[*p & 15] };
			S_put(h, e, 3);
		}
	}
}

/* s starts with prefix, letters compared without case (prefix: lower case). */
static bool S_starts_nocase(const char *s, const char *prefix)
{
	for (; *prefix; s++, prefix++) {
		char c = *s >= 'A' && *s <= 'Z' ? (char)(*s - 'A' + 'a') : *s;
		if (c != *prefix)
			return false;
	}
	return true;
}

/* A URL cmark-gfm leaves out of href and src (its scan_dangerous_url). */
static bool S_dangerous(const char *url)
{
	if (S_starts_nocase(url, "data:image/png") || S_starts_nocase(url, "data:image/gif") ||
	    S_starts_nocase(url, "data:image/jpeg") || S_starts_nocase(url, "data:image/webp"))
		return false;
	return S_starts_nocase(url, "javascript:") || S_starts_nocase(url, "vbscript:") ||
	       S_starts_nocase(url, "file:") || S_starts_nocase(url, "data:");
}

static void S_url(S_html *h, cmark_node *n)
{
	const char *url = cmark_node_get_url(n);

	if (url && !S_dangerous(url))
		S_href(h, url);
}

static void S_title(S_html *h, cmark_node *n)
{
	const char *title = cmark_node_get_title(n);

	if (title && *title) {
		S_PUTS(h, "\" title=\"");
		S_text(h, title);
	}
}

/* A paragraph directly in an item of a tight list: written without <p>. */
static bool S_tight_para(cmark_node *n)
{
	cmark_node *parent = cmark_node_parent(n);
	cmark_node *grand = parent ? cmark_node_parent(parent) : NULL;

	return grand && cmark_node_get_type(grand) == CMARK_NODE_LIST &&
	       cmark_node_get_list_tight(grand);
}

/*
 * <TAG> or <TAG id="ID"> when n is the next node given an id (nodes[*next],
 * registered in document order: gs_doc_row_id, gs_doc_item_id). The ids
 * are ours: letters, digits, - . _ (doc.c checks them).
 */
static void S_open_tag(S_html *h, const char *tag, cmark_node *n, cmark_node *const *nodes,
		       char *const *ids, size_t count, size_t *next)
{
	S_put(h, "<", 1);
	S_put(h, tag, strlen(tag));
	if (*next < count && nodes[*next] == n) {
		S_PUTS(h, " id=\"");
		S_text(h, ids[(*next)++]);
		S_put(h, "\"", 1);
	}
	S_put(h, ">", 1);
}

static int S_table_node(S_html *h, cmark_node *n, cmark_node_type t, bool entering)
{
	if (!cmark_node_get_syntax_extension(n))
		return -1;   /* cmark-gfm writes nothing for it: not ours */
	if (t == CMARK_NODE_TABLE) {
		if (entering) {
			S_cr(h);
			if (h->d) {
				/* Focusable: a table wider than the page scrolls in
				 * its own box (sheet.css), which the keyboard must
				 * reach too. */
				S_PUTS(h, "<table tabindex=\"0\">\n<caption>");
				if (h->ntable < h->d->ncaptions)
					S_text(h, h->d->captions[h->ntable]);
				h->ntable++;
				S_PUTS(h, "</caption>");
			} else {
				S_PUTS(h, "<table>");
			}
			h->need_tbody_close = false;
		} else {
			if (h->need_tbody_close) {
				S_cr(h);
				S_PUTS(h, "</tbody>");
				S_cr(h);
			}
			h->need_tbody_close = false;
			S_cr(h);
			S_PUTS(h, "</table>");
			S_cr(h);
		}
	} else if (t == CMARK_NODE_TABLE_ROW) {
		bool head = cmark_gfm_extensions_get_table_row_is_header(n) != 0;

		if (entering) {
			h->col = 0;
			S_cr(h);
			if (head) {
				h->in_head = true;
				S_PUTS(h, "<thead>");
				S_cr(h);
			} else if (!h->need_tbody_close) {
				S_PUTS(h, "<tbody>");
				S_cr(h);
				h->need_tbody_close = true;
			}
			S_open_tag(h, "tr", n, h->d ? h->d->id_rows : NULL,
				   h->d ? h->d->row_ids : NULL, h->d ? h->d->nrows : 0, &h->nrow);
		} else {
			S_cr(h);
			S_PUTS(h, "</tr>");
			if (head) {
				S_cr(h);
				S_PUTS(h, "</thead>");
				h->in_head = false;
			}
		}
	} else if (entering) {
		/* the alignment of the cell's column: its place in the row */
		cmark_node *table = cmark_node_parent(cmark_node_parent(n));
		uint8_t *align = cmark_gfm_extensions_get_table_alignments(table);
		size_t col = h->col++;

		if (!align || col >= cmark_gfm_extensions_get_table_columns(table))
			return -1;   /* cmark-gfm would read past the alignments */
		S_cr(h);
		if (!h->in_head)
			S_PUTS(h, "<td");
		else if (h->d)
			S_PUTS(h, "<th scope=\"col\"");
		else
			S_PUTS(h, "<th");
		if (align[col] == 'l')
			S_PUTS(h, " align=\"left\"");
		else if (align[col] == 'c')
			S_PUTS(h, " align=\"center\"");
		else if (align[col] == 'r')
			S_PUTS(h, " align=\"right\"");
		S_put(h, ">", 1);
		while (!h->in_head && h->d && h->ncellid < h->d->ncellids &&
		       h->d->id_cells[h->ncellid] == n) {
			/* an extra fragment target, ours as the ids below */
			S_PUTS(h, "<a id=\"");
			S_text(h, h->d->cell_ids[h->ncellid++]);
			S_PUTS(h, "\"></a>");
		}
		if (!h->in_head && h->d && h->nlink < h->d->nlinks &&
		    h->d->link_cells[h->nlink] == n) {
			/* the ids are ours: letters, digits, - . _ (gs_doc_cell_link) */
			S_PUTS(h, "<a href=\"#");
			S_text(h, h->d->link_ids[h->nlink++]);
			S_PUTS(h, "\">");
			h->link_open = true;
		}
	} else if (h->in_head) {
		S_PUTS(h, "</th>");
	} else {
		if (h->link_open)
			S_PUTS(h, "</a>");
		h->link_open = false;
		S_PUTS(h, "</td>");
	}
	return 0;
}

/* The alt text of an image: text only; -1: a node it cannot hold. */
static int S_alt_node(S_html *h, cmark_node *n, cmark_node_type t)
{
	if (t == CMARK_NODE_TEXT || t == CMARK_NODE_CODE)
		S_text(h, cmark_node_get_literal(n));
	else if (t == CMARK_NODE_LINEBREAK || t == CMARK_NODE_SOFTBREAK)
		S_put(h, " ", 1);
	else if (t == CMARK_NODE_HTML_INLINE)
		return -1;
	return 0;
}

/* Enters (entering) or leaves block n; -1: a block this writer does not write. */
static int S_block_node(S_html *h, cmark_node *n, cmark_node_type t, bool entering)
{
	switch (t) {
	case CMARK_NODE_DOCUMENT:
		break;
	case CMARK_NODE_BLOCK_QUOTE:
		S_cr(h);
		if (entering)
			S_PUTS(h, "<blockquote>\n");
		else
			S_PUTS(h, "</blockquote>\n");
		break;
	case CMARK_NODE_LIST:
		if (!entering) {
			if (cmark_node_get_list_type(n) == CMARK_BULLET_LIST)
				S_PUTS(h, "</ul>\n");
			else
				S_PUTS(h, "</ol>\n");
			break;
		}
		S_cr(h);
		if (cmark_node_get_list_type(n) == CMARK_BULLET_LIST) {
			S_PUTS(h, "<ul>\n");
		} else if (cmark_node_get_list_start(n) == 1) {
			S_PUTS(h, "<ol>\n");
		} else {
			char num[32];
			int k = snprintf(num, sizeof(num), "<ol start=\"%d\">\n", cmark_node_get_list_start(n));
			S_put(h, num, (size_t)k);
		}
		break;
	case CMARK_NODE_ITEM:
		if (entering) {
			S_cr(h);
			S_open_tag(h, "li", n, h->d ? h->d->id_items : NULL,
				   h->d ? h->d->item_ids : NULL, h->d ? h->d->nitems : 0, &h->nitem);
		} else {
			S_PUTS(h, "</li>\n");
		}
		break;
	case CMARK_NODE_HEADING: {
		char level = (char)('0' + cmark_node_get_heading_level(n));
		char tag[6] = { '<', '/', 'h', level, '>', '\n' };

		if (!entering) {
			S_put(h, tag, 6);
			break;
		}
		S_cr(h);
		tag[1] = '<';
		S_put(h, tag + 1, 3);
		if (h->d && h->nanchor < h->d->nanchors && h->d->anchor_nodes[h->nanchor] == n) {
			/* the ids are ours: letters, digits, - . _ (gs_doc_heading_id) */
			S_PUTS(h, " id=\"");
			S_text(h, h->d->anchor_ids[h->nanchor++]);
			S_PUTS(h, "\"");
		}
		S_put(h, ">", 1);
		break;
	}
	case CMARK_NODE_THEMATIC_BREAK:
		S_cr(h);
		S_PUTS(h, "<hr />\n");
		break;
	case CMARK_NODE_PARAGRAPH:
		if (S_tight_para(n))
			break;
		if (entering) {
			S_cr(h);
			S_PUTS(h, "<p>");
		} else {
			S_PUTS(h, "</p>\n");
		}
		break;
	default:
		return -1;
	}
	return 0;
}

/* Enters (entering) or leaves inline n; -1: an inline this writer does not write. */
static int S_inline_node(S_html *h, cmark_node *n, cmark_node_type t, bool entering)
{
	switch (t) {
	case CMARK_NODE_TEXT:
		S_text(h, cmark_node_get_literal(n));
		break;
	case CMARK_NODE_LINEBREAK:
		S_PUTS(h, "<br />\n");
		break;
	case CMARK_NODE_SOFTBREAK:
		S_put(h, "\n", 1);
		break;
	case CMARK_NODE_CODE:
		if (h->d && h->ncodeid < h->d->ncodeids && h->d->id_codes[h->ncodeid] == n) {
			/* the ids are ours: letters, digits, - . _ (gs_doc_code_id) */
			S_PUTS(h, "<code id=\"");
			S_text(h, h->d->code_ids[h->ncodeid++]);
			S_PUTS(h, "\">");
		} else {
			S_PUTS(h, "<code>");
		}
		S_text(h, cmark_node_get_literal(n));
		S_PUTS(h, "</code>");
		break;
	case CMARK_NODE_STRONG:
		if (entering)
			S_PUTS(h, "<strong>");
		else
			S_PUTS(h, "</strong>");
		break;
	case CMARK_NODE_EMPH:
		if (entering)
			S_PUTS(h, "<em>");
		else
			S_PUTS(h, "</em>");
		break;
	case CMARK_NODE_LINK:
		if (!entering) {
			S_PUTS(h, "</a>");
			break;
		}
		S_PUTS(h, "<a href=\"");
		S_url(h, n);
		S_title(h, n);
		S_PUTS(h, "\">");
		break;
	case CMARK_NODE_IMAGE:
		if (entering) {
			S_PUTS(h, "<img src=\"");
			S_url(h, n);
			S_PUTS(h, "\" alt=\"");
			h->plain = n;
		} else {
			S_title(h, n);
			S_PUTS(h, "\" />");
		}
		break;
	default:
		return -1;
	}
	return 0;
}

/* Enters (entering) or leaves node n; -1: a node this writer does not write. */
static int S_node(S_html *h, cmark_node *n, bool entering)
{
	cmark_node_type t = cmark_node_get_type(n);

	if (h->plain == n)
		h->plain = NULL;
	if (h->plain)
		return S_alt_node(h, n, t);
	if (t == CMARK_NODE_TABLE || t == CMARK_NODE_TABLE_ROW || t == CMARK_NODE_TABLE_CELL)
		return S_table_node(h, n, t, entering);
	/* nodes of the core types carrying an extension render through it */
	if (cmark_node_get_syntax_extension(n))
		return -1;
	if ((t & CMARK_NODE_TYPE_MASK) == CMARK_NODE_TYPE_INLINE)
		return S_inline_node(h, n, t, entering);
	return S_block_node(h, n, t, entering);
}

/*
 * A block of a user's notes, written by cmark-gfm's renderer. It writes a
 * block the same alone as within its document: the block is still in the
 * tree (what it asks of its parent, its siblings, gets the same answer),
 * every block starts with a new line (added here, as cmark-gfm's renderer
 * adds it), and no state of that renderer crosses from one block to the
 * next (a table's, reset when a table starts; an image's alt text, inline
 * only; footnotes, not enabled). Decorated as gs_doc_html_render's pass
 * does: a table takes the next caption, a header cell its scope; a heading
 * of the notes has no id.
 */
static void S_user_block(S_html *h, cmark_node *n)
{
	char *html = cmark_render_html(n, CMARK_OPT_DEFAULT, NULL);
	const char *p = html;

	if (!html)
		GS_BUG("cmark-gfm rendered no HTML");
	S_cr(h);
	while (h->d && *p) {
		/* every '<' of this HTML starts a tag: the notes' raw HTML is
		 * text (gs_doc_user_markdown) and text escapes '<' */
		const char *lt = strchr(p, '<');

		if (!lt)
			break;
		S_put(h, p, (size_t)(lt - p));
		if (strncmp(lt, "<table>", 7) == 0) {
			S_PUTS(h, "<table tabindex=\"0\">\n<caption>");
			if (h->ntable < h->d->ncaptions)
				S_text(h, h->d->captions[h->ntable]);
			h->ntable++;
			S_PUTS(h, "</caption>");
			p = lt + 7;
		} else if (strncmp(lt, "<th", 3) == 0 && (lt[3] == '>' || lt[3] == ' ')) {
			S_PUTS(h, "<th scope=\"col\"");
			p = lt + 3;
		} else {
			S_put(h, "<", 1);
			p = lt + 1;
		}
	}
	S_put(h, p, strlen(p));
	free(html);
}

/* The walk; d NULL: cmark-gfm's bytes alone. NULL when refused. */
static char *S_write(const gs_doc *d, cmark_node *root)
{
	S_html h;
	cmark_iter *it;
	cmark_event_type ev;
	int rc = 0;

	memset(&h, 0, sizeof(h));
	h.d = d;
	gs_buf_init(&h.b, 16384);
	it = cmark_iter_new(root);
	while (rc == 0 && (ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *n = cmark_iter_get_node(it);
		bool entering = ev == CMARK_EVENT_ENTER;

		if (entering && gs_doc_is_user_block(n)) {
			/* a user's notes: cmark-gfm writes the block, whole */
			S_user_block(&h, n);
			cmark_iter_reset(it, n, CMARK_EVENT_EXIT);
		} else {
			rc = S_node(&h, n, entering);
		}
	}
	cmark_iter_free(it);
	if (rc == 0 && d && (h.nanchor != d->nanchors || h.nlink != d->nlinks ||
			     h.nitem != d->nitems || h.nrow != d->nrows || h.ncellid != d->ncellids ||
			     h.ncodeid != d->ncodeids))
		GS_BUG("a heading id, cell link, item id, row id or cell id was registered out of document order");
	if (rc) {
		gs_buf_release(&h.b);
		return NULL;
	}
	return gs_buf_detach(&h.b, NULL);
}

char *gs_doc_html_direct(cmark_node *root)
{
	return S_write(NULL, root);
}

char *gs_doc_html_body_direct(const gs_doc *d)
{
	return S_write(d, d->root);
}

char *gs_doc_html_render(const gs_doc *d)
{
	char *html = gs_doc_html_body_direct(d);

	return html ? html : gs_doc_render_html_cmark(d);
}

void gs_doc_html_url(gs_buf *b, const char *url)
{
	S_html h;

	if (S_dangerous(url))
		return;
	memset(&h, 0, sizeof(h));
	h.b = *b;
	S_href(&h, url);
	*b = h.b;
}
