/*
 * heap: ask the kernel for transparent huge pages under the C library's
 * heap, for the commands that read every catalog and render a sheet.
 *
 * Why: a sheet against every bundled offer touches about 10 MB of heap
 * for a few milliseconds of work on it, and each first touch of a 4 KiB
 * page is a fault. On the machines we measure on (virtual, two cores) a
 * fault costs about 10 microseconds, so the ~2,500 faults of a sheet were
 * a fifth to a third of its CPU. With the heap backed by 2 MiB pages the
 * same heap takes a few dozen faults (bench/README.md, issue 41).
 *
 * gs_heap_prefer_huge_pages() grows the heap once by its top pad (32 MiB
 * of address space, not of memory: a page counts in the resident set only
 * once touched), keeps large blocks in it rather than in mappings of their
 * own, and marks the 2 MiB-aligned part of it MADV_HUGEPAGE. It changes no
 * output and no allocation's result; where the kernel has no transparent
 * huge pages, under a sanitizer's allocator, or outside glibc, it does
 * nothing. Call it once, before the catalogs are read. Returns 1 when the
 * advice was taken, 0 otherwise.
 */
#ifndef GS_HEAP_H
#define GS_HEAP_H

int gs_heap_prefer_huge_pages(void);

#endif
