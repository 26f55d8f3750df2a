/*
 * sheet_reasons: the reasons, each written once: the reasons of a decision's
 * verdicts, the distinct ones (gs_sheet_reasonset), budget reasons that
 * differ by the cost alone merged, and their section of the sheet.
 */
#define _DEFAULT_SOURCE
#include "sheet_int.h"

/*
 * Budget reasons that differ by the cost alone (each price its own total)
 * are one: rep[i] is the first reason (in table order) of reason i's
 * group, next[i] the group's next reason (SIZE_MAX after its last). The
 * key is the sentence with the cost masked, the evidence with its line
 * numbers masked, and the verdict's other fields; by hash, in one pass.
 */
void gs_sheet_reasons_budget_merge(S_ctx *c, const gs_sheet_reasonset *rs, size_t *rep, size_t *next)
{
	size_t nslot = 16, i, k, *slot, *last = gs_xmalloc((rs->n + 1) * sizeof(*last));
	char **key = gs_xcalloc(rs->n + 1, sizeof(*key));
	uint64_t *hash = gs_xmalloc((rs->n + 1) * sizeof(*hash));

	while (nslot < 2 * rs->n)
		nslot *= 2;
	slot = gs_xcalloc(nslot, sizeof(*slot));
	for (i = 0; i < rs->n; i++) {
		const gs_verdict *v = rs->r[i].v;
		char *text, *spec = NULL, *ev = NULL;

		rep[i] = i;
		next[i] = SIZE_MAX;
		if (rs->r[i].req != GS_REQ_BUDGET || !v->has_money)
			continue;
		c->cost_mask = 1;
		text = gs_sheet_words_reason(c, v);
		c->cost_mask = 0;
		if (v->evidence && !(ev = gs_sheet_sources_line_mask(v->evidence, &spec)))
			ev = gs_xstrdup(v->evidence);
		key[i] = gs_xasprintf("%d\1%d\1%d\1%s\1%s\1%s\1%s", (int)v->kind, (int)v->basis,
				      !v->synthetic, text, ev ? ev : "", v->evidence_date ? v->evidence_date : "",
				      v->missing ? v->missing : "");
		free(text);
		free(ev);
		free(spec);
		hash[i] = gs_hash_str(key[i]);
		for (k = (size_t)hash[i] & (nslot - 1); slot[k]; k = (k + 1) & (nslot - 1)) {
			size_t o = slot[k] - 1;
			if (hash[o] == hash[i] && strcmp(key[o], key[i]) == 0)
				break;
		}
		if (slot[k]) {
			size_t g = slot[k] - 1;
			rep[i] = g;
			next[last[g]] = i;
			last[g] = i;
		} else {
			slot[k] = i + 1;
			last[i] = i;
		}
	}
	for (i = 0; i < rs->n; i++)
		free(key[i]);
	free(key);
	free(hash);
	free(slot);
	free(last);
}

/*
 * Budget reason i and those merged into it (next[i], ...): the range of
 * their costs in *text, their evidence with its lines listed in *evidence
 * (NULL: they cite the same evidence), their offers' positions, sorted, in
 * *pos and *npos (caller frees the three).
 */
static void S_merged(S_ctx *c, const gs_sheet_reasonset *rs, const size_t *next, size_t i,
		     char **text, char **evidence, size_t **ppos, size_t *pnpos)
{
	const gs_verdict *v = rs->r[i].v;
	gs_verdict range;
	char **spec = NULL;
	size_t nspec = 0, cap = 0, npos = 0, j, *pos;
	int same_ev = 1;

	range = *v;
	c->cost_hi = v->cost;
	for (j = i; j != SIZE_MAX; j = next[j]) {
		const gs_verdict *u = rs->r[j].v;
		if (u->cost < range.cost)
			range.cost = u->cost;
		if (u->cost > c->cost_hi)
			c->cost_hi = u->cost;
		npos += rs->r[j].npos;
		same_ev &= gs_sheet_words_same_str(u->evidence, v->evidence);
	}
	pos = gs_xmalloc((npos + 1) * sizeof(*pos));
	npos = 0;
	for (j = i; j != SIZE_MAX; j = next[j]) {
		memcpy(pos + npos, rs->r[j].pos, rs->r[j].npos * sizeof(*pos));
		npos += rs->r[j].npos;
		if (!same_ev) {
			char *sp = NULL;
			free(gs_sheet_sources_line_mask(rs->r[j].v->evidence, &sp));
			if (sp) {
				if (nspec == cap) {
					cap = cap ? 2 * cap : 8;
					spec = gs_xrealloc(spec, cap * sizeof(*spec));
				}
				spec[nspec++] = sp;
			}
		}
	}
	*evidence = NULL;
	if (nspec) {
		char *sp, *masked = gs_sheet_sources_line_mask(v->evidence, &sp);
		char *lines = gs_sheet_sources_lines_text(c->t, spec, nspec);
		*evidence = gs_sheet_sources_unmask(masked, lines);
		free(masked);
		free(sp);
		free(lines);
		for (j = 0; j < nspec; j++)
			free(spec[j]);
	}
	free(spec);
	qsort(pos, npos, sizeof(*pos), gs_sheet_words_cmp_size);
	c->cost_range = 1;
	*text = gs_sheet_words_reason(c, &range);
	c->cost_range = 0;
	*ppos = pos;
	*pnpos = npos;
}

void gs_sheet_reasons_merge(const gs_sheet_input *in, const gs_sheet_reasonset *rs, gs_sheet_reasonmerge *m)
{
	S_ctx c;
	size_t *next = gs_xmalloc((rs->n + 1) * sizeof(*next)), i, *pos, npos;

	memset(&c, 0, sizeof(c));
	c.in = in;
	c.t = in->t;
	c.lang = in->t->lang;
	m->n = rs->n;
	m->rep = gs_xmalloc((rs->n + 1) * sizeof(*m->rep));
	m->text = gs_xcalloc(rs->n + 1, sizeof(*m->text));
	m->evidence = gs_xcalloc(rs->n + 1, sizeof(*m->evidence));
	gs_sheet_reasons_budget_merge(&c, rs, m->rep, next);
	for (i = 0; i < rs->n; i++)
		if (m->rep[i] == i && next[i] != SIZE_MAX) {
			S_merged(&c, rs, next, i, &m->text[i], &m->evidence[i], &pos, &npos);
			free(pos);
		}
	free(next);
}

void gs_sheet_reasons_merge_release(gs_sheet_reasonmerge *m)
{
	size_t i;

	for (i = 0; i < m->n; i++) {
		free(m->text[i]);
		free(m->evidence[i]);
	}
	free(m->text);
	free(m->evidence);
	free(m->rep);
	memset(m, 0, sizeof(*m));
}

/* What would confirm the reasons of requirement q that are to confirm
 * (merged budget reasons left out): the words most of them say, when two
 * or more say them (written once, above the reasons; the others say
 * theirs), else NULL. */
#define S_MISSING_MAX 8
static const char *S_same_missing(const gs_sheet_reasonset *rs, const size_t *rep, int q)
{
	const char *m[S_MISSING_MAX];
	size_t cnt[S_MISSING_MAX], i, k, nm = 0, best = 0;

	for (i = 0; i < rs->n; i++) {
		const gs_verdict *v = rs->r[i].v;
		if (rs->r[i].req != (gs_req)q || v->kind != GS_V_TO_CONFIRM || rep[i] != i || !v->missing)
			continue;
		for (k = 0; k < nm && strcmp(m[k], v->missing) != 0; k++)
			;
		if (k == nm) {
			if (nm == S_MISSING_MAX)
				continue;
			m[nm] = v->missing;
			cnt[nm++] = 0;
		}
		cnt[k]++;
	}
	for (k = 1; k < nm; k++)
		if (cnt[k] > cnt[best])
			best = k;
	return nm && cnt[best] > 1 ? m[best] : NULL;
}

/*
 * The reasons, each written once: a subsection per requirement, an item
 * per distinct reason with its verdict and the offers it applies to (in
 * table order), then its sentence, evidence and what would confirm it
 * (once above the items when they all say the same).
 */
void gs_sheet_reasons_section(S_ctx *c, const gs_sheet_reasonset *rs, const gs_sheet_sharedset *sources,
		      const size_t *rep, const size_t *next)
{
	const gs_decision *d = c->in->d;
	cmark_node *list, *p;
	size_t i;
	int q;

	for (i = 0; i < rs->n && rs->r[i].v->kind == GS_V_NOT_REQUIRED; i++)
		;
	if (i < rs->n) {
		p = gs_doc_para(c->root);
		gs_doc_text(p, TR("cand.reasons_intro"));
	}
	for (q = 0; q < GS_REQ_COUNT; q++) {
		const char *missing = S_same_missing(rs, rep, q);
		list = NULL;
		for (i = 0; i < rs->n; i++) {
			const gs_sheet_reason *r = &rs->r[i];
			const gs_verdict *v = r->v;
			size_t *pos = r->pos, npos = r->npos;
			char *text = NULL, *evidence = NULL;
			if (r->req != (gs_req)q || v->kind == GS_V_NOT_REQUIRED || rep[i] != i)
				continue;
			if (next[i] != SIZE_MAX)
				S_merged(c, rs, next, i, &text, &evidence, &pos, &npos);
			if (!list) {
				/* sheets/ID.html#reasons-memory: stable, one per requirement */
				char *anchor = gs_xasprintf("reasons-%s", gs_verdict_req_id((gs_req)q));
				gs_doc_heading_id(c->doc, c->root, 3, TR(gs_sheet_words_req_keys[q]), anchor);
				free(anchor);
				if (missing) {
					p = gs_doc_para(c->root);
					gs_doc_textf(p, "%s %s %s %s %s", TR("cand.to_confirm_each"),
						     gs_sheet_words_verdict_symbol(GS_V_TO_CONFIRM),
						     gs_sheet_words_verdict_word(c, GS_V_TO_CONFIRM),
						     TR("cand.to_confirm_lacks"), TR(missing));
				}
				list = gs_doc_list(c->root, 0);
			}
			p = gs_doc_item(list);
			{
				/* sheets/ID.html#why-N: reasons[N] of the decision JSON;
				 * the table's verdict cells link here */
				char *anchor = gs_xasprintf("why-%zu", i);
				gs_doc_item_id(c->doc, p, anchor);
				free(anchor);
			}
			{
				char *verdict = gs_xasprintf("%s %s", gs_sheet_words_verdict_symbol(v->kind),
							     gs_sheet_words_verdict_word(c, v->kind));
				gs_doc_strong(p, verdict);
				free(verdict);
			}
			if (v->kind == GS_V_EXCLUDE)
				gs_doc_textf(p, " (%s)", TR(gs_sheet_words_basis_key(v->basis)));
			gs_doc_textf(p, " %s ", TR("cand.applies_to"));
			if (npos == d->ncands && d->ncands > 1)
				gs_doc_textf(p, "%s (%zu)", TR("cand.every_offer"), d->ncands);
			else
				gs_sheet_sources_offer_list_or_count(c, p, pos, npos);
			gs_doc_text(p, ". ");
			gs_doc_text(p, text ? text : r->text);
			if (v->evidence) {
				size_t src = gs_sheet_sources_source_number(sources, v->evidence, v->evidence_date);
				gs_doc_textf(p, " %s ", TR("cand.evidence"));
				if (src) {
					/* a price or memory figure: its source by number, listed below */
					gs_doc_textf(p, "%s %zu", TR("cand.source"), src);
				} else {
					gs_doc_code(p, evidence ? evidence : v->evidence);
					if (v->evidence_date)
						gs_doc_textf(p, " (%s)", v->evidence_date);
				}
				if (gs_sheet_words_evidence_synthetic(c, v->evidence)) {
					gs_doc_text(p, " ");
					gs_doc_strong(p, TR(v->synthetic ? "demo.rests_on" : "synthetic.short"));
				}
				gs_doc_text(p, ".");
			}
			if (v->missing && (!missing || v->kind != GS_V_TO_CONFIRM || strcmp(v->missing, missing) != 0))
				gs_doc_textf(p, " %s %s", TR("cand.to_confirm"), TR(v->missing));
			if (pos != r->pos)
				free(pos);
			free(text);
			free(evidence);
		}
	}
}

/* Do two verdicts give the same sentence? gs_sheet_words_reason reads these fields only. */
static int S_same_text(const gs_verdict *a, const gs_verdict *b)
{
	return gs_sheet_words_same_str(a->why, b->why) && gs_sheet_words_same_qty(a->a, b->a) && gs_sheet_words_same_qty(a->b, b->b) &&
	       a->has_margin == b->has_margin && (!a->has_margin || a->margin == b->margin) &&
	       a->has_money == b->has_money &&
	       (!a->has_money || (a->cost == b->cost && a->budget == b->budget)) &&
	       gs_sheet_words_same_str(a->s1, b->s1) && gs_sheet_words_same_str(a->s2, b->s2) &&
	       gs_sheet_words_same_str(a->note, b->note) && gs_sheet_words_same_str(a->n1, b->n1) &&
	       gs_sheet_words_same_str(a->n2, b->n2) && gs_sheet_words_same_str(a->n3, b->n3) &&
	       gs_sheet_words_same_str(a->orientation, b->orientation) &&
	       a->has_milli == b->has_milli && (!a->has_milli || (a->m1 == b->m1 && a->m2 == b->m2));
}

/*
 * Most offers of a sheet give the same sentence for a requirement (all of
 * them for software, calendar, quality, host; one per GPU model for
 * memory): a sentence already made for the same inputs is copied instead
 * of made again, looking among the first S_SAME_MAX distinct ones of the
 * requirement (the scan stays short whatever the number of offers).
 */
#define S_SAME_MAX 64

/*
 * A sentence found again is shared, not copied: the copies were 1.4 % of a
 * site's CPU (a 50-offer sheet makes 50 of each requirement's sentence, most
 * of them alike). Which elements own their text is said by the bytes
 * after the array's terminating NULL (S_owners), one per element, in the
 * same block, so that gs_sheet_reasons_free frees each text once.
 */
static unsigned char *S_owners(char **r, size_t ncands)
{
	return (unsigned char *)(r + ncands * GS_REQ_COUNT + 1);
}

char **gs_sheet_reasons(const gs_strings *t, const gs_decision *d)
{
	size_t n = d->ncands * GS_REQ_COUNT;
	char **r = gs_xcalloc(1, (n + 1) * sizeof(*r) + n + 1);
	unsigned char *own = S_owners(r, d->ncands);
	size_t seen[GS_REQ_COUNT][S_SAME_MAX], nseen[GS_REQ_COUNT] = { 0 };
	size_t i, k;
	int q;

	for (i = 0; i < d->ncands; i++)
		for (q = 0; q < GS_REQ_COUNT; q++) {
			const gs_verdict *v = &d->cands[i].v[q];
			size_t at = i * GS_REQ_COUNT + (size_t)q;

			for (k = 0; k < nseen[q]; k++)
				if (S_same_text(&d->cands[seen[q][k]].v[q], v)) {
					r[at] = r[seen[q][k] * GS_REQ_COUNT + (size_t)q];
					break;
				}
			if (r[at])
				continue;
			r[at] = gs_sheet_words_reason_text(t, v);
			own[at] = 1;
			if (nseen[q] < S_SAME_MAX)
				seen[q][nseen[q]++] = i;
		}
	return r;
}

void gs_sheet_reasons_free(char **r, size_t ncands)
{
	const unsigned char *own;
	size_t i;

	if (!r)
		return;
	own = S_owners(r, ncands);
	for (i = 0; i < ncands * GS_REQ_COUNT; i++)
		if (own[i])
			free(r[i]);
	free(r);
}

char *gs_sheet_reasons_of(const gs_sheet_input *in, size_t c, int q)
{
	if (in->reasons)
		return gs_xstrdup(in->reasons[c * GS_REQ_COUNT + (size_t)q]);
	return gs_sheet_words_reason_text(in->t, &in->d->cands[c].v[q]);
}

/* Do two verdicts of one requirement say the same thing, in every field
 * the sheet and the decision JSON write? (The texts are compared apart.) */
static int S_same_verdict(const gs_verdict *a, const gs_verdict *b)
{
	return a->kind == b->kind && gs_sheet_words_same_str(a->why, b->why) &&
	       (a->kind != GS_V_EXCLUDE || a->basis == b->basis) &&
	       gs_sheet_words_same_str(a->evidence, b->evidence) &&
	       gs_sheet_words_same_str(a->evidence_date, b->evidence_date) &&
	       gs_sheet_words_same_str(a->missing, b->missing) && gs_sheet_words_same_str(a->note, b->note) &&
	       gs_sheet_words_same_str(a->orientation, b->orientation) &&
	       !a->synthetic == !b->synthetic && !a->lower_bound == !b->lower_bound;
}

void gs_sheet_reasons_set_build(const gs_sheet_input *in, gs_sheet_reasonset *rs)
{
	const gs_decision *d = in->d;
	/* the reasons by hash of their text and requirement (open addressing:
	 * index + 1, 0 empty): every price its own budget reason must not make
	 * the lookup quadratic in the offers */
	size_t nslot = 16, *slot;
	size_t i, k, acap = 0;
	int q;

	while (nslot < 2 * d->ncands * GS_REQ_COUNT)
		nslot *= 2;
	slot = gs_xcalloc(nslot, sizeof(*slot));

	memset(rs, 0, sizeof(*rs));
	rs->borrowed = in->reasons != NULL;
	rs->of = gs_xmalloc((d->ncands * GS_REQ_COUNT + 1) * sizeof(*rs->of));
	for (i = 0; i < d->ncands; i++) {
		size_t c = d->order[i];
		for (q = 0; q < GS_REQ_COUNT; q++) {
			const gs_verdict *v = &d->cands[c].v[q];
			/* borrowed from in->reasons when there, else made */
			char *text = in->reasons ? in->reasons[c * GS_REQ_COUNT + (size_t)q]
					     : gs_sheet_reasons_of(in, c, q);
			uint64_t h = gs_hash_str(text);
			gs_sheet_reason *r = NULL;

			for (k = (size_t)(h ^ ((uint64_t)q * 0x9e3779b97f4a7c15ULL)) & (nslot - 1); slot[k];
			     k = (k + 1) & (nslot - 1)) {
				gs_sheet_reason *o = &rs->r[slot[k] - 1];
				if (o->req == (gs_req)q && o->hash == h && S_same_verdict(o->v, v) &&
				    strcmp(o->text, text) == 0) {
					r = o;
					break;
				}
			}
			if (r) {
				if (!in->reasons)
					free(text);
			} else {
				if (rs->n == acap) {
					acap = acap ? acap * 2 : 16;
					rs->r = gs_xrealloc(rs->r, acap * sizeof(*rs->r));
				}
				slot[k] = rs->n + 1;
				r = &rs->r[rs->n++];
				r->req = (gs_req)q;
				r->v = v;
				r->text = text;
				r->hash = h;
				r->npos = 0;
				r->pos = NULL;
			}
			gs_sheet_words_pos_push(&r->pos, &r->npos, i);
			rs->of[c * GS_REQ_COUNT + (size_t)q] = (size_t)(r - rs->r);
		}
	}
	free(slot);
}

void gs_sheet_reasons_set_release(gs_sheet_reasonset *rs)
{
	size_t i;

	for (i = 0; i < rs->n; i++) {
		if (!rs->borrowed)
			free(rs->r[i].text);
		free(rs->r[i].pos);
	}
	free(rs->r);
	free(rs->of);
	memset(rs, 0, sizeof(*rs));
}
