/* model_arch: the covered architectures as a table (model_int.h). */
#include "model_int.h"

#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "util.h"

#define S_MAX_DIM UINT64_C(16777216)

typedef unsigned __int128 u128;

static int S_set(u128 v, uint64_t *out);

/* How the layers are laid out: which attention or state each keeps. */
typedef enum {
	S_LAY_PLAIN,      /* every layer attends; a window from layer_types or the window rule */
	S_LAY_CHUNKED,    /* Llama 4: chunked local layers, a global one every fourth */
	S_LAY_MLA,        /* DeepSeek-V3: multi-head latent attention on every layer */
	S_LAY_NEXT,       /* Qwen3-Next: Gated DeltaNet, full attention every Nth layer */
	S_LAY_HYBRID      /* Nemotron-H: hybrid_override_pattern, one mixer per layer */
} S_layout_rule;

/* Where a window lies when config.json has one and no layer_types. */
typedef enum {
	S_WIN_NONE,       /* the architecture has no window */
	S_WIN_EVERY,      /* every layer (Mistral, Phi-3) */
	S_WIN_OTHER,      /* every other layer, the first sliding (Gemma 2) */
	S_WIN_PATTERN,    /* sliding_window_pattern: one full layer in N (Gemma 3) */
	S_WIN_MAXWIN      /* the layers from max_window_layers on (Qwen2 family) */
} S_window_rule;

/* The feed-forward block and its experts. */
typedef enum {
	S_FFN_DENSE,      /* gate, up, down */
	S_FFN_NEOX,       /* h -> 4h -> h with biases, GPT-NeoX */
	S_FFN_MIXTRAL,    /* num_local_experts of intermediate_size, every layer */
	S_FFN_QWEN_MOE,   /* num_experts of moe_intermediate_size, decoder_sparse_step, mlp_only_layers */
	S_FFN_DEEPSEEK,   /* n_routed + n_shared of moe_intermediate_size from first_k_dense_replace */
	S_FFN_GPT_OSS,    /* num_local_experts with biases, a router with a bias */
	S_FFN_LLAMA4,     /* num_local_experts + one shared, interleave_moe_layer_step */
	S_FFN_NEMOTRON    /* relu2 experts (up, down) + shared, on the "E" layers */
} S_ffn_rule;

typedef enum {
	S_VIS_NONE,
	S_VIS_QWEN2_5,    /* Qwen2.5-VL's window-attention ViT and patch merger */
	S_VIS_SIGLIP,     /* Gemma 3: SigLIP and the multimodal projector */
	S_VIS_UNCOUNTED   /* a tower this table does not count (named, not guessed) */
} S_vision_rule;

/* attention flags */
#define S_QKV_BIAS  (1u << 0)  /* q, k, v biases always (Qwen2) */
#define S_BIAS_ALL  (1u << 1)  /* attention_bias: q, k, v and o biases */
#define S_BIAS_QKV  (1u << 2)  /* attention_bias: q, k, v biases only (GLM-4.5) */
#define S_QK_NORM   (1u << 3)  /* RMS norms of head_dim on q and k */
#define S_QK_NORM_KEY (1u << 4) /* the same when use_qk_norm is true */
#define S_SINKS     (1u << 5)  /* a learnt sink per head (gpt-oss) */
#define S_Q_GATE    (1u << 6)  /* q_proj gives the query and its gate (Qwen3-Next) */

struct gs_model_arch_s {
	const char *model_type;
	gs_arch arch;
	const char *text;          /* the geometry's sub-object, or NULL */
	int tied_default;
	unsigned attn;
	unsigned norms;            /* norms of hidden per layer */
	S_layout_rule layout;
	S_window_rule window;
	S_ffn_rule ffn;
	S_vision_rule vision;
	const char *source;        /* transformers' modeling file the count follows */
};

static const gs_model_arch S_table[] = {
	{ "llama", GS_ARCH_LLAMA, NULL, 0, S_BIAS_ALL, 2, S_LAY_PLAIN, S_WIN_NONE, S_FFN_DENSE,
	  S_VIS_NONE, "models/llama/modeling_llama.py" },
	{ "mistral", GS_ARCH_MISTRAL, NULL, 0, 0, 2, S_LAY_PLAIN, S_WIN_EVERY, S_FFN_DENSE,
	  S_VIS_NONE, "models/mistral/modeling_mistral.py" },
	{ "qwen2", GS_ARCH_QWEN2, NULL, 0, S_QKV_BIAS, 2, S_LAY_PLAIN, S_WIN_MAXWIN, S_FFN_DENSE,
	  S_VIS_NONE, "models/qwen2/modeling_qwen2.py" },
	{ "phi3", GS_ARCH_PHI3, NULL, 0, 0, 2, S_LAY_PLAIN, S_WIN_EVERY, S_FFN_DENSE,
	  S_VIS_NONE, "models/phi3/modeling_phi3.py" },
	{ "gemma2", GS_ARCH_GEMMA2, NULL, 1, 0, 4, S_LAY_PLAIN, S_WIN_OTHER, S_FFN_DENSE,
	  S_VIS_NONE, "models/gemma2/modeling_gemma2.py" },
	{ "mixtral", GS_ARCH_MIXTRAL, NULL, 0, 0, 2, S_LAY_PLAIN, S_WIN_EVERY, S_FFN_MIXTRAL,
	  S_VIS_NONE, "models/mixtral/modeling_mixtral.py" },
	{ "gpt_neox", GS_ARCH_GPTNEOX, NULL, 0, 0, 2, S_LAY_PLAIN, S_WIN_NONE, S_FFN_NEOX,
	  S_VIS_NONE, "models/gpt_neox/modeling_gpt_neox.py" },
	{ "qwen3", GS_ARCH_QWEN3, NULL, 0, S_BIAS_ALL | S_QK_NORM, 2, S_LAY_PLAIN, S_WIN_MAXWIN,
	  S_FFN_DENSE, S_VIS_NONE, "models/qwen3/modeling_qwen3.py" },
	{ "qwen3_moe", GS_ARCH_QWEN3_MOE, NULL, 0, S_BIAS_ALL | S_QK_NORM, 2, S_LAY_PLAIN,
	  S_WIN_MAXWIN, S_FFN_QWEN_MOE, S_VIS_NONE, "models/qwen3_moe/modeling_qwen3_moe.py" },
	{ "deepseek_v3", GS_ARCH_DEEPSEEK_V3, NULL, 0, 0, 2, S_LAY_MLA, S_WIN_NONE, S_FFN_DEEPSEEK,
	  S_VIS_NONE, "models/deepseek_v3/modeling_deepseek_v3.py" },
	{ "gpt_oss", GS_ARCH_GPT_OSS, NULL, 0, S_BIAS_ALL | S_SINKS, 2, S_LAY_PLAIN, S_WIN_OTHER,
	  S_FFN_GPT_OSS, S_VIS_NONE, "models/gpt_oss/modeling_gpt_oss.py" },
	{ "gemma3", GS_ARCH_GEMMA3, "text_config", 1, S_BIAS_ALL | S_QK_NORM, 4, S_LAY_PLAIN,
	  S_WIN_PATTERN, S_FFN_DENSE, S_VIS_SIGLIP, "models/gemma3/modeling_gemma3.py" },
	{ "gemma3_text", GS_ARCH_GEMMA3_TEXT, NULL, 1, S_BIAS_ALL | S_QK_NORM, 4, S_LAY_PLAIN,
	  S_WIN_PATTERN, S_FFN_DENSE, S_VIS_NONE, "models/gemma3/modeling_gemma3.py" },
	{ "llama4", GS_ARCH_LLAMA4, "text_config", 0, S_BIAS_ALL, 2, S_LAY_CHUNKED, S_WIN_NONE,
	  S_FFN_LLAMA4, S_VIS_UNCOUNTED, "models/llama4/modeling_llama4.py" },
	{ "qwen2_5_vl", GS_ARCH_QWEN2_5_VL, NULL, 0, S_QKV_BIAS, 2, S_LAY_PLAIN, S_WIN_MAXWIN,
	  S_FFN_DENSE, S_VIS_QWEN2_5, "models/qwen2_5_vl/modeling_qwen2_5_vl.py" },
	{ "qwen3_next", GS_ARCH_QWEN3_NEXT, NULL, 0, S_BIAS_ALL | S_QK_NORM | S_Q_GATE, 2,
	  S_LAY_NEXT, S_WIN_NONE, S_FFN_QWEN_MOE, S_VIS_NONE,
	  "models/qwen3_next/modeling_qwen3_next.py" },
	{ "nemotron_h", GS_ARCH_NEMOTRON_H, NULL, 0, S_BIAS_ALL, 1, S_LAY_HYBRID, S_WIN_NONE,
	  S_FFN_NEMOTRON, S_VIS_NONE, "models/nemotron_h/modeling_nemotron_h.py" },
	{ "glm4_moe", GS_ARCH_GLM4_MOE, NULL, 0, S_BIAS_QKV | S_QK_NORM_KEY, 2, S_LAY_PLAIN,
	  S_WIN_NONE, S_FFN_DEEPSEEK, S_VIS_NONE, "models/glm4_moe/modeling_glm4_moe.py" },
};

#define S_N (sizeof(S_table) / sizeof(S_table[0]))

const gs_model_arch *gs_model_arch_find(const char *model_type)
{
	size_t i;

	for (i = 0; model_type && i < S_N; i++)
		if (strcmp(S_table[i].model_type, model_type) == 0)
			return &S_table[i];
	return NULL;
}

size_t gs_model_arch_count(void)
{
	return S_N;
}

const char *gs_model_arch_model_type(size_t i)
{
	return i < S_N ? S_table[i].model_type : NULL;
}

int gs_model_arch_arch(const gs_model_arch *a)
{
	return (int)a->arch;
}

int gs_model_arch_tied_default(const gs_model_arch *a)
{
	return a->tied_default;
}

const char *gs_model_arch_text_key(const gs_model_arch *a)
{
	return a->text;
}

/* ---------------------------------------------------------------- reading */

/* feed-forward kind of a layer */
enum { S_F_NONE = 0, S_F_DENSE = 1, S_F_MOE = 2 };

typedef struct {
	const gs_model_arch *a;
	gs_jr *r;
	json_t *root, *text;
	const char *tpath;
	gs_model *m;
	int bad;                  /* a key the count needs is missing or wrong */
	unsigned char *kind;      /* gs_kv_kind per layer */
	unsigned char *ffn;       /* S_F_* per layer */
	/* what the entry reads beyond the common keys */
	uint64_t E, k, moe_it, shared_it, shared_n, dense_it, first_dense, freq, step;
	uint64_t lin_kh, lin_vh, lin_kd, lin_vd, conv_kernel;
	uint64_t m_heads, m_head_dim, m_state, m_groups;
	uint64_t nextn;
	unsigned state_bytes, conv_bytes;
	int qk_norm, attn_bias;
} S_ctx;

/* A positive integer under the text object; 1 found, 0 absent (a missing
 * key when need), -1 reported. */
static int S_u(S_ctx *c, json_t *o, const char *base, const char *key, int need, uint64_t *out)
{
	json_t *v = json_object_get(o, key);
	char *p;
	int rc;

	if (!v || json_is_null(v)) {
		if (need) {
			gs_util_strvec_push_dup(&c->m->missing_keys, key);
			c->bad = 1;
		}
		return 0;
	}
	p = gs_jr_path_key(base, key);
	rc = gs_jr_v_uint(c->r, v, p, 0, S_MAX_DIM, out);
	free(p);
	if (rc != 0) {
		c->bad = 1;
		return -1;
	}
	if (need)
		gs_util_strvec_push_dup(&c->m->found_keys, key);
	return 1;
}

static int S_t(S_ctx *c, const char *key, int need, uint64_t *out)
{
	return S_u(c, c->text, c->tpath, key, need, out);
}

static int S_bool(json_t *o, const char *key, int dflt)
{
	json_t *v = json_object_get(o, key);

	return json_is_boolean(v) ? json_is_true(v) : dflt;
}

/* Bytes of a torch dtype name ("float32", "bfloat16"); 0 unknown. */
static unsigned S_dtype_bytes(const char *s)
{
	if (!s)
		return 0;
	if (strcmp(s, "float32") == 0)
		return 4;
	if (strcmp(s, "bfloat16") == 0 || strcmp(s, "float16") == 0)
		return 2;
	return 0;
}

/*
 * layer_types: one entry per layer, the kind stated. "full_attention"
 * is the entry's full kind (latent attention for MLA), "linear_attention"
 * and "mamba" a state. 1 when read, 0 absent, -1 reported.
 */
static int S_layer_types(S_ctx *c)
{
	json_t *lt = json_object_get(c->text, "layer_types"), *e;
	size_t i;
	char *p;

	if (!lt)
		return 0;
	if (!json_is_array(lt) || json_array_size(lt) != c->m->layers) {
		p = gs_jr_path_key(c->tpath, "layer_types");
		gs_jr_error(c->r, p, "expected one entry per layer (num_hidden_layers)");
		free(p);
		c->bad = 1;
		return -1;
	}
	json_array_foreach(lt, i, e) {
		const char *t = json_string_value(e);
		if (t && strcmp(t, "full_attention") == 0)
			c->kind[i] = c->a->layout == S_LAY_MLA ? GS_KV_MLA : GS_KV_FULL;
		else if (t && strcmp(t, "sliding_attention") == 0)
			/* a window the config does not give (null) bounds nothing */
			c->kind[i] = c->m->has_sliding_window ? GS_KV_SLIDING : GS_KV_FULL;
		else if (t && strcmp(t, "chunked_attention") == 0)
			c->kind[i] = GS_KV_CHUNKED;
		else if (t && (strcmp(t, "linear_attention") == 0 || strcmp(t, "mamba") == 0))
			c->kind[i] = GS_KV_STATE;
		else {
			char *lp = gs_jr_path_key(c->tpath, "layer_types");
			p = gs_jr_path_index(lp, i);
			gs_jr_error(c->r, p, "expected \"full_attention\", \"sliding_attention\", "
				    "\"chunked_attention\" or \"linear_attention\"");
			free(p);
			free(lp);
			c->bad = 1;
			return -1;
		}
	}
	return 1;
}

/* The window rule of a plain layout, without layer_types. */
static void S_window_layers(S_ctx *c)
{
	gs_model *m = c->m;
	uint64_t i, pattern = 6, maxwin = 0;
	int has_maxwin;

	if (!m->has_sliding_window)
		return;
	has_maxwin = S_t(c, "max_window_layers", 0, &maxwin) == 1;
	if (c->a->window == S_WIN_PATTERN)
		S_t(c, "sliding_window_pattern", 0, &pattern);
	for (i = 0; i < m->layers; i++) {
		int sliding = 0;
		switch (c->a->window) {
		case S_WIN_EVERY: sliding = 1; break;
		case S_WIN_OTHER: sliding = i % 2 == 0; break;
		case S_WIN_PATTERN: sliding = pattern > 0 && (i + 1) % pattern != 0; break;
		/* transformers' Qwen2Config: sliding from max_window_layers on */
		case S_WIN_MAXWIN: sliding = has_maxwin ? i >= maxwin : 1; break;
		case S_WIN_NONE: break;
		}
		if (sliding)
			c->kind[i] = GS_KV_SLIDING;
	}
}

/* Nemotron-H: one character per layer, M Mamba2, * attention, E experts, - MLP. */
static void S_hybrid_layers(S_ctx *c)
{
	json_t *v = json_object_get(c->text, "hybrid_override_pattern");
	const char *s = json_string_value(v);
	uint64_t i;
	char *p;

	if (!s) {
		gs_util_strvec_push_dup(&c->m->missing_keys, "hybrid_override_pattern");
		c->bad = 1;
		return;
	}
	gs_util_strvec_push_dup(&c->m->found_keys, "hybrid_override_pattern");
	if (strlen(s) != c->m->layers) {
		p = gs_jr_path_key(c->tpath, "hybrid_override_pattern");
		gs_jr_error(c->r, p, "expected one character per layer (num_hidden_layers %llu), "
			    "found %zu", (unsigned long long)c->m->layers, strlen(s));
		free(p);
		c->bad = 1;
		return;
	}
	for (i = 0; i < c->m->layers; i++) {
		switch (s[i]) {
		case 'M': c->kind[i] = GS_KV_STATE; c->ffn[i] = S_F_NONE; break;
		case '*': c->kind[i] = GS_KV_FULL; c->ffn[i] = S_F_NONE; break;
		case 'E': c->kind[i] = GS_KV_NONE; c->ffn[i] = S_F_MOE; break;
		case '-': c->kind[i] = GS_KV_NONE; c->ffn[i] = S_F_DENSE; break;
		default:
			p = gs_jr_path_key(c->tpath, "hybrid_override_pattern");
			gs_jr_error(c->r, p, "unknown layer '%c' at %llu (expected M, *, E or -)",
				    s[i], (unsigned long long)i);
			free(p);
			c->bad = 1;
			return;
		}
	}
}

/* Which layers route to experts, by the entry's rule. */
static void S_ffn_layers(S_ctx *c)
{
	gs_model *m = c->m;
	json_t *only = json_object_get(c->text, "mlp_only_layers"), *e;
	uint64_t i;
	size_t j;

	if (c->a->layout == S_LAY_HYBRID)
		return;
	for (i = 0; i < m->layers; i++) {
		int moe = 0;
		switch (c->a->ffn) {
		case S_FFN_DENSE: case S_FFN_NEOX: break;
		case S_FFN_MIXTRAL: case S_FFN_GPT_OSS: moe = 1; break;
		case S_FFN_QWEN_MOE:
			moe = c->E > 0 && c->step > 0 && (i + 1) % c->step == 0;
			json_array_foreach(only, j, e)
				if (json_is_integer(e) && (uint64_t)json_integer_value(e) == i)
					moe = 0;
			break;
		case S_FFN_DEEPSEEK:
			moe = c->E > 0 && i >= c->first_dense && c->freq > 0 && i % c->freq == 0;
			break;
		case S_FFN_LLAMA4:
			moe = c->step > 0 && (i + 1) % c->step == 0;
			break;
		case S_FFN_NEMOTRON: break;
		}
		c->ffn[i] = moe ? S_F_MOE : S_F_DENSE;
	}
}

/* The layers' kinds: the rule of the entry, layer_types where stated. */
static void S_lay_out(S_ctx *c)
{
	gs_model *m = c->m;
	uint64_t i, interval = 4;

	for (i = 0; i < m->layers; i++)
		c->kind[i] = c->a->layout == S_LAY_MLA ? GS_KV_MLA : GS_KV_FULL;
	switch (c->a->layout) {
	case S_LAY_HYBRID:
		S_hybrid_layers(c);
		break;
	case S_LAY_NEXT:
		if (S_layer_types(c) == 0) {
			S_t(c, "full_attention_interval", 0, &interval);
			for (i = 0; i < m->layers; i++)
				c->kind[i] = interval && (i + 1) % interval == 0 ? GS_KV_FULL
										: GS_KV_STATE;
		}
		break;
	case S_LAY_CHUNKED: {
		/* transformers' Llama4TextConfig: no_rope_layers[i] = 1 (RoPE, chunked)
		 * except every fourth layer (global, no RoPE) */
		json_t *nr = json_object_get(c->text, "no_rope_layers"), *e;
		size_t j;
		if (S_layer_types(c) != 0)
			break;
		for (i = 0; i < m->layers; i++)
			c->kind[i] = (i + 1) % 4 != 0 ? GS_KV_CHUNKED : GS_KV_FULL;
		if (json_is_array(nr) && json_array_size(nr) == m->layers)
			json_array_foreach(nr, j, e)
				c->kind[j] = json_is_integer(e) && json_integer_value(e) ? GS_KV_CHUNKED
											: GS_KV_FULL;
		break;
	}
	case S_LAY_MLA:
	case S_LAY_PLAIN:
		if (S_layer_types(c) == 0 && c->a->layout == S_LAY_PLAIN)
			S_window_layers(c);
		break;
	}
	S_ffn_layers(c);
}

/* ---------------------------------------------------------------- reading each entry's keys */

static void S_read_keys(S_ctx *c)
{
	gs_model *m = c->m;
	const gs_model_arch *a = c->a;
	json_t *v;

	c->qk_norm = (a->attn & S_QK_NORM) != 0 ||
		     ((a->attn & S_QK_NORM_KEY) && S_bool(c->text, "use_qk_norm", 0));
	c->attn_bias = (a->attn & (S_BIAS_ALL | S_BIAS_QKV)) &&
		       S_bool(c->text, "attention_bias", a->arch == GS_ARCH_GPT_OSS);
	c->step = c->freq = 1;
	c->dense_it = m->intermediate;
	switch (a->ffn) {
	case S_FFN_DENSE: case S_FFN_NEOX: break;
	case S_FFN_MIXTRAL:
		S_t(c, "num_local_experts", 1, &c->E);
		S_t(c, "num_experts_per_tok", 1, &c->k);
		c->moe_it = m->intermediate;
		break;
	case S_FFN_QWEN_MOE:
		S_t(c, "num_experts", 1, &c->E);
		S_t(c, "num_experts_per_tok", 1, &c->k);
		S_t(c, "moe_intermediate_size", 1, &c->moe_it);
		S_t(c, "decoder_sparse_step", 0, &c->step);
		if (a->layout == S_LAY_NEXT) {
			S_t(c, "shared_expert_intermediate_size", 1, &c->shared_it);
			c->shared_n = 1;
		}
		break;
	case S_FFN_DEEPSEEK:
		S_t(c, "n_routed_experts", 1, &c->E);
		S_t(c, "num_experts_per_tok", 1, &c->k);
		S_t(c, "moe_intermediate_size", 1, &c->moe_it);
		S_t(c, "n_shared_experts", 1, &c->shared_n);
		S_t(c, "first_k_dense_replace", 0, &c->first_dense);
		S_t(c, "moe_layer_freq", 0, &c->freq);
		S_t(c, "num_nextn_predict_layers", 0, &c->nextn);
		c->shared_it = c->moe_it * c->shared_n;
		break;
	case S_FFN_GPT_OSS:
		S_t(c, "num_local_experts", 1, &c->E);
		if (S_t(c, "num_experts_per_tok", 0, &c->k) != 1)
			S_t(c, "experts_per_token", 1, &c->k);
		c->moe_it = m->intermediate;
		break;
	case S_FFN_LLAMA4:
		S_t(c, "num_local_experts", 1, &c->E);
		S_t(c, "num_experts_per_tok", 1, &c->k);
		S_t(c, "intermediate_size_mlp", 1, &c->dense_it);
		S_t(c, "interleave_moe_layer_step", 0, &c->step);
		c->moe_it = c->shared_it = m->intermediate;
		c->shared_n = 1;
		break;
	case S_FFN_NEMOTRON:
		S_t(c, "n_routed_experts", 1, &c->E);
		S_t(c, "num_experts_per_tok", 1, &c->k);
		S_t(c, "moe_intermediate_size", 1, &c->moe_it);
		S_t(c, "moe_shared_expert_intermediate_size", 1, &c->shared_it);
		c->shared_n = 1;
		break;
	}
	if (a->layout == S_LAY_MLA) {
		S_t(c, "q_lora_rank", 0, &m->q_lora_rank);
		S_t(c, "kv_lora_rank", 1, &m->kv_lora_rank);
		S_t(c, "qk_nope_head_dim", 1, &m->qk_nope_head_dim);
		S_t(c, "qk_rope_head_dim", 1, &m->qk_rope_head_dim);
		S_t(c, "v_head_dim", 1, &m->v_head_dim);
	}
	if (a->layout == S_LAY_CHUNKED)
		S_t(c, "attention_chunk_size", 1, &m->chunk);
	if (a->layout == S_LAY_NEXT) {
		S_t(c, "linear_num_key_heads", 1, &c->lin_kh);
		S_t(c, "linear_num_value_heads", 1, &c->lin_vh);
		S_t(c, "linear_key_head_dim", 1, &c->lin_kd);
		S_t(c, "linear_value_head_dim", 1, &c->lin_vd);
		S_t(c, "linear_conv_kernel_dim", 1, &c->conv_kernel);
	}
	if (a->layout == S_LAY_HYBRID) {
		S_t(c, "mamba_num_heads", 1, &c->m_heads);
		S_t(c, "mamba_head_dim", 1, &c->m_head_dim);
		S_t(c, "ssm_state_size", 1, &c->m_state);
		S_t(c, "n_groups", 1, &c->m_groups);
		S_t(c, "conv_kernel", 1, &c->conv_kernel);
	}
	m->state.ssm_heads = c->m_heads;
	m->state.ssm_head_dim = c->m_head_dim;
	m->state.ssm_state = c->m_state;
	m->state.ssm_groups = c->m_groups;
	m->state.lin_kh = c->lin_kh;
	m->state.lin_vh = c->lin_vh;
	m->state.lin_kd = c->lin_kd;
	m->state.lin_vd = c->lin_vd;
	m->state_conv_kernel = c->conv_kernel;
	/* the state's widths: the model's dtype, the recurrent state the
	 * config's mamba_ssm_cache_dtype where it states one */
	c->conv_bytes = m->torch_dtype_bits / 8;
	v = json_object_get(c->text, "mamba_ssm_cache_dtype");
	c->state_bytes = json_is_string(v) ? S_dtype_bytes(json_string_value(v)) : c->conv_bytes;
	if (c->E) {
		m->experts = c->E;
		m->experts_active = c->k;
		m->has_experts = 1;
		m->experts_shared = c->shared_n;
		m->moe_intermediate = c->moe_it;
		m->shared_intermediate = c->shared_it;
		m->dense_intermediate = c->dense_it;
	}
}

/* ---------------------------------------------------------------- the count */

/* Parameters of one layer's attention or state mixer. */
static u128 S_mixer(const S_ctx *c, gs_kv_kind kind)
{
	const gs_model *m = c->m;
	u128 h = m->hidden, H = m->attention_heads, hd = m->head_dim;
	u128 q = H * hd, kv = (u128)m->kv_heads * hd, p = 0;

	switch (kind) {
	case GS_KV_FULL: case GS_KV_SLIDING: case GS_KV_CHUNKED:
		p = h * q * ((c->a->attn & S_Q_GATE) ? 2 : 1) + 2 * h * kv + q * h;
		if (c->a->attn & S_QKV_BIAS)
			p += q + 2 * kv;
		if (c->attn_bias)
			p += q + 2 * kv + ((c->a->attn & S_BIAS_ALL) ? h : 0);
		if (c->qk_norm)
			p += 2 * hd;
		if (c->a->attn & S_SINKS)
			p += H;
		return p;
	case GS_KV_MLA: {
		u128 qk = (u128)m->qk_nope_head_dim + m->qk_rope_head_dim, r = m->kv_lora_rank;
		u128 qr = m->q_lora_rank;
		p = qr ? h * qr + qr + qr * H * qk : h * H * qk;
		p += h * (r + m->qk_rope_head_dim) + r + r * H * ((u128)m->qk_nope_head_dim +
								   m->v_head_dim);
		return p + H * m->v_head_dim * h;
	}
	case GS_KV_STATE:
		if (c->a->layout == S_LAY_NEXT) {
			/* Gated DeltaNet: in_proj_qkvz, in_proj_ba, conv1d (no bias),
			 * dt_bias, A_log, the gated norm of a value head, out_proj */
			u128 kd = (u128)c->lin_kh * c->lin_kd, vd = (u128)c->lin_vh * c->lin_vd;
			u128 conv = 2 * kd + vd;
			return h * (2 * kd + 2 * vd) + h * 2 * c->lin_vh + conv * c->conv_kernel +
			       2 * (u128)c->lin_vh + c->lin_vd + vd * h;
		} else {
			/* Mamba2: in_proj, conv1d with its bias, dt_bias, A_log, D,
			 * the gated norm, out_proj */
			u128 in = (u128)c->m_heads * c->m_head_dim, gs = (u128)c->m_groups * c->m_state;
			u128 conv = in + 2 * gs;
			return h * (2 * in + 2 * gs + c->m_heads) + conv * c->conv_kernel + conv +
			       3 * (u128)c->m_heads + in + in * h;
		}
	case GS_KV_NONE:
		return 0;
	}
	return 0;
}

/* Parameters of one routed expert (and of what it carries: gpt-oss's biases). */
static u128 S_expert(const S_ctx *c)
{
	u128 h = c->m->hidden, it = c->moe_it;

	if (c->a->ffn == S_FFN_GPT_OSS)
		return 3 * h * it + 2 * it + h;
	if (c->a->ffn == S_FFN_NEMOTRON)
		return 2 * h * it;
	return 3 * h * it;
}

static u128 S_feed_forward(const S_ctx *c, int ffn)
{
	u128 h = c->m->hidden, E = c->E, p;

	if (ffn == S_F_NONE)
		return 0;
	if (ffn == S_F_DENSE) {
		if (c->a->ffn == S_FFN_NEOX)
			return h * c->dense_it + c->dense_it + c->dense_it * h + h;
		return (c->a->ffn == S_FFN_NEMOTRON ? 2 : 3) * h * c->dense_it;
	}
	p = E * S_expert(c) + h * E;     /* the experts and the router */
	if (c->a->ffn == S_FFN_GPT_OSS || c->a->ffn == S_FFN_DEEPSEEK || c->a->ffn == S_FFN_NEMOTRON)
		p += E;                  /* the router's bias, or its correction bias */
	if (c->shared_n)
		p += (c->a->ffn == S_FFN_NEMOTRON ? 2 : 3) * h * c->shared_it;
	if (c->a->layout == S_LAY_NEXT)
		p += h;                  /* shared_expert_gate */
	return p;
}

/* ---------------------------------------------------------------- the matrices a format quantises */

typedef struct {
	u128 params, matrices, rows, cols, g16, g32, g128, t128;
	uint64_t gr, gc;
} S_mats;

static uint64_t S_gcd(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;
		a = b;
		b = t;
	}
	return a;
}

static u128 S_ceil(u128 a, u128 b)
{
	return (a + b - 1) / b;
}

/* n matrices of rows (output features) x cols (input features). */
static void S_mat(S_mats *q, uint64_t rows, uint64_t cols, u128 n)
{
	if (!n || !rows || !cols)
		return;
	q->params += n * rows * cols;
	q->matrices += n;
	q->rows += n * rows;
	q->cols += n * cols;
	q->g16 += n * rows * S_ceil(cols, 16);
	q->g32 += n * rows * S_ceil(cols, 32);
	q->g128 += n * rows * S_ceil(cols, 128);
	q->t128 += n * S_ceil(rows, 128) * S_ceil(cols, 128);
	q->gr = S_gcd(q->gr, rows);
	q->gc = S_gcd(q->gc, cols);
}

/* The linear matrices of one layer, as S_mixer and S_feed_forward count
 * them (the state mixers' are left to 16 bits). */
static void S_layer_mats(const S_ctx *c, gs_kv_kind kind, int ffn, S_mats *lin, S_mats *ex)
{
	const gs_model *m = c->m;
	uint64_t h = m->hidden, H = m->attention_heads;
	uint64_t q = H * m->head_dim, kv = m->kv_heads * m->head_dim;
	uint64_t qk = m->qk_nope_head_dim + m->qk_rope_head_dim;
	int two = c->a->ffn == S_FFN_NEMOTRON || c->a->ffn == S_FFN_NEOX;

	switch (kind) {
	case GS_KV_FULL: case GS_KV_SLIDING: case GS_KV_CHUNKED:
		S_mat(lin, q * ((c->a->attn & S_Q_GATE) ? 2 : 1), h, 1);
		S_mat(lin, kv, h, 2);
		S_mat(lin, h, q, 1);
		break;
	case GS_KV_MLA:
		if (m->q_lora_rank) {
			S_mat(lin, m->q_lora_rank, h, 1);
			S_mat(lin, H * qk, m->q_lora_rank, 1);
		} else {
			S_mat(lin, H * qk, h, 1);
		}
		S_mat(lin, m->kv_lora_rank + m->qk_rope_head_dim, h, 1);
		S_mat(lin, H * (m->qk_nope_head_dim + m->v_head_dim), m->kv_lora_rank, 1);
		S_mat(lin, h, H * m->v_head_dim, 1);
		break;
	case GS_KV_STATE: case GS_KV_NONE:
		break;
	}
	if (ffn == S_F_DENSE) {
		S_mat(lin, c->dense_it, h, two ? 1 : 2);
		S_mat(lin, h, c->dense_it, 1);
	} else if (ffn == S_F_MOE) {
		/* gpt-oss fuses gate and up: one matrix of 2 x intermediate rows */
		if (c->a->ffn == S_FFN_GPT_OSS)
			S_mat(ex, 2 * c->moe_it, h, c->E);
		else
			S_mat(ex, c->moe_it, h, (u128)c->E * (c->a->ffn == S_FFN_NEMOTRON ? 1 : 2));
		S_mat(ex, h, c->moe_it, c->E);
		if (c->shared_n) {
			S_mat(lin, c->shared_it, h, c->a->ffn == S_FFN_NEMOTRON ? 1 : 2);
			S_mat(lin, h, c->shared_it, 1);
		}
	}
}

static int S_mats_set(const S_mats *q, gs_model_matrices *out)
{
	const u128 *v[] = { &q->params, &q->matrices, &q->rows, &q->cols, &q->g16, &q->g32,
			    &q->g128, &q->t128 };
	uint64_t *o[] = { &out->params, &out->matrices, &out->rows, &out->cols, &out->groups16,
			  &out->groups32, &out->groups128, &out->tiles128 };
	size_t i;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		if (S_set(*v[i], o[i]))
			return -1;
	out->gcd_rows = q->gr;
	out->gcd_cols = q->gc;
	return 0;
}

/* ---------------------------------------------------------------- vision towers */

static void S_vision(S_ctx *c, u128 *out)
{
	json_t *vc = json_object_get(c->root, "vision_config");
	gs_model *m = c->m;
	S_ctx v = *c;
	uint64_t hv = 0, iv = 0, depth = 0, p = 0, merge = 0, tp = 0, ch = 3, outh = 0, img = 0;
	u128 H, I, n;

	*out = 0;
	if (c->a->vision == S_VIS_NONE)
		return;
	if (!json_is_object(vc)) {
		gs_util_strvec_push_dup(&m->missing_keys, "vision_config");
		c->bad = 1;
		return;
	}
	if (c->a->vision == S_VIS_UNCOUNTED) {
		m->has_vision = 2;
		m->params_note = "the vision tower (vision_config), which this table does not "
				 "count yet";
		return;
	}
	v.text = vc;
	v.tpath = "$.vision_config";
	v.bad = 0;
	S_u(&v, vc, v.tpath, "hidden_size", 1, &hv);
	S_u(&v, vc, v.tpath, "intermediate_size", 1, &iv);
	S_u(&v, vc, v.tpath, "patch_size", 1, &p);
	if (c->a->vision == S_VIS_QWEN2_5) {
		S_u(&v, vc, v.tpath, "depth", 1, &depth);
		S_u(&v, vc, v.tpath, "spatial_merge_size", 1, &merge);
		S_u(&v, vc, v.tpath, "temporal_patch_size", 1, &tp);
		S_u(&v, vc, v.tpath, "out_hidden_size", 1, &outh);
		S_u(&v, vc, v.tpath, "in_chans", 0, &ch);
	} else {
		S_u(&v, vc, v.tpath, "num_hidden_layers", 1, &depth);
		S_u(&v, vc, v.tpath, "image_size", 1, &img);
		S_u(&v, vc, v.tpath, "num_channels", 0, &ch);
	}
	if (v.bad || !p) {
		c->bad = 1;
		return;
	}
	H = hv;
	I = iv;
	if (c->a->vision == S_VIS_QWEN2_5) {
		/* patch_embed (Conv3d, no bias); per block two RMS norms, qkv and
		 * proj with biases, a gated MLP with biases; the merger: ln_q and
		 * two linear layers over merge^2 patches */
		u128 blk = 2 * H + (H * 3 * H + 3 * H) + (H * H + H) + 2 * (H * I + I) + (I * H + H);
		u128 mh = H * merge * merge;
		*out = (u128)ch * tp * p * p * H + depth * blk + H + (mh * mh + mh) +
		       (mh * outh + outh);
		m->vision_merge = merge;
		m->vision_depth = depth;
		m->vision_hidden = hv;
		m->vision_out = outh;
	} else {
		/* SigLIP: patch embedding (Conv2d with bias), a position per patch,
		 * per layer two LayerNorms, q k v o with biases, fc1 fc2 with
		 * biases; the post LayerNorm; the projector's norm and matrix */
		n = (u128)(img / p) * (img / p);
		*out = (u128)ch * p * p * H + H + n * H +
		       depth * (4 * H + 4 * (H * H + H) + H * I + I + I * H + H) + 2 * H +
		       H + H * m->hidden;
		/* every image is resized to image_size and pooled into
		 * mm_tokens_per_image tokens (Gemma3Processor) */
		m->vision_image_size = img;
		S_u(c, c->root, "$", "mm_tokens_per_image", 0, &m->vision_image_tokens);
	}
	m->vision_patch = p;
	m->vision_intermediate = iv;
	m->has_vision = 1;
}

/* ---------------------------------------------------------------- the layout */

static void S_layout(S_ctx *c)
{
	gs_model *m = c->m;
	uint64_t n[GS_KV_KINDS] = { 0 }, i;
	int k;

	for (i = 0; i < m->layers; i++)
		n[c->kind[i]]++;
	m->nlayout = 0;
	for (k = 0; k < GS_KV_KINDS; k++) {
		gs_kv_group *g;
		if (!n[k])
			continue;
		g = &m->layout[m->nlayout++];
		memset(g, 0, sizeof(*g));
		g->kind = (gs_kv_kind)k;
		g->layers = n[k];
		switch ((gs_kv_kind)k) {
		case GS_KV_SLIDING: g->window = m->sliding_window; /* fall through */
		case GS_KV_FULL:
		case GS_KV_CHUNKED:
			g->kv_heads = m->kv_heads;
			g->head_dim = g->v_head_dim = m->head_dim;
			if (k == GS_KV_CHUNKED)
				g->chunk = m->chunk;
			break;
		case GS_KV_MLA:
			g->kv_heads = m->attention_heads;
			g->v_head_dim = m->v_head_dim;
			g->kv_lora_rank = m->kv_lora_rank;
			g->qk_rope_head_dim = m->qk_rope_head_dim;
			g->qk_nope_head_dim = m->qk_nope_head_dim;
			break;
		case GS_KV_STATE:
			g->conv_kernel = c->conv_kernel;
			g->conv_bytes_per_value = c->conv_bytes;
			g->state_bytes_per_value = c->state_bytes;
			if (c->a->layout == S_LAY_NEXT) {
				g->conv_dim = 2 * c->lin_kh * c->lin_kd + c->lin_vh * c->lin_vd;
				g->state_values = c->lin_vh * c->lin_kd * c->lin_vd;
			} else {
				g->conv_dim = c->m_heads * c->m_head_dim + 2 * c->m_groups * c->m_state;
				g->state_values = c->m_heads * c->m_head_dim * c->m_state;
			}
			break;
		case GS_KV_NONE:
			break;
		}
	}
}

/* ---------------------------------------------------------------- entry point */

static int S_set(u128 v, uint64_t *out)
{
	if (v > UINT64_MAX)
		return -1;
	*out = (uint64_t)v;
	return 0;
}

/* the token mixer of a layer of cache kind k (model.h gs_model_mixer) */
static gs_model_mixer S_layer_mixer(const S_ctx *c, gs_kv_kind k)
{
	if (k == GS_KV_STATE)
		return c->a->layout == S_LAY_NEXT ? GS_MIXER_GDN : GS_MIXER_MAMBA2;
	return k == GS_KV_NONE ? GS_MIXER_NONE : GS_MIXER_ATTENTION;
}

static void S_count(S_ctx *c)
{
	gs_model *m = c->m;
	u128 h = m->hidden, embed = (u128)m->vocab * m->hidden, total, vis, inactive;
	uint64_t i;

	S_mats lin, ex;

	memset(&lin, 0, sizeof(lin));
	memset(&ex, 0, sizeof(ex));
	total = embed + h;           /* the embeddings and the final norm */
	if (c->a->ffn == S_FFN_NEOX)
		total += h;          /* the final LayerNorm's bias */
	for (i = 0; i < m->layers; i++) {
		total += S_mixer(c, (gs_kv_kind)c->kind[i]) + S_feed_forward(c, c->ffn[i]);
		S_layer_mats(c, (gs_kv_kind)c->kind[i], c->ffn[i], &lin, &ex);
		/* GPT-NeoX: two LayerNorms with biases, biases on qkv and dense */
		total += c->a->ffn == S_FFN_NEOX ? 4 * h + 3 * h + h : c->a->norms * h;
		m->moe_layers += c->ffn[i] == S_F_MOE;
		m->layer_mix[S_layer_mixer(c, (gs_kv_kind)c->kind[i])][c->ffn[i]]++;
	}
	if (m->tied != 1)
		total += embed;
	S_vision(c, &vis);
	if (c->bad)
		return;
	m->vision_params = (uint64_t)vis;
	total += vis;
	if (S_set(total, &m->config_params) == 0)
		m->has_config_params = 1;
	if (m->has_config_params && lin.params + ex.params <= total &&
	    S_mats_set(&lin, &m->mat_linear) == 0 && S_mats_set(&ex, &m->mat_experts) == 0)
		m->has_matrices = 1;
	if (m->has_experts && m->has_config_params && c->k <= c->E) {
		inactive = (u128)m->moe_layers * (c->E - c->k) * S_expert(c);
		if (S_set(total - inactive, &m->active_params) == 0)
			m->has_active_params = 1;
	}
	if (c->nextn) {
		/* DeepSeek-V3 / GLM-4.5: the multi-token-prediction layers the
		 * checkpoint holds beyond num_hidden_layers: a MoE layer each, two
		 * norms and the projection of 2 x hidden to hidden, the head's norm */
		u128 mtp = (u128)c->nextn * (S_mixer(c, c->kind[0]) + S_feed_forward(c, S_F_MOE) +
					    2 * h + 2 * h * h + h + c->a->norms * h);
		m->params_note = "the multi-token-prediction layers (num_nextn_predict_layers), "
				 "which generation does not run";
		if (S_set(mtp, &m->params_note_value) == 0)
			m->has_params_note_value = 1;
	}
}

void gs_model_arch_read(const gs_model_arch *a, gs_jr *r, json_t *root, json_t *text,
		     const char *tpath, gs_model *m)
{
	S_ctx c;

	memset(&c, 0, sizeof(c));
	c.a = a;
	c.r = r;
	c.root = root;
	c.text = text;
	c.tpath = tpath;
	c.m = m;
	m->entry = a;
	S_read_keys(&c);
	if (!m->has_layers || !m->has_hidden || !m->has_vocab || !m->has_attention_heads ||
	    !m->has_kv_heads || !m->has_head_dim || !m->has_intermediate || c.bad)
		return;
	c.kind = gs_xcalloc(m->layers, 1);
	c.ffn = gs_xcalloc(m->layers, 1);
	S_lay_out(&c);
	if (!c.bad) {
		S_layout(&c);
		S_count(&c);
	}
	free(c.kind);
	free(c.ffn);
}
