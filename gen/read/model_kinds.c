/*
 * model_kinds: the parameters per kind of a checkpoint, from its
 * safetensors headers' or its GGUF header's tensor names and shapes
 * (model.h, gs_model_param_kinds). Each tensor is noted as its header is read
 * (gs_model_kinds_note, model_int.h); the sums wait for config.json's
 * layer count, which says which layers the model runs.
 */
#include "model.h"
#include "model_int.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "quantity.h"

/* one tensor as noted: its kind before the layer count, its layer (-1:
 * none), its LoRA role (-1: none), its parameters and, for a matrix that
 * a LoRA role names, its rows + columns */
struct gs_model_pt_s {
	int64_t layer;
	int kind;
	int role;
	int linear;
	uint64_t params, io;
};

const char *const gs_model_lora_roles[GS_MODEL_LORA_ROLES + 1] = {
	"q_proj", "q_a_proj", "q_b_proj", "k_proj", "v_proj", "kv_a_proj_with_mqa",
	"kv_b_proj", "o_proj", "gate_proj", "up_proj", "down_proj", "qkv_proj",
	"gate_up_proj", "query_key_value", "dense", "dense_h_to_4h", "dense_4h_to_h", "in_proj",
	"out_proj", "in_proj_qkvz", "all-linear", "in_proj_ba", "shared_expert_gate", "gate",
	"router", "attn.qkv", "attn.proj", "merger.mlp.0", "merger.mlp.2", NULL
};

static int S_ends(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* Tensors that hold buffers, not parameters, in published checkpoints. */
int gs_model_tensor_buffer(const char *name)
{
	return S_ends(name, "inv_freq") || S_ends(name, ".attention.bias") ||
	       S_ends(name, ".attention.masked_bias") || S_ends(name, ".attn.bias") ||
	       S_ends(name, ".attn.masked_bias");
}

/* 1 when the dotted name holds the component c */
static int S_comp(const char *name, const char *c)
{
	size_t k = strlen(c);
	const char *p = name;

	while ((p = strstr(p, c)) != NULL) {
		if ((p == name || p[-1] == '.') && (p[k] == '.' || p[k] == '\0'))
			return 1;
		p += k;
	}
	return 0;
}

/* the layer index after a "layers." component, or -1 */
static int64_t S_layer(const char *name)
{
	const char *p = name;
	int64_t v;

	while ((p = strstr(p, "layers.")) != NULL) {
		if (p == name || p[-1] == '.') {
			p += strlen("layers.");
			if (*p < '0' || *p > '9')
				return -1;
			for (v = 0; *p >= '0' && *p <= '9' && v < INT64_C(1) << 40; p++)
				v = v * 10 + (*p - '0');
			return *p == '.' ? v : -1;
		}
		p++;
	}
	return -1;
}

/* the index of a role by its name, or -1 */
static int S_role_named(const char *role)
{
	size_t i;

	for (i = 0; i < GS_MODEL_LORA_ROLES; i++)
		if (strcmp(role, gs_model_lora_roles[i]) == 0)
			return (int)i;
	return -1;
}

/* the LoRA role a matrix's module name gives (the name before ".weight"),
 * as PEFT matches a target: the module's name is the role or ends with "."
 * and the role (peft/tuners/tuners_utils.py, check_target_module_exists);
 * Mixtral's experts' w1, w3, w2 as gate, up, down; or -1 */
static int S_role(const char *name)
{
	static const char *const mixtral[3][2] = { { "w1", "gate_proj" }, { "w3", "up_proj" },
						   { "w2", "down_proj" } };
	const char *end = name + strlen(name) - strlen(".weight"), *b = end;
	size_t n = (size_t)(end - name), k, i;

	while (b > name && b[-1] != '.')
		b--;
	for (i = 0; i < 3; i++)
		if (end - b == 2 && strncmp(b, mixtral[i][0], 2) == 0 && S_comp(name, "experts"))
			return S_role_named(mixtral[i][1]);
	for (i = 0; i < GS_MODEL_LORA_ROLES; i++) {
		k = strlen(gs_model_lora_roles[i]);
		if (k <= n && strncmp(end - k, gs_model_lora_roles[i], k) == 0 &&
		    (k == n || end[-(ptrdiff_t)k - 1] == '.'))
			return (int)i;
	}
	return -1;
}

gs_model_pkind gs_model_tensor_kind(const char *name, int *role)
{
	int weight = S_ends(name, ".weight"), bias = S_ends(name, ".bias");
	const char *p;

	*role = -1;
	if (gs_model_tensor_buffer(name))
		return GS_PK_COUNT;
	if (strstr(name, "scale"))
		return GS_PK_SCALE;
	/* packed blocks and other names that are no weight or bias */
	if (!weight && !bias && !S_comp(name, "experts"))
		return S_ends(name, "e_score_correction_bias") ? GS_PK_ROUTER : GS_PK_OTHER;
	if (strstr(name, "embed_tokens") || S_comp(name, "wte") || S_comp(name, "embed_in"))
		return GS_PK_EMBED;
	if (S_comp(name, "lm_head") || S_comp(name, "embed_out"))
		return GS_PK_HEAD;
	/* norms: a component holding "norm", or starting "ln_" */
	for (p = name; *p; p++)
		if ((p == name || p[-1] == '.') && (strncmp(p, "ln_", 3) == 0 ||
		    (strstr(p, "norm") && strstr(p, "norm") < p + strcspn(p, "."))))
			return GS_PK_NORM;
	if (S_comp(name, "gate") || S_comp(name, "router") || S_comp(name, "shared_expert_gate")) {
		/* its role counted only where the router is a linear module
		 * (recipe.h gs_recipe_extra_modules) */
		if (weight)
			*role = S_role(name);
		return GS_PK_ROUTER;
	}
	if (weight)
		*role = S_role(name);
	if (S_comp(name, "shared_experts") || S_comp(name, "shared_expert"))
		return GS_PK_SHARED;
	if (S_comp(name, "experts"))
		return GS_PK_ROUTED;
	if (S_comp(name, "self_attn") || S_comp(name, "attention") || S_comp(name, "attn"))
		return GS_PK_ATTENTION;
	if (S_comp(name, "mlp") || S_comp(name, "feed_forward"))
		return GS_PK_DENSE;
	*role = -1;
	return GS_PK_OTHER;
}

/* a new slot for one tensor */
static struct gs_model_pt_s *S_slot(struct gs_model_s *m)
{
	if (m->npt == m->pt_cap) {
		m->pt_cap = m->pt_cap ? 2 * m->pt_cap : 256;
		m->pt = gs_xrealloc(m->pt, m->pt_cap * sizeof(*m->pt));
	}
	return &m->pt[m->npt];
}

static int S_matrix_kind(int kind)
{
	return kind == GS_PK_ATTENTION || kind == GS_PK_DENSE || kind == GS_PK_ROUTED ||
	       kind == GS_PK_SHARED;
}

void gs_model_kinds_note(struct gs_model_s *m, const char *name, const uint64_t *shape,
			 size_t ndim, uint64_t params)
{
	struct gs_model_pt_s *t = S_slot(m);
	int role;

	t->kind = (int)gs_model_tensor_kind(name, &role);
	if (t->kind == GS_PK_COUNT)
		return;   /* a buffer: no parameter of any kind */
	m->npt++;
	t->layer = S_layer(name);
	t->params = params;
	t->linear = ndim == 2 && S_ends(name, ".weight") && S_matrix_kind(t->kind);
	t->role = ndim == 2 ? role : -1;
	t->io = ndim == 2 ? shape[0] + shape[1] : 0;
}

/*
 * GGUF tensors, by llama.cpp's names (ggml-org/llama.cpp,
 * gguf-py/gguf/constants.py TENSOR_NAMES and tensor_mapping.py, which
 * maps each checkpoint's module to them): token_embd, position_embd,
 * output (the head), output_norm, rope_freqs (rope factors: a table, no
 * parameter); per layer "blk.N." then attn_q, attn_k, attn_v, attn_output,
 * attn_qkv (one tensor for q, k and v: GPT-NeoX's
 * attention.query_key_value, Phi-3's self_attn.qkv_proj), attn_q_a,
 * attn_q_b, attn_kv_a_mqa, attn_kv_b (MLA), attn_sinks, ffn_gate, ffn_up
 * (Phi-3's mlp.gate_up_proj too: gate and up in one tensor, 2 x
 * intermediate wide), ffn_down; the routed experts fused, every expert's
 * matrix in one tensor (ffn_gate_exps, ffn_up_exps, ffn_down_exps,
 * ffn_gate_up_exps), the shared experts' ffn_gate_shexp, ffn_up_shexp,
 * ffn_down_shexp, the routers ffn_gate_inp and ffn_gate_inp_shexp and the
 * routing bias exp_probs_b; norms are the names holding "norm". The
 * dimensions are ggml's: ne[0] the input features, ne[1] the output
 * features, ne[2] the experts of a fused tensor.
 */
static const char *const S_gguf_roles[][2] = {
	{ "attn_q", "q_proj" }, { "attn_k", "k_proj" }, { "attn_v", "v_proj" },
	{ "attn_output", "o_proj" }, { "attn_qkv", "qkv_proj" }, { "attn_q_a", "q_a_proj" },
	{ "attn_q_b", "q_b_proj" }, { "attn_kv_a_mqa", "kv_a_proj_with_mqa" },
	{ "attn_kv_b", "kv_b_proj" }, { "ffn_gate", "gate_proj" }, { "ffn_up", "up_proj" },
	{ "ffn_down", "down_proj" }
};

/* The checkpoint's module a GGUF tensor holds (base: its name without
 * "blk.N.", ".weight" and "_exps" / "_shexp"), by the module names of the
 * architecture in transformers: GPT-NeoX's attention.query_key_value,
 * attention.dense, mlp.dense_h_to_4h, mlp.dense_4h_to_h; Phi-3's qkv_proj,
 * gate_up_proj. -1: no LoRA role. */
static int S_gguf_role(const char *base, size_t n, int arch)
{
	const char *role = NULL;
	size_t i;

	for (i = 0; i < sizeof(S_gguf_roles) / sizeof(S_gguf_roles[0]) && !role; i++)
		if (strlen(S_gguf_roles[i][0]) == n && strncmp(base, S_gguf_roles[i][0], n) == 0)
			role = S_gguf_roles[i][1];
	if (!role)
		return -1;
	if (arch == GS_ARCH_GPTNEOX) {
		static const char *const neox[][2] = {
			{ "qkv_proj", "query_key_value" }, { "o_proj", "dense" },
			{ "up_proj", "dense_h_to_4h" }, { "down_proj", "dense_4h_to_h" }
		};
		for (i = 0; i < sizeof(neox) / sizeof(neox[0]); i++)
			if (strcmp(role, neox[i][0]) == 0)
				role = neox[i][1];
	} else if (arch == GS_ARCH_PHI3 && strcmp(role, "up_proj") == 0) {
		role = "gate_up_proj";
	}
	return S_role_named(role);
}

static gs_model_pkind S_gguf_kind(const char *name, const char *base)
{
	if (S_ends(name, "rope_freqs.weight") || strstr(name, "rope_factors"))
		return GS_PK_COUNT;
	if (strstr(base, "norm"))
		return GS_PK_NORM;
	if (strstr(base, "scale"))
		return GS_PK_SCALE;
	if (base == name && (strncmp(name, "token_embd.", 11) == 0 ||
			     strncmp(name, "position_embd.", 14) == 0))
		return GS_PK_EMBED;
	if (base == name && strcmp(name, "output.weight") == 0)
		return GS_PK_HEAD;
	if (strncmp(base, "ffn_gate_inp", 12) == 0 || strncmp(base, "exp_probs_b", 11) == 0)
		return GS_PK_ROUTER;
	if (strstr(base, "_exps."))
		return GS_PK_ROUTED;
	if (strstr(base, "_shexp."))
		return GS_PK_SHARED;
	if (strncmp(base, "attn_", 5) == 0)
		return GS_PK_ATTENTION;
	if (strncmp(base, "ffn_", 4) == 0)
		return GS_PK_DENSE;
	return GS_PK_OTHER;
}

static uint64_t S_sat(unsigned __int128 v)
{
	return v > UINT64_MAX ? UINT64_MAX : (uint64_t)v;
}

/* A router's LoRA role and rows + columns: ffn_gate_inp (ne hidden x
 * experts) is the checkpoint's gate, Llama 4's router; ffn_gate_inp_shexp
 * (a vector of hidden in llama.cpp: the linear hidden -> 1) its
 * shared_expert_gate. exp_probs_b, a bias, has none. */
static void S_gguf_router(struct gs_model_pt_s *t, const char *base, const uint64_t *ne,
			  size_t nd, int arch)
{
	if (strcmp(base, "ffn_gate_inp_shexp.weight") == 0 && nd <= 2) {
		t->role = S_role_named("shared_expert_gate");
		t->io = S_sat((unsigned __int128)ne[0] + (nd == 2 ? ne[1] : 1));
	} else if (strcmp(base, "ffn_gate_inp.weight") == 0 && nd == 2) {
		t->role = S_role_named(arch == GS_ARCH_LLAMA4 ? "router" : "gate");
		t->io = S_sat((unsigned __int128)ne[0] + ne[1]);
	}
}

void gs_model_kinds_note_gguf(struct gs_model_s *m, const char *name, const uint64_t *ne,
			      size_t nd, uint64_t params)
{
	struct gs_model_pt_s *t = S_slot(m);
	const char *base = name, *end;
	int64_t layer = -1;
	unsigned __int128 io = 0;
	size_t n;

	if (strncmp(name, "blk.", 4) == 0 && name[4] >= '0' && name[4] <= '9') {
		const char *p = name + 4;
		for (layer = 0; *p >= '0' && *p <= '9' && layer < INT64_C(1) << 40; p++)
			layer = layer * 10 + (*p - '0');
		base = *p == '.' ? p + 1 : name;
		if (base == name)
			layer = -1;
	}
	t->kind = (int)S_gguf_kind(name, base);
	if (t->kind == GS_PK_COUNT)
		return;
	m->npt++;
	t->layer = layer;
	t->params = params;
	t->linear = nd >= 2 && S_ends(name, ".weight") && S_matrix_kind(t->kind);
	t->role = -1;
	t->io = 0;
	if (t->kind == GS_PK_ROUTER) {
		S_gguf_router(t, base, ne, nd, (int)m->arch);
		return;
	}
	if (!t->linear || nd > 3)
		return;
	/* base ends ".weight": the module's name is before its first dot */
	end = strchr(base, '.');
	n = (size_t)(end - base);
	if (n > 5 && strncmp(end - 5, "_exps", 5) == 0)
		n -= 5;
	else if (n > 6 && strncmp(end - 6, "_shexp", 6) == 0)
		n -= 6;
	t->role = S_gguf_role(base, n, (int)m->arch);
	/* one adapter per expert's matrix, as on the checkpoint's modules */
	io = (unsigned __int128)(nd == 3 ? ne[2] : 1) * ((unsigned __int128)ne[0] + ne[1]);
	t->io = io > UINT64_MAX ? UINT64_MAX : (uint64_t)io;
}

int gs_model_param_kinds(const gs_model *m, gs_model_pkinds *k)
{
	size_t i;

	memset(k, 0, sizeof(*k));
	if ((m->weights != GS_WEIGHTS_SAFETENSORS && m->weights != GS_WEIGHTS_GGUF) ||
	    m->missing_shards.n || !m->npt ||
	    !m->has_layers)
		return -1;
	for (i = 0; i < m->npt; i++) {
		const struct gs_model_pt_s *t = &m->pt[i];
		int kind = t->kind;
		if (t->layer >= 0 && (uint64_t)t->layer >= m->layers)
			kind = GS_PK_BEYOND;
		if (gs_qty_add_u64(k->params[kind], t->params, &k->params[kind]) ||
		    gs_qty_add_u64(k->total, t->params, &k->total))
			return -1;
		if (kind == GS_PK_BEYOND)
			continue;
		if (t->linear && gs_qty_add_u64(k->linear, t->params, &k->linear))
			return -1;
		if (t->role >= 0 && gs_qty_add_u64(k->lora_io[t->role], t->io, &k->lora_io[t->role]))
			return -1;
		if (kind == GS_PK_ROUTER && t->role >= 0 &&
		    gs_qty_add_u64(k->router_linear, t->params, &k->router_linear))
			return -1;
	}
	return 0;
}
