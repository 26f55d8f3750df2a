/*
 * Unit tests of the SkyPilot import (gen/read/import.h): the real Lambda file,
 * checked offer by offer against its rows; a second provider's file with
 * its columns in another order and GpuInfo as a plain name; one bad input
 * per rule, each refused with its line.
 */
#include <stdlib.h>
#include <string.h>

#include "catalog.h"
#include "check.h"
#include "gpuname.h"
#include "import.h"
#include "outfile.h"

#define MIB (1024ull * 1024ull)

static const char *S_rng(void)
{
	return GS_TEST_SOURCE_DIR "/catalog/catalog.rng";
}

/* Imports text and reads the result back through the schema and the reader. */
static int S_import(const char *data, size_t len, const gs_import_opts *o, gs_catalog *cat,
		    char **report, gs_diag *d)
{
	char *xml = NULL;
	size_t xml_len = 0;
	int rc;

	*report = NULL;
	memset(cat, 0, sizeof(*cat));
	if (gs_import_skypilot(data, len, o, &xml, &xml_len, report, NULL, d) != 0)
		return -1;
	rc = gs_catalog_read_memory("imported.xml", xml, xml_len, S_rng(), cat, d);
	free(xml);
	return rc;
}

static const gs_plan *S_plan(const gs_offer *o, int interruptible)
{
	size_t i;

	for (i = 0; o && i < o->nplans; i++)
		if (o->plans[i].interruptible == interruptible)
			return &o->plans[i];
	return NULL;
}

static void test_lambda(void)
{
	gs_import_opts o = { "lambda-vms.csv", "Lambda", NULL, "commit 1158013", 0, NULL };
	gs_diag d = GS_DIAG_INIT;
	gs_catalog cat;
	const gs_offer *of;
	char *data, *report = NULL;
	size_t len;

	data = gs_outfile_read(GS_TEST_SOURCE_DIR "/tests/data/import/lambda-v7-vms.csv", &len);
	if (!CHECK(data != NULL))
		return;
	if (!CHECK_INT(S_import(data, len, &o, &cat, &report, &d), 0)) {
		gs_diag_print(&d, stderr);
		goto out;
	}
	/* 19 instance types, one of them CPU-only (cpu_4x_general): 18 offers */
	CHECK_INT(cat.noffers, 18);
	/* the report counts 323 rows and the 17 CPU-only ones */
	CHECK(strstr(report, "Read 323 rows") != NULL);
	CHECK(strstr(report, "Skipped 17 rows without a GPU (cpu_4x_general)") != NULL);
	CHECK(strstr(report, "counted 0 identical duplicate rows") != NULL);
	CHECK(gs_catalog_find(&cat, "lambda-cpu_4x_general") == NULL);

	/* line 189: gpu_1x_a10,A10,1.0,...,0.75,europe-central-1,{... 'SizeInMiB': 24576 ...}
	 * one card, 0.75 USD per hour, 24576 MiB x 2^20 = 25769803776 B per card;
	 * the same row in 17 regions (lines 189-205) */
	of = gs_catalog_find(&cat, "lambda-gpu_1x_a10");
	if (CHECK(of != NULL)) {
		CHECK_STR(of->gpu_model, "A10");
		CHECK_U64(of->cards, 1);
		CHECK_U64(of->nominal_bytes, 25769803776ull);
		CHECK_U64(of->nominal_bytes, 24576 * MIB);
		CHECK_STR(of->mib_text, "24576");
		CHECK_INT(of->nregions, 17);
		CHECK_INT(of->nplans, 1);
		if (CHECK(S_plan(of, 0) != NULL)) {
			CHECK_U64(S_plan(of, 0)->hours, 1);
			CHECK_INT(S_plan(of, 0)->price_hundredths, 75);
			CHECK_STR(S_plan(of, 0)->currency, "USD");
			CHECK_STR(S_plan(of, 0)->claim.source,
				  "Lambda, SkyPilot catalog file lambda-vms.csv, lines 189-205");
			/* no date known: none invented, the reference instead */
			CHECK(S_plan(of, 0)->claim.date == NULL);
			CHECK_STR(S_plan(of, 0)->claim.ref, "commit 1158013");
		}
		CHECK(of->memory_claim.date == NULL);
		/* MemoryGiB 200.0 is the host's: 200 x 2^30 = 214748364800 B */
		CHECK_INT(of->has_host_ram, 1);
		CHECK_U64(of->host_ram_bytes, 214748364800ull);
	}
	/* line 206: gpu_8x_a100_80gb_sxm4,A100-80GB,8.0,...,14.32,...,'SizeInMiB': 81920
	 * 8 cards of 81920 MiB = 85899345920 B each, 14.32 USD per hour for the lot */
	of = gs_catalog_find(&cat, "lambda-gpu_8x_a100_80gb_sxm4");
	if (CHECK(of != NULL)) {
		CHECK_STR(of->gpu_model, "A100-80GB");
		CHECK_U64(of->cards, 8);
		CHECK_U64(of->nominal_bytes, 85899345920ull);
		if (CHECK(S_plan(of, 0) != NULL))
			CHECK_INT(S_plan(of, 0)->price_hundredths, 1432);
		/* MemoryGiB 1800.0: 1800 x 2^30 = 1932735283200 B */
		CHECK_U64(of->host_ram_bytes, 1932735283200ull);
	}
	/* line 19: gpu_8x_v100,V100,8.0,...,4.4,...,'SizeInMiB': 16384
	 * 8 cards of 16384 MiB = 17179869184 B, 4.40 USD per hour */
	of = gs_catalog_find(&cat, "lambda-gpu_8x_v100");
	if (CHECK(of != NULL)) {
		CHECK_U64(of->cards, 8);
		CHECK_U64(of->nominal_bytes, 17179869184ull);
		if (CHECK(S_plan(of, 0) != NULL))
			CHECK_INT(S_plan(of, 0)->price_hundredths, 440);
	}
	/* line 53: gpu_2x_a6000,A6000,2.0,...,1.6,...,'SizeInMiB': 49152
	 * 2 cards of 49152 MiB = 51539607552 B, 1.60 USD per hour */
	of = gs_catalog_find(&cat, "lambda-gpu_2x_a6000");
	if (CHECK(of != NULL)) {
		CHECK_U64(of->cards, 2);
		CHECK_U64(of->nominal_bytes, 51539607552ull);
		if (CHECK(S_plan(of, 0) != NULL))
			CHECK_INT(S_plan(of, 0)->price_hundredths, 160);
	}
	/* line 274: gpu_4x_h100_sxm5,H100,4.0,...,12.36,...,'SizeInMiB': 81920 */
	of = gs_catalog_find(&cat, "lambda-gpu_4x_h100_sxm5");
	if (CHECK(of != NULL)) {
		CHECK_U64(of->cards, 4);
		CHECK_U64(of->nominal_bytes, 81920 * MIB);
		if (CHECK(S_plan(of, 0) != NULL))
			CHECK_INT(S_plan(of, 0)->price_hundredths, 1236);
		/* no spot price in the file: no spot plan */
		CHECK(S_plan(of, 1) == NULL);
	}
	/* line 308: gpu_1x_gh200,GH200,1.0,...,1.49,...,'SizeInMiB': 98304
	 * 98304 MiB = 103079215104 B */
	of = gs_catalog_find(&cat, "lambda-gpu_1x_gh200");
	if (CHECK(of != NULL)) {
		CHECK_U64(of->nominal_bytes, 103079215104ull);
		if (CHECK(S_plan(of, 0) != NULL))
			CHECK_INT(S_plan(of, 0)->price_hundredths, 149);
	}
	/* the same file with CRLF turned into LF gives the same catalog */
	{
		char *lf = malloc(len + 1), *xml1 = NULL, *xml2 = NULL, *r1 = NULL, *r2 = NULL;
		size_t i, n = 0, l1 = 0, l2 = 0;
		gs_diag d2 = GS_DIAG_INIT;
		for (i = 0; i < len; i++)
			if (data[i] != '\r')
				lf[n++] = data[i];
		CHECK_INT(gs_import_skypilot(data, len, &o, &xml1, &l1, &r1, NULL, &d2), 0);
		CHECK_INT(gs_import_skypilot(lf, n, &o, &xml2, &l2, &r2, NULL, &d2), 0);
		CHECK(xml1 && xml2 && l1 == l2 && memcmp(xml1, xml2, l1) == 0);
		free(xml1);
		free(xml2);
		free(r1);
		free(r2);
		free(lf);
		gs_diag_release(&d2);
	}
	/*
	 * Truncations of the real file (every 241st length, and the length
	 * after every 4th line break): each imports or is refused with located
	 * errors; never a crash or a catalog that fails its schema.
	 */
	{
		size_t k;
		int bad = 0, ok = 0, refused = 0, lf = 0;
		for (k = 0; k <= len; k++) {
			char *xml = NULL, *r = NULL, *copy;
			size_t xl = 0;
			gs_diag d2 = GS_DIAG_INIT;
			if (k > 0 && data[k - 1] == '\n')
				lf++;
			if (k % 241 != 0 && !(k > 0 && data[k - 1] == '\n' && lf % 4 == 0))
				continue;
			copy = malloc(k ? k : 1);
			memcpy(copy, data, k);
			if (gs_import_skypilot(copy, k, &o, &xml, &xl, &r, NULL, &d2) == 0) {
				gs_catalog back;
				ok++;
				if (gs_catalog_read_memory("t.xml", xml, xl, S_rng(), &back, &d2) != 0)
					bad++;
				gs_catalog_release(&back);
			} else {
				refused++;
				bad += d2.count == 0 || d2.items[0].line < 0 || d2.items[0].line > 324;
			}
			free(copy);
			free(xml);
			free(r);
			gs_diag_release(&d2);
		}
		CHECK_INT(bad, 0);
		/* both happen: cut at a line break imports, inside a quote fails */
		CHECK(ok > 70);
		CHECK(refused > 0);
	}
out:
	free(report);
	free(data);
	gs_catalog_release(&cat);
	gs_diag_release(&d);
}

/*
 * Another provider: columns in another order, AvailabilityZone, GpuInfo as
 * a plain name (no dict, so no MiB figure), a spot price above the
 * on-demand one, a row without a price, an identical duplicate, a CPU row.
 */
static const char S_other[] =
	"Region,SpotPrice,GpuInfo,AcceleratorCount,Price,InstanceType,vCPUs,AcceleratorName,AvailabilityZone\n"
	"eu-1,0.31,L4,1,0.50,g.l4.small,8,L4,eu-1a\n"              /* line 2 */
	"eu-1,0.31,L4,1,0.50,g.l4.small,8,L4,eu-1a\n"              /* line 3: duplicate of 2 */
	"eu-1,0.31,L4,1,0.50,g.l4.small,8,L4,eu-1b\n"              /* line 4: another zone */
	"us-2,0.60,L4,1,0.52,g.l4.small,8,L4,us-2a\n"              /* line 5: spot above on-demand */
	"us-2,,\"X9000\",2,,g.x9000.big,16,X9000,us-2a\n"          /* line 6: no price, unknown GPU */
	"us-2,,,,0.10,c.small,2,,us-2a\n";                         /* line 7: CPU only */

static void test_other_provider(void)
{
	gs_import_opts o = { "other.csv", "Other Cloud", "2026-11-30", NULL, 0, NULL };
	gs_diag d = GS_DIAG_INIT;
	gs_catalog cat;
	const gs_offer *of;
	char *report = NULL;

	if (!CHECK_INT(S_import(S_other, sizeof(S_other) - 1, &o, &cat, &report, &d), 0)) {
		gs_diag_print(&d, stderr);
		free(report);
		gs_diag_release(&d);
		return;
	}
	CHECK_INT(cat.noffers, 2);
	of = gs_catalog_find(&cat, "other-cloud-g.l4.small");
	if (CHECK(of != NULL)) {
		/* no MiB figure: the vendor's 24 GB = 24000000000 B, with its source */
		CHECK_STR(of->nominal_gb_text, "24");
		CHECK_U64(of->nominal_bytes, 24000000000ull);
		CHECK(of->mib_text == NULL);
		CHECK(strstr(of->memory_claim.source, "L4") != NULL);
		/* two regions; on-demand 0.50 (eu-1) and 0.52 (us-2): two plans;
		 * spot 0.31 (two zones of eu-1, one price) and 0.60: two more */
		CHECK_INT(of->nregions, 2);
		CHECK_INT(of->nplans, 4);
		if (CHECK(of->nplans == 4)) {
			CHECK_INT(of->plans[0].price_hundredths, 50);
			CHECK_INT(of->plans[0].interruptible, 0);
			CHECK_INT(of->plans[1].price_hundredths, 52);
			CHECK_INT(of->plans[2].price_hundredths, 31);
			CHECK_INT(of->plans[2].interruptible, 1);
			CHECK_INT(of->plans[3].price_hundredths, 60);
			CHECK_STR(of->plans[0].claim.date, "2026-11-30");
			CHECK(of->plans[0].claim.ref == NULL);
			/* 0.50: lines 2 and 4 (line 3 is the duplicate, counted
			 * once); 0.52: line 5 */
			CHECK_STR(of->plans[0].claim.source,
				  "Other Cloud, SkyPilot catalog file other.csv, lines 2, 4");
			CHECK_STR(of->plans[1].claim.source,
				  "Other Cloud, SkyPilot catalog file other.csv, line 5");
			/* the regions are the plans': each plan names where its
			 * price holds (no regions element, so no claim of its own) */
			CHECK(of->regions_claim.source == NULL);
			CHECK(of->nregions > 0);
			CHECK(of->plans[0].nplaces > 0 && of->plans[0].places[0].region != NULL);
		}
	}
	of = gs_catalog_find(&cat, "other-cloud-g.x9000.big");
	if (CHECK(of != NULL)) {
		/* neither a MiB figure nor a vendor figure: missing, not 0 */
		CHECK_INT(of->memory_unknown, 1);
		CHECK_INT(of->nplans, 0);
		CHECK_U64(of->cards, 2);
	}
	CHECK(strstr(report, "Read 6 rows") != NULL);
	CHECK(strstr(report, "1 have no price") != NULL);
	CHECK(strstr(report, "1 spot prices are above") != NULL);
	CHECK(strstr(report, "1 from the vendor table (0 of them replacing a figure of the file outside the vendor's range), 1 missing") != NULL);
	CHECK(strstr(report, "Skipped 1 rows without a GPU (c.small)") != NULL);
	CHECK(strstr(report, "counted 1 identical duplicate rows once") != NULL);
	free(report);
	gs_catalog_release(&cat);
	gs_diag_release(&d);
}

/* One bad input per rule: refused, nothing returned, the line named. */
static void S_bad(const char *csv, int want_line, const char *want, int line)
{
	gs_import_opts o = { "bad.csv", "P", NULL, "r1", 1, NULL };
	gs_diag d = GS_DIAG_INIT;
	char *xml = NULL, *report = NULL;
	size_t n = 0;
	int rc = gs_import_skypilot(csv, strlen(csv), &o, &xml, &n, &report, NULL, &d);

	gs_check_at(rc == -1 && !xml && !report && d.count >= 1, __FILE__, line,
		    "expected a refusal, got rc %d with %zu errors", rc, d.count);
	if (d.count) {
		gs_check_at(d.items[0].line == want_line, __FILE__, line, "error on line %d, want %d (%s)",
			    d.items[0].line, want_line, d.items[0].message);
		gs_check_at(strstr(d.items[0].message, want) != NULL, __FILE__, line,
			    "message '%s' lacks '%s'", d.items[0].message, want);
	}
	free(xml);
	free(report);
	gs_diag_release(&d);
}

#define H "InstanceType,AcceleratorName,AcceleratorCount,Price,Region,SpotPrice,GpuInfo\n"

static void test_bad(void)
{
	/* a required column missing (Price), named in the message */
	S_bad("InstanceType,AcceleratorName,AcceleratorCount,Region\na,A10,1,r\n", 1,
	      "no column 'Price'", __LINE__);
	/* a column twice */
	S_bad("InstanceType,AcceleratorName,AcceleratorCount,Price,Region,Price\n", 1,
	      "column 'Price' appears twice", __LINE__);
	/* a non-numeric price on line 3 */
	S_bad(H "a,A10,1,0.75,r1,,\na,A10,1,abc,r2,,\n", 3, "column 'Price': expected a positive amount", __LINE__);
	/* a price that is not a plain decimal */
	S_bad(H "a,A10,1,1e3,r1,,\n", 2, "column 'Price'", __LINE__);
	/* a negative price, a negative spot price */
	S_bad(H "a,A10,1,-1,r1,,\n", 2, "column 'Price'", __LINE__);
	S_bad(H "a,A10,1,1,r1,-0.5,\n", 2, "column 'SpotPrice'", __LINE__);
	/* a negative count, a fractional count */
	S_bad(H "a,A10,-2,1,r1,,\n", 2, "column 'AcceleratorCount': expected a positive whole number", __LINE__);
	S_bad(H "a,A10,1.5,1,r1,,\n", 2, "column 'AcceleratorCount'", __LINE__);
	/* two rows for one instance type and region that disagree: both lines */
	S_bad(H "a,A10,1,1.00,r1,,\nb,A10,1,2,r1,,\na,A10,1,1.10,r1,,\n", 4,
	      "instance type 'a' in region 'r1': this row and line 2 disagree on the price", __LINE__);
	/* one instance type, two GPU counts */
	S_bad(H "a,A10,1,1,r1,,\na,A10,2,1,r2,,\n", 3, "disagrees with line 2 on its GPU", __LINE__);
	/* GpuInfo that is not a Python literal, or deeper than 8 levels */
	S_bad(H "a,A10,1,1,r1,,\"{'Gpus': [{'Name': 'A10',}\"\n", 2, "column 'GpuInfo': not a Python literal or JSON dict",
	      __LINE__);
	S_bad(H "a,A10,1,1,r1,,\"{'a': [[[[[[[[[[1]]]]]]]]]]}\"\n", 2, "nested deeper than 8", __LINE__);
	S_bad(H "a,A10,1,1,r1,,\"{'Gpus': [{'Name': 'A10', 'MemoryInfo': {'SizeInMiB': -5}}]}\"\n", 2,
	      "SizeInMiB must be a whole number of MiB", __LINE__);
	S_bad(H "a,A10,1,1,r1,,\"{'Gpus': [], 'Gpus': []}\"\n", 2, "duplicate key", __LINE__);
	/* a malformed CSV: the quote is never closed */
	S_bad(H "a,A10,1,1,r1,,\"{'Gpus'\n", 2, "quoted field is not closed", __LINE__);
	/* host memory that is not a whole number of bytes: 0.1 GiB = 107374182.4 B */
	S_bad("InstanceType,AcceleratorName,AcceleratorCount,Price,Region,MemoryGiB\na,A10,1,1,r1,0.1\n", 2,
	      "column 'MemoryGiB'", __LINE__);
	/* (a bare-name type with two MemoryGiB figures is no longer refused: the
	 * figure is not one of the offer and is left out, with a note) */
	/* a bare name and a dict in one file: two layouts */
	S_bad("InstanceType,AcceleratorName,AcceleratorCount,Price,Region,MemoryGiB,GpuInfo\na,A10,1,1,r1,16,A10\n"
	      "b,A10,1,1,r1,16,\"{'Gpus': [{'Name': 'A10', 'MemoryInfo': {'SizeInMiB': 24576}}]}\"\n", 3,
	      "mixes the layouts of catalog versions 7 and 8", __LINE__);
	/* GpuInfo's count against AcceleratorCount */
	S_bad(H "a,A10,2,1,r1,,\"{'Gpus': [{'Name': 'A10', 'Count': '1.0', 'MemoryInfo': {'SizeInMiB': 24576}}]}\"\n", 2,
	      "Gpus[0].Count 1 disagrees with AcceleratorCount 2", __LINE__);
	/* a bad region name */
	S_bad(H "a,A10,1,1,r\x01,,\n", 2, "column 'Region': a control character", __LINE__);
	/* an empty file, a file without a GPU row */
	S_bad("", 1, "the file is empty", __LINE__);
	S_bad(H "c,,,0.1,r1,,\n", 0, "no row with a whole GPU", __LINE__);
	/* garbage: bytes that are not a CSV file */
	S_bad("\x7f" "ELF\x02\x01\x01\0\0\0", 1, "no column 'InstanceType'", __LINE__);
	{
		/* 10001 instance types: the 10001st (line 10002) is refused */
		size_t cap = 40 * 10002, n = 0, k;
		char *csv = malloc(cap);
		n += (size_t)snprintf(csv + n, cap - n, "InstanceType,AcceleratorName,AcceleratorCount,Price,Region\n");
		for (k = 0; k < 10001; k++)
			n += (size_t)snprintf(csv + n, cap - n, "t%zu,A10,1,1,r1\n", k);
		S_bad(csv, 10002, "more than 10000 instance types", __LINE__);
		free(csv);
	}
	{
		/* too large: refused before any parsing */
		size_t n = GS_IMPORT_MAX_BYTES + 1;
		char *big = calloc(n, 1), *xml = NULL, *report = NULL;
		gs_import_opts o = { "big.csv", "P", NULL, "r", 0, NULL };
		gs_diag d = GS_DIAG_INIT;
		size_t xl;
		CHECK_INT(gs_import_skypilot(big, n, &o, &xml, &xl, &report, NULL, &d), -1);
		if (CHECK_INT(d.count, 1))
			CHECK(strstr(d.items[0].message, "the limit is 16777216 bytes") != NULL);
		gs_diag_release(&d);
		free(big);
	}
}

/* The alias table: one identity for the names of one model, none for ambiguous ones. */
static void test_gpu_names(void)
{
	gs_gpu_match how;

	CHECK_STR(gs_gpuname_canonical("A100-80GB", &how), "A100 80GB");
	CHECK_STR(gs_gpuname_canonical("A100 80GB", &how), "A100 80GB");
	CHECK_STR(gs_gpuname_canonical("NVIDIA A100-SXM4-80GB", &how), "A100 80GB");
	CHECK_INT(how, GS_GPU_KNOWN);
	CHECK(gs_gpuname_canonical("A100", &how) == NULL);
	CHECK_INT(how, GS_GPU_AMBIGUOUS);
	CHECK(gs_gpuname_canonical("H100", &how) == NULL);
	CHECK_INT(how, GS_GPU_AMBIGUOUS);
	CHECK(gs_gpuname_canonical("Z80", &how) == NULL);
	CHECK_INT(how, GS_GPU_UNKNOWN);
	/* a measurement on an A100 80GB matches both providers' names */
	CHECK(gs_gpuname_same("A100 80GB", NULL, "NVIDIA A100-SXM4-80GB"));
	CHECK(gs_gpuname_same("A100-80GB", NULL, "NVIDIA A100-SXM4-80GB"));
	/* never by a guess: "A100" alone (40 or 80 GB) matches no device */
	CHECK(!gs_gpuname_same("A100", NULL, "NVIDIA A100-SXM4-80GB"));
	CHECK(!gs_gpuname_same("A100", NULL, "NVIDIA A100-SXM4-40GB"));
	CHECK(!gs_gpuname_same("H100", NULL, "NVIDIA H100 80GB HBM3"));
	/* another model never matches */
	CHECK(!gs_gpuname_same("A100 80GB", NULL, "NVIDIA A100-SXM4-40GB"));
	CHECK(gs_gpuname_same("RTX 4090", NULL, "NVIDIA GeForce RTX 4090"));
	CHECK(!gs_gpuname_same("RTX 4090", NULL, "NVIDIA GeForce RTX 4090 D"));
	/* the vendor table: a figure with its source and date */
	if (CHECK(gs_gpuname_nominal_of("A100 80GB") != NULL)) {
		CHECK_STR(gs_gpuname_nominal_of("A100 80GB")->nominal_gb, "80");
		CHECK_STR(gs_gpuname_nominal_of("A100 80GB")->date, "2026-12-01");
	}
	CHECK(gs_gpuname_nominal_of(NULL) == NULL);
}

/* The vendor table: names, windows and the cross-check of a file's figure. */
static void test_vendor_table(void)
{
	const gs_gpu_nominal *e = NULL, *t;
	uint64_t lo, hi;
	size_t i, n;
	char buf[256];
	gs_gpu_match how;

	/* the providers' spellings */
	CHECK_STR(gs_gpuname_canonical("A100-80G-PCIe", &how), "A100 80GB");
	CHECK_STR(gs_gpuname_canonical("H100-80G-SXM5", &how), "H100 SXM");
	CHECK_STR(gs_gpuname_canonical("H100-80G-PCIe-NVLink", &how), "H100 PCIe");
	CHECK_STR(gs_gpuname_canonical("RTXA4000", &how), "RTX A4000");
	CHECK_STR(gs_gpuname_canonical("RTX-A4000", &how), "RTX A4000");
	CHECK_STR(gs_gpuname_canonical("RTX6000Ada", &how), "RTX 6000 Ada");
	CHECK_STR(gs_gpuname_canonical("AMD Instinct MI300X", &how), "MI300X");
	CHECK_STR(gs_gpuname_canonical("RTX PRO 6000 Blackwell", &how), "RTX PRO 6000 Blackwell");
	/* the catalogs' spellings of the cards with a datasheet row */
	CHECK_STR(gs_gpuname_canonical("RTX PRO 6000 96GB", &how), "RTX PRO 6000 Blackwell");
	CHECK_STR(gs_gpuname_canonical("RTX-PRO-6000", &how), "RTX PRO 6000 Blackwell");
	CHECK_STR(gs_gpuname_canonical("RTXPro6000", &how), "RTX PRO 6000 Blackwell");
	CHECK_STR(gs_gpuname_canonical("RTX PRO Server 6000", &how), "RTX PRO 6000 Blackwell");
	CHECK_STR(gs_gpuname_canonical("RTXPRO6000_PCIE", &how), "RTX PRO 6000 Blackwell");
	CHECK_STR(gs_gpuname_canonical("RTX5090_PCIE", &how), "RTX 5090");
	CHECK_STR(gs_gpuname_canonical("A16_PCIE", &how), "A16");
	CHECK_STR(gs_gpuname_canonical("B300", &how), "B300");
	CHECK_STR(gs_gpuname_canonical("AMD Instinct MI355X", &how), "MI355X");
	CHECK_STR(gs_gpuname_canonical("A4000_PCIE", &how), "RTX A4000");
	/* B300: a model without a vendor memory figure (offers list 262.5 to
	 * 288 GiB per card): checked against nothing */
	CHECK_INT(gs_gpuname_check_memory("B300", UINT64_C(281857228800), &e), GS_GPU_CHECK_UNKNOWN);
	CHECK_INT(gs_gpuname_check_memory("MI355X", UINT64_C(309237645312), &e), GS_GPU_CHECK_AGREES);
	CHECK_INT(gs_gpuname_check_memory("A16_PCIE", UINT64_C(17179869184), &e), GS_GPU_CHECK_AGREES);
	CHECK_STR(gs_gpuname_cc_text(103), "10.3");
	CHECK(gs_gpuname_canonical("GH200", &how) == NULL);
	CHECK_INT(how, GS_GPU_AMBIGUOUS);
	/* every entry cites a page and a day, and its number is its text */
	t = gs_gpuname_table(&n);
	CHECK(n >= 30);
	for (i = 0; i < n; i++) {
		char gb[16];
		snprintf(gb, sizeof(gb), "%u", t[i].gb);
		CHECK_STR(t[i].nominal_gb, gb);
		CHECK(strncmp(t[i].checked, "http", 4) == 0);
		CHECK(t[i].source && *t[i].source);
		CHECK_INT((int)strlen(t[i].date), 10);
		CHECK((t[i].reported == NULL) == (t[i].reported_source == NULL));
		if (i)
			CHECK(strcmp(t[i - 1].model, t[i].model) < 0);
	}
	/* the window of an 80 GB card: 74.4e9 bytes to 80 GiB */
	gs_gpuname_window(gs_gpuname_nominal_of("A100 80GB"), &lo, &hi);
	CHECK_U64(lo, UINT64_C(74400000000));
	CHECK_U64(hi, UINT64_C(85899345920));
	/* a figure the providers write (the GB figure as GiB) agrees */
	CHECK_INT(gs_gpuname_check_memory("A100-80GB", UINT64_C(81920) << 20, &e), GS_GPU_CHECK_AGREES);
	/* a device's reported total (79.65 GiB ~ 81562 MiB) is within the gap: kept */
	CHECK_INT(gs_gpuname_check_memory("H100-SXM", UINT64_C(81562) << 20, &e), GS_GPU_CHECK_AGREES);
	/* ECC on a GDDR card: 15/16 of 48 GiB = 46080 MiB, kept */
	CHECK_INT(gs_gpuname_check_memory("RTXA6000", UINT64_C(46080) << 20, &e), GS_GPU_CHECK_AGREES);
	/* the wrong unit: 80 "MiB" for an 80 GB card */
	CHECK_INT(gs_gpuname_check_memory("A100-80GB", UINT64_C(80) << 20, &e), GS_GPU_CHECK_DISAGREES);
	if (CHECK(e != NULL))
		CHECK_STR(e->model, "A100 80GB");
	/* per lot read as per card, and a total counted twice */
	CHECK_INT(gs_gpuname_check_memory("A100-80GB", UINT64_C(655360) << 20, &e), GS_GPU_CHECK_DISAGREES);
	CHECK_INT(gs_gpuname_check_memory("H100-SXM", UINT64_C(5242880) << 20, &e), GS_GPU_CHECK_DISAGREES);
	/* 7.5 % below nominal is out */
	CHECK_INT(gs_gpuname_check_memory("L40S", UINT64_C(44400000000), &e), GS_GPU_CHECK_DISAGREES);
	/* no figure: the vendor's */
	CHECK_INT(gs_gpuname_check_memory("B200", 0, &e), GS_GPU_CHECK_VENDOR);
	if (CHECK(e != NULL))
		CHECK_STR(e->nominal_gb, "180");
	/* a name that means two cards: only the figure tells */
	CHECK_INT(gs_gpuname_check_memory("A100", UINT64_C(40960) << 20, &e), GS_GPU_CHECK_AGREES);
	if (CHECK(e != NULL))
		CHECK_STR(e->model, "A100 40GB");
	CHECK_INT(gs_gpuname_check_memory("A100", UINT64_C(81920) << 20, &e), GS_GPU_CHECK_AGREES);
	if (CHECK(e != NULL))
		CHECK_STR(e->model, "A100 80GB");
	CHECK_INT(gs_gpuname_check_memory("A100", 0, &e), GS_GPU_CHECK_AMBIGUOUS);
	CHECK(e == NULL);
	CHECK_INT(gs_gpuname_check_memory("A100", UINT64_C(80) << 20, &e), GS_GPU_CHECK_AMBIGUOUS);
	CHECK_INT(gs_gpuname_check_memory("H100", UINT64_C(81920) << 20, &e), GS_GPU_CHECK_AGREES);
	if (CHECK(e != NULL))
		CHECK_STR(e->nominal_gb, "80");
	CHECK_INT(gs_gpuname_check_memory("H100", UINT64_C(96256) << 20, &e), GS_GPU_CHECK_AGREES);
	if (CHECK(e != NULL))
		CHECK_STR(e->model, "H100 NVL");
	CHECK_INT(gs_gpuname_check_memory("GH200", UINT64_C(98304) << 20, &e), GS_GPU_CHECK_AGREES);
	CHECK_INT(gs_gpuname_check_memory("GH200", 0, &e), GS_GPU_CHECK_AMBIGUOUS);
	CHECK_INT(gs_gpuname_check_memory("RTX6000", UINT64_C(24576) << 20, &e), GS_GPU_CHECK_AGREES);
	if (CHECK(e != NULL))
		CHECK_STR(e->model, "Quadro RTX 6000");
	CHECK_STR(gs_gpuname_candidates_text("A100", buf, sizeof(buf)), "A100 40GB (40 GB) or A100 80GB (80 GB)");
	/* no cited figure: unknown, the file's figure stands unchecked */
	CHECK_INT(gs_gpuname_check_memory("RTXA5000", UINT64_C(24576) << 20, &e), GS_GPU_CHECK_UNKNOWN);
	CHECK_INT(gs_gpuname_check_memory("tpu-v4", 0, &e), GS_GPU_CHECK_UNKNOWN);
}

/*
 * The memory rule read from the file's figures, hand-worked:
 *  - per lot: SizeInMiB 65214 for 2 cards and 130428 for 4 (it grows with
 *    the count): 32607 MiB per card, 32607 x 2^20 = 34190917632 bytes;
 *  - GB labelled MiB: SizeInMiB 48 and 80 (every figure below 1024): 48 GB
 *    = 48,000,000,000 bytes per card, kept as nominal-gb;
 *  - Yotta's Count 1 on a lot of 2, TotalGpuMemoryInMiB 65214 = 32607 x 2:
 *    2 cards;
 *  - a fraction of one card, a TPU slice and the placeholder 700.0: set
 *    aside or no price; a bad line: skipped, the rest imported.
 */
static void test_inferred_rules(void)
{
	static const char per_lot[] =
		"InstanceType,AcceleratorName,AcceleratorCount,MemoryGiB,GpuInfo,Price,SpotPrice,Region\n"
		"2x,RTX5090,2,64,\"{'Gpus': [{'Name': 'RTX5090', 'Count': 2, 'MemoryInfo': {'SizeInMiB': 65214}}], 'TotalGpuMemoryInMiB': 65214}\",0.93,0.00,\"Texas, US, NA\"\n"
		"4x,RTX5090,4,64,\"{'Gpus': [{'Name': 'RTX5090', 'Count': 4, 'MemoryInfo': {'SizeInMiB': 130428}}], 'TotalGpuMemoryInMiB': 130428}\",1.87,0.00,\"Quebec, CA, NA\"\n"
		"frac,L4,0.25,32,\"{'Gpus': [{'Name': 'L4', 'Count': 0, 'MemoryInfo': {'SizeInMiB': 5722}}]}\",0.68,,r1\n"
		"tpu,tpu-v6e-1,1,,tpu-v6e-1,700.0,700.0,r1\n"
		"bad,RTX5090,x,64,,1.00,,r1\n";
	static const char gb[] =
		"InstanceType,AcceleratorName,AcceleratorCount,MemoryGiB,Price,Region,GpuInfo,SpotPrice\n"
		"a6000x8,A6000,8.0,384,4.56,kansascity-usa-1,\"{'Gpus': [{'Name': 'A6000', 'Count': 8.0, 'MemoryInfo': {'SizeInMiB': 48}, 'TotalGpuMemoryInMiB': 384}]}\",\n"
		"a100,A100-80GB,1.0,120,2.0,culpeper-usa-1,\"{'Gpus': [{'Name': 'A100-80GB', 'Count': 1.0, 'MemoryInfo': {'SizeInMiB': 80}, 'TotalGpuMemoryInMiB': 80}]}\",\n";
	static const char yotta[] =
		"InstanceType,AcceleratorName,AcceleratorCount,MemoryGiB,GpuInfo,Region,SpotPrice,Price\n"
		"1x,RTX5090,1.0,119.0,\"{'Gpus': [{'Name': 'RTX5090', 'Count': 1, 'MemoryInfo': {'SizeInMiB': 32607}}], 'TotalGpuMemoryInMiB': 32607}\",us-east-2,,0.65\n"
		"2x,RTX5090,2.0,238.0,\"{'Gpus': [{'Name': 'RTX5090', 'Count': 1, 'MemoryInfo': {'SizeInMiB': 32607}}], 'TotalGpuMemoryInMiB': 65214}\",us-east-2,,1.3";
	gs_import_opts o = { "v.csv", "V", NULL, "r", 0, NULL };
	gs_diag d = GS_DIAG_INIT;
	gs_catalog cat;
	const gs_offer *of;
	char *report = NULL;

	if (CHECK_INT(S_import(per_lot, sizeof(per_lot) - 1, &o, &cat, &report, &d), 0)) {
		CHECK_INT(cat.noffers, 2);
		of = gs_catalog_find(&cat, "v-2x");
		if (CHECK(of != NULL)) {
			CHECK_STR(of->mib_text, "32607");
			CHECK_U64(of->nominal_bytes, UINT64_C(34190917632));
			/* the spot price 0.00 is no price: one plan, in its region */
			CHECK_INT(of->nplans, 1);
			CHECK_STR(of->plans[0].places[0].region, "Texas, US, NA");
		}
		of = gs_catalog_find(&cat, "v-4x");
		if (CHECK(of != NULL))
			CHECK_STR(of->mib_text, "32607");
		CHECK(strstr(report, "SizeInMiB per lot") != NULL);
		CHECK(strstr(report, "1 rows of a fraction of one GPU") != NULL);
		CHECK(strstr(report, "1 rows of TPU slices") != NULL);
		CHECK(strstr(report, "1 lines that could not be read") != NULL);
		CHECK(strstr(report, "2 rows give a price of 0") != NULL);
	}
	gs_catalog_release(&cat);
	free(report);
	gs_diag_release(&d);

	if (CHECK_INT(S_import(gb, sizeof(gb) - 1, &o, &cat, &report, &d), 0)) {
		of = gs_catalog_find(&cat, "v-a6000x8");
		if (CHECK(of != NULL)) {
			CHECK(of->mib_text == NULL);
			CHECK_STR(of->nominal_gb_text, "48");
			CHECK_U64(of->nominal_bytes, UINT64_C(48000000000));
			CHECK_INT(of->memory_origin, GS_MEMORY_FROM_CATALOG);
			CHECK(strstr(of->memory_claim.source, "48 GB (labelled MiB in the file") != NULL);
		}
		of = gs_catalog_find(&cat, "v-a100");
		if (CHECK(of != NULL))
			CHECK_U64(of->nominal_bytes, UINT64_C(80000000000));
		CHECK(strstr(report, "in GB (every SizeInMiB of the file is below 1024") != NULL);
	}
	gs_catalog_release(&cat);
	free(report);
	gs_diag_release(&d);

	if (CHECK_INT(S_import(yotta, sizeof(yotta) - 1, &o, &cat, &report, &d), 0)) {
		of = gs_catalog_find(&cat, "v-2x");
		if (CHECK(of != NULL)) {
			CHECK_U64(of->cards, 2);
			CHECK_STR(of->mib_text, "32607");
			CHECK(strstr(of->notes, "TotalGpuMemoryInMiB 65214 = SizeInMiB 32607 x 2 settles it: 2 cards") != NULL);
		}
		CHECK(strstr(report, "SizeInMiB per card") != NULL);
	}
	gs_catalog_release(&cat);
	free(report);
	gs_diag_release(&d);
}

int main(void)
{
	test_vendor_table();
	test_lambda();
	test_other_provider();
	test_bad();
	test_gpu_names();
	test_inferred_rules();
	return gs_check_exit("test_import");
}
