/*
 * ollama: a model in Ollama's local store, found by its name and tag,
 * offline.
 *
 * The store is OLLAMA_MODELS, else ~/.ollama/models (Ollama's
 * envconfig.Models). A name NAME[:TAG] of Ollama's library (host
 * registry.ollama.ai, namespace library, tag latest by default:
 * types/model/name.go) has its manifest at
 *   manifests/registry.ollama.ai/library/NAME/TAG
 * (server/manifest.go, Name.Filepath), a JSON object whose "layers" list
 * {"mediaType", "digest", "size"}; the layer of mediaType
 * "application/vnd.ollama.image.model" is the model's GGUF file, stored at
 *   blobs/sha256-HEX
 * for its digest "sha256:HEX" (server/modelpath.go, GetBlobsPath, which
 * accepts only "sha256" and 64 hex digits and writes ':' as '-').
 *
 * Invariants:
 *  - nothing is downloaded, nothing is written;
 *  - NAME and TAG are each 1 to 128 of [A-Za-z0-9._-], not starting with
 *    '.' or '-', without ".." (so no path separator and no parent folder);
 *  - the store folder is opened as named (a link to it followed: the user
 *    chose it); beneath it no symbolic link is followed, neither on the
 *    way to the manifest nor to the blob (infile.h, gs_infile_open_beneath);
 *  - the manifest is at most GS_INPUT_MAX_BYTES, JSON with duplicate keys
 *    refused, and names exactly one model layer whose digest is sha256 and
 *    64 hex digits; the blob is a regular file of the layer's size whose
 *    SHA-256 is that digest (gs_ollama_check_blob reads all of it once);
 *  - every message names the path looked at.
 */
#ifndef GS_OLLAMA_H
#define GS_OLLAMA_H

#include "error.h"

#include <stdint.h>
#include "diag.h"

/* What a model source names: "ollama:NAME[:TAG]". */
#define GS_OLLAMA_PREFIX "ollama:"
#define GS_OLLAMA_MEDIA_MODEL "application/vnd.ollama.image.model"

typedef struct {
	char *root;            /* the store folder, as a path */
	const char *root_from; /* "OLLAMA_MODELS" or "HOME" */
	char *name, *tag;      /* NAME and TAG ("latest" when not given) */
	char *manifest;        /* ROOT/manifests/registry.ollama.ai/library/NAME/TAG */
	char *blobs;           /* ROOT/blobs */
	char blob_name[72];    /* "sha256-HEX", the model layer's file in blobs/ */
	char hex[65];          /* its digest's 64 hex digits */
	uint64_t size;         /* the layer's size, from the manifest */
	int blobs_fd;          /* ROOT/blobs, open (no link followed) */
} gs_ollama_model;

/* 1 when s starts with "ollama:", 0 otherwise. */
int gs_ollama_is_ref(const char *s);
/* 1 when s (without the prefix) is NAME or NAME:TAG as the invariants say. */
int gs_ollama_name_valid(const char *s);

/*
 * Opens "ollama:NAME[:TAG]" (or "NAME[:TAG]" without the prefix) in the
 * store: the manifest read and checked, the blobs folder open. The blob
 * itself is opened by the caller (gs_infile_open_at(o->blobs_fd,
 * o->blob_name, 0, ...)) and checked with gs_ollama_check_blob. 0, or -1
 * with every message in d (o released then).
 */
int gs_ollama_open(const char *ref, gs_ollama_model *o, gs_diag *d);

/*
 * Checks the open blob fd against the manifest: its size is the layer's,
 * and the SHA-256 of all its bytes (read with pread, the file offset left
 * where it is) is the layer's digest. 0, or -1 with a message in err.
 */
int gs_ollama_check_blob(const gs_ollama_model *o, int fd, gs_error *err);

void gs_ollama_release(gs_ollama_model *o);

#endif
