#define _POSIX_C_SOURCE 200809L
/* doc: a small builder over cmark-gfm trees. */
#include "doc.h"
#include "html.h"
#include "util.h"

#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm-extension_api.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


static cmark_syntax_extension *S_table_ext(void)
{
	static cmark_syntax_extension *ext;

	if (!ext) {
		cmark_gfm_core_extensions_ensure_registered();
		ext = cmark_find_syntax_extension("table");
		if (!ext)
			GS_BUG("cmark-gfm has no \"table\" extension");
	}
	return ext;
}

/*
 * Nodes, literals and URLs are allocated by cmark-gfm's own allocator, one
 * by one, and freed by cmark_node_free's walk in gs_doc_release. An arena
 * of our own under it saved 4 % of a sheet's CPU against 883 offers and
 * 1 % of a site's (issue 37, measured side by side): not the fifth that
 * would keep a copy of what the library does.
 */
static void S_literal(cmark_node *n, const char *text)
{
	cmark_node_set_literal(n, text ? text : "");
}

static void S_url(cmark_node *n, const char *url)
{
	cmark_node_set_url(n, url);
}

int gs_doc_init(gs_doc *d)
{
	memset(d, 0, sizeof(*d));
	S_table_ext();
	d->root = cmark_node_new(CMARK_NODE_DOCUMENT);
	return d->root ? 0 : -1;
}

/* A list of (node, id) pairs: the ids and both arrays. */
static void S_free_ids(cmark_node **nodes, char **ids, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(ids[i]);
	free(ids);
	free(nodes);
}

void gs_doc_release(gs_doc *d)
{
	size_t i;

	if (d->root)
		cmark_node_free(d->root);
	for (i = 0; i < d->ncaptions; i++)
		free(d->captions[i]);
	free(d->captions);
	S_free_ids(d->anchor_nodes, d->anchor_ids, d->nanchors);
	S_free_ids(d->link_cells, d->link_ids, d->nlinks);
	S_free_ids(d->id_items, d->item_ids, d->nitems);
	S_free_ids(d->id_rows, d->row_ids, d->nrows);
	S_free_ids(d->id_cells, d->cell_ids, d->ncellids);
	S_free_ids(d->id_codes, d->code_ids, d->ncodeids);
	memset(d, 0, sizeof(*d));
}

static cmark_node *S_append(cmark_node *parent, cmark_node *child)
{
	if (!child || !cmark_node_append_child(parent, child))
		GS_BUG("cmark-gfm refused a node (out of memory, or a child of the wrong type)");
	return child;
}

void gs_doc_text(cmark_node *inl, const char *text)
{
	cmark_node *t = cmark_node_new(CMARK_NODE_TEXT);

	S_literal(t, text);
	S_append(inl, t);
}

void gs_doc_textf(cmark_node *inl, const char *fmt, ...)
{
	va_list ap;
	char small[256], *heap;

	/* formatted on the stack when short (most are): no allocation */
	va_start(ap, fmt);
	gs_doc_text(inl, gs_util_vfmt_small(small, sizeof(small), &heap, fmt, ap));
	va_end(ap);
	free(heap);
}

cmark_node *gs_doc_heading(cmark_node *parent, int level, const char *text)
{
	cmark_node *h = S_append(parent, cmark_node_new(CMARK_NODE_HEADING));

	cmark_node_set_heading_level(h, level);
	gs_doc_text(h, text);
	return h;
}

/* An id we build: letters, digits, '-', '.', '_' only. */
static void S_check_id(const char *id)
{
	const char *q;

	if (!*id)
		GS_BUG("empty HTML id");
	for (q = id; *q; q++)
		if (!((*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z') ||
		      (*q >= '0' && *q <= '9') || *q == '-' || *q == '.' || *q == '_'))
			GS_BUG("HTML id with a character outside [A-Za-z0-9._-]");
}

/* Appends (node, id) to a pair of growing arrays. */
static void S_note(cmark_node ***nodes, char ***ids, size_t *n, size_t *a, cmark_node *node,
		   const char *id)
{
	S_check_id(id);
	if (*n == *a) {
		*a = *a ? *a * 2 : 8;
		*nodes = gs_xrealloc(*nodes, *a * sizeof(**nodes));
		*ids = gs_xrealloc(*ids, *a * sizeof(**ids));
	}
	(*nodes)[*n] = node;
	(*ids)[*n] = gs_xstrdup(id);
	(*n)++;
}

void gs_doc_cell_link(gs_doc *d, cmark_node *cell, const char *id)
{
	S_note(&d->link_cells, &d->link_ids, &d->nlinks, &d->alinks, cell, id);
}

void gs_doc_item_id(gs_doc *d, cmark_node *item, const char *id)
{
	S_note(&d->id_items, &d->item_ids, &d->nitems, &d->aitems, cmark_node_parent(item), id);
}

void gs_doc_row_id(gs_doc *d, cmark_node *row, const char *id)
{
	S_note(&d->id_rows, &d->row_ids, &d->nrows, &d->arows, row, id);
}

void gs_doc_cell_id(gs_doc *d, cmark_node *cell, const char *id)
{
	S_note(&d->id_cells, &d->cell_ids, &d->ncellids, &d->acellids, cell, id);
}

void gs_doc_code_id(gs_doc *d, cmark_node *inl, const char *text, const char *id)
{
	gs_doc_code(inl, text);
	S_note(&d->id_codes, &d->code_ids, &d->ncodeids, &d->acodeids, cmark_node_last_child(inl), id);
}

cmark_node *gs_doc_heading_id(gs_doc *d, cmark_node *parent, int level, const char *text,
			      const char *id)
{
	cmark_node *h = gs_doc_heading(parent, level, text);

	S_check_id(id);
	if (d->nanchors == d->aanchors) {
		d->aanchors = d->aanchors ? d->aanchors * 2 : 8;
		d->anchor_nodes = gs_xrealloc(d->anchor_nodes, d->aanchors * sizeof(*d->anchor_nodes));
		d->anchor_ids = gs_xrealloc(d->anchor_ids, d->aanchors * sizeof(*d->anchor_ids));
	}
	d->anchor_nodes[d->nanchors] = h;
	d->anchor_ids[d->nanchors] = gs_xstrdup(id);
	d->nanchors++;
	return h;
}

cmark_node *gs_doc_para(cmark_node *parent)
{
	return S_append(parent, cmark_node_new(CMARK_NODE_PARAGRAPH));
}

void gs_doc_strong(cmark_node *inl, const char *text)
{
	gs_doc_text(S_append(inl, cmark_node_new(CMARK_NODE_STRONG)), text);
}

void gs_doc_code(cmark_node *inl, const char *text)
{
	cmark_node *c = S_append(inl, cmark_node_new(CMARK_NODE_CODE));

	S_literal(c, text);
}

void gs_doc_link(cmark_node *inl, const char *url, const char *text)
{
	cmark_node *l = S_append(inl, cmark_node_new(CMARK_NODE_LINK));

	S_url(l, url);
	gs_doc_text(l, text);
}

void gs_doc_image(cmark_node *inl, const char *url, const char *alt)
{
	cmark_node *l = S_append(inl, cmark_node_new(CMARK_NODE_IMAGE));

	S_url(l, url);
	gs_doc_text(l, alt);
}

cmark_node *gs_doc_list(cmark_node *parent, int ordered)
{
	cmark_node *l = S_append(parent, cmark_node_new(CMARK_NODE_LIST));

	cmark_node_set_list_type(l, ordered ? CMARK_ORDERED_LIST : CMARK_BULLET_LIST);
	cmark_node_set_list_tight(l, 1);
	if (ordered)
		cmark_node_set_list_start(l, 1);
	return l;
}

cmark_node *gs_doc_item(cmark_node *list)
{
	cmark_node *it = S_append(list, cmark_node_new(CMARK_NODE_ITEM));

	return gs_doc_para(it);
}

cmark_node *gs_doc_quote(cmark_node *parent)
{
	return S_append(parent, cmark_node_new(CMARK_NODE_BLOCK_QUOTE));
}

cmark_node *gs_doc_table(gs_doc *d, cmark_node *parent, const char *caption,
			 size_t ncols, const char *const *headers)
{
	cmark_syntax_extension *ext = S_table_ext();
	cmark_node *table = cmark_node_new_with_ext(CMARK_NODE_TABLE, ext);
	uint8_t *align = gs_xcalloc(ncols, 1);
	cmark_node *row;
	size_t i;

	if (!table)
		GS_BUG("cmark-gfm could not make a table node");
	S_append(parent, table);
	cmark_gfm_extensions_set_table_columns(table, (uint16_t)ncols);
	cmark_gfm_extensions_set_table_alignments(table, (uint16_t)ncols, align);
	free(align);
	row = gs_doc_row(table);
	cmark_gfm_extensions_set_table_row_is_header(row, 1);
	for (i = 0; i < ncols; i++)
		gs_doc_cell_text(row, headers[i]);
	if (d->ncaptions == d->acaptions) {
		d->acaptions = d->acaptions ? d->acaptions * 2 : 16;
		d->captions = gs_xrealloc(d->captions, d->acaptions * sizeof(*d->captions));
	}
	d->captions[d->ncaptions++] = gs_xstrdup(caption);
	return table;
}

cmark_node *gs_doc_row(cmark_node *table)
{
	return S_append(table, cmark_node_new_with_ext(CMARK_NODE_TABLE_ROW, S_table_ext()));
}

cmark_node *gs_doc_cell(cmark_node *row)
{
	/* Not cmark_node_new_with_ext: in cmark-gfm 0.29 the table extension
	 * allocates 24 bytes per cell made that way and never frees them
	 * (LIBRARIES.md); a plain cell given the extension renders the same. */
	cmark_node *c = cmark_node_new(CMARK_NODE_TABLE_CELL);

	if (!c || !cmark_node_set_syntax_extension(c, S_table_ext()))
		GS_BUG("cmark-gfm could not make a table cell");
	return S_append(row, c);
}

cmark_node *gs_doc_cell_text(cmark_node *row, const char *text)
{
	cmark_node *c = gs_doc_cell(row);

	gs_doc_text(c, text);
	return c;
}

/* Replaces node by a text node holding `text`; returns the new node. */
static cmark_node *S_replace_with_text(cmark_node *node, const char *text)
{
	cmark_node *t = cmark_node_new(CMARK_NODE_TEXT);

	S_literal(t, text);
	cmark_node_replace(node, t);
	cmark_node_free(node);
	return t;
}

/* Concatenated text of an inline subtree (alt text of images). Iterative. */
static char *S_plain(cmark_node *n)
{
	cmark_iter *it = cmark_iter_new(n);
	cmark_event_type ev;
	gs_buf buf = GS_BUF_INIT;

	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *c = cmark_iter_get_node(it);
		cmark_node_type ty = cmark_node_get_type(c);
		const char *lit;
		if (ev != CMARK_EVENT_ENTER || c == n ||
		    (ty != CMARK_NODE_TEXT && ty != CMARK_NODE_CODE))
			continue;
		lit = cmark_node_get_literal(c);
		if (lit)
			gs_buf_puts(&buf, lit);
	}
	cmark_iter_free(it);
	return gs_buf_detach(&buf, NULL);
}

/* An HTML block shown as text, line by line, with soft breaks between. */
static void S_defuse_html_block(cmark_node *c)
{
	cmark_node *p = cmark_node_new(CMARK_NODE_PARAGRAPH);
	const char *lit = cmark_node_get_literal(c);
	char *copy = gs_xstrdup(lit ? lit : ""), *line, *save = NULL;
	int first = 1;

	for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (!first)
			S_append(p, cmark_node_new(CMARK_NODE_SOFTBREAK));
		gs_doc_text(p, line);
		first = 0;
	}
	free(copy);
	cmark_node_replace(c, p);
	cmark_node_free(c);
}

/*
 * Replaces what could run, load or point anywhere. Iterative: the nodes to
 * replace are listed in one walk (none inside a link or image, which is
 * replaced whole by its text), then replaced, so the walk never sees a node
 * it freed and the C stack does not grow with the nesting.
 */
static void S_defuse(cmark_node *root)
{
	cmark_iter *it = cmark_iter_new(root);
	cmark_event_type ev;
	cmark_node **todo = NULL;
	size_t n = 0, cap = 0, i, inside = 0;

	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *c = cmark_iter_get_node(it);
		cmark_node_type ty = cmark_node_get_type(c);
		int linkish = ty == CMARK_NODE_IMAGE || ty == CMARK_NODE_LINK;

		if (linkish && ev == CMARK_EVENT_EXIT) {
			inside--;
			continue;
		}
		if (ev != CMARK_EVENT_ENTER)
			continue;
		if (!inside && (linkish || ty == CMARK_NODE_HTML_INLINE ||
				ty == CMARK_NODE_HTML_BLOCK)) {
			if (n == cap) {
				cap = cap ? 2 * cap : 16;
				todo = gs_xrealloc(todo, cap * sizeof(*todo));
			}
			todo[n++] = c;
		}
		if (linkish)
			inside++;
	}
	cmark_iter_free(it);
	for (i = 0; i < n; i++) {
		cmark_node *c = todo[i];
		cmark_node_type ty = cmark_node_get_type(c);
		if (ty == CMARK_NODE_HTML_INLINE) {
			S_replace_with_text(c, cmark_node_get_literal(c));
		} else if (ty == CMARK_NODE_HTML_BLOCK) {
			S_defuse_html_block(c);
		} else {
			char *txt = S_plain(c);
			S_replace_with_text(c, txt);
			free(txt);
		}
	}
	free(todo);
}

/* The mark of a block that came from a user's notes (its address). */
static char S_user_mark;

void gs_doc_user_markdown(cmark_node *parent, const char *md)
{
	cmark_parser *parser = cmark_parser_new(CMARK_OPT_DEFAULT);
	cmark_node *doc, *c;

	/* GFM tables in notes render as tables in both formats. */
	if (!parser || !cmark_parser_attach_syntax_extension(parser, S_table_ext()))
		GS_BUG("cmark-gfm could not make a parser with tables");
	cmark_parser_feed(parser, md, strlen(md));
	doc = cmark_parser_finish(parser);
	cmark_parser_free(parser);
	if (!doc)
		GS_BUG("cmark-gfm returned no document");
	S_defuse(doc);
	while ((c = cmark_node_first_child(doc)) != NULL) {
		cmark_node_unlink(c);
		cmark_node_set_user_data(c, &S_user_mark);   /* see gs_doc_is_user_block */
		S_append(parent, c);
	}
	cmark_node_free(doc);
}

int gs_doc_is_user_block(cmark_node *n)
{
	return cmark_node_get_user_data(n) == (void *)&S_user_mark;
}

/* The n bytes of a tag's start ("<li", "<h2"), id="ID" when id, then ">". */
static void S_buf_id_tag(gs_buf *out, const char *start, size_t n, const char *id)
{
	gs_buf_put(out, start, n);
	if (id) {
		gs_buf_put(out, " id=\"", 5);
		gs_html_escape_str(out, id);
		gs_buf_putc(out, '"');
	}
	gs_buf_putc(out, '>');
}

/* Inside an image: its alt text, where cmark-gfm writes no <code>. */
static int S_in_image(cmark_node *n)
{
	for (n = cmark_node_parent(n); n; n = cmark_node_parent(n))
		if (cmark_node_get_type(n) == CMARK_NODE_IMAGE)
			return 1;
	return 0;
}

char *gs_doc_render_html_cmark(const gs_doc *d)
{
	char *html = cmark_render_html(d->root, CMARK_OPT_DEFAULT, NULL);
	gs_buf out = GS_BUF_INIT;
	size_t ntable = 0, nhead = 0, nheads = 0, j = 0;
	size_t ntd = 0, ntds = 0, jl = 0, nli = 0, nlis = 0, ji = 0, ntr = 0, ntrs = 0, jr = 0;
	size_t jc = 0, *td_ids = NULL;  /* per <td>: its first extra id (gs_doc_cell_id), then the next's */
	const char *p = html;
	const char **head_ids = NULL, **td_links = NULL, **li_ids = NULL, **tr_ids = NULL;
	const char **code_ids = NULL;   /* per inline <code>: its id (gs_doc_code_id) or NULL */
	size_t ncode = 0, ncodes = 0, jk = 0;
	int close_link = 0;
	cmark_iter *it = cmark_iter_new(d->root);
	cmark_event_type ev;

	/* The id of every heading, the link of every body cell and the id of
	 * every list item, in document order (NULL for none); each kind was
	 * registered in document order, so one merge pairs them. */
	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *n = cmark_iter_get_node(it);
		cmark_node_type ty = cmark_node_get_type(n);
		if (ev != CMARK_EVENT_ENTER)
			continue;
		if (ty == CMARK_NODE_HEADING) {
			head_ids = gs_xrealloc(head_ids, (nheads + 1) * sizeof(*head_ids));
			head_ids[nheads++] = j < d->nanchors && d->anchor_nodes[j] == n ? d->anchor_ids[j++] : NULL;
		} else if (ty == CMARK_NODE_TABLE_CELL && (d->nlinks || d->ncellids) &&
			   !cmark_gfm_extensions_get_table_row_is_header(cmark_node_parent(n))) {
			/* a <td>: header rows' cells are <th>; td_ids[k] .. td_ids[k + 1]
			 * are the extra ids of the k-th */
			td_links = gs_xrealloc(td_links, (ntds + 1) * sizeof(*td_links));
			td_ids = gs_xrealloc(td_ids, (ntds + 2) * sizeof(*td_ids));
			td_ids[ntds] = jc;
			while (jc < d->ncellids && d->id_cells[jc] == n)
				jc++;
			td_ids[ntds + 1] = jc;
			td_links[ntds++] = jl < d->nlinks && d->link_cells[jl] == n ? d->link_ids[jl++] : NULL;
		} else if (ty == CMARK_NODE_ITEM && d->nitems) {
			li_ids = gs_xrealloc(li_ids, (nlis + 1) * sizeof(*li_ids));
			li_ids[nlis++] = ji < d->nitems && d->id_items[ji] == n ? d->item_ids[ji++] : NULL;
		} else if (ty == CMARK_NODE_CODE && d->ncodeids && !S_in_image(n)) {
			code_ids = gs_xrealloc(code_ids, (ncodes + 1) * sizeof(*code_ids));
			code_ids[ncodes++] = jk < d->ncodeids && d->id_codes[jk] == n ? d->code_ids[jk++] : NULL;
		} else if (ty == CMARK_NODE_TABLE_ROW && d->nrows) {
			/* every row is a <tr>, the header row's too */
			tr_ids = gs_xrealloc(tr_ids, (ntrs + 1) * sizeof(*tr_ids));
			tr_ids[ntrs++] = jr < d->nrows && d->id_rows[jr] == n ? d->row_ids[jr++] : NULL;
		}
	}
	cmark_iter_free(it);
	if (j != d->nanchors || jl != d->nlinks || ji != d->nitems || jr != d->nrows ||
	    jc != d->ncellids || jk != d->ncodeids)
		GS_BUG("a heading id, cell link, item id, row id or cell id was registered out of document order");

	/* One linear pass: <table> gets its caption and a tab stop, <th> its scope. */
	while (*p) {
		const char *lt = strchr(p, '<');
		if (!lt) {
			gs_buf_put(&out, p, strlen(p));
			break;
		}
		gs_buf_put(&out, p, (size_t)(lt - p));
		if (strncmp(lt, "<table>", 7) == 0) {
			/* Focusable: a table wider than the page scrolls in its own
			 * box (sheet.css), which the keyboard must reach too. */
			gs_buf_put(&out, "<table tabindex=\"0\">\n<caption>", 30);
			if (ntable < d->ncaptions)
				gs_html_escape_str(&out, d->captions[ntable]);
			ntable++;
			gs_buf_put(&out, "</caption>", 10);
			p = lt + 7;
		} else if (lt[1] == 'h' && lt[2] >= '1' && lt[2] <= '6' && lt[3] == '>') {
			/* <hN>: cmark-gfm writes headings so, and escapes every '<' of text. */
			S_buf_id_tag(&out, lt, 3, nhead < nheads ? head_ids[nhead] : NULL);
			nhead++;
			p = lt + 4;
		} else if (strncmp(lt, "<th", 3) == 0 && (lt[3] == '>' || lt[3] == ' ')) {
			gs_buf_put(&out, "<th scope=\"col\"", 15);
			p = lt + 3;
		} else if (ntds && strncmp(lt, "<td", 3) == 0 && (lt[3] == '>' || lt[3] == ' ')) {
			/* <td> or <td align="...">: the link opens inside the cell */
			const char *gt = strchr(lt, '>');
			if (!gt)
				GS_BUG("cmark-gfm wrote an unclosed <td");
			gs_buf_put(&out, lt, (size_t)(gt + 1 - lt));
			if (ntd < ntds) {
				size_t k;
				for (k = td_ids[ntd]; k < td_ids[ntd + 1]; k++) {
					gs_buf_put(&out, "<a id=\"", 7);
					gs_html_escape_str(&out, d->cell_ids[k]);
					gs_buf_put(&out, "\"></a>", 6);
				}
			}
			if (ntd < ntds && td_links[ntd]) {
				gs_buf_put(&out, "<a href=\"#", 10);
				gs_html_escape_str(&out, td_links[ntd]);
				gs_buf_put(&out, "\">", 2);
				close_link = 1;
			}
			ntd++;
			p = gt + 1;
		} else if (close_link && strncmp(lt, "</td>", 5) == 0) {
			gs_buf_put(&out, "</a></td>", 9);
			close_link = 0;
			p = lt + 5;
		} else if (ntrs && strncmp(lt, "<tr>", 4) == 0) {
			S_buf_id_tag(&out, lt, 3, ntr < ntrs ? tr_ids[ntr] : NULL);
			ntr++;
			p = lt + 4;
		} else if (ncodes && strncmp(lt, "<pre><code", 10) == 0) {
			/* a code block: not an inline code node */
			gs_buf_put(&out, lt, 10);
			p = lt + 10;
		} else if (ncodes && strncmp(lt, "<code>", 6) == 0) {
			S_buf_id_tag(&out, lt, 5, ncode < ncodes ? code_ids[ncode] : NULL);
			ncode++;
			p = lt + 6;
		} else if (nlis && strncmp(lt, "<li>", 4) == 0) {
			S_buf_id_tag(&out, lt, 3, nli < nlis ? li_ids[nli] : NULL);
			nli++;
			p = lt + 4;
		} else {
			gs_buf_put(&out, "<", 1);
			p = lt + 1;
		}
	}
	free(html);
	free(head_ids);
	free(td_links);
	free(td_ids);
	free(li_ids);
	free(tr_ids);
	free(code_ids);
	return gs_buf_detach(&out, NULL);
}
