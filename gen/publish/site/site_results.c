/* site_results: a site's results spooled, read back a range at a time. */
#include "site_results.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <nettle/sha2.h>

#include "buf.h"
#include "spool.h"
#include "verdict.h"
#include "util.h"

/* A result as loaded: decoded from its item, its reasons left in the spool. */
typedef struct {
	gs_publish_result r;
	char key[GS_SHA256_HEX_SIZE];
	gs_site_span span;
} S_loaded;

struct gs_site_results {
	const gs_catalog *cat;
	gs_spool *res, *why;         /* item i: result i's fields (see S_put), its reasons */
	gs_buf ids;                  /* every id, each with its NUL */
	size_t *id_at;               /* per result: where its id starts in ids */
	size_t n, cap;
	size_t (*counts)[3];         /* cat->noffers rows */
	int demonstration;
	/* the keys of each group of page_rows results hashed (gs_site_results_rows) */
	size_t page_rows;
	struct sha256_ctx rows_h;    /* of the group being put */
	char (*rows)[GS_SHA256_HEX_SIZE];  /* of each full group */
	size_t nrows, rows_cap;
	S_loaded *page;              /* [from, to) */
	size_t from, to;
	int why_loaded;
};

/*
 * A result's item in the res spool, strings:
 *   0 id, 1 title, 2 status (a digit per offer), 3 key (NULL: none),
 *   4 "synthetic demonstration nretained npreselected nretained_synthetic
 *      best|- best_missing span_off span_len best_hour best_hour_plan|-
 *      best_hour_interruptible" (decimal; best_hour_plan: the index in the
 *      best offer of the first plan with the hour's currency),
 *   5 per offer "cost" or "cost:P" (P: the index in the offer of the
 *      first plan with its currency), space-separated,
 *   6 per offer its class, a digit (gs_class; 7: not compared),
 *   7 per offer the cost of a million tokens at the bound: "-" (none),
 *     "micro:P" (P as in 5) or "micro:Pi" (interruptible), space-separated,
 *   8... its files.
 * Text, not bytes: the spool holds strings, and this is a small part of
 * the CPU of a result.
 */
enum { S_ID, S_TITLE, S_STATUS, S_KEY, S_META, S_COST, S_CLASS, S_MTOK, S_FILES };

/* The index of offer k's first plan in currency cur (a read back gives its string). */
static size_t S_plan_of(const gs_catalog *cat, size_t k, const char *cur)
{
	size_t p;

	for (p = 0; k < cat->noffers && p < cat->offers[k].nplans; p++)
		if (cat->offers[k].plans[p].currency &&
		    strcmp(cat->offers[k].plans[p].currency, cur) == 0)
			return p;
	GS_BUG("a result's currency %s is none of offer %zu's plans", cur, k);
}

gs_site_results *gs_site_results_new(const char *dir, const gs_catalog *cat, size_t page_rows,
				     gs_error *err)
{
	gs_site_results *rs = gs_xcalloc(1, sizeof(*rs));

	if (!page_rows)
		GS_BUG("groups of 0 results");
	rs->cat = cat;
	rs->page_rows = page_rows;
	gs_buf_init(&rs->ids, 0);
	sha256_init(&rs->rows_h);
	rs->res = gs_spool_new(dir, err);
	rs->why = rs->res ? gs_spool_new(dir, err) : NULL;
	if (!rs->why) {
		gs_site_results_free(rs);
		return NULL;
	}
	rs->counts = gs_xcalloc(cat->noffers + 1, sizeof(*rs->counts));
	return rs;
}

int gs_site_results_put(gs_site_results *rs, gs_publish_result *r, const char *key,
			const gs_site_span *span, gs_error *err)
{
	size_t nv = S_FILES + r->files.n, k, idl;
	char **v = gs_xcalloc(nv + 1, sizeof(*v));
	char *status = gs_xmalloc(r->noffers + 1), *cls = gs_xmalloc(r->noffers + 1);
	char meta[256], num[48];
	gs_buf cost = GS_BUF_INIT, mtok = GS_BUF_INIT;
	char *kcopy = key ? gs_xstrdup(key) : NULL;   /* (the spool takes char *const *) */
	int rc;

	for (k = 0; k < r->noffers; k++)
		status[k] = (char)('0' + r->status[k]);
	status[k] = '\0';
	for (k = 0; k < r->noffers; k++)
		cls[k] = (char)((r->in_lot && r->in_lot[k] ? 'a' : '0') + (r->cls ? r->cls[k] : GS_CLASS_COUNT));
	cls[k] = '\0';
	for (k = 0; k < r->noffers; k++) {
		const char *cur = r->mtok_currency ? r->mtok_currency[k] : NULL;
		if (cur)
			snprintf(num, sizeof(num), "%s%" PRId64 ":%zu%s", k ? " " : "", r->mtok[k],
				 S_plan_of(rs->cat, k, cur), r->mtok_intr[k] ? "i" : "");
		else
			snprintf(num, sizeof(num), "%s-", k ? " " : "");
		gs_buf_puts(&mtok, num);
	}
	snprintf(meta, sizeof(meta), "%d %d %zu %zu %zu %s%zu %u %" PRIu64 " %" PRIu64
		 " %" PRId64 " %s%zu %d",
		 r->synthetic, r->demonstration, r->nretained, r->npreselected,
		 r->nretained_synthetic, r->best == GS_PUBLISH_NO_BEST ? "-" : "",
		 r->best == GS_PUBLISH_NO_BEST ? (size_t)0 : r->best, r->best_missing,
		 span ? span->off : 0, span ? span->len : 0, r->best_hour,
		 r->best_hour_currency ? "" : "-",
		 r->best_hour_currency ? S_plan_of(rs->cat, r->best, r->best_hour_currency) : (size_t)0,
		 r->best_hour_interruptible);
	for (k = 0; k < r->noffers; k++) {
		int64_t c = r->cost ? r->cost[k] : 0;
		const char *cur = r->currency ? r->currency[k] : NULL;
		if (cur)
			snprintf(num, sizeof(num), "%s%" PRId64 ":%zu", k ? " " : "", c,
				 S_plan_of(rs->cat, k, cur));
		else
			snprintf(num, sizeof(num), "%s%" PRId64, k ? " " : "", c);
		gs_buf_puts(&cost, num);
	}
	v[S_ID] = r->id;
	v[S_TITLE] = r->title;
	v[S_STATUS] = status;
	v[S_KEY] = kcopy;
	v[S_META] = meta;
	v[S_COST] = cost.data;
	v[S_CLASS] = cls;
	v[S_MTOK] = mtok.data;
	for (k = 0; k < r->files.n; k++)
		v[S_FILES + k] = r->files.v[k];
	rc = gs_spool_put(rs->res, v, nv, err);
	if (!rc)
		rc = gs_spool_put(rs->why, r->reason, r->reason ? r->noffers : 0, err);
	if (!rc) {
		for (k = 0; k < r->noffers && k < rs->cat->noffers; k++)
			if (r->status[k] < 3)
				rs->counts[k][r->status[k]]++;
		rs->demonstration |= r->demonstration;
		if (rs->n == rs->cap) {
			rs->cap = rs->cap ? rs->cap * 2 : 256;
			rs->id_at = gs_xrealloc(rs->id_at, rs->cap * sizeof(*rs->id_at));
		}
		idl = strlen(r->id ? r->id : "");
		rs->id_at[rs->n++] = rs->ids.len;
		gs_buf_put(&rs->ids, r->id ? r->id : "", idl + 1);
		/* with its NUL: a separator */
		sha256_update(&rs->rows_h, strlen(key ? key : "") + 1,
			      (const uint8_t *)(key ? key : ""));
		if (rs->n % rs->page_rows == 0) {
			uint8_t dig[SHA256_DIGEST_SIZE];
			if (rs->nrows == rs->rows_cap) {
				rs->rows_cap = rs->rows_cap ? rs->rows_cap * 2 : 16;
				rs->rows = gs_xrealloc(rs->rows, rs->rows_cap * sizeof(*rs->rows));
			}
			sha256_digest(&rs->rows_h, SHA256_DIGEST_SIZE, dig); /* (and starts again) */
			gs_evidence_hex_encode(dig, SHA256_DIGEST_SIZE, rs->rows[rs->nrows++]);
		}
	}
	free(v);
	free(status);
	free(cls);
	gs_buf_release(&cost);
	gs_buf_release(&mtok);
	free(kcopy);
	gs_publish_result_release(r);
	return rc;
}

size_t gs_site_results_count(const gs_site_results *rs)
{
	return rs->n;
}

const char *gs_site_results_id(const gs_site_results *rs, size_t i)
{
	if (i >= rs->n)
		GS_BUG("result %zu of %zu", i, rs->n);
	return rs->ids.data + rs->id_at[i];
}

const size_t (*gs_site_results_counts(const gs_site_results *rs))[3]
{
	return (const size_t (*)[3])rs->counts;
}

int gs_site_results_demonstration(const gs_site_results *rs)
{
	return rs->demonstration;
}

void gs_site_results_rows(const gs_site_results *rs, size_t g, char hex[GS_SHA256_HEX_SIZE])
{
	if (g < rs->nrows) {
		memcpy(hex, rs->rows[g], GS_SHA256_HEX_SIZE);
	} else if (g == rs->nrows && rs->n % rs->page_rows) {
		/* the last group, not full: a copy of its state finished */
		struct sha256_ctx h = rs->rows_h;
		uint8_t dig[SHA256_DIGEST_SIZE];
		sha256_digest(&h, SHA256_DIGEST_SIZE, dig);
		gs_evidence_hex_encode(dig, SHA256_DIGEST_SIZE, hex);
	} else {
		GS_BUG("group %zu of %zu results by %zu", g, rs->n, rs->page_rows);
	}
}

static void S_page_free(gs_site_results *rs)
{
	size_t i;

	for (i = 0; rs->page && i < rs->to - rs->from; i++)
		gs_publish_result_release(&rs->page[i].r);
	free(rs->page);
	rs->page = NULL;
	rs->from = rs->to = 0;
	rs->why_loaded = 0;
}

/* An unsigned decimal from *p (then past one space); 0 or -1. */
static int S_num(const char **p, uint64_t *v)
{
	const char *s = *p;
	uint64_t x = 0;

	if (*s < '0' || *s > '9')
		return -1;
	for (; *s >= '0' && *s <= '9'; s++) {
		if (x > (UINT64_MAX - 9) / 10)
			return -1;
		x = x * 10 + (uint64_t)(*s - '0');
	}
	if (*s == ' ')
		s++;
	*p = s;
	*v = x;
	return 0;
}

/* A signed decimal (int64) from *p, as S_num. */
static int S_snum(const char **p, int64_t *v)
{
	int neg = **p == '-';
	uint64_t m;

	if (neg)
		(*p)++;
	if (S_num(p, &m) || m > (uint64_t)INT64_MAX + (uint64_t)neg)
		return -1;
	*v = neg ? (m == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)m) : (int64_t)m;
	return 0;
}

/* Item i's classes and costs of a million tokens into r (noffers set); 0 or -1. */
static int S_decode_classes(const gs_site_results *rs, size_t i, gs_publish_result *r)
{
	const char *cl = gs_spool_get(rs->res, i, S_CLASS), *p = gs_spool_get(rs->res, i, S_MTOK);
	size_t k;

	if (!cl || !p || strlen(cl) != r->noffers)
		return -1;
	gs_publish_result_classes_alloc(r);
	for (k = 0; k < r->noffers; k++) {
		uint64_t plan;
		r->in_lot[k] = cl[k] >= 'a';
		r->cls[k] = (unsigned char)(cl[k] - (r->in_lot[k] ? 'a' : '0'));
		if (p[0] == '-' && (p[1] == ' ' || p[1] == '\0')) {   /* none (a sign has digits) */
			p++;
			if (*p == ' ')
				p++;
			continue;
		}
		if (S_snum(&p, &r->mtok[k]) || *p++ != ':' || S_num(&p, &plan) ||
		    k >= rs->cat->noffers || plan >= rs->cat->offers[k].nplans)
			return -1;
		r->mtok_currency[k] = rs->cat->offers[k].plans[plan].currency;
		/* "i", then the separator (S_num stopped at it) */
		if (*p == 'i') {
			r->mtok_intr[k] = 1;
			if (*++p == ' ')
				p++;
		}
	}
	return 0;
}

/* Item i of the res spool (loaded) into l; 0 or -1 (l released). */
static int S_decode(const gs_site_results *rs, size_t i, S_loaded *l)
{
	gs_publish_result *r = &l->r;
	const char *id = gs_spool_get(rs->res, i, S_ID), *title = gs_spool_get(rs->res, i, S_TITLE);
	const char *st = gs_spool_get(rs->res, i, S_STATUS), *key = gs_spool_get(rs->res, i, S_KEY);
	const char *p = gs_spool_get(rs->res, i, S_META);
	size_t nv = gs_spool_size(rs->res, i), k;
	uint64_t v[9], hour_plan, hour_int;
	int64_t sv[2], hour;
	int best_none, hour_none;

	memset(l, 0, sizeof(*l));
	if (!id || !title || !st || !p || nv < S_FILES || (key && strlen(key) >= sizeof(l->key)))
		return -1;
	if (S_snum(&p, &sv[0]) || S_snum(&p, &sv[1]))
		return -1;
	for (k = 2; k < 5; k++)
		if (S_num(&p, &v[k]))
			return -1;
	best_none = *p == '-';
	if (best_none)
		p++;
	for (k = 5; k < 9; k++)
		if (S_num(&p, &v[k]))
			return -1;
	/* the offer to take's price per hour: micro, plan|-, interruptible */
	if (S_snum(&p, &hour))
		return -1;
	hour_none = *p == '-';
	if (hour_none)
		p++;
	if (S_num(&p, &hour_plan) || S_num(&p, &hour_int) || *p)
		return -1;
	if (!hour_none && (best_none || v[5] >= rs->cat->noffers ||
			   hour_plan >= rs->cat->offers[v[5]].nplans))
		return -1;
	r->id = gs_xstrdup(id);
	r->title = gs_xstrdup(title);
	r->noffers = strlen(st);
	r->status = gs_xmalloc(r->noffers + 1);
	memset(r->status, 3, r->noffers + 1);
	for (k = 0; k < r->noffers; k++)
		r->status[k] = (unsigned char)(st[k] - '0');
	r->synthetic = (int)sv[0];
	r->demonstration = (int)sv[1];
	r->nretained = (size_t)v[2];
	r->npreselected = (size_t)v[3];
	r->nretained_synthetic = (size_t)v[4];
	r->best = best_none ? GS_PUBLISH_NO_BEST : (size_t)v[5];
	r->best_missing = (unsigned)v[6];
	r->best_hour = hour;
	r->best_hour_currency = hour_none ? NULL : rs->cat->offers[v[5]].plans[hour_plan].currency;
	r->best_hour_interruptible = hour_int != 0;
	l->span.off = v[7];
	l->span.len = v[8];
	snprintf(l->key, sizeof(l->key), "%s", key ? key : "");
	r->cost = gs_xcalloc(r->noffers + 1, sizeof(*r->cost));
	r->currency = gs_xcalloc(r->noffers + 1, sizeof(*r->currency));
	p = gs_spool_get(rs->res, i, S_COST);
	for (k = 0; k < r->noffers; k++) {
		uint64_t plan;
		if (!p || S_snum(&p, &r->cost[k]))
			goto bad;
		if (*p == ':') {
			p++;
			if (S_num(&p, &plan) || k >= rs->cat->noffers ||
			    plan >= rs->cat->offers[k].nplans)
				goto bad;
			r->currency[k] = rs->cat->offers[k].plans[plan].currency;
		}
	}
	if (S_decode_classes(rs, i, r))
		goto bad;
	for (k = S_FILES; k < nv; k++) {
		const char *f = gs_spool_get(rs->res, i, k);
		if (!f)
			goto bad;
		gs_util_strvec_push_dup(&r->files, f);
	}
	return 0;
bad:
	gs_publish_result_release(r);
	return -1;
}

int gs_site_results_load(gs_site_results *rs, size_t from, size_t to, int why, gs_error *err)
{
	size_t i;

	if (rs->page && from == rs->from && to == rs->to) {
		/* loaded already: at most their reasons to read */
		if (why && !rs->why_loaded) {
			if (gs_spool_load(rs->why, from, to, err))
				return -1;
			rs->why_loaded = 1;
		}
		return 0;
	}
	S_page_free(rs);
	if (from > to || to > rs->n)
		GS_BUG("results [%zu, %zu) of %zu", from, to, rs->n);
	if (gs_spool_load(rs->res, from, to, err) ||
	    (why && gs_spool_load(rs->why, from, to, err)))
		return -1;
	rs->page = gs_xcalloc(to - from + 1, sizeof(*rs->page));
	rs->from = from;
	rs->to = to;
	rs->why_loaded = why;
	for (i = from; i < to; i++)
		if (S_decode(rs, i, &rs->page[i - from])) {
			S_page_free(rs);
			gs_error_set(err, "cannot read a temporary file back: result %zu", i);
			return -1;
		}
	return 0;
}

static const S_loaded *S_at(const gs_site_results *rs, size_t i)
{
	if (!rs->page || i < rs->from || i >= rs->to)
		GS_BUG("result %zu not loaded ([%zu, %zu))", i, rs->from, rs->to);
	return &rs->page[i - rs->from];
}

const gs_publish_result *gs_site_results_get(const gs_site_results *rs, size_t i)
{
	return &S_at(rs, i)->r;
}

const char *gs_site_results_key(const gs_site_results *rs, size_t i)
{
	return S_at(rs, i)->key;
}

gs_site_span gs_site_results_span(const gs_site_results *rs, size_t i)
{
	return S_at(rs, i)->span;
}

const char *gs_site_results_reason(const gs_site_results *rs, size_t i, size_t k)
{
	(void)S_at(rs, i);
	if (!rs->why_loaded)
		GS_BUG("the reasons of result %zu not loaded", i);
	return gs_spool_get(rs->why, i, k);
}

void gs_site_results_free(gs_site_results *rs)
{
	if (!rs)
		return;
	S_page_free(rs);
	gs_spool_free(rs->res);
	gs_spool_free(rs->why);
	gs_buf_release(&rs->ids);
	free(rs->id_at);
	free(rs->counts);
	free(rs->rows);
	free(rs);
}
