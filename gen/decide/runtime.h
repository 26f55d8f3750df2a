/*
 * runtime: the engine a workload runs under, its defaults per version
 * (each with its source in the engine's code) and the budget it sizes
 * itself with: the KV pool, in whole blocks, that a card's memory leaves
 * once the weights and the other terms are held. vLLM's budget is
 * gpu_memory_utilization x total; SGLang's is mem_fraction_static x total,
 * the fraction by the version's rule from the card's memory.
 *
 * Invariants:
 *  - pure integer arithmetic, overflow reported (-1), nothing rounded but
 *    what the engine rounds: the budget down to a byte, the pool down to
 *    whole blocks;
 *  - a setting the workload does not state takes the default of the
 *    engine's version, and says so (default = 1) with its source.
 */
#ifndef GS_RUNTIME_H
#define GS_RUNTIME_H

#include <stdint.h>
#include "workload.h"

/* SGLang's rules for its default mem_fraction_static, by release (runtime.c). */
typedef enum {
	GS_SGLANG_RULE_TP = 1,       /* 0.4 to 0.4.5.post2: by tensor parallelism */
	GS_SGLANG_RULE_RESERVE = 2,  /* 0.5.3 on: a reserve from chunked_prefill_size and
				      * cuda_graph_max_bs by the card's memory */
	GS_SGLANG_RULE_TP_13G = 3,   /* 0.4.5.post3 to 0.4.6.post1: by tensor parallelism up
				      * to 81,920 MiB, 13 GiB left above */
	GS_SGLANG_RULE_TP_18G = 4,   /* 0.4.6.post2 to 0.4.6.post5: the same, 0.88 above,
				      * raised above 96 GiB, at least 18 GiB left */
	GS_SGLANG_RULE_TP_B200 = 5,  /* 0.4.7: the same, 0.79 on a CUDA card above 180,000 MiB */
	GS_SGLANG_RULE_BUCKETS = 6   /* 0.4.7.post1 to 0.5.2: a reserve by the card's memory
				      * bucket and tensor parallelism */
} gs_sglang_rule;

/*
 * vLLM's default max_num_batched_tokens on a card (vllm/engine/arg_utils.py,
 * runtime.c gives each with its source): the larger default applies on
 *  - 0.8.0 to 0.8.4: a card whose name has "h100" or "h200";
 *  - 0.8.5: a card of 70 GiB or more (the total CUDA reports);
 *  - 0.9 and later: a card of 70 GiB or more whose name has no "a100".
 */
typedef enum {
	GS_MNBT_FIXED = 0,           /* stated, V0, or no rule by the card */
	GS_MNBT_NAME_H100 = 1,
	GS_MNBT_70GIB = 2,
	GS_MNBT_70GIB_NOT_A100 = 3
} gs_mnbt_rule;

typedef struct {
	gs_engine id;                /* GS_ENGINE_VLLM or GS_ENGINE_SGLANG */
	const char *engine;          /* "vLLM", "SGLang" */
	const char *version;         /* the version the defaults are of, e.g. "0.8" */
	int version_assumed;         /* the workload names no version: the newest the table
				      * knows (version) is assumed */
	int v1;                      /* vLLM's V1 engine (0.8 and later) */
	uint64_t util_permille;      /* gpu_memory_utilization x 1000 */
	int util_default;
	const char *util_source;
	uint64_t block_size;         /* tokens per KV block */
	int block_default;
	const char *block_source;
	int entry_llm;               /* vLLM's LLM class, else `vllm serve` */
	int entry_default;           /* the entry point not stated: `vllm serve` */
	uint64_t max_num_batched_tokens;    /* stated, or the default on a card the rule
					     * does not enlarge: the workload-wide figure */
	int mnbt_default;
	const char *mnbt_source;
	gs_mnbt_rule mnbt_rule;      /* the default by the card (mnbt_default), else FIXED */
	uint64_t mnbt_large;         /* the default on a card the rule enlarges, else 0 */
	/* how the version accounts for memory outside the weights (runtime.c) */
	int logits_every_token;      /* V1 0.8 on: the profiling step's logits of every token */
	int context_counted;         /* the CUDA context inside its non-torch figure (<= 0.6, 0.8) */
	uint64_t non_torch;          /* assumed non-torch memory, one card, no tensor parallelism */
	uint64_t non_torch_tp;       /* the same under tensor parallelism (NCCL, all-reduce buffers) */
	const char *non_torch_source;
	const char *accounting_source;   /* where the version's rule is, in vLLM's code */
	uint64_t cuda_graphs;        /* 0.21 on: assumed CUDA graph memory vLLM profiles into
				      * the budget (on an NVIDIA card), else 0: outside it */
	const char *cuda_graphs_source;
	/* SGLang (block_size is its page_size, 1) */
	gs_sglang_rule mfs_rule;
	uint64_t mfs_permille;       /* stated mem_fraction_static x 1000, or 0: by the rule */
	const char *mfs_source;      /* the rule's source, or NULL when stated */
	uint64_t chunked_prefill_size;   /* stated, or 0: by the card's memory */
	uint64_t cuda_graph_max_bs;      /* stated, or 0: by the card's memory */
	const char *pool_source;     /* how SGLang sizes its pool, in its code */
} gs_runtime_settings;

/* The settings of w's runtime, defaults filled: 0, or -1 without a runtime
 * (or an SGLang version whose default the table does not know). */
int gs_runtime_settings_of(const gs_workload *w, gs_runtime_settings *out);

/*
 * vLLM's max_num_batched_tokens on a card of total bytes (the total CUDA
 * reports, taken as the capacity the sheet gives the card) named gpu (the
 * GPU model as the sheet names it, e.g. "A100 80GB": vLLM reads the name
 * CUDA gives, e.g. "NVIDIA A100-SXM4-80GB"; NULL: no name): the stated
 * figure, or the version's default for the entry point on that card.
 * *large (may be NULL) is 1 where the card takes the larger default.
 */
uint64_t gs_runtime_mnbt_on_card(const gs_runtime_settings *rs, uint64_t total, const char *gpu,
				 int *large);

/* The rule of the larger default in words with its source (rs->mnbt_rule), or NULL. */
const char *gs_runtime_mnbt_rule_text(const gs_runtime_settings *rs);

/*
 * The profiling step's terms that `init --engine vllm` writes in the
 * reserve ("vLLM profiling activation peak", "vLLM profiling logits"),
 * both linear in the step's tokens: their bytes at the workload-wide
 * max_num_batched_tokens (*now) and at tokens (*then). An item of that
 * name whose bytes are not a whole multiple of the workload-wide tokens
 * (a figure replaced by hand, or from a log) is not scaled: left out of
 * both. 0, or -1 on overflow.
 */
int gs_runtime_step_terms(const gs_workload *w, const gs_runtime_settings *rs, uint64_t tokens,
			  uint64_t *now, uint64_t *then);

/* The share of a card's total the engine's budget is, for one card of a lot. */
typedef struct {
	uint64_t permille;           /* vLLM: gpu_memory_utilization; SGLang: mem_fraction_static */
	int by_rule;                 /* SGLang's fraction from its version's rule (not stated) */
	/* SGLang's reserve rule (GS_SGLANG_RULE_RESERVE), else 0 */
	uint64_t gpu_mem_mib;        /* the card's memory in MiB, as SGLang reads it */
	uint64_t chunked_prefill_size;
	uint64_t cuda_graph_max_bs;
	uint64_t reserved_half_mib;  /* the reserve, in halves of a MiB (it is a multiple of 0.5) */
	/* SGLang 0.4.7.post1 to 0.5.2 (GS_SGLANG_RULE_BUCKETS), else 0 */
	uint64_t reserved_tenth_mib; /* the reserve, in tenths of a MiB (a multiple of 0.1) */
	/* the share exactly, num / den (den > 0, num <= den): permille / 1000
	 * where the rule rounds to 3 decimals; SGLang 0.4.5.post3 to 0.4.7 keep
	 * an unrounded fraction on a card above 80 GiB, and permille is then
	 * that fraction rounded half up, for display only (unrounded = 1) */
	uint64_t num, den;
	int unrounded;
} gs_runtime_share;

/*
 * The budget's share of a card of total bytes in a lot of tp cards (0 or
 * 1: one): vLLM's utilization, or SGLang's mem_fraction_static (stated, or
 * by the version's rule, runtime.c). rocm: the card is AMD's (SGLang 0.4.7
 * treats a large CUDA card apart). 0, or -1 on a card too small for
 * SGLang's reserve (the fraction would be 0 or less).
 */
int gs_runtime_share_of(const gs_runtime_settings *rs, uint64_t total, uint64_t tp, int rocm,
			gs_runtime_share *out);

/* x x the share, rounded down (x x num / den). */
uint64_t gs_runtime_share_apply(const gs_runtime_share *sh, uint64_t x);

typedef struct {
	uint64_t budget;             /* floor(total x utilization) */
	uint64_t pool;               /* bytes of whole blocks left for the KV cache (0: none) */
	uint64_t blocks;
	uint64_t tokens;             /* blocks x block_size: vLLM's "GPU KV cache size" */
	uint64_t concurrency_hundredths;    /* tokens / tokens per sequence, x 100, half up:
					     * vLLM's "Maximum concurrency for L tokens" */
	uint64_t short_bytes;        /* when the fixed terms exceed the budget: by how much */
} gs_runtime_budget;

/*
 * The budget on one card, vLLM's and SGLang's (the share of
 * gs_runtime_share_of; SGLang with block_size 1, its page_size).
 * vLLM's budget on one card (vllm/v1/worker/gpu_worker.py,
 * determine_available_memory; vllm/v1/core/kv_cache_utils.py): the budget
 * is total x utilization; the KV pool is what the weights and the other
 * terms (fixed: activation peak, non-torch memory, ...) leave of it,
 * divided into blocks of block_size tokens of kv_per_token bytes (every
 * layer's K and V), rounded down. tokens_per_seq 0: no concurrency.
 * Returns 0, or -1 on a zero block size or an overflow.
 */
int gs_runtime_vllm_budget(uint64_t total, uint64_t util_permille, uint64_t fixed,
			   uint64_t kv_per_token, uint64_t block_size, uint64_t tokens_per_seq,
			   gs_runtime_budget *out);

/* The same with the share as a fraction num / den (0 < den, num <= den):
 * the budget is floor(total x num / den). */
int gs_runtime_budget_frac(uint64_t total, uint64_t num, uint64_t den, uint64_t fixed,
			   uint64_t kv_per_token, uint64_t block_size, uint64_t tokens_per_seq,
			   gs_runtime_budget *out);

/*
 * The geometry vLLM's profiling step depends on, per card: hidden size,
 * MLP intermediate size (for a mixture of experts: the active experts'
 * intermediate sizes summed, plus a shared expert's), vocabulary, bytes
 * per activation value, tensor-parallel degree (0 or 1: none).
 */
typedef struct {
	uint64_t hidden, intermediate, vocab, value_bytes, tp;
} gs_runtime_geometry;

/* vLLM's terms outside the weights and the KV cache, in bytes. */
typedef struct {
	uint64_t tokens;             /* the profiling step's tokens (max_num_batched_tokens) */
	uint64_t act_per_token;      /* (3 x intermediate / tp + 3 x hidden) x value bytes */
	uint64_t activation;         /* calculated: tokens x act_per_token */
	uint64_t logit_rows;         /* rows of float32 logits the step holds (0: none counted) */
	uint64_t logits;             /* calculated: logit_rows x vocab x 4 */
	uint64_t non_torch;          /* assumed, cited (settings.non_torch_source) */
	uint64_t cuda_graphs;        /* assumed, cited (settings.cuda_graphs_source); 0 before 0.21 */
} gs_runtime_vllm_terms;

/*
 * The terms vLLM's start-up profile reserves before the KV cache, for the
 * version of rs (runtime.c gives each rule with its source). 0, or -1 on a
 * missing geometry figure or an overflow.
 */
int gs_runtime_vllm_terms_of(const gs_runtime_settings *rs, const gs_runtime_geometry *g,
			     gs_runtime_vllm_terms *out);

/* Tokens rounded up to whole blocks (block_size > 0). */
uint64_t gs_runtime_round_blocks(uint64_t tokens, uint64_t block_size);

#endif
