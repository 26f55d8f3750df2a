/* The seeds' figures, as exact integer tests of quantity and sizing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "kvdtype.h"
#include "model.h"
#include "util.h"
#include "quantity.h"
#include "sizing.h"
#include "workload.h"

static void test_weights(void)
{
	uint64_t w, r, e;
	char buf[GS_FMT_MAX];

	/* 7e9 parameters x 16 bits = 14,000,000,000 B = 14 GB ~ 13.04 GiB */
	CHECK(gs_sizing_weights_bytes(7000000000ULL, 16, &w) == 0);
	CHECK_U64(w, 14000000000ULL);
	CHECK_STR(gs_qty_fmt_gib(buf, w, GS_LANG_EN), "13.04 GiB");
	CHECK_STR(gs_qty_fmt_gb(buf, w, GS_LANG_EN), "14.00 GB");
	CHECK_STR(gs_qty_fmt_gib(buf, w, GS_LANG_ES), "13,04 GiB");
	CHECK_STR(gs_qty_fmt_int(buf, w, GS_LANG_EN), "14,000,000,000");
	CHECK_STR(gs_qty_fmt_int(buf, w, GS_LANG_ES), "14\xc2\xa0" "000\xc2\xa0" "000\xc2\xa0" "000");

	/* + 4 GiB -> 17.04 GiB; + 6 GiB -> 19.04 GiB */
	CHECK(gs_qty_parse_size("4", GS_GIB, &r) == 0 && r == 4 * GS_GIB);
	CHECK(gs_qty_add_u64(w, r, &e) == 0);
	CHECK_STR(gs_qty_fmt_gib(buf, e, GS_LANG_EN), "17.04 GiB");
	CHECK(gs_qty_parse_size("6", GS_GIB, &r) == 0 && r == 6 * GS_GIB);
	CHECK(gs_qty_add_u64(w, r, &e) == 0);
	CHECK_STR(gs_qty_fmt_gib(buf, e, GS_LANG_EN), "19.04 GiB");
	CHECK_STR(gs_qty_fmt_gib(buf, e, GS_LANG_ES), "19,04 GiB");

	/* sub-byte and odd widths round up and are theoretical */
	CHECK(gs_sizing_weights_bytes(3, 4, &w) == 0 && w == 2);
	CHECK(gs_sizing_bits_theoretical(4) && !gs_sizing_bits_theoretical(8) && !gs_sizing_bits_theoretical(16));
	CHECK(gs_sizing_weights_bytes(1, 0, &w) == -1 && gs_sizing_weights_bytes(1, 65, &w) == -1);
	/* overflow is detected, not wrapped */
	CHECK(gs_sizing_weights_bytes(UINT64_MAX, 64, &w) == -1);
	CHECK(gs_sizing_weights_bytes(UINT64_MAX, 8, &w) == 0 && w == UINT64_MAX);
	CHECK(gs_qty_add_u64(UINT64_MAX, 1, &w) == -1);
	CHECK(gs_qty_mul_u64(UINT64_MAX / 2 + 1, 2, &w) == -1);
}

static void test_format_table(void)
{
	static const unsigned bits[] = { 16, 8, 4 };
	gs_format_row rows[3];
	char buf[GS_FMT_MAX];

	/* same 6 GiB reserve: 16 -> 19.04, 8 -> 12.52, 4 -> 9.26 GiB */
	CHECK(gs_sizing_format_table(7000000000ULL, 6 * GS_GIB, bits, 3, rows) == 0);
	CHECK_STR(gs_qty_fmt_gib(buf, rows[0].envelope, GS_LANG_EN), "19.04 GiB");
	CHECK_STR(gs_qty_fmt_gib(buf, rows[1].envelope, GS_LANG_EN), "12.52 GiB");
	CHECK_STR(gs_qty_fmt_gib(buf, rows[2].envelope, GS_LANG_EN), "9.26 GiB");
	CHECK(rows[2].theoretical && !rows[0].theoretical);
}

static void test_units(void)
{
	char buf[GS_FMT_MAX];
	uint64_t v;

	/* a catalog's 24 GB is 24e9 B ~ 22.35 GiB; 48 GB ~ 44.70 GiB */
	CHECK(gs_qty_parse_size("24", GS_GB, &v) == 0 && v == 24000000000ULL);
	CHECK_STR(gs_qty_fmt_gib(buf, v, GS_LANG_EN), "22.35 GiB");
	CHECK_STR(gs_qty_fmt_gib(buf, v, GS_LANG_ES), "22,35 GiB");
	CHECK(gs_qty_parse_size("48", GS_GB, &v) == 0);
	CHECK_STR(gs_qty_fmt_gib(buf, v, GS_LANG_EN), "44.70 GiB");
	CHECK(gs_qty_parse_size("1.5", GS_GIB, &v) == 0 && v == 1610612736ULL);
	/* not a whole number of bytes, malformed, signed, exponent */
	CHECK(gs_qty_parse_size("0.0000000001", GS_GIB, &v) == -1);
	CHECK(gs_qty_parse_size("1e3", GS_GIB, &v) == -1);
	CHECK(gs_qty_parse_size("-1", GS_GIB, &v) == -1);
	CHECK(gs_qty_parse_size("", GS_GIB, &v) == -1);
	CHECK(gs_qty_parse_size("1.", GS_GIB, &v) == -1);
	CHECK(gs_qty_parse_size("99999999999999999999", GS_GIB, &v) == -1);
	CHECK(gs_qty_parse_size("0.5", 1, &v) == -1);
	/* half-up rounding at two decimals */
	CHECK_STR(gs_qty_fmt_fixed2(buf, 5, 1000, GS_LANG_EN), "0.01");
	CHECK_STR(gs_qty_fmt_fixed2(buf, 4, 1000, GS_LANG_EN), "0.00");
	CHECK_STR(gs_qty_fmt_money(buf, 4714, GS_LANG_EN), "47.14");
	CHECK_STR(gs_qty_fmt_money(buf, 5571, GS_LANG_ES), "55,71");
	CHECK_STR(gs_qty_fmt_int(buf, 8192, GS_LANG_ES), "8\xc2\xa0" "192");
	CHECK_STR(gs_qty_fmt_int(buf, 999, GS_LANG_ES), "999");
}

static void test_kv(void)
{
	gs_kv_geometry g = { 32, 8, 128, 8192, 2, 1, 0, 0 };
	uint64_t v;

	/* 2 x 32 x 8 x 128 x 8192 x 2 B x 1 = 1 GiB; four sequences = 4 GiB */
	CHECK(gs_sizing_kv_bytes(&g, &v) == 0 && v == GS_GIB);
	g.sequences = 4;
	CHECK(gs_sizing_kv_bytes(&g, &v) == 0 && v == 4 * GS_GIB);
	/* a sliding window keeps at most `window` tokens */
	CHECK(gs_sizing_kv_tokens_kept(8192, 4096) == 4096);
	CHECK(gs_sizing_kv_tokens_kept(2048, 4096) == 2048);
	CHECK(gs_sizing_kv_tokens_kept(8192, 0) == 8192);
	g.layers = UINT64_MAX;
	CHECK(gs_sizing_kv_bytes(&g, &v) == -1);
}

/*
 * The KV cache dtypes on Llama-3.1-8B's geometry, read from its real
 * config.json (32 layers, 8 KV heads, head_dim 4,096 / 32 = 128), by hand:
 *   fp16  2 x 32 x 8 x 128 x 2 B           = 131,072 B per token;
 *   fp8   2 x 32 x 8 x 128 x 1 B           =  65,536 B per token;
 *   q8_0  2 x 32 x 8 x (128 / 32 x 34 B)   =  69,632 B per token
 *         (4 blocks of block_q8_0 per head: 136 B);
 *   q4_0  2 x 32 x 8 x (128 / 32 x 18 B)   =  36,864 B per token
 *         (4 blocks of block_q4_0 per head: 72 B);
 * at 8,192 tokens, q8_0: 69,632 x 8,192 = 570,425,344 B.
 */
static void test_kv_dtype(void)
{
	static const struct {
		const char *name;
		uint64_t per_token;
	} want[] = { { "fp16", 131072 }, { "bf16", 131072 }, { "fp32", 262144 },
		     { "fp8", 65536 }, { "q8_0", 69632 }, { "q4_0", 36864 } };
	char *p = gs_xasprintf("%s/tests/data/models/llama-3.1-8b", GS_TEST_SOURCE_DIR);
	gs_model m;
	gs_diag d = GS_DIAG_INIT;
	gs_kv_geometry g = { 0 };
	uint64_t v;
	size_t i;

	if (!CHECK(gs_model_read(p, &m, &d) == 0)) {
		gs_diag_print(&d, stderr);
		gs_diag_release(&d);
		free(p);
		return;
	}
	CHECK_U64(m.layers, 32);
	CHECK_U64(m.kv_heads, 8);
	CHECK_U64(m.head_dim, 128);
	g.layers = m.layers;
	g.kv_heads = m.kv_heads;
	g.head_dim = m.head_dim;
	g.sequences = 1;
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const gs_kvdtype *t = gs_kvdtype_find(want[i].name);
		if (!CHECK(t != NULL))
			continue;
		g.tokens_kept = 1;
		g.bytes_per_value = gs_kvdtype_is_block(t) ? 0 : t->block_bytes;
		g.block_values = t->block_values;
		g.block_bytes = t->block_bytes;
		CHECK(gs_sizing_kv_bytes(&g, &v) == 0);
		CHECK_U64(v, want[i].per_token);
	}
	/* the blocks of ggml-common.h: 34 and 18 B per 32 values */
	CHECK_U64(gs_kvdtype_find("q8_0")->block_bytes, 34);
	CHECK_U64(gs_kvdtype_find("q4_0")->block_bytes, 18);
	CHECK_U64(gs_kvdtype_find("q4_0")->block_values, 32);
	g.tokens_kept = 8192;
	g.block_values = 32;
	g.block_bytes = 34;
	CHECK(gs_sizing_kv_bytes(&g, &v) == 0);
	CHECK_U64(v, 570425344);
	CHECK(gs_sizing_kv_row_bytes(&g, &v) == 0);
	CHECK_U64(v, 136);
	/* a head of 80 values is not whole blocks: llama.cpp refuses it */
	g.head_dim = 80;
	CHECK(gs_sizing_kv_bytes(&g, &v) == -1);
	CHECK(gs_kvdtype_row_bytes(gs_kvdtype_find("q4_0"), 80, &v) == -1);
	CHECK(gs_kvdtype_row_bytes(gs_kvdtype_find("q4_0"), 96, &v) == 0 && v == 54);
	CHECK(gs_kvdtype_row_bytes(gs_kvdtype_find("fp8"), 80, &v) == 0 && v == 80);
	/* overflow is reported, not wrapped */
	g.head_dim = 128;
	g.layers = UINT64_MAX / 4;
	CHECK(gs_sizing_kv_bytes(&g, &v) == -1);
	CHECK(gs_kvdtype_row_bytes(gs_kvdtype_find("q8_0"), UINT64_MAX - 31, &v) == -1);
	CHECK(gs_kvdtype_find("q5_0") == NULL && gs_kvdtype_find(NULL) == NULL);
	gs_model_release(&m);
	free(p);
}

static void test_provenance(void)
{
	gs_qty a = gs_qty_make(1, GS_PROV_CALCULATED), b = gs_qty_make(2, GS_PROV_ASSUMED), s;

	CHECK(gs_qty_add(a, b, &s) == 0 && s.bytes == 3 && s.prov == GS_PROV_ASSUMED);
	CHECK(gs_qty_add(a, gs_qty_missing(), &s) == 0 && !s.present);
	CHECK(gs_qty_prov_weakest(GS_PROV_OBSERVED, GS_PROV_CALCULATED) == GS_PROV_CALCULATED);
	CHECK_STR(gs_qty_prov_id(GS_PROV_OBSERVED), "observed");
}

/*
 * batch and sequences have one meaning (finding 5): the KV cache counts
 * every sequence whose cache is kept at once. Per sequence: 2 x 32 layers
 * x 8 KV heads x 128 x 14,336 tokens x 2 B = 1,879,048,192 B = 1.75 GiB.
 * batch 8 without sequences: 8 x 1.75 = 14 GiB (before: 1.75 GiB).
 */
static void test_kv_batch(void)
{
	gs_workload w;
	gs_sizing s;
	gs_dim d8[] = { { "input_tokens", 14336 }, { "batch", 8 } };
	gs_dim d1[] = { { "input_tokens", 14336 } };
	gs_dim ds[] = { { "input_tokens", 14336 }, { "batch", 8 }, { "sequences", 16 } };

	memset(&w, 0, sizeof(w));
	w.parameters = 1000;
	w.storage_bits = 16;
	w.task = GS_TASK_INFERENCE;
	w.layers = 32;
	w.attention_heads = 32;
	w.kv_heads = 8;
	w.head_dim = 128;
	w.has_kv_geometry = 1;
	w.cache = GS_CACHE_DENSE;
	w.cache_bytes_per_value = 2;
	w.dims = d8;
	w.ndims = 2;
	CHECK(gs_sizing_workload(&w, &s, NULL) == 0);
	CHECK(s.kv_per_sequence.bytes == UINT64_C(1879048192));
	CHECK(s.kv_sequences == 8 && s.kv.bytes == UINT64_C(14) * 1073741824);
	/* counter-case: neither batch nor sequences: one sequence */
	w.dims = d1;
	w.ndims = 1;
	CHECK(gs_sizing_workload(&w, &s, NULL) == 0);
	CHECK(s.kv_sequences == 1 && s.kv.bytes == UINT64_C(1879048192));
	/* sequences (16 kept at once, 8 per step) counts over batch: 28 GiB */
	w.dims = ds;
	w.ndims = 3;
	CHECK(gs_sizing_workload(&w, &s, NULL) == 0);
	CHECK(s.kv_sequences == 16 && s.kv.bytes == UINT64_C(28) * 1073741824);
}

/* Fractional widths, in thousandths of a bit, exact and rounded up. */
static void test_fractional_bits(void)
{
	uint64_t w;
	int rounded = -1;
	char buf[GS_FMT_MAX];

	/* 7,000,000,001 x 4.5 / 8 = 3,937,500,000.5625 -> 3,937,500,001, rounded */
	CHECK(gs_sizing_weights_bytes_milli(7000000001ULL, 4500, &w, &rounded) == 0);
	CHECK_U64(w, 3937500001ULL);
	CHECK_INT(rounded, 1);
	/* 16 x 4.5 / 8 = 9 exactly */
	CHECK(gs_sizing_weights_bytes_milli(16, 4500, &w, &rounded) == 0 && w == 9 && rounded == 0);
	/* 1,000 x 4.125 / 8 = 515.625 -> 516 */
	CHECK(gs_sizing_weights_bytes_milli(1000, 4125, &w, &rounded) == 0 && w == 516 && rounded == 1);
	/* whole widths agree with gs_sizing_weights_bytes */
	CHECK(gs_sizing_weights_bytes_milli(7000000000ULL, 16000, &w, NULL) == 0 && w == 14000000000ULL);
	CHECK(gs_sizing_weights_bytes_milli(1, 999, &w, NULL) == -1);
	CHECK(gs_sizing_weights_bytes_milli(1, 64001, &w, NULL) == -1);
	/* UINT64_MAX x 64 / 8 overflows; x 8 / 8 does not */
	CHECK(gs_sizing_weights_bytes_milli(UINT64_MAX, 64000, &w, NULL) == -1);
	CHECK(gs_sizing_weights_bytes_milli(UINT64_MAX, 8000, &w, NULL) == 0 && w == UINT64_MAX);
	CHECK(gs_sizing_millibits_theoretical(4500) && !gs_sizing_millibits_theoretical(8000) &&
	      gs_sizing_millibits_theoretical(4000) && !gs_sizing_millibits_theoretical(16000));
	CHECK_STR(gs_qty_fmt_millibits(buf, 4500), "4.5");
	CHECK_STR(gs_qty_fmt_millibits(buf, 4125), "4.125");
	CHECK_STR(gs_qty_fmt_millibits(buf, 4050), "4.05");
	CHECK_STR(gs_qty_fmt_millibits(buf, 16000), "16");
}

int main(void)
{
	test_fractional_bits();
	test_weights();
	test_format_table();
	test_units();
	test_kv();
	test_kv_dtype();
	test_provenance();
	test_kv_batch();
	return gs_check_exit("test_sizing");
}
