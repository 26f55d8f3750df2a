/*
 * jsonread: small helpers for reading JSON strictly with jansson.
 *
 * A gs_jr carries the file name and the gs_diag that collects errors, and
 * counts the errors it added, so that a reader can go on after the first
 * one and report them all. Syntax errors (including duplicate keys, NaN,
 * integers beyond int64 and reals beyond double) come from jansson with a
 * line and column; every other error names the JSON path of the value,
 * such as $.model.parameters or $.phases[2].status.
 *
 * Member accessors share one convention:
 *   mode GS_JR_REQUIRED  the key must be there, null is a wrong type;
 *        GS_JR_OPTIONAL  the key may be absent, null is a wrong type;
 *        GS_JR_NULLABLE  the key may be absent or null (both: missing).
 *   return 1: present and valid, *out set;
 *          0: absent (or null where allowed), *out untouched;
 *         -1: an error was reported, *out untouched.
 * Strings returned through `char **out` are malloc'd: the caller frees them.
 * Every string value must be non-empty.
 */
#ifndef GS_JSONREAD_H
#define GS_JSONREAD_H

#include <stddef.h>
#include <stdint.h>
#include <jansson.h>
#include "diag.h"

enum {
	GS_JR_REQUIRED = 0,
	GS_JR_OPTIONAL = 1,
	GS_JR_NULLABLE = 2
};

typedef void (*gs_jr_bytes_fn)(void *arg, const char *text, size_t len);

typedef struct {
	const char *file;   /* as given by the user, used in every message */
	gs_diag *diag;
	size_t errors;      /* errors added through this reader */
	/* or NULL: gs_jr_load gives it the bytes it read, before parsing
	 * them, so that a caller that needs them too (a site hashes each
	 * workload for its incremental keys) reads the file once */
	gs_jr_bytes_fn on_bytes;
	void *on_bytes_arg;
	/* or NULL: the file's bytes, read already (gs_jr_read, or a caller's
	 * own confined read), which gs_jr_load parses instead of reading the
	 * file: the bytes a caller hashes or archives are then the bytes
	 * parsed, and the file is opened once */
	const char *text;
	size_t len;
} gs_jr;

void gs_jr_init(gs_jr *r, const char *file, gs_diag *d);

/*
 * Bounds of every JSON input (docs/formats.md), checked by gs_jr_load
 * before a reader sees the document: the file (GS_INPUT_MAX_BYTES, 8 MiB,
 * infile.h), each string and key, each array or object (items).
 */
#define GS_JR_MAX_STRING 65536
#define GS_JR_MAX_ITEMS 1000

/*
 * Reads r->file with duplicate keys rejected. Returns the root value, which
 * must be an object (caller json_decref()s it), or NULL with the error
 * added: `cannot read: ...`, `is a FIFO, not a regular file` (only regular
 * files are read, see infile.h), `is N bytes, more than the bound of M`,
 * `invalid JSON: <jansson text>` at line:col, or a bound above exceeded at
 * the JSON path of the value.
 */
json_t *gs_jr_load(gs_jr *r);

/*
 * The bytes of r->file as gs_jr_load reads them (a regular file within
 * GS_INPUT_MAX_BYTES; NUL-terminated, *len without the NUL; caller frees),
 * or NULL with the error added as gs_jr_load adds it.
 */
char *gs_jr_read(gs_jr *r, size_t *len);

/*
 * json_load_file's contract (the same value; line and column -1 for a file
 * that cannot be opened), but the file is read at once through
 * gs_infile_read (a regular file of at most GS_FILE_MAX_BYTES) and parsed
 * from memory: jansson's stream reader costs a library call per byte. The
 * text of a file that cannot be opened is gs_infile_read's reason ("cannot
 * read: ...", "is a FIFO, not a regular file"), without the path: the
 * caller names it whole (e->text is 160 bytes, shorter than a deep path). For our own files (labels,
 * manifests, shard identities), which gs_jr_load's bounds are not for.
 */
json_t *gs_jr_load_path(const char *path, size_t flags, json_error_t *e);

/* Adds an error at a JSON path (NULL: the whole file) and counts it. */
void gs_jr_error(gs_jr *r, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Paths: parent + ".key" (or ["key"] for keys that are not identifiers),
 * parent + "[index]". malloc'd; abort on out of memory. */
char *gs_jr_path_key(const char *parent, const char *key);
char *gs_jr_path_index(const char *parent, size_t index);

/* Short text of a value for "found X": -3, 1.5, "abc", true, null, an object. Caller frees. */
char *gs_jr_describe(json_t *v);

char *gs_jr_strdup(const char *s);   /* abort on out of memory; NULL stays NULL */

/* Calendar checks: YYYY-MM-DD that exists; RFC 3339 date-time (with T and offset). */
int gs_jr_is_date(const char *s);
int gs_jr_is_datetime(const char *s);
/* [a-z0-9][a-z0-9._-]{0,63} */
int gs_jr_is_id(const char *s);
/* (0|[1-9][0-9]*)(.[0-9]+)? ; *decimals receives the count of decimals */
int gs_jr_is_decimal(const char *s, unsigned *decimals);

/*
 * Value checks at a known path; return 0 (valid, *out set) or -1 (reported).
 */
/* Object whose keys are all in `allowed` (NULL-terminated, or NULL for any
 * key). Every unknown key is reported at its own path; the object is still
 * returned as valid (0) so that its known keys can be read. -1: not an object. */
int gs_jr_v_object(gs_jr *r, json_t *v, const char *path, const char *const *allowed);
int gs_jr_v_string(gs_jr *r, json_t *v, const char *path, char **out);
/* Integer in [min, max] (max <= INT64_MAX is all jansson can hold). */
int gs_jr_v_uint(gs_jr *r, json_t *v, const char *path,
		 uint64_t min, uint64_t max, uint64_t *out);

/*
 * Member access. Returns the member value (NULL when absent, null under
 * GS_JR_NULLABLE, or missing while required: that is reported at `path`).
 * When it returns non-NULL, *child receives the member's path (caller frees).
 */
json_t *gs_jr_member(gs_jr *r, json_t *obj, const char *path,
			   const char *key, int mode, char **child);

/* Member accessors, see the convention at the top. */
int gs_jr_object(gs_jr *r, json_t *obj, const char *path, const char *key,
		 int mode, const char *const *allowed, json_t **out, char **child);
int gs_jr_array(gs_jr *r, json_t *obj, const char *path, const char *key,
		int mode, json_t **out, char **child);
int gs_jr_string(gs_jr *r, json_t *obj, const char *path, const char *key,
		 int mode, char **out);
int gs_jr_uint(gs_jr *r, json_t *obj, const char *path, const char *key,
	       int mode, uint64_t min, uint64_t max, uint64_t *out);
int gs_jr_bool(gs_jr *r, json_t *obj, const char *path, const char *key,
	       int mode, int *out);
int gs_jr_enum(gs_jr *r, json_t *obj, const char *path, const char *key,
	       int mode, const char *const *names, int *out);
int gs_jr_size(gs_jr *r, json_t *obj, const char *path, const char *key,
	       int mode, uint64_t *bytes, char **amount, char **unit);
/* String holding a YYYY-MM-DD calendar date. */
int gs_jr_date(gs_jr *r, json_t *obj, const char *path, const char *key,
	       int mode, char **out);

#endif
