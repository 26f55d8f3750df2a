/*
 * site_ctx: what the files of the site (site*.c) share and no other module
 * uses: the context of the sheets' pass, the pages' keys, the HTML writer,
 * and the functions each file gives the others (named gs_site_*, declared
 * here, not in a public header).
 */
#ifndef GS_SITE_CTX_H
#define GS_SITE_CTX_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>
#include <time.h>
#include <jansson.h>
#include <nettle/sha2.h>

#include "buf.h"
#include "evidence.h"
#include "publish.h"
#include "site.h"
#include "site_figures.h"
#include "site_find.h"
#include "site_keys.h"
#include "site_nav.h"
#include "site_learnt.h"
#include "site_results.h"
#include "util.h"
#include "workers.h"

/* Longest short title in the matrix's first column, in bytes (then "…"). */
#define GS_SITE_SHORT_TITLE 48

/*
 * A keys file open for reading (site_keys.h: a JSON text a line), read
 * once line by line at its opening, by each line's fixed prefix only: a
 * sheet's line is parsed (jansson) only when asked for, the pages' lines
 * once, in order (gs_site_keys_pages), so that reading the keys of a large
 * site costs an id and two offsets per sheet, never the whole file as a
 * tree. Workers share the descriptor (pread only).
 */
typedef struct {
	size_t id;                 /* its id's offset in gs_site_keys.ids */
	uint64_t off, len;         /* its bytes in the file, its newline included */
} gs_site_keys_line;

typedef struct {
	FILE *f;                   /* NULL: no keys file usable */
	gs_buf ids;                /* the sheets' ids, each with its NUL */
	gs_site_keys_line *sheets; /* the sheets' lines, in the file's order (by id) */
	size_t nsheets;
	uint64_t pages_off, pages_len;  /* the pages' lines */
	size_t sheets_lineno;      /* the number of the first sheet's line (from 1) */
} gs_site_keys;

/*
 * What phase 2 (the pages) may take from the site it replaces. A page whose
 * key (S_page_key: the keys of the sheets it shows and the figures it
 * shows of the others) is the one recorded in the replaced site's keys file
 * is linked from there instead of rendered.
 *
 * The pages with a key, numbered (a "page number" t below): first the index
 * pages, t = page x ncols + col (col: a page of GS_SITE_PAGE_COLS columns), then the per-offer pages, t = npages x
 * ncols + page x noffers + offer. A page's key is a function of its number,
 * of what was summed of all results (counts, demonstration) and of the hash
 * of its workloads' keys (gs_site_results_rows): computed again when
 * needed, never kept, so that no memory goes per page; what is kept of the
 * replaced keys file is a bit per page (its key is the one this build
 * gives it).
 */
typedef struct {
	gs_site_results *rs;      /* the sheets' results, keys and spans (site_results.h) */
	int keyed;                /* 0: no page keys, render all */
	int old_fd;               /* the replaced keys file (the spans' bytes), or -1 */
	const gs_site_keys *old;  /* the replaced keys file (its pages' lines), or NULL */
	const char *prev;         /* the replaced site, or NULL */
	const gs_catalog *cat;
	size_t n, npages, ncols, noffers, ntuples;  /* ntuples: pages with a key */
	int demonstration;
	const size_t (*counts)[3];  /* gs_site_results_counts */
	size_t *order;            /* the matrix's offers, column by column (gs_site_figures_gpu_columns) */
	size_t *start;            /* column c: order[start[c]] to order[start[c + 1] - 1] (in order's block) */
	size_t ncolumns;          /* the matrix's columns (lots of a GPU model) */
	unsigned char *reuse;     /* bit t: page t has the same key in the replaced keys file */
	size_t pages_reused, pages_rendered;  /* of those with a key */
	char ***why_page;         /* reasons of the reused sheets of the rows loaded: [i - why_from][k] */
	size_t why_from, why_to;
	/* The GPU pages (site_gpus.c): the models in byte order, each page's
	 * name ("gpus/SLUG.html", unique) and per offer its model's number */
	const char **gpu_model;
	char **gpu_page;
	size_t ngpus;
	size_t *gpu_of;
} gs_site_pagekeys;

/* An id (a sheet's, an offer's) and its index, to sort by id (strcmp, as jansson sorts keys). */
typedef struct {
	const char *id;
	size_t i;
} gs_site_idref;

/*
 * The index, offers and per-offer pages are written here as HTML, the
 * bytes their document tree gave (gs_doc, then doc_html.c) with the same
 * escaping (gs_html_escape, gs_doc_html_url): building a tree for
 * each page and walking it took about a tenth of a 200 x 50 site's CPU.
 * The layout is the one doc_html.c writes (a block ends with a newline,
 * a table's rows and cells each start on a new line), but for the rows of
 * a per-offer page, a line each (S_offer_detail_page).
 */
typedef gs_buf gs_site_w;   /* a page's bytes; GS_BUF_INIT to start one */

#define S_LIT(w, lit) gs_buf_put((w), (lit), sizeof(lit) - 1)

/* The stat cache of the site replaced (site_stat.c). */
typedef struct gs_site_statcache gs_site_statcache;

/* What the workers share (each a copy of its own, after fork). */
typedef struct {
	char *const *paths;
	/* What the validation learnt of each path (site_learnt.h), paths[i]'s
	 * at inputs_from + i, or NULL */
	gs_site_learnt *inputs;
	size_t inputs_from;
	const gs_publish_env *env;
	gs_archive *archive;
	const char *dir;           /* the stage: the workers' reports go there */
	const char *sheets;
	gs_publish_result cur;     /* the result of the workload being done (gs_site_one_finish takes it) */
	gs_error *err;
	/* incremental builds (NULL site_key: none) */
	const char *site_key;      /* hex SHA-256 of what every sheet depends on */
	char *prev_sheets;         /* sheets/ of the site replaced, or NULL */
	int prev_sheets_fd, sheets_fd;  /* open folders (-1: none) for linkat */
	gs_site_keys old;                /* its keys file (old.f NULL: none usable) */
	char key[GS_SHA256_HEX_SIZE];  /* cur's key */
	gs_site_span span;         /* cur's reasons in old's file, when reused (else len 0) */
	size_t rendered;           /* sheets rendered, not reused */
	/* The stat cache of the site replaced, or NULL (--rehash: none), and
	 * the start of this build (a file not older is never recorded;
	 * since_set 0: nothing recorded) */
	const gs_site_statcache *statcache;
	struct timespec since;
	int since_set;
	size_t unread;             /* workloads reused unread (their stat fields unchanged) */
	/* Where a finished result goes (gs_site_one_finish): in a worker, its report;
	 * else the results' spools (site_results.h; item i: workload i's). */
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
	size_t *order;             /* the workers' order of all (gs_site_learn_order), or NULL: the paths' */
	int failed;                /* a sheet failed (its message in err): the rest is only read */
	/* Set when a workload has an error (the build will stop): the rest
	 * is only read, so that the errors come without rendering the site
	 * first; shared between the workers (mapped before they fork). */
	volatile int *invalid;
	json_t *pending;           /* in a worker: the result of the item being done (gs_site_one_finish) */
	char *pending_why;         /* and its reasons (gs_site_one_why_block), or NULL */
	size_t pending_why_len;
} gs_site_ctx;

/* site_nav.c: page names, the navigation and the pager's pages */
char *gs_site_nav(const gs_strings *t, const char *prefix);
const char *gs_site_nav_status_key(unsigned char s);
const char *gs_site_nav_status_symbol(unsigned char s);
/* A class (gs_class; GS_CLASS_COUNT: not compared): its status (0 to 4, as
 * gs_publish_result's), and its short name's label key ("site.class.fits"). */
unsigned char gs_site_nav_class_status(unsigned char cls);
const char *gs_site_nav_class_key(unsigned char cls);
void gs_site_nav_page_name(char *buf, size_t len, size_t page, size_t col);
void gs_site_nav_offers_name(char *buf, size_t len, size_t page);
void gs_site_nav_row_page(char *buf, size_t len, size_t i, size_t col, const char *id);
void gs_site_nav_col_page(char *buf, size_t len, size_t i, size_t row, const char *id);
void gs_site_nav_offer_page(char *buf, size_t len, size_t i, size_t other, const char *id);
void gs_site_nav_detail_name(char *buf, size_t len, const char *id, size_t page);

/* site_html.c: the HTML writer of the site's pages (gs_site_w) */
void gs_site_html_raw(gs_site_w *w, const char *s);
void gs_site_html_text(gs_site_w *w, const char *s);
void gs_site_html_textf(gs_site_w *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void gs_site_html_num(gs_site_w *w, uint64_t v);
void gs_site_html_code(gs_site_w *w, const char *s);
void gs_site_html_a(gs_site_w *w, const char *url);
void gs_site_html_para(gs_site_w *w, const char *text);
void gs_site_html_h1(gs_site_w *w, const char *text);
void gs_site_html_table(gs_site_w *w, const char *caption, const char *const *heads, size_t ncols);
void gs_site_html_row(gs_site_w *w, size_t *rows);
void gs_site_html_td(gs_site_w *w);
void gs_site_html_table_end(gs_site_w *w, size_t rows);
void gs_site_html_pager(gs_site_w *w, const char *label, size_t cur, size_t n,
		     void (*name_of)(char *, size_t, size_t, size_t, const char *), size_t other,
		     const char *id);
void gs_site_html_demo(gs_site_w *w, const gs_strings *t, int demonstration);
int gs_site_html_page(const gs_publish_env *env, const char *dir, const char *name, gs_site_w *body,
		   const char *title, const char *nav, const char *root, const char *script,
		   gs_error *err);

/* site_figures.c: the figures of the offers: memory, order, groups, cost per GiB-day, the charts' data */
char *gs_site_figures_fmt_q4(char *buf, size_t len, uint64_t v, gs_lang lang);
void gs_site_figures_cost_per_gib_day(char *buf, size_t len, const gs_plan *p, uint64_t bytes,
			      uint64_t cards, gs_lang lang);
int gs_site_figures_same_group(const gs_offer *a, const gs_offer *b);

/* site_pagekeys.c: the pages' keys, and what the pages take from the site they replace */
void gs_site_pagekeys_tuple_name(const gs_site_pagekeys *pp, size_t t, char *name, size_t len);
void gs_site_pagekeys_tuple_key(const gs_site_pagekeys *pp, size_t t, char hex[GS_SHA256_HEX_SIZE]);
int gs_site_pagekeys_by_id(const void *a, const void *b);
void gs_site_pagekeys_setup(gs_site_pagekeys *pp, const gs_catalog *cat);
int gs_site_pagekeys_page_reuse(gs_site_pagekeys *pp, const char *dir, const char *name, size_t t);
int gs_site_pagekeys_why_page_load(gs_site_pagekeys *pp, size_t from, size_t to, gs_error *err);
const char *gs_site_pagekeys_reason(const gs_site_pagekeys *pp, size_t i, size_t k);
void gs_site_pagekeys_why_page_free(gs_site_pagekeys *pp);
/* Frees what gs_site_pagekeys_setup made. */
void gs_site_pagekeys_release(gs_site_pagekeys *pp);
/* s with its NUL (a separator) into a key's hash. */
void gs_site_pagekeys_hash_str(struct sha256_ctx *h, const char *s);

/* site_index.c: the index pages: the workload x offer matrix */
char *gs_site_index_short_title(const char *title, int *cut);
int gs_site_index_pages(const gs_publish_env *env, gs_site_results *rs, size_t n,
			const char *dir, const char *nav, int demonstration, gs_site_pagekeys *pp,
			gs_error *err);

/*
 * site_index.c: a cell of a GPU lot for workload pr: the best of offers
 * order[from, to) for it (its class, then its price per hour), with its
 * class (its status's symbol and colour), price per hour and cost of a
 * million tokens at the speed bound, linked to the sheet's row (root: the
 * site's root seen from the page), the provider in its title and for
 * screen readers.
 */
void gs_site_index_lot_cell(gs_site_w *w, const gs_strings *t, const gs_catalog *cat,
			    const gs_publish_result *pr, const size_t *order, size_t from, size_t to,
			    const char *root);
/* An id as HTML: escaped, a line break allowed after each separator (- _ . /). */
void gs_site_index_id_html(gs_site_w *w, const char *id);

/* site_gpus.c: the GPU pages, one per GPU model of the catalog */
int gs_site_gpus_pages(const gs_publish_env *env, gs_site_pagekeys *pp, size_t n, const char *dir,
		       int demonstration, gs_error *err);

/* site_offers.c: the offers pages and their charts */
void gs_site_offers_calendar_cell(gs_site_w *w, const gs_publish_env *env, const gs_offer *o);
char *gs_site_offers_mem_group(const gs_strings *t, uint64_t mem);
int gs_site_offers_pages(const gs_publish_env *env, gs_site_results *rs, size_t nres,
			 const char *dir, const char *nav, int demonstration, gs_error *err);

/* site_offer_detail.c: the per-offer pages */
int gs_site_offer_detail_pages(const gs_publish_env *env, size_t n, const char *dir,
			       int demonstration, gs_site_pagekeys *pp, gs_error *err);

/* site_keysfile.c: the keys file read a line at a time */
void gs_site_keys_close(gs_site_keys *k);
/*
 * dir's keys file, its lines indexed (gs_site_keys): 0 when its first line
 * is this format's and every other line a page's or a sheet's (its prefix,
 * the sheets sorted by id, each line ended by a newline), else -1 (k
 * empty) with the reason in why (may be NULL), naming the line: "cannot
 * read: No such file or directory", "is a FIFO, not a regular file", "is
 * a symbolic link (not followed)", over GS_SITE_KEYS_MAX_BYTES, "is of
 * format gpusheet-keys/3 ...", "line N: ...".
 */
int gs_site_keys_open(const char *dir, gs_site_keys *k, gs_error *why);
/* The line of sheet id, or NULL. */
const gs_site_keys_line *gs_site_keys_find(const gs_site_keys *k, const char *id);
/* Its id, and its line's number in the file (from 1). */
const char *gs_site_keys_line_id(const gs_site_keys *k, const gs_site_keys_line *l);
size_t gs_site_keys_lineno(const gs_site_keys *k, const gs_site_keys_line *l);
/*
 * Sheet line l parsed (jansson, duplicate names refused): an object whose
 * "sheet" is its id (new reference), with its bytes in *bytes when bytes
 * is not NULL (l->len of them, the newline included, and a NUL; the
 * caller frees them); NULL with why (may be NULL): "line N, column C: ...".
 */
json_t *gs_site_keys_load(const gs_site_keys *k, const gs_site_keys_line *l, char **bytes,
			  gs_error *why);
/*
 * The pages' lines, in order, each parsed: fn(arg, name, key) for each
 * {"page": name, "key": key} of two strings. 0, or -1 at the first line
 * that is not one, with why (may be NULL) naming it.
 */
int gs_site_keys_pages(const gs_site_keys *k, void (*fn)(void *arg, const char *name,
							 const char *key),
		       void *arg, gs_error *why);

/* site_keys.c: incremental builds: the sheets' keys, reuse, the keys file written */
int gs_site_keys_job_key(gs_site_ctx *c, size_t i, gs_job *job, const char *wsha,
		    char hex[GS_SHA256_HEX_SIZE]);
void gs_site_keys_input_key(const gs_site_ctx *c, const gs_site_learnt_item *in,
		       char (*rels)[GS_EVIDENCE_REL_SIZE], char hex[GS_SHA256_HEX_SIZE]);
int gs_site_keys_input_archive(gs_site_ctx *c, size_t i, const gs_site_learnt_item *in,
			  char (*rels)[GS_EVIDENCE_REL_SIZE]);
int gs_site_keys_same_input(const gs_job *job, const char *wsha, const gs_site_learnt_item *in);
int gs_site_keys_reuse(gs_site_ctx *c, size_t i, const char *id, const char *title, const char *key);
int gs_site_keys_write(gs_site_results *rs, int old_fd, const gs_site_pagekeys *pages, const char *dir,
		       gs_error *err);

/* site_one.c: one workload's result: rendered, finished, packed into a
 * worker's report and taken back */
int gs_site_one_finish(gs_site_ctx *c, size_t i);
int gs_site_one_publish(gs_site_ctx *c, size_t i, gs_job *job, size_t *done);
json_t *gs_site_one_result_pack(const gs_publish_result *r);
json_t *gs_site_one_why_pack(const gs_site_results *rs, size_t i, size_t noffers);
int gs_site_one_why_strings(json_t *why, size_t n, char **out);
int gs_site_one_why_unpack(json_t *why, gs_publish_result *r);
char *gs_site_one_why_block(const gs_publish_result *r, size_t *len);
json_t *gs_site_one_result_pack_all(const gs_site_ctx *c, size_t i, char **why, size_t *why_len);
int gs_site_one_result_unpack(json_t *o, const gs_catalog *cat, gs_publish_result *r);
int gs_site_one_take_result(gs_site_ctx *c, size_t i, json_t *o, FILE *f, size_t *done);

/* site_render.c: the render pass: sheets rendered in one process or in workers */
int gs_site_render_parallel(gs_site_ctx *c, size_t npaths, unsigned jobs, size_t *done);
int gs_site_render_sheets(gs_site_ctx *c, size_t n, unsigned jobs, size_t *done,
			  const gs_site_opts *opts);

/* site_learn.c: the pass that reads and validates every workload as it renders */
int gs_site_learn_item(gs_site_ctx *c, size_t a, FILE *out, size_t *done);
size_t *gs_site_learn_order(size_t nall, size_t from, size_t n);
int gs_site_learn_pass(gs_site_ctx *c, unsigned jobs, size_t *done,
		       int (*validated)(void *, gs_site_learnt *), void *arg);

/* site_stat.c: the stat cache, inputs trusted unread */
char *gs_site_stat_text(const struct stat *wst, const gs_strvec *ev_path,
			const struct timespec *since, struct timespec *newest, uint64_t *sizes);
gs_site_statcache *gs_site_stat_open(const char *dir);
int gs_site_stat_get(const gs_site_statcache *s, const char *path, gs_site_input *in,
			  uint64_t **sizes);
void gs_site_stat_free(gs_site_statcache *s);
void gs_site_stat_write(const char *dir, char *const *paths, size_t from, size_t n,
			     gs_site_learnt *learnt, const char *signature, size_t pages);
int gs_site_stat_unchanged(const gs_site_statcache *s, const char *dir, char *const *paths,
				size_t npaths, const char *signature, size_t *pages);
int gs_site_keys_trusted(gs_site_ctx *c, size_t i, gs_site_input *in, const uint64_t *sizes,
		    size_t *done);

#endif
