/* cmd_sheet: `gpusheet sheet WORKLOAD.json`, one workload, one decision sheet. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "suggest.h"
#include "chart.h"
#include "cmd_common.h"
#include "commands.h"
#include "diag.h"
#include "evidence.h"
#include "outfile.h"
#include "outlock.h"
#include "publish.h"

/*
 * A lone sheet's folder OUT is replaced whole, as a site is (outfile.h: a
 * stage swapped in with one rename), so that a kill at any instant leaves
 * the old folder or the new one: the stage first gets a hard link to each
 * file OUT holds (its other sheets, its evidence and manifest: the same
 * inodes, untouched), then the sheet's files, evidence and manifest are
 * written over them. So OUT may hold only what sheets write: regular files,
 * and evidence/ of regular files; anything else is refused, naming it,
 * before anything is written.
 */
static int S_link_dir(const char *from, const char *to, int top, gs_error *err)
{
	DIR *dp = opendir(from);
	struct dirent *e;
	int ffd, tfd, rc = 0;

	if (!dp) {
		gs_error_set(err, "%s: cannot read the folder: %s", from, strerror(errno));
		return -1;
	}
	ffd = dirfd(dp);
	tfd = open(to, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (tfd < 0) {
		gs_error_set(err, "%s: %s", to, strerror(errno));
		closedir(dp);
		return -1;
	}
	while (rc == 0 && (e = readdir(dp)) != NULL) {
		struct stat st;
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0 ||
		    gs_outfile_is_temp_name(e->d_name))
			continue;
		if (fstatat(ffd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
			gs_error_set(err, "%s/%s: %s", from, e->d_name, strerror(errno));
			rc = -1;
		} else if (top && S_ISDIR(st.st_mode) && strcmp(e->d_name, GS_EVIDENCE_DIR) == 0) {
			char *f = gs_xasprintf("%s/%s", from, e->d_name);
			char *t = gs_xasprintf("%s/%s", to, e->d_name);
			if (mkdirat(tfd, e->d_name, 0777) != 0) {
				gs_error_set(err, "%s: %s", t, strerror(errno));
				rc = -1;
			} else {
				rc = S_link_dir(f, t, 0, err);
			}
			free(f);
			free(t);
		} else if (!S_ISREG(st.st_mode)) {
			gs_error_set(err, "%s/%s: %s, which a sheet does not write: the folder "
				 "of a sheet is replaced whole (a kill leaves the old one or the new "
				 "one), so --out must name a folder of sheets only", from, e->d_name,
				 S_ISDIR(st.st_mode) ? "a folder" : S_ISLNK(st.st_mode)
				 ? "a symbolic link" : S_ISFIFO(st.st_mode) ? "a FIFO"
				 : S_ISSOCK(st.st_mode) ? "a socket" : "a device or other special file");
			rc = -1;
		} else if (linkat(ffd, e->d_name, tfd, e->d_name, 0) != 0) {
			gs_error_set(err, "%s/%s: cannot link it into the new folder: %s", from,
				 e->d_name, strerror(errno));
			rc = -1;
		}
	}
	close(tfd);
	closedir(dp);
	return rc;
}

/* What the command line asks. */
typedef struct {
	const char *catalogs[GS_MAX_CATALOGS];
	size_t ncatalogs;
	const char *workload, *out, *summary, *date;
	int require, accept_synthetic, png, wait, quiet;
	int brief;   /* GS_PUBLISH_BRIEF_TEXT, or --format json */
	gs_lang lang;
} S_opts;

/* The options into o; -1 to go on, else the exit code (help, usage). */
static int S_options(int argc, char **argv, S_opts *o)
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
		{ "wait", no_argument, NULL, 'W' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "format", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	int c;

	memset(o, 0, sizeof(*o));
	o->out = "sheet";
	o->brief = GS_PUBLISH_BRIEF_TEXT;
	o->lang = GS_LANG_EN;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'c':
			if (o->ncatalogs == GS_MAX_CATALOGS) {
				fputs("gpusheet sheet: at most 16 --catalog\n", stderr);
				return GS_EXIT_USAGE;
			}
			o->catalogs[o->ncatalogs++] = optarg;
			break;
		case 'o': o->out = optarg; break;
		case 'r': o->require = 1; break;
		case 's': o->summary = optarg; break;
		case 'd': o->date = optarg; break;
		case 'a': o->accept_synthetic = 1; break;
		case 'p': o->png = 1; break;
		case 'W': o->wait = 1; break;
		case 'q': o->quiet = 1; break;
		case 'f':
			if (strcmp(optarg, "text") == 0) {
				o->brief = GS_PUBLISH_BRIEF_TEXT;
			} else if (strcmp(optarg, "json") == 0) {
				o->brief = GS_PUBLISH_BRIEF_JSON;
			} else {
				fputs("gpusheet sheet: --format takes text or json\n", stderr);
				return GS_EXIT_USAGE;
			}
			break;
		case 'l':
			if (gs_tr_lang_parse(optarg, &o->lang)) {
				fputs("gpusheet sheet: --lang takes en or es\n", stderr);
				return GS_EXIT_USAGE;
			}
			break;
		case 'h':
			puts("usage: gpusheet sheet WORKLOAD.json [--catalog FILE]... [--out DIR (default: sheet)] "
			     "[--lang en|es] [--require-retained] [--accept-synthetic] [--summary FILE] "
			     "[--date YYYY-MM-DD] [--png] [--wait] [--quiet] [--format text|json]\n"
			     "  prints the answer, the best offer of each class and the paths written;\n"
			     "  --quiet: nothing; --format json: the decision's summary as JSON\n"
			     "  --wait: when another gpusheet run is writing DIR, wait for it to end\n"
			     "  (default: refuse, exit 1)");
			return GS_EXIT_OK;
		default:
			gs_suggest_bad_option("sheet", opts, argv, optind);
			return GS_EXIT_USAGE;
		}
	}
	if (argc - optind != 1) {
		fputs("gpusheet sheet: exactly one WORKLOAD.json is required (see gpusheet --help)\n", stderr);
		return GS_EXIT_USAGE;
	}
	o->workload = argv[optind];
	return -1;
}

/*
 * The stage next to OUT, holding what OUT holds, and its evidence archive,
 * both found sound before anything is written; *stage_summary: --summary
 * moved into the stage when it lies inside OUT. 0, or -1 said on stderr
 * (nothing of theirs left).
 */
static int S_stage(S_opts *o, gs_stage **stp, gs_archive **archivep, char **stage_summary)
{
	gs_error err = GS_ERROR_INIT, aerr = GS_ERROR_INIT;
	gs_stage *st;
	gs_archive *archive;

	*stage_summary = NULL;
	st = gs_outfile_stage_begin_as(o->out, NULL, "sheet folder", &err);
	if (!st || (gs_outfile_stage_previous(st) &&
		    S_link_dir(gs_outfile_stage_previous(st), gs_outfile_stage_dir(st), 1, &err))) {
		gs_diag_error_print("sheet", "%s", gs_error_message(&err));
		gs_error_release(&err);
		gs_outfile_stage_free(st);
		return -1;
	}
	if (o->summary) {
		/* a summary inside OUT goes with the sheet, into the stage */
		size_t ol = strlen(o->out);
		while (ol > 1 && o->out[ol - 1] == '/')
			ol--;
		if (strncmp(o->summary, o->out, ol) == 0 && o->summary[ol] == '/') {
			*stage_summary = gs_xasprintf("%s%s", gs_outfile_stage_dir(st), o->summary + ol);
			o->summary = *stage_summary;
		}
	}
	/* A damaged archive is found before anything is written. */
	archive = gs_evidence_archive(gs_outfile_stage_dir(st), &aerr);
	if (!archive || gs_error_is_set(&aerr)) {
		/* named as the user knows it: OUT, not the stage that copies it */
		const char *msg = gs_error_message(&aerr), *sd = gs_outfile_stage_dir(st);
		size_t sl = strlen(sd);
		if (strncmp(msg, sd, sl) == 0)
			gs_diag_error_print("sheet", "%s%s", o->out, msg + sl);
		else
			gs_diag_error_print("sheet", "%s", msg);
		gs_error_release(&aerr);
		if (archive)
			gs_evidence_archive_free(archive);
		gs_outfile_stage_free(st);
		free(*stage_summary);
		*stage_summary = NULL;
		return -1;
	}
	*stp = st;
	*archivep = archive;
	return 0;
}

/* The sheet written into the stage, the stage swapped in, the answer
 * printed; the exit code. */
static int S_write(const S_opts *o, gs_run_ctx *ctx, gs_job *job, gs_archive *archive,
		   gs_stage *st)
{
	gs_publish_env env;
	gs_publish_result res;
	gs_error err = GS_ERROR_INIT;
	int rc = GS_EXIT_OK;

	memset(&env, 0, sizeof(env));
	env.cat = &ctx->cat;
	env.catalog_name = ctx->catalog_name;
	env.t = &ctx->t;
	env.tp = &ctx->tp;
	env.date = ctx->date[0] ? ctx->date : NULL;
	env.link_prefix = "";
	env.sheet_prefix = "";
	env.accept_synthetic = o->accept_synthetic;
	env.write_manifest = 1;
	env.png = o->png;
	env.md = 1;
	env.brief = o->quiet ? 0 : o->brief;
	env.brief_dir = o->out;
	if (gs_publish_job(job, &env, archive, gs_outfile_stage_dir(st), o->summary, &res, &err)) {
		gs_diag_error_print("sheet", "%s", gs_error_message(&err));
		rc = GS_EXIT_INVALID;
	} else if (gs_outfile_stage_commit(st, &err)) {
		/* the swap: OUT is still the old folder (unless err says otherwise) */
		gs_diag_error_print("sheet", "%s", gs_error_message(&err));
		gs_publish_result_release(&res);
		rc = GS_EXIT_INVALID;
	} else {
		if (res.brief)
			fputs(res.brief, stdout);
		/* A gate passes on evidence only: a retained offer
		 * resting on a synthetic file fails it too. */
		if (o->require && (res.nretained == 0 || res.nretained_synthetic > 0))
			rc = GS_EXIT_NOT_RETAINED;
		if (o->require && res.nretained_synthetic > 0)
			fprintf(stderr, "gpusheet sheet: --require-retained: %zu retained "
				"offer(s) rest on synthetic evidence (a demonstration, "
				"not a measurement)\n", res.nretained_synthetic);
		gs_publish_result_release(&res);
	}
	gs_error_release(&err);
	return rc;
}

int gs_cmd_sheet(int argc, char **argv)
{
	S_opts o;
	gs_stage *st = NULL;
	gs_archive *archive = NULL;
	char *stage_summary = NULL;
	gs_run_ctx ctx;
	gs_job job;
	gs_diag d = GS_DIAG_INIT;
	gs_error err = GS_ERROR_INIT;
	int rc = S_options(argc, argv, &o);

	if (rc >= 0)
		return rc;
	if (o.png && !gs_chart_png_ready())
		return GS_EXIT_INVALID;   /* said why; nothing written */
	rc = gs_cmd_common_run_ctx_init(&ctx, "sheet", o.catalogs, o.ncatalogs, o.lang, o.date);
	if (rc)
		return rc;
	/* one run at a time into OUT: another sheet's run would lose this one's files */
	if (gs_outlock_take(o.out, "sheet", o.wait, &err)) {
		gs_diag_error_print("sheet", "%s", gs_error_message(&err));
		gs_error_release(&err);
		gs_cmd_common_run_ctx_release(&ctx);
		gs_outlock_release();
		return GS_EXIT_INVALID;
	}
	/* a model gone since a sheet was written in OUT: the files it archived */
	gs_publish_models_from(o.out);
	/* Read and validate everything before writing anything. */
	if (gs_publish_load(o.workload, &ctx.cat, &job, &d)) {
		gs_diag_print(&d, stderr);
		gs_diag_release(&d);
		rc = GS_EXIT_INVALID;
	} else if (S_stage(&o, &st, &archive, &stage_summary)) {
		rc = GS_EXIT_INVALID;
	} else {
		rc = S_write(&o, &ctx, &job, archive, st);
		gs_evidence_archive_free(archive);
		gs_outfile_stage_free(st);
		free(stage_summary);
	}
	gs_publish_release(&job);
	gs_cmd_common_run_ctx_release(&ctx);
	gs_outlock_release();
	return rc;
}
