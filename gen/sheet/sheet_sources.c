/*
 * sheet_sources: what offers share, written once and numbered: the sources of
 * their memory figures and prices (line numbers masked) and their catalog
 * notes (the offers' names masked).
 */
#define _DEFAULT_SOURCE
#include "sheet_int.h"

#include "buf.h"

/* The slot of text (hash h) in set's index: its entry's, or the empty one
 * where it would go. */
static size_t *S_shared_slot(const gs_sheet_sharedset *set, const char *text, uint64_t h)
{
	size_t k = (size_t)h & (set->nslot - 1);

	while (set->slot[k]) {
		const gs_sheet_shared *e = &set->s[set->slot[k] - 1];
		if (e->hash == h && strcmp(e->text, text) == 0)
			break;
		k = (k + 1) & (set->nslot - 1);
	}
	return &set->slot[k];
}

/* The entry of text in set, or NULL. */
static const gs_sheet_shared *S_shared_find(const gs_sheet_sharedset *set, const char *text)
{
	size_t *sl;

	if (!set->n)
		return NULL;
	sl = S_shared_slot(set, text, gs_hash_str(text));
	return *sl ? &set->s[*sl - 1] : NULL;
}

/*
 * The number of text in set (added when new), noting position pos in list
 * k; shown (a note as its offer wrote it, text with its name masked) is
 * kept from the first offer, text and shown are taken.
 */
size_t gs_sheet_sources_share_shown(gs_sheet_sharedset *set, char *text, char *shown, int k, size_t pos)
{
	uint64_t h = gs_hash_str(text);
	gs_sheet_shared *e = NULL;
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

size_t gs_sheet_sources_share(gs_sheet_sharedset *set, char *text, int k, size_t pos)
{
	return gs_sheet_sources_share_shown(set, text, NULL, k, pos);
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

char **gs_sheet_sources_notes_masked(const gs_catalog *cat)
{
	char **m = gs_xcalloc(cat->noffers + 1, sizeof(*m));
	size_t i;

	for (i = 0; i < cat->noffers; i++)
		if (cat->offers[i].notes)
			m[i] = S_note_masked(cat->offers[i].notes, cat->offers[i].id);
	return m;
}

void gs_sheet_sources_notes_masked_free(char **m, size_t n)
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
char *gs_sheet_sources_offer_note_masked(const S_ctx *c, const gs_offer *o)
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
char *gs_sheet_sources_line_mask(const char *text, char **spec)
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
char *gs_sheet_sources_lines_text(const gs_strings *t, char **spec, size_t n)
{
	gs_buf out = GS_BUF_INIT;
	size_t i, j, shown = 0;

	qsort(spec, n, sizeof(*spec), S_cmp_spec);
	for (i = 1, j = 1; i < n; i++)
		if (strcmp(spec[i], spec[j - 1]) != 0)
			spec[j++] = spec[i];
	if (j == 1)
		return gs_xasprintf("%s %s", strchr(spec[0], ',') || strchr(spec[0], '-') ? "lines" : "line",
				    spec[0]);
	gs_buf_put(&out, "lines ", 6);
	for (i = 0; i < j && shown < S_FEW_LINES; i++, shown++) {
		if (i)
			gs_buf_put(&out, ", ", 2);
		gs_buf_puts(&out, spec[i]);
	}
	if (j > shown) {
		char *more = gs_xasprintf(" %s %zu %s", gs_tr(t, "cand.and"), j - shown, gs_tr(t, "cand.more"));
		gs_buf_puts(&out, more);
		free(more);
	}
	return gs_buf_detach(&out, NULL);
}

/* text with its byte \2 replaced by lines (or text when it has none). */
char *gs_sheet_sources_unmask(const char *text, const char *lines)
{
	const char *m = strchr(text, '\2');

	if (!m)
		return gs_xstrdup(text);
	return gs_xasprintf("%.*s%s%s", (int)(m - text), text, lines, m + 1);
}

/* The number of source text in set, its line numbers masked (kept per
 * offer); text is taken. */
size_t gs_sheet_sources_share_source(gs_sheet_sharedset *set, char *text, int k, size_t pos)
{
	char *spec, *masked = gs_sheet_sources_line_mask(text, &spec);
	size_t n;
	gs_sheet_shared *e;

	if (!masked)
		return gs_sheet_sources_share(set, text, k, pos);
	free(text);
	n = gs_sheet_sources_share(set, masked, k, pos);
	e = &set->s[n];
	if ((e->nspec & (e->nspec - 1)) == 0)
		e->spec = gs_xrealloc(e->spec, (e->nspec ? 2 * e->nspec : 1) * sizeof(*e->spec));
	e->spec[e->nspec++] = spec;
	return n;
}

void gs_sheet_sources_shared_release(gs_sheet_sharedset *set)
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
void gs_sheet_sources_offer_list(S_ctx *c, cmark_node *p, const size_t *pos, size_t n)
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
void gs_sheet_sources_offer_list_or_count(S_ctx *c, cmark_node *p, const size_t *pos, size_t n)
{
	if (n <= GS_SHEET_FEW_OFFERS)
		gs_sheet_sources_offer_list(c, p, pos, n);
	else
		gs_doc_textf(p, "%zu %s", n, TR("cand.offers"));
}

/* The offers of a source or a note: their ids when the table is short
 * (and they are few), else their number: the table's last column gives
 * each offer's numbers, so that the ids would only repeat them. */
static void S_offer_count(S_ctx *c, cmark_node *p, const size_t *pos, size_t n)
{
	if (!c->count_offers)
		gs_sheet_sources_offer_list_or_count(c, p, pos, n);
	else if (n == 1)
		gs_doc_text(p, TR("cand.one_offer"));
	else
		gs_doc_textf(p, "%zu %s", n, TR("cand.offers"));
}

/* The text of an item as written: its lines put back, else as shown. */
static char *S_item_text(S_ctx *c, const gs_sheet_shared *e)
{
	char **tmp, *lines, *t;

	if (!e->nspec)
		return gs_xstrdup(e->shown ? e->shown : e->text);
	tmp = gs_xmalloc(e->nspec * sizeof(*tmp));
	memcpy(tmp, e->spec, e->nspec * sizeof(*tmp));
	lines = gs_sheet_sources_lines_text(c->t, tmp, e->nspec);
	t = gs_sheet_sources_unmask(e->text, lines);
	free(lines);
	free(tmp);
	return t;
}

/*
 * Sentences that several notes share ("Prices are per hour of one lot; a
 * spot plan is interruptible."), written once above the list as "[s1]
 * ..." and marked "[s1]" where they stood: a sentence is what ends with
 * ". " or ". " at the end of the text, from its start or the end of the
 * sentence before; only those of S_SHARED_MIN bytes or more, in two notes
 * or more, numbered in the order they first appear. Sources share
 * parentheses instead, marked "[p1]": "(date not recorded, SkyPilot
 * catalog commit ...)".
 */
#define S_SHARED_MIN 40

typedef struct {
	size_t item, off, n;   /* the note, the sentence's offset and length */
	size_t num;            /* its number (from 1), 0: not shared */
	const char *p;
} S_sent;

static int S_sent_cmp(const void *a, const void *b)
{
	const S_sent *x = *(const S_sent *const *)a, *y = *(const S_sent *const *)b;
	int r;

	if (x->n != y->n)
		return x->n < y->n ? -1 : 1;
	r = memcmp(x->p, y->p, x->n);
	if (r)
		return r;
	return x->item != y->item ? (x->item < y->item ? -1 : 1) : (x->off > y->off) - (x->off < y->off);
}

static void S_sent_add(S_sent **v, size_t *nv, size_t *av, const char *t, size_t i, size_t st, size_t n)
{
	if (n < S_SHARED_MIN)
		return;
	if (*nv == *av) {
		*av = *av ? 2 * *av : 64;
		*v = gs_xrealloc(*v, *av * sizeof(**v));
	}
	(*v)[*nv].item = i, (*v)[*nv].off = st, (*v)[*nv].n = n;
	(*v)[*nv].num = 0, (*v)[*nv].p = t + st;
	(*nv)++;
}

/* The sentences of texts (parens: their outermost parentheses instead),
 * ns of them, those shared numbered; returns how many are shared. */
static size_t S_shared_sentences(char **texts, size_t n, int parens, S_sent **out, size_t *ns)
{
	S_sent *v = NULL, **by;
	size_t nv = 0, av = 0, i, j, k, nshared = 0;
	size_t *first;

	for (i = 0; i < n; i++) {
		const char *t = texts[i];
		size_t st = 0, q, depth = 0;
		for (q = 0; t[q]; q++) {
			if (parens) {
				if (t[q] == '(' && !depth++)
					st = q;
				else if (t[q] == ')' && depth && !--depth)
					S_sent_add(&v, &nv, &av, t, i, st, q + 1 - st);
				continue;
			}
			if (t[q] != '.' || (t[q + 1] != ' ' && t[q + 1] != '\0'))
				continue;
			S_sent_add(&v, &nv, &av, t, i, st, q + 1 - st);
			st = t[q + 1] ? q + 2 : q + 1;
		}
	}
	by = gs_xmalloc((nv + 1) * sizeof(*by));
	first = gs_xmalloc((nv + 1) * sizeof(*first));
	for (i = 0; i < nv; i++)
		by[i] = &v[i];
	qsort(by, nv, sizeof(*by), S_sent_cmp);
	/* a group of equal sentences in two notes or more: numbered by its
	 * first place in the list (v is in that order) */
	for (i = 0; i < nv; i = j) {
		for (j = i + 1; j < nv && by[j]->n == by[i]->n && memcmp(by[j]->p, by[i]->p, by[i]->n) == 0; j++)
			;
		if (by[j - 1]->item != by[i]->item) {
			size_t lo = SIZE_MAX;
			for (k = i; k < j; k++)
				if ((size_t)(by[k] - v) < lo)
					lo = (size_t)(by[k] - v);
			first[nshared++] = lo;
			for (k = i; k < j; k++)
				by[k]->num = SIZE_MAX - lo;   /* renumbered below */
		}
	}
	qsort(first, nshared, sizeof(*first), gs_sheet_words_cmp_size);
	for (i = 0; i < nv; i++)
		if (v[i].num) {
			size_t lo = SIZE_MAX - v[i].num, a = 0, b = nshared;
			while (a < b) {   /* its place among the first places */
				size_t m = (a + b) / 2;
				if (first[m] < lo)
					a = m + 1;
				else
					b = m;
			}
			v[i].num = a + 1;
		}
	free(first);
	free(by);
	*out = v;
	*ns = nv;
	return nshared;
}

/* text with its shared sentences (v[*k..], of item i) as their marks */
static void S_text_marked(cmark_node *p, const char *t, const S_sent *v, size_t nv, size_t *k, size_t i,
			  const char *mark)
{
	size_t at = 0;

	for (; *k < nv && v[*k].item == i; (*k)++) {
		char *part;
		if (!v[*k].num)
			continue;
		part = gs_xasprintf("%.*s[%s%zu]", (int)(v[*k].off - at), t + at, mark, v[*k].num);
		gs_doc_text(p, part);
		free(part);
		at = v[*k].off + v[*k].n;
	}
	gs_doc_text(p, t + at);
}

/*
 * The numbered list of a shared set under its heading (id heading_id):
 * each item's id (HTML) is PREFIX-N. A source: its text, then "memory
 * figure of a, b; price of c" (or "memory figure and price of" when both
 * are of the same offers; in a long table, "of 2 offers", "of one offer":
 * the table's last column names each offer's); a note: "a, b: " (in a
 * long table "2 offers: ", nothing for one) then its text, as the catalog
 * wrote it, its sentences that several notes share written once above the
 * list (S_shared_sentences), as a source's parentheses that several
 * sources share (their dates and commits, the vendor's documents).
 */
void gs_sheet_sources_shared_list(S_ctx *c, const gs_sheet_sharedset *set, const char *heading_key,
			  const char *heading_id, const char *prefix, int sources)
{
	cmark_node *list, *p;
	char **texts;
	S_sent *v = NULL;
	size_t i, nv = 0, k = 0, nshared = 0;
	const char *mark = sources ? "p" : "s";

	if (!set->n)
		return;
	gs_doc_heading_id(c->doc, c->root, 3, TR(heading_key), heading_id);
	texts = gs_xmalloc(set->n * sizeof(*texts));
	for (i = 0; i < set->n; i++)
		texts[i] = S_item_text(c, &set->s[i]);
	nshared = S_shared_sentences(texts, set->n, sources, &v, &nv);
	if (nshared) {
		size_t num = 1;
		p = gs_doc_para(c->root);
		gs_doc_text(p, TR(sources ? "cand.sources_shared" : "cand.notes_shared"));
		for (i = 0; i < nv; i++)
			if (v[i].num == num) {
				char *one = gs_xasprintf(" [%s%zu] %.*s", mark, num, (int)v[i].n, v[i].p);
				gs_doc_text(p, one);
				free(one);
				num++;
			}
	}
	list = gs_doc_list(c->root, 1);
	for (i = 0; i < set->n; i++) {
		const gs_sheet_shared *e = &set->s[i];
		char *anchor = gs_xasprintf("%s-%zu", prefix, i + 1);

		p = gs_doc_item(list);
		gs_doc_item_id(c->doc, p, anchor);
		free(anchor);
		if (!sources) {
			/* a note: the offers it is written for, then the note;
			 * notes that differ by their offers' names alone are
			 * one, written as the first offer's */
			if (!c->count_offers || e->npos[0] > 1 || e->names_differ) {
				S_offer_count(c, p, e->pos[0], e->npos[0]);
				if (e->names_differ) {
					gs_doc_textf(p, ", %s ", TR("cand.group_note"));
					gs_sheet_sources_offer_list(c, p, e->pos[0], 1);
				}
				gs_doc_text(p, ": ");
			}
		}
		S_text_marked(p, texts[i], v, nv, &k, i, mark);
		if (sources) {
			gs_doc_text(p, ": ");
			if (e->npos[0] && e->npos[0] == e->npos[1] &&
			    memcmp(e->pos[0], e->pos[1], e->npos[0] * sizeof(*e->pos[0])) == 0) {
				gs_doc_textf(p, "%s ", TR("cand.memory_price_of"));
				S_offer_count(c, p, e->pos[0], e->npos[0]);
			} else {
				if (e->npos[0]) {
					gs_doc_textf(p, "%s ", TR("cand.memory_figure_of"));
					S_offer_count(c, p, e->pos[0], e->npos[0]);
				}
				if (e->npos[1]) {
					gs_doc_textf(p, "%s%s ", e->npos[0] ? "; " : "", TR("cand.price_of"));
					S_offer_count(c, p, e->pos[1], e->npos[1]);
				}
			}
			gs_doc_text(p, ".");
		}
	}
	for (i = 0; i < set->n; i++)
		free(texts[i]);
	free(texts);
	free(v);
}

/*
 * The number (from 1) of the source "SOURCE (DATE)" among the sources of
 * the memory figures and prices, or 0: a dated catalog claim that is one
 * of them is cited by its number, not written again for every offer.
 */
size_t gs_sheet_sources_source_number(const gs_sheet_sharedset *sources, const char *source, const char *date)
{
	const gs_sheet_shared *e;
	char *key;

	if (!date)
		return 0;
	key = gs_xasprintf("%s (%s)", source, date);
	e = S_shared_find(sources, key);
	if (!e) {
		char *spec, *masked = gs_sheet_sources_line_mask(key, &spec);
		if (masked)
			e = S_shared_find(sources, masked);
		free(masked);
		free(spec);
	}
	free(key);
	return e ? (size_t)(e - sources->s) + 1 : 0;
}
