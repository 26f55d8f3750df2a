/* jsonout: JSON output with exact unsigned 64-bit integers. */
#include "jsonout.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "util.h"

/*
 * The marker holds a secret drawn once per process, so that no string of
 * an input can pass for it: "\001u64:<secret>:<digits>". It never reaches
 * the output, which stays deterministic.
 */
static char S_mark[64];      /* as json_dumps writes it: "\u0001u64:<secret>: */
static char S_raw[48];       /* as stored in the string */

static void S_init(void)
{
	uint64_t secret = 0;

	if (S_raw[0])
		return;
	if (getrandom(&secret, sizeof(secret), 0) != (ssize_t)sizeof(secret))
		secret = (uint64_t)(uintptr_t)&secret ^ UINT64_C(0x9e3779b97f4a7c15);
	snprintf(S_raw, sizeof(S_raw), "\001u64:%016" PRIx64 ":", secret);
	snprintf(S_mark, sizeof(S_mark), "\"\\u0001u64:%016" PRIx64 ":", secret);
}

json_t *gs_jo_u64(uint64_t v)
{
	char buf[96];

	if (v <= (uint64_t)INT64_MAX)
		return json_integer((json_int_t)v);
	S_init();
	snprintf(buf, sizeof(buf), "%s%" PRIu64, S_raw, v);
	return json_string(buf);
}

json_t *gs_jo_i64(int64_t v)
{
	return json_integer((json_int_t)v);
}

char *gs_jo_dumps(const json_t *root, size_t flags)
{
	char *s = json_dumps(root, flags), *out, *w;
	const char *r, *m;
	size_t n, ml;

	if (!s)
		return NULL;
	S_init();
	ml = strlen(S_mark);
	n = strlen(s);
	out = gs_xmalloc(n + 2);
	w = out;
	r = s;
	while ((m = strstr(r, S_mark)) != NULL) {
		const char *d = m + ml, *e = d;
		while (*e >= '0' && *e <= '9')
			e++;
		memcpy(w, r, (size_t)(m - r));
		w += m - r;
		if (*e == '"' && e > d) {
			memcpy(w, d, (size_t)(e - d));
			w += e - d;
			r = e + 1;
		} else {
			/* not one of ours: copy the text as it is */
			memcpy(w, m, ml);
			w += ml;
			r = m + ml;
		}
	}
	n = strlen(r);
	memcpy(w, r, n);
	w += n;
	*w++ = '\n';
	*w = '\0';
	free(s);
	return out;
}
