/* predict: gpusheet's prediction beside a log's figures (predict.h). */
#include "predict.h"

#include <string.h>

#include "gpuname.h"
#include "runtime.h"

int64_t gs_predict_diff_tenths(uint64_t pred, uint64_t obs)
{
	unsigned __int128 d = pred >= obs ? pred - obs : obs - pred;
	unsigned __int128 q = (d * 2000u + obs) / (2u * (unsigned __int128)obs);

	if (q > INT64_MAX)
		q = INT64_MAX;
	return pred >= obs ? (int64_t)q : -(int64_t)q;
}

/* "0.9", "0.90", "0.925" as thousandths; 0 when not such a decimal in (0, 1]. */
static uint64_t S_permille(const char *s)
{
	uint64_t v = 0, scale = 100;

	if (!s)
		return 0;
	if (s[0] == '1' && (!s[1] || (s[1] == '.' && strspn(s + 2, "0") == strlen(s + 2))))
		return 1000;
	if (s[0] != '0' || s[1] != '.')
		return 0;
	for (s += 2; *s; s++) {
		if (*s < '0' || *s > '9')
			return 0;
		if (scale == 0) {
			if (*s != '0')
				return 0;   /* more than 3 decimals that matter */
			continue;
		}
		v += (uint64_t)(*s - '0') * scale;
		scale /= 10;
	}
	return v;
}

static uint64_t S_count(const char *s)
{
	uint64_t v = 0;

	if (!s || !*s)
		return 0;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || v > UINT64_MAX / 10 - 9)
			return 0;
		v = v * 10 + (uint64_t)(*s - '0');
	}
	return v;
}

/* "4.84" as hundredths; 0 when not a decimal of at most 2 decimals. */
static uint64_t S_hundredths(const char *s)
{
	uint64_t v = 0;
	int dec = -1;

	if (!s || !*s)
		return 0;
	for (; *s; s++) {
		if (*s == '.' && dec < 0) {
			dec = 0;
			continue;
		}
		if (*s < '0' || *s > '9' || dec == 2 || v > UINT64_MAX / 10 - 9)
			return 0;
		v = v * 10 + (uint64_t)(*s - '0');
		if (dec >= 0)
			dec++;
	}
	for (dec = dec < 0 ? 0 : dec; dec < 2; dec++) {
		if (v > UINT64_MAX / 10)
			return 0;
		v *= 10;
	}
	return v;
}

/* The concurrency vLLM prints: the predicted tokens over L, beside the log's. */
static void S_concurrency(const gs_workload *w, const gs_logimport *li, gs_prediction *p)
{
	const gs_logsetting *ml = gs_logimport_setting(li, "max_model_len");
	const gs_logfig *f;
	unsigned __int128 c;
	int found;
	uint64_t in, out;

	p->conc_len = ml ? S_count(ml->value) : 0;
	p->conc_len_from = "the log";
	if (!p->conc_len) {
		in = gs_workload_dim(w, "input_tokens", &found);
		out = found ? gs_workload_dim(w, "output_tokens", &found) : 0;
		if (!found || in > UINT64_MAX - out || !(in + out))
			return;
		p->conc_len = in + out;
		p->conc_len_from = "the workload";
	}
	c = ((unsigned __int128)p->t[GS_PT_TOKENS].pred * 200u + p->conc_len) /
	    (2u * (unsigned __int128)p->conc_len);
	if (c > UINT64_MAX)
		return;
	p->has_conc = 1;
	p->conc_pred = (uint64_t)c;
	f = gs_logimport_fig(li, "max_concurrency", p->device);
	if (f && !f->is_int && (p->conc_obs = S_hundredths(f->decimal)) > 0) {
		p->has_conc_obs = 1;
		p->conc_obs_line = f->line;
		p->has_conc_diff = 1;
		p->conc_diff_tenths = gs_predict_diff_tenths(p->conc_pred, p->conc_obs);
	}
}

static void S_obs(gs_predict_term *t, const gs_logfig *f)
{
	if (!f || !f->is_int || f->value < 0)
		return;
	t->has_obs = 1;
	t->obs = (uint64_t)f->value;
	t->obs_line = f->line;
	t->obs_how = "read";
}

static void S_diff(gs_predict_term *t)
{
	if (t->has_pred && t->has_obs && t->obs > 0) {
		t->has_diff = 1;
		t->diff_tenths = gs_predict_diff_tenths(t->pred, t->obs);
	}
}

/* The settings: the log's, else the workload's runtime, else vLLM's default. */
static void S_settings(const gs_workload *w, const gs_logimport *li, gs_prediction *p)
{
	const gs_logsetting *u = gs_logimport_setting(li, "gpu_memory_utilization");
	const gs_logsetting *b = gs_logimport_setting(li, "block_size");
	const gs_logsetting *t = gs_logimport_setting(li, "tensor_parallel_size");
	gs_runtime_settings rs;
	int has_rt = gs_runtime_settings_of(w, &rs) == 0 && rs.id == GS_ENGINE_VLLM;

	p->util_permille = u ? S_permille(u->value) : 0;
	p->util_from = "the log";
	if (!p->util_permille) {
		p->util_permille = has_rt ? rs.util_permille : 900;
		p->util_from = has_rt && !rs.util_default ? "the workload" : "default of vLLM";
	}
	p->block_size = b ? S_count(b->value) : 0;
	p->block_from = "the log";
	if (!p->block_size) {
		p->block_size = has_rt ? rs.block_size : 16;
		p->block_from = has_rt && !rs.block_default ? "the workload" : "default of vLLM";
	}
	p->tp = t ? S_count(t->value) : 0;
	p->tp_from = "the log";
	if (!p->tp) {
		p->tp = w->tensor_parallel ? w->tensor_parallel : 1;
		p->tp_from = w->tensor_parallel ? "the workload" : "default of vLLM";
	}
}

/* The weights, the KV bytes a token and the fixed terms, per card: split
 * over the tensor-parallel ranks; the weights predicted (calculated). */
static void S_per_card(const gs_workload *w, const gs_sizing *s, gs_prediction *p,
		       uint64_t *weights, uint64_t *per_token, uint64_t *fixed)
{
	*weights = s->weights.bytes / p->tp + (s->weights.bytes % p->tp != 0);
	*per_token = s->kv_per_token;
	if (p->tp > 1 && gs_sizing_kv_splits(w, s, p->tp))
		*per_token = *per_token / p->tp + (*per_token % p->tp != 0);
	*fixed = s->reserve.present ? s->reserve.bytes : 0;
	p->t[GS_PT_WEIGHTS].basis = "calculated";
	p->t[GS_PT_WEIGHTS].has_pred = 1;
	p->t[GS_PT_WEIGHTS].pred = *weights;
}

/* vLLM's step budget on the log's card, by the workload's version and
 * entry point (its total and its name as the log gives them): the
 * reserve's profiling-step terms counted at it (runtime.h). */
static void S_step(const gs_workload *w, gs_prediction *p, uint64_t *fixed)
{
	gs_runtime_settings rs;
	uint64_t t, now, then;

	if (gs_runtime_settings_of(w, &rs) != 0 || rs.id != GS_ENGINE_VLLM)
		return;
	t = gs_runtime_mnbt_on_card(&rs, p->total, p->gpu, NULL);
	if (t == rs.max_num_batched_tokens ||
	    gs_runtime_step_terms(w, &rs, t, &now, &then) != 0 || *fixed < now)
		return;
	p->step_tokens = t;
	*fixed = *fixed - now;
	*fixed = then > UINT64_MAX - *fixed ? UINT64_MAX : *fixed + then;
}

/* The budget, the pool in whole blocks and its tokens predicted from the
 * share of p->total (gs_runtime_vllm_budget), each with basis; 0, or -1
 * with why. */
static int S_pool(gs_prediction *p, uint64_t weights, uint64_t fixed, uint64_t per_token,
		  uint64_t block, const char *basis, const char **why)
{
	gs_runtime_budget b;

	if (weights > UINT64_MAX - fixed ||
	    gs_runtime_budget_frac(p->total, p->share_den ? p->share_num : p->util_permille,
				   p->share_den ? p->share_den : 1000, weights + fixed, per_token,
				   block, 0, &b) != 0) {
		*why = "the prediction overflows 64 bits";
		return -1;
	}
	p->budget = b.budget;
	p->t[GS_PT_POOL].basis = basis;
	p->t[GS_PT_POOL].has_pred = 1;
	p->t[GS_PT_POOL].pred = b.pool;
	p->t[GS_PT_TOKENS].basis = basis;
	p->t[GS_PT_TOKENS].tokens = 1;
	p->t[GS_PT_TOKENS].has_pred = 1;
	p->t[GS_PT_TOKENS].pred = b.tokens;
	return 0;
}

int gs_predict_vllm(const gs_workload *w, const gs_sizing *s, const gs_logimport *li,
		    gs_prediction *p, const char **why)
{
	static const char *const names[GS_PT_N] = { "weights per card", "other terms",
						    "KV pool", "KV pool tokens" };
	const gs_logdevice *dv = NULL;
	const gs_logfig *f;
	uint64_t per_token, weights, fixed;
	size_t i;

	memset(p, 0, sizeof(*p));
	*why = NULL;
	if (li->kind != GS_LOG_VLLM) {
		*why = "a prediction is made for a vLLM start-up log only";
		return -1;
	}
	for (i = 0; i < li->ndevices && !dv; i++)
		if (li->devices[i].has_total)
			dv = &li->devices[i];
	p->total_from = "observed";
	if (dv) {
		p->total = dv->total;
	} else {
		/* the total devices of that GPU report (gpuname.h), cited */
		for (i = 0; i < li->ndevices && !dv; i++) {
			const gs_gpu_nominal *e = li->devices[i].name
							  ? gs_gpuname_resolve(li->devices[i].name,
									       li->devices[i].name, 0)
							  : NULL;
			if (e && e->reported_bytes) {
				dv = &li->devices[i];
				p->total = e->reported_bytes;
				p->total_from = "reported, cited";
				p->total_source = e->reported_source;
			}
		}
	}
	if (!dv) {
		*why = "the log reports no device's total, and the table of reported totals has "
		       "none for its GPU: nothing to predict the budget of";
		return -1;
	}
	if (!s->weights.present || !s->kv.present || !s->kv_per_token) {
		*why = "the workload has no weights or no KV cache to predict";
		return -1;
	}
	p->device = dv->index;
	p->gpu = dv->name;
	p->share_name = "gpu_memory_utilization";
	S_settings(w, li, p);
	for (i = 0; i < GS_PT_N; i++)
		p->t[i].name = names[i];
	S_per_card(w, s, p, &weights, &per_token, &fixed);
	S_step(w, p, &fixed);
	/* init --engine vllm writes vLLM's own terms: calculated from the
	 * geometry on an assumed shape, and assumed (runtime.c) */
	p->t[GS_PT_OTHER].basis = w->runtime.engine == GS_ENGINE_VLLM ? "calculated and assumed"
								       : "assumed";
	p->t[GS_PT_OTHER].has_pred = 1;
	p->t[GS_PT_OTHER].pred = fixed;
	if (S_pool(p, weights, fixed, per_token, p->block_size, "calculated on assumed terms", why))
		return -1;
	/* what the log observed, on that device */
	S_obs(&p->t[GS_PT_WEIGHTS], gs_logimport_fig(li, "weights", p->device));
	S_obs(&p->t[GS_PT_POOL], gs_logimport_fig(li, "kv_cache_memory", p->device));
	S_obs(&p->t[GS_PT_TOKENS], gs_logimport_fig(li, "kv_cache_tokens", p->device));
	f = gs_logimport_fig(li, "kv_cache_blocks", p->device);
	if (!p->t[GS_PT_TOKENS].has_obs && f && f->is_int && f->value >= 0 &&
	    (uint64_t)f->value <= UINT64_MAX / p->block_size) {
		p->t[GS_PT_TOKENS].has_obs = 1;
		p->t[GS_PT_TOKENS].obs = (uint64_t)f->value * p->block_size;
		p->t[GS_PT_TOKENS].obs_line = f->line;
		p->t[GS_PT_TOKENS].obs_how = "blocks x block size";
	}
	/* a pool the log gives in tokens only: those tokens' bytes */
	if (!p->t[GS_PT_POOL].has_obs && p->t[GS_PT_TOKENS].has_obs &&
	    p->t[GS_PT_TOKENS].obs <= UINT64_MAX / per_token) {
		p->t[GS_PT_POOL].has_obs = 1;
		p->t[GS_PT_POOL].obs = p->t[GS_PT_TOKENS].obs * per_token;
		p->t[GS_PT_POOL].obs_how = "its tokens x the KV bytes of a token";
	}
	/* the other terms the log implies: its budget less its weights and its pool */
	if (p->t[GS_PT_WEIGHTS].has_obs && p->t[GS_PT_POOL].has_obs &&
	    p->t[GS_PT_WEIGHTS].obs + p->t[GS_PT_POOL].obs <= p->budget) {
		p->t[GS_PT_OTHER].has_obs = 1;
		p->t[GS_PT_OTHER].obs = p->budget - p->t[GS_PT_WEIGHTS].obs - p->t[GS_PT_POOL].obs;
		p->t[GS_PT_OTHER].obs_how = "the budget less the log's weights and pool";
	}
	for (i = 0; i < GS_PT_N; i++)
		S_diff(&p->t[i]);
	S_concurrency(w, li, p);
	return 0;
}

/* SGLang's total: the free memory before the weights, as its log shows it. */
static int S_sglang_total(const gs_logimport *li, gs_prediction *p)
{
	const gs_logfig *b = NULL, *a, *wt;
	size_t i;

	for (i = 0; i < li->ndevices; i++) {
		int64_t d = li->devices[i].index;
		if ((b = gs_logimport_fig(li, "available_before_weights", d)) && b->is_int && b->value > 0) {
			p->device = d;
			p->total = (uint64_t)b->value;
			p->total_from = "observed: SGLang's total, the free memory before the weights";
			return 0;
		}
		a = gs_logimport_fig(li, "available_after_weights", d);
		wt = gs_logimport_fig(li, "weights", d);
		if (a && wt && a->is_int && wt->is_int && a->value > 0 && wt->value > 0 &&
		    (uint64_t)a->value <= UINT64_MAX - (uint64_t)wt->value) {
			p->device = d;
			p->total = (uint64_t)a->value + (uint64_t)wt->value;
			p->total_from = "observed: SGLang's total, the free memory after the weights plus "
					"their size";
			return 0;
		}
	}
	return -1;
}

/* mem_fraction_static: the log's, else the workload's, else the version's
 * rule on the card's reported total (the card named in the log). */
static int S_sglang_share(const gs_workload *w, const gs_logimport *li, gs_prediction *p,
			  const char **why)
{
	const gs_logsetting *m = gs_logimport_setting(li, "mem_fraction_static");
	const gs_gpu_nominal *e = NULL;
	gs_runtime_settings rs;
	gs_runtime_share sh;
	size_t i;

	p->util_permille = m ? S_permille(m->value) : 0;
	p->util_from = "the log";
	if (p->util_permille)
		return 0;
	if (gs_runtime_settings_of(w, &rs) != 0 || rs.id != GS_ENGINE_SGLANG) {
		*why = "the log states no mem_fraction_static and the workload declares no SGLang "
		       "runtime: nothing to take it from";
		return -1;
	}
	if (rs.mfs_permille) {
		p->util_permille = rs.mfs_permille;
		p->util_from = "the workload";
		return 0;
	}
	for (i = 0; i < li->ndevices && !e; i++)
		if (li->devices[i].index == p->device && li->devices[i].name)
			e = gs_gpuname_resolve(li->devices[i].name, li->devices[i].name, 0);
	if (!e || !e->reported_bytes ||
	    gs_runtime_share_of(&rs, e->reported_bytes, p->tp,
				e->vendor && strcmp(e->vendor, "AMD") == 0, &sh) != 0) {
		*why = "the log states no mem_fraction_static and names no card whose reported total "
		       "the rule needs: state runtime.settings.mem_fraction_static in the workload";
		return -1;
	}
	p->util_permille = sh.permille;
	if (sh.unrounded) {
		p->share_num = sh.num;
		p->share_den = sh.den;
	}
	p->util_from = sh.unrounded
		? "default of SGLang, its version's rule on the card's reported total (unrounded; "
		  "shown to 3 decimals)"
		: "default of SGLang, its version's rule on the card's reported total";
	return 0;
}

int gs_predict_sglang(const gs_workload *w, const gs_sizing *s, const gs_logimport *li,
		      gs_prediction *p, const char **why)
{
	static const char *const names[GS_PT_N] = { "weights per card", "other terms",
						    "KV pool", "max_total_num_tokens" };
	const gs_logsetting *t = gs_logimport_setting(li, "tensor_parallel_size");
	const gs_logfig *k, *v;
	uint64_t per_token, weights, fixed;
	size_t i;

	memset(p, 0, sizeof(*p));
	*why = NULL;
	if (li->kind != GS_LOG_SGLANG) {
		*why = "an SGLang prediction is made for an SGLang start-up log only";
		return -1;
	}
	if (S_sglang_total(li, p) != 0) {
		*why = "the log shows no free memory before or after the weights: nothing to predict "
		       "SGLang's budget of";
		return -1;
	}
	for (i = 0; i < li->ndevices; i++)
		if (li->devices[i].index == p->device)
			p->gpu = li->devices[i].name;
	if (!s->weights.present || !s->kv.present || !s->kv_per_token) {
		*why = "the workload has no weights or no KV cache to predict";
		return -1;
	}
	p->share_name = "mem_fraction_static";
	p->tp = t ? S_count(t->value) : 0;
	p->tp_from = "the log";
	if (!p->tp) {
		p->tp = w->tensor_parallel ? w->tensor_parallel : 1;
		p->tp_from = w->tensor_parallel ? "the workload" : "default of SGLang";
	}
	if (S_sglang_share(w, li, p, why) != 0)
		return -1;
	p->block_size = 1;
	p->block_from = "SGLang's page_size";
	for (i = 0; i < GS_PT_N; i++)
		p->t[i].name = names[i];
	S_per_card(w, s, p, &weights, &per_token, &fixed);
	p->t[GS_PT_OTHER].basis = "the workload's reserve, none from init --engine sglang";
	p->t[GS_PT_OTHER].has_pred = 1;
	p->t[GS_PT_OTHER].pred = fixed;
	if (S_pool(p, weights, fixed, per_token, 1, "calculated on the log's total", why))
		return -1;
	S_obs(&p->t[GS_PT_WEIGHTS], gs_logimport_fig(li, "weights", p->device));
	/* the pool: K size + V size, else the KV size SGLang prints */
	k = gs_logimport_fig(li, "kv_cache_k", p->device);
	v = gs_logimport_fig(li, "kv_cache_v", p->device);
	if (k && v && k->is_int && v->is_int && k->value > 0 && v->value > 0) {
		p->t[GS_PT_POOL].has_obs = 1;
		p->t[GS_PT_POOL].obs = (uint64_t)k->value + (uint64_t)v->value;
		p->t[GS_PT_POOL].obs_line = k->line;
		p->t[GS_PT_POOL].obs_how = "K size + V size";
	} else {
		S_obs(&p->t[GS_PT_POOL], gs_logimport_fig(li, "kv_cache_memory", p->device));
	}
	S_obs(&p->t[GS_PT_TOKENS], gs_logimport_fig(li, "max_total_num_tokens", p->device));
	if (!p->t[GS_PT_TOKENS].has_obs)
		S_obs(&p->t[GS_PT_TOKENS], gs_logimport_fig(li, "kv_cache_tokens", p->device));
	for (i = 0; i < GS_PT_N; i++)
		S_diff(&p->t[i]);
	return 0;
}
