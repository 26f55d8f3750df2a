/*
 * sheet_words: the words of the sheet: labels expanded (gs_sheet_words_expand), figures with
 * their provenance, reasons in words, cells and charts, and the small
 * helpers every part of the sheet uses.
 */
#define _DEFAULT_SOURCE
#include "sheet_int.h"

#include "buf.h"

/* Label of each requirement, indexed by gs_req. */
const char *const gs_sheet_words_req_keys[GS_REQ_COUNT] = {
	"req.memory", "req.software", "req.calendar", "req.budget", "req.quality", "req.host", "req.regions",
	"req.speed"
};

const char *gs_sheet_words_verdict_symbol(gs_verdict_kind k)
{
	switch (k) {
	case GS_V_ADMISSIBLE: return "\xe2\x9c\x94";   /* ✔ */
	case GS_V_TO_CONFIRM: return "?";
	case GS_V_EXCLUDE: return "\xe2\x9c\x98";      /* ✘ */
	case GS_V_NOT_REQUIRED: break;
	}
	return "\xe2\x80\x94";                         /* — */
}

const char *gs_sheet_words_verdict_word(S_ctx *c, gs_verdict_kind k)
{
	static const char *const keys[] = { "verdict.admissible", "verdict.to_confirm",
					     "verdict.exclude", "verdict.not_required" };
	return TR(keys[k]);
}

const char *gs_sheet_words_prov(const gs_strings *t, gs_prov prov, int synthetic)
{
	return gs_tr(t, synthetic ? "prov.synthetic" : prov == GS_PROV_OBSERVED ? "prov.observed"
		     : prov == GS_PROV_CALCULATED ? "prov.calculated" : "prov.assumed");
}

/* The provenance of a figure in words: "assumed (synthetic measurement)"
 * for one read from a file not produced on a GPU. */
const char *gs_sheet_words_qprov(S_ctx *c, gs_qty q)
{
	return gs_sheet_words_prov(c->t, q.prov, q.synthetic);
}

/* "13.04 GiB (calculated)" or "missing". Caller frees. */
char *gs_sheet_words_qty_words(S_ctx *c, gs_qty q)
{
	char g[GS_FMT_MAX];

	if (!q.present)
		return gs_xstrdup(TR("word.missing"));
	return gs_xasprintf("%s (%s)", gs_qty_fmt_gib(g, q.bytes, c->lang), gs_sheet_words_qprov(c, q));
}

/* A margin with its provenance (gs_verdict_margin_prov of the need and the capacity). */
char *gs_sheet_words_signed_gib(S_ctx *c, int64_t v, gs_qty need, gs_qty capacity)
{
	char g[GS_FMT_MAX];
	uint64_t mag = gs_i64_mag(v);
	gs_qty q = gs_verdict_margin_prov(need, capacity);

	return gs_xasprintf("%s%s (%s)", v < 0 ? "\xe2\x88\x92" : "", gs_qty_fmt_gib(g, mag, c->lang),
			    gs_sheet_words_qprov(c, q));
}

/* Expands {a} {b} {w} {kv} {r} {split} {margin} {cost} {budget} {s1} {s2} {n1} {n2} {n3}
 * {t1} {t2} {t3} (token counts) {m1} {m2} (speeds, or times of a "ttft" reason) in a
 * label. Caller frees. */
char *gs_sheet_words_expand(S_ctx *c, const char *tpl, const gs_verdict *v)
{
	const char *p;
	gs_buf out = GS_BUF_INIT;

	for (p = tpl; *p;) {
		char *piece = NULL;
		size_t skip = 0;

		if (strncmp(p, "{a}", 3) == 0) {
			piece = gs_sheet_words_qty_words(c, v->a);
			skip = 3;
		} else if (p[0] == '{' && p[1] == 'n' && p[2] >= '1' && p[2] <= '3' && p[3] == '}') {
			const char *n = p[2] == '1' ? v->n1 : p[2] == '2' ? v->n2 : v->n3;
			piece = gs_xstrdup(n ? n : TR("word.missing"));
			skip = 4;
		} else if (strncmp(p, "{b}", 3) == 0) {
			piece = gs_sheet_words_qty_words(c, v->b);
			skip = 3;
		} else if (strncmp(p, "{margin}", 8) == 0) {
			piece = v->has_margin ? gs_sheet_words_signed_gib(c, v->margin, v->a, v->b)
					      : gs_xstrdup(TR("word.missing"));
			skip = 8;
		} else if (strncmp(p, "{cost}", 6) == 0 || strncmp(p, "{budget}", 8) == 0) {
			char m[GS_FMT_MAX], m2[GS_FMT_MAX];
			int is_cost = p[1] == 'c';
			if (is_cost && v->has_money && c->cost_mask)
				piece = gs_xstrdup("\3");
			else if (is_cost && v->has_money && c->cost_range && c->cost_hi != v->cost)
				piece = gs_xasprintf("%s–%s", gs_qty_fmt_money(m, v->cost, c->lang),
						     gs_qty_fmt_money(m2, c->cost_hi, c->lang));
			else
				piece = v->has_money ? gs_xstrdup(gs_qty_fmt_money(m, is_cost ? v->cost : v->budget, c->lang))
						     : gs_xstrdup(TR("word.missing"));
			skip = is_cost ? 6 : 8;
		} else if (strncmp(p, "{w}", 3) == 0) {
			piece = gs_sheet_words_qty_words(c, v->w);
			skip = 3;
		} else if (strncmp(p, "{r}", 3) == 0) {
			char b[GS_FMT_MAX];
			piece = v->r.present ? gs_xasprintf("%s B (%s)", gs_qty_fmt_int(b, v->r.bytes, c->lang),
							    gs_sheet_words_qprov(c, v->r))
					     : gs_xstrdup(TR("word.missing"));
			skip = 3;
		} else if (strncmp(p, "{kv}", 4) == 0) {
			piece = v->kv.present ? gs_sheet_words_qty_words(c, v->kv) : gs_xstrdup(TR("word.missing"));
			skip = 4;
		} else if (p[0] == '{' && p[1] == 't' && p[2] >= '1' && p[2] <= '3' && p[3] == '}') {
			char t[GS_FMT_MAX];
			uint64_t n = p[2] == '1' ? v->t1 : p[2] == '2' ? v->t2 : v->t3;
			piece = gs_xstrdup(v->has_tokens ? gs_qty_fmt_int(t, n, c->lang) : TR("word.missing"));
			skip = 4;
		} else if (p[0] == '{' && p[1] == 'm' && (p[2] == '1' || p[2] == '2') && p[3] == '}') {
			/* a speed or a time in thousandths, one decimal rounded up (a
			 * bound), or three decimals for a time */
			char t[GS_FMT_MAX];
			uint64_t n = p[2] == '1' ? v->m1 : v->m2;
			piece = gs_xstrdup(!v->has_milli ? TR("word.missing")
					   : strstr(v->why, "ttft") ? gs_speed_fmt_seconds(t, n * 1000u, c->lang)
					   /* a ratio in thousandths: three decimals, rounded down */
					   : p[2] == '2' && strstr(v->why, "observed_above")
					   ? gs_speed_fmt_seconds(t, n * 1000u, c->lang)
					   /* an expected figure: rounded down, it is no bound */
					   : p[2] == '1' && strstr(v->why, "expected_below")
					   ? gs_speed_fmt_down(t, n, c->lang)
					   : gs_speed_fmt(t, n, c->lang));
			skip = 4;
		} else if (strncmp(p, "{split}", 7) == 0) {
			piece = gs_xasprintf("%llu", (unsigned long long)v->split);
			skip = 7;
		} else if (strncmp(p, "{s1}", 4) == 0) {
			piece = gs_xstrdup(v->s1 ? v->s1 : TR("word.missing"));
			skip = 4;
		} else if (strncmp(p, "{s2}", 4) == 0) {
			piece = gs_xstrdup(v->s2 ? v->s2 : TR("word.missing"));
			skip = 4;
		}
		if (piece) {
			gs_buf_puts(&out, piece);
			free(piece);
			p += skip;
		} else {
			/* the text up to the next placeholder, at once */
			const char *brace = strchr(p + 1, '{');
			size_t n = brace ? (size_t)(brace - p) : strlen(p);

			gs_buf_put(&out, p, n);
			p += n;
		}
	}
	return gs_buf_detach(&out, NULL);
}

/* The reason of a verdict, with what a failure points to and why some
 * evidence does not decide. Caller frees. */
char *gs_sheet_words_reason(S_ctx *c, const gs_verdict *v)
{
	char *r = gs_sheet_words_expand(c, TR(v->why), v), *more;

	if (v->orientation) {
		more = gs_xasprintf("%s %s", r, TR(v->orientation));
		free(r);
		r = more;
	}
	if (v->note) {
		char *n = gs_sheet_words_expand(c, TR(v->note), v);
		more = gs_xasprintf("%s %s", r, n);
		free(n);
		free(r);
		r = more;
	}
	return r;
}

/* Cells: bytes | GB | GiB | provenance. */
void gs_sheet_words_size_cells(S_ctx *c, cmark_node *row, gs_qty q)
{
	char a[GS_FMT_MAX];

	if (!q.present) {
		gs_doc_cell_text(row, TR("word.missing"));
		gs_doc_cell_text(row, TR("word.missing"));
		gs_doc_cell_text(row, TR("word.missing"));
		gs_doc_cell_text(row, TR("word.missing"));
		return;
	}
	gs_doc_cell_text(row, gs_qty_fmt_int(a, q.bytes, c->lang));
	gs_doc_cell_text(row, gs_qty_fmt_fixed2(a, q.bytes, GS_GB, c->lang));
	gs_doc_cell_text(row, gs_qty_fmt_fixed2(a, q.bytes, GS_GIB, c->lang));
	gs_doc_cell_text(row, gs_sheet_words_qprov(c, q));
}

/* "1.00 GiB (1,073,741,824 B)" for counters; "missing" when not read. */
char *gs_sheet_words_counter(S_ctx *c, gs_opt_u64 v)
{
	char g[GS_FMT_MAX], b[GS_FMT_MAX];

	if (!v.has)
		return gs_xstrdup(TR("word.missing"));
	return gs_xasprintf("%s (%s B)", gs_qty_fmt_gib(g, v.v, c->lang), gs_qty_fmt_int(b, v.v, c->lang));
}

/* Is the evidence a verdict names a synthetic measurement of this sheet? */
int gs_sheet_words_evidence_synthetic(S_ctx *c, const char *file)
{
	size_t i;

	for (i = 0; file && i < c->in->nev; i++)
		if (strcmp(c->in->ev[i].ref->file, file) == 0)
			return c->in->ev[i].m->synthetic;
	return 0;
}

void gs_sheet_words_cell_owned(cmark_node *row, char *text)
{
	gs_doc_cell_text(row, text);
	free(text);
}

void gs_sheet_words_add_chart(S_ctx *c, const char *suffix, const char *title, gs_chart_out *o)
{
	gs_sheet *s = c->out;
	gs_sheet_chart *ch;
	cmark_node *p;
	char *svg, *png;

	s->charts = gs_xrealloc(s->charts, (s->ncharts + 1) * sizeof(*s->charts));
	ch = &s->charts[s->ncharts++];
	ch->name = gs_xasprintf("%s-%s", c->in->w->id, suffix);
	ch->title = gs_xstrdup(title);
	ch->out = *o;
	svg = gs_xasprintf("%s.svg", ch->name);
	p = gs_doc_para(c->root);
	gs_doc_image(p, svg, title);
	free(svg);
	if (!c->in->png)
		return;  /* PNG only when asked (--png) */
	png = gs_xasprintf("%s.png", ch->name);
	p = gs_doc_para(c->root);
	gs_doc_text(p, TR("chart.png_version"));
	gs_doc_text(p, " ");
	gs_doc_link(p, png, png);
	free(png);
}

void gs_sheet_words_chart_text(S_ctx *c, gs_chart_text *ct, const char *title)
{
	memset(ct, 0, sizeof(*ct));
	ct->flags = c->in->png ? GS_CHART_PNG : 0;
	ct->title = title;
	ct->axis_label = TR("chart.axis_gib");
	ct->x_label = NULL;
	ct->lang = c->lang;
	ct->calculated = TR("prov.calculated");
	ct->assumed = TR("prov.assumed");
	ct->observed = TR("prov.observed");
	ct->capacity = TR("chart.capacity");
	ct->peak = TR("chart.peak");
	ct->total = TR("chart.total");
	ct->missing = TR("word.missing");
	ct->failed = TR("status.failed");
	ct->not_run = TR("status.not_run");
	ct->succeeded = TR("status.ok");
	ct->allocated = TR("counter.allocated");
	ct->reserved = TR("counter.reserved");
	ct->start = TR("counter.start");
	ct->end = TR("counter.end");
}

/* What an exclusion rests on, in words. */
const char *gs_sheet_words_basis_key(gs_basis b)
{
	switch (b) {
	case GS_BASIS_OBSERVED_FAILURE: return "basis.observed_failure";
	case GS_BASIS_CALCULATED_CERTAINTY: return "basis.calculated_certainty";
	case GS_BASIS_CATALOG: return "basis.catalog";
	case GS_BASIS_NONE: break;
	}
	return "basis.catalog";
}

const char *gs_sheet_words_class_key(gs_class k)
{
	static const char *const keys[GS_CLASS_COUNT] = {
		"class.retained", "class.fits", "class.lower_bound_fits", "class.only_a_measurement",
		"class.capacity_unknown", "class.excluded", "class.reference"
	};
	return (unsigned)k < GS_CLASS_COUNT ? keys[k] : "class.excluded";
}

/* The class's short words, for a table's cells (the legend gives the words). */
const char *gs_sheet_words_class_short_key(gs_class k)
{
	static const char *const keys[GS_CLASS_COUNT] = {
		"class_short.retained", "class_short.fits", "class_short.lower_bound_fits",
		"class_short.only_a_measurement", "class_short.capacity_unknown", "class_short.excluded",
		"class_short.reference"
	};
	return (unsigned)k < GS_CLASS_COUNT ? keys[k] : "class_short.excluded";
}

/* The class's words. */
const char *gs_sheet_words_class_words(S_ctx *c, gs_class k)
{
	return TR(gs_sheet_words_class_key(k));
}

/* Appends pos to the growing array *a of *n positions: room for 4, then
 * doubled at each power of two (the count alone tells the room). */
void gs_sheet_words_pos_push(size_t **a, size_t *n, size_t pos)
{
	if (*n == 0)
		*a = gs_xmalloc(4 * sizeof(**a));
	else if (*n >= 4 && (*n & (*n - 1)) == 0)
		*a = gs_xrealloc(*a, 2 * *n * sizeof(**a));
	(*a)[(*n)++] = pos;
}

/* An id PREFIX + NAME given to node through set (gs_doc_row_id,
 * gs_doc_cell_link), built on the stack when it fits. */
void gs_sheet_words_anchor(gs_doc *doc, cmark_node *node, const char *prefix, const char *name,
		     void (*set)(gs_doc *, cmark_node *, const char *))
{
	char buf[256];
	size_t a = strlen(prefix), b = strlen(name);

	if (a + b < sizeof(buf)) {
		memcpy(buf, prefix, a);
		memcpy(buf + a, name, b + 1);
		set(doc, node, buf);
	} else {
		char *id = gs_xasprintf("%s%s", prefix, name);
		set(doc, node, id);
		free(id);
	}
}

int gs_sheet_words_cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return x < y ? -1 : x > y;
}

const char *gs_sheet_words_req_label(const gs_strings *t, gs_req r)
{
	return gs_tr(t, gs_sheet_words_req_keys[r]);
}

char *gs_sheet_words_reason_text(const gs_strings *t, const gs_verdict *v)
{
	S_ctx ctx;

	memset(&ctx, 0, sizeof(ctx));
	ctx.t = t;
	ctx.lang = t->lang;
	return gs_sheet_words_reason(&ctx, v);
}

int gs_sheet_words_same_qty(gs_qty a, gs_qty b)
{
	return a.present == b.present && a.synthetic == b.synthetic &&
	       (!a.present || (a.bytes == b.bytes && a.prov == b.prov));
}

int gs_sheet_words_same_str(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}
