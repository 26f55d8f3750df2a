/* hash: the one 64-bit hash of the in-memory tables (hash.h). */
#include "hash.h"

#include <string.h>

#define S_PRIME UINT64_C(0x100000001b3)   /* FNV's 64-bit prime */

uint64_t gs_hash_mix(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;
	uint64_t w;

	for (; n >= 8; n -= 8, b += 8) {
		memcpy(&w, b, 8);
		h = (h ^ w) * S_PRIME;
		h ^= h >> 29;
	}
	w = 0;
	if (n)
		memcpy(&w, b, n);   /* the tail (under 8 bytes), and its length */
	h = (h ^ w ^ ((uint64_t)n << 56)) * S_PRIME;
	return h ^ h >> 29;
}

uint64_t gs_hash_str(const char *s)
{
	return gs_hash_mix(GS_HASH_INIT, s, strlen(s));
}
