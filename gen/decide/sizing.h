/*
 * sizing: the arithmetic of the sizing guide, in bytes, exactly.
 *
 * Invariants:
 *  - every function works on integers and reports overflow (-1) instead of
 *    wrapping; nothing is rounded except weights of a bit count that does
 *    not fill whole bytes, which round up to the next byte;
 *  - a workload whose weights were read from the checkpoint's headers
 *    (has_weights_bytes) is sized with those exact bytes, not parameters x
 *    bits, and is never "theoretical";
 *  - nothing is multiplied by a hidden factor: training memory is the sum
 *    of the declared components, and, with a training recipe, of the items
 *    training.h calculates per card (the need is then per card: the
 *    weights per card + the reserve + the other items per card + the
 *    declared components, and no KV cache);
 *  - provenance: weights and KV cache are calculated; reserve items and
 *    declared training components are assumed; a sum takes the weakest.
 */
#ifndef GS_SIZING_H
#define GS_SIZING_H

#include "error.h"

#include <stddef.h>
#include <stdint.h>
#include "quantity.h"
#include "training.h"
#include "workload.h"

/* weights = parameters x bits / 8, rounded up to a whole byte. */
int gs_sizing_weights_bytes(uint64_t parameters, unsigned bits, uint64_t *out);
/* Sub-byte formats (bits < 8) and odd widths are theoretical storage. */
int gs_sizing_bits_theoretical(unsigned bits);
/*
 * Fractional widths (a GGUF's 4.5 bits, written "4.5"), in thousandths of a
 * bit: weights = ceil(parameters x millibits / 8000), exact in 128 bits;
 * *rounded is 1 when the product was not a whole number of bytes.
 * millibits is 1000..64000. A width that is not a whole number of bytes is
 * theoretical.
 */
int gs_sizing_weights_bytes_milli(uint64_t parameters, uint64_t millibits, uint64_t *out, int *rounded);
int gs_sizing_millibits_theoretical(uint64_t millibits);

typedef struct {
	uint64_t layers, kv_heads, head_dim, tokens_kept, bytes_per_value, sequences;
	/* a block type (kvdtype.h: llama.cpp's q8_0, q4_0): block_bytes per
	 * block_values values along each head; 0 or 1: bytes_per_value each */
	uint64_t block_values, block_bytes;
} gs_kv_geometry;

/*
 * 2 x layers x kv_heads x head_dim x tokens_kept x bytes_per_value x sequences;
 * with a block type, head_dim x bytes_per_value becomes a head's row of
 * head_dim / block_values blocks of block_bytes: 2 x 32 x 8 x (128 / 32 x
 * 34) = 69,632 B per token for Llama-3.1-8B in q8_0. -1 on overflow, or
 * when head_dim is not a multiple of block_values.
 */
int gs_sizing_kv_bytes(const gs_kv_geometry *g, uint64_t *out);
/* The bytes of one head's row of keys (or values) for one token: head_dim x
 * bytes_per_value, or head_dim / block_values x block_bytes. -1 as above. */
int gs_sizing_kv_row_bytes(const gs_kv_geometry *g, uint64_t *out);
/* tokens kept: min(tokens, window) when window != 0, else tokens. */
uint64_t gs_sizing_kv_tokens_kept(uint64_t tokens, uint64_t window);

/*
 * The cache of one sequence as a named runtime keeps it, from the model's
 * cache layout (kvlayout.h: groups of layers of one kind).
 *
 *   per_token  bytes each token adds on the layers that keep every token
 *              (full attention, MLA), summed over those layers;
 *   bounded    bytes of the windowed and chunked layers at `tokens`
 *              (each keeps at most its bound, so they stop growing);
 *   state      bytes of the constant state per sequence (Mamba2, Gated
 *              DeltaNet), whatever the tokens;
 *   bytes      per_token x tokens + bounded + state.
 *
 * engine "vllm" (its v1 KV-cache specs: vllm/v1/kv_cache_interface.py):
 *   full: kv_heads x (head_dim + v_head_dim) values per token per layer;
 *   sliding: min(tokens, window) tokens; chunked: min(tokens, chunk);
 *   MLA: one latent of kv_lora_rank + qk_rope_head_dim values per token
 *   per layer (vllm/v1/attention/backends/mla/common.py), 576 for
 *   DeepSeek-V3: 576 x 2 B x 61 layers = 70,272 B per token in bf16;
 *   state: (conv_kernel - 1) x conv_dim conv values + the recurrent state
 *   (vllm/model_executor/layers/mamba/mamba_utils.py).
 * engine "transformers" (src/transformers/cache_utils.py, DynamicCache):
 *   full: the same; sliding and chunked: min(tokens, window - 1), as
 *   DynamicSlidingWindowLayer keeps them; MLA: the decompressed keys and
 *   values, heads x (qk_nope + qk_rope + v_head_dim) values per token per
 *   layer (models/deepseek_v3/modeling_deepseek_v3.py); state:
 *   conv_kernel x conv_dim conv values + the recurrent state.
 * KV values take bytes_per_value (the workload's cache.bytes_per_value),
 * a state its own widths (the layout's). Block rounding of a paged cache
 * is not counted. Returns 0, or -1 for an engine not named here or a
 * product beyond 64 bits.
 */
typedef struct {
	uint64_t per_token;
	uint64_t bounded;
	uint64_t state;
	uint64_t bytes;
} gs_cache_cost;

int gs_sizing_cache_engine(const gs_kv_group *groups, size_t ngroups, const char *engine,
			   uint64_t bytes_per_value, uint64_t tokens, gs_cache_cost *out);
/* The engines gs_sizing_cache_engine knows, NULL-terminated. */
extern const char *const gs_sizing_cache_engines[];

typedef struct {
	unsigned bits;
	uint64_t weights;
	uint64_t envelope;       /* weights + the same reserve */
	int theoretical;
} gs_format_row;

#define GS_MAX_FORMATS 8

/* One row per requested bit count, with the same reserve. */
int gs_sizing_format_table(uint64_t parameters, uint64_t reserve, const unsigned *bits,
		    size_t nbits, gs_format_row *rows);

typedef struct {
	gs_qty weights;          /* calculated: parameters x bits, or the checkpoint's bytes */
	int theoretical;         /* storage bits not a whole number of bytes */
	int rounded;             /* parameters x bits / 8 rounded up to a whole byte */
	gs_qty reserve;          /* sum of the itemized reserve; assumed */
	gs_qty envelope;         /* weights + reserve: the seeds' envelope */
	gs_qty kv;               /* calculated; missing without a cache */
	uint64_t kv_tokens_kept;     /* per sequence; under vLLM, whole blocks */
	uint64_t kv_per_token;       /* KV bytes of one token, every layer (0: no cache) */
	uint64_t kv_sequences;
	gs_qty kv_per_sequence;
	/*
	 * The other figure of a cache a sliding window may bound: with a
	 * sliding cache, the dense one (every token kept); with a dense cache
	 * of a model that has a window, the windowed one. Calculated; missing
	 * otherwise. Whether the window bounds the cache depends on the
	 * runtime: the sheet shows both.
	 */
	gs_qty kv_other;
	uint64_t kv_other_tokens;
	int kv_other_windowed;   /* 1: kv_other keeps the window, 0: every token */
	/*
	 * A workload with a cache layout (model.cache_layout): kv is the cache
	 * as kv_engine keeps it, kv_other as kv_other_engine does (both per
	 * gs_sizing_cache_engine). Without a declared runtime (kv_engine_declared
	 * 0) kv is the larger of the two, so the need is not understated. NULL
	 * engines without a layout.
	 */
	const char *kv_engine;
	const char *kv_other_engine;
	int kv_engine_declared;
	gs_cache_cost kv_cost;         /* one sequence, kv_engine */
	gs_cache_cost kv_other_cost;   /* one sequence, kv_other_engine */
	gs_qty training;         /* sum of declared components; missing for inference */
	gs_qty need;             /* envelope + kv + training: the calculated need;
				  * with a recipe, per card (see the top) */
	int has_train;           /* 1: the workload's recipe, sized in train */
	gs_training train;
	gs_format_row formats[GS_MAX_FORMATS];
	size_t nformats;
} gs_sizing;

/*
 * 1 when tensor parallelism over n cards splits the workload's counted KV
 * cache by heads: the KV heads divide by n, and the cache is not an MLA
 * latent as vLLM keeps it (one latent per token, replicated on every
 * card; vllm/v1/attention/backends/mla/common.py). 0: replicated.
 */
int gs_sizing_kv_splits(const gs_workload *w, const gs_sizing *s, uint64_t n);
/*
 * The KV cache counted (s->kv: its tokens, sequences and runtime) were its
 * values kept in dtype t: the "what to change" lever's figure. -1 when the
 * workload cannot keep t (a block type on a cache_layout or under a vLLM
 * runtime, or a head not whole blocks), when s counts no KV cache, or on
 * overflow.
 */
int gs_sizing_kv_with_dtype(const gs_workload *w, const gs_sizing *s, const gs_kvdtype *t,
			    uint64_t *out);

/*
 * Sizes a workload. Returns 0, or -1 with a message in err
 * when a value overflows 64 bits.
 */
int gs_sizing_workload(const gs_workload *w, gs_sizing *s, gs_error *err);

#endif
