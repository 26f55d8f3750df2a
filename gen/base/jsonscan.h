/*
 * jsonscan: where the members of a large JSON object lie in a file, found
 * in one streaming pass without building a tree, so that a reader parses
 * (with jansson, from the bytes of that range) only the members it uses.
 *
 * Why: a site's keys file (site.h) holds a result per workload, 22 MB for
 * 1,000 workloads; loading it whole into a jansson tree to reuse a few
 * sheets made a rebuild's memory grow with the site.
 *
 * Invariants:
 *  - the file is a JSON object; for each of its members, and for each
 *    member of its member named `inner` when that is an object, the
 *    scan gives the member's name (decoded by jansson) and the byte range
 *    [off, off + len) of its value;
 *  - the scan checks the structure only (strings closed, brackets
 *    balanced, a ':' after each name, ',' between members, nothing after
 *    the object but white space, no name twice at either level); a
 *    value's own syntax is jansson's to check when it is parsed;
 *  - the members of `inner` are sorted by name (bytes, strcmp), for
 *    gs_jsonscan_find; memory: a name and two offsets per member.
 */
#ifndef GS_JSONSCAN_H
#define GS_JSONSCAN_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <jansson.h>

typedef struct {
	char *name;
	uint64_t off, len;   /* the value's bytes in the file */
} gs_jscan_member;

typedef struct {
	gs_jscan_member *top, *inner;  /* inner: NULL when top[inner] is absent or not an object */
	size_t ntop, ninner;
} gs_jscan;

/* Scans f from its start; 0, or -1 (not such an object; s is then empty). */
int gs_jsonscan_file(FILE *f, const char *inner, gs_jscan *s);
/* The member of inner (or of top when top is 1) named name, or NULL. */
const gs_jscan_member *gs_jsonscan_find(const gs_jscan *s, int top, const char *name);
/* Parses one member's value from the file (pread of its range); new reference or NULL. */
json_t *gs_jsonscan_load(int fd, const gs_jscan_member *m, size_t flags);
void gs_jsonscan_release(gs_jscan *s);

#endif
