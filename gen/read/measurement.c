/* measurement: raw memory measurements, read strictly from JSON (docs/formats.md §3). */
#include "measurement.h"
#include "logimport.h"
#include "jsonread.h"
#include "util.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define S_MAX ((uint64_t)INT64_MAX)

static const char *const S_status_names[] = { "ok", "failed", "not_run", NULL };

const char *gs_measurement_phase_status_id(gs_phase_status s)
{
	switch (s) {
	case GS_PHASE_OK: return "ok";
	case GS_PHASE_FAILED: return "failed";
	case GS_PHASE_NOT_RUN: return "not_run";
	}
	return "unknown";
}

int gs_measurement_ok(const gs_measurement *m)
{
	size_t i;

	if (m->nphases == 0)
		return 0;
	for (i = 0; i < m->nphases; i++)
		if (m->phases[i].status != GS_PHASE_OK)
			return 0;
	return 1;
}

const gs_phase *gs_measurement_failure(const gs_measurement *m)
{
	size_t i;

	for (i = 0; i < m->nphases; i++)
		if (m->phases[i].status == GS_PHASE_FAILED)
			return &m->phases[i];
	return NULL;
}

const gs_kv *gs_measurement_dim(const gs_measurement *m, const char *name)
{
	size_t i;

	for (i = 0; i < m->ndims; i++)
		if (strcmp(m->dims[i].name, name) == 0)
			return &m->dims[i];
	return NULL;
}

const gs_mfigure *gs_measurement_figure(const gs_measurement *m, const char *name, int64_t device)
{
	size_t i;

	for (i = 0; i < m->nimport_figures; i++)
		if (strcmp(m->import_figures[i].name, name) == 0 &&
		    (device == -2 || m->import_figures[i].device == device))
			return &m->import_figures[i];
	return NULL;
}

const gs_msetting *gs_measurement_setting(const gs_measurement *m, const char *name)
{
	size_t i;

	for (i = 0; i < m->nimport_settings; i++)
		if (strcmp(m->import_settings[i].name, name) == 0)
			return &m->import_settings[i];
	return NULL;
}

static void S_free_kvs(gs_kv *kv, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(kv[i].name);
		free(kv[i].value);
	}
	free(kv);
}

void gs_measurement_release(gs_measurement *m)
{
	size_t i;

	if (!m)
		return;
	free(m->path);
	free(m->schema);
	free(m->synthetic_note);
	free(m->produced_by);
	free(m->date);
	free(m->code);
	free(m->revision);
	free(m->input_set);
	S_free_kvs(m->dims, m->ndims);
	S_free_kvs(m->conditions, m->nconditions);
	for (i = 0; i < m->ndevices; i++) {
		free(m->devices[i].name);
		free(m->devices[i].compute_capability);
	}
	free(m->devices);
	free(m->driver);
	free(m->runtime);
	free(m->backend);
	free(m->allocator_backend);
	S_free_kvs(m->allocator_settings, m->nallocator_settings);
	S_free_kvs(m->frameworks, m->nframeworks);
	free(m->process);
	for (i = 0; i < m->nphases; i++) {
		free(m->phases[i].name);
		free(m->phases[i].error);
	}
	free(m->phases);
	free(m->import_from);
	free(m->import_source);
	free(m->import_log_sha256);
	free(m->import_log_name);
	free(m->import_log_archived_as);
	for (i = 0; i < m->nimport_settings; i++) {
		free(m->import_settings[i].name);
		free(m->import_settings[i].value);
	}
	free(m->import_settings);
	for (i = 0; i < m->nimport_figures; i++) {
		free(m->import_figures[i].name);
		free(m->import_figures[i].decimal);
		free(m->import_figures[i].as_written);
		free(m->import_figures[i].unit);
	}
	free(m->import_figures);
	memset(m, 0, sizeof(*m));
}

/* A counter: integer >= 0 (0 bytes is a real reading), or null / absent: missing. */
static void S_opt(gs_jr *r, json_t *obj, const char *path, const char *key,
		  uint64_t min, gs_opt_u64 *out)
{
	uint64_t v;

	out->has = 0;
	out->v = 0;
	if (gs_jr_uint(r, obj, path, key, GS_JR_NULLABLE, min, S_MAX, &v) == 1) {
		out->v = v;
		out->has = 1;
	}
}

static int S_cmp_kv(const void *a, const void *b)
{
	return strcmp(((const gs_kv *)a)->name, ((const gs_kv *)b)->name);
}

/*
 * An object of name -> value, sorted by name so that output does not
 * depend on key order. Values are non-empty strings, or (allow_numbers)
 * integers >= min_number kept also as decimal text.
 */
static void S_read_map(gs_jr *r, json_t *obj, const char *path, int allow_numbers,
		       uint64_t min_number, gs_kv **out, size_t *nout)
{
	const char *key;
	json_t *val;
	gs_kv *kv;
	size_t n = 0;

	if (gs_jr_v_object(r, obj, path, NULL) != 0)
		return;
	kv = gs_xcalloc(json_object_size(obj), sizeof(*kv));
	json_object_foreach(obj, key, val) {
		char *kp = gs_jr_path_key(path, key);
		gs_kv e;
		memset(&e, 0, sizeof(e));
		if (!*key) {
			gs_jr_error(r, kp, "expected a non-empty name");
		} else if (allow_numbers && json_is_integer(val)) {
			char num[32];
			if (gs_jr_v_uint(r, val, kp, min_number, S_MAX, &e.number) == 0) {
				snprintf(num, sizeof(num), "%" PRIu64, e.number);
				e.name = gs_jr_strdup(key);
				e.value = gs_jr_strdup(num);
				e.is_number = 1;
				kv[n++] = e;
			}
		} else if (allow_numbers && !json_is_string(val)) {
			char *found = gs_jr_describe(val);
			gs_jr_error(r, kp, "expected %s or a string, found %s",
				    min_number == 1 ? "a positive integer" : "an integer >= 0",
				    found);
			free(found);
		} else if (gs_jr_v_string(r, val, kp, &e.value) == 0) {
			e.name = gs_jr_strdup(key);
			kv[n++] = e;
		}
		free(kp);
	}
	qsort(kv, n, sizeof(*kv), S_cmp_kv);
	*out = kv;
	*nout = n;
}

static void S_read_identity(gs_jr *r, gs_measurement *m, json_t *root)
{
	static const char *allowed[] = { "code", "revision", "input_set", "seed", NULL };
	json_t *o;
	char *op;

	if (gs_jr_object(r, root, "$", "identity", GS_JR_REQUIRED, allowed, &o, &op) != 1)
		return;
	gs_jr_string(r, o, op, "code", GS_JR_REQUIRED, &m->code);
	gs_jr_string(r, o, op, "revision", GS_JR_NULLABLE, &m->revision);
	gs_jr_string(r, o, op, "input_set", GS_JR_NULLABLE, &m->input_set);
	S_opt(r, o, op, "seed", 0, &m->seed);
	free(op);
}

static void S_read_devices(gs_jr *r, gs_measurement *m, json_t *env, const char *ep)
{
	static const char *allowed[] = {
		"index", "name", "total_bytes", "free_bytes", "compute_capability", NULL
	};
	json_t *arr;
	char *ap;
	size_t i, j, n = 0;

	if (gs_jr_array(r, env, ep, "devices", GS_JR_REQUIRED, &arr, &ap) != 1)
		return;
	m->devices = gs_xcalloc(json_array_size(arr), sizeof(*m->devices));
	for (i = 0; i < json_array_size(arr); i++) {
		json_t *o = json_array_get(arr, i);
		char *ip = gs_jr_path_index(ap, i);
		size_t before = r->errors;
		gs_device dv;
		memset(&dv, 0, sizeof(dv));
		if (gs_jr_v_object(r, o, ip, allowed) == 0) {
			gs_jr_uint(r, o, ip, "index", GS_JR_REQUIRED, 0, S_MAX, &dv.index);
			gs_jr_string(r, o, ip, "name", GS_JR_REQUIRED, &dv.name);
			S_opt(r, o, ip, "total_bytes", 1, &dv.total_bytes);
			S_opt(r, o, ip, "free_bytes", 0, &dv.free_bytes);
			gs_jr_string(r, o, ip, "compute_capability", GS_JR_NULLABLE,
				     &dv.compute_capability);
			if (dv.total_bytes.has && dv.free_bytes.has &&
			    dv.free_bytes.v > dv.total_bytes.v) {
				char *fp = gs_jr_path_key(ip, "free_bytes");
				gs_jr_error(r, fp, "free_bytes (%" PRIu64 ") is larger than "
					    "total_bytes (%" PRIu64 ")",
					    dv.free_bytes.v, dv.total_bytes.v);
				free(fp);
			}
			if (r->errors == before) {
				for (j = 0; j < n; j++) {
					if (m->devices[j].index == dv.index) {
						char *xp = gs_jr_path_key(ip, "index");
						gs_jr_error(r, xp, "device index %" PRIu64
							    " appears twice", dv.index);
						free(xp);
					}
				}
			}
		}
		if (r->errors == before) {
			m->devices[n++] = dv;
		} else {
			free(dv.name);
			free(dv.compute_capability);
		}
		free(ip);
	}
	m->ndevices = n;
	free(ap);
}

static void S_read_environment(gs_jr *r, gs_measurement *m, json_t *root)
{
	static const char *allowed[] = {
		"devices", "driver", "runtime", "backend", "allocator", "frameworks", NULL
	};
	static const char *alloc_keys[] = { "backend", "settings", NULL };
	static const char *const backends[] = { "cuda", "hip", NULL };
	json_t *env, *o, *v;
	char *ep, *op, *vp;
	int b;

	if (gs_jr_object(r, root, "$", "environment", GS_JR_REQUIRED, allowed, &env, &ep) != 1)
		return;
	S_read_devices(r, m, env, ep);
	gs_jr_string(r, env, ep, "driver", GS_JR_NULLABLE, &m->driver);
	gs_jr_string(r, env, ep, "runtime", GS_JR_NULLABLE, &m->runtime);
	if (gs_jr_enum(r, env, ep, "backend", GS_JR_REQUIRED, backends, &b) == 1)
		m->backend = gs_jr_strdup(backends[b]);
	if (gs_jr_object(r, env, ep, "allocator", GS_JR_NULLABLE, alloc_keys, &o, &op) == 1) {
		gs_jr_string(r, o, op, "backend", GS_JR_NULLABLE, &m->allocator_backend);
		v = gs_jr_member(r, o, op, "settings", GS_JR_NULLABLE, &vp);
		if (v) {
			S_read_map(r, v, vp, 1, 0, &m->allocator_settings,
				   &m->nallocator_settings);
			free(vp);
		}
		free(op);
	}
	v = gs_jr_member(r, env, ep, "frameworks", GS_JR_NULLABLE, &vp);
	if (v) {
		S_read_map(r, v, vp, 0, 0, &m->frameworks, &m->nframeworks);
		free(vp);
	}
	free(ep);
}

static void S_read_protocol(gs_jr *r, gs_measurement *m, json_t *root)
{
	static const char *allowed[] = {
		"process", "order", "warmup", "repeats", "empty_cache", NULL
	};
	static const char *const processes[] = { "fresh", "reused", "unknown", NULL };
	json_t *o;
	char *op;
	int p;

	if (gs_jr_object(r, root, "$", "protocol", GS_JR_REQUIRED, allowed, &o, &op) != 1)
		return;
	if (gs_jr_enum(r, o, op, "process", GS_JR_REQUIRED, processes, &p) == 1)
		m->process = gs_jr_strdup(processes[p]);
	S_opt(r, o, op, "order", 1, &m->order);
	S_opt(r, o, op, "warmup", 0, &m->warmup);
	S_opt(r, o, op, "repeats", 0, &m->repeats);
	/* required: emptying the cache changes the protocol, it cannot default;
	 * null only in a file imported from a log, which does not say */
	if (json_is_null(json_object_get(o, "empty_cache")) && json_object_get(root, "import")) {
		m->has_empty_cache = 0;
	} else if (gs_jr_bool(r, o, op, "empty_cache", GS_JR_REQUIRED, &m->empty_cache) == 1) {
		m->has_empty_cache = 1;
	}
	free(op);
}

/* The import's "log" object, at op: the log's name, digest and archived copy. */
static void S_read_import_log(gs_jr *r, gs_measurement *m, json_t *o, const char *op)
{
	static const char *log_keys[] = { "name", "sha256", "bytes", "lines", "archived_as", NULL };
	json_t *lo;
	char *lp;
	uint64_t u;

	if (gs_jr_object(r, o, op, "log", GS_JR_REQUIRED, log_keys, &lo, &lp) == 1) {
		gs_jr_string(r, lo, lp, "name", GS_JR_REQUIRED, &m->import_log_name);
		if (gs_jr_string(r, lo, lp, "sha256", GS_JR_REQUIRED, &m->import_log_sha256) == 1 &&
		    (strlen(m->import_log_sha256) != 64 ||
		     strspn(m->import_log_sha256, "0123456789abcdef") != 64)) {
			char *sp = gs_jr_path_key(lp, "sha256");
			gs_jr_error(r, sp, "expected 64 lowercase hex digits");
			free(sp);
		}
		gs_jr_uint(r, lo, lp, "bytes", GS_JR_REQUIRED, 0, S_MAX, &u);
		gs_jr_uint(r, lo, lp, "lines", GS_JR_REQUIRED, 0, S_MAX, &u);
		/* evidence/<sha256>[.ext], the ext of letters and digits: a name
		 * beside the measurement, never a path out of its folder */
		if (gs_jr_string(r, lo, lp, "archived_as", GS_JR_REQUIRED,
				 &m->import_log_archived_as) == 1 && m->import_log_sha256) {
			const char *a = m->import_log_archived_as, *x = a + 9 + 64;
			int ok = strncmp(a, "evidence/", 9) == 0 && strlen(a) >= 9 + 64 &&
				 strncmp(a + 9, m->import_log_sha256, 64) == 0 &&
				 (!*x || (*x == '.' && x[1] && strlen(x + 1) <= 16 &&
					  strspn(x + 1, "abcdefghijklmnopqrstuvwxyz0123456789") ==
						  strlen(x + 1)));
			if (!ok) {
				char *sp = gs_jr_path_key(lp, "archived_as");
				gs_jr_error(r, sp, "expected evidence/<the log's sha256>[.ext]");
				free(sp);
			}
		}
		free(lp);
	}
}

/* The import's "settings", at op: each with its line, or stated by a flag. */
static void S_read_import_settings(gs_jr *r, gs_measurement *m, json_t *o, const char *op)
{
	static const char *set_keys[] = { "name", "value", "line", "text", "stated", NULL };
	static const char *const S_stated_by[] = { "--model", "--setting", NULL };
	json_t *arr;
	char *ap, *dummy = NULL;
	size_t i;
	int e;

	if (gs_jr_array(r, o, op, "settings", GS_JR_REQUIRED, &arr, &ap) == 1) {
		m->import_settings = gs_xcalloc(json_array_size(arr) + 1, sizeof(*m->import_settings));
		for (i = 0; i < json_array_size(arr); i++) {
			json_t *it = json_array_get(arr, i);
			char *ip = gs_jr_path_index(ap, i);
			gs_msetting st;
			memset(&st, 0, sizeof(st));
			if (gs_jr_v_object(r, it, ip, set_keys) == 0) {
				gs_jr_string(r, it, ip, "name", GS_JR_REQUIRED, &st.name);
				gs_jr_string(r, it, ip, "value", GS_JR_REQUIRED, &st.value);
				/* a line of the log and its text, or neither: stated
				 * at import by the flag named */
				gs_jr_uint(r, it, ip, "line", GS_JR_NULLABLE, 1, S_MAX, &st.line);
				gs_jr_string(r, it, ip, "text", GS_JR_NULLABLE, &dummy);
				{
					char *by = NULL;
					int has_line = json_integer_value(json_object_get(it, "line")) > 0;
					gs_jr_enum(r, it, ip, "stated", GS_JR_NULLABLE, S_stated_by, &e);
					by = json_is_string(json_object_get(it, "stated")) ? "y" : NULL;
					if (has_line != (dummy != NULL) || has_line == (by != NULL))
						gs_jr_error(r, ip, "a setting has a line and its text (read "
							    "from the log), or neither and \"stated\" (given "
							    "by a flag)");
					st.stated = !has_line;
				}
				free(dummy);
				dummy = NULL;
			}
			if (st.name && st.value) {
				m->import_settings[m->nimport_settings++] = st;
			} else {
				free(st.name);
				free(st.value);
			}
			free(ip);
		}
		free(ap);
	}
}

/* The import's "figures", at op: each value with its unit and its line. */
static void S_read_import_figures(gs_jr *r, gs_measurement *m, json_t *o, const char *op)
{
	static const char *fig_keys[] = { "name", "device", "value", "unit", "as_written",
					  "note", "estimate", "line", "last_line", "text", NULL };
	const char *units[32];   /* gs_logimport_unit_id's */
	json_t *arr;
	char *ap, *dummy = NULL;
	uint64_t u;
	size_t i;
	int e;

	for (i = 0; i + 1 < sizeof(units) / sizeof(units[0]) &&
		    gs_logimport_unit_id((gs_log_unit)i); i++)
		units[i] = gs_logimport_unit_id((gs_log_unit)i);
	units[i] = NULL;
	if (gs_jr_array(r, o, op, "figures", GS_JR_REQUIRED, &arr, &ap) == 1) {
		m->import_figures = gs_xcalloc(json_array_size(arr) + 1, sizeof(*m->import_figures));
		for (i = 0; i < json_array_size(arr); i++) {
			json_t *it = json_array_get(arr, i), *v;
			char *ip = gs_jr_path_index(ap, i);
			size_t before = r->errors;
			gs_mfigure f;
			memset(&f, 0, sizeof(f));
			f.device = -1;
			if (gs_jr_v_object(r, it, ip, fig_keys) == 0) {
				gs_jr_string(r, it, ip, "name", GS_JR_REQUIRED, &f.name);
				v = json_object_get(it, "device");
				if (v && !json_is_null(v)) {
					if (gs_jr_v_uint(r, v, ip, 0, S_MAX, &u) == 0)
						f.device = (int64_t)u;
				}
				if (gs_jr_enum(r, it, ip, "unit", GS_JR_REQUIRED, units, &e) == 1)
					f.unit = gs_jr_strdup(units[e]);
				v = json_object_get(it, "value");
				if (json_is_integer(v)) {
					f.is_int = 1;
					f.value = (int64_t)json_integer_value(v);
				} else if (json_is_string(v) && gs_jr_is_decimal(json_string_value(v), NULL)) {
					f.decimal = gs_jr_strdup(json_string_value(v));
				} else {
					char *vp = gs_jr_path_key(ip, "value");
					gs_jr_error(r, vp, "expected an integer or a decimal string");
					free(vp);
				}
				gs_jr_string(r, it, ip, "as_written", GS_JR_REQUIRED, &f.as_written);
				gs_jr_string(r, it, ip, "note", GS_JR_NULLABLE, &dummy);
				free(dummy);
				dummy = NULL;
				gs_jr_bool(r, it, ip, "estimate", GS_JR_REQUIRED, &f.estimate);
				gs_jr_uint(r, it, ip, "line", GS_JR_REQUIRED, 1, S_MAX, &f.line);
				gs_jr_uint(r, it, ip, "last_line", GS_JR_NULLABLE, 1, S_MAX, &u);
				gs_jr_string(r, it, ip, "text", GS_JR_REQUIRED, &dummy);
				free(dummy);
				dummy = NULL;
			}
			if (r->errors == before && f.name && f.unit) {
				m->import_figures[m->nimport_figures++] = f;
			} else {
				free(f.name);
				free(f.unit);
				free(f.decimal);
				free(f.as_written);
			}
			free(ip);
		}
		free(ap);
	}
}

/*
 * The record of an import (docs/formats.md §3.2): where the log comes
 * from, its archived copy, and every figure with the line it was read from.
 */
static void S_read_import(gs_jr *r, gs_measurement *m, json_t *root)
{
	static const char *allowed[] = { "from", "source", "log", "engine", "version",
					 "version_line", "start", "starts", "settings", "figures",
					 NULL };
	const char *froms[32];   /* the formats of evidence import (logformat.c) */
	json_t *o;
	char *op, *dummy = NULL;
	uint64_t u;
	size_t i;
	int e;

	for (i = 0; i < gs_logformat_count() && i + 1 < sizeof(froms) / sizeof(froms[0]); i++)
		froms[i] = gs_logformat_at(i)->id;
	froms[i] = NULL;
	if (gs_jr_object(r, root, "$", "import", GS_JR_NULLABLE, allowed, &o, &op) != 1)
		return;
	if (gs_jr_enum(r, o, op, "from", GS_JR_REQUIRED, froms, &e) == 1)
		m->import_from = gs_jr_strdup(froms[e]);
	gs_jr_string(r, o, op, "source", GS_JR_REQUIRED, &m->import_source);
	gs_jr_string(r, o, op, "engine", GS_JR_REQUIRED, &dummy);
	free(dummy);
	dummy = NULL;
	gs_jr_string(r, o, op, "version", GS_JR_NULLABLE, &dummy);
	free(dummy);
	dummy = NULL;
	gs_jr_uint(r, o, op, "version_line", GS_JR_NULLABLE, 1, S_MAX, &u);
	gs_jr_uint(r, o, op, "start", GS_JR_REQUIRED, 1, S_MAX, &u);
	gs_jr_uint(r, o, op, "starts", GS_JR_REQUIRED, 1, S_MAX, &u);
	S_read_import_log(r, m, o, op);
	S_read_import_settings(r, m, o, op);
	S_read_import_figures(r, m, o, op);
	free(op);
}

/* A peak is a maximum since the reset that followed `start`: never below start or end. */
static void S_check_peak(gs_jr *r, const char *path, const char *what,
			 gs_opt_u64 start, gs_opt_u64 peak, gs_opt_u64 end)
{
	if (peak.has && start.has && peak.v < start.v)
		gs_jr_error(r, path, "%s.peak (%" PRIu64 ") is below %s.start (%" PRIu64 ")",
			    what, peak.v, what, start.v);
	if (peak.has && end.has && peak.v < end.v)
		gs_jr_error(r, path, "%s.peak (%" PRIu64 ") is below %s.end (%" PRIu64 ")",
			    what, peak.v, what, end.v);
}

static void S_read_counters(gs_jr *r, json_t *ph, const char *path, const char *key,
			    int with_peak, gs_opt_u64 *start, gs_opt_u64 *peak, gs_opt_u64 *end)
{
	static const char *with[] = { "start", "peak", "end", NULL };
	static const char *without[] = { "start", "end", NULL };
	json_t *o;
	char *op;

	if (gs_jr_object(r, ph, path, key, GS_JR_NULLABLE, with_peak ? with : without,
			 &o, &op) != 1)
		return;
	S_opt(r, o, op, "start", 0, start);
	if (with_peak)
		S_opt(r, o, op, "peak", 0, peak);
	S_opt(r, o, op, "end", 0, end);
	if (with_peak)
		S_check_peak(r, op, key, *start, *peak, *end);
	free(op);
}

static void S_read_phases(gs_jr *r, gs_measurement *m, json_t *root)
{
	static const char *allowed[] = {
		"name", "device", "status", "error", "allocated", "reserved",
		"device_used", "elapsed_us", NULL
	};
	json_t *arr;
	char *ap;
	size_t i, j, n = 0;

	if (gs_jr_array(r, root, "$", "phases", GS_JR_REQUIRED, &arr, &ap) != 1)
		return;
	if (json_array_size(arr) == 0)
		gs_jr_error(r, ap, "expected at least one phase");
	m->phases = gs_xcalloc(json_array_size(arr), sizeof(*m->phases));
	for (i = 0; i < json_array_size(arr); i++) {
		json_t *o = json_array_get(arr, i);
		char *ip = gs_jr_path_index(ap, i);
		size_t before = r->errors;
		gs_phase ph;
		int st = -1, has_dev = 0;
		memset(&ph, 0, sizeof(ph));
		if (gs_jr_v_object(r, o, ip, allowed) == 0) {
			gs_jr_string(r, o, ip, "name", GS_JR_REQUIRED, &ph.name);
			has_dev = gs_jr_uint(r, o, ip, "device", GS_JR_REQUIRED, 0, S_MAX,
					     &ph.device) == 1;
			if (gs_jr_enum(r, o, ip, "status", GS_JR_REQUIRED, S_status_names,
				       &st) == 1)
				ph.status = (gs_phase_status)st;
			gs_jr_string(r, o, ip, "error", GS_JR_NULLABLE, &ph.error);
			if (st == GS_PHASE_FAILED && !ph.error && !json_is_string(json_object_get(o, "error")))
				gs_jr_error(r, ip, "a failed phase needs its error text in \"error\"");
			if (st == GS_PHASE_OK && ph.error) {
				char *xp = gs_jr_path_key(ip, "error");
				gs_jr_error(r, xp, "a phase with status \"ok\" has no error: "
					    "use \"failed\", or null");
				free(xp);
			}
			S_read_counters(r, o, ip, "allocated", 1, &ph.alloc_start,
					&ph.alloc_peak, &ph.alloc_end);
			S_read_counters(r, o, ip, "reserved", 1, &ph.reserved_start,
					&ph.reserved_peak, &ph.reserved_end);
			S_read_counters(r, o, ip, "device_used", 0, &ph.used_start, NULL,
					&ph.used_end);
			S_opt(r, o, ip, "elapsed_us", 0, &ph.elapsed_us);
			/* a phase record is about one device of the environment */
			if (has_dev && m->ndevices > 0) {
				int known = 0;
				for (j = 0; j < m->ndevices; j++)
					if (m->devices[j].index == ph.device)
						known = 1;
				if (!known) {
					char *dp = gs_jr_path_key(ip, "device");
					gs_jr_error(r, dp, "device %" PRIu64 " is not among "
						    "environment.devices", ph.device);
					free(dp);
				}
			}
			if (ph.name)
				ph.warm = strcmp(ph.name, "warmup") == 0 ||
					  strcmp(ph.name, "warm_forward") == 0;
		}
		if (r->errors == before) {
			m->phases[n++] = ph;
		} else {
			free(ph.name);
			free(ph.error);
		}
		free(ip);
	}
	m->nphases = n;
	free(ap);
}

/*
 * A file that says it was produced on a device names what produced it and
 * the device: otherwise nothing tells it from a hand-written file.
 */
static void S_check_provenance(gs_jr *r, const gs_measurement *m, json_t *root)
{
	if (m->synthetic || !json_is_false(json_object_get(root, "synthetic")))
		return;
	if (!m->produced_by && !json_is_string(json_object_get(root, "produced_by")))
		gs_jr_error(r, "$.produced_by", "a measurement with \"synthetic\": false needs "
			    "\"produced_by\" (the tool and version that produced it on the device); "
			    "a file not produced on a GPU must say \"synthetic\": true");
	if (m->ndevices == 0 && json_is_object(json_object_get(root, "environment")))
		gs_jr_error(r, "$.environment.devices", "a measurement with \"synthetic\": false "
			    "needs the identity of the device it ran on (at least one device with "
			    "its name)");
}

/* A copy of array a of n elements of size sz: NULL stays NULL (a reader
 * may tell an absent array from an empty one), n + 1 zeroed otherwise (the
 * readers' arrays have a zeroed element past the last, some of them). */
static void *S_dup_array(const void *a, size_t n, size_t sz)
{
	void *c;

	if (!a)
		return NULL;
	c = gs_xcalloc(n + 1, sz);
	if (n)
		memcpy(c, a, n * sz);
	return c;
}

static gs_kv *S_copy_kvs(const gs_kv *kv, size_t n)
{
	gs_kv *c = S_dup_array(kv, n, sizeof(*kv));
	size_t i;

	for (i = 0; i < n; i++) {
		c[i].name = gs_xstrdup_or_null(kv[i].name);
		c[i].value = gs_xstrdup_or_null(kv[i].value);
	}
	return c;
}

void gs_measurement_copy(gs_measurement *dst, const gs_measurement *src, const char *path)
{
	size_t i;

	*dst = *src;   /* the scalars; every pointer is replaced below */
	dst->path = gs_xstrdup_or_null(path);
	dst->schema = gs_xstrdup_or_null(src->schema);
	dst->synthetic_note = gs_xstrdup_or_null(src->synthetic_note);
	dst->produced_by = gs_xstrdup_or_null(src->produced_by);
	dst->date = gs_xstrdup_or_null(src->date);
	dst->code = gs_xstrdup_or_null(src->code);
	dst->revision = gs_xstrdup_or_null(src->revision);
	dst->input_set = gs_xstrdup_or_null(src->input_set);
	dst->dims = S_copy_kvs(src->dims, src->ndims);
	dst->conditions = S_copy_kvs(src->conditions, src->nconditions);
	dst->devices = S_dup_array(src->devices, src->ndevices, sizeof(*src->devices));
	for (i = 0; i < src->ndevices; i++) {
		dst->devices[i].name = gs_xstrdup_or_null(src->devices[i].name);
		dst->devices[i].compute_capability = gs_xstrdup_or_null(src->devices[i].compute_capability);
	}
	dst->driver = gs_xstrdup_or_null(src->driver);
	dst->runtime = gs_xstrdup_or_null(src->runtime);
	dst->backend = gs_xstrdup_or_null(src->backend);
	dst->allocator_backend = gs_xstrdup_or_null(src->allocator_backend);
	dst->allocator_settings = S_copy_kvs(src->allocator_settings, src->nallocator_settings);
	dst->frameworks = S_copy_kvs(src->frameworks, src->nframeworks);
	dst->process = gs_xstrdup_or_null(src->process);
	dst->phases = S_dup_array(src->phases, src->nphases, sizeof(*src->phases));
	for (i = 0; i < src->nphases; i++) {
		dst->phases[i].name = gs_xstrdup_or_null(src->phases[i].name);
		dst->phases[i].error = gs_xstrdup_or_null(src->phases[i].error);
	}
	dst->import_from = gs_xstrdup_or_null(src->import_from);
	dst->import_source = gs_xstrdup_or_null(src->import_source);
	dst->import_log_sha256 = gs_xstrdup_or_null(src->import_log_sha256);
	dst->import_log_name = gs_xstrdup_or_null(src->import_log_name);
	dst->import_log_archived_as = gs_xstrdup_or_null(src->import_log_archived_as);
	dst->import_settings = S_dup_array(src->import_settings, src->nimport_settings,
					   sizeof(*src->import_settings));
	for (i = 0; i < src->nimport_settings; i++) {
		dst->import_settings[i].name = gs_xstrdup_or_null(src->import_settings[i].name);
		dst->import_settings[i].value = gs_xstrdup_or_null(src->import_settings[i].value);
	}
	dst->import_figures = S_dup_array(src->import_figures, src->nimport_figures,
					  sizeof(*src->import_figures));
	for (i = 0; i < src->nimport_figures; i++) {
		dst->import_figures[i].name = gs_xstrdup_or_null(src->import_figures[i].name);
		dst->import_figures[i].decimal = gs_xstrdup_or_null(src->import_figures[i].decimal);
		dst->import_figures[i].as_written = gs_xstrdup_or_null(src->import_figures[i].as_written);
		dst->import_figures[i].unit = gs_xstrdup_or_null(src->import_figures[i].unit);
	}
}

int gs_measurement_read(const char *path, gs_measurement *m, gs_diag *d)
{
	return gs_measurement_parse(path, NULL, 0, m, d);
}

int gs_measurement_parse(const char *path, const char *text, size_t len, gs_measurement *m,
			 gs_diag *d)
{
	static const char *allowed[] = {
		"schema", "schema_version", "synthetic", "synthetic_note", "produced_by",
		"date", "identity", "dimensions", "conditions", "environment", "protocol",
		"phases", "import", NULL
	};
	static const char *const schema_names[] = { "gpusheet-measurement", NULL };
	gs_jr r;
	json_t *root, *v;
	char *vp;
	int s;

	memset(m, 0, sizeof(*m));
	gs_jr_init(&r, path, d);
	r.text = text;
	r.len = len;
	root = gs_jr_load(&r);
	if (!root)
		return -1;
	m->path = gs_jr_strdup(path);
	gs_jr_v_object(&r, root, "$", allowed);
	if (gs_jr_enum(&r, root, "$", "schema", GS_JR_REQUIRED, schema_names, &s) == 1)
		m->schema = gs_jr_strdup(schema_names[s]);
	if (gs_jr_uint(&r, root, "$", "schema_version", GS_JR_REQUIRED, 0, S_MAX,
		       &m->schema_version) == 1 && m->schema_version != 1)
		gs_jr_error(&r, "$.schema_version", "unsupported schema_version %" PRIu64
			    " (this gpusheet reads 1)", m->schema_version);
	gs_jr_bool(&r, root, "$", "synthetic", GS_JR_REQUIRED, &m->synthetic);
	gs_jr_string(&r, root, "$", "synthetic_note", GS_JR_NULLABLE, &m->synthetic_note);
	if (m->synthetic && !m->synthetic_note && !json_is_string(json_object_get(root, "synthetic_note")))
		gs_jr_error(&r, "$", "a synthetic measurement needs \"synthetic_note\" "
			    "saying how it was made");
	gs_jr_string(&r, root, "$", "produced_by", GS_JR_NULLABLE, &m->produced_by);
	if (gs_jr_string(&r, root, "$", "date", GS_JR_NULLABLE, &m->date) == 1 &&
	    !gs_jr_is_date(m->date) && !gs_jr_is_datetime(m->date))
		gs_jr_error(&r, "$.date", "expected a calendar date YYYY-MM-DD or an RFC 3339 "
			    "date-time, found \"%s\"", m->date);
	S_read_identity(&r, m, root);
	v = gs_jr_member(&r, root, "$", "dimensions", GS_JR_NULLABLE, &vp);
	if (v) {
		S_read_map(&r, v, vp, 1, 1, &m->dims, &m->ndims);
		free(vp);
	}
	v = gs_jr_member(&r, root, "$", "conditions", GS_JR_NULLABLE, &vp);
	if (v) {
		S_read_map(&r, v, vp, 1, 1, &m->conditions, &m->nconditions);
		free(vp);
	}
	S_read_environment(&r, m, root);
	S_read_protocol(&r, m, root);
	S_read_phases(&r, m, root);
	S_read_import(&r, m, root);
	S_check_provenance(&r, m, root);
	json_decref(root);
	if (r.errors > 0) {
		gs_measurement_release(m);
		return -1;
	}
	return 0;
}
