#!/bin/sh
# Determinism of `gpusheet sheet`: the same inputs give byte-identical
# outputs (md, html, json, charts, evidence archive and manifest).
# Usage: sheet-determinism.sh GPUSHEET SOURCE_DIR SCRATCH_DIR
#
#  1. every example, in both languages, rendered twice with --png and the
#     same --date into two folders (the second run with another time zone, locale and
#     working environment): `diff -r` finds nothing;
#  2. no output names the folder it was written to;
#  3. with SOURCE_DATE_EPOCH and no --date the date shown is the UTC day of
#     the epoch, in every time zone; --date wins over SOURCE_DATE_EPOCH;
#     without either no date is shown (no clock), and two such runs agree;
#  4. without --png no PNG is written and no page names one.
#
# The locale of the second run of 1: gpusheet never calls setlocale, so a
# locale in the environment cannot reach its printf; the test build's seam
# GS_TEST_SETLOCALE=1 makes it call setlocale(LC_ALL, "") first, so that the
# whole sheet (figures, charts, JSON) is written under de_DE.UTF-8, a
# decimal comma, and any %f or strtod on the way shows as a difference.
# The locale is proved active first (`locale decimal_point` says ","), and
# then in the binary itself: under the seam it writes the decimal point in
# force to stderr, and every second run must say ","; when
# it is not installed (sh tools/install-deps.sh --test generates it) the
# test fails under CI (CI set) and ends skipped (77) elsewhere, after the
# other checks, which still fail it.
set -u
bin=$1 src=$2 scratch=$3
. "$src/tests/lib/common.sh"
cd "$src" || exit 1

examples=$(example_ids) || die "no examples found"

# the decimal-comma locale, proved active
have_locale=0
if [ "$(LC_ALL=de_DE.UTF-8 locale decimal_point 2>/dev/null)" = "," ]; then
	have_locale=1
elif [ -n "${CI:-}" ]; then
	die "the de_DE.UTF-8 locale is not installed (sh tools/install-deps.sh --test)"
fi

renv=
render() {  # render OUT_DIR EXAMPLE LANG [extra args...]; $renv: NAME=VALUE words for env
	out=$1 ex=$2 lang=$3
	shift 3
	# shellcheck disable=SC2086
	env $renv "$bin" sheet --catalog offers.xml "examples/$ex/workload.json" --out "$out" --lang "$lang" "$@" \
		> "$scratch/stdout" 2> "$scratch/stderr"
	rc=$?
	if [ "$rc" != 0 ]; then
		err "$ex ($lang): exit code $rc"
		cat "$scratch/stderr"
	fi
}

# 1. twice, same date
for ex in $examples; do
	for lang in en es; do
		render "$scratch/a/$lang" "$ex" "$lang" --date 2026-11-29 --png
		renv="TZ=Pacific/Kiritimati LC_ALL=de_DE.UTF-8 LANG=de_DE.UTF-8 GS_TEST_SETLOCALE=1 SOURCE_DATE_EPOCH=0"
		render "$scratch/b/$lang" "$ex" "$lang" --date 2026-11-29 --png
		# the binary ran under the decimal comma, not only the shell
		if [ "$have_locale" = 1 ] &&
		   ! grep -qF 'decimal point ","' "$scratch/stderr"; then
			err "$ex ($lang): the second run did not use the de_DE.UTF-8 locale:"
			cat "$scratch/stderr"
		fi
		renv=
	done
done
if ! diff -r "$scratch/a" "$scratch/b" > "$scratch/diff" 2>&1; then
	err "two runs with the same inputs differ:"
	head -40 "$scratch/diff"
fi
# every example wrote its files, charts included
for ex in $examples; do
	for lang in en es; do
		for f in "$ex.md" "$ex.html" "$ex.json"; do
			[ -s "$scratch/a/$lang/$f" ] || err "$lang/$f missing or empty"
		done
		ls "$scratch/a/$lang/$ex"-*.svg > /dev/null 2>&1 || err "$lang: no SVG chart for $ex"
		ls "$scratch/a/$lang/$ex"-*.png > /dev/null 2>&1 || err "$lang: no PNG chart for $ex"
	done
done
[ -f "$scratch/a/en/evidence/manifest.json" ] || err "evidence/manifest.json missing"

# 2. no output names the folder it was written to
if grep -rl "$scratch" "$scratch/a" "$scratch/b" > "$scratch/leaks" 2>/dev/null; then
	err "outputs name the output folder:"
	cat "$scratch/leaks"
fi

# 3. dates
ex=seed-7b
[ -f examples/$ex/workload.json ] || ex=$(printf '%s\n' $examples | head -1)
renv=SOURCE_DATE_EPOCH=1764374400
render "$scratch/sde" "$ex" en
grep -q 'date 2025-11-29\.' "$scratch/sde/$ex.md" || err "SOURCE_DATE_EPOCH=1764374400: md does not show 2025-11-29"
grep -q '"date": "2025-11-29"' "$scratch/sde/$ex.json" || err "SOURCE_DATE_EPOCH=1764374400: json date is not 2025-11-29"
grep -q '2025-11-29' "$scratch/sde/$ex.html" || err "SOURCE_DATE_EPOCH=1764374400: html does not show 2025-11-29"
render "$scratch/sde-es" "$ex" es
grep -q '2025-11-29' "$scratch/sde-es/$ex.md" || err "SOURCE_DATE_EPOCH (es): md does not show 2025-11-29"
# the last second of that UTC day, far east of UTC: still 2025-11-29
renv="TZ=Pacific/Kiritimati SOURCE_DATE_EPOCH=1764460799"
render "$scratch/sde-tz" "$ex" en
grep -q '"date": "2025-11-29"' "$scratch/sde-tz/$ex.json" || err "SOURCE_DATE_EPOCH=1764460799 in UTC+14: date is not the UTC day 2025-11-29"
renv="TZ=America/Adak SOURCE_DATE_EPOCH=1764374400"
render "$scratch/sde-tz2" "$ex" en
grep -q '"date": "2025-11-29"' "$scratch/sde-tz2/$ex.json" || err "SOURCE_DATE_EPOCH=1764374400 in UTC-10: date is not the UTC day 2025-11-29"
# --date wins
renv=SOURCE_DATE_EPOCH=1764374400
render "$scratch/both" "$ex" en --date 2026-11-29
grep -q '"date": "2026-11-29"' "$scratch/both/$ex.json" || err "--date does not win over SOURCE_DATE_EPOCH"
# neither: no date at all, and no clock
renv=
unset SOURCE_DATE_EPOCH
render "$scratch/nodate1" "$ex" en
render "$scratch/nodate2" "$ex" en
grep -q '"date": null' "$scratch/nodate1/$ex.json" || err "without --date or SOURCE_DATE_EPOCH the json date is not null"
tail -1 "$scratch/nodate1/$ex.md" | grep -q 'date ' && err "without --date or SOURCE_DATE_EPOCH the md shows a date"
diff -r "$scratch/nodate1" "$scratch/nodate2" > /dev/null || err "two runs without a date differ"
# 4. PNG only when asked: the SVG charts are there, no PNG and no link to one
ls "$scratch/nodate1/$ex"-*.svg > /dev/null 2>&1 || err "without --png: no SVG chart"
ls "$scratch/nodate1/$ex"-*.png > /dev/null 2>&1 && err "without --png: a PNG was written"
grep -l '\.png' "$scratch/nodate1/$ex.md" "$scratch/nodate1/$ex.html" 2>/dev/null &&
	err "without --png: a page names a PNG"
grep -q "$ex-budget\.png" "$scratch/a/en/$ex.md" || err "with --png: the md does not link the PNG"
# a bad SOURCE_DATE_EPOCH is a usage error and writes nothing
SOURCE_DATE_EPOCH=yesterday "$bin" sheet --catalog offers.xml "examples/$ex/workload.json" --out "$scratch/badsde" > /dev/null 2>&1
rc=$?
[ "$rc" = 2 ] || err "SOURCE_DATE_EPOCH=yesterday: exit code $rc, expected 2"
[ ! -e "$scratch/badsde" ] || [ -z "$(ls -A "$scratch/badsde")" ] || err "SOURCE_DATE_EPOCH=yesterday: something was written"

if [ "$have_locale" = 0 ] && [ "$fails" = 0 ]; then
	skip "the de_DE.UTF-8 locale is not installed (sh tools/install-deps.sh --test): the other checks passed, the locale was not exercised"
fi
finish "sheet-determinism: ok"
