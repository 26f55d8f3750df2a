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
 *    of the declared components, nothing else;
 *  - provenance: weights and KV cache are calculated; reserve items and
 *    declared training components are assumed; a sum takes the weakest.
 */
#ifndef GS_SIZING_H
#define GS_SIZING_H

#include "error.h"

#include <stddef.h>
#include <stdint.h>
#include "quantity.h"
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
} gs_kv_geometry;

/* 2 x layers x kv_heads x head_dim x tokens_kept x bytes_per_value x sequences */
int gs_sizing_kv_bytes(const gs_kv_geometry *g, uint64_t *out);
/* tokens kept: min(tokens, window) when window != 0, else tokens. */
uint64_t gs_sizing_kv_tokens_kept(uint64_t tokens, uint64_t window);

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
	gs_qty training;         /* sum of declared components; missing for inference */
	gs_qty need;             /* envelope + kv + training: the calculated need */
	gs_format_row formats[GS_MAX_FORMATS];
	size_t nformats;
} gs_sizing;

/*
 * Sizes a workload. Returns 0, or -1 with a message in err
 * when a value overflows 64 bits.
 */
int gs_sizing_workload(const gs_workload *w, gs_sizing *s, gs_error *err);

#endif
