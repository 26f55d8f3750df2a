/* labels: every label a user reads, per language (named so as not to shadow <strings.h>). */
#include "labels.h"

#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datadir.h"
#include "outfile.h"
#include "util.h"
#include "jsonread.h"

static int S_cmp(const void *a, const void *b)
{
	return strcmp(((const gs_string *)a)->key, ((const gs_string *)b)->key);
}

static const char *S_ws(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
		p++;
	return p;
}

static int S_hex4(const char *p, const char *end, unsigned *out)
{
	unsigned v = 0;
	int i;

	if (end - p < 4)
		return -1;
	for (i = 0; i < 4; i++) {
		char c = p[i];
		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v |= (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v |= (unsigned)(c - 'A' + 10);
		else
			return -1;
	}
	*out = v;
	return 0;
}

static char *S_put_utf8(char *o, unsigned cp)
{
	if (cp < 0x80) {
		*o++ = (char)cp;
	} else if (cp < 0x800) {
		*o++ = (char)(0xC0 | (cp >> 6));
		*o++ = (char)(0x80 | (cp & 0x3F));
	} else if (cp < 0x10000) {
		*o++ = (char)(0xE0 | (cp >> 12));
		*o++ = (char)(0x80 | ((cp >> 6) & 0x3F));
		*o++ = (char)(0x80 | (cp & 0x3F));
	} else {
		*o++ = (char)(0xF0 | (cp >> 18));
		*o++ = (char)(0x80 | ((cp >> 12) & 0x3F));
		*o++ = (char)(0x80 | ((cp >> 6) & 0x3F));
		*o++ = (char)(0x80 | (cp & 0x3F));
	}
	return o;
}

/* The JSON string at *pp (its opening quote), decoded as jansson decodes
 * it, in place: decoding never lengthens, so the text goes where it was
 * read and its closing quote becomes the terminating NUL. Returns its
 * start, *pp past the closing quote; NULL for anything jansson would
 * refuse (a control character, a bad escape or \u0000, a lone surrogate,
 * invalid UTF-8) or the end of the text. */
static char *S_string(char **pp, char *end)
{
	char *p = *pp + 1, *q, *out, *o;

	/* Most strings hold no escape, control character nor UTF-8: found by
	 * memchr and eight bytes at a time, and left where they are (the
	 * loops below cost ~18 instructions a byte). Any other string takes
	 * the loops. */
	q = memchr(p, '"', (size_t)(end - p));
	if (q && !memchr(p, '\\', (size_t)(q - p))) {
		size_t i, n = (size_t)(q - p);
		uint64_t odd = 0, w;

		/* a byte from 0x80 on has its top bit; one below 0x20 (top bit
		 * clear) is the one whose low 7 bits plus 0x60 stay below 0x80:
		 * eight bytes at a time, no carry between them */
		for (i = 0; i + 8 <= n; i += 8) {
			memcpy(&w, p + i, 8);
			odd |= w | ~((w & 0x7f7f7f7f7f7f7f7fu) + 0x6060606060606060u);
		}
		for (; i < n; i++)
			odd |= (unsigned char)((unsigned char)p[i] - 0x20) >= 0x60 ? 0x80u : 0u;
		if (!(odd & 0x8080808080808080u)) {
			*q = '\0';
			*pp = q + 1;
			return p;
		}
	}
	q = p;
	while (q < end && *q != '"') {
		if (*q == '\\' && ++q == end)
			return NULL;
		q++;
	}
	if (q >= end)
		return NULL;
	o = out = p;
	while (p < q) {
		unsigned char c = (unsigned char)*p;
		unsigned cp, lo;
		size_t n;

		if (c < 0x20) {
			return NULL;
		} else if (c >= 0x80) {
			uint32_t u;
			/* 2 to 4 bytes: no overlong form, surrogate or code point above U+10FFFF */
			if (!(n = gs_util_utf8_decode((const unsigned char *)p, (size_t)(q - p), &u)))
				return NULL;
			memmove(o, p, n);
			o += n;
			p += n;
		} else if (c != '\\') {
			*o++ = (char)c;
			p++;
		} else {
			switch (p[1]) {
			case '"': case '\\': case '/': *o++ = p[1]; p += 2; break;
			case 'b': *o++ = '\b'; p += 2; break;
			case 'f': *o++ = '\f'; p += 2; break;
			case 'n': *o++ = '\n'; p += 2; break;
			case 'r': *o++ = '\r'; p += 2; break;
			case 't': *o++ = '\t'; p += 2; break;
			case 'u':
				if (S_hex4(p + 2, q, &cp) || cp == 0 || (cp >= 0xDC00 && cp <= 0xDFFF))
					return NULL;
				p += 6;
				if (cp >= 0xD800 && cp <= 0xDBFF) {
					if (q - p < 6 || p[0] != '\\' || p[1] != 'u' ||
					    S_hex4(p + 2, q, &lo) || lo < 0xDC00 || lo > 0xDFFF)
						return NULL;
					cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
					p += 6;
				}
				/* at most 4 bytes from at least 6 read: o stays behind p */
				o = S_put_utf8(o, cp);
				break;
			default:
				return NULL;
			}
		}
	}
	*o = '\0';
	*pp = q + 1;
	return out;
}

/* S_ws on text the caller may write */
static char *S_wsm(char *p, char *end)
{
	return p + (S_ws(p, end) - p);
}

/* gs_tr_parse_flat on text (len bytes), which it takes: on success
 * the keys and texts point into it and s->pool owns it; on failure it is
 * freed. */
static int S_parse_flat_owned(char *text, size_t len, gs_strings *s)
{
	char *p = text, *end = text + len;
	size_t cap = 0, i;

	s->items = NULL;
	s->count = 0;
	s->pool = NULL;
	p = S_wsm(p, end);
	if (p == end || *p++ != '{')
		goto bad;
	p = S_wsm(p, end);
	if (p < end && *p == '}') {
		p++;
	} else {
		for (;;) {
			gs_string it = { NULL, NULL };

			if (p == end || *p != '"' || !(it.key = S_string(&p, end)))
				goto bad;
			p = S_wsm(p, end);
			if (p == end || *p++ != ':')
				goto bad;
			p = S_wsm(p, end);
			if (p == end || *p != '"' || !(it.text = S_string(&p, end)))
				goto bad;
			if (s->count + 1 >= cap) {
				cap = cap ? 2 * cap : 512;
				s->items = gs_xrealloc(s->items, cap * sizeof(*s->items));
			}
			s->items[s->count++] = it;
			p = S_wsm(p, end);
			if (p < end && *p == ',') {
				p = S_wsm(p + 1, end);
				continue;
			}
			if (p < end && *p == '}') {
				p++;
				break;
			}
			goto bad;
		}
	}
	if (S_ws(p, end) != end)
		goto bad;
	if (!s->items)
		s->items = gs_xcalloc(1, sizeof(*s->items));
	memset(&s->items[s->count], 0, sizeof(*s->items));
	/* the bundled files are written in key order: sorted only if not */
	for (i = 1; i < s->count; i++)
		if (strcmp(s->items[i - 1].key, s->items[i].key) >= 0)
			break;
	if (i < s->count)
		qsort(s->items, s->count, sizeof(*s->items), S_cmp);
	for (i = 1; i < s->count; i++)
		if (strcmp(s->items[i - 1].key, s->items[i].key) == 0)
			goto bad;   /* a duplicate: jansson's error */
	s->pool = text;
	return 0;
bad:
	free(s->items);
	free(text);
	s->items = NULL;
	s->count = 0;
	return -1;
}

int gs_tr_parse_flat(const char *text, size_t len, gs_strings *s)
{
	char *copy = gs_xmalloc(len + 1);

	memcpy(copy, text, len);
	copy[len] = '\0';
	return S_parse_flat_owned(copy, len, s);
}

static int S_load_file(const char *path, gs_lang lang, gs_strings *s, gs_diag *d)
{
	json_error_t e;
	json_t *root;
	const char *key;
	json_t *val;
	size_t i = 0, len = 0;
	char *text;

	memset(s, 0, sizeof(*s));
	s->lang = lang;
	text = gs_outfile_read(path, &len);
	if (text && S_parse_flat_owned(text, len, s) == 0)
		return 0;   /* text is s->pool now */
	/* not a flat object of strings (or unreadable): jansson says why,
	 * reading the file again (the flat reader took and changed text) */
	root = gs_jr_load_path(path, JSON_REJECT_DUPLICATES, &e);
	if (!root) {
		gs_diag_add(d, path, e.line, e.column, NULL, "invalid JSON: %s", e.text);
		return -1;
	}
	if (!json_is_object(root)) {
		gs_diag_add(d, path, 0, 0, "$", "expected an object of strings");
		json_decref(root);
		return -1;
	}
	s->items = gs_xcalloc(json_object_size(root) + 1, sizeof(*s->items));
	json_object_foreach(root, key, val) {
		if (!json_is_string(val)) {
			gs_diag_add(d, path, 0, 0, NULL, "at $.%s: expected a string", key);
			continue;
		}
		s->items[i].key = gs_xstrdup(key);
		s->items[i].text = gs_xstrdup(json_string_value(val));
		i++;
	}
	s->count = i;
	json_decref(root);
	qsort(s->items, s->count, sizeof(*s->items), S_cmp);
	return gs_diag_count(d) ? -1 : 0;
}

int gs_tr_load(gs_lang lang, gs_strings *s, gs_diag *d)
{
	char rel[64], path[4096];

	snprintf(rel, sizeof(rel), "templates/strings/%s.json", gs_tr_lang_id(lang));
	if (!gs_datadir_path(path, sizeof(path), rel, NULL)) {
		gs_diag_add(d, rel, 0, 0, NULL,
			    "data folder not found (set GPUSHEET_DATADIR to the folder holding catalog/ and templates/)");
		memset(s, 0, sizeof(*s));
		return -1;
	}
	return S_load_file(path, lang, s, d);
}

/*
 * The place of a key in the last table it was found in, by the key's
 * address (the keys asked for are mostly string literals, asked for again
 * and again): a sheet of 50 offers asks thousands of times, each a binary
 * search of strcmp. Checked before use (the key at that place is the key
 * asked for; a table's keys are unique), so a stale or shared entry only
 * costs the search. Per process: the site's workers are processes.
 * 4,096 places: with 256, the 200-workload site missed 25,455 of its
 * 239,253 lookups (907 now; 0.5 % of its user-space instructions).
 */
static struct {
	const char *key;
	size_t at;
} S_seen[4096];

const char *gs_tr_opt(const gs_strings *s, const char *key)
{
	size_t slot = ((uintptr_t)key >> 3 ^ (uintptr_t)key >> 11) % (sizeof(S_seen) / sizeof(S_seen[0]));
	gs_string k, *hit;

	if (S_seen[slot].key == key && S_seen[slot].at < s->count &&
	    strcmp(s->items[S_seen[slot].at].key, key) == 0)
		return s->items[S_seen[slot].at].text;
	k.key = (char *)(uintptr_t)key;
	k.text = NULL;
	hit = bsearch(&k, s->items, s->count, sizeof(*s->items), S_cmp);
	if (!hit)
		return NULL;
	S_seen[slot].key = key;
	S_seen[slot].at = (size_t)(hit - s->items);
	return hit->text;
}

const char *gs_tr(const gs_strings *s, const char *key)
{
	const char *t = gs_tr_opt(s, key);

	if (!t)
		GS_BUG("no label \"%s\" for language %s", key, gs_tr_lang_id(s->lang));
	return t;
}

void gs_tr_release(gs_strings *s)
{
	size_t i;

	/* the flat reader's keys and texts live in its pool, jansson's apart */
	for (i = 0; !s->pool && i < s->count; i++) {
		free(s->items[i].key);
		free(s->items[i].text);
	}
	free(s->items);
	free(s->pool);
	memset(s, 0, sizeof(*s));
}

const char *gs_tr_lang_id(gs_lang lang)
{
	return lang == GS_LANG_ES ? "es" : "en";
}

int gs_tr_lang_parse(const char *id, gs_lang *out)
{
	if (strcmp(id, "en") == 0)
		*out = GS_LANG_EN;
	else if (strcmp(id, "es") == 0)
		*out = GS_LANG_ES;
	else
		return -1;
	return 0;
}
