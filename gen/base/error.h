/*
 * error: the one error type of the generator (jansson's json_error_t,
 * without its fixed buffer). Every fallible function below the commands
 * takes a gs_error *err, returns 0 or -1 (or a pointer, NULL on failure)
 * and, on failure, fills err: the message, and where known the file, the
 * line and column, the JSON path or the byte offset. The commands (cli/)
 * print it and choose the exit code; nothing below them exits.
 *
 * Invariants:
 *  - No fixed buffer: the message is allocated, never cut (the printing
 *    escapes and cuts it, diag.h's gs_diag_show rules).
 *  - err may be NULL: the failure is then reported only by the return.
 *  - gs_error_set replaces what err held (the newest, closest cause
 *    wins); gs_error_prefix puts context before it ("FILE: " + message).
 *  - gs_error_set* return -1, so that `return gs_error_set(err, ...);`
 *    reports and fails in one statement.
 *  - Out of memory never goes through here: it aborts (util.h).
 *  - gs_error_set* and gs_error_prefix leave errno as it was.
 *  - gs_diag (diag.h) is the list of them, for the readers that report
 *    every error they find.
 */
#ifndef GS_ERROR_H
#define GS_ERROR_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

typedef struct gs_error {
	char *message;     /* NULL: no error */
	char *file;        /* the input, as the user named it, or NULL */
	int line, column;  /* 0: unknown */
	char *path;        /* a JSON path such as $.model.layers, or NULL */
	uint64_t offset;   /* a byte offset into file, when has_offset */
	int has_offset;
} gs_error;

#define GS_ERROR_INIT { NULL, NULL, 0, 0, NULL, 0, 0 }

int gs_error_set(gs_error *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int gs_error_vset(gs_error *err, const char *fmt, va_list ap);
/* With where it happened (file, line, column, path: NULL / 0 unknown). */
int gs_error_set_at(gs_error *err, const char *file, int line, int column, const char *path,
		    const char *fmt, ...) __attribute__((format(printf, 6, 7)));
/* Puts "PREFIX" before the message: gs_error_prefix(err, "%s: ", name). */
int gs_error_prefix(gs_error *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The message, "" when none. */
const char *gs_error_message(const gs_error *err);
/* 1 when err holds an error. */
int gs_error_is_set(const gs_error *err);
/* Moves src into dst (dst's old error freed), src left empty. */
void gs_error_move(gs_error *dst, gs_error *src);
void gs_error_release(gs_error *err);

#endif
