/*
 * speed: how fast a lot can possibly run a workload, and what a million
 * output tokens costs at that speed: calculated upper bounds from the
 * vendors' datasheets, never an observed figure.
 *
 *   decode: each step reads the active weights once and each sequence's
 *   KV cache; so per sequence, tokens/s <= bandwidth / (active weight
 *   bytes + sequences x KV bytes of one sequence), and in total that times
 *   the sequences. Over a lot of several cards, each byte is read at
 *   least once by one of them, all at the same time: the bandwidth is
 *   cards x the card's (the best layout; a real one reads more). The interconnect's time is not counted (it only
 *   slows a real run). Speculative decoding of k draft tokens (a draft
 *   model, multi-token prediction) yields at most k + 1 tokens per step:
 *   every decode bound times k + 1, still a certainty (the draft's own
 *   reads are left out, which only raises the bound).
 *
 *   expected: where the workload gives what the engine reaches of the
 *   bound (an efficiency, from published runs or its own) or the mean
 *   tokens a speculative step yields, the bound of one token a step times
 *   both: an assumed figure, never a bound, rounded down.
 *
 *   prefill: about 2 x active parameters FLOPs per token against the lot's
 *   dense peak for the compute format (the workload's compute_format, else
 *   its storage format: bf16, fp8, fp32 or fp4): tokens/s <= cards x peak /
 *   (2 x active parameters); the first token of an input of N tokens comes
 *   no sooner than N / that.
 *
 *   cost: the lot's price per hour / (output tokens per hour at the bound)
 *   x 10^6, exact in 128 bits, rounded down: a lower bound on the cost of
 *   a million output tokens.
 *
 * Invariants:
 *  - integers only: speeds in thousandths of a token per second (rounded
 *    up, so a bound stays a bound), times in microseconds (rounded down),
 *    money in millionths of the currency (rounded down); comparisons with
 *    a requirement are made on the exact fractions;
 *  - a figure the table does not give is missing, never 0;
 *  - every figure of the table names its vendor document.
 */
#ifndef GS_SPEED_H
#define GS_SPEED_H

#include <stddef.h>
#include <stdint.h>
#include "quantity.h"

/* A card's datasheet figures. */
typedef struct {
	const char *model;         /* canonical model (gpuname.h) */
	uint64_t bandwidth_gbs;    /* memory bandwidth, 10^9 bytes per second */
	uint64_t f16_gflops;       /* dense 16-bit tensor peak (bf16 or fp16), 10^9 FLOP/s */
	uint64_t fp8_gflops;       /* dense fp8 tensor peak; 0: the card computes none */
	uint64_t fp32_gflops;      /* fp32 peak (non-tensor, or the vendor's one fp32 figure);
				    * 0: no vendor page cited for it */
	uint64_t fp4_gflops;       /* dense fp4 tensor peak (nvfp4, mxfp4); 0: the card computes
				    * none, or no vendor page cited for it */
	const char *source;        /* the vendor document and its figures */
	const char *checked;       /* public page the figures were checked against, or NULL:
				    * not re-read for this table (the sheet says so) */
} gs_speed_gpu;

/* The datasheet figures of a canonical model, or NULL. */
const gs_speed_gpu *gs_speed_gpu_of(const char *model);
/*
 * The fastest of several variants (an ambiguous name, gpuname.h
 * gs_gpuname_allowed): the row whose bandwidth and every peak are at least
 * every other variant's, so a bound on it holds for whichever variant the
 * offer is. NULL when a variant has no row, or no row is the highest in
 * every figure (then the highest of each would be figures of no card).
 */
const gs_speed_gpu *gs_speed_fastest(const char *const *models, size_t n);
/* Every entry, in model order. */
const gs_speed_gpu *gs_speed_table(size_t *n);
/* The dense peak (GFLOP/s) of a card for a compute format: bf16/fp16 the
 * 16-bit figure, fp8 (e4m3, e5m2) the fp8 one, fp32 (float32, f32) the
 * fp32 one, fp4 (nvfp4, mxfp4, e2m1) the fp4 one; 0: none (a format this
 * table does not know, a card without the format, or a figure no vendor
 * page was cited for). */
uint64_t gs_speed_peak_gflops(const gs_speed_gpu *g, const char *format);

/* What a step reads and computes. */
typedef struct {
	uint64_t weights_read;     /* bytes of active weights read per step */
	uint64_t kv_read;          /* KV bytes of one sequence at the context */
	uint64_t sequences;        /* decoded together (>= 1) */
	uint64_t cards;            /* cards the step is split over (>= 1) */
	int kv_replicated;         /* each card keeps (and reads) every sequence's whole
				    * cache: an MLA latent under vLLM (sizing.h gs_sizing_kv_splits) */
	uint64_t active_parameters;    /* for prefill; 0: unknown */
	uint64_t input_tokens;     /* the limit input's prompt; 0: unknown */
	/* speculative decoding: the most tokens one step can yield (draft
	 * tokens + 1), a certainty that multiplies every decode bound; 0 or 1
	 * without it */
	uint64_t tokens_per_step_max;
	/* assumed, for an expected figure: the fraction of the bound the
	 * engine reaches and the mean tokens a step yields, in thousandths;
	 * 0: not given (both 0: no expected figure) */
	uint64_t efficiency_milli, tokens_per_step_milli;
} gs_speed_load;

typedef struct {
	int known;                 /* the decode bound was calculated */
	const gs_speed_gpu *gpu;
	/* the offer's GPU name when it is ambiguous and gpu is the fastest
	 * variant the name allows with the offer's memory figure
	 * (gs_speed_fastest): the bound holds for every such variant; else
	 * NULL (borrowed) */
	const char *variant_of;
	/* then the source to cite: "the fastest variant the name allows (NAME,
	 * with the offer's memory figure): MODEL; " and gpu's source (borrowed:
	 * the decision owns it), else NULL */
	const char *variant_source;
	gs_speed_load load;
	uint64_t bytes_per_step;   /* weights_read + sequences x kv_read (x cards when
				    * replicated): the lot's bytes per step, per lot bandwidth */
	uint64_t bw;               /* bytes per second of the lot: cards x bandwidth */
	uint64_t decode_seq_milli;     /* per sequence, tokens/s x 1000, rounded up */
	uint64_t decode_total_milli;   /* every sequence together */
	uint64_t decode_weights_milli; /* per sequence on the weights alone: the bound at any context */
	/* the decode bounds include speculative decoding's tokens_per_step_max
	 * (1 without it): the bound is that many tokens per read of a step */
	uint64_t spec_max;
	/* expected (assumed), where the workload gives an efficiency or the
	 * mean tokens a step: the bound of one token a step x efficiency x
	 * tokens a step, per sequence and in total, rounded down */
	int has_expected;
	uint64_t expected_seq_milli, expected_total_milli;
	int has_prefill;
	uint64_t peak_gflops;      /* the lot's: cards x the card's for the format */
	uint64_t prefill_milli;    /* tokens/s x 1000, rounded up */
	int has_ttft;
	uint64_t ttft_micro;       /* the limit input's first token, microseconds, rounded down */
	/*
	 * Observed: a benchmark of the workload's own evidence on a card of
	 * this GPU model (evidence import --from llama-bench | vllm-bench),
	 * tokens/s x 1000 as printed: per sequence (llama-bench's tgN, one
	 * sequence) and in total (vLLM's output tokens/s). 0: none.
	 */
	int has_obs_seq, has_obs_total;
	uint64_t obs_seq_milli, obs_total_milli;
	const char *obs_seq_text, *obs_total_text;  /* as printed ("61.03"), borrowed */
	const char *obs_seq_file, *obs_total_file;  /* the evidence file each is read from (borrowed) */
	const char *obs_seq_source, *obs_total_source;  /* where its log comes from (import.source) */
	uint64_t obs_seq_line, obs_total_line;      /* the log's line that printed it */
	/*
	 * Never above the bound (gs_speed_check_observed): each observed
	 * figure against the calculated bound it can never beat, whatever the
	 * run's context: per sequence, the bound on the weights alone
	 * (decode_weights_milli); in total, that times the workload's
	 * sequences (the run stands for the workload's concurrency). The
	 * ratio observed / bound in thousandths, rounded down; above: the
	 * figure exceeds the bound, so the bound or its inputs are wrong, and
	 * the figure decides nothing.
	 */
	uint64_t obs_seq_bound_milli, obs_total_bound_milli;
	uint64_t obs_seq_ratio_milli, obs_total_ratio_milli;
	int obs_seq_above, obs_total_above;
} gs_speed;

/* The weights one token reads: weights x active / parameters, rounded down
 * (every expert resident, the active ones read); weights when either count
 * is 0 or active >= parameters. */
uint64_t gs_speed_active_bytes(uint64_t weights, uint64_t parameters, uint64_t active);

/*
 * The bounds of load on g for the compute format. Returns 0 (out->known
 * set when the decode bound could be calculated: weights and bandwidth
 * known), or -1 when a product overflows 64 bits.
 */
int gs_speed_bound(const gs_speed_gpu *g, const gs_speed_load *l, const char *format, gs_speed *out);

/*
 * Is the bound below a requirement of req_milli thousandths of a token per
 * second? which: 0 per sequence at any context (weights alone), 1 in total
 * at the context. Exact; 0 when the bound is unknown.
 */
int gs_speed_below(const gs_speed *s, int which, uint64_t req_milli);
/* Is the first token's time bound above a requirement of req_milli
 * thousandths of a second? Exact; 0 when unknown. */
int gs_speed_ttft_above(const gs_speed *s, uint64_t req_milli);

/*
 * A million output tokens at the bound, for a lot priced micro_per_hour
 * millionths of its currency per hour: micro_per_hour x 10^6 x bytes per
 * step / (3600 x lot bandwidth x sequences), rounded down, in millionths.
 * 0 with *out set, -1 when unknown or beyond 63 bits.
 */
int gs_speed_cost_per_mtok(const gs_speed *s, int64_t micro_per_hour, int64_t *out);

/*
 * Each observed figure of s against its bound: sets obs_*_bound_milli,
 * obs_*_ratio_milli and obs_*_above. Nothing when the bound is unknown.
 * Returns 1 when a figure is above its bound, else 0.
 */
int gs_speed_check_observed(gs_speed *s);

/* A speed in thousandths as "18.7" / "18,7" (one decimal, rounded up: a
 * bound; thousands grouped as gs_qty_fmt_int), in buf[GS_FMT_MAX]. */
char *gs_speed_fmt(char *buf, uint64_t milli, gs_lang lang);
/* The same rounded down: an expected figure, not a bound. */
char *gs_speed_fmt_down(char *buf, uint64_t milli, gs_lang lang);
/* A time in microseconds as seconds with three decimals, rounded down. */
char *gs_speed_fmt_seconds(char *buf, uint64_t micro, gs_lang lang);

/* The source a bound cites: the fastest variant's words for an ambiguous
 * name, else the datasheet row's. sp->gpu must be set (sp->known). */
const char *gs_speed_source(const gs_speed *sp);

#endif
