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
#include "hash.h"
#include "outfile.h"
#include "outlock.h"
#include "publish.h"
#include "shard.h"
#include "site.h"
#include "site_find.h"
#include "suggest.h"
#include "util.h"
#include "workers.h"

/* What S_validated checks, once every workload was read (gs_site_opts.validated). */
typedef struct {
	char *const *paths;
	size_t npaths;
	gs_diag *d;
	const char *reference;
	char *workloads_key, *inputs_key;  /* filled: the shards' check (shard.h) */
} S_checks;

/* An id and the index of its path, sorted by id then path (S_validated). */
typedef struct {
	char *id;
	size_t i;
	char *const *paths;
} S_idpath;

static int S_by_id_path(const void *a, const void *b)
{
	const S_idpath *x = a, *y = b;
	int c = strcmp(x->id, y->id);

	return c ? c : strcmp(x->paths[x->i], x->paths[y->i]);
}

/* A hash of an id and the index of its path (S_validated). */
typedef struct {
	uint64_t h;
	size_t i;
} S_idhash;

static int S_by_hash(const void *a, const void *b)
{
	const S_idhash *x = a, *y = b;

	return x->h != y->h ? (x->h < y->h ? -1 : 1) : (x->i > y->i) - (x->i < y->i);
}

/*
 * Output names come from ids: they must be unique; --reference must name
 * one of them. Then the errors, if any, are printed: 0 when there is none,
 * else -1. What was learnt of each workload is read back from its spool
 * in the paths' order (site_learnt.h), and the shards' keys hashed as it
 * comes, never built as one text; the ids are checked through a hash of
 * each (16 bytes a workload), only those that hash alike compared as text
 * (memory flat in the number of workloads, site.h).
 */
static int S_validated(void *arg, gs_site_learnt *learnt)
{
	S_checks *x = arg;
	S_idhash *ids = gs_xcalloc(x->npaths + 1, sizeof(*ids));
	S_idpath *same = NULL;
	size_t nids = 0, nsame = 0, i, j, k;
	gs_shard_keys keys;
	gs_site_learnt_item it;
	gs_error err = GS_ERROR_INIT;
	int found = 0;

	gs_shard_keys_init(&keys);
	for (i = 0; i < x->npaths; i++) {
		if (gs_site_learnt_get(learnt, i, &it, &err))
			goto lost;
		if (!it.id)
			continue;
		ids[nids].h = gs_hash_str(it.id);   /* alike: compared as text */
		ids[nids++].i = i;
		found |= x->reference && strcmp(it.id, x->reference) == 0;
		gs_shard_keys_workload(&keys, it.id, it.sha256);
		for (k = 0; k < it.nev; k++)
			gs_shard_keys_file(&keys, gs_site_learnt_ev_file(&it, k),
					   gs_site_learnt_ev_sha256(&it, k));
	}
	/* the shards' check that they split the same list (shard.h) */
	gs_shard_keys_end(&keys, x->workloads_key, x->inputs_key);
	/* the ids that hash alike, read again, then sorted by id and path: the
	 * check is linear after the sorts, and says what it said of all */
	qsort(ids, nids, sizeof(*ids), S_by_hash);
	for (i = 0; i < nids; i = j) {
		for (j = i + 1; j < nids && ids[j].h == ids[i].h; j++)
			;
		for (k = i; j - i > 1 && k < j; k++) {
			if (gs_site_learnt_get(learnt, ids[k].i, &it, &err))
				goto lost;
			same = gs_xrealloc(same, (nsame + 1) * sizeof(*same));
			same[nsame].id = gs_xstrdup(it.id);
			same[nsame].i = ids[k].i;
			same[nsame++].paths = x->paths;
		}
	}
	free(ids);
	ids = NULL;
	if (nsame)
		qsort(same, nsame, sizeof(*same), S_by_id_path);
	for (i = 1; i < nsame; i++)
		if (strcmp(same[i - 1].id, same[i].id) == 0)
			gs_diag_add(x->d, x->paths[same[i].i], 0, 0, "$.id",
				    "the id \"%s\" is also used by %s", same[i].id,
				    x->paths[same[i - 1].i]);
	for (i = 0; i < nsame; i++)
		free(same[i].id);
	free(same);
	if (x->reference && !found && !gs_diag_count(x->d)) {
		gs_diag_error_print("site", "--reference '%s': no workload under --workloads has this id",
			       x->reference);
		return -1;
	}
	if (gs_diag_count(x->d)) {
		gs_diag_print(x->d, stderr);
		return -1;
	}
	return 0;
lost:
	for (i = 0; i < nsame; i++)
		free(same[i].id);
	free(same);
	free(ids);
	gs_diag_error_print("site", "%s", gs_error_message(&err));
	gs_error_release(&err);
	return -1;
}

/* The usage text of `gpusheet site --help`. */
static const char S_usage[] =
	"usage: gpusheet site --workloads DIR... [--catalog FILE]... --out DIR "
	"[--lang en|es] [--date YYYY-MM-DD] [--accept-synthetic] [--png] [--md]\n"
	"       [-j N] [--stats] [--rehash] [--shard K/N] [--reference ID] [--wait]\n"
	"  every file named workload.json under each DIR becomes a sheet\n"
	"  (HTML, decision JSON and charts; --md: also its Markdown, which\n"
	"  no page links; --png: each chart also as PNG);\n"
	"  -j N, --jobs N: workloads checked and sheets rendered by N processes\n"
	"  (default: the number of online processors); the output is the same\n"
	"  for any N;\n"
	"  a sheet whose inputs are unchanged since the site in DIR was built\n"
	"  is taken from it, and so is an index or offer page whose content is\n"
	"  unchanged (--stats: how many of each were rendered and reused);\n"
	"  a workload whose files (it and those it cites) have the size, inode,\n"
	"  mtime and ctime recorded by that build is not read again; when\n"
	"  none is, with the same options, and DIR's folders are as that build\n"
	"  left them, DIR is left untouched;\n"
	"  --rehash: every file read and hashed again;\n"
	"  --shard K/N: only the K-th of N parts of the workloads, into a shard\n"
	"  folder for `gpusheet merge` (docs/ci.md: a CI matrix);\n"
	"  --reference ID: the workload whose total campaign cost per offer the\n"
	"  offers page charts (default: each offer's cheapest hourly price);\n"
	"  --wait: when another gpusheet run is writing DIR, wait for it to end\n"
	"  (default: refuse, exit 1)";

/* What `gpusheet site` was asked, from its command line. */
typedef struct {
	const char *catalogs[GS_MAX_CATALOGS], *out, *date, *reference;
	const char **dirs;   /* argc + 1 of them */
	size_t ndirs, ncatalogs;
	int accept_synthetic, png, md, stats, rehash, wait;
	unsigned jobs, shard_k, shard_n;
	gs_lang lang;
} S_args;

/* The command line into a (a->dirs allocated): -1 to go on, else the exit code. */
static int S_parse(int argc, char **argv, S_args *a)
{
	static const struct option opts[] = {
		{ "workloads", required_argument, NULL, 'w' },
		{ "catalog", required_argument, NULL, 'c' },
		{ "out", required_argument, NULL, 'o' },
		{ "lang", required_argument, NULL, 'l' },
		{ "date", required_argument, NULL, 'd' },
		{ "accept-synthetic", no_argument, NULL, 'a' },
		{ "png", no_argument, NULL, 'p' },
		{ "md", no_argument, NULL, 'm' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "stats", no_argument, NULL, 's' },
		{ "shard", required_argument, NULL, 'k' },
		{ "reference", required_argument, NULL, 'r' },
		{ "rehash", no_argument, NULL, 'R' },
		{ "wait", no_argument, NULL, 'W' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	int c;

	memset(a, 0, sizeof(*a));
	a->dirs = gs_xcalloc((size_t)argc + 1, sizeof(*a->dirs));
	a->jobs = gs_workers_default();
	a->lang = GS_LANG_EN;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "j:", opts, NULL)) != -1) {
		switch (c) {
		case 'w': a->dirs[a->ndirs++] = optarg; break;
		case 'c':
			if (a->ncatalogs == GS_MAX_CATALOGS) {
				fputs("gpusheet site: at most 16 --catalog\n", stderr);
				return GS_EXIT_USAGE;
			}
			a->catalogs[a->ncatalogs++] = optarg;
			break;
		case 'o': a->out = optarg; break;
		case 'd': a->date = optarg; break;
		case 'a': a->accept_synthetic = 1; break;
		case 'p': a->png = 1; break;
		case 'm': a->md = 1; break;
		case 's': a->stats = 1; break;
		case 'r': a->reference = optarg; break;
		case 'R': a->rehash = 1; break;
		case 'W': a->wait = 1; break;
		case 'k':
			if (gs_shard_parse(optarg, &a->shard_k, &a->shard_n)) {
				fprintf(stderr, "gpusheet site: --shard takes K/N, 1 <= K <= N <= %d\n",
					GS_SHARD_MAX);
				return GS_EXIT_USAGE;
			}
			break;
		case 'j': {
			char *end;
			unsigned long v = strtoul(optarg, &end, 10);
			if (!*optarg || *end || optarg[0] == '-' || v < 1 || v > 256) {
				fputs("gpusheet site: -j takes a number of processes from 1 to 256\n", stderr);
				return GS_EXIT_USAGE;
			}
			a->jobs = (unsigned)v;
			break;
		}
		case 'l':
			if (gs_tr_lang_parse(optarg, &a->lang)) {
				fputs("gpusheet site: --lang takes en or es\n", stderr);
				return GS_EXIT_USAGE;
			}
			break;
		case 'h':
			puts(S_usage);
			return GS_EXIT_OK;
		default:
			gs_suggest_bad_option("site", opts, argv, optind);
			return GS_EXIT_USAGE;
		}
	}
	/* --workloads DIR... : folders may follow the first one. */
	for (; optind < argc; optind++)
		a->dirs[a->ndirs++] = argv[optind];
	if (!a->ndirs || !a->out) {
		fputs("gpusheet site: --workloads DIR and --out DIR are required (see gpusheet --help)\n", stderr);
		return GS_EXIT_USAGE;
	}
	if (a->png && !gs_chart_png_ready())
		return GS_EXIT_INVALID;   /* said why; nothing written */
	return -1;
}

/* What a build did, counted for --stats. */
typedef struct {
	size_t rendered, pages_reused, pages_rendered, unread;
	int untouched;
} S_counts;

/* The lines a finished build prints: where, and with --stats, the counts. */
static void S_report(const S_args *a, size_t npaths, const S_counts *n)
{
	size_t nbuilt = npaths;

	if (a->shard_n) {
		size_t from, to;
		gs_shard_range(npaths, a->shard_k, a->shard_n, &from, &to);
		printf("%s: shard %u/%u (%zu of %zu workload%s)\n", a->out, a->shard_k, a->shard_n,
		       to - from, npaths, npaths == 1 ? "" : "s");
		nbuilt = to - from;
	} else {
		printf("%s/index.html (%zu workload%s)\n", a->out, npaths, npaths == 1 ? "" : "s");
	}
	if (!a->stats)
		return;
	printf("stats: %zu sheet%s rendered, %zu reused from the previous site\n", n->rendered,
	       n->rendered == 1 ? "" : "s", nbuilt - n->rendered);
	printf("stats: %zu workload%s read, %zu trusted unread (stat fields unchanged)\n",
	       npaths - n->unread, npaths - n->unread == 1 ? "" : "s", n->unread);
	if (!a->shard_n)
		printf("stats: %zu page%s rendered, %zu reused from the previous site\n",
		       n->pages_rendered, n->pages_rendered == 1 ? "" : "s", n->pages_reused);
	if (n->untouched)
		printf("stats: every input unchanged since %s was built: nothing written\n", a->out);
}

int gs_cmd_site(int argc, char **argv)
{
	S_args a;
	size_t npaths = 0;
	char **paths = NULL;
	int rc;
	char workloads_key[GS_SHA256_HEX_SIZE], inputs_key[GS_SHA256_HEX_SIZE];
	S_counts n;
	size_t k;
	gs_strvec skipped = GS_STRVEC_INIT;
	gs_site_opts sopts;
	char catalog_key[GS_SHA256_HEX_SIZE];
	gs_error key_err = GS_ERROR_INIT;
	S_checks checks;
	int key_ok, brc;
	gs_run_ctx ctx;
	gs_diag d = GS_DIAG_INIT;
	gs_publish_env env;
	gs_error err = GS_ERROR_INIT;

	rc = S_parse(argc, argv, &a);
	if (rc >= 0) {
		free(a.dirs);
		return rc;
	}
	rc = gs_cmd_common_run_ctx_init(&ctx, "site", a.catalogs, a.ncatalogs, a.lang, a.date);
	if (rc) {
		free(a.dirs);
		return rc;
	}
	/* one run at a time into OUT, for the whole run (its stat cache too) */
	if (gs_outlock_take(a.out, "site", a.wait, &err)) {
		gs_diag_error_print("site", "%s", gs_error_message(&err));
		gs_error_release(&err);
		gs_cmd_common_run_ctx_release(&ctx);
		free(a.dirs);
		return GS_EXIT_INVALID;
	}
	/* a model gone since the site in OUT was built: the files it archived */
	gs_publish_models_from(a.out);
	/*
	 * Every workload is read, validated, hashed and (when the build goes on)
	 * rendered in one pass, in the build's workers; nothing is kept unless
	 * every one of them is valid (S_validated), and nothing is written but
	 * the stage, which is then removed.
	 */
	gs_site_find_workloads(a.dirs, a.ndirs, &paths, &npaths, &skipped, &d);
	for (k = 0; k < skipped.n; k++)
		gs_diag_error_print("site", "skipped %s", skipped.v[k]);
	if (npaths == 0 && skipped.n > 0 && gs_diag_count(&d) == 0) {
		gs_diag_error_print("site", "no workload.json under the folders given (the files above "
			       "were skipped): nothing built");
		gs_util_strvec_release(&skipped);
		rc = GS_EXIT_INVALID;
		goto out;
	}
	gs_util_strvec_release(&skipped);
	memset(&env, 0, sizeof(env));
	env.cat = &ctx.cat;
	env.catalog_name = ctx.catalog_name;
	env.t = &ctx.t;
	env.tp = &ctx.tp;
	env.date = ctx.date[0] ? ctx.date : NULL;
	env.accept_synthetic = a.accept_synthetic;
	env.png = a.png;
	env.md = a.md;
	env.in_stage = 1;   /* gs_site_build renders every sheet into its stage */
	env.reference = a.reference;
	/* (a catalog that cannot be read again is said after the workloads' errors) */
	key_ok = gs_cmd_common_catalog_key_err(a.catalogs, a.ncatalogs, catalog_key, &key_err) == 0;
	memset(&checks, 0, sizeof(checks));
	checks.paths = paths;
	checks.npaths = npaths;
	checks.d = &d;
	checks.reference = a.reference;
	checks.workloads_key = workloads_key;
	checks.inputs_key = inputs_key;
	memset(&n, 0, sizeof(n));
	memset(&sopts, 0, sizeof(sopts));
	sopts.jobs = a.jobs;
	sopts.learn = 1;
	sopts.diag = &d;
	sopts.validated = S_validated;
	sopts.validated_arg = &checks;
	sopts.shard_k = a.shard_k;
	sopts.shard_n = a.shard_n;
	sopts.workloads_key = workloads_key;
	sopts.inputs_key = inputs_key;
	sopts.catalog_key = key_ok ? catalog_key : NULL;
	sopts.rendered = &n.rendered;
	sopts.pages_reused = &n.pages_reused;
	sopts.pages_rendered = &n.pages_rendered;
	sopts.unread = &n.unread;
	sopts.rehash = a.rehash;
	sopts.untouched = &n.untouched;
	brc = gs_site_build(paths, npaths, &env, &sopts, key_ok ? a.out : NULL, &err);
	if (brc == 2) {
		rc = GS_EXIT_INVALID;   /* said why */
		goto out;
	}
	if (brc) {
		gs_diag_error_print("site", "%s", gs_error_message(&err));
		rc = GS_EXIT_INVALID;
		goto out;
	}
	if (!key_ok) {
		gs_diag_error_print("site", "%s", gs_error_message(&key_err));
		rc = GS_EXIT_INVALID;
		goto out;
	}
	S_report(&a, npaths, &n);
	rc = GS_EXIT_OK;
out:
	gs_outlock_release();
	gs_error_release(&err);
	gs_error_release(&key_err);
	gs_diag_release(&d);
	gs_site_find_free_paths(paths, npaths);
	gs_cmd_common_run_ctx_release(&ctx);
	free(a.dirs);
	return rc;
}
