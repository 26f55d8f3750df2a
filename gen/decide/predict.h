/*
 * predict: what gpusheet predicts for the run an engine's log records, term
 * by term, beside what the log observed: the check of the budget before
 * renting (issue: "predict, then check"). For a vLLM start-up log: the
 * weights per card (calculated), the terms outside the weights and the KV
 * cache (the workload's reserve: assumed), the KV pool in bytes and in
 * tokens (what the budget leaves, in whole blocks, runtime.h), each with the
 * log's figure and the relative difference.
 *
 * The card's total is the log's (observed), else the total devices of its
 * GPU report (reported, cited: gpuname.h); the settings are the log's where
 * it states them, else the workload's runtime, else vLLM's default, each
 * said. Pure: reads the structs, writes nothing.
 *
 * Invariants:
 *  - integers only; a difference is (predicted - observed) / observed in
 *    tenths of a per cent, rounded half away from zero;
 *  - a term the log does not print has no observed value (never 0).
 */
#ifndef GS_PREDICT_H
#define GS_PREDICT_H

#include <stdint.h>

#include "logimport.h"
#include "sizing.h"
#include "workload.h"

enum { GS_PT_WEIGHTS = 0, GS_PT_OTHER, GS_PT_POOL, GS_PT_TOKENS, GS_PT_N };

typedef struct {
	const char *name;       /* "weights per card", ... (static) */
	const char *basis;      /* "calculated", "assumed", "calculated on assumed terms" */
	int tokens;             /* 1: tokens, 0: bytes */
	int has_pred, has_obs, has_diff;
	uint64_t pred, obs;
	size_t obs_line;        /* 0: derived from several lines */
	const char *obs_how;    /* how the observed figure is had (static) */
	int64_t diff_tenths;    /* (pred - obs) / obs, in tenths of a per cent */
} gs_predict_term;

typedef struct {
	int64_t device;
	const char *gpu;                /* the device's name in the log, or NULL */
	uint64_t total;                 /* the device's total as the log reports it, else as
					 * devices of its GPU report it (gpuname.h) */
	const char *total_from;         /* "observed" or "reported, cited" */
	const char *total_source;       /* the citation of a reported total, or NULL */
	const char *share_name;         /* "gpu_memory_utilization" (vLLM), "mem_fraction_static" (SGLang) */
	uint64_t util_permille;         /* the budget's share of the total, x 1000 */
	uint64_t share_num, share_den;  /* the share exactly where it is not a whole
					 * permille (SGLang 0.4.5.post3 to 0.4.7 on a card
					 * above 80 GiB), else 0 */
	const char *util_from;          /* "the log", "the workload", "default of vLLM" */
	uint64_t block_size;
	const char *block_from;
	uint64_t tp;
	const char *tp_from;
	/* vLLM: the step budget on the log's card where the version's default
	 * there differs from the workload-wide one (runtime.h
	 * gs_runtime_mnbt_on_card; the reserve's profiling-step terms counted
	 * at it), else 0 */
	uint64_t step_tokens;
	uint64_t budget;
	gs_predict_term t[GS_PT_N];
	/* vLLM's "Maximum concurrency for L tokens per request: X": the
	 * predicted pool's tokens / L, in hundredths, half up; L is the log's
	 * max_model_len, else the workload's tokens per sequence */
	int has_conc, has_conc_obs, has_conc_diff;
	uint64_t conc_len;
	const char *conc_len_from;      /* "the log", "the workload" */
	uint64_t conc_pred, conc_obs;   /* hundredths */
	size_t conc_obs_line;
	int64_t conc_diff_tenths;
} gs_prediction;

/*
 * Predicts the vLLM start li records for workload w (sized as s). 0, or -1
 * with why set (static): the log is not vLLM's, reports no device total,
 * or the workload has no KV cache.
 */
int gs_predict_vllm(const gs_workload *w, const gs_sizing *s, const gs_logimport *li,
		    gs_prediction *out, const char **why);

/*
 * Predicts the SGLang start li records for workload w (sized as s): SGLang's
 * total is the free memory before the weights, observed (the "Load weight
 * begin" line, else the free memory after the weights plus their size);
 * mem_fraction_static the log's, else the workload's, else the rule of the
 * workload's SGLang version on the card's reported total (its name in the
 * log, gpuname.h); the pool is total x mem_fraction_static less the weights
 * and the reserve, in whole tokens (runtime.c). 0, or -1 with why set.
 */
int gs_predict_sglang(const gs_workload *w, const gs_sizing *s, const gs_logimport *li,
		      gs_prediction *out, const char **why);

/* (pred - obs) / obs in tenths of a per cent, half away from zero; obs > 0. */
int64_t gs_predict_diff_tenths(uint64_t pred, uint64_t obs);

#endif
