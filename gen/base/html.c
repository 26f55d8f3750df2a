/* html: see html.h. */
#include "html.h"

#include <stdint.h>

#include "util.h"

/* Per byte: 0 written as it is; else the index of its entity. */
static const unsigned char S_esc[256] = {
	['"'] = 1, ['&'] = 2, ['<'] = 3, ['>'] = 4,
};
static const char *const S_entity[] = { "", "&quot;", "&amp;", "&lt;", "&gt;" };
static const unsigned char S_entity_len[] = { 0, 6, 5, 4, 4 };

/* Where the first byte of [p, end) in the set is, or end. */
static const unsigned char *S_next(const unsigned char *p, const unsigned char *end)
{
	/* eight bytes at once while none is in the set */
	while (end - p >= 8) {
		uint64_t x = gs_swar_load(p);
		if (gs_swar_eq(x, '"') | gs_swar_eq(x, '&') | gs_swar_eq(x, '<') |
		    gs_swar_eq(x, '>'))
			break;
		p += 8;
	}
	while (p < end && !S_esc[*p])
		p++;
	return p;
}

void gs_html_escape(gs_buf *b, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + n;

	for (;;) {
		const unsigned char *q = S_next(p, end);
		unsigned e;

		gs_buf_put(b, p, (size_t)(q - p));
		if (q == end)
			return;
		e = S_esc[*q];
		gs_buf_put(b, S_entity[e], S_entity_len[e]);
		p = q + 1;
	}
}

int gs_html_needs_escape(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;

	return S_next(p, p + n) != p + n;
}
