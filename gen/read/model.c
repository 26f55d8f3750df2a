/* model: geometry and exact weight bytes from a model's own files (model.h). */
#define _DEFAULT_SOURCE
#include "model.h"
#include "model_int.h"
#include "hfcache.h"
#include "ollama.h"
#include "infile.h"
#include "jsonread.h"
#include "quantity.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Geometry values above this are typos, not models. */
#define S_MAX_DIM UINT64_C(16777216)
/* GGUF key and tensor names: ggml keeps names of 64 bytes; keys are short. */
#define S_MAX_NAME UINT64_C(65535)
#define S_GGUF_MAX_DIMS 4

/* ---------------------------------------------------------------- tables */

static const struct {
	const char *name;
	unsigned bits;
} S_st_dtypes[] = {
	{ "F64", 64 }, { "I64", 64 }, { "U64", 64 },
	{ "F32", 32 }, { "I32", 32 }, { "U32", 32 },
	{ "BF16", 16 }, { "F16", 16 }, { "I16", 16 }, { "U16", 16 },
	{ "F8_E4M3", 8 }, { "F8_E5M2", 8 }, { "I8", 8 }, { "U8", 8 }, { "BOOL", 8 },
};
#define S_NST (sizeof(S_st_dtypes) / sizeof(S_st_dtypes[0]))

unsigned gs_model_safetensors_dtype_bits(const char *dtype)
{
	size_t i;

	for (i = 0; i < S_NST; i++)
		if (strcmp(S_st_dtypes[i].name, dtype) == 0)
			return S_st_dtypes[i].bits;
	return 0;
}

/*
 * ggml's type table (ggml.h enum ggml_type and the block structs of
 * ggml-common.h): values per block and bytes per block. Numbers 4, 5,
 * 31-33 and 36-38 were removed from GGUF files and are refused.
 */
static const struct {
	unsigned type;
	const char *name;
	uint64_t block, bytes;
} S_ggml[] = {
	{ 0, "F32", 1, 4 },          { 1, "F16", 1, 2 },
	{ 2, "Q4_0", 32, 18 },       { 3, "Q4_1", 32, 20 },
	{ 6, "Q5_0", 32, 22 },       { 7, "Q5_1", 32, 24 },
	{ 8, "Q8_0", 32, 34 },       { 9, "Q8_1", 32, 36 },
	{ 10, "Q2_K", 256, 84 },     { 11, "Q3_K", 256, 110 },
	{ 12, "Q4_K", 256, 144 },    { 13, "Q5_K", 256, 176 },
	{ 14, "Q6_K", 256, 210 },    { 15, "Q8_K", 256, 292 },
	{ 16, "IQ2_XXS", 256, 66 },  { 17, "IQ2_XS", 256, 74 },
	{ 18, "IQ3_XXS", 256, 98 },  { 19, "IQ1_S", 256, 50 },
	{ 20, "IQ4_NL", 32, 18 },    { 21, "IQ3_S", 256, 110 },
	{ 22, "IQ2_S", 256, 82 },    { 23, "IQ4_XS", 256, 136 },
	{ 24, "I8", 1, 1 },          { 25, "I16", 1, 2 },
	{ 26, "I32", 1, 4 },         { 27, "I64", 1, 8 },
	{ 28, "F64", 1, 8 },         { 29, "IQ1_M", 256, 56 },
	{ 30, "BF16", 1, 2 },        { 34, "TQ1_0", 256, 54 },
	{ 35, "TQ2_0", 256, 66 },    { 39, "MXFP4", 32, 17 },
};
#define S_NGGML (sizeof(S_ggml) / sizeof(S_ggml[0]))

int gs_model_ggml_type(unsigned type, const char **name, uint64_t *block, uint64_t *block_bytes)
{
	size_t i;

	for (i = 0; i < S_NGGML; i++) {
		if (S_ggml[i].type == type) {
			if (name)
				*name = S_ggml[i].name;
			if (block)
				*block = S_ggml[i].block;
			if (block_bytes)
				*block_bytes = S_ggml[i].bytes;
			return 0;
		}
	}
	return -1;
}

/* ---------------------------------------------------------------- helpers */

static void S_err(gs_diag *d, const char *file, uint64_t offset, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void S_err(gs_diag *d, const char *file, uint64_t offset, const char *fmt, ...)
{
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	msg = gs_xvasprintf(fmt, ap);
	va_end(ap);
	gs_diag_add(d, file, 0, 0, NULL, "at byte %llu: %s", (unsigned long long)offset, msg);
	free(msg);
}

static int S_has_suffix(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && strcmp(s + a - b, suffix) == 0;
}

static char *S_join(const char *dir, const char *name)
{
	size_t n = strlen(dir);

	if (n == 0)
		return gs_xstrdup(name);
	return gs_xasprintf("%s%s%s", dir, dir[n - 1] == '/' ? "" : "/", name);
}

static uint64_t S_le64(const unsigned char *p)
{
	uint64_t v = 0;
	int i;

	for (i = 7; i >= 0; i--)
		v = (v << 8) | p[i];
	return v;
}

static uint32_t S_le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Adds a per-dtype row (found by name) and its totals; -1 on overflow. */
static int S_dtype_add(gs_model *m, const char *name, uint64_t block, uint64_t block_bytes,
		       uint64_t params, uint64_t bytes)
{
	size_t i;
	gs_model_dtype *t = NULL;

	for (i = 0; i < m->ndtypes; i++)
		if (strcmp(m->dtypes[i].name, name) == 0)
			t = &m->dtypes[i];
	if (!t) {
		m->dtypes = gs_xrealloc(m->dtypes, (m->ndtypes + 1) * sizeof(*m->dtypes));
		t = &m->dtypes[m->ndtypes++];
		memset(t, 0, sizeof(*t));
		t->name = name;
		t->block = block;
		t->block_bytes = block_bytes;
	}
	t->tensors++;
	if (gs_qty_add_u64(t->params, params, &t->params) || gs_qty_add_u64(t->bytes, bytes, &t->bytes) ||
	    gs_qty_add_u64(m->header_params, params, &m->header_params) ||
	    gs_qty_add_u64(m->weight_bytes, bytes, &m->weight_bytes) ||
	    gs_qty_add_u64(m->ntensors, 1, &m->ntensors))
		return -1;
	return 0;
}

int gs_model_tensor_replicated(const char *name)
{
	static const char *const whole[] = {
		/* biases of row-parallel layers: each rank adds them whole after
		 * the all-reduce (vLLM RowParallelLinear, Megatron-LM's too) */
		".o_proj.bias", ".down_proj.bias", ".dense.bias", ".dense_4h_to_h.bias",
		".c_proj.bias", ".out_proj.bias", ".fc2.bias",
		/* the routers of mixtures of experts (vLLM ReplicatedLinear) */
		".block_sparse_moe.gate.weight", ".mlp.gate.weight", ".shared_expert_gate.weight",
	};
	const char *p = name;
	size_t i;

	if (gs_model_tensor_buffer(name))
		return 0;
	/* the norms: a name component holding "norm", or starting "ln_" (ln_f,
	 * ln_attn, ln_1): LayerNorm and RMSNorm are never split */
	while (*p) {
		size_t n = strcspn(p, ".");
		size_t k;
		if (n >= 3 && p[0] == 'l' && p[1] == 'n' && p[2] == '_')
			return 1;
		for (k = 0; k + 4 <= n; k++)
			if (memcmp(p + k, "norm", 4) == 0)
				return 1;
		p += n;
		if (*p == '.')
			p++;
	}
	for (i = 0; i < sizeof(whole) / sizeof(whole[0]); i++)
		if (S_has_suffix(name, whole[i]))
			return 1;
	return 0;
}

static void S_note_replicated(gs_model *m, const char *name, uint64_t bytes)
{
	if (!gs_model_tensor_replicated(name))
		return;
	/* part of the weight bytes, which were summed with the same checks */
	if (gs_qty_add_u64(m->replicated_bytes, bytes, &m->replicated_bytes))
		m->replicated_bytes = UINT64_MAX;
	m->replicated_tensors++;
}

static void S_note_buffer(gs_model *m, const char *name, uint64_t params)
{
	if (!gs_model_tensor_buffer(name))
		return;
	gs_util_strvec_push_dup(&m->buffers, name);
	if (gs_qty_add_u64(m->buffer_params, params, &m->buffer_params))
		m->buffer_params = UINT64_MAX;
}

/*
 * The folder the model's files are read from: a plain folder, whose links
 * are followed (the model is read, never published), or a snapshot of the
 * Hugging Face cache, whose links are followed only into its own blobs/
 * (hfcache.h), or the files a sheet archived (gs_model_archive_use). Every
 * file is opened by name from the folder's descriptor, or found by name
 * among the archived ones.
 */
typedef struct {
	gs_model_file *files;
	size_t n;
} S_arc;

typedef struct {
	const char *dir;          /* as shown in messages ("" for the current folder) */
	int dfd;
	const gs_hf_model *hf;    /* NULL: a plain folder */
	const S_arc *arc;         /* not NULL: the archived files, not a folder */
	const gs_ollama_model *ol;/* not NULL: Ollama's blobs/, the blob checked (ollama.h) */
} S_src;

/* A file's path as shown: dir/name. */
static char *S_file(const S_src *s, const char *name)
{
	return S_join(s->dir, name);
}

static const gs_model_file *S_arc_find(const S_arc *a, const char *name)
{
	size_t i;

	for (i = 0; i < a->n; i++)
		if (strcmp(a->files[i].name, name) == 0)
			return &a->files[i];
	return NULL;
}

/* 1 when the folder has an entry NAME (a dangling link counts: it is named). */
static int S_has(const S_src *s, const char *name)
{
	struct stat st;

	if (s->arc)
		return S_arc_find(s->arc, name) != NULL;
	return fstatat(s->dfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0;
}

/* SHA-256 (publish's, given by gs_model_archive_use); NULL: none yet. */
static gs_model_sha_fn S_sha;

/* Keeps what was read of file NAME (see gs_model_file). */
static void S_record(gs_model *m, const char *name, int header, const void *bytes, size_t len,
		     uint64_t size)
{
	gs_model_file *f;

	m->files = gs_xrealloc(m->files, (m->nfiles + 1) * sizeof(*m->files));
	f = &m->files[m->nfiles++];
	f->name = gs_xstrdup(name);
	f->header = header;
	f->bytes = gs_xmalloc(len + 1);
	if (len)
		memcpy(f->bytes, bytes, len);
	f->bytes[len] = '\0';
	f->len = len;
	f->size = size;
	f->sha256[0] = '\0';
	if (S_sha)
		S_sha(f->bytes, len, f->sha256);
}

/*
 * Opens NAME of the folder: a regular file, opened without blocking (a
 * FIFO or a device is refused before a byte is read), checked on the
 * descriptor it is read from (fstat); *size: the file's size. An archived
 * file is read from its bytes kept (a header: the bytes after it are not
 * there, and never read). NULL after reporting with the file's path.
 */
static FILE *S_open(const S_src *s, const char *name, uint64_t *size, gs_diag *d)
{
	gs_error err = GS_ERROR_INIT;
	int fd;
	FILE *f;
	struct stat st;

	if (s->arc) {
		const gs_model_file *af = S_arc_find(s->arc, name);
		if (!af) {
			char *file = S_file(s, name);
			gs_diag_add(d, file, 0, 0, NULL, "not among the archived model files");
			free(file);
			return NULL;
		}
		f = fmemopen(af->bytes, af->len ? af->len : 1, "rb");
		if (!f)
			GS_OOM("fmemopen of an archived model file");
		if (!af->len)
			(void)fgetc(f);   /* an empty file: at its end at once */
		*size = af->size;
		return f;
	}
	fd = s->hf ? gs_hfcache_open_file(s->hf, name, 0, &err)
		   : gs_infile_open_at(s->dfd, name, !s->ol, 0, &err);
	if (fd < 0 && s->ol && errno == ENOENT) {
		gs_error_release(&err);
		gs_error_set(&err, "the model layer's blob is missing: the manifest %s names it, "
			     "and the store does not hold it (`ollama pull %s:%s` fetches it)",
			     s->ol->manifest, s->ol->name, s->ol->tag);
	}
	/* the bytes parsed are the bytes hashed: the same descriptor */
	if (fd >= 0 && s->ol && gs_ollama_check_blob(s->ol, fd, &err)) {
		close(fd);
		fd = -1;
	}
	if (fd < 0) {
		char *file = S_file(s, name);
		const char *m = gs_error_message(&err);
		if (!s->hf && strstr(m, "dangling") && strstr(m, "blobs/"))
			gs_diag_add(d, file, 0, 0, NULL, "%s: a copy of a Hugging Face cache's "
				    "snapshot without its blobs/; name the model by its repo id, "
				    "or the cache's models--ORG--NAME folder, or copy it with cp -rL", m);
		else
			gs_diag_add(d, file, 0, 0, NULL, "%s", m);
		gs_error_release(&err);
		free(file);
		return NULL;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size < 0) {
		char *file = S_file(s, name);
		gs_diag_add(d, file, 0, 0, NULL, "not a regular file");
		free(file);
		close(fd);
		return NULL;
	}
	*size = (uint64_t)st.st_size;
	f = fdopen(fd, "rb");
	if (!f)
		GS_OOM("fdopen of a model file");
	return f;
}

/* Loads a JSON file of at most GS_MODEL_MAX_HEADER bytes, duplicates refused. */
static json_t *S_load_json(const S_src *s, const char *name, const char *file, gs_model *m,
			   gs_diag *d)
{
	uint64_t size = 0;
	FILE *f = S_open(s, name, &size, d);
	json_t *root;
	json_error_t e;

	if (!f)
		return NULL;
	if (size > GS_MODEL_MAX_HEADER) {
		gs_diag_add(d, file, 0, 0, NULL, "%llu bytes, too large: a model's JSON "
			    "file (config, index, tokenizer settings) holds at most %llu bytes",
			    (unsigned long long)size, (unsigned long long)GS_MODEL_MAX_HEADER);
		fclose(f);
		return NULL;
	}
	{
		/* read at once (size is bounded above), parsed from memory: the
		 * stream reader costs a library call per byte */
		char *text = gs_xmalloc((size_t)size + 1);
		size_t len = fread(text, 1, (size_t)size + 1, f);
		int bad = ferror(f) || len > size;
		fclose(f);
		if (bad) {
			gs_diag_add(d, file, 0, 0, NULL, "cannot read: %s",
				    len > size ? "the file grew while read" : strerror(errno));
			free(text);
			return NULL;
		}
		root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &e);
		if (root)
			S_record(m, name, 0, text, len, len);
		free(text);
	}
	if (!root) {
		gs_diag_add(d, file, e.line, e.column, NULL, "invalid JSON: %s", e.text);
		return NULL;
	}
	if (!json_is_object(root)) {
		gs_diag_add(d, file, 0, 0, "$", "expected an object");
		json_decref(root);
		return NULL;
	}
	return root;
}

/* ---------------------------------------------------------------- config.json */

/* Reads a positive integer key of the object at base; 1 found, 0 absent or
 * null, -1 reported. */
static int S_cfg_uint(gs_jr *r, json_t *root, const char *base, const char *key, uint64_t *out,
		      int *has)
{
	json_t *v = json_object_get(root, key);
	char *p;
	int rc;

	*has = 0;
	if (!v || json_is_null(v))
		return 0;
	p = gs_jr_path_key(base, key);
	rc = gs_jr_v_uint(r, v, p, 1, S_MAX_DIM, out);
	free(p);
	if (rc != 0)
		return -1;
	*has = 1;
	return 1;
}

static unsigned S_torch_bits(const char *dtype)
{
	if (strcmp(dtype, "float32") == 0)
		return 32;
	if (strcmp(dtype, "bfloat16") == 0 || strcmp(dtype, "float16") == 0)
		return 16;
	if (strcmp(dtype, "float64") == 0)
		return 64;
	return 0;
}

/*
 * "layer_types" (recent configs): one kind per layer, the pattern stated
 * instead of implied by the architecture. It replaces the architecture's
 * pattern: every layer sliding, none (no window applies), or a count of
 * the sliding layers. The kinds themselves are checked by the table
 * (model_arch.c), which lays the layers out.
 */
static void S_layer_types(gs_jr *r, json_t *root, const char *base, gs_model *m)
{
	json_t *lt = json_object_get(root, "layer_types"), *e;
	size_t i, n;
	uint64_t sliding = 0;

	if (!lt)
		return;
	n = json_is_array(lt) ? json_array_size(lt) : 0;
	if (!m->has_layers || n != m->layers) {
		char *p = gs_jr_path_key(base, "layer_types");
		gs_jr_error(r, p, "expected one entry per layer (num_hidden_layers)");
		free(p);
		return;
	}
	json_array_foreach(lt, i, e) {
		const char *t = json_string_value(e);
		if (!t) {
			char *lp = gs_jr_path_key(base, "layer_types");
			char *p = gs_jr_path_index(lp, i);
			gs_jr_error(r, p, "expected a layer kind such as \"sliding_attention\" or "
				    "\"full_attention\"");
			free(p);
			free(lp);
			return;
		}
		sliding += strcmp(t, "sliding_attention") == 0;
	}
	m->sliding_layers = sliding;
	m->sliding_pattern = sliding == n ? "every_layer" : "layer_types";
	if (sliding == 0) {
		m->has_sliding_window = 0;
		m->sliding_window = 0;
		m->sliding_pattern = NULL;
	}
}

static void S_key_seen(gs_model *m, const char *key, int present)
{
	gs_util_strvec_push_dup(present ? &m->found_keys : &m->missing_keys, key);
}

/* A string key of the text object, else of the file's root. */
static json_t *S_text_or_root(json_t *text, json_t *root, const char *key)
{
	json_t *v = json_object_get(text, key);

	return v && !json_is_null(v) ? v : json_object_get(root, key);
}

/* The model's identity: architecture, model_type and its table entry, name. */
static const gs_model_arch *S_identity(json_t *root, gs_model *m)
{
	const gs_model_arch *a = NULL;
	json_t *v = json_object_get(root, "architectures");

	if (json_is_array(v) && json_array_size(v) > 0 && json_is_string(json_array_get(v, 0)))
		m->architecture = gs_xstrdup(json_string_value(json_array_get(v, 0)));
	v = json_object_get(root, "model_type");
	if (json_is_string(v)) {
		m->model_type = gs_xstrdup(json_string_value(v));
		a = gs_model_arch_find(m->model_type);
		if (a) {
			m->arch = (gs_arch)gs_model_arch_arch(a);
			m->tied_default = gs_model_arch_tied_default(a);
		}
	}
	v = json_object_get(root, "_name_or_path");
	if (json_is_string(v) && json_string_length(v) > 0 && json_string_length(v) < 512 &&
	    !m->name_or_path)
		m->name_or_path = gs_xstrdup(json_string_value(v));
	return a;
}

/* The window: sliding_window unless use_sliding_window is false, its pattern. */
static void S_window(gs_jr *r, json_t *text, const char *tpath, gs_model *m)
{
	json_t *v = json_object_get(text, "use_sliding_window");
	uint64_t window = 0;
	int has_window = 0, use_window = 1;

	if (json_is_boolean(v))
		use_window = json_is_true(v);
	S_cfg_uint(r, text, tpath, "sliding_window", &window, &has_window);
	if (has_window && use_window && m->arch != GS_ARCH_GPTNEOX) {
		m->sliding_window = window;
		m->has_sliding_window = 1;
		m->sliding_pattern = m->arch == GS_ARCH_GEMMA2 || m->arch == GS_ARCH_GPT_OSS
				   ? "every_other_layer"
				   : m->arch == GS_ARCH_QWEN2 || m->arch == GS_ARCH_QWEN3 ||
				     m->arch == GS_ARCH_QWEN3_MOE || m->arch == GS_ARCH_QWEN2_5_VL
				   ? "max_window_layers"
				   : m->arch == GS_ARCH_GEMMA3 || m->arch == GS_ARCH_GEMMA3_TEXT
				   ? "architecture" : "every_layer";
		S_layer_types(r, text, tpath, m);
	}
}

/* A positive integer of a JSON object's first key present, or 0. */
static uint64_t S_qint(json_t *o, const char *const *keys)
{
	for (; *keys; keys++) {
		json_t *v = json_object_get(o, *keys);
		if (json_is_integer(v) && json_integer_value(v) > 0 &&
		    json_integer_value(v) <= 1048576)
			return (uint64_t)json_integer_value(v);
	}
	return 0;
}

/* quantization_config beyond its method (model.h): what `model` shows.
 * Anything of another type, or out of bounds, is left unstated. */
static void S_quant_details(json_t *q, gs_model *m)
{
	static const char *const bits[] = { "bits", "w_bit", "num_bits", NULL };
	static const char *const group[] = { "group_size", "q_group_size", NULL };
	static const char *const kept[] = { "modules_to_not_convert", "ignore", NULL };
	json_t *b, *e;
	size_t i, k;

	if (!json_is_object(q))
		return;
	m->quant_bits = S_qint(q, bits);
	m->quant_group = S_qint(q, group);
	b = json_object_get(q, "weight_block_size");
	if (json_is_array(b) && json_array_size(b) == 2 &&
	    json_is_integer(json_array_get(b, 0)) && json_is_integer(json_array_get(b, 1)) &&
	    json_integer_value(json_array_get(b, 0)) > 0 &&
	    json_integer_value(json_array_get(b, 1)) > 0) {
		m->quant_block_rows = (uint64_t)json_integer_value(json_array_get(b, 0));
		m->quant_block_cols = (uint64_t)json_integer_value(json_array_get(b, 1));
	}
	for (k = 0; kept[k]; k++) {
		json_array_foreach(json_object_get(q, kept[k]), i, e)
			if (json_is_string(e) && json_string_length(e) > 0 &&
			    json_string_length(e) < 256 && m->quant_kept.n < 256)
				gs_util_strvec_push_dup(&m->quant_kept, json_string_value(e));
	}
}

static void S_read_config(const S_src *s, const char *name, gs_model *m, gs_diag *d)
{
	char *file = S_file(s, name);
	const char *shown = name, *tpath = "$";
	const gs_model_arch *a;
	gs_jr r;
	json_t *root, *text, *v;
	size_t i, before;
	/* what each covered architecture needs from config.json */
	static const char *const need[] = {
		"hidden_size", "num_hidden_layers", "num_attention_heads", "intermediate_size",
		"vocab_size", NULL
	};

	gs_jr_init(&r, file, d);
	before = gs_diag_count(d);
	root = S_load_json(s, name, file, m, d);
	if (!root) {
		free(file);
		return;
	}
	m->config_file = gs_xstrdup(shown);
	a = S_identity(root, m);
	/* a model with a vision tower keeps the text model's geometry apart */
	text = root;
	if (a && gs_model_arch_text_key(a) &&
	    json_is_object(json_object_get(root, gs_model_arch_text_key(a)))) {
		text = json_object_get(root, gs_model_arch_text_key(a));
		tpath = "$.text_config";
	}
	S_cfg_uint(&r, text, tpath, "hidden_size", &m->hidden, &m->has_hidden);
	S_cfg_uint(&r, text, tpath, "num_hidden_layers", &m->layers, &m->has_layers);
	S_cfg_uint(&r, text, tpath, "num_attention_heads", &m->attention_heads, &m->has_attention_heads);
	S_cfg_uint(&r, text, tpath, "intermediate_size", &m->intermediate, &m->has_intermediate);
	S_cfg_uint(&r, text, tpath, "vocab_size", &m->vocab, &m->has_vocab);
	S_cfg_uint(&r, text, tpath, "max_position_embeddings", &m->context, &m->has_context);
	S_cfg_uint(&r, text, tpath, "head_dim", &m->head_dim, &m->head_dim_explicit);
	m->has_head_dim = m->head_dim_explicit;
	if (m->arch == GS_ARCH_GPTNEOX) {
		/* GPT-NeoX is multi-head: one KV head per query head, by its design */
		m->kv_heads = m->attention_heads;
		m->has_kv_heads = m->has_attention_heads;
	} else {
		S_cfg_uint(&r, text, tpath, "num_key_value_heads", &m->kv_heads, &m->has_kv_heads);
	}
	S_window(&r, text, tpath, m);
	v = S_text_or_root(text, root, "tie_word_embeddings");
	if (json_is_boolean(v)) {
		m->tied = json_is_true(v);
		m->tied_default = 0;
	} else if (a) {
		m->tied = m->tied_default;
	} else {
		m->tied = -1;
		m->tied_default = 0;
	}
	v = S_text_or_root(root, text, "torch_dtype");
	if (!json_is_string(v))
		v = S_text_or_root(root, text, "dtype");
	if (json_is_string(v)) {
		m->torch_dtype = gs_xstrdup(json_string_value(v));
		m->torch_dtype_bits = S_torch_bits(m->torch_dtype);
	}
	v = json_object_get(json_object_get(root, "quantization_config"), "quant_method");
	if (json_is_string(v) && json_string_length(v) > 0 && json_string_length(v) < 64)
		m->quant_method = gs_xstrdup(json_string_value(v));
	S_quant_details(json_object_get(root, "quantization_config"), m);
	if (m->has_attention_heads && !m->has_head_dim && m->has_hidden) {
		if (m->hidden % m->attention_heads == 0) {
			m->head_dim = m->hidden / m->attention_heads;
			m->has_head_dim = 1;
		} else {
			char *p = gs_jr_path_key(tpath, "hidden_size");
			gs_jr_error(&r, p, "hidden_size %llu is not a multiple of "
				    "num_attention_heads %llu and there is no head_dim",
				    (unsigned long long)m->hidden,
				    (unsigned long long)m->attention_heads);
			free(p);
		}
	}
	if (m->has_kv_heads && m->has_attention_heads && m->kv_heads > m->attention_heads) {
		char *p = gs_jr_path_key(tpath, "num_key_value_heads");
		gs_jr_error(&r, p, "%llu KV heads is more than the %llu attention heads",
			    (unsigned long long)m->kv_heads, (unsigned long long)m->attention_heads);
		free(p);
	}
	/* Which keys the geometry rests on: found and missing, never guessed. */
	for (i = 0; need[i]; i++)
		S_key_seen(m, need[i], json_object_get(text, need[i]) != NULL);
	if (m->arch != GS_ARCH_GPTNEOX)
		S_key_seen(m, "num_key_value_heads", m->has_kv_heads);
	S_key_seen(m, "max_position_embeddings", m->has_context);
	if (gs_diag_count(d) == before)
		m->geometry_file = gs_xstrdup(shown);
	/* the table's own keys, the layers' layout, the count and the cache */
	if (a && gs_diag_count(d) == before)
		gs_model_arch_read(a, &r, root, text, tpath, m);
	if (gs_diag_count(d) != before || m->missing_keys.n) {
		m->has_config_params = 0;
		m->has_active_params = 0;
	}
	json_decref(root);
	free(file);
}

/* ---------------------------------------------------------------- safetensors */

typedef struct {
	const char *name;
	uint64_t begin, end;
} S_span;

static int S_span_cmp(const void *a, const void *b)
{
	const S_span *x = a, *y = b;

	if (x->begin != y->begin)
		return x->begin < y->begin ? -1 : 1;
	if (x->end != y->end)
		return x->end < y->end ? -1 : 1;
	return 0;
}

/* Shape product as a uint64; -1 reported. */
static int S_st_shape(json_t *shape, uint64_t *out)
{
	size_t i;
	uint64_t n = 1;

	if (!json_is_array(shape))
		return -1;
	for (i = 0; i < json_array_size(shape); i++) {
		json_t *e = json_array_get(shape, i);
		if (!json_is_integer(e) || json_integer_value(e) < 0 ||
		    gs_qty_mul_u64(n, (uint64_t)json_integer_value(e), &n))
			return -1;
	}
	*out = n;
	return 0;
}

/*
 * One tensor of a header: dtype known, shape of non-negative integers,
 * data_offsets [begin, end] with end - begin = shape product x dtype bytes
 * and end within the data region. Returns 0, or -1 after reporting.
 */
static int S_st_tensor(const char *file, uint64_t data_start, uint64_t data_len,
		       const char *name, json_t *t, S_span *span, gs_model *m, gs_diag *d)
{
	json_t *dt = json_object_get(t, "dtype"), *sh = json_object_get(t, "shape");
	json_t *off = json_object_get(t, "data_offsets");
	uint64_t count, bytes, b, e;
	unsigned bits;
	size_t i;

	if (!json_is_object(t) || !json_is_string(dt) || !sh || !json_is_array(off) ||
	    json_object_size(t) != 3) {
		S_err(d, file, 8, "tensor \"%s\": expected exactly dtype, shape and data_offsets",
		      name);
		return -1;
	}
	bits = gs_model_safetensors_dtype_bits(json_string_value(dt));
	if (!bits) {
		S_err(d, file, 8, "tensor \"%s\": unknown dtype \"%s\"", name,
		      json_string_value(dt));
		return -1;
	}
	if (S_st_shape(sh, &count) || gs_qty_mul_u64(count, bits / 8, &bytes)) {
		S_err(d, file, 8, "tensor \"%s\": shape must be non-negative integers whose "
		      "product in bytes fits in 64 bits", name);
		return -1;
	}
	if (json_array_size(off) != 2 || !json_is_integer(json_array_get(off, 0)) ||
	    !json_is_integer(json_array_get(off, 1)) ||
	    json_integer_value(json_array_get(off, 0)) < 0 ||
	    json_integer_value(json_array_get(off, 1)) < json_integer_value(json_array_get(off, 0))) {
		S_err(d, file, 8, "tensor \"%s\": data_offsets must be [begin, end] with "
		      "0 <= begin <= end", name);
		return -1;
	}
	b = (uint64_t)json_integer_value(json_array_get(off, 0));
	e = (uint64_t)json_integer_value(json_array_get(off, 1));
	if (e > data_len) {
		S_err(d, file, data_start + b, "tensor \"%s\": data_offsets [%llu, %llu] end "
		      "beyond the file (data region of %llu bytes)", name,
		      (unsigned long long)b, (unsigned long long)e, (unsigned long long)data_len);
		return -1;
	}
	if (e - b != bytes) {
		S_err(d, file, data_start + b, "tensor \"%s\": data_offsets span %llu bytes, "
		      "but %s x shape is %llu bytes", name, (unsigned long long)(e - b),
		      json_string_value(dt), (unsigned long long)bytes);
		return -1;
	}
	span->name = name;
	span->begin = b;
	span->end = e;
	for (i = 0; i < S_NST; i++) {
		if (strcmp(S_st_dtypes[i].name, json_string_value(dt)) == 0) {
			if (S_dtype_add(m, S_st_dtypes[i].name, 1, bits / 8, count, bytes)) {
				S_err(d, file, 8, "the totals overflow 64 bits");
				return -1;
			}
			break;
		}
	}
	S_note_buffer(m, name, count);
	S_note_replicated(m, name, bytes);
	if (json_array_size(sh) == 2) {
		uint64_t dims[2] = { (uint64_t)json_integer_value(json_array_get(sh, 0)),
				     (uint64_t)json_integer_value(json_array_get(sh, 1)) };
		gs_model_kinds_note(m, name, dims, 2, count);
	} else {
		gs_model_kinds_note(m, name, NULL, json_array_size(sh), count);
	}
	return 0;
}

/*
 * Header of one .safetensors file. `names`, when not NULL, receives every
 * tensor name (for the index's weight_map check).
 */
static int S_read_safetensors_file(const S_src *s, const char *sname, const char *file,
				   gs_model *m, gs_strvec *names, gs_diag *d);

static int S_read_safetensors(const S_src *s, const char *name, gs_model *m, gs_strvec *names,
			      gs_diag *d)
{
	char *file = S_file(s, name);
	int rc = S_read_safetensors_file(s, name, file, m, names, d);

	free(file);
	return rc;
}

static int S_read_safetensors_file(const S_src *s, const char *sname, const char *file,
				   gs_model *m, gs_strvec *names, gs_diag *d)
{
	uint64_t size = 0, n, data_len, pos = 0;
	FILE *f = S_open(s, sname, &size, d);
	unsigned char len8[8];
	char *buf;
	json_t *root;
	json_error_t je;
	const char *key;
	json_t *val;
	S_span *spans;
	size_t ns = 0, i, before = gs_diag_count(d);

	if (!f)
		return -1;
	if (size < 8 || fread(len8, 1, 8, f) != 8) {
		S_err(d, file, 0, "file of %llu bytes: too short for the 8-byte header length",
		      (unsigned long long)size);
		fclose(f);
		return -1;
	}
	n = S_le64(len8);
	if (n > GS_MODEL_MAX_HEADER) {
		S_err(d, file, 0, "header length %llu is above the %llu-byte limit",
		      (unsigned long long)n, (unsigned long long)GS_MODEL_MAX_HEADER);
		fclose(f);
		return -1;
	}
	if (n > size - 8) {
		S_err(d, file, 0, "header length %llu goes beyond the file (%llu bytes)",
		      (unsigned long long)n, (unsigned long long)size);
		fclose(f);
		return -1;
	}
	buf = gs_xmalloc((size_t)n + 8 + 1);
	if (fread(buf + 8, 1, (size_t)n, f) != n) {
		S_err(d, file, 8, "cannot read the %llu-byte header", (unsigned long long)n);
		free(buf);
		fclose(f);
		return -1;
	}
	fclose(f);
	/* what was read: the length and the header, never the tensors */
	memcpy(buf, len8, 8);
	S_record(m, sname, 1, buf, (size_t)n + 8, size);
	memmove(buf, buf + 8, (size_t)n);
	root = json_loadb(buf, (size_t)n, JSON_REJECT_DUPLICATES, &je);
	free(buf);
	if (!root) {
		S_err(d, file, 8 + (uint64_t)(je.position > 0 ? je.position : 0),
		      "header: invalid JSON: %s", je.text);
		return -1;
	}
	if (!json_is_object(root)) {
		S_err(d, file, 8, "header: expected a JSON object");
		json_decref(root);
		return -1;
	}
	data_len = size - 8 - n;
	spans = gs_xcalloc(json_object_size(root), sizeof(*spans));
	json_object_foreach(root, key, val) {
		if (strcmp(key, "__metadata__") == 0)
			continue;
		if (S_st_tensor(file, 8 + n, data_len, key, val, &spans[ns], m, d) == 0) {
			if (names)
				gs_util_strvec_push_dup(names, key);
			ns++;
		}
	}
	/* No overlap, no hole: the data region is exactly the tensors, in order. */
	if (gs_diag_count(d) == before) {
		qsort(spans, ns, sizeof(*spans), S_span_cmp);
		for (i = 0; i < ns; i++) {
			if (spans[i].begin < pos) {
				S_err(d, file, 8 + n + spans[i].begin, "tensor \"%s\" at data "
				      "offset %llu overlaps \"%s\" (which ends at %llu)",
				      spans[i].name, (unsigned long long)spans[i].begin,
				      spans[i - 1].name, (unsigned long long)pos);
				break;
			}
			if (spans[i].begin > pos) {
				S_err(d, file, 8 + n + pos, "%llu bytes of data not covered by any "
				      "tensor", (unsigned long long)(spans[i].begin - pos));
				break;
			}
			pos = spans[i].end;
		}
		if (gs_diag_count(d) == before && pos != data_len)
			S_err(d, file, 8 + n + pos, "%llu bytes after the last tensor's data",
			      (unsigned long long)(data_len - pos));
	}
	free(spans);
	json_decref(root);
	return gs_diag_count(d) == before ? 0 : -1;
}

/* ---------------------------------------------------------------- index */

/*
 * model.safetensors.index.json, or pytorch_model.bin.index.json: the same
 * metadata.total_size and weight_map, whose shards are pickles there and
 * are never opened (a pickle is a program, not a header).
 */
static void S_read_index(const S_src *src, const char *shown, gs_model *m, gs_diag *d)
{
	char *file = S_file(src, shown);
	int bin = S_has_suffix(shown, ".bin.index.json");
	const char *shard_ext = bin ? ".bin" : ".safetensors";
	json_t *root = S_load_json(src, shown, file, m, d), *meta, *map, *v;
	const char *key;
	gs_strvec shards = GS_STRVEC_INIT, names = GS_STRVEC_INIT;
	size_t i, before = gs_diag_count(d);
	gs_jr r;

	gs_jr_init(&r, file, d);
	if (!root) {
		free(file);
		return;
	}
	m->index_file = gs_xstrdup(shown);
	m->bin_index = bin;
	meta = json_object_get(root, "metadata");
	if (json_is_object(meta) && json_object_get(meta, "total_size")) {
		if (gs_jr_v_uint(&r, json_object_get(meta, "total_size"), "$.metadata.total_size",
				 1, (uint64_t)INT64_MAX, &m->index_total) == 0)
			m->has_index_total = 1;
	} else {
		gs_jr_error(&r, "$.metadata", "missing required key \"total_size\"");
	}
	map = json_object_get(root, "weight_map");
	if (!json_is_object(map) || json_object_size(map) == 0) {
		gs_jr_error(&r, "$.weight_map", "expected an object of tensor name -> shard file");
	} else {
		json_object_foreach(map, key, v) {
			const char *sv = json_string_value(v);
			if (!sv || strchr(sv, '/') || sv[0] == '.' || !S_has_suffix(sv, shard_ext) ||
			    strlen(sv) > 255) {
				char *p = gs_jr_path_key("$.weight_map", key);
				gs_jr_error(&r, p, "expected a %s file name in the same folder",
					    shard_ext);
				free(p);
				continue;
			}
			gs_util_strvec_push_dup(&shards, sv);
		}
		gs_util_strvec_sort_unique(&shards);
	}
	if (gs_diag_count(d) == before && bin) {
		/* the shards are pickles: never read, whether present or not */
		for (i = 0; i < shards.n; i++)
			gs_util_strvec_push_dup(&m->missing_shards, shards.v[i]);
		if (m->has_index_total) {
			m->weights = GS_WEIGHTS_INDEX;
			m->weight_bytes = m->index_total;
		}
	} else if (gs_diag_count(d) == before) {
		/* Every shard present: read their headers; else the index alone. */
		for (i = 0; i < shards.n; i++)
			if (!S_has(src, shards.v[i]))
				gs_util_strvec_push_dup(&m->missing_shards, shards.v[i]);
		if (m->missing_shards.n == 0) {
			for (i = 0; i < shards.n; i++) {
				S_read_safetensors(src, shards.v[i], m, &names, d);
				gs_util_strvec_push_dup(&m->weight_files, shards.v[i]);
			}
			if (gs_diag_count(d) == before) {
				m->weights = GS_WEIGHTS_SAFETENSORS;
				m->has_header_params = 1;
				gs_util_strvec_sort(&names);
				json_object_foreach(map, key, v) {
					if (!bsearch(&key, names.v, names.n, sizeof(char *), gs_util_strcmp_ptr))
						gs_diag_add(d, file, 0, 0, "$.weight_map",
							    "tensor \"%s\" is not in its shard \"%s\"",
							    key, json_string_value(v));
				}
				if (names.n != json_object_size(map))
					gs_diag_add(d, file, 0, 0, "$.weight_map", "the index lists "
						    "%zu tensors, the shards hold %zu",
						    json_object_size(map), names.n);
				if (m->has_index_total && m->index_total != m->weight_bytes)
					gs_diag_add(d, file, 0, 0, "$.metadata.total_size",
						    "total_size %llu differs from the %llu bytes "
						    "of tensors in the shards' headers",
						    (unsigned long long)m->index_total,
						    (unsigned long long)m->weight_bytes);
			}
		} else if (m->has_index_total) {
			m->weights = GS_WEIGHTS_INDEX;
			m->weight_bytes = m->index_total;
		}
	}
	gs_util_strvec_release(&shards);
	gs_util_strvec_release(&names);
	json_decref(root);
	free(file);
}

/* ---------------------------------------------------------------- GGUF */

/*
 * The header region of a GGUF file, read in order; every byte read is kept
 * (keep, pos bytes: what a sheet archives of the file), those skipped too:
 * they are at most GS_MODEL_MAX_HEADER.
 */
typedef struct {
	FILE *f;
	const char *file;
	uint64_t pos, size;
	gs_diag *d;
	int failed;
	unsigned char *keep;
	size_t cap;
} S_rd;

static int S_rd_bytes(S_rd *r, void *out, uint64_t n, const char *what)
{
	if (r->failed)
		return -1;
	if (n > r->size - r->pos || r->pos + n > GS_MODEL_MAX_HEADER) {
		S_err(r->d, r->file, r->pos, "%s of %llu bytes goes beyond the %s", what,
		      (unsigned long long)n,
		      n > r->size - r->pos ? "file" : "100 MB header limit");
		r->failed = 1;
		return -1;
	}
	if (r->pos + n > r->cap) {
		size_t cap = r->cap ? r->cap : 4096;
		while (cap < r->pos + n)
			cap *= 2;
		if (cap > GS_MODEL_MAX_HEADER)
			cap = (size_t)GS_MODEL_MAX_HEADER;
		r->keep = gs_xrealloc(r->keep, cap);
		r->cap = cap;
	}
	if (fread(r->keep + r->pos, 1, (size_t)n, r->f) != n) {
		S_err(r->d, r->file, r->pos, "cannot read %s", what);
		r->failed = 1;
		return -1;
	}
	if (out)
		memcpy(out, r->keep + r->pos, (size_t)n);
	r->pos += n;
	return 0;
}

static uint64_t S_rd_u64(S_rd *r, const char *what)
{
	unsigned char b[8];

	return S_rd_bytes(r, b, 8, what) ? 0 : S_le64(b);
}

static uint32_t S_rd_u32(S_rd *r, const char *what)
{
	unsigned char b[4];

	return S_rd_bytes(r, b, 4, what) ? 0 : S_le32(b);
}

/* A GGUF string: u64 length then bytes. NULL when keep == 0 or on error. */
static char *S_rd_str(S_rd *r, int keep, const char *what)
{
	uint64_t at = r->pos, n = S_rd_u64(r, what);
	char *s;

	if (r->failed)
		return NULL;
	if (n > r->size - r->pos) {
		S_err(r->d, r->file, at, "%s: string of %llu bytes is longer than the rest of "
		      "the file", what, (unsigned long long)n);
		r->failed = 1;
		return NULL;
	}
	if (!keep) {
		S_rd_bytes(r, NULL, n, what);
		return NULL;
	}
	if (n > S_MAX_NAME) {
		S_err(r->d, r->file, at, "%s: string of %llu bytes (at most %llu kept)", what,
		      (unsigned long long)n, (unsigned long long)S_MAX_NAME);
		r->failed = 1;
		return NULL;
	}
	s = gs_xmalloc((size_t)n + 1);
	if (S_rd_bytes(r, s, n, what)) {
		free(s);
		return NULL;
	}
	s[n] = '\0';
	if (strlen(s) != n) {
		S_err(r->d, r->file, at, "%s: string holds a NUL byte", what);
		r->failed = 1;
		free(s);
		return NULL;
	}
	return s;
}

/* Scalar GGUF value types and their sizes; 8 string, 9 array. */
static uint64_t S_gguf_scalar_size(uint32_t type)
{
	static const uint64_t sizes[] = { 1, 1, 2, 2, 4, 4, 4, 1, 0, 0, 8, 8, 8 };

	return type < sizeof(sizes) / sizeof(sizes[0]) ? sizes[type] : 0;
}

/* Geometry keys kept from the metadata: "<arch>.<suffix>". */
static const char *const S_gguf_keys[] = {
	"block_count", "attention.head_count", "attention.head_count_kv", "embedding_length",
	"context_length", "attention.sliding_window", "attention.key_length",
	"feed_forward_length", "expert_count", "expert_used_count", "vocab_size", NULL
};

typedef struct {
	char *arch;
	uint64_t vals[16];
	int has[16];
	uint64_t alignment;
	uint64_t tokens;
	int has_tokens;
} S_gguf_meta;

static void S_gguf_keep(S_gguf_meta *gm, const char *key, uint64_t v)
{
	size_t i, al;

	if (!gm->arch)
		return;
	al = strlen(gm->arch);
	if (strncmp(key, gm->arch, al) != 0 || key[al] != '.')
		return;
	for (i = 0; S_gguf_keys[i]; i++)
		if (strcmp(key + al + 1, S_gguf_keys[i]) == 0) {
			gm->vals[i] = v;
			gm->has[i] = 1;
		}
}

/* One metadata key-value. Returns -1 when the reader failed. */
static int S_gguf_kv(S_rd *r, S_gguf_meta *gm)
{
	uint64_t at = r->pos;
	char *key = S_rd_str(r, 1, "metadata key");
	uint32_t type;
	int rc = 0;

	if (!key)
		return -1;
	type = S_rd_u32(r, "metadata value type");
	if (r->failed) {
		free(key);
		return -1;
	}
	if (type == 8) {
		int keep = strcmp(key, "general.architecture") == 0;
		char *s = S_rd_str(r, keep, key);
		if (keep && s) {
			free(gm->arch);
			gm->arch = s;
		}
	} else if (type == 9) {
		uint32_t et = S_rd_u32(r, "array type");
		uint64_t n = S_rd_u64(r, "array length"), i, es = S_gguf_scalar_size(et);
		if (!r->failed && et != 8 && es == 0) {
			S_err(r->d, r->file, at, "metadata \"%s\": unknown array element type %u",
			      key, et);
			r->failed = 1;
		} else if (!r->failed && n > (r->size - r->pos) / (et == 8 ? 8 : es)) {
			S_err(r->d, r->file, at, "metadata \"%s\": array of %llu elements is "
			      "longer than the rest of the file", key, (unsigned long long)n);
			r->failed = 1;
		} else if (!r->failed) {
			if (strcmp(key, "tokenizer.ggml.tokens") == 0) {
				gm->tokens = n;
				gm->has_tokens = 1;
			}
			if (et == 8)
				for (i = 0; i < n && !r->failed; i++)
					S_rd_str(r, 0, key);
			else
				S_rd_bytes(r, NULL, n * es, key);
		}
	} else {
		uint64_t es = S_gguf_scalar_size(type);
		unsigned char b[8] = { 0 };
		if (es == 0) {
			S_err(r->d, r->file, at, "metadata \"%s\": unknown value type %u", key, type);
			r->failed = 1;
		} else if (S_rd_bytes(r, b, es, key) == 0) {
			uint64_t v = S_le64(b);
			/* signed types: a negative value is not a size */
			int neg = (type == 1 && (b[0] & 0x80)) || (type == 3 && (b[1] & 0x80)) ||
				  (type == 5 && (b[3] & 0x80)) || (type == 11 && (b[7] & 0x80));
			if (type == 6 || type == 12 || neg)
				v = 0;
			if (strcmp(key, "general.alignment") == 0) {
				if (type != 4 || v == 0 || (v & (v - 1)) != 0) {
					S_err(r->d, r->file, at, "general.alignment must be a "
					      "uint32 power of two");
					r->failed = 1;
				} else {
					gm->alignment = v;
				}
			} else if (v > 0) {
				S_gguf_keep(gm, key, v);
			}
		}
	}
	rc = r->failed ? -1 : 0;
	free(key);
	return rc;
}

typedef struct {
	char *name;
	uint64_t offset, bytes, params;
	uint64_t ne[S_GGUF_MAX_DIMS];
	uint32_t nd;
	unsigned type;
} S_gtensor;

static int S_gt_cmp(const void *a, const void *b)
{
	const S_gtensor *x = a, *y = b;

	if (x->offset != y->offset)
		return x->offset < y->offset ? -1 : 1;
	return 0;
}

/* One tensor info: name, dims, type, offset; sizes from the ggml table. */
static int S_gguf_tensor(S_rd *r, S_gtensor *t)
{
	uint64_t at = r->pos, ne = 1, ne0 = 0, block, bb, rows;
	uint32_t nd, i;
	const char *tname;

	t->name = S_rd_str(r, 1, "tensor name");
	nd = S_rd_u32(r, "tensor dimensions");
	if (r->failed)
		return -1;
	if (nd < 1 || nd > S_GGUF_MAX_DIMS) {
		S_err(r->d, r->file, at, "tensor \"%s\": %u dimensions (1 to %d)", t->name, nd,
		      S_GGUF_MAX_DIMS);
		r->failed = 1;
		return -1;
	}
	for (i = 0; i < nd; i++) {
		uint64_t v = S_rd_u64(r, "tensor dimension");
		if (r->failed)
			return -1;
		if (i == 0)
			ne0 = v;
		t->ne[i] = v;
		if (v == 0 || gs_qty_mul_u64(ne, v, &ne)) {
			S_err(r->d, r->file, at, "tensor \"%s\": dimension %u is 0 or the element "
			      "count overflows 64 bits", t->name, i);
			r->failed = 1;
			return -1;
		}
	}
	t->nd = nd;
	t->type = S_rd_u32(r, "tensor type");
	t->offset = S_rd_u64(r, "tensor offset");
	if (r->failed)
		return -1;
	if (gs_model_ggml_type(t->type, &tname, &block, &bb)) {
		S_err(r->d, r->file, at, "tensor \"%s\": unknown ggml type %u", t->name, t->type);
		r->failed = 1;
		return -1;
	}
	if (ne0 % block != 0) {
		S_err(r->d, r->file, at, "tensor \"%s\": first dimension %llu is not a multiple "
		      "of the %s block of %llu values", t->name, (unsigned long long)ne0, tname,
		      (unsigned long long)block);
		r->failed = 1;
		return -1;
	}
	rows = ne / ne0;
	if (gs_qty_mul_u64(ne0 / block, bb, &t->bytes) || gs_qty_mul_u64(t->bytes, rows, &t->bytes)) {
		S_err(r->d, r->file, at, "tensor \"%s\": size overflows 64 bits", t->name);
		r->failed = 1;
		return -1;
	}
	t->params = ne;
	return 0;
}

static const struct {
	const char *name;
	gs_arch arch;
} S_gguf_archs[] = {
	{ "llama", GS_ARCH_LLAMA }, { "qwen2", GS_ARCH_QWEN2 }, { "phi3", GS_ARCH_PHI3 },
	{ "gemma2", GS_ARCH_GEMMA2 }, { "gptneox", GS_ARCH_GPTNEOX },
};

static void S_gguf_geometry(gs_model *m, const S_gguf_meta *gm, const char *shown)
{
	uint64_t *dst[] = { &m->layers, &m->attention_heads, &m->kv_heads, &m->hidden,
			    &m->context, &m->sliding_window, &m->head_dim, &m->intermediate,
			    &m->experts, &m->experts_active, &m->vocab };
	int *hdst[] = { &m->has_layers, &m->has_attention_heads, &m->has_kv_heads,
			&m->has_hidden, &m->has_context, &m->has_sliding_window,
			&m->head_dim_explicit, &m->has_intermediate, &m->has_experts,
			NULL, &m->has_vocab };
	size_t i;

	if (!gm->arch) {
		gs_util_strvec_push_dup(&m->missing_keys, "general.architecture");
		return;
	}
	m->architecture = gs_xstrdup(gm->arch);
	m->geometry_file = gs_xstrdup(shown);
	/* GGUF names of the covered architectures (Mistral and Mixtral are "llama") */
	for (i = 0; i < sizeof(S_gguf_archs) / sizeof(S_gguf_archs[0]); i++)
		if (strcmp(gm->arch, S_gguf_archs[i].name) == 0)
			m->arch = S_gguf_archs[i].arch;
	for (i = 0; S_gguf_keys[i]; i++) {
		char *k = gs_xasprintf("%s.%s", gm->arch, S_gguf_keys[i]);
		if (gm->has[i] && gm->vals[i] <= S_MAX_DIM) {
			*dst[i] = gm->vals[i];
			if (hdst[i])
				*hdst[i] = 1;
			gs_util_strvec_push(&m->found_keys, k);
		} else if (i <= 4) {
			/* the geometry the sizing needs; the others are optional */
			gs_util_strvec_push(&m->missing_keys, k);
		} else {
			free(k);
		}
	}
	if (!m->has_vocab && gm->has_tokens && gm->tokens <= S_MAX_DIM) {
		m->vocab = gm->tokens;
		m->has_vocab = 1;
	}
	m->has_head_dim = m->head_dim_explicit;
	if (!m->has_head_dim && m->has_hidden && m->has_attention_heads &&
	    m->hidden % m->attention_heads == 0) {
		m->head_dim = m->hidden / m->attention_heads;
		m->has_head_dim = 1;
	}
	if (m->has_sliding_window)
		m->sliding_pattern = "architecture";
	if (m->has_experts && !(gm->has[9] && gm->vals[9] <= S_MAX_DIM))
		m->has_experts = 0;
	m->tied = -1;
}

/*
 * The tensors' data: it starts at the end of the header aligned up, each
 * offset is aligned, no two overlap, and each ends within the file.
 * Sorts ts by offset. Sets r->failed on the first problem.
 */
static void S_gguf_spans(S_rd *r, S_gtensor *ts, uint64_t nt, uint64_t align)
{
	uint64_t data_start = (r->pos + align - 1) / align * align, end = 0, i;
	const char *file = r->file;

	if (data_start > r->size) {
		S_err(r->d, file, r->pos, "the data region starts beyond the file");
		r->failed = 1;
		return;
	}
	qsort(ts, (size_t)nt, sizeof(*ts), S_gt_cmp);
	for (i = 0; i < nt && !r->failed; i++) {
		uint64_t at = data_start + ts[i].offset;
		r->failed = 1;
		if (ts[i].offset % align != 0)
			S_err(r->d, file, at, "tensor \"%s\": offset %llu is not a multiple of the "
			      "alignment %llu", ts[i].name, (unsigned long long)ts[i].offset,
			      (unsigned long long)align);
		else if (i > 0 && ts[i].offset < end)
			S_err(r->d, file, at, "tensor \"%s\" at offset %llu overlaps \"%s\" (which "
			      "ends at %llu)", ts[i].name, (unsigned long long)ts[i].offset,
			      ts[i - 1].name, (unsigned long long)end);
		else if (ts[i].offset > r->size - data_start ||
			 ts[i].bytes > r->size - data_start - ts[i].offset)
			S_err(r->d, file, at, "tensor \"%s\": %llu bytes at offset %llu go beyond "
			      "the file", ts[i].name, (unsigned long long)ts[i].bytes,
			      (unsigned long long)ts[i].offset);
		else
			r->failed = 0;
		end = ts[i].offset + ts[i].bytes;
	}
}

static void S_read_gguf(const S_src *src, const char *shown, gs_model *m, gs_diag *d)
{
	char *file = S_file(src, shown);
	S_rd r;
	unsigned char magic[4];
	uint64_t nt, nkv, i;
	S_gguf_meta gm;
	S_gtensor *ts = NULL;
	size_t before = gs_diag_count(d);

	memset(&r, 0, sizeof(r));
	memset(&gm, 0, sizeof(gm));
	gm.alignment = 32;
	r.file = file;
	r.d = d;
	r.f = S_open(src, shown, &r.size, d);
	if (!r.f) {
		free(file);
		return;
	}
	if (S_rd_bytes(&r, magic, 4, "magic") || memcmp(magic, "GGUF", 4) != 0) {
		if (!r.failed)
			S_err(d, file, 0, "not a GGUF file (magic is not \"GGUF\")");
		fclose(r.f);
		free(r.keep);
		free(file);
		return;
	}
	m->gguf_version = S_rd_u32(&r, "version");
	if (!r.failed && m->gguf_version != 2 && m->gguf_version != 3) {
		S_err(d, file, 4, "GGUF version %u (this gpusheet reads 2 and 3)", m->gguf_version);
		r.failed = 1;
	}
	nt = S_rd_u64(&r, "tensor count");
	nkv = S_rd_u64(&r, "metadata count");
	/* Bound every count before allocating: a tensor info takes at least 32
	 * bytes (name length, one dimension, type, offset), a key-value 13. */
	if (!r.failed && (nt > GS_MODEL_MAX_COUNT || nt > (r.size - r.pos) / 32)) {
		S_err(d, file, 8, "tensor count %llu is more than the file can hold (at most "
		      "%llu)", (unsigned long long)nt, (unsigned long long)GS_MODEL_MAX_COUNT);
		r.failed = 1;
	}
	if (!r.failed && (nkv > GS_MODEL_MAX_COUNT || nkv > (r.size - r.pos) / 13)) {
		S_err(d, file, 16, "metadata count %llu is more than the file can hold (at most "
		      "%llu)", (unsigned long long)nkv, (unsigned long long)GS_MODEL_MAX_COUNT);
		r.failed = 1;
	}
	for (i = 0; !r.failed && i < nkv; i++)
		S_gguf_kv(&r, &gm);
	if (!r.failed)
		ts = gs_xcalloc((size_t)nt, sizeof(*ts));
	for (i = 0; !r.failed && i < nt; i++)
		S_gguf_tensor(&r, &ts[i]);
	m->gguf_alignment = gm.alignment;
	if (!r.failed)
		S_gguf_spans(&r, ts, nt, gm.alignment);
	if (!r.failed && gs_diag_count(d) == before) {
		/* per-type rows in ggml type order */
		size_t k;
		for (k = 0; k < S_NGGML; k++)
			for (i = 0; i < nt; i++)
				if (ts[i].type == S_ggml[k].type) {
					if (S_dtype_add(m, S_ggml[k].name, S_ggml[k].block,
							S_ggml[k].bytes, ts[i].params, ts[i].bytes)) {
						S_err(d, file, 8, "the totals overflow 64 bits");
						break;
					}
					S_note_buffer(m, ts[i].name, ts[i].params);
				}
		m->weights = GS_WEIGHTS_GGUF;
		m->has_header_params = 1;
		gs_util_strvec_push_dup(&m->weight_files, shown);
		/* what was read: the header region, never the tensors */
		S_record(m, shown, 1, r.keep, (size_t)r.pos, r.size);
		if (!m->geometry_file)
			S_gguf_geometry(m, &gm, shown);
		/* the kinds, once the architecture names the modules */
		for (i = 0; i < nt; i++)
			gs_model_kinds_note_gguf(m, ts[i].name, ts[i].ne, ts[i].nd, ts[i].params);
	}
	for (i = 0; ts && i < nt; i++)
		free(ts[i].name);
	free(ts);
	free(gm.arch);
	free(r.keep);
	fclose(r.f);
	free(file);
}

/* ---------------------------------------------------------------- driver */

/* Sorted lists of the folder's *.safetensors and *.gguf files. */
static int S_scan(const S_src *src, gs_strvec *st, gs_strvec *gg, gs_diag *d)
{
	int fd;
	DIR *dp;
	struct dirent *e;

	if (src->arc) {
		size_t i;
		for (i = 0; i < src->arc->n; i++) {
			const char *n = src->arc->files[i].name;
			if (S_has_suffix(n, ".safetensors"))
				gs_util_strvec_push_dup(st, n);
			else if (S_has_suffix(n, ".gguf"))
				gs_util_strvec_push_dup(gg, n);
		}
		gs_util_strvec_sort(st);
		gs_util_strvec_sort(gg);
		return 0;
	}
	fd = dup(src->dfd);
	dp = fd >= 0 ? fdopendir(fd) : NULL;
	if (!dp) {
		gs_diag_add(d, src->dir[0] ? src->dir : ".", 0, 0, NULL, "cannot open folder: %s",
			    strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	rewinddir(dp);
	while ((e = readdir(dp)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		if (S_has_suffix(e->d_name, ".safetensors"))
			gs_util_strvec_push_dup(st, e->d_name);
		else if (S_has_suffix(e->d_name, ".gguf"))
			gs_util_strvec_push_dup(gg, e->d_name);
	}
	closedir(dp);
	gs_util_strvec_sort(st);
	gs_util_strvec_sort(gg);
	return 0;
}

#define S_ST_INDEX "model.safetensors.index.json"
#define S_BIN_INDEX "pytorch_model.bin.index.json"

static void S_read_dir(const S_src *src, gs_model *m, gs_diag *d)
{
	gs_strvec st = GS_STRVEC_INIT, gg = GS_STRVEC_INIT;
	size_t i, before = gs_diag_count(d);
	int st_index, bin_index;

	if (S_scan(src, &st, &gg, d))
		return;
	if (S_has(src, "config.json"))
		S_read_config(src, "config.json", m, d);
	st_index = S_has(src, S_ST_INDEX);
	bin_index = S_has(src, S_BIN_INDEX);
	if (gg.n > 0 && (st.n > 0 || st_index)) {
		gs_diag_add(d, src->dir, 0, 0, NULL, "the folder holds both safetensors and GGUF "
			    "files: name the file to read");
	} else if (gg.n > 1) {
		gs_diag_add(d, src->dir, 0, 0, NULL, "the folder holds %zu GGUF files: name the one "
			    "to read", gg.n);
	} else if (gg.n == 1) {
		S_read_gguf(src, gg.v[0], m, d);
	} else if (st_index) {
		S_read_index(src, S_ST_INDEX, m, d);
	} else if (st.n > 0) {
		for (i = 0; i < st.n; i++) {
			S_read_safetensors(src, st.v[i], m, NULL, d);
			gs_util_strvec_push_dup(&m->weight_files, st.v[i]);
		}
		if (gs_diag_count(d) == before) {
			m->weights = GS_WEIGHTS_SAFETENSORS;
			m->has_header_params = 1;
		}
	} else if (bin_index) {
		/* an older checkpoint: only its index's total, never its pickles */
		S_read_index(src, S_BIN_INDEX, m, d);
	}
	if (gs_diag_count(d) == before && !m->config_file && m->weights == GS_WEIGHTS_NONE)
		gs_diag_add(d, src->dir[0] ? src->dir : ".", 0, 0, NULL, "no config.json, "
			    "safetensors or pytorch_model.bin index, *.safetensors or *.gguf file in "
			    "the folder");
	gs_util_strvec_release(&st);
	gs_util_strvec_release(&gg);
}

/* Reads the file NAME of the open folder src by its kind. */
static void S_read_file(const S_src *src, const char *name, gs_model *m, gs_diag *d)
{
	if (S_has_suffix(name, ".gguf")) {
		S_read_gguf(src, name, m, d);
	} else if (S_has_suffix(name, ".safetensors")) {
		if (S_read_safetensors(src, name, m, NULL, d) == 0) {
			gs_util_strvec_push_dup(&m->weight_files, name);
			m->weights = GS_WEIGHTS_SAFETENSORS;
			m->has_header_params = 1;
		}
	} else if (S_has_suffix(name, ".safetensors.index.json") ||
		   S_has_suffix(name, ".bin.index.json")) {
		S_read_index(src, name, m, d);
	} else if (S_has_suffix(name, ".json")) {
		S_read_config(src, name, m, d);
	} else {
		char *file = S_file(src, name);
		gs_diag_add(d, file, 0, 0, NULL, "expected a folder, a config.json, a "
			    "*.safetensors.index.json or pytorch_model.bin.index.json, a "
			    "*.safetensors or a *.gguf file");
		free(file);
	}
}

static void S_read_hf(const gs_hf_model *h, gs_model *m, gs_diag *d)
{
	S_src src;

	src.dir = h->snapshot;
	src.dfd = h->snap_fd;
	src.hf = h;
	src.arc = NULL;
	src.ol = NULL;
	m->repo_id = gs_xstrdup(h->repo_id);
	m->revision = gs_xstrdup(h->revision);
	m->commit = gs_xstrdup(h->commit);
	m->folder = gs_xstrdup(h->snapshot);
	S_read_dir(&src, m, d);
}

static void S_begin(gs_model *m, const char *path)
{
	memset(m, 0, sizeof(*m));
	m->tied = -1;
	m->path = gs_xstrdup(path);
}

static int S_end(gs_model *m, gs_diag *d, size_t before)
{
	if (gs_diag_count(d) != before) {
		gs_model_release(m);
		return -1;
	}
	return 0;
}

int gs_model_read(const char *path, gs_model *m, gs_diag *d)
{
	size_t before = gs_diag_count(d);
	struct stat st, lst;
	gs_hf_model h;
	int rc;

	S_begin(m, path);
	if (lstat(path, &lst) != 0) {
		gs_diag_add(d, path, 0, 0, NULL, "no such file or folder");
	} else if (stat(path, &st) != 0) {
		char target[PATH_MAX];   /* a link's target, whole (a path is never cut) */
		ssize_t n = readlink(path, target, sizeof(target) - 1);
		target[n > 0 ? n : 0] = '\0';
		gs_diag_add(d, path, 0, 0, NULL, "is a dangling symbolic link to '%s' (its target "
			    "does not exist)", target);
	} else if (S_ISDIR(st.st_mode)) {
		rc = gs_hfcache_open_path(path, NULL, &h, d);
		if (rc == 1) {
			S_read_hf(&h, m, d);
			gs_hfcache_release(&h);
		} else if (rc == 0) {
			S_src src;
			src.dir = path;
			src.hf = NULL;
			src.arc = NULL;
			src.ol = NULL;
			src.dfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
			if (src.dfd < 0) {
				gs_diag_add(d, path, 0, 0, NULL, "cannot open folder: %s",
					    strerror(errno));
			} else {
				m->folder = gs_xstrdup(path);
				S_read_dir(&src, m, d);
				close(src.dfd);
			}
		}
	} else {
		/* a lone file: its folder, and the file by name in it */
		char *dir = gs_xstrdup(path), *slash = strrchr(dir, '/');
		const char *name = slash ? slash + 1 : path;
		S_src src;
		if (slash == dir)
			dir[1] = '\0';
		else if (slash)
			*slash = '\0';
		else
			dir[0] = '\0';
		src.dir = dir;
		src.hf = NULL;
		src.arc = NULL;
		src.ol = NULL;
		src.dfd = open(dir[0] ? dir : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (src.dfd < 0) {
			gs_diag_add(d, path, 0, 0, NULL, "cannot open its folder: %s",
				    strerror(errno));
		} else {
			m->folder = gs_xstrdup(dir[0] ? dir : ".");
			S_read_file(&src, name, m, d);
			close(src.dfd);
		}
		free(dir);
	}
	return S_end(m, d, before);
}

int gs_model_read_repo(const char *repo_id, const char *revision, gs_model *m, gs_diag *d)
{
	size_t before = gs_diag_count(d);
	gs_hf_model h;
	char *shown = revision ? gs_xasprintf("%s@%s", repo_id, revision) : gs_xstrdup(repo_id);

	S_begin(m, shown);
	free(shown);
	if (gs_hfcache_open(repo_id, revision, &h, d) == 0) {
		S_read_hf(&h, m, d);
		gs_hfcache_release(&h);
	}
	return S_end(m, d, before);
}

int gs_model_read_ollama(const char *ref, gs_model *m, gs_diag *d)
{
	size_t before = gs_diag_count(d);
	gs_ollama_model o;
	S_src src;

	S_begin(m, ref);
	if (gs_ollama_open(ref, &o, d) == 0) {
		memset(&src, 0, sizeof(src));
		src.dir = o.blobs;
		src.dfd = o.blobs_fd;
		src.ol = &o;
		m->ollama = gs_xasprintf("%s:%s", o.name, o.tag);
		m->ollama_manifest = gs_xstrdup(o.manifest);
		m->folder = gs_xstrdup(o.blobs);
		S_read_gguf(&src, o.blob_name, m, d);
		gs_ollama_release(&o);
	}
	return S_end(m, d, before);
}

int gs_model_read_ref(const char *ref, gs_model *m, gs_diag *d)
{
	struct stat st;
	char *repo, *rev;
	int rc;

	if (lstat(ref, &st) != 0 && gs_ollama_is_ref(ref))
		return gs_model_read_ollama(ref, m, d);
	if (lstat(ref, &st) == 0 || gs_hfcache_split_ref(ref, &repo, &rev) != 0)
		return gs_model_read(ref, m, d);
	rc = gs_model_read_repo(repo, rev, m, d);
	free(repo);
	free(rev);
	return rc;
}

void gs_model_release(gs_model *m)
{
	size_t i;

	if (!m)
		return;
	free(m->path);
	free(m->repo_id);
	free(m->revision);
	free(m->commit);
	free(m->ollama);
	free(m->ollama_manifest);
	free(m->folder);
	free(m->config_file);
	free(m->index_file);
	gs_util_strvec_release(&m->weight_files);
	gs_util_strvec_release(&m->missing_shards);
	free(m->architecture);
	free(m->name_or_path);
	free(m->model_type);
	free(m->geometry_file);
	free(m->torch_dtype);
	free(m->quant_method);
	gs_util_strvec_release(&m->quant_kept);
	gs_util_strvec_release(&m->found_keys);
	gs_util_strvec_release(&m->missing_keys);
	free(m->dtypes);
	free(m->pt);
	gs_util_strvec_release(&m->buffers);
	for (i = 0; i < m->nfiles; i++) {
		free(m->files[i].name);
		free(m->files[i].bytes);
	}
	free(m->files);
	free(m->archived);
	memset(m, 0, sizeof(*m));
}

const gs_model_dtype *gs_model_main_dtype(const gs_model *m)
{
	const gs_model_dtype *best = NULL;
	size_t i;

	for (i = 0; i < m->ndtypes; i++)
		if (!best || m->dtypes[i].bytes > best->bytes)
			best = &m->dtypes[i];
	return best;
}

int gs_model_replicated(const gs_model *m, uint64_t *bytes, uint64_t *tensors)
{
	if (m->weights != GS_WEIGHTS_SAFETENSORS)
		return -1;
	*bytes = m->replicated_bytes;
	if (tensors)
		*tensors = m->replicated_tensors;
	return 0;
}

int gs_model_layout_needed(const gs_model *m)
{
	return m->nlayout > 1 ||
	       (m->nlayout == 1 && m->layout[0].kind != GS_KV_FULL &&
		m->layout[0].kind != GS_KV_SLIDING);
}

int gs_model_params(const gs_model *m, uint64_t *out)
{
	if (m->has_header_params) {
		*out = m->header_params;
		return 0;
	}
	if (m->has_config_params) {
		*out = m->config_params;
		return 0;
	}
	return -1;
}

/* The last component of a path, trailing slashes dropped; NULL when empty. */
static char *S_last_component(const char *p)
{
	size_t n = strlen(p), b;

	while (n > 1 && p[n - 1] == '/')
		n--;
	b = n;
	while (b > 0 && p[b - 1] != '/')
		b--;
	if (n == b || (n - b == 1 && p[b] == '.') || (n - b == 2 && p[b] == '.' && p[b + 1] == '.'))
		return NULL;
	{
		char *r = gs_xmalloc(n - b + 1);
		memcpy(r, p + b, n - b);
		r[n - b] = '\0';
		return r;
	}
}

char *gs_model_display_name(const gs_model *m, const char *from)
{
	char *n;

	if (m->repo_id)
		return gs_xstrdup(m->repo_id);
	if (m->name_or_path) {
		/* a repo id ("org/name") as written; a path by its last component */
		if (m->name_or_path[0] != '/' && m->name_or_path[0] != '.' &&
		    strchr(m->name_or_path, '/') == strrchr(m->name_or_path, '/'))
			return gs_xstrdup(m->name_or_path);
		if ((n = S_last_component(m->name_or_path)) != NULL)
			return n;
	}
	if (from && (n = S_last_component(from)) != NULL)
		return n;
	return gs_xstrdup(m->architecture ? m->architecture : "model");
}

/* ---------------------------------------------------------------- archive */

#define S_RECORD_FORMAT "gpusheet-model-files/1"
/* A manifest read to find a record: a site's of many sheets stays below this. */
#define S_MANIFEST_MAX ((size_t)256 << 20)
/* A record lists a model's small files: far fewer than this. */
#define S_RECORD_MAX ((size_t)4 << 20)
#define S_RECORD_FILES 100000

typedef struct {
	char *evdir;
	json_t *entries;    /* the manifest's "entries", loaded once; NULL: none or unread */
	int loaded;
	char *err;          /* the manifest could not be read: why */
} S_arcdir;

static S_arcdir *S_arcdirs;
static size_t S_narcdirs;

void gs_model_archive_use(const char *evidence_dir, gs_model_sha_fn sha)
{
	S_sha = sha;
	S_arcdirs = gs_xrealloc(S_arcdirs, (S_narcdirs + 1) * sizeof(*S_arcdirs));
	memset(&S_arcdirs[S_narcdirs], 0, sizeof(*S_arcdirs));
	S_arcdirs[S_narcdirs++].evdir = gs_xstrdup(evidence_dir);
}

char *gs_model_key_repo(const char *repo_id, const char *revision)
{
	return gs_xasprintf("hf:%s@%s", repo_id, revision ? revision : "main");
}

char *gs_model_key_path(const char *workload_id, const char *from)
{
	return gs_xasprintf("path:%s:%s", workload_id ? workload_id : "", from);
}

char *gs_model_record_name(const char *key)
{
	return gs_xasprintf("model:%s#files.json", key);
}

char *gs_model_record(const gs_model *m, const char *key, size_t *len)
{
	json_t *o = json_object(), *files = json_array();
	char *text;
	size_t i, n;

	json_object_set_new(o, "format", json_string(S_RECORD_FORMAT));
	json_object_set_new(o, "key", json_string(key));
	if (m->repo_id)
		json_object_set_new(o, "repo", json_string(m->repo_id));
	if (m->revision)
		json_object_set_new(o, "revision", json_string(m->revision));
	if (m->commit)
		json_object_set_new(o, "commit", json_string(m->commit));
	for (i = 0; i < m->nfiles; i++) {
		const gs_model_file *f = &m->files[i];
		json_array_append_new(files, json_pack("{s:s, s:s, s:s, s:I, s:I}", "name", f->name,
						       "part", f->header ? "header" : "whole",
						       "sha256", f->sha256, "bytes", (json_int_t)f->len,
						       "size", (json_int_t)f->size));
	}
	json_object_set_new(o, "files", files);
	text = json_dumps(o, JSON_SORT_KEYS | JSON_INDENT(2));
	json_decref(o);
	if (!text)
		GS_OOM("json_dumps of the model archive's manifest");
	n = strlen(text);
	text = gs_xrealloc(text, n + 2);
	text[n++] = '\n';
	text[n] = '\0';
	*len = n;
	return text;
}

/* The folder's manifest entries (read once); NULL when there are none. */
static json_t *S_arc_entries(S_arcdir *a)
{
	gs_error why = GS_ERROR_INIT;
	int fd;
	size_t len;
	char *text;
	json_t *root;
	json_error_t je;

	if (a->loaded)
		return a->entries;
	a->loaded = 1;
	fd = gs_infile_open_beneath(a->evdir, "manifest.json", S_MANIFEST_MAX, &why);
	if (fd < 0) {
		if (!strstr(gs_error_message(&why), strerror(ENOENT)))
			a->err = gs_xasprintf("%s/manifest.json: %s", a->evdir, gs_error_message(&why));
		gs_error_release(&why);
		return NULL;
	}
	text = gs_infile_read_fd(fd, S_MANIFEST_MAX, &len, &why);
	if (!text) {
		a->err = gs_xasprintf("%s/manifest.json: %s", a->evdir, gs_error_message(&why));
		gs_error_release(&why);
		return NULL;
	}
	root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
	free(text);
	if (!root || !json_is_object(json_object_get(root, "entries"))) {
		a->err = gs_xasprintf("%s/manifest.json: not an evidence manifest", a->evdir);
		json_decref(root);
		return NULL;
	}
	a->entries = json_incref(json_object_get(root, "entries"));
	json_decref(root);
	return a->entries;
}

static int S_hex64(const char *s)
{
	size_t i;

	for (i = 0; i < 64; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return 0;
	return s[64] == '\0';
}

/* The file name in evidence/ of the entry hash, or NULL. */
static const char *S_arc_file_of(json_t *entries, const char *hash)
{
	json_t *e = json_object_get(entries, hash);
	const char *f = json_string_value(json_object_get(e, "file"));

	if (!f || strncmp(f, hash, 64) != 0 || strchr(f, '/'))
		return NULL;
	return f;
}

/* The entry hashes of dir a whose names hold name, into out (sorted). */
static void S_arc_named(S_arcdir *a, const char *name, gs_strvec *out)
{
	json_t *entries = S_arc_entries(a), *val, *n;
	const char *hash;
	size_t i;

	if (!entries)
		return;
	json_object_foreach(entries, hash, val) {
		json_array_foreach(json_object_get(val, "names"), i, n) {
			if (json_is_string(n) && strcmp(json_string_value(n), name) == 0) {
				gs_util_strvec_push_dup(out, hash);
				break;
			}
		}
	}
	gs_util_strvec_sort(out);
}

/* Reads evdir/file, which must hold len bytes (0: any, up to max) of SHA-256 hash. */
static char *S_arc_read(const char *evdir, const char *file, const char *hash, size_t max,
			size_t *len, gs_diag *d)
{
	gs_error why = GS_ERROR_INIT;
	char sha[65];
	char *path = S_join(evdir, file), *bytes;
	int fd = gs_infile_open_beneath(evdir, file, max, &why);

	if (fd < 0) {
		gs_diag_add(d, path, 0, 0, NULL, "%s", gs_error_message(&why));
		gs_error_release(&why);
		free(path);
		return NULL;
	}
	bytes = gs_infile_read_fd(fd, max, len, &why);
	if (!bytes) {
		gs_diag_add(d, path, 0, 0, NULL, "%s", gs_error_message(&why));
		gs_error_release(&why);
		free(path);
		return NULL;
	}
	S_sha(bytes, *len, sha);
	if (strcmp(sha, hash) != 0) {
		gs_diag_add(d, path, 0, 0, NULL, "its SHA-256 is %s, not the %s it is archived "
			    "under: the archive was changed", sha, hash);
		free(bytes);
		free(path);
		return NULL;
	}
	free(path);
	return bytes;
}

/* A record's "files", checked, with each file's bytes read from the archive. */
static int S_arc_load(S_arcdir *a, const char *rhash, const char *key, json_t **rec, S_arc *out,
		      gs_diag *d)
{
	const char *rfile = S_arc_file_of(a->entries, rhash);
	char *rpath, *text;
	size_t len, i, before = gs_diag_count(d);
	json_t *root, *files, *f;
	json_error_t je;

	memset(out, 0, sizeof(*out));
	*rec = NULL;
	if (!rfile) {
		gs_diag_add(d, a->evdir, 0, 0, NULL, "manifest.json: entry %s has no file", rhash);
		return -1;
	}
	text = S_arc_read(a->evdir, rfile, rhash, S_RECORD_MAX, &len, d);
	if (!text)
		return -1;
	rpath = S_join(a->evdir, rfile);
	root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
	free(text);
	files = json_object_get(root, "files");
	if (!json_is_object(root) ||
	    !json_is_string(json_object_get(root, "format")) ||
	    strcmp(json_string_value(json_object_get(root, "format")), S_RECORD_FORMAT) != 0 ||
	    !json_is_string(json_object_get(root, "key")) ||
	    strcmp(json_string_value(json_object_get(root, "key")), key) != 0 ||
	    !json_is_array(files) || json_array_size(files) > S_RECORD_FILES) {
		gs_diag_add(d, rpath, 0, 0, NULL, "not a record of model files (format %s) for %s",
			    S_RECORD_FORMAT, key);
		json_decref(root);
		free(rpath);
		return -1;
	}
	out->files = gs_xcalloc(json_array_size(files) + 1, sizeof(*out->files));
	json_array_foreach(files, i, f) {
		const char *name = json_string_value(json_object_get(f, "name"));
		const char *part = json_string_value(json_object_get(f, "part"));
		const char *sha = json_string_value(json_object_get(f, "sha256"));
		json_t *jb = json_object_get(f, "bytes"), *js = json_object_get(f, "size");
		const char *file;
		gs_model_file *mf = &out->files[out->n];

		if (!name || !*name || strchr(name, '/') || name[0] == '.' || !part ||
		    (strcmp(part, "header") != 0 && strcmp(part, "whole") != 0) || !sha ||
		    !S_hex64(sha) || !json_is_integer(jb) || !json_is_integer(js) ||
		    json_integer_value(jb) < 0 || json_integer_value(js) < json_integer_value(jb) ||
		    (uint64_t)json_integer_value(jb) > GS_MODEL_MAX_HEADER + 8) {
			gs_diag_add(d, rpath, 0, 0, NULL, "files[%zu]: expected a name, a part "
				    "(header or whole), a SHA-256, bytes and a size", i);
			break;
		}
		file = S_arc_file_of(a->entries, sha);
		if (!file) {
			gs_diag_add(d, rpath, 0, 0, NULL, "%s: its bytes (SHA-256 %s) are not in "
				    "the archive's manifest", name, sha);
			break;
		}
		mf->bytes = S_arc_read(a->evdir, file, sha, (size_t)json_integer_value(jb) + 1,
				       &mf->len, d);
		if (!mf->bytes)
			break;
		if (mf->len != (size_t)json_integer_value(jb)) {
			gs_diag_add(d, rpath, 0, 0, NULL, "%s: %zu bytes archived, the record says "
				    "%lld", name, mf->len, (long long)json_integer_value(jb));
			free(mf->bytes);
			break;
		}
		mf->name = gs_xstrdup(name);
		mf->header = strcmp(part, "header") == 0;
		mf->size = (uint64_t)json_integer_value(js);
		memcpy(mf->sha256, sha, 65);
		out->n++;
	}
	free(rpath);
	*rec = root;
	return gs_diag_count(d) == before ? 0 : -1;
}

static void S_arc_release(S_arc *a)
{
	size_t i;

	for (i = 0; i < a->n; i++) {
		free(a->files[i].name);
		free(a->files[i].bytes);
	}
	free(a->files);
	memset(a, 0, sizeof(*a));
}

/*
 * The record archived for key: the first folder holding one. 1 found (*dir,
 * *hash), 0 none, -1 reported (several records for the key in one folder,
 * or a manifest that cannot be read).
 */
static int S_arc_find_record(const char *key, S_arcdir **dir, char **hash, gs_diag *d)
{
	char *rname = gs_model_record_name(key);
	size_t i, k;

	for (i = 0; i < S_narcdirs; i++) {
		gs_strvec hs = GS_STRVEC_INIT;
		S_arc_named(&S_arcdirs[i], rname, &hs);
		if (S_arcdirs[i].err) {
			gs_diag_add(d, S_arcdirs[i].err, 0, 0, NULL, "cannot look for the model's "
				    "archived files");
			gs_util_strvec_release(&hs);
			free(rname);
			return -1;
		}
		if (hs.n > 1) {
			char *list = gs_xstrdup(""), *n;
			for (k = 0; k < hs.n; k++) {
				n = gs_xasprintf("%s%s%s", list, k ? ", " : "", hs.v[k]);
				free(list);
				list = n;
			}
			gs_diag_add(d, S_arcdirs[i].evdir, 0, 0, NULL, "%zu records of model files "
				    "are archived for %s (%s): the model changed between sheets; "
				    "name its commit in model.revision, or bring the model back",
				    hs.n, key, list);
			free(list);
			gs_util_strvec_release(&hs);
			free(rname);
			return -1;
		}
		if (hs.n == 1) {
			*dir = &S_arcdirs[i];
			*hash = gs_xstrdup(hs.v[0]);
			gs_util_strvec_release(&hs);
			free(rname);
			return 1;
		}
		gs_util_strvec_release(&hs);
	}
	free(rname);
	return 0;
}

static char *S_rec_str(json_t *rec, const char *k)
{
	const char *v = json_string_value(json_object_get(rec, k));

	return v ? gs_xstrdup(v) : NULL;
}

int gs_model_read_archived(const char *key, gs_model *m, int *rc, gs_diag *d)
{
	size_t before = gs_diag_count(d);
	S_arcdir *dir = NULL;
	char *hash = NULL;
	json_t *rec = NULL;
	S_arc arc;
	S_src src;
	int found = S_arc_find_record(key, &dir, &hash, d);

	if (found == 0)
		return 0;
	*rc = -1;
	S_begin(m, key);
	if (found < 0) {
		*rc = S_end(m, d, before);
		return 1;
	}
	if (S_arc_load(dir, hash, key, &rec, &arc, d) == 0) {
		src.dir = dir->evdir;
		src.dfd = -1;
		src.hf = NULL;
		src.arc = &arc;
		src.ol = NULL;
		m->repo_id = S_rec_str(rec, "repo");
		m->revision = S_rec_str(rec, "revision");
		m->commit = S_rec_str(rec, "commit");
		if (m->commit && !gs_hfcache_is_commit(m->commit)) {
			gs_diag_add(d, dir->evdir, 0, 0, NULL, "the record of %s names \"%s\", not "
				    "a commit", key, m->commit);
		} else if (gs_ollama_is_ref(key) && arc.n == 1) {
			/* Ollama's model layer: a GGUF file named by its digest */
			m->folder = gs_xstrdup(dir->evdir);
			m->archived = gs_xstrdup(dir->evdir);
			m->ollama = gs_xstrdup(key + strlen(GS_OLLAMA_PREFIX));
			S_read_gguf(&src, arc.files[0].name, m, d);
		} else {
			m->folder = gs_xstrdup(dir->evdir);
			m->archived = gs_xstrdup(dir->evdir);
			S_read_dir(&src, m, d);
		}
	}
	S_arc_release(&arc);
	json_decref(rec);
	free(hash);
	*rc = S_end(m, d, before);
	return 1;
}

int gs_model_check_archived(const char *key, const gs_model *m, gs_diag *d)
{
	size_t before = gs_diag_count(d), i, k;
	S_arcdir *dir = NULL;
	char *hash = NULL, *commit;
	json_t *rec = NULL;
	S_arc arc;
	gs_diag quiet = GS_DIAG_INIT;

	if (!m->commit)
		return 0;
	/* several records, or one unreadable: nothing to compare with */
	if (S_arc_find_record(key, &dir, &hash, &quiet) != 1) {
		gs_diag_release(&quiet);
		return 0;
	}
	if (S_arc_load(dir, hash, key, &rec, &arc, d) != 0) {
		S_arc_release(&arc);
		json_decref(rec);
		free(hash);
		return -1;
	}
	commit = S_rec_str(rec, "commit");
	for (i = 0; commit && strcmp(commit, m->commit) == 0 && i < arc.n; i++)
		for (k = 0; k < m->nfiles; k++)
			if (strcmp(arc.files[i].name, m->files[k].name) == 0 &&
			    arc.files[i].header == m->files[k].header &&
			    strcmp(arc.files[i].sha256, m->files[k].sha256) != 0) {
				char *file = S_join(m->folder ? m->folder : "", m->files[k].name);
				gs_diag_add(d, file, 0, 0, NULL, "the model changed under commit %s: "
					    "%s of this file has SHA-256 %s, the one archived in %s "
					    "for the same commit %s", m->commit,
					    m->files[k].header ? "the header" : "the content",
					    m->files[k].sha256, dir->evdir, arc.files[i].sha256);
				free(file);
			}
	free(commit);
	S_arc_release(&arc);
	json_decref(rec);
	free(hash);
	gs_diag_release(&quiet);
	return gs_diag_count(d) == before ? 0 : -1;
}
