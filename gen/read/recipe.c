/* recipe: training.recipe of a workload, read strictly (recipe.h). */
#include "recipe.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define S_MAX ((uint64_t)INT64_MAX)
#define S_MAX_DIM UINT64_C(16777216)     /* hidden, intermediate, vocabulary */
#define S_MAX_RANK UINT64_C(65536)
#define S_MAX_CARDS UINT64_C(4096)

static const char *const S_methods[] = { "full", "lora", "qlora", NULL };
static const char *const S_optimizers[] = { "adamw", "adamw8bit", "sgd", "sgd-momentum", NULL };
static const char *const S_ckpts[] = { "none", "selective", "full", NULL };
static const char *const S_shards[] = { "none", "zero1", "zero2", "zero3", "fsdp", NULL };
static const char *const S_offloads[] = { "none", "optimizer", "parameters", NULL };

const char *const gs_recipe_target_names[] = { "q_proj", "q_a_proj", "q_b_proj", "k_proj",
					       "v_proj", "kv_a_proj_with_mqa", "kv_b_proj",
					       "o_proj", "gate_proj", "up_proj", "down_proj",
					       "qkv_proj", "gate_up_proj", "query_key_value",
					       "dense", "dense_h_to_4h", "dense_4h_to_h", "in_proj",
					       "out_proj", "in_proj_qkvz", "all-linear", "in_proj_ba",
					       "shared_expert_gate", "gate", "router", "attn.qkv",
					       "attn.proj", "merger.mlp.0", "merger.mlp.2", NULL };

const unsigned char gs_recipe_target_order[GS_RECIPE_TARGETS] = {
	0, 1, 2, 3, 4, 5, 6, 11, 13, 7, 14, 17, 19, 21, 18, 23, 24, 8, 9, 12, 15, 10, 16, 22,
	25, 26, 27, 28
};

#define S_TARGET_LIST "q_proj, q_a_proj, q_b_proj, k_proj, v_proj, kv_a_proj_with_mqa, " \
	"kv_b_proj, o_proj, gate_proj, up_proj, down_proj, qkv_proj, gate_up_proj, " \
	"query_key_value, dense, dense_h_to_4h, dense_4h_to_h, in_proj, out_proj, " \
	"in_proj_qkvz, in_proj_ba, shared_expert_gate, gate, router, attn.qkv, attn.proj, " \
	"merger.mlp.0, merger.mlp.2"

const char *gs_recipe_method_id(gs_recipe_method m) { return S_methods[m]; }
const char *gs_recipe_optimizer_id(gs_recipe_optimizer o) { return S_optimizers[o]; }
const char *gs_recipe_ckpt_id(gs_recipe_ckpt c) { return S_ckpts[c]; }
const char *gs_recipe_shard_id(gs_recipe_shard s) { return S_shards[s]; }
const char *gs_recipe_offload_id(gs_recipe_offload o) { return S_offloads[o]; }

/* The bit of one target name, 0 when unknown. */
static unsigned S_target(const char *name, size_t len)
{
	size_t i;

	if (len == strlen("all-linear") && strncmp(name, "all-linear", len) == 0)
		return GS_LORA_ALL_LINEAR;
	for (i = 0; gs_recipe_target_names[i]; i++)
		if (strlen(gs_recipe_target_names[i]) == len &&
		    strncmp(name, gs_recipe_target_names[i], len) == 0)
			return 1u << i;
	return 0;
}

int gs_recipe_parse_targets(const char *list, unsigned *mask, const char **bad)
{
	const char *p = list, *e;
	unsigned m = 0, b;

	*bad = list;
	for (;;) {
		e = strchr(p, ',');
		if (!e)
			e = p + strlen(p);
		b = S_target(p, (size_t)(e - p));
		if (!b) {
			*bad = p;
			return -1;
		}
		m |= b;
		if (!*e)
			break;
		p = e + 1;
	}
	*mask = m;
	return 0;
}

gs_lora_names gs_recipe_lora_names(int arch)
{
	if (arch == GS_ARCH_PHI3)
		return GS_LORA_NAMES_PHI3;
	if (arch == GS_ARCH_GPTNEOX)
		return GS_LORA_NAMES_NEOX;
	if (arch == GS_ARCH_GPT_OSS)
		return GS_LORA_NAMES_GPT_OSS;
	if (arch == GS_ARCH_NEMOTRON_H)
		return GS_LORA_NAMES_NEMOTRON_H;
	if (arch == GS_ARCH_QWEN3_NEXT)
		return GS_LORA_NAMES_QWEN3_NEXT;
	return GS_LORA_NAMES_SEPARATE;
}

int gs_recipe_hybrid_arch(int arch)
{
	return arch == GS_ARCH_NEMOTRON_H || arch == GS_ARCH_QWEN3_NEXT;
}

int gs_recipe_experts_param(int arch)
{
	return arch == GS_ARCH_GPT_OSS || arch == GS_ARCH_LLAMA4;
}

unsigned gs_recipe_modules(gs_lora_names names, int mla, uint64_t q_rank)
{
	if (names == GS_LORA_NAMES_PHI3)
		return GS_LORA_ALL_FUSED;
	if (names == GS_LORA_NAMES_NEOX)
		return GS_LORA_ALL_NEOX;
	if (names == GS_LORA_NAMES_GPT_OSS)
		return GS_LORA_Q | GS_LORA_K | GS_LORA_V | GS_LORA_O;
	if (names == GS_LORA_NAMES_NEMOTRON_H)
		return GS_LORA_ALL_NEMOTRON_H;
	if (names == GS_LORA_NAMES_QWEN3_NEXT)
		return GS_LORA_ALL_QWEN3_NEXT;
	if (!mla)
		return GS_LORA_ALL;
	if (q_rank)
		return GS_LORA_Q_A | GS_LORA_Q_B | GS_LORA_KV_A | GS_LORA_KV_B | GS_LORA_O |
		       GS_LORA_MLP;
	return GS_LORA_Q | GS_LORA_KV_A | GS_LORA_KV_B | GS_LORA_O | GS_LORA_MLP;
}

unsigned gs_recipe_extra_modules(int arch, int moe)
{
	if (arch == GS_ARCH_QWEN2_5_VL)
		return GS_LORA_VISION;
	if (!moe)
		return 0;
	switch (arch) {
	case GS_ARCH_LLAMA:   /* a GGUF "llama" with experts: llama.cpp's Mixtral */
	case GS_ARCH_MIXTRAL:
	case GS_ARCH_QWEN3_MOE:
		return GS_LORA_ROUTER_GATE;
	case GS_ARCH_QWEN3_NEXT:
		return GS_LORA_ROUTER_GATE | GS_LORA_SHARED_GATE;
	case GS_ARCH_LLAMA4:
		return GS_LORA_ROUTER;
	default:
		return 0;
	}
}

unsigned gs_recipe_gguf_width(const char *compute_format, int *stated)
{
	static const struct { const char *name; unsigned bytes; } widths[] = {
		{ "bf16", 2 }, { "bfloat16", 2 }, { "fp16", 2 }, { "f16", 2 }, { "float16", 2 },
		{ "fp32", 4 }, { "f32", 4 }, { "float32", 4 }
	};
	size_t n = compute_format ? strcspn(compute_format, " ,;:()") : 0, i;

	*stated = 0;
	for (i = 0; i < sizeof(widths) / sizeof(widths[0]); i++)
		if (n == strlen(widths[i].name) &&
		    strncasecmp(compute_format, widths[i].name, n) == 0) {
			*stated = 1;
			return widths[i].bytes;
		}
	return 4;
}

unsigned gs_recipe_resolve(unsigned mask, unsigned has, unsigned *bad)
{
	if (mask & GS_LORA_ALL_LINEAR)
		mask = (mask & ~(unsigned)GS_LORA_ALL_LINEAR) | has;
	*bad = mask & ~has;
	return mask & has;
}

unsigned gs_recipe_resolve_targets(unsigned mask, int mla, uint64_t q_rank, unsigned *bad)
{
	return gs_recipe_resolve(mask, gs_recipe_modules(GS_LORA_NAMES_SEPARATE, mla, q_rank), bad);
}

/* the module of a fused checkpoint that holds the target of bit b, or NULL */
static const char *S_fused_into(unsigned b, gs_lora_names names)
{
	if (names == GS_LORA_NAMES_PHI3)
		return b & (GS_LORA_Q | GS_LORA_K | GS_LORA_V) ? "qkv_proj"
		       : b & (GS_LORA_GATE | GS_LORA_UP) ? "gate_up_proj" : NULL;
	if (names == GS_LORA_NAMES_NEOX)
		return b & (GS_LORA_Q | GS_LORA_K | GS_LORA_V | GS_LORA_QKV) ? "query_key_value"
		       : b & GS_LORA_O ? "dense" : b & (GS_LORA_UP | GS_LORA_GATE_UP) ? "dense_h_to_4h"
		       : b & GS_LORA_DOWN ? "dense_4h_to_h" : NULL;
	return NULL;
}

char *gs_recipe_bad_target(unsigned bit, gs_lora_names names, int mla, uint64_t q_rank)
{
	const char *name = "?", *into = S_fused_into(bit, names), *sep = "";
	unsigned has = gs_recipe_modules(names, mla, q_rank);
	size_t i;
	char *list, *t, *msg;

	for (i = 0; gs_recipe_target_names[i]; i++)
		if (bit & (1u << i))
			name = gs_recipe_target_names[i];
	if (bit & GS_LORA_VISION)
		return gs_xasprintf("LoRA target %s names a module of Qwen2.5-VL's vision tower "
				    "(visual.blocks.N.attn.qkv and attn.proj, visual.merger.mlp.0 "
				    "and mlp.2), which this model does not have", name);
	if (bit & GS_LORA_ROUTERS)
		return gs_xasprintf("LoRA target %s names a router that this model does not have "
				    "as a linear module: PEFT adapts the routers that are nn.Linear "
				    "(Mixtral's and Qwen3-MoE's gate, Qwen3-Next's gate and "
				    "shared_expert_gate, Llama 4's router), not one that holds its "
				    "weight as a parameter (DeepSeek-V3's DeepseekV3TopkRouter, "
				    "gpt-oss's GptOssTopKRouter), nor a dense model's", name);
	if (names == GS_LORA_NAMES_SEPARATE && mla && q_rank)
		return gs_xasprintf("LoRA target %s does not exist in this model's multi-head "
				    "latent attention: its projections are q_a_proj, q_b_proj, "
				    "kv_a_proj_with_mqa, kv_b_proj and o_proj", name);
	if (names == GS_LORA_NAMES_SEPARATE && mla)
		return gs_xasprintf("LoRA target %s does not exist in this model's multi-head "
				    "latent attention (q_lora_rank null: the queries are projected "
				    "directly): its projections are q_proj, kv_a_proj_with_mqa, "
				    "kv_b_proj and o_proj", name);
	if (names == GS_LORA_NAMES_SEPARATE && bit < GS_LORA_QKV)
		return gs_xasprintf("LoRA target %s is a projection of multi-head latent "
				    "attention, which this model does not have: its attention's "
				    "are q_proj, k_proj, v_proj and o_proj", name);
	list = gs_xstrdup("");
	for (i = 0; i < GS_RECIPE_TARGETS; i++)
		if (has & (1u << gs_recipe_target_order[i])) {
			t = gs_xasprintf("%s%s%s", list, sep,
					 gs_recipe_target_names[gs_recipe_target_order[i]]);
			free(list);
			list = t;
			sep = ", ";
		}
	if (names == GS_LORA_NAMES_NEMOTRON_H && (bit & (GS_LORA_GATE | GS_LORA_GATE_UP)))
		msg = gs_xasprintf("LoRA target %s is no module of this model: its MLP and "
				   "experts have no gate (NemotronHMLP: up_proj, relu2, down_proj); "
				   "its linear modules are %s", name, list);
	else if (names == GS_LORA_NAMES_GPT_OSS && (bit & (GS_LORA_MLP | GS_LORA_GATE_UP)))
		msg = gs_xasprintf("LoRA target %s is no module of this model: its MLP is its "
				   "experts, 3-D parameters (GptOssExperts' gate_up_proj and "
				   "down_proj), no linear module that PEFT's target_modules match; "
				   "its linear modules are %s", name, list);
	else if (into)
		msg = gs_xasprintf("LoRA target %s is no module of this model: its checkpoint "
				   "fuses it into %s, one linear whose adapter trains the fused "
				   "projections together (name %s); its linear modules are %s",
				   name, into, into, list);
	else
		msg = gs_xasprintf("LoRA target %s is no module of this model: its linear "
				   "modules are %s", name, list);
	free(list);
	return msg;
}

static void S_read_lora(gs_jr *r, json_t *o, const char *path, gs_recipe *rc)
{
	static const char *const allowed[] = { "rank", "targets", NULL };
	json_t *lo, *arr, *v;
	char *lp, *ap, *ip;
	size_t i;

	if (gs_jr_object(r, o, path, "lora", GS_JR_REQUIRED, allowed, &lo, &lp) != 1)
		return;
	gs_jr_uint(r, lo, lp, "rank", GS_JR_REQUIRED, 1, S_MAX_RANK, &rc->lora_rank);
	if (gs_jr_array(r, lo, lp, "targets", GS_JR_REQUIRED, &arr, &ap) == 1) {
		if (json_array_size(arr) == 0)
			gs_jr_error(r, ap, "expected at least one target module "
				    "(" S_TARGET_LIST ", all-linear)");
		json_array_foreach(arr, i, v) {
			char *s;
			unsigned b;
			ip = gs_jr_path_index(ap, i);
			if (gs_jr_v_string(r, v, ip, &s) == 0) {
				b = S_target(s, strlen(s));
				if (!b)
					gs_jr_error(r, ip, "unknown target module \"%s\": expected "
						    S_TARGET_LIST " or all-linear", s);
				else if (rc->targets & b)
					gs_jr_error(r, ip, "target module \"%s\" named twice", s);
				rc->targets |= b;
				free(s);
			}
			free(ip);
		}
		free(ap);
	}
	free(lp);
}

static void S_read_geometry(gs_jr *r, json_t *o, const char *path, gs_recipe *rc)
{
	static const char *const allowed[] = { "hidden_size", "intermediate_size", "vocab_size",
					       "experts", "experts_per_token",
					       "expert_intermediate_size", "tied_embeddings",
					       "dense_layers", "shared_expert_intermediate_size", NULL };
	json_t *g;
	char *gp;

	if (gs_jr_object(r, o, path, "geometry", GS_JR_OPTIONAL, allowed, &g, &gp) != 1)
		return;
	rc->has_hidden = gs_jr_uint(r, g, gp, "hidden_size", GS_JR_OPTIONAL, 1, S_MAX_DIM,
				    &rc->hidden) == 1;
	rc->has_intermediate = gs_jr_uint(r, g, gp, "intermediate_size", GS_JR_OPTIONAL, 1,
					  S_MAX_DIM, &rc->intermediate) == 1;
	rc->has_vocab = gs_jr_uint(r, g, gp, "vocab_size", GS_JR_OPTIONAL, 1, S_MAX_DIM,
				   &rc->vocab) == 1;
	gs_jr_uint(r, g, gp, "experts", GS_JR_OPTIONAL, 1, 65536, &rc->experts);
	gs_jr_uint(r, g, gp, "experts_per_token", GS_JR_OPTIONAL, 1, 65536, &rc->experts_active);
	gs_jr_uint(r, g, gp, "expert_intermediate_size", GS_JR_OPTIONAL, 1, S_MAX_DIM,
		   &rc->expert_intermediate);
	gs_jr_bool(r, g, gp, "tied_embeddings", GS_JR_OPTIONAL, &rc->tied);
	gs_jr_uint(r, g, gp, "dense_layers", GS_JR_OPTIONAL, 0, 1048576, &rc->dense_layers);
	gs_jr_uint(r, g, gp, "shared_expert_intermediate_size", GS_JR_OPTIONAL, 1, S_MAX_DIM,
		   &rc->shared_intermediate);
	if ((rc->dense_layers || rc->shared_intermediate) && !rc->experts)
		gs_jr_error(r, gp, "dense_layers and shared_expert_intermediate_size describe a "
			    "mixture of experts: they need experts");
	if ((rc->experts != 0) != (rc->experts_active != 0))
		gs_jr_error(r, gp, "experts and experts_per_token go together");
	else if (rc->experts_active > rc->experts)
		gs_jr_error(r, gp, "experts_per_token (%llu) is above experts (%llu)",
			    (unsigned long long)rc->experts_active, (unsigned long long)rc->experts);
	if (rc->expert_intermediate && !rc->experts)
		gs_jr_error(r, gp, "expert_intermediate_size needs experts");
	free(gp);
}

int gs_recipe_read(gs_jr *r, json_t *o, const char *path, gs_recipe *rc)
{
	static const char *const allowed[] = { "method", "lora", "optimizer", "checkpointing",
					       "accumulation", "sharding", "cards", "offload",
					       "geometry", NULL };
	size_t before = r->errors;
	int v;

	memset(rc, 0, sizeof(*rc));
	rc->present = 1;
	rc->cards = 1;
	rc->accumulation = 1;
	if (gs_jr_v_object(r, o, path, allowed) != 0)
		return -1;
	if (gs_jr_enum(r, o, path, "method", GS_JR_REQUIRED, S_methods, &v) == 1)
		rc->method = (gs_recipe_method)v;
	if (rc->method != GS_METHOD_FULL)
		S_read_lora(r, o, path, rc);
	else if (json_object_get(o, "lora")) {
		char *kp = gs_jr_path_key(path, "lora");
		gs_jr_error(r, kp, "lora is only for the methods \"lora\" and \"qlora\"");
		free(kp);
	}
	if (gs_jr_enum(r, o, path, "optimizer", GS_JR_REQUIRED, S_optimizers, &v) == 1)
		rc->optimizer = (gs_recipe_optimizer)v;
	if (gs_jr_enum(r, o, path, "checkpointing", GS_JR_REQUIRED, S_ckpts, &v) == 1)
		rc->checkpointing = (gs_recipe_ckpt)v;
	gs_jr_uint(r, o, path, "accumulation", GS_JR_OPTIONAL, 1, 1048576, &rc->accumulation);
	if (gs_jr_enum(r, o, path, "sharding", GS_JR_OPTIONAL, S_shards, &v) == 1)
		rc->sharding = (gs_recipe_shard)v;
	gs_jr_uint(r, o, path, "cards", GS_JR_OPTIONAL, 1, S_MAX_CARDS, &rc->cards);
	if (gs_jr_enum(r, o, path, "offload", GS_JR_OPTIONAL, S_offloads, &v) == 1)
		rc->offload = (gs_recipe_offload)v;
	if (rc->sharding == GS_SHARD_NONE && rc->offload != GS_OFFLOAD_NONE)
		gs_jr_error(r, path, "offload \"%s\" needs a sharding stage (zero1, zero2, zero3 or "
			    "fsdp): DeepSpeed and FSDP offload what they shard",
			    S_offloads[rc->offload]);
	if (rc->offload == GS_OFFLOAD_PARAMETERS && rc->sharding != GS_SHARD_ZERO3 &&
	    rc->sharding != GS_SHARD_FSDP)
		gs_jr_error(r, path, "offload \"parameters\" needs sharding zero3 or fsdp (the "
			    "parameters are offloaded only where they are sharded)");
	S_read_geometry(r, o, path, rc);
	(void)S_MAX;
	return r->errors == before ? 0 : -1;
}
