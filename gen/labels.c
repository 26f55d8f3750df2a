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

/* The JSON string at *pp (its opening quote), decoded into a new string, as
 * jansson decodes it; *pp moves past its closing quote. NULL for anything
 * jansson would refuse (a control character, a bad escape or \u0000, a
 * lone surrogate, invalid UTF-8) or the end of the text. */
static char *S_string(const char **pp, const char *end)
{
	const char *p = *pp + 1, *q = p;
	char *out, *o;

	while (q < end && *q != '"') {
		if (*q == '\\' && ++q == end)
			return NULL;
		q++;
	}
	if (q >= end)
		return NULL;
	o = out = gs_xmalloc((size_t)(q - p) + 1);   /* decoding never lengthens */
	while (p < q) {
		unsigned char c = (unsigned char)*p;
		unsigned cp, lo;
		size_t n;

		if (c < 0x20) {
			goto bad;
		} else if (c >= 0x80) {
			uint32_t u;
			/* 2 to 4 bytes: no overlong form, surrogate or code point above U+10FFFF */
			if (!(n = gs_utf8_decode((const unsigned char *)p, (size_t)(q - p), &u)))
				goto bad;
			memcpy(o, p, n);
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
					goto bad;
				p += 6;
				if (cp >= 0xD800 && cp <= 0xDBFF) {
					if (q - p < 6 || p[0] != '\\' || p[1] != 'u' ||
					    S_hex4(p + 2, q, &lo) || lo < 0xDC00 || lo > 0xDFFF)
						goto bad;
					cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
					p += 6;
				}
				o = S_put_utf8(o, cp);
				break;
			default:
				goto bad;
			}
		}
	}
	*o = '\0';
	*pp = q + 1;
	return out;
bad:
	free(out);
	return NULL;
}

int gs_strings_parse_flat(const char *text, size_t len, gs_strings *s)
{
	const char *p = text, *end = text + len;
	size_t cap = 0, i;

	s->items = NULL;
	s->count = 0;
	p = S_ws(p, end);
	if (p == end || *p++ != '{')
		goto bad;
	p = S_ws(p, end);
	if (p < end && *p == '}') {
		p++;
	} else {
		for (;;) {
			gs_string it = { NULL, NULL };

			if (p == end || *p != '"' || !(it.key = S_string(&p, end)))
				goto bad;
			p = S_ws(p, end);
			if (p == end || *p++ != ':')
				goto bad_key;
			p = S_ws(p, end);
			if (p == end || *p != '"' || !(it.text = S_string(&p, end)))
				goto bad_key;
			if (s->count + 1 >= cap) {
				cap = cap ? 2 * cap : 512;
				s->items = gs_xrealloc(s->items, cap * sizeof(*s->items));
			}
			s->items[s->count++] = it;
			p = S_ws(p, end);
			if (p < end && *p == ',') {
				p = S_ws(p + 1, end);
				continue;
			}
			if (p < end && *p == '}') {
				p++;
				break;
			}
			goto bad;
bad_key:
			free(it.key);
			goto bad;
		}
	}
	if (S_ws(p, end) != end)
		goto bad;
	if (!s->items)
		s->items = gs_xcalloc(1, sizeof(*s->items));
	memset(&s->items[s->count], 0, sizeof(*s->items));
	qsort(s->items, s->count, sizeof(*s->items), S_cmp);
	for (i = 1; i < s->count; i++)
		if (strcmp(s->items[i - 1].key, s->items[i].key) == 0)
			goto bad;   /* a duplicate: jansson's error */
	return 0;
bad:
	for (i = 0; i < s->count; i++) {
		free(s->items[i].key);
		free(s->items[i].text);
	}
	free(s->items);
	s->items = NULL;
	s->count = 0;
	return -1;
}

int gs_strings_load_file(const char *path, gs_lang lang, gs_strings *s, gs_diag *d)
{
	json_error_t e;
	json_t *root;
	const char *key;
	json_t *val;
	size_t i = 0, len = 0;
	char *text;

	memset(s, 0, sizeof(*s));
	s->lang = lang;
	text = gs_read_file(path, &len);
	if (text && gs_strings_parse_flat(text, len, s) == 0) {
		free(text);
		return 0;
	}
	/* not a flat object of strings (or unreadable): jansson says why */
	root = text ? json_loadb(text, len, JSON_REJECT_DUPLICATES, &e)
		    : gs_json_load_path(path, JSON_REJECT_DUPLICATES, &e);
	free(text);
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

int gs_strings_load(gs_lang lang, gs_strings *s, gs_diag *d)
{
	char rel[64], path[4096];

	snprintf(rel, sizeof(rel), "templates/strings/%s.json", gs_lang_id(lang));
	if (!gs_datapath(path, sizeof(path), rel)) {
		gs_diag_add(d, rel, 0, 0, NULL,
			    "data folder not found (set GPUSHEET_DATADIR to the folder holding catalog/ and templates/)");
		memset(s, 0, sizeof(*s));
		return -1;
	}
	return gs_strings_load_file(path, lang, s, d);
}

/*
 * The place of a key in the last table it was found in, by the key's
 * address (the keys asked for are mostly string literals, asked for again
 * and again): a sheet of 50 offers asks thousands of times, each a binary
 * search of strcmp. Checked before use (the key at that place is the key
 * asked for; a table's keys are unique), so a stale or shared entry only
 * costs the search. Per process: the site's workers are processes.
 */
static struct {
	const char *key;
	size_t at;
} S_seen[256];

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
		GS_BUG("no label \"%s\" for language %s", key, gs_lang_id(s->lang));
	return t;
}

void gs_strings_release(gs_strings *s)
{
	size_t i;

	for (i = 0; i < s->count; i++) {
		free(s->items[i].key);
		free(s->items[i].text);
	}
	free(s->items);
	memset(s, 0, sizeof(*s));
}

const char *gs_lang_id(gs_lang lang)
{
	return lang == GS_LANG_ES ? "es" : "en";
}

int gs_lang_parse(const char *id, gs_lang *out)
{
	if (strcmp(id, "en") == 0)
		*out = GS_LANG_EN;
	else if (strcmp(id, "es") == 0)
		*out = GS_LANG_ES;
	else
		return -1;
	return 0;
}
