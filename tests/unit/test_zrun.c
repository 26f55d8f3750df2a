/*
 * test_zrun: the PNG part's compressor (zrun.h) gives zlib streams that an
 * independent inflate (libdeflate's decompressor, strict about codes,
 * lengths and distances) reads back to the very input: empty, a byte, runs
 * at every length around 258, a megabyte of one byte, noise (stored
 * blocks, at their 65,535-byte boundaries), a chart-like raster, a match at
 * the window's last distance, rows wider than the window, counts skewed
 * enough to need the 15-bit limit; the same bytes for the same input
 * whatever came before; appended, the buffer's bytes before kept. Prints
 * the time and size of the chart-like raster. (test_chart reads every
 * chart's PNG back through Cairo's reader too: libpng and zlib.)
 */
#include "check.h"
#include "zrun.h"

#include <libdeflate.h>
#include <time.h>

static uint64_t S_rng = 88172645463325252ull;

static uint32_t rnd(void)
{
	return (uint32_t)(gs_check_xorshift(&S_rng) >> 11);
}

static gs_zrun Z = GS_ZRUN_INIT;

/* in compressed and inflated again: the same n bytes; the stream's size. */
static size_t roundtrip(const char *what, const unsigned char *in, size_t n, size_t rowlen, size_t bpp)
{
	struct libdeflate_decompressor *d = libdeflate_alloc_decompressor();
	gs_buf z = GS_BUF_INIT;
	unsigned char *back = malloc(n + 1);
	size_t got = (size_t)-1, zlen;
	enum libdeflate_result r;

	if (!CHECK(d != NULL && back != NULL))
		exit(1);
	if (!CHECK(gs_zrun_compress(&Z, in, n, rowlen, bpp, &z) == 0)) {
		fprintf(stderr, "  (%s)\n", what);
		return 0;
	}
	r = libdeflate_zlib_decompress(d, z.data, z.len, back, n + 1, &got);
	if (!CHECK(r == LIBDEFLATE_SUCCESS && got == n && (n == 0 || memcmp(back, in, n) == 0)))
		fprintf(stderr, "  (%s: result %d, %zu of %zu bytes back)\n", what, (int)r, got, n);
	/* the zlib header: deflate, 32 KiB window, its check bits */
	CHECK(z.len >= 6 && (unsigned char)z.data[0] == 0x78 &&
	      (((unsigned char)z.data[0] << 8) | (unsigned char)z.data[1]) % 31 == 0);
	CHECK(z.data[z.len] == '\0');
	zlen = z.len;
	gs_buf_release(&z);
	free(back);
	libdeflate_free_decompressor(d);
	return zlen;
}

static void test_small(void)
{
	unsigned char b[600];
	size_t i, len;

	roundtrip("empty", (const unsigned char *)"", 0, 1, 3);
	roundtrip("one byte", (const unsigned char *)"x", 1, 1, 3);
	roundtrip("two bytes", (const unsigned char *)"xy", 2, 2, 1);
	roundtrip("four", (const unsigned char *)"abab", 4, 4, 3);
	/* a run after a distinct byte, every length from 1 to 530: the pieces
	 * of 258, never a last piece of one or two bytes */
	for (len = 1; len <= 530; len++) {
		b[0] = 'a';
		memset(b + 1, 'b', len);
		b[len + 1] = 'c';
		roundtrip("a run", b, len + 2, 7, 3);
	}
	for (i = 0; i < sizeof(b); i++)
		b[i] = (unsigned char)(i % 3 == 0 ? 0x10 : 0x20 + i % 5);
	roundtrip("a period of 15", b, sizeof(b), 1, 1);
	/* rowlen and bpp of 0 or larger than the input are taken */
	roundtrip("rowlen 0", b, 100, 0, 0);
	roundtrip("rowlen beyond", b, 100, 100000, 3);
}

static void test_runs(void)
{
	size_t n = 2401 * 450, zlen;
	unsigned char *b = calloc(n, 1);

	if (!CHECK(b != NULL))
		return;
	zlen = roundtrip("a megabyte of zeros", b, n, 2401, 3);
	/* matches of 258 at a distance of 1: about 4,200 of them, 2 bits or so each */
	CHECK(zlen < 2000);
	memset(b, 0xff, n);
	zlen = roundtrip("a megabyte of 0xff", b, n, 2401, 3);
	CHECK(zlen < 2000);
	free(b);
}

static void test_noise(void)
{
	static const size_t sizes[] = { 65534, 65535, 65536, 131070, 131071, 200000 };
	size_t i, j, zlen;
	unsigned char *b = malloc(200000);

	if (!CHECK(b != NULL))
		return;
	for (i = 0; i < 200000; i++)
		b[i] = (unsigned char)rnd();
	for (j = 0; j < sizeof(sizes) / sizeof(sizes[0]); j++) {
		size_t n = sizes[j], blocks = (n + 65534) / 65535;
		zlen = roundtrip("noise", b, n, 2401, 3);
		/* stored: the header, five bytes a block, the Adler-32 */
		CHECK_U64(zlen, 2 + n + 5 * blocks + 4);
	}
	free(b);
}

/* A chart-like raster: white, grid lines, bands of flat colour with
 * antialiased edges, a few rows of "text" (noise within a band). */
static unsigned char *chart(size_t w, size_t h, size_t *n)
{
	size_t rowlen = 1 + 3 * w, x, y;
	unsigned char *b = malloc(rowlen * h);

	if (!b)
		return NULL;
	for (y = 0; y < h; y++) {
		unsigned char *r = b + y * rowlen;
		r[0] = 0;
		for (x = 0; x < w; x++) {
			unsigned char *p = r + 1 + 3 * x;
			unsigned v = 255;
			if (y % 50 == 0 || x % 100 == 0)
				v = 0xdd;
			p[0] = p[1] = p[2] = (unsigned char)v;
			if (x >= 120 && x < 300 + (y % 7) && y >= 80 && y < 380) {
				p[0] = 0x1f;
				p[1] = 0x77;
				p[2] = 0xb4;
			}
			if (x == 300 + (y % 7) && y >= 80 && y < 380)
				p[0] = p[1] = p[2] = (unsigned char)(0x80 + y % 60);
			if (y >= 20 && y < 32 && x >= 40 && x < 400 && (rnd() & 3) == 0)
				p[0] = p[1] = p[2] = (unsigned char)(rnd() & 0xff);
		}
	}
	*n = rowlen * h;
	return b;
}

static void test_chart_like(void)
{
	size_t n, zlen, i;
	unsigned char *b = chart(800, 450, &n);
	gs_buf a = GS_BUF_INIT, c = GS_BUF_INIT;
	clock_t t0, t1;

	if (!CHECK(b != NULL))
		return;
	zlen = roundtrip("a chart-like raster", b, n, 2401, 3);
	CHECK(zlen > 0 && zlen < n / 20);
	/* the same bytes, whatever was compressed before, and appended */
	gs_buf_puts(&a, "abc");
	gs_buf_puts(&c, "abc");
	CHECK(gs_zrun_compress(&Z, b, n, 2401, 3, &a) == 0);
	{
		unsigned char noise[5000];
		gs_buf junk = GS_BUF_INIT;
		for (i = 0; i < sizeof(noise); i++)
			noise[i] = (unsigned char)rnd();
		CHECK(gs_zrun_compress(&Z, noise, sizeof(noise), 97, 3, &junk) == 0);
		gs_buf_release(&junk);
	}
	CHECK(gs_zrun_compress(&Z, b, n, 2401, 3, &c) == 0);
	CHECK(a.len == c.len && memcmp(a.data, c.data, a.len) == 0);
	CHECK(a.len == zlen + 3 && memcmp(a.data, "abc", 3) == 0);
	t0 = clock();
	for (i = 0; i < 20; i++) {
		gs_buf_truncate(&a, 0);
		gs_zrun_compress(&Z, b, n, 2401, 3, &a);
	}
	t1 = clock();
	printf("chart-like 800 x 450: %.2f ms a compression, %zu bytes of %zu\n",
	       (double)(t1 - t0) * 1e3 / CLOCKS_PER_SEC / 20.0,
	       zlen, n);
	gs_buf_release(&a);
	gs_buf_release(&c);
	free(b);
}

static void test_window(void)
{
	/* 32,768 bytes of noise, then the same again: a match at the
	 * window's farthest distance; then once more after a gap, too far */
	size_t n = 32768 * 2 + 40000 + 32768, i;
	unsigned char *b = malloc(n);

	if (!CHECK(b != NULL))
		return;
	for (i = 0; i < 32768; i++)
		b[i] = (unsigned char)rnd();
	memcpy(b + 32768, b, 32768);
	for (i = 65536; i < 65536 + 40000; i++)
		b[i] = (unsigned char)rnd();
	memcpy(b + 65536 + 40000, b, 32768);
	CHECK(roundtrip("the farthest distance", b, n, 2401, 3) < n - 30000);
	/* rows wider than the window: no row distance is tried */
	roundtrip("wide rows", b, n, 40000, 3);
	roundtrip("rows at the window", b, n, 32768, 3);
	roundtrip("rows at the window less a pixel", b, n, 32766, 3);
	free(b);
}

static void test_skewed(void)
{
	/* byte k about fib(k) times, shuffled: a Huffman tree deeper than 15
	 * without the limit */
	uint32_t f[27];
	size_t n = 0, i, k, j;
	unsigned char *b;

	f[0] = f[1] = 1;
	for (k = 2; k < 27; k++)
		f[k] = f[k - 1] + f[k - 2];
	for (k = 0; k < 27; k++)
		n += f[k];
	b = malloc(n);
	if (!CHECK(b != NULL))
		return;
	for (k = 0, j = 0; k < 27; k++)
		for (i = 0; i < f[k]; i++)
			b[j++] = (unsigned char)(k * 9);
	for (i = n - 1; i > 0; i--) {
		size_t r = rnd() % (i + 1);
		unsigned char t = b[i];
		b[i] = b[r];
		b[r] = t;
	}
	roundtrip("skewed counts", b, n, 2401, 3);
	free(b);
}

int main(void)
{
	test_small();
	test_runs();
	test_noise();
	test_chart_like();
	test_window();
	test_skewed();
	gs_zrun_free(&Z);
	CHECK(Z.tok == NULL && Z.hash == NULL);
	return gs_check_exit("test_zrun");
}
