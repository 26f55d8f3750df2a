/* fuzz_import: the CSV reader and the SkyPilot import on any bytes. */
#include "fuzz.h"

#include <stdlib.h>

#include "csv.h"
#include "import.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	gs_diag d = GS_DIAG_INIT;
	gs_csv *c = gs_csv_new((const char *)data, size, "fuzz.csv");
	gs_csv_record rec;
	gs_import_opts opt = { "fuzz.csv", "Fuzz", "2026-11-29", "fuzz", 0, NULL };
	char *xml = NULL, *report = NULL;
	size_t xml_len = 0;

	/* the reader alone, record by record, to its end or its first error */
	while (c && gs_csv_next(c, &rec, &d) == 1)
		;
	gs_csv_free(c);
	gs_diag_release(&d);
	/* the whole import (grouping, GpuInfo parser, XML writer) */
	d = (gs_diag)GS_DIAG_INIT;
	if (gs_import_skypilot((const char *)data, size, &opt, &xml, &xml_len, &report, NULL, &d) == 0) {
		free(xml);
		free(report);
	}
	gs_diag_release(&d);
	return 0;
}
