/*
 * quantname: the quantization names engines print, read into a family and
 * the weights' bits, so that a log's quantization is compared with a
 * workload's weights.storage_format by what it is, not by its spelling:
 * vLLM prints `quantization=awq_marlin` for an AWQ checkpoint run on the
 * Marlin kernel, `fp8` for an FP8 one, `compressed-tensors` for the
 * llm-compressor format; llama.cpp and GGUF files name `Q4_K_M`, `Q8_0`.
 *
 * Sources of the names: vLLM's QUANTIZATION_METHODS
 * (vllm/model_executor/layers/quantization/__init__.py) and its
 * override_quantization_method (awq_marlin, gptq_marlin, ...); the GGML
 * types of ggml/include/ggml.h and the file types of llama.cpp's
 * llama_model_ftype_name.
 *
 * Pure; case and '-' / '_' are not significant.
 */
#ifndef GS_QUANTNAME_H
#define GS_QUANTNAME_H

typedef struct {
	const char *family;   /* "awq", "gptq", "fp8", "int8", "bitsandbytes", "gguf",
			       * "compressed-tensors", "mxfp4", "nvfp4", "none" */
	unsigned bits;        /* the weights' bits the name says, 0: the name does not say */
	const char *kernel;   /* "marlin", "machete", "bitblas", or NULL */
} gs_quantname;

/* 0 with *out filled for a known name, -1 for a name this table does not know. */
int gs_quantname_parse(const char *name, gs_quantname *out);

/*
 * Whether a log's quantization name and a workload's storage format are
 * the same kind of weights: 1 yes, 0 no, -1 cannot tell (a name this
 * table does not know, or a family whose format the checkpoint's own
 * configuration says, such as compressed-tensors). Where both say the
 * bits, they must agree.
 */
int gs_quantname_matches(const char *log_name, const char *storage_format);

#endif
