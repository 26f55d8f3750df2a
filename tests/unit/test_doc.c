/*
 * doc: the Markdown written directly (doc_md.c) is, byte for byte, what
 * cmark-gfm's CommonMark renderer writes for the same tree: on documents
 * generated from every builder of doc.h, with texts full of what Markdown
 * must escape (list markers after a line start or after digits, '|' in
 * table cells, '&' before a letter, control characters, code spans with
 * backticks, links that look like autolinks). Documents with a user's
 * notes are left to cmark-gfm: the direct writer must refuse them, never
 * write them differently.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "doc.h"

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
		"http://x.y", "<b>", "**", "__", "1.5", "8,000", "≥"
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
		"a(b)c", "<x>", "p|q", "", "x`y", "weird\\path"
	};
	snprintf(buf, cap, "%s", urls[S_rand(sizeof(urls) / sizeof(urls[0]))]);
	return buf;
}

static void S_inlines(cmark_node *inl)
{
	char a[256], b[256];
	unsigned i, n = 1 + S_rand(4);

	for (i = 0; i < n; i++) {
		switch (S_rand(7)) {
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
};

static void S_blocks(gs_doc *d, cmark_node *parent, int depth)
{
	char a[256];
	unsigned i, n = 1 + S_rand(6);

	for (i = 0; i < n; i++) {
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
			for (k = 0; k < items; k++)
				S_inlines(gs_doc_item(list));
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
				for (c = 0; c < cols; c++) {
					if (S_rand(3))
						gs_doc_cell_text(row, S_text(a, sizeof(a)));
					else
						S_inlines(gs_doc_cell(row));
				}
			}
			break;
		}
		case 5:
			S_blocks(d, gs_doc_quote(parent), depth + 1);
			break;
		case 6:
			if (parent == d->root)
				gs_doc_user_markdown(parent, S_notes[S_rand(sizeof(S_notes) / sizeof(S_notes[0]))]);
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
	/* most documents are written directly (not: those with notes, or with a
	 * list right before another list) */
	CHECK(direct > 1200);
}

/* Notes are refused (cmark-gfm writes the document); it still renders. */
static void test_fallback(void)
{
	gs_doc d;
	char *md;

	CHECK(gs_doc_init(&d) == 0);
	gs_doc_text(gs_doc_para(d.root), "before");
	md = gs_doc_md_direct(d.root);   /* ours alone: written directly */
	CHECK(md != NULL);
	free(md);
	gs_doc_user_markdown(d.root, "```\nx\n```\n");
	CHECK(gs_doc_md_direct(d.root) == NULL);
	md = gs_doc_render_markdown(&d);
	CHECK_STR(md, "before\n\n``` \nx\n```\n");
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
	md = gs_doc_render_markdown(&d);
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
	gs_doc_cell_text(row, "b");
	cell = gs_doc_cell_text(row, "x < y");
	gs_doc_cell_link(&d, cell, "why-1");
	list = gs_doc_list(d.root, 0);
	gs_doc_text(gs_doc_item(list), "first");
	item = gs_doc_item(list);
	gs_doc_code(item, "b");
	gs_doc_item_id(&d, item, "why-1");
	md = gs_doc_render_markdown(&d);
	CHECK_STR(md, "| Offer | Memory |\n| --- | --- |\n| a | ? to confirm |\n| b | x \\< y |\n\n"
		      "  - first\n  - `b`\n");
	html = gs_doc_render_html(&d);
	CHECK(strstr(html, "<td>? to confirm</td>") != NULL);
	CHECK(strstr(html, "<td><a href=\"#why-1\">x &lt; y</a></td>") != NULL);
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
	return gs_check_exit("test_doc");
}
