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
 * LoRA target modules, by role (bit masks of gs_recipe.targets), named as
 * the checkpoint's modules are: PEFT puts one adapter on each nn.Linear
 * whose name a target matches (peft/tuners/tuners_utils.py,
 * BaseTuner.inject_adapter), and refuses targets that match no module
 * ("Target modules ... not found in the base model"). The attention's
 * projections: q, k, v, o; or multi-head latent attention's
 * (DeepSeek-V2/V3, transformers' modeling_deepseek_v3.py,
 * DeepseekV3Attention): q_a_proj and q_b_proj (q_proj when q_lora_rank is
 * null), kv_a_proj_with_mqa, kv_b_proj, o_proj; or fused modules: Phi-3's
 * qkv_proj (q, k and v in one linear) and gate_up_proj (modeling_phi3.py,
 * Phi3Attention and Phi3MLP), GPT-NeoX's query_key_value, dense,
 * dense_h_to_4h and dense_4h_to_h (modeling_gpt_neox.py). A LoRA of rank r
 * on a fused linear of in inputs and out outputs holds r x (in + out): its
 * A is in x r, its B r x out, out the fused width (peft/tuners/lora/
 * layer.py, LoraLayer.update_layer). GS_LORA_ALL_LINEAR is "all-linear" as
 * given, before the model says which modules it has
 * (gs_recipe_resolve_targets).
 */
enum {
	GS_LORA_Q = 1, GS_LORA_Q_A = 2, GS_LORA_Q_B = 4, GS_LORA_K = 8, GS_LORA_V = 16,
	GS_LORA_KV_A = 32, GS_LORA_KV_B = 64, GS_LORA_O = 128,
	GS_LORA_GATE = 256, GS_LORA_UP = 512, GS_LORA_DOWN = 1024,
	GS_LORA_QKV = 1 << 11, GS_LORA_GATE_UP = 1 << 12,
	GS_LORA_NEOX_QKV = 1 << 13, GS_LORA_NEOX_DENSE = 1 << 14,
	GS_LORA_NEOX_UP = 1 << 15, GS_LORA_NEOX_DOWN = 1 << 16,
	/* the state mixers' projections: Mamba2's in_proj and out_proj
	 * (Nemotron-H), Gated DeltaNet's in_proj_qkvz, in_proj_ba and out_proj
	 * (Qwen3-Next); Qwen3-Next's shared_expert_gate (h -> 1) */
	GS_LORA_IN = 1 << 17, GS_LORA_OUT = 1 << 18, GS_LORA_IN_QKVZ = 1 << 19,
	GS_LORA_ALL_LINEAR = 1 << 20,
	GS_LORA_IN_BA = 1 << 21, GS_LORA_SHARED_GATE = 1 << 22,
	/* the routers that are nn.Linear modules (gs_recipe_extra_modules):
	 * Mixtral's block_sparse_moe.gate and Qwen3-MoE's mlp.gate ("gate",
	 * hidden -> experts), Qwen3-Next's mlp.shared_expert_gate (above),
	 * Llama 4's feed_forward.router (Llama4Router subclasses nn.Linear) */
	GS_LORA_ROUTER_GATE = 1 << 23, GS_LORA_ROUTER = 1 << 24,
	GS_LORA_ROUTERS = GS_LORA_ROUTER_GATE | GS_LORA_SHARED_GATE | GS_LORA_ROUTER,
	/* Qwen2.5-VL's vision tower (modeling_qwen2_5_vl.py): each block's
	 * attn.qkv (H -> 3H) and attn.proj (H -> H), the merger's mlp.0
	 * (H m² -> H m²) and mlp.2 (H m² -> out); its blocks' MLP is gate_proj,
	 * up_proj, down_proj (H -> I, I -> H), which those names match too */
	GS_LORA_VIS_QKV = 1 << 25, GS_LORA_VIS_PROJ = 1 << 26, GS_LORA_MERGER_0 = 1 << 27,
	GS_LORA_MERGER_2 = 1 << 28,
	GS_LORA_VISION = GS_LORA_VIS_QKV | GS_LORA_VIS_PROJ | GS_LORA_MERGER_0 | GS_LORA_MERGER_2,
	GS_LORA_MLP = 256 | 512 | 1024,
	GS_LORA_ALL = 1 | 8 | 16 | 128 | GS_LORA_MLP,   /* q, k, v, o and the MLP's */
	/* Phi-3's and GPT-NeoX's every linear module */
	GS_LORA_ALL_FUSED = GS_LORA_QKV | GS_LORA_O | GS_LORA_GATE_UP | GS_LORA_DOWN,
	GS_LORA_ALL_NEOX = GS_LORA_NEOX_QKV | GS_LORA_NEOX_DENSE | GS_LORA_NEOX_UP |
			   GS_LORA_NEOX_DOWN,
	/* every nn.Linear of Nemotron-H (no gate_proj: its MLP and experts are
	 * up_proj, relu2, down_proj) and of Qwen3-Next */
	GS_LORA_ALL_NEMOTRON_H = 1 | 8 | 16 | 128 | GS_LORA_IN | GS_LORA_OUT | GS_LORA_UP |
				 GS_LORA_DOWN,
	GS_LORA_ALL_QWEN3_NEXT = GS_LORA_ALL | GS_LORA_IN_QKVZ | GS_LORA_IN_BA | GS_LORA_OUT |
				 GS_LORA_SHARED_GATE
};
/* The names of the targets in bit order ("q_proj", "q_a_proj", ...,
 * "o_proj", "gate_proj", "up_proj", "down_proj", "qkv_proj",
 * "gate_up_proj", "query_key_value", "dense", "dense_h_to_4h",
 * "dense_4h_to_h", "in_proj", "out_proj", "in_proj_qkvz", "all-linear",
 * "in_proj_ba", "shared_expert_gate", "gate", "router", "attn.qkv",
 * "attn.proj", "merger.mlp.0", "merger.mlp.2"); the first
 * GS_MODEL_LORA_ROLES are model.h's gs_model_lora_roles. A name matches a
 * module as PEFT matches it: the module's name is the target or ends with
 * "." and the target (so "gate" is the router mlp.gate, never gate_proj). */
extern const char *const gs_recipe_target_names[];
/* The targets' bit numbers in the order of a layer's modules (the
 * attention's or the state mixer's, then the MLP's, the routers, the
 * vision tower's), GS_RECIPE_TARGETS of them (every bit but all-linear's):
 * how lists of targets are written. */
#define GS_RECIPE_TARGETS 28
extern const unsigned char gs_recipe_target_order[GS_RECIPE_TARGETS];

/* How a model's checkpoint names its linear modules: q, k, v, o and
 * gate, up, down apart (Llama and most), Phi-3's fused ones, GPT-NeoX's;
 * gpt-oss's q, k, v, o only: its experts, its only MLP, are 3-D
 * parameters (transformers' GptOssExperts.gate_up_proj and down_proj), no
 * nn.Linear that PEFT's target_modules can match. */
typedef enum {
	GS_LORA_NAMES_SEPARATE = 0,
	GS_LORA_NAMES_PHI3 = 1,
	GS_LORA_NAMES_NEOX = 2,
	GS_LORA_NAMES_GPT_OSS = 3,
	GS_LORA_NAMES_NEMOTRON_H = 4,
	GS_LORA_NAMES_QWEN3_NEXT = 5
} gs_lora_names;

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
	/* the module names of the model's checkpoint (its architecture), and
	 * 1 when its routed experts are 3-D parameters, not one nn.Linear
	 * per expert (gpt-oss, Llama 4's Llama4TextExperts): LoRA's MLP
	 * targets then adapt the shared expert and the dense layers only */
	gs_lora_names names;
	int experts_param;
	/*
	 * Hybrids of attention and state layers (Nemotron-H, Qwen3-Next),
	 * from the model's files (model.h): hybrid 1, and the layers then
	 * sized per kind, mix[mixer][ffn] (model.h gs_model_mixer; ffn 0
	 * none, 1 the dense MLP, 2 the experts) in place of the uniform
	 * layer; state the state mixers' widths (model.h gs_state_dims); q_gate 1 when the
	 * attention's q_proj also gives the output gate (Qwen3-Next, twice
	 * wide); norms the RMS norms of hidden per layer (Nemotron-H 1).
	 */
	int hybrid, q_gate;
	uint64_t mix[GS_MIXERS][3], norms;
	gs_state_dims state;
	/* the modules beside the layers' projections the model has
	 * (gs_recipe_extra_modules: its linear routers, its vision tower's) */
	unsigned extra;
	/* Qwen2.5-VL's vision tower from the model's files (model.h), 0 when
	 * none: blocks, width H, MLP width I, spatial merge m, output width */
	uint64_t vis_depth, vis_hidden, vis_inter, vis_merge, vis_out;
	/* the parameters per kind calculated from the checkpoint's safetensors
	 * headers (model.h), has_ck 1 when the model's files gave them: the
	 * training items then count from them, the geometry's figures kept as
	 * a cross-check (decide/training.h) */
	int has_ck;
	gs_model_pkinds ck;
	/* a GGUF base (model files in GGUF, no weights.format): the bytes per
	 * value of its dequantised tensors (gs_recipe_gguf_width), 0 otherwise;
	 * width_stated 1 when weights.compute_format names the width */
	unsigned gguf_width;
	int gguf_width_stated;
	uint64_t ck_config_params;   /* the geometry's parameter count, or 0 */
} gs_recipe;

const char *gs_recipe_method_id(gs_recipe_method m);
const char *gs_recipe_optimizer_id(gs_recipe_optimizer o);
const char *gs_recipe_ckpt_id(gs_recipe_ckpt c);
const char *gs_recipe_shard_id(gs_recipe_shard s);
const char *gs_recipe_offload_id(gs_recipe_offload o);

/*
 * The bytes per value a trainer holds a GGUF base in: transformers'
 * from_pretrained(gguf_file=...) dequantises every tensor to float32
 * (integrations/ggml.py, load_gguf_checkpoint) and keeps the dtype it is
 * asked for, float32 when none is given. From the workload's
 * compute_format, its first word: bf16, bfloat16, fp16, f16, float16 2;
 * fp32, f32, float32 4 (*stated 1); any other 4, the default (*stated 0).
 */
unsigned gs_recipe_gguf_width(const char *compute_format, int *stated);

/*
 * Reads the recipe object o at path into *rc (present set). Every error is
 * reported through r with its JSON path. Returns 0, or -1 when an error
 * was reported.
 */
int gs_recipe_read(gs_jr *r, json_t *o, const char *path, gs_recipe *rc);

/* Parses a comma-separated list of target names ("q_proj,v_proj", or
 * "all-linear") into *mask; -1 with the bad name in *bad otherwise. */
int gs_recipe_parse_targets(const char *list, unsigned *mask, const char **bad);

/* The names of the linear modules of an architecture (model.h gs_arch),
 * and whether its routed experts are 3-D parameters (1: gpt-oss, Llama 4). */
gs_lora_names gs_recipe_lora_names(int arch);
int gs_recipe_experts_param(int arch);
/* 1 for a hybrid of attention and state layers whose state mixers the
 * recipe sizes per layer kind (Nemotron-H, Qwen3-Next), else 0. */
int gs_recipe_hybrid_arch(int arch);
/* The linear modules a model has: by its names, its attention (mla 1 for
 * multi-head latent attention, q_rank 0 when its queries are projected
 * directly) and its MLP. */
unsigned gs_recipe_modules(gs_lora_names names, int mla, uint64_t q_rank);
/*
 * The linear modules an architecture has beside its layers' projections,
 * which "all-linear" adapts as PEFT does (peft/tuners/tuners_utils.py,
 * _maybe_include_all_linear_layers: every torch.nn.Linear and Conv1D but
 * the output head): with moe 1, its routers where they are nn.Linear
 * (transformers 4.x: MixtralSparseMoeBlock.gate, Qwen3MoeSparseMoeBlock.gate,
 * Qwen3NextSparseMoeBlock.gate and shared_expert_gate, Llama4Router); none
 * where the router holds its weight as a parameter (DeepseekV3TopkRouter,
 * GptOssTopKRouter, NemotronHTopkRouter, Glm4MoeTopkRouter), which PEFT
 * cannot adapt; Qwen2.5-VL's vision tower's linear modules (GS_LORA_VISION).
 */
unsigned gs_recipe_extra_modules(int arch, int moe);

/*
 * The targets against the modules the model has (gs_recipe_modules):
 * "all-linear" becomes every one of them. Returns the mask, and in *bad
 * the targets the model has no module of (0: none).
 */
unsigned gs_recipe_resolve(unsigned mask, unsigned has, unsigned *bad);
/* The same for separate names (gs_recipe_modules(SEPARATE, mla, q_rank)). */
unsigned gs_recipe_resolve_targets(unsigned mask, int mla, uint64_t q_rank, unsigned *bad);
/*
 * Why the target of bit `bit` is not a module of a model whose modules are
 * `has` (names and MLA as gs_recipe_modules), in words: the module that
 * holds it when the checkpoint fuses it (q_proj in Phi-3's qkv_proj), and
 * the modules the model has. Caller frees.
 */
char *gs_recipe_bad_target(unsigned bit, gs_lora_names names, int mla, uint64_t q_rank);

#endif
