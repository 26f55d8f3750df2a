/* sheet: the decision sheet as one document tree plus its charts. */
#define _DEFAULT_SOURCE
#include "sheet_int.h"

/*
 * The total cost cell: the total, then how it is made (units x plan hours
 * x the plan's price), interruptible, and how a per-hour plan's hours are
 * billed.
 */
static void S_cost_cell(S_ctx *c, cmark_node *row, const gs_candidate *cd, int *unstated)
{
	char m[GS_FMT_MAX], pm[GS_FMT_MAX];
	cmark_node *cell = gs_doc_cell(row);

	gs_doc_textf(cell, "%s %s = %llu x %llu h x %s %s%s%s",
		     gs_fmt_money(m, cd->cost, c->lang), cd->plan->currency,
		     (unsigned long long)cd->plan_units, (unsigned long long)cd->plan->hours,
		     gs_fmt_micro(pm, gs_plan_micro(cd->plan), c->lang), cd->plan->currency,
		     cd->plan->interruptible ? ", " : "",
		     cd->plan->interruptible ? TR("site.interruptible") : "");
	/* A per-hour price: say how the campaign's hours are billed. */
	if (cd->plan->billing_hours)
		gs_doc_textf(cell, ". %s %llu h.", TR("cost.billing_unit"),
			     (unsigned long long)cd->plan->billing_hours);
	else if (cd->plan->hours == 1) {
		/* the same sentence on most rows: a mark here, the sentence
		 * once below the table */
		gs_doc_text(cell, " †");
		*unstated = 1;
	}
}

/*
 * What several offers share, written once: a source document (the memory
 * figure's or the price's, with its date) or a catalog note. Each distinct
 * text is numbered in first-appearance order over the offers in table
 * order; an offer's row names it by that number.
 */
typedef struct {
	char *text;            /* the source with its date, or the note (its name masked) */
	char *shown;           /* a note: the first offer's, as written; NULL: text */
	int names_differ;      /* a note: its offers' notes differ by their names */
	uint64_t hash;
	size_t *pos[2];        /* positions in d->order: [0] memory figure or note, [1] price */
	size_t npos[2];
	char **spec;           /* a source whose line numbers were masked: each offer's lines */
	size_t nspec;
} S_shared;

typedef struct {
	S_shared *s;
	size_t n, cap;
	size_t *slot;          /* open addressing by hash: entry + 1, 0 empty */
	size_t nslot;          /* a power of two, at least twice n */
} S_sharedset;

/* The slot of text (hash h) in set's index: its entry's, or the empty one
 * where it would go. */
static size_t *S_shared_slot(const S_sharedset *set, const char *text, uint64_t h)
{
	size_t k = (size_t)h & (set->nslot - 1);

	while (set->slot[k]) {
		const S_shared *e = &set->s[set->slot[k] - 1];
		if (e->hash == h && strcmp(e->text, text) == 0)
			break;
		k = (k + 1) & (set->nslot - 1);
	}
	return &set->slot[k];
}

/* The entry of text in set, or NULL. */
static const S_shared *S_shared_find(const S_sharedset *set, const char *text)
{
	size_t *sl;

	if (!set->n)
		return NULL;
	sl = S_shared_slot(set, text, gs_sheet_words_hash(text));
	return *sl ? &set->s[*sl - 1] : NULL;
}

/*
 * The number of text in set (added when new), noting position pos in list
 * k; shown (a note as its offer wrote it, text with its name masked) is
 * kept from the first offer, text and shown are taken.
 */
static size_t S_share_shown(S_sharedset *set, char *text, char *shown, int k, size_t pos)
{
	uint64_t h = gs_sheet_words_hash(text);
	S_shared *e = NULL;
	size_t *sl;

	if (2 * (set->n + 1) > set->nslot) {
		/* the index grows: every entry placed again */
		size_t i;
		set->nslot = set->nslot ? 2 * set->nslot : 16;
		free(set->slot);
		set->slot = gs_xcalloc(set->nslot, sizeof(*set->slot));
		for (i = 0; i < set->n; i++)
			*S_shared_slot(set, set->s[i].text, set->s[i].hash) = i + 1;
	}
	sl = S_shared_slot(set, text, h);
	if (*sl) {
		e = &set->s[*sl - 1];
		if (shown && !e->names_differ &&
		    strcmp(shown, e->shown ? e->shown : e->text) != 0)
			e->names_differ = 1;
		free(text);
		free(shown);
	} else {
		if (set->n == set->cap) {
			set->cap = set->cap ? set->cap * 2 : 8;
			set->s = gs_xrealloc(set->s, set->cap * sizeof(*set->s));
		}
		e = &set->s[set->n++];
		memset(e, 0, sizeof(*e));
		e->text = text;
		e->shown = shown;
		e->hash = h;
		*sl = set->n;
	}
	/* at most one entry per offer and list: positions come in order */
	if (!e->npos[k] || e->pos[k][e->npos[k] - 1] != pos)
		gs_sheet_words_pos_push(&e->pos[k], &e->npos[k], pos);
	return (size_t)(e - set->s);
}

static size_t S_share(S_sharedset *set, char *text, int k, size_t pos)
{
	return S_share_shown(set, text, NULL, k, pos);
}

/* ASCII lower case: the masking reads no locale. */
static unsigned char S_lower(unsigned char ch)
{
	return ch >= 'A' && ch <= 'Z' ? (unsigned char)(ch - 'A' + 'a') : ch;
}

/* Does p hold needle (n bytes) in any case (ASCII)? p has n bytes at least. */
static int S_at_nocase(const char *p, const char *needle, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (S_lower((unsigned char)p[i]) != S_lower((unsigned char)needle[i]))
			return 0;
	return 1;
}

/*
 * A catalog note with the offer's name masked, or NULL when it does not
 * name the offer: the name is the longest tail of the offer's id, the
 * whole id or what follows one of its '-', of 4 bytes at least, that the
 * note holds in any case ("Instance type n3-A100x1 of Hyperstack" for
 * hyperstack-n3-a100x1); every occurrence becomes one byte \1. Notes that
 * differ by their offers' names alone are then the same text.
 *
 * Every tail is a suffix of the id, so one pass over the note finds them
 * all: at each end e, the longest suffix of the id that the note ends
 * with at e; the name is the longest tail no longer than the longest
 * such suffix.
 */
static char *S_note_masked(const char *note, const char *id)
{
	size_t nl = strlen(note), il = strlen(id), e, l, best = 0, tl = 0, i, k = 0;
	const char *hit;
	char *out;

	if (il < 4)
		return NULL;
	for (e = 1; e <= nl && best < il; e++) {
		/* (a first byte that differs ends it at once, as most do) */
		for (l = 0; l < il && l < e &&
		     S_lower((unsigned char)note[e - 1 - l]) == S_lower((unsigned char)id[il - 1 - l]); l++)
			;
		if (l > best)
			best = l;
	}
	if (best >= il) {
		tl = il;
	} else {
		for (i = 0; i < il; i++)
			if (id[i] == '-' && il - i - 1 <= best) {
				tl = il - i - 1;   /* the first such '-' leaves the longest tail */
				break;
			}
	}
	if (tl < 4)
		return NULL;
	hit = id + il - tl;
	out = gs_xmalloc(nl + 1);
	for (i = 0; i < nl;) {
		if (nl - i >= tl && S_at_nocase(note + i, hit, tl)) {
			out[k++] = '\1';
			i += tl;
		} else {
			out[k++] = note[i++];
		}
	}
	out[k] = '\0';
	return out;
}

char **gs_sheet_notes_masked(const gs_catalog *cat)
{
	char **m = gs_xcalloc(cat->noffers + 1, sizeof(*m));
	size_t i;

	for (i = 0; i < cat->noffers; i++)
		if (cat->offers[i].notes)
			m[i] = S_note_masked(cat->offers[i].notes, cat->offers[i].id);
	return m;
}

void gs_sheet_notes_masked_free(char **m, size_t n)
{
	size_t i;

	if (!m)
		return;
	for (i = 0; i < n; i++)
		free(m[i]);
	free(m);
}

/* The note of o with its name masked (S_note_masked), from
 * in->notes_masked when the sheet has it, else made now; NULL when the
 * note does not name the offer. Caller frees. */
static char *S_offer_note_masked(const S_ctx *c, const gs_offer *o)
{
	const gs_catalog *cat = c->in->cat;

	if (c->in->notes_masked && cat && o >= cat->offers && o < cat->offers + cat->noffers) {
		const char *m = c->in->notes_masked[o - cat->offers];
		return m ? gs_xstrdup(m) : NULL;
	}
	return S_note_masked(o->notes, o->id);
}

/*
 * A source with its line numbers masked, or NULL when it cites none: the
 * first "line N" or "lines N, M" / "lines N-M" of the text becomes one
 * byte \2, and *spec (taken by the caller) the numbers as written ("113",
 * "5, 6"). Sources that differ by their line numbers alone (one CSV file,
 * an offer a line) are then one text, which lists the lines.
 */
char *gs_sheet_line_mask(const char *text, char **spec)
{
	const char *p, *q;
	char *out;

	for (p = text; (p = strstr(p, "line")) != NULL; p++) {
		if (p > text && p[-1] != ' ')
			continue;
		q = p + 4;
		if (*q == 's')
			q++;
		if (*q != ' ' || q[1] < '0' || q[1] > '9')
			continue;
		q++;
		{
			const char *n = q;
			for (;;) {
				while (*q >= '0' && *q <= '9')
					q++;
				if (q[0] == ',' && q[1] == ' ' && q[2] >= '0' && q[2] <= '9')
					q += 2;
				else if (q[0] == '-' && q[1] >= '0' && q[1] <= '9')
					q += 1;
				else
					break;
			}
			*spec = gs_xasprintf("%.*s", (int)(q - n), n);
		}
		out = gs_xasprintf("%.*s\2%s", (int)(p - text), text, q);
		return out;
	}
	*spec = NULL;
	return NULL;
}

/* The first number of a line spec ("113", "5, 6", "10-12"). */
static unsigned long S_spec_first(const char *s)
{
	return strtoul(s, NULL, 10);
}

static int S_cmp_spec(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;
	unsigned long u = S_spec_first(x), v = S_spec_first(y);

	return u < v ? -1 : u > v ? 1 : strcmp(x, y);
}

/*
 * The lines of n specs, each once, in order: "line 113" (or "lines 5, 6")
 * when one, else "lines 2, 8, 9, 113 and 40 more" (S_FEW_LINES of them,
 * then the count of the others). Sorts spec.
 */
#define S_FEW_LINES 4
char *gs_sheet_lines_text(const gs_strings *t, char **spec, size_t n)
{
	char *out = NULL;
	size_t len = 0, cap = 0, i, j, shown = 0;

	qsort(spec, n, sizeof(*spec), S_cmp_spec);
	for (i = 1, j = 1; i < n; i++)
		if (strcmp(spec[i], spec[j - 1]) != 0)
			spec[j++] = spec[i];
	if (j == 1)
		return gs_xasprintf("%s %s", strchr(spec[0], ',') || strchr(spec[0], '-') ? "lines" : "line",
				    spec[0]);
	gs_mem_append(&out, &len, &cap, "lines ", 6);
	for (i = 0; i < j && shown < S_FEW_LINES; i++, shown++) {
		if (i)
			gs_mem_append(&out, &len, &cap, ", ", 2);
		gs_mem_append(&out, &len, &cap, spec[i], strlen(spec[i]));
	}
	if (j > shown) {
		char *more = gs_xasprintf(" %s %zu %s", gs_tr(t, "cand.and"), j - shown, gs_tr(t, "cand.more"));
		gs_mem_append(&out, &len, &cap, more, strlen(more));
		free(more);
	}
	out[len] = '\0';
	return out;
}

/* text with its byte \2 replaced by lines (or text when it has none). */
static char *S_unmask(const char *text, const char *lines)
{
	const char *m = strchr(text, '\2');

	if (!m)
		return gs_xstrdup(text);
	return gs_xasprintf("%.*s%s%s", (int)(m - text), text, lines, m + 1);
}

/* The number of source text in set, its line numbers masked (kept per
 * offer); text is taken. */
static size_t S_share_source(S_sharedset *set, char *text, int k, size_t pos)
{
	char *spec, *masked = gs_sheet_line_mask(text, &spec);
	size_t n;
	S_shared *e;

	if (!masked)
		return S_share(set, text, k, pos);
	free(text);
	n = S_share(set, masked, k, pos);
	e = &set->s[n];
	if ((e->nspec & (e->nspec - 1)) == 0)
		e->spec = gs_xrealloc(e->spec, (e->nspec ? 2 * e->nspec : 1) * sizeof(*e->spec));
	e->spec[e->nspec++] = spec;
	return n;
}

static void S_shared_release(S_sharedset *set)
{
	size_t i, j;

	for (i = 0; i < set->n; i++) {
		for (j = 0; j < set->s[i].nspec; j++)
			free(set->s[i].spec[j]);
		free(set->s[i].spec);
		free(set->s[i].text);
		free(set->s[i].shown);
		free(set->s[i].pos[0]);
		free(set->s[i].pos[1]);
	}
	free(set->s);
	free(set->slot);
}

/* ", "-separated offer ids of positions pos (in d->order), as code. */
static void S_offer_list(S_ctx *c, cmark_node *p, const size_t *pos, size_t n)
{
	const gs_decision *d = c->in->d;
	size_t k;

	for (k = 0; k < n; k++) {
		if (k)
			gs_doc_text(p, ", ");
		gs_doc_code(p, d->cands[d->order[pos[k]]].offer->id);
	}
}

/*
 * The offers of a source, note or reason: their ids when they are few,
 * else their number; the table's last column gives each offer's numbers
 * and its verdict cells link to their reasons, so that a list of fifty ids
 * would only repeat them.
 */
#define S_FEW_OFFERS 3
static void S_offer_list_or_count(S_ctx *c, cmark_node *p, const size_t *pos, size_t n)
{
	if (n <= S_FEW_OFFERS)
		S_offer_list(c, p, pos, n);
	else
		gs_doc_textf(p, "%zu %s", n, TR("cand.offers"));
}

/*
 * The numbered list of a shared set under its heading (id heading_id):
 * each item's id (HTML) is PREFIX-N. A source: its text, then "memory
 * figure of a, b; price of c" (or "memory figure and price of" when both
 * are of the same offers); a note: "a, b: " then its text, as the catalog
 * wrote it. Beyond S_FEW_OFFERS offers, their number instead of their ids.
 */
static void S_shared_list(S_ctx *c, const S_sharedset *set, const char *heading_key,
			  const char *heading_id, const char *prefix, int sources)
{
	cmark_node *list, *p;
	size_t i;

	if (!set->n)
		return;
	gs_doc_heading_id(c->doc, c->root, 3, TR(heading_key), heading_id);
	list = gs_doc_list(c->root, 1);
	for (i = 0; i < set->n; i++) {
		const S_shared *e = &set->s[i];
		char *anchor = gs_xasprintf("%s-%zu", prefix, i + 1);

		p = gs_doc_item(list);
		gs_doc_item_id(c->doc, p, anchor);
		free(anchor);
		if (!sources) {
			/* a note: the offers it is written for, then the note;
			 * notes that differ by their offers' names alone are
			 * one, written as the first offer's */
			S_offer_list_or_count(c, p, e->pos[0], e->npos[0]);
			if (e->names_differ) {
				gs_doc_textf(p, ", %s ", TR("cand.group_note"));
				S_offer_list(c, p, e->pos[0], 1);
			}
			gs_doc_text(p, ": ");
		}
		if (e->nspec) {
			char **tmp = gs_xmalloc(e->nspec * sizeof(*tmp));
			char *lines, *t;
			memcpy(tmp, e->spec, e->nspec * sizeof(*tmp));
			lines = gs_sheet_lines_text(c->t, tmp, e->nspec);
			t = S_unmask(e->text, lines);
			gs_doc_text(p, t);
			free(t);
			free(lines);
			free(tmp);
		} else {
			gs_doc_text(p, e->shown ? e->shown : e->text);
		}
		if (sources) {
			gs_doc_text(p, ": ");
			if (e->npos[0] && e->npos[0] == e->npos[1] &&
			    memcmp(e->pos[0], e->pos[1], e->npos[0] * sizeof(*e->pos[0])) == 0) {
				gs_doc_textf(p, "%s ", TR("cand.memory_price_of"));
				S_offer_list_or_count(c, p, e->pos[0], e->npos[0]);
			} else {
				if (e->npos[0]) {
					gs_doc_textf(p, "%s ", TR("cand.memory_figure_of"));
					S_offer_list_or_count(c, p, e->pos[0], e->npos[0]);
				}
				if (e->npos[1]) {
					gs_doc_textf(p, "%s%s ", e->npos[0] ? "; " : "", TR("cand.price_of"));
					S_offer_list_or_count(c, p, e->pos[1], e->npos[1]);
				}
			}
			gs_doc_text(p, ".");
		}
	}
}

/*
 * The number (from 1) of the source "SOURCE (DATE)" among the sources of
 * the memory figures and prices, or 0: a dated catalog claim that is one
 * of them is cited by its number, not written again for every offer.
 */
static size_t S_source_number(const S_sharedset *sources, const char *source, const char *date)
{
	const S_shared *e;
	char *key;

	if (!date)
		return 0;
	key = gs_xasprintf("%s (%s)", source, date);
	e = S_shared_find(sources, key);
	if (!e) {
		char *spec, *masked = gs_sheet_line_mask(key, &spec);
		if (masked)
			e = S_shared_find(sources, masked);
		free(masked);
		free(spec);
	}
	free(key);
	return e ? (size_t)(e - sources->s) + 1 : 0;
}

/*
 * Budget reasons that differ by the cost alone (each price its own total)
 * are one: rep[i] is the first reason (in table order) of reason i's
 * group, next[i] the group's next reason (SIZE_MAX after its last). The
 * key is the sentence with the cost masked, the evidence with its line
 * numbers masked, and the verdict's other fields; by hash, in one pass.
 */
static void S_budget_merge(S_ctx *c, const gs_sheet_reasonset *rs, size_t *rep, size_t *next)
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
		if (v->evidence && !(ev = gs_sheet_line_mask(v->evidence, &spec)))
			ev = gs_xstrdup(v->evidence);
		key[i] = gs_xasprintf("%d\1%d\1%d\1%s\1%s\1%s\1%s", (int)v->kind, (int)v->basis,
				      !v->synthetic, text, ev ? ev : "", v->evidence_date ? v->evidence_date : "",
				      v->missing ? v->missing : "");
		free(text);
		free(ev);
		free(spec);
		hash[i] = gs_sheet_words_hash(key[i]);
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
 * The reasons, each written once: a subsection per requirement, an item
 * per distinct reason with its verdict and the offers it applies to (in
 * table order), then its sentence, evidence and what would confirm it.
 */
static void S_reasons(S_ctx *c, const gs_sheet_reasonset *rs, const S_sharedset *sources,
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
		list = NULL;
		for (i = 0; i < rs->n; i++) {
			const gs_sheet_reason *r = &rs->r[i];
			const gs_verdict *v = r->v;
			gs_verdict range;
			size_t *pos = r->pos, npos = r->npos, j;
			char *text = NULL, *evidence = NULL;
			if (r->req != (gs_req)q || v->kind == GS_V_NOT_REQUIRED || rep[i] != i)
				continue;
			if (next[i] != SIZE_MAX) {
				/* budget reasons that differ by the cost: the range of
				 * the costs, over all their offers (in table order), the
				 * evidence's lines listed */
				char **spec = NULL;
				size_t nspec = 0, cap = 0;
				int same_ev = 1;
				range = *v;
				c->cost_hi = v->cost;
				npos = 0;
				for (j = i; j != SIZE_MAX; j = next[j]) {
					const gs_verdict *u = rs->r[j].v;
					if (u->cost < range.cost)
						range.cost = u->cost;
					if (u->cost > c->cost_hi)
						c->cost_hi = u->cost;
					npos += rs->r[j].npos;
					same_ev &= gs_sheet_words_same_str(u->evidence, v->evidence);
				}
				pos = gs_xmalloc(npos * sizeof(*pos));
				npos = 0;
				for (j = i; j != SIZE_MAX; j = next[j]) {
					memcpy(pos + npos, rs->r[j].pos, rs->r[j].npos * sizeof(*pos));
					npos += rs->r[j].npos;
					if (!same_ev) {
						char *sp = NULL;
						free(gs_sheet_line_mask(rs->r[j].v->evidence, &sp));
						if (sp) {
							if (nspec == cap) {
								cap = cap ? 2 * cap : 8;
								spec = gs_xrealloc(spec, cap * sizeof(*spec));
							}
							spec[nspec++] = sp;
						}
					}
				}
				if (nspec) {
					char *sp, *masked = gs_sheet_line_mask(v->evidence, &sp);
					char *lines = gs_sheet_lines_text(c->t, spec, nspec);
					evidence = S_unmask(masked, lines);
					free(masked);
					free(sp);
					free(lines);
					for (j = 0; j < nspec; j++)
						free(spec[j]);
				}
				free(spec);
				qsort(pos, npos, sizeof(*pos), gs_sheet_words_cmp_size);
				c->cost_range = 1;
				text = gs_sheet_words_reason(c, &range);
				c->cost_range = 0;
				v = &range;
			}
			if (!list) {
				/* sheets/ID.html#reasons-memory: stable, one per requirement */
				char *anchor = gs_xasprintf("reasons-%s", gs_req_id((gs_req)q));
				gs_doc_heading_id(c->doc, c->root, 3, TR(gs_sheet_words_req_keys[q]), anchor);
				free(anchor);
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
				char *verdict = gs_xasprintf("%s %s", gs_sheet_verdict_symbol(v->kind),
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
				S_offer_list_or_count(c, p, pos, npos);
			gs_doc_text(p, ". ");
			gs_doc_text(p, text ? text : r->text);
			if (v->evidence) {
				size_t src = S_source_number(sources, v->evidence, v->evidence_date);
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
			if (v->missing)
				gs_doc_textf(p, " %s %s", TR("cand.to_confirm"), TR(v->missing));
			if (pos != r->pos)
				free(pos);
			free(text);
			free(evidence);
		}
	}
}

/*
 * Equivalent offers, one row: offers of one provider (or reference cards,
 * of none) with the same GPU model, cards per lot, memory figure (its words, the capacity per card
 * and where it comes from), class, headroom, the same kinds of plan in the
 * same currencies, the same reason for every requirement but the budget
 * and the same budget verdict. Their prices, and so their budget reasons,
 * may differ: the row gives the range. Grouped by a hash of that key, in
 * one pass over the offers in table order: a row stands where its first
 * (best ranked) offer stands, its offers in table order.
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

static uint64_t S_mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
	return h * 1099511628211ULL;
}

static uint64_t S_mix_str(uint64_t h, const char *s)
{
	return S_mix(h, s ? gs_sheet_words_hash(s) : 0);
}

static const char *S_cur(const gs_plan *p)
{
	return p ? p->currency : NULL;
}

static uint64_t S_row_hash(const S_ctx *c, const gs_sheet_reasonset *rs, size_t ci)
{
	const gs_candidate *a = &c->in->d->cands[ci];
	const gs_offer *o = a->offer;
	uint64_t h = S_mix_str(S_mix_str(0, o->provider), o->gpu_model);
	int q;

	h = S_mix(h, o->cards);
	h = S_mix(h, o->nominal_bytes);
	h = S_mix(h, (uint64_t)a->cls);
	h = S_mix(h, a->capacity.present ? a->capacity.bytes : 0);
	for (q = 0; q < GS_REQ_COUNT; q++)
		h = S_mix(h, q == GS_REQ_BUDGET ? (uint64_t)a->v[q].kind
			  : (uint64_t)rs->of[ci * GS_REQ_COUNT + (size_t)q]);
	return h;
}

static int S_same_row(const S_ctx *c, const gs_sheet_reasonset *rs, size_t ca, size_t cb)
{
	const gs_candidate *a = &c->in->d->cands[ca], *b = &c->in->d->cands[cb];
	const gs_offer *x = a->offer, *y = b->offer;
	int q;

	if (!gs_sheet_words_same_str(x->provider, y->provider) || !gs_sheet_words_same_str(x->gpu_model, y->gpu_model) ||
	    x->cards != y->cards || x->memory_unknown != y->memory_unknown ||
	    x->nominal_bytes != y->nominal_bytes || !gs_sheet_words_same_str(x->mib_text, y->mib_text) ||
	    !gs_sheet_words_same_str(x->nominal_gb_text, y->nominal_gb_text) ||
	    x->memory_origin != y->memory_origin || a->cls != b->cls ||
	    !gs_sheet_words_same_qty(a->capacity, b->capacity) || a->cap_source != b->cap_source)
		return 0;
	if (c->in->cat->origins &&
	    !gs_sheet_words_same_str(gs_catalog_origin(c->in->cat, x), gs_catalog_origin(c->in->cat, y)))
		return 0;
	if (!a->plan != !b->plan || !gs_sheet_words_same_str(S_cur(a->plan), S_cur(b->plan)) ||
	    !gs_sheet_words_same_str(S_cur(a->on_demand.plan), S_cur(b->on_demand.plan)) ||
	    !gs_sheet_words_same_str(S_cur(a->interruptible.plan), S_cur(b->interruptible.plan)))
		return 0;
	if (a->has_headroom != b->has_headroom ||
	    (a->has_headroom && (a->headroom_tokens != b->headroom_tokens ||
				 a->headroom_sequences != b->headroom_sequences ||
				 a->headroom_prov != b->headroom_prov ||
				 !a->headroom_synthetic != !b->headroom_synthetic ||
				 !a->headroom_without_reserve != !b->headroom_without_reserve)))
		return 0;
	for (q = 0; q < GS_REQ_COUNT; q++) {
		const gs_verdict *u = &a->v[q], *v = &b->v[q];
		if (q == GS_REQ_BUDGET) {
			if (u->kind != v->kind || !u->synthetic != !v->synthetic)
				return 0;
		} else if (rs->of[ca * GS_REQ_COUNT + (size_t)q] != rs->of[cb * GS_REQ_COUNT + (size_t)q]) {
			return 0;
		}
	}
	return 1;
}

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
			h = S_row_hash(c, rs, ci);
			for (k = (size_t)h & (nslot - 1); slot[k]; k = (k + 1) & (nslot - 1)) {
				const S_row *o = &rw->row[slot[k] - 1];
				if (o->hash == h && S_same_row(c, rs, d->order[o->first], ci)) {
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

static void S_rows_release(S_rows *rw)
{
	free(rw->row);
	free(rw->next);
}

/* "26.63–33.76 USD for the campaign; 0.3698–0.4689 USD/h on-demand, 0.30
 * interruptible": the range of a row's prices (one figure when they are
 * the same), in gs_sheet_answer_price_text's words. */
static void S_range_text(S_ctx *c, cmark_node *p, const S_rows *rw, size_t g)
{
	const gs_decision *d = c->in->d;
	const gs_candidate *f = &d->cands[d->order[rw->row[g].first]];
	int64_t lo[3], hi[3];
	const gs_plan *pl[3];
	const char *word[3];
	size_t i;
	int k, any = 0;

	pl[0] = f->plan;
	pl[1] = f->on_demand.plan;
	pl[2] = f->interruptible.plan;
	word[0] = TR("answer.campaign");
	word[1] = TR("price.on_demand");
	word[2] = TR("price.interruptible");
	for (k = 0; k < 3; k++)
		lo[k] = INT64_MAX, hi[k] = INT64_MIN;
	for (i = rw->row[g].first; i != SIZE_MAX; i = rw->next[i]) {
		const gs_candidate *cd = &d->cands[d->order[i]];
		int64_t v[3];
		v[0] = cd->plan ? cd->cost : 0;
		v[1] = cd->on_demand.plan ? cd->on_demand.micro_per_hour : 0;
		v[2] = cd->interruptible.plan ? cd->interruptible.micro_per_hour : 0;
		for (k = 0; k < 3; k++) {
			if (v[k] < lo[k])
				lo[k] = v[k];
			if (v[k] > hi[k])
				hi[k] = v[k];
		}
	}
	for (k = 0; k < 3; k++) {
		char a[GS_FMT_MAX], b[GS_FMT_MAX];
		if (!pl[k])
			continue;
		if (k == 0) {
			gs_fmt_money(a, lo[k], c->lang);
			gs_fmt_money(b, hi[k], c->lang);
		} else {
			gs_fmt_micro(a, lo[k], c->lang);
			gs_fmt_micro(b, hi[k], c->lang);
		}
		gs_doc_textf(p, "%s%s%s%s %s%s %s",
			     !any ? "" : k == 2 && !pl[0] ? ", " : "; ",
			     a, lo[k] != hi[k] ? "–" : "", lo[k] != hi[k] ? b : "",
			     pl[k]->currency, k ? "/h" : "", word[k]);
		any = 1;
	}
	if (!any)
		gs_doc_text(p, TR("word.missing"));
}

/* "sources 1–4, 7" or "source 3": numbers (from 0, SIZE_MAX left out),
 * sorted, each once, consecutive ones as a range. Returns 1 if any. */
static int S_numbers(cmark_node *p, const char *one, const char *many, size_t *num, size_t n,
		     const char *sep)
{
	size_t i, k = 0, j;

	for (i = 0; i < n; i++)
		if (num[i] != SIZE_MAX)
			num[k++] = num[i];
	if (!k)
		return 0;
	qsort(num, k, sizeof(*num), gs_sheet_words_cmp_size);
	for (i = 1, j = 1; i < k; i++)
		if (num[i] != num[j - 1])
			num[j++] = num[i];
	gs_doc_textf(p, "%s%s ", sep, j > 1 ? many : one);
	for (i = 0; i < j; i = k) {
		for (k = i + 1; k < j && num[k] == num[k - 1] + 1; k++)
			;
		if (k - i > 1)
			gs_doc_textf(p, "%s%zu–%zu", i ? ", " : "", num[i] + 1, num[k - 1] + 1);
		else
			gs_doc_textf(p, "%s%zu", i ? ", " : "", num[i] + 1);
	}
	return 1;
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
 * is in two groups.
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
			gs_sheet_words_anchor(c->doc, cell, "reasons-", gs_req_id((gs_req)gq[g]), gs_doc_cell_link);
		else
			gs_sheet_words_anchor(c->doc, cell, "why-", gs_dec(num, gwhy[g], 0), gs_doc_cell_link);
		cell = gs_doc_cell(r);
		/* sheets/ID.html#offer-OFFER: the site's pages link to each offer */
		for (k = gfirst[g]; k != SIZE_MAX; k = gnext[k])
			if (!named[k / GS_REQ_COUNT]) {
				named[k / GS_REQ_COUNT] = 1;
				gs_sheet_words_anchor(c->doc, cell, "offer-", d->cands[d->order[k / GS_REQ_COUNT]].offer->id,
					 gs_doc_cell_id);
			}
		if (cnt > 1)
			gs_doc_textf(cell, "%zu %s: ", cnt, TR("cand.offers"));
		for (k = gfirst[g], j = 0; k != SIZE_MAX; k = gnext[k], j++) {
			if (j)
				gs_doc_text(cell, ", ");
			gs_doc_code(cell, d->cands[d->order[k / GS_REQ_COUNT]].offer->id);
		}
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

static void S_candidates(S_ctx *c)
{
	const gs_decision *d = c->in->d;
	const char *h[GS_REQ_COUNT + 6];
	char *vtext[4][2], *hroom;
	int same[GS_REQ_COUNT], ncols, unstated = 0, any_room = 0;
	size_t ntab = 0, f0;
	const char *w_missing, *w_source, *w_note, *w_status[GS_CLASS_COUNT];
	const char *const *rk = gs_sheet_words_req_keys;
	cmark_node *tb, *r, *p;
	gs_sheet_reasonset own;
	const gs_sheet_reasonset *rs = c->in->rs;
	S_sharedset sources = { 0 }, notes = { 0 };
	S_rows rw;
	size_t i, g, *src_of, *note_of, *nums, *rep, *rnext;
	int q;

	if (!rs) {
		gs_sheet_reasonset_build(c->in, &own);
		rs = &own;
	}
	S_rows_build(c, rs, &rw);
	rep = gs_xmalloc((rs->n + 1) * sizeof(*rep));
	rnext = gs_xmalloc((rs->n + 1) * sizeof(*rnext));
	S_budget_merge(c, rs, rep, rnext);
	/* The sources and catalog notes the offers share, numbered once in
	 * table order, the offers of a row one after the other (SIZE_MAX:
	 * none). */
	src_of = gs_xmalloc((2 * d->ncands + 1) * sizeof(*src_of));
	note_of = gs_xmalloc((d->ncands + 1) * sizeof(*note_of));
	nums = gs_xmalloc((3 * d->ncands + 1) * sizeof(*nums));
	for (g = 0; g < rw.nrow; g++)
		for (i = rw.row[g].first; i != SIZE_MAX; i = rw.next[i]) {
			const gs_candidate *cd = &d->cands[d->order[i]];
			char w1[256];

			src_of[2 * i] = src_of[2 * i + 1] = note_of[i] = SIZE_MAX;
			if (S_compact(cd))
				continue;
			if (!cd->offer->memory_unknown)
				src_of[2 * i] = S_share_source(&sources, gs_xasprintf("%s (%s)",
					cd->offer->memory_claim.source,
					gs_claim_when(&cd->offer->memory_claim, TR("claim.undated"), w1, sizeof(w1))), 0, i);
			if (cd->plan)
				src_of[2 * i + 1] = S_share_source(&sources, gs_xasprintf("%s (%s)",
					cd->plan->claim.source,
					gs_claim_when(&cd->plan->claim, TR("claim.undated"), w1, sizeof(w1))), 1, i);
			if (cd->offer->notes) {
				char *masked = S_offer_note_masked(c, cd->offer);
				note_of[i] = masked
					? S_share_shown(&notes, masked, gs_xstrdup(cd->offer->notes), 0, i)
					: S_share(&notes, gs_xstrdup(cd->offer->notes), 0, i);
			}
		}

	/* A requirement whose verdict and reason are the same for every offer
	 * of the table is one sentence above it, not a column. */
	for (q = 0; q < GS_REQ_COUNT; q++)
		same[q] = 1;
	for (g = 0; g < rw.nrow && S_compact(&d->cands[d->order[rw.row[g].first]]); g++)
		;
	f0 = g < rw.nrow ? d->order[rw.row[g].first] : 0;
	for (g = 0; g < rw.nrow; g++) {
		size_t first = rw.row[g].first;
		if (S_compact(&d->cands[d->order[first]]))
			continue;
		for (i = first; i != SIZE_MAX; i = rw.next[i])
			for (q = 0; q < GS_REQ_COUNT; q++)
				if (rep[rs->of[d->order[i] * GS_REQ_COUNT + (size_t)q]] !=
				    rep[rs->of[f0 * GS_REQ_COUNT + (size_t)q]])
					same[q] = 0;
		/* no headroom calculated for any row (a training, a cache that
		 * is not dense): no headroom column */
		any_room |= d->cands[d->order[first]].has_headroom;
		ntab++;
	}
	/* What every row repeats, looked up and formatted once: the verdict
	 * cells' texts (by kind, then synthetic), the words of the last
	 * columns. */
	for (q = 0; q < 4; q++) {
		vtext[q][0] = gs_xasprintf("%s %s", gs_sheet_verdict_symbol((gs_verdict_kind)q),
					   gs_sheet_words_verdict_word(c, (gs_verdict_kind)q));
		vtext[q][1] = gs_xasprintf("%s%s", vtext[q][0], TR("verdict.synthetic_suffix"));
	}
	gs_doc_heading(c->root, 2, TR("sec.candidates"));
	p = gs_doc_para(c->root);
	gs_doc_text(p, TR("cand.intro"));
	tb = NULL;
	hroom = NULL;
	if (ntab) {
		int k = 0;
		for (q = 0; q < GS_REQ_COUNT; q++) {
			const gs_verdict *v = &d->cands[f0].v[q];
			if (!same[q])
				continue;
			if (!k++) {
				p = gs_doc_para(c->root);
				gs_doc_text(p, TR("cand.same_all"));
			}
			gs_doc_textf(p, "%s %s: %s", k > 1 ? ";" : "", TR(rk[q]),
				     vtext[v->kind][v->synthetic && v->kind != GS_V_TO_CONFIRM]);
		}
		if (k)
			gs_doc_text(p, ".");
		if (any_room) {
			gs_verdict hv;
			char a[GS_FMT_MAX], b[GS_FMT_MAX];
			memset(&hv, 0, sizeof(hv));
			hv.n1 = gs_fmt_int(a, c->in->s->kv_sequences, c->lang);
			hv.n2 = gs_fmt_int(b, c->in->s->kv_tokens_kept, c->lang);
			hroom = gs_sheet_words_expand(c, TR("col.headroom"), &hv);
		}
		ncols = 0;
		h[ncols++] = TR("col.offer");
		h[ncols++] = TR("col.capacity");
		for (q = 0; q < GS_REQ_COUNT; q++)
			if (!same[q])
				h[ncols++] = TR(rk[q]);
		h[ncols++] = TR("col.price");
		if (any_room)
			h[ncols++] = hroom;
		h[ncols++] = TR("col.overall");
		h[ncols++] = TR("col.sources_notes");
		tb = gs_doc_table(c->doc, c->root, TR("cap.candidates"), (size_t)ncols, h);
	}
	w_missing = TR("word.missing");
	w_source = TR("cand.source");
	w_note = TR("cand.note");
	for (q = 0; q < GS_CLASS_COUNT; q++)
		w_status[q] = gs_sheet_words_class_words(c, (gs_class)q);
	for (g = 0; g < rw.nrow; g++) {
		size_t first = rw.row[g].first, nof = rw.row[g].n;
		const gs_candidate *cd = &d->cands[d->order[first]];
		char gb[GS_FMT_MAX];
		cmark_node *cell;
		char mem[GS_FMT_MAX];
		/* the figure's words, unless the capacity cell says them */
		const char *mem_words = cd->offer->memory_unknown ||
			(cd->capacity.present && cd->cap_source == GS_CAP_NOMINAL) ? ""
			: TR(cd->offer->mib_text ? "cand.provider_assumed" : "cand.nominal_assumed");

		if (S_compact(cd))
			continue;
		r = gs_doc_row(tb);
		/* sheets/ID.html#offer-OFFER: the site's matrix and offer pages
		 * link to the offer's row; the other offers of a row are
		 * anchors in its first cell */
		gs_sheet_words_anchor(c->doc, r, "offer-", cd->offer->id, gs_doc_row_id);
		cell = gs_doc_cell(r);
		gs_offer_memory_label(cd->offer, w_missing, mem, sizeof(mem));
		if (nof == 1) {
			gs_doc_code(cell, cd->offer->id);
			gs_doc_textf(cell, " %s, %llu x %s%s%s", cd->offer->gpu_model,
				     (unsigned long long)cd->offer->cards, mem,
				     *mem_words ? " " : "", mem_words);
			if (cd->offer->provider)
				gs_doc_textf(cell, " — %s", cd->offer->provider);
		} else {
			/* "Cudo · 1 x A40 · 49152 MiB (assumed: ...) · 13 offers (`a`, ...)" */
			size_t *pos = nums, k = 0;
			for (i = first; i != SIZE_MAX; i = rw.next[i]) {
				if (i != first)
					gs_sheet_words_anchor(c->doc, cell, "offer-", d->cands[d->order[i]].offer->id,
						 gs_doc_cell_id);
				if (k < S_FEW_OFFERS)
					pos[k++] = i;
			}
			/* reference cards (no provider) share rows among themselves */
			if (cd->offer->provider)
				gs_doc_textf(cell, "%s · ", cd->offer->provider);
			gs_doc_textf(cell, "%llu x %s · %s%s%s · ",
				     (unsigned long long)cd->offer->cards, cd->offer->gpu_model, mem,
				     *mem_words ? " " : "", mem_words);
			gs_doc_textf(cell, "%zu %s (", nof, TR("cand.offers"));
			S_offer_list(c, cell, pos, k);
			if (nof > k)
				gs_doc_textf(cell, " %s %zu %s", TR("cand.and"), nof - k, TR("cand.more"));
			gs_doc_text(cell, ")");
		}
		if (c->in->cat->origins)
			gs_doc_textf(cell, " (%s: %s)", TR("site.catalog"),
				     gs_catalog_origin(c->in->cat, cd->offer));
		if (!cd->capacity.present)
			gs_doc_cell_text(r, w_missing);
		else
			gs_sheet_words_cell_owned(r, gs_xasprintf("%s (%s, %s%s)", gs_fmt_gib(gb, cd->capacity.bytes, c->lang),
						 gs_sheet_words_qprov(c, cd->capacity),
						 TR(cd->cap_source == GS_CAP_OBSERVED ? "cap.observed"
						    : cd->cap_source == GS_CAP_DECLARED ? "cap.declared"
						    : cd->offer->mib_text ? "cap.provider_mib" : "cap.nominal"),
						 cd->cap_source != GS_CAP_OBSERVED &&
						 cd->offer->memory_origin == GS_MEMORY_FROM_VENDOR
						 ? TR("cap.from_vendor_table") : ""));
		/* an observed capacity names the file, and who reported an imported log */
		if (cd->cap_source == GS_CAP_OBSERVED && cd->cap_from && cd->cap_from->ref->file) {
			cmark_node *last = cmark_node_last_child(r);
			gs_doc_textf(last, " — %s ", TR("cap.observed_in"));
			gs_doc_code(last, cd->cap_from->ref->file);
			if (cd->cap_from->m->import_source)
				gs_doc_textf(last, ", %s %s", TR("cap.reported_by"),
					     cd->cap_from->m->import_source);
		}
		for (q = 0; q < GS_REQ_COUNT; q++) {
			const gs_verdict *v = &cd->v[q];
			size_t why = rep[rs->of[d->order[first] * GS_REQ_COUNT + (size_t)q]];
			if (same[q])
				continue;
			cell = gs_doc_cell_text(r, vtext[v->kind][v->synthetic && v->kind != GS_V_TO_CONFIRM]);
			/* In the HTML, the verdict links to its reason (listed below
			 * unless not required); a row whose offers have several
			 * budget reasons, to the budget's reasons */
			if (v->kind != GS_V_NOT_REQUIRED) {
				char n[GS_DEC_MAX + 1];
				for (i = rw.next[first]; i != SIZE_MAX; i = rw.next[i])
					if (rep[rs->of[d->order[i] * GS_REQ_COUNT + (size_t)q]] != why)
						break;
				n[GS_DEC_MAX] = '\0';
				if (i == SIZE_MAX)
					gs_sheet_words_anchor(c->doc, cell, "why-", gs_dec(n, why, 0), gs_doc_cell_link);
				else
					gs_sheet_words_anchor(c->doc, cell, "reasons-", gs_req_id((gs_req)q), gs_doc_cell_link);
			}
		}
		if (nof > 1) {
			cell = gs_doc_cell(r);
			S_range_text(c, cell, &rw, g);
		} else if (cd->plan) {
			S_cost_cell(c, r, cd, &unstated);
		} else if (cd->on_demand.plan || cd->interruptible.plan) {
			cell = gs_doc_cell(r);
			gs_sheet_answer_price_text(c, cell, cd);
		} else {
			gs_doc_cell_text(r, w_missing);
		}
		if (any_room) {
			cell = gs_doc_cell(r);
			gs_sheet_answer_headroom_text(c, cell, cd);
		}
		gs_doc_cell_text(r, w_status[cd->cls]);
		/* its sources (the memory figure's, the price's) and note, by number */
		cell = gs_doc_cell(r);
		if (nof == 1) {
			size_t m = src_of[2 * first], pr = src_of[2 * first + 1];
			int any = 0;
			if (m != SIZE_MAX) {
				gs_doc_textf(cell, "%s %zu", w_source, m + 1);
				any = 1;
			}
			if (pr != SIZE_MAX && pr != m) {
				gs_doc_textf(cell, "%s%s %zu", any ? ", " : "", w_source, pr + 1);
				any = 1;
			}
			if (note_of[first] != SIZE_MAX) {
				gs_doc_textf(cell, "%s%s %zu", any ? "; " : "", w_note, note_of[first] + 1);
				any = 1;
			}
			if (!any)
				gs_doc_text(cell, "—");
		} else {
			size_t k = 0;
			int any;
			for (i = first; i != SIZE_MAX; i = rw.next[i]) {
				nums[k++] = src_of[2 * i];
				nums[k++] = src_of[2 * i + 1];
			}
			any = S_numbers(cell, w_source, TR("cand.sources_short"), nums, k, "");
			k = 0;
			for (i = first; i != SIZE_MAX; i = rw.next[i])
				nums[k++] = note_of[i];
			any |= S_numbers(cell, w_note, TR("cand.notes_short"), nums, k, any ? "; " : "");
			if (!any)
				gs_doc_text(cell, "—");
		}
	}
	free(hroom);
	if (unstated) {
		p = gs_doc_para(c->root);
		gs_doc_textf(p, "† %s", TR("cand.billing_mark"));
	}
	S_compact_table(c, rs, rep, vtext);
	for (q = 0; q < 4; q++) {
		free(vtext[q][0]);
		free(vtext[q][1]);
	}

	S_reasons(c, rs, &sources, rep, rnext);
	free(rep);
	free(rnext);
	if (rs == &own)
		gs_sheet_reasonset_release(&own);
	S_shared_list(c, &sources, "cand.sources", "sources", "source", 1);
	S_shared_list(c, &notes, "cand.notes", "catalog-notes", "note", 0);
	S_shared_release(&sources);
	S_shared_release(&notes);
	S_rows_release(&rw);
	free(src_of);
	free(note_of);
	free(nums);
}

static void S_invalidate(S_ctx *c)
{
	const gs_workload *w = c->in->w;
	cmark_node *list, *p;
	size_t i;
	int has_warm = 0, has_cold = 0;

	gs_doc_heading(c->root, 2, TR("sec.invalidate"));
	list = gs_doc_list(c->root, 0);
	p = gs_doc_item(list);
	gs_doc_text(p, TR("inval.longer_input"));
	if (w->inputs[2].ndims) {
		size_t k;
		char a[GS_FMT_MAX];
		gs_doc_text(p, " (");
		for (k = 0; k < w->inputs[2].ndims; k++)
			gs_doc_textf(p, "%s%s = %s", k ? ", " : "", w->inputs[2].dims[k].name,
				     gs_fmt_int(a, w->inputs[2].dims[k].value, c->lang));
		gs_doc_text(p, ")");
	}
	if (w->has_sliding_window || w->cache == GS_CACHE_SLIDING)
		gs_doc_text(gs_doc_item(list), TR("inval.window"));
	gs_doc_text(gs_doc_item(list), TR("inval.evaluation"));
	gs_doc_text(gs_doc_item(list), TR("inval.library"));
	for (i = 0; i < c->in->nev; i++) {
		size_t k;
		for (k = 0; k < c->in->ev[i].m->nphases; k++) {
			if (c->in->ev[i].m->phases[k].warm)
				has_warm = 1;
			else if (strcmp(c->in->ev[i].m->phases[k].name, "cold_forward") == 0)
				has_cold = 1;
		}
	}
	if (!c->in->nev)
		gs_doc_text(gs_doc_item(list), TR("inval.no_measurement"));
	else if (!has_cold || !has_warm)
		gs_doc_text(gs_doc_item(list), TR("inval.unmeasured_pass"));
	if (w->task != GS_TASK_INFERENCE)
		gs_doc_text(gs_doc_item(list), TR("inval.training_phases"));
	if (c->in->nev)
		gs_doc_text(gs_doc_item(list), TR("inval.instrumentation"));
	if (c->in->d->synthetic)
		gs_doc_text(gs_doc_item(list), TR("inval.synthetic"));
}

static void S_evidence_links(S_ctx *c)
{
	cmark_node *list, *p;
	size_t i;

	gs_doc_heading(c->root, 2, TR("sec.evidence"));
	if (!c->in->nev) {
		gs_doc_text(gs_doc_para(c->root), TR("meas.none"));
		return;
	}
	list = gs_doc_list(c->root, 0);
	for (i = 0; i < c->in->nev; i++) {
		p = gs_doc_item(list);
		gs_doc_link(p, c->in->ev_links[i], c->in->ev[i].ref->file);
		if (c->in->ev[i].ref->covers)
			gs_doc_textf(p, " — %s", c->in->ev[i].ref->covers);
		if (c->in->ev[i].m->synthetic)
			gs_doc_textf(p, " (%s)", TR("synthetic.short"));
	}
}

int gs_sheet_build(const gs_sheet_input *in, gs_sheet *out)
{
	S_ctx ctx, *c = &ctx;
	cmark_node *p;
	char *title;

	memset(out, 0, sizeof(*out));
	if (gs_doc_init(&out->doc))
		return -1;
	ctx.in = in;
	ctx.t = in->t;
	ctx.lang = in->t->lang;
	ctx.doc = &out->doc;
	ctx.root = out->doc.root;
	ctx.out = out;

	title = gs_xasprintf("%s: %s", TR("sheet.title"), in->w->title);
	gs_doc_heading(c->root, 1, title);
	free(title);
	gs_sheet_answer_warning_synthetic(c);
	p = gs_doc_para(c->root);
	gs_doc_text(p, TR("sheet.legend"));
	gs_sheet_answer_decision_summary(c);
	gs_sheet_answer_summary_card(c);
	gs_sheet_memory_identity(c);
	gs_sheet_memory_sizing(c);
	gs_sheet_memory_budget_chart(c);
	gs_sheet_measure_measurements(c);
	S_candidates(c);
	gs_sheet_answer_decision(c);
	S_invalidate(c);
	S_evidence_links(c);
	if (in->w->notes_md) {
		gs_doc_heading(c->root, 2, TR("sec.notes"));
		gs_doc_user_markdown(c->root, in->w->notes_md);
	}
	p = gs_doc_para(c->root);
	gs_doc_textf(p, "%s gpusheet %s; %s ", TR("sheet.generated"), GS_VERSION, TR("sheet.catalog"));
	gs_doc_code(p, in->catalog_name);
	if (in->date)
		gs_doc_textf(p, "; %s %s", TR("sheet.date"), in->date);
	gs_doc_text(p, ".");
	return 0;
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
	       gs_sheet_words_same_str(a->orientation, b->orientation);
}

/*
 * Most offers of a sheet give the same sentence for a requirement (all of
 * them for software, calendar, quality, host; one per GPU model for
 * memory): a sentence already made for the same inputs is copied instead
 * of made again, looking among the first S_SAME_MAX distinct ones of the
 * requirement (the scan stays short whatever the number of offers).
 */
#define S_SAME_MAX 64

char **gs_sheet_reasons(const gs_strings *t, const gs_decision *d)
{
	char **r = gs_xcalloc(d->ncands * GS_REQ_COUNT + 1, sizeof(*r));
	size_t seen[GS_REQ_COUNT][S_SAME_MAX], nseen[GS_REQ_COUNT] = { 0 };
	size_t i, k;
	int q;

	for (i = 0; i < d->ncands; i++)
		for (q = 0; q < GS_REQ_COUNT; q++) {
			const gs_verdict *v = &d->cands[i].v[q];
			char **slot = &r[i * GS_REQ_COUNT + (size_t)q];

			for (k = 0; k < nseen[q]; k++)
				if (S_same_text(&d->cands[seen[q][k]].v[q], v)) {
					*slot = gs_xstrdup(r[seen[q][k] * GS_REQ_COUNT + (size_t)q]);
					break;
				}
			if (*slot)
				continue;
			*slot = gs_sheet_reason_text(t, v);
			if (nseen[q] < S_SAME_MAX)
				seen[q][nseen[q]++] = i;
		}
	return r;
}

void gs_sheet_reasons_free(char **r, size_t ncands)
{
	size_t i;

	if (!r)
		return;
	for (i = 0; i < ncands * GS_REQ_COUNT; i++)
		free(r[i]);
	free(r);
}

char *gs_sheet_reason_of(const gs_sheet_input *in, size_t c, int q)
{
	if (in->reasons)
		return gs_xstrdup(in->reasons[c * GS_REQ_COUNT + (size_t)q]);
	return gs_sheet_reason_text(in->t, &in->d->cands[c].v[q]);
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

void gs_sheet_reasonset_build(const gs_sheet_input *in, gs_sheet_reasonset *rs)
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
					     : gs_sheet_reason_of(in, c, q);
			uint64_t h = gs_sheet_words_hash(text);
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

void gs_sheet_reasonset_release(gs_sheet_reasonset *rs)
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

void gs_sheet_release(gs_sheet *s)
{
	size_t i;

	gs_doc_release(&s->doc);
	for (i = 0; i < s->ncharts; i++) {
		free(s->charts[i].name);
		free(s->charts[i].title);
		gs_chart_out_release(&s->charts[i].out);
	}
	free(s->charts);
	memset(s, 0, sizeof(*s));
}
