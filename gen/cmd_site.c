/* cmd_site: `gpusheet site`, many workloads against the catalog, with evidence. */
#define _POSIX_C_SOURCE 200809L
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <jansson.h>
#include <string.h>

#include "chart.h"
#include "cmd_common.h"
#include "commands.h"
#include "datadir.h"
#include "diag.h"
#include "evidence.h"
#include "outfile.h"
#include "publish.h"
#include "shard.h"
#include "site.h"
#include "util.h"
#include "workers.h"

/*
 * Pass 1 of a site, for one workload: read and validate it, hash it and
 * each file it cites. Writes one line to out (compact JSON): "d", its
 * errors in printed form ([file, line, column, path or null, message]),
 * and when it is valid "id", "title", "sha" and "ev" ([path, name, SHA-256
 * or "" when unreadable] per cited file).
 */
static int S_validate_one(const char *path, const gs_catalog *cat, FILE *out)
{
	gs_diag d = GS_DIAG_INIT;
	json_t *o = json_object(), *items = json_array();
	char hex[GS_SHA256_HEX_SIZE];
	gs_job job;
	size_t k;
	int rc;

	if (gs_job_load(path, cat, &job, &d) == 0) {
		json_t *ev = json_array();
		json_object_set_new(o, "id", json_string(job.w.id));
		json_object_set_new(o, "title", json_string(job.w.title));
		if (gs_sha256_file(path, hex, NULL) != 0) {
			gs_diag_add(&d, path, 0, 0, NULL, "cannot read: %s", strerror(errno));
			hex[0] = '\0';
		}
		json_object_set_new(o, "sha", json_string(hex));
		for (k = 0; k < job.nev; k++) {
			if (gs_sha256_file(job.ev[k].ref->path, hex, NULL) != 0) {
				gs_diag_add(&d, job.ev[k].ref->path, 0, 0, NULL, "cannot read: %s",
					    strerror(errno));
				hex[0] = '\0';
			}
			json_array_append_new(ev, json_pack("[sss]", job.ev[k].ref->path,
							    job.ev[k].ref->file, hex));
		}
		json_object_set_new(o, "ev", ev);
	}
	gs_job_release(&job);
	for (k = 0; k < d.count; k++)
		json_array_append_new(items, json_pack("[siios]", d.items[k].file, d.items[k].line,
						       d.items[k].column,
						       d.items[k].path ? json_string(d.items[k].path)
								       : json_null(),
						       d.items[k].message));
	json_object_set_new(o, "d", items);
	gs_diag_release(&d);
	rc = json_dumpf(o, out, JSON_COMPACT) == 0 && fputc('\n', out) != EOF ? 0 : -1;
	json_decref(o);
	return rc;
}

typedef struct {
	char *const *paths;
	const gs_catalog *cat;
} S_validate_ctx;

static int S_validate_range(size_t from, size_t to, void *ctx, FILE *out)
{
	const S_validate_ctx *c = ctx;
	size_t i;

	for (i = from; i < to; i++)
		if (S_validate_one(c->paths[i], c->cat, out)) {
			fputs("cannot write a worker's report", out);
			return -1;
		}
	return 0;
}

/* One line of S_validate_one into learnt and d; 0 or -1. */
static int S_validate_read(const char *line, size_t len, gs_site_input *learnt, gs_diag *d)
{
	json_t *o = json_loadb(line, len, 0, NULL), *e;
	const char *id = json_string_value(json_object_get(o, "id"));
	size_t k;

	if (!json_is_array(json_object_get(o, "d"))) {
		json_decref(o);
		return -1;
	}
	json_array_foreach(json_object_get(o, "d"), k, e)
		gs_diag_add_shown(d, json_string_value(json_array_get(e, 0)),
				  (int)json_integer_value(json_array_get(e, 1)),
				  (int)json_integer_value(json_array_get(e, 2)),
				  json_string_value(json_array_get(e, 3)),
				  json_string_value(json_array_get(e, 4)));
	if (id) {
		learnt->id = gs_xstrdup(id);
		learnt->title = gs_xstrdup(json_string_value(json_object_get(o, "title")));
		snprintf(learnt->sha256, sizeof(learnt->sha256), "%s",
			 json_string_value(json_object_get(o, "sha")));
		json_array_foreach(json_object_get(o, "ev"), k, e) {
			gs_strvec_push_dup(&learnt->ev_path, json_string_value(json_array_get(e, 0)));
			gs_strvec_push_dup(&learnt->ev_file, json_string_value(json_array_get(e, 1)));
			gs_strvec_push_dup(&learnt->ev_sha256, json_string_value(json_array_get(e, 2)));
		}
	}
	json_decref(o);
	return 0;
}

/*
 * Pass 1: every workload read and validated, in jobs worker processes
 * (workers.h) when there are many, else here; what each one is (learnt)
 * and its errors (d) in the paths' order, the same for any jobs. 0, or -1
 * after printing why the workers failed.
 */
static int S_validate(char *const *paths, size_t n, const gs_catalog *cat, unsigned jobs,
		      gs_site_input *learnt, gs_diag *d)
{
	S_validate_ctx c = { paths, cat };
	gs_worker_reports rep;
	char err[1024], *line = NULL;
	size_t cap = 0, k, i;
	int rc = 0;

	if (!n)
		return 0;
	if (jobs < 2 || n < 2) {
		/* in this process, through the same lines */
		FILE *f = tmpfile();
		if (!f || S_validate_range(0, n, &c, f) || fseek(f, 0, SEEK_SET) != 0) {
			gs_error_print("site", "cannot write a temporary file: %s", strerror(errno));
			if (f)
				fclose(f);
			return -1;
		}
		memset(&rep, 0, sizeof(rep));
		rep.n = 1;
		rep.from = gs_xcalloc(1, sizeof(*rep.from));
		rep.to = gs_xcalloc(1, sizeof(*rep.to));
		rep.report = gs_xcalloc(1, sizeof(*rep.report));
		rep.to[0] = n;
		rep.report[0] = f;
	} else if (gs_workers_run(n, jobs, S_validate_range, &c, NULL, &rep, err, sizeof(err))) {
		gs_error_print("site", "%s", err);
		return -1;
	}
	for (k = 0; k < rep.n && !rc; k++)
		for (i = rep.from[k]; i < rep.to[k] && !rc; i++) {
			ssize_t len = getline(&line, &cap, rep.report[k]);
			if (len <= 0 || S_validate_read(line, (size_t)len, &learnt[i], d)) {
				gs_error_print("site", "the report of a worker cannot be read");
				rc = -1;
			}
		}
	free(line);
	gs_worker_reports_release(&rep);
	return rc;
}

int gs_cmd_site(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "workloads", required_argument, NULL, 'w' },
		{ "catalog", required_argument, NULL, 'c' },
		{ "out", required_argument, NULL, 'o' },
		{ "lang", required_argument, NULL, 'l' },
		{ "date", required_argument, NULL, 'd' },
		{ "accept-synthetic", no_argument, NULL, 'a' },
		{ "png", no_argument, NULL, 'p' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "stats", no_argument, NULL, 's' },
		{ "shard", required_argument, NULL, 'k' },
		{ "reference", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *catalogs[GS_MAX_CATALOGS], *out = NULL, *date = NULL, *reference = NULL;
	const char **dirs = gs_xcalloc((size_t)argc + 1, sizeof(*dirs));
	size_t ndirs = 0, npaths = 0, i, ncatalogs = 0;
	char **paths = NULL;
	int c, rc, accept_synthetic = 0, png = 0;
	unsigned jobs = gs_workers_default();
	int stats = 0;
	unsigned shard_k = 0, shard_n = 0;
	char workloads_key[GS_SHA256_HEX_SIZE], inputs_key[GS_SHA256_HEX_SIZE];
	size_t rendered = 0, pages_reused = 0, pages_rendered = 0, nbuilt;
	gs_site_opts sopts;
	gs_site_input *learnt = NULL;  /* what pass 1 learnt of each workload */
	char catalog_key[GS_SHA256_HEX_SIZE];
	gs_lang lang = GS_LANG_EN;
	gs_run_ctx ctx;
	gs_diag d = GS_DIAG_INIT;
	gs_publish_env env;
	char err[1024] = "";

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "j:", opts, NULL)) != -1) {
		switch (c) {
		case 'w': dirs[ndirs++] = optarg; break;
		case 'c':
			if (ncatalogs == GS_MAX_CATALOGS) {
				fputs("gpusheet site: at most 16 --catalog\n", stderr);
				free(dirs);
				return GS_EXIT_USAGE;
			}
			catalogs[ncatalogs++] = optarg;
			break;
		case 'o': out = optarg; break;
		case 'd': date = optarg; break;
		case 'a': accept_synthetic = 1; break;
		case 'p': png = 1; break;
		case 's': stats = 1; break;
		case 'r': reference = optarg; break;
		case 'k':
			if (gs_shard_parse(optarg, &shard_k, &shard_n)) {
				fprintf(stderr, "gpusheet site: --shard takes K/N, 1 <= K <= N <= %d\n",
					GS_SHARD_MAX);
				free(dirs);
				return GS_EXIT_USAGE;
			}
			break;
		case 'j': {
			char *end;
			unsigned long v = strtoul(optarg, &end, 10);
			if (!*optarg || *end || optarg[0] == '-' || v < 1 || v > 256) {
				fputs("gpusheet site: -j takes a number of processes from 1 to 256\n", stderr);
				free(dirs);
				return GS_EXIT_USAGE;
			}
			jobs = (unsigned)v;
			break;
		}
		case 'l':
			if (gs_lang_parse(optarg, &lang)) {
				fputs("gpusheet site: --lang takes en or es\n", stderr);
				free(dirs);
				return GS_EXIT_USAGE;
			}
			break;
		case 'h':
			puts("usage: gpusheet site --workloads DIR... [--catalog FILE]... --out DIR "
			     "[--lang en|es] [--date YYYY-MM-DD] [--accept-synthetic] [--png] [-j N] [--stats]\n"
			     "       [--shard K/N] [--reference ID]\n"
			     "  every file named workload.json under each DIR becomes a sheet;\n"
			     "  -j N, --jobs N: workloads checked and sheets rendered by N processes\n"
			     "  (default: the number of online processors); the output is the same\n"
			     "  for any N;\n"
			     "  a sheet whose inputs are unchanged since the site in DIR was built\n"
			     "  is taken from it, and so is an index or offer page whose content is\n"
			     "  unchanged (--stats: how many of each were rendered and reused);\n"
			     "  --shard K/N: only the K-th of N parts of the workloads, into a shard\n"
			     "  folder for `gpusheet merge` (README: a CI matrix);\n"
			     "  --reference ID: the workload whose total campaign cost per offer the\n"
			     "  offers page charts (default: each offer's cheapest hourly price)");
			free(dirs);
			return GS_EXIT_OK;
		default:
			fputs("gpusheet site: unknown option or missing value (see gpusheet --help)\n", stderr);
			free(dirs);
			return GS_EXIT_USAGE;
		}
	}
	/* --workloads DIR... : folders may follow the first one. */
	for (; optind < argc; optind++)
		dirs[ndirs++] = argv[optind];
	if (!ndirs || !out) {
		fputs("gpusheet site: --workloads DIR and --out DIR are required (see gpusheet --help)\n", stderr);
		free(dirs);
		return GS_EXIT_USAGE;
	}
	if (png && !gs_chart_png_ready()) {
		free(dirs);
		return GS_EXIT_INVALID;   /* said why; nothing written */
	}
	rc = gs_run_ctx_init(&ctx, "site", catalogs, ncatalogs, lang, date);
	if (rc) {
		free(dirs);
		return rc;
	}
	/* Pass 1: read and validate everything; write nothing on error. */
	gs_site_find_workloads(dirs, ndirs, &paths, &npaths, &d);
	{
		/* Output names come from ids: they must be unique. Sorted
		 * "id\001path" strings make the check linear after the sort. */
		char **ids = gs_xcalloc(npaths + 1, sizeof(*ids));
		size_t nids = 0, len = 0, cap = 0, ilen = 0, icap = 0, k;
		char *inorder = NULL, *inputs = NULL;
		int found = 0;
		learnt = gs_xcalloc(npaths + 1, sizeof(*learnt));
		if (S_validate(paths, npaths, &ctx.cat, jobs, learnt, &d) != 0) {
			rc = GS_EXIT_INVALID;
			for (i = 0; i < nids; i++)
				free(ids[i]);
			free(ids);
			goto out;
		}
		for (i = 0; i < npaths; i++) {
			if (!learnt[i].id)
				continue;
			ids[nids++] = gs_xasprintf("%s%c%s", learnt[i].id, '\001', paths[i]);
			found |= reference && strcmp(learnt[i].id, reference) == 0;
			gs_str_append(&inorder, &len, &cap, learnt[i].id);
			gs_str_append(&inorder, &len, &cap, "\n");
			/* the inputs' bytes: the workload and each file it cites */
			gs_str_append(&inputs, &ilen, &icap, learnt[i].id);
			gs_str_append(&inputs, &ilen, &icap, "\n");
			gs_str_append(&inputs, &ilen, &icap, learnt[i].sha256);
			gs_str_append(&inputs, &ilen, &icap, "\n");
			for (k = 0; k < learnt[i].ev_file.n; k++) {
				gs_str_append(&inputs, &ilen, &icap, learnt[i].ev_file.v[k]);
				gs_str_append(&inputs, &ilen, &icap, "\n");
				gs_str_append(&inputs, &ilen, &icap, learnt[i].ev_sha256.v[k]);
				gs_str_append(&inputs, &ilen, &icap, "\n");
			}
		}
		/* the shards' check that they split the same list (shard.h) */
		gs_sha256_buffer(inorder ? inorder : "", len, workloads_key);
		gs_sha256_buffer(inputs ? inputs : "", ilen, inputs_key);
		free(inorder);
		free(inputs);
		qsort(ids, nids, sizeof(*ids), gs_strcmp_ptr);
		for (i = 1; i < nids; i++) {
			size_t la = strcspn(ids[i - 1], "\001"), lb = strcspn(ids[i], "\001");
			if (la == lb && strncmp(ids[i - 1], ids[i], la) == 0)
				gs_diag_add(&d, ids[i] + lb + 1, 0, 0, "$.id",
					    "the id \"%.*s\" is also used by %s", (int)la, ids[i],
					    ids[i - 1] + la + 1);
		}
		for (i = 0; i < nids; i++)
			free(ids[i]);
		free(ids);
		if (reference && !found && !gs_diag_count(&d)) {
			gs_error_print("site", "--reference '%s': no workload under --workloads has this id",
				       reference);
			rc = GS_EXIT_INVALID;
			goto out;
		}
	}
	if (gs_diag_count(&d)) {
		gs_diag_print(&d, stderr);
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
	env.in_stage = 1;   /* gs_site_build renders every sheet into its stage */
	env.reference = reference;
	if (gs_catalog_key("site", catalogs, ncatalogs, catalog_key)) {
		rc = GS_EXIT_INVALID;
		goto out;
	}
	memset(&sopts, 0, sizeof(sopts));
	sopts.jobs = jobs;
	sopts.inputs = learnt;
	sopts.shard_k = shard_k;
	sopts.shard_n = shard_n;
	sopts.workloads_key = workloads_key;
	sopts.inputs_key = inputs_key;
	sopts.catalog_key = catalog_key;
	sopts.rendered = &rendered;
	sopts.pages_reused = &pages_reused;
	sopts.pages_rendered = &pages_rendered;
	if (gs_site_build(paths, npaths, &env, &sopts, out, err, sizeof(err))) {
		gs_error_print("site", "%s", err);
		rc = GS_EXIT_INVALID;
		goto out;
	}
	nbuilt = npaths;
	if (shard_n) {
		size_t from, to;
		gs_shard_range(npaths, shard_k, shard_n, &from, &to);
		printf("%s: shard %u/%u (%zu of %zu workload%s)\n", out, shard_k, shard_n, to - from,
		       npaths, npaths == 1 ? "" : "s");
		nbuilt = to - from;
	} else {
		printf("%s/index.html (%zu workload%s)\n", out, npaths, npaths == 1 ? "" : "s");
	}
	if (stats) {
		printf("stats: %zu sheet%s rendered, %zu reused from the previous site\n", rendered,
		       rendered == 1 ? "" : "s", nbuilt - rendered);
		if (!shard_n)
			printf("stats: %zu page%s rendered, %zu reused from the previous site\n",
			       pages_rendered, pages_rendered == 1 ? "" : "s", pages_reused);
	}
	rc = GS_EXIT_OK;
out:
	for (i = 0; learnt && i < npaths; i++)
		gs_site_input_release(&learnt[i]);
	free(learnt);
	gs_diag_release(&d);
	gs_site_free_paths(paths, npaths);
	gs_run_ctx_release(&ctx);
	free(dirs);
	return rc;
}
