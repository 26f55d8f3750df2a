/*
 * kvdtype: the widths a KV cache keeps its values in (`gpusheet init
 * --kv-dtype`, the workload's cache.dtype).
 *
 * A plain dtype keeps each value in whole bytes: fp32 4, fp16 and bf16 2,
 * fp8 1 (vLLM's --kv-cache-dtype fp8). llama.cpp's block types keep a block
 * of 32 values along a head's dimension in a fixed number of bytes, one
 * fp16 scale (ggml_half, 2 B) and the quants (ggml/src/ggml-common.h):
 *   q8_0  block_q8_0: ggml_half d + int8_t qs[QK8_0], QK8_0 = 32: 34 B;
 *   q4_0  block_q4_0: ggml_half d + uint8_t qs[QK4_0 / 2], QK4_0 = 32: 18 B.
 *
 * Invariants:
 *  - bytes are whole: a row of n values takes n / block_values x
 *    block_bytes bytes, n a multiple of block_values (1 for a plain dtype);
 *  - llama.cpp keeps one row of head_dim values per head and refuses a
 *    block type whose block does not divide the head: "K cache type %s
 *    with block size %u does not divide n_embd_head_k=%u" (and the same
 *    for V, src/llama-context.cpp, llama_init_from_model); so a block type
 *    needs head_dim a multiple of 32, and gs_kvdtype_row_bytes refuses any
 *    other row. A quantised V cache also needs flash attention there.
 */
#ifndef GS_KVDTYPE_H
#define GS_KVDTYPE_H

#include <stdint.h>

typedef struct {
	const char *name;       /* "fp16", "q8_0", ... as init and the workload spell it */
	uint64_t block_values;  /* values per block: 1, or 32 for q8_0 and q4_0 */
	uint64_t block_bytes;   /* bytes per block: a plain dtype's bytes per value */
	const char *source;     /* where the width comes from, in words */
} gs_kvdtype;

/* The names, NULL-terminated, in the table's order (for gs_jr_enum). */
extern const char *const gs_kvdtype_ids[];
/* The dtype named so (case-sensitive), or NULL. The table is static. */
const gs_kvdtype *gs_kvdtype_find(const char *name);
/* The names accepted, as "fp16, bf16, fp32, fp8, q8_0 or q4_0" (static). */
const char *gs_kvdtype_names(void);
/* 1 for a block type (block_values > 1), 0 for a plain one. */
int gs_kvdtype_is_block(const gs_kvdtype *t);
/*
 * The bytes of one row of `values` values: values / block_values x
 * block_bytes. -1 when values is not a multiple of block_values or the
 * product overflows 64 bits.
 */
int gs_kvdtype_row_bytes(const gs_kvdtype *t, uint64_t values, uint64_t *out);

#endif
