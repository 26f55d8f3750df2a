/* site: the pages' keys, and what the pages take from the site they replace. */
#define _DEFAULT_SOURCE
#include "site_ctx.h"

#include <errno.h>
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <nettle/sha2.h>

#include "evidence.h"
#include "sheet.h"
#include "site_results.h"
#include "util.h"

/*** pages ***/

void gs_site_pagekeys_hash_str(struct sha256_ctx *h, const char *s)
{
	sha256_update(h, strlen(s) + 1, (const uint8_t *)s); /* with its NUL: a separator */
}

static int S_by_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* "gpus/SLUG" of model name, without ".html". */
static char *S_slug(const char *name)
{
	size_t n = strlen(name), k = 0;
	char *s = gs_xmalloc(n + 6 + 4), *out;
	int dash = 0;

	for (; *name; name++) {
		unsigned char c = (unsigned char)*name;
		if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
			s[k++] = (char)c;
			dash = 0;
		} else if (c >= 'A' && c <= 'Z') {
			s[k++] = (char)(c - 'A' + 'a');
			dash = 0;
		} else if (!dash && k) {
			s[k++] = '-';
			dash = 1;
		}
	}
	if (k && s[k - 1] == '-')
		k--;
	if (!k) {
		memcpy(s, "gpu", 3);
		k = 3;
	}
	s[k] = '\0';
	out = gs_xasprintf("gpus/%s", s);
	free(s);
	return out;
}

/*
 * The GPU pages: one per GPU model of the catalog (pp->gpu_model, in byte
 * order), the page of each offer's model (pp->gpu_of) and each page's
 * name (pp->gpu_page): the model's name in lower case, every run of bytes
 * other than ASCII letters and digits one "-"; a name taken by an earlier
 * model (byte order) gets "-2", "-3", ...: the same catalog gives the same
 * names.
 */
static void S_gpus_setup(gs_site_pagekeys *pp, const gs_catalog *cat)
{
	const char **all = gs_xcalloc(cat->noffers + 1, sizeof(*all));
	size_t k, m, n = 0;

	for (k = 0; k < cat->noffers; k++)
		all[k] = cat->offers[k].gpu_model ? cat->offers[k].gpu_model : "";
	qsort(all, cat->noffers, sizeof(*all), S_by_str);
	for (k = 0; k < cat->noffers; k++)
		if (!n || strcmp(all[n - 1], all[k]) != 0)
			all[n++] = all[k];
	pp->gpu_model = all;
	pp->ngpus = n;
	pp->gpu_page = gs_xcalloc(n + 1, sizeof(*pp->gpu_page));
	for (m = 0; m < n; m++) {
		char *base = S_slug(all[m]), *name = gs_xasprintf("%s.html", base);
		unsigned long dup = 1;
		size_t j;
		for (j = 0; j < m; j++)
			if (strcmp(pp->gpu_page[j], name) == 0) {
				free(name);
				name = gs_xasprintf("%s-%lu.html", base, ++dup);
				j = (size_t)-1;  /* from the first again */
			}
		pp->gpu_page[m] = name;
		free(base);
	}
	pp->gpu_of = gs_xcalloc(cat->noffers + 1, sizeof(*pp->gpu_of));
	for (k = 0; k < cat->noffers; k++) {
		const char *g = cat->offers[k].gpu_model ? cat->offers[k].gpu_model : "";
		const char **hit = bsearch(&g, all, n, sizeof(*all), S_by_str);
		if (!hit)
			GS_BUG("GPU model %s not found", g);
		pp->gpu_of[k] = (size_t)(hit - all);
	}
}


/*
 * A reused sheet's line lies in the replaced site's keys file
 * (gs_site_span): it is copied into the new keys file as it is, and its
 * reasons parsed again only for a page that shows them and is rendered
 * again.
 */

/*
 * The key of page name showing a page of sheets (rows: the hash of their
 * keys, which hold the site key, so the catalog, templates, labels and
 * options) and nums (what it shows of the site as a whole: page counts,
 * counts per status, the demonstration flag).
 */
static void S_page_key(const char *name, const size_t *nums, size_t nn, const char *rows,
		       char hex[GS_SHA256_HEX_SIZE])
{
	struct sha256_ctx h;
	uint8_t dig[SHA256_DIGEST_SIZE];
	size_t i;

	sha256_init(&h);
	gs_site_pagekeys_hash_str(&h, GS_SITE_KEYS_FORMAT);
	gs_site_pagekeys_hash_str(&h, name);
	for (i = 0; i < nn; i++) {
		char num[32];
		snprintf(num, sizeof(num), "%zu", nums[i]);
		gs_site_pagekeys_hash_str(&h, num);
	}
	gs_site_pagekeys_hash_str(&h, rows);
	sha256_digest(&h, SHA256_DIGEST_SIZE, dig);
	gs_evidence_hex_encode(dig, SHA256_DIGEST_SIZE, hex);
}

/* Page t's name in the site (offers/ for a per-offer page). */
void gs_site_pagekeys_tuple_name(const gs_site_pagekeys *pp, size_t t, char *name, size_t len)
{
	size_t u = pp->npages * pp->ncols;

	if (t < u) {
		gs_site_nav_page_name(name, len, t / pp->ncols, t % pp->ncols);
	} else {
		char dn[128];
		u = t - u;
		gs_site_nav_detail_name(dn, sizeof(dn), pp->cat->offers[u % pp->noffers].id,
				    u / pp->noffers);
		snprintf(name, len, "offers/%s", dn);
	}
}

/*
 * Page t's key: an index page shows the counts of its offers, a per-offer
 * page the number of workloads; both the page numbers and the
 * demonstration flag.
 */
void gs_site_pagekeys_tuple_key(const gs_site_pagekeys *pp, size_t t, char hex[GS_SHA256_HEX_SIZE])
{
	size_t u = pp->npages * pp->ncols, page, c;
	char name[160], rows[GS_SHA256_HEX_SIZE];

	gs_site_pagekeys_tuple_name(pp, t, name, sizeof(name));
	if (t < u) {
		size_t col = t % pp->ncols, c0 = col * GS_SITE_PAGE_COLS, c1 = c0 + GS_SITE_PAGE_COLS;
		size_t *nums, nn = 6, k;
		page = t / pp->ncols;
		if (c1 > pp->ncolumns)
			c1 = pp->ncolumns;
		/* per column: its counts, its number of offers and each offer (the grouping) */
		nums = gs_xcalloc(6 + 4 * (c1 - c0) + (c1 > c0 ? pp->start[c1] - pp->start[c0] : 0) + 1,
				  sizeof(*nums));
		nums[0] = page;
		nums[1] = pp->npages;
		nums[2] = col;
		nums[3] = pp->ncols;
		nums[4] = pp->n;
		nums[5] = (size_t)pp->demonstration;
		for (c = c0; c < c1; c++) {
			memcpy(nums + nn, pp->counts[pp->order[pp->start[c]]], sizeof(pp->counts[0]));
			nn += 3;
			nums[nn++] = pp->start[c + 1] - pp->start[c];
			for (k = pp->start[c]; k < pp->start[c + 1]; k++)
				nums[nn++] = pp->order[k];
		}
		gs_site_results_rows(pp->rs, page, rows);
		S_page_key(name, nums, nn, rows, hex);
		free(nums);
	} else {
		size_t nums[4];
		page = (t - u) / pp->noffers;
		nums[0] = page;
		nums[1] = pp->npages;
		nums[2] = pp->n;
		nums[3] = (size_t)pp->demonstration;
		gs_site_results_rows(pp->rs, page, rows);
		S_page_key(name, nums, 4, rows, hex);
	}
}

/* A decimal of at most 9 digits, no leading 0, from *p; 0 (past it) or -1. */
static int S_dec(const char **p, size_t *v)
{
	size_t x = 0, d = 0;

	if (**p < '1' || **p > '9')
		return -1;
	for (; **p >= '0' && **p <= '9' && d < 9; (*p)++, d++)
		x = x * 10 + (size_t)(**p - '0');
	*v = x;
	return 0;
}

int gs_site_pagekeys_by_id(const void *a, const void *b)
{
	return strcmp(((const gs_site_idref *)a)->id, ((const gs_site_idref *)b)->id);
}

/*
 * The number of the page named name in this build (byid: the offers'
 * indexes sorted by id), or (size_t)-1: no page of this build has that
 * name. A name is taken only when it is exactly the one this build gives.
 */
static size_t S_tuple_of(const gs_site_pagekeys *pp, const gs_site_idref *byid, const char *name)
{
	char again[160];
	size_t t = (size_t)-1, page = 0, col = 0;
	const char *p = name;

	if (strncmp(name, "index", 5) == 0) {
		p += 5;
		if (*p == '-' && (p++, S_dec(&p, &page) || !page--))
			return (size_t)-1;
		if (*p == '-' && (p++, S_dec(&p, &col) || !col--))
			return (size_t)-1;
		if (page < pp->npages && col < pp->ncols)
			t = page * pp->ncols + col;
	} else if (strncmp(name, "offers/", 7) == 0 && pp->noffers) {
		size_t len = strlen(p += 7), lo = 0, hi = pp->noffers;
		const char *tilde = strrchr(p, '~');
		char id[128];
		if (len < 5 || strcmp(p + len - 5, ".html") != 0)
			return (size_t)-1;
		if (tilde) {
			const char *q = tilde + 1;
			if (S_dec(&q, &page) || page < 2 || strcmp(q, ".html") != 0)
				return (size_t)-1;
			page--;
			len = (size_t)(tilde - p);
		} else {
			len -= 5;
		}
		if (len >= sizeof(id))
			return (size_t)-1;
		memcpy(id, p, len);
		id[len] = '\0';
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			int c = strcmp(byid[mid].id, id);
			if (c == 0) {
				lo = mid;
				break;
			}
			if (c < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo < pp->noffers && strcmp(byid[lo].id, id) == 0 && page < pp->npages)
			t = pp->npages * pp->ncols + page * pp->noffers + byid[lo].i;
	}
	if (t == (size_t)-1)
		return t;
	gs_site_pagekeys_tuple_name(pp, t, again, sizeof(again));
	return strcmp(again, name) == 0 ? t : (size_t)-1;
}

/* What S_old_pages's reader hands each member to. */
typedef struct {
	gs_site_pagekeys *pp;
	const gs_site_idref *byid;
} S_old_page_arg;

static void S_old_page(void *arg, const char *name, const char *value)
{
	S_old_page_arg *a = arg;
	char key[GS_SHA256_HEX_SIZE];
	size_t t = S_tuple_of(a->pp, a->byid, name);

	if (t == (size_t)-1)
		return;
	gs_site_pagekeys_tuple_key(a->pp, t, key);
	if (strcmp(key, value) == 0)
		a->pp->reuse[t / 8] |= (unsigned char)(1u << (t % 8));
}

/*
 * The replaced keys file's pages' lines, read once in order, a line at a
 * time (gs_site_keys_pages: never loaded as a tree, their number grows with
 * the site): bit t of pp->reuse set for each page t of this build a line
 * names with the key this build gives it. A line that is not a page's
 * name and key leaves every bit clear (every page rendered).
 */
static void S_old_pages(gs_site_pagekeys *pp)
{
	gs_site_idref *byid = gs_xcalloc(pp->noffers + 1, sizeof(*byid));
	S_old_page_arg arg;
	size_t k;

	for (k = 0; k < pp->noffers; k++) {
		byid[k].id = pp->cat->offers[k].id;
		byid[k].i = k;
	}
	qsort(byid, pp->noffers, sizeof(*byid), gs_site_pagekeys_by_id);
	arg.pp = pp;
	arg.byid = byid;
	if (gs_site_keys_pages(pp->old, S_old_page, &arg, NULL) != 0)
		memset(pp->reuse, 0, pp->ntuples / 8 + 1);
	free(byid);
}

/* What the pages' keys need (gs_site_pagekeys), once the results are all in. */
void gs_site_pagekeys_setup(gs_site_pagekeys *pp, const gs_catalog *cat)
{
	pp->cat = cat;
	pp->n = gs_site_results_count(pp->rs);
	pp->demonstration = gs_site_results_demonstration(pp->rs);
	pp->counts = gs_site_results_counts(pp->rs);
	pp->noffers = cat->noffers;
	pp->npages = pp->n ? (pp->n + GS_SITE_PAGE_ROWS - 1) / GS_SITE_PAGE_ROWS : 1;
	/* the matrix's columns: one per lot of a GPU model (gs_site_figures_gpu_columns) */
	pp->order = gs_xcalloc(2 * pp->noffers + 2, sizeof(*pp->order));
	pp->start = pp->order + pp->noffers + 1;
	pp->ncolumns = gs_site_figures_gpu_columns(cat, pp->order, pp->start);
	S_gpus_setup(pp, cat);
	pp->ncols = pp->ncolumns ? (pp->ncolumns + GS_SITE_PAGE_COLS - 1) / GS_SITE_PAGE_COLS : 1;
	/* every page has a key when there is a workload, none without */
	pp->ntuples = pp->n ? pp->npages * (pp->ncols + pp->noffers) : 0;
	pp->reuse = gs_xcalloc(pp->ntuples / 8 + 1, 1);
	if (pp->keyed && pp->ntuples && pp->prev && pp->old && pp->old->f)
		S_old_pages(pp);
}

/*
 * Page t (named name): 1 when the replaced site has it under the key this
 * build gives it and it is linked from there into dir, else 0 (render it).
 */
int gs_site_pagekeys_page_reuse(gs_site_pagekeys *pp, const char *dir, const char *name, size_t t)
{
	int rc = 0;

	if (t >= pp->ntuples)
		GS_BUG("page %zu of %zu", t, pp->ntuples);
	if (pp->reuse[t / 8] & (1u << (t % 8))) {
		char *src = gs_xasprintf("%s/%s", pp->prev, name);
		char *dst = gs_xasprintf("%s/%s", dir, name);
		rc = link(src, dst) == 0;
		free(src);
		free(dst);
	}
	if (rc)
		pp->pages_reused++;
	else
		pp->pages_rendered++;
	return rc;
}

/*
 * The reasons of the reused sheets of [from, to) (loaded) from the replaced
 * keys file, for a page rendered again (gs_site_pagekeys_reason); 0 or -1 with err.
 */
int gs_site_pagekeys_why_page_load(gs_site_pagekeys *pp, size_t from, size_t to, gs_error *err)
{
	size_t i, k;

	gs_site_pagekeys_why_page_free(pp);
	if (pp->old_fd < 0)
		return 0;
	pp->why_page = gs_xcalloc(to - from + 1, sizeof(*pp->why_page));
	pp->why_from = from;
	pp->why_to = to;
	for (i = from; i < to; i++) {
		json_t *a;
		char *buf;
		gs_site_span sp = gs_site_results_span(pp->rs, i);
		size_t got = 0, n = (size_t)sp.len;
		if (!n)
			continue;
		buf = gs_xmalloc(n + 1);
		while (got < n) {
			ssize_t r = pread(pp->old_fd, buf + got, n - got, (off_t)(sp.off + got));
			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0)
				break;
			got += (size_t)r;
		}
		/* (the sheet's line, without its newline) */
		a = got == n && n > 1 ? json_loadb(buf, n - 1, 0, NULL) : NULL;
		free(buf);
		pp->why_page[i - from] = gs_xcalloc(pp->noffers + 1, sizeof(char *));
		k = (size_t)gs_site_one_why_strings(json_object_get(a, "why"), pp->noffers,
						    pp->why_page[i - from]);
		json_decref(a);
		if (k) {
			gs_error_set(err, "%s: cannot read the replaced keys file back",
				 GS_SITE_KEYS_FILE);
			return -1;
		}
	}
	return 0;
}

/* Offer k's reason for sheet i (its rows loaded): from the replaced keys file or the spool. */
const char *gs_site_pagekeys_reason(const gs_site_pagekeys *pp, size_t i, size_t k)
{
	if (pp->why_page && i >= pp->why_from && i < pp->why_to && pp->why_page[i - pp->why_from])
		return pp->why_page[i - pp->why_from][k];
	return gs_site_results_reason(pp->rs, i, k);
}

void gs_site_pagekeys_why_page_free(gs_site_pagekeys *pp)
{
	size_t i, k;

	for (i = 0; pp->why_page && i < pp->why_to - pp->why_from; i++) {
		for (k = 0; pp->why_page[i] && k < pp->noffers; k++)
			free(pp->why_page[i][k]);
		free(pp->why_page[i]);
	}
	free(pp->why_page);
	pp->why_page = NULL;
	pp->why_from = pp->why_to = 0;
}

void gs_site_pagekeys_release(gs_site_pagekeys *pp)
{
	size_t m;

	free(pp->order);
	free(pp->reuse);
	pp->order = NULL;
	pp->reuse = NULL;
	for (m = 0; m < pp->ngpus; m++)
		free(pp->gpu_page[m]);
	free(pp->gpu_page);
	free(pp->gpu_model);
	free(pp->gpu_of);
	pp->gpu_page = NULL;
	pp->gpu_model = NULL;
	pp->gpu_of = NULL;
	pp->ngpus = 0;
	gs_site_pagekeys_why_page_free(pp);
}
