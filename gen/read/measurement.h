/*
 * measurement: raw memory measurements as the companion probe writes them
 * (schema "gpusheet-measurement", version 1), read strictly from JSON.
 *
 * Every counter is optional: a counter that was not read is missing, and is
 * kept missing (has_ flag 0), never turned into 0. `synthetic` is true for
 * any file not produced on a real GPU.
 */
#ifndef GS_MEASUREMENT_H
#define GS_MEASUREMENT_H

#include <stddef.h>
#include <stdint.h>
#include "diag.h"

typedef struct {
	uint64_t v;
	int has;       /* 0: missing (null in the file) */
} gs_opt_u64;

typedef enum {
	GS_PHASE_OK = 0,
	GS_PHASE_FAILED = 1,
	GS_PHASE_NOT_RUN = 2
} gs_phase_status;

typedef struct {
	char *name;                   /* model_load, inputs, cold_forward, ... */
	uint64_t device;              /* device index this record is about */
	gs_phase_status status;
	char *error;                  /* or NULL */
	gs_opt_u64 alloc_start, alloc_peak, alloc_end;
	gs_opt_u64 reserved_start, reserved_peak, reserved_end;
	/* device-level used bytes (cudaMemGetInfo total - free), read at the
	 * same synchronized checkpoints as reserved_start / reserved_end */
	gs_opt_u64 used_start, used_end;
	gs_opt_u64 elapsed_us;
	int warm;                     /* 1 for warmup / warm_forward phases */
} gs_phase;

typedef struct {
	uint64_t index;
	char *name;                   /* "NVIDIA H200" */
	gs_opt_u64 total_bytes;
	gs_opt_u64 free_bytes;
	char *compute_capability;     /* or NULL */
} gs_device;

typedef struct {
	char *name;
	char *value;                  /* integers are kept as decimal text */
	uint64_t number;
	int is_number;
} gs_kv;

/* A figure an imported log printed (docs/formats.md §3.2), with its line. */
typedef struct {
	char *name;                   /* "kv_cache_tokens", "weights", ... */
	int64_t device;               /* -1: no device's */
	int is_int;                   /* 1: value; 0: decimal (ratios, seconds) */
	int64_t value;
	char *decimal;                /* !is_int: as printed */
	char *unit;                   /* "bytes", "tokens", "blocks", ... */
	char *as_written;             /* as the log printed it ("3.81GiB"), or NULL */
	int estimate;                 /* the engine's own estimate: never observed */
	uint64_t line;
} gs_mfigure;

typedef struct {
	char *name;                   /* "max_model_len", "kv_cache_dtype", ... */
	char *value;
	uint64_t line;                /* 0: stated at import (--model, --setting), not in the log */
	int stated;
} gs_msetting;

typedef struct {
	char *path;
	char *schema;                 /* "gpusheet-measurement" */
	uint64_t schema_version;      /* 1 */
	int synthetic;
	char *synthetic_note;         /* why / how it was made, or NULL */
	char *produced_by;            /* tool and version, or NULL */
	char *date;                   /* YYYY-MM-DD or RFC 3339, or NULL */

	/* identity */
	char *code;
	char *revision;               /* or NULL */
	char *input_set;              /* or NULL */
	gs_opt_u64 seed;

	gs_kv *dims;                  /* dimensions, integer or string values */
	size_t ndims;
	/* conditions the run was executed under that a real workload does not
	 * have (e.g. extra_bytes: a filler allocation), kept sorted by name */
	gs_kv *conditions;
	size_t nconditions;

	/* environment */
	gs_device *devices;
	size_t ndevices;
	char *driver;                 /* or NULL (missing) */
	char *runtime;                /* or NULL */
	char *backend;                /* "cuda" or "hip" */
	char *allocator_backend;      /* e.g. "cudaMallocAsync" */
	gs_kv *allocator_settings;
	size_t nallocator_settings;
	gs_kv *frameworks;
	size_t nframeworks;

	/* protocol */
	char *process;                /* "fresh" or "reused" */
	gs_opt_u64 order;             /* position of this run in its series */
	gs_opt_u64 warmup;
	gs_opt_u64 repeats;
	int empty_cache;              /* 1 when the cache was emptied between repeats */

	gs_phase *phases;             /* in the order they ran */
	size_t nphases;

	/* imported from an engine's log (`gpusheet evidence import`), or all NULL / 0 */
	char *import_from;            /* "vllm", "torch-oom", "torch-stats", "llama.cpp" */
	char *import_source;          /* where the log comes from, as the user said */
	char *import_log_sha256;      /* the archived log */
	char *import_log_name;        /* its name as given to the import */
	char *import_log_archived_as; /* "evidence/<sha256>.<ext>", beside the measurement */
	gs_msetting *import_settings;
	size_t nimport_settings;
	gs_mfigure *import_figures;
	size_t nimport_figures;
	int has_empty_cache;          /* 0: protocol.empty_cache null (an imported log does not say) */
} gs_measurement;

int gs_measurement_read(const char *path, gs_measurement *m, gs_diag *d);
/* The same from the file's bytes, read already (text, len; NULL: read
 * path): path names the file in m and in the messages. */
int gs_measurement_parse(const char *path, const char *text, size_t len, gs_measurement *m,
			 gs_diag *d);
void gs_measurement_release(gs_measurement *m);
/*
 * dst: a deep copy of src, named path (m->path) instead of src's: what
 * parsing the same bytes under that path gives. Every pointer of
 * gs_measurement is copied here and freed by gs_measurement_release: a
 * field added to one is added to both (a unit test compares a copy with a
 * parse).
 */
void gs_measurement_copy(gs_measurement *dst, const gs_measurement *src, const char *path);

/* 1 when every phase that ran succeeded and none was left not run. */
int gs_measurement_ok(const gs_measurement *m);
/* First failed phase, or NULL. */
const gs_phase *gs_measurement_failure(const gs_measurement *m);
const gs_kv *gs_measurement_dim(const gs_measurement *m, const char *name);
const char *gs_measurement_phase_status_id(gs_phase_status s);  /* "ok", "failed", "not_run" */
/* An imported figure of that name on that device (-2: any), or NULL. */
const gs_mfigure *gs_measurement_figure(const gs_measurement *m, const char *name, int64_t device);
const gs_msetting *gs_measurement_setting(const gs_measurement *m, const char *name);

#endif
