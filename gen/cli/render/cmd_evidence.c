/*
 * cmd_evidence: `gpusheet evidence import --from vllm|torch-oom|torch-stats|llama.cpp|sglang
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
#include "logimport.h"
#include "measurement.h"
#include "outfile.h"
#include "util.h"
#include "workload.h"
#include "predict.h"
#include "quantity.h"
#include "sizing.h"

static const char S_usage[] =
	"usage: gpusheet evidence import --from vllm|torch-oom|torch-stats|llama.cpp|sglang\n"
	"       LOG"
	" --source TEXT --out FILE.json [--gpu [K=]NAME]... [--model NAME]\n"
	"       [--dims NAME=N,...] [--dtype NAME] [--setting NAME=VALUE]...\n"
	"       [--start N] [--block-size N] [--phase NAME] [--device N]\n"
	"       [--into WORKLOAD.json] [--predict WORKLOAD.json]\n";

#define S_MAX_GPUS 64
#define S_MAX_SETTINGS 16

/* A setting the log does not print, as the user states it (--setting). */
typedef struct {
	char name[64];
	const char *value;
	const char *flag;
} S_stated;

/* Two values of one setting agree: the same text, or the same decimal
 * ("0.9" and "0.90"). */
static int S_same_value(const char *a, const char *b)
{
	char *ea, *eb;
	double x, y;

	if (strcmp(a, b) == 0)
		return 1;
	x = strtod(a, &ea);
	y = strtod(b, &eb);
	return ea != a && eb != b && !*ea && !*eb && x == y;
}

typedef struct {
	int64_t index;   /* -1: every device */
	const char *name;
} S_gpu;

static const char *S_base(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

static int S_posint(const char *s, uint64_t *out)
{
	char *e;
	unsigned long long v;

	if (!s || !*s || *s == '-' || *s == '+' || *s == ' ')
		return -1;
	errno = 0;
	v = strtoull(s, &e, 10);
	if (errno || *e || v == 0 || v > (unsigned long long)INT64_MAX)
		return -1;
	*out = v;
	return 0;
}

/* bf16 and bfloat16 are one dtype, as are fp16, half and float16. */
static const char *S_dtype_norm(const char *s)
{
	static const char *const al[][2] = {
		{ "bf16", "bfloat16" }, { "fp16", "float16" }, { "half", "float16" },
		{ "f16", "float16" },   { "fp32", "float32" }, { "float", "float32" },
		{ "f32", "float32" },   { NULL, NULL }
	};
	size_t i;

	if (strncmp(s, "torch.", 6) == 0)
		s += 6;
	for (i = 0; al[i][0]; i++)
		if (strcmp(s, al[i][0]) == 0)
			return al[i][1];
	return s;
}

/* "FILE:LINE: error: MSG" for a flag the log contradicts. */
#define S_refuse(log, line, fmt, a, b, text) S_refuse_msg((log), (line), gs_xasprintf(fmt, a, b), (text))

static void S_refuse_msg(const char *log, size_t line, char *msg, const char *text)
{
	gs_diag d = GS_DIAG_INIT;

	gs_diag_add(&d, log, (int)line, 0, NULL, "%s: \"%s\"", msg, text);
	gs_diag_print(&d, stderr);
	gs_diag_release(&d);
	free(msg);
}

static json_t *S_opt_u64(int has, uint64_t v)
{
	return has ? json_integer((json_int_t)v) : json_null();
}

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
	root = json_load_file(wpath, JSON_REJECT_DUPLICATES, &je);
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
	if (gs_predict_vllm(&w, &s, li, &p, &why) != 0) {
		gs_diag_error_print("evidence import", "--predict %s: %s", wpath, why);
		goto done;
	}
	printf("prediction for %s, device %" PRId64 " (%s), total %s (%s), "
	       "gpu_memory_utilization %" PRIu64 ".%03" PRIu64 " (%s), budget %s; block %" PRIu64
	       " (%s), tensor parallel %" PRIu64 " (%s):\n",
	       wpath, p.device, p.gpu ? p.gpu : "unnamed", gs_qty_fmt_gib(t, p.total, GS_LANG_EN),
	       p.total_from,
	       p.util_permille / 1000, p.util_permille % 1000, p.util_from,
	       gs_qty_fmt_gib(a, p.budget, GS_LANG_EN), p.block_size, p.block_from, p.tp, p.tp_from);
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

static int S_import(int argc, char **argv)
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
	const char *from = NULL, *source = NULL, *out = NULL, *model = NULL, *dims = NULL;
	const char *dtype = NULL, *log, *into = NULL, *predict = NULL;
	S_into it = { NULL, NULL, NULL };
	char *covers = NULL;
	S_gpu gpus[S_MAX_GPUS];
	S_stated stated[S_MAX_SETTINGS];
	size_t nstated = 0;
	size_t ngpus = 0, len = 0, i, j;
	gs_logimport_opts lo;
	gs_logimport li;
	gs_diag d = GS_DIAG_INIT;
	gs_measurement check;
	gs_archive *arch = NULL;
	gs_error aerr = GS_ERROR_INIT;
	char sha[GS_SHA256_HEX_SIZE], rel[GS_EVIDENCE_REL_SIZE], *data = NULL, *text = NULL;
	char *dir = NULL, *slash, *dims_copy = NULL, *produced = NULL, *code = NULL;
	json_t *root = NULL, *jdims, *env, *devs, *phs, *imp, *figs, *sets, *jlog;
	struct stat st;
	uint64_t u;
	int c, kind, rc = GS_EXIT_INVALID, parsed = 0;

	memset(&lo, 0, sizeof(lo));
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'f': from = optarg; break;
		case 's': source = optarg; break;
		case 'o': out = optarg; break;
		case 'm': model = optarg; break;
		case 'D': dims = optarg; break;
		case 't': dtype = optarg; break;
		case 'p': lo.phase = optarg; break;
		case 'I': into = optarg; break;
		case 'P': predict = optarg; break;
		case 'V': {
			const char *eq = strchr(optarg, '=');
			size_t n = eq ? (size_t)(eq - optarg) : 0, k;
			int okname = n > 0 && n < sizeof(stated[0].name) && optarg[0] >= 'a' &&
				     optarg[0] <= 'z';
			for (k = 0; okname && k < n; k++)
				okname = (optarg[k] >= 'a' && optarg[k] <= 'z') ||
					 (optarg[k] >= '0' && optarg[k] <= '9') || optarg[k] == '_';
			if (!okname || !eq[1]) {
				gs_diag_error_print("evidence import", "--setting takes NAME=VALUE, a name "
					       "of a-z, 0-9 and _ (got '%s')", optarg);
				return GS_EXIT_USAGE;
			}
			for (k = 0; k < nstated; k++)
				if (strlen(stated[k].name) == n && memcmp(stated[k].name, optarg, n) == 0) {
					gs_diag_error_print("evidence import", "--setting %.*s given twice",
						       (int)n, optarg);
					return GS_EXIT_USAGE;
				}
			if (nstated == S_MAX_SETTINGS || (n == 5 && memcmp(optarg, "model", 5) == 0)) {
				gs_diag_error_print("evidence import", nstated == S_MAX_SETTINGS
					       ? "--setting given more than 16 times"
					       : "--setting model=: give the model with --model NAME");
				return GS_EXIT_USAGE;
			}
			memcpy(stated[nstated].name, optarg, n);
			stated[nstated].name[n] = '\0';
			stated[nstated].value = eq + 1;
			stated[nstated].flag = optarg;
			nstated++;
			break;
		}
		case 'g': {
			const char *eq = strchr(optarg, '=');
			uint64_t k = 0;
			if (ngpus == S_MAX_GPUS) {
				gs_diag_error_print("evidence import", "--gpu given more than %d times", S_MAX_GPUS);
				return GS_EXIT_USAGE;
			}
			gpus[ngpus].index = -1;
			gpus[ngpus].name = optarg;
			if (eq) {
				char num[24];
				size_t n = (size_t)(eq - optarg);
				if (n < sizeof(num)) {
					memcpy(num, optarg, n);
					num[n] = '\0';
					if (strcmp(num, "0") == 0 || S_posint(num, &k) == 0) {
						gpus[ngpus].index = (int64_t)k;
						gpus[ngpus].name = eq + 1;
					}
				}
			}
			if (!*gpus[ngpus].name) {
				gs_diag_error_print("evidence import", "--gpu needs a name");
				return GS_EXIT_USAGE;
			}
			ngpus++;
			break;
		}
		case 'S':
			if (S_posint(optarg, &u) != 0 || u > 100000) {
				gs_diag_error_print("evidence import", "--start takes a positive number");
				return GS_EXIT_USAGE;
			}
			lo.run = (int)u;
			break;
		case 'b':
			if (S_posint(optarg, &u) != 0 || u > 1048576) {
				gs_diag_error_print("evidence import", "--block-size takes a positive number of tokens");
				return GS_EXIT_USAGE;
			}
			lo.block_size = u;
			break;
		case 'd':
			if (strcmp(optarg, "0") == 0) {
				lo.device = 0;
			} else if (S_posint(optarg, &u) == 0 && u < 1000000) {
				lo.device = (int64_t)u;
			} else {
				gs_diag_error_print("evidence import", "--device takes a device number");
				return GS_EXIT_USAGE;
			}
			break;
		case 'h': fputs(S_usage, stdout); return GS_EXIT_OK;
		default:
			fprintf(stderr, "gpusheet evidence import: unknown option or missing value\n%s",
				S_usage);
			return GS_EXIT_USAGE;
		}
	}
	if (argc - optind != 1 || !from || !source || !*source || !out || !*out) {
		fprintf(stderr, "gpusheet evidence import: one LOG, --from, --source and --out are "
			"required\n%s", S_usage);
		return GS_EXIT_USAGE;
	}
	kind = gs_logimport_kind_parse(from);
	if (kind < 0) {
		gs_diag_error_print("evidence import", "--from takes vllm, torch-oom, torch-stats, "
			       "llama.cpp or sglang (got '%s')", from);
		return GS_EXIT_USAGE;
	}
	if (kind == GS_LOG_TORCH_STATS && !lo.phase) {
		gs_diag_error_print("evidence import", "--from torch-stats needs --phase NAME: a dump "
			       "does not say which phase it closes");
		return GS_EXIT_USAGE;
	}
	log = argv[optind];
	if (lstat(out, &st) == 0) {
		gs_diag_error_print("evidence import", "%s exists: an existing file is never replaced",
			       out);
		return GS_EXIT_INVALID;
	}
	/* the log, once */
	{
		/* O_NONBLOCK: a FIFO is refused below, not waited on */
		int fd = open(log, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
		size_t got = 0;
		if (fd < 0 || fstat(fd, &st) != 0) {
			gs_diag_error_print("evidence import", "cannot open %s: %s", log, strerror(errno));
			if (fd >= 0)
				close(fd);
			return GS_EXIT_INVALID;
		}
		if (!S_ISREG(st.st_mode)) {
			gs_diag_error_print("evidence import", "%s: not a regular file", log);
			close(fd);
			return GS_EXIT_INVALID;
		}
		if ((uint64_t)st.st_size > GS_LOG_MAX_BYTES) {
			gs_diag_error_print("evidence import", "%s is %lld bytes, more than the bound of %u "
				       "bytes (64 MiB)", log, (long long)st.st_size, GS_LOG_MAX_BYTES);
			close(fd);
			return GS_EXIT_INVALID;
		}
		data = gs_xmalloc((size_t)st.st_size + 1);
		while (got < (size_t)st.st_size) {
			ssize_t n = read(fd, data + got, (size_t)st.st_size - got);
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0)
				break;
			got += (size_t)n;
		}
		close(fd);
		len = got;
		data[len] = '\0';
	}
	if (gs_logimport_parse((gs_log_kind)kind, log, data, len, &lo, &li, &d) != 0) {
		gs_diag_print(&d, stderr);
		goto done;
	}
	parsed = 1;
	/* what the flags give, what the log says wins */
	if (model) {
		const gs_logsetting *s = gs_logimport_setting(&li, "model");
		if (s && strcmp(s->value, model) != 0 && strcmp(S_base(s->value), S_base(model)) != 0) {
			S_refuse(log, s->line, "--model %s contradicts the log, which names the model %s",
				 model, s->value, s->text);
			goto done;
		}
	}
	if (dtype) {
		const gs_logsetting *s = gs_logimport_setting(&li, "dtype");
		if (s && strcmp(S_dtype_norm(s->value), S_dtype_norm(dtype)) != 0) {
			S_refuse(log, s->line, "--dtype %s contradicts the log, which says dtype=%s",
				 dtype, s->value, s->text);
			goto done;
		}
	}
	for (i = 0; i < nstated; i++) {
		const gs_logsetting *s = gs_logimport_setting(&li, stated[i].name);
		if (s && !S_same_value(s->value, stated[i].value)) {
			S_refuse(log, s->line, "--setting %s contradicts the log, which says %s",
				 stated[i].flag, s->value, s->text);
			goto done;
		}
	}
	for (i = 0; i < li.ndevices; i++) {
		gs_logdevice *dv = &li.devices[i];
		for (j = 0; j < ngpus; j++) {
			if (gpus[j].index >= 0 && gpus[j].index != dv->index)
				continue;
			if (dv->name && !gs_gpuname_same(gpus[j].name, NULL, dv->name) &&
			    !gs_gpuname_same(dv->name, NULL, gpus[j].name) &&
			    strcmp(dv->name, gpus[j].name) != 0) {
				S_refuse(log, dv->name_line, "--gpu %s contradicts the log, which names the "
					 "device %s", gpus[j].name, dv->name, dv->name);
				goto done;
			}
		}
		if (!dv->name) {
			const char *name = NULL;
			for (j = 0; j < ngpus; j++)
				if (gpus[j].index == dv->index || (gpus[j].index < 0 && !name))
					name = gpus[j].name;
			for (j = 0; j < ngpus; j++)
				if (gpus[j].index == dv->index)
					name = gpus[j].name;
			if (!name) {
				gs_diag_error_print("evidence import", "%s: the log does not name the GPU of "
					       "device %" PRId64 ": give --gpu NAME (or --gpu %" PRId64
					       "=NAME)", log, dv->index, dv->index);
				goto done;
			}
			dv->name = gs_xstrdup(name);
		}
	}
	/* dimensions: the log's, then the flags' (a contradiction refused) */
	jdims = json_object();
	{
		static const char *const logdims[] = { "max_model_len", "tensor_parallel_size",
						       "pipeline_parallel_size", "n_ctx", "n_seq_max",
						       NULL };
		for (i = 0; logdims[i]; i++) {
			const gs_logsetting *s = gs_logimport_setting(&li, logdims[i]);
			if (s && S_posint(s->value, &u) == 0)
				json_object_set_new(jdims, logdims[i], json_integer((json_int_t)u));
		}
		if (gs_logimport_setting(&li, "dtype"))
			json_object_set_new(jdims, "dtype",
					    json_string(S_dtype_norm(gs_logimport_setting(&li, "dtype")->value)));
		else if (dtype)
			json_object_set_new(jdims, "dtype", json_string(S_dtype_norm(dtype)));
	}
	if (dims) {
		char *tok, *save = NULL;
		dims_copy = gs_xstrdup(dims);
		for (tok = strtok_r(dims_copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
			char *eq = strchr(tok, '=');
			const gs_logsetting *s;
			json_t *have;
			size_t k;
			int okname = eq && eq > tok && *tok >= 'a' && *tok <= 'z';
			if (eq)
				*eq = '\0';
			for (k = 0; okname && tok[k]; k++)
				okname = (tok[k] >= 'a' && tok[k] <= 'z') || (tok[k] >= '0' && tok[k] <= '9') ||
					 tok[k] == '_';
			if (!okname || S_posint(eq + 1, &u) != 0) {
				gs_diag_error_print("evidence import", "--dims takes NAME=N,... with positive "
					       "whole numbers (got '%s')", dims);
				json_decref(jdims);
				rc = GS_EXIT_USAGE;
				goto done;
			}
			have = json_object_get(jdims, tok);
			if (have && json_is_integer(have) && (uint64_t)json_integer_value(have) != u) {
				s = gs_logimport_setting(&li, tok);
				S_refuse(log, s ? s->line : 0, "--dims %s contradicts the log, which says %s",
					 tok, s ? s->value : "", s ? s->text : "");
				json_decref(jdims);
				goto done;
			}
			json_object_set_new(jdims, tok, json_integer((json_int_t)u));
		}
	}
	/* --predict: the prediction beside the log's figures, before anything is written */
	if (predict && S_predict(predict, &li) != 0) {
		json_decref(jdims);
		goto done;
	}
	/* --into: the workload read and its new text made before anything is written */
	if (into) {
		const gs_logsetting *ms = gs_logimport_setting(&li, "model");
		covers = gs_xasprintf("%s log%s%s, imported from %s (reported by %s)",
				      li.engine, ms || model ? " of " : "",
				      ms ? ms->value : model ? model : "", S_base(log), source);
		if (S_into_prepare(into, out, covers, &it) != 0) {
			json_decref(jdims);
			goto done;
		}
	}
	/* the folder of --out is made as init makes it */
	if (gs_outfile_make_parents(out, "evidence import")) {
		json_decref(jdims);
		rc = GS_EXIT_INVALID;
		goto done;
	}
	/* the archive's name for the log */
	gs_evidence_sha256_buffer(data, len, sha);
	dir = gs_xstrdup(out);
	slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	/* a damaged archive says so at its first use, below */
	arch = gs_evidence_archive(slash ? (*dir ? dir : "/") : ".", NULL);
	gs_evidence_archive_name_log(arch, sha, S_base(log), rel);

	/* the measurement */
	produced = li.version ? gs_xasprintf("%s %s", li.engine, li.version) : gs_xstrdup(li.engine);
	if (kind == GS_LOG_TORCH_OOM && li.version) {
		free(produced);
		produced = gs_xasprintf("PyTorch %s (from the wording of its out-of-memory message)",
					li.version);
	}
	{
		const gs_logsetting *s = gs_logimport_setting(&li, "model");
		const char *what = kind == GS_LOG_VLLM        ? "vLLM start-up log"
				   : kind == GS_LOG_SGLANG    ? "SGLang start-up log"
				   : kind == GS_LOG_LLAMACPP  ? "llama.cpp load log"
				   : kind == GS_LOG_TORCH_OOM ? "PyTorch out-of-memory message"
							      : "torch.cuda.memory_stats() dump";
		const char *mn = s ? s->value : model;
		code = mn ? gs_xasprintf("%s: %s", what, mn) : gs_xstrdup(what);
	}

	root = json_object();
	json_object_set_new(root, "schema", json_string("gpusheet-measurement"));
	json_object_set_new(root, "schema_version", json_integer(1));
	json_object_set_new(root, "synthetic", json_false());
	json_object_set_new(root, "synthetic_note", json_null());
	json_object_set_new(root, "produced_by", json_string(produced));
	json_object_set_new(root, "identity", json_pack("{s:s}", "code", code));
	json_object_set_new(root, "dimensions", jdims);
	env = json_object();
	devs = json_array();
	for (i = 0; i < li.ndevices; i++) {
		const gs_logdevice *dv = &li.devices[i];
		json_array_append_new(devs, json_pack("{s:I,s:s,s:o,s:o}", "index", (json_int_t)dv->index,
						      "name", dv->name,
						      "total_bytes", S_opt_u64(dv->has_total, dv->total),
						      "free_bytes", S_opt_u64(dv->has_free, dv->free_bytes)));
	}
	json_object_set_new(env, "devices", devs);
	json_object_set_new(env, "backend", json_string("cuda"));
	if ((kind == GS_LOG_VLLM || kind == GS_LOG_SGLANG) && li.version) {
		const char *v = li.version[0] == 'v' ? li.version + 1 : li.version;
		json_object_set_new(env, "frameworks",
				    json_pack("{s:s}", kind == GS_LOG_VLLM ? "vllm" : "sglang", v));
	}
	json_object_set_new(root, "environment", env);
	json_object_set_new(root, "protocol",
			    json_pack("{s:s,s:n}", "process",
				      kind == GS_LOG_VLLM || kind == GS_LOG_LLAMACPP || kind == GS_LOG_SGLANG
					      ? "fresh"
					      : "unknown",
				      "empty_cache"));
	phs = json_array();
	for (i = 0; i < li.nphases; i++) {
		const gs_logphase *p = &li.phases[i];
		json_t *ph = json_object();
		json_object_set_new(ph, "name", json_string(p->name));
		json_object_set_new(ph, "device", json_integer((json_int_t)p->device));
		json_object_set_new(ph, "status", json_string(p->failed ? "failed" : "ok"));
		json_object_set_new(ph, "error", p->error ? json_string(p->error) : json_null());
		if (p->alloc_peak.has || p->alloc_end.has)
			json_object_set_new(ph, "allocated",
					    json_pack("{s:n,s:o,s:o}", "start", "peak",
						      S_opt_u64(p->alloc_peak.has, p->alloc_peak.v), "end",
						      S_opt_u64(p->alloc_end.has, p->alloc_end.v)));
		if (p->reserved_peak.has || p->reserved_end.has)
			json_object_set_new(ph, "reserved",
					    json_pack("{s:n,s:o,s:o}", "start", "peak",
						      S_opt_u64(p->reserved_peak.has, p->reserved_peak.v),
						      "end", S_opt_u64(p->reserved_end.has, p->reserved_end.v)));
		if (p->used_end.has)
			json_object_set_new(ph, "device_used",
					    json_pack("{s:n,s:I}", "start", "end", (json_int_t)p->used_end.v));
		json_array_append_new(phs, ph);
	}
	json_object_set_new(root, "phases", phs);
	imp = json_object();
	json_object_set_new(imp, "from", json_string(gs_logimport_kind_id((gs_log_kind)kind)));
	json_object_set_new(imp, "source", json_string(source));
	jlog = json_pack("{s:s,s:s,s:I,s:I,s:s}", "name", S_base(log), "sha256", sha, "bytes",
			 (json_int_t)len, "lines", (json_int_t)li.nlines, "archived_as", rel);
	json_object_set_new(imp, "log", jlog);
	json_object_set_new(imp, "engine", json_string(li.engine));
	json_object_set_new(imp, "version", li.version ? json_string(li.version) : json_null());
	json_object_set_new(imp, "version_line",
			    li.version_line ? json_integer((json_int_t)li.version_line) : json_null());
	json_object_set_new(imp, "start", json_integer(li.run));
	json_object_set_new(imp, "starts", json_integer((json_int_t)li.nruns));
	sets = json_array();
	for (i = 0; i < li.nsettings; i++)
		json_array_append_new(sets, json_pack("{s:s,s:s,s:I,s:s}", "name", li.settings[i].name,
						      "value", li.settings[i].value, "line",
						      (json_int_t)li.settings[i].line, "text",
						      li.settings[i].text));
	/* what only a flag gives: stated at import, no line of the log */
	if (model && !gs_logimport_setting(&li, "model"))
		json_array_append_new(sets, json_pack("{s:s,s:s,s:n,s:n,s:s}", "name", "model",
						      "value", model, "line", "text", "stated",
						      "--model"));
	for (i = 0; i < nstated; i++)
		if (!gs_logimport_setting(&li, stated[i].name))
			json_array_append_new(sets, json_pack("{s:s,s:s,s:n,s:n,s:s}", "name",
							      stated[i].name, "value", stated[i].value,
							      "line", "text", "stated", "--setting"));
	json_object_set_new(imp, "settings", sets);
	figs = json_array();
	for (i = 0; i < li.nfigs; i++) {
		const gs_logfig *f = &li.figs[i];
		json_t *o = json_object();
		json_object_set_new(o, "name", json_string(f->name));
		json_object_set_new(o, "device", f->device >= 0 ? json_integer((json_int_t)f->device)
							       : json_null());
		json_object_set_new(o, "value", f->is_int ? json_integer((json_int_t)f->value)
							  : json_string(f->decimal));
		json_object_set_new(o, "unit", json_string(gs_logimport_unit_id(f->unit)));
		json_object_set_new(o, "as_written", json_string(f->as_written));
		json_object_set_new(o, "note", f->note ? json_string(f->note) : json_null());
		json_object_set_new(o, "estimate", json_boolean(f->estimate));
		json_object_set_new(o, "line", json_integer((json_int_t)f->line));
		json_object_set_new(o, "last_line", f->last_line > f->line
							    ? json_integer((json_int_t)f->last_line)
							    : json_null());
		json_object_set_new(o, "text", json_string(f->text));
		json_array_append_new(figs, o);
	}
	json_object_set_new(imp, "figures", figs);
	json_object_set_new(root, "import", imp);
	{
		char *t = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_ENSURE_ASCII);
		if (!t) {
			/* a string that is not UTF-8: the log's bytes are kept in the archive */
			gs_diag_error_print("evidence import", "%s: a cited line is not valid UTF-8", log);
			goto done;
		}
		text = gs_xasprintf("%s\n", t);
		free(t);
	}
	/* what we write must read back */
	if (gs_measurement_parse(out, text, strlen(text), &check, &d) != 0) {
		fputs("gpusheet evidence import: the measurement made from this log does not "
		      "validate:\n", stderr);
		gs_diag_print(&d, stderr);
		goto done;
	}
	gs_measurement_release(&check);
	if (gs_evidence_archive_add_log_bytes(arch, data, len, sha, S_base(log), S_base(out), rel, &aerr) != 0 ||
	    gs_evidence_archive_write_manifest(arch, &aerr) != 0) {
		gs_diag_error_print("evidence import", "%s", gs_error_message(&aerr));
		gs_error_release(&aerr);
		goto done;
	}
	if (S_write_new(out, text, strlen(text)) != 0)
		goto done;
	printf("%s: %zu figures, %zu phase%s on %zu device%s from %s (%s%s%s); the log is %s\n",
	       out, li.nfigs, li.nphases, li.nphases == 1 ? "" : "s", li.ndevices,
	       li.ndevices == 1 ? "" : "s", log, li.engine, li.version ? " " : "",
	       li.version ? li.version : "", rel);
	rc = GS_EXIT_OK;
	if (into) {
		if (S_into_commit(into, &it) != 0)
			rc = GS_EXIT_INVALID;
		else
			printf("%s: its evidence cites %s\n", into, out);
	}
done:
	if (parsed)
		gs_logimport_release(&li);
	gs_diag_release(&d);
	json_decref(root);
	gs_evidence_archive_free(arch);
	free(data);
	free(text);
	free(dir);
	free(dims_copy);
	free(produced);
	free(code);
	free(covers);
	S_into_free(&it);
	return rc;
}

int gs_cmd_evidence(int argc, char **argv)
{
	if (argc >= 2 && strcmp(argv[1], "import") == 0)
		return S_import(argc - 1, argv + 1);
	if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
		fputs(S_usage, stdout);
		return GS_EXIT_OK;
	}
	fprintf(stderr, "gpusheet evidence: expected the subcommand 'import'\n%s", S_usage);
	return GS_EXIT_USAGE;
}
