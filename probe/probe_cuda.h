/*
 * probe_cuda: the device side of gpusheet-probe (CUDA runtime and cuBLAS,
 * called from C).
 *
 * Every CUDA and cuBLAS return code is checked. Failures before the first
 * phase (no driver, no device, a device without memory pools) are refusals:
 * the caller exits 2 and writes nothing. Failures inside a phase are
 * evidence: recorded against that phase with the last values read, later
 * phases left not_run.
 */
#ifndef PROBE_CUDA_H
#define PROBE_CUDA_H

#include <stddef.h>
#include <stdint.h>
#include "probe_kernels.h"
#include "probe_report.h"

/* The optimizer of the train mode; NONE: the forward-only measure mode. */
typedef enum {
	PROBE_OPTIM_NONE = 0,
	PROBE_OPTIM_SGD = 1,
	PROBE_OPTIM_ADAM = 2
} probe_optimizer;

typedef struct {
	uint64_t device;               /* N in cuda:N */
	uint64_t batch, context, width, layers;
	probe_dtype dtype;
	uint64_t warmup, repeats;
	uint64_t seed;
	uint64_t extra_bytes;          /* filler allocated in `inputs`; 0: none */
	probe_optimizer optimizer;     /* NONE: measure (forward passes); else train */
} probe_measure_opts;

/*
 * Checks that a CUDA driver and device `index` exist, without creating a
 * context (safe in a parent that forks measuring children). Returns 0 with
 * the number of visible devices in *count (count may be NULL), or -1 with a
 * one-line reason.
 */
int probe_cuda_check_device(uint64_t index, int *count, char *why, size_t whylen);

/*
 * Selects device `index`, creates its context and fills `e`: name, total and
 * free bytes as the device declares them, compute capability, versions
 * (driver through NVML, driver API, runtime, cuBLAS) and the environment
 * variables that change allocation. Returns 0, or -1 with a reason.
 */
int probe_cuda_environment(uint64_t index, probe_env *e, char *why, size_t whylen);

/*
 * Runs the phases of the mode (measure: model_load, inputs, cold_forward,
 * warmup, warm_forward; train: model_load, inputs, forward, backward,
 * optimizer_step, second_step) and fills r->env and r->phases (the caller
 * fills the rest of r, r->optimizer included). Returns PROBE_EXIT_OK, PROBE_EXIT_FAILED (a phase failed, r is
 * complete and must be written) or PROBE_EXIT_REFUSED (nothing ran; reason
 * in why).
 */
int probe_cuda_measure(const probe_measure_opts *o, probe_report *r, char *why, size_t whylen);

#endif
