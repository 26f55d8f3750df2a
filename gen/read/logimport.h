/*
 * logimport: the memory figures an engine prints (a vLLM start-up log, a
 * PyTorch out-of-memory message, a torch.cuda.memory_stats() dump,
 * llama.cpp's load lines), read from the log's bytes into plain structs,
 * every figure with the line it was read from (docs/formats.md §3.2).
 *
 * Pure: no file is opened; the command (cmd_evidence.c) reads the log,
 * turns the result into a measurement file and archives the log.
 *
 * Invariants:
 *  - the log is read in one pass, line by line; a log above
 *    GS_LOG_MAX_BYTES or a line above GS_LOG_MAX_LINE is refused;
 *  - before matching, a line loses its CR and its ANSI escape sequences;
 *    a message a paste wrapped over several lines is read joined (with a
 *    space) and cites its first and last line;
 *  - nothing is read that the log does not print: an absent figure is not
 *    in the result (never 0, never estimated); a value that cannot be read
 *    exactly (more than 19 integer digits or 18 decimals, nan, inf, beyond
 *    2^63 - 1 bytes) is an error with its line and column;
 *  - sizes are exact: the decimal text as printed times the unit (2^30 for
 *    GiB, ...), rounded to the nearest byte, halves away from zero; a unit
 *    an engine mislabels (vLLM V0's "GB", llama.cpp 2023's "MB") is read as
 *    what the engine computed (GiB, MiB) and the figure says so;
 *  - two different totals for one device are an error with both lines; a
 *    line printed again, identically, by the same process is read once.
 */
#ifndef GS_LOGIMPORT_H
#define GS_LOGIMPORT_H

#include <stddef.h>
#include <stdint.h>

#include "diag.h"

#define GS_LOG_MAX_BYTES (64u * 1024u * 1024u)   /* 64 MiB */
#define GS_LOG_MAX_LINE (64u * 1024u)            /* 64 KiB */
#define GS_LOG_MAX_FIGURES 1000                  /* a measurement's array bound */
#define GS_LOG_MAX_DEVICES 1000

typedef enum {
	GS_LOG_VLLM = 0,
	GS_LOG_TORCH_OOM = 1,
	GS_LOG_TORCH_STATS = 2,
	GS_LOG_LLAMACPP = 3,
	GS_LOG_SGLANG = 4,
	GS_LOG_LLAMA_BENCH = 5,   /* speeds: llama-bench's table */
	GS_LOG_VLLM_BENCH = 6,    /* speeds: vLLM's benchmark summaries */
	GS_LOG_LLAMA_TIMINGS = 7, /* speeds: llama.cpp's timing lines */
	GS_LOG_VLLM_STATS = 8     /* speeds: vLLM's periodic stats lines */
} gs_log_kind;

/* The kind whose --from name is s (gs_logformat's id); -1 for another name. */
int gs_logimport_kind_parse(const char *s);
const char *gs_logimport_kind_id(gs_log_kind k);

struct gs_logctx;

/*
 * One format of `evidence import --from` (logformat.c holds the table,
 * written once): what it is called, how a text of it is recognised and
 * refused, its reader, and what its measurement says of the run.
 */
typedef struct {
	gs_log_kind kind;
	const char *id;            /* as typed after --from: "vllm" */
	const char *engine;        /* the program that prints it: "vLLM" */
	const char *what;          /* the measurement's identity: "vLLM start-up log" */
	const char *name;          /* in a refusal: "a vLLM start-up log" (logsniff's name) */
	int sniff;                 /* logsniff's gs_sniff_kind of such a text */
	const char *needs_phase;   /* why --phase is required, or NULL */
	const char *process;       /* protocol.process: "fresh" (an engine's own start) or "unknown" */
	const char *framework;     /* environment.frameworks' key for the version, or NULL */
	const char *version_from;  /* how the version is told when not printed, or NULL */
	/* one of line or whole: a (joined) line at a time, or the whole text */
	int (*line)(struct gs_logctx *c);
	int (*whole)(struct gs_logctx *c, const char *data, size_t len);
	int (*finish)(struct gs_logctx *c);  /* after the kept start is chosen, or NULL */
} gs_logformat;

size_t gs_logformat_count(void);
const gs_logformat *gs_logformat_at(size_t i);     /* in --from's order; NULL past the end */
const gs_logformat *gs_logformat_of(gs_log_kind k); /* NULL for none */

typedef enum {
	GS_LU_BYTES = 0,
	GS_LU_TOKENS,
	GS_LU_BLOCKS,
	GS_LU_COUNT,      /* a count of something else (layers, retries) */
	GS_LU_TIMES,      /* a ratio (vLLM's maximum concurrency) */
	GS_LU_SECONDS,
	GS_LU_FRACTION,   /* a share, 0..1 */
	GS_LU_AS_PRINTED, /* a size beyond range, kept as its decimal in as_written's unit */
	GS_LU_TOKENS_PER_SECOND,   /* a benchmark's rate, as printed */
	GS_LU_REQUESTS_PER_SECOND
} gs_log_unit;

const char *gs_logimport_unit_id(gs_log_unit u);  /* "bytes", "tokens", ...; NULL past the last */

typedef struct {
	const char *name;      /* static: "weights", "kv_cache_tokens", ... */
	int64_t device;        /* -1: no device's (the host, or the log does not say) */
	int is_int;            /* 1: value; 0: decimal (ratios, seconds) */
	int64_t value;         /* bytes, tokens, blocks, counts; negative values are real */
	char *decimal;         /* !is_int: the decimal as printed ("4.84") */
	gs_log_unit unit;
	char *as_written;      /* the figure as printed ("14.9888 GB") */
	const char *note;      /* static, or NULL */
	int estimate;          /* 1: the engine's own estimate, never an observation */
	size_t line, last_line;/* 1-based lines of the log (last_line > line: wrapped) */
	char *text;            /* the line (or lines, joined) as read, cleaned */
	int run;               /* which start of the engine in the log, from 1 */
} gs_logfig;

typedef struct {
	const char *name;      /* static: "model", "dtype", "max_model_len", ... */
	char *value;
	size_t line;
	char *text;
	int run;
} gs_logsetting;

typedef struct {
	int64_t index;         /* the rank or device number the log gives */
	char *label;           /* how the log names it ("VllmWorkerProcess pid=521"), or NULL */
	char *name;            /* the GPU's name when the log prints it, or NULL */
	size_t name_line;
	int has_total;
	uint64_t total;        /* the device's total as the log reports it */
	size_t total_line;
	int has_free;
	uint64_t free_bytes;   /* free at the start of the run (or at the failure) */
	size_t free_line;
	int run;               /* the first run it appears in */
} gs_logdevice;

typedef struct {
	uint64_t v;
	int has;
} gs_logopt;

typedef struct {
	const char *name;      /* static, or the --phase text (not owned) */
	int64_t device;
	int failed;
	char *error;           /* a failed phase's message */
	size_t line;
	gs_logopt alloc_peak, alloc_end, reserved_peak, reserved_end, used_end;
	int run;
} gs_logphase;

typedef struct {
	gs_log_kind kind;
	const char *engine;    /* "vLLM", "PyTorch", "llama.cpp" */
	char *version;         /* as the log reveals it, or NULL */
	size_t version_line;
	gs_logsetting *settings;
	size_t nsettings;
	gs_logdevice *devices;
	size_t ndevices;
	gs_logphase *phases;
	size_t nphases;
	gs_logfig *figs;
	size_t nfigs;
	size_t nlines;         /* lines in the log */
	size_t nruns;          /* starts of the engine found (1 for one) */
	size_t *run_lines;     /* the line each start begins at */
	int run;               /* the start kept (1..nruns) */
} gs_logimport;

typedef struct {
	int run;               /* 0: the log must hold one start; else the one to keep */
	uint64_t block_size;   /* tokens per KV block (vLLM V0), 0: from the log only */
	const char *phase;     /* torch-oom, torch-stats: the phase's name, NULL: "unknown" */
	int64_t device;        /* torch-stats: the device the dump is of */
} gs_logimport_opts;

/*
 * Reads len bytes of a log of the given kind; file names the log in the
 * messages. 0 with *out filled (release it), or -1 with every error in d
 * (then *out holds nothing to release).
 */
int gs_logimport_parse(gs_log_kind kind, const char *file, const char *data, size_t len,
		       const gs_logimport_opts *o, gs_logimport *out, gs_diag *d);
void gs_logimport_release(gs_logimport *li);

/* The kept run's setting or figure (device -2: any device), or NULL. */
const gs_logsetting *gs_logimport_setting(const gs_logimport *li, const char *name);
const gs_logfig *gs_logimport_fig(const gs_logimport *li, const char *name, int64_t device);

/*
 * Exact reading of a decimal size: text such as "12.34" times mult bytes,
 * rounded to the nearest byte (halves away from zero). 0, or -1 with a
 * reason in why (static text). Exposed for the tests.
 */
int gs_logimport_decimal_bytes(const char *text, size_t n, uint64_t mult, int64_t *out,
			 const char **why);

#endif
