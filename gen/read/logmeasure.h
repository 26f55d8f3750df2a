/*
 * logmeasure: an imported log (logimport.h) turned into the text of a
 * measurement file (docs/formats.md §3), with what the flags of
 * `evidence import` add: the flags checked against the log first (a flag
 * that contradicts the log is refused at the log's line; a name the log
 * does not give is taken from the flags), then the measurement written,
 * every figure with its line, the format's row (logformat.c) saying what
 * the run was.
 *
 * Pure: no file is opened; the command reads the log, archives it and
 * writes the text this module makes.
 */
#ifndef GS_LOGMEASURE_H
#define GS_LOGMEASURE_H

#include <stddef.h>
#include <stdint.h>
#include <jansson.h>

#include "diag.h"
#include "logimport.h"

/* --gpu [K=]NAME */
typedef struct {
	int64_t index;   /* -1: every device */
	const char *name;
} gs_logmeasure_gpu;

/* --setting NAME=VALUE: a setting the log does not print, as the user states it */
typedef struct {
	char name[64];
	const char *value;
	const char *flag;    /* the flag's text, NAME=VALUE */
} gs_logmeasure_stated;

typedef struct {
	const char *log;       /* the log's path as given (messages) */
	const char *source;    /* --source */
	const char *model, *dtype, *dims;   /* --model, --dtype, --dims NAME=N,...; or NULL */
	const gs_logmeasure_gpu *gpus;
	size_t ngpus;
	const gs_logmeasure_stated *stated;
	size_t nstated;
} gs_logmeasure_flags;

/* The log as archived, for the measurement's import.log. */
typedef struct {
	const char *sha256;    /* hex */
	size_t bytes;
	const char *archived_as;
} gs_logmeasure_archive;

/* Why the flags and the log do not make a measurement. */
typedef struct {
	gs_diag d;             /* a refusal at a line of the log */
	char *msg;             /* or the command's message ("gpusheet evidence import: MSG"), or NULL */
	int usage;             /* 1: a flag is malformed (exit 2) */
} gs_logmeasure_error;

/*
 * Checks the flags against the log and completes it: a device the log
 * does not name takes the name --gpu gives (li's device names are set).
 * 0 with *dims (the measurement's dimensions: the log's, then --dims;
 * for gs_logmeasure_text, or json_decref), or -1 with e filled (release it).
 */
int gs_logmeasure_check(gs_logimport *li, const gs_logmeasure_flags *f, json_t **dims,
			gs_logmeasure_error *e);
void gs_logmeasure_error_release(gs_logmeasure_error *e);

/* "vLLM log of MODEL, imported from LOG (reported by SOURCE)": --into's covers. */
char *gs_logmeasure_covers(const gs_logimport *li, const gs_logmeasure_flags *f);

/*
 * The measurement's text (JSON, newline-ended); dims is taken (released
 * here). NULL when a cited line is not valid UTF-8.
 */
char *gs_logmeasure_text(const gs_logimport *li, const gs_logmeasure_flags *f, json_t *dims,
			 const gs_logmeasure_archive *a);

#endif
