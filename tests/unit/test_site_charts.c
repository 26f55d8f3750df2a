/*
 * test_site_charts: the figures of the offers page's charts, from the
 * catalog and the results alone (gs_site_figures_gib_day_data,
 * gs_site_figures_campaign_data): the cost per GiB-day of each plan, the reference
 * workload's total cost per offer with its verdict, the cheapest hourly
 * price per offer without a reference, one series per currency, and the
 * offers not drawn with why. Every expectation is worked out by hand below.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "publish.h"
#include "site.h"
#include "site_figures.h"

#define GB 1000000000ull
#define GIB 1073741824ull

/*
 * The catalog, in catalog order (= page order here):
 *   0 "a": 24 GB nominal (24 000 000 000 B), 1 card; 72 h at 47.14 USD
 *   1 "b": 40 GiB declared (42 949 672 960 B), 2 cards; 1 h at 2.58 USD,
 *          72 h at 150.00 USD
 *   2 "c": 80 GB nominal, 1 card; no plan
 *   3 "d": no memory figure, 1 card; 1 h at 1.00 EUR
 *   4 "e": 80 GB nominal, 1 card; 1 h at 3.00 EUR
 */
static gs_offer S_o[5];
static gs_plan S_pa[1], S_pb[2], S_pd[1], S_pe[1];

static void S_plan(gs_plan *p, uint64_t hours, int64_t hundredths, char *cur)
{
	memset(p, 0, sizeof(*p));
	p->hours = hours;
	p->price_hundredths = hundredths;
	p->currency = cur;
}

static void S_catalog(gs_catalog *cat)
{
	memset(cat, 0, sizeof(*cat));
	memset(S_o, 0, sizeof(S_o));
	S_plan(&S_pa[0], 72, 4714, "USD");
	S_plan(&S_pb[0], 1, 258, "USD");
	S_plan(&S_pb[1], 72, 15000, "USD");
	S_plan(&S_pd[0], 1, 100, "EUR");
	S_plan(&S_pe[0], 1, 300, "EUR");
	S_o[0].id = "a", S_o[0].cards = 1, S_o[0].nominal_bytes = 24 * GB;
	S_o[0].plans = S_pa, S_o[0].nplans = 1;
	S_o[1].id = "b", S_o[1].cards = 2, S_o[1].nominal_bytes = 40 * GB;
	S_o[1].has_declared_bytes = 1, S_o[1].declared_bytes = 40 * GIB;
	S_o[1].plans = S_pb, S_o[1].nplans = 2;
	S_o[2].id = "c", S_o[2].cards = 1, S_o[2].nominal_bytes = 80 * GB;
	S_o[3].id = "d", S_o[3].cards = 1, S_o[3].memory_unknown = 1;
	S_o[3].plans = S_pd, S_o[3].nplans = 1;
	S_o[4].id = "e", S_o[4].cards = 1, S_o[4].nominal_bytes = 80 * GB;
	S_o[4].plans = S_pe, S_o[4].nplans = 1;
	cat->offers = S_o;
	cat->noffers = 5;
}

static int S_pt(const gs_site_point *p, size_t offer, size_t plan, uint64_t value,
		unsigned char status)
{
	return p->offer == offer && p->plan == plan && p->value == value && p->status == status;
}

int main(void)
{
	gs_catalog cat;
	gs_site_chart_data d;
	size_t page[5] = { 0, 1, 2, 3, 4 };
	uint64_t q = 0;
	gs_plan zero;

	S_catalog(&cat);

	/*
	 * Cost per GiB-day = price x 2^30 x 24 / (bytes x cards x hours), in
	 * ten-thousandths, half up:
	 *   a:        47.14 / 3 days / (24e9 / 2^30 = 22.3517 GiB) = 0.703003 -> 7030
	 *   b, 1 h:    2.58 x 24 / (40 GiB x 2 cards)            = 0.774    -> 7740
	 *   b, 72 h: 150.00 / 3 days / 80 GiB                     = 0.625    -> 6250
	 *   e:         3.00 x 24 / (80e9 / 2^30 = 74.5058 GiB)    = 0.966368 -> 9664
	 * c has no plan (no price known) and d no memory figure (no cost per
	 * GiB): neither is drawn, both are listed, in page order.
	 * Two currencies, two series, in byte order: EUR [e], USD by value
	 * [b 72 h, a, b 1 h].
	 */
	CHECK(gs_site_figures_gib_day(&S_pa[0], 24 * GB, 1, &q) == 0 && q == 7030);
	CHECK(gs_site_figures_gib_day(&S_pe[0], 80 * GB, 1, &q) == 0 && q == 9664);
	S_plan(&zero, 0, 100, "USD");
	CHECK(gs_site_figures_gib_day(&zero, 24 * GB, 1, &q) == -1);     /* no hours: no figure */
	CHECK(gs_site_figures_gib_day(&S_pa[0], 0, 1, &q) == -1);        /* no bytes: no figure */
	S_plan(&zero, 1, INT64_MAX, "USD");
	CHECK(gs_site_figures_gib_day(&zero, 1, 1, &q) == -1);           /* beyond 64 bits: refused */
	gs_site_figures_gib_day_data(&cat, page, 5, &d);
	if (CHECK(d.nseries == 2)) {
		CHECK_STR(d.series[0].currency, "EUR");
		CHECK(d.series[0].n == 1 && S_pt(&d.series[0].pts[0], 4, 0, 9664, 3));
		CHECK_STR(d.series[1].currency, "USD");
		if (CHECK(d.series[1].n == 3)) {
			CHECK(S_pt(&d.series[1].pts[0], 1, 1, 6250, 3));
			CHECK(S_pt(&d.series[1].pts[1], 0, 0, 7030, 3));
			CHECK(S_pt(&d.series[1].pts[2], 1, 0, 7740, 3));
		}
	}
	if (CHECK(d.nmissing == 2)) {
		CHECK(d.missing[0] == 2 && d.why[0] == GS_SITE_NO_PRICE);
		CHECK(d.missing[1] == 3 && d.why[1] == GS_SITE_NO_MEMORY);
	}
	gs_site_figures_chart_data_release(&d);

	/*
	 * A page of a, c and e only: the same figures for the offers it holds,
	 * nothing of the others.
	 */
	{
		size_t some[3] = { 0, 2, 4 };
		gs_site_figures_gib_day_data(&cat, some, 3, &d);
		CHECK(d.nseries == 2 && d.series[0].n == 1 && d.series[1].n == 1 &&
		      S_pt(&d.series[1].pts[0], 0, 0, 7030, 3));
		CHECK(d.nmissing == 1 && d.missing[0] == 2);
		gs_site_figures_chart_data_release(&d);
	}

	/*
	 * Without a reference workload: each offer's cheapest hourly price per
	 * currency, price x 100 / hours in ten-thousandths, half up:
	 *   a: 4714 x 100 / 72 = 6547.2 -> 6547
	 *   b: 1 h: 25800; 72 h: 1500000 / 72 = 20833.3 -> 20833, the cheaper (plan 1)
	 *   d: 10000 (EUR)      e: 30000 (EUR)
	 * By memory per card, unknown last: EUR [e (80e9 B), d (unknown)],
	 * USD [a (24e9 B), b (40 GiB)]; c listed: no price known.
	 */
	gs_site_figures_campaign_data(&cat, page, 5, NULL, &d);
	if (CHECK(d.nseries == 2)) {
		CHECK(d.series[0].n == 2 && S_pt(&d.series[0].pts[0], 4, 0, 30000, 3) &&
		      S_pt(&d.series[0].pts[1], 3, 0, 10000, 3));
		CHECK(d.series[1].n == 2 && S_pt(&d.series[1].pts[0], 0, 0, 6547, 3) &&
		      S_pt(&d.series[1].pts[1], 1, 1, 20833, 3));
	}
	CHECK(d.nmissing == 1 && d.missing[0] == 2 && d.why[0] == GS_SITE_NO_PRICE);
	gs_site_figures_chart_data_release(&d);

	/*
	 * With a reference workload: its total cost on each offer it compares
	 * (hundredths) and its verdict there:
	 *   a retained, 141.42 USD        b excluded, 1.00 USD (an exclusion keeps its cost)
	 *   c not compared                d pre-selected, no cost known (it has a plan)
	 *   e pre-selected, 5.00 EUR
	 * Series: EUR [e 500 pre-selected], USD by memory [a 14142 retained,
	 * b 100 excluded]; listed: c not compared, d no cost.
	 */
	{
		gs_publish_result ref;
		unsigned char st[5] = { 0, 2, 3, 1, 1 };
		int64_t cost[5] = { 14142, 100, 0, 0, 500 };
		const char *cur[5] = { "USD", "USD", NULL, NULL, "EUR" };

		memset(&ref, 0, sizeof(ref));
		ref.id = "ref";
		ref.status = st;
		ref.noffers = 5;
		ref.cost = cost;
		ref.currency = cur;
		gs_site_figures_campaign_data(&cat, page, 5, &ref, &d);
		if (CHECK(d.nseries == 2)) {
			CHECK_STR(d.series[0].currency, "EUR");
			CHECK(d.series[0].n == 1 && S_pt(&d.series[0].pts[0], 4, 0, 500, 1));
			CHECK(d.series[1].n == 2 && S_pt(&d.series[1].pts[0], 0, 0, 14142, 0) &&
			      S_pt(&d.series[1].pts[1], 1, 0, 100, 2));
		}
		if (CHECK(d.nmissing == 2)) {
			CHECK(d.missing[0] == 2 && d.why[0] == GS_SITE_NOT_COMPARED);
			CHECK(d.missing[1] == 3 && d.why[1] == GS_SITE_NO_COST);
		}
		gs_site_figures_chart_data_release(&d);
	}

	/* An empty page: nothing drawn, nothing listed. */
	gs_site_figures_gib_day_data(&cat, page, 0, &d);
	CHECK(d.nseries == 0 && d.nmissing == 0);
	gs_site_figures_chart_data_release(&d);

	/* Memory per card: declared beats nominal; unknown is UINT64_MAX. */
	CHECK(gs_site_figures_offer_memory(&S_o[1]) == 40 * GIB);
	CHECK(gs_site_figures_offer_memory(&S_o[0]) == 24 * GB);
	CHECK(gs_site_figures_offer_memory(&S_o[3]) == UINT64_MAX);
	return gs_check_exit("test_site_charts");
}
