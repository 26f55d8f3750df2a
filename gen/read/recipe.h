/*
 * recipe: how a training or an adaptation is run (training.recipe of a
 * workload, docs/formats.md §1.4), read strictly from JSON.
 *
 * The recipe names what the arithmetic of decide/training.h needs: the
 * method (full, LoRA, QLoRA), the LoRA rank and target modules, the
 * optimizer, activation checkpointing, the sharding over a lot's cards
 * and what is offloaded to host memory, and the model's dimensions that
 * the cache geometry does not give (hidden and intermediate sizes,
 * vocabulary, experts). The microbatch and the sequence length are the
 * workload's dimensions `microbatch` and `input_tokens`.
 */
#ifndef GS_RECIPE_H
#define GS_RECIPE_H

#include <stdint.h>
#include <jansson.h>
#include "jsonread.h"
#include "model.h"

typedef enum { GS_METHOD_FULL = 0, GS_METHOD_LORA = 1, GS_METHOD_QLORA = 2 } gs_recipe_method;
typedef enum {
	GS_OPT_ADAMW = 0,
	GS_OPT_ADAMW8BIT = 1,
	GS_OPT_SGD = 2,
	GS_OPT_SGD_MOMENTUM = 3
} gs_recipe_optimizer;
typedef enum { GS_CKPT_NONE = 0, GS_CKPT_SELECTIVE = 1, GS_CKPT_FULL = 2 } gs_recipe_ckpt;
typedef enum {
	GS_SHARD_NONE = 0,
	GS_SHARD_ZERO1 = 1,
	GS_SHARD_ZERO2 = 2,
	GS_SHARD_ZERO3 = 3,
	GS_SHARD_FSDP = 4   /* full shard: divides as ZeRO-3 */
} gs_recipe_shard;
typedef enum {
	GS_OFFLOAD_NONE = 0,
	GS_OFFLOAD_OPTIMIZER = 1,
	GS_OFFLOAD_PARAMETERS = 2   /* the optimizer's too */
} gs_recipe_offload;

/*
 * LoRA target modules, by role (bit masks of gs_recipe.targets). The
 * attention's projections: q, k, v, o; or multi-head latent attention's
 * (DeepSeek-V2/V3, transformers' modeling_deepseek_v3.py,
 * DeepseekV3Attention): q_a_proj and q_b_proj (q_proj when q_lora_rank is
 * null), kv_a_proj_with_mqa, kv_b_proj, o_proj. GS_LORA_ALL_LINEAR is
 * "all-linear" as given, before the model says which projections it has
 * (gs_recipe_resolve_targets).
 */
enum {
	GS_LORA_Q = 1, GS_LORA_Q_A = 2, GS_LORA_Q_B = 4, GS_LORA_K = 8, GS_LORA_V = 16,
	GS_LORA_KV_A = 32, GS_LORA_KV_B = 64, GS_LORA_O = 128,
	GS_LORA_GATE = 256, GS_LORA_UP = 512, GS_LORA_DOWN = 1024,
	GS_LORA_ALL_LINEAR = 2048,
	GS_LORA_MLP = 256 | 512 | 1024,
	GS_LORA_ALL = 1 | 8 | 16 | 128 | GS_LORA_MLP   /* q, k, v, o and the MLP's */
};
/* The names of the targets in bit order, the order of a layer's modules
 * ("q_proj", "q_a_proj", ..., "o_proj", "gate_proj", "up_proj",
 * "down_proj"). */
extern const char *const gs_recipe_target_names[];

typedef struct {
	int present;
	gs_recipe_method method;
	uint64_t lora_rank;          /* LoRA and QLoRA */
	unsigned targets;            /* GS_LORA_* */
	gs_recipe_optimizer optimizer;
	gs_recipe_ckpt checkpointing;
	gs_recipe_shard sharding;
	uint64_t cards;              /* cards the sharding runs over, >= 1 */
	gs_recipe_offload offload;
	uint64_t accumulation;       /* microbatches per optimizer step, >= 1 */
	/* geometry: from training.recipe.geometry or the model's files */
	uint64_t hidden, intermediate, vocab;
	uint64_t experts, experts_active, expert_intermediate; /* 0: dense */
	int tied;                    /* one matrix for the embeddings and the head */
	int has_hidden, has_intermediate, has_vocab;
	/*
	 * Layer kinds (decide/training.h). An MoE's first or chosen layers
	 * may keep a dense MLP of intermediate size (DeepSeek-V3's
	 * first_k_dense_replace, Qwen3-MoE's mlp_only_layers): dense_layers
	 * of the model's layers, the rest route. Shared experts run for every
	 * token: shared_intermediate is their width together (0: none).
	 */
	uint64_t dense_layers, shared_intermediate;
	/* multi-head latent attention (DeepSeek-V2/V3), from the model's
	 * files: mla 1, q_rank 0 when the queries are projected directly */
	int mla;
	uint64_t mla_q_rank, mla_kv_rank, mla_qk_nope, mla_qk_rope, mla_v;
	/* the parameters per kind calculated from the checkpoint's safetensors
	 * headers (model.h), has_ck 1 when the model's files gave them: the
	 * training items then count from them, the geometry's figures kept as
	 * a cross-check (decide/training.h) */
	int has_ck;
	gs_model_pkinds ck;
	uint64_t ck_config_params;   /* the geometry's parameter count, or 0 */
} gs_recipe;

const char *gs_recipe_method_id(gs_recipe_method m);
const char *gs_recipe_optimizer_id(gs_recipe_optimizer o);
const char *gs_recipe_ckpt_id(gs_recipe_ckpt c);
const char *gs_recipe_shard_id(gs_recipe_shard s);
const char *gs_recipe_offload_id(gs_recipe_offload o);

/*
 * Reads the recipe object o at path into *rc (present set). Every error is
 * reported through r with its JSON path. Returns 0, or -1 when an error
 * was reported.
 */
int gs_recipe_read(gs_jr *r, json_t *o, const char *path, gs_recipe *rc);

/* Parses a comma-separated list of target names ("q_proj,v_proj", or
 * "all-linear") into *mask; -1 with the bad name in *bad otherwise. */
int gs_recipe_parse_targets(const char *list, unsigned *mask, const char **bad);

/*
 * The targets for the model's attention: mla 0 (q, k, v, o) or 1 (with
 * q_rank 0 when the queries are projected directly). "all-linear" becomes
 * every linear projection the model has. Returns the mask, and in *bad
 * the targets the model has no module of (0: none).
 */
unsigned gs_recipe_resolve_targets(unsigned mask, int mla, uint64_t q_rank, unsigned *bad);

#endif
