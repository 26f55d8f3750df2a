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
#include "hash.h"
#include "quantity.h"
#include "util.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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

/* The slot of key: its own, or the empty one where it would go. */
static size_t S_map_slot(const S_map *m, const char *key)
{
	size_t i = (size_t)gs_hash_str(key) & (m->cap - 1);

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
	char *region, *zone;        /* "" when the row gives none */
	uint64_t price, spot;       /* millionths, 0: none */
	char *odd_price, *odd_spot; /* a price in more than 6 decimals (rounded in the plan), as written; NULL: none */
} S_row;

typedef struct {
	int form;                   /* 0 empty, 1 a bare name, 2 a dict */
	uint64_t size, total;       /* MemoryInfo.SizeInMiB, TotalGpuMemoryInMiB (top level or in Gpus[0]); 0: not given */
	uint64_t count;             /* Gpus[0].Count; 0: not given */
	int has_count;
	int zero;                   /* SizeInMiB or TotalGpuMemoryInMiB written as 0 (no figure) */
} S_info;

typedef struct {
	char *type;
	char *id;
	char *accel;
	uint64_t cards;
	S_info info;                /* what GpuInfo says, as written */
	uint64_t bytes;             /* GPU memory per card, settled once the file's rule is known; 0: none */
	int gb;                     /* bytes came from a figure in GB (the file labels it MiB) */
	uint64_t figure;            /* that figure per card, as the file's unit writes it */
	char *how;                  /* where in the row that figure comes from, or NULL */
	char *why;                  /* why the file gives no usable figure, or NULL */
	char *count_note;           /* how a count disagreement was settled, or NULL */
	uint64_t ram;               /* MemoryGiB x 2^30 bytes, 0: not given */
	int ram_conflict;           /* a row with another MemoryGiB (line), 0: none */
	int attached;               /* no instance type: accelerators attached to a VM of the user's choice */
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
	int has_gpuinfo, has_ram;   /* the header has these columns */
	int first_bare, first_dict; /* first line of a GPU row whose GpuInfo is a bare name / a dict */
	int single, dbl, pyconst, jsonconst;   /* GpuInfo dialect, over the file */
	size_t nodd;                /* prices in more than 6 decimals */
	int first_odd;
	/* rows set aside, each kind with its count and first line */
	size_t nbad, nfrac, ntpu, nplaceholder, nzero_price, nnoregion, nattached, ncount_settled, nerrata;
	int first_bad, last_bad, first_frac, first_tpu, first_placeholder, first_zero_price, first_noregion;
	/* the file's memory rule, from its own figures (S_infer) */
	int unit_gb;                /* every SizeInMiB below 1024: the figures are GB */
	int per_lot;                /* SizeInMiB grows with the card count: the lot's */
	size_t votes_card, votes_lot, total_is_size, total_is_lot, nsizes;
	int bare_gpu;               /* bare-name layout: MemoryGiB / cards agrees with the vendor (the lot's GPU memory) */
	size_t bare_votes_gpu, bare_votes_host;
	char *notes;                /* messages for stderr, one per line */
	const struct S_price_rule *price_rule;  /* the provider's fetcher writes prices its own way, or NULL */
	size_t nfloor;              /* rows whose one price was read as an auction's floor */
	int first_floor;
} S_import;

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

static void S_bad(S_import *im, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/*
 * A row that cannot be read: an error with --strict; otherwise the line is
 * skipped, named on stderr with why, and the rest of the file is imported.
 */
static void S_bad(S_import *im, int line, const char *fmt, ...)
{
	va_list ap;
	char *msg, *n;

	va_start(ap, fmt);
	msg = gs_xvasprintf(fmt, ap);
	va_end(ap);
	if (im->opt->strict) {
		S_err(im, line, "%s", msg);
		free(msg);
		return;
	}
	if (line != im->last_bad) {
		im->nbad++;
		im->last_bad = line;
		if (!im->first_bad)
			im->first_bad = line;
	}
	n = gs_xasprintf("%s%s:%d: warning: line skipped: %s\n", im->notes ? im->notes : "",
			 im->opt->file, line, msg);
	free(im->notes);
	im->notes = n;
	free(msg);
}

/* FNV-1a, 64 bits: part of a long id's format (docs/formats.md), so it
 * is written here once and never changes; tables use gs_hash (hash.h). */
static uint64_t S_fnv1a(const char *s)
{
	uint64_t h = UINT64_C(14695981039346656037);

	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= UINT64_C(1099511628211);
	}
	return h;
}

/*
 * id: lower-case provider and instance type, other characters as '-'. An
 * id longer than 64 characters (the catalog's bound) keeps its first 55
 * and ends in '-' and 8 hexadecimal digits of its FNV-1a hash: the same
 * type, the same id.
 */
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
	if (strlen(id) > 64)
		snprintf(id + 55, 10, "-%08x", (unsigned)(S_fnv1a(id) & 0xffffffffu));
	return id;
}

/* A region or zone as the file names it: any text without control characters (may be empty). */
static int S_place_ok(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return 0;
	return 1;
}

/* A positive whole number given as a number or as a string ('8.0'); 0 is returned as 0. */
static int S_num(const S_py *v, uint64_t *out)
{
	if (!v || (v->kind != 'n' && v->kind != 's'))
		return -1;
	if (strcmp(v->text, "0") == 0 || strcmp(v->text, "0.0") == 0) {
		*out = 0;
		return 0;
	}
	return S_whole(v->text, out) == 0 ? 0 : -1;
}

/* A figure of MiB in GpuInfo: 0 (written as 0: no figure) or positive; -1 after an error. */
static int S_mib_field(S_import *im, int line, const S_py *v, const char *name, uint64_t *out, int *zero)
{
	*out = 0;
	if (!v || v->kind == 'c')
		return 0;
	if (S_num(v, out) != 0 || *out > (UINT64_MAX >> 20)) {
		S_bad(im, line, "column 'GpuInfo': %s must be a whole number of MiB, found '%s'", name,
		      v->text ? v->text : "a container");
		*out = 0;
		return -1;
	}
	if (*out == 0)
		*zero = 1;
	return 0;
}

/* What GpuInfo says; 0, or -1 after an error. */
static int S_gpuinfo(S_import *im, int line, const char *text, S_info *info)
{
	S_pyparser ps;
	S_py *root;
	const S_py *gpus, *g, *count;
	int rc = 0;

	memset(info, 0, sizeof(*info));
	if (!*text)
		return 0;
	if (text[0] != '{') {
		/* a bare name: SkyPilot's version 7 layout of some providers, Azure's */
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
		S_bad(im, line, "column 'GpuInfo': not a Python literal or JSON dict (%s at character %d)",
		      ps.err ? ps.err : "malformed", (int)(ps.p - text) + 1);
		S_py_free(root);
		return -1;
	}
	im->single += ps.single;
	im->dbl += ps.dbl;
	im->pyconst += ps.pyconst;
	im->jsonconst += ps.jsonconst;
	gpus = S_py_get(root, "Gpus");
	rc |= S_mib_field(im, line, S_py_get(root, "TotalGpuMemoryInMiB"), "TotalGpuMemoryInMiB",
			  &info->total, &info->zero);
	if (gpus && gpus->kind == 'l' && gpus->n > 1) {
		S_bad(im, line, "column 'GpuInfo': %zu kinds of GPU in one instance type; one is supported",
		      gpus->n);
		rc = -1;
	} else if (gpus && gpus->kind == 'l' && gpus->n == 1) {
		g = gpus->kids[0];
		rc |= S_mib_field(im, line, S_py_get(S_py_get(g, "MemoryInfo"), "SizeInMiB"), "MemoryInfo.SizeInMiB",
				  &info->size, &info->zero);
		if (!info->total)
			/* Shadeform, Spheron, Lium: the total inside the GPU's item */
			rc |= S_mib_field(im, line, S_py_get(g, "TotalGpuMemoryInMiB"), "TotalGpuMemoryInMiB",
					  &info->total, &info->zero);
		count = S_py_get(g, "Count");
		if (count && count->kind != 'c') {
			if (S_num(count, &info->count) != 0) {
				S_bad(im, line, "column 'GpuInfo': Gpus[0].Count must be a whole number, found '%s'",
				      count->text ? count->text : "a container");
				rc = -1;
			} else {
				info->has_count = info->count > 0;
			}
		}
	}
	S_py_free(root);
	return rc;
}

/*
 * Known errors of a provider's file, each with the page that corrects it:
 * settled with both figures shown, never silently.
 */
static const struct {
	const char *type;
	uint64_t file_count, count;
	const char *source;
} S_errata[] = {
	{ "Standard_ND96isr_H100_v5", 12, 8,
	  "Hugging Face, Microsoft Azure documentation, supported hardware (Standard_ND96isr_H100_v5: NVIDIA H100 80GB, 8 GPUs, 640 GB), "
	  "https://huggingface.co/docs/microsoft-azure/azure-ai/hardware; the same 8 GPU(s) in Aspire's AKS node sizes, "
	  "https://aspire.dev/reference/api/csharp/aspire.hosting.azure.kubernetes/standardndsh100v5.md" },
};

/*
 * Providers whose fetcher writes the two price columns its own way, each
 * with the page that says so. Chosen by the provider's name read loosely
 * (case and punctuation aside), and applied to a row only when its figures
 * agree with the rule; the import summary says how many rows it read so.
 */
struct S_price_rule {
	const char *provider;       /* lower-case letters and digits only */
	const char *meaning;        /* what the one figure is, in words */
	const char *source;
};
static const struct S_price_rule S_price_rules[] = {
	{ "mithril",
	  "the minimum price of Mithril's spot auction, written by SkyPilot's fetcher in both Price and SpotPrice: "
	  "a floor for an interruptible lot, not an on-demand price; the price paid may be higher",
	  "SkyPilot, sky/catalog/data_fetchers/fetch_mithril.py (the pricing API's minimum_price_cents written as Price and SpotPrice), "
	  "https://github.com/skypilot-org/skypilot/blob/master/sky/catalog/data_fetchers/fetch_mithril.py" },
};

/* The rule of a provider named loosely ("Mithril", "mithril.ai" → mithril). */
static const struct S_price_rule *S_price_rule_named(const char *provider)
{
	char key[64];
	size_t n = 0, i;

	for (; *provider && *provider != '.' && n + 1 < sizeof(key); provider++)
		if ((*provider >= 'a' && *provider <= 'z') || (*provider >= '0' && *provider <= '9'))
			key[n++] = *provider;
		else if (*provider >= 'A' && *provider <= 'Z')
			key[n++] = (char)(*provider - 'A' + 'a');
	key[n] = '\0';
	for (i = 0; i < sizeof(S_price_rules) / sizeof(S_price_rules[0]); i++)
		if (strcmp(key, S_price_rules[i].provider) == 0)
			return &S_price_rules[i];
	return NULL;
}

/* The rule of the provider typed, else of the one the file's path names
 * (SkyPilot's catalogs/v8/mithril/vms.csv, a copy named mithril-v8-vms.csv). */
static const struct S_price_rule *S_price_rule_of(const char *provider, const char *file)
{
	const struct S_price_rule *r = S_price_rule_named(provider);
	const char *base = strrchr(file, '/'), *dir = file;
	size_t i, len, dlen;

	/* the file's name (mithril-v8-vms.csv) or its folder's (mithril/vms.csv) */
	base = base ? base + 1 : file;
	dlen = base > file ? (size_t)(base - 1 - file) : 0;
	for (i = dlen; i > 0 && file[i - 1] != '/'; i--)
		;
	dir = file + i;
	dlen -= i;
	for (i = 0; !r && i < sizeof(S_price_rules) / sizeof(S_price_rules[0]); i++) {
		len = strlen(S_price_rules[i].provider);
		if ((strncasecmp(base, S_price_rules[i].provider, len) == 0 &&
		     (base[len] == '-' || base[len] == '_' || base[len] == '.')) ||
		    (dlen == len && strncasecmp(dir, S_price_rules[i].provider, len) == 0))
			r = &S_price_rules[i];
	}
	return r;
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

/* A TPU slice (Google Cloud): not a GPU, not an offer for this tool. */
static int S_is_tpu(const char *accel)
{
	return (accel[0] == 't' || accel[0] == 'T') && (accel[1] == 'p' || accel[1] == 'P') &&
	       (accel[2] == 'u' || accel[2] == 'U') && accel[3] == '-';
}

/* "0.125", "0.5": a fraction of one card (AWS g6f). */
static int S_fraction(const char *s)
{
	return s[0] == '0' && s[1] == '.' && S_decimal_ok(s);
}

/* "0", "0.00": zero written as a decimal (Vast's SpotPrice: no price). */
static int S_zero(const char *s)
{
	int dots = 0, digits = 0;

	for (; *s; s++) {
		if (*s == '0')
			digits++;
		else if (*s == '.')
			dots++;
		else
			return 0;
	}
	return digits > 0 && dots <= 1;
}

/* A price: 0 none, 1 read into *micro (*odd set when rounded), 2 zero (no price), -1 bad. */
static int S_read_price(const char *text, uint64_t *micro, const char **odd)
{
	*micro = 0;
	*odd = NULL;
	if (!*text)
		return 0;
	if (S_zero(text))
		return 2;
	if (S_price(text, micro) == 0)
		return 1;
	if (S_decimal_ok(text) && S_price_rounded(text, micro) == 0) {
		*odd = text;
		return 1;
	}
	return -1;
}

static void S_first(size_t *n, int *first, int line)
{
	if (!(*n)++)
		*first = line;
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

/* The card count, checked; 0 after the row was set aside. */
static uint64_t S_cards(S_import *im, const char *count, int line)
{
	uint64_t cards = 0;
	int rc = S_whole(count, &cards);

	if (rc != 0 && S_fraction(count)) {
		/* a partition of one card is no lot of whole cards */
		S_first(&im->nfrac, &im->first_frac, line);
		return 0;
	}
	if (rc == -2 || (rc == 0 && cards == 0)) {
		S_bad(im, line, "column 'AcceleratorCount': expected a positive whole number of cards, found '%s'", count);
		return 0;
	}
	if (rc != 0 || cards > 4096) {
		S_bad(im, line, "column 'AcceleratorCount': expected a whole number of cards (at most 4096), found '%s'", count);
		return 0;
	}
	return cards;
}

/*
 * GpuInfo's Count disagreeing with AcceleratorCount (Yotta: Count 1 on a lot
 * of 2): settled by TotalGpuMemoryInMiB when it is SizeInMiB x one of the
 * two; the note keeps both figures. -1: not settled (the row is skipped).
 */
static int S_settle_count(S_import *im, const S_info *info, uint64_t cards, int line, char **note)
{
	*note = NULL;
	if (!info->has_count || info->count == cards)
		return 0;
	if (info->size && info->total && info->total == info->size * cards) {
		*note = gs_xasprintf("GpuInfo's Gpus[0].Count %llu disagrees with AcceleratorCount %llu; TotalGpuMemoryInMiB %llu = SizeInMiB %llu x %llu settles it: %llu cards",
				     (unsigned long long)info->count, (unsigned long long)cards,
				     (unsigned long long)info->total, (unsigned long long)info->size,
				     (unsigned long long)cards, (unsigned long long)cards);
		im->ncount_settled++;
		return 0;
	}
	S_bad(im, line, "column 'GpuInfo': Gpus[0].Count %llu disagrees with AcceleratorCount %llu, and TotalGpuMemoryInMiB does not settle which is right",
	      (unsigned long long)info->count, (unsigned long long)cards);
	return -1;
}

static S_offer *S_new_offer(S_import *im, const char *type, const char *accel, uint64_t cards,
			    const S_info *info, uint64_t ram, int line)
{
	S_offer *o;

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
	o->info = *info;
	o->ram = ram;
	o->line = line;
	return o;
}

static void S_add_row(S_import *im, S_offer *o, const char *region, const char *zone, uint64_t p,
		      uint64_t sp, const char *odd_p, const char *odd_sp, int line)
{
	const size_t *at;
	char *place;
	S_row *r;

	place = gs_xasprintf("%s\x1f%s\x1f%s", o->type, region, zone);
	at = S_map_get(&im->by_place, place);
	if (at) {
		r = &o->rows[*at];
		free(place);
		if (r->price == p && r->spot == sp && S_same_text(r->odd_price, odd_p) &&
		    S_same_text(r->odd_spot, odd_sp)) {
			im->nduplicates++;
			return;
		}
		S_bad(im, line, "instance type '%s' in region '%s'%s%s: this row and line %d disagree on the price",
		      o->type, region, *zone ? ", zone " : "", zone, r->line);
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
	if (!*region && !*zone)
		S_first(&im->nnoregion, &im->first_noregion, line);
	if (p && sp && sp > p)
		im->nspot_above++;
}

/* The two prices of a row; -1 after the row was set aside. */
static int S_row_prices(S_import *im, const char *price, const char *spot, int line, uint64_t *p,
			uint64_t *sp, const char **odd_p, const char **odd_sp)
{
	int a = S_read_price(price, p, odd_p), b = S_read_price(spot, sp, odd_sp);

	if (a < 0)
		S_bad(im, line, "column 'Price': expected a positive amount, found '%s'", price);
	if (b < 0)
		S_bad(im, line, "column 'SpotPrice': expected a positive amount, found '%s'", spot);
	if (a < 0 || b < 0)
		return -1;
	if (a == 2 || b == 2)
		S_first(&im->nzero_price, &im->first_zero_price, line);
	/* SkyPilot's fetchers write 700.0 for a price they could not read
	 * (Google Cloud's TPU rows): a placeholder, not a price */
	if (*p == UINT64_C(700000000) && (!*spot || *sp == UINT64_C(700000000))) {
		S_first(&im->nplaceholder, &im->first_placeholder, line);
		*p = *sp = 0;
		*odd_p = *odd_sp = NULL;
	}
	/* an auction's floor in both columns: no on-demand price at all */
	if (im->price_rule && *p && *p == *sp) {
		S_first(&im->nfloor, &im->first_floor, line);
		*p = 0;
		*odd_p = NULL;
	}
	return 0;
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
	uint64_t cards, p = 0, sp = 0, ram = 0;
	const char *odd_p = NULL, *odd_sp = NULL;
	char *synth = NULL, *count_note = NULL;
	S_info info;
	S_offer *o;
	size_t e;
	int bad = 0;

	im->nrows++;
	if (!*accel) {
		/* no GPU: not an offer for this tool */
		if (*type) {
			im->ncpu++;
			gs_util_strvec_push_dup(&im->cpu_types, type);
		} else {
			S_bad(im, line, "columns 'InstanceType' and 'AcceleratorName' are both empty");
		}
		return;
	}
	if (S_row_prices(im, price, spot, line, &p, &sp, &odd_p, &odd_sp) != 0)
		return;
	if (S_is_tpu(accel)) {
		S_first(&im->ntpu, &im->first_tpu, line);
		return;
	}
	if (!(cards = S_cards(im, count, line)))
		return;
	for (e = 0; e < sizeof(S_errata) / sizeof(S_errata[0]); e++)
		if (strcmp(type, S_errata[e].type) == 0 && cards == S_errata[e].file_count) {
			/* both figures, in the offer's notes and once on stderr */
			free(count_note);
			count_note = gs_xasprintf("AcceleratorCount %llu in the file; %llu cards per %s: %llu used",
						  (unsigned long long)cards, (unsigned long long)S_errata[e].count,
						  S_errata[e].source, (unsigned long long)S_errata[e].count);
			if (!im->nerrata++)
				S_note(im, line, "instance type '%s': %s", type, count_note);
			cards = S_errata[e].count;
		}
	if (!S_place_ok(region) || !S_place_ok(zone)) {
		S_bad(im, line, "column '%s': a control character in the name",
		      S_place_ok(region) ? "AvailabilityZone" : "Region");
		bad = 1;
	}
	if (S_gpuinfo(im, line, gpuinfo, &info) != 0)
		bad = 1;
	if (!bad && !count_note && S_settle_count(im, &info, cards, line, &count_note) != 0)
		bad = 1;
	if (info.form == 1 && !im->first_bare)
		im->first_bare = line;
	if (info.form == 2 && !im->first_dict)
		im->first_dict = line;
	if (info.form && im->first_bare && im->first_dict) {
		S_bad(im, line, "column 'GpuInfo': a bare name at line %d and a dict at line %d: the file mixes the layouts of catalog versions 7 and 8",
		      im->first_bare, im->first_dict);
		bad = 1;
	}
	/* MemoryGiB: GiB x 2^30 bytes, exactly, or refused (host RAM in
	 * version 8, maybe the lot's GPU memory in version 7: decided per file) */
	if (*ramtext && (gs_qty_parse_size(ramtext, GS_GIB, &ram) != 0 || ram == 0)) {
		S_bad(im, line, "column 'MemoryGiB': expected a positive number of GiB that is a whole number of bytes, found '%s'",
		      ramtext);
		bad = 1;
	}
	if (bad) {
		free(count_note);
		return;
	}
	if (!*type) {
		/* Google Cloud: GPUs attached to a VM the user picks; priced alone */
		synth = gs_xasprintf("%sx%llu", accel, (unsigned long long)cards);
		type = synth;
		im->nattached++;
	}
	o = S_offer_of(im, type);
	if (!o && im->noffers == S_MAX_OFFERS) {
		S_err(im, line, "more than %d instance types with a GPU in one file", S_MAX_OFFERS);
	} else if (!o) {
		o = S_new_offer(im, type, accel, cards, &info, ram, line);
		o->attached = synth != NULL;
		if (count_note && info.has_count && info.count != cards)
			S_note(im, line, "instance type '%s': %s", type, count_note);
		o->count_note = count_note;
		count_note = NULL;
	} else if (strcmp(o->accel, accel) != 0 || o->cards != cards || o->info.size != info.size ||
		   o->info.total != info.total || o->info.form != info.form) {
		S_bad(im, line, "instance type '%s' disagrees with line %d on its GPU (%s x %llu, SizeInMiB %llu, TotalGpuMemoryInMiB %llu here; %s x %llu, %llu, %llu there)",
		      type, o->line, accel, (unsigned long long)cards, (unsigned long long)info.size,
		      (unsigned long long)info.total, o->accel, (unsigned long long)o->cards,
		      (unsigned long long)o->info.size, (unsigned long long)o->info.total);
		o = NULL;
	} else if (o->ram != ram && info.form == 1 && !o->ram_conflict) {
		o->ram_conflict = line;
		S_note(im, line, "instance type '%s': MemoryGiB '%s' here and another figure at line %d: not one figure of the offer, not used",
		       type, ramtext, o->line);
	} else if (o->ram != ram && !o->ram_conflict) {
		/* host RAM that differs between regions: not one figure of the offer */
		o->ram_conflict = line;
		S_note(im, line, "instance type '%s': MemoryGiB '%s' here and another figure at line %d (host RAM differing by region): no host RAM given for the offer",
		       type, ramtext, o->line);
	}
	if (o)
		S_add_row(im, o, region, zone, p, sp, odd_p, odd_sp, line);
	free(count_note);
	free(synth);
}

/*
 * The file's memory rule, from its own figures, never from the provider's
 * name (docs/formats.md, 2.3):
 *  - the unit: every SizeInMiB of the file below 1024 means GB written
 *    under a MiB label (no GPU has less than 1 GiB; Shadeform, RunPod);
 *  - per card or per lot: between two instance types of one GPU name with
 *    different card counts, SizeInMiB either stays (per card) or grows with
 *    the count (per lot: Vast, Prime Intellect); the majority of such pairs
 *    decides, per card without any;
 *  - a bare-name file (version 7, Azure): MemoryGiB / cards agreeing with
 *    the vendor's figure on most rows it can be checked on is the lot's GPU
 *    memory; otherwise it is the host's RAM.
 */
static void S_infer(S_import *im)
{
	S_map first = { 0 };
	size_t i;

	for (i = 0; i < im->noffers; i++) {
		const S_offer *o = &im->offers[i];
		const size_t *j;
		if (o->info.form == 1 && o->ram && !o->ram_conflict && o->ram % o->cards == 0) {
			const gs_gpu_nominal *e;
			gs_gpu_check c = gs_gpuname_check_memory(o->accel, o->ram / o->cards, &e);
			if (c == GS_GPU_CHECK_AGREES)
				im->bare_votes_gpu++;
			else if (c == GS_GPU_CHECK_DISAGREES)
				im->bare_votes_host++;
		}
		if (o->info.form != 2 || !o->info.size)
			continue;
		im->nsizes++;
		im->unit_gb += o->info.size < 1024;
		if (o->cards > 1 && o->info.total == o->info.size)
			im->total_is_size++;
		if (o->cards > 1 && o->info.total == o->info.size * o->cards)
			im->total_is_lot++;
		j = S_map_get(&first, o->accel);
		if (!j) {
			S_map_put(&first, gs_xstrdup(o->accel), i);
		} else if (im->offers[*j].cards != o->cards) {
			const S_offer *a = &im->offers[*j];
			if (a->info.size == o->info.size)
				im->votes_card++;
			else if (a->info.size * o->cards == o->info.size * a->cards)
				im->votes_lot++;
		}
	}
	im->unit_gb = im->nsizes && (size_t)im->unit_gb == im->nsizes;
	im->per_lot = im->votes_lot > im->votes_card;
	im->bare_gpu = im->bare_votes_gpu > im->bare_votes_host;
	S_map_release(&first);
}

/* The memory per card of o under the file's rule: o->bytes with o->how, or o->why. */
static void S_settle(const S_import *im, S_offer *o)
{
	const S_info *info = &o->info;
	uint64_t cards = o->cards, v = 0;
	const char *unit = im->unit_gb ? "GB (the file's unit, labelled MiB)" : "MiB";

	if (info->form == 1) {
		if (!im->bare_gpu || !o->ram || o->ram_conflict)
			return;
		if (o->ram % cards || (o->ram / cards) % (UINT64_C(1) << 20)) {
			o->why = gs_xasprintf("column 'MemoryGiB': the lot's GPU memory of %llu bytes is not a whole number of MiB per card over %llu cards",
					      (unsigned long long)o->ram, (unsigned long long)cards);
			return;
		}
		o->bytes = o->ram / cards;
		o->figure = o->bytes >> 20;
		o->how = gs_xasprintf("MemoryGiB, the lot's GPU memory in this bare-name layout (it agrees with the vendor's figure on %zu of %zu instance types checked), / %llu cards",
				      im->bare_votes_gpu, im->bare_votes_gpu + im->bare_votes_host,
				      (unsigned long long)cards);
		return;
	}
	if (info->form != 2)
		return;
	if (info->size) {
		v = info->size;
		if (im->per_lot) {
			if (v % cards) {
				o->why = gs_xasprintf("column 'GpuInfo': SizeInMiB %llu is per lot in this file and does not divide by %llu cards",
						      (unsigned long long)v, (unsigned long long)cards);
				return;
			}
			v /= cards;
			o->how = gs_xasprintf("GpuInfo SizeInMiB %llu, per lot in this file (it grows with the card count on %zu of %zu pairs of instance types), / %llu cards: %llu %s per card",
					      (unsigned long long)info->size, im->votes_lot, im->votes_lot + im->votes_card,
					      (unsigned long long)cards, (unsigned long long)v, unit);
		} else {
			o->how = gs_xasprintf("GpuInfo SizeInMiB %llu, per card: %llu %s", (unsigned long long)v,
					      (unsigned long long)v, unit);
		}
	} else if (info->total) {
		if (info->total % cards) {
			o->why = gs_xasprintf("column 'GpuInfo': TotalGpuMemoryInMiB %llu does not divide by %llu cards",
					      (unsigned long long)info->total, (unsigned long long)cards);
			return;
		}
		v = info->total / cards;
		o->how = gs_xasprintf("GpuInfo TotalGpuMemoryInMiB %llu, the lot's, / %llu cards: %llu %s per card",
				      (unsigned long long)info->total, (unsigned long long)cards,
				      (unsigned long long)v, unit);
	} else if (info->zero) {
		o->why = gs_xstrdup("column 'GpuInfo': SizeInMiB 0, no figure");
		return;
	} else {
		return;
	}
	o->figure = v;
	o->gb = im->unit_gb;
	o->bytes = im->unit_gb ? v * UINT64_C(1000000000) : v << 20;   /* v <= UINT64_MAX >> 20 */
	if (im->unit_gb && v > UINT64_MAX / UINT64_C(1000000000))
		o->bytes = 0;
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

/* The price as the file gives it: two decimals at least, six at most. */
static void S_price_text(uint64_t p, char *price, size_t size)
{
	int n = snprintf(price, size, "%llu.%06llu", (unsigned long long)(p / 1000000),
			 (unsigned long long)(p % 1000000));

	while (n > 0 && price[n - 1] == '0' && price[n - 3] != '.')
		price[--n] = '\0';
}

/* Where a plan is sold: one <in> per region and zone of its rows, in file order, each once. */
static void S_places(xmlTextWriterPtr w, const S_offer *o, int spot, uint64_t p)
{
	size_t i, j;

	for (i = 0; i < o->nrows; i++) {
		const S_row *r = &o->rows[i];
		int seen = 0;
		if ((spot ? r->spot : r->price) != p || (!*r->region && !*r->zone))
			continue;
		for (j = 0; j < i && !seen; j++)
			seen = (spot ? o->rows[j].spot : o->rows[j].price) == p &&
			       strcmp(o->rows[j].region, r->region) == 0 && strcmp(o->rows[j].zone, r->zone) == 0;
		if (seen)
			continue;
		xmlTextWriterStartElement(w, BAD_CAST "in");
		if (*r->region)
			xmlTextWriterWriteAttribute(w, BAD_CAST "region", BAD_CAST r->region);
		if (*r->zone)
			xmlTextWriterWriteAttribute(w, BAD_CAST "zone", BAD_CAST r->zone);
		xmlTextWriterEndElement(w);
	}
}

/* Every row of this spot price gave no on-demand price: an auction's floor. */
static int S_floor_only(const S_offer *o, uint64_t spot)
{
	size_t i;

	for (i = 0; i < o->nrows; i++)
		if (o->rows[i].spot == spot && o->rows[i].price)
			return 0;
	return 1;
}

/* A row of the offer gave its spot price alone under a price rule. */
static int S_has_floor(const S_offer *o)
{
	size_t i;

	for (i = 0; i < o->nrows; i++)
		if (o->rows[i].spot && !o->rows[i].price)
			return 1;
	return 0;
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
		S_price_text(p, price, sizeof(price));
		src = S_source(im, o, spot ? 1 : 0, p);
		if (spot && im->price_rule && S_floor_only(o, p)) {
			char *n = gs_xasprintf("%s: %s (%s)", src, im->price_rule->meaning, im->price_rule->source);
			free(src);
			src = n;
		}
		xmlTextWriterStartElement(w, BAD_CAST "plan");
		xmlTextWriterWriteAttribute(w, BAD_CAST "hours", BAD_CAST "1");
		xmlTextWriterWriteAttribute(w, BAD_CAST "price", BAD_CAST price);
		xmlTextWriterWriteAttribute(w, BAD_CAST "currency", BAD_CAST "USD");
		xmlTextWriterWriteAttribute(w, BAD_CAST "interruptible", BAD_CAST(spot ? "true" : "false"));
		S_claim(w, im, src);
		S_places(w, o, spot, p);
		xmlTextWriterEndElement(w);
		free(src);
	}
	free(seen);
}

typedef struct {
	size_t file, file_gb, unchecked, vendor, rejected, missing;
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

/* "80960 MiB" or "48 GB (labelled MiB)": the file's figure per card, in its own unit. */
static char *S_figure(const S_offer *o)
{
	return o->gb ? gs_xasprintf("%llu GB (labelled MiB in the file: %llu MiB would be no GPU's memory)",
				    (unsigned long long)o->figure, (unsigned long long)o->figure)
		     : gs_xasprintf("%llu MiB", (unsigned long long)o->figure);
}

/* The file's own figure, kept: it agrees with the vendor's, or no vendor figure is known. */
static void S_memory_file(xmlTextWriterPtr w, S_import *im, const S_offer *o, const char *src,
			  const gs_gpu_nominal *e, S_counts *k)
{
	char buf[64], *fig = S_figure(o), *text;

	xmlTextWriterStartElement(w, BAD_CAST "memory");
	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)o->figure);
	xmlTextWriterWriteAttribute(w, BAD_CAST(o->gb ? "nominal-gb" : "mib"), BAD_CAST buf);
	xmlTextWriterWriteAttribute(w, BAD_CAST "origin", BAD_CAST "catalog");
	if (e)
		text = gs_xasprintf("%s: %s; the file's %s per card is within the range of the vendor's %s GB (%s)",
				    src, o->how, fig, e->nominal_gb, e->source);
	else
		text = gs_xasprintf("%s: %s; not checked: no vendor figure for '%s'", src, o->how, o->accel);
	S_claim(w, im, text);
	free(text);
	free(fig);
	xmlTextWriterEndElement(w);
	k->file++;
	k->file_gb += (size_t)o->gb;
	k->unchecked += (size_t)!e;
}

/* The vendor's figure: the file has none, or one outside the vendor's range (both shown). */
static void S_memory_vendor(xmlTextWriterPtr w, S_import *im, const S_offer *o, const char *src,
			    const gs_gpu_nominal *e, int disagrees, S_counts *k)
{
	char buf[64], *text, *fig;
	uint64_t lo, hi;

	gs_gpuname_window(e, &lo, &hi);
	xmlTextWriterStartElement(w, BAD_CAST "memory");
	xmlTextWriterWriteAttribute(w, BAD_CAST "nominal-gb", BAD_CAST e->nominal_gb);
	xmlTextWriterWriteAttribute(w, BAD_CAST "origin", BAD_CAST "vendor");
	if (disagrees) {
		fig = S_figure(o);
		if (!o->gb) {
			snprintf(buf, sizeof(buf), "%llu", (unsigned long long)o->figure);
			xmlTextWriterWriteAttribute(w, BAD_CAST "rejected-mib", BAD_CAST buf);
		}
		text = gs_xasprintf("%s, checked at %s; the file's %s per card (%s; %s) is not used: %llu bytes, outside %llu-%llu bytes for a %s GB card",
				    e->source, e->checked, fig, o->how, src, (unsigned long long)o->bytes,
				    (unsigned long long)lo, (unsigned long long)hi, e->nominal_gb);
		S_note(im, o->line, "instance type '%s' (%s x %llu): the file's %s per card (%s) is %llu bytes, outside %llu-%llu bytes for the vendor's %s GB (%s): the vendor's %s GB is used instead",
		       o->type, o->accel, (unsigned long long)o->cards, fig, o->how, (unsigned long long)o->bytes,
		       (unsigned long long)lo, (unsigned long long)hi, e->nominal_gb, e->source, e->nominal_gb);
		free(fig);
		k->rejected++;
	} else {
		text = gs_xasprintf("%s, checked at %s", e->source, e->checked);
	}
	xmlTextWriterWriteAttribute(w, BAD_CAST "source", BAD_CAST text);
	xmlTextWriterWriteAttribute(w, BAD_CAST "date", BAD_CAST e->date);
	free(text);
	xmlTextWriterEndElement(w);
	k->vendor++;
}

/* The memory element: the file's figure when it agrees with the vendor's (or no vendor figure is known), else the vendor's, else none. */
static void S_memory_xml(xmlTextWriterPtr w, S_import *im, const S_offer *o, const char *src, S_counts *k)
{
	const gs_gpu_nominal *e = NULL;
	gs_gpu_check chk = gs_gpuname_check_memory(o->accel, o->bytes, &e);
	char cand[256];
	char *text;

	if (o->why)
		S_note(im, o->line, "instance type '%s': %s; no GPU memory taken from the file", o->type, o->why);
	if (o->bytes && (chk == GS_GPU_CHECK_AGREES || chk == GS_GPU_CHECK_UNKNOWN)) {
		S_memory_file(w, im, o, src, chk == GS_GPU_CHECK_AGREES ? e : NULL, k);
		return;
	}
	if (e && (chk == GS_GPU_CHECK_DISAGREES || chk == GS_GPU_CHECK_VENDOR)) {
		S_memory_vendor(w, im, o, src, e, chk == GS_GPU_CHECK_DISAGREES, k);
		return;
	}
	if (chk == GS_GPU_CHECK_AMBIGUOUS) {
		gs_gpuname_candidates_text(o->accel, cand, sizeof(cand));
		if (o->bytes) {
			char *fig = S_figure(o);
			text = gs_xasprintf("the name means %s and the file's %s per card agrees with none of them, or with two of different sizes",
					    cand, fig);
			S_note(im, o->line, "instance type '%s': the name '%s' means %s; the file's %s per card (%s) does not say which: memory missing",
			       o->type, o->accel, cand, fig, o->how);
			free(fig);
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

/* host ram-gb: bytes / 10^9 with every decimal, exact, at most 9 of them. */
static void S_host_xml(xmlTextWriterPtr w, const S_import *im, const S_offer *o, const char *src)
{
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

/* The offer's notes: what it is, and what of its rows is kept in words. */
static void S_notes_xml(xmlTextWriterPtr w, const S_import *im, const S_offer *o)
{
	/* prices in more than six decimals: kept in words, rounded in the plans */
	char *odd = gs_xstrdup("");
	size_t i, nodd = 0;

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
		"%s %s of %s, imported from a SkyPilot catalog file. Prices are per hour of one lot%s; "
		"a spot plan is interruptible. A commercial listing proves what is offered, not what runs; "
		"the price says nothing about speed.%s%s%s%s%s",
		o->attached ? "Accelerators" : "Instance type", o->type, im->opt->provider,
		o->attached ? " of the accelerators alone, attached to a virtual machine of your choice priced apart (the file names no instance type)" : "",
		o->count_note ? " " : "", o->count_note ? o->count_note : "", o->count_note ? "." : "",
		nodd ? " Hourly prices the file gives in more than six decimals, rounded half up to the millionth in the plans: " : "",
		odd);
	if (nodd)
		xmlTextWriterWriteString(w, BAD_CAST ".");
	if (im->price_rule && S_has_floor(o))
		xmlTextWriterWriteFormatString(w, " Its spot price is %s.", im->price_rule->meaning);
	xmlTextWriterEndElement(w);
	free(odd);
}

static void S_offer_xml(xmlTextWriterPtr w, S_import *im, const S_offer *o, S_counts *k)
{
	char buf[64], *src = S_source(im, o, -1, 0);

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
	S_plans(w, im, o, 0);
	S_plans(w, im, o, 1);
	/* MemoryGiB is host RAM in the dict layout, and in a bare-name file
	 * where it is not the GPUs' (Azure) */
	if (o->ram && !o->ram_conflict &&
	    ((im->first_dict && !im->first_bare) || (im->first_bare && !im->bare_gpu && im->bare_votes_host)))
		S_host_xml(w, im, o, src);
	S_notes_xml(w, im, o);
	xmlTextWriterEndElement(w);
	free(src);
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
	/* which provider's snapshot this is, and of when: a newer import
	 * replaces it (docs/formats.md, 2.4) */
	xmlTextWriterWriteAttribute(w, BAD_CAST "provider", BAD_CAST im->opt->provider);
	if (im->opt->source_date)
		xmlTextWriterWriteAttribute(w, BAD_CAST "date", BAD_CAST im->opt->source_date);
	if (im->opt->source_ref)
		xmlTextWriterWriteAttribute(w, BAD_CAST "ref", BAD_CAST im->opt->source_ref);
	free(title);
	qsort(im->offers, im->noffers, sizeof(*im->offers), S_cmp_offer);
	for (i = 0; i < im->noffers; i++)
		S_offer_xml(w, im, &im->offers[i], k);
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
	if (im->first_bare && im->bare_gpu)
		return "a bare-name layout (GpuInfo a bare name; MemoryGiB / cards agrees with the vendor's figure: the lot's GPU memory, no host RAM given)";
	if (im->first_bare && im->bare_votes_host)
		return "a bare-name layout (GpuInfo a bare name; MemoryGiB / cards disagrees with the vendor's figure: host RAM, GPU memory from the vendor table)";
	if (im->first_bare)
		return "a bare-name layout (GpuInfo a bare name; no row tells what MemoryGiB is: not used)";
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

/* The memory rule the file's figures gave, in words. */
static char *S_rule_text(const S_import *im)
{
	if (im->first_bare)
		return gs_xstrdup(im->bare_gpu ? "MemoryGiB / cards" : "the vendor table by GPU name");
	if (!im->nsizes)
		return gs_xstrdup("no SizeInMiB in the file (TotalGpuMemoryInMiB / cards where given)");
	return gs_xasprintf("SizeInMiB %s (%s), in %s; TotalGpuMemoryInMiB equals SizeInMiB on %zu and SizeInMiB x cards on %zu instance types of several cards",
			    im->per_lot ? "per lot" : "per card",
			    im->votes_lot + im->votes_card
				    ? (im->per_lot ? "it grows with the card count between instance types of one GPU name"
						   : "it stays the same between instance types of one GPU name and different counts")
				    : "no two instance types of one GPU name with different counts: per card assumed, each figure checked against the vendor's",
			    im->unit_gb ? "GB (every SizeInMiB of the file is below 1024, which no GPU's MiB figure is)" : "MiB",
			    im->total_is_size, im->total_is_lot);
}

/* "; 3 rows of fractional GPUs (first line 12)": one kind of row set aside, or "". */
static char *S_aside(char *acc, size_t n, const char *what, int first)
{
	char *r;

	if (!n)
		return acc;
	r = gs_xasprintf("%s%s%zu %s (first line %d)", acc, *acc ? "; " : "", n, what, first);
	free(acc);
	return r;
}

static char *S_list(const char *const *v, size_t n)
{
	size_t i, len = 1;
	char *s;

	for (i = 0; i < n && i < S_MAX_LISTED; i++)
		len += strlen(v[i]) + 2;
	s = gs_xcalloc(len, 1);
	for (i = 0; i < n && i < S_MAX_LISTED; i++) {
		if (i)
			strcat(s, ", ");
		strcat(s, v[i]);
	}
	if (n > S_MAX_LISTED) {
		char *m = gs_xasprintf("%s and %zu more", s, n - S_MAX_LISTED);
		free(s);
		s = m;
	}
	return s;
}

static char *S_report(S_import *im, const S_counts *k)
{
	size_t i, nplans = 0, nspot = 0, noprice = 0;
	char *offers, *cpu, *r, *rule, *aside = gs_xstrdup("");
	const char **ids = gs_xcalloc(im->noffers + 1, sizeof(*ids));

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
		ids[i] = o->id;
	}
	offers = S_list(ids, im->noffers);
	free(ids);
	gs_util_strvec_sort_unique(&im->cpu_types);
	cpu = S_list((const char *const *)im->cpu_types.v, im->cpu_types.n);
	rule = S_rule_text(im);
	aside = S_aside(aside, im->nbad, "lines that could not be read, each named on stderr", im->first_bad);
	aside = S_aside(aside, im->nfrac, "rows of a fraction of one GPU (AcceleratorCount below 1: no lot of whole cards)", im->first_frac);
	aside = S_aside(aside, im->ntpu, "rows of TPU slices (not GPUs)", im->first_tpu);
	r = gs_xasprintf(
		"Read %zu rows of %s (%s). Made %zu offers, one per instance type: %s. "
		"%zu have an on-demand plan and %zu a spot plan (interruptible), priced per hour; "
		"%zu have no price and so no plan; %zu spot prices are above the on-demand one. "
		"Read as %s; GpuInfo dialect: %s; GPU memory: %s. "
		"Memory per card: %zu from the file (assumed; %zu of them a GB figure labelled MiB, %zu with no vendor figure to check against), "
		"%zu from the vendor table (%zu of them replacing a figure of the file outside the vendor's range), %zu missing. "
		"%zu rows give a price in more than six decimals, rounded half up to the millionth (kept as written in the notes); "
		"%zu rows give a price of 0 (no price) and %zu SkyPilot's placeholder 700.0 (no price); %zu rows name no region. "
		"%zu rows of accelerators without an instance type (priced alone); %zu counts settled by TotalGpuMemoryInMiB; %zu counts corrected from a cited page. "
		"Set aside: %s. Skipped %zu rows without a GPU%s%s%s; counted %zu identical duplicate rows once. "
		"Claim dates: %s; source reference: %s.\n",
		im->nrows, im->opt->file, im->opt->provider, im->noffers,
		im->noffers ? offers : "none", nplans, nspot, noprice, im->nspot_above,
		S_layout(im), S_dialect(im), rule,
		k->file, k->file_gb, k->unchecked, k->vendor, k->rejected, k->missing, im->nodd,
		im->nzero_price, im->nplaceholder, im->nnoregion, im->nattached, im->ncount_settled, im->nerrata,
		*aside ? aside : "none",
		im->ncpu, im->ncpu ? " (" : "", cpu,
		im->ncpu ? ")" : "", im->nduplicates,
		im->opt->source_date ? im->opt->source_date : "missing (no --source-date)",
		im->opt->source_ref ? im->opt->source_ref : "none given");
	if (im->nfloor) {
		char *n = gs_xasprintf("%sPrices: %zu rows give one figure in both columns, read as %s (%s): "
				       "a spot plan only, no on-demand plan (first at line %d).\n",
				       r, im->nfloor, im->price_rule->meaning, im->price_rule->source, im->first_floor);
		free(r);
		r = n;
	}
	free(offers);
	free(cpu);
	free(rule);
	free(aside);
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
		free(im->offers[i].count_note);
	}
	free(im->notes);
	free(im->offers);
	gs_util_strvec_release(&im->cpu_types);
	S_map_release(&im->by_type);
	S_map_release(&im->by_place);
}

/* Two instance types may give the same id once folded: the later one's rows are set aside. */
static void S_check_ids(S_import *im)
{
	S_map ids = { 0 };
	size_t i;

	for (i = 0; i < im->noffers; i++) {
		const size_t *j = S_map_get(&ids, im->offers[i].id);
		if (!j)
			S_map_put(&ids, gs_xstrdup(im->offers[i].id), i);
		else
			S_err(im, im->offers[i].line, "instance types '%s' (line %d) and '%s' give the same offer id '%s'",
			      im->offers[*j].type, im->offers[*j].line, im->offers[i].type, im->offers[i].id);
	}
	S_map_release(&ids);
}

int gs_import_skypilot(const char *data, size_t len, const gs_import_opts *opt,
		       char **xml, size_t *xml_len, char **report, char **notes, gs_diag *d)
{
	S_import im;
	gs_csv *csv;
	gs_csv_record rec;
	int col[C_N], rc;
	size_t i;
	S_counts k;

	memset(&im, 0, sizeof(im));
	memset(&k, 0, sizeof(k));
	im.opt = opt;
	im.d = d;
	im.price_rule = S_price_rule_of(opt->provider, opt->path ? opt->path : opt->file);
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
	S_check_ids(&im);
	if (im.nerrors == 0 && im.noffers == 0)
		S_err(&im, 0, "no row with a whole GPU could be read: no offer to import%s",
		      im.nbad ? " (every line with a GPU was skipped; see the warnings)" : "");
	if (im.nerrors > S_MAX_ERRORS)
		gs_diag_add(d, opt->file, 0, 0, NULL, "%zu more errors not shown", im.nerrors - S_MAX_ERRORS);
	if (im.nerrors) {
		if (notes) {
			*notes = im.notes;
			im.notes = NULL;
		}
		S_release(&im);
		return -1;
	}
	S_infer(&im);
	if (im.unit_gb)
		S_note(&im, 0, "column 'GpuInfo': every SizeInMiB of the file (%zu instance types) is below 1024, which no GPU's memory in MiB is: read as GB, each figure checked against the vendor's",
		       im.nsizes);
	for (i = 0; i < im.noffers; i++)
		S_settle(&im, &im.offers[i]);
	if (im.has_ram && !im.first_dict && !im.first_bare)
		S_note(&im, 1, "column 'MemoryGiB': host RAM in catalog version 8, the lot's GPU memory in version 7 files whose GpuInfo is a bare name; no GPU row here has a GpuInfo to tell which: not used");
	*xml = S_write(&im, xml_len, &k);
	*report = S_report(&im, &k);
	S_note(&im, 0, "memory per card of %zu offers: %zu from the file (%zu of them a GB figure labelled MiB), %zu from the vendor table (%zu replacing a figure of the file), %zu missing%s%s",
	       im.noffers, k.file, k.file_gb, k.vendor, k.rejected, k.missing, k.missing ? ": " : "",
	       k.missing ? k.missing_list : "");
	if (notes) {
		*notes = im.notes;
		im.notes = NULL;
	}
	free(k.missing_list);
	S_release(&im);
	return 0;
}
