/*
 * test_wformat: the weights' bytes by checkpoint format (gen/read/wformat.c)
 * against figures worked by hand, and against a real checkpoint's index.
 *
 * gpt-oss-20b (tests/data/models/gpt-oss-20b, the real config.json and
 * index): 24 layers, hidden 2,880, 32 experts of intermediate 2,880. The
 * experts' matrices per layer: gate_up 32 x 5,760 x 2,880 and down
 * 32 x 2,880 x 2,880 = 32 x 2,880 x 8,640 = 796,262,400 values; x 24 =
 * 19,110,297,600. MXFP4: 17/32 B a value = 10,152,345,600 B. The rest of
 * the geometry's 20,914,757,184 parameters, 1,804,459,584, in bf16 =
 * 3,608,919,168 B. Sum: 13,761,264,768 B, the index's metadata.total_size
 * to the byte (the checkpoint stores the experts as *_blocks and *_scales).
 *
 * Qwen3-8B (tests/data/models/qwen3-8b): 36 layers, hidden 4,096, 32
 * heads and 8 KV heads of 128, intermediate 12,288, no attention bias.
 * A layer's matrices (rows x columns): q 4,096 x 4,096, k and v
 * 1,024 x 4,096, o 4,096 x 4,096, gate and up 12,288 x 4,096, down
 * 4,096 x 12,288: 192,937,984 values, 38,912 rows, 36,864 columns, 7
 * matrices. x 36: P = 6,945,767,424 values, 1,400,832 rows, 1,327,104
 * columns, 252 matrices. Every dimension is a multiple of 128, so the
 * groups of 128 are P / 128 = 54,263,808, of 32 P / 32 = 217,055,232, of
 * 16 P / 16 = 434,110,464, the 128 x 128 tiles P / 16,384 = 423,936.
 * Kept in bf16: 8,190,735,360 - P = 1,244,967,936 (embeddings and head
 * 2 x 151,936 x 4,096 = 1,244,659,712, norms 308,224) = 2,489,935,872 B.
 *   bf16       8,190,735,360 x 2                          = 16,381,470,720
 *   int8       P + 1,400,832 x 2 + 2,489,935,872           =  9,438,504,960
 *   fp8        P + 423,936 x 4 + 2,489,935,872             =  9,437,399,040
 *   awq-int4   P / 2 + 54,263,808 x 2.5 + 2,489,935,872    =  6,098,479,104
 *   gptq-int4  the same + 1,327,104 x 4                    =  6,103,787,520
 *   mxfp4      217,055,232 x 17 + 2,489,935,872            =  6,179,874,816
 *   nvfp4      434,110,464 x 9 + 252 x 8 + 2,489,935,872   =  6,396,932,064
 */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "model.h"
#include "wformat.h"

static int S_read(const char *folder, gs_model *m)
{
	char *p = gs_xasprintf("%s/tests/data/models/%s", GS_TEST_SOURCE_DIR, folder);
	gs_diag d = GS_DIAG_INIT;
	int rc = gs_model_read(p, m, &d);

	if (rc)
		gs_diag_print(&d, stderr);
	gs_diag_release(&d);
	free(p);
	return rc;
}

static void S_test_gpt_oss(void)
{
	gs_model m;
	gs_wformat_result r;
	char *why = NULL;

	if (!CHECK(S_read("gpt-oss-20b", &m) == 0))
		return;
	CHECK_INT(m.has_matrices, 1);
	CHECK_U64(m.mat_experts.params, 19110297600);
	CHECK_U64(m.mat_experts.groups32, 19110297600 / 32);
	if (CHECK(gs_wformat_bytes(&m, GS_WF_MXFP4, &r, &why) == 0)) {
		CHECK_INT(r.experts_only, 1);
		CHECK_U64(r.quant_bytes, 10152345600);
		CHECK_U64(r.kept_params, 1804459584);
		CHECK_U64(r.bytes, 13761264768);
		/* the real checkpoint's index */
		CHECK_INT(m.has_index_total, 1);
		CHECK_U64(r.bytes, m.index_total);
	}
	free(why);
	why = NULL;
	/* 2,880 columns are not whole groups of 128: refused, said why */
	CHECK(gs_wformat_bytes(&m, GS_WF_AWQ_INT4, &r, &why) == -1);
	CHECK(why && strstr(why, "multiples of") != NULL);
	free(why);
	gs_model_release(&m);
}

static void S_test_qwen3_8b(void)
{
	static const struct {
		gs_wformat_id id;
		const char *name;
		uint64_t bytes;
	} want[] = {
		{ GS_WF_BF16, "bf16", 16381470720 },
		{ GS_WF_INT8, "int8", 9438504960 },
		{ GS_WF_FP8, "fp8", 9437399040 },
		{ GS_WF_AWQ_INT4, "awq-int4", 6098479104 },
		{ GS_WF_GPTQ_INT4, "gptq-int4", 6103787520 },
		{ GS_WF_MXFP4, "mxfp4", 6179874816 },
		{ GS_WF_NVFP4, "nvfp4", 6396932064 },
	};
	gs_model m;
	gs_wformat_result r;
	char *why = NULL;
	size_t i;

	if (!CHECK(S_read("qwen3-8b", &m) == 0))
		return;
	CHECK_U64(m.mat_linear.params, 6945767424);
	CHECK_U64(m.mat_linear.rows, 1400832);
	CHECK_U64(m.mat_linear.cols, 1327104);
	CHECK_U64(m.mat_linear.matrices, 252);
	CHECK_U64(m.mat_linear.tiles128, 423936);
	CHECK_U64(m.mat_experts.params, 0);
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		CHECK_INT(gs_wformat_find(want[i].name), (int)want[i].id);
		if (CHECK(gs_wformat_bytes(&m, want[i].id, &r, &why) == 0)) {
			CHECK_U64(r.bytes, want[i].bytes);
			CHECK_U64(r.kept_params, want[i].id == GS_WF_BF16 ? 8190735360
									  : 1244967936);
			CHECK_INT(r.experts_only, 0);
		}
		free(why);
		why = NULL;
	}
	CHECK_INT(gs_wformat_find("int4"), -1);
	CHECK_INT(gs_wformat_find(NULL), -1);
	gs_model_release(&m);
}

/*
 * DeepSeek-R1 in fp8, its checkpoint's own rule (config.json's
 * quantization_config: fp8, weight_block_size 128 x 128), worked by hand
 * in tests/data/models/README.md: 669,065,609,216 values in 40,838,232
 * tiles, 1,960,809,984 parameters in bf16: 673,150,582,112 B.
 */
static void S_test_deepseek(void)
{
	gs_model m;
	gs_wformat_result r;
	char *why = NULL;

	if (!CHECK(S_read("deepseek-r1", &m) == 0))
		return;
	CHECK_STR(m.quant_method, "fp8");
	CHECK_U64(m.quant_block_rows, 128);
	CHECK_U64(m.quant_block_cols, 128);
	CHECK_U64(m.mat_linear.params + m.mat_experts.params, 669065609216);
	CHECK_U64(m.mat_linear.tiles128 + m.mat_experts.tiles128, 40838232);
	if (CHECK(gs_wformat_bytes(&m, GS_WF_FP8, &r, &why) == 0)) {
		CHECK_U64(r.kept_params, 1960809984);
		CHECK_U64(r.bytes, 673150582112);
	}
	free(why);
	gs_model_release(&m);
}

/* A model without a covered geometry: no format can be calculated. */
static void S_test_no_geometry(void)
{
	gs_model m;
	gs_wformat_result r;
	char *why = NULL;

	memset(&m, 0, sizeof(m));
	CHECK(gs_wformat_bytes(&m, GS_WF_NVFP4, &r, &why) == -1);
	CHECK(why && strstr(why, "covered architecture") != NULL);
	free(why);
}

int main(void)
{
	S_test_gpt_oss();
	S_test_qwen3_8b();
	S_test_deepseek();
	S_test_no_geometry();
	return gs_check_exit("test_wformat");
}
