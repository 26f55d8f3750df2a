/* fontmetrics: advance widths of the charts' font from a built-in table. */
#include "fontmetrics.h"

#include <stdlib.h>

#include "util.h"

typedef struct {
	uint32_t first;    /* first codepoint of a run of consecutive ones */
	uint16_t count;
	uint16_t at;       /* index of its first advance */
} S_run;

#include "fontmetrics_table.h"

#if S_REGULAR_UPEM != GS_FONT_UNITS_PER_EM || S_BOLD_UPEM != GS_FONT_UNITS_PER_EM
#error "the table's fonts must have GS_FONT_UNITS_PER_EM units per em"
#endif

static int S_by_cp(const void *key, const void *elt)
{
	uint32_t cp = *(const uint32_t *)key;
	const S_run *r = elt;

	if (cp < r->first)
		return -1;
	return cp >= r->first + r->count ? 1 : 0;
}

/* The advance of codepoint cp in font units (1/GS_FONT_UNITS_PER_EM em). */
static unsigned S_advance(uint32_t cp, int bold)
{
	const S_run *runs = bold ? S_bold_runs : S_regular_runs;
	size_t n = bold ? sizeof(S_bold_runs) / sizeof(S_bold_runs[0])
			: sizeof(S_regular_runs) / sizeof(S_regular_runs[0]);
	const uint16_t *adv = bold ? S_bold_adv : S_regular_adv;
	const S_run *r;

	if (cp < 0x80 && cp >= runs[0].first && cp < runs[0].first + runs[0].count)
		return adv[runs[0].at + (cp - runs[0].first)];   /* ASCII: the first run */
	r = bsearch(&cp, runs, n, sizeof(*runs), S_by_cp);
	if (!r)
		return bold ? S_BOLD_NOTDEF : S_REGULAR_NOTDEF;
	return adv[r->at + (cp - r->first)];
}

uint64_t gs_fontmetrics_units(const char *s, int bold)
{
	const unsigned char *p = (const unsigned char *)s;
	uint64_t sum = 0;

	while (*p) {
		uint32_t cp;
		size_t len = gs_util_utf8_decode(p, 4, &cp);

		/* a byte that is not UTF-8: one missing glyph */
		sum += len ? S_advance(cp, bold) : (bold ? S_BOLD_NOTDEF : S_REGULAR_NOTDEF);
		p += len ? len : 1;
	}
	return sum;
}

double gs_fontmetrics_width(const char *s, double size, int bold)
{
	return (double)gs_fontmetrics_units(s, bold) * size / GS_FONT_UNITS_PER_EM;
}
