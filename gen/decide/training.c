/* training: a recipe's memory per item and per card (training.h). */
#include "training.h"

#include <string.h>

typedef unsigned __int128 u128;

static const char *const S_ids[GS_TI_COUNT] = { "weights", "adapters", "gradients", "master",
						"optimizer", "activations", "logits" };
static const char *const S_phase_ids[GS_TP_COUNT] = { "load", "first_step", "steady",
						   "evaluation", "export" };

const char *gs_training_phase_id(gs_train_phase p)
{
	return S_phase_ids[p];
}

static int S_fit(u128 v, uint64_t *out)
{
	if (v > UINT64_MAX)
		return -1;
	*out = (uint64_t)v;
	return 0;
}

static uint64_t S_ceil_div(uint64_t a, uint64_t n)
{
	return a / n + (a % n != 0);
}

/* the expert's intermediate size: its own, else the dense one */
static uint64_t S_expert_inter(const gs_recipe *rc)
{
	return rc->expert_intermediate ? rc->expert_intermediate : rc->intermediate;
}

static u128 S_hy_sum(const gs_workload *w, int what, u128 sb);

/* the layers that route to experts (every layer of an MoE but its dense
 * ones), and those with the dense MLP */
static uint64_t S_moe_layers(const gs_workload *w)
{
	return w->recipe.experts ? w->layers - w->recipe.dense_layers : 0;
}

static uint64_t S_dense_layers(const gs_workload *w)
{
	return w->layers - S_moe_layers(w);
}

/* the parameters of one layer's attention projections: q, k, v, o; or
 * MLA's (DeepSeek-V3, modeling_deepseek_v3.py): q_a (h x q_rank) and q_b
 * (q_rank x H(nope + rope)), or q (h x H(nope + rope)); kv_a_proj_with_mqa
 * (h x (kv_rank + rope)), kv_b (kv_rank x H(nope + v)), o (Hv x h) */
static u128 S_attn_params(const gs_workload *w)
{
	const gs_recipe *rc = &w->recipe;
	u128 h = rc->hidden, H = w->attention_heads, q = H * w->head_dim,
	     kv = (u128)w->kv_heads * w->head_dim, qk, p;

	if (!rc->mla)
		return h * q * 2 + h * kv * 2;
	qk = (u128)rc->mla_qk_nope + rc->mla_qk_rope;
	p = rc->mla_q_rank ? h * rc->mla_q_rank + (u128)rc->mla_q_rank * H * qk : h * H * qk;
	p += h * ((u128)rc->mla_kv_rank + rc->mla_qk_rope) +
	     (u128)rc->mla_kv_rank * H * ((u128)rc->mla_qk_nope + rc->mla_v);
	return p + H * rc->mla_v * h;
}

int gs_training_linear_params(const gs_workload *w, uint64_t *out)
{
	const gs_recipe *rc = &w->recipe;
	u128 h = rc->hidden, moe;
	/* GPT-NeoX's MLP has no gate: dense_h_to_4h and dense_4h_to_h */
	u128 mats = rc->names == GS_LORA_NAMES_NEOX ? 2 : 3;

	if (rc->hybrid)
		return S_fit(S_hy_sum(w, 0, 0), out);
	moe = (u128)rc->experts * 3 * h * S_expert_inter(rc) + 3 * h * rc->shared_intermediate;
	return S_fit(S_attn_params(w) * w->layers + mats * h * rc->intermediate * S_dense_layers(w) +
		     moe * S_moe_layers(w), out);
}

/* LoRA on an MLP of width inter: rank x (in + out) per target; Phi-3's
 * gate_up_proj one linear h -> 2 x inter, GPT-NeoX's dense_h_to_4h
 * h -> inter and dense_4h_to_h inter -> h */
static u128 S_lora_mlp(const gs_recipe *rc, u128 inter)
{
	u128 r = rc->lora_rank, h = rc->hidden, sum = 0;

	if (rc->targets & GS_LORA_GATE)
		sum += r * (h + inter);
	if (rc->targets & (GS_LORA_UP | GS_LORA_NEOX_UP))
		sum += r * (h + inter);
	if (rc->targets & (GS_LORA_DOWN | GS_LORA_NEOX_DOWN))
		sum += r * (inter + h);
	if (rc->targets & GS_LORA_GATE_UP)
		sum += r * (h + 2 * inter);
	return sum;
}

/*
 * LoRA on multi-head latent attention's projections, rank x (in + out)
 * each, at the shapes of transformers' modeling_deepseek_v3.py
 * (DeepseekV3Attention.__init__): q_proj h -> H(nope + rope) (q_lora_rank
 * null), q_a_proj h -> q_rank, q_b_proj q_rank -> H(nope + rope),
 * kv_a_proj_with_mqa h -> kv_rank + rope, kv_b_proj kv_rank -> H(nope + v),
 * o_proj H·v -> h.
 */
static u128 S_lora_mla(const gs_workload *w)
{
	const gs_recipe *rc = &w->recipe;
	u128 r = rc->lora_rank, h = rc->hidden, H = w->attention_heads,
	     qk = H * ((u128)rc->mla_qk_nope + rc->mla_qk_rope), sum = 0;

	if (rc->targets & GS_LORA_Q)
		sum += r * (h + qk);
	if (rc->targets & GS_LORA_Q_A)
		sum += r * (h + rc->mla_q_rank);
	if (rc->targets & GS_LORA_Q_B)
		sum += r * (rc->mla_q_rank + qk);
	if (rc->targets & GS_LORA_KV_A)
		sum += r * (h + rc->mla_kv_rank + rc->mla_qk_rope);
	if (rc->targets & GS_LORA_KV_B)
		sum += r * (rc->mla_kv_rank + H * ((u128)rc->mla_qk_nope + rc->mla_v));
	if (rc->targets & GS_LORA_O)
		sum += r * (H * rc->mla_v + h);
	return sum;
}

/*
 * LoRA on Qwen2.5-VL's vision tower (transformers' modeling_qwen2_5_vl.py:
 * Qwen2_5_VLVisionAttention, Qwen2_5_VLMLP, Qwen2_5_VLPatchMerger), rank x
 * (in + out) per module the targets match, PEFT's suffix match: per block
 * attn.qkv H -> 3H, attn.proj H -> H, mlp.gate_proj and up_proj H -> I,
 * down_proj I -> H (the names gate_proj, up_proj, down_proj match them as
 * they match the language model's); the merger's mlp.0 M -> M and mlp.2
 * M -> out, M = H x merge². Its patch embedding is a Conv3d, which
 * all-linear does not take. 0 without a tower.
 */
static u128 S_lora_vision(const gs_recipe *rc)
{
	u128 r = rc->lora_rank, H = rc->vis_hidden, I = rc->vis_inter,
	     M = H * rc->vis_merge * rc->vis_merge, blk = 0, sum = 0;

	if (!rc->vis_depth)
		return 0;
	if (rc->targets & GS_LORA_VIS_QKV)
		blk += r * (H + 3 * H);
	if (rc->targets & GS_LORA_VIS_PROJ)
		blk += r * (H + H);
	if (rc->targets & GS_LORA_GATE)
		blk += r * (H + I);
	if (rc->targets & GS_LORA_UP)
		blk += r * (H + I);
	if (rc->targets & GS_LORA_DOWN)
		blk += r * (I + H);
	if (rc->targets & GS_LORA_MERGER_0)
		sum += r * (M + M);
	if (rc->targets & GS_LORA_MERGER_2)
		sum += r * (M + rc->vis_out);
	return blk * rc->vis_depth + sum;
}

int gs_training_vision_lora(const gs_recipe *rc, uint64_t *out)
{
	return S_fit(S_lora_vision(rc), out);
}

int gs_training_vision_linear(const gs_recipe *rc, uint64_t *out)
{
	u128 H = rc->vis_hidden, I = rc->vis_inter, M = H * rc->vis_merge * rc->vis_merge;

	if (!rc->vis_depth)
		return S_fit(0, out);
	return S_fit((H * 3 * H + H * H + 3 * H * I) * rc->vis_depth + M * M + M * rc->vis_out,
		     out);
}

int gs_training_lora_params(const gs_workload *w, uint64_t *out)
{
	const gs_recipe *rc = &w->recipe;
	u128 h = rc->hidden, q = (u128)w->attention_heads * w->head_dim,
	     kv = (u128)w->kv_heads * w->head_dim, r = rc->lora_rank, attn = 0, moe;

	if (rc->hybrid)
		return S_fit(S_hy_sum(w, 1, 0), out);
	if (rc->mla) {
		attn = S_lora_mla(w);
	} else {
		if (rc->targets & GS_LORA_Q)
			attn += r * (h + q);
		if (rc->targets & GS_LORA_K)
			attn += r * (h + kv);
		if (rc->targets & GS_LORA_V)
			attn += r * (h + kv);
		if (rc->targets & (GS_LORA_O | GS_LORA_NEOX_DENSE))
			attn += r * (q + h);
		/* one linear h -> q + 2kv (Phi-3's qkv_proj, GPT-NeoX's
		 * query_key_value): one adapter over the fused width */
		if (rc->targets & (GS_LORA_QKV | GS_LORA_NEOX_QKV))
			attn += r * (h + q + 2 * kv);
	}
	/* every routed expert's gate, up and down (none where the experts are
	 * 3-D parameters, not linear modules), and the shared experts' */
	moe = rc->experts_param ? 0 : (u128)rc->experts * S_lora_mlp(rc, S_expert_inter(rc));
	if (rc->shared_intermediate)
		moe += S_lora_mlp(rc, rc->shared_intermediate);
	/* the routers that are linear modules (recipe.h): h -> experts, and
	 * Qwen3-Next's shared_expert_gate h -> 1 */
	if (rc->targets & (GS_LORA_ROUTER_GATE | GS_LORA_ROUTER))
		moe += r * (h + rc->experts);
	if (rc->targets & GS_LORA_SHARED_GATE)
		moe += r * (h + 1);
	return S_fit(attn * w->layers + S_lora_mlp(rc, rc->intermediate) * S_dense_layers(w) +
		     moe * S_moe_layers(w) + S_lora_vision(rc), out);
}

/*
 * Korthikanti et al. 2022 eq. 1 per layer, without the attention core's
 * 5as²b. Attention 11sbh: the projections' input 2sbh, Q and K 4sbh, V
 * 2sbh, the output projection's input 2sbh, the dropout mask sbh; for MLA
 * the same terms at its widths: 3sbh + 4sb·H(nope + rope) (Q, K) +
 * 4sb·H·v (V, the output's input) + 4sb(q_rank + kv_rank) (the latents,
 * into their norms and up-projections). The two norms 4sbh. The dense
 * MLP 19sbh (the paper's, 4h wide: 2sbh + 8sbh + 8sbh + sbh); an expert
 * of width I (routed or shared) the same terms at its width, 3sbh + 4sbI,
 * once per expert a token is routed to (num_experts_per_tok) and for the
 * shared experts together.
 */
static u128 S_attn_act(const gs_workload *w, u128 sb)
{
	const gs_recipe *rc = &w->recipe;
	u128 H = w->attention_heads;

	if (!rc->mla)
		return sb * rc->hidden * 11;
	return sb * rc->hidden * 3 + sb * 4 * H * ((u128)rc->mla_qk_nope + rc->mla_qk_rope) +
	       sb * 4 * H * rc->mla_v + sb * 4 * ((u128)rc->mla_q_rank + rc->mla_kv_rank);
}

static u128 S_expert_act(const gs_recipe *rc, u128 sb, u128 inter)
{
	return sb * rc->hidden * 3 + sb * 4 * inter;
}

/* one layer of each kind: moe 0 the dense MLP, 1 the experts */
static u128 S_layer_kind(const gs_workload *w, u128 sb, int moe)
{
	const gs_recipe *rc = &w->recipe;
	u128 mlp = sb * rc->hidden * 19;

	if (moe) {
		mlp = S_expert_act(rc, sb, S_expert_inter(rc)) * rc->experts_active;
		if (rc->shared_intermediate)
			mlp += S_expert_act(rc, sb, rc->shared_intermediate);
	}
	return S_attn_act(w, sb) + mlp + sb * rc->hidden * 4;
}

static u128 S_hy_max(const gs_workload *w, u128 sb);

/* the largest layer kind's (the one recomputed, or evaluated, at a time) */
static u128 S_layer(const gs_workload *w, u128 sb)
{
	u128 d, m;

	if (w->recipe.hybrid)
		return S_hy_max(w, sb);
	d = S_dense_layers(w) ? S_layer_kind(w, sb, 0) : 0;
	m = S_moe_layers(w) ? S_layer_kind(w, sb, 1) : 0;
	return d > m ? d : m;
}

/* ---------------------------------------------------------------- hybrids
 *
 * Nemotron-H and Qwen3-Next (recipe hybrid): each layer is one token mixer
 * (attention, Mamba2, Gated DeltaNet, or none) and one feed-forward block
 * (the dense MLP, the experts, or none), counted per kind (rc->mix). The
 * modules are transformers' (docs/formats.md §1.4):
 *  - modeling_nemotron_h.py: NemotronHAttention q_proj h -> H·d, k_proj
 *    and v_proj h -> KV·d, o_proj H·d -> h; NemotronHMamba2Mixer in_proj
 *    h -> 2·d_inner + 2·G·N + heads (d_inner = mamba_num_heads x
 *    mamba_head_dim, G n_groups, N ssm_state_size: the gate z, x, B, C and
 *    dt), conv1d (depthwise, no linear), out_proj d_inner -> h;
 *    NemotronHMLP up_proj h -> I, relu2, down_proj I -> h (no gate), the
 *    experts and the shared expert alike (one module per expert, as the
 *    checkpoint's own modeling file holds them); the router
 *    (NemotronHTopkRouter) a parameter, no nn.Linear; one norm per layer;
 *  - modeling_qwen3_next.py: Qwen3NextAttention q_proj h -> 2·H·d (the
 *    query and its output gate), k_proj, v_proj, o_proj; q_norm and
 *    k_norm of d; Qwen3NextGatedDeltaNet in_proj_qkvz h -> 2·Kd + 2·Vd
 *    (Kd = key heads x key width, Vd = value heads x value width),
 *    in_proj_ba h -> 2 x value heads, conv1d (depthwise), out_proj
 *    Vd -> h; Qwen3NextSparseMoeBlock: experts of gate, up, down, the
 *    shared expert, and two routers that are nn.Linear in transformers
 *    4.x, gate h -> experts and shared_expert_gate h -> 1 (recipe.h
 *    gs_recipe_extra_modules); two norms per layer.
 */

/* The state mixers' widths, once: Mamba2's d_inner (heads x head width)
 * and G·N (groups x state size), Gated DeltaNet's Kd and Vd (heads x
 * widths of the keys and the values). */
typedef struct {
	u128 in, gs, kd, vd;
} S_hy_widths;

static S_hy_widths S_hy_widths_of(const gs_recipe *rc)
{
	S_hy_widths x;

	x.in = (u128)rc->state.ssm_heads * rc->state.ssm_head_dim;
	x.gs = (u128)rc->state.ssm_groups * rc->state.ssm_state;
	x.kd = (u128)rc->state.lin_kh * rc->state.lin_kd;
	x.vd = (u128)rc->state.lin_vh * rc->state.lin_vd;
	return x;
}

/* one layer's linear parameters of the mixer, then of the feed-forward */
static u128 S_hy_mixer_params(const gs_workload *w, int mixer)
{
	const gs_recipe *rc = &w->recipe;
	S_hy_widths x = S_hy_widths_of(rc);
	u128 h = rc->hidden, q = (u128)w->attention_heads * w->head_dim,
	     kv = (u128)w->kv_heads * w->head_dim, in = x.in, gs = x.gs, kd = x.kd, vd = x.vd;

	switch (mixer) {
	case GS_MIXER_ATTENTION:
		return h * q * (rc->q_gate ? 2 : 1) + 2 * h * kv + q * h;
	case GS_MIXER_MAMBA2:
		return h * (2 * in + 2 * gs + rc->state.ssm_heads) + in * h;
	case GS_MIXER_GDN:
		return h * (2 * kd + 2 * vd) + h * 2 * rc->state.lin_vh + vd * h;
	default:
		return 0;
	}
}

static u128 S_hy_ffn_params(const gs_workload *w, int ffn)
{
	const gs_recipe *rc = &w->recipe;
	u128 h = rc->hidden, mats = rc->names == GS_LORA_NAMES_NEMOTRON_H ? 2 : 3;

	if (ffn == 1)
		return mats * h * rc->intermediate;
	if (ffn != 2)
		return 0;
	/* the routers (Qwen3-Next's gate and shared_expert_gate) are no
	 * layer's linear matrices here: QLoRA adds the linear ones
	 * (S_router_linear), as for every mixture of experts */
	return (u128)rc->experts * mats * h * S_expert_inter(rc) +
	       mats * h * rc->shared_intermediate;
}

/* LoRA on one layer of the kind: rank x (in + out) of each target */
static u128 S_hy_lora(const gs_workload *w, int mixer, int ffn)
{
	const gs_recipe *rc = &w->recipe;
	S_hy_widths x = S_hy_widths_of(rc);
	u128 r = rc->lora_rank, h = rc->hidden, q = (u128)w->attention_heads * w->head_dim,
	     kv = (u128)w->kv_heads * w->head_dim, in = x.in, gs = x.gs, kd = x.kd, vd = x.vd,
	     sum = 0;
	unsigned t = rc->targets;

	if (mixer == GS_MIXER_ATTENTION) {
		sum += t & GS_LORA_Q ? r * (h + q * (rc->q_gate ? 2 : 1)) : 0;
		sum += t & GS_LORA_K ? r * (h + kv) : 0;
		sum += t & GS_LORA_V ? r * (h + kv) : 0;
		sum += t & GS_LORA_O ? r * (q + h) : 0;
	} else if (mixer == GS_MIXER_MAMBA2) {
		sum += t & GS_LORA_IN ? r * (h + 2 * in + 2 * gs + rc->state.ssm_heads) : 0;
		sum += t & GS_LORA_OUT ? r * (in + h) : 0;
	} else if (mixer == GS_MIXER_GDN) {
		sum += t & GS_LORA_IN_QKVZ ? r * (h + 2 * kd + 2 * vd) : 0;
		sum += t & GS_LORA_IN_BA ? r * (h + 2 * (u128)rc->state.lin_vh) : 0;
		sum += t & GS_LORA_OUT ? r * (vd + h) : 0;
	}
	if (ffn == 1)
		sum += S_lora_mlp(rc, rc->intermediate);
	if (ffn == 2) {
		sum += (u128)rc->experts * S_lora_mlp(rc, S_expert_inter(rc)) +
		       S_lora_mlp(rc, rc->shared_intermediate);
		/* the linear routers: Qwen3-Next's gate h -> experts and
		 * shared_expert_gate h -> 1 */
		sum += t & (GS_LORA_ROUTER_GATE | GS_LORA_ROUTER) ? r * (h + rc->experts) : 0;
		sum += t & GS_LORA_SHARED_GATE ? r * (h + 1) : 0;
	}
	return sum;
}

/*
 * Activations one layer of the kind keeps per microbatch of sb tokens, in
 * bytes, without the attention core (assumed; docs/formats.md §1.4):
 *  - attention: the paper's 11sbh (Korthikanti et al. 2022), and for
 *    Qwen3-Next's output gate 4sb·H·d (its sigmoid's output and the
 *    attention output it scales);
 *  - Mamba2, as mamba_ssm's mamba_split_conv1d_scan_combined keeps it
 *    (ssd_combined.py, MambaSplitConv1dScanCombinedFn.forward: the fused
 *    path transformers' NemotronHMamba2Mixer takes in training):
 *    in_proj's input 2sbh, zxbcdt 2sb(2·d_inner + 2GN + heads), the
 *    scan's output out_x 2sb·d_inner, the gated norm's rstd 4sb·G (fp32);
 *    conv1d, the chunk states and out_proj's input are recomputed;
 *  - Gated DeltaNet, as Qwen3NextGatedDeltaNet runs with
 *    flash-linear-attention and causal-conv1d (fla's
 *    ChunkGatedDeltaRuleFunction.forward, chunks of 64, qk l2-normed in
 *    the kernel; FusedRMSNormGated): the projections' input 2sbh, the
 *    convolution's input 2sb(2Kd + Vd), q and k at the value heads Hv
 *    4sb·Hv·dk, v 2sb·Vd, the WY matrix A 2sb·Hv·64, g 4sb·Hv (fp32),
 *    beta 2sb·Hv, q's and k's rstd 8sb·Hv (fp32), the decay's softplus
 *    input and output 8sb·Hv (fp32), the gated norm's input and gate
 *    4sb·Vd and rstd 4sb·Hv, out_proj's input 2sb·Vd: 2sbh + 4sb·Kd +
 *    10sb·Vd + 4sb·Hv·dk + 128sb·Hv + 26sb·Hv;
 *  - the dense MLP and each expert of width I the paper's MLP terms at
 *    that width, 3sbh + 4sbI (once per routed expert a token goes to,
 *    and the shared expert's);
 *  - each norm of hidden 2sbh.
 */
static u128 S_hy_act(const gs_workload *w, u128 sb, int mixer, int ffn)
{
	const gs_recipe *rc = &w->recipe;
	S_hy_widths x = S_hy_widths_of(rc);
	u128 h = rc->hidden, q = (u128)w->attention_heads * w->head_dim, in = x.in, gs = x.gs,
	     kd = x.kd, vd = x.vd, hv = rc->state.lin_vh, a = sb * h * 2 * rc->norms;

	if (mixer == GS_MIXER_ATTENTION)
		a += sb * h * 11 + (rc->q_gate ? sb * 4 * q : 0);
	else if (mixer == GS_MIXER_MAMBA2)
		a += sb * 2 * h + sb * 2 * (2 * in + 2 * gs + rc->state.ssm_heads) + sb * 2 * in +
		     sb * 4 * rc->state.ssm_groups;
	else if (mixer == GS_MIXER_GDN)
		a += sb * 2 * h + sb * 4 * kd + sb * 10 * vd + sb * 4 * hv * rc->state.lin_kd +
		     sb * 128 * hv + sb * 26 * hv;
	if (ffn == 1)
		a += S_expert_act(rc, sb, rc->intermediate);
	else if (ffn == 2)
		a += S_expert_act(rc, sb, S_expert_inter(rc)) * rc->experts_active +
		     S_expert_act(rc, sb, rc->shared_intermediate);
	return a;
}

/* the sum over the kinds of layers x what = 0 linear, 1 LoRA, 2 activations
 * (sb tokens, the attention core left out) */
static u128 S_hy_sum(const gs_workload *w, int what, u128 sb)
{
	const gs_recipe *rc = &w->recipe;
	u128 sum = 0, v;
	int m, f;

	for (m = 0; m < GS_MIXERS; m++)
		for (f = 0; f < 3; f++) {
			if (!rc->mix[m][f])
				continue;
			v = what == 0 ? S_hy_mixer_params(w, m) + S_hy_ffn_params(w, f)
			    : what == 1 ? S_hy_lora(w, m, f) : S_hy_act(w, sb, m, f);
			sum += v * rc->mix[m][f];
		}
	return sum;
}

/* the largest kind's activations (the layer recomputed or evaluated) */
static u128 S_hy_max(const gs_workload *w, u128 sb)
{
	u128 best = 0, v;
	int m, f;

	for (m = 0; m < GS_MIXERS; m++)
		for (f = 0; f < 3; f++)
			if (w->recipe.mix[m][f] && (v = S_hy_act(w, sb, m, f)) > best)
				best = v;
	return best;
}

static uint64_t S_hy_attention_layers(const gs_recipe *rc)
{
	return rc->mix[GS_MIXER_ATTENTION][0] + rc->mix[GS_MIXER_ATTENTION][1] +
	       rc->mix[GS_MIXER_ATTENTION][2];
}

int gs_training_activations(const gs_workload *w, uint64_t microbatch, uint64_t tokens,
			    int ckpt, uint64_t *out)
{
	u128 sb = (u128)tokens * microbatch, core = sb * tokens * w->attention_heads * 5;
	u128 kept, v;
	uint64_t cores = w->layers;

	if (w->recipe.hybrid) {
		/* a state layer keeps what its kernel saves under every setting:
		 * selective recomputation drops the attention layers' cores only */
		kept = S_hy_sum(w, 2, sb);
		cores = S_hy_attention_layers(&w->recipe);
	} else {
		kept = S_layer_kind(w, sb, 0) * S_dense_layers(w) +
		       S_layer_kind(w, sb, 1) * S_moe_layers(w);
	}
	switch ((gs_recipe_ckpt)ckpt) {
	case GS_CKPT_NONE:
		v = kept + core * cores;
		break;
	case GS_CKPT_SELECTIVE:
		v = kept;
		break;
	case GS_CKPT_FULL:
	default:
		/* the recomputed layer's attention core is the kernel's own */
		v = sb * w->recipe.hidden * 2 * w->layers + S_layer(w, sb);
		break;
	}
	return S_fit(v, out);
}

/* bytes of the optimizer's states for n trainable values */
static u128 S_optimizer(gs_recipe_optimizer o, uint64_t n)
{
	switch (o) {
	case GS_OPT_ADAMW:
		return (u128)n * 8;
	case GS_OPT_ADAMW8BIT:
		/* two 8-bit states, one fp32 absmax per block of 2,048 each */
		return (u128)n * 2 + (u128)8 * S_ceil_div(n, 2048);
	case GS_OPT_SGD_MOMENTUM:
		return (u128)n * 4;
	case GS_OPT_SGD:
	default:
		return 0;
	}
}

/* QLoRA's base: the q parameters of the linear layers in NF4 with double
 * quantization, the rest (embeddings, head, norms, router) at 2 B */
static int S_qlora_base(const gs_workload *w, uint64_t q, uint64_t *out)
{
	u128 v = (u128)S_ceil_div(q, 2) + S_ceil_div(q, 64) + (u128)4 * S_ceil_div(q, 16384) +
		 (u128)(w->parameters - q) * 2;

	return S_fit(v, out);
}

int gs_training_lora_ck(const gs_recipe *rc, uint64_t *out)
{
	u128 io = 0;
	size_t i;

	for (i = 0; i < GS_MODEL_LORA_ROLES; i++)
		if (rc->targets & (1u << i))
			io += rc->ck.lora_io[i];
	return S_fit(io * rc->lora_rank, out);
}

/* the trainable parameters: the checkpoint's where its headers were read
 * (full: every kind's within the model's layers, quantisation scales left
 * out; LoRA: rank x the rows + columns of the matrices the targets name),
 * the geometry's otherwise; the geometry's kept in trainable_config */
static int S_trainable(const gs_workload *w, gs_training *t)
{
	const gs_recipe *rc = &w->recipe;

	t->from_ck = rc->has_ck;
	if (rc->method == GS_METHOD_FULL)
		t->trainable_config = rc->has_ck && rc->ck_config_params ? rc->ck_config_params
									  : w->parameters;
	else if (gs_training_lora_params(w, &t->trainable_config))
		return -1;
	t->trainable = t->trainable_config;
	if (!rc->has_ck)
		return 0;
	if (rc->method == GS_METHOD_FULL)
		t->trainable = rc->ck.total - rc->ck.params[GS_PK_BEYOND] - rc->ck.params[GS_PK_SCALE];
	else if (gs_training_lora_ck(rc, &t->trainable))
		return -1;
	return 0;
}

/* QLoRA's NF4 parameters: the linear routers' matrices too (bitsandbytes
 * quantises every nn.Linear but the head), h x experts per MoE layer and
 * Qwen3-Next's shared_expert_gate h; from the checkpoint, its 2-D router
 * weights; quantized_config holds the rest of the geometry's already */
static int S_router_linear(const gs_workload *w, gs_training *t)
{
	const gs_recipe *rc = &w->recipe;
	u128 h = rc->hidden, v = 0;
	uint64_t r;

	if (rc->extra & (GS_LORA_ROUTER_GATE | GS_LORA_ROUTER))
		v += h * rc->experts;
	if (rc->extra & GS_LORA_SHARED_GATE)
		v += h;
	if (S_fit(v * S_moe_layers(w), &r) ||
	    gs_qty_add_u64(t->quantized_config, r, &t->quantized_config))
		return -1;
	t->quantized = t->quantized_config;
	if (rc->has_ck && gs_qty_add_u64(rc->ck.linear,
					 rc->extra & GS_LORA_ROUTERS ? rc->ck.router_linear : 0,
					 &t->quantized))
		return -1;
	return 0;
}

/* the vision tower's part of the geometry's trainable parameters: all of
 * its parameters under full training (model.h vision_params), its
 * adapters under LoRA */
static int S_vision(const gs_workload *w, gs_training *t)
{
	const gs_recipe *rc = &w->recipe;

	if (!rc->vis_depth)
		return 0;
	if (rc->method == GS_METHOD_FULL) {
		t->vision_trainable = w->model ? w->model->vision_params : 0;
		return 0;
	}
	return gs_training_vision_lora(rc, &t->vision_trainable);
}

/* the value bytes of the weights: their storage width, whole bytes (2 for
 * bf16); a GGUF base's its dequantised width */
static uint64_t S_value_bytes(const gs_workload *w)
{
	uint64_t mb = gs_workload_millibits(w);

	if (w->recipe.gguf_width)
		return w->recipe.gguf_width;
	return mb >= 8000 ? (mb + 7999) / 8000 : 1;
}

static int S_set(gs_training *t, gs_train_kind k, u128 total, int divided, gs_prov prov)
{
	gs_train_item *it = &t->items[k];

	it->id = S_ids[k];
	it->prov = prov;
	it->divided = divided;
	if (S_fit(total, &it->total))
		return -1;
	it->per_card = divided ? S_ceil_div(it->total, t->cards) : it->total;
	return 0;
}

/* offload: the item to host memory, none on the card */
static void S_offload(gs_train_item *it)
{
	it->host = it->total;
	it->per_card = 0;
}

static int S_fail(gs_error *err, const char *what)
{
	gs_error_set(err, "the training recipe's %s does not fit in 64 bits", what);
	return -1;
}

/* the phases per card from the items */
static int S_phases(const gs_workload *w, gs_training *t)
{
	const gs_recipe *rc = &w->recipe;
	const gs_train_item *it = t->items;
	uint64_t load, step, eval, exp, v;
	int f;
	u128 sb = (u128)gs_workload_dim(w, "microbatch", &f) * gs_workload_dim(w, "input_tokens", &f);
	size_t p;

	load = it[GS_TI_WEIGHTS].per_card + it[GS_TI_ADAPTERS].per_card;
	step = t->per_card;
	/* evaluation: no gradients, no states kept for a backward pass; one
	 * layer's activations and the logits */
	if (S_fit(S_layer(w, sb), &v))
		return -1;
	eval = load;
	if (gs_qty_add_u64(eval, v, &eval) || gs_qty_add_u64(eval, it[GS_TI_LOGITS].per_card, &eval))
		return -1;
	/* the optimizer states stay allocated after the first step */
	if (gs_qty_add_u64(eval, it[GS_TI_OPTIMIZER].per_card, &eval) ||
	    gs_qty_add_u64(eval, it[GS_TI_MASTER].per_card, &eval))
		return -1;
	exp = load;
	if (gs_qty_add_u64(exp, it[GS_TI_OPTIMIZER].per_card, &exp) ||
	    gs_qty_add_u64(exp, it[GS_TI_MASTER].per_card, &exp))
		return -1;
	if (rc->method != GS_METHOD_FULL) {
		/* a 16-bit copy of the adapters */
		if (gs_qty_mul_u64(t->trainable, 2, &v) || gs_qty_add_u64(exp, v, &exp))
			return -1;
	} else if (it[GS_TI_WEIGHTS].divided) {
		/* the 16-bit weights gathered whole on the card that saves */
		if (gs_qty_add_u64(exp, it[GS_TI_WEIGHTS].total - it[GS_TI_WEIGHTS].per_card, &exp))
			return -1;
	}
	t->phases[GS_TP_LOAD] = load;
	t->phases[GS_TP_FIRST_STEP] = step;
	t->phases[GS_TP_STEADY] = step;
	t->phases[GS_TP_EVAL] = eval;
	t->phases[GS_TP_EXPORT] = exp;
	t->peak = GS_TP_LOAD;
	for (p = 1; p < GS_TP_COUNT; p++)
		if (t->phases[p] > t->phases[t->peak])
			t->peak = (gs_train_phase)p;
	return 0;
}

/* a hybrid's kinds, in mixer then feed-forward order: each one's layers,
 * one layer's linear parameters, and its activations without
 * checkpointing (the attention core included) */
static int S_hy_kinds(const gs_workload *w, u128 sb, u128 core, gs_training *t)
{
	const gs_recipe *rc = &w->recipe;
	int m, f;

	for (m = 0; m < GS_MIXERS; m++)
		for (f = 0; f < 3; f++) {
			gs_train_hybrid_kind *k = &t->hy[t->nhy];
			if (!rc->mix[m][f])
				continue;
			k->mixer = m;
			k->ffn = f;
			k->layers = rc->mix[m][f];
			if (S_fit(S_hy_mixer_params(w, m) + S_hy_ffn_params(w, f), &k->linear) ||
			    S_fit(S_hy_act(w, sb, m, f) + (m == GS_MIXER_ATTENTION ? core : 0),
				  &k->act))
				return -1;
			t->nhy++;
		}
	return 0;
}

/* each layer kind's count, linear parameters and activations */
static int S_kinds(const gs_workload *w, uint64_t mb, uint64_t tokens, gs_training *t)
{
	const gs_recipe *rc = &w->recipe;
	u128 sb = (u128)mb * tokens, core = sb * tokens * w->attention_heads * 5,
	     h = rc->hidden, moe;
	int k;

	if (rc->hybrid)
		return S_hy_kinds(w, sb, core, t);
	t->kind_layers[0] = S_dense_layers(w);
	t->kind_layers[1] = S_moe_layers(w);
	moe = (u128)rc->experts * 3 * h * S_expert_inter(rc) + 3 * h * rc->shared_intermediate;
	if (S_fit(S_attn_params(w) + 3 * h * rc->intermediate, &t->kind_linear[0]) ||
	    S_fit(S_attn_params(w) + moe, &t->kind_linear[1]))
		return -1;
	for (k = 0; k < 2; k++)
		if (S_fit(S_layer_kind(w, sb, k) + core, &t->kind_act[k]))
			return -1;
	return 0;
}

int gs_training_size(const gs_workload *w, uint64_t weights_bytes, gs_training *t,
		     gs_error *err)
{
	const gs_recipe *rc = &w->recipe;
	int full = rc->method == GS_METHOD_FULL, f1, f2;
	int s1 = rc->sharding != GS_SHARD_NONE, s2 = rc->sharding >= GS_SHARD_ZERO2,
	    s3 = rc->sharding >= GS_SHARD_ZERO3;
	uint64_t base = weights_bytes, mb = gs_workload_dim(w, "microbatch", &f1),
		 tokens = gs_workload_dim(w, "input_tokens", &f2), act;
	size_t k;

	memset(t, 0, sizeof(*t));
	t->cards = rc->cards ? rc->cards : 1;
	if (!rc->present || !f1 || !f2)
		return S_fail(err, "dimensions (no recipe, microbatch or input_tokens)");
	if (S_trainable(w, t) || S_vision(w, t))
		return S_fail(err, "LoRA parameters");
	/* a GGUF base: its parameters dequantised to the compute width (QLoRA
	 * quantises them to NF4 below, as any base) */
	if (rc->gguf_width && gs_qty_mul_u64(w->parameters, rc->gguf_width, &base))
		return S_fail(err, "dequantised GGUF base");
	if (rc->method == GS_METHOD_QLORA) {
		/* bitsandbytes quantises every nn.Linear but the head: the vision
		 * tower's too */
		if (gs_training_linear_params(w, &t->quantized_config) ||
		    gs_training_vision_linear(rc, &t->vision_quantized) ||
		    gs_qty_add_u64(t->quantized_config, t->vision_quantized, &t->quantized_config) ||
		    S_router_linear(w, t))
			return S_fail(err, "linear layers");
		if (t->quantized > w->parameters) {
			gs_error_set(err, "the %s linear layers (%llu parameters) exceed "
				     "model.parameters (%llu): the recipe's geometry does not describe "
				     "this model", rc->has_ck ? "checkpoint's" : "geometry's",
				     (unsigned long long)t->quantized,
				     (unsigned long long)w->parameters);
			return -1;
		}
		if (S_qlora_base(w, t->quantized, &base))
			return S_fail(err, "4-bit base");
	}
	if (S_set(t, GS_TI_WEIGHTS, base, s3, GS_PROV_CALCULATED) ||
	    S_set(t, GS_TI_ADAPTERS, full ? 0 : (u128)t->trainable * 4, s3, GS_PROV_CALCULATED) ||
	    S_set(t, GS_TI_GRADIENTS,
		  (u128)t->trainable * (full ? S_value_bytes(w) : 4), s2, GS_PROV_CALCULATED) ||
	    S_set(t, GS_TI_MASTER, full && (rc->gguf_width ? rc->gguf_width < 4
						: gs_workload_millibits(w) < 32000)
				       ? (u128)t->trainable * 4 : 0, s1, GS_PROV_CALCULATED) ||
	    S_set(t, GS_TI_OPTIMIZER, S_optimizer(rc->optimizer, t->trainable), s1,
		  GS_PROV_CALCULATED))
		return S_fail(err, "model states");
	if (gs_training_activations(w, mb, tokens, (int)rc->checkpointing, &act) ||
	    S_set(t, GS_TI_ACTIVATIONS, act, 0, GS_PROV_ASSUMED) ||
	    S_set(t, GS_TI_LOGITS, (u128)mb * tokens * rc->vocab * 4, 0, GS_PROV_CALCULATED))
		return S_fail(err, "activations");
	if (rc->offload != GS_OFFLOAD_NONE) {
		S_offload(&t->items[GS_TI_OPTIMIZER]);
		S_offload(&t->items[GS_TI_MASTER]);
	}
	if (rc->offload == GS_OFFLOAD_PARAMETERS) {
		gs_train_item *it = &t->items[GS_TI_WEIGHTS];
		it->host = it->total;
		it->per_card = S_ceil_div(it->total, w->layers);
		it->prov = GS_PROV_ASSUMED;
	}
	t->prov = GS_PROV_CALCULATED;
	for (k = 0; k < GS_TI_COUNT; k++) {
		if (gs_qty_add_u64(t->per_card, t->items[k].per_card, &t->per_card) ||
		    gs_qty_add_u64(t->host, t->items[k].host, &t->host))
			return S_fail(err, "sum");
		t->prov = gs_qty_prov_weakest(t->prov, t->items[k].prov);
	}
	if (S_phases(w, t) || S_kinds(w, mb, tokens, t))
		return S_fail(err, "phases");
	return 0;
}
