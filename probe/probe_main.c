/*
 * gpusheet-probe: companion measurement program (see probe/README.md).
 *
 *   environment  what the device and its software declare
 *   measure      the five phases of a small dense network, one JSON file
 *   train        forward, backward and optimizer steps of the same network
 *   sweep        measure for each value of one dimension, one fresh process each
 *
 * measure and train take several devices (--device all, or a list): each
 * device is then measured in its own fresh process, one file each.
 *
 * Exit codes: 0 ok; 1 a run failed but its file was written; 2 usage, no
 * GPU or driver, unknown device, existing output or unwritable file.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "probe_cuda.h"
#include "probe_report.h"

static const char S_usage[] =
	"usage: gpusheet-probe environment --device cuda:N [--output FILE]\n"
	"       gpusheet-probe measure --device cuda:N --batch B --context C --width W\n"
	"                      --dtype float32|float16|bfloat16 [--layers L]\n"
	"                      --warmup K --repeats R --output FILE\n"
	"                      [--seed S] [--order N] [--extra-bytes N]\n"
	"       gpusheet-probe train --device cuda:N --batch B --context C --width W\n"
	"                      --dtype float32|float16|bfloat16 [--layers L]\n"
	"                      --optimizer sgd|adam --output FILE\n"
	"                      [--seed S] [--order N] [--extra-bytes N]\n"
	"       gpusheet-probe sweep <measure options but --output and --order>\n"
	"                      --vary NAME=V1,V2,... --output-dir DIR\n"
	"       gpusheet-probe --help | --version\n"
	"measure and train: --device all or cuda:N,cuda:M,... with --output-dir DIR\n"
	"measures each device in its own process into DIR/cuda-N.json.\n"
	"NAME is batch, context, width, layers or dtype. Exit codes: 0 ok,\n"
	"1 run failed (file written), 2 usage, no GPU/driver or refused.\n";

/* Option slots, in the order they are passed on to a sweep's children. */
enum {
	O_DEVICE, O_BATCH, O_CONTEXT, O_WIDTH, O_LAYERS, O_DTYPE, O_WARMUP,
	O_REPEATS, O_SEED, O_EXTRA, O_OPTIMIZER, O_ORDER, O_OUTPUT, O_VARY, O_OUTDIR, O_COUNT
};

static const char *const S_opt_names[O_COUNT] = {
	"device", "batch", "context", "width", "layers", "dtype", "warmup",
	"repeats", "seed", "extra-bytes", "optimizer", "order", "output", "vary", "output-dir"
};

typedef struct {
	char *v[O_COUNT];   /* borrowed from argv, or NULL */
} S_args;

/* Which options each command takes: bit (1 << slot). */
#define S_BIT(o) (1u << (o))
#define S_MEASURE_OPTS (S_BIT(O_DEVICE) | S_BIT(O_BATCH) | S_BIT(O_CONTEXT) | S_BIT(O_WIDTH) | \
			S_BIT(O_LAYERS) | S_BIT(O_DTYPE) | S_BIT(O_WARMUP) | S_BIT(O_REPEATS) | \
			S_BIT(O_SEED) | S_BIT(O_EXTRA) | S_BIT(O_ORDER) | S_BIT(O_OUTPUT))
#define S_TRAIN_OPTS ((S_MEASURE_OPTS & ~(S_BIT(O_WARMUP) | S_BIT(O_REPEATS))) | \
		      S_BIT(O_OPTIMIZER))
#define S_SWEEP_OPTS ((S_MEASURE_OPTS & ~(S_BIT(O_OUTPUT) | S_BIT(O_ORDER))) | \
		      S_BIT(O_VARY) | S_BIT(O_OUTDIR))
#define S_ENV_OPTS (S_BIT(O_DEVICE) | S_BIT(O_OUTPUT))

#define S_DEFAULT_LAYERS 4
#define S_DEFAULT_SEED 1234
#define S_MAX_LAYERS 65536
#define S_MAX_POINTS 64

static int S_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int S_usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("gpusheet-probe: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	fputs(S_usage, stderr);
	return PROBE_EXIT_REFUSED;
}

static int S_refuse(const char *why)
{
	fprintf(stderr, "gpusheet-probe: %s\n", why);
	return PROBE_EXIT_REFUSED;
}

/* Decimal digits only, no sign, no overflow. */
static int S_parse_u64(const char *s, uint64_t *out)
{
	uint64_t v = 0;

	if (!s || !*s)
		return -1;
	for (; *s; s++) {
		unsigned d;
		if (*s < '0' || *s > '9')
			return -1;
		d = (unsigned)(*s - '0');
		if (v > (UINT64_MAX - d) / 10)
			return -1;
		v = v * 10 + d;
	}
	*out = v;
	return 0;
}

static int S_mul(uint64_t a, uint64_t b, uint64_t *out)
{
	if (a && b > UINT64_MAX / a)
		return -1;
	*out = a * b;
	return 0;
}

/* Parses argv (after the command name) into a. Returns 0 or exit code 2. */
static int S_parse(int argc, char **argv, unsigned allowed, S_args *a)
{
	struct option longs[O_COUNT + 1];
	int i, c;

	memset(a, 0, sizeof(*a));
	memset(longs, 0, sizeof(longs));
	for (i = 0; i < O_COUNT; i++) {
		longs[i].name = S_opt_names[i];
		longs[i].has_arg = required_argument;
		longs[i].val = 256 + i;
	}
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":", longs, NULL)) != -1) {
		if (c == '?' || c == ':')
			return S_usage_error(c == ':' ? "option '%s' needs a value"
					     : "unknown option '%s'", argv[optind - 1]);
		c -= 256;
		if (!(allowed & S_BIT(c)))
			return S_usage_error("option '--%s' does not apply to this command", S_opt_names[c]);
		if (a->v[c])
			return S_usage_error("option '--%s' given twice", S_opt_names[c]);
		a->v[c] = optarg;
	}
	if (optind < argc)
		return S_usage_error("unexpected argument '%s'", argv[optind]);
	return 0;
}

static int S_parse_device(const char *s, uint64_t *index)
{
	if (!s)
		return S_usage_error("%s", "--device cuda:N is required");
	if (strncmp(s, "cuda:", 5) != 0 || S_parse_u64(s + 5, index) != 0 || *index > INT_MAX)
		return S_usage_error("bad device '%s': expected cuda:N, N a device index", s);
	return 0;
}

/* A required (or defaulted) integer option in [min, max]. */
static int S_number(const S_args *a, int slot, int required, uint64_t def, uint64_t min,
		    uint64_t max, uint64_t *out)
{
	if (!a->v[slot]) {
		if (required)
			return S_usage_error("option '--%s' is required", S_opt_names[slot]);
		*out = def;
		return 0;
	}
	if (S_parse_u64(a->v[slot], out) != 0 || *out < min || *out > max)
		return S_usage_error("bad value for '--%s': '%s' (expected an integer from %"
				     PRIu64 " to %" PRIu64 ")", S_opt_names[slot], a->v[slot], min, max);
	return 0;
}

static int S_optimizer(const char *s, probe_optimizer *o)
{
	if (!s)
		return S_usage_error("%s", "option '--optimizer' is required");
	if (strcmp(s, "sgd") == 0)
		*o = PROBE_OPTIM_SGD;
	else if (strcmp(s, "adam") == 0)
		*o = PROBE_OPTIM_ADAM;
	else
		return S_usage_error("bad optimizer '%s': expected sgd or adam", s);
	return 0;
}

static int S_dtype(const char *s, probe_dtype *d)
{
	if (!s)
		return S_usage_error("%s", "option '--dtype' is required");
	if (strcmp(s, "float32") == 0)
		*d = PROBE_DTYPE_FLOAT32;
	else if (strcmp(s, "float16") == 0)
		*d = PROBE_DTYPE_FLOAT16;
	else if (strcmp(s, "bfloat16") == 0)
		*d = PROBE_DTYPE_BFLOAT16;
	else
		return S_usage_error("bad dtype '%s': expected float32, float16 or bfloat16", s);
	return 0;
}

/*
 * Validates the measure options (all but --output) into o; train (nonzero)
 * takes --optimizer instead of --warmup and --repeats. The products that
 * size the tensors must fit, and cuBLAS takes int dimensions.
 */
static int S_measure_opts(const S_args *a, int train, probe_measure_opts *o, uint64_t *order,
			  int *has_order)
{
	const uint64_t jmax = (uint64_t)INT64_MAX;
	uint64_t rows, elems, bytes;
	int rc;

	memset(o, 0, sizeof(*o));
	if ((rc = S_parse_device(a->v[O_DEVICE], &o->device)) != 0 ||
	    (rc = S_number(a, O_BATCH, 1, 0, 1, INT_MAX, &o->batch)) != 0 ||
	    (rc = S_number(a, O_CONTEXT, 1, 0, 1, INT_MAX, &o->context)) != 0 ||
	    (rc = S_number(a, O_WIDTH, 1, 0, 1, INT_MAX, &o->width)) != 0 ||
	    (rc = S_number(a, O_LAYERS, 0, S_DEFAULT_LAYERS, 1, S_MAX_LAYERS, &o->layers)) != 0 ||
	    (rc = S_dtype(a->v[O_DTYPE], &o->dtype)) != 0 ||
	    (!train && (rc = S_number(a, O_WARMUP, 1, 0, 0, 1000000, &o->warmup)) != 0) ||
	    (!train && (rc = S_number(a, O_REPEATS, 1, 0, 1, 1000000, &o->repeats)) != 0) ||
	    (train && (rc = S_optimizer(a->v[O_OPTIMIZER], &o->optimizer)) != 0) ||
	    (rc = S_number(a, O_SEED, 0, S_DEFAULT_SEED, 0, jmax, &o->seed)) != 0 ||
	    (rc = S_number(a, O_EXTRA, 0, 0, 1, jmax, &o->extra_bytes)) != 0 ||
	    (rc = S_number(a, O_ORDER, 0, 0, 1, jmax, order)) != 0)
		return rc;
	*has_order = a->v[O_ORDER] != NULL;
	if (S_mul(o->batch, o->context, &rows) != 0 || rows > INT_MAX)
		return S_usage_error("%s", "batch x context exceeds the int range of cuBLAS");
	if (S_mul(o->width, o->width, &elems) != 0 || S_mul(elems, 4, &bytes) != 0 ||
	    bytes > jmax || bytes > SIZE_MAX)
		return S_usage_error("%s", "width x width does not fit in a byte count");
	if (S_mul(rows, o->width, &elems) != 0 || S_mul(elems, 4, &bytes) != 0 ||
	    bytes > jmax || bytes > SIZE_MAX)
		return S_usage_error("%s", "batch x context x width does not fit in a byte count");
	return 0;
}

static const char *S_dtype_name(probe_dtype d)
{
	switch (d) {
	case PROBE_DTYPE_FLOAT16:
		return "float16";
	case PROBE_DTYPE_BFLOAT16:
		return "bfloat16";
	case PROBE_DTYPE_FLOAT32:
		break;
	}
	return "float32";
}

/* Writes text to `output` (new file) or stdout when output is NULL. */
static int S_emit(const char *output, const char *text)
{
	char why[PROBE_TEXT_MAX + 64];

	if (!output) {
		if (fputs(text, stdout) == EOF || fflush(stdout) != 0)
			return S_refuse("cannot write to standard output");
		return 0;
	}
	if (probe_write_new(output, text, why, sizeof(why)) != 0)
		return S_refuse(why);
	return 0;
}

static int S_cmd_environment(int argc, char **argv)
{
	char why[PROBE_TEXT_MAX + 64];
	probe_env *e;
	uint64_t index;
	char *text;
	int rc;
	S_args a;

	if ((rc = S_parse(argc, argv, S_ENV_OPTS, &a)) != 0 ||
	    (rc = S_parse_device(a.v[O_DEVICE], &index)) != 0)
		return rc;
	if (a.v[O_OUTPUT] && probe_output_check(a.v[O_OUTPUT], why, sizeof(why)) != 0)
		return S_refuse(why);
	e = calloc(1, sizeof(*e));
	if (!e)
		return S_refuse("out of memory");
	if (probe_cuda_environment(index, e, why, sizeof(why)) != 0) {
		free(e);
		return S_refuse(why);
	}
	probe_env_read_variables(e);
	text = probe_env_dumps(e);
	free(e);
	if (!text)
		return S_refuse("cannot build the environment document");
	rc = S_emit(a.v[O_OUTPUT], text);
	free(text);
	return rc;
}

/* Measures (train: trains) on the one device of a (cuda:N) into --output. */
static int S_run_one(const S_args *a, int train)
{
	char why[PROBE_TEXT_MAX + 64];
	probe_measure_opts o;
	probe_report *r;
	uint64_t order = 0;
	int rc, has_order = 0;
	size_t i;
	char *text;

	if ((rc = S_measure_opts(a, train, &o, &order, &has_order)) != 0)
		return rc;
	if (!a->v[O_OUTPUT])
		return S_usage_error("%s", "option '--output' is required");
	/* refused before any GPU work */
	if (probe_output_check(a->v[O_OUTPUT], why, sizeof(why)) != 0)
		return S_refuse(why);

	r = calloc(1, sizeof(*r));
	if (!r)
		return S_refuse("out of memory");
	r->synthetic = 0;
#ifdef PROBE_MOCK
	/* the test build runs against a mock CUDA runtime: nothing is measured */
	r->synthetic = 1;
	r->synthetic_note = "written by gpusheet-probe's tests through a mock CUDA runtime; "
			    "no GPU was used";
#endif
	probe_today(r->date, sizeof(r->date));
	r->seed = o.seed;
	r->batch = o.batch;
	r->context = o.context;
	r->width = o.width;
	r->layers = o.layers;
	r->dtype = S_dtype_name(o.dtype);
	r->optimizer = o.optimizer == PROBE_OPTIM_SGD ? "sgd" :
		       o.optimizer == PROBE_OPTIM_ADAM ? "adam" : NULL;
	r->extra_bytes = o.extra_bytes;
	r->order.v = order;
	r->order.has = has_order;
	/* train runs each phase once: warmup and repeats do not apply (null) */
	r->warmup.v = o.warmup;
	r->warmup.has = !train;
	r->repeats.v = o.repeats;
	r->repeats.has = !train;

	rc = probe_cuda_measure(&o, r, why, sizeof(why));
	if (rc == PROBE_EXIT_REFUSED) {
		free(r);
		return S_refuse(why);
	}
	text = probe_report_dumps(r);
	if (!text) {
		free(r);
		return S_refuse("cannot build the measurement document");
	}
	if (S_emit(a->v[O_OUTPUT], text) != 0) {
		free(text);
		free(r);
		return PROBE_EXIT_REFUSED;
	}
	free(text);
	for (i = 0; i < r->nphases; i++)
		if (r->phases[i].status == PROBE_PHASE_FAILED)
			fprintf(stderr, "gpusheet-probe: phase %s failed: %s\n",
				r->phases[i].name, r->phases[i].error);
	printf("%s: %s\n", a->v[O_OUTPUT], rc == PROBE_EXIT_OK ? "all phases ok" : "run failed");
	free(r);
	return rc;
}

/*** fresh processes (several devices, sweep) ***/

/* This program's own file, to run it again as a fresh process. */
static void S_self(char *buf, size_t size, const char *argv0)
{
	ssize_t n = readlink("/proc/self/exe", buf, size - 1);

	if (n > 0) {
		buf[n] = '\0';
		return;
	}
	snprintf(buf, size, "%s", argv0);
}

/*
 * Runs `self cmd` with the options of `point` in a child process and waits;
 * returns its exit code, or -1 if it did not exit.
 */
static int S_run_point(const char *self, const char *cmd, const S_args *point)
{
	char *child_argv[2 + 2 * O_COUNT + 1];
	char dashed[O_COUNT][32];
	char cmd_copy[16];
	size_t k, nargs = 0;
	pid_t pid;
	int status;

	snprintf(cmd_copy, sizeof(cmd_copy), "%s", cmd);
	child_argv[nargs++] = (char *)(uintptr_t)self;
	child_argv[nargs++] = cmd_copy;
	for (k = 0; k < O_COUNT; k++) {
		if (!point->v[k])
			continue;
		snprintf(dashed[k], sizeof(dashed[k]), "--%s", S_opt_names[k]);
		child_argv[nargs++] = dashed[k];
		child_argv[nargs++] = point->v[k];
	}
	child_argv[nargs] = NULL;
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		execv(self, child_argv);
		fprintf(stderr, "gpusheet-probe: cannot run '%s': %s\n", self, strerror(errno));
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* One line per point: ok, failed (file written) or no result. */
static int S_report_point(const char *label, const char *path, int rc)
{
	if (rc == PROBE_EXIT_OK)
		printf("%s: ok: %s\n", label, path);
	else if (rc == PROBE_EXIT_FAILED)
		printf("%s: failed: %s\n", label, path);
	else
		printf("%s: no result (exit %d)\n", label, rc);
	fflush(stdout);
	return rc == PROBE_EXIT_OK ? 0 : 1;
}

static int S_several_devices(const char *spec)
{
	return spec && (strcmp(spec, "all") == 0 || strchr(spec, ',') != NULL);
}

/*
 * measure/train on several devices (--device all, or cuda:N,cuda:M,...):
 * every device checked, every option checked and every output refused if it
 * exists before the first runs; then one fresh process per device, in
 * order, writing DIR/cuda-N.json. Exit 0 when every device succeeded.
 */
static int S_cmd_devices(const S_args *a, int train, const char *argv0)
{
	char why[PROBE_TEXT_MAX + 64], self[PATH_MAX];
	char dev_text[S_MAX_POINTS][24];
	char *paths[S_MAX_POINTS];
	char *list = NULL, *p, *comma;
	uint64_t idx[S_MAX_POINTS], order = 0;
	probe_measure_opts o;
	struct stat st;
	size_t i, j, n = 0;
	int rc = 0, count = 0, has_order, failed = 0;
	S_args point;

	memset(paths, 0, sizeof(paths));
	if (a->v[O_OUTPUT])
		return S_usage_error("%s", "several devices write one file each: give --output-dir, "
				     "not --output");
	if (!a->v[O_OUTDIR])
		return S_usage_error("%s", "several devices need --output-dir DIR");
	if (strcmp(a->v[O_DEVICE], "all") == 0) {
		/* no context here: only the children touch the devices */
		if (probe_cuda_check_device(0, &count, why, sizeof(why)) != 0)
			return S_refuse(why);
		if (count > S_MAX_POINTS)
			count = S_MAX_POINTS;
		for (n = 0; n < (size_t)count; n++)
			idx[n] = n;
	} else {
		list = malloc(strlen(a->v[O_DEVICE]) + 1);
		if (!list)
			return S_refuse("out of memory");
		memcpy(list, a->v[O_DEVICE], strlen(a->v[O_DEVICE]) + 1);
		for (p = list;; p = comma + 1) {
			comma = strchr(p, ',');
			if (comma)
				*comma = '\0';
			if (n == S_MAX_POINTS) {
				rc = S_usage_error("%s", "at most 64 devices");
				goto out;
			}
			if ((rc = S_parse_device(p, &idx[n])) != 0)
				goto out;
			for (j = 0; j < n; j++)
				if (idx[j] == idx[n]) {
					rc = S_usage_error("device '%s' given twice", p);
					goto out;
				}
			n++;
			if (!comma)
				break;
		}
	}
	if (stat(a->v[O_OUTDIR], &st) != 0 || !S_ISDIR(st.st_mode)) {
		rc = S_usage_error("output folder '%s' does not exist", a->v[O_OUTDIR]);
		goto out;
	}
	for (i = 0; i < n; i++) {
		size_t len = strlen(a->v[O_OUTDIR]) + 40;
		snprintf(dev_text[i], sizeof(dev_text[i]), "cuda:%" PRIu64, idx[i]);
		point = *a;
		point.v[O_DEVICE] = dev_text[i];
		point.v[O_OUTDIR] = NULL;
		if ((rc = S_measure_opts(&point, train, &o, &order, &has_order)) != 0)
			goto out;
		paths[i] = malloc(len);
		if (!paths[i]) {
			rc = S_refuse("out of memory");
			goto out;
		}
		snprintf(paths[i], len, "%s/cuda-%" PRIu64 ".json", a->v[O_OUTDIR], idx[i]);
		if (probe_output_check(paths[i], why, sizeof(why)) != 0) {
			rc = S_refuse(why);
			goto out;
		}
		if (probe_cuda_check_device(idx[i], NULL, why, sizeof(why)) != 0) {
			rc = S_refuse(why);
			goto out;
		}
	}
	S_self(self, sizeof(self), argv0);
	for (i = 0; i < n; i++) {
		point = *a;
		point.v[O_DEVICE] = dev_text[i];
		point.v[O_OUTDIR] = NULL;
		point.v[O_OUTPUT] = paths[i];
		failed |= S_report_point(dev_text[i], paths[i],
					 S_run_point(self, train ? "train" : "measure", &point));
	}
	rc = failed ? PROBE_EXIT_FAILED : PROBE_EXIT_OK;
out:
	for (i = 0; i < S_MAX_POINTS; i++)
		free(paths[i]);
	free(list);
	return rc;
}

static int S_cmd_measure(int argc, char **argv, int train)
{
	unsigned allowed = (train ? S_TRAIN_OPTS : S_MEASURE_OPTS) | S_BIT(O_OUTDIR);
	int rc;
	S_args a;

	if ((rc = S_parse(argc, argv, allowed, &a)) != 0)
		return rc;
	if (S_several_devices(a.v[O_DEVICE]))
		return S_cmd_devices(&a, train, argv[0]);
	if (a.v[O_OUTDIR])
		return S_usage_error("%s", "--output-dir goes with several devices (--device all or a "
				     "list); one device writes --output");
	return S_run_one(&a, train);
}

/*** sweep ***/

typedef struct {
	int slot;                        /* the option that varies */
	char *values[S_MAX_POINTS];      /* into a copy of the --vary text */
	size_t n;
	char *text;
} S_vary;

static int S_parse_vary(const char *spec, S_vary *v)
{
	static const int slots[] = { O_BATCH, O_CONTEXT, O_WIDTH, O_LAYERS, O_DTYPE };
	char *eq, *p, *comma;
	size_t i, j;

	memset(v, 0, sizeof(*v));
	v->slot = -1;
	v->text = malloc(strlen(spec) + 1);
	if (!v->text)
		return S_refuse("out of memory");
	memcpy(v->text, spec, strlen(spec) + 1);
	eq = strchr(v->text, '=');
	if (!eq)
		return S_usage_error("bad --vary '%s': expected NAME=V1,V2,...", spec);
	*eq = '\0';
	for (i = 0; i < sizeof(slots) / sizeof(slots[0]); i++)
		if (strcmp(v->text, S_opt_names[slots[i]]) == 0)
			v->slot = slots[i];
	if (v->slot < 0)
		return S_usage_error("cannot vary '%s': NAME is batch, context, width, layers or dtype",
				     v->text);
	for (p = eq + 1;; p = comma + 1) {
		comma = strchr(p, ',');
		if (comma)
			*comma = '\0';
		if (!*p)
			return S_usage_error("bad --vary '%s': empty value", spec);
		if (v->n == S_MAX_POINTS)
			return S_usage_error("bad --vary '%s': at most 64 values", spec);
		for (j = 0; j < v->n; j++)
			if (strcmp(v->values[j], p) == 0)
				return S_usage_error("bad --vary: value '%s' given twice", p);
		v->values[v->n++] = p;
		if (!comma)
			break;
	}
	return 0;
}

static int S_cmd_sweep(int argc, char **argv)
{
	char why[PROBE_TEXT_MAX + 64], self[PATH_MAX], order_text[24], label[96];
	char *paths[S_MAX_POINTS];
	probe_measure_opts o;
	struct stat st;
	uint64_t order = 0;
	int rc, has_order, failed = 0;
	size_t i;
	S_args a, point;
	S_vary v;

	memset(paths, 0, sizeof(paths));
	v.text = NULL;
	if ((rc = S_parse(argc, argv, S_SWEEP_OPTS, &a)) != 0)
		return rc;
	if (!a.v[O_VARY])
		return S_usage_error("%s", "option '--vary NAME=V1,V2,...' is required");
	if (!a.v[O_OUTDIR])
		return S_usage_error("%s", "option '--output-dir' is required");
	if ((rc = S_parse_vary(a.v[O_VARY], &v)) != 0)
		goto out;
	if (a.v[v.slot]) {
		rc = S_usage_error("--%s is varied: do not give it as well", S_opt_names[v.slot]);
		goto out;
	}
	if (stat(a.v[O_OUTDIR], &st) != 0 || !S_ISDIR(st.st_mode)) {
		rc = S_usage_error("output folder '%s' does not exist", a.v[O_OUTDIR]);
		goto out;
	}
	/* every point is checked, and every output refused if it exists,
	 * before the first one runs */
	for (i = 0; i < v.n; i++) {
		size_t len;
		point = a;
		point.v[v.slot] = v.values[i];
		if ((rc = S_measure_opts(&point, 0, &o, &order, &has_order)) != 0)
			goto out;
		len = strlen(a.v[O_OUTDIR]) + strlen(S_opt_names[v.slot]) + strlen(v.values[i]) + 8;
		paths[i] = malloc(len);
		if (!paths[i]) {
			rc = S_refuse("out of memory");
			goto out;
		}
		snprintf(paths[i], len, "%s/%s-%s.json", a.v[O_OUTDIR], S_opt_names[v.slot], v.values[i]);
		if (probe_output_check(paths[i], why, sizeof(why)) != 0) {
			rc = S_refuse(why);
			goto out;
		}
	}
	/* no context here: only the children touch the device */
	if (probe_cuda_check_device(o.device, NULL, why, sizeof(why)) != 0) {
		rc = S_refuse(why);
		goto out;
	}
	S_self(self, sizeof(self), argv[0]);
	for (i = 0; i < v.n; i++) {
		point = a;
		point.v[v.slot] = v.values[i];
		snprintf(order_text, sizeof(order_text), "%zu", i + 1);
		point.v[O_ORDER] = order_text;
		point.v[O_OUTPUT] = paths[i];
		point.v[O_VARY] = point.v[O_OUTDIR] = NULL;
		snprintf(label, sizeof(label), "%s=%s", S_opt_names[v.slot], v.values[i]);
		failed |= S_report_point(label, paths[i], S_run_point(self, "measure", &point));
	}
	rc = failed ? PROBE_EXIT_FAILED : PROBE_EXIT_OK;
out:
	for (i = 0; i < S_MAX_POINTS; i++)
		free(paths[i]);
	free(v.text);
	return rc;
}

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : NULL;

	if (!cmd)
		return S_usage_error("%s", "a command is required");
	if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0) {
		fputs(S_usage, stdout);
		return PROBE_EXIT_OK;
	}
	if (strcmp(cmd, "--version") == 0) {
		printf("gpusheet-probe %s\n", PROBE_VERSION);
		return PROBE_EXIT_OK;
	}
	if (strcmp(cmd, "environment") == 0)
		return S_cmd_environment(argc - 1, argv + 1);
	if (strcmp(cmd, "measure") == 0)
		return S_cmd_measure(argc - 1, argv + 1, 0);
	if (strcmp(cmd, "train") == 0)
		return S_cmd_measure(argc - 1, argv + 1, 1);
	if (strcmp(cmd, "sweep") == 0)
		return S_cmd_sweep(argc - 1, argv + 1);
	return S_usage_error("unknown command '%s'", cmd);
}
