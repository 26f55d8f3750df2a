/*
 * test_model: the model reader against small checkpoints written here, with
 * the expected bytes worked out by hand in the comments.
 *
 * The same writer produces the committed fixtures of tests/data/models/
 * (used by the CLI golden cases): each run regenerates them in a scratch
 * folder and checks they are byte-identical to the committed ones, so the
 * files the goldens read are the ones described here.
 * `test_model --write DIR` writes them into DIR (to refresh the fixtures).
 */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "diag.h"
#include "model.h"
#include "util.h"
#include "workload.h"
#include "sizing.h"

/* ------------------------------------------------------------ writers */

static void put_le(FILE *f, uint64_t v, int n)
{
	int i;

	for (i = 0; i < n; i++)
		fputc((int)((v >> (8 * i)) & 0xff), f);
}

static void zeros(FILE *f, uint64_t n)
{
	while (n--)
		fputc(0, f);
}

/* A safetensors file: 8-byte length, the header as given, `data` zero bytes. */
static void write_st(const char *path, uint64_t len_field, const char *header, uint64_t data)
{
	FILE *f = fopen(path, "wb");

	if (!f) {
		perror(path);
		exit(2);
	}
	put_le(f, len_field, 8);
	fputs(header, f);
	zeros(f, data);
	fclose(f);
}

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "wb");

	if (!f) {
		perror(path);
		exit(2);
	}
	fputs(text, f);
	fclose(f);
}

static void g_str(FILE *f, const char *s)
{
	put_le(f, strlen(s), 8);
	fputs(s, f);
}

static void g_kv_u32(FILE *f, const char *key, uint32_t v)
{
	g_str(f, key);
	put_le(f, 4, 4);   /* UINT32 */
	put_le(f, v, 4);
}

static void g_tensor(FILE *f, const char *name, uint64_t ne0, uint64_t ne1, int nd,
		     uint32_t type, uint64_t offset)
{
	g_str(f, name);
	put_le(f, (uint64_t)nd, 4);
	put_le(f, ne0, 8);
	if (nd > 1)
		put_le(f, ne1, 8);
	put_le(f, type, 4);
	put_le(f, offset, 8);
}

/*
 * tiny-llama: config.json of a Llama of hidden 8, 1 layer, 2 heads, 1 KV
 * head, MLP 16, vocabulary 10, tied embeddings, bfloat16. head_dim = 8/2 = 4.
 * Parameters of that geometry:
 *   embed 10 x 8 = 80 (tied: no lm_head)
 *   layer: q 8x8 = 64, k 8x4 = 32, v 32, o 64  -> 192
 *          gate, up, down 3 x 8 x 16           -> 384
 *          two RMS norms 2 x 8                 ->  16   = 592
 *   final norm 8                                        -> 80 + 592 + 8 = 680
 * The checkpoint: two shards and an index.
 *   shard 1 (BF16): embed [10,8] 160 B at 0; q [8,8] 128 B at 160;
 *                   k [4,8] 64 B at 288; v [4,8] 64 B at 352; o [8,8] 128 B at 416
 *                   -> 544 bytes of data
 *   shard 2: gate, up [16,8] BF16 256 B each at 0 and 256; down [8,16] BF16
 *            256 B at 512; input_layernorm, post_attention_layernorm, norm
 *            [8] F32 32 B each at 768, 800, 832; rotary inv_freq [2] F32
 *            8 B at 864 (a buffer) -> 872 bytes of data
 * Totals: BF16 80+192+384 = 656 values, 1,312 B; F32 24+2 = 26 values, 104 B;
 * 682 values, 1,416 B (index total_size 1416).
 * parameters x 16 bits = 682 x 2 = 1,364 B: 52 B less than the file, the F32
 * norms (24 x 2 extra bytes = 48) and the inv_freq buffer (2 x 2 = 4).
 */
static const char S_tiny_config[] =
	"{\n  \"architectures\": [\"LlamaForCausalLM\"],\n  \"model_type\": \"llama\",\n"
	"  \"hidden_size\": 8,\n  \"intermediate_size\": 16,\n  \"num_hidden_layers\": 1,\n"
	"  \"num_attention_heads\": 2,\n  \"num_key_value_heads\": 1,\n"
	"  \"vocab_size\": 10,\n  \"max_position_embeddings\": 64,\n"
	"  \"tie_word_embeddings\": true,\n  \"torch_dtype\": \"bfloat16\"\n}\n";

static const char S_shard1[] =
	"{\"__metadata__\":{\"format\":\"pt\"},"
	"\"model.embed_tokens.weight\":{\"dtype\":\"BF16\",\"shape\":[10,8],\"data_offsets\":[0,160]},"
	"\"model.layers.0.self_attn.q_proj.weight\":{\"dtype\":\"BF16\",\"shape\":[8,8],\"data_offsets\":[160,288]},"
	"\"model.layers.0.self_attn.k_proj.weight\":{\"dtype\":\"BF16\",\"shape\":[4,8],\"data_offsets\":[288,352]},"
	"\"model.layers.0.self_attn.v_proj.weight\":{\"dtype\":\"BF16\",\"shape\":[4,8],\"data_offsets\":[352,416]},"
	"\"model.layers.0.self_attn.o_proj.weight\":{\"dtype\":\"BF16\",\"shape\":[8,8],\"data_offsets\":[416,544]}}";

static const char S_shard2[] =
	"{\"model.layers.0.mlp.gate_proj.weight\":{\"dtype\":\"BF16\",\"shape\":[16,8],\"data_offsets\":[0,256]},"
	"\"model.layers.0.mlp.up_proj.weight\":{\"dtype\":\"BF16\",\"shape\":[16,8],\"data_offsets\":[256,512]},"
	"\"model.layers.0.mlp.down_proj.weight\":{\"dtype\":\"BF16\",\"shape\":[8,16],\"data_offsets\":[512,768]},"
	"\"model.layers.0.input_layernorm.weight\":{\"dtype\":\"F32\",\"shape\":[8],\"data_offsets\":[768,800]},"
	"\"model.layers.0.post_attention_layernorm.weight\":{\"dtype\":\"F32\",\"shape\":[8],\"data_offsets\":[800,832]},"
	"\"model.norm.weight\":{\"dtype\":\"F32\",\"shape\":[8],\"data_offsets\":[832,864]},"
	"\"model.layers.0.self_attn.rotary_emb.inv_freq\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[864,872]}}";

static const char S_tiny_index[] =
	"{\n  \"metadata\": {\"total_size\": 1416},\n  \"weight_map\": {\n"
	"    \"model.embed_tokens.weight\": \"model-00001-of-00002.safetensors\",\n"
	"    \"model.layers.0.self_attn.q_proj.weight\": \"model-00001-of-00002.safetensors\",\n"
	"    \"model.layers.0.self_attn.k_proj.weight\": \"model-00001-of-00002.safetensors\",\n"
	"    \"model.layers.0.self_attn.v_proj.weight\": \"model-00001-of-00002.safetensors\",\n"
	"    \"model.layers.0.self_attn.o_proj.weight\": \"model-00001-of-00002.safetensors\",\n"
	"    \"model.layers.0.mlp.gate_proj.weight\": \"model-00002-of-00002.safetensors\",\n"
	"    \"model.layers.0.mlp.up_proj.weight\": \"model-00002-of-00002.safetensors\",\n"
	"    \"model.layers.0.mlp.down_proj.weight\": \"model-00002-of-00002.safetensors\",\n"
	"    \"model.layers.0.input_layernorm.weight\": \"model-00002-of-00002.safetensors\",\n"
	"    \"model.layers.0.post_attention_layernorm.weight\": \"model-00002-of-00002.safetensors\",\n"
	"    \"model.norm.weight\": \"model-00002-of-00002.safetensors\",\n"
	"    \"model.layers.0.self_attn.rotary_emb.inv_freq\": \"model-00002-of-00002.safetensors\"\n"
	"  }\n}\n";

/*
 * tiny-gguf/model.gguf, version 3, alignment 32 (the default, also stated):
 *   metadata (6): general.architecture "llama", general.alignment 32,
 *     llama.block_count 1, llama.attention.head_count 2,
 *     llama.attention.head_count_kv 1, llama.embedding_length 256,
 *     llama.context_length 4096, tokenizer.ggml.tokens ["a","b","c"]
 *   tensors (4):
 *     token_embd.weight  Q4_K [256, 4]: 1 block of 256 per row x 144 B x 4 rows = 576 B at 0
 *     blk.0.attn_q.weight Q8_0 [256, 2]: 8 blocks of 32 x 34 B x 2 rows = 544 B at 576
 *     blk.0.ffn_down.weight Q6_K [256]: 1 block x 210 B = 210 B at 1120
 *     output_norm.weight F32 [256]: 256 x 4 = 1,024 B at 1344 (1330 aligned up to 32)
 *   data region: 1344 + 1024 = 2,368 B after the aligned end of the header.
 * Totals: 2,048 values, 576 + 544 + 210 + 1,024 = 2,354 B;
 * effective bits 2,354 x 8 / 2,048 = 9.195... -> 9.20.
 */
/* Variations of tiny-gguf for the hostile cases: version, the second
 * tensor's type and offset, and the last tensor's offset. */
typedef struct {
	uint32_t version, q_type;
	uint64_t q_offset, norm_offset;
} gguf_variant;

static const gguf_variant S_tiny = { 3, 8, 576, 1344 };

static size_t write_gguf_v(const char *path, const gguf_variant *v)
{
	FILE *f = fopen(path, "wb");
	long pos;

	if (!f) {
		perror(path);
		exit(2);
	}
	fputs("GGUF", f);
	put_le(f, v->version, 4);
	put_le(f, 4, 8);  /* tensors */
	put_le(f, 8, 8);  /* metadata */
	g_str(f, "general.architecture");
	put_le(f, 8, 4);
	g_str(f, "llama");
	g_kv_u32(f, "general.alignment", 32);
	g_kv_u32(f, "llama.block_count", 1);
	g_kv_u32(f, "llama.attention.head_count", 2);
	g_kv_u32(f, "llama.attention.head_count_kv", 1);
	g_kv_u32(f, "llama.embedding_length", 256);
	g_kv_u32(f, "llama.context_length", 4096);
	g_str(f, "tokenizer.ggml.tokens");
	put_le(f, 9, 4);   /* ARRAY */
	put_le(f, 8, 4);   /* of STRING */
	put_le(f, 3, 8);
	g_str(f, "a");
	g_str(f, "b");
	g_str(f, "c");
	g_tensor(f, "token_embd.weight", 256, 4, 2, 12, 0);
	g_tensor(f, "blk.0.attn_q.weight", 256, 2, 2, v->q_type, v->q_offset);
	g_tensor(f, "blk.0.ffn_down.weight", 256, 0, 1, 14, 1120);
	g_tensor(f, "output_norm.weight", 256, 0, 1, 0, v->norm_offset);
	pos = ftell(f);
	zeros(f, (uint64_t)((32 - pos % 32) % 32));
	zeros(f, 2368);
	fclose(f);
	return (size_t)pos;
}

static size_t write_gguf(const char *path)
{
	return write_gguf_v(path, &S_tiny);
}

/* A GGUF header with the given counts and nothing after (hostile counts). */
static void write_gguf_counts(const char *path, uint64_t nt, uint64_t nkv, uint64_t keylen)
{
	FILE *f = fopen(path, "wb");

	if (!f) {
		perror(path);
		exit(2);
	}
	fputs("GGUF", f);
	put_le(f, 3, 4);
	put_le(f, nt, 8);
	put_le(f, nkv, 8);
	if (keylen) {
		put_le(f, keylen, 8);  /* a key claiming keylen bytes, at byte 24 */
		fputs("general.name", f);
	}
	zeros(f, 64);
	fclose(f);
}

/* Hostile safetensors files, one per rule; each comment gives the offset. */
static void write_bad(const char *dir)
{
	char *p;
	static const char ovl[] =
		"{\"a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]},"
		"\"b\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[4,12]}}";
	static const char oor[] =
		"{\"a\":{\"dtype\":\"F32\",\"shape\":[4],\"data_offsets\":[0,16]}}";
	static const char unk[] =
		"{\"a\":{\"dtype\":\"F7\",\"shape\":[4],\"data_offsets\":[0,16]}}";
	static const char mis[] =
		"{\"a\":{\"dtype\":\"F16\",\"shape\":[4],\"data_offsets\":[0,16]}}";

	/* header length 1,000 in a file of 8 + 2 bytes: refused at byte 0 */
	p = gs_xasprintf("%s/st-header-beyond-file.safetensors", dir);
	write_st(p, 1000, "{}", 0);
	free(p);
	/* header length 200,000,000 > 100 MB: refused at byte 0, nothing allocated */
	p = gs_xasprintf("%s/st-header-too-large.safetensors", dir);
	write_st(p, 200000000, "{}", 0);
	free(p);
	/* "b" [4,12) overlaps "a" [0,8): data starts at 8 + header; b at +4 */
	p = gs_xasprintf("%s/st-overlap.safetensors", dir);
	write_st(p, strlen(ovl), ovl, 12);
	free(p);
	/* [0,16) but only 8 data bytes in the file */
	p = gs_xasprintf("%s/st-out-of-range.safetensors", dir);
	write_st(p, strlen(oor), oor, 8);
	free(p);
	p = gs_xasprintf("%s/st-unknown-dtype.safetensors", dir);
	write_st(p, strlen(unk), unk, 16);
	free(p);
	/* F16 x 4 = 8 bytes, offsets say 16 */
	p = gs_xasprintf("%s/st-size-mismatch.safetensors", dir);
	write_st(p, strlen(mis), mis, 16);
	free(p);
	/* 10^9 tensors in an 88-byte file: refused at byte 8 before any allocation */
	p = gs_xasprintf("%s/gguf-too-many-tensors.gguf", dir);
	write_gguf_counts(p, 1000000000, 0, 0);
	free(p);
	/* first key claims 2^40 bytes: refused at byte 24 */
	p = gs_xasprintf("%s/gguf-string-beyond-file.gguf", dir);
	write_gguf_counts(p, 0, 1, UINT64_C(1) << 40);
	free(p);
}

static void write_all(const char *dir)
{
	char *p;

	p = gs_xasprintf("%s/tiny-llama", dir);
	mkdir(p, 0777);
	free(p);
	p = gs_xasprintf("%s/tiny-llama/config.json", dir);
	write_text(p, S_tiny_config);
	free(p);
	p = gs_xasprintf("%s/tiny-llama/model.safetensors.index.json", dir);
	write_text(p, S_tiny_index);
	free(p);
	p = gs_xasprintf("%s/tiny-llama/model-00001-of-00002.safetensors", dir);
	write_st(p, strlen(S_shard1), S_shard1, 544);
	free(p);
	p = gs_xasprintf("%s/tiny-llama/model-00002-of-00002.safetensors", dir);
	write_st(p, strlen(S_shard2), S_shard2, 872);
	free(p);
	p = gs_xasprintf("%s/tiny-gguf", dir);
	mkdir(p, 0777);
	free(p);
	p = gs_xasprintf("%s/tiny-gguf/model.gguf", dir);
	write_gguf(p);
	free(p);
	p = gs_xasprintf("%s/bad", dir);
	mkdir(p, 0777);
	free(p);
	p = gs_xasprintf("%s/bad", dir);
	write_bad(p);
	free(p);
}

/* ------------------------------------------------------------ checks */

static char *S_dir;

static char *at(const char *rel)
{
	return gs_xasprintf("%s/%s", S_dir, rel);
}

static int same_file(const char *a, const char *b)
{
	FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
	int ca, cb, same = fa && fb;

	while (same) {
		ca = fgetc(fa);
		cb = fgetc(fb);
		if (ca != cb)
			same = 0;
		if (ca == EOF || cb == EOF)
			break;
	}
	if (fa)
		fclose(fa);
	if (fb)
		fclose(fb);
	return same;
}

static void test_fixtures_committed(void)
{
	static const char *const files[] = {
		"tiny-llama/config.json", "tiny-llama/model.safetensors.index.json",
		"tiny-llama/model-00001-of-00002.safetensors",
		"tiny-llama/model-00002-of-00002.safetensors", "tiny-gguf/model.gguf",
		"bad/st-header-beyond-file.safetensors", "bad/st-header-too-large.safetensors",
		"bad/st-overlap.safetensors", "bad/st-out-of-range.safetensors",
		"bad/st-unknown-dtype.safetensors", "bad/st-size-mismatch.safetensors",
		"bad/gguf-too-many-tensors.gguf", "bad/gguf-string-beyond-file.gguf", NULL
	};
	size_t i;

	for (i = 0; files[i]; i++) {
		char *mine = at(files[i]);
		char *committed = gs_xasprintf("%s/tests/data/models/%s", GS_TEST_SOURCE_DIR, files[i]);
		gs_check_at(same_file(mine, committed), __FILE__, __LINE__,
			    "committed fixture tests/data/models/%s differs from the writer's", files[i]);
		free(mine);
		free(committed);
	}
}

static void test_sharded(void)
{
	gs_model m;
	gs_diag d = GS_DIAG_INIT;
	char *p = at("tiny-llama");
	uint64_t v;

	if (CHECK(gs_model_read(p, &m, &d) == 0)) {
		CHECK_INT(m.arch, GS_ARCH_LLAMA);
		CHECK_INT(m.weights, GS_WEIGHTS_SAFETENSORS);
		CHECK_U64(m.head_dim, 4);            /* 8 / 2, no head_dim key */
		CHECK_INT(m.head_dim_explicit, 0);
		CHECK_INT(m.tied, 1);
		CHECK_U64(m.config_params, 680);     /* worked out above */
		CHECK_U64(m.header_params, 682);     /* + the 2-value inv_freq buffer */
		CHECK_U64(m.weight_bytes, 1416);
		CHECK_U64(m.index_total, 1416);
		CHECK_U64(m.ntensors, 12);
		if (CHECK_INT(m.ndtypes, 2)) {
			CHECK_STR(m.dtypes[0].name, "BF16");
			CHECK_U64(m.dtypes[0].params, 656);
			CHECK_U64(m.dtypes[0].bytes, 1312);
			CHECK_STR(m.dtypes[1].name, "F32");
			CHECK_U64(m.dtypes[1].params, 26);
			CHECK_U64(m.dtypes[1].bytes, 104);
		}
		CHECK_INT(m.buffers.n, 1);
		CHECK_U64(m.buffer_params, 2);
		CHECK_INT(m.weight_files.n, 2);
		CHECK(gs_model_params(&m, &v) == 0 && v == 682);
		CHECK_STR(gs_model_main_dtype(&m)->name, "BF16");
		gs_model_release(&m);
	}
	CHECK_INT(gs_diag_count(&d), 0);
	gs_diag_release(&d);
	free(p);
}

static void test_gguf(void)
{
	gs_model m;
	gs_diag d = GS_DIAG_INIT;
	char *p = at("tiny-gguf");

	if (CHECK(gs_model_read(p, &m, &d) == 0)) {
		CHECK_INT(m.weights, GS_WEIGHTS_GGUF);
		CHECK_INT(m.gguf_version, 3);
		CHECK_U64(m.header_params, 2048);
		CHECK_U64(m.weight_bytes, 2354);
		CHECK_STR(m.architecture, "llama");
		CHECK_U64(m.layers, 1);
		CHECK_U64(m.attention_heads, 2);
		CHECK_U64(m.kv_heads, 1);
		CHECK_U64(m.head_dim, 128);           /* 256 / 2 */
		CHECK_U64(m.context, 4096);
		CHECK_U64(m.vocab, 3);                /* the tokens array */
		if (CHECK_INT(m.ndtypes, 4)) {
			/* ggml type order: F32 (0), Q8_0 (8), Q4_K (12), Q6_K (14) */
			CHECK_STR(m.dtypes[0].name, "F32");
			CHECK_U64(m.dtypes[0].bytes, 1024);
			CHECK_STR(m.dtypes[1].name, "Q8_0");
			CHECK_U64(m.dtypes[1].bytes, 544);
			CHECK_STR(m.dtypes[2].name, "Q4_K");
			CHECK_U64(m.dtypes[2].bytes, 576);
			CHECK_STR(m.dtypes[3].name, "Q6_K");
			CHECK_U64(m.dtypes[3].bytes, 210);
		}
		gs_model_release(&m);
	}
	gs_diag_release(&d);
	free(p);
}

static void test_ggml_table(void)
{
	const char *n;
	uint64_t b, s;

	/* Q4_K: d, dmin (2 x 2 B) + 12 B of scales + 128 B of 4-bit values = 144 */
	CHECK(gs_model_ggml_type(12, &n, &b, &s) == 0 && b == 256 && s == 144);
	/* Q4_0: one fp16 scale + 16 B = 18 per 32 values: 4.5 bits */
	CHECK(gs_model_ggml_type(2, &n, &b, &s) == 0 && b == 32 && s == 18);
	/* Q6_K: 128 + 64 + 16 + 2 = 210 */
	CHECK(gs_model_ggml_type(14, &n, &b, &s) == 0 && s == 210);
	CHECK(gs_model_ggml_type(30, &n, &b, &s) == 0 && STREQ(n, "BF16") && s == 2);
	CHECK(gs_model_ggml_type(4, &n, &b, &s) == -1);   /* Q4_2, removed */
	CHECK(gs_model_ggml_type(31, &n, &b, &s) == -1);  /* Q4_0_4_4, removed */
	CHECK(gs_model_safetensors_dtype_bits("BF16") == 16 && gs_model_safetensors_dtype_bits("F8_E4M3") == 8);
	CHECK(gs_model_safetensors_dtype_bits("F7") == 0);
}

/* Reads a hostile file; checks the message holds `want` (file and offset). */
static void bad(const char *rel, const char *want)
{
	gs_model m;
	gs_diag d = GS_DIAG_INIT;
	char *p = at(rel);
	int rc = gs_model_read(p, &m, &d);

	CHECK_INT(rc, -1);
	if (CHECK(gs_diag_count(&d) >= 1))
		gs_check_at(strstr(d.items[0].message, want) != NULL && STREQ(d.items[0].file, p),
			    __FILE__, __LINE__, "%s: message \"%s\" lacks \"%s\"", rel,
			    d.items[0].message, want);
	gs_diag_release(&d);
	free(p);
}

/*
 * GGUF variants of tiny-gguf. Its header: 24 bytes (magic, version, two
 * counts); the key-values 45 + 33 + 33 + 42 + 45 + 38 + 36 + 72 = 344 (each
 * key 8 + its length, 4 of type, the value; the tokens array 4 + 8 + 3 x 9);
 * the tensor infos 57 + 59 + 53 + 50 = 219 (name 8 + length, 4 + 8 per
 * dimension, 4 of type, 8 of offset). It ends at byte 587, so the data
 * region starts at 608 (aligned to 32) and holds 2,368 bytes: 2,976 in all.
 */
static void test_gguf_variants(void)
{
	static const struct {
		gguf_variant v;
		const char *want;  /* NULL: read fine */
	} cases[] = {
		/* version 2 has the same layout */
		{ { 2, 8, 576, 1344 }, NULL },
		{ { 1, 8, 576, 1344 }, "at byte 4: GGUF version 1 (this gpusheet reads 2 and 3)" },
		/* Q8_0 at 512 overlaps token_embd [0, 576): 608 + 512 = byte 1120 */
		{ { 3, 8, 512, 1344 }, "at byte 1120: tensor \"blk.0.attn_q.weight\" at offset 512 overlaps \"token_embd.weight\" (which ends at 576)" },
		/* 600 is not a multiple of 32 */
		{ { 3, 8, 600, 1344 }, "offset 600 is not a multiple of the alignment 32" },
		/* F32 [256] = 1,024 B at 1,376 ends at 2,400 > 2,368: byte 608 + 1,376 */
		{ { 3, 8, 576, 1376 }, "at byte 1984: tensor \"output_norm.weight\": 1024 bytes at offset 1376 go beyond the file" },
		/* type 4 (Q4_2) was removed */
		{ { 3, 4, 576, 1344 }, "unknown ggml type 4" },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *p = at("variant.gguf");
		gs_model m;
		gs_diag d = GS_DIAG_INIT;
		size_t hdr = write_gguf_v(p, &cases[i].v);
		int rc = gs_model_read(p, &m, &d);

		CHECK_INT(hdr, 587);
		if (!cases[i].want) {
			if (CHECK_INT(rc, 0)) {
				CHECK_INT(m.gguf_version, cases[i].v.version);
				CHECK_U64(m.weight_bytes, 2354);
				gs_model_release(&m);
			}
		} else if (CHECK_INT(rc, -1) && CHECK(gs_diag_count(&d) >= 1)) {
			gs_check_at(strstr(d.items[0].message, cases[i].want) != NULL, __FILE__,
				    __LINE__, "case %zu: \"%s\" lacks \"%s\"", i, d.items[0].message,
				    cases[i].want);
		}
		gs_diag_release(&d);
		free(p);
	}
}

/* layer_types states the per-layer window pattern. */
static void test_layer_types(void)
{
	static const char cfg[] =
		"{\"model_type\": \"gemma2\", \"hidden_size\": 8, \"num_hidden_layers\": 4, "
		"\"num_attention_heads\": 2, \"num_key_value_heads\": 1, \"head_dim\": 4, "
		"\"intermediate_size\": 16, \"vocab_size\": 10, \"sliding_window\": 32, "
		"\"layer_types\": [%s]}";
	static const struct {
		const char *types;
		int ok, has_window;
		uint64_t sliding;
		const char *pattern;
	} cases[] = {
		{ "\"sliding_attention\", \"full_attention\", \"sliding_attention\", \"full_attention\"",
		  1, 1, 2, "layer_types" },
		{ "\"sliding_attention\", \"sliding_attention\", \"sliding_attention\", \"sliding_attention\"",
		  1, 1, 4, "every_layer" },
		/* no sliding layer: no window applies */
		{ "\"full_attention\", \"full_attention\", \"full_attention\", \"full_attention\"",
		  1, 0, 0, NULL },
		{ "\"sliding_attention\"", 0, 0, 0, NULL },  /* not one per layer */
		{ "\"sliding\", \"full_attention\", \"full_attention\", \"full_attention\"", 0, 0, 0, NULL },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *p = at("config.json"), *text = gs_xasprintf(cfg, cases[i].types);
		gs_model m;
		gs_diag d = GS_DIAG_INIT;
		int rc;

		write_text(p, text);
		rc = gs_model_read(p, &m, &d);
		gs_check_at((rc == 0) == cases[i].ok, __FILE__, __LINE__, "layer_types case %zu: %d", i, rc);
		if (rc == 0) {
			CHECK_INT(m.has_sliding_window, cases[i].has_window);
			CHECK_U64(m.sliding_layers, cases[i].sliding);
			if (cases[i].pattern)
				CHECK_STR(m.sliding_pattern, cases[i].pattern);
			else
				CHECK(m.sliding_pattern == NULL);
			gs_model_release(&m);
		} else if (CHECK(gs_diag_count(&d) >= 1)) {
			CHECK(d.items[0].path && strncmp(d.items[0].path, "$.layer_types", 13) == 0);
		}
		gs_diag_release(&d);
		free(text);
		free(p);
	}
}

/* A FIFO named like a checkpoint: refused before opening (opening would block). */
static void test_fifo(void)
{
	char *p = at("fifo.safetensors");
	gs_model m;
	gs_diag d = GS_DIAG_INIT;

	if (CHECK(mkfifo(p, 0600) == 0)) {
		CHECK_INT(gs_model_read(p, &m, &d), -1);
		if (CHECK(gs_diag_count(&d) == 1))
			CHECK_STR(d.items[0].message, "is a FIFO, not a regular file");
	}
	gs_diag_release(&d);
	free(p);
}

/* config.json with a wrong type: refused with its JSON path. */
static void test_bad_config(void)
{
	char *p = at("config.json");
	gs_model m;
	gs_diag d = GS_DIAG_INIT;

	write_text(p, "{\"model_type\": \"llama\", \"hidden_size\": \"4096\"}");
	CHECK_INT(gs_model_read(p, &m, &d), -1);
	if (CHECK(gs_diag_count(&d) >= 1))
		CHECK(STREQ(d.items[0].path, "$.hidden_size"));
	gs_diag_release(&d);
	/* hidden 10 over 3 heads, no head_dim: refused, not rounded */
	write_text(p, "{\"model_type\": \"llama\", \"hidden_size\": 10, \"num_attention_heads\": 3}");
	CHECK_INT(gs_model_read(p, &m, &d), -1);
	if (CHECK(gs_diag_count(&d) >= 1))
		CHECK(strstr(d.items[0].message, "not a multiple") != NULL);
	gs_diag_release(&d);
	free(p);
}

static void test_hostile(void)
{
	bad("bad/st-header-beyond-file.safetensors", "at byte 0: header length 1000 goes beyond the file (10 bytes)");
	bad("bad/st-header-too-large.safetensors", "at byte 0: header length 200000000 is above the 100000000-byte limit");
	/* header of 108 bytes (the file is 8 + 108 + 12 = 128): data at 116, "b" 4 bytes in */
	bad("bad/st-overlap.safetensors", "at byte 120: tensor \"b\" at data offset 4 overlaps \"a\"");
	bad("bad/st-out-of-range.safetensors", "tensor \"a\": data_offsets [0, 16] end beyond the file");
	bad("bad/st-unknown-dtype.safetensors", "unknown dtype \"F7\"");
	bad("bad/st-size-mismatch.safetensors", "span 16 bytes, but F16 x shape is 8 bytes");
	bad("bad/gguf-too-many-tensors.gguf", "at byte 8: tensor count 1000000000");
	bad("bad/gguf-string-beyond-file.gguf", "at byte 24: metadata key: string of 1099511627776 bytes is longer than the rest of the file");
}

/* Workloads that read their model: the committed sheets next to the fixtures. */
static void test_workload_from(void)
{
	gs_workload w;
	gs_sizing sz;
	gs_diag d = GS_DIAG_INIT;

	char *p = gs_xasprintf("%s/tests/data/models/workload-from-tiny.json", GS_TEST_SOURCE_DIR);

	if (CHECK(gs_workload_read(p, &w, &d) == 0)) {
		CHECK_U64(w.parameters, 682);            /* the headers' count */
		CHECK(w.has_weights_bytes && w.weights_bytes == 1416);
		CHECK_INT(w.weights_from_index, 0);
		CHECK(w.has_kv_geometry && w.layers == 1 && w.attention_heads == 2 &&
		      w.kv_heads == 1 && w.head_dim == 4);
		CHECK_INT(w.storage_bits, 16);           /* BF16 holds the most bytes */
		CHECK_STR(w.storage_format, "bf16");
		CHECK_STR(w.compute_format, "bf16");
		CHECK_STR(w.model_name, "tiny-llama");
		CHECK_STR(w.geometry_source, "tiny-llama/config.json");
		CHECK_STR(w.weights_source, "tiny-llama/model-00001-of-00002.safetensors, "
			  "tiny-llama/model-00002-of-00002.safetensors");
		if (CHECK(gs_sizing_workload(&w, &sz, NULL) == 0)) {
			/* the checkpoint's bytes, not 682 x 16 / 8 = 1,364 */
			CHECK_U64(sz.weights.bytes, 1416);
			CHECK_INT(sz.weights.prov, GS_PROV_CALCULATED);
			CHECK_INT(sz.theoretical, 0);
			/* KV: 2 x 1 layer x 1 KV head x 4 x (48 + 16) tokens x 2 B x 2 sequences */
			CHECK_U64(sz.kv.bytes, 2048);
		}
		gs_workload_release(&w);
	}
	gs_diag_release(&d);
	free(p);

	p = gs_xasprintf("%s/tests/data/models/workload-from-disagree.json", GS_TEST_SOURCE_DIR);
	CHECK(gs_workload_read(p, &w, &d) == -1);
	/* parameters, kv_heads and storage_bits disagree: three errors, each with both values */
	if (CHECK_INT(gs_diag_count(&d), 3)) {
		CHECK(STREQ(d.items[0].path, "$.model.parameters") &&
		      strstr(d.items[0].message, "680 here but 682") != NULL);
		CHECK(STREQ(d.items[1].path, "$.model.kv_heads") &&
		      strstr(d.items[1].message, "2 here but 1 in tiny-llama/config.json") != NULL);
		CHECK(STREQ(d.items[2].path, "$.weights.storage_bits") &&
		      strstr(d.items[2].message, "8 here but") != NULL);
	}
	gs_diag_release(&d);
	free(p);
}

/* weights.storage_bits: a decimal of at most 3 places, kept exactly. */
static void test_workload_fractional_bits(void)
{
	static const char head[] =
		"{\"schema\": \"gpusheet-workload\", \"schema_version\": 1, \"id\": \"frac\", "
		"\"title\": \"t\", \"model\": {\"name\": \"m\", \"parameters\": 7000000001}, "
		"\"task\": \"inference\", \"weights\": {\"storage_bits\": ";
	static const char tail[] =
		", \"storage_format\": \"q4\", \"compute_format\": \"f16\"}, "
		"\"dimensions\": {\"batch\": 1}, \"inputs\": {\"usual\": {\"description\": \"a\"}, "
		"\"long\": {\"description\": \"b\"}, \"limit\": {\"description\": \"c\"}}}";
	static const struct {
		const char *bits;
		int ok;
		uint64_t milli;
	} cases[] = {
		{ "4.5", 1, 4500 }, { "4.125", 1, 4125 }, { "16", 1, 16000 }, { "16.0", 1, 16000 },
		{ "4.5001", 0, 0 }, { "0.5", 0, 0 }, { "64.001", 0, 0 }, { "1e1", 1, 10000 },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *p = at("frac.json"), *text = gs_xasprintf("%s%s%s", head, cases[i].bits, tail);
		gs_workload w;
		gs_sizing sz;
		gs_diag d = GS_DIAG_INIT;

		int rc;

		write_text(p, text);
		rc = gs_workload_read(p, &w, &d);
		gs_check_at((rc == 0) == cases[i].ok, __FILE__, __LINE__,
			    "storage_bits %s: read returned %d", cases[i].bits, rc);
		if (rc == 0) {
			CHECK_U64(w.storage_millibits, cases[i].milli);
			if (cases[i].milli == 4500 && CHECK(gs_sizing_workload(&w, &sz, NULL) == 0)) {
				/* 7,000,000,001 x 4.5 / 8 = 3,937,500,000.5625 -> rounded up */
				CHECK_U64(sz.weights.bytes, 3937500001ULL);
				CHECK(sz.rounded && sz.theoretical);
			}
			gs_workload_release(&w);
		}
		gs_diag_release(&d);
		free(text);
		free(p);
	}
}

/*
 * The tensors tensor parallelism replicates (docs/formats.md §5.2): in
 * tiny-llama the three float32 norms of 8 values, 3 x 32 = 96 B of the
 * 1,416; the embeddings, the projections and the inv_freq buffer are not.
 * Without every header (a GGUF file, a config.json alone) it is unknown.
 */
static void test_replicated(void)
{
	static const struct { const char *name; int rep; } names[] = {
		{ "model.layers.0.input_layernorm.weight", 1 },
		{ "model.layers.0.post_attention_layernorm.weight", 1 },
		{ "model.norm.weight", 1 },
		{ "model.layers.3.self_attn.q_norm.weight", 1 },
		{ "model.layers.3.pre_feedforward_layernorm.weight", 1 },
		{ "gpt_neox.final_layer_norm.bias", 1 },
		{ "transformer.ln_f.weight", 1 },
		{ "transformer.h.0.ln_attn.bias", 1 },
		{ "model.layers.0.self_attn.o_proj.bias", 1 },
		{ "gpt_neox.layers.0.attention.dense.bias", 1 },
		{ "gpt_neox.layers.0.mlp.dense_4h_to_h.bias", 1 },
		{ "model.layers.0.block_sparse_moe.gate.weight", 1 },
		{ "model.layers.0.mlp.gate.weight", 1 },
		/* split: by vocabulary, by columns, or by rows */
		{ "model.embed_tokens.weight", 0 },
		{ "lm_head.weight", 0 },
		{ "model.layers.0.self_attn.q_proj.bias", 0 },
		{ "model.layers.0.self_attn.o_proj.weight", 0 },
		{ "model.layers.0.mlp.gate_proj.weight", 0 },
		{ "gpt_neox.layers.0.mlp.dense_h_to_4h.bias", 0 },
		{ "model.layers.0.self_attn.rotary_emb.inv_freq", 0 },
		{ "gpt_neox.layers.0.attention.bias", 0 },
		{ "model.layers.0.mlp.down_proj.weight", 0 },
	};
	gs_model m;
	gs_diag d = GS_DIAG_INIT;
	char *p;
	uint64_t bytes = 0, tensors = 0;
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!CHECK_INT(gs_model_tensor_replicated(names[i].name), names[i].rep))
			fprintf(stderr, "  tensor %s\n", names[i].name);
	p = at("tiny-llama");
	if (CHECK(gs_model_read(p, &m, &d) == 0)) {
		CHECK(gs_model_replicated(&m, &bytes, &tensors) == 0);
		CHECK_U64(bytes, 96);
		CHECK_U64(tensors, 3);
		gs_model_release(&m);
	}
	free(p);
	p = at("tiny-llama/config.json");
	if (CHECK(gs_model_read(p, &m, &d) == 0)) {
		CHECK(gs_model_replicated(&m, &bytes, NULL) == -1);
		gs_model_release(&m);
	}
	free(p);
	p = at("tiny-gguf");
	if (CHECK(gs_model_read(p, &m, &d) == 0)) {
		CHECK(gs_model_replicated(&m, &bytes, NULL) == -1);
		gs_model_release(&m);
	}
	free(p);
	gs_diag_release(&d);
}

/*
 * Parameters per kind from the headers (gs_model_param_kinds). tiny-llama's
 * real shards: embeddings 10 x 8 = 80 (tied: no head); attention q 8 x 8,
 * k 4 x 8, v 4 x 8, o 8 x 8 = 192; MLP gate, up 16 x 8 and down 8 x 16 =
 * 384; norms 8 + 8 + 8 = 24; the inv_freq buffer no kind: 680, the
 * geometry's count. LoRA's rows + columns per role: q 16, k 12, v 12, o
 * 16, gate 24, up 24, down 24 (rank 4 on all: 4 x 128 = 512). Linear 576.
 * Names of the published checkpoints (Mixtral, DeepSeek-V3, Qwen2-MoE,
 * GPT-NeoX, Llama 4) each to its kind and role; a router's role whatever
 * the architecture (the recipe counts it where the router is linear).
 */
static void test_param_kinds(void)
{
	static const struct { const char *name; int kind; const char *role; } names[] = {
		{ "model.embed_tokens.weight", GS_PK_EMBED, NULL },
		{ "lm_head.weight", GS_PK_HEAD, NULL },
		{ "gpt_neox.embed_in.weight", GS_PK_EMBED, NULL },
		{ "embed_out.weight", GS_PK_HEAD, NULL },
		{ "model.layers.0.self_attn.q_proj.weight", GS_PK_ATTENTION, "q_proj" },
		{ "model.layers.0.self_attn.q_proj.bias", GS_PK_ATTENTION, NULL },
		{ "model.layers.3.self_attn.q_a_proj.weight", GS_PK_ATTENTION, "q_a_proj" },
		{ "model.layers.3.self_attn.q_a_layernorm.weight", GS_PK_NORM, NULL },
		{ "model.layers.3.self_attn.kv_a_proj_with_mqa.weight", GS_PK_ATTENTION,
		  "kv_a_proj_with_mqa" },
		{ "model.layers.3.self_attn.kv_b_proj.weight_scale_inv", GS_PK_SCALE, NULL },
		{ "gpt_neox.layers.0.attention.query_key_value.weight", GS_PK_ATTENTION,
		  "query_key_value" },
		{ "gpt_neox.layers.0.attention.dense.weight", GS_PK_ATTENTION, "dense" },
		{ "gpt_neox.layers.0.mlp.dense_h_to_4h.weight", GS_PK_DENSE, "dense_h_to_4h" },
		{ "gpt_neox.layers.0.mlp.dense_4h_to_h.weight", GS_PK_DENSE, "dense_4h_to_h" },
		{ "model.layers.0.self_attn.qkv_proj.weight", GS_PK_ATTENTION, "qkv_proj" },
		{ "model.layers.0.mlp.gate_up_proj.weight", GS_PK_DENSE, "gate_up_proj" },
		{ "model.layers.0.mlp.down_proj.weight", GS_PK_DENSE, "down_proj" },
		{ "model.layers.3.mlp.experts.255.up_proj.weight", GS_PK_ROUTED, "up_proj" },
		{ "model.layers.3.mlp.shared_experts.gate_proj.weight", GS_PK_SHARED, "gate_proj" },
		{ "model.layers.0.mlp.shared_expert.down_proj.weight", GS_PK_SHARED, "down_proj" },
		{ "model.layers.0.mlp.shared_expert_gate.weight", GS_PK_ROUTER, "shared_expert_gate" },
		{ "model.layers.3.mlp.gate.weight", GS_PK_ROUTER, "gate" },
		{ "model.layers.3.mlp.gate.e_score_correction_bias", GS_PK_ROUTER, NULL },
		{ "model.layers.0.block_sparse_moe.gate.weight", GS_PK_ROUTER, "gate" },
		{ "language_model.model.layers.1.feed_forward.router.weight", GS_PK_ROUTER, "router" },
		{ "visual.blocks.0.attn.qkv.weight", GS_PK_ATTENTION, "attn.qkv" },
		{ "visual.blocks.31.attn.proj.weight", GS_PK_ATTENTION, "attn.proj" },
		{ "visual.blocks.0.mlp.gate_proj.weight", GS_PK_DENSE, "gate_proj" },
		{ "visual.merger.mlp.0.weight", GS_PK_DENSE, "merger.mlp.0" },
		{ "visual.merger.mlp.2.weight", GS_PK_DENSE, "merger.mlp.2" },
		{ "visual.merger.ln_q.weight", GS_PK_NORM, NULL },
		{ "model.layers.0.mlp.gate_proj.weight", GS_PK_DENSE, "gate_proj" },
		{ "model.layers.0.block_sparse_moe.experts.7.w1.weight", GS_PK_ROUTED, "gate_proj" },
		{ "model.layers.0.block_sparse_moe.experts.7.w3.weight", GS_PK_ROUTED, "up_proj" },
		{ "model.layers.0.block_sparse_moe.experts.7.w2.weight", GS_PK_ROUTED, "down_proj" },
		{ "model.layers.0.input_layernorm.weight", GS_PK_NORM, NULL },
		{ "model.norm.weight", GS_PK_NORM, NULL },
		{ "model.layers.61.eh_proj.weight", GS_PK_OTHER, NULL },
		{ "model.layers.0.self_attn.rotary_emb.inv_freq", GS_PK_COUNT, NULL },
	};
	gs_model m;
	gs_model_pkinds k;
	gs_diag d = GS_DIAG_INIT;
	char *p;
	size_t i;
	int role;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		int kind = (int)gs_model_tensor_kind(names[i].name, &role);
		if (!CHECK_INT(kind, names[i].kind) ||
		    !CHECK_STR(role >= 0 ? gs_model_lora_roles[role] : "(none)",
			       names[i].role ? names[i].role : "(none)"))
			fprintf(stderr, "  tensor %s\n", names[i].name);
	}
	p = at("tiny-llama");
	if (CHECK(gs_model_read(p, &m, &d) == 0)) {
		CHECK(gs_model_param_kinds(&m, &k) == 0);
		CHECK_U64(k.params[GS_PK_EMBED], 80);
		CHECK_U64(k.params[GS_PK_HEAD], 0);
		CHECK_U64(k.params[GS_PK_ATTENTION], 192);
		CHECK_U64(k.params[GS_PK_DENSE], 384);
		CHECK_U64(k.params[GS_PK_NORM], 24);
		CHECK_U64(k.params[GS_PK_OTHER], 0);
		CHECK_U64(k.params[GS_PK_BEYOND], 0);
		CHECK_U64(k.total, 680);
		CHECK_U64(k.linear, 576);
		CHECK_U64(k.lora_io[0], 16);    /* q_proj */
		CHECK_U64(k.lora_io[3], 12);    /* k_proj */
		CHECK_U64(k.lora_io[4], 12);    /* v_proj */
		CHECK_U64(k.lora_io[7], 16);    /* o_proj */
		CHECK_U64(k.lora_io[8] + k.lora_io[9] + k.lora_io[10], 72);
		gs_model_release(&m);
	}
	free(p);
	/* tiny-gguf's header, by llama.cpp's names: token_embd [256, 4] 1,024
	 * embeddings; blk.0.attn_q [256, 2] 512 attention, q_proj's rows +
	 * columns 256 + 2 = 258; blk.0.ffn_down [256] 256 dense MLP, one
	 * dimension: no matrix, no role; output_norm 256 norms. Whatever the
	 * quantised type (Q4_K, Q8_0, Q6_K), the elements are the product of
	 * the dimensions: 2,048, the header's count. */
	p = at("tiny-gguf");
	if (CHECK(gs_model_read(p, &m, &d) == 0)) {
		CHECK(gs_model_param_kinds(&m, &k) == 0);
		CHECK_U64(k.params[GS_PK_EMBED], 1024);
		CHECK_U64(k.params[GS_PK_ATTENTION], 512);
		CHECK_U64(k.params[GS_PK_DENSE], 256);
		CHECK_U64(k.params[GS_PK_NORM], 256);
		CHECK_U64(k.params[GS_PK_HEAD], 0);
		CHECK_U64(k.params[GS_PK_OTHER], 0);
		CHECK_U64(k.total, 2048);
		CHECK_U64(k.linear, 512);
		CHECK_U64(k.lora_io[0], 258);   /* q_proj */
		CHECK_U64(k.lora_io[10], 0);    /* down_proj: a vector, no matrix */
		gs_model_release(&m);
	}
	free(p);
	/* no headers: no kinds */
	p = at("tiny-llama/config.json");
	if (CHECK(gs_model_read(p, &m, &d) == 0)) {
		CHECK(gs_model_param_kinds(&m, &k) == -1);
		gs_model_release(&m);
	}
	free(p);
	gs_diag_release(&d);
}

int main(int argc, char **argv)
{
	char tmpl[] = "/tmp/gs-test-model-XXXXXX";

	if (argc == 3 && strcmp(argv[1], "--write") == 0) {
		write_all(argv[2]);
		return 0;
	}
	S_dir = mkdtemp(tmpl);
	if (!S_dir) {
		perror("mkdtemp");
		return 2;
	}
	write_all(S_dir);
	test_fixtures_committed();
	test_sharded();
	test_gguf();
	test_ggml_table();
	test_hostile();
	test_gguf_variants();
	test_bad_config();
	test_fifo();
	test_layer_types();
	test_workload_from();
	test_workload_fractional_bits();
	test_replicated();
	test_param_kinds();
	{
		char *cmd = gs_xasprintf("rm -rf '%s'", S_dir);
		if (system(cmd) != 0)
			fprintf(stderr, "cannot remove %s\n", S_dir);
		free(cmd);
	}
	return gs_check_exit("test_model");
}
