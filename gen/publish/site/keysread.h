/*
 * keysread: the hand-written readers of a site's keys file
 * (OUT/.gpusheet-keys.json, docs/formats.md section 6, written by site.c),
 * kept apart from the build that uses them so that they are fuzzed alone
 * (tests/fuzz/fuzz_keys.c) on arbitrary bytes.
 *
 * Where the file's members and its sheets' entries lie is jsonscan.h's;
 * an entry is parsed by jansson. What is read here without jansson:
 *  - the "pages" object, streamed once in order, a member at a time
 *    (it grows with the site, so it is never loaded as a tree);
 *  - an entry's "why" array, checked without being parsed (it is most of
 *    a reused sheet's bytes, copied into the new file as they are).
 *
 * Invariants: a reader never reads outside the bytes it is given, keeps
 * nothing beyond a name and a value of bounded size, and accepts only what
 * jansson parses to the same thing (a "why" that gs_keysread_why_count accepts
 * is one json_loadb loads, an array of that many strings, nulls and
 * indexes of earlier strings).
 */
#ifndef GS_KEYSREAD_H
#define GS_KEYSREAD_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define GS_KEYS_NAME_MAX 159   /* bytes of a page's name handed over (longer: skipped) */
#define GS_KEYS_VALUE_MAX 64   /* bytes of a page's key handed over (longer: skipped) */
/* "why" is the last member of a sheet's entry: this can occur nowhere else in it. */
#define GS_KEYS_WHY_MEMBER ",\"why\":"

/* A member of "pages": its name and value, NUL-terminated, decoded. */
typedef void (*gs_keys_page_fn)(void *arg, const char *name, const char *value);

/*
 * Reads the "pages" object from the current position of f, at most len
 * bytes (its value's range in the file: white space, then the object, then
 * only white space). fn is called in order for each member whose name and
 * value are strings of at most GS_KEYS_NAME_MAX and GS_KEYS_VALUE_MAX
 * bytes without a \u escape (no name or key written by a build has one);
 * others are skipped. 0 when the bytes are an object of names and strings,
 * else -1: the caller then forgets what fn was given.
 */
int gs_keysread_pages(FILE *f, uint64_t len, gs_keys_page_fn fn, void *arg);

/*
 * The number of elements of a "why" array as a build writes it (p, n
 * bytes: compact '[', then strings, null or the index of an earlier
 * string, separated by ',', then ']'; a text never written twice; strings
 * valid UTF-8 with only the escapes JSON allows, none of \u0000 or a lone
 * surrogate), or -1.
 */
long gs_keysread_why_count(const char *p, size_t n);

/*
 * In a sheet's entry as a build writes it (buf, n bytes, {"files", "key",
 * "result", "why"} compact, "why" last), where "why"'s value starts: its
 * offset, with *why_len its length (up to the entry's closing brace), or
 * -1 when the entry does not end with a "why" of noffers elements
 * (gs_keysread_why_count). buf[n] must be readable and NUL (the search stops at
 * a NUL byte, which JSON text never holds). The entry without its reasons
 * is then buf[0, offset - (sizeof(GS_KEYS_WHY_MEMBER) - 1)) followed by '}'.
 */
long gs_keysread_why_at(const char *buf, size_t n, size_t noffers, size_t *why_len);

#endif
