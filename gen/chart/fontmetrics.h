/*
 * fontmetrics: the width of a text in the charts' font, without a font
 * library.
 *
 * The charts are laid out with the advance widths of DejaVu Sans and
 * DejaVu Sans Bold, taken once from the fonts' files into a table
 * (tools/gen-font-metrics.py). Laying out needs neither Cairo nor
 * fontconfig, so an SVG chart costs no font loading and its bytes do not
 * depend on the fonts installed where it is built. The widths are the
 * ones Cairo measures with the module's font options (no hinting, no
 * hinted metrics, no kerning in Cairo's text API): test_chart checks every
 * character of the table against Cairo, so the PNG is drawn on the same
 * layout.
 *
 * A character the font does not have is as wide as the font's missing
 * glyph, as Cairo draws it; a byte that is not UTF-8 counts as one missing
 * glyph.
 */
#ifndef GS_FONTMETRICS_H
#define GS_FONTMETRICS_H

#include <stdint.h>

#define GS_FONT_UNITS_PER_EM 2048

/* The width of UTF-8 text s in font units. */
uint64_t gs_fontmetrics_units(const char *s, int bold);
/* The width of s at size px, in px. */
double gs_fontmetrics_width(const char *s, double size, int bold);

#endif
