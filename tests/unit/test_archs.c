/*
 * test_archs: the architecture table (gen/read/model_arch.c) and the cache
 * as each runtime keeps it (sizing.h gs_sizing_cache_engine), against the
 * figures worked out by hand in tests/data/models/README.md for the real
 * config.json of each architecture, and against two small configs written
 * here (Llama 4 and GLM-4.5, of which no real config is committed), whose
 * every term is worked out in the comments.
 */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "model.h"
#include "sizing.h"

typedef struct {
	const char *folder;          /* under tests/data/models/ */
	const char *model_type;
	uint64_t params;             /* the geometry's count */
	uint64_t active;             /* 0: not a mixture of experts */
	uint64_t vision;             /* 0: no vision tower counted */
	uint64_t bpv;                /* bytes per cache value (the model's dtype) */
	/* vllm, then transformers: per token, state, one sequence at 32,768 tokens
	 * and at max_position_embeddings */
	uint64_t cache[2][4];
	uint64_t context;
} S_case;

static const S_case S_cases[] = {
	{ "deepseek-r1", "deepseek_v3", 671026419200, 37552297472, 0, 2,
	  { { 70272, 0, 2302672896, 11513364480 }, { 4997120, 0, 163745628160, 818728140800 } },
	  163840 },
	{ "gpt-oss-20b", "gpt_oss", 20914757184, 4187440704, 0, 2,
	  { { 24576, 0, 808452096, 3224371200 }, { 24576, 0, 808427520, 3224346624 } }, 131072 },
	{ "medgemma-27b-it", "gemma3", 27432406640, 0, 423060336, 2,
	  { { 81920, 0, 3120562176, 11173625856 }, { 81920, 0, 3120136192, 11173199872 } },
	  131072 },
	{ "nemotron-3-nano-30b-a3b", "nemotron_h", 31577940288, 3580076352, 0, 2,
	  { { 6144, 49082368, 250408960, 1659695104 }, { 6144, 49364992, 250691584, 1659977728 } },
	  262144 },
	{ "phi-4", "phi3", 14659507200, 0, 0, 2,
	  { { 204800, 0, 6710886400, 3355443200 }, { 204800, 0, 6710886400, 3355443200 } }, 16384 },
	{ "qwen2.5-vl-7b-instruct", "qwen2_5_vl", 8292166656, 0, 676550144, 2,
	  { { 57344, 0, 1879048192, 7340032000 }, { 57344, 0, 1879048192, 7340032000 } }, 128000 },
	{ "qwen3-30b-a3b", "qwen3_moe", 30532122624, 3353032704, 0, 2,
	  { { 98304, 0, 3221225472, 4026531840 }, { 98304, 0, 3221225472, 4026531840 } }, 40960 },
	{ "qwen3-8b", "qwen3", 8190735360, 0, 0, 2,
	  { { 147456, 0, 4831838208, 6039797760 }, { 147456, 0, 4831838208, 6039797760 } }, 40960 },
	{ "qwen3-next-80b-a3b-thinking", "qwen3_next", 79674391296, 3874929408, 0, 2,
	  { { 24576, 39518208, 844824576, 6481969152 }, { 24576, 40108032, 845414400, 6482558976 } },
	  262144 },
};

static void S_check_cache(const gs_model *m, uint64_t bpv, const uint64_t want[2][4],
			  uint64_t context)
{
	static const char *const engines[] = { "vllm", "transformers" };
	gs_cache_cost c;
	int e;

	for (e = 0; e < 2; e++) {
		if (!CHECK(gs_sizing_cache_engine(m->layout, m->nlayout, engines[e], bpv, 1, &c) == 0))
			continue;
		CHECK_U64(c.per_token, want[e][0]);
		CHECK_U64(c.state, want[e][1]);
		if (CHECK(gs_sizing_cache_engine(m->layout, m->nlayout, engines[e], bpv, 32768,
						 &c) == 0))
			CHECK_U64(c.bytes, want[e][2]);
		if (CHECK(gs_sizing_cache_engine(m->layout, m->nlayout, engines[e], bpv, context,
						 &c) == 0))
			CHECK_U64(c.bytes, want[e][3]);
	}
}

static void S_test_real(void)
{
	size_t i;

	for (i = 0; i < sizeof(S_cases) / sizeof(S_cases[0]); i++) {
		const S_case *k = &S_cases[i];
		char *p = gs_xasprintf("%s/tests/data/models/%s", GS_TEST_SOURCE_DIR, k->folder);
		gs_model m;
		gs_diag d = GS_DIAG_INIT;

		if (!CHECK(gs_model_read(p, &m, &d) == 0)) {
			gs_diag_print(&d, stderr);
			gs_diag_release(&d);
			free(p);
			continue;
		}
		CHECK_STR(m.model_type, k->model_type);
		CHECK(m.arch != GS_ARCH_UNKNOWN);
		CHECK_INT(m.missing_keys.n, 0);
		CHECK_INT(m.has_config_params, 1);
		CHECK_U64(m.config_params, k->params);
		CHECK_INT(m.has_active_params, k->active != 0);
		if (k->active)
			CHECK_U64(m.active_params, k->active);
		CHECK_INT(m.has_vision == 1, k->vision != 0);
		CHECK_U64(m.vision_params, k->vision);
		CHECK_U64(m.context, k->context);
		S_check_cache(&m, k->bpv, k->cache, k->context);
		gs_model_release(&m);
		gs_diag_release(&d);
		free(p);
	}
}

/* The published counts the index states: Phi-4 and Qwen2.5-VL are bf16
 * checkpoints, total_size / 2 = the geometry's count. */
static void S_test_index_agrees(void)
{
	static const struct {
		const char *folder;
		uint64_t total_size;
	} idx[] = { { "phi-4", 29319014400 }, { "qwen2.5-vl-7b-instruct", 16584333312 },
		    { "medgemma-27b-it", 54864813280 } };
	size_t i;

	for (i = 0; i < sizeof(idx) / sizeof(idx[0]); i++) {
		char *p = gs_xasprintf("%s/tests/data/models/%s", GS_TEST_SOURCE_DIR, idx[i].folder);
		gs_model m;
		gs_diag d = GS_DIAG_INIT;
		if (CHECK(gs_model_read(p, &m, &d) == 0)) {
			CHECK_INT(m.weights, GS_WEIGHTS_INDEX);
			CHECK_U64(m.weight_bytes, idx[i].total_size);
			CHECK_U64(m.config_params * 2, idx[i].total_size);
			gs_model_release(&m);
		}
		gs_diag_release(&d);
		free(p);
	}
}

static char *S_write(const char *dir, const char *name, const char *text)
{
	char *sub = gs_xasprintf("%s/%s", dir, name), *p;
	FILE *f;

	mkdir(sub, 0700);
	p = gs_xasprintf("%s/config.json", sub);
	f = fopen(p, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
	free(p);
	return sub;
}

/*
 * Llama 4, text model: hidden 8, 4 layers, 2 heads of 4, 1 KV head, vocab
 * 16, experts of 6 (3 routed, 1 per token, one shared), dense MLP of 10,
 * MoE every 2nd layer (layers 1, 3), chunks of 32 on layers 0-2 (layer 3,
 * every fourth, attends globally).
 *   attention per layer: q 8x8 + k, v 2 x 8x4 + o 8x8 = 192; norms 2 x 8
 *   dense layers 0, 2: 3 x 8 x 10 = 240
 *   MoE layers 1, 3: experts 3 x 3x8x6 = 432, router 8x3 = 24, shared
 *     3x8x6 = 144: 600
 *   embed 16x8 = 128, final norm 8, lm_head 128 (not tied)
 *   total 128 + 8 + 4 x 208 + 2 x 240 + 2 x 600 + 128 = 2,776
 *   active: 2 MoE layers x 2 idle experts x 144 = 576 fewer: 2,200
 * Cache at 100 tokens, 2 B: the full layer 1 x (4 + 4) x 2 = 16 B per
 * token: 1,600; the chunked layers 3 x 16 x min(100, 32) = 1,536 (vLLM),
 * 3 x 16 x min(100, 31) = 1,488 (transformers): 3,136 and 3,088.
 */
static void S_test_llama4(const char *dir)
{
	char *p = S_write(dir, "llama4", "{\"model_type\": \"llama4\", \"architectures\": "
		"[\"Llama4ForConditionalGeneration\"], \"vision_config\": {\"hidden_size\": 4}, "
		"\"text_config\": {\"hidden_size\": 8, \"num_hidden_layers\": 4, "
		"\"num_attention_heads\": 2, \"num_key_value_heads\": 1, \"head_dim\": 4, "
		"\"intermediate_size\": 6, \"intermediate_size_mlp\": 10, \"vocab_size\": 16, "
		"\"num_local_experts\": 3, \"num_experts_per_tok\": 1, "
		"\"interleave_moe_layer_step\": 2, \"attention_chunk_size\": 32, "
		"\"max_position_embeddings\": 128, \"torch_dtype\": \"bfloat16\"}}");
	gs_model m;
	gs_diag d = GS_DIAG_INIT;
	gs_cache_cost c;

	if (CHECK(gs_model_read(p, &m, &d) == 0)) {
		CHECK_INT(m.arch, GS_ARCH_LLAMA4);
		CHECK_U64(m.config_params, 2776);
		CHECK_U64(m.active_params, 2200);
		CHECK_U64(m.moe_layers, 2);
		CHECK_INT(m.has_vision, 2);        /* present, not counted: said */
		CHECK(m.params_note != NULL);
		if (CHECK_INT(m.nlayout, 2)) {
			CHECK_INT(m.layout[0].kind, GS_KV_FULL);
			CHECK_U64(m.layout[0].layers, 1);
			CHECK_INT(m.layout[1].kind, GS_KV_CHUNKED);
			CHECK_U64(m.layout[1].layers, 3);
			CHECK_U64(m.layout[1].chunk, 32);
		}
		if (CHECK(gs_sizing_cache_engine(m.layout, m.nlayout, "vllm", 2, 100, &c) == 0))
			CHECK_U64(c.bytes, 3136);
		if (CHECK(gs_sizing_cache_engine(m.layout, m.nlayout, "transformers", 2, 100, &c) == 0))
			CHECK_U64(c.bytes, 3088);
		gs_model_release(&m);
	}
	gs_diag_print(&d, stderr);
	gs_diag_release(&d);
	free(p);
}

/*
 * GLM-4.5 shape: hidden 8, 3 layers, 2 heads of 4, 1 KV head, vocab 16,
 * dense MLP 10 on the first layer (first_k_dense_replace 1), then 4 routed
 * experts of 6 (2 per token) and one shared; q, k, v biases
 * (attention_bias, none on o), q and k norms (use_qk_norm).
 *   attention 192 + biases 8 + 4 + 4 + norms 2 x 4 = 216; norms 16
 *   dense: 240; MoE: 4 x 144 + router 32 + correction bias 4 + shared 144 = 756
 *   total 128 + 8 + 3 x 232 + 240 + 2 x 756 + 128 = 2,712
 *   active: 2 x 2 x 144 = 576 fewer: 2,136
 *   the MTP layer, not counted: 216 + 756 + 16 + 2 x 8 x 8 + 8 + 16 = 1,140
 */
static void S_test_glm4_moe(const char *dir)
{
	char *p = S_write(dir, "glm4moe", "{\"model_type\": \"glm4_moe\", \"hidden_size\": 8, "
		"\"num_hidden_layers\": 3, \"num_attention_heads\": 2, \"num_key_value_heads\": 1, "
		"\"head_dim\": 4, \"intermediate_size\": 10, \"moe_intermediate_size\": 6, "
		"\"n_routed_experts\": 4, \"n_shared_experts\": 1, \"num_experts_per_tok\": 2, "
		"\"first_k_dense_replace\": 1, \"vocab_size\": 16, \"attention_bias\": true, "
		"\"use_qk_norm\": true, \"num_nextn_predict_layers\": 1, "
		"\"tie_word_embeddings\": false, \"max_position_embeddings\": 64}");
	gs_model m;
	gs_diag d = GS_DIAG_INIT;

	if (CHECK(gs_model_read(p, &m, &d) == 0)) {
		CHECK_INT(m.arch, GS_ARCH_GLM4_MOE);
		CHECK_U64(m.config_params, 2712);
		CHECK_U64(m.active_params, 2136);
		CHECK_U64(m.params_note_value, 1140);
		CHECK_U64(m.experts_shared, 1);
		CHECK_INT(m.nlayout, 1);
		gs_model_release(&m);
	}
	gs_diag_print(&d, stderr);
	gs_diag_release(&d);
	free(p);
}

/* A key the formula needs and the file lacks: named, and no count. */
static void S_test_missing_key(const char *dir)
{
	char *p = S_write(dir, "nokey", "{\"model_type\": \"qwen3_moe\", \"hidden_size\": 8, "
		"\"num_hidden_layers\": 2, \"num_attention_heads\": 2, \"num_key_value_heads\": 1, "
		"\"head_dim\": 4, \"intermediate_size\": 10, \"num_experts\": 4, "
		"\"num_experts_per_tok\": 2, \"vocab_size\": 16, \"max_position_embeddings\": 64}");
	gs_model m;
	gs_diag d = GS_DIAG_INIT;
	size_t i;
	int named = 0;

	if (CHECK(gs_model_read(p, &m, &d) == 0)) {
		CHECK_INT(m.has_config_params, 0);
		for (i = 0; i < m.missing_keys.n; i++)
			named |= strcmp(m.missing_keys.v[i], "moe_intermediate_size") == 0;
		CHECK(named);
		gs_model_release(&m);
	}
	gs_diag_release(&d);
	free(p);
}

/* The engine function's edges: an unknown engine, a product beyond 64 bits. */
static void S_test_engine_edges(void)
{
	gs_kv_group g;
	gs_cache_cost c;

	memset(&g, 0, sizeof(g));
	g.kind = GS_KV_FULL;
	g.layers = 2;
	g.kv_heads = 3;
	g.head_dim = g.v_head_dim = 5;
	/* 2 layers x 3 heads x (5 + 5) x 2 B = 120 B per token */
	CHECK(gs_sizing_cache_engine(&g, 1, "vllm", 2, 7, &c) == 0);
	CHECK_U64(c.per_token, 120);
	CHECK_U64(c.bytes, 840);
	CHECK(gs_sizing_cache_engine(&g, 1, "sglang", 2, 7, &c) == -1);
	CHECK(gs_sizing_cache_engine(&g, 1, NULL, 2, 7, &c) == -1);
	g.kv_heads = UINT64_C(1) << 40;
	CHECK(gs_sizing_cache_engine(&g, 1, "vllm", 2, UINT64_C(1) << 30, &c) == -1);
}

/* MLA under tensor parallelism: vLLM's latent is replicated, never split. */
static void S_test_mla_tp(void)
{
	gs_workload w;
	gs_sizing s;
	gs_kv_group g;

	memset(&w, 0, sizeof(w));
	memset(&s, 0, sizeof(s));
	memset(&g, 0, sizeof(g));
	g.kind = GS_KV_MLA;
	g.layers = 61;
	w.kv_heads = 128;
	w.cache_layout = &g;
	w.ncache_layout = 1;
	s.kv_engine = "vllm";
	CHECK_INT(gs_sizing_kv_splits(&w, &s, 8), 0);
	s.kv_engine = "transformers";
	CHECK_INT(gs_sizing_kv_splits(&w, &s, 8), 1);
	CHECK_INT(gs_sizing_kv_splits(&w, &s, 3), 0);   /* 128 heads do not divide by 3 */
	g.kind = GS_KV_FULL;
	s.kv_engine = "vllm";
	CHECK_INT(gs_sizing_kv_splits(&w, &s, 8), 1);
}

int main(void)
{
	char tmpl[] = "/tmp/gs-test-archs-XXXXXX";
	char *tmp = mkdtemp(tmpl), *cmd;

	if (!tmp) {
		perror("mkdtemp");
		return 2;
	}
	S_test_real();
	S_test_index_agrees();
	S_test_llama4(tmp);
	S_test_glm4_moe(tmp);
	S_test_missing_key(tmp);
	S_test_engine_edges();
	S_test_mla_tp();
	cmd = gs_xasprintf("rm -rf '%s'", tmp);
	if (system(cmd) != 0)
		fprintf(stderr, "test_archs: cannot remove %s\n", tmp);
	free(cmd);
	return gs_check_exit("test_archs");
}
