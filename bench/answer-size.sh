#!/bin/sh
# answer-size: the size of the answer (issue 25, item 10), measured by hand,
# never from ctest. Prints a Markdown report on stdout:
#   (a) the HTML bytes of one sheet against 110 real offers for each
#       example workload that lists no candidates, and for seed-7b with its
#       candidates dropped; target <= 60 KB. The 110: every offer of
#       catalog/offers.xml (12), lambda.xml (22), nebius.xml (17) and
#       hyperstack.xml (24), and the first 20 offers of cudo.xml and the
#       first 15 of primeintellect.xml in their files' order (the two cut
#       files are written under the scratch folder);
#   (a') the same against every bundled offer (no --catalog: every
#       catalog/*.xml); each cell also gives the sheet's CPU (user +
#       system, one run);
#   (b) the HTML bytes of one sheet (seed-7b) against a generated catalog
#       of 2,000 offers (bench/gen_workloads.py); target <= 250 KB;
#   (c) a site of 1,000 workloads x 2,000 offers with -j 2: wall, CPU
#       (user + system of the process and its workers) and peak RSS (through
#       the build's gs-test-peakrss); target <= 60 s, <= 64 MiB.
# With BEFORE set, every measurement is made for both builds in the same
# run, one after the other (the same moments of a shared machine).
#
#   sh bench/answer-size.sh BUILD_DIR [SCRATCH_DIR]
#   BEFORE=OTHER/build-rel sh bench/answer-size.sh BUILD_DIR
#   SITE_WORKLOADS=100 sh bench/answer-size.sh BUILD_DIR   # (c) smaller
#   SHEETS_ONLY=1 sh bench/answer-size.sh BUILD_DIR         # (a) and (a') only
#   NO_SITE=1 sh bench/answer-size.sh BUILD_DIR             # (a), (a') and (b)
#   SITE_ONLY=1 sh bench/answer-size.sh BUILD_DIR           # (c) only
#
# BUILD_DIR holds gpusheet and tests/gs-test-peakrss (a release build:
# cmake -S . -B build-rel -DCMAKE_BUILD_TYPE=Release). 1 KB = 1,000 bytes.
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
after=$(cd "$1" && pwd)
scratch=${2:-$(mktemp -d "${TMPDIR:-/tmp}/gs-answer-size.XXXXXX")}
mkdir -p "$scratch"
nw=${SITE_WORKLOADS:-1000}
date=2026-12-01
builds="after=$after"
[ -n "${BEFORE:-}" ] && builds="before=$(cd "$BEFORE" && pwd) $builds"
# every bundled catalog: what `sheet` reads without --catalog (more files
# than --catalog may name)
cats=""
noffers=$(cat "$src"/catalog/*.xml | grep -c '<offer ')

# the inputs, once; cut FILE N OUT: the first N offers of a catalog file
cut() {
	python3 - "$1" "$2" "$3" <<'CUT'
import re, sys
text = open(sys.argv[1], encoding="utf-8").read()
head = text[:text.index("<offer ")]
offers = re.findall(r"<offer .*?</offer>\n", text, re.S)[:int(sys.argv[2])]
open(sys.argv[3], "w", encoding="utf-8").write(head + "  ".join(offers) + "</catalog>\n")
CUT
}
cut "$src/catalog/cudo.xml" 20 "$scratch/cudo-20.xml"
cut "$src/catalog/primeintellect.xml" 15 "$scratch/primeintellect-15.xml"
cats110=""
for f in offers lambda nebius hyperstack; do cats110="$cats110 --catalog $src/catalog/$f.xml"; done
cats110="$cats110 --catalog $scratch/cudo-20.xml --catalog $scratch/primeintellect-15.xml"
n110=$(cat "$src"/catalog/offers.xml "$src"/catalog/lambda.xml "$src"/catalog/nebius.xml \
	"$src"/catalog/hyperstack.xml "$scratch/cudo-20.xml" "$scratch/primeintellect-15.xml" | grep -c '<offer ')
[ -n "${NO_SITE:-}" ] && nw=1
python3 "$src/bench/gen_workloads.py" "$scratch/gen" --workloads "$nw" --offers 2000 >/dev/null
python3 - "$src/examples/seed-7b/workload.json" "$scratch/seed-all.json" <<'EOF'
import json, sys
w = json.load(open(sys.argv[1], encoding="utf-8"))
w.pop("candidates", None)
json.dump(w, open(sys.argv[2], "w", encoding="utf-8"), indent=2, ensure_ascii=False)
EOF
workloads="$scratch/seed-all.json"
for w in "$src"/examples/*/workload.json; do
	grep -q '"candidates"' "$w" || workloads="$workloads $w"
done

kb() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1000 }'; }

sheets() { # TITLE CATALOG_ARGS
	echo "## Sheet HTML against $1, KB"
	echo
	printf '| workload |'; for b in $builds; do printf ' %s |' "${b%%=*}"; done; echo
	printf '| --- |'; for b in $builds; do printf ' --- |'; done; echo
	for w in $workloads; do
		name=$(basename "$(dirname "$w")"); [ "$w" = "$scratch/seed-all.json" ] && name="seed-7b (no candidates)"
		printf '| %s |' "$name"
		for b in $builds; do
			out="$scratch/a-${b%%=*}"; rm -rf "$out"
			# shellcheck disable=SC2086
			(cd "$(dirname "$w")" && /usr/bin/time -f '%U %S' -o "$scratch/sheet-cpu" \
				"${b#*=}/gpusheet" sheet "$w" $2 --out "$out" --date "$date") >/dev/null
			h=$(ls "$out"/*.html); printf ' %s (md %s, json %s; CPU %s s) |' "$(kb "$(wc -c <"$h")")" \
				"$(kb "$(wc -c <"${h%.html}.md")")" "$(kb "$(wc -c <"${h%.html}.json")")" \
				"$(awk '{ printf "%.2f", $1 + $2 }' "$scratch/sheet-cpu")"
		done
		echo
	done
}
[ -z "${SITE_ONLY:-}" ] && {
sheets "110 real offers ($n110: all of offers, lambda, nebius and hyperstack; the first 20 of cudo, 15 of primeintellect)" "$cats110"
echo
sheets "the bundled catalogs ($noffers offers)" "$cats"
[ -n "${SHEETS_ONLY:-}" ] && exit 0
echo
echo "## Sheet HTML against 2,000 generated offers (seed-7b, no candidates), KB"
echo
for b in $builds; do
	out="$scratch/b-${b%%=*}"; rm -rf "$out"
	"${b#*=}/gpusheet" sheet "$scratch/seed-all.json" --catalog "$scratch/gen/offers.xml" \
		--out "$out" --date "$date" >/dev/null
	h=$(ls "$out"/*.html)
	echo "- ${b%%=*}: $(kb "$(wc -c <"$h")") (md $(kb "$(wc -c <"${h%.html}.md")"), json $(kb "$(wc -c <"${h%.html}.json")"))"
done
[ -n "${NO_SITE:-}" ] && exit 0
echo
}
echo "## Site of $nw workloads x 2,000 offers, -j 2"
echo
echo "| build | wall, s | CPU, s | peak RSS, MiB | output, MB |"
echo "| --- | --- | --- | --- | --- |"
for b in $builds; do
	out="$scratch/c-${b%%=*}"; rm -rf "$out"
	t0=$(date +%s.%N)
	"${b#*=}/tests/gs-test-peakrss" "$scratch/rss" /usr/bin/time -f '%U %S' -o "$scratch/cpu" \
		"${b#*=}/gpusheet" site --workloads "$scratch/gen/workloads" --catalog "$scratch/gen/offers.xml" \
		--out "$out" --date "$date" -j 2 >/dev/null 2>"$scratch/site.err" || { cat "$scratch/site.err"; exit 1; }
	t1=$(date +%s.%N)
	echo "| ${b%%=*} | $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }') |" \
		"$(awk '{ printf "%.1f", $1 + $2 }' "$scratch/cpu") |" \
		"$(awk '{ printf "%.1f", $1 / 1024 }' "$scratch/rss") |" \
		"$(du -sb "$out" | awk '{ printf "%.1f", $1 / 1e6 }') |"
	rm -rf "$out"
done
echo
echo "load average after: $(awk '{ print $1, $2, $3 }' /proc/loadavg); scratch: $scratch"
