/*
 * doc: the Markdown written directly (doc_md.c) is, byte for byte, what
 * cmark-gfm's CommonMark renderer writes for the same tree: on documents
 * generated from every builder of doc.h, with texts full of what Markdown
 * must escape (list markers after a line start or after digits, '|' in
 * table cells, '&' before a letter, control characters, code spans with
 * backticks, links that look like autolinks). Documents with a user's
 * notes are left to cmark-gfm: the direct writer must refuse them, never
 * write them differently.
 *
 * The HTML written directly (doc_html.c) likewise: byte for byte what
 * cmark-gfm's HTML renderer writes for the whole document (the blocks of
 * notes in it written by cmark-gfm alone), on the same documents and on richer
 * ones (emphasis, breaks, thematic breaks, loose lists and lists starting
 * elsewhere than 1, link titles, table alignments, URLs cmark-gfm drops),
 * both bare and with the captions, ids and scopes gs_doc_html_render adds.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "doc.h"

#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm-extension_api.h>


/* 1: the generator also makes what the builders of doc.h do not (the HTML test). */
static int S_rich;

static uint64_t S_state = UINT64_C(0x9E3779B97F4A7C15);

static unsigned S_rand(unsigned n)
{
	S_state ^= S_state >> 12;
	S_state ^= S_state << 25;
	S_state ^= S_state >> 27;
	return (unsigned)((S_state * UINT64_C(0x2545F4914F6CDD1D)) >> 33) % n;
}

/* A text made of pieces Markdown cares about. */
static const char *S_text(char *buf, size_t cap)
{
	static const char *const pieces[] = {
		"word", " ", "  ", "1", "12", ".", ")", "-", "+", "=", "*", "_", "[", "]", "#",
		"<", ">", "\\", "`", "~", "!", "![", "&", "&a", "|", "a|b", "\t", "\n", "\001",
		"\177", "é", "—", "İ", "′", "7.", "3) ", "- ", "+ ", "# ", "GiB", "(", ")", "\"",
		"http://x.y", "<b>", "**", "__", "1.5", "8,000", "≥",
		"'", "/", "&amp;", "&#x27;", "\"q\"", "a&b", "</p>", "€", "日本", "\xf0\x9f\x98\x80",
		"\xc3", "\xff"
	};
	size_t n = 1 + S_rand(7), len = 0, i;

	for (i = 0; i < n; i++) {
		const char *p = pieces[S_rand(sizeof(pieces) / sizeof(pieces[0]))];
		size_t k = strlen(p);
		if (len + k + 1 > cap)
			break;
		memcpy(buf + len, p, k);
		len += k;
	}
	buf[len] = '\0';
	return buf;
}

static const char *S_url(char *buf, size_t cap)
{
	static const char *const urls[] = {
		"sheets/a.html#offer-x", "http://x.y", "https://example.org/a b", "mailto:a@b.c",
		"a(b)c", "<x>", "p|q", "", "x`y", "weird\\path",
		/* cmark-gfm leaves these out of HTML, whatever their case */
		"javascript:alert(1)", "JavaScript:x", "vbscript:x", "file:///etc/passwd",
		"data:text/html,x", "DATA:image/png;base64,AAA", "data:image/gif,x",
		"data:image/jpeg,x", "data:image/webp,x", "data:image/svg,x", "javascript",
		"a'b&c\"d", "é/ü?x=1&y=2#f", "%20[x]{y}^|", "\x01\x7f\xff", "https://x.y/~a_b-c.d!*(),;:@=$+"
	};
	snprintf(buf, cap, "%s", urls[S_rand(S_rich ? sizeof(urls) / sizeof(urls[0]) : 10)]);
	return buf;
}

static cmark_node *S_add(cmark_node *parent, cmark_node_type t)
{
	cmark_node *n = cmark_node_new(t);

	if (!n || !cmark_node_append_child(parent, n))
		abort();
	return n;
}

/* A break, where its parent may hold one (a table cell may not). */
static void S_add_break(cmark_node *parent, cmark_node_type t)
{
	cmark_node *n = cmark_node_new(t);

	if (!n)
		abort();
	if (!cmark_node_append_child(parent, n))
		cmark_node_free(n);
}

static void S_inlines(cmark_node *inl);

/* What the builders do not make (S_rich): emphasis, breaks, titles. */
static void S_rich_inline(cmark_node *inl)
{
	char a[256];
	cmark_node *n;

	switch (S_rand(6)) {
	case 0:
		n = S_add(inl, CMARK_NODE_EMPH);
		if (S_rand(3))
			gs_doc_text(n, S_text(a, sizeof(a)));
		else
			S_inlines(n);   /* nested: strong, code, links inside */
		break;
	case 1:
		S_add_break(inl, CMARK_NODE_SOFTBREAK);
		break;
	case 2:
		S_add_break(inl, CMARK_NODE_LINEBREAK);
		break;
	case 3:
		n = S_add(inl, S_rand(2) ? CMARK_NODE_LINK : CMARK_NODE_IMAGE);
		cmark_node_set_url(n, S_url(a, sizeof(a)));
		cmark_node_set_title(n, S_text(a, sizeof(a)));
		S_inlines(n);   /* an image's alt text from several nodes */
		break;
	case 4:
		n = S_add(inl, CMARK_NODE_STRONG);
		S_inlines(n);
		break;
	default:
		gs_doc_code(inl, S_text(a, sizeof(a)));
		break;
	}
}

static void S_inlines(cmark_node *inl)
{
	char a[256], b[256];
	unsigned i, n = 1 + S_rand(4);

	for (i = 0; i < n; i++) {
		switch (S_rand(S_rich ? 9 : 7)) {
		case 7: case 8:
			S_rich_inline(inl);
			break;
		case 0: gs_doc_strong(inl, S_text(a, sizeof(a))); break;
		case 1: gs_doc_code(inl, S_text(a, sizeof(a))); break;
		case 2: {
			/* sometimes a link whose text is its URL: an autolink */
			const char *u = S_url(a, sizeof(a));
			gs_doc_link(inl, u, S_rand(2) ? u : S_text(b, sizeof(b)));
			break;
		}
		case 3: gs_doc_image(inl, S_url(a, sizeof(a)), S_text(b, sizeof(b))); break;
		default: gs_doc_text(inl, S_text(a, sizeof(a))); break;
		}
	}
}

static const char *const S_notes[] = {
	"Some *emphasis*, **strong** and `code`.\nA soft break.",
	"- one\n- two\n  - nested\n",
	"1. first\n2. second\n\n10) ten\n",
	"> quoted\n> > twice\n",
	"# Heading\n\ntext  \nhard break",
	"***\n\nafter a break",
	"| a | b |\n| :-- | --: |\n| 1 \\| 2 | <x> |\n",
	"[text](http://x.y \"title\") and <http://a.b> and ![alt](i.png)",
	"*a **b** c* _x_ ***y***",
	"**a\n;**b**c** and *x *y* z*",  /* nested strong and emphasis */
	"- | a |\n  | --- |\n  | 1 |\n- b\n",  /* a table first in a tight list's item */
	"```\ncode block\n```\n",        /* left to cmark-gfm */
	"    indented code\n",          /* left to cmark-gfm */
	"<div>html</div>\n",            /* defused into text by doc */
	"- a\n\n- loose\n",
	"1. a\n2. b\n3. c\n4. d\n5. e\n6. f\n7. g\n8. h\n9. i\n10. j\n11. k\n",
	"- a\n-\n",                    /* an empty last item: one newline due */
	"- a\n  - b\n  -\n",
	"- a\n\n      code\n",
	"- x\n\n<!-- -->\n\n- y\n",  /* two lists: an end list comment */
	"- x\n\n<!-- -->\n\n    code\n",
	"> - a\n> -\n",
	"1) x\n\n   > q\n",
	"Setext\n===\n\ntext <b>x</b> &amp; &copy;\n",
};

static void S_blocks(gs_doc *d, cmark_node *parent, int depth);

/* What the builders do not make (S_rich), and headings with ids. */
static void S_rich_block(gs_doc *d, cmark_node *parent, int depth)
{
	static unsigned ids;
	char a[256], id[32];

	switch (S_rand(5)) {
	case 0:
		S_add(parent, CMARK_NODE_THEMATIC_BREAK);
		break;
	case 1: {
		/* loose, or starting elsewhere than 1, items holding blocks */
		cmark_node *list = gs_doc_list(parent, (int)S_rand(2));
		unsigned k, items = 1 + S_rand(4);
		cmark_node_set_list_tight(list, (int)S_rand(2));
		if (cmark_node_get_list_type(list) == CMARK_ORDERED_LIST)
			cmark_node_set_list_start(list, (int)S_rand(3) * 7);
		for (k = 0; k < items; k++) {
			if (depth < 2 && S_rand(3) == 0)
				S_blocks(d, S_add(list, CMARK_NODE_ITEM), depth + 1);
			else
				S_inlines(gs_doc_item(list));
		}
		break;
	}
	case 2: {
		/* aligned columns; alignment goes by the cell's place in its row */
		/* made here: gs_doc_table sets no alignment, and setting them
		 * twice leaks the first array in cmark-gfm 0.29; no caption */
		static const char *const heads[] = { "a", "<b>", "c&d" };
		cmark_syntax_extension *ext = cmark_find_syntax_extension("table");
		uint8_t align[3];
		unsigned k, c, cols = 1 + S_rand(3), rows = S_rand(4);
		cmark_node *t = cmark_node_new_with_ext(CMARK_NODE_TABLE, ext), *row;
		if (!t || !cmark_node_append_child(parent, t))
			abort();
		for (c = 0; c < cols; c++)
			align[c] = (uint8_t)"\0lcr"[S_rand(4)];
		cmark_gfm_extensions_set_table_columns(t, (uint16_t)cols);
		cmark_gfm_extensions_set_table_alignments(t, (uint16_t)cols, align);
		row = gs_doc_row(t);
		cmark_gfm_extensions_set_table_row_is_header(row, 1);
		for (c = 0; c < cols; c++)
			gs_doc_cell_text(row, heads[c]);
		for (k = 0; k < rows; k++) {
			row = gs_doc_row(t);
			for (c = 0; c < cols; c++)
				S_inlines(gs_doc_cell(row));
		}
		break;
	}
	default:
		snprintf(id, sizeof(id), "h-%u.x_y", ids++);
		S_inlines(gs_doc_heading_id(d, parent, 1 + (int)S_rand(6), S_text(a, sizeof(a)), id));
		break;
	}
}

static void S_blocks(gs_doc *d, cmark_node *parent, int depth)
{
	char a[256];
	unsigned i, n = 1 + S_rand(6);

	for (i = 0; i < n; i++) {
		if (S_rich && S_rand(4) == 0) {
			S_rich_block(d, parent, depth);
			continue;
		}
		switch (S_rand(depth > 1 ? 5 : 8)) {
		case 0:
			S_inlines(gs_doc_heading(parent, 1 + (int)S_rand(6), S_text(a, sizeof(a))));
			break;
		case 1: case 2:
			S_inlines(gs_doc_para(parent));
			break;
		case 3: {
			cmark_node *list = gs_doc_list(parent, (int)S_rand(2));
			unsigned k, items = 1 + S_rand(S_rand(4) ? 4 : 14);
			for (k = 0; k < items; k++) {
				cmark_node *item = gs_doc_item(list);
				S_inlines(item);
				if (S_rand(4) == 0) {   /* HTML only: the item's id */
					snprintf(a, sizeof(a), "why-%u", S_rand(100));
					gs_doc_item_id(d, item, a);
				}
			}
			break;
		}
		case 4: {
			static const char *const heads[] = { "Item", "a|b", "Bytes", "1.", "- x" };
			const char *h[3];
			unsigned k, c, cols = 1 + S_rand(3), rows = S_rand(4);
			cmark_node *t;
			for (c = 0; c < cols; c++)
				h[c] = heads[S_rand(5)];
			t = gs_doc_table(d, parent, "caption", cols, h);
			for (k = 0; k < rows; k++) {
				cmark_node *row = gs_doc_row(t);
				if (S_rand(3) == 0) {   /* HTML only: the row's id */
					snprintf(a, sizeof(a), "offer-%u", S_rand(100));
					gs_doc_row_id(d, row, a);
				}
				for (c = 0; c < cols; c++) {
					cmark_node *cell;
					if (S_rand(3)) {
						cell = gs_doc_cell_text(row, S_text(a, sizeof(a)));
					} else {
						cell = gs_doc_cell(row);
						S_inlines(cell);
					}
					if (S_rand(6) == 0) {   /* an id that carries its fragment */
						char id[32];
						snprintf(id, sizeof(id), "offer-y%u", S_rand(100));
						gs_doc_code_id(d, cell, S_text(a, sizeof(a)), id);
					}
					if (S_rand(5) == 0) {   /* HTML only: anchors of a grouped row */
						unsigned m, nm = 1 + S_rand(2);
						for (m = 0; m < nm; m++) {
							snprintf(a, sizeof(a), "offer-x%u", S_rand(100));
							gs_doc_cell_id(d, cell, a);
						}
					}
					if (S_rand(4) == 0) {   /* HTML only: a link to a reason */
						snprintf(a, sizeof(a), "why-%u", S_rand(100));
						gs_doc_cell_link(d, cell, a);
					}
				}
			}
			break;
		}
		case 5:
			S_blocks(d, gs_doc_quote(parent), depth + 1);
			break;
		case 6:
			if (parent == d->root) {
				/* one sample, or several run together (lists merge,
				 * paragraphs continue...) */
				char md[2048] = "";
				unsigned k, parts = S_rand(2) ? 1 : 2 + S_rand(4);
				for (k = 0; k < parts; k++)
					strncat(md, S_notes[S_rand(sizeof(S_notes) / sizeof(S_notes[0]))],
						sizeof(md) - strlen(md) - 1);
				gs_doc_user_markdown(parent, md);
			}
			break;
		default:
			S_inlines(gs_doc_para(gs_doc_quote(parent)));
			break;
		}
	}
}

static void test_same_as_cmark(void)
{
	int t, direct = 0, differ = 0;

	for (t = 0; t < 3000; t++) {
		gs_doc d;
		char *want, *got;

		CHECK(gs_doc_init(&d) == 0);
		S_blocks(&d, d.root, 0);
		want = cmark_render_commonmark(d.root, CMARK_OPT_DEFAULT, 0);
		got = gs_doc_md_direct(d.root);
		if (got) {
			direct++;
			if (strcmp(want, got) != 0 && differ++ < 2)
				fprintf(stderr, "document %d differs:\n--- cmark-gfm\n%s--- direct\n%s---\n",
					t, want, got);
		}
		free(want);
		free(got);
		gs_doc_release(&d);
	}
	CHECK_INT(differ, 0);
	/* most documents are written directly, notes included (not: those
	 * with a list of ours right before another list) */
	CHECK(direct > 2000);
}

/*
 * HTML: the direct writer against cmark-gfm's renderer, bare (cmark-gfm's
 * bytes) and decorated (gs_doc_html_render against the same through
 * cmark-gfm and the pass that adds captions, ids and scopes).
 */
static void test_html_same_as_cmark(void)
{
	int t, direct = 0, differ = 0, rich;

	for (rich = 0; rich < 2; rich++) {
		S_rich = rich;
		for (t = 0; t < 3000; t++) {
			gs_doc d;
			char *want, *got, *want2, *got2;

			CHECK(gs_doc_init(&d) == 0);
			S_blocks(&d, d.root, 0);
			want = cmark_render_html(d.root, CMARK_OPT_DEFAULT, NULL);
			got = gs_doc_html_direct(d.root);
			want2 = gs_doc_render_html_cmark(&d);
			got2 = gs_doc_html_body_direct(&d);
			CHECK((got == NULL) == (got2 == NULL));
			if (got && got2) {
				direct++;
				if ((strcmp(want, got) != 0 || strcmp(want2, got2) != 0) && differ++ < 2)
					fprintf(stderr, "document %d/%d differs:\n--- cmark-gfm\n%s--- direct\n%s"
						"--- decorated, cmark-gfm\n%s--- decorated, direct\n%s---\n",
						rich, t, want, got, want2, got2);
			}
			free(want);
			free(got);
			free(want2);
			free(got2);
			gs_doc_release(&d);
		}
	}
	S_rich = 0;
	CHECK_INT(differ, 0);
	/* all, notes included (their blocks through cmark-gfm) */
	CHECK_INT(direct, 6000);
}

/* By hand: what cmark-gfm 0.29 writes, and what gs_doc_html_render adds. */
static void test_html_by_hand(void)
{
	gs_doc d;
	cmark_node *p, *t, *row, *list;
	const char *h[2] = { "Item", "Value" };
	char *html;

	CHECK(gs_doc_init(&d) == 0);
	gs_doc_heading_id(&d, d.root, 2, "Sizing & fit", "sizing");
	p = gs_doc_para(d.root);
	gs_doc_strong(p, "Decision:");
	gs_doc_text(p, " a<b \"c\" 'd' é");
	gs_doc_link(p, "a b&c'd", "x");
	gs_doc_link(p, "JavaScript:alert(1)", "y");
	gs_doc_image(p, "i.png", "alt \"1\"");
	t = gs_doc_table(&d, d.root, "Cap <1>", 2, h);
	row = gs_doc_row(t);
	gs_doc_cell_text(row, "a|b");
	gs_doc_code(gs_doc_cell(row), "x<y");
	list = gs_doc_list(d.root, 1);
	gs_doc_text(gs_doc_item(list), "first");
	gs_doc_text(gs_doc_item(list), "second");
	html = gs_doc_html_render(&d);
	CHECK_STR(html, "<h2 id=\"sizing\">Sizing &amp; fit</h2>\n"
			"<p><strong>Decision:</strong> a&lt;b &quot;c&quot; 'd' é"
			"<a href=\"a%20b&amp;c&#x27;d\">x</a><a href=\"\">y</a>"
			"<img src=\"i.png\" alt=\"alt &quot;1&quot;\" /></p>\n"
			"<table tabindex=\"0\">\n<caption>Cap &lt;1&gt;</caption>\n<thead>\n<tr>\n"
			"<th scope=\"col\">Item</th>\n<th scope=\"col\">Value</th>\n</tr>\n</thead>\n"
			"<tbody>\n<tr>\n<td>a|b</td>\n<td><code>x&lt;y</code></td>\n</tr>\n</tbody>\n"
			"</table>\n<ol>\n<li>first</li>\n<li>second</li>\n</ol>\n");
	free(html);
	/* with notes: their blocks by cmark-gfm, a table taking the next
	 * caption (none left here), then ours again */
	gs_doc_user_markdown(d.root, "- *x*\n\n| a |\n| --- |\n| <b> |\n");
	gs_doc_table(&d, d.root, "Cap 2", 2, h);
	html = gs_doc_html_render(&d);
	CHECK(strstr(html, "</ol>\n<ul>\n<li><em>x</em></li>\n</ul>\n<table tabindex=\"0\">\n"
			   "<caption>Cap 2</caption>\n<thead>\n<tr>\n<th scope=\"col\">a</th>\n"
			   "</tr>\n</thead>\n<tbody>\n<tr>\n<td>&lt;b&gt;</td>\n</tr>\n</tbody>\n"
			   "</table>\n<table tabindex=\"0\">\n<caption></caption>\n<thead>") != NULL);
	free(html);
	gs_doc_release(&d);
}

/*
 * Notes: each block written by cmark-gfm; what it leaves due before the
 * next block (a list ending with an empty item: one newline, not a blank
 * line; a list before a list: its "end list" comment). A list of ours
 * before a list of notes is refused (cmark-gfm writes the document).
 */
static void test_fallback(void)
{
	gs_doc d;
	char *md, *want;

	CHECK(gs_doc_init(&d) == 0);
	gs_doc_text(gs_doc_para(d.root), "before");
	md = gs_doc_md_direct(d.root);   /* ours alone: written directly */
	CHECK(md != NULL);
	free(md);
	gs_doc_user_markdown(d.root, "```\nx\n```\n\n- a\n-\n");
	gs_doc_text(gs_doc_para(d.root), "after");
	md = gs_doc_md_direct(d.root);
	CHECK_STR(md, "before\n\n``` \nx\n```\n\n  - a\n  - \nafter\n");
	want = cmark_render_commonmark(d.root, CMARK_OPT_DEFAULT, 0);
	CHECK_STR(md, want);
	free(want);
	free(md);
	gs_doc_user_markdown(d.root, "- x\n");
	gs_doc_list(d.root, 0);   /* notes' list before ours: the comment */
	gs_doc_text(gs_doc_item(cmark_node_last_child(d.root)), "y");
	md = gs_doc_md_direct(d.root);
	want = cmark_render_commonmark(d.root, CMARK_OPT_DEFAULT, 0);
	CHECK(strstr(want, "  - x\n\n<!-- end list -->\n\n  - y\n") != NULL);
	CHECK_STR(md, want);
	free(want);
	free(md);
	gs_doc_list(d.root, 0);   /* ours before notes' list: refused */
	gs_doc_text(gs_doc_item(cmark_node_last_child(d.root)), "z");
	gs_doc_user_markdown(d.root, "- w\n");
	CHECK(gs_doc_md_direct(d.root) == NULL);
	md = gs_doc_md_render(&d);
	CHECK(strstr(md, "  - z\n\n<!-- end list -->\n\n  - w\n") != NULL);
	free(md);
	gs_doc_release(&d);
}

/* By hand: what the sheet relies on. */
static void test_by_hand(void)
{
	gs_doc d;
	cmark_node *p, *t, *row;
	const char *h[2] = { "Item", "Value" };
	char *md;

	CHECK(gs_doc_init(&d) == 0);
	gs_doc_heading(d.root, 2, "Sizing");
	p = gs_doc_para(d.root);
	gs_doc_strong(p, "Decision:");
	gs_doc_text(p, " 1. input_tokens [x] a|b");
	t = gs_doc_table(&d, d.root, "c", 2, h);
	row = gs_doc_row(t);
	gs_doc_cell_text(row, "a|b");
	gs_doc_code(gs_doc_cell(row), "x|y");
	gs_doc_text(gs_doc_item(gs_doc_list(d.root, 1)), "2) first");
	md = gs_doc_md_render(&d);
	CHECK_STR(md, "## Sizing\n\n**Decision:** 1. input\\_tokens \\[x\\] a|b\n\n"
		      "| Item | Value |\n| --- | --- |\n| a\\|b | `x\\|y` |\n\n"
		      "1.  2\\) first\n");
	free(md);
	gs_doc_release(&d);
}

/*
 * HTML only: a body cell links to a fragment and a list item carries an
 * id; the Markdown stays as it was. Cells counted are <td> only (the
 * header row's are <th>); the second cell of the second row and the
 * second item are the ones registered.
 */
static void test_html_links(void)
{
	gs_doc d;
	cmark_node *t, *row, *cell, *list, *item;
	const char *h[2] = { "Offer", "Memory" };
	char *md, *html;

	CHECK(gs_doc_init(&d) == 0);
	t = gs_doc_table(&d, d.root, "cap", 2, h);
	row = gs_doc_row(t);
	gs_doc_cell_text(row, "a");
	gs_doc_cell_text(row, "? to confirm");
	row = gs_doc_row(t);
	gs_doc_row_id(&d, row, "offer-b");
	gs_doc_cell_text(row, "b");
	cell = gs_doc_cell_text(row, "x < y");
	gs_doc_cell_id(&d, cell, "offer-c");
	gs_doc_cell_id(&d, cell, "offer-d");
	gs_doc_cell_link(&d, cell, "why-1");
	row = gs_doc_row(t);
	cell = gs_doc_cell(row);
	gs_doc_code_id(&d, cell, "e", "offer-e");
	gs_doc_text(cell, ", ");
	gs_doc_code(cell, "f");
	gs_doc_cell_text(row, "-");
	list = gs_doc_list(d.root, 0);
	gs_doc_text(gs_doc_item(list), "first");
	item = gs_doc_item(list);
	gs_doc_code(item, "b");
	gs_doc_item_id(&d, item, "why-1");
	md = gs_doc_md_render(&d);
	CHECK_STR(md, "| Offer | Memory |\n| --- | --- |\n| a | ? to confirm |\n| b | x \\< y |\n"
		      "| `e`, `f` | - |\n\n"
		      "  - first\n  - `b`\n");
	html = gs_doc_html_render(&d);
	CHECK(strstr(html, "<td>? to confirm</td>") != NULL);
	/* the other offers of a grouped row: empty anchors, before the link */
	CHECK(strstr(html, "<td><a id=\"offer-c\"></a><a id=\"offer-d\"></a>"
		      "<a href=\"#why-1\">x &lt; y</a></td>") != NULL);
	{
		char *via_cmark = gs_doc_render_html_cmark(&d);
		CHECK_STR(via_cmark, html);
		free(via_cmark);
	}
	/* an id written once: its code element is the fragment */
	CHECK(strstr(html, "<td><code id=\"offer-e\">e</code>, <code>f</code></td>") != NULL);
	CHECK(strstr(html, "<tr>\n<td>a</td>") != NULL);
	CHECK(strstr(html, "<tr id=\"offer-b\">\n<td>b</td>") != NULL);
	CHECK(strstr(html, "<li>first</li>\n<li id=\"why-1\"><code>b</code></li>") != NULL);
	CHECK(strstr(html, "<th scope=\"col\">Memory</th>") != NULL);
	free(md);
	free(html);
	gs_doc_release(&d);
}

int main(void)
{
	test_by_hand();
	test_html_links();
	test_fallback();
	test_same_as_cmark();
	test_html_by_hand();
	test_html_same_as_cmark();
	return gs_check_exit("test_doc");
}
