/*
 * Classification tests: one case per rule of DESIGN.md "Classification".
 * Workloads, offers and measurements are built in code (zeroed structs, the
 * needed fields set, strings pointing to literals; no release function is
 * called on them), sized with gs_sizing_workload and classified with
 * gs_verdict_classify. Each case checks the verdict kind AND its reason key.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog.h"
#include "check.h"
#include "measurement.h"
#include "sizing.h"
#include "runtime.h"
#include "verdict.h"
#include "workload.h"

/* The structs hold char *; the strings here are literals never written to. */
static char *S_s(const char *s)
{
	return (char *)(uintptr_t)s;
}

#define GIB UINT64_C(1073741824)
#define GB UINT64_C(1000000000)

/* Checks kind and reason key of one verdict, and says which on failure. */
#define VERDICT(cand, req, k, key) S_verdict((cand), (req), (k), (key), __FILE__, __LINE__)

static void S_verdict(const gs_candidate *c, gs_req req, gs_verdict_kind k, const char *key,
		      const char *file, int line)
{
	const gs_verdict *v = &c->v[req];

	gs_check_at(v->kind == k && STREQ(v->why, key), file, line,
		    "%s/%s: got %s '%s', expected %s '%s'", c->offer->id, gs_verdict_req_id(req),
		    gs_verdict_id(v->kind), v->why ? v->why : "(null)", gs_verdict_id(k), key);
}

/*** builders ***/

static gs_dim S_wdims[] = { { "input_tokens", 8192 }, { "batch", 1 } };

/* 7e9 parameters in bf16: weights 14e9 B, no cache, no reserve: need 14e9 B. */
static void S_workload(gs_workload *w)
{
	memset(w, 0, sizeof(*w));
	w->id = "t";
	w->title = "t";
	w->model_name = "m";
	w->parameters = UINT64_C(7000000000);
	w->task = GS_TASK_INFERENCE;
	w->storage_bits = 16;
	w->storage_format = "bf16";
	w->compute_format = "bf16";
	w->dims = S_wdims;
	w->ndims = 2;
	w->cache = GS_CACHE_NONE;
}

static void S_claim(gs_claim *c, const char *source, const char *date)
{
	c->source = S_s(source);
	c->date = S_s(date);
}

/* 1.00 USD per hour, never written */
static gs_plan S_default_plan = { .hours = 1, .price_hundredths = 100, .currency = (char *)"USD",
	.claim = { (char *)"price page", (char *)"2026-11-01", NULL } };

static void S_offer(gs_offer *o, const char *id, const char *model, const char *device_name,
		    uint64_t cards, uint64_t nominal_gb)
{
	memset(o, 0, sizeof(*o));
	o->id = S_s(id);
	o->gpu_model = S_s(model);
	o->device_name = S_s(device_name);
	o->cards = cards;
	o->nominal_gb_text = "x";
	o->nominal_bytes = nominal_gb * GB;
	S_claim(&o->memory_claim, "vendor page", "2026-11-01");
	/* a rentable offer: a provider and a priced plan (S_plans replaces it,
	 * S_reference removes both) */
	o->provider = S_s("prov");
	o->plans = &S_default_plan;
	o->nplans = 1;
}

/* A reference card: no provider, no plan. */
static void S_reference(gs_offer *o)
{
	o->provider = NULL;
	o->plans = NULL;
	o->nplans = 0;
}

static void S_plan(gs_plan *p, uint64_t hours, int64_t price, const char *currency)
{
	memset(p, 0, sizeof(*p));
	p->hours = hours;
	p->price_hundredths = price;
	p->currency = S_s(currency);
	S_claim(&p->claim, "price page", "2026-11-01");
}

static void S_plans(gs_offer *o, gs_plan *plans, size_t nplans)
{
	o->plans = plans;
	o->nplans = nplans;
}

/* The capacity a card reports, per card. */
static void S_declared(gs_offer *o, uint64_t bytes)
{
	o->declared_bytes = bytes;
	o->has_declared_bytes = 1;
	S_claim(&o->declared_claim, "device query", "2026-11-01");
}

/* Host RAM of the lot, from the host page. */
static void S_host_ram(gs_offer *o, uint64_t bytes)
{
	o->host_ram_bytes = bytes;
	o->has_host_ram = 1;
	S_claim(&o->host_ram_claim, "host page", "2026-11-04");
}

static void S_interconnect(gs_offer *o, const char *name)
{
	o->interconnect = S_s(name);
	S_claim(&o->interconnect_claim, "host page", "2026-11-04");
}

static void S_software(gs_software *sw, const char *name, int installed, const char *source)
{
	memset(sw, 0, sizeof(*sw));
	sw->name = S_s(name);
	sw->installed = installed;
	S_claim(&sw->claim, source, "2026-11-02");
}

/* Available from one day to another (claim not set). */
static void S_window(gs_availability *a, const char *from, const char *to)
{
	a->kind = GS_AVAIL_WINDOW;
	a->from = S_s(from);
	a->to = S_s(to);
}

/* A campaign of days from start; start NULL: no campaign. */
static void S_campaign(gs_workload *w, const char *start, uint64_t days)
{
	w->campaign_start = S_s(start);
	w->campaign_days = days;
	w->has_campaign = start != NULL;
}

static void S_budget(gs_workload *w, int64_t hundredths, const char *currency)
{
	w->budget_hundredths = hundredths;
	w->budget_currency = S_s(currency);
	w->has_budget = 1;
}

static void S_device(gs_device *d, uint64_t index, const char *name, uint64_t total)
{
	memset(d, 0, sizeof(*d));
	d->index = index;
	d->name = S_s(name);
	d->total_bytes.v = total;
	d->total_bytes.has = total != 0;
}

/* A phase with peak reserved only; status and error as given. */
static void S_phase(gs_phase *p, const char *name, uint64_t device, gs_phase_status st,
		    const char *error, uint64_t reserved_peak)
{
	memset(p, 0, sizeof(*p));
	p->name = S_s(name);
	p->device = device;
	p->status = st;
	p->error = S_s(error);
	p->reserved_peak.v = reserved_peak;
	p->reserved_peak.has = reserved_peak != 0;
	/* Reserved and device used read at the same end checkpoint: nothing
	 * outside the allocator, a real 0 (not a missing reading). */
	p->reserved_end = p->reserved_peak;
	p->used_end = p->reserved_peak;
}

/* A measurement with dims input_tokens and batch, as given. */
typedef struct {
	gs_measurement m;
	gs_kv fw[1];
	gs_kv dims[3];
	char num[2][24];
	gs_device dev[2];
	gs_phase ph[4];
	gs_evidence_ref ref;
} S_meas;

static void S_measurement(S_meas *s, const char *file, uint64_t input_tokens, uint64_t batch)
{
	memset(s, 0, sizeof(*s));
	s->m.schema = "gpusheet-measurement";
	s->m.schema_version = 1;
	s->m.code = "test";
	s->m.date = "2026-11-20";
	s->m.backend = "cuda";
	snprintf(s->num[0], sizeof(s->num[0]), "%llu", (unsigned long long)batch);
	snprintf(s->num[1], sizeof(s->num[1]), "%llu", (unsigned long long)input_tokens);
	/* sorted by name, as the reader keeps them */
	s->dims[0].name = "batch";
	s->dims[0].value = s->num[0];
	s->dims[0].number = batch;
	s->dims[0].is_number = 1;
	s->dims[1].name = "dtype";
	s->dims[1].value = "bfloat16";   /* an alias of the workload's bf16 */
	s->dims[2].name = "input_tokens";
	s->dims[2].value = s->num[1];
	s->dims[2].number = input_tokens;
	s->dims[2].is_number = 1;
	s->m.dims = s->dims;
	s->m.ndims = 3;
	/* the versions the run recorded */
	s->fw[0].name = "torch";
	s->fw[0].value = "2.5.1+cu124";
	s->m.frameworks = s->fw;
	s->m.nframeworks = 1;
	s->m.runtime = "12.4";
	s->m.driver = "550.54.15";
	s->m.devices = s->dev;
	s->m.phases = s->ph;
	s->ref.file = S_s(file);
	s->ref.path = S_s(file);
	s->ref.covers = "test";
}

/* A measurement on one device, batch 1; phases still to add. */
static void S_meas_one(S_meas *s, const char *file, const char *dev, uint64_t total,
		       uint64_t input_tokens)
{
	S_measurement(s, file, input_tokens, 1);
	S_device(&s->dev[0], 0, dev, total);
	s->m.ndevices = 1;
}

/* One device, phases model_load + cold_forward ok with the given peak. */
static void S_meas_ok(S_meas *s, const char *file, const char *dev, uint64_t total,
		      uint64_t input_tokens, uint64_t peak)
{
	S_meas_one(s, file, dev, total, input_tokens);
	S_phase(&s->ph[0], "model_load", 0, GS_PHASE_OK, NULL, peak / 2);
	S_phase(&s->ph[1], "cold_forward", 0, GS_PHASE_OK, NULL, peak);
	s->m.nphases = 2;
}

/* One device, cold_forward fails with an out-of-memory error. */
static void S_meas_oom(S_meas *s, const char *file, const char *dev, uint64_t total,
		       uint64_t input_tokens)
{
	S_meas_one(s, file, dev, total, input_tokens);
	S_phase(&s->ph[0], "model_load", 0, GS_PHASE_OK, NULL, 14 * GB);
	S_phase(&s->ph[1], "cold_forward", 0, GS_PHASE_FAILED,
		"CUDA out of memory. Tried to allocate 688.00 MiB", total - GIB);
	S_phase(&s->ph[2], "warm_forward", 0, GS_PHASE_NOT_RUN, NULL, 0);
	s->m.nphases = 3;
}

/* --accept-synthetic for the next classifications. */
static int S_accept_synthetic;

/* Classifies w against the offers with the measurements; returns the decision. */
static void S_classify(const gs_workload *w, gs_offer *offers, size_t noffers,
		       S_meas **ms, size_t nms, gs_decision *d)
{
	gs_sizing s;
	gs_catalog cat;
	gs_evidence ev[8];
	gs_error err = GS_ERROR_INIT;
	size_t i;

	if (gs_sizing_workload(w, &s, &err)) {
		fprintf(stderr, "sizing failed: %s\n", gs_error_message(&err));
		abort();
	}
	memset(&cat, 0, sizeof(cat));
	cat.title = "test";
	cat.offers = offers;
	cat.noffers = noffers;
	for (i = 0; i < nms; i++) {
		ev[i].m = &ms[i]->m;
		ev[i].ref = &ms[i]->ref;
	}
	gs_verdict_classify(w, &s, ev, nms, &cat, S_accept_synthetic, d);
	gs_error_release(&err);
}

static const gs_candidate *S_cand(const gs_decision *d, const char *id)
{
	size_t i;

	for (i = 0; i < d->ncands; i++)
		if (strcmp(d->cands[i].offer->id, id) == 0)
			return &d->cands[i];
	fprintf(stderr, "no candidate %s\n", id);
	abort();
}

/* Classifies w against the offers and checks one verdict of one of them,
 * for the cases that need no more of the decision. */
#define CLASSIFY_VERDICT(w, offers, noffers, ms, nms, id, req, k, key)                 \
	S_classify_verdict((w), (offers), (noffers), (ms), (nms), (id), (req), (k), (key), \
			   __FILE__, __LINE__)

static void S_classify_verdict(const gs_workload *w, gs_offer *offers, size_t noffers,
			       S_meas **ms, size_t nms, const char *id, gs_req req,
			       gs_verdict_kind k, const char *key, const char *file, int line)
{
	gs_decision d;

	S_classify(w, offers, noffers, ms, nms, &d);
	S_verdict(S_cand(&d, id), req, k, key, file, line);
	gs_verdict_release(&d);
}

/* Position of an offer in the ranking. */
static size_t S_rank(const gs_decision *d, const char *id)
{
	size_t i;

	for (i = 0; i < d->ncands; i++)
		if (strcmp(d->cands[d->order[i]].offer->id, id) == 0)
			return i;
	return (size_t)-1;
}

/* A structured software requirement: torch >= 2.5. */
static gs_sw_req S_torch25[] = { { "torch", "2.5" } };

static const char *const S_4090 = "NVIDIA GeForce RTX 4090";
static const char *const S_6000 = "NVIDIA RTX 6000 Ada Generation";
#define T4090 UINT64_C(25757220864)
#define T6000 UINT64_C(51527024640)

/*** memory ***/

static void test_memory_observed_fits(void)
{
	gs_workload w;
	gs_offer o[1];
	S_meas m, *ms[] = { &m };
	gs_decision d;
	const gs_candidate *c;

	S_workload(&w);
	S_offer(&o[0], "ada-1x", "RTX 6000 Ada", NULL, 1, 48);
	S_meas_ok(&m, "run.json", S_6000, T6000, 8192, 20 * GIB);
	S_classify(&w, o, 1, ms, 1, &d);
	c = S_cand(&d, "ada-1x");
	VERDICT(c, GS_REQ_MEMORY, GS_V_ADMISSIBLE, "why.memory.observed_fits");
	CHECK(c->cap_source == GS_CAP_OBSERVED);
	CHECK(c->capacity.present && c->capacity.bytes == T6000 &&
	      c->capacity.prov == GS_PROV_OBSERVED);
	CHECK(c->need.present && c->need.bytes == 20 * GIB && c->need.prov == GS_PROV_OBSERVED);
	CHECK(c->need_from && c->need_from->ref == &m.ref);
	CHECK(c->has_margin && c->margin == (int64_t)(T6000 - 20 * GIB));
	CHECK_STR(c->v[GS_REQ_MEMORY].evidence, "run.json");
	CHECK_STR(c->v[GS_REQ_MEMORY].evidence_date, "2026-11-20");
	/* nothing else is required: retained */
	CHECK(c->retained && !c->excluded);
	CHECK(d.nretained == 1 && d.npreselected == 0);
	gs_verdict_release(&d);
}

/* A successful run below the required dimensions gives no observed need. */
static void test_memory_observed_not_covering(void)
{
	gs_workload w;
	gs_offer o[1];
	S_meas m, *ms[] = { &m };
	gs_decision d;
	const gs_candidate *c;

	S_workload(&w);
	S_offer(&o[0], "ada-1x", "RTX 6000 Ada", NULL, 1, 48);
	S_meas_ok(&m, "run.json", S_6000, T6000, 4096, 20 * GIB);
	S_classify(&w, o, 1, ms, 1, &d);
	c = S_cand(&d, "ada-1x");
	VERDICT(c, GS_REQ_MEMORY, GS_V_TO_CONFIRM, "why.memory.calc_fits");
	CHECK(c->need_from == NULL);
	CHECK(c->need.prov != GS_PROV_OBSERVED);
	gs_verdict_release(&d);
}

static void test_memory_calculated_only(void)
{
	gs_workload w;
	gs_offer o[2];
	gs_decision d;
	const gs_candidate *c;

	S_workload(&w);
	S_offer(&o[0], "big-1x", "RTX 6000 Ada", NULL, 1, 48);
	S_offer(&o[1], "small-1x", "T4", NULL, 1, 12);
	S_classify(&w, o, 2, NULL, 0, &d);
	/* need (14e9 B) far below capacity: still only to confirm */
	c = S_cand(&d, "big-1x");
	VERDICT(c, GS_REQ_MEMORY, GS_V_TO_CONFIRM, "why.memory.calc_fits");
	CHECK(c->v[GS_REQ_MEMORY].has_margin);
	CHECK(c->v[GS_REQ_MEMORY].margin == (int64_t)(48 * GB - 14 * GB));
	CHECK(c->has_margin && c->margin == (int64_t)(34 * GB));
	CHECK_STR(c->v[GS_REQ_MEMORY].missing, "missing.measurement");
	CHECK(c->v[GS_REQ_MEMORY].a.present && c->v[GS_REQ_MEMORY].a.bytes == 14 * GB);
	CHECK(c->need.prov == GS_PROV_CALCULATED);
	CHECK(c->cap_source == GS_CAP_NOMINAL && c->capacity.bytes == 48 * GB &&
	      c->capacity.prov == GS_PROV_ASSUMED);
	CHECK(!c->retained && !c->excluded);
	/* need above a one-card capacity (weights alone 14e9 > 12e9 would exclude,
	 * so this one is excluded by arithmetic; see test_memory_weights_exceed) */
	c = S_cand(&d, "small-1x");
	VERDICT(c, GS_REQ_MEMORY, GS_V_EXCLUDE, "why.memory.lower_exceeds_card");
	gs_verdict_release(&d);

	/* need above capacity but weights below: to confirm, negative margin */
	{
		gs_item r[1];
		memset(r, 0, sizeof(r));
		r[0].name = "reserve";
		r[0].bytes = 12 * GB;
		r[0].unit = "GB";
		r[0].amount = "12";
		w.reserve = r;
		w.nreserve = 1;
		/* an L4: 24 GB nominal, no reported total in the vendor table */
		S_offer(&o[0], "mid-1x", "L4", NULL, 1, 24);
		S_classify(&w, o, 1, NULL, 0, &d);
		c = S_cand(&d, "mid-1x");
		VERDICT(c, GS_REQ_MEMORY, GS_V_TO_CONFIRM, "why.memory.calc_above");
		CHECK(c->v[GS_REQ_MEMORY].has_margin &&
		      c->v[GS_REQ_MEMORY].margin == -(int64_t)(2 * GB));
		CHECK(c->need.prov == GS_PROV_ASSUMED);   /* reserve is assumed */
		CHECK(!c->excluded);
		gs_verdict_release(&d);
	}
}

static void test_memory_observed_failure(void)
{
	gs_workload w;
	gs_offer o[3];
	S_meas m, *ms[] = { &m };
	gs_decision d;
	const gs_candidate *c;

	S_workload(&w);
	/* same model, capacity read on the device */
	S_offer(&o[0], "rtx4090-1x", "RTX 4090", NULL, 1, 24);
	/* another model, smaller than the card that failed */
	S_offer(&o[1], "l4-1x", "L4", NULL, 1, 24);
	/* another model, larger: a failure on a smaller card does not exclude it */
	S_offer(&o[2], "ada-1x", "RTX 6000 Ada", NULL, 1, 48);
	/* failure at smaller dimensions than required (4096 <= 8192) */
	S_meas_oom(&m, "oom.json", S_4090, T4090, 4096);
	S_classify(&w, o, 3, ms, 1, &d);

	c = S_cand(&d, "rtx4090-1x");
	VERDICT(c, GS_REQ_MEMORY, GS_V_EXCLUDE, "why.memory.observed_failure");
	CHECK_STR(c->v[GS_REQ_MEMORY].s1, "cold_forward");
	CHECK_STR(c->v[GS_REQ_MEMORY].s2, S_4090);
	CHECK_STR(c->v[GS_REQ_MEMORY].evidence, "oom.json");
	CHECK(c->excluded && !c->retained);

	/* Another model: the failed card's total (25.76e9 B) is above the L4's
	 * 24e9 B, but the free memory at the run's start was not recorded, so
	 * nothing says the L4 would fail too (finding 2). */
	c = S_cand(&d, "l4-1x");
	VERDICT(c, GS_REQ_MEMORY, GS_V_TO_CONFIRM, "why.memory.calc_fits");
	CHECK_STR(c->v[GS_REQ_MEMORY].note, "note.failure_other_gpu_free_unknown");
	CHECK(!c->excluded);

	c = S_cand(&d, "ada-1x");
	VERDICT(c, GS_REQ_MEMORY, GS_V_TO_CONFIRM, "why.memory.calc_fits");
	CHECK(!c->excluded);
	CHECK(d.npreselected == 2 && d.nretained == 0);
	/* excluded ones are ranked last */
	CHECK(S_rank(&d, "rtx4090-1x") == 2);
	gs_verdict_release(&d);

	/* 24.5e9 B free at the start, at least the L4's 24e9 B: excluded;
	 * counter-case: 23.9e9 B free is not enough. */
	m.dev[0].free_bytes.v = UINT64_C(24500000000);
	m.dev[0].free_bytes.has = 1;
	S_classify(&w, o, 3, ms, 1, &d);
	c = S_cand(&d, "l4-1x");
	VERDICT(c, GS_REQ_MEMORY, GS_V_EXCLUDE, "why.memory.observed_failure_free");
	CHECK(c->v[GS_REQ_MEMORY].basis == GS_BASIS_OBSERVED_FAILURE);
	CHECK_STR(c->v[GS_REQ_MEMORY].orientation, "orient.generation");
	CHECK(c->v[GS_REQ_MEMORY].a.bytes == UINT64_C(24500000000));
	VERDICT(S_cand(&d, "ada-1x"), GS_REQ_MEMORY, GS_V_TO_CONFIRM, "why.memory.calc_fits");
	gs_verdict_release(&d);
	m.dev[0].free_bytes.v = UINT64_C(23900000000);
	S_classify(&w, o, 3, ms, 1, &d);
	c = S_cand(&d, "l4-1x");
	VERDICT(c, GS_REQ_MEMORY, GS_V_TO_CONFIRM, "why.memory.calc_fits");
	CHECK_STR(c->v[GS_REQ_MEMORY].note, "note.failure_other_gpu");
	gs_verdict_release(&d);

	/* at exactly the required dimensions: excludes as well */
	S_meas_oom(&m, "oom.json", S_4090, T4090, 8192);
	CLASSIFY_VERDICT(&w, o, 1, ms, 1, "rtx4090-1x",
			 GS_REQ_MEMORY, GS_V_EXCLUDE, "why.memory.observed_failure");
}

static void test_memory_failure_larger_dims(void)
{
	gs_workload w;
	gs_offer o[1];
	S_meas m, *ms[] = { &m };
	gs_decision d;
	const gs_candidate *c;

	S_workload(&w);
	S_offer(&o[0], "rtx4090-1x", "RTX 4090", NULL, 1, 24);
	/* OOM at 16384 tokens, more than the 8192 required: no exclusion */
	S_meas_oom(&m, "oom.json", S_4090, T4090, 16384);
	S_classify(&w, o, 1, ms, 1, &d);
	c = S_cand(&d, "rtx4090-1x");
	VERDICT(c, GS_REQ_MEMORY, GS_V_TO_CONFIRM, "why.memory.calc_fits");
	CHECK(!c->excluded);
	/* the device's total still serves as capacity */
	CHECK(c->cap_source == GS_CAP_OBSERVED && c->capacity.bytes == T4090);
	gs_verdict_release(&d);

	/* a failure that is not out of memory does not exclude either */
	S_meas_oom(&m, "crash.json", S_4090, T4090, 8192);
	m.ph[1].error = "illegal instruction";
	CLASSIFY_VERDICT(&w, o, 1, ms, 1, "rtx4090-1x",
			 GS_REQ_MEMORY, GS_V_TO_CONFIRM, "why.memory.calc_fits");
}

static void test_memory_weights_exceed(void)
{
	gs_workload w;
	gs_offer o[3];
	gs_decision d;
	const gs_candidate *c;

	S_workload(&w);
	w.parameters = UINT64_C(70000000000);   /* 140e9 B of weights */
	S_offer(&o[0], "h100-1x", "H100 SXM", NULL, 1, 80);
	S_offer(&o[1], "h100-2x", "H100 SXM", NULL, 2, 80);
	S_offer(&o[2], "l40s-2x", "L40S", NULL, 2, 48);
	S_classify(&w, o, 3, NULL, 0, &d);

	/* the lower bound (the weights: no cache) against the upper bound of
	 * the card, its nominal 80 GB read in GiB */
	c = S_cand(&d, "h100-1x");
	VERDICT(c, GS_REQ_MEMORY, GS_V_EXCLUDE, "why.memory.lower_exceeds_card");
	CHECK(c->v[GS_REQ_MEMORY].a.bytes == 140 * GB);
	CHECK(c->v[GS_REQ_MEMORY].b.bytes == 80 * GIB);
	CHECK(c->v[GS_REQ_MEMORY].w.bytes == 140 * GB && !c->v[GS_REQ_MEMORY].kv.present);
	CHECK(c->excluded && !c->retained);

	/* two cards of 80: the weights fit the lot, the need is above one card,
	 * no placement: to confirm, placement and a measurement missing */
	c = S_cand(&d, "h100-2x");
	VERDICT(c, GS_REQ_MEMORY, GS_V_TO_CONFIRM, "why.memory.calc_needs_placement");
	CHECK_STR(c->v[GS_REQ_MEMORY].missing, "missing.placement_and_measurement");
	CHECK(!c->excluded);

	/* two cards of 48 hold 96e9 B: the weights alone exceed the lot */
	c = S_cand(&d, "l40s-2x");
	VERDICT(c, GS_REQ_MEMORY, GS_V_EXCLUDE, "why.memory.lower_exceeds_lot");
	CHECK(c->v[GS_REQ_MEMORY].a.bytes == 70 * GB && c->v[GS_REQ_MEMORY].split == 2);
	CHECK(c->excluded);
	gs_verdict_release(&d);

	/* with a documented placement */
	w.placement = "tensor parallel over 2 cards";
	S_classify(&w, o, 2, NULL, 0, &d);
	c = S_cand(&d, "h100-2x");
	VERDICT(c, GS_REQ_MEMORY, GS_V_TO_CONFIRM, "why.memory.calc_placement");
	CHECK_STR(c->v[GS_REQ_MEMORY].missing, "missing.measurement");
	VERDICT(S_cand(&d, "h100-1x"), GS_REQ_MEMORY, GS_V_EXCLUDE, "why.memory.lower_exceeds_card");
	gs_verdict_release(&d);
}

/* A two-device run on a two-card lot. */
static void test_memory_multi_card(void)
{
	static const char *const dev = "NVIDIA H100 80GB HBM3";
	const uint64_t total = UINT64_C(85520809984);
	gs_workload w;
	gs_offer o[2];
	S_meas m, *ms[] = { &m };
	gs_decision d;
	const gs_candidate *c;

	S_workload(&w);
	S_offer(&o[0], "h100-2x", "H100 SXM", dev, 2, 80);
	S_offer(&o[1], "h100-1x", "H100 SXM", dev, 1, 80);
	S_measurement(&m, "tp2.json", 8192, 1);
	S_device(&m.dev[0], 0, dev, total);
	S_device(&m.dev[1], 1, dev, total);
	m.m.ndevices = 2;
	S_phase(&m.ph[0], "cold_forward", 0, GS_PHASE_OK, NULL, 40 * GIB);
	S_phase(&m.ph[1], "cold_forward", 1, GS_PHASE_OK, NULL, 41 * GIB);
	m.m.nphases = 2;
	S_classify(&w, o, 2, ms, 1, &d);

	c = S_cand(&d, "h100-2x");
	VERDICT(c, GS_REQ_MEMORY, GS_V_TO_CONFIRM, "why.memory.multi_card_no_placement");
	CHECK_STR(c->v[GS_REQ_MEMORY].missing, "missing.placement");
	CHECK_U64(c->need.bytes, 41 * GIB);   /* the busiest device, not a sum */
	CHECK(!c->retained && !c->excluded);
	/* a two-device run says nothing of a one-card lot */
	c = S_cand(&d, "h100-1x");
	VERDICT(c, GS_REQ_MEMORY, GS_V_TO_CONFIRM, "why.memory.calc_fits");
	gs_verdict_release(&d);

	w.placement = "tensor parallel over the 2 cards";
	S_classify(&w, o, 2, ms, 1, &d);
	c = S_cand(&d, "h100-2x");
	VERDICT(c, GS_REQ_MEMORY, GS_V_ADMISSIBLE, "why.memory.observed_fits");
	CHECK(c->need.bytes == 41 * GIB && c->capacity.bytes == total);
	CHECK(c->retained);
	gs_verdict_release(&d);
}

static void test_memory_capacity_sources(void)
{
	gs_workload w;
	gs_offer o[2];
	S_meas m, *ms[] = { &m };
	gs_decision d;
	const gs_candidate *c;

	S_workload(&w);
	S_offer(&o[0], "decl-1x", "RTX 4090", NULL, 1, 24);
	S_declared(&o[0], T4090);
	S_offer(&o[1], "nom-1x", "RTX 6000 Ada", NULL, 1, 48);
	S_classify(&w, o, 2, NULL, 0, &d);
	/* the RTX 4090's reported total (23.64 GiB, cited in the vendor table)
	 * is the capacity: a declared figure above it does not raise it */
	c = S_cand(&d, "decl-1x");
	CHECK(c->cap_source == GS_CAP_REPORTED && c->gpu && strcmp(c->gpu->model, "RTX 4090") == 0);
	CHECK(c->capacity.bytes == UINT64_C(25383256719) && c->capacity.prov == GS_PROV_ASSUMED);
	CHECK(c->margin == (int64_t)(UINT64_C(25383256719) - 14 * GB));
	/* no reported total: the nominal figure in decimal GB */
	c = S_cand(&d, "nom-1x");
	CHECK(c->cap_source == GS_CAP_NOMINAL && c->capacity.bytes == 48 * GB);
	gs_verdict_release(&d);

	/* a declared figure below it lowers it */
	S_declared(&o[0], 23 * GIB);
	S_classify(&w, o, 2, NULL, 0, &d);
	c = S_cand(&d, "decl-1x");
	CHECK(c->cap_source == GS_CAP_DECLARED && c->capacity.bytes == 23 * GIB);
	gs_verdict_release(&d);
	S_declared(&o[0], T4090);

	/* observed total bytes beat declared (even below the declared figure) */
	S_meas_ok(&m, "run.json", S_4090, UINT64_C(25000000000), 4096, 10 * GIB);
	S_classify(&w, o, 2, ms, 1, &d);
	c = S_cand(&d, "decl-1x");
	CHECK(c->cap_source == GS_CAP_OBSERVED);
	CHECK(c->capacity.bytes == UINT64_C(25000000000) && c->capacity.prov == GS_PROV_OBSERVED);
	/* a device of another model does not give this offer its capacity */
	c = S_cand(&d, "nom-1x");
	CHECK(c->cap_source == GS_CAP_NOMINAL);
	gs_verdict_release(&d);
}

/*** software ***/

static void test_software(void)
{
	gs_workload w;
	gs_offer o[4];
	gs_software sw[2];
	S_meas m, *ms[] = { &m };
	gs_decision d;
	const gs_candidate *c;

	S_workload(&w);
	S_offer(&o[0], "ada-1x", "RTX 6000 Ada", NULL, 1, 48);
	S_offer(&o[1], "ada-b-1x", "RTX 6000 Ada", NULL, 1, 48);
	S_offer(&o[2], "h200-1x", "H200", NULL, 1, 141);
	S_offer(&o[3], "l40s-1x", "L40S", NULL, 1, 48);
	S_software(&sw[0], "Ubuntu 22.04, CUDA 12.4, PyTorch 2.5", 1, "provider page");
	/* on request only */
	S_software(&sw[1], "Ubuntu 22.04, CUDA 12.4, PyTorch 2.5", 0, "provider page");
	o[0].software = &sw[0];
	o[0].nsoftware = 1;
	o[1].software = &sw[1];
	o[1].nsoftware = 1;
	o[2].software = &sw[0];
	o[2].nsoftware = 1;

	/* not required */
	CLASSIFY_VERDICT(&w, o, 4, NULL, 0, "ada-1x",
			 GS_REQ_SOFTWARE, GS_V_NOT_REQUIRED, "why.not_required");

	w.req_sw = S_torch25;
	w.nreq_sw = 1;
	w.has_req_software = 1;
	S_meas_ok(&m, "run.json", S_6000, T6000, 8192, 20 * GIB);
	S_classify(&w, o, 4, ms, 1, &d);
	/* listed as installed and a successful run on the same GPU model */
	c = S_cand(&d, "ada-1x");
	VERDICT(c, GS_REQ_SOFTWARE, GS_V_ADMISSIBLE, "why.software.installed_and_ran");
	CHECK_STR(c->v[GS_REQ_SOFTWARE].evidence, "run.json");
	CHECK(c->retained);
	/* on request only: not documented as installed, although a run on this
	 * GPU model met the versions: the offer must document it */
	c = S_cand(&d, "ada-b-1x");
	VERDICT(c, GS_REQ_SOFTWARE, GS_V_TO_CONFIRM, "why.software.ran_not_listed");
	CHECK_STR(c->v[GS_REQ_SOFTWARE].missing, "missing.software_listed");
	/* listed only: no run on this GPU model */
	c = S_cand(&d, "h200-1x");
	VERDICT(c, GS_REQ_SOFTWARE, GS_V_TO_CONFIRM, "why.software.listed_only");
	CHECK_STR(c->v[GS_REQ_SOFTWARE].missing, "missing.software_run");
	CHECK(!c->retained);
	/* not listed */
	VERDICT(S_cand(&d, "l40s-1x"), GS_REQ_SOFTWARE, GS_V_TO_CONFIRM, "why.software.undocumented");
	gs_verdict_release(&d);

	/* a failed run is not a run in the environment */
	S_meas_oom(&m, "oom.json", S_6000, T6000, 16384);
	CLASSIFY_VERDICT(&w, o, 1, ms, 1, "ada-1x",
			 GS_REQ_SOFTWARE, GS_V_TO_CONFIRM, "why.software.listed_only");

	/* Versions decide: a run that recorded torch 2.4.1 does not meet
	 * torch >= 2.5, whatever the GPU model (finding 9). */
	S_meas_ok(&m, "old.json", S_6000, T6000, 8192, 20 * GIB);
	m.fw[0].value = "2.4.1";
	S_classify(&w, o, 1, ms, 1, &d);
	c = S_cand(&d, "ada-1x");
	VERDICT(c, GS_REQ_SOFTWARE, GS_V_TO_CONFIRM, "why.software.listed_only");
	CHECK_STR(c->v[GS_REQ_SOFTWARE].note, "note.software_version_below");
	CHECK_STR(c->v[GS_REQ_SOFTWARE].n3, "2.4.1");
	gs_verdict_release(&d);
	/* counter-case: 2.10 is above 2.5 (numbers, not text) */
	m.fw[0].value = "2.10.0";
	CLASSIFY_VERDICT(&w, o, 1, ms, 1, "ada-1x",
			 GS_REQ_SOFTWARE, GS_V_ADMISSIBLE, "why.software.installed_and_ran");
	/* a run that recorded no torch version confirms nothing */
	m.m.nframeworks = 0;
	S_classify(&w, o, 1, ms, 1, &d);
	c = S_cand(&d, "ada-1x");
	VERDICT(c, GS_REQ_SOFTWARE, GS_V_TO_CONFIRM, "why.software.listed_only");
	CHECK_STR(c->v[GS_REQ_SOFTWARE].note, "note.software_version_missing");
	gs_verdict_release(&d);
	/* the runtime and the driver are structured too */
	{
		gs_sw_req rq[] = { { "runtime", "12.4" }, { "driver", "560" } };
		w.req_sw = rq;
		w.nreq_sw = 2;
		m.m.nframeworks = 1;
		S_software(&sw[0], "CUDA 12.4 runtime, driver 560", 1, "provider page");
		/* driver 550.54.15 < 560 */
		CLASSIFY_VERDICT(&w, o, 1, ms, 1, "ada-1x",
				 GS_REQ_SOFTWARE, GS_V_TO_CONFIRM, "why.software.listed_only");
		m.m.driver = "560.35.03";
		CLASSIFY_VERDICT(&w, o, 1, ms, 1, "ada-1x",
				 GS_REQ_SOFTWARE, GS_V_ADMISSIBLE, "why.software.installed_and_ran");
	}
	/* a description alone: no run can confirm it */
	w.req_sw = NULL;
	w.nreq_sw = 0;
	w.has_req_software = 0;
	w.req_software = "PyTorch 2.5";
	S_software(&sw[0], "Ubuntu 22.04, CUDA 12.4, PyTorch 2.5", 1, "provider page");
	S_classify(&w, o, 1, ms, 1, &d);
	c = S_cand(&d, "ada-1x");
	VERDICT(c, GS_REQ_SOFTWARE, GS_V_TO_CONFIRM, "why.software.listed_only");
	CHECK_STR(c->v[GS_REQ_SOFTWARE].missing, "missing.software_structured");
	gs_verdict_release(&d);
}

static void test_versions(void)
{
	CHECK(gs_workload_version_valid("2.5") && gs_workload_version_valid("12") && gs_workload_version_valid("550.54.15"));
	CHECK(!gs_workload_version_valid("2.5.") && !gs_workload_version_valid("v2") && !gs_workload_version_valid("") &&
	      !gs_workload_version_valid("2..5"));
	CHECK(gs_workload_version_at_least("2.5.1+cu124", "2.5") == 1);
	CHECK(gs_workload_version_at_least("2.5", "2.5.0") == 1);     /* a missing part is 0 */
	CHECK(gs_workload_version_at_least("2.5", "2.5.1") == 0);
	CHECK(gs_workload_version_at_least("2.10", "2.9") == 1);      /* numbers, not text */
	CHECK(gs_workload_version_at_least("12.4", "13") == 0);
	CHECK(gs_workload_version_at_least("dev", "1") == -1);
}

/*** calendar ***/

static void test_calendar(void)
{
	gs_workload w;
	gs_offer o[6];
	gs_decision d;
	size_t i;

	S_workload(&w);
	for (i = 0; i < 6; i++)
		S_offer(&o[i], i == 0 ? "cover" : i == 1 ? "edge" : i == 2 ? "miss" :
			       i == 3 ? "stock" : i == 4 ? "gone" : "unknown",
			"RTX 6000 Ada", NULL, 1, 48);
	for (i = 0; i < 5; i++)
		S_claim(&o[i].availability.claim, "availability page", "2026-11-03");
	S_window(&o[0].availability, "2026-11-15", "2026-12-31");
	/* the window ends on the campaign's last day (12-01 + 3 days = 12-03) */
	S_window(&o[1].availability, "2026-12-01", "2026-12-03");
	/* one day short */
	S_window(&o[2].availability, "2026-12-01", "2026-12-02");
	o[3].availability.kind = GS_AVAIL_STOCK;
	o[3].availability.stock = 4;
	o[3].availability.has_stock = 1;
	o[4].availability.kind = GS_AVAIL_UNAVAILABLE;
	o[5].availability.kind = GS_AVAIL_UNKNOWN;

	/* no campaign: not required */
	S_classify(&w, o, 6, NULL, 0, &d);
	VERDICT(S_cand(&d, "gone"), GS_REQ_CALENDAR, GS_V_NOT_REQUIRED, "why.not_required");
	CHECK(!S_cand(&d, "gone")->excluded);
	gs_verdict_release(&d);

	S_campaign(&w, "2026-12-01", 3);
	S_classify(&w, o, 6, NULL, 0, &d);
	VERDICT(S_cand(&d, "cover"), GS_REQ_CALENDAR, GS_V_ADMISSIBLE, "why.calendar.window_covers");
	CHECK_STR(S_cand(&d, "cover")->v[GS_REQ_CALENDAR].evidence, "availability page");
	VERDICT(S_cand(&d, "edge"), GS_REQ_CALENDAR, GS_V_ADMISSIBLE, "why.calendar.window_covers");
	VERDICT(S_cand(&d, "miss"), GS_REQ_CALENDAR, GS_V_TO_CONFIRM, "why.calendar.window_misses");
	VERDICT(S_cand(&d, "stock"), GS_REQ_CALENDAR, GS_V_TO_CONFIRM, "why.calendar.stock_only");
	CHECK_STR(S_cand(&d, "stock")->v[GS_REQ_CALENDAR].missing, "missing.calendar");
	VERDICT(S_cand(&d, "gone"), GS_REQ_CALENDAR, GS_V_EXCLUDE, "why.calendar.unavailable");
	CHECK(S_cand(&d, "gone")->excluded);
	VERDICT(S_cand(&d, "unknown"), GS_REQ_CALENDAR, GS_V_TO_CONFIRM, "why.calendar.unknown");
	gs_verdict_release(&d);

	/* a window across a month and a leap day: 2028-02-28 + 3 days ends 03-01 */
	w.campaign_start = "2028-02-28";
	S_window(&o[1].availability, "2028-02-01", "2028-03-01");
	S_window(&o[2].availability, "2028-02-01", "2028-02-29");
	S_classify(&w, o, 3, NULL, 0, &d);
	VERDICT(S_cand(&d, "edge"), GS_REQ_CALENDAR, GS_V_ADMISSIBLE, "why.calendar.window_covers");
	VERDICT(S_cand(&d, "miss"), GS_REQ_CALENDAR, GS_V_TO_CONFIRM, "why.calendar.window_misses");
	gs_verdict_release(&d);
}

/*** budget ***/

static void test_budget(void)
{
	gs_workload w;
	gs_offer o[5];
	gs_plan p4090[1], p6000[1], peur[1], pmix[2], plong[2];
	gs_decision d;
	const gs_candidate *c;

	S_workload(&w);
	S_offer(&o[0], "rtx4090-1x", "RTX 4090", NULL, 1, 24);
	S_offer(&o[1], "rtx6000ada-1x", "RTX 6000 Ada", NULL, 1, 48);
	S_offer(&o[2], "eur-1x", "L40S", NULL, 1, 48);
	S_offer(&o[3], "noprice-1x", "H200", NULL, 1, 141);
	S_plans(&o[3], NULL, 0);    /* a provider, no plan: a reference card */
	S_offer(&o[4], "mix-1x", "A100 80GB", NULL, 1, 80);
	S_plan(&p4090[0], 72, 4714, "USD");
	S_plan(&p6000[0], 72, 5571, "USD");
	S_plan(&peur[0], 72, 3000, "EUR");
	/* a cheaper plan in another currency does not displace the budget's one */
	S_plan(&pmix[0], 72, 1000, "EUR");
	S_plan(&pmix[1], 72, 5000, "USD");
	S_plans(&o[0], p4090, 1);
	S_plans(&o[1], p6000, 1);
	S_plans(&o[2], peur, 1);
	S_plans(&o[4], pmix, 2);

	/* no budget: not required, the cost is still computed */
	S_campaign(&w, "2026-12-01", 3);
	S_classify(&w, o, 5, NULL, 0, &d);
	c = S_cand(&d, "rtx4090-1x");
	VERDICT(c, GS_REQ_BUDGET, GS_V_NOT_REQUIRED, "why.not_required");
	CHECK(c->plan == &p4090[0] && c->plan_units == 1 && c->cost == 4714);
	gs_verdict_release(&d);

	S_budget(&w, 5000, "USD");
	S_classify(&w, o, 5, NULL, 0, &d);
	c = S_cand(&d, "rtx4090-1x");
	VERDICT(c, GS_REQ_BUDGET, GS_V_ADMISSIBLE, "why.budget.within");
	CHECK_STR(c->v[GS_REQ_BUDGET].evidence, "price page");
	c = S_cand(&d, "rtx6000ada-1x");
	VERDICT(c, GS_REQ_BUDGET, GS_V_EXCLUDE, "why.budget.over");
	CHECK(c->cost == 5571 && c->excluded);
	c = S_cand(&d, "eur-1x");
	VERDICT(c, GS_REQ_BUDGET, GS_V_TO_CONFIRM, "why.budget.other_currency");
	CHECK(STREQ(c->v[GS_REQ_BUDGET].s1, "EUR") && STREQ(c->v[GS_REQ_BUDGET].s2, "USD"));
	CHECK_STR(c->v[GS_REQ_BUDGET].missing, "missing.exchange");
	CHECK(!c->excluded);
	c = S_cand(&d, "noprice-1x");
	VERDICT(c, GS_REQ_BUDGET, GS_V_TO_CONFIRM, "why.budget.no_price");
	CHECK(c->plan == NULL);
	c = S_cand(&d, "mix-1x");
	VERDICT(c, GS_REQ_BUDGET, GS_V_ADMISSIBLE, "why.budget.within");
	CHECK(c->plan == &pmix[1] && c->cost == 5000);   /* equal to the budget: within */
	gs_verdict_release(&d);

	/* a budget without a campaign */
	S_campaign(&w, NULL, 0);
	CLASSIFY_VERDICT(&w, o, 1, NULL, 0, "rtx4090-1x",
			 GS_REQ_BUDGET, GS_V_TO_CONFIRM, "why.budget.no_campaign");

	/* 5 days (120 h) with 72 h plans: two plans back to back */
	S_campaign(&w, "2026-12-01", 5);
	w.budget_hundredths = 10000;
	S_classify(&w, o, 2, NULL, 0, &d);
	c = S_cand(&d, "rtx4090-1x");
	CHECK(c->plan == &p4090[0] && c->plan_units == 2 && c->cost == 9428);
	VERDICT(c, GS_REQ_BUDGET, GS_V_ADMISSIBLE, "why.budget.within");
	c = S_cand(&d, "rtx6000ada-1x");
	CHECK(c->plan_units == 2 && c->cost == 11142);
	VERDICT(c, GS_REQ_BUDGET, GS_V_EXCLUDE, "why.budget.over");
	gs_verdict_release(&d);

	/* the cheapest covering plan: one 168 h plan beats two 72 h plans */
	S_plan(&plong[0], 72, 6000, "USD");
	S_plan(&plong[1], 168, 10000, "USD");
	S_plans(&o[0], plong, 2);
	S_classify(&w, o, 1, NULL, 0, &d);
	c = S_cand(&d, "rtx4090-1x");
	CHECK(c->plan == &plong[1] && c->plan_units == 1 && c->cost == 10000);
	VERDICT(c, GS_REQ_BUDGET, GS_V_ADMISSIBLE, "why.budget.within");
	gs_verdict_release(&d);
	/* and two 72 h plans beat one 168 h plan when cheaper */
	plong[0].price_hundredths = 4000;
	S_classify(&w, o, 1, NULL, 0, &d);
	c = S_cand(&d, "rtx4090-1x");
	CHECK(c->plan == &plong[0] && c->plan_units == 2 && c->cost == 8000);
	gs_verdict_release(&d);
}

/*** quality ***/

static void test_quality(void)
{
	gs_workload w;
	gs_offer o[1];
	gs_decision d;
	const gs_candidate *c;

	S_workload(&w);
	S_offer(&o[0], "ada-1x", "RTX 6000 Ada", NULL, 1, 48);
	CLASSIFY_VERDICT(&w, o, 1, NULL, 0, "ada-1x",
			 GS_REQ_QUALITY, GS_V_NOT_REQUIRED, "why.not_required");

	w.quality_criterion = "perplexity within 2% of bf16";
	w.reference_format = "BF16";   /* compared without case */
	/* The same format as the reference is not by itself evidence: the guide
	 * leaves quality "to verify" for both of its offers (finding 4). */
	S_classify(&w, o, 1, NULL, 0, &d);
	c = S_cand(&d, "ada-1x");
	VERDICT(c, GS_REQ_QUALITY, GS_V_TO_CONFIRM, "why.quality.same_format_unverified");
	CHECK_STR(c->v[GS_REQ_QUALITY].missing, "missing.quality");
	gs_verdict_release(&d);

	w.storage_bits = 8;
	w.storage_format = "int8";
	w.reference_format = "bf16";
	S_classify(&w, o, 1, NULL, 0, &d);
	c = S_cand(&d, "ada-1x");
	VERDICT(c, GS_REQ_QUALITY, GS_V_TO_CONFIRM, "why.quality.format_changed");
	CHECK(STREQ(c->v[GS_REQ_QUALITY].s1, "int8") && STREQ(c->v[GS_REQ_QUALITY].s2, "bf16"));
	CHECK_STR(c->v[GS_REQ_QUALITY].missing, "missing.quality");
	gs_verdict_release(&d);

	/* a cited evaluation with its date and scope */
	w.quality_evidence = "eval/int8-perplexity.md";
	w.quality_evidence_is_file = 1;
	w.quality_evidence_date = "2026-11-12";
	w.quality_evidence_scope = "perplexity on the three protocol inputs";
	S_classify(&w, o, 1, NULL, 0, &d);
	c = S_cand(&d, "ada-1x");
	VERDICT(c, GS_REQ_QUALITY, GS_V_ADMISSIBLE, "why.quality.cited");
	CHECK_STR(c->v[GS_REQ_QUALITY].evidence, "eval/int8-perplexity.md");
	CHECK_STR(c->v[GS_REQ_QUALITY].evidence_date, "2026-11-12");
	CHECK_STR(c->v[GS_REQ_QUALITY].s2, "perplexity on the three protocol inputs");
	gs_verdict_release(&d);

	w.quality_evidence = NULL;
	w.reference_format = NULL;
	CLASSIFY_VERDICT(&w, o, 1, NULL, 0, "ada-1x",
			 GS_REQ_QUALITY, GS_V_TO_CONFIRM, "why.quality.no_reference");
}

/*** host ***/

static void test_host(void)
{
	gs_workload w;
	gs_offer o[5];
	gs_decision d;
	const gs_candidate *c;
	size_t i;

	S_workload(&w);
	S_offer(&o[0], "enough", "H200", NULL, 1, 141);
	S_offer(&o[1], "short", "H200", NULL, 1, 141);
	S_offer(&o[2], "unknown", "H200", NULL, 1, 141);
	S_offer(&o[3], "nvlink", "H200", NULL, 2, 141);
	S_offer(&o[4], "pcie", "H200", NULL, 2, 141);
	for (i = 0; i < 5; i++)
		if (i != 2)   /* "unknown": no host RAM documented */
			S_host_ram(&o[i], (i == 1 ? 32 : 256) * GB);
	S_interconnect(&o[3], "NVLink 4");
	S_interconnect(&o[4], "PCIe 5.0");

	CLASSIFY_VERDICT(&w, o, 5, NULL, 0, "short",
			 GS_REQ_HOST, GS_V_NOT_REQUIRED, "why.not_required");

	w.host_ram_bytes = 64 * GIB;
	w.has_host_ram = 1;
	S_classify(&w, o, 5, NULL, 0, &d);
	c = S_cand(&d, "enough");
	VERDICT(c, GS_REQ_HOST, GS_V_ADMISSIBLE, "why.host.documented");
	CHECK_STR(c->v[GS_REQ_HOST].evidence, "host page");
	c = S_cand(&d, "short");
	VERDICT(c, GS_REQ_HOST, GS_V_EXCLUDE, "why.host.ram_short");
	CHECK(c->excluded);
	c = S_cand(&d, "unknown");
	VERDICT(c, GS_REQ_HOST, GS_V_TO_CONFIRM, "why.host.ram_unknown");
	CHECK_STR(c->v[GS_REQ_HOST].missing, "missing.host");
	CHECK(!c->excluded);
	gs_verdict_release(&d);

	w.host_interconnect = "NVLink";
	S_classify(&w, o, 5, NULL, 0, &d);
	VERDICT(S_cand(&d, "nvlink"), GS_REQ_HOST, GS_V_ADMISSIBLE, "why.host.documented");
	VERDICT(S_cand(&d, "pcie"), GS_REQ_HOST, GS_V_EXCLUDE, "why.host.interconnect_other");
	/* RAM short stays the reason even with an unknown interconnect */
	VERDICT(S_cand(&d, "short"), GS_REQ_HOST, GS_V_EXCLUDE, "why.host.ram_short");
	/* RAM fine, interconnect unknown */
	VERDICT(S_cand(&d, "enough"), GS_REQ_HOST, GS_V_TO_CONFIRM, "why.host.interconnect_unknown");
	gs_verdict_release(&d);
}

/*** regions ***/

static void test_regions(void)
{
	gs_workload w;
	gs_offer o[4];
	gs_plan eu[2], us[1], zone[1];
	gs_place eu_places[2] = { { (char *)"us-east-1", (char *)"use1-az1" }, { (char *)"eu-west-1", NULL } };
	gs_place us_places[1] = { { (char *)"us-west-2", NULL } };
	gs_place zone_places[1] = { { NULL, (char *)"EU-CZ-1" } };
	char *allowed[2] = { (char *)"eu-", (char *)"Finland" };
	gs_decision d;
	const gs_candidate *c;

	S_workload(&w);
	S_offer(&o[0], "eu", "H200", NULL, 1, 141);
	S_offer(&o[1], "us", "H200", NULL, 1, 141);
	S_offer(&o[2], "nowhere", "H200", NULL, 1, 141);
	S_offer(&o[3], "zone", "H200", NULL, 1, 141);
	/* eu: 1.00 USD/h in us-east-1, 2.00 USD/h in eu-west-1 */
	S_plan(&eu[0], 1, 100, "USD");
	S_plan(&eu[1], 1, 200, "USD");
	eu[0].places = &eu_places[0];
	eu[0].nplaces = 1;
	eu[1].places = &eu_places[1];
	eu[1].nplaces = 1;
	S_plans(&o[0], eu, 2);
	S_plan(&us[0], 1, 50, "USD");
	us[0].places = us_places;
	us[0].nplaces = 1;
	S_plans(&o[1], us, 1);
	S_plan(&zone[0], 1, 300, "USD");
	zone[0].places = zone_places;
	zone[0].nplaces = 1;
	S_plans(&o[3], zone, 1);
	S_campaign(&w, "2026-12-01", 1);

	CLASSIFY_VERDICT(&w, o, 4, NULL, 0, "us", GS_REQ_REGIONS, GS_V_NOT_REQUIRED, "why.not_required");
	/* without the requirement, the cheapest plan: 24 h x 1.00 USD */
	S_classify(&w, o, 4, NULL, 0, &d);
	CHECK_INT(S_cand(&d, "eu")->cost, 2400);
	gs_verdict_release(&d);

	w.regions = allowed;
	w.nregions = 2;
	w.regions_text = "eu-, Finland";
	S_classify(&w, o, 4, NULL, 0, &d);
	c = S_cand(&d, "eu");
	VERDICT(c, GS_REQ_REGIONS, GS_V_ADMISSIBLE, "why.regions.sold_in");
	CHECK_STR(c->v[GS_REQ_REGIONS].s1, "eu-west-1");
	CHECK_STR(c->v[GS_REQ_REGIONS].s2, "eu-, Finland");
	CHECK_STR(c->v[GS_REQ_REGIONS].evidence, "price page");
	/* the campaign is priced on the plan sold in the EU: 24 h x 2.00 USD,
	 * not the cheaper plan of us-east-1 */
	CHECK(c->plan == &eu[1]);
	CHECK_INT(c->cost, 4800);
	CHECK_INT(c->on_demand.micro_per_hour, 2000000);
	c = S_cand(&d, "us");
	VERDICT(c, GS_REQ_REGIONS, GS_V_EXCLUDE, "why.regions.not_sold");
	CHECK_STR(c->v[GS_REQ_REGIONS].s1, "us-west-2");
	CHECK_INT(c->v[GS_REQ_REGIONS].basis, GS_BASIS_CATALOG);
	CHECK(c->excluded);
	CHECK(c->plan == NULL);
	c = S_cand(&d, "nowhere");
	VERDICT(c, GS_REQ_REGIONS, GS_V_TO_CONFIRM, "why.regions.unknown");
	CHECK_STR(c->v[GS_REQ_REGIONS].missing, "missing.regions");
	CHECK(!c->excluded);
	/* a zone alone, letter case aside: "eu-" admits "EU-CZ-1" */
	c = S_cand(&d, "zone");
	VERDICT(c, GS_REQ_REGIONS, GS_V_ADMISSIBLE, "why.regions.sold_in");
	CHECK_STR(c->v[GS_REQ_REGIONS].s1, "EU-CZ-1");
	gs_verdict_release(&d);
}

/*** retained, ranking, exclusions ***/

/* An offer with every requirement documented for the full workload. */
static void S_full_offer(gs_offer *o, const char *id, gs_plan *plan, gs_availability *av,
			 gs_software *sw, uint64_t nominal_gb)
{
	S_offer(o, id, "RTX 6000 Ada", NULL, 1, nominal_gb);
	S_plans(o, plan, 1);
	o->availability = *av;
	o->software = sw;
	o->nsoftware = 1;
	S_host_ram(o, 256 * GB);
}

static void S_full_workload(gs_workload *w)
{
	S_workload(w);
	w->req_sw = S_torch25;
	w->nreq_sw = 1;
	w->has_req_software = 1;
	/* a cited evaluation: the same format alone is not evidence */
	w->quality_evidence = "eval/bf16-outputs.json";
	w->quality_evidence_is_file = 1;
	w->quality_evidence_date = "2026-11-10";
	w->quality_evidence_scope = "the three protocol inputs";
	S_campaign(w, "2026-12-01", 3);
	S_budget(w, 10000, "USD");
	w->quality_criterion = "same outputs as bf16";
	w->reference_format = "bf16";
	w->host_ram_bytes = 64 * GIB;
	w->has_host_ram = 1;
}

static void test_retained_and_ranking(void)
{
	gs_workload w;
	gs_offer o[5];
	gs_plan p[5];
	gs_availability av, gone;
	gs_software sw;
	S_meas m, *ms[] = { &m };
	gs_decision d;
	const gs_candidate *c;
	int r;

	S_full_workload(&w);
	memset(&av, 0, sizeof(av));
	S_window(&av, "2026-11-01", "2027-01-31");
	S_claim(&av.claim, "availability page", "2026-11-03");
	gone = av;
	gone.kind = GS_AVAIL_UNAVAILABLE;
	gone.from = gone.to = NULL;
	S_software(&sw, "CUDA 12.4, PyTorch 2.5", 1, "software page");
	S_plan(&p[0], 72, 9000, "USD");
	S_plan(&p[1], 72, 6000, "USD");
	S_plan(&p[2], 72, 6000, "USD");
	S_plan(&p[3], 72, 1000, "USD");
	S_plan(&p[4], 72, 500, "USD");
	/* catalog order: dear, cheap-small, cheap-large, unavailable, no-software */
	S_full_offer(&o[0], "dear", &p[0], &av, &sw, 48);
	S_full_offer(&o[1], "cheap-small", &p[1], &av, &sw, 48);
	S_full_offer(&o[2], "cheap-large", &p[2], &av, &sw, 48);
	/* the same cost, a larger declared capacity: a larger margin */
	S_declared(&o[2], 60 * GB);
	/* cheapest of all, everything admissible but the calendar: excluded */
	S_full_offer(&o[3], "gone", &p[3], &gone, &sw, 48);
	/* cheapest of all, software to confirm */
	S_full_offer(&o[4], "nosw", &p[4], &av, &sw, 48);
	o[4].nsoftware = 0;
	o[4].software = NULL;
	S_meas_ok(&m, "run.json", S_6000, 0, 8192, 20 * GIB);   /* no total: capacity stays the catalog's */
	S_classify(&w, o, 5, ms, 1, &d);

	/* the workload states no region: that requirement alone is not required */
	VERDICT(S_cand(&d, "dear"), GS_REQ_REGIONS, GS_V_NOT_REQUIRED, "why.not_required");
	for (r = 0; r < GS_REQ_REGIONS; r++) {
		VERDICT(S_cand(&d, "dear"), (gs_req)r, GS_V_ADMISSIBLE,
			r == GS_REQ_MEMORY ? "why.memory.observed_fits" :
			r == GS_REQ_SOFTWARE ? "why.software.installed_and_ran" :
			r == GS_REQ_CALENDAR ? "why.calendar.window_covers" :
			r == GS_REQ_BUDGET ? "why.budget.within" :
			r == GS_REQ_QUALITY ? "why.quality.cited" : "why.host.documented");
	}
	CHECK(S_cand(&d, "dear")->retained);
	CHECK(S_cand(&d, "cheap-small")->retained);
	CHECK(S_cand(&d, "cheap-large")->retained);
	/* 60 GB declared on a 48 GB card: a claim never raises the capacity */
	CHECK(S_cand(&d, "cheap-large")->margin == S_cand(&d, "cheap-small")->margin);

	/* an excluded offer is never retained, whatever its other verdicts */
	c = S_cand(&d, "gone");
	VERDICT(c, GS_REQ_CALENDAR, GS_V_EXCLUDE, "why.calendar.unavailable");
	VERDICT(c, GS_REQ_MEMORY, GS_V_ADMISSIBLE, "why.memory.observed_fits");
	VERDICT(c, GS_REQ_BUDGET, GS_V_ADMISSIBLE, "why.budget.within");
	CHECK(c->excluded && !c->retained);
	/* one requirement to confirm: pre-selected, not retained */
	c = S_cand(&d, "nosw");
	VERDICT(c, GS_REQ_SOFTWARE, GS_V_TO_CONFIRM, "why.software.ran_not_listed");
	CHECK(!c->retained && !c->excluded && c->missing_count == 1);

	CHECK(d.nretained == 3 && d.npreselected == 1);
	/* retained by total cost, then margin; then the pre-selection; then excluded */
	CHECK(S_rank(&d, "cheap-large") == 0);
	CHECK(S_rank(&d, "cheap-small") == 1);
	CHECK(S_rank(&d, "dear") == 2);
	CHECK(S_rank(&d, "nosw") == 3);
	CHECK(S_rank(&d, "gone") == 4);
	/* the offer to take: the first retained */
	CHECK(gs_verdict_best(&d) == S_cand(&d, "cheap-large"));
	gs_verdict_release(&d);

	/* the order does not depend on the catalog order */
	{
		gs_offer rev[5];
		int i;
		for (i = 0; i < 5; i++)
			rev[i] = o[4 - i];
		S_classify(&w, rev, 5, ms, 1, &d);
		CHECK(S_rank(&d, "cheap-large") == 0);
		CHECK(S_rank(&d, "cheap-small") == 1);
		CHECK(S_rank(&d, "dear") == 2);
		CHECK(S_rank(&d, "nosw") == 3);
		CHECK(S_rank(&d, "gone") == 4);
		gs_verdict_release(&d);
	}
}

/* Empty catalog: nothing to rank, nothing retained, no crash. */
static void test_empty_catalog(void)
{
	gs_workload w;
	gs_decision d;

	S_workload(&w);
	S_classify(&w, NULL, 0, NULL, 0, &d);
	CHECK(d.ncands == 0 && d.nretained == 0 && d.npreselected == 0);
	gs_verdict_release(&d);
}

/* Helpers exported by verdict.h. */
/*
 * The margin's provenance (the sheet, the decision JSON and the per-offer
 * pages' rows all take it from gs_verdict_margin_prov): every pair of the three
 * provenances, a synthetic figure on either side, a figure missing on
 * either side or both.
 */
static void test_margin_prov(void)
{
	static const gs_prov P[3] = { GS_PROV_ASSUMED, GS_PROV_CALCULATED, GS_PROV_OBSERVED };
	/* [need][capacity] */
	static const gs_prov want[3][3] = {
		{ GS_PROV_ASSUMED, GS_PROV_ASSUMED, GS_PROV_ASSUMED },
		{ GS_PROV_ASSUMED, GS_PROV_CALCULATED, GS_PROV_CALCULATED },
		{ GS_PROV_ASSUMED, GS_PROV_CALCULATED, GS_PROV_OBSERVED },
	};
	gs_qty q, obs = gs_qty_make(20 * GIB, GS_PROV_OBSERVED);
	gs_qty calc = gs_qty_make(48 * GIB, GS_PROV_CALCULATED);
	size_t i, j;

	for (i = 0; i < 3; i++)
		for (j = 0; j < 3; j++) {
			q = gs_verdict_margin_prov(gs_qty_make(20 * GIB, P[i]), gs_qty_make(48 * GIB, P[j]));
			gs_check_at(q.present && q.prov == want[i][j] && !q.synthetic, __FILE__,
				    __LINE__, "need %s, capacity %s: got %s (present %d, synthetic %d)",
				    gs_qty_prov_id(P[i]), gs_qty_prov_id(P[j]), gs_qty_prov_id(q.prov), q.present,
				    q.synthetic);
		}
	/* a synthetic measurement's figure is assumed: so is the margin, and synthetic */
	q = gs_verdict_margin_prov(gs_qty_synthetic(20 * GIB), calc);
	CHECK(q.present && q.prov == GS_PROV_ASSUMED && q.synthetic);
	q = gs_verdict_margin_prov(obs, gs_qty_synthetic(48 * GIB));
	CHECK(q.present && q.prov == GS_PROV_ASSUMED && q.synthetic);
	/* a figure missing: no provenance to give (null in the JSON), assumed in words */
	q = gs_verdict_margin_prov(gs_qty_missing(), obs);
	CHECK(!q.present && q.prov == GS_PROV_ASSUMED && !q.synthetic);
	q = gs_verdict_margin_prov(calc, gs_qty_missing());
	CHECK(!q.present && q.prov == GS_PROV_ASSUMED && !q.synthetic);
	q = gs_verdict_margin_prov(gs_qty_missing(), gs_qty_missing());
	CHECK(!q.present && q.prov == GS_PROV_ASSUMED);
	q = gs_verdict_margin_prov(gs_qty_missing(), gs_qty_synthetic(48 * GIB));
	CHECK(!q.present && q.prov == GS_PROV_ASSUMED && q.synthetic);
}

static void test_helpers(void)
{
	gs_workload w;
	gs_offer o;
	S_meas m;

	S_workload(&w);
	S_offer(&o, "x", "RTX 4090", NULL, 1, 24);
	CHECK(gs_verdict_offer_matches_device(&o, "NVIDIA GeForce RTX 4090"));
	CHECK(gs_verdict_offer_matches_device(&o, "nvidia geforce rtx 4090"));
	CHECK(!gs_verdict_offer_matches_device(&o, "NVIDIA GeForce RTX 4080"));
	CHECK(!gs_verdict_offer_matches_device(&o, NULL));
	o.device_name = "NVIDIA GeForce RTX 4090";
	CHECK(gs_verdict_offer_matches_device(&o, "NVIDIA GeForce RTX 4090"));
	/* with a device name, only that exact name (without case) matches */
	CHECK(!gs_verdict_offer_matches_device(&o, "NVIDIA GeForce RTX 4090 D"));

	S_meas_ok(&m, "f", S_4090, T4090, 8192, GIB);
	CHECK(gs_verdict_measurement_covers(&w, &m.m));   /* bfloat16 == bf16 */
	m.dims[1].value = "float16";
	CHECK(!gs_verdict_measurement_covers(&w, &m.m));
	m.dims[1].value = "bfloat16";
	m.dims[2].number = 8191;
	CHECK(!gs_verdict_measurement_covers(&w, &m.m));
	m.m.ndims = 1;   /* input_tokens not recorded: does not cover */
	CHECK(!gs_verdict_measurement_covers(&w, &m.m));

	/* observed need: peak reserved + (used - reserved) at the same checkpoint */
	S_meas_ok(&m, "f", S_4090, T4090, 8192, 10 * GIB);
	m.ph[1].reserved_end.v = 9 * GIB;
	m.ph[1].reserved_end.has = 1;
	m.ph[1].used_end.v = 9 * GIB + 500000000;
	m.ph[1].used_end.has = 1;
	CHECK(gs_verdict_measurement_need(&m.m, NULL).bytes == 10 * GIB + 500000000);
	m.m.nphases = 0;
	CHECK(!gs_verdict_measurement_need(&m.m, NULL).present);

	S_meas_oom(&m, "f", S_4090, T4090, 8192);
	{
		const char *what;
		CHECK(gs_verdict_failure_comparable(&w, &m.m, &what) == GS_CMP_COMPARABLE);
		m.dims[2].number = 8193;
		CHECK(gs_verdict_failure_comparable(&w, &m.m, &what) == GS_CMP_DIM_LARGER);
		CHECK_STR(what, "input_tokens");
	}
}

/*
 * A one-card out-of-memory failure at the required dimensions does not
 * exclude a two-card lot of the same model with a documented placement:
 * the placement splits the model over two cards (the success rule,
 * symmetrically, ignores a run on more devices than the lot has).
 */
static void test_failure_on_one_card_keeps_placed_lot(void)
{
	static const char *const dev = "NVIDIA H100 80GB HBM3";
	gs_workload w;
	gs_offer o[1];
	S_meas m, *ms[] = { &m };
	gs_decision d;

	S_workload(&w);
	w.parameters = UINT64_C(50000000000);   /* 100e9 B: above one card */
	w.placement = "tensor parallel over 2 cards";
	S_offer(&o[0], "h100-2x", "H100 SXM", dev, 2, 80);
	S_meas_oom(&m, "oom-1card.json", dev, UINT64_C(85520809984), 8192);
	S_classify(&w, o, 1, ms, 1, &d);
	CHECK(!S_cand(&d, "h100-2x")->excluded);
	gs_verdict_release(&d);
}


/*** evidence rules (issue: verdicts that rest only on evidence) ***/

/*
 * A synthetic file never decides by default: the run would make memory
 * admissible (20 GiB within 47.99 GiB) and the software confirmed, but it
 * was not produced on a GPU, so both stay to confirm and say so (finding 1).
 * With --accept-synthetic it decides, and every verdict resting on it is
 * marked; its figures stay assumed, never observed.
 */
static void test_synthetic_never_decides(void)
{
	gs_workload w;
	gs_offer o[2];
	gs_software sw;
	S_meas m, f, *ms[] = { &m }, *fs[] = { &f };
	gs_decision d;
	const gs_candidate *c;

	S_workload(&w);
	w.req_sw = S_torch25;
	w.nreq_sw = 1;
	w.has_req_software = 1;
	S_offer(&o[0], "ada-1x", "RTX 6000 Ada", NULL, 1, 48);
	S_offer(&o[1], "rtx4090-1x", "RTX 4090", NULL, 1, 24);
	S_software(&sw, "CUDA 12.4, PyTorch 2.5", 1, "provider page");
	o[0].software = &sw;
	o[0].nsoftware = 1;
	S_meas_ok(&m, "synthetic.json", S_6000, T6000, 8192, 20 * GIB);
	m.m.synthetic = 1;
	S_accept_synthetic = 0;
	S_classify(&w, o, 1, ms, 1, &d);
	c = S_cand(&d, "ada-1x");
	VERDICT(c, GS_REQ_MEMORY, GS_V_TO_CONFIRM, "why.memory.calc_fits");
	CHECK_STR(c->v[GS_REQ_MEMORY].note, "note.synthetic_only");
	CHECK_STR(c->v[GS_REQ_MEMORY].n1, "synthetic.json");
	/* the capacity is not read from it either */
	CHECK(c->cap_source == GS_CAP_NOMINAL && c->capacity.bytes == 48 * GB);
	VERDICT(c, GS_REQ_SOFTWARE, GS_V_TO_CONFIRM, "why.software.listed_only");
	CHECK(!c->retained && !c->synthetic && !d.demonstration && d.synthetic);
	gs_verdict_release(&d);

	/* a synthetic out-of-memory run excludes nothing */
	S_meas_oom(&f, "synthetic-oom.json", S_4090, T4090, 4096);
	f.m.synthetic = 1;
	S_classify(&w, o + 1, 1, fs, 1, &d);
	c = S_cand(&d, "rtx4090-1x");
	VERDICT(c, GS_REQ_MEMORY, GS_V_TO_CONFIRM, "why.memory.calc_fits");
	CHECK_STR(c->v[GS_REQ_MEMORY].note, "note.synthetic_only");
	CHECK(!c->excluded);
	gs_verdict_release(&d);

	/* accepted for a demonstration: it decides, marked, figures assumed */
	S_accept_synthetic = 1;
	S_classify(&w, o, 1, ms, 1, &d);
	c = S_cand(&d, "ada-1x");
	VERDICT(c, GS_REQ_MEMORY, GS_V_ADMISSIBLE, "why.memory.observed_fits");
	CHECK(c->v[GS_REQ_MEMORY].synthetic && c->synthetic && d.demonstration);
	CHECK(c->need.prov == GS_PROV_ASSUMED && c->need.synthetic);
	CHECK(c->capacity.prov == GS_PROV_ASSUMED && c->capacity.synthetic);
	VERDICT(c, GS_REQ_SOFTWARE, GS_V_ADMISSIBLE, "why.software.installed_and_ran");
	CHECK(c->retained);
	gs_verdict_release(&d);
	S_classify(&w, o + 1, 1, fs, 1, &d);
	c = S_cand(&d, "rtx4090-1x");
	VERDICT(c, GS_REQ_MEMORY, GS_V_EXCLUDE, "why.memory.observed_failure");
	CHECK(c->v[GS_REQ_MEMORY].synthetic && c->excluded);
	gs_verdict_release(&d);
	S_accept_synthetic = 0;
}

/*
 * A failure excludes only when comparable (finding 2). The workload states
 * input_tokens 8192 and batch 1; each run failed with an out-of-memory
 * error on the same GPU model at input_tokens 4096.
 */
static void test_failure_comparability(void)
{
	gs_workload w;
	gs_offer o[1];
	S_meas m, *ms[] = { &m };
	gs_decision d;
	const gs_candidate *c;
	gs_kv extra[1], alloc[2];
	gs_condition wc[1];
	gs_dim wd[3] = { { "input_tokens", 8192 }, { "batch", 1 }, { "sequences", 16 } };

	S_workload(&w);
	S_offer(&o[0], "rtx4090-1x", "RTX 4090", NULL, 1, 24);

	/* the run also recorded sequences 16, which the workload leaves out:
	 * a missing dimension is never "anything goes" */
	S_meas_oom(&m, "seq16.json", S_4090, T4090, 4096);
	m.dims[1].name = "sequences";   /* replaces dtype; names stay sorted */
	m.dims[1].value = "16";
	m.dims[1].number = 16;
	m.dims[1].is_number = 1;
	S_classify(&w, o, 1, ms, 1, &d);
	c = S_cand(&d, "rtx4090-1x");
	VERDICT(c, GS_REQ_MEMORY, GS_V_TO_CONFIRM, "why.memory.calc_fits");
	CHECK_STR(c->v[GS_REQ_MEMORY].note, "note.failure_dim_unknown");
	CHECK_STR(c->v[GS_REQ_MEMORY].n2, "sequences");
	gs_verdict_release(&d);
	/* counter-case: the workload states sequences 16: comparable, excluded */
	w.dims = wd;
	w.ndims = 3;
	CLASSIFY_VERDICT(&w, o, 1, ms, 1, "rtx4090-1x",
			 GS_REQ_MEMORY, GS_V_EXCLUDE, "why.memory.observed_failure");
	S_workload(&w);

	/* a filler allocation the workload does not have */
	S_meas_oom(&m, "filler.json", S_4090, T4090, 4096);
	extra[0].name = "extra_bytes";
	extra[0].value = "21474836480";
	extra[0].number = UINT64_C(21474836480);
	extra[0].is_number = 1;
	m.m.conditions = extra;
	m.m.nconditions = 1;
	S_classify(&w, o, 1, ms, 1, &d);
	c = S_cand(&d, "rtx4090-1x");
	VERDICT(c, GS_REQ_MEMORY, GS_V_TO_CONFIRM, "why.memory.calc_fits");
	CHECK_STR(c->v[GS_REQ_MEMORY].note, "note.failure_condition");
	CHECK_STR(c->v[GS_REQ_MEMORY].n2, "extra_bytes");
	gs_verdict_release(&d);
	/* counter-case: the workload runs under the same condition */
	wc[0].name = "extra_bytes";
	wc[0].value = "21474836480";
	w.conditions = wc;
	w.nconditions = 1;
	CLASSIFY_VERDICT(&w, o, 1, ms, 1, "rtx4090-1x",
			 GS_REQ_MEMORY, GS_V_EXCLUDE, "why.memory.observed_failure");
	S_workload(&w);

	/* another allocator setting; the device selection does not count */
	S_meas_oom(&m, "alloc.json", S_4090, T4090, 4096);
	alloc[0].name = "CUDA_VISIBLE_DEVICES";
	alloc[0].value = "0";
	alloc[1].name = "PYTORCH_CUDA_ALLOC_CONF";
	alloc[1].value = "expandable_segments:True";
	m.m.allocator_settings = alloc;
	m.m.nallocator_settings = 1;
	CLASSIFY_VERDICT(&w, o, 1, ms, 1, "rtx4090-1x",
			 GS_REQ_MEMORY, GS_V_EXCLUDE, "why.memory.observed_failure");
	m.m.nallocator_settings = 2;
	S_classify(&w, o, 1, ms, 1, &d);
	c = S_cand(&d, "rtx4090-1x");
	VERDICT(c, GS_REQ_MEMORY, GS_V_TO_CONFIRM, "why.memory.calc_fits");
	CHECK_STR(c->v[GS_REQ_MEMORY].note, "note.failure_condition");
	CHECK_STR(c->v[GS_REQ_MEMORY].n2, "PYTORCH_CUDA_ALLOC_CONF");
	gs_verdict_release(&d);

	/* another dtype */
	S_meas_oom(&m, "fp32.json", S_4090, T4090, 4096);
	m.dims[1].value = "float32";
	S_classify(&w, o, 1, ms, 1, &d);
	CHECK_STR(S_cand(&d, "rtx4090-1x")->v[GS_REQ_MEMORY].note, "note.failure_dtype");
	gs_verdict_release(&d);

	/* a failure that is not out of memory */
	S_meas_oom(&m, "crash.json", S_4090, T4090, 4096);
	m.ph[1].error = "CUDA error: an illegal memory access was encountered";
	S_classify(&w, o, 1, ms, 1, &d);
	c = S_cand(&d, "rtx4090-1x");
	VERDICT(c, GS_REQ_MEMORY, GS_V_TO_CONFIRM, "why.memory.calc_fits");
	CHECK_STR(c->v[GS_REQ_MEMORY].note, "note.failure_not_oom");
	gs_verdict_release(&d);

	/* what a failure points to, by phase */
	CHECK_STR(gs_verdict_phase_orientation("model_load"), "orient.loading");
	CHECK_STR(gs_verdict_phase_orientation("cold_forward"), "orient.generation");
	CHECK_STR(gs_verdict_phase_orientation("backward"), "orient.backward");
	CHECK_STR(gs_verdict_phase_orientation("something"), "orient.unknown");
}

/*
 * A missing counter never drops a known reading (finding 3). cold_forward:
 * reserved.peak null, reserved.end 14 GiB: the need is at least 14 GiB, a
 * lower bound that cannot make memory admissible although 14 GiB < 22.35
 * GiB. Without device_used the outside-the-allocator term is missing.
 */
static void test_need_lower_bound(void)
{
	gs_workload w;
	gs_offer o[1];
	S_meas m, *ms[] = { &m };
	gs_decision d;
	const gs_candidate *c;
	gs_need n;

	S_workload(&w);
	S_offer(&o[0], "rtx4090-1x", "RTX 4090", NULL, 1, 24);
	S_meas_ok(&m, "nopeak.json", S_4090, 0, 8192, UINT64_C(10500000000) + GIB);
	/* model_load: peak 5.75e9-ish, all read; cold_forward: peak missing */
	m.ph[1].reserved_peak.has = 0;
	m.ph[1].reserved_end.v = 14 * GIB;
	m.ph[1].reserved_end.has = 1;
	m.ph[1].used_end.v = 14 * GIB;
	gs_verdict_measurement_need_of(&m.m, &n);
	CHECK(n.q.present && n.q.bytes == 14 * GIB && n.q.prov == GS_PROV_OBSERVED);
	CHECK(n.lower_bound);
	CHECK_STR(n.missing_counter, "reserved.peak");
	CHECK_STR(n.missing_phase, "cold_forward");
	S_classify(&w, o, 1, ms, 1, &d);
	c = S_cand(&d, "rtx4090-1x");
	VERDICT(c, GS_REQ_MEMORY, GS_V_TO_CONFIRM, "why.memory.observed_lower_bound");
	CHECK(c->v[GS_REQ_MEMORY].lower_bound && c->need.bytes == 14 * GIB);
	CHECK_STR(c->v[GS_REQ_MEMORY].missing, "missing.counters");
	gs_verdict_release(&d);

	/* counter-case: every counter read: 14 GiB + 0.5 GB outside, admissible */
	m.ph[1].reserved_peak.v = 14 * GIB;
	m.ph[1].reserved_peak.has = 1;
	m.ph[1].used_end.v = 14 * GIB + 500000000;
	gs_verdict_measurement_need_of(&m.m, &n);
	CHECK(!n.lower_bound && n.q.bytes == 14 * GIB + 500000000);
	CLASSIFY_VERDICT(&w, o, 1, ms, 1, "rtx4090-1x",
			 GS_REQ_MEMORY, GS_V_ADMISSIBLE, "why.memory.observed_fits");

	/* no device_used: the outside term is missing, not 0 */
	m.ph[0].used_end.has = 0;
	gs_verdict_measurement_need_of(&m.m, &n);
	CHECK(n.lower_bound);
	CHECK_STR(n.missing_counter, "device_used");
	CHECK_STR(n.missing_phase, "model_load");
	CLASSIFY_VERDICT(&w, o, 1, ms, 1, "rtx4090-1x",
			 GS_REQ_MEMORY, GS_V_TO_CONFIRM, "why.memory.observed_lower_bound");
}

/*
 * Ranking with mixed currencies is transitive and does not depend on the
 * catalog order (finding 7): USD 10, EUR 5, USD 20 cannot be ranked by
 * cost, so the margin decides (48, 40, 24 GB cards), then the offer id.
 */
static void test_ranking_mixed_currencies(void)
{
	static const int perm[6][3] = { { 0, 1, 2 }, { 0, 2, 1 }, { 1, 0, 2 },
					 { 1, 2, 0 }, { 2, 0, 1 }, { 2, 1, 0 } };
	gs_workload w;
	gs_offer base[3], o[3];
	gs_plan p[3];
	gs_decision d;
	int k, i;

	S_workload(&w);
	S_campaign(&w, "2026-12-01", 3);
	S_plan(&p[0], 72, 1000, "USD");
	S_plan(&p[1], 72, 500, "EUR");
	S_plan(&p[2], 72, 2000, "USD");
	S_offer(&base[0], "usd-10", "A", NULL, 1, 24);
	S_offer(&base[1], "eur-5", "B", NULL, 1, 40);
	S_offer(&base[2], "usd-20", "C", NULL, 1, 48);
	for (i = 0; i < 3; i++)
		S_plans(&base[i], &p[i], 1);
	for (k = 0; k < 6; k++) {
		for (i = 0; i < 3; i++)
			o[i] = base[perm[k][i]];
		S_classify(&w, o, 3, NULL, 0, &d);
		/* none retained: the pre-selected offer closest to retained */
		CHECK(gs_verdict_best(&d) == S_cand(&d, "usd-20"));
		CHECK(S_rank(&d, "usd-20") == 0);
		CHECK(S_rank(&d, "eur-5") == 1);
		CHECK(S_rank(&d, "usd-10") == 2);
		gs_verdict_release(&d);
	}
	/* counter-case: one currency, cost ranks first */
	S_plan(&p[1], 72, 500, "USD");
	S_classify(&w, base, 3, NULL, 0, &d);
	CHECK(S_rank(&d, "eur-5") == 0);
	CHECK(S_rank(&d, "usd-10") == 1);
	CHECK(S_rank(&d, "usd-20") == 2);
	gs_verdict_release(&d);
}

/* The arithmetic exclusion is a calculated certainty, kept apart. */
static void test_exclusion_basis(void)
{
	gs_workload w;
	gs_offer o[1];
	gs_decision d;
	const gs_candidate *c;

	S_workload(&w);
	S_offer(&o[0], "small-1x", "T4", NULL, 1, 12);
	S_classify(&w, o, 1, NULL, 0, &d);
	c = S_cand(&d, "small-1x");
	VERDICT(c, GS_REQ_MEMORY, GS_V_EXCLUDE, "why.memory.lower_exceeds_card");
	CHECK(c->v[GS_REQ_MEMORY].basis == GS_BASIS_CALCULATED_CERTAINTY);
	CHECK(c->v[GS_REQ_MEMORY].evidence == NULL);
	/* every offer excluded: no offer to take */
	CHECK(gs_verdict_best(&d) == NULL);
	gs_verdict_release(&d);
}


/*** classes: the order is the recommendation ***/

/*
 * Mistral-7B's geometry (32 layers, 8 KV heads of 128, bf16 cache) at
 * 32,768 tokens x 8 sequences: KV = 2 x 32 x 8 x 128 x 32768 x 2 x 8 =
 * 32 GiB exactly; weights 14,483,464,192 B (13.49 GiB, the checkpoint's).
 */
static gs_dim S_mdims[] = { { "input_tokens", 32768 }, { "sequences", 8 } };

static void S_mistral(gs_workload *w)
{
	S_workload(w);
	w->has_weights_bytes = 1;
	w->weights_bytes = UINT64_C(14483464192);
	w->dims = S_mdims;
	w->ndims = 2;
	w->cache = GS_CACHE_DENSE;
	w->has_kv_geometry = 1;
	w->layers = 32;
	w->kv_heads = 8;
	w->attention_heads = 32;
	w->head_dim = 128;
	w->cache_bytes_per_value = 2;
}

static void test_classes_and_order(void)
{
	gs_workload w;
	gs_offer o[6];
	gs_plan p[6];
	gs_decision d;
	const gs_candidate *c;

	S_mistral(&w);
	/* 45.49 GiB of lower bound; no reserve: the need is the lower bound */
	S_offer(&o[0], "cheap-unknown", "RTX A5000", NULL, 1, 0);
	o[0].memory_unknown = 1;
	o[0].nominal_gb_text = NULL;
	S_plan(&p[0], 1, 20, "USD");           /* 0.20 USD/h: the cheapest */
	S_plans(&o[0], &p[0], 1);
	S_offer(&o[1], "l40s", "L40S", NULL, 1, 48);   /* 44.70 GiB conservative, 48 GiB upper */
	S_plan(&p[1], 1, 129, "USD");
	S_plans(&o[1], &p[1], 1);
	S_offer(&o[2], "a100", "A100 80GB", NULL, 1, 80);
	S_plan(&p[2], 1, 199, "USD");
	S_plans(&o[2], &p[2], 1);
	S_offer(&o[3], "h100", "H100 SXM", NULL, 1, 80);
	S_plan(&p[3], 1, 299, "USD");
	S_plans(&o[3], &p[3], 1);
	S_offer(&o[4], "rtx4090", "RTX 4090", NULL, 1, 24);
	S_plan(&p[4], 1, 10, "USD");
	S_plans(&o[4], &p[4], 1);
	S_offer(&o[5], "vendor-b200", "B200", NULL, 1, 180);
	S_reference(&o[5]);
	S_classify(&w, o, 6, NULL, 0, &d);

	/* the 24 GB card: 45.49 GiB of weights and cache above its 24 GiB
	 * upper bound, while each term alone (13.49, 32) is not: excluded */
	c = S_cand(&d, "rtx4090");
	VERDICT(c, GS_REQ_MEMORY, GS_V_EXCLUDE, "why.memory.lower_exceeds_card");
	CHECK(c->v[GS_REQ_MEMORY].basis == GS_BASIS_CALCULATED_CERTAINTY);
	CHECK(c->v[GS_REQ_MEMORY].b.bytes == 24 * GIB);
	CHECK(c->v[GS_REQ_MEMORY].w.bytes == UINT64_C(14483464192));
	CHECK(c->v[GS_REQ_MEMORY].kv.bytes == 32 * GIB);
	CHECK(c->cls == GS_CLASS_EXCLUDED);
	/* L40S: 45.49 GiB between its conservative 44.70 and its upper 48 GiB:
	 * neither a fit nor an exclusion */
	c = S_cand(&d, "l40s");
	CHECK(!c->excluded && c->cls == GS_CLASS_UNSURE);
	CHECK(c->upper.bytes == 48 * GIB && c->capacity.bytes == UINT64_C(47695611822));
	CHECK(c->cap_source == GS_CAP_REPORTED);    /* 44.42 GiB, cited */
	CHECK(c->lower.bytes == UINT64_C(14483464192) + 32 * GIB);
	CHECK(S_cand(&d, "a100")->cls == GS_CLASS_FITS);
	CHECK(S_cand(&d, "h100")->cls == GS_CLASS_FITS);
	CHECK(S_cand(&d, "cheap-unknown")->cls == GS_CLASS_UNKNOWN);
	CHECK(S_cand(&d, "vendor-b200")->cls == GS_CLASS_REFERENCE);
	CHECK(!S_cand(&d, "vendor-b200")->retained);
	/* the order: the fits by price per hour, then the unsure, then the
	 * cheap card of unknown memory, then the excluded, then the reference */
	CHECK(S_rank(&d, "a100") == 0);
	CHECK(S_rank(&d, "h100") == 1);
	CHECK(S_rank(&d, "l40s") == 2);
	CHECK(S_rank(&d, "cheap-unknown") == 3);
	CHECK(S_rank(&d, "rtx4090") == 4);
	CHECK(S_rank(&d, "vendor-b200") == 5);
	CHECK(gs_verdict_best(&d) == S_cand(&d, "a100"));
	/* headroom on the A100 (its reported total, 79.25 GiB = 85,094,039,552
	 * B): minus 14,483,464,192 B of weights = 70,610,575,360 B for the
	 * cache, 131,072 B a token of a sequence: 67,339 tokens at 8
	 * sequences, 16 sequences at 32,768 tokens; the capacity is a cited
	 * public figure, not an observation of ours, so assumed */
	c = S_cand(&d, "a100");
	CHECK(c->has_headroom && c->headroom_tokens == 67339 && c->headroom_sequences == 16);
	CHECK(c->headroom_prov == GS_PROV_ASSUMED && !c->headroom_without_reserve);
	CHECK(!S_cand(&d, "l40s")->has_headroom && !S_cand(&d, "cheap-unknown")->has_headroom);
	CHECK(d.nclass[GS_CLASS_FITS] == 2 && d.nclass[GS_CLASS_UNSURE] == 1 &&
	      d.nclass[GS_CLASS_UNKNOWN] == 1 && d.nclass[GS_CLASS_EXCLUDED] == 1 &&
	      d.nclass[GS_CLASS_REFERENCE] == 1);
	CHECK(d.npreselected == 4 && d.nretained == 0);
	gs_verdict_release(&d);

	/* a reserve of 4 GiB on top: the A100 (74.51 GiB) still holds the
	 * whole need; alone, an L40S-like 48 GiB... card of 50 GB (46.57 GiB)
	 * holds the lower bound but not the reserve */
	{
		static gs_item res[] = { { (char *)"runtime", 4 * GIB, (char *)"GiB", (char *)"4", NULL } };
		w.reserve = res;
		w.nreserve = 1;
	}
	S_offer(&o[1], "fifty", "X50", NULL, 1, 50);
	S_plans(&o[1], &p[1], 1);
	S_classify(&w, o, 3, NULL, 0, &d);
	CHECK(S_cand(&d, "fifty")->cls == GS_CLASS_LOWER_FITS);
	/* 50e9 - 14,483,464,192 = 35,516,535,808 B without the reserve (which
	 * does not fit): 33,871 tokens at 8 sequences, 8 sequences at 32,768 */
	c = S_cand(&d, "fifty");
	CHECK(c->has_headroom && c->headroom_without_reserve);
	CHECK(c->headroom_tokens == 33871 && c->headroom_sequences == 8);
	CHECK(S_cand(&d, "a100")->cls == GS_CLASS_FITS);
	/* dearer, but known to hold the whole need: first */
	CHECK(S_rank(&d, "a100") == 0 && S_rank(&d, "fifty") == 1 && S_rank(&d, "cheap-unknown") == 2);
	gs_verdict_release(&d);
	/* only the lower-bound fit and the unknown: the lower-bound fit is the
	 * offer to take; only the unknown and a reference: none */
	S_classify(&w, o + 1, 1, NULL, 0, &d);
	CHECK(gs_verdict_best(&d) == S_cand(&d, "fifty"));
	gs_verdict_release(&d);
	o[4] = o[5];
	S_classify(&w, o, 1, NULL, 0, &d);
	CHECK(gs_verdict_best(&d) == NULL);
	gs_verdict_release(&d);
	S_classify(&w, o + 4, 1, NULL, 0, &d);
	CHECK(gs_verdict_best(&d) == NULL);
	gs_verdict_release(&d);
}

/*
 * In one class, memory admissible on evidence comes before a calculated
 * fit, even a cheaper one: an observed fit on an H100 ahead of an A100
 * that only the calculation says holds it.
 */
static void test_observed_fit_first_in_class(void)
{
	static const char *const dev = "NVIDIA H100 80GB HBM3";
	gs_workload w;
	gs_offer o[2];
	gs_plan p[2];
	S_meas m, *ms[] = { &m };
	gs_decision d;

	S_workload(&w);
	S_campaign(&w, "2026-12-01", 3);     /* the calendar stays to confirm */
	S_offer(&o[0], "a100-cheap", "A100 80GB", NULL, 1, 80);
	S_plan(&p[0], 1, 100, "USD");
	S_plans(&o[0], &p[0], 1);
	S_offer(&o[1], "h100-dear", "H100 SXM", dev, 1, 80);
	S_plan(&p[1], 1, 300, "USD");
	S_plans(&o[1], &p[1], 1);
	S_measurement(&m, "run.json", 8192, 1);
	S_device(&m.dev[0], 0, dev, UINT64_C(85520809984));
	m.m.ndevices = 1;
	S_phase(&m.ph[0], "cold_forward", 0, GS_PHASE_OK, NULL, 20 * GIB);
	m.m.nphases = 1;
	S_classify(&w, o, 2, ms, 1, &d);
	VERDICT(S_cand(&d, "h100-dear"), GS_REQ_MEMORY, GS_V_ADMISSIBLE, "why.memory.observed_fits");
	CHECK(S_cand(&d, "h100-dear")->cls == GS_CLASS_FITS && S_cand(&d, "a100-cheap")->cls == GS_CLASS_FITS);
	CHECK(S_rank(&d, "h100-dear") == 0 && S_rank(&d, "a100-cheap") == 1);
	CHECK(gs_verdict_best(&d) == S_cand(&d, "h100-dear"));
	gs_verdict_release(&d);
}

/* A reference card that an observation would retain is never proposed. */
static void test_reference_never_proposed(void)
{
	static const char *const dev = "NVIDIA H100 80GB HBM3";
	gs_workload w;
	gs_offer o[1];
	S_meas m, *ms[] = { &m };
	gs_decision d;

	S_workload(&w);
	S_offer(&o[0], "h100-ref", "H100 SXM", dev, 1, 80);
	S_reference(&o[0]);
	S_measurement(&m, "run.json", 8192, 1);
	S_device(&m.dev[0], 0, dev, UINT64_C(85520809984));
	m.m.ndevices = 1;
	S_phase(&m.ph[0], "cold_forward", 0, GS_PHASE_OK, NULL, 20 * GIB);
	m.m.nphases = 1;
	S_classify(&w, o, 1, ms, 1, &d);
	VERDICT(&d.cands[0], GS_REQ_MEMORY, GS_V_ADMISSIBLE, "why.memory.observed_fits");
	CHECK(d.cands[0].cls == GS_CLASS_REFERENCE && !d.cands[0].retained);
	CHECK(d.nretained == 0 && d.npreselected == 0);
	CHECK(gs_verdict_best(&d) == NULL);
	/* the upper bound is the observed total */
	CHECK(d.cands[0].upper.bytes == UINT64_C(85520809984) && d.cands[0].upper.prov == GS_PROV_OBSERVED);
	/* and the capacity names the measurement it was read in */
	CHECK(d.cands[0].cap_source == GS_CAP_OBSERVED && d.cands[0].cap_from &&
	      STREQ(d.cands[0].cap_from->ref->file, "run.json"));
	gs_verdict_release(&d);
}

/*
 * Tensor parallelism over 2 cards: weights / 2; the KV cache / 2 when the
 * KV heads divide by 2, replicated otherwise. Without a declared
 * placement, the best split still excludes 2 x 24 GB for a 70B in fp16.
 */
static void test_tensor_parallel(void)
{
	gs_workload w;
	gs_offer o[2];
	gs_decision d;
	const gs_candidate *c;

	S_mistral(&w);
	w.tensor_parallel = 2;
	S_offer(&o[0], "l40s-2x", "L40S", NULL, 2, 48);
	S_classify(&w, o, 1, NULL, 0, &d);
	c = &d.cands[0];
	CHECK(c->split == 2);
	/* 7,241,732,096 + 16 GiB per card */
	CHECK(c->lower.bytes == UINT64_C(7241732096) + 16 * GIB);
	VERDICT(c, GS_REQ_MEMORY, GS_V_TO_CONFIRM, "why.memory.calc_split");
	CHECK(c->v[GS_REQ_MEMORY].kv.bytes == 16 * GIB && c->v[GS_REQ_MEMORY].split == 2);
	CHECK(c->cls == GS_CLASS_FITS);
	gs_verdict_release(&d);

	/* 7 KV heads do not divide by 2: the cache is replicated */
	w.kv_heads = 7;
	S_classify(&w, o, 1, NULL, 0, &d);
	c = &d.cands[0];
	CHECK(c->lower.bytes == UINT64_C(7241732096) + 28 * GIB);
	CHECK(c->v[GS_REQ_MEMORY].kv.bytes == 28 * GIB);
	gs_verdict_release(&d);

	/* a 70B in fp16 (140e9 B), no placement declared: 70e9 B per card at
	 * best, above 24 GiB: excluded; 2 x 80 GB: to confirm */
	S_workload(&w);
	w.parameters = UINT64_C(70000000000);
	S_offer(&o[0], "a5000-2x", "RTX A5000", NULL, 2, 24);
	S_offer(&o[1], "h100-2x", "H100 SXM", NULL, 2, 80);
	S_classify(&w, o, 2, NULL, 0, &d);
	VERDICT(S_cand(&d, "a5000-2x"), GS_REQ_MEMORY, GS_V_EXCLUDE, "why.memory.lower_exceeds_lot");
	CHECK(S_cand(&d, "a5000-2x")->v[GS_REQ_MEMORY].a.bytes == 70 * GB);
	CHECK(S_cand(&d, "h100-2x")->cls == GS_CLASS_UNSURE);
	gs_verdict_release(&d);
}

/*
 * Tensor parallelism with the replicated parts R (docs/formats.md §4):
 * weights per card (W - R) / N + R, rounded up. The Mistral-7B figures:
 * W = 14,483,464,192 B, KV cache 32 GiB, R = 532,480 B (65 RMS norms of
 * 4,096 bf16 values), no reserve.
 *   N = 2: (14,483,464,192 - 532,480) / 2 + 532,480 = 7,241,465,856 +
 *          532,480 = 7,241,998,336; + 16 GiB = 24,421,867,520
 *   N = 4: 14,482,931,712 / 4 = 3,620,732,928 + 532,480 = 3,621,265,408;
 *          + 8 GiB = 12,211,200,000
 *   7 KV heads, N = 2: the cache (28 GiB) replicated: 7,241,998,336 +
 *          30,064,771,072 = 37,306,769,408
 * A declared R enters the need, not the lower bound (7,241,732,096 + 16 GiB).
 */
static void test_tensor_parallel_replicated(void)
{
	gs_workload w;
	gs_offer o[3];
	gs_decision d;
	const gs_candidate *c;
	const gs_verdict *v;

	S_mistral(&w);
	w.tensor_parallel = 2;
	w.has_tp_replicated = 1;
	w.tp_replicated_bytes = 532480;
	w.tp_replicated_calculated = 1;
	S_offer(&o[0], "l40s-2x", "L40S", NULL, 2, 48);
	S_classify(&w, o, 1, NULL, 0, &d);
	c = &d.cands[0];
	v = &c->v[GS_REQ_MEMORY];
	CHECK_U64(c->lower.bytes, UINT64_C(24421867520));
	CHECK_U64(c->need.bytes, UINT64_C(24421867520));
	VERDICT(c, GS_REQ_MEMORY, GS_V_TO_CONFIRM, "why.memory.calc_split_replicated");
	CHECK_U64(v->w.bytes, UINT64_C(7241998336));
	CHECK(v->w.prov == GS_PROV_CALCULATED);
	CHECK(v->r.present && v->r.bytes == 532480 && v->r.prov == GS_PROV_CALCULATED);
	CHECK_U64(v->kv.bytes, 16 * GIB);
	CHECK_U64(v->split, 2);
	gs_verdict_release(&d);

	/* N = 4 over a lot of 4 */
	w.tensor_parallel = 4;
	S_offer(&o[0], "l40s-4x", "L40S", NULL, 4, 48);
	S_classify(&w, o, 1, NULL, 0, &d);
	c = &d.cands[0];
	CHECK_U64(c->lower.bytes, UINT64_C(12211200000));
	CHECK_U64(c->v[GS_REQ_MEMORY].w.bytes, UINT64_C(3621265408));
	CHECK_U64(c->v[GS_REQ_MEMORY].kv.bytes, 8 * GIB);
	gs_verdict_release(&d);

	/* 7 KV heads do not divide by 2: the cache is whole on each card */
	w.tensor_parallel = 2;
	w.kv_heads = 7;
	S_offer(&o[0], "l40s-2x", "L40S", NULL, 2, 48);
	S_classify(&w, o, 1, NULL, 0, &d);
	CHECK_U64(d.cands[0].lower.bytes, UINT64_C(37306769408));
	CHECK_U64(d.cands[0].v[GS_REQ_MEMORY].kv.bytes, 28 * GIB);
	gs_verdict_release(&d);
	w.kv_heads = 8;

	/* rounded up: W one byte more, W - R odd: 7,241,465,857 + 532,480 */
	w.weights_bytes = UINT64_C(14483464193);
	S_classify(&w, o, 1, NULL, 0, &d);
	CHECK_U64(d.cands[0].v[GS_REQ_MEMORY].w.bytes, UINT64_C(7241998337));
	gs_verdict_release(&d);
	w.weights_bytes = UINT64_C(14483464192);

	/* a calculated certainty with R: 2 x 16 GB (upper 16 GiB =
	 * 17,179,869,184 per card) below 24,421,867,520 */
	S_offer(&o[0], "v100-2x", "V100", NULL, 2, 16);
	S_classify(&w, o, 1, NULL, 0, &d);
	c = &d.cands[0];
	VERDICT(c, GS_REQ_MEMORY, GS_V_EXCLUDE, "why.memory.lower_exceeds_split_replicated");
	CHECK_U64(c->v[GS_REQ_MEMORY].a.bytes, UINT64_C(24421867520));
	CHECK_U64(c->v[GS_REQ_MEMORY].r.bytes, 532480);
	gs_verdict_release(&d);

	/* declared: the need counts it (assumed), the lower bound does not */
	w.tp_replicated_calculated = 0;
	S_offer(&o[0], "l40s-2x", "L40S", NULL, 2, 48);
	S_classify(&w, o, 1, NULL, 0, &d);
	c = &d.cands[0];
	v = &c->v[GS_REQ_MEMORY];
	CHECK_U64(c->lower.bytes, UINT64_C(7241732096) + 16 * GIB);
	CHECK_U64(c->need.bytes, UINT64_C(24421867520));
	CHECK(c->need.prov == GS_PROV_ASSUMED);
	VERDICT(c, GS_REQ_MEMORY, GS_V_TO_CONFIRM, "why.memory.calc_split_replicated_declared");
	CHECK(v->r.present && v->r.prov == GS_PROV_ASSUMED);
	CHECK(v->w.prov == GS_PROV_ASSUMED);
	gs_verdict_release(&d);
	/* and a certainty rests on the calculated figures only */
	S_offer(&o[0], "v100-2x", "V100", NULL, 2, 16);
	S_classify(&w, o, 1, NULL, 0, &d);
	VERDICT(&d.cands[0], GS_REQ_MEMORY, GS_V_EXCLUDE, "why.memory.lower_exceeds_split");
	CHECK_U64(d.cands[0].v[GS_REQ_MEMORY].a.bytes, UINT64_C(7241732096) + 16 * GIB);
	CHECK(!d.cands[0].v[GS_REQ_MEMORY].r.present);
	gs_verdict_release(&d);

	/* no tensor parallelism declared: R changes nothing */
	w.tensor_parallel = 0;
	w.tp_replicated_calculated = 1;
	S_offer(&o[0], "h200", "H200", NULL, 1, 141);
	S_classify(&w, o, 1, NULL, 0, &d);
	CHECK_U64(d.cands[0].lower.bytes, UINT64_C(14483464192) + 32 * GIB);
	CHECK(!d.cands[0].v[GS_REQ_MEMORY].r.present);
	gs_verdict_release(&d);
}

/* Prices per hour, exact to the millionth, with and without a campaign. */
static void test_prices_per_hour(void)
{
	gs_workload w;
	gs_offer o[2];
	gs_plan p[3];
	gs_decision d;
	const gs_candidate *c;

	S_workload(&w);
	S_offer(&o[0], "rtx4090-1x", "RTX 4090", NULL, 1, 24);
	S_plan(&p[0], 72, 4714, "USD");          /* the seeds' 47.14 USD for 3 days */
	S_plans(&o[0], &p[0], 1);
	S_offer(&o[1], "h100-2x", "H100 SXM", NULL, 2, 80);
	S_plan(&p[1], 1, 598, "USD");
	S_plan(&p[2], 1, 399, "USD");
	p[2].interruptible = 1;
	S_plans(&o[1], &p[1], 2);
	S_classify(&w, o, 2, NULL, 0, &d);
	c = S_cand(&d, "rtx4090-1x");
	/* 47.14 / 72 = 0.654722... USD/h; per GiB-hour of the 4090's reported
	 * 25,383,256,719 B: 47.14 x 2^30 / (72 x 25,383,256,719) = 0.0276955...
	 * -> 27,696 millionths */
	CHECK(c->on_demand.plan == &p[0] && c->on_demand.micro_per_hour == 654722);
	CHECK(c->on_demand.micro_per_card_hour == 654722);
	CHECK(c->on_demand.has_per_gib && c->on_demand.micro_per_gib_hour == 27696);
	CHECK(c->interruptible.plan == NULL);
	CHECK(c->plan == NULL);     /* no campaign: no total */
	c = S_cand(&d, "h100-2x");
	CHECK(c->on_demand.micro_per_hour == 5980000 && c->on_demand.micro_per_card_hour == 2990000);
	CHECK(c->interruptible.plan == &p[2] && c->interruptible.micro_per_hour == 3990000);
	/* without a campaign the price per hour ranks: 0.65 before 5.98 */
	CHECK(S_rank(&d, "rtx4090-1x") == 0);
	gs_verdict_release(&d);

	/* a lot priced interruptible only, even cheaper, comes after one rented
	 * on demand: the provider may stop it at any time */
	S_plans(&o[1], &p[2], 1);
	S_classify(&w, o, 2, NULL, 0, &d);
	CHECK(S_cand(&d, "h100-2x")->on_demand.plan == NULL &&
	      S_cand(&d, "h100-2x")->interruptible.micro_per_hour == 3990000);
	CHECK(S_cand(&d, "rtx4090-1x")->cls == S_cand(&d, "h100-2x")->cls);
	p[2].price_hundredths = 1;          /* 0.01 USD/h */
	gs_verdict_release(&d);
	S_classify(&w, o, 2, NULL, 0, &d);
	CHECK(S_rank(&d, "rtx4090-1x") == 0 && S_rank(&d, "h100-2x") == 1);
	gs_verdict_release(&d);
	p[2].price_hundredths = 399;
	S_plans(&o[1], &p[1], 2);

	/* with a campaign of 3 days: the total, 47.14 against 2 x 72 x 5.98 */
	S_campaign(&w, "2026-12-01", 3);
	S_classify(&w, o, 2, NULL, 0, &d);
	c = S_cand(&d, "h100-2x");
	CHECK(c->plan == &p[1] && c->cost == 72 * 598);
	CHECK(S_cand(&d, "rtx4090-1x")->cost == 4714);
	CHECK(S_rank(&d, "rtx4090-1x") == 0);
	gs_verdict_release(&d);
}

/*** imported evidence: what each kind decides (docs/formats.md §4.1) ***/

/*
 * vLLM 0.6.4 on an RTX 3090, the first start of
 * tests/data/evidence-logs/vllm-04 (issue 10517): total_gpu_memory=23.58GiB
 * (25,318,832,210 B: 23.58 x 2^30 rounded), kv_cache_size=3.81GiB
 * (4,090,956,349 B), gpu_memory_utilization=0.90, 1,952 blocks of 16 =
 * 31,232 tokens at max_model_len 20,000. The model, its dtype, KV dtype,
 * parallelism and block size stated at import, as the example does.
 */
#define S_3090 "NVIDIA GeForce RTX 3090"
#define S_3090_TOTAL UINT64_C(25318832210)

typedef struct {
	gs_measurement m;
	gs_kv dims[4];
	gs_device dev[1];
	gs_phase ph[3];
	gs_msetting set[8];
	gs_mfigure fig[4];
	gs_evidence_ref ref;
} S_imp;

static void S_setting_add(S_imp *s, const char *name, const char *value, uint64_t line)
{
	gs_msetting *st = &s->set[s->m.nimport_settings++];

	st->name = S_s(name);
	st->value = S_s(value);
	st->line = line;
	st->stated = line == 0;
}

static void S_fig_add(S_imp *s, const char *name, int64_t value, const char *unit,
		      const char *as_written)
{
	gs_mfigure *f = &s->fig[s->m.nimport_figures++];

	f->name = S_s(name);
	f->device = 0;
	f->is_int = 1;
	f->value = value;
	f->unit = S_s(unit);
	f->as_written = S_s(as_written);
	f->line = 2;
}

static void S_imported(S_imp *s, const char *file, const char *from, const char *gpu)
{
	memset(s, 0, sizeof(*s));
	s->m.schema = "gpusheet-measurement";
	s->m.schema_version = 1;
	s->m.code = "vLLM start-up log";
	s->m.produced_by = "vLLM";
	s->m.backend = "cuda";
	s->m.process = "fresh";
	s->m.import_from = S_s(from);
	s->m.import_source = "https://github.com/vllm-project/vllm/issues/10517";
	s->m.devices = s->dev;
	s->m.ndevices = 1;
	S_device(&s->dev[0], 0, gpu, S_3090_TOTAL);
	s->m.phases = s->ph;
	s->m.import_settings = s->set;
	s->m.import_figures = s->fig;
	s->ref.file = S_s(file);
	s->ref.path = S_s(file);
	s->ref.covers = "test";
}

/* The vLLM start: dims dtype and max_model_len, the settings, three figures. */
static void S_vllm04(S_imp *s, const char *gpu)
{
	S_imported(s, "vllm-04.json", "vllm", gpu);
	s->dims[0].name = "dtype";
	s->dims[0].value = "bfloat16";
	s->dims[1].name = "max_model_len";
	s->dims[1].value = "20000";
	s->dims[1].number = 20000;
	s->dims[1].is_number = 1;
	s->m.dims = s->dims;
	s->m.ndims = 2;
	S_phase(&s->ph[0], "model_load", 0, GS_PHASE_OK, NULL, 0);
	S_phase(&s->ph[1], "kv_cache_init", 0, GS_PHASE_OK, NULL, 0);
	s->m.nphases = 2;
	S_setting_add(s, "gpu_memory_utilization", "0.90", 2);
	S_setting_add(s, "max_model_len", "20000", 4);
	S_setting_add(s, "model", "meta-llama/Llama-3.1-8B-Instruct", 0);
	S_setting_add(s, "kv_cache_dtype", "auto", 0);
	S_setting_add(s, "tensor_parallel_size", "1", 0);
	S_setting_add(s, "block_size", "16", 0);
	S_fig_add(s, "total_gpu_memory", (int64_t)S_3090_TOTAL, "bytes", "23.58GiB");
	S_fig_add(s, "kv_cache_memory", INT64_C(4090956349), "bytes", "3.81GiB");
	S_fig_add(s, "kv_cache_tokens", 31232, "tokens", "31232");
}

static gs_dim S_ldims[3];

/* Llama-3.1-8B-Instruct in bf16 (8,030,261,248 parameters: 16,060,522,496 B
 * of weights), 32 layers x 8 KV heads x 128: 131,072 B of KV per token.
 * input + output tokens kept, sequences at once. */
static void S_llama8b(gs_workload *w, uint64_t input, uint64_t output, uint64_t seqs)
{
	S_workload(w);
	w->model_name = "meta-llama/Llama-3.1-8B-Instruct";
	w->parameters = UINT64_C(8030261248);
	S_ldims[0].name = "input_tokens";
	S_ldims[0].value = input;
	S_ldims[1].name = "output_tokens";
	S_ldims[1].value = output;
	S_ldims[2].name = "sequences";
	S_ldims[2].value = seqs;
	w->dims = S_ldims;
	w->ndims = 3;
	w->cache = GS_CACHE_DENSE;
	w->has_kv_geometry = 1;
	w->layers = 32;
	w->kv_heads = 8;
	w->attention_heads = 32;
	w->head_dim = 128;
	w->cache_bytes_per_value = 2;
}

static void S_classify_imp(const gs_workload *w, gs_offer *offers, size_t noffers,
			   S_imp **ms, size_t nms, gs_decision *d)
{
	gs_sizing s;
	gs_catalog cat;
	gs_evidence ev[8];
	gs_error err = GS_ERROR_INIT;
	size_t i;

	if (gs_sizing_workload(w, &s, &err)) {
		fprintf(stderr, "sizing failed: %s\n", gs_error_message(&err));
		abort();
	}
	memset(&cat, 0, sizeof(cat));
	cat.title = "test";
	cat.offers = offers;
	cat.noffers = noffers;
	for (i = 0; i < nms; i++) {
		ev[i].m = &ms[i]->m;
		ev[i].ref = &ms[i]->ref;
	}
	gs_verdict_classify(w, &s, ev, nms, &cat, 0, d);
	gs_error_release(&err);
}

/* Capacity above the need: 16,000 + 4,000 tokens x 1 sequence = 20,000
 * tokens (whole blocks of 16) <= 31,232 observed at 0.90: admissible, and
 * the reason names the log's source and the setting. The device total the
 * log printed is the capacity of every RTX 3090 offer, and its upper bound. */
static void test_kvcap_fits(void)
{
	gs_workload w;
	gs_offer o[1];
	S_imp m;
	S_imp *ms[] = { &m };
	gs_decision d;
	const gs_candidate *c;

	S_llama8b(&w, 16000, 4000, 1);
	S_offer(&o[0], "3090", "RTX 3090", S_3090, 1, 24);
	S_vllm04(&m, S_3090);
	S_classify_imp(&w, o, 1, ms, 1, &d);
	c = S_cand(&d, "3090");
	VERDICT(c, GS_REQ_MEMORY, GS_V_ADMISSIBLE, "why.memory.kv_capacity_fits");
	CHECK(c->v[GS_REQ_MEMORY].has_tokens);
	CHECK_U64(c->v[GS_REQ_MEMORY].t1, 20000);
	CHECK_U64(c->v[GS_REQ_MEMORY].t2, 31232);
	CHECK_STR(c->v[GS_REQ_MEMORY].s1, "0.90");
	CHECK_STR(c->v[GS_REQ_MEMORY].s2, "https://github.com/vllm-project/vllm/issues/10517");
	CHECK_STR(c->v[GS_REQ_MEMORY].evidence, "vllm-04.json");
	/* the model was stated at import: the sheet says so */
	CHECK_STR(c->v[GS_REQ_MEMORY].note, "note.kvcap_stated");
	CHECK_STR(c->v[GS_REQ_MEMORY].n2, "model");
	CHECK(c->cap_source == GS_CAP_OBSERVED);
	CHECK_U64(c->capacity.bytes, S_3090_TOTAL);
	CHECK(c->capacity.prov == GS_PROV_OBSERVED);
	CHECK_U64(c->upper.bytes, S_3090_TOTAL);
	/* nothing else required: retained on observed evidence */
	CHECK(c->retained && c->cls == GS_CLASS_RETAINED);
	gs_verdict_release(&d);

	/* 20,001 tokens kept, above max_model_len 20,000: the capacity does
	 * not speak for a longer sequence */
	S_llama8b(&w, 16001, 4000, 1);
	S_classify_imp(&w, o, 1, ms, 1, &d);
	VERDICT(S_cand(&d, "3090"), GS_REQ_MEMORY, GS_V_TO_CONFIRM, "why.memory.calc_fits");
	CHECK_STR(S_cand(&d, "3090")->v[GS_REQ_MEMORY].note, "note.kvcap_context");
	gs_verdict_release(&d);
}

/* Below the need, enough at 1.0: 2 x 20,000 = 40,000 tokens > 31,232. At
 * 1.0 the cache also gets (1 - 0.90) x 25,318,832,210 = 2,531,883,221 B:
 * 6,622,839,570 B / 131,072 B per token = 50,528 tokens >= 40,000: to
 * confirm, with that figure, calculated. Short even at 1.0: 3 x 20,000 =
 * 60,000 tokens; the upper figure takes 23.58 and 3.81 GiB at +0.005 GiB
 * (5,368,710 B): ceil(25,324,200,920 x 0.1) + 4,090,956,349 + 5,368,710 =
 * 6,628,745,151 B / 131,072 = 50,573 tokens < 60,000: excluded, a
 * calculated certainty (while the calculated lower bound, 16,060,522,496 +
 * 7,864,320,000 = 23,924,842,496 B, is below the card's 25,318,832,210). */
static void test_kvcap_above(void)
{
	gs_workload w;
	gs_offer o[1];
	S_imp m;
	S_imp *ms[] = { &m };
	gs_decision d;
	const gs_verdict *v;

	S_offer(&o[0], "3090", "RTX 3090", S_3090, 1, 24);
	S_vllm04(&m, S_3090);
	S_llama8b(&w, 16000, 4000, 2);
	S_classify_imp(&w, o, 1, ms, 1, &d);
	v = &S_cand(&d, "3090")->v[GS_REQ_MEMORY];
	VERDICT(S_cand(&d, "3090"), GS_REQ_MEMORY, GS_V_TO_CONFIRM, "why.memory.kv_capacity_above");
	CHECK_U64(v->t1, 40000);
	CHECK_U64(v->t2, 31232);
	CHECK_U64(v->t3, 50528);
	CHECK_U64(v->b.bytes, UINT64_C(6622839570));
	CHECK(v->b.prov == GS_PROV_CALCULATED);
	CHECK_STR(v->missing, "missing.kv_capacity");
	gs_verdict_release(&d);

	S_llama8b(&w, 16000, 4000, 3);
	S_classify_imp(&w, o, 1, ms, 1, &d);
	v = &S_cand(&d, "3090")->v[GS_REQ_MEMORY];
	VERDICT(S_cand(&d, "3090"), GS_REQ_MEMORY, GS_V_EXCLUDE, "why.memory.kv_capacity_short_at_full");
	CHECK(v->basis == GS_BASIS_CALCULATED_CERTAINTY);
	CHECK_U64(v->t1, 60000);
	CHECK_U64(v->t3, 50528);
	CHECK_U64(S_cand(&d, "3090")->lower.bytes, UINT64_C(23924842496));
	gs_verdict_release(&d);

	/* At the far end of the printed precision 1.0 gives 50,573 tokens, at
	 * its centre 50,528 (the run's max_model_len set to 30,000 so that
	 * these sequences stay within it): 2 x 25,286 tokens, 25,296 in
	 * blocks of 16, = 50,592 > 50,573: excluded. */
	S_llama8b(&w, 21286, 4000, 2);
	m.dims[1].value = "30000";
	m.dims[1].number = 30000;
	m.set[1].value = "30000";
	S_classify_imp(&w, o, 1, ms, 1, &d);
	CHECK_U64(S_cand(&d, "3090")->v[GS_REQ_MEMORY].t1, 50592);
	VERDICT(S_cand(&d, "3090"), GS_REQ_MEMORY, GS_V_EXCLUDE, "why.memory.kv_capacity_short_at_full");
	gs_verdict_release(&d);
	/* 2 x 25,280 (1,580 blocks) = 50,560: above the centre, within the far
	 * end: to confirm, never a certainty */
	S_llama8b(&w, 21280, 4000, 2);
	S_classify_imp(&w, o, 1, ms, 1, &d);
	CHECK_U64(S_cand(&d, "3090")->v[GS_REQ_MEMORY].t1, 50560);
	VERDICT(S_cand(&d, "3090"), GS_REQ_MEMORY, GS_V_TO_CONFIRM, "why.memory.kv_capacity_above");
	gs_verdict_release(&d);

	/* without the KV memory the log printed, 1.0 cannot be calculated */
	S_vllm04(&m, S_3090);
	m.fig[1].name = "activation_peak";
	S_llama8b(&w, 16000, 4000, 2);
	S_classify_imp(&w, o, 1, ms, 1, &d);
	VERDICT(S_cand(&d, "3090"), GS_REQ_MEMORY, GS_V_TO_CONFIRM,
		"why.memory.kv_capacity_above_full_unknown");
	CHECK_STR(S_cand(&d, "3090")->v[GS_REQ_MEMORY].n3, "kv_cache_memory");
	gs_verdict_release(&d);
}

/* What does not compare: another KV dtype (the workload's fp8 cache, 1 B
 * per value, against vLLM's auto = bf16, 2 B), another tensor-parallel
 * degree, another GPU model, another model, an unknown utilization. */
static void test_kvcap_not_comparable(void)
{
	gs_workload w;
	gs_offer o[3];
	S_imp m;
	S_imp *ms[] = { &m };
	gs_decision d;
	const gs_candidate *c;

	S_offer(&o[0], "3090", "RTX 3090", S_3090, 1, 24);
	S_offer(&o[1], "3090x2", "RTX 3090", S_3090, 2, 24);
	S_offer(&o[2], "4090", "RTX 4090", S_4090, 1, 24);
	S_vllm04(&m, S_3090);

	S_llama8b(&w, 16000, 4000, 1);
	w.cache_bytes_per_value = 1;
	S_classify_imp(&w, o, 1, ms, 1, &d);
	c = S_cand(&d, "3090");
	VERDICT(c, GS_REQ_MEMORY, GS_V_TO_CONFIRM, "why.memory.calc_fits");
	CHECK_STR(c->v[GS_REQ_MEMORY].note, "note.kvcap_kv_dtype");
	CHECK_STR(c->v[GS_REQ_MEMORY].n2, "kv_cache_dtype");
	gs_verdict_release(&d);
	/* the log's own fp8 cache against a bf16 workload */
	m.set[3].value = "fp8_e5m2";
	S_llama8b(&w, 16000, 4000, 1);
	S_classify_imp(&w, o, 1, ms, 1, &d);
	CHECK_STR(S_cand(&d, "3090")->v[GS_REQ_MEMORY].note, "note.kvcap_kv_dtype");
	gs_verdict_release(&d);
	m.set[3].value = "auto";

	/* tensor parallelism of 2 over two cards: the log ran at 1 */
	S_llama8b(&w, 16000, 4000, 1);
	w.tensor_parallel = 2;
	S_classify_imp(&w, o, 2, ms, 1, &d);
	c = S_cand(&d, "3090x2");
	VERDICT(c, GS_REQ_MEMORY, GS_V_TO_CONFIRM, "why.memory.calc_split");
	CHECK_STR(c->v[GS_REQ_MEMORY].note, "note.kvcap_parallel");
	CHECK_STR(c->v[GS_REQ_MEMORY].n2, "tensor_parallel_size");
	gs_verdict_release(&d);

	/* another GPU model: the capacity is the 3090's, not the 4090's */
	S_llama8b(&w, 16000, 4000, 1);
	S_classify_imp(&w, o, 3, ms, 1, &d);
	c = S_cand(&d, "4090");
	VERDICT(c, GS_REQ_MEMORY, GS_V_TO_CONFIRM, "why.memory.calc_fits");
	CHECK(c->cap_source == GS_CAP_REPORTED);
	CHECK(c->v[GS_REQ_MEMORY].note == NULL);
	VERDICT(S_cand(&d, "3090"), GS_REQ_MEMORY, GS_V_ADMISSIBLE, "why.memory.kv_capacity_fits");
	gs_verdict_release(&d);

	/* another model */
	w.model_name = "mistralai/Mistral-7B-v0.1";
	S_classify_imp(&w, o, 1, ms, 1, &d);
	CHECK_STR(S_cand(&d, "3090")->v[GS_REQ_MEMORY].note, "note.kvcap_model");
	gs_verdict_release(&d);

	/* the utilization unknown: the capacity holds at a setting nobody said */
	S_llama8b(&w, 16000, 4000, 1);
	m.set[0].name = "swap_space";   /* gpu_memory_utilization no more */
	S_classify_imp(&w, o, 1, ms, 1, &d);
	VERDICT(S_cand(&d, "3090"), GS_REQ_MEMORY, GS_V_TO_CONFIRM, "why.memory.calc_fits");
	CHECK_STR(S_cand(&d, "3090")->v[GS_REQ_MEMORY].note, "note.kvcap_setting_unknown");
	gs_verdict_release(&d);
}

/* An estimate never decides: the same capacity flagged as the engine's
 * own estimate is no capacity at all. */
static void test_kvcap_estimate(void)
{
	gs_workload w;
	gs_offer o[1];
	S_imp m;
	S_imp *ms[] = { &m };
	gs_decision d;

	S_offer(&o[0], "3090", "RTX 3090", S_3090, 1, 24);
	S_vllm04(&m, S_3090);
	m.fig[2].estimate = 1;
	S_llama8b(&w, 16000, 4000, 1);
	S_classify_imp(&w, o, 1, ms, 1, &d);
	VERDICT(S_cand(&d, "3090"), GS_REQ_MEMORY, GS_V_TO_CONFIRM, "why.memory.calc_fits");
	CHECK(S_cand(&d, "3090")->v[GS_REQ_MEMORY].note == NULL);
	gs_verdict_release(&d);
}

/*
 * Failures from logs: a PyTorch OOM at smaller dimensions than the
 * workload (8,000 input tokens, 1 sequence, against 16,000 + 4,000) on the
 * same GPU model excludes, when the log names the workload's model; of
 * another model or none, it does not. vLLM's max-seq-len error at
 * max_model_len 29,000 and 0.90 excludes a workload that states
 * max_model_len 32,768 and runs at 0.9, and not one at another setting.
 */
static void test_imported_failures(void)
{
	gs_workload w;
	gs_offer o[1];
	S_imp m;
	S_imp *ms[] = { &m };
	gs_decision d;
	static gs_dim dims4[4];
	static gs_condition cond[1];

	S_offer(&o[0], "3090", "RTX 3090", S_3090, 1, 24);
	S_imported(&m, "oom.json", "torch-oom", S_3090);
	m.dims[0].name = "input_tokens";
	m.dims[0].value = "8000";
	m.dims[0].number = 8000;
	m.dims[0].is_number = 1;
	m.dims[1].name = "sequences";
	m.dims[1].value = "1";
	m.dims[1].number = 1;
	m.dims[1].is_number = 1;
	m.m.dims = m.dims;
	m.m.ndims = 2;
	S_phase(&m.ph[0], "unknown", 0, GS_PHASE_FAILED,
		"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 448.00 MiB", 0);
	m.m.nphases = 1;
	S_setting_add(&m, "model", "meta-llama/Llama-3.1-8B-Instruct", 0);
	S_llama8b(&w, 16000, 4000, 1);
	S_classify_imp(&w, o, 1, ms, 1, &d);
	VERDICT(S_cand(&d, "3090"), GS_REQ_MEMORY, GS_V_EXCLUDE, "why.memory.observed_failure");
	CHECK(S_cand(&d, "3090")->v[GS_REQ_MEMORY].basis == GS_BASIS_OBSERVED_FAILURE);
	/* a third party's log is still observed: the sheet names who reported it */
	CHECK_STR(S_cand(&d, "3090")->v[GS_REQ_MEMORY].note, "note.reported_by");
	CHECK_STR(S_cand(&d, "3090")->v[GS_REQ_MEMORY].n1,
		  "https://github.com/vllm-project/vllm/issues/10517");
	gs_verdict_release(&d);
	/* another model */
	m.set[0].value = "Qwen/Qwen2.5-7B";
	S_classify_imp(&w, o, 1, ms, 1, &d);
	VERDICT(S_cand(&d, "3090"), GS_REQ_MEMORY, GS_V_TO_CONFIRM, "why.memory.calc_fits");
	CHECK_STR(S_cand(&d, "3090")->v[GS_REQ_MEMORY].note, "note.failure_model");
	gs_verdict_release(&d);
	/* no model named */
	m.m.nimport_settings = 0;
	S_classify_imp(&w, o, 1, ms, 1, &d);
	CHECK_STR(S_cand(&d, "3090")->v[GS_REQ_MEMORY].note, "note.failure_model");
	gs_verdict_release(&d);

	/* vLLM: the second start of vllm-04 */
	S_imported(&m, "vllm-04-start2.json", "vllm", S_3090);
	m.dims[0].name = "max_model_len";
	m.dims[0].value = "29000";
	m.dims[0].number = 29000;
	m.dims[0].is_number = 1;
	m.m.dims = m.dims;
	m.m.ndims = 1;
	S_phase(&m.ph[0], "kv_cache_init", 0, GS_PHASE_FAILED,
		"The model's max seq len (29000) is larger than the maximum number of tokens "
		"that can be stored in KV cache (23648). Try increasing `gpu_memory_utilization` "
		"or decreasing `max_model_len` when initializing the engine.", 0);
	m.m.nphases = 1;
	S_setting_add(&m, "gpu_memory_utilization", "0.90", 6);
	S_setting_add(&m, "model", "meta-llama/Llama-3.1-8B-Instruct", 0);
	S_llama8b(&w, 16000, 4000, 1);
	memcpy(dims4, S_ldims, sizeof(S_ldims));
	dims4[3].name = "max_model_len";
	dims4[3].value = 32768;
	w.dims = dims4;
	w.ndims = 4;
	/* no gpu_memory_utilization stated by the workload: not comparable */
	S_classify_imp(&w, o, 1, ms, 1, &d);
	CHECK(S_cand(&d, "3090")->v[GS_REQ_MEMORY].kind != GS_V_EXCLUDE);
	CHECK_STR(S_cand(&d, "3090")->v[GS_REQ_MEMORY].note, "note.failure_condition");
	gs_verdict_release(&d);
	cond[0].name = "gpu_memory_utilization";
	cond[0].value = "0.9";
	w.conditions = cond;
	w.nconditions = 1;
	S_classify_imp(&w, o, 1, ms, 1, &d);
	VERDICT(S_cand(&d, "3090"), GS_REQ_MEMORY, GS_V_EXCLUDE, "why.memory.observed_failure");
	gs_verdict_release(&d);
	/* at 0.95 the failure at 0.90 says nothing */
	cond[0].value = "0.95";
	S_classify_imp(&w, o, 1, ms, 1, &d);
	CHECK(S_cand(&d, "3090")->v[GS_REQ_MEMORY].kind != GS_V_EXCLUDE);
	gs_verdict_release(&d);
	/* a workload at max_model_len 20,000: the run at 29,000 was larger */
	cond[0].value = "0.90";
	dims4[3].value = 20000;
	S_classify_imp(&w, o, 1, ms, 1, &d);
	CHECK_STR(S_cand(&d, "3090")->v[GS_REQ_MEMORY].note, "note.failure_dim_larger");
	gs_verdict_release(&d);
}

/* The helpers, by hand. */
static void test_kvcap_helpers(void)
{
	gs_workload w;

	CHECK(gs_verdict_kv_dtype_bytes("auto", "bfloat16") == 2);
	CHECK(gs_verdict_kv_dtype_bytes("auto", "float32") == 4);
	CHECK(gs_verdict_kv_dtype_bytes("auto", NULL) == 0);
	CHECK(gs_verdict_kv_dtype_bytes("fp8", "bfloat16") == 1);
	CHECK(gs_verdict_kv_dtype_bytes("fp8_e4m3", "bfloat16") == 1);
	CHECK(gs_verdict_kv_dtype_bytes("int3", "bfloat16") == 0);
	CHECK(gs_verdict_kv_dtype_bytes(NULL, "bfloat16") == 0);
	S_workload(&w);
	w.model_name = "Llama-3.1-8B-Instruct";
	CHECK(gs_verdict_model_same(&w, "meta-llama/Llama-3.1-8B-Instruct"));
	CHECK(gs_verdict_model_same(&w, "llama-3.1-8b-instruct"));
	CHECK(!gs_verdict_model_same(&w, "meta-llama/Llama-3.1-70B-Instruct"));
	CHECK(!gs_verdict_model_same(&w, NULL));
	w.model_repo = "meta-llama/Llama-2-70b-hf";
	CHECK(gs_verdict_model_same(&w, "Llama-2-70b-hf"));
	{
		gs_sizing sz;
		memset(&sz, 0, sizeof(sz));
		sz.kv_tokens_kept = 20001;
		sz.kv_sequences = 2;
		CHECK_U64(gs_verdict_kv_need_tokens(&sz, 16), 40032);  /* 1,251 blocks x 16, twice */
		CHECK_U64(gs_verdict_kv_need_tokens(&sz, 0), 40002);   /* no block size: not rounded */
		sz.kv_tokens_kept = 20000;
		CHECK_U64(gs_verdict_kv_need_tokens(&sz, 16), 40000);
	}
}


/*
 * Issue 35: the capacity is the total devices of the model report (cited
 * in the vendor table), a name several cards share is resolved by the
 * file's figure, a format the card cannot compute and an AMD card for a
 * CUDA workload are excluded on the software requirement, and a lot with
 * fewer cards than the declared tensor parallelism is not sized as if it
 * ran it.
 */
static void test_real_totals_compute_tp(void)
{
	gs_workload w;
	gs_offer o[6];
	gs_item r[1];
	gs_decision d;
	const gs_candidate *c;

	S_workload(&w);
	/* "V100" with 16384 MiB, as SkyPilot's files write it: the V100 16GB */
	S_offer(&o[0], "v100", "V100", NULL, 1, 16);
	o[0].nominal_gb_text = NULL;
	o[0].mib_text = "16384";
	o[0].nominal_bytes = UINT64_C(16384) << 20;
	S_offer(&o[1], "a40", "A40", NULL, 1, 48);
	S_offer(&o[2], "mi300x", "MI300X", NULL, 1, 192);
	S_offer(&o[3], "l4-2x", "L4", NULL, 2, 24);
	S_offer(&o[4], "l4-4x", "L4", NULL, 4, 24);
	/* "H100" with 81920 MiB may be SXM or PCIe: no reported total taken */
	S_offer(&o[5], "h100", "H100", NULL, 1, 80);
	o[5].nominal_gb_text = NULL;
	o[5].mib_text = "81920";
	o[5].nominal_bytes = UINT64_C(81920) << 20;
	S_classify(&w, o, 6, NULL, 0, &d);
	c = S_cand(&d, "v100");
	CHECK(c->gpu && strcmp(c->gpu->model, "V100 16GB") == 0);
	/* 15.78 GiB reported: above the claim read in GB (14.90 GiB), below it read in GiB */
	CHECK(c->cap_source == GS_CAP_REPORTED && c->capacity.bytes == UINT64_C(1578) * GIB / 100);
	CHECK(c->upper.bytes == 16 * GIB);
	/* bf16 on a compute capability 7.0 card */
	VERDICT(c, GS_REQ_SOFTWARE, GS_V_EXCLUDE, "why.software.format_unsupported");
	CHECK_STR(c->v[GS_REQ_SOFTWARE].n1, "7.0");
	CHECK_STR(c->v[GS_REQ_SOFTWARE].n2, "8.0");
	CHECK(c->v[GS_REQ_SOFTWARE].basis == GS_BASIS_CATALOG && c->cls == GS_CLASS_EXCLUDED);
	c = S_cand(&d, "a40");
	CHECK(c->cap_source == GS_CAP_REPORTED && c->capacity.bytes == UINT64_C(4435) * GIB / 100);
	CHECK(c->v[GS_REQ_SOFTWARE].kind == GS_V_NOT_REQUIRED);
	/* an AMD card, for a workload that does not state CUDA: not excluded */
	CHECK(S_cand(&d, "mi300x")->v[GS_REQ_SOFTWARE].kind == GS_V_NOT_REQUIRED);
	/* no tensor parallelism declared: no lot excluded for it */
	CHECK(S_cand(&d, "l4-2x")->v[GS_REQ_MEMORY].kind != GS_V_EXCLUDE);
	c = S_cand(&d, "h100");
	CHECK(!c->gpu && c->cap_source == GS_CAP_NOMINAL && c->capacity.bytes == 80 * GB);
	gs_verdict_release(&d);

	/* float16 computes on a V100; a reserve item named after the CUDA
	 * context states CUDA: the AMD card is excluded; tensor parallelism
	 * of 4 excludes the 2-card lot only */
	w.compute_format = "float16";
	w.storage_format = "float16";
	memset(r, 0, sizeof(r));
	r[0].name = "CUDA context and library workspaces";
	r[0].bytes = GIB;
	r[0].unit = "GiB";
	r[0].amount = "1";
	w.reserve = r;
	w.nreserve = 1;
	w.tensor_parallel = 4;
	S_classify(&w, o, 6, NULL, 0, &d);
	CHECK(S_cand(&d, "v100")->v[GS_REQ_SOFTWARE].kind == GS_V_NOT_REQUIRED);
	VERDICT(S_cand(&d, "mi300x"), GS_REQ_SOFTWARE, GS_V_EXCLUDE, "why.software.amd_not_cuda");
	c = S_cand(&d, "l4-2x");
	VERDICT(c, GS_REQ_MEMORY, GS_V_EXCLUDE, "why.memory.tp_above_cards");
	CHECK(c->v[GS_REQ_MEMORY].t1 == 4 && c->v[GS_REQ_MEMORY].t2 == 2 && c->cls == GS_CLASS_EXCLUDED);
	c = S_cand(&d, "l4-4x");
	CHECK(c->v[GS_REQ_MEMORY].kind != GS_V_EXCLUDE && c->split == 4);
	gs_verdict_release(&d);
}

/*
 * Under vLLM the need is compared with the budget (0.92 x the card's total:
 * no version named, vLLM 0.21's default),
 * the KV cache kept in whole blocks, and the pool, its tokens and the
 * concurrency follow; the headroom holds in whole blocks: the workload at
 * the headroom's figures fits, one more sequence or block does not.
 */
static void test_vllm_budget(void)
{
	gs_workload w;
	gs_offer o[2];
	gs_decision d;
	const gs_candidate *c;
	gs_runtime_budget b;
	uint64_t per_token = UINT64_C(131072);    /* 32 x 8 x 128 x 2 x 2 B */

	S_workload(&w);
	w.runtime.engine = GS_ENGINE_VLLM;
	w.cache = GS_CACHE_DENSE;
	w.layers = 32;
	w.attention_heads = 32;
	w.kv_heads = 8;
	w.head_dim = 128;
	w.has_kv_geometry = 1;
	w.cache_bytes_per_value = 2;
	S_offer(&o[0], "a40", "A40", NULL, 1, 48);
	S_offer(&o[1], "l4", "L4", NULL, 1, 24);
	S_classify(&w, o, 2, NULL, 0, &d);
	c = S_cand(&d, "a40");
	CHECK(c->has_runtime && c->card_total.bytes == UINT64_C(4435) * GIB / 100);
	CHECK(c->capacity.bytes == c->card_total.bytes / 1000 * 920 + c->card_total.bytes % 1000 * 920 / 1000);
	CHECK(c->upper.bytes == 48 * GIB / 1000 * 920 + 48 * GIB % 1000 * 920 / 1000);
	CHECK(c->rt_pool_known && c->rt.budget == c->capacity.bytes);
	/* the pool: the budget less 14e9 B of weights, in blocks of 16 tokens */
	CHECK(gs_runtime_vllm_budget(c->card_total.bytes, 920, UINT64_C(14000000000), per_token, 16,
				     S_wdims[0].value, &b) == 0);
	/* the concurrency at 8,192 tokens a sequence: tokens / 8,192, half up */
	CHECK(c->rt.concurrency_hundredths == (c->rt.tokens * 200 + 8192) / (2 * 8192));
	CHECK(c->rt.blocks == b.blocks && c->rt.tokens == b.tokens && c->rt.pool == b.pool);
	CHECK(c->rt.tokens % 16 == 0 && c->rt.tokens > 0);
	/* headroom in whole blocks: one sequence, so the pool's tokens exactly;
	 * sequences of 8,192 tokens: the pool's blocks / 512 */
	CHECK(c->has_headroom && c->headroom_tokens == c->rt.tokens);
	CHECK(c->headroom_sequences == c->rt.blocks / 512);
	CHECK(c->rt_mnbt == 2048 && !c->rt_mnbt_large);
	gs_verdict_release(&d);
}

/*
 * vLLM's step budget by the card (0.21, `vllm serve`): 8,192 tokens on an
 * H100 SXM (79.22 GiB reported, 70 GiB or more, no "a100"), 2,048 on an
 * A100 80GB (the name). The reserve's profiling-step items, written at
 * 2,048 tokens (Mistral-7B: 226,492,416 B of activation, 262,144,000 B of
 * logits), count four times on the H100: 1,954,545,664 B, the need per
 * card 1,465,909,248 B more than the A100's; the other item is not scaled.
 */
static void test_vllm_step_by_card(void)
{
	gs_workload w;
	gs_offer o[2];
	gs_decision d;
	const gs_candidate *h, *a;
	gs_item r[3];

	S_workload(&w);
	w.runtime.engine = GS_ENGINE_VLLM;
	w.runtime.version = "0.21";
	memset(r, 0, sizeof(r));
	r[0].name = "vLLM profiling activation peak";
	r[0].bytes = UINT64_C(226492416);
	r[1].name = "vLLM profiling logits";
	r[1].bytes = UINT64_C(262144000);
	r[2].name = "vLLM non-torch memory";
	r[2].bytes = UINT64_C(139586437);
	w.reserve = r;
	w.nreserve = 3;
	S_offer(&o[0], "h100", "H100 SXM", NULL, 1, 80);
	S_offer(&o[1], "a100", "A100 80GB", NULL, 1, 80);
	S_classify(&w, o, 2, NULL, 0, &d);
	h = S_cand(&d, "h100");
	a = S_cand(&d, "a100");
	CHECK(h->has_runtime && h->rt_mnbt == 8192 && h->rt_mnbt_large);
	CHECK(h->rt_step_now == UINT64_C(488636416) && h->rt_step_then == UINT64_C(1954545664));
	CHECK(a->has_runtime && a->rt_mnbt == 2048 && !a->rt_mnbt_large);
	CHECK(a->rt_step_then == a->rt_step_now);
	CHECK(h->need.present && a->need.present);
	CHECK(h->need.bytes - a->need.bytes == UINT64_C(1465909248));
	gs_verdict_release(&d);
}

int main(void)
{
	test_real_totals_compute_tp();
	test_vllm_budget();
	test_vllm_step_by_card();
	test_classes_and_order();
	test_reference_never_proposed();
	test_observed_fit_first_in_class();
	test_tensor_parallel();
	test_tensor_parallel_replicated();
	test_prices_per_hour();
	test_memory_observed_fits();
	test_memory_observed_not_covering();
	test_memory_calculated_only();
	test_memory_observed_failure();
	test_memory_failure_larger_dims();
	test_memory_weights_exceed();
	test_memory_multi_card();
	test_memory_capacity_sources();
	test_software();
	test_calendar();
	test_budget();
	test_quality();
	test_host();
	test_regions();
	test_retained_and_ranking();
	test_empty_catalog();
	test_helpers();
	test_margin_prov();
	test_failure_on_one_card_keeps_placed_lot();
	test_versions();
	test_synthetic_never_decides();
	test_failure_comparability();
	test_need_lower_bound();
	test_ranking_mixed_currencies();
	test_exclusion_basis();
	test_kvcap_fits();
	test_kvcap_above();
	test_kvcap_not_comparable();
	test_kvcap_estimate();
	test_imported_failures();
	test_kvcap_helpers();
	return gs_check_exit("test_verdict");
}
