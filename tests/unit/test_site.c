/*
 * test_site: what the site's matrix shows of each workload: the offer to
 * take (gs_publish_result_from_decision over gs_verdict_best), the total
 * cost per offer, the per-offer counts of the footer rows and the column
 * order by memory per card. Decisions are built by hand here, so that every
 * expectation below follows from the case alone.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "labels.h"
#include "publish.h"
#include "site.h"
#include "site_figures.h"
#include "site_nav.h"

#define GB 1000000000ull

/*
 * The catalog, in catalog order:
 *   0 "a": 80 GB nominal          2 "c": no memory figure
 *   1 "b": 24 GB nominal          3 "d": 40 GB nominal, 42 949 672 960 B declared (40 GiB)
 */
static void S_catalog(gs_catalog *cat, gs_offer *o, gs_plan *usd)
{
	memset(cat, 0, sizeof(*cat));
	memset(o, 0, 4 * sizeof(*o));
	memset(usd, 0, sizeof(*usd));
	usd->currency = "USD";
	o[0].id = "a";
	o[0].nominal_bytes = 80 * GB;
	o[1].id = "b";
	o[1].nominal_bytes = 24 * GB;
	o[2].id = "c";
	o[2].memory_unknown = 1;
	o[3].id = "d";
	o[3].nominal_bytes = 40 * GB;
	o[3].has_declared_bytes = 1;
	o[3].declared_bytes = 40ull << 30;
	cat->offers = o;
	cat->noffers = 4;
}

/* A candidate on offer o: 0 retained, 1 pre-selected, 2 excluded; every requirement admissible. */
static void S_cand(gs_candidate *c, const gs_offer *o, int status, const gs_plan *plan,
		   int64_t cost)
{
	int q;

	memset(c, 0, sizeof(*c));
	c->offer = o;
	c->retained = status == 0;
	c->excluded = status == 2;
	/* the class the ranking gives: a pre-selected one here holds the need */
	c->cls = status == 0 ? GS_CLASS_RETAINED : status == 2 ? GS_CLASS_EXCLUDED : GS_CLASS_FITS;
	for (q = 0; q < GS_REQ_COUNT; q++)
		c->v[q].kind = status == 2 ? GS_V_EXCLUDE : GS_V_ADMISSIBLE;
	c->plan = plan;
	c->cost = cost;
}

/* Decimal digits of n. */
static size_t S_digits(size_t n)
{
	size_t d = 1;

	while (n >= 10)
		n /= 10, d++;
	return d;
}

/*
 * The pager of n pages: from every page cur (every 7th from 2,000 up), the
 * pages it links are in order, once, below n, and hold the first, the last
 * and cur with two on each side; there are at most 7 + 10 a scale of ten;
 * and every page is at most 2 + digits(n) links away from the first
 * (breadth first over the links).
 */
static void S_pager(size_t n)
{
	size_t *dist = malloc(n * sizeof(*dist)), *queue = malloc(n * sizeof(*queue));
	size_t pages[GS_SITE_PAGER_MAX], np, cur, i, head = 0, tail = 0, seen = 1, far = 0;
	size_t step = n >= 2000 ? 7 : 1;

	if (!CHECK(dist && queue))
		goto out;
	for (cur = 0; cur < n; cur += step) {
		int ok = 1, has_first = 0, has_last = 0;
		size_t near = 0;
		np = gs_site_nav_pager_pages(cur, n, pages);
		for (i = 0; i < np; i++) {
			ok &= pages[i] < n && (i == 0 || pages[i] > pages[i - 1]);
			has_first |= pages[i] == 0;
			has_last |= pages[i] == n - 1;
			near += (size_t)(pages[i] + 2 >= cur && pages[i] <= cur + 2);
		}
		if (!CHECK(ok && has_first && has_last) ||
		    !CHECK(near == (cur >= 2 ? 3 : cur + 1) + (cur + 2 < n ? 2 : n - 1 - cur)) ||
		    !CHECK(n <= GS_SITE_PAGER_ALL ? np == n : np <= 7 + 10 * (S_digits(n) - 1))) {
			fprintf(stderr, "  pager of %zu pages from page %zu: %zu links\n", n, cur, np);
			goto out;
		}
	}
	for (i = 0; i < n; i++)
		dist[i] = SIZE_MAX;
	dist[0] = 0;
	queue[tail++] = 0;
	while (head < tail) {
		size_t u = queue[head++];
		np = gs_site_nav_pager_pages(u, n, pages);
		for (i = 0; i < np; i++)
			if (dist[pages[i]] == SIZE_MAX) {
				dist[pages[i]] = dist[u] + 1;
				far = dist[pages[i]] > far ? dist[pages[i]] : far;
				queue[tail++] = pages[i];
				seen++;
			}
	}
	if (!CHECK(seen == n && far <= 2 + S_digits(n)))
		fprintf(stderr, "  pager of %zu pages: %zu reached, the farthest %zu links away\n",
			n, seen, far);
out:
	free(dist);
	free(queue);
}

int main(void)
{
	gs_catalog cat;
	gs_offer o[4];
	gs_plan usd;
	gs_candidate cands[3];
	size_t order[3];
	gs_decision d;
	gs_publish_result res[3];
	size_t counts[4][3], cols[4];

	S_catalog(&cat, o, &usd);
	memset(res, 0, sizeof(res));

	/*
	 * Workload 1 compares a, b, d (not c). a and b are retained, b ranked
	 * first (50.00 USD against 120.00 USD); d is excluded. The offer to
	 * take is b, the first retained, at 5 000 hundredths; nothing to confirm.
	 */
	S_cand(&cands[0], &o[0], 0, &usd, 12000);
	S_cand(&cands[1], &o[1], 0, &usd, 5000);
	S_cand(&cands[2], &o[3], 2, NULL, 0);
	/* a million tokens at the bound: a on-demand, b interruptible only, d none */
	cands[0].on_demand.plan = &usd;
	cands[0].has_mtok_on_demand = 1;
	cands[0].mtok_on_demand = 2719662;
	cands[1].interruptible.plan = &usd;
	cands[1].has_mtok_interruptible = 1;
	cands[1].mtok_interruptible = 1150;
	order[0] = 1, order[1] = 0, order[2] = 2;
	memset(&d, 0, sizeof(d));
	d.cands = cands, d.ncands = 3, d.order = order, d.nretained = 2;
	gs_publish_result_from_decision(&d, &cat, &res[0]);
	/* the classes, c not compared (GS_CLASS_COUNT), and the costs of a million tokens */
	CHECK(res[0].cls[0] == GS_CLASS_RETAINED && res[0].cls[1] == GS_CLASS_RETAINED &&
	      res[0].cls[2] == GS_CLASS_COUNT && res[0].cls[3] == GS_CLASS_EXCLUDED);
	CHECK(res[0].mtok[0] == 2719662 && STREQ(res[0].mtok_currency[0], "USD") && !res[0].mtok_intr[0]);
	CHECK(res[0].mtok[1] == 1150 && STREQ(res[0].mtok_currency[1], "USD") && res[0].mtok_intr[1]);
	CHECK(res[0].mtok_currency[2] == NULL && res[0].mtok_currency[3] == NULL);
	CHECK(res[0].best == 1);
	CHECK(res[0].best_missing == 0);
	CHECK(res[0].status[0] == 0 && res[0].status[1] == 0 && res[0].status[2] == 3 &&
	      res[0].status[3] == 2);
	CHECK(res[0].cost[1] == 5000 && STREQ(res[0].currency[1], "USD"));
	CHECK(res[0].cost[0] == 12000 && STREQ(res[0].currency[0], "USD"));
	CHECK(res[0].currency[2] == NULL && res[0].currency[3] == NULL);   /* no plan: no cost, not 0 */
	CHECK(res[0].nretained == 2 && res[0].npreselected == 0);

	/*
	 * Workload 2 compares a and d, both pre-selected: a still needs memory
	 * and calendar, d only calendar, so the ranking puts d first. The offer
	 * to take is d, closest to retained; it still needs the calendar
	 * (bit GS_REQ_CALENDAR = 2, so best_missing = 1 << 2 = 4); no plan.
	 */
	S_cand(&cands[0], &o[0], 1, &usd, 9900);
	cands[0].v[GS_REQ_MEMORY].kind = GS_V_TO_CONFIRM;
	cands[0].v[GS_REQ_CALENDAR].kind = GS_V_TO_CONFIRM;
	S_cand(&cands[1], &o[3], 1, NULL, 0);
	cands[1].v[GS_REQ_CALENDAR].kind = GS_V_TO_CONFIRM;
	order[0] = 1, order[1] = 0;
	memset(&d, 0, sizeof(d));
	d.cands = cands, d.ncands = 2, d.order = order, d.npreselected = 2;
	gs_publish_result_from_decision(&d, &cat, &res[1]);
	/*
	 * The offer page's cells, per offer (tab-separated): the need per card
	 * and the margin in GiB with their provenance, then, pre-selected, the
	 * requirements still to confirm by name (their reasons are in the
	 * sheet, where the row links), after a capacity other than the
	 * catalog's; an offer not compared gives none. a: 30 GiB calculated
	 * against 80 GB nominal (assumed): margin 80e9 - 30 x 2^30 =
	 * 47 787 745 280 B = 44.51 GiB, assumed (the weaker). d: no need
	 * known, a capacity of 39 GiB read on the device (not the catalog's
	 * 40 GiB declared).
	 */
	cands[0].v[GS_REQ_MEMORY].why = "why.budget.no_price";
	cands[0].v[GS_REQ_CALENDAR].why = "why.calendar.on_request";
	cands[0].need = gs_qty_make(30ull << 30, GS_PROV_CALCULATED);
	cands[0].capacity = gs_qty_make(80 * GB, GS_PROV_ASSUMED);
	cands[0].cap_source = GS_CAP_NOMINAL;
	cands[0].has_margin = 1;
	cands[0].margin = (int64_t)(80 * GB) - (int64_t)(30ull << 30);
	cands[1].v[GS_REQ_CALENDAR].why = "why.calendar.stock_only";
	cands[1].capacity = gs_qty_make(39ull << 30, GS_PROV_OBSERVED);
	cands[1].cap_source = GS_CAP_OBSERVED;
	{
		gs_strings t;
		gs_diag dg = GS_DIAG_INIT;
		if (CHECK(gs_tr_load(GS_LANG_EN, &t, &dg) == 0)) {
			gs_candidate x;
			gs_decision dx;
			gs_publish_result rx;
			size_t ox = 0;
			int q;
			gs_publish_result_reasons(&d, &cat, &t, NULL, &res[1]);
			CHECK_STR(res[1].reason[0], "30.00 (calculated)\t44.51 (assumed)\tMemory, Calendar");
			CHECK_STR(res[1].reason[3], "missing\tmissing\tCapacity per card for this workload: "
				  "39.00 GiB (observed). To confirm: Calendar");
			CHECK(res[1].reason[1] == NULL && res[1].reason[2] == NULL);
			/*
			 * Excluded: each exclusion's reason, in its short form when
			 * it has one (no capacity: the page's header gives it; no
			 * cost: the row's total cost gives it). b: the weights,
			 * 30 GiB, above 24 GB; over a budget of 50.00 USD; a
			 * margin of 24e9 - 30 x 2^30 = -8 212 254 720 B =
			 * -7.65 GiB.
			 */
			S_cand(&x, &o[1], 2, &usd, 9900);
			for (q = 0; q < GS_REQ_COUNT; q++)
				x.v[q].kind = GS_V_ADMISSIBLE;
			x.need = gs_qty_make(30ull << 30, GS_PROV_CALCULATED);
			x.capacity = gs_qty_make(24 * GB, GS_PROV_ASSUMED);
			x.cap_source = GS_CAP_NOMINAL;
			x.has_margin = 1;
			x.margin = (int64_t)(24 * GB) - (int64_t)(30ull << 30);
			x.v[GS_REQ_MEMORY].kind = GS_V_EXCLUDE;
			x.v[GS_REQ_MEMORY].why = "why.memory.lower_exceeds_card";
			x.v[GS_REQ_MEMORY].a = gs_qty_make(30ull << 30, GS_PROV_CALCULATED);
			x.v[GS_REQ_MEMORY].b = gs_qty_make(24 * GB, GS_PROV_ASSUMED);
			x.v[GS_REQ_BUDGET].kind = GS_V_EXCLUDE;
			x.v[GS_REQ_BUDGET].why = "why.budget.over";
			x.v[GS_REQ_BUDGET].cost = 9900;
			x.v[GS_REQ_BUDGET].budget = 5000;
			x.v[GS_REQ_BUDGET].has_money = 1;
			x.v[GS_REQ_BUDGET].s1 = "USD";
			memset(&dx, 0, sizeof(dx));
			memset(&rx, 0, sizeof(rx));
			dx.cands = &x, dx.ncands = 1, dx.order = &ox;
			gs_publish_result_from_decision(&dx, &cat, &rx);
			gs_publish_result_reasons(&dx, &cat, &t, NULL, &rx);
			CHECK_STR(rx.reason[1], "30.00 (calculated)\t\xe2\x88\x92" "7.65 (assumed)\t"
				  "Memory: Calculated certainty: the calculated lower bound (30.00 GiB (calculated)) "
				  "exceeds the most this card can hold, and no offloading is declared. "
				  "Budget: The total cost is above the budget of 50.00 USD.");
			gs_publish_result_release(&rx);
			gs_tr_release(&t);
		}
		gs_diag_release(&dg);
	}
	CHECK(res[1].best == 3);
	CHECK(res[1].best_missing == 4u);
	CHECK(res[1].currency[3] == NULL);
	CHECK(res[1].status[0] == 1 && res[1].status[1] == 3 && res[1].status[2] == 3 &&
	      res[1].status[3] == 1);

	/* Workload 3 compares a and b, both excluded: no offer to take. */
	S_cand(&cands[0], &o[0], 2, NULL, 0);
	S_cand(&cands[1], &o[1], 2, NULL, 0);
	order[0] = 0, order[1] = 1;
	memset(&d, 0, sizeof(d));
	d.cands = cands, d.ncands = 2, d.order = order;
	gs_publish_result_from_decision(&d, &cat, &res[2]);
	CHECK(res[2].best == GS_PUBLISH_NO_BEST);
	CHECK(res[2].best_missing == 0);

	/*
	 * Footer counts [retained, pre-selected, excluded] per offer:
	 *   a: w1 retained, w2 pre-selected, w3 excluded   -> 1 1 1
	 *   b: w1 retained, w3 excluded                     -> 1 0 1
	 *   c: compared by none ("not compared" not counted)-> 0 0 0
	 *   d: w1 excluded, w2 pre-selected                 -> 0 1 1
	 */
	gs_site_figures_offer_counts(res, 3, 4, counts);
	CHECK(counts[0][0] == 1 && counts[0][1] == 1 && counts[0][2] == 1);
	CHECK(counts[1][0] == 1 && counts[1][1] == 0 && counts[1][2] == 1);
	CHECK(counts[2][0] == 0 && counts[2][1] == 0 && counts[2][2] == 0);
	CHECK(counts[3][0] == 0 && counts[3][1] == 1 && counts[3][2] == 1);
	/* A reference card is status 4 whatever its verdicts: neither
	 * pre-selected nor excluded, counted in no footer, never the best. */
	{
		gs_candidate rc[1];
		size_t ro[1] = { 0 };
		gs_decision rd;
		gs_publish_result rr;
		S_cand(&rc[0], &o[0], 1, NULL, 0);
		rc[0].cls = GS_CLASS_REFERENCE;
		memset(&rd, 0, sizeof(rd));
		memset(&rr, 0, sizeof(rr));
		rd.cands = rc, rd.ncands = 1, rd.order = ro;
		rd.nclass[GS_CLASS_REFERENCE] = 1;
		gs_publish_result_from_decision(&rd, &cat, &rr);
		CHECK(rr.status[0] == 4 && rr.best == GS_PUBLISH_NO_BEST);
		{
			size_t c1[4][3];
			gs_site_figures_offer_counts(&rr, 1, 4, c1);
			CHECK(c1[0][0] == 0 && c1[0][1] == 0 && c1[0][2] == 0);
		}
		gs_publish_result_release(&rr);
	}
	/* Only the first workload: a and b retained once, d excluded once. */
	gs_site_figures_offer_counts(res, 1, 4, counts);
	CHECK(counts[0][0] == 1 && counts[1][0] == 1 && counts[3][2] == 1 && counts[0][2] == 0);

	/*
	 * Columns by memory per card: b 24e9 B < d 42 949 672 960 B (declared
	 * wins over its 40e9 nominal) < a 80e9 B < c unknown (last).
	 */
	gs_site_figures_offer_order(&cat, cols);
	CHECK(cols[0] == 1 && cols[1] == 3 && cols[2] == 0 && cols[3] == 2);
	/* Ties keep catalog order: with d declared at exactly 80e9 B, a (0) comes before d (3). */
	o[3].declared_bytes = 80 * GB;
	gs_site_figures_offer_order(&cat, cols);
	CHECK(cols[0] == 1 && cols[1] == 0 && cols[2] == 3 && cols[3] == 2);

	/*
	 * The offers page's groups: provider, then GPU model, then catalog order;
	 * no provider last. a (p2, H100), b (p1, L4), c (none, A10), d (p1, A10):
	 * p1 before p2 -> d (p1 A10), b (p1 L4), then a (p2), then c (no provider).
	 */
	o[0].provider = "p2", o[0].gpu_model = "H100";
	o[1].provider = "p1", o[1].gpu_model = "L4";
	o[2].provider = NULL, o[2].gpu_model = "A10";
	o[3].provider = "p1", o[3].gpu_model = "A10";
	gs_site_figures_offer_groups(&cat, cols);
	CHECK(cols[0] == 3 && cols[1] == 1 && cols[2] == 0 && cols[3] == 2);
	/* same provider and model: catalog order (b before d) */
	o[3].gpu_model = "L4";
	gs_site_figures_offer_groups(&cat, cols);
	CHECK(cols[0] == 1 && cols[1] == 3 && cols[2] == 0 && cols[3] == 2);

	/*
	 * The index's columns by GPU lot (gs_site_figures_gpu_columns): model,
	 * cards per lot and memory per card, by memory per lot. a: 1 x H100
	 * 80e9 B = 80e9 B a lot; b: 8 x L4 24e9 B = 192e9 B; c: 1 x L4, memory
	 * unknown (last); d: 2 x L4 at 24e9 B nominal = 48e9 B. Then b's lot
	 * like d's (2 x L4, 24e9 B): one column of b and d, in catalog order.
	 */
	{
		size_t lots[4], start[5], nc;
		o[3].declared_bytes = 0;
		o[3].has_declared_bytes = 0;
		o[3].nominal_bytes = 24 * GB;
		o[0].gpu_model = "H100", o[0].cards = 1;
		o[1].gpu_model = "L4", o[1].cards = 8;
		o[2].gpu_model = "L4", o[2].cards = 1;
		o[3].gpu_model = "L4", o[3].cards = 2;
		CHECK_U64(gs_site_figures_lot_memory(&o[1]), 192 * GB);
		CHECK_U64(gs_site_figures_lot_memory(&o[2]), UINT64_MAX);
		nc = gs_site_figures_gpu_columns(&cat, lots, start);
		CHECK_INT(nc, 4);
		CHECK(lots[0] == 3 && lots[1] == 0 && lots[2] == 1 && lots[3] == 2);
		CHECK(start[0] == 0 && start[1] == 1 && start[2] == 2 && start[3] == 3 && start[4] == 4);
		o[1].cards = 2;
		nc = gs_site_figures_gpu_columns(&cat, lots, start);
		CHECK_INT(nc, 3);
		/* 48e9 B a lot: b and d (catalog order); then a at 80e9 B; then c */
		CHECK(lots[0] == 1 && lots[1] == 3 && lots[2] == 0 && lots[3] == 2);
		CHECK(start[0] == 0 && start[1] == 2 && start[2] == 3 && start[3] == 4);
		/* same memory per lot, another model: model order (byte order), not one column */
		o[0].nominal_bytes = 48 * GB;
		o[0].gpu_model = "A10";
		nc = gs_site_figures_gpu_columns(&cat, lots, start);
		CHECK_INT(nc, 3);
		CHECK(lots[0] == 0 && lots[1] == 1 && lots[2] == 3 && lots[3] == 2);
		o[0].nominal_bytes = 80 * GB;
	}
	/*
	 * An offer's price per hour of the lot (gs_site_figures_offer_hour):
	 * its cheapest plan's price / hours, millionths, half up. 10.00 USD
	 * for 72 h = 0.1388888... -> 138 889; 0.50 USD for 3 h = 0.1666666...
	 * -> 166 667; an interruptible 0.05 USD for 1 h apart; a plan in EUR
	 * comes before USD (byte order) whatever its price.
	 */
	{
		gs_plan pl[4];
		gs_offer x;
		int64_t micro = 0;
		const char *cur = NULL;
		memset(pl, 0, sizeof(pl));
		memset(&x, 0, sizeof(x));
		pl[0].hours = 72, pl[0].price_micro = 10000000, pl[0].price_hundredths = 1000, pl[0].currency = "USD";
		pl[1].hours = 3, pl[1].price_micro = 500000, pl[1].price_hundredths = 50, pl[1].currency = "USD";
		pl[2].hours = 1, pl[2].price_micro = 50000, pl[2].price_hundredths = 5, pl[2].currency = "USD";
		pl[2].interruptible = 1;
		pl[3].hours = 1, pl[3].price_micro = 9000000, pl[3].price_hundredths = 900, pl[3].currency = "EUR";
		x.plans = pl;
		x.nplans = 2;
		CHECK_INT(gs_site_figures_offer_hour(&x, 0, &micro, &cur), 0);
		CHECK_INT(micro, 138889);
		CHECK_STR(cur, "USD");
		CHECK_INT(gs_site_figures_offer_hour(&x, 1, &micro, &cur), -1);
		x.nplans = 3;
		CHECK_INT(gs_site_figures_offer_hour(&x, 1, &micro, &cur), 0);
		CHECK_INT(micro, 50000);
		x.nplans = 4;
		CHECK_INT(gs_site_figures_offer_hour(&x, 0, &micro, &cur), 0);
		CHECK_INT(micro, 9000000);
		CHECK_STR(cur, "EUR");
		pl[0].hours = 3, pl[0].price_micro = 500001;   /* 166 667.0 exactly: no rounding up */
		x.nplans = 1;
		CHECK_INT(gs_site_figures_offer_hour(&x, 0, &micro, &cur), 0);
		CHECK_INT(micro, 166667);
		pl[0].price_micro = 500000;   /* 166 666.67 -> 166 667 */
		CHECK_INT(gs_site_figures_offer_hour(&x, 0, &micro, &cur), 0);
		CHECK_INT(micro, 166667);
		pl[0].price_micro = 499999;   /* 166 666.33 -> 166 666 */
		CHECK_INT(gs_site_figures_offer_hour(&x, 0, &micro, &cur), 0);
		CHECK_INT(micro, 166666);
	}

	gs_publish_result_release(&res[0]);
	gs_publish_result_release(&res[1]);
	gs_publish_result_release(&res[2]);

	/* The pagers: every page up to 15, else a few around and at each scale. */
	{
		size_t pages[GS_SITE_PAGER_MAX], np, i;
		static const size_t want[] = { 0, 9, 19, 29, 39, 47, 48, 49, 50, 51,
					       59, 69, 79, 89, 99 };
		size_t sizes[] = { 2, 15, 16, 99, 100, 101, 1000, 1001, 12345 };
		np = gs_site_nav_pager_pages(49, 100, pages);   /* page 50 of 100 */
		if (CHECK(np == sizeof(want) / sizeof(want[0])))
			for (i = 0; i < np; i++)
				CHECK(pages[i] == want[i]);
		np = gs_site_nav_pager_pages(3, 15, pages);
		CHECK(np == 15 && pages[14] == 14);
		for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
			S_pager(sizes[i]);
	}
	return gs_check_exit("test_site");
}
