/* ollama: a model in Ollama's local store, by name and tag (ollama.h). */
#define _DEFAULT_SOURCE
#include "ollama.h"
#include "infile.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <nettle/sha2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define S_MAX_PART 128
#define S_CHUNK ((size_t)1 << 20)

/* A part of a name: 1 to 128 of [A-Za-z0-9._-], not starting with '.' or
 * '-', no "..": never a path separator, never a parent folder. */
static int S_part_ok(const char *s)
{
	size_t i, n = strlen(s);

	if (n == 0 || n > S_MAX_PART || s[0] == '.' || s[0] == '-')
		return 0;
	for (i = 0; i < n; i++) {
		char c = s[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      c == '.' || c == '_' || c == '-'))
			return 0;
		if (c == '.' && s[i + 1] == '.')
			return 0;
	}
	return 1;
}

int gs_ollama_is_ref(const char *s)
{
	return s && strncmp(s, GS_OLLAMA_PREFIX, strlen(GS_OLLAMA_PREFIX)) == 0;
}

int gs_ollama_name_valid(const char *s)
{
	const char *colon = strchr(s, ':');
	char *name = colon ? gs_xasprintf("%.*s", (int)(colon - s), s) : gs_xstrdup(s);
	int ok = S_part_ok(name) && (!colon || S_part_ok(colon + 1));

	free(name);
	return ok;
}

/* NAME[:TAG] into o->name and o->tag; -1 with a message in d. */
static int S_split(const char *ref, gs_ollama_model *o, gs_diag *d)
{
	const char *s = gs_ollama_is_ref(ref) ? ref + strlen(GS_OLLAMA_PREFIX) : ref;
	const char *colon = strchr(s, ':');

	o->name = colon ? gs_xasprintf("%.*s", (int)(colon - s), s) : gs_xstrdup(s);
	o->tag = gs_xstrdup(colon ? colon + 1 : "latest");
	if (!S_part_ok(o->name) || !S_part_ok(o->tag)) {
		gs_diag_add(d, ref, 0, 0, NULL, "not an Ollama model name: expected "
			    "ollama:NAME[:TAG], NAME and TAG each 1 to %d of letters, digits, '.', "
			    "'_' and '-' (not starting with '.' or '-', no \"..\", no '/': a model "
			    "of Ollama's library, registry.ollama.ai/library)", S_MAX_PART);
		return -1;
	}
	return 0;
}

/* The store: OLLAMA_MODELS, else HOME/.ollama/models; -1 with a message. */
static int S_root(const char *ref, gs_ollama_model *o, gs_diag *d)
{
	const char *v = getenv("OLLAMA_MODELS");

	if (v && v[0]) {
		o->root = gs_xstrdup(v);
		o->root_from = "OLLAMA_MODELS";
		return 0;
	}
	v = getenv("HOME");
	if (v && v[0]) {
		o->root = gs_xasprintf("%s/.ollama/models", v);
		o->root_from = "HOME";
		return 0;
	}
	gs_diag_add(d, ref, 0, 0, NULL, "no Ollama store to look in: set OLLAMA_MODELS (or HOME)");
	return -1;
}

/* 1 when s is "sha256:" or "sha256-" and 64 lower-case hex digits. */
static int S_digest_ok(const char *s)
{
	size_t i;

	if (strncmp(s, "sha256", 6) != 0 || (s[6] != ':' && s[6] != '-'))
		return 0;
	for (i = 7; i < 71; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return 0;
	return s[71] == '\0';
}

/* The one model layer of the manifest's "layers": its digest and size into
 * o; -1 with a message naming the JSON path. */
static int S_layer(json_t *root, gs_ollama_model *o, gs_diag *d)
{
	json_t *layers = json_object_get(root, "layers"), *l, *mt, *dg, *sz;
	size_t i, found = 0, at = 0;
	char path[64];

	if (!json_is_array(layers)) {
		gs_diag_add(d, o->manifest, 0, 0, "$.layers", "expected an array of layers "
			    "(an Ollama manifest: {\"layers\": [{\"mediaType\", \"digest\", "
			    "\"size\"}, ...]})");
		return -1;
	}
	json_array_foreach(layers, i, l) {
		mt = json_object_get(l, "mediaType");
		if (json_is_string(mt) && strcmp(json_string_value(mt), GS_OLLAMA_MEDIA_MODEL) == 0) {
			found++;
			at = i;
		}
	}
	if (found != 1) {
		if (found)
			gs_diag_add(d, o->manifest, 0, 0, "$.layers", "%zu layers of mediaType "
				    "\"%s\": expected one, the model's GGUF file", found,
				    GS_OLLAMA_MEDIA_MODEL);
		else
			gs_diag_add(d, o->manifest, 0, 0, "$.layers", "no layer of mediaType \"%s\": "
				    "no model layer, so no GGUF file to read", GS_OLLAMA_MEDIA_MODEL);
		return -1;
	}
	l = json_array_get(layers, at);
	dg = json_object_get(l, "digest");
	sz = json_object_get(l, "size");
	if (!json_is_string(dg) || !S_digest_ok(json_string_value(dg))) {
		snprintf(path, sizeof(path), "$.layers[%zu].digest", at);
		gs_diag_add(d, o->manifest, 0, 0, path, "expected \"sha256:\" and 64 lower-case hex "
			    "digits (the only digests Ollama accepts)");
		return -1;
	}
	if (!json_is_integer(sz) || json_integer_value(sz) < 0) {
		snprintf(path, sizeof(path), "$.layers[%zu].size", at);
		gs_diag_add(d, o->manifest, 0, 0, path, "expected the layer's size in bytes, a "
			    "whole number");
		return -1;
	}
	memcpy(o->hex, json_string_value(dg) + 7, 64);
	o->hex[64] = '\0';
	snprintf(o->blob_name, sizeof(o->blob_name), "sha256-%s", o->hex);
	o->size = (uint64_t)json_integer_value(sz);
	return 0;
}

/* Reads and checks the manifest beneath the store; -1 with a message. */
static int S_manifest(gs_ollama_model *o, gs_diag *d)
{
	char *rel = gs_xasprintf("manifests/registry.ollama.ai/library/%s/%s", o->name, o->tag);
	gs_error err = GS_ERROR_INIT;
	json_error_t je;
	json_t *root = NULL;
	char *text = NULL;
	size_t len = 0;
	int fd, rc = -1;

	o->manifest = gs_xasprintf("%s/%s", o->root, rel);
	fd = gs_infile_open_beneath(o->root, rel, GS_INPUT_MAX_BYTES, &err);
	if (fd >= 0)
		text = gs_infile_read_fd(fd, GS_INPUT_MAX_BYTES, &len, &err);
	if (!text) {
		gs_diag_add(d, o->manifest, 0, 0, NULL, "no manifest of ollama:%s:%s in the Ollama "
			    "store %s (%s%s): %s; `ollama pull %s:%s` fetches it", o->name, o->tag,
			    o->root, o->root_from, strcmp(o->root_from, "HOME") == 0
			    ? ", the default; set OLLAMA_MODELS for another" : "",
			    gs_error_message(&err), o->name, o->tag);
		goto out;
	}
	root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
	if (!root) {
		gs_diag_add(d, o->manifest, je.line, je.column, NULL, "%s", je.text);
		goto out;
	}
	if (!json_is_object(root)) {
		gs_diag_add(d, o->manifest, 0, 0, "$", "expected a JSON object (an Ollama manifest)");
		goto out;
	}
	rc = S_layer(root, o, d);
out:
	json_decref(root);
	free(text);
	free(rel);
	gs_error_release(&err);
	return rc;
}

int gs_ollama_open(const char *ref, gs_ollama_model *o, gs_diag *d)
{
	int rfd;

	memset(o, 0, sizeof(*o));
	o->blobs_fd = -1;
	if (S_split(ref, o, d) || S_root(ref, o, d) || S_manifest(o, d))
		goto fail;
	o->blobs = gs_xasprintf("%s/blobs", o->root);
	/* the store as named, then blobs/ beneath it without following a link */
	rfd = open(o->root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (rfd >= 0) {
		o->blobs_fd = openat(rfd, "blobs", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		close(rfd);
	}
	if (o->blobs_fd < 0) {
		gs_diag_add(d, o->blobs, 0, 0, NULL, "cannot open the store's blobs folder: %s%s",
			    strerror(errno), errno == ELOOP || errno == ENOTDIR
			    ? " (a symbolic link is not followed beneath the store)" : "");
		goto fail;
	}
	return 0;
fail:
	gs_ollama_release(o);
	return -1;
}

int gs_ollama_check_blob(const gs_ollama_model *o, int fd, gs_error *err)
{
	struct sha256_ctx ctx;
	uint8_t dig[SHA256_DIGEST_SIZE];
	char hex[65];
	unsigned char *buf;
	struct stat st;
	uint64_t off = 0;
	size_t i;

	if (fstat(fd, &st) != 0)
		return gs_error_set(err, "cannot read: %s", strerror(errno));
	if ((uint64_t)st.st_size != o->size)
		return gs_error_set(err, "%llu bytes, but the manifest %s gives the model layer "
				    "%llu: a blob cut short or replaced", (unsigned long long)st.st_size,
				    o->manifest, (unsigned long long)o->size);
	buf = gs_xmalloc(S_CHUNK);
	sha256_init(&ctx);
	while (off < o->size) {
		ssize_t r = pread(fd, buf, S_CHUNK, (off_t)off);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			free(buf);
			return gs_error_set(err, "cannot read at byte %llu: %s",
					    (unsigned long long)off, r ? strerror(errno)
					    : "the file ends early");
		}
		sha256_update(&ctx, (size_t)r, buf);
		off += (uint64_t)r;
	}
	free(buf);
	sha256_digest(&ctx, SHA256_DIGEST_SIZE, dig);
	for (i = 0; i < SHA256_DIGEST_SIZE; i++)
		snprintf(hex + 2 * i, 3, "%02x", dig[i]);
	if (strcmp(hex, o->hex) != 0)
		return gs_error_set(err, "its SHA-256 is %s, not the digest the manifest %s names: "
				    "a damaged or replaced blob (`ollama pull %s:%s` fetches it again)",
				    hex, o->manifest, o->name, o->tag);
	return 0;
}

void gs_ollama_release(gs_ollama_model *o)
{
	if (!o)
		return;
	free(o->root);
	free(o->name);
	free(o->tag);
	free(o->manifest);
	free(o->blobs);
	if (o->blobs_fd >= 0)
		close(o->blobs_fd);
	memset(o, 0, sizeof(*o));
	o->blobs_fd = -1;
}
