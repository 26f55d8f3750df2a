/* logmeasure: an imported log and the import's flags made a measurement's text (logmeasure.h). */
#define _XOPEN_SOURCE 700
#include "logmeasure.h"
#include "gpuname.h"
#include "util.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Two values of one setting agree: the same text, or the same decimal
 * ("0.9" and "0.90"). */
static int S_same_value(const char *a, const char *b)
{
	char *ea, *eb;
	double x, y;

	if (strcmp(a, b) == 0)
		return 1;
	x = strtod(a, &ea);
	y = strtod(b, &eb);
	return ea != a && eb != b && !*ea && !*eb && x == y;
}

/* bf16 and bfloat16 are one dtype, as are fp16, half and float16. */
static const char *S_dtype_norm(const char *s)
{
	static const char *const al[][2] = {
		{ "bf16", "bfloat16" }, { "fp16", "float16" }, { "half", "float16" },
		{ "f16", "float16" },   { "fp32", "float32" }, { "float", "float32" },
		{ "f32", "float32" },   { NULL, NULL }
	};
	size_t i;

	if (strncmp(s, "torch.", 6) == 0)
		s += 6;
	for (i = 0; al[i][0]; i++)
		if (strcmp(s, al[i][0]) == 0)
			return al[i][1];
	return s;
}

void gs_logmeasure_error_release(gs_logmeasure_error *e)
{
	gs_diag_release(&e->d);
	free(e->msg);
	e->msg = NULL;
}

/* A flag the log contradicts: "LOG:LINE: MSG: "TEXT"" (always -1). */
static int S_refuse(gs_logmeasure_error *e, const char *log, size_t line, char *msg,
		    const char *text)
{
	gs_diag_add(&e->d, log, (int)line, 0, NULL, "%s: \"%s\"", msg, text);
	free(msg);
	return -1;
}

/* --model, --dtype, --setting against the log's settings. */
static int S_check_settings(const gs_logimport *li, const gs_logmeasure_flags *f,
			    gs_logmeasure_error *e)
{
	const gs_logsetting *s;
	size_t i;

	if (f->model && (s = gs_logimport_setting(li, "model")) && strcmp(s->value, f->model) != 0 &&
	    strcmp(gs_util_basename(s->value), gs_util_basename(f->model)) != 0)
		return S_refuse(e, f->log, s->line, gs_xasprintf("--model %s contradicts the log, "
			"which names the model %s", f->model, s->value), s->text);
	if (f->dtype && (s = gs_logimport_setting(li, "dtype")) &&
	    strcmp(S_dtype_norm(s->value), S_dtype_norm(f->dtype)) != 0)
		return S_refuse(e, f->log, s->line, gs_xasprintf("--dtype %s contradicts the log, "
			"which says dtype=%s", f->dtype, s->value), s->text);
	for (i = 0; i < f->nstated; i++) {
		s = gs_logimport_setting(li, f->stated[i].name);
		if (s && !S_same_value(s->value, f->stated[i].value))
			return S_refuse(e, f->log, s->line, gs_xasprintf("--setting %s contradicts "
				"the log, which says %s", f->stated[i].flag, s->value), s->text);
	}
	return 0;
}

/* --gpu against the devices the log names; a device it does not name takes --gpu's name. */
static int S_check_gpus(gs_logimport *li, const gs_logmeasure_flags *f, gs_logmeasure_error *e)
{
	size_t i, j;

	for (i = 0; i < li->ndevices; i++) {
		gs_logdevice *dv = &li->devices[i];
		const char *name = NULL;
		for (j = 0; j < f->ngpus; j++) {
			const gs_logmeasure_gpu *g = &f->gpus[j];
			if (g->index >= 0 && g->index != dv->index)
				continue;
			if (dv->name && !gs_gpuname_same(g->name, NULL, dv->name) &&
			    !gs_gpuname_same(dv->name, NULL, g->name) && strcmp(dv->name, g->name) != 0)
				return S_refuse(e, f->log, dv->name_line, gs_xasprintf("--gpu %s contradicts "
					"the log, which names the device %s", g->name, dv->name), dv->name);
		}
		if (dv->name)
			continue;
		for (j = 0; j < f->ngpus; j++)
			if (f->gpus[j].index == dv->index || (f->gpus[j].index < 0 && !name))
				name = f->gpus[j].name;
		for (j = 0; j < f->ngpus; j++)
			if (f->gpus[j].index == dv->index)
				name = f->gpus[j].name;
		if (!name) {
			e->msg = gs_xasprintf("%s: the log does not name the GPU of device %" PRId64
					      ": give --gpu NAME (or --gpu %" PRId64 "=NAME)",
					      f->log, dv->index, dv->index);
			return -1;
		}
		dv->name = gs_xstrdup(name);
	}
	return 0;
}

/* The dimensions: the log's, then --dims's (a contradiction refused). */
static int S_dims(const gs_logimport *li, const gs_logmeasure_flags *f, json_t *jdims,
		  gs_logmeasure_error *e)
{
	static const char *const logdims[] = { "max_model_len", "tensor_parallel_size",
					       "pipeline_parallel_size", "n_ctx", "n_seq_max", NULL };
	const gs_logsetting *s;
	char *copy, *tok, *save = NULL;
	uint64_t u;
	size_t i;
	int rc = 0;

	for (i = 0; logdims[i]; i++)
		if ((s = gs_logimport_setting(li, logdims[i])) && gs_util_posint(s->value, &u) == 0)
			json_object_set_new(jdims, logdims[i], json_integer((json_int_t)u));
	if ((s = gs_logimport_setting(li, "dtype")))
		json_object_set_new(jdims, "dtype", json_string(S_dtype_norm(s->value)));
	else if (f->dtype)
		json_object_set_new(jdims, "dtype", json_string(S_dtype_norm(f->dtype)));
	if (!f->dims)
		return 0;
	copy = gs_xstrdup(f->dims);
	for (tok = strtok_r(copy, ",", &save); tok && rc == 0; tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '=');
		json_t *have;
		size_t k;
		int okname = eq && eq > tok && *tok >= 'a' && *tok <= 'z';
		if (eq)
			*eq = '\0';
		for (k = 0; okname && tok[k]; k++)
			okname = (tok[k] >= 'a' && tok[k] <= 'z') || (tok[k] >= '0' && tok[k] <= '9') ||
				 tok[k] == '_';
		if (!okname || gs_util_posint(eq + 1, &u) != 0) {
			e->msg = gs_xasprintf("--dims takes NAME=N,... with positive whole numbers "
					      "(got '%s')", f->dims);
			e->usage = 1;
			rc = -1;
			break;
		}
		have = json_object_get(jdims, tok);
		if (have && json_is_integer(have) && (uint64_t)json_integer_value(have) != u) {
			s = gs_logimport_setting(li, tok);
			rc = S_refuse(e, f->log, s ? s->line : 0, gs_xasprintf("--dims %s contradicts the "
				"log, which says %s", tok, s ? s->value : ""), s ? s->text : "");
			break;
		}
		json_object_set_new(jdims, tok, json_integer((json_int_t)u));
	}
	free(copy);
	return rc;
}

int gs_logmeasure_check(gs_logimport *li, const gs_logmeasure_flags *f, json_t **dims,
			gs_logmeasure_error *e)
{
	memset(e, 0, sizeof(*e));
	*dims = NULL;
	if (S_check_settings(li, f, e) != 0 || S_check_gpus(li, f, e) != 0)
		return -1;
	*dims = json_object();
	if (S_dims(li, f, *dims, e) != 0) {
		json_decref(*dims);
		*dims = NULL;
		return -1;
	}
	return 0;
}

char *gs_logmeasure_covers(const gs_logimport *li, const gs_logmeasure_flags *f)
{
	const gs_logsetting *ms = gs_logimport_setting(li, "model");

	return gs_xasprintf("%s log%s%s, imported from %s (reported by %s)", li->engine,
			    ms || f->model ? " of " : "", ms ? ms->value : f->model ? f->model : "",
			    gs_util_basename(f->log), f->source);
}

static json_t *S_opt_u64(int has, uint64_t v)
{
	return has ? json_integer((json_int_t)v) : json_null();
}

/* environment: the devices, the backend, the engine's version. */
static json_t *S_environment(const gs_logimport *li, const gs_logformat *fmt)
{
	json_t *env = json_object(), *devs = json_array();
	size_t i;

	for (i = 0; i < li->ndevices; i++) {
		const gs_logdevice *dv = &li->devices[i];
		json_array_append_new(devs, json_pack("{s:I,s:s,s:o,s:o}", "index", (json_int_t)dv->index,
						      "name", dv->name,
						      "total_bytes", S_opt_u64(dv->has_total, dv->total),
						      "free_bytes", S_opt_u64(dv->has_free, dv->free_bytes)));
	}
	json_object_set_new(env, "devices", devs);
	{
		const gs_logsetting *b = gs_logimport_setting(li, "backend");
		json_object_set_new(env, "backend",
				    json_string(b && strcmp(b->value, "ROCm") == 0 ? "hip" : "cuda"));
	}
	if (fmt->framework && li->version) {
		const char *v = li->version[0] == 'v' ? li->version + 1 : li->version;
		json_object_set_new(env, "frameworks", json_pack("{s:s}", fmt->framework, v));
	}
	return env;
}

static json_t *S_phases(const gs_logimport *li)
{
	json_t *phs = json_array();
	size_t i;

	for (i = 0; i < li->nphases; i++) {
		const gs_logphase *p = &li->phases[i];
		json_t *ph = json_object();
		json_object_set_new(ph, "name", json_string(p->name));
		json_object_set_new(ph, "device", json_integer((json_int_t)p->device));
		json_object_set_new(ph, "status", json_string(p->failed ? "failed" : "ok"));
		json_object_set_new(ph, "error", p->error ? json_string(p->error) : json_null());
		if (p->alloc_peak.has || p->alloc_end.has)
			json_object_set_new(ph, "allocated",
					    json_pack("{s:n,s:o,s:o}", "start", "peak",
						      S_opt_u64(p->alloc_peak.has, p->alloc_peak.v), "end",
						      S_opt_u64(p->alloc_end.has, p->alloc_end.v)));
		if (p->reserved_peak.has || p->reserved_end.has)
			json_object_set_new(ph, "reserved",
					    json_pack("{s:n,s:o,s:o}", "start", "peak",
						      S_opt_u64(p->reserved_peak.has, p->reserved_peak.v),
						      "end", S_opt_u64(p->reserved_end.has, p->reserved_end.v)));
		if (p->used_end.has)
			json_object_set_new(ph, "device_used",
					    json_pack("{s:n,s:I}", "start", "end", (json_int_t)p->used_end.v));
		json_array_append_new(phs, ph);
	}
	return phs;
}

/* import.settings: the log's, then what only a flag gives (stated, no line). */
static json_t *S_settings(const gs_logimport *li, const gs_logmeasure_flags *f)
{
	json_t *sets = json_array();
	size_t i;

	for (i = 0; i < li->nsettings; i++)
		json_array_append_new(sets, json_pack("{s:s,s:s,s:I,s:s}", "name", li->settings[i].name,
						      "value", li->settings[i].value, "line",
						      (json_int_t)li->settings[i].line, "text",
						      li->settings[i].text));
	if (f->model && !gs_logimport_setting(li, "model"))
		json_array_append_new(sets, json_pack("{s:s,s:s,s:n,s:n,s:s}", "name", "model",
						      "value", f->model, "line", "text", "stated",
						      "--model"));
	for (i = 0; i < f->nstated; i++)
		if (!gs_logimport_setting(li, f->stated[i].name))
			json_array_append_new(sets, json_pack("{s:s,s:s,s:n,s:n,s:s}", "name",
							      f->stated[i].name, "value",
							      f->stated[i].value, "line", "text",
							      "stated", "--setting"));
	return sets;
}

static json_t *S_figures(const gs_logimport *li)
{
	json_t *figs = json_array();
	size_t i;

	for (i = 0; i < li->nfigs; i++) {
		const gs_logfig *g = &li->figs[i];
		json_t *o = json_object();
		json_object_set_new(o, "name", json_string(g->name));
		json_object_set_new(o, "device", g->device >= 0 ? json_integer((json_int_t)g->device)
							       : json_null());
		json_object_set_new(o, "value", g->is_int ? json_integer((json_int_t)g->value)
							  : json_string(g->decimal));
		json_object_set_new(o, "unit", json_string(gs_logimport_unit_id(g->unit)));
		json_object_set_new(o, "as_written", json_string(g->as_written));
		json_object_set_new(o, "note", g->note ? json_string(g->note) : json_null());
		json_object_set_new(o, "estimate", json_boolean(g->estimate));
		json_object_set_new(o, "line", json_integer((json_int_t)g->line));
		json_object_set_new(o, "last_line", g->last_line > g->line
							    ? json_integer((json_int_t)g->last_line)
							    : json_null());
		json_object_set_new(o, "text", json_string(g->text));
		json_array_append_new(figs, o);
	}
	return figs;
}

/* import: where the figures come from, each with its line. */
static json_t *S_import(const gs_logimport *li, const gs_logmeasure_flags *f,
			const gs_logformat *fmt, const gs_logmeasure_archive *a)
{
	json_t *imp = json_object();

	json_object_set_new(imp, "from", json_string(fmt->id));
	json_object_set_new(imp, "source", json_string(f->source));
	json_object_set_new(imp, "log", json_pack("{s:s,s:s,s:I,s:I,s:s}", "name", gs_util_basename(f->log),
						  "sha256", a->sha256, "bytes", (json_int_t)a->bytes,
						  "lines", (json_int_t)li->nlines, "archived_as",
						  a->archived_as));
	json_object_set_new(imp, "engine", json_string(li->engine));
	json_object_set_new(imp, "version", li->version ? json_string(li->version) : json_null());
	json_object_set_new(imp, "version_line",
			    li->version_line ? json_integer((json_int_t)li->version_line) : json_null());
	json_object_set_new(imp, "start", json_integer(li->run));
	json_object_set_new(imp, "starts", json_integer((json_int_t)li->nruns));
	json_object_set_new(imp, "settings", S_settings(li, f));
	json_object_set_new(imp, "figures", S_figures(li));
	return imp;
}

char *gs_logmeasure_text(const gs_logimport *li, const gs_logmeasure_flags *f, json_t *dims,
			 const gs_logmeasure_archive *a)
{
	const gs_logformat *fmt = gs_logformat_of(li->kind);
	const gs_logsetting *ms = gs_logimport_setting(li, "model");
	const char *mn = ms ? ms->value : f->model;
	char *produced, *code, *t, *text = NULL;
	json_t *root = json_object();

	if (li->version && fmt->version_from)
		produced = gs_xasprintf("%s %s (%s)", li->engine, li->version, fmt->version_from);
	else if (li->version)
		produced = gs_xasprintf("%s %s", li->engine, li->version);
	else
		produced = gs_xstrdup(li->engine);
	code = mn ? gs_xasprintf("%s: %s", fmt->what, mn) : gs_xstrdup(fmt->what);
	json_object_set_new(root, "schema", json_string("gpusheet-measurement"));
	json_object_set_new(root, "schema_version", json_integer(1));
	json_object_set_new(root, "synthetic", json_false());
	json_object_set_new(root, "synthetic_note", json_null());
	json_object_set_new(root, "produced_by", json_string(produced));
	json_object_set_new(root, "identity", json_pack("{s:s}", "code", code));
	json_object_set_new(root, "dimensions", dims);
	json_object_set_new(root, "environment", S_environment(li, fmt));
	json_object_set_new(root, "protocol", json_pack("{s:s,s:n}", "process", fmt->process,
							"empty_cache"));
	json_object_set_new(root, "phases", S_phases(li));
	json_object_set_new(root, "import", S_import(li, f, fmt, a));
	t = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_ENSURE_ASCII);
	if (t)
		text = gs_xasprintf("%s\n", t);
	free(t);
	json_decref(root);
	free(produced);
	free(code);
	return text;
}
