/*
 * zrun: a chart's rows as a zlib stream (zrun.h). Three steps: the input
 * read once into tokens (literals and matches); for each block of tokens,
 * its symbols counted and Huffman codes built for those counts (RFC 1951,
 * 3.2.2 and 3.2.7), the stream's exact size with them; the tokens written
 * with their block's codes. libdeflate gives the Adler-32.
 */
#include "zrun.h"

#include <libdeflate.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

#define S_WINDOW 32768u        /* deflate's farthest distance */
#define S_MIN_MATCH 3u
#define S_MAX_MATCH 258u
/* tokens a block, each block its own codes: on the 402 PNGs of the
 * 200-workload site, 0.1 % smaller than 4,096 or 16,384 a block, 0.2 %
 * than one block */
#define S_BLOCK 8192u
#define S_HASH_BITS 15
#define S_NLIT 286             /* literals, end of block, 29 lengths */
#define S_NDIST 30
#define S_NCLEN 19
#define S_MAXSYM S_NLIT
#define S_MATCH_BIT 0x80000000u

/* ------------------------------------------------------------ tables */

static const uint16_t S_len_base[29] = {
	3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31,
	35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258
};
static const uint8_t S_len_extra[29] = {
	0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2,
	3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0
};
static const uint16_t S_dist_base[30] = {
	1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193,
	257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577
};
static const uint8_t S_dist_extra[30] = {
	0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6,
	7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13
};
/* the code-length code's lengths go out in this order (3.2.7) */
static const uint8_t S_clen_order[S_NCLEN] = {
	16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15
};

/* length - 3 -> its length code - 257; distance - 1 -> its distance code:
 * below 256 directly, else by (distance - 1) >> 7 in the second half
 * (every code from 16 on covers whole multiples of 128) */
static uint8_t S_len_code[256], S_dist_code[512];
static int S_tables_ready;

static void S_tables(void)
{
	unsigned c, v;

	for (c = 0; c < 28; c++)
		for (v = 0; v < (1u << S_len_extra[c]); v++)
			S_len_code[S_len_base[c] - 3 + v] = (uint8_t)c;
	S_len_code[258 - 3] = 28;   /* 258 has a code of its own, not 284 + 31 */
	for (c = 0; c < 16; c++)
		for (v = 0; v < (1u << S_dist_extra[c]); v++)
			S_dist_code[S_dist_base[c] - 1 + v] = (uint8_t)c;
	for (c = 16; c < 30; c++)
		for (v = 0; v < (1u << (S_dist_extra[c] - 7)); v++)
			S_dist_code[256 + ((S_dist_base[c] - 1) >> 7) + v] = (uint8_t)c;
	S_tables_ready = 1;
}

static unsigned S_dcode(unsigned d1)
{
	return d1 < 256 ? S_dist_code[d1] : S_dist_code[256 + (d1 >> 7)];
}

/* ------------------------------------------------------------ matching */

/* How many bytes a and b have in common from the start, at most max. */
static size_t S_common(const unsigned char *a, const unsigned char *b, size_t max)
{
	size_t k = 0;

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	while (k + 8 <= max) {
		uint64_t x, y;
		memcpy(&x, a + k, 8);
		memcpy(&y, b + k, 8);
		if (x != y)
			return k + ((size_t)__builtin_ctzll(x ^ y) >> 3);
		k += 8;
	}
#endif
	while (k < max && a[k] == b[k])
		k++;
	return k;
}

static uint32_t S_hash4(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return (v * 2654435761u) >> (32 - S_HASH_BITS);
}

typedef struct {
	uint32_t lit[S_NLIT], dist[S_NDIST];
	uint64_t extra;   /* the bits of the lengths' and distances' extra fields */
} S_counts;

static void S_tok_room(gs_zrun *z, size_t ntok)
{
	if (ntok < z->tokcap)
		return;
	z->tokcap = z->tokcap ? 2 * z->tokcap : 65536;
	if (z->tokcap <= ntok)
		z->tokcap = ntok + 1;
	z->tok = gs_xrealloc(z->tok, z->tokcap * sizeof(*z->tok));
}

/*
 * The longest match at p among the fixed distances and the hash's (its
 * distance in *bd), and p entered in the hash.
 */
static size_t S_best(gs_zrun *z, const unsigned char *in, size_t n, size_t p,
		     const size_t *fixed, size_t nfixed, size_t *bd)
{
	size_t lim = n - p, best = 0, len, i;

	for (i = 0; i < nfixed; i++) {
		size_t d = fixed[i];
		/* (the byte that would make it longer than the best first) */
		if (d > p || best >= lim || in[p + best] != in[p + best - d])
			continue;
		len = S_common(in + p, in + p - d, lim);
		if (len > best) {
			best = len;
			*bd = d;
		}
	}
	if (lim >= 4) {
		uint32_t h = S_hash4(in + p), q = z->hash[h];
		z->hash[h] = (uint32_t)p + 1;
		if (q != 0 && p - (q - 1) <= S_WINDOW) {
			size_t d = p - (q - 1);
			if (best < lim && in[p + best] == in[p + best - d]) {
				len = S_common(in + p, in + p - d, lim);
				if (len > best) {
					best = len;
					*bd = d;
				}
			}
		}
	}
	return best;
}

static void S_literal(gs_zrun *z, size_t *ntok, unsigned char b)
{
	S_tok_room(z, *ntok);
	z->tok[(*ntok)++] = b;
}

/*
 * The tokens of in: at each byte, the longest match (S_best), taken whole
 * (as matches of at most 258 bytes at that distance) when it is three
 * bytes or more, else a literal. Greedy: zlib's lazy evaluation (a short
 * match put off when the next byte starts a longer one) made the site's
 * PNGs 0.3-1.8 % larger, not smaller, and a second place kept a hash 0.8 %
 * smaller but slower. Only the bytes where a token starts enter the hash:
 * a run is never looked inside. Returns the number of tokens.
 */
static size_t S_tokens(gs_zrun *z, const unsigned char *in, size_t n, size_t rowlen,
		       size_t bpp)
{
	size_t fixed[5], nfixed = 0, p = 0, ntok = 0;

	fixed[nfixed++] = 1;
	if (bpp > 1)
		fixed[nfixed++] = bpp;
	if (rowlen <= S_WINDOW) {
		fixed[nfixed++] = rowlen;
		if (rowlen > bpp)
			fixed[nfixed++] = rowlen - bpp;
		if (rowlen + bpp <= S_WINDOW)
			fixed[nfixed++] = rowlen + bpp;
	}
	memset(z->hash, 0, sizeof(*z->hash) << S_HASH_BITS);
	while (p < n) {
		size_t bd = 0, best = S_best(z, in, n, p, fixed, nfixed, &bd);

		if (best < S_MIN_MATCH) {
			S_literal(z, &ntok, in[p]);
			p++;
			continue;
		}
		p += best;
		while (best > 0) {
			/* 258 at a time; never a last piece of one or two bytes */
			size_t piece = best;
			if (piece > S_MAX_MATCH)
				piece = best - S_MAX_MATCH < S_MIN_MATCH ? best - S_MIN_MATCH : S_MAX_MATCH;
			S_tok_room(z, ntok);
			z->tok[ntok++] = S_MATCH_BIT | (uint32_t)((piece - S_MIN_MATCH) << 16) | (uint32_t)(bd - 1);
			best -= piece;
		}
	}
	return ntok;
}

/* ------------------------------------------------------------ codes */

static int S_key_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/*
 * Huffman code lengths of at most maxbits for the n counts of freq, into
 * len (0: no code). Built with two queues over the symbols sorted by
 * count (then by symbol: the same lengths for the same counts); when the
 * tree is deeper than maxbits, every count is halved (never to zero) and
 * the tree built again (all counts 1 gives a balanced tree: 9 bits at most
 * for 286 symbols, 5 for 19). At least two symbols get a code, as zlib's
 * trees.c does: a lone symbol would otherwise have a code of no bits.
 */
static void S_lengths(const uint32_t *freq_in, int n, int maxbits, uint8_t *len)
{
	uint32_t freq[S_MAXSYM];
	uint64_t w[2 * S_MAXSYM];
	int sym[S_MAXSYM], parent[2 * S_MAXSYM];
	uint8_t depth[2 * S_MAXSYM];
	int m = 0, i, k;

	for (i = 0; i < n; i++) {
		freq[i] = freq_in[i];
		m += freq[i] != 0;
	}
	for (i = 0; m < 2 && i < n; i++)
		if (freq[i] == 0) {
			freq[i] = 1;
			m++;
		}
	for (;;) {
		uint64_t key[S_MAXSYM];
		int leaf = 0, inner, next, maxd = 0;

		/* by (count, symbol): the same lengths for the same counts */
		m = 0;
		for (i = 0; i < n; i++)
			if (freq[i])
				key[m++] = (uint64_t)freq[i] << 16 | (uint64_t)i;
		qsort(key, (size_t)m, sizeof(key[0]), S_key_cmp);
		for (k = 0; k < m; k++)
			sym[k] = (int)(key[k] & 0xffffu);
		if (m < 2)
			GS_BUG("a Huffman code of %d symbols", m);   /* two are always given counts above */
		for (k = 0; k < m; k++)
			w[k] = freq[sym[k]];
		inner = next = m;
		while (next < 2 * m - 1) {
			int pick[2], j;
			for (j = 0; j < 2; j++) {
				if (leaf < m && (inner >= next || w[leaf] <= w[inner]))
					pick[j] = leaf++;
				else
					pick[j] = inner++;
			}
			w[next] = w[pick[0]] + w[pick[1]];
			parent[pick[0]] = parent[pick[1]] = next;
			next++;
		}
		depth[2 * m - 2] = 0;
		for (k = 2 * m - 3; k >= 0; k--) {
			depth[k] = (uint8_t)(depth[parent[k]] + 1);
			if (k < m && depth[k] > maxd)
				maxd = depth[k];
		}
		if (maxd <= maxbits)
			break;
		for (i = 0; i < n; i++)
			if (freq[i])
				freq[i] = (freq[i] >> 1) | 1;
	}
	memset(len, 0, (size_t)n);
	for (k = 0; k < m; k++)
		len[sym[k]] = depth[k];
}

/* The canonical codes of len (3.2.2), bit-reversed: the writer sends a
 * value's low bit first, a Huffman code its high bit first. */
static void S_codes(const uint8_t *len, int n, uint16_t *code)
{
	unsigned count[16] = { 0 }, next[16];
	unsigned b, c = 0;
	int i;

	for (i = 0; i < n; i++)
		count[len[i]]++;
	count[0] = 0;
	for (b = 1; b < 16; b++) {
		c = (c + count[b - 1]) << 1;
		next[b] = c;
	}
	for (i = 0; i < n; i++) {
		unsigned v, r = 0, j;
		if (!len[i]) {
			code[i] = 0;
			continue;
		}
		v = next[len[i]]++;
		for (j = 0; j < len[i]; j++)
			r |= ((v >> j) & 1u) << (len[i] - 1 - j);
		code[i] = (uint16_t)r;
	}
}

/* ------------------------------------------------------------ writing */

typedef struct {
	unsigned char *p;   /* the next byte; room checked before */
	uint64_t acc;
	unsigned bits;
} S_bits;

static void S_put(S_bits *w, uint32_t v, unsigned nbits)
{
	w->acc |= (uint64_t)v << w->bits;
	w->bits += nbits;
	if (w->bits >= 32) {
		w->p[0] = (unsigned char)w->acc;
		w->p[1] = (unsigned char)(w->acc >> 8);
		w->p[2] = (unsigned char)(w->acc >> 16);
		w->p[3] = (unsigned char)(w->acc >> 24);
		w->p += 4;
		w->acc >>= 32;
		w->bits -= 32;
	}
}

static void S_flush(S_bits *w)
{
	while (w->bits > 0) {
		*w->p++ = (unsigned char)w->acc;
		w->acc >>= 8;
		w->bits = w->bits > 8 ? w->bits - 8 : 0;
	}
}

/* The code lengths of the two codes, run-length coded (3.2.7): symbols
 * 0-18 with their extra bits as (extra << 5) | symbol. Returns how many. */
static size_t S_clen_rle(const uint8_t *lens, size_t n, uint16_t *out)
{
	size_t i = 0, k = 0;

	while (i < n) {
		size_t run = 1;
		uint8_t v = lens[i];
		while (i + run < n && lens[i + run] == v)
			run++;
		i += run;
		if (v == 0) {
			while (run >= 11) {
				size_t r = run > 138 ? 138 : run;
				out[k++] = (uint16_t)(((r - 11) << 5) | 18);
				run -= r;
			}
			if (run >= 3) {
				out[k++] = (uint16_t)(((run - 3) << 5) | 17);
				run = 0;
			}
		} else {
			out[k++] = v;
			run--;
			while (run >= 3) {
				size_t r = run > 6 ? 6 : run;
				out[k++] = (uint16_t)(((r - 3) << 5) | 16);
				run -= r;
			}
		}
		while (run-- > 0)
			out[k++] = v;
	}
	return k;
}

static const uint8_t S_clen_extra[S_NCLEN] = {
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 3, 7
};

static void S_stored(const unsigned char *in, size_t n, unsigned char *o)
{
	do {
		size_t len = n > 65535 ? 65535 : n;
		*o++ = n == len;   /* BFINAL on the last, BTYPE 00 */
		o[0] = (unsigned char)len;
		o[1] = (unsigned char)(len >> 8);
		o[2] = (unsigned char)~len;
		o[3] = (unsigned char)(~len >> 8);
		if (len) {   /* (no input: in may be NULL, and no pointer moves) */
			memcpy(o + 4, in, len);
			in += len;
		}
		o += 4 + len;
		n -= len;
	} while (n > 0);
}

/* A block's codes, for the counts of its tokens, and its size in bits. */
typedef struct gs_zrun_block {
	uint8_t litlen[S_NLIT], distlen[S_NDIST], clenlen[S_NCLEN];
	uint16_t litcode[S_NLIT], distcode[S_NDIST], clencode[S_NCLEN];
	uint16_t rle[S_NLIT + S_NDIST];
	size_t nrle, nlit, ndist, nclen;
	uint64_t bits;   /* exactly: the header, the codes, the tokens, the end */
} S_block;   /* (struct gs_zrun_block of zrun.h) */

static void S_plan(S_block *b, const uint32_t *tok, size_t ntok)
{
	S_counts c;
	uint8_t lens[S_NLIT + S_NDIST];
	uint32_t clenfreq[S_NCLEN] = { 0 };
	size_t i;

	memset(&c, 0, sizeof(c));
	for (i = 0; i < ntok; i++) {
		uint32_t t = tok[i];
		unsigned lc, dc;
		if (!(t & S_MATCH_BIT)) {
			c.lit[t]++;
			continue;
		}
		lc = S_len_code[(t >> 16) & 0xffu];
		dc = S_dcode(t & 0xffffu);
		c.lit[257 + lc]++;
		c.dist[dc]++;
		c.extra += S_len_extra[lc] + S_dist_extra[dc];
	}
	c.lit[256]++;   /* the end of the block */
	S_lengths(c.lit, S_NLIT, 15, b->litlen);
	S_lengths(c.dist, S_NDIST, 15, b->distlen);
	S_codes(b->litlen, S_NLIT, b->litcode);
	S_codes(b->distlen, S_NDIST, b->distcode);
	for (b->nlit = S_NLIT; b->nlit > 257 && !b->litlen[b->nlit - 1]; b->nlit--)
		;
	for (b->ndist = S_NDIST; b->ndist > 1 && !b->distlen[b->ndist - 1]; b->ndist--)
		;
	memcpy(lens, b->litlen, b->nlit);
	memcpy(lens + b->nlit, b->distlen, b->ndist);
	b->nrle = S_clen_rle(lens, b->nlit + b->ndist, b->rle);
	for (i = 0; i < b->nrle; i++)
		clenfreq[b->rle[i] & 31]++;
	S_lengths(clenfreq, S_NCLEN, 7, b->clenlen);
	S_codes(b->clenlen, S_NCLEN, b->clencode);
	for (b->nclen = S_NCLEN; b->nclen > 4 && !b->clenlen[S_clen_order[b->nclen - 1]]; b->nclen--)
		;
	b->bits = 3 + 5 + 5 + 4 + 3 * (uint64_t)b->nclen + c.extra;
	for (i = 0; i < b->nrle; i++)
		b->bits += b->clenlen[b->rle[i] & 31] + S_clen_extra[b->rle[i] & 31];
	for (i = 0; i < S_NLIT; i++)
		b->bits += (uint64_t)c.lit[i] * b->litlen[i];
	for (i = 0; i < S_NDIST; i++)
		b->bits += (uint64_t)c.dist[i] * b->distlen[i];
}

static void S_write(S_bits *w, const S_block *b, const uint32_t *tok, size_t ntok, int final)
{
	size_t i;

	S_put(w, final ? 1u : 0u, 1);   /* BFINAL */
	S_put(w, 2, 2);                 /* dynamic Huffman codes */
	S_put(w, (uint32_t)(b->nlit - 257), 5);
	S_put(w, (uint32_t)(b->ndist - 1), 5);
	S_put(w, (uint32_t)(b->nclen - 4), 4);
	for (i = 0; i < b->nclen; i++)
		S_put(w, b->clenlen[S_clen_order[i]], 3);
	for (i = 0; i < b->nrle; i++) {
		unsigned s = b->rle[i] & 31;
		S_put(w, b->clencode[s], b->clenlen[s]);
		if (S_clen_extra[s])
			S_put(w, (uint32_t)(b->rle[i] >> 5), S_clen_extra[s]);
	}
	for (i = 0; i < ntok; i++) {
		uint32_t t = tok[i];
		unsigned len3, d1, lc, dc;
		if (!(t & S_MATCH_BIT)) {
			S_put(w, b->litcode[t], b->litlen[t]);
			continue;
		}
		len3 = (t >> 16) & 0xffu;
		d1 = t & 0xffffu;
		lc = S_len_code[len3];
		dc = S_dcode(d1);
		S_put(w, b->litcode[257 + lc], b->litlen[257 + lc]);
		if (S_len_extra[lc])
			S_put(w, len3 + 3 - S_len_base[lc], S_len_extra[lc]);
		S_put(w, b->distcode[dc], b->distlen[dc]);
		if (S_dist_extra[dc])
			S_put(w, d1 + 1 - S_dist_base[dc], S_dist_extra[dc]);
	}
	S_put(w, b->litcode[256], b->litlen[256]);
}

int gs_zrun_compress(gs_zrun *z, const unsigned char *in, size_t n, size_t rowlen,
		     size_t bpp, gs_buf *out)
{
	uint32_t adler;
	size_t ntok, nblock, i, j, stored, dyn, start, end;
	uint64_t bits = 0;
	unsigned char *o;
	S_bits w;

	if (n >= 0x80000000u)
		return -1;
	if (!S_tables_ready)
		S_tables();
	if (!z->hash)
		z->hash = gs_xmalloc(sizeof(*z->hash) << S_HASH_BITS);
	if (rowlen == 0)
		rowlen = 1;
	if (bpp == 0)
		bpp = 1;
	S_tok_room(z, 0);   /* z->tok never NULL below, even for no tokens */
	ntok = S_tokens(z, in, n, rowlen, bpp);

	/* blocks of S_BLOCK tokens (the last one the rest), each its codes */
	nblock = ntok ? (ntok + S_BLOCK - 1) / S_BLOCK : 1;
	if (nblock > z->blockcap) {
		z->blockcap = nblock > 2 * z->blockcap ? nblock : 2 * z->blockcap;
		z->block = gs_xrealloc(z->block, z->blockcap * sizeof(*z->block));
	}
	for (j = 0; j < nblock; j++) {
		i = j * S_BLOCK;
		S_plan(&z->block[j], z->tok + i, ntok - i < S_BLOCK ? ntok - i : S_BLOCK);
		bits += z->block[j].bits;
	}
	dyn = (size_t)((bits + 7) / 8);
	/* stored blocks of 65,535 bytes at most, one (empty) for no input */
	stored = n + 5 * (n ? (n + 65534) / 65535 : 1);

	start = out->len;
	gs_buf_grow(out, 2 + (dyn < stored ? dyn : stored) + 8 + 4);
	o = (unsigned char *)out->data + start;
	o[0] = 0x78;   /* deflate, a 32 KiB window */
	o[1] = 0x01;   /* no dictionary, the fastest level: (0x7801 % 31) == 0 */
	o += 2;
	if (stored <= dyn) {
		S_stored(in, n, o);
		o += stored;
	} else {
		w.p = o;
		w.acc = 0;
		w.bits = 0;
		for (j = 0; j < nblock; j++) {
			i = j * S_BLOCK;
			S_write(&w, &z->block[j], z->tok + i, ntok - i < S_BLOCK ? ntok - i : S_BLOCK,
				j + 1 == nblock);
		}
		S_flush(&w);
		if ((size_t)(w.p - o) != dyn)
			GS_BUG("zrun wrote %zu bytes of a stream reckoned at %zu", (size_t)(w.p - o), dyn);
		o = w.p;
	}
	adler = libdeflate_adler32(1, in, n);
	o[0] = (unsigned char)(adler >> 24);
	o[1] = (unsigned char)(adler >> 16);
	o[2] = (unsigned char)(adler >> 8);
	o[3] = (unsigned char)adler;
	o += 4;
	/* inside the room gs_buf_grow made above, its NUL included */
	end = (size_t)(o - (unsigned char *)out->data);
	out->len = end;
	out->data[end] = '\0';
	return 0;
}

void gs_zrun_free(gs_zrun *z)
{
	free(z->tok);
	free(z->hash);
	free(z->block);
	z->tok = NULL;
	z->hash = NULL;
	z->block = NULL;
	z->tokcap = z->blockcap = 0;
}
