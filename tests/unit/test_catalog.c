/*
 * test_catalog: the XML catalog reader against catalog/offers.xml, a catalog
 * that uses every element, and one bad file per rule in tests/bad/catalog/.
 */
#define _POSIX_C_SOURCE 200809L

#include "catalog.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libxml/parser.h>

#include "check.h"

#ifndef GS_TEST_SOURCE_DIR
#error "GS_TEST_SOURCE_DIR must name the source tree"
#endif

static char S_schema[4096];

static const char *S_src(char *buf, size_t size, const char *rel)
{
	snprintf(buf, size, "%s/%s", GS_TEST_SOURCE_DIR, rel);
	return buf;
}

/*** the bundled catalog ***/

static void S_check_seed_plan(const gs_offer *o, int64_t hundredths,
			      const char *source)
{
	if (!CHECK(o != NULL) || !CHECK_INT(o->nplans, 1))
		return;
	CHECK_INT(o->plans[0].hours, 72);
	CHECK_INT(o->plans[0].price_hundredths, hundredths);
	CHECK_STR(o->plans[0].currency, "USD");
	CHECK_STR(o->plans[0].claim.source, source);
	CHECK_STR(o->plans[0].claim.date, "2026-11-01");
}

static void test_bundled_catalog(void)
{
	char path[4096];
	gs_catalog c;
	gs_diag d = GS_DIAG_INIT;
	const gs_offer *o;
	size_t i;

	S_src(path, sizeof(path), "catalog/offers.xml");
	CHECK_INT(gs_catalog_read(path, S_schema, &c, &d), 0);
	CHECK_INT(gs_diag_count(&d), 0);
	gs_diag_print(&d, stderr);
	CHECK(c.noffers >= 10);

	o = gs_catalog_find(&c, "rtx4090-1x");
	if (CHECK(o != NULL)) {
		CHECK_STR(o->gpu_model, "RTX 4090");
		CHECK_STR(o->provider, "IteraGPU");
		CHECK_STR(o->segment, "workstation");
		CHECK_INT(o->cards, 1);
		CHECK_STR(o->nominal_gb_text, "24");
		CHECK_U64(o->nominal_bytes, UINT64_C(24000000000));
		CHECK_STR(o->memory_claim.source,
		       "IteraGPU GPU sheet: RTX 4090 \xe2\x80\x94 lot, capacity and plans");
		CHECK_STR(o->memory_claim.date, "2026-11-01");
		/* the seed says nothing of these: they stay unknown */
		CHECK_INT(o->has_declared_bytes, 0);
		CHECK_INT(o->availability.kind, GS_AVAIL_UNKNOWN);
		CHECK_INT(o->nsoftware, 0);
		CHECK_INT(o->has_host_ram, 0);
		CHECK(o->interconnect == NULL);
	}
	S_check_seed_plan(o, 4714,
			  "IteraGPU GPU sheet: RTX 4090 \xe2\x80\x94 lot, capacity and plans");

	o = gs_catalog_find(&c, "rtx6000ada-1x");
	if (CHECK(o != NULL)) {
		CHECK_STR(o->gpu_model, "RTX 6000 Ada");
		CHECK_INT(o->cards, 1);
		CHECK_U64(o->nominal_bytes, UINT64_C(48000000000));
		CHECK_INT(o->has_declared_bytes, 0);
		CHECK_INT(o->availability.kind, GS_AVAIL_UNKNOWN);
	}
	S_check_seed_plan(o, 5571,
			  "IteraGPU GPU sheet: RTX 6000 Ada \xe2\x80\x94 lot, capacity and plans");

	o = gs_catalog_find(&c, "h200-1x");
	if (CHECK(o != NULL)) {
		CHECK_U64(o->nominal_bytes, UINT64_C(141000000000));
		CHECK_STR(o->segment, "data-centre");
		CHECK(o->provider == NULL);
	}
	o = gs_catalog_find(&c, "h100-sxm-2x");
	if (CHECK(o != NULL)) {
		CHECK_INT(o->cards, 2);
		CHECK_U64(o->nominal_bytes, UINT64_C(80000000000));
	}
	o = gs_catalog_find(&c, "mi300x-1x");
	if (CHECK(o != NULL))
		CHECK_U64(o->nominal_bytes, UINT64_C(192000000000));
	CHECK(gs_catalog_find(&c, "no-such-offer") == NULL);
	CHECK(gs_catalog_find(&c, NULL) == NULL);

	/* No price is known beyond the seed's: none is invented. */
	for (i = 0; i < c.noffers; i++) {
		const gs_offer *x = &c.offers[i];
		CHECK(x->id != NULL && x->memory_claim.source && x->memory_claim.date);
		CHECK(x->cards > 0 && x->nominal_bytes > 0);
		if (strcmp(x->id, "rtx4090-1x") != 0 && strcmp(x->id, "rtx6000ada-1x") != 0)
			CHECK_INT(x->nplans, 0);
		CHECK_INT(x->has_declared_bytes, 0);
	}
	gs_catalog_release(&c);
	gs_diag_release(&d);
}

/*** every element ***/

static const char S_full[] =
	"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	"<catalog xmlns=\"https://gpusheet.example/ns/catalog/1\" title=\"full\">\n"
	"  <offer id=\"full-2x\" provider=\"p\" segment=\"data-centre\">\n"
	"    <gpu model=\"H100 SXM\" device-name=\"NVIDIA H100 80GB HBM3\"/>\n"
	"    <lot cards=\"2\"/>\n"
	"    <memory nominal-gb=\"80\" source=\"s1\" date=\"2026-11-01\"/>\n"
	"    <declared-bytes value=\"18446744073709551615\" source=\"s2\" date=\"2026-11-02\"/>\n"
	"    <plan hours=\"24\" price=\"100\" currency=\"EUR\" source=\"s3\" date=\"2024-02-29\"/>\n"
	"    <plan hours=\"72\" price=\"250.5\" currency=\"EUR\" source=\"s3\" date=\"2000-02-29\"/>\n"
	"    <availability kind=\"window\" from=\"2026-12-01\" to=\"2026-12-01\" source=\"s4\" date=\"2026-11-03\"/>\n"
	"    <software name=\"CUDA 12.4\" installed=\"true\" source=\"s5\" date=\"2026-11-04\"/>\n"
	"    <software name=\"PyTorch 2.5\" installed=\"false\" source=\"s5\" date=\"2026-11-04\"/>\n"
	"    <host ram-gb=\"512.5\" source=\"s6\" date=\"2026-11-05\"/>\n"
	"    <interconnect name=\"NVLink\" source=\"s7\" date=\"2026-11-06\"/>\n"
	"    <notes>a &amp; b</notes>\n"
	"  </offer>\n"
	"  <offer id=\"stock-1x\">\n"
	"    <gpu model=\"L40S\"/>\n"
	"    <lot cards=\"1\"/>\n"
	"    <memory nominal-gb=\"0.5\" source=\"s\" date=\"2026-11-01\"/>\n"
	"    <availability kind=\"stock\" stock=\"3\" source=\"s\" date=\"2026-11-01\"/>\n"
	"  </offer>\n"
	"  <offer id=\"req-1x\">\n"
	"    <gpu model=\"L40S\"/>\n"
	"    <lot cards=\"1\"/>\n"
	"    <memory nominal-gb=\"48\" source=\"s\" date=\"2026-11-01\"/>\n"
	"    <availability kind=\"on-request\" source=\"s\" date=\"2026-11-01\"/>\n"
	"  </offer>\n"
	"</catalog>\n";

static int S_write_temp(char *path, size_t size, const char *text)
{
	const char *dir = getenv("TMPDIR");
	FILE *f;
	int fd;

	snprintf(path, size, "%s/gs-catalog-XXXXXX", dir && *dir ? dir : "/tmp");
	fd = mkstemp(path);
	if (fd < 0)
		return -1;
	f = fdopen(fd, "w");
	if (!f) {
		close(fd);
		return -1;
	}
	fputs(text, f);
	return fclose(f);
}

static void test_every_element(void)
{
	char path[4096];
	gs_catalog c;
	gs_diag d = GS_DIAG_INIT;
	const gs_offer *o;
	xmlExternalEntityLoader before = xmlGetExternalEntityLoader();

	if (!CHECK(S_write_temp(path, sizeof(path), S_full) == 0))
		return;
	CHECK_INT(gs_catalog_read(path, S_schema, &c, &d), 0);
	gs_diag_print(&d, stderr);
	CHECK(xmlGetExternalEntityLoader() == before);
	CHECK_STR(c.title, "full");
	CHECK_INT(c.noffers, 3);
	o = gs_catalog_find(&c, "full-2x");
	if (CHECK(o != NULL)) {
		CHECK_STR(o->device_name, "NVIDIA H100 80GB HBM3");
		CHECK_INT(o->cards, 2);
		CHECK(o->has_declared_bytes && o->declared_bytes == UINT64_MAX);
		CHECK_STR(o->declared_claim.source, "s2");
		if (CHECK_INT(o->nplans, 2)) {
			CHECK_INT(o->plans[0].price_hundredths, 10000);
			CHECK_INT(o->plans[1].price_hundredths, 25050);
			CHECK_STR(o->plans[1].currency, "EUR");
			CHECK_STR(o->plans[1].claim.date, "2000-02-29");
		}
		CHECK_INT(o->availability.kind, GS_AVAIL_WINDOW);
		CHECK_STR(o->availability.from, "2026-12-01");
		CHECK_STR(o->availability.to, "2026-12-01");
		CHECK_STR(o->availability.claim.source, "s4");
		if (CHECK_INT(o->nsoftware, 2)) {
			CHECK_STR(o->software[0].name, "CUDA 12.4");
			CHECK_INT(o->software[0].installed, 1);
			CHECK_INT(o->software[1].installed, 0);
		}
		CHECK(o->has_host_ram && o->host_ram_bytes == UINT64_C(512500000000));
		CHECK_STR(o->interconnect, "NVLink");
		CHECK_STR(o->interconnect_claim.date, "2026-11-06");
		CHECK_STR(o->notes, "a & b");
	}
	o = gs_catalog_find(&c, "stock-1x");
	if (CHECK(o != NULL)) {
		CHECK_U64(o->nominal_bytes, UINT64_C(500000000));
		CHECK_INT(o->availability.kind, GS_AVAIL_STOCK);
		CHECK(o->availability.has_stock && o->availability.stock == 3);
		CHECK(o->notes == NULL && o->segment == NULL);
	}
	o = gs_catalog_find(&c, "req-1x");
	if (CHECK(o != NULL))
		CHECK_INT(o->availability.kind, GS_AVAIL_ON_REQUEST);
	gs_catalog_release(&c);
	gs_catalog_release(&c); /* twice is harmless */
	gs_diag_release(&d);
	remove(path);
}

/*** bad files ***/

typedef struct {
	int line, column;
	const char *message; /* a part of the message */
} S_want;

static void S_bad(const char *name, const S_want *want, size_t nwant)
{
	char path[4096], rel[256];
	gs_catalog c;
	gs_diag d = GS_DIAG_INIT;
	size_t i;

	snprintf(rel, sizeof(rel), "tests/bad/catalog/%s", name);
	S_src(path, sizeof(path), rel);
	if (!CHECK_INT(gs_catalog_read(path, S_schema, &c, &d), -1))
		fprintf(stderr, "  in %s\n", name);
	CHECK(c.noffers == 0 && c.offers == NULL && c.title == NULL);
	if (!CHECK_INT(gs_diag_count(&d), nwant)) {
		fprintf(stderr, "  in %s:\n", name);
		gs_diag_print(&d, stderr);
	}
	for (i = 0; i < nwant && i < d.count; i++) {
		const gs_diag_item *it = &d.items[i];
		CHECK_STR(it->file, path);
		if (!CHECK_INT(it->line, want[i].line) || !CHECK_INT(it->column, want[i].column) ||
		    !CHECK(strstr(it->message, want[i].message) != NULL))
			fprintf(stderr, "  in %s: '%s'\n", name, it->message);
	}
	gs_catalog_release(&c);
	gs_diag_release(&d);
}

#define BAD(name, ...) do { \
	static const S_want w_[] = { __VA_ARGS__ }; \
	S_bad(name, w_, sizeof(w_) / sizeof(w_[0])); \
} while (0)

static void test_bad_files(void)
{
	BAD("dtd.xml", { 2, 0, "document type declaration refused" });
	BAD("billion-laughs.xml", { 2, 0, "document type declaration refused" });
	BAD("external-entity.xml", { 2, 0, "document type declaration refused" });
	BAD("malformed.xml",
	    { 8, 11, "malformed XML: opening and ending tag mismatch: notes line 7 and offer" },
	    { 9, 11, "malformed XML: opening and ending tag mismatch: offer line 3 and catalog" },
	    { 10, 1, "malformed XML: premature end of data in tag catalog line 2" });
	BAD("unknown-element.xml", { 7, 0, "element 'speed' is not allowed here" });
	/* a name longer than the explained message's word (255 bytes): the
	 * message whole, never cut */
#define X10 "xxxxxxxxxx"
#define X100 X10 X10 X10 X10 X10 X10 X10 X10 X10 X10
	BAD("long-element.xml", { 7, 0, "did not expect element speed" X100 X100 X100 " there" });
#undef X100
#undef X10
	BAD("missing-attribute.xml",
	    { 6, 0, "element 'memory': missing required attribute 'date'" });
	BAD("duplicate-id.xml",
	    { 8, 0, "element 'offer': duplicate id 'a-1x' (first used at line 3)" });
	BAD("zero-cards.xml",
	    { 5, 0, "element 'lot', attribute 'cards': expected a positive whole number of cards, found '0'" });
	BAD("bad-nominal.xml",
	    { 6, 0, "attribute 'nominal-gb': expected a positive decimal number of GB" },
	    { 11, 0, "found 'lots'" },
	    { 16, 0, "found '0'" });
	BAD("price-decimals.xml",
	    { 7, 0, "attribute 'price': expected a positive amount with at most 6 decimals, found '47.1410001'" });
	BAD("bad-currency.xml",
	    { 7, 0, "attribute 'currency': expected an ISO 4217 code of three capital letters, found 'usd'" });
	BAD("bad-date.xml",
	    { 6, 0, "element 'memory', attribute 'date': expected a calendar date YYYY-MM-DD, found '2026-02-30'" });
	BAD("window-reversed.xml",
	    { 7, 0, "from '2026-12-31' is after to '2026-12-01'" });
	BAD("declared-overflow.xml",
	    { 7, 0, "element 'declared-bytes', attribute 'value': expected a positive whole number of bytes" });
}

/*** more checks of meaning, and the edges ***/

static void S_bad_text(const char *body, const S_want *want, size_t nwant)
{
	char path[4096], *doc;
	size_t n;
	gs_catalog c;
	gs_diag d = GS_DIAG_INIT;
	size_t i;
	static const char head[] =
		"<?xml version=\"1.0\"?>\n"
		"<catalog xmlns=\"https://gpusheet.example/ns/catalog/1\" title=\"t\">\n"
		"  <offer id=\"a-1x\">\n"
		"    <gpu model=\"g\"/>\n"
		"    <lot cards=\"1\"/>\n"
		"    <memory nominal-gb=\"24\" source=\"s\" date=\"2026-11-01\"/>\n";
	static const char tail[] = "  </offer>\n</catalog>\n";

	n = sizeof(head) + strlen(body) + sizeof(tail);
	doc = malloc(n);
	if (!CHECK(doc != NULL))
		return;
	snprintf(doc, n, "%s%s%s", head, body, tail);
	if (CHECK(S_write_temp(path, sizeof(path), doc) == 0)) {
		CHECK_INT(gs_catalog_read(path, S_schema, &c, &d), -1);
		if (!CHECK_INT(gs_diag_count(&d), nwant))
			gs_diag_print(&d, stderr);
		for (i = 0; i < nwant && i < d.count; i++) {
			if (!CHECK_INT(d.items[i].line, want[i].line) ||
			    !CHECK(strstr(d.items[i].message, want[i].message) != NULL))
				fprintf(stderr, "  message: '%s'\n", d.items[i].message);
		}
		gs_catalog_release(&c);
		gs_diag_release(&d);
		remove(path);
	}
	free(doc);
}

#define BAD_TEXT(body, ...) do { \
	static const S_want w_[] = { __VA_ARGS__ }; \
	S_bad_text(body, w_, sizeof(w_) / sizeof(w_[0])); \
} while (0)

static void test_meaning(void)
{
	/* every error is reported, in line order */
	BAD_TEXT("    <plan hours=\"0\" price=\"0\" currency=\"US\" source=\"\" date=\"2025-02-29\"/>\n"
		 "    <availability kind=\"window\" from=\"2026-13-01\" source=\"s\" date=\"2026-11-01\"/>\n",
		 { 7, 0, "attribute 'hours'" },
		 { 7, 0, "attribute 'price'" },
		 { 7, 0, "attribute 'currency'" },
		 { 7, 0, "attribute 'source': expected a non-empty text" },
		 { 7, 0, "attribute 'date': expected a calendar date YYYY-MM-DD, found '2025-02-29'" },
		 { 8, 0, "attribute 'from': expected a calendar date" },
		 { 8, 0, "of kind 'window': missing attribute 'to'" });
	BAD_TEXT("    <availability kind=\"stock\" stock=\"2\" from=\"2026-12-01\" source=\"s\" date=\"2026-11-01\"/>\n",
		 { 7, 0, "of kind 'stock': attribute 'from' is only allowed with kind 'window'" });
	BAD_TEXT("    <availability kind=\"unavailable\" stock=\"2\" source=\"s\" date=\"2026-11-01\"/>\n",
		 { 7, 0, "of kind 'unavailable': attribute 'stock' is only allowed with kind 'stock'" });
	BAD_TEXT("    <host ram-gb=\"1e3\" source=\"s\" date=\"2026-11-01\"/>\n",
		 { 7, 0, "element 'host', attribute 'ram-gb'" });
	BAD_TEXT("    <software name=\"x\" installed=\"yes\" source=\"s\" date=\"2026-11-01\"/>\n",
		 { 7, 0, "attribute 'installed': expected one of 'true', 'false', found 'yes'" });
	BAD_TEXT("    <plan hours=\"72\" price=\"1.00\" currency=\"USD\" source=\"s\"/>\n",
		 { 7, 0, "element 'plan': missing required attribute 'date'" });
	/* a quoted value never breaks the message over two lines */
	BAD_TEXT("    <plan hours=\"72\" price=\"1\" currency=\"U&#10;S\" source=\"s\" date=\"2026-11-01\"/>\n",
		 { 7, 0, "found 'U S'" });
	/* an offer without id: libxml2 names no element, the reader does */
	BAD_TEXT("  </offer>\n  <offer>\n    <gpu model=\"g\"/>\n    <lot cards=\"1\"/>\n"
		 "    <memory nominal-gb=\"1\" source=\"s\" date=\"2026-11-01\"/>\n",
		 { 8, 0, "element 'offer': missing required attribute 'id'" });
	BAD_TEXT("    <notes>x</notes>\n    <lot cards=\"2\"/>\n",
		 { 8, 0, "element 'lot' is not allowed here" });
}

static void test_edges(void)
{
	gs_catalog c;
	gs_diag d = GS_DIAG_INIT;
	char path[4096];

	memset(&c, 0, sizeof(c));
	gs_catalog_release(&c); /* safe on a zeroed struct */
	CHECK(gs_catalog_find(&c, "x") == NULL);

	CHECK_INT(gs_catalog_read("no/such/catalog.xml", S_schema, &c, &d), -1);
	if (CHECK_INT(gs_diag_count(&d), 1))
		CHECK(strstr(d.items[0].message, "cannot open 'no/such/catalog.xml'") != NULL);
	gs_diag_release(&d);

	S_src(path, sizeof(path), "catalog/offers.xml");
	CHECK_INT(gs_catalog_read(path, "no/such/schema.rng", &c, &d), -1);
	CHECK(gs_diag_count(&d) >= 1);
	CHECK(c.noffers == 0);
	gs_diag_release(&d);
}

/* Nothing but the catalog and the schema is loaded, and no DTD is read. */
static void test_loader(void)
{
	gs_catalog c;
	gs_diag d = GS_DIAG_INIT;
	char schema[4096], doc[4096], text[8192], offers[4096];
	size_t i;
	int refused = 0;

	/* A schema that includes another file: the include is refused. */
	snprintf(text, sizeof(text),
		 "<?xml version=\"1.0\"?>\n"
		 "<grammar xmlns=\"http://relaxng.org/ns/structure/1.0\">\n"
		 "  <include href=\"%s\"/>\n"
		 "</grammar>\n", S_schema);
	if (CHECK(S_write_temp(schema, sizeof(schema), text) == 0)) {
		S_src(offers, sizeof(offers), "catalog/offers.xml");
		CHECK_INT(gs_catalog_read(offers, schema, &c, &d), -1);
		for (i = 0; i < d.count; i++)
			if (strstr(d.items[i].message, "refused to load external resource"))
				refused = 1;
		CHECK(refused);
		gs_diag_release(&d);
		remove(schema);
	}

	/* An external DTD by SYSTEM identifier only: refused, never fetched. */
	if (CHECK(S_write_temp(doc, sizeof(doc),
			    "<?xml version=\"1.0\"?>\n"
			    "<!DOCTYPE catalog SYSTEM \"file:///etc/passwd\">\n"
			    "<catalog xmlns=\"https://gpusheet.example/ns/catalog/1\" title=\"t\"/>\n") == 0)) {
		CHECK_INT(gs_catalog_read(doc, S_schema, &c, &d), -1);
		if (CHECK_INT(gs_diag_count(&d), 1)) {
			CHECK_INT(d.items[0].line, 2);
			CHECK(strstr(d.items[0].message,
				     "document type declaration refused") != NULL);
		}
		gs_diag_release(&d);
		remove(doc);
	}
}

int main(void)
{
	S_src(S_schema, sizeof(S_schema), "catalog/catalog.rng");
	test_bundled_catalog();
	test_every_element();
	test_bad_files();
	test_meaning();
	test_edges();
	test_loader();
	return gs_check_exit("test_catalog");
}
