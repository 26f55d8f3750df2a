/*
 * Sheet content, not only goldens: each case renders a sheet through the
 * real pipeline (readers, sizing, classification, sheet, Markdown) and
 * checks what a reader must see, so that a mutation of the sheet (a
 * provenance word swapped, a missing counter shown as 0, the synthetic
 * warning dropped, a sliding window ignored) fails a test other than a
 * golden.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "catalog.h"
#include "check.h"
#include "html.h"
#include "publish.h"
#include "render.h"
#include "sheet.h"
#include "labels.h"

#ifndef GS_TEST_SOURCE_DIR
#error "GS_TEST_SOURCE_DIR must name the source tree"
#endif

static char *S_path(const char *rel)
{
	char *p;

	if (asprintf(&p, "%s/%s", GS_TEST_SOURCE_DIR, rel) < 0)
		abort();
	return p;
}

/* 1: the sheets below borrow the catalog's masked notes
 * (gs_sheet_sources_notes_masked), as a site's do; 0: each sheet makes its own. */
static int S_notes_cache;

/* The Markdown sheet of the workload at wp against the catalog at cp
 * (NULL: the bundled one); its HTML body too when html. Caller frees. */
static char *S_sheet_md_cat(const char *wp, const char *cat_path, int accept_synthetic,
			    char **html)
{
	char *cp = cat_path ? strdup(cat_path) : S_path("catalog/offers.xml");
	char *sp = S_path("catalog/catalog.rng"), *md = NULL;
	gs_diag d = GS_DIAG_INIT;
	gs_catalog cat;
	gs_strings t;
	gs_job job;
	gs_decision dec;
	gs_sheet sheet;
	gs_sheet_input in;
	const char **links;
	char **notes = NULL;
	size_t i;

	if (gs_catalog_read(cp, sp, &cat, &d) || gs_tr_load(GS_LANG_EN, &t, &d) ||
	    gs_publish_load(wp, &cat, &job, &d)) {
		gs_diag_print(&d, stderr);
		abort();
	}
	gs_verdict_classify(&job.w, &job.s, job.ev, job.nev, &cat, accept_synthetic, &dec);
	links = calloc(job.nev + 1, sizeof(*links));
	for (i = 0; i < job.nev; i++)
		links[i] = "evidence/x.json";
	memset(&in, 0, sizeof(in));
	in.w = &job.w;
	in.s = &job.s;
	in.ev = job.ev;
	in.nev = job.nev;
	in.ev_links = links;
	in.cat = &cat;
	in.d = &dec;
	in.t = &t;
	in.catalog_name = "offers.xml";
	if (S_notes_cache) {
		notes = gs_sheet_sources_notes_masked(&cat);
		in.notes_masked = (const char *const *)notes;
	}
	if (gs_sheet_build(&in, &sheet))
		abort();
	md = gs_render_markdown(&sheet.doc);
	if (html)
		*html = gs_doc_html_render(&sheet.doc);
	gs_sheet_release(&sheet);
	gs_sheet_sources_notes_masked_free(notes, cat.noffers);
	free(links);
	gs_verdict_release(&dec);
	gs_publish_release(&job);
	gs_tr_release(&t);
	gs_catalog_release(&cat);
	gs_diag_release(&d);
	free(cp);
	free(sp);
	return md;
}

static char *S_sheet_md_at(const char *wp, int accept_synthetic)
{
	return S_sheet_md_cat(wp, NULL, accept_synthetic, NULL);
}

/* The same for a workload under the source tree. */
static char *S_sheet_md(const char *workload_rel, int accept_synthetic)
{
	char *wp = S_path(workload_rel), *md = S_sheet_md_at(wp, accept_synthetic);

	free(wp);
	return md;
}

/* The line of md that starts with prefix, or NULL; copied. Caller frees. */
static char *S_line(const char *md, const char *prefix)
{
	const char *p = md;
	size_t n = strlen(prefix);

	while (p && *p) {
		const char *e = strchr(p, '\n');
		if (strncmp(p, prefix, n) == 0)
			return e ? strndup(p, (size_t)(e - p)) : strdup(p);
		p = e ? e + 1 : NULL;
	}
	return NULL;
}

static void test_provenance_words(void)
{
	char *md = S_sheet_md("examples/seed-7b/workload.json", 0), *l;

	/* weights calculated, the reserve assumed, the KV cache calculated,
	 * the need assumed (it includes the reserve) */
	l = S_line(md, "| Weights only (7,000,000,000 x 16 / 8)");
	CHECK(l && strstr(l, "| 13.04 | calculated |"));
	free(l);
	l = S_line(md, "| Reserve: chosen reserve (6 GiB)");
	CHECK(l && strstr(l, "| 6.00 | assumed |"));
	free(l);
	l = S_line(md, "| KV cache (2 x 32 x 8 x 128 x 8,192 tokens x 2 B x 1)");
	CHECK(l && strstr(l, "| 1.00 | calculated |"));
	free(l);
	l = S_line(md, "| Calculated need per workload");
	CHECK(l && strstr(l, "| 20.04 | assumed |"));
	free(l);
	/* the margin carries its provenance in words */
	CHECK(strstr(md, "margin 3.60 GiB (assumed)") != NULL);
	/* no measurement: nothing reads observed */
	CHECK(strstr(md, "(observed)") == NULL);
	free(md);
}

static void test_synthetic_warning(void)
{
	char *md = S_sheet_md("examples/probe-dense/workload.json", 0), *l;

	CHECK(strstr(md, "> **Warning: synthetic measurement.**") != NULL);
	CHECK(strstr(md, "no verdict rests on them") != NULL);
	/* the counters read assumed (synthetic), never observed */
	l = S_line(md, "| cold\\_forward | first pass | 0 | succeeded | reserved |");
	CHECK(l && strstr(l, "| assumed, from a synthetic measurement |") && !strstr(l, "observed"));
	free(l);
	/* nothing is retained on it: the answer names the rentable card that
	 * holds the calculated need, not the reference card of the file */
	CHECK(strstr(md, "**Answer:** take `rtx4090-1x` (IteraGPU, 1 x RTX 4090) — its capacity per card holds the whole calculated need") != NULL);
	CHECK(strstr(md, "Only synthetic evidence exists for this card") != NULL);
	free(md);

	/* accepted: a demonstration, said on the decision line */
	md = S_sheet_md("examples/probe-dense/workload.json", 1);
	/* h200-1x, which the file would make admissible, is a reference card
	 * (no provider, no price): never proposed, even in a demonstration */
	CHECK(strstr(md, "**Decision (demonstration on synthetic evidence):** take `rtx4090-1x`") != NULL);
	CHECK(strstr(md, "Reference cards, never proposed: 10.") != NULL);
	CHECK(strstr(md, "> **Demonstration on synthetic evidence.**") != NULL);
	free(md);
}

static void test_missing_counter(void)
{
	char *md = S_sheet_md("tests/data/sheet/rules/lower-bound/workload.json", 1), *l;

	/* reserved.peak of cold_forward was not read: "missing", never 0 */
	l = S_line(md, "| cold\\_forward | first pass | 0 | succeeded | reserved |");
	CHECK(l && strstr(l, "| missing |") && !strstr(l, "| 0.00 GiB (0 B) |"));
	free(l);
	CHECK(strstr(md, "reserved.peak was not read in phase cold\\_forward, so this is a lower bound") != NULL);
	free(md);
}

static void test_sliding_window(void)
{
	char dir[] = "/tmp/gs-test-sheet-XXXXXX", *wp, *src, *text;
	FILE *f;
	long n;
	char *md, *l;

	/* seed-7b with a 4,096-token sliding window: the cache keeps
	 * min(7,680 + 512, 4,096) = 4,096 tokens: 0.50 GiB instead of 1 GiB */
	if (!mkdtemp(dir))
		abort();
	src = S_path("examples/seed-7b/workload.json");
	f = fopen(src, "rb");
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	text = calloc((size_t)n + 1, 1);
	if (fread(text, 1, (size_t)n, f) != (size_t)n)
		abort();
	fclose(f);
	{
		char *k = strstr(text, "\"head_dim\": 128");
		char *c = strstr(text, "\"kind\": \"dense\"");
		CHECK(k && c);
		if (!k || !c)
			return;
		if (asprintf(&wp, "%s/workload.json", dir) < 0)
			abort();
		f = fopen(wp, "wb");
		fwrite(text, 1, (size_t)(k - text), f);
		fputs("\"head_dim\": 128, \"sliding_window\": 4096", f);
		fwrite(k + strlen("\"head_dim\": 128"), 1, (size_t)(c - k - strlen("\"head_dim\": 128")), f);
		fputs("\"kind\": \"sliding\"", f);
		fputs(c + strlen("\"kind\": \"dense\""), f);
		fclose(f);
	}
	md = S_sheet_md_at(wp, 0);
	l = S_line(md, "| KV cache (2 x 32 x 8 x 128 x 4,096 tokens x 2 B x 1)");
	CHECK(l && strstr(l, "| 536,870,912 |") && strstr(l, "| 0.50 | calculated |"));
	free(l);
	CHECK(strstr(md, "| Sliding window (tokens) | 4,096 |") != NULL);
	CHECK(strstr(md, "A longer attention window than the declared one.") != NULL);
	free(md);
	remove(wp);
	rmdir(dir);
	free(wp);
	free(src);
	free(text);
}

/*
 * The distinct reasons of a hand-made decision. Three candidates in table
 * order 2, 0, 1; the texts are given (in.reasons), so no label is read.
 *   memory:   cand 2 "A", cand 0 "A" (one reason), cand 1 "A" with an
 *             evidence file (same text, another reason);
 *   budget:   cand 1 excludes with the same text "N" as the others' "not
 *             required" (another verdict: another reason);
 *   the rest: "not required", "N", one reason per requirement.
 * First appearance over cand 2, 0, 1 x memory..host:
 *   cand 2: memory 0, software 1, calendar 2, budget 3, quality 4, host 5
 *   cand 0: the same six
 *   cand 1: memory 6 (evidence), software 1, calendar 2, budget 7 (exclude),
 *           quality 4, host 5
 * so 8 reasons; reason 0 applies to positions 0 and 1 (cands 2 and 0),
 * reason 1 to all three, reasons 6 and 7 to position 2 only.
 */
static void test_reason_set(void)
{
	gs_candidate cands[3];
	size_t order[3] = { 2, 0, 1 };
	char *texts[3 * GS_REQ_COUNT];
	gs_decision dec;
	gs_sheet_input in;
	gs_sheet_reasonset rs;
	size_t c;
	int q;

	memset(cands, 0, sizeof(cands));
	for (c = 0; c < 3; c++)
		for (q = 0; q < GS_REQ_COUNT; q++) {
			gs_verdict *v = &cands[c].v[q];
			v->kind = q == GS_REQ_MEMORY ? GS_V_TO_CONFIRM : GS_V_NOT_REQUIRED;
			v->why = q == GS_REQ_MEMORY ? "why.m" : "why.x";
			texts[c * GS_REQ_COUNT + (size_t)q] = (char *)(q == GS_REQ_MEMORY ? "A" : "N");
		}
	cands[1].v[GS_REQ_MEMORY].evidence = "m.json";
	cands[1].v[GS_REQ_BUDGET].kind = GS_V_EXCLUDE;
	cands[1].v[GS_REQ_BUDGET].basis = GS_BASIS_CATALOG;
	memset(&dec, 0, sizeof(dec));
	dec.cands = cands;
	dec.ncands = 3;
	dec.order = order;
	memset(&in, 0, sizeof(in));
	in.d = &dec;
	in.reasons = texts;
	gs_sheet_reasons_set_build(&in, &rs);
	/* the regions and speed requirements, not required, are reasons of
	 * their own (6, 7) */
	if (CHECK_U64(rs.n, 10)) {
		CHECK(rs.r[0].req == GS_REQ_MEMORY && rs.r[0].v == &cands[2].v[GS_REQ_MEMORY]);
		CHECK_STR(rs.r[0].text, "A");
		CHECK(rs.r[0].npos == 2 && rs.r[0].pos[0] == 0 && rs.r[0].pos[1] == 1);
		CHECK(rs.r[1].req == GS_REQ_SOFTWARE && rs.r[1].npos == 3 && rs.r[1].pos[2] == 2);
		CHECK(rs.r[6].req == GS_REQ_REGIONS && rs.r[6].npos == 3);
		CHECK(rs.r[7].req == GS_REQ_SPEED && rs.r[7].npos == 3);
		CHECK(rs.r[8].req == GS_REQ_MEMORY && rs.r[8].npos == 1 && rs.r[8].pos[0] == 2);
		CHECK_STR(rs.r[8].v->evidence, "m.json");
		CHECK(rs.r[9].req == GS_REQ_BUDGET && rs.r[9].v->kind == GS_V_EXCLUDE &&
		      rs.r[9].npos == 1);
	}
	CHECK_U64(rs.of[0 * GS_REQ_COUNT + GS_REQ_MEMORY], 0);
	CHECK_U64(rs.of[2 * GS_REQ_COUNT + GS_REQ_MEMORY], 0);
	CHECK_U64(rs.of[1 * GS_REQ_COUNT + GS_REQ_MEMORY], 8);
	CHECK_U64(rs.of[1 * GS_REQ_COUNT + GS_REQ_BUDGET], 9);
	CHECK_U64(rs.of[0 * GS_REQ_COUNT + GS_REQ_BUDGET], 3);
	CHECK_U64(rs.of[1 * GS_REQ_COUNT + GS_REQ_HOST], 5);
	gs_sheet_reasons_set_release(&rs);
}

/*
 * gs_sheet_reasons copies a sentence already made for the same inputs: it
 * must give, for every verdict, the sentence made for it alone. Offers 0
 * and 1 have the same inputs; 2 another capacity, 3 the same capacity read
 * from a synthetic file ("assumed (synthetic measurement)"), 4 another GPU
 * model ({s1}); budgets: 0 and 4 the same cost, the others not.
 */
static void test_reasons_memo(void)
{
	gs_candidate cands[5];
	gs_decision dec;
	gs_strings t;
	gs_diag dg = GS_DIAG_INIT;
	char **r;
	size_t c;
	int q;

	memset(cands, 0, sizeof(cands));
	for (c = 0; c < 5; c++)
		for (q = 0; q < GS_REQ_COUNT; q++) {
			gs_verdict *v = &cands[c].v[q];
			v->kind = GS_V_TO_CONFIRM;
			v->why = q == GS_REQ_MEMORY ? "why.memory.calc_fits"
				: q == GS_REQ_BUDGET ? "why.budget.within" : "why.software.undocumented";
			v->a = gs_qty_make(20000000000ull, GS_PROV_CALCULATED);
			v->b = gs_qty_make(24000000000ull, GS_PROV_ASSUMED);
			v->margin = 4000000000;
			v->has_margin = 1;
			v->s1 = q == GS_REQ_BUDGET ? "USD" : "RTX 4090";
			v->has_money = q == GS_REQ_BUDGET;
			v->cost = 4714 + (int64_t)(c % 4);
			v->budget = 6000;
		}
	cands[2].v[GS_REQ_MEMORY].b.bytes = 48000000000ull;
	cands[3].v[GS_REQ_MEMORY].b.synthetic = 1;
	cands[4].v[GS_REQ_MEMORY].s1 = "RTX 6000 Ada";
	memset(&dec, 0, sizeof(dec));
	dec.cands = cands;
	dec.ncands = 5;
	if (!CHECK(gs_tr_load(GS_LANG_EN, &t, &dg) == 0)) {
		gs_diag_release(&dg);
		return;
	}
	r = gs_sheet_reasons(&t, &dec);
	for (c = 0; c < 5; c++)
		for (q = 0; q < GS_REQ_COUNT; q++) {
			char *alone = gs_sheet_words_reason_text(&t, &cands[c].v[q]);
			CHECK_STR(r[c * GS_REQ_COUNT + (size_t)q], alone);
			free(alone);
		}
	CHECK(strcmp(r[0], r[1 * GS_REQ_COUNT]) == 0);
	CHECK(strcmp(r[0], r[2 * GS_REQ_COUNT]) != 0);
	CHECK(strstr(r[3 * GS_REQ_COUNT], "synthetic") != NULL);
	CHECK(strstr(r[4 * GS_REQ_COUNT], "RTX 6000 Ada") != NULL);
	CHECK(strcmp(r[GS_REQ_BUDGET], r[4 * GS_REQ_COUNT + GS_REQ_BUDGET]) == 0);
	CHECK(strcmp(r[GS_REQ_BUDGET], r[1 * GS_REQ_COUNT + GS_REQ_BUDGET]) != 0);
	gs_sheet_reasons_free(r, dec.ncands);
	gs_tr_release(&t);
	gs_diag_release(&dg);
}

/* Each reason once, with the offers it applies to; the per-offer
 * paragraphs no longer repeat them. */
static void test_reasons_once(void)
{
	char *md = S_sheet_md("examples/seed-7b/workload.json", 0);
	const char *sw = strstr(md, "### Software\n\n");

	CHECK(sw != NULL);
	CHECK(strstr(md, "  - **? to confirm** for every offer (2). The catalog documents "
		      "no availability.") != NULL);
	CHECK(strstr(md, "  - **? to confirm** for `rtx4090-1x`. Calculated need 20.04 GiB") != NULL);
	CHECK(strstr(md, "  - **✔ admissible** for `rtx6000ada-1x`. The cheapest plan") != NULL);
	/* said once, not per offer */
	{
		const char *p = strstr(md, "The catalog documents no availability.");
		CHECK(p && !strstr(p + 1, "The catalog documents no availability."));
	}
	CHECK(strstr(md, "  - **Memory**:") == NULL);
	/* the offer's own facts are in its row: description, provider, the
	 * cost's arithmetic, its source and note by number */
	CHECK(strstr(md, "| `rtx4090-1x` RTX 4090, 1 x 24 GB nominal (assumed) "
		      "— IteraGPU |") != NULL);
	{
		const char *x = strstr(md, "| 47.14 USD = 1 x 72 h x 47.14 USD | ≤ 66.9 / ≤ 66.9; ≤ 23,592.9 | ≥ 2.7196 USD | 37,695; ");
		char *row = x ? strndup(x, strcspn(x, "\n")) : NULL;
		/* the tokens, the sequences and the class in short: the header
		 * and the legend above the table say them */
		CHECK(row && strstr(row, " (assumed) | ") &&
		      strstr(row, " | fits | source 1; note 1 |"));
		free(row);
	}
	/* the required dimensions in the headroom's header, not in every cell;
	 * the verdicts that are the same on every row one sentence */
	CHECK(strstr(md, "at 1 sequence(s); the most sequences at 8,192 tokens |") != NULL);
	CHECK(strstr(md, "The same verdict for every offer of the table, so not a column (its "
		      "reason below, under its requirement): Software: ? to confirm; Calendar: ? to "
		      "confirm; Quality: ? to confirm; Host: — not required; Regions: — not required; "
		      "Speed: — not required.") != NULL);
	CHECK(strstr(md, "| Offer | Capacity per card (GiB) | Memory | Budget | Price") != NULL);
	CHECK(strstr(md, "### rtx4090-1x") == NULL);
	/* each source and note once, numbered; a source of both the memory
	 * figure and the price of the same offers says so once */
	CHECK(strstr(md, "1.  IteraGPU GPU sheet: RTX 4090 — lot, capacity and plans (2026-11-01): "
		      "memory figure and price of `rtx4090-1x`.") != NULL);
	/* a price's evidence in a reason: its source by number */
	CHECK(strstr(md, "within the budget of 60.00 USD. Evidence: source 1.") != NULL);
	CHECK(strstr(md, "1.  `rtx4090-1x`, `rtx6000ada-1x`: Declared offer") != NULL);
	free(md);
}

/*
 * HTML escaping of the pages' strings (titles, navigation, the site's
 * cells): & < > " as entities (html.h; the apostrophe as it is: every
 * attribute gpusheet writes is double-quoted), runs of other bytes (UTF-8 included)
 * copied as they are, appended after what the buffer holds, terminated.
 */
static void test_html_escape(void)
{
	gs_buf b = GS_BUF_INIT;

	gs_html_escape_str(&b, "");
	CHECK_STR(b.data, "");
	gs_html_escape_str(&b, "a<b>&\"c'd");
	CHECK_STR(b.data, "a&lt;b&gt;&amp;&quot;c'd");
	gs_html_escape_str(&b, "<<é>>");
	CHECK_STR(b.data, "a&lt;b&gt;&amp;&quot;c'd&lt;&lt;é&gt;&gt;");
	CHECK_INT((int)b.len, (int)strlen(b.data));
	gs_buf_release(&b);
}

/* An offer of the grouping catalog: provider, id, price of 72 h, extra XML. */
static void S_offer_xml(FILE *f, const char *prov, const char *id, const char *price,
			const char *extra)
{
	fprintf(f, "  <offer id=\"%s\" provider=\"%s\">\n    <gpu model=\"RTX 4090\"/>\n"
		"    <lot cards=\"1\"/>\n    <memory nominal-gb=\"24\" source=\"sheet %s\" "
		"date=\"2026-11-01\"/>\n    <plan hours=\"72\" price=\"%s\" currency=\"USD\" "
		"source=\"sheet %s\" date=\"2026-11-01\"/>\n%s"
		"    <notes>Instance type %s of %s. A listing proves what is offered.</notes>\n"
		"  </offer>\n", id, prov, id, price, id, extra, strchr(id, '-') + 1, prov);
}

/*
 * Equivalent offers, one row (issue 25, item 6; issue 42, item 6): p-inst-a,
 * -b and -d differ only in price, q-inst-a is p-inst-a from another
 * provider: one row of the GPU model and cards, with the range and the
 * count of providers; p-inst-c is the same offer declared unavailable (its
 * calendar verdict differs): excluded, not a row. Every offer
 * keeps its fragment in the HTML; the calendar reason of 4 offers is said
 * once with the count; the notes that differ by the offer's name alone
 * are one.
 */
static void test_grouping(void)
{
	char cp[] = "/tmp/gs-test-group-XXXXXX";
	int fd = mkstemp(cp);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	char wp[] = "/tmp/gs-test-group-w-XXXXXX";
	char *md, *html = NULL, *row, *seed = S_path("examples/seed-7b/workload.json");
	json_t *w = json_load_file(seed, 0, NULL);
	int wfd = mkstemp(wp);

	/* seed-7b against every offer of the catalog: its candidates dropped */
	if (!CHECK(f != NULL && w != NULL && wfd >= 0))
		return;
	json_object_del(w, "candidates");
	CHECK(json_dumpfd(w, wfd, JSON_INDENT(2)) == 0);
	close(wfd);
	json_decref(w);
	free(seed);
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	      "<catalog xmlns=\"https://gpusheet.example/ns/catalog/1\" title=\"grouping\">\n", f);
	S_offer_xml(f, "P", "p-inst-a", "47.14", "");
	S_offer_xml(f, "P", "p-inst-b", "50.00", "");
	S_offer_xml(f, "P", "p-inst-c", "48.00",
		    "    <availability kind=\"unavailable\" source=\"sheet p-inst-c\" date=\"2026-11-01\"/>\n");
	S_offer_xml(f, "Q", "q-inst-a", "47.14", "");
	S_offer_xml(f, "P", "p-inst-d", "52.00", "");
	fputs("</catalog>\n", f);
	fclose(f);
	md = S_sheet_md_cat(wp, cp, 0, &html);
	{
		/* the catalog's masked notes made once and borrowed: the same bytes */
		char *md2, *html2 = NULL;
		S_notes_cache = 1;
		md2 = S_sheet_md_cat(wp, cp, 0, &html2);
		S_notes_cache = 0;
		CHECK(strcmp(md, md2) == 0);
		CHECK(html && html2 && strcmp(html, html2) == 0);
		free(md2);
		free(html2);
	}
	unlink(cp);
	unlink(wp);
	/* p-inst-a, -b, -d and q-inst-a: one row, the range of their
	 * campaign prices, the number of providers, every id */
	row = S_line(md, "| 2 providers · 1 x RTX 4090 · 24 GB nominal (assumed) · 4 offers "
		     "(`p-inst-a`, `q-inst-a`, `p-inst-b`, `p-inst-d`) |");
	CHECK(row != NULL);
	CHECK(row && strstr(row, "| 47.14–52.00 USD; 0.6547–0.7222 USD/h on-demand |"));
	CHECK(row && strstr(row, "| sources 1–4; notes 1–2 |") != NULL);
	free(row);
	/* p-inst-c (excluded by its calendar): not a row, counted by its lot
	 * in the short table, with its price per hour */
	CHECK(strstr(md, "| `p-inst-c` RTX 4090") == NULL);
	CHECK(strstr(md, "| Excluded | Calendar: ✘ exclude | 1 offer (prices calculated): `1 x RTX 4090`: `p-inst-c`, ") != NULL);
	CHECK(strstr(md, "| `q-inst-a` RTX 4090") == NULL);
	CHECK(strstr(md, "`p-inst-b` RTX 4090") == NULL);
	/* a reason over many offers: once, with the count (the verdict cells
	 * link to it) */
	CHECK(strstr(md, "  - **? to confirm** for 4 offers. The catalog documents no "
		      "availability.") != NULL);
	/* one note for the three of P in the table, as written for the first;
	 * Q's its own; the excluded p-inst-c's price cited in its reason */
	CHECK(strstr(md, "1.  `p-inst-a`, `p-inst-b`, `p-inst-d`, each naming its own instance "
		      "type, as written for `p-inst-a`: Instance type inst-a of P.") != NULL);
	CHECK(strstr(md, "  - **✔ admissible** for `p-inst-c`. The cheapest plan covering the campaign "
		      "costs 48.00 USD, within the budget of 60.00 USD. Evidence: `sheet p-inst-c` "
		      "(2026-11-01).") != NULL);
	CHECK(strstr(md, "Instance type inst-b of P.") == NULL);
	CHECK(strstr(md, "2.  `q-inst-a`: Instance type inst-a of Q.") != NULL);
	/* every offer keeps its fragment: the row's id, then each other
	 * offer's on its named id; an excluded offer's lot carries its
	 * (gs_sheet_offers_fragment) */
	CHECK(html && strstr(html, "<tr id=\"offer-p-inst-a\">\n<td>2 providers · 1 x") != NULL);
	CHECK(html && strstr(html, "(<code>p-inst-a</code>, <code id=\"offer-q-inst-a\">q-inst-a</code>, "
			     "<code id=\"offer-p-inst-b\">p-inst-b</code>, "
			     "<code id=\"offer-p-inst-d\">p-inst-d</code>)</td>") != NULL);
	CHECK(html && strstr(html, "\">Calendar: ✘ exclude</a></td>\n"
			     "<td>1 offer (prices calculated): <code id=\"lot-excluded-1x-rtx-4090\">1 x RTX 4090</code>: "
			     "<code>p-inst-c</code>, ") != NULL);
	CHECK(html && strstr(html, "<tr id=\"offer-q-inst-a\">") == NULL);
	/* the row's budget verdicts say three things: the link leads to them all */
	CHECK(html && strstr(html, "<a href=\"#reasons-budget\">✔</a>") != NULL);
	free(md);
	free(html);
}

/*
 * The masked notes of a catalog (gs_sheet_sources_notes_masked): the longest tail
 * of the id that the note holds, in any case, every occurrence one byte
 * \1; NULL without a note, or when only a tail under 4 bytes is named.
 */
static void test_notes_masked(void)
{
	static const char *const offers[][2] = {
		{ "hyperstack-n3-a100x1", "Instance type n3-A100x1 of Hyperstack; N3-a100X1 again." },
		{ "p-inst-a", "Instance type inst-a of P." },
		{ "abc-xyz", "The xyz lot." },
		{ "q-lot-9", NULL },
		{ "r-whole-id", "See R-WHOLE-ID, not whole-id." },
		{ "s-tail", "Ends with TAIL" },
	};
	static const char *const want[] = {
		"Instance type \1 of Hyperstack; \1 again.", "Instance type \1 of P.", NULL, NULL,
		"See \1, not whole-id.", "Ends with \1",
	};
	char cp[] = "/tmp/gs-test-notes-XXXXXX";
	int fd = mkstemp(cp);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	char *sp = S_path("catalog/catalog.rng"), **m;
	gs_diag d = GS_DIAG_INIT;
	gs_catalog cat;
	size_t i, n = sizeof(offers) / sizeof(offers[0]);

	if (!CHECK(f != NULL))
		return;
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	      "<catalog xmlns=\"https://gpusheet.example/ns/catalog/1\" title=\"notes\">\n", f);
	for (i = 0; i < n; i++) {
		fprintf(f, "  <offer id=\"%s\" provider=\"P\">\n    <gpu model=\"RTX 4090\"/>\n"
			"    <lot cards=\"1\"/>\n    <memory nominal-gb=\"24\" source=\"sheet\" "
			"date=\"2026-11-01\"/>\n    <plan hours=\"72\" price=\"47.14\" currency=\"USD\" "
			"source=\"sheet\" date=\"2026-11-01\"/>\n", offers[i][0]);
		if (offers[i][1])
			fprintf(f, "    <notes>%s</notes>\n", offers[i][1]);
		fputs("  </offer>\n", f);
	}
	fputs("</catalog>\n", f);
	fclose(f);
	if (gs_catalog_read(cp, sp, &cat, &d)) {
		gs_diag_print(&d, stderr);
		abort();
	}
	unlink(cp);
	CHECK_INT((int)cat.noffers, (int)n);
	m = gs_sheet_sources_notes_masked(&cat);
	for (i = 0; i < n; i++) {
		if (want[i])
			CHECK_STR(m[i], want[i]);
		else
			CHECK(m[i] == NULL);
	}
	gs_sheet_sources_notes_masked_free(m, cat.noffers);
	gs_catalog_release(&cat);
	gs_diag_release(&d);
	free(sp);
}

/* An offer whose memory figure and price cite line LINE of PROV's CSV file. */
static void S_offer_line_xml(FILE *f, const char *prov, const char *id, const char *price, int line)
{
	fprintf(f, "  <offer id=\"%s\" provider=\"%s\">\n    <gpu model=\"RTX 4090\"/>\n"
		"    <lot cards=\"1\"/>\n    <memory nominal-gb=\"24\" source=\"%s, file %s.csv, line %d\" "
		"date=\"2026-11-01\"/>\n    <plan hours=\"72\" price=\"%s\" currency=\"USD\" "
		"source=\"%s, file %s.csv, line %d\" date=\"2026-11-01\"/>\n"
		"    <notes>Instance type %s of %s.</notes>\n  </offer>\n",
		id, prov, prov, prov, line, price, prov, prov, line, strchr(id, '-') + 1, prov);
}

/*
 * The answer's size (issue 25, item 10): sources that differ by their line
 * numbers alone are one item listing the lines, a grouped row cites that
 * one item, and budget reasons that differ by the cost alone are one with
 * the range of the costs and the count.
 */
static void test_line_sources(void)
{
	char cp[] = "/tmp/gs-test-lines-XXXXXX";
	int fd = mkstemp(cp);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	char wp[] = "/tmp/gs-test-lines-w-XXXXXX";
	char *md, *html = NULL, *row, *spec, *m, *lines;
	char *specs[6];
	char *seed = S_path("examples/seed-7b/workload.json");
	json_t *w = json_load_file(seed, 0, NULL);
	int wfd = mkstemp(wp);
	gs_diag d = GS_DIAG_INIT;
	gs_strings t;
	size_t i;

	/* the mask and the lines' words */
	m = gs_sheet_sources_line_mask("Cudo, file c.csv, line 113: GpuInfo 81920 (undated)", &spec);
	CHECK(m && strcmp(m, "Cudo, file c.csv, \2: GpuInfo 81920 (undated)") == 0);
	CHECK(spec && strcmp(spec, "113") == 0);
	free(m);
	free(spec);
	m = gs_sheet_sources_line_mask("Lambda, file l.csv, lines 189-205", &spec);
	CHECK(m && strcmp(m, "Lambda, file l.csv, \2") == 0 && spec && strcmp(spec, "189-205") == 0);
	free(m);
	free(spec);
	CHECK(gs_sheet_sources_line_mask("an online sheet, guideline 3", &spec) == NULL && spec == NULL);
	if (!CHECK(gs_tr_load(GS_LANG_EN, &t, &d) == 0))
		return;
	specs[0] = "113", specs[1] = "8", specs[2] = "2", specs[3] = "9", specs[4] = "40", specs[5] = "8";
	lines = gs_sheet_sources_lines_text(&t, specs, 6);
	CHECK(strcmp(lines, "lines 2, 8, 9, 40 and 1 more") == 0);
	free(lines);
	specs[0] = "5, 6", specs[1] = "5, 6";
	lines = gs_sheet_sources_lines_text(&t, specs, 2);
	CHECK(strcmp(lines, "lines 5, 6") == 0);
	free(lines);
	specs[0] = "113";
	lines = gs_sheet_sources_lines_text(&t, specs, 1);
	CHECK(strcmp(lines, "line 113") == 0);
	free(lines);
	gs_tr_release(&t);
	gs_diag_release(&d);

	if (!CHECK(f != NULL && w != NULL && wfd >= 0))
		return;
	json_object_del(w, "candidates");
	CHECK(json_dumpfd(w, wfd, JSON_INDENT(2)) == 0);
	close(wfd);
	json_decref(w);
	free(seed);
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	      "<catalog xmlns=\"https://gpusheet.example/ns/catalog/1\" title=\"lines\">\n", f);
	S_offer_line_xml(f, "P", "p-inst-a", "47.14", 9);
	S_offer_line_xml(f, "P", "p-inst-b", "50.00", 3);
	S_offer_line_xml(f, "P", "p-inst-d", "52.00", 5);
	S_offer_line_xml(f, "Q", "q-inst-a", "48.00", 2);
	fputs("</catalog>\n", f);
	fclose(f);
	md = S_sheet_md_cat(wp, cp, 0, &html);
	unlink(cp);
	unlink(wp);
	/* one source for P's three offers, its lines listed, in order */
	CHECK(strstr(md, "1.  P, file P.csv, lines 3, 5, 9 (2026-11-01): memory figure and price of "
		      "`p-inst-a`, `p-inst-b`, `p-inst-d`.") != NULL);
	CHECK(strstr(md, "line 9 (2026-11-01)") == NULL);
	/* the grouped row (Q's offer too) cites that item and Q's */
	row = S_line(md, "| 2 providers · 1 x RTX 4090 · 24 GB nominal (assumed) · 4 offers "
		     "(`p-inst-a`, `q-inst-a`, `p-inst-b`, `p-inst-d`) |");
	CHECK(row && strstr(row, "| sources 1–2; notes 1–2 |") != NULL);
	free(row);
	/* one budget reason for P's costs, with the range and the count; its
	 * evidence by the source's number; Q's its own */
	CHECK(strstr(md, "  - **✔ admissible** for `p-inst-a`, `p-inst-b`, `p-inst-d`. The cheapest plan "
		      "covering the campaign costs 47.14–52.00 USD, within the budget of") != NULL);
	CHECK(strstr(md, "costs 50.00 USD") == NULL);
	CHECK(strstr(md, "  - **✔ admissible** for `q-inst-a`. The cheapest plan covering the campaign "
		      "costs 48.00 USD") != NULL);
	/* the row's budget verdicts say two things (P's, Q's): the link
	 * leads to the budget's reasons */
	CHECK(html && strstr(html, "<a href=\"#reasons-budget\">") != NULL);
	for (i = 0; html && i < 1; i++)
		CHECK(strstr(html, "id=\"source-1\"") != NULL);
	free(md);
	free(html);
}

int main(void)
{
	test_html_escape();
	test_provenance_words();
	test_synthetic_warning();
	test_missing_counter();
	test_sliding_window();
	test_reason_set();
	test_reasons_memo();
	test_reasons_once();
	test_grouping();
	test_notes_masked();
	test_line_sources();
	return gs_check_exit("test_sheet");
}
