/*
 * doc_md: the Markdown rendering of a document, written directly.
 *
 * cmark-gfm's CommonMark renderer goes through a per-character callback
 * that re-encodes every code point and looks up the syntax extension of
 * every node for every character: it was a fifth of a sheet's CPU in the
 * site. This writer walks the same tree once and writes the same bytes for
 * the nodes gpusheet builds (headings, paragraphs, text, strong, emphasis,
 * code, links, images, line breaks, tight lists, block quotes, GFM tables,
 * thematic breaks). The top-level blocks of a user's notes (any Markdown)
 * are written by cmark_render_commonmark, each whole (S_user_block); a
 * document with any other node goes to it whole, so the output never
 * depends on which writer ran.
 *
 * The rules it follows are CommonMark's as cmark-gfm 0.29 writes them, with
 * a width of 0 (no wrapping): blocks separated by a blank line, a block
 * quote's and a list item's prefix repeated on every line they hold, tight
 * lists without blank lines, a backslash before punctuation that could
 * start markup (and before '|' inside a table), an entity for a control
 * character. test_doc compares it with cmark-gfm's renderer on generated
 * documents.
 */
#include "doc.h"
#include "util.h"

#include <cmark-gfm-core-extensions.h>

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


typedef enum { S_LITERAL, S_NORMAL, S_URL, S_TITLE } S_esc;

typedef struct {
	gs_buf b;                  /* the Markdown */
	gs_buf pre;                /* the containers' prefix of each line */
	int need_cr;               /* 1: a newline is due; 2: a blank line */
	bool begin_line, begin_content, tight, no_linebreaks;
	bool in_table;             /* inside a GFM table: '|' gets a backslash */
	int list_number;
} S_md;

static inline void S_put(S_md *m, const char *s, size_t n)
{
	if (n)
		gs_buf_put(&m->b, s, n);
}

static void S_prefix_push(S_md *m, const char *s, size_t n)
{
	gs_buf_put(&m->pre, s, n);
}

static bool S_digit(int c)
{
	return c >= '0' && c <= '9';
}

static bool S_alpha(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static bool S_space(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

static bool S_punct(int c)
{
	return (c >= 33 && c <= 47) || (c >= 58 && c <= 64) || (c >= 91 && c <= 96) ||
	       (c >= 123 && c <= 126);
}

/*
 * Per byte: 2 when written as it is in literal and normal text alike (inside
 * a line, past its start), 1 when so in literal text only, 0 otherwise
 * (control characters, newlines, bytes of UTF-8 sequences); normal text
 * escapes * _ [ ] # < > \ ` ~ ! and & before a letter.
 */
static unsigned char S_plain[256];
/* S_run[normal][pipe][c]: 1 when byte c goes in as it is in S_out's fast path. */
static unsigned char S_run[2][2][256];

static void S_plain_init(void)
{
	const char *special = "*_[]#<>\\`~!&";
	int c, normal, pipe;

	if (S_plain[' '])
		return;
	for (c = 0x20; c < 0x80; c++)
		S_plain[c] = 2;
	for (; *special; special++)
		S_plain[(unsigned char)*special] = 1;
	for (normal = 0; normal < 2; normal++)
		for (pipe = 0; pipe < 2; pipe++)
			for (c = 0; c < 256; c++)
				S_run[normal][pipe][c] = S_plain[c] >= (normal ? 2 : 1) &&
							 !(pipe && c == '|');
}

/*
 * The newlines due before new text: need_cr newlines, counted back from
 * the newlines already at the end of the buffer; a blank line carries the
 * prefix of the containers it is in.
 */
static void S_flush_cr(S_md *m)
{
	size_t k = m->b.len;   /* the byte looked at is k - 1; 0: before the start */

	if (m->tight && m->need_cr > 1)
		m->need_cr = 1;
	while (m->need_cr) {
		if (k == 0 || m->b.data[k - 1] == '\n') {
			if (k > 0)
				k--;
		} else {
			S_put(m, "\n", 1);
			if (m->need_cr > 1)
				S_put(m, m->pre.data, m->pre.len);
		}
		m->begin_line = m->begin_content = true;
		m->need_cr--;
	}
}

/*
 * Writes s as text of a node: escape says how; pipe: a '|' gets a
 * backslash (text inside a GFM table). Stops at a byte that is not UTF-8,
 * as cmark-gfm does.
 */
static void S_out(S_md *m, const char *str, S_esc escape, bool pipe)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t n = strlen(str), i = 0;

	S_flush_cr(m);
	while (i < n) {
		size_t len;
		uint32_t cp;
		int c, next;

		/* fast path: a run of ASCII that no rule touches here (inside a
		 * line, past its start) goes in at once */
		if (!m->begin_line && !m->begin_content && (escape == S_NORMAL || escape == S_LITERAL)) {
			const unsigned char *run = S_run[escape == S_NORMAL][pipe];
			size_t j = i;
			/* four bytes a step while all go in as they are */
			while (n - j >= 4 && (run[s[j]] & run[s[j + 1]] & run[s[j + 2]] & run[s[j + 3]]))
				j += 4;
			while (j < n && run[s[j]])
				j++;
			if (j > i) {
				S_put(m, str + i, j - i);
				i = j;
				continue;
			}
		}

		if (m->begin_line)
			S_put(m, m->pre.data, m->pre.len);
		len = gs_util_utf8_decode(s + i, n - i, &cp);
		if (!len)
			return;
		c = s[i];
		next = s[i + len];
		if (pipe && c == '|')
			S_put(m, "\\", 1);
		if (len > 1) {
			S_put(m, str + i, len);
			m->begin_line = false;
			/* cmark-gfm tests the code point's low byte for a digit */
			m->begin_content = m->begin_content && S_digit((int)(cp & 0xFF));
			i += len;
			continue;
		}
		if (escape == S_LITERAL) {
			if (c == '\n') {
				S_put(m, "\n", 1);
				m->begin_line = m->begin_content = true;
			} else {
				S_put(m, str + i, 1);
				m->begin_line = false;
				m->begin_content = m->begin_content && S_digit(c);
			}
			i++;
			continue;
		} else {
			bool follows_digit = m->b.len > 0 && S_digit((unsigned char)m->b.data[m->b.len - 1]);
			bool esc = false;

			if (escape == S_NORMAL)
				esc = c < 0x20 || c == '*' || c == '_' || c == '[' || c == ']' || c == '#' ||
				      c == '<' || c == '>' || c == '\\' || c == '`' || c == '~' || c == '!' ||
				      (c == '&' && S_alpha(next)) ||
				      (m->begin_content && (c == '-' || c == '+' || c == '=') && !follows_digit) ||
				      (m->begin_content && (c == '.' || c == ')') && follows_digit &&
				       (next == 0 || S_space(next)));
			else if (escape == S_URL)
				esc = c == '`' || c == '<' || c == '>' || S_space(c) || c == '\\' || c == ')' ||
				      c == '(';
			else
				esc = c == '`' || c == '<' || c == '>' || c == '"' || c == '\\';
			if (esc && escape == S_URL && S_space(c)) {
				char e[8];
				int k = snprintf(e, sizeof(e), "%%%2X", c);
				S_put(m, e, (size_t)k);
			} else if (esc && S_punct(c)) {
				S_put(m, "\\", 1);
				S_put(m, str + i, 1);
			} else if (esc) {
				char e[16];
				int k = snprintf(e, sizeof(e), "&#%d;", c);
				S_put(m, e, (size_t)k);
			} else {
				S_put(m, str + i, 1);
			}
			m->begin_line = false;
			m->begin_content = m->begin_content && S_digit(c);
			i++;
		}
	}
}

static void S_lit(S_md *m, const char *s)
{
	S_out(m, s, S_LITERAL, false);
}

static void S_cr(S_md *m)
{
	if (m->need_cr < 1)
		m->need_cr = 1;
}

static void S_blank(S_md *m)
{
	if (m->need_cr < 2)
		m->need_cr = 2;
}

/* A URL with a scheme (CommonMark: a letter, then 1 to 31 letters, digits, + . -, then ':'). */
static bool S_has_scheme(const char *u)
{
	size_t i = 1;

	if (!S_alpha((unsigned char)u[0]))
		return false;
	while (i <= 32 && (S_alpha((unsigned char)u[i]) || S_digit((unsigned char)u[i]) ||
			   u[i] == '+' || u[i] == '.' || u[i] == '-'))
		i++;
	return i >= 2 && i <= 32 && u[i] == ':';
}

/* A link written <URL>: a URL with a scheme, no title, its text the URL. */
static bool S_autolink(cmark_node *n)
{
	const char *url = cmark_node_get_url(n), *title = cmark_node_get_title(n), *text;
	cmark_node *c = cmark_node_first_child(n);

	if (!url || !*url || !S_has_scheme(url) || (title && *title) || !c)
		return false;
	if (cmark_node_get_type(c) != CMARK_NODE_TEXT || cmark_node_next(c))
		return false;   /* several nodes: cmark-gfm would merge them first; not ours */
	text = cmark_node_get_literal(c);
	if (strncmp(url, "mailto:", 7) == 0)
		url += 7;
	return text && strcmp(url, text) == 0;
}

/* 0: this writer renders node n (entered, not of a user's notes); -1: it does not. */
static int S_node_ok(cmark_node *n)
{
	cmark_node_type t = cmark_node_get_type(n);
	cmark_node *next;

	switch (t) {
	case CMARK_NODE_DOCUMENT: case CMARK_NODE_BLOCK_QUOTE: case CMARK_NODE_LIST:
	case CMARK_NODE_ITEM: case CMARK_NODE_HEADING: case CMARK_NODE_PARAGRAPH:
	case CMARK_NODE_THEMATIC_BREAK: case CMARK_NODE_TEXT: case CMARK_NODE_SOFTBREAK:
	case CMARK_NODE_LINEBREAK: case CMARK_NODE_CODE: case CMARK_NODE_STRONG:
	case CMARK_NODE_EMPH: case CMARK_NODE_IMAGE:
		break;
	case CMARK_NODE_LINK:
		/* several text nodes in an autolink-like link: cmark-gfm merges them */
		if (cmark_node_first_child(n) && cmark_node_next(cmark_node_first_child(n)) &&
		    S_has_scheme(cmark_node_get_url(n) ? cmark_node_get_url(n) : ""))
			return -1;
		break;
	default:
		if (t == CMARK_NODE_TABLE || t == CMARK_NODE_TABLE_ROW || t == CMARK_NODE_TABLE_CELL)
			return 0;
		return -1;
	}
	/* nodes of the core types carrying an extension render through it */
	if (cmark_node_get_syntax_extension(n))
		return -1;
	next = t == CMARK_NODE_LIST ? cmark_node_next(n) : NULL;
	if (next && (cmark_node_get_type(next) == CMARK_NODE_LIST ||
		     cmark_node_get_type(next) == CMARK_NODE_CODE_BLOCK))
		return -1;   /* cmark-gfm writes an "end list" comment there */
	return 0;
}

/* The shortest run of backticks that does not occur in code. */
static int S_ticks(const char *code)
{
	uint32_t used = 1;
	int run = 0, i = 0;
	const char *p = code;

	for (;; p++) {
		if (*p == '`') {
			run++;
		} else {
			if (run > 0 && run < 32)
				used |= 1u << run;
			run = 0;
		}
		if (!*p)
			break;
	}
	while (i < 32 && (used & 1)) {
		used >>= 1;
		i++;
	}
	return i;
}

static bool S_tight_item(cmark_node *n)
{
	return n && cmark_node_get_type(n) == CMARK_NODE_ITEM && cmark_node_parent(n) &&
	       cmark_node_get_list_tight(cmark_node_parent(n));
}

/* See S_node. */
static bool S_in_tight_item(cmark_node *n)
{
	while (n && (cmark_node_get_type(n) & CMARK_NODE_TYPE_MASK) != CMARK_NODE_TYPE_BLOCK)
		n = cmark_node_parent(n);
	return n && (S_tight_item(n) || S_tight_item(cmark_node_parent(n)));
}

/* The table's nodes: a table, a row, a cell (the delimiter row after the
 * header's last cell). */
static void S_table_node(S_md *m, cmark_node *n, cmark_node_type t, bool entering)
{
	cmark_node *parent = cmark_node_parent(n);

	if (t == CMARK_NODE_TABLE) {
		m->in_table = entering;
		S_blank(m);
	} else if (t == CMARK_NODE_TABLE_ROW) {
		if (entering) {
			S_cr(m);
			S_lit(m, "|");
		}
	} else if (entering) {
		S_lit(m, " ");
	} else {
		S_lit(m, " |");
		if (cmark_gfm_extensions_get_table_row_is_header(parent) && !cmark_node_next(n)) {
			cmark_node *table = cmark_node_parent(parent);
			uint16_t i, ncols = cmark_gfm_extensions_get_table_columns(table);
			uint8_t *al = cmark_gfm_extensions_get_table_alignments(table);

			S_cr(m);
			S_lit(m, "|");
			for (i = 0; i < ncols; i++)
				S_lit(m, al[i] == 'l' ? " :-- |" : al[i] == 'c' ? " :-: |"
					 : al[i] == 'r' ? " --: |" : " --- |");
			S_cr(m);
		}
	}
}

/* A list item: its marker, then its content indented by the marker's width. */
static void S_item(S_md *m, cmark_node *n, bool entering)
{
	cmark_node *parent = cmark_node_parent(n);
	char marker[24];
	size_t width;

	if (cmark_node_get_list_type(parent) == CMARK_BULLET_LIST) {
		snprintf(marker, sizeof(marker), "  - ");
	} else {
		int num = m->list_number;
		if (entering)
			m->list_number++;
		snprintf(marker, sizeof(marker), "%d%s%s", num,
			 cmark_node_get_list_delim(parent) == CMARK_PAREN_DELIM ? ")" : ".",
			 num < 10 ? "  " : " ");
	}
	width = strlen(marker);
	if (entering) {
		char sp[24];

		S_lit(m, marker);
		m->begin_content = true;
		memset(sp, ' ', width);
		S_prefix_push(m, sp, width);
	} else {
		gs_buf_truncate(&m->pre, width < m->pre.len ? m->pre.len - width : 0);
		S_cr(m);
	}
}

/* Inline code: enough backticks, and spaces where the code's ends need them. */
static void S_code(S_md *m, cmark_node *n)
{
	const char *code = cmark_node_get_literal(n);
	size_t len = strlen(code);
	int i, ticks = S_ticks(code);
	bool spaces = len == 0 || code[0] == '`' || code[len - 1] == '`' || code[0] == ' ' ||
		      code[len - 1] == ' ';
	bool pipe = m->in_table;

	for (i = 0; i < ticks; i++)
		S_out(m, "`", S_LITERAL, pipe);
	if (spaces)
		S_out(m, " ", S_LITERAL, pipe);
	S_out(m, code, S_LITERAL, pipe);
	if (spaces)
		S_out(m, " ", S_LITERAL, pipe);
	for (i = 0; i < ticks; i++)
		S_out(m, "`", S_LITERAL, pipe);
}

/* A link or an image (a link is written as an image without its "!"); an
 * autolink as <url>. Returns 0 to skip the children. */
static int S_link(S_md *m, cmark_node *n, cmark_node_type t, bool entering)
{
	bool pipe = m->in_table;
	const char *title;

	if (t == CMARK_NODE_LINK && S_autolink(n)) {
		if (entering) {
			const char *url = cmark_node_get_url(n);
			S_out(m, "<", S_LITERAL, pipe);
			S_out(m, strncmp(url, "mailto:", 7) == 0 ? url + 7 : url, S_LITERAL, pipe);
			S_out(m, ">", S_LITERAL, pipe);
			return 0;
		}
		return 1;
	}
	if (entering) {
		S_out(m, t == CMARK_NODE_IMAGE ? "![" : "[", S_LITERAL, pipe);
		return 1;
	}
	S_out(m, "](", S_LITERAL, pipe);
	S_out(m, cmark_node_get_url(n) ? cmark_node_get_url(n) : "", S_URL, pipe);
	title = cmark_node_get_title(n);
	if (title && *title) {
		S_out(m, " \"", S_LITERAL, pipe);
		S_out(m, title, S_TITLE, pipe);
		S_out(m, "\"", S_LITERAL, pipe);
	}
	S_out(m, ")", S_LITERAL, pipe);
	return 1;
}

/* Enters (entering) or leaves node n. Returns 0 to skip n's children. */
static int S_node(S_md *m, cmark_node *n, bool entering)
{
	cmark_node_type t = cmark_node_get_type(n);
	cmark_node *parent = cmark_node_parent(n);

	/*
	 * Tight lists, as cmark-gfm 0.29.0.gfm.6 decides for every node but the
	 * first item's entry: the node's containing block (itself when a
	 * block) is an item of a tight list, or the child of one. A blank
	 * line then shrinks to a newline.
	 */
	if ((t & CMARK_NODE_TYPE_MASK) == CMARK_NODE_TYPE_BLOCK &&
	    !(t == CMARK_NODE_ITEM && entering && !cmark_node_previous(n)))
		m->tight = S_in_tight_item(n);
	/* an inline node's containing block is the block last entered or
	 * left: it has the same answer, already in m->tight */

	/* the table's node types are the extension's variables, not constants */
	if (t == CMARK_NODE_TABLE || t == CMARK_NODE_TABLE_ROW || t == CMARK_NODE_TABLE_CELL) {
		S_table_node(m, n, t, entering);
		return 1;
	}
	switch (t) {
	case CMARK_NODE_DOCUMENT:
		break;
	case CMARK_NODE_BLOCK_QUOTE:
		if (entering) {
			S_lit(m, "> ");
			m->begin_content = true;
			S_prefix_push(m, "> ", 2);
		} else {
			gs_buf_truncate(&m->pre, m->pre.len - 2);
			S_blank(m);
		}
		break;
	case CMARK_NODE_LIST:
		m->list_number = cmark_node_get_list_start(n);
		break;
	case CMARK_NODE_ITEM:
		S_item(m, n, entering);
		break;
	case CMARK_NODE_HEADING:
		if (entering) {
			int i;
			for (i = cmark_node_get_heading_level(n); i > 0; i--)
				S_lit(m, "#");
			S_lit(m, " ");
			m->begin_content = true;
			m->no_linebreaks = true;
		} else {
			m->no_linebreaks = false;
			S_blank(m);
		}
		break;
	case CMARK_NODE_THEMATIC_BREAK:
		S_blank(m);
		S_lit(m, "-----");
		S_blank(m);
		break;
	case CMARK_NODE_PARAGRAPH:
		if (!entering)
			S_blank(m);
		break;
	case CMARK_NODE_TEXT:
		S_out(m, cmark_node_get_literal(n), S_NORMAL, m->in_table);
		break;
	case CMARK_NODE_LINEBREAK:
		S_lit(m, "  ");
		S_cr(m);
		break;
	case CMARK_NODE_SOFTBREAK:
		if (!m->no_linebreaks)
			S_cr(m);
		else
			S_lit(m, " ");
		break;
	case CMARK_NODE_CODE:
		S_code(m, n);
		break;
	case CMARK_NODE_STRONG:
		/* nested too: cmark-gfm 0.29.0.gfm.6 (Debian 12) writes both */
		S_lit(m, "**");
		break;
	case CMARK_NODE_EMPH:
		S_lit(m, parent && cmark_node_get_type(parent) == CMARK_NODE_EMPH &&
			 !cmark_node_next(n) && !cmark_node_previous(n) ? "_" : "*");
		break;
	case CMARK_NODE_LINK:
	case CMARK_NODE_IMAGE:
		return S_link(m, n, t, entering);
	default:
		GS_BUG("doc_md: a node type S_node_ok let through");
	}
	return 1;
}

/*
 * The newlines cmark-gfm's writer has due after the top-level block n: a
 * blank line after every block but a list, whose last item ends with the
 * newline of its end unless that item holds a block (then what that block
 * leaves due), or an "end list" comment and a blank line before a list or
 * a code block.
 */
static int S_due_after(cmark_node *n)
{
	for (;;) {
		cmark_node *item, *last, *next = cmark_node_next(n);

		if (cmark_node_get_type(n) != CMARK_NODE_LIST)
			return 2;
		if (next && (cmark_node_get_type(next) == CMARK_NODE_LIST ||
			     cmark_node_get_type(next) == CMARK_NODE_CODE_BLOCK))
			return 2;
		item = cmark_node_last_child(n);
		last = item ? cmark_node_last_child(item) : NULL;
		if (!last)
			return 1;
		n = last;
	}
}

/*
 * The newlines cmark-gfm's writer makes due before the top-level block n
 * (which, written alone, it cannot write: nothing precedes them there): a
 * blank line before a table, a code block, an HTML block or a thematic
 * break.
 */
static int S_due_before(cmark_node *n)
{
	cmark_node_type t = cmark_node_get_type(n);

	return t == CMARK_NODE_TABLE || t == CMARK_NODE_CODE_BLOCK || t == CMARK_NODE_HTML_BLOCK ||
	       t == CMARK_NODE_THEMATIC_BREAK ? 2 : 0;
}

/*
 * A top-level block of a user's notes, written by cmark-gfm's CommonMark
 * renderer alone: the same bytes as within the whole document. The block
 * is still in the tree (an "end list" comment before the next block is
 * written by it as in the document); the newlines due before it (those
 * left by the block before, and S_due_before) are written here, those it
 * leaves due (S_due_after) are kept for the next block, and the newline
 * cmark-gfm ends its text with is one of them.
 * -1 when cmark-gfm writes nothing for it (the document would differ).
 */
static int S_user_block(S_md *m, cmark_node *n)
{
	char *md = cmark_render_commonmark(n, CMARK_OPT_DEFAULT, 0);
	size_t len;

	if (!md)
		GS_BUG("cmark-gfm rendered no Markdown");
	len = strlen(md);
	if (len <= 1) {
		free(md);
		return -1;
	}
	m->tight = false;   /* a top-level block is in no list */
	if (S_due_before(n) > m->need_cr)
		m->need_cr = S_due_before(n);
	S_flush_cr(m);
	S_put(m, md, len);
	free(md);
	m->need_cr = S_due_after(n);
	m->begin_line = m->begin_content = true;
	return 0;
}

char *gs_doc_md_direct(cmark_node *root)
{
	S_md m;
	cmark_iter *it;
	cmark_event_type ev;

	S_plain_init();
	memset(&m, 0, sizeof(m));
	m.begin_line = m.begin_content = true;
	gs_buf_init(&m.b, 16384);   /* a sheet's is tens of KB */
	gs_buf_init(&m.pre, 0);
	it = cmark_iter_new(root);
	/* one walk: a node this writer does not write, met on the way,
	 * drops what was written (cmark-gfm then writes the document) */
	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *n = cmark_iter_get_node(it);
		int rc = 0;

		if (ev == CMARK_EVENT_ENTER && gs_doc_is_user_block(n)) {
			/* a user's notes: cmark-gfm writes each block, at the
			 * top level only (no container's prefix to repeat) */
			if (cmark_node_get_type(cmark_node_parent(n)) != CMARK_NODE_DOCUMENT)
				rc = -1;
			else
				rc = S_user_block(&m, n);
			cmark_iter_reset(it, n, CMARK_EVENT_EXIT);
		} else if (ev == CMARK_EVENT_ENTER && S_node_ok(n)) {
			rc = -1;
		} else if (!S_node(&m, n, ev == CMARK_EVENT_ENTER)) {
			cmark_iter_reset(it, n, CMARK_EVENT_EXIT);
		}
		if (rc) {
			cmark_iter_free(it);
			gs_buf_release(&m.b);
			gs_buf_release(&m.pre);
			return NULL;
		}
	}
	cmark_iter_free(it);
	if (m.b.len == 0 || m.b.data[m.b.len - 1] != '\n')
		S_put(&m, "\n", 1);
	gs_buf_release(&m.pre);
	return gs_buf_detach(&m.b, NULL);
}

char *gs_doc_md_render(const gs_doc *d)
{
	char *md = gs_doc_md_direct(d->root);

	return md ? md : cmark_render_commonmark(d->root, CMARK_OPT_DEFAULT, 0);
}
