/* heap: transparent huge pages under the heap (see heap.h). */
#define _DEFAULT_SOURCE    /* sbrk, madvise */
#include "heap.h"

#include <stdint.h>
#include <stdlib.h>

#include "util.h"

#if defined(__GLIBC__)
#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>
#endif

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define S_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || \
	__has_feature(memory_sanitizer)
#define S_SANITIZED 1
#endif
#endif

#define S_MIB ((size_t)1 << 20)
#define S_HUGE ((uintptr_t)2 << 20)

int gs_heap_prefer_huge_pages(void)
{
#if defined(__GLIBC__) && defined(MADV_HUGEPAGE) && defined(M_TOP_PAD) && !defined(S_SANITIZED)
	char *lo, *hi;
	uintptr_t a;
	void *p;

	/* every growth of the heap by at least 32 MiB of address space; blocks
	 * up to 32 MiB inside it, not in mappings of their own; no trimming
	 * below 64 MiB, so that freed pages are reused, not faulted again */
	if (!mallopt(M_TOP_PAD, (int)(32 * S_MIB)) ||
	    !mallopt(M_MMAP_THRESHOLD, (int)(32 * S_MIB)) ||
	    !mallopt(M_TRIM_THRESHOLD, (int)(64 * S_MIB)))
		return 0;
	lo = sbrk(0);
	p = gs_xmalloc(S_MIB);  /* grows the heap now, by the pad */
	hi = sbrk(0);
	free(p);
	if (lo == (char *)-1 || hi == (char *)-1 || hi <= lo)
		return 0;
	a = ((uintptr_t)lo + S_HUGE - 1) & ~(S_HUGE - 1);
	if (a >= (uintptr_t)hi || (uintptr_t)hi - a < S_HUGE)
		return 0;
	return madvise((void *)a, ((uintptr_t)hi - a) & ~(S_HUGE - 1), MADV_HUGEPAGE) == 0;
#else
	return 0;
#endif
}
