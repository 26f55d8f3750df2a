/* fuzz_workload: the workload reader, then the notes bounds, on any bytes. */
#include "fuzz.h"

#include "doc.h"
#include "workload.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_file("workload.json", data, size);
	gs_diag d = GS_DIAG_INIT;
	gs_workload w;
	gs_error why = GS_ERROR_INIT;

	if (gs_workload_read(path, &w, &d) == 0 && w.notes_md)
		(void)gs_doc_bounds_check(w.notes_md, &why);
	gs_error_release(&why);
	gs_workload_release(&w);
	gs_diag_release(&d);
	return 0;
}
