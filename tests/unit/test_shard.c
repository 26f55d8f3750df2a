/* Unit tests: the partition, the K/N parser and the identity file of a
 * shard (gen/publish/shard.c), on a temporary folder. */
#define _POSIX_C_SOURCE 200809L

#include "shard.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"

static const char S_HEX_A[] = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
static const char S_HEX_B[] = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

static void S_test_range(void)
{
	size_t f, t, k, w, n, next;

	/* 6 workloads in 3 shards: cuts at 6*K/3 = 0, 2, 4, 6 */
	gs_shard_range(6, 1, 3, &f, &t);
	CHECK_INT(f, 0);
	CHECK_INT(t, 2);
	gs_shard_range(6, 3, 3, &f, &t);
	CHECK_INT(f, 4);
	CHECK_INT(t, 6);
	/* 6 in 9: cuts at floor(6*K/9) = 0 0 1 2 2 3 4 4 5 6; shard 1 empty, shard 2 = [0, 1) */
	gs_shard_range(6, 1, 9, &f, &t);
	CHECK_INT(t - f, 0);
	gs_shard_range(6, 2, 9, &f, &t);
	CHECK_INT(f, 0);
	CHECK_INT(t, 1);
	gs_shard_range(6, 4, 9, &f, &t);
	CHECK_INT(t - f, 0);
	/* 10 in 4: cuts at floor(10*K/4) = 0 2 5 7 10: sizes 2 3 2 3 */
	gs_shard_range(10, 2, 4, &f, &t);
	CHECK_INT(f, 2);
	CHECK_INT(t, 5);
	/* 0 workloads: every shard empty */
	gs_shard_range(0, 1, 1, &f, &t);
	CHECK_INT(f, 0);
	CHECK_INT(t, 0);
	/* whatever W and N: the shards are contiguous, in order, and cover [0, W) */
	for (w = 0; w < 40; w++)
		for (n = 1; n < 12; n++) {
			next = 0;
			for (k = 1; k <= n; k++) {
				gs_shard_range(w, (unsigned)k, (unsigned)n, &f, &t);
				CHECK(f == next && t >= f);
				next = t;
			}
			CHECK(next == w);
		}
	/* the largest N with a large W: no overflow (10^12 * 10^5 < 2^64) */
	gs_shard_range(1000000000000ull, 100000, 100000, &f, &t);
	CHECK_U64(t, 1000000000000ull);
	CHECK_U64(f, 999990000000ull);
}

static void S_test_parse(void)
{
	static const char *const bad[] = {
		"", "3", "0/3", "4/3", "1/0", "/3", "1/", "-1/3", "+1/3", "1/3x", "a/b",
		"1/100001", "1 /3", "1/3/3", "1234567/1234567",
	};
	unsigned k = 0, n = 0;
	size_t i;

	CHECK(gs_shard_parse("1/1", &k, &n) == 0 && k == 1 && n == 1);
	CHECK(gs_shard_parse("3/8", &k, &n) == 0 && k == 3 && n == 8);
	CHECK(gs_shard_parse("100000/100000", &k, &n) == 0 && k == 100000);
	CHECK(gs_shard_parse("007/010", &k, &n) == 0 && k == 7 && n == 10);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (!CHECK(gs_shard_parse(bad[i], &k, &n) != 0))
			fprintf(stderr, "  accepted: \"%s\"\n", bad[i]);
}

static void S_sample(gs_shard *s)
{
	memset(s, 0, sizeof(*s));
	s->k = 2;
	s->n = 3;
	s->workloads = 6;
	s->from = 2;    /* 6*1/3 */
	gs_util_strvec_push_dup(&s->ids, "c");
	gs_util_strvec_push_dup(&s->ids, "d");
	memcpy(s->workloads_sha256, S_HEX_A, 65);
	memcpy(s->inputs_sha256, S_HEX_B, 65);
	memcpy(s->catalog_sha256, S_HEX_B, 65);
	memcpy(s->site_key, S_HEX_A, 65);
	s->generator = strdup("gpusheet 9.9.9");
	s->lang = strdup("es");
	s->date = NULL;
	s->png = 1;
	s->accept_synthetic = 0;
}

static void S_put(const char *dir, const char *text)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, GS_SHARD_FILE);
	f = fopen(path, "wb");
	if (!f || fputs(text, f) < 0 || fclose(f) != 0) {
		perror(path);
		exit(2);
	}
}

static void S_test_file(const char *tmp)
{
	gs_error err = GS_ERROR_INIT;
	gs_shard s, r;
	char path[4096];
	/* a valid file but for one thing each */
	static const char *const bad[][2] = {
		{ "{\"format\": \"gpusheet-shard/2\"}", "$.format" },
		{ "{\"format\": \"gpusheet-shard/1\", \"shard\": 4, \"shards\": 3}", "$.shard" },
		{ "{\"format\": \"gpusheet-shard/1\", \"shard\": 2, \"shards\": 3, \"workloads\": 6,"
		  " \"from\": 2, \"ids\": [\"c\"]}", "holds [2, 4), not 1 from 2" },
		{ "{\"format\": \"gpusheet-shard/1\", \"shard\": 2, \"shards\": 3, \"workloads\": 6,"
		  " \"from\": 2, \"ids\": [\"c\", \"../x\"]}", "$.ids[1]" },
		{ "{\"format\": \"gpusheet-shard/1\", \"shard\": 2, \"shards\": 3, \"workloads\": 6,"
		  " \"from\": 2, \"ids\": [\"c\", \"d\"], \"workloads_sha256\": \"AA\"}", "$.workloads_sha256" },
		{ "{\"format\": \"gpusheet-shard/1\", \"shard\": 1, \"shard\": 1}", ":1:" },
	};
	size_t i;

	/* written, then read back the same */
	S_sample(&s);
	CHECK(gs_shard_write(&s, tmp, &err) == 0);
	if (CHECK(gs_shard_read(tmp, &r, &err) == 0)) {
		CHECK_INT(r.k, 2);
		CHECK_INT(r.n, 3);
		CHECK_INT(r.workloads, 6);
		CHECK_INT(r.from, 2);
		CHECK_INT(r.ids.n, 2);
		CHECK_STR(r.ids.v[1], "d");
		CHECK_STR(r.workloads_sha256, S_HEX_A);
		CHECK_STR(r.inputs_sha256, S_HEX_B);
		CHECK_STR(r.catalog_sha256, S_HEX_B);
		CHECK_STR(r.generator, "gpusheet 9.9.9");
		CHECK_STR(r.lang, "es");
		CHECK(r.date == NULL);
		CHECK(r.png == 1 && r.accept_synthetic == 0);
		gs_shard_release(&r);
	}
	gs_shard_release(&s);

	/* no file; no folder */
	snprintf(path, sizeof(path), "%s/%s", tmp, GS_SHARD_FILE);
	unlink(path);
	CHECK(gs_shard_read(tmp, &r, &err) == -1);
	CHECK(strstr(gs_error_message(&err), "not a shard folder") != NULL);
	snprintf(path, sizeof(path), "%s/none", tmp);
	CHECK(gs_shard_read(path, &r, &err) == -1);
	CHECK(strstr(gs_error_message(&err), "cannot read the folder") != NULL);

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		S_put(tmp, bad[i][0]);
		gs_error_release(&err);
		if (!CHECK(gs_shard_read(tmp, &r, &err) == -1 &&
			   strstr(gs_error_message(&err), bad[i][1]) != NULL))
			fprintf(stderr, "  case %zu: \"%s\"\n", i, gs_error_message(&err));
	}
	unlink(path);
	gs_error_release(&err);
}

int main(void)
{
	char tmpl[] = "/tmp/gs-test-shard-XXXXXX";
	char *tmp = mkdtemp(tmpl);

	if (!tmp) {
		perror("mkdtemp");
		return 2;
	}
	S_test_range();
	S_test_parse();
	S_test_file(tmp);
	rmdir(tmp);
	return gs_check_exit("test_shard");
}
