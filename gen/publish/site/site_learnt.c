/* site_learnt: what a site's validation learnt of each workload, spooled. */
#include "site_learnt.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Records loaded by a get that finds its record not loaded. */
#define S_RANGE 128

struct gs_site_learnt {
	gs_spool *s;        /* item j: a record, strings (S_ID, ...) */
	size_t n;           /* paths */
	/* path i's item: i while the records come in the paths' order, else
	 * item[i] (UINT32_MAX: not put) */
	uint32_t *item;
	size_t from, to;    /* items loaded */
};

/*
 * A record's strings: 0 id, 1 title, 2 SHA-256, 3 the stat fields ("":
 * none), then per cited file its path, name and SHA-256. A workload not
 * read: no strings.
 */
enum { S_ID, S_TITLE, S_SHA, S_STAT, S_EV };

void gs_site_learnt_input_release(gs_site_input *in)
{
	free(in->id);
	free(in->title);
	free(in->stat);
	gs_util_strvec_release(&in->ev_path);
	gs_util_strvec_release(&in->ev_file);
	gs_util_strvec_release(&in->ev_sha256);
	memset(in, 0, sizeof(*in));
}

gs_site_learnt *gs_site_learnt_new(const char *dir, size_t n, gs_error *err)
{
	gs_site_learnt *l;
	gs_spool *s;

	if (n >= UINT32_MAX) {
		gs_error_set(err, "%zu workloads: at most %u", n, UINT32_MAX - 1);
		return NULL;
	}
	s = gs_spool_new(dir, err);
	if (!s)
		return NULL;
	l = gs_xcalloc(1, sizeof(*l));
	l->s = s;
	l->n = n;
	return l;
}

size_t gs_site_learnt_paths(const gs_site_learnt *l)
{
	return l->n;
}

int gs_site_learnt_put(gs_site_learnt *l, size_t i, const gs_site_input *in, gs_error *err)
{
	size_t count = gs_spool_count(l->s), nv, k, j;
	char sha[GS_SHA256_HEX_SIZE];   /* (the spool takes char *const *) */
	char **v;
	int rc;

	if (i >= l->n || count >= l->n || (l->item && l->item[i] != UINT32_MAX) ||
	    (!l->item && i < count))
		GS_BUG("record of path %zu of %zu put again, or after %zu records", i, l->n, count);
	nv = in->id ? S_EV + 3 * in->ev_path.n : 0;
	v = gs_xcalloc(nv + 1, sizeof(*v));
	if (in->id) {
		v[S_ID] = in->id;
		v[S_TITLE] = in->title;
		memcpy(sha, in->sha256, sizeof(sha));
		v[S_SHA] = sha;
		v[S_STAT] = in->stat ? in->stat : (char *)"";
		for (k = 0; k < in->ev_path.n; k++) {
			v[S_EV + 3 * k] = in->ev_path.v[k];
			v[S_EV + 3 * k + 1] = in->ev_file.v[k];
			v[S_EV + 3 * k + 2] = in->ev_sha256.v[k];
		}
	}
	rc = gs_spool_put(l->s, v, nv, err);
	free(v);
	if (rc)
		return -1;
	if (!l->item && i != count) {
		/* out of the paths' order: an index per path from now on */
		l->item = gs_xmalloc((l->n + 1) * sizeof(*l->item));
		for (j = 0; j < l->n; j++)
			l->item[j] = j < count ? (uint32_t)j : UINT32_MAX;
	}
	if (l->item)
		l->item[i] = (uint32_t)count;
	return 0;
}

int gs_site_learnt_flush(gs_site_learnt *l, gs_error *err)
{
	return gs_spool_flush(l->s, err);
}

int gs_site_learnt_get(gs_site_learnt *l, size_t i, gs_site_learnt_item *it, gs_error *err)
{
	size_t count = gs_spool_count(l->s), j;

	j = l->item ? (i < l->n ? l->item[i] : UINT32_MAX) : i;
	if (i >= l->n || j >= count)
		GS_BUG("record of path %zu of %zu not put", i, l->n);
	if (j < l->from || j >= l->to) {
		size_t to = count - j < S_RANGE ? count : j + S_RANGE;
		l->from = l->to = 0;
		if (gs_spool_load(l->s, j, to, err))
			return -1;
		l->from = j;
		l->to = to;
	}
	memset(it, 0, sizeof(*it));
	it->spool = l->s;
	it->item = j;
	it->id = gs_spool_get(l->s, j, S_ID);
	if (!it->id) {
		it->sha256 = "";
		it->stat = "";
		return 0;
	}
	it->title = gs_spool_get(l->s, j, S_TITLE);
	it->sha256 = gs_spool_get(l->s, j, S_SHA);
	it->stat = gs_spool_get(l->s, j, S_STAT);
	it->nev = (gs_spool_size(l->s, j) - S_EV) / 3;
	if (!it->title || !it->sha256 || !it->stat) {
		gs_error_set(err, "cannot read a temporary file back: record %zu", i);
		return -1;
	}
	return 0;
}

static const char *S_ev(const gs_site_learnt_item *it, size_t k, size_t what)
{
	const char *s = k < it->nev ? gs_spool_get(it->spool, it->item, S_EV + 3 * k + what) : NULL;

	if (!s)
		GS_BUG("cited file %zu of %zu", k, it->nev);
	return s;
}

const char *gs_site_learnt_ev_path(const gs_site_learnt_item *it, size_t k)
{
	return S_ev(it, k, 0);
}

const char *gs_site_learnt_ev_file(const gs_site_learnt_item *it, size_t k)
{
	return S_ev(it, k, 1);
}

const char *gs_site_learnt_ev_sha256(const gs_site_learnt_item *it, size_t k)
{
	return S_ev(it, k, 2);
}

void gs_site_learnt_free(gs_site_learnt *l)
{
	if (!l)
		return;
	gs_spool_free(l->s);
	free(l->item);
	free(l);
}
