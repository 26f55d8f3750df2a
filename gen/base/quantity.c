/* quantity: bytes, units, provenance and number formatting per language. */
#include "quantity.h"

#include <stdio.h>
#include <string.h>

#include "util.h"

gs_qty gs_qty_make(uint64_t bytes, gs_prov prov)
{
	gs_qty q;

	q.bytes = bytes;
	q.prov = prov;
	q.present = 1;
	q.synthetic = 0;
	return q;
}

gs_qty gs_qty_synthetic(uint64_t bytes)
{
	gs_qty q = gs_qty_make(bytes, GS_PROV_ASSUMED);

	q.synthetic = 1;
	return q;
}

gs_qty gs_qty_missing(void)
{
	gs_qty q;

	q.bytes = 0;
	q.prov = GS_PROV_ASSUMED;
	q.present = 0;
	q.synthetic = 0;
	return q;
}

gs_prov gs_qty_prov_weakest(gs_prov a, gs_prov b)
{
	return a < b ? a : b;
}

const char *gs_qty_prov_id(gs_prov p)
{
	switch (p) {
	case GS_PROV_OBSERVED:
		return "observed";
	case GS_PROV_CALCULATED:
		return "calculated";
	case GS_PROV_ASSUMED:
		break;
	}
	return "assumed";
}

int gs_qty_add_u64(uint64_t a, uint64_t b, uint64_t *out)
{
	uint64_t r;

	if (__builtin_add_overflow(a, b, &r))
		return -1;
	*out = r;
	return 0;
}

int gs_qty_mul_u64(uint64_t a, uint64_t b, uint64_t *out)
{
	uint64_t r;

	if (__builtin_mul_overflow(a, b, &r))
		return -1;
	*out = r;
	return 0;
}

int gs_qty_add(gs_qty a, gs_qty b, gs_qty *out)
{
	uint64_t sum;

	if (!a.present || !b.present) {
		*out = gs_qty_missing();
		return 0;
	}
	if (gs_qty_add_u64(a.bytes, b.bytes, &sum))
		return -1;
	*out = gs_qty_make(sum, gs_qty_prov_weakest(a.prov, b.prov));
	out->synthetic = a.synthetic || b.synthetic;
	return 0;
}

/*
 * Digits of v with the language's grouping: a comma in English, a no-break
 * space (U+00A0) in Spanish, as the seeds write "14 000 000 000" and "8 192".
 */
static size_t S_group(char *buf, uint64_t v, gs_lang lang)
{
	char digits[24];
	size_t n = 0, i, o = 0;
	const char *sep = lang == GS_LANG_ES ? "\xc2\xa0" : ",";
	size_t seplen = strlen(sep);

	do {
		digits[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	for (i = n; i > 0; i--) {
		buf[o++] = digits[i - 1];
		if (i > 1 && (i - 1) % 3 == 0) {
			memcpy(buf + o, sep, seplen);
			o += seplen;
		}
	}
	buf[o] = '\0';
	return o;
}

char *gs_qty_fmt_int(char *buf, uint64_t v, gs_lang lang)
{
	S_group(buf, v, lang);
	return buf;
}

char *gs_qty_fmt_fixed2(char *buf, uint64_t value, uint64_t divisor, gs_lang lang)
{
	/* Half-up rounding of value * 100 / divisor, exactly, in 128 bits. */
	unsigned __int128 scaled = (unsigned __int128)value * 100u + divisor / 2;
	unsigned __int128 q = scaled / divisor;
	uint64_t whole = (uint64_t)(q / 100u);
	unsigned frac = (unsigned)(q % 100u);
	size_t o = S_group(buf, whole, lang);

	buf[o++] = lang == GS_LANG_ES ? ',' : '.';
	buf[o++] = (char)('0' + frac / 10);
	buf[o++] = (char)('0' + frac % 10);
	buf[o] = '\0';
	return buf;
}

/* The decimal mark and four decimals of frac (< 10,000) at p + o, ended. */
static void S_frac4(char *p, size_t o, unsigned frac, gs_lang lang)
{
	p[o++] = lang == GS_LANG_ES ? ',' : '.';
	p[o++] = (char)('0' + frac / 1000);
	p[o++] = (char)('0' + frac / 100 % 10);
	p[o++] = (char)('0' + frac / 10 % 10);
	p[o++] = (char)('0' + frac % 10);
	p[o] = '\0';
}

char *gs_qty_fmt_micro(char *buf, int64_t micro, gs_lang lang)
{
	uint64_t mag = micro < 0 ? gs_i64_mag(micro) : (uint64_t)micro;
	char *p = buf;
	uint64_t q, whole;
	unsigned frac;

	if (micro < 0)
		*p++ = '-';
	if (mag % 10000 == 0) {
		gs_qty_fmt_fixed2(p, mag, 1000000, lang);
		return buf;
	}
	q = mag / 100 + (mag % 100 >= 50);   /* ten-thousandths, half up */
	whole = q / 10000;
	frac = (unsigned)(q % 10000);
	S_frac4(p, S_group(p, whole, lang), frac, lang);
	return buf;
}

static char *S_with_unit(char *buf, const char *unit)
{
	size_t n = strlen(buf);

	buf[n++] = ' ';
	memcpy(buf + n, unit, strlen(unit) + 1);
	return buf;
}

char *gs_qty_fmt_gib(char *buf, uint64_t bytes, gs_lang lang)
{
	return S_with_unit(gs_qty_fmt_fixed2(buf, bytes, GS_GIB, lang), "GiB");
}

char *gs_qty_fmt_gb(char *buf, uint64_t bytes, gs_lang lang)
{
	return S_with_unit(gs_qty_fmt_fixed2(buf, bytes, GS_GB, lang), "GB");
}

char *gs_qty_fmt_micro_down(char *buf, int64_t micro, gs_lang lang)
{
	uint64_t q = micro < 0 ? 0 : (uint64_t)micro / 100;   /* ten-thousandths, down */
	unsigned frac = (unsigned)(q % 10000);

	S_frac4(buf, S_group(buf, q / 10000, lang), frac, lang);
	return buf;
}

char *gs_qty_fmt_money(char *buf, int64_t hundredths, gs_lang lang)
{
	uint64_t mag;

	if (hundredths < 0) {
		buf[0] = '-';
		mag = gs_i64_mag(hundredths);
		gs_qty_fmt_fixed2(buf + 1, mag, 100, lang);
		return buf;
	}
	mag = (uint64_t)hundredths;
	return gs_qty_fmt_fixed2(buf, mag, 100, lang);
}

int gs_qty_parse_u64(const char *s, uint64_t *out)
{
	return gs_qty_parse_decimal(s, 0, out);
}

int gs_qty_parse_decimal(const char *s, unsigned scale, uint64_t *out)
{
	uint64_t v = 0;
	unsigned decimals = 0;
	int seen_digit = 0, seen_point = 0;
	const char *p;

	if (!s || !*s || scale > 18)
		return -1;
	for (p = s; *p; p++) {
		if (*p == '.') {
			if (seen_point || !seen_digit)
				return -1;
			seen_point = 1;
			continue;
		}
		if (*p < '0' || *p > '9')
			return -1;
		if (seen_point && ++decimals > scale)
			return -1;
		if (gs_qty_mul_u64(v, 10, &v) || gs_qty_add_u64(v, (uint64_t)(*p - '0'), &v))
			return -1;
		seen_digit = 1;
	}
	if (!seen_digit || (seen_point && decimals == 0))
		return -1;
	for (; decimals < scale; decimals++)
		if (gs_qty_mul_u64(v, 10, &v))
			return -1;
	*out = v;
	return 0;
}

int gs_qty_parse_size(const char *amount, uint64_t unit_bytes, uint64_t *out)
{
	uint64_t nano; /* amount x 10^9 */
	unsigned __int128 b;

	if (gs_qty_parse_decimal(amount, 9, &nano))
		return -1;
	b = (unsigned __int128)nano * unit_bytes;
	if (b % GS_GB != 0)
		return -1;
	b /= GS_GB;
	if (b > UINT64_MAX)
		return -1;
	*out = (uint64_t)b;
	return 0;
}

char *gs_qty_fmt_milli(char *buf, uint64_t milli, gs_lang lang)
{
	uint64_t frac = milli % 1000;
	size_t n = S_group(buf, milli / 1000, lang);

	if (frac) {
		snprintf(buf + n, GS_FMT_MAX - n, "%c%03llu", lang == GS_LANG_ES ? ',' : '.',
			 (unsigned long long)frac);
		n = strlen(buf);
		while (buf[n - 1] == '0')
			buf[--n] = '\0';
	}
	return buf;
}

char *gs_qty_fmt_millibits(char *buf, uint64_t millibits)
{
	return gs_qty_fmt_milli(buf, millibits, GS_LANG_EN);
}
