#!/bin/sh
# `sheet --summary` stays under 1 MiB whatever the input (finding 10: a
# long title made it 1.5 MB): a workload whose title is the longest string
# the readers take (65,536 bytes; a longer one is refused, docs/formats.md)
# gives a summary under 1 MiB in which the title is cut and marked with its
# length.
# Usage: summary-bound.sh GPUSHEET SOURCE_DIR SCRATCH_DIR
set -u
bin=$1 src=$2 scratch=$3
. "$src/tests/lib/common.sh"
cd "$src" || exit 1

mkdir -p "$scratch/w"
head -c 65536 /dev/zero | tr '\0' 'x' > "$scratch/long.txt"
echo >> "$scratch/long.txt"
sed -e 's/"title": "[^"]*"/"title": "@TITLE@"/' examples/seed-7b/workload.json |
	awk -v f="$scratch/long.txt" 'BEGIN { getline l < f } { gsub(/@TITLE@/, l); print }' > "$scratch/w/workload.json"
"$bin" sheet --catalog offers.xml "$scratch/w/workload.json" --out "$scratch/out" --summary "$scratch/summary.md" \
	> /dev/null 2> "$scratch/stderr" || { cat "$scratch/stderr"; die "sheet failed"; }
size=$(wc -c < "$scratch/summary.md")
[ "$size" -lt 1048576 ] || err "summary of $size bytes, expected under 1 MiB"
grep -q 'cut, full length 65536 B' "$scratch/summary.md" || err "the cut title is not marked with its length"
# counter-case: a short title is not cut
"$bin" sheet --catalog offers.xml examples/seed-7b/workload.json --out "$scratch/out2" --summary "$scratch/summary2.md" \
	> /dev/null 2>&1 || die "sheet of seed-7b failed"
grep -q 'cut, full length' "$scratch/summary2.md" && err "a short title was cut"
finish "summary-bound: ok ($size bytes)"
