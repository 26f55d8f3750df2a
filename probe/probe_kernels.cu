// probe_kernels: deterministic fill and the activation of the probe's network.
#include "probe_kernels.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

namespace {

// SplitMix64 finaliser: a good 64-bit mix of (seed, stream, index).
__device__ __forceinline__ uint64_t mix64(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

__device__ __forceinline__ void store(float *p, size_t i, float v) { p[i] = v; }
__device__ __forceinline__ void store(__half *p, size_t i, float v) { p[i] = __float2half_rn(v); }
__device__ __forceinline__ void store(__nv_bfloat16 *p, size_t i, float v) { p[i] = __float2bfloat16_rn(v); }

__device__ __forceinline__ float load(const float *p, size_t i) { return p[i]; }
__device__ __forceinline__ float load(const __half *p, size_t i) { return __half2float(p[i]); }
__device__ __forceinline__ float load(const __nv_bfloat16 *p, size_t i) { return __bfloat162float(p[i]); }

template <typename T>
__global__ void fill_uniform(T *p, size_t n, uint64_t key, float scale)
{
	size_t stride = (size_t)gridDim.x * blockDim.x;

	for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
		// top 24 bits -> [0, 1) exactly representable in float
		float u = (float)(mix64(key ^ mix64(i)) >> 40) * (1.0f / 16777216.0f);
		store(p, i, (2.0f * u - 1.0f) * scale);
	}
}

template <typename T>
__global__ void gelu_tanh(T *p, size_t n)
{
	const float k = 0.7978845608028654f; // sqrt(2 / pi)
	size_t stride = (size_t)gridDim.x * blockDim.x;

	for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
		float x = load(p, i);
		store(p, i, 0.5f * x * (1.0f + tanhf(k * (x + 0.044715f * x * x * x))));
	}
}

constexpr unsigned kThreads = 256;

// Grid-stride loops: a bounded grid covers any n.
unsigned blocks_for(size_t n)
{
	size_t b = (n + kThreads - 1) / kThreads;
	const size_t cap = 65535u * 8u;
	if (b == 0)
		b = 1;
	return (unsigned)(b < cap ? b : cap);
}

} // namespace

extern "C" cudaError_t probe_fill_uniform(probe_dtype dtype, void *p, size_t n, uint64_t seed,
					  uint64_t stream_id, float scale, cudaStream_t stream)
{
	uint64_t key = seed * 0x100000001b3ULL ^ (stream_id + 0x51ed270b27e5d0c3ULL);

	if (n == 0)
		return cudaSuccess;
	switch (dtype) {
	case PROBE_DTYPE_FLOAT32:
		fill_uniform<<<blocks_for(n), kThreads, 0, stream>>>(static_cast<float *>(p), n, key, scale);
		break;
	case PROBE_DTYPE_FLOAT16:
		fill_uniform<<<blocks_for(n), kThreads, 0, stream>>>(static_cast<__half *>(p), n, key, scale);
		break;
	case PROBE_DTYPE_BFLOAT16:
		fill_uniform<<<blocks_for(n), kThreads, 0, stream>>>(static_cast<__nv_bfloat16 *>(p), n, key, scale);
		break;
	default:
		return cudaErrorInvalidValue;
	}
	return cudaGetLastError();
}

extern "C" cudaError_t probe_gelu_tanh(probe_dtype dtype, void *p, size_t n, cudaStream_t stream)
{
	if (n == 0)
		return cudaSuccess;
	switch (dtype) {
	case PROBE_DTYPE_FLOAT32:
		gelu_tanh<<<blocks_for(n), kThreads, 0, stream>>>(static_cast<float *>(p), n);
		break;
	case PROBE_DTYPE_FLOAT16:
		gelu_tanh<<<blocks_for(n), kThreads, 0, stream>>>(static_cast<__half *>(p), n);
		break;
	case PROBE_DTYPE_BFLOAT16:
		gelu_tanh<<<blocks_for(n), kThreads, 0, stream>>>(static_cast<__nv_bfloat16 *>(p), n);
		break;
	default:
		return cudaErrorInvalidValue;
	}
	return cudaGetLastError();
}

/*** training ***/

namespace {

constexpr float kGeluK = 0.7978845608028654f; // sqrt(2 / pi)
constexpr float kGeluC = 0.044715f;

template <typename T>
__global__ void gelu_tanh_out(const T *in, T *out, size_t n)
{
	size_t stride = (size_t)gridDim.x * blockDim.x;

	for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
		float x = load(in, i);
		store(out, i, 0.5f * x * (1.0f + tanhf(kGeluK * (x + kGeluC * x * x * x))));
	}
}

// d/dx 0.5 x (1 + tanh(u)), u = k (x + c x^3):
// 0.5 (1 + tanh u) + 0.5 x (1 - tanh^2 u) k (1 + 3 c x^2)
template <typename T>
__global__ void gelu_tanh_backward(const T *z, T *grad, size_t n)
{
	size_t stride = (size_t)gridDim.x * blockDim.x;

	for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
		float x = load(z, i);
		float t = tanhf(kGeluK * (x + kGeluC * x * x * x));
		float d = 0.5f * (1.0f + t) + 0.5f * x * (1.0f - t * t) * kGeluK * (1.0f + 3.0f * kGeluC * x * x);
		store(grad, i, load(grad, i) * d);
	}
}

template <typename T>
__global__ void mse_grad(const T *y, const T *target, T *grad, size_t n, float scale)
{
	size_t stride = (size_t)gridDim.x * blockDim.x;

	for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
		store(grad, i, (load(y, i) - load(target, i)) * scale);
}

template <typename T>
__global__ void sgd_step(T *w, const T *g, size_t n, float lr)
{
	size_t stride = (size_t)gridDim.x * blockDim.x;

	for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
		store(w, i, load(w, i) - lr * load(g, i));
}

template <typename T>
__global__ void adam_step(T *w, const T *g, T *m, T *v, size_t n, float lr, float b1, float b2,
			  float eps, float bc1, float bc2)
{
	size_t stride = (size_t)gridDim.x * blockDim.x;

	for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
		float gi = load(g, i);
		float mi = b1 * load(m, i) + (1.0f - b1) * gi;
		float vi = b2 * load(v, i) + (1.0f - b2) * gi * gi;
		store(m, i, mi);
		store(v, i, vi);
		store(w, i, load(w, i) - lr * (mi / bc1) / (sqrtf(vi / bc2) + eps));
	}
}

} // namespace

// One switch over the storage type for every training launcher.
#define PROBE_DISPATCH(dtype, launch)                                   \
	do {                                                            \
		switch (dtype) {                                        \
		case PROBE_DTYPE_FLOAT32: { typedef float T; launch; break; }          \
		case PROBE_DTYPE_FLOAT16: { typedef __half T; launch; break; }         \
		case PROBE_DTYPE_BFLOAT16: { typedef __nv_bfloat16 T; launch; break; } \
		default: return cudaErrorInvalidValue;                  \
		}                                                       \
	} while (0)

extern "C" cudaError_t probe_gelu_tanh_out(probe_dtype dtype, const void *in, void *out, size_t n,
					   cudaStream_t stream)
{
	if (n == 0)
		return cudaSuccess;
	PROBE_DISPATCH(dtype, (gelu_tanh_out<<<blocks_for(n), kThreads, 0, stream>>>(
		static_cast<const T *>(in), static_cast<T *>(out), n)));
	return cudaGetLastError();
}

extern "C" cudaError_t probe_gelu_tanh_backward(probe_dtype dtype, const void *z, void *grad,
						size_t n, cudaStream_t stream)
{
	if (n == 0)
		return cudaSuccess;
	PROBE_DISPATCH(dtype, (gelu_tanh_backward<<<blocks_for(n), kThreads, 0, stream>>>(
		static_cast<const T *>(z), static_cast<T *>(grad), n)));
	return cudaGetLastError();
}

extern "C" cudaError_t probe_mse_grad(probe_dtype dtype, const void *y, const void *target,
				      void *grad, size_t n, float scale, cudaStream_t stream)
{
	if (n == 0)
		return cudaSuccess;
	PROBE_DISPATCH(dtype, (mse_grad<<<blocks_for(n), kThreads, 0, stream>>>(
		static_cast<const T *>(y), static_cast<const T *>(target), static_cast<T *>(grad),
		n, scale)));
	return cudaGetLastError();
}

extern "C" cudaError_t probe_sgd_step(probe_dtype dtype, void *w, const void *g, size_t n, float lr,
				      cudaStream_t stream)
{
	if (n == 0)
		return cudaSuccess;
	PROBE_DISPATCH(dtype, (sgd_step<<<blocks_for(n), kThreads, 0, stream>>>(
		static_cast<T *>(w), static_cast<const T *>(g), n, lr)));
	return cudaGetLastError();
}

extern "C" cudaError_t probe_adam_step(probe_dtype dtype, void *w, const void *g, void *m, void *v,
				       size_t n, float lr, float b1, float b2, float eps, float bc1,
				       float bc2, cudaStream_t stream)
{
	if (n == 0)
		return cudaSuccess;
	PROBE_DISPATCH(dtype, (adam_step<<<blocks_for(n), kThreads, 0, stream>>>(
		static_cast<T *>(w), static_cast<const T *>(g), static_cast<T *>(m),
		static_cast<T *>(v), n, lr, b1, b2, eps, bc1, bc2)));
	return cudaGetLastError();
}
