/* logllama: llama.cpp load logs (logimport.h). */
#define _GNU_SOURCE
#include "logimport_int.h"
#include "buf.h"
#include "util.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- llama.cpp ---- */

static const gs_logline_unit S_mib_units[] = { { "MiB", MIB }, { NULL, 0 } };
static const gs_logline_unit S_mb_as_mib[] = { { "MB", MIB }, { "MiB", MIB }, { NULL, 0 } };
static const char S_note_mb[] =
	"labelled MB but computed in MiB (bytes / 2^20) by llama.cpp: read as MiB";
static const char S_note_mib[] = "printed with 2 decimals: within 0.005 MiB";

/* "CUDA3" -> 3; -1 for a host buffer (CPU, CUDA_Host, ...); -2 for none. */
static int64_t S_llama_buf_device(const char *s, size_t n)
{
	static const char *const gpus[] = { "CUDA", "ROCm", "Vulkan", "SYCL", NULL };
	size_t i, k;

	for (i = 0; gpus[i]; i++) {
		k = strlen(gpus[i]);
		if (n > k && memcmp(s, gpus[i], k) == 0) {
			size_t j;
			for (j = k; j < n; j++)
				if (!isdigit((unsigned char)s[j]))
					break;
			if (j == n && n - k < 6)
				return strtol(s + k, NULL, 10);
		}
	}
	return -1;
}

/* the build, the devices, the context and the KV cache's types */
static int S_llama_header(gs_logctx *c, const char *t)
{
	const char *p;
	gs_logline_num x;
	int r;
	int any = 0;

	/* build: 4722 (1d8d1f0e) */
	if ((p = strstr(t, "build: ")) && (p == t || p[-1] == ' ' || p[-1] == ':') &&
	    isdigit((unsigned char)p[7])) {
		const char *q = p + 7, *e = q;
		while (isdigit((unsigned char)*e))
			e++;
		if (e - q < 12 && !c->li->version) {
			c->li->version = gs_xasprintf("b%.*s", (int)(e - q), q);
			c->li->version_line = c->line;
		}
	}
	/* Device 0: NVIDIA GeForce RTX 3090, compute capability 8.6 */
	if ((p = strstr(t, "Device ")) && isdigit((unsigned char)p[7]) &&
	    strstr(t, "compute capability")) {
		const char *q = p + 7, *e;
		int64_t idx;
		if (gs_logline_number(c, &q, 0, &x) == GS_LL_OK && gs_logline_int(c, &x, &idx) == GS_LL_OK &&
		    gs_logline_lit(&q, ": ") == GS_LL_OK && (e = strstr(q, ", compute capability")) && e > q) {
			gs_logdevice *dv = gs_logline_device(c, idx);
			if (dv && !dv->name) {
				dv->name = gs_xasprintf("%.*s", (int)(e - q), q);
				dv->name_line = c->line;
			}
			any = 1;
		}
	}
	/* n_ctx = 4096, n_seq_max = 8 */
	{
		static const struct {
			const char *key, *name;
		} keys[] = { { "n_ctx ", "n_ctx" }, { "n_seq_max ", "n_seq_max" },
			     { "n_batch ", "n_batch" }, { "n_ubatch ", "n_ubatch" },
			     { NULL, NULL } };
		size_t i;
		for (i = 0; keys[i].key; i++) {
			const char *q;
			if (!(p = strstr(t, ": "))) break;
			q = p + 2;
			gs_logline_blanks(&q);
			if (strncmp(q, keys[i].key, strlen(keys[i].key)) != 0)
				continue;
			q += strlen(keys[i].key);
			if (gs_logline_lit(&q, " = ") != GS_LL_OK)
				continue;
			if ((r = gs_logline_number(c, &q, 0, &x)) == GS_LL_FAIL)
				return GS_LL_FAIL;
			gs_logline_blanks(&q);
			if (r == GS_LL_OK && !*q && !x.has_dot) {
				gs_logline_add_setting(c, keys[i].name, x.s, x.n);
				any = 1;
			}
		}
	}
	/* type_k = 'q4_0', type_v = 'f16' */
	{
		static const char *const tk[] = { "type_k = '", "type_v = '", NULL };
		static const char *const tn[] = { "type_k", "type_v" };
		size_t i;
		for (i = 0; tk[i]; i++) {
			if ((p = strstr(t, tk[i]))) {
				const char *q = p + strlen(tk[i]), *e = strchr(q, '\'');
				if (e && e > q && e - q < 32) {
					gs_logline_add_setting(c, tn[i], q, (size_t)(e - q));
					any = 1;
				}
			}
		}
	}
	return any ? GS_LL_OK : GS_LL_NO;
}

/* the buffers of 2024 and 2025 (model, KV, compute, output) */
static int S_llama_buffers(gs_logctx *c, const char *t)
{
	const char *p, *aw;
	int64_t v;
	size_t n;
	int r;
	int any = 0;

	/* 2024/2025: <BUF> [model|KV|compute|output] buffer size = X MiB */
	if ((p = strstr(t, " buffer size = "))) {
		const char *q = p + strlen(" buffer size = "), *w1e = p, *w1, *w0e, *w0;
		const char *kind = NULL;
		int64_t dev;
		/* the word before "buffer size", and the one before it */
		w1 = w1e;
		while (w1 > t && w1[-1] != ' ' && w1[-1] != ':')
			w1--;
		w0e = w1;
		while (w0e > t && w0e[-1] == ' ')
			w0e--;
		w0 = w0e;
		while (w0 > t && w0[-1] != ' ' && w0[-1] != ':')
			w0--;
		if (w1e - w1 == 5 && memcmp(w1, "model", 5) == 0)
			kind = "model_buffer";
		else if (w1e - w1 == 2 && memcmp(w1, "KV", 2) == 0)
			kind = "kv_buffer";
		else if (w1e - w1 == 7 && memcmp(w1, "compute", 7) == 0)
			kind = "compute_buffer";
		else if (w1e - w1 == 6 && memcmp(w1, "output", 6) == 0)
			kind = "output_buffer";
		else if (w1e - w1 == 3 && memcmp(w1, "RS", 2) == 0)
			kind = "recurrent_state_buffer";
		if (kind) {
			dev = S_llama_buf_device(w0, (size_t)(w0e - w0));
		} else {
			/* llm_load_tensors: CUDA0 buffer size: the model's buffer */
			dev = S_llama_buf_device(w1, (size_t)(w1e - w1));
			kind = "model_buffer";
			w0 = w1;
			w0e = w1e;
		}
		if ((r = gs_logline_size(c, &q, S_mib_units, &v, &aw, &n)) == GS_LL_FAIL)
			return GS_LL_FAIL;
		if (r == GS_LL_OK) {
			if (dev >= 0) {
				gs_logline_fig_size(c, kind, dev, v, aw, n, S_note_mib);
			} else {
				/* a host buffer: named by its buffer */
				static const char *const host[] = { "host_model_buffer", "host_kv_buffer",
								    "host_compute_buffer",
								    "host_output_buffer" };
				const char *hn = strcmp(kind, "model_buffer") == 0     ? host[0]
						 : strcmp(kind, "kv_buffer") == 0      ? host[1]
						 : strcmp(kind, "compute_buffer") == 0 ? host[2]
										       : host[3];
				gs_logline_fig f;
				memset(&f, 0, sizeof(f));
				f.name = hn;
				f.device = -1;
				f.unit = GS_LU_BYTES;
				f.is_int = 1;
				f.value = v;
				f.aw = w0;
				f.aw_len = (size_t)(aw + n - w0);
				f.note = "host memory, on no GPU";
				gs_logline_add_fig(c, &f);
			}
			any = 1;
		}
	}
	return any ? GS_LL_OK : GS_LL_NO;
}

/* the KV cache's size (2023 and later) */
static int S_llama_kv_self(gs_logctx *c, const char *t)
{
	const char *p, *aw;
	int64_t v;
	size_t n;
	int r;
	int any = 0;

	/* KV self size = X MiB, K (f16): Y MiB, V (f16): Z MiB (2023: MB) */
	if ((p = strstr(t, "KV self size"))) {
		const char *q = p + strlen("KV self size");
		if (gs_logline_lit(&q, " = ") == GS_LL_OK) {
			if ((r = gs_logline_size(c, &q, S_mb_as_mib, &v, &aw, &n)) == GS_LL_FAIL)
				return GS_LL_FAIL;
			if (r == GS_LL_OK) {
				gs_logline_fig_size(c, "kv_self_size", -1, v, aw, n,
					   memmem(aw, n, "MiB", 3) ? "all devices together" : S_note_mb);
				any = 1;
				if (gs_logline_lit(&q, ", K (") == GS_LL_OK) {
					const char *ke = strchr(q, ')');
					if (ke && ke - q < 32) {
						gs_logline_add_setting(c, "type_k", q, (size_t)(ke - q));
						q = ke + 1;
						if (gs_logline_lit(&q, ": ") == GS_LL_OK &&
						    gs_logline_size(c, &q, S_mib_units, &v, &aw, &n) == GS_LL_OK)
							gs_logline_fig_size(c, "kv_self_k", -1, v, aw, n, "all devices together");
						if (gs_logline_lit(&q, ", V (") == GS_LL_OK && (ke = strchr(q, ')')) &&
						    ke - q < 32) {
							gs_logline_add_setting(c, "type_v", q, (size_t)(ke - q));
							q = ke + 1;
							if (gs_logline_lit(&q, ": ") == GS_LL_OK &&
							    gs_logline_size(c, &q, S_mib_units, &v, &aw, &n) == GS_LL_OK)
								gs_logline_fig_size(c, "kv_self_v", -1, v, aw, n,
									   "all devices together");
						}
					}
				}
			}
		}
	}
	/* 2023 */
	{
		static const struct {
			const char *lit, *name, *note;
		} old[] = {
			{ "mem required  = ", "host_memory_required", "host memory; labelled MB, computed in MiB" },
			{ "mem required = ", "host_memory_required", "host memory; labelled MB, computed in MiB" },
			{ "total VRAM used: ", "vram_used", "all GPUs together; labelled MB, computed in MiB" },
			{ "compute buffer total size = ", "compute_buffer_total", S_note_mb },
			{ "kv self size  = ", "kv_self_size", S_note_mb },
			{ NULL, NULL, NULL }
		};
		size_t i;
		for (i = 0; old[i].lit; i++) {
			const char *q = strstr(t, old[i].lit);
			if (!q)
				continue;
			q += strlen(old[i].lit);
			if ((r = gs_logline_size(c, &q, S_mb_as_mib, &v, &aw, &n)) == GS_LL_FAIL)
				return GS_LL_FAIL;
			if (r == GS_LL_OK) {
				gs_logline_fig_size(c, old[i].name, -1, v, aw, n, old[i].note);
				any = 1;
			}
		}
	}
	return any ? GS_LL_OK : GS_LL_NO;
}

/* the memory breakdown on exit, the model's name */
static int S_llama_exit(gs_logctx *c, const char *t)
{
	const char *p;
	gs_logline_num x;
	int r;
	int any = 0;

	/* memory breakdown on exit:  - CUDA0 (RTX 4090):  24080 = 9436 + (14193 = 13169 + 38 + 985) + 451 */
	if ((p = strstr(t, "- ")) && (strstr(t, "memory_breakdown") || strstr(t, "memory breakdown"))) {
		const char *q = p + 2, *ne, *dn = NULL, *de = NULL;
		int64_t dev, vals[7];
		const char *aws[7];
		size_t ns[7], k = 0;
		ne = q;
		while (*ne && *ne != ' ' && *ne != ':' && *ne != '|')
			ne++;
		dev = S_llama_buf_device(q, (size_t)(ne - q));
		q = ne;
		gs_logline_blanks(&q);
		if (*q == '(') {
			dn = q + 1;
			de = strchr(dn, ')');
			q = de ? de + 1 : q;
		}
		while (*q == ':' || *q == '|' || *q == ' ')
			q++;
		while (k < 7) {
			r = gs_logline_number(c, &q, 0, &x);
			if (r == GS_LL_FAIL)
				return GS_LL_FAIL;
			if (r != GS_LL_OK)
				break;
			if (gs_logline_scale(c, &x, MIB, &vals[k]) != GS_LL_OK)
				return GS_LL_FAIL;
			aws[k] = x.s;
			ns[k] = x.n;
			k++;
			while (*q == ' ' || *q == '=' || *q == '+' || *q == '(' || *q == ')' || *q == '|')
				q++;
		}
		if (dev >= 0 && k == 7) {
			static const char *const names[] = { "device_total", "device_free_at_exit",
							      "self", "model_buffer", "context_buffer",
							      "compute_buffer", "unaccounted" };
			size_t i;
			gs_logdevice *dv = gs_logline_device(c, dev);
			if (dv && de && !dv->name) {
				dv->name = gs_xasprintf("%.*s", (int)(de - dn), dn);
				dv->name_line = c->line;
			}
			gs_logline_total(c, dev, vals[0], aws[0], ns[0]);
			for (i = 0; i < 7; i++)
				gs_logline_fig_size(c, names[i], dev, vals[i], aws[i], ns[i],
					   "MiB, whole (the breakdown's unit)");
			any = 1;
		}
	}
	/* general.name of the model */
	if ((p = strstr(t, "general.name ")) || (p = strstr(t, "general.name="))) {
		const char *q = p + strlen("general.name");
		gs_logline_blanks(&q);
		if (strncmp(q, "str", 3) == 0)
			q += 3;
		gs_logline_blanks(&q);
		if (*q == '=') {
			q++;
			gs_logline_blanks(&q);
			if (*q) {
				const char *e = q + strlen(q);
				while (e > q && e[-1] == ' ')
					e--;
				gs_logline_add_setting(c, "model", q, (size_t)(e - q));
				any = 1;
			}
		}
	}
	return any ? GS_LL_OK : GS_LL_NO;
}

int gs_logllama_line(gs_logctx *c)
{
	static int (*const parts[])(gs_logctx *, const char *) = {
		S_llama_header, S_llama_buffers, S_llama_kv_self, S_llama_exit
	};
	const char *t = c->text;
	size_t i;
	int r, any = 0;

	for (i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		r = parts[i](c, t);
		if (r == GS_LL_FAIL || r == GS_LL_MORE)
			return r;
		any |= r == GS_LL_OK;
	}
	return any ? GS_LL_OK : GS_LL_NO;
}

