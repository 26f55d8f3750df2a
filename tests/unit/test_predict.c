/*
 * Unit tests of the prediction beside a log (gen/decide/predict.h), worked
 * by hand. The workload is tests/data/models/workload-vllm-mistral-8k.json
 * (what `init --engine vllm` writes for Mistral-7B-v0.1): weights
 * 14,483,464,192 B (the index's total_size), KV 32 layers x 8 heads x 128 x
 * 2 (K, V) x 2 B = 131,072 B a token, the reserve the terms of vLLM 0.21
 * (the newest the table knows: the workload names no version;
 * gen/decide/runtime.c): activation 2,048 x (3 x 14,336 + 3 x 4,096) x 2 B
 * = 226,492,416, logits 2,048 x 32,000 x 4 B = 262,144,000, non-torch
 * 0.13 GiB = 139,586,437.12 -> 139,586,437 B, CUDA graphs 0.52 GiB =
 * 558,345,748.48 -> 558,345,748 B, together 1,186,568,601 B. The
 * log is a fixture in vLLM 0.7's sentence
 * form (its wording, these figures chosen for the arithmetic, not a run):
 *
 *   total 23.58 GiB = 25,318,832,209.92 -> 25,318,832,210 B
 *   budget = floor(25,318,832,210 x 900 / 1000) = 22,786,948,989
 *   pool   = 22,786,948,989 - 14,483,464,192 - 1,186,568,601 = 7,116,916,196
 *            / (131,072 x 16 = 2,097,152 a block) = 3,393 blocks
 *            = 7,115,636,736 B, 54,288 tokens
 *   observed: weights 13.50 GiB = 14,495,514,624; pool 6.32 GiB =
 *   6,786,048,327.68 -> 6,786,048,328; 3,235 blocks = 51,760 tokens;
 *   other terms = 22,786,948,989 - 14,495,514,624 - 6,786,048,328
 *               = 1,505,386,037
 *   differences: weights -12,050,432 / 14,495,514,624 = -0.083 % -> -0.1 %;
 *   other -318,817,436 / 1,505,386,037 = -21.18 % -> -21.2 %;
 *   pool +329,588,408 / 6,786,048,328 = +4.857 % -> +4.9 %;
 *   tokens +2,528 / 51,760 = +4.884 % -> +4.9 %.
 *   concurrency: the log prints none; L is the workload's 7,936 + 256 =
 *   8,192 tokens: 54,288 / 8,192 = 6.6270 -> 6.63x. With the line
 *   "Maximum concurrency for 8,192 tokens per request: 6.32x" added, L is
 *   the log's, observed 6.32x: +31 / 632 = +4.905 % -> +4.9 %.
 */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "logimport.h"
#include "predict.h"

static const char S_conc[] =
	"Maximum concurrency for 8,192 tokens per request: 6.32x\n";

static const char S_log[] =
	"INFO 01-16 09:40:00 worker.py:238] the current vLLM instance can use total_gpu_memory "
	"(23.58GiB) x gpu_memory_utilization (0.90) = 21.22GiB\n"
	"INFO 01-16 09:40:00 worker.py:238] model weights take 13.50GiB; non_torch_memory takes "
	"0.17GiB; PyTorch activation peak memory takes 1.23GiB; the rest of the memory reserved "
	"for KV Cache is 6.32GiB.\n"
	"INFO 01-16 09:40:00 executor_base.py:95] # CUDA blocks: 3235, # CPU blocks: 2048\n";

int main(void)
{
	gs_workload w;
	gs_sizing s;
	gs_logimport li;
	gs_logimport_opts o = { 0 };
	gs_prediction p;
	gs_diag d = GS_DIAG_INIT;
	gs_error err = GS_ERROR_INIT;
	const char *why = NULL;

	CHECK_INT(gs_predict_diff_tenths(1000, 1000), 0);
	CHECK_INT(gs_predict_diff_tenths(10005, 10000), 1);    /* 0.05 %: half away from zero */
	CHECK_INT(gs_predict_diff_tenths(9995, 10000), -1);
	CHECK_INT(gs_predict_diff_tenths(0, 10), -1000);

	if (!CHECK(gs_workload_read(GS_TEST_SOURCE_DIR "/tests/data/models/workload-vllm-mistral-8k.json",
				    &w, &d) == 0)) {
		gs_diag_print(&d, stderr);
		return gs_check_exit("test_predict");
	}
	CHECK(gs_sizing_workload(&w, &s, &err) == 0);
	if (CHECK(gs_logimport_parse(GS_LOG_VLLM, "t.log", S_log, strlen(S_log), &o, &li, &d) == 0)) {
		if (CHECK(gs_predict_vllm(&w, &s, &li, &p, &why) == 0)) {
			CHECK_INT(p.total, 25318832210ll);
			CHECK_STR(p.total_from, "observed");
			CHECK_INT(p.util_permille, 900);
			CHECK_STR(p.util_from, "the log");
			CHECK_STR(p.block_from, "default of vLLM");
			CHECK_INT(p.budget, 22786948989ll);
			CHECK_INT(p.t[GS_PT_WEIGHTS].pred, 14483464192ll);
			CHECK_INT(p.t[GS_PT_WEIGHTS].obs, 14495514624ll);
			CHECK_INT(p.t[GS_PT_WEIGHTS].diff_tenths, -1);
			CHECK_INT(p.t[GS_PT_OTHER].pred, 1186568601ll);
			CHECK_INT(p.t[GS_PT_OTHER].obs, 1505386037ll);
			CHECK_INT(p.t[GS_PT_OTHER].diff_tenths, -212);
			CHECK_STR(p.t[GS_PT_OTHER].basis, "calculated and assumed");
			CHECK_INT(p.t[GS_PT_POOL].pred, 7115636736ll);
			CHECK_INT(p.t[GS_PT_POOL].obs, 6786048328ll);
			CHECK_INT(p.t[GS_PT_POOL].diff_tenths, 49);
			CHECK_INT(p.t[GS_PT_TOKENS].pred, 54288);
			CHECK_INT(p.t[GS_PT_TOKENS].obs, 51760);
			CHECK_STR(p.t[GS_PT_TOKENS].obs_how, "blocks x block size");
			CHECK_INT(p.t[GS_PT_TOKENS].diff_tenths, 49);
			CHECK(p.has_conc && !p.has_conc_obs);
			CHECK_INT(p.conc_len, 8192);
			CHECK_STR(p.conc_len_from, "the workload");
			CHECK_INT(p.conc_pred, 663);
		} else {
			fprintf(stderr, "  %s\n", why);
		}
		gs_logimport_release(&li);
	}
	/* the same start with vLLM's concurrency line */
	{
		char both[sizeof(S_log) + sizeof(S_conc)];
		snprintf(both, sizeof(both), "%s%s", S_log, S_conc);
		if (CHECK(gs_logimport_parse(GS_LOG_VLLM, "t.log", both, strlen(both), &o, &li, &d) == 0)) {
			if (CHECK(gs_predict_vllm(&w, &s, &li, &p, &why) == 0)) {
				CHECK(p.has_conc && p.has_conc_obs && p.has_conc_diff);
				CHECK_STR(p.conc_len_from, "the log");
				CHECK_INT(p.conc_len, 8192);
				CHECK_INT(p.conc_pred, 663);
				CHECK_INT(p.conc_obs, 632);
				CHECK_INT(p.conc_obs_line, 4);
				CHECK_INT(p.conc_diff_tenths, 49);
			}
			gs_logimport_release(&li);
		}
	}
	/* a log with no total and an unnamed device: nothing to predict against */
	if (CHECK(gs_logimport_parse(GS_LOG_VLLM, "t.log",
				     "INFO x] GPU KV cache size: 158,656 tokens\n", 41, &o, &li, &d) == 0)) {
		CHECK(gs_predict_vllm(&w, &s, &li, &p, &why) != 0);
		CHECK(why && strstr(why, "no device's total") != NULL);
		gs_logimport_release(&li);
	}
	gs_workload_release(&w);
	gs_diag_release(&d);
	return gs_check_exit("test_predict");
}
