/*
 * mock_cuda: a stand-in for the CUDA runtime, cuBLAS and the probe's
 * kernels, so that the probe's own logic (phases, counters, failures,
 * files, sweep) runs end to end on a machine without a GPU.
 *
 * It models one device with a memory pool: allocations count as used
 * bytes, the pool reserves in 2 MiB steps and never releases (the probe sets
 * the release threshold to UINT64_MAX), an allocation beyond the device's
 * capacity fails with cudaErrorMemoryAllocation, a high watermark reset
 * sets it to 0. Nothing is computed. Controlled by the environment:
 *   PROBE_MOCK_DEVICES   visible devices (default 1; 0 gives cudaErrorNoDevice)
 *   PROBE_MOCK_TOTAL     device bytes (default 8 GiB)
 *   PROBE_MOCK_FAIL_SYNC the Nth cudaDeviceSynchronize returns
 *                        cudaErrorIllegalAddress, which then sticks
 * The files written through it say synthetic: true (PROBE_MOCK in the build).
 */
#define _POSIX_C_SOURCE 200809L
#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe_kernels.h"

#define S_GRAIN (UINT64_C(2) << 20)
#define S_CONTEXT_BYTES (UINT64_C(300) << 20)
#define S_BLAS_BYTES (UINT64_C(8) << 20)
#define S_MAX_ALLOCS 65536

static struct {
	int init;
	uint64_t total, used, reserved, used_high, reserved_high, threshold;
	int context, blas, syncs, fail_sync;
	cudaError_t sticky, last;
	struct {
		char *p;
		uint64_t size;
	} allocs[S_MAX_ALLOCS];
} S;

static char S_tag_pool, S_tag_stream, S_tag_blas;

static uint64_t S_env(const char *name, uint64_t def)
{
	const char *v = getenv(name);

	return v && *v ? strtoull(v, NULL, 10) : def;
}

static void S_init(void)
{
	if (S.init)
		return;
	S.init = 1;
	S.total = S_env("PROBE_MOCK_TOTAL", UINT64_C(8) << 30);
	S.fail_sync = (int)S_env("PROBE_MOCK_FAIL_SYNC", 0);
}

static cudaError_t S_ret(cudaError_t e)
{
	if (e != cudaSuccess)
		S.last = e;
	return e;
}

/* Every device call: fails once the context is broken. */
#define S_ENTER() \
	do { \
		S_init(); \
		if (S.sticky != cudaSuccess) \
			return S_ret(S.sticky); \
	} while (0)

static uint64_t S_device_used(void)
{
	return (S.context ? S_CONTEXT_BYTES : 0) + (S.blas ? S_BLAS_BYTES : 0) + S.reserved;
}

const char *cudaGetErrorName(cudaError_t e)
{
	switch (e) {
	case cudaSuccess: return "cudaSuccess";
	case cudaErrorMemoryAllocation: return "cudaErrorMemoryAllocation";
	case cudaErrorNoDevice: return "cudaErrorNoDevice";
	case cudaErrorIllegalAddress: return "cudaErrorIllegalAddress";
	case cudaErrorInvalidValue: return "cudaErrorInvalidValue";
	default: return "cudaErrorUnknown";
	}
}

const char *cudaGetErrorString(cudaError_t e)
{
	switch (e) {
	case cudaSuccess: return "no error";
	case cudaErrorMemoryAllocation: return "out of memory";
	case cudaErrorNoDevice: return "no CUDA-capable device is detected";
	case cudaErrorIllegalAddress: return "an illegal memory access was encountered";
	case cudaErrorInvalidValue: return "invalid argument";
	default: return "unknown error";
	}
}

cudaError_t cudaGetLastError(void)
{
	cudaError_t e;

	S_init();
	e = S.sticky != cudaSuccess ? S.sticky : S.last;
	S.last = cudaSuccess;
	return e;
}

cudaError_t cudaGetDeviceCount(int *count)
{
	S_init();
	*count = (int)S_env("PROBE_MOCK_DEVICES", 1);
	if (*count == 0)
		return S_ret(cudaErrorNoDevice);
	return cudaSuccess;
}

cudaError_t cudaSetDevice(int device)
{
	S_ENTER();
	(void)device;
	S.context = 1;
	return cudaSuccess;
}

cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device)
{
	S_ENTER();
	memset(prop, 0, sizeof(*prop));
	snprintf(prop->name, sizeof(prop->name), "Mock GPU %d (no hardware)", device);
	return cudaSuccess;
}

cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device)
{
	S_ENTER();
	(void)device;
	switch (attr) {
	case cudaDevAttrComputeCapabilityMajor: *value = 9; break;
	case cudaDevAttrComputeCapabilityMinor: *value = 0; break;
	case cudaDevAttrMemoryPoolsSupported: *value = 1; break;
	default: return S_ret(cudaErrorInvalidValue);
	}
	return cudaSuccess;
}

cudaError_t cudaMemGetInfo(size_t *free_b, size_t *total_b)
{
	S_ENTER();
	S.context = 1;
	*total_b = (size_t)S.total;
	*free_b = (size_t)(S.total - S_device_used());
	return cudaSuccess;
}

cudaError_t cudaDriverGetVersion(int *v)
{
	*v = 13000;
	return cudaSuccess;
}

cudaError_t cudaRuntimeGetVersion(int *v)
{
	*v = 13000;
	return cudaSuccess;
}

cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t *pool, int device)
{
	S_ENTER();
	(void)device;
	*pool = (cudaMemPool_t)(void *)&S_tag_pool;
	return cudaSuccess;
}

cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t pool, enum cudaMemPoolAttr attr, void *value)
{
	uint64_t v;

	S_ENTER();
	(void)pool;
	memcpy(&v, value, sizeof(v));
	switch (attr) {
	case cudaMemPoolAttrReleaseThreshold: S.threshold = v; break;
	case cudaMemPoolAttrUsedMemHigh:
	case cudaMemPoolAttrReservedMemHigh:
		if (v != 0)
			return S_ret(cudaErrorInvalidValue);
		if (attr == cudaMemPoolAttrUsedMemHigh)
			S.used_high = 0;
		else
			S.reserved_high = 0;
		break;
	default: return S_ret(cudaErrorInvalidValue);
	}
	return cudaSuccess;
}

cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t pool, enum cudaMemPoolAttr attr, void *value)
{
	uint64_t v;

	S_ENTER();
	(void)pool;
	switch (attr) {
	case cudaMemPoolAttrReleaseThreshold: v = S.threshold; break;
	case cudaMemPoolAttrUsedMemCurrent: v = S.used; break;
	case cudaMemPoolAttrUsedMemHigh: v = S.used_high; break;
	case cudaMemPoolAttrReservedMemCurrent: v = S.reserved; break;
	case cudaMemPoolAttrReservedMemHigh: v = S.reserved_high; break;
	default: return S_ret(cudaErrorInvalidValue);
	}
	memcpy(value, &v, sizeof(v));
	return cudaSuccess;
}

cudaError_t cudaStreamCreateWithFlags(cudaStream_t *stream, unsigned int flags)
{
	S_ENTER();
	(void)flags;
	*stream = (cudaStream_t)(void *)&S_tag_stream;
	return cudaSuccess;
}

cudaError_t cudaStreamSynchronize(cudaStream_t stream)
{
	S_ENTER();
	(void)stream;
	return cudaSuccess;
}

cudaError_t cudaStreamDestroy(cudaStream_t stream)
{
	S_ENTER();
	(void)stream;
	return cudaSuccess;
}

cudaError_t cudaDeviceSynchronize(void)
{
	S_ENTER();
	if (++S.syncs == S.fail_sync) {
		S.sticky = cudaErrorIllegalAddress;
		return S_ret(S.sticky);
	}
	return cudaSuccess;
}

cudaError_t cudaMallocAsync(void **p, size_t size, cudaStream_t stream)
{
	uint64_t need, grow = 0;
	int i;

	S_ENTER();
	(void)stream;
	need = S.used + size;
	if (need > S.reserved)
		grow = (need - S.reserved + S_GRAIN - 1) / S_GRAIN * S_GRAIN;
	if (size > S.total || S_device_used() + grow > S.total)
		return S_ret(cudaErrorMemoryAllocation);
	for (i = 0; i < S_MAX_ALLOCS && S.allocs[i].p; i++)
		;
	if (i == S_MAX_ALLOCS || !(S.allocs[i].p = malloc(1)))
		return S_ret(cudaErrorMemoryAllocation);
	S.allocs[i].size = size;
	S.used += size;
	S.reserved += grow;
	if (S.used > S.used_high)
		S.used_high = S.used;
	if (S.reserved > S.reserved_high)
		S.reserved_high = S.reserved;
	*p = S.allocs[i].p;
	return cudaSuccess;
}

cudaError_t cudaFreeAsync(void *p, cudaStream_t stream)
{
	int i;

	S_ENTER();
	(void)stream;
	for (i = 0; i < S_MAX_ALLOCS; i++)
		if (S.allocs[i].p == p && p) {
			S.used -= S.allocs[i].size;
			free(S.allocs[i].p);
			S.allocs[i].p = NULL;
			/* a threshold below UINT64_MAX would hand memory back */
			if (S.threshold != UINT64_MAX)
				S.reserved = (S.used + S_GRAIN - 1) / S_GRAIN * S_GRAIN;
			return cudaSuccess;
		}
	return S_ret(cudaErrorInvalidValue);
}

cudaError_t cudaMemsetAsync(void *p, int value, size_t count, cudaStream_t stream)
{
	S_ENTER();
	(void)p;
	(void)value;
	(void)count;
	(void)stream;
	return cudaSuccess;
}

cudaError_t probe_fill_uniform(probe_dtype dtype, void *p, size_t n, uint64_t seed,
			       uint64_t stream_id, float scale, cudaStream_t stream)
{
	S_ENTER();
	(void)dtype; (void)p; (void)n; (void)seed; (void)stream_id; (void)scale; (void)stream;
	return cudaSuccess;
}

cudaError_t probe_gelu_tanh(probe_dtype dtype, void *p, size_t n, cudaStream_t stream)
{
	S_ENTER();
	(void)dtype; (void)p; (void)n; (void)stream;
	return cudaSuccess;
}

cudaError_t probe_gelu_tanh_out(probe_dtype dtype, const void *in, void *out, size_t n,
				cudaStream_t stream)
{
	S_ENTER();
	(void)dtype; (void)in; (void)out; (void)n; (void)stream;
	return cudaSuccess;
}

cudaError_t probe_gelu_tanh_backward(probe_dtype dtype, const void *z, void *grad, size_t n,
				     cudaStream_t stream)
{
	S_ENTER();
	(void)dtype; (void)z; (void)grad; (void)n; (void)stream;
	return cudaSuccess;
}

cudaError_t probe_mse_grad(probe_dtype dtype, const void *y, const void *target, void *grad,
			   size_t n, float scale, cudaStream_t stream)
{
	S_ENTER();
	(void)dtype; (void)y; (void)target; (void)grad; (void)n; (void)scale; (void)stream;
	return cudaSuccess;
}

cudaError_t probe_sgd_step(probe_dtype dtype, void *w, const void *g, size_t n, float lr,
			   cudaStream_t stream)
{
	S_ENTER();
	(void)dtype; (void)w; (void)g; (void)n; (void)lr; (void)stream;
	return cudaSuccess;
}

cudaError_t probe_adam_step(probe_dtype dtype, void *w, const void *g, void *m, void *v, size_t n,
			    float lr, float b1, float b2, float eps, float bc1, float bc2,
			    cudaStream_t stream)
{
	S_ENTER();
	(void)dtype; (void)w; (void)g; (void)m; (void)v; (void)n; (void)lr; (void)b1; (void)b2;
	(void)eps; (void)bc1; (void)bc2; (void)stream;
	return cudaSuccess;
}

/*** cuBLAS ***/

const char *cublasGetStatusName(cublasStatus_t s)
{
	return s == CUBLAS_STATUS_SUCCESS ? "CUBLAS_STATUS_SUCCESS" : "CUBLAS_STATUS_EXECUTION_FAILED";
}

const char *cublasGetStatusString(cublasStatus_t s)
{
	return s == CUBLAS_STATUS_SUCCESS ? "success" : "the GPU program failed to execute";
}

cublasStatus_t cublasGetProperty(libraryPropertyType type, int *value)
{
	*value = type == MAJOR_VERSION ? 13 : 0;
	return CUBLAS_STATUS_SUCCESS;
}

static cublasStatus_t S_blas(void)
{
	S_init();
	return S.sticky != cudaSuccess ? CUBLAS_STATUS_EXECUTION_FAILED : CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasCreate(cublasHandle_t *h)
{
	*h = (cublasHandle_t)(void *)&S_tag_blas;
	S.blas = 1;
	return S_blas();
}

cublasStatus_t cublasDestroy(cublasHandle_t h)
{
	(void)h;
	S.blas = 0;
	return S_blas();
}

cublasStatus_t cublasSetStream(cublasHandle_t h, cudaStream_t stream)
{
	(void)h;
	(void)stream;
	return S_blas();
}

cublasStatus_t cublasSetWorkspace(cublasHandle_t h, void *w, size_t size)
{
	(void)h;
	(void)w;
	(void)size;
	return S_blas();
}

cublasStatus_t cublasSgemm(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb,
			   int m, int n, int k, const float *alpha, const float *a, int lda,
			   const float *b, int ldb, const float *beta, float *c, int ldc)
{
	(void)h; (void)ta; (void)tb; (void)m; (void)n; (void)k; (void)alpha; (void)a;
	(void)lda; (void)b; (void)ldb; (void)beta; (void)c; (void)ldc;
	return S_blas();
}

cublasStatus_t cublasGemmEx(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb,
			    int m, int n, int k, const void *alpha, const void *a, cudaDataType at,
			    int lda, const void *b, cudaDataType bt, int ldb, const void *beta,
			    void *c, cudaDataType ct, int ldc, cublasComputeType_t compute,
			    cublasGemmAlgo_t algo)
{
	(void)h; (void)ta; (void)tb; (void)m; (void)n; (void)k; (void)alpha; (void)a;
	(void)at; (void)lda; (void)b; (void)bt; (void)ldb; (void)beta; (void)c; (void)ct;
	(void)ldc; (void)compute; (void)algo;
	return S_blas();
}
