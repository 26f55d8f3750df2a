/*
 * labels: every label a user reads, per language, from
 * templates/strings/LANG.json (a flat object of key -> text).
 *
 * Invariants: both languages hold the same keys (a unit test checks it);
 * a lookup of an unknown key is a programming error and aborts with the key,
 * so that a missing label is found by the tests, not by a reader.
 */
#ifndef GS_LABELS_H
#define GS_LABELS_H

#include <stddef.h>
#include "diag.h"
#include "quantity.h"

typedef struct {
	char *key;
	char *text;
} gs_string;

typedef struct {
	gs_lang lang;
	gs_string *items;  /* sorted by key */
	size_t count;
	char *pool;        /* the flat reader's: holds every key and text; or NULL */
} gs_strings;

/* Loads the bundled file for lang from the data folder. 0 or -1 (with d). */
int gs_tr_load(gs_lang lang, gs_strings *s, gs_diag *d);
/*
 * The labels file's own reader, which gs_tr_load tries first:
 * text must be a JSON object whose members are all strings, with distinct
 * names; each name and string is decoded as jansson decodes it (escapes,
 * \u with surrogate pairs; \u0000, control characters and invalid UTF-8
 * refused). 0 with s->items sorted and s->count set, the keys and texts in
 * one block (s->pool; gs_tr_release frees it; s->lang untouched), or
 * -1 with s empty: gs_strings_load_file then parses the file with
 * jansson, whose messages it reports. Why: jansson's reader costs a
 * function call per byte; it was the largest part of a lone sheet's own
 * CPU (bench/README.md).
 */
int gs_tr_parse_flat(const char *text, size_t len, gs_strings *s);
const char *gs_tr(const gs_strings *s, const char *key);
/* NULL when the key is unknown (for tests). */
const char *gs_tr_opt(const gs_strings *s, const char *key);
void gs_tr_release(gs_strings *s);
const char *gs_tr_lang_id(gs_lang lang);  /* "en", "es" */
/* Parses "en" / "es"; -1 otherwise. */
int gs_tr_lang_parse(const char *id, gs_lang *out);

#endif
