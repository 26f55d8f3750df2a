/*
 * logimport_int: what the readers of engine logs share and no other module
 * uses: the reading context, the scanning helpers (logline.c, named
 * gs_logline_*), and each format's reader (logvllm.c, logsglang.c,
 * logllama.c, logtorch.c, logspeed.c), which the table of formats (logformat.c) names.
 * The driver (logimport.c) walks the lines and hands each to the reader of
 * the format the table gives; a new format is a reader file and one row of
 * that table.
 */
#ifndef GS_LOGIMPORT_INT_H
#define GS_LOGIMPORT_INT_H

#include <stddef.h>
#include <stdint.h>

#include "logimport.h"

#define GIB (1ull << 30)
#define MIB (1ull << 20)
#define KIB (1ull << 10)

/* ---- the reading context ---- */

typedef struct gs_logctx {
	const char *file;
	const char *data;      /* the whole log, for naming what it is (logsniff.h) */
	size_t len;
	gs_diag *d;
	gs_log_kind kind;
	const gs_logimport_opts *o;
	gs_logimport *li;
	size_t cap_figs, cap_settings, cap_devices, cap_phases, cap_runs;
	int run;
	/* the line being read */
	const char *text;      /* cleaned, joined */
	size_t line, last_line;
	char *prefix;          /* vLLM's process prefix ("VllmWorkerProcess pid=521"), or NULL */
	int64_t device;        /* the rank its prefix names */
	int errors;
	/* vLLM worker processes numbered by first appearance */
	char **workers;
	size_t nworkers;
	/* the figures and phases of the current start (each bounded alone) */
	size_t run_figs, run_phases;
	/* past a bound: how many, and the first line, per kind (S_OVER_*) */
	size_t over[3], over_line[3];
} gs_logctx;

typedef struct {
	const char *name;
	int64_t device;
	gs_log_unit unit;
	int is_int;
	int64_t value;
	const char *dec;       /* !is_int: the decimal's text */
	size_t dec_len;
	const char *aw;        /* as written: start and length in c->text */
	size_t aw_len;
	const char *note;
	int estimate;
	int nosplit;           /* read from an error message: never starts a run */
} gs_logline_fig;

enum { GS_LL_NO = 0, GS_LL_OK = 1, GS_LL_MORE = 2, GS_LL_FAIL = -1 };

typedef struct {
	const char *s;      /* the number's text */
	size_t n;
	int has_dot;
	int neg;
} gs_logline_num;

/* A unit after a number: returns its multiplier, 0 for none there. */
typedef struct {
	const char *word;
	uint64_t mult;
} gs_logline_unit;


/* ---- the helpers (logline.c) ---- */

void gs_logline_over(gs_logctx *c, int kind);
void gs_logline_over_say(gs_logctx *c);
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
void gs_logline_err(gs_logctx *c, const char *at, const char *fmt, ...);
gs_logdevice *gs_logline_device(gs_logctx *c, int64_t index);
void gs_logline_drop_run(gs_logctx *c, int run);
void gs_logline_new_run(gs_logctx *c);
void gs_logline_touch_run(gs_logctx *c);
const char *gs_logline_group(const char *name);
void gs_logline_add_fig(gs_logctx *c, const gs_logline_fig *f);
void gs_logline_add_setting(gs_logctx *c, const char *name, const char *v, size_t n);
gs_logphase *gs_logline_add_phase(gs_logctx *c, const char *name, int64_t device, int failed,
				  const char *error);
void gs_logline_total(gs_logctx *c, int64_t device, int64_t total, const char *at, size_t at_len);
void gs_logline_free_at_start(gs_logctx *c, int64_t device, int64_t v, const char *at, size_t n);
int gs_logline_lit(const char **pp, const char *lit);
void gs_logline_blanks(const char **pp);
int gs_logline_number(gs_logctx *c, const char **pp, int commas, gs_logline_num *out);
int gs_logline_int(gs_logctx *c, const gs_logline_num *x, int64_t *v);
int gs_logline_scale(gs_logctx *c, const gs_logline_num *x, uint64_t mult, int64_t *v);
uint64_t gs_logline_unit_at(const char **pp, const gs_logline_unit *units);
int gs_logline_size(gs_logctx *c, const char **pp, const gs_logline_unit *units, int64_t *v,
		    const char **aw, size_t *aw_len);
void gs_logline_fig_size(gs_logctx *c, const char *name, int64_t device, int64_t v,
			 const char *aw, size_t aw_len, const char *note);
void gs_logline_fig_int(gs_logctx *c, const char *name, int64_t device, gs_log_unit unit,
			int64_t v, const char *aw, size_t aw_len, int nosplit);
void gs_logline_fig_dec(gs_logctx *c, const char *name, int64_t device, gs_log_unit unit,
			const gs_logline_num *x, const char *aw, size_t aw_len);
/* format_size of c10's CUDA caching allocator: bytes, KiB, MiB, GiB (binary). */
extern const gs_logline_unit gs_logline_torch_units[];

/* ---- the readers: one (joined) line each, GS_LL_* ---- */

int gs_logvllm_line(gs_logctx *c);                 /* logvllm.c */
int gs_logvllm_finish(gs_logctx *c);               /* per device, the phases its figures show */
int gs_logvllm_size_after(gs_logctx *c, const char *t, const char *lit, const char *name,
			  const gs_logline_unit *units, const char *note);
extern const gs_logline_unit gs_logvllm_gb_as_gib[];
int gs_logsglang_line(gs_logctx *c);               /* logsglang.c */
int gs_logllama_line(gs_logctx *c);                /* logllama.c */
int gs_logtorch_line(gs_logctx *c);                /* logtorch.c: an out-of-memory message */
int gs_logtorch_stats(gs_logctx *c, const char *data, size_t len); /* the whole dump */
/* logspeed.c: a benchmark's speeds, the whole paste */
int gs_logspeed_llama_bench(gs_logctx *c, const char *data, size_t len);
int gs_logspeed_vllm_bench(gs_logctx *c, const char *data, size_t len);
int gs_logspeed_llama_timings(gs_logctx *c, const char *data, size_t len);
int gs_logspeed_vllm_stats(gs_logctx *c, const char *data, size_t len);

#endif
