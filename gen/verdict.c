/* verdict: classification of every offer, requirement by requirement. */
#include "verdict.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

const char *gs_req_id(gs_req r)
{
	static const char *const ids[GS_REQ_COUNT] = {
		"memory", "software", "calendar", "budget", "quality", "host"
	};
	return r < GS_REQ_COUNT ? ids[r] : "?";
}

/* Case-insensitive substring search. */
static int S_contains_ci(const char *hay, const char *needle)
{
	size_t n = strlen(needle), i;

	if (!n)
		return 1;
	for (; *hay; hay++) {
		for (i = 0; i < n && hay[i]; i++)
			if (tolower((unsigned char)hay[i]) != tolower((unsigned char)needle[i]))
				break;
		if (i == n)
			return 1;
	}
	return 0;
}

static int S_eq_ci(const char *a, const char *b)
{
	for (; *a && *b; a++, b++)
		if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
			return 0;
	return *a == *b;
}

int gs_offer_matches_device(const gs_offer *o, const char *device_name)
{
	if (!device_name)
		return 0;
	if (o->device_name)
		return S_eq_ci(o->device_name, device_name);
	return S_contains_ci(device_name, o->gpu_model);
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
		if (S_eq_ci(s, alias[i][0]))
			return alias[i][1];
	return s;
}

int gs_measurement_covers(const gs_workload *w, const gs_measurement *m)
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
	    !S_eq_ci(S_dtype_canon(dt->value), S_dtype_canon(w->compute_format)))
		return 0;
	return 1;
}

static int S_is_oom(const char *err)
{
	return err && (S_contains_ci(err, "out of memory") ||
		       S_contains_ci(err, "cudaErrorMemoryAllocation") ||
		       S_contains_ci(err, "hipErrorOutOfMemory"));
}

int gs_measurement_oom_within(const gs_workload *w, const gs_measurement *m)
{
	const gs_phase *f = gs_measurement_failure(m);
	size_t i;

	if (!f || !S_is_oom(f->error))
		return 0;
	for (i = 0; i < w->ndims; i++) {
		const gs_kv *kv = gs_measurement_dim(m, w->dims[i].name);
		if (!kv || !kv->is_number || kv->number > w->dims[i].value)
			return 0;
	}
	return 1;
}

gs_qty gs_measurement_need(const gs_measurement *m, uint64_t *device)
{
	gs_qty best = gs_qty_missing();
	size_t i;

	for (i = 0; i < m->nphases; i++) {
		const gs_phase *p = &m->phases[i];
		uint64_t v, outside = 0;

		if (!p->reserved_peak.has)
			continue;
		v = p->reserved_peak.v;
		/* Outside the allocator: only from two readings of one checkpoint. */
		if (p->used_end.has && p->reserved_end.has && p->used_end.v > p->reserved_end.v)
			outside = p->used_end.v - p->reserved_end.v;
		if (gs_add_u64(v, outside, &v))
			v = UINT64_MAX;
		if (!best.present || v > best.bytes) {
			best = gs_qty_make(v, GS_PROV_OBSERVED);
			if (device)
				*device = p->device;
		}
	}
	return best;
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

static gs_verdict S_v(gs_verdict_kind k, const char *why)
{
	gs_verdict v;

	memset(&v, 0, sizeof(v));
	v.kind = k;
	v.why = why;
	v.a = gs_qty_missing();
	v.b = gs_qty_missing();
	return v;
}

/*** memory ***/

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

static void S_memory(const gs_workload *w, const gs_sizing *s, const gs_evidence *ev,
		     size_t nev, gs_candidate *c)
{
	const gs_offer *o = c->offer;
	const gs_evidence *best = NULL;
	gs_qty obs = gs_qty_missing();
	size_t i;
	uint64_t lot_total;

	/* Capacity per card: what a device read, what the catalog says the
	 * device declares, or the nominal decimal figure. */
	c->capacity = gs_qty_make(o->nominal_bytes, GS_PROV_ASSUMED);
	c->cap_source = GS_CAP_NOMINAL;
	if (o->has_declared_bytes) {
		c->capacity = gs_qty_make(o->declared_bytes, GS_PROV_ASSUMED);
		c->cap_source = GS_CAP_DECLARED;
	}
	for (i = 0; i < nev; i++) {
		const gs_measurement *m = ev[i].m;
		size_t k;
		for (k = 0; k < m->ndevices; k++)
			if (m->devices[k].total_bytes.has &&
			    gs_offer_matches_device(o, m->devices[k].name)) {
				c->capacity = gs_qty_make(m->devices[k].total_bytes.v, GS_PROV_OBSERVED);
				c->cap_source = GS_CAP_OBSERVED;
			}
	}

	/* An observed failure on a card at least as large, at dimensions no
	 * larger than required, excludes. */
	for (i = 0; i < nev; i++) {
		const gs_measurement *m = ev[i].m;
		const gs_phase *f = gs_measurement_failure(m);
		const gs_device *dev;

		if (!f || !gs_measurement_oom_within(w, m))
			continue;
		dev = S_device(m, f->device);
		if (!dev)
			continue;
		/* A documented placement spreads the work over the lot's cards:
		 * a failure on fewer cards than the lot holds does not exclude it. */
		if (o->cards > 1 && w->placement && S_devices_used(m) < o->cards)
			continue;
		if ((dev->total_bytes.has && dev->total_bytes.v >= c->capacity.bytes) ||
		    gs_offer_matches_device(o, dev->name)) {
			gs_verdict v = S_v(GS_V_EXCLUDE, "why.memory.observed_failure");
			v.s1 = f->name;
			v.s2 = dev->name;
			v.a = dev->total_bytes.has ? gs_qty_make(dev->total_bytes.v, GS_PROV_OBSERVED)
						   : gs_qty_missing();
			v.b = c->capacity;
			v.evidence = ev[i].ref->file;
			v.evidence_date = m->date;
			c->v[GS_REQ_MEMORY] = v;
			c->need = gs_qty_missing();
			return;
		}
	}

	/* Weights alone above what the whole lot holds: an arithmetic certainty. */
	if (gs_mul_u64(c->capacity.bytes, o->cards, &lot_total))
		lot_total = UINT64_MAX;
	if (s->weights.bytes > (o->cards == 1 ? c->capacity.bytes : lot_total)) {
		gs_verdict v = S_v(GS_V_EXCLUDE, o->cards == 1 ? "why.memory.weights_exceed_card"
							       : "why.memory.weights_exceed_lot");
		v.a = s->weights;
		v.b = c->capacity;
		c->v[GS_REQ_MEMORY] = v;
		c->need = s->weights;
		return;
	}

	/* The largest successful measurement covering the required dimensions
	 * on this GPU model gives the observed need. */
	for (i = 0; i < nev; i++) {
		const gs_measurement *m = ev[i].m;
		uint64_t dev = 0;
		gs_qty n;
		size_t k;
		int same = 0;

		if (!gs_measurement_ok(m) || !gs_measurement_covers(w, m))
			continue;
		for (k = 0; k < m->ndevices; k++)
			same |= gs_offer_matches_device(o, m->devices[k].name);
		if (!same || S_devices_used(m) > o->cards)
			continue;
		n = gs_measurement_need(m, &dev);
		if (n.present && (!obs.present || n.bytes > obs.bytes)) {
			obs = n;
			best = &ev[i];
		}
	}

	if (obs.present) {
		c->need = obs;
		c->need_from = best;
		c->margin = S_margin(c->capacity.bytes, obs.bytes);
		c->has_margin = 1;
		if (S_devices_used(best->m) > 1 && !w->placement) {
			gs_verdict v = S_v(GS_V_TO_CONFIRM, "why.memory.multi_card_no_placement");
			v.a = obs;
			v.b = c->capacity;
			v.evidence = best->ref->file;
			v.evidence_date = best->m->date;
			v.missing = "missing.placement";
			c->v[GS_REQ_MEMORY] = v;
		} else if (obs.bytes <= c->capacity.bytes) {
			gs_verdict v = S_v(GS_V_ADMISSIBLE, "why.memory.observed_fits");
			v.a = obs;
			v.b = c->capacity;
			v.margin = c->margin;
			v.has_margin = 1;
			v.evidence = best->ref->file;
			v.evidence_date = best->m->date;
			c->v[GS_REQ_MEMORY] = v;
		} else {
			gs_verdict v = S_v(GS_V_TO_CONFIRM, "why.memory.observed_above_capacity");
			v.a = obs;
			v.b = c->capacity;
			v.margin = c->margin;
			v.has_margin = 1;
			v.evidence = best->ref->file;
			v.missing = "missing.capacity";
			c->v[GS_REQ_MEMORY] = v;
		}
		return;
	}

	/* Only the calculation: at best to confirm, with the margin shown. */
	c->need = s->need;
	c->margin = S_margin(c->capacity.bytes, s->need.bytes);
	c->has_margin = 1;
	{
		gs_verdict v;
		if (s->need.bytes > c->capacity.bytes && o->cards > 1)
			v = S_v(GS_V_TO_CONFIRM, w->placement ? "why.memory.calc_placement"
							      : "why.memory.calc_needs_placement");
		else if (s->need.bytes > c->capacity.bytes)
			v = S_v(GS_V_TO_CONFIRM, "why.memory.calc_above");
		else
			v = S_v(GS_V_TO_CONFIRM, "why.memory.calc_fits");
		v.a = s->need;
		v.b = c->capacity;
		v.margin = c->margin;
		v.has_margin = 1;
		v.s1 = o->gpu_model;
		v.missing = (s->need.bytes > c->capacity.bytes && o->cards > 1 && !w->placement)
				    ? "missing.placement_and_measurement" : "missing.measurement";
		c->v[GS_REQ_MEMORY] = v;
	}
}

/*** software ***/

static void S_software(const gs_workload *w, const gs_evidence *ev, size_t nev, gs_candidate *c)
{
	const gs_offer *o = c->offer;
	const gs_software *offered = NULL;
	const gs_evidence *ran = NULL;
	size_t i, k;

	if (!w->req_software) {
		c->v[GS_REQ_SOFTWARE] = S_v(GS_V_NOT_REQUIRED, "why.not_required");
		return;
	}
	for (i = 0; i < o->nsoftware; i++)
		if (o->software[i].installed && S_contains_ci(o->software[i].name, w->req_software))
			offered = &o->software[i];
	for (i = 0; i < nev && !ran; i++)
		if (gs_measurement_ok(ev[i].m))
			for (k = 0; k < ev[i].m->ndevices; k++)
				if (gs_offer_matches_device(o, ev[i].m->devices[k].name))
					ran = &ev[i];
	if (offered && ran) {
		gs_verdict v = S_v(GS_V_ADMISSIBLE, "why.software.installed_and_ran");
		v.s1 = offered->name;
		v.s2 = offered->claim.source;
		v.evidence = ran->ref->file;
		v.evidence_date = offered->claim.date;
		c->v[GS_REQ_SOFTWARE] = v;
	} else if (offered) {
		gs_verdict v = S_v(GS_V_TO_CONFIRM, "why.software.listed_only");
		v.s1 = offered->name;
		v.s2 = offered->claim.source;
		v.evidence_date = offered->claim.date;
		v.missing = "missing.software_run";
		c->v[GS_REQ_SOFTWARE] = v;
	} else {
		gs_verdict v = S_v(GS_V_TO_CONFIRM, "why.software.undocumented");
		v.s1 = w->req_software;
		v.missing = "missing.software";
		c->v[GS_REQ_SOFTWARE] = v;
	}
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
static void S_cost(const gs_workload *w, gs_candidate *c)
{
	const gs_offer *o = c->offer;
	uint64_t hours;
	size_t i;

	if (!w->has_campaign || gs_mul_u64(w->campaign_days, 24, &hours))
		return;
	for (i = 0; i < o->nplans; i++) {
		const gs_plan *p = &o->plans[i];
		uint64_t units = hours / p->hours + (hours % p->hours != 0), cost;

		if (gs_mul_u64(units, (uint64_t)p->price_hundredths, &cost) || cost > INT64_MAX)
			continue;
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
		v.evidence = c->plan->claim.source;
		v.evidence_date = c->plan->claim.date;
	}
	c->v[GS_REQ_BUDGET] = v;
}

/*** quality ***/

static void S_quality(const gs_workload *w, gs_candidate *c)
{
	gs_verdict v;

	if (!w->quality_criterion) {
		c->v[GS_REQ_QUALITY] = S_v(GS_V_NOT_REQUIRED, "why.not_required");
		return;
	}
	if (w->reference_format && S_eq_ci(w->reference_format, w->storage_format)) {
		v = S_v(GS_V_ADMISSIBLE, "why.quality.reference_format");
		v.s1 = w->storage_format;
	} else if (w->quality_evidence) {
		v = S_v(GS_V_ADMISSIBLE, "why.quality.evidence");
		v.s1 = w->storage_format;
		v.evidence = w->quality_evidence;
	} else {
		v = S_v(GS_V_TO_CONFIRM, w->reference_format ? "why.quality.format_changed"
							     : "why.quality.no_reference");
		v.s1 = w->storage_format;
		v.s2 = w->reference_format;
		v.missing = "missing.quality";
	}
	c->v[GS_REQ_QUALITY] = v;
}

/*** host ***/

static void S_host(const gs_workload *w, gs_candidate *c)
{
	const gs_offer *o = c->offer;
	gs_verdict v;
	int worst = -1;

	if (!w->has_host_ram && !w->host_interconnect) {
		c->v[GS_REQ_HOST] = S_v(GS_V_NOT_REQUIRED, "why.not_required");
		return;
	}
	v = S_v(GS_V_ADMISSIBLE, "why.host.documented");
	if (w->has_host_ram) {
		if (!o->has_host_ram) {
			v = S_v(GS_V_TO_CONFIRM, "why.host.ram_unknown");
			v.missing = "missing.host";
			worst = GS_V_TO_CONFIRM;
		} else if (o->host_ram_bytes < w->host_ram_bytes) {
			v = S_v(GS_V_EXCLUDE, "why.host.ram_short");
			v.evidence = o->host_ram_claim.source;
			v.evidence_date = o->host_ram_claim.date;
			worst = GS_V_EXCLUDE;
		} else {
			v.evidence = o->host_ram_claim.source;
			v.evidence_date = o->host_ram_claim.date;
		}
		v.a = gs_qty_make(w->host_ram_bytes, GS_PROV_ASSUMED);
		if (o->has_host_ram)
			v.b = gs_qty_make(o->host_ram_bytes, GS_PROV_ASSUMED);
	}
	if (w->host_interconnect && worst != GS_V_EXCLUDE) {
		if (!o->interconnect) {
			if (worst < 0) {
				v = S_v(GS_V_TO_CONFIRM, "why.host.interconnect_unknown");
				v.missing = "missing.host";
			}
		} else if (!S_contains_ci(o->interconnect, w->host_interconnect)) {
			v = S_v(GS_V_EXCLUDE, "why.host.interconnect_other");
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

/*** ranking ***/

static const gs_decision *S_sort_ctx;

static int S_rank_cmp(const void *pa, const void *pb)
{
	const gs_candidate *a = &S_sort_ctx->cands[*(const size_t *)pa];
	const gs_candidate *b = &S_sort_ctx->cands[*(const size_t *)pb];
	int ga = a->retained ? 0 : a->excluded ? 2 : 1;
	int gb = b->retained ? 0 : b->excluded ? 2 : 1;

	if (ga != gb)
		return ga - gb;
	/* A pre-selection lists first what is closest to retained. */
	if (ga == 1 && a->v[GS_REQ_MEMORY].kind != b->v[GS_REQ_MEMORY].kind)
		return (int)a->v[GS_REQ_MEMORY].kind - (int)b->v[GS_REQ_MEMORY].kind;
	if (ga == 1 && a->missing_count != b->missing_count)
		return a->missing_count < b->missing_count ? -1 : 1;
	/* Total cost (known before unknown), then useful margin, then calendar. */
	if (!!a->plan != !!b->plan)
		return a->plan ? -1 : 1;
	if (a->plan && b->plan && strcmp(a->plan->currency, b->plan->currency) == 0 &&
	    a->cost != b->cost)
		return a->cost < b->cost ? -1 : 1;
	if (a->has_margin && b->has_margin && a->margin != b->margin)
		return a->margin > b->margin ? -1 : 1;
	if (a->v[GS_REQ_CALENDAR].kind != b->v[GS_REQ_CALENDAR].kind)
		return (int)a->v[GS_REQ_CALENDAR].kind - (int)b->v[GS_REQ_CALENDAR].kind;
	return strcmp(a->offer->id, b->offer->id);
}

static int S_listed(const gs_workload *w, const char *id)
{
	size_t i;

	for (i = 0; i < w->ncandidates; i++)
		if (strcmp(w->candidates[i], id) == 0)
			return 1;
	return 0;
}

int gs_check_candidates(const gs_workload *w, const gs_catalog *cat, gs_diag *d)
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

int gs_classify(const gs_workload *w, const gs_sizing *s, const gs_evidence *ev,
		size_t nev, const gs_catalog *cat, gs_decision *out)
{
	size_t i;
	int r;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < nev; i++)
		out->synthetic |= ev[i].m->synthetic;
	out->cands = calloc(cat->noffers ? cat->noffers : 1, sizeof(*out->cands));
	out->order = calloc(cat->noffers ? cat->noffers : 1, sizeof(*out->order));
	if (!out->cands || !out->order)
		return -1;
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
		S_memory(w, s, ev, nev, c);
		S_software(w, ev, nev, c);
		S_calendar(w, c);
		S_budget(w, c);
		S_quality(w, c);
		S_host(w, c);
		c->retained = 1;
		for (r = 0; r < GS_REQ_COUNT; r++) {
			if (c->v[r].kind == GS_V_EXCLUDE)
				c->excluded = 1;
			if (c->v[r].kind == GS_V_TO_CONFIRM)
				c->missing_count++;
			if (c->v[r].kind == GS_V_TO_CONFIRM || c->v[r].kind == GS_V_EXCLUDE)
				c->retained = 0;
		}
		if (c->retained)
			out->nretained++;
		else if (!c->excluded)
			out->npreselected++;
	}
	S_sort_ctx = out;
	qsort(out->order, out->ncands, sizeof(*out->order), S_rank_cmp);
	S_sort_ctx = NULL;
	return 0;
}

void gs_decision_release(gs_decision *d)
{
	free(d->cands);
	free(d->order);
	memset(d, 0, sizeof(*d));
}
