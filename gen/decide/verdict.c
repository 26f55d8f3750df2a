/* verdict: classification of every offer, requirement by requirement. */
#include "verdict.h"
#include "cost.h"
#include "gpuname.h"
#include "hash.h"
#include "quantname.h"
#include "speed_offer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

const char *gs_verdict_id(gs_verdict_kind k)
{
	switch (k) {
	case GS_V_ADMISSIBLE: return "admissible";
	case GS_V_TO_CONFIRM: return "to_confirm";
	case GS_V_EXCLUDE: return "exclude";
	case GS_V_NOT_REQUIRED: break;
	}
	return "not_required";
}

const char *gs_verdict_req_id(gs_req r)
{
	static const char *const ids[GS_REQ_COUNT] = {
		"memory", "software", "calendar", "budget", "quality", "host", "regions", "speed"
	};
	return r < GS_REQ_COUNT ? ids[r] : "?";
}

int gs_verdict_offer_matches_device(const gs_offer *o, const char *device_name)
{
	const gs_gpu_nominal *e;
	gs_gpu_match how;
	const char *dev;

	if (gs_gpuname_same(o->gpu_model, o->device_name, device_name))
		return 1;
	/* "V100" with 16384 MiB per card is the V100 16GB: a device of that
	 * model speaks for it */
	if (!device_name || !(e = gs_verdict_offer_gpu(o)))
		return 0;
	dev = gs_gpuname_canonical(device_name, &how);
	return how == GS_GPU_KNOWN && strcmp(dev, e->model) == 0;
}

/* One name per numeric format: bf16 and bfloat16 are the same dtype. */
static const char *S_dtype_canon(const char *s)
{
	static const char *const alias[][2] = {
		{ "bf16", "bfloat16" }, { "fp16", "float16" }, { "half", "float16" },
		{ "fp32", "float32" }, { "float", "float32" }, { "fp64", "float64" },
		{ "double", "float64" }, { "fp8", "float8" },
	};
	size_t i;

	for (i = 0; i < sizeof(alias) / sizeof(alias[0]); i++)
		if (gs_util_eq_ci(s, alias[i][0]))
			return alias[i][1];
	return s;
}

int gs_verdict_measurement_covers(const gs_workload *w, const gs_measurement *m)
{
	const gs_kv *dt;
	size_t i;

	for (i = 0; i < w->ndims; i++) {
		const gs_kv *kv = gs_measurement_dim(m, w->dims[i].name);
		if (!kv || !kv->is_number || kv->number < w->dims[i].value)
			return 0;
	}
	dt = gs_measurement_dim(m, "dtype");
	if (dt && !dt->is_number &&
	    !gs_util_eq_ci(S_dtype_canon(dt->value), S_dtype_canon(w->compute_format)))
		return 0;
	return 1;
}

/*
 * A failure for lack of memory: an out-of-memory error, or one of vLLM's
 * KV cache errors (the cache cannot hold one sequence of max_model_len
 * tokens, or there is no memory left for it).
 */
static int S_is_oom(const char *err)
{
	return err && (gs_util_contains_ci(err, "out of memory") ||
		       gs_util_contains_ci(err, "cudaErrorMemoryAllocation") ||
		       gs_util_contains_ci(err, "hipErrorOutOfMemory") ||
		       gs_util_contains_ci(err, "that can be stored in KV cache") ||
		       gs_util_contains_ci(err, "KV cache is needed, which is larger than") ||
		       gs_util_contains_ci(err, "No available memory for the cache blocks"));
}

static const char *S_last(const char *s)
{
	const char *p = strrchr(s, '/');

	return p ? p + 1 : s;
}

int gs_verdict_model_same(const gs_workload *w, const char *name)
{
	const char *mine[2];
	size_t i;

	if (!name || !*name)
		return 0;
	mine[0] = w->model_repo;
	mine[1] = w->model_name;
	for (i = 0; i < 2; i++)
		if (mine[i] && (gs_util_eq_ci(mine[i], name) || gs_util_eq_ci(S_last(mine[i]), S_last(name))))
			return 1;
	return 0;
}

/* A setting the log printed or the import stated, else a dimension of that
 * name, or NULL; *stated: stated at import, not in the log. */
static const char *S_setting(const gs_measurement *m, const char *name, int *stated)
{
	const gs_msetting *st = gs_measurement_setting(m, name);
	const gs_kv *kv;

	if (stated)
		*stated = 0;
	if (st) {
		if (stated)
			*stated = st->stated;
		return st->value;
	}
	kv = gs_measurement_dim(m, name);
	return kv ? kv->value : NULL;
}

/* A whole number written in decimal, or 0 (none, not a number, too large). */
static uint64_t S_count(const char *s)
{
	uint64_t v;

	return gs_qty_parse_u64(s, &v) == 0 ? v : 0;
}

/* A decimal without leading zeros in its whole part and trailing zeros in
 * its fraction, in buf; -1 when s is not digits with at most one point. */
static int S_decimal_norm(const char *s, char *buf, size_t n)
{
	const char *dot, *end, *p;
	size_t k = 0;

	if (!s || !*s || strlen(s) >= n || strspn(s, "0123456789.") != strlen(s))
		return -1;
	dot = strchr(s, '.');
	if (dot && strchr(dot + 1, '.'))
		return -1;
	end = dot ? dot : s + strlen(s);
	for (p = s; p < end - 1 && *p == '0'; p++)
		;
	for (; p < end; p++)
		buf[k++] = *p;
	if (!k)
		buf[k++] = '0';
	if (dot) {
		const char *last = dot + strlen(dot) - 1;
		while (last > dot && *last == '0')
			last--;
		if (last > dot) {
			for (p = dot; p <= last; p++)
				buf[k++] = *p;
		}
	}
	buf[k] = '\0';
	return 0;
}

/* Two decimals equal in value ("0.9", "0.90"); 0 when either is missing. */
static int S_same_decimal(const char *a, const char *b)
{
	char x[64], y[64];

	return S_decimal_norm(a, x, sizeof(x)) == 0 && S_decimal_norm(b, y, sizeof(y)) == 0 &&
	       strcmp(x, y) == 0;
}

/* Settings that only choose which devices a process sees. */
static int S_device_selection(const char *name)
{
	return strcmp(name, "CUDA_VISIBLE_DEVICES") == 0 ||
	       strcmp(name, "HIP_VISIBLE_DEVICES") == 0 ||
	       strcmp(name, "ROCR_VISIBLE_DEVICES") == 0;
}

gs_comparable gs_verdict_failure_comparable(const gs_workload *w, const gs_measurement *m,
				    const char **what)
{
	const gs_phase *f = gs_measurement_failure(m);
	const char *wc;
	size_t i;

	*what = NULL;
	if (!f || !S_is_oom(f->error))
		return GS_CMP_NOT_OOM;
	/* An imported log speaks for the model it names, and only for it. */
	if (m->import_from) {
		const char *name = S_setting(m, "model", NULL);
		if (!gs_verdict_model_same(w, name)) {
			*what = name ? name : "model";
			return GS_CMP_MODEL;
		}
	}
	/* A vLLM start fails at its gpu_memory_utilization: a condition of the
	 * run, which the workload must state with the same value. */
	if (m->import_from && strcmp(m->import_from, "vllm") == 0) {
		*what = "gpu_memory_utilization";
		if (!S_same_decimal(S_setting(m, "gpu_memory_utilization", NULL),
				    gs_workload_condition(w, "gpu_memory_utilization")))
			return GS_CMP_CONDITION;
	}
	/* Every dimension the run recorded: known for the workload, no larger.
	 * A dimension the workload leaves out is never "anything goes". */
	for (i = 0; i < m->ndims; i++) {
		const gs_kv *kv = &m->dims[i];
		int found;
		uint64_t wv;
		*what = kv->name;
		if (!kv->is_number && strcmp(kv->name, "dtype") == 0) {
			if (!gs_util_eq_ci(S_dtype_canon(kv->value), S_dtype_canon(w->compute_format)))
				return GS_CMP_DTYPE;
			continue;
		}
		if (!kv->is_number)
			return GS_CMP_DIM_UNKNOWN;
		/* A placement, not a size: the same degree, or not comparable. */
		if (strcmp(kv->name, "tensor_parallel_size") == 0 ||
		    strcmp(kv->name, "pipeline_parallel_size") == 0) {
			uint64_t want = kv->name[0] == 't' && w->tensor_parallel ? w->tensor_parallel : 1;
			if (kv->number != want)
				return GS_CMP_CONDITION;
			continue;
		}
		wv = gs_workload_dim(w, kv->name, &found);
		if (!found)
			return GS_CMP_DIM_UNKNOWN;
		if (kv->number > wv)
			return GS_CMP_DIM_LARGER;
	}
	/* No condition the workload does not have. */
	for (i = 0; i < m->nconditions; i++) {
		*what = m->conditions[i].name;
		wc = gs_workload_condition(w, m->conditions[i].name);
		if (!wc || strcmp(wc, m->conditions[i].value) != 0)
			return GS_CMP_CONDITION;
	}
	for (i = 0; i < m->nallocator_settings; i++) {
		if (S_device_selection(m->allocator_settings[i].name))
			continue;
		*what = m->allocator_settings[i].name;
		wc = gs_workload_condition(w, m->allocator_settings[i].name);
		if (!wc || strcmp(wc, m->allocator_settings[i].value) != 0)
			return GS_CMP_CONDITION;
	}
	wc = gs_workload_condition(w, "allocator_backend");
	if (wc && (!m->allocator_backend || !gs_util_eq_ci(wc, m->allocator_backend))) {
		*what = "allocator_backend";
		return GS_CMP_CONDITION;
	}
	*what = NULL;
	return GS_CMP_COMPARABLE;
}

/* The largest known reading of a phase's allocator counters, or 0 (*any = 0). */
static uint64_t S_largest_reading(const gs_phase *p, int *any)
{
	const gs_opt_u64 *c[6];
	uint64_t best = 0;
	size_t i;

	c[0] = &p->reserved_start;
	c[1] = &p->reserved_end;
	c[2] = &p->alloc_start;
	c[3] = &p->alloc_peak;
	c[4] = &p->alloc_end;
	c[5] = &p->reserved_peak;
	*any = 0;
	for (i = 0; i < 6; i++)
		if (c[i]->has) {
			if (!*any || c[i]->v > best)
				best = c[i]->v;
			*any = 1;
		}
	return best;
}

void gs_verdict_measurement_need_of(const gs_measurement *m, gs_need *out)
{
	size_t i;
	int have = 0;
	uint64_t best = 0;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < m->nphases; i++) {
		const gs_phase *p = &m->phases[i];
		const char *missing = NULL;
		uint64_t v;
		int any;

		if (p->status == GS_PHASE_NOT_RUN)
			continue;
		if (p->reserved_peak.has) {
			v = p->reserved_peak.v;
		} else {
			/* Never drop a phase whose other readings are known. */
			v = S_largest_reading(p, &any);
			missing = "reserved.peak";
			if (!any) {
				if (!out->missing_counter) {
					out->missing_counter = missing;
					out->missing_phase = p->name;
				}
				out->lower_bound = 1;
				continue;
			}
		}
		/* Outside the allocator: only from two readings of one checkpoint;
		 * not read is missing, never 0. */
		if (p->used_end.has && p->reserved_end.has) {
			if (p->used_end.v > p->reserved_end.v &&
			    gs_qty_add_u64(v, p->used_end.v - p->reserved_end.v, &v))
				v = UINT64_MAX;
		} else if (!missing) {
			missing = p->used_end.has ? "reserved.end" : "device_used";
		}
		if (missing) {
			out->lower_bound = 1;
			if (!out->missing_counter) {
				out->missing_counter = missing;
				out->missing_phase = p->name;
			}
		}
		if (!have || v > best) {
			best = v;
			out->device = p->device;
		}
		have = 1;
	}
	if (!have) {
		out->q = gs_qty_missing();
		return;
	}
	out->q = m->synthetic ? gs_qty_synthetic(best) : gs_qty_make(best, GS_PROV_OBSERVED);
}

gs_qty gs_verdict_measurement_need(const gs_measurement *m, uint64_t *device)
{
	gs_need n;

	gs_verdict_measurement_need_of(m, &n);
	if (device)
		*device = n.device;
	return n.q;
}

const char *gs_verdict_phase_orientation(const char *phase)
{
	static const char *const loading[] = { "model_load", "load", "loading", "weights", NULL };
	static const char *const generation[] = {
		"inputs", "cold_forward", "warmup", "warm_forward", "forward", "prefill",
		"decode", "generate", "generation", NULL
	};
	static const char *const backward[] = {
		"backward", "optimizer", "optimizer_step", "update", "second_update",
		"train_step", NULL
	};
	size_t i;

	if (!phase)
		return NULL;
	for (i = 0; loading[i]; i++)
		if (gs_util_eq_ci(phase, loading[i]))
			return "orient.loading";
	for (i = 0; generation[i]; i++)
		if (gs_util_eq_ci(phase, generation[i]))
			return "orient.generation";
	for (i = 0; backward[i]; i++)
		if (gs_util_eq_ci(phase, backward[i]))
			return "orient.backward";
	return "orient.unknown";
}

static const gs_device *S_device(const gs_measurement *m, uint64_t index)
{
	size_t i;

	for (i = 0; i < m->ndevices; i++)
		if (m->devices[i].index == index)
			return &m->devices[i];
	return m->ndevices ? &m->devices[0] : NULL;
}

/* Number of distinct devices the phases of a measurement ran on. */
static size_t S_devices_used(const gs_measurement *m)
{
	return m->ndevices ? m->ndevices : 1;
}

/* Did the run use a device of this offer's GPU model? */
static int S_same_model(const gs_offer *o, const gs_measurement *m)
{
	size_t k;

	for (k = 0; k < m->ndevices; k++)
		if (gs_verdict_offer_matches_device(o, m->devices[k].name))
			return 1;
	return 0;
}

static gs_verdict S_v(gs_verdict_kind k, const char *why)
{
	gs_verdict v;

	memset(&v, 0, sizeof(v));
	v.kind = k;
	v.why = why;
	v.a = gs_qty_missing();
	v.b = gs_qty_missing();
	v.w = gs_qty_missing();
	v.kv = gs_qty_missing();
	v.r = gs_qty_missing();
	return v;
}

/* Classification context: what one offer is checked against. */
typedef struct {
	const gs_workload *w;
	const gs_sizing *s;
	const gs_evidence *ev;
	size_t nev;
	int accept_synthetic;
} S_in;

/* A documented multi-card placement: a text, or a tensor-parallel degree. */
static int S_placed(const gs_workload *w)
{
	return w->placement != NULL || w->tensor_parallel > 1 ||
	       (w->recipe.present && w->recipe.cards > 1);
}

/* May this measurement decide a verdict? */
static int S_usable(const S_in *in, const gs_measurement *m)
{
	return !m->synthetic || in->accept_synthetic;
}

/* Notes that a synthetic file about this offer's GPU model was set aside. */
static void S_note_synthetic(const S_in *in, const gs_offer *o, gs_verdict *v)
{
	size_t i;

	if (v->note || in->accept_synthetic)
		return;
	for (i = 0; i < in->nev; i++)
		if (in->ev[i].m->synthetic && S_same_model(o, in->ev[i].m)) {
			v->note = "note.synthetic_only";
			v->n1 = in->ev[i].ref->file;
			return;
		}
}

/*** memory ***/

gs_qty gs_verdict_margin_prov(gs_qty need, gs_qty capacity)
{
	gs_qty q = gs_qty_make(0, gs_qty_prov_weakest(need.present ? need.prov : GS_PROV_ASSUMED,
						  capacity.present ? capacity.prov : GS_PROV_ASSUMED));

	q.synthetic = need.synthetic || capacity.synthetic;
	q.present = need.present && capacity.present;
	return q;
}

/* capacity - need as a signed count of bytes, saturated at the int64 range. */
static int64_t S_margin(uint64_t capacity, uint64_t need)
{
	uint64_t d;

	if (capacity >= need) {
		d = capacity - need;
		return d > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)d;
	}
	d = need - capacity;
	return d > (uint64_t)INT64_MAX ? INT64_MIN : -(int64_t)d;
}

/*
 * The nominal figure per card read in decimal GB: the vendor's GB x 10^9
 * for a card the vendor table knows; else the catalog's nominal GB x 10^9,
 * or a provider's MiB figure read as that many 1/1024 GB (49152 MiB: 48 GB,
 * 48 x 10^9 B): a provider's claim is a nominal figure, whatever its unit.
 */
static uint64_t S_decimal(const gs_offer *o, const gs_gpu_nominal *e)
{
	if (e)
		return (uint64_t)e->gb * UINT64_C(1000000000);
	if (o->mib_text) {
		/* MiB x 2^20 -> MiB / 1024 x 10^9, exactly in 128 bits, rounded down */
		unsigned __int128 d = (unsigned __int128)(o->nominal_bytes >> 20) * 1000000000u / 1024u;
		return d > UINT64_MAX ? UINT64_MAX : (uint64_t)d;
	}
	return o->nominal_bytes;
}

const gs_gpu_nominal *gs_verdict_offer_gpu(const gs_offer *o)
{
	return gs_gpuname_resolve(o->gpu_model, o->device_name,
				  o->memory_unknown ? 0 : o->nominal_bytes);
}

/*
 * Capacity per card (docs/formats.md, 2.3): the total a cited measurement
 * read on this GPU model (observed); else the total devices of this model
 * report to the CUDA runtime, from the vendor table (reported, cited); else
 * the nominal figure in decimal GB. A device-declared figure of the catalog
 * lowers it, never raises it: a provider's claim is never a capacity above
 * the reported total or the decimal reading. Every offer of one GPU model
 * gets the same capacity in a sheet.
 */
static void S_capacity(const S_in *in, gs_candidate *c)
{
	const gs_offer *o = c->offer;
	const gs_gpu_nominal *e = gs_verdict_offer_gpu(o);
	size_t i, k;

	c->gpu = e;
	c->capacity = gs_qty_make(S_decimal(o, e), GS_PROV_ASSUMED);
	c->cap_source = GS_CAP_NOMINAL;
	if (e && e->reported_bytes) {
		c->capacity = gs_qty_make(e->reported_bytes, GS_PROV_ASSUMED);
		c->cap_source = GS_CAP_REPORTED;
	}
	if (o->has_declared_bytes && o->declared_bytes < c->capacity.bytes) {
		c->capacity = gs_qty_make(o->declared_bytes, GS_PROV_ASSUMED);
		c->cap_source = GS_CAP_DECLARED;
	}
	for (i = 0; i < in->nev; i++) {
		const gs_measurement *m = in->ev[i].m;
		if (!S_usable(in, m))
			continue;
		for (k = 0; k < m->ndevices; k++)
			if (m->devices[k].total_bytes.has &&
			    gs_verdict_offer_matches_device(o, m->devices[k].name)) {
				uint64_t t = m->devices[k].total_bytes.v;
				c->capacity = m->synthetic ? gs_qty_synthetic(t)
							   : gs_qty_make(t, GS_PROV_OBSERVED);
				c->cap_source = GS_CAP_OBSERVED;
				c->cap_from = &in->ev[i];
			}
	}
}

/* A verdict resting on an imported log says who reported it. */
static void S_reported_by(const gs_measurement *m, gs_verdict *v)
{
	if (m->import_source && !v->note) {
		v->note = "note.reported_by";
		v->n1 = m->import_source;
	}
}

static const char *const S_cmp_notes[] = {
	NULL, "note.failure_not_oom", "note.failure_dim_unknown", "note.failure_dim_larger",
	"note.failure_dtype", "note.failure_condition", "note.failure_model"
};

/*
 * A comparable observed failure excludes when it happened on this GPU model,
 * or on a card whose free memory at the run's start was at least this
 * offer's capacity per card. Returns 1 with c's memory verdict set; else 0,
 * with *note set to why the first failure does not decide.
 */
static int S_failures(const S_in *in, gs_candidate *c, gs_verdict *note)
{
	const gs_offer *o = c->offer;
	size_t i;

	for (i = 0; i < in->nev; i++) {
		const gs_measurement *m = in->ev[i].m;
		const gs_phase *f = gs_measurement_failure(m);
		const gs_device *dev;
		const char *what;
		gs_comparable cmp;
		int same, roomy, relevant;

		if (!f || !S_usable(in, m))
			continue;
		dev = S_device(m, f->device);
		if (!dev)
			continue;
		same = gs_verdict_offer_matches_device(o, dev->name);
		roomy = dev->free_bytes.has && dev->free_bytes.v >= c->capacity.bytes;
		/* Notes only where the failure could speak for this offer: the
		 * same GPU model, or a card at least as large. */
		relevant = same || roomy ||
			   (dev->total_bytes.has && dev->total_bytes.v >= c->capacity.bytes);
		cmp = gs_verdict_failure_comparable(in->w, m, &what);
		if (cmp != GS_CMP_COMPARABLE) {
			if (!note->note && relevant) {
				note->note = S_cmp_notes[cmp];
				note->n1 = in->ev[i].ref->file;
				note->n2 = what;
				note->n3 = f->name;
			}
			continue;
		}
		/* A documented placement spreads the work over the lot's cards:
		 * a failure on fewer cards than the lot holds does not exclude it. */
		if (o->cards > 1 && S_placed(in->w) && S_devices_used(m) < o->cards) {
			if (!note->note && relevant) {
				note->note = "note.failure_fewer_cards";
				note->n1 = in->ev[i].ref->file;
			}
			continue;
		}
		if (!same && !roomy) {
			if (!note->note && relevant) {
				note->note = dev->free_bytes.has ? "note.failure_other_gpu"
								 : "note.failure_other_gpu_free_unknown";
				note->n1 = in->ev[i].ref->file;
				note->n2 = dev->name;
			}
			continue;
		}
		{
			gs_verdict v = S_v(GS_V_EXCLUDE, same ? "why.memory.observed_failure"
							     : "why.memory.observed_failure_free");
			v.basis = GS_BASIS_OBSERVED_FAILURE;
			v.s1 = f->name;
			v.s2 = dev->name;
			if (same)
				v.a = dev->total_bytes.has
					      ? (m->synthetic ? gs_qty_synthetic(dev->total_bytes.v)
							      : gs_qty_make(dev->total_bytes.v, GS_PROV_OBSERVED))
					      : gs_qty_missing();
			else
				v.a = m->synthetic ? gs_qty_synthetic(dev->free_bytes.v)
						   : gs_qty_make(dev->free_bytes.v, GS_PROV_OBSERVED);
			v.b = c->capacity;
			v.evidence = in->ev[i].ref->file;
			v.evidence_date = m->date;
			v.orientation = gs_verdict_phase_orientation(f->name);
			v.synthetic = m->synthetic;
			S_reported_by(m, &v);
			c->v[GS_REQ_MEMORY] = v;
			c->need = gs_qty_missing();
			return 1;
		}
	}
	return 0;
}

/*
 * The upper bound of what one card can hold: the device's total where a
 * measurement read it on this GPU model (the capacity is then observed),
 * else the nominal figure read in GiB (N GB -> N x 2^30 B; a MiB figure is
 * already binary), or the declared bytes when larger. No card we know
 * reports more than its nominal figure in GiB (docs/formats.md).
 */
static void S_upper(gs_candidate *c)
{
	const gs_offer *o = c->offer;
	uint64_t u;

	if (!c->capacity.present) {
		c->upper = gs_qty_missing();
		return;
	}
	if (c->cap_source == GS_CAP_OBSERVED) {
		c->upper = c->capacity;
		return;
	}
	if (c->gpu) {
		u = (uint64_t)c->gpu->gb << 30;
	} else if (o->mib_text) {
		u = o->nominal_bytes;
	} else {
		/* GB x 10^9 -> GB x 2^30, rounded up, exactly in 128 bits */
		unsigned __int128 g = ((unsigned __int128)o->nominal_bytes << 30) + 999999999u;
		g /= 1000000000u;
		u = g > UINT64_MAX ? UINT64_MAX : (uint64_t)g;
	}
	if (o->has_declared_bytes && o->declared_bytes > u)
		u = o->declared_bytes;
	if (c->capacity.bytes > u)
		u = c->capacity.bytes;
	c->upper = gs_qty_make(u, GS_PROV_ASSUMED);
	c->upper.synthetic = c->capacity.synthetic;
}

/* ceil(a / n), n > 0 */
static uint64_t S_ceil_div(uint64_t a, uint64_t n)
{
	return a / n + (a % n != 0);
}

/* How many cards the need per card is split over: a declared tensor-parallel
 * degree, at most the lot's cards; 1 otherwise. */
static uint64_t S_split(const S_in *in, const gs_offer *o)
{
	uint64_t tp = in->w->tensor_parallel;

	if (tp <= 1 || o->cards <= 1)
		return 1;
	return tp < o->cards ? tp : o->cards;
}

/*
 * The weights tensor parallelism replicates on every card: those the
 * checkpoint's tensor headers give (calculated), or, unless calc_only,
 * the workload's declared figure (assumed); at most the weights. Missing
 * when not known.
 */
static gs_qty S_replicated(const S_in *in, int calc_only)
{
	const gs_workload *w = in->w;
	gs_qty r;

	if (!w->has_tp_replicated || (calc_only && !w->tp_replicated_calculated))
		return gs_qty_missing();
	r = gs_qty_make(w->tp_replicated_bytes, w->tp_replicated_calculated ? GS_PROV_CALCULATED
									    : GS_PROV_ASSUMED);
	if (r.bytes > in->s->weights.bytes)
		r.bytes = in->s->weights.bytes;
	return r;
}

/*
 * The terms per card over a split of n cards: the weights / n, or, the
 * replicated part r known (S_replicated), (weights - r) / n + r, rounded
 * up; the KV cache / n when the KV heads divide by n (replicated
 * otherwise). calc_only: a declared r is left out, so that the terms stay
 * calculated (the lower bound); the need counts it.
 */
static void S_terms_r(const S_in *in, uint64_t n, int calc_only, gs_qty *w, gs_qty *kv,
		      gs_qty *rep)
{
	const gs_sizing *s = in->s;
	gs_qty r = gs_qty_missing();

	*w = s->weights;
	*kv = s->kv;
	if (n > 1 && s->weights.present)
		r = S_replicated(in, calc_only);
	if (rep)
		*rep = r;
	if (n <= 1)
		return;
	if (r.present) {
		/* (W - r) / n + r <= W: no overflow */
		w->bytes = S_ceil_div(s->weights.bytes - r.bytes, n) + r.bytes;
		w->prov = gs_qty_prov_weakest(w->prov, r.prov);
	} else {
		w->bytes = S_ceil_div(s->weights.bytes, n);
	}
	if (kv->present && gs_sizing_kv_splits(in->w, s, n))
		kv->bytes = S_ceil_div(s->kv.bytes, n);
}

/* The calculated terms per card (the lower bound's). */
static void S_terms(const S_in *in, uint64_t n, gs_qty *w, gs_qty *kv)
{
	S_terms_r(in, n, 1, w, kv, NULL);
}

/* The calculated lower bound per card (weights + KV cache, calculated terms
 * only: the assumed reserve and declared components never enter it). */
static void S_lower(const S_in *in, gs_candidate *c)
{
	gs_qty w, kv;

	c->split = S_split(in, c->offer);
	if (in->s->has_train) {
		/* a training recipe: its calculated items per card (training.h) */
		const gs_training *t = &in->s->train;
		uint64_t sum = 0;
		size_t k;
		for (k = 0; k < GS_TI_COUNT; k++)
			if (t->items[k].prov == GS_PROV_CALCULATED &&
			    gs_qty_add_u64(sum, t->items[k].per_card, &sum))
				sum = UINT64_MAX;
		c->lower = gs_qty_make(sum, GS_PROV_CALCULATED);
		return;
	}
	S_terms(in, c->split, &w, &kv);
	c->lower = w;
	if (kv.present && gs_qty_add_u64(c->lower.bytes, kv.bytes, &c->lower.bytes))
		c->lower.bytes = UINT64_MAX;
}

/*
 * Calculated certainty: the lower bound per card above the upper bound of
 * the card, no offloading declared. Without a declared placement, a lot of
 * several cards is excluded only when even the best possible split (the
 * lower bound divided by its cards) does not fit.
 */
static int S_certainty(const S_in *in, gs_candidate *c)
{
	const gs_offer *o = c->offer;
	uint64_t n = c->split, bound;
	const char *why;
	gs_qty w, kv, r = gs_qty_missing();
	gs_verdict v;

	if (o->cards > 1 && n == 1 && !in->s->has_train) {
		uint64_t total = in->s->weights.bytes;
		if (in->s->kv.present && gs_qty_add_u64(total, in->s->kv.bytes, &total))
			total = UINT64_MAX;
		n = o->cards;
		bound = S_ceil_div(total, n);
		w = in->s->weights;
		kv = in->s->kv;
		why = "why.memory.lower_exceeds_lot";
	} else {
		bound = c->lower.bytes;
		S_terms_r(in, n, 1, &w, &kv, &r);
		why = in->s->has_train ? "why.memory.lower_exceeds_recipe"
		      : n <= 1 ? "why.memory.lower_exceeds_card"
		      : r.present ? "why.memory.lower_exceeds_split_replicated"
				  : "why.memory.lower_exceeds_split";
	}
	if (bound <= c->upper.bytes)
		return 0;
	v = S_v(GS_V_EXCLUDE, why);
	v.basis = GS_BASIS_CALCULATED_CERTAINTY;
	v.a = gs_qty_make(bound, GS_PROV_CALCULATED);
	v.b = c->upper;
	v.w = w;
	v.kv = kv;
	v.r = r;
	v.split = n > 1 ? n : 0;
	v.synthetic = c->upper.synthetic;
	c->v[GS_REQ_MEMORY] = v;
	c->need = c->lower;
	return 1;
}

static gs_qty S_need_per_card(const S_in *in, const gs_candidate *c);
static uint64_t S_step_adjust(const gs_candidate *c, uint64_t bytes);

/*** an imported vLLM KV capacity (docs/formats.md §4.1) ***/

/* Bytes per value of a numeric format, 0: unknown. */
static unsigned S_dtype_bytes(const char *d)
{
	const char *c;

	if (!d)
		return 0;
	if (strncmp(d, "fp8", 3) == 0 || strncmp(d, "float8", 6) == 0)
		return 1;
	c = S_dtype_canon(d);
	if (gs_util_eq_ci(c, "bfloat16") || gs_util_eq_ci(c, "float16"))
		return 2;
	if (gs_util_eq_ci(c, "float32"))
		return 4;
	return 0;
}

unsigned gs_verdict_kv_dtype_bytes(const char *kv_cache_dtype, const char *model_dtype)
{
	if (!kv_cache_dtype)
		return 0;
	/* vLLM's "auto": the cache in the model's dtype */
	if (gs_util_eq_ci(kv_cache_dtype, "auto"))
		return S_dtype_bytes(model_dtype);
	return S_dtype_bytes(kv_cache_dtype);
}

gs_kvcap_cmp gs_verdict_kv_capacity_comparable(const gs_workload *w, const gs_sizing *s,
				       const gs_measurement *m, const char **what)
{
	const char *dt, *q;
	uint64_t tp, pp, len;

	*what = NULL;
	if (!m->import_from || strcmp(m->import_from, "vllm") != 0 ||
	    gs_verdict_kv_capacity_of(m, NULL, NULL) != 0)
		return GS_KVC_NO_CAPACITY;
	if (!s->kv.present || !s->kv_tokens_kept || !s->kv_sequences)
		return GS_KVC_NO_CACHE;
	*what = "model";
	if (!gs_verdict_model_same(w, S_setting(m, "model", NULL)))
		return GS_KVC_MODEL;
	*what = "dtype";
	dt = S_setting(m, "dtype", NULL);
	if (!dt || !gs_util_eq_ci(S_dtype_canon(dt), S_dtype_canon(w->compute_format)))
		return GS_KVC_FORMAT;
	/* the weights' storage: the quantization the log names, else the
	 * dtype itself (an unquantized checkpoint) */
	*what = "quantization";
	q = S_setting(m, "quantization", NULL);
	if (q && !gs_util_eq_ci(q, "none")) {
		/* awq_marlin is AWQ, fp8 is FP8 (quantname.h): the family and bits
		 * agree, or the workload's format names the engine's word itself */
		int same = gs_quantname_matches(q, w->storage_format);
		if (same == 0 || (same < 0 && !gs_util_contains_ci(w->storage_format, q)))
			return GS_KVC_FORMAT;
	} else if (!gs_util_eq_ci(S_dtype_canon(w->storage_format), S_dtype_canon(dt))) {
		return GS_KVC_FORMAT;
	}
	*what = "kv_cache_dtype";
	/* a block type (q8_0, q4_0: 0 B per value here) is no vLLM cache */
	if (w->cache_block_values > 1 ||
	    gs_verdict_kv_dtype_bytes(S_setting(m, "kv_cache_dtype", NULL), dt) !=
	    w->cache_bytes_per_value)
		return GS_KVC_KV_DTYPE;
	*what = "tensor_parallel_size";
	tp = S_count(S_setting(m, "tensor_parallel_size", NULL));
	if (!tp || tp != (w->tensor_parallel ? w->tensor_parallel : 1))
		return GS_KVC_PARALLEL;
	*what = "pipeline_parallel_size";
	pp = S_count(S_setting(m, "pipeline_parallel_size", NULL));
	if (pp > 1)
		return GS_KVC_PARALLEL;
	/* the profile that left this capacity ran at max_model_len: a longer
	 * sequence changes it */
	*what = "max_model_len";
	len = S_count(S_setting(m, "max_model_len", NULL));
	if (!len || s->kv_tokens_kept > len)
		return GS_KVC_CONTEXT;
	*what = "gpu_memory_utilization";
	if (S_decimal_norm(S_setting(m, "gpu_memory_utilization", NULL), (char[64]){ 0 }, 64) != 0)
		return GS_KVC_SETTING_UNKNOWN;
	*what = NULL;
	return GS_KVC_COMPARABLE;
}

/* The device a figure was read on, by its index, or NULL. */
static const gs_device *S_device_exact(const gs_measurement *m, int64_t index)
{
	size_t i;

	for (i = 0; index >= 0 && i < m->ndevices; i++)
		if (m->devices[i].index == (uint64_t)index)
			return &m->devices[i];
	return NULL;
}

int gs_verdict_kv_capacity_of(const gs_measurement *m, const gs_offer *o, gs_kvcap *out)
{
	const gs_mfigure *best = NULL;
	size_t i;

	for (i = 0; i < m->nimport_figures; i++) {
		const gs_mfigure *f = &m->import_figures[i];
		const gs_device *d;
		/* an engine's own estimate is never an observation */
		if (strcmp(f->name, "kv_cache_tokens") != 0 || f->estimate || !f->is_int ||
		    f->value <= 0 || f->device < 0)
			continue;
		d = S_device_exact(m, f->device);
		if (!d || (o && !gs_verdict_offer_matches_device(o, d->name)))
			continue;
		if (!best || f->value < best->value)
			best = f;
	}
	if (!best)
		return -1;
	if (out) {
		memset(out, 0, sizeof(*out));
		out->tokens = (uint64_t)best->value;
		out->device = best->device;
		out->utilization = S_setting(m, "gpu_memory_utilization", &out->utilization_stated);
	}
	return 0;
}

/* Half a unit of the last digit printed ("3.81GiB": 0.005 GiB), in bytes,
 * rounded up; UINT64_MAX when the precision cannot be read. */
static uint64_t S_half_unit(const char *as_written)
{
	const char *p = as_written, *dot = NULL;
	unsigned __int128 unit, den = 1;
	size_t decimals = 0;

	if (!p)
		return UINT64_MAX;
	for (; (*p >= '0' && *p <= '9') || *p == '.' || *p == ','; p++)
		if (*p == '.')
			dot = p;
		else if (dot && *p != ',')
			decimals++;
	while (*p == ' ')
		p++;
	/* vLLM V0's "GB" are GiB; read as GiB here (the larger half-unit) */
	if (strncmp(p, "GiB", 3) == 0 || strncmp(p, "GB", 2) == 0)
		unit = (unsigned __int128)1 << 30;
	else if (strncmp(p, "MiB", 3) == 0 || strncmp(p, "MB", 2) == 0)
		unit = (unsigned __int128)1 << 20;
	else if (strncmp(p, "KiB", 3) == 0)
		unit = 1024;
	else
		return UINT64_MAX;
	if (decimals > 18)
		return UINT64_MAX;
	while (decimals--)
		den *= 10;
	return (uint64_t)((unit * 5 + den * 10 - 1) / (den * 10));
}

/* A size figure of that name on that device, observed, or NULL. */
static const gs_mfigure *S_size_fig(const gs_measurement *m, const char *name, int64_t device)
{
	const gs_mfigure *f = gs_measurement_figure(m, name, device);

	return f && f->is_int && !f->estimate && f->value >= 0 && f->unit &&
		       strcmp(f->unit, "bytes") == 0 ? f : NULL;
}

void gs_verdict_kv_capacity_full(const gs_measurement *m, uint64_t bytes_per_token, gs_kvcap *cap)
{
	const gs_mfigure *kv = S_size_fig(m, "kv_cache_memory", cap->device);
	const gs_mfigure *tf = S_size_fig(m, "total_gpu_memory", cap->device);
	const gs_device *d = S_device_exact(m, cap->device);
	uint64_t total, num = 0, den, h_kv, h_t;
	unsigned __int128 rest, rest_up, full, up;
	char u[64];

	cap->has_full = 0;
	if (!tf)
		tf = S_size_fig(m, "device_total", cap->device);
	if (!kv) {
		cap->full_missing = "kv_cache_memory";
		return;
	}
	if (d && d->total_bytes.has)
		total = d->total_bytes.v;
	else if (tf)
		total = (uint64_t)tf->value;
	else {
		cap->full_missing = "total_gpu_memory";
		return;
	}
	if (S_decimal_norm(cap->utilization, u, sizeof(u)) != 0 || !bytes_per_token) {
		cap->full_missing = "gpu_memory_utilization";
		return;
	}
	/* u = num / 10^18 exactly (more decimals, or beyond 1: not a utilization) */
	den = UINT64_C(1000000000000000000);
	if (gs_qty_parse_decimal(u, 18, &num) != 0 || num > den) {
		cap->full_missing = "gpu_memory_utilization";
		return;
	}
	h_kv = S_half_unit(kv->as_written);
	h_t = tf ? S_half_unit(tf->as_written) : UINT64_MAX;
	/* the non-KV terms (u x total - KV memory) do not grow with u:
	 * at 1.0 the cache also gets (1 - u) x total */
	rest = (unsigned __int128)total * (den - num) / den;
	full = rest + (uint64_t)kv->value;
	cap->full_kv_bytes = full > UINT64_MAX ? UINT64_MAX : (uint64_t)full;
	cap->full_tokens = (uint64_t)(full / bytes_per_token);
	if (h_kv == UINT64_MAX || h_t == UINT64_MAX) {
		cap->full_tokens_upper = UINT64_MAX;   /* never an exclusion */
	} else {
		rest_up = ((unsigned __int128)total + h_t) * (den - num);
		rest_up = (rest_up + den - 1) / den;
		up = rest_up + (uint64_t)kv->value + h_kv;
		up /= bytes_per_token;
		cap->full_tokens_upper = up > UINT64_MAX ? UINT64_MAX : (uint64_t)up;
	}
	cap->has_full = 1;
}

uint64_t gs_verdict_kv_need_tokens(const gs_sizing *s, uint64_t block_size)
{
	uint64_t per = s->kv_tokens_kept, n;

	if (block_size && per % block_size)
		per += block_size - per % block_size;
	return gs_qty_mul_u64(per, s->kv_sequences, &n) ? UINT64_MAX : n;
}

static const char *const S_kvc_notes[] = {
	NULL, NULL, NULL, "note.kvcap_setting_unknown", "note.kvcap_model", "note.kvcap_format",
	"note.kvcap_kv_dtype", "note.kvcap_parallel", "note.kvcap_context"
};

/* The first setting the rule rests on that only the import states, or NULL. */
static const char *S_kv_stated(const gs_measurement *m)
{
	static const char *const used[] = {
		"model", "gpu_memory_utilization", "kv_cache_dtype", "tensor_parallel_size",
		"quantization", "block_size", NULL
	};
	size_t i;

	for (i = 0; used[i]; i++) {
		const gs_msetting *st = gs_measurement_setting(m, used[i]);
		if (st && st->stated)
			return used[i];
	}
	return NULL;
}

/*
 * An imported vLLM start on this GPU model, comparable with the workload:
 * its KV capacity in tokens at its gpu_memory_utilization decides memory.
 * Returns 1 with the verdict set; else 0, with *note set to why the first
 * capacity on this GPU model does not decide.
 */
static int S_kv_capacity(const S_in *in, gs_candidate *c, gs_verdict *note)
{
	const gs_evidence *best = NULL;
	gs_kvcap cap, bc;
	uint64_t need, per_token, tp = in->w->tensor_parallel ? in->w->tensor_parallel : 1;
	gs_verdict v;
	size_t i;

	memset(&bc, 0, sizeof(bc));
	for (i = 0; i < in->nev; i++) {
		const gs_measurement *m = in->ev[i].m;
		const char *what;
		gs_kvcap_cmp cmp;

		if (!S_usable(in, m) || gs_verdict_kv_capacity_of(m, c->offer, &cap) != 0)
			continue;
		cmp = gs_verdict_kv_capacity_comparable(in->w, in->s, m, &what);
		if (cmp == GS_KVC_COMPARABLE && c->offer->cards < tp) {
			cmp = GS_KVC_PARALLEL;
			what = "tensor_parallel_size";
		}
		if (cmp != GS_KVC_COMPARABLE) {
			if (!note->note && S_kvc_notes[cmp]) {
				note->note = S_kvc_notes[cmp];
				note->n1 = in->ev[i].ref->file;
				note->n2 = what;
			}
			continue;
		}
		if (!best || cap.tokens > bc.tokens) {
			best = &in->ev[i];
			bc = cap;
		}
	}
	if (!best)
		return 0;
	need = gs_verdict_kv_need_tokens(in->s, S_count(S_setting(best->m, "block_size", NULL)));
	c->need = S_need_per_card(in, c);
	c->margin = S_margin(c->capacity.bytes, c->need.bytes);
	c->has_margin = 1;
	if (need <= bc.tokens) {
		v = S_v(GS_V_ADMISSIBLE, "why.memory.kv_capacity_fits");
	} else {
		/* KV bytes of one token of every sequence's cache, per rank */
		per_token = in->s->kv.bytes / in->s->kv_tokens_kept / in->s->kv_sequences;
		if (tp > 1 && in->w->kv_heads && in->w->kv_heads % tp == 0)
			per_token = S_ceil_div(per_token, tp);
		gs_verdict_kv_capacity_full(best->m, per_token, &bc);
		if (!bc.has_full) {
			v = S_v(GS_V_TO_CONFIRM, "why.memory.kv_capacity_above_full_unknown");
			v.n3 = bc.full_missing;
			v.missing = "missing.kv_capacity";
		} else if (need > bc.full_tokens_upper) {
			v = S_v(GS_V_EXCLUDE, "why.memory.kv_capacity_short_at_full");
			v.basis = GS_BASIS_CALCULATED_CERTAINTY;
		} else {
			v = S_v(GS_V_TO_CONFIRM, "why.memory.kv_capacity_above");
			v.missing = "missing.kv_capacity";
		}
		if (bc.has_full) {
			v.t3 = bc.full_tokens;
			v.b = gs_qty_make(bc.full_kv_bytes, GS_PROV_CALCULATED);
		}
	}
	v.t1 = need;
	v.t2 = bc.tokens;
	v.has_tokens = 1;
	v.s1 = bc.utilization;
	v.s2 = best->m->import_source;
	v.a = c->need;
	v.margin = c->margin;
	v.has_margin = 1;
	v.evidence = best->ref->file;
	v.evidence_date = best->m->date;
	if (S_kv_stated(best->m)) {
		v.note = "note.kvcap_stated";
		v.n1 = best->ref->file;
		v.n2 = S_kv_stated(best->m);
	}
	c->v[GS_REQ_MEMORY] = v;
	return 1;
}

/*
 * The largest successful run covering the required dimensions on this GPU
 * model gives the observed need. Returns 1 with the verdict set.
 */
static int S_observed(const S_in *in, gs_candidate *c)
{
	const gs_offer *o = c->offer;
	const gs_evidence *best = NULL;
	gs_need obs, n;
	gs_verdict v;
	size_t i;

	memset(&obs, 0, sizeof(obs));
	for (i = 0; i < in->nev; i++) {
		const gs_measurement *m = in->ev[i].m;

		if (!S_usable(in, m) || !gs_measurement_ok(m) || !gs_verdict_measurement_covers(in->w, m))
			continue;
		if (!S_same_model(o, m) || S_devices_used(m) > o->cards)
			continue;
		gs_verdict_measurement_need_of(m, &n);
		if (n.q.present && (!obs.q.present || n.q.bytes > obs.q.bytes)) {
			obs = n;
			best = &in->ev[i];
		}
	}
	if (!best)
		return 0;
	c->need = obs.q;
	c->need_from = best;
	c->margin = S_margin(c->capacity.bytes, obs.q.bytes);
	c->has_margin = 1;
	if (S_devices_used(best->m) > 1 && !S_placed(in->w)) {
		v = S_v(GS_V_TO_CONFIRM, "why.memory.multi_card_no_placement");
		v.missing = "missing.placement";
	} else if (obs.lower_bound) {
		/* A counter is missing: the need is at least this, never a proof. */
		v = S_v(GS_V_TO_CONFIRM, "why.memory.observed_lower_bound");
		v.s1 = obs.missing_counter;
		v.s2 = obs.missing_phase;
		v.lower_bound = 1;
		v.margin = c->margin;
		v.has_margin = 1;
		v.missing = "missing.counters";
	} else if (obs.q.bytes <= c->capacity.bytes) {
		v = S_v(GS_V_ADMISSIBLE, "why.memory.observed_fits");
		v.margin = c->margin;
		v.has_margin = 1;
	} else {
		v = S_v(GS_V_TO_CONFIRM, "why.memory.observed_above_capacity");
		v.margin = c->margin;
		v.has_margin = 1;
		v.missing = "missing.capacity";
	}
	v.a = obs.q;
	v.b = c->capacity;
	v.evidence = best->ref->file;
	v.evidence_date = best->m->date;
	v.synthetic = best->m->synthetic;
	S_reported_by(best->m, &v);
	c->v[GS_REQ_MEMORY] = v;
	return 1;
}

/*
 * The calculated need per card: the sizing's need, or under a declared
 * tensor-parallel split the terms per card plus the reserve and the
 * declared components, which every card carries.
 */
static gs_qty S_need_per_card(const S_in *in, const gs_candidate *c)
{
	const gs_sizing *s = in->s;
	gs_qty need, w, kv;

	if (c->split <= 1) {
		need = s->need;
		if (need.present)
			need.bytes = S_step_adjust(c, need.bytes);
		return need;
	}
	/* the weights per card with a declared replicated part too */
	S_terms_r(in, c->split, 0, &w, &kv, NULL);
	need = s->need;
	need.bytes = w.bytes;
	need.prov = gs_qty_prov_weakest(need.prov, w.prov);
	if ((kv.present && gs_qty_add_u64(need.bytes, kv.bytes, &need.bytes)) ||
	    gs_qty_add_u64(need.bytes, s->reserve.bytes, &need.bytes) ||
	    (s->training.present && gs_qty_add_u64(need.bytes, s->training.bytes, &need.bytes)))
		need.bytes = UINT64_MAX;
	need.bytes = S_step_adjust(c, need.bytes);
	return need;
}

/* The reason of a need per card under a declared split: the rule of its
 * weights per card in words (the weights / N, or with the replicated part
 * calculated from the headers, or declared). */
static const char *S_calc_split_why(const S_in *in)
{
	gs_qty r = S_replicated(in, 0);

	if (!r.present || !in->s->weights.present)
		return "why.memory.calc_split";
	return r.prov == GS_PROV_CALCULATED ? "why.memory.calc_split_replicated"
					    : "why.memory.calc_split_replicated_declared";
}

/* Only the calculation: at best to confirm, with the margin shown. */
static void S_calculated(const S_in *in, gs_candidate *c)
{
	const gs_offer *o = c->offer;
	gs_qty need = S_need_per_card(in, c);
	int placed = S_placed(in->w) || c->split > 1;
	gs_verdict v;

	c->need = need;
	c->margin = S_margin(c->capacity.bytes, need.bytes);
	c->has_margin = 1;
	if (c->split > 1)
		v = S_v(GS_V_TO_CONFIRM, S_calc_split_why(in));
	else if (need.bytes > c->capacity.bytes && o->cards > 1)
		v = S_v(GS_V_TO_CONFIRM, placed ? "why.memory.calc_placement"
						: "why.memory.calc_needs_placement");
	else if (need.bytes > c->capacity.bytes)
		v = S_v(GS_V_TO_CONFIRM, "why.memory.calc_above");
	else
		v = S_v(GS_V_TO_CONFIRM, "why.memory.calc_fits");
	v.a = need;
	v.b = c->capacity;
	v.margin = c->margin;
	v.has_margin = 1;
	v.s1 = c->gpu ? c->gpu->model : o->gpu_model;
	v.synthetic = c->capacity.synthetic;
	if (c->split > 1) {
		S_terms_r(in, c->split, 0, &v.w, &v.kv, &v.r);
		v.split = c->split;
	}
	v.missing = (need.bytes > c->capacity.bytes && o->cards > 1 && !placed)
			    ? "missing.placement_and_measurement" : "missing.measurement";
	c->v[GS_REQ_MEMORY] = v;
}

/*
 * A lot with fewer cards than the declared tensor-parallel degree cannot
 * run that placement: it is not sized as if it did (its cards never pool
 * memory). Excluded on the catalog's card count, with the reason.
 */
static int S_tp_cards(const S_in *in, gs_candidate *c)
{
	uint64_t tp = in->w->tensor_parallel;
	const char *why = "why.memory.tp_above_cards";
	gs_verdict v;

	/* a training recipe sharded over N cards: the same rule */
	if (tp <= 1 && in->s->has_train && in->w->recipe.cards > 1) {
		tp = in->w->recipe.cards;
		why = "why.memory.shard_above_cards";
	}
	if (tp <= 1 || c->offer->cards >= tp)
		return 0;
	v = S_v(GS_V_EXCLUDE, why);
	v.basis = GS_BASIS_CATALOG;
	v.t1 = tp;
	v.t2 = c->offer->cards;
	v.has_tokens = 1;
	v.s1 = c->gpu ? c->gpu->model : c->offer->gpu_model;
	c->v[GS_REQ_MEMORY] = v;
	c->need = gs_qty_missing();
	return 1;
}

/*
 * Under a runtime, what a card holds is the engine's budget: vLLM's
 * gpu_memory_utilization x the card's total (vllm/v1/worker/gpu_worker.py),
 * SGLang's mem_fraction_static x the card's total, the fraction by its
 * version's rule from this card's memory (gen/decide/runtime.c). The
 * capacity compared with the need becomes that budget, and the upper bound
 * the same share of the upper bound; the card's total is kept for the
 * sheet. A card too small for SGLang's own reserve holds no budget.
 */
static void S_runtime_budget(const S_in *in, gs_candidate *c)
{
	gs_runtime_settings rs;
	int rocm;

	if (gs_runtime_settings_of(in->w, &rs) != 0 || !c->capacity.present)
		return;
	rocm = c->gpu && c->gpu->vendor && strcmp(c->gpu->vendor, "AMD") == 0;
	if (gs_runtime_share_of(&rs, c->capacity.bytes, c->split, rocm, &c->rt_share) != 0)
		memset(&c->rt_share, 0, sizeof(c->rt_share));
	c->has_runtime = 1;
	c->rt_engine = rs.id;
	c->card_total = c->capacity;
	c->capacity.bytes = gs_runtime_share_apply(&c->rt_share, c->capacity.bytes);
	if (c->upper.present)
		c->upper.bytes = gs_runtime_share_apply(&c->rt_share, c->upper.bytes);
	if (rs.id != GS_ENGINE_VLLM)
		return;
	/* vLLM's step budget on this card: the profiling step's terms of the
	 * reserve scaled to it (the card's total as CUDA reports it is taken
	 * as the capacity the sheet gives the card) */
	c->rt_mnbt = gs_runtime_mnbt_on_card(&rs, c->card_total.bytes,
					     c->gpu ? c->gpu->model : c->offer->gpu_model,
					     &c->rt_mnbt_large);
	if (gs_runtime_step_terms(in->w, &rs, c->rt_mnbt, &c->rt_step_now, &c->rt_step_then) != 0)
		c->rt_step_now = c->rt_step_then = 0;
}

/* The need per card's bytes with this card's profiling-step terms (vLLM's
 * step budget on the card) in place of the workload-wide ones. */
static uint64_t S_step_adjust(const gs_candidate *c, uint64_t bytes)
{
	uint64_t v;

	if (!c->has_runtime || c->rt_step_now == c->rt_step_then || bytes < c->rt_step_now)
		return bytes;
	v = bytes - c->rt_step_now;
	return gs_qty_add_u64(v, c->rt_step_then, &v) ? UINT64_MAX : v;
}

/*
 * vLLM's KV pool on a card: the budget less the weights per card and the
 * other terms of the calculated need (its reserve and declared items), in
 * whole blocks; its tokens and the concurrency at the workload's tokens per
 * sequence. Only from the calculated need (an observed need does not say
 * which part is the cache).
 */
static void S_runtime_pool(const S_in *in, gs_candidate *c)
{
	const gs_sizing *s = in->s;
	gs_runtime_settings rs;
	gs_qty need, w, kv;
	uint64_t fixed, per_token = s->kv_per_token;

	if (!c->has_runtime || !s->kv.present || !per_token ||
	    gs_runtime_settings_of(in->w, &rs) != 0)
		return;
	need = S_need_per_card(in, c);
	S_terms(in, c->split, &w, &kv);
	if (!need.present || !kv.present || kv.bytes > need.bytes)
		return;
	fixed = need.bytes - kv.bytes;
	if (c->split > 1 && in->w->kv_heads % c->split == 0)
		per_token = S_ceil_div(per_token, c->split);
	/* a card without a share (too small for SGLang's reserve): a budget of 0 */
	if (gs_runtime_budget_frac(c->card_total.bytes, c->rt_share.den ? c->rt_share.num : 0,
				   c->rt_share.den ? c->rt_share.den : 1000, fixed, per_token,
				   rs.block_size, s->kv_tokens_kept, &c->rt) == 0)
		c->rt_pool_known = 1;
}

/* No memory figure in the catalog: nothing to compare, to confirm. */
static int S_memory_unknown(gs_candidate *c)
{
	gs_verdict v;

	if (!c->offer->memory_unknown || c->offer->has_declared_bytes)
		return 0;
	v = S_v(GS_V_TO_CONFIRM, "why.memory.capacity_unknown");
	v.missing = "missing.capacity";
	c->v[GS_REQ_MEMORY] = v;
	c->capacity = gs_qty_missing();
	c->need = gs_qty_missing();
	return 1;
}

/*
 * An engine on an accelerator that is no CUDA or ROCm GPU (AWS Neuron,
 * Intel Gaudi, an FPGA): vLLM and SGLang run there, where they run at all,
 * through builds of their own whose memory budget is not the GPU engine's
 * (gpu_memory_utilization of what the CUDA runtime reports, its graphs and
 * its profiling step), so the capacity under the workload's engine is
 * missing, to confirm; never a fit read from the catalog's memory.
 */
static int S_engine_unmodelled(const S_in *in, gs_candidate *c)
{
	gs_runtime_settings rs;
	const char *platform;
	gs_verdict v;

	if (gs_runtime_settings_of(in->w, &rs) != 0)
		return 0;
	platform = gs_gpuname_non_gpu(c->offer->gpu_model, c->offer->device_name);
	if (!platform)
		return 0;
	v = S_v(GS_V_TO_CONFIRM, "why.memory.engine_not_modelled");
	v.s1 = c->offer->gpu_model;
	v.s2 = platform;
	v.missing = "missing.capacity";
	c->v[GS_REQ_MEMORY] = v;
	c->capacity = gs_qty_missing();
	c->need = gs_qty_missing();
	return 1;
}

static void S_memory(const S_in *in, gs_candidate *c)
{
	gs_verdict note;

	memset(&note, 0, sizeof(note));
	S_lower(in, c);
	if (S_memory_unknown(c) || S_engine_unmodelled(in, c))
		return;
	S_capacity(in, c);
	S_upper(c);
	S_runtime_budget(in, c);
	if (!S_tp_cards(in, c) && !S_failures(in, c, &note) && !S_certainty(in, c) &&
	    !S_kv_capacity(in, c, &note) && !S_observed(in, c))
		S_calculated(in, c);
	/* Say why a failure or a file that was shown does not decide. */
	if (c->v[GS_REQ_MEMORY].kind != GS_V_EXCLUDE ||
	    c->v[GS_REQ_MEMORY].basis != GS_BASIS_OBSERVED_FAILURE) {
		if (note.note && c->v[GS_REQ_MEMORY].kind != GS_V_ADMISSIBLE &&
		    !c->v[GS_REQ_MEMORY].note) {
			c->v[GS_REQ_MEMORY].note = note.note;
			c->v[GS_REQ_MEMORY].n1 = note.n1;
			c->v[GS_REQ_MEMORY].n2 = note.n2;
			c->v[GS_REQ_MEMORY].n3 = note.n3;
		}
		if (c->v[GS_REQ_MEMORY].kind == GS_V_TO_CONFIRM)
			S_note_synthetic(in, c->offer, &c->v[GS_REQ_MEMORY]);
	}
}

/*** software ***/

/* Frameworks under two names: a requirement of one is met by the other. */
static int S_sw_name_eq(const char *a, const char *b)
{
	static const char *const alias[][2] = {
		{ "torch", "pytorch" }, { "cuda", "runtime" }, { "cuda_runtime", "runtime" },
	};
	size_t i;

	if (gs_util_eq_ci(a, b))
		return 1;
	for (i = 0; i < sizeof(alias) / sizeof(alias[0]); i++)
		if ((gs_util_eq_ci(a, alias[i][0]) && gs_util_eq_ci(b, alias[i][1])) ||
		    (gs_util_eq_ci(a, alias[i][1]) && gs_util_eq_ci(b, alias[i][0])))
			return 1;
	return 0;
}

/* Recorded version of a required software name in a run, or NULL. */
static const char *S_measurement_version(const gs_measurement *m, const char *name)
{
	size_t i;

	if (S_sw_name_eq(name, "runtime"))
		return m->runtime;
	if (gs_util_eq_ci(name, "driver"))
		return m->driver;
	for (i = 0; i < m->nframeworks; i++)
		if (S_sw_name_eq(m->frameworks[i].name, name))
			return m->frameworks[i].value;
	return NULL;
}

/* Does the offer's installed software name every required item? */
static const gs_software *S_sw_offered(const gs_workload *w, const gs_offer *o)
{
	size_t i, k;

	for (i = 0; i < o->nsoftware; i++) {
		const gs_software *sw = &o->software[i];
		int all = 1;
		if (!sw->installed)
			continue;
		if (!w->has_req_software) {
			if (gs_util_contains_ci(sw->name, w->req_software))
				return sw;
			continue;
		}
		for (k = 0; k < w->nreq_sw && all; k++) {
			const char *n = w->req_sw[k].name;
			all = gs_util_contains_ci(sw->name, n) ||
			      (gs_util_eq_ci(n, "torch") && gs_util_contains_ci(sw->name, "pytorch")) ||
			      ((gs_util_eq_ci(n, "runtime") || gs_util_eq_ci(n, "cuda_runtime")) &&
			       gs_util_contains_ci(sw->name, "cuda"));
		}
		if (all)
			return sw;
	}
	return NULL;
}

static void S_software(const S_in *in, gs_candidate *c)
{
	const gs_workload *w = in->w;
	const gs_offer *o = c->offer;
	const gs_software *offered;
	const gs_evidence *ran = NULL;
	gs_verdict v, note;
	size_t i, k;

	if (!w->req_software && !w->has_req_software) {
		c->v[GS_REQ_SOFTWARE] = S_v(GS_V_NOT_REQUIRED, "why.not_required");
		return;
	}
	memset(&note, 0, sizeof(note));
	offered = S_sw_offered(w, o);
	/* A successful run on this GPU model confirms the software only when
	 * the versions it recorded meet every structured requirement. */
	for (i = 0; i < in->nev && !ran && w->has_req_software; i++) {
		const gs_measurement *m = in->ev[i].m;
		int ok = 1;
		if (!S_usable(in, m) || !gs_measurement_ok(m) || !S_same_model(o, m))
			continue;
		for (k = 0; k < w->nreq_sw && ok; k++) {
			const char *have = S_measurement_version(m, w->req_sw[k].name);
			if (!have || gs_workload_version_at_least(have, w->req_sw[k].min_version) != 1) {
				ok = 0;
				if (!note.note) {
					note.note = have ? "note.software_version_below"
							 : "note.software_version_missing";
					note.n1 = in->ev[i].ref->file;
					note.n2 = w->req_sw[k].name;
					note.n3 = have;
				}
			}
		}
		if (ok)
			ran = &in->ev[i];
	}
	if (offered && ran) {
		v = S_v(GS_V_ADMISSIBLE, "why.software.installed_and_ran");
		v.s1 = offered->name;
		v.s2 = offered->claim.source;
		v.evidence = ran->ref->file;
		v.evidence_date = ran->m->date;
		v.synthetic = ran->m->synthetic;
	} else if (ran) {
		v = S_v(GS_V_TO_CONFIRM, "why.software.ran_not_listed");
		v.evidence = ran->ref->file;
		v.evidence_date = ran->m->date;
		v.synthetic = ran->m->synthetic;
		v.missing = "missing.software_listed";
	} else if (offered) {
		v = S_v(GS_V_TO_CONFIRM, "why.software.listed_only");
		v.s1 = offered->name;
		v.s2 = offered->claim.source;
		v.evidence_date = offered->claim.date;
		v.missing = w->has_req_software ? "missing.software_run" : "missing.software_structured";
	} else {
		v = S_v(GS_V_TO_CONFIRM, "why.software.undocumented");
		v.s1 = w->req_software ? w->req_software : w->req_sw[0].name;
		v.missing = w->has_req_software ? "missing.software" : "missing.software_structured";
	}
	if (v.kind != GS_V_ADMISSIBLE && note.note) {
		v.note = note.note;
		v.n1 = note.n1;
		v.n2 = note.n2;
		v.n3 = note.n3;
	}
	if (v.kind == GS_V_TO_CONFIRM && w->has_req_software)
		S_note_synthetic(in, o, &v);
	c->v[GS_REQ_SOFTWARE] = v;
}

/* Does the workload state that it runs on CUDA (its software requirement,
 * or an item of its reserve named after the CUDA context)? vLLM's own
 * terms that `init --engine vllm` writes ("vLLM CUDA graphs") do not: vLLM
 * runs on ROCm too (its graph estimate is 0 there, gen/decide/runtime.c). */
static int S_states_cuda(const gs_workload *w)
{
	size_t i;

	if (w->req_software && gs_util_contains_ci(w->req_software, "cuda"))
		return 1;
	for (i = 0; i < w->nreq_sw; i++)
		if (gs_util_contains_ci(w->req_sw[i].name, "cuda"))
			return 1;
	for (i = 0; i < w->nreserve; i++)
		if (gs_util_contains_ci(w->reserve[i].name, "cuda") &&
		    strncmp(w->reserve[i].name, "vLLM ", 5) != 0)
			return 1;
	return 0;
}

/*
 * What the card can compute (docs/formats.md, 2.4): a compute format the
 * GPU's tensor cores lack (bf16 below compute capability 8.0, fp8 below
 * 8.9: the vendor table, cited) excludes the offer on the software
 * requirement; so does an AMD card (ROCm) for a workload that states CUDA.
 * A figure the table does not know decides nothing.
 */
static void S_compute(const S_in *in, gs_candidate *c)
{
	const gs_workload *w = in->w;
	const gs_gpu_nominal *e = c->gpu;
	unsigned need = gs_verdict_format_cc(w);
	gs_verdict v;

	if (!e || !e->vendor)
		return;
	if (strcmp(e->vendor, "NVIDIA") == 0 && need && e->cc && e->cc < need) {
		v = S_v(GS_V_EXCLUDE, "why.software.format_unsupported");
		v.s1 = gs_verdict_format_of(w);
		v.s2 = e->model;
		v.n1 = gs_gpuname_cc_text(e->cc);
		v.n2 = gs_gpuname_cc_text(need);
	} else if (strcmp(e->vendor, "AMD") == 0 && S_states_cuda(w)) {
		v = S_v(GS_V_EXCLUDE, "why.software.amd_not_cuda");
		v.s1 = e->model;
	} else {
		return;
	}
	v.basis = GS_BASIS_CATALOG;
	c->v[GS_REQ_SOFTWARE] = v;
}

const char *gs_verdict_format_of(const gs_workload *w)
{
	return w->compute_format ? w->compute_format : w->storage_format;
}

unsigned gs_verdict_format_cc(const gs_workload *w)
{
	return gs_gpuname_cc_for_format(gs_verdict_format_of(w));
}

/*** calendar ***/

/* Days since 1970-01-01 of a valid YYYY-MM-DD (the readers validated it). */
static long S_days(const char *date)
{
	int y = atoi(date), m = atoi(date + 5), d = atoi(date + 8);
	long era, yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

static void S_calendar(const gs_workload *w, gs_candidate *c)
{
	const gs_availability *a = &c->offer->availability;
	gs_verdict v;

	if (!w->has_campaign) {
		c->v[GS_REQ_CALENDAR] = S_v(GS_V_NOT_REQUIRED, "why.not_required");
		return;
	}
	switch (a->kind) {
	case GS_AVAIL_WINDOW: {
		long start = S_days(w->campaign_start);
		long end = start + (long)w->campaign_days - 1;
		int covers = S_days(a->from) <= start && end <= S_days(a->to);
		v = S_v(covers ? GS_V_ADMISSIBLE : GS_V_TO_CONFIRM,
			covers ? "why.calendar.window_covers" : "why.calendar.window_misses");
		v.missing = covers ? NULL : "missing.calendar";
		v.s1 = a->from;
		v.s2 = a->to;
		break;
	}
	case GS_AVAIL_STOCK:
		v = S_v(GS_V_TO_CONFIRM, "why.calendar.stock_only");
		v.missing = "missing.calendar";
		break;
	case GS_AVAIL_UNAVAILABLE:
		v = S_v(GS_V_EXCLUDE, "why.calendar.unavailable");
		v.basis = GS_BASIS_CATALOG;
		break;
	case GS_AVAIL_ON_REQUEST:
		v = S_v(GS_V_TO_CONFIRM, "why.calendar.on_request");
		v.missing = "missing.calendar";
		break;
	case GS_AVAIL_UNKNOWN:
	default:
		c->v[GS_REQ_CALENDAR] = S_v(GS_V_TO_CONFIRM, "why.calendar.unknown");
		c->v[GS_REQ_CALENDAR].missing = "missing.calendar";
		return;
	}
	/* Every documented availability cites its claim. */
	v.evidence = a->claim.source;
	v.evidence_date = a->claim.date;
	c->v[GS_REQ_CALENDAR] = v;
}

/*** budget ***/

/* Cheapest plan covering the campaign: whole plans bought back to back. */
static int S_plan_in_regions(const gs_workload *w, const gs_plan *p);

static void S_cost(const gs_workload *w, gs_candidate *c)
{
	const gs_offer *o = c->offer;
	uint64_t hours;
	size_t i;

	if (!w->has_campaign || gs_qty_mul_u64(w->campaign_days, 24, &hours))
		return;
	for (i = 0; i < o->nplans; i++) {
		const gs_plan *p = &o->plans[i];
		gs_cost pc;
		uint64_t units, cost;

		/* An interruptible (spot) plan does not promise the campaign. */
		if (p->interruptible || !S_plan_in_regions(w, p) || gs_cost_of_plan(p, hours, 1, &pc))
			continue;
		units = pc.units;
		cost = (uint64_t)pc.cost;
		/* Prefer the workload's currency, then the lowest cost. */
		if (!c->plan ||
		    (w->has_budget && strcmp(p->currency, w->budget_currency) == 0 &&
		     strcmp(c->plan->currency, w->budget_currency) != 0) ||
		    (strcmp(p->currency, c->plan->currency) == 0 && (int64_t)cost < c->cost)) {
			c->plan = p;
			c->plan_units = units;
			c->cost = (int64_t)cost;
		}
	}
}

static void S_budget(const gs_workload *w, gs_candidate *c)
{
	gs_verdict v;

	S_cost(w, c);
	if (!w->has_budget) {
		c->v[GS_REQ_BUDGET] = S_v(GS_V_NOT_REQUIRED, "why.not_required");
		return;
	}
	if (!w->has_campaign) {
		v = S_v(GS_V_TO_CONFIRM, "why.budget.no_campaign");
		v.missing = "missing.campaign";
	} else if (!c->plan) {
		v = S_v(GS_V_TO_CONFIRM, "why.budget.no_price");
		v.missing = "missing.price";
	} else if (strcmp(c->plan->currency, w->budget_currency) != 0) {
		v = S_v(GS_V_TO_CONFIRM, "why.budget.other_currency");
		v.s1 = c->plan->currency;
		v.s2 = w->budget_currency;
		v.evidence = c->plan->claim.source;
		v.evidence_date = c->plan->claim.date;
		v.missing = "missing.exchange";
	} else {
		v = S_v(c->cost <= w->budget_hundredths ? GS_V_ADMISSIBLE : GS_V_EXCLUDE,
			c->cost <= w->budget_hundredths ? "why.budget.within" : "why.budget.over");
		v.s1 = c->plan->currency;
		v.cost = c->cost;
		v.budget = w->budget_hundredths;
		v.has_money = 1;
		v.basis = v.kind == GS_V_EXCLUDE ? GS_BASIS_CATALOG : GS_BASIS_NONE;
		v.evidence = c->plan->claim.source;
		v.evidence_date = c->plan->claim.date;
	}
	c->v[GS_REQ_BUDGET] = v;
}

/*** quality ***/

/*
 * Admissible only on a cited evaluation (file or reference, date, scope).
 * The same weight format as the reference is not by itself evidence: the
 * guide leaves quality "to verify" for both of its offers.
 */
static void S_quality(const gs_workload *w, gs_candidate *c)
{
	gs_verdict v;

	if (!w->quality_criterion) {
		c->v[GS_REQ_QUALITY] = S_v(GS_V_NOT_REQUIRED, "why.not_required");
		return;
	}
	if (w->quality_evidence) {
		v = S_v(GS_V_ADMISSIBLE, "why.quality.cited");
		v.s1 = w->storage_format;
		v.s2 = w->quality_evidence_scope;
		v.evidence = w->quality_evidence;
		v.evidence_date = w->quality_evidence_date;
	} else {
		v = S_v(GS_V_TO_CONFIRM,
			!w->reference_format ? "why.quality.no_reference"
			: gs_util_eq_ci(S_dtype_canon(w->reference_format), S_dtype_canon(w->storage_format))
				? "why.quality.same_format_unverified" : "why.quality.format_changed");
		v.s1 = w->storage_format;
		v.s2 = w->reference_format;
		v.missing = "missing.quality";
	}
	c->v[GS_REQ_QUALITY] = v;
}

/*** host ***/

/* The host memory the workload needs: the declared requirements.host.ram,
 * or the bytes a training recipe's offload moves there when they are more
 * (calculated: a floor, the process and its buffers come on top). */
static int S_host_need(const gs_workload *w, const gs_sizing *s, uint64_t *need, gs_prov *prov,
		       int *offload)
{
	uint64_t off = s->has_train ? s->train.host : 0;

	*offload = off && (!w->has_host_ram || off > w->host_ram_bytes);
	*need = *offload ? off : w->host_ram_bytes;
	*prov = *offload ? GS_PROV_CALCULATED : GS_PROV_ASSUMED;
	return w->has_host_ram || off;
}

static void S_host(const gs_workload *w, const gs_sizing *s, gs_candidate *c)
{
	const gs_offer *o = c->offer;
	gs_verdict v;
	int worst = -1, offload;
	uint64_t need;
	gs_prov prov;
	int has_need = S_host_need(w, s, &need, &prov, &offload);

	if (!has_need && !w->host_interconnect) {
		c->v[GS_REQ_HOST] = S_v(GS_V_NOT_REQUIRED, "why.not_required");
		return;
	}
	v = S_v(GS_V_ADMISSIBLE, offload ? "why.host.offload_held" : "why.host.documented");
	if (has_need) {
		if (!o->has_host_ram) {
			v = S_v(GS_V_TO_CONFIRM, offload ? "why.host.offload_unknown" : "why.host.ram_unknown");
			v.missing = "missing.host";
			worst = GS_V_TO_CONFIRM;
		} else if (o->host_ram_bytes < need) {
			v = S_v(GS_V_EXCLUDE, offload ? "why.host.offload_short" : "why.host.ram_short");
			v.basis = GS_BASIS_CATALOG;
			v.evidence = o->host_ram_claim.source;
			v.evidence_date = o->host_ram_claim.date;
			worst = GS_V_EXCLUDE;
		} else {
			v.evidence = o->host_ram_claim.source;
			v.evidence_date = o->host_ram_claim.date;
		}
		v.a = gs_qty_make(need, prov);
		if (o->has_host_ram)
			v.b = gs_qty_make(o->host_ram_bytes, GS_PROV_ASSUMED);
	}
	if (w->host_interconnect && worst != GS_V_EXCLUDE) {
		if (!o->interconnect) {
			if (worst < 0) {
				v = S_v(GS_V_TO_CONFIRM, "why.host.interconnect_unknown");
				v.missing = "missing.host";
			}
		} else if (!gs_util_contains_ci(o->interconnect, w->host_interconnect)) {
			v = S_v(GS_V_EXCLUDE, "why.host.interconnect_other");
			v.basis = GS_BASIS_CATALOG;
			v.evidence = o->interconnect_claim.source;
			v.evidence_date = o->interconnect_claim.date;
		} else if (worst < 0) {
			v.evidence = o->interconnect_claim.source;
			v.evidence_date = o->interconnect_claim.date;
		}
		v.s1 = w->host_interconnect;
		v.s2 = o->interconnect;
	}
	c->v[GS_REQ_HOST] = v;
}

/*** regions ***/

/* Does name start with prefix, letter case aside? */
static int S_starts_ci(const char *name, const char *prefix)
{
	for (; *prefix; name++, prefix++) {
		char a = *name, b = *prefix;
		if (a >= 'A' && a <= 'Z')
			a = (char)(a - 'A' + 'a');
		if (b >= 'A' && b <= 'Z')
			b = (char)(b - 'A' + 'a');
		if (!a || a != b)
			return 0;
	}
	return 1;
}

/* The requirement the name meets, or NULL. */
static const char *S_region_allowed(const gs_workload *w, const char *name)
{
	size_t i;

	for (i = 0; name && i < w->nregions; i++)
		if (S_starts_ci(name, w->regions[i]))
			return w->regions[i];
	return NULL;
}

/*
 * A plan the workload may buy: no region required, or the plan names no
 * place (the offer's verdict says what is unknown), or one of its places
 * is allowed. The campaign and the hourly prices count these plans only.
 */
static int S_plan_in_regions(const gs_workload *w, const gs_plan *p)
{
	size_t j;

	if (!w->nregions || !p->nplaces)
		return 1;
	for (j = 0; j < p->nplaces; j++)
		if (S_region_allowed(w, p->places[j].region) || S_region_allowed(w, p->places[j].zone))
			return 1;
	return 0;
}

/*
 * requirements.regions: admissible when a priced plan is sold in a region
 * or zone the workload allows (the first such place cited, with the plan's
 * claim); excluded on the catalog's word when the offer names where it is
 * sold and none is allowed; to confirm when it names nowhere.
 */
static void S_regions(const gs_workload *w, gs_candidate *c)
{
	const gs_offer *o = c->offer;
	const char *first = NULL, *hit;
	gs_verdict v;
	size_t i, j;

	if (!w->nregions) {
		c->v[GS_REQ_REGIONS] = S_v(GS_V_NOT_REQUIRED, "why.not_required");
		return;
	}
	for (i = 0; i < o->nplans; i++)
		for (j = 0; j < o->plans[i].nplaces; j++) {
			const gs_place *pl = &o->plans[i].places[j];
			const char *name = pl->region ? pl->region : pl->zone;
			first = first ? first : name;
			hit = S_region_allowed(w, pl->region);
			if (!hit)
				hit = S_region_allowed(w, pl->zone);
			if (!hit)
				continue;
			v = S_v(GS_V_ADMISSIBLE, "why.regions.sold_in");
			v.s1 = S_region_allowed(w, pl->region) ? pl->region : pl->zone;
			v.s2 = w->regions_text;
			v.evidence = o->plans[i].claim.source;
			v.evidence_date = o->plans[i].claim.date;
			c->v[GS_REQ_REGIONS] = v;
			return;
		}
	for (i = 0; i < o->nregions; i++) {
		first = first ? first : o->regions[i];
		if (S_region_allowed(w, o->regions[i])) {
			v = S_v(GS_V_ADMISSIBLE, "why.regions.sold_in");
			v.s1 = o->regions[i];
			v.s2 = w->regions_text;
			v.evidence = o->regions_claim.source;
			v.evidence_date = o->regions_claim.date;
			c->v[GS_REQ_REGIONS] = v;
			return;
		}
	}
	if (first) {
		v = S_v(GS_V_EXCLUDE, "why.regions.not_sold");
		v.basis = GS_BASIS_CATALOG;
		v.s1 = first;
		v.s2 = w->regions_text;
		v.evidence = o->nplans && o->plans[0].nplaces ? o->plans[0].claim.source : o->regions_claim.source;
		v.evidence_date = o->nplans && o->plans[0].nplaces ? o->plans[0].claim.date : o->regions_claim.date;
	} else {
		v = S_v(GS_V_TO_CONFIRM, "why.regions.unknown");
		v.s2 = w->regions_text;
		v.missing = "missing.regions";
	}
	c->v[GS_REQ_REGIONS] = v;
}

/* "61.03" as thousandths (at most three decimals: speedlog's rule); -1 for another text. */
static int S_milli(const char *s, uint64_t *out)
{
	uint64_t v = 0;
	int d = -1;

	if (!s || !*s)
		return -1;
	for (; *s; s++) {
		if (*s == '.' && d < 0) {
			d = 0;
			continue;
		}
		if (*s < '0' || *s > '9' || d == 3 || v > UINT64_MAX / 10 - 10)
			return -1;
		v = v * 10 + (uint64_t)(*s - '0');
		if (d >= 0)
			d++;
	}
	for (d = d < 0 ? 0 : d; d < 3; d++) {
		if (v > UINT64_MAX / 10)
			return -1;
		v *= 10;
	}
	*out = v;
	return 0;
}

/* A speed import that can stand for this workload's decoding: a benchmark
 * or a server's own lines, with speculative decoding exactly when the
 * workload declares it (a run that drafts tokens yields several a read of
 * the weights; one that does not, one). */
static int S_speed_import(const gs_workload *w, const gs_measurement *m)
{
	static const char *const from[] = { "llama-bench", "vllm-bench", "llama-timings",
					    "vllm-stats", NULL };
	size_t k;

	for (k = 0; from[k]; k++)
		if (strcmp(m->import_from, from[k]) == 0)
			return !gs_measurement_setting(m, "speculative_decoding") == !w->spec_draft_tokens;
	return 0;
}

/*
 * The observed speeds of the workload's evidence on this offer's GPU model:
 * a benchmark or a server's lines imported from their print (llama-bench's
 * tgN, llama.cpp's eval time: one sequence; vLLM's output tokens/s: every
 * sequence together, its stats lines only at the workload's sequences).
 * The first such file in the evidence's order gives each.
 */
static void S_speed_observed(const S_in *in, gs_candidate *c)
{
	size_t i, k;

	for (i = 0; i < in->nev; i++) {
		const gs_measurement *m = in->ev[i].m;
		const gs_msetting *running;
		if (!S_usable(in, m) || !m->import_from || !S_same_model(c->offer, m) ||
		    !S_speed_import(in->w, m))
			continue;
		running = strcmp(m->import_from, "vllm-stats") == 0
				  ? gs_measurement_setting(m, "running_requests") : NULL;
		for (k = 0; k < m->nimport_figures; k++) {
			const gs_mfigure *f = &m->import_figures[k];
			uint64_t v;
			if (S_milli(f->decimal, &v) != 0)
				continue;
			if (running && strcmp(f->name, "output_tokens_per_second") == 0 &&
			    strtoull(running->value, NULL, 10) != c->speed.load.sequences)
				continue;
			if (!c->speed.has_obs_seq && strcmp(f->name, "decode_tokens_per_second") == 0) {
				c->speed.has_obs_seq = 1;
				c->speed.obs_seq_milli = v;
				c->speed.obs_seq_text = f->decimal;
				c->speed.obs_seq_file = in->ev[i].ref->file;
				c->speed.obs_seq_source = m->import_source;
				c->speed.obs_seq_line = f->line;
			} else if (!c->speed.has_obs_total && strcmp(f->name, "output_tokens_per_second") == 0) {
				c->speed.has_obs_total = 1;
				c->speed.obs_total_milli = v;
				c->speed.obs_total_text = f->decimal;
				c->speed.obs_total_file = in->ev[i].ref->file;
				c->speed.obs_total_source = m->import_source;
				c->speed.obs_total_line = f->line;
			}
		}
	}
	gs_speed_check_observed(&c->speed);
}

/*
 * An observed figure above its calculated bound (speed.h): the bound or its
 * inputs are wrong, so neither the figure nor the bound decides; to
 * confirm, naming both figures and the ratio. 1 (v set), else 0.
 */
static int S_speed_above(const gs_speed *sp, gs_verdict *v)
{
	int seq = sp->has_obs_seq && sp->obs_seq_above;

	if (!seq && !(sp->has_obs_total && sp->obs_total_above))
		return 0;
	*v = S_v(GS_V_TO_CONFIRM, "why.speed.observed_above");
	v->missing = "missing.speed_above";
	v->has_milli = 1;
	v->m1 = seq ? sp->obs_seq_bound_milli : sp->obs_total_bound_milli;
	v->m2 = seq ? sp->obs_seq_ratio_milli : sp->obs_total_ratio_milli;
	v->s1 = seq ? sp->obs_seq_file : sp->obs_total_file;
	v->s2 = seq ? sp->obs_seq_text : sp->obs_total_text;
	return 1;
}

/* The requirement decided on an observed figure, when one is there: 1 (v set), else 0. */
static int S_speed_by_observed(const gs_workload *w, const gs_speed *sp, gs_verdict *v)
{
	uint64_t obs, req;
	const char *text, *file;

	if (w->has_req_decode_seq && sp->has_obs_seq) {
		obs = sp->obs_seq_milli;
		req = w->req_decode_seq_milli;
		text = sp->obs_seq_text;
	} else if (w->has_req_decode_total && sp->has_obs_total) {
		obs = sp->obs_total_milli;
		req = w->req_decode_total_milli;
		text = sp->obs_total_text;
	} else {
		return 0;
	}
	file = w->has_req_decode_seq && sp->has_obs_seq ? sp->obs_seq_file : sp->obs_total_file;
	*v = S_v(obs >= req ? GS_V_ADMISSIBLE : GS_V_EXCLUDE,
		 obs >= req ? "why.speed.observed_reaches" : "why.speed.observed_below");
	v->has_milli = 1;
	v->m1 = obs;
	v->m2 = req;
	v->s1 = file;
	v->s2 = text;
	if (v->kind == GS_V_EXCLUDE)
		v->basis = GS_BASIS_OBSERVED_FAILURE;
	return 1;
}

/*
 * The bound reaches a decode requirement but the expected figure (assumed:
 * the workload's efficiency and tokens a step) does not: still to confirm,
 * since an assumption never excludes, and the reason says the expectation
 * falls short (m1 the expected figure, m2 the requirement).
 */
static void S_speed_expected(const gs_workload *w, const gs_speed *sp, gs_verdict *v)
{
	if (!sp->has_expected)
		return;
	if (w->has_req_decode_seq && sp->expected_seq_milli < w->req_decode_seq_milli) {
		v->why = "why.speed.expected_below_seq";
		v->m1 = sp->expected_seq_milli;
		v->m2 = w->req_decode_seq_milli;
	} else if (!w->has_req_decode_seq && w->has_req_decode_total &&
		   sp->expected_total_milli < w->req_decode_total_milli) {
		v->why = "why.speed.expected_below_total";
		v->m1 = sp->expected_total_milli;
		v->m2 = w->req_decode_total_milli;
	}
}

/*
 * requirements.speed: excluded by calculated certainty when the bound is
 * below a requirement (per sequence: on the weights alone, so at any
 * context; in total: at the context; the first token: above the time);
 * else to confirm, the bound reached by calculation but no run observed;
 * to confirm as well when the bound is missing (a card or a format the
 * table lacks). Not required without requirements.speed.
 */
static void S_speed(const gs_workload *w, gs_candidate *c)
{
	const gs_speed *sp = &c->speed;
	gs_verdict v;

	if (!w->has_req_decode_seq && !w->has_req_decode_total && !w->has_req_ttft) {
		c->v[GS_REQ_SPEED] = S_v(GS_V_NOT_REQUIRED, "why.not_required");
		return;
	}
	if (S_speed_above(sp, &v)) {
		v.evidence = gs_speed_source(sp);
		c->v[GS_REQ_SPEED] = v;
		return;
	}
	v = S_v(GS_V_TO_CONFIRM, "why.speed.unknown");
	v.missing = "missing.speed";
	if (!sp->known || (w->has_req_ttft && !sp->has_ttft)) {
		S_speed_by_observed(w, sp, &v);
		c->v[GS_REQ_SPEED] = v;
		return;
	}
	v.has_milli = 1;
	v.evidence = gs_speed_source(sp);
	if (w->has_req_decode_seq && gs_speed_below(sp, 0, w->req_decode_seq_milli)) {
		v.kind = GS_V_EXCLUDE;
		v.why = "why.speed.below_seq";
		v.m1 = sp->decode_weights_milli;
		v.m2 = w->req_decode_seq_milli;
	} else if (w->has_req_decode_total && gs_speed_below(sp, 1, w->req_decode_total_milli)) {
		v.kind = GS_V_EXCLUDE;
		v.why = "why.speed.below_total";
		v.m1 = sp->decode_total_milli;
		v.m2 = w->req_decode_total_milli;
	} else if (w->has_req_ttft && gs_speed_ttft_above(sp, w->req_ttft_milli)) {
		v.kind = GS_V_EXCLUDE;
		v.why = "why.speed.ttft_above";
		v.m1 = sp->ttft_micro / 1000u;
		v.m2 = w->req_ttft_milli;
	} else {
		v.why = "why.speed.bound_reaches";
		v.m1 = w->has_req_decode_seq ? sp->decode_weights_milli
		       : w->has_req_decode_total ? sp->decode_total_milli : sp->ttft_micro / 1000u;
		v.m2 = w->has_req_decode_seq ? w->req_decode_seq_milli
		       : w->has_req_decode_total ? w->req_decode_total_milli : w->req_ttft_milli;
		S_speed_expected(w, sp, &v);
	}
	if (v.kind == GS_V_EXCLUDE) {
		v.basis = GS_BASIS_CALCULATED_CERTAINTY;
		v.missing = NULL;
	} else if (S_speed_by_observed(w, sp, &v)) {
		v.evidence = NULL;   /* the run, named in the reason, not the datasheet */
	}
	c->v[GS_REQ_SPEED] = v;
}

/*
 * The canonical model an offer names (its device name, else its model
 * name) when the vendor table gives it no memory figure (B300: offers list
 * 262.5 to 288 GiB per card, no one figure is cited for all), or NULL.
 * Its memory is checked against nothing, as before; its speed row holds.
 */
static const char *S_model_without_nominal(const gs_offer *o)
{
	gs_gpu_match how = GS_GPU_UNKNOWN;
	const char *m = NULL;

	if (o->device_name)
		m = gs_gpuname_canonical(o->device_name, &how);
	if (how == GS_GPU_UNKNOWN && o->gpu_model)
		m = gs_gpuname_canonical(o->gpu_model, &how);
	return m && !gs_gpuname_nominal_of(m) ? m : NULL;
}

/*
 * The speed bounds on the offer's lot (speed_offer.h): on its GPU model's
 * datasheet row; for a name several variants share (H100 with 80 GB: SXM
 * or PCIe), on the fastest variant its memory figure allows, when one row
 * is the highest in every figure: a decode bound is an upper bound, so the
 * fastest variant's holds for each (speed.h gs_speed_fastest).
 */
static void S_speed_bound(const gs_workload *w, const gs_sizing *s, gs_candidate *c,
			  gs_decision *d)
{
	const gs_offer *o = c->offer;
	const gs_speed_gpu *g = NULL;
	const char *models[3], *model;
	size_t n = 0;

	if (c->gpu)
		g = gs_speed_gpu_of(c->gpu->model);
	else if ((model = S_model_without_nominal(o)))
		g = gs_speed_gpu_of(model);
	else if (!o->memory_unknown &&
		 (n = gs_gpuname_allowed(o->gpu_model, o->device_name, o->nominal_bytes, models)) > 1)
		g = gs_speed_fastest(models, n);
	if (gs_speed_offer(w, s, g, o->cards, &c->speed) != 0)
		memset(&c->speed, 0, sizeof(c->speed));
	else if (g && !c->gpu && n > 1) {
		gs_speed *sp = &c->speed;
		char *src;

		sp->variant_of = o->device_name && gs_gpuname_allowed(NULL, o->device_name,
								      o->nominal_bytes, models)
				 ? o->device_name : o->gpu_model;
		src = gs_xasprintf("the fastest variant the name allows (%s, with the offer's memory "
				   "figure): %s; %s", sp->variant_of, g->model, g->source);
		gs_util_strvec_push(&d->variant_sources, src);
		sp->variant_source = src;
	}
}

/* The cost of a million output tokens at the bound, per kind of plan. */
static void S_mtok(gs_candidate *c)
{
	c->has_mtok_on_demand = c->on_demand.plan &&
		gs_speed_cost_per_mtok(&c->speed, c->on_demand.micro_per_hour, &c->mtok_on_demand) == 0;
	c->has_mtok_interruptible = c->interruptible.plan &&
		gs_speed_cost_per_mtok(&c->speed, c->interruptible.micro_per_hour, &c->mtok_interruptible) == 0;
}

/*** prices ***/

/* price (millionths) x mul / div, half up, exactly; -1 when it does not fit. */
static int S_micro(int64_t micro, unsigned __int128 mul, unsigned __int128 div, int64_t *out)
{
	unsigned __int128 v;

	if (micro < 0 || div == 0)
		return -1;
	v = (unsigned __int128)(uint64_t)micro;
	if (mul > 1 && v > (~(unsigned __int128)0) / mul)
		return -1;
	v = (v * mul + div / 2) / div;
	if (v > (unsigned __int128)INT64_MAX)
		return -1;
	*out = (int64_t)v;
	return 0;
}

/* The rate of one plan: per hour of the lot, per card-hour, per GiB-hour. */
static int S_rate_of(const gs_plan *p, const gs_candidate *c, gs_rate *r)
{
	uint64_t cards = c->offer->cards ? c->offer->cards : 1;

	memset(r, 0, sizeof(*r));
	if (!p->currency || p->hours == 0 ||
	    S_micro(gs_catalog_plan_micro(p), 1, p->hours, &r->micro_per_hour) ||
	    S_micro(gs_catalog_plan_micro(p), 1, (unsigned __int128)p->hours * cards,
		    &r->micro_per_card_hour))
		return -1;
	/* per GiB-hour of the card's memory (under a runtime, its total, not its budget) */
	if (c->capacity.present && c->capacity.bytes > 0 &&
	    S_micro(gs_catalog_plan_micro(p), (unsigned __int128)1 << 30,
		    (unsigned __int128)p->hours * cards *
		    (c->has_runtime ? c->card_total.bytes : c->capacity.bytes),
		    &r->micro_per_gib_hour) == 0)
		r->has_per_gib = 1;
	r->plan = p;
	return 0;
}

/*
 * The cheapest plan per hour of each kind (on-demand, interruptible), in
 * one currency: the budget's when a plan has it, else the first plan's.
 */
static void S_rates(const gs_workload *w, gs_candidate *c)
{
	const gs_offer *o = c->offer;
	const char *cur = NULL;
	size_t i;

	for (i = 0; i < o->nplans; i++) {
		const char *pc = o->plans[i].currency;
		if (!pc)
			continue;
		if (!cur || (w->has_budget && strcmp(pc, w->budget_currency) == 0))
			cur = pc;
	}
	for (i = 0; cur && i < o->nplans; i++) {
		const gs_plan *p = &o->plans[i];
		gs_rate r, *best = p->interruptible ? &c->interruptible : &c->on_demand;

		if (!p->currency || strcmp(p->currency, cur) != 0 || !S_plan_in_regions(w, p) || S_rate_of(p, c, &r))
			continue;
		if (!best->plan || r.micro_per_hour < best->micro_per_hour)
			*best = r;
	}
}

/*** headroom ***/

/*
 * What the capacity per card holds beyond the fixed terms (weights per
 * card, the reserve unless left out, the declared components), divided by
 * the KV bytes of one token of one sequence per card: a dense cache only
 * (a window or a static cache does not grow with the context).
 */
/*
 * The room the capacity per card leaves for the KV cache beyond the fixed
 * terms (the weights per card over split cards, the reserve and the
 * declared components unless without_reserve), as whole tokens of one
 * sequence at the required sequences and whole sequences at the required
 * context; 0 with the weakest provenance of the fixed terms in *prov, or
 * -1 when it is not calculated (no dense cache, no room).
 */
static int S_room(const S_in *in, const gs_candidate *c, gs_qty capacity, uint64_t split,
		  int without_reserve, uint64_t *tokens, uint64_t *seqs, gs_prov *prov)
{
	const gs_sizing *s = in->s;
	uint64_t fixed, per_token, room;
	gs_qty w, kv;

	if (in->w->cache != GS_CACHE_DENSE || !s->kv.present || !s->kv_tokens_kept ||
	    !s->kv_sequences || !capacity.present)
		return -1;
	/* a declared replicated part counts with the reserve, not without */
	S_terms_r(in, split, without_reserve, &w, &kv, NULL);
	/* KV bytes of one token of one sequence, per card (exact: the cache
	 * is that times tokens kept times sequences) */
	per_token = s->kv.bytes / s->kv_tokens_kept / s->kv_sequences;
	if (kv.bytes != s->kv.bytes)
		per_token = S_ceil_div(per_token, split);
	if (!per_token)
		return -1;
	fixed = w.bytes;
	*prov = gs_qty_prov_weakest(capacity.prov, w.prov);
	if (!without_reserve) {
		if (gs_qty_add_u64(fixed, s->reserve.bytes, &fixed))
			return -1;
		/* vLLM's profiling-step terms at this card's step budget */
		fixed = S_step_adjust(c, fixed);
		*prov = gs_qty_prov_weakest(*prov, s->reserve.prov);
		if (s->training.present) {
			if (gs_qty_add_u64(fixed, s->training.bytes, &fixed))
				return -1;
			*prov = gs_qty_prov_weakest(*prov, s->training.prov);
		}
	}
	if (fixed >= capacity.bytes)
		return -1;
	room = capacity.bytes - fixed;
	if (in->w->runtime.engine != GS_ENGINE_NONE) {
		/* vLLM's pool holds whole blocks, and a sequence whole blocks
		 * (kv_tokens_kept is a whole number of them); SGLang's pages
		 * are of one token */
		gs_runtime_settings rs;
		uint64_t blocks;
		if (gs_runtime_settings_of(in->w, &rs) != 0 || per_token > UINT64_MAX / rs.block_size)
			return -1;
		blocks = room / (per_token * rs.block_size);
		*tokens = blocks / s->kv_sequences * rs.block_size;
		*seqs = blocks / (s->kv_tokens_kept / rs.block_size);
		return 0;
	}
	*tokens = room / per_token / s->kv_sequences;
	*seqs = room / per_token / s->kv_tokens_kept;
	return 0;
}

static void S_headroom(const S_in *in, gs_candidate *c)
{
	if (c->cls != GS_CLASS_FITS && c->cls != GS_CLASS_LOWER_FITS)
		return;
	c->headroom_without_reserve = c->cls == GS_CLASS_LOWER_FITS;
	if (S_room(in, c, c->capacity, c->split, c->headroom_without_reserve, &c->headroom_tokens,
		   &c->headroom_sequences, &c->headroom_prov))
		return;
	c->headroom_synthetic = c->capacity.synthetic;
	c->has_headroom = 1;
}

int gs_verdict_candidate_room(const gs_workload *w, const gs_sizing *s, const gs_candidate *c,
		      uint64_t *tokens, uint64_t *seqs)
{
	S_in in;
	gs_prov prov;

	memset(&in, 0, sizeof(in));
	in.w = w;
	in.s = s;
	return S_room(&in, c, c->capacity, c->split ? c->split : 1, 1, tokens, seqs, &prov);
}

/* c's calculated lower bound per card with the term `now` taken out and
 * `other` put in its place; UINT64_MAX on overflow. */
static uint64_t S_lower_swap(const gs_candidate *c, uint64_t now, uint64_t other)
{
	uint64_t lower = c->lower.present && c->lower.bytes >= now ? c->lower.bytes - now : 0;

	return gs_qty_add_u64(lower, other, &lower) ? UINT64_MAX : lower;
}

/* The workload's weights and KV cache per card on c's split (S_terms). */
static void S_terms_of(const gs_workload *w, const gs_sizing *s, uint64_t sp, gs_qty *wq,
		       gs_qty *kq)
{
	S_in in;

	memset(&in, 0, sizeof(in));
	in.w = w;
	in.s = s;
	S_terms(&in, sp, wq, kq);
}

uint64_t gs_verdict_candidate_lower_with_weights(const gs_workload *w, const gs_sizing *s,
					 const gs_candidate *c, uint64_t weights)
{
	uint64_t sp = c->split ? c->split : 1;
	gs_qty wq, kq;

	S_terms_of(w, s, sp, &wq, &kq);
	return S_lower_swap(c, wq.bytes, S_ceil_div(weights, sp));
}

uint64_t gs_verdict_candidate_lower_with_kv(const gs_workload *w, const gs_sizing *s,
				    const gs_candidate *c, uint64_t kv)
{
	uint64_t sp = c->split ? c->split : 1;
	gs_qty wq, kq;

	S_terms_of(w, s, sp, &wq, &kq);
	return S_lower_swap(c, kq.present ? kq.bytes : 0,
			    sp > 1 && s->kv.present && gs_sizing_kv_splits(w, s, sp)
			    ? S_ceil_div(kv, sp) : kv);
}

/*** classes and ranking ***/

const char *gs_verdict_class_id(gs_class k)
{
	static const char *const ids[GS_CLASS_COUNT] = {
		"retained", "fits", "lower_bound_fits", "only_a_measurement", "capacity_unknown",
		"excluded", "reference"
	};
	return (unsigned)k < GS_CLASS_COUNT ? ids[k] : "?";
}

/*
 * Where a candidate stands: retained; its capacity holds the whole need;
 * holds the calculated lower bound only; neither a fit nor an exclusion;
 * capacity unknown; excluded; a reference card.
 */
static gs_class S_class(const S_in *in, const gs_candidate *c)
{
	const gs_verdict *m = &c->v[GS_REQ_MEMORY];

	if (gs_catalog_offer_is_reference(c->offer))
		return GS_CLASS_REFERENCE;
	if (c->excluded)
		return GS_CLASS_EXCLUDED;
	if (c->retained)
		return GS_CLASS_RETAINED;
	if (!c->capacity.present)
		return GS_CLASS_UNKNOWN;
	if (m->kind == GS_V_ADMISSIBLE)
		return GS_CLASS_FITS;
	if (c->need_from)
		return c->need.present && !m->lower_bound && c->need.bytes <= c->capacity.bytes
			       ? GS_CLASS_FITS : GS_CLASS_UNSURE;
	/* Several cards hold it only under a placement: without one, the
	 * whole need must fit on one card (memories never pool). */
	(void)in;
	if (c->need.present && c->need.bytes <= c->capacity.bytes)
		return GS_CLASS_FITS;
	if (c->lower.present && c->lower.bytes <= c->capacity.bytes)
		return GS_CLASS_LOWER_FITS;
	return GS_CLASS_UNSURE;
}

/*
 * The ranking keys of one candidate, computed once: the comparator reads
 * only these, so it is a plain lexicographic order (transitive) with no
 * global state. Cost ranks only within a class whose priced candidates all
 * share one currency: across currencies the next key decides.
 */
typedef struct {
	size_t idx;
	int cls;
	int mem_unconfirmed;    /* 0: memory admissible on evidence (listed first in its class) */
	int kind;               /* 0 priced on demand (or for the campaign), 1 interruptible only, 2 no price */
	size_t missing;         /* requirements to confirm */
	int priced;             /* 0 when cost ranks and a cost is known, else 1 */
	int64_t cost;           /* the campaign's total, else the price per hour */
	int has_margin;
	int64_t margin;
	int calendar;
	const char *id;
} S_rank;

static int S_rank_cmp(const void *pa, const void *pb)
{
	const S_rank *a = pa, *b = pb;

	if (a->cls != b->cls)
		return a->cls - b->cls;
	/* Among the offers that hold the need, those whose memory a piece of
	 * evidence confirms come before a calculated fit. */
	if (a->mem_unconfirmed != b->mem_unconfirmed)
		return a->mem_unconfirmed - b->mem_unconfirmed;
	/* A lot the provider may stop at any time comes after one it rents for
	 * as long as it is paid, whatever their prices. */
	if (a->kind != b->kind)
		return a->kind - b->kind;
	/* Cost (known before unknown), then useful margin, then calendar. */
	if (a->priced != b->priced)
		return a->priced - b->priced;
	if (a->priced == 0 && a->cost != b->cost)
		return a->cost < b->cost ? -1 : 1;
	if (a->has_margin != b->has_margin)
		return a->has_margin ? -1 : 1;
	if (a->has_margin && a->margin != b->margin)
		return a->margin > b->margin ? -1 : 1;
	if (a->missing != b->missing)
		return a->missing < b->missing ? -1 : 1;
	if (a->calendar != b->calendar)
		return a->calendar - b->calendar;
	return strcmp(a->id, b->id);
}

/* What a candidate costs for the ranking: the campaign's total when the
 * workload states one, else the price per hour of the lot (on-demand, else
 * interruptible); its currency, or NULL when there is no price. */
static const char *S_rank_cost(const gs_workload *w, const gs_candidate *c, int64_t *cost)
{
	/* requirements.rank_by "cost_per_token": a million output tokens at the
	 * bound, on-demand else interruptible; none: unpriced */
	if (w->rank_by_cost_per_token) {
		*cost = c->has_mtok_on_demand ? c->mtok_on_demand
			: c->has_mtok_interruptible ? c->mtok_interruptible : 0;
		return c->has_mtok_on_demand ? c->on_demand.plan->currency
		       : c->has_mtok_interruptible ? c->interruptible.plan->currency : NULL;
	}
	if (w->has_campaign) {
		*cost = c->plan ? c->cost : 0;
		return c->plan ? c->plan->currency : NULL;
	}
	if (c->on_demand.plan) {
		*cost = c->on_demand.micro_per_hour;
		return c->on_demand.plan->currency;
	}
	if (c->interruptible.plan) {
		*cost = c->interruptible.micro_per_hour;
		return c->interruptible.plan->currency;
	}
	*cost = 0;
	return NULL;
}

static void S_rank_all(const gs_workload *w, gs_decision *d)
{
	S_rank *k = gs_xcalloc(d->ncands ? d->ncands : 1, sizeof(*k));
	const char *currency[GS_CLASS_COUNT] = { NULL };
	int mixed[GS_CLASS_COUNT] = { 0 };
	size_t i;

	for (i = 0; i < d->ncands; i++) {
		const gs_candidate *c = &d->cands[i];
		int64_t cost;
		const char *cur = S_rank_cost(w, c, &cost);
		if (!cur)
			continue;
		if (!currency[c->cls])
			currency[c->cls] = cur;
		else if (strcmp(currency[c->cls], cur) != 0)
			mixed[c->cls] = 1;
	}
	for (i = 0; i < d->ncands; i++) {
		const gs_candidate *c = &d->cands[i];
		S_rank *r = &k[i];
		const char *cur = S_rank_cost(w, c, &r->cost);
		r->idx = i;
		r->cls = (int)c->cls;
		r->mem_unconfirmed = c->v[GS_REQ_MEMORY].kind != GS_V_ADMISSIBLE;
		r->kind = (w->has_campaign ? c->plan != NULL : c->on_demand.plan != NULL) ? 0
			  : c->interruptible.plan ? 1 : 2;
		r->missing = c->missing_count;
		r->priced = (cur && !mixed[c->cls]) ? 0 : 1;
		r->has_margin = c->has_margin;
		r->margin = c->margin;
		r->calendar = (int)c->v[GS_REQ_CALENDAR].kind;
		r->id = c->offer->id;
	}
	qsort(k, d->ncands, sizeof(*k), S_rank_cmp);
	for (i = 0; i < d->ncands; i++)
		d->order[i] = k[i].idx;
	free(k);
}

static int S_listed(const gs_workload *w, const char *id)
{
	size_t i;

	for (i = 0; i < w->ncandidates; i++)
		if (strcmp(w->candidates[i], id) == 0)
			return 1;
	return 0;
}

int gs_verdict_check_candidates(const gs_workload *w, const gs_catalog *cat, gs_diag *d)
{
	size_t i;
	int bad = 0;

	for (i = 0; i < w->ncandidates; i++)
		if (!gs_catalog_find(cat, w->candidates[i])) {
			char path[64];
			snprintf(path, sizeof(path), "$.candidates[%zu]", i);
			gs_diag_add(d, w->path, 0, 0, path,
				    "offer \"%s\" is not in the catalog used (%zu offers)",
				    w->candidates[i], cat->noffers);
			bad = 1;
		}
	return bad ? -1 : 0;
}

void gs_verdict_classify(const gs_workload *w, const gs_sizing *s, const gs_evidence *ev,
		 size_t nev, const gs_catalog *cat, int accept_synthetic, gs_decision *out)
{
	S_in in;
	size_t i;
	int r;

	memset(out, 0, sizeof(*out));
	in.w = w;
	in.s = s;
	in.ev = ev;
	in.nev = nev;
	in.accept_synthetic = accept_synthetic;
	out->accept_synthetic = accept_synthetic;
	for (i = 0; i < nev; i++)
		out->synthetic |= ev[i].m->synthetic;
	out->cands = gs_xcalloc(cat->noffers ? cat->noffers : 1, sizeof(*out->cands));
	out->order = gs_xcalloc(cat->noffers ? cat->noffers : 1, sizeof(*out->order));
	for (i = 0; i < cat->noffers; i++) {
		gs_candidate *c;

		if (w->ncandidates && !S_listed(w, cat->offers[i].id))
			continue;
		c = &out->cands[out->ncands];
		out->order[out->ncands] = out->ncands;
		out->ncands++;
		c->offer = &cat->offers[i];
		c->need = gs_qty_missing();
		c->capacity = gs_qty_missing();
		c->lower = gs_qty_missing();
		c->upper = gs_qty_missing();
		c->split = 1;
		c->gpu = gs_verdict_offer_gpu(c->offer);
		S_memory(&in, c);
		S_runtime_pool(&in, c);
		S_software(&in, c);
		S_compute(&in, c);
		S_calendar(w, c);
		S_budget(w, c);
		S_quality(w, c);
		S_host(w, s, c);
		S_regions(w, c);
		S_speed_bound(w, s, c, out);
		S_speed_observed(&in, c);
		S_speed(w, c);
		c->retained = 1;
		for (r = 0; r < GS_REQ_COUNT; r++) {
			if (c->v[r].kind == GS_V_EXCLUDE)
				c->excluded = 1;
			if (c->v[r].kind == GS_V_TO_CONFIRM)
				c->missing_count++;
			if (c->v[r].kind == GS_V_TO_CONFIRM || c->v[r].kind == GS_V_EXCLUDE)
				c->retained = 0;
			if (c->v[r].synthetic && c->v[r].kind != GS_V_TO_CONFIRM)
				c->synthetic = 1;
		}
		S_rates(w, c);
		S_mtok(c);
		c->cls = S_class(&in, c);
		S_headroom(&in, c);
		if (c->cls == GS_CLASS_REFERENCE)
			c->retained = 0;    /* a reference card is never proposed */
		out->nclass[c->cls]++;
		out->demonstration |= c->synthetic;
		if (c->retained)
			out->nretained++;
		else if (!c->excluded && c->cls != GS_CLASS_REFERENCE)
			out->npreselected++;
	}
	S_rank_all(w, out);
}

const gs_candidate *gs_verdict_best(const gs_decision *d)
{
	size_t i;

	/* The order lists the candidates by class: the first is the best of
	 * its class, and only the first three classes may be proposed. */
	for (i = 0; i < d->ncands; i++) {
		const gs_candidate *c = &d->cands[d->order[i]];
		if (c->cls <= GS_CLASS_LOWER_FITS)
			return c;
		break;
	}
	return NULL;
}

const gs_candidate *gs_verdict_first_of(const gs_decision *d, gs_class k)
{
	size_t i;

	for (i = 0; i < d->ncands; i++) {
		const gs_candidate *c = &d->cands[d->order[i]];
		if (c->cls == k)
			return c;
	}
	return NULL;
}

void gs_verdict_release(gs_decision *d)
{
	gs_util_strvec_release(&d->variant_sources);
	free(d->cands);
	free(d->order);
	memset(d, 0, sizeof(*d));
}

/*** the lot of an offer (equivalent offers) ***/

static int S_lot_same_str(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

/* the one hash (hash.h): a number, a string (NULL hashed apart from "") */
static uint64_t S_lot_mix(uint64_t h, uint64_t v)
{
	return gs_hash_mix(h, &v, sizeof(v));
}

static uint64_t S_lot_str(uint64_t h, const char *s)
{
	if (!s)
		return S_lot_mix(h, 0);
	return gs_hash_mix(S_lot_mix(h, 1), s, strlen(s));
}

uint64_t gs_verdict_offer_lot_hash(const gs_catalog *cat, const gs_offer *o)
{
	uint64_t h = S_lot_str(S_lot_str(0, o->provider), o->gpu_model);

	h = S_lot_mix(h, o->cards);
	h = S_lot_mix(h, o->memory_unknown ? 0 : o->nominal_bytes);
	h = S_lot_mix(h, (uint64_t)o->memory_origin);
	if (cat->origins)
		h = S_lot_str(h, gs_catalog_origin(cat, o));
	return h;
}

int gs_verdict_offer_same_lot(const gs_catalog *cat, const gs_offer *x, const gs_offer *y)
{
	if (!S_lot_same_str(x->provider, y->provider) || !S_lot_same_str(x->gpu_model, y->gpu_model) ||
	    x->cards != y->cards || x->memory_unknown != y->memory_unknown ||
	    x->nominal_bytes != y->nominal_bytes || !S_lot_same_str(x->mib_text, y->mib_text) ||
	    !S_lot_same_str(x->nominal_gb_text, y->nominal_gb_text) ||
	    x->memory_origin != y->memory_origin)
		return 0;
	return !cat->origins ||
	       S_lot_same_str(gs_catalog_origin(cat, x), gs_catalog_origin(cat, y));
}
