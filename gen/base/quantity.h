/*
 * quantity: bytes, units, provenance and number formatting per language.
 *
 * Invariants:
 *  - every size is an exact count of bytes in a uint64_t; nothing is ever
 *    stored in GB or GiB;
 *  - arithmetic goes through the checked helpers below, which report
 *    overflow instead of wrapping;
 *  - a missing value is a gs_qty with present == 0, never a zero;
 *  - conversion to GB (10^9) or GiB (2^30) happens once, for display, with
 *    two decimals rounded half up, independent of the process locale.
 */
#ifndef GS_QUANTITY_H
#define GS_QUANTITY_H

#include <stddef.h>
#include <stdint.h>

#define GS_GB  UINT64_C(1000000000)
#define GS_GIB UINT64_C(1073741824)

typedef enum {
	GS_LANG_EN = 0,
	GS_LANG_ES = 1
} gs_lang;

/* Ordered from weakest to strongest: a derived value takes the weakest. */
typedef enum {
	GS_PROV_ASSUMED = 0,
	GS_PROV_CALCULATED = 1,
	GS_PROV_OBSERVED = 2
} gs_prov;

typedef struct {
	uint64_t bytes;
	gs_prov prov;
	int present; /* 0: missing (bytes and prov are meaningless) */
	int synthetic; /* read from a file not produced on a GPU: prov is assumed */
} gs_qty;

gs_qty gs_qty_make(uint64_t bytes, gs_prov prov);
gs_qty gs_qty_missing(void);
/* A figure read from a synthetic measurement: assumed, never observed. */
gs_qty gs_qty_synthetic(uint64_t bytes);
gs_prov gs_qty_prov_weakest(gs_prov a, gs_prov b);
/* "calculated", "observed", "assumed" (the JSON identifiers). */
const char *gs_qty_prov_id(gs_prov p);

/* Checked arithmetic: return 0 on success, -1 on overflow (*out untouched). */
int gs_qty_add_u64(uint64_t a, uint64_t b, uint64_t *out);
int gs_qty_mul_u64(uint64_t a, uint64_t b, uint64_t *out);
/* a + b on quantities: missing if either is missing; -1 on overflow. */
int gs_qty_add(gs_qty a, gs_qty b, gs_qty *out);

/*
 * Formatting. Every function writes a NUL-terminated string into buf (size
 * GS_FMT_MAX is always enough) and returns buf.
 *   gs_qty_fmt_int:   14,000,000,000 (en) / 14 000 000 000 (es, no-break spaces)
 *   gs_qty_fmt_gib:   13.04 GiB / 13,04 GiB
 *   gs_qty_fmt_gb:    14.00 GB / 14,00 GB
 *   gs_qty_fmt_fixed2: value/divisor with two decimals, no unit
 */
#define GS_FMT_MAX 64
char *gs_qty_fmt_int(char *buf, uint64_t v, gs_lang lang);
char *gs_qty_fmt_fixed2(char *buf, uint64_t value, uint64_t divisor, gs_lang lang);
/* A price in millionths of its currency: two decimals when that is exact
 * to the cent, else four (half up); no unit. */
char *gs_qty_fmt_micro(char *buf, int64_t micro, gs_lang lang);
/* The same as a lower bound: four decimals, rounded down (below 0: 0). */
char *gs_qty_fmt_micro_down(char *buf, int64_t micro, gs_lang lang);
char *gs_qty_fmt_gib(char *buf, uint64_t bytes, gs_lang lang);
char *gs_qty_fmt_gb(char *buf, uint64_t bytes, gs_lang lang);
/* Thousandths as the shortest decimal: "0.63", "2.4", "1" ("0,63" in
 * Spanish; the whole part grouped as gs_qty_fmt_int). */
char *gs_qty_fmt_milli(char *buf, uint64_t milli, gs_lang lang);
/* A width in thousandths of a bit: "4.5", "16", "4.125" (the same, in
 * English). */
char *gs_qty_fmt_millibits(char *buf, uint64_t millibits);
/* Amount in hundredths (47.14 is 4714), without currency. */
char *gs_qty_fmt_money(char *buf, int64_t hundredths, gs_lang lang);

/*
 * Parsing helpers shared by the readers.
 * gs_qty_parse_decimal: "24", "95.5", "0.25" -> value * 10^scale exactly;
 * refuses signs, exponents, more than `scale` decimals and overflow.
 * Returns 0 on success, -1 otherwise.
 */
int gs_qty_parse_decimal(const char *s, unsigned scale, uint64_t *out);
int gs_qty_parse_u64(const char *s, uint64_t *out);
/*
 * "1.5" in units of unit_bytes (GS_GIB, GS_GB or 1) -> bytes, exactly:
 * -1 when malformed, when it overflows, or when it is not a whole number of
 * bytes.
 */
int gs_qty_parse_size(const char *amount, uint64_t unit_bytes, uint64_t *out);

#endif
