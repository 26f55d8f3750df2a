/*
 * test_vision: an image's tokens by Qwen2.5-VL's and Gemma 3's processor rules
 * (gen/read/vision.c), on the real files of tests/data/models/
 * qwen2.5-vl-7b-instruct (patch 14, merge 2 in config.json's
 * vision_config; min_pixels 3,136 and max_pixels 12,845,056 in
 * preprocessor_config.json). Worked by hand, factor 14 x 2 = 28:
 *  - 1,280 x 720: 1,280 / 28 = 45.7 -> 46 x 28 = 1,288; 720 / 28 = 25.7
 *    -> 26 x 28 = 728; 1,288 x 728 = 937,664 pixels, within the bounds;
 *    (728 / 14) x (1,288 / 14) / 4 = 52 x 92 / 4 = 1,196 tokens.
 *  - 4,000 x 3,000: 142.9 -> 143 x 28 = 4,004; 107.1 -> 107 x 28 = 2,996;
 *    11,995,984 pixels, within; 214 x 286 / 4 = 15,301 tokens.
 *  - 8,000 x 6,000: 214.3 -> 214 x 28 = 5,992 by 285.7 -> 286 x 28 = 8,008:
 *    47,983,936 pixels, above max_pixels: beta = sqrt(48,000,000 / 12,845,056) = 1.93310;
 *    6,000 / beta / 28 = 110.85 -> 110 x 28 = 3,080; 8,000 / beta / 28 =
 *    147.8 -> 147 x 28 = 4,116; 220 x 294 / 4 = 16,170 tokens.
 *  - 42 x 42: 42 / 28 = 1.5, a half: Python rounds it to the even 2 ->
 *    56 x 56 = 3,136 = min_pixels, within; 4 x 4 / 4 = 4 tokens.
 *  - 70 x 14: 70 / 28 = 2.5 -> 2 (even) x 28 = 56; 14 / 28 = 0.5 -> 0;
 *    0 pixels, below min_pixels: beta = sqrt(3,136 / 980) = 1.78885;
 *    ceil(14 x beta / 28) = ceil(0.894) = 1 -> 28; ceil(70 x beta / 28) =
 *    ceil(4.47) = 5 -> 140; 2 x 10 / 4 = 5 tokens.
 *  - 201 x 1: a side ratio above 200, refused; 200 x 1 passes.
 * The same figures as transformers' smart_resize gives (Python, IEEE double).
 */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "model.h"
#include "vision.h"

static void S_test_qwen(void)
{
	static const struct {
		uint64_t w, h, rw, rh, tokens;
	} cases[] = {
		{ 1280, 720, 1288, 728, 1196 },
		{ 4000, 3000, 4004, 2996, 15301 },
		{ 8000, 6000, 4116, 3080, 16170 },
		{ 42, 42, 56, 56, 4 },
		{ 70, 14, 140, 28, 5 },
	};
	char *p = gs_xasprintf("%s/tests/data/models/qwen2.5-vl-7b-instruct", GS_TEST_SOURCE_DIR);
	gs_model m;
	gs_diag d = GS_DIAG_INIT;
	gs_vision_rules r;
	gs_vision_image im;
	char *why = NULL;
	size_t i;

	if (!CHECK(gs_model_read(p, &m, &d) == 0)) {
		gs_diag_print(&d, stderr);
		gs_diag_release(&d);
		free(p);
		return;
	}
	if (CHECK(gs_vision_rules_read(&m, &r, &why) == 0)) {
		CHECK_INT(r.from_file, 1);
		CHECK_U64(r.patch, 14);
		CHECK_U64(r.merge, 2);
		CHECK_U64(r.min_pixels, 3136);
		CHECK_U64(r.max_pixels, 12845056);
		for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
			if (!CHECK(gs_vision_image_tokens(&r, cases[i].w, cases[i].h, &im, &why) == 0))
				continue;
			CHECK_U64(im.rwidth, cases[i].rw);
			CHECK_U64(im.rheight, cases[i].rh);
			CHECK_U64(im.tokens, cases[i].tokens);
		}
		CHECK(gs_vision_image_tokens(&r, 201, 1, &im, &why) == -1);
		CHECK(why && strstr(why, "ratio above 200") != NULL);
		free(why);
		why = NULL;
		CHECK(gs_vision_image_tokens(&r, 200, 1, &im, &why) == 0);
		CHECK(gs_vision_image_tokens(&r, 0, 10, &im, &why) == -1);
		free(why);
		why = NULL;
		gs_vision_rules_release(&r);
	}
	free(why);
	gs_model_release(&m);
	gs_diag_release(&d);
	free(p);
}

/* A model without a vision tower has no image rules; a missing
 * preprocessor_config.json gives the processor's defaults. */
static void S_test_none(void)
{
	char *p = gs_xasprintf("%s/tests/data/models/qwen3-8b", GS_TEST_SOURCE_DIR);
	gs_model m;
	gs_diag d = GS_DIAG_INIT;
	gs_vision_rules r;
	gs_vision_image im;
	char *why = NULL;

	if (CHECK(gs_model_read(p, &m, &d) == 0)) {
		CHECK(gs_vision_rules_read(&m, &r, &why) == -1);
		CHECK(why && strstr(why, "no vision tower") != NULL);
		free(why);
		why = NULL;
		/* the defaults: 1,003,520 pixels at most; 1,280 x 720 within them */
		m.has_vision = 1;
		m.vision_patch = 14;
		m.vision_merge = 2;
		free(m.folder);
		m.folder = NULL;
		if (CHECK(gs_vision_rules_read(&m, &r, &why) == 0)) {
			CHECK_INT(r.from_file, 0);
			CHECK_U64(r.max_pixels, 1003520);
			CHECK_U64(r.min_pixels, 3136);
			/* 4,000 x 3,000 above the default bound: beta = sqrt(12,000,000 /
			 * 1,003,520) = 3.4580; 3,000 / beta / 28 = 30.98 -> 30 x 28 = 840;
			 * 4,000 / beta / 28 = 41.3 -> 41 x 28 = 1,148; 60 x 82 / 4 = 1,230 */
			if (CHECK(gs_vision_image_tokens(&r, 4000, 3000, &im, &why) == 0)) {
				CHECK_U64(im.rheight, 840);
				CHECK_U64(im.rwidth, 1148);
				CHECK_U64(im.tokens, 1230);
			}
		}
		free(why);
		gs_model_release(&m);
	}
	gs_diag_release(&d);
	free(p);
}

/*
 * Gemma 3 (tests/data/models/medgemma-27b-it, config.json only): every image
 * is resized to vision_config.image_size 896 and pooled into
 * mm_tokens_per_image 256 tokens, between a start and an end marker with a
 * line break each side: 256 + 4 = 260 tokens at most, whatever its size.
 * Pan and scan on (a preprocessor_config.json saying so) is refused.
 */
static void S_test_gemma3(void)
{
	static const uint64_t sides[][2] = { { 1280, 720 }, { 896, 896 }, { 1, 1000 }, { 8000, 6000 } };
	char *p = gs_xasprintf("%s/tests/data/models/medgemma-27b-it", GS_TEST_SOURCE_DIR);
	char *dir = NULL, *cfg = NULL, *why = NULL;
	gs_model m;
	gs_diag d = GS_DIAG_INIT;
	gs_vision_rules r;
	gs_vision_image im;
	size_t i;
	FILE *f;

	if (CHECK(gs_model_read(p, &m, &d) == 0)) {
		CHECK_U64(m.vision_image_size, 896);
		CHECK_U64(m.vision_image_tokens, 256);
		if (CHECK(gs_vision_rules_read(&m, &r, &why) == 0)) {
			CHECK_INT(r.from_file, 0);
			CHECK_U64(r.fixed, 260);
			for (i = 0; i < sizeof(sides) / sizeof(sides[0]); i++)
				if (CHECK(gs_vision_image_tokens(&r, sides[i][0], sides[i][1], &im, &why) == 0)) {
					CHECK_U64(im.rwidth, 896);
					CHECK_U64(im.rheight, 896);
					CHECK_U64(im.tokens, 260);
				}
			gs_vision_rules_release(&r);
		}
		/* pan and scan on: refused, the file named */
		dir = gs_xstrdup("/tmp/gs-test-vision-XXXXXX");
		if (CHECK(mkdtemp(dir) != NULL)) {
			cfg = gs_xasprintf("%s/preprocessor_config.json", dir);
			f = fopen(cfg, "w");
			if (CHECK(f != NULL)) {
				fputs("{\"do_pan_and_scan\": true}\n", f);
				fclose(f);
			}
			free(m.folder);
			m.folder = gs_xstrdup(dir);
			CHECK(gs_vision_rules_read(&m, &r, &why) == -1);
			CHECK(why && strstr(why, "do_pan_and_scan is true") != NULL);
			free(why);
			why = NULL;
			f = fopen(cfg, "w");
			if (CHECK(f != NULL)) {
				fputs("{\"do_pan_and_scan\": false}\n", f);
				fclose(f);
			}
			if (CHECK(gs_vision_rules_read(&m, &r, &why) == 0)) {
				CHECK_INT(r.from_file, 1);
				CHECK_U64(r.fixed, 260);
				gs_vision_rules_release(&r);
			}
			remove(cfg);
			rmdir(dir);
		}
		free(why);
		free(cfg);
		free(dir);
		gs_model_release(&m);
	}
	gs_diag_release(&d);
	free(p);
}

int main(void)
{
	S_test_qwen();
	S_test_gemma3();
	S_test_none();
	return gs_check_exit("test_vision");
}
