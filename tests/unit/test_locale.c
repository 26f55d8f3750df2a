/*
 * test_locale: the number writers and parsers of gen/base give the same
 * bytes and values under a locale with a decimal comma (de_DE.UTF-8, proved
 * active: printf's "%.1f" of 1.5 is "1,5" there) as under "C". gpusheet
 * never calls setlocale, so this is what a library or an embedding program
 * that does would meet; a writer that went through printf's %f (or a parser
 * through strtod) would fail here. Without the locale: skipped (77), or a
 * failure under CI (check.h).
 */
#include "check.h"
#include "quantity.h"

#include <locale.h>
#include <stdio.h>
#include <string.h>

#define N_OUT 13

/* Every writer over a few values, in both languages, into out[]. */
static void S_write_all(char out[][GS_FMT_MAX * 2])
{
	static const uint64_t bytes[] = { 0, 1, 14000000000ull, 20442450944ull };
	char b1[GS_FMT_MAX], b2[GS_FMT_MAX];
	int k = 0;
	size_t i;

	for (i = 0; i < sizeof(bytes) / sizeof(bytes[0]); i++) {
		snprintf(out[k++], GS_FMT_MAX * 2, "%s|%s", gs_qty_fmt_gib(b1, bytes[i], GS_LANG_EN),
			 gs_qty_fmt_gib(b2, bytes[i], GS_LANG_ES));
		snprintf(out[k++], GS_FMT_MAX * 2, "%s|%s", gs_qty_fmt_gb(b1, bytes[i], GS_LANG_EN),
			 gs_qty_fmt_gb(b2, bytes[i], GS_LANG_ES));
	}
	snprintf(out[k++], GS_FMT_MAX * 2, "%s|%s", gs_qty_fmt_money(b1, 473314, GS_LANG_EN),
		 gs_qty_fmt_money(b2, 473314, GS_LANG_ES));
	snprintf(out[k++], GS_FMT_MAX * 2, "%s|%s", gs_qty_fmt_micro(b1, 1234500, GS_LANG_EN),
		 gs_qty_fmt_micro(b2, 1234567, GS_LANG_ES));
	snprintf(out[k++], GS_FMT_MAX * 2, "%s|%s", gs_qty_fmt_fixed2(b1, 955, 10, GS_LANG_EN),
		 gs_qty_fmt_millibits(b2, 4125));
	snprintf(out[k++], GS_FMT_MAX * 2, "%s", gs_qty_fmt_int(b1, 14000000000ull, GS_LANG_ES));
	snprintf(out[k++], GS_FMT_MAX * 2, "%s|%s", gs_qty_fmt_micro_down(b1, 2719662, GS_LANG_EN),
		 gs_qty_fmt_micro_down(b2, 12345678999, GS_LANG_ES));
}

int main(void)
{
	char c[N_OUT][GS_FMT_MAX * 2], de[N_OUT][GS_FMT_MAX * 2];
	uint64_t v = 0;
	int i;

	memset(c, 0, sizeof(c));
	memset(de, 0, sizeof(de));
	S_write_all(c);
	/* the fixture as the sheets show it */
	CHECK_STR(c[6], "19.04 GiB|19,04 GiB");
	/* a lower bound: rounded down, never up, four decimals */
	CHECK_STR(c[12], "2.7196|12\xc2\xa0" "345,6789");   /* es: a no-break space */
	{
		char b[GS_FMT_MAX];
		CHECK_STR(gs_qty_fmt_micro_down(b, 99, GS_LANG_EN), "0.0000");
		CHECK_STR(gs_qty_fmt_micro_down(b, -5, GS_LANG_EN), "0.0000");
		CHECK_STR(gs_qty_fmt_micro_down(b, 1000000, GS_LANG_EN), "1.0000");
	}
	if (!gs_check_decimal_comma())
		return gs_check_locale_missing("test_locale", gs_check_exit("test_locale"));
	S_write_all(de);
	for (i = 0; i < N_OUT; i++)
		CHECK_STR(de[i], c[i]);
	/* the parsers read "." whatever the locale, and refuse "," */
	CHECK(gs_qty_parse_decimal("95.5", 2, &v) == 0);
	CHECK_U64(v, 9550);
	CHECK(gs_qty_parse_decimal("95,5", 2, &v) == -1);
	CHECK(gs_qty_parse_size("1.5", GS_GIB, &v) == 0);
	CHECK_U64(v, 1610612736);
	setlocale(LC_ALL, "C");
	return gs_check_exit("test_locale");
}
