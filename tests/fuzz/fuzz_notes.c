/*
 * fuzz_notes: user Markdown as the notes of a sheet: the bounds, and for
 * what passes them cmark-gfm, the defusing walk and both renderings. The
 * the direct writers (doc_md.c, doc_html.c, for the trees gpusheet builds)
 * hand each block of notes to cmark-gfm: their bytes must be those of
 * cmark-gfm's renderers for the whole document (the HTML bare and
 * decorated). Else the harness aborts: a finding.
 */
#include "fuzz.h"

#include "doc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *md = malloc(size + 1);
	gs_doc doc;

	if (!md)
		abort();
	memcpy(md, data, size);
	md[size] = '\0'; /* notes are a JSON string: no NUL inside */
	if (gs_doc_bounds_check(md, NULL) == 0) {
		char *a, *b;
		gs_doc_init(&doc);
		gs_doc_user_markdown(doc.root, md);
		a = gs_doc_md_render(&doc);
		b = gs_doc_html_render(&doc);
		free(a);
		free(b);
		a = gs_doc_md_direct(doc.root);
		b = cmark_render_commonmark(doc.root, CMARK_OPT_DEFAULT, 0);
		if (a && strcmp(a, b) != 0) {
			fprintf(stderr, "direct Markdown differs from cmark-gfm's:\n%s---\n%s", a, b);
			abort();
		}
		free(a);
		free(b);
		a = gs_doc_html_direct(doc.root);
		b = cmark_render_html(doc.root, CMARK_OPT_DEFAULT, NULL);
		if (!a || strcmp(a, b) != 0) {
			fprintf(stderr, "direct HTML differs from cmark-gfm's:\n%s---\n%s",
				a ? a : "(refused)\n", b);
			abort();
		}
		free(a);
		free(b);
		a = gs_doc_html_body_direct(&doc);
		b = gs_doc_render_html_cmark(&doc);
		if (!a || strcmp(a, b) != 0) {
			fprintf(stderr, "decorated direct HTML differs:\n%s---\n%s",
				a ? a : "(refused)\n", b);
			abort();
		}
		free(a);
		free(b);
		gs_doc_release(&doc);
	}
	free(md);
	return 0;
}
