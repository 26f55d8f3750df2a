/*
 * verdict: classification of every offer, requirement by requirement, and
 * the ranking of the retained ones (DESIGN.md, "Classification").
 *
 * Invariants:
 *  - pure: reads the inputs' structs and the sizing, writes a gs_decision;
 *    no I/O, no text in a language: a reason is a label key plus figures
 *    and borrowed strings, turned into words by the sheet;
 *  - admissible needs a piece of evidence (file or catalog claim with its
 *    date and scope); missing evidence gives "to confirm" with what would
 *    confirm it; only an observed failure or an arithmetic certainty gives
 *    "exclude";
 *  - a candidate is retained only when every required item is admissible;
 *    nothing compensates an exclusion; cards in a lot never pool memory.
 */
#ifndef GS_VERDICT_H
#define GS_VERDICT_H

#include <stddef.h>
#include <stdint.h>
#include "catalog.h"
#include "gpuname.h"
#include "measurement.h"
#include "quantity.h"
#include "runtime.h"
#include "sizing.h"
#include "speed.h"
#include "util.h"
#include "workload.h"

typedef enum {
	GS_V_ADMISSIBLE = 0,
	GS_V_TO_CONFIRM = 1,
	GS_V_EXCLUDE = 2,
	GS_V_NOT_REQUIRED = 3   /* the workload states no such requirement */
} gs_verdict_kind;

typedef enum {
	GS_REQ_MEMORY = 0,
	GS_REQ_SOFTWARE,
	GS_REQ_CALENDAR,
	GS_REQ_BUDGET,
	GS_REQ_QUALITY,
	GS_REQ_HOST,
	GS_REQ_REGIONS,         /* requirements.regions: sold in a region the workload allows */
	GS_REQ_SPEED,           /* requirements.speed: the calculated bound reaches it */
	GS_REQ_COUNT
} gs_req;

/* A measurement as the workload cites it. */
typedef struct {
	const gs_measurement *m;
	const gs_evidence_ref *ref;
} gs_evidence;

/* What an exclusion rests on: kept apart in the sheet and the decision JSON. */
typedef enum {
	GS_BASIS_NONE = 0,
	GS_BASIS_OBSERVED_FAILURE,      /* a comparable observed failure */
	GS_BASIS_CALCULATED_CERTAINTY,  /* arithmetic: weights alone above the card or lot */
	GS_BASIS_CATALOG                /* a dated catalog claim (unavailable, host, price) */
} gs_basis;

typedef struct {
	gs_verdict_kind kind;
	const char *why;        /* label key: "why.memory.observed_fits", ... */
	gs_basis basis;         /* for an exclusion */
	gs_qty a, b;            /* figures cited by the reason (bytes) */
	int64_t margin;         /* signed bytes, when has_margin */
	int has_margin;
	const char *s1, *s2;    /* strings cited by the reason, borrowed */
	int64_t cost, budget;   /* money cited by a budget reason, hundredths (has_money) */
	int has_money;
	const char *evidence;   /* file of the evidence, borrowed, or NULL */
	const char *evidence_date;  /* its date or version, or NULL */
	const char *missing;    /* label key of what would confirm it, or NULL */
	/* Why a piece of evidence does not decide (a synthetic file, a failure
	 * that is not comparable, versions that do not meet the requirement):
	 * a label key with {n1} {n2} {n3}, or NULL. */
	const char *note;
	const char *n1, *n2, *n3;
	const char *orientation;    /* label key: what a failed phase points to, or NULL */
	int synthetic;          /* rests on a synthetic measurement (accepted for a demonstration) */
	int lower_bound;        /* the observed need {a} is a lower bound */
	/* The terms of a calculated lower bound ({w} weights, {kv} KV cache,
	 * per card) and the cards it is split over ({split}, 0: not split). */
	gs_qty w, kv;
	uint64_t split;
	/* The replicated weights on every card of that split ({r}), when the
	 * weights per card are (weights - r) / split + r; else missing. */
	gs_qty r;
	/* Token counts cited by a KV-capacity reason ({t1} the need, {t2} the
	 * observed capacity), when has_tokens. */
	uint64_t t1, t2, t3;    /* {t3}: the capacity a utilization of 1.0 would give */
	int has_tokens;
	/* Speeds cited by a speed reason ({m1} the bound, {m2} the requirement),
	 * in thousandths (tokens per second, or seconds for the first token),
	 * when has_milli. */
	uint64_t m1, m2;
	int has_milli;
} gs_verdict;

/*
 * The class of a candidate: the order in which candidates are listed
 * wherever they are (DESIGN.md, "The order is the recommendation").
 */
typedef enum {
	GS_CLASS_RETAINED = 0,   /* every requirement admissible */
	GS_CLASS_FITS = 1,       /* capacity known, holds the whole need (observed or calculated) */
	GS_CLASS_LOWER_FITS = 2, /* capacity known, holds the calculated lower bound, not the reserve on top */
	GS_CLASS_UNSURE = 3,     /* capacity known, the lower bound between the conservative and the upper figure, or a placement to document */
	GS_CLASS_UNKNOWN = 4,    /* no memory figure */
	GS_CLASS_EXCLUDED = 5,   /* some requirement excludes it */
	GS_CLASS_REFERENCE = 6,  /* a reference card: no provider or no priced plan; never proposed */
	GS_CLASS_COUNT
} gs_class;

/*
 * A price per hour of the lot, exact to the millionth of its currency
 * (half-up), calculated from a catalog claim (the plan's source and date).
 */
typedef struct {
	const gs_plan *plan;    /* NULL: no such plan */
	int64_t micro_per_hour;         /* per hour of the lot */
	int64_t micro_per_card_hour;
	int64_t micro_per_gib_hour;     /* per GiB-hour of card memory (capacity per card x cards) */
	int has_per_gib;                /* 0 when the capacity is missing */
} gs_rate;

typedef enum {
	GS_CAP_OBSERVED = 0,    /* total bytes read on the device by a measurement the workload cites */
	GS_CAP_DECLARED = 1,    /* device-declared bytes, from the catalog, below the figures below */
	GS_CAP_NOMINAL = 2,     /* nominal GB x 10^9 (the vendor's, or the catalog's claim read in decimal GB) */
	GS_CAP_REPORTED = 3     /* the total devices of this model report, from the vendor table, cited */
} gs_cap_source;

typedef struct {
	const gs_offer *offer;
	gs_verdict v[GS_REQ_COUNT];
	gs_qty capacity;        /* per card */
	gs_cap_source cap_source;
	const gs_gpu_nominal *gpu;      /* the vendor table's entry of the offer's GPU, or NULL */
	const gs_evidence *cap_from;    /* the measurement whose device total is the capacity, or NULL */
	gs_qty need;            /* per card: observed, else calculated */
	const gs_evidence *need_from;   /* the measurement behind an observed need */
	int64_t margin;         /* capacity - need, signed */
	int has_margin;
	const gs_plan *plan;    /* cheapest plan covering the campaign, or NULL */
	uint64_t plan_units;    /* how many times that plan is bought */
	int64_t cost;           /* hundredths, when plan != NULL */
	int excluded;
	int retained;
	int synthetic;          /* some verdict rests on a synthetic measurement */
	size_t missing_count;   /* requirements to confirm */
	gs_class cls;
	gs_qty lower;           /* calculated lower bound of the need per card, or missing */
	gs_qty upper;           /* upper bound of the capacity per card, or missing */
	uint64_t split;         /* cards the need per card is split over (1: none) */
	gs_rate on_demand, interruptible;   /* the cheapest plan of each kind, per hour */
	/*
	 * Headroom in the user's terms (classes FITS and LOWER_FITS, a dense
	 * cache): the longest context (tokens kept per sequence) at the
	 * required sequences, and the most sequences at the required context,
	 * that the capacity per card holds by calculation, with the weakest
	 * provenance of the terms; without_reserve: the assumed reserve left
	 * out (class LOWER_FITS, where it does not fit), so an upper limit.
	 */
	/*
	 * Under a runtime (vLLM, SGLang): the card's total (capacity then
	 * holds the engine's budget, share x total: vLLM's utilization,
	 * SGLang's mem_fraction_static for this card, and upper the same
	 * share of the upper bound), and the KV pool that budget leaves,
	 * in whole blocks (gen/decide/runtime.h). has_runtime 0 otherwise.
	 */
	int has_runtime;
	gs_engine rt_engine;
	gs_qty card_total;
	gs_runtime_share rt_share;
	gs_runtime_budget rt;
	int rt_pool_known;      /* rt computed: the calculated need per card is known */
	/*
	 * vLLM: the max_num_batched_tokens of this card (stated, or the
	 * version's default on it, gen/decide/runtime.h), and the reserve's
	 * profiling-step terms at the workload-wide figure (rt_step_now) and
	 * at this card's (rt_step_then): the need per card counts the latter.
	 */
	uint64_t rt_mnbt;
	int rt_mnbt_large;      /* the card takes the version's larger default */
	uint64_t rt_step_now, rt_step_then;
	int has_headroom;
	uint64_t headroom_tokens, headroom_sequences;
	gs_prov headroom_prov;
	int headroom_synthetic;
	int headroom_without_reserve;
	/*
	 * The calculated upper bounds of speed on this lot (speed_offer.h;
	 * speed.known 0: missing), and the cost of a million output tokens at
	 * the bound for the cheapest plan of each kind, in millionths of its
	 * currency (a lower bound on the cost; has_* 0: missing).
	 */
	gs_speed speed;
	int64_t mtok_on_demand, mtok_interruptible;
	int has_mtok_on_demand, has_mtok_interruptible;
} gs_candidate;

typedef struct {
	gs_candidate *cands;    /* in catalog order */
	size_t ncands;
	size_t *order;          /* by class (gs_class), then cost, then margin */
	size_t nclass[GS_CLASS_COUNT];
	size_t nretained;
	size_t npreselected;
	int synthetic;          /* some cited measurement is synthetic */
	int accept_synthetic;   /* --accept-synthetic: demonstrations may use them */
	int demonstration;      /* some verdict rests on a synthetic measurement */
	gs_strvec variant_sources;  /* owned: the sources of the bounds of ambiguous
				     * names (gs_speed.variant_source) */
} gs_decision;

/*
 * Observed need of a run on its busiest device: per phase, peak reserved
 * plus the memory outside the allocator (device used - reserved, read at
 * the same checkpoint). A counter that was not read never becomes 0: the
 * need is then the largest known reading and a lower bound, naming the
 * first missing counter and its phase.
 */
typedef struct {
	gs_qty q;                   /* observed; assumed (synthetic) for a synthetic file */
	int lower_bound;
	const char *missing_counter;    /* "reserved.peak", "device_used", ... or NULL */
	const char *missing_phase;      /* borrowed from the measurement, or NULL */
	uint64_t device;
} gs_need;

/* Why a failed run does or does not speak for a workload. */
typedef enum {
	GS_CMP_COMPARABLE = 0,
	GS_CMP_NOT_OOM,             /* it failed for another reason than memory */
	GS_CMP_DIM_UNKNOWN,         /* it recorded a dimension the workload does not state */
	GS_CMP_DIM_LARGER,          /* it ran at a dimension above the workload's */
	GS_CMP_DTYPE,               /* another numeric format */
	GS_CMP_CONDITION,           /* a condition or allocator setting the workload does not have */
	GS_CMP_MODEL                /* an imported log of another model, or of a model it does not name */
} gs_comparable;

/*
 * Does an imported vLLM KV capacity speak for the workload (docs/formats.md
 * §4.1)? The same model (named by the log or at import), the same weight
 * format (dtype, quantization), the same KV cache dtype, the same tensor
 * parallelism, the workload's tokens per sequence within the log's
 * max_model_len, and a known gpu_memory_utilization (the setting the
 * capacity holds at). The GPU model is the offer's business.
 */
typedef enum {
	GS_KVC_COMPARABLE = 0,
	GS_KVC_NO_CAPACITY,         /* no KV capacity in tokens (not a vLLM log) */
	GS_KVC_NO_CACHE,            /* the workload has no KV cache to compare */
	GS_KVC_SETTING_UNKNOWN,     /* gpu_memory_utilization not stated */
	GS_KVC_MODEL,               /* another model, or the log names none */
	GS_KVC_FORMAT,              /* another dtype or quantization, or unknown */
	GS_KVC_KV_DTYPE,            /* another KV cache dtype, or unknown */
	GS_KVC_PARALLEL,            /* another tensor-parallel degree, pipeline parallelism, or unknown */
	GS_KVC_CONTEXT              /* tokens per sequence above the log's max_model_len, or it unknown */
} gs_kvcap_cmp;

/* The KV capacity of a vLLM start on one rank, and what it would be at a
 * utilization of 1.0 (gs_verdict_kv_capacity_full). */
typedef struct {
	uint64_t tokens;            /* observed capacity in tokens (the smallest rank's) */
	int64_t device;             /* the rank it was read on */
	const char *utilization;    /* the setting it holds at, as written */
	int utilization_stated;     /* stated at import, not in the log */
	int has_full;               /* the capacity at 1.0 could be calculated */
	uint64_t full_tokens;       /* calculated on observed terms, central */
	uint64_t full_tokens_upper; /* the same at the far end of the printed precision */
	uint64_t full_kv_bytes;     /* KV bytes at 1.0: KV memory + (1 - u) x total */
	const char *full_missing;   /* the term missing for it: "total_gpu_memory", ... */
} gs_kvcap;

gs_kvcap_cmp gs_verdict_kv_capacity_comparable(const gs_workload *w, const gs_sizing *s,
				       const gs_measurement *m, const char **what);
/* The observed capacity on the ranks of this GPU model (gs_verdict_offer_matches_device
 * of o; o NULL: any rank): 0 with *out filled, -1 when none. */
int gs_verdict_kv_capacity_of(const gs_measurement *m, const gs_offer *o, gs_kvcap *out);
/*
 * The capacity a utilization of 1.0 would give: the log's KV memory plus
 * (1 - u) x the device's total (its non-KV terms, u x total - KV memory,
 * are observed and do not grow with the utilization), divided by the
 * calculated KV bytes per token per rank. The upper figure takes each
 * printed size at the far end of its precision (half a unit of its last
 * digit). Sets has_full, or full_missing naming the missing term.
 */
void gs_verdict_kv_capacity_full(const gs_measurement *m, uint64_t bytes_per_token, gs_kvcap *cap);
/* The workload's KV need in tokens: sequences x tokens kept, each sequence
 * rounded up to whole blocks of block_size (0: not stated, not rounded). */
uint64_t gs_verdict_kv_need_tokens(const gs_sizing *s, uint64_t block_size);
/* Bytes per value of a vLLM kv_cache_dtype ("auto": the model's dtype), 0: unknown. */
unsigned gs_verdict_kv_dtype_bytes(const char *kv_cache_dtype, const char *model_dtype);
/* Does the log (or the import) name the workload's model? */
int gs_verdict_model_same(const gs_workload *w, const char *name);

/* Every offer id the workload lists must be in the catalog; -1 with d otherwise. */
int gs_verdict_check_candidates(const gs_workload *w, const gs_catalog *cat, gs_diag *d);
/*
 * Only the offers listed in w->candidates when there are any, in catalog
 * order. A synthetic measurement decides nothing unless accept_synthetic;
 * then every verdict resting on one is marked. Never fails (out of memory
 * aborts, util.h).
 */
void gs_verdict_classify(const gs_workload *w, const gs_sizing *s, const gs_evidence *ev,
		 size_t nev, const gs_catalog *c, int accept_synthetic, gs_decision *out);
void gs_verdict_release(gs_decision *d);
/*
 * The offer to take: the first retained offer of the ranking; with none
 * retained, the first of the pre-selection whose capacity is known to hold
 * at least the calculated lower bound (classes FITS and LOWER_FITS); NULL
 * otherwise: an offer of unknown memory, a reference card or an excluded
 * offer is never proposed.
 */
const gs_candidate *gs_verdict_best(const gs_decision *d);

/*
 * The provenance of a margin (capacity - need, has_margin) as a figure
 * without bytes: the weakest of the need's and the capacity's (observed >
 * calculated > assumed; a figure missing counts as assumed), synthetic when
 * either is; present only when both figures are (the decision JSON's
 * margin_provenance is null otherwise). The sheet, the decision JSON and
 * the per-offer pages' rows take it from here.
 */
gs_qty gs_verdict_margin_prov(gs_qty need, gs_qty capacity);

/*
 * What a candidate's capacity per card leaves for the KV cache beyond the
 * weights per card (the reserve left out, as the calculated lower bound
 * does), in whole tokens of one sequence at the required sequences and in
 * whole sequences at the required context: 0, or -1 when not calculated
 * (no dense cache, no capacity, no room). The headroom's own arithmetic.
 */
int gs_verdict_candidate_room(const gs_workload *w, const gs_sizing *s, const gs_candidate *c,
		      uint64_t *tokens, uint64_t *seqs);
/* The candidate's calculated lower bound per card were its weights these
 * bytes instead (another storage format), the other terms as calculated. */
uint64_t gs_verdict_candidate_lower_with_weights(const gs_workload *w, const gs_sizing *s,
					 const gs_candidate *c, uint64_t weights);
/* The candidate's calculated lower bound per card were its KV cache these
 * bytes instead (another cache dtype), split as the counted one is. */
uint64_t gs_verdict_candidate_lower_with_kv(const gs_workload *w, const gs_sizing *s,
				    const gs_candidate *c, uint64_t kv);
/* The first candidate of a class in the order, or NULL. */
const gs_candidate *gs_verdict_first_of(const gs_decision *d, gs_class k);
const char *gs_verdict_class_id(gs_class k);            /* "retained", "fits", ... */
const char *gs_verdict_id(gs_verdict_kind k);   /* "admissible", ... */
const char *gs_verdict_req_id(gs_req r);                /* "memory", ... */
/* Case-insensitive: does the measurement's device belong to this offer's GPU model? */
int gs_verdict_offer_matches_device(const gs_offer *o, const char *device_name);
/* The vendor table's entry of an offer's GPU (gs_gpuname_resolve with its
 * figure per card), or NULL. */
const gs_gpu_nominal *gs_verdict_offer_gpu(const gs_offer *o);
/* The numeric format the card must compute: the compute format, else the
 * storage format. */
const char *gs_verdict_format_of(const gs_workload *w);
/* The lowest compute capability (x 10) that computes it, 0: any or unknown. */
unsigned gs_verdict_format_cc(const gs_workload *w);
/* Does the measurement cover at least every required dimension? */
int gs_verdict_measurement_covers(const gs_workload *w, const gs_measurement *m);
/*
 * Is a failed run comparable with the workload? Every dimension it recorded
 * is stated by the workload and no larger, its dtype is the workload's
 * compute format, and every condition and allocator setting it ran under
 * is one of the workload's conditions with the same value. *what receives
 * the dimension, dtype or condition at fault (borrowed), or NULL.
 */
gs_comparable gs_verdict_failure_comparable(const gs_workload *w, const gs_measurement *m,
				    const char **what);
/* See gs_need. Missing (q.present == 0) when no counter was read at all. */
void gs_verdict_measurement_need_of(const gs_measurement *m, gs_need *out);
/* The need's figure alone. */
gs_qty gs_verdict_measurement_need(const gs_measurement *m, uint64_t *device);
/* Label key of what a failure in this phase points to (DESIGN.md, "Phases"). */
const char *gs_verdict_phase_orientation(const char *phase);

/*
 * The lot of an offer, as the sheet's rows and the site's matrix group
 * equivalent offers: one provider (or none: reference cards), the same GPU
 * model, cards per lot and memory figure (its words, the capacity per card
 * and where it comes from, the catalog it came from when the catalogs
 * were merged). gs_verdict_offer_lot_hash gives equal lots the same hash.
 */
uint64_t gs_verdict_offer_lot_hash(const gs_catalog *cat, const gs_offer *o);
int gs_verdict_offer_same_lot(const gs_catalog *cat, const gs_offer *x, const gs_offer *y);

#endif
