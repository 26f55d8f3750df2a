/*
 * import: SkyPilot's vms.csv -> our catalog XML, written with libxml2's
 * xmlTextWriter (escaping by construction).
 *
 * Three steps: the header names the columns; every row is checked and
 * grouped by instance type (rows of an instance type are its regions);
 * the offers are written sorted by id, with a one-paragraph report.
 */
#include "import.h"
#include "csv.h"
#include "gpuname.h"
#include "quantity.h"
#include "util.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/xmlwriter.h>

/* Errors beyond this many are summed up in one line. */
#define S_MAX_ERRORS 20
/* Instance types (offers) in one file; names listed in the report. */
#define S_MAX_OFFERS 10000
#define S_MAX_LISTED 40
/* Depth and node count of a GpuInfo literal. */
#define S_PY_MAX_DEPTH 8
#define S_PY_MAX_NODES 1024

/*** GpuInfo: a Python literal ***/

typedef struct S_py S_py;
struct S_py {
	char kind;        /* 'd' dict, 'l' list, 's' string, 'n' number, 'c' True/False/None */
	char *text;       /* 's', 'n', 'c' */
	char **keys;      /* 'd' */
	S_py **kids;      /* 'd', 'l' */
	size_t n;
};

typedef struct {
	const char *p, *end;
	int nodes;
	const char *err;  /* first error, static text */
	int single, dbl;  /* strings quoted with ' and with " */
	int pyconst, jsonconst;  /* None/True/False; null/true/false */
} S_pyparser;

static void S_py_free(S_py *v)
{
	size_t i;

	if (!v)
		return;
	for (i = 0; i < v->n; i++) {
		if (v->keys)
			free(v->keys[i]);
		S_py_free(v->kids[i]);
	}
	free(v->keys);
	free(v->kids);
	free(v->text);
	free(v);
}

static void S_py_ws(S_pyparser *ps)
{
	while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\t'))
		ps->p++;
}

static S_py *S_py_value(S_pyparser *ps, int depth);

static char *S_py_string(S_pyparser *ps)
{
	char q = *ps->p++, *out = gs_xmalloc((size_t)(ps->end - ps->p) + 1);
	size_t n = 0;

	if (q == '\'')
		ps->single++;
	else
		ps->dbl++;

	while (ps->p < ps->end && *ps->p != q) {
		char ch = *ps->p++;
		if (ch == '\\') {
			if (ps->p >= ps->end)
				break;
			ch = *ps->p++;
			if (ch == 'n')
				ch = '\n';
			else if (ch == 't')
				ch = '\t';
			else if (ch != '\\' && ch != '\'' && ch != '"') {
				ps->err = "unsupported escape in a string";
				free(out);
				return NULL;
			}
		}
		out[n++] = ch;
	}
	if (ps->p >= ps->end) {
		ps->err = "string not closed";
		free(out);
		return NULL;
	}
	ps->p++;
	out[n] = '\0';
	return out;
}

static S_py *S_py_new(S_pyparser *ps, char kind)
{
	S_py *v;

	if (++ps->nodes > S_PY_MAX_NODES) {
		ps->err = "too many values (the limit is 1024)";
		return NULL;
	}
	v = gs_xcalloc(1, sizeof(*v));
	v->kind = kind;
	return v;
}

static void S_py_push(S_py *v, char *key, S_py *kid)
{
	v->kids = gs_xrealloc(v->kids, (v->n + 1) * sizeof(*v->kids));
	if (v->kind == 'd')
		v->keys = gs_xrealloc(v->keys, (v->n + 1) * sizeof(*v->keys));
	if (v->keys)
		v->keys[v->n] = key;
	v->kids[v->n++] = kid;
}

/* dict or list: open bracket already consumed */
static S_py *S_py_container(S_pyparser *ps, char kind, int depth)
{
	char close = kind == 'd' ? '}' : ']';
	S_py *v = S_py_new(ps, kind);

	if (!v)
		return NULL;
	S_py_ws(ps);
	if (ps->p < ps->end && *ps->p == close) {
		ps->p++;
		return v;
	}
	for (;;) {
		char *key = NULL;
		S_py *kid;
		size_t i;

		S_py_ws(ps);
		if (kind == 'd') {
			if (ps->p >= ps->end || (*ps->p != '\'' && *ps->p != '"')) {
				ps->err = "expected a quoted key in a dict";
				break;
			}
			if (!(key = S_py_string(ps)))
				break;
			for (i = 0; i < v->n; i++)
				if (strcmp(v->keys[i], key) == 0)
					ps->err = "duplicate key in a dict";
			S_py_ws(ps);
			if (ps->err || ps->p >= ps->end || *ps->p != ':') {
				if (!ps->err)
					ps->err = "expected ':' after a key";
				free(key);
				break;
			}
			ps->p++;
		}
		kid = S_py_value(ps, depth + 1);
		if (!kid) {
			free(key);
			break;
		}
		S_py_push(v, key, kid);
		S_py_ws(ps);
		if (ps->p < ps->end && *ps->p == ',') {
			ps->p++;
			S_py_ws(ps);
			if (ps->p < ps->end && *ps->p == close) {
				ps->p++;
				return v;
			}
			continue;
		}
		if (ps->p < ps->end && *ps->p == close) {
			ps->p++;
			return v;
		}
		ps->err = kind == 'd' ? "expected ',' or '}' in a dict" : "expected ',' or ']' in a list";
		break;
	}
	S_py_free(v);
	return NULL;
}

static S_py *S_py_value(S_pyparser *ps, int depth)
{
	S_py *v;
	const char *start;

	if (depth > S_PY_MAX_DEPTH) {
		ps->err = "nested deeper than 8 levels";
		return NULL;
	}
	S_py_ws(ps);
	if (ps->p >= ps->end) {
		ps->err = "unexpected end";
		return NULL;
	}
	if (*ps->p == '{' || *ps->p == '[') {
		char kind = *ps->p == '{' ? 'd' : 'l';
		ps->p++;
		return S_py_container(ps, kind, depth);
	}
	if (*ps->p == '\'' || *ps->p == '"') {
		char *s = S_py_string(ps);
		if (!s)
			return NULL;
		v = S_py_new(ps, 's');
		if (!v) {
			free(s);
			return NULL;
		}
		v->text = s;
		return v;
	}
	start = ps->p;
	if (*ps->p == '-' || *ps->p == '+' || (*ps->p >= '0' && *ps->p <= '9')) {
		ps->p++;
		while (ps->p < ps->end && ((*ps->p >= '0' && *ps->p <= '9') || *ps->p == '.' ||
					   *ps->p == 'e' || *ps->p == 'E' || *ps->p == '-' || *ps->p == '+'))
			ps->p++;
		v = S_py_new(ps, 'n');
	} else {
		while (ps->p < ps->end && ((*ps->p >= 'A' && *ps->p <= 'Z') || (*ps->p >= 'a' && *ps->p <= 'z')))
			ps->p++;
		if ((ps->p - start == 4 && (strncmp(start, "True", 4) == 0 || strncmp(start, "None", 4) == 0)) ||
		    (ps->p - start == 5 && strncmp(start, "False", 5) == 0)) {
			ps->pyconst++;
		} else if ((ps->p - start == 4 && (strncmp(start, "true", 4) == 0 || strncmp(start, "null", 4) == 0)) ||
			   (ps->p - start == 5 && strncmp(start, "false", 5) == 0)) {
			ps->jsonconst++;   /* JSON's words, as some files write them inside a Python literal */
		} else {
			ps->err = "expected a dict, list, string, number, True, False, None, true, false or null";
			return NULL;
		}
		v = S_py_new(ps, 'c');
	}
	if (!v)
		return NULL;
	v->text = gs_xmalloc((size_t)(ps->p - start) + 1);
	memcpy(v->text, start, (size_t)(ps->p - start));
	v->text[ps->p - start] = '\0';
	return v;
}

static const S_py *S_py_get(const S_py *v, const char *key)
{
	size_t i;

	if (!v || v->kind != 'd')
		return NULL;
	for (i = 0; i < v->n; i++)
		if (strcmp(v->keys[i], key) == 0)
			return v->kids[i];
	return NULL;
}

/*** numbers ***/

/* "8", "8.0", "8.00": a whole number; -2 when negative, -1 when not a number. */
static int S_whole(const char *s, uint64_t *out)
{
	char buf[32];
	const char *dot;
	size_t n;

	if (s[0] == '-' && s[1])
		return -2;
	dot = strchr(s, '.');
	n = dot ? (size_t)(dot - s) : strlen(s);
	if (n == 0 || n >= sizeof(buf))
		return -1;
	if (dot) {
		const char *z;
		if (!dot[1])
			return -1;
		for (z = dot + 1; *z; z++)
			if (*z != '0')
				return -1;
	}
	memcpy(buf, s, n);
	buf[n] = '\0';
	return gs_qty_parse_u64(buf, out) == 0 ? 0 : -1;
}

/* A price in millionths of the currency: up to 6 decimals, exactly. */
static int S_price(const char *s, uint64_t *micro)
{
	char buf[40];
	size_t n = strlen(s);

	if (s[0] == '-' && s[1])
		return -2;
	if (n == 0 || n >= sizeof(buf))
		return -1;
	memcpy(buf, s, n + 1);
	if (strchr(buf, '.'))
		while (n > 0 && buf[n - 1] == '0')
			buf[--n] = '\0';
	if (n > 0 && buf[n - 1] == '.')
		buf[--n] = '\0';
	if (gs_qty_parse_decimal(buf, 6, micro) != 0)
		return -1;
	return *micro > 0 && *micro <= INT64_MAX ? 0 : -1;
}

/*
 * A price written with more than six decimals (a binary float printed in
 * full: Cudo's 0.36979999999999996), rounded half up to the millionth:
 * 0 with *micro > 0, else -1 (then no plan is made).
 */
static int S_price_rounded(const char *s, uint64_t *micro)
{
	char buf[40];
	const char *dot = strchr(s, '.');
	size_t whole;
	int up;

	if (!dot || strlen(dot + 1) <= 6 || (size_t)(dot - s) + 8 >= sizeof(buf))
		return -1;
	whole = (size_t)(dot - s);
	memcpy(buf, s, whole + 7);   /* the whole part, the point, six decimals */
	buf[whole + 7] = '\0';
	up = dot[7] >= '5';
	if (gs_qty_parse_decimal(buf, 6, micro) != 0 || *micro > INT64_MAX - 1)
		return -1;
	*micro += (uint64_t)up;
	return *micro > 0 ? 0 : -1;
}

/*** rows and offers ***/

enum { C_TYPE, C_ACCEL, C_COUNT, C_PRICE, C_REGION, C_SPOT, C_GPUINFO, C_ZONE, C_RAM, C_N };
static const char *const S_cols[C_N] = {
	"InstanceType", "AcceleratorName", "AcceleratorCount", "Price", "Region",
	"SpotPrice", "GpuInfo", "AvailabilityZone", "MemoryGiB"
};
#define S_REQUIRED 5   /* the first five */

/*** a string map, so that a file of many rows is read in linear time ***/

typedef struct {
	char **keys;
	size_t *vals;
	size_t cap, n;              /* cap: 0 or a power of two */
} S_map;

static size_t S_hash(const char *s)
{
	uint64_t h = UINT64_C(14695981039346656037);

	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= UINT64_C(1099511628211);
	}
	return (size_t)h;
}

/* The slot of key: its own, or the empty one where it would go. */
static size_t S_map_slot(const S_map *m, const char *key)
{
	size_t i = S_hash(key) & (m->cap - 1);

	while (m->keys[i] && strcmp(m->keys[i], key) != 0)
		i = (i + 1) & (m->cap - 1);
	return i;
}

static const size_t *S_map_get(const S_map *m, const char *key)
{
	size_t i;

	if (!m->cap)
		return NULL;
	i = S_map_slot(m, key);
	return m->keys[i] ? &m->vals[i] : NULL;
}

/* Adds key (taken over) -> val; key must not be there yet. */
static void S_map_put(S_map *m, char *key, size_t val)
{
	size_t i;

	if (2 * (m->n + 1) > m->cap) {
		S_map old = *m;
		m->cap = old.cap ? old.cap * 2 : 64;
		m->keys = gs_xcalloc(m->cap, sizeof(*m->keys));
		m->vals = gs_xcalloc(m->cap, sizeof(*m->vals));
		m->n = 0;
		for (i = 0; i < old.cap; i++)
			if (old.keys[i])
				S_map_put(m, old.keys[i], old.vals[i]);
		free(old.keys);
		free(old.vals);
	}
	i = S_map_slot(m, key);
	m->keys[i] = key;
	m->vals[i] = val;
	m->n++;
}

static void S_map_release(S_map *m)
{
	size_t i;

	for (i = 0; i < m->cap; i++)
		free(m->keys[i]);
	free(m->keys);
	free(m->vals);
	memset(m, 0, sizeof(*m));
}

typedef struct {
	int line;
	char *region, *zone;        /* zone "" when none */
	uint64_t price, spot;       /* hundredths, 0: none */
	char *odd_price, *odd_spot; /* a price in more than 6 decimals (rounded in the plan), as written; NULL: none */
} S_row;

typedef struct {
	char *type;
	char *id;
	char *accel;
	uint64_t cards;
	uint64_t bytes;             /* GPU memory per card the file states, in bytes; 0: none */
	char *how;                  /* where in the row that figure comes from, or NULL */
	char *why;                  /* why the file gives no usable figure, or NULL */
	uint64_t ram;               /* MemoryGiB x 2^30 bytes, 0: not given (host RAM in version 8) */
	int ram_conflict;           /* a row with another MemoryGiB (line), 0: none */
	int line;                   /* first row */
	S_row *rows;
	size_t nrows, rows_alloc;
} S_offer;

typedef struct {
	const gs_import_opts *opt;
	gs_diag *d;
	size_t nerrors;
	S_offer *offers;
	size_t noffers, offers_alloc;
	S_map by_type;              /* InstanceType -> index in offers */
	S_map by_place;             /* type, region, zone -> index in the offer's rows */
	size_t nrows, ncpu, nduplicates, nspot_above;
	gs_strvec cpu_types;
	int rule;                   /* S_RULE_*: how this provider's GpuInfo gives memory */
	int has_gpuinfo, has_ram;   /* the header has these columns */
	int first_bare, first_dict; /* first line of a GPU row whose GpuInfo is a bare name / a dict */
	int single, dbl, pyconst, jsonconst;   /* GpuInfo dialect, over the file */
	size_t nodd;                /* prices in more than 6 decimals */
	int first_odd;
	char *notes;                /* messages for stderr, one per line */
} S_import;

/* How a provider's GpuInfo gives the memory (docs/formats.md, 2.3). */
enum {
	S_RULE_STANDARD = 0,        /* SizeInMiB per card, TotalGpuMemoryInMiB = SizeInMiB x count */
	S_RULE_TOTAL_PER_CARD = 1,  /* Lambda: TotalGpuMemoryInMiB is per card too */
	S_RULE_SIZE_PER_LOT = 2     /* Prime Intellect: SizeInMiB per lot, TotalGpuMemoryInMiB counts it twice */
};

static void S_note(S_import *im, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void S_note(S_import *im, int line, const char *fmt, ...)
{
	va_list ap;
	char *msg, *n;

	va_start(ap, fmt);
	msg = gs_xvasprintf(fmt, ap);
	va_end(ap);
	if (line)
		n = gs_xasprintf("%s%s:%d: note: %s\n", im->notes ? im->notes : "", im->opt->file, line, msg);
	else
		n = gs_xasprintf("%s%s: note: %s\n", im->notes ? im->notes : "", im->opt->file, msg);
	free(im->notes);
	im->notes = n;
	free(msg);
}

/* The provider's rule, from its name: letters and digits, lower-cased. */
static int S_rule_of(const char *provider)
{
	char key[64];
	size_t n = 0;

	for (; *provider && n + 1 < sizeof(key); provider++) {
		char ch = *provider;
		if (ch >= 'A' && ch <= 'Z')
			ch = (char)(ch - 'A' + 'a');
		if ((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9'))
			key[n++] = ch;
	}
	key[n] = '\0';
	if (strcmp(key, "lambda") == 0)
		return S_RULE_TOTAL_PER_CARD;
	if (strcmp(key, "primeintellect") == 0)
		return S_RULE_SIZE_PER_LOT;
	return S_RULE_STANDARD;
}

static void S_err(S_import *im, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void S_err(S_import *im, int line, const char *fmt, ...)
{
	va_list ap;
	char *msg;

	im->nerrors++;
	if (im->nerrors > S_MAX_ERRORS)
		return;
	va_start(ap, fmt);
	msg = gs_xvasprintf(fmt, ap);
	va_end(ap);
	gs_diag_add(im->d, im->opt->file, line, 0, NULL, "%s", msg);
	free(msg);
}

/* id: lower-case provider and instance type, other characters as '-'. */
static char *S_make_id(const char *provider, const char *type)
{
	char *id = gs_xasprintf("%s-%s", provider, type), *p;

	for (p = id; *p; p++) {
		if (*p >= 'A' && *p <= 'Z')
			*p = (char)(*p - 'A' + 'a');
		else if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') ||
			   *p == '.' || *p == '_' || *p == '-'))
			*p = '-';
	}
	return id;
}

static int S_region_ok(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || *s == '-' || *s == '_' || *s == '.'))
			return 0;
	return 1;
}

typedef struct {
	int form;                   /* 0 empty, 1 a bare name, 2 a dict */
	uint64_t size, total;       /* MemoryInfo.SizeInMiB, TotalGpuMemoryInMiB; 0: not given */
	uint64_t count;             /* Gpus[0].Count; 0: not given */
	int has_count;
} S_info;

/* A positive whole number given as a number or as a string ('8.0'). */
static int S_num(const S_py *v, uint64_t *out)
{
	if (!v || (v->kind != 'n' && v->kind != 's'))
		return -1;
	return S_whole(v->text, out) == 0 ? 0 : -1;
}

/* What GpuInfo says; 0, or -1 after an error. */
static int S_gpuinfo(S_import *im, int line, const char *text, S_info *info)
{
	S_pyparser ps;
	S_py *root;
	const S_py *gpus, *g, *mem, *size, *total, *count;
	int rc = 0;

	memset(info, 0, sizeof(*info));
	if (!*text)
		return 0;
	if (text[0] != '{') {
		/* a bare name: SkyPilot's version 7 layout of some providers */
		info->form = 1;
		return 0;
	}
	info->form = 2;
	memset(&ps, 0, sizeof(ps));
	ps.p = text;
	ps.end = text + strlen(text);
	root = S_py_value(&ps, 0);
	S_py_ws(&ps);
	if (root && ps.p != ps.end)
		ps.err = "text after the dict";
	if (!root || ps.err) {
		S_err(im, line, "column 'GpuInfo': not a Python literal or JSON dict (%s at character %d)",
		      ps.err ? ps.err : "malformed", (int)(ps.p - text) + 1);
		S_py_free(root);
		return -1;
	}
	im->single += ps.single;
	im->dbl += ps.dbl;
	im->pyconst += ps.pyconst;
	im->jsonconst += ps.jsonconst;
	gpus = S_py_get(root, "Gpus");
	total = S_py_get(root, "TotalGpuMemoryInMiB");
	if (total && total->kind != 'c' &&
	    (S_num(total, &info->total) != 0 || info->total == 0 || info->total > (UINT64_MAX >> 20))) {
		S_err(im, line, "column 'GpuInfo': TotalGpuMemoryInMiB must be a positive whole number of MiB, found '%s'",
		      total->text ? total->text : "a container");
		rc = -1;
	}
	if (gpus && gpus->kind == 'l' && gpus->n > 1) {
		S_err(im, line, "column 'GpuInfo': %zu kinds of GPU in one instance type; one is supported",
		      gpus->n);
		rc = -1;
	} else if (gpus && gpus->kind == 'l' && gpus->n == 1) {
		g = gpus->kids[0];
		mem = S_py_get(g, "MemoryInfo");
		size = S_py_get(mem, "SizeInMiB");
		count = S_py_get(g, "Count");
		if (size && size->kind != 'c' &&
		    (S_num(size, &info->size) != 0 || info->size == 0 || info->size > (UINT64_MAX >> 20))) {
			S_err(im, line, "column 'GpuInfo': MemoryInfo.SizeInMiB must be a positive whole number of MiB, found '%s'",
			      size->text ? size->text : "a container");
			info->size = 0;
			rc = -1;
		}
		if (count && count->kind != 'c') {
			if (S_num(count, &info->count) != 0 || info->count == 0) {
				S_err(im, line, "column 'GpuInfo': Gpus[0].Count must be a positive whole number, found '%s'",
				      count->text ? count->text : "a container");
				rc = -1;
			} else {
				info->has_count = 1;
			}
		}
	}
	S_py_free(root);
	return rc;
}

/*
 * The GPU memory per card the row states (docs/formats.md, 2.3), in
 * *bytes with *how; or 0 with *why when the columns do not say it.
 */
static void S_memory_of_row(const S_import *im, const S_info *info, uint64_t cards, uint64_t ram,
			    int has_ramtext, uint64_t *bytes, char **how, char **why)
{
	uint64_t mib = 0;

	*bytes = 0;
	*how = *why = NULL;
	if (info->form == 1) {
		/* version 7, bare name: MemoryGiB is the lot's GPU memory */
		if (!has_ramtext) {
			*why = gs_xstrdup("GpuInfo is a bare name (catalog version 7) and the row has no MemoryGiB");
		} else if (ram % cards) {
			*why = gs_xasprintf("column 'MemoryGiB': the lot's GPU memory of %llu bytes does not divide by %llu cards",
					    (unsigned long long)ram, (unsigned long long)cards);
		} else {
			if ((ram / cards) % (UINT64_C(1) << 20)) {
				*why = gs_xasprintf("column 'MemoryGiB': the lot's GPU memory of %llu bytes / %llu cards is not a whole number of MiB",
						    (unsigned long long)ram, (unsigned long long)cards);
				return;
			}
			*bytes = ram / cards;
			*how = gs_xasprintf("MemoryGiB, the lot's GPU memory in a catalog version 7 file (GpuInfo a bare name), / %llu cards",
					    (unsigned long long)cards);
		}
		return;
	}
	if (info->form != 2)
		return;
	switch (im->rule) {
	case S_RULE_SIZE_PER_LOT:
		if (info->size) {
			if (info->size % cards) {
				*why = gs_xasprintf("column 'GpuInfo': SizeInMiB %llu is per lot in this provider's file and does not divide by %llu cards",
						    (unsigned long long)info->size, (unsigned long long)cards);
				return;
			}
			mib = info->size / cards;
			*how = gs_xasprintf("GpuInfo SizeInMiB %llu, per lot in this provider's file, / %llu cards",
					    (unsigned long long)info->size, (unsigned long long)cards);
		} else if (info->total) {
			if (info->total % (cards * cards)) {
				*why = gs_xasprintf("column 'GpuInfo': TotalGpuMemoryInMiB %llu counts the lot twice in this provider's file and does not divide by %llu x %llu",
						    (unsigned long long)info->total, (unsigned long long)cards,
						    (unsigned long long)cards);
				return;
			}
			mib = info->total / cards / cards;
			*how = gs_xasprintf("GpuInfo TotalGpuMemoryInMiB %llu, the lot counted twice in this provider's file, / %llu / %llu cards",
					    (unsigned long long)info->total, (unsigned long long)cards,
					    (unsigned long long)cards);
		}
		break;
	case S_RULE_TOTAL_PER_CARD:
		if (info->size || info->total) {
			mib = info->size ? info->size : info->total;
			*how = gs_xasprintf("GpuInfo %s %llu, per card in this provider's file",
					    info->size ? "SizeInMiB" : "TotalGpuMemoryInMiB", (unsigned long long)mib);
		}
		break;
	default:
		if (info->size && info->total && info->total != info->size * cards) {
			if (info->total == info->size)
				*why = gs_xasprintf("column 'GpuInfo': TotalGpuMemoryInMiB %llu equals SizeInMiB with %llu cards: the columns do not say which one is per card",
						    (unsigned long long)info->total, (unsigned long long)cards);
			else
				*why = gs_xasprintf("column 'GpuInfo': TotalGpuMemoryInMiB %llu is neither SizeInMiB %llu x %llu cards nor SizeInMiB: the columns do not say which one is per card",
						    (unsigned long long)info->total, (unsigned long long)info->size,
						    (unsigned long long)cards);
			return;
		}
		if (info->size) {
			mib = info->size;
			*how = gs_xasprintf("GpuInfo SizeInMiB %llu, per card", (unsigned long long)mib);
		} else if (info->total) {
			if (info->total % cards) {
				*why = gs_xasprintf("column 'GpuInfo': TotalGpuMemoryInMiB %llu does not divide by %llu cards",
						    (unsigned long long)info->total, (unsigned long long)cards);
				return;
			}
			mib = info->total / cards;
			*how = gs_xasprintf("GpuInfo TotalGpuMemoryInMiB %llu, the lot's, / %llu cards",
					    (unsigned long long)info->total, (unsigned long long)cards);
		}
		break;
	}
	*bytes = mib << 20;   /* mib <= UINT64_MAX >> 20, checked when read */
}

/* A plain positive decimal (digits, one dot), as a price may be written. */
static int S_decimal_ok(const char *s)
{
	int dots = 0, digits = 0, nonzero = 0;

	for (; *s; s++) {
		if (*s == '.')
			dots++;
		else if (*s >= '0' && *s <= '9') {
			digits++;
			nonzero |= *s != '0';
		} else
			return 0;
	}
	return dots <= 1 && digits > 0 && digits <= 30 && nonzero;
}

static int S_same_text(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

static S_offer *S_offer_of(S_import *im, const char *type)
{
	const size_t *i = S_map_get(&im->by_type, type);

	return i ? &im->offers[*i] : NULL;
}

static void S_read_row(S_import *im, char **f, const int *col, int line)
{
	const char *type = f[col[C_TYPE]], *accel = f[col[C_ACCEL]];
	const char *count = f[col[C_COUNT]], *price = f[col[C_PRICE]];
	const char *region = f[col[C_REGION]];
	const char *spot = col[C_SPOT] >= 0 ? f[col[C_SPOT]] : "";
	const char *zone = col[C_ZONE] >= 0 ? f[col[C_ZONE]] : "";
	const char *gpuinfo = col[C_GPUINFO] >= 0 ? f[col[C_GPUINFO]] : "";
	const char *ramtext = col[C_RAM] >= 0 ? f[col[C_RAM]] : "";
	uint64_t cards = 0, p = 0, sp = 0, bytes = 0, ram = 0;
	char *how = NULL, *why = NULL;
	const char *odd_p = NULL, *odd_sp = NULL;
	S_info info;
	S_offer *o;
	S_row *r;
	const size_t *at;
	char *place;
	int bad = 0, rc;

	im->nrows++;
	if (!*type) {
		S_err(im, line, "column 'InstanceType' is empty");
		return;
	}
	if (!*accel) {
		/* no GPU: not an offer for this tool */
		im->ncpu++;
		gs_util_strvec_push_dup(&im->cpu_types, type);
		return;
	}
	rc = S_whole(count, &cards);
	if (rc == -2 || (rc == 0 && cards == 0)) {
		S_err(im, line, "column 'AcceleratorCount': expected a positive whole number of cards, found '%s'", count);
		bad = 1;
	} else if (rc != 0 || cards > 4096) {
		S_err(im, line, "column 'AcceleratorCount': expected a whole number of cards (at most 4096), found '%s'", count);
		bad = 1;
	}
	/* a positive decimal in more than six decimals is rounded half up to
	 * the millionth, and the note keeps it as written; anything else is
	 * refused */
	if (*price && (rc = S_price(price, &p)) != 0) {
		if (S_decimal_ok(price) && S_price_rounded(price, &p) == 0)
			odd_p = price;
		else {
			S_err(im, line, "column 'Price': expected a positive amount, found '%s'", price);
			bad = 1;
		}
	}
	if (*spot && (rc = S_price(spot, &sp)) != 0) {
		if (S_decimal_ok(spot) && S_price_rounded(spot, &sp) == 0)
			odd_sp = spot;
		else {
			S_err(im, line, "column 'SpotPrice': expected a positive amount, found '%s'", spot);
			bad = 1;
		}
	}
	if (!S_region_ok(region) || (*zone && !S_region_ok(zone))) {
		S_err(im, line, "column '%s': expected a name of letters, digits, '-', '_', '.', found '%s'",
		      S_region_ok(region) ? "AvailabilityZone" : "Region", S_region_ok(region) ? zone : region);
		bad = 1;
	}
	if (S_gpuinfo(im, line, gpuinfo, &info) != 0)
		bad = 1;
	if (info.has_count && !bad && info.count != cards) {
		S_err(im, line, "column 'GpuInfo': Gpus[0].Count %llu disagrees with AcceleratorCount %llu",
		      (unsigned long long)info.count, (unsigned long long)cards);
		bad = 1;
	}
	if (info.form == 1 && !im->first_bare)
		im->first_bare = line;
	if (info.form == 2 && !im->first_dict)
		im->first_dict = line;
	if (info.form && im->first_bare && im->first_dict) {
		S_err(im, line, "column 'GpuInfo': a bare name at line %d and a dict at line %d: the file mixes the layouts of catalog versions 7 and 8",
		      im->first_bare, im->first_dict);
		bad = 1;
	}
	/* MemoryGiB: GiB x 2^30 bytes, exactly, or refused (host RAM in
	 * version 8, the lot's GPU memory in version 7; decided per file) */
	if (*ramtext && (gs_qty_parse_size(ramtext, GS_GIB, &ram) != 0 || ram == 0)) {
		S_err(im, line, "column 'MemoryGiB': expected a positive number of GiB that is a whole number of bytes, found '%s'",
		      ramtext);
		bad = 1;
	}
	if (bad)
		return;
	S_memory_of_row(im, &info, cards, ram, *ramtext != 0, &bytes, &how, &why);

	o = S_offer_of(im, type);
	if (!o && im->noffers == S_MAX_OFFERS) {
		S_err(im, line, "more than %d instance types with a GPU in one file", S_MAX_OFFERS);
		return;
	}
	if (!o) {
		if (im->noffers == im->offers_alloc) {
			im->offers_alloc = im->offers_alloc ? im->offers_alloc * 2 : 16;
			im->offers = gs_xrealloc(im->offers, im->offers_alloc * sizeof(*im->offers));
		}
		S_map_put(&im->by_type, gs_xstrdup(type), im->noffers);
		o = &im->offers[im->noffers++];
		memset(o, 0, sizeof(*o));
		o->type = gs_xstrdup(type);
		o->id = S_make_id(im->opt->provider, type);
		o->accel = gs_xstrdup(accel);
		o->cards = cards;
		o->bytes = bytes;
		o->how = how;
		o->why = why;
		how = why = NULL;
		o->ram = ram;
		o->line = line;
	} else if (o->ram != ram && info.form == 1) {
		S_err(im, line, "instance type '%s' disagrees with line %d on its MemoryGiB (the lot's GPU memory in this layout)",
		      type, o->line);
		free(how);
		free(why);
		return;
	} else if (strcmp(o->accel, accel) != 0 || o->cards != cards || o->bytes != bytes) {
		S_err(im, line, "instance type '%s' disagrees with line %d on its GPU (%s x %llu, %llu bytes per card here; %s x %llu, %llu bytes per card there)",
		      type, o->line, accel, (unsigned long long)cards, (unsigned long long)bytes,
		      o->accel, (unsigned long long)o->cards, (unsigned long long)o->bytes);
		free(how);
		free(why);
		return;
	}
	free(how);
	free(why);
	if (o->ram != ram && !o->ram_conflict) {
		/* host RAM that differs between regions: not one figure of the offer */
		o->ram_conflict = line;
		S_note(im, line, "instance type '%s': MemoryGiB '%s' here and another figure at line %d (host RAM differing by region): no host RAM given for the offer",
		       type, ramtext, o->line);
	}
	/* Names hold no control character (CSV fields may, but not these
	 * three: the region and zone were checked, the type is the key). */
	place = gs_xasprintf("%s\x1f%s\x1f%s", type, region, zone);
	at = S_map_get(&im->by_place, place);
	if (at) {
		r = &o->rows[*at];
		free(place);
		if (r->price == p && r->spot == sp && S_same_text(r->odd_price, odd_p) &&
		    S_same_text(r->odd_spot, odd_sp)) {
			im->nduplicates++;
			return;
		}
		S_err(im, line, "instance type '%s' in region '%s'%s%s: this row and line %d disagree on the price",
		      type, region, *zone ? ", zone " : "", zone, r->line);
		return;
	}
	S_map_put(&im->by_place, place, o->nrows);
	if (o->nrows == o->rows_alloc) {
		o->rows_alloc = o->rows_alloc ? o->rows_alloc * 2 : 4;
		o->rows = gs_xrealloc(o->rows, o->rows_alloc * sizeof(*o->rows));
	}
	r = &o->rows[o->nrows++];
	r->line = line;
	r->region = gs_xstrdup(region);
	r->zone = gs_xstrdup(zone);
	r->price = p;
	r->spot = sp;
	r->odd_price = odd_p ? gs_xstrdup(odd_p) : NULL;
	r->odd_spot = odd_sp ? gs_xstrdup(odd_sp) : NULL;
	if (odd_p || odd_sp) {
		im->nodd++;
		if (!im->first_odd)
			im->first_odd = line;
	}
	if (p && sp && sp > p)
		im->nspot_above++;
}

/* Maps the header's names to columns; -1 after an error. */
static int S_header(S_import *im, const gs_csv_record *h, int *col)
{
	size_t i, j;
	int rc = 0;

	for (j = 0; j < C_N; j++)
		col[j] = -1;
	for (i = 0; i < h->nfields; i++)
		for (j = 0; j < C_N; j++)
			if (strcmp(h->fields[i], S_cols[j]) == 0) {
				if (col[j] >= 0) {
					S_err(im, h->line, "column '%s' appears twice in the header", S_cols[j]);
					rc = -1;
				}
				col[j] = (int)i;
			}
	im->has_gpuinfo = col[C_GPUINFO] >= 0;
	im->has_ram = col[C_RAM] >= 0;
	for (j = 0; j < S_REQUIRED; j++)
		if (col[j] < 0) {
			S_err(im, h->line, "the header has no column '%s' (required; columns are found by name: InstanceType, AcceleratorName, AcceleratorCount, Price, Region)",
			      S_cols[j]);
			rc = -1;
		}
	return rc;
}

/*** writing ***/

static int S_cmp_offer(const void *a, const void *b)
{
	return strcmp(((const S_offer *)a)->id, ((const S_offer *)b)->id);
}

/*
 * "Lambda, SkyPilot catalog file vms.csv, lines 189-205": the lines of the
 * rows behind a claim (which: 0 on-demand, 1 spot, -1 every row; with
 * price > 0, only the rows at that price), runs of
 * consecutive lines written as ranges, at most 8 runs, then "and N more".
 */
static char *S_source(const S_import *im, const S_offer *o, int which, uint64_t price)
{
	char *lines = gs_xstrdup(""), *s;
	size_t i, runs = 0, rest = 0, total = 0;
	int start = 0, prev = 0;

	for (i = 0; i <= o->nrows; i++) {
		int line = 0;
		if (i < o->nrows) {
			const S_row *r = &o->rows[i];
			uint64_t rp = which == 1 ? r->spot : r->price;
			if (which >= 0 && (!rp || (price && rp != price)))
				continue;
			line = r->line;
			total++;
		}
		if (line && prev && line == prev + 1) {
			prev = line;
			continue;
		}
		if (prev) {
			if (runs < 8) {
				char *n = start == prev ? gs_xasprintf("%s%s%d", lines, runs ? ", " : "", start)
							: gs_xasprintf("%s%s%d-%d", lines, runs ? ", " : "", start, prev);
				free(lines);
				lines = n;
				runs++;
			} else {
				rest += (size_t)(prev - start + 1);
			}
		}
		start = prev = line;
	}
	s = gs_xasprintf("%s, SkyPilot catalog file %s, line%s %s", im->opt->provider, im->opt->file,
			 total > 1 ? "s" : "", lines);
	if (rest) {
		char *n = gs_xasprintf("%s and %zu more lines", s, rest);
		free(s);
		s = n;
	}
	free(lines);
	return s;
}

/* source, then the date of the source file when known, and its reference. */
static void S_claim(xmlTextWriterPtr w, const S_import *im, const char *source)
{
	xmlTextWriterWriteAttribute(w, BAD_CAST "source", BAD_CAST source);
	if (im->opt->source_date)
		xmlTextWriterWriteAttribute(w, BAD_CAST "date", BAD_CAST im->opt->source_date);
	if (im->opt->source_ref)
		xmlTextWriterWriteAttribute(w, BAD_CAST "ref", BAD_CAST im->opt->source_ref);
}

static void S_plans(xmlTextWriterPtr w, const S_import *im, const S_offer *o, int spot)
{
	uint64_t *seen = gs_xcalloc(o->nrows + 1, sizeof(*seen));
	size_t i, j, nseen = 0;

	/* one plan per distinct price (regions with the same price share it) */
	for (i = 0; i < o->nrows; i++) {
		uint64_t p = spot ? o->rows[i].spot : o->rows[i].price;
		char price[48], *src;
		int dup = 0;
		if (!p)
			continue;
		for (j = 0; j < nseen; j++)
			dup |= seen[j] == p;
		if (dup)
			continue;
		seen[nseen++] = p;
		/* the price as the file gives it: two decimals at least, six at most */
		{
			int n = snprintf(price, sizeof(price), "%llu.%06llu",
					 (unsigned long long)(p / 1000000), (unsigned long long)(p % 1000000));
			while (n > 0 && price[n - 1] == '0' && price[n - 3] != '.')
				price[--n] = '\0';
		}
		src = S_source(im, o, spot ? 1 : 0, p);
		xmlTextWriterStartElement(w, BAD_CAST "plan");
		xmlTextWriterWriteAttribute(w, BAD_CAST "hours", BAD_CAST "1");
		xmlTextWriterWriteAttribute(w, BAD_CAST "price", BAD_CAST price);
		xmlTextWriterWriteAttribute(w, BAD_CAST "currency", BAD_CAST "USD");
		xmlTextWriterWriteAttribute(w, BAD_CAST "interruptible", BAD_CAST(spot ? "true" : "false"));
		S_claim(w, im, src);
		xmlTextWriterEndElement(w);
		free(src);
	}
	free(seen);
}

typedef struct {
	size_t file, unchecked, vendor, missing, rejected;
	char *missing_list;         /* "NAME x N (reason); ..." */
} S_counts;

static void S_missing(S_counts *k, const S_offer *o, const char *reason)
{
	char *n = gs_xasprintf("%s%s%s (%s): %s", k->missing_list ? k->missing_list : "",
			       k->missing_list ? "; " : "", o->accel, o->type, reason);
	free(k->missing_list);
	k->missing_list = n;
	k->missing++;
}

/* The memory element: the file's figure when it agrees with the vendor's (or no vendor figure is known), else the vendor's, else none. */
static void S_memory_xml(xmlTextWriterPtr w, S_import *im, const S_offer *o, const char *src, S_counts *k)
{
	const gs_gpu_nominal *e = NULL;
	gs_gpu_check chk = gs_gpuname_check_memory(o->accel, o->bytes, &e);
	char buf[64], cand[256];
	char *text;

	if (o->why)
		S_note(im, o->line, "instance type '%s': %s; no GPU memory taken from the file", o->type, o->why);
	if (o->bytes && (chk == GS_GPU_CHECK_AGREES || chk == GS_GPU_CHECK_UNKNOWN)) {
		xmlTextWriterStartElement(w, BAD_CAST "memory");
		snprintf(buf, sizeof(buf), "%llu", (unsigned long long)(o->bytes >> 20));
		xmlTextWriterWriteAttribute(w, BAD_CAST "mib", BAD_CAST buf);
		xmlTextWriterWriteAttribute(w, BAD_CAST "origin", BAD_CAST "catalog");
		if (chk == GS_GPU_CHECK_AGREES)
			text = gs_xasprintf("%s: %s; within the range of the vendor's %s GB (%s)", src, o->how,
					    e->nominal_gb, e->source);
		else
			text = gs_xasprintf("%s: %s; not checked: no vendor figure for '%s'", src, o->how, o->accel);
		S_claim(w, im, text);
		free(text);
		xmlTextWriterEndElement(w);
		k->file++;
		if (chk == GS_GPU_CHECK_UNKNOWN)
			k->unchecked++;
		return;
	}
	if (e && (chk == GS_GPU_CHECK_DISAGREES || chk == GS_GPU_CHECK_VENDOR)) {
		uint64_t lo, hi;
		gs_gpuname_window(e, &lo, &hi);
		xmlTextWriterStartElement(w, BAD_CAST "memory");
		xmlTextWriterWriteAttribute(w, BAD_CAST "nominal-gb", BAD_CAST e->nominal_gb);
		xmlTextWriterWriteAttribute(w, BAD_CAST "origin", BAD_CAST "vendor");
		if (chk == GS_GPU_CHECK_DISAGREES) {
			snprintf(buf, sizeof(buf), "%llu", (unsigned long long)(o->bytes >> 20));
			xmlTextWriterWriteAttribute(w, BAD_CAST "rejected-mib", BAD_CAST buf);
			text = gs_xasprintf("%s, checked at %s; the file's %llu MiB per card (%s; %s) is not used: outside %llu-%llu bytes for a %s GB card",
					    e->source, e->checked, (unsigned long long)(o->bytes >> 20), o->how, src,
					    (unsigned long long)lo, (unsigned long long)hi, e->nominal_gb);
			S_note(im, o->line, "instance type '%s' (%s x %llu): the file's %llu MiB per card (%s) is outside %llu-%llu bytes for the vendor's %s GB (%s): not used; the vendor figure is",
			       o->type, o->accel, (unsigned long long)o->cards, (unsigned long long)(o->bytes >> 20),
			       o->how, (unsigned long long)lo, (unsigned long long)hi, e->nominal_gb, e->source);
			k->rejected++;
		} else {
			text = gs_xasprintf("%s, checked at %s", e->source, e->checked);
		}
		xmlTextWriterWriteAttribute(w, BAD_CAST "source", BAD_CAST text);
		xmlTextWriterWriteAttribute(w, BAD_CAST "date", BAD_CAST e->date);
		free(text);
		xmlTextWriterEndElement(w);
		k->vendor++;
		return;
	}
	if (chk == GS_GPU_CHECK_AMBIGUOUS) {
		gs_gpuname_candidates_text(o->accel, cand, sizeof(cand));
		if (o->bytes) {
			text = gs_xasprintf("the name means %s and the file's %llu MiB per card agrees with none of them, or with two of different sizes",
					    cand, (unsigned long long)(o->bytes >> 20));
			S_note(im, o->line, "instance type '%s': the name '%s' means %s; the file's %llu MiB per card (%s) does not say which: memory missing",
			       o->type, o->accel, cand, (unsigned long long)(o->bytes >> 20), o->how);
		} else {
			text = gs_xasprintf("the name means %s and the file gives no figure to tell them apart", cand);
		}
		S_missing(k, o, text);
		free(text);
		return;
	}
	S_missing(k, o, o->why ? "the file's figure is not usable and no vendor figure is known"
			       : "no figure in the file and no vendor figure for this name");
}

static void S_offer_xml(xmlTextWriterPtr w, S_import *im, const S_offer *o, S_counts *k)
{
	char buf[64], *src = S_source(im, o, -1, 0), *names;
	gs_strvec regions = GS_STRVEC_INIT;
	size_t i, len = 0;

	xmlTextWriterStartElement(w, BAD_CAST "offer");
	xmlTextWriterWriteAttribute(w, BAD_CAST "id", BAD_CAST o->id);
	xmlTextWriterWriteAttribute(w, BAD_CAST "provider", BAD_CAST im->opt->provider);
	xmlTextWriterStartElement(w, BAD_CAST "gpu");
	xmlTextWriterWriteAttribute(w, BAD_CAST "model", BAD_CAST o->accel);
	xmlTextWriterEndElement(w);
	xmlTextWriterStartElement(w, BAD_CAST "lot");
	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)o->cards);
	xmlTextWriterWriteAttribute(w, BAD_CAST "cards", BAD_CAST buf);
	xmlTextWriterEndElement(w);
	S_memory_xml(w, im, o, src, k);
	for (i = 0; i < o->nrows; i++)
		gs_util_strvec_push_dup(&regions, o->rows[i].region);
	gs_util_strvec_sort_unique(&regions);
	for (i = 0; i < regions.n; i++)
		len += strlen(regions.v[i]) + 1;
	names = gs_xcalloc(len + 1, 1);
	for (i = 0; i < regions.n; i++) {
		if (i)
			strcat(names, " ");
		strcat(names, regions.v[i]);
	}
	xmlTextWriterStartElement(w, BAD_CAST "regions");
	xmlTextWriterWriteAttribute(w, BAD_CAST "names", BAD_CAST names);
	S_claim(w, im, src);
	xmlTextWriterEndElement(w);
	S_plans(w, im, o, 0);
	S_plans(w, im, o, 1);
	if (o->ram && !o->ram_conflict && im->first_dict && !im->first_bare) {
		/* version 8 layout: MemoryGiB is host RAM.
		 * bytes / 10^9 with every decimal: exact, at most 9 of them */
		char gb[48];
		int n = snprintf(gb, sizeof(gb), "%llu.%09llu", (unsigned long long)(o->ram / 1000000000u),
				 (unsigned long long)(o->ram % 1000000000u));
		while (n > 0 && gb[n - 1] == '0')
			gb[--n] = '\0';
		if (n > 0 && gb[n - 1] == '.')
			gb[--n] = '\0';
		xmlTextWriterStartElement(w, BAD_CAST "host");
		xmlTextWriterWriteAttribute(w, BAD_CAST "ram-gb", BAD_CAST gb);
		S_claim(w, im, src);
		xmlTextWriterEndElement(w);
	}
	{
		/* prices in more than whole cents: kept in words, not as plans */
		char *odd = gs_xstrdup("");
		size_t nodd = 0;
		for (i = 0; i < o->nrows; i++) {
			const char *t[2] = { o->rows[i].odd_price, o->rows[i].odd_spot };
			int j;
			for (j = 0; j < 2; j++) {
				char *n;
				if (!t[j] || strstr(odd, t[j]))
					continue;
				if (nodd++ == 4)
					continue;
				n = gs_xasprintf("%s%s%s (%s, line %d)", odd, *odd ? ", " : "", t[j],
						 j ? "spot" : "on demand", o->rows[i].line);
				free(odd);
				odd = n;
			}
		}
		xmlTextWriterStartElement(w, BAD_CAST "notes");
		xmlTextWriterWriteFormatString(w,
			"Instance type %s of %s, imported from a SkyPilot catalog file. Prices are per hour of one lot; "
			"a spot plan is interruptible. A commercial listing proves what is offered, not what runs; "
			"the price says nothing about speed.%s%s%s",
			o->type, im->opt->provider,
			nodd ? " Hourly prices the file gives in more than six decimals, rounded half up to the millionth in the plans: " : "",
			odd, nodd ? "." : "");
		xmlTextWriterEndElement(w);
		free(odd);
	}
	xmlTextWriterEndElement(w);
	free(names);
	free(src);
	gs_util_strvec_release(&regions);
}

static char *S_write(S_import *im, size_t *xml_len, S_counts *k)
{
	xmlBufferPtr buf = xmlBufferCreate();
	xmlTextWriterPtr w;
	char *title, *out;
	size_t i;

	if (!buf || !(w = xmlNewTextWriterMemory(buf, 0)))
		GS_OOM("libxml2's text writer");
	xmlTextWriterSetIndent(w, 1);
	xmlTextWriterSetIndentString(w, BAD_CAST "  ");
	xmlTextWriterStartDocument(w, NULL, "UTF-8", NULL);
	xmlTextWriterStartElement(w, BAD_CAST "catalog");
	xmlTextWriterWriteAttribute(w, BAD_CAST "xmlns",
				    BAD_CAST "https://gpusheet.example/ns/catalog/1");
	title = gs_xasprintf("%s offers imported from %s (SkyPilot catalog format)%s%s",
			     im->opt->provider, im->opt->file,
			     im->opt->source_ref ? ", " : "",
			     im->opt->source_ref ? im->opt->source_ref : "");
	xmlTextWriterWriteAttribute(w, BAD_CAST "title", BAD_CAST title);
	free(title);
	qsort(im->offers, im->noffers, sizeof(*im->offers), S_cmp_offer);
	for (i = 0; i < im->noffers; i++) {
		S_offer_xml(w, im, &im->offers[i], k);
	}
	xmlTextWriterEndElement(w);
	xmlTextWriterEndDocument(w);
	xmlFreeTextWriter(w);
	*xml_len = (size_t)xmlBufferLength(buf);
	out = gs_xmalloc(*xml_len + 1);
	memcpy(out, xmlBufferContent(buf), *xml_len);
	out[*xml_len] = '\0';
	xmlBufferFree(buf);
	return out;
}

/*** report ***/

/* The catalog version and GpuInfo dialect the file was read as, in words. */
static const char *S_layout(const S_import *im)
{
	if (im->first_bare)
		return "catalog version 7 layout (GpuInfo a bare name: MemoryGiB is the lot's GPU memory, no host RAM given)";
	if (im->first_dict)
		return "catalog version 8 layout (GpuInfo a dict: MemoryGiB is host RAM)";
	return "layout unknown (no GpuInfo on any GPU row: MemoryGiB not used)";
}

static const char *S_dialect(const S_import *im)
{
	if (!im->first_dict)
		return "none";
	if (im->single && im->jsonconst)
		return "Python literal with JSON null/true/false";
	if (im->single || im->pyconst)
		return "Python literal";
	return "JSON";
}

static const char *S_rule_text(int rule)
{
	switch (rule) {
	case S_RULE_TOTAL_PER_CARD:
		return "SizeInMiB per card, TotalGpuMemoryInMiB per card too (this provider's rule)";
	case S_RULE_SIZE_PER_LOT:
		return "SizeInMiB per lot, TotalGpuMemoryInMiB the lot counted twice (this provider's rule)";
	default:
		return "SizeInMiB per card, TotalGpuMemoryInMiB the lot's (the standard rule)";
	}
}

static char *S_report(S_import *im, const S_counts *k)
{
	size_t i, nplans = 0, nspot = 0, noprice = 0, len;
	char *offers, *cpu, *r;

	for (i = 0, len = 1; i < im->noffers; i++)
		len += strlen(im->offers[i].id) + 2;
	offers = gs_xcalloc(len, 1);
	for (i = 0; i < im->noffers; i++) {
		const S_offer *o = &im->offers[i];
		size_t q;
		int has_price = 0, has_spot = 0;
		for (q = 0; q < o->nrows; q++) {
			has_price |= o->rows[q].price != 0;
			has_spot |= o->rows[q].spot != 0;
		}
		nplans += (size_t)has_price;
		nspot += (size_t)has_spot;
		noprice += (size_t)(!has_price && !has_spot);
		if (i >= S_MAX_LISTED)
			continue;
		if (i)
			strcat(offers, ", ");
		strcat(offers, o->id);
	}
	gs_util_strvec_sort_unique(&im->cpu_types);
	for (i = 0, len = 1; i < im->cpu_types.n; i++)
		len += strlen(im->cpu_types.v[i]) + 2;
	cpu = gs_xcalloc(len, 1);
	for (i = 0; i < im->cpu_types.n && i < S_MAX_LISTED; i++) {
		if (i)
			strcat(cpu, ", ");
		strcat(cpu, im->cpu_types.v[i]);
	}
	if (im->noffers > S_MAX_LISTED) {
		char *n = gs_xasprintf("%s and %zu more", offers, im->noffers - S_MAX_LISTED);
		free(offers);
		offers = n;
	}
	if (im->cpu_types.n > S_MAX_LISTED) {
		char *n = gs_xasprintf("%s and %zu more", cpu, im->cpu_types.n - S_MAX_LISTED);
		free(cpu);
		cpu = n;
	}
	r = gs_xasprintf(
		"Read %zu rows of %s (%s). Made %zu offers, one per instance type: %s. "
		"%zu have an on-demand plan and %zu a spot plan (interruptible), priced per hour; "
		"%zu have no price and so no plan; %zu spot prices are above the on-demand one. "
		"Read as %s; GpuInfo dialect: %s; GPU memory: %s. "
		"Memory per card: %zu from the file (assumed; %zu of them with no vendor figure to check against), "
		"%zu from the vendor table (%zu of them replacing a figure of the file outside the vendor's range), %zu missing. "
		"%zu rows give a price in more than six decimals, rounded half up to the millionth (kept as written in the notes). "
		"Skipped %zu rows without a GPU%s%s%s; counted %zu identical duplicate rows once. "
		"Claim dates: %s; source reference: %s.\n",
		im->nrows, im->opt->file, im->opt->provider, im->noffers,
		im->noffers ? offers : "none", nplans, nspot, noprice, im->nspot_above,
		S_layout(im), S_dialect(im), im->first_bare ? "MemoryGiB / cards" : S_rule_text(im->rule),
		k->file, k->unchecked, k->vendor, k->rejected, k->missing, im->nodd,
		im->ncpu, im->ncpu ? " (" : "", cpu,
		im->ncpu ? ")" : "", im->nduplicates,
		im->opt->source_date ? im->opt->source_date : "missing (no --source-date)",
		im->opt->source_ref ? im->opt->source_ref : "none given");
	free(offers);
	free(cpu);
	return r;
}

/*** the public function ***/

static void S_release(S_import *im)
{
	size_t i, j;

	for (i = 0; i < im->noffers; i++) {
		for (j = 0; j < im->offers[i].nrows; j++) {
			free(im->offers[i].rows[j].region);
			free(im->offers[i].rows[j].zone);
			free(im->offers[i].rows[j].odd_price);
			free(im->offers[i].rows[j].odd_spot);
		}
		free(im->offers[i].rows);
		free(im->offers[i].type);
		free(im->offers[i].id);
		free(im->offers[i].accel);
		free(im->offers[i].how);
		free(im->offers[i].why);
	}
	free(im->notes);
	free(im->offers);
	gs_util_strvec_release(&im->cpu_types);
	S_map_release(&im->by_type);
	S_map_release(&im->by_place);
}

int gs_import_skypilot(const char *data, size_t len, const gs_import_opts *opt,
		       char **xml, size_t *xml_len, char **report, char **notes, gs_diag *d)
{
	S_import im;
	gs_csv *csv;
	gs_csv_record rec;
	int col[C_N], rc;
	size_t i, j;
	S_counts k;

	memset(&im, 0, sizeof(im));
	memset(&k, 0, sizeof(k));
	im.opt = opt;
	im.rule = S_rule_of(opt->provider);
	im.d = d;
	if (len > GS_IMPORT_MAX_BYTES) {
		gs_diag_add(d, opt->file, 0, 0, NULL, "the file is %zu bytes; the limit is %u bytes (16 MiB)",
			    len, GS_IMPORT_MAX_BYTES);
		return -1;
	}
	csv = gs_csv_new(data, len, opt->file);
	rc = gs_csv_next(csv, &rec, d);
	if (rc == 0)
		gs_diag_add(d, opt->file, 1, 0, NULL, "the file is empty: expected a header line");
	if (rc != 1 || S_header(&im, &rec, col) != 0) {
		gs_csv_free(csv);
		return -1;
	}
	while ((rc = gs_csv_next(csv, &rec, d)) == 1)
		S_read_row(&im, rec.fields, col, rec.line);
	gs_csv_free(csv);
	if (rc < 0)
		im.nerrors++;
	/* two instance types may give the same id once folded */
	for (i = 0; i < im.noffers; i++)
		for (j = 0; j < i; j++)
			if (strcmp(im.offers[i].id, im.offers[j].id) == 0)
				S_err(&im, im.offers[i].line, "instance types '%s' (line %d) and '%s' give the same offer id '%s'",
				      im.offers[j].type, im.offers[j].line, im.offers[i].type, im.offers[i].id);
	if (im.nerrors == 0 && im.noffers == 0)
		S_err(&im, 0, "no row with a GPU: no offer to import");
	if (im.nerrors > S_MAX_ERRORS)
		gs_diag_add(d, opt->file, 0, 0, NULL, "%zu more errors not shown", im.nerrors - S_MAX_ERRORS);
	if (im.nerrors) {
		S_release(&im);
		return -1;
	}
	if (im.has_ram && !im.first_dict && !im.first_bare)
		S_note(&im, 1, "column 'MemoryGiB': host RAM in catalog version 8, the lot's GPU memory in version 7 files whose GpuInfo is a bare name; no GPU row here has a GpuInfo to tell which: not used");
	*xml = S_write(&im, xml_len, &k);
	*report = S_report(&im, &k);
	S_note(&im, 0, "memory per card of %zu offers: %zu from the file, %zu from the vendor table, %zu missing%s%s",
	       im.noffers, k.file, k.vendor, k.missing, k.missing ? ": " : "",
	       k.missing ? k.missing_list : "");
	if (notes) {
		*notes = im.notes;
		im.notes = NULL;
	}
	free(k.missing_list);
	S_release(&im);
	return 0;
}
