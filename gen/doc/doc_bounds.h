/*
 * doc_bounds: the bounds on user Markdown, checked before parsing. Pure C,
 * no cmark-gfm: a module apart from doc.c, so that `check` of a workload
 * applies them without building a document; doc.h includes it for the
 * writers that parse notes.
 */
#ifndef GS_DOC_BOUNDS_H
#define GS_DOC_BOUNDS_H

#include "error.h"

/*
 * Bounds of user-written Markdown, checked before cmark-gfm sees it
 * (docs/formats.md): its size, the containers opened at the start of one
 * line (block quotes, list markers, and one level per 2 columns of
 * indentation), and the longest run of one delimiter character (* _ ~ `
 * [ ] ! < > \). Within them no input known to be slow in cmark-gfm 0.29
 * reaches it. 0, or -1 with the reason (and its line) in err.
 */
#define GS_DOC_MD_MAX_BYTES 16384
#define GS_DOC_MD_MAX_NESTING 16
#define GS_DOC_MD_MAX_RUN 32
int gs_doc_bounds_check(const char *md, gs_error *err);

#endif
