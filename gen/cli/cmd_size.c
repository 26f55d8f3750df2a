/* cmd_size: `gpusheet estimate` and `gpusheet kv`, the sizer of the guide. */
#define _DEFAULT_SOURCE
#include <getopt.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "jsonout.h"
#include "kvdtype.h"
#include "quantity.h"
#include "sizing.h"
#include "labels.h"
#include "suggest.h"
#include "util.h"

static int S_usage(const char *cmd, const char *msg)
{
	fprintf(stderr, "gpusheet %s: %s (see gpusheet --help)\n", cmd, msg);
	return GS_EXIT_USAGE;
}

/* Parses a positive integer option; prints why and returns -1 otherwise. */
static int S_uint(const char *cmd, const char *opt, const char *text,
		  uint64_t min, uint64_t max, uint64_t *out)
{
	uint64_t v;

	if (gs_qty_parse_u64(text, &v) || v < min || v > max) {
		fprintf(stderr, "gpusheet %s: invalid value for --%s: \"%s\" "
			"(expected a whole number from %llu to %llu)\n",
			cmd, opt, text, (unsigned long long)min, (unsigned long long)max);
		return -1;
	}
	*out = v;
	return 0;
}

static json_t *S_qty_json(uint64_t bytes, gs_prov prov)
{
	return json_pack("{s:o,s:s}", "bytes", gs_jw_new_u64(bytes), "provenance", gs_qty_prov_id(prov));
}

static void S_json_print(json_t *j)
{
	char *s = gs_jw_dumps(j, JSON_SORT_KEYS | JSON_INDENT(2) | JSON_REAL_PRECISION(15));

	if (!s)
		GS_BUG("json_dumps failed (out of memory)");
	fputs(s, stdout);
	free(s);
	json_decref(j);
}

/* "14,000,000,000 bytes = 14.00 GB = 13.04 GiB" */
static void S_print_size(const gs_strings *t, uint64_t bytes)
{
	char a[GS_FMT_MAX], b[GS_FMT_MAX], c[GS_FMT_MAX];

	printf("%s %s = %s = %s\n", gs_qty_fmt_int(a, bytes, t->lang), gs_tr(t, "unit.bytes"),
	       gs_qty_fmt_gb(b, bytes, t->lang), gs_qty_fmt_gib(c, bytes, t->lang));
}

static int S_load_strings(const char *cmd, gs_lang lang, gs_strings *t)
{
	gs_diag d = GS_DIAG_INIT;

	if (gs_tr_load(lang, t, &d)) {
		fprintf(stderr, "gpusheet %s: cannot load the labels:\n", cmd);
		gs_diag_print(&d, stderr);
		gs_diag_release(&d);
		return -1;
	}
	return 0;
}

static int S_parse_bits_list(const char *text, unsigned *bits, size_t *n)
{
	char buf[256], *tok, *save = NULL;

	if (strlen(text) >= sizeof(buf))
		return -1;
	strcpy(buf, text);
	*n = 0;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		uint64_t v;
		if (gs_qty_parse_u64(tok, &v) || v < 1 || v > 64 || *n == GS_MAX_FORMATS)
			return -1;
		bits[(*n)++] = (unsigned)v;
	}
	return *n ? 0 : -1;
}

int gs_cmd_size_estimate(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "parameters", required_argument, NULL, 'p' },
		{ "bits", required_argument, NULL, 'b' },
		{ "reserve-gib", required_argument, NULL, 'r' },
		{ "formats", required_argument, NULL, 'f' },
		{ "json", no_argument, NULL, 'j' },
		{ "lang", required_argument, NULL, 'l' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *ptext = NULL, *btext = NULL, *rtext = NULL, *ftext = NULL;
	int json = 0, c;
	gs_lang lang = GS_LANG_EN;
	uint64_t params, milli, reserve, weights, envelope;
	int rounded = 0;
	char bt[GS_FMT_MAX];
	unsigned fbits[GS_MAX_FORMATS];
	size_t nf = 0, i;
	gs_format_row rows[GS_MAX_FORMATS];
	gs_strings t;
	gs_prov env_prov;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'p': ptext = optarg; break;
		case 'b': btext = optarg; break;
		case 'r': rtext = optarg; break;
		case 'f': ftext = optarg; break;
		case 'j': json = 1; break;
		case 'l':
			if (gs_tr_lang_parse(optarg, &lang))
				return S_usage("estimate", "--lang takes en or es");
			break;
		case 'h':
			printf("usage: gpusheet estimate --parameters N --bits B --reserve-gib R "
			       "[--formats 16,8,4] [--json] [--lang en|es]\n");
			return GS_EXIT_OK;
		default:
			gs_suggest_bad_option("estimate", opts, argv, optind);
			return GS_EXIT_USAGE;
		}
	}
	if (optind != argc)
		return S_usage("estimate", "unexpected argument");
	if (!ptext || !btext || !rtext)
		return S_usage("estimate", "--parameters, --bits and --reserve-gib are required");
	if (S_uint("estimate", "parameters", ptext, 1, UINT64_MAX, &params))
		return GS_EXIT_INVALID;
	/* bits in thousandths: 16, 4.5, 4.125 (a GGUF's block width) exactly */
	if (gs_qty_parse_decimal(btext, 3, &milli) || milli < 1000 || milli > 64000) {
		fprintf(stderr, "gpusheet estimate: invalid value for --bits: \"%s\" "
			"(expected a number from 1 to 64 with at most 3 decimals, such as 4.5)\n",
			btext);
		return GS_EXIT_INVALID;
	}
	if (gs_qty_parse_size(rtext, GS_GIB, &reserve)) {
		fprintf(stderr, "gpusheet estimate: invalid value for --reserve-gib: \"%s\" "
			"(expected a decimal number of GiB, at most 9 decimals, "
			"that is a whole number of bytes and fits in 64 bits)\n", rtext);
		return GS_EXIT_INVALID;
	}
	if (ftext) {
		if (S_parse_bits_list(ftext, fbits, &nf)) {
			fprintf(stderr, "gpusheet estimate: invalid value for --formats: \"%s\" "
				"(expected up to %d bit counts from 1 to 64, comma-separated)\n",
				ftext, GS_MAX_FORMATS);
			return GS_EXIT_INVALID;
		}
	} else {
		fbits[nf++] = 16;
		fbits[nf++] = 8;
		fbits[nf++] = 4;
	}
	if (gs_sizing_weights_bytes_milli(params, milli, &weights, &rounded) ||
	    gs_qty_add_u64(weights, reserve, &envelope) ||
	    gs_sizing_format_table(params, reserve, fbits, nf, rows)) {
		fprintf(stderr, "gpusheet estimate: the result does not fit in 64 bits "
			"(%s parameters x %s bits)\n", ptext, btext);
		return GS_EXIT_INVALID;
	}
	env_prov = reserve ? GS_PROV_ASSUMED : GS_PROV_CALCULATED;

	if (json) {
		json_t *fmt = json_array();
		for (i = 0; i < nf; i++)
			json_array_append_new(fmt, json_pack("{s:I,s:o,s:o,s:b}",
				"bits", (json_int_t)rows[i].bits,
				"weights", S_qty_json(rows[i].weights, GS_PROV_CALCULATED),
				"envelope", S_qty_json(rows[i].envelope, env_prov),
				"theoretical", rows[i].theoretical));
		S_json_print(json_pack("{s:s,s:{s:o,s:s},s:o,s:o,s:b,s:o,s:o,s:o}",
			"command", "estimate",
			"parameters", "value", gs_jw_new_u64(params), "provenance", "assumed",
			"bits", milli % 1000 ? json_real((double)milli / 1000.0)
					     : json_integer((json_int_t)(milli / 1000)),
			"weights", S_qty_json(weights, GS_PROV_CALCULATED),
			"theoretical", gs_sizing_millibits_theoretical(milli),
			"reserve", S_qty_json(reserve, GS_PROV_ASSUMED),
			"envelope", S_qty_json(envelope, env_prov),
			"formats", fmt));
		return GS_EXIT_OK;
	}

	if (S_load_strings("estimate", lang, &t))
		return GS_EXIT_INVALID;
	{
		char a[GS_FMT_MAX], b[GS_FMT_MAX], e[GS_FMT_MAX];

		printf("%s: %s\n", gs_tr(&t, "est.parameters"), gs_qty_fmt_int(a, params, lang));
		printf("%s: %s%s\n", gs_tr(&t, "est.bits"), gs_qty_fmt_millibits(bt, milli),
		       gs_sizing_millibits_theoretical(milli) ? gs_tr(&t, "est.theoretical_suffix") : "");
		printf("%s (%s): ", gs_tr(&t, "size.weights"), gs_tr(&t, "prov.calculated"));
		S_print_size(&t, weights);
		if (rounded)
			printf("  %s\n", gs_tr(&t, "est.rounded"));
		printf("%s (%s): ", gs_tr(&t, "size.reserve"), gs_tr(&t, "prov.assumed"));
		S_print_size(&t, reserve);
		printf("%s (%s): ", gs_tr(&t, "size.envelope"),
		       gs_tr(&t, reserve ? "prov.envelope_assumed" : "prov.calculated"));
		S_print_size(&t, envelope);
		printf("%s\n\n", gs_tr(&t, "est.hypothesis"));
		printf("%s %s\n\n", gs_tr(&t, "est.format_table"), gs_qty_fmt_gib(a, reserve, lang));
		printf("| %s | %s | %s | %s | %s |\n", gs_tr(&t, "col.bits"),
		       gs_tr(&t, "col.weights_bytes"), gs_tr(&t, "col.weights_gib"),
		       gs_tr(&t, "col.envelope_gib"), gs_tr(&t, "col.note"));
		printf("|---:|---:|---:|---:|---|\n");
		for (i = 0; i < nf; i++) {
			gs_qty_fmt_fixed2(b, rows[i].weights, GS_GIB, lang);
			gs_qty_fmt_fixed2(e, rows[i].envelope, GS_GIB, lang);
			printf("| %u | %s | %s | %s | %s |\n", rows[i].bits,
			       gs_qty_fmt_int(a, rows[i].weights, lang), b, e,
			       rows[i].theoretical ? gs_tr(&t, "note.theoretical") : "");
		}
		printf("\n%s\n", gs_tr(&t, "est.format_note"));
	}
	gs_tr_release(&t);
	return GS_EXIT_OK;
}

/* What `gpusheet kv` was given: the texts, then the numbers and the dtype. */
typedef struct {
	const char *text[7];   /* layers, kv-heads, head-dim, tokens, bytes-per-value, sequences, window */
	uint64_t v[7];
	const char *dtype;     /* --kv-dtype as given, or NULL */
	const gs_kvdtype *t;   /* its width (kvdtype.h), or NULL */
	int json;
	gs_lang lang;
} S_kv_args;

static const char *const S_kv_names[] = { "layers", "kv-heads", "head-dim", "tokens",
					  "bytes-per-value", "sequences", "window" };

static int S_kv_help(void)
{
	printf("usage: gpusheet kv --layers L --kv-heads H --head-dim D --tokens T "
	       "--bytes-per-value B|--kv-dtype %s --sequences S [--window W] [--json] "
	       "[--lang en|es]\n", "fp16|bf16|fp32|fp8|q8_0|q4_0");
	return GS_EXIT_OK;
}

/* The options into a; -1 to go on, else the exit code (help, usage, a bad option). */
static int S_kv_options(int argc, char **argv, S_kv_args *a)
{
	static const struct option opts[] = {
		{ "layers", required_argument, NULL, 'L' },
		{ "kv-heads", required_argument, NULL, 'H' },
		{ "head-dim", required_argument, NULL, 'D' },
		{ "tokens", required_argument, NULL, 'T' },
		{ "bytes-per-value", required_argument, NULL, 'B' },
		{ "sequences", required_argument, NULL, 'S' },
		{ "window", required_argument, NULL, 'W' },
		{ "kv-dtype", required_argument, NULL, 'K' },
		{ "json", no_argument, NULL, 'j' },
		{ "lang", required_argument, NULL, 'l' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	static const char letters[] = "LHDTBSW";
	const char *at;
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c && (at = strchr(letters, c)) != NULL) {
			a->text[at - letters] = optarg;
			continue;
		}
		switch (c) {
		case 'K': a->dtype = optarg; break;
		case 'j': a->json = 1; break;
		case 'l':
			if (gs_tr_lang_parse(optarg, &a->lang))
				return S_usage("kv", "--lang takes en or es");
			break;
		case 'h':
			return S_kv_help();
		default:
			gs_suggest_bad_option("kv", opts, argv, optind);
			return GS_EXIT_USAGE;
		}
	}
	if (optind != argc)
		return S_usage("kv", "unexpected argument");
	return -1;
}

/*
 * The values checked: every number whole and positive, the width given
 * once (--bytes-per-value or --kv-dtype), a block type only on a head of
 * whole blocks, as llama.cpp creates its cache (kvdtype.h). -1 to go on,
 * else the exit code.
 */
static int S_kv_values(S_kv_args *a)
{
	int k;

	for (k = 0; k < 6; k++)
		if (!a->text[k] && (k != 4 || !a->dtype))
			return S_usage("kv", "--layers, --kv-heads, --head-dim, --tokens, "
				       "--bytes-per-value (or --kv-dtype) and --sequences are required");
	if (a->text[4] && a->dtype)
		return S_usage("kv", "give --bytes-per-value or --kv-dtype, not both");
	if (a->dtype && !(a->t = gs_kvdtype_find(a->dtype))) {
		fprintf(stderr, "gpusheet kv: --kv-dtype takes %s, not \"%s\"\n", gs_kvdtype_names(),
			a->dtype);
		return GS_EXIT_USAGE;
	}
	for (k = 0; k < 7; k++)
		if (a->text[k] && S_uint("kv", S_kv_names[k], a->text[k], 1, UINT64_MAX, &a->v[k]))
			return GS_EXIT_INVALID;
	if (gs_kvdtype_is_block(a->t) && a->v[2] % a->t->block_values != 0) {
		fprintf(stderr, "gpusheet kv: --kv-dtype %s keeps blocks of %llu values along each "
			"head, and --head-dim %llu is not a multiple of %llu: llama.cpp refuses it "
			"(\"K cache type %s with block size %llu does not divide n_embd_head_k=%llu\"); "
			"use --kv-dtype fp8, bf16 or fp16\n", a->t->name,
			(unsigned long long)a->t->block_values, (unsigned long long)a->v[2],
			(unsigned long long)a->t->block_values, a->t->name,
			(unsigned long long)a->t->block_values, (unsigned long long)a->v[2]);
		return GS_EXIT_INVALID;
	}
	if (a->t && !gs_kvdtype_is_block(a->t))
		a->v[4] = a->t->block_bytes;
	return -1;
}

/* The JSON of `gpusheet kv --json`: the inputs and the figures, calculated. */
static void S_kv_json(const S_kv_args *a, const gs_kv_geometry *g, uint64_t per_token,
		      uint64_t per_seq, uint64_t total)
{
	const uint64_t *v = a->v;
	json_t *j = json_pack("{s:s,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o}",
		"command", "kv", "layers", gs_jw_new_u64(v[0]), "kv_heads", gs_jw_new_u64(v[1]),
		"head_dim", gs_jw_new_u64(v[2]), "tokens", gs_jw_new_u64(v[3]),
		"tokens_kept", gs_jw_new_u64(g->tokens_kept), "sequences", gs_jw_new_u64(v[5]),
		"per_token", S_qty_json(per_token, GS_PROV_CALCULATED),
		"per_sequence", S_qty_json(per_seq, GS_PROV_CALCULATED),
		"kv_cache", S_qty_json(total, GS_PROV_CALCULATED));

	/* a block type keeps no whole bytes per value: its block says it */
	json_object_set_new(j, "bytes_per_value", v[4] ? gs_jw_new_u64(v[4]) : json_null());
	json_object_set_new(j, "kv_dtype", a->t ? json_pack("{s:o,s:o,s:s,s:s}",
		"block_bytes", gs_jw_new_u64(a->t->block_bytes),
		"block_values", gs_jw_new_u64(a->t->block_values),
		"dtype", a->t->name, "source", a->t->source) : json_null());
	json_object_set_new(j, "window", a->text[6] ? gs_jw_new_u64(v[6]) : json_null());
	S_json_print(j);
}

/* The text of `gpusheet kv`: the formula with its figures, then each size. */
static void S_kv_text(const S_kv_args *a, const gs_strings *t, const gs_kv_geometry *g,
		      uint64_t per_token, uint64_t per_seq, uint64_t total)
{
	char n[7][GS_FMT_MAX], kept[GS_FMT_MAX];
	gs_lang lang = a->lang;
	int k, block = gs_kvdtype_is_block(a->t);

	for (k = 0; k < 7; k++)
		gs_qty_fmt_int(n[k], a->v[k], lang);
	gs_qty_fmt_int(kept, g->tokens_kept, lang);
	if (block)
		printf("%s\n  2 x %s x %s x (%s / %llu x %llu B) x %s x %s\n",
		       gs_tr(t, "kv.formula_block"), n[0], n[1], n[2],
		       (unsigned long long)a->t->block_values,
		       (unsigned long long)a->t->block_bytes, kept, n[5]);
	else
		printf("%s\n  2 x %s x %s x %s x %s x %s B x %s\n", gs_tr(t, "kv.formula"), n[0],
		       n[1], n[2], kept, n[4], n[5]);
	if (block)
		printf("%s: %s, %llu B %s (%s)\n", gs_tr(t, "kv.dtype"), a->t->name,
		       (unsigned long long)a->t->block_bytes, gs_tr(t, "kv.dtype_block"),
		       a->t->source);
	else if (a->t)
		printf("%s: %s, %s B %s (%s)\n", gs_tr(t, "kv.dtype"), a->t->name, n[4],
		       gs_tr(t, "kv.dtype_value"), a->t->source);
	if (a->text[6])
		printf("%s: min(%s, %s) = %s\n", gs_tr(t, "kv.tokens_kept"), n[3], n[6], kept);
	if (a->t) {
		char b[GS_FMT_MAX];

		printf("%s (%s): %s %s\n", gs_tr(t, "kv.per_token"), gs_tr(t, "prov.calculated"),
		       gs_qty_fmt_int(b, per_token, lang), gs_tr(t, "unit.bytes"));
	}
	printf("%s (%s): ", gs_tr(t, "kv.per_sequence"), gs_tr(t, "prov.calculated"));
	S_print_size(t, per_seq);
	printf("%s, %s %s (%s): ", gs_tr(t, "size.kv"), n[5], gs_tr(t, "kv.sequences"),
	       gs_tr(t, "prov.calculated"));
	S_print_size(t, total);
	if (block)
		printf("%s\n", gs_tr(t, "kv.block_note"));
	printf("%s\n", gs_tr(t, "kv.note"));
}

int gs_cmd_size_kv(int argc, char **argv)
{
	S_kv_args a;
	gs_kv_geometry g = { 0 };
	uint64_t total, per_seq, per_token;
	gs_strings t;
	int rc;

	memset(&a, 0, sizeof(a));
	a.lang = GS_LANG_EN;
	if ((rc = S_kv_options(argc, argv, &a)) >= 0 || (rc = S_kv_values(&a)) >= 0)
		return rc;
	g.layers = a.v[0];
	g.kv_heads = a.v[1];
	g.head_dim = a.v[2];
	g.bytes_per_value = a.v[4];
	if (gs_kvdtype_is_block(a.t)) {
		g.block_values = a.t->block_values;
		g.block_bytes = a.t->block_bytes;
	}
	g.sequences = 1;
	g.tokens_kept = 1;
	if (gs_sizing_kv_bytes(&g, &per_token))
		goto overflow;
	g.tokens_kept = gs_sizing_kv_tokens_kept(a.v[3], a.v[6]);
	if (gs_sizing_kv_bytes(&g, &per_seq) || gs_qty_mul_u64(per_seq, a.v[5], &total))
		goto overflow;
	if (a.json) {
		S_kv_json(&a, &g, per_token, per_seq, total);
		return GS_EXIT_OK;
	}
	if (S_load_strings("kv", a.lang, &t))
		return GS_EXIT_INVALID;
	S_kv_text(&a, &t, &g, per_token, per_seq, total);
	gs_tr_release(&t);
	return GS_EXIT_OK;
overflow:
	fprintf(stderr, "gpusheet kv: the KV cache does not fit in 64 bits\n");
	return GS_EXIT_INVALID;
}
