/* csv: a strict RFC 4180 reader over a buffer held in memory. */
#include "csv.h"
#include "buf.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct gs_csv {
	const char *p, *end;
	char *name;
	int line;            /* line of *p */
	const char *line_start;
	size_t first_nfields; /* 0 until the first record */
	size_t nrecords;
	int failed;
	/* the current record: one buffer of fields separated by NULs */
	gs_buf rec;
	size_t *starts;      /* offset of each field in rec */
	char **fields;
};

gs_csv *gs_csv_new(const char *data, size_t len, const char *name)
{
	gs_csv *c = gs_xcalloc(1, sizeof(*c));

	c->p = data;
	c->end = data + len;
	/* A UTF-8 byte order mark is not part of the first field. */
	if (len >= 3 && (unsigned char)data[0] == 0xEF && (unsigned char)data[1] == 0xBB &&
	    (unsigned char)data[2] == 0xBF)
		c->p += 3;
	c->line_start = c->p;
	c->name = gs_xstrdup(name ? name : "-");
	c->line = 1;
	gs_buf_init(&c->rec, 256);
	c->starts = gs_xcalloc(GS_CSV_MAX_FIELDS, sizeof(*c->starts));
	c->fields = gs_xcalloc(GS_CSV_MAX_FIELDS, sizeof(*c->fields));
	return c;
}

void gs_csv_free(gs_csv *c)
{
	if (!c)
		return;
	free(c->name);
	gs_buf_release(&c->rec);
	free(c->starts);
	free(c->fields);
	free(c);
}

static int S_col(const gs_csv *c, const char *at)
{
	size_t n = (size_t)(at - c->line_start) + 1;

	return n > 1000000000 ? 1000000000 : (int)n;
}

static int S_fail(gs_csv *c, gs_diag *d, int line, int col, const char *msg)
{
	gs_diag_add(d, c->name, line, col, NULL, "%s", msg);
	c->failed = 1;
	return -1;
}

static inline void S_put(gs_csv *c, char ch)
{
	gs_buf_putc(&c->rec, ch);
}

/* After a line break at p (the LF), the next line starts at p + 1. */
static void S_newline(gs_csv *c, const char *lf)
{
	c->line++;
	c->line_start = lf + 1;
}

int gs_csv_next(gs_csv *c, gs_csv_record *rec, gs_diag *d)
{
	size_t nf, i;
	int rec_line;

	memset(rec, 0, sizeof(*rec));
	if (c->failed)
		return -1;
	/* Blank lines (CRLF or LF alone) hold no record. */
	for (;;) {
		if (c->p < c->end && *c->p == '\n') {
			S_newline(c, c->p);
			c->p++;
		} else if (c->end - c->p >= 2 && c->p[0] == '\r' && c->p[1] == '\n') {
			S_newline(c, c->p + 1);
			c->p += 2;
		} else {
			break;
		}
	}
	if (c->p >= c->end)
		return 0;
	if (c->nrecords >= GS_CSV_MAX_RECORDS)
		return S_fail(c, d, c->line, 0, "too many records (the limit is 1000000)");
	rec_line = c->line;
	gs_buf_truncate(&c->rec, 0);
	nf = 0;
	for (;;) {
		/* one field */
		size_t flen = 0;

		if (nf >= GS_CSV_MAX_FIELDS)
			return S_fail(c, d, c->line, S_col(c, c->p),
				      "too many fields in one record (the limit is 256)");
		c->starts[nf++] = c->rec.len;
		if (c->p < c->end && *c->p == '"') {
			int open_line = c->line, open_col = S_col(c, c->p);
			c->p++;
			for (;;) {
				if (c->p >= c->end)
					return S_fail(c, d, open_line, open_col,
						      "quoted field is not closed before the end of the file");
				if (*c->p == '"') {
					if (c->p + 1 < c->end && c->p[1] == '"') {
						S_put(c, '"');
						c->p += 2;
					} else {
						c->p++;
						break;
					}
				} else {
					if (*c->p == '\0')
						return S_fail(c, d, c->line, S_col(c, c->p),
							      "NUL byte in the file (not a text CSV file)");
					if (*c->p == '\n')
						S_newline(c, c->p);
					S_put(c, *c->p);
					c->p++;
				}
				if (++flen > GS_CSV_MAX_FIELD)
					return S_fail(c, d, open_line, open_col,
						      "field longer than 65536 bytes");
			}
			if (c->p < c->end && *c->p != ',' && *c->p != '\n' && *c->p != '\r')
				return S_fail(c, d, c->line, S_col(c, c->p),
					      "unexpected character after a closing quote (expected ',' or the end of the line)");
		} else {
			while (c->p < c->end && *c->p != ',' && *c->p != '\n' && *c->p != '\r') {
				if (*c->p == '"')
					return S_fail(c, d, c->line, S_col(c, c->p),
						      "quote inside an unquoted field (quote the whole field and double the quote)");
				if (*c->p == '\0')
					return S_fail(c, d, c->line, S_col(c, c->p),
						      "NUL byte in the file (not a text CSV file)");
				S_put(c, *c->p);
				c->p++;
				if (++flen > GS_CSV_MAX_FIELD)
					return S_fail(c, d, c->line, S_col(c, c->p),
						      "field longer than 65536 bytes");
			}
		}
		S_put(c, '\0');
		if (c->p >= c->end)
			break;
		if (*c->p == ',') {
			c->p++;
			continue;
		}
		if (*c->p == '\r') {
			if (c->p + 1 >= c->end || c->p[1] != '\n')
				return S_fail(c, d, c->line, S_col(c, c->p),
					      "carriage return not followed by a line feed");
			c->p++;
		}
		/* *c->p == '\n' */
		S_newline(c, c->p);
		c->p++;
		break;
	}
	if (c->first_nfields == 0) {
		c->first_nfields = nf;
	} else if (nf != c->first_nfields) {
		char *msg = gs_xasprintf("record has %zu fields, the first record has %zu", nf,
					 c->first_nfields);
		int rc = S_fail(c, d, rec_line, 0, msg);
		free(msg);
		return rc;
	}
	for (i = 0; i < nf; i++)
		c->fields[i] = c->rec.data + c->starts[i];
	c->nrecords++;
	rec->fields = c->fields;
	rec->nfields = nf;
	rec->line = rec_line;
	return 1;
}
