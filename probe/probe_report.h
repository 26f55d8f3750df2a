/*
 * probe_report: what gpusheet-probe writes, as plain C structs (no CUDA
 * types), and the writers for its two documents:
 *   - the measurement, schema "gpusheet-measurement" version 1
 *     (docs/formats.md section 3), read strictly by `gpusheet check`;
 *   - the environment report, schema "gpusheet-environment" version 1
 *     (probe/README.md).
 *
 * Invariants:
 *  - a counter that was not read has has == 0 and is written as null, never
 *    as 0;
 *  - strings are borrowed: the structs point at memory the caller keeps
 *    alive until the document is written; fixed arrays hold what the probe
 *    composes itself (error texts, version strings, the date);
 *  - keys are written in a fixed order, indented by two spaces, so that the
 *    same struct gives the same bytes.
 */
#ifndef PROBE_REPORT_H
#define PROBE_REPORT_H

#include <stddef.h>
#include <stdint.h>

#define PROBE_VERSION "0.1.0"
#define PROBE_CODE "gpusheet-probe dense-mlp"
#define PROBE_CODE_TRAIN "gpusheet-probe dense-mlp train"
#define PROBE_INPUT_SET "synthetic-deterministic"

/* Exit codes of every command. */
enum {
	PROBE_EXIT_OK = 0,       /* run complete, file written */
	PROBE_EXIT_FAILED = 1,   /* a phase failed; the file is still written */
	PROBE_EXIT_REFUSED = 2   /* usage, no GPU/driver, bad device, existing output */
};

typedef struct {
	uint64_t v;
	int has;        /* 0: not read, written as null */
} probe_opt;

typedef enum {
	PROBE_PHASE_OK = 0,
	PROBE_PHASE_FAILED = 1,
	PROBE_PHASE_NOT_RUN = 2
} probe_phase_status;

#define PROBE_TEXT_MAX 512

typedef struct {
	const char *name;                /* model_load, inputs, ... */
	probe_phase_status status;
	char error[PROBE_TEXT_MAX];      /* "" unless status is FAILED */
	probe_opt alloc_start, alloc_peak, alloc_end;
	probe_opt reserved_start, reserved_peak, reserved_end;
	probe_opt used_start, used_end;  /* total - free, cudaMemGetInfo */
	probe_opt elapsed_us;
} probe_phase;

/* A name and either a string or an integer value. */
typedef struct {
	const char *name;
	const char *str;     /* used when is_number == 0 */
	uint64_t number;
	int is_number;
} probe_kv;

#define PROBE_MAX_SETTINGS 24
#define PROBE_MAX_PHASES 6
#define PROBE_FORWARD_PHASES 5
#define PROBE_TRAIN_PHASES 6

typedef struct {
	uint64_t index;                  /* N in cuda:N */
	char name[256];
	probe_opt total_bytes, free_bytes;
	char compute_capability[16];     /* "9.0", "" if unknown */
	uint64_t device_count;           /* devices visible to this process */
	char driver[96];                 /* NVML driver version, "" if unknown */
	char driver_api[16];             /* cudaDriverGetVersion, "13.0" */
	char runtime[16];                /* cudaRuntimeGetVersion, "13.0" */
	char cublas[32];                 /* cuBLAS library version, "" if unknown */
	char nvml_note[PROBE_TEXT_MAX];  /* why the driver is unknown, or "" */
	/* allocator settings: the pool's settings, then environment variables */
	probe_kv settings[PROBE_MAX_SETTINGS];
	size_t nsettings;
	/* the environment variables alone, as found (values may be "") */
	probe_kv env[PROBE_MAX_SETTINGS];
	size_t nenv;
} probe_env;

typedef struct {
	int synthetic;
	const char *synthetic_note;      /* required when synthetic, else NULL */
	char date[16];                   /* YYYY-MM-DD (UTC) */
	uint64_t seed;
	uint64_t batch, context, width, layers;
	const char *dtype;               /* float32, float16, bfloat16 */
	const char *optimizer;           /* train: "sgd" or "adam"; NULL: forward only */
	uint64_t extra_bytes;            /* --extra-bytes, written as the condition
	                                  * "extra_bytes"; 0: none, not written */
	probe_env env;
	probe_opt order;
	probe_opt warmup, repeats;       /* null in train mode (not passes) */
	probe_phase phases[PROBE_MAX_PHASES];
	size_t nphases;
} probe_report;

/* The phases in the order they run: measure (5) and train (6). */
extern const char *const probe_phase_names[PROBE_FORWARD_PHASES];
extern const char *const probe_train_phase_names[PROBE_TRAIN_PHASES];

/* Sets every phase of the mode (r->optimizer NULL: measure, else train) to
 * not_run with null counters, names them. */
void probe_report_init_phases(probe_report *r);

/* Adds an allocator setting / environment entry (silently ignored when full). */
void probe_env_add_setting_str(probe_env *e, const char *name, const char *value);
void probe_env_add_setting_num(probe_env *e, const char *name, uint64_t value);

/* Fills e->env (and settings) with the allocation-related environment
 * variables that are set in this process. Values are borrowed from environ. */
void probe_env_read_variables(probe_env *e);

/* Today's date, UTC, YYYY-MM-DD, into buf (size >= 11). */
void probe_today(char *buf, size_t size);

/*
 * Serialises the measurement / environment document. Returns a malloc'd
 * NUL-terminated string ending in a newline (caller frees), or NULL on out of
 * memory or a value jansson refuses.
 */
char *probe_report_dumps(const probe_report *r);
char *probe_env_dumps(const probe_env *e);

/*
 * Output files.
 * probe_output_check: 0 when `path` does not exist and its directory does;
 *   otherwise -1 with a one-line reason in why.
 * probe_write_new: writes `text` to a temporary file in the same directory,
 *   fsyncs it and links it to `path`, which must not exist (a file that
 *   appeared meanwhile is never overwritten); the temporary name is removed.
 *   Returns 0, or -1 with a reason in why (the existing file is untouched).
 */
int probe_output_check(const char *path, char *why, size_t whylen);
int probe_write_new(const char *path, const char *text, char *why, size_t whylen);

#endif
