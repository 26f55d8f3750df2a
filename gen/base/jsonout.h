/*
 * jsonout: JSON output with exact unsigned 64-bit integers.
 *
 * jansson holds integers as int64: a byte count at or above 2^63 would come
 * out negative. gs_jw_new_u64 keeps such a value as a marked string, and
 * gs_jw_dumps serializes the document and turns every marked string back
 * into the plain decimal number, in one linear pass. Every JSON document
 * gpusheet writes goes through gs_jw_dumps.
 */
#ifndef GS_JSONOUT_H
#define GS_JSONOUT_H

#include "buf.h"
#include "quantity.h"

#include <stdint.h>
#include <jansson.h>

/* A JSON integer for any uint64_t (new reference). */
json_t *gs_jw_new_u64(uint64_t v);
/* A JSON integer for any int64_t (new reference). */
json_t *gs_jw_new_i64(int64_t v);
/* json_dumps(root, flags) with exact u64 numbers and a final newline; NULL on failure. */
char *gs_jw_dumps(const json_t *root, size_t flags);

/*
 * A JSON document written as it goes, in the format of
 * gs_jw_dumps(root, JSON_SORT_KEYS | JSON_INDENT(2)), without a tree: for
 * the decision JSON, whose tree of a 50-offer sheet was a sixth of its CPU.
 * The caller gives each object's keys in sorted (byte) order, as
 * JSON_SORT_KEYS writes them; a key out of order is a bug (GS_BUG), so a
 * field added in the wrong place fails every test that writes it.
 */
#define GS_JW_MAX_DEPTH 32
typedef struct {
	gs_buf b;                               /* the document so far */
	size_t depth;
	int bad;                                /* a string not UTF-8 */
	size_t flat;                            /* 0, or the depth from which a container is on one line */
	unsigned char any[GS_JW_MAX_DEPTH];     /* the container has a member */
	const char *key[GS_JW_MAX_DEPTH];       /* its last key */
} gs_jw;

void gs_jw_init(gs_jw *w);
/*
 * The same, but the members of a container opened at depth flat - 1 or
 * deeper (the document is depth 0) are written on the container's line,
 * compact: flat 3 puts each element of a top-level array on a line of its
 * own, which keeps a line-oriented diff readable at a fraction of the size;
 * flat 1 writes the whole document on one line.
 */
void gs_jw_init_flat(gs_jw *w, size_t flat);
void gs_jw_object(gs_jw *w);     /* { */
void gs_jw_array(gs_jw *w);      /* [ */
void gs_jw_end(gs_jw *w);        /* } or ] */
/* The key of the next member of the object open; key must outlive the object. */
void gs_jw_key(gs_jw *w, const char *key);
void gs_jw_str(gs_jw *w, const char *s);          /* NULL: null */
void gs_jw_u64(gs_jw *w, uint64_t v);
void gs_jw_i64(gs_jw *w, int64_t v);
void gs_jw_bool(gs_jw *w, int v);
void gs_jw_null(gs_jw *w);
/* A quantity as the decision JSON writes one: {bytes, provenance[,
 * synthetic: true]}, or null when it is missing (never 0). */
void gs_jw_qty(gs_jw *w, gs_qty q);
/* A value already written as JSON on one line (a document of
 * gs_jw_init_flat(w, 1) without its final newline); NULL: a
 * value that was not UTF-8, which makes the document's gs_jw_finish NULL. */
void gs_jw_raw(gs_jw *w, const char *json);
/* The document with a final newline (caller frees); NULL, freed, when a string was not UTF-8. */
char *gs_jw_finish(gs_jw *w);

#endif
