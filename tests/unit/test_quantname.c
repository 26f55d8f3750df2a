/*
 * Unit tests of the quantization names (gen/read/quantname.h): the names
 * vLLM prints in its configuration line (quantization=..., the methods of
 * vllm/model_executor/layers/quantization/__init__.py and the Marlin
 * overrides it chooses at start), the GGML types llama.cpp names, and how
 * each compares with a workload's weights.storage_format.
 */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "quantname.h"

static void S_is(const char *name, const char *family, unsigned bits, const char *kernel)
{
	gs_quantname q;

	if (!CHECK(gs_quantname_parse(name, &q) == 0)) {
		fprintf(stderr, "  %s: not known\n", name);
		return;
	}
	if (!CHECK(strcmp(q.family, family) == 0))
		fprintf(stderr, "  %s: family %s, want %s\n", name, q.family, family);
	CHECK_INT(q.bits, bits);
	CHECK(kernel ? q.kernel && strcmp(q.kernel, kernel) == 0 : q.kernel == NULL);
}

int main(void)
{
	gs_quantname q;

	/* vLLM's names, as its configuration line prints them */
	S_is("awq", "awq", 4, NULL);
	S_is("awq_marlin", "awq", 4, "marlin");
	S_is("gptq", "gptq", 0, NULL);            /* 2, 3, 4 or 8: the checkpoint says */
	S_is("gptq_marlin", "gptq", 0, "marlin");
	S_is("gptq_marlin_24", "gptq", 4, "marlin");
	S_is("fp8", "fp8", 8, NULL);
	S_is("fbgemm_fp8", "fp8", 8, NULL);
	S_is("compressed-tensors", "compressed-tensors", 0, NULL);
	S_is("compressed_tensors", "compressed-tensors", 0, NULL);
	S_is("bitsandbytes", "bitsandbytes", 0, NULL);
	S_is("experts_int8", "int8", 8, NULL);
	S_is("mxfp4", "mxfp4", 4, NULL);
	S_is("modelopt_fp4", "nvfp4", 4, NULL);
	S_is("None", "none", 0, NULL);
	/* GGML types and llama.cpp's file types: the bits from the digit */
	S_is("Q4_K_M", "gguf", 4, NULL);
	S_is("q4_0", "gguf", 4, NULL);
	S_is("Q8_0", "gguf", 8, NULL);
	S_is("q5_k_s", "gguf", 5, NULL);
	S_is("IQ4_XS", "gguf", 4, NULL);
	S_is("q6_K", "gguf", 6, NULL);
	/* unknown: refused, never guessed */
	CHECK(gs_quantname_parse("awq2", &q) != 0);
	CHECK(gs_quantname_parse("q9_0", &q) != 0);
	CHECK(gs_quantname_parse("q40", &q) != 0);
	CHECK(gs_quantname_parse("", &q) != 0);
	CHECK(gs_quantname_parse(NULL, &q) != 0);
	CHECK(gs_quantname_parse("a-name-longer-than-the-sixty-four-bytes-that-a-quantization-name-may-have", &q) != 0);

	/* a log's name against a workload's storage format */
	CHECK_INT(gs_quantname_matches("awq_marlin", "int4-awq"), 1);
	CHECK_INT(gs_quantname_matches("awq", "int4-awq"), 1);
	CHECK_INT(gs_quantname_matches("gptq_marlin", "int4-gptq"), 1);
	CHECK_INT(gs_quantname_matches("gptq_marlin", "int8-gptq"), 1);   /* the name says no bits */
	CHECK_INT(gs_quantname_matches("gptq_marlin_24", "int8-gptq"), 0);/* 4 bits against 8 */
	CHECK_INT(gs_quantname_matches("fp8", "fp8"), 1);
	CHECK_INT(gs_quantname_matches("fp8", "float8-e4m3"), 1);
	CHECK_INT(gs_quantname_matches("fp8", "bf16"), 0);
	CHECK_INT(gs_quantname_matches("awq_marlin", "int4-gptq"), 0);
	CHECK_INT(gs_quantname_matches("bitsandbytes", "int4-nf4"), 1);
	CHECK_INT(gs_quantname_matches("Q4_K_M", "GGUF Q4_K"), 1);
	CHECK_INT(gs_quantname_matches("Q8_0", "GGUF Q4_K"), 0);
	CHECK_INT(gs_quantname_matches("gguf", "GGUF Q4_K"), 1);
	CHECK_INT(gs_quantname_matches("mxfp4", "mxfp4"), 1);
	/* cannot tell: the checkpoint's configuration says, or the name is unknown */
	CHECK_INT(gs_quantname_matches("compressed-tensors", "fp8"), -1);
	CHECK_INT(gs_quantname_matches("someday-quant", "fp8"), -1);
	return gs_check_exit("test_quantname");
}
