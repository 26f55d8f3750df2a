/* doc_bounds: the bounds on user Markdown, checked before parsing. See doc_bounds.h. */
#include "doc_bounds.h"

#include <string.h>

int gs_doc_bounds_check(const char *md, gs_error *err)
{
	size_t len = strlen(md), line = 1;
	const char *p = md;

	if (len > GS_DOC_MD_MAX_BYTES) {
		return gs_error_set(err, "Markdown of %zu bytes, more than the bound of %d bytes",
				    len, GS_DOC_MD_MAX_BYTES);
	}
	while (*p) {
		/* Containers opened at the start of a line: '>' and list markers
		 * ("-", "*", "+", "1." or "1)"), with the spaces between them. */
		const char *q = p;
		int depth = 0, indent = 0;
		size_t run = 0;
		char prev = 0;

		while (*q == ' ' || *q == '\t') {
			indent += *q == '\t' ? 4 : 1;
			q++;
		}
		for (;;) {
			while (*q == ' ' || *q == '\t')
				q++;
			if (*q == '>') {
				depth++;
				q++;
			} else if ((*q == '-' || *q == '*' || *q == '+') && (q[1] == ' ' || q[1] == '\t')) {
				depth++;
				q++;
			} else if (*q >= '0' && *q <= '9') {
				const char *d = q;
				while (*d >= '0' && *d <= '9' && d - q < 9)
					d++;
				if ((*d == '.' || *d == ')') && (d[1] == ' ' || d[1] == '\t')) {
					depth++;
					q = d + 1;
				} else {
					break;
				}
			} else {
				break;
			}
		}
		/* every 2 columns of leading indentation may open a nested list */
		if (depth + indent / 2 > GS_DOC_MD_MAX_NESTING) {
			return gs_error_set(err, "Markdown nested %d levels deep on line %zu, more "
					    "than the bound of %d", depth + indent / 2, line,
					    GS_DOC_MD_MAX_NESTING);
		}
		/* runs of one delimiter character: emphasis, links, code spans */
		for (; *q && *q != '\n'; q++) {
			if (strchr("*_~`[]!<>\\", *q) && *q == prev)
				run++;
			else
				run = 1;
			prev = *q;
			if (run > GS_DOC_MD_MAX_RUN) {
				return gs_error_set(err, "a run of more than %d '%c' on line %zu",
						    GS_DOC_MD_MAX_RUN, *q, line);
			}
		}
		p = *q ? q + 1 : q;
		line++;
	}
	return 0;
}
