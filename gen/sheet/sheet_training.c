/*
 * sheet_training: the sizing of a workload run by a training recipe
 * (decide/training.h): the items per card with their rule, the need per
 * card, host memory, the phases and the lever for the dominant item.
 */
#include "sheet_int.h"

#include <string.h>

#include "training.h"

static const char *const S_item_keys[GS_TI_COUNT] = {
	"train.weights", "train.adapters", "train.gradients", "train.master",
	"train.optimizer", "train.activations", "train.logits"
};
static const char *const S_phase_keys[GS_TP_COUNT] = {
	"train.phase.load", "train.phase.first_step", "train.phase.steady",
	"train.phase.evaluation", "train.phase.export"
};

/* The recipe in words: method, rank and targets, optimizer, checkpointing,
 * sharding over N cards, offload, microbatch, tokens, accumulation. */
static void S_recipe_para(S_ctx *c)
{
	const gs_workload *w = c->in->w;
	const gs_recipe *rc = &w->recipe;
	const gs_training *t = &c->in->s->train;
	cmark_node *p = gs_doc_para(c->root);
	char a[GS_FMT_MAX], b[GS_FMT_MAX], d[GS_FMT_MAX];
	const char *sep = "";
	int f;
	size_t i;

	gs_doc_strong(p, TR("train.recipe"));
	gs_doc_textf(p, " %s", gs_recipe_method_id(rc->method));
	if (rc->method != GS_METHOD_FULL) {
		gs_doc_textf(p, ", %s %llu (", TR("train.rank"), (unsigned long long)rc->lora_rank);
		for (i = 0; i < GS_RECIPE_TARGETS; i++)
			if (rc->targets & (1u << gs_recipe_target_order[i])) {
				gs_doc_textf(p, "%s%s", sep,
					     gs_recipe_target_names[gs_recipe_target_order[i]]);
				sep = ", ";
			}
		gs_doc_text(p, ")");
	}
	gs_doc_textf(p, "; %s %s; %s %s; %s %s, %llu %s; %s %s. ", TR("train.optimizer_word"),
		     gs_recipe_optimizer_id(rc->optimizer), TR("train.checkpointing_word"),
		     gs_recipe_ckpt_id(rc->checkpointing), TR("train.sharding_word"),
		     gs_recipe_shard_id(rc->sharding), (unsigned long long)t->cards,
		     TR(t->cards == 1 ? "train.card_word" : "train.cards_word"), TR("train.offload_word"),
		     gs_recipe_offload_id(rc->offload));
	gs_doc_textf(p, "%s %s x %s %s; %s %llu (%s). %s %s. %s",
		     TR("train.microbatch_word"),
		     gs_qty_fmt_int(a, gs_workload_dim(w, "microbatch", &f), c->lang),
		     gs_qty_fmt_int(b, gs_workload_dim(w, "input_tokens", &f), c->lang),
		     TR("word.tokens"), TR("train.accumulation_word"),
		     (unsigned long long)rc->accumulation, TR("train.accumulation_note"),
		     TR("sizing.trainable"), gs_qty_fmt_int(d, t->trainable, c->lang),
		     TR("train.no_kv"));
}

/* The rule of one item in words: divided over N, on every card, offloaded. */
static char *S_rule(S_ctx *c, const gs_train_item *it, uint64_t cards)
{
	char a[GS_FMT_MAX];

	if (it->host && it->per_card == 0)
		return gs_xasprintf("%s", TR("train.offloaded"));
	if (it->host)
		return gs_xasprintf("%s", TR("train.offloaded_layer"));
	if (it->divided && cards > 1)
		return gs_xasprintf("%s / %llu %s (%s %s B)", TR("train.divided"),
				    (unsigned long long)cards, TR("train.cards_word"),
				    TR("train.whole"), gs_qty_fmt_int(a, it->total, c->lang));
	return gs_xasprintf("%s", TR("train.replicated"));
}

static void S_items_table(S_ctx *c)
{
	const gs_workload *w = c->in->w;
	const gs_sizing *s = c->in->s;
	const gs_training *t = &s->train;
	const char *h[5];
	cmark_node *tb, *r;
	size_t k;

	h[0] = TR("col.item");
	h[1] = TR("col.bytes");
	h[2] = TR("col.gb");
	h[3] = TR("col.gib");
	h[4] = TR("col.provenance");
	tb = gs_doc_table(c->doc, c->root, TR("cap.training_items"), 5, h);
	for (k = 0; k < GS_TI_COUNT; k++) {
		const gs_train_item *it = &t->items[k];
		if (it->total == 0)
			continue;
		char *rule = S_rule(c, it, t->cards);
		r = gs_doc_row(tb);
		/* a hybrid's activations: its state layers by their kernels */
		const char *why = it->prov != GS_PROV_ASSUMED ? "train.why_calculated"
				  : k == GS_TI_ACTIVATIONS && w->recipe.hybrid
				  ? "train.why_assumed_hybrid" : "train.why_assumed";
		gs_sheet_words_cell_owned(r, gs_xasprintf("%s — %s; %s", TR(S_item_keys[k]), rule,
							  TR(why)));
		free(rule);
		gs_sheet_words_size_cells(c, r, gs_qty_make(it->per_card, it->prov));
	}
	for (k = 0; k < w->nreserve; k++) {
		r = gs_doc_row(tb);
		gs_sheet_words_cell_owned(r, gs_xasprintf("%s: %s (%s %s) — %s", TR("size.reserve_item"),
					 w->reserve[k].name, w->reserve[k].amount, w->reserve[k].unit,
					 w->reserve[k].reason ? w->reserve[k].reason : ""));
		gs_sheet_words_size_cells(c, r, gs_qty_make(w->reserve[k].bytes, GS_PROV_ASSUMED));
	}
	for (k = 0; k < w->ntraining; k++) {
		r = gs_doc_row(tb);
		gs_sheet_words_cell_owned(r, gs_xasprintf("%s: %s (%s %s) — %s", TR("size.training_item"),
					 w->training[k].name, w->training[k].amount, w->training[k].unit,
					 w->training[k].reason ? w->training[k].reason : ""));
		gs_sheet_words_size_cells(c, r, gs_qty_make(w->training[k].bytes, GS_PROV_ASSUMED));
	}
	r = gs_doc_row(tb);
	gs_doc_cell_text(r, TR("train.need_row"));
	gs_sheet_words_size_cells(c, r, s->need);
}

static void S_phases_table(S_ctx *c)
{
	const gs_sizing *s = c->in->s;
	const gs_training *t = &s->train;
	const char *h[4];
	cmark_node *tb, *r, *p;
	char a[GS_FMT_MAX];
	size_t k;

	h[0] = TR("col.phase");
	h[1] = TR("col.bytes");
	h[2] = TR("col.gib");
	h[3] = TR("col.note");
	gs_doc_heading(c->root, 3, TR("sec.training_phases"));
	p = gs_doc_para(c->root);
	gs_doc_text(p, TR("train.phases_intro"));
	tb = gs_doc_table(c->doc, c->root, TR("cap.training_phases"), 4, h);
	for (k = 0; k < GS_TP_COUNT; k++) {
		char *note = gs_xasprintf("%s%s", k == (size_t)t->peak ? TR("train.peak") : "",
					  TR(k == GS_TP_FIRST_STEP ? "train.note.first_step"
					     : k == GS_TP_STEADY ? "train.note.steady"
					     : k == GS_TP_EVAL ? "train.note.evaluation"
					     : k == GS_TP_EXPORT ? "train.note.export"
								 : "train.note.load"));
		r = gs_doc_row(tb);
		gs_doc_cell_text(r, TR(S_phase_keys[k]));
		gs_doc_cell_text(r, gs_qty_fmt_int(a, t->phases[k], c->lang));
		gs_doc_cell_text(r, gs_qty_fmt_fixed2(a, t->phases[k], GS_GIB, c->lang));
		gs_sheet_words_cell_owned(r, note);
	}
	p = gs_doc_para(c->root);
	gs_doc_textf(p, "%s %s.", TR("train.peak_is"), TR(S_phase_keys[t->peak]));
}

/* A hybrid's layer kinds (Nemotron-H, Qwen3-Next): each token mixer and
 * feed-forward block with its layers, linear parameters and activations
 * per layer, and how its state layers are modelled. */
static void S_hybrid_table(S_ctx *c)
{
	static const char *const mixers[GS_MIXERS] = { "train.mixer.none", "train.mixer.attention",
						       "train.mixer.mamba2", "train.mixer.gdn" };
	static const char *const ffns[3] = { "train.ffn.none", "train.kind.dense", "train.kind.moe" };
	const gs_recipe *rc = &c->in->w->recipe;
	const gs_training *t = &c->in->s->train;
	const char *h[4];
	cmark_node *tb, *r;
	char a[GS_FMT_MAX], b[GS_FMT_MAX];
	size_t i;

	gs_doc_text(gs_doc_para(c->root), TR("train.kinds_intro_hybrid"));
	h[0] = TR("train.kind");
	h[1] = TR("train.kind_layers");
	h[2] = TR("train.kind_params");
	h[3] = TR("train.kind_act");
	tb = gs_doc_table(c->doc, c->root, TR("cap.training_kinds"), 4, h);
	for (i = 0; i < t->nhy; i++) {
		const gs_train_hybrid_kind *k = &t->hy[i];
		r = gs_doc_row(tb);
		if (k->ffn == 2)
			gs_sheet_words_cell_owned(r, gs_xasprintf("%s; %s: %llu / %s %s%s",
				TR(mixers[k->mixer]), TR(ffns[k->ffn]),
				(unsigned long long)rc->experts_active,
				gs_qty_fmt_int(a, rc->experts, c->lang), TR("train.kind.per_token"),
				rc->shared_intermediate ? TR("train.kind.shared") : ""));
		else
			gs_sheet_words_cell_owned(r, gs_xasprintf("%s; %s", TR(mixers[k->mixer]),
								  TR(ffns[k->ffn])));
		gs_doc_cell_text(r, gs_qty_fmt_int(b, k->layers, c->lang));
		gs_doc_cell_text(r, gs_qty_fmt_int(a, k->linear, c->lang));
		gs_doc_cell_text(r, gs_qty_fmt_int(b, k->act, c->lang));
	}
}

/* The layer kinds of an MoE with dense layers or of MLA: each kind's
 * layers, linear parameters and activations per layer. */
static void S_kinds_table(S_ctx *c)
{
	const gs_recipe *rc = &c->in->w->recipe;
	const gs_training *t = &c->in->s->train;
	const char *h[4];
	cmark_node *tb, *r;
	char a[GS_FMT_MAX], b[GS_FMT_MAX];
	int k;

	if (rc->hybrid) {
		S_hybrid_table(c);
		return;
	}
	if (!rc->experts && !rc->mla)
		return;
	gs_doc_text(gs_doc_para(c->root), TR("train.kinds_intro"));
	h[0] = TR("train.kind");
	h[1] = TR("train.kind_layers");
	h[2] = TR("train.kind_params");
	h[3] = TR("train.kind_act");
	tb = gs_doc_table(c->doc, c->root, TR("cap.training_kinds"), 4, h);
	for (k = 0; k < 2; k++) {
		if (!t->kind_layers[k])
			continue;
		r = gs_doc_row(tb);
		if (k == 0)
			gs_sheet_words_cell_owned(r, gs_xasprintf("%s%s", TR("train.kind.dense"),
				rc->mla ? TR("train.kind.mla") : ""));
		else
			gs_sheet_words_cell_owned(r, gs_xasprintf("%s: %llu / %s %s%s%s",
				TR("train.kind.moe"), (unsigned long long)rc->experts_active,
				gs_qty_fmt_int(a, rc->experts, c->lang), TR("train.kind.per_token"),
				rc->shared_intermediate ? TR("train.kind.shared") : "",
				rc->mla ? TR("train.kind.mla") : ""));
		gs_doc_cell_text(r, gs_qty_fmt_int(b, t->kind_layers[k], c->lang));
		gs_doc_cell_text(r, gs_qty_fmt_int(a, t->kind_linear[k], c->lang));
		gs_doc_cell_text(r, gs_qty_fmt_int(b, t->kind_act[k], c->lang));
	}
}

static const char *const S_pk_keys[GS_PK_COUNT] = {
	"train.pk.embed", "train.pk.head", "train.pk.attention", "train.pk.dense",
	"train.pk.routed", "train.pk.shared", "train.pk.router", "train.pk.norm",
	"train.pk.scale", "train.pk.other", "train.pk.beyond"
};

/* figure (from the checkpoint) against the geometry's: "the same", or the
 * geometry's figure and the difference */
static void S_cross(S_ctx *c, cmark_node *p, const char *what, uint64_t ck, uint64_t cfg)
{
	char a[GS_FMT_MAX], b[GS_FMT_MAX], d[GS_FMT_MAX];

	if (ck == cfg) {
		gs_doc_textf(p, " %s %s, %s.", what, gs_qty_fmt_int(a, ck, c->lang),
			     TR("train.ck.same"));
		return;
	}
	gs_doc_textf(p, " %s %s; %s %s, %s %s%s.", what, gs_qty_fmt_int(a, ck, c->lang),
		     TR("train.ck.config"), gs_qty_fmt_int(b, cfg, c->lang),
		     TR("model.params_differ"), ck > cfg ? "+" : "−",
		     gs_qty_fmt_int(d, ck > cfg ? ck - cfg : cfg - ck, c->lang));
}

/* The parameters per kind calculated from the checkpoint's headers, and
 * the trainable parameters (and QLoRA's 4-bit ones) against the
 * geometry's. */
static void S_ck_table(S_ctx *c)
{
	const gs_recipe *rc = &c->in->w->recipe;
	const gs_training *t = &c->in->s->train;
	const gs_model *m = c->in->w->model;
	const char *h[2];
	cmark_node *tb, *r, *p;
	char a[GS_FMT_MAX];
	int k;

	if (!t->from_ck)
		return;
	p = gs_doc_para(c->root);
	gs_doc_text(p, TR(m && m->weights == GS_WEIGHTS_GGUF ? "train.ck.intro_gguf"
			  : "train.ck.intro"));
	h[0] = TR("train.ck.kind");
	h[1] = TR("train.ck.params");
	tb = gs_doc_table(c->doc, c->root, TR("cap.training_ck"), 2, h);
	for (k = 0; k < GS_PK_COUNT; k++) {
		if (!rc->ck.params[k])
			continue;
		r = gs_doc_row(tb);
		gs_doc_cell_text(r, TR(S_pk_keys[k]));
		gs_doc_cell_text(r, gs_qty_fmt_int(a, rc->ck.params[k], c->lang));
	}
	r = gs_doc_row(tb);
	gs_doc_cell_text(r, TR("train.ck.total"));
	gs_doc_cell_text(r, gs_qty_fmt_int(a, rc->ck.total, c->lang));
	p = gs_doc_para(c->root);
	gs_doc_text(p, TR(m && m->weights == GS_WEIGHTS_GGUF && m->geometry_file &&
			  strcmp(m->geometry_file, m->weight_files.n ? m->weight_files.v[0] : "") == 0
			  ? "train.ck.cross_gguf" : "train.ck.cross"));
	S_cross(c, p, TR(rc->method == GS_METHOD_FULL ? "train.ck.trainable_full"
			 : "train.ck.trainable_lora"), t->trainable, t->trainable_config);
	if (rc->method == GS_METHOD_QLORA)
		S_cross(c, p, TR("train.ck.quantized"), t->quantized, t->quantized_config);
}

/* A GGUF base: why its weights are its parameters at a width, not its
 * bytes (recipe.h gs_recipe_gguf_width), with the width's source. */
static void S_gguf_para(S_ctx *c)
{
	const gs_workload *w = c->in->w;
	const gs_recipe *rc = &w->recipe;
	cmark_node *p;
	char a[GS_FMT_MAX], b[GS_FMT_MAX];

	if (!rc->gguf_width)
		return;
	p = gs_doc_para(c->root);
	if (rc->method == GS_METHOD_QLORA) {
		gs_doc_text(p, TR("train.gguf_qlora"));
		return;
	}
	gs_doc_textf(p, "%s %s x %u B (%s, \"%s\") = %s B, %s", TR("train.gguf_base"),
		     gs_qty_fmt_int(a, w->parameters, c->lang), rc->gguf_width,
		     TR(rc->gguf_width_stated ? "train.gguf_stated" : "train.gguf_default"),
		     w->compute_format ? w->compute_format : "",
		     gs_qty_fmt_int(b, c->in->s->train.items[GS_TI_WEIGHTS].total, c->lang),
		     TR("word.calculated_end"));
}

/* Qwen2.5-VL's vision tower, counted as trained: its part of the
 * trainable parameters (and of QLoRA's NF4 layers), and what a recipe
 * that freezes it would leave out. */
static void S_vision_para(S_ctx *c)
{
	const gs_recipe *rc = &c->in->w->recipe;
	const gs_training *t = &c->in->s->train;
	cmark_node *p;
	char a[GS_FMT_MAX];

	if (!rc->vis_depth)
		return;
	p = gs_doc_para(c->root);
	gs_doc_textf(p, "%s %s %s", TR("train.vision"),
		     gs_qty_fmt_int(a, t->vision_trainable, c->lang),
		     TR(rc->method == GS_METHOD_FULL ? "train.vision_full" : "train.vision_lora"));
	if (rc->method == GS_METHOD_QLORA)
		gs_doc_textf(p, " %s %s %s", TR("train.vision_qlora"),
			     gs_qty_fmt_int(a, t->vision_quantized, c->lang), TR("train.vision_qlora_end"));
	gs_doc_textf(p, " %s", TR("train.vision_freeze"));
}

void gs_sheet_training_sizing(S_ctx *c)
{
	const gs_sizing *s = c->in->s;
	const gs_training *t = &s->train;
	cmark_node *p;
	char g[GS_FMT_MAX], g2[GS_FMT_MAX];

	gs_doc_heading(c->root, 2, TR("sec.sizing"));
	S_recipe_para(c);
	p = gs_doc_para(c->root);
	gs_doc_text(p, TR("train.intro"));
	S_items_table(c);
	S_gguf_para(c);
	S_vision_para(c);
	p = gs_doc_para(c->root);
	gs_doc_text(p, TR(c->in->w->recipe.hybrid ? "train.formulas_hybrid" : "train.formulas"));
	S_ck_table(c);
	S_kinds_table(c);
	if (t->host) {
		p = gs_doc_para(c->root);
		gs_doc_textf(p, "%s %s (%s B). %s", TR("train.host"),
			     gs_qty_fmt_gib(g, t->host, c->lang), gs_qty_fmt_int(g2, t->host, c->lang),
			     TR(c->in->w->has_host_ram ? "train.host_declared" : "train.host_checked"));
	}
	S_phases_table(c);
}

/* The recipe with one change, sized again: its need per card, or 0. */
static uint64_t S_need_with(S_ctx *c, const gs_recipe *rc)
{
	gs_workload w = *c->in->w;
	gs_training t;
	gs_error err = { 0 };
	uint64_t v;
	size_t k;

	w.recipe = *rc;
	if (gs_training_size(&w, c->in->s->train.items[GS_TI_WEIGHTS].total, &t, &err)) {
		gs_error_release(&err);
		return 0;
	}
	/* QLoRA sizes its base from the parameters, the others keep the base as read */
	v = t.per_card;
	if (gs_qty_add_u64(v, c->in->s->reserve.bytes, &v))
		return 0;
	for (k = 0; k < c->in->w->ntraining; k++)
		if (gs_qty_add_u64(v, c->in->w->training[k].bytes, &v))
			return 0;
	return v;
}

/*
 * The lever for the dominant item, one change at a time: checkpointing for
 * the activations, the next sharding stage or offload for the states,
 * QLoRA for the base weights; with the need per card it gives and the
 * offers that would then hold it, calculated.
 */
void gs_sheet_training_lever(S_ctx *c, cmark_node *p)
{
	const gs_sizing *s = c->in->s;
	const gs_training *t = &s->train;
	const gs_decision *d = c->in->d;
	gs_recipe rc = c->in->w->recipe;
	const char *what = NULL;
	size_t k, best = GS_TI_WEIGHTS, n = 0;
	uint64_t need;
	char g[GS_FMT_MAX];

	for (k = 0; k < GS_TI_COUNT; k++)
		if (t->items[k].per_card > t->items[best].per_card)
			best = k;
	if (best == GS_TI_ACTIVATIONS || best == GS_TI_LOGITS) {
		if (rc.checkpointing != GS_CKPT_FULL) {
			rc.checkpointing = GS_CKPT_FULL;
			what = "train.lever.checkpointing";
		} else {
			what = "train.lever.microbatch";
		}
	} else if (best == GS_TI_WEIGHTS) {
		if (rc.method == GS_METHOD_LORA) {
			rc.method = GS_METHOD_QLORA;
			what = rc.gguf_width ? "train.lever.qlora_gguf" : "train.lever.qlora";
		} else if (rc.cards > 1 && rc.sharding < GS_SHARD_ZERO3) {
			rc.sharding = GS_SHARD_ZERO3;
			what = "train.lever.zero3";
		}
	} else if (rc.cards > 1 && rc.sharding < GS_SHARD_ZERO3) {
		rc.sharding = (gs_recipe_shard)(rc.sharding + 1);
		what = "train.lever.stage";
	} else if (rc.offload == GS_OFFLOAD_NONE) {
		if (rc.sharding == GS_SHARD_NONE)
			rc.sharding = GS_SHARD_ZERO2;
		rc.offload = GS_OFFLOAD_OPTIMIZER;
		what = "train.lever.offload";
	}
	gs_doc_textf(p, "%s %s. ", TR(S_item_keys[best]), TR("train.lever.dominates"));
	if (!what) {
		gs_doc_text(p, TR("train.lever.none"));
		return;
	}
	gs_doc_text(p, TR(what));
	need = what && strcmp(what, "train.lever.microbatch") != 0 ? S_need_with(c, &rc) : 0;
	if (!need)
		return;
	for (k = 0; k < d->ncands; k++) {
		const gs_candidate *cd = &d->cands[k];
		if (cd->cls != GS_CLASS_REFERENCE && cd->capacity.present &&
		    cd->capacity.bytes >= need && cd->offer->cards >= rc.cards)
			n++;
	}
	gs_doc_textf(p, " %s %s (%s, %s %s); %s %zu.", TR("train.lever.need"),
		     gs_qty_fmt_gib(g, need, c->lang), gs_recipe_shard_id(rc.sharding),
		     TR("train.checkpointing_word"), gs_recipe_ckpt_id(rc.checkpointing),
		     TR("train.lever.offers"), n);
}

size_t gs_sheet_training_segments(S_ctx *c, gs_chart_segment *segs)
{
	const gs_training *t = &c->in->s->train;
	size_t k, n = 0;

	for (k = 0; k < GS_TI_COUNT; k++) {
		if (t->items[k].per_card == 0)
			continue;
		segs[n].label = TR(S_item_keys[k]);
		segs[n++].value = gs_qty_make(t->items[k].per_card, t->items[k].prov);
	}
	return n;
}
