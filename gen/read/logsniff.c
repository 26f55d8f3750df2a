/* logsniff: the kind of a log told from its lines (logsniff.h). */
#define _GNU_SOURCE
#include <string.h>

#include "logsniff.h"

typedef struct {
	gs_sniff_kind kind;
	const char *id;
	const char *name;
	const char *why;
	const char *from;
	/* substrings any one of which shows the kind (NULL-terminated) */
	const char *const *marks;
} S_kind;

/* nvidia-smi: its table's title and column, its --query-gpu CSV header */
static const char *const S_nvsmi[] = { "NVIDIA-SMI", "Memory-Usage", "memory.used [MiB]",
				       "memory.total [MiB]", NULL };
/* Ollama (Go's log/slog text): its scheduler's estimate, its server's lines */
static const char *const S_ollama[] = { "msg=\"offload to ", "memory.required.full=",
					"source=memory.go", "source=sched.go", "source=server.go",
					NULL };
/* torch.cuda.memory_summary() (torch/cuda/memory.py): its title and rows */
static const char *const S_summary[] = { "PyTorch CUDA memory summary", "| Allocated memory ",
					 "| GPU reserved memory ", "| Non-releasable memory ",
					 "|       from large pool ", NULL };
/* SGLang (srt/model_executor/model_runner.py, srt/mem_cache/memory_pool.py) */
static const char *const S_sglang[] = { "KV Cache is allocated.", "max_total_num_tokens=",
					"Load weight begin. avail mem=", "Load weight end.",
					"Memory pool end. avail mem=", "Capture cuda graph end.",
					"mem_fraction_static", "sglang.launch_server", NULL };
/* vLLM (worker/worker.py, v1/worker/gpu_worker.py, v1/core/kv_cache_utils.py) */
static const char *const S_vllm[] = { "GPU KV cache size:", "# GPU blocks:", "# gpu blocks:",
				      "model weights took", "Model loading took",
				      "Available KV cache memory", "Memory profiling takes",
				      "Maximum concurrency for ", "# CUDA blocks:",
				      "can use total_gpu_memory", "model weights take ",
				      "Memory profiling results", NULL };
/* llama.cpp (src/llama-model.cpp, src/llama-context.cpp, ggml-cuda) */
static const char *const S_llama[] = { "llama_model_load", "llm_load_", "llama_kv_cache",
				       "llama_new_context_with_model", "load_tensors:",
				       "ggml_cuda_init", "llama_context:", "memory breakdown:",
				       "llama_print_memory_breakdown", NULL };
/* PyTorch's out-of-memory messages (c10/cuda/CUDACachingAllocator.cpp) */
static const char *const S_oom[] = { "CUDA out of memory", "OutOfMemoryError", NULL };
/* torch.cuda.memory_stats() dumped as JSON: its keys */
static const char *const S_stats[] = { "\"allocated_bytes.all.", "\"reserved_bytes.all.", NULL };

/* llama-bench: its table's speed column; vLLM's benchmarks: their summary lines */
static const char *const S_lbench[] = { " t/s |", NULL };
static const char *const S_vbench[] = { "Serving Benchmark Result", "Output token throughput (tok/s):",
					"Request throughput (req/s):", NULL };
/* llama.cpp's timings (llama_perf_context_print, llama-server's print_timing);
 * vLLM's stats logger (metrics.py, loggers.py) */
static const char *const S_ltimings[] = { "prompt eval time =", " eval time =", NULL };
static const char *const S_vstats[] = { "Avg prompt throughput:", NULL };

static const S_kind S_kinds[] = {
	{ GS_SNIFF_NVSMI, "nvidia-smi", "nvidia-smi output",
	  "a reading of the device's memory at one instant, by every process together: not a "
	  "peak and not an engine's own accounting; import the engine's start-up log instead",
	  NULL, S_nvsmi },
	{ GS_SNIFF_OLLAMA, "ollama", "an Ollama server log",
	  "its memory.required figures are Ollama's estimate before loading, not a measurement, "
	  "and no reader of gpusheet takes them", NULL, S_ollama },
	{ GS_SNIFF_TORCH_SUMMARY, "torch-summary", "torch.cuda.memory_summary() output",
	  "a table for reading, its figures rounded to whole units; import "
	  "torch.cuda.memory_stats() as JSON with --from torch-stats instead", NULL, S_summary },
	{ GS_SNIFF_SGLANG, "sglang", "an SGLang start-up log", "read it with --from sglang",
	  "sglang", S_sglang },
	{ GS_SNIFF_VLLM, "vllm", "a vLLM start-up log", "read it with --from vllm", "vllm", S_vllm },
	{ GS_SNIFF_LLAMACPP, "llama.cpp", "a llama.cpp load log", "read it with --from llama.cpp",
	  "llama.cpp", S_llama },
	{ GS_SNIFF_TORCH_OOM, "torch-oom", "a PyTorch out-of-memory message",
	  "read it with --from torch-oom", "torch-oom", S_oom },
	{ GS_SNIFF_TORCH_STATS, "torch-stats", "a torch.cuda.memory_stats() dump",
	  "read it with --from torch-stats", "torch-stats", S_stats },
	{ GS_SNIFF_LLAMA_BENCH, "llama-bench", "a llama-bench table",
	  "read it with --from llama-bench", "llama-bench", S_lbench },
	{ GS_SNIFF_VLLM_BENCH, "vllm-bench", "a vLLM benchmark summary",
	  "read it with --from vllm-bench", "vllm-bench", S_vbench },
	{ GS_SNIFF_LLAMA_TIMINGS, "llama-timings", "llama.cpp's timing lines",
	  "read it with --from llama-timings", "llama-timings", S_ltimings },
	{ GS_SNIFF_VLLM_STATS, "vllm-stats", "vLLM's stats lines",
	  "read it with --from vllm-stats", "vllm-stats", S_vstats },
	/* last: a paste of an engine's lines may hold a table or a fence */
	{ GS_SNIFF_MARKDOWN, "markdown", "a Markdown document",
	  "headings and tables about logs, not an engine's output; import each log it quotes "
	  "as a file of its own", NULL, NULL },
};
#define S_NKINDS (sizeof(S_kinds) / sizeof(S_kinds[0]))
#define S_MD (S_NKINDS - 1) /* GS_SNIFF_MARKDOWN's row */

int gs_logsniff_describe(gs_sniff_kind kind, gs_logsniff *out)
{
	size_t k;

	memset(out, 0, sizeof(*out));
	for (k = 0; k < S_NKINDS; k++)
		if (S_kinds[k].kind == kind) {
			out->kind = kind;
			out->id = S_kinds[k].id;
			out->name = S_kinds[k].name;
			out->why = S_kinds[k].why;
			out->from = S_kinds[k].from;
			return 1;
		}
	return 0;
}

static int S_has(const char *s, size_t n, const char *lit)
{
	return memmem(s, n, lit, strlen(lit)) != NULL;
}

/* A Markdown table's separator ("| --- | :-: |"), a code fence, or a heading
 * of level 2 or more ("## "): a level-1 "# " alone is also a comment's form. */
static int S_markdown(const char *s, size_t n)
{
	size_t i, dashes = 0, bars = 0;

	if (n >= 3 && memcmp(s, "```", 3) == 0)
		return 1;
	for (i = 0; i < n && s[i] == '#'; i++)
		;
	if (i >= 2 && i <= 6 && i < n && s[i] == ' ')
		return 1;
	if (n == 0 || s[0] != '|')
		return 0;
	for (i = 0; i < n; i++) {
		if (s[i] == '-')
			dashes++;
		else if (s[i] == '|')
			bars++;
		else if (s[i] != ' ' && s[i] != ':' && s[i] != '\r')
			return 0;
	}
	/* at least two cells: a summary table's rule "|----|" has one */
	return dashes >= 3 && bars >= 3;
}

int gs_logsniff_text(const char *data, size_t len, gs_logsniff *out)
{
	size_t first[S_NKINDS], pos = 0, line = 0, k, m;
	int md_first = 0, seen = 0;

	memset(out, 0, sizeof(*out));
	memset(first, 0, sizeof(first));
	while (pos < len && line < GS_SNIFF_MAX_LINES) {
		const char *s = data + pos, *nl = memchr(s, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - s) : len - pos;
		line++;
		pos += n + (nl ? 1 : 0);
		if (!seen && n > 0) {
			seen = 1;
			md_first = s[0] == '#' && n > 1 && (s[1] == ' ' || s[1] == '#');
		}
		for (k = 0; k < S_NKINDS; k++) {
			if (first[k])
				continue;
			if (!S_kinds[k].marks) {
				if (S_markdown(s, n))
					first[k] = line;
				continue;
			}
			for (m = 0; S_kinds[k].marks[m]; m++)
				if (S_has(s, n, S_kinds[k].marks[m])) {
					first[k] = line;
					break;
				}
		}
	}
	/* a document that opens with a heading and holds Markdown's forms is one,
	 * whatever output it quotes */
	k = S_NKINDS;
	if (md_first && first[S_MD])
		k = S_MD;
	else
		for (k = 0; k < S_NKINDS && !first[k]; k++)
			;
	if (k < S_NKINDS) {
		{
			out->kind = S_kinds[k].kind;
			out->id = S_kinds[k].id;
			out->name = S_kinds[k].name;
			out->why = S_kinds[k].why;
			out->from = S_kinds[k].from;
			out->line = first[k];
			return 1;
		}
	}
	return 0;
}
