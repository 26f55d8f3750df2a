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

void gs_diag_add(gs_diag *d, const char *file, int line, int column,
		 const char *path, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
size_t gs_diag_count(const gs_diag *d);
void gs_diag_print(const gs_diag *d, FILE *out);
void gs_diag_release(gs_diag *d);

#endif
