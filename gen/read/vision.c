/* vision: an image's tokens by the processor's rules (vision.h). */
#include "vision.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "jsonread.h"
#include "util.h"

/* transformers' Qwen2VLImageProcessor defaults */
#define S_MIN_PIXELS (56 * 56)
#define S_MAX_PIXELS (28 * 28 * 1280)
/* a side beyond this is not an image a processor takes */
#define S_MAX_SIDE UINT64_C(1000000)

void gs_vision_rules_release(gs_vision_rules *r)
{
	free(r->file);
	r->file = NULL;
}

/* A positive integer key of o, or of o.size under the newer name. */
static int S_key(json_t *o, const char *key, const char *size_key, uint64_t *out)
{
	json_t *v = json_object_get(o, key);

	if (!v && size_key)
		v = json_object_get(json_object_get(o, "size"), size_key);
	if (!v)
		return 0;
	if (!json_is_integer(v) || json_integer_value(v) < 1)
		return -1;
	*out = (uint64_t)json_integer_value(v);
	return 1;
}

/* The file's object, NULL when the folder has none; -1 with *why. */
static int S_load(const gs_model *m, json_t **root, char **path, char **why)
{
	struct stat st;
	json_error_t e;

	*root = NULL;
	*path = NULL;
	if (!m->folder)
		return 0;
	*path = gs_xasprintf("%s/preprocessor_config.json", m->folder);
	if (stat(*path, &st) != 0) {
		free(*path);
		*path = NULL;
		return 0;
	}
	*root = gs_jr_load_path(*path, JSON_REJECT_DUPLICATES, &e);
	if (!json_is_object(*root)) {
		*why = gs_xasprintf("%s: %s", *path, *root ? "expected a JSON object" : e.text);
		json_decref(*root);
		*root = NULL;
		free(*path);
		*path = NULL;
		return -1;
	}
	return 0;
}

/* Gemma 3: a fixed count per image (vision.h); pan and scan refused. */
static int S_gemma3_rules(const gs_model *m, gs_vision_rules *r, char **why)
{
	json_t *root, *pas;
	char *path;

	if (S_load(m, &root, &path, why))
		return -1;
	r->fixed = m->vision_image_tokens + 4;
	r->square = m->vision_image_size;
	if (!root)
		return 0;
	pas = json_object_get(root, "do_pan_and_scan");
	if (pas && !json_is_boolean(pas)) {
		*why = gs_xasprintf("%s: $.do_pan_and_scan: expected true or false", path);
	} else if (json_is_true(pas)) {
		*why = gs_xasprintf("%s: do_pan_and_scan is true: the crops add a sentence whose "
				    "tokens need the tokenizer, which gpusheet does not read; "
				    "state the input tokens by hand", path);
	}
	json_decref(root);
	if (*why) {
		free(path);
		return -1;
	}
	r->from_file = 1;
	r->file = path;
	return 0;
}

int gs_vision_rules_read(const gs_model *m, gs_vision_rules *r, char **why)
{
	static const struct {
		const char *key, *size_key;
	} keys[] = { { "min_pixels", "shortest_edge" }, { "max_pixels", "longest_edge" },
		     { "patch_size", NULL }, { "merge_size", NULL } };
	uint64_t *outs[4];
	char *path;
	json_t *root;
	size_t i;

	memset(r, 0, sizeof(*r));
	*why = NULL;
	if (m->has_vision == 1 && m->vision_image_tokens && m->vision_image_size)
		return S_gemma3_rules(m, r, why);
	if (m->has_vision != 1 || !m->vision_merge || !m->vision_patch) {
		*why = gs_xstrdup(m->has_vision ? "the model takes images, but gpusheet knows "
					"the image rules of Qwen2.5-VL's and Gemma 3's processors only"
					: "the model has no vision tower (vision_config)");
		return -1;
	}
	r->patch = m->vision_patch;
	r->merge = m->vision_merge;
	r->min_pixels = S_MIN_PIXELS;
	r->max_pixels = S_MAX_PIXELS;
	if (S_load(m, &root, &path, why))
		return -1;
	if (!root)
		return 0;
	outs[0] = &r->min_pixels;
	outs[1] = &r->max_pixels;
	outs[2] = &r->patch;
	outs[3] = &r->merge;
	for (i = 0; i < 4; i++) {
		if (S_key(root, keys[i].key, keys[i].size_key, outs[i]) < 0 ||
		    *outs[i] > S_MAX_SIDE * S_MAX_SIDE) {
			*why = gs_xasprintf("%s: $.%s: expected a positive integer", path,
					    keys[i].key);
			json_decref(root);
			free(path);
			return -1;
		}
	}
	json_decref(root);
	if (r->patch != m->vision_patch || r->merge != m->vision_merge) {
		*why = gs_xasprintf("%s: patch_size %llu and merge_size %llu, but config.json's "
				    "vision_config says %llu and %llu", path,
				    (unsigned long long)r->patch, (unsigned long long)r->merge,
				    (unsigned long long)m->vision_patch,
				    (unsigned long long)m->vision_merge);
		free(path);
		return -1;
	}
	if (r->min_pixels > r->max_pixels) {
		*why = gs_xasprintf("%s: min_pixels %llu is above max_pixels %llu", path,
				    (unsigned long long)r->min_pixels,
				    (unsigned long long)r->max_pixels);
		free(path);
		return -1;
	}
	r->from_file = 1;
	r->file = path;
	return 0;
}

/* Python's round(x / f) * f for integers: a half to the even multiple. */
static uint64_t S_round(uint64_t x, uint64_t f)
{
	uint64_t q = x / f, rem = x % f;

	if (2 * rem > f || (2 * rem == f && (q & 1)))
		q++;
	return q * f;
}

int gs_vision_image_tokens(const gs_vision_rules *r, uint64_t width, uint64_t height,
			   gs_vision_image *out, char **why)
{
	uint64_t f = r->patch * r->merge, h = height, w = width, hb, wb;

	*why = NULL;
	memset(out, 0, sizeof(*out));
	if (!width || !height || width > S_MAX_SIDE || height > S_MAX_SIDE) {
		*why = gs_xasprintf("an image of %llu x %llu pixels: each side must be from 1 to "
				    "%llu", (unsigned long long)width, (unsigned long long)height,
				    (unsigned long long)S_MAX_SIDE);
		return -1;
	}
	if (r->fixed) {
		out->width = width;
		out->height = height;
		out->rwidth = out->rheight = r->square;
		out->tokens = r->fixed;
		return 0;
	}
	if ((h > w ? h : w) > 200 * (h > w ? w : h)) {
		/* the processor: max / min > 200 is refused (exactly 200 passes) */
		*why = gs_xasprintf("an image of %llu x %llu pixels: the processor refuses a "
				    "side ratio above 200", (unsigned long long)width,
				    (unsigned long long)height);
		return -1;
	}
	hb = S_round(h, f);
	wb = S_round(w, f);
	if (hb * wb > r->max_pixels) {
		double beta = sqrt((double)(h * w) / (double)r->max_pixels);
		double hf = floor((double)h / beta / (double)f), wf = floor((double)w / beta / (double)f);
		hb = hf < 1 ? f : (uint64_t)hf * f;
		wb = wf < 1 ? f : (uint64_t)wf * f;
	} else if (hb * wb < r->min_pixels) {
		double beta = sqrt((double)r->min_pixels / (double)(h * w));
		hb = (uint64_t)ceil((double)h * beta / (double)f) * f;
		wb = (uint64_t)ceil((double)w * beta / (double)f) * f;
	}
	out->width = width;
	out->height = height;
	out->rwidth = wb;
	out->rheight = hb;
	out->tokens = (hb / r->patch) * (wb / r->patch) / (r->merge * r->merge);
	return 0;
}
