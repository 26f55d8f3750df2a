/* suggest: the closest known name to a wrong one (suggest.h). */
#include "suggest.h"
#include "diag.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

/* Names other tools give to what our names say, and why they map so. */
static const struct {
	const char *word, *target, *note;
} S_synonyms[] = {
	{ "context", "input_tokens", "a context holds input_tokens + output_tokens" },
	{ "context_length", "input_tokens", "a context holds input_tokens + output_tokens" },
	{ "ctx", "input_tokens", "a context holds input_tokens + output_tokens" },
	{ "max_length", "input_tokens", "a context holds input_tokens + output_tokens" },
	{ "max_seq_len", "input_tokens", "a context holds input_tokens + output_tokens" },
	{ "seq_len", "input_tokens", "a context holds input_tokens + output_tokens" },
	{ "sequence_length", "input_tokens", "a context holds input_tokens + output_tokens" },
	{ "tokens", "input_tokens", "a context holds input_tokens + output_tokens" },
	{ "prompt_tokens", "input_tokens", NULL },
	{ "prompt_length", "input_tokens", NULL },
	{ "max_new_tokens", "output_tokens", NULL },
	{ "new_tokens", "output_tokens", NULL },
	{ "generated_tokens", "output_tokens", NULL },
	{ "batch_size", "batch", NULL },
	{ "micro_batch", "microbatch", NULL },
	{ "micro_batch_size", "microbatch", NULL },
	{ "num_sequences", "sequences", NULL },
	{ "concurrency", "sequences", "sequences whose KV cache is kept at once" },
	/* one engine's setting under the other (docs/formats.md, 1.4) */
	{ "gpu_memory_utilization", "mem_fraction_static",
	  "SGLang's share of the card is mem_fraction_static; gpu_memory_utilization is vLLM's" },
	{ "mem_fraction_static", "gpu_memory_utilization",
	  "vLLM's share of the card is gpu_memory_utilization; mem_fraction_static is SGLang's" },
	{ "max_num_batched_tokens", "chunked_prefill_size",
	  "SGLang plans a step by chunked_prefill_size; max_num_batched_tokens is vLLM's" },
	{ "chunked_prefill_size", "max_num_batched_tokens",
	  "vLLM plans a step by max_num_batched_tokens; chunked_prefill_size is SGLang's" },
};

static char S_fold(char c)
{
	if (c >= 'A' && c <= 'Z')
		return (char)(c - 'A' + 'a');
	return c == '-' ? '_' : c;
}

static int S_same(const char *a, const char *b)
{
	for (; *a && *b; a++, b++)
		if (S_fold(*a) != S_fold(*b))
			return 0;
	return *a == *b;
}

static int S_prefix(const char *p, const char *s)
{
	for (; *p; p++, s++)
		if (!*s || S_fold(*p) != S_fold(*s))
			return 0;
	return 1;
}

/* word's letters appear in s in order, starting with s's first. */
static int S_abbrev(const char *word, const char *s)
{
	if (!*word || S_fold(*word) != S_fold(*s))
		return 0;
	for (; *s && *word; s++)
		if (S_fold(*s) == S_fold(*word))
			word++;
	return *word == '\0';
}

static size_t S_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j;
	size_t row[GS_SUGGEST_MAX + 1];

	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		size_t diag = row[0];
		row[0] = i;
		for (j = 1; j <= lb; j++) {
			size_t up = row[j], best = diag + (S_fold(a[i - 1]) != S_fold(b[j - 1]));
			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			diag = up;
			row[j] = best;
		}
	}
	return row[lb];
}

const char *gs_suggest(const char *word, const char *const *candidates, const char **note)
{
	const char *const *c;
	const char *best = NULL;
	size_t i, n = strlen(word), bestd = (size_t)-1, limit;

	if (note)
		*note = NULL;
	if (n == 0 || n > GS_SUGGEST_MAX)
		return NULL;
	for (i = 0; i < sizeof(S_synonyms) / sizeof(S_synonyms[0]); i++) {
		if (!S_same(word, S_synonyms[i].word))
			continue;
		for (c = candidates; *c; c++)
			if (strcmp(*c, S_synonyms[i].target) == 0) {
				if (note)
					*note = S_synonyms[i].note;
				return *c;
			}
	}
	for (c = candidates; *c; c++)
		if (S_same(word, *c))
			return *c;
	for (c = candidates; *c; c++)
		if (n >= 2 && (S_prefix(word, *c) || S_prefix(*c, word)))
			return *c;
	for (c = candidates; *c; c++)
		if (n >= 2 && S_abbrev(word, *c))
			return *c;
	limit = n / 3 ? n / 3 : 1;
	for (c = candidates; *c; c++) {
		size_t d;
		if (strlen(*c) > GS_SUGGEST_MAX)
			continue;
		d = S_distance(word, *c);
		if (d <= limit && d < bestd) {
			bestd = d;
			best = *c;
		}
	}
	return best;
}

void gs_suggest_bad_option(const char *cmd, const struct option *opts, char *const *argv,
		       int optind)
{
	const char *arg = optind > 0 ? argv[optind - 1] : NULL, *names[64], *best;
	char name[GS_SUGGEST_MAX + 1];
	size_t n = 0, len;
	const struct option *o;

	if (!arg || strncmp(arg, "--", 2) != 0) {
		gs_diag_error_print(cmd, "option '%s' is unknown or needs a value (see gpusheet --help)",
			       arg ? arg : "");
		return;
	}
	len = strcspn(arg + 2, "=");
	for (o = opts; o->name && n < sizeof(names) / sizeof(names[0]) - 1; o++) {
		if (strlen(o->name) == len && strncmp(o->name, arg + 2, len) == 0) {
			gs_diag_error_print(cmd, "option '--%s' %s (see gpusheet --help)", o->name,
				       o->has_arg == no_argument ? "takes no value" : "needs a value");
			return;
		}
		names[n++] = o->name;
	}
	names[n] = NULL;
	/* a prefix of two options or more: getopt_long found it ambiguous */
	{
		size_t k, hits = 0;
		for (k = 0; k < n; k++)
			hits += len > 0 && strncmp(names[k], arg + 2, len) == 0;
		if (hits > 1) {
			gs_diag_error_print(cmd, "option '%.*s' is ambiguous: name it whole (see "
				       "gpusheet --help)", (int)(len + 2), arg);
			return;
		}
	}
	best = NULL;
	if (len <= GS_SUGGEST_MAX) {
		memcpy(name, arg + 2, len);
		name[len] = '\0';
		best = gs_suggest(name, names, NULL);
	}
	if (best)
		gs_diag_error_print(cmd, "unknown option '%.*s' (did you mean --%s?) (see gpusheet "
			       "--help)", (int)(len + 2), arg, best);
	else
		gs_diag_error_print(cmd, "unknown option '%.*s' (see gpusheet --help)", (int)(len + 2),
			       arg);
}
