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
