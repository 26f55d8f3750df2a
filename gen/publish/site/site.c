/* site: the comparison site of many workloads against the catalog. */
#define _DEFAULT_SOURCE
#include "site.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <nettle/sha2.h>

#include "doc.h"
#include "evidence.h"
#include "jsonout.h"
#include "jsonscan.h"
#include "keysread.h"
#include "outfile.h"
#include "chart.h"
#include "render.h"
#include "shard.h"
#include "sheet.h"
#include "siteresults.h"
#include "util.h"
#include "workers.h"

/*
 * An entry's kind as lstat(2) would tell it, from the folder's own listing
 * where the file system gives it (d_type: no lstat per name), else lstat.
 * 'd' folder, 'f' regular file, 'o' anything else or gone.
 */
static char S_kind(const char *path, unsigned char type)
{
	struct stat st;

	switch (type) {
	case DT_DIR: return 'd';
	case DT_REG: return 'f';
	case DT_UNKNOWN: break;
	default: return 'o';
	}
	if (lstat(path, &st) != 0)
		return 'o';
	return S_ISDIR(st.st_mode) ? 'd' : S_ISREG(st.st_mode) ? 'f' : 'o';
}

/*
 * A JSON file not named workload.json that is a workload sheet all the same
 * (its first 4 KiB name the schema): skipped, and said so. Opened without
 * following a link or blocking; asked only of files outside every
 * workload's folder (inside one, a JSON file is evidence, read once, by its
 * sheet).
 */
static int S_looks_like_workload(const char *path)
{
	char buf[4097];
	struct stat st;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY);

	if (fd < 0)
		return 0;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return 0;
	}
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	return strstr(buf, "\"gpusheet-workload\"") != NULL;
}

static void S_skipped(gs_strvec *skipped, const char *dir, const char *path, const char *name,
		      char kind, int in_workload)
{
	size_t n = strlen(name);

	if (!skipped)
		return;
	if (strcmp(name, "workload.json") == 0 && kind != 'f' && kind != 'd')
		gs_strvec_push(skipped, gs_xasprintf("%s: not a regular file (a link is not "
						     "followed)", path));
	else if (!in_workload && kind == 'f' && n > 5 && strcmp(name + n - 5, ".json") == 0 &&
		 strcmp(name, "workload.json") != 0 && S_looks_like_workload(path))
		gs_strvec_push(skipped, gs_xasprintf("%s: a workload sheet not named "
						     "workload.json (the site reads one "
						     "workload.json a folder: move it to "
						     "%s/%.*s/workload.json)", path, dir,
						     (int)(n - 5), name));
}

/* The folders S_walk goes down from a --workloads folder. */
#define S_MAX_DEPTH 32

static int S_walk(const char *dir, gs_strvec *out, gs_strvec *skipped, gs_diag *d, int depth,
		  int in_workload)
{
	DIR *dp;
	struct dirent *e;
	gs_strvec names = GS_STRVEC_INIT;
	size_t i;

	/* a folder nested deeper is an error that names it, never dropped
	 * silently (links are not followed: no loop; the bound keeps the
	 * recursion and the paths short) */
	if (depth > S_MAX_DEPTH) {
		gs_diag_add(d, dir, 0, 0, NULL,
			    "folder too deep: more than %d folders under the --workloads folder, "
			    "not searched for workloads", S_MAX_DEPTH);
		return -1;
	}
	dp = opendir(dir);
	if (!dp) {
		gs_diag_add(d, dir, 0, 0, NULL, "cannot open the folder");
		return -1;
	}
	while ((e = readdir(dp)) != NULL) {
		size_t n = strlen(e->d_name);
		char *name;
		if (e->d_name[0] == '.')
			continue;
		/* "NAME\0T": sorted by NAME, with its d_type T after the NUL */
		name = gs_xmalloc(n + 2);
		memcpy(name, e->d_name, n + 1);
		name[n + 1] = (char)e->d_type;
		gs_strvec_push(&names, name);
	}
	closedir(dp);
	/* Sorted, so that the site does not depend on the file system's order. */
	gs_strvec_sort(&names);
	for (i = 0; i < names.n && !in_workload; i++)
		in_workload = strcmp(names.v[i], "workload.json") == 0;
	for (i = 0; i < names.n; i++) {
		const char *name = names.v[i];
		char *p = gs_xasprintf("%s/%s", dir, name);
		char kind = S_kind(p, (unsigned char)name[strlen(name) + 1]);
		if (kind == 'd') {
			S_walk(p, out, skipped, d, depth + 1, in_workload);
			free(p);
		} else if (kind == 'f' && strcmp(name, "workload.json") == 0) {
			gs_strvec_push(out, p);
		} else {
			S_skipped(skipped, dir, p, name, kind, in_workload);
			free(p);
		}
	}
	gs_strvec_release(&names);
	return 0;
}

int gs_site_find_workloads(const char *const *dirs, size_t ndirs, char ***paths,
			   size_t *npaths, gs_strvec *skipped, gs_diag *d)
{
	gs_strvec v = GS_STRVEC_INIT;
	size_t i, before = gs_diag_count(d), len = 0, at = 0;
	char *block;

	for (i = 0; i < ndirs; i++) {
		size_t n = strlen(dirs[i]);
		char *dir = gs_xstrdup(dirs[i]);
		while (n > 1 && dir[n - 1] == '/')
			dir[--n] = '\0';
		S_walk(dir, &v, skipped, d, 0, 0);
		free(dir);
	}
	/* end to end in one block, paths[0] at its start (gs_site_free_paths) */
	for (i = 0; i < v.n; i++)
		len += strlen(v.v[i]) + 1;
	*paths = gs_xcalloc(v.n + 1, sizeof(**paths));
	block = gs_xmalloc(len + 1);
	for (i = 0; i < v.n; i++) {
		size_t n = strlen(v.v[i]) + 1;
		(*paths)[i] = memcpy(block + at, v.v[i], n);
		at += n;
	}
	if (!v.n)
		free(block);
	gs_strvec_release(&v);
	*npaths = i;
	return gs_diag_count(d) > before ? -1 : 0;
}

void gs_site_free_paths(char **paths, size_t n)
{
	if (paths && n)
		free(paths[0]);
	free(paths);
}

/*** pages ***/

/*
 * A reused sheet's reasons lie in the replaced site's keys file
 * (gs_site_span): they are copied into the new keys file as they are, and
 * parsed only for a page that shows them and is rendered again.
 */

/*
 * What phase 2 (the pages) may take from the site it replaces. A page whose
 * key (S_page_key: the keys of the sheets it shows and the figures it
 * shows of the others) is the one recorded in the replaced site's keys file
 * is linked from there instead of rendered.
 *
 * The pages with a key, numbered (a "page number" t below): first the index
 * pages, t = page x ncols + col, then the per-offer pages, t = npages x
 * ncols + page x noffers + offer. A page's key is a function of its number,
 * of what was summed of all results (counts, demonstration) and of the hash
 * of its workloads' keys (gs_site_results_rows): computed again when
 * needed, never kept, so that no memory goes per page; what is kept of the
 * replaced keys file is a bit per page (its key is the one this build
 * gives it).
 */
typedef struct {
	gs_site_results *rs;      /* the sheets' results, keys and spans (siteresults.h) */
	int keyed;                /* 0: no page keys, render all */
	int old_fd;               /* the replaced keys file (the spans' bytes), or -1 */
	const gs_jscan_member *old_pages;  /* its "pages" object's bytes, or NULL */
	const char *prev;         /* the replaced site, or NULL */
	const gs_catalog *cat;
	size_t n, npages, ncols, noffers, ntuples;  /* ntuples: pages with a key */
	int demonstration;
	const size_t (*counts)[3];  /* gs_site_results_counts */
	size_t *order;            /* the matrix's column order (gs_site_offer_order) */
	unsigned char *reuse;     /* bit t: page t has the same key in the replaced keys file */
	size_t pages_reused, pages_rendered;  /* of those with a key */
	char ***why_page;         /* reasons of the reused sheets of the rows loaded: [i - why_from][k] */
	size_t why_from, why_to;
} S_pages;

static void S_hash_str(struct sha256_ctx *h, const char *s);
static int S_why_strings(json_t *why, size_t n, char **out);
static void S_page_name(char *buf, size_t len, size_t page, size_t col);
static void S_offer_detail_name(char *buf, size_t len, const char *id, size_t page);

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
	S_hash_str(&h, GS_SITE_KEYS_FORMAT);
	S_hash_str(&h, name);
	for (i = 0; i < nn; i++) {
		char num[32];
		snprintf(num, sizeof(num), "%zu", nums[i]);
		S_hash_str(&h, num);
	}
	S_hash_str(&h, rows);
	sha256_digest(&h, SHA256_DIGEST_SIZE, dig);
	gs_hex_encode(dig, SHA256_DIGEST_SIZE, hex);
}

/* Page t's name in the site (offers/ for a per-offer page). */
static void S_tuple_name(const S_pages *pp, size_t t, char *name, size_t len)
{
	size_t u = pp->npages * pp->ncols;

	if (t < u) {
		S_page_name(name, len, t / pp->ncols, t % pp->ncols);
	} else {
		char dn[128];
		u = t - u;
		S_offer_detail_name(dn, sizeof(dn), pp->cat->offers[u % pp->noffers].id,
				    u / pp->noffers);
		snprintf(name, len, "offers/%s", dn);
	}
}

/*
 * Page t's key: an index page shows the counts of its offers, a per-offer
 * page the number of workloads; both the page numbers and the
 * demonstration flag.
 */
static void S_tuple_key(const S_pages *pp, size_t t, char hex[GS_SHA256_HEX_SIZE])
{
	size_t u = pp->npages * pp->ncols, page, c;
	char name[160], rows[GS_SHA256_HEX_SIZE];

	S_tuple_name(pp, t, name, sizeof(name));
	if (t < u) {
		size_t col = t % pp->ncols, c0 = col * GS_SITE_PAGE_COLS, c1 = c0 + GS_SITE_PAGE_COLS;
		size_t *nums;
		page = t / pp->ncols;
		if (c1 > pp->noffers)
			c1 = pp->noffers;
		nums = gs_xcalloc(6 + 3 * (c1 - c0) + 1, sizeof(*nums));
		nums[0] = page;
		nums[1] = pp->npages;
		nums[2] = col;
		nums[3] = pp->ncols;
		nums[4] = pp->n;
		nums[5] = (size_t)pp->demonstration;
		for (c = c0; c < c1; c++)
			memcpy(nums + 6 + 3 * (c - c0), pp->counts[pp->order[c]], sizeof(pp->counts[0]));
		gs_site_results_rows(pp->rs, page, rows);
		S_page_key(name, nums, 6 + 3 * (c1 - c0), rows, hex);
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

/* An id (a sheet's, an offer's) and its index, to sort by id (strcmp, as jansson sorts keys). */
typedef struct {
	const char *id;
	size_t i;
} S_idref;

static int S_by_id(const void *a, const void *b)
{
	return strcmp(((const S_idref *)a)->id, ((const S_idref *)b)->id);
}

/*
 * The number of the page named name in this build (byid: the offers'
 * indexes sorted by id), or (size_t)-1: no page of this build has that
 * name. A name is taken only when it is exactly the one this build gives.
 */
static size_t S_tuple_of(const S_pages *pp, const S_idref *byid, const char *name)
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
	S_tuple_name(pp, t, again, sizeof(again));
	return strcmp(again, name) == 0 ? t : (size_t)-1;
}

/* What S_old_pages's reader hands each member to. */
typedef struct {
	S_pages *pp;
	const S_idref *byid;
} S_old_page_arg;

static void S_old_page(void *arg, const char *name, const char *value)
{
	S_old_page_arg *a = arg;
	char key[GS_SHA256_HEX_SIZE];
	size_t t = S_tuple_of(a->pp, a->byid, name);

	if (t == (size_t)-1)
		return;
	S_tuple_key(a->pp, t, key);
	if (strcmp(key, value) == 0)
		a->pp->reuse[t / 8] |= (unsigned char)(1u << (t % 8));
}

/*
 * The replaced keys file's "pages" object, read once in order, a member at
 * a time by gs_keys_read_pages (it is not loaded as a tree: its size grows
 * with the site): bit t of pp->reuse set for each page t of this build it
 * names with the key this build gives it. Anything that is not an object of names and strings
 * leaves every bit clear (every page rendered).
 */
static void S_old_pages(S_pages *pp, FILE *f)
{
	S_idref *byid = gs_xcalloc(pp->noffers + 1, sizeof(*byid));
	S_old_page_arg arg;
	size_t k;

	for (k = 0; k < pp->noffers; k++) {
		byid[k].id = pp->cat->offers[k].id;
		byid[k].i = k;
	}
	qsort(byid, pp->noffers, sizeof(*byid), S_by_id);
	arg.pp = pp;
	arg.byid = byid;
	if (fseeko(f, (off_t)pp->old_pages->off, SEEK_SET) != 0 ||
	    gs_keys_read_pages(f, pp->old_pages->len, S_old_page, &arg) != 0)
		memset(pp->reuse, 0, pp->ntuples / 8 + 1);
	free(byid);
}

/* What the pages' keys need (S_pages), once the results are all in. */
static void S_pages_setup(S_pages *pp, const gs_catalog *cat, FILE *old)
{
	pp->cat = cat;
	pp->n = gs_site_results_count(pp->rs);
	pp->demonstration = gs_site_results_demonstration(pp->rs);
	pp->counts = gs_site_results_counts(pp->rs);
	pp->noffers = cat->noffers;
	pp->npages = pp->n ? (pp->n + GS_SITE_PAGE_ROWS - 1) / GS_SITE_PAGE_ROWS : 1;
	pp->ncols = pp->noffers ? (pp->noffers + GS_SITE_PAGE_COLS - 1) / GS_SITE_PAGE_COLS : 1;
	/* every page has a key when there is a workload, none without */
	pp->ntuples = pp->n ? pp->npages * (pp->ncols + pp->noffers) : 0;
	pp->order = gs_xcalloc(pp->noffers + 1, sizeof(*pp->order));
	gs_site_offer_order(cat, pp->order);
	pp->reuse = gs_xcalloc(pp->ntuples / 8 + 1, 1);
	if (pp->keyed && pp->ntuples && pp->prev && pp->old_pages && old)
		S_old_pages(pp, old);
}

/*
 * Page t (named name): 1 when the replaced site has it under the key this
 * build gives it and it is linked from there into dir, else 0 (render it).
 */
static int S_page_reuse(S_pages *pp, const char *dir, const char *name, size_t t)
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
 * keys file, for a page rendered again (S_reason); 0 or -1 with err.
 */
static void S_why_page_free(S_pages *pp);
static int S_why_page_load(S_pages *pp, size_t from, size_t to, char *err, size_t errlen)
{
	size_t i, k;

	S_why_page_free(pp);
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
		a = got == n ? json_loadb(buf, n, 0, NULL) : NULL;
		free(buf);
		pp->why_page[i - from] = gs_xcalloc(pp->noffers + 1, sizeof(char *));
		k = (size_t)S_why_strings(a, pp->noffers, pp->why_page[i - from]);
		json_decref(a);
		if (k) {
			snprintf(err, errlen, "%s: cannot read the replaced keys file back",
				 GS_SITE_KEYS_FILE);
			return -1;
		}
	}
	return 0;
}

/* Offer k's reason for sheet i (its rows loaded): from the replaced keys file or the spool. */
static const char *S_reason(const S_pages *pp, size_t i, size_t k)
{
	if (pp->why_page && i >= pp->why_from && i < pp->why_to && pp->why_page[i - pp->why_from])
		return pp->why_page[i - pp->why_from][k];
	return gs_site_results_reason(pp->rs, i, k);
}

static void S_why_page_free(S_pages *pp)
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


static char *S_nav(const gs_strings *t, const char *prefix)
{
	char *out = NULL;
	size_t len = 0, cap = 0;

	gs_str_append(&out, &len, &cap, "<nav aria-label=\"");
	gs_html_escape_append(&out, &len, &cap, gs_tr(t, "site.nav"));
	gs_str_append(&out, &len, &cap, "\"><a href=\"");
	gs_str_append(&out, &len, &cap, prefix);
	gs_str_append(&out, &len, &cap, "index.html\">");
	gs_html_escape_append(&out, &len, &cap, gs_tr(t, "site.index"));
	gs_str_append(&out, &len, &cap, "</a><a href=\"");
	gs_str_append(&out, &len, &cap, prefix);
	gs_str_append(&out, &len, &cap, "offers.html\">");
	gs_html_escape_append(&out, &len, &cap, gs_tr(t, "site.offers"));
	gs_str_append(&out, &len, &cap, "</a><a href=\"");
	gs_str_append(&out, &len, &cap, prefix);
	gs_str_append(&out, &len, &cap, "evidence/manifest.json\">");
	gs_html_escape_append(&out, &len, &cap, gs_tr(t, "site.manifest"));
	gs_str_append(&out, &len, &cap, "</a></nav>");
	return out;
}

static const char *S_status_key(unsigned char s)
{
	return s == 0 ? "overall.retained" : s == 1 ? "overall.preselected"
	       : s == 2 ? "overall.excluded" : s == 4 ? "overall.reference" : "overall.not_compared";
}

static const char *S_status_symbol(unsigned char s)
{
	return gs_sheet_verdict_symbol(s == 0 ? GS_V_ADMISSIBLE : s == 1 ? GS_V_TO_CONFIRM
				       : s == 2 ? GS_V_EXCLUDE : GS_V_NOT_REQUIRED);
}

/* index.html, index-2.html (workload page 2), index-1-2.html (offer page 2), ... */
static void S_page_name(char *buf, size_t len, size_t page, size_t col)
{
	if (page == 0 && col == 0)
		snprintf(buf, len, "index.html");
	else if (col == 0)
		snprintf(buf, len, "index-%zu.html", page + 1);
	else
		snprintf(buf, len, "index-%zu-%zu.html", page + 1, col + 1);
}

/* offers.html, offers-2.html, ... */
static void S_offers_name(char *buf, size_t len, size_t page)
{
	if (page == 0)
		snprintf(buf, len, "offers.html");
	else
		snprintf(buf, len, "offers-%zu.html", page + 1);
}

/*
 * name_of for S_w_pager, the name of page i: index pages whose rows vary
 * (other = the column page) or whose columns vary, offers pages, and (see
 * S_detail_page) the pages of one offer (id).
 */
static void S_row_page(char *buf, size_t len, size_t i, size_t col, const char *id)
{
	(void)id;
	S_page_name(buf, len, i, col);
}

static void S_col_page(char *buf, size_t len, size_t i, size_t row, const char *id)
{
	(void)id;
	S_page_name(buf, len, row, i);
}

static void S_offer_page(char *buf, size_t len, size_t i, size_t other, const char *id)
{
	(void)other;
	(void)id;
	S_offers_name(buf, len, i);
}

/*** pages written as HTML directly ***/

/*
 * The index, offers and per-offer pages are written here as HTML, the
 * bytes their document tree gave (gs_doc, then doc_html.c) with the same
 * escaping (gs_html_text_append, gs_html_url_append): building a tree for
 * each page and walking it took about a tenth of a 200 x 50 site's CPU.
 * The layout is the one doc_html.c writes (a block ends with a newline,
 * a table's rows and cells each start on a new line), but for the rows of
 * a per-offer page, a line each (S_offer_detail_page).
 */
typedef struct {
	char *b;
	size_t n, cap;
} S_w;

#define S_LIT(w, lit) gs_mem_append(&(w)->b, &(w)->n, &(w)->cap, (lit), sizeof(lit) - 1)

static void S_w_raw(S_w *w, const char *s)
{
	gs_mem_append(&w->b, &w->n, &w->cap, s, strlen(s));
}

static void S_w_text(S_w *w, const char *s)
{
	gs_html_text_append(&w->b, &w->n, &w->cap, s);
}

/* gs_doc_textf's text, written directly (the same formatter: gs_vfmt, else vsnprintf). */
static void S_w_textf(S_w *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void S_w_textf(S_w *w, const char *fmt, ...)
{
	va_list ap;
	char small[256], *heap;

	va_start(ap, fmt);
	S_w_text(w, gs_vfmt_small(small, sizeof(small), &heap, fmt, ap));
	va_end(ap);
	free(heap);
}

static void S_w_num(S_w *w, uint64_t v)
{
	char d[GS_DEC_MAX], *p = gs_dec(d, v, 0);

	gs_mem_append(&w->b, &w->n, &w->cap, p, (size_t)(d + GS_DEC_MAX - p));
}

static void S_w_code(S_w *w, const char *s)
{
	S_LIT(w, "<code>");
	S_w_text(w, s);
	S_LIT(w, "</code>");
}

/* <a href="URL">, url as a whole (a link's href: the check of its scheme sees all of it). */
static void S_w_a(S_w *w, const char *url)
{
	S_LIT(w, "<a href=\"");
	gs_html_url_append(&w->b, &w->n, &w->cap, url);
	S_LIT(w, "\">");
}

static void S_w_para(S_w *w, const char *text)
{
	S_LIT(w, "<p>");
	S_w_text(w, text);
	S_LIT(w, "</p>\n");
}

static void S_w_h1(S_w *w, const char *text)
{
	S_LIT(w, "<h1>");
	S_w_text(w, text);
	S_LIT(w, "</h1>\n");
}

/* A table up to its header row's end; its body rows follow. */
static void S_w_table(S_w *w, const char *caption, const char *const *heads, size_t ncols)
{
	size_t j;

	S_LIT(w, "<table tabindex=\"0\">\n<caption>");
	S_w_text(w, caption);
	S_LIT(w, "</caption>\n<thead>\n<tr>");
	for (j = 0; j < ncols; j++) {
		S_LIT(w, "\n<th scope=\"col\">");
		S_w_text(w, heads[j]);
		S_LIT(w, "</th>");
	}
	S_LIT(w, "\n</tr>\n</thead>");
}

/* A body row's start (the first opens <tbody>), a cell's start, and the table's end. */
static void S_w_row(S_w *w, size_t *rows)
{
	if ((*rows)++)
		S_LIT(w, "\n</tr>\n<tr>");
	else
		S_LIT(w, "\n<tbody>\n<tr>");
}

static void S_w_td(S_w *w)
{
	S_LIT(w, "\n<td>");
}

static void S_w_table_end(S_w *w, size_t rows)
{
	if (rows)
		S_LIT(w, "\n</tr>\n</tbody>\n</table>\n");
	else
		S_LIT(w, "\n</table>\n");
}

static int S_cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return x < y ? -1 : x > y;
}

size_t gs_site_pager_pages(size_t cur, size_t n, size_t *pages)
{
	size_t k = 0, i, m, p, lo, hi;

	if (n <= GS_SITE_PAGER_ALL) {
		for (i = 0; i < n; i++)
			pages[i] = i;
		return n;
	}
	if (cur >= n)
		cur = n - 1;
	pages[k++] = 0;
	pages[k++] = n - 1;
	lo = cur > 2 ? cur - 2 : 0;
	hi = cur + 2 < n ? cur + 2 : n - 1;
	for (i = lo; i <= hi; i++)
		pages[k++] = i;
	/* page numbers from 1: the multiples of p in the block of 10 p holding cur + 1 */
	for (p = 10; p < n && p <= SIZE_MAX / 10; p *= 10) {
		size_t base = cur / (10 * p) * (10 * p);
		for (i = 1; i <= 10 && base + i * p <= n; i++)
			pages[k++] = base + i * p - 1;
	}
	/* at most 2 + 5 + 10 a scale, and fewer than 20 scales in a size_t */
	qsort(pages, k, sizeof(*pages), S_cmp_size);
	for (i = m = 0; i < k; i++)
		if (!m || pages[i] != pages[m - 1])
			pages[m++] = pages[i];
	return m;
}

/*
 * "LABEL k / n: 1 2 3" with links to the other pages (name_of(i, other,
 * id)); beyond GS_SITE_PAGER_ALL pages, those of gs_site_pager_pages with
 * "…" where pages are left out.
 */
static void S_w_pager(S_w *w, const char *label, size_t cur, size_t n,
		      void (*name_of)(char *, size_t, size_t, size_t, const char *), size_t other,
		      const char *id)
{
	size_t pages[GS_SITE_PAGER_MAX], np, j;

	if (n <= 1)
		return;
	np = gs_site_pager_pages(cur, n, pages);
	S_LIT(w, "<p>");
	S_w_text(w, label);
	S_LIT(w, " ");
	S_w_num(w, cur + 1);
	S_LIT(w, " / ");
	S_w_num(w, n);
	S_LIT(w, ": ");
	for (j = 0; j < np; j++) {
		size_t i = pages[j];
		char pn[160];
		if (j && i == pages[j - 1] + 1)
			S_LIT(w, " ");
		else if (j)
			S_LIT(w, " … ");
		if (i == cur) {
			S_LIT(w, "<strong>");
			S_w_num(w, i + 1);
			S_LIT(w, "</strong>");
		} else {
			name_of(pn, sizeof(pn), i, other, id);
			S_w_a(w, pn);
			S_w_num(w, i + 1);
			S_LIT(w, "</a>");
		}
	}
	S_LIT(w, "</p>\n");
}

/* Built with --accept-synthetic and some verdict rests on a synthetic file. */
static void S_w_demo(S_w *w, const gs_strings *t, int demonstration)
{
	if (!demonstration)
		return;
	S_LIT(w, "<blockquote>\n<p><strong>");
	S_w_text(w, gs_tr(t, "demo.title"));
	S_LIT(w, "</strong> ");
	S_w_text(w, gs_tr(t, "demo.site_body"));
	S_LIT(w, "</p>\n</blockquote>\n");
}

/*
 * The page: body (taken) in the page template, written to dir/name. root:
 * the relative path from dir to the site's root, "" or "../".
 */
static int S_w_page(const gs_publish_env *env, const char *dir, const char *name, S_w *body,
		    const char *title, const char *nav, const char *root, const char *script,
		    char *err, size_t errlen)
{
	char *html;
	int rc;

	gs_mem_append(&body->b, &body->n, &body->cap, "", 0);
	body->b[body->n] = '\0';
	html = gs_render_page(env->tp, env->t->lang, title, nav, root, body->b, script);
	free(body->b);
	memset(body, 0, sizeof(*body));
	if (!html) {
		snprintf(err, errlen, "cannot render %s", name);
		return -1;
	}
	rc = gs_write_atomic(dir, name, html, strlen(html), err, errlen);
	free(html);
	return rc;
}

/*** the matrix ***/

void gs_site_offer_counts(const gs_publish_result *res, size_t n, size_t noffers,
			  size_t (*counts)[3])
{
	size_t i, k;

	memset(counts, 0, noffers * sizeof(*counts));
	for (i = 0; i < n; i++)
		for (k = 0; k < noffers && k < res[i].noffers; k++)
			if (res[i].status[k] < 3)
				counts[k][res[i].status[k]]++;
}

/* Capacity per card the matrix groups offers by: declared, else nominal; unknown last. */
uint64_t gs_site_offer_memory(const gs_offer *o)
{
	return o->has_declared_bytes ? o->declared_bytes : !o->memory_unknown ? o->nominal_bytes
										 : UINT64_MAX;
}

#define S_offer_memory gs_site_offer_memory

typedef struct {
	uint64_t mem;
	size_t k;
} S_memkey;

static int S_by_memory(const void *a, const void *b)
{
	const S_memkey *x = a, *y = b;

	if (x->mem != y->mem)
		return x->mem < y->mem ? -1 : 1;
	return x->k < y->k ? -1 : x->k > y->k;
}

void gs_site_offer_order(const gs_catalog *cat, size_t *order)
{
	S_memkey *keys = gs_xcalloc(cat->noffers + 1, sizeof(*keys));
	size_t k;

	for (k = 0; k < cat->noffers; k++) {
		keys[k].mem = S_offer_memory(&cat->offers[k]);
		keys[k].k = k;
	}
	qsort(keys, cat->noffers, sizeof(*keys), S_by_memory);
	for (k = 0; k < cat->noffers; k++)
		order[k] = keys[k].k;
	free(keys);
}

/* A short title: at most GS_SITE_SHORT_TITLE bytes, cut on a character boundary. */
static char *S_short_title(const char *title, int *cut)
{
	size_t n = strlen(title), k;

	*cut = n > GS_SITE_SHORT_TITLE;
	if (!*cut)
		return gs_xstrdup(title);
	k = GS_SITE_SHORT_TITLE;
	while (k > 0 && ((unsigned char)title[k] & 0xC0) == 0x80)
		k--;
	return gs_xasprintf("%.*s…", (int)k, title);
}

static char *S_mem_group(const gs_strings *t, uint64_t mem);

/* (strlen of a literal is folded by the compiler: no scan) */
#define H(s) gs_mem_append(&out, &len, &cap, (s), strlen(s))
#define E(s) gs_html_escape_append(&out, &len, &cap, (s))

/* A literal appended to (o, l, c), its length counted by the compiler. */
#define S_OLIT(o, l, c, lit) gs_mem_append((o), (l), (c), (lit), sizeof(lit) - 1)

/* "1,234.00 USD (assumed)" or nothing when no plan is known. */
static void S_cost_html(char **o, size_t *l, size_t *c, const gs_strings *t,
			const gs_publish_result *pr, size_t k)
{
	char m[GS_FMT_MAX];

	if (!pr->currency[k])
		return;
	S_OLIT(o, l, c, "<span class=\"cost\">");
	gs_html_escape_append(o, l, c, gs_fmt_money(m, pr->cost[k], t->lang));
	S_OLIT(o, l, c, " ");
	gs_html_escape_append(o, l, c, pr->currency[k]);
	S_OLIT(o, l, c, "</span>");
}

/* The best-offer cell: the first retained and its cost, else the closest pre-selected and what it needs. */
static void S_best_html(char **o, size_t *l, size_t *c, const gs_strings *t,
			const gs_catalog *cat, const gs_publish_result *pr, const char *link)
{
	const char *id;
	int q, k = 0;

	if (pr->best == GS_PUBLISH_NO_BEST || pr->best >= cat->noffers) {
		gs_html_escape_append(o, l, c, gs_tr(t, "card.no_offer"));
		return;
	}
	id = cat->offers[pr->best].id;
	gs_str_append(o, l, c, "<a href=\"");
	gs_html_escape_append(o, l, c, link);
	gs_str_append(o, l, c, "#offer-");
	gs_html_escape_append(o, l, c, id);
	gs_str_append(o, l, c, "\"><code>");
	gs_html_escape_append(o, l, c, id);
	gs_str_append(o, l, c, "</code></a> ");
	gs_html_escape_append(o, l, c, S_status_symbol(pr->status[pr->best]));
	gs_str_append(o, l, c, " ");
	gs_html_escape_append(o, l, c, gs_tr(t, S_status_key(pr->status[pr->best])));
	gs_str_append(o, l, c, "<br>");
	gs_html_escape_append(o, l, c, gs_tr(t, "col.total_cost"));
	gs_str_append(o, l, c, ": ");
	if (pr->currency[pr->best]) {
		S_cost_html(o, l, c, t, pr, pr->best);
		gs_str_append(o, l, c, " (");
		gs_html_escape_append(o, l, c, gs_tr(t, "prov.assumed"));
		gs_str_append(o, l, c, ")");
	} else {
		gs_html_escape_append(o, l, c, gs_tr(t, "word.missing"));
	}
	if (!pr->best_missing)
		return;
	gs_str_append(o, l, c, "<br>");
	gs_html_escape_append(o, l, c, gs_tr(t, "site.still_needs"));
	gs_str_append(o, l, c, " ");
	for (q = 0; q < GS_REQ_COUNT; q++)
		if (pr->best_missing & (1u << q)) {
			if (k++)
				gs_str_append(o, l, c, ", ");
			gs_html_escape_append(o, l, c, gs_sheet_req_label(t, (gs_req)q));
		}
}

/* For matrix.js: data-l-NAME (attribute) = label key. */
static const char *const S_js_labels[][2] = {
	{ "all", "site.js_all" }, { "decision", "site.col_decision" },
	{ "filter", "site.js_filter" }, { "mem", "site.js_min_mem" },
	{ "none", "site.none" }, { "preselected", "site.preselection" },
	{ "retained", "site.retained" }, { "shown", "site.js_shown" },
	{ "sort", "site.js_sort" }, { "text", "site.js_text" },
};

/*
 * What matrix.js sorts by: an offer's cell <td class="vS"> (the verdict,
 * also its colour: no other attribute repeats it on every cell), the best
 * offer's <td class="best" data-v="S">; data-cost="HUNDREDTHS" when known.
 */
static void S_td_open(char **o, size_t *l, size_t *c, int best, unsigned st,
		      const gs_publish_result *pr, size_t k)
{
	char d[GS_DEC_MAX], *p;

	if (best) {
		S_OLIT(o, l, c, "<td class=\"best\" data-v=\"");
		p = gs_dec(d, st, 0);
		gs_mem_append(o, l, c, p, (size_t)(d + GS_DEC_MAX - p));
		S_OLIT(o, l, c, "\"");
	} else {
		char v[14] = "<td class=\"vS\"";
		v[12] = (char)('0' + (st <= 4 ? st : 3));
		gs_mem_append(o, l, c, v, 14);
	}
	if (k < pr->noffers && pr->currency[k]) {
		int64_t v = pr->cost[k];
		uint64_t mag = gs_i64_mag(v);
		S_OLIT(o, l, c, " data-cost=\"");
		p = gs_dec(d, mag, v < 0);
		gs_mem_append(o, l, c, p, (size_t)(d + GS_DEC_MAX - p));
		S_OLIT(o, l, c, "\"");
	}
	S_OLIT(o, l, c, ">");
}

/*
 * The matrix of one index page as HTML built here (every user string
 * escaped): a table in its own scrolling box, sticky header row and first
 * column, a best-offer column and a footer row per verdict with how many
 * workloads each offer gets.
 */
static void S_matrix_html(S_w *w, const gs_publish_env *env, const gs_site_results *rs,
			  size_t from, size_t to, const size_t *cols, size_t ncols,
			  const size_t (*counts)[3])
{
	const gs_strings *t = env->t;
	const gs_catalog *cat = env->cat;
	char *out = w->b;
	size_t len = w->n, cap = w->cap, i, j, g;
	int s;
	static const char *const foot[3] = { "site.foot_retained", "site.foot_preselected",
					     "site.foot_excluded" };

	H("<div class=\"matrix-box\" role=\"region\" tabindex=\"0\" aria-labelledby=\"matrix-caption\">\n");
	/* Labels of matrix.js's controls, in the page's language. */
	H("<table class=\"matrix\" id=\"matrix\"");
	for (j = 0; j < sizeof(S_js_labels) / sizeof(S_js_labels[0]); j++) {
		H(" data-l-");
		H(S_js_labels[j][0]);
		H("=\"");
		E(gs_tr(t, S_js_labels[j][1]));
		H("\"");
	}
	H(">\n<caption id=\"matrix-caption\">");
	E(gs_tr(t, "site.cap_matrix"));
	H("</caption>\n");
	/*
	 * Offers grouped by memory per card (cols come in that order): a
	 * <colgroup> and a heading cell (scope="colgroup") per group above the
	 * offers' row; the workload and best-offer headings span both rows.
	 */
	H("<colgroup span=\"2\"></colgroup>");
	for (j = 0; j < ncols; j = g) {
		char b[64];
		for (g = j + 1; g < ncols && S_offer_memory(&cat->offers[cols[g]]) ==
					      S_offer_memory(&cat->offers[cols[j]]); g++)
			;
		snprintf(b, sizeof(b), "<colgroup span=\"%zu\"></colgroup>", g - j);
		H(b);
	}
	H("\n<thead>\n<tr class=\"groups\"><th scope=\"col\" rowspan=\"2\" class=\"wl\">");
	E(gs_tr(t, "site.col_workload"));
	H("</th><th scope=\"col\" rowspan=\"2\" class=\"best\">");
	E(gs_tr(t, "site.col_best"));
	H("</th>");
	for (j = 0; j < ncols; j = g) {
		char b[96], *label;
		for (g = j + 1; g < ncols && S_offer_memory(&cat->offers[cols[g]]) ==
					      S_offer_memory(&cat->offers[cols[j]]); g++)
			;
		snprintf(b, sizeof(b), "<th scope=\"colgroup\" colspan=\"%zu\" class=\"group\">",
			 g - j);
		H(b);
		label = S_mem_group(t, S_offer_memory(&cat->offers[cols[j]]));
		E(label);
		free(label);
		H("</th>");
	}
	H("</tr>\n<tr>");
	for (j = 0; j < ncols; j++) {
		const gs_offer *o = &cat->offers[cols[j]];
		char mem[GS_FMT_MAX];
		H("<th scope=\"col\"");
		if (S_offer_memory(o) != UINT64_MAX) {
			char b[48];
			snprintf(b, sizeof(b), " data-mem=\"%llu\"", (unsigned long long)S_offer_memory(o));
			H(b);
		}
		H("><a href=\"offers/");
		E(o->id);
		H(".html\"><code>");
		E(o->id);
		H("</code></a><br><span class=\"sub\">");
		E(o->gpu_model);
		H(", ");
		E(gs_offer_memory_label(o, gs_tr(t, "word.missing"), mem, sizeof(mem)));
		H("</span></th>");
	}
	H("</tr>\n</thead>\n<tbody>\n");
	for (i = from; i < to; i++) {
		const gs_publish_result *pr = gs_site_results_get(rs, i);
		char *link = gs_xasprintf("sheets/%s.html", pr->id);
		int cut;
		char *shrt = S_short_title(pr->title, &cut);
		H("<tr data-decision=\"");
		H(pr->nretained ? "0" : pr->npreselected ? "1" : "2");
		H("\" data-id=\"");
		E(pr->id);
		H("\"><th scope=\"row\" class=\"wl\"><a href=\"");
		E(link);
		H("\"><code>");
		E(pr->id);
		H("</code> ");
		E(shrt);
		H("</a>");
		if (cut) {
			H("<span class=\"sub full\">");
			E(pr->title);
			H("</span>");
		}
		H("<span class=\"sub\">");
		E(gs_tr(t, "site.col_decision"));
		H(": ");
		E(gs_tr(t, pr->nretained ? "site.retained" : pr->npreselected ? "site.preselection"
				 : "site.none"));
		if (pr->demonstration) {
			H(" (");
			E(gs_tr(t, "demo.short"));
			H(")");
		} else if (pr->synthetic) {
			H(" (");
			E(gs_tr(t, "synthetic.short"));
			H(")");
		}
		H("</span></th>");
		S_td_open(&out, &len, &cap, 1, pr->best < pr->noffers ? pr->status[pr->best] : 3,
			  pr, pr->best);
		S_best_html(&out, &len, &cap, t, cat, pr, link);
		H("</td>");
		for (j = 0; j < ncols; j++) {
			size_t k = cols[j];
			unsigned st = k < pr->noffers ? pr->status[k] : 3;
			S_td_open(&out, &len, &cap, 0, st, pr, k);
			if (st == 3) {
				E(S_status_symbol(3));
				H(" ");
				E(gs_tr(t, S_status_key(3)));
				H("</td>");
				continue;
			}
			H("<a href=\"");
			E(link);
			H("#offer-");
			E(cat->offers[k].id);
			H("\">");
			E(S_status_symbol(st));
			H(" ");
			E(gs_tr(t, S_status_key(st)));
			H("</a>");
			if (pr->currency[k]) {
				H("<br>");
				S_cost_html(&out, &len, &cap, t, pr, k);
			}
			H("</td>");
		}
		H("</tr>\n");
		free(shrt);
		free(link);
	}
	H("</tbody>\n<tfoot>\n");
	for (s = 0; s < 3; s++) {
		H("<tr><th scope=\"row\" colspan=\"2\" class=\"wl\">");
		E(S_status_symbol((unsigned char)s));
		H(" ");
		E(gs_tr(t, foot[s]));
		H("</th>");
		for (j = 0; j < ncols; j++) {
			char num[GS_FMT_MAX];
			H("<td>");
			E(gs_fmt_int(num, counts[cols[j]][s], t->lang));
			H("</td>");
		}
		H("</tr>\n");
	}
	H("</tfoot>\n</table>\n</div>\n");
	w->b = out;
	w->n = len;
	w->cap = cap;
}

#undef H
#undef E

/* One page of the matrix: workloads [from, to) (loaded) x offers cols[c0, c1) (memory order). */
static int S_index_page(const gs_publish_env *env, const gs_site_results *rs, size_t n,
			const size_t *order, const size_t (*counts)[3],
			size_t page, size_t npages, size_t col, size_t ncols, const char *dir,
			const char *nav, int demonstration, char *err, size_t errlen)
{
	const gs_strings *t = env->t;
	const gs_catalog *cat = env->cat;
	size_t from = page * GS_SITE_PAGE_ROWS, to = from + GS_SITE_PAGE_ROWS;
	size_t c0 = col * GS_SITE_PAGE_COLS, c1 = c0 + GS_SITE_PAGE_COLS;
	S_w w = { 0 };
	char name[64];

	if (to > n)
		to = n;
	if (c1 > cat->noffers)
		c1 = cat->noffers;
	S_w_h1(&w, gs_tr(t, "site.title"));
	S_w_demo(&w, t, demonstration);
	S_w_para(&w, gs_tr(t, "site.intro"));
	S_LIT(&w, "<p>");
	S_w_text(&w, gs_tr(t, "site.legend"));
	{
		/* each status in order: its symbol and word */
		unsigned char st;
		for (st = 0; st <= 4; st++) {
			if (st)
				S_LIT(&w, ", ");
			else
				S_LIT(&w, " ");
			S_w_text(&w, S_status_symbol(st));
			S_LIT(&w, " ");
			S_w_text(&w, gs_tr(t, S_status_key(st)));
		}
	}
	S_LIT(&w, ".</p>\n");
	S_w_para(&w, gs_tr(t, "site.matrix_help"));
	S_w_pager(&w, gs_tr(t, "site.page"), page, npages, S_row_page, col, NULL);
	S_w_pager(&w, gs_tr(t, "site.offers"), col, ncols, S_col_page, page, NULL);
	if (!n)
		S_w_para(&w, gs_tr(t, "site.empty"));
	else
		S_matrix_html(&w, env, rs, from, to, order + c0, c1 - c0, counts);
	S_page_name(name, sizeof(name), page, col);
	return S_w_page(env, dir, name, &w, gs_tr(t, "site.title"), nav, "", n ? "matrix.js" : NULL,
			err, errlen);
}

/*
 * The workload x offer matrix, paginated both ways: GS_SITE_PAGE_ROWS
 * workloads by GS_SITE_PAGE_COLS offers a page, so that no page grows with
 * the catalog or the number of workloads. Offers go in order of memory per
 * card (gs_site_offer_order), so that a page groups like cards. The
 * results are read back a page of workloads at a time; the footers' counts
 * were summed as they came (siteresults.h).
 */
static int S_index_pages(const gs_publish_env *env, gs_site_results *rs, size_t n,
			 const char *dir, const char *nav, int demonstration, S_pages *pp,
			 char *err, size_t errlen)
{
	size_t npages = n ? (n + GS_SITE_PAGE_ROWS - 1) / GS_SITE_PAGE_ROWS : 1;
	size_t noff = env->cat->noffers;
	size_t ncols = noff ? (noff + GS_SITE_PAGE_COLS - 1) / GS_SITE_PAGE_COLS : 1;
	size_t page, col;
	size_t *order = gs_xcalloc(noff + 1, sizeof(*order));
	const size_t (*counts)[3] = gs_site_results_counts(rs);
	int rc = 0;

	/* Sorting and filters (templates/matrix.js), optional: the pages are complete without. */
	if (gs_write_atomic(dir, "matrix.js", env->tp->script, strlen(env->tp->script), err, errlen)) {
		free(order);
		return -1;
	}
	gs_site_offer_order(env->cat, order);
	for (page = 0; page < npages && !rc; page++) {
		size_t from = page * GS_SITE_PAGE_ROWS < n ? page * GS_SITE_PAGE_ROWS : n;
		size_t to = (page + 1) * GS_SITE_PAGE_ROWS < n ? (page + 1) * GS_SITE_PAGE_ROWS : n;
		for (col = 0; col < ncols && !rc; col++) {
			if (pp->keyed && from < to) {
				/* its key: S_tuple_key */
				char name[64];
				S_page_name(name, sizeof(name), page, col);
				if (S_page_reuse(pp, dir, name, page * ncols + col))
					continue;
			}
			/* the page's results read back, once for its columns */
			rc = gs_site_results_load(rs, from, to, 0, err, errlen);
			if (!rc)
				rc = S_index_page(env, rs, n, order, counts, page,
					  npages, col, ncols, dir, nav, demonstration, err, errlen);
		}
	}
	free(order);
	return rc ? -1 : 0;
}

int gs_site_gib_day(const gs_plan *p, uint64_t bytes_per_card, uint64_t cards, uint64_t *q)
{
	/* price x 2^30 x 24 / (bytes x cards x hours), in ten-thousandths:
	 * millionths x 2^30 x 24 / (bytes x cards x hours x 100), half up */
	unsigned __int128 num, den, r;
	int64_t micro = gs_plan_micro(p);

	if (micro < 0)
		return -1;
	num = (unsigned __int128)(uint64_t)micro * GS_GIB * 24u;
	den = (unsigned __int128)bytes_per_card * cards * p->hours * 100u;
	if (!den)
		return -1;
	r = (num + den / 2) / den;
	if (r > UINT64_MAX)
		return -1;
	*q = (uint64_t)r;
	return 0;
}

/* v ten-thousandths with four decimals: "0.7030", "0,7030". */
static char *S_fmt_q4(char *buf, size_t len, uint64_t v, gs_lang lang)
{
	char whole[GS_FMT_MAX];

	gs_fmt_int(whole, v / 10000u, lang);
	if (snprintf(buf, len, "%s%c%04u", whole, lang == GS_LANG_ES ? ',' : '.',
		     (unsigned)(v % 10000u)) >= (int)len)
		snprintf(buf, len, "?");
	return buf;
}

/* price per GiB and day, four decimals (gs_site_gib_day), or "?". */
static void S_cost_per_gib_day(char *buf, size_t len, const gs_plan *p, uint64_t bytes,
			       uint64_t cards, gs_lang lang)
{
	uint64_t q;

	if (gs_site_gib_day(p, bytes, cards, &q))
		snprintf(buf, len, "?");
	else
		S_fmt_q4(buf, len, q, lang);
}

typedef struct {
	const gs_offer *o;
	size_t k;
} S_groupkey;

static int S_by_group(const void *a, const void *b)
{
	const S_groupkey *x = a, *y = b;
	int c;

	/* Offers without a provider (reference entries) after those with one. */
	if (!x->o->provider != !y->o->provider)
		return x->o->provider ? -1 : 1;
	if (x->o->provider && (c = strcmp(x->o->provider, y->o->provider)) != 0)
		return c;
	if ((c = strcmp(x->o->gpu_model, y->o->gpu_model)) != 0)
		return c;
	return x->k < y->k ? -1 : x->k > y->k;
}

gs_archive *gs_site_archive(const char *dir, char *err, size_t errlen)
{
	gs_archive *a = gs_evidence_archive(dir);

	if (!a || gs_archive_error(a)) {
		snprintf(err, errlen, "%s", a ? gs_archive_error(a) : "cannot open the evidence archive");
		if (a)
			gs_archive_free(a);
		return NULL;
	}
	gs_archive_always_manifest(a);
	return a;
}

void gs_site_offer_groups(const gs_catalog *cat, size_t *order)
{
	S_groupkey *keys = gs_xcalloc(cat->noffers + 1, sizeof(*keys));
	size_t k;

	for (k = 0; k < cat->noffers; k++) {
		keys[k].o = &cat->offers[k];
		keys[k].k = k;
	}
	qsort(keys, cat->noffers, sizeof(*keys), S_by_group);
	for (k = 0; k < cat->noffers; k++)
		order[k] = keys[k].k;
	free(keys);
}

/* Same provider (both NULL counts as same) and same GPU model. */
static int S_same_group(const gs_offer *a, const gs_offer *b)
{
	if (!a->provider != !b->provider)
		return 0;
	if (a->provider && strcmp(a->provider, b->provider) != 0)
		return 0;
	return strcmp(a->gpu_model, b->gpu_model) == 0;
}

/*** the offers page's charts ***/

void gs_site_chart_data_release(gs_site_chart_data *d)
{
	size_t i;

	for (i = 0; i < d->nseries; i++)
		free(d->series[i].pts);
	free(d->series);
	free(d->missing);
	free(d->why);
	memset(d, 0, sizeof(*d));
}

static void S_missing(gs_site_chart_data *d, size_t k, enum gs_site_why why, size_t cap)
{
	if (!d->missing) {
		d->missing = gs_xcalloc(cap + 1, sizeof(*d->missing));
		d->why = gs_xcalloc(cap + 1, 1);
	}
	d->missing[d->nmissing] = k;
	d->why[d->nmissing++] = (unsigned char)why;
}

/* The series of currency cur (created in byte order of currencies); room for cap points. */
static gs_site_series *S_series(gs_site_chart_data *d, const char *cur, size_t cap)
{
	size_t i, j;

	for (i = 0; i < d->nseries; i++) {
		int c = strcmp(d->series[i].currency, cur);
		if (c == 0)
			return &d->series[i];
		if (c > 0)
			break;
	}
	d->series = gs_xrealloc(d->series, (d->nseries + 1) * sizeof(*d->series));
	for (j = d->nseries; j > i; j--)
		d->series[j] = d->series[j - 1];
	d->nseries++;
	d->series[i].currency = cur;
	d->series[i].pts = gs_xcalloc(cap + 1, sizeof(*d->series[i].pts));
	d->series[i].n = 0;
	return &d->series[i];
}

typedef struct {
	gs_site_point p;
	uint64_t mem;             /* 0 for the cost per GiB-day: order by value alone */
	size_t pos;               /* order of arrival (page order) */
} S_sortpt;

static int S_by_mem_value(const void *a, const void *b)
{
	const S_sortpt *x = a, *y = b;

	if (x->mem != y->mem)
		return x->mem < y->mem ? -1 : 1;
	if (x->p.value != y->p.value)
		return x->p.value < y->p.value ? -1 : 1;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

/* Sort each series' points (memory, then value, then arrival). */
static void S_series_sort(gs_site_chart_data *d, const gs_catalog *cat, int by_memory)
{
	size_t i, j;

	for (i = 0; i < d->nseries; i++) {
		gs_site_series *s = &d->series[i];
		S_sortpt *v = gs_xcalloc(s->n + 1, sizeof(*v));
		for (j = 0; j < s->n; j++) {
			v[j].p = s->pts[j];
			v[j].mem = by_memory ? gs_site_offer_memory(&cat->offers[s->pts[j].offer]) : 0;
			v[j].pos = j;
		}
		qsort(v, s->n, sizeof(*v), S_by_mem_value);
		for (j = 0; j < s->n; j++)
			s->pts[j] = v[j].p;
		free(v);
	}
}

void gs_site_gib_day_data(const gs_catalog *cat, const size_t *offers, size_t n,
			  gs_site_chart_data *out)
{
	size_t i, p, nplans = 0;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < n; i++)
		nplans += cat->offers[offers[i]].nplans;
	for (i = 0; i < n; i++) {
		const gs_offer *o = &cat->offers[offers[i]];
		uint64_t mem = gs_site_offer_memory(o);
		if (!o->nplans) {
			S_missing(out, offers[i], GS_SITE_NO_PRICE, n);
			continue;
		}
		if (mem == UINT64_MAX) {
			S_missing(out, offers[i], GS_SITE_NO_MEMORY, n);
			continue;
		}
		for (p = 0; p < o->nplans; p++) {
			gs_site_series *s;
			uint64_t q;
			if (gs_site_gib_day(&o->plans[p], mem, o->cards, &q))
				continue;  /* zero hours or cards: refused by the catalog reader */
			s = S_series(out, o->plans[p].currency, nplans);
			s->pts[s->n].offer = offers[i];
			s->pts[s->n].plan = p;
			s->pts[s->n].value = q;
			s->pts[s->n++].status = 3;
		}
	}
	S_series_sort(out, cat, 0);
}

void gs_site_campaign_data(const gs_catalog *cat, const size_t *offers, size_t n,
			   const gs_publish_result *ref, gs_site_chart_data *out)
{
	size_t i, p, nplans = 0;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < n; i++)
		nplans += cat->offers[offers[i]].nplans + 1;
	for (i = 0; i < n; i++) {
		size_t k = offers[i];
		const gs_offer *o = &cat->offers[k];
		gs_site_series *s;
		if (ref) {
			unsigned st = k < ref->noffers ? ref->status[k] : 3;
			if (st == 4) {
				/* a reference card: no priced plan, or no provider */
				S_missing(out, k, o->nplans ? GS_SITE_NO_COST : GS_SITE_NO_PRICE, n);
				continue;
			}
			if (st > 2) {
				S_missing(out, k, GS_SITE_NOT_COMPARED, n);
				continue;
			}
			if (!ref->currency || !ref->cost || !ref->currency[k] || ref->cost[k] < 0) {
				S_missing(out, k, o->nplans ? GS_SITE_NO_COST : GS_SITE_NO_PRICE, n);
				continue;
			}
			s = S_series(out, ref->currency[k], nplans);
			s->pts[s->n].offer = k;
			s->pts[s->n].plan = 0;
			s->pts[s->n].value = (uint64_t)ref->cost[k];
			s->pts[s->n++].status = (unsigned char)st;
			continue;
		}
		if (!o->nplans) {
			S_missing(out, k, GS_SITE_NO_PRICE, n);
			continue;
		}
		/* the cheapest hourly price per currency: price x 100 / hours, half up */
		for (p = 0; p < o->nplans; p++) {
			const gs_plan *pl = &o->plans[p];
			unsigned __int128 r;
			uint64_t v;
			size_t j;
			if (!pl->hours || gs_plan_micro(pl) < 0)
				continue;
			/* ten-thousandths per hour: millionths / 100 / hours, half up */
			r = ((unsigned __int128)(uint64_t)gs_plan_micro(pl) + (unsigned __int128)pl->hours * 50u) /
			    ((unsigned __int128)pl->hours * 100u);
			if (r > UINT64_MAX / 4)
				continue;  /* beyond what a chart draws; the table still gives the plan */
			v = (uint64_t)r;
			s = S_series(out, pl->currency, nplans);
			for (j = 0; j < s->n && s->pts[j].offer != k; j++)
				;
			if (j < s->n) {
				if (v < s->pts[j].value) {
					s->pts[j].value = v;
					s->pts[j].plan = p;
				}
				continue;
			}
			s->pts[s->n].offer = k;
			s->pts[s->n].plan = p;
			s->pts[s->n].value = v;
			s->pts[s->n++].status = 3;
		}
	}
	S_series_sort(out, cat, 1);
}

/* "74.51 GiB per card", or "memory per card unknown". */
static char *S_mem_group(const gs_strings *t, uint64_t mem)
{
	char g[GS_FMT_MAX];

	if (mem == UINT64_MAX)
		return gs_xstrdup(gs_tr(t, "site.mem_unknown"));
	return gs_xasprintf("%s %s", gs_fmt_gib(g, mem, t->lang), gs_tr(t, "site.per_card"));
}

static const char *S_why_key(unsigned char why)
{
	switch (why) {
	case GS_SITE_NO_PRICE: return "site.no_price";
	case GS_SITE_NO_MEMORY: return "site.no_memory_figure";
	case GS_SITE_NOT_COMPARED: return "site.ref_not_compared";
	default: return "site.ref_no_cost";
	}
}

/* The same, leading a list under the charts. */
static const char *S_why_list_key(unsigned char why)
{
	switch (why) {
	case GS_SITE_NO_PRICE: return "site.list_no_price";
	case GS_SITE_NO_MEMORY: return "site.list_no_memory";
	case GS_SITE_NOT_COMPARED: return "site.list_not_compared";
	default: return "site.list_no_cost";
	}
}

/* "No price known: a, b." then "No memory figure, ...: c." under a chart. */
static void S_missing_para(S_w *w, const gs_strings *t, const gs_catalog *cat,
			   const gs_site_chart_data *d)
{
	unsigned char y;
	size_t i;

	for (y = 0; y <= GS_SITE_NO_COST; y++) {
		int open = 0;
		for (i = 0; i < d->nmissing; i++) {
			if (d->why[i] != y)
				continue;
			if (!open++) {
				S_LIT(w, "<p>");
				S_w_text(w, gs_tr(t, S_why_list_key(y)));
				S_LIT(w, ": ");
			} else {
				S_LIT(w, ", ");
			}
			S_w_code(w, cat->offers[d->missing[i]].id);
		}
		if (open)
			S_LIT(w, ".</p>\n");
	}
}

/* Chart kinds on the offers page. */
enum { S_GIB_DAY, S_CAMPAIGN, S_HOURLY };

/* The SVG (and PNG) of one chart into dir, its image and PNG link into w. */
static int S_offers_chart_files(const gs_publish_env *env, S_w *w, const char *dir,
				const char *stem, const char *title, gs_chart_out *o, char *err,
				size_t errlen)
{
	char *svg = gs_xasprintf("%s.svg", stem), *png = gs_xasprintf("%s.png", stem);
	int rc;

	rc = gs_write_atomic(dir, svg, o->svg.data, o->svg.len, err, errlen);
	if (!rc && env->png)
		rc = gs_write_atomic(dir, png, o->png.data, o->png.len, err, errlen);
	S_LIT(w, "<p><img src=\"");
	gs_html_url_append(&w->b, &w->n, &w->cap, svg);
	S_LIT(w, "\" alt=\"");
	S_w_text(w, title);
	S_LIT(w, "\" /></p>\n");
	if (env->png) {
		S_LIT(w, "<p>");
		S_w_text(w, gs_tr(env->t, "chart.png_version"));
		S_LIT(w, " ");
		S_w_a(w, png);
		S_w_text(w, png);
		S_LIT(w, "</a></p>\n");
	}
	free(svg);
	free(png);
	return rc;
}

static void S_chart_words(const gs_publish_env *env, gs_chart_text *ct, const char *title,
			  const char *axis)
{
	const gs_strings *t = env->t;

	memset(ct, 0, sizeof(*ct));
	ct->flags = env->png ? GS_CHART_PNG : 0;
	ct->title = title;
	ct->axis_label = axis;
	ct->lang = t->lang;
	ct->missing = gs_tr(t, "word.missing");
	ct->retained = gs_tr(t, "overall.retained");
	ct->preselected = gs_tr(t, "overall.preselected");
	ct->excluded = gs_tr(t, "overall.excluded");
}

/* The words and figures of one kind of chart. */
typedef struct {
	int kind;                 /* S_GIB_DAY, S_CAMPAIGN, S_HOURLY */
	const char *heading;      /* label keys: the section's heading, */
	const char *title;        /* the chart's title, */
	const char *note;         /* what it shows and where its figures come from, */
	const char *col;          /* the value's column (the unit follows) */
	const char *file;         /* file name part */
	unsigned decimals;        /* of the values: 4 ten-thousandths, 2 hundredths */
} S_chart_kind;

static const S_chart_kind S_kinds[] = {
	{ S_GIB_DAY, "site.chart_gib_day", "site.chart_gib_day", "site.chart_note_gib_day",
	  "site.col_gib_day", "gib-day", 4 },
	{ S_CAMPAIGN, "site.chart_campaign", "site.chart_campaign_title",
	  "site.chart_note_campaign", "col.total_cost", "campaign", 2 },
	{ S_HOURLY, "site.chart_hourly", "site.chart_hourly_title", "site.chart_note_hourly",
	  "site.col_hourly", "hourly", 4 },
};

/*
 * The bars of series s (at most nb): labels, groups by memory per card
 * (campaign and hourly), verdict marks and words. Strings made here go to
 * own[*no] (the caller frees them).
 */
static void S_series_bars(const gs_strings *t, const gs_catalog *cat, const S_chart_kind *k,
			  const gs_site_series *s, size_t nb, gs_chart_bar *bars, char **own,
			  size_t *no)
{
	size_t j;

	for (j = 0; j < nb; j++) {
		const gs_site_point *pt = &s->pts[j];
		const gs_offer *o = &cat->offers[pt->offer];
		const gs_plan *pl = &o->plans[pt->plan];
		bars[j].value = pt->value;
		if (k->kind == S_GIB_DAY && o->nplans > 1)
			bars[j].label = own[(*no)++] = gs_xasprintf("%s (%llu h)", o->id,
								    (unsigned long long)pl->hours);
		else
			bars[j].label = o->id;
		if (k->kind != S_GIB_DAY)
			bars[j].group = own[(*no)++] = S_mem_group(t, gs_site_offer_memory(o));
		if (k->kind == S_CAMPAIGN && pt->status < 3) {
			bars[j].mark = pt->status == 0 ? GS_BAR_RETAINED : pt->status == 1
				       ? GS_BAR_PRESELECTED : GS_BAR_EXCLUDED;
			bars[j].words = own[(*no)++] = gs_xasprintf("%s %s", S_status_symbol(pt->status),
								    gs_tr(t, S_status_key(pt->status)));
		} else if (pl->interruptible) {
			bars[j].words = gs_tr(t, "site.interruptible");
		}
	}
}

/* Memory per card in GiB, two decimals (the unit is in the header), or "missing". */
static void S_mem_cell(S_w *w, const gs_strings *t, const gs_offer *o)
{
	uint64_t mem = gs_site_offer_memory(o);
	char g[GS_FMT_MAX];

	S_w_td(w);
	S_w_text(w, mem == UINT64_MAX ? gs_tr(t, "word.missing")
		 : gs_fmt_fixed2(g, mem, GS_GIB, t->lang));
	S_LIT(w, "</td>");
}

/*
 * The chart's data table: every figure of series s (all of them, also
 * beyond what the chart draws), then the offers not drawn, with why.
 */
static void S_series_table(const gs_strings *t, const gs_catalog *cat, S_w *w,
			   const S_chart_kind *k, const gs_site_series *s,
			   const gs_site_chart_data *d, const gs_publish_result *ref,
			   const char *title)
{
	const char *und = gs_tr(t, "claim.undated");
	char *h[6], *capt;
	const char *hc[6];
	size_t j, rows = 0;

	h[0] = gs_xstrdup(gs_tr(t, "col.offer"));
	h[1] = gs_xasprintf("%s (GiB)", gs_tr(t, "site.col_mem"));
	h[2] = gs_xasprintf("%s (%s)", gs_tr(t, k->col), s->currency);
	h[3] = gs_xstrdup(gs_tr(t, k->kind == S_CAMPAIGN ? "site.col_verdict" : "site.col_plan"));
	h[4] = gs_xstrdup(gs_tr(t, "col.provenance"));
	h[5] = gs_xstrdup(gs_tr(t, "site.col_sources"));
	for (j = 0; j < 6; j++)
		hc[j] = h[j];
	capt = gs_xasprintf("%s: %s", gs_tr(t, "site.cap_chart_data"), title);
	S_w_table(w, capt, hc, 6);
	for (j = 0; j < s->n; j++) {
		const gs_site_point *pt = &s->pts[j];
		const gs_offer *o = &cat->offers[pt->offer];
		const gs_plan *pl = &o->plans[pt->plan];
		char v[GS_FMT_MAX], w1[256];
		S_w_row(w, &rows);
		S_w_td(w);
		S_w_code(w, o->id);
		S_LIT(w, "</td>");
		S_mem_cell(w, t, o);
		if (k->kind == S_CAMPAIGN)
			gs_fmt_money(v, (int64_t)pt->value, t->lang);
		else
			S_fmt_q4(v, sizeof(v), pt->value, t->lang);
		S_w_td(w);
		S_w_text(w, v);
		S_LIT(w, "</td>");
		S_w_td(w);
		if (k->kind == S_CAMPAIGN && pt->status < 3) {
			S_w_text(w, S_status_symbol(pt->status));
			S_LIT(w, " ");
			S_w_text(w, gs_tr(t, S_status_key(pt->status)));
		} else {
			S_w_num(w, pl->hours);
			S_LIT(w, " h");
			if (pl->interruptible) {
				S_LIT(w, ", ");
				S_w_text(w, gs_tr(t, "site.interruptible"));
			}
		}
		S_LIT(w, "</td>");
		S_w_td(w);
		S_w_text(w, gs_tr(t, k->kind == S_HOURLY ? "site.prov_catalog"
				  : "site.prov_from_catalog"));
		S_LIT(w, "</td>");
		S_w_td(w);
		if (k->kind == S_CAMPAIGN) {
			S_w_text(w, gs_tr(t, "site.sheet_of"));
			S_LIT(w, ": ");
			S_w_text(w, ref ? ref->id : "");
		} else {
			S_w_text(w, pl->claim.source);
			S_LIT(w, " (");
			S_w_text(w, gs_claim_when(&pl->claim, und, w1, sizeof(w1)));
			S_LIT(w, ")");
		}
		S_LIT(w, "</td>");
	}
	for (j = 0; j < d->nmissing; j++) {
		const gs_offer *o = &cat->offers[d->missing[j]];
		S_w_row(w, &rows);
		S_w_td(w);
		S_w_code(w, o->id);
		S_LIT(w, "</td>");
		S_mem_cell(w, t, o);
		S_w_td(w);
		S_w_text(w, gs_tr(t, S_why_key(d->why[j])));
		S_LIT(w, "</td>\n<td></td>\n<td></td>\n<td></td>");
	}
	S_w_table_end(w, rows);
	for (j = 0; j < 6; j++)
		free(h[j]);
	free(capt);
}

/* The heading and note of a kind of chart (naming the reference workload, if any). */
static void S_chart_intro(const gs_strings *t, S_w *w, const S_chart_kind *k,
			  const gs_publish_result *ref)
{
	S_LIT(w, "<h3>");
	S_w_text(w, gs_tr(t, k->heading));
	S_LIT(w, "</h3>\n<p>");
	S_w_text(w, gs_tr(t, k->note));
	if (ref) {
		char *link = gs_xasprintf("sheets/%s.html", ref->id);
		S_LIT(w, " ");
		S_w_text(w, gs_tr(t, "site.chart_reference"));
		S_LIT(w, " ");
		S_w_a(w, link);
		S_w_text(w, ref->id);
		S_LIT(w, "</a> (");
		S_w_text(w, ref->title);
		S_LIT(w, ").");
		free(link);
	}
	S_LIT(w, "</p>\n");
}

/*
 * One chart per currency of d, each followed by its data table (the same
 * figures in words, units in the headers), then the offers not drawn.
 */
static int S_offers_chart(const gs_publish_env *env, S_w *w,
			  const char *dir, const char *prefix, int kind,
			  const gs_site_chart_data *d, const gs_publish_result *ref, char *err,
			  size_t errlen)
{
	const gs_strings *t = env->t;
	const S_chart_kind *k = &S_kinds[kind];
	size_t i, j;
	int rc = 0;

	S_chart_intro(t, w, k, ref);
	if (!d->nseries)
		S_w_para(w, gs_tr(t, "site.chart_none"));
	for (i = 0; i < d->nseries && !rc; i++) {
		const gs_site_series *s = &d->series[i];
		size_t nb = s->n < GS_CHART_MAX_BARS ? s->n : GS_CHART_MAX_BARS, no = 0;
		gs_chart_bar *bars = gs_xcalloc(nb + 1, sizeof(*bars));
		char **own = gs_xcalloc(3 * nb + 1, sizeof(*own));
		char *title, *axis, *stem;
		gs_chart_text ct;
		gs_chart_out co;

		if (ref)
			title = gs_xasprintf("%s: %s, %s", gs_tr(t, k->title), ref->id, s->currency);
		else
			title = gs_xasprintf("%s, %s", gs_tr(t, k->title), s->currency);
		if (nb < s->n) {
			char *more = gs_xasprintf("%s (%zu / %zu; %s)", title, nb, s->n,
						  gs_tr(t, "site.chart_all_in_table"));
			free(title);
			title = more;
		}
		axis = gs_xasprintf("%s (%s)", gs_tr(t, k->col), s->currency);
		S_series_bars(t, env->cat, k, s, nb, bars, own, &no);
		S_chart_words(env, &ct, title, axis);
		stem = gs_xasprintf("%s-%s-%zu", prefix, k->file, i + 1);
		if (gs_chart_bars(&ct, bars, nb, k->decimals, s->currency, &co) != 0) {
			snprintf(err, errlen, "cannot draw the chart %s", stem);
			rc = -1;
		} else {
			rc = S_offers_chart_files(env, w, dir, stem, title, &co, err, errlen);
			gs_chart_out_release(&co);
		}
		S_series_table(t, env->cat, w, k, s, d, ref, title);
		for (j = 0; j < no; j++)
			free(own[j]);
		free(own);
		free(bars);
		free(stem);
		free(axis);
		free(title);
	}
	S_missing_para(w, t, env->cat, d);
	return rc;
}

/* The charts of one offers page (its offers, page order), before its tables. */
static int S_offers_charts(const gs_publish_env *env, S_w *w, const char *dir, size_t page,
			   const size_t *offers, size_t n, const gs_publish_result *ref,
			   char *err, size_t errlen)
{
	gs_site_chart_data d;
	char prefix[64];
	int rc;

	if (page == 0)
		snprintf(prefix, sizeof(prefix), "offers");
	else
		snprintf(prefix, sizeof(prefix), "offers-%zu", page + 1);
	S_LIT(w, "<h2>");
	S_w_text(w, gs_tr(env->t, "site.charts"));
	S_LIT(w, "</h2>\n");
	gs_site_gib_day_data(env->cat, offers, n, &d);
	rc = S_offers_chart(env, w, dir, prefix, S_GIB_DAY, &d, NULL, err, errlen);
	gs_site_chart_data_release(&d);
	if (rc)
		return rc;
	gs_site_campaign_data(env->cat, offers, n, ref, &d);
	rc = S_offers_chart(env, w, dir, prefix, ref ? S_CAMPAIGN : S_HOURLY, &d, ref,
			    err, errlen);
	gs_site_chart_data_release(&d);
	return rc;
}

static int S_offers_page(const gs_publish_env *env, const char *dir, const char *nav,
			 int demonstration, const size_t *order, size_t page, size_t npages,
			 const gs_publish_result *ref, char *err, size_t errlen)
{
	const gs_strings *t = env->t;
	const gs_catalog *cat = env->cat;
	const gs_lang lang = t->lang;
	S_w w = { 0 }, *cell = &w;
	const char *h[7];
	size_t i, k, rows = 0;
	int tb = 0;

	S_w_h1(&w, gs_tr(t, "site.offers"));
	S_w_demo(&w, t, demonstration);
	S_LIT(&w, "<p>");
	S_w_text(&w, gs_tr(t, "site.offers_intro"));
	S_LIT(&w, " ");
	S_w_code(&w, env->catalog_name);
	S_LIT(&w, "</p>\n");
	S_w_pager(&w, gs_tr(t, "site.page"), page, npages, S_offer_page, 0, NULL);
	{
		size_t from = page * GS_SITE_PAGE_OFFERS, to = from + GS_SITE_PAGE_OFFERS;
		if (to > cat->noffers)
			to = cat->noffers;
		if (S_offers_charts(env, &w, dir, page, order + from, to - from, ref, err, errlen)) {
			free(w.b);
			return -1;
		}
	}
	h[0] = gs_tr(t, "col.offer");
	h[1] = gs_tr(t, "site.col_cards");
	h[2] = gs_tr(t, "site.col_nominal");
	h[3] = gs_tr(t, "site.col_declared");
	h[4] = gs_tr(t, "site.col_plans");
	h[5] = gs_tr(t, "req.calendar");
	h[6] = gs_tr(t, "site.col_sources");
	for (i = page * GS_SITE_PAGE_OFFERS; i < cat->noffers && i < (page + 1) * GS_SITE_PAGE_OFFERS; i++) {
		const gs_offer *o = &cat->offers[order[i]];
		const gs_availability *a = &o->availability;
		char g1[GS_FMT_MAX], g2[GS_FMT_MAX], w1[256], mem[GS_FMT_MAX];
		const char *und = gs_tr(t, "claim.undated");
		uint64_t cap = o->has_declared_bytes ? o->declared_bytes
			       : !o->memory_unknown ? o->nominal_bytes : 0;

		/* A heading and a table per provider and GPU model. */
		if (!tb || !S_same_group(o, &cat->offers[order[i - 1]])) {
			char *head = gs_xasprintf("%s — %s", o->provider ? o->provider
						  : gs_tr(t, "site.no_provider"), o->gpu_model);
			char *capt = gs_xasprintf("%s: %s", gs_tr(t, "site.cap_offers"), head);
			if (tb)
				S_w_table_end(&w, rows);
			S_LIT(&w, "<h2>");
			S_w_text(&w, head);
			S_LIT(&w, "</h2>\n");
			S_w_table(&w, capt, h, 7);
			tb = 1;
			rows = 0;
			free(head);
			free(capt);
		}
		S_w_row(&w, &rows);
		S_w_td(&w);
		S_w_code(&w, o->id);
		S_w_textf(cell, " %s", o->gpu_model);
		{
			char *link = gs_xasprintf("offers/%s.html", o->id);
			S_LIT(&w, " (");
			S_w_a(&w, link);
			S_w_text(&w, gs_tr(t, "site.offer_link"));
			S_LIT(&w, "</a>)");
			free(link);
		}
		if (o->provider)
			S_w_textf(cell, " — %s", o->provider);
		if (cat->origins)
			S_w_textf(cell, " (%s: %s)", gs_tr(t, "site.catalog"), gs_catalog_origin(cat, o));
		if (o->nregions)
			S_w_textf(cell, "; %s: %zu", gs_tr(t, "site.regions"), o->nregions);
		S_LIT(&w, "</td>");
		S_w_td(&w);
		S_w_text(&w, gs_fmt_int(g1, o->cards, lang));
		S_LIT(&w, "</td>");
		S_w_td(&w);
		if (!o->memory_unknown)
			S_w_textf(cell, "%s = %s (%s)", gs_offer_memory_label(o, "", mem, sizeof(mem)),
				     gs_fmt_gib(g2, o->nominal_bytes, lang), gs_tr(t, "prov.assumed"));
		else
			S_w_text(cell, gs_tr(t, "word.missing"));
		S_LIT(&w, "</td>");
		S_w_td(&w);
		if (o->has_declared_bytes)
			S_w_textf(cell, "%s B = %s (%s, %s)", gs_fmt_int(g1, o->declared_bytes, lang),
				     gs_fmt_gib(g2, o->declared_bytes, lang), o->declared_claim.source,
				     gs_claim_when(&o->declared_claim, und, w1, sizeof(w1)));
		else
			S_w_text(cell, gs_tr(t, "word.missing"));
		S_LIT(&w, "</td>");
		S_w_td(&w);
		if (!o->nplans)
			S_w_text(cell, gs_tr(t, "site.no_price"));
		for (k = 0; k < o->nplans; k++) {
			const gs_plan *pl = &o->plans[k];
			char m[GS_FMT_MAX], c[GS_FMT_MAX];
			S_cost_per_gib_day(c, sizeof(c), pl, cap, o->cards, lang);
			S_w_textf(cell, "%s%llu h: %s %s (%s %s %s; %s%s%s, %s)", k ? "; " : "",
				     (unsigned long long)pl->hours, gs_fmt_micro(m, gs_plan_micro(pl), lang),
				     pl->currency, c, pl->currency, gs_tr(t, "site.per_gib_day"),
				     pl->interruptible ? gs_tr(t, "site.interruptible") : "",
				     pl->interruptible ? "; " : "",
				     pl->claim.source, gs_claim_when(&pl->claim, und, w1, sizeof(w1)));
		}
		S_LIT(&w, "</td>");
		S_w_td(&w);
		switch (a->kind) {
		case GS_AVAIL_WINDOW:
			S_w_textf(cell, "%s → %s (%s, %s)", a->from, a->to, a->claim.source, gs_claim_when(&a->claim, und, w1, sizeof(w1)));
			break;
		case GS_AVAIL_STOCK:
			S_w_textf(cell, "%s (%s, %s)", gs_tr(t, "site.stock"), a->claim.source, gs_claim_when(&a->claim, und, w1, sizeof(w1)));
			break;
		case GS_AVAIL_ON_REQUEST:
			S_w_textf(cell, "%s (%s, %s)", gs_tr(t, "site.on_request"), a->claim.source, gs_claim_when(&a->claim, und, w1, sizeof(w1)));
			break;
		case GS_AVAIL_UNAVAILABLE:
			S_w_textf(cell, "%s (%s, %s)", gs_tr(t, "site.unavailable"), a->claim.source, gs_claim_when(&a->claim, und, w1, sizeof(w1)));
			break;
		default:
			S_w_text(cell, gs_tr(t, "word.missing"));
		}
		for (k = 0; k < o->nplans; k++)
			if (o->plans[k].interruptible) {
				S_w_textf(cell, "; %s", gs_tr(t, "site.spot_calendar"));
				break;
			}
		S_LIT(&w, "</td>");
		S_w_td(&w);
		if (!o->memory_unknown)
			S_w_textf(cell, "%s: %s (%s)", gs_tr(t, "site.memory_claim"), o->memory_claim.source,
				     gs_claim_when(&o->memory_claim, und, w1, sizeof(w1)));
		else
			S_w_textf(cell, "%s: %s", gs_tr(t, "site.memory_claim"), gs_tr(t, "word.missing"));
		if (o->nregions)
			S_w_textf(cell, "; %s: %s (%s)", gs_tr(t, "site.regions"), o->regions_claim.source,
				     gs_claim_when(&o->regions_claim, und, w1, sizeof(w1)));
		for (k = 0; k < o->nsoftware; k++)
			S_w_textf(cell, "; %s: %s (%s, %s)", gs_tr(t, "req.software"), o->software[k].name,
				     o->software[k].claim.source,
				     gs_claim_when(&o->software[k].claim, und, w1, sizeof(w1)));
		if (o->has_host_ram)
			S_w_textf(cell, "; RAM %s (%s, %s)", gs_fmt_gib(g1, o->host_ram_bytes, lang),
				     o->host_ram_claim.source, gs_claim_when(&o->host_ram_claim, und, w1, sizeof(w1)));
		if (o->interconnect)
			S_w_textf(cell, "; %s (%s, %s)", o->interconnect, o->interconnect_claim.source,
				     gs_claim_when(&o->interconnect_claim, und, w1, sizeof(w1)));
		S_LIT(&w, "</td>");
	}
	if (tb)
		S_w_table_end(&w, rows);
	S_w_para(&w, gs_tr(t, "site.offers_note"));
	{
		char name[64];
		S_offers_name(name, sizeof(name), page);
		return S_w_page(env, dir, name, &w, gs_tr(t, "site.offers"), nav, "", NULL, err, errlen);
	}
}

/*
 * The catalog, GS_SITE_PAGE_OFFERS offers a page, each page with its charts
 * (from the catalog and the results alone; env->reference: the workload id
 * of the campaign chart, or NULL).
 */
static int S_offers_pages(const gs_publish_env *env, gs_site_results *rs, size_t nres,
			  const char *dir, const char *nav, int demonstration, char *err,
			  size_t errlen)
{
	const char *reference = env->reference;
	size_t n = env->cat->noffers;
	size_t npages = n ? (n + GS_SITE_PAGE_OFFERS - 1) / GS_SITE_PAGE_OFFERS : 1, page, i;
	size_t *order;
	const gs_publish_result *ref = NULL;
	int rc = 0;

	for (i = 0; reference && i < nres; i++)
		if (strcmp(gs_site_results_id(rs, i), reference) == 0)
			break;
	if (reference && i == nres) {
		snprintf(err, errlen, "--reference '%s': no workload of the site has this id", reference);
		return -1;
	}
	if (reference) {
		/* the one result these pages show, read back */
		if (gs_site_results_load(rs, i, i + 1, 0, err, errlen))
			return -1;
		ref = gs_site_results_get(rs, i);
	}
	order = gs_xcalloc(n + 1, sizeof(*order));
	gs_site_offer_groups(env->cat, order);
	for (page = 0; page < npages && !rc; page++)
		rc = S_offers_page(env, dir, nav, demonstration, order, page, npages, ref, err, errlen);
	free(order);
	return rc ? -1 : 0;
}

/* offers/ID.html, offers/ID~2.html, ... ('~' is never in an offer id). */
static void S_offer_detail_name(char *buf, size_t len, const char *id, size_t page)
{
	if (page == 0)
		snprintf(buf, len, "%s.html", id);
	else
		snprintf(buf, len, "%s~%zu.html", id, page + 1);
}

/* name_of for S_w_pager: page i of the offer id. */
static void S_detail_page(char *buf, size_t len, size_t i, size_t other, const char *id)
{
	(void)other;
	S_offer_detail_name(buf, len, id, i);
}

/*
 * The last three cells of an offer page's row from the sheet's reason on
 * the offer (gs_publish_result_reasons): need per card, margin, then what
 * remains to confirm or why it is excluded, tab-separated. The cells
 * between are written here: the row's "<td>" before, "</td>" after.
 */
static void S_w_reason_cells(S_w *w, const char *why)
{
	int cell;

	for (cell = 0; cell < 2; cell++) {
		const char *tab = why ? strchr(why, '\t') : NULL;
		if (tab) {
			/* a figure and its provenance: short, on the stack */
			size_t n = (size_t)(tab - why);
			char small[128], *part = n < sizeof(small) ? small : gs_xmalloc(n + 1);
			memcpy(part, why, n);
			part[n] = '\0';
			S_w_text(w, part);
			if (part != small)
				free(part);
			why = tab + 1;
		}
		S_LIT(w, "</td><td>");
	}
	if (why)
		S_w_text(w, why);
}

/*
 * One page of an offer's workloads: [from, to) of pp->rs (loaded with their
 * reasons), each with its verdict and reason.
 */
static int S_offer_detail_page(const gs_publish_env *env, size_t n,
			       const S_pages *pp, size_t k, size_t page, size_t npages,
			       const char *dir, const char *nav, int demonstration, char *err,
			       size_t errlen)
{
	const gs_strings *t = env->t;
	const gs_offer *o = &env->cat->offers[k];
	size_t from = page * GS_SITE_PAGE_ROWS, to = from + GS_SITE_PAGE_ROWS, i, rows = 0;
	const char *h[6];
	S_w w = { 0 }, link = { 0 }, sfx = { 0 };
	char name[128], mem[GS_FMT_MAX];
	char *title = gs_xasprintf("%s %s", gs_tr(t, "site.offer_title"), o->id);
	int rc;

	if (to > n)
		to = n;
	S_w_h1(&w, title);
	S_w_demo(&w, t, demonstration);
	S_LIT(&w, "<p>");
	S_w_code(&w, o->id);
	S_LIT(&w, " ");
	S_w_text(&w, o->gpu_model);
	S_LIT(&w, ", ");
	S_w_num(&w, o->cards);
	S_LIT(&w, " x ");
	S_w_text(&w, gs_offer_memory_label(o, gs_tr(t, "word.missing"), mem, sizeof(mem)));
	if (o->provider) {
		S_LIT(&w, " — ");
		S_w_text(&w, o->provider);
	}
	/* what every row's margin is against, once for the page */
	S_LIT(&w, ". ");
	S_w_text(&w, gs_tr(t, "site.offer_capacity"));
	S_LIT(&w, ": ");
	if (o->memory_unknown && !o->has_declared_bytes) {
		S_w_text(&w, gs_tr(t, "word.missing"));
	} else {
		S_w_text(&w, gs_fmt_gib(mem, o->has_declared_bytes ? o->declared_bytes
					: o->nominal_bytes, t->lang));
		S_LIT(&w, " (");
		S_w_text(&w, gs_tr(t, o->has_declared_bytes ? "site.cap_src_declared"
				   : "site.cap_src_nominal"));
		S_LIT(&w, ")");
	}
	S_LIT(&w, ". ");
	S_w_text(&w, gs_tr(t, "site.offer_intro"));
	S_LIT(&w, "</p>\n");
	S_w_pager(&w, gs_tr(t, "site.page"), page, npages, S_detail_page, 0, o->id);
	h[0] = gs_tr(t, "site.col_workload");
	h[1] = gs_tr(t, "site.col_verdict");
	h[2] = gs_tr(t, "col.total_cost");
	h[3] = gs_tr(t, "site.col_need");
	h[4] = gs_tr(t, "site.col_margin");
	h[5] = gs_tr(t, "site.col_remains");
	S_w_table(&w, gs_tr(t, "site.cap_offer"), h, 6);
	for (i = from; i < to; i++) {
		const gs_publish_result *pr = gs_site_results_get(pp->rs, i);
		unsigned st = k < pr->noffers ? pr->status[k] : 3;
		const char *why_k = st != 3 ? S_reason(pp, i, k) : NULL;
		int cut;
		char *shrt = S_short_title(pr->title, &cut);
		/* A row on one line, its cells without the newlines of a tree's
		 * table: the bytes a row needs (at 10,000 workloads x 50 offers,
		 * these pages are a quarter of a site's bytes). */
		if (!rows++)
			S_LIT(&w, "\n<tbody>\n");
		S_LIT(&w, "<tr><td>");
		S_w_code(&w, pr->id);
		S_LIT(&w, " ");
		S_w_text(&w, shrt);
		free(shrt);
		S_LIT(&w, "</td><td>");
		if (st == 3) {
			S_w_text(&w, S_status_symbol(3));
			S_LIT(&w, " ");
			S_w_text(&w, gs_tr(t, S_status_key(3)));
		} else {
			/*
			 * ../sheets/ID.html#offer-OFFER: the href of the whole,
			 * as the part up to ID then the rest, written once for
			 * the page (the href escapes byte by byte; neither part
			 * nor the whole starts with a scheme it would drop).
			 */
			if (!sfx.n) {   /* not yet written: it ends with "> */
				char *rest = gs_xasprintf(".html#offer-%s", o->id);
				gs_html_url_append(&sfx.b, &sfx.n, &sfx.cap, rest);
				S_LIT(&sfx, "\">");
				free(rest);
			}
			link.n = 0;
			S_LIT(&link, "../sheets/");
			S_w_raw(&link, pr->id);
			gs_mem_append(&link.b, &link.n, &link.cap, "", 0);
			link.b[link.n] = '\0';
			S_LIT(&w, "<a href=\"");
			gs_html_url_append(&w.b, &w.n, &w.cap, link.b);
			gs_mem_append(&w.b, &w.n, &w.cap, sfx.b, sfx.n);
			S_w_text(&w, S_status_symbol((unsigned char)st));
			S_LIT(&w, " ");
			S_w_text(&w, gs_tr(t, S_status_key((unsigned char)st)));
			S_LIT(&w, "</a>");
		}
		S_LIT(&w, "</td><td>");
		if (st != 3 && pr->currency[k]) {
			char m[GS_FMT_MAX];
			S_w_text(&w, gs_fmt_money(m, pr->cost[k], t->lang));
			S_LIT(&w, " ");
			S_w_text(&w, pr->currency[k]);
			S_LIT(&w, " (");
			S_w_text(&w, gs_tr(t, "prov.assumed"));
			S_LIT(&w, ")");
		} else if (st != 3) {
			S_w_text(&w, gs_tr(t, "word.missing"));
		}
		S_LIT(&w, "</td><td>");
		S_w_reason_cells(&w, why_k);
		S_LIT(&w, "</td></tr>\n");
	}
	if (rows)
		S_LIT(&w, "</tbody>\n</table>\n");
	else
		S_LIT(&w, "\n</table>\n");
	if (!n)
		S_w_para(&w, gs_tr(t, "site.empty"));
	S_offer_detail_name(name, sizeof(name), o->id, page);
	rc = S_w_page(env, dir, name, &w, title, nav, "../", NULL, err, errlen);
	free(link.b);
	free(sfx.b);
	free(title);
	return rc;
}

/*
 * offers/: one page per offer (GS_SITE_PAGE_ROWS workloads a page). Page
 * by page of workloads, every offer's: the results of a page's workloads
 * are read back once (one read), their reasons too when a page is
 * rendered, used by every offer.
 */
static int S_offer_detail_pages(const gs_publish_env *env, size_t n, const char *dir,
				int demonstration, S_pages *pp, char *err, size_t errlen)
{
	char *sub = gs_xasprintf("%s/offers", dir), *nav = S_nav(env->t, "../");
	size_t npages = n ? (n + GS_SITE_PAGE_ROWS - 1) / GS_SITE_PAGE_ROWS : 1, k, page;
	size_t noff = env->cat->noffers;
	unsigned char *todo = gs_xcalloc(noff + 1, 1);
	int rc = 0;

	if (gs_mkdirs(sub)) {
		snprintf(err, errlen, "cannot create %s", sub);
		rc = -1;
	}
	for (page = 0; page < npages && !rc; page++) {
		size_t from = page * GS_SITE_PAGE_ROWS < n ? page * GS_SITE_PAGE_ROWS : n;
		size_t to = (page + 1) * GS_SITE_PAGE_ROWS < n ? (page + 1) * GS_SITE_PAGE_ROWS : n;
		size_t ntodo = 0;
		for (k = 0; k < noff; k++) {
			todo[k] = 1;
			if (pp->keyed && from < to) {
				/* its key: S_tuple_key */
				char dn[128], name[160];
				S_offer_detail_name(dn, sizeof(dn), env->cat->offers[k].id, page);
				snprintf(name, sizeof(name), "offers/%s", dn);
				todo[k] = !S_page_reuse(pp, dir, name,
							npages * pp->ncols + page * noff + k);
			}
			ntodo += todo[k];
		}
		if (!ntodo)
			continue;
		rc = gs_site_results_load(pp->rs, from, to, 1, err, errlen);
		if (!rc)
			rc = S_why_page_load(pp, from, to, err, errlen);
		for (k = 0; k < noff && !rc; k++)
			if (todo[k])
				rc = S_offer_detail_page(env, n, pp, k, page, npages, sub, nav,
							 demonstration, err, errlen);
	}
	S_why_page_free(pp);
	free(todo);
	free(sub);
	free(nav);
	return rc ? -1 : 0;
}

/* What an existing, non-empty OUT must hold to be replaced: a site of ours. */
static const char *const S_site_marks[] = { "index.html", "sheets", NULL };

/*
 * A keys file open for reading (site.h), scanned once (jsonscan.h): each
 * sheet's entry is parsed only when asked for, so that reading the keys of
 * a large site costs an id and two offsets per sheet, not the whole file as
 * a tree. Workers share the descriptor (pread only).
 */
typedef struct {
	FILE *f;                   /* NULL: no keys file usable */
	gs_jscan scan;             /* its members and those of "sheets" */
} S_keys;

static void S_keys_close(S_keys *k)
{
	if (k->f)
		fclose(k->f);
	gs_jscan_release(&k->scan);
	memset(k, 0, sizeof(*k));
}

/* dir's keys file: 0 when it is an object of this format with "sheets", else -1 (k empty). */
static int S_keys_open(const char *dir, S_keys *k)
{
	char *path = gs_xasprintf("%s/%s", dir, GS_SITE_KEYS_FILE);
	json_t *fmt;
	const char *fs;

	memset(k, 0, sizeof(*k));
	k->f = fopen(path, "rb");
	free(path);
	if (!k->f)
		return -1;
	if (gs_jscan_file(k->f, "sheets", &k->scan) || !k->scan.inner)
		goto no;
	fmt = gs_jscan_load(fileno(k->f), gs_jscan_find(&k->scan, 1, "format"), 0);
	fs = json_string_value(fmt);
	if (!fs || strcmp(fs, GS_SITE_KEYS_FORMAT) != 0) {
		json_decref(fmt);
		goto no;
	}
	json_decref(fmt);
	return 0;
no:
	S_keys_close(k);
	return -1;
}

/* The entry of sheet id ({"files", "key", "result"}, unchecked), or NULL. */
static json_t *S_keys_entry(const S_keys *k, const char *id)
{
	const gs_jscan_member *m = k->f ? gs_jscan_find(&k->scan, 0, id) : NULL;

	return m ? gs_jscan_load(fileno(k->f), m, JSON_REJECT_DUPLICATES) : NULL;
}

/* What the workers share (each a copy of its own, after fork). */
typedef struct {
	char *const *paths;
	/* What the validation learnt of each path (sitelearnt.h), paths[i]'s
	 * at inputs_from + i, or NULL */
	gs_site_learnt *inputs;
	size_t inputs_from;
	const gs_publish_env *env;
	gs_archive *archive;
	const char *dir;           /* the stage: the workers' reports go there */
	const char *sheets;
	gs_publish_result cur;     /* the result of the workload being done (S_finish takes it) */
	char *err;
	size_t errlen;
	/* incremental builds (NULL site_key: none) */
	const char *site_key;      /* hex SHA-256 of what every sheet depends on */
	char *prev_sheets;         /* sheets/ of the site replaced, or NULL */
	int prev_sheets_fd, sheets_fd;  /* open folders (-1: none) for linkat */
	S_keys old;                /* its keys file (old.f NULL: none usable) */
	char key[GS_SHA256_HEX_SIZE];  /* cur's key */
	gs_site_span span;         /* cur's reasons in old's file, when reused (else len 0) */
	size_t rendered;           /* sheets rendered, not reused */
	/* Where a finished result goes (S_finish): in a worker, its report;
	 * else the results' spools (siteresults.h; item i: workload i's). */
	FILE *report;
	gs_site_results *out;
	/* The pass that reads every workload as it renders (gs_site_opts.learn;
	 * learn NULL: read before, inputs). */
	char *const *all;          /* every path of the site, a shard's too */
	size_t nall, from;         /* rendered: all[from, from + n), paths above */
	size_t n;
	gs_site_learnt *learn;     /* per path of all, put by the parent */
	int lost;                  /* a record could not be put (its message in err) */
	gs_diag *diag;             /* the errors, in the paths' order */
	gs_diag *item_diag;        /* per path of all, while the workers' reports come in another order */
	size_t *order;             /* the workers' order of all (S_order), or NULL: the paths' */
	int failed;                /* a sheet failed (its message in err): the rest is only read */
	/* Set when a workload has an error (the build will stop): the rest
	 * is only read, so that the errors come without rendering the site
	 * first; shared between the workers (mapped before they fork). */
	volatile int *invalid;
	json_t *pending;           /* in a worker: the result of the item being done (S_finish) */
	char *pending_why;         /* and its reasons (S_why_block), or NULL */
	size_t pending_whylen;
} S_render_ctx;

static json_t *S_result_pack(const gs_publish_result *r);
static json_t *S_why_pack(const gs_site_results *rs, size_t i, size_t noffers);
static int S_why_unpack(json_t *why, gs_publish_result *r);
static int S_result_unpack(json_t *o, const gs_catalog *cat, gs_publish_result *r);

/*** incremental builds ***/

static void S_hash_str(struct sha256_ctx *h, const char *s)
{
	sha256_update(h, strlen(s) + 1, (const uint8_t *)s); /* with its NUL: a separator */
}

#define S_STR_(x) #x
#define S_STR(x) S_STR_(x)

/*
 * What every sheet depends on besides its own files: the generator's
 * version and render revision, the options that change a sheet, the labels, the templates and
 * the catalogs' bytes (catalog_key, from the caller).
 */
void gs_site_key(const gs_publish_env *env, const char *catalog_key,
		 char hex[GS_SHA256_HEX_SIZE])
{
	struct sha256_ctx h;
	uint8_t dig[SHA256_DIGEST_SIZE];
	size_t i;

	sha256_init(&h);
	S_hash_str(&h, GS_SITE_KEYS_FORMAT);
	S_hash_str(&h, "gpusheet " GS_VERSION);
	S_hash_str(&h, "render " S_STR(GS_SITE_RENDER_REVISION));
	S_hash_str(&h, gs_lang_id(env->t->lang));
	S_hash_str(&h, env->date ? env->date : "");
	S_hash_str(&h, env->png ? "png" : "");
	S_hash_str(&h, env->md ? "md" : "");
	S_hash_str(&h, env->accept_synthetic ? "accept-synthetic" : "");
	S_hash_str(&h, env->catalog_name ? env->catalog_name : "");
	S_hash_str(&h, catalog_key);
	S_hash_str(&h, env->tp->page ? env->tp->page : "");
	S_hash_str(&h, env->tp->css ? env->tp->css : "");
	for (i = 0; i < env->t->count; i++) {
		S_hash_str(&h, env->t->items[i].key);
		S_hash_str(&h, env->t->items[i].text);
	}
	sha256_digest(&h, SHA256_DIGEST_SIZE, dig);
	gs_hex_encode(dig, SHA256_DIGEST_SIZE, hex);
}

/*
 * The key of a sheet: the site key, the SHA-256 of its workload's bytes
 * (wsha: not its path, the site does not depend on the path given), and
 * each cited file as archived: its name in the workload and its link in
 * the site ("evidence/<file>", which holds the SHA-256 of its bytes and
 * the name it gets in this site, first name wins). S_key_begin, a
 * S_key_file per cited file, S_key_end.
 */
static void S_key_begin(const S_render_ctx *c, const char *wsha, struct sha256_ctx *h)
{
	sha256_init(h);
	S_hash_str(h, c->site_key);
	S_hash_str(h, wsha);
}

static void S_key_file(struct sha256_ctx *h, const char *file, const char *rel)
{
	S_hash_str(h, file);
	S_hash_str(h, rel);
}

static void S_key_end(struct sha256_ctx *h, char hex[GS_SHA256_HEX_SIZE])
{
	uint8_t dig[SHA256_DIGEST_SIZE];

	sha256_digest(h, SHA256_DIGEST_SIZE, dig);
	gs_hex_encode(dig, SHA256_DIGEST_SIZE, hex);
}

/*
 * The key of loaded workload i, whose bytes hash to wsha: its cited files
 * are archived here, from the bytes the job read (gs_job_archive), so that
 * their links are known; the publishing keeps them (the archive is not
 * asked twice).
 */
static int S_job_key(S_render_ctx *c, size_t i, gs_job *job, const char *wsha,
		     char hex[GS_SHA256_HEX_SIZE])
{
	struct sha256_ctx h;
	char *sheet_rel = gs_xasprintf("%s%s.html", c->env->sheet_prefix, job->w.id), e[1024];
	size_t k;
	int rc = gs_job_archive(job, c->archive, sheet_rel, e, sizeof(e));

	free(sheet_rel);
	if (rc) {
		snprintf(c->err, c->errlen, "%s: %s", c->paths[i], e);
		return -1;
	}
	S_key_begin(c, wsha, &h);
	for (k = 0; k < job->nev; k++)
		S_key_file(&h, job->ev[k].ref->file, job->files[k].rel);
	/* the model's files: their contents, as their links are their hashes */
	for (k = 0; k < job->nm; k++)
		S_key_file(&h, job->mnames.v[k], job->mfiles[k].rel);
	S_key_end(&h, hex);
	return 0;
}

/*
 * The key of workload i from what its validation learnt (in), before its
 * cited files are at hand: their links are the archive's names for the
 * SHA-256 of the bytes validated (gs_archive_name), into rels (in->nev
 * of them), which the archiving must then give (S_input_archive).
 */
static void S_input_key(const S_render_ctx *c, const gs_site_learnt_item *in,
			char (*rels)[GS_EVIDENCE_REL_SIZE], char hex[GS_SHA256_HEX_SIZE])
{
	struct sha256_ctx h;
	size_t k;

	S_key_begin(c, in->sha256, &h);
	for (k = 0; k < in->nev; k++) {
		gs_archive_name(c->archive, gs_site_learnt_ev_sha256(in, k),
				gs_site_learnt_ev_file(in, k), rels[k]);
		S_key_file(&h, gs_site_learnt_ev_file(in, k), rels[k]);
	}
	S_key_end(&h, hex);
}

/*
 * Sheet i reused unread (S_input_key): its cited files archived from their
 * paths, each read once, which must give the links of its key (the bytes
 * validated), else the file changed since. 0, or -1 with err.
 */
/* An imported measurement's log, archived with it as a loaded job does
 * (gs_job_archive): the measurement read again for its import record, the
 * log checked against the SHA-256 it records. 0, or -1 with err. */
static int S_input_archive_log(S_render_ctx *c, size_t i, const char *path,
			       const char *sheet_rel)
{
	gs_measurement m;
	gs_diag d = GS_DIAG_INIT;
	char why[512], rel[GS_EVIDENCE_REL_SIZE], *bytes = NULL;
	size_t len = 0;
	int rc = 0;

	if (gs_measurement_read(path, &m, &d) != 0) {
		snprintf(c->err, c->errlen, "%s changed while the site was built", path);
		gs_diag_release(&d);
		return -1;
	}
	gs_diag_release(&d);
	if (gs_job_read_log(path, &m, &bytes, &len, why, sizeof(why)) != 0) {
		snprintf(c->err, c->errlen, "%s: %s: %s", c->paths[i], path, why);
		rc = -1;
	} else if (bytes && gs_archive_add_bytes(c->archive, bytes, len, m.import_log_sha256,
						 m.import_log_name, sheet_rel, rel)) {
		snprintf(c->err, c->errlen, "%s: %s: %s", c->paths[i], path,
			 gs_archive_error(c->archive));
		rc = -1;
	}
	free(bytes);
	gs_measurement_release(&m);
	return rc;
}

static int S_input_archive(S_render_ctx *c, size_t i, const gs_site_learnt_item *in,
			   char (*rels)[GS_EVIDENCE_REL_SIZE])
{
	char *sheet_rel = gs_xasprintf("%s%s.html", c->env->sheet_prefix, in->id);
	char rel[GS_EVIDENCE_REL_SIZE];
	size_t k;
	int rc = 0;

	for (k = 0; k < in->nev && rc == 0; k++) {
		const char *path = gs_site_learnt_ev_path(in, k), *name = gs_site_learnt_ev_file(in, k);
		char *from = NULL;
		if (strncmp(name, "model:", 6) == 0 && !c->prev_sheets) {
			snprintf(c->err, c->errlen, "%s: no replaced site to take the model's "
				 "files from", c->paths[i]);
			rc = -1;
			break;
		}
		if (strncmp(name, "model:", 6) == 0) {
			/* a model's file: the bytes the replaced site archived under
			 * the same hash (its key is the one this sheet had there) */
			size_t pl = strlen(c->prev_sheets) - strlen("sheets");
			path = from = gs_xasprintf("%.*s%s", (int)pl, c->prev_sheets, rels[k]);
		}
		rc = -1;
		if (gs_archive_add(c->archive, path, name, sheet_rel, rel))
			snprintf(c->err, c->errlen, "%s: %s: %s", c->paths[i], path,
				 gs_archive_error(c->archive));
		else if (strcmp(rel, rels[k]) != 0)
			snprintf(c->err, c->errlen, "%s changed while the site was built", path);
		else
			rc = from ? 0 : S_input_archive_log(c, i, path, sheet_rel);
		free(from);
	}
	free(sheet_rel);
	return rc;
}

/* 1 if loaded job read the bytes in was validated with (its workload's: wsha). */
static int S_same_input(const gs_job *job, const char *wsha, const gs_site_learnt_item *in)
{
	size_t k;

	if (strcmp(wsha, in->sha256) != 0 || job->nev + job->nm != in->nev)
		return 0;
	for (k = 0; k < job->nev; k++)
		if (strcmp(job->files[k].sha256, gs_site_learnt_ev_sha256(in, k)) != 0)
			return 0;
	for (k = 0; k < job->nm; k++)
		if (strcmp(job->mfiles[k].sha256, gs_site_learnt_ev_sha256(in, job->nev + k)) != 0)
			return 0;
	return 1;
}

/* dst as a hard link to src, else a copy; 0 or -1. */
static int S_link_or_copy(const char *src, const char *dir, const char *name)
{
	char *dst = gs_xasprintf("%s/%s", dir, name);
	int rc = link(src, dst);

	if (rc != 0) {
		size_t n;
		char *bytes = gs_read_file(src, &n), e[256];
		rc = bytes ? gs_write_atomic(dir, name, bytes, n, e, sizeof(e)) : -1;
		free(bytes);
	}
	free(dst);
	return rc;
}

/*
 * name linked from the folder open as from_fd (path from) into to_fd (path
 * to), by descriptors (no path walked per file), else copied; 0 or -1.
 */
static int S_link_at(int from_fd, int to_fd, const char *name, const char *from, const char *to)
{
	char *src;
	int rc;

	if (from_fd >= 0 && to_fd >= 0 && linkat(from_fd, name, to_fd, name, 0) == 0)
		return 0;
	src = gs_xasprintf("%s/%s", from, name);
	rc = S_link_or_copy(src, to, name);
	free(src);
	return rc;
}

/*
 * Workload i's sheet from the replaced site, when its key is the one it had
 * there and its files are all there: 1 (c->cur filled, its reasons left in
 * the old keys file: c->span), else 0. The entry is parsed without its
 * reasons (most of its bytes).
 */
static int S_reuse(S_render_ctx *c, size_t i, const char *id, const char *title, const char *key)
{
	const gs_jscan_member *m = c->old.f ? gs_jscan_find(&c->old.scan, 0, id) : NULL;
	const size_t wl = sizeof(GS_KEYS_WHY_MEMBER) - 1;
	json_t *o = NULL, *files, *f;
	const char *old_key;
	char *buf = NULL;
	size_t k, n, got = 0, why_len;
	long why;

	(void)i;
	if (!m || m->len < wl + 4 || m->len > (1u << 26))
		return 0;
	n = (size_t)m->len;
	buf = gs_xmalloc(n + 1);
	while (got < n) {
		ssize_t r = pread(fileno(c->old.f), buf + got, n - got, (off_t)(m->off + got));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			goto none;
		got += (size_t)r;
	}
	buf[n] = '\0';
	why = gs_keys_why_at(buf, n, c->env->cat->noffers, &why_len);
	if (why < 0)
		goto none;
	/* the entry without its reasons: up to ,"why": and a closing brace */
	buf[(size_t)why - wl] = '}';
	o = json_loadb(buf, (size_t)why - wl + 1, JSON_REJECT_DUPLICATES, NULL);
	files = json_object_get(o, "files");
	old_key = json_string_value(json_object_get(o, "key"));
	if (!old_key || strcmp(old_key, key) != 0 || !json_is_array(files) ||
	    S_result_unpack(json_object_get(o, "result"), c->env->cat, &c->cur))
		goto none;
	/* a keys file edited by hand must not change the index */
	if (strcmp(c->cur.id, id) != 0 || strcmp(c->cur.title, title) != 0 ||
	    c->cur.noffers != c->env->cat->noffers)
		goto no;
	json_array_foreach(files, k, f) {
		const char *name = json_string_value(f);
		if (!name || !*name || strchr(name, '/') || name[0] == '.')
			goto no;
		if (S_link_at(c->prev_sheets_fd, c->sheets_fd, name, c->prev_sheets, c->sheets))
			goto no;
		gs_strvec_push_dup(&c->cur.files, name);
	}
	c->span.off = m->off + (uint64_t)why;
	c->span.len = why_len;
	json_decref(o);
	free(buf);
	return 1;
no:
	/* the rendering creates its files anew (never over a name) */
	for (k = 0; k < c->cur.files.n; k++)
		(void)unlinkat(c->sheets_fd, c->cur.files.v[k], 0);
	gs_publish_result_release(&c->cur);
none:
	json_decref(o);
	free(buf);
	return 0;
}


/* n bytes of fd at off to f; 0 or -1. */
static int S_copy_range(int fd, uint64_t off, uint64_t n, FILE *f)
{
	char buf[16384];

	while (n) {
		size_t want = n < sizeof(buf) ? (size_t)n : sizeof(buf);
		ssize_t r = pread(fd, buf, want, (off_t)off);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0 || fwrite(buf, 1, (size_t)r, f) != (size_t)r)
			return -1;
		off += (uint64_t)r;
		n -= (uint64_t)r;
	}
	return 0;
}

/*
 * DIR/.gpusheet-keys.json (site.h), a line per page key and a line per
 * sheet, written a sheet at a time, never built as one tree: the sheets
 * sorted by id with strcmp (as jansson sorts keys), each entry the compact
 * dump of {"files", "key", "result"} (JSON_SORT_KEYS) with "why" appended
 * last: its reasons dumped from the spool, or for a reused sheet (its
 * span) the bytes of the replaced keys file (old_fd), which S_reuse
 * checked to be what a dump writes. Each sheet's result is read back from
 * rs as it is written. pages: the pages' keys (S_pages, computed again
 * here, sorted by name), or NULL.
 */
static int S_write_keys(gs_site_results *rs, int old_fd, const S_pages *pages, const char *dir,
			char *err, size_t errlen)
{
	gs_outstream *os = gs_outstream_open(dir, GS_SITE_KEYS_FILE, err, errlen);
	size_t n = gs_site_results_count(rs);
	S_idref *order;
	FILE *f;
	size_t i, j, k;

	if (!os)
		return -1;
	f = gs_outstream_file(os);
	fputs("{\"format\":\"" GS_SITE_KEYS_FORMAT "\",\"pages\":{", f);
	if (pages && pages->ntuples) {
		/* the pages' names, made for the sort and dropped (a few bytes a page) */
		char *names = NULL;
		size_t nl = 0, nc = 0, nt = pages->ntuples;
		size_t *at = gs_xcalloc(nt + 1, sizeof(*at));
		S_idref *by = gs_xcalloc(nt + 1, sizeof(*by));
		for (j = 0; j < nt; j++) {
			char name[160];
			S_tuple_name(pages, j, name, sizeof(name));
			at[j] = nl;
			gs_mem_append(&names, &nl, &nc, name, strlen(name) + 1);
		}
		for (j = 0; j < nt; j++) {
			by[j].id = names + at[j];
			by[j].i = j;
		}
		free(at);
		qsort(by, nt, sizeof(*by), S_by_id);
		for (j = 0; j < nt; j++) {
			json_t *name = json_string(by[j].id);
			char *tname = json_dumps(name, JSON_ENCODE_ANY), key[GS_SHA256_HEX_SIZE];
			if (!tname)
				GS_BUG("json_dumps of a page's name failed (out of memory)");
			S_tuple_key(pages, by[j].i, key);
			fprintf(f, "\n%s:\"%s\"%s", tname, key, j + 1 < nt ? "," : "\n");
			free(tname);
			json_decref(name);
		}
		free(by);
		free(names);
	}
	fputs("},\"sheets\":{", f);
	/* (the ids stay in memory, siteresults.h: an id and an index a sheet here) */
	order = gs_xcalloc(n + 1, sizeof(*order));
	for (i = 0; i < n; i++) {
		order[i].id = gs_site_results_id(rs, i);
		order[i].i = i;
	}
	qsort(order, n, sizeof(*order), S_by_id);
	for (j = 0; j < n; j++) {
		json_t *o, *files, *name;
		const gs_publish_result *r;
		gs_site_span sp;
		char *tname, *text;
		size_t tl;

		i = order[j].i;
		if (gs_site_results_load(rs, i, i + 1, 0, err, errlen))
			goto fail;
		r = gs_site_results_get(rs, i);
		sp = gs_site_results_span(rs, i);
		o = json_object();
		files = json_array();
		for (k = 0; k < r->files.n; k++)
			json_array_append_new(files, json_string(r->files.v[k]));
		json_object_set_new(o, "key", json_string(gs_site_results_key(rs, i)));
		json_object_set_new(o, "files", files);
		json_object_set_new(o, "result", S_result_pack(r));
		name = json_string(r->id);
		tname = json_dumps(name, JSON_ENCODE_ANY);
		/* gs_jo_dumps: json_dumps's bytes, several times faster, and a newline */
		text = gs_jo_dumps(o, JSON_SORT_KEYS | JSON_COMPACT);
		json_decref(name);
		json_decref(o);
		if (!tname || !text)
			GS_BUG("json_dumps of a sheet's keys failed (out of memory)");
		tl = strlen(text);
		fputc('\n', f);
		fputs(tname, f);
		fputc(':', f);
		fwrite(text, 1, tl - 2, f); /* without its final "}\n" */
		fputs(GS_KEYS_WHY_MEMBER, f);
		free(tname);
		free(text);
		if (sp.len) {
			if (S_copy_range(old_fd, sp.off, sp.len, f)) {
				snprintf(err, errlen, "%s: cannot read the replaced keys file: %s",
					 GS_SITE_KEYS_FILE, strerror(errno));
				goto fail;
			}
		} else {
			json_t *w;
			if (gs_site_results_load(rs, i, i + 1, 1, err, errlen))
				goto fail;
			w = S_why_pack(rs, i, r->noffers);
			text = gs_jo_dumps(w, JSON_COMPACT);
			json_decref(w);
			if (!text)
				GS_BUG("json_dumps of a sheet's reasons failed (out of memory)");
			fwrite(text, 1, strlen(text) - 1, f);   /* without gs_jo_dumps's newline */
			free(text);
		}
		fputs(j + 1 < n ? "}," : "}\n", f);
	}
	fputs("}}\n", f);
	free(order);
	return gs_outstream_commit(os, err, errlen);
fail:
	free(order);
	gs_outstream_abort(os);
	return -1;
}

int gs_site_read_keys(const char *dir, const gs_catalog *cat, char *const *ids, size_t n,
		      gs_site_results *rs, char *err, size_t errlen)
{
	S_keys kf;
	size_t i, m;
	int rc = -1;

	if (S_keys_open(dir, &kf)) {
		snprintf(err, errlen, "%s: cannot be read as a keys file of format %s",
			 GS_SITE_KEYS_FILE, GS_SITE_KEYS_FORMAT);
		return -1;
	}
	for (i = 0; i < n; i++) {
		json_t *o = S_keys_entry(&kf, ids[i]), *f;
		json_t *files = json_object_get(o, "files");
		const char *key = json_string_value(json_object_get(o, "key"));
		gs_publish_result r;

		memset(&r, 0, sizeof(r));
		if (!key || !gs_sha256_hex_valid(key) || !json_is_array(files) ||
		    S_result_unpack(json_object_get(o, "result"), cat, &r)) {
			snprintf(err, errlen, "%s: $.sheets.%s: missing, or not a sheet's key, files "
				 "and result for this catalog", GS_SITE_KEYS_FILE, ids[i]);
			json_decref(o);
			goto out;
		}
		if (S_why_unpack(json_object_get(o, "why"), &r)) {
			snprintf(err, errlen, "%s: $.sheets.%s.why: expected a reason (or null) per offer",
				 GS_SITE_KEYS_FILE, ids[i]);
			gs_publish_result_release(&r);
			json_decref(o);
			goto out;
		}
		if (strcmp(r.id, ids[i]) != 0) {
			snprintf(err, errlen, "%s: $.sheets.%s.result.id: another id", GS_SITE_KEYS_FILE,
				 ids[i]);
			gs_publish_result_release(&r);
			json_decref(o);
			goto out;
		}
		json_array_foreach(files, m, f) {
			const char *name = json_string_value(f);
			if (!name || !*name || strchr(name, '/') || name[0] == '.') {
				snprintf(err, errlen, "%s: $.sheets.%s.files[%zu]: expected a file name",
					 GS_SITE_KEYS_FILE, ids[i], m);
				gs_publish_result_release(&r);
				json_decref(o);
				goto out;
			}
			gs_strvec_push_dup(&r.files, name);
		}
		/* (its key copied out before the entry goes) */
		{
			char k[GS_SHA256_HEX_SIZE];
			snprintf(k, sizeof(k), "%s", key);
			json_decref(o);
			if (gs_site_results_put(rs, &r, k, NULL, err, errlen))
				goto out;
		}
	}
	rc = 0;
out:
	S_keys_close(&kf);
	return rc;
}

static json_t *S_result_pack_all(const S_render_ctx *c, size_t i, char **why, size_t *whylen);

/*
 * Result i (c->cur) is complete: a worker writes it to its report, one
 * line, and forgets it, so that a worker's memory does not grow with its
 * range; one process (or the parent) spools it (siteresults.h: memory
 * stays flat whatever the number of workloads).
 */
static int S_finish(S_render_ctx *c, size_t i)
{
	int rc;

	if (c->report && c->learn) {
		/* goes into the line of its workload (S_item) */
		c->pending = S_result_pack_all(c, i, &c->pending_why, &c->pending_whylen);
		gs_publish_result_release(&c->cur);
		memset(&c->span, 0, sizeof(c->span));
		return 0;
	}
	if (c->report) {
		char *why;
		size_t wl;
		json_t *o = S_result_pack_all(c, i, &why, &wl);

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
			snprintf(c->err, c->errlen, "cannot write a worker's report");
			return -1;
		}
		return 0;
	}
	rc = gs_site_results_put(c->out, &c->cur, c->site_key ? c->key : NULL, &c->span, c->err,
				 c->errlen);
	memset(&c->span, 0, sizeof(c->span));
	return rc;
}

/* Renders loaded workload i into c->cur; 0, or -1 with err naming the workload. */
static int S_publish_one(S_render_ctx *c, size_t i, gs_job *job, size_t *done)
{
	char e[1024];
	int jrc;

	e[0] = '\0';
	jrc = gs_job_publish(job, c->env, c->archive, c->sheets, NULL, &c->cur, e, sizeof(e));
	c->rendered++;
	if (jrc) {
		if (strncmp(e, c->paths[i], strlen(c->paths[i])) == 0)
			snprintf(c->err, c->errlen, "%s", e);
		else
			snprintf(c->err, c->errlen, "%s: %s", c->paths[i], e);
		return -1;
	}
	(*done)++;
	return S_finish(c, i);
}

/* Renders workloads [from, to), each finished (S_finish); 0, or -1 with err naming the workload. */
static int S_render_range(S_render_ctx *c, size_t from, size_t to, size_t *done)
{
	size_t i;

	for (i = from; i < to; i++) {
		gs_job job;
		gs_diag d = GS_DIAG_INIT;
		int jrc, keyed = 0;

		/* What the validation learnt of it: enough to reuse its sheet
		 * unread, and what its reading now must find again. */
		gs_site_learnt_item item, *in = NULL;
		char (*rels)[GS_EVIDENCE_REL_SIZE] = NULL;
		char wsha[GS_SHA256_HEX_SIZE];

		if (c->inputs) {
			if (gs_site_learnt_get(c->inputs, c->inputs_from + i, &item, c->err, c->errlen))
				return -1;
			in = &item;
		}
		if (in && c->site_key && c->old.f) {
			rels = gs_xcalloc(in->nev + 1, sizeof(*rels));
			S_input_key(c, in, rels, c->key);
			keyed = 1;
			if (S_reuse(c, i, in->id, in->title, c->key)) {
				jrc = S_input_archive(c, i, in, rels);
				free(rels);
				(*done)++;
				if (jrc || S_finish(c, i))
					return -1;
				continue;
			}
			free(rels);
		}
		/* Validated already; a file that changed since is an error. */
		if (gs_job_load_sha(c->paths[i], c->env->cat, &job, &d, wsha) ||
		    (in && !S_same_input(&job, wsha, in))) {
			snprintf(c->err, c->errlen, "%s changed while the site was built", c->paths[i]);
			gs_diag_release(&d);
			gs_job_release(&job);
			return -1;
		}
		if (c->site_key && !keyed) {
			if (S_job_key(c, i, &job, wsha, c->key)) {
				gs_job_release(&job);
				return -1;
			}
			if (S_reuse(c, i, job.w.id, job.w.title, c->key)) {
				gs_job_release(&job);
				(*done)++;
				if (S_finish(c, i))
					return -1;
				continue;
			}
		}
		jrc = S_publish_one(c, i, &job, done);
		gs_job_release(&job);
		if (jrc)
			return -1;
	}
	return 0;
}

/*
 * A worker's report, one compact JSON object a line (JSON escapes the
 * newlines of strings): per workload of its range in order, every field of
 * its gs_publish_result with its "files" and "key" (written as each is
 * done, S_finish), and its reasons: "why": the length of the block of
 * them (S_why_block) that follows the line, for a sheet rendered, or
 * "span" ([offset, length] of its "why" in the replaced site's keys
 * file) for a sheet reused; then {"manifest": its evidence
 * entries (see gs_archive_export), "rendered": N}. The parent reads a line
 * at a time. A field added to gs_publish_result must be added to
 * S_result_pack and S_result_unpack, or -j N would lose it.
 */
static json_t *S_result_pack(const gs_publish_result *r)
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
	free(st);
	return o;
}

/*
 * The reasons of a result, per offer: a string, null (none), or the index
 * of the first earlier offer with the same reason (offers of one GPU model
 * share most of theirs: a third of the bytes). Of result i of rs (loaded
 * with its reasons), noffers of them.
 */
static json_t *S_why_pack(const gs_site_results *rs, size_t i, size_t noffers)
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

/* out[0, n) from a "why" array of n (S_why_pack); 0, or -1 (out untouched). */
static int S_why_strings(json_t *why, size_t n, char **out)
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
static int S_why_unpack(json_t *why, gs_publish_result *r)
{
	char **v = gs_xcalloc(r->noffers + 1, sizeof(*v));

	if (S_why_strings(why, r->noffers, v)) {
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
static char *S_why_block(const gs_publish_result *r, size_t *len)
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

/* r->reason, r->noffers of them, from the n bytes of f that S_why_block wrote; 0 or -1. */
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
static json_t *S_result_pack_all(const S_render_ctx *c, size_t i, char **why, size_t *whylen)
{
	json_t *o = S_result_pack(&c->cur), *files = json_array();
	size_t k;

	(void)i;
	for (k = 0; k < c->cur.files.n; k++)
		json_array_append_new(files, json_string(c->cur.files.v[k]));
	json_object_set_new(o, "files", files);
	json_object_set_new(o, "key", json_string(c->site_key ? c->key : ""));
	*why = NULL;
	*whylen = 0;
	if (c->span.len) {
		json_object_set_new(o, "span", json_pack("[II]", (json_int_t)c->span.off,
							 (json_int_t)c->span.len));
	} else {
		*why = S_why_block(&c->cur, whylen);
		json_object_set_new(o, "why", json_integer((json_int_t)*whylen));
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

static int S_result_unpack(json_t *o, const gs_catalog *cat, gs_publish_result *r)
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
	return 0;
}

/* In a worker: render [from, to), writing the report as it goes (or the error alone) to out. */
static int S_worker(size_t from, size_t to, void *ctx, FILE *out)
{
	S_render_ctx *c = ctx;
	size_t done = 0, n;
	json_t *root;
	char *man;

	c->report = out;
	if (S_render_range(c, from, to, &done)) {
		/* the report of a failure is its message alone */
		if (fflush(out) != 0 || ftruncate(fileno(out), 0) != 0 || fseek(out, 0, SEEK_SET) != 0)
			return -1;
		fputs(c->err, out);
		return -1;
	}
	man = gs_archive_export(c->archive, &n);
	root = json_object();
	json_object_set_new(root, "rendered", json_integer((json_int_t)c->rendered));
	json_object_set_new(root, "manifest", json_stringn(man, n));
	free(man);
	if (json_dumpf(root, out, JSON_COMPACT) != 0 || fputc('\n', out) == EOF)
		GS_BUG("cannot write a worker's report");
	json_decref(root);
	return 0;
}

/*
 * Result i from its line in a worker's report (S_result_pack_all): with
 * its key and span, spooled as in one process (S_finish). 0, or -1 with err.
 */
static int S_take_result(S_render_ctx *c, size_t i, json_t *o, FILE *f, size_t *done)
{
	json_t *why = json_object_get(o, "why");
	const char *key = json_string_value(json_object_get(o, "key"));
	json_t *fl;
	size_t m;

	if (S_result_unpack(o, c->env->cat, &c->cur) || !key ||
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
		gs_strvec_push_dup(&c->cur.files, json_string_value(fl));
	if (c->site_key)
		snprintf(c->key, GS_SHA256_HEX_SIZE, "%s", key);
	return S_finish(c, i);
bad:
	gs_publish_result_release(&c->cur);
	memset(&c->span, 0, sizeof(c->span));
	snprintf(c->err, c->errlen, "the report of a worker cannot be read");
	return -1;
}

/*
 * Renders every workload in jobs worker processes (workers.h), then merges
 * their results and evidence entries in worker order, which is workload
 * order: the same bytes as one process. A report is read a line (a result)
 * at a time, each result spooled as in one process. 1: two workers named
 * the same evidence bytes differently (the caller builds again in one
 * process).
 */
static int S_render_parallel(S_render_ctx *c, size_t npaths, unsigned jobs, size_t *done)
{
	gs_worker_reports rep;
	size_t k, i, cap = 0;
	char *line = NULL;
	int rc = 0;

	if (gs_workers_run(npaths, jobs, S_worker, c, c->dir, &rep, c->err, c->errlen))
		return -1;
	for (k = 0; k < rep.n && rc == 0; k++) {
		FILE *f = rep.report[k];
		json_t *root;
		const char *man;
		ssize_t len;

		for (i = rep.from[k]; rc == 0 && i < rep.to[k]; i++) {
			json_t *o;

			len = getline(&line, &cap, f);
			o = len > 0 ? json_loadb(line, (size_t)len, 0, NULL) : NULL;
			if (!o) {
				snprintf(c->err, c->errlen, "the report of a worker cannot be read");
				rc = -1;
			} else if (S_take_result(c, i, o, f, done)) {
				rc = -1;
			}
			json_decref(o);
		}
		if (rc)
			break;
		len = getline(&line, &cap, f);
		root = len > 0 ? json_loadb(line, (size_t)len, 0, NULL) : NULL;
		man = json_string_value(json_object_get(root, "manifest"));
		if (!man) {
			snprintf(c->err, c->errlen, "the report of a worker cannot be read");
			rc = -1;
		} else {
			c->rendered += (size_t)json_integer_value(json_object_get(root, "rendered"));
			rc = gs_archive_import(c->archive, man, strlen(man));
			if (rc < 0)
				snprintf(c->err, c->errlen, "%s", gs_archive_error(c->archive));
		}
		json_decref(root);
	}
	free(line);
	gs_worker_reports_release(&rep);
	return rc;
}

/*** the pass that reads every workload as it renders it ***/

/*
 * Reads and validates the workload at path and hashes its bytes (as read
 * and parsed: the file is read once) and each file it cites: what a build
 * keeps of it (in: id and title once it is read, sha256 and the cited
 * files) and its errors (d, empty before). 0 when it is valid, with job
 * loaded; else -1. The caller releases job and in.
 */
static int S_learn_one(const char *path, const gs_catalog *cat, gs_job *job, gs_site_input *in,
		       gs_diag *d)
{
	size_t k;

	memset(in, 0, sizeof(*in));
	if (gs_job_load_sha(path, cat, job, d, in->sha256)) {
		in->sha256[0] = '\0';
		return -1;
	}
	in->id = gs_xstrdup(job->w.id);
	in->title = gs_xstrdup(job->w.title);
	for (k = 0; k < job->nev; k++) {
		gs_strvec_push_dup(&in->ev_path, job->ev[k].ref->path);
		gs_strvec_push_dup(&in->ev_file, job->ev[k].ref->file);
		/* hashed as they were read (gs_job_file), not read again */
		gs_strvec_push_dup(&in->ev_sha256, job->files[k].sha256);
	}
	/* then the model's files, by their archive names ("model:..."): read
	 * from the replaced site's archive when the sheet is reused unread */
	for (k = 0; k < job->nm; k++) {
		gs_strvec_push_dup(&in->ev_path, "");
		gs_strvec_push_dup(&in->ev_file, job->mnames.v[k]);
		gs_strvec_push_dup(&in->ev_sha256, job->mfiles[k].sha256);
	}
	return 0;
}

/*
 * In a worker's report, what S_learn_one found (compact JSON): "d", its
 * errors in printed form ([file, line, column, path or null, message]),
 * and once it was read "id", "title", "sha" and "ev" ([name, SHA-256 or
 * "" when unreadable] per cited file). Not the cited files' paths, which
 * S_learn_unpack makes as the workload's reader does: a JSON string must
 * be UTF-8, a folder's name need not.
 */
static json_t *S_learn_pack(const gs_site_input *in, const gs_diag *d)
{
	json_t *o = json_object(), *items = json_array();
	size_t k;

	if (in->id) {
		json_t *ev = json_array();
		json_object_set_new(o, "id", json_string(in->id));
		json_object_set_new(o, "title", json_string(in->title));
		json_object_set_new(o, "sha", json_string(in->sha256));
		for (k = 0; k < in->ev_path.n; k++)
			json_array_append_new(ev, json_pack("[ss]", in->ev_file.v[k],
							    in->ev_sha256.v[k]));
		json_object_set_new(o, "ev", ev);
	}
	for (k = 0; k < d->count; k++)
		json_array_append_new(items, json_pack("[siios]", d->items[k].file, d->items[k].line,
						       d->items[k].column,
						       d->items[k].path ? json_string(d->items[k].path)
								       : json_null(),
						       d->items[k].message));
	json_object_set_new(o, "d", items);
	return o;
}

/* S_learn_pack's object o of the workload at path into in and d; 0 or -1. */
static int S_learn_unpack(json_t *o, const char *path, gs_site_input *in, gs_diag *d)
{
	const char *slash = strrchr(path, '/');
	/* a cited file's path: the workload's folder (up to its last '/') and its name */
	int dl = slash ? (int)(slash - path) + 1 : 0;
	const char *id = json_string_value(json_object_get(o, "id"));
	json_t *e;
	size_t k;

	if (!json_is_array(json_object_get(o, "d")))
		return -1;
	json_array_foreach(json_object_get(o, "d"), k, e)
		gs_diag_add_shown(d, json_string_value(json_array_get(e, 0)),
				  (int)json_integer_value(json_array_get(e, 1)),
				  (int)json_integer_value(json_array_get(e, 2)),
				  json_string_value(json_array_get(e, 3)),
				  json_string_value(json_array_get(e, 4)));
	if (id) {
		in->id = gs_xstrdup(id);
		in->title = gs_xstrdup(json_string_value(json_object_get(o, "title")));
		snprintf(in->sha256, sizeof(in->sha256), "%s",
			 json_string_value(json_object_get(o, "sha")));
		json_array_foreach(json_object_get(o, "ev"), k, e) {
			const char *name = json_string_value(json_array_get(e, 0));
			const char *sha = json_string_value(json_array_get(e, 1));
			if (!name || !sha)
				return -1;
			gs_strvec_push(&in->ev_path, gs_xasprintf("%.*s%s", dl, path, name));
			gs_strvec_push_dup(&in->ev_file, name);
			gs_strvec_push_dup(&in->ev_sha256, sha);
		}
	}
	return 0;
}

/* Every error of src after those of dst, as they are (already in printed form). */
static void S_diag_append(gs_diag *dst, const gs_diag *src)
{
	size_t k;

	for (k = 0; k < src->count; k++)
		gs_diag_add_shown(dst, src->items[k].file, src->items[k].line, src->items[k].column,
				  src->items[k].path, src->items[k].message);
}

/* Loaded, valid workload i of this build's range: its sheet reused (its key unchanged) or rendered. */
static int S_sheet_job(S_render_ctx *c, size_t i, gs_job *job, const gs_site_input *in,
		       size_t *done)
{
	if (c->site_key) {
		if (S_job_key(c, i, job, in->sha256, c->key))
			return -1;
		if (S_reuse(c, i, in->id, in->title, c->key)) {
			(*done)++;
			return S_finish(c, i);
		}
	}
	return S_publish_one(c, i, job, done);
}

/*
 * Workload a of all: read (S_learn_one) and, when it is valid and in this
 * build's range, its sheet reused or rendered at once, from what was read,
 * unless a sheet failed already (a workload's error comes before a
 * sheet's) or a workload has an error (c->invalid): the rest is then only
 * read, for its errors. In a worker, one line to out: S_learn_pack's
 * object, with "r": the result (S_result_pack_all) when there is one;
 * else into c->learn (path a's record) and c->diag. 0, or -1 when out cannot be written.
 */
static int S_item(S_render_ctx *c, size_t a, FILE *out, size_t *done)
{
	gs_diag d = GS_DIAG_INIT;
	gs_site_input in;
	gs_job job;
	int rc = 0;

	if (S_learn_one(c->all[a], c->env->cat, &job, &in, &d) != 0) {
		if (c->invalid && d.count)
			*c->invalid = 1;
	} else if (!c->failed && !(c->invalid && *c->invalid) && c->archive &&
		   a >= c->from && a - c->from < c->n &&
		   S_sheet_job(c, a - c->from, &job, &in, done)) {
		c->failed = 1;
		gs_publish_result_release(&c->cur);
	}
	gs_job_release(&job);
	if (out) {
		json_t *o = S_learn_pack(&in, &d);
		if (c->pending)
			json_object_set_new(o, "r", c->pending);
		c->pending = NULL;
		rc = json_dumpf(o, out, JSON_COMPACT) == 0 && fputc('\n', out) != EOF ? 0 : -1;
		if (!rc && c->pending_why &&
		    fwrite(c->pending_why, 1, c->pending_whylen, out) != c->pending_whylen)
			rc = -1;
		free(c->pending_why);
		c->pending_why = NULL;
		json_decref(o);
	} else {
		if (!c->lost && gs_site_learnt_put(c->learn, a, &in, c->err, c->errlen))
			c->lost = 1;
		S_diag_append(c->diag, &d);
	}
	gs_site_input_release(&in);
	gs_diag_release(&d);
	return rc;
}

/*
 * The order in which the workers take the paths when only some are
 * rendered (a shard): each path rendered followed by its share of those
 * only read, so that the workers' equal ranges (workers.h) are about equal
 * work. The rendered keep their order, and so do their results spooled
 * and the evidence's first names.
 */
static size_t *S_order(size_t nall, size_t from, size_t n)
{
	size_t *v = gs_xcalloc(nall + 1, sizeof(*v)), o = nall - n, j = 0, q, x = 0;

	if (!n) {
		for (j = 0; j < nall; j++)
			v[j] = j;
		return v;
	}
	for (q = 0; q < n; q++) {
		v[j++] = from + q;
		for (; x < (q + 1) * o / n; x++)
			v[j++] = x < from ? x : x + n;
	}
	return v;
}

/* In a worker: the items [from, to) of c->order, then a last line (S_learn_parallel). */
static int S_learn_worker(size_t from, size_t to, void *ctx, FILE *out)
{
	S_render_ctx *c = ctx;
	size_t j, done = 0, n;
	json_t *root;
	char *man;

	c->report = out;
	for (j = from; j < to; j++)
		if (S_item(c, c->order ? c->order[j] : j, out, &done)) {
			/* the report of a failure is its message alone */
			if (fflush(out) == 0 && ftruncate(fileno(out), 0) == 0 &&
			    fseek(out, 0, SEEK_SET) == 0)
				fputs("cannot write a worker's report", out);
			return -1;
		}
	if (c->failed) {
		/* the message as it is (a path need not be UTF-8), to the end */
		fputs("!\n", out);
		fputs(c->err, out);
		return 0;
	}
	man = c->archive ? gs_archive_export(c->archive, &n) : NULL;
	root = json_object();
	json_object_set_new(root, "rendered", json_integer((json_int_t)c->rendered));
	json_object_set_new(root, "manifest", man ? json_stringn(man, n) : json_string(""));
	free(man);
	if (json_dumpf(root, out, JSON_COMPACT) != 0 || fputc('\n', out) == EOF)
		GS_BUG("cannot write a worker's report");
	json_decref(root);
	return 0;
}

/* Past the reasons' block of result r in f, not read (a sheet failed already); 0 or -1. */
static int S_skip_why(FILE *f, json_t *r)
{
	json_int_t n = json_integer_value(json_object_get(r, "why"));

	return n < 0 || n > ((json_int_t)1 << 30) || fseeko(f, (off_t)n, SEEK_CUR) != 0 ? -1 : 0;
}

/*
 * S_item over all, in jobs workers: their reports read in worker order,
 * each item's errors put back in the paths' order, the results taken as
 * S_render_parallel takes them, each worker's evidence entries imported
 * unless a sheet failed. 0, 1 (as S_render_parallel), or -1 with err.
 */
static int S_learn_parallel(S_render_ctx *c, unsigned jobs, size_t *done)
{
	gs_worker_reports rep;
	size_t k, j, cap = 0;
	char *line = NULL;
	int rc = 0;

	if (c->from || c->n < c->nall) {
		c->order = S_order(c->nall, c->from, c->n);
		c->item_diag = gs_xcalloc(c->nall + 1, sizeof(*c->item_diag));
	}
	if (gs_workers_run(c->nall, jobs, S_learn_worker, c, c->dir, &rep, c->err, c->errlen))
		return -1;
	for (k = 0; k < rep.n && rc >= 0; k++) {
		FILE *f = rep.report[k];
		json_t *root;
		const char *man;
		ssize_t len;

		for (j = rep.from[k]; rc >= 0 && j < rep.to[k]; j++) {
			size_t a = c->order ? c->order[j] : j;
			gs_site_input in;
			json_t *o, *r;
			int bad;

			len = getline(&line, &cap, f);
			o = len > 0 ? json_loadb(line, (size_t)len, 0, NULL) : NULL;
			r = json_object_get(o, "r");
			memset(&in, 0, sizeof(in));
			bad = !o || S_learn_unpack(o, c->all[a], &in,
						   c->item_diag ? &c->item_diag[a] : c->diag);
			if (!bad && gs_site_learnt_put(c->learn, a, &in, c->err, c->errlen)) {
				rc = -1;   /* said why */
			} else if (bad) {
				snprintf(c->err, c->errlen, "the report of a worker cannot be read");
				rc = -1;
			} else if (r && !c->failed && (a < c->from || a - c->from >= c->n ||
						       S_take_result(c, a - c->from, r, f, done))) {
				snprintf(c->err, c->errlen, "the report of a worker cannot be read");
				rc = -1;
			} else if (r && c->failed && S_skip_why(f, r)) {
				snprintf(c->err, c->errlen, "the report of a worker cannot be read");
				rc = -1;
			}
			gs_site_input_release(&in);
			json_decref(o);
		}
		if (rc < 0)
			break;
		len = getline(&line, &cap, f);
		if (len == 2 && line[0] == '!') {
			/* a sheet failed: its message, the first in the paths' order */
			char *msg = gs_xmalloc(c->errlen);
			size_t got = fread(msg, 1, c->errlen - 1, f);
			if (!c->failed) {
				memcpy(c->err, msg, got);
				c->err[got] = '\0';
				c->failed = 1;
			}
			free(msg);
			continue;
		}
		root = len > 0 ? json_loadb(line, (size_t)len, 0, NULL) : NULL;
		man = json_string_value(json_object_get(root, "manifest"));
		if (!man) {
			snprintf(c->err, c->errlen, "the report of a worker cannot be read");
			rc = -1;
		} else if (!c->failed && rc == 0 && c->archive) {
			int ir;
			c->rendered += (size_t)json_integer_value(json_object_get(root, "rendered"));
			ir = gs_archive_import(c->archive, man, strlen(man));
			if (ir < 0) {
				snprintf(c->err, c->errlen, "%s", gs_archive_error(c->archive));
				c->failed = 1;
			} else if (ir > 0) {
				rc = 1;
			}
		}
		json_decref(root);
	}
	free(line);
	gs_worker_reports_release(&rep);
	return rc;
}

/*
 * Every workload of c->all read and validated, and the sheets of this
 * build's range rendered as they are read (S_item), in jobs workers when
 * there are several; then the caller's check (validated). 0, 1 (as
 * S_render_parallel), 2 when validated stopped the build, or -1 with err
 * (a sheet failed, or the workers).
 */
static int S_learn_pass(S_render_ctx *c, unsigned jobs, size_t *done,
			int (*validated)(void *, gs_site_learnt *), void *arg)
{
	size_t a;
	int rc = 0;
	void *shared = mmap(NULL, sizeof(*c->invalid), PROT_READ | PROT_WRITE,
			    MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	/* (without the mapping, a workload's error just comes after the rendering) */
	c->invalid = shared != MAP_FAILED ? shared : NULL;
	if (c->invalid)
		*c->invalid = 0;
	if (jobs > 1 && c->nall > 1) {
		rc = S_learn_parallel(c, jobs, done);
	} else {
		for (a = 0; a < c->nall; a++)
			(void)S_item(c, a, NULL, done);
	}
	if (c->invalid)
		(void)munmap(shared, sizeof(*c->invalid));
	c->invalid = NULL;
	if (c->item_diag) {
		for (a = 0; a < c->nall; a++) {
			if (rc >= 0)
				S_diag_append(c->diag, &c->item_diag[a]);
			gs_diag_release(&c->item_diag[a]);
		}
		free(c->item_diag);
		c->item_diag = NULL;
	}
	free(c->order);
	c->order = NULL;
	if (rc < 0 || c->lost)
		return -1;
	if (validated && validated(arg, c->learn))
		return 2;
	/* a workload's error stopped the rendering: the build must stop */
	if (gs_diag_count(c->diag))
		GS_BUG("%zu errors in the workloads, and the build goes on", gs_diag_count(c->diag));
	return c->failed ? -1 : rc;
}

/*
 * Phase 1: renders workloads c->paths[0, n) into dir: their sheets in
 * sheets/, their evidence in evidence/ with its manifest, res[] and keys[]
 * filled. 0, -1 with err, or 1 (see S_render_parallel).
 */
static int S_render_sheets(S_render_ctx *c, size_t n, unsigned jobs, size_t *done,
			   const gs_site_opts *opts)
{
	int rc;

	if (c->learn) {
		rc = S_learn_pass(c, jobs, done, opts->validated, opts->validated_arg);
		if (rc)
			return rc;
	} else if (jobs > 1 && n > 1) {
		rc = S_render_parallel(c, n, jobs, done);
		if (rc)
			return rc;
	} else if (S_render_range(c, 0, n, done)) {
		return -1;
	}
	if (gs_archive_write_manifest(c->archive)) {
		snprintf(c->err, c->errlen, "%s", gs_archive_error(c->archive));
		return -1;
	}
	return 0;
}

/* gs_site_pages, taking from the replaced site what pp allows (S_pages). */
static int S_site_pages(const gs_publish_env *env, const char *dir, S_pages *pp, FILE *old,
			char *err, size_t errlen)
{
	size_t n = gs_site_results_count(pp->rs);
	int demonstration = gs_site_results_demonstration(pp->rs);
	char *nav_root = S_nav(env->t, "");
	int rc = -1;

	S_pages_setup(pp, env->cat, old);
	/* the style sheet every page of the site links (GS_SITE_CSS), once */
	if (gs_write_atomic(dir, GS_SITE_CSS, env->tp->css, strlen(env->tp->css), err, errlen))
		goto out;
	if (S_index_pages(env, pp->rs, n, dir, nav_root, demonstration, pp, err, errlen) ||
	    S_offers_pages(env, pp->rs, n, dir, nav_root, demonstration, err, errlen) ||
	    S_offer_detail_pages(env, n, dir, demonstration, pp, err, errlen))
		goto out;
	if (pp->keyed && S_write_keys(pp->rs, pp->old_fd, pp, dir, err, errlen))
		goto out;
	rc = 0;
out:
	free(nav_root);
	return rc;
}

static void S_pages_release(S_pages *pp)
{
	free(pp->order);
	free(pp->reuse);
	S_why_page_free(pp);
}

int gs_site_pages(const gs_publish_env *env, gs_site_results *rs, const char *dir, char *err,
		  size_t errlen)
{
	S_pages pp;
	int rc;

	memset(&pp, 0, sizeof(pp));
	pp.rs = rs;
	pp.keyed = 1;
	pp.old_fd = -1;
	rc = S_site_pages(env, dir, &pp, NULL, err, errlen);
	S_pages_release(&pp);
	return rc;
}

/* A shard's identity (shard.h) from what it rendered. */
static int S_write_shard(const gs_publish_env *env, const gs_site_opts *opts, size_t npaths,
			 size_t from, const gs_site_results *rs, const char *site_key,
			 const char *dir, char *err, size_t errlen)
{
	gs_shard s;
	size_t i;
	int rc;

	memset(&s, 0, sizeof(s));
	s.k = opts->shard_k;
	s.n = opts->shard_n;
	s.workloads = npaths;
	s.from = from;
	for (i = 0; i < gs_site_results_count(rs); i++)
		gs_strvec_push_dup(&s.ids, gs_site_results_id(rs, i));
	snprintf(s.workloads_sha256, sizeof(s.workloads_sha256), "%s", opts->workloads_key);
	snprintf(s.inputs_sha256, sizeof(s.inputs_sha256), "%s", opts->inputs_key);
	snprintf(s.catalog_sha256, sizeof(s.catalog_sha256), "%s", opts->catalog_key);
	snprintf(s.site_key, sizeof(s.site_key), "%s", site_key);
	s.generator = gs_xstrdup("gpusheet " GS_VERSION);
	s.lang = gs_xstrdup(gs_lang_id(env->t->lang));
	s.date = gs_xstrdup_or_null(env->date);
	s.png = env->png;
	s.md = env->md;
	s.accept_synthetic = env->accept_synthetic;
	rc = gs_shard_write(&s, dir, err, errlen);
	gs_shard_release(&s);
	return rc;
}

/*
 * Builds the whole site, or one shard of it (opts->shard_n), into dir (a
 * fresh stage): phase 1 renders the sheets (S_render_sheets), phase 2 builds
 * the pages from their results (gs_site_pages), or for a shard writes the
 * results and the shard's identity for `merge`. prev: the site or shard it
 * replaces, or NULL. With opts->learn, what the pass learns is spooled in
 * dir, into *learnt (the caller frees it); else *learnt is what was
 * learnt before, or NULL. 0, -1 with err, or 1 (see S_render_parallel).
 */
static int S_build_into(char *const *paths, size_t npaths, const gs_publish_env *env0,
			const gs_site_opts *opts, gs_site_learnt **learnt, unsigned jobs,
			const char *dir, const char *prev, char *err, size_t errlen)
{
	gs_publish_env env = *env0;
	size_t from = 0, to = npaths, n;
	char *sheets = gs_xasprintf("%s/sheets", dir);
	char *nav_sheet = S_nav(env.t, "../");
	char site_key[GS_SHA256_HEX_SIZE];
	gs_archive *archive = NULL;
	S_render_ctx c;
	size_t done = 0;
	int rc = -1;

	if (opts->shard_n)
		gs_shard_range(npaths, opts->shard_k, opts->shard_n, &from, &to);
	n = to - from;
	memset(&c, 0, sizeof(c));
	c.prev_sheets_fd = c.sheets_fd = -1;
	if (gs_mkdirs(sheets)) {
		snprintf(err, errlen, "cannot create %s", sheets);
		goto out;
	}
	archive = gs_site_archive(dir, err, errlen);
	if (!archive)
		goto out;
	c.out = gs_site_results_new(dir, env.cat, GS_SITE_PAGE_ROWS, err, errlen);
	if (!c.out)
		goto out;
	gs_archive_set_previous(archive, prev);
	env.nav_html = nav_sheet;
	env.link_prefix = "../";
	env.sheet_prefix = "sheets/";
	c.paths = paths + from;
	c.inputs = *learnt;
	c.inputs_from = from;
	c.env = &env;
	c.archive = archive;
	c.dir = dir;
	c.sheets = sheets;
	c.err = err;
	c.errlen = errlen;
	if (opts->catalog_key) {
		gs_site_key(&env, opts->catalog_key, site_key);
		c.site_key = site_key;
		if (prev)
			S_keys_open(prev, &c.old); /* none usable: a full build */
		c.prev_sheets = prev ? gs_xasprintf("%s/sheets", prev) : NULL;
		if (c.prev_sheets)
			c.prev_sheets_fd = open(c.prev_sheets, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	}
	c.sheets_fd = open(sheets, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (opts->learn) {
		*learnt = gs_site_learnt_new(dir, npaths, err, errlen);
		if (!*learnt)
			goto out;
		c.all = paths;
		c.nall = npaths;
		c.from = from;
		c.n = n;
		c.learn = *learnt;
		c.diag = opts->diag;
		c.inputs = NULL;
	} else if (c.inputs && jobs > 1 && gs_site_learnt_flush(c.inputs, err, errlen)) {
		goto out;   /* (the workers read it) */
	}
	rc = S_render_sheets(&c, n, jobs, &done, opts);
	if (rc)
		goto out;
	rc = -1;
	if (gs_site_results_count(c.out) != n)
		GS_BUG("%zu workloads but %zu results", n, gs_site_results_count(c.out));
	if (opts->shard_n) {
		if (S_write_keys(c.out, c.old.f ? fileno(c.old.f) : -1, NULL, dir, err, errlen) ||
		    S_write_shard(&env, opts, npaths, from, c.out, site_key, dir, err, errlen))
			goto out;
	} else {
		S_pages pp;
		memset(&pp, 0, sizeof(pp));
		pp.rs = c.out;
		pp.keyed = opts->catalog_key != NULL;
		pp.old_fd = c.old.f ? fileno(c.old.f) : -1;
		pp.prev = prev;
		if (c.old.f)
			pp.old_pages = gs_jscan_find(&c.old.scan, 1, "pages");
		rc = S_site_pages(&env, dir, &pp, c.old.f, err, errlen);
		if (opts->pages_reused)
			*opts->pages_reused = pp.pages_reused;
		if (opts->pages_rendered)
			*opts->pages_rendered = pp.pages_rendered;
		S_pages_release(&pp);
		if (rc) {
			rc = -1;
			goto out;
		}
		rc = -1;
	}
	if (opts->rendered)
		*opts->rendered = c.rendered;
	rc = 0;
out:
	/* (a build that failed may have left one) */
	gs_publish_result_release(&c.cur);
	free(sheets);
	free(nav_sheet);
	free(c.prev_sheets);
	if (c.prev_sheets_fd >= 0)
		close(c.prev_sheets_fd);
	if (c.sheets_fd >= 0)
		close(c.sheets_fd);
	S_keys_close(&c.old);
	gs_site_results_free(c.out);
	if (archive)
		gs_archive_free(archive);
	return rc;
}

/* What an existing, non-empty shard folder must hold to be replaced. */
static const char *const S_shard_marks[] = { GS_SHARD_FILE, "sheets", NULL };

/*
 * opts->learn without a stage: every workload read and validated, nothing
 * rendered or written (what was learnt spooled into *learnt, an anonymous
 * file in the temporary folder; the caller frees it), then
 * opts->validated. 0, 2 (validated stopped the build) or -1 with err.
 */
static int S_learn_only(char *const *paths, size_t npaths, const gs_publish_env *env,
			const gs_site_opts *opts, gs_site_learnt **learnt, unsigned jobs, char *err,
			size_t errlen)
{
	const char *tmp = getenv("TMPDIR");
	S_render_ctx c;
	size_t done = 0;

	/* what is learnt goes to the temporary folder: nothing visible is written */
	*learnt = gs_site_learnt_new(tmp && *tmp ? tmp : P_tmpdir, npaths, err, errlen);
	if (!*learnt)
		return -1;
	memset(&c, 0, sizeof(c));
	c.prev_sheets_fd = c.sheets_fd = -1;
	c.env = env;
	c.err = err;
	c.errlen = errlen;
	c.all = c.paths = paths;
	c.nall = npaths;
	c.learn = *learnt;
	c.diag = opts->diag;
	return S_learn_pass(&c, jobs, &done, opts->validated, opts->validated_arg);
}

/* Whether out's parent folder exists (gs_stage_begin would create it). */
static int S_parent_exists(const char *out)
{
	char *p = gs_xstrdup(out), *slash;
	size_t n = strlen(p);
	struct stat sb;
	int rc = 1;

	while (n > 1 && p[n - 1] == '/')
		p[--n] = '\0';
	slash = strrchr(p, '/');
	if (slash && slash != p) {
		*slash = '\0';
		rc = stat(p, &sb) == 0;
	}
	free(p);
	return rc;
}

int gs_site_build(char *const *paths, size_t npaths, const gs_publish_env *env,
		  const gs_site_opts *opts0, const char *out_dir, char *err, size_t errlen)
{
	unsigned jobs = opts0->jobs ? opts0->jobs : 1;
	gs_site_opts opts = *opts0;
	gs_site_learnt *learnt = NULL;   /* what the validation learnt, once it did */
	int rc;

	if (opts.learn && (!out_dir || !S_parent_exists(out_dir))) {
		/* Nothing may be written before every workload is read: not even
		 * OUT's parent folder, which the stage would create. They are read
		 * first, then rendered from what was learnt. */
		rc = S_learn_only(paths, npaths, env, &opts, &learnt, jobs, err, errlen);
		if (rc || !out_dir)
			goto out;
		opts.learn = 0;
	}
	if (opts.shard_n && (!opts.catalog_key || !opts.workloads_key || !opts.inputs_key))
		GS_BUG("a shard needs the catalog's and the workloads' keys");
	for (;;) {
		gs_stage *st = gs_stage_begin(out_dir, opts.shard_n ? S_shard_marks : S_site_marks,
					      err, errlen);

		if (!st) {
			if (opts.learn) {
				/* the workloads' errors come first, as when nothing is staged */
				char *said = gs_xstrdup(err);
				rc = S_learn_only(paths, npaths, env, &opts, &learnt, jobs, err, errlen);
				if (rc == 0)
					snprintf(err, errlen, "%s", said);
				free(said);
				rc = rc ? rc : -1;
				goto out;
			}
			rc = -1;
			goto out;
		}
		rc = S_build_into(paths, npaths, env, &opts, &learnt, jobs, gs_stage_dir(st),
				  gs_stage_previous(st), err, errlen);
		if (rc == 0)
			rc = gs_stage_commit(st, err, errlen);
		gs_stage_free(st);
		if (rc != 1)
			goto out;
		jobs = 1; /* evidence named differently by two workers: once more, in one process */
		/* read already: rendered from what was learnt (its spool outlives the stage) */
		opts.learn = 0;
	}
out:
	gs_site_learnt_free(learnt);
	return rc;
}
