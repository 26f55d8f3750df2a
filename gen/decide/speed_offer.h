/*
 * speed_offer: the speed bounds (speed.h) of a workload on one offer's
 * cards: what a step reads and computes, from the sizing.
 *
 *   weights read per step: the weights' bytes (calculated), times active
 *   over all parameters for a mixture of experts (every expert resident,
 *   the active ones read). Every weight byte counts, the embedding table
 *   included, of which a step reads only its tokens' rows: a bound that
 *   counts it lies below the true bound by at most the table's share;
 *   KV read per sequence: the cache of one sequence at the context the
 *   sheet sizes (its tokens kept), so the speed of the last steps;
 *   earlier steps read less;
 *   sequences: the workload's (sizing.h kv_sequences);
 *   cards: every card of the lot: whatever the layout (tensor
 *   parallelism, replicas), each weight byte and each sequence's cache
 *   is read at least once per step, by the lot's cards together; a cache
 *   that does not split by heads (an MLA latent under vLLM) is read whole
 *   on each card.
 */
#ifndef GS_SPEED_OFFER_H
#define GS_SPEED_OFFER_H

#include <stdint.h>
#include "sizing.h"
#include "speed.h"
#include "workload.h"

/*
 * The bounds of w on a lot of `cards` cards with the datasheet figures g
 * (speed.h gs_speed_gpu_of, gs_speed_fastest; NULL: unknown). 0 with *out
 * set (out->known 0 for a task other than inference, or when the weights
 * or the card's figures are missing), -1 beyond 64 bits.
 */
int gs_speed_offer(const gs_workload *w, const gs_sizing *s, const gs_speed_gpu *g, uint64_t cards,
		   gs_speed *out);

#endif
