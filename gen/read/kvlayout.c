/* kvlayout: groups of layers of one cache kind (kvlayout.h). */
#include "kvlayout.h"

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
