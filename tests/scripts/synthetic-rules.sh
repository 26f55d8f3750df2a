#!/bin/sh
# Synthetic evidence never decides by default (finding 1), and the site
# built with --accept-synthetic says "demonstration" on every page that
# uses one.
#  1. without the flag: no example sheet retains or excludes an offer on a
#     synthetic file (decision JSON: "demonstration": false, no requirement
#     "rests_on_synthetic"), and no page of the site says "Demonstration";
#  2. with the flag: the index, the offers page and every sheet whose
#     decision rests on a synthetic file carry the demonstration banner,
#     and the sheets that rest on none carry no such banner.
# The decision JSON writes its top-level keys one a line ("key": value):
# every pattern below allows "key":value too; its reasons are rows of
# reason_fields (schema 5), counted by reading them (nrest), and the
# demonstration sheets must show the verdicts they rest on, so that a
# count that finds nothing fails the test instead of passing it.
# Usage: synthetic-rules.sh GPUSHEET SOURCE_DIR SCRATCH_DIR
set -u
bin=$1 src=$2 scratch=$3
. "$src/tests/lib/common.sh"
cd "$src" || exit 1
# the reasons of a decision JSON that rest on a synthetic file
nrest() {
	python3 -c 'import json, sys; sys.path.insert(0, sys.argv[2]); import decision_doc
print(sum(1 for r in decision_doc.reasons(json.load(open(sys.argv[1]))) if r and r["rests_on_synthetic"]))' \
		"$1" "$src/tests/lib"
}

"$bin" site --catalog offers.xml --workloads examples --out "$scratch/plain" --date "$SITE_DATE" > "$scratch/log1" 2>&1 \
	|| { cat "$scratch/log1"; die "site without --accept-synthetic failed"; }
for j in "$scratch/plain/sheets/"*.json; do
	grep -Eq '"demonstration": ?false' "$j" || err "$(basename "$j"): a demonstration without the flag"
	[ "$(nrest "$j")" -eq 0 ] || err "$(basename "$j"): a verdict rests on a synthetic file without the flag"
done
grep -l 'Demonstration' "$scratch/plain/"*.html "$scratch/plain/sheets/"*.html 2>/dev/null \
	&& err "a page says Demonstration without the flag"

# --md: the Markdown sheets too, whose decision line is checked below
site_build "$scratch/demo" "$scratch/log2" --md
ndemo=0 nrests=0
for j in "$scratch/demo/sheets/"*.json; do
	id=$(basename "$j" .json)
	nrest=$(nrest "$j")
	if grep -Eq '"demonstration": ?true' "$j"; then
		ndemo=$((ndemo + 1)) nrests=$((nrests + nrest))
		[ "$nrest" -gt 0 ] || err "$id: a demonstration, but no verdict says rests_on_synthetic"
		grep -q 'Demonstration on synthetic evidence' "$scratch/demo/sheets/$id.html" \
			|| err "$id: rests on synthetic evidence but its page has no banner"
		grep -q 'demonstration on synthetic evidence' "$scratch/demo/sheets/$id.md" \
			|| err "$id: the decision line does not read as a demonstration"
	else
		[ "$nrest" -eq 0 ] || err "$id: $nrest verdicts rest on synthetic files, but not a demonstration"
		grep -q 'Demonstration on synthetic evidence' "$scratch/demo/sheets/$id.html" \
			&& err "$id: banner on a sheet that rests on no synthetic file"
	fi
done
[ "$ndemo" -gt 0 ] || err "no example sheet is a demonstration with the flag"
for page in index.html offers.html; do
	grep -q 'Demonstration on synthetic evidence' "$scratch/demo/$page" || err "$page: no demonstration banner"
done
# without --md a site writes no Markdown sheet (no page links one)
ls "$scratch/plain/sheets/"*.md >/dev/null 2>&1 && err "a site without --md wrote Markdown sheets"
finish "synthetic-rules: ok ($ndemo demonstration sheets, $nrests verdicts resting on a synthetic file)"
