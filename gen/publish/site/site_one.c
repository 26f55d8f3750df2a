/*
 * site: one workload's result: rendered (gs_site_one_publish), finished
 * (spooled, or written to a worker's report, gs_site_one_finish), packed
 * into a report's line and taken back from it (gs_site_one_take_result).
 * The render pass (site_render) and the pass that validates as it renders
 * (site_learn) both go through it; it calls neither.
 */
#define _DEFAULT_SOURCE
#include "site_ctx.h"

#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evidence.h"
#include "sheet.h"
#include "site_results.h"
#include "util.h"

/*
 * Result i (c->cur) is complete: a worker writes it to its report, one
 * line, and forgets it, so that a worker's memory does not grow with its
 * range; one process (or the parent) spools it (site_results.h: memory
 * stays flat whatever the number of workloads).
 */
int gs_site_one_finish(gs_site_ctx *c, size_t i)
{
	int rc;

	if (c->report && c->learn) {
		/* goes into the line of its workload (gs_site_learn_item) */
		c->pending = gs_site_one_result_pack_all(c, i, &c->pending_why, &c->pending_why_len);
		gs_publish_result_release(&c->cur);
		memset(&c->span, 0, sizeof(c->span));
		return 0;
	}
	if (c->report) {
		char *why;
		size_t wl;
		json_t *o = gs_site_one_result_pack_all(c, i, &why, &wl);

		rc = json_dumpf(o, c->report, JSON_COMPACT);
		json_decref(o);
		gs_publish_result_release(&c->cur);
		memset(&c->span, 0, sizeof(c->span));
		if (!rc && fputc('\n', c->report) == EOF)
			rc = -1;
		if (!rc && why && fwrite(why, 1, wl, c->report) != wl)
			rc = -1;
		free(why);
		if (rc) {
			gs_error_set(c->err, "cannot write a worker's report");
			return -1;
		}
		return 0;
	}
	rc = gs_site_results_put(c->out, &c->cur, c->site_key ? c->key : NULL, &c->span, c->err);
	memset(&c->span, 0, sizeof(c->span));
	return rc;
}

/* Renders loaded workload i into c->cur; 0, or -1 with err naming the workload. */
int gs_site_one_publish(gs_site_ctx *c, size_t i, gs_job *job, size_t *done)
{
	gs_error e = GS_ERROR_INIT;
	int jrc;

	jrc = gs_publish_job(job, c->env, c->archive, c->sheets, NULL, &c->cur, &e);
	c->rendered++;
	if (jrc) {
		/* the message names the workload, once */
		if (strncmp(gs_error_message(&e), c->paths[i], strlen(c->paths[i])) == 0)
			gs_error_set(c->err, "%s", gs_error_message(&e));
		else
			gs_error_set(c->err, "%s: %s", c->paths[i], gs_error_message(&e));
		gs_error_release(&e);
		return -1;
	}
	(*done)++;
	return gs_site_one_finish(c, i);
}


/*
 * A worker's report, one compact JSON object a line (JSON escapes the
 * newlines of strings): per workload of its range in order, every field of
 * its gs_publish_result with its "files" and "key" (written as each is
 * done, gs_site_one_finish), and its reasons: "why": the length of the block of
 * them (gs_site_one_why_block) that follows the line, for a sheet rendered, or
 * "span" ([offset, length] of its "why" in the replaced site's keys
 * file) for a sheet reused; then {"manifest": its evidence
 * entries (see gs_evidence_archive_export), "rendered": N}. The parent reads a line
 * at a time. A field added to gs_publish_result must be added to
 * gs_site_one_result_pack and gs_site_one_result_unpack, or -j N would lose it.
 */
json_t *gs_site_one_result_pack(const gs_publish_result *r)
{
	json_t *o = json_object();
	char *st = gs_xmalloc(r->noffers + 1);
	size_t k;

	for (k = 0; k < r->noffers; k++)
		st[k] = (char)('0' + r->status[k]);
	st[k] = '\0';
	json_object_set_new(o, "id", json_string(r->id));
	json_object_set_new(o, "title", json_string(r->title));
	json_object_set_new(o, "status", json_string(st));
	json_object_set_new(o, "synthetic", json_integer(r->synthetic));
	json_object_set_new(o, "demonstration", json_integer(r->demonstration));
	json_object_set_new(o, "nretained", json_integer((json_int_t)r->nretained));
	json_object_set_new(o, "npreselected", json_integer((json_int_t)r->npreselected));
	json_object_set_new(o, "nretained_synthetic", json_integer((json_int_t)r->nretained_synthetic));
	{
		json_t *cost = json_array(), *cur = json_array();
		for (k = 0; k < r->noffers; k++) {
			json_array_append_new(cost, json_integer(r->cost ? (json_int_t)r->cost[k] : 0));
			json_array_append_new(cur, r->currency && r->currency[k]
					      ? json_string(r->currency[k]) : json_null());
		}
		json_object_set_new(o, "cost", cost);
		json_object_set_new(o, "currency", cur);
	}
	json_object_set_new(o, "best", r->best == GS_PUBLISH_NO_BEST ? json_null()
				: json_integer((json_int_t)r->best));
	json_object_set_new(o, "best_missing", json_integer((json_int_t)r->best_missing));
	/* [micro per hour, currency, interruptible], or null */
	json_object_set_new(o, "best_hour", r->best_hour_currency
			    ? json_pack("[Isi]", (json_int_t)r->best_hour, r->best_hour_currency,
					r->best_hour_interruptible)
			    : json_null());
	/* per offer: its class, a digit (7: not compared), or a letter from
	 * 'a' when its sheet counts it in a lot (in_lot), and the cost of a
	 * million tokens at the bound, [micro, currency, interruptible] or null */
	for (k = 0; k < r->noffers; k++)
		st[k] = (char)((r->in_lot && r->in_lot[k] ? 'a' : '0') + (r->cls ? r->cls[k] : GS_CLASS_COUNT));
	json_object_set_new(o, "class", json_string(st));
	{
		json_t *mt = json_array();
		for (k = 0; k < r->noffers; k++)
			json_array_append_new(mt, r->mtok_currency && r->mtok_currency[k]
					      ? json_pack("[Isi]", (json_int_t)r->mtok[k],
							  r->mtok_currency[k], r->mtok_intr[k])
					      : json_null());
		json_object_set_new(o, "mtok", mt);
	}
	free(st);
	return o;
}

/*
 * The reasons of a result, per offer: a string, null (none), or the index
 * of the first earlier offer with the same reason (offers of one GPU model
 * share most of theirs: a third of the bytes). Of result i of rs (loaded
 * with its reasons), noffers of them.
 */
json_t *gs_site_one_why_pack(const gs_site_results *rs, size_t i, size_t noffers)
{
	json_t *why = json_array();
	size_t k, j;

	for (k = 0; k < noffers; k++) {
		const char *w = gs_site_results_reason(rs, i, k);
		if (!w) {
			json_array_append_new(why, json_null());
			continue;
		}
		for (j = 0; j < k; j++) {
			const char *x = gs_site_results_reason(rs, i, j);
			if (x && strcmp(x, w) == 0)
				break;
		}
		json_array_append_new(why, j < k ? json_integer((json_int_t)j) : json_string(w));
	}
	return why;
}

/* out[0, n) from a "why" array of n (gs_site_one_why_pack); 0, or -1 (out untouched). */
int gs_site_one_why_strings(json_t *why, size_t n, char **out)
{
	size_t k;

	if (!json_is_array(why) || json_array_size(why) != n)
		return -1;
	for (k = 0; k < n; k++) {
		json_t *e = json_array_get(why, k);
		json_int_t j = json_integer_value(e);
		if (!json_is_string(e) && !json_is_null(e) &&
		    !(json_is_integer(e) && j >= 0 && (size_t)j < k &&
		      json_is_string(json_array_get(why, (size_t)j))))
			return -1;
	}
	for (k = 0; k < n; k++) {
		json_t *e = json_array_get(why, k);
		if (json_is_integer(e))
			e = json_array_get(why, (size_t)json_integer_value(e));
		out[k] = json_is_string(e) ? gs_xstrdup(json_string_value(e)) : NULL;
	}
	return 0;
}

/* r->reason from a "why" array of r->noffers; 0 or -1. */
int gs_site_one_why_unpack(json_t *why, gs_publish_result *r)
{
	char **v = gs_xcalloc(r->noffers + 1, sizeof(*v));

	if (gs_site_one_why_strings(why, r->noffers, v)) {
		free(v);
		return -1;
	}
	r->reason = v;
	return 0;
}

/*
 * r's reasons for a worker's report, in a block after its line: per offer
 * a 4-byte length in the host's order (the same program reads it back,
 * S_why_read), UINT32_MAX for none, then the bytes. Not in the JSON line:
 * they are most of its bytes, and a JSON parser costs ~150 instructions a
 * byte (a site of 200 x 50 with -j 2: 6% of its instructions).
 */
char *gs_site_one_why_block(const gs_publish_result *r, size_t *len)
{
	size_t k, n = 0, at = 0;
	char *b;

	for (k = 0; k < r->noffers; k++)
		n += 4 + (r->reason && r->reason[k] ? strlen(r->reason[k]) : 0);
	b = gs_xmalloc(n + 1);
	for (k = 0; k < r->noffers; k++) {
		const char *w = r->reason ? r->reason[k] : NULL;
		size_t wl = w ? strlen(w) : 0;
		uint32_t l = w ? (uint32_t)wl : UINT32_MAX;
		if (w && wl >= UINT32_MAX)
			GS_BUG("a reason of %zu bytes", wl);
		memcpy(b + at, &l, 4);
		memcpy(b + at + 4, w ? w : "", wl);
		at += 4 + wl;
	}
	*len = n;
	return b;
}

/* r->reason, r->noffers of them, from the n bytes of f that gs_site_one_why_block wrote; 0 or -1. */
static int S_why_read(FILE *f, size_t n, gs_publish_result *r)
{
	char *b, **v;
	size_t k, at = 0;

	if (n > ((size_t)1 << 30))
		return -1;
	b = gs_xmalloc(n + 1);
	if (fread(b, 1, n, f) != n) {
		free(b);
		return -1;
	}
	v = gs_xcalloc(r->noffers + 1, sizeof(*v));
	for (k = 0; k < r->noffers; k++) {
		uint32_t l;
		if (n - at < 4)
			goto bad;
		memcpy(&l, b + at, 4);
		at += 4;
		if (l == UINT32_MAX)
			continue;
		if (l > n - at)
			goto bad;
		v[k] = gs_xmalloc((size_t)l + 1);
		memcpy(v[k], b + at, l);
		v[k][l] = '\0';
		at += l;
	}
	if (at != n)
		goto bad;
	free(b);
	r->reason = v;
	return 0;
bad:
	for (k = 0; k < r->noffers; k++)
		free(v[k]);
	free(v);
	free(b);
	return -1;
}

/*
 * For a worker's report: the result, its files, its key and where its
 * reasons lie, or their block's length ("why"; *why: the block, to write
 * after the line; NULL when reused).
 */
json_t *gs_site_one_result_pack_all(const gs_site_ctx *c, size_t i, char **why, size_t *why_len)
{
	json_t *o = gs_site_one_result_pack(&c->cur), *files = json_array();
	size_t k;

	(void)i;
	for (k = 0; k < c->cur.files.n; k++)
		json_array_append_new(files, json_string(c->cur.files.v[k]));
	json_object_set_new(o, "files", files);
	json_object_set_new(o, "key", json_string(c->site_key ? c->key : ""));
	*why = NULL;
	*why_len = 0;
	if (c->span.len) {
		json_object_set_new(o, "span", json_pack("[II]", (json_int_t)c->span.off,
							 (json_int_t)c->span.len));
	} else {
		*why = gs_site_one_why_block(&c->cur, why_len);
		json_object_set_new(o, "why", json_integer((json_int_t)*why_len));
	}
	return o;
}

/* The catalog's own string for offer k's plan in currency cur (borrowed, as gs_publish_result's). */
static const char *S_currency(const gs_catalog *cat, size_t k, const char *cur)
{
	size_t p;

	for (p = 0; k < cat->noffers && p < cat->offers[k].nplans; p++)
		if (cat->offers[k].plans[p].currency &&
		    strcmp(cat->offers[k].plans[p].currency, cur) == 0)
			return cat->offers[k].plans[p].currency;
	return NULL;
}

/* r's classes and costs of a million tokens from o's "class" and "mtok"
 * (gs_site_one_result_pack); 0, or -1 (what was allocated is r's). */
static int S_unpack_classes(json_t *o, const gs_catalog *cat, gs_publish_result *r)
{
	const char *cl = json_string_value(json_object_get(o, "class"));
	json_t *mt = json_object_get(o, "mtok");
	size_t k;

	if (!cl || strlen(cl) != r->noffers || json_array_size(mt) != r->noffers)
		return -1;
	gs_publish_result_classes_alloc(r);
	for (k = 0; k < r->noffers; k++) {
		json_t *m = json_array_get(mt, k);
		const char *c = json_string_value(json_array_get(m, 1));
		if (cl[k] >= 'a' && cl[k] < 'a' + GS_CLASS_COUNT)
			r->in_lot[k] = 1;
		else if (cl[k] < '0' || cl[k] > '0' + GS_CLASS_COUNT)
			return -1;
		r->cls[k] = (unsigned char)(cl[k] - (r->in_lot[k] ? 'a' : '0'));
		/* the class says the status (gs_publish_result_from_decision) */
		if (r->status[k] != gs_site_nav_class_status(r->cls[k]))
			return -1;
		if (json_is_null(m))
			continue;
		if (!json_is_integer(json_array_get(m, 0)) || !c ||
		    !(r->mtok_currency[k] = S_currency(cat, k, c)))
			return -1;
		r->mtok[k] = (int64_t)json_integer_value(json_array_get(m, 0));
		r->mtok_intr[k] = json_integer_value(json_array_get(m, 2)) != 0;
	}
	return 0;
}

int gs_site_one_result_unpack(json_t *o, const gs_catalog *cat, gs_publish_result *r)
{
	json_t *cost = json_object_get(o, "cost"), *cur = json_object_get(o, "currency");
	json_t *best = json_object_get(o, "best");
	const char *id = json_string_value(json_object_get(o, "id"));
	const char *title = json_string_value(json_object_get(o, "title"));
	const char *st = json_string_value(json_object_get(o, "status"));
	size_t k;

	if (!id || !title || !st)
		return -1;
	memset(r, 0, sizeof(*r));
	r->id = gs_xstrdup(id);
	r->title = gs_xstrdup(title);
	r->noffers = strlen(st);
	r->status = gs_xmalloc(r->noffers + 1);
	memset(r->status, 3, r->noffers + 1);
	for (k = 0; k < r->noffers; k++) {
		if (st[k] < '0' || st[k] > '4') {
			gs_publish_result_release(r);
			return -1;
		}
		r->status[k] = (unsigned char)(st[k] - '0');
	}
	r->synthetic = (int)json_integer_value(json_object_get(o, "synthetic"));
	r->demonstration = (int)json_integer_value(json_object_get(o, "demonstration"));
	r->nretained = (size_t)json_integer_value(json_object_get(o, "nretained"));
	r->npreselected = (size_t)json_integer_value(json_object_get(o, "npreselected"));
	r->nretained_synthetic = (size_t)json_integer_value(json_object_get(o, "nretained_synthetic"));
	if (json_array_size(cost) != r->noffers || json_array_size(cur) != r->noffers ||
	    (!json_is_null(best) && !json_is_integer(best)) ||
	    r->noffers != cat->noffers) {
		gs_publish_result_release(r);
		return -1;
	}
	r->cost = gs_xcalloc(r->noffers + 1, sizeof(*r->cost));
	r->currency = gs_xcalloc(r->noffers + 1, sizeof(*r->currency));
	for (k = 0; k < r->noffers; k++) {
		const char *c = json_string_value(json_array_get(cur, k));
		r->cost[k] = (int64_t)json_integer_value(json_array_get(cost, k));
		if (c && !(r->currency[k] = S_currency(cat, k, c))) {
			gs_publish_result_release(r);
			return -1;
		}
	}
	r->best = json_is_null(best) ? GS_PUBLISH_NO_BEST : (size_t)json_integer_value(best);
	if (r->best != GS_PUBLISH_NO_BEST && r->best >= r->noffers) {
		gs_publish_result_release(r);
		return -1;
	}
	r->best_missing = (unsigned)json_integer_value(json_object_get(o, "best_missing"));
	{
		json_t *bh = json_object_get(o, "best_hour");
		const char *c = json_string_value(json_array_get(bh, 1));
		if (bh && !json_is_null(bh) &&
		    (!json_is_integer(json_array_get(bh, 0)) || !c || r->best == GS_PUBLISH_NO_BEST ||
		     !(r->best_hour_currency = S_currency(cat, r->best, c)))) {
			gs_publish_result_release(r);
			return -1;
		}
		r->best_hour = (int64_t)json_integer_value(json_array_get(bh, 0));
		r->best_hour_interruptible = (int)json_integer_value(json_array_get(bh, 2));
	}
	if (S_unpack_classes(o, cat, r)) {
		gs_publish_result_release(r);
		return -1;
	}
	return 0;
}

/*
 * Result i from its line in a worker's report (gs_site_one_result_pack_all): with
 * its key and span, spooled as in one process (gs_site_one_finish). 0, or -1 with err.
 */
int gs_site_one_take_result(gs_site_ctx *c, size_t i, json_t *o, FILE *f, size_t *done)
{
	json_t *why = json_object_get(o, "why");
	const char *key = json_string_value(json_object_get(o, "key"));
	json_t *fl;
	size_t m;

	if (gs_site_one_result_unpack(o, c->env->cat, &c->cur) || !key ||
	    strlen(key) >= GS_SHA256_HEX_SIZE)
		goto bad;
	(*done)++;
	if (json_object_get(o, "span")) {
		json_int_t off = -1, sl = -1;
		if (!c->site_key || json_unpack(json_object_get(o, "span"), "[II]", &off, &sl) ||
		    off < 0 || sl <= 0)
			goto bad;
		c->span.off = (uint64_t)off;
		c->span.len = (uint64_t)sl;
	} else if (!json_is_integer(why) || json_integer_value(why) < 0 ||
		   S_why_read(f, (size_t)json_integer_value(why), &c->cur)) {
		goto bad;
	}
	json_array_foreach(json_object_get(o, "files"), m, fl)
		gs_util_strvec_push_dup(&c->cur.files, json_string_value(fl));
	if (c->site_key)
		snprintf(c->key, GS_SHA256_HEX_SIZE, "%s", key);
	return gs_site_one_finish(c, i);
bad:
	gs_publish_result_release(&c->cur);
	memset(&c->span, 0, sizeof(c->span));
	gs_error_set(c->err, "the report of a worker cannot be read");
	return -1;
}
