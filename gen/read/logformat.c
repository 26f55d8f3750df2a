/*
 * logformat: the formats of `evidence import --from`, one row each (logimport.h).
 * A new format is its reader file and one row here; the usage text, the
 * messages that list the formats and the measurement's `import.from` come
 * from this table, and tests/scripts/log-formats.sh checks the lists
 * written elsewhere (the schema's enum, docs, the top-level usage) against it.
 */
#include "logimport_int.h"
#include "logsniff.h"

/* In the order --from lists them; row k is gs_log_kind k. */
static const gs_logformat S_formats[] = {
	{ GS_LOG_VLLM, "vllm", "vLLM", "vLLM start-up log", "a vLLM start-up log",
	  GS_SNIFF_VLLM, NULL, "fresh", "vllm", NULL, gs_logvllm_line, NULL, gs_logvllm_finish },
	{ GS_LOG_TORCH_OOM, "torch-oom", "PyTorch", "PyTorch out-of-memory message",
	  "a PyTorch out-of-memory message", GS_SNIFF_TORCH_OOM, NULL, "unknown", NULL,
	  "from the wording of its out-of-memory message", gs_logtorch_line, NULL, NULL },
	{ GS_LOG_TORCH_STATS, "torch-stats", "PyTorch", "torch.cuda.memory_stats() dump",
	  "a torch.cuda.memory_stats() dump", GS_SNIFF_TORCH_STATS,
	  "a dump does not say which phase it closes", "unknown", NULL, NULL, NULL,
	  gs_logtorch_stats, NULL },
	{ GS_LOG_LLAMACPP, "llama.cpp", "llama.cpp", "llama.cpp load log", "a llama.cpp load log",
	  GS_SNIFF_LLAMACPP, NULL, "fresh", NULL, NULL, gs_logllama_line, NULL, NULL },
	{ GS_LOG_SGLANG, "sglang", "SGLang", "SGLang start-up log", "an SGLang start-up log",
	  GS_SNIFF_SGLANG, NULL, "fresh", "sglang", NULL, gs_logsglang_line, NULL, NULL },
	/* speeds: a benchmark's figures, observed on the GPU the paste names */
	{ GS_LOG_LLAMA_BENCH, "llama-bench", "llama-bench", "llama-bench table", "a llama-bench table",
	  GS_SNIFF_LLAMA_BENCH, NULL, "unknown", NULL, NULL, NULL, gs_logspeed_llama_bench, NULL },
	{ GS_LOG_VLLM_BENCH, "vllm-bench", "vLLM benchmark", "vLLM benchmark summary",
	  "a vLLM benchmark summary", GS_SNIFF_VLLM_BENCH, NULL, "unknown", NULL, NULL, NULL,
	  gs_logspeed_vllm_bench, NULL },
	{ GS_LOG_LLAMA_TIMINGS, "llama-timings", "llama.cpp", "llama.cpp timing lines",
	  "llama.cpp's timing lines", GS_SNIFF_LLAMA_TIMINGS, NULL, "unknown", NULL, NULL, NULL,
	  gs_logspeed_llama_timings, NULL },
	{ GS_LOG_VLLM_STATS, "vllm-stats", "vLLM", "vLLM stats lines", "vLLM's stats lines",
	  GS_SNIFF_VLLM_STATS, NULL, "unknown", NULL, NULL, NULL, gs_logspeed_vllm_stats, NULL },
};

#define S_N (sizeof(S_formats) / sizeof(S_formats[0]))

size_t gs_logformat_count(void)
{
	return S_N;
}

const gs_logformat *gs_logformat_at(size_t i)
{
	return i < S_N ? &S_formats[i] : NULL;
}

const gs_logformat *gs_logformat_of(gs_log_kind k)
{
	size_t i;

	for (i = 0; i < S_N; i++)
		if (S_formats[i].kind == k)
			return &S_formats[i];
	return NULL;
}
