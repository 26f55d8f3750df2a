/*
 * chart_cairo: a chart's display list rasterised by Cairo, encoded with
 * libdeflate: the PNG part (pngpart.h), reached through gs_chart_png_render
 * (chart_png.c) and the part's table.
 */
#include "chart.h"
#include "chart_cache.h"
#include "chart_list.h"

#include <cairo-ft.h>
#include <libdeflate.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

#define S_HALF_PI 1.5707963267948966

void gs_chart_cairo_setup(cairo_t *cr)
{
	cairo_font_options_t *fo = cairo_font_options_create();

	cairo_font_options_set_hint_style(fo, CAIRO_HINT_STYLE_NONE);
	cairo_font_options_set_hint_metrics(fo, CAIRO_HINT_METRICS_OFF);
	cairo_font_options_set_antialias(fo, CAIRO_ANTIALIAS_GRAY);
	cairo_set_font_options(cr, fo);
	cairo_font_options_destroy(fo);
	gs_chart_cairo_font(cr, 12.0, 0);
	cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
	cairo_set_line_join(cr, CAIRO_LINE_JOIN_MITER);
}

void gs_chart_cairo_font(cairo_t *cr, double size, int bold)
{
	cairo_select_font_face(cr, GS_CHART_FONT, CAIRO_FONT_SLANT_NORMAL,
			       bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
	cairo_set_font_size(cr, size);
}

/* ----------------------------------------------------------------- replay */

static void S_src(cairo_t *cr, gs_chart_rgba c)
{
	if (c.a == 255)
		cairo_set_source_rgb(cr, c.r / 255.0, c.g / 255.0, c.b / 255.0);
	else
		cairo_set_source_rgba(cr, c.r / 255.0, c.g / 255.0, c.b / 255.0, c.a / 255.0);
}

static void S_dash(cairo_t *cr, uint8_t dash)
{
	static const double lng[] = { 7.0, 4.0 }, dot[] = { 1.5, 3.0 }, sht[] = { 4.0, 3.0 };

	switch (dash) {
	case GS_DASH_LONG:
		cairo_set_dash(cr, lng, 2, 0);
		break;
	case GS_DASH_DOT:
		cairo_set_dash(cr, dot, 2, 0);
		break;
	case GS_DASH_SHORT:
		cairo_set_dash(cr, sht, 2, 0);
		break;
	default:
		cairo_set_dash(cr, NULL, 0, 0);
		break;
	}
}

/* The mark's outline as Cairo's current path. */
static void S_path(cairo_t *cr, const gs_chart_list *l, const gs_chart_mark *m)
{
	size_t i;

	cairo_new_path(cr);
	switch (m->kind) {
	case GS_MARK_RECT:
		cairo_rectangle(cr, m->x, m->y, m->w, m->h);
		break;
	case GS_MARK_CIRCLE:
		cairo_arc(cr, m->x, m->y, m->w, 0, 4 * S_HALF_PI);
		break;
	case GS_MARK_PATH:
		for (i = m->p0; i < m->p0 + m->np; i++) {
			const gs_chart_pt *p = &l->pt[i];

			if (p->op == GS_OP_MOVE)
				cairo_move_to(cr, p->x, p->y);
			else if (p->op == GS_OP_LINE)
				cairo_line_to(cr, p->x, p->y);
			else
				cairo_close_path(cr);
		}
		break;
	default:
		break;
	}
}

/*
 * Hatching over the rectangle's fill is the SVG's 7 x 7 tile (chart_svg.c),
 * repeated from the page's origin: the lines x + y = 7k (and x - y = 7k for
 * cross hatching), 2 px wide, drawn once into a transparent tile per ink
 * and kind. Stroking every line of a rectangle, clipped, as one path was 8 %
 * of a --png site (Cairo's stroker). The pixels are those of the stroke but
 * for rounding (the tile's premultiplied ink, a channel by at most 3 in 97 %
 * of the pixels that move) and at a bar's partial edge pixels, where the
 * clip's coverage is now multiplied by the tile's rather than intersected
 * with the line. The tiles live until the process ends (S_TILES of them;
 * a site's charts hatch with a few inks).
 */
#define S_TILES 16

typedef struct {
	gs_chart_rgba ink;
	uint8_t hatch;
	cairo_pattern_t *pat;
} S_tile;

static S_tile S_tiles[S_TILES];
static size_t S_ntiles, S_tile_next;

static cairo_pattern_t *S_tile_draw(gs_chart_rgba ink, uint8_t hatch)
{
	cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 7, 7);
	cairo_pattern_t *pat;
	cairo_t *cr = cairo_create(s);

	S_src(cr, ink);
	cairo_set_line_width(cr, 2.0);
	cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
	/* the lines of this tile and the corners of its neighbours' */
	cairo_move_to(cr, -1, 1);
	cairo_line_to(cr, 1, -1);
	cairo_move_to(cr, 0, 7);
	cairo_line_to(cr, 7, 0);
	cairo_move_to(cr, 6, 8);
	cairo_line_to(cr, 8, 6);
	if (hatch == GS_HATCH_CROSS) {
		cairo_move_to(cr, -1, 6);
		cairo_line_to(cr, 1, 8);
		cairo_move_to(cr, 0, 0);
		cairo_line_to(cr, 7, 7);
		cairo_move_to(cr, 6, -1);
		cairo_line_to(cr, 8, 1);
	}
	cairo_stroke(cr);
	cairo_destroy(cr);
	pat = cairo_pattern_create_for_surface(s);
	cairo_surface_destroy(s);
	cairo_pattern_set_extend(pat, CAIRO_EXTEND_REPEAT);
	cairo_pattern_set_filter(pat, CAIRO_FILTER_NEAREST);
	return pat;
}

/* The tile of ink and kind, kept: the S_TILES slots are replaced in turn
 * (a replaced tile that is still a chart's source lives on in Cairo's
 * reference until the source changes). */
static cairo_pattern_t *S_tile_get(gs_chart_rgba ink, uint8_t hatch)
{
	S_tile *t;
	size_t i;

	for (i = 0; i < S_ntiles; i++)
		if (S_tiles[i].hatch == hatch && memcmp(&S_tiles[i].ink, &ink, sizeof(ink)) == 0)
			return S_tiles[i].pat;
	t = &S_tiles[S_tile_next];
	S_tile_next = (S_tile_next + 1) % S_TILES;
	if (S_ntiles < S_TILES)
		S_ntiles++;
	else
		cairo_pattern_destroy(t->pat);
	t->ink = ink;
	t->hatch = hatch;
	t->pat = S_tile_draw(ink, hatch);
	return t->pat;
}

static void S_hatch(cairo_t *cr, const gs_chart_mark *m)
{
	cairo_rectangle(cr, m->x, m->y, m->w, m->h);
	cairo_set_source(cr, S_tile_get(m->hatch_ink, m->hatch));
	cairo_fill(cr);
}

static void S_text(cairo_t *cr, const gs_chart_list *l, const gs_chart_mark *m)
{
	double shift = m->anchor == GS_ANCHOR_MIDDLE ? m->w / 2 :
		       m->anchor == GS_ANCHOR_END ? m->w : 0;

	gs_chart_cairo_font(cr, m->h, m->bold);
	S_src(cr, m->fill);
	cairo_save(cr);
	cairo_translate(cr, m->x, m->y);
	if (m->vertical)
		cairo_rotate(cr, -S_HALF_PI);
	cairo_move_to(cr, -shift, 0);
	cairo_show_text(cr, l->str + m->s0);
	cairo_new_path(cr);
	cairo_restore(cr);
}

static void S_replay(cairo_t *cr, const gs_chart_list *l)
{
	size_t i;

	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_paint(cr);
	for (i = 0; i < l->n; i++) {
		const gs_chart_mark *m = &l->m[i];

		if (m->kind == GS_MARK_TEXT) {
			S_text(cr, l, m);
			continue;
		}
		if (m->fill.a) {
			S_path(cr, l, m);
			S_src(cr, m->fill);
			cairo_fill(cr);
		}
		if (m->kind == GS_MARK_RECT && m->hatch != GS_HATCH_NONE)
			S_hatch(cr, m);
		if (m->stroke.a) {
			S_path(cr, l, m);
			S_src(cr, m->stroke);
			cairo_set_line_width(cr, m->lw);
			S_dash(cr, m->dash);
			cairo_stroke(cr);
		}
	}
}

/* ------------------------------------------------------------ encoding */

/*
 * The PNG written by hand (three chunks: IHDR, one IDAT, IEND), its
 * pixels compressed by libdeflate in one call (level S_PNG_LEVEL), rather
 * than through libpng and zlib a row at a time, or
 * cairo_surface_write_to_png_stream (which compresses hard and tries every
 * filter). Charts are flat colours on white: a row the same as the one
 * above gets the Up filter (all zeros), any other None. RGB24 pixels are
 * 0x00RRGGBB in native order; the PNG is 8-bit RGB, no alpha, no time
 * chunk, so its bytes depend only on the pixels and libdeflate's version.
 * A deflate of our own that skipped runs (zrun, render revision 9) saved
 * about 1.5 ms an image of `--png`, an optional output: not worth a
 * compressor of our own (issue 37, bench/README.md).
 */
#define S_PNG_LEVEL 3
/* The PNG is written into a gs_buf (buf.h) that starts at S_PNG_START
 * bytes (a chart's PNG is 20-60 KB); out of memory aborts there. */
#define S_PNG_START 16384

static struct libdeflate_compressor *S_deflater;
/* the filtered rows and their deflated bytes, kept from chart to chart (a
 * megabyte each: allocated anew, every page of them faulted in again) */
static gs_buf S_raw = GS_BUF_INIT, S_z = GS_BUF_INIT;

/* b emptied, with room for n bytes: its data. */
static unsigned char *S_room(gs_buf *b, size_t n)
{
	gs_buf_truncate(b, 0);
	gs_buf_grow(b, n);
	return (unsigned char *)b->data;
}

static void S_be32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)(v >> 24);
	p[1] = (unsigned char)(v >> 16);
	p[2] = (unsigned char)(v >> 8);
	p[3] = (unsigned char)v;
}

/* A chunk of type and len bytes of data (never inside out) appended to out. */
static void S_chunk(gs_buf *out, const char type[4], const unsigned char *data, size_t len)
{
	unsigned char b[8];
	uint32_t crc;

	S_be32(b, (uint32_t)len);
	memcpy(b + 4, type, 4);
	gs_buf_put(out, b, 8);
	crc = libdeflate_crc32(0, type, 4);
	if (len) {
		/* (never with NULL: libdeflate_crc32 then answers its initial value) */
		crc = libdeflate_crc32(crc, data, len);
		gs_buf_put(out, data, len);
	}
	S_be32(b, crc);
	gs_buf_put(out, b, 4);
}

static int S_png_encode(cairo_surface_t *s, gs_buf *out)
{
	static const unsigned char sig[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
	const unsigned char *px;
	unsigned char *raw, *z, ihdr[13];
	size_t rowlen, rawlen, zcap, zlen;
	int w, h, stride, y, x;

	cairo_surface_flush(s);
	px = cairo_image_surface_get_data(s);
	w = cairo_image_surface_get_width(s);
	h = cairo_image_surface_get_height(s);
	stride = cairo_image_surface_get_stride(s);
	if (!px || w <= 0 || h <= 0 || stride < 4 * w)
		return -1;
	if (!S_deflater) {
		S_deflater = libdeflate_alloc_compressor(S_PNG_LEVEL);
		if (!S_deflater)
			GS_OOM("libdeflate's compressor");
	}
	rowlen = 1 + 3 * (size_t)w;
	rawlen = rowlen * (size_t)h;
	raw = S_room(&S_raw, rawlen);
	for (y = 0; y < h; y++) {
		const uint32_t *src = (const uint32_t *)(const void *)(px + (size_t)y * (size_t)stride);
		unsigned char *row = raw + (size_t)y * rowlen;
		if (y > 0 && memcmp(src, px + (size_t)(y - 1) * (size_t)stride, 4 * (size_t)w) == 0) {
			row[0] = 2;   /* Up: the row above again */
			memset(row + 1, 0, rowlen - 1);
			continue;
		}
		row[0] = 0;   /* None: the pixels as they are */
		for (x = 0; x < w; x++) {
			row[1 + 3 * x] = (unsigned char)(src[x] >> 16);
			row[2 + 3 * x] = (unsigned char)(src[x] >> 8);
			row[3 + 3 * x] = (unsigned char)src[x];
		}
	}
	zcap = libdeflate_zlib_compress_bound(S_deflater, rawlen);
	z = S_room(&S_z, zcap);
	zlen = libdeflate_zlib_compress(S_deflater, raw, rawlen, z, zcap);
	if (zlen == 0 || zlen > 0x7fffffffu)
		return -1;
	gs_buf_put(out, sig, sizeof(sig));
	S_be32(ihdr, (uint32_t)w);
	S_be32(ihdr + 4, (uint32_t)h);
	ihdr[8] = 8;    /* bits a sample */
	ihdr[9] = 2;    /* RGB */
	ihdr[10] = 0;   /* deflate */
	ihdr[11] = 0;   /* adaptive filters */
	ihdr[12] = 0;   /* not interlaced */
	S_chunk(out, "IHDR", ihdr, sizeof(ihdr));
	S_chunk(out, "IDAT", z, zlen);
	S_chunk(out, "IEND", NULL, 0);
	return 0;
}

static int S_render(const gs_chart_list *l, gs_buf *png)
{
	cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24,
							GS_CHART_WIDTH, (int)gs_chart_list_height(l));
	cairo_t *cr;
	int rc = -1;

	if (cairo_surface_status(s) == CAIRO_STATUS_SUCCESS) {
		cr = cairo_create(s);
		gs_chart_cairo_setup(cr);
		S_replay(cr, l);
		rc = cairo_status(cr) == CAIRO_STATUS_SUCCESS ? 0 : -1;
		cairo_destroy(cr);
		if (rc == 0)
			rc = S_png_encode(s, png);
	}
	cairo_surface_destroy(s);
	return rc;
}

/* ------------------------------------------------------------- the cache */

/*
 * The PNG of a list drawn before (chart_cache.h): what S_replay reads (the
 * marks, their points and text bytes, the page height) is the key; the
 * title and description are not drawn. In the 200-workload benchmark 131
 * distinct PNGs of 402.
 */
static gs_chart_cache S_cache;

int gs_chart_cairo_render(const gs_chart_list *l, gs_buf *out)
{
	gs_buf png;
	uint64_t hash = gs_chart_cache_hash(&S_cache, l);
	const gs_chart_cache_entry *e = gs_chart_cache_get(&S_cache, l, hash);

	gs_buf_release(out);
	if (e) {
		gs_buf_put(out, e->bytes, e->len);
		return 0;
	}
	gs_buf_init(&png, S_PNG_START);
	if (S_render(l, &png)) {
		gs_buf_release(&png);
		return -1;
	}
	gs_chart_cache_put(&S_cache, l, hash, png.data, png.len);
	*out = png;
	return 0;
}

/* ------------------------------------------------------------ font check */

int gs_chart_cairo_font_check(void)
{
	cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_A8, 1, 1);
	cairo_t *cr = cairo_create(s);
	cairo_scaled_font_t *sf;
	int rc = -1;

	gs_chart_cairo_setup(cr);
	sf = cairo_get_scaled_font(cr);
	if (cairo_scaled_font_status(sf) == CAIRO_STATUS_SUCCESS &&
	    cairo_scaled_font_get_type(sf) == CAIRO_FONT_TYPE_FT) {
		FT_Face face = cairo_ft_scaled_font_lock_face(sf);

		if (face && face->family_name && strcmp(face->family_name, GS_CHART_FONT) == 0)
			rc = 0;
		if (face)
			cairo_ft_scaled_font_unlock_face(sf);
	}
	cairo_destroy(cr);
	cairo_surface_destroy(s);
	return rc;
}
