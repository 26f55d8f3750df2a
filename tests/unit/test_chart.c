/*
 * test_chart: the three charts render to SVG and PNG, byte-identical for
 * the same input wherever they fall in the process, and survive empty,
 * huge, missing and hostile inputs. Prints the time per render.
 *
 * Set GS_CHART_DUMP to a folder to also write the rendered files there.
 */
#include "chart.h"
#include "chart_list.h"
#include "check.h"
#include "fontmetrics.h"

#include <cairo.h>
#include <libxml/parser.h>
#include <locale.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/*
 * Fontconfig keeps what it parsed of its configuration files for the life
 * of the process; LeakSanitizer reports it at exit. Not ours: suppressed
 * here, for this library only (the hook is read when ASan is linked in).
 */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:libfontconfig.so\n";
}

#define GIB(x) ((uint64_t)((x) * 1073741824.0))

static gs_qty q(uint64_t b, gs_prov p)
{
	gs_qty r;

	r.bytes = b;
	r.prov = p;
	r.present = 1;
	return r;
}

static gs_qty none(void)
{
	gs_qty r;

	memset(&r, 0, sizeof(r));
	return r;
}

static gs_chart_text text_en(const char *title)
{
	gs_chart_text t;

	memset(&t, 0, sizeof(t));
	t.flags = GS_CHART_PNG;
	t.title = title;
	t.axis_label = "Memory (GiB)";
	t.x_label = "context (tokens)";
	t.lang = GS_LANG_EN;
	return t;
}

static gs_chart_text text_es(const char *title)
{
	gs_chart_text t = text_en(title);

	t.lang = GS_LANG_ES;
	t.axis_label = "Memoria (GiB)";
	t.x_label = "contexto (tokens)";
	t.calculated = "calculado";
	t.assumed = "supuesto";
	t.observed = "observado";
	t.capacity = "capacidad";
	t.peak = "pico";
	t.total = "total";
	t.missing = "falta";
	t.failed = "fallo";
	t.not_run = "no ejecutada";
	t.succeeded = "\xc3\xa9xito";
	t.allocated = "asignada";
	t.reserved = "reservada";
	t.start = "inicio";
	t.end = "fin";
	return t;
}

/* ------------------------------------------------------------ fixtures */

static const gs_chart_segment *budget_segs(size_t *n)
{
	static gs_chart_segment s[4];

	s[0].label = "Weights (7B, 16-bit)";
	s[0].value = q(UINT64_C(14000000000), GS_PROV_CALCULATED);
	s[1].label = "KV cache (4 sequences)";
	s[1].value = q(GIB(4), GS_PROV_CALCULATED);
	s[2].label = "Reserve (user choice)";
	s[2].value = q(GIB(2), GS_PROV_ASSUMED);
	s[3].label = "Evaluation buffers";
	s[3].value = none();
	*n = 4;
	return s;
}

static const gs_chart_line *budget_caps(size_t *n)
{
	static gs_chart_line c[3];

	c[0].label = "RTX 4090 (24 GB)";
	c[0].value = q(UINT64_C(24000000000), GS_PROV_ASSUMED);
	c[1].label = "RTX 6000 Ada (48 GB)";
	c[1].value = q(UINT64_C(48000000000), GS_PROV_ASSUMED);
	c[2].label = "L4 (declared by the device)";
	c[2].value = q(UINT64_C(23580639232), GS_PROV_OBSERVED);
	*n = 3;
	return c;
}

static const gs_chart_line *budget_peaks(size_t *n)
{
	static gs_chart_line p[3];

	p[0].label = "cold_forward, reserved";
	p[0].value = q(GIB(19.6), GS_PROV_OBSERVED);
	p[1].label = "warm_forward, reserved";
	p[1].value = q(GIB(18.9), GS_PROV_OBSERVED);
	p[2].label = "inputs, reserved";
	p[2].value = none();
	*n = 3;
	return p;
}

static int render_budget(const gs_chart_text *t, gs_chart_out *o)
{
	size_t ns, nc, np;
	const gs_chart_segment *s = budget_segs(&ns);
	const gs_chart_line *c = budget_caps(&nc);
	const gs_chart_line *p = budget_peaks(&np);

	return gs_chart_budget(t, s, ns, c, nc, p, np, o);
}

static const gs_chart_phase *phases_fix(size_t *n)
{
	static gs_chart_phase ph[5];
	static const char *names[5] = { "model_load", "inputs", "cold_forward", "warmup", "warm_forward" };
	size_t i, c;

	memset(ph, 0, sizeof(ph));
	for (i = 0; i < 5; i++) {
		ph[i].name = names[i];
		for (c = 0; c < GS_CHART_NCHECK; c++) {
			ph[i].allocated[c] = q(GIB(13.1 + (double)i * 0.6 + (double)c * 1.5), GS_PROV_OBSERVED);
			ph[i].reserved[c] = q(GIB(14.0 + (double)i * 0.8 + (double)c * 1.9), GS_PROV_OBSERVED);
		}
	}
	ph[0].allocated[GS_CHART_START] = q(0, GS_PROV_OBSERVED);  /* a real zero */
	ph[0].reserved[GS_CHART_START] = q(0, GS_PROV_OBSERVED);
	ph[3].failed = 1;
	ph[3].allocated[GS_CHART_END] = none();
	ph[3].reserved[GS_CHART_END] = none();
	ph[4].not_run = 1;
	for (c = 0; c < GS_CHART_NCHECK; c++)
		ph[4].allocated[c] = ph[4].reserved[c] = none();
	*n = 5;
	return ph;
}

static int render_phases(const gs_chart_text *t, gs_chart_out *o)
{
	size_t n;
	const gs_chart_phase *p = phases_fix(&n);

	return gs_chart_phases(t, p, n, o);
}

static const gs_chart_point *sweep_fix(size_t *n)
{
	static gs_chart_point p[7];

	memset(p, 0, sizeof(p));
	p[0].x = 4096;  p[0].peak = q(GIB(15.1), GS_PROV_OBSERVED);
	p[1].x = 2048;  p[1].peak = q(GIB(14.2), GS_PROV_OBSERVED);
	p[2].x = 8192;  p[2].peak = q(GIB(17.3), GS_PROV_OBSERVED);
	p[3].x = 16384; p[3].peak = q(GIB(21.0), GS_PROV_OBSERVED);
	p[4].x = 32768; p[4].peak = q(GIB(22.1), GS_PROV_OBSERVED); p[4].failed = 1;
	p[5].x = 65536; p[5].peak = none(); p[5].failed = 1;
	p[6].x = 16384; p[6].peak = none();                       /* a repeat, not read */
	*n = 7;
	return p;
}

static int render_sweep(const gs_chart_text *t, gs_chart_out *o)
{
	size_t n;
	const gs_chart_point *p = sweep_fix(&n);
	gs_chart_line cap;

	cap.label = "RTX 4090 (24 GB)";
	cap.value = q(UINT64_C(24000000000), GS_PROV_ASSUMED);
	return gs_chart_sweep(t, p, n, &cap, 1, o);
}

/*
 * Bars of money: two groups, three bars in hundredths of USD: 47.14
 * (retained), 1,733.76 (excluded, with words), 0.00 (a real zero, drawn
 * as a 1 px bar, not left out).
 */
static int render_bars(const gs_chart_text *t, gs_chart_out *o)
{
	gs_chart_bar b[3];

	memset(b, 0, sizeof(b));
	b[0].label = "rtx4090-1x", b[0].group = "22.35 GiB per card", b[0].value = 4714;
	b[0].mark = GS_BAR_RETAINED, b[0].words = "\xe2\x9c\x94 retained";
	b[1].label = "lambda-gpu_8x_a100", b[1].group = "40.00 GiB per card", b[1].value = 173376;
	b[1].mark = GS_BAR_EXCLUDED, b[1].words = "\xe2\x9c\x98 excluded";
	b[2].label = "free-1x", b[2].group = "40.00 GiB per card", b[2].value = 0;
	return gs_chart_bars(t, b, 3, 2, "USD", o);
}

/* -------------------------------------------------------------- checks */

static int same_buf(const gs_buf *a, const gs_buf *b)
{
	return a->len == b->len && a->len > 0 && memcmp(a->data, b->data, a->len) == 0;
}

static void dump(const char *name, const gs_chart_out *o)
{
	const char *dir = getenv("GS_CHART_DUMP");
	char path[4096];
	FILE *f;

	if (!dir || !*dir)
		return;
	snprintf(path, sizeof(path), "%s/%s.svg", dir, name);
	f = fopen(path, "wb");
	if (f) {
		fwrite(o->svg.data, 1, o->svg.len, f);
		fclose(f);
	}
	snprintf(path, sizeof(path), "%s/%s.png", dir, name);
	f = fopen(path, "wb");
	if (f) {
		fwrite(o->png.data, 1, o->png.len, f);
		fclose(f);
	}
}

/*
 * The SVG is well begun and ended, names its title and description for
 * screen readers, draws its words as <text> in DejaVu Sans and no glyph
 * outlines (Cairo's SVG surface wrote each glyph as a <symbol> with an
 * id "glyph..."), and stays under 15 KB (97-142 KB with Cairo's SVG
 * surface); the PNG has its signature.
 */
/* The PNG read back as a PNG reader reads it (Cairo's, through libpng:
 * every chunk's CRC, the zlib stream's Adler-32, each row's filter). */
typedef struct {
	const unsigned char *p;
	size_t left;
} png_reader;

static cairo_status_t read_png(void *arg, unsigned char *data, unsigned int n)
{
	png_reader *r = arg;

	if (n > r->left)
		return CAIRO_STATUS_READ_ERROR;
	memcpy(data, r->p, n);
	r->p += n;
	r->left -= n;
	return CAIRO_STATUS_SUCCESS;
}

/* gpusheet writes its PNG chunks itself (chart_cairo.c): a reader takes it,
 * at the chart's width, white in its corner, with more than a few colours
 * (antialiased text), and nothing after IEND. */
static void check_png_reads(const gs_buf *png)
{
	png_reader r = { (const unsigned char *)png->data, png->len };
	cairo_surface_t *s = cairo_image_surface_create_from_png_stream(read_png, &r);
	const unsigned char *px;
	uint32_t seen[64];
	size_t nseen = 0, k;
	int w, h, stride, x, y;

	CHECK(cairo_surface_status(s) == CAIRO_STATUS_SUCCESS);
	if (cairo_surface_status(s) != CAIRO_STATUS_SUCCESS) {
		cairo_surface_destroy(s);
		return;
	}
	CHECK(r.left == 0);
	w = cairo_image_surface_get_width(s);
	h = cairo_image_surface_get_height(s);
	stride = cairo_image_surface_get_stride(s);
	px = cairo_image_surface_get_data(s);
	CHECK(w == GS_CHART_WIDTH && h > 100);
	CHECK(px && (*(const uint32_t *)(const void *)px & 0xffffffu) == 0xffffffu);
	for (y = 0; px && y < h && nseen < 64; y++)
		for (x = 0; x < w && nseen < 64; x++) {
			uint32_t c = ((const uint32_t *)(const void *)(px + (size_t)y * (size_t)stride))[x] &
				     0xffffffu;
			for (k = 0; k < nseen && seen[k] != c; k++)
				;
			if (k == nseen)
				seen[nseen++] = c;
		}
	CHECK(nseen > 8);
	cairo_surface_destroy(s);
}

static void check_shape(const gs_chart_out *o)
{
	static const unsigned char sig[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n' };
	const char *s;

	CHECK(o->svg.len > 5 && memcmp(o->svg.data, "<?xml", 5) == 0);
	CHECK(o->png.len > 8 && memcmp(o->png.data, sig, 8) == 0);
	if (o->png.len > 8)
		check_png_reads(&o->png);
	if (o->svg.len == 0)
		return;
	s = (const char *)o->svg.data;
	CHECK(strlen(s) == o->svg.len);  /* one NUL-terminated text, no stray NUL */
	CHECK(strstr(s, "</svg>\n") == s + o->svg.len - 7);
	CHECK(strstr(s, "role=\"img\" aria-labelledby=\"title desc\"") != NULL);
	CHECK(strstr(s, "<title id=\"title\">") != NULL);
	CHECK(strstr(s, "<desc id=\"desc\">") != NULL);
	CHECK(strstr(s, "font-family=\"DejaVu Sans, sans-serif\"") != NULL);
	CHECK(strstr(s, "<text ") != NULL);
	CHECK(strstr(s, "<symbol") == NULL);
	CHECK(strstr(s, "glyph") == NULL);
	CHECK(strstr(s, "<image") == NULL);
	CHECK(o->svg.len < 15000);
	/* well-formed XML, whatever the labels held */
	{
		xmlDocPtr doc = xmlReadMemory(s, (int)o->svg.len, "chart.svg", NULL,
					      XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);

		CHECK(doc != NULL);
		xmlFreeDoc(doc);
	}
}

/* s contains the text needle, in an element of its own: ">needle<". */
static int has_text(const gs_chart_out *o, const char *needle)
{
	char buf[512];

	snprintf(buf, sizeof(buf), ">%s<", needle);
	return o->svg.len && strstr((const char *)o->svg.data, buf) != NULL;
}

typedef int (*render_fn)(const gs_chart_text *t, gs_chart_out *o);

/* Same bytes: twice in a row, and again after other charts were drawn. */
static void check_stable(const char *name, render_fn f, const gs_chart_text *t)
{
	gs_chart_out a, b, c, other;
	gs_chart_text ot = text_es("other");

	CHECK(f(t, &a) == 0);
	CHECK(f(t, &b) == 0);
	CHECK(render_budget(&ot, &other) == 0);
	gs_chart_out_release(&other);
	CHECK(render_sweep(&ot, &other) == 0);
	gs_chart_out_release(&other);
	CHECK(render_phases(&ot, &other) == 0);
	gs_chart_out_release(&other);
	CHECK(f(t, &c) == 0);
	check_shape(&a);
	CHECK(same_buf(&a.svg, &b.svg));
	CHECK(same_buf(&a.png, &b.png));
	CHECK(same_buf(&a.svg, &c.svg));
	CHECK(same_buf(&a.png, &c.png));
	dump(name, &a);
	gs_chart_out_release(&a);
	gs_chart_out_release(&b);
	gs_chart_out_release(&c);
	CHECK(a.svg.len == 0 && a.png.len == 0 && a.svg.data[0] == '\0');
}

static void check_edges(void)
{
	gs_chart_text t = text_en("Edge cases");
	gs_chart_out o;
	gs_chart_segment huge[2];
	gs_chart_line cap, bad[2];
	gs_chart_phase ph;
	gs_chart_point pt[2];

	/* nothing at all */
	CHECK(gs_chart_budget(&t, NULL, 0, NULL, 0, NULL, 0, &o) == 0);
	check_shape(&o);
	dump("budget-empty", &o);
	gs_chart_out_release(&o);
	CHECK(gs_chart_phases(&t, NULL, 0, &o) == 0);
	check_shape(&o);
	dump("phases-empty", &o);
	gs_chart_out_release(&o);
	CHECK(gs_chart_sweep(&t, NULL, 0, NULL, 0, &o) == 0);
	check_shape(&o);
	dump("sweep-empty", &o);
	gs_chart_out_release(&o);
	CHECK(gs_chart_budget(NULL, NULL, 0, NULL, 0, NULL, 0, &o) == 0);  /* no words */
	gs_chart_out_release(&o);

	/* 2 TiB, and a capacity far above a small budget */
	huge[0].label = "Weights";
	huge[0].value = q(UINT64_C(2) << 40, GS_PROV_CALCULATED);
	huge[1].label = "Reserve";
	huge[1].value = q(UINT64_C(6) << 30, GS_PROV_ASSUMED);
	cap.label = "Cluster node";
	cap.value = q(UINT64_C(3) << 40, GS_PROV_ASSUMED);
	CHECK(gs_chart_budget(&t, huge, 2, &cap, 1, &cap, 1, &o) == 0);
	check_shape(&o);
	dump("budget-huge", &o);
	gs_chart_out_release(&o);
	huge[0].value = q(GIB(0.4), GS_PROV_CALCULATED);
	huge[1].value = q(GIB(0.1), GS_PROV_ASSUMED);
	cap.label = "H200";
	cap.value = q(UINT64_C(150754820096), GS_PROV_OBSERVED);
	CHECK(gs_chart_budget(&t, huge, 2, &cap, 1, NULL, 0, &o) == 0);
	check_shape(&o);
	dump("budget-bigcap", &o);
	gs_chart_out_release(&o);
	/* tiny values: ticks below a GiB */
	CHECK(gs_chart_budget(&t, huge, 2, NULL, 0, NULL, 0, &o) == 0);
	dump("budget-small", &o);
	gs_chart_out_release(&o);

	/* a total that cannot be held in 64 bits is refused */
	huge[0].value = q(UINT64_MAX, GS_PROV_CALCULATED);
	huge[1].value = q(1, GS_PROV_CALCULATED);
	CHECK(gs_chart_budget(&t, huge, 2, NULL, 0, NULL, 0, &o) == -1);
	CHECK(o.svg.len == 0 && o.png.len == 0 && o.svg.data[0] == '\0');
	/* the largest single value still draws */
	CHECK(gs_chart_budget(&t, huge, 1, NULL, 0, NULL, 0, &o) == 0);
	gs_chart_out_release(&o);

	/* hostile labels: invalid UTF-8, control characters, very long */
	{
		static char longlab[3000];

		memset(longlab, 'W', sizeof(longlab) - 1);
		bad[0].label = "bad \xff\xfe utf-8 \xc3( \xed\xa0\x80 \x01\t \xef\xbf\xbe <a> &amp end";
		bad[0].value = q(GIB(10), GS_PROV_ASSUMED);
		bad[1].label = longlab;
		bad[1].value = q(GIB(11), GS_PROV_OBSERVED);
		huge[0].label = longlab;
		huge[0].value = q(GIB(3), GS_PROV_CALCULATED);
		huge[1].label = NULL;
		huge[1].value = q(GIB(1), GS_PROV_OBSERVED);
		t.title = longlab;
		CHECK(gs_chart_budget(&t, huge, 2, bad, 2, bad, 2, &o) == 0);
		check_shape(&o);
		dump("budget-hostile", &o);
		gs_chart_out_release(&o);
		memset(&ph, 0, sizeof(ph));
		ph.name = bad[0].label;
		ph.failed = 1;
		CHECK(gs_chart_phases(&t, &ph, 1, &o) == 0);
		gs_chart_out_release(&o);
		memset(pt, 0, sizeof(pt));
		pt[0].x = UINT64_MAX;
		pt[0].peak = q(UINT64_MAX, GS_PROV_OBSERVED);
		pt[1].x = 0;
		pt[1].peak = none();
		pt[1].failed = 1;
		CHECK(gs_chart_sweep(&t, pt, 2, bad, 2, &o) == 0);
		check_shape(&o);
		dump("sweep-hostile", &o);
		gs_chart_out_release(&o);
		t.title = "Edge cases";
	}

	/* many segments: the legend switches to one line each */
	{
		static gs_chart_segment ms[12];
		size_t i;

		for (i = 0; i < 12; i++) {
			ms[i].label = i == 0 ? "Weights" : "Reserve item with a long name";
			ms[i].value = i == 5 ? none() : q(GIB(0.5 + (double)i), (gs_prov)(i % 3));
		}
		CHECK(gs_chart_budget(&t, ms, 12, NULL, 0, NULL, 0, &o) == 0);
		dump("budget-many", &o);
		gs_chart_out_release(&o);
	}

	/* many phases and many sweep points */
	{
		static gs_chart_phase many[24];
		static gs_chart_point mp[40];
		size_t i;

		memset(many, 0, sizeof(many));
		for (i = 0; i < 24; i++) {
			many[i].name = "warm_forward_repeat";
			many[i].allocated[GS_CHART_PEAK] = q(GIB((double)i), GS_PROV_OBSERVED);
			many[i].reserved[GS_CHART_PEAK] = q(GIB((double)i + 0.5), GS_PROV_OBSERVED);
			many[i].failed = i == 20;
		}
		CHECK(gs_chart_phases(&t, many, 24, &o) == 0);
		dump("phases-many", &o);
		gs_chart_out_release(&o);
		for (i = 0; i < 40; i++) {
			mp[i].x = 1000000 + i * 250000;
			mp[i].peak = q(GIB(10 + (double)i), GS_PROV_OBSERVED);
			mp[i].failed = i > 30;
		}
		CHECK(gs_chart_sweep(&t, mp, 40, NULL, 0, &o) == 0);
		dump("sweep-many", &o);
		gs_chart_out_release(&o);
	}

	/* 1,000 phases (finding D5: 10^6 phases drew a 769 MB SVG): only the
	 * GS_CHART_MAX_PHASES = 24 highest are drawn, in their order, and the
	 * title says so. Peaks are i GiB for phase i, so the chart must be, byte
	 * for byte, the one of phases 976..999 under the announced title. */
	{
		enum { N = 1000, K = GS_CHART_MAX_PHASES };
		static gs_chart_phase all[N], top[K];
		gs_chart_text tt = t, tk = t;
		gs_chart_out oa, ok;
		char title[200];
		size_t i;

		memset(all, 0, sizeof(all));
		for (i = 0; i < N; i++) {
			all[i].name = i % 2 ? "warm_forward" : "cold_forward";
			all[i].allocated[GS_CHART_PEAK] = q(GIB((double)i), GS_PROV_OBSERVED);
			all[i].reserved[GS_CHART_PEAK] = q(GIB((double)i + 0.5), GS_PROV_OBSERVED);
		}
		for (i = 0; i < K; i++)
			top[i] = all[N - K + i];
		tt.title = "Counters";
		snprintf(title, sizeof(title), "%d of %d phases (the highest peaks; all in the "
			 "table): Counters", K, N);
		tk.title = title;
		CHECK(gs_chart_phases(&tt, all, N, &oa) == 0);
		CHECK(gs_chart_phases(&tk, top, K, &ok) == 0);
		CHECK(same_buf(&oa.svg, &ok.svg));
		CHECK(oa.svg.len < 1000000);
		gs_chart_out_release(&oa);
		gs_chart_out_release(&ok);
	}

	/* bad arguments */
	CHECK(gs_chart_budget(&t, NULL, 1, NULL, 0, NULL, 0, &o) == -1);
	CHECK(gs_chart_phases(&t, NULL, 2, &o) == -1);
	CHECK(gs_chart_sweep(&t, NULL, 3, NULL, 0, &o) == -1);
	CHECK(gs_chart_budget(&t, NULL, 0, NULL, 0, NULL, 0, NULL) == -1);
}

static double now_ms(void)
{
	struct timespec ts;

	timespec_get(&ts, TIME_UTC);
	return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6;
}

static void timing(const char *name, render_fn f, const gs_chart_text *t)
{
	gs_chart_out o;
	double t0 = now_ms(), t1;
	size_t svg = 0, png = 0;
	int i, ok = 1;

	for (i = 0; i < 100; i++) {
		if (f(t, &o) != 0) {
			ok = 0;
			break;
		}
		svg = o.svg.len;
		png = o.png.len;
		gs_chart_out_release(&o);
	}
	t1 = now_ms();
	CHECK(ok);
	printf("%-8s %.2f ms per render (SVG + PNG), SVG %zu B, PNG %zu B\n",
	       name, (t1 - t0) / 100.0, svg, png);
}

/* UTF-8 of cp into b (NUL-terminated). */
static void utf8(uint32_t cp, char *b)
{
	if (cp < 0x80) {
		b[0] = (char)cp, b[1] = 0;
	} else if (cp < 0x800) {
		b[0] = (char)(0xC0 | (cp >> 6)), b[1] = (char)(0x80 | (cp & 63)), b[2] = 0;
	} else if (cp < 0x10000) {
		b[0] = (char)(0xE0 | (cp >> 12)), b[1] = (char)(0x80 | ((cp >> 6) & 63));
		b[2] = (char)(0x80 | (cp & 63)), b[3] = 0;
	} else {
		b[0] = (char)(0xF0 | (cp >> 18)), b[1] = (char)(0x80 | ((cp >> 12) & 63));
		b[2] = (char)(0x80 | ((cp >> 6) & 63)), b[3] = (char)(0x80 | (cp & 63)), b[4] = 0;
	}
}

/*
 * The built-in widths are Cairo's: every character of the Basic
 * Multilingual Plane and of the mathematical alphanumerics, in both
 * weights, at the body and title sizes, measured by Cairo with the
 * module's font options on the installed DejaVu fonts, equals the table
 * exactly (advances are whole font units scaled by size / 2048, exact in
 * binary). Characters the font lacks measure as its missing glyph in both.
 * Then whole strings: no kerning on either side.
 */
static void test_font_table(void)
{
	static const double sizes[] = { 12.0, 16.0 };
	static const char *const strings[] = {
		"Need 3.99 GiB \xe2\x80\x94 AVWAY To", "Pico reservado seg\xc3\xban el contexto",
		"\xe4\xb8\xad\xe6\x96\x87 RTX 4090 \xc3\x97 8", ""
	};
	cairo_surface_t *sf = cairo_image_surface_create(CAIRO_FORMAT_A8, 1, 1);
	cairo_t *cr = cairo_create(sf);
	int bold, z, differ = 0;
	uint32_t cp;
	size_t i;

	gs_chart_cairo_setup(cr);
	for (bold = 0; bold <= 1; bold++) {
		for (z = 0; z < 2; z++) {
			gs_chart_cairo_font(cr, sizes[z], bold);
			for (cp = 0x20; cp < 0x1D800; cp++) {
				char b[8];
				cairo_text_extents_t e;
				/* not text: surrogates and noncharacters (Cairo refuses
				 * them; the charts replace them with '?') */
				if ((cp >= 0xD800 && cp <= 0xDFFF) || (cp >= 0x10000 && cp < 0x1D400) ||
				    (cp >= 0xFDD0 && cp <= 0xFDEF) || (cp & 0xFFFEu) == 0xFFFEu)
					continue;
				utf8(cp, b);
				cairo_text_extents(cr, b, &e);
				if (e.x_advance != gs_fontmetrics_width(b, sizes[z], bold) && differ++ < 5)
					fprintf(stderr, "U+%04X bold %d size %g: cairo %.6f, table %.6f\n",
						(unsigned)cp, bold, sizes[z], e.x_advance,
						gs_fontmetrics_width(b, sizes[z], bold));
			}
			for (i = 0; i < sizeof(strings) / sizeof(strings[0]); i++) {
				cairo_text_extents_t e;
				cairo_text_extents(cr, strings[i], &e);
				if (e.x_advance != gs_fontmetrics_width(strings[i], sizes[z], bold) && differ++ < 5)
					fprintf(stderr, "\"%s\": cairo %.6f, table %.6f\n", strings[i],
						e.x_advance, gs_fontmetrics_width(strings[i], sizes[z], bold));
			}
		}
	}
	CHECK_INT(differ, 0);
	CHECK_INT(cairo_status(cr), CAIRO_STATUS_SUCCESS);
	cairo_destroy(cr);
	cairo_surface_destroy(sf);
	/* by hand: "A" 1401 + "V" 1401 units in DejaVu Sans = 2802 * 12 / 2048 = 16.41796875 px */
	CHECK_U64(gs_fontmetrics_units("AV", 0), 2802);
	CHECK(gs_fontmetrics_width("AV", 12.0, 0) == 16.41796875);
	/* a byte that is not UTF-8 is one missing glyph (1229 units) */
	CHECK_U64(gs_fontmetrics_units("\xff", 0), 1229);
	CHECK_U64(gs_fontmetrics_units("\xe4\xb8", 0), 1229 * 2);
}

/* A noncharacter in a title (U+FDD0, U+FFFE) is drawn as '?' in both
 * outputs: Cairo refuses such text, and the PNG used to fail. */
static void test_noncharacter_title(void)
{
	gs_chart_text t = text_en("Budget \xef\xb7\x90 \xef\xbf\xbe end");
	gs_chart_out o;

	CHECK(render_budget(&t, &o) == 0);
	CHECK(o.png.len > 0);
	CHECK(o.svg.len && strstr((const char *)o.svg.data, "<title id=\"title\">Budget ? ? end</title>"));
	gs_chart_out_release(&o);
}

int main(void)
{
	gs_chart_text en = text_en("Memory budget against per-card capacity");
	gs_chart_text es = text_es("Presupuesto de memoria frente a la capacidad por tarjeta");
	gs_chart_text ph_en = text_en("Counters per phase (device 0)");
	gs_chart_text sw_en = text_en("Peak reserved against context length");
	gs_chart_text sw_es = text_es("Pico reservado seg\xc3\xban el contexto");
	gs_chart_out a, b;
	int locale_ok;

	CHECK(gs_chart_cairo_font_check() == 0);
	test_font_table();
	test_noncharacter_title();

	check_stable("budget-en", render_budget, &en);
	check_stable("budget-es", render_budget, &es);
	check_stable("phases-en", render_phases, &ph_en);
	check_stable("sweep-en", render_sweep, &sw_en);
	check_stable("sweep-es", render_sweep, &sw_es);

	/* language changes the bytes (decimal comma on the ticks and labels) */
	CHECK(render_budget(&en, &a) == 0);
	CHECK(render_budget(&es, &b) == 0);
	CHECK(!same_buf(&a.svg, &b.svg));
	/*
	 * The words are text a search finds. Fixture: 14e9 B + 4 GiB + 2 GiB =
	 * 14e9 + 6 * 1073741824 = 20,442,450,944 B = 19.038... GiB -> "19.04
	 * GiB" bold over the bar (es: "19,04 GiB"); 24e9 B = 22.35 GiB, assumed.
	 */
	CHECK(has_text(&a, "Memory budget against per-card capacity"));
	CHECK(has_text(&a, "19.04 GiB"));
	CHECK(has_text(&b, "19,04 GiB"));
	CHECK(has_text(&a, "RTX 4090 (24 GB)"));
	CHECK(has_text(&a, "capacity 22.35 GiB \xc2\xb7 assumed"));
	CHECK(has_text(&a, "Memory (GiB)"));
	/* the description says every value in words, the missing one too */
	CHECK(strstr((const char *)a.svg.data, "<desc id=\"desc\">Weights (7B, 16-bit): "
		     "13.04 GiB \xc2\xb7 calculated; ") != NULL);
	CHECK(strstr((const char *)a.svg.data, "Evaluation buffers: missing; total: 19.04 GiB") != NULL);
	/* the title is the chart's title, escaped */
	CHECK(strstr((const char *)a.svg.data,
		     "<title id=\"title\">Memory budget against per-card capacity</title>") != NULL);

	/*
	 * Coordinates by the fixed-point writer: the value axis of the budget
	 * runs from x 72 to 338 at y 420 (B_X0, B_X1, B_Y1 in chart.c), drawn on
	 * the pixel centre 420 + 0.5: "M72 420.5H338", no trailing zeros, a
	 * horizontal line as H.
	 */
	CHECK(strstr((const char *)a.svg.data, "<path d=\"M72 420.5H338\"") != NULL);
	gs_chart_out_release(&b);
	/* a locale with a decimal comma (proved active) changes no byte; without
	 * the locale the test ends skipped, or failed under CI */
	locale_ok = gs_check_decimal_comma();
	CHECK(render_budget(&en, &b) == 0);
	if (locale_ok) {
		CHECK(same_buf(&a.svg, &b.svg));
		CHECK(same_buf(&a.png, &b.png));
		setlocale(LC_ALL, "C");
	}
	gs_chart_out_release(&a);
	gs_chart_out_release(&b);

	/* without GS_CHART_PNG there is no PNG, and the SVG is the same */
	CHECK(render_budget(&en, &a) == 0);
	en.flags = 0;
	CHECK(render_budget(&en, &b) == 0);
	en.flags = GS_CHART_PNG;
	CHECK(b.png.len == 0 && b.png.data[0] == '\0');
	CHECK(same_buf(&a.svg, &b.svg));
	gs_chart_out_release(&a);
	gs_chart_out_release(&b);

	/* markup in a label stays text: <, > and & are escaped */
	{
		gs_chart_text mt = text_en("<script>alert(1)</script> & \"q\"");

		CHECK(render_budget(&mt, &a) == 0);
		CHECK(strstr((const char *)a.svg.data, "<script") == NULL);
		CHECK(has_text(&a, "&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;q&quot;"));
		gs_chart_out_release(&a);
	}

	/*
	 * Bars: values with two decimals and the unit, the words after them;
	 * two group headings, three bars: rows start at 66 (title, then the
	 * legend's line at 54 + 12), + 5 rows of 22 px = 176, + 52 for the axis
	 * = 228 px high. The axis: the smallest step of 1, 2, 5 x 10^k
	 * hundredths giving at most 5 intervals up to 1,733.76 is 500.00 (20000
	 * would need 9), so 4 intervals: ticks "0.00" .. "2,000.00".
	 * Every value in the description; more than GS_CHART_MAX_BARS, or more
	 * than 6 decimals, is refused.
	 */
	{
		gs_chart_text bt = text_en("Total campaign cost per offer: seed-7b, USD");
		gs_chart_bar many[GS_CHART_MAX_BARS + 1];

		check_stable("bars-en", render_bars, &bt);
		CHECK(render_bars(&bt, &a) == 0);
		CHECK(has_text(&a, "47.14 USD \xe2\x9c\x94 retained"));
		CHECK(has_text(&a, "1,733.76 USD \xe2\x9c\x98 excluded"));
		CHECK(has_text(&a, "0.00 USD"));
		CHECK(has_text(&a, "40.00 GiB per card"));
		CHECK(has_text(&a, "2,000.00") && !has_text(&a, "2,500.00"));
		CHECK(has_text(&a, "retained") && has_text(&a, "excluded"));   /* the legend */
		CHECK(strstr((const char *)a.svg.data, "height=\"228\" viewBox=\"0 0 800 228\"") != NULL);
		CHECK(strstr((const char *)a.svg.data, "<desc id=\"desc\">rtx4090-1x: 47.14 USD, "
			     "\xe2\x9c\x94 retained; lambda-gpu_8x_a100: 1,733.76 USD, \xe2\x9c\x98 excluded; "
			     "free-1x: 0.00 USD</desc>") != NULL);
		CHECK(strstr((const char *)a.svg.data, "font-size=\"1") != NULL);
		gs_chart_out_release(&a);
		bt.lang = GS_LANG_ES;
		CHECK(render_bars(&bt, &a) == 0);
		/* es: decimal comma, a no-break space between thousands */
		CHECK(has_text(&a, "1\xc2\xa0" "733,76 USD \xe2\x9c\x98 excluded"));
		gs_chart_out_release(&a);
		memset(many, 0, sizeof(many));
		CHECK(gs_chart_bars(&bt, many, GS_CHART_MAX_BARS + 1, 2, "USD", &a) == -1);
		CHECK(a.svg.len == 0 && a.svg.data[0] == '\0');
		CHECK(gs_chart_bars(&bt, many, 1, 7, "USD", &a) == -1);
	}

	check_edges();

	timing("budget", render_budget, &en);
	timing("phases", render_phases, &ph_en);
	timing("sweep", render_sweep, &sw_en);

	/* let LeakSanitizer see only our own allocations */
	cairo_debug_reset_static_data();
	xmlCleanupParser();
	if (!locale_ok)
		return gs_check_locale_missing("test_chart", gs_check_exit("test_chart"));
	return gs_check_exit("test_chart");
}
