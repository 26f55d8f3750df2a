/*
 * hash: the one 64-bit hash of the generator's in-memory tables (chart
 * caches, the ids a site checks for duplicates): FNV's offset and prime,
 * eight bytes a step (FNV-1a a byte at a time cost as much as what a cache
 * saved), each step xor, multiply, then a shift so that high bits reach
 * the low ones.
 *
 * Invariants:
 *  - deterministic: the same bytes give the same hash on every run and in
 *    every process (no seed), on a little-endian machine;
 *  - never written to an output and never ordering one: a hash only
 *    chooses a slot or groups candidates that are then compared in full,
 *    so a collision costs a comparison, never a wrong answer;
 *  - not for an adversary (no seed): bound what an input can fill instead.
 */
#ifndef GS_HASH_H
#define GS_HASH_H

#include <stddef.h>
#include <stdint.h>

/* The starting value (FNV-1a's 64-bit offset basis). */
#define GS_HASH_INIT UINT64_C(14695981039346656037)

/* h with n bytes at p mixed in (their length too), so that a key made of
 * several parts is hashed part by part: h = gs_hash_mix(h, &x, sizeof x). */
uint64_t gs_hash_mix(uint64_t h, const void *p, size_t n);

/* The hash of a NUL-terminated string: gs_hash_mix(GS_HASH_INIT, s, strlen(s)). */
uint64_t gs_hash_str(const char *s);

#endif
