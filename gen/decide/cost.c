/* cost: what a campaign costs on one plan of an offer. */
#include "cost.h"
#include "quantity.h"

int gs_cost_of_plan(const gs_plan *p, uint64_t hours, uint64_t lots, gs_cost *out)
{
	uint64_t billed = hours, units, cost;

	if (!p->hours || p->price_hundredths <= 0)
		return -1;
	if (p->billing_hours) {
		uint64_t blocks = hours / p->billing_hours + (hours % p->billing_hours != 0);
		if (gs_qty_mul_u64(blocks, p->billing_hours, &billed))
			return -1;
	}
	units = billed / p->hours + (billed % p->hours != 0);
	if (p->price_micro > 0) {
		/* exact in millionths, then rounded up to the cent once */
		if (gs_qty_mul_u64(units, (uint64_t)p->price_micro, &cost) ||
		    gs_qty_mul_u64(cost, lots, &cost))
			return -1;
		cost = cost / 10000 + (cost % 10000 != 0);
		if (cost > INT64_MAX)
			return -1;
	} else if (gs_qty_mul_u64(units, (uint64_t)p->price_hundredths, &cost) ||
		   gs_qty_mul_u64(cost, lots, &cost) || cost > INT64_MAX) {
		return -1;
	}
	out->billed_hours = billed;
	out->units = units;
	out->cost = (int64_t)cost;
	return 0;
}
