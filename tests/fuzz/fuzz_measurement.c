/* fuzz_measurement: the measurement reader on any bytes. */
#include "fuzz.h"

#include "measurement.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_file("measurement.json", data, size);
	gs_diag d = GS_DIAG_INIT;
	gs_measurement m;

	(void)gs_measurement_read(path, &m, &d);
	gs_measurement_release(&m);
	gs_diag_release(&d);
	return 0;
}
