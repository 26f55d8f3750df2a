/* quantname: engines' quantization names, read into a family (quantname.h). */
#define _POSIX_C_SOURCE 200809L
#include "quantname.h"

#include <ctype.h>
#include <string.h>

#define S_MAX 64

/* Lower case, '_' and ' ' as '-'; 0, or -1 when too long or empty. */
static int S_norm(const char *s, char *buf)
{
	size_t i;

	if (!s)
		return -1;
	for (i = 0; s[i]; i++) {
		if (i + 1 >= S_MAX)
			return -1;
		buf[i] = s[i] == '_' || s[i] == ' ' ? '-' : (char)tolower((unsigned char)s[i]);
	}
	buf[i] = '\0';
	return i ? 0 : -1;
}

/* A GGML type or llama.cpp file type: q4_0, q4_k_m, iq4_xs, ... bits from its digit. */
static int S_ggml(const char *n, gs_quantname *out)
{
	const char *p = n;

	if (strncmp(p, "gguf-", 5) == 0)
		p += 5;
	if (*p == 'i' && p[1] == 'q')
		p += 2;
	else if (*p == 'q')
		p += 1;
	else
		return -1;
	if (*p < '1' || *p > '8' || (p[1] && p[1] != '-'))
		return -1;
	out->family = "gguf";
	out->bits = (unsigned)(*p - '0');
	return 0;
}

int gs_quantname_parse(const char *name, gs_quantname *out)
{
	static const struct {
		const char *name, *family;
		unsigned bits;
		const char *kernel;
	} tab[] = {
		{ "none", "none", 0, NULL },
		/* vLLM's AWQ takes 4-bit weights only (awq.py: "Currently, only
		 * 4-bit weight quantization is supported for AWQ") */
		{ "awq", "awq", 4, NULL },
		{ "awq-marlin", "awq", 4, "marlin" },
		{ "gptq", "gptq", 0, NULL },
		{ "gptq-marlin", "gptq", 0, "marlin" },
		{ "gptq-marlin-24", "gptq", 4, "marlin" },
		{ "gptq-bitblas", "gptq", 0, "bitblas" },
		{ "marlin", "gptq", 4, "marlin" },
		{ "fp8", "fp8", 8, NULL },
		{ "fbgemm-fp8", "fp8", 8, NULL },
		{ "ptpc-fp8", "fp8", 8, NULL },
		{ "fp8-e4m3", "fp8", 8, NULL },
		{ "float8", "fp8", 8, NULL },
		{ "modelopt", "fp8", 8, NULL },
		{ "experts-int8", "int8", 8, NULL },
		{ "int8", "int8", 8, NULL },
		{ "w8a8", "int8", 8, NULL },
		{ "bitsandbytes", "bitsandbytes", 0, NULL },
		{ "bnb", "bitsandbytes", 0, NULL },
		{ "nf4", "bitsandbytes", 4, NULL },
		{ "int4-nf4", "bitsandbytes", 4, NULL },
		{ "gguf", "gguf", 0, NULL },
		{ "compressed-tensors", "compressed-tensors", 0, NULL },
		{ "mxfp4", "mxfp4", 4, NULL },
		{ "nvfp4", "nvfp4", 4, NULL },
		{ "modelopt-fp4", "nvfp4", 4, NULL },
		{ "int4-awq", "awq", 4, NULL },
		{ "int4-gptq", "gptq", 4, NULL },
	};
	char n[S_MAX];
	size_t i;

	memset(out, 0, sizeof(*out));
	if (S_norm(name, n) != 0)
		return -1;
	for (i = 0; i < sizeof(tab) / sizeof(tab[0]); i++)
		if (strcmp(n, tab[i].name) == 0) {
			out->family = tab[i].family;
			out->bits = tab[i].bits;
			out->kernel = tab[i].kernel;
			return 0;
		}
	return S_ggml(n, out);
}

/* Each '-'-separated word of a normalised storage format, parsed; the
 * family of the first word known, bits from any word that says them. */
static int S_format(const char *fmt, gs_quantname *out)
{
	char n[S_MAX], *w, *save = NULL;
	int found = 0;

	memset(out, 0, sizeof(*out));
	if (S_norm(fmt, n) != 0)
		return -1;
	if (gs_quantname_parse(n, out) == 0)
		return 0;
	for (w = strtok_r(n, "-", &save); w; w = strtok_r(NULL, "-", &save)) {
		gs_quantname q;
		if (strcmp(w, "int4") == 0 || strcmp(w, "4bit") == 0) {
			out->bits = 4;
			continue;
		}
		if (strcmp(w, "int8") == 0 || strcmp(w, "8bit") == 0) {
			out->bits = out->bits ? out->bits : 8;
			if (!found) {
				out->family = "int8";
				found = 1;
			}
			continue;
		}
		if (gs_quantname_parse(w, &q) == 0 && strcmp(q.family, "none") != 0) {
			if (!found || strcmp(out->family, "int8") == 0)
				out->family = q.family;
			if (q.bits)
				out->bits = q.bits;
			found = 1;
		}
	}
	/* "gguf q4_k_m" is two words once normalised: gguf, then q4, k, m */
	return found ? 0 : -1;
}

int gs_quantname_matches(const char *log_name, const char *storage_format)
{
	gs_quantname a, b;

	if (gs_quantname_parse(log_name, &a) != 0 || strcmp(a.family, "compressed-tensors") == 0)
		return -1;
	if (S_format(storage_format, &b) != 0)
		return strcmp(a.family, "none") == 0 ? -1 : 0;
	if (strcmp(a.family, b.family) != 0)
		return 0;
	if (a.bits && b.bits && a.bits != b.bits)
		return 0;
	return 1;
}
