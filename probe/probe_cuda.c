/* probe_cuda: device information and the measured phases of the dense network. */
#define _POSIX_C_SOURCE 200809L
#include "probe_cuda.h"

#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "probe_nvml.h"

/* cuBLAS's documented workspace recommendation: 32 MiB on Hopper and
 * newer, 4 MiB before. */
#define S_WORKSPACE_HOPPER (UINT64_C(32) << 20)
#define S_WORKSPACE_OLDER (UINT64_C(4) << 20)

/* The pool's release threshold as set (UINT64_MAX: never release), as
 * text: the measurement's integers stop at INT64_MAX. */
#define S_KEEP_TEXT "18446744073709551615"

static void S_cuda_text(char *buf, size_t size, const char *what, cudaError_t e)
{
	snprintf(buf, size, "%s: %s (%s)", what, cudaGetErrorString(e), cudaGetErrorName(e));
}

static void S_blas_text(char *buf, size_t size, const char *what, cublasStatus_t s)
{
	snprintf(buf, size, "%s: %s (%s)", what, cublasGetStatusString(s), cublasGetStatusName(s));
}

static void S_version(char *buf, size_t size, int v)
{
	/* CUDA encodes 13.0 as 13000 */
	snprintf(buf, size, "%d.%d", v / 1000, (v % 1000) / 10);
}

int probe_cuda_check_device(uint64_t index, int *count, char *why, size_t whylen)
{
	int n = 0;
	cudaError_t e = cudaGetDeviceCount(&n);

	if (e == cudaErrorInsufficientDriver) {
		S_cuda_text(why, whylen, "no usable CUDA driver", e);
		return -1;
	}
	if (e == cudaErrorNoDevice) {
		S_cuda_text(why, whylen, "no CUDA device", e);
		return -1;
	}
	if (e != cudaSuccess) {
		S_cuda_text(why, whylen, "CUDA is not available", e);
		return -1;
	}
	if (n <= 0) {
		snprintf(why, whylen, "no CUDA device visible");
		return -1;
	}
	if (index >= (uint64_t)n) {
		snprintf(why, whylen, "device cuda:%" PRIu64 " not found: %d device%s visible (cuda:0%s)",
			 index, n, n == 1 ? "" : "s", n == 1 ? "" : " and up");
		return -1;
	}
	if (count)
		*count = n;
	return 0;
}

int probe_cuda_environment(uint64_t index, probe_env *e, char *why, size_t whylen)
{
	struct cudaDeviceProp prop;
	size_t free_b = 0, total_b = 0;
	int dev, n = 0, v = 0, major = 0, minor = 0, patch = 0, pools = 0;
	cudaError_t err;

	memset(e, 0, sizeof(*e));
	if (probe_cuda_check_device(index, &n, why, whylen) != 0)
		return -1;
	dev = (int)index;
	e->index = index;
	e->device_count = (uint64_t)n;
	err = cudaSetDevice(dev);
	if (err != cudaSuccess) {
		S_cuda_text(why, whylen, "cudaSetDevice", err);
		return -1;
	}
	err = cudaGetDeviceProperties(&prop, dev);
	if (err != cudaSuccess) {
		S_cuda_text(why, whylen, "cudaGetDeviceProperties", err);
		return -1;
	}
	snprintf(e->name, sizeof(e->name), "%.*s", (int)sizeof(prop.name), prop.name);
	if (cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev) == cudaSuccess &&
	    cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev) == cudaSuccess)
		snprintf(e->compute_capability, sizeof(e->compute_capability), "%d.%d", major, minor);
	err = cudaDeviceGetAttribute(&pools, cudaDevAttrMemoryPoolsSupported, dev);
	if (err != cudaSuccess) {
		S_cuda_text(why, whylen, "cudaDeviceGetAttribute(cudaDevAttrMemoryPoolsSupported)", err);
		return -1;
	}
	if (!pools) {
		snprintf(why, whylen, "device cuda:%" PRIu64 " does not support memory pools "
			 "(cudaMallocAsync): its counters cannot be read", index);
		return -1;
	}
	/* the first call that needs the context creates it */
	err = cudaMemGetInfo(&free_b, &total_b);
	if (err != cudaSuccess) {
		S_cuda_text(why, whylen, "cudaMemGetInfo (device initialisation)", err);
		return -1;
	}
	e->total_bytes.v = total_b;
	e->total_bytes.has = 1;
	e->free_bytes.v = free_b;
	e->free_bytes.has = 1;
	if (cudaDriverGetVersion(&v) == cudaSuccess && v > 0)
		S_version(e->driver_api, sizeof(e->driver_api), v);
	if (cudaRuntimeGetVersion(&v) == cudaSuccess && v > 0)
		S_version(e->runtime, sizeof(e->runtime), v);
	if (cublasGetProperty(MAJOR_VERSION, &major) == CUBLAS_STATUS_SUCCESS &&
	    cublasGetProperty(MINOR_VERSION, &minor) == CUBLAS_STATUS_SUCCESS &&
	    cublasGetProperty(PATCH_LEVEL, &patch) == CUBLAS_STATUS_SUCCESS)
		snprintf(e->cublas, sizeof(e->cublas), "%d.%d.%d", major, minor, patch);
	(void)probe_nvml_driver_version(e->driver, sizeof(e->driver), e->nvml_note, sizeof(e->nvml_note));
	return 0;
}

/*** measurement ***/

typedef struct {
	const probe_measure_opts *o;
	cudaMemPool_t pool;
	cudaStream_t stream;
	cublasHandle_t blas;
	int have_stream, have_blas;
	size_t elem;              /* bytes per element */
	size_t weight_bytes;      /* one W x W layer */
	size_t act_bytes;         /* one (B*C) x W activation */
	size_t workspace_bytes;
	void **weights;           /* o->layers pointers, NULL until allocated */
	void *workspace, *input, *extra, *output;
	/* train mode: per layer, NULL when not held */
	void *target;             /* the regression target, like the input */
	void **z, **h;            /* saved pre-activations and outputs */
	void **grads;             /* weight gradients, from backward to the step */
	void **adam_m, **adam_v;  /* Adam's moments, from the first step on */
	uint64_t steps;           /* optimizer steps taken */
	char err[PROBE_TEXT_MAX];
} S_ctx;

typedef int (*S_run_fn)(S_ctx *c, uint64_t count);

static int S_fail_cuda(S_ctx *c, const char *what, cudaError_t e)
{
	S_cuda_text(c->err, sizeof(c->err), what, e);
	return -1;
}

static int S_fail_blas(S_ctx *c, const char *what, cublasStatus_t s)
{
	S_blas_text(c->err, sizeof(c->err), what, s);
	return -1;
}

static int S_alloc(S_ctx *c, void **p, size_t bytes, const char *what)
{
	char label[160];
	cudaError_t e = cudaMallocAsync(p, bytes, c->stream);

	if (e != cudaSuccess) {
		*p = NULL;
		snprintf(label, sizeof(label), "cudaMallocAsync(%s, %zu bytes)", what, bytes);
		return S_fail_cuda(c, label, e);
	}
	return 0;
}

static int S_free(S_ctx *c, void **p)
{
	cudaError_t e;

	if (!*p)
		return 0;
	e = cudaFreeAsync(*p, c->stream);
	*p = NULL;
	if (e != cudaSuccess)
		return S_fail_cuda(c, "cudaFreeAsync", e);
	return 0;
}

static int S_fill(S_ctx *c, void *p, size_t n, uint64_t stream_id, float scale, const char *what)
{
	cudaError_t e = probe_fill_uniform(c->o->dtype, p, n, c->o->seed, stream_id, scale, c->stream);

	return e == cudaSuccess ? 0 : S_fail_cuda(c, what, e);
}

static int S_run_model_load(S_ctx *c, uint64_t count)
{
	cublasStatus_t s;
	/* keeps activations of order 1 through the layers */
	float scale = 1.0f / sqrtf((float)c->o->width);
	uint64_t l;

	(void)count;
	s = cublasCreate(&c->blas);
	if (s != CUBLAS_STATUS_SUCCESS)
		return S_fail_blas(c, "cublasCreate", s);
	c->have_blas = 1;
	s = cublasSetStream(c->blas, c->stream);
	if (s != CUBLAS_STATUS_SUCCESS)
		return S_fail_blas(c, "cublasSetStream", s);
	/* the workspace comes from the pool, so the counters include it */
	if (S_alloc(c, &c->workspace, c->workspace_bytes, "cuBLAS workspace") != 0)
		return -1;
	s = cublasSetWorkspace(c->blas, c->workspace, c->workspace_bytes);
	if (s != CUBLAS_STATUS_SUCCESS)
		return S_fail_blas(c, "cublasSetWorkspace", s);
	for (l = 0; l < c->o->layers; l++) {
		char what[64];
		snprintf(what, sizeof(what), "weights of layer %" PRIu64, l);
		if (S_alloc(c, &c->weights[l], c->weight_bytes, what) != 0)
			return -1;
		if (S_fill(c, c->weights[l], c->weight_bytes / c->elem, 1 + l, scale,
			   "fill kernel (weights)") != 0)
			return -1;
	}
	return 0;
}

static int S_run_inputs(S_ctx *c, uint64_t count)
{
	cudaError_t e;

	(void)count;
	if (S_alloc(c, &c->input, c->act_bytes, "input") != 0)
		return -1;
	if (S_fill(c, c->input, c->act_bytes / c->elem, 0, 1.0f, "fill kernel (input)") != 0)
		return -1;
	if (c->o->optimizer != PROBE_OPTIM_NONE) {
		if (S_alloc(c, &c->target, c->act_bytes, "target") != 0)
			return -1;
		if (S_fill(c, c->target, c->act_bytes / c->elem, 0x7a, 1.0f, "fill kernel (target)") != 0)
			return -1;
	}
	if (c->o->extra_bytes) {
		if (c->o->extra_bytes > SIZE_MAX) {
			snprintf(c->err, sizeof(c->err), "extra allocation of %" PRIu64
				 " bytes exceeds size_t", c->o->extra_bytes);
			return -1;
		}
		if (S_alloc(c, &c->extra, (size_t)c->o->extra_bytes,
			    "extra allocation (--extra-bytes)") != 0)
			return -1;
		/* touch it, so it is used memory and not only an address range */
		e = cudaMemsetAsync(c->extra, 0, (size_t)c->o->extra_bytes, c->stream);
		if (e != cudaSuccess)
			return S_fail_cuda(c, "cudaMemsetAsync(extra allocation)", e);
	}
	return 0;
}

/*
 * C = op(A) * op(B) in cuBLAS's column-major terms, every leading dimension
 * W (all our matrices are rows x W or W x W, stored row-major: a row-major
 * r x W matrix is the column-major W x r matrix of its transpose).
 */
static int S_gemm_op(S_ctx *c, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k,
		     const void *a, const void *b, void *out)
{
	const float alpha = 1.0f, beta = 0.0f;
	int width = (int)c->o->width;
	cudaDataType_t t;
	cublasStatus_t s;

	if (c->o->dtype == PROBE_DTYPE_FLOAT32) {
		s = cublasSgemm(c->blas, ta, tb, m, n, k, &alpha, a, width, b, width, &beta, out, width);
		return s == CUBLAS_STATUS_SUCCESS ? 0 : S_fail_blas(c, "cublasSgemm", s);
	}
	t = c->o->dtype == PROBE_DTYPE_FLOAT16 ? CUDA_R_16F : CUDA_R_16BF;
	s = cublasGemmEx(c->blas, ta, tb, m, n, k, &alpha, a, t, width, b, t, width, &beta, out, t,
			 width, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
	return s == CUBLAS_STATUS_SUCCESS ? 0 : S_fail_blas(c, "cublasGemmEx", s);
}

/*
 * Row-major out[rows x W] = in[rows x W] * w[W x W] is, in cuBLAS's
 * column-major view, out^T = w^T * in^T: m = W, n = rows, k = W.
 */
static int S_gemm(S_ctx *c, const void *w, const void *in, void *out)
{
	int width = (int)c->o->width;
	int rows = (int)(c->o->batch * c->o->context);

	return S_gemm_op(c, CUBLAS_OP_N, CUBLAS_OP_N, width, rows, width, w, in, out);
}

/*
 * One forward pass: each layer's output is a fresh allocation and the
 * previous activation is released once consumed (stream order), as a
 * framework's caching allocator would see it. The last output is kept, as
 * a caller keeps `y = model(x)`, and replaces the previous pass's output.
 */
static int S_forward(S_ctx *c)
{
	void *in = c->input, *out = NULL;
	cudaError_t e;
	uint64_t l;

	for (l = 0; l < c->o->layers; l++) {
		if (S_alloc(c, &out, c->act_bytes, "activation") != 0)
			goto fail;
		if (S_gemm(c, c->weights[l], in, out) != 0)
			goto fail;
		e = probe_gelu_tanh(c->o->dtype, out, c->act_bytes / c->elem, c->stream);
		if (e != cudaSuccess) {
			S_fail_cuda(c, "GELU kernel", e);
			goto fail;
		}
		if (in != c->input && S_free(c, &in) != 0)
			goto fail;
		in = out;
		out = NULL;
	}
	if (S_free(c, &c->output) != 0)
		goto fail;
	c->output = in;
	return 0;
fail:
	/* release what this pass holds; the first error stays in c->err */
	if (out)
		(void)cudaFreeAsync(out, c->stream);
	if (in && in != c->input)
		(void)cudaFreeAsync(in, c->stream);
	return -1;
}

static int S_run_forwards(S_ctx *c, uint64_t count)
{
	uint64_t i;

	for (i = 0; i < count; i++)
		if (S_forward(c) != 0)
			return -1;
	return 0;
}

/*** training ***/

#define S_LR_SGD 1e-3f
#define S_LR_ADAM 1e-4f
#define S_ADAM_B1 0.9f
#define S_ADAM_B2 0.999f
#define S_ADAM_EPS 1e-8f

static int S_kernel(S_ctx *c, cudaError_t e, const char *what)
{
	return e == cudaSuccess ? 0 : S_fail_cuda(c, what, e);
}

/*
 * Forward for training: layer l computes z_l = h_{l-1} W_l (h_{-1} is the
 * input) and h_l = gelu(z_l) into a new tensor; both are kept for backward,
 * as autograd saves them.
 */
static int S_train_forward(S_ctx *c)
{
	size_t n = c->act_bytes / c->elem;
	uint64_t l;

	for (l = 0; l < c->o->layers; l++) {
		const void *in = l == 0 ? c->input : c->h[l - 1];
		if (S_alloc(c, &c->z[l], c->act_bytes, "pre-activation (saved for backward)") != 0 ||
		    S_gemm(c, c->weights[l], in, c->z[l]) != 0 ||
		    S_alloc(c, &c->h[l], c->act_bytes, "activation (saved for backward)") != 0 ||
		    S_kernel(c, probe_gelu_tanh_out(c->o->dtype, c->z[l], c->h[l], n, c->stream),
			     "GELU kernel") != 0)
			return -1;
	}
	return 0;
}

/*
 * Backward of the loss 0.5 * sum((h_last - target)^2) / rows. For each layer
 * from the last: dz = dh * gelu'(z_l) (in place), dW_l = h_{l-1}^T dz, and
 * dh_{l-1} = dz W_l^T; the saved tensors are released once consumed. The
 * gradients are kept for the optimizer step.
 */
static int S_train_backward(S_ctx *c)
{
	int width = (int)c->o->width;
	int rows = (int)(c->o->batch * c->o->context);
	size_t n = c->act_bytes / c->elem;
	void *dh = NULL, *dprev = NULL;
	uint64_t l = c->o->layers;
	char what[64];

	if (S_alloc(c, &dh, c->act_bytes, "gradient of the output") != 0 ||
	    S_kernel(c, probe_mse_grad(c->o->dtype, c->h[l - 1], c->target, dh, n,
				       1.0f / (float)rows, c->stream), "loss gradient kernel") != 0)
		goto fail;
	while (l-- > 0) {
		const void *in = l == 0 ? c->input : c->h[l - 1];
		if (S_kernel(c, probe_gelu_tanh_backward(c->o->dtype, c->z[l], dh, n, c->stream),
			     "GELU backward kernel") != 0 ||
		    S_free(c, &c->z[l]) != 0 || S_free(c, &c->h[l]) != 0)
			goto fail;
		snprintf(what, sizeof(what), "gradient of layer %" PRIu64, l);
		/* row-major dW[W x W] = in^T dz: column-major dW^T = dz^T in */
		if (S_alloc(c, &c->grads[l], c->weight_bytes, what) != 0 ||
		    S_gemm_op(c, CUBLAS_OP_N, CUBLAS_OP_T, width, width, rows, dh, in, c->grads[l]) != 0)
			goto fail;
		if (l > 0) {
			/* row-major dprev[rows x W] = dz W^T: column-major dprev^T = W dz^T */
			if (S_alloc(c, &dprev, c->act_bytes, "gradient of an activation") != 0 ||
			    S_gemm_op(c, CUBLAS_OP_T, CUBLAS_OP_N, width, rows, width, c->weights[l], dh,
				      dprev) != 0)
				goto fail;
		}
		if (S_free(c, &dh) != 0)
			goto fail;
		dh = dprev;
		dprev = NULL;
	}
	return 0;
fail:
	if (dh)
		(void)cudaFreeAsync(dh, c->stream);
	if (dprev)
		(void)cudaFreeAsync(dprev, c->stream);
	return -1;
}

/*
 * One optimizer step over every layer, then the gradients are released (as
 * zero_grad(set_to_none=True) does). Adam allocates its two moments, zeroed,
 * at its first step, in the weights' dtype (as torch.optim.Adam does).
 */
static int S_train_step(S_ctx *c)
{
	size_t n = c->weight_bytes / c->elem;
	uint64_t l;
	char what[64];
	cudaError_t e;
	float bc1, bc2;

	c->steps++;
	bc1 = 1.0f - powf(S_ADAM_B1, (float)c->steps);
	bc2 = 1.0f - powf(S_ADAM_B2, (float)c->steps);
	for (l = 0; l < c->o->layers; l++) {
		if (c->o->optimizer == PROBE_OPTIM_SGD) {
			e = probe_sgd_step(c->o->dtype, c->weights[l], c->grads[l], n, S_LR_SGD, c->stream);
			if (S_kernel(c, e, "SGD kernel") != 0)
				return -1;
			continue;
		}
		if (!c->adam_m[l]) {
			snprintf(what, sizeof(what), "Adam first moment of layer %" PRIu64, l);
			if (S_alloc(c, &c->adam_m[l], c->weight_bytes, what) != 0 ||
			    S_kernel(c, cudaMemsetAsync(c->adam_m[l], 0, c->weight_bytes, c->stream),
				     "cudaMemsetAsync(Adam state)") != 0)
				return -1;
			snprintf(what, sizeof(what), "Adam second moment of layer %" PRIu64, l);
			if (S_alloc(c, &c->adam_v[l], c->weight_bytes, what) != 0 ||
			    S_kernel(c, cudaMemsetAsync(c->adam_v[l], 0, c->weight_bytes, c->stream),
				     "cudaMemsetAsync(Adam state)") != 0)
				return -1;
		}
		e = probe_adam_step(c->o->dtype, c->weights[l], c->grads[l], c->adam_m[l], c->adam_v[l],
				    n, S_LR_ADAM, S_ADAM_B1, S_ADAM_B2, S_ADAM_EPS, bc1, bc2, c->stream);
		if (S_kernel(c, e, "Adam kernel") != 0)
			return -1;
	}
	for (l = 0; l < c->o->layers; l++)
		if (S_free(c, &c->grads[l]) != 0)
			return -1;
	return 0;
}

static int S_run_train_forward(S_ctx *c, uint64_t count)
{
	(void)count;
	return S_train_forward(c);
}

static int S_run_backward(S_ctx *c, uint64_t count)
{
	(void)count;
	return S_train_backward(c);
}

static int S_run_step(S_ctx *c, uint64_t count)
{
	(void)count;
	return S_train_step(c);
}

static int S_run_second_step(S_ctx *c, uint64_t count)
{
	(void)count;
	if (S_train_forward(c) != 0 || S_train_backward(c) != 0)
		return -1;
	return S_train_step(c);
}

static void S_pool_read(S_ctx *c, enum cudaMemPoolAttr a, probe_opt *o)
{
	uint64_t v = 0;

	o->has = cudaMemPoolGetAttribute(c->pool, a, &v) == cudaSuccess;
	o->v = o->has ? v : 0;
}

/* allocated, reserved and device-used levels at one checkpoint */
static void S_levels(S_ctx *c, probe_opt *alloc, probe_opt *reserved, probe_opt *used)
{
	size_t free_b = 0, total_b = 0;

	S_pool_read(c, cudaMemPoolAttrUsedMemCurrent, alloc);
	S_pool_read(c, cudaMemPoolAttrReservedMemCurrent, reserved);
	used->has = cudaMemGetInfo(&free_b, &total_b) == cudaSuccess && total_b >= free_b;
	used->v = used->has ? (uint64_t)(total_b - free_b) : 0;
}

/*
 * A high-watermark reset "to zero" restarts tracking from the moment of the
 * reset; the peak of the phase is at least every level seen in it, so a
 * high below the start or end level read at the checkpoints is raised to it.
 */
static void S_peak(S_ctx *c, enum cudaMemPoolAttr a, probe_opt start, probe_opt end, probe_opt *peak)
{
	S_pool_read(c, a, peak);
	if (!peak->has)
		return;
	if (start.has && start.v > peak->v)
		peak->v = start.v;
	if (end.has && end.v > peak->v)
		peak->v = end.v;
}

static uint64_t S_now_us(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0)
		return 0;
	return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

/*
 * The protocol of one phase: synchronise, read the start levels, reset the
 * highs, run, synchronise, read peaks and end levels, record the outcome.
 * Returns 0 when the phase succeeded.
 */
static int S_phase(S_ctx *c, probe_phase *p, S_run_fn run, uint64_t count)
{
	uint64_t zero = 0;
	uint64_t t0, t1;
	cudaError_t e;
	int rc = 0;

	c->err[0] = '\0';
	e = cudaDeviceSynchronize();
	if (e != cudaSuccess)
		rc = S_fail_cuda(c, "cudaDeviceSynchronize before the phase", e);
	S_levels(c, &p->alloc_start, &p->reserved_start, &p->used_start);
	if (rc == 0) {
		e = cudaMemPoolSetAttribute(c->pool, cudaMemPoolAttrUsedMemHigh, &zero);
		if (e == cudaSuccess)
			e = cudaMemPoolSetAttribute(c->pool, cudaMemPoolAttrReservedMemHigh, &zero);
		if (e != cudaSuccess)
			rc = S_fail_cuda(c, "cudaMemPoolSetAttribute (reset of the highs)", e);
	}
	/* a read above that failed leaves a non-sticky "last error" behind,
	 * which a launch check inside the run would otherwise report */
	(void)cudaGetLastError();
	t0 = S_now_us();
	if (rc == 0)
		rc = run(c, count);
	/* always wait: a failed phase still reads its last values */
	e = cudaDeviceSynchronize();
	if (rc == 0 && e != cudaSuccess)
		rc = S_fail_cuda(c, "cudaDeviceSynchronize after the phase", e);
	t1 = S_now_us();
	if (t0 && t1 >= t0) {
		p->elapsed_us.v = t1 - t0;
		p->elapsed_us.has = 1;
	}
	S_levels(c, &p->alloc_end, &p->reserved_end, &p->used_end);
	S_peak(c, cudaMemPoolAttrUsedMemHigh, p->alloc_start, p->alloc_end, &p->alloc_peak);
	S_peak(c, cudaMemPoolAttrReservedMemHigh, p->reserved_start, p->reserved_end, &p->reserved_peak);
	if (rc == 0) {
		p->status = PROBE_PHASE_OK;
		p->error[0] = '\0';
		return 0;
	}
	p->status = PROBE_PHASE_FAILED;
	snprintf(p->error, sizeof(p->error), "%s", c->err[0] ? c->err : "unknown error");
	return -1;
}

static void S_teardown(S_ctx *c)
{
	cudaError_t e;
	uint64_t l;
	int bad = 0;

	bad |= S_free(c, &c->output) != 0;
	bad |= S_free(c, &c->extra) != 0;
	bad |= S_free(c, &c->input) != 0;
	bad |= S_free(c, &c->target) != 0;
	for (l = 0; l < c->o->layers; l++) {
		void **held[] = { c->weights, c->z, c->h, c->grads, c->adam_m, c->adam_v };
		size_t k;
		for (k = 0; k < sizeof(held) / sizeof(held[0]); k++)
			if (held[k])
				bad |= S_free(c, &held[k][l]) != 0;
	}
	if (c->have_blas) {
		cublasStatus_t s = cublasDestroy(c->blas);
		if (s != CUBLAS_STATUS_SUCCESS)
			bad |= S_fail_blas(c, "cublasDestroy", s) != 0;
	}
	bad |= S_free(c, &c->workspace) != 0;
	if (c->have_stream) {
		e = cudaStreamSynchronize(c->stream);
		if (e == cudaSuccess)
			e = cudaStreamDestroy(c->stream);
		if (e != cudaSuccess)
			bad |= S_fail_cuda(c, "releasing the stream", e) != 0;
	}
	/* after the measurement: a warning, the recorded results stand */
	if (bad)
		fprintf(stderr, "gpusheet-probe: warning: cleanup: %s\n", c->err);
	free(c->weights);
	free(c->z);
	free(c->h);
	free(c->grads);
	free(c->adam_m);
	free(c->adam_v);
}

static size_t S_elem_size(probe_dtype d)
{
	return d == PROBE_DTYPE_FLOAT32 ? 4 : 2;
}

int probe_cuda_measure(const probe_measure_opts *o, probe_report *r, char *why, size_t whylen)
{
	static const S_run_fn forward_runs[PROBE_FORWARD_PHASES] = {
		S_run_model_load, S_run_inputs, S_run_forwards, S_run_forwards, S_run_forwards
	};
	static const S_run_fn train_runs[PROBE_TRAIN_PHASES] = {
		S_run_model_load, S_run_inputs, S_run_train_forward, S_run_backward, S_run_step,
		S_run_second_step
	};
	const S_run_fn *runs = o->optimizer == PROBE_OPTIM_NONE ? forward_runs : train_runs;
	uint64_t counts[PROBE_MAX_PHASES] = { 0 };
	uint64_t keep = UINT64_MAX;
	S_ctx c;
	cudaError_t e;
	size_t i;
	int failed = 0, major = 0;

	memset(&c, 0, sizeof(c));
	c.o = o;
	c.elem = S_elem_size(o->dtype);
	/* the caller checked that these products fit (and the int range of cuBLAS) */
	c.weight_bytes = (size_t)(o->width * o->width) * c.elem;
	c.act_bytes = (size_t)(o->batch * o->context * o->width) * c.elem;
	/* the number of passes of each forward phase; train phases run once */
	counts[2] = 1;
	counts[3] = o->warmup;
	counts[4] = o->repeats;

	probe_report_init_phases(r);
	if (probe_cuda_environment(o->device, &r->env, why, whylen) != 0)
		return PROBE_EXIT_REFUSED;
	e = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, (int)o->device);
	if (e != cudaSuccess) {
		S_cuda_text(why, whylen, "cudaDeviceGetAttribute(cudaDevAttrComputeCapabilityMajor)", e);
		return PROBE_EXIT_REFUSED;
	}
	c.workspace_bytes = major >= 9 ? S_WORKSPACE_HOPPER : S_WORKSPACE_OLDER;

	e = cudaDeviceGetDefaultMemPool(&c.pool, (int)o->device);
	if (e != cudaSuccess) {
		S_cuda_text(why, whylen, "cudaDeviceGetDefaultMemPool", e);
		return PROBE_EXIT_REFUSED;
	}
	/* keep freed blocks reserved, as a caching allocator does */
	e = cudaMemPoolSetAttribute(c.pool, cudaMemPoolAttrReleaseThreshold, &keep);
	if (e != cudaSuccess) {
		S_cuda_text(why, whylen, "cudaMemPoolSetAttribute(cudaMemPoolAttrReleaseThreshold)", e);
		return PROBE_EXIT_REFUSED;
	}
	e = cudaStreamCreateWithFlags(&c.stream, cudaStreamNonBlocking);
	if (e != cudaSuccess) {
		S_cuda_text(why, whylen, "cudaStreamCreateWithFlags", e);
		return PROBE_EXIT_REFUSED;
	}
	c.have_stream = 1;
	c.weights = calloc((size_t)o->layers, sizeof(*c.weights));
	if (o->optimizer != PROBE_OPTIM_NONE) {
		c.z = calloc((size_t)o->layers, sizeof(*c.z));
		c.h = calloc((size_t)o->layers, sizeof(*c.h));
		c.grads = calloc((size_t)o->layers, sizeof(*c.grads));
		c.adam_m = calloc((size_t)o->layers, sizeof(*c.adam_m));
		c.adam_v = calloc((size_t)o->layers, sizeof(*c.adam_v));
	}
	if (!c.weights || (o->optimizer != PROBE_OPTIM_NONE &&
			   (!c.z || !c.h || !c.grads || !c.adam_m || !c.adam_v))) {
		snprintf(why, whylen, "out of host memory");
		S_teardown(&c);
		return PROBE_EXIT_REFUSED;
	}
	probe_env_add_setting_str(&r->env, "cudaMemPoolAttrReleaseThreshold", S_KEEP_TEXT);
	probe_env_add_setting_num(&r->env, "cublas_workspace_bytes", c.workspace_bytes);
	probe_env_add_setting_str(&r->env, "stream", "one non-blocking stream");
	probe_env_read_variables(&r->env);

	for (i = 0; i < r->nphases; i++) {
		if (S_phase(&c, &r->phases[i], runs[i], counts[i]) != 0) {
			failed = 1;
			break;
		}
	}
	S_teardown(&c);
	return failed ? PROBE_EXIT_FAILED : PROBE_EXIT_OK;
}
