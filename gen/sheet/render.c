/* render: Markdown, HTML page and decision JSON from one sheet. */
#include "render.h"
#include "runtime.h"
#include "jsonout.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "datadir.h"
#include "html.h"
#include "util.h"
#include "outfile.h"
#include "verdict.h"

int gs_render_templates_load(gs_templates *tp, gs_error *err)
{
	char p1[4096], p2[4096], p3[4096];

	memset(tp, 0, sizeof(*tp));
	if (!gs_datadir_path(p1, sizeof(p1), "templates/page.html", err) ||
	    !gs_datadir_path(p2, sizeof(p2), "templates/sheet.css", err) ||
	    !gs_datadir_path(p3, sizeof(p3), "templates/matrix.js", err))
		return -1;
	tp->page = gs_outfile_read(p1, NULL);
	tp->css = gs_outfile_read(p2, NULL);
	tp->script = gs_outfile_read(p3, NULL);
	if (!tp->page || !tp->css || !tp->script) {
		gs_error_set(err, "cannot read %s", !tp->page ? p1 : !tp->css ? p2 : p3);
		gs_render_templates_release(tp);
		return -1;
	}
	return 0;
}

void gs_render_templates_release(gs_templates *tp)
{
	free(tp->page);
	free(tp->css);
	free(tp->script);
	memset(tp, 0, sizeof(*tp));
}

char *gs_render_markdown(const gs_doc *doc)
{
	return gs_doc_render_markdown(doc);
}

char *gs_render_html(const gs_templates *tp, const gs_doc *doc, gs_lang lang,
		     const char *title, const char *nav_html, const char *site_root)
{
	char *body = gs_doc_render_html(doc), *out;

	if (!body)
		return NULL;
	out = gs_render_page(tp, lang, title, nav_html, site_root, body, NULL);
	free(body);
	return out;
}

char *gs_render_page(const gs_templates *tp, gs_lang lang, const char *title,
		     const char *nav_html, const char *site_root, const char *body_html,
		     const char *script_src)
{
	gs_buf out;
	const char *p = tp->page;

	gs_buf_init(&out, 16384);
	/* {{lang}} {{title}} {{csp_style}} {{css}} {{nav}} {{body}}; one pass. */
	while (*p) {
		const char *open = strstr(p, "{{");
		const char *close = open ? strstr(open, "}}") : NULL;
		char key[16];
		size_t klen;

		if (!open || !close) {
			gs_buf_puts(&out, p);
			break;
		}
		gs_buf_put(&out, p, (size_t)(open - p));
		klen = (size_t)(close - open - 2);
		if (klen >= sizeof(key))
			klen = sizeof(key) - 1;
		memcpy(key, open + 2, klen);
		key[klen] = '\0';
		if (strcmp(key, "lang") == 0)
			gs_buf_puts(&out, gs_tr_lang_id(lang));
		else if (strcmp(key, "title") == 0)
			gs_html_escape_str(&out, title);
		else if (strcmp(key, "csp_style") == 0)
			gs_buf_puts(&out, site_root ? "'self'" : "'unsafe-inline'");
		else if (strcmp(key, "css") == 0 && site_root) {
			gs_buf_puts(&out, "<link rel=\"stylesheet\" href=\"");
			gs_html_escape_str(&out, site_root);
			gs_buf_puts(&out, GS_SITE_CSS "\">");
		} else if (strcmp(key, "css") == 0) {
			gs_buf_puts(&out, "<style>\n");
			gs_buf_puts(&out, tp->css);
			gs_buf_puts(&out, "\n</style>");
		} else if (strcmp(key, "nav") == 0)
			gs_buf_puts(&out, nav_html ? nav_html : "");
		else if (strcmp(key, "csp_script") == 0 && script_src)
			gs_buf_puts(&out, " script-src 'self';");
		else if (strcmp(key, "script") == 0 && script_src) {
			gs_buf_puts(&out, "\n<script src=\"");
			gs_html_escape_str(&out, script_src);
			gs_buf_puts(&out, "\" defer></script>");
		} else if (strcmp(key, "body") == 0) {
			gs_buf_puts(&out, body_html);
		}
		p = close + 2;
	}
	return gs_buf_detach(&out, NULL);
}


/* sizing.training_recipe: the recipe, its items per card and its phases */
static void S_training_recipe(gs_jw *w, const gs_workload *wl, const gs_training *t)
{
	/* the keys sorted: the items' and the phases' ids in that order */
	static const gs_train_kind items[GS_TI_COUNT] = {
		GS_TI_ACTIVATIONS, GS_TI_ADAPTERS, GS_TI_GRADIENTS, GS_TI_LOGITS, GS_TI_MASTER,
		GS_TI_OPTIMIZER, GS_TI_WEIGHTS
	};
	static const gs_train_phase phases[GS_TP_COUNT] = {
		GS_TP_EVAL, GS_TP_EXPORT, GS_TP_FIRST_STEP, GS_TP_LOAD, GS_TP_STEADY
	};
	const gs_recipe *rc = &wl->recipe;
	size_t k;

	gs_jw_key(w, "training_recipe");
	gs_jw_object(w);
	gs_jw_key(w, "cards");
	gs_jw_u64(w, t->cards);
	gs_jw_key(w, "checkpointing");
	gs_jw_str(w, gs_recipe_ckpt_id(rc->checkpointing));
	gs_jw_key(w, "host_memory");
	gs_jw_qty(w, gs_qty_make(t->host, GS_PROV_CALCULATED));
	gs_jw_key(w, "items");
	gs_jw_object(w);
	for (k = 0; k < GS_TI_COUNT; k++) {
		const gs_train_item *it = &t->items[items[k]];
		gs_jw_key(w, it->id);
		gs_jw_object(w);
		gs_jw_key(w, "divided");
		gs_jw_bool(w, it->divided);
		gs_jw_key(w, "host");
		gs_jw_u64(w, it->host);
		gs_jw_key(w, "per_card");
		gs_jw_u64(w, it->per_card);
		gs_jw_key(w, "provenance");
		gs_jw_str(w, gs_qty_prov_id(it->prov));
		gs_jw_key(w, "total");
		gs_jw_u64(w, it->total);
		gs_jw_end(w);
	}
	gs_jw_end(w);
	gs_jw_key(w, "method");
	gs_jw_str(w, gs_recipe_method_id(rc->method));
	gs_jw_key(w, "offload");
	gs_jw_str(w, gs_recipe_offload_id(rc->offload));
	gs_jw_key(w, "optimizer");
	gs_jw_str(w, gs_recipe_optimizer_id(rc->optimizer));
	gs_jw_key(w, "peak_phase");
	gs_jw_str(w, gs_training_phase_id(t->peak));
	gs_jw_key(w, "phases");
	gs_jw_object(w);
	for (k = 0; k < GS_TP_COUNT; k++) {
		gs_jw_key(w, gs_training_phase_id(phases[k]));
		gs_jw_u64(w, t->phases[phases[k]]);
	}
	gs_jw_end(w);
	gs_jw_key(w, "sharding");
	gs_jw_str(w, gs_recipe_shard_id(rc->sharding));
	gs_jw_key(w, "trainable_parameters");
	gs_jw_u64(w, t->trainable);
	gs_jw_end(w);
}

static const char *S_basis_id(gs_basis b)
{
	switch (b) {
	case GS_BASIS_OBSERVED_FAILURE: return "observed_failure";
	case GS_BASIS_CALCULATED_CERTAINTY: return "calculated_certainty";
	case GS_BASIS_CATALOG: return "catalog_claim";
	case GS_BASIS_NONE: break;
	}
	return NULL;
}

static const char *S_status(const gs_candidate *c)
{
	return c->cls == GS_CLASS_REFERENCE ? "reference" : c->retained ? "retained"
	       : c->excluded ? "excluded" : "preselected";
}

/* A member whose value is a string, or null. */
static void S_member_str(gs_jw *w, const char *key, const char *v)
{
	gs_jw_key(w, key);
	gs_jw_str(w, v);
}

/*
 * A candidate's requirements: one member per requirement, keys sorted, each
 * the index of its reason in the "reasons" array, which holds the verdict
 * with everything else it says (schema 3: the verdict is not repeated).
 */
static void S_requirements(gs_jw *w, const gs_sheet_reasonset *rs, size_t ci)
{
	int order[GS_REQ_COUNT], r, k;

	/* the requirements by their ids' order (insertion sort of a handful) */
	for (r = 0; r < GS_REQ_COUNT; r++) {
		for (k = r; k > 0 && strcmp(gs_verdict_req_id((gs_req)order[k - 1]), gs_verdict_req_id((gs_req)r)) > 0; k--)
			order[k] = order[k - 1];
		order[k] = r;
	}
	gs_jw_object(w);
	for (k = 0; k < GS_REQ_COUNT; k++) {
		gs_jw_key(w, gs_verdict_req_id((gs_req)order[k]));
		gs_jw_u64(w, rs->of[ci * GS_REQ_COUNT + (size_t)order[k]]);
	}
	gs_jw_end(w);
}

/* The distinct reasons (gs_sheet_reasonset), each once, keys sorted. */
static void S_reasons(gs_jw *w, const gs_sheet_reasonset *rs)
{
	size_t i;

	gs_jw_array(w);
	for (i = 0; i < rs->n; i++) {
		const gs_verdict *v = rs->r[i].v;

		gs_jw_object(w);
		S_member_str(w, "evidence", v->evidence);
		S_member_str(w, "evidence_date", v->evidence_date);
		S_member_str(w, "exclusion", v->kind == GS_V_EXCLUDE ? S_basis_id(v->basis) : NULL);
		gs_jw_key(w, "lower_bound");
		gs_jw_bool(w, v->lower_bound);
		S_member_str(w, "missing", v->missing);
		S_member_str(w, "note", v->note);
		S_member_str(w, "orientation", v->orientation);
		if (v->why)   /* a string, never null */
			S_member_str(w, "reason", v->why);
		S_member_str(w, "requirement", gs_verdict_req_id(rs->r[i].req));
		gs_jw_key(w, "rests_on_synthetic");
		gs_jw_bool(w, v->synthetic && v->kind != GS_V_TO_CONFIRM);
		if (rs->r[i].text)
			S_member_str(w, "text", rs->r[i].text);
		S_member_str(w, "verdict", gs_verdict_id(v->kind));
		gs_jw_end(w);
	}
	gs_jw_end(w);
}

/* One rate: {currency, micro_per_hour, micro_per_card_hour, micro_per_gib_hour,
 * plan_hours, interruptible, provenance, source, date}, or null. */
static void S_rate(gs_jw *w, const gs_rate *r)
{
	if (!r->plan) {
		gs_jw_null(w);
		return;
	}
	gs_jw_object(w);
	S_member_str(w, "currency", r->plan->currency);
	S_member_str(w, "date", r->plan->claim.date);
	gs_jw_key(w, "micro_per_card_hour");
	gs_jw_i64(w, r->micro_per_card_hour);
	gs_jw_key(w, "micro_per_gib_hour");
	if (r->has_per_gib)
		gs_jw_i64(w, r->micro_per_gib_hour);
	else
		gs_jw_null(w);
	gs_jw_key(w, "micro_per_hour");
	gs_jw_i64(w, r->micro_per_hour);
	gs_jw_key(w, "plan_hours");
	gs_jw_u64(w, r->plan->hours);
	S_member_str(w, "provenance", "calculated");
	S_member_str(w, "source", r->plan->claim.source);
	gs_jw_end(w);
}

/* The cheapest price per hour of each kind: {interruptible, on_demand}. */
static void S_rates(gs_jw *w, const gs_candidate *c)
{
	gs_jw_object(w);
	gs_jw_key(w, "interruptible");
	S_rate(w, &c->interruptible);
	gs_jw_key(w, "on_demand");
	S_rate(w, &c->on_demand);
	gs_jw_end(w);
}

static void S_setting(gs_jw *w, const char *key, uint64_t v, int def, const char *src)
{
	gs_jw_key(w, key);
	gs_jw_object(w);
	gs_jw_key(w, "default");
	gs_jw_bool(w, def);
	S_member_str(w, "source", def ? src : NULL);
	gs_jw_key(w, "value");
	gs_jw_u64(w, v);
	gs_jw_end(w);
}

/* The workload's runtime with every setting, stated or the version's default. */
static void S_runtime(gs_jw *w, const gs_workload *wl)
{
	gs_runtime_settings rs;

	gs_jw_key(w, "runtime");
	if (gs_runtime_settings_of(wl, &rs) != 0) {
		gs_jw_null(w);
		return;
	}
	gs_jw_object(w);
	S_member_str(w, "engine", "vllm");
	gs_jw_key(w, "settings");
	gs_jw_object(w);
	S_setting(w, "block_size", rs.block_size, rs.block_default, rs.block_source);
	S_setting(w, "gpu_memory_utilization_permille", rs.util_permille, rs.util_default,
		  rs.util_source);
	S_setting(w, "max_num_batched_tokens", rs.max_num_batched_tokens, rs.mnbt_default,
		  rs.mnbt_source);
	gs_jw_end(w);
	S_member_str(w, "version", rs.version);
	gs_jw_end(w);
}

static void S_opt_u64(gs_jw *w, const char *key, int has, uint64_t v)
{
	gs_jw_key(w, key);
	if (has)
		gs_jw_u64(w, v);
	else
		gs_jw_null(w);
}

static void S_mtok(gs_jw *w, const char *key, int has, int64_t micro, const gs_rate *r)
{
	gs_jw_key(w, key);
	if (!has) {
		gs_jw_null(w);
		return;
	}
	gs_jw_object(w);
	S_member_str(w, "currency", r->plan->currency);
	gs_jw_key(w, "micro");
	gs_jw_i64(w, micro);
	gs_jw_end(w);
}

/*
 * The calculated upper bounds of speed on the lot (docs/formats.md, 4.1),
 * speeds in thousandths of a token per second (rounded up), the first
 * token's time in microseconds (rounded down), a million output tokens at
 * the bound in millionths of the currency (rounded down: a lower bound);
 * null without a bound.
 */
static void S_speed(gs_jw *w, const gs_candidate *c)
{
	const gs_speed *sp = &c->speed;

	if (!sp->known) {
		gs_jw_null(w);
		return;
	}
	gs_jw_object(w);
	gs_jw_key(w, "bandwidth_bytes_per_second");
	gs_jw_u64(w, sp->bw);
	gs_jw_key(w, "bytes_per_step");
	gs_jw_u64(w, sp->bytes_per_step);
	gs_jw_key(w, "cards");
	gs_jw_u64(w, sp->load.cards);
	gs_jw_key(w, "cost_per_million_output_tokens");
	gs_jw_object(w);
	S_mtok(w, "interruptible", c->has_mtok_interruptible, c->mtok_interruptible, &c->interruptible);
	S_mtok(w, "on_demand", c->has_mtok_on_demand, c->mtok_on_demand, &c->on_demand);
	S_member_str(w, "provenance", "calculated");
	gs_jw_end(w);
	S_opt_u64(w, "decode_milli_per_sequence", 1, sp->decode_seq_milli);
	S_opt_u64(w, "decode_milli_per_sequence_weights_only", 1, sp->decode_weights_milli);
	S_opt_u64(w, "decode_milli_total", 1, sp->decode_total_milli);
	S_opt_u64(w, "prefill_milli", sp->has_prefill, sp->prefill_milli);
	S_member_str(w, "provenance", "calculated");
	gs_jw_key(w, "sequences");
	gs_jw_u64(w, sp->load.sequences);
	S_member_str(w, "source", sp->gpu->source);
	S_opt_u64(w, "time_to_first_token_micro", sp->has_ttft, sp->ttft_micro);
	gs_jw_key(w, "upper_bound");
	gs_jw_bool(w, 1);
	gs_jw_end(w);
}

static void S_candidate(gs_jw *w, const gs_sheet_input *in,
			const gs_sheet_reasonset *rs, size_t ci)
{
	const gs_candidate *c = &in->d->cands[ci];
	gs_qty mq;

	gs_jw_object(w);
	/* the measurement whose device total is the capacity (observed), or null */
	S_member_str(w, "capacity_from", c->cap_source == GS_CAP_OBSERVED && c->cap_from
		     ? c->cap_from->ref->file : NULL);
	gs_jw_key(w, "capacity_per_card");
	gs_jw_qty(w, c->capacity);
	/* a missing figure has no source */
	S_member_str(w, "capacity_source", !c->capacity.present ? NULL
					    : c->cap_source == GS_CAP_OBSERVED ? "observed"
					    : c->cap_source == GS_CAP_DECLARED ? "declared"
					    : c->cap_source == GS_CAP_REPORTED ? "reported" : "nominal");
	/* where a reported total was read (a public log), or null */
	S_member_str(w, "capacity_source_url", c->capacity.present && c->cap_source == GS_CAP_REPORTED &&
		     c->gpu ? c->gpu->reported_source : NULL);
	gs_jw_key(w, "capacity_upper_per_card");
	gs_jw_qty(w, c->upper);
	gs_jw_key(w, "cards");
	gs_jw_u64(w, c->offer->cards);
	S_member_str(w, "class", gs_verdict_class_id(c->cls));
	S_member_str(w, "gpu_model", c->offer->gpu_model);
	gs_jw_key(w, "headroom");
	if (c->has_headroom) {
		gs_jw_object(w);
		gs_jw_key(w, "max_sequences_at_context");
		gs_jw_u64(w, c->headroom_sequences);
		gs_jw_key(w, "max_tokens_at_sequences");
		gs_jw_u64(w, c->headroom_tokens);
		S_member_str(w, "provenance", gs_qty_prov_id(c->headroom_prov));
		if (c->headroom_synthetic) {
			gs_jw_key(w, "synthetic");
			gs_jw_bool(w, 1);
		}
		gs_jw_key(w, "without_reserve");
		gs_jw_bool(w, c->headroom_without_reserve);
		gs_jw_end(w);
	} else {
		gs_jw_null(w);
	}
	gs_jw_key(w, "lower_bound_per_card");
	gs_jw_qty(w, c->lower);
	gs_jw_key(w, "margin_bytes");
	if (c->has_margin)
		gs_jw_i64(w, (int64_t)c->margin);
	else
		gs_jw_null(w);
	/* The margin's provenance: the weaker of the capacity and the need. */
	gs_jw_key(w, "margin_provenance");
	mq = gs_verdict_margin_prov(c->need, c->capacity);
	if (c->has_margin && mq.present) {
		gs_jw_str(w, gs_qty_prov_id(mq.prov));
		if (mq.synthetic) {
			gs_jw_key(w, "margin_synthetic");
			gs_jw_bool(w, 1);
		}
	} else {
		gs_jw_null(w);
	}
	/* where the catalog's memory figure comes from: a claim of the
	 * provider's file or page, or the vendor table; null without one */
	S_member_str(w, "memory_figure_from", c->offer->memory_origin == GS_MEMORY_FROM_VENDOR
		     ? "vendor_table" : c->offer->memory_origin == GS_MEMORY_FROM_CATALOG
		     ? "catalog_claim" : NULL);
	gs_jw_key(w, "need_per_card");
	gs_jw_qty(w, c->need);
	gs_jw_key(w, "nominal_bytes");
	if (c->offer->memory_unknown)
		gs_jw_null(w);
	else
		gs_jw_u64(w, c->offer->nominal_bytes);
	S_member_str(w, "offer", c->offer->id);
	gs_jw_key(w, "price_per_hour");
	S_rates(w, c);
	gs_jw_key(w, "requirements");
	S_requirements(w, rs, ci);
	gs_jw_key(w, "rests_on_synthetic");
	gs_jw_bool(w, c->synthetic);
	/* vLLM's budget on this offer's card, or null (docs/formats.md, 7) */
	gs_jw_key(w, "runtime");
	if (c->has_runtime) {
		gs_jw_object(w);
		gs_jw_key(w, "budget_per_card");
		gs_jw_qty(w, c->capacity);
		gs_jw_key(w, "card_total");
		gs_jw_qty(w, c->card_total);
		gs_jw_key(w, "kv_blocks");
		if (c->rt_pool_known)
			gs_jw_u64(w, c->rt.blocks);
		else
			gs_jw_null(w);
		gs_jw_key(w, "kv_pool_bytes");
		if (c->rt_pool_known)
			gs_jw_u64(w, c->rt.pool);
		else
			gs_jw_null(w);
		gs_jw_key(w, "kv_tokens");
		if (c->rt_pool_known)
			gs_jw_u64(w, c->rt.tokens);
		else
			gs_jw_null(w);
		gs_jw_key(w, "max_concurrency_hundredths");
		if (c->rt_pool_known && c->rt.concurrency_hundredths)
			gs_jw_u64(w, c->rt.concurrency_hundredths);
		else
			gs_jw_null(w);
		gs_jw_key(w, "short_bytes");
		if (c->rt_pool_known && c->rt.short_bytes)
			gs_jw_u64(w, c->rt.short_bytes);
		else
			gs_jw_null(w);
		gs_jw_end(w);
	} else {
		gs_jw_null(w);
	}
	gs_jw_key(w, "speed");
	S_speed(w, c);
	S_member_str(w, "status", S_status(c));
	if (!c->plan || c->plan->currency) {   /* a plan without currency: no member */
		gs_jw_key(w, "total_cost");
		if (c->plan) {
			gs_jw_object(w);
			S_member_str(w, "currency", c->plan->currency);
			gs_jw_key(w, "hundredths");
			gs_jw_i64(w, c->cost);
			gs_jw_key(w, "plan_hours");
			gs_jw_u64(w, c->plan->hours);
			gs_jw_key(w, "plan_units");
			gs_jw_u64(w, c->plan_units);
			S_member_str(w, "provenance", "assumed");
			gs_jw_end(w);
		} else {
			gs_jw_null(w);
		}
	}
	gs_jw_end(w);
}

/*
 * The decision JSON, written as it goes (gs_jw), every object's keys in
 * sorted order (docs/formats.md lists them). What a NULL string would do
 * to jansson's tree, which this writer replaced, is kept: a member or an
 * element built from it is left out.
 */
char *gs_render_decision_json(const gs_sheet_input *in)
{
	const gs_decision *d = in->d;
	const gs_sizing *s = in->s;
	const gs_workload *wl = in->w;
	gs_sheet_reasonset own;
	const gs_sheet_reasonset *rs = in->rs;
	gs_jw w;
	size_t i;

	/* each distinct reason once ("reasons"), each verdict with its index */
	if (!rs) {
		gs_sheet_reasons_set_build(in, &own);
		rs = &own;
	}
	/* each candidate, reason and quantity on one line (docs/formats.md) */
	gs_jw_init_flat(&w, 3);
	gs_jw_object(&w);
	gs_jw_key(&w, "accept_synthetic");
	gs_jw_bool(&w, d->accept_synthetic);
	gs_jw_key(&w, "candidates");
	gs_jw_array(&w);
	for (i = 0; i < d->ncands; i++) {
		const gs_candidate *c = &d->cands[d->order[i]];
		if (c->offer->id && c->offer->gpu_model)
			S_candidate(&w, in, rs, d->order[i]);
	}
	gs_jw_end(&w);
	if (in->catalog_name)
		S_member_str(&w, "catalog", in->catalog_name);
	S_member_str(&w, "date", in->date);
	if (!d->nretained || d->cands[d->order[0]].offer->id) {
		gs_jw_key(&w, "decision");
		gs_jw_object(&w);
		S_member_str(&w, "choice", d->nretained ? d->cands[d->order[0]].offer->id : NULL);
		gs_jw_key(&w, "classes");
		gs_jw_object(&w);
		{
			/* the class ids in sorted order */
			static const gs_class sorted[GS_CLASS_COUNT] = {
				GS_CLASS_UNKNOWN, GS_CLASS_EXCLUDED, GS_CLASS_FITS,
				GS_CLASS_LOWER_FITS, GS_CLASS_UNSURE, GS_CLASS_REFERENCE,
				GS_CLASS_RETAINED
			};
			int k;
			for (k = 0; k < GS_CLASS_COUNT; k++) {
				gs_jw_key(&w, gs_verdict_class_id(sorted[k]));
				gs_jw_u64(&w, d->nclass[sorted[k]]);
			}
		}
		gs_jw_end(&w);
		S_member_str(&w, "kind", d->nretained ? "retained" : d->npreselected ? "preselection" : "none");
		{
			const gs_candidate *b = gs_verdict_best(d);
			S_member_str(&w, "offer_to_take", b ? b->offer->id : NULL);
		}
		gs_jw_key(&w, "preselected");
		gs_jw_array(&w);
		for (i = 0; i < d->ncands && !d->nretained; i++) {
			const gs_candidate *c = &d->cands[d->order[i]];
			if (!c->retained && !c->excluded && c->cls != GS_CLASS_REFERENCE && c->offer->id)
				gs_jw_str(&w, c->offer->id);
		}
		gs_jw_end(&w);
		gs_jw_key(&w, "retained");
		gs_jw_array(&w);
		for (i = 0; i < d->ncands; i++) {
			const gs_candidate *c = &d->cands[d->order[i]];
			if (c->retained && c->offer->id)
				gs_jw_str(&w, c->offer->id);
		}
		gs_jw_end(&w);
		gs_jw_end(&w);
	}
	gs_jw_key(&w, "demonstration");
	gs_jw_bool(&w, d->demonstration);
	gs_jw_key(&w, "evidence");
	gs_jw_array(&w);
	for (i = 0; i < in->nev; i++) {
		if (!in->ev[i].ref->file || !in->ev_links[i])
			continue;
		gs_jw_object(&w);
		S_member_str(&w, "covers", in->ev[i].ref->covers);
		S_member_str(&w, "file", in->ev[i].ref->file);
		S_member_str(&w, "link", in->ev_links[i]);
		gs_jw_key(&w, "synthetic");
		gs_jw_bool(&w, in->ev[i].m->synthetic);
		gs_jw_end(&w);
	}
	gs_jw_end(&w);
	S_member_str(&w, "generator", "gpusheet " GS_VERSION);
	S_member_str(&w, "lang", gs_tr_lang_id(in->t->lang));
	gs_jw_key(&w, "reasons");
	S_reasons(&w, rs);
	if (rs == &own)
		gs_sheet_reasons_set_release(&own);
	S_runtime(&w, in->w);
	S_member_str(&w, "schema", "gpusheet-decision");
	gs_jw_key(&w, "schema_version");
	gs_jw_i64(&w, 4);
	gs_jw_key(&w, "sizing");
	gs_jw_object(&w);
	gs_jw_key(&w, "envelope");
	gs_jw_qty(&w, s->envelope);
	gs_jw_key(&w, "kv_cache");
	gs_jw_qty(&w, s->kv);
	gs_jw_key(&w, "need");
	gs_jw_qty(&w, s->need);
	gs_jw_key(&w, "reserve");
	gs_jw_qty(&w, s->reserve);
	gs_jw_key(&w, "training");
	gs_jw_qty(&w, s->training);
	if (s->has_train)
		S_training_recipe(&w, wl, &s->train);
	gs_jw_key(&w, "weights");
	gs_jw_qty(&w, s->weights);
	if (wl->weights_source) {
		/* the files the weights were read from ("model": {"from": ...}) */
		gs_jw_key(&w, "weights_source");
		gs_jw_object(&w);
		S_member_str(&w, "files", wl->weights_source);
		S_member_str(&w, "read_from", wl->weights_from_index ? "index metadata.total_size"
								    : "checkpoint headers");
		gs_jw_end(&w);
	}
	gs_jw_key(&w, "weights_theoretical");
	gs_jw_bool(&w, s->theoretical);
	gs_jw_end(&w);
	gs_jw_key(&w, "synthetic_evidence");
	gs_jw_bool(&w, d->synthetic);
	if (wl->id && wl->title && wl->model_name) {
		gs_jw_key(&w, "workload");
		gs_jw_object(&w);
		S_member_str(&w, "id", wl->id);
		S_member_str(&w, "model", wl->model_name);
		S_member_str(&w, "task", gs_workload_task_id(wl->task));
		S_member_str(&w, "title", wl->title);
		gs_jw_end(&w);
	}
	gs_jw_end(&w);
	return gs_jw_finish(&w);
}

/*
 * A user string cut to at most max bytes at a UTF-8 boundary, marked with
 * its full length when cut, so that the summary stays bounded. Caller frees.
 */
static char *S_cut(const gs_strings *t, const char *s, size_t max)
{
	size_t n = strlen(s), k = max;

	if (n <= max)
		return gs_xstrdup(s);
	while (k > 0 && ((unsigned char)s[k] & 0xC0) == 0x80)
		k--;
	return gs_xasprintf("%.*s\xe2\x80\xa6 [%s %zu B]", (int)k, s, gs_tr(t, "summary.cut"), n);
}

char *gs_render_summary(const gs_sheet_input *in, const char *sheet_link)
{
	const gs_decision *d = in->d;
	const gs_strings *t = in->t;
	gs_doc doc;
	cmark_node *p, *list;
	char *out;
	size_t i, shown = 0;
	int r;

	if (gs_doc_init(&doc))
		return NULL;
	{
		/* Bounded: every user string is cut, at most 50 offers are listed. */
		char *title = S_cut(t, in->w->title, GS_SUMMARY_MAX_STRING);
		gs_doc_heading(doc.root, 3, title);
		free(title);
	}
	if (d->synthetic) {
		p = gs_doc_para(gs_doc_quote(doc.root));
		gs_doc_strong(p, gs_tr(t, d->demonstration ? "demo.title" : "synthetic.title"));
		gs_doc_text(p, " ");
		gs_doc_text(p, gs_tr(t, d->demonstration ? "demo.sheet_body"
				     : d->accept_synthetic ? "synthetic.body_accepted" : "synthetic.body"));
	}
	p = gs_doc_para(doc.root);
	gs_doc_strong(p, gs_tr(t, d->demonstration ? "decision.label_demo" : "decision.label"));
	gs_doc_text(p, " ");
	gs_doc_text(p, gs_tr(t, d->nretained ? "decision.retained" : d->npreselected
			     ? "decision.preselection" : "decision.none"));
	list = gs_doc_list(doc.root, 0);
	/* Bounded: at most 50 offers listed, so the summary stays small. */
	for (i = 0; i < d->ncands && shown < 50; i++) {
		const gs_candidate *c = &d->cands[d->order[i]];
		int k = 0;
		if (c->excluded || c->cls == GS_CLASS_REFERENCE || (d->nretained && !c->retained))
			continue;
		p = gs_doc_item(list);
		gs_doc_code(p, c->offer->id);
		gs_doc_textf(p, " %s", gs_tr(t, c->retained ? "overall.retained" : "overall.preselected"));
		gs_doc_textf(p, " (%s)", gs_tr(t, gs_sheet_words_class_key(c->cls)));
		for (r = 0; r < GS_REQ_COUNT; r++)
			if (c->v[r].kind == GS_V_TO_CONFIRM) {
				gs_doc_textf(p, "%s%s", k++ ? ", " : gs_tr(t, "summary.to_confirm"),
					     gs_sheet_words_req_label(t, (gs_req)r));
			}
		shown++;
	}
	/* The excluded, with what excludes them, within the same bound. */
	for (i = 0; i < d->ncands && shown < 50; i++) {
		const gs_candidate *c = &d->cands[d->order[i]];
		int k = 0;
		if (!c->excluded)
			continue;
		p = gs_doc_item(list);
		gs_doc_code(p, c->offer->id);
		gs_doc_textf(p, " %s", gs_tr(t, "overall.excluded"));
		for (r = 0; r < GS_REQ_COUNT; r++)
			if (c->v[r].kind == GS_V_EXCLUDE)
				gs_doc_textf(p, "%s%s", k++ ? ", " : gs_tr(t, "summary.excluded_by"),
					     gs_sheet_words_req_label(t, (gs_req)r));
		shown++;
	}
	if (shown == 50 && d->ncands > 50) {
		p = gs_doc_para(doc.root);
		gs_doc_textf(p, "%s %zu.", gs_tr(t, "summary.more"), d->ncands - shown);
	}
	p = gs_doc_para(doc.root);
	gs_doc_text(p, gs_tr(t, "summary.full_sheet"));
	gs_doc_text(p, " ");
	{
		char *link = S_cut(t, sheet_link, GS_SUMMARY_MAX_STRING);
		gs_doc_code(p, link);
		free(link);
	}
	out = gs_doc_render_markdown(&doc);
	gs_doc_release(&doc);
	return out;
}
