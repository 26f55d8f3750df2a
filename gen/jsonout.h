/*
 * jsonout: JSON output with exact unsigned 64-bit integers.
 *
 * jansson holds integers as int64: a byte count at or above 2^63 would come
 * out negative. gs_jo_u64 keeps such a value as a marked string, and
 * gs_jo_dumps serializes the document and turns every marked string back
 * into the plain decimal number, in one linear pass. Every JSON document
 * gpusheet writes goes through gs_jo_dumps.
 */
#ifndef GS_JSONOUT_H
#define GS_JSONOUT_H

#include <stdint.h>
#include <jansson.h>

/* A JSON integer for any uint64_t (new reference). */
json_t *gs_jo_u64(uint64_t v);
/* A JSON integer for any int64_t (new reference). */
json_t *gs_jo_i64(int64_t v);
/* json_dumps(root, flags) with exact u64 numbers and a final newline; NULL on failure. */
char *gs_jo_dumps(const json_t *root, size_t flags);

#endif
