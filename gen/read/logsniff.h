/*
 * logsniff: what kind of text a log is, told from its lines, so that a
 * file no reader of ours takes is refused by its name ("this is
 * nvidia-smi output: ...") rather than with "no line this reader knows".
 *
 * Pure: reads bytes, opens nothing. Each kind is told by lines that only
 * its program prints (named beside each signature in logsniff.c); the
 * first line that shows a kind is the one cited. Kinds that are no
 * engine's start-up log (nvidia-smi, Ollama, memory_summary()) come
 * before the engines: a paste that mixes them with an engine's lines is
 * sniffed only when that engine's reader found nothing to read. Markdown
 * comes last, unless the text opens with a heading ("# ..."): then it is a
 * document about logs, whatever it quotes.
 *
 * Invariants:
 *  - bounded: one pass over at most GS_SNIFF_MAX_LINES lines;
 *  - deterministic: the same bytes give the same kind and line.
 */
#ifndef GS_LOGSNIFF_H
#define GS_LOGSNIFF_H

#include <stddef.h>

#define GS_SNIFF_MAX_LINES 100000

typedef enum {
	GS_SNIFF_NONE = 0,
	GS_SNIFF_NVSMI,          /* nvidia-smi's table or its Memory-Usage figures */
	GS_SNIFF_OLLAMA,         /* Ollama's server log (its own fit estimate) */
	GS_SNIFF_TORCH_SUMMARY,  /* torch.cuda.memory_summary()'s table */
	GS_SNIFF_MARKDOWN,       /* a Markdown document: headings and tables */
	GS_SNIFF_SGLANG,         /* SGLang's start-up lines */
	GS_SNIFF_VLLM,
	GS_SNIFF_LLAMACPP,
	GS_SNIFF_TORCH_OOM,
	GS_SNIFF_TORCH_STATS,
	GS_SNIFF_LLAMA_BENCH,    /* llama-bench's Markdown table of speeds */
	GS_SNIFF_VLLM_BENCH,     /* vLLM's benchmark summaries (throughput, serving) */
	GS_SNIFF_LLAMA_TIMINGS,  /* llama.cpp's "eval time = ..." lines */
	GS_SNIFF_VLLM_STATS      /* vLLM's periodic "Avg prompt throughput" lines */
} gs_sniff_kind;

typedef struct {
	gs_sniff_kind kind;
	const char *id;     /* "nvidia-smi", "ollama", ... (static) */
	const char *name;   /* "nvidia-smi output" (static) */
	const char *why;    /* why no reader takes it, or which --from does (static) */
	const char *from;   /* the --from that reads it, or NULL for none */
	size_t line;        /* 1-based line that shows it */
} gs_logsniff;

/* The kind's row (line 0), for checking the readers' table against it: 1, or 0 for none. */
int gs_logsniff_describe(gs_sniff_kind kind, gs_logsniff *out);

/* 1 with *out filled when a kind is recognised, else 0 (*out kind NONE). */
int gs_logsniff_text(const char *data, size_t len, gs_logsniff *out);

#endif
