/*
 * html: the one HTML/XML text escaper, used by the sheet, the site, the
 * SVG writer and the templates.
 *
 * The set, and only it: & < > " become &amp; &lt; &gt; &quot;; every other
 * byte is written as it is (UTF-8 passes through untouched). That is safe
 * in element content and in double-quoted attribute values of HTML and of
 * XML (SVG), which is the only quoting gpusheet writes; it is not safe in
 * a single-quoted or unquoted attribute, a script, a style or a URL (an
 * href is percent-encoded by its writer first). The apostrophe is not
 * escaped: it means nothing outside a single-quoted attribute, and
 * escaping it would only lengthen English text.
 */
#ifndef GS_HTML_H
#define GS_HTML_H

#include <stddef.h>

#include "buf.h"

/* n bytes of s, escaped, appended to b. */
void gs_html_escape(gs_buf *b, const char *s, size_t n);

static inline void gs_html_escape_str(gs_buf *b, const char *s)
{
	gs_html_escape(b, s, strlen(s));
}

/* 1 when one of s's n bytes is in the set (the text would change). */
int gs_html_needs_escape(const char *s, size_t n);

#endif
