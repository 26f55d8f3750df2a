/* cmd_merge: `gpusheet merge OUT SHARD...`, a site from its shards (merge.h). */
#define _POSIX_C_SOURCE 200809L
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "suggest.h"
#include "cmd_common.h"
#include "commands.h"
#include "diag.h"
#include "merge.h"
#include "outlock.h"
#include "publish.h"

int gs_cmd_merge(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "catalog", required_argument, NULL, 'c' },
		{ "lang", required_argument, NULL, 'l' },
		{ "date", required_argument, NULL, 'd' },
		{ "accept-synthetic", no_argument, NULL, 'a' },
		{ "png", no_argument, NULL, 'p' },
		{ "md", no_argument, NULL, 'm' },
		{ "reference", required_argument, NULL, 'r' },
		{ "wait", no_argument, NULL, 'W' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *catalogs[GS_MAX_CATALOGS], *date = NULL, *reference = NULL;
	size_t ncatalogs = 0, nshards;
	int c, rc, accept_synthetic = 0, png = 0, md = 0, wait = 0;
	char catalog_key[GS_SHA256_HEX_SIZE];
	gs_error err = GS_ERROR_INIT;
	gs_lang lang = GS_LANG_EN;
	gs_run_ctx ctx;
	gs_publish_env env;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'c':
			if (ncatalogs == GS_MAX_CATALOGS) {
				fputs("gpusheet merge: at most 16 --catalog\n", stderr);
				return GS_EXIT_USAGE;
			}
			catalogs[ncatalogs++] = optarg;
			break;
		case 'd': date = optarg; break;
		case 'a': accept_synthetic = 1; break;
		case 'p': png = 1; break;
		case 'm': md = 1; break;
		case 'r': reference = optarg; break;
		case 'W': wait = 1; break;
		case 'l':
			if (gs_tr_lang_parse(optarg, &lang)) {
				fputs("gpusheet merge: --lang takes en or es\n", stderr);
				return GS_EXIT_USAGE;
			}
			break;
		case 'h':
			puts("usage: gpusheet merge OUT SHARD... [--catalog FILE]... [--lang en|es]\n"
			     "       [--date YYYY-MM-DD] [--accept-synthetic] [--png] [--md]\n"
			     "       [--reference ID] [--wait]\n"
			     "  builds the site OUT from the folders of `gpusheet site --shard K/N`,\n"
			     "  all N of them, without rendering a sheet again: the same bytes as\n"
			     "  `gpusheet site` on one machine. The catalogs and options must be the\n"
			     "  shards' own; shards that do not belong together are refused;\n"
			     "  --reference ID: as for `gpusheet site`, the workload whose total\n"
			     "  campaign cost per offer the offers page charts");
			return GS_EXIT_OK;
		default:
			gs_suggest_bad_option("merge", opts, argv, optind);
			return GS_EXIT_USAGE;
		}
	}
	if (argc - optind < 2) {
		fputs("gpusheet merge: OUT and at least one SHARD folder are required "
		      "(see gpusheet --help)\n", stderr);
		return GS_EXIT_USAGE;
	}
	nshards = (size_t)(argc - optind - 1);
	rc = gs_cmd_common_run_ctx_init(&ctx, "merge", catalogs, ncatalogs, lang, date);
	if (rc)
		return rc;
	if (gs_cmd_common_catalog_key("merge", catalogs, ncatalogs, catalog_key)) {
		rc = GS_EXIT_INVALID;
		goto out;
	}
	memset(&env, 0, sizeof(env));
	env.cat = &ctx.cat;
	env.catalog_name = ctx.catalog_name;
	env.t = &ctx.t;
	env.tp = &ctx.tp;
	env.date = ctx.date[0] ? ctx.date : NULL;
	env.accept_synthetic = accept_synthetic;
	env.png = png;
	env.md = md;
	env.reference = reference;
	/* one run at a time into OUT */
	if (gs_outlock_take(argv[optind], "merge", wait, &err)) {
		gs_diag_error_print("merge", "%s", gs_error_message(&err));
		gs_error_release(&err);
		rc = GS_EXIT_INVALID;
		goto out;
	}
	if (gs_merge_build(argv[optind], (const char *const *)argv + optind + 1, nshards, &env,
			   catalog_key, &err)) {
		gs_diag_error_print("merge", "%s", gs_error_message(&err));
		gs_error_release(&err);
		rc = GS_EXIT_INVALID;
		goto out;
	}
	printf("%s/index.html (%zu shard%s)\n", argv[optind], nshards, nshards == 1 ? "" : "s");
	rc = GS_EXIT_OK;
out:
	gs_outlock_release();
	gs_cmd_common_run_ctx_release(&ctx);
	return rc;
}
