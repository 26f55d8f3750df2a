/*
 * fuzz_zrun: any bytes through the PNG part's compressor (zrun.h) and back
 * through libdeflate's strict inflate: the very bytes, or the harness
 * aborts (a finding). The input's first byte chooses the row length and
 * the bytes a pixel, its second whether the rest is taken as it is or as
 * (byte, count) pairs expanded into runs (a chart is runs; a fuzzer's
 * inputs are short): up to 1 MiB of rows with the runs, distances and
 * lengths no short input reaches.
 */
#include "fuzz.h"

#include <libdeflate.h>

#include "zrun.h"

#define S_MAX (1u << 20)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const size_t rowlens[8] = { 1, 3, 7, 97, 2401, 32766, 32768, 40000 };
	static gs_zrun z = GS_ZRUN_INIT;
	struct libdeflate_decompressor *d;
	unsigned char *in, *back;
	size_t n = 0, got = 0, i, rowlen, bpp;
	gs_buf out = GS_BUF_INIT;

	if (size < 2)
		return 0;
	rowlen = rowlens[data[0] & 7];
	bpp = 1 + ((data[0] >> 3) & 3);
	in = malloc(S_MAX);
	back = malloc(S_MAX + 1);
	d = libdeflate_alloc_decompressor();
	if (!in || !back || !d)
		abort();
	if (data[1] & 1) {
		for (i = 2; i + 1 < size && n < S_MAX; i += 2) {
			size_t k = 1 + (size_t)data[i + 1] * (data[1] & 2 ? 64 : 1);
			if (k > S_MAX - n)
				k = S_MAX - n;
			memset(in + n, data[i], k);
			n += k;
		}
	} else {
		n = size - 2 < S_MAX ? size - 2 : S_MAX;
		memcpy(in, data + 2, n);
	}
	if (gs_zrun_compress(&z, in, n, rowlen, bpp, &out) != 0 ||
	    libdeflate_zlib_decompress(d, out.data, out.len, back, S_MAX + 1, &got) != LIBDEFLATE_SUCCESS ||
	    got != n || memcmp(back, in, n) != 0) {
		fprintf(stderr, "zrun: %zu bytes (rows of %zu, %zu a pixel) not read back alike\n", n, rowlen, bpp);
		abort();
	}
	gs_buf_release(&out);
	libdeflate_free_decompressor(d);
	free(in);
	free(back);
	return 0;
}
