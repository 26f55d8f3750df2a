/*
 * test_probe_report: the probe's measurement writer, without a GPU.
 *
 * Fills a probe_report with known values (a failed phase with its last
 * values, counters that were not read, phases not run), writes it to the
 * path given as argument and checks that a second write is refused and
 * leaves the file untouched. The script around it compares the file with
 * the expected bytes and runs `gpusheet check` on it. The file says
 * synthetic: true, since nothing was measured.
 *
 * A second report, of the train mode, goes to the second path.
 *
 * Usage: test_probe_report OUTPUT.json TRAIN_OUTPUT.json
 *        exit 0 when every check passed
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe_report.h"

static int S_failures;

#define CHECK(cond) \
	do { \
		if (!(cond)) { \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
			S_failures++; \
		} \
	} while (0)

static probe_opt S_v(uint64_t v)
{
	probe_opt o;

	o.v = v;
	o.has = 1;
	return o;
}

static void S_levels(probe_phase *p, uint64_t as, uint64_t ap, uint64_t ae,
		     uint64_t rs, uint64_t rp, uint64_t re, uint64_t us, uint64_t ue, uint64_t us_el)
{
	p->status = PROBE_PHASE_OK;
	p->alloc_start = S_v(as);
	p->alloc_peak = S_v(ap);
	p->alloc_end = S_v(ae);
	p->reserved_start = S_v(rs);
	p->reserved_peak = S_v(rp);
	p->reserved_end = S_v(re);
	p->used_start = S_v(us);
	p->used_end = S_v(ue);
	p->elapsed_us = S_v(us_el);
}

static char *S_read_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
		fclose(f);
		return NULL;
	}
	buf = malloc((size_t)n + 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	if (buf)
		buf[n] = '\0';
	fclose(f);
	return buf;
}

static void S_fill(probe_report *r)
{
	probe_env *e = &r->env;
	probe_phase *p;

	memset(r, 0, sizeof(*r));
	r->synthetic = 1;
	r->synthetic_note = "written by the probe's writer test with fixed values; "
			    "no GPU was used";
	snprintf(r->date, sizeof(r->date), "2026-11-29");
	r->seed = 1234;
	r->batch = 2;
	r->context = 128;
	r->width = 1024;
	r->layers = 4;
	r->dtype = "float32";
	r->extra_bytes = 1125899906842624u;   /* a condition, not a dimension */
	r->order.has = 0;       /* no --order: null */
	r->warmup = S_v(3);
	r->repeats = S_v(5);

	e->index = 0;
	/* an invalid UTF-8 byte, a quote and a backslash: all must come out escaped */
	snprintf(e->name, sizeof(e->name), "Test \"GPU\" \\ \xff");
	e->total_bytes = S_v(150754820096u);
	e->free_bytes = S_v(150000000000u);
	snprintf(e->compute_capability, sizeof(e->compute_capability), "9.0");
	e->device_count = 1;
	e->driver[0] = '\0';     /* NVML absent: null */
	snprintf(e->driver_api, sizeof(e->driver_api), "13.0");
	snprintf(e->runtime, sizeof(e->runtime), "13.0");
	snprintf(e->cublas, sizeof(e->cublas), "13.0.0");
	probe_env_add_setting_str(e, "cudaMemPoolAttrReleaseThreshold", "18446744073709551615");
	probe_env_add_setting_num(e, "cublas_workspace_bytes", 33554432);
	probe_env_add_setting_str(e, "CUDA_VISIBLE_DEVICES", "0");
	probe_env_add_setting_str(e, "PYTORCH_CUDA_ALLOC_CONF", "expandable_segments:True\n\"x\"");

	probe_report_init_phases(r);
	S_levels(&r->phases[0], 0, 436207616, 436207616, 0, 436207616, 436207616,
		 520093696, 956301312, 41234);
	/* inputs: out of memory on the ballast; peaks read, end device level not read */
	p = &r->phases[1];
	S_levels(p, 436207616, 437256192, 437256192, 436207616, 438304768, 438304768,
		 956301312, 0, 812);
	p->used_end.has = 0;
	p->used_end.v = 0;
	p->status = PROBE_PHASE_FAILED;
	snprintf(p->error, sizeof(p->error), "cudaMallocAsync(extra allocation (--extra-bytes), "
		 "1125899906842624 bytes): out of memory (cudaErrorMemoryAllocation)");
	/* phases 2..4 stay not_run with null counters */
}

/*
 * A train report: Adam, no warmup/repeats (null), out of memory in
 * optimizer_step on an Adam state, second_step not run. The counters are
 * fixed values for the writer (only their order matters: peak >= start and
 * end); the phase comments say what a real run would hold.
 */
static void S_fill_train(probe_report *r)
{
	probe_env *e = &r->env;
	probe_phase *p;

	memset(r, 0, sizeof(*r));
	r->synthetic = 1;
	r->synthetic_note = "written by the probe's writer test with fixed values; "
			    "no GPU was used";
	snprintf(r->date, sizeof(r->date), "2026-11-29");
	r->seed = 7;
	r->batch = 2;
	r->context = 128;
	r->width = 1024;
	r->layers = 4;
	r->dtype = "float32";
	r->optimizer = "adam";
	r->order = S_v(2);
	e->index = 1;
	snprintf(e->name, sizeof(e->name), "Test GPU");
	e->total_bytes = S_v(25769803776u);
	e->free_bytes = S_v(25000000000u);
	e->device_count = 2;
	snprintf(e->runtime, sizeof(e->runtime), "13.0");
	probe_report_init_phases(r);
	/* 4 MiB workspace + 4 x 4 MiB weights = 20 MiB */
	S_levels(&r->phases[0], 0, 20971520, 20971520, 0, 20971520, 20971520,
		 314572800, 335544320, 900);
	/* input and target: 2 x 1 MiB */
	S_levels(&r->phases[1], 20971520, 23068672, 23068672, 20971520, 23068672, 23068672,
		 335544320, 337641472, 40);
	/* forward keeps z and h of 4 layers: 8 MiB */
	S_levels(&r->phases[2], 23068672, 31457280, 31457280, 23068672, 31457280, 31457280,
		 337641472, 346030080, 50);
	/* backward: activations released, 16 MiB of gradients kept */
	S_levels(&r->phases[3], 31457280, 41943040, 39845888, 31457280, 41943040, 41943040,
		 346030080, 356515840, 60);
	p = &r->phases[4];
	S_levels(p, 39845888, 56623104, 56623104, 41943040, 56623104, 56623104,
		 356515840, 371195904, 70);
	p->status = PROBE_PHASE_FAILED;
	snprintf(p->error, sizeof(p->error), "cudaMallocAsync(Adam second moment of layer 3, "
		 "4194304 bytes): out of memory (cudaErrorMemoryAllocation)");
}

int main(int argc, char **argv)
{
	char why[PROBE_TEXT_MAX + 64];
	probe_report *r;
	char *text, *back;

	if (argc != 3) {
		fprintf(stderr, "usage: test_probe_report OUTPUT.json TRAIN_OUTPUT.json\n");
		return 2;
	}
	r = calloc(1, sizeof(*r));
	if (!r)
		return 2;
	S_fill(r);
	text = probe_report_dumps(r);
	CHECK(text != NULL);
	if (!text)
		return 1;
	CHECK(strstr(text, "\"synthetic\": true") != NULL);
	CHECK(strstr(text, "\"order\": null") != NULL);
	CHECK(strstr(text, "\"driver\": null") != NULL);
	CHECK(strstr(text, "\"status\": \"not_run\"") != NULL);
	CHECK(strstr(text, "\\xff") != NULL);
	CHECK(strstr(text, "\\\"GPU\\\"") != NULL);
	CHECK(text[strlen(text) - 1] == '\n');

	CHECK(probe_output_check(argv[1], why, sizeof(why)) == 0);
	CHECK(probe_write_new(argv[1], text, why, sizeof(why)) == 0);
	back = S_read_file(argv[1]);
	CHECK(back != NULL && strcmp(back, text) == 0);
	free(back);

	/* a second write is refused and leaves the first file as it was */
	CHECK(probe_output_check(argv[1], why, sizeof(why)) == -1);
	CHECK(strstr(why, "already exists") != NULL);
	CHECK(probe_write_new(argv[1], "{}\n", why, sizeof(why)) == -1);
	back = S_read_file(argv[1]);
	CHECK(back != NULL && strcmp(back, text) == 0);
	free(back);

	/* a missing folder is refused */
	CHECK(probe_output_check("/nonexistent-gpusheet-dir/x.json", why, sizeof(why)) == -1);

	free(text);

	/* the train report: its code, the optimizer, warmup and repeats null */
	S_fill_train(r);
	text = probe_report_dumps(r);
	CHECK(text != NULL);
	if (!text)
		return 1;
	CHECK(strstr(text, "\"code\": \"gpusheet-probe dense-mlp train\"") != NULL);
	CHECK(strstr(text, "\"optimizer\": \"adam\"") != NULL);
	CHECK(strstr(text, "\"warmup\": null") != NULL);
	CHECK(strstr(text, "\"conditions\"") == NULL);
	CHECK(strstr(text, "\"name\": \"second_step\"") != NULL);
	CHECK(probe_write_new(argv[2], text, why, sizeof(why)) == 0);
	free(text);
	free(r);
	if (S_failures)
		fprintf(stderr, "test_probe_report: %d check(s) failed\n", S_failures);
	return S_failures ? 1 : 0;
}
