/*
 * model_kinds: the parameters per kind of a checkpoint, from its
 * safetensors headers' tensor names and shapes (model.h,
 * gs_model_param_kinds). Each tensor is noted as its header is read
 * (gs_model_kinds_note, model_int.h); the sums wait for config.json's
 * layer count, which says which layers the model runs.
 */
#include "model.h"
#include "model_int.h"

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
	"kv_b_proj", "o_proj", "gate_proj", "up_proj", "down_proj", NULL
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

/* the LoRA role a matrix's module name gives (the component before
 * ".weight"), Mixtral's experts' w1, w3, w2 as gate, up, down; or -1 */
static int S_role(const char *name)
{
	static const char *const mixtral[3][2] = { { "w1", "gate_proj" }, { "w3", "up_proj" },
						   { "w2", "down_proj" } };
	const char *end = name + strlen(name) - strlen(".weight"), *b = end;
	size_t n, i;

	while (b > name && b[-1] != '.')
		b--;
	n = (size_t)(end - b);
	for (i = 0; i < 3; i++)
		if (n == 2 && strncmp(b, mixtral[i][0], 2) == 0 && S_comp(name, "experts"))
			b = mixtral[i][1], n = strlen(b);
	for (i = 0; i < GS_MODEL_LORA_ROLES; i++)
		if (strlen(gs_model_lora_roles[i]) == n && strncmp(b, gs_model_lora_roles[i], n) == 0)
			return (int)i;
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
	if (S_comp(name, "gate") || S_comp(name, "router") || S_comp(name, "shared_expert_gate"))
		return GS_PK_ROUTER;
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

void gs_model_kinds_note(struct gs_model_s *m, const char *name, const uint64_t *shape,
			 size_t ndim, uint64_t params)
{
	struct gs_model_pt_s *t;
	int role;

	if (m->npt == m->pt_cap) {
		m->pt_cap = m->pt_cap ? 2 * m->pt_cap : 256;
		m->pt = gs_xrealloc(m->pt, m->pt_cap * sizeof(*m->pt));
	}
	t = &m->pt[m->npt];
	t->kind = (int)gs_model_tensor_kind(name, &role);
	if (t->kind == GS_PK_COUNT)
		return;   /* a buffer: no parameter of any kind */
	m->npt++;
	t->layer = S_layer(name);
	t->params = params;
	t->linear = ndim == 2 && S_ends(name, ".weight") &&
		    (t->kind == GS_PK_ATTENTION || t->kind == GS_PK_DENSE ||
		     t->kind == GS_PK_ROUTED || t->kind == GS_PK_SHARED);
	t->role = ndim == 2 ? role : -1;
	t->io = ndim == 2 ? shape[0] + shape[1] : 0;
}

int gs_model_param_kinds(const gs_model *m, gs_model_pkinds *k)
{
	size_t i;

	memset(k, 0, sizeof(*k));
	if (m->weights != GS_WEIGHTS_SAFETENSORS || m->missing_shards.n || !m->npt ||
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
	}
	return 0;
}
