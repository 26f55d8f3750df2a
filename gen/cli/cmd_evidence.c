/*
 * cmd_evidence: `gpusheet evidence import --from FORMAT (logformat.c)
 * LOG --source TEXT --out FILE.json [--gpu [K=]NAME]... [--model NAME]
 * [--dims NAME=N,...] [--dtype NAME] [--setting NAME=VALUE]... [--start N]
 * [--block-size N] [--phase NAME] [--device N] [--into WORKLOAD.json]
 * [--predict WORKLOAD.json]`.
 *
 * Reads the log once (bounded), reads its figures (logimport.h), adds what
 * the flags give and the log does not say (a flag that contradicts the log
 * is refused with the log's line; a setting or a model that only a flag
 * gives is written as stated at import, with no line), checks that the measurement reads back,
 * archives the log under its SHA-256 in evidence/ beside FILE.json and
 * only then creates FILE.json, never replacing a file there. --into
 * WORKLOAD.json then adds FILE.json to the workload's evidence, the
 * workload rewritten atomically (checked before anything is written). Any error:
 * the message with its line, exit 1, no FILE.json.
 */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "commands.h"
#include "diag.h"
#include "evidence.h"
#include "gpuname.h"
#include "infile.h"
#include "jsonread.h"
#include "logimport.h"
#include "logmeasure.h"
#include "buf.h"
#include "measurement.h"
#include "outfile.h"
#include "util.h"
#include "workload.h"
#include "predict.h"
#include "quantity.h"
#include "sizing.h"

/* %s: the formats of --from, from their table (logformat.c) */
static const char S_usage[] =
	"usage: gpusheet evidence import --from %s\n"
	"       LOG"
	" --source TEXT --out FILE.json [--gpu [K=]NAME]... [--model NAME]\n"
	"       [--dims NAME=N,...] [--dtype NAME] [--setting NAME=VALUE]...\n"
	"       [--start N] [--block-size N] [--phase NAME] [--device N]\n"
	"       [--into WORKLOAD.json] [--predict WORKLOAD.json]\n";

#define S_MAX_GPUS 64
#define S_MAX_SETTINGS 16

/* Creates dir/name with the bytes, never replacing a file there. */
static int S_write_new(const char *path, const char *data, size_t len)
{
	char *dir = gs_xstrdup(path), *slash = strrchr(dir, '/'), *tmp = NULL;
	int fd, rc = -1;

	if (slash)
		*slash = '\0';
	fd = gs_outfile_temp_open(slash ? (*dir ? dir : "/") : ".", &tmp);
	if (fd < 0) {
		gs_diag_error_print("evidence import", "cannot create a file beside %s: %s", path,
			       strerror(errno));
		free(dir);
		return -1;
	}
	if (gs_outfile_write_all(fd, data, len) != 0 || fsync(fd) != 0) {
		gs_diag_error_print("evidence import", "cannot write %s: %s", path, strerror(errno));
		close(fd);
		unlink(tmp);
		goto done;
	}
	close(fd);
	if (link(tmp, path) != 0) {
		gs_diag_error_print("evidence import", "%s: %s%s", path, strerror(errno),
			       errno == EEXIST ? " (an existing file is never replaced)" : "");
		unlink(tmp);
		goto done;
	}
	unlink(tmp);
	fd = open(slash ? (*dir ? dir : "/") : ".", O_RDONLY | O_DIRECTORY);
	if (fd >= 0) {
		(void)fsync(fd);
		close(fd);
	}
	rc = 0;
done:
	free(tmp);
	free(dir);
	return rc;
}

/*
 * --into WORKLOAD.json: the workload's evidence gains {"file": OUT relative
 * to the workload's folder, "covers": ...}. Prepared before anything is
 * written (the workload read, OUT inside its folder, the new text valid);
 * written atomically after the measurement. 0, or -1 (said).
 */
typedef struct {
	char *dir;      /* the workload's folder */
	char *name;     /* its file name */
	char *text;     /* the new workload */
} S_into;

static void S_into_free(S_into *t)
{
	free(t->dir);
	free(t->name);
	free(t->text);
	memset(t, 0, sizeof(*t));
}

/* The real path of a folder that may not exist yet: its nearest existing
 * ancestor resolved, the rest appended (no "." or ".." among them); NULL if
 * none resolves. */
static char *S_resolved(const char *dir)
{
	char *d = gs_xstrdup(dir), *r = NULL, *cut, *out;
	const char *rest = "";
	size_t k;

	while (!(r = realpath(d, NULL))) {
		cut = strrchr(d, '/');
		if (!cut || cut == d) {
			free(d);
			return NULL;
		}
		*cut = '\0';
		rest = dir + (cut - d);
	}
	for (k = 0; rest[k]; k++)
		if (rest[k] == '.' && (k == 0 || rest[k - 1] == '/') &&
		    (!rest[k + 1] || rest[k + 1] == '/' || (rest[k + 1] == '.' && (!rest[k + 2] || rest[k + 2] == '/')))) {
			free(r);
			free(d);
			return NULL;
		}
	out = gs_xasprintf("%s%s", strcmp(r, "/") == 0 && *rest ? "" : r, rest);
	free(r);
	free(d);
	return out;
}

static int S_into_prepare(const char *wpath, const char *out, const char *covers, S_into *t)
{
	char *wd = gs_xstrdup(wpath), *od = gs_xstrdup(out), *slash, *wr = NULL, *orr = NULL;
	char *rel = NULL, *dumped = NULL;
	json_t *root = NULL, *ev;
	json_error_t je;
	gs_workload w;
	gs_diag d = GS_DIAG_INIT;
	size_t n, i;
	int rc = -1;

	memset(t, 0, sizeof(*t));
	slash = strrchr(wd, '/');
	t->name = gs_xstrdup(slash ? slash + 1 : wd);
	if (slash)
		slash[slash == wd ? 1 : 0] = '\0';
	t->dir = gs_xstrdup(slash ? wd : ".");
	slash = strrchr(od, '/');
	if (slash)
		slash[slash == od ? 1 : 0] = '\0';
	wr = realpath(t->dir, NULL);
	orr = S_resolved(slash ? od : ".");
	n = wr ? strlen(wr) : 0;
	if (!wr || !orr ||
	    !(strcmp(wr, orr) == 0 || (strncmp(orr, wr, n) == 0 && (orr[n] == '/' || n == 1)))) {
		gs_diag_error_print("evidence import", "--into %s: --out %s is not in the workload's "
			       "folder or beneath it (evidence is a path relative to the workload)",
			       wpath, out);
		goto done;
	}
	rel = strcmp(wr, orr) == 0 ? gs_xstrdup(strrchr(out, '/') ? strrchr(out, '/') + 1 : out)
				   : gs_xasprintf("%s/%s", orr + n + (n == 1 ? 0 : 1),
						  strrchr(out, '/') + 1);
	root = gs_jr_load_path(wpath, JSON_REJECT_DUPLICATES, &je);
	if (!root || !json_is_object(root)) {
		gs_diag_error_print("evidence import", "--into %s:%d:%d: %s", wpath, je.line, je.column,
			       root ? "expected a JSON object" : je.text);
		goto done;
	}
	ev = json_object_get(root, "evidence");
	if (!ev) {
		ev = json_array();
		json_object_set_new(root, "evidence", ev);
	}
	if (!json_is_array(ev)) {
		gs_diag_error_print("evidence import", "--into %s: $.evidence: expected an array", wpath);
		goto done;
	}
	for (i = 0; i < json_array_size(ev); i++) {
		const char *f = json_string_value(json_object_get(json_array_get(ev, i), "file"));
		if (f && strcmp(f, rel) == 0) {
			gs_diag_error_print("evidence import", "--into %s: $.evidence[%zu] already cites "
				       "%s", wpath, i, rel);
			goto done;
		}
	}
	json_array_append_new(ev, json_pack("{s:s,s:s}", "file", rel, "covers", covers));
	dumped = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_ENSURE_ASCII);
	if (!dumped)
		goto done;
	t->text = gs_xasprintf("%s\n", dumped);
	/* the new workload must read back (the measurement is not there yet:
	 * only the shape is checked here) */
	if (gs_workload_parse(wpath, t->text, strlen(t->text), &w, &d) != 0) {
		fprintf(stderr, "gpusheet evidence import: --into %s: the workload does not read "
			"(nothing is written):\n", wpath);
		gs_diag_print(&d, stderr);
		goto done;
	}
	gs_workload_release(&w);
	rc = 0;
done:
	if (rc != 0)
		S_into_free(t);
	gs_diag_release(&d);
	json_decref(root);
	free(dumped);
	free(rel);
	free(wr);
	free(orr);
	free(wd);
	free(od);
	return rc;
}

static int S_into_commit(const char *wpath, S_into *t)
{
	gs_error err = GS_ERROR_INIT;

	if (gs_outfile_write_atomic(t->dir, t->name, t->text, strlen(t->text), &err) != 0) {
		gs_diag_error_print("evidence import", "--into %s: %s (the measurement is written; "
			       "add it to the workload's evidence by hand)", wpath, gs_error_message(&err));
		gs_error_release(&err);
		return -1;
	}
	return 0;
}

/* --predict WORKLOAD.json: gpusheet's prediction for the start the log
 * records, beside the log's figures (predict.h); printed after the import. */
static int S_predict(const char *wpath, const gs_logimport *li)
{
	gs_workload w;
	gs_sizing s;
	gs_prediction p;
	gs_diag d = GS_DIAG_INIT;
	gs_error err = GS_ERROR_INIT;
	const char *why;
	char a[GS_FMT_MAX], b[GS_FMT_MAX], t[GS_FMT_MAX];
	size_t i;
	int rc = -1;

	if (gs_workload_read(wpath, &w, &d) != 0) {
		gs_diag_print(&d, stderr);
		gs_diag_release(&d);
		return -1;
	}
	if (gs_sizing_workload(&w, &s, &err) != 0) {
		gs_diag_error_print("evidence import", "--predict %s: %s", wpath, gs_error_message(&err));
		gs_error_release(&err);
		goto done;
	}
	if ((li->kind == GS_LOG_SGLANG ? gs_predict_sglang(&w, &s, li, &p, &why)
				       : gs_predict_vllm(&w, &s, li, &p, &why)) != 0) {
		gs_diag_error_print("evidence import", "--predict %s: %s", wpath, why);
		goto done;
	}
	printf("prediction for %s, device %" PRId64 " (%s), total %s (%s), "
	       "%s %" PRIu64 ".%03" PRIu64 " (%s), budget %s; block %" PRIu64
	       " (%s), tensor parallel %" PRIu64 " (%s)",
	       wpath, p.device, p.gpu ? p.gpu : "unnamed", gs_qty_fmt_gib(t, p.total, GS_LANG_EN),
	       p.total_from, p.share_name,
	       p.util_permille / 1000, p.util_permille % 1000, p.util_from,
	       gs_qty_fmt_gib(a, p.budget, GS_LANG_EN), p.block_size, p.block_from, p.tp, p.tp_from);
	if (p.step_tokens)
		printf("; max_num_batched_tokens %" PRIu64 " (default of vLLM on this card, "
		       "the profiling step's terms counted at it)", p.step_tokens);
	printf(":\n");
	for (i = 0; i < GS_PT_N; i++) {
		const gs_predict_term *x = &p.t[i];
		if (x->tokens) {
			gs_qty_fmt_int(a, x->pred, GS_LANG_EN);
			if (x->has_obs)
				gs_qty_fmt_int(b, x->obs, GS_LANG_EN);
		} else {
			gs_qty_fmt_gib(a, x->pred, GS_LANG_EN);
			if (x->has_obs)
				gs_qty_fmt_gib(b, x->obs, GS_LANG_EN);
		}
		printf("  %s: predicted %s%s (%s), ", x->name, a, x->tokens ? " tokens" : "", x->basis);
		if (!x->has_obs)
			printf("not in the log\n");
		else if (x->obs_line)
			printf("observed %s%s (line %zu%s%s)", b, x->tokens ? " tokens" : "", x->obs_line,
			       strcmp(x->obs_how, "read") ? ", " : "",
			       strcmp(x->obs_how, "read") ? x->obs_how : "");
		else
			printf("observed %s%s (%s)", b, x->tokens ? " tokens" : "", x->obs_how);
		if (x->has_obs && x->has_diff)
			printf(", %s%" PRId64 ".%" PRId64 " %%\n", x->diff_tenths < 0 ? "-" : "+",
			       (x->diff_tenths < 0 ? -x->diff_tenths : x->diff_tenths) / 10,
			       (x->diff_tenths < 0 ? -x->diff_tenths : x->diff_tenths) % 10);
		else if (x->has_obs)
			printf("\n");
	}
	if (p.has_conc) {
		printf("  maximum concurrency: predicted %" PRIu64 ".%02" PRIu64 "x for %s tokens a request "
		       "(%s), ", p.conc_pred / 100, p.conc_pred % 100,
		       gs_qty_fmt_int(a, p.conc_len, GS_LANG_EN), p.conc_len_from);
		if (!p.has_conc_obs)
			printf("not in the log\n");
		else
			printf("observed %" PRIu64 ".%02" PRIu64 "x (line %zu), %s%" PRId64 ".%" PRId64 " %%\n",
			       p.conc_obs / 100, p.conc_obs % 100, p.conc_obs_line,
			       p.conc_diff_tenths < 0 ? "-" : "+",
			       (p.conc_diff_tenths < 0 ? -p.conc_diff_tenths : p.conc_diff_tenths) / 10,
			       (p.conc_diff_tenths < 0 ? -p.conc_diff_tenths : p.conc_diff_tenths) % 10);
	}
	rc = 0;
done:
	gs_workload_release(&w);
	gs_diag_release(&d);
	return rc;
}

/* What the command line asks. */
typedef struct {
	const char *from, *out, *log, *into, *predict;
	const gs_logformat *fmt;
	gs_logimport_opts lo;
	gs_logmeasure_flags fl;
	gs_logmeasure_gpu gpus[S_MAX_GPUS];
	gs_logmeasure_stated stated[S_MAX_SETTINGS];
} S_args;

/* --setting NAME=VALUE. 0, or an exit code (said). */
static int S_arg_setting(S_args *a, const char *arg)
{
	gs_logmeasure_stated *st = a->stated;
	const char *eq = strchr(arg, '=');
	size_t n = eq ? (size_t)(eq - arg) : 0, k, ns = a->fl.nstated;
	int okname = n > 0 && n < sizeof(st[0].name) && arg[0] >= 'a' && arg[0] <= 'z';

	for (k = 0; okname && k < n; k++)
		okname = (arg[k] >= 'a' && arg[k] <= 'z') || (arg[k] >= '0' && arg[k] <= '9') ||
			 arg[k] == '_';
	if (!okname || !eq[1]) {
		gs_diag_error_print("evidence import", "--setting takes NAME=VALUE, a name "
			       "of a-z, 0-9 and _ (got '%s')", arg);
		return GS_EXIT_USAGE;
	}
	for (k = 0; k < ns; k++)
		if (strlen(st[k].name) == n && memcmp(st[k].name, arg, n) == 0) {
			gs_diag_error_print("evidence import", "--setting %.*s given twice", (int)n, arg);
			return GS_EXIT_USAGE;
		}
	if (ns == S_MAX_SETTINGS || (n == 5 && memcmp(arg, "model", 5) == 0)) {
		gs_diag_error_print("evidence import", ns == S_MAX_SETTINGS
			       ? "--setting given more than 16 times"
			       : "--setting model=: give the model with --model NAME");
		return GS_EXIT_USAGE;
	}
	memcpy(st[ns].name, arg, n);
	st[ns].name[n] = '\0';
	st[ns].value = eq + 1;
	st[ns].flag = arg;
	a->fl.nstated++;
	return 0;
}

/* --gpu [K=]NAME. 0, or an exit code (said). */
static int S_arg_gpu(S_args *a, const char *arg)
{
	gs_logmeasure_gpu *g = &a->gpus[a->fl.ngpus];
	const char *eq = strchr(arg, '=');
	uint64_t k = 0;

	if (a->fl.ngpus == S_MAX_GPUS) {
		gs_diag_error_print("evidence import", "--gpu given more than %d times", S_MAX_GPUS);
		return GS_EXIT_USAGE;
	}
	g->index = -1;
	g->name = arg;
	if (eq) {
		char num[24];
		size_t n = (size_t)(eq - arg);
		if (n < sizeof(num)) {
			memcpy(num, arg, n);
			num[n] = '\0';
			if (strcmp(num, "0") == 0 || gs_util_posint(num, &k) == 0) {
				g->index = (int64_t)k;
				g->name = eq + 1;
			}
		}
	}
	if (!*g->name) {
		gs_diag_error_print("evidence import", "--gpu needs a name");
		return GS_EXIT_USAGE;
	}
	a->fl.ngpus++;
	return 0;
}

/* --start, --block-size, --device: a number. 0, or an exit code (said). */
static int S_arg_number(S_args *a, int c, const char *arg)
{
	uint64_t u;

	if (c == 'S') {
		if (gs_util_posint(arg, &u) != 0 || u > 100000) {
			gs_diag_error_print("evidence import", "--start takes a positive number");
			return GS_EXIT_USAGE;
		}
		a->lo.run = (int)u;
	} else if (c == 'b') {
		if (gs_util_posint(arg, &u) != 0 || u > 1048576) {
			gs_diag_error_print("evidence import", "--block-size takes a positive number of tokens");
			return GS_EXIT_USAGE;
		}
		a->lo.block_size = u;
	} else if (strcmp(arg, "0") == 0) {
		a->lo.device = 0;
	} else if (gs_util_posint(arg, &u) == 0 && u < 1000000) {
		a->lo.device = (int64_t)u;
	} else {
		gs_diag_error_print("evidence import", "--device takes a device number");
		return GS_EXIT_USAGE;
	}
	return 0;
}

/* "a, b, c or d": the formats --from takes, in the table's order. */
static char *S_from_list(const char *sep, const char *last)
{
	gs_buf b = GS_BUF_INIT;
	size_t i, n = gs_logformat_count();

	for (i = 0; i < n; i++) {
		if (i)
			gs_buf_puts(&b, i + 1 == n ? last : sep);
		gs_buf_puts(&b, gs_logformat_at(i)->id);
	}
	return b.data ? b.data : gs_xstrdup("");
}

static void S_usage_print(FILE *to)
{
	char *ids = S_from_list("|", "|");

	fprintf(to, S_usage, ids);
	free(ids);
}

/* The command line into a; -1 to go on, or an exit code (said). */
static int S_args_parse(int argc, char **argv, S_args *a)
{
	static const struct option opts[] = {
		{ "from", required_argument, NULL, 'f' },
		{ "source", required_argument, NULL, 's' },
		{ "out", required_argument, NULL, 'o' },
		{ "gpu", required_argument, NULL, 'g' },
		{ "model", required_argument, NULL, 'm' },
		{ "dims", required_argument, NULL, 'D' },
		{ "dtype", required_argument, NULL, 't' },
		{ "setting", required_argument, NULL, 'V' },
		{ "start", required_argument, NULL, 'S' },
		{ "block-size", required_argument, NULL, 'b' },
		{ "phase", required_argument, NULL, 'p' },
		{ "device", required_argument, NULL, 'd' },
		{ "into", required_argument, NULL, 'I' },
		{ "predict", required_argument, NULL, 'P' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	int c, rc, kind;

	memset(a, 0, sizeof(*a));
	a->fl.gpus = a->gpus;
	a->fl.stated = a->stated;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		rc = 0;
		switch (c) {
		case 'f': a->from = optarg; break;
		case 's': a->fl.source = optarg; break;
		case 'o': a->out = optarg; break;
		case 'm': a->fl.model = optarg; break;
		case 'D': a->fl.dims = optarg; break;
		case 't': a->fl.dtype = optarg; break;
		case 'p': a->lo.phase = optarg; break;
		case 'I': a->into = optarg; break;
		case 'P': a->predict = optarg; break;
		case 'V': rc = S_arg_setting(a, optarg); break;
		case 'g': rc = S_arg_gpu(a, optarg); break;
		case 'S': case 'b': case 'd': rc = S_arg_number(a, c, optarg); break;
		case 'h': S_usage_print(stdout); return GS_EXIT_OK;
		default:
			fprintf(stderr, "gpusheet evidence import: unknown option or missing value\n");
			S_usage_print(stderr);
			return GS_EXIT_USAGE;
		}
		if (rc)
			return rc;
	}
	if (argc - optind != 1 || !a->from || !a->fl.source || !*a->fl.source || !a->out || !*a->out) {
		fprintf(stderr, "gpusheet evidence import: one LOG, --from, --source and --out are "
			"required\n");
		S_usage_print(stderr);
		return GS_EXIT_USAGE;
	}
	kind = gs_logimport_kind_parse(a->from);
	if (kind < 0) {
		char *ids = S_from_list(", ", " or ");
		gs_diag_error_print("evidence import", "--from takes %s (got '%s')", ids, a->from);
		free(ids);
		return GS_EXIT_USAGE;
	}
	a->fmt = gs_logformat_of((gs_log_kind)kind);
	if (a->fmt->needs_phase && !a->lo.phase) {
		gs_diag_error_print("evidence import", "--from %s needs --phase NAME: %s", a->fmt->id,
			       a->fmt->needs_phase);
		return GS_EXIT_USAGE;
	}
	a->log = a->fl.log = argv[optind];
	return -1;
}

/*
 * The log, once, bounded: *data (NUL-ended) and *len. 0, or an exit code
 * (said). Through the one opener of the files gpusheet keeps (infile.h): a
 * FIFO or a device is refused without a byte read, a symbolic link is not
 * followed, the size is bounded before the read.
 */
static int S_read_log(const char *log, char **data, size_t *len)
{
	gs_error e = GS_ERROR_INIT;

	*data = gs_infile_read_nofollow(log, GS_LOG_MAX_BYTES, len, &e);
	if (!*data) {
		gs_diag_error_print("evidence import", "%s: %s", log, gs_error_message(&e));
		gs_error_release(&e);
		return GS_EXIT_INVALID;
	}
	return 0;
}

/* The measurement's text, checked to read back. NULL (said) when it cannot be made. */
static char *S_measurement(const S_args *a, const gs_logimport *li, json_t *jdims,
			   const gs_logmeasure_archive *ar)
{
	gs_diag d = GS_DIAG_INIT;
	gs_measurement check;
	char *text = gs_logmeasure_text(li, &a->fl, jdims, ar);

	if (!text) {
		/* a string that is not UTF-8: the log's bytes are kept in the archive */
		gs_diag_error_print("evidence import", "%s: a cited line is not valid UTF-8", a->log);
		return NULL;
	}
	if (gs_measurement_parse(a->out, text, strlen(text), &check, &d) != 0) {
		fputs("gpusheet evidence import: the measurement made from this log does not "
		      "validate:\n", stderr);
		gs_diag_print(&d, stderr);
		gs_diag_release(&d);
		free(text);
		return NULL;
	}
	gs_measurement_release(&check);
	gs_diag_release(&d);
	return text;
}

/* The log archived beside OUT, then OUT written, then --into. An exit code. */
static int S_write(const S_args *a, const gs_logimport *li, const char *data, size_t len,
		   json_t *jdims, S_into *it)
{
	char sha[GS_SHA256_HEX_SIZE], rel[GS_EVIDENCE_REL_SIZE], *dir, *slash, *text = NULL;
	const char *base = strrchr(a->log, '/') ? strrchr(a->log, '/') + 1 : a->log;
	gs_logmeasure_archive ar;
	gs_error aerr = GS_ERROR_INIT;
	gs_archive *arch;
	int rc = GS_EXIT_INVALID;

	/* the archive's name for the log */
	gs_evidence_sha256_buffer(data, len, sha);
	dir = gs_xstrdup(a->out);
	slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	/* a damaged archive says so at its first use, below */
	arch = gs_evidence_archive(slash ? (*dir ? dir : "/") : ".", NULL);
	gs_evidence_archive_name_log(arch, sha, base, rel);
	ar.sha256 = sha;
	ar.bytes = len;
	ar.archived_as = rel;
	text = S_measurement(a, li, jdims, &ar);
	if (!text)
		goto done;
	if (gs_evidence_archive_add_log_bytes(arch, data, len, sha, base, gs_util_basename(a->out), rel, &aerr) != 0 ||
	    gs_evidence_archive_write_manifest(arch, &aerr) != 0) {
		gs_diag_error_print("evidence import", "%s", gs_error_message(&aerr));
		gs_error_release(&aerr);
		goto done;
	}
	if (S_write_new(a->out, text, strlen(text)) != 0)
		goto done;
	printf("%s: %zu figures, %zu phase%s on %zu device%s from %s (%s%s%s); the log is %s\n",
	       a->out, li->nfigs, li->nphases, li->nphases == 1 ? "" : "s", li->ndevices,
	       li->ndevices == 1 ? "" : "s", a->log, li->engine, li->version ? " " : "",
	       li->version ? li->version : "", rel);
	rc = GS_EXIT_OK;
	if (a->into) {
		if (S_into_commit(a->into, it) != 0)
			rc = GS_EXIT_INVALID;
		else
			printf("%s: its evidence cites %s\n", a->into, a->out);
	}
done:
	gs_evidence_archive_free(arch);
	free(text);
	free(dir);
	return rc;
}

static int S_import(int argc, char **argv)
{
	S_args a;
	S_into it = { NULL, NULL, NULL };
	gs_logimport li;
	gs_logmeasure_error me;
	gs_diag d = GS_DIAG_INIT;
	json_t *jdims = NULL;
	char *data = NULL, *covers = NULL;
	size_t len = 0;
	struct stat st;
	int rc = GS_EXIT_INVALID, r, parsed = 0;

	memset(&me, 0, sizeof(me));
	if ((r = S_args_parse(argc, argv, &a)) >= 0)
		return r;
	if (lstat(a.out, &st) == 0) {
		gs_diag_error_print("evidence import", "%s exists: an existing file is never replaced",
			       a.out);
		return GS_EXIT_INVALID;
	}
	if ((r = S_read_log(a.log, &data, &len)) != 0)
		return r;
	if (gs_logimport_parse(a.fmt->kind, a.log, data, len, &a.lo, &li, &d) != 0) {
		gs_diag_print(&d, stderr);
		goto done;
	}
	parsed = 1;
	/* what the flags give, what the log says wins */
	if (gs_logmeasure_check(&li, &a.fl, &jdims, &me) != 0) {
		if (me.msg)
			gs_diag_error_print("evidence import", "%s", me.msg);
		gs_diag_print(&me.d, stderr);
		if (me.usage)
			rc = GS_EXIT_USAGE;
		goto done;
	}
	/* --predict: the prediction beside the log's figures, before anything is written */
	if (a.predict && S_predict(a.predict, &li) != 0)
		goto done;
	/* --into: the workload read and its new text made before anything is written */
	if (a.into) {
		covers = gs_logmeasure_covers(&li, &a.fl);
		if (S_into_prepare(a.into, a.out, covers, &it) != 0)
			goto done;
	}
	/* the folder of --out is made as init makes it */
	if (gs_outfile_make_parents(a.out, "evidence import"))
		goto done;
	rc = S_write(&a, &li, data, len, jdims, &it);
	jdims = NULL;
done:
	if (parsed)
		gs_logimport_release(&li);
	gs_logmeasure_error_release(&me);
	gs_diag_release(&d);
	json_decref(jdims);
	free(data);
	free(covers);
	S_into_free(&it);
	return rc;
}

int gs_cmd_evidence(int argc, char **argv)
{
	if (argc >= 2 && strcmp(argv[1], "import") == 0)
		return S_import(argc - 1, argv + 1);
	if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
		S_usage_print(stdout);
		return GS_EXIT_OK;
	}
	fprintf(stderr, "gpusheet evidence: expected the subcommand 'import'\n");
	S_usage_print(stderr);
	return GS_EXIT_USAGE;
}
