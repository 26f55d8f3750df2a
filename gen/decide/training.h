/*
 * training: the memory of a training or an adaptation run as its recipe
 * says (workload training.recipe, read/recipe.h), per item and per card,
 * in bytes, exactly.
 *
 * Items (P parameters, T trainable, N cards; docs/formats.md §1.4):
 *   weights     the base model as held: its checkpoint bytes (full, LoRA);
 *               a GGUF checkpoint's P x its dequantised width W (recipe
 *               gguf_width: transformers dequantises GGUF blocks to
 *               float32 and holds them in the dtype asked, W 2 or 4; a
 *               trainer cannot train on the blocks); calculated;
 *               or QLoRA's NF4: ceil(Q/2) + ceil(Q/64) 8-bit constants +
 *               4 x ceil(Q/16384) fp32 constants for the Q parameters of
 *               the linear layers, the rest at 2 B (Dettmers et al. 2023,
 *               arXiv 2305.14314 §3, double quantization); calculated;
 *   adapters    LoRA: T x 4 B (fp32 adapters, PEFT's default); calculated;
 *   gradients   full: T x the weights' bytes per value (a GGUF base's W);
 *               LoRA: T x 4 B;
 *               calculated;
 *   master      full in a width below 32 bits (a GGUF base's W below 4):
 *               fp32 copy, P x 4 B
 *               (mixed precision, Rajbhandari et al. 2020, arXiv 1910.02054
 *               §3.1: 2 + 2 + 12 = 16 B per parameter with Adam); calculated;
 *   optimizer   AdamW T x 8 B; 8-bit AdamW T x 2 B + 2 x 4 B x ceil(T/2048)
 *               (Dettmers et al. 2022, arXiv 2110.02861, blocks of 2,048);
 *               SGD 0; SGD with momentum T x 4 B; calculated;
 *   activations per microbatch b of s tokens, hidden h, a heads, L layers,
 *               16-bit, by Korthikanti et al. 2022 (arXiv 2205.05198) eq. 1:
 *               per layer sbh(34 + 5as/h); selective recomputation drops the
 *               5as²b of the attention core (34sbh); full checkpointing
 *               keeps 2sbh per layer and one layer's for the recomputation,
 *               the largest kind's (its attention core recomputed by the
 *               kernel); assumed: a model of what a library keeps.
 *               Layer kinds: the paper's 34sbh is attention 11sbh, MLP
 *               19sbh (4h wide), norms 4sbh. An MoE's layers route to
 *               experts but its dense_layers (DeepSeek-V3's first three),
 *               which keep the 19sbh MLP; a routed or shared expert of
 *               width I keeps the paper's MLP terms at that width,
 *               2sbh + 2sbI + 2sbI + sbh = 3sbh + 4sbI, once per expert a
 *               token is routed to (experts_per_token), the shared ones
 *               once; multi-head latent attention (H heads, q and kv
 *               ranks, nope, rope and v head widths) keeps the paper's
 *               attention terms at its widths: 3sbh + 4sb·H(nope + rope)
 *               + 4sb·H·v + 4sb(q_rank + kv_rank);
 *               Hybrids (recipe hybrid: Nemotron-H, Qwen3-Next): each
 *               layer is a token mixer and a feed-forward block, sized
 *               per kind (training.c, "hybrids"): attention 11sbh and its
 *               core (Qwen3-Next's output gate + 4sb·H·d), an MLP or
 *               expert of width I 3sbh + 4sbI, a norm 2sbh, and the state
 *               layers, which have no published formula, by what their
 *               training kernels save for the backward pass: Mamba2
 *               mamba_ssm's mamba_split_conv1d_scan_combined (2sbh +
 *               2sb(2·d_inner + 2GN + heads) + 2sb·d_inner + 4sb·G),
 *               Gated DeltaNet flash-linear-attention's
 *               chunk_gated_delta_rule with its convolution and gated
 *               norm (2sbh + 4sb·Kd + 10sb·Vd + 4sb·Hv·dk + 128sb·Hv +
 *               26sb·Hv); selective recomputation drops the attention
 *               cores only, full keeps 2sbh per layer and one layer of
 *               the largest kind; assumed;
 *   logits      b x s x vocabulary x 4 B (fp32 logits of the loss);
 *               calculated.
 * No KV cache: a training step keeps none.
 *
 * From the checkpoint: where the model's safetensors headers were read
 * (model.h gs_model_param_kinds), T is calculated from its tensors, not
 * from the geometry: full training every parameter within the layers the
 * model runs (a multi-token-prediction layer transformers does not load
 * left out, and the quantisation scales); LoRA rank x (rows + columns) of each matrix a target names
 * (PEFT matches the module's name); QLoRA's Q the parameters of the
 * attention's, MLP's and experts' matrices. The geometry's T and Q stay
 * beside them (trainable_config, quantized_config) as a cross-check; the
 * master weights are T x 4 B.
 *
 * Sharding over N cards (Rajbhandari et al. 2020 §5): ZeRO-1 divides the
 * optimizer states and the master weights by N, ZeRO-2 the gradients too,
 * ZeRO-3 and FSDP (full shard) the weights and adapters too; the rest is
 * replicated. Each divided item is ceil(total / N) per card. Offload of
 * the optimizer moves the optimizer states and master weights to host
 * memory; offload of the parameters also the weights, of which one
 * layer's, ceil(weights / L), is gathered on the card at a time (assumed).
 */
#ifndef GS_TRAINING_H
#define GS_TRAINING_H

#include <stdint.h>
#include "error.h"
#include "quantity.h"
#include "workload.h"

typedef enum {
	GS_TI_WEIGHTS = 0,
	GS_TI_ADAPTERS,
	GS_TI_GRADIENTS,
	GS_TI_MASTER,
	GS_TI_OPTIMIZER,
	GS_TI_ACTIVATIONS,
	GS_TI_LOGITS,
	GS_TI_COUNT
} gs_train_kind;

typedef struct {
	const char *id;       /* "weights", "adapters", ... (label keys train.ID) */
	uint64_t total;       /* the whole item, every card's share together */
	uint64_t per_card;    /* what one card holds */
	uint64_t host;        /* what offload moves to host memory */
	int divided;          /* 1: divided over the cards by the stage */
	gs_prov prov;         /* calculated, or assumed (activations) */
} gs_train_item;

/* The phases of a run, in their order: what each holds on one card. */
typedef enum {
	GS_TP_LOAD = 0,       /* the model and adapters loaded */
	GS_TP_FIRST_STEP,     /* forward, backward, first optimizer step: the states created */
	GS_TP_STEADY,         /* the steps after it */
	GS_TP_EVAL,           /* evaluation: forward only, no gradients */
	GS_TP_EXPORT,         /* saving: the adapters' 16-bit copy, or the weights gathered */
	GS_TP_COUNT
} gs_train_phase;

/* One layer kind of a hybrid (Nemotron-H, Qwen3-Next): its token mixer
 * (model.h gs_model_mixer) and feed-forward block (0 none, 1 the dense
 * MLP, 2 the experts), its layers, one layer's linear parameters, and the
 * activations one layer keeps per microbatch without checkpointing. */
typedef struct {
	int mixer, ffn;
	uint64_t layers, linear, act;
} gs_train_hybrid_kind;

typedef struct {
	uint64_t trainable;   /* T */
	uint64_t quantized;   /* QLoRA: parameters of the linear layers in NF4; else 0 */
	/* 1: T and the QLoRA's linear layers are calculated from the
	 * checkpoint's headers (recipe has_ck); the geometry's figures are
	 * kept beside them as a cross-check (equal when not from_ck) */
	int from_ck;
	uint64_t trainable_config, quantized_config;
	/* Qwen2.5-VL's vision tower (recipe vis_depth), counted as trained
	 * (0 without one): its part of trainable_config (every parameter of
	 * the tower under full training, its adapters under LoRA) and of
	 * quantized_config (its linear modules' parameters, QLoRA) */
	uint64_t vision_trainable, vision_quantized;
	uint64_t cards;       /* N */
	gs_train_item items[GS_TI_COUNT];
	uint64_t per_card;    /* sum of the items per card */
	uint64_t host;        /* host memory offload needs (sum of the items' host) */
	gs_prov prov;         /* the weakest of the items */
	uint64_t phases[GS_TP_COUNT];   /* per card, the reserve not included */
	gs_train_phase peak;  /* the phase that sets the largest (the first at a tie) */
	/* per layer kind, 0 the dense MLP and 1 the experts (0 layers: none
	 * of that kind): the layers, one layer's linear parameters (attention
	 * projections and MLP, every expert), and the activations one layer
	 * keeps per microbatch without checkpointing (attention core included;
	 * assumed) */
	uint64_t kind_layers[2], kind_linear[2], kind_act[2];
	/* a hybrid's kinds instead (recipe hybrid; kind_* then 0), nhy of
	 * them in mixer then feed-forward order */
	gs_train_hybrid_kind hy[GS_MIXERS * 3];
	size_t nhy;
} gs_training;

/* The parameters of the linear layers of the model's layers (attention
 * projections and the MLP, every expert; a hybrid's per kind, its state
 * mixers' in and out projections and Qwen3-Next's shared_expert_gate
 * too), exact in 64 bits; -1 on overflow. */
int gs_training_linear_params(const gs_workload *w, uint64_t *out);
/* LoRA's trainable parameters: layers x sum over the targets of
 * rank x (in + out), every expert's for gate, up and down; multi-head
 * latent attention's projections at their shapes (q_a, q_b or q, kv_a,
 * kv_b, o: training.c); a fused module one adapter over its fused width
 * (Phi-3's qkv_proj h -> (H + 2 KV) d and gate_up_proj h -> 2I, GPT-NeoX's
 * query_key_value); no routed expert's where the experts are 3-D
 * parameters (recipe experts_param: gpt-oss, Llama 4); a hybrid's per
 * kind (Mamba2's in_proj h -> 2·d_inner + 2GN + heads and out_proj
 * d_inner -> h, Gated DeltaNet's in_proj_qkvz h -> 2Kd + 2Vd, in_proj_ba
 * h -> 2Hv and out_proj Vd -> h, Qwen3-Next's q_proj h -> 2·H·d and
 * shared_expert_gate h -> 1); a linear router's rank x (h + experts) per
 * MoE layer where the targets name it (all-linear: recipe.h
 * gs_recipe_extra_modules). -1 on overflow. */
int gs_training_lora_params(const gs_workload *w, uint64_t *out);
/* Qwen2.5-VL's vision tower (recipe vis_*): LoRA's parameters on the
 * modules the targets match (per block attn.qkv H -> 3H, attn.proj
 * H -> H, gate_proj and up_proj H -> I, down_proj I -> H; the merger's
 * mlp.0 M -> M and mlp.2 M -> out, M = H merge²), and the parameters of
 * its linear modules' matrices (what QLoRA quantises: depth x (4H² + 3HI)
 * + M² + M out); 0 without a tower. -1 on overflow. */
int gs_training_vision_lora(const gs_recipe *rc, uint64_t *out);
int gs_training_vision_linear(const gs_recipe *rc, uint64_t *out);
/* LoRA's trainable parameters from the checkpoint's headers: rank x the
 * sum over the targets of rows + columns of the matrices each names
 * (rc->ck.lora_io). -1 on overflow. */
int gs_training_lora_ck(const gs_recipe *rc, uint64_t *out);
/* Activations per card for the microbatch and tokens given (see above). */
int gs_training_activations(const gs_workload *w, uint64_t microbatch, uint64_t tokens,
			    int ckpt, uint64_t *out);

/*
 * Sizes w's recipe (w->recipe.present) with the base weights' bytes as the
 * sizing reads them (checkpoint or parameters x bits). Returns 0, or -1
 * with err set (overflow, a geometry whose linear layers exceed the
 * parameters).
 */
int gs_training_size(const gs_workload *w, uint64_t weights_bytes, gs_training *t,
		     gs_error *err);

/* "load", "first_step", "steady", "evaluation", "export" */
const char *gs_training_phase_id(gs_train_phase p);

#endif
