/* keysread: the hand-written readers of a site's keys file. */
#include "keysread.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

/* A character of the "pages" object, read in order, at most left more. */
typedef struct {
	FILE *f;
	uint64_t left;
} S_rd;

static int S_rd_getc(S_rd *r)
{
	if (!r->left)
		return EOF;
	r->left--;
	return getc(r->f);
}

static int S_rd_skip_ws(S_rd *r)
{
	int ch;

	do
		ch = S_rd_getc(r);
	while (ch == ' ' || ch == '\n' || ch == '\t' || ch == '\r');
	return ch;
}

/*
 * A JSON string's text (its opening quote read) into buf (len bytes):
 * 1 when it fits and has no \u escape, 0 when it is valid but not so, -1
 * when it is not a string.
 */
static int S_rd_string(S_rd *r, char *buf, size_t len)
{
	size_t n = 0;
	int ok = 1, ch;

	while ((ch = S_rd_getc(r)) != '"') {
		if (ch == EOF || ch < 0x20)
			return -1;
		if (ch == '\\') {
			ch = S_rd_getc(r);
			switch (ch) {
			case '"': case '\\': case '/': break;
			case 'b': ch = '\b'; break;
			case 'f': ch = '\f'; break;
			case 'n': ch = '\n'; break;
			case 'r': ch = '\r'; break;
			case 't': ch = '\t'; break;
			case 'u': ok = 0; continue;
			default: return -1;
			}
		}
		if (n + 1 < len)
			buf[n++] = (char)ch;
		else
			ok = 0;
	}
	buf[n] = '\0';
	return ok;
}

int gs_keysread_pages(FILE *f, uint64_t len, gs_keys_page_fn fn, void *arg)
{
	S_rd r;
	int ch;

	r.f = f;
	r.left = len;
	if (S_rd_skip_ws(&r) != '{')
		return -1;
	ch = S_rd_skip_ws(&r);
	if (ch == '}')
		return S_rd_skip_ws(&r) == EOF ? 0 : -1;
	for (;;) {
		char name[GS_KEYS_NAME_MAX + 1], val[GS_KEYS_VALUE_MAX + 1];
		int nok, vok;
		if (ch != '"' || (nok = S_rd_string(&r, name, sizeof(name))) < 0 ||
		    S_rd_skip_ws(&r) != ':' || S_rd_skip_ws(&r) != '"' ||
		    (vok = S_rd_string(&r, val, sizeof(val))) < 0)
			return -1;
		if (nok && vok)
			fn(arg, name, val);
		ch = S_rd_skip_ws(&r);
		if (ch == '}')
			break;
		if (ch != ',')
			return -1;
		ch = S_rd_skip_ws(&r);
	}
	return S_rd_skip_ws(&r) == EOF ? 0 : -1;
}

/* The value of the 4 hex digits at p (4 readable), or -1. */
static long S_hex4(const char *p)
{
	long v = 0;
	int k;

	for (k = 0; k < 4; k++) {
		int c = p[k], d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
				 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
		if (d < 0)
			return -1;
		v = v * 16 + d;
	}
	return v;
}

/*
 * The JSON string at p[i] (its opening quote) within p[0, end): the offset
 * just after its closing quote, or 0 when it is not one that jansson
 * loads (a control byte, a byte that is not UTF-8, an escape JSON has not,
 * \u0000, a surrogate not in a pair).
 */
static size_t S_string_end(const char *p, size_t i, size_t end)
{
	const unsigned char *u = (const unsigned char *)p;

	for (i++; i < end && p[i] != '"';) {
		if (u[i] < 0x20) {
			return 0;
		} else if (u[i] >= 0x80) {
			uint32_t cp;
			size_t l = gs_util_utf8_decode(u + i, end - i, &cp);
			if (!l)
				return 0;
			i += l;
		} else if (p[i] != '\\') {
			i++;
		} else if (i + 1 < end && p[i + 1] && strchr("\"\\/bfnrt", p[i + 1])) {
			i += 2;
		} else {
			long v, lo;
			if (i + 6 > end || p[i + 1] != 'u' || (v = S_hex4(p + i + 2)) <= 0 ||
			    (v >= 0xDC00 && v <= 0xDFFF))
				return 0;
			i += 6;
			if (v >= 0xD800 && v <= 0xDBFF) {
				if (i + 6 > end || p[i] != '\\' || p[i + 1] != 'u' ||
				    (lo = S_hex4(p + i + 2)) < 0xDC00 || lo > 0xDFFF)
					return 0;
				i += 6;
			}
		}
	}
	return i < end ? i + 1 : 0;
}

/* A string of a "why" array: its bytes, quotes included. */
typedef struct {
	const char *s;
	size_t len;
} S_text;

static int S_text_cmp(const void *a, const void *b)
{
	const S_text *x = a, *y = b;

	if (x->len != y->len)
		return x->len < y->len ? -1 : 1;
	return memcmp(x->s, y->s, x->len);
}

long gs_keysread_why_count(const char *p, size_t n)
{
	size_t i = 1, k, ntext = 0;
	long count = 0, ret = -1;
	unsigned char *is_str = gs_xcalloc(n / 2 + 1, 1);  /* fewer elements than n / 2 */
	S_text *text = gs_xcalloc(n / 2 + 1, sizeof(*text));

	if (n < 2 || p[0] != '[' || p[n - 1] != ']')
		goto out;
	if (n == 2) {
		ret = 0;
		goto out;
	}
	for (;;) {
		if (i + 4 <= n - 1 && memcmp(p + i, "null", 4) == 0) {
			i += 4;
		} else if (p[i] >= '0' && p[i] <= '9') {
			size_t v = 0, start = i;
			for (; i < n - 1 && p[i] >= '0' && p[i] <= '9' && i - start < 12; i++)
				v = v * 10 + (size_t)(p[i] - '0');
			if ((p[start] == '0' && i - start > 1) || v >= (size_t)count || !is_str[v])
				goto out;
		} else if (p[i] == '"') {
			size_t start_s = i;
			if ((i = S_string_end(p, i, n - 1)) == 0)
				goto out;
			text[ntext].s = p + start_s;
			text[ntext++].len = i - start_s;
			is_str[count] = 1;
		} else {
			goto out;
		}
		count++;
		if (i == n - 1)
			break;
		if (p[i] != ',')
			goto out;
		i++;
	}
	/* a text written twice would have been the index of the first: sorted,
	 * equal texts are neighbours (n log n, not a comparison of each pair) */
	qsort(text, ntext, sizeof(*text), S_text_cmp);
	for (k = 1; k < ntext; k++)
		if (S_text_cmp(&text[k - 1], &text[k]) == 0)
			goto out;
	ret = count;
out:
	free(is_str);
	free(text);
	return ret;
}

long gs_keysread_why_at(const char *buf, size_t n, size_t noffers, size_t *why_len)
{
	const size_t wl = sizeof(GS_KEYS_WHY_MEMBER) - 1;
	const char *w, *at;
	size_t len;

	if (n < wl + 4)
		return -1;
	for (w = NULL, at = buf; (at = strstr(at, GS_KEYS_WHY_MEMBER)) != NULL; at++)
		w = at;
	if (!w || buf[n - 1] != '}')
		return -1;
	len = n - 1 - (size_t)(w - buf) - wl;
	if (gs_keysread_why_count(w + wl, len) != (long)noffers)
		return -1;
	*why_len = len;
	return (long)(w - buf + (long)wl);
}
