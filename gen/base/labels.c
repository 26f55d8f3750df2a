/* labels: every label a user reads, per language (named so as not to shadow <strings.h>). */
#include "labels.h"

#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datadir.h"
#include "util.h"
#include "jsonread.h"

static int S_cmp(const void *a, const void *b)
{
	return strcmp(((const gs_string *)a)->key, ((const gs_string *)b)->key);
}

/* The members of root, which must be an object of strings, into s (keys
 * and texts copied, sorted by key); errors added to d as from file. */
static int S_from_tree(json_t *root, const char *file, gs_strings *s, gs_diag *d)
{
	const char *key;
	json_t *val;
	size_t i = 0;

	if (!json_is_object(root)) {
		gs_diag_add(d, file, 0, 0, "$", "expected an object of strings");
		return -1;
	}
	s->items = gs_xcalloc(json_object_size(root) + 1, sizeof(*s->items));
	json_object_foreach(root, key, val) {
		if (!json_is_string(val)) {
			char *path = gs_jr_path_key("$", key);
			gs_diag_add(d, file, 0, 0, path, "expected a string");
			free(path);
			continue;
		}
		s->items[i].key = gs_xstrdup(key);
		s->items[i].text = gs_xstrdup(json_string_value(val));
		i++;
	}
	s->count = i;
	qsort(s->items, s->count, sizeof(*s->items), S_cmp);
	if (i != json_object_size(root)) {
		gs_tr_release(s);
		return -1;
	}
	return 0;
}

int gs_tr_parse(const char *text, size_t len, const char *file, gs_strings *s, gs_diag *d)
{
	json_error_t e;
	json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &e);
	int rc;

	memset(s, 0, sizeof(*s));
	if (!root) {
		gs_diag_add(d, file, e.line, e.column, NULL, "invalid JSON: %s", e.text);
		return -1;
	}
	rc = S_from_tree(root, file, s, d);
	json_decref(root);
	return rc;
}

static int S_load_file(const char *path, gs_lang lang, gs_strings *s, gs_diag *d)
{
	json_error_t e;
	json_t *root;
	int rc;

	memset(s, 0, sizeof(*s));
	root = gs_jr_load_path(path, JSON_REJECT_DUPLICATES, &e);
	if (!root) {
		gs_diag_add(d, path, e.line > 0 ? e.line : 0, e.column > 0 ? e.column : 0, NULL,
			    "invalid JSON: %s", e.text);
		return -1;
	}
	rc = S_from_tree(root, path, s, d);
	json_decref(root);
	s->lang = lang;
	return rc;
}

int gs_tr_load(gs_lang lang, gs_strings *s, gs_diag *d)
{
	char rel[64], path[4096];

	snprintf(rel, sizeof(rel), "templates/strings/%s.json", gs_tr_lang_id(lang));
	if (!gs_datadir_path(path, sizeof(path), rel, NULL)) {
		gs_diag_add(d, rel, 0, 0, NULL,
			    "data folder not found (set GPUSHEET_DATADIR to the folder holding catalog/ and templates/)");
		memset(s, 0, sizeof(*s));
		return -1;
	}
	return S_load_file(path, lang, s, d);
}

/*
 * The place of a key in the last table it was found in, by the key's
 * address (the keys asked for are mostly string literals, asked for again
 * and again): a sheet of 50 offers asks thousands of times, each a binary
 * search of strcmp. Checked before use (the key at that place is the key
 * asked for; a table's keys are unique), so a stale or shared entry only
 * costs the search. Per process: the site's workers are processes.
 * 4,096 places: with 256, the 200-workload site missed 25,455 of its
 * 239,253 lookups (907 now; 0.5 % of its user-space instructions).
 */
static struct {
	const char *key;
	size_t at;
} S_seen[4096];

const char *gs_tr_opt(const gs_strings *s, const char *key)
{
	size_t slot = ((uintptr_t)key >> 3 ^ (uintptr_t)key >> 11) % (sizeof(S_seen) / sizeof(S_seen[0]));
	gs_string k, *hit;

	if (S_seen[slot].key == key && S_seen[slot].at < s->count &&
	    strcmp(s->items[S_seen[slot].at].key, key) == 0)
		return s->items[S_seen[slot].at].text;
	k.key = (char *)(uintptr_t)key;
	k.text = NULL;
	hit = bsearch(&k, s->items, s->count, sizeof(*s->items), S_cmp);
	if (!hit)
		return NULL;
	S_seen[slot].key = key;
	S_seen[slot].at = (size_t)(hit - s->items);
	return hit->text;
}

const char *gs_tr(const gs_strings *s, const char *key)
{
	const char *t = gs_tr_opt(s, key);

	if (!t)
		GS_BUG("no label \"%s\" for language %s", key, gs_tr_lang_id(s->lang));
	return t;
}

void gs_tr_release(gs_strings *s)
{
	size_t i;

	for (i = 0; i < s->count; i++) {
		free(s->items[i].key);
		free(s->items[i].text);
	}
	free(s->items);
	memset(s, 0, sizeof(*s));
}

const char *gs_tr_lang_id(gs_lang lang)
{
	return lang == GS_LANG_ES ? "es" : "en";
}

int gs_tr_lang_parse(const char *id, gs_lang *out)
{
	if (strcmp(id, "en") == 0)
		*out = GS_LANG_EN;
	else if (strcmp(id, "es") == 0)
		*out = GS_LANG_ES;
	else
		return -1;
	return 0;
}
