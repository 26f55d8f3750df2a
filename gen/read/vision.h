/*
 * vision: the tokens an image becomes, by the model's processor rules
 * (`gpusheet init --images WxH[xN]`).
 *
 * Qwen2.5-VL (transformers' Qwen2VLImageProcessor, smart_resize): the
 * image is resized so that each side is a multiple of patch x merge (14 x
 * 2 = 28): each side rounded to the nearest multiple (a half to the even
 * one, as Python's round); when the area exceeds max_pixels, both sides
 * are scaled by sqrt(H x W / max_pixels) and floored to the multiple (at
 * least one); below min_pixels scaled up and ceiled. An image of H' x W'
 * then gives (H'/14) x (W'/14) patches, merged 2 x 2 into one token each:
 * (H'/14) x (W'/14) / 4 tokens. A side ratio above 200 is refused, as
 * the processor refuses it.
 *
 * Gemma 3 (transformers' Gemma3Processor; vLLM's gemma3_mm.py): every image
 * is resized to the SigLIP tower's square (vision_config.image_size, 896)
 * and pooled into mm_tokens_per_image tokens (256), whatever its size; in
 * the prompt they sit between a start and an end marker, each side a line
 * break token: mm_tokens_per_image + 4 tokens at most (a line break can
 * merge with the text's). Pan and scan (preprocessor_config.json's
 * do_pan_and_scan true) adds crops and a sentence whose tokens need the
 * tokenizer: refused, said so.
 *
 * The rules come from preprocessor_config.json beside config.json
 * (min_pixels, max_pixels, patch_size, merge_size); without it, the
 * processor class's defaults (min 56 x 56, max 28 x 28 x 1,280 pixels),
 * said so (from_file 0). The float steps are those of Python's, in IEEE
 * double, in the same order, so the sizes are the processor's own.
 */
#ifndef GS_VISION_H
#define GS_VISION_H

#include <stdint.h>
#include "model.h"

typedef struct {
	uint64_t patch, merge;          /* 14, 2 */
	uint64_t min_pixels, max_pixels;
	uint64_t fixed;                 /* Gemma 3: tokens per image, markers included; 0: resized */
	uint64_t square;                /* Gemma 3: the side each image is resized to */
	int from_file;                  /* 1: preprocessor_config.json; 0: defaults */
	char *file;                     /* the file read (caller frees via release), or NULL */
} gs_vision_rules;

typedef struct {
	uint64_t width, height;         /* as given */
	uint64_t rwidth, rheight;       /* resized by the processor */
	uint64_t tokens;                /* after the merger */
} gs_vision_image;

/*
 * The rules of m's processor: 0, or -1 with *why (caller frees) when the
 * model has no image rules gpusheet knows (not Qwen2.5-VL or Gemma 3), or its
 * preprocessor_config.json is unreadable or wrong (the file and key named).
 */
int gs_vision_rules_read(const gs_model *m, gs_vision_rules *r, char **why);
void gs_vision_rules_release(gs_vision_rules *r);
/* The tokens of one image of width x height: 0, or -1 with *why. */
int gs_vision_image_tokens(const gs_vision_rules *r, uint64_t width, uint64_t height,
			   gs_vision_image *out, char **why);

#endif
