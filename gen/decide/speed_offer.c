/* speed_offer: a workload's load per step on an offer's cards. */
#include "speed_offer.h"

#include <string.h>

int gs_speed_offer(const gs_workload *w, const gs_sizing *s, const gs_speed_gpu *g, uint64_t cards,
		   gs_speed *out)
{
	gs_speed_load l;
	int found;
	uint64_t active = w->has_active_parameters ? w->active_parameters : w->parameters;

	memset(&l, 0, sizeof(l));
	/* a training or an adaptation decodes nothing: no bound */
	if (w->task == GS_TASK_INFERENCE && s->weights.present)
		l.weights_read = gs_speed_active_bytes(s->weights.bytes, w->parameters,
						       w->has_active_parameters ? w->active_parameters : 0);
	l.kv_read = s->kv_per_sequence.present ? s->kv_per_sequence.bytes : 0;
	l.sequences = s->kv_sequences ? s->kv_sequences : 1;
	l.cards = cards ? cards : 1;
	l.kv_replicated = l.cards > 1 && l.kv_read && !gs_sizing_kv_splits(w, s, l.cards);
	l.active_parameters = active;
	l.input_tokens = gs_workload_dim(w, "input_tokens", &found);
	if (!found)
		l.input_tokens = 0;
	/* speed_assumptions: k draft tokens, k + 1 at most a step (certain);
	 * the efficiency and the mean a step, assumed */
	l.tokens_per_step_max = w->spec_draft_tokens ? w->spec_draft_tokens + 1 : 0;
	l.efficiency_milli = w->has_decode_efficiency ? w->decode_efficiency_milli : 0;
	l.tokens_per_step_milli = w->has_spec_tokens_per_step ? w->spec_tokens_per_step_milli : 0;
	return gs_speed_bound(g, &l,
			      w->compute_format ? w->compute_format : w->storage_format, out);
}
