/*
 * Unit tests of per-hour plans: the campaign cost (gen/decide/cost.h) and the
 * catalog attributes behind it (billing unit, interruptible, a provider's
 * MiB, an undated claim with its reference), worked by hand.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "catalog.h"
#include "check.h"
#include "cost.h"

static void test_cost(void)
{
	gs_plan p;
	gs_cost c;

	memset(&p, 0, sizeof(p));
	/* 1.29 USD per hour, no billing unit: a 3-day campaign is 72 h,
	 * 72 x 129 = 9288 hundredths = 92.88 USD */
	p.hours = 1;
	p.price_hundredths = 129;
	if (CHECK_INT(gs_cost_of_plan(&p, 72, 1, &c), 0)) {
		CHECK_U64(c.billed_hours, 72);
		CHECK_U64(c.units, 72);
		CHECK_INT(c.cost, 9288);
	}
	/* two lots: 2 x 92.88 = 185.76 USD */
	if (CHECK_INT(gs_cost_of_plan(&p, 72, 2, &c), 0))
		CHECK_INT(c.cost, 18576);
	/* billed by whole days (24 h): 30 h -> 48 h billed, 48 x 1.29 = 61.92 */
	p.billing_hours = 24;
	if (CHECK_INT(gs_cost_of_plan(&p, 30, 1, &c), 0)) {
		CHECK_U64(c.billed_hours, 48);
		CHECK_INT(c.cost, 6192);
	}
	/* a 72-hour package of 47.14 USD (the seed's), 100 h: 2 packages = 94.28 */
	memset(&p, 0, sizeof(p));
	p.hours = 72;
	p.price_hundredths = 4714;
	if (CHECK_INT(gs_cost_of_plan(&p, 100, 1, &c), 0)) {
		CHECK_U64(c.units, 2);
		CHECK_INT(c.cost, 9428);
	}
	/* overflow: refused, not wrapped */
	p.hours = 1;
	p.price_hundredths = INT64_MAX;
	CHECK_INT(gs_cost_of_plan(&p, 2, 1, &c), -1);
	p.price_hundredths = 100;
	CHECK_INT(gs_cost_of_plan(&p, UINT64_MAX, 2, &c), -1);
	/* a zero-length plan is not a plan */
	p.hours = 0;
	CHECK_INT(gs_cost_of_plan(&p, 1, 1, &c), -1);
}

static const char S_cat[] =
	"<catalog xmlns=\"https://gpusheet.example/ns/catalog/1\" title=\"t\">\n"
	"  <offer id=\"a\" provider=\"P\">\n"
	"    <gpu model=\"A100-80GB\"/>\n"
	"    <lot cards=\"8\"/>\n"
	"    <memory mib=\"81920\" source=\"p.csv, line 2\" ref=\"commit 1\"/>\n"
	"    <regions names=\"us-1 eu-2\" source=\"p.csv, line 2\" ref=\"commit 1\"/>\n"
	"    <plan hours=\"1\" price=\"14.32\" currency=\"USD\" billing-hours=\"24\" source=\"p.csv\" date=\"2026-11-30\"/>\n"
	"    <plan hours=\"1\" price=\"5.00\" currency=\"USD\" interruptible=\"true\" source=\"p.csv\" ref=\"commit 1\"/>\n"
	"  </offer>\n"
	"  <offer id=\"b\">\n"
	"    <gpu model=\"X\"/>\n"
	"    <lot cards=\"1\"/>\n"
	"  </offer>\n"
	"</catalog>\n";

static void test_read(void)
{
	gs_catalog cat;
	gs_diag d = GS_DIAG_INIT;
	const gs_offer *o;
	char buf[64];

	if (!CHECK_INT(gs_catalog_read_memory("t.xml", S_cat, sizeof(S_cat) - 1,
					      GS_TEST_SOURCE_DIR "/catalog/catalog.rng", &cat, &d), 0)) {
		gs_diag_print(&d, stderr);
		gs_diag_release(&d);
		return;
	}
	o = gs_catalog_find(&cat, "a");
	if (CHECK(o != NULL)) {
		/* 81920 MiB x 2^20 = 85899345920 B per card */
		CHECK_U64(o->nominal_bytes, 85899345920ull);
		CHECK_STR(gs_catalog_offer_memory_label(o, "missing", buf, sizeof(buf)), "81920 MiB");
		CHECK(o->memory_claim.date == NULL);
		CHECK_STR(gs_catalog_claim_when(&o->memory_claim, "date not recorded", buf, sizeof(buf)),
			  "date not recorded, commit 1");
		CHECK_INT(o->nregions, 2);
		if (CHECK_INT(o->nplans, 2)) {
			CHECK_U64(o->plans[0].billing_hours, 24);
			CHECK_INT(o->plans[0].interruptible, 0);
			CHECK_STR(gs_catalog_claim_when(&o->plans[0].claim, "x", buf, sizeof(buf)), "2026-11-30");
			CHECK_INT(o->plans[1].interruptible, 1);
		}
	}
	o = gs_catalog_find(&cat, "b");
	if (CHECK(o != NULL)) {
		/* no memory element: missing, not 0 bytes of memory */
		CHECK_INT(o->memory_unknown, 1);
		CHECK_STR(gs_catalog_offer_memory_label(o, "missing", buf, sizeof(buf)), "missing");
	}
	gs_catalog_release(&cat);
	gs_diag_release(&d);
}

/* Refused: a claim with neither date nor ref; a bad mib; both figures. */
static void S_refused(const char *xml, const char *want, int line)
{
	gs_catalog cat;
	gs_diag d = GS_DIAG_INIT;
	int rc = gs_catalog_read_memory("t.xml", xml, strlen(xml),
					GS_TEST_SOURCE_DIR "/catalog/catalog.rng", &cat, &d);
	size_t i;
	int found = 0;

	for (i = 0; i < d.count; i++)
		found |= strstr(d.items[i].message, want) != NULL;
	gs_check_at(rc == -1 && found, __FILE__, line, "expected an error with '%s' (rc %d, %zu errors%s%s)",
		    want, rc, d.count, d.count ? ": " : "", d.count ? d.items[0].message : "");
	gs_diag_release(&d);
}

#define HEAD "<catalog xmlns=\"https://gpusheet.example/ns/catalog/1\" title=\"t\"><offer id=\"a\"><gpu model=\"X\"/><lot cards=\"1\"/>"
#define TAIL "</offer></catalog>"

static void test_refused(void)
{
	S_refused(HEAD "<memory mib=\"1\" source=\"s\"/>" TAIL,
		  "element 'memory': missing required attribute 'date' (or 'ref'", __LINE__);
	S_refused(HEAD "<memory mib=\"40.5\" source=\"s\" ref=\"r\"/>" TAIL,
		  "attribute 'mib': expected a positive whole number of MiB", __LINE__);
	S_refused(HEAD "<memory mib=\"1\" nominal-gb=\"1\" source=\"s\" ref=\"r\"/>" TAIL,
		  "memory", __LINE__);
	S_refused(HEAD "<plan hours=\"1\" price=\"1\" currency=\"USD\" billing-hours=\"0\" source=\"s\" ref=\"r\"/>" TAIL,
		  "attribute 'billing-hours'", __LINE__);
	S_refused(HEAD "<regions names=\"us/1\" source=\"s\" ref=\"r\"/>" TAIL,
		  "attribute 'names'", __LINE__);
}

int main(void)
{
	test_cost();
	test_read();
	test_refused();
	return gs_check_exit("test_cost");
}
