/* jsonout: JSON output with exact unsigned 64-bit integers. */
#include "jsonout.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "util.h"

/*
 * The marker holds a secret drawn once per process, so that no string of
 * an input can pass for it: "\001u64:<secret>:<digits>". It never reaches
 * the output, which stays deterministic.
 */
static char S_mark[64];      /* as json_dumps writes it: "\u0001u64:<secret>: */
static char S_raw[48];       /* as stored in the string */
static size_t S_raw_len;

static void S_init(void)
{
	uint64_t secret = 0;

	if (S_raw[0])
		return;
	if (getrandom(&secret, sizeof(secret), 0) != (ssize_t)sizeof(secret))
		secret = (uint64_t)(uintptr_t)&secret ^ UINT64_C(0x9e3779b97f4a7c15);
	snprintf(S_raw, sizeof(S_raw), "\001u64:%016" PRIx64 ":", secret);
	S_raw_len = strlen(S_raw);
	snprintf(S_mark, sizeof(S_mark), "\"\\u0001u64:%016" PRIx64 ":", secret);
}

json_t *gs_jw_new_u64(uint64_t v)
{
	char buf[96];

	if (v <= (uint64_t)INT64_MAX)
		return json_integer((json_int_t)v);
	S_init();
	snprintf(buf, sizeof(buf), "%s%" PRIu64, S_raw, v);
	return json_string(buf);
}

json_t *gs_jw_new_i64(int64_t v)
{
	return json_integer((json_int_t)v);
}

/* json_dumps, then every marked string turned back into its number. */
static char *S_dumps_jansson(const json_t *root, size_t flags)
{
	char *s = json_dumps(root, flags), *out, *w;
	const char *r, *m;
	size_t n, ml;

	if (!s)
		return NULL;
	S_init();
	ml = strlen(S_mark);
	n = strlen(s);
	out = gs_xmalloc(n + 2);
	w = out;
	r = s;
	while ((m = strstr(r, S_mark)) != NULL) {
		const char *d = m + ml, *e = d;
		while (*e >= '0' && *e <= '9')
			e++;
		memcpy(w, r, (size_t)(m - r));
		w += m - r;
		if (*e == '"' && e > d) {
			memcpy(w, d, (size_t)(e - d));
			w += e - d;
			r = e + 1;
		} else {
			/* not one of ours: copy the text as it is */
			memcpy(w, m, ml);
			w += ml;
			r = m + ml;
		}
	}
	n = strlen(r);
	memcpy(w, r, n);
	w += n;
	*w++ = '\n';
	*w = '\0';
	free(s);
	return out;
}

/*
 * The serializer: the bytes of json_dumps(root, flags) for the flags
 * gpusheet uses (JSON_INDENT, JSON_COMPACT, JSON_SORT_KEYS,
 * JSON_REAL_PRECISION), written straight into one growing buffer instead of
 * through jansson's per-piece callback, its per-object key arrays and a
 * second pass for the marker: the decision JSON of a sheet was a fifth of
 * the site's CPU. test_jsonout compares it with json_dumps on generated
 * documents. Other flags go through json_dumps.
 */
typedef gs_buf S_buf;   /* the streaming writer's buffer too */

#define S_put gs_buf_put

/* The bytes of b, NUL-terminated, without slack (some documents are kept:
 * a site's keys); b is left empty. */
static char *S_detach_fit(gs_buf *b)
{
	size_t cap = b->cap, len;
	char *out = gs_buf_detach(b, &len);

	return len + 1 < cap ? gs_xrealloc(out, len + 1) : out;
}

/* An integer in decimal (magnitude u, negative when neg), as printf writes it. */
static void S_dec(S_buf *b, uint64_t u, int neg)
{
	char d[GS_DEC_MAX], *p = gs_dec(d, u, neg);

	S_put(b, p, (size_t)(d + GS_DEC_MAX - p));
}

/* A signed integer in decimal, as "%" JSON_INTEGER_FORMAT writes it. */
static void S_int(S_buf *b, json_int_t v)
{
	/* the magnitude as unsigned: -INT64_MIN does not fit in json_int_t */
	S_dec(b, v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v, v < 0);
}

/* jansson's dump_indent: a newline and depth * indent spaces, or one space. */
static void S_indent(S_buf *b, size_t flags, size_t depth, int space)
{
	size_t w = flags & JSON_MAX_INDENT;

	if (w > 0) {
		static const char spaces[] = "                                ";
		size_t left = depth * w;

		S_put(b, "\n", 1);
		while (left > 0) {
			size_t k = left < sizeof(spaces) - 1 ? left : sizeof(spaces) - 1;
			S_put(b, spaces, k);
			left -= k;
		}
	} else if (space && !(flags & JSON_COMPACT)) {
		S_put(b, " ", 1);
	}
}

/* Nonzero when one of s[0..7] is not written as it is in a JSON string:
 * a control character, '"', '\\', or a byte of a UTF-8 sequence. */
static uint64_t S_special8(const unsigned char *s)
{
	uint64_t x = gs_swar_load(s);

	return gs_swar_below(x, 0x20) | gs_swar_eq(x, '"') | gs_swar_eq(x, '\\') | gs_swar_high(x);
}

/* A string as jansson writes it; -1 on invalid UTF-8 (as json_dumps fails). */
static int S_string(S_buf *b, const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0, from = 0;   /* s[from, i): plain bytes not yet written */

	S_put(b, "\"", 1);
	while (i < n) {
		unsigned char c;
		const char *esc = NULL;
		char u[8];
		size_t k;

		while (n - i >= 8 && !S_special8(s + i))
			i += 8;
		while (i < n && s[i] >= 0x20 && s[i] < 0x80 && s[i] != '"' && s[i] != '\\')
			i++;
		if (i >= n)
			break;
		c = s[i];
		if (c >= 0x80) {
			uint32_t cp;
			k = gs_util_utf8_decode(s + i, n - i, &cp);
			if (!k)
				return -1;
			i += k;
			continue;
		}
		S_put(b, str + from, i - from);
		switch (c) {
		case '"': esc = "\\\""; break;
		case '\\': esc = "\\\\"; break;
		case '\b': esc = "\\b"; break;
		case '\f': esc = "\\f"; break;
		case '\n': esc = "\\n"; break;
		case '\r': esc = "\\r"; break;
		case '\t': esc = "\\t"; break;
		default:
			snprintf(u, sizeof(u), "\\u%04X", (unsigned)c);
			esc = u;
			break;
		}
		S_put(b, esc, strlen(esc));
		i++;
		from = i;
	}
	S_put(b, str + from, n - from);
	S_put(b, "\"", 1);
	return 0;
}

typedef struct {
	const char *key;
	size_t len;
	json_t *value;
} S_member;

static int S_by_key(const void *a, const void *b)
{
	const S_member *x = a, *y = b;
	size_t m = x->len < y->len ? x->len : y->len;
	int r = memcmp(x->key, y->key, m);

	return r ? r : (x->len > y->len) - (x->len < y->len);
}

#define S_MAX_DEPTH 2048   /* jansson's own limit on nesting */

static int S_dump(S_buf *b, const json_t *v, size_t flags, size_t depth)
{
	if (depth > S_MAX_DEPTH)
		return -1;
	switch (json_typeof(v)) {
	case JSON_NULL:
		S_put(b, "null", 4);
		return 0;
	case JSON_TRUE:
		S_put(b, "true", 4);
		return 0;
	case JSON_FALSE:
		S_put(b, "false", 5);
		return 0;
	case JSON_INTEGER:
		S_int(b, json_integer_value(v));
		return 0;
	case JSON_REAL: {
		char *r = json_dumps(v, JSON_ENCODE_ANY | (flags & JSON_REAL_PRECISION(31)));
		if (!r)
			return -1;
		S_put(b, r, strlen(r));
		free(r);
		return 0;
	}
	case JSON_STRING: {
		const char *s = json_string_value(v);
		size_t n = json_string_length(v), ml = S_raw_len;

		if (n > ml && memcmp(s, S_raw, ml) == 0 && strspn(s + ml, "0123456789") == n - ml) {
			S_put(b, s + ml, n - ml);   /* one of gs_jw_new_u64's numbers */
			return 0;
		}
		return S_string(b, s, n);
	}
	case JSON_ARRAY: {
		size_t i, n = json_array_size(v);

		if (n == 0) {
			S_put(b, "[]", 2);
			return 0;
		}
		S_put(b, "[", 1);
		S_indent(b, flags, depth + 1, 0);
		for (i = 0; i < n; i++) {
			if (S_dump(b, json_array_get(v, i), flags, depth + 1))
				return -1;
			if (i + 1 < n) {
				S_put(b, ",", 1);
				S_indent(b, flags, depth + 1, 1);
			} else {
				S_indent(b, flags, depth, 0);
			}
		}
		S_put(b, "]", 1);
		return 0;
	}
	case JSON_OBJECT: {
		size_t i = 0, n = json_object_size(v);
		const char *sep = (flags & JSON_COMPACT) ? ":" : ": ";
		S_member small[16], *m;
		json_t *obj;
		void *it;
		int rc = 0;

		if (n == 0) {
			S_put(b, "{}", 2);
			return 0;
		}
		/* jansson's iterators take a non-const object; nothing is changed */
		memcpy(&obj, &v, sizeof(obj));
		m = n <= sizeof(small) / sizeof(small[0]) ? small : gs_xcalloc(n, sizeof(*m));
		for (it = json_object_iter(obj); it && i < n; it = json_object_iter_next(obj, it), i++) {
			m[i].key = json_object_iter_key(it);
			m[i].len = json_object_iter_key_len(it);
			m[i].value = json_object_iter_value(it);
		}
		n = i;
		if (flags & JSON_SORT_KEYS) {
			for (i = 1; i < n && S_by_key(&m[i - 1], &m[i]) < 0; i++)
				;
			if (i < n)   /* built in another order than the keys' */
				qsort(m, n, sizeof(*m), S_by_key);
		}
		S_put(b, "{", 1);
		S_indent(b, flags, depth + 1, 0);
		for (i = 0; i < n && !rc; i++) {
			rc = S_string(b, m[i].key, m[i].len);
			if (rc)
				break;
			S_put(b, sep, strlen(sep));
			rc = S_dump(b, m[i].value, flags, depth + 1);
			if (rc)
				break;
			if (i + 1 < n) {
				S_put(b, ",", 1);
				S_indent(b, flags, depth + 1, 1);
			} else {
				S_indent(b, flags, depth, 0);
			}
		}
		if (m != small)
			free(m);
		if (rc)
			return -1;
		S_put(b, "}", 1);
		return 0;
	}
	}
	return -1;
}

/* The flags the serializer writes exactly as json_dumps does. */
#define S_OWN_FLAGS (JSON_MAX_INDENT | JSON_COMPACT | JSON_SORT_KEYS | JSON_REAL_PRECISION(31))

char *gs_jw_dumps(const json_t *root, size_t flags)
{
	S_buf b;

	if (!root)
		return NULL;
	S_init();
	if (flags & ~(size_t)S_OWN_FLAGS)
		return S_dumps_jansson(root, flags);
	if (!json_is_object(root) && !json_is_array(root))
		return NULL;   /* json_dumps wants JSON_ENCODE_ANY for those */
	/* a sheet's decision JSON is tens of KB: no doubling from 64 bytes */
	gs_buf_init(&b, 16384);
	if (S_dump(&b, root, flags, 0)) {
		gs_buf_release(&b);
		return NULL;
	}
	S_put(&b, "\n", 1);
	return S_detach_fit(&b);
}

/*
 * The streaming writer. Its layout is S_dump's with JSON_INDENT(2): a
 * container's first member on a new line indented one level deeper, the
 * next ones after ",", the closing bracket on a new line at the
 * container's own level; an empty container as "{}" or "[]". With flat
 * (gs_jw_init_flat), the members of a container at depth flat or deeper
 * follow each other on its line, as JSON_COMPACT writes them ("," and ":").
 */
/* Room for n more bytes (and a NUL) in the writer's buffer; where they go.
 * The caller writes there, then S_jw_end's where its bytes end. */
static char *S_jw_room(gs_jw *w, size_t n)
{
	if (n > SIZE_MAX / 4 - w->b.len)
		GS_BUG("gs_jw: a document past SIZE_MAX / 4 bytes");
	if (w->b.len + n >= w->b.cap)
		gs_buf_grow(&w->b, n);
	return w->b.data + w->b.len;
}

/* The bytes written at S_jw_room's place end at end (NUL-terminated). */
static void S_jw_end(gs_jw *w, char *end)
{
	w->b.len = (size_t)(end - w->b.data);
	*end = '\0';
}

/* A newline and depth levels of indentation (2 spaces each), at p. */
static char *S_jw_indent(char *p, size_t depth)
{
	*p++ = '\n';
	memset(p, ' ', 2 * depth);
	return p + 2 * depth;
}

static void S_jw_nl(gs_jw *w, size_t depth)
{
	char *p = S_jw_room(w, 1 + 2 * depth);

	S_jw_end(w, S_jw_indent(p, depth));
}

/* 1 when the n bytes at s go into a JSON string as they are. */
static int S_plain(const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0;

	for (; n - i >= 8; i += 8)
		if (S_special8(s + i))
			return 0;
	for (; i < n; i++)
		if (s[i] < 0x20 || s[i] >= 0x80 || s[i] == '"' || s[i] == '\\')
			return 0;
	return 1;
}

static void S_jw_put(gs_jw *w, const char *s, size_t n)
{
	S_put(&w->b, s, n);
}

/* A member at depth level: on one line from w->flat down (gs_jw_init_flat). */
static int S_jw_flat(const gs_jw *w, size_t level)
{
	return w->flat && level >= w->flat;
}

/* Before a value: in an array, the separator of the member it is. */
static void S_jw_value(gs_jw *w)
{
	if (w->depth == 0 || w->key[w->depth - 1])
		return;   /* the document itself, or an object's member (after its key) */
	if (w->any[w->depth - 1])
		S_jw_put(w, ",", 1);
	w->any[w->depth - 1] = 1;
	if (!S_jw_flat(w, w->depth))
		S_jw_nl(w, w->depth);
}

void gs_jw_init(gs_jw *w)
{
	memset(w, 0, sizeof(*w));
	gs_buf_init(&w->b, 16384);
}

void gs_jw_init_flat(gs_jw *w, size_t flat)
{
	if (flat < 1)
		GS_BUG("gs_jw: flat from depth %zu (1 at least)", flat);
	gs_jw_init(w);
	w->flat = flat;
}

static void S_jw_open(gs_jw *w, const char *bracket, int object)
{
	S_jw_value(w);
	if (w->depth >= GS_JW_MAX_DEPTH)
		GS_BUG("gs_jw: nested deeper than %d", GS_JW_MAX_DEPTH);
	S_jw_put(w, bracket, 1);
	w->any[w->depth] = 0;
	/* an object's key slot: "" until its first key (set); NULL in an array */
	w->key[w->depth] = object ? "" : NULL;
	w->depth++;
}

void gs_jw_object(gs_jw *w)
{
	S_jw_open(w, "{", 1);
}

void gs_jw_array(gs_jw *w)
{
	S_jw_open(w, "[", 0);
}

void gs_jw_end(gs_jw *w)
{
	int object;

	if (w->depth == 0)
		GS_BUG("gs_jw: end without a container");
	object = w->key[w->depth - 1] != NULL;
	w->depth--;
	if (w->any[w->depth] && !S_jw_flat(w, w->depth + 1))
		S_jw_nl(w, w->depth);
	S_jw_put(w, object ? "}" : "]", 1);
}

void gs_jw_key(gs_jw *w, const char *key)
{
	const char *last;
	char *p;
	size_t n;
	int flat;

	if (w->depth == 0 || !w->key[w->depth - 1])
		GS_BUG("gs_jw: a key outside an object");
	last = w->key[w->depth - 1];
	/* in order: the first bytes tell, mostly */
	if (w->any[w->depth - 1] && (unsigned char)last[0] >= (unsigned char)key[0] &&
	    strcmp(last, key) >= 0)
		GS_BUG("gs_jw: key \"%s\" after \"%s\" (keys are written sorted)", key, last);
	n = strlen(key);
	flat = S_jw_flat(w, w->depth);
	/* ",", the newline and indentation, the key in quotes and ": " at once */
	p = S_jw_room(w, 1 + 1 + 2 * w->depth + n + 4);
	if (w->any[w->depth - 1])
		*p++ = ',';
	w->any[w->depth - 1] = 1;
	w->key[w->depth - 1] = key;
	if (!flat)
		p = S_jw_indent(p, w->depth);
	if (S_plain(key, n)) {
		*p++ = '"';
		memcpy(p, key, n);
		p += n;
		memcpy(p, "\": ", 3);
		S_jw_end(w, p + (flat ? 2 : 3));
		return;
	}
	S_jw_end(w, p);
	if (S_string(&w->b, key, n))
		w->bad = 1;
	S_put(&w->b, ": ", flat ? 1 : 2);
}

void gs_jw_str(gs_jw *w, const char *s)
{
	size_t n;

	if (!s) {
		gs_jw_null(w);
		return;
	}
	S_jw_value(w);
	n = strlen(s);
	if (S_plain(s, n)) {
		char *p = S_jw_room(w, n + 2);
		*p++ = '"';
		memcpy(p, s, n);
		p[n] = '"';
		S_jw_end(w, p + n + 1);
		return;
	}
	if (S_string(&w->b, s, n))
		w->bad = 1;
}

void gs_jw_u64(gs_jw *w, uint64_t v)
{
	S_jw_value(w);
	S_dec(&w->b, v, 0);
}

void gs_jw_i64(gs_jw *w, int64_t v)
{
	S_jw_value(w);
	S_int(&w->b, (json_int_t)v);
}

void gs_jw_bool(gs_jw *w, int v)
{
	S_jw_value(w);
	if (v)
		S_jw_put(w, "true", 4);
	else
		S_jw_put(w, "false", 5);
}

void gs_jw_null(gs_jw *w)
{
	S_jw_value(w);
	S_jw_put(w, "null", 4);
}

void gs_jw_raw(gs_jw *w, const char *json)
{
	if (!json) {
		w->bad = 1;
		gs_jw_null(w);
		return;
	}
	S_jw_value(w);
	S_jw_put(w, json, strlen(json));
}

char *gs_jw_finish(gs_jw *w)
{
	char *out;

	if (w->depth)
		GS_BUG("gs_jw: %zu containers left open", w->depth);
	if (w->bad) {
		gs_buf_release(&w->b);
		memset(w, 0, sizeof(*w));
		gs_buf_init(&w->b, 0);
		return NULL;
	}
	S_jw_put(w, "\n", 1);
	out = S_detach_fit(&w->b);
	memset(w, 0, sizeof(*w));
	gs_buf_init(&w->b, 0);
	return out;
}

void gs_jw_qty(gs_jw *w, gs_qty q)
{
	if (!q.present) {
		gs_jw_null(w);
		return;
	}
	gs_jw_object(w);
	gs_jw_key(w, "bytes");
	gs_jw_u64(w, q.bytes);
	gs_jw_key(w, "provenance");
	gs_jw_str(w, gs_qty_prov_id(q.prov));
	if (q.synthetic) {
		gs_jw_key(w, "synthetic");
		gs_jw_bool(w, 1);
	}
	gs_jw_end(w);
}
