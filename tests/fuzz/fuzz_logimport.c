/* fuzz_logimport: every log reader (gen/read/logimport.h) on any bytes. */
#include "fuzz.h"

#include "logimport.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	gs_logimport_opts o = { 0, 16, "fuzz", 0 };
	size_t k;

	/* every format of the table (logformat.c) */
	for (k = 0; k < gs_logformat_count(); k++) {
		gs_diag d = GS_DIAG_INIT;
		gs_logimport li;
		if (gs_logimport_parse(gs_logformat_at(k)->kind, "fuzz.log", (const char *)data, size, &o, &li,
				       &d) == 0)
			gs_logimport_release(&li);
		gs_diag_release(&d);
	}
	/* and the first start of a log holding several */
	o.run = 1;
	{
		gs_diag d = GS_DIAG_INIT;
		gs_logimport li;
		if (gs_logimport_parse(GS_LOG_VLLM, "fuzz.log", (const char *)data, size, &o, &li, &d) == 0)
			gs_logimport_release(&li);
		gs_diag_release(&d);
	}
	return 0;
}
