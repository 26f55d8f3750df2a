/*
 * model_int: the model module's private header, for model_arch.c, the
 * architectures `model` covers, as a table: one entry per
 * config.json model_type, saying where its geometry lies (the root, or
 * text_config for a model with a vision tower), which keys it reads, how
 * each layer is built (its attention or state kind and its feed-forward
 * kind), its biases and norms, its experts and its vision tower. One
 * generic reading and one generic count serve every entry: adding an
 * architecture is one entry plus its tests (tests/data/models/).
 *
 * What it gives the model (model.h): the geometry, the parameter count
 * the geometry implies (config_params), the active parameters per token
 * of a mixture of experts, the vision tower's parameters, what the count
 * leaves out (params_note), and the cache layout per layer kind
 * (kvlayout.h).
 *
 * Invariants:
 *  - the formulas are those of the architecture's modules in Hugging Face
 *    transformers (weights and biases, no buffers), named per entry in
 *    docs/models.md with the figures they give for real configs;
 *  - a key the formula needs and the file lacks is a missing key
 *    (gs_model.missing_keys), never a default guessed; a default is used
 *    only where transformers' configuration class has one, and then it is
 *    the class's own;
 *  - every product is exact in 128 bits and refused beyond 64.
 */
#ifndef GS_MODEL_INT_H
#define GS_MODEL_INT_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "jsonread.h"

struct gs_model_s;
typedef struct gs_model_arch_s gs_model_arch;

/* model_kinds.c: 1 when a tensor holds a buffer, not parameters (inv_freq, masks) */
int gs_model_tensor_buffer(const char *name);
/* model_kinds.c: one tensor of a safetensors header, noted for
 * gs_model_param_kinds (shape: its ndim dimensions when ndim is 2) */
void gs_model_kinds_note(struct gs_model_s *m, const char *name, const uint64_t *shape,
			 size_t ndim, uint64_t params);
/* model_kinds.c: one tensor of a GGUF header (ne: its nd dimensions in
 * ggml's order), noted once the architecture is known (m->arch names the
 * checkpoint's modules) */
void gs_model_kinds_note_gguf(struct gs_model_s *m, const char *name, const uint64_t *ne,
			      size_t nd, uint64_t params);

/* The entry of model_type, or NULL when the table has none. */
const gs_model_arch *gs_model_arch_find(const char *model_type);
/* The number of entries, and the model_type of entry i (for the docs' list). */
size_t gs_model_arch_count(void);
const char *gs_model_arch_model_type(size_t i);
/* The entry's gs_arch (model.h), as an int to keep this header light. */
int gs_model_arch_arch(const gs_model_arch *a);
/* transformers' default for tie_word_embeddings of the entry. */
int gs_model_arch_tied_default(const gs_model_arch *a);
/* "text_config" when the entry's geometry lies under that key, else NULL. */
const char *gs_model_arch_text_key(const gs_model_arch *a);

/*
 * Reads the geometry of the entry from config.json: root is the file's
 * object, text the object holding the text model's geometry (root, or
 * root.text_config), tpath its JSON path ("$" or "$.text_config"). The
 * common keys (hidden_size, layers, heads, head_dim, intermediate_size,
 * vocab_size, window) are read by the caller already; this reads the
 * entry's own, lays out the layers, and fills the parameter count, the
 * active parameters, the vision tower and the cache layout. Errors go to
 * r with their JSON path.
 */
void gs_model_arch_read(const gs_model_arch *a, gs_jr *r, json_t *root, json_t *text,
		     const char *tpath, struct gs_model_s *m);

#endif
