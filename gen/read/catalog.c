/*
 * catalog: GPU rental offers, read from XML and validated against the
 * RelaxNG schema catalog/catalog.rng.
 *
 * Three passes, each reporting every error it finds:
 *  1. parse: no network, no entity expansion, no DTD loading; a document
 *     type declaration stops the parser at once and is refused, so that no
 *     entity (internal or external) is ever declared, let alone expanded;
 *  2. RelaxNG validation: structure, required attributes, closed lists;
 *  3. meaning: numbers, dates, currency, unique ids, availability kinds.
 * Passes 2 and 3 both run on a well-formed document; pass 3 stays silent
 * about anything the schema already reports (missing or unknown items).
 *
 * A valid catalog is read once, streamed (S_read_stream): the schema
 * checks it as it streams and each offer's element is read on its own.
 * A catalog with any error at all is then read again whole (S_read_dom),
 * and that reading says every error, so that both give the same messages.
 *
 * libxml2's external entity loader is process-wide: while a catalog is read
 * it is replaced by one that refuses everything but the catalog file and the
 * schema file. gs_catalog_read is therefore not thread-safe.
 */
#define _POSIX_C_SOURCE 200809L
#include "catalog.h"
#include "infile.h"
#include "quantity.h"
#include "util.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/relaxng.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlreader.h>

#define S_NS "https://gpusheet.example/ns/catalog/1"

typedef struct {
	const char *path;       /* the catalog, as given by the caller */
	const char *schema;     /* the schema, as given by the caller */
	gs_diag *d;
	size_t nerrors;
	int saw_dtd;            /* line of the DOCTYPE, or 0 */
	const xmlNode **explained; /* elements whose attributes were explained */
	size_t nexplained, explained_alloc;
	size_t validate_first;  /* d->count when validation started */
	char *pending;          /* a schema error that named no element, or NULL */
} S_reader;

/*** memory ***/

static void *S_grow(void *p, size_t *alloc, size_t count, size_t size)
{
	size_t na;
	void *np;

	if (count < *alloc)
		return p;
	na = *alloc ? *alloc * 2 : 4;
	if (na > SIZE_MAX / size)
		GS_BUG("array of %zu items of %zu bytes overflows", na, size);
	np = gs_xrealloc(p, na * size);
	memset((char *)np + *alloc * size, 0, (na - *alloc) * size);
	*alloc = na;
	return np;
}

/*** errors ***/

static int S_line(const xmlNode *n)
{
	long l = n ? xmlGetLineNo(n) : 0;

	if (l < 0)
		return 0;
	return l > INT_MAX ? INT_MAX : (int)l;
}

/* Values quoted in messages may hold line breaks (&#10;): one line each. */
static void S_one_line(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			*s = ' ';
}

static void S_err(S_reader *r, const xmlNode *n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void S_err_va(S_reader *r, int line, const char *fmt, va_list ap)
{
	char *buf = gs_xvasprintf(fmt, ap);

	S_one_line(buf);
	gs_diag_add(r->d, r->path, line, 0, NULL, "%s", buf);
	free(buf);
	r->nerrors++;
}

static void S_err(S_reader *r, const xmlNode *n, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	S_err_va(r, S_line(n), fmt, ap);
	va_end(ap);
}

static void S_err_at(S_reader *r, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void S_err_at(S_reader *r, int line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	S_err_va(r, line, fmt, ap);
	va_end(ap);
}

/* libxml2 messages end with a newline and start with a capital: the
 * message whole (the caller frees it), on one line, in lower case. */
static char *S_clean_message(const char *in)
{
	char *out = gs_xstrdup(in ? in : "unknown error");
	size_t n;

	n = strlen(out);
	while (n > 0 && (out[n - 1] == '\n' || out[n - 1] == ' '))
		out[--n] = '\0';
	S_one_line(out);
	if (out[0] >= 'A' && out[0] <= 'Z' && out[1] >= 'a' && out[1] <= 'z')
		out[0] = (char)(out[0] - 'A' + 'a');
	return out;
}

/*
 * Parser errors. The first argument is what libxml2 calls the user data of
 * the parser context, which is the context itself: our reader hangs from
 * ctxt->_private.
 */
static void S_on_parse_error(void *ctx, xmlErrorPtr e)
{
	xmlParserCtxtPtr ctxt = ctx;
	S_reader *r = ctxt ? ctxt->_private : NULL;
	char *msg;

	if (!r || !e || e->level < XML_ERR_ERROR)
		return;
	/* The parser stopped on a DOCTYPE: that error is reported once. */
	if (r->saw_dtd)
		return;
	msg = S_clean_message(e->message);
	gs_diag_add(r->d, r->path, e->line, e->int2, NULL,
		    "malformed XML: %s", msg);
	free(msg);
	r->nerrors++;
}

/* A DOCTYPE is seen before its internal subset is read: stop right there. */
static void S_on_internal_subset(void *ctx, const xmlChar *name,
				 const xmlChar *external_id,
				 const xmlChar *system_id)
{
	xmlParserCtxtPtr ctxt = ctx;
	S_reader *r = ctxt->_private;

	(void)name;
	(void)external_id;
	(void)system_id;
	if (r && !r->saw_dtd)
		r->saw_dtd = ctxt->input ? (ctxt->input->line > 0 ? ctxt->input->line : 1) : 1;
	xmlStopParser(ctxt);
}

/* Errors that reach no parser context (I/O, stray messages): keep quiet. */
static void S_on_generic_error(void *ctx, const char *msg, ...)
{
	(void)ctx;
	(void)msg;
}

static void S_on_global_error(void *ctx, xmlErrorPtr e)
{
	(void)ctx;
	(void)e;
}

/*** the external entity loader ***/

static const char *S_allow_main;
static const char *S_allow_schema;
static S_reader *S_loading;

static xmlParserInputPtr S_entity_loader(const char *url, const char *id,
					 xmlParserCtxtPtr ctxt)
{
	if (url && ((S_allow_main && strcmp(url, S_allow_main) == 0) ||
		    (S_allow_schema && strcmp(url, S_allow_schema) == 0)))
		return xmlNoNetExternalEntityLoader(url, id, ctxt);
	if (S_loading) {
		gs_diag_add(S_loading->d, S_loading->path, 0, 0, NULL,
			    "refused to load external resource '%s'",
			    url ? url : (id ? id : "?"));
		S_loading->nerrors++;
	}
	return NULL;
}

/*** schema errors ***/

/*
 * What the schema allows on each element, to turn libxml2's "element X
 * failed to validate attributes" into messages that name the attribute.
 * Keep in step with catalog/catalog.rng. A choice lists its words with '|'.
 */
typedef struct {
	const char *name;
	const char *value;    /* NULL: any text; else "a|b|c" */
	int required;
} S_attr_rule;

typedef struct {
	const char *element;
	S_attr_rule attrs[8];
} S_elem_rule;

static const S_elem_rule S_rules[] = {
	{ "catalog", { { "title", NULL, 1 }, { "provider", NULL, 0 }, { "date", NULL, 0 },
		       { "ref", NULL, 0 } } },
	{ "offer", { { "id", NULL, 1 }, { "provider", NULL, 0 },
		     { "segment", "data-centre|workstation", 0 }, { "reference", "true|false", 0 } } },
	{ "gpu", { { "model", NULL, 1 }, { "device-name", NULL, 0 } } },
	{ "lot", { { "cards", NULL, 1 } } },
	/* 'date' may be left out for 'ref' (S_claim checks one is there);
	 * 'memory' takes 'nominal-gb' or 'mib' (S_read_memory). */
	{ "memory", { { "nominal-gb", NULL, 0 }, { "mib", NULL, 0 },
		      { "origin", "catalog|vendor", 0 }, { "rejected-mib", NULL, 0 },
		      { "source", NULL, 1 }, { "date", NULL, 0 }, { "ref", NULL, 0 } } },
	{ "declared-bytes", { { "value", NULL, 1 }, { "source", NULL, 1 },
			      { "date", NULL, 0 }, { "ref", NULL, 0 } } },
	{ "regions", { { "names", NULL, 1 }, { "source", NULL, 1 },
		       { "date", NULL, 0 }, { "ref", NULL, 0 } } },
	{ "plan", { { "hours", NULL, 1 }, { "price", NULL, 1 },
		    { "currency", NULL, 1 }, { "billing-hours", NULL, 0 },
		    { "interruptible", "true|false", 0 }, { "source", NULL, 1 },
		    { "date", NULL, 0 }, { "ref", NULL, 0 } } },
	{ "in", { { "region", NULL, 0 }, { "zone", NULL, 0 } } },
	{ "availability", { { "kind", "stock|window|on-request|unavailable", 1 },
			    { "stock", NULL, 0 }, { "from", NULL, 0 },
			    { "to", NULL, 0 }, { "source", NULL, 1 },
			    { "date", NULL, 0 }, { "ref", NULL, 0 } } },
	{ "software", { { "name", NULL, 1 }, { "installed", "true|false", 1 },
			{ "source", NULL, 1 }, { "date", NULL, 0 }, { "ref", NULL, 0 } } },
	{ "host", { { "ram-gb", NULL, 1 }, { "source", NULL, 1 },
		    { "date", NULL, 0 }, { "ref", NULL, 0 } } },
	{ "interconnect", { { "name", NULL, 1 }, { "source", NULL, 1 },
			    { "date", NULL, 0 }, { "ref", NULL, 0 } } },
	{ "notes", { { NULL, NULL, 0 } } },
};

static int S_in_list(const char *list, const char *word)
{
	size_t n = strlen(word);
	const char *p = list;

	while (*p) {
		const char *bar = strchr(p, '|');
		size_t len = bar ? (size_t)(bar - p) : strlen(p);
		if (len == n && strncmp(p, word, n) == 0)
			return 1;
		if (!bar)
			break;
		p = bar + 1;
	}
	return 0;
}

/* "a|b" -> "'a', 'b'" */
static const char *S_quote_list(const char *list, char *out, size_t size)
{
	size_t i = 0;
	const char *p;

	if (size < 4)
		return "";
	out[i++] = '\'';
	for (p = list; *p && i + 5 < size; p++) {
		if (*p == '|') {
			memcpy(out + i, "', '", 4);
			i += 4;
		} else {
			out[i++] = *p;
		}
	}
	out[i++] = '\'';
	out[i] = '\0';
	return out;
}

/* Explains a failed attribute check; returns how many errors it added. */
static size_t S_explain_attributes(S_reader *r, const xmlNode *n)
{
	const S_elem_rule *rule = NULL;
	const xmlAttr *a;
	char list[256];
	size_t i, j, before = r->nerrors;

	for (i = 0; i < sizeof(S_rules) / sizeof(S_rules[0]); i++)
		if (strcmp(S_rules[i].element, (const char *)n->name) == 0)
			rule = &S_rules[i];
	if (!rule)
		return 0;
	for (j = 0; j < 8 && rule->attrs[j].name; j++) {
		const S_attr_rule *ar = &rule->attrs[j];
		xmlChar *v = xmlGetNoNsProp(n, (const xmlChar *)ar->name);
		if (!v && ar->required)
			S_err(r, n, "element '%s': missing required attribute '%s'",
			      rule->element, ar->name);
		else if (v && ar->value && !S_in_list(ar->value, (const char *)v))
			S_err(r, n, "element '%s', attribute '%s': expected one of %s, found '%s'",
			      rule->element, ar->name, S_quote_list(ar->value, list, sizeof(list)),
			      (const char *)v);
		xmlFree(v);
	}
	for (a = n->properties; a; a = a->next) {
		int known = 0;
		if (!a->ns)
			for (j = 0; j < 8 && rule->attrs[j].name; j++)
				if (strcmp(rule->attrs[j].name, (const char *)a->name) == 0)
					known = 1;
		if (!known)
			S_err(r, n, "element '%s': unexpected attribute '%s%s%s'",
			      rule->element,
			      a->ns && a->ns->prefix ? (const char *)a->ns->prefix : "",
			      a->ns && a->ns->prefix ? ":" : "",
			      (const char *)a->name);
	}
	return r->nerrors - before;
}

/* What each element may hold, for messages about missing or misplaced children. */
static const char *S_children(const char *element)
{
	if (strcmp(element, "catalog") == 0)
		return "one or more 'offer'";
	if (strcmp(element, "offer") == 0)
		return "gpu, lot, memory (optional), declared-bytes (optional), regions (optional), plan (any number), "
		       "availability (optional), software (any number), host (optional), "
		       "interconnect (optional), notes (optional), in this order";
	if (strcmp(element, "plan") == 0)
		return "'in' (any number)";
	return "no child elements";
}

/* Copies the word after prefix in msg (up to a space, comma or the end). */
static int S_word_after(const char *msg, const char *prefix, char *out, size_t size)
{
	size_t n = strlen(prefix), i = 0;
	const char *p;

	if (strncmp(msg, prefix, n) != 0)
		return 0;
	for (p = msg + n; *p && *p != ' ' && *p != ',' && i + 1 < size; p++)
		out[i++] = *p;
	out[i] = '\0';
	/* a word longer than out: libxml2's message is kept whole instead */
	if (*p && *p != ' ' && *p != ',')
		return 0;
	return i > 0;
}

static int S_explained(S_reader *r, const xmlNode *n)
{
	size_t i;

	for (i = 0; i < r->nexplained; i++)
		if (r->explained[i] == n)
			return 1;
	r->explained = S_grow(r->explained, &r->explained_alloc, r->nexplained,
			      sizeof(*r->explained));
	r->explained[r->nexplained++] = n;
	return 0;
}

/*
 * RelaxNG validity errors. libxml2's words are kept when nothing better is
 * known; the usual ones are rewritten to name the element and attribute.
 */
static void S_schema_error(S_reader *r, xmlErrorPtr e, const char *msg);

static void S_on_schema_error(void *ctx, xmlErrorPtr e)
{
	S_reader *r = ctx;
	char *msg;

	if (!r || !e || e->level < XML_ERR_ERROR)
		return;
	msg = S_clean_message(e->message);
	S_schema_error(r, e, msg);
	free(msg);
}

/* S_on_schema_error's work, for libxml2's message msg. */
static void S_schema_error(S_reader *r, xmlErrorPtr e, const char *msg)
{
	const xmlNode *n;
	const char *parent;
	char w[256];
	int line, ours;
	size_t i, first;

	first = r->validate_first;
	n = e->node;
	if (!n || n->type != XML_ELEMENT_NODE) {
		/*
		 * libxml2 does not always say which element failed (an offer
		 * without id, for one): S_validate walks the tree afterwards.
		 */
		if (strstr(msg, " failed to validate ")) {
			if (!r->pending)
				r->pending = gs_xstrdup(msg);
			return;
		}
		gs_diag_add(r->d, r->path, e->line, 0, NULL, "schema: %s", msg);
		r->nerrors++;
		return;
	}
	line = S_line(n);
	ours = n->ns && strcmp((const char *)n->ns->href, S_NS) == 0;
	parent = n->parent && n->parent->type == XML_ELEMENT_NODE ?
		 (const char *)n->parent->name : NULL;
	if (ours && (strstr(msg, "failed to validate attributes") ||
		     strncmp(msg, "invalid attribute ", 18) == 0)) {
		size_t before = r->nerrors;
		if (S_explained(r, n))
			return;
		S_explain_attributes(r, n);
		if (r->nerrors > before)
			return;
	}
	if (S_word_after(msg, "did not expect element ", w, sizeof(w))) {
		if (parent)
			S_err(r, n, "element '%s' is not allowed here; '%s' holds %s",
			      w, parent, S_children(parent));
		else
			S_err(r, n, "element '%s' is not allowed here", w);
		return;
	}
	if (S_word_after(msg, "element ", w, sizeof(w)) && strstr(msg, " has extra content: ")) {
		/* follows a more precise error about the same line */
		for (i = first; i < r->d->count; i++)
			if (r->d->items[i].line == line)
				return;
		S_err(r, n, "element '%s' has unexpected content '%s'", w,
		      strstr(msg, " has extra content: ") + 20);
		return;
	}
	if (S_word_after(msg, "expecting a namespace for element ", w, sizeof(w)) ||
	    strstr(msg, " has wrong namespace: ")) {
		S_err(r, n, "element '%s' is in namespace '%s', expected '%s'",
		      (const char *)n->name,
		      n->ns ? (const char *)n->ns->href : "(none)", S_NS);
		return;
	}
	if (strcmp(msg, "expecting an element , got nothing") == 0) {
		S_err(r, n, "element '%s' is missing a child element; it holds %s",
		      (const char *)n->name, S_children((const char *)n->name));
		return;
	}
	if (S_word_after(msg, "expecting element ", w, sizeof(w)) && !parent) {
		S_err(r, n, "the root element must be 'catalog' in namespace '%s', found '%s'",
		      S_NS, (const char *)n->name);
		return;
	}
	if (strncmp(msg, "did not expect text in element ", 31) == 0) {
		S_err(r, n, "element '%s' must not contain text", (const char *)n->name);
		return;
	}
	/* libxml2 sometimes says the same thing twice. */
	for (i = 0; i < r->d->count; i++)
		if (r->d->items[i].line == line &&
		    strncmp(r->d->items[i].message, "schema: ", 8) == 0 &&
		    strcmp(r->d->items[i].message + 8, msg) == 0)
			return;
	gs_diag_add(r->d, r->path, line, 0, NULL, "schema: %s", msg);
	r->nerrors++;
}

/* Explains the attributes of every element libxml2 did not name. */
static void S_explain_all(S_reader *r, const xmlNode *n)
{
	for (; n; n = n->next) {
		if (n->type != XML_ELEMENT_NODE)
			continue;
		if (n->ns && strcmp((const char *)n->ns->href, S_NS) == 0 &&
		    !S_explained(r, n))
			S_explain_attributes(r, n);
		S_explain_all(r, n->children);
	}
}

static void S_on_schema_parse_error(void *ctx, xmlErrorPtr e)
{
	S_reader *r = ctx;
	char *msg;

	if (!r || !e || e->level < XML_ERR_ERROR)
		return;
	msg = S_clean_message(e->message);
	gs_diag_add(r->d, r->schema, e->line, 0, NULL,
		    "cannot load the catalog schema: %s", msg);
	free(msg);
	r->nerrors++;
}

/*
 * The compiled schema, kept for the process: every catalog of a run is
 * checked against the same file, and compiling it was 3 % of a sheet
 * against every bundled catalog (19 compilations). NULL, with the error
 * reported, when it cannot be compiled.
 */
static char *S_schema_path;
static xmlRelaxNGPtr S_schema_compiled;

static xmlRelaxNGPtr S_schema(S_reader *r)
{
	xmlRelaxNGParserCtxtPtr pctxt;
	xmlRelaxNGPtr schema;
	size_t before = r->nerrors;

	if (S_schema_compiled && strcmp(S_schema_path, r->schema) == 0)
		return S_schema_compiled;
	pctxt = xmlRelaxNGNewParserCtxt(r->schema);
	if (!pctxt) {
		gs_diag_add(r->d, r->schema, 0, 0, NULL, "cannot load the catalog schema");
		r->nerrors++;
		return NULL;
	}
	xmlRelaxNGSetParserStructuredErrors(pctxt, S_on_schema_parse_error, r);
	schema = xmlRelaxNGParse(pctxt);
	xmlRelaxNGFreeParserCtxt(pctxt);
	if (!schema) {
		if (r->nerrors == before) {
			gs_diag_add(r->d, r->schema, 0, 0, NULL, "cannot load the catalog schema");
			r->nerrors++;
		}
		return NULL;
	}
	if (S_schema_compiled)
		xmlRelaxNGFree(S_schema_compiled);
	free(S_schema_path);
	S_schema_compiled = schema;
	S_schema_path = gs_xstrdup(r->schema);
	return schema;
}

static void S_validate(S_reader *r, xmlDocPtr doc)
{
	xmlRelaxNGValidCtxtPtr vctxt;
	xmlRelaxNGPtr schema = S_schema(r);
	size_t before = r->nerrors;
	int rc;

	if (!schema)
		return;
	vctxt = xmlRelaxNGNewValidCtxt(schema);
	if (!vctxt)
		GS_BUG("out of memory (RelaxNG validation context)");
	xmlRelaxNGSetValidStructuredErrors(vctxt, S_on_schema_error, r);
	r->validate_first = r->d->count;
	rc = xmlRelaxNGValidateDoc(vctxt, doc);
	if (rc != 0)
		S_explain_all(r, xmlDocGetRootElement(doc));
	if (rc != 0 && r->nerrors == before) {
		gs_diag_add(r->d, r->path, 0, 0, NULL, "schema: %s",
			    r->pending ? r->pending :
			    "the document does not match catalog.rng");
		r->nerrors++;
	}
	xmlRelaxNGFreeValidCtxt(vctxt);
}

/*** values ***/

static int S_is(const xmlNode *n, const char *name)
{
	return n && n->type == XML_ELEMENT_NODE && n->ns &&
	       strcmp((const char *)n->ns->href, S_NS) == 0 &&
	       strcmp((const char *)n->name, name) == 0;
}

/* The attribute as a malloc'd string, or NULL when absent. */
static char *S_attr(const xmlNode *n, const char *name)
{
	const xmlAttr *a;
	xmlChar *v;
	char *r;

	/* The common case, an attribute whose value is one text node: that
	 * text, copied once (xmlGetNoNsProp copies it, to be copied again, as
	 * it does in this case). Anything else, xmlGetNoNsProp's own way. */
	for (a = n->properties; a; a = a->next)
		if (!a->ns && xmlStrEqual(a->name, (const xmlChar *)name)) {
			const xmlNode *t = a->children;
			if (t && t->type == XML_TEXT_NODE && !t->next && t->content)
				return gs_xstrdup((const char *)t->content);
			break;
		}
	v = xmlGetNoNsProp(n, (const xmlChar *)name);
	if (!v)
		return NULL;
	r = gs_xstrdup((const char *)v);
	xmlFree(v);
	return r;
}

static int S_digits(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return 0;
	return 1;
}

/* YYYY-MM-DD, a day that exists in the proleptic Gregorian calendar. */
static int S_valid_date(const char *s)
{
	static const int days[12] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	int y, m, dd, max;

	if (strlen(s) != 10 || s[4] != '-' || s[7] != '-' ||
	    !S_digits(s, 4) || !S_digits(s + 5, 2) || !S_digits(s + 8, 2))
		return 0;
	y = (s[0] - '0') * 1000 + (s[1] - '0') * 100 + (s[2] - '0') * 10 + (s[3] - '0');
	m = (s[5] - '0') * 10 + (s[6] - '0');
	dd = (s[8] - '0') * 10 + (s[9] - '0');
	if (y < 1 || m < 1 || m > 12 || dd < 1)
		return 0;
	max = days[m - 1];
	if (m == 2 && ((y % 4 == 0 && y % 100 != 0) || y % 400 == 0))
		max = 29;
	return dd <= max;
}

/* Reads a date attribute; NULL when absent or refused (error reported). */
static char *S_date(S_reader *r, const xmlNode *n, const char *elem,
		    const char *attr)
{
	char *v = S_attr(n, attr);

	if (v && !S_valid_date(v)) {
		S_err(r, n, "element '%s', attribute '%s': expected a calendar date YYYY-MM-DD, found '%s'",
		      elem, attr, v);
		free(v);
		return NULL;
	}
	return v;
}

static char *S_text(S_reader *r, const xmlNode *n, const char *elem,
		    const char *attr)
{
	char *v = S_attr(n, attr);

	if (v && !v[0])
		S_err(r, n, "element '%s', attribute '%s': expected a non-empty text",
		      elem, attr);
	return v;
}

/* A claim's date may be unknown; then its source's revision stands in. */
static void S_claim(S_reader *r, const xmlNode *n, const char *elem,
		    gs_claim *c)
{
	int has_date = xmlHasNsProp(n, (const xmlChar *)"date", NULL) != NULL;

	c->source = S_text(r, n, elem, "source");
	c->date = S_date(r, n, elem, "date");
	c->ref = S_text(r, n, elem, "ref");
	if (!has_date && !c->ref)
		S_err(r, n, "element '%s': missing required attribute 'date' (or 'ref' when the date is not known)",
		      elem);
}

/* A positive integer attribute; returns 1 when present and valid. */
static int S_positive(S_reader *r, const xmlNode *n, const char *elem,
		      const char *attr, const char *what, uint64_t *out)
{
	char *v = S_attr(n, attr);
	uint64_t x = 0;
	int ok;

	if (!v)
		return 0;
	ok = gs_qty_parse_u64(v, &x) == 0 && x > 0;
	if (!ok)
		S_err(r, n, "element '%s', attribute '%s': expected %s, found '%s'",
		      elem, attr, what, v);
	else
		*out = x;
	free(v);
	return ok;
}

/* A positive decimal of GB with at most 9 decimals, into bytes. */
static int S_gb(S_reader *r, const xmlNode *n, const char *elem,
		const char *attr, char **text, uint64_t *bytes)
{
	char *v = S_attr(n, attr);
	uint64_t x = 0;

	if (!v)
		return 0;
	if (gs_qty_parse_decimal(v, 9, &x) != 0 || x == 0) {
		S_err(r, n, "element '%s', attribute '%s': expected a positive decimal number of GB (at most 9 decimals, no sign), found '%s'",
		      elem, attr, v);
		free(v);
		return 0;
	}
	*bytes = x;
	if (text)
		*text = v;
	else
		free(v);
	return 1;
}

static int S_valid_id(const char *s)
{
	size_t i, n = strlen(s);

	if (n == 0 || n > 64)
		return 0;
	for (i = 0; i < n; i++) {
		char ch = s[i];
		int alnum = (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9');
		if (!alnum && (i == 0 || (ch != '-' && ch != '.' && ch != '_')))
			return 0;
	}
	return 1;
}

/*** elements ***/

/* A region or zone name: non-empty, no control character. */
static char *S_place_name(S_reader *r, const xmlNode *n, const char *attr)
{
	char *v = S_attr(n, attr);
	const char *p;

	if (!v)
		return NULL;
	for (p = v; *p && (unsigned char)*p >= 0x20 && *p != 0x7f; p++)
		;
	if (!*v || *p) {
		S_err(r, n, "element 'in', attribute '%s': expected a name without control characters, found '%s'",
		      attr, v);
		free(v);
		return NULL;
	}
	return v;
}

/* <in region="..." zone="..."/>: where a plan's price holds (at most 4096). */
static void S_read_places(S_reader *r, const xmlNode *pn, gs_plan *p)
{
	const xmlNode *n;
	size_t alloc = 0;

	for (n = pn->children; n; n = n->next) {
		gs_place pl;
		if (!S_is(n, "in"))
			continue;
		pl.region = S_place_name(r, n, "region");
		pl.zone = S_place_name(r, n, "zone");
		if (!pl.region && !pl.zone) {
			S_err(r, n, "element 'in': expected a 'region', a 'zone' or both");
			continue;
		}
		if (p->nplaces == 4096) {
			S_err(r, n, "element 'plan': more than 4096 'in' elements");
			free(pl.region);
			free(pl.zone);
			break;
		}
		p->places = S_grow(p->places, &alloc, p->nplaces, sizeof(*p->places));
		p->places[p->nplaces++] = pl;
	}
}

/* Without a regions element, the offer's regions are those of its plans, each once, in order. */
static void S_regions_of_plans(gs_offer *o)
{
	size_t i, j, k, alloc = 0;

	for (i = 0; i < o->nplans; i++)
		for (j = 0; j < o->plans[i].nplaces; j++) {
			const char *name = o->plans[i].places[j].region;
			int seen = 0;
			if (!name)
				continue;
			for (k = 0; k < o->nregions && !seen; k++)
				seen = strcmp(o->regions[k], name) == 0;
			if (seen || o->nregions == 1024)
				continue;
			o->regions = S_grow(o->regions, &alloc, o->nregions, sizeof(*o->regions));
			o->regions[o->nregions++] = gs_xstrdup(name);
		}
}

static void S_read_plan(S_reader *r, const xmlNode *n, gs_plan *p)
{
	char *v;

	S_positive(r, n, "plan", "hours", "a positive whole number of hours", &p->hours);
	S_positive(r, n, "plan", "billing-hours", "a positive whole number of hours",
		   &p->billing_hours);
	v = S_attr(n, "interruptible");
	p->interruptible = v && strcmp(v, "true") == 0;
	free(v);
	v = S_attr(n, "price");
	if (v) {
		uint64_t x = 0;
		if (gs_qty_parse_decimal(v, 6, &x) != 0 || x == 0 || x > INT64_MAX)
			S_err(r, n, "element 'plan', attribute 'price': expected a positive amount with at most 6 decimals, found '%s'",
			      v);
		else {
			p->price_micro = (int64_t)x;
			p->price_hundredths = (int64_t)(x / 10000 + (x % 10000 != 0));
		}
		free(v);
	}
	v = S_attr(n, "currency");
	if (v) {
		if (strlen(v) != 3 || v[0] < 'A' || v[0] > 'Z' || v[1] < 'A' ||
		    v[1] > 'Z' || v[2] < 'A' || v[2] > 'Z')
			S_err(r, n, "element 'plan', attribute 'currency': expected an ISO 4217 code of three capital letters, found '%s'",
			      v);
		p->currency = v;
	}
	S_claim(r, n, "plan", &p->claim);
	S_read_places(r, n, p);
}

static void S_read_availability(S_reader *r, const xmlNode *n,
				gs_availability *av)
{
	char *kind = S_attr(n, "kind");
	char *stock = S_attr(n, "stock");
	int has_from = xmlHasNsProp(n, (const xmlChar *)"from", NULL) != NULL;
	int has_to = xmlHasNsProp(n, (const xmlChar *)"to", NULL) != NULL;

	av->from = S_date(r, n, "availability", "from");
	av->to = S_date(r, n, "availability", "to");
	if (kind) {
		if (strcmp(kind, "stock") == 0)
			av->kind = GS_AVAIL_STOCK;
		else if (strcmp(kind, "window") == 0)
			av->kind = GS_AVAIL_WINDOW;
		else if (strcmp(kind, "on-request") == 0)
			av->kind = GS_AVAIL_ON_REQUEST;
		else if (strcmp(kind, "unavailable") == 0)
			av->kind = GS_AVAIL_UNAVAILABLE;
		/* any other word: the schema reports it */
	}
	if (av->kind == GS_AVAIL_WINDOW) {
		if (!has_from)
			S_err(r, n, "element 'availability' of kind 'window': missing attribute 'from'");
		if (!has_to)
			S_err(r, n, "element 'availability' of kind 'window': missing attribute 'to'");
		if (av->from && av->to && strcmp(av->from, av->to) > 0)
			S_err(r, n, "element 'availability': window starts after it ends (from '%s' is after to '%s')",
			      av->from, av->to);
	} else if (av->kind != GS_AVAIL_UNKNOWN) {
		if (has_from)
			S_err(r, n, "element 'availability' of kind '%s': attribute 'from' is only allowed with kind 'window'",
			      kind);
		if (has_to)
			S_err(r, n, "element 'availability' of kind '%s': attribute 'to' is only allowed with kind 'window'",
			      kind);
	}
	if (stock) {
		if (av->kind != GS_AVAIL_STOCK && av->kind != GS_AVAIL_UNKNOWN)
			S_err(r, n, "element 'availability' of kind '%s': attribute 'stock' is only allowed with kind 'stock'",
			      kind);
		else if (S_positive(r, n, "availability", "stock",
				    "a positive whole number of lots (use kind 'unavailable' for none)",
				    &av->stock))
			av->has_stock = 1;
	}
	S_claim(r, n, "availability", &av->claim);
	free(kind);
	free(stock);
}

static void S_read_software(S_reader *r, const xmlNode *n, gs_software *s)
{
	char *inst = S_attr(n, "installed");

	s->name = S_text(r, n, "software", "name");
	s->installed = inst && strcmp(inst, "true") == 0;
	free(inst);
	S_claim(r, n, "software", &s->claim);
}

static char *S_content(const xmlNode *n)
{
	xmlChar *v = xmlNodeGetContent(n);
	char *r = gs_xstrdup(v ? (const char *)v : "");

	xmlFree(v);
	return r;
}

/* nominal-gb (decimal GB, the vendor's) or mib (a provider's MiB x 2^20). */
static void S_read_memory(S_reader *r, const xmlNode *n, gs_offer *o)
{
	char *mib = S_attr(n, "mib"), *origin = S_attr(n, "origin"), *rej = S_attr(n, "rejected-mib");

	if (xmlHasNsProp(n, (const xmlChar *)"nominal-gb", NULL)) {
		S_gb(r, n, "memory", "nominal-gb", &o->nominal_gb_text, &o->nominal_bytes);
	} else if (mib) {
		uint64_t x = 0;
		if (gs_qty_parse_u64(mib, &x) != 0 || x == 0 || x > (UINT64_MAX >> 20))
			S_err(r, n, "element 'memory', attribute 'mib': expected a positive whole number of MiB, at most 17592186044415, found '%s'",
			      mib);
		else {
			o->nominal_bytes = x << 20;
			o->mib_text = gs_xstrdup(mib);
		}
	}
	free(mib);
	o->memory_origin = origin && strcmp(origin, "vendor") == 0 ? GS_MEMORY_FROM_VENDOR : GS_MEMORY_FROM_CATALOG;
	if (rej) {
		uint64_t x = 0;
		if (gs_qty_parse_u64(rej, &x) != 0 || x == 0 || x > (UINT64_MAX >> 20))
			S_err(r, n, "element 'memory', attribute 'rejected-mib': expected a positive whole number of MiB, found '%s'",
			      rej);
		else if (o->memory_origin != GS_MEMORY_FROM_VENDOR)
			S_err(r, n, "element 'memory', attribute 'rejected-mib': only with origin=\"vendor\" (the provider's figure the vendor's replaced)");
		else
			o->rejected_mib_text = gs_xstrdup(rej);
	}
	free(origin);
	free(rej);
	S_claim(r, n, "memory", &o->memory_claim);
}

/* names="a b c": at most 1024 names, each of a-z, 0-9, '-', '_', '.'. */
static void S_read_regions(S_reader *r, const xmlNode *n, gs_offer *o)
{
	char *v = S_attr(n, "names"), *p, *save = NULL;
	size_t alloc = 0;

	if (v) {
		for (p = v; *p; p++)
			if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
			      (*p >= '0' && *p <= '9') || *p == '-' || *p == '_' ||
			      *p == '.' || *p == ' '))
				break;
		if (*p) {
			S_err(r, n, "element 'regions', attribute 'names': expected region names of letters, digits, '-', '_', '.' separated by spaces, found '%s'",
			      v);
		} else {
			for (p = strtok_r(v, " ", &save); p && o->nregions < 1024;
			     p = strtok_r(NULL, " ", &save)) {
				o->regions = S_grow(o->regions, &alloc, o->nregions, sizeof(*o->regions));
				o->regions[o->nregions++] = gs_xstrdup(p);
			}
			if (o->nregions == 0)
				S_err(r, n, "element 'regions', attribute 'names': expected at least one region name");
		}
		free(v);
	}
	S_claim(r, n, "regions", &o->regions_claim);
}

/*
 * Reads one offer. The schema has already said whether each element is
 * where it should be; here a repeated element keeps its first occurrence.
 */
static void S_read_offer(S_reader *r, const xmlNode *on, gs_offer *o)
{
	const xmlNode *n;
	size_t plan_alloc = 0, sw_alloc = 0;
	int seen_gpu = 0, seen_lot = 0, seen_mem = 0, seen_decl = 0;
	int seen_avail = 0, seen_host = 0, seen_ic = 0, seen_notes = 0, seen_regions = 0;
	int reference_false = 0;

	o->id = S_attr(on, "id");
	if (o->id && !S_valid_id(o->id))
		S_err(r, on, "element 'offer', attribute 'id': expected 1 to 64 of a-z, 0-9, '-', '.', '_' starting with a letter or digit, found '%s'",
		      o->id);
	o->provider = S_text(r, on, "offer", "provider");
	o->segment = S_attr(on, "segment");
	{
		char *ref = S_attr(on, "reference");
		o->reference_flag = ref && strcmp(ref, "true") == 0;
		reference_false = ref && strcmp(ref, "false") == 0;
		free(ref);
	}
	for (n = on->children; n; n = n->next) {
		if (S_is(n, "gpu") && !seen_gpu++) {
			o->gpu_model = S_text(r, n, "gpu", "model");
			o->device_name = S_text(r, n, "gpu", "device-name");
		} else if (S_is(n, "lot") && !seen_lot++) {
			S_positive(r, n, "lot", "cards", "a positive whole number of cards", &o->cards);
		} else if (S_is(n, "memory") && !seen_mem++) {
			S_read_memory(r, n, o);
		} else if (S_is(n, "regions") && !seen_regions++) {
			S_read_regions(r, n, o);
		} else if (S_is(n, "declared-bytes") && !seen_decl++) {
			if (S_positive(r, n, "declared-bytes", "value",
				       "a positive whole number of bytes, at most 18446744073709551615",
				       &o->declared_bytes))
				o->has_declared_bytes = 1;
			S_claim(r, n, "declared-bytes", &o->declared_claim);
		} else if (S_is(n, "plan")) {
			o->plans = S_grow(o->plans, &plan_alloc, o->nplans, sizeof(*o->plans));
			S_read_plan(r, n, &o->plans[o->nplans++]);
		} else if (S_is(n, "availability") && !seen_avail++) {
			S_read_availability(r, n, &o->availability);
		} else if (S_is(n, "software")) {
			o->software = S_grow(o->software, &sw_alloc, o->nsoftware, sizeof(*o->software));
			S_read_software(r, n, &o->software[o->nsoftware++]);
		} else if (S_is(n, "host") && !seen_host++) {
			if (S_gb(r, n, "host", "ram-gb", NULL, &o->host_ram_bytes))
				o->has_host_ram = 1;
			S_claim(r, n, "host", &o->host_ram_claim);
		} else if (S_is(n, "interconnect") && !seen_ic++) {
			o->interconnect = S_text(r, n, "interconnect", "name");
			S_claim(r, n, "interconnect", &o->interconnect_claim);
		} else if (S_is(n, "notes") && !seen_notes++) {
			o->notes = S_content(n);
		}
	}
	if (!seen_regions)
		S_regions_of_plans(o);
	o->memory_unknown = !seen_mem;
	if (o->memory_unknown)
		o->memory_origin = GS_MEMORY_FROM_NONE;
	if (reference_false && gs_catalog_offer_is_reference(o))
		S_err(r, on, "element 'offer', attribute 'reference': 'false', but the offer has no %s: it is a reference card (give a provider and a priced plan, or leave the attribute out)",
		      !o->provider ? "provider" : "priced plan");
}

/* An offer id with its position, for the sort-based duplicate check. */
typedef struct {
	const char *id;
	size_t idx;
} S_idpos;

static int S_idpos_cmp(const void *pa, const void *pb)
{
	const S_idpos *a = pa, *b = pb;
	int k = strcmp(a->id, b->id);

	if (k)
		return k;
	return a->idx < b->idx ? -1 : a->idx > b->idx;
}

/*
 * Every offer id used twice, reported at the later use with the line of
 * the first: sorted by (id, position), so linear after the sort (a
 * catalog of 20,000 offers took 46 s with the pairwise check).
 */
static void S_check_duplicate_ids(S_reader *r, const gs_catalog *c, const int *lines)
{
	S_idpos *v = gs_xcalloc(c->noffers + 1, sizeof(*v));
	size_t n = 0, i, first = 0;

	for (i = 0; i < c->noffers; i++)
		if (c->offers[i].id) {
			v[n].id = c->offers[i].id;
			v[n++].idx = i;
		}
	qsort(v, n, sizeof(*v), S_idpos_cmp);
	for (i = 1; i < n; i++) {
		if (strcmp(v[i].id, v[first].id) != 0) {
			first = i;
			continue;
		}
		S_err_at(r, lines[v[i].idx], "element 'offer': duplicate id '%s' (first used at line %d)",
			 v[i].id, lines[v[first].idx]);
	}
	free(v);
}

/* The catalog's own attributes, from its root element; 0, or -1 when the
 * root is not a catalog (the schema says what it should be). */
static int S_read_head(S_reader *r, const xmlNode *root, gs_catalog *c)
{
	if (!S_is(root, "catalog"))
		return -1;
	c->title = S_attr(root, "title");
	c->provider = S_attr(root, "provider");
	c->date = S_date(r, root, "catalog", "date");
	c->ref = S_attr(root, "ref");
	return 0;
}

/* One more offer from its element; its line kept in *lines for the check
 * of duplicate ids. 0, or -1 past the bound of offers (said). */
static int S_add_offer(S_reader *r, const xmlNode *n, gs_catalog *c, int **lines, size_t *alloc)
{
	if (c->noffers == GS_CATALOG_MAX_OFFERS) {
		S_err(r, n, "more than %d offers in one catalog: split it, or compare "
		      "fewer offers (docs/formats.md, bounds)", GS_CATALOG_MAX_OFFERS);
		return -1;
	}
	if (c->noffers == *alloc) {
		size_t la = *alloc;
		c->offers = S_grow(c->offers, alloc, c->noffers, sizeof(*c->offers));
		*lines = S_grow(*lines, &la, c->noffers, sizeof(**lines));
	}
	(*lines)[c->noffers] = S_line(n);
	S_read_offer(r, n, &c->offers[c->noffers++]);
	return 0;
}

static void S_read_catalog(S_reader *r, const xmlNode *root, gs_catalog *c)
{
	const xmlNode *n;
	int *lines = NULL;
	size_t alloc = 0;

	if (S_read_head(r, root, c))
		return;
	for (n = root->children; n; n = n->next)
		if (S_is(n, "offer") && S_add_offer(r, n, c, &lines, &alloc))
			break;
	S_check_duplicate_ids(r, c, lines);
	free(lines);
}

/*** the public functions ***/

/*
 * The schema and the checks of meaning run one after the other: put the
 * errors of this file back in document order (stable, so that errors on
 * one line keep the order in which they were found).
 */
typedef struct {
	gs_diag_item it;
	size_t pos;
} S_lined;

static int S_lined_cmp(const void *pa, const void *pb)
{
	const S_lined *a = pa, *b = pb;

	if (a->it.line != b->it.line)
		return a->it.line < b->it.line ? -1 : 1;
	return a->pos < b->pos ? -1 : a->pos > b->pos;
}

static void S_sort_by_line(gs_diag *d, size_t first)
{
	size_t n = d->count - first, i;
	S_lined *v;

	if (d->count <= first + 1)
		return;
	/* stable through the position: O(n log n), not an insertion sort */
	v = gs_xcalloc(n, sizeof(*v));
	for (i = 0; i < n; i++) {
		v[i].it = d->items[first + i];
		v[i].pos = i;
	}
	qsort(v, n, sizeof(*v), S_lined_cmp);
	for (i = 0; i < n; i++)
		d->items[first + i] = v[i].it;
	free(v);
}

/*
 * A SkyPilot vms.csv given where a catalog XML is expected: one error that
 * says which layout it has and names the command that imports it.
 */
static void S_refuse_csv(const char *path, FILE *f, gs_diag *d, S_reader *r)
{
	char buf[65536];
	size_t n = fread(buf, 1, sizeof(buf) - 1, f), i = 0;
	const char *layout;

	buf[n] = '\0';
	if (n >= 3 && (unsigned char)buf[0] == 0xef && (unsigned char)buf[1] == 0xbb && (unsigned char)buf[2] == 0xbf)
		i = 3;
	if (strncmp(buf + i, "InstanceType", 12) != 0 && !(strstr(buf + i, "AcceleratorName") &&
							    strchr(buf + i, '\n') > strstr(buf + i, "AcceleratorName")))
		return;
	if (!strstr(buf, "GpuInfo"))
		layout = "catalog version not told: no GpuInfo column";
	else if (strstr(buf, "Gpus"))
		layout = "catalog version 8 layout: GpuInfo a dict, MemoryGiB host RAM";
	else
		layout = "catalog version 7 layout: GpuInfo a bare name, MemoryGiB the lot's GPU memory";
	gs_diag_add(d, path, 1, 0, NULL,
		    "this is a SkyPilot price catalog file (CSV, %s), not a catalog XML: import it first with "
		    "'gpusheet catalog import --from skypilot %s --provider NAME --source-ref REF --out FILE.xml'",
		    layout, path);
	r->nerrors++;
}

/*
 * The document whole: parsed into a tree, validated, then read. Every
 * error of the three passes is said (the file's header).
 */
static void S_read_dom(S_reader *r, const char *data, size_t len, gs_catalog *c)
{
	xmlParserCtxtPtr ctxt = xmlNewParserCtxt();
	xmlDocPtr doc;

	if (!ctxt)
		GS_BUG("out of memory (XML parser context)");
	ctxt->_private = r;
	ctxt->sax->serror = S_on_parse_error;
	ctxt->sax->internalSubset = S_on_internal_subset;
	if (data)
		doc = xmlCtxtReadMemory(ctxt, data, (int)len, r->path, NULL,
					XML_PARSE_NONET | XML_PARSE_BIG_LINES);
	else
		doc = xmlCtxtReadFile(ctxt, r->path, NULL, XML_PARSE_NONET | XML_PARSE_BIG_LINES);
	if (r->saw_dtd || (doc && (doc->intSubset || doc->extSubset))) {
		gs_diag_add(r->d, r->path, r->saw_dtd, 0, NULL,
			    "document type declaration refused: a catalog must not have a DTD or declare entities");
		r->nerrors++;
	} else if (!doc && r->nerrors == 0) {
		gs_diag_add(r->d, r->path, 0, 0, NULL, "cannot parse the catalog");
		r->nerrors++;
	} else if (doc && r->nerrors == 0) {
		S_validate(r, doc);
		S_read_catalog(r, xmlDocGetRootElement(doc), c);
	}
	xmlFreeParserCtxt(ctxt);
	xmlFreeDoc(doc);
}

static void S_on_stream_error(void *arg, xmlErrorPtr e)
{
	(void)e;
	*(int *)arg = 1;
}

/* The streaming reader's loop: the root's attributes, then each offer's
 * element built alone and read. 0 when the document was read to its end
 * with no error, else -1. */
static int S_stream_loop(S_reader *r, xmlTextReaderPtr t, const int *failed,
			 gs_catalog *c, int **lines)
{
	size_t alloc = 0;
	int rc = xmlTextReaderRead(t), head = 0;

	while (rc == 1 && !*failed && r->nerrors == 0 && r->d->count == 0) {
		int type = xmlTextReaderNodeType(t), depth = xmlTextReaderDepth(t);
		xmlNodePtr n;

		if (type == XML_READER_TYPE_DOCUMENT_TYPE)
			return -1;
		if (type != XML_READER_TYPE_ELEMENT || depth > 1) {
			rc = xmlTextReaderRead(t);
			continue;
		}
		if (depth == 0) {
			if (S_read_head(r, xmlTextReaderCurrentNode(t), c))
				return -1;
			head = 1;
			rc = xmlTextReaderRead(t);
			continue;
		}
		n = xmlTextReaderExpand(t);
		if (!n || (S_is(n, "offer") && S_add_offer(r, n, c, lines, &alloc)))
			return -1;
		rc = xmlTextReaderNext(t);   /* through the subtree: validated */
	}
	return rc == 0 && head && !*failed && r->nerrors == 0 && r->d->count == 0 &&
	       xmlTextReaderIsValid(t) == 1 ? 0 : -1;
}

/*
 * The fast path: the catalog streamed, validated against the schema as it
 * streams, each offer's element built and read on its own, never a tree of
 * the whole document (the tree of every bundled catalog was half of a
 * sheet's CPU; streamed, the reading takes 45 % of the time, issue 41).
 * Any error at all (syntax, schema, meaning, a document type) abandons it
 * quietly: the caller then reads the document whole, whose passes say
 * every error, in document order, with its explanation. 0: c filled;
 * -1: abandoned, c empty again and nothing said.
 */
static int S_read_stream(S_reader *r, const char *data, size_t len, gs_catalog *c)
{
	gs_diag quiet = GS_DIAG_INIT, *d = r->d;
	const int opts = XML_PARSE_NONET | XML_PARSE_BIG_LINES;
	xmlTextReaderPtr t = NULL;
	xmlRelaxNGPtr schema;
	int *lines = NULL, failed = 0, rc = -1;
	char *path = c->path;

	r->d = &quiet;
	schema = S_schema(r);
	if (schema && r->nerrors == 0)
		t = data ? xmlReaderForMemory(data, (int)len, r->path, NULL, opts)
			 : xmlReaderForFile(r->path, NULL, opts);
	if (t && xmlTextReaderRelaxNGSetSchema(t, schema) == 0) {
		xmlTextReaderSetStructuredErrorHandler(t, S_on_stream_error, &failed);
		rc = S_stream_loop(r, t, &failed, c, &lines);
	}
	if (rc == 0)
		S_check_duplicate_ids(r, c, lines);
	if (t)
		xmlFreeTextReader(t);
	free(lines);
	if (rc == 0 && r->nerrors == 0 && quiet.count == 0) {
		r->d = d;
		return 0;
	}
	c->path = NULL;
	gs_catalog_release(c);
	memset(c, 0, sizeof(*c));
	c->path = path;
	gs_diag_release(&quiet);
	r->d = d;
	r->nerrors = 0;
	return -1;
}

static int S_read(const char *path, const char *data, size_t len,
		  const char *schema_path, gs_catalog *c, gs_diag *d)
{
	S_reader r;
	xmlExternalEntityLoader prev_loader;
	xmlStructuredErrorFunc prev_serror;
	void *prev_serror_ctx;
	xmlGenericErrorFunc prev_generic;
	void *prev_generic_ctx;
	size_t first;
	FILE *f = NULL;

	memset(c, 0, sizeof(*c));
	memset(&r, 0, sizeof(r));
	first = d->count;
	r.path = path;
	r.schema = schema_path;
	r.d = d;
	c->path = gs_xstrdup_or_null(path);

	/* A clear message for the common case, before libxml2 says it its way. */
	if (!data) {
		/* a regular file (a FIFO is refused, not waited on) */
		gs_error why = GS_ERROR_INIT;
		int fd = gs_infile_open_regular(path, 0, &why);

		f = fd >= 0 ? fdopen(fd, "rb") : NULL;
		if (fd >= 0 && !f)
			GS_OOM("fdopen of a catalog");
		if (!f) {
			gs_diag_add(d, path, 0, 0, NULL, "cannot open '%s': %s", path,
				    strncmp(gs_error_message(&why), "cannot read: ", 13) == 0 ? gs_error_message(&why) + 13 : gs_error_message(&why));
			gs_error_release(&why);
			gs_catalog_release(c);
			return -1;
		}
	}
	if (f) {
		S_refuse_csv(path, f, d, &r);
		fclose(f);
		if (r.nerrors) {
			gs_catalog_release(c);
			return -1;
		}
	}
	if (data && len > INT_MAX) {
		gs_diag_add(d, path, 0, 0, NULL, "catalog too large");
		gs_catalog_release(c);
		return -1;
	}

	xmlInitParser();
	prev_loader = xmlGetExternalEntityLoader();
	prev_serror = xmlStructuredError;
	prev_serror_ctx = xmlStructuredErrorContext;
	prev_generic = xmlGenericError;
	prev_generic_ctx = xmlGenericErrorContext;
	S_allow_main = path;
	S_allow_schema = schema_path;
	S_loading = &r;
	xmlSetExternalEntityLoader(S_entity_loader);
	xmlSetStructuredErrorFunc(NULL, S_on_global_error);
	xmlSetGenericErrorFunc(NULL, S_on_generic_error);

	if (S_read_stream(&r, data, len, c) != 0)
		S_read_dom(&r, data, len, c);

	xmlSetExternalEntityLoader(prev_loader);
	xmlSetStructuredErrorFunc(prev_serror_ctx, prev_serror);
	xmlSetGenericErrorFunc(prev_generic_ctx, prev_generic);
	S_allow_main = S_allow_schema = NULL;
	S_loading = NULL;
	free(r.explained);
	free(r.pending);
	S_sort_by_line(d, first);

	if (r.nerrors > 0) {
		size_t n = strlen(path);
		if (n > 4 && path[n - 4] == '.' && (path[n - 3] | 32) == 'c' &&
		    (path[n - 2] | 32) == 's' && (path[n - 1] | 32) == 'v')
			gs_diag_add(d, path, 0, 0, NULL, "a CSV price list is not a catalog: import "
				    "it into one first, with gpusheet catalog import --from skypilot "
				    "FILE.csv --provider NAME --out catalog.xml");
		gs_catalog_release(c);
		return -1;
	}
	return 0;
}

const char *gs_catalog_memory_origin_word(gs_memory_origin o)
{
	return o == GS_MEMORY_FROM_CATALOG ? "catalog" : o == GS_MEMORY_FROM_VENDOR ? "vendor" : NULL;
}

int gs_catalog_read(const char *path, const char *schema_path,
		    gs_catalog *c, gs_diag *d)
{
	return S_read(path, NULL, 0, schema_path, c, d);
}

int gs_catalog_read_memory(const char *name, const char *data, size_t len,
			   const char *schema_path, gs_catalog *c, gs_diag *d)
{
	return S_read(name, data, len, schema_path, c, d);
}

static void S_claim_release(gs_claim *cl)
{
	free(cl->source);
	free(cl->date);
	free(cl->ref);
}

void gs_catalog_release(gs_catalog *c)
{
	size_t i, j;

	if (!c)
		return;
	for (i = 0; i < c->noffers; i++) {
		gs_offer *o = &c->offers[i];
		free(o->id);
		free(o->provider);
		free(o->gpu_model);
		free(o->device_name);
		free(o->segment);
		free(o->nominal_gb_text);
		free(o->mib_text);
		free(o->rejected_mib_text);
		S_claim_release(&o->memory_claim);
		for (j = 0; j < o->nregions; j++)
			free(o->regions[j]);
		free(o->regions);
		S_claim_release(&o->regions_claim);
		S_claim_release(&o->declared_claim);
		for (j = 0; j < o->nplans; j++) {
			size_t k;
			free(o->plans[j].currency);
			S_claim_release(&o->plans[j].claim);
			for (k = 0; k < o->plans[j].nplaces; k++) {
				free(o->plans[j].places[k].region);
				free(o->plans[j].places[k].zone);
			}
			free(o->plans[j].places);
		}
		free(o->plans);
		free(o->availability.from);
		free(o->availability.to);
		S_claim_release(&o->availability.claim);
		for (j = 0; j < o->nsoftware; j++) {
			free(o->software[j].name);
			S_claim_release(&o->software[j].claim);
		}
		free(o->software);
		S_claim_release(&o->host_ram_claim);
		free(o->interconnect);
		S_claim_release(&o->interconnect_claim);
		free(o->notes);
	}
	if (c->origins)
		for (i = 0; i < c->noffers; i++)
			free(c->origins[i]);
	free(c->origins);
	free(c->offers);
	free(c->path);
	free(c->title);
	free(c->label);
	free(c->provider);
	free(c->date);
	free(c->ref);
	memset(c, 0, sizeof(*c));
}

const gs_offer *gs_catalog_find(const gs_catalog *c, const char *id)
{
	size_t i;

	if (!c || !id)
		return NULL;
	for (i = 0; i < c->noffers; i++)
		if (c->offers[i].id && strcmp(c->offers[i].id, id) == 0)
			return &c->offers[i];
	return NULL;
}

int64_t gs_catalog_plan_micro(const gs_plan *p)
{
	if (p->price_micro > 0)
		return p->price_micro;
	return p->price_hundredths > INT64_MAX / 10000 ? -1 : p->price_hundredths * 10000;
}

int gs_catalog_offer_is_reference(const gs_offer *o)
{
	size_t i;

	if (o->reference_flag || !o->provider)
		return 1;
	for (i = 0; i < o->nplans; i++)
		if (o->plans[i].currency)
			return 0;
	return 1;
}

const char *gs_catalog_origin(const gs_catalog *c, const gs_offer *o)
{
	if (c->origins && o >= c->offers && o < c->offers + c->noffers &&
	    c->origins[o - c->offers])
		return c->origins[o - c->offers];
	return c->label ? c->label : c->path;
}

int gs_catalog_merge(gs_catalog *dst, gs_catalog *src, gs_diag *d)
{
	size_t i, n = dst->noffers + src->noffers, nd = 0;
	S_idpos *v = gs_xcalloc(dst->noffers + 1, sizeof(*v));
	int clash = 0;

	/* The ids of dst sorted once, each id of src looked up: O(n log n). */
	for (i = 0; i < dst->noffers; i++)
		if (dst->offers[i].id) {
			v[nd].id = dst->offers[i].id;
			v[nd++].idx = i;
		}
	qsort(v, nd, sizeof(*v), S_idpos_cmp);
	for (i = 0; i < src->noffers; i++) {
		S_idpos key, *hit;
		size_t lo = 0, hi = nd;
		if (!src->offers[i].id)
			continue;
		key.id = src->offers[i].id;
		hit = NULL;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			int k = strcmp(v[mid].id, key.id);
			if (k == 0) {
				hit = &v[mid];
				break;
			}
			if (k < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (hit) {
			gs_diag_add(d, src->path, 0, 0, NULL,
				    "offer id '%s' is also in the catalog '%s': offer ids must be unique across catalogs",
				    src->offers[i].id, gs_catalog_origin(dst, &dst->offers[hit->idx]));
			clash = 1;
		}
	}
	free(v);
	if (clash)
		return -1;
	if (n > GS_CATALOG_MAX_OFFERS * (size_t)4) {
		gs_diag_add(d, src->path, 0, 0, NULL, "more than %d offers in the catalogs together",
			    GS_CATALOG_MAX_OFFERS * 4);
		return -1;
	}
	/* Each offer keeps the label of the catalog it came from. */
	if (!dst->origins) {
		dst->origins = gs_xcalloc(n, sizeof(*dst->origins));
		for (i = 0; i < dst->noffers; i++)
			dst->origins[i] = gs_xstrdup(dst->label ? dst->label : dst->path);
	} else {
		dst->origins = gs_xrealloc(dst->origins, n * sizeof(*dst->origins));
	}
	dst->offers = gs_xrealloc(dst->offers, n * sizeof(*dst->offers));
	for (i = 0; i < src->noffers; i++) {
		dst->origins[dst->noffers + i] = gs_xstrdup(gs_catalog_origin(src, &src->offers[i]));
		dst->offers[dst->noffers + i] = src->offers[i];
	}
	dst->noffers = n;
	if (src->origins)
		for (i = 0; i < src->noffers; i++)
			free(src->origins[i]);
	free(src->origins);
	free(src->offers);
	src->origins = NULL;
	src->offers = NULL;
	src->noffers = 0;
	return 0;
}

const char *gs_catalog_offer_memory_label(const gs_offer *o, const char *missing_word,
				  char *buf, size_t n)
{
	if (o->memory_unknown)
		snprintf(buf, n, "%s", missing_word);
	else if (o->mib_text)
		snprintf(buf, n, "%s MiB", o->mib_text);
	else
		snprintf(buf, n, "%s GB", o->nominal_gb_text ? o->nominal_gb_text : missing_word);
	return buf;
}

const char *gs_catalog_claim_when(const gs_claim *c, const char *undated_word, char *buf, size_t n)
{
	if (c->date)
		snprintf(buf, n, "%s", c->date);
	else if (c->ref)
		snprintf(buf, n, "%s, %s", undated_word, c->ref);
	else
		snprintf(buf, n, "%s", undated_word);
	return buf;
}
