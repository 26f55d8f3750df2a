/*
 * probe_kernels: the probe's own CUDA kernels, callable from C.
 *
 * Every launcher enqueues work on `stream` and returns the launch status
 * (cudaGetLastError after the launch); errors during execution surface at
 * the next synchronisation, as with any CUDA work.
 */
#ifndef PROBE_KERNELS_H
#define PROBE_KERNELS_H

#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
	PROBE_DTYPE_FLOAT32 = 0,
	PROBE_DTYPE_FLOAT16 = 1,
	PROBE_DTYPE_BFLOAT16 = 2
} probe_dtype;

/*
 * Fills n elements of `dtype` at p with values uniform in [-scale, scale),
 * a pure function of (seed, stream_id, index): the same arguments give the
 * same tensor on every device and every run.
 */
cudaError_t probe_fill_uniform(probe_dtype dtype, void *p, size_t n, uint64_t seed,
			       uint64_t stream_id, float scale, cudaStream_t stream);

/* GELU (tanh approximation) in place over n elements. */
cudaError_t probe_gelu_tanh(probe_dtype dtype, void *p, size_t n, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif
