/*
 * sheet_measure: the measurements: each one's phases, counters and context, and
 * the sweep when they vary one dimension.
 */
#define _DEFAULT_SOURCE
#include "sheet_int.h"

static const char *S_status_word(S_ctx *c, gs_phase_status st)
{
	return TR(st == GS_PHASE_OK ? "status.ok" : st == GS_PHASE_FAILED ? "status.failed"
									  : "status.not_run");
}

static void S_kv_table(S_ctx *c, const char *caption, const gs_kv *kv, size_t n)
{
	const char *h[2];
	cmark_node *tb, *r;
	size_t i;

	if (!n)
		return;
	h[0] = TR("col.name");
	h[1] = TR("col.value");
	tb = gs_doc_table(c->doc, c->root, caption, 2, h);
	for (i = 0; i < n; i++) {
		r = gs_doc_row(tb);
		gs_doc_cell_text(r, kv[i].name);
		gs_doc_cell_text(r, kv[i].value);
	}
}

/* The failing phase and what a failure there points to. */
static void S_failure_orientation(S_ctx *c, const gs_measurement *m)
{
	const gs_phase *f = gs_measurement_failure(m);
	cmark_node *p;

	if (!f)
		return;
	p = gs_doc_para(c->root);
	gs_doc_strong(p, TR("meas.failed_phase"));
	gs_doc_text(p, " ");
	gs_doc_code(p, f->name);
	gs_doc_text(p, ". ");
	gs_doc_text(p, TR(gs_verdict_phase_orientation(f->name)));
}

/* A reading of a measurement with its provenance: observed on a device,
 * or assumed for a synthetic file. Caller frees. */
static char *S_reading_words(S_ctx *c, const gs_measurement *m, gs_opt_u64 v)
{
	if (!v.has)
		return gs_xstrdup(TR("word.missing"));
	return gs_sheet_words_qty_words(c, m->synthetic ? gs_qty_synthetic(v.v)
					   : gs_qty_make(v.v, GS_PROV_OBSERVED));
}

static const char *S_meas_prov(S_ctx *c, const gs_measurement *m)
{
	return TR(m->synthetic ? "prov.synthetic" : "prov.observed");
}

/* Heading, what the file covers, its raw link and the synthetic flag. */
static void S_meas_header(S_ctx *c, size_t idx)
{
	const gs_evidence *e = &c->in->ev[idx];
	cmark_node *p;

	gs_doc_heading(c->root, 3, e->ref->file);
	p = gs_doc_para(c->root);
	gs_doc_strong(p, TR("meas.covers"));
	gs_doc_text(p, " ");
	gs_doc_text(p, e->ref->covers ? e->ref->covers : TR("word.missing"));
	p = gs_doc_para(c->root);
	gs_doc_strong(p, TR("meas.raw"));
	gs_doc_text(p, " ");
	gs_doc_link(p, c->in->ev_links[idx], e->ref->file);
	if (c->in->ev_log_links && c->in->ev_log_links[idx] && e->m->import_log_name) {
		p = gs_doc_para(c->root);
		gs_doc_strong(p, TR("meas.log"));
		gs_doc_text(p, " ");
		gs_doc_link(p, c->in->ev_log_links[idx], e->m->import_log_name);
		gs_doc_textf(p, " (%s)", e->m->import_source ? e->m->import_source : TR("word.missing"));
	}
	if (e->m->synthetic) {
		p = gs_doc_para(gs_doc_quote(c->root));
		gs_doc_strong(p, TR("synthetic.title"));
		gs_doc_text(p, " ");
		gs_doc_text(p, e->m->synthetic_note ? e->m->synthetic_note : TR("synthetic.body"));
	}
}

/* Identity, dimensions, environment, protocol, conditions and versions. */
static void S_meas_context(S_ctx *c, const gs_measurement *m)
{
	const char *h[2];
	cmark_node *tb, *r;
	char a[GS_FMT_MAX];
	size_t i;

	h[0] = TR("col.field");
	h[1] = TR("col.value");
	tb = gs_doc_table(c->doc, c->root, TR("cap.meas_context"), 2, h);
#define ROW(label, value) do { r = gs_doc_row(tb); gs_doc_cell_text(r, label); gs_doc_cell_text(r, (value) ? (value) : TR("word.missing")); } while (0)
	ROW(TR("meas.code"), m->code);
	ROW(TR("meas.revision"), m->revision);
	ROW(TR("meas.input_set"), m->input_set);
	if (m->seed.has) {
		const char *seed = a;
		snprintf(a, sizeof(a), "%llu", (unsigned long long)m->seed.v);
		ROW(TR("meas.seed"), seed);
	}
	ROW(TR("meas.date"), m->date);
	ROW(TR("meas.produced_by"), m->produced_by);
	for (i = 0; i < m->ndims; i++) {
		char *label = gs_xasprintf("%s: %s", TR("id.dimension"), m->dims[i].name);
		ROW(label, m->dims[i].is_number ? gs_qty_fmt_int(a, m->dims[i].number, c->lang)
						: m->dims[i].value);
		free(label);
	}
	for (i = 0; i < m->ndevices; i++) {
		const gs_device *dv = &m->devices[i];
		char *label = gs_xasprintf("%s %llu", TR("meas.device"), (unsigned long long)dv->index);
		char *tot = S_reading_words(c, m, dv->total_bytes);
		char *fre = S_reading_words(c, m, dv->free_bytes);
		char *val = gs_xasprintf("%s; %s %s; %s %s; %s %s", dv->name, TR("meas.total"), tot,
				     TR("meas.free"), fre,
				     TR("meas.cc"), dv->compute_capability ? dv->compute_capability
									   : TR("word.missing"));
		ROW(label, val);
		free(label);
		free(val);
		free(tot);
		free(fre);
	}
	ROW(TR("meas.driver"), m->driver);
	ROW(TR("meas.runtime"), m->runtime);
	ROW(TR("meas.backend"), m->backend);
	ROW(TR("meas.allocator"), m->allocator_backend);
#undef ROW
	{
		cmark_node *cell;
		r = gs_doc_row(tb);
		gs_doc_cell_text(r, TR("meas.protocol"));
		cell = gs_doc_cell(r);
		gs_doc_textf(cell, "%s: %s", TR("meas.process"), m->process ? m->process : TR("word.missing"));
		if (m->order.has)
			gs_doc_textf(cell, "; %s %llu", TR("meas.order"), (unsigned long long)m->order.v);
		if (m->warmup.has)
			gs_doc_textf(cell, "; %s %llu", TR("meas.warmup"), (unsigned long long)m->warmup.v);
		if (m->repeats.has)
			gs_doc_textf(cell, "; %s %llu", TR("meas.repeats"), (unsigned long long)m->repeats.v);
		gs_doc_textf(cell, "; %s %s", TR("meas.empty_cache"),
			     TR(!m->has_empty_cache ? "word.missing" : m->empty_cache ? "word.yes" : "word.no"));
	}
	S_kv_table(c, TR("cap.conditions"), m->conditions, m->nconditions);
	S_kv_table(c, TR("cap.allocator_settings"), m->allocator_settings, m->nallocator_settings);
	S_kv_table(c, TR("cap.frameworks"), m->frameworks, m->nframeworks);
}

/* A difference of reserved and allocated read at one checkpoint, or missing. */
static gs_opt_u64 S_same_checkpoint_diff(gs_opt_u64 reserved, gs_opt_u64 allocated)
{
	gs_opt_u64 d = { 0, 0 };

	if (reserved.has && allocated.has && reserved.v >= allocated.v) {
		d.v = reserved.v - allocated.v;
		d.has = 1;
	}
	return d;
}

/* Phases: the four counters, first pass and warm passes apart; fills the chart's phases. */
static void S_meas_counters(S_ctx *c, const gs_measurement *m, gs_chart_phase *cp)
{
	const char *h[9];
	cmark_node *tb, *r, *p;
	char a[GS_FMT_MAX];
	size_t i;

	h[0] = TR("col.phase");
	h[1] = TR("col.pass");
	h[2] = TR("col.device");
	h[3] = TR("col.status");
	h[4] = TR("col.counter");
	h[5] = TR("col.start");
	h[6] = TR("col.peak");
	h[7] = TR("col.end");
	h[8] = TR("col.provenance");
	p = gs_doc_para(c->root);
	gs_doc_text(p, TR("meas.counters_note"));
	S_failure_orientation(c, m);
	tb = gs_doc_table(c->doc, c->root, TR("cap.phases"), 9, h);
	for (i = 0; i < m->nphases; i++) {
		const gs_phase *ph = &m->phases[i];
		int k;
		snprintf(a, sizeof(a), "%llu", (unsigned long long)ph->device);
		for (k = 0; k < 3; k++) {
			r = gs_doc_row(tb);
			gs_doc_cell_text(r, ph->name);
			gs_doc_cell_text(r, TR(ph->warm ? "pass.warm" : "pass.first"));
			gs_doc_cell_text(r, a);
			gs_doc_cell_text(r, S_status_word(c, ph->status));
			if (k == 0) {
				gs_doc_cell_text(r, TR("counter.allocated"));
				gs_sheet_words_cell_owned(r, gs_sheet_words_counter(c, ph->alloc_start));
				gs_sheet_words_cell_owned(r, gs_sheet_words_counter(c, ph->alloc_peak));
				gs_sheet_words_cell_owned(r, gs_sheet_words_counter(c, ph->alloc_end));
			} else if (k == 1) {
				gs_doc_cell_text(r, TR("counter.reserved"));
				gs_sheet_words_cell_owned(r, gs_sheet_words_counter(c, ph->reserved_start));
				gs_sheet_words_cell_owned(r, gs_sheet_words_counter(c, ph->reserved_peak));
				gs_sheet_words_cell_owned(r, gs_sheet_words_counter(c, ph->reserved_end));
			} else {
				/* Same checkpoint only: never max reserved - max allocated. */
				gs_doc_cell_text(r, TR("counter.difference"));
				gs_sheet_words_cell_owned(r, gs_sheet_words_counter(c, S_same_checkpoint_diff(ph->reserved_start,
										    ph->alloc_start)));
				gs_doc_cell_text(r, TR("counter.no_peak_difference"));
				gs_sheet_words_cell_owned(r, gs_sheet_words_counter(c, S_same_checkpoint_diff(ph->reserved_end,
										    ph->alloc_end)));
			}
			gs_doc_cell_text(r, S_meas_prov(c, m));
		}
		cp[i].name = ph->name;
		cp[i].failed = ph->status == GS_PHASE_FAILED;
		cp[i].not_run = ph->status == GS_PHASE_NOT_RUN;
#define Q(x) (!(x).has ? gs_qty_missing() : m->synthetic ? gs_qty_synthetic((x).v) \
					     : gs_qty_make((x).v, GS_PROV_OBSERVED))
		cp[i].allocated[GS_CHART_START] = Q(ph->alloc_start);
		cp[i].allocated[GS_CHART_PEAK] = Q(ph->alloc_peak);
		cp[i].allocated[GS_CHART_END] = Q(ph->alloc_end);
		cp[i].reserved[GS_CHART_START] = Q(ph->reserved_start);
		cp[i].reserved[GS_CHART_PEAK] = Q(ph->reserved_peak);
		cp[i].reserved[GS_CHART_END] = Q(ph->reserved_end);
#undef Q
	}
}

/* Outside the allocator (same checkpoint only), elapsed time and errors. */
static void S_meas_outside(S_ctx *c, const gs_measurement *m)
{
	const char *h[6];
	cmark_node *tb, *r;
	char a[GS_FMT_MAX];
	size_t i;

	h[0] = TR("col.phase");
	h[1] = TR("col.device");
	h[2] = TR("col.outside");
	h[3] = TR("col.provenance");
	h[4] = TR("col.elapsed");
	h[5] = TR("col.error");
	tb = gs_doc_table(c->doc, c->root, TR("cap.phase_extra"), 6, h);
	for (i = 0; i < m->nphases; i++) {
		const gs_phase *ph = &m->phases[i];
		r = gs_doc_row(tb);
		gs_doc_cell_text(r, ph->name);
		snprintf(a, sizeof(a), "%llu", (unsigned long long)ph->device);
		gs_doc_cell_text(r, a);
		if (ph->used_end.has && ph->reserved_end.has) {
			/* used below reserved at one checkpoint: nothing outside */
			gs_opt_u64 o = { ph->used_end.v >= ph->reserved_end.v
						 ? ph->used_end.v - ph->reserved_end.v : 0, 1 };
			gs_sheet_words_cell_owned(r, gs_sheet_words_counter(c, o));
			gs_doc_cell_text(r, S_meas_prov(c, m));
		} else {
			/* not read is missing, never 0 */
			gs_sheet_words_cell_owned(r, gs_xasprintf("%s (%s)", TR("word.missing"),
						 TR(ph->used_end.has ? "outside.no_reserved_end"
								     : "outside.no_device_used")));
			gs_doc_cell_text(r, TR("word.missing"));
		}
		if (ph->elapsed_us.has) {
			char ms[GS_FMT_MAX];
			gs_qty_fmt_fixed2(ms, ph->elapsed_us.v, 1000, c->lang);
			gs_sheet_words_cell_owned(r, gs_xasprintf("%s ms", ms));
		} else {
			gs_doc_cell_text(r, TR("word.missing"));
		}
		gs_doc_cell_text(r, ph->error ? ph->error : "");
	}
}

/* One cited measurement: context, counters, outside the allocator, chart. */
static void S_measurement(S_ctx *c, size_t idx)
{
	const gs_evidence *e = &c->in->ev[idx];
	gs_chart_phase *cp = gs_xcalloc(e->m->nphases + 1, sizeof(*cp));
	gs_chart_text ct;
	gs_chart_out o;
	char *title, *suffix;

	S_meas_header(c, idx);
	S_meas_context(c, e->m);
	S_meas_counters(c, e->m, cp);
	S_meas_outside(c, e->m);
	title = gs_xasprintf("%s — %s", TR("chart.phases_title"), e->ref->file);
	suffix = gs_xasprintf("phases-%zu", idx + 1);
	gs_sheet_words_chart_text(c, &ct, title);
	if (gs_chart_phases(&ct, cp, e->m->nphases, &o) == 0)
		gs_sheet_words_add_chart(c, suffix, title, &o);
	free(title);
	free(suffix);
	free(cp);
}

int gs_sheet_measure_find_sweep(const gs_evidence *ev, size_t nev, gs_sweep *sw)
{
	size_t i, j, k;

	memset(sw, 0, sizeof(*sw));
	if (nev < 2 || nev > 64)
		return 0;
	/* The varied dimension: the one numeric dimension that differs
	 * between the first file and the others, all else equal. */
	for (k = 0; k < ev[0].m->ndims; k++) {
		const gs_kv *d0 = &ev[0].m->dims[k];
		int ok = d0->is_number, varies = 0;
		for (i = 1; i < nev && ok; i++) {
			const gs_measurement *m = ev[i].m;
			const gs_kv *di = gs_measurement_dim(m, d0->name);
			if (m->ndims != ev[0].m->ndims || !di || !di->is_number) {
				ok = 0;
				break;
			}
			varies |= di->number != d0->number;
			for (j = 0; j < m->ndims; j++) {
				const gs_kv *o = gs_measurement_dim(ev[0].m, m->dims[j].name);
				if (strcmp(m->dims[j].name, d0->name) == 0)
					continue;
				if (!o || strcmp(o->value, m->dims[j].value) != 0)
					ok = 0;
			}
		}
		if (ok && varies) {
			sw->dim = d0->name;
			for (i = 0; i < nev; i++)
				sw->idx[i] = i;
			sw->n = nev;
			/* Insertion sort by the dimension's value (n <= 64). */
			for (i = 1; i < nev; i++)
				for (j = i; j > 0 &&
				     gs_measurement_dim(ev[sw->idx[j - 1]].m, d0->name)->number >
				     gs_measurement_dim(ev[sw->idx[j]].m, d0->name)->number; j--) {
					size_t tmp = sw->idx[j];
					sw->idx[j] = sw->idx[j - 1];
					sw->idx[j - 1] = tmp;
				}
			return 1;
		}
	}
	return 0;
}

static void S_sweep(S_ctx *c)
{
	gs_sweep sw;
	const char *h[5];
	cmark_node *tb, *r, *p;
	gs_chart_point pts[64];
	gs_chart_line caps[8];
	char a[GS_FMT_MAX];
	const gs_kv *last_ok = NULL, *first_fail = NULL;
	size_t i, nc = 0;

	if (!gs_sheet_measure_find_sweep(c->in->ev, c->in->nev, &sw))
		return;
	gs_doc_heading(c->root, 3, TR("sec.sweep"));
	h[0] = sw.dim;
	h[1] = TR("col.status");
	h[2] = TR("col.peak_reserved");
	h[3] = TR("col.file");
	h[4] = TR("col.error");
	tb = gs_doc_table(c->doc, c->root, TR("cap.sweep"), 5, h);
	for (i = 0; i < sw.n; i++) {
		const gs_evidence *e = &c->in->ev[sw.idx[i]];
		const gs_kv *dv = gs_measurement_dim(e->m, sw.dim);
		const gs_phase *f = gs_measurement_failure(e->m);
		gs_qty peak = gs_verdict_measurement_need(e->m, NULL);
		int ok = gs_measurement_ok(e->m);

		r = gs_doc_row(tb);
		gs_doc_cell_text(r, gs_qty_fmt_int(a, dv->number, c->lang));
		gs_doc_cell_text(r, TR(ok ? "status.ok" : "status.failed"));
		if (ok)
			gs_sheet_words_cell_owned(r, gs_sheet_words_qty_words(c, peak));
		else
		{
			char *pw = gs_sheet_words_qty_words(c, peak);
			gs_sheet_words_cell_owned(r, gs_xasprintf("%s: %s", TR("sweep.partial"), pw));
			free(pw);
		}
		gs_doc_cell_text(r, e->ref->file);
		gs_doc_cell_text(r, f && f->error ? f->error : "");
		if (ok)
			last_ok = dv;
		else if (!first_fail)
			first_fail = dv;
		pts[i].x = dv->number;
		pts[i].peak = peak;
		pts[i].failed = !ok;
	}
	p = gs_doc_para(c->root);
	gs_doc_strong(p, TR("sweep.frontier"));
	gs_doc_text(p, " ");
	if (last_ok && first_fail) {
		char b[GS_FMT_MAX];
		gs_doc_textf(p, "%s = %s (%s) / %s = %s (%s).", sw.dim,
			     gs_qty_fmt_int(a, last_ok->number, c->lang), TR("sweep.last_ok"), sw.dim,
			     gs_qty_fmt_int(b, first_fail->number, c->lang), TR("sweep.first_fail"));
	} else if (first_fail) {
		gs_doc_text(p, TR("sweep.all_failed"));
	} else {
		gs_doc_text(p, TR("sweep.none_failed"));
	}
	/* Capacity of the card the sweep ran on. */
	{
		const gs_measurement *m0 = c->in->ev[sw.idx[0]].m;
		if (m0->ndevices && m0->devices[0].total_bytes.has) {
			caps[nc].label = m0->devices[0].name;
			caps[nc++].value = m0->synthetic ? gs_qty_synthetic(m0->devices[0].total_bytes.v)
						    : gs_qty_make(m0->devices[0].total_bytes.v, GS_PROV_OBSERVED);
		}
	}
	{
		gs_chart_text ct;
		gs_chart_out o;
		gs_sheet_words_chart_text(c, &ct, TR("chart.sweep_title"));
		ct.x_label = sw.dim;
		if (gs_chart_sweep(&ct, pts, sw.n, caps, nc, &o) == 0)
			gs_sheet_words_add_chart(c, "sweep", TR("chart.sweep_title"), &o);
	}
}

void gs_sheet_measure_measurements(S_ctx *c)
{
	const gs_workload *w = c->in->w;
	cmark_node *p;
	size_t i;
	const gs_measurement *largest = NULL, *any_ok = NULL;

	gs_doc_heading(c->root, 2, TR("sec.measurements"));
	if (!c->in->nev) {
		p = gs_doc_para(c->root);
		gs_doc_text(p, TR("meas.none"));
		return;
	}
	/* Largest load tested: the successful run with the largest need; a
	 * successful run without a need figure (no peak counter) still counts
	 * when none has one: the first such run is named, never "none". */
	for (i = 0; i < c->in->nev; i++) {
		const gs_measurement *m = c->in->ev[i].m;
		gs_qty n = gs_verdict_measurement_need(m, NULL), best;
		if (!gs_measurement_ok(m))
			continue;
		if (!n.present) {
			if (!any_ok)
				any_ok = m;
			continue;
		}
		best = largest ? gs_verdict_measurement_need(largest, NULL) : gs_qty_missing();
		if (!largest || n.bytes > best.bytes)
			largest = m;
	}
	if (!largest)
		largest = any_ok;
	p = gs_doc_para(c->root);
	gs_doc_strong(p, TR("meas.largest"));
	gs_doc_text(p, " ");
	if (largest) {
		size_t k;
		for (k = 0; k < largest->ndims; k++)
		{
			char a[GS_FMT_MAX];
			gs_doc_textf(p, "%s%s = %s", k ? ", " : "", largest->dims[k].name,
				     largest->dims[k].is_number
					     ? gs_qty_fmt_int(a, largest->dims[k].number, c->lang)
					     : largest->dims[k].value);
		}
		for (i = 0; i < c->in->nev; i++)
			if (c->in->ev[i].m == largest) {
				gs_doc_text(p, " (");
				gs_doc_code(p, c->in->ev[i].ref->file);
				gs_doc_text(p, ")");
			}
		if (!gs_verdict_measurement_covers(w, largest)) {
			gs_doc_text(p, ". ");
			gs_doc_text(p, TR("meas.largest_not_covering"));
		}
	} else {
		gs_doc_text(p, TR("meas.no_success"));
	}
	S_sweep(c);
	for (i = 0; i < c->in->nev; i++)
		S_measurement(c, i);
}
