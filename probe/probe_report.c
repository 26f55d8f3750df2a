/* probe_report: the probe's documents as JSON, and how they reach the disk. */
#define _POSIX_C_SOURCE 200809L
#include "probe_report.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

const char *const probe_phase_names[PROBE_FORWARD_PHASES] = {
	"model_load", "inputs", "cold_forward", "warmup", "warm_forward"
};

const char *const probe_train_phase_names[PROBE_TRAIN_PHASES] = {
	"model_load", "inputs", "forward", "backward", "optimizer_step", "second_step"
};

/*
 * Environment variables that change how CUDA (or a framework sharing the
 * card) places or caches device memory. Recorded when set.
 */
static const char *const S_env_names[] = {
	"CUDA_VISIBLE_DEVICES",
	"CUDA_DEVICE_ORDER",
	"CUDA_DEVICE_MAX_CONNECTIONS",
	"CUDA_MODULE_LOADING",
	"CUDA_MODULE_DATA_LOADING",
	"CUDA_LAUNCH_BLOCKING",
	"CUDA_MPS_PINNED_DEVICE_MEM_LIMIT",
	"CUDA_MPS_ACTIVE_THREAD_PERCENTAGE",
	"CUBLAS_WORKSPACE_CONFIG",
	"CUBLASLT_WORKSPACE_SIZE",
	"PYTORCH_CUDA_ALLOC_CONF",
	"PYTORCH_NO_CUDA_MEMORY_CACHING",
};

void probe_report_init_phases(probe_report *r)
{
	size_t i;

	r->nphases = r->optimizer ? PROBE_TRAIN_PHASES : PROBE_FORWARD_PHASES;
	for (i = 0; i < r->nphases; i++) {
		memset(&r->phases[i], 0, sizeof(r->phases[i]));
		r->phases[i].name = r->optimizer ? probe_train_phase_names[i] : probe_phase_names[i];
		r->phases[i].status = PROBE_PHASE_NOT_RUN;
	}
}

static void S_add(probe_kv *arr, size_t *n, const char *name, const char *str,
		  uint64_t number, int is_number)
{
	if (*n >= PROBE_MAX_SETTINGS)
		return;
	arr[*n].name = name;
	arr[*n].str = str;
	arr[*n].number = number;
	arr[*n].is_number = is_number;
	(*n)++;
}

void probe_env_add_setting_str(probe_env *e, const char *name, const char *value)
{
	S_add(e->settings, &e->nsettings, name, value, 0, 0);
}

void probe_env_add_setting_num(probe_env *e, const char *name, uint64_t value)
{
	S_add(e->settings, &e->nsettings, name, NULL, value, 1);
}

void probe_env_read_variables(probe_env *e)
{
	size_t i;

	for (i = 0; i < sizeof(S_env_names) / sizeof(S_env_names[0]); i++) {
		const char *v = getenv(S_env_names[i]);
		if (!v)
			continue;
		S_add(e->env, &e->nenv, S_env_names[i], v, 0, 0);
		/* the measurement reader refuses empty strings: say it in words */
		probe_env_add_setting_str(e, S_env_names[i], *v ? v : "(set, empty)");
	}
}

void probe_today(char *buf, size_t size)
{
	time_t now = time(NULL);
	struct tm tm;

	if (now == (time_t)-1 || !gmtime_r(&now, &tm) ||
	    strftime(buf, size, "%Y-%m-%d", &tm) == 0)
		snprintf(buf, size, "%s", "");
}

/*** JSON values ***/

/*
 * A JSON string from text that may not be UTF-8 (a GPU name, an environment
 * variable): jansson refuses invalid UTF-8, so such bytes are written as
 * the four characters \xNN instead of being dropped.
 */
static json_t *S_str(const char *s)
{
	json_t *v;
	char *buf;
	size_t i, n, o = 0;

	v = json_string(s);
	if (v)
		return v;
	n = strlen(s);
	buf = malloc(n * 4 + 1);
	if (!buf)
		return NULL;
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c < 0x20 || c >= 0x7f) {
			snprintf(buf + o, 5, "\\x%02x", c);
			o += 4;
		} else {
			buf[o++] = (char)c;
		}
	}
	buf[o] = '\0';
	v = json_string(buf);
	free(buf);
	return v;
}

/* A string, or null when s is NULL or "". */
static json_t *S_str_or_null(const char *s)
{
	return (s && *s) ? S_str(s) : json_null();
}

/* Byte counts above INT64_MAX cannot be a JSON integer for our readers. */
static json_t *S_u64(uint64_t v)
{
	if (v > (uint64_t)INT64_MAX)
		return NULL;
	return json_integer((json_int_t)v);
}

static json_t *S_opt(probe_opt o)
{
	return o.has ? S_u64(o.v) : json_null();
}

/*
 * json_object_set_new takes the value even when it fails and fails on a
 * NULL value: one flag collects every failure, so a build error in any
 * member is noticed once at the end.
 */
static void S_set(json_t *obj, const char *key, json_t *v, int *bad)
{
	if (!v || json_object_set_new(obj, key, v) != 0)
		*bad = 1;
}

static void S_append(json_t *arr, json_t *v, int *bad)
{
	if (!v || json_array_append_new(arr, v) != 0)
		*bad = 1;
}

static json_t *S_kvs(const probe_kv *kv, size_t n, int *bad)
{
	json_t *o = json_object();
	size_t i;

	if (!o) {
		*bad = 1;
		return NULL;
	}
	for (i = 0; i < n; i++)
		S_set(o, kv[i].name, kv[i].is_number ? S_u64(kv[i].number) : S_str(kv[i].str), bad);
	return o;
}

static json_t *S_levels(probe_opt start, const probe_opt *peak, probe_opt end, int *bad)
{
	json_t *o = json_object();

	if (!o) {
		*bad = 1;
		return NULL;
	}
	S_set(o, "start", S_opt(start), bad);
	if (peak)
		S_set(o, "peak", S_opt(*peak), bad);
	S_set(o, "end", S_opt(end), bad);
	return o;
}

static const char *S_status_id(probe_phase_status s)
{
	switch (s) {
	case PROBE_PHASE_OK:
		return "ok";
	case PROBE_PHASE_FAILED:
		return "failed";
	case PROBE_PHASE_NOT_RUN:
		break;
	}
	return "not_run";
}

static json_t *S_phase(const probe_phase *p, uint64_t device, int *bad)
{
	json_t *o = json_object();

	if (!o) {
		*bad = 1;
		return NULL;
	}
	S_set(o, "name", S_str(p->name), bad);
	S_set(o, "device", S_u64(device), bad);
	S_set(o, "status", S_str(S_status_id(p->status)), bad);
	/* a failed phase always carries a text, even if CUDA gave none */
	if (p->status == PROBE_PHASE_FAILED)
		S_set(o, "error", S_str(p->error[0] ? p->error : "unknown error"), bad);
	else
		S_set(o, "error", json_null(), bad);
	S_set(o, "allocated", S_levels(p->alloc_start, &p->alloc_peak, p->alloc_end, bad), bad);
	S_set(o, "reserved", S_levels(p->reserved_start, &p->reserved_peak, p->reserved_end, bad), bad);
	S_set(o, "device_used", S_levels(p->used_start, NULL, p->used_end, bad), bad);
	S_set(o, "elapsed_us", S_opt(p->elapsed_us), bad);
	return o;
}

static json_t *S_device(const probe_env *e, int *bad)
{
	json_t *o = json_object();

	if (!o) {
		*bad = 1;
		return NULL;
	}
	S_set(o, "index", S_u64(e->index), bad);
	S_set(o, "name", S_str(e->name[0] ? e->name : "unknown"), bad);
	S_set(o, "total_bytes", S_opt(e->total_bytes), bad);
	S_set(o, "free_bytes", S_opt(e->free_bytes), bad);
	S_set(o, "compute_capability", S_str_or_null(e->compute_capability), bad);
	return o;
}

static char *S_dump(json_t *root, int bad)
{
	char *text = NULL, *out;
	size_t n;

	if (!bad && root)
		text = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	json_decref(root);
	if (!text)
		return NULL;
	n = strlen(text);
	out = realloc(text, n + 2);
	if (!out) {
		free(text);
		return NULL;
	}
	out[n] = '\n';
	out[n + 1] = '\0';
	return out;
}

static char *S_produced_by(char *buf, size_t size)
{
	snprintf(buf, size, "gpusheet-probe %s", PROBE_VERSION);
	return buf;
}

char *probe_report_dumps(const probe_report *r)
{
	json_t *root = json_object(), *o, *arr, *env, *alloc, *fw;
	char produced[64];
	int bad = root == NULL;
	size_t i;

	if (bad)
		return NULL;
	S_set(root, "schema", json_string("gpusheet-measurement"), &bad);
	S_set(root, "schema_version", json_integer(1), &bad);
	S_set(root, "synthetic", json_boolean(r->synthetic), &bad);
	if (r->synthetic)
		S_set(root, "synthetic_note", S_str(r->synthetic_note ? r->synthetic_note
					       : "not measured on a GPU"), &bad);
	else
		S_set(root, "synthetic_note", json_null(), &bad);
	S_set(root, "produced_by", S_str(S_produced_by(produced, sizeof(produced))), &bad);
	S_set(root, "date", S_str_or_null(r->date), &bad);

	o = json_object();
	if (o) {
		S_set(o, "code", json_string(r->optimizer ? PROBE_CODE_TRAIN : PROBE_CODE), &bad);
		S_set(o, "revision", json_string(PROBE_VERSION), &bad);
		S_set(o, "input_set", json_string(PROBE_INPUT_SET), &bad);
		S_set(o, "seed", S_u64(r->seed), &bad);
	}
	S_set(root, "identity", o, &bad);

	o = json_object();
	if (o) {
		S_set(o, "batch", S_u64(r->batch), &bad);
		S_set(o, "context", S_u64(r->context), &bad);
		S_set(o, "width", S_u64(r->width), &bad);
		S_set(o, "layers", S_u64(r->layers), &bad);
		S_set(o, "dtype", S_str(r->dtype), &bad);
		if (r->optimizer)
			S_set(o, "optimizer", S_str(r->optimizer), &bad);
	}
	S_set(root, "dimensions", o, &bad);
	/* the filler is a condition of the run, not a size of the workload */
	if (r->extra_bytes) {
		o = json_object();
		if (o)
			S_set(o, "extra_bytes", S_u64(r->extra_bytes), &bad);
		S_set(root, "conditions", o, &bad);
	}

	env = json_object();
	if (env) {
		arr = json_array();
		if (arr)
			S_append(arr, S_device(&r->env, &bad), &bad);
		S_set(env, "devices", arr, &bad);
		S_set(env, "driver", S_str_or_null(r->env.driver), &bad);
		S_set(env, "runtime", S_str_or_null(r->env.runtime), &bad);
		S_set(env, "backend", json_string("cuda"), &bad);
		alloc = json_object();
		if (alloc) {
			S_set(alloc, "backend", json_string("cudaMallocAsync"), &bad);
			S_set(alloc, "settings", S_kvs(r->env.settings, r->env.nsettings, &bad), &bad);
		}
		S_set(env, "allocator", alloc, &bad);
		fw = json_object();
		if (fw) {
			if (r->env.cublas[0])
				S_set(fw, "cublas", S_str(r->env.cublas), &bad);
			if (r->env.driver_api[0])
				S_set(fw, "cuda_driver_api", S_str(r->env.driver_api), &bad);
		}
		S_set(env, "frameworks", fw, &bad);
	}
	S_set(root, "environment", env, &bad);

	o = json_object();
	if (o) {
		S_set(o, "process", json_string("fresh"), &bad);
		S_set(o, "order", S_opt(r->order), &bad);
		S_set(o, "warmup", S_opt(r->warmup), &bad);
		S_set(o, "repeats", S_opt(r->repeats), &bad);
		S_set(o, "empty_cache", json_false(), &bad);
	}
	S_set(root, "protocol", o, &bad);

	arr = json_array();
	if (arr)
		for (i = 0; i < r->nphases; i++)
			S_append(arr, S_phase(&r->phases[i], r->env.index, &bad), &bad);
	S_set(root, "phases", arr, &bad);
	return S_dump(root, bad);
}

char *probe_env_dumps(const probe_env *e)
{
	json_t *root = json_object(), *o;
	char produced[64], today[16];
	int bad = root == NULL;

	if (bad)
		return NULL;
	probe_today(today, sizeof(today));
	S_set(root, "schema", json_string("gpusheet-environment"), &bad);
	S_set(root, "schema_version", json_integer(1), &bad);
	S_set(root, "produced_by", S_str(S_produced_by(produced, sizeof(produced))), &bad);
	S_set(root, "date", S_str_or_null(today), &bad);
	S_set(root, "device", S_device(e, &bad), &bad);
	S_set(root, "device_count", S_u64(e->device_count), &bad);
	S_set(root, "driver", S_str_or_null(e->driver), &bad);
	S_set(root, "driver_note", S_str_or_null(e->nvml_note), &bad);
	S_set(root, "cuda_driver_api", S_str_or_null(e->driver_api), &bad);
	S_set(root, "runtime", S_str_or_null(e->runtime), &bad);
	S_set(root, "cublas", S_str_or_null(e->cublas), &bad);
	o = json_object();
	if (o) {
		S_set(o, "backend", json_string("cudaMallocAsync"), &bad);
		S_set(o, "settings", S_kvs(e->settings, e->nsettings, &bad), &bad);
	}
	S_set(root, "allocator", o, &bad);
	S_set(root, "environment_variables", S_kvs(e->env, e->nenv, &bad), &bad);
	return S_dump(root, bad);
}

/*** files ***/

static void S_dirname(const char *path, char *dir, size_t size)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		snprintf(dir, size, ".");
	else if (slash == path)
		snprintf(dir, size, "/");
	else
		snprintf(dir, size, "%.*s", (int)(slash - path), path);
}

int probe_output_check(const char *path, char *why, size_t whylen)
{
	struct stat st;
	char dir[PATH_MAX];

	if (!*path) {
		snprintf(why, whylen, "empty output path");
		return -1;
	}
	if (strlen(path) >= sizeof(dir) - 32) {
		snprintf(why, whylen, "output path too long");
		return -1;
	}
	if (lstat(path, &st) == 0) {
		snprintf(why, whylen, "'%s' already exists: choose a new file name for each run", path);
		return -1;
	}
	if (errno != ENOENT) {
		snprintf(why, whylen, "cannot use '%s': %s", path, strerror(errno));
		return -1;
	}
	S_dirname(path, dir, sizeof(dir));
	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
		snprintf(why, whylen, "output folder '%s' does not exist", dir);
		return -1;
	}
	if (access(dir, W_OK) != 0) {
		snprintf(why, whylen, "output folder '%s' is not writable", dir);
		return -1;
	}
	return 0;
}

static int S_write_all(int fd, const char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, p, n);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

static void S_sync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY);

	/* best effort: the file itself is already on disk */
	if (fd >= 0) {
		(void)fsync(fd);
		(void)close(fd);
	}
}

int probe_write_new(const char *path, const char *text, char *why, size_t whylen)
{
	char dir[PATH_MAX], tmp[PATH_MAX];
	const char *base;
	int fd, err;

	if (probe_output_check(path, why, whylen) != 0)
		return -1;
	S_dirname(path, dir, sizeof(dir));
	base = strrchr(path, '/');
	base = base ? base + 1 : path;
	if (snprintf(tmp, sizeof(tmp), "%s/.%s.XXXXXX", dir, base) >= (int)sizeof(tmp)) {
		snprintf(why, whylen, "output path too long");
		return -1;
	}
	fd = mkstemp(tmp);
	if (fd < 0) {
		snprintf(why, whylen, "cannot create a temporary file in '%s': %s", dir, strerror(errno));
		return -1;
	}
	if (S_write_all(fd, text, strlen(text)) != 0 || fsync(fd) != 0) {
		err = errno;
		(void)close(fd);
		(void)unlink(tmp);
		snprintf(why, whylen, "cannot write '%s': %s", tmp, strerror(err));
		return -1;
	}
	if (close(fd) != 0) {
		err = errno;
		(void)unlink(tmp);
		snprintf(why, whylen, "cannot write '%s': %s", tmp, strerror(err));
		return -1;
	}
	/* link() never replaces an existing name, unlike rename() */
	if (link(tmp, path) != 0) {
		err = errno;
		if (err == EEXIST) {
			/* nothing lost: the result stays under its temporary name */
			snprintf(why, whylen, "'%s' appeared during the run and was kept; "
				 "this result is in '%s'", path, tmp);
		} else {
			(void)unlink(tmp);
			snprintf(why, whylen, "cannot create '%s': %s", path, strerror(err));
		}
		return -1;
	}
	(void)unlink(tmp);
	S_sync_dir(dir);
	return 0;
}
