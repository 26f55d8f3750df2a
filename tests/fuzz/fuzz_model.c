/*
 * fuzz_model: the model-file readers on any bytes: the same input read as
 * a safetensors header, a GGUF header and a config.json.
 */
#include "fuzz.h"

#include "model.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const names[] = { "model.safetensors", "model.gguf", "config.json" };
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const char *path = fuzz_file(names[i], data, size);
		gs_diag d = GS_DIAG_INIT;
		gs_model m;
		(void)gs_model_read(path, &m, &d);
		gs_model_release(&m);
		gs_diag_release(&d);
	}
	return 0;
}
