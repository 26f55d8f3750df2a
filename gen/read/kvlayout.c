/* kvlayout: groups of layers of one cache kind (kvlayout.h). */
#include "kvlayout.h"

#include <stddef.h>
#include <string.h>

static const char *const S_ids[GS_KV_KINDS] = { "full", "sliding", "chunked", "mla", "state",
						"none" };

const char *gs_kvlayout_kind_id(gs_kv_kind k)
{
	return (unsigned)k < GS_KV_KINDS ? S_ids[k] : "unknown";
}

int gs_kvlayout_kind_parse(const char *id, gs_kv_kind *out)
{
	int i;

	for (i = 0; i < GS_KV_KINDS; i++) {
		if (strcmp(S_ids[i], id) == 0) {
			*out = (gs_kv_kind)i;
			return 0;
		}
	}
	return -1;
}

int gs_kvlayout_group_equal(const gs_kv_group *a, const gs_kv_group *b)
{
	return a->kind == b->kind && a->layers == b->layers && a->kv_heads == b->kv_heads &&
	       a->head_dim == b->head_dim && a->v_head_dim == b->v_head_dim &&
	       a->window == b->window && a->chunk == b->chunk &&
	       a->kv_lora_rank == b->kv_lora_rank && a->qk_rope_head_dim == b->qk_rope_head_dim &&
	       a->qk_nope_head_dim == b->qk_nope_head_dim && a->conv_dim == b->conv_dim &&
	       a->conv_kernel == b->conv_kernel && a->conv_bytes_per_value == b->conv_bytes_per_value &&
	       a->state_values == b->state_values &&
	       a->state_bytes_per_value == b->state_bytes_per_value;
}

const char *const *gs_kvlayout_kind_keys(gs_kv_kind k)
{
	static const char *const attn[] = { "kv_heads", "head_dim", "v_head_dim", NULL };
	static const char *const sliding[] = { "kv_heads", "head_dim", "v_head_dim", "window", NULL };
	static const char *const chunked[] = { "kv_heads", "head_dim", "v_head_dim", "chunk", NULL };
	static const char *const mla[] = { "kv_lora_rank", "qk_rope_head_dim", "kv_heads",
					   "qk_nope_head_dim", "v_head_dim", NULL };
	static const char *const state[] = { "conv_dim", "conv_kernel", "conv_bytes_per_value",
					     "state_values", "state_bytes_per_value", NULL };
	static const char *const none[] = { NULL };

	switch (k) {
	case GS_KV_FULL: return attn;
	case GS_KV_SLIDING: return sliding;
	case GS_KV_CHUNKED: return chunked;
	case GS_KV_MLA: return mla;
	case GS_KV_STATE: return state;
	case GS_KV_NONE: return none;
	}
	return none;
}

uint64_t *gs_kvlayout_field(gs_kv_group *g, const char *key)
{
	static const struct {
		const char *key;
		size_t off;
	} fields[] = {
		{ "kv_heads", offsetof(gs_kv_group, kv_heads) },
		{ "head_dim", offsetof(gs_kv_group, head_dim) },
		{ "v_head_dim", offsetof(gs_kv_group, v_head_dim) },
		{ "window", offsetof(gs_kv_group, window) },
		{ "chunk", offsetof(gs_kv_group, chunk) },
		{ "kv_lora_rank", offsetof(gs_kv_group, kv_lora_rank) },
		{ "qk_rope_head_dim", offsetof(gs_kv_group, qk_rope_head_dim) },
		{ "qk_nope_head_dim", offsetof(gs_kv_group, qk_nope_head_dim) },
		{ "conv_dim", offsetof(gs_kv_group, conv_dim) },
		{ "conv_kernel", offsetof(gs_kv_group, conv_kernel) },
		{ "conv_bytes_per_value", offsetof(gs_kv_group, conv_bytes_per_value) },
		{ "state_values", offsetof(gs_kv_group, state_values) },
		{ "state_bytes_per_value", offsetof(gs_kv_group, state_bytes_per_value) },
	};
	size_t i;

	for (i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
		if (strcmp(fields[i].key, key) == 0)
			return (uint64_t *)(void *)((char *)g + fields[i].off);
	return NULL;
}

json_t *gs_kvlayout_group_json(const gs_kv_group *g)
{
	json_t *o = json_object();
	const char *const *keys = gs_kvlayout_kind_keys(g->kind);
	gs_kv_group copy = *g;
	size_t i;

	json_object_set_new(o, "kind", json_string(gs_kvlayout_kind_id(g->kind)));
	json_object_set_new(o, "layers", json_integer((json_int_t)g->layers));
	for (i = 0; keys[i]; i++)
		json_object_set_new(o, keys[i], json_integer((json_int_t)*gs_kvlayout_field(&copy,
											    keys[i])));
	return o;
}
