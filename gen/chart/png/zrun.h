/*
 * zrun: the zlib stream (RFC 1950 around RFC 1951's deflate) of a PNG's
 * filtered rows, made by a compressor that knows what a chart is: flat
 * colours in runs, rows like the row above. A general deflate (libdeflate,
 * zlib) looks for matches at every byte and inserts every byte it skips
 * into its match finder: 2-3 ms for a megabyte of zeros alone, whatever the
 * level, half of a --png site (bench/README.md, issue 28). zrun tries a
 * few distances a chart repeats at (the byte and the pixel to the left,
 * the pixel above, above-left and above-right) and one hash of the last
 * place four bytes were seen, then extends a match eight bytes at a time
 * and skips the run it covers without looking inside it.
 *
 * Invariants:
 *  - the stream is dynamic-Huffman blocks (or, when they would be larger,
 *    stored blocks), every match within 32 KiB and 3-258 bytes long:
 *    any inflate (zlib, libdeflate, a browser's) reads it;
 *  - the same input gives the same bytes (no clock, no address, no table
 *    left over from an earlier call decides a match);
 *  - the bytes are appended to out; nothing else of out changes;
 *  - a gs_zrun keeps its work space (a token a byte at most, a hash table,
 *    the codes of a block every 8,192 tokens) from call to call; it is one
 *    caller's at a time;
 *  - out of memory aborts (util.h).
 */
#ifndef GS_ZRUN_H
#define GS_ZRUN_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"

struct gs_zrun_block;       /* a block's codes (zrun.c) */

typedef struct gs_zrun {
	uint32_t *tok;      /* the tokens of the last call: literals and matches */
	size_t tokcap;
	uint32_t *hash;     /* 1 + the last position of a hash of four bytes */
	struct gs_zrun_block *block;   /* the codes of the last call's blocks */
	size_t blockcap;
} gs_zrun;

#define GS_ZRUN_INIT { NULL, 0, NULL, NULL, 0 }

/*
 * The zlib stream of the n bytes at in, rows of rowlen bytes each (the
 * filter byte and the row's samples; rowlen only says where to look),
 * appended to out. bpp: the bytes of a pixel (3 for 8-bit RGB). 0, or -1
 * for an input too large for one call (n of 2^31 bytes or more), out then
 * unchanged.
 */
int gs_zrun_compress(gs_zrun *z, const unsigned char *in, size_t n, size_t rowlen,
		     size_t bpp, gs_buf *out);
/* The work space freed; z is GS_ZRUN_INIT again. */
void gs_zrun_free(gs_zrun *z);

#endif
