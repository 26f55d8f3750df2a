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

/*
 * Training (gpusheet-probe train). Arithmetic in float, storage in `dtype`.
 *   gelu_tanh_out:      out[i] = gelu(in[i])
 *   gelu_tanh_backward: grad[i] *= gelu'(z[i]), in place
 *   mse_grad:           grad[i] = (y[i] - target[i]) * scale
 *                       (scale = 1/rows: the gradient of 0.5 * sum / rows)
 *   sgd_step:           w[i] -= lr * g[i]
 *   adam_step:          m = b1 m + (1 - b1) g; v = b2 v + (1 - b2) g^2;
 *                       w -= lr * (m / bc1) / (sqrt(v / bc2) + eps),
 *                       bc1 = 1 - b1^t and bc2 = 1 - b2^t at step t
 */
cudaError_t probe_gelu_tanh_out(probe_dtype dtype, const void *in, void *out, size_t n,
				cudaStream_t stream);
cudaError_t probe_gelu_tanh_backward(probe_dtype dtype, const void *z, void *grad, size_t n,
				     cudaStream_t stream);
cudaError_t probe_mse_grad(probe_dtype dtype, const void *y, const void *target, void *grad,
			   size_t n, float scale, cudaStream_t stream);
cudaError_t probe_sgd_step(probe_dtype dtype, void *w, const void *g, size_t n, float lr,
			   cudaStream_t stream);
cudaError_t probe_adam_step(probe_dtype dtype, void *w, const void *g, void *m, void *v, size_t n,
			    float lr, float b1, float b2, float eps, float bc1, float bc2,
			    cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif
