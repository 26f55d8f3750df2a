/*
 * fuzz_sheet: the whole `sheet` pipeline on a fuzzed workload with fixed
 * evidence (the measurement of examples/lora-adapt at the path that workload
 * cites): read, validate, size, classify, archive, build, render and write
 * into a fresh folder, with the bundled catalog, labels and templates.
 */
#include "fuzz.h"

#include <sys/stat.h>

#include "cmd_common.h"
#include "datadir.h"
#include "evidence.h"
#include "outfile.h"
#include "publish.h"

static gs_run_ctx S_ctx;

static void S_init(void)
{
	char src[4096], dst[512];
	size_t n;
	char *bytes;

	if (gs_cmd_common_run_ctx_init(&S_ctx, "fuzz", NULL, 0, GS_LANG_EN, "2026-11-29"))
		abort();
	if (!gs_datadir_path(src, sizeof(src), "examples/lora-adapt/measurements/rtx6000ada-lora-step.json", NULL))
		abort();
	bytes = gs_outfile_read(src, &n);
	if (!bytes)
		abort();
	snprintf(dst, sizeof(dst), "%s/measurements", fuzz_tmpdir());
	mkdir(dst, 0777);
	fuzz_file("measurements/rtx6000ada-lora-step.json", (const uint8_t *)bytes, n);
	free(bytes);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int ready;
	char out[512];
	gs_error err = GS_ERROR_INIT;
	const char *path;
	gs_diag d = GS_DIAG_INIT;
	gs_job job;
	gs_publish_env env;
	gs_publish_result res;
	gs_archive *a;

	if (!ready) {
		S_init();
		ready = 1;
	}
	path = fuzz_file("workload.json", data, size);
	if (gs_publish_load(path, &S_ctx.cat, &job, &d) == 0) {
		snprintf(out, sizeof(out), "%s/out", fuzz_tmpdir());
		(void)gs_outfile_remove_tree(out);
		mkdir(out, 0777);
		a = gs_evidence_archive(out, NULL);
		memset(&env, 0, sizeof(env));
		env.cat = &S_ctx.cat;
		env.catalog_name = S_ctx.catalog_name;
		env.t = &S_ctx.t;
		env.tp = &S_ctx.tp;
		env.date = S_ctx.date;
		env.link_prefix = "";
		env.sheet_prefix = "";
		env.write_manifest = 1;
		if (gs_publish_job(&job, &env, a, out, NULL, &res, &err) == 0)
			gs_publish_result_release(&res);
		gs_error_release(&err);
		gs_evidence_archive_free(a);
	}
	gs_publish_release(&job);
	gs_diag_release(&d);
	return 0;
}
