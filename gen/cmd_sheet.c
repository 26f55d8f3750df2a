/* cmd_sheet: `gpusheet sheet WORKLOAD.json`, one workload, one decision sheet. */
#define _POSIX_C_SOURCE 200809L
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "suggest.h"
#include "chart.h"
#include "cmd_common.h"
#include "commands.h"
#include "diag.h"
#include "evidence.h"
#include "outfile.h"
#include "publish.h"

int gs_cmd_sheet(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "catalog", required_argument, NULL, 'c' },
		{ "out", required_argument, NULL, 'o' },
		{ "lang", required_argument, NULL, 'l' },
		{ "require-retained", no_argument, NULL, 'r' },
		{ "summary", required_argument, NULL, 's' },
		{ "date", required_argument, NULL, 'd' },
		{ "accept-synthetic", no_argument, NULL, 'a' },
		{ "png", no_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *catalogs[GS_MAX_CATALOGS], *out = ".", *summary = NULL, *date = NULL;
	int require = 0, accept_synthetic = 0, png = 0, c, rc;
	size_t ncatalogs = 0;
	gs_lang lang = GS_LANG_EN;
	gs_run_ctx ctx;
	gs_job job;
	gs_diag d = GS_DIAG_INIT;
	gs_archive *archive;
	gs_publish_env env;
	gs_publish_result res;
	char err[1024] = "";

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'c':
			if (ncatalogs == GS_MAX_CATALOGS) {
				fputs("gpusheet sheet: at most 16 --catalog\n", stderr);
				return GS_EXIT_USAGE;
			}
			catalogs[ncatalogs++] = optarg;
			break;
		case 'o': out = optarg; break;
		case 'r': require = 1; break;
		case 's': summary = optarg; break;
		case 'd': date = optarg; break;
		case 'a': accept_synthetic = 1; break;
		case 'p': png = 1; break;
		case 'l':
			if (gs_lang_parse(optarg, &lang)) {
				fputs("gpusheet sheet: --lang takes en or es\n", stderr);
				return GS_EXIT_USAGE;
			}
			break;
		case 'h':
			puts("usage: gpusheet sheet WORKLOAD.json [--catalog FILE]... [--out DIR] "
			     "[--lang en|es] [--require-retained] [--accept-synthetic] [--summary FILE] "
			     "[--date YYYY-MM-DD] [--png]");
			return GS_EXIT_OK;
		default:
			gs_cli_bad_option("sheet", opts, argv, optind);
			return GS_EXIT_USAGE;
		}
	}
	if (argc - optind != 1) {
		fputs("gpusheet sheet: exactly one WORKLOAD.json is required (see gpusheet --help)\n", stderr);
		return GS_EXIT_USAGE;
	}
	if (png && !gs_chart_png_ready())
		return GS_EXIT_INVALID;   /* said why; nothing written */
	rc = gs_run_ctx_init(&ctx, "sheet", catalogs, ncatalogs, lang, date);
	if (rc)
		return rc;
	/* a model gone since a sheet was written in OUT: the files it archived */
	gs_job_models_from(out);
	/* Read and validate everything before writing anything. */
	if (gs_job_load(argv[optind], &ctx.cat, &job, &d)) {
		gs_diag_print(&d, stderr);
		gs_diag_release(&d);
		gs_job_release(&job);
		gs_run_ctx_release(&ctx);
		return GS_EXIT_INVALID;
	}
	if (gs_mkdirs(out)) {
		gs_error_print("sheet", "cannot create \"%s\"", out);
		gs_job_release(&job);
		gs_run_ctx_release(&ctx);
		return GS_EXIT_INVALID;
	}
	/* A damaged archive is found before anything is written. */
	archive = gs_evidence_archive(out);
	if (!archive || gs_archive_error(archive)) {
		gs_error_print("sheet", "%s",
			archive ? gs_archive_error(archive) : "cannot open the evidence archive");
		if (archive)
			gs_archive_free(archive);
		gs_job_release(&job);
		gs_run_ctx_release(&ctx);
		return GS_EXIT_INVALID;
	}
	memset(&env, 0, sizeof(env));
	env.cat = &ctx.cat;
	env.catalog_name = ctx.catalog_name;
	env.t = &ctx.t;
	env.tp = &ctx.tp;
	env.date = ctx.date[0] ? ctx.date : NULL;
	env.link_prefix = "";
	env.sheet_prefix = "";
	env.accept_synthetic = accept_synthetic;
	env.write_manifest = 1;
	env.png = png;
	env.md = 1;
	rc = GS_EXIT_OK;
	if (gs_job_publish(&job, &env, archive, out, summary, &res, err, sizeof(err))) {
		gs_error_print("sheet", "%s", err);
		rc = GS_EXIT_INVALID;
	} else {
		printf("%s/%s.html\n", out, res.id);
		/* A gate passes on evidence only: a retained offer
		 * resting on a synthetic file fails it too. */
		if (require && (res.nretained == 0 || res.nretained_synthetic > 0))
			rc = GS_EXIT_NOT_RETAINED;
		if (require && res.nretained_synthetic > 0)
			fprintf(stderr, "gpusheet sheet: --require-retained: %zu retained "
				"offer(s) rest on synthetic evidence (a demonstration, "
				"not a measurement)\n", res.nretained_synthetic);
		gs_publish_result_release(&res);
	}
	if (archive)
		gs_archive_free(archive);
	gs_job_release(&job);
	gs_run_ctx_release(&ctx);
	return rc;
}
