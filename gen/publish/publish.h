/*
 * publish: the pipeline of one workload, edge to edge: read and validate
 * the workload and the measurements it cites, size, classify, archive the
 * evidence, build the sheet, render it and write its files.
 *
 * Invariants: gs_publish_load reads and validates everything and writes
 * nothing; it reads each cited file once, and the job keeps its bytes and
 * their SHA-256 (gs_job_file): every later use (a site's keys, the
 * archive) takes them from there, never from the file again, so the bytes
 * archived are the bytes that decided the verdicts, whatever happens to
 * the file meanwhile. gs_publish_job is only called on a loaded job and writes the
 * sheet's files, its new evidence and (write_manifest) the manifest as one
 * transaction (gs_outtx, outfile.h): every byte written before any of them
 * becomes visible, so a failed write leaves the folder as it was.
 */
#ifndef GS_PUBLISH_H
#define GS_PUBLISH_H

#include "catalog.h"
#include "error.h"
#include "evidence.h"
#include "measurement.h"
#include "render.h"
#include "sizing.h"
#include "labels.h"
#include "verdict.h"
#include "util.h"
#include "workload.h"

/*
 * A cited file as gs_publish_load read it: its bytes (parsed into its
 * measurement; at most GS_INPUT_MAX_BYTES, as a measurement's, so a job
 * holds about twice what its measurements take), their SHA-256 and, once
 * archived (gs_publish_archive), its link from the site's root.
 *
 * The bytes a job keeps of its distinct cited files are at most
 * GS_JOB_EVIDENCE_MAX_BYTES together (a file cited twice counts once): the
 * file that crosses it is refused with its JSON path and the bound, and
 * no later one is read.
 */
#define GS_JOB_EVIDENCE_MAX_BYTES ((size_t)64 << 20) /* 64 MiB */

typedef struct {
	char *bytes;                      /* NUL-terminated, len bytes before the NUL */
	size_t len;
	char sha256[GS_SHA256_HEX_SIZE];
	char rel[GS_EVIDENCE_REL_SIZE];   /* "evidence/<file>" once archived, else "" */
	int shared;                       /* bytes are an earlier file's (the same file cited twice) */
	/* An imported measurement's log (import.log.archived_as, beside it),
	 * read once with the measurement and checked against its SHA-256, so
	 * that it is archived with the sheet's evidence; NULL for any other. */
	char *log_bytes;
	size_t log_len;
	char log_rel[GS_EVIDENCE_REL_SIZE];
} gs_job_file;

typedef struct {
	gs_workload w;
	gs_measurement *ms;
	gs_evidence *ev;
	gs_job_file *files;               /* per ev[k], k < nev */
	size_t nev;
	size_t held;                      /* bytes of files[] not shared, together */
	/*
	 * The model's files as read (w.model, model.h), then the record that
	 * lists them, archived with the evidence under the names mnames:
	 * "model:KEY/NAME" (a header: "model:KEY/NAME.header"), and
	 * "model:KEY#files.json" (gs_model_record_name) last. bytes are the
	 * model's (shared), but the record's.
	 */
	gs_job_file *mfiles;
	gs_strvec mnames;
	size_t nm;
	gs_sizing s;
} gs_job;

typedef struct {
	const gs_catalog *cat;
	const char *catalog_name;
	const gs_strings *t;
	const gs_templates *tp;
	const char *date;          /* or NULL */
	const char *nav_html;      /* site navigation, or NULL */
	const char *link_prefix;   /* prefix of links from a sheet to the site root, "" for a lone sheet */
	const char *sheet_prefix;  /* where sheets are, seen from the site root: "sheets/" or "" */
	int accept_synthetic;      /* --accept-synthetic: demonstrations on synthetic files */
	int write_manifest;        /* 1: the evidence manifest goes with the sheet (a lone sheet) */
	int png;                   /* --png: each chart also as PNG, linked from the sheet */
	int md;                    /* write ID.md: a lone sheet always, a site with --md (its
				    * pages never link it: a copy of the HTML sheet) */
	int in_stage;              /* 1: dir is inside a stage nobody sees before it is swapped
				    * in whole (outfile.h): files go under their final names */
	const char *reference;     /* site, merge: the workload id of the offers page's
				      campaign chart (--reference), or NULL */
	/* Or NULL: each offer's note with its name masked (sheet.h:
	 * gs_sheet_sources_notes_masked of cat), borrowed by every sheet; a site
	 * makes it once, before its workers fork. */
	const char *const *notes_masked;
	/* The answer for the terminal (gs_publish_result.brief): 0 none,
	 * GS_PUBLISH_BRIEF_TEXT or GS_PUBLISH_BRIEF_JSON; brief_dir is how
	 * the sheet's folder is named in its paths. */
	int brief;
	const char *brief_dir;
} gs_publish_env;

#define GS_PUBLISH_BRIEF_TEXT 1
#define GS_PUBLISH_BRIEF_JSON 2

/* What the site needs to know of a published sheet. */
typedef struct {
	char *id;
	char *title;
	unsigned char *status;     /* per offer in catalog order: 0 retained, 1 pre-selected, 2 excluded, 3 not compared, 4 reference card */
	size_t noffers;
	int synthetic;
	int demonstration;         /* some verdict rests on a synthetic measurement */
	size_t nretained, npreselected;
	size_t nretained_synthetic;    /* retained offers resting on synthetic evidence */
	/* Total campaign cost per offer in catalog order, in hundredths, with the
	 * plan's currency (borrowed from the catalog); NULL currency: no plan. */
	int64_t *cost;
	const char **currency;
	/* The offer to take (gs_verdict_best): its catalog index, or
	 * GS_PUBLISH_NO_BEST; best_missing: bit q set when requirement q
	 * (gs_req) is still to confirm on it. */
	size_t best;
	unsigned best_missing;
	/* The offer to take's price per hour of its lot, in millionths
	 * (on-demand, else interruptible: best_hour_interruptible), with the
	 * plan's currency (borrowed from the catalog); NULL currency: none. */
	int64_t best_hour;
	const char *best_hour_currency;
	int best_hour_interruptible;
	/* Per offer in catalog order: its class (gs_class: what the sheet's
	 * class table names; GS_CLASS_COUNT: not compared), and the cost of a
	 * million output tokens at the speed bound (a lower bound on the
	 * cost, calculated), in millionths of mtok_currency (borrowed from
	 * the catalog; NULL: none), for the cheapest on-demand plan, else the
	 * cheapest interruptible one (mtok_intr 1). */
	unsigned char *cls;
	/* Per offer in catalog order: 1 when its sheet counts it in a lot of
	 * the short table (gs_sheet_offers_in_lots), which its links name
	 * (gs_sheet_offers_fragment); 0 otherwise. */
	unsigned char *in_lot;
	int64_t *mtok;
	const char **mtok_currency;
	unsigned char *mtok_intr;
	/* Per offer in catalog order: the last three cells of the offer
	 * page's row, tab-separated: the need per card and the margin (GiB,
	 * two decimals, provenance in words, or "missing"), then a capacity
	 * other than the catalog's, what remains to confirm by name
	 * (pre-selected) or every exclusion's reason (excluded); NULL: not
	 * compared. A site moves them to its spool once the result is
	 * complete and sets reason to NULL (site.h: memory per workload
	 * stays small). */
	char **reason;
	gs_strvec files;           /* names of the files written into the sheets' folder, in order */
	/* env->brief: the answer, then the paths of the HTML, Markdown and
	 * JSON sheets, one a line (text), or the summary as JSON; else NULL */
	char *brief;
} gs_publish_result;

#define GS_PUBLISH_NO_BEST ((size_t)-1)

/*
 * Fills the per-offer status, cost and best offer of res from a decision
 * (res->status, cost and currency allocated for noffers offers). Pure: the
 * site's matrix and its tests use it.
 */
void gs_publish_result_from_decision(const gs_decision *d, const gs_catalog *cat,
				     gs_publish_result *res);
/* Fills res->reason (after gs_publish_result_from_decision), in t's
 * language; reasons: the sheet's (gs_sheet_reasons), or NULL to make them. */
void gs_publish_result_reasons(const gs_decision *d, const gs_catalog *cat,
			       const gs_strings *t, char *const *reasons,
			       gs_publish_result *res);

/*
 * From now on a model that is not where a workload names it is looked for
 * in the model files archived in site_dir/evidence (model.h), as the
 * sheets published there archived them.
 */
void gs_publish_models_from(const char *site_dir);

/* Reads and validates the workload and its measurements against the catalog. */
int gs_publish_load(const char *workload_path, const gs_catalog *cat, gs_job *job, gs_diag *d);
/* The same, and the SHA-256 of the workload's bytes as read and parsed
 * into sha256_hex (65 bytes) when it returns 0: the file is read once. */
int gs_publish_load_sha(const char *workload_path, const gs_catalog *cat, gs_job *job, gs_diag *d,
		    char *sha256_hex);
/* Frees everything the job holds, its cited files' bytes too. */
void gs_publish_release(gs_job *job);

/*
 * Archives each cited file of a loaded job from the bytes it holds
 * (gs_evidence_archive_add_bytes), cited by citing_sheet, and keeps its link in
 * job->files[k].rel; a file archived already by this job is not archived
 * again (a site's key needs the links before gs_publish_job, which calls
 * this too: they are computed once). A job is archived into one archive.
 * 0, or -1 with "PATH: why" in err.
 */
int gs_publish_archive(gs_job *job, gs_archive *archive, const char *citing_sheet,
		   gs_error *err);

/*
 * Writes DIR/ID.md, ID.html, ID.json and the charts; archives the evidence
 * into archive (gs_publish_archive; its links are relative to DIR). summary_path: also write the
 * CI summary there (or NULL). Returns 0, or -1 with a message in err.
 */
int gs_publish_job(gs_job *job, const gs_publish_env *env, gs_archive *archive,
		   const char *dir, const char *summary_path, gs_publish_result *res,
		   gs_error *err);
/* r's per-offer classes (all GS_CLASS_COUNT) and costs of a million tokens
 * (none), for r->noffers offers. */
void gs_publish_result_classes_alloc(gs_publish_result *r);
void gs_publish_result_release(gs_publish_result *r);

/*
 * The log an imported measurement (read from mpath) names, read beside it
 * inside its folder without following a link, and only when its bytes have
 * the SHA-256 the measurement records: 0 with *bytes (NULL: it names none),
 * or -1 with why.
 */
int gs_publish_read_log(const char *mpath, const gs_measurement *m, char **bytes, size_t *len,
		    gs_error *why);

#endif
