/*
 * cost: what a campaign costs on one plan of an offer.
 *
 * Invariants:
 *  - pure integer arithmetic on hundredths of the plan's currency, every
 *    product checked for overflow (then -1, nothing set);
 *  - the campaign's hours are first rounded up to the plan's billing unit
 *    when the catalog states one (billing_hours), otherwise billed by the
 *    whole hour; whole plans of p->hours hours are then bought back to
 *    back: units = ceil(billed hours / plan hours);
 *  - cost = units x price x lots (a lot is what one plan buys: its cards
 *    come together), exact in millionths of the currency when the plan has
 *    price_micro, then rounded up to the cent once.
 */
#ifndef GS_COST_H
#define GS_COST_H

#include <stdint.h>
#include "catalog.h"

typedef struct {
	uint64_t billed_hours;   /* campaign hours rounded up to the billing unit */
	uint64_t units;          /* plans bought, per lot */
	int64_t cost;            /* hundredths of p->currency */
} gs_cost;

/* 0 with *out set, or -1 on overflow or a zero-length plan. */
int gs_cost_of_plan(const gs_plan *p, uint64_t hours, uint64_t lots, gs_cost *out);

#endif
