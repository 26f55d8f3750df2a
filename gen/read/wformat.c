/* wformat: the weights' bytes in a checkpoint format (wformat.h). */
#include "wformat.h"

#include <string.h>

#include "util.h"

typedef unsigned __int128 u128;

static const struct {
	const char *name;
	const char *rule;
} S_fmt[GS_WF_COUNT] = {
	{ "bf16", "2 B a parameter" },
	{ "int8", "1 B a value and one 16-bit scale per output row (per-channel)" },
	{ "fp8", "1 B a value and one float32 scale per 128 x 128 tile (block quantisation, "
		 "as DeepSeek-V3 ships)" },
	{ "awq-int4", "4 bits a value packed in int32, groups of 128 input features, one "
		      "fp16 scale and one 4-bit zero point (packed in int32) per group (AutoAWQ)" },
	{ "gptq-int4", "4 bits a value packed in int32, groups of 128 input features, one "
		       "fp16 scale and one 4-bit zero point per group, and an int32 group "
		       "index per input feature (GPTQ)" },
	{ "mxfp4", "blocks of 32 values: 16 B of 4-bit values and an 8-bit E8M0 scale "
		   "(17/32 B a value, OCP MX)" },
	{ "nvfp4", "blocks of 16 values: 8 B of 4-bit values and an FP8 scale (9/16 B a "
		   "value), and two float32 global scales a matrix" },
};

int gs_wformat_find(const char *name)
{
	int i;

	for (i = 0; name && i < GS_WF_COUNT; i++)
		if (strcmp(S_fmt[i].name, name) == 0)
			return i;
	return -1;
}

const char *gs_wformat_names(void)
{
	return "bf16, int8, fp8, awq-int4, gptq-int4, mxfp4, nvfp4";
}

const char *gs_wformat_rule(gs_wformat_id id)
{
	return (unsigned)id < GS_WF_COUNT ? S_fmt[id].rule : "";
}

/* The bytes of one class of matrices in the format; -1 with *why. */
static int S_class(const gs_model_matrices *q, gs_wformat_id id, u128 *out, char **why)
{
	switch (id) {
	case GS_WF_BF16:
		*out = (u128)q->params * 2;
		return 0;
	case GS_WF_INT8:
		*out = (u128)q->params + (u128)q->rows * 2;
		return 0;
	case GS_WF_FP8:
		*out = (u128)q->params + (u128)q->tiles128 * 4;
		return 0;
	case GS_WF_AWQ_INT4:
	case GS_WF_GPTQ_INT4:
		/* int32 packing of 8 values along the rows (qweight of AWQ, the
		 * zero points of both) and, for GPTQ's qweight, along the columns;
		 * the groups whole */
		if (q->gcd_rows % 8 != 0 || q->gcd_cols % 128 != 0) {
			*why = gs_xasprintf("%s packs 8 values in an int32 and groups 128 input "
					    "features: the model's matrices have row counts that "
					    "are multiples of %llu and column counts of %llu, not "
					    "of 8 and 128", S_fmt[id].name,
					    (unsigned long long)q->gcd_rows,
					    (unsigned long long)q->gcd_cols);
			return -1;
		}
		*out = (u128)q->params / 2 + (u128)q->groups128 * 2 + (u128)q->groups128 / 2;
		if (id == GS_WF_GPTQ_INT4)
			*out += (u128)q->cols * 4;
		return 0;
	case GS_WF_MXFP4:
		*out = (u128)q->groups32 * 17;
		return 0;
	case GS_WF_NVFP4:
		*out = (u128)q->groups16 * 9 + (u128)q->matrices * 8;
		return 0;
	case GS_WF_COUNT:
		break;
	}
	*why = gs_xstrdup("unknown format");
	return -1;
}

int gs_wformat_bytes(const gs_model *m, gs_wformat_id id, gs_wformat_result *out, char **why)
{
	const gs_model_matrices *cls[2] = { &m->mat_experts, &m->mat_linear };
	u128 qbytes = 0, qparams = 0, total, b;
	size_t i, n = 2;

	memset(out, 0, sizeof(*out));
	*why = NULL;
	if ((unsigned)id >= GS_WF_COUNT) {
		*why = gs_xstrdup("unknown format");
		return -1;
	}
	out->id = id;
	out->name = S_fmt[id].name;
	if (!m->has_config_params || !m->has_matrices) {
		*why = gs_xasprintf("the weights in %s are calculated from the geometry of a "
				    "covered architecture (gpusheet model lists them), and "
				    "the model's files give none here", S_fmt[id].name);
		return -1;
	}
	if (id != GS_WF_BF16) {
		/* mxfp4 as gpt-oss ships it: the routed experts only */
		if (id == GS_WF_MXFP4 && m->mat_experts.params > 0) {
			n = 1;
			out->experts_only = 1;
		}
		for (i = 0; i < n; i++) {
			if (!cls[i]->params)
				continue;
			if (S_class(cls[i], id, &b, why))
				return -1;
			qbytes += b;
			qparams += cls[i]->params;
		}
	}
	total = qbytes + ((u128)m->config_params - qparams) * 2;
	if (qparams > m->config_params || total > UINT64_MAX) {
		*why = gs_xasprintf("the weights in %s overflow 64 bits", S_fmt[id].name);
		return -1;
	}
	out->bytes = (uint64_t)total;
	out->quant_params = (uint64_t)qparams;
	out->quant_bytes = (uint64_t)qbytes;
	out->kept_params = m->config_params - (uint64_t)qparams;
	out->kept_bytes = out->kept_params * 2;
	return 0;
}
