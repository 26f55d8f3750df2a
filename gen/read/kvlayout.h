/*
 * kvlayout: what each layer of a model keeps per token and per sequence
 * while it generates, as groups of layers of one kind. The model reader
 * (model.h) builds it from config.json; a workload carries it as
 * model.cache_layout (docs/formats.md), so that a sheet sizes the cache
 * without the model's files; sizing.h turns it into bytes as a named
 * runtime keeps them (gs_sizing_cache_engine).
 *
 * Invariants:
 *  - a layout is geometry only: values per token or per sequence, never
 *    bytes of a runtime's choosing; the cache's bytes per value come from
 *    the workload's cache.bytes_per_value, except a state's own widths,
 *    which the model's files state (mamba_ssm_cache_dtype);
 *  - the groups' layers add up to the model's layer count, layers without
 *    a cache (an MLP or MoE block of a hybrid) included as kind "none";
 *  - every field that a kind does not use is 0.
 */
#ifndef GS_KVLAYOUT_H
#define GS_KVLAYOUT_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

typedef enum {
	GS_KV_FULL = 0,   /* keys and values of every token */
	GS_KV_SLIDING,    /* the same, for the last `window` tokens */
	GS_KV_CHUNKED,    /* the same, within the current chunk of `chunk` tokens */
	GS_KV_MLA,        /* multi-head latent attention: a latent per token */
	GS_KV_STATE,      /* a constant state per sequence (Mamba2, Gated DeltaNet) */
	GS_KV_NONE        /* no cache (MLP or MoE only) */
} gs_kv_kind;

#define GS_KV_KINDS 6

typedef struct {
	gs_kv_kind kind;
	uint64_t layers;
	/* FULL, SLIDING, CHUNKED: per token, per layer, keys kv_heads x head_dim
	 * and values kv_heads x v_head_dim (v_head_dim = head_dim unless stated).
	 * MLA: heads x (qk_nope_head_dim + qk_rope_head_dim) keys and
	 * heads x v_head_dim values when decompressed (kv_heads = heads;
	 * head_dim 0). */
	uint64_t kv_heads, head_dim, v_head_dim;
	uint64_t window;          /* SLIDING */
	uint64_t chunk;           /* CHUNKED */
	uint64_t kv_lora_rank, qk_rope_head_dim, qk_nope_head_dim; /* MLA */
	/* STATE: a convolution state of conv_dim channels over conv_kernel
	 * positions, and a recurrent state of state_values values */
	uint64_t conv_dim, conv_kernel, conv_bytes_per_value;
	uint64_t state_values, state_bytes_per_value;
} gs_kv_group;

/* "full", "sliding", "chunked", "mla", "state", "none". */
const char *gs_kvlayout_kind_id(gs_kv_kind k);
/* The kind named id; -1 when none is. */
int gs_kvlayout_kind_parse(const char *id, gs_kv_kind *out);
/* The keys a group of kind k states beyond "kind" and "layers", NULL-terminated
 * (docs/formats.md, model.cache_layout). */
const char *const *gs_kvlayout_kind_keys(gs_kv_kind k);
/* The field of g named key, or NULL. */
uint64_t *gs_kvlayout_field(gs_kv_group *g, const char *key);
/* The group as model.cache_layout writes it (a new reference). */
json_t *gs_kvlayout_group_json(const gs_kv_group *g);
/* 1 when the two groups are the same in every field. */
int gs_kvlayout_group_equal(const gs_kv_group *a, const gs_kv_group *b);

#endif
