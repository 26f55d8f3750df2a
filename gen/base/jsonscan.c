/* jsonscan: where the members of a large JSON object lie in a file. */
#define _DEFAULT_SOURCE
#include "jsonscan.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"

#define S_MAX_DEPTH 2048        /* jansson's own limit of nesting */
#define S_MAX_NAME (1u << 20)   /* a member's name, quoted */

typedef struct {
	FILE *f;
	int c;             /* the current byte, or EOF */
	uint64_t pos;      /* its offset */
	char *nb;          /* the name being read, quoted */
	size_t nlen, ncap;
	gs_jscan_member *v[2];
	size_t n[2], cap[2];
	int has_inner;
} S_in;

static void S_next(S_in *in)
{
	in->c = getc_unlocked(in->f);
	in->pos++;
}

static void S_ws(S_in *in)
{
	while (in->c == ' ' || in->c == '\t' || in->c == '\n' || in->c == '\r')
		S_next(in);
}

static int S_keep(S_in *in, int keep)
{
	if (!keep)
		return 0;
	if (in->nlen + 1 >= S_MAX_NAME)
		return -1;
	if (in->nlen + 1 >= in->ncap) {
		in->ncap = in->ncap ? in->ncap * 2 : 256;
		in->nb = gs_xrealloc(in->nb, in->ncap);
	}
	in->nb[in->nlen++] = (char)in->c;
	return 0;
}

/* A string from its opening quote to after its closing one (kept in nb when keep). */
static int S_string(S_in *in, int keep)
{
	if (S_keep(in, keep))
		return -1;
	S_next(in);
	for (;;) {
		if (in->c == EOF || (in->c >= 0 && in->c < 0x20))
			return -1;
		if (S_keep(in, keep))
			return -1;
		if (in->c == '"') {
			S_next(in);
			return 0;
		}
		if (in->c == '\\') {
			S_next(in);
			if (in->c == EOF || S_keep(in, keep))
				return -1;
		}
		S_next(in);
	}
}

static int S_scalar_byte(int c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       c == '-' || c == '+' || c == '.';
}

/* Any value, to the byte after it. */
static int S_value(S_in *in)
{
	char stack[S_MAX_DEPTH];
	size_t depth = 0;

	if (in->c == '"')
		return S_string(in, 0);
	if (in->c != '{' && in->c != '[') {
		if (!S_scalar_byte(in->c))
			return -1;
		while (S_scalar_byte(in->c))
			S_next(in);
		return 0;
	}
	for (;;) {
		if (in->c == EOF)
			return -1;
		if (in->c == '"') {
			if (S_string(in, 0))
				return -1;
			continue;
		}
		if (in->c == '{' || in->c == '[') {
			if (depth == S_MAX_DEPTH)
				return -1;
			stack[depth++] = (char)(in->c == '{' ? '}' : ']');
		} else if (in->c == '}' || in->c == ']') {
			if (stack[--depth] != in->c)
				return -1;
			if (depth == 0) {
				S_next(in);
				return 0;
			}
		}
		S_next(in);
	}
}

static void S_push(S_in *in, int level, char *name, uint64_t off, uint64_t len)
{
	if (in->n[level] == in->cap[level]) {
		in->cap[level] = in->cap[level] ? in->cap[level] * 2 : 64;
		in->v[level] = gs_xrealloc(in->v[level], in->cap[level] * sizeof(*in->v[level]));
	}
	in->v[level][in->n[level]].name = name;
	in->v[level][in->n[level]].off = off;
	in->v[level][in->n[level]].len = len;
	in->n[level]++;
}

/* The members of the object at the current byte (level 0: top, 1: inner). */
static int S_object(S_in *in, const char *inner, int level)
{
	S_next(in);
	S_ws(in);
	if (in->c == '}') {
		S_next(in);
		return 0;
	}
	for (;;) {
		json_t *js;
		char *name;
		uint64_t off;
		int rc;

		if (in->c != '"')
			return -1;
		in->nlen = 0;
		if (S_string(in, 1))
			return -1;
		js = json_loadb(in->nb, in->nlen, JSON_DECODE_ANY, NULL);
		if (!json_is_string(js)) {
			json_decref(js);
			return -1;
		}
		name = gs_xstrdup(json_string_value(js));
		json_decref(js);
		S_ws(in);
		if (in->c != ':') {
			free(name);
			return -1;
		}
		S_next(in);
		S_ws(in);
		off = in->pos;
		if (level == 0 && inner && strcmp(name, inner) == 0 && in->c == '{') {
			in->has_inner = 1;
			rc = S_object(in, NULL, 1);
		} else {
			rc = S_value(in);
		}
		if (rc) {
			free(name);
			return -1;
		}
		S_push(in, level, name, off, in->pos - off);
		S_ws(in);
		if (in->c == '}') {
			S_next(in);
			return 0;
		}
		if (in->c != ',')
			return -1;
		S_next(in);
		S_ws(in);
	}
}

static int S_by_name(const void *a, const void *b)
{
	return strcmp(((const gs_jscan_member *)a)->name, ((const gs_jscan_member *)b)->name);
}

/* Sorted by name; -1 when a name is there twice. */
static int S_sort(gs_jscan_member *v, size_t n)
{
	size_t i;

	if (n > 1)
		qsort(v, n, sizeof(*v), S_by_name);
	for (i = 1; i < n; i++)
		if (strcmp(v[i - 1].name, v[i].name) == 0)
			return -1;
	return 0;
}

static void S_free_members(gs_jscan_member *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(v[i].name);
	free(v);
}

int gs_jsonscan_file(FILE *f, const char *inner, gs_jscan *s)
{
	S_in in;
	int rc = -1;

	memset(s, 0, sizeof(*s));
	memset(&in, 0, sizeof(in));
	in.f = f;
	if (fseek(f, 0, SEEK_SET) != 0)
		return -1;
	in.c = getc_unlocked(f);
	S_ws(&in);
	if (in.c != '{' || S_object(&in, inner, 0))
		goto out;
	S_ws(&in);
	if (in.c != EOF || ferror(f) || S_sort(in.v[0], in.n[0]) || S_sort(in.v[1], in.n[1]))
		goto out;
	s->top = in.v[0];
	s->ntop = in.n[0];
	s->inner = in.has_inner ? (in.v[1] ? in.v[1] : gs_xcalloc(1, sizeof(*s->inner))) : NULL;
	s->ninner = in.n[1];
	if (!in.has_inner)
		S_free_members(in.v[1], in.n[1]);
	rc = 0;
out:
	if (rc) {
		S_free_members(in.v[0], in.n[0]);
		S_free_members(in.v[1], in.n[1]);
	}
	free(in.nb);
	return rc;
}

/* bsearch's: a name against a member. */
static int S_name_vs(const void *key, const void *m)
{
	return strcmp(key, ((const gs_jscan_member *)m)->name);
}

const gs_jscan_member *gs_jsonscan_find(const gs_jscan *s, int top, const char *name)
{
	if (top)
		return s->ntop ? bsearch(name, s->top, s->ntop, sizeof(*s->top), S_name_vs) : NULL;
	return s->ninner ? bsearch(name, s->inner, s->ninner, sizeof(*s->inner), S_name_vs) : NULL;
}

json_t *gs_jsonscan_load(int fd, const gs_jscan_member *m, size_t flags)
{
	char *buf;
	size_t got = 0, n;
	json_t *v;

	if (!m || m->len > SIZE_MAX - 1)
		return NULL;
	n = (size_t)m->len;
	buf = gs_xmalloc(n + 1);
	while (got < n) {
		ssize_t r = pread(fd, buf + got, n - got, (off_t)(m->off + got));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			free(buf);
			return NULL;
		}
		got += (size_t)r;
	}
	v = json_loadb(buf, n, flags | JSON_DECODE_ANY, NULL);
	free(buf);
	return v;
}

void gs_jsonscan_release(gs_jscan *s)
{
	S_free_members(s->top, s->ntop);
	S_free_members(s->inner, s->ninner);
	memset(s, 0, sizeof(*s));
}
