/*
 * model: a model's geometry and exact weight bytes, read from its own files.
 *
 * Reads a local folder or file, never a download:
 *  - config.json (Hugging Face): the geometry of the covered architectures
 *    (Llama, Mistral, Qwen2, Phi-3, Gemma-2, Mixtral, GPT-NeoX) and the
 *    parameter count that geometry implies;
 *  - model.safetensors.index.json: metadata.total_size and the shards;
 *  - the headers of *.safetensors files: the 8-byte little-endian length,
 *    then the JSON header (dtype, shape, data_offsets of each tensor);
 *  - the header of one *.gguf file (version 2 or 3): metadata key-values
 *    and tensor infos, sized with the ggml type table; such a file found
 *    by name in Ollama's store (ollama.h) is hashed whole once, to check
 *    it against its manifest's digest, and only its header is parsed.
 *
 * Invariants:
 *  - tensor data is never read: only the header region of each file, and
 *    the file's size (fstat) to check every offset against it;
 *  - nothing is allocated from a count read in a file before that count is
 *    bounded by the bytes left in the file (and by the caps below);
 *  - a hostile or malformed file is refused with the file name and the
 *    byte offset where the problem lies ("at byte N: ...");
 *  - every figure says where it comes from (gs_model_source); a value no
 *    file states is missing (has_* == 0), never 0 and never guessed: for an
 *    architecture outside the covered list, found_keys / missing_keys say
 *    which geometry keys were present;
 *  - totals are exact integers with overflow checks; per-dtype rows are
 *    kept in the order of the dtype table (safetensors) or the ggml type
 *    number (GGUF), so that output is deterministic.
 */
#ifndef GS_MODEL_H
#define GS_MODEL_H

#include <stdint.h>
#include <stddef.h>
#include "diag.h"
#include "kvlayout.h"
#include "util.h"

/* A safetensors header longer than this is refused (as the reference
 * implementation does); the same cap bounds a GGUF header region and
 * config / index JSON files. */
#define GS_MODEL_MAX_HEADER UINT64_C(100000000)
/* GGUF: more tensors or metadata entries than this is refused. */
#define GS_MODEL_MAX_COUNT UINT64_C(1000000)

typedef enum {
	GS_ARCH_UNKNOWN = 0,
	GS_ARCH_LLAMA,
	GS_ARCH_MISTRAL,
	GS_ARCH_QWEN2,
	GS_ARCH_PHI3,
	GS_ARCH_GEMMA2,
	GS_ARCH_MIXTRAL,
	GS_ARCH_GPTNEOX,
	/* the entries added with the architecture table (model_int.h) */
	GS_ARCH_QWEN3,
	GS_ARCH_QWEN3_MOE,
	GS_ARCH_DEEPSEEK_V3,
	GS_ARCH_GPT_OSS,
	GS_ARCH_GEMMA3,
	GS_ARCH_GEMMA3_TEXT,
	GS_ARCH_LLAMA4,
	GS_ARCH_QWEN2_5_VL,
	GS_ARCH_QWEN3_NEXT,
	GS_ARCH_NEMOTRON_H,
	GS_ARCH_GLM4_MOE
} gs_arch;

/* A layer's token mixer: none (Nemotron-H's MLP and MoE layers), attention
 * (any kind: full, window, chunked, MLA), Mamba2, Gated DeltaNet. */
typedef enum {
	GS_MIXER_NONE = 0,
	GS_MIXER_ATTENTION,
	GS_MIXER_MAMBA2,
	GS_MIXER_GDN,
	GS_MIXERS
} gs_model_mixer;

/* The widths of the state mixers' layers (a hybrid's Mamba2 and Gated
 * DeltaNet), as config.json gives them: Mamba2's heads, head width, state
 * size and groups (Nemotron-H's mamba_num_heads, mamba_head_dim,
 * ssm_state_size, n_groups); Gated DeltaNet's key and value heads and
 * widths (Qwen3-Next's linear_num_key_heads, linear_num_value_heads,
 * linear_key_head_dim, linear_value_head_dim). 0: not this model's. */
typedef struct {
	uint64_t ssm_heads, ssm_head_dim, ssm_state, ssm_groups;
	uint64_t lin_kh, lin_vh, lin_kd, lin_vd;
} gs_state_dims;

typedef enum {
	GS_WEIGHTS_NONE = 0,      /* no weight file found: weight bytes missing */
	GS_WEIGHTS_INDEX,         /* only the index: metadata.total_size */
	GS_WEIGHTS_SAFETENSORS,   /* every shard's header read */
	GS_WEIGHTS_GGUF
} gs_weights_kind;

/* One row of the per-dtype (or per ggml type) totals. */
typedef struct {
	const char *name;         /* "BF16", "Q4_K", ...: static storage */
	uint64_t tensors;
	uint64_t params;          /* values: sum of shape products */
	uint64_t bytes;
	uint64_t block;           /* values per block (1 for plain types) */
	uint64_t block_bytes;     /* bytes per block */
} gs_model_dtype;

/*
 * A file the model was read from, as read: config.json and an index whole,
 * a safetensors shard's or a GGUF file's header bytes only (never tensor
 * data), with the file's size (its offsets are checked against it) and
 * the SHA-256 of the bytes kept. A sheet archives them with its evidence
 * (publish.h), so that it rebuilds without the model (gs_model_archive_*).
 */
typedef struct {
	char *name;               /* in the model's folder: "config.json", "x.safetensors" */
	int header;               /* 1: the file's first len bytes; 0: the whole file */
	char *bytes;
	size_t len;
	uint64_t size;            /* the file's size */
	char sha256[65];          /* "" until computed (gs_model_archive_use gives the hash) */
} gs_model_file;

/*
 * The layers' weight matrices a quantised format stores in fewer bits
 * (wformat.h), in two classes: the routed experts, and the other linear
 * layers of the decoder (attention projections, dense and shared
 * feed-forward). Rows are output features, columns input features. Not in
 * them (kept in 16 bits by every format): the routers, the state mixers,
 * the embeddings and the head, norms, biases, sinks, the vision tower, and
 * the multi-token-prediction layers the parameter count leaves out.
 */
typedef struct {
	uint64_t params;          /* sum of rows x cols */
	uint64_t matrices;
	uint64_t rows, cols;      /* sums over the matrices */
	uint64_t groups16, groups32, groups128; /* sum of rows x ceil(cols / g) */
	uint64_t tiles128;        /* sum of ceil(rows / 128) x ceil(cols / 128) */
	uint64_t gcd_rows, gcd_cols; /* 0 without matrices */
} gs_model_matrices;

typedef struct gs_model_s {
	char *path;               /* as given */
	char *folder;             /* the folder read (a cache's snapshot), as a path */
	char *repo_id;            /* "ORG/NAME" when read from the Hugging Face cache, or NULL */
	char *revision;           /* the revision asked there ("main", a tag, a commit) */
	char *commit;             /* the commit it names (40 hex digits) */
	char *ollama;             /* "NAME:TAG" when read from Ollama's store (ollama.h), or NULL */
	char *ollama_manifest;    /* that model's manifest, as a path */
	int bin_index;            /* 1: the index is pytorch_model.bin.index.json */
	char *config_file;        /* file names as shown (relative to path), or NULL */
	char *index_file;
	gs_strvec weight_files;   /* safetensors shards or the GGUF file read */
	gs_strvec missing_shards; /* listed in the index, not present */

	/* geometry */
	char *architecture;       /* architectures[0] / general.architecture */
	char *name_or_path;       /* config.json's _name_or_path, or NULL */
	char *model_type;         /* config model_type, or NULL */
	gs_arch arch;
	char *geometry_file;      /* where the geometry was read, or NULL */
	uint64_t layers, attention_heads, kv_heads, head_dim, hidden, vocab,
		 intermediate, context;
	int has_layers, has_attention_heads, has_kv_heads, has_head_dim, has_hidden,
	    has_vocab, has_intermediate, has_context;
	int head_dim_explicit;    /* 1: a head_dim key; 0: hidden / heads */
	uint64_t sliding_window;
	int has_sliding_window;
	const char *sliding_pattern; /* "every_layer", "every_other_layer",
				      * "max_window_layers", "layer_types" (see
				      * sliding_layers), "architecture", or NULL */
	uint64_t sliding_layers;  /* layers with the window, from layer_types; 0 otherwise */
	uint64_t experts, experts_active;
	int has_experts;
	int tied;                 /* -1 unknown, 0 no, 1 yes */
	int tied_default;         /* 1: not in the file, the architecture's default */
	char *torch_dtype;        /* or NULL */
	char *quant_method;       /* quantization_config.quant_method ("fp8", "mxfp4"), or NULL */
	/* the rest of quantization_config, where stated (0 / empty otherwise):
	 * bits (bits, w_bit, num_bits), group size (group_size, q_group_size),
	 * weight_block_size, and the modules kept in another format
	 * (modules_to_not_convert, ignore) */
	uint64_t quant_bits, quant_group, quant_block_rows, quant_block_cols;
	gs_strvec quant_kept;
	unsigned torch_dtype_bits;/* 0 unknown */
	uint64_t config_params;   /* calculated from the geometry */
	int has_config_params;
	/*
	 * What the architecture table adds (model_int.h). Experts: routed
	 * (experts), chosen per token (experts_active), shared (always
	 * active), the sizes of a routed and a shared expert, the layers that
	 * route; every expert is resident, active_params is what one token
	 * runs through (the embeddings and the head included).
	 */
	const struct gs_model_arch_s *entry; /* NULL: not covered */
	uint64_t experts_shared, moe_intermediate, shared_intermediate, moe_layers;
	uint64_t dense_intermediate; /* the MLP of the layers that do not route, or 0 */
	uint64_t active_params;
	int has_active_params;
	/* multi-head latent attention (DeepSeek-V3): q_lora_rank 0 when the
	 * queries are projected directly */
	uint64_t q_lora_rank, kv_lora_rank, qk_nope_head_dim, qk_rope_head_dim, v_head_dim;
	uint64_t chunk;           /* chunked attention's chunk (Llama 4), or 0 */
	/* the vision tower and its projector, counted in config_params */
	uint64_t vision_params;
	int has_vision;           /* 1: a vision tower counted; 2: one not counted */
	uint64_t vision_patch, vision_merge; /* patch size and spatial merge, or 0 */
	uint64_t vision_intermediate; /* vision_config.intermediate_size (the tower's MLP), or 0 */
	/* Qwen2.5-VL's tower (vision_config depth, hidden_size, out_hidden_size),
	 * or 0: the shapes of its linear modules, which LoRA can adapt */
	uint64_t vision_depth, vision_hidden, vision_out;
	uint64_t vision_image_size;  /* SigLIP (Gemma 3): the side every image is resized to, or 0 */
	uint64_t vision_image_tokens; /* Gemma 3: mm_tokens_per_image, or 0 */
	/* what the geometry's count leaves out, in words (static), with its
	 * parameters when the geometry gives them (params_note_value) */
	const char *params_note;
	uint64_t params_note_value;
	int has_params_note_value;
	/* the quantisable matrices (gs_model_matrices), with config_params */
	gs_model_matrices mat_experts, mat_linear;
	int has_matrices;
	/*
	 * The hybrids' layers (Nemotron-H, Qwen3-Next; model_arch.c), for a
	 * training recipe (decide/training.h): layer_mix[mixer][ffn] the layers
	 * of each token mixer (gs_model_mixer) and feed-forward block (0 none,
	 * 1 dense MLP, 2 experts), filled for every covered architecture;
	 * the state mixers' widths (gs_state_dims) and convolution kernel.
	 */
	uint64_t layer_mix[GS_MIXERS][3];
	gs_state_dims state;
	uint64_t state_conv_kernel;
	/* the cache per layer kind, in kind order; nlayout 0 without geometry */
	gs_kv_group layout[GS_KV_KINDS];
	size_t nlayout;
	gs_strvec found_keys;     /* geometry keys found (unknown architecture) */
	gs_strvec missing_keys;   /* geometry keys missing */

	/* weights */
	gs_weights_kind weights;
	uint64_t weight_bytes;    /* exact, when weights != NONE */
	uint64_t header_params;   /* sum of shape products, SAFETENSORS/GGUF */
	int has_header_params;
	uint64_t index_total;     /* index metadata.total_size */
	int has_index_total;
	uint64_t ntensors;
	gs_model_dtype *dtypes;
	size_t ndtypes;
	gs_strvec buffers;        /* tensors named like buffers (inv_freq, masks) */
	uint64_t buffer_params;
	/* tensors that tensor parallelism replicates on every card (norms,
	 * biases of row-parallel layers, router gates: gs_model_tensor_replicated),
	 * summed over the headers read; meaningful for SAFETENSORS only
	 * (gs_model_replicated) */
	uint64_t replicated_bytes;
	uint64_t replicated_tensors;
	/* the tensors of the safetensors headers, noted for gs_model_param_kinds */
	struct gs_model_pt_s *pt;
	size_t npt, pt_cap;
	unsigned gguf_version;    /* 0 when not GGUF */
	uint64_t gguf_alignment;

	/* the files read, in the order read (see gs_model_file) */
	gs_model_file *files;
	size_t nfiles;
	char *archived;           /* read from this evidence folder's archive, or NULL */
} gs_model;

/*
 * The parameters per kind of a checkpoint, calculated from its safetensors
 * headers or its GGUF header: each tensor's kind from its name, its
 * parameters from its shape, whatever its type (a GGUF tensor's elements
 * are the product of its dimensions, quantised or not) (model_kinds.c).
 * GGUF names are llama.cpp's (token_embd, output, blk.N.attn_q, attn_qkv,
 * ffn_up, ffn_gate_exps, ffn_gate_inp, ffn_up_shexp, *_norm, ...), placed
 * in the same kinds; a fused tensor of experts is routed experts, and a
 * LoRA role adds each expert's rows + columns. Kinds: the embeddings (embed_tokens, wte, embed_in), the
 * head (lm_head, embed_out), the attention (self_attn, attention, attn:
 * MLA's projections included), the dense MLP (mlp, feed_forward), the
 * routed experts (experts), the shared experts (shared_experts,
 * shared_expert), the routers (gate, router, shared_expert_gate,
 * e_score_correction_bias), the norms (a name component holding "norm" or
 * starting "ln_"), the quantisation scales (a name holding "scale": FP8's
 * weight_scale_inv), the rest (names not placed, packed blocks); and the tensors of layers numbered from config.json's layer
 * count on (DeepSeek-V3's multi-token-prediction layer 61, which
 * transformers does not load: _keys_to_ignore_on_load_unexpected), counted
 * apart. Buffers (inv_freq, masks) are no kind.
 */
typedef enum {
	GS_PK_EMBED = 0, GS_PK_HEAD, GS_PK_ATTENTION, GS_PK_DENSE, GS_PK_ROUTED, GS_PK_SHARED,
	GS_PK_ROUTER, GS_PK_NORM, GS_PK_SCALE, GS_PK_OTHER, GS_PK_BEYOND, GS_PK_COUNT
} gs_model_pkind;

/* The LoRA roles a matrix's module name gives, in the order of
 * recipe.h's gs_recipe_target_names (Mixtral's experts' w1, w3, w2 are
 * gate_proj, up_proj, down_proj; Phi-3's fused qkv_proj and gate_up_proj,
 * GPT-NeoX's query_key_value, dense, dense_h_to_4h and dense_4h_to_h are
 * roles of their own: PEFT adapts the module the checkpoint has; the
 * state mixers' in_proj, out_proj, in_proj_qkvz, in_proj_ba (a hybrid is
 * sized from its geometry: workload.c); index 20 is all-linear's bit, no
 * module's name; the routers' gate, shared_expert_gate and router too,
 * whatever the architecture: recipe.h says which of them are linear
 * modules; Qwen2.5-VL's vision tower's attn.qkv, attn.proj, merger.mlp.0
 * and merger.mlp.2). Role i is the target of bit i. */
#define GS_MODEL_LORA_ROLES 29
extern const char *const gs_model_lora_roles[GS_MODEL_LORA_ROLES + 1];

typedef struct {
	uint64_t params[GS_PK_COUNT];
	uint64_t total;           /* every kind's, BEYOND included */
	/* within the layers the model runs: the parameters of the linear
	 * layers' matrices (2-D .weight of the attention, the dense MLP, the
	 * experts), and per LoRA role the sum of rows + columns of its
	 * matrices (LoRA of rank r adds r x that) */
	uint64_t linear;
	uint64_t lora_io[GS_MODEL_LORA_ROLES];
	/* the routers' matrices (gate, shared_expert_gate, router .weight),
	 * linear where the architecture's routers are nn.Linear (recipe.h) */
	uint64_t router_linear;
} gs_model_pkinds;

/*
 * The kinds of m's checkpoint; 0, or -1 when m has no complete set of
 * safetensors headers nor a GGUF header (an index alone, a shard missing),
 * no layer count, or the sums overflow.
 */
int gs_model_param_kinds(const gs_model *m, gs_model_pkinds *k);
/* The kind of one tensor by its name (GS_PK_COUNT: a buffer), and its LoRA
 * role (an index of gs_model_lora_roles, or -1) when it is a .weight. */
gs_model_pkind gs_model_tensor_kind(const char *name, int *role);

/*
 * 1 when one geometry (layers x kv_heads x head_dim, with at most one
 * window for every layer) does not describe the model's cache: windows
 * on some layers only, chunks, MLA, state layers. A workload then carries
 * the layout (model.cache_layout).
 */
int gs_model_layout_needed(const gs_model *m);

/*
 * Reads PATH (a folder, a config.json, an index, a .safetensors or a .gguf).
 * A folder of the Hugging Face cache, models--ORG--NAME (at its revision
 * main) or one of its snapshots/COMMIT, is read as the cache is (hfcache.h:
 * links only into its blobs/), and sets repo_id, revision and commit; in
 * any other folder links are followed, and a dangling one is named so.
 * Returns 0, or -1 with every error in d (m is released then).
 */
int gs_model_read(const char *path, gs_model *m, gs_diag *d);
/*
 * Reads REPO_ID (ORG/NAME) at REVISION (NULL: main) from the local Hugging
 * Face cache (hfcache.h), offline. The same return.
 */
int gs_model_read_repo(const char *repo_id, const char *revision, gs_model *m, gs_diag *d);
/*
 * How a sheet names the model: the repo id; else config.json's
 * _name_or_path (its last component when it is a path); else the last
 * component of from, the model's folder; else the architecture; never the
 * architecture class when a name is known. Caller frees.
 */
char *gs_model_display_name(const gs_model *m, const char *from);
/*
 * Reads "ollama:NAME[:TAG]" from Ollama's local store (ollama.h): the
 * manifest's model layer, a GGUF file, its size and SHA-256 checked
 * against the manifest, then its header read as any GGUF file's. Sets
 * ollama and ollama_manifest; folder is the store's blobs/. The same return.
 */
int gs_model_read_ollama(const char *ref, gs_model *m, gs_diag *d);
/*
 * REF as a user types it: a path when one exists by that name, else
 * ollama:NAME[:TAG] from Ollama's store, else ORG/NAME[@REVISION] from the
 * cache, else "no such file or folder".
 */
int gs_model_read_ref(const char *ref, gs_model *m, gs_diag *d);
void gs_model_release(gs_model *m);

/*
 * The archive of model files. A sheet archives the files its model was
 * read from (gs_model_file) with its evidence, and with them a record
 * (JSON, format "gpusheet-model-files/1": key, repo, revision, commit and
 * per file its name, part, SHA-256, bytes kept and file size) archived
 * under the name "model:KEY#files.json", KEY naming the model as the
 * workload does: "hf:ORG/NAME@REVISION" (the revision as asked, main by
 * default) or "path:ID:FROM" (the workload's id and its model.from).
 *
 * gs_model_archive_use adds an evidence folder (SITE/evidence) to look in,
 * and the SHA-256 function (publish's, passed in: read/ comes before
 * publish/ in the flow) that hashes the files read from then on and
 * checks archived ones;
 * a model that cannot be read where the workload names it is then read
 * from the files archived there under its key (each checked against its
 * SHA-256), and a model read from the Hugging Face cache at the commit an
 * archived record names must have the bytes archived: a file that differs
 * is an error naming it. Folders are looked in in the order added.
 */
typedef void (*gs_model_sha_fn)(const void *bytes, size_t len, char hex[65]);
void gs_model_archive_use(const char *evidence_dir, gs_model_sha_fn sha);
/* The key of a model named by repo id (revision NULL: main), or by the
 * path from in the workload id. Caller frees. */
char *gs_model_key_repo(const char *repo_id, const char *revision);
char *gs_model_key_path(const char *workload_id, const char *from);
/* The archive name of a key's record ("model:KEY#files.json"); caller frees. */
char *gs_model_record_name(const char *key);
/*
 * The record of the files m was read from (the key's), as canonical JSON
 * text (sorted keys, trailing newline); caller frees.
 */
char *gs_model_record(const gs_model *m, const char *key, size_t *len);
/*
 * 1 when an archived record holds key; then reads the model from its
 * archived files into m (0, or -1 with errors in d and m released),
 * returning through *rc. 0 when no folder holds the key (m untouched).
 */
int gs_model_read_archived(const char *key, gs_model *m, int *rc, gs_diag *d);
/*
 * After a read from the Hugging Face cache: each file also archived for
 * the same key and commit must have the same bytes. 0, or -1 with errors
 * in d naming the file.
 */
int gs_model_check_archived(const char *key, const gs_model *m, gs_diag *d);

/*
 * ggml type table: name, values per block and bytes per block of a type
 * number; -1 for a number that is not (or no longer) a type.
 */
int gs_model_ggml_type(unsigned type, const char **name, uint64_t *block, uint64_t *block_bytes);
/* safetensors dtype: bits per value (8..64), or 0 when unknown. */
unsigned gs_model_safetensors_dtype_bits(const char *dtype);
/*
 * The dtype holding the most bytes (the storage format a workload shows),
 * or NULL without per-dtype totals.
 */
const gs_model_dtype *gs_model_main_dtype(const gs_model *m);
/* Parameters to show: from the headers when read, else from the geometry. */
int gs_model_params(const gs_model *m, uint64_t *out);
/*
 * Is the tensor NAME held whole on every card under tensor parallelism, in
 * vLLM and Megatron-LM (docs/formats.md §5)? The norms (a name component
 * holding "norm", or starting "ln_"), the biases of row-parallel layers
 * (o_proj, down_proj, dense, dense_4h_to_h, c_proj, out_proj, fc2: added
 * whole after the all-reduce) and the routers of mixtures of experts
 * (block_sparse_moe.gate, mlp.gate, shared_expert_gate). The embeddings
 * and the LM head are split by vocabulary: not replicated.
 */
int gs_model_tensor_replicated(const char *name);
/*
 * The bytes of those tensors, with the count of tensors in *tensors (may
 * be NULL): 0 when every safetensors header was read (the tensors' names
 * and sizes are known), -1 otherwise (an index alone, a GGUF file, only a
 * config.json: unknown, never 0).
 */
int gs_model_replicated(const gs_model *m, uint64_t *bytes, uint64_t *tensors);

#endif
