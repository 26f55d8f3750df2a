/* Reader tests: good sheets read back every field, bad ones fail at the right path. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "jsonread.h"
#include "measurement.h"
#include "workload.h"

static char S_path_buf[1024];

static const char *S_path(const char *rel)
{
	snprintf(S_path_buf, sizeof(S_path_buf), "%s/%s", GS_TEST_SOURCE_DIR, rel);
	return S_path_buf;
}

/* 1 when some diagnostic has this JSON path (or, with path NULL, this line). */
static int S_has(const gs_diag *d, const char *path, int line, const char *needle)
{
	size_t i;

	for (i = 0; i < d->count; i++) {
		const gs_diag_item *it = &d->items[i];
		if (path ? !STREQ(it->path, path) : (it->line != line || it->path != NULL))
			continue;
		if (!needle || strstr(it->message, needle))
			return 1;
	}
	return 0;
}

static void S_dump(const gs_diag *d)
{
	gs_diag_print(d, stderr);
}

static void test_workload_full(void)
{
	gs_workload w;
	gs_diag d = GS_DIAG_INIT;
	int found = -1;
	const char *p = S_path("tests/data/workload-full.json");
	size_t dl = strlen(p) - strlen("workload-full.json");

	CHECK(gs_workload_read(p, &w, &d) == 0);
	S_dump(&d);
	CHECK(gs_diag_count(&d) == 0);
	CHECK_STR(w.path, p);
	CHECK_STR(w.id, "full-7b.lora_1");
	CHECK_STR(w.title, "7B model, LoRA adaptation");
	CHECK_STR(w.model_name, "example-7b");
	CHECK_STR(w.model_revision, "r1");
	CHECK_U64(w.parameters, UINT64_C(7000000000));
	CHECK(w.has_kv_geometry == 1);
	CHECK(w.layers == 32 && w.attention_heads == 32 && w.kv_heads == 8 && w.head_dim == 128);
	CHECK(w.has_sliding_window == 1 && w.sliding_window == 4096);
	CHECK(w.task == GS_TASK_ADAPTATION);
	CHECK(w.storage_bits == 4);
	CHECK_STR(w.storage_format, "int4-nf4");
	CHECK_STR(w.compute_format, "bf16");
	CHECK_STR(w.reference_format, "bf16");
	/* standard dimensions in fixed order, then extra sorted by name */
	CHECK(w.ndims == 6);
	if (w.ndims == 6) {
		CHECK(STREQ(w.dims[0].name, "input_tokens") && w.dims[0].value == 7680);
		CHECK(STREQ(w.dims[1].name, "output_tokens") && w.dims[1].value == 512);
		CHECK(STREQ(w.dims[2].name, "batch") && w.dims[2].value == 2);
		CHECK(STREQ(w.dims[3].name, "sequences") && w.dims[3].value == 4);
		CHECK(STREQ(w.dims[4].name, "experts") && w.dims[4].value == 8);
		CHECK(STREQ(w.dims[5].name, "width") && w.dims[5].value == 1024);
	}
	CHECK(gs_workload_dim(&w, "batch", &found) == 2 && found == 1);
	CHECK(gs_workload_dim(&w, "microbatch", &found) == 0 && found == 0);
	CHECK(gs_workload_dim(&w, "width", NULL) == 1024);
	CHECK(w.cache == GS_CACHE_SLIDING);
	CHECK(w.cache_bytes_per_value == 2);
	CHECK(w.has_cache_max_tokens == 0 && w.cache_max_tokens == 0);
	CHECK(w.nreserve == 3);
	if (w.nreserve == 3) {
		CHECK_STR(w.reserve[0].name, "runtime");
		CHECK(w.reserve[0].bytes == UINT64_C(6) * 1073741824);
		CHECK(STREQ(w.reserve[0].unit, "GiB") && STREQ(w.reserve[0].amount, "6"));
		CHECK_STR(w.reserve[0].reason, "CUDA context and workspaces");
		CHECK_U64(w.reserve[1].bytes, UINT64_C(1500000000));
		CHECK(STREQ(w.reserve[1].unit, "GB") && STREQ(w.reserve[1].amount, "1.5"));
		CHECK(w.reserve[1].reason == NULL);
		/* "bytes" amounts beyond what a 10^9 scale can hold still convert */
		CHECK_U64(w.reserve[2].bytes, UINT64_C(25757220864));
	}
	CHECK(w.has_trainable_parameters == 1 && w.trainable_parameters == 40000000);
	CHECK(w.ntraining == 1);
	if (w.ntraining == 1) {
		CHECK_STR(w.training[0].name, "gradients");
		CHECK_U64(w.training[0].bytes, UINT64_C(268435456));
	}
	CHECK_STR(w.req_software, "CUDA 12, PyTorch 2.5");
	CHECK(w.has_req_software == 1 && w.nreq_sw == 2);
	if (w.nreq_sw == 2) {
		CHECK(STREQ(w.req_sw[0].name, "torch") && STREQ(w.req_sw[0].min_version, "2.5"));
		CHECK(STREQ(w.req_sw[1].name, "runtime") && STREQ(w.req_sw[1].min_version, "12"));
	}
	/* conditions sorted by name, integers kept as decimal text */
	CHECK(w.nconditions == 2);
	CHECK_STR(gs_workload_condition(&w, "extra_bytes"), "1073741824");
	CHECK_STR(gs_workload_condition(&w, "PYTORCH_CUDA_ALLOC_CONF"), "expandable_segments:True");
	CHECK(gs_workload_condition(&w, "other") == NULL);
	CHECK(w.has_campaign == 1 && w.campaign_days == 3);
	CHECK_STR(w.campaign_start, "2028-02-29");
	CHECK(w.has_budget == 1 && w.budget_hundredths == 6050);
	CHECK_STR(w.budget_currency, "USD");
	CHECK_STR(w.quality_criterion, "perplexity within 2% of bf16");
	CHECK_STR(w.quality_evidence, "quality.md");
	CHECK(w.quality_evidence_is_file == 1);
	CHECK_STR(w.quality_evidence_date, "2026-11-10");
	CHECK_STR(w.quality_evidence_scope, "perplexity on the three inputs");
	CHECK(w.has_host_ram == 1 && w.host_ram_bytes == UINT64_C(64) * 1073741824);
	CHECK_STR(w.host_interconnect, "NVLink");
	CHECK_STR(w.placement, "one card");
	CHECK(STREQ(w.inputs[0].label, "usual") && STREQ(w.inputs[0].description, "usual"));
	CHECK(w.inputs[0].ndims == 1 && w.inputs[0].dims[0].value == 2048);
	CHECK(STREQ(w.inputs[1].label, "long") && w.inputs[1].ndims == 2);
	if (w.inputs[1].ndims == 2)
		CHECK(STREQ(w.inputs[1].dims[1].name, "width") && w.inputs[1].dims[1].value == 2048);
	CHECK(STREQ(w.inputs[2].label, "limit") && w.inputs[2].ndims == 2);
	CHECK(w.nevidence == 2);
	if (w.nevidence == 2) {
		CHECK_STR(w.evidence[0].file, "measurements/run1.json");
		CHECK_STR(w.evidence[0].covers, "cold and warm forward, batch 1");
		/* the sheet's directory joined with the file */
		CHECK(w.evidence[0].path && strncmp(w.evidence[0].path, p, dl) == 0 &&
		      STREQ(w.evidence[0].path + dl, "measurements/run1.json"));
		CHECK_STR(w.evidence[1].file, "quality.md");
	}
	CHECK_STR(w.notes_md, "Some *Markdown* notes.");
	gs_workload_release(&w);
	CHECK(w.id == NULL && w.ndims == 0);
	gs_workload_release(&w);   /* twice is harmless */
	gs_diag_release(&d);
}

static void test_workload_min(void)
{
	gs_workload w;
	gs_diag d = GS_DIAG_INIT;
	int i;

	CHECK(gs_workload_read(S_path("tests/data/workload-min.json"), &w, &d) == 0);
	S_dump(&d);
	CHECK_STR(w.id, "min-7b");
	CHECK(w.task == GS_TASK_INFERENCE);
	CHECK(w.storage_bits == 16);
	/* everything optional stays missing, never a zero standing for it */
	CHECK(w.model_revision == NULL);
	CHECK(w.has_kv_geometry == 0 && w.has_sliding_window == 0);
	CHECK(w.reference_format == NULL);
	CHECK(w.ndims == 1 && STREQ(w.dims[0].name, "batch") && w.dims[0].value == 1);
	CHECK(w.cache == GS_CACHE_NONE && w.has_cache_max_tokens == 0);
	CHECK(w.nreserve == 0 && w.reserve == NULL);
	CHECK(w.has_trainable_parameters == 0 && w.ntraining == 0);
	CHECK(w.req_software == NULL && w.campaign_start == NULL && w.has_campaign == 0);
	CHECK(w.has_budget == 0 && w.budget_currency == NULL);
	CHECK(w.quality_criterion == NULL && w.quality_evidence == NULL);
	CHECK(w.has_host_ram == 0 && w.host_interconnect == NULL && w.placement == NULL);
	for (i = 0; i < 3; i++)
		CHECK(w.inputs[i].label && w.inputs[i].description && w.inputs[i].ndims == 0);
	CHECK(w.nevidence == 0 && w.notes_md == NULL);
	gs_workload_release(&w);
	gs_diag_release(&d);
}

typedef struct {
	const char *file;   /* under tests/bad/ */
	const char *path;   /* JSON path of an expected error, or NULL: syntax at line */
	int line;
	const char *needle; /* part of the message */
} S_bad;

static const S_bad S_bad_workloads[] = {
	{ "workload/unknown-key.json", "$.colour", 0, "unknown key \"colour\"" },
	{ "workload/unknown-key.json", "$.model.extra_key", 0, "unknown key" },
	{ "workload/duplicate-key.json", NULL, 6, "duplicate" },
	{ "workload/wrong-type.json", "$.model.parameters", 0, "expected a positive integer, found \"7e9\"" },
	{ "workload/wrong-type.json", "$.title", 0, "expected a string, found 42" },
	{ "workload/zero-size.json", "$.dimensions.batch", 0, "found 0" },
	{ "workload/zero-size.json", "$.reserve[0].size", 0, "size > 0" },
	{ "workload/negative-size.json", "$.model.parameters", 0, "found -3" },
	{ "workload/negative-size.json", "$.reserve[0].size.amount", 0, "\"-6\"" },
	{ "workload/number-too-big-real.json", NULL, 6, "invalid JSON" },
	{ "workload/number-too-big-int.json", NULL, 6, "too big integer" },
	{ "workload/nan.json", NULL, 6, "invalid JSON" },
	{ "workload/params-bits-overflow.json", "$.model.parameters", 0, "overflows" },
	{ "workload/bits-out-of-range.json", "$.weights.storage_bits", 0, "from 1 to 64, found 65" },
	{ "workload/bad-unit.json", "$.reserve[0].size.unit", 0, "found \"gb\"" },
	{ "workload/fractional-bytes.json", "$.reserve[0].size", 0, "not a whole number of bytes" },
	{ "workload/fractional-bytes.json", "$.reserve[1].size", 0, "not a whole number of bytes" },
	{ "workload/bad-date.json", "$.requirements.campaign.start", 0, "2026-02-29" },
	{ "workload/bad-id.json", "$.id", 0, "Seed 7B" },
	{ "workload/evidence-absolute.json", "$.evidence[0].file", 0, "relative" },
	{ "workload/evidence-dotdot.json", "$.evidence[0].file", 0, "relative" },
	{ "workload/missing-required.json", "$", 0, "missing required key \"title\"" },
	{ "workload/missing-required.json", "$.model", 0, "missing required key \"name\"" },
	{ "workload/missing-required.json", "$.inputs", 0, "missing required key \"limit\"" },
	{ "workload/training-for-inference.json", "$.training", 0, "inference" },
	{ "workload/training-missing.json", "$", 0, "\"training\"" },
	{ "workload/sliding-no-window.json", "$.cache", 0, "sliding_window" },
	{ "workload/budget-decimals.json", "$.requirements.budget.amount", 0, "2 decimals" },
	{ "workload/schema-version.json", "$.schema_version", 0, "unsupported" },
};

static const S_bad S_bad_measurements[] = {
	{ "measurement/wrong-schema.json", "$.schema", 0, "gpusheet-measurment" },
	{ "measurement/wrong-version.json", "$.schema_version", 0, "unsupported" },
	{ "measurement/negative-counter.json", "$.phases[0].allocated.peak", 0, "found -1" },
	{ "measurement/bad-status.json", "$.phases[2].status", 0, "found \"oom\"" },
	{ "measurement/failed-no-error.json", "$.phases[2]", 0, "error" },
	{ "measurement/missing-synthetic.json", "$", 0, "\"synthetic\"" },
	{ "measurement/synthetic-no-note.json", "$", 0, "synthetic_note" },
	{ "measurement/unknown-key.json", "$.environment.gpu", 0, "unknown key" },
	{ "measurement/unknown-key.json", "$.phases[1].allocated.current", 0, "unknown key" },
};

static void test_bad_files(void)
{
	size_t i;
	char rel[256];

	for (i = 0; i < sizeof(S_bad_workloads) / sizeof(S_bad_workloads[0]); i++) {
		const S_bad *b = &S_bad_workloads[i];
		gs_workload w;
		gs_diag d = GS_DIAG_INIT;
		snprintf(rel, sizeof(rel), "tests/bad/%s", b->file);
		CHECK(gs_workload_read(S_path(rel), &w, &d) == -1);
		if (!gs_check_at(S_has(&d, b->path, b->line, b->needle), __FILE__, __LINE__,
				 "%s: no error at %s line %d with \"%s\"; got:",
				 b->file, b->path ? b->path : "-", b->line, b->needle))
			S_dump(&d);
		/* a failed read leaves nothing behind */
		CHECK(w.id == NULL && w.dims == NULL && w.path == NULL);
		gs_workload_release(&w);
		gs_diag_release(&d);
	}
	for (i = 0; i < sizeof(S_bad_measurements) / sizeof(S_bad_measurements[0]); i++) {
		const S_bad *b = &S_bad_measurements[i];
		gs_measurement m;
		gs_diag d = GS_DIAG_INIT;
		snprintf(rel, sizeof(rel), "tests/bad/%s", b->file);
		CHECK(gs_measurement_read(S_path(rel), &m, &d) == -1);
		if (!gs_check_at(S_has(&d, b->path, b->line, b->needle), __FILE__, __LINE__,
				 "%s: no error at %s line %d with \"%s\"; got:",
				 b->file, b->path ? b->path : "-", b->line, b->needle))
			S_dump(&d);
		CHECK(m.phases == NULL && m.path == NULL);
		gs_measurement_release(&m);
		gs_diag_release(&d);
	}
}

static void test_all_errors_collected(void)
{
	gs_workload w;
	gs_diag d = GS_DIAG_INIT;

	CHECK(gs_workload_read(S_path("tests/bad/workload/missing-required.json"), &w, &d) == -1);
	CHECK(gs_diag_count(&d) == 3);
	gs_workload_release(&w);
	gs_diag_release(&d);
	CHECK(gs_workload_read(S_path("tests/bad/workload/no-such-file.json"), &w, &d) == -1);
	CHECK(gs_diag_count(&d) == 1 && strstr(d.items[0].message, "cannot read"));
	gs_diag_release(&d);
}

static void test_measurement_ok(void)
{
	gs_measurement m;
	gs_diag d = GS_DIAG_INIT;
	const gs_phase *f;
	const gs_kv *kv;
	const gs_phase *p;

	CHECK(gs_measurement_read(S_path("tests/data/measurement-ok.json"), &m, &d) == 0);
	S_dump(&d);
	CHECK(STREQ(m.schema, "gpusheet-measurement") && m.schema_version == 1);
	CHECK(m.synthetic == 1 && STREQ(m.synthetic_note, "written by hand for the reader tests"));
	CHECK(STREQ(m.produced_by, "gpusheet tests") && STREQ(m.date, "2026-11-29"));
	CHECK(STREQ(m.code, "gpusheet-probe dense-mlp") && STREQ(m.revision, "1"));
	CHECK_STR(m.input_set, "synthetic-uniform");
	CHECK(m.seed.has && m.seed.v == 1234);
	/* dimensions sorted by name */
	CHECK(m.ndims == 5);
	if (m.ndims == 5) {
		CHECK(STREQ(m.dims[0].name, "batch") && m.dims[0].is_number && m.dims[0].number == 2);
		CHECK_STR(m.dims[0].value, "2");
		CHECK(STREQ(m.dims[2].name, "dtype") && !m.dims[2].is_number &&
		      STREQ(m.dims[2].value, "float32"));
		CHECK_STR(m.dims[4].name, "width");
	}
	kv = gs_measurement_dim(&m, "context");
	CHECK(kv && kv->number == 128);
	/* conditions of the run, sorted by name */
	CHECK(m.nconditions == 2);
	if (m.nconditions == 2) {
		CHECK(STREQ(m.conditions[0].name, "extra_bytes") && m.conditions[0].is_number &&
		      m.conditions[0].number == UINT64_C(1073741824));
		CHECK(STREQ(m.conditions[1].name, "note") && STREQ(m.conditions[1].value, "filler"));
	}
	CHECK(gs_measurement_dim(&m, "nothing") == NULL);
	CHECK(m.ndevices == 1);
	if (m.ndevices == 1) {
		CHECK(m.devices[0].index == 0 && STREQ(m.devices[0].name, "NVIDIA H200"));
		CHECK(m.devices[0].total_bytes.has && m.devices[0].total_bytes.v == UINT64_C(150754820096));
		CHECK(m.devices[0].free_bytes.has && m.devices[0].free_bytes.v == UINT64_C(150000000000));
		CHECK_STR(m.devices[0].compute_capability, "9.0");
	}
	CHECK(STREQ(m.driver, "580.65.06") && STREQ(m.runtime, "13.0") && STREQ(m.backend, "cuda"));
	CHECK_STR(m.allocator_backend, "cudaMallocAsync");
	CHECK(m.nallocator_settings == 2);
	if (m.nallocator_settings == 2) {
		CHECK_STR(m.allocator_settings[0].name, "CUDA_VISIBLE_DEVICES");
		CHECK_STR(m.allocator_settings[1].name, "release_threshold");
		CHECK(m.allocator_settings[1].is_number && m.allocator_settings[1].number == 0);
	}
	CHECK(m.nframeworks == 2 && STREQ(m.frameworks[0].name, "cublas"));
	CHECK_STR(m.process, "fresh");
	CHECK(m.order.has && m.order.v == 1 && m.warmup.v == 3 && m.repeats.v == 5);
	CHECK(m.empty_cache == 0);
	CHECK(m.nphases == 4);
	if (m.nphases == 4) {
		p = &m.phases[0];
		CHECK(STREQ(p->name, "model_load") && p->status == GS_PHASE_OK && p->error == NULL);
		CHECK(p->warm == 0);
		/* 0 bytes is a real reading for a counter */
		CHECK(p->alloc_start.has && p->alloc_start.v == 0);
		CHECK(p->alloc_peak.v == 16777216 && p->reserved_peak.v == 33554432);
		CHECK(p->used_start.has && p->used_start.v == 500000000);
		CHECK(p->elapsed_us.has && p->elapsed_us.v == 1234);
		p = &m.phases[1];
		CHECK(STREQ(p->name, "warmup") && p->warm == 1);
		CHECK(p->reserved_peak.has == 0 && p->used_start.has == 0 && p->elapsed_us.has == 0);
		p = &m.phases[2];
		CHECK(STREQ(p->name, "warm_forward") && p->warm == 1);
		CHECK(p->status == GS_PHASE_FAILED && STREQ(p->error, "out of memory"));
		CHECK(p->reserved_start.has == 0 && p->used_end.has == 0);
		CHECK(p->elapsed_us.has == 1 && p->elapsed_us.v == 0);
		p = &m.phases[3];
		CHECK(p->status == GS_PHASE_NOT_RUN && p->alloc_peak.has == 0);
	}
	f = gs_measurement_failure(&m);
	CHECK(f && STREQ(f->name, "warm_forward"));
	CHECK(gs_measurement_ok(&m) == 0);
	CHECK_STR(gs_measurement_phase_status_id(GS_PHASE_NOT_RUN), "not_run");
	gs_measurement_release(&m);
	gs_measurement_release(&m);
	gs_diag_release(&d);
}

static void test_helpers(void)
{
	char *s;

	CHECK_STR(gs_workload_task_id(GS_TASK_TRAINING), "training");
	CHECK_STR(gs_workload_cache_id(GS_CACHE_STATIC), "static");
	CHECK(gs_jr_is_date("2024-02-29") && !gs_jr_is_date("2023-02-29"));
	CHECK(gs_jr_is_date("2000-02-29") && !gs_jr_is_date("1900-02-29"));
	CHECK(!gs_jr_is_date("2024-13-01") && !gs_jr_is_date("2024-1-01") && !gs_jr_is_date("2024-04-31"));
	CHECK(gs_jr_is_datetime("2026-11-29T10:00:00Z"));
	CHECK(gs_jr_is_datetime("2026-11-29T10:00:00.123+01:00"));
	CHECK(!gs_jr_is_datetime("2026-11-29 10:00:00Z") && !gs_jr_is_datetime("2026-11-29T24:00:00Z"));
	CHECK(gs_jr_is_id("a") && gs_jr_is_id("0seed-7b.v1_x"));
	CHECK(!gs_jr_is_id("") && !gs_jr_is_id("-a") && !gs_jr_is_id("A") && !gs_jr_is_id("a/b"));
	CHECK(gs_jr_is_id("a123456789012345678901234567890123456789012345678901234567890123"));
	CHECK(!gs_jr_is_id("a1234567890123456789012345678901234567890123456789012345678901234"));
	CHECK(gs_jr_is_decimal("0.25", NULL) && !gs_jr_is_decimal("01", NULL));
	CHECK(!gs_jr_is_decimal("1.", NULL) && !gs_jr_is_decimal(".5", NULL) && !gs_jr_is_decimal("1e3", NULL));
	s = gs_jr_path_key("$.a", "b");
	CHECK_STR(s, "$.a.b");
	free(s);
	s = gs_jr_path_key("$", "odd key\"");
	CHECK_STR(s, "$[\"odd key\\\"\"]");
	free(s);
	s = gs_jr_path_index("$.phases", 3);
	CHECK_STR(s, "$.phases[3]");
	free(s);
}

int main(void)
{
	test_workload_full();
	test_workload_min();
	test_bad_files();
	test_all_errors_collected();
	test_measurement_ok();
	test_helpers();
	return gs_check_exit("test_readers");
}
