/*
 * workload: the workload sheet ("ficha de carga"), read strictly from JSON.
 *
 * The format is documented in docs/formats.md and described by
 * schemas/workload.schema.json. The reader refuses unknown keys, duplicate
 * keys, wrong types, zero or negative sizes and numbers beyond range; every
 * error names the file and the JSON path (or line and column for syntax).
 *
 * Optional values use the `has_` flags or NULL pointers: missing is never 0.
 * Strings are owned by the struct and freed by gs_workload_release().
 */
#ifndef GS_WORKLOAD_H
#define GS_WORKLOAD_H

#include <stddef.h>
#include <stdint.h>
#include "diag.h"
#include "kvdtype.h"
#include "kvlayout.h"
#include "recipe.h"

typedef enum {
	GS_TASK_INFERENCE = 0,
	GS_TASK_ADAPTATION = 1,
	GS_TASK_TRAINING = 2
} gs_task;

typedef enum {
	GS_CACHE_NONE = 0,   /* no "cache" object in the sheet */
	GS_CACHE_DENSE = 1,
	GS_CACHE_STATIC = 2,
	GS_CACHE_SLIDING = 3
} gs_cache_kind;

/* A named size, e.g. a reserve item or a training component. */
typedef struct {
	char *name;
	uint64_t bytes;     /* converted exactly from the declared unit */
	char *unit;         /* "GiB", "GB" or "bytes": as declared, for display */
	char *amount;       /* the declared amount as written, e.g. "6" or "1.5" */
	char *reason;
} gs_item;

/* A named dimension: input_tokens, output_tokens, batch, ... or extra ones. */
typedef struct {
	char *name;
	uint64_t value;
} gs_dim;

typedef struct {
	char *label;       /* "usual", "long", "limit" */
	char *description;
	gs_dim *dims;      /* the dimensions of that input, may be empty */
	size_t ndims;
} gs_input;

typedef struct {
	char *file;        /* relative to the workload sheet */
	char *path;        /* resolved path (directory of the sheet + file) */
	char *covers;      /* what it covers, in words */
} gs_evidence_ref;

/* A required piece of software: a framework as runs record it, "runtime" or "driver". */
typedef struct {
	char *name;
	char *min_version;          /* dot-separated numbers */
} gs_sw_req;

/* A condition the workload runs under: name and value as text. */
typedef struct {
	char *name;
	char *value;
} gs_condition;

/*
 * The engine that will run the workload ("runtime"): its name, version and
 * the settings the workload states; a setting not stated takes the
 * engine's default for that version (gen/decide/runtime.h, with its
 * source). vLLM and SGLang have a budget of their own in this version.
 */
typedef enum {
	GS_ENGINE_NONE = 0,         /* no runtime: the itemised sizing */
	GS_ENGINE_VLLM = 1,
	GS_ENGINE_SGLANG = 2
} gs_engine;

typedef struct {
	gs_engine engine;
	char *version;              /* dot-separated numbers, or NULL: the newest the table knows */
	uint64_t util_permille;     /* gpu_memory_utilization x 1000, 1..1000; has_util */
	int has_util;
	uint64_t block_size;        /* tokens per KV block; has_block_size */
	int has_block_size;
	uint64_t max_num_batched_tokens;    /* has_max_num_batched_tokens */
	int has_max_num_batched_tokens;
	int entry_llm;              /* settings.entry_point "llm" (vLLM's LLM class), else 0:
				     * "serve" (`vllm serve`, the OpenAI API server); has_entry_point */
	int has_entry_point;
	/* SGLang's settings */
	uint64_t mfs_permille;      /* mem_fraction_static x 1000, 1..1000; has_mfs */
	int has_mfs;
	uint64_t chunked_prefill_size;      /* has_chunked_prefill_size */
	int has_chunked_prefill_size;
	uint64_t cuda_graph_max_bs;         /* has_cuda_graph_max_bs */
	int has_cuda_graph_max_bs;
} gs_runtime;

typedef struct {
	char *path;                 /* the file it was read from */
	char *id;                   /* [a-z0-9][a-z0-9._-]*, used for output names */
	char *title;

	/* model */
	char *model_name;
	char *model_revision;
	uint64_t parameters;
	uint64_t layers;            /* has_kv_geometry: layers..head_dim present */
	uint64_t attention_heads;
	uint64_t kv_heads;
	uint64_t head_dim;
	int has_kv_geometry;
	uint64_t sliding_window;    /* 0 when has_sliding_window == 0 */
	int has_sliding_window;
	/*
	 * model.cache_layout: what each group of layers keeps (kvlayout.h),
	 * stated or read from the model's files where one geometry does not
	 * describe every layer (windows on some layers, chunks, MLA, state
	 * layers); NULL / 0 otherwise. With it the cache is sized per layer
	 * kind as a runtime keeps it (sizing.h gs_sizing_cache_engine).
	 */
	gs_kv_group *cache_layout;
	size_t ncache_layout;
	int cache_layout_from_files; /* 1: read from the model's files */
	/* active parameters per token of a mixture of experts (model.active_parameters,
	 * or the model files'); every expert is resident in `parameters` */
	uint64_t active_parameters;
	int has_active_parameters;
	/*
	 * "model": {"from": "dir"} or {"repo": "ORG/NAME"}: the model's own
	 * files (gen/read/model.h) filled what the sheet did not state; what it
	 * stated agreed with them.
	 */
	char *model_from;           /* the path as written (absolute, or relative to the
				     * sheet); for "repo", REPO@COMMIT; or NULL */
	char *model_ollama;         /* "ollama:NAME:TAG" (model.ollama), or NULL */
	char *model_repo;           /* the Hugging Face repo id the files were read at, or NULL */
	char *geometry_source;      /* "dir/config.json" the geometry came from, or NULL */
	char *weights_source;       /* "dir/shard1, dir/shard2" the weights were read from, or NULL */
	uint64_t weights_bytes;     /* exact bytes from the checkpoint headers (or index) */
	int has_weights_bytes;
	int weights_from_index;     /* 1: the index's metadata.total_size, shards not read */
	/* weights.format: the checkpoint's geometry in another format
	 * (wformat.h), its bytes calculated by the format's rule, theoretical;
	 * weights_bytes holds them. gs_wformat_id + 1, or 0 when not stated. */
	int weights_format;
	uint64_t weights_format_kept; /* parameters the format keeps in 16 bits */
	int weights_format_experts_only;
	/*
	 * The model as read (model.h; owned, or NULL without "from"/"repo"):
	 * its files' bytes, which a sheet archives with its evidence, and
	 * the key they are archived under (gs_model_key_repo / _path).
	 */
	struct gs_model_s *model;
	char *model_key;

	gs_task task;

	/* weights */
	unsigned storage_bits;      /* 1..64; a fractional width rounded up */
	uint64_t storage_millibits; /* the width in thousandths of a bit, exact (4.5 -> 4500);
				     * 0 in a struct built in code: storage_bits x 1000 */
	char *storage_format;       /* e.g. "bf16", "int4-nf4" */
	char *compute_format;       /* e.g. "bf16", "float32" */
	char *reference_format;     /* format the quality criterion was set on, or NULL */

	/* dimensions: required; the names are those of docs/formats.md */
	gs_dim *dims;
	size_t ndims;

	/* cache */
	gs_cache_kind cache;
	/* cache.dtype (kvdtype.h), or NULL: cache.bytes_per_value alone */
	const gs_kvdtype *cache_dtype;
	/* bytes per value of a plain width; 0 for a block type (q8_0, q4_0),
	 * whose bytes are cache_block_bytes per cache_block_values values */
	uint64_t cache_bytes_per_value;
	uint64_t cache_block_values;  /* 1 for a plain width, 32 for q8_0 and q4_0 */
	uint64_t cache_block_bytes;   /* cache_bytes_per_value, or 34 (q8_0), 18 (q4_0) */
	uint64_t cache_max_tokens;  /* static cache: declared maximum; else 0 */
	int has_cache_max_tokens;

	gs_item *reserve;
	size_t nreserve;

	/* training / adaptation: only what is declared */
	uint64_t trainable_parameters;
	int has_trainable_parameters;
	gs_item *training;
	size_t ntraining;
	/* training.recipe: how it is run (recipe.h); present 0 without one.
	 * With it, decide/training.h calculates the items per card. */
	gs_recipe recipe;

	/* requirements */
	char *req_software;         /* description of the software environment, or NULL */
	gs_sw_req *req_sw;          /* structured requirement: what a run must have recorded */
	size_t nreq_sw;
	int has_req_software;       /* a structured requirement was given */
	char *campaign_start;       /* YYYY-MM-DD, or NULL */
	uint64_t campaign_days;     /* 0 when has_campaign == 0 */
	int has_campaign;
	int64_t budget_hundredths;  /* 0 when has_budget == 0 */
	char *budget_currency;
	int has_budget;
	char *quality_criterion;    /* or NULL */
	char *quality_evidence;     /* cited evaluation: file or reference, or NULL */
	int quality_evidence_is_file;
	char *quality_evidence_date;    /* YYYY-MM-DD, with quality_evidence */
	char *quality_evidence_scope;   /* what the evaluation covers */
	uint64_t host_ram_bytes;
	int has_host_ram;
	char *host_interconnect;    /* or NULL */
	char **regions;             /* requirements.regions: names or prefixes of the regions allowed; none: any */
	size_t nregions;
	char *regions_text;         /* the same, joined with ", " for the sheet, or NULL */
	char *placement;            /* documented multi-card placement, or NULL */
	/*
	 * requirements.speed: output tokens per second per sequence (at the
	 * workload's sequences) and in total, in thousandths, and the time to
	 * the first token of the limit input, in thousandths of a second;
	 * each has_* 0 when not required. requirements.rank_by
	 * "cost_per_token": candidates of a class ordered by the cost of a
	 * million output tokens at the bound, not by the lot's price.
	 */
	uint64_t req_decode_seq_milli, req_decode_total_milli, req_ttft_milli;
	int has_req_decode_seq, has_req_decode_total, has_req_ttft;
	int rank_by_cost_per_token;
	/*
	 * speed_assumptions: what the engine reaches of the bound on the card
	 * (decode_efficiency, in thousandths, (0, 1000]) and speculative
	 * decoding (spec_draft_tokens k >= 1 tokens drafted a step: a step
	 * then yields at most k + 1 tokens, a certainty; tokens_per_step the
	 * mean it yields, in thousandths, [1000, (k + 1) x 1000], assumed),
	 * with the source of the figures. has_* 0 / k 0 when not given.
	 */
	int has_decode_efficiency, has_spec_tokens_per_step;
	uint64_t decode_efficiency_milli, spec_draft_tokens, spec_tokens_per_step_milli;
	char *speed_assumptions_source;
	uint64_t tensor_parallel;   /* declared tensor-parallel degree over a lot's cards, 0: none */
	/*
	 * The bytes of the weights that tensor parallelism replicates on every
	 * card (requirements.tensor_parallel_replicated): calculated from the
	 * checkpoint's tensor headers (model.h gs_model_replicated), a stated
	 * figure then agreeing with them; else declared (assumed). Missing when
	 * has_tp_replicated == 0: the rule is then the weights / N.
	 */
	uint64_t tp_replicated_bytes;
	int has_tp_replicated;
	int tp_replicated_calculated;   /* 1: from the headers; 0: declared */

	gs_input inputs[3];         /* usual, long, limit; label NULL if absent */

	gs_evidence_ref *evidence;
	size_t nevidence;

	char **candidates;          /* offer ids to compare; none: every offer */
	size_t ncandidates;

	gs_condition *conditions;   /* sorted by name */
	size_t nconditions;

	char *notes_md;             /* Markdown, or NULL */

	gs_runtime runtime;         /* engine GS_ENGINE_NONE without "runtime" */
} gs_workload;

/* Returns 0 on success; on failure adds every error to d and returns -1. */
int gs_workload_read(const char *path, gs_workload *w, gs_diag *d);
/* The same, giving fn (when not NULL) the file's bytes once read (gs_jr.on_bytes). */
int gs_workload_read_with(const char *path, gs_workload *w, gs_diag *d,
			  void (*fn)(void *arg, const char *text, size_t len), void *arg);
/* The same from the file's bytes, read already: path names the file. */
int gs_workload_parse(const char *path, const char *text, size_t len, gs_workload *w,
		      gs_diag *d);
void gs_workload_release(gs_workload *w);

const char *gs_workload_task_id(gs_task t);          /* "inference", ... */
const char *gs_workload_cache_id(gs_cache_kind c);   /* "dense", ... */
/* The storage width in thousandths of a bit (see storage_millibits). */
uint64_t gs_workload_millibits(const gs_workload *w);
/* Value of a required dimension, or 0 with *found = 0. */
uint64_t gs_workload_dim(const gs_workload *w, const char *name, int *found);
/* The value of a condition, or NULL. */
const char *gs_workload_condition(const gs_workload *w, const char *name);

/*
 * Versions: dot-separated decimal numbers ("2.5", "12.4.1"); a recorded
 * version may carry a suffix after them ("2.5.1+cu124", "550.54.15").
 * gs_workload_version_valid: a requirement's form. gs_workload_version_at_least: 1 when
 * `have` (its leading numbers) is >= `need`, 0 when below, -1 when `have`
 * does not start with a number.
 */
int gs_workload_version_valid(const char *v);
int gs_workload_version_at_least(const char *have, const char *need);

/*
 * An engine's release: dot-separated numbers, then at most a post-release
 * suffix ".postN" as the engines publish them ("0.4.7.post1", PEP 440).
 * gs_workload_version_post: N of that suffix, 0 without one.
 */
int gs_workload_release_valid(const char *v);
uint64_t gs_workload_version_post(const char *v);

/* 1 when SGLang version v's default mem_fraction_static rule is in the
 * table (gen/decide/runtime.c), else 0. */
int gs_workload_sglang_version_known(const char *v);

#endif
