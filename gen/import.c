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
		if (!((ps->p - start == 4 && (strncmp(start, "True", 4) == 0 || strncmp(start, "None", 4) == 0)) ||
		      (ps->p - start == 5 && strncmp(start, "False", 5) == 0))) {
			ps->err = "expected a dict, list, string, number, True, False or None";
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
	return gs_parse_u64(buf, out) == 0 ? 0 : -1;
}

/* A price: at most 2 significant decimals (trailing zeros dropped), > 0. */
static int S_price(const char *s, uint64_t *hundredths)
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
	if (gs_parse_decimal(buf, 2, hundredths) != 0)
		return -1;
	return *hundredths > 0 && *hundredths <= INT64_MAX ? 0 : -1;
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
} S_row;

typedef struct {
	char *type;
	char *id;
	char *accel;
	uint64_t cards;
	uint64_t mib;               /* 0: not given */
	uint64_t ram;               /* host memory in bytes (MemoryGiB x 2^30), 0: not given */
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
} S_import;

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

/* GPU name and MiB per card from GpuInfo; 0, or -1 after an error. */
static int S_gpuinfo(S_import *im, int line, const char *text, char **name, uint64_t *mib)
{
	S_pyparser ps;
	S_py *root;
	const S_py *gpus, *g, *mem, *size;
	int rc = 0;

	*name = NULL;
	*mib = 0;
	if (!*text)
		return 0;
	if (text[0] != '{') {
		/* a plain name, as some providers write it */
		*name = gs_xstrdup(text);
		return 0;
	}
	memset(&ps, 0, sizeof(ps));
	ps.p = text;
	ps.end = text + strlen(text);
	root = S_py_value(&ps, 0);
	S_py_ws(&ps);
	if (root && ps.p != ps.end)
		ps.err = "text after the dict";
	if (!root || ps.err) {
		S_err(im, line, "column 'GpuInfo': not a Python literal dict (%s at character %d)",
		      ps.err ? ps.err : "malformed", (int)(ps.p - text) + 1);
		S_py_free(root);
		return -1;
	}
	gpus = S_py_get(root, "Gpus");
	if (gpus && gpus->kind == 'l' && gpus->n > 1) {
		S_err(im, line, "column 'GpuInfo': %zu kinds of GPU in one instance type; one is supported",
		      gpus->n);
		rc = -1;
	} else if (gpus && gpus->kind == 'l' && gpus->n == 1) {
		g = gpus->kids[0];
		if (S_py_get(g, "Name") && S_py_get(g, "Name")->kind == 's')
			*name = gs_xstrdup(S_py_get(g, "Name")->text);
		mem = S_py_get(g, "MemoryInfo");
		size = S_py_get(mem, "SizeInMiB");
		if (size && (size->kind != 'n' || S_whole(size->text, mib) != 0 || *mib == 0 ||
			     *mib > (UINT64_MAX >> 20))) {
			S_err(im, line, "column 'GpuInfo': MemoryInfo.SizeInMiB must be a positive whole number of MiB, found '%s'",
			      size->text ? size->text : "a container");
			*mib = 0;
			rc = -1;
		}
	}
	S_py_free(root);
	return rc;
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
	const char *info = col[C_GPUINFO] >= 0 ? f[col[C_GPUINFO]] : "";
	const char *ramtext = col[C_RAM] >= 0 ? f[col[C_RAM]] : "";
	uint64_t cards = 0, p = 0, sp = 0, mib = 0, ram = 0;
	char *gname = NULL;
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
		gs_strvec_push_dup(&im->cpu_types, type);
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
	if (*price && (rc = S_price(price, &p)) != 0) {
		S_err(im, line, "column 'Price': expected a positive amount with at most 2 decimals, found '%s'", price);
		bad = 1;
	}
	if (*spot && (rc = S_price(spot, &sp)) != 0) {
		S_err(im, line, "column 'SpotPrice': expected a positive amount with at most 2 decimals, found '%s'", spot);
		bad = 1;
	}
	if (!S_region_ok(region) || (*zone && !S_region_ok(zone))) {
		S_err(im, line, "column '%s': expected a name of letters, digits, '-', '_', '.', found '%s'",
		      S_region_ok(region) ? "AvailabilityZone" : "Region", S_region_ok(region) ? zone : region);
		bad = 1;
	}
	if (S_gpuinfo(im, line, info, &gname, &mib) != 0)
		bad = 1;
	/* MemoryGiB is the host's: GiB x 2^30 bytes, exactly, or refused */
	if (*ramtext && (gs_parse_size(ramtext, GS_GIB, &ram) != 0 || ram == 0)) {
		S_err(im, line, "column 'MemoryGiB': expected a positive number of GiB that is a whole number of bytes, found '%s'",
		      ramtext);
		bad = 1;
	}
	free(gname);   /* the model is AcceleratorName; GpuInfo gives the memory */
	if (bad)
		return;

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
		o->mib = mib;
		o->ram = ram;
		o->line = line;
	} else if (o->ram != ram) {
		S_err(im, line, "instance type '%s' disagrees with line %d on its host memory (MemoryGiB)",
		      type, o->line);
		return;
	} else if (strcmp(o->accel, accel) != 0 || o->cards != cards || o->mib != mib) {
		S_err(im, line, "instance type '%s' disagrees with line %d on its GPU (%s x %llu, %llu MiB here; %s x %llu, %llu MiB there)",
		      type, o->line, accel, (unsigned long long)cards, (unsigned long long)mib,
		      o->accel, (unsigned long long)o->cards, (unsigned long long)o->mib);
		return;
	}
	/* Names hold no control character (CSV fields may, but not these
	 * three: the region and zone were checked, the type is the key). */
	place = gs_xasprintf("%s\x1f%s\x1f%s", type, region, zone);
	at = S_map_get(&im->by_place, place);
	if (at) {
		r = &o->rows[*at];
		free(place);
		if (r->price == p && r->spot == sp) {
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
		snprintf(price, sizeof(price), "%llu.%02llu", (unsigned long long)(p / 100),
			 (unsigned long long)(p % 100));
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

static void S_offer_xml(xmlTextWriterPtr w, const S_import *im, const S_offer *o,
			size_t *from_mib, size_t *from_table, size_t *missing)
{
	gs_gpu_match how;
	const char *model = gs_gpu_canonical(o->accel, &how);
	const gs_gpu_nominal *nom = gs_gpu_nominal_of(model);
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
	if (o->mib) {
		xmlTextWriterStartElement(w, BAD_CAST "memory");
		snprintf(buf, sizeof(buf), "%llu", (unsigned long long)o->mib);
		xmlTextWriterWriteAttribute(w, BAD_CAST "mib", BAD_CAST buf);
		S_claim(w, im, src);
		xmlTextWriterEndElement(w);
		(*from_mib)++;
	} else if (nom) {
		xmlTextWriterStartElement(w, BAD_CAST "memory");
		xmlTextWriterWriteAttribute(w, BAD_CAST "nominal-gb", BAD_CAST nom->nominal_gb);
		xmlTextWriterWriteAttribute(w, BAD_CAST "source", BAD_CAST nom->source);
		xmlTextWriterWriteAttribute(w, BAD_CAST "date", BAD_CAST nom->date);
		xmlTextWriterEndElement(w);
		(*from_table)++;
	} else {
		(*missing)++;
	}
	for (i = 0; i < o->nrows; i++)
		gs_strvec_push_dup(&regions, o->rows[i].region);
	gs_strvec_sort_unique(&regions);
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
	if (o->ram) {
		/* bytes / 10^9 with every decimal: exact, at most 9 of them */
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
	xmlTextWriterStartElement(w, BAD_CAST "notes");
	xmlTextWriterWriteFormatString(w,
		"Instance type %s of %s, imported from a SkyPilot catalog file. Prices are per hour of one lot; "
		"a spot plan is interruptible. A commercial listing proves what is offered, not what runs; "
		"the price says nothing about speed.",
		o->type, im->opt->provider);
	xmlTextWriterEndElement(w);
	xmlTextWriterEndElement(w);
	free(names);
	free(src);
	gs_strvec_release(&regions);
}

static char *S_write(S_import *im, size_t *xml_len, size_t *from_mib, size_t *from_table,
		     size_t *missing)
{
	xmlBufferPtr buf = xmlBufferCreate();
	xmlTextWriterPtr w;
	char *title, *out;
	size_t i;

	if (!buf || !(w = xmlNewTextWriterMemory(buf, 0))) {
		fputs("gpusheet: out of memory\n", stderr);
		abort();
	}
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
		S_offer_xml(w, im, &im->offers[i], from_mib, from_table, missing);
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

static char *S_report(S_import *im, size_t from_mib, size_t from_table, size_t missing)
{
	size_t i, nplans = 0, nspot = 0, noprice = 0, len;
	char *offers, *cpu, *r;

	for (i = 0, len = 1; i < im->noffers; i++)
		len += strlen(im->offers[i].id) + 2;
	offers = gs_xcalloc(len, 1);
	for (i = 0; i < im->noffers; i++) {
		const S_offer *o = &im->offers[i];
		size_t k;
		int has_price = 0, has_spot = 0;
		for (k = 0; k < o->nrows; k++) {
			has_price |= o->rows[k].price != 0;
			has_spot |= o->rows[k].spot != 0;
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
	gs_strvec_sort_unique(&im->cpu_types);
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
		"Memory per card: %zu from the provider's MiB figure (assumed), %zu from the vendor table, %zu missing. "
		"Skipped %zu rows without a GPU%s%s%s; counted %zu identical duplicate rows once. "
		"Claim dates: %s; source reference: %s.\n",
		im->nrows, im->opt->file, im->opt->provider, im->noffers,
		im->noffers ? offers : "none", nplans, nspot, noprice, im->nspot_above,
		from_mib, from_table, missing, im->ncpu, im->ncpu ? " (" : "", cpu,
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
		}
		free(im->offers[i].rows);
		free(im->offers[i].type);
		free(im->offers[i].id);
		free(im->offers[i].accel);
	}
	free(im->offers);
	gs_strvec_release(&im->cpu_types);
	S_map_release(&im->by_type);
	S_map_release(&im->by_place);
}

int gs_import_skypilot(const char *data, size_t len, const gs_import_opts *opt,
		       char **xml, size_t *xml_len, char **report, gs_diag *d)
{
	S_import im;
	gs_csv *csv;
	gs_csv_record rec;
	int col[C_N], rc;
	size_t i, j, from_mib = 0, from_table = 0, missing = 0;

	memset(&im, 0, sizeof(im));
	im.opt = opt;
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
	*xml = S_write(&im, xml_len, &from_mib, &from_table, &missing);
	*report = S_report(&im, from_mib, from_table, missing);
	S_release(&im);
	return 0;
}
