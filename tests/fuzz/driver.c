/*
 * driver: runs a harness of tests/fuzz/ once on each file given, without
 * libFuzzer (ctest replays the corpora and regression files this way, with
 * whatever compiler and sanitizers the build uses).
 */
#include "fuzz.h"
#include "outfile.h"

int main(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		uint8_t *buf;
		long n;

		if (!f || fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 ||
		    fseek(f, 0, SEEK_SET) != 0) {
			perror(argv[i]);
			return 2;
		}
		buf = malloc((size_t)n + 1);
		if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
			perror(argv[i]);
			return 2;
		}
		fclose(f);
		LLVMFuzzerTestOneInput(buf, (size_t)n);
		free(buf);
	}
	if (argc > 1)
		(void)gs_outfile_remove_tree(fuzz_tmpdir());
	printf("%d input(s) run\n", argc - 1);
	return 0;
}
