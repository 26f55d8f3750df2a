/*
 * diag: the list of errors found while reading or checking inputs.
 *
 * Every message names its file and either a line and column (syntax) or a
 * JSON path / XML line (meaning). Readers add every error they find, so
 * that `gpusheet check` can print them all; the caller decides the exit
 * code from gs_diag_count().
 *
 * Printed form:  FILE:LINE:COL: error: MESSAGE          (line known)
 *                FILE: error: at $.a.b: MESSAGE          (JSON path)
 *
 * Safe to print (one convention for every message of the program, also
 * for the one-line errors of the commands, gs_diag_error_print): control
 * characters, DEL, and every byte of an invalid or cut UTF-8 sequence are
 * written as \xNN, so a message never drives the
 * terminal and is always valid UTF-8; a value longer than GS_SHOW_MAX bytes
 * is cut there and followed by its length: "...(N bytes)". gs_diag_add
 * applies this to the JSON path and each "quoted" value of the message
 * (values read from inside a file: ids, log lines), and cuts a whole
 * message at GS_SHOW_MAX_MESSAGE bytes. A file name is never cut, only
 * escaped: a path cut in a message cannot be found again, and a checkout
 * deep enough put every test's path past any small bound (issue 37). So
 * a path in a message's text is written bare ("FILE: ...") or in single
 * quotes ('PATH'), never in double quotes, which are for values read from
 * inside a file; GS_SHOW_MAX_MESSAGE is above PATH_MAX (4,096) and the
 * quoted values a message holds, so that such a path is whole too.
 */
#ifndef GS_DIAG_H
#define GS_DIAG_H

#include <stdio.h>

typedef struct {
	char *file;    /* as given by the user */
	int line;      /* 0: unknown */
	int column;    /* 0: unknown */
	char *path;    /* JSON path such as $.model.layers, or NULL */
	char *message;
} gs_diag_item;

typedef struct {
	gs_diag_item *items;
	size_t count, alloc;
} gs_diag;

#define GS_DIAG_INIT { NULL, 0, 0 }

#define GS_SHOW_MAX 200
#define GS_SHOW_MAX_MESSAGE 8192

/* s escaped and cut as above, max bytes of it kept (0: no cut); caller frees. */
char *gs_diag_show(const char *s, size_t max);

/* Prints "gpusheet CMD: MSG\n" to stderr, MSG escaped and cut as above. */
void gs_diag_error_print(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

void gs_diag_add(gs_diag *d, const char *file, int line, int column,
		 const char *path, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
/*
 * Adds an item whose file, path and message are already in printed form
 * (taken from another gs_diag, e.g. one a worker process serialised): kept
 * as they are, not escaped or cut again.
 */
void gs_diag_add_shown(gs_diag *d, const char *file, int line, int column,
		       const char *path, const char *message);
size_t gs_diag_count(const gs_diag *d);
void gs_diag_print(const gs_diag *d, FILE *out);
void gs_diag_release(gs_diag *d);

#endif
