/* logtorch: PyTorch out-of-memory messages and torch.cuda.memory_stats() dumps (logimport.h). */
#define _GNU_SOURCE
#include "logimport_int.h"
#include "buf.h"
#include "util.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdarg.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- PyTorch out-of-memory messages ---- */

static const char S_note_torch[] =
	"printed by format_size with 2 decimals: within half a unit of the last digit";

/* A message being read: where the reading is, and what it has read. */
typedef struct {
	const char *q;
	int64_t force;             /* the device the figures are of, or -1: the message's */
	int64_t req, gpu, total, freeb, alloc, reserved, unalloc;
	const char *aw_q, *aw_t, *aw_f, *aw_a, *aw_r, *aw_u;
	size_t n_q, n_t, n_f, n_a, n_r, n_u;
	int form; /* 1 cached (<=1.3), 2 reserved in total (1.4-2.0), 3 capacty (2.1), 4 capacity (2.2+) */
	int has_reserved, has_unalloc;
} S_msg;

/* Until 2.0: (GPU N; T total capacity; A already allocated; F free; R cached|reserved...).
 * GS_LL_OK, or what stopped the reading at m->q. */
static int S_oom_until_2_0(gs_logctx *c, S_msg *m)
{
	gs_logline_num x;
	int r;

	/* until 2.0: (GPU N; T total capacity; A already allocated; F free; R cached|reserved...) */
	m->q++;
	if ((r = gs_logline_lit(&m->q, "GPU ")) != GS_LL_OK || (r = gs_logline_number(c, &m->q, 0, &x)) != GS_LL_OK)
		return r;
	if (gs_logline_int(c, &x, &m->gpu) != GS_LL_OK)
		return GS_LL_FAIL;
	if ((r = gs_logline_lit(&m->q, "; ")) != GS_LL_OK ||
	    (r = gs_logline_size(c, &m->q, gs_logline_torch_units, &m->total, &m->aw_t, &m->n_t)) != GS_LL_OK ||
	    (r = gs_logline_lit(&m->q, " total capacity; ")) != GS_LL_OK ||
	    (r = gs_logline_size(c, &m->q, gs_logline_torch_units, &m->alloc, &m->aw_a, &m->n_a)) != GS_LL_OK ||
	    (r = gs_logline_lit(&m->q, " already allocated; ")) != GS_LL_OK ||
	    (r = gs_logline_size(c, &m->q, gs_logline_torch_units, &m->freeb, &m->aw_f, &m->n_f)) != GS_LL_OK ||
	    (r = gs_logline_lit(&m->q, " free; ")) != GS_LL_OK ||
	    (r = gs_logline_size(c, &m->q, gs_logline_torch_units, &m->reserved, &m->aw_r, &m->n_r)) != GS_LL_OK)
		return r;
	m->has_reserved = 1;
	gs_logline_blanks(&m->q);
	if ((r = gs_logline_lit(&m->q, "cached)")) == GS_LL_OK)
		m->form = 1;
	else if (r == GS_LL_NO && (r = gs_logline_lit(&m->q, "reserved in total by PyTorch)")) == GS_LL_OK)
		m->form = 2;
	else
		return r;
	return GS_LL_OK;
}

/* 2.1 on, after "is free. ": NVML's figure per process, this process's use. */
static int S_oom_processes(gs_logctx *c, S_msg *m)
{
	gs_logline_num x;
	const char *aw;
	size_t n;
	int64_t v;
	int r;

	for (;;) {
		const char *s = m->q;
		/* NVML's figure per process: kept, never decides */
		if ((r = gs_logline_lit(&s, "Process ")) == GS_LL_OK) {
			const char *pid;
			if ((r = gs_logline_number(c, &s, 0, &x)) != GS_LL_OK)
				return r;
			pid = x.s;
			(void)pid;
			if ((r = gs_logline_lit(&s, " has ")) != GS_LL_OK || (r = gs_logline_number(c, &s, 0, &x)) != GS_LL_OK)
				return r;
			{
				uint64_t mult = gs_logline_unit_at(&s, gs_logline_torch_units);
				const char *why, *unit_end = s;
				if (!mult) {
					r = *s ? GS_LL_NO : GS_LL_MORE;
					return r;
				}
				if ((r = gs_logline_lit(&s, " memory in use. ")) != GS_LL_OK)
					return r;
				if (gs_logimport_decimal_bytes(x.s, x.n, mult, &v, &why) != 0) {
					/* NVML's garbage (17179869184.00 GiB): kept as printed */
					gs_logline_fig f;
					memset(&f, 0, sizeof(f));
					f.name = "process_memory_nvml";
					f.device = m->force >= 0 ? m->force : m->gpu;
					f.unit = GS_LU_AS_PRINTED;
					f.dec = x.s;
					f.dec_len = x.n;
					f.aw = x.s;
					f.aw_len = (size_t)(unit_end - x.s);
					f.note = "NVML's figure for one process, beyond 2^63 - 1 bytes: "
						 "kept as printed, never decides";
					f.nosplit = 1;
					gs_logline_add_fig(c, &f);
					m->q = s;
					continue;
				}
			}
			{
				gs_logline_fig f;
				memset(&f, 0, sizeof(f));
				f.name = "process_memory_nvml";
				f.device = m->force >= 0 ? m->force : m->gpu;
				f.unit = GS_LU_BYTES;
				f.is_int = 1;
				f.value = v;
				f.aw = m->q;
				f.aw_len = (size_t)(s - m->q);
				f.note = "NVML's figure for one process: kept, never decides "
					 "(it is known to be wrong at times)";
				f.nosplit = 1;
				gs_logline_add_fig(c, &f);
			}
			m->q = s;
			continue;
		}
		if (r == GS_LL_MORE)
			return r;
		s = m->q;
		if ((r = gs_logline_lit(&s, "Including non-PyTorch memory, this process has ")) == GS_LL_OK) {
			if ((r = gs_logline_size(c, &s, gs_logline_torch_units, &v, &aw, &n)) != GS_LL_OK ||
			    (r = gs_logline_lit(&s, " memory in use. ")) != GS_LL_OK)
				return r;
			gs_logline_fig_size(c, "process_memory", m->force >= 0 ? m->force : m->gpu,
				   v, aw, n, "this process's use, PyTorch's and not (NVML)");
			m->q = s;
			continue;
		}
		if (r == GS_LL_MORE)
			return r;
		return GS_LL_OK;
	}
}

/* 2.1 on: . GPU N has a total capac(i)ty of T of which F is free. ... */
static int S_oom_since_2_1(gs_logctx *c, S_msg *m)
{
	gs_logline_num x;
	const char *aw;
	size_t n;
	int64_t v;
	int r;

	/* 2.1 on: . GPU N has a total capac(i)ty of T of which F is free. ... */
	if ((r = gs_logline_lit(&m->q, ". GPU ")) != GS_LL_OK || (r = gs_logline_number(c, &m->q, 0, &x)) != GS_LL_OK)
		return r;
	if (gs_logline_int(c, &x, &m->gpu) != GS_LL_OK)
		return GS_LL_FAIL;
	if ((r = gs_logline_lit(&m->q, " has a total capacty of ")) == GS_LL_OK)
		m->form = 3;
	else if (r == GS_LL_NO && (r = gs_logline_lit(&m->q, " has a total capacity of ")) == GS_LL_OK)
		m->form = 4;
	else
		return r;
	if ((r = gs_logline_size(c, &m->q, gs_logline_torch_units, &m->total, &m->aw_t, &m->n_t)) != GS_LL_OK ||
	    (r = gs_logline_lit(&m->q, " of which ")) != GS_LL_OK ||
	    (r = gs_logline_size(c, &m->q, gs_logline_torch_units, &m->freeb, &m->aw_f, &m->n_f)) != GS_LL_OK ||
	    (r = gs_logline_lit(&m->q, " is free. ")) != GS_LL_OK)
		return r;
	if ((r = S_oom_processes(c, m)) != GS_LL_OK)
		return r;
	if ((r = gs_logline_lit(&m->q, "Of the allocated memory ")) != GS_LL_OK ||
	    (r = gs_logline_size(c, &m->q, gs_logline_torch_units, &m->alloc, &m->aw_a, &m->n_a)) != GS_LL_OK ||
	    (r = gs_logline_lit(&m->q, " is allocated by PyTorch, ")) != GS_LL_OK)
		return r;
	if ((r = gs_logline_lit(&m->q, "with ")) == GS_LL_OK) {
		if ((r = gs_logline_size(c, &m->q, gs_logline_torch_units, &v, &aw, &n)) != GS_LL_OK ||
		    (r = gs_logline_lit(&m->q, " allocated in private pools (e.g., CUDA Graphs), ")) != GS_LL_OK)
			return r;
		gs_logline_fig_size(c, "allocated_private_pools", m->force >= 0 ? m->force : m->gpu,
			   v, aw, n, S_note_torch);
	} else if (r == GS_LL_MORE) {
		return r;
	}
	if ((r = gs_logline_lit(&m->q, "and ")) != GS_LL_OK ||
	    (r = gs_logline_size(c, &m->q, gs_logline_torch_units, &m->unalloc, &m->aw_u, &m->n_u)) != GS_LL_OK ||
	    (r = gs_logline_lit(&m->q, " is reserved by PyTorch but unallocated.")) != GS_LL_OK)
		return r;
	m->has_unalloc = 1;
	return GS_LL_OK;
}

/* The figures, the failed phase and the wording's version of a message read whole. */
static int S_oom_record(gs_logctx *c, S_msg *m, const char *p, const char *msg_start,
			const char *exc)
{
	const char *version;
	gs_logphase *ph;
	char *err;

	if (m->force >= 0)
		m->gpu = m->force;
	gs_logline_total(c, m->gpu, m->total, m->aw_t, m->n_t);
	if (c->errors)
		return GS_LL_FAIL;
	gs_logline_fig_size(c, "oom_request", m->gpu, m->req, m->aw_q, m->n_q, S_note_torch);
	gs_logline_fig_size(c, "device_total", m->gpu, m->total, m->aw_t, m->n_t, S_note_torch);
	gs_logline_fig_size(c, "device_free", m->gpu, m->freeb, m->aw_f, m->n_f, S_note_torch);
	gs_logline_fig_size(c, "allocated", m->gpu, m->alloc, m->aw_a, m->n_a, S_note_torch);
	if (m->has_reserved)
		gs_logline_fig_size(c, m->form == 1 ? "cached" : "reserved", m->gpu, m->reserved, m->aw_r, m->n_r,
			   m->form == 1 ? "\"cached\" until 1.3: the caching allocator's reserved bytes"
				     : S_note_torch);
	if (m->has_unalloc) {
		gs_logline_fig_size(c, "reserved_unallocated", m->gpu, m->unalloc, m->aw_u, m->n_u, S_note_torch);
		if (__builtin_add_overflow(m->alloc, m->unalloc, &m->reserved)) {
			gs_logline_err(c, m->aw_u, "allocated plus unallocated is beyond range");
			return GS_LL_FAIL;
		}
	}
	if (m->freeb > m->total) {
		gs_logline_err(c, m->aw_f, "free (%.*s) above the total (%.*s)", (int)m->n_f, m->aw_f, (int)m->n_t, m->aw_t);
		return GS_LL_FAIL;
	}
	err = gs_xasprintf("%s", msg_start);
	/* the message ends with its sentence; a hint after it is kept too */
	ph = gs_logline_add_phase(c, c->o && c->o->phase ? c->o->phase : "unknown", m->gpu, 1, err);
	free(err);
	if (ph) {
		ph->alloc_end.has = 1;
		ph->alloc_end.v = (uint64_t)m->alloc;
		ph->reserved_end.has = 1;
		ph->reserved_end.v = (uint64_t)m->reserved;
		ph->used_end.has = 1;
		ph->used_end.v = (uint64_t)(m->total - m->freeb);
	}
	switch (m->form) {
	case 1: version = "<=1.3"; break;
	case 2: version = exc && strcmp(exc, "RuntimeError: ") != 0 ? "1.13-2.0" : "1.4-2.0"; break;
	case 3: version = "2.1"; break;
	default: version = ">=2.2"; break;
	}
	if (!c->li->version) {
		c->li->version = gs_xstrdup(version);
		c->li->version_line = c->line;
	} else if (strcmp(c->li->version, version) != 0) {
		gs_logline_err(c, p, "a message in the wording of PyTorch %s, but line %zu is in the "
		      "wording of %s: two versions in one log", version, c->li->version_line,
		      c->li->version);
		return GS_LL_FAIL;
	}
	return GS_LL_OK;}

/*
 * One message at p ("CUDA out of memory." found there). Every wording
 * since 1.0 (docs/formats.md §3.2).
 */
static int S_oom(gs_logctx *c, const char *p, int64_t force_device)
{
	static const char *const excs[] = { "torch.cuda.OutOfMemoryError: ",
					    "torch.OutOfMemoryError: ", "RuntimeError: ", NULL };
	const char *msg_start = p, *exc = NULL;
	S_msg m;
	size_t i;
	int r;

	memset(&m, 0, sizeof(m));
	m.q = p;
	m.force = force_device;
	for (i = 0; excs[i]; i++) {
		size_t el = strlen(excs[i]);
		if ((size_t)(p - c->text) >= el && memcmp(p - el, excs[i], el) == 0) {
			exc = excs[i];
			msg_start = p - el;
		}
	}
	if ((r = gs_logline_lit(&m.q, "CUDA out of memory. Tried to allocate ")) != GS_LL_OK)
		return r == GS_LL_MORE ? GS_LL_MORE : GS_LL_NO;
	if ((r = gs_logline_size(c, &m.q, gs_logline_torch_units, &m.req, &m.aw_q, &m.n_q)) != GS_LL_OK)
		return r;
	gs_logline_blanks(&m.q);
	if (*m.q == '(')
		r = S_oom_until_2_0(c, &m);
	else
		r = S_oom_since_2_1(c, &m);
	if (r == GS_LL_OK)
		return S_oom_record(c, &m, p, msg_start, exc);
	if (r == GS_LL_MORE)
		return GS_LL_MORE;
	if (r == GS_LL_FAIL)
		return GS_LL_FAIL;
	gs_logline_err(c, m.q, "an out-of-memory message in a wording this reader does not know");
	return GS_LL_FAIL;
}

int gs_logtorch_line(gs_logctx *c)
{
	const char *p = strstr(c->text, "CUDA out of memory.");

	if (!p) {
		/* the message's start alone, wrapped before its period */
		size_t n = strlen(c->text);
		static const char head[] = "CUDA out of memory.";
		size_t k;
		for (k = n < sizeof(head) - 1 ? n : sizeof(head) - 2; k >= 4; k--)
			if (memcmp(c->text + n - k, head, k) == 0)
				return GS_LL_MORE;
		return GS_LL_NO;
	}
	return S_oom(c, p, -1);
}

/* ---- torch.cuda.memory_stats() as JSON ---- */

/* Line and column of "key" in the text (the dump has it once: duplicates are refused). */
static void S_json_pos(const char *data, size_t len, const char *key, size_t *line, int *col)
{
	size_t kl = strlen(key), i, ln = 1, ls = 0;

	*line = 0;
	*col = 0;
	for (i = 0; i + kl + 2 <= len; i++) {
		if (data[i] == '\n') {
			ln++;
			ls = i + 1;
		}
		if (data[i] == '"' && memcmp(data + i + 1, key, kl) == 0 && data[i + 1 + kl] == '"') {
			*line = ln;
			*col = (int)(i - ls) + 1;
			return;
		}
	}
}

int gs_logtorch_stats(gs_logctx *c, const char *data, size_t len)
{
	static const struct {
		const char *key, *name;
		int slot;   /* 1 alloc peak, 2 alloc end, 3 reserved peak, 4 reserved end, 0 figure only */
		gs_log_unit unit;
	} keys[] = {
		{ "allocated_bytes.all.peak", "allocated_peak", 1, GS_LU_BYTES },
		{ "allocated_bytes.all.current", "allocated", 2, GS_LU_BYTES },
		{ "reserved_bytes.all.peak", "reserved_peak", 3, GS_LU_BYTES },
		{ "reserved_bytes.all.current", "reserved", 4, GS_LU_BYTES },
		{ "active_bytes.all.peak", "active_peak", 0, GS_LU_BYTES },
		{ "active_bytes.all.current", "active", 0, GS_LU_BYTES },
		{ "inactive_split_bytes.all.current", "inactive_split", 0, GS_LU_BYTES },
		{ "inactive_split_bytes.all.peak", "inactive_split_peak", 0, GS_LU_BYTES },
		{ "requested_bytes.all.peak", "requested_peak", 0, GS_LU_BYTES },
		{ "requested_bytes.all.current", "requested", 0, GS_LU_BYTES },
		{ "num_ooms", "num_ooms", 0, GS_LU_COUNT },
		{ "num_alloc_retries", "num_alloc_retries", 0, GS_LU_COUNT },
		{ NULL, NULL, 0, 0 }
	};
	json_error_t je;
	json_t *root;
	gs_logphase *ph;
	int64_t dev = c->o ? c->o->device : 0;
	size_t i;
	int any = 0;
	char *lines;

	root = json_loadb(data, len, JSON_REJECT_DUPLICATES, &je);
	if (!root) {
		gs_diag_add(c->d, c->file, je.line, je.column, NULL, "not a memory_stats() dump: %s",
			    je.text);
		return GS_LL_FAIL;
	}
	if (!json_is_object(root)) {
		gs_diag_add(c->d, c->file, 1, 1, NULL,
			    "not a memory_stats() dump: expected an object of \"name\": count");
		json_decref(root);
		return GS_LL_FAIL;
	}
	c->line = 1;
	c->text = "";
	gs_logline_new_run(c);
	ph = gs_logline_add_phase(c, c->o && c->o->phase ? c->o->phase : "unknown", dev, 0, NULL);
	lines = NULL;
	for (i = 0; keys[i].key; i++) {
		json_t *v = json_object_get(root, keys[i].key);
		size_t ln;
		int col;
		json_int_t n;
		if (!v)
			continue;
		S_json_pos(data, len, keys[i].key, &ln, &col);
		if (!json_is_integer(v) || (n = json_integer_value(v)) < 0) {
			gs_diag_add(c->d, c->file, (int)ln, col, NULL,
				    "\"%s\": expected an integer >= 0", keys[i].key);
			c->errors++;
			continue;
		}
		c->line = c->last_line = ln;
		free(lines);
		lines = gs_xasprintf("\"%s\": %" PRId64, keys[i].key, (int64_t)n);
		c->text = lines;
		{
			char aw[32];
			int an = snprintf(aw, sizeof(aw), "%" PRId64, (int64_t)n);
			gs_logline_fig_int(c, keys[i].name, dev, keys[i].unit, (int64_t)n, aw, (size_t)an, 0);
			/* as_written points into aw: gs_logline_add_fig copied it */
		}
		any = 1;
		switch (keys[i].slot) {
		case 1: ph->alloc_peak.has = 1; ph->alloc_peak.v = (uint64_t)n; break;
		case 2: ph->alloc_end.has = 1; ph->alloc_end.v = (uint64_t)n; break;
		case 3: ph->reserved_peak.has = 1; ph->reserved_peak.v = (uint64_t)n; break;
		case 4: ph->reserved_end.has = 1; ph->reserved_end.v = (uint64_t)n; break;
		default: break;
		}
	}
	c->text = "";
	free(lines);
	json_decref(root);
	if (!any && !c->errors) {
		gs_diag_add(c->d, c->file, 1, 1, NULL, "not a memory_stats() dump: none of "
			    "\"allocated_bytes.all.current\", \"reserved_bytes.all.peak\", ... is there");
		return GS_LL_FAIL;
	}
	if (ph && ph->alloc_peak.has && ph->alloc_end.has && ph->alloc_peak.v < ph->alloc_end.v) {
		gs_diag_add(c->d, c->file, 1, 0, NULL, "allocated_bytes.all.peak is below "
			    "allocated_bytes.all.current");
		return GS_LL_FAIL;
	}
	if (ph && ph->reserved_peak.has && ph->reserved_end.has &&
	    ph->reserved_peak.v < ph->reserved_end.v) {
		gs_diag_add(c->d, c->file, 1, 0, NULL, "reserved_bytes.all.peak is below "
			    "reserved_bytes.all.current");
		return GS_LL_FAIL;
	}
	return c->errors ? GS_LL_FAIL : GS_LL_OK;
}

