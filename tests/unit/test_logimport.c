/*
 * Unit tests of the log import (gen/read/logimport.h): one fixture per wording,
 * written from the engines' format strings, with the figures worked by
 * hand (GiB = 1073741824 B, MiB = 1048576 B, rounded to the nearest byte);
 * the hostile inputs; then every excerpt of tests/data/evidence-logs/
 * (real pastes, their attribution header stripped), checked against what
 * the excerpt prints.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "logimport.h"
#include "logsniff.h"
#include "outfile.h"
#include "util.h"

#define GIB 1073741824ll
#define MIB 1048576ll

static int S_parse(gs_log_kind k, const char *text, const gs_logimport_opts *o, gs_logimport *li,
		   gs_diag *d)
{
	return gs_logimport_parse(k, "t.log", text, strlen(text), o, li, d);
}

static int64_t S_val(const gs_logimport *li, const char *name, int64_t dev)
{
	const gs_logfig *f = gs_logimport_fig(li, name, dev);
	return f ? f->value : -999;
}

static const char *S_set(const gs_logimport *li, const char *name)
{
	const gs_logsetting *s = gs_logimport_setting(li, name);
	return s ? s->value : NULL;
}

/* The parse fails and the first message holds want, at line. */
static void S_refused(gs_log_kind k, const char *text, const char *want, int line)
{
	gs_diag d = GS_DIAG_INIT;
	gs_logimport li;

	if (CHECK(S_parse(k, text, NULL, &li, &d) != 0) && CHECK(d.count > 0)) {
		if (!CHECK(strstr(d.items[0].message, want) != NULL))
			fprintf(stderr, "  message: %s\n", d.items[0].message);
		CHECK_INT(d.items[0].line, line);
	}
	gs_diag_release(&d);
}

static void test_decimal(void)
{
	int64_t v = 0;
	const char *why = NULL;

	CHECK(gs_logimport_decimal_bytes("79.32", 5, GIB, &v, &why) == 0);
	CHECK_INT(v, 85169201480ll);   /* 85169201479.68 */
	CHECK(gs_logimport_decimal_bytes("0.5", 3, 1, &v, &why) == 0);
	CHECK_INT(v, 1);               /* halves away from zero */
	CHECK(gs_logimport_decimal_bytes("-0.5", 4, 1, &v, &why) == 0);
	CHECK_INT(v, -1);
	CHECK(gs_logimport_decimal_bytes("14.9888", 7, GIB, &v, &why) == 0);
	CHECK_INT(v, 16094101452ll);   /* 16094101451.9 */
	CHECK(gs_logimport_decimal_bytes("1234567890123456789012345678901234567890", 40, 1, &v, &why) != 0);
	CHECK(gs_logimport_decimal_bytes("17179869184.00", 14, GIB, &v, &why) != 0);  /* 2^64 */
	CHECK_STR(why, "beyond 2^63 - 1");
}

static void test_oom_wordings(void)
{
	gs_diag d = GS_DIAG_INIT;
	gs_logimport li;
	gs_logimport_opts o = { 0 };

	/* until 1.3: "cached" */
	if (CHECK(S_parse(GS_LOG_TORCH_OOM, "RuntimeError: CUDA out of memory. Tried to allocate "
			  "20.00 MiB (GPU 0; 10.76 GiB total capacity; 9.81 GiB already allocated; "
			  "13.56 MiB free; 9.86 GiB cached)\n", NULL, &li, &d) == 0)) {
		CHECK_STR(li.version, "<=1.3");
		CHECK_INT(S_val(&li, "oom_request", 0), 20 * MIB);
		CHECK_INT(S_val(&li, "device_total", 0), 11553462026ll);  /* 10.76 GiB = ...026.24 */
		CHECK_INT(S_val(&li, "allocated", 0), 10533407293ll);     /* 9.81 GiB = ...292.64 */
		CHECK_INT(S_val(&li, "device_free", 0), 14218691ll);      /* 13.56 MiB = ...690.56 */
		CHECK_INT(S_val(&li, "cached", 0), 10587094385ll);        /* 9.86 GiB = ...384.64 */
		CHECK_INT(li.nphases, 1);
		CHECK(li.phases[0].failed);
		CHECK_U64(li.phases[0].reserved_end.v, 10587094385ull);
		CHECK_U64(li.phases[0].used_end.v, 11553462026ull - 14218691ull);
		CHECK_STR(li.phases[0].name, "unknown");
		CHECK_INT(li.devices[0].total, 11553462026ll);
		gs_logimport_release(&li);
	}
	/* 1.4: "reserved in total by PyTorch" */
	if (CHECK(S_parse(GS_LOG_TORCH_OOM, "RuntimeError: CUDA out of memory. Tried to allocate "
			  "2.00 GiB (GPU 1; 15.78 GiB total capacity; 12.25 GiB already allocated; "
			  "1.02 GiB free; 13.32 GiB reserved in total by PyTorch)", NULL, &li, &d) == 0)) {
		CHECK_STR(li.version, "1.4-2.0");
		CHECK_INT(li.phases[0].device, 1);
		CHECK_INT(S_val(&li, "reserved", 1), 14302241096ll);   /* 13.32 GiB = ...096.32 */
		CHECK_INT(S_val(&li, "allocated", 1), 12884901888ll + 268435456ll);
		gs_logimport_release(&li);
	}
	/* 1.13-2.0: the exception's own name and the max_split_size_mb hint; --phase */
	o.phase = "cold_forward";
	if (CHECK(S_parse(GS_LOG_TORCH_OOM, "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried "
			  "to allocate 448.00 MiB (GPU 7; 79.32 GiB total capacity; 78.58 GiB already "
			  "allocated; 259.56 MiB free; 78.58 GiB reserved in total by PyTorch) If "
			  "reserved memory is >> allocated memory try setting max_split_size_mb to "
			  "avoid fragmentation.", &o, &li, &d) == 0)) {
		CHECK_STR(li.version, "1.13-2.0");
		CHECK_STR(li.phases[0].name, "cold_forward");
		CHECK_INT(li.phases[0].device, 7);
		CHECK_INT(S_val(&li, "device_total", 7), 85169201480ll);
		gs_logimport_release(&li);
	}
	/* 2.1: "capacty", another process's NVML figure (garbage, kept as printed), this process */
	if (CHECK(S_parse(GS_LOG_TORCH_OOM, "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried "
			  "to allocate 64.00 MiB. GPU 0 has a total capacty of 23.65 GiB of which "
			  "41.06 MiB is free. Process 12345 has 17179869184.00 GiB memory in use. "
			  "Including non-PyTorch memory, this process has 23.59 GiB memory in use. Of "
			  "the allocated memory 22.97 GiB is allocated by PyTorch, and 184.62 MiB is "
			  "reserved by PyTorch but unallocated. If reserved but unallocated memory is "
			  "large try setting max_split_size_mb to avoid fragmentation.", NULL, &li,
			  &d) == 0)) {
		const gs_logfig *g = gs_logimport_fig(&li, "process_memory_nvml", 0);
		CHECK_STR(li.version, "2.1");
		if (CHECK(g != NULL)) {
			CHECK(!g->is_int);
			CHECK_STR(g->decimal, "17179869184.00");
			CHECK_STR(g->as_written, "17179869184.00 GiB");
		}
		CHECK_INT(S_val(&li, "process_memory", 0), 25329569628ll);  /* 23.59 GiB = ...628.16 */
		CHECK_INT(S_val(&li, "allocated", 0), 24663849697ll);        /* 22.97 GiB = ...697.28 */
		CHECK_INT(S_val(&li, "reserved_unallocated", 0), 193588101ll); /* 184.62 MiB = ...101.12 */
		CHECK_U64(li.phases[0].reserved_end.v, 24663849697ull + 193588101ull);
		gs_logimport_release(&li);
	}
	/* 2.2 on: "capacity", private pools; torch.OutOfMemoryError */
	if (CHECK(S_parse(GS_LOG_TORCH_OOM, "torch.OutOfMemoryError: CUDA out of memory. Tried to "
			  "allocate 1.96 GiB. GPU 0 has a total capacity of 79.25 GiB of which 1.46 GiB "
			  "is free. Including non-PyTorch memory, this process has 77.78 GiB memory in "
			  "use. Of the allocated memory 75.50 GiB is allocated by PyTorch, with 1.20 GiB "
			  "allocated in private pools (e.g., CUDA Graphs), and 1.78 GiB is reserved by "
			  "PyTorch but unallocated.", NULL, &li, &d) == 0)) {
		CHECK_STR(li.version, ">=2.2");
		CHECK_INT(S_val(&li, "allocated_private_pools", 0), 1288490189ll); /* ...188.8 */
		CHECK_U64(li.phases[0].alloc_end.v, 81067507712ull);               /* 75.50 GiB */
		CHECK_U64(li.phases[0].reserved_end.v, 81067507712ull + 1911260447ull);
		CHECK_U64(li.phases[0].used_end.v, 85094039552ull - 1567663063ull); /* 79.25, 1.46 GiB */
		gs_logimport_release(&li);
	}
	/* CRLF, ANSI colours, a message a paste wrapped over two lines */
	if (CHECK(S_parse(GS_LOG_TORCH_OOM, "noise\r\n\x1b[31mRuntimeError: CUDA out of memory. Tried "
			  "to allocate 20.00 MiB (GPU 0; 10.76 GiB total capacity; 9.81 GiB\r\n"
			  "already allocated; 13.56 MiB free; 9.86 GiB cached)\x1b[0m\r\n", NULL, &li,
			  &d) == 0)) {
		const gs_logfig *f = gs_logimport_fig(&li, "device_total", 0);
		if (CHECK(f != NULL)) {
			CHECK_INT(f->line, 2);
			CHECK_INT(f->last_line, 3);
			CHECK(strchr(f->text, '\x1b') == NULL && strchr(f->text, '\r') == NULL);
		}
		gs_logimport_release(&li);
	}
	/* the same message printed twice is one failure; two devices are two */
	if (CHECK(S_parse(GS_LOG_TORCH_OOM,
			  "RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 15.78 GiB total capacity; 12.25 GiB already allocated; 1.02 GiB free; 13.32 GiB reserved in total by PyTorch)\n"
			  "RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 15.78 GiB total capacity; 12.25 GiB already allocated; 1.02 GiB free; 13.32 GiB reserved in total by PyTorch)\n"
			  "RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 1; 15.78 GiB total capacity; 12.25 GiB already allocated; 1.02 GiB free; 13.32 GiB reserved in total by PyTorch)\n",
			  NULL, &li, &d) == 0)) {
		CHECK_INT(li.nphases, 2);
		CHECK_INT(li.ndevices, 2);
		gs_logimport_release(&li);
	}
	gs_diag_release(&d);
}

static void test_hostile(void)
{
	char *big;

	S_refused(GS_LOG_TORCH_OOM,
		  "RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 15.78 GiB total capacity; 12.25 GiB already allocated; 1.02 GiB free; 13.32 GiB reserved in total by PyTorch)\n"
		  "RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 15.90 GiB total capacity; 12.25 GiB already allocated; 1.02 GiB free; 13.32 GiB reserved in total by PyTorch)\n",
		  "two totals for one device", 2);
	S_refused(GS_LOG_TORCH_OOM, "RuntimeError: CUDA out of memory. Tried to allocate nan MiB (GPU 0; 1 GiB total capacity; 1 GiB already allocated; 1 MiB free; 1 GiB cached)",
		  "(nan)", 1);
	S_refused(GS_LOG_VLLM, "x\nGPU KV cache size: 1234567890123456789012345678901234567890 tokens\n",
		  "a number of 40 digits", 2);
	S_refused(GS_LOG_TORCH_OOM, "RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; lots)",
		  "wording this reader does not know", 1);
	S_refused(GS_LOG_TORCH_OOM, "hello\nworld\n", "nothing to import", 0);
	{
		gs_diag d = GS_DIAG_INIT;
		gs_logimport li;
		CHECK(gs_logimport_parse(GS_LOG_VLLM, "t.log", "a\nb\0c", 5, NULL, &li, &d) != 0);
		CHECK(d.count == 1 && d.items[0].line == 2 && d.items[0].column == 2 &&
		      strstr(d.items[0].message, "NUL byte"));
		gs_diag_release(&d);
	}
	big = gs_xmalloc(GS_LOG_MAX_LINE + 10);
	memset(big, 'a', GS_LOG_MAX_LINE + 1);
	big[GS_LOG_MAX_LINE + 1] = '\0';
	S_refused(GS_LOG_VLLM, big, "more than the bound of 65536 bytes", 1);
	free(big);
	{
		gs_diag d = GS_DIAG_INIT;
		gs_logimport li;
		CHECK(gs_logimport_parse(GS_LOG_VLLM, "t.log", "", (size_t)GS_LOG_MAX_BYTES + 1, NULL,
					 &li, &d) != 0);
		CHECK(d.count == 1 && strstr(d.items[0].message, "64 MiB"));
		gs_diag_release(&d);
	}
}

static void test_vllm(void)
{
	gs_diag d = GS_DIAG_INIT;
	gs_logimport li;
	gs_logimport_opts o = { 0 };

	/* V1: version, configuration, weights, capacity in tokens, concurrency, ranks by prefix */
	if (CHECK(S_parse(GS_LOG_VLLM,
			  "INFO 05-01 10:00:00 [core.py:58] Initializing a V1 LLM engine (v0.8.5) with config: model='meta-llama/Llama-3.1-8B-Instruct', speculative_config=None, tokenizer='meta-llama/Llama-3.1-8B-Instruct', dtype=torch.bfloat16, max_seq_len=32768, download_dir=None, tensor_parallel_size=2, pipeline_parallel_size=1, quantization=None, kv_cache_dtype=auto, compilation_config={\"level\":3, \"splitting_ops\":[]}, seed=0\n"
			  "(Worker_TP0 pid=11) INFO 05-01 10:00:10 [gpu_model_runner.py:1316] Model loading took 7.5 GiB and 3.65 seconds\n"
			  "(Worker_TP1 pid=12) INFO 05-01 10:00:10 [gpu_model_runner.py:1316] Model loading took 7.5 GiB and 3.70 seconds\n"
			  "(Worker_TP1 pid=12) DEBUG 05-01 10:00:20 [gpu_worker.py:200] Memory profiling takes 5.10 seconds. Total non KV cache memory: 9.25GiB; torch peak memory increase: 1.25GiB; non-torch forward increase memory: 0.50GiB; weights memory: 7.50GiB.\n"
			  "INFO 05-01 10:00:21 [kv_cache_utils.py:634] GPU KV cache size: 1,234,560 tokens\n"
			  "INFO 05-01 10:00:21 [kv_cache_utils.py:637] Maximum concurrency for 32,768 tokens per request: 37.68x\n",
			  NULL, &li, &d) == 0)) {
		CHECK_STR(li.version, "0.8.5");
		CHECK_STR(S_set(&li, "model"), "meta-llama/Llama-3.1-8B-Instruct");
		CHECK_STR(S_set(&li, "dtype"), "bfloat16");
		CHECK_STR(S_set(&li, "max_model_len"), "32768");
		CHECK_STR(S_set(&li, "tensor_parallel_size"), "2");
		CHECK_STR(S_set(&li, "kv_cache_dtype"), "auto");
		CHECK(S_set(&li, "quantization") == NULL);   /* None: not stated */
		CHECK_INT(S_val(&li, "weights", 0), 8053063680ll);
		CHECK_INT(S_val(&li, "weights", 1), 8053063680ll);
		CHECK_INT(S_val(&li, "activation_peak", 1), 1342177280ll);
		CHECK_INT(S_val(&li, "non_kv_cache_memory", 1), 9932111872ll);
		CHECK_INT(S_val(&li, "kv_cache_tokens", 0), 1234560);
		CHECK_STR(gs_logimport_fig(&li, "max_concurrency", 0)->decimal, "37.68");
		CHECK_INT(li.nruns, 1);
		gs_logimport_release(&li);
	}
	/* V0 0.6.4 key=value form; V0 blocks with the block size from a flag; GB meaning GiB */
	o.block_size = 16;
	if (CHECK(S_parse(GS_LOG_VLLM,
			  "INFO 11-20 10:00:00 model_runner.py:1077] Loading model weights took 14.9888 GB\n"
			  "INFO 11-20 10:00:05 worker.py:232] Memory profiling results: total_gpu_memory=23.58GiB initial_memory_usage=15.34GiB peak_torch_memory=17.06GiB memory_usage_post_profile=15.35GiB non_torch_memory=0.35GiB kv_cache_size=3.81GiB gpu_memory_utilization=0.90\n"
			  "INFO 11-20 10:00:05 gpu_executor.py:113] # GPU blocks: 1952, # CPU blocks: 2048\n",
			  &o, &li, &d) == 0)) {
		const gs_logfig *w = gs_logimport_fig(&li, "weights", 0);
		CHECK_INT(w ? w->value : 0, 16094101452ll);
		CHECK(w && w->note && strstr(w->note, "GiB"));
		CHECK_INT(li.devices[0].total, 25318832210ll);      /* 23.58 GiB = ...209.92 */
		CHECK_INT(S_val(&li, "kv_cache_memory", 0), 4090956349ll);  /* 3.81 GiB = ...349.44 */
		CHECK_STR(S_set(&li, "gpu_memory_utilization"), "0.90");
		CHECK_INT(S_val(&li, "kv_cache_blocks", 0), 1952);
		CHECK_INT(S_val(&li, "kv_cache_tokens", 0), 1952 * 16);
		gs_logimport_release(&li);
	}
	o.block_size = 0;
	/* V0 sentence form, in one line (0.6.5 on) */
	if (CHECK(S_parse(GS_LOG_VLLM,
			  "INFO 01-16 09:40:00 worker.py:238] the current vLLM instance can use total_gpu_memory (79.22GiB) x gpu_memory_utilization (0.90) = 71.29GiB\n"
			  "INFO 01-16 09:40:00 worker.py:238] model weights take 19.86GiB; non_torch_memory takes -0.16GiB; PyTorch activation peak memory takes 36.63GiB; the rest of the memory reserved for KV Cache is 14.65GiB.\n",
			  NULL, &li, &d) == 0)) {
		CHECK_INT(li.devices[0].total, 85061827297ll);       /* 79.22 GiB = ...297.28 */
		CHECK_INT(S_val(&li, "non_torch_memory", 0), -171798692ll);  /* negative is real */
		CHECK_INT(S_val(&li, "usable_memory", 0), 76547054633ll);
		gs_logimport_release(&li);
	}
	/* V1 ledger, then its error form */
	if (CHECK(S_parse(GS_LOG_VLLM,
			  "INFO [gpu_worker.py:276] Free memory on device (78.5/79.19 GiB) on startup. Desired GPU memory utilization is (0.9, 71.27 GiB). Actual usage is 15.0 GiB for weight, 1.5 GiB for peak activation, 0.25 GiB for non-torch memory, and 0.5 GiB for CUDAGraph memory.\n",
			  NULL, &li, &d) == 0)) {
		CHECK_INT(li.devices[0].total, 85029615042ll + 1);   /* 79.19 GiB = ...042.56 */
		CHECK_INT(li.devices[0].free_bytes, 84288733184ll); /* 78.5 GiB */
		CHECK_INT(S_val(&li, "weights", 0), 15 * GIB);
		CHECK_INT(S_val(&li, "cuda_graph_memory", 0), GIB / 2);
		CHECK_STR(S_set(&li, "gpu_memory_utilization"), "0.9");
		gs_logimport_release(&li);
	}
	if (CHECK(S_parse(GS_LOG_VLLM,
			  "ValueError: Free memory on device (6.92/8.0 GiB) on startup is less than desired GPU memory utilization (0.9, 7.2 GiB). Decrease GPU memory utilization or reduce GPU memory used by other processes.\n",
			  NULL, &li, &d) == 0)) {
		CHECK_INT(li.nphases, 1);
		CHECK(li.phases[0].failed);
		CHECK_INT(li.devices[0].total, 8 * GIB);
		gs_logimport_release(&li);
	}
	/* No available memory; V0.1 negative blocks */
	if (CHECK(S_parse(GS_LOG_VLLM,
			  "ValueError: No available memory for the cache blocks. Try increasing `gpu_memory_utilization` when initializing the engine.\n",
			  NULL, &li, &d) == 0)) {
		CHECK(li.phases[0].failed);
		gs_logimport_release(&li);
	}
	/* two starts: refused without --start, each one read with it */
	S_refused(GS_LOG_VLLM,
		  "Loading model weights took 14.9888 GB\nGPU blocks: 1952, # CPU blocks: 2048\n"
		  "Loading model weights took 14.9888 GB\n# GPU blocks: 1478, # CPU blocks: 2048\n",
		  "2 starts of the engine (at lines 1, 3)", 3);
	o.run = 2;
	if (CHECK(S_parse(GS_LOG_VLLM,
			  "Loading model weights took 14.9888 GB\nGPU blocks: 1952, # CPU blocks: 2048\n"
			  "Loading model weights took 14.9888 GB\n# GPU blocks: 1478, # CPU blocks: 2048\n",
			  &o, &li, &d) == 0)) {
		CHECK_INT(S_val(&li, "kv_cache_blocks", 0), 1478);
		CHECK_INT(gs_logimport_fig(&li, "weights", 0)->line, 3);
		gs_logimport_release(&li);
	}
	gs_diag_release(&d);
}

static void test_llama_and_stats(void)
{
	gs_diag d = GS_DIAG_INIT;
	gs_logimport li;
	gs_logimport_opts o = { 0 };

	/* 2023: labelled MB, computed in MiB */
	if (CHECK(S_parse(GS_LOG_LLAMACPP,
			  "llama_model_load_internal: mem required  = 2381.32 MB (+ 1026.00 MB per state)\n"
			  "llama_model_load_internal: total VRAM used: 3475 MB\n"
			  "llama_new_context_with_model: kv self size  =  256.00 MB\n"
			  "llama_new_context_with_model: compute buffer total size =   71.84 MB\n",
			  NULL, &li, &d) != 0)) {
		/* no device named: refused (a figure of all GPUs together is no device's) */
		CHECK(d.count > 0 && strstr(d.items[0].message, "names no device"));
	}
	gs_diag_release(&d);
	/* 2025 with device names and the exit breakdown */
	if (CHECK(S_parse(GS_LOG_LLAMACPP,
			  "build: 4722 (1d8d1f0e) with cc\n"
			  "  Device 0: NVIDIA GeForce RTX 4090, compute capability 8.9, VMM: yes\n"
			  "load_tensors:        CUDA0 model buffer size = 13169.00 MiB\n"
			  "llama_kv_cache:      CUDA0 KV buffer size =    38.00 MiB\n"
			  "llama_context:      CUDA0 compute buffer size =   985.00 MiB\n"
			  "llama_memory_breakdown_print: |   - CUDA0 (RTX 4090)   | 24080 = 9436 + (14193 = 13169 +      38 +     985) +         451 |\n",
			  NULL, &li, &d) == 0)) {
		CHECK_STR(li.version, "b4722");
		CHECK_STR(li.devices[0].name, "NVIDIA GeForce RTX 4090");
		CHECK_INT(li.devices[0].total, 24080 * MIB);
		CHECK_INT(S_val(&li, "kv_buffer", 0), 38 * MIB);
		CHECK_INT(S_val(&li, "compute_buffer", 0), 985 * MIB);
		CHECK_INT(S_val(&li, "unaccounted", 0), 451 * MIB);
		gs_logimport_release(&li);
	}
	/* memory_stats() */
	o.phase = "warm_forward";
	if (CHECK(S_parse(GS_LOG_TORCH_STATS,
			  "{\"allocated_bytes.all.current\": 100,\n \"allocated_bytes.all.peak\": 300,\n"
			  " \"reserved_bytes.all.current\": 400, \"reserved_bytes.all.peak\": 512, \"num_ooms\": 0}",
			  &o, &li, &d) == 0)) {
		CHECK_STR(li.phases[0].name, "warm_forward");
		CHECK_U64(li.phases[0].alloc_peak.v, 300);
		CHECK_U64(li.phases[0].reserved_end.v, 400);
		CHECK_INT(gs_logimport_fig(&li, "allocated_peak", 0)->line, 2);
		CHECK_INT(S_val(&li, "num_ooms", 0), 0);
		gs_logimport_release(&li);
	}
	S_refused(GS_LOG_TORCH_STATS, "{\"allocated_bytes.all.peak\": NaN}", "not a memory_stats", 1);
	S_refused(GS_LOG_TORCH_STATS, "{\"allocated_bytes.all.peak\": 1, \"allocated_bytes.all.peak\": 2}",
		  "duplicate", 1);
	gs_diag_release(&d);
}

/* An excerpt of tests/data/evidence-logs/ without its attribution header (a .md file whole). */
static char *S_excerpt(const char *name, size_t *len)
{
	char path[4096], *all, *p;
	size_t n;

	snprintf(path, sizeof(path), "%s/tests/data/evidence-logs/%s", GS_TEST_SOURCE_DIR, name);
	all = gs_outfile_read(path, &n);
	if (!all)
		return NULL;
	p = all;
	/* a Markdown file's headings are its own, not our attribution */
	while (!strstr(name, ".md") && strncmp(p, "# ", 2) == 0 && strchr(p, '\n'))
		p = strchr(p, '\n') + 1;
	*len = n - (size_t)(p - all);
	memmove(all, p, *len);
	all[*len] = '\0';
	return all;
}

static int S_real(gs_log_kind k, const char *name, int run, gs_logimport *li)
{
	gs_diag d = GS_DIAG_INIT;
	gs_logimport_opts o = { 0 };
	size_t len;
	char *t = S_excerpt(name, &len);
	int rc;

	o.run = run;
	if (!CHECK(t != NULL))
		return -1;
	rc = gs_logimport_parse(k, name, t, len, &o, li, &d);
	if (rc != 0)
		gs_diag_print(&d, stderr);
	gs_diag_release(&d);
	free(t);
	return rc;
}

/* A real excerpt that a reader refuses by the name of what it is. */
static void S_named_real(gs_log_kind k, const char *name, const char *want)
{
	gs_diag d = GS_DIAG_INIT;
	gs_logimport li;
	gs_logimport_opts o = { 0 };
	size_t len;
	char *t = S_excerpt(name, &len);

	if (!CHECK(t != NULL))
		return;
	if (CHECK(gs_logimport_parse(k, name, t, len, &o, &li, &d) != 0) && CHECK(d.count > 0) &&
	    !CHECK(strstr(d.items[0].message, want) != NULL))
		fprintf(stderr, "  %s as %s: %s\n", name, gs_logimport_kind_id(k), d.items[0].message);
	if (d.count == 0)
		gs_logimport_release(&li);
	gs_diag_release(&d);
	free(t);
}

static void test_real(void)
{
	gs_logimport li;
	static const char *const not_ours[] = {
		"ollama-01_offload-estimate_671b-class-24gb_ollama-issue8447.log",
		"sglang-01_kv-alloc_vs-vllm_issue21348.log",
		"nvsmi-01_vllm0.5.4_yi34b-4x4090-tp4_vllm-issue7553.txt",
		"torch-summary-01_mistral7b_pytorch-issue116928.txt",
		"torch-summary-03_multi-gpu-nonreleasable_fairseq-issue2442.txt", "README.md", NULL
	};
	static const char *const named[] = {
		"this is an Ollama server log", "this is an SGLang start-up log",
		"this is nvidia-smi output", "this is torch.cuda.memory_summary() output",
		"this is torch.cuda.memory_summary() output", "this is a Markdown document"
	};
	size_t i;
	int k;

	if (CHECK(S_real(GS_LOG_TORCH_OOM, "oom-01_torch1.x_old-format_pytorch-issue32101.txt", 0, &li) == 0)) {
		CHECK_INT(li.devices[0].total, 34059090657ll);       /* 31.72 GiB */
		CHECK_INT(S_val(&li, "reserved", 0), 32963873997ll); /* 30.70 GiB = ...996.8 */
		CHECK_INT(S_val(&li, "oom_request", 0), 152 * MIB);
		gs_logimport_release(&li);
	}
	if (CHECK(S_real(GS_LOG_TORCH_OOM, "oom-03_torch2.0_llama2-70b-lora-a100_llamafactory-issue257.txt", 0, &li) == 0)) {
		CHECK_INT(li.devices[0].index, 7);
		CHECK_INT(li.devices[0].total, 85169201480ll);       /* 79.32 GiB: an A100 80GB */
		gs_logimport_release(&li);
	}
	if (CHECK(S_real(GS_LOG_TORCH_OOM, "oom-05_torch2.1_llama7b-a40_trtllm-issue67.txt", 0, &li) == 0)) {
		CHECK_STR(li.version, "2.1");
		CHECK_INT(li.devices[0].total, 47620449894ll);       /* 44.35 GiB = ...894.4 */
		CHECK_INT(S_val(&li, "process_memory_nvml", 0), 47416438948ll); /* 44.16 GiB */
		CHECK_INT(S_val(&li, "reserved_unallocated", 0), 1007104);       /* 983.50 KiB */
		gs_logimport_release(&li);
	}
	if (CHECK(S_real(GS_LOG_TORCH_OOM, "oom-07_torch2.5+_r1-distill-70b-vllm_vllm-issue14092.txt", 0, &li) == 0)) {
		CHECK_STR(li.version, ">=2.2");
		CHECK_INT(li.devices[0].index, 2);
		CHECK_INT(li.devices[0].total, 15698105467ll);       /* 14.62 GiB = ...466.88 */
		CHECK_INT(S_val(&li, "allocated", 2), 15483357102ll);/* 14.42 GiB = ...102.08 */
		gs_logimport_release(&li);
	}
	if (CHECK(S_real(GS_LOG_VLLM, "vllm-01_v0.1_gpu-blocks_issue184.log", 0, &li) == 0)) {
		CHECK_INT(S_val(&li, "kv_cache_blocks", 0), -1);
		CHECK_INT(S_val(&li, "cpu_blocks", 0), 512);
		gs_logimport_release(&li);
	}
	for (k = 1; k <= 2; k++) {
		if (CHECK(S_real(GS_LOG_VLLM, "vllm-04_v0.6.4_profiling-results_issue10517.log", k, &li) == 0)) {
			CHECK_INT(S_val(&li, "weights", 0), 16094101452ll);
			CHECK_INT(S_val(&li, "kv_cache_blocks", 0), k == 1 ? 1952 : 1478);
			CHECK_STR(S_set(&li, "max_model_len"), k == 1 ? "20000" : "29000");
			if (k == 2) {
				CHECK_INT(S_val(&li, "kv_cache_tokens", 0), 23648);
				CHECK(li.nphases > 0 && li.phases[0].failed);
			}
			gs_logimport_release(&li);
		}
	}
	if (CHECK(S_real(GS_LOG_VLLM, "vllm-07_v0.8_sentence-form_pr14447.log", 0, &li) == 0)) {
		CHECK_INT(li.ndevices, 2);   /* two worker processes, two ranks */
		CHECK_INT(S_val(&li, "weights", 1), 22774064087ll);  /* 21.21 GiB = ...087.04 */
		CHECK_INT(S_val(&li, "kv_cache_memory", 2), 1685774664ll);
		CHECK_STR(S_set(&li, "gpu_memory_utilization"), "0.99");
		gs_logimport_release(&li);
	}
	for (k = 1; k <= 2; k++) {
		if (CHECK(S_real(GS_LOG_VLLM, "vllm-09_v1_tokens_pr13596.log", k, &li) == 0)) {
			if (k == 1)
				CHECK_INT(S_val(&li, "kv_cache_blocks", 0), 127626);
			else
				CHECK_INT(S_val(&li, "kv_cache_tokens", 0), 2042016);
			CHECK_STR(S_set(&li, "max_model_len"), "2048");
			gs_logimport_release(&li);
		}
	}
	if (CHECK(S_real(GS_LOG_VLLM, "vllm-10_v1_l40s_pr17122.log", 0, &li) == 0)) {
		CHECK_INT(S_val(&li, "weights", 0), 16094208826ll);  /* 14.9889 GiB */
		CHECK_INT(S_val(&li, "kv_cache_tokens", 0), 158656);
		CHECK_STR(S_set(&li, "max_model_len"), "32768");
		gs_logimport_release(&li);
	}
	if (CHECK(S_real(GS_LOG_VLLM, "vllm-11_v1_moe-tp4_issue21348.log", 0, &li) == 0)) {
		CHECK_INT(S_val(&li, "kv_cache_memory", 0), 8708046193ll); /* 8.11 GiB */
		CHECK_INT(S_val(&li, "kv_cache_tokens", 0), 178880);
		gs_logimport_release(&li);
	}
	if (CHECK(S_real(GS_LOG_VLLM, "vllm-12_v1_kv-too-small-error_issue25350.log", 2, &li) == 0)) {
		CHECK_STR(S_set(&li, "max_model_len"), "221000");
		CHECK_INT(S_val(&li, "kv_cache_needed", 0), 10866267259ll);   /* 10.12 GiB */
		CHECK(gs_logimport_fig(&li, "estimated_max_model_len", 0)->estimate);
		gs_logimport_release(&li);
	}
	if (CHECK(S_real(GS_LOG_VLLM, "vllm-14_v1_newest_lvllm-issue35.log", 0, &li) == 0)) {
		CHECK_INT(S_val(&li, "weights", 0), 12401718067ll);   /* 11.55 GiB */
		CHECK_INT(S_val(&li, "kv_cache_tokens", 0), 53136);
		gs_logimport_release(&li);
	}
	if (CHECK(S_real(GS_LOG_VLLM, "vllm-20_v0.7_sentence-form_h100-llama3.2-11b-vision_pr12126.log", 0, &li) == 0)) {
		CHECK_INT(li.devices[0].total, 85061827297ll);
		CHECK_INT(S_val(&li, "activation_peak", 0), 39331163013ll);  /* 36.63 GiB */
		CHECK_INT(S_val(&li, "kv_cache_blocks", 0), 6001);
		gs_logimport_release(&li);
	}
	if (CHECK(S_real(GS_LOG_LLAMACPP, "llamacpp-02_2024-format_2gpu_pr6122.log", 0, &li) == 0)) {
		CHECK_INT(S_val(&li, "model_buffer", 1), 14669085409ll);   /* 13989.53 MiB */
		CHECK_INT(S_val(&li, "kv_buffer", 0), 1536 * MIB);
		CHECK_INT(S_val(&li, "compute_buffer", 0), 704653558ll);   /* 672.01 MiB */
		CHECK_STR(S_set(&li, "type_k"), "f16");
		gs_logimport_release(&li);
	}
	if (CHECK(S_real(GS_LOG_LLAMACPP, "llamacpp-05_2025-format_8gpu-q4_0-K_issue9390.log", 0, &li) == 0)) {
		CHECK_INT(li.ndevices, 8);
		CHECK_STR(S_set(&li, "type_k"), "q4_0");
		CHECK_INT(S_val(&li, "kv_buffer", 3), 5096 * MIB);
		gs_logimport_release(&li);
	}
	if (CHECK(S_real(GS_LOG_LLAMACPP, "llamacpp-06_2025-memory-breakdown_3x4090_pr15860.log", 0, &li) == 0)) {
		CHECK_INT(li.ndevices, 3);
		CHECK_STR(li.devices[0].name, "RTX 4090");
		CHECK_INT(li.devices[2].total, 24080 * MIB);
		CHECK_INT(S_val(&li, "compute_buffer", 1), 548 * MIB);
		gs_logimport_release(&li);
	}
	/* what is no engine log of ours is refused by its name, whichever reader is asked */
	for (i = 0; not_ours[i]; i++)
		for (k = 0; k <= GS_LOG_SGLANG; k++)
			if (k != GS_LOG_SGLANG || strncmp(not_ours[i], "sglang", 6) != 0)
				S_named_real((gs_log_kind)k, not_ours[i], named[i]);
}

/* SGLang: each "GB" is GiB (x 1073741824), rounded to the nearest byte. */
static void test_sglang(void)
{
	gs_logimport li;
	gs_diag d = GS_DIAG_INIT;
	int64_t dev;

	if (CHECK(S_real(GS_LOG_SGLANG, "sglang-02_gemma3-load-kv-pool_pr4826.log", 0, &li) == 0)) {
		CHECK_STR(li.engine, "SGLang");
		CHECK_INT(S_val(&li, "weights", 0), 8729521029ll);        /* 8.13 GiB = ...029.12 */
		CHECK_INT(S_val(&li, "kv_cache_tokens", 0), 834615);
		CHECK_INT(S_val(&li, "kv_cache_k", 0), 58110907515ll);    /* 54.12 GiB = ...514.88 */
		CHECK_INT(S_val(&li, "kv_cache_v", 0), 58110907515ll);
		CHECK_INT(S_val(&li, "available_after_kv_cache", 0), 15687368049ll); /* 14.61: ...048.64 */
		CHECK_STR(S_set(&li, "architecture"), "Gemma3ForConditionalGeneration");
		CHECK_STR(S_set(&li, "dtype"), "torch.bfloat16");
		CHECK_STR(gs_logimport_fig(&li, "weights", 0)->note != NULL ? "noted" : "", "noted");
		gs_logimport_release(&li);
	}
	if (CHECK(S_real(GS_LOG_SGLANG, "sglang-03_max-total-num-tokens_issue29575.log", 0, &li) == 0)) {
		CHECK_INT(S_val(&li, "max_total_num_tokens", 0), 2086558);
		CHECK_STR(S_set(&li, "max_model_len"), "256000");
		CHECK_STR(S_set(&li, "max_running_requests"), "33");
		CHECK_STR(S_set(&li, "chunked_prefill_size"), "8192");
		CHECK_INT(S_val(&li, "available_after_start", 0), 18489834209ll); /* 17.22: ...209.28 */
		gs_logimport_release(&li);
	}
	if (CHECK(S_real(GS_LOG_SGLANG, "sglang-04_tp8-load-begin_pr11716.log", 0, &li) == 0)) {
		CHECK_INT(li.ndevices, 8);
		for (dev = 1; dev <= 6; dev++)   /* 137.29 GiB = 147414015016.96 */
			CHECK_INT(S_val(&li, "available_before_weights", dev), 147414015017ll);
		CHECK_INT(S_val(&li, "available_before_weights", 0), 147467702108ll); /* ...108.16 */
		CHECK_INT(S_val(&li, "available_before_weights", 7), 147660975636ll); /* ...636.48 */
		gs_logimport_release(&li);
	}
	if (CHECK(S_real(GS_LOG_SGLANG, "sglang-05_kv-dtype-form-rocm_pr18263.log", 0, &li) == 0)) {
		CHECK_STR(S_set(&li, "kv_cache_dtype"), "torch.bfloat16");
		CHECK_INT(S_val(&li, "kv_cache_tokens", 0), 1669816);
		CHECK_INT(S_val(&li, "weights", 0), 61181809132ll);       /* 56.98 GiB = ...131.52 */
		gs_logimport_release(&li);
	}
	if (CHECK(S_real(GS_LOG_SGLANG, "sglang-01_kv-alloc_vs-vllm_issue21348.log", 0, &li) == 0)) {
		CHECK_INT(S_val(&li, "kv_cache_tokens", 0), 367404);
		CHECK_INT(S_val(&li, "cuda_graphs", 0), 6646461891ll);    /* 6.19 GiB = ...890.56 */
		gs_logimport_release(&li);
	}
	/* the MLA form (one "KV size"), a rank among DP/TP/EP, the server's arguments */
	if (CHECK(S_parse(GS_LOG_SGLANG, "[2025-11-04 05:27:13 DP0 TP3 EP3] KV Cache is allocated. "
			  "#tokens: 524288, KV size: 17.16 GB\n", NULL, &li, &d) == 0)) {
		CHECK_INT(S_val(&li, "kv_cache_memory", 3), 18425409700ll);  /* 17.16: ...699.84 */
		CHECK_INT(S_val(&li, "kv_cache_tokens", 3), 524288);
		gs_logimport_release(&li);
	}
	if (CHECK(S_parse(GS_LOG_SGLANG, "server_args=ServerArgs(model_path='meta-llama/Meta-Llama-3.1-"
			  "8B-Instruct', dtype='auto', quantization=None, kv_cache_dtype='auto', "
			  "mem_fraction_static=0.851, tp_size=1)\n"
			  "[TP0] Load weight end. type=LlamaForCausalLM, dtype=torch.bfloat16, "
			  "avail mem=63.42 GB, mem usage=14.99 GB.\n", NULL, &li, &d) == 0)) {
		CHECK_STR(S_set(&li, "model"), "meta-llama/Meta-Llama-3.1-8B-Instruct");
		CHECK_STR(S_set(&li, "mem_fraction_static"), "0.851");
		CHECK_STR(S_set(&li, "tensor_parallel_size"), "1");
		CHECK(gs_logimport_setting(&li, "quantization") == NULL);   /* None: not stated */
		gs_logimport_release(&li);
	}
	S_refused(GS_LOG_SGLANG, "[TP0] KV Cache is allocated. #tokens: 10, K size: nan GB\n", "nan", 1);
	gs_diag_release(&d);
}

/* The table of formats: each row is its kind's, its --from name parses
 * back to it, and logsniff names the same text the same way (its refusal
 * "read it with --from ID" and the reader's "not NAME" agree). */
static void test_formats(void)
{
	size_t i, j;

	CHECK(gs_logformat_count() >= 5);
	for (i = 0; i < gs_logformat_count(); i++) {
		const gs_logformat *f = gs_logformat_at(i);
		gs_logsniff s;
		CHECK(gs_logformat_of(f->kind) == f);
		CHECK_INT(gs_logimport_kind_parse(f->id), (int64_t)f->kind);
		CHECK_STR(gs_logimport_kind_id(f->kind), f->id);
		CHECK((f->line != NULL) != (f->whole != NULL));
		CHECK(f->engine && f->what && f->name && f->process);
		if (CHECK(gs_logsniff_describe((gs_sniff_kind)f->sniff, &s) == 1)) {
			CHECK_STR(s.from, f->id);
			CHECK_STR(s.name, f->name);
		}
		for (j = 0; j < i; j++)
			CHECK(strcmp(gs_logformat_at(j)->id, f->id) != 0);
	}
	CHECK(gs_logformat_at(gs_logformat_count()) == NULL);
	CHECK(gs_logimport_kind_parse("vLLM") == -1);
}

/* Speeds: the published llama-bench table (tests/data/speedlog/README.md
 * gives its source) read row by row, each figure as printed with its line. */
static void test_speed(void)
{
	char path[4096], *t;
	size_t n;
	gs_logimport li;
	gs_diag d = GS_DIAG_INIT;
	gs_logimport_opts o = { 0 };
	const gs_logfig *f;

	snprintf(path, sizeof(path), "%s/tests/data/speedlog/llama-bench-rtx4090-cuda.md",
		 GS_TEST_SOURCE_DIR);
	t = gs_outfile_read(path, &n);
	if (!CHECK(t != NULL))
		return;
	/* three models: three runs, one chosen */
	CHECK(gs_logimport_parse(GS_LOG_LLAMA_BENCH, "b.md", t, n, &o, &li, &d) == -1);
	gs_diag_release(&d);
	o.run = 2;
	if (CHECK(gs_logimport_parse(GS_LOG_LLAMA_BENCH, "b.md", t, n, &o, &li, &d) == 0)) {
		CHECK_INT((int64_t)li.nruns, 3);
		f = gs_logimport_fig(&li, "decode_tokens_per_second", 0);
		if (CHECK(f != NULL)) {
			CHECK_STR(f->decimal, "98.13");     /* | llama 7B Q8_0 | ... | tg 128 | 98.13 ± 0.07 | */
			CHECK_INT((int64_t)f->line, 7);
			CHECK(f->unit == GS_LU_TOKENS_PER_SECOND);
		}
		f = gs_logimport_fig(&li, "prefill_tokens_per_second", 0);
		if (CHECK(f != NULL))
			CHECK_STR(f->decimal, "7664.00");
		CHECK_STR(S_set(&li, "model"), "llama 7B Q8_0");
		CHECK_STR(S_set(&li, "output_tokens"), "128");
		CHECK_STR(S_set(&li, "prompt_tokens"), "512");
		if (CHECK(li.ndevices == 1 && li.devices[0].name))
			CHECK_STR(li.devices[0].name, "NVIDIA GeForce RTX 4090");
		gs_logimport_release(&li);
	}
	gs_diag_release(&d);
	free(t);
	/* a Vulkan run: not a CUDA or HIP measurement */
	snprintf(path, sizeof(path), "%s/tests/data/speedlog/llama-bench-rtx4090-vulkan.md",
		 GS_TEST_SOURCE_DIR);
	t = gs_outfile_read(path, &n);
	o.run = 0;
	if (CHECK(t != NULL))
		CHECK(gs_logimport_parse(GS_LOG_LLAMA_BENCH, "v.md", t, n, &o, &li, &d) == -1);
	gs_diag_release(&d);
	free(t);
	/* a vLLM start-up log is not a benchmark: refused by its name */
	S_refused(GS_LOG_VLLM_BENCH, "INFO 05-01 10:00:00 gpu_model_runner.py:1 Model loading took "
		  "14.99 GiB and 5.1 seconds\nINFO # GPU blocks: 100\n", "a vLLM start-up log", 1);
}

int main(void)
{
	test_speed();
	test_formats();
	test_decimal();
	test_oom_wordings();
	test_hostile();
	test_vllm();
	test_llama_and_stats();
	test_real();
	test_sglang();
	return gs_check_exit("test_logimport");
}
