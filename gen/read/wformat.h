/*
 * wformat: the bytes of a model's weights in a checkpoint format, from its
 * geometry (`gpusheet init --format`).
 *
 * A format stores the layers' linear matrices (model.h, gs_model_matrices:
 * the routed experts and the other decoder projections) in fewer bits with
 * its scales, zero points and indices, and keeps every other parameter
 * (embeddings, head, norms, biases, routers, state mixers, vision tower)
 * in 16 bits. The rule of each format, for a matrix of R rows (output
 * features) by C columns (input features), groups counted along C:
 *
 *   bf16       2 B a value, every parameter
 *   int8       R x C x 1 B + one 16-bit scale per row (per-channel)
 *   fp8        R x C x 1 B + one float32 scale per 128 x 128 tile
 *              (DeepSeek-V3's block quantisation, weight_scale_inv)
 *   awq-int4   R x C / 2 (qweight) + R x ceil(C/128) x 2 (fp16 scales)
 *              + R/8 x ceil(C/128) x 4 (int32 qzeros); R a multiple of 8
 *   gptq-int4  the same + C x 4 (int32 g_idx per input feature)
 *   mxfp4      R x ceil(C/32) x (16 B of 4-bit values + 1 B E8M0 scale):
 *              17/32 B a value; the routed experts only when the model
 *              has them (as gpt-oss ships), else every matrix
 *   nvfp4      R x ceil(C/16) x (8 B + 1 B FP8 scale): 9/16 B a value,
 *              + two float32 global scales (weight, input) a matrix
 *
 * Every figure is exact in 128 bits and refused beyond 64. A result is
 * theoretical: the bytes a checkpoint in that format would hold, until one
 * is read.
 */
#ifndef GS_WFORMAT_H
#define GS_WFORMAT_H

#include <stdint.h>
#include "model.h"

typedef enum {
	GS_WF_BF16 = 0,
	GS_WF_INT8,
	GS_WF_FP8,
	GS_WF_AWQ_INT4,
	GS_WF_GPTQ_INT4,
	GS_WF_MXFP4,
	GS_WF_NVFP4,
	GS_WF_COUNT
} gs_wformat_id;

typedef struct {
	gs_wformat_id id;
	const char *name;        /* "mxfp4" (static) */
	uint64_t bytes;          /* the whole checkpoint's weights */
	uint64_t quant_params;   /* parameters stored in the format */
	uint64_t quant_bytes;    /* their bytes, scales and the rest included */
	uint64_t kept_params;    /* parameters kept in 16 bits */
	uint64_t kept_bytes;     /* kept_params x 2 */
	int experts_only;        /* 1: the routed experts only (mxfp4 on a MoE) */
} gs_wformat_result;

/* The format named NAME (as --format takes it), or -1. */
int gs_wformat_find(const char *name);
/* The formats' names, comma separated ("bf16, int8, ..."), static. */
const char *gs_wformat_names(void);
/* The rule of format id in words (static): what a stored matrix holds. */
const char *gs_wformat_rule(gs_wformat_id id);
/*
 * The weights of m in format id. 0, or -1 with a message in *why (caller
 * frees) when the geometry gives no matrices (not a covered architecture),
 * when a format's packing does not fit them (awq and gptq pack 8 rows or
 * columns in an int32), or on overflow.
 */
int gs_wformat_bytes(const gs_model *m, gs_wformat_id id, gs_wformat_result *out, char **why);

#endif
