/* jsonread: small helpers for reading JSON strictly with jansson. */
#define _POSIX_C_SOURCE 200809L
#include "jsonread.h"
#include "suggest.h"
#include "infile.h"
#include "outfile.h"
#include "quantity.h"
#include "buf.h"
#include "util.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A file named *.csv (any case). */
static int S_csv_name(const char *file)
{
	size_t n = file ? strlen(file) : 0;

	return n > 4 && file[n - 4] == '.' && (file[n - 3] | 32) == 'c' &&
	       (file[n - 2] | 32) == 's' && (file[n - 1] | 32) == 'v';
}

#define S_INT_MAX ((uint64_t)INT64_MAX)
#define S_DESCRIBE_MAX 40   /* characters of a string shown in "found ..." */

char *gs_jr_strdup(const char *s)
{
	return gs_xstrdup_or_null(s);
}

void gs_jr_init(gs_jr *r, const char *file, gs_diag *d)
{
	r->file = file;
	r->diag = d;
	r->errors = 0;
	r->on_bytes = NULL;
	r->on_bytes_arg = NULL;
	r->text = NULL;
	r->len = 0;
}

void gs_jr_error(gs_jr *r, const char *path, const char *fmt, ...)
{
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	msg = gs_xvasprintf(fmt, ap);
	va_end(ap);
	gs_diag_add(r->diag, r->file, 0, 0, path, "%s", msg);
	free(msg);
	r->errors++;
}

/*
 * Every array and string of the document within its bound (jsonread.h),
 * checked before any reader sees the values. Iterative, with an explicit
 * stack of containers and their paths: the walk is linear in the document
 * and its depth bounded by jansson's (2048), not by the C stack.
 */
static int S_check_bounds(gs_jr *r, json_t *root)
{
	typedef struct {
		json_t *v;
		char *path;
	} S_item;
	S_item *st = gs_xmalloc(16 * sizeof(*st));
	size_t n = 0, cap = 16, before = r->errors;

	st[n].v = root;
	st[n++].path = gs_xstrdup("$");
	while (n > 0) {
		S_item it = st[--n];
		size_t i, count;
		const char *key;
		json_t *x;

		if (r->errors > before) {
			free(it.path);
			continue; /* one error is enough: empty the stack */
		}
		if (json_is_string(it.v)) {
			if (json_string_length(it.v) > GS_JR_MAX_STRING)
				gs_jr_error(r, it.path, "a string of %zu bytes, more than the bound "
					    "of %d bytes", json_string_length(it.v), GS_JR_MAX_STRING);
			free(it.path);
			continue;
		}
		count = json_is_array(it.v) ? json_array_size(it.v)
			: json_is_object(it.v) ? json_object_size(it.v) : 0;
		if (count > GS_JR_MAX_ITEMS) {
			gs_jr_error(r, it.path, "%s of %zu items, more than the bound of %d items",
				    json_is_array(it.v) ? "an array" : "an object", count,
				    GS_JR_MAX_ITEMS);
			free(it.path);
			continue;
		}
		if (n + count > cap) {
			cap = 2 * (n + count);
			st = gs_xrealloc(st, cap * sizeof(*st));
		}
		if (json_is_array(it.v)) {
			json_array_foreach(it.v, i, x) {
				if (json_is_string(x) || json_is_array(x) || json_is_object(x)) {
					st[n].v = x;
					st[n++].path = gs_jr_path_index(it.path, i);
				}
			}
		} else if (json_is_object(it.v)) {
			json_object_foreach(it.v, key, x) {
				if (strlen(key) > GS_JR_MAX_STRING) {
					gs_jr_error(r, it.path, "a key of %zu bytes, more than the bound "
						    "of %d bytes", strlen(key), GS_JR_MAX_STRING);
					break;
				}
				if (json_is_string(x) || json_is_array(x) || json_is_object(x)) {
					st[n].v = x;
					st[n++].path = gs_jr_path_key(it.path, key);
				}
			}
		}
		free(it.path);
	}
	free(st);
	return r->errors > before ? -1 : 0;
}

json_t *gs_jr_load_path(const char *path, size_t flags, json_error_t *e)
{
	size_t len = 0;
	gs_error why = GS_ERROR_INIT;
	char *text = gs_infile_read(path, GS_FILE_MAX_BYTES, &len, &why);
	json_t *root;

	if (!text) {
		int saved = errno;
		e->line = -1;
		e->column = -1;
		e->position = 0;
		snprintf(e->source, sizeof(e->source), "%s", "<path>");
		snprintf(e->text, sizeof(e->text), "%s", gs_error_message(&why));
		gs_error_release(&why);
		errno = saved;
		return NULL;
	}
	root = json_loadb(text, len, flags, e);
	free(text);
	return root;
}

char *gs_jr_read(gs_jr *r, size_t *len)
{
	gs_error why = GS_ERROR_INIT;
	char *text = NULL;
	int fd;

	/* A regular file within the size bound, before any byte is read
	 * (a FIFO would hang the read, a huge file cost memory and time);
	 * read at once, then parsed from memory (jansson's stream reader
	 * costs a call per byte). */
	*len = 0;
	fd = gs_infile_open_regular(r->file, GS_INPUT_MAX_BYTES, &why);
	if (fd >= 0)
		text = gs_infile_read_fd(fd, GS_INPUT_MAX_BYTES, len, &why);
	if (!text) {
		gs_diag_add(r->diag, r->file, 0, 0, NULL, "%s", gs_error_message(&why));
		gs_error_release(&why);
		r->errors++;
	}
	return text;
}

json_t *gs_jr_load(gs_jr *r)
{
	json_error_t err;
	json_t *root;
	char *own = NULL;
	const char *text = r->text;
	size_t len = r->len;

	if (!text) {
		text = own = gs_jr_read(r, &len);
		if (!text)
			return NULL;
	}
	if (r->on_bytes)
		r->on_bytes(r->on_bytes_arg, text, len);
	/* Without JSON_DECODE_ANY the top level must be an object or array;
	 * without JSON_DISABLE_EOF_CHECK trailing text is an error. */
	root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &err);
	free(own);
	if (!root) {
		gs_diag_add(r->diag, r->file, err.line > 0 ? err.line : 0,
			    err.line > 0 && err.column > 0 ? err.column : 0, NULL,
			    "invalid JSON: %s%s", err.text, S_csv_name(r->file)
			    ? " (a CSV price list is not read here: import it into a catalog "
			      "with gpusheet catalog import --from skypilot FILE.csv ...)" : "");
		r->errors++;
		return NULL;
	}
	if (!json_is_object(root)) {
		char *found = gs_jr_describe(root);
		gs_jr_error(r, "$", "expected an object, found %s", found);
		free(found);
		json_decref(root);
		return NULL;
	}
	if (S_check_bounds(r, root) != 0) {
		json_decref(root);
		return NULL;
	}
	return root;
}

/* ---- text of paths and values ---- */

/* A JSON string literal; at most `max` characters of s (0: all), then "...". */
static void S_put_quoted(gs_buf *b, const char *s, size_t max)
{
	size_t chars = 0;
	const unsigned char *p;

	gs_buf_puts(b, "\"");
	for (p = (const unsigned char *)s; *p; p++) {
		char esc[8];
		/* count characters, not UTF-8 continuation bytes */
		if ((*p & 0xC0) != 0x80) {
			if (max && chars == max) {
				gs_buf_puts(b, "...");
				break;
			}
			chars++;
		}
		if (*p == '"' || *p == '\\') {
			esc[0] = '\\';
			esc[1] = (char)*p;
			gs_buf_put(b, esc, 2);
		} else if (*p < 0x20 || *p == 0x7F) {
			snprintf(esc, sizeof(esc), "\\u%04x", *p);
			gs_buf_puts(b, esc);
		} else {
			gs_buf_put(b, (const char *)p, 1);
		}
	}
	gs_buf_puts(b, "\"");
}

static int S_is_identifier(const char *s)
{
	const char *p;

	if (!*s || !((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_'))
		return 0;
	for (p = s; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '_'))
			return 0;
	return 1;
}

char *gs_jr_path_key(const char *parent, const char *key)
{
	gs_buf b = GS_BUF_INIT;

	gs_buf_puts(&b, parent ? parent : "$");
	if (S_is_identifier(key)) {
		gs_buf_puts(&b, ".");
		gs_buf_puts(&b, key);
	} else {
		/* keys with dots, spaces or quotes would make a dotted path ambiguous */
		gs_buf_puts(&b, "[");
		S_put_quoted(&b, key, 0);
		gs_buf_puts(&b, "]");
	}
	return gs_buf_detach(&b, NULL);
}

char *gs_jr_path_index(const char *parent, size_t index)
{
	char num[32];
	gs_buf b = GS_BUF_INIT;

	snprintf(num, sizeof(num), "[%zu]", index);
	gs_buf_puts(&b, parent ? parent : "$");
	gs_buf_puts(&b, num);
	return gs_buf_detach(&b, NULL);
}

char *gs_jr_describe(json_t *v)
{
	gs_buf b = GS_BUF_INIT;
	char num[64];

	switch (json_typeof(v)) {
	case JSON_OBJECT:
		gs_buf_puts(&b, "an object");
		break;
	case JSON_ARRAY:
		gs_buf_puts(&b, "an array");
		break;
	case JSON_STRING:
		S_put_quoted(&b, json_string_value(v), S_DESCRIBE_MAX);
		break;
	case JSON_INTEGER:
		snprintf(num, sizeof(num), "%" JSON_INTEGER_FORMAT, json_integer_value(v));
		gs_buf_puts(&b, num);
		break;
	case JSON_REAL:
		/* say "real" so that 7e9 is not mistaken for an integer */
		snprintf(num, sizeof(num), "%.17g", json_real_value(v));
		gs_buf_puts(&b, "the real number ");
		gs_buf_puts(&b, num);
		if (!strpbrk(num, ".eEn"))
			gs_buf_puts(&b, ".0");
		break;
	case JSON_TRUE:
		gs_buf_puts(&b, "true");
		break;
	case JSON_FALSE:
		gs_buf_puts(&b, "false");
		break;
	case JSON_NULL:
		gs_buf_puts(&b, "null");
		break;
	}
	if (!b.len)
		gs_buf_puts(&b, "a value");
	return gs_buf_detach(&b, NULL);
}

static void S_wrong(gs_jr *r, const char *path, const char *expected, json_t *v)
{
	char *found = gs_jr_describe(v);

	gs_jr_error(r, path, "expected %s, found %s", expected, found);
	free(found);
}

/* ---- lexical checks ---- */

static int S_digits(const char *s, size_t n, unsigned *out)
{
	unsigned v = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return 0;
		v = v * 10 + (unsigned)(s[i] - '0');
	}
	*out = v;
	return 1;
}

static int S_days_in_month(unsigned y, unsigned m)
{
	static const int days[12] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };

	if (m == 2 && ((y % 4 == 0 && y % 100 != 0) || y % 400 == 0))
		return 29;
	return days[m - 1];
}

static int S_date_prefix(const char *s)
{
	unsigned y, m, d;

	if (strlen(s) < 10 || s[4] != '-' || s[7] != '-')
		return 0;
	if (!S_digits(s, 4, &y) || !S_digits(s + 5, 2, &m) || !S_digits(s + 8, 2, &d))
		return 0;
	if (y < 1 || m < 1 || m > 12 || d < 1 || (int)d > S_days_in_month(y, m))
		return 0;
	return 1;
}

int gs_jr_is_date(const char *s)
{
	return strlen(s) == 10 && S_date_prefix(s);
}

int gs_jr_is_datetime(const char *s)
{
	unsigned h, mi, se, oh, om;
	const char *p;

	if (!S_date_prefix(s) || s[10] != 'T')
		return 0;
	p = s + 11;
	if (strlen(p) < 8 || p[2] != ':' || p[5] != ':')
		return 0;
	if (!S_digits(p, 2, &h) || !S_digits(p + 3, 2, &mi) || !S_digits(p + 6, 2, &se))
		return 0;
	if (h > 23 || mi > 59 || se > 60)   /* 60: leap second */
		return 0;
	p += 8;
	if (*p == '.') {
		p++;
		if (*p < '0' || *p > '9')
			return 0;
		while (*p >= '0' && *p <= '9')
			p++;
	}
	if (p[0] == 'Z' && p[1] == '\0')
		return 1;
	if ((p[0] != '+' && p[0] != '-') || strlen(p) != 6 || p[3] != ':')
		return 0;
	if (!S_digits(p + 1, 2, &oh) || !S_digits(p + 4, 2, &om))
		return 0;
	return oh <= 23 && om <= 59;
}

int gs_jr_is_id(const char *s)
{
	size_t i, n = strlen(s);

	if (n < 1 || n > 64)
		return 0;
	for (i = 0; i < n; i++) {
		char c = s[i];
		int ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
		if (i > 0)
			ok = ok || c == '.' || c == '_' || c == '-';
		if (!ok)
			return 0;
	}
	return 1;
}

int gs_jr_is_decimal(const char *s, unsigned *decimals)
{
	const char *p = s;
	unsigned n = 0;

	if (*p == '0') {
		p++;
	} else if (*p >= '1' && *p <= '9') {
		while (*p >= '0' && *p <= '9')
			p++;
	} else {
		return 0;
	}
	if (*p == '.') {
		p++;
		while (*p >= '0' && *p <= '9') {
			p++;
			n++;
		}
		if (n == 0)
			return 0;
	}
	if (*p)
		return 0;
	if (decimals)
		*decimals = n;
	return 1;
}

/* ---- value checks ---- */

int gs_jr_v_object(gs_jr *r, json_t *v, const char *path, const char *const *allowed)
{
	const char *key;
	json_t *val;

	if (!json_is_object(v)) {
		S_wrong(r, path, "an object", v);
		return -1;
	}
	if (!allowed)
		return 0;
	json_object_foreach(v, key, val) {
		const char *const *a;
		int known = 0;
		for (a = allowed; *a; a++)
			if (strcmp(*a, key) == 0)
				known = 1;
		if (!known) {
			gs_buf b = GS_BUF_INIT;
			char *kp = gs_jr_path_key(path, key);
			const char *note, *best = gs_suggest(key, allowed, &note);
			gs_buf_puts(&b, "unknown key ");
			S_put_quoted(&b, key, S_DESCRIBE_MAX);
			if (best) {
				gs_buf_puts(&b, " (did you mean ");
				S_put_quoted(&b, best, S_DESCRIBE_MAX);
				gs_buf_puts(&b, note ? "? " : "?)");
				if (note) {
					gs_buf_puts(&b, note);
					gs_buf_puts(&b, ")");
				}
			}
			gs_jr_error(r, kp, "%s", b.data);
			gs_buf_release(&b);
			free(kp);
		}
	}
	return 0;
}

static int S_v_array(gs_jr *r, json_t *v, const char *path)
{
	if (!json_is_array(v)) {
		S_wrong(r, path, "an array", v);
		return -1;
	}
	return 0;
}

int gs_jr_v_string(gs_jr *r, json_t *v, const char *path, char **out)
{
	if (!json_is_string(v)) {
		S_wrong(r, path, "a string", v);
		return -1;
	}
	if (json_string_length(v) == 0) {
		S_wrong(r, path, "a non-empty string", v);
		return -1;
	}
	/* jansson refuses \u0000 without JSON_ALLOW_NUL, so the C string is whole */
	*out = gs_jr_strdup(json_string_value(v));
	return 0;
}

int gs_jr_v_uint(gs_jr *r, json_t *v, const char *path,
		 uint64_t min, uint64_t max, uint64_t *out)
{
	char expected[96];
	json_int_t i;

	if (max > S_INT_MAX)
		max = S_INT_MAX;
	if (min == 1 && max == S_INT_MAX)
		snprintf(expected, sizeof(expected), "a positive integer");
	else if (min == 0 && max == S_INT_MAX)
		snprintf(expected, sizeof(expected), "an integer >= 0");
	else
		snprintf(expected, sizeof(expected), "an integer from %" PRIu64 " to %" PRIu64,
			 min, max);
	if (!json_is_integer(v)) {
		S_wrong(r, path, expected, v);
		return -1;
	}
	i = json_integer_value(v);
	if (i < 0 || (uint64_t)i < min || (uint64_t)i > max) {
		S_wrong(r, path, expected, v);
		return -1;
	}
	*out = (uint64_t)i;
	return 0;
}

static int S_v_bool(gs_jr *r, json_t *v, const char *path, int *out)
{
	if (!json_is_boolean(v)) {
		S_wrong(r, path, "a boolean", v);
		return -1;
	}
	*out = json_is_true(v) ? 1 : 0;
	return 0;
}

static int S_v_enum(gs_jr *r, json_t *v, const char *path,
		 const char *const *names, int *out)
{
	gs_buf b = GS_BUF_INIT;
	const char *const *n;

	if (json_is_string(v)) {
		for (n = names; *n; n++) {
			if (strcmp(*n, json_string_value(v)) == 0) {
				*out = (int)(n - names);
				return 0;
			}
		}
	}
	if (names[0] && names[1])
		gs_buf_puts(&b, "one of ");
	for (n = names; *n; n++) {
		if (n != names)
			gs_buf_puts(&b, ", ");
		S_put_quoted(&b, *n, 0);
	}
	S_wrong(r, path, b.data, v);
	gs_buf_release(&b);
	return -1;
}

/* 10^9: the scale of gs_qty_parse_decimal for sizes */
#define S_E9 UINT64_C(1000000000)

static int S_v_size(gs_jr *r, json_t *v, const char *path,
		 uint64_t *bytes, char **amount, char **unit)
{
	static const char *const keys[] = { "amount", "unit", NULL };
	static const char *const units[] = { "GiB", "GB", "bytes", NULL };
	static const uint64_t mult[] = { UINT64_C(1073741824), S_E9, 1 };
	char *am = NULL, *ap = NULL;
	unsigned decimals = 0;
	int u = -1, rc = -1, ok;
	size_t before = r->errors;
	uint64_t q = 0;

	if (!json_is_object(v)) {
		S_wrong(r, path, "a size {\"amount\": \"...\", \"unit\": \"GiB|GB|bytes\"}", v);
		return -1;
	}
	gs_jr_v_object(r, v, path, keys);
	gs_jr_string(r, v, path, "amount", GS_JR_REQUIRED, &am);
	gs_jr_enum(r, v, path, "unit", GS_JR_REQUIRED, units, &u);
	if (r->errors != before || !am || u < 0)
		goto out;
	ap = gs_jr_path_key(path, "amount");
	if (!gs_jr_is_decimal(am, &decimals)) {
		gs_jr_error(r, ap, "expected a decimal amount such as \"6\" or \"1.5\" "
			    "(no sign, no exponent), found \"%s\"", am);
		goto out;
	}
	if (decimals > 9) {
		gs_jr_error(r, ap, "at most 9 decimals, found \"%s\"", am);
		goto out;
	}
	if (u == 2) {
		/* bytes: the amount itself, which may exceed what a 10^9 scale holds */
		char *dot = strchr(am, '.');
		char *intpart = gs_jr_strdup(am);
		if (dot && strspn(dot + 1, "0") != strlen(dot + 1)) {
			free(intpart);
			gs_jr_error(r, path, "not a whole number of bytes: %s bytes", am);
			goto out;
		}
		if (dot)
			intpart[dot - am] = '\0';
		ok = gs_qty_parse_u64(intpart, &q) == 0;
		free(intpart);
		if (!ok) {
			gs_jr_error(r, path, "too large: %s bytes does not fit in 64 bits", am);
			goto out;
		}
	} else {
		uint64_t scaled;
		unsigned __int128 p;
		if (gs_qty_parse_decimal(am, 9, &scaled) != 0) {
			gs_jr_error(r, path, "too large: %s %s does not fit in 64 bits", am, units[u]);
			goto out;
		}
		p = (unsigned __int128)scaled * mult[u];
		if (p % S_E9 != 0) {
			gs_jr_error(r, path, "not a whole number of bytes: %s %s", am, units[u]);
			goto out;
		}
		p /= S_E9;
		if (p > UINT64_MAX) {
			gs_jr_error(r, path, "too large: %s %s does not fit in 64 bits", am, units[u]);
			goto out;
		}
		q = (uint64_t)p;
	}
	if (q == 0) {
		gs_jr_error(r, path, "expected a size > 0, found %s %s", am, units[u]);
		goto out;
	}
	*bytes = q;
	if (amount) {
		*amount = am;
		am = NULL;
	}
	if (unit)
		*unit = gs_jr_strdup(units[u]);
	rc = 0;
out:
	free(am);
	free(ap);
	return rc;
}

/* ---- members ---- */

json_t *gs_jr_member(gs_jr *r, json_t *obj, const char *path,
		     const char *key, int mode, char **child)
{
	json_t *v;

	*child = NULL;
	/* a parent that was missing or wrong is already reported */
	if (!obj || !json_is_object(obj))
		return NULL;
	v = json_object_get(obj, key);
	if (!v) {
		if (mode == GS_JR_REQUIRED)
			gs_jr_error(r, path, "missing required key \"%s\"", key);
		return NULL;
	}
	if (json_is_null(v) && mode == GS_JR_NULLABLE)
		return NULL;
	*child = gs_jr_path_key(path, key);
	return v;
}

/* Member accessors: look the key up, then check the value at its path. */
#define S_MEMBER(call)                                                  \
	do {                                                            \
		char *cp;                                               \
		int rc_;                                                \
		json_t *mv = gs_jr_member(r, obj, path, key, mode, &cp); \
		if (!mv)                                                \
			return 0;                                       \
		rc_ = (call);                                           \
		free(cp);                                               \
		return rc_ == 0 ? 1 : -1;                               \
	} while (0)

int gs_jr_object(gs_jr *r, json_t *obj, const char *path, const char *key,
		 int mode, const char *const *allowed, json_t **out, char **child)
{
	char *cp;
	json_t *mv = gs_jr_member(r, obj, path, key, mode, &cp);

	*out = NULL;
	*child = NULL;
	if (!mv)
		return 0;
	if (gs_jr_v_object(r, mv, cp, allowed) != 0) {
		free(cp);
		return -1;
	}
	*out = mv;
	*child = cp;
	return 1;
}

int gs_jr_array(gs_jr *r, json_t *obj, const char *path, const char *key,
		int mode, json_t **out, char **child)
{
	char *cp;
	json_t *mv = gs_jr_member(r, obj, path, key, mode, &cp);

	*out = NULL;
	*child = NULL;
	if (!mv)
		return 0;
	if (S_v_array(r, mv, cp) != 0) {
		free(cp);
		return -1;
	}
	*out = mv;
	*child = cp;
	return 1;
}

int gs_jr_string(gs_jr *r, json_t *obj, const char *path, const char *key,
		 int mode, char **out)
{
	S_MEMBER(gs_jr_v_string(r, mv, cp, out));
}

int gs_jr_uint(gs_jr *r, json_t *obj, const char *path, const char *key,
	       int mode, uint64_t min, uint64_t max, uint64_t *out)
{
	S_MEMBER(gs_jr_v_uint(r, mv, cp, min, max, out));
}

int gs_jr_bool(gs_jr *r, json_t *obj, const char *path, const char *key,
	       int mode, int *out)
{
	S_MEMBER(S_v_bool(r, mv, cp, out));
}

int gs_jr_enum(gs_jr *r, json_t *obj, const char *path, const char *key,
	       int mode, const char *const *names, int *out)
{
	S_MEMBER(S_v_enum(r, mv, cp, names, out));
}

int gs_jr_size(gs_jr *r, json_t *obj, const char *path, const char *key,
	       int mode, uint64_t *bytes, char **amount, char **unit)
{
	S_MEMBER(S_v_size(r, mv, cp, bytes, amount, unit));
}

static int S_v_date(gs_jr *r, json_t *v, const char *path, char **out)
{
	char *s = NULL;

	if (gs_jr_v_string(r, v, path, &s) != 0)
		return -1;
	if (!gs_jr_is_date(s)) {
		S_wrong(r, path, "a calendar date YYYY-MM-DD", v);
		free(s);
		return -1;
	}
	*out = s;
	return 0;
}

int gs_jr_date(gs_jr *r, json_t *obj, const char *path, const char *key,
	       int mode, char **out)
{
	S_MEMBER(S_v_date(r, mv, cp, out));
}
