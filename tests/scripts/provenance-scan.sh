#!/bin/sh
# Every figure of every generated sheet carries calculated / observed /
# assumed in words: each example, in both languages, with and without
# --accept-synthetic, as Markdown, HTML, decision JSON and CI summary, is
# scanned by tests/lib/provenance_scan.py. The goldens alone would accept a
# regression that drops a provenance word from every sheet at once; this
# scan fails on it. A negative control checks that the scan can fail.
# Usage: provenance-scan.sh GPUSHEET SOURCE_DIR SCRATCH_DIR
set -u
bin=$1 src=$2 scratch=$3
. "$src/tests/lib/common.sh"
cd "$src" || exit 1
need python3 "sh tools/install-deps.sh --test"

examples=$(example_ids) || die "no examples found"
for ex in $examples; do
	for lang in en es; do
		for flag in "" --accept-synthetic; do
			out="$scratch/$ex-$lang${flag:+-demo}"
			# shellcheck disable=SC2086
			"$bin" sheet --catalog offers.xml "examples/$ex/workload.json" --out "$out" --lang "$lang" $flag \
				--date 2026-11-29 --summary "$out/summary.md" > /dev/null 2> "$scratch/stderr" \
				|| { err "$ex ($lang $flag): sheet failed"; cat "$scratch/stderr"; }
		done
	done
done
for ex in $examples; do
	files=$(find "$scratch" -path "$scratch/$ex-*" \( -name '*.md' -o -name '*.html' -o -name '*.json' \) \
		| grep -v /evidence/ | sort)
	[ -n "$files" ] || die "no sheet was written for $ex"
	# shellcheck disable=SC2086
	python3 tests/lib/provenance_scan.py --user "examples/$ex/workload.json" --user catalog/offers.xml $files \
		|| err "$ex: figures without a provenance word"
done

# Negative control: the same sheet with the provenance words removed fails.
mkdir -p "$scratch/control"
sed -e 's/calculated//g; s/observed//g; s/assumed//g' "$scratch/seed-7b-en/seed-7b.md" > "$scratch/control/seed-7b.md"
sed -e 's/"provenance": *"[a-z]*"/"provenance":"none"/g' "$scratch/seed-7b-en/seed-7b.json" > "$scratch/control/seed-7b.json"
sed -e 's/calculated//g; s/observed//g; s/assumed//g' "$scratch/seed-7b-en/seed-7b.html" > "$scratch/control/seed-7b.html"
for f in "$scratch/control/"*; do
	python3 tests/lib/provenance_scan.py "$f" > /dev/null && err "negative control passed: $f"
done
finish "provenance-scan: ok"
