/*
 * fuzz.h: what the libFuzzer harnesses of tests/fuzz/ share (header only).
 *
 * Each harness defines LLVMFuzzerTestOneInput. Built with clang and
 * -fsanitize=fuzzer when GPUSHEET_FUZZ=ON (tools/fuzz.sh runs campaigns);
 * in every build the same harness is also linked with driver.c, which runs
 * it once on each file named on its command line, so that ctest replays the
 * seed corpora and every regression file with gcc and the sanitizers.
 *
 * The readers take paths: the input is written to a private temporary
 * folder first (fuzz_tmpdir), under the name the harness gives.
 */
#ifndef GS_FUZZ_H
#define GS_FUZZ_H

#define _POSIX_C_SOURCE 200809L
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A private folder for the process, made once. */
static inline const char *fuzz_tmpdir(void)
{
	static char dir[64];

	if (!dir[0]) {
		snprintf(dir, sizeof(dir), "%s", "/tmp/gs-fuzz-XXXXXX");
		if (!mkdtemp(dir)) {
			perror("mkdtemp");
			abort();
		}
	}
	return dir;
}

/* Writes data to fuzz_tmpdir()/name; the path in a static buffer. */
static inline const char *fuzz_file(const char *name, const uint8_t *data, size_t size)
{
	static char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", fuzz_tmpdir(), name);
	f = fopen(path, "wb");
	if (!f || (size && fwrite(data, 1, size, f) != size) || fclose(f) != 0) {
		perror(path);
		abort();
	}
	return path;
}

#endif
