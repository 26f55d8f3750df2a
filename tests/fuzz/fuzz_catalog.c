/* fuzz_catalog: the catalog reader (XML, RELAX NG, meaning) on any bytes. */
#include "fuzz.h"

#include "catalog.h"
#include "datadir.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char rng[4096];
	const char *path = fuzz_file("offers.xml", data, size);
	gs_diag d = GS_DIAG_INIT;
	gs_catalog c;

	if (!rng[0] && !gs_datadir_path(rng, sizeof(rng), "catalog/catalog.rng", NULL)) {
		fprintf(stderr, "fuzz_catalog: no data folder\n");
		abort();
	}
	(void)gs_catalog_read(path, rng, &c, &d);
	gs_catalog_release(&c);
	gs_diag_release(&d);
	return 0;
}
