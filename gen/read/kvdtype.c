/* kvdtype: the widths a KV cache keeps its values in. */
#include "kvdtype.h"
#include "quantity.h"

#include <stddef.h>
#include <string.h>

static const gs_kvdtype S_table[] = {
	{ "fp16", 1, 2, "16-bit floats" },
	{ "bf16", 1, 2, "bfloat16" },
	{ "fp32", 1, 4, "32-bit floats" },
	{ "fp8", 1, 1, "an 8-bit cache, as vLLM's --kv-cache-dtype fp8 keeps it" },
	/* ggml/src/ggml-common.h: block_q8_0 is a ggml_half scale and QK8_0 =
	 * 32 int8 quants; block_q4_0 a ggml_half scale and QK4_0 / 2 = 16
	 * bytes of 4-bit quants */
	{ "q8_0", 32, 34, "llama.cpp's block_q8_0 of ggml-common.h, a 2 B fp16 scale and "
			  "32 int8 quants" },
	{ "q4_0", 32, 18, "llama.cpp's block_q4_0 of ggml-common.h, a 2 B fp16 scale and "
			  "16 B of 4-bit quants" },
};

const char *const gs_kvdtype_ids[] = { "fp16", "bf16", "fp32", "fp8", "q8_0", "q4_0", NULL };

const gs_kvdtype *gs_kvdtype_find(const char *name)
{
	size_t i;

	if (!name)
		return NULL;
	for (i = 0; i < sizeof(S_table) / sizeof(S_table[0]); i++)
		if (strcmp(S_table[i].name, name) == 0)
			return &S_table[i];
	return NULL;
}

const char *gs_kvdtype_names(void)
{
	return "fp16, bf16, fp32, fp8, q8_0 or q4_0";
}

int gs_kvdtype_is_block(const gs_kvdtype *t)
{
	return t && t->block_values > 1;
}

int gs_kvdtype_row_bytes(const gs_kvdtype *t, uint64_t values, uint64_t *out)
{
	if (!t || t->block_values == 0 || values % t->block_values != 0)
		return -1;
	return gs_qty_mul_u64(values / t->block_values, t->block_bytes, out);
}
