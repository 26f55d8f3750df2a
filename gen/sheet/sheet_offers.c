/*
 * sheet_offers: the candidates: equivalent offers as one row, the candidates
 * table with its sources and notes by number, the short table of the
 * offers counted by lot (past the table's first offers that fit, those
 * only a measurement can tell, of unknown capacity, excluded), and the
 * fragment that holds each offer, for the sheet and the site's links.
 */
#define _DEFAULT_SOURCE
#include "gpuname.h"
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

static int S_compact(const S_ctx *c, const gs_candidate *cd);

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
			/* an offer counted in a lot never shares a row with one that is not */
			h = gs_sheet_columns_row_hash(c, rs, ci) ^ (uint64_t)c->in_lot[ci];
			for (k = (size_t)h & (nslot - 1); slot[k]; k = (k + 1) & (nslot - 1)) {
				const S_row *o = &rw->row[slot[k] - 1];
				if (o->hash == h && c->in_lot[d->order[o->first]] == c->in_lot[ci] &&
				    gs_sheet_columns_same_row(c, rs, d->order[o->first], ci)) {
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

/* The rows, for the decision section that names them (c->row_n). */
static void S_rows_keep(S_ctx *c, const S_rows *rw)
{
	const gs_decision *d = c->in->d;
	size_t g, i;

	free(c->row_n);
	c->row_n = gs_xcalloc(d->ncands + 1, sizeof(*c->row_n));
	for (g = 0; g < rw->nrow; g++)
		for (i = rw->row[g].first; i != SIZE_MAX; i = rw->next[i])
			if (S_compact(c, &d->cands[d->order[i]]))
				c->row_n[i] = 1;
			else if (i == rw->row[g].first)
				c->row_n[i] = rw->row[g].n;
}

static void S_rows_release(S_rows *rw)
{
	free(rw->row);
	free(rw->next);
}

void gs_sheet_offers_in_lots(const gs_decision *d, unsigned char *lot)
{
	size_t i, fit = 0;

	for (i = 0; i < d->ncands; i++) {
		size_t ci = d->order[i];
		gs_class k = d->cands[ci].cls;
		if (k == GS_CLASS_FITS || k == GS_CLASS_LOWER_FITS)
			lot[ci] = fit++ >= GS_SHEET_TABLE_OFFERS;
		else
			lot[ci] = k == GS_CLASS_UNSURE || k == GS_CLASS_UNKNOWN || k == GS_CLASS_EXCLUDED;
	}
}

/* Whether cd is not a row of the table but counted in a lot of the short
 * table, with its verdict that decides (c->in_lot). */
static int S_compact(const S_ctx *c, const gs_candidate *cd)
{
	return c->in_lot[cd - c->in->d->cands];
}

char *gs_sheet_offers_fragment(const gs_offer *o, gs_class cls, int in_lot)
{
	static const char *const word[GS_CLASS_COUNT] = {
		"retained", "fits", "lower", "measure", "unknown", "excluded", "reference"
	};
	gs_buf b;
	const gs_gpu_nominal *e = gs_verdict_offer_gpu(o);
	const char *m, *name = e ? e->model : o->gpu_model ? o->gpu_model : "";
	int dash = 0;

	if (!in_lot || (unsigned)cls >= GS_CLASS_COUNT)
		return gs_xasprintf("offer-%s", o->id);
	gs_buf_init(&b, 48);
	gs_buf_printf(&b, "lot-%s-%llux-", word[cls], (unsigned long long)o->cards);
	for (m = name; *m; m++) {
		char ch = *m;
		if (ch >= 'A' && ch <= 'Z')
			ch = (char)(ch - 'A' + 'a');
		if ((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '.') {
			if (dash && b.data[b.len - 1] != '-')
				gs_buf_putc(&b, '-');
			gs_buf_putc(&b, ch);
			dash = 0;
		} else {
			dash = 1;
		}
	}
	if (b.data[b.len - 1] == '-')
		gs_buf_putc(&b, '0');   /* a model of no letter or digit */
	return gs_buf_detach(&b, NULL);
}

/* The verdict that decides a compact offer's class: an exclusion (each),
 * or the memory verdict of the others. */
static int S_deciding(const gs_candidate *cd, int q)
{
	return cd->cls == GS_CLASS_EXCLUDED ? cd->v[q].kind == GS_V_EXCLUDE : q == GS_REQ_MEMORY;
}

/* Each offer's lot (c->lot_frag, c->lot_of, c->nlot), its fragment's
 * number found through a table of the fragments' hashes. */
static void S_lots_number(S_ctx *c)
{
	const gs_decision *d = c->in->d;
	size_t nslot = 16, i, k;
	size_t *slot;

	while (nslot < 2 * d->ncands)
		nslot *= 2;
	slot = gs_xcalloc(nslot, sizeof(*slot));
	c->lot_frag = gs_xcalloc(d->ncands + 1, sizeof(*c->lot_frag));
	c->lot_of = gs_xmalloc((d->ncands + 1) * sizeof(*c->lot_of));
	c->nlot = 0;
	for (i = 0; i < d->ncands; i++) {
		const gs_candidate *cd = &d->cands[d->order[i]];
		c->lot_of[i] = SIZE_MAX;
		if (!c->in_lot[d->order[i]])
			continue;
		c->lot_frag[i] = gs_sheet_offers_fragment(cd->offer, cd->cls, 1);
		for (k = (size_t)gs_hash_str(c->lot_frag[i]) & (nslot - 1); slot[k]; k = (k + 1) & (nslot - 1))
			if (strcmp(c->lot_frag[slot[k] - 1], c->lot_frag[i]) == 0)
				break;
		if (!slot[k]) {
			slot[k] = i + 1;
			c->lot_of[i] = c->nlot++;
		} else {
			c->lot_of[i] = c->lot_of[slot[k] - 1];
		}
	}
	free(slot);
}

/* The lots' fragments already given as ids (each once in the sheet). */
typedef struct {
	unsigned char *given;   /* by lot number (c->lot_of) */
	size_t *at;             /* by lot number: its index in a row's lots, SIZE_MAX: none */
} S_seen;

/* A lot of a short table's row: its offers of one GPU model and as many
 * cards (one fragment), the first in table order, and the lowest price
 * per hour in the first's currency: on-demand, else interruptible. */
typedef struct {
	size_t id;               /* its number (c->lot_of) */
	const char *frag;
	const gs_candidate *first;
	size_t n;
	const gs_rate *od, *intr;   /* the lowest of each kind, NULL: none */
} S_lot;

/* The lower of low and r (a price in low's currency only). */
static const gs_rate *S_lower(const gs_rate *low, const gs_rate *r)
{
	if (!r->plan)
		return low;
	if (!low)
		return r;
	return gs_sheet_words_same_str(r->plan->currency, low->plan->currency) &&
		r->micro_per_hour < low->micro_per_hour ? r : low;
}

/*
 * The offers of a short table's row (its chain from k0 through next, as
 * i * GS_REQ_COUNT + q), by lot in the order of their first offer: the lot
 * ("2 x H100", its fragment as id where no row above gave it: the site's
 * pages link there, gs_sheet_offers_fragment), its offer's id (a lot of
 * one offer, when the short table counts no more than
 * GS_SHEET_TABLE_OFFERS offers) or how many offers, and the lowest price
 * per hour. Each offer's own figures are in the decision JSON. seen->at
 * is all SIZE_MAX on entry and on return.
 */
static void S_lots_cell(S_ctx *c, cmark_node *cell, size_t k0, const size_t *next, S_seen *seen,
			int name_ids)
{
	const gs_decision *d = c->in->d;
	S_lot *lot = NULL;
	size_t nlot = 0, cap = 0, k, l;
	char m[GS_FMT_MAX];

	for (k = k0; k != SIZE_MAX; k = next[k]) {
		const gs_candidate *cd = &d->cands[d->order[k / GS_REQ_COUNT]];
		size_t id = c->lot_of[k / GS_REQ_COUNT];
		l = seen->at[id];
		if (l == SIZE_MAX) {
			l = seen->at[id] = nlot;
			if (nlot == cap) {
				cap = cap ? 2 * cap : 16;
				lot = gs_xrealloc(lot, cap * sizeof(*lot));
			}
			lot[l].id = id;
			lot[l].frag = c->lot_frag[k / GS_REQ_COUNT];
			lot[l].first = cd;
			lot[l].n = 0;
			lot[l].od = lot[l].intr = NULL;
			nlot++;
		}
		lot[l].n++;
		lot[l].od = S_lower(lot[l].od, &cd->on_demand);
		lot[l].intr = S_lower(lot[l].intr, &cd->interruptible);
	}
	for (l = 0; l < nlot; l++) {
		const gs_offer *o = lot[l].first->offer;
		const gs_rate *r = lot[l].od ? lot[l].od : lot[l].intr;
		char *name = gs_xasprintf("%llu x %s", (unsigned long long)o->cards,
					  lot[l].first->gpu ? lot[l].first->gpu->model : o->gpu_model);
		if (l)
			gs_doc_text(cell, "; ");
		seen->at[lot[l].id] = SIZE_MAX;
		if (!seen->given[lot[l].id]) {
			seen->given[lot[l].id] = 1;
			gs_doc_code_id(c->doc, cell, name, lot[l].frag);
		} else {
			gs_doc_code(cell, name);
		}
		free(name);
		if (lot[l].n == 1 && name_ids) {
			gs_doc_text(cell, ": ");
			gs_doc_code(cell, o->id);
		} else {
			gs_doc_textf(cell, ": %zu %s", lot[l].n, TR(lot[l].n > 1 ? "cand.offers" : "cand.offer"));
		}
		if (r)
			gs_doc_textf(cell, "%s%s %s/h%s%s", lot[l].n == 1 ? ", " : TR("cand.lot_from"),
				     gs_qty_fmt_micro(m, r->micro_per_hour, c->lang), r->plan->currency,
				     lot[l].od ? "" : " ", lot[l].od ? "" : TR("price.interruptible"));
	}
	free(lot);
}

/*
 * The compact offers (counted in lots: c->in_lot) grouped by their class,
 * the requirement whose verdict decides it and that verdict's kind of
 * reason (its label key: "above the budget", whatever the cost): a row per
 * group in order of its first offer in the table, its offers by lot
 * (S_lots_cell), each lot's fragment (gs_sheet_offers_fragment) in its
 * first group's cell; the verdict links to the reason (budget reasons
 * merged, rep), or to the requirement's reasons when the group's offers
 * have several. An offer excluded by two requirements is counted in two
 * groups.
 */
static void S_compact_table(S_ctx *c, const gs_sheet_reasonset *rs, const size_t *rep,
			    char *vtext[4][2])
{
	const gs_decision *d = c->in->d;
	const char *h[3];
	size_t n = d->ncands, i, g, ng = 0, nlotted = 0;
	size_t *gcls = NULL, *gq = NULL, *gwhy = NULL, *gnext, *glast = NULL, *gfirst = NULL;
	unsigned char *gmixed = NULL;
	S_seen seen;
	cmark_node *tb = NULL, *r, *cell, *p;
	int q;

	for (i = 0; i < n; i++)
		nlotted += S_compact(c, &d->cands[i]);
	if (!nlotted)
		return;
	gnext = gs_xmalloc((n * GS_REQ_COUNT + 1) * sizeof(*gnext));
	seen.given = gs_xcalloc(c->nlot + 1, 1);
	seen.at = gs_xmalloc((c->nlot + 1) * sizeof(*seen.at));
	for (i = 0; i <= c->nlot; i++)
		seen.at[i] = SIZE_MAX;
	for (i = 0; i < n; i++) {
		size_t ci = d->order[i];
		const gs_candidate *cd = &d->cands[ci];
		for (q = 0; q < GS_REQ_COUNT; q++) {
			size_t k = i * GS_REQ_COUNT + (size_t)q, why;
			gnext[k] = SIZE_MAX;
			if (!S_compact(c, cd) || !S_deciding(cd, q))
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
	for (i = 0; i < n && !(S_compact(c, &d->cands[i]) && (d->cands[i].cls == GS_CLASS_FITS ||
							     d->cands[i].cls == GS_CLASS_LOWER_FITS)); i++)
		;
	if (i < n)
		gs_doc_textf(p, " %s %d %s", TR("cand.compact_past"), GS_SHEET_TABLE_OFFERS,
			     TR("cand.compact_past_end"));
	h[0] = TR("col.overall");
	h[1] = TR("col.deciding");
	h[2] = TR("col.offers");
	for (g = 0; g < ng; g++) {
		size_t cnt = 0, k;
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
		/* a lot's name may hold a size ("A100 80GB"): the row says how
		 * its figures are known, the prices calculated from claims */
		gs_doc_textf(cell, "%zu %s (%s): ", cnt, TR(cnt > 1 ? "cand.offers" : "cand.offer"),
			     TR("cand.lot_prices"));
		S_lots_cell(c, cell, gfirst[g], gnext, &seen, nlotted <= GS_SHEET_TABLE_OFFERS);
	}
	free(gcls);
	free(gq);
	free(gwhy);
	free(gfirst);
	free(glast);
	free(gmixed);
	free(gnext);
	free(seen.given);
	free(seen.at);
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
			if (S_compact(c, cd))
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
	for (g = 0; g < rw->nrow && S_compact(t->c, &d->cands[d->order[rw->row[g].first]]); g++)
		;
	*f0 = g < rw->nrow ? d->order[rw->row[g].first] : 0;
	for (g = 0; g < rw->nrow; g++) {
		size_t first = rw->row[g].first;
		if (S_compact(t->c, &d->cands[d->order[first]]))
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
 * shown columns' cells; sheets/ID.html#offer-OFFER (gs_sheet_offers_fragment):
 * the site's matrix and offer pages link to the offer's row. */
static void S_rows_write(gs_sheet_cands *t, cmark_node *tb, const S_rows *rw)
{
	const gs_decision *d = t->c->in->d;
	size_t g, k;

	for (g = 0; g < rw->nrow; g++) {
		size_t first = rw->row[g].first;
		const gs_candidate *cd = &d->cands[d->order[first]];
		cmark_node *r;

		if (S_compact(t->c, cd))
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

	free(c->in_lot);
	c->in_lot = gs_xmalloc(d->ncands + 1);
	gs_sheet_offers_in_lots(d, c->in_lot);
	if (!c->lot_frag)
		S_lots_number(c);
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
