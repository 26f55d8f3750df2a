/* shard: the identity of one shard of a site (shard.h). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "evidence.h"
#include "infile.h"
#include "outfile.h"
#include "shard.h"
#include "jsonread.h"

void gs_shard_range(size_t w, unsigned k, unsigned n, size_t *from, size_t *to)
{
	/* w < 2^48 and n <= 10^5: the products fit in 64 bits */
	*from = (size_t)((unsigned long long)w * (k - 1) / n);
	*to = (size_t)((unsigned long long)w * k / n);
}

static int S_number(const char *s, size_t len, unsigned *v)
{
	unsigned long r = 0;
	size_t i;

	if (!len || len > 6)
		return -1;
	for (i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		r = r * 10 + (unsigned long)(s[i] - '0');
	}
	*v = (unsigned)r;
	return 0;
}

int gs_shard_parse(const char *spec, unsigned *k, unsigned *n)
{
	const char *slash = strchr(spec, '/');

	if (!slash || S_number(spec, (size_t)(slash - spec), k) ||
	    S_number(slash + 1, strlen(slash + 1), n))
		return -1;
	return *k >= 1 && *k <= *n && *n <= GS_SHARD_MAX ? 0 : -1;
}

int gs_shard_write(const gs_shard *s, const char *dir, gs_error *err)
{
	json_t *root = json_object(), *ids = json_array(), *opt = json_object();
	char *text;
	size_t i;
	int rc;

	for (i = 0; i < s->ids.n; i++)
		json_array_append_new(ids, json_string(s->ids.v[i]));
	json_object_set_new(opt, "lang", json_string(s->lang));
	json_object_set_new(opt, "date", s->date ? json_string(s->date) : json_null());
	json_object_set_new(opt, "png", json_boolean(s->png));
	json_object_set_new(opt, "md", json_boolean(s->md));
	json_object_set_new(opt, "accept_synthetic", json_boolean(s->accept_synthetic));
	json_object_set_new(root, "format", json_string(GS_SHARD_FORMAT));
	json_object_set_new(root, "generator", json_string(s->generator));
	json_object_set_new(root, "shard", json_integer(s->k));
	json_object_set_new(root, "shards", json_integer(s->n));
	json_object_set_new(root, "workloads", json_integer((json_int_t)s->workloads));
	json_object_set_new(root, "workloads_sha256", json_string(s->workloads_sha256));
	json_object_set_new(root, "inputs_sha256", json_string(s->inputs_sha256));
	json_object_set_new(root, "from", json_integer((json_int_t)s->from));
	json_object_set_new(root, "ids", ids);
	json_object_set_new(root, "options", opt);
	json_object_set_new(root, "catalog_sha256", json_string(s->catalog_sha256));
	json_object_set_new(root, "site_key", json_string(s->site_key));
	text = json_dumps(root, JSON_SORT_KEYS | JSON_INDENT(1));
	json_decref(root);
	if (!text)
		GS_BUG("json_dumps of a shard's identity failed (out of memory)");
	rc = gs_outfile_write_atomic(dir, GS_SHARD_FILE, text, strlen(text), err);
	free(text);
	return rc;
}

void gs_shard_release(gs_shard *s)
{
	gs_util_strvec_release(&s->ids);
	free(s->generator);
	free(s->lang);
	free(s->date);
	memset(s, 0, sizeof(*s));
}

/* A hex SHA-256 member into dst; 0 or -1. */
static int S_hex(json_t *root, const char *key, char dst[65])
{
	const char *v = json_string_value(json_object_get(root, key));

	if (!v || !gs_evidence_sha256_hex_valid(v))
		return -1;
	memcpy(dst, v, 65);
	return 0;
}

/* path parsed, read as an input (a regular file within GS_INPUT_MAX_BYTES);
 * NULL with why set when it could not be read, with jerr otherwise. */
static json_t *S_load(const char *path, gs_error *why, json_error_t *jerr)
{
	size_t len;
	char *text = gs_infile_read_nofollow(path, GS_INPUT_MAX_BYTES, &len, why);
	json_t *root;

	if (!text)
		return NULL;
	root = json_loadb(text, len, JSON_REJECT_DUPLICATES, jerr);
	free(text);
	return root;
}

int gs_shard_read(const char *dir, gs_shard *s, gs_error *err)
{
	char *path = gs_xasprintf("%s/%s", dir, GS_SHARD_FILE);
	gs_error why = GS_ERROR_INIT;
	json_error_t jerr;
	json_t *root = S_load(path, &why, &jerr);
	json_t *opt = json_object_get(root, "options"), *ids = json_object_get(root, "ids");
	json_t *k = json_object_get(root, "shard"), *n = json_object_get(root, "shards");
	json_t *w = json_object_get(root, "workloads"), *from = json_object_get(root, "from");
	json_t *date = json_object_get(opt, "date"), *v;
	const char *fmt = json_string_value(json_object_get(root, "format"));
	const char *gen = json_string_value(json_object_get(root, "generator"));
	const char *lang = json_string_value(json_object_get(opt, "lang"));
	size_t i, f, t;

	struct stat st;

	memset(s, 0, sizeof(*s));
	if (!root) {
		if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
			gs_error_set(err, "cannot read the folder: %s",
				 stat(dir, &st) != 0 ? strerror(errno) : "not a folder");
		else if (lstat(path, &st) != 0)
			gs_error_set(err, "not a shard folder (no %s: see gpusheet site --shard)",
				 GS_SHARD_FILE);
		else if (gs_error_is_set(&why))
			gs_error_set(err, "%s: %s", GS_SHARD_FILE, gs_error_message(&why));
		else
			gs_error_set_at(err, GS_SHARD_FILE, jerr.line, jerr.column, NULL, "%s:%d:%d: %s",
					GS_SHARD_FILE, jerr.line, jerr.column, jerr.text);
		gs_error_release(&why);
		free(path);
		return -1;
	}
	free(path);
	if (!fmt || strcmp(fmt, GS_SHARD_FORMAT) != 0) {
		gs_error_set(err, "%s: $.format: expected \"%s\"", GS_SHARD_FILE, GS_SHARD_FORMAT);
		goto bad;
	}
	if (!json_is_integer(k) || !json_is_integer(n) || json_integer_value(n) < 1 ||
	    json_integer_value(n) > GS_SHARD_MAX || json_integer_value(k) < 1 ||
	    json_integer_value(k) > json_integer_value(n)) {
		gs_error_set(err, "%s: $.shard, $.shards: expected 1 <= shard <= shards <= %d",
			 GS_SHARD_FILE, GS_SHARD_MAX);
		goto bad;
	}
	s->k = (unsigned)json_integer_value(k);
	s->n = (unsigned)json_integer_value(n);
	if (!json_is_integer(w) || json_integer_value(w) < 0 || !json_is_integer(from) ||
	    !json_is_array(ids)) {
		gs_error_set(err, "%s: $.workloads, $.from, $.ids: expected two counts and an array",
			 GS_SHARD_FILE);
		goto bad;
	}
	s->workloads = (size_t)json_integer_value(w);
	gs_shard_range(s->workloads, s->k, s->n, &f, &t);
	if (json_integer_value(from) != (json_int_t)f || json_array_size(ids) != t - f) {
		gs_error_set(err, "%s: $.from, $.ids: shard %u/%u of %zu workloads holds [%zu, %zu), "
			 "not %zu from %lld", GS_SHARD_FILE, s->k, s->n, s->workloads, f, t,
			 json_array_size(ids), (long long)json_integer_value(from));
		goto bad;
	}
	s->from = f;
	json_array_foreach(ids, i, v) {
		const char *id = json_string_value(v);
		if (!id || !*id || strchr(id, '/') || id[0] == '.') {
			gs_error_set(err, "%s: $.ids[%zu]: expected a workload id", GS_SHARD_FILE, i);
			goto bad;
		}
		gs_util_strvec_push_dup(&s->ids, id);
	}
	if (S_hex(root, "workloads_sha256", s->workloads_sha256) ||
	    S_hex(root, "inputs_sha256", s->inputs_sha256) ||
	    S_hex(root, "catalog_sha256", s->catalog_sha256) || S_hex(root, "site_key", s->site_key)) {
		gs_error_set(err, "%s: $.workloads_sha256, $.inputs_sha256, $.catalog_sha256, $.site_key: "
			 "expected 64 lowercase hex digits", GS_SHARD_FILE);
		goto bad;
	}
	if (!gen || !lang || !(json_is_null(date) || json_is_string(date)) ||
	    !json_is_boolean(json_object_get(opt, "png")) ||
	    !json_is_boolean(json_object_get(opt, "md")) ||
	    !json_is_boolean(json_object_get(opt, "accept_synthetic"))) {
		gs_error_set(err, "%s: $.generator, $.options: expected the generator and "
			 "lang, date, png, md, accept_synthetic", GS_SHARD_FILE);
		goto bad;
	}
	s->generator = gs_xstrdup(gen);
	s->lang = gs_xstrdup(lang);
	s->date = json_is_string(date) ? gs_xstrdup(json_string_value(date)) : NULL;
	s->png = json_is_true(json_object_get(opt, "png"));
	s->md = json_is_true(json_object_get(opt, "md"));
	s->accept_synthetic = json_is_true(json_object_get(opt, "accept_synthetic"));
	json_decref(root);
	return 0;
bad:
	json_decref(root);
	gs_shard_release(s);
	return -1;
}

/* s and a newline into h (the bytes the shards' keys hash, shard.h). */
static void S_hash_line(struct sha256_ctx *h, const char *s)
{
	sha256_update(h, strlen(s), (const uint8_t *)s);
	sha256_update(h, 1, (const uint8_t *)"\n");
}

void gs_shard_keys_init(gs_shard_keys *k)
{
	sha256_init(&k->workloads);
	sha256_init(&k->inputs);
}

void gs_shard_keys_workload(gs_shard_keys *k, const char *id, const char *sha256)
{
	S_hash_line(&k->workloads, id);
	/* the inputs' bytes: the workload and each file it cites */
	S_hash_line(&k->inputs, id);
	S_hash_line(&k->inputs, sha256);
}

void gs_shard_keys_file(gs_shard_keys *k, const char *name, const char *sha256)
{
	S_hash_line(&k->inputs, name);
	S_hash_line(&k->inputs, sha256);
}

void gs_shard_keys_end(gs_shard_keys *k, char workloads_hex[65],
		       char inputs_hex[65])
{
	uint8_t dig[SHA256_DIGEST_SIZE];

	sha256_digest(&k->workloads, SHA256_DIGEST_SIZE, dig);
	gs_evidence_hex_encode(dig, SHA256_DIGEST_SIZE, workloads_hex);
	sha256_digest(&k->inputs, SHA256_DIGEST_SIZE, dig);
	gs_evidence_hex_encode(dig, SHA256_DIGEST_SIZE, inputs_hex);
}
