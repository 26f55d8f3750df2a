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
} gs_strings;

/* Loads the bundled file for lang from the data folder. 0 or -1 (with d). */
int gs_tr_load(gs_lang lang, gs_strings *s, gs_diag *d);
/*
 * text (len bytes) read by jansson, duplicate keys refused: it must be an
 * object whose members are all strings. 0 with s->items sorted by key and
 * s->count set (s->lang untouched: 0), or -1 with s empty and each error
 * added to d as from file. gs_tr_load reads the file through it.
 */
int gs_tr_parse(const char *text, size_t len, const char *file, gs_strings *s, gs_diag *d);
const char *gs_tr(const gs_strings *s, const char *key);
/* NULL when the key is unknown (for tests). */
const char *gs_tr_opt(const gs_strings *s, const char *key);
void gs_tr_release(gs_strings *s);
const char *gs_tr_lang_id(gs_lang lang);  /* "en", "es" */
/* Parses "en" / "es"; -1 otherwise. */
int gs_tr_lang_parse(const char *id, gs_lang *out);

#endif
