/*
 * sheet_offers: the candidates: equivalent offers as one row, the candidates
 * table with its sources and notes by number, the compact table of the
 * excluded offers and those of unknown capacity.
 */
#define _DEFAULT_SOURCE
#include "sheet_int.h"

/*
 * Equivalent offers, one row: offers alike in every column that takes part
 * in the row identity (sheet_columns.c: the lot, its capacity, class,
 * headroom, speed, the kinds of plan and their currencies, the same reason
 * for every requirement but the budget and the same budget verdict). Their
 * prices, and so their budget reasons, may differ: the row gives the range.
 * Grouped by the columns' hash, in one pass over the offers in table
 * order: a row stands where its first (best ranked) offer stands, its
 * offers in table order.
 */
typedef struct {
	size_t first;      /* position in d->order of its first offer */
	size_t n;          /* its offers */
	size_t last;       /* position of its last offer (while grouping) */
	uint64_t hash;
} S_row;

typedef struct {
	S_row *row;
	size_t nrow;
	size_t *next;      /* next[pos]: the next offer of pos's row, SIZE_MAX after the last */
} S_rows;

static void S_rows_build(const S_ctx *c, const gs_sheet_reasonset *rs, S_rows *rw)
{
	const gs_decision *d = c->in->d;
	size_t n = d->ncands, nslot = 16, i;
	size_t *slot;

	while (nslot < 2 * n)
		nslot *= 2;
	slot = gs_xcalloc(nslot, sizeof(*slot));
	rw->row = gs_xmalloc((n + 1) * sizeof(*rw->row));
	rw->next = gs_xmalloc((n + 1) * sizeof(*rw->next));
	rw->nrow = 0;
	for (i = 0; i < n; i++) {
		size_t ci = d->order[i], g = SIZE_MAX, k = 0;
		uint64_t h = 0;

		rw->next[i] = SIZE_MAX;
		{
			h = gs_sheet_columns_row_hash(c, rs, ci);
			for (k = (size_t)h & (nslot - 1); slot[k]; k = (k + 1) & (nslot - 1)) {
				const S_row *o = &rw->row[slot[k] - 1];
				if (o->hash == h && gs_sheet_columns_same_row(c, rs, d->order[o->first], ci)) {
					g = slot[k] - 1;
					break;
				}
			}
		}
		if (g == SIZE_MAX) {
			g = rw->nrow++;
			rw->row[g].first = rw->row[g].last = i;
			rw->row[g].n = 1;
			rw->row[g].hash = h;
			slot[k] = g + 1;
		} else {
			rw->next[rw->row[g].last] = i;
			rw->row[g].last = i;
			rw->row[g].n++;
		}
	}
	free(slot);
}

static int S_compact(const gs_candidate *cd);

/* The rows, for the decision section that names them (c->row_n). */
static void S_rows_keep(S_ctx *c, const S_rows *rw)
{
	const gs_decision *d = c->in->d;
	size_t g, i;

	free(c->row_n);
	c->row_n = gs_xcalloc(d->ncands + 1, sizeof(*c->row_n));
	for (g = 0; g < rw->nrow; g++)
		for (i = rw->row[g].first; i != SIZE_MAX; i = rw->next[i])
			if (S_compact(&d->cands[d->order[i]]))
				c->row_n[i] = 1;
			else if (i == rw->row[g].first)
				c->row_n[i] = rw->row[g].n;
}

static void S_rows_release(S_rows *rw)
{
	free(rw->row);
	free(rw->next);
}

/* `ID` whose HTML element is the fragment #offer-ID */
static void S_code_anchor(S_ctx *c, cmark_node *cell, const char *id)
{
	char buf[256];

	if (strlen(id) + 6 < sizeof(buf)) {
		snprintf(buf, sizeof(buf), "offer-%s", id);
		gs_doc_code_id(c->doc, cell, id, buf);
	} else {
		char *a = gs_xasprintf("offer-%s", id);
		gs_doc_code_id(c->doc, cell, id, a);
		free(a);
	}
}

/* Excluded offers and those of unknown capacity are not rows of the table:
 * their verdict that decides, and the offers it decides, in a short table. */
static int S_compact(const gs_candidate *cd)
{
	return cd->cls == GS_CLASS_EXCLUDED || cd->cls == GS_CLASS_UNKNOWN;
}

/* The verdict that decides a compact offer's class: an exclusion (each),
 * or the memory verdict of an offer of unknown capacity. */
static int S_deciding(const gs_candidate *cd, int q)
{
	return cd->cls == GS_CLASS_EXCLUDED ? cd->v[q].kind == GS_V_EXCLUDE : q == GS_REQ_MEMORY;
}

/*
 * The compact offers grouped by their class, the requirement whose verdict
 * decides it and that verdict's kind of reason (its label key: "above the
 * budget", whatever the cost): a row per group in order of its first offer
 * in the table, its offers in table order, each named, and each offer's
 * fragment (#offer-ID) in its first group's cell; the verdict links to the
 * reason (budget reasons merged, rep), or to the requirement's reasons when
 * the group's offers have several. An offer excluded by two requirements
 * is in two groups: named in both, or, beside a table of more than
 * GS_SHEET_FEW_OFFERS rows (c->count_offers), when more than
 * GS_SHEET_FEW_OFFERS offers of a group are named above, named in the
 * first and counted in the other.
 */
static void S_compact_table(S_ctx *c, const gs_sheet_reasonset *rs, const size_t *rep,
			    char *vtext[4][2])
{
	const gs_decision *d = c->in->d;
	const char *h[3];
	size_t n = d->ncands, i, j, g, ng = 0;
	size_t *gcls = NULL, *gq = NULL, *gwhy = NULL, *gnext, *glast = NULL, *gfirst = NULL;
	unsigned char *gmixed = NULL;
	unsigned char *named;
	cmark_node *tb = NULL, *r, *cell, *p;
	int q;

	for (i = 0; i < n && !S_compact(&d->cands[d->order[i]]); i++)
		;
	if (i == n)
		return;
	gnext = gs_xmalloc((n * GS_REQ_COUNT + 1) * sizeof(*gnext));
	named = gs_xcalloc(n + 1, 1);
	for (i = 0; i < n; i++) {
		size_t ci = d->order[i];
		const gs_candidate *cd = &d->cands[ci];
		for (q = 0; q < GS_REQ_COUNT; q++) {
			size_t k = i * GS_REQ_COUNT + (size_t)q, why;
			gnext[k] = SIZE_MAX;
			if (!S_compact(cd) || !S_deciding(cd, q))
				continue;
			why = rep[rs->of[ci * GS_REQ_COUNT + (size_t)q]];
			for (g = 0; g < ng; g++) {
				const gs_verdict *u = &d->cands[d->order[gfirst[g] / GS_REQ_COUNT]].v[q];
				const gs_verdict *v = &cd->v[q];
				if (gcls[g] == (size_t)cd->cls && gq[g] == (size_t)q && u->kind == v->kind &&
				    !u->synthetic == !v->synthetic && gs_sheet_words_same_str(u->why, v->why))
					break;
			}
			if (g == ng) {
				gcls = gs_xrealloc(gcls, (ng + 1) * sizeof(*gcls));
				gq = gs_xrealloc(gq, (ng + 1) * sizeof(*gq));
				gwhy = gs_xrealloc(gwhy, (ng + 1) * sizeof(*gwhy));
				gfirst = gs_xrealloc(gfirst, (ng + 1) * sizeof(*gfirst));
				glast = gs_xrealloc(glast, (ng + 1) * sizeof(*glast));
				gmixed = gs_xrealloc(gmixed, ng + 1);
				gmixed[g] = 0;
				gcls[g] = (size_t)cd->cls;
				gq[g] = (size_t)q;
				gwhy[g] = why;
				gfirst[g] = glast[g] = k;
				ng++;
			} else {
				gnext[glast[g]] = k;
				glast[g] = k;
				gmixed[g] |= why != gwhy[g];
			}
		}
	}
	p = gs_doc_para(c->root);
	gs_doc_text(p, TR("cand.compact_intro"));
	h[0] = TR("col.overall");
	h[1] = TR("col.deciding");
	h[2] = TR("col.offers");
	for (g = 0; g < ng; g++) {
		size_t cnt = 0, k, again;
		int count;
		gs_verdict_kind kind;
		int syn;
		char num[GS_DEC_MAX + 1];
		for (k = gfirst[g]; k != SIZE_MAX; k = gnext[k])
			cnt++;
		{
			const gs_verdict *v = &d->cands[d->order[gfirst[g] / GS_REQ_COUNT]].v[gq[g]];
			kind = v->kind;
			syn = v->synthetic && v->kind != GS_V_TO_CONFIRM;
		}
		if (!tb)
			tb = gs_doc_table(c->doc, c->root, TR("cap.compact"), 3, h);
		r = gs_doc_row(tb);
		gs_doc_cell_text(r, gs_sheet_words_class_words(c, (gs_class)gcls[g]));
		cell = gs_doc_cell(r);
		gs_doc_textf(cell, "%s: %s", TR(gs_sheet_words_req_keys[gq[g]]), vtext[kind][syn]);
		num[GS_DEC_MAX] = '\0';
		if (gmixed[g])
			gs_sheet_words_anchor(c->doc, cell, "reasons-", gs_verdict_req_id((gs_req)gq[g]), gs_doc_cell_link);
		else
			gs_sheet_words_anchor(c->doc, cell, "why-", gs_dec(num, gwhy[g], 0), gs_doc_cell_link);
		cell = gs_doc_cell(r);
		if (cnt > 1)
			gs_doc_textf(cell, "%zu %s: ", cnt, TR("cand.offers"));
		/* sheets/ID.html#offer-OFFER: the site's pages link to each
		 * offer, whose id (in its first group) carries the fragment;
		 * beside a long table, the offers named in a group above are
		 * counted, not named again, when they are more than a few */
		for (k = gfirst[g], again = 0; k != SIZE_MAX; k = gnext[k])
			again += named[k / GS_REQ_COUNT];
		count = c->count_offers && again > GS_SHEET_FEW_OFFERS;
		for (k = gfirst[g], j = 0; k != SIZE_MAX; k = gnext[k]) {
			const char *id = d->cands[d->order[k / GS_REQ_COUNT]].offer->id;
			if (named[k / GS_REQ_COUNT] && count)
				continue;
			if (j++)
				gs_doc_text(cell, ", ");
			if (named[k / GS_REQ_COUNT]) {
				gs_doc_code(cell, id);
				continue;
			}
			named[k / GS_REQ_COUNT] = 1;
			S_code_anchor(c, cell, id);
		}
		if (count)
			gs_doc_textf(cell, "%s%zu %s", j ? "; " : "", again, TR("cand.named_above"));
	}
	free(gcls);
	free(gq);
	free(gwhy);
	free(gfirst);
	free(glast);
	free(gmixed);
	free(gnext);
	free(named);
}

/* The sources and catalog notes the offers share, numbered once in table
 * order, the offers of a row one after the other (SIZE_MAX: none). */
static void S_share(S_ctx *c, const S_rows *rw, size_t *src_of, size_t *note_of,
		    gs_sheet_sharedset *sources, gs_sheet_sharedset *notes)
{
	const gs_decision *d = c->in->d;
	size_t g, i;

	for (g = 0; g < rw->nrow; g++)
		for (i = rw->row[g].first; i != SIZE_MAX; i = rw->next[i]) {
			const gs_candidate *cd = &d->cands[d->order[i]];
			char w1[256];

			src_of[2 * i] = src_of[2 * i + 1] = note_of[i] = SIZE_MAX;
			if (S_compact(cd))
				continue;
			if (!cd->offer->memory_unknown)
				src_of[2 * i] = gs_sheet_sources_share_source(sources, gs_xasprintf("%s (%s)",
					cd->offer->memory_claim.source,
					gs_catalog_claim_when(&cd->offer->memory_claim, TR("claim.undated"), w1, sizeof(w1))), 0, i);
			if (cd->plan)
				src_of[2 * i + 1] = gs_sheet_sources_share_source(sources, gs_xasprintf("%s (%s)",
					cd->plan->claim.source,
					gs_catalog_claim_when(&cd->plan->claim, TR("claim.undated"), w1, sizeof(w1))), 1, i);
			if (cd->offer->notes) {
				char *masked = gs_sheet_sources_offer_note_masked(c, cd->offer);
				note_of[i] = masked
					? gs_sheet_sources_share_shown(notes, masked, gs_xstrdup(cd->offer->notes), 0, i)
					: gs_sheet_sources_share(notes, gs_xstrdup(cd->offer->notes), 0, i);
			}
		}
}

/* A requirement whose verdict and reason are the same for every offer of
 * the table is one sentence above it, not a column (t->same); whether any
 * row has a headroom. Returns the table's rows; *f0, the first's offer. */
static size_t S_same(gs_sheet_cands *t, const S_rows *rw, size_t *f0)
{
	const gs_decision *d = t->c->in->d;
	const size_t *of = t->rs->of, *rep = t->rep;
	size_t g, i, ntab = 0;
	int q;

	for (q = 0; q < GS_REQ_COUNT; q++)
		t->same[q] = 1;
	for (g = 0; g < rw->nrow && S_compact(&d->cands[d->order[rw->row[g].first]]); g++)
		;
	*f0 = g < rw->nrow ? d->order[rw->row[g].first] : 0;
	for (g = 0; g < rw->nrow; g++) {
		size_t first = rw->row[g].first;
		if (S_compact(&d->cands[d->order[first]]))
			continue;
		for (i = first; i != SIZE_MAX; i = rw->next[i])
			for (q = 0; q < GS_REQ_COUNT; q++)
				if (rep[of[d->order[i] * GS_REQ_COUNT + (size_t)q]] !=
				    rep[of[*f0 * GS_REQ_COUNT + (size_t)q]])
					t->same[q] = 0;
		t->any_room |= d->cands[d->order[first]].has_headroom;
		t->cls_shown[d->cands[d->order[first]].cls] = 1;
		ntab++;
	}
	return ntab;
}

/* What the table's cells write short, once above it: a verdict is its
 * symbol (linked to its reason), a class its short words. */
static void S_legend(gs_sheet_cands *t)
{
	S_ctx *c = t->c;
	cmark_node *p = gs_doc_para(c->root);
	int q, n = 0;

	gs_doc_text(p, TR("cand.legend_verdicts"));
	for (q = 0; q < 4; q++)
		gs_doc_textf(p, "%s %s", q ? "," : "", t->vtext[q][0]);
	gs_doc_textf(p, ". %s", TR("cand.legend_classes"));
	for (q = 0; q < GS_CLASS_COUNT; q++)
		if (t->cls_shown[q])
			gs_doc_textf(p, "%s %s: %s", n++ ? ";" : "", t->w_status[q],
				     gs_sheet_words_class_words(c, (gs_class)q));
	gs_doc_text(p, ".");
}

/* The sentence of what every row shares, the legend, then the table with
 * the shown columns' headers. */
static cmark_node *S_table(gs_sheet_cands *t, size_t f0)
{
	S_ctx *c = t->c;
	const gs_decision *d = c->in->d;
	const char **h = gs_xmalloc(gs_sheet_ncolumns * sizeof(*h));
	char **owned = gs_xmalloc(gs_sheet_ncolumns * sizeof(*owned));
	size_t ncols = 0, k;
	cmark_node *tb, *p = NULL;
	int q, n = 0;

	for (q = 0; q < GS_REQ_COUNT; q++) {
		const gs_verdict *v = &d->cands[f0].v[q];
		if (!t->same[q])
			continue;
		if (!n++) {
			p = gs_doc_para(c->root);
			gs_doc_text(p, TR("cand.same_all"));
		}
		gs_doc_textf(p, "%s %s: %s", n > 1 ? ";" : "", TR(gs_sheet_words_req_keys[q]),
			     t->vtext[v->kind][v->synthetic && v->kind != GS_V_TO_CONFIRM]);
	}
	if (n)
		gs_doc_text(p, ".");
	S_legend(t);
	for (k = 0; k < gs_sheet_ncolumns; k++)
		if (gs_sheet_columns_shown(t, k))
			h[ncols] = owned[ncols] = gs_sheet_columns_header(c, k), ncols++;
	tb = gs_doc_table(c->doc, c->root, TR("cap.candidates"), ncols, h);
	for (k = 0; k < ncols; k++)
		free(owned[k]);
	free(owned);
	free(h);
	return tb;
}

/* A row per group of equivalent offers (the compact ones left out), its
 * shown columns' cells; sheets/ID.html#offer-OFFER: the site's matrix and
 * offer pages link to the offer's row. */
static void S_rows_write(gs_sheet_cands *t, cmark_node *tb, const S_rows *rw)
{
	const gs_decision *d = t->c->in->d;
	size_t g, k;

	for (g = 0; g < rw->nrow; g++) {
		size_t first = rw->row[g].first;
		const gs_candidate *cd = &d->cands[d->order[first]];
		cmark_node *r;

		if (S_compact(cd))
			continue;
		r = gs_doc_row(tb);
		gs_sheet_words_anchor(t->c->doc, r, "offer-", cd->offer->id, gs_doc_row_id);
		for (k = 0; k < gs_sheet_ncolumns; k++)
			if (gs_sheet_columns_shown(t, k))
				gs_sheet_columns[k].cell(t, gs_sheet_columns[k].arg, r, first, rw->row[g].n);
	}
}

void gs_sheet_offers_candidates(S_ctx *c)
{
	const gs_decision *d = c->in->d;
	gs_sheet_cands t;
	gs_sheet_reasonset own;
	const gs_sheet_reasonset *rs = c->in->rs;
	gs_sheet_sharedset sources = { 0 }, notes = { 0 };
	S_rows rw;
	size_t *src_of, *note_of, *rep, *rnext, ntab, f0;
	cmark_node *tb = NULL, *p;
	int q;

	if (!rs) {
		gs_sheet_reasons_set_build(c->in, &own);
		rs = &own;
	}
	S_rows_build(c, rs, &rw);
	rep = gs_xmalloc((rs->n + 1) * sizeof(*rep));
	rnext = gs_xmalloc((rs->n + 1) * sizeof(*rnext));
	gs_sheet_reasons_budget_merge(c, rs, rep, rnext);
	src_of = gs_xmalloc((2 * d->ncands + 1) * sizeof(*src_of));
	note_of = gs_xmalloc((d->ncands + 1) * sizeof(*note_of));
	S_share(c, &rw, src_of, note_of, &sources, &notes);

	memset(&t, 0, sizeof(t));
	t.c = c;
	t.rs = rs;
	t.rep = rep;
	t.next = rw.next;
	t.src_of = src_of;
	t.note_of = note_of;
	t.nums = gs_xmalloc((3 * d->ncands + 1) * sizeof(*t.nums));
	t.any_speed = gs_sheet_speed_any(d);
	ntab = S_same(&t, &rw, &f0);
	/* What every row repeats, looked up and formatted once: the verdict
	 * cells' texts (by kind, then synthetic), the classes' words. */
	for (q = 0; q < 4; q++) {
		t.vtext[q][0] = gs_xasprintf("%s %s", gs_sheet_words_verdict_symbol((gs_verdict_kind)q),
					     gs_sheet_words_verdict_word(c, (gs_verdict_kind)q));
		t.vtext[q][1] = gs_xasprintf("%s%s", t.vtext[q][0], TR("verdict.synthetic_suffix"));
		t.vshort[q][0] = gs_xstrdup(gs_sheet_words_verdict_symbol((gs_verdict_kind)q));
		t.vshort[q][1] = gs_xasprintf("%s%s", t.vshort[q][0], TR("verdict.synthetic_suffix"));
	}
	for (q = 0; q < GS_CLASS_COUNT; q++)
		t.w_status[q] = TR(gs_sheet_words_class_short_key((gs_class)q));
	gs_doc_heading(c->root, 2, TR("sec.candidates"));
	p = gs_doc_para(c->root);
	gs_doc_text(p, TR("cand.intro"));
	if (ntab)
		tb = S_table(&t, f0);
	t.cap_marks = c->count_offers = ntab > GS_SHEET_FEW_OFFERS;
	S_rows_write(&t, tb, &rw);
	gs_sheet_columns_cap_bases(&t);
	if (t.unstated) {
		p = gs_doc_para(c->root);
		gs_doc_textf(p, "† %s", TR("cand.billing_mark"));
	}
	if (ntab)
		gs_sheet_speed_para(c);
	S_compact_table(c, rs, rep, t.vtext);
	for (q = 0; q < 4; q++) {
		free(t.vtext[q][0]);
		free(t.vtext[q][1]);
		free(t.vshort[q][0]);
		free(t.vshort[q][1]);
	}

	gs_sheet_reasons_section(c, rs, &sources, rep, rnext);
	free(rep);
	free(rnext);
	if (rs == &own)
		gs_sheet_reasons_set_release(&own);
	gs_sheet_sources_shared_list(c, &sources, "cand.sources", "sources", "source", 1);
	gs_sheet_sources_shared_list(c, &notes, "cand.notes", "catalog-notes", "note", 0);
	gs_sheet_sources_shared_release(&sources);
	gs_sheet_sources_shared_release(&notes);
	S_rows_keep(c, &rw);
	S_rows_release(&rw);
	free(src_of);
	free(note_of);
	free(t.nums);
}
