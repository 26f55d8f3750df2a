/* workload: the workload sheet, read strictly from JSON (docs/formats.md §1). */
#define _DEFAULT_SOURCE
#include "workload.h"
#include "jsonread.h"
#include "util.h"
#include "quantity.h"
#include "hfcache.h"
#include "ollama.h"
#include "model.h"
#include "wformat.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <string.h>

#define S_MAX ((uint64_t)INT64_MAX)
/* Generous caps: beyond them a value is a typo, not a model. */
#define S_MAX_GEOMETRY UINT64_C(1048576)     /* layers, heads, head_dim */
#define S_MAX_BYTES_PER_VALUE 16
#define S_MAX_CAMPAIGN_DAYS 3660

static int S_check_relative(const char *f);

/* Standard dimension names, in the order they are kept in gs_workload.dims. */
static const char *const S_dim_names[] = {
	"input_tokens", "output_tokens", "batch", "microbatch", "sequences",
	"image_width", "image_height", "images", NULL
};

static const char *const S_task_names[] = { "inference", "adaptation", "training", NULL };
static const char *const S_cache_names[] = { "dense", "static", "sliding", NULL };
static const char *const S_input_labels[] = { "usual", "long", "limit", NULL };

const char *gs_workload_task_id(gs_task t)
{
	switch (t) {
	case GS_TASK_INFERENCE: return "inference";
	case GS_TASK_ADAPTATION: return "adaptation";
	case GS_TASK_TRAINING: return "training";
	}
	return "unknown";
}

const char *gs_workload_cache_id(gs_cache_kind c)
{
	switch (c) {
	case GS_CACHE_NONE: return "none";
	case GS_CACHE_DENSE: return "dense";
	case GS_CACHE_STATIC: return "static";
	case GS_CACHE_SLIDING: return "sliding";
	}
	return "unknown";
}

const char *gs_workload_condition(const gs_workload *w, const char *name)
{
	size_t i;

	for (i = 0; i < w->nconditions; i++)
		if (strcmp(w->conditions[i].name, name) == 0)
			return w->conditions[i].value;
	return NULL;
}

int gs_workload_version_valid(const char *v)
{
	const char *p = v;

	for (;;) {
		if (!(*p >= '0' && *p <= '9'))
			return 0;
		while (*p >= '0' && *p <= '9')
			p++;
		if (*p == '\0')
			return 1;
		if (*p++ != '.')
			return 0;
	}
}

/* the ".postN" that ends v, or NULL */
static const char *S_post_suffix(const char *v)
{
	const char *p = strstr(v, ".post");
	const char *q;

	if (!p || p == v)
		return NULL;
	q = p + 5;
	if (!(*q >= '0' && *q <= '9'))
		return NULL;
	while (*q >= '0' && *q <= '9')
		q++;
	return *q == '\0' ? p : NULL;
}

int gs_workload_release_valid(const char *v)
{
	const char *p = S_post_suffix(v);
	char buf[64];
	size_t n;

	if (!p)
		return gs_workload_version_valid(v);
	n = (size_t)(p - v);
	if (n >= sizeof(buf))
		return 0;
	memcpy(buf, v, n);
	buf[n] = '\0';
	return gs_workload_version_valid(buf);
}

uint64_t gs_workload_version_post(const char *v)
{
	const char *p = S_post_suffix(v);
	uint64_t x = 0;

	if (!p)
		return 0;
	for (p += 5; *p; p++)
		x = x < UINT64_MAX / 10 ? x * 10 + (uint64_t)(*p - '0') : UINT64_MAX;
	return x;
}

/*
 * The leading dotted numbers of a version ("2.5.1+cu124" -> 2, 5, 1), at
 * most 8 parts, each saturated; returns the count (0: no leading number).
 */
static size_t S_version_parts(const char *v, uint64_t parts[8])
{
	size_t n = 0;

	while (n < 8 && *v >= '0' && *v <= '9') {
		uint64_t x = 0;
		while (*v >= '0' && *v <= '9') {
			x = x < UINT64_MAX / 10 ? x * 10 + (uint64_t)(*v - '0') : UINT64_MAX;
			v++;
		}
		parts[n++] = x;
		if (!(v[0] == '.' && v[1] >= '0' && v[1] <= '9'))
			break;
		v++;
	}
	return n;
}

int gs_workload_version_at_least(const char *have, const char *need)
{
	uint64_t h[8], n[8];
	size_t nh = S_version_parts(have, h), nn = S_version_parts(need, n), i;

	if (nh == 0)
		return -1;
	/* A missing part reads as 0: 12 >= 12.0, 12.4 >= 12. */
	for (i = 0; i < nh || i < nn; i++) {
		uint64_t a = i < nh ? h[i] : 0, b = i < nn ? n[i] : 0;
		if (a != b)
			return a > b;
	}
	return 1;
}

uint64_t gs_workload_millibits(const gs_workload *w)
{
	return w->storage_millibits ? w->storage_millibits : (uint64_t)w->storage_bits * 1000;
}

uint64_t gs_workload_dim(const gs_workload *w, const char *name, int *found)
{
	size_t i;

	for (i = 0; i < w->ndims; i++) {
		if (strcmp(w->dims[i].name, name) == 0) {
			if (found)
				*found = 1;
			return w->dims[i].value;
		}
	}
	if (found)
		*found = 0;
	return 0;
}

static void S_free_items(gs_item *items, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(items[i].name);
		free(items[i].unit);
		free(items[i].amount);
		free(items[i].reason);
	}
	free(items);
}

static void S_free_dims(gs_dim *dims, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(dims[i].name);
	free(dims);
}

void gs_workload_release(gs_workload *w)
{
	size_t i;

	if (!w)
		return;
	free(w->path);
	free(w->id);
	free(w->title);
	free(w->model_name);
	free(w->model_revision);
	free(w->model_from);
	free(w->model_ollama);
	free(w->model_repo);
	free(w->cache_layout);
	if (w->model) {
		gs_model_release(w->model);
		free(w->model);
	}
	free(w->model_key);
	free(w->geometry_source);
	free(w->weights_source);
	free(w->storage_format);
	free(w->compute_format);
	free(w->reference_format);
	S_free_dims(w->dims, w->ndims);
	S_free_items(w->reserve, w->nreserve);
	S_free_items(w->training, w->ntraining);
	free(w->req_software);
	free(w->campaign_start);
	free(w->budget_currency);
	free(w->quality_criterion);
	free(w->quality_evidence);
	free(w->quality_evidence_date);
	free(w->quality_evidence_scope);
	for (i = 0; i < w->nreq_sw; i++) {
		free(w->req_sw[i].name);
		free(w->req_sw[i].min_version);
	}
	free(w->req_sw);
	for (i = 0; i < w->nconditions; i++) {
		free(w->conditions[i].name);
		free(w->conditions[i].value);
	}
	free(w->conditions);
	free(w->host_interconnect);
	for (i = 0; i < w->nregions; i++)
		free(w->regions[i]);
	free(w->regions);
	free(w->regions_text);
	free(w->placement);
	free(w->speed_assumptions_source);
	for (i = 0; i < 3; i++) {
		free(w->inputs[i].label);
		free(w->inputs[i].description);
		S_free_dims(w->inputs[i].dims, w->inputs[i].ndims);
	}
	for (i = 0; i < w->nevidence; i++) {
		free(w->evidence[i].file);
		free(w->evidence[i].path);
		free(w->evidence[i].covers);
	}
	free(w->evidence);
	for (i = 0; i < w->ncandidates; i++)
		free(w->candidates[i]);
	free(w->candidates);
	free(w->notes_md);
	free(w->runtime.version);
	memset(w, 0, sizeof(*w));
}

/* ---- pieces ---- */

static int S_cmp_key(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int S_is_dim_name(const char *s)
{
	const char *p;

	if (!(*s >= 'a' && *s <= 'z'))
		return 0;
	for (p = s + 1; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_'))
			return 0;
	return 1;
}

static const gs_dim *S_find_dim(const gs_dim *dims, size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(dims[i].name, name) == 0)
			return &dims[i];
	return NULL;
}

static int S_is_env_name(const char *s)
{
	const char *p;

	if (!(*s >= 'A' && *s <= 'Z'))
		return 0;
	for (p = s + 1; *p; p++)
		if (!((*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_'))
			return 0;
	return 1;
}

/*
 * One meaning for batch, microbatch and sequences (docs/formats.md):
 * `batch` sequences are processed together in one step, so their caches are
 * all kept at once; `sequences` counts every sequence whose cache is kept
 * at once, so it is never below the batch; a microbatch splits the batch.
 */
static void S_check_dims(gs_jr *r, const char *path, const gs_dim *dims, size_t n)
{
	const gs_dim *b = S_find_dim(dims, n, "batch");
	const gs_dim *s = S_find_dim(dims, n, "sequences");
	const gs_dim *mb = S_find_dim(dims, n, "microbatch");
	char *kp;

	if (b && s && s->value < b->value) {
		kp = gs_jr_path_key(path, "sequences");
		gs_jr_error(r, kp, "sequences (%llu) is below batch (%llu): a batch of %llu "
			    "keeps the KV cache of %llu sequences at once, and sequences counts "
			    "every sequence whose cache is kept at once; give sequences >= batch, "
			    "or leave sequences out",
			    (unsigned long long)s->value, (unsigned long long)b->value,
			    (unsigned long long)b->value, (unsigned long long)b->value);
		free(kp);
	}
	if (b && mb && mb->value > b->value) {
		kp = gs_jr_path_key(path, "microbatch");
		gs_jr_error(r, kp, "microbatch (%llu) is above batch (%llu): a microbatch is a "
			    "part of the batch", (unsigned long long)mb->value,
			    (unsigned long long)b->value);
		free(kp);
	}
}

/*
 * A dimensions object: the standard names in their fixed order, then the
 * names under "extra" sorted, so that output does not depend on key order.
 */
static void S_read_dims(gs_jr *r, json_t *obj, const char *path,
			gs_dim **out, size_t *nout)
{
	static const char *allowed[] = {
		"input_tokens", "output_tokens", "batch", "microbatch", "sequences",
		"image_width", "image_height", "images", "extra", NULL
	};
	gs_dim *dims;
	size_t n = 0, i, cap;
	json_t *extra = NULL;
	char *xpath = NULL;

	if (gs_jr_v_object(r, obj, path, allowed) != 0)
		return;
	gs_jr_object(r, obj, path, "extra", GS_JR_OPTIONAL, NULL, &extra, &xpath);
	cap = 8 + (extra ? json_object_size(extra) : 0);
	dims = gs_xcalloc(cap, sizeof(*dims));
	for (i = 0; S_dim_names[i]; i++) {
		uint64_t v;
		if (gs_jr_uint(r, obj, path, S_dim_names[i], GS_JR_OPTIONAL, 1, S_MAX, &v) == 1) {
			dims[n].name = gs_jr_strdup(S_dim_names[i]);
			dims[n].value = v;
			n++;
		}
	}
	if (extra) {
		const char **keys = gs_xcalloc(json_object_size(extra), sizeof(*keys));
		size_t nk = 0, k;
		const char *key;
		json_t *val;
		json_object_foreach(extra, key, val)
			keys[nk++] = key;
		qsort(keys, nk, sizeof(*keys), S_cmp_key);
		for (k = 0; k < nk; k++) {
			char *kp = gs_jr_path_key(xpath, keys[k]);
			uint64_t v;
			int std = 0;
			for (i = 0; S_dim_names[i]; i++)
				if (strcmp(S_dim_names[i], keys[k]) == 0)
					std = 1;
			if (!S_is_dim_name(keys[k]))
				gs_jr_error(r, kp, "a dimension name is [a-z][a-z0-9_]*");
			else if (std)
				gs_jr_error(r, kp, "\"%s\" is a standard dimension: give it "
					    "outside \"extra\"", keys[k]);
			else if (gs_jr_v_uint(r, json_object_get(extra, keys[k]), kp,
					      1, S_MAX, &v) == 0) {
				dims[n].name = gs_jr_strdup(keys[k]);
				dims[n].value = v;
				n++;
			}
			free(kp);
		}
		free(keys);
	}
	free(xpath);
	*out = dims;
	*nout = n;
	S_check_dims(r, path, dims, n);
}

/* An array of named sizes: reserve items or training components. */
static void S_read_items(gs_jr *r, json_t *arr, const char *path,
			 gs_item **out, size_t *nout)
{
	static const char *allowed[] = { "name", "size", "reason", NULL };
	size_t i, n = 0;
	gs_item *items;

	items = gs_xcalloc(json_array_size(arr), sizeof(*items));
	for (i = 0; i < json_array_size(arr); i++) {
		json_t *o = json_array_get(arr, i);
		char *ip = gs_jr_path_index(path, i);
		gs_item it;
		int ok = 1;
		memset(&it, 0, sizeof(it));
		if (gs_jr_v_object(r, o, ip, allowed) == 0) {
			ok &= gs_jr_string(r, o, ip, "name", GS_JR_REQUIRED, &it.name) == 1;
			ok &= gs_jr_size(r, o, ip, "size", GS_JR_REQUIRED, &it.bytes,
					 &it.amount, &it.unit) == 1;
			ok &= gs_jr_string(r, o, ip, "reason", GS_JR_OPTIONAL, &it.reason) >= 0;
		} else {
			ok = 0;
		}
		if (ok) {
			items[n++] = it;
		} else {
			free(it.name);
			free(it.amount);
			free(it.unit);
			free(it.reason);
		}
		free(ip);
	}
	*out = items;
	*nout = n;
}

static size_t S_dir_len(const char *path);
static int S_check_relative(const char *f);

/*
 * The model at path (a folder or file) or, path NULL, w->model_repo at rev
 * in the Hugging Face cache; when it is not there (no such path, the repo
 * or revision not in the cache), the files archived under w->model_key by
 * an earlier sheet (gs_model_archive_use), if any. A model read from the
 * cache at a commit archived already must have the bytes archived.
 */
static int S_model_read(gs_jr *r, gs_workload *w, gs_model *mf, const char *path,
			const char *rev)
{
	gs_diag quiet = GS_DIAG_INIT;
	struct stat st;
	int absent, rc;
	size_t i;

	if (w->model_ollama) {
		gs_ollama_model o;
		absent = gs_ollama_open(w->model_ollama, &o, &quiet) != 0;
		if (!absent)
			gs_ollama_release(&o);
	} else if (path) {
		absent = lstat(path, &st) != 0 && errno == ENOENT;
	} else {
		gs_hf_model h;
		absent = gs_hfcache_open(w->model_repo, rev, &h, &quiet) != 0;
		if (!absent)
			gs_hfcache_release(&h);
	}
	if (absent && gs_model_read_archived(w->model_key, mf, &rc, r->diag)) {
		gs_diag_release(&quiet);
		return rc;
	}
	if (absent && !path) {
		/* the store's or the cache's own message: where it looked, what fetches it */
		for (i = 0; i < quiet.count; i++)
			gs_diag_add_shown(r->diag, quiet.items[i].file, quiet.items[i].line,
					  quiet.items[i].column, quiet.items[i].path,
					  quiet.items[i].message);
		gs_diag_release(&quiet);
		return -1;
	}
	gs_diag_release(&quiet);
	rc = w->model_ollama ? gs_model_read_ollama(w->model_ollama, mf, r->diag)
	   : path ? gs_model_read(path, mf, r->diag)
	   : gs_model_read_repo(w->model_repo, rev, mf, r->diag);
	if (rc == 0 && gs_model_check_archived(w->model_key, mf, r->diag) != 0) {
		gs_model_release(mf);
		rc = -1;
	}
	return rc;
}

/*
 * "model.ollama": NAME[:TAG] of Ollama's local store (ollama.h), read as
 * `gpusheet model ollama:NAME[:TAG]` reads it; archived under the key
 * "ollama:NAME:TAG". 1 when the model was read.
 */
static int S_read_model_ollama(gs_jr *r, gs_workload *w, json_t *m, const char *mp,
			       gs_model *mf)
{
	char *fp = gs_jr_path_key(mp, "ollama"), *name = NULL;
	int ok = 0;

	if (gs_jr_string(r, m, mp, "ollama", GS_JR_REQUIRED, &name) != 1) {
		free(fp);
		return 0;
	}
	if (!gs_ollama_name_valid(name)) {
		gs_jr_error(r, fp, "expected NAME[:TAG] of Ollama's library, each 1 to 128 of "
			    "letters, digits, '.', '_' and '-' (no '/', no \"..\"), found \"%s\"",
			    name);
		free(name);
		free(fp);
		return 0;
	}
	w->model_ollama = gs_xasprintf("%s%s%s", GS_OLLAMA_PREFIX, name,
				       strchr(name, ':') ? "" : ":latest");
	w->model_key = gs_xstrdup(w->model_ollama);
	ok = S_model_read(r, w, mf, NULL, NULL) == 0;
	if (!ok)
		gs_jr_error(r, fp, "cannot read the model \"%s\" from Ollama's store (errors "
			    "above)", name);
	else
		/* what the sheet shows its files under: the name at its manifest */
		w->model_from = gs_xstrdup(w->model_ollama);
	free(name);
	free(fp);
	return ok;
}

/*
 * "model.from" or "model.repo": reads the model's files (gen/read/model.h), from
 * a folder or file (a path absolute or relative to the sheet's folder: the
 * model is read, never published, so it may lie anywhere), or from the
 * local Hugging Face cache by repo id at "model.revision" (default main).
 * Their errors go to the same diagnostics; 1 when the model was read.
 * A model read from the cache records its commit (S_model_revision).
 */
static int S_read_model_from(gs_jr *r, gs_workload *w, json_t *m, const char *mp, gs_model *mf)
{
	char *fp, *path;
	size_t dl;
	int ok, has_from, has_repo, has_ollama;

	has_from = gs_jr_string(r, m, mp, "from", GS_JR_OPTIONAL, &w->model_from) == 1;
	has_repo = gs_jr_string(r, m, mp, "repo", GS_JR_OPTIONAL, &w->model_repo) == 1;
	has_ollama = json_object_get(m, "ollama") != NULL;
	if (has_from + has_repo + has_ollama > 1) {
		gs_jr_error(r, mp, "\"from\", \"repo\" and \"ollama\": one names the model, "
			    "keep one");
		return 0;
	}
	if (has_ollama)
		return S_read_model_ollama(r, w, m, mp, mf);
	if (has_repo) {
		json_t *rv = json_object_get(m, "revision");
		const char *rev = json_is_string(rv) ? json_string_value(rv) : NULL;
		fp = gs_jr_path_key(mp, "repo");
		if (!gs_hfcache_is_repo_id(w->model_repo)) {
			gs_jr_error(r, fp, "expected a Hugging Face repo id ORG/NAME, found \"%s\"",
				    w->model_repo);
			free(fp);
			return 0;
		}
		if (rv && !rev) {
			free(fp);
			return 0;   /* the type error is reported with "revision" */
		}
		w->model_key = gs_model_key_repo(w->model_repo, rev);
		ok = S_model_read(r, w, mf, NULL, rev) == 0;
		if (!ok)
			gs_jr_error(r, fp, "cannot read the model \"%s\" from the Hugging Face "
				    "cache (errors above)", w->model_repo);
		else
			/* what the sheet shows its files under: the repo at its commit */
			w->model_from = gs_xasprintf("%s@%s", w->model_repo, mf->commit);
		free(fp);
		return ok;
	}
	if (!has_from)
		return 0;
	fp = gs_jr_path_key(mp, "from");
	if (!w->model_from[0] || strchr(w->model_from, '\\')) {
		gs_jr_error(r, fp, "expected the path of the model's folder or file, found \"%s\"",
			    w->model_from);
		free(fp);
		return 0;
	}
	dl = w->model_from[0] == '/' ? 0 : S_dir_len(w->path);
	path = gs_xasprintf("%.*s%s", (int)dl, w->path, w->model_from);
	w->model_key = gs_model_key_path(w->id, w->model_from);
	ok = S_model_read(r, w, mf, path, NULL) == 0;
	if (!ok)
		gs_jr_error(r, fp, "cannot read the model from '%s' (errors above)", path);
	if (ok && mf->repo_id)
		w->model_repo = gs_xstrdup(mf->repo_id);
	free(path);
	free(fp);
	return ok;
}

/*
 * A model read from the Hugging Face cache: its commit is the sheet's
 * revision. A commit stated by hand must be that one.
 */
static void S_model_revision(gs_jr *r, gs_workload *w, const char *mp, const gs_model *mf)
{
	if (!mf->commit)
		return;
	if (w->model_revision && gs_hfcache_is_commit(w->model_revision) &&
	    strcmp(w->model_revision, mf->commit) != 0) {
		char *kp = gs_jr_path_key(mp, "revision");
		gs_jr_error(r, kp, "commit %s here, but the model's files are those of commit %s "
			    "(%s): remove it or make them agree", w->model_revision, mf->commit,
			    mf->folder);
		free(kp);
		return;
	}
	free(w->model_revision);
	w->model_revision = gs_xstrdup(mf->commit);
}

/* A value stated by hand must agree with the files; absent, the files fill it. */
static void S_from_value(gs_jr *r, const char *mp, const char *key, int stated,
			 uint64_t *value, int file_has, uint64_t file_value, const char *source)
{
	if (!file_has)
		return;
	if (stated && *value != file_value) {
		char *kp = gs_jr_path_key(mp, key);
		gs_jr_error(r, kp, "%s is %llu here but %llu in %s: remove it or make them agree",
			    key, (unsigned long long)*value, (unsigned long long)file_value, source);
		free(kp);
		return;
	}
	*value = file_value;
}

static char *S_join_files(const char *from, const gs_strvec *files)
{
	char *out = gs_xstrdup(""), *n;
	size_t i;

	for (i = 0; i < files->n; i++) {
		n = gs_xasprintf("%s%s%s/%s", out, i ? ", " : "", from, files->v[i]);
		free(out);
		out = n;
	}
	return out;
}

/* The groups' layers add up to the model's. */
static void S_check_layout(gs_jr *r, gs_workload *w, const char *mp)
{
	uint64_t sum = 0;
	size_t i;

	if (!w->ncache_layout)
		return;
	for (i = 0; i < w->ncache_layout; i++)
		sum += w->cache_layout[i].layers;
	if (w->has_kv_geometry && sum != w->layers) {
		char *kp = gs_jr_path_key(mp, "cache_layout");
		gs_jr_error(r, kp, "the groups hold %llu layers, the model %llu (model.layers)",
			    (unsigned long long)sum, (unsigned long long)w->layers);
		free(kp);
	}
	if (w->has_active_parameters && w->active_parameters > w->parameters && w->parameters) {
		char *kp = gs_jr_path_key(mp, "active_parameters");
		gs_jr_error(r, kp, "active_parameters (%llu) is more than parameters (%llu)",
			    (unsigned long long)w->active_parameters,
			    (unsigned long long)w->parameters);
		free(kp);
	}
}

/* One group of model.cache_layout; every key its kind uses is required
 * but v_head_dim (head_dim unless stated). */
static void S_read_group(gs_jr *r, json_t *o, const char *gp, gs_kv_group *g)
{
	static const char *const all[] = {
		"kind", "layers", "kv_heads", "head_dim", "v_head_dim", "window", "chunk",
		"kv_lora_rank", "qk_rope_head_dim", "qk_nope_head_dim", "conv_dim", "conv_kernel",
		"conv_bytes_per_value", "state_values", "state_bytes_per_value", NULL
	};
	static const char *const kinds[] = { "full", "sliding", "chunked", "mla", "state", "none",
					     NULL };
	const char *const *keys;
	const char *key;
	json_t *v;
	int kind = -1;
	size_t i;

	memset(g, 0, sizeof(*g));
	if (gs_jr_v_object(r, o, gp, all) != 0)
		return;
	if (gs_jr_enum(r, o, gp, "kind", GS_JR_REQUIRED, kinds, &kind) != 1)
		return;
	g->kind = (gs_kv_kind)kind;
	gs_jr_uint(r, o, gp, "layers", GS_JR_REQUIRED, 1, S_MAX_GEOMETRY, &g->layers);
	keys = gs_kvlayout_kind_keys(g->kind);
	json_object_foreach(o, key, v) {
		int used = strcmp(key, "kind") == 0 || strcmp(key, "layers") == 0;
		for (i = 0; keys[i]; i++)
			used |= strcmp(keys[i], key) == 0;
		if (!used) {
			char *kp = gs_jr_path_key(gp, key);
			gs_jr_error(r, kp, "a \"%s\" group has no %s", kinds[kind], key);
			free(kp);
		}
	}
	for (i = 0; keys[i]; i++) {
		uint64_t max = strstr(keys[i], "bytes_per_value") ? S_MAX_BYTES_PER_VALUE
			     : strcmp(keys[i], "state_values") == 0 || strcmp(keys[i], "window") == 0 ||
			       strcmp(keys[i], "chunk") == 0 ? S_MAX : S_MAX_GEOMETRY;
		int optional = strcmp(keys[i], "v_head_dim") == 0;
		gs_jr_uint(r, o, gp, keys[i], optional ? GS_JR_OPTIONAL : GS_JR_REQUIRED, 1, max,
			   gs_kvlayout_field(g, keys[i]));
	}
	if ((g->kind == GS_KV_FULL || g->kind == GS_KV_SLIDING || g->kind == GS_KV_CHUNKED) &&
	    !g->v_head_dim)
		g->v_head_dim = g->head_dim;
}

/* model.cache_layout: an array of groups, at most one per kind, in any order. */
static void S_read_layout(gs_jr *r, gs_workload *w, json_t *m, const char *mp)
{
	json_t *a, *e;
	char *ap;
	size_t i, j;

	if (gs_jr_array(r, m, mp, "cache_layout", GS_JR_OPTIONAL, &a, &ap) != 1)
		return;
	if (json_array_size(a) == 0 || json_array_size(a) > GS_KV_KINDS) {
		gs_jr_error(r, ap, "expected 1 to %d groups of layers", GS_KV_KINDS);
		free(ap);
		return;
	}
	w->cache_layout = gs_xcalloc(json_array_size(a), sizeof(*w->cache_layout));
	json_array_foreach(a, i, e) {
		char *gp = gs_jr_path_index(ap, i);
		S_read_group(r, e, gp, &w->cache_layout[i]);
		for (j = 0; j < i; j++)
			if (w->cache_layout[j].kind == w->cache_layout[i].kind &&
			    json_object_get(e, "kind"))
				gs_jr_error(r, gp, "a second \"%s\" group: one group per kind",
					    gs_kvlayout_kind_id(w->cache_layout[i].kind));
		free(gp);
	}
	w->ncache_layout = json_array_size(a);
	free(ap);
}

/* The files' layout fills an absent one; a stated one must agree with them. */
static void S_layout_from_model(gs_jr *r, gs_workload *w, const char *mp, const gs_model *mf,
				const char *src)
{
	size_t i;

	if (!gs_model_layout_needed(mf))
		return;
	if (w->ncache_layout) {
		int same = w->ncache_layout == mf->nlayout;
		for (i = 0; same && i < mf->nlayout; i++)
			same = gs_kvlayout_group_equal(&w->cache_layout[i], &mf->layout[i]);
		if (!same) {
			char *kp = gs_jr_path_key(mp, "cache_layout");
			gs_jr_error(r, kp, "cache_layout differs from the one %s implies: remove it "
				    "or make them agree (`gpusheet model --json` shows it)", src);
			free(kp);
		}
		return;
	}
	w->cache_layout = gs_xmalloc(mf->nlayout * sizeof(*w->cache_layout));
	memcpy(w->cache_layout, mf->layout, mf->nlayout * sizeof(*w->cache_layout));
	w->ncache_layout = mf->nlayout;
	w->cache_layout_from_files = 1;
}

static void S_fill_from_model(gs_jr *r, gs_workload *w, json_t *m, const char *mp,
			      const gs_model *mf, const int *stated)
{
	uint64_t params;
	char *src = mf->geometry_file ? gs_xasprintf("%s/%s", w->model_from, mf->geometry_file)
				      : NULL;
	char *wsrc = NULL;

	if (mf->weights == GS_WEIGHTS_INDEX)
		wsrc = gs_xasprintf("%s/%s (metadata.total_size)", w->model_from, mf->index_file);
	else if (mf->weights != GS_WEIGHTS_NONE)
		wsrc = S_join_files(w->model_from, &mf->weight_files);
	if (!w->model_name)
		w->model_name = gs_model_display_name(mf, w->model_from);
	if (gs_model_params(mf, &params) == 0)
		S_from_value(r, mp, "parameters", json_object_get(m, "parameters") != NULL,
			     &w->parameters, 1, params, mf->has_header_params ? wsrc : src);
	else if (!json_object_get(m, "parameters"))
		gs_jr_error(r, mp, "the model files give no parameter count: state "
			    "\"parameters\"");
	if (src) {
		S_from_value(r, mp, "layers", stated[0], &w->layers, mf->has_layers, mf->layers, src);
		S_from_value(r, mp, "attention_heads", stated[1], &w->attention_heads,
			     mf->has_attention_heads, mf->attention_heads, src);
		S_from_value(r, mp, "kv_heads", stated[2], &w->kv_heads, mf->has_kv_heads,
			     mf->kv_heads, src);
		S_from_value(r, mp, "head_dim", stated[3], &w->head_dim, mf->has_head_dim,
			     mf->head_dim, src);
		/* one window for every layer only; a per-layer pattern is not one window */
		if (mf->has_sliding_window && mf->sliding_pattern &&
		    strcmp(mf->sliding_pattern, "every_layer") == 0) {
			S_from_value(r, mp, "sliding_window", w->has_sliding_window,
				     &w->sliding_window, 1, mf->sliding_window, src);
			w->has_sliding_window = 1;
		}
		w->has_kv_geometry = (stated[0] || mf->has_layers) &&
				     (stated[1] || mf->has_attention_heads) &&
				     (stated[2] || mf->has_kv_heads) && (stated[3] || mf->has_head_dim);
		S_layout_from_model(r, w, mp, mf, src);
		if (mf->has_active_params)
			S_from_value(r, mp, "active_parameters", w->has_active_parameters,
				     &w->active_parameters, 1, mf->active_params, src);
		w->has_active_parameters |= mf->has_active_params;
		w->geometry_source = src;
		src = NULL;
	}
	if (mf->weights != GS_WEIGHTS_NONE) {
		w->weights_bytes = mf->weight_bytes;
		w->has_weights_bytes = 1;
		w->weights_from_index = mf->weights == GS_WEIGHTS_INDEX;
		w->weights_source = wsrc;
		wsrc = NULL;
	}
	free(src);
	free(wsrc);
}

static void S_read_model(gs_jr *r, gs_workload *w, json_t *root, gs_model *mf, int *have)
{
	static const char *allowed[] = {
		"name", "revision", "from", "repo", "ollama", "parameters", "layers", "attention_heads",
		"kv_heads", "head_dim", "sliding_window", "cache_layout", "active_parameters", NULL
	};
	static const char *geo[] = { "layers", "attention_heads", "kv_heads", "head_dim" };
	uint64_t *geov[4];
	int have_geo[4], count = 0, i, from;
	json_t *m;
	char *mp;

	if (gs_jr_object(r, root, "$", "model", GS_JR_REQUIRED, allowed, &m, &mp) != 1)
		return;
	from = json_object_get(m, "from") != NULL || json_object_get(m, "repo") != NULL ||
	       json_object_get(m, "ollama") != NULL;
	*have = S_read_model_from(r, w, m, mp, mf);
	gs_jr_string(r, m, mp, "name", from ? GS_JR_OPTIONAL : GS_JR_REQUIRED, &w->model_name);
	gs_jr_string(r, m, mp, "revision", GS_JR_OPTIONAL, &w->model_revision);
	if (*have)
		S_model_revision(r, w, mp, mf);
	gs_jr_uint(r, m, mp, "parameters", from ? GS_JR_OPTIONAL : GS_JR_REQUIRED, 1, S_MAX,
		   &w->parameters);
	geov[0] = &w->layers;
	geov[1] = &w->attention_heads;
	geov[2] = &w->kv_heads;
	geov[3] = &w->head_dim;
	for (i = 0; i < 4; i++) {
		have_geo[i] = gs_jr_uint(r, m, mp, geo[i], GS_JR_OPTIONAL, 1, S_MAX_GEOMETRY,
					 geov[i]) == 1;
		count += json_object_get(m, geo[i]) != NULL;
	}
	/* The four go together, so that none of them is ever "0 meaning missing". */
	if (!from && count > 0 && count < 4) {
		for (i = 0; i < 4; i++)
			if (!json_object_get(m, geo[i]))
				gs_jr_error(r, mp, "missing required key \"%s\" (layers, "
					    "attention_heads, kv_heads and head_dim go together)",
					    geo[i]);
	}
	w->has_kv_geometry = have_geo[0] && have_geo[1] && have_geo[2] && have_geo[3];
	w->has_sliding_window = gs_jr_uint(r, m, mp, "sliding_window", GS_JR_OPTIONAL,
					   1, S_MAX, &w->sliding_window) == 1;
	w->has_active_parameters = gs_jr_uint(r, m, mp, "active_parameters", GS_JR_OPTIONAL, 1,
					      S_MAX, &w->active_parameters) == 1;
	S_read_layout(r, w, m, mp);
	if (*have)
		S_fill_from_model(r, w, m, mp, mf, have_geo);
	S_check_layout(r, w, mp);
	if (!w->has_kv_geometry) {
		w->layers = w->attention_heads = w->kv_heads = w->head_dim = 0;
	} else if (w->kv_heads > w->attention_heads) {
		char *kp = gs_jr_path_key(mp, "kv_heads");
		gs_jr_error(r, kp, "kv_heads (%llu) is larger than attention_heads (%llu)",
			    (unsigned long long)w->kv_heads,
			    (unsigned long long)w->attention_heads);
		free(kp);
	}
	free(mp);
}

/* Storage bits of the checkpoint: its main dtype, or bytes x 8 / parameters
 * rounded up for a quantized GGUF. 0 when the files do not say. */
static unsigned S_model_bits(const gs_model *mf)
{
	const gs_model_dtype *t = gs_model_main_dtype(mf);
	uint64_t p;

	/* a GGUF, or an index of a quantized checkpoint whose config states no
	 * dtype (gpt-oss): the effective width, bytes x 8 / parameters, rounded up */
	if ((mf->weights == GS_WEIGHTS_GGUF ||
	     (mf->weights == GS_WEIGHTS_INDEX && !mf->torch_dtype_bits && mf->quant_method)) &&
	    gs_model_params(mf, &p) == 0 && p > 0) {
		unsigned __int128 b = ((unsigned __int128)mf->weight_bytes * 8 + p - 1) / p;
		return b >= 1 && b <= 64 ? (unsigned)b : 0;
	}
	if (t && t->block == 1)
		return (unsigned)(t->block_bytes * 8);
	return mf->torch_dtype_bits;
}

/* "bf16" (the main dtype, lower case), "GGUF Q4_K", or the config's torch_dtype. */
static char *S_model_format(const gs_model *mf)
{
	const gs_model_dtype *t = gs_model_main_dtype(mf);
	char *s;
	size_t i;

	if (mf->weights == GS_WEIGHTS_GGUF && t)
		return gs_xasprintf("GGUF %s", t->name);
	if (mf->quant_method && !t)
		return gs_xasprintf("%s (quantization_config)", mf->quant_method);
	if (t) {
		s = gs_xstrdup(t->name);
		for (i = 0; s[i]; i++)
			if (s[i] >= 'A' && s[i] <= 'Z')
				s[i] = (char)(s[i] - 'A' + 'a');
		return s;
	}
	return gs_xstrdup_or_null(mf->torch_dtype);
}

/*
 * weights.storage_bits: 1 to 64, a whole number or a decimal of at most 3
 * places (4.5). A JSON real is the double nearest its text; m / 1000 is
 * correctly rounded too, so the two are equal exactly when the text had at
 * most 3 decimals. Returns as gs_jr_uint.
 */
static int S_read_millibits(gs_jr *r, json_t *o, const char *op, int mode, uint64_t *out)
{
	json_t *v = json_object_get(o, "storage_bits");
	char *kp;
	double x, m;

	if (!json_is_real(v)) {
		int rc = gs_jr_uint(r, o, op, "storage_bits", mode, 1, 64, out);
		if (rc == 1)
			*out *= 1000;
		return rc;
	}
	x = json_real_value(v);
	m = x * 1000.0;
	kp = gs_jr_path_key(op, "storage_bits");
	if (!(x >= 1.0 && x <= 64.0) || (double)(uint64_t)(m + 0.5) / 1000.0 != x) {
		gs_jr_error(r, kp, "expected a number of bits from 1 to 64 with at most 3 "
			    "decimals, such as 4.5");
		free(kp);
		return -1;
	}
	free(kp);
	*out = (uint64_t)(m + 0.5);
	return 1;
}

/*
 * weights.format: the checkpoint's geometry in another format (wformat.h),
 * with model.from or model.repo; the bytes by the format's rule, the width
 * they imply (bytes x 8 / parameters, rounded up to a thousandth) and the
 * format's name as storage_format. storage_bits and storage_format are
 * the format's to say: refused beside it.
 */
static void S_read_format(gs_jr *r, gs_workload *w, json_t *o, const gs_model *mf, int have)
{
	const char *name = json_string_value(json_object_get(o, "format"));
	gs_wformat_result res;
	char *why = NULL;
	int id = gs_wformat_find(name);

	if (id < 0) {
		gs_jr_error(r, "$.weights.format", "expected one of %s", gs_wformat_names());
		return;
	}
	if (json_object_get(o, "storage_bits") || json_object_get(o, "storage_format")) {
		gs_jr_error(r, "$.weights.format", "format gives the storage bits and format: "
			    "remove storage_bits and storage_format");
		return;
	}
	if (!have) {
		gs_jr_error(r, "$.weights.format", "a format is calculated from the model's own "
			    "geometry: it needs model.from or model.repo");
		return;
	}
	if (gs_wformat_bytes(mf, (gs_wformat_id)id, &res, &why)) {
		gs_jr_error(r, "$.weights.format", "%s", why);
		free(why);
		return;
	}
	w->weights_format = id + 1;
	w->weights_format_kept = res.kept_params;
	w->weights_format_experts_only = res.experts_only;
	w->weights_bytes = res.bytes;
	w->has_weights_bytes = 1;
	w->weights_from_index = 0;
	free(w->weights_source);
	w->weights_source = NULL;
	if (w->parameters > 0) {
		unsigned __int128 m = ((unsigned __int128)res.bytes * 8000 + w->parameters - 1) /
				      w->parameters;
		w->storage_millibits = m < 1000 ? 1000 : m > 64000 ? 64000 : (uint64_t)m;
		w->storage_bits = (unsigned)((w->storage_millibits + 999) / 1000);
	}
	w->storage_format = gs_xstrdup(res.name);
	gs_jr_string(r, o, "$.weights", "compute_format", GS_JR_OPTIONAL, &w->compute_format);
	if (!w->compute_format)
		w->compute_format = gs_xstrdup("bf16");
}

static void S_read_weights(gs_jr *r, gs_workload *w, json_t *root, const gs_model *mf,
			   int have)
{
	static const char *allowed[] = {
		"storage_bits", "storage_format", "compute_format", "reference_format", "format",
		NULL
	};
	uint64_t bits = 0, milli = 0;
	char mb[GS_FMT_MAX];
	unsigned file_bits = have ? S_model_bits(mf) : 0;
	int mode = file_bits ? GS_JR_OPTIONAL : GS_JR_REQUIRED;
	int mode_compute = file_bits && mf->weights != GS_WEIGHTS_GGUF ? GS_JR_OPTIONAL
								       : GS_JR_REQUIRED;
	json_t *o;
	char *op;

	if (gs_jr_object(r, root, "$", "weights", GS_JR_REQUIRED, allowed, &o, &op) != 1)
		return;
	if (json_object_get(o, "format")) {
		S_read_format(r, w, o, mf, have);
		gs_jr_string(r, o, op, "reference_format", GS_JR_OPTIONAL, &w->reference_format);
		free(op);
		return;
	}
	if (S_read_millibits(r, o, op, mode, &milli) == 1 && file_bits &&
	    milli != (uint64_t)file_bits * 1000)
		gs_jr_error(r, "$.weights.storage_bits", "storage_bits is %s here but the "
			    "checkpoint in '%s' stores %u bits per parameter: remove it or "
			    "make them agree", gs_qty_fmt_millibits(mb, milli), w->model_from, file_bits);
	else if (milli == 0 && file_bits)
		milli = (uint64_t)file_bits * 1000;
	if (milli) {
		bits = (milli + 999) / 1000;
		w->storage_millibits = milli;
		w->storage_bits = (unsigned)bits;
		/* parameters x bits is the weights' size in bits: it must fit */
		if (w->parameters > 0 && w->parameters > UINT64_MAX / bits)
			gs_jr_error(r, "$.model.parameters",
				    "parameters x storage_bits (%llu x %u) overflows 64 bits",
				    (unsigned long long)w->parameters, w->storage_bits);
	}
	gs_jr_string(r, o, op, "storage_format", mode, &w->storage_format);
	if (!w->storage_format && file_bits)
		w->storage_format = S_model_format(mf);
	gs_jr_string(r, o, op, "compute_format", mode_compute, &w->compute_format);
	if (!w->compute_format && mode_compute == GS_JR_OPTIONAL && w->storage_format)
		w->compute_format = gs_xstrdup(w->storage_format);
	gs_jr_string(r, o, op, "reference_format", GS_JR_OPTIONAL, &w->reference_format);
	free(op);
}

/*
 * cache.dtype and cache.bytes_per_value: one of them at least; a plain
 * dtype's width and bytes_per_value agree; a block type (q8_0, q4_0) has
 * no whole bytes per value, so bytes_per_value is left out.
 */
static void S_read_cache_width(gs_jr *r, gs_workload *w, json_t *o, const char *op)
{
	const gs_kvdtype *t = NULL;
	int id = -1, has_bpv = json_object_get(o, "bytes_per_value") != NULL;
	char *kp;

	if (gs_jr_enum(r, o, op, "dtype", GS_JR_OPTIONAL, gs_kvdtype_ids, &id) == 1)
		t = gs_kvdtype_find(gs_kvdtype_ids[id]);
	if (!t) {
		if (id < 0 && json_object_get(o, "dtype"))
			return; /* the enum said what it takes */
		gs_jr_uint(r, o, op, "bytes_per_value", GS_JR_REQUIRED, 1, S_MAX_BYTES_PER_VALUE,
			   &w->cache_bytes_per_value);
		w->cache_block_values = 1;
		w->cache_block_bytes = w->cache_bytes_per_value;
		return;
	}
	w->cache_dtype = t;
	w->cache_block_values = t->block_values;
	w->cache_block_bytes = t->block_bytes;
	kp = gs_jr_path_key(op, "bytes_per_value");
	if (gs_kvdtype_is_block(t)) {
		if (has_bpv)
			gs_jr_error(r, kp, "cache.dtype \"%s\" keeps %llu B per block of %llu "
				    "values, not whole bytes per value: leave bytes_per_value out",
				    t->name, (unsigned long long)t->block_bytes,
				    (unsigned long long)t->block_values);
	} else if (gs_jr_uint(r, o, op, "bytes_per_value", GS_JR_OPTIONAL, 1,
			      S_MAX_BYTES_PER_VALUE, &w->cache_bytes_per_value) == 1 &&
		   w->cache_bytes_per_value != t->block_bytes) {
		gs_jr_error(r, kp, "bytes_per_value %llu disagrees with cache.dtype \"%s\" "
			    "(%llu B per value)", (unsigned long long)w->cache_bytes_per_value,
			    t->name, (unsigned long long)t->block_bytes);
	} else {
		w->cache_bytes_per_value = t->block_bytes;
	}
	free(kp);
}

/*
 * A block type (q8_0, q4_0) is llama.cpp's: it needs every head a whole
 * number of blocks (llama_init_from_model refuses "K cache type q8_0 with
 * block size 32 does not divide n_embd_head_k"), a uniform geometry (a
 * cache_layout is sized as vLLM and transformers keep it, and neither
 * keeps these types), and no vLLM runtime (its --kv-cache-dtype is auto or
 * fp8). Runs after the model, the cache and the runtime are read.
 */
static void S_check_cache_dtype(gs_jr *r, gs_workload *w)
{
	const gs_kvdtype *t = w->cache_dtype;

	if (!gs_kvdtype_is_block(t) || w->cache == GS_CACHE_NONE)
		return;
	if (w->ncache_layout)
		gs_jr_error(r, "$.cache.dtype", "\"%s\" is llama.cpp's block type, and the model's "
			    "layers do not all keep the same cache (model.cache_layout), which is "
			    "sized as vLLM and transformers keep it: neither keeps \"%s\"; use "
			    "fp16, bf16 or fp8", t->name, t->name);
	else if (w->has_kv_geometry && w->head_dim % t->block_values != 0)
		gs_jr_error(r, "$.cache.dtype", "\"%s\" keeps blocks of %llu values along a "
			    "head, and model.head_dim %llu is not a multiple of %llu: llama.cpp "
			    "refuses it (\"K cache type %s with block size %llu does not divide "
			    "n_embd_head_k=%llu\")", t->name, (unsigned long long)t->block_values,
			    (unsigned long long)w->head_dim, (unsigned long long)t->block_values,
			    t->name, (unsigned long long)t->block_values,
			    (unsigned long long)w->head_dim);
	if (w->runtime.engine == GS_ENGINE_VLLM)
		gs_jr_error(r, "$.cache.dtype", "\"%s\" is llama.cpp's block type: vLLM keeps no "
			    "such cache (its --kv-cache-dtype is auto or fp8); use fp8 or leave "
			    "the runtime out", t->name);
}

static void S_read_cache(gs_jr *r, gs_workload *w, json_t *root)
{
	static const char *allowed[] = { "kind", "dtype", "bytes_per_value", "max_tokens", NULL };
	json_t *o, *model;
	char *op;
	int kind = -1;

	if (gs_jr_object(r, root, "$", "cache", GS_JR_OPTIONAL, allowed, &o, &op) != 1)
		return;
	if (gs_jr_enum(r, o, op, "kind", GS_JR_REQUIRED, S_cache_names, &kind) == 1)
		w->cache = (gs_cache_kind)(kind + 1);
	S_read_cache_width(r, w, o, op);
	w->has_cache_max_tokens = gs_jr_uint(r, o, op, "max_tokens", GS_JR_OPTIONAL, 1, S_MAX,
					     &w->cache_max_tokens) == 1;
	model = json_object_get(root, "model");
	/* a partial geometry is reported by S_read_model; here: none at all, or
	 * model files that do not give it */
	if (json_is_object(model) && !w->has_kv_geometry && !w->ncache_layout &&
	    (json_object_get(model, "from") || json_object_get(model, "repo") ||
	     json_object_get(model, "ollama") || (!json_object_get(model, "layers") && !json_object_get(model, "attention_heads") &&
	      !json_object_get(model, "kv_heads") && !json_object_get(model, "head_dim"))))
		gs_jr_error(r, op, "a KV cache needs model.layers, model.attention_heads, "
			    "model.kv_heads and model.head_dim");
	if (w->cache == GS_CACHE_STATIC && !json_object_get(o, "max_tokens"))
		gs_jr_error(r, op, "missing required key \"max_tokens\" (a static cache "
			    "preallocates its maximum)");
	if (kind >= 0 && w->cache != GS_CACHE_STATIC && json_object_get(o, "max_tokens")) {
		char *kp = gs_jr_path_key(op, "max_tokens");
		gs_jr_error(r, kp, "max_tokens is only for a static cache");
		free(kp);
	}
	if (w->cache == GS_CACHE_SLIDING && json_is_object(model) && !w->has_sliding_window &&
	    !json_object_get(model, "sliding_window"))
		gs_jr_error(r, op, "a sliding cache needs model.sliding_window");
	if ((w->cache == GS_CACHE_DENSE || w->cache == GS_CACHE_SLIDING) &&
	    json_is_object(json_object_get(root, "dimensions")) &&
	    !json_object_get(json_object_get(root, "dimensions"), "input_tokens") &&
	    !json_object_get(json_object_get(root, "dimensions"), "output_tokens"))
		gs_jr_error(r, op, "a %s cache keeps input + output tokens: it needs "
			    "dimensions.input_tokens or dimensions.output_tokens",
			    S_cache_names[kind]);
	if (w->cache == GS_CACHE_NONE) {
		w->cache_bytes_per_value = 0;
		w->cache_block_values = w->cache_block_bytes = 0;
		w->cache_dtype = NULL;
		w->has_cache_max_tokens = 0;
		w->cache_max_tokens = 0;
	}
	free(op);
}

/*
 * LoRA's targets against the model's modules, named as its checkpoint
 * names them (recipe.h): "all-linear" made every linear module it has; a
 * module it does not have refused, with those it has (multi-head latent
 * attention: q_a_proj, q_b_proj or q_proj, kv_a_proj_with_mqa, kv_b_proj,
 * o_proj; Phi-3's fused qkv_proj and gate_up_proj, GPT-NeoX's
 * query_key_value, dense, dense_h_to_4h, dense_4h_to_h; other attention:
 * q_proj, k_proj, v_proj, o_proj). A projection that the checkpoint fuses
 * (q_proj on Phi-3) is refused naming the fused module: PEFT would find no
 * module of that name, and mapping it to the fused one would size an
 * adapter over q, k and v that the recipe did not ask for.
 */
static void S_recipe_targets(gs_jr *r, gs_recipe *rc, const char *path)
{
	unsigned bad, has = gs_recipe_modules(rc->names, rc->mla, rc->mla_q_rank) | rc->extra;
	size_t i;

	rc->targets = gs_recipe_resolve(rc->targets, has, &bad);
	for (i = 0; bad && gs_recipe_target_names[i]; i++) {
		char *lp, *tp, *msg;
		if (!(bad & (1u << i)))
			continue;
		lp = gs_jr_path_key(path, "lora");
		tp = gs_jr_path_key(lp, "targets");
		msg = gs_recipe_bad_target(1u << i, rc->names, rc->mla, rc->mla_q_rank);
		gs_jr_error(r, tp, "%s", msg);
		free(msg);
		free(tp);
		free(lp);
	}
}

/* The hybrids' layers from the model's files (recipe.h hybrid): each
 * mixer and feed-forward kind's layers, and the state mixers' widths;
 * refused when config.json did not lay every layer out. */
static void S_recipe_hybrid(gs_jr *r, gs_recipe *rc, const gs_model *m)
{
	uint64_t n = 0;
	size_t i, j;

	for (i = 0; i < GS_MIXERS; i++)
		for (j = 0; j < 3; j++)
			n += m->layer_mix[i][j];
	if (!m->has_layers || n != m->layers) {
		gs_jr_error(r, "$.model", "a training recipe for this hybrid of attention and state "
			    "layers needs each layer's kind from its config.json "
			    "(hybrid_override_pattern, layer_types or full_attention_interval), "
			    "which the model's files do not give");
		return;
	}
	rc->hybrid = 1;
	memcpy(rc->mix, m->layer_mix, sizeof(rc->mix));
	rc->q_gate = m->arch == GS_ARCH_QWEN3_NEXT;
	rc->norms = m->arch == GS_ARCH_NEMOTRON_H ? 1 : 2;
	rc->state = m->state;
}

/*
 * The layer kinds a recipe sizes (decide/training.h): multi-head latent
 * attention from the model's files; the hybrids of attention and state
 * layers (Mamba2, Gated DeltaNet: Nemotron-H, Qwen3-Next) per layer kind,
 * from the model's files too; LoRA's targets checked against the modules
 * the model has (S_recipe_targets).
 */
static void S_recipe_kinds(gs_jr *r, gs_workload *w, const char *path)
{
	gs_recipe *rc = &w->recipe;
	const gs_model *m = w->model;
	size_t i;

	for (i = 0; i < w->ncache_layout; i++) {
		if (w->cache_layout[i].kind == GS_KV_STATE &&
		    !(m && gs_recipe_hybrid_arch((int)m->arch))) {
			gs_jr_error(r, "$.model", "a training recipe for layers that keep a state "
				    "(%llu here: Mamba2 or Gated DeltaNet) needs the model's files "
				    "(model.from or model.repo) of a covered hybrid (Nemotron-H, "
				    "Qwen3-Next): the state mixers' widths are not in "
				    "model.cache_layout",
				    (unsigned long long)w->cache_layout[i].layers);
			return;
		}
		if (w->cache_layout[i].kind == GS_KV_MLA && !(m && m->kv_lora_rank)) {
			gs_jr_error(r, "$.model", "a training recipe for multi-head latent attention "
				    "needs the model's files (model.from or model.repo): its "
				    "q_lora_rank and projections are not in model.cache_layout");
			return;
		}
	}
	if (m) {
		rc->names = gs_recipe_lora_names((int)m->arch);
		rc->experts_param = gs_recipe_experts_param((int)m->arch);
		rc->extra = gs_recipe_extra_modules((int)m->arch, rc->experts > 1);
		if (gs_recipe_hybrid_arch((int)m->arch))
			S_recipe_hybrid(r, rc, m);
	}
	if (m && m->kv_lora_rank) {
		rc->mla = 1;
		rc->mla_q_rank = m->q_lora_rank;
		rc->mla_kv_rank = m->kv_lora_rank;
		rc->mla_qk_nope = m->qk_nope_head_dim;
		rc->mla_qk_rope = m->qk_rope_head_dim;
		rc->mla_v = m->v_head_dim;
	}
	S_recipe_targets(r, rc, path);
	if (rc->experts && w->layers && rc->dense_layers >= w->layers) {
		char *gp = gs_jr_path_key(path, "geometry");
		gs_jr_error(r, gp, "dense_layers (%llu) leaves no layer of the model's %llu to "
			    "route to the experts", (unsigned long long)rc->dense_layers,
			    (unsigned long long)w->layers);
		free(gp);
	}
}

/*
 * A recipe needs the microbatch and the sequence length as dimensions, and
 * the model's dimensions the arithmetic uses: the cache geometry, and the
 * hidden and intermediate sizes and the vocabulary, from the recipe's
 * geometry or the model's files (which fill what it does not state).
 */
static void S_recipe_check(gs_jr *r, gs_workload *w, json_t *root, const char *path)
{
	gs_recipe *rc = &w->recipe;
	const gs_model *m = w->model;
	json_t *dims = json_object_get(root, "dimensions");
	char *gp = gs_jr_path_key(path, "geometry");
	int inter_stated = rc->has_intermediate;

	if (json_is_object(dims) && !json_object_get(dims, "microbatch"))
		gs_jr_error(r, "$.dimensions", "a training recipe needs dimensions.microbatch "
			    "(sequences per microbatch on one card)");
	if (json_is_object(dims) && !json_object_get(dims, "input_tokens"))
		gs_jr_error(r, "$.dimensions", "a training recipe needs dimensions.input_tokens "
			    "(the sequence length)");
	if (!w->has_kv_geometry)
		gs_jr_error(r, "$.model", "a training recipe needs the model's layers, "
			    "attention_heads, kv_heads and head_dim (or model.from)");
	if (m && !rc->has_hidden && m->has_hidden) {
		rc->hidden = m->hidden;
		rc->has_hidden = 1;
	}
	if (m && !rc->has_intermediate && m->has_intermediate) {
		rc->intermediate = m->intermediate;
		rc->has_intermediate = 1;
	}
	if (m && !rc->has_vocab && m->has_vocab) {
		rc->vocab = m->vocab;
		rc->has_vocab = 1;
	}
	if (m && !rc->experts && m->has_experts && m->experts > 1) {
		rc->experts = m->experts;
		rc->experts_active = m->experts_active;
		rc->expert_intermediate = m->moe_intermediate;
		rc->tied = m->tied == 1;
		/* the layers that do not route keep the dense MLP (Llama 4:
		 * intermediate_size_mlp, not the experts' intermediate_size) */
		rc->shared_intermediate = m->shared_intermediate;
		if (m->moe_layers && m->moe_layers < m->layers) {
			rc->dense_layers = m->layers - m->moe_layers;
			if (m->dense_intermediate && !inter_stated)
				rc->intermediate = m->dense_intermediate;
		}
	}
	S_recipe_kinds(r, w, path);
	/* the checkpoint's own parameters per kind, where its headers were read */
	rc->has_ck = m && gs_model_param_kinds(m, &rc->ck) == 0;
	/* a hybrid's state mixers (backbone.layers.N.mixer.in_proj, linear_attn)
	 * are not placed by kind from their names yet: its geometry sizes it */
	if (rc->hybrid)
		rc->has_ck = 0;
	rc->ck_config_params = m && m->has_config_params ? m->config_params : 0;
	/* Qwen2.5-VL's vision tower: the shapes of its linear modules */
	if (m && m->vision_depth && m->vision_hidden && m->vision_intermediate && m->vision_merge &&
	    m->vision_out) {
		rc->vis_depth = m->vision_depth;
		rc->vis_hidden = m->vision_hidden;
		rc->vis_inter = m->vision_intermediate;
		rc->vis_merge = m->vision_merge;
		rc->vis_out = m->vision_out;
	}
	/* a GGUF base is trained dequantised (recipe.h gs_recipe_gguf_width) */
	if (m && m->weights == GS_WEIGHTS_GGUF && !w->weights_format)
		rc->gguf_width = gs_recipe_gguf_width(w->compute_format, &rc->gguf_width_stated);
	if (!rc->has_hidden)
		gs_jr_error(r, gp, "missing hidden_size (state it, or read the model with model.from)");
	if (!rc->has_intermediate)
		gs_jr_error(r, gp, "missing intermediate_size (state it, or read the model with "
			    "model.from)");
	if (!rc->has_vocab)
		gs_jr_error(r, gp, "missing vocab_size (state it, or read the model with model.from)");
	if (rc->sharding == GS_SHARD_NONE && rc->cards > 1)
		gs_jr_error(r, path, "cards %llu without a sharding stage: name sharding (zero1, "
			    "zero2, zero3 or fsdp), or cards 1", (unsigned long long)rc->cards);
	free(gp);
}

static void S_read_training(gs_jr *r, gs_workload *w, json_t *root, int task_ok)
{
	static const char *allowed[] = { "trainable_parameters", "components", "recipe", NULL };
	json_t *o, *arr, *ro;
	char *op, *ap;
	int rc;

	if (task_ok && w->task == GS_TASK_INFERENCE) {
		if (json_object_get(root, "training"))
			gs_jr_error(r, "$.training", "training is only for the tasks "
				    "\"adaptation\" and \"training\", not \"inference\"");
		return;
	}
	rc = gs_jr_object(r, root, "$", "training", GS_JR_OPTIONAL, allowed, &o, &op);
	if (rc == 0 && task_ok)
		gs_jr_error(r, "$", "missing required key \"training\" (the task is \"%s\")",
			    gs_workload_task_id(w->task));
	if (rc != 1)
		return;
	w->has_trainable_parameters = gs_jr_uint(r, o, op, "trainable_parameters",
						 GS_JR_OPTIONAL, 1, S_MAX,
						 &w->trainable_parameters) == 1;
	if (gs_jr_array(r, o, op, "components", GS_JR_OPTIONAL, &arr, &ap) == 1) {
		S_read_items(r, arr, ap, &w->training, &w->ntraining);
		free(ap);
	}
	ro = gs_jr_member(r, o, op, "recipe", GS_JR_OPTIONAL, &ap);
	if (ro) {
		if (gs_recipe_read(r, ro, ap, &w->recipe) == 0)
			S_recipe_check(r, w, root, ap);
		free(ap);
	}
	free(op);
}

static int S_is_currency(const char *s)
{
	return strlen(s) == 3 && s[0] >= 'A' && s[0] <= 'Z' && s[1] >= 'A' && s[1] <= 'Z' &&
	       s[2] >= 'A' && s[2] <= 'Z';
}

static void S_read_budget(gs_jr *r, gs_workload *w, json_t *req, const char *rp)
{
	static const char *allowed[] = { "amount", "currency", NULL };
	json_t *o;
	char *op, *amount = NULL, *cur = NULL;
	size_t before = r->errors;

	if (gs_jr_object(r, req, rp, "budget", GS_JR_OPTIONAL, allowed, &o, &op) != 1)
		return;
	if (gs_jr_string(r, o, op, "amount", GS_JR_REQUIRED, &amount) == 1) {
		char *ap = gs_jr_path_key(op, "amount");
		unsigned decimals;
		uint64_t v;
		if (!gs_jr_is_decimal(amount, &decimals) || decimals > 2)
			gs_jr_error(r, ap, "expected an amount with at most 2 decimals "
				    "such as \"60.00\", found \"%s\"", amount);
		else if (gs_qty_parse_decimal(amount, 2, &v) != 0 || v > (uint64_t)INT64_MAX)
			gs_jr_error(r, ap, "amount too large: \"%s\"", amount);
		else if (v == 0)
			gs_jr_error(r, ap, "expected a positive amount, found \"%s\"", amount);
		else
			w->budget_hundredths = (int64_t)v;
		free(ap);
	}
	if (gs_jr_string(r, o, op, "currency", GS_JR_REQUIRED, &cur) == 1 &&
	    !S_is_currency(cur)) {
		char *cp = gs_jr_path_key(op, "currency");
		gs_jr_error(r, cp, "expected an ISO 4217 code such as \"USD\", found \"%s\"", cur);
		free(cp);
	}
	if (r->errors == before) {
		w->budget_currency = cur;
		cur = NULL;
		w->has_budget = 1;
	} else {
		w->budget_hundredths = 0;
	}
	free(cur);
	free(amount);
	free(op);
}

/* A fraction in (0, 1] of at most 3 decimals, as a string ("0.90"): its
 * thousandths in *out and 1, or 0 after an error at key's path. */
static int S_read_fraction(gs_jr *r, json_t *st, const char *sp, const char *key, uint64_t *out)
{
	char *u = NULL, *up;
	unsigned decimals;
	uint64_t v;
	int ok = 0;

	if (gs_jr_string(r, st, sp, key, GS_JR_OPTIONAL, &u) != 1)
		return 0;
	up = gs_jr_path_key(sp, key);
	if (!gs_jr_is_decimal(u, &decimals) || decimals > 3 || gs_qty_parse_decimal(u, 3, &v) != 0 ||
	    v == 0 || v > 1000)
		gs_jr_error(r, up, "expected a fraction above 0 and at most 1 with at most "
			    "3 decimals, such as \"0.90\", found \"%s\"", u);
	else {
		*out = v;
		ok = 1;
	}
	free(up);
	free(u);
	return ok;
}

/* vLLM's settings (docs/formats.md, 1.4). */
static void S_read_vllm_settings(gs_jr *r, gs_workload *w, json_t *o, const char *op)
{
	static const char *keys[] = {
		"gpu_memory_utilization", "block_size", "max_num_batched_tokens", "entry_point", NULL
	};
	static const char *entries[] = { "serve", "llm", NULL };
	json_t *st;
	char *sp;
	int entry = -1;

	if (gs_jr_object(r, o, op, "settings", GS_JR_OPTIONAL, keys, &st, &sp) != 1)
		return;
	w->runtime.has_util = S_read_fraction(r, st, sp, "gpu_memory_utilization",
					      &w->runtime.util_permille);
	if (gs_jr_uint(r, st, sp, "block_size", GS_JR_OPTIONAL, 1, 1u << 20,
		       &w->runtime.block_size) == 1)
		w->runtime.has_block_size = 1;
	if (gs_jr_uint(r, st, sp, "max_num_batched_tokens", GS_JR_OPTIONAL, 1, 1u << 30,
		       &w->runtime.max_num_batched_tokens) == 1)
		w->runtime.has_max_num_batched_tokens = 1;
	if (gs_jr_enum(r, st, sp, "entry_point", GS_JR_OPTIONAL, entries, &entry) == 1) {
		w->runtime.entry_llm = entry == 1;
		w->runtime.has_entry_point = 1;
	}
	free(sp);
}

/* SGLang's settings (docs/formats.md, 1.4): the version's rule for
 * mem_fraction_static must be in the table unless the workload states it. */
static void S_read_sglang_settings(gs_jr *r, gs_workload *w, json_t *o, const char *op)
{
	static const char *keys[] = {
		"mem_fraction_static", "chunked_prefill_size", "cuda_graph_max_bs", NULL
	};
	gs_runtime *rt = &w->runtime;
	json_t *st;
	char *sp;

	if (gs_jr_object(r, o, op, "settings", GS_JR_OPTIONAL, keys, &st, &sp) == 1) {
		rt->has_mfs = S_read_fraction(r, st, sp, "mem_fraction_static", &rt->mfs_permille);
		if (gs_jr_uint(r, st, sp, "chunked_prefill_size", GS_JR_OPTIONAL, 1, 1u << 30,
			       &rt->chunked_prefill_size) == 1)
			rt->has_chunked_prefill_size = 1;
		if (gs_jr_uint(r, st, sp, "cuda_graph_max_bs", GS_JR_OPTIONAL, 1, 1u << 20,
			       &rt->cuda_graph_max_bs) == 1)
			rt->has_cuda_graph_max_bs = 1;
		free(sp);
	}
	if (!rt->has_mfs && rt->version && gs_workload_release_valid(rt->version) &&
	    !gs_workload_sglang_version_known(rt->version)) {
		char *vp = gs_jr_path_key(op, "version");
		gs_jr_error(r, vp, "SGLang %s: its default mem_fraction_static is not in the table "
			    "(it knows 0.4 and later, docs/formats.md 1.4); "
			    "state settings.mem_fraction_static", rt->version);
		free(vp);
	}
}

/*
 * "runtime": {"engine": "vllm" | "sglang", "version": "0.8", "settings": {...}}:
 * fractions (gpu_memory_utilization, mem_fraction_static) decimal strings
 * of at most 3 decimals in (0, 1], the other settings whole numbers; each
 * engine takes its own settings only. What is not stated takes the
 * engine's default (gen/decide/runtime.c).
 */
static void S_read_runtime(gs_jr *r, gs_workload *w, json_t *root)
{
	static const char *allowed[] = { "engine", "version", "settings", NULL };
	static const char *engines[] = { "vllm", "sglang", NULL };
	json_t *o;
	char *op;
	int engine = -1;

	if (gs_jr_object(r, root, "$", "runtime", GS_JR_OPTIONAL, allowed, &o, &op) != 1)
		return;
	if (gs_jr_enum(r, o, op, "engine", GS_JR_REQUIRED, engines, &engine) == 1)
		w->runtime.engine = (gs_engine)(engine + 1);
	if (gs_jr_string(r, o, op, "version", GS_JR_OPTIONAL, &w->runtime.version) == 1 &&
	    !gs_workload_release_valid(w->runtime.version)) {
		char *vp = gs_jr_path_key(op, "version");
		gs_jr_error(r, vp, "expected a version such as \"0.8\", \"0.10.1\" or "
			    "\"0.4.7.post1\", found \"%s\"",
			    w->runtime.version);
		free(vp);
	}
	if (w->runtime.engine == GS_ENGINE_SGLANG)
		S_read_sglang_settings(r, w, o, op);
	else if (w->runtime.engine == GS_ENGINE_VLLM)
		S_read_vllm_settings(r, w, o, op);
	free(op);
}

int gs_workload_sglang_version_known(const char *v)
{
	/* every release from 0.4 has its rule (gen/decide/runtime.c) */
	return gs_workload_version_at_least(v, "0.4") == 1;
}

/*
 * requirements.software: a description (text: a commercial listing can
 * match it, no run can confirm it), or
 * {"description": text?, "requires": [{"name": ..., "min_version": ...}]}
 * whose items a run confirms when its recorded versions satisfy them.
 */
static void S_read_software(gs_jr *r, gs_workload *w, json_t *v, const char *path)
{
	static const char *allowed[] = { "description", "requires", NULL };
	static const char *item_keys[] = { "name", "min_version", NULL };
	json_t *arr;
	char *ap;
	size_t i, n = 0;

	if (json_is_string(v)) {
		gs_jr_v_string(r, v, path, &w->req_software);
		return;
	}
	if (!json_is_object(v)) {
		char *found = gs_jr_describe(v);
		gs_jr_error(r, path, "expected a description (a string) or an object "
			    "{\"description\", \"requires\": [{\"name\", \"min_version\"}]}, found %s",
			    found);
		free(found);
		return;
	}
	gs_jr_v_object(r, v, path, allowed);
	gs_jr_string(r, v, path, "description", GS_JR_OPTIONAL, &w->req_software);
	if (gs_jr_array(r, v, path, "requires", GS_JR_REQUIRED, &arr, &ap) != 1)
		return;
	if (json_array_size(arr) == 0)
		gs_jr_error(r, ap, "expected at least one {\"name\", \"min_version\"}");
	w->req_sw = gs_xcalloc(json_array_size(arr) + 1, sizeof(*w->req_sw));
	for (i = 0; i < json_array_size(arr); i++) {
		json_t *o = json_array_get(arr, i);
		char *ip = gs_jr_path_index(ap, i);
		gs_sw_req q;
		size_t before = r->errors, k;
		memset(&q, 0, sizeof(q));
		if (gs_jr_v_object(r, o, ip, item_keys) == 0) {
			gs_jr_string(r, o, ip, "name", GS_JR_REQUIRED, &q.name);
			if (gs_jr_string(r, o, ip, "min_version", GS_JR_REQUIRED, &q.min_version) == 1 &&
			    !gs_workload_version_valid(q.min_version)) {
				char *vp = gs_jr_path_key(ip, "min_version");
				gs_jr_error(r, vp, "expected a version of dot-separated numbers "
					    "(e.g. \"2.5\" or \"12.4.1\"), found \"%s\"", q.min_version);
				free(vp);
			}
			for (k = 0; q.name && k < n; k++)
				if (strcmp(w->req_sw[k].name, q.name) == 0) {
					char *np = gs_jr_path_key(ip, "name");
					gs_jr_error(r, np, "\"%s\" is required twice", q.name);
					free(np);
				}
		}
		if (r->errors == before) {
			w->req_sw[n++] = q;
		} else {
			free(q.name);
			free(q.min_version);
		}
		free(ip);
	}
	w->nreq_sw = n;
	w->has_req_software = 1;
	free(ap);
}

/*
 * requirements.quality.evidence: a cited evaluation, in the shape of other
 * evidence: {"file": relative path} or {"reference": text}, with the date
 * it was made and the scope it covers. A bare string is not a citation.
 */
static void S_read_quality_evidence(gs_jr *r, gs_workload *w, json_t *q, const char *qp)
{
	static const char *allowed[] = { "file", "reference", "date", "scope", NULL };
	json_t *o;
	char *op;
	int nf, nr;

	o = gs_jr_member(r, q, qp, "evidence", GS_JR_OPTIONAL, &op);
	if (!o)
		return;
	if (!json_is_object(o)) {
		char *found = gs_jr_describe(o);
		gs_jr_error(r, op, "expected a cited evaluation {\"file\" or \"reference\", "
			    "\"date\", \"scope\"}, found %s: a quality claim needs the evaluation "
			    "it rests on, its date and what it covers", found);
		free(found);
		free(op);
		return;
	}
	gs_jr_v_object(r, o, op, allowed);
	nf = gs_jr_string(r, o, op, "file", GS_JR_OPTIONAL, &w->quality_evidence);
	nr = nf == 1 ? 0 : gs_jr_string(r, o, op, "reference", GS_JR_OPTIONAL, &w->quality_evidence);
	if (nf == 1 && json_object_get(o, "reference"))
		gs_jr_error(r, op, "give either \"file\" or \"reference\", not both");
	else if (nf == 0 && nr == 0)
		gs_jr_error(r, op, "missing \"file\" (an evaluation next to the sheet) or "
			    "\"reference\" (where the evaluation is published)");
	w->quality_evidence_is_file = nf == 1;
	if (nf == 1 && !S_check_relative(w->quality_evidence)) {
		char *fp = gs_jr_path_key(op, "file");
		gs_jr_error(r, fp, "expected a path relative to the sheet's folder, "
			    "without \"..\", found \"%s\"", w->quality_evidence);
		free(fp);
	}
	gs_jr_date(r, o, op, "date", GS_JR_REQUIRED, &w->quality_evidence_date);
	gs_jr_string(r, o, op, "scope", GS_JR_REQUIRED, &w->quality_evidence_scope);
	free(op);
}

/*
 * Conditions the workload really runs under (an allocator setting, a
 * filler allocation), name -> text or positive integer as text. A failed
 * run is comparable only under conditions the workload has.
 */
static void S_read_conditions(gs_jr *r, gs_workload *w, json_t *root)
{
	json_t *o, *val;
	char *op;
	const char *key;
	const char **keys;
	size_t n = 0, k;

	if (gs_jr_object(r, root, "$", "conditions", GS_JR_OPTIONAL, NULL, &o, &op) != 1)
		return;
	keys = gs_xcalloc(json_object_size(o) + 1, sizeof(*keys));
	json_object_foreach(o, key, val)
		keys[n++] = key;
	qsort(keys, n, sizeof(*keys), S_cmp_key);
	w->conditions = gs_xcalloc(n + 1, sizeof(*w->conditions));
	for (k = 0; k < n; k++) {
		char *kp = gs_jr_path_key(op, keys[k]);
		json_t *v = json_object_get(o, keys[k]);
		uint64_t num;
		char *text = NULL;
		if (!S_is_dim_name(keys[k]) && !S_is_env_name(keys[k])) {
			gs_jr_error(r, kp, "a condition name is [a-z][a-z0-9_]* or an environment "
				    "variable [A-Z][A-Z0-9_]*");
		} else if (json_is_integer(v)) {
			if (gs_jr_v_uint(r, v, kp, 1, S_MAX, &num) == 0)
				text = gs_xasprintf("%llu", (unsigned long long)num);
		} else {
			gs_jr_v_string(r, v, kp, &text);
		}
		if (text) {
			w->conditions[w->nconditions].name = gs_jr_strdup(keys[k]);
			w->conditions[w->nconditions++].value = text;
		}
		free(kp);
	}
	free(keys);
	free(op);
}

/*
 * requirements.tensor_parallel_replicated: the weights' bytes tensor
 * parallelism keeps whole on every card. Every safetensors header read
 * (model.from / model.repo) gives them (calculated): a figure stated too
 * must agree; without the headers a stated figure is declared. Never above
 * the weights: the checkpoint's bytes, or parameters x storage bits.
 */
static void S_read_replicated(gs_jr *r, gs_workload *w, json_t *req, const char *rp)
{
	uint64_t stated = 0, files = 0, tensors = 0;
	int has_stated, has_files;
	char *kp;

	has_stated = gs_jr_size(r, req, rp, "tensor_parallel_replicated", GS_JR_OPTIONAL,
				&stated, NULL, NULL) == 1;
	has_files = w->model && gs_model_replicated(w->model, &files, &tensors) == 0;
	if (!has_stated && !has_files)
		return;
	kp = gs_jr_path_key(rp, "tensor_parallel_replicated");
	if (has_stated && has_files && stated != files) {
		gs_jr_error(r, kp, "%llu bytes here, but the checkpoint's tensor headers (%s) give "
			    "%llu bytes in %llu replicated tensors (norms, biases of row-parallel "
			    "layers, router gates): remove it or make them agree",
			    (unsigned long long)stated,
			    w->weights_source ? w->weights_source : w->model_from,
			    (unsigned long long)files, (unsigned long long)tensors);
		free(kp);
		return;
	}
	w->tp_replicated_bytes = has_files ? files : stated;
	w->tp_replicated_calculated = has_files;
	if (has_stated && !has_files && (w->has_weights_bytes || (w->parameters &&
								     w->storage_millibits))) {
		/* the weights: the checkpoint's bytes, or parameters x bits / 8
		 * rounded up, exactly */
		unsigned __int128 wb = w->has_weights_bytes
			? w->weights_bytes
			: ((unsigned __int128)w->parameters * w->storage_millibits + 7999u) / 8000u;
		if (stated > wb) {
			gs_jr_error(r, kp, "%llu bytes of replicated tensors is more than the "
				    "weights themselves (%llu bytes)", (unsigned long long)stated,
				    (unsigned long long)(wb > UINT64_MAX ? UINT64_MAX : wb));
			free(kp);
			return;
		}
	}
	w->has_tp_replicated = 1;
	free(kp);
}

/*
 * requirements.regions: 1 to 64 region names or prefixes ("eu-",
 * "us-east-1", "Finland"), each non-empty text without control characters,
 * none twice; an offer is sold in a region when one of its regions or
 * zones starts with one of them, letter case aside.
 */
static void S_read_regions(gs_jr *r, gs_workload *w, json_t *req, const char *rp)
{
	json_t *arr;
	char *ap;
	size_t i, k, len = 1;

	if (gs_jr_array(r, req, rp, "regions", GS_JR_OPTIONAL, &arr, &ap) != 1)
		return;
	if (json_array_size(arr) == 0 || json_array_size(arr) > 64)
		gs_jr_error(r, ap, "expected 1 to 64 region names or prefixes, found %zu", json_array_size(arr));
	w->regions = gs_xcalloc(json_array_size(arr) + 1, sizeof(*w->regions));
	for (i = 0; i < json_array_size(arr) && i < 64; i++) {
		char *ip = gs_jr_path_index(ap, i);
		char *name = NULL;
		if (gs_jr_v_string(r, json_array_get(arr, i), ip, &name) == 0) {
			int dup = 0, ctl = !*name;
			const char *p;
			for (p = name; *p; p++)
				ctl |= (unsigned char)*p < 0x20 || *p == 0x7f;
			for (k = 0; k < w->nregions; k++)
				dup |= strcmp(w->regions[k], name) == 0;
			if (ctl)
				gs_jr_error(r, ip, "expected a region name or prefix: non-empty text without control characters");
			else if (dup)
				gs_jr_error(r, ip, "region \"%s\" is listed twice", name);
			else {
				len += strlen(name) + 2;
				w->regions[w->nregions++] = name;
				name = NULL;
			}
		}
		free(name);
		free(ip);
	}
	if (w->nregions) {
		w->regions_text = gs_xcalloc(len, 1);
		for (i = 0; i < w->nregions; i++) {
			if (i)
				strcat(w->regions_text, ", ");
			strcat(w->regions_text, w->regions[i]);
		}
	}
	free(ap);
}

/* A positive figure in thousandths: a whole number, or a decimal string of
 * at most 3 decimals ("2.5"); 1 when read, 0 when absent, -1 in error. */
static int S_read_milli(gs_jr *r, json_t *o, const char *op, const char *key, uint64_t *out)
{
	char *kp = NULL;
	json_t *v = gs_jr_member(r, o, op, key, GS_JR_OPTIONAL, &kp);
	int rc = -1;

	if (!v) {
		free(kp);
		return 0;
	}
	if (json_is_integer(v) && json_integer_value(v) > 0 &&
	    json_integer_value(v) <= 1000000000) {
		*out = (uint64_t)json_integer_value(v) * 1000u;
		rc = 1;
	} else if (json_is_string(v)) {
		unsigned decimals;
		const char *t = json_string_value(v);
		if (gs_jr_is_decimal(t, &decimals) && decimals <= 3 &&
		    gs_qty_parse_decimal(t, 3, out) == 0 && *out > 0 && *out <= UINT64_C(1000000000000))
			rc = 1;
	}
	if (rc < 0) {
		char *found = gs_jr_describe(v);
		gs_jr_error(r, kp, "expected a figure above 0: a whole number up to 1,000,000,000 "
			    "or a decimal string with at most 3 decimals such as \"2.5\", found %s", found);
		free(found);
	}
	free(kp);
	return rc;
}

/*
 * requirements.speed: {"decode_tokens_per_second_per_sequence",
 * "decode_tokens_per_second", "time_to_first_token_seconds"}, at least one;
 * requirements.rank_by: "cost_per_token" or "cost_of_lot" (the default).
 */
static void S_read_speed(gs_jr *r, gs_workload *w, json_t *req, const char *rp)
{
	static const char *keys[] = {
		"decode_tokens_per_second_per_sequence", "decode_tokens_per_second",
		"time_to_first_token_seconds", NULL
	};
	static const char *ranks[] = { "cost_of_lot", "cost_per_token", NULL };
	json_t *o;
	char *op;
	int k = -1;

	if (gs_jr_enum(r, req, rp, "rank_by", GS_JR_OPTIONAL, ranks, &k) == 1)
		w->rank_by_cost_per_token = k == 1;
	if (gs_jr_object(r, req, rp, "speed", GS_JR_OPTIONAL, keys, &o, &op) != 1)
		return;
	w->has_req_decode_seq = S_read_milli(r, o, op, keys[0], &w->req_decode_seq_milli) == 1;
	w->has_req_decode_total = S_read_milli(r, o, op, keys[1], &w->req_decode_total_milli) == 1;
	w->has_req_ttft = S_read_milli(r, o, op, keys[2], &w->req_ttft_milli) == 1;
	if (json_object_size(o) == 0)
		gs_jr_error(r, op, "expected at least one of \"%s\", \"%s\", \"%s\"",
			    keys[0], keys[1], keys[2]);
	free(op);
}

/*
 * speed_assumptions: {"decode_efficiency": "0.63", "speculative":
 * {"draft_tokens": 3, "tokens_per_step": "2.4"}, "source": "..."}: at
 * least one of the first two, and the source always.
 */
static void S_read_speed_assumptions(gs_jr *r, gs_workload *w, json_t *root)
{
	static const char *keys[] = { "decode_efficiency", "speculative", "source", NULL };
	static const char *spec_keys[] = { "draft_tokens", "tokens_per_step", NULL };
	json_t *o, *so;
	char *op, *sp, *kp;

	if (gs_jr_object(r, root, "$", "speed_assumptions", GS_JR_OPTIONAL, keys, &o, &op) != 1)
		return;
	gs_jr_string(r, o, op, "source", GS_JR_REQUIRED, &w->speed_assumptions_source);
	if (S_read_milli(r, o, op, "decode_efficiency", &w->decode_efficiency_milli) == 1) {
		if (w->decode_efficiency_milli > 1000) {
			kp = gs_jr_path_key(op, "decode_efficiency");
			gs_jr_error(r, kp, "expected a fraction of the bound above 0 and at most 1 "
				    "(\"0.63\"): no run goes faster than its bound");
			free(kp);
		} else {
			w->has_decode_efficiency = 1;
		}
	}
	if (gs_jr_object(r, o, op, "speculative", GS_JR_OPTIONAL, spec_keys, &so, &sp) == 1) {
		gs_jr_uint(r, so, sp, "draft_tokens", GS_JR_REQUIRED, 1, 64, &w->spec_draft_tokens);
		if (S_read_milli(r, so, sp, "tokens_per_step", &w->spec_tokens_per_step_milli) == 1) {
			if (w->spec_tokens_per_step_milli < 1000 ||
			    (w->spec_draft_tokens &&
			     w->spec_tokens_per_step_milli > (w->spec_draft_tokens + 1) * 1000)) {
				kp = gs_jr_path_key(sp, "tokens_per_step");
				gs_jr_error(r, kp, "expected the mean tokens a step yields, from 1 to "
					    "draft_tokens + 1 (%llu): a step yields its own token and at "
					    "most every drafted one",
					    (unsigned long long)(w->spec_draft_tokens + 1));
				free(kp);
			} else {
				w->has_spec_tokens_per_step = 1;
			}
		}
		free(sp);
	}
	if (!json_object_get(o, "decode_efficiency") && !json_object_get(o, "speculative"))
		gs_jr_error(r, op, "expected \"decode_efficiency\" or \"speculative\" (or both)");
	free(op);
}

static void S_read_requirements(gs_jr *r, gs_workload *w, json_t *root)
{
	static const char *allowed[] = {
		"software", "campaign", "budget", "quality", "host", "regions", "speed", "rank_by", "placement",
		"tensor_parallel", "tensor_parallel_replicated", NULL
	};
	static const char *campaign_keys[] = { "start", "days", NULL };
	static const char *quality_keys[] = { "criterion", "evidence", NULL };
	json_t *sw;
	char *swp;
	static const char *host_keys[] = { "ram", "interconnect", NULL };
	json_t *req, *o;
	char *rp, *op;

	if (gs_jr_object(r, root, "$", "requirements", GS_JR_OPTIONAL, allowed, &req, &rp) != 1)
		return;
	sw = gs_jr_member(r, req, rp, "software", GS_JR_OPTIONAL, &swp);
	if (sw) {
		S_read_software(r, w, sw, swp);
		free(swp);
	}
	if (gs_jr_object(r, req, rp, "campaign", GS_JR_OPTIONAL, campaign_keys, &o, &op) == 1) {
		gs_jr_date(r, o, op, "start", GS_JR_OPTIONAL, &w->campaign_start);
		w->has_campaign = gs_jr_uint(r, o, op, "days", GS_JR_REQUIRED, 1,
					     S_MAX_CAMPAIGN_DAYS, &w->campaign_days) == 1;
		free(op);
	}
	S_read_budget(r, w, req, rp);
	if (gs_jr_object(r, req, rp, "quality", GS_JR_OPTIONAL, quality_keys, &o, &op) == 1) {
		gs_jr_string(r, o, op, "criterion", GS_JR_REQUIRED, &w->quality_criterion);
		S_read_quality_evidence(r, w, o, op);
		free(op);
	}
	if (gs_jr_object(r, req, rp, "host", GS_JR_OPTIONAL, host_keys, &o, &op) == 1) {
		w->has_host_ram = gs_jr_size(r, o, op, "ram", GS_JR_OPTIONAL,
					     &w->host_ram_bytes, NULL, NULL) == 1;
		gs_jr_string(r, o, op, "interconnect", GS_JR_OPTIONAL, &w->host_interconnect);
		free(op);
	}
	S_read_regions(r, w, req, rp);
	S_read_speed(r, w, req, rp);
	gs_jr_string(r, req, rp, "placement", GS_JR_OPTIONAL, &w->placement);
	gs_jr_uint(r, req, rp, "tensor_parallel", GS_JR_OPTIONAL, 1, 64, &w->tensor_parallel);
	S_read_replicated(r, w, req, rp);
	free(rp);
}

static void S_read_inputs(gs_jr *r, gs_workload *w, json_t *root)
{
	static const char *input_keys[] = { "description", "dimensions", NULL };
	json_t *o, *in;
	char *op, *ip;
	int i;

	if (gs_jr_object(r, root, "$", "inputs", GS_JR_REQUIRED, S_input_labels, &o, &op) != 1)
		return;
	for (i = 0; i < 3; i++) {
		json_t *dims;
		char *dp;
		if (gs_jr_object(r, o, op, S_input_labels[i], GS_JR_REQUIRED, input_keys,
				 &in, &ip) != 1)
			continue;
		w->inputs[i].label = gs_jr_strdup(S_input_labels[i]);
		gs_jr_string(r, in, ip, "description", GS_JR_REQUIRED, &w->inputs[i].description);
		dims = gs_jr_member(r, in, ip, "dimensions", GS_JR_OPTIONAL, &dp);
		if (dims) {
			S_read_dims(r, dims, dp, &w->inputs[i].dims, &w->inputs[i].ndims);
			free(dp);
		}
		free(ip);
	}
	free(op);
}

/* Directory part of the sheet's path, with its trailing '/', or "". */
static size_t S_dir_len(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? (size_t)(slash - path) + 1 : 0;
}

/* Relative, inside the sheet's folder: no absolute path, no "..", no backslash. */
static int S_check_relative(const char *f)
{
	const char *p = f;

	if (f[0] == '/' || strchr(f, '\\') || strchr(f, ':'))
		return 0;
	while (*p) {
		size_t n = strcspn(p, "/");
		if (n == 2 && p[0] == '.' && p[1] == '.')
			return 0;
		p += n;
		if (*p == '/')
			p++;
	}
	return 1;
}

static void S_read_evidence(gs_jr *r, gs_workload *w, json_t *root)
{
	static const char *allowed[] = { "file", "covers", NULL };
	json_t *arr;
	char *ap;
	size_t i, n = 0;

	if (gs_jr_array(r, root, "$", "evidence", GS_JR_OPTIONAL, &arr, &ap) != 1)
		return;
	w->evidence = gs_xcalloc(json_array_size(arr), sizeof(*w->evidence));
	for (i = 0; i < json_array_size(arr); i++) {
		json_t *o = json_array_get(arr, i);
		char *ip = gs_jr_path_index(ap, i);
		gs_evidence_ref e;
		int ok = 1;
		memset(&e, 0, sizeof(e));
		if (gs_jr_v_object(r, o, ip, allowed) == 0) {
			ok &= gs_jr_string(r, o, ip, "file", GS_JR_REQUIRED, &e.file) == 1;
			ok &= gs_jr_string(r, o, ip, "covers", GS_JR_REQUIRED, &e.covers) == 1;
		} else {
			ok = 0;
		}
		if (e.file && !S_check_relative(e.file)) {
			char *fp = gs_jr_path_key(ip, "file");
			gs_jr_error(r, fp, "expected a path relative to the sheet's folder, "
				    "without \"..\", found \"%s\"", e.file);
			free(fp);
			ok = 0;
		}
		if (ok) {
			size_t dl = S_dir_len(w->path), fl = strlen(e.file);
			e.path = gs_xmalloc(dl + fl + 1);
			memcpy(e.path, w->path, dl);
			memcpy(e.path + dl, e.file, fl + 1);
			w->evidence[n++] = e;
		} else {
			free(e.file);
			free(e.covers);
		}
		free(ip);
	}
	w->nevidence = n;
	free(ap);
}

/* Optional list of catalog offer ids to compare; unique, each a valid id. */
static void S_read_candidates(gs_jr *r, gs_workload *w, json_t *root)
{
	json_t *arr;
	char *ap;
	size_t i, k;

	if (gs_jr_array(r, root, "$", "candidates", GS_JR_OPTIONAL, &arr, &ap) != 1)
		return;
	if (json_array_size(arr) == 0)
		gs_jr_error(r, ap, "expected at least one offer id (leave \"candidates\" out to compare every offer)");
	w->candidates = gs_xcalloc(json_array_size(arr) + 1, sizeof(*w->candidates));
	for (i = 0; i < json_array_size(arr); i++) {
		char *ip = gs_jr_path_index(ap, i);
		char *id = NULL;
		if (gs_jr_v_string(r, json_array_get(arr, i), ip, &id) == 0) {
			int dup = 0;
			for (k = 0; k < w->ncandidates; k++)
				dup |= strcmp(w->candidates[k], id) == 0;
			if (!gs_jr_is_id(id))
				gs_jr_error(r, ip, "expected an offer id [a-z0-9][a-z0-9._-]*, found \"%s\"", id);
			else if (dup)
				gs_jr_error(r, ip, "offer \"%s\" is listed twice", id);
			if (gs_jr_is_id(id) && !dup) {
				w->candidates[w->ncandidates++] = id;
				id = NULL;
			}
		}
		free(id);
		free(ip);
	}
	free(ap);
}

static int S_read(const char *path, const char *text, size_t len, gs_workload *w, gs_diag *d,
		  void (*fn)(void *arg, const char *text, size_t len), void *arg);

int gs_workload_read(const char *path, gs_workload *w, gs_diag *d)
{
	return gs_workload_read_with(path, w, d, NULL, NULL);
}

int gs_workload_read_with(const char *path, gs_workload *w, gs_diag *d,
			  void (*fn)(void *arg, const char *text, size_t len), void *arg)
{
	return S_read(path, NULL, 0, w, d, fn, arg);
}

int gs_workload_parse(const char *path, const char *text, size_t len, gs_workload *w,
		      gs_diag *d)
{
	return S_read(path, text, len, w, d, NULL, NULL);
}

static int S_read(const char *path, const char *text, size_t len, gs_workload *w, gs_diag *d,
		  void (*fn)(void *arg, const char *text, size_t len), void *arg)
{
	static const char *allowed[] = {
		"schema", "schema_version", "id", "title", "model", "task", "weights",
		"dimensions", "cache", "reserve", "training", "requirements", "inputs",
		"evidence", "candidates", "conditions", "notes", "runtime", "speed_assumptions", NULL
	};
	static const char *const schema_names[] = { "gpusheet-workload", NULL };
	gs_jr r;
	json_t *root, *v;
	char *vp;
	int task = -1, dummy, have_model = 0;
	uint64_t version;
	gs_model mf;

	memset(w, 0, sizeof(*w));
	gs_jr_init(&r, path, d);
	r.on_bytes = fn;
	r.on_bytes_arg = arg;
	r.text = text;
	r.len = len;
	root = gs_jr_load(&r);
	if (!root)
		return -1;
	w->path = gs_jr_strdup(path);
	gs_jr_v_object(&r, root, "$", allowed);
	gs_jr_enum(&r, root, "$", "schema", GS_JR_REQUIRED, schema_names, &dummy);
	if (gs_jr_uint(&r, root, "$", "schema_version", GS_JR_REQUIRED, 0, S_MAX, &version) == 1 &&
	    version != 1)
		gs_jr_error(&r, "$.schema_version", "unsupported schema_version %llu "
			    "(this gpusheet reads 1)", (unsigned long long)version);
	if (gs_jr_string(&r, root, "$", "id", GS_JR_REQUIRED, &w->id) == 1 &&
	    !gs_jr_is_id(w->id))
		gs_jr_error(&r, "$.id", "expected an id of 1 to 64 characters "
			    "[a-z0-9][a-z0-9._-]*, found \"%s\"", w->id);
	gs_jr_string(&r, root, "$", "title", GS_JR_REQUIRED, &w->title);
	S_read_model(&r, w, root, &mf, &have_model);
	if (gs_jr_enum(&r, root, "$", "task", GS_JR_REQUIRED, S_task_names, &task) == 1)
		w->task = (gs_task)task;
	S_read_weights(&r, w, root, &mf, have_model);
	if (have_model) {
		/* kept: its files go with the sheet's evidence */
		w->model = gs_xmalloc(sizeof(*w->model));
		*w->model = mf;
	}
	v = gs_jr_member(&r, root, "$", "dimensions", GS_JR_REQUIRED, &vp);
	if (v) {
		size_t before = r.errors;
		S_read_dims(&r, v, vp, &w->dims, &w->ndims);
		if (w->ndims == 0 && r.errors == before)
			gs_jr_error(&r, vp, "expected at least one dimension");
		free(vp);
	}
	S_read_cache(&r, w, root);
	if (gs_jr_array(&r, root, "$", "reserve", GS_JR_OPTIONAL, &v, &vp) == 1) {
		S_read_items(&r, v, vp, &w->reserve, &w->nreserve);
		free(vp);
	}
	S_read_training(&r, w, root, task >= 0);
	S_read_requirements(&r, w, root);
	S_read_speed_assumptions(&r, w, root);
	S_read_inputs(&r, w, root);
	S_read_evidence(&r, w, root);
	S_read_candidates(&r, w, root);
	S_read_conditions(&r, w, root);
	S_read_runtime(&r, w, root);
	S_check_cache_dtype(&r, w);
	gs_jr_string(&r, root, "$", "notes", GS_JR_OPTIONAL, &w->notes_md);
	json_decref(root);
	if (r.errors > 0) {
		gs_workload_release(w);
		return -1;
	}
	return 0;
}
