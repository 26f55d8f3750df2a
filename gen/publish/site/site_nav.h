/* site_nav: the navigation between the pages of a site (the pager). */
#ifndef GS_SITE_NAV_H
#define GS_SITE_NAV_H

#include <stddef.h>

/*
 * The pages a pager of n pages links from page cur (0-based), in order,
 * into pages (at most GS_SITE_PAGER_MAX); returns how many. Every page when
 * n <= GS_SITE_PAGER_ALL; else the first and the last, cur and two on each
 * side, and at each scale p = 10, 100, ... below n the multiples of p
 * (in page numbers, from 1) in the block of 10 p pages that holds cur: a
 * page links O(log n) others instead of n (a pager of every page made the
 * per-offer pages grow as the square of the workloads), and any page is a
 * few links away from any other.
 */
#define GS_SITE_PAGER_ALL 15
#define GS_SITE_PAGER_MAX 200
size_t gs_site_nav_pager_pages(size_t cur, size_t n, size_t *pages);

#endif
