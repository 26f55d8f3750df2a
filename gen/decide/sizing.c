/* sizing: the arithmetic of the sizing guide, in bytes, exactly. */
#include "sizing.h"
#include "runtime.h"

#include <stdio.h>
#include <string.h>

int gs_sizing_weights_bytes(uint64_t parameters, unsigned bits, uint64_t *out)
{
	unsigned __int128 b;

	if (bits < 1 || bits > 64)
		return -1;
	b = ((unsigned __int128)parameters * bits + 7u) / 8u;
	if (b > UINT64_MAX)
		return -1;
	*out = (uint64_t)b;
	return 0;
}

int gs_sizing_bits_theoretical(unsigned bits)
{
	return bits < 8 || bits % 8 != 0;
}

int gs_sizing_weights_bytes_milli(uint64_t parameters, uint64_t millibits, uint64_t *out, int *rounded)
{
	unsigned __int128 num, b;

	if (millibits < 1000 || millibits > 64000)
		return -1;
	num = (unsigned __int128)parameters * millibits;
	b = (num + 7999u) / 8000u;
	if (b > UINT64_MAX)
		return -1;
	*out = (uint64_t)b;
	if (rounded)
		*rounded = num % 8000u != 0;
	return 0;
}

int gs_sizing_millibits_theoretical(uint64_t millibits)
{
	return millibits % 1000 != 0 || gs_sizing_bits_theoretical((unsigned)(millibits / 1000));
}

uint64_t gs_sizing_kv_tokens_kept(uint64_t tokens, uint64_t window)
{
	return window && window < tokens ? window : tokens;
}

int gs_sizing_kv_row_bytes(const gs_kv_geometry *g, uint64_t *out)
{
	if (g->block_values > 1) {
		/* whole blocks only: llama.cpp refuses a head that is not */
		if (g->head_dim % g->block_values != 0)
			return -1;
		return gs_qty_mul_u64(g->head_dim / g->block_values, g->block_bytes, out);
	}
	return gs_qty_mul_u64(g->head_dim, g->bytes_per_value, out);
}

int gs_sizing_kv_bytes(const gs_kv_geometry *g, uint64_t *out)
{
	uint64_t v = 2, row;

	if (gs_sizing_kv_row_bytes(g, &row))
		return -1;
	if (gs_qty_mul_u64(v, g->layers, &v) || gs_qty_mul_u64(v, g->kv_heads, &v) ||
	    gs_qty_mul_u64(v, row, &v) || gs_qty_mul_u64(v, g->tokens_kept, &v) ||
	    gs_qty_mul_u64(v, g->sequences, &v))
		return -1;
	*out = v;
	return 0;
}

const char *const gs_sizing_cache_engines[] = { "vllm", "transformers", NULL };

/* bytes of n values of b bytes x layers, added to *acc; -1 on overflow */
static int S_acc(uint64_t *acc, uint64_t values, uint64_t b, uint64_t layers)
{
	uint64_t v;

	if (gs_qty_mul_u64(values, b, &v) || gs_qty_mul_u64(v, layers, &v) ||
	    gs_qty_add_u64(*acc, v, acc))
		return -1;
	return 0;
}

static uint64_t S_min(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

int gs_sizing_cache_engine(const gs_kv_group *groups, size_t ngroups, const char *engine,
			   uint64_t bytes_per_value, uint64_t tokens, gs_cache_cost *out)
{
	int vllm;
	size_t i;
	uint64_t kv, kept, t;

	if (!engine)
		return -1;
	vllm = strcmp(engine, "vllm") == 0;
	if (!vllm && strcmp(engine, "transformers") != 0)
		return -1;
	memset(out, 0, sizeof(*out));
	for (i = 0; i < ngroups; i++) {
		const gs_kv_group *g = &groups[i];
		unsigned __int128 v;
		/* values per token per layer of keys and values */
		v = (unsigned __int128)g->kv_heads * ((unsigned __int128)g->head_dim + g->v_head_dim);
		/* MLA decompressed: keys of qk_nope + qk_rope, values of v_head_dim */
		if (g->kind == GS_KV_MLA)
			v = (unsigned __int128)g->kv_heads * ((unsigned __int128)g->qk_nope_head_dim +
							      g->qk_rope_head_dim + g->v_head_dim);
		if (g->kind == GS_KV_MLA && vllm)
			v = (unsigned __int128)g->kv_lora_rank + g->qk_rope_head_dim;
		if (v > UINT64_MAX)
			return -1;
		kv = (uint64_t)v;
		switch (g->kind) {
		case GS_KV_FULL:
		case GS_KV_MLA:
			if (S_acc(&out->per_token, kv, bytes_per_value, g->layers))
				return -1;
			break;
		case GS_KV_SLIDING:
		case GS_KV_CHUNKED:
			kept = g->kind == GS_KV_SLIDING ? g->window : g->chunk;
			/* transformers keeps window - 1 tokens (DynamicSlidingWindowLayer) */
			if (!vllm && kept > 0)
				kept--;
			if (gs_qty_mul_u64(kv, S_min(tokens, kept), &t) ||
			    S_acc(&out->bounded, t, bytes_per_value, g->layers))
				return -1;
			break;
		case GS_KV_STATE:
			kept = vllm && g->conv_kernel > 0 ? g->conv_kernel - 1 : g->conv_kernel;
			if (gs_qty_mul_u64(kept, g->conv_dim, &t) ||
			    S_acc(&out->state, t, g->conv_bytes_per_value, g->layers) ||
			    S_acc(&out->state, g->state_values, g->state_bytes_per_value, g->layers))
				return -1;
			break;
		case GS_KV_NONE:
			break;
		}
	}
	if (gs_qty_mul_u64(out->per_token, tokens, &t) || gs_qty_add_u64(t, out->bounded, &t) ||
	    gs_qty_add_u64(t, out->state, &out->bytes))
		return -1;
	return 0;
}

int gs_sizing_format_table(uint64_t parameters, uint64_t reserve, const unsigned *bits,
		    size_t nbits, gs_format_row *rows)
{
	size_t i;

	for (i = 0; i < nbits; i++) {
		rows[i].bits = bits[i];
		if (gs_sizing_weights_bytes(parameters, bits[i], &rows[i].weights) ||
		    gs_qty_add_u64(rows[i].weights, reserve, &rows[i].envelope))
			return -1;
		rows[i].theoretical = gs_sizing_bits_theoretical(bits[i]);
	}
	return 0;
}

static int S_sum_items(const gs_item *items, size_t n, uint64_t *out)
{
	uint64_t sum = 0;
	size_t i;

	for (i = 0; i < n; i++)
		if (gs_qty_add_u64(sum, items[i].bytes, &sum))
			return -1;
	*out = sum;
	return 0;
}

static int S_fail(gs_error *err, const char *what)
{
	gs_error_set(err, "%s does not fit in 64 bits", what);
	return -1;
}

/*
 * The cache of a workload with a layout: as engine keeps it, or (engine
 * NULL, no runtime declared) as the larger of the engines keeps it, the
 * other figure kept beside it. -1 on overflow.
 */
static int S_kv_layout(const gs_workload *w, const char *engine, gs_sizing *s)
{
	int f1, f2, fs, fb;
	uint64_t in = gs_workload_dim(w, "input_tokens", &f1);
	uint64_t outt = gs_workload_dim(w, "output_tokens", &f2);
	uint64_t seq = gs_workload_dim(w, "sequences", &fs);
	uint64_t batch = gs_workload_dim(w, "batch", &fb);
	uint64_t tokens, v;
	gs_cache_cost c[2];
	const char *names[2];
	int take;

	if (gs_qty_add_u64(in, outt, &tokens))
		return -1;
	if (w->cache == GS_CACHE_STATIC && w->has_cache_max_tokens)
		tokens = w->cache_max_tokens;
	if (tokens == 0 || !(f1 || f2 || w->cache == GS_CACHE_STATIC))
		return 0;
	/* the engines of a layout keep no block type (the reader refuses it) */
	if (w->cache_block_values > 1)
		return -1;
	/* vLLM keeps every sequence's cache in whole blocks */
	if (engine && strcmp(engine, "vllm") == 0) {
		gs_runtime_settings rs;
		if (gs_runtime_settings_of(w, &rs) == 0)
			tokens = gs_runtime_round_blocks(tokens, rs.block_size);
	}
	names[0] = engine ? engine : gs_sizing_cache_engines[0];
	names[1] = engine ? NULL : gs_sizing_cache_engines[1];
	if (gs_sizing_cache_engine(w->cache_layout, w->ncache_layout, names[0],
				   w->cache_bytes_per_value, tokens, &c[0]))
		return -1;
	take = 0;
	if (names[1]) {
		if (gs_sizing_cache_engine(w->cache_layout, w->ncache_layout, names[1],
					   w->cache_bytes_per_value, tokens, &c[1]))
			return -1;
		/* the larger is counted; at a tie, the first named */
		take = c[1].bytes > c[0].bytes;
	}
	s->kv_sequences = fs ? seq : fb ? batch : 1;
	s->kv_tokens_kept = tokens;
	s->kv_engine = names[take];
	s->kv_engine_declared = engine != NULL;
	s->kv_cost = c[take];
	s->kv_per_sequence = gs_qty_make(c[take].bytes, GS_PROV_CALCULATED);
	/* the bytes a token adds on the layers that keep every token (a
	 * window's or a state's bytes do not grow with the context) */
	s->kv_per_token = c[take].per_token;
	if (gs_qty_mul_u64(c[take].bytes, s->kv_sequences, &v))
		return -1;
	s->kv = gs_qty_make(v, GS_PROV_CALCULATED);
	if (names[1]) {
		s->kv_other_engine = names[!take];
		s->kv_other_cost = c[!take];
		if (gs_qty_mul_u64(c[!take].bytes, s->kv_sequences, &v))
			return -1;
		s->kv_other = gs_qty_make(v, GS_PROV_CALCULATED);
		s->kv_other_tokens = tokens;
	}
	return 0;
}

int gs_sizing_kv_with_dtype(const gs_workload *w, const gs_sizing *s, const gs_kvdtype *t,
			    uint64_t *out)
{
	gs_kv_geometry g = { 0 };
	gs_cache_cost c;
	int block = gs_kvdtype_is_block(t);

	if (!t || !s->kv.present || !s->kv_sequences)
		return -1;
	if (w->ncache_layout) {
		/* vLLM and transformers keep no llama.cpp block type */
		if (block || !s->kv_engine ||
		    gs_sizing_cache_engine(w->cache_layout, w->ncache_layout, s->kv_engine,
					   t->block_bytes, s->kv_tokens_kept, &c))
			return -1;
		return gs_qty_mul_u64(c.bytes, s->kv_sequences, out);
	}
	if (!w->has_kv_geometry || (block && w->runtime.engine == GS_ENGINE_VLLM))
		return -1;
	g.layers = w->layers;
	g.kv_heads = w->kv_heads;
	g.head_dim = w->head_dim;
	g.tokens_kept = s->kv_tokens_kept;
	g.bytes_per_value = block ? 0 : t->block_bytes;
	g.block_values = t->block_values;
	g.block_bytes = t->block_bytes;
	g.sequences = s->kv_sequences;
	return gs_sizing_kv_bytes(&g, out);
}

int gs_sizing_kv_splits(const gs_workload *w, const gs_sizing *s, uint64_t n)
{
	size_t i;

	if (n == 0 || !w->kv_heads || w->kv_heads % n != 0)
		return 0;
	if (s->kv_engine && strcmp(s->kv_engine, "vllm") == 0)
		for (i = 0; i < w->ncache_layout; i++)
			if (w->cache_layout[i].kind == GS_KV_MLA)
				return 0;
	return 1;
}

/*
 * A training recipe: its items per card (training.h); the weights become
 * the base as held (QLoRA's NF4), the training the other items per card
 * and the declared components, the need the weights per card + the
 * reserve + the training. No KV cache.
 */
static int S_recipe(const gs_workload *w, gs_sizing *s, gs_error *err)
{
	gs_training *t = &s->train;
	uint64_t v, decl;
	size_t k;

	if (gs_training_size(w, s->weights.bytes, t, err))
		return -1;
	s->has_train = 1;
	s->weights.bytes = t->items[GS_TI_WEIGHTS].total;
	if (gs_qty_add(s->weights, s->reserve, &s->envelope))
		return S_fail(err, "the envelope");
	if (S_sum_items(w->training, w->ntraining, &decl))
		return S_fail(err, "the training components");
	v = decl;
	for (k = GS_TI_WEIGHTS + 1; k < GS_TI_COUNT; k++)
		if (gs_qty_add_u64(v, t->items[k].per_card, &v))
			return S_fail(err, "the training items");
	s->training = gs_qty_make(v, t->prov);
	if (w->ntraining)
		s->training.prov = gs_qty_prov_weakest(s->training.prov, GS_PROV_ASSUMED);
	s->need = gs_qty_make(t->items[GS_TI_WEIGHTS].per_card, t->items[GS_TI_WEIGHTS].prov);
	if (gs_qty_add(s->need, s->reserve, &s->need) || gs_qty_add(s->need, s->training, &s->need))
		return S_fail(err, "the calculated need");
	return 0;
}

int gs_sizing_workload(const gs_workload *w, gs_sizing *s, gs_error *err)
{
	static const unsigned defaults[] = { 16, 8, 4 };
	unsigned bits[GS_MAX_FORMATS];
	size_t nbits = 0, i;
	uint64_t v;

	memset(s, 0, sizeof(*s));
	if (w->has_weights_bytes) {
		/* exact bytes of the checkpoint's declared shapes: real, not
		 * theoretical; or its geometry in another format (weights.format),
		 * theoretical until a checkpoint in that format is read */
		s->weights = gs_qty_make(w->weights_bytes, GS_PROV_CALCULATED);
		s->theoretical = w->weights_format != 0;
	} else {
		if (gs_sizing_weights_bytes_milli(w->parameters, gs_workload_millibits(w), &v, &s->rounded))
			return S_fail(err, "weights (parameters x bits / 8)");
		s->weights = gs_qty_make(v, GS_PROV_CALCULATED);
		s->theoretical = gs_sizing_millibits_theoretical(gs_workload_millibits(w));
	}

	if (S_sum_items(w->reserve, w->nreserve, &v))
		return S_fail(err, "the reserve");
	s->reserve = gs_qty_make(v, w->nreserve ? GS_PROV_ASSUMED : GS_PROV_CALCULATED);
	if (gs_qty_add(s->weights, s->reserve, &s->envelope))
		return S_fail(err, "the envelope");

	s->kv = gs_qty_missing();
	s->kv_per_sequence = gs_qty_missing();
	s->kv_other = gs_qty_missing();
	if (w->task != GS_TASK_INFERENCE && w->recipe.present) {
		if (S_recipe(w, s, err))
			return -1;
	} else if (w->cache != GS_CACHE_NONE && w->ncache_layout) {
		if (S_kv_layout(w, w->runtime.engine == GS_ENGINE_VLLM ? "vllm" : NULL, s))
			return S_fail(err, "the KV cache");
	} else if (w->cache != GS_CACHE_NONE && w->has_kv_geometry) {
		gs_kv_geometry g = { 0 };
		int f1, f2, fs;
		uint64_t in = gs_workload_dim(w, "input_tokens", &f1);
		uint64_t outt = gs_workload_dim(w, "output_tokens", &f2);
		int fb;
		uint64_t seq = gs_workload_dim(w, "sequences", &fs);
		uint64_t batch = gs_workload_dim(w, "batch", &fb);
		uint64_t tokens;

		if (gs_qty_add_u64(in, outt, &tokens))
			return S_fail(err, "the token count");
		if (w->cache == GS_CACHE_STATIC && w->has_cache_max_tokens)
			tokens = w->cache_max_tokens;
		else if (w->cache == GS_CACHE_SLIDING && w->has_sliding_window)
			tokens = gs_sizing_kv_tokens_kept(tokens, w->sliding_window);
		/* vLLM keeps every sequence's cache in whole blocks */
		if (w->runtime.engine == GS_ENGINE_VLLM && tokens > 0) {
			gs_runtime_settings rs;
			if (gs_runtime_settings_of(w, &rs) == 0)
				tokens = gs_runtime_round_blocks(tokens, rs.block_size);
		}
		g.layers = w->layers;
		g.kv_heads = w->kv_heads;
		g.head_dim = w->head_dim;
		g.tokens_kept = tokens;
		g.bytes_per_value = w->cache_bytes_per_value;
		g.block_values = w->cache_block_values;
		g.block_bytes = w->cache_block_bytes;
		g.sequences = 1;
		if (tokens > 0 && (f1 || f2 || w->cache == GS_CACHE_STATIC)) {
			if (gs_sizing_kv_bytes(&g, &v))
				return S_fail(err, "the KV cache");
			s->kv_per_sequence = gs_qty_make(v, GS_PROV_CALCULATED);
			g.tokens_kept = 1;
			if (gs_sizing_kv_bytes(&g, &s->kv_per_token))
				return S_fail(err, "the KV cache");
			g.tokens_kept = tokens;
			/* Every sequence whose cache is kept at once: `sequences`,
			 * else the batch processed together, else one
			 * (docs/formats.md; the reader refuses sequences < batch). */
			s->kv_sequences = fs ? seq : fb ? batch : 1;
			if (gs_qty_mul_u64(v, s->kv_sequences, &v))
				return S_fail(err, "the KV cache");
			s->kv = gs_qty_make(v, GS_PROV_CALCULATED);
			s->kv_tokens_kept = tokens;
		}
		/* the other figure, when a window could bound the cache */
		if (s->kv.present && w->has_sliding_window &&
		    (w->cache == GS_CACHE_SLIDING || w->cache == GS_CACHE_DENSE)) {
			uint64_t all, other, ov;
			if (gs_qty_add_u64(in, outt, &all))
				return S_fail(err, "the token count");
			other = w->cache == GS_CACHE_SLIDING ? all
							       : gs_sizing_kv_tokens_kept(all, w->sliding_window);
			if (other != tokens) {
				g.tokens_kept = other;
				if (gs_sizing_kv_bytes(&g, &ov) || gs_qty_mul_u64(ov, s->kv_sequences, &ov))
					return S_fail(err, "the KV cache");
				s->kv_other = gs_qty_make(ov, GS_PROV_CALCULATED);
				s->kv_other_tokens = other;
				s->kv_other_windowed = w->cache == GS_CACHE_DENSE;
			}
		}
	}

	if (s->has_train)
		goto formats;
	s->training = gs_qty_missing();
	if (w->task != GS_TASK_INFERENCE) {
		if (S_sum_items(w->training, w->ntraining, &v))
			return S_fail(err, "the training components");
		s->training = gs_qty_make(v, GS_PROV_ASSUMED);
	}

	s->need = s->envelope;
	if (s->kv.present) {
		if (gs_qty_add_u64(s->need.bytes, s->kv.bytes, &s->need.bytes))
			return S_fail(err, "the calculated need");
	}
	if (s->training.present) {
		if (gs_qty_add_u64(s->need.bytes, s->training.bytes, &s->need.bytes))
			return S_fail(err, "the calculated need");
		s->need.prov = gs_qty_prov_weakest(s->need.prov, s->training.prov);
	}

formats:
	/* Format table: 16, 8, 4 bits, plus the workload's own if it differs. */
	for (i = 0; i < sizeof(defaults) / sizeof(defaults[0]); i++)
		bits[nbits++] = defaults[i];
	/* a fractional width shows in the weights line, not as a row of whole widths */
	if (gs_workload_millibits(w) % 1000 == 0 && w->storage_bits != 16 && w->storage_bits != 8 &&
	    w->storage_bits != 4) {
		/* Keep the table in decreasing bits: insert the workload's own. */
		for (i = nbits; i > 0 && bits[i - 1] < w->storage_bits; i--)
			bits[i] = bits[i - 1];
		bits[i] = w->storage_bits;
		nbits++;
	}
	if (gs_sizing_format_table(w->parameters, s->reserve.bytes, bits, nbits, s->formats))
		return S_fail(err, "the format table");
	s->nformats = nbits;
	return 0;
}
