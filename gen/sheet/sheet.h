/*
 * sheet: the decision sheet as one document tree (gs_doc) plus its charts.
 *
 * Invariants: built once from the stages' structs, then rendered as
 * Markdown and HTML by the render module; every figure carries its
 * provenance in words; missing values read as missing; user text enters as
 * text nodes only (notes through gs_doc_user_markdown). Pure: no I/O.
 */
#ifndef GS_SHEET_H
#define GS_SHEET_H

#include <stdint.h>

#include "catalog.h"
#include "chart.h"
#include "doc.h"
#include "sizing.h"
#include "labels.h"
#include "verdict.h"
#include "workload.h"

struct gs_sheet_reasonset;

typedef struct {
	const gs_workload *w;
	const gs_sizing *s;
	const gs_evidence *ev;
	size_t nev;
	const char *const *ev_links;  /* link to each raw evidence file, from the sheet */
	/* Or NULL: link to the archived log of each imported measurement (an
	 * entry NULL for a measurement not imported from a log). */
	const char *const *ev_log_links;
	/* the model's files archived with the evidence (publish.h: gs_job.mnames),
	 * their record last, and the link to each from the sheet */
	const char *const *model_names;
	const char *const *model_links;
	size_t nmodel;
	const gs_catalog *cat;
	const gs_decision *d;
	const gs_strings *t;
	const char *date;             /* YYYY-MM-DD or NULL (no clock is read) */
	const char *catalog_name;     /* how the catalog is named in the sheet */
	int png;                      /* 1: charts also as PNG, each linked below its SVG */
	/* Or NULL: the reason of every verdict, made once by gs_sheet_reasons
	 * for the sheet, the decision JSON and the site (a third of their text
	 * formatting was the same sentences made three times). */
	char *const *reasons;
	/* Or NULL: the distinct reasons (gs_sheet_reasons_set_build), made once
	 * for the sheet and the decision JSON, each borrowing in->reasons. */
	const struct gs_sheet_reasonset *rs;
	/* Or NULL: each offer's note with its name masked, indexed like
	 * cat->offers (gs_sheet_sources_notes_masked), made once per catalog; else
	 * made for each offer of the sheet. */
	const char *const *notes_masked;
} gs_sheet_input;

typedef struct {
	char *name;                   /* file name stem: ID-budget, ID-phases-1, ... */
	char *title;
	gs_chart_out out;
} gs_sheet_chart;

typedef struct {
	gs_doc doc;
	gs_sheet_chart *charts;
	size_t ncharts;
} gs_sheet;

int gs_sheet_build(const gs_sheet_input *in, gs_sheet *out);
void gs_sheet_release(gs_sheet *s);

/* "admissible" / "admisible"... with a symbol, for cells: "✔ admissible". */
const char *gs_sheet_words_verdict_symbol(gs_verdict_kind k);

/* "Memory", "Memoria"...: the label of a requirement. */
/* The label key of a candidate's class ("class.fits", ...). */
const char *gs_sheet_words_class_key(gs_class k);
const char *gs_sheet_words_req_label(const gs_strings *t, gs_req r);
/* A figure's provenance in words ("calculated", "observed", "assumed"), or
 * the synthetic measurement's words for one read from a file not produced
 * on a GPU: as every figure of a sheet and of the site's pages says it. */
const char *gs_sheet_words_prov(const gs_strings *t, gs_prov prov, int synthetic);
/* The reason of a verdict in words (figures formatted). Caller frees. */
char *gs_sheet_words_reason_text(const gs_strings *t, const gs_verdict *v);

/*
 * Each offer's catalog note with the offer's name masked, indexed like
 * cat->offers: the name (the longest tail of the offer's id, the whole id
 * or what follows one of its '-', of 4 bytes at least, that the note holds
 * in any case), every occurrence one byte \1; NULL for an offer without a
 * note or whose note does not name it. Notes that differ by their offers'
 * names alone are then one note of the sheet. It depends on the catalog
 * alone: made once (a site makes it before its workers fork, and every
 * sheet borrows it through gs_sheet_input.notes_masked) rather than for
 * every offer of every sheet. Free with gs_sheet_sources_notes_masked_free(m,
 * cat->noffers).
 */
char **gs_sheet_sources_notes_masked(const gs_catalog *cat);
void gs_sheet_sources_notes_masked_free(char **m, size_t n);

/* A source with its first "line N" (or "lines N, M", "lines N-M") masked as
 * one byte \2, *spec the numbers as written (caller frees both); NULL and
 * *spec NULL when it cites no line. */
char *gs_sheet_sources_line_mask(const char *text, char **spec);
/* "line 113", or "lines 2, 8, 9, 113 and 40 more": n specs, each once, in
 * order of their first number (spec is sorted). Caller frees. */
char *gs_sheet_sources_lines_text(const gs_strings *t, char **spec, size_t n);
/*
 * The reasons of every verdict of d: element c * GS_REQ_COUNT + q is the
 * reason of requirement q of d->cands[c] (gs_sheet_words_reason_text);
 * elements of the same sentence may share its bytes (never free or change
 * one alone). Free with gs_sheet_reasons_free(r, d->ncands).
 */
char **gs_sheet_reasons(const gs_strings *t, const gs_decision *d);
void gs_sheet_reasons_free(char **r, size_t ncands);
/* The reason of v, a verdict of d->cands[c] for requirement q: from
 * in->reasons, else made now. Caller frees. */
char *gs_sheet_reasons_of(const gs_sheet_input *in, size_t c, int q);

/*
 * The distinct reasons of a decision. The verdicts of one requirement that
 * say the same thing (verdict, reason key, text, evidence and its date,
 * exclusion, what would confirm it, note, orientation, synthetic marks,
 * lower bound) are one reason, written once with the offers it applies to:
 * at 50 offers, 300 verdicts say about 26 things. Reasons are numbered in
 * first-appearance order over the candidates in table order (d->order),
 * then the requirements in gs_req order; the Markdown and HTML sheets list
 * them per requirement, the decision JSON in its "reasons" array.
 */
typedef struct {
	gs_req req;
	const gs_verdict *v;          /* the first verdict that says it, borrowed from d */
	char *text;                   /* its reason in words (gs_sheet_reasons_of) */
	size_t *pos;                  /* positions in d->order of the offers it applies to, ascending */
	size_t npos;
	uint64_t hash;                /* of text, to compare quickly */
} gs_sheet_reason;

typedef struct gs_sheet_reasonset {
	gs_sheet_reason *r;
	size_t n;
	int borrowed;                 /* 1: each text is in->reasons' (not freed here) */
	/* of[c * GS_REQ_COUNT + q]: the reason of requirement q of d->cands[c] */
	size_t *of;
} gs_sheet_reasonset;

/*
 * Budget reasons that differ by the cost alone, merged as the sheet lists
 * them (one reason, the range of the costs): rep[i] is the reason that
 * reason i is merged into (i itself when it is not); for a reason with
 * others merged into it, text[i] says the range and evidence[i] lists the
 * evidence's lines (NULL: its own text or evidence). Release with
 * gs_sheet_reasons_merge_release.
 */
typedef struct {
	size_t n;
	size_t *rep;
	char **text;
	char **evidence;
} gs_sheet_reasonmerge;
void gs_sheet_reasons_merge(const gs_sheet_input *in, const struct gs_sheet_reasonset *rs,
			    gs_sheet_reasonmerge *m);
void gs_sheet_reasons_merge_release(gs_sheet_reasonmerge *m);

/* Groups every verdict of in->d. Release with gs_sheet_reasons_set_release. */
void gs_sheet_reasons_set_build(const gs_sheet_input *in, gs_sheet_reasonset *rs);
void gs_sheet_reasons_set_release(gs_sheet_reasonset *rs);

/*
 * The answer for a terminal (sheet_brief.c): the sheet's answer sentence,
 * then at most six lines: the best offer of each class with its count,
 * price and what it still needs, and the counts of the excluded and the
 * reference cards; plain text, one final newline. Caller frees.
 */
char *gs_sheet_brief_text(const gs_sheet_input *in);
/*
 * The decision's summary for scripts ("gpusheet-brief", docs/formats.md):
 * the answer sentence, the offer to take, the best offer and count of
 * each class, and paths (the files written, as given). Caller frees.
 */
char *gs_sheet_brief_json(const gs_sheet_input *in, const char *const *paths, size_t npaths);

/*
 * The offers a sheet's candidates table gives rows: every retained offer
 * and reference card, and the offers that fit or whose capacity holds the
 * lower bound among the first GS_SHEET_TABLE_OFFERS of them in the
 * decision's order. The others (those beyond, those only a measurement
 * can tell, of unknown capacity, excluded) are counted by lot in the short
 * table: GPU model and cards per lot, how many, the lowest price per hour;
 * the decision JSON keeps each one's figures.
 */
#define GS_SHEET_TABLE_OFFERS 50

/* lot[i] for d->cands[i]: 1 when the short table counts it in a lot, 0
 * when it is (in) a row of the candidates table. lot holds d->ncands. */
void gs_sheet_offers_in_lots(const gs_decision *d, unsigned char *lot);
/*
 * The fragment of the sheet's HTML that holds offer o of class cls, for
 * the site's links (sheets/ID.html#FRAGMENT) and the sheet's own ids, one
 * function for both: "offer-ID" for an offer of the candidates table
 * (in_lot 0: gs_sheet_offers_in_lots); else its lot's in the short table,
 * "lot-CLASS-Nx-MODEL" (CLASS: fits, lower, measure, unknown or excluded;
 * N its cards; MODEL the GPU model, the vendor table's where it resolves
 * the offer's (gs_verdict_offer_gpu), in lower case, every run of
 * characters other than letters, digits and '.' one '-'). Caller frees.
 */
char *gs_sheet_offers_fragment(const gs_offer *o, gs_class cls, int in_lot);

/* Sweep: when measurements vary exactly one numeric dimension. */
typedef struct {
	const char *dim;              /* the varied dimension */
	size_t idx[64];               /* evidence indexes, sorted by the dimension */
	size_t n;
} gs_sweep;
int gs_sheet_measure_find_sweep(const gs_evidence *ev, size_t nev, gs_sweep *sw);

#endif
