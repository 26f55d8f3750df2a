/*
 * csv: a strict RFC 4180 reader over a buffer held in memory.
 *
 * Invariants:
 *  - fields may be quoted ("..."); a quoted field may hold commas, line
 *    breaks and doubled quotes ("" is one "); records end with CRLF or LF;
 *    a UTF-8 byte order mark at the very start is skipped;
 *  - strict: a quote inside an unquoted field, text after a closing quote,
 *    a quoted field left open at the end, a lone CR, a NUL byte, a record
 *    whose field count differs from the first record's, and anything beyond
 *    the limits below are errors with the line (and column) where they are;
 *  - a record that is entirely empty (a blank line) is skipped;
 *  - bounded: GS_CSV_MAX_FIELD bytes per field, GS_CSV_MAX_FIELDS fields per
 *    record, GS_CSV_MAX_RECORDS records; the caller bounds the input size;
 *  - every record remembers the line its first byte is on (1-based), so
 *    that a caller's message can point at it.
 *
 * Ownership: the reader borrows the buffer (it must outlive the reader);
 * the fields of a record belong to the reader and stay valid until the
 * next gs_csv_next or gs_csv_free.
 */
#ifndef GS_CSV_H
#define GS_CSV_H

#include <stddef.h>
#include "diag.h"

#define GS_CSV_MAX_FIELD (64 * 1024)
#define GS_CSV_MAX_FIELDS 256
#define GS_CSV_MAX_RECORDS 1000000

typedef struct gs_csv gs_csv;

typedef struct {
	char **fields;    /* NUL-terminated, owned by the reader */
	size_t nfields;
	int line;         /* line of the record's first byte */
} gs_csv_record;

/* A reader over data[0..len); name is used in messages (copied). */
gs_csv *gs_csv_new(const char *data, size_t len, const char *name);
/*
 * Reads the next record into *rec. Returns 1 with a record, 0 at the end,
 * -1 on an error (added to d with name, line and column); after an error
 * every later call returns -1 again without adding anything.
 */
int gs_csv_next(gs_csv *c, gs_csv_record *rec, gs_diag *d);
void gs_csv_free(gs_csv *c);

#endif
