/*
 * sheet_int: what the files of the sheet (sheet*.c) share and no other
 * module uses: the context of one sheet's build, the sets of what offers
 * share, and the functions each file gives the others (named
 * gs_sheet_<file>_*, declared here, not in the public sheet.h).
 */
#ifndef GS_SHEET_INT_H
#define GS_SHEET_INT_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hash.h"
#include "measurement.h"
#include "sheet.h"
#include "util.h"

/* The context of one sheet's build, passed to every section (S_ctx: the
 * name it had when the sheet was one file). */
typedef struct {
	const gs_sheet_input *in;
	const gs_strings *t;
	gs_lang lang;
	gs_doc *doc;
	cmark_node *root;
	gs_sheet *out;
	/* {cost} of a budget reason: as "\3" (mask), or as "COST–cost_hi" */
	int cost_mask, cost_range;
	int64_t cost_hi;
	/* after the candidates table: row_n[pos], the offers of the table row
	 * whose first offer stands at pos in d->order (1 for each offer of the
	 * compact table, 0 for a row's other offers); NULL before */
	size_t *row_n;
	/* a table of more than GS_SHEET_FEW_OFFERS rows: a source or a note
	 * gives the number of its offers, not their ids (each row names its
	 * sources and notes by number) */
	int count_offers;
	/* in_lot[ci]: d->cands[ci] is counted in a lot of the short table
	 * (gs_sheet_offers_in_lots); lot_frag[pos]: the fragment of the lot
	 * of the offer at pos in d->order (gs_sheet_offers_fragment), NULL for
	 * an offer of the table; both NULL before the candidates section */
	unsigned char *in_lot;
	char **lot_frag;
	/* lot_of[pos]: the lot's number (0 to nlot - 1, distinct fragments in
	 * order of their first offer), SIZE_MAX for an offer of the table */
	size_t *lot_of, nlot;
} S_ctx;

#define TR(key) gs_tr(c->t, key)

/*
 * What several offers share, written once: a source document (the memory
 * figure's or the price's, with its date) or a catalog note. Each distinct
 * text is numbered in first-appearance order over the offers in table
 * order; an offer's row names it by that number.
 */
typedef struct {
	char *text;            /* the source with its date, or the note (its name masked) */
	char *shown;           /* a note: the first offer's, as written; NULL: text */
	int names_differ;      /* a note: its offers' notes differ by their names */
	uint64_t hash;
	size_t *pos[2];        /* positions in d->order: [0] memory figure or note, [1] price */
	size_t npos[2];
	char **spec;           /* a source whose line numbers were masked: each offer's lines */
	size_t nspec;
} gs_sheet_shared;

typedef struct {
	gs_sheet_shared *s;
	size_t n, cap;
	size_t *slot;          /* open addressing by hash: entry + 1, 0 empty */
	size_t nslot;          /* a power of two, at least twice n */
} gs_sheet_sharedset;

/* Beyond this many offers, a list of offers gives their number, not their
 * ids (gs_sheet_sources_offer_list_or_count). */
#define GS_SHEET_FEW_OFFERS 3

/* sheet_words.c */
extern const char *const gs_sheet_words_req_keys[GS_REQ_COUNT];
const char *gs_sheet_words_verdict_word(S_ctx *c, gs_verdict_kind k);
const char *gs_sheet_words_qprov(S_ctx *c, gs_qty q);
char *gs_sheet_words_qty_words(S_ctx *c, gs_qty q);
char *gs_sheet_words_signed_gib(S_ctx *c, int64_t v, gs_qty need, gs_qty capacity);
char *gs_sheet_words_expand(S_ctx *c, const char *tpl, const gs_verdict *v);
char *gs_sheet_words_reason(S_ctx *c, const gs_verdict *v);
void gs_sheet_words_size_cells(S_ctx *c, cmark_node *row, gs_qty q);
char *gs_sheet_words_counter(S_ctx *c, gs_opt_u64 v);
int gs_sheet_words_evidence_synthetic(S_ctx *c, const char *file);
void gs_sheet_words_cell_owned(cmark_node *row, char *text);
void gs_sheet_words_add_chart(S_ctx *c, const char *suffix, const char *title, gs_chart_out *o);
void gs_sheet_words_chart_text(S_ctx *c, gs_chart_text *ct, const char *title);
const char *gs_sheet_words_basis_key(gs_basis b);
const char *gs_sheet_words_class_words(S_ctx *c, gs_class k);
const char *gs_sheet_words_class_short_key(gs_class k);
void gs_sheet_words_pos_push(size_t **a, size_t *n, size_t pos);
void gs_sheet_words_anchor(gs_doc *doc, cmark_node *node, const char *prefix, const char *name,
		     void (*set)(gs_doc *, cmark_node *, const char *));
int gs_sheet_words_cmp_size(const void *a, const void *b);
int gs_sheet_words_same_qty(gs_qty a, gs_qty b);
int gs_sheet_words_same_str(const char *a, const char *b);

/* sheet_answer.c */
void gs_sheet_answer_warning_synthetic(S_ctx *c);
int gs_sheet_answer_price_text(S_ctx *c, cmark_node *p, const gs_candidate *cd);
void gs_sheet_answer_headroom_text(S_ctx *c, cmark_node *p, const gs_candidate *cd);
void gs_sheet_answer_decision_summary(S_ctx *c);
void gs_sheet_answer_summary_card(S_ctx *c);
void gs_sheet_answer_decision(S_ctx *c);

/* sheet_speed.c: the speed columns of the candidates table and their paragraph */
int gs_sheet_speed_any(const gs_decision *d);
/* The bound's cell of an offer; the cost of a million tokens over the row
 * whose offers are first, next[first], ... (positions in d->order). */
void gs_sheet_speed_bound_cell(S_ctx *c, cmark_node *row, const gs_candidate *cd);
void gs_sheet_speed_mtok_cell(S_ctx *c, cmark_node *row, const size_t *next, size_t first);
void gs_sheet_speed_para(S_ctx *c);

/* sheet_memory.c */
void gs_sheet_memory_identity(S_ctx *c);
void gs_sheet_memory_sizing(S_ctx *c);
void gs_sheet_memory_budget_chart(S_ctx *c);
/* The workload under its runtime (vLLM): settings, budget and KV pool per offer. */
void gs_sheet_memory_runtime(S_ctx *c);

/* sheet_training.c: a workload with a training recipe */
void gs_sheet_training_sizing(S_ctx *c);
void gs_sheet_training_lever(S_ctx *c, cmark_node *p);
/* The budget chart's segments of the recipe's items per card (at most
 * GS_TI_COUNT, the empty left out); returns how many. */
size_t gs_sheet_training_segments(S_ctx *c, gs_chart_segment *segs);

/* sheet_measure.c */
void gs_sheet_measure_measurements(S_ctx *c);

/* sheet_sources.c */
size_t gs_sheet_sources_share_shown(gs_sheet_sharedset *set, char *text, char *shown, int k, size_t pos);
size_t gs_sheet_sources_share(gs_sheet_sharedset *set, char *text, int k, size_t pos);
char *gs_sheet_sources_offer_note_masked(const S_ctx *c, const gs_offer *o);
char *gs_sheet_sources_unmask(const char *text, const char *lines);
size_t gs_sheet_sources_share_source(gs_sheet_sharedset *set, char *text, int k, size_t pos);
void gs_sheet_sources_shared_release(gs_sheet_sharedset *set);
void gs_sheet_sources_offer_list(S_ctx *c, cmark_node *p, const size_t *pos, size_t n);
void gs_sheet_sources_offer_list_or_count(S_ctx *c, cmark_node *p, const size_t *pos, size_t n);
void gs_sheet_sources_shared_list(S_ctx *c, const gs_sheet_sharedset *set, const char *heading_key,
			  const char *heading_id, const char *prefix, int sources);
size_t gs_sheet_sources_source_number(const gs_sheet_sharedset *sources, const char *source, const char *date);

/* sheet_reasons.c */
void gs_sheet_reasons_budget_merge(S_ctx *c, const gs_sheet_reasonset *rs, size_t *rep, size_t *next);
void gs_sheet_reasons_section(S_ctx *c, const gs_sheet_reasonset *rs, const gs_sheet_sharedset *sources,
		      const size_t *rep, const size_t *next);

/* sheet_columns.c: the candidates table's columns, one descriptor each. */
typedef struct {
	S_ctx *c;
	const gs_sheet_reasonset *rs;
	const size_t *rep;             /* rep[reason]: its reason, the budget's merged */
	const size_t *next;            /* next[pos]: the next offer of pos's row, SIZE_MAX after the last */
	const size_t *src_of;          /* [2 pos], [2 pos + 1]: the memory figure's and the price's source number */
	const size_t *note_of;         /* [pos]: the catalog note's number (SIZE_MAX: none) */
	size_t *nums;                  /* room for 3 numbers per offer */
	int same[GS_REQ_COUNT];        /* the same verdict and reason on every row: a sentence, no column */
	int any_speed, any_room;
	char *vtext[4][2];             /* a verdict's words by kind, then synthetic */
	char *vshort[4][2];            /* a verdict's cell: its symbol (the legend above the table) */
	const char *w_status[GS_CLASS_COUNT];  /* a class's cell: its short words */
	int cls_shown[GS_CLASS_COUNT]; /* the classes of the table's rows (their legend) */
	int unstated;                  /* a cost cell carries the billing mark */
	/* a table of more than GS_SHEET_FEW_OFFERS rows: each capacity basis
	 * (the figure's words, and the public log of a reported total) once
	 * below the table, marked [cN] in its cells, in first-use order */
	int cap_marks;
	char **cap_basis;
	const char **cap_log;
	size_t ncap;
} gs_sheet_cands;

/* How a column takes part in the identity of a row of equivalent offers. */
typedef enum {
	GS_COL_KEY,    /* the row's offers give the same cell: same() (and hash(), if any) */
	GS_COL_RANGE,  /* same() compares what the cell's range needs alike (kinds, currencies);
			* the cell gives the range over the row's offers */
	GS_COL_EACH    /* not compared (same and hash NULL): the cell names every offer's value */
} gs_sheet_col_ident;

typedef struct {
	const char *key;               /* header words, a strings key (NULL: the requirement's) */
	int arg;                       /* the requirement of a requirement's column */
	/* NULL: always shown (whether shown or not, the identity holds) */
	int (*shown)(const gs_sheet_cands *t, int arg);
	/* NULL: the header is the words; else the words expanded */
	char *(*header)(S_ctx *c, const char *words);
	/* appends the cell(s) of the row whose first offer is at first, nof offers */
	void (*cell)(gs_sheet_cands *t, int arg, cmark_node *row, size_t first, size_t nof);
	gs_sheet_col_ident ident;
	/* ca, cb, ci: indices in d->cands */
	int (*same)(const S_ctx *c, const gs_sheet_reasonset *rs, int arg, size_t ca, size_t cb);
	uint64_t (*hash)(const S_ctx *c, const gs_sheet_reasonset *rs, int arg, size_t ci);
} gs_sheet_column;

extern const gs_sheet_column gs_sheet_columns[];
extern const size_t gs_sheet_ncolumns;
/* The row identity, from the table: offers of one row are same_row, and
 * then of the same row_hash. */
uint64_t gs_sheet_columns_row_hash(const S_ctx *c, const gs_sheet_reasonset *rs, size_t ci);
int gs_sheet_columns_same_row(const S_ctx *c, const gs_sheet_reasonset *rs, size_t ca, size_t cb);
int gs_sheet_columns_shown(const gs_sheet_cands *t, size_t k);
/* Column k's header, to free. */
char *gs_sheet_columns_header(S_ctx *c, size_t k);
/* The capacity bases marked [cN] in the table, once, below it (and freed). */
void gs_sheet_columns_cap_bases(gs_sheet_cands *t);

/* sheet_offers.c */
void gs_sheet_offers_candidates(S_ctx *c);

#endif
