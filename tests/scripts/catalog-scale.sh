#!/bin/sh
# Catalog checks stay linear (issue 13, D7 and D14): 20,000 offers that all
# share one id and carry an invalid price are reported in a few seconds
# (46.6 s with the pairwise duplicate check and the insertion sort of the
# errors), 20,000 valid offers are checked as fast, and a catalog beyond
# the documented bound is refused with its line.
# Usage: catalog-scale.sh GPUSHEET SOURCE_DIR SCRATCH_DIR
set -u
bin=$1 src=$2 scratch=$3
. "$src/tests/lib/common.sh"
cd "$src" || exit 1

gen() {  # gen N ID_MODE PRICE > file  (ID_MODE: same | unique)
	awk -v n="$1" -v mode="$2" -v price="$3" 'BEGIN {
		print "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"
		print "<catalog xmlns=\"https://gpusheet.example/ns/catalog/1\" title=\"scale\">"
		for (i = 1; i <= n; i++) {
			id = (mode == "same") ? "dup-1x" : sprintf("o%06d-1x", i)
			printf "<offer id=\"%s\"><gpu model=\"RTX 4090\"/><lot cards=\"1\"/>", id
			printf "<memory nominal-gb=\"24\" source=\"s\" date=\"2026-11-01\"/>"
			printf "<plan hours=\"72\" price=\"%s\" currency=\"USD\" source=\"s\" date=\"2026-11-01\"/></offer>\n", price
		}
		print "</catalog>"
	}'
}

gen 20000 same 47.1410001 > "$scratch/bad.xml"
start=$(date +%s)
timeout 60 "$bin" check "$scratch/bad.xml" > "$scratch/out" 2> "$scratch/err"
rc=$? end=$(date +%s)
[ "$rc" = 1 ] || err "20,000 invalid offers: exit code $rc, expected 1"
dups=$(grep -c "duplicate id 'dup-1x' (first used at line 3)" "$scratch/err")
[ "$dups" = 19999 ] || err "20,000 offers with one id: $dups duplicate errors, expected 19,999"
prices=$(grep -c "expected a positive amount with at most 6 decimals" "$scratch/err")
[ "$prices" = 20000 ] || err "20,000 bad prices: $prices errors, expected 20,000"
# errors in line order: the first error is on line 3
head -n 1 "$scratch/err" | grep -q ':3: ' || err "errors not in line order: $(head -n 1 "$scratch/err")"
[ $((end - start)) -le 20 ] || err "20,000 invalid offers took $((end - start)) s (bound 20 s under the sanitizers)"

gen 20000 unique 47.14 > "$scratch/ok.xml"
start=$(date +%s)
timeout 60 "$bin" check "$scratch/ok.xml" > "$scratch/out" 2> "$scratch/err" || { cat "$scratch/err" | head -3; err "20,000 valid offers refused"; }
end=$(date +%s)
[ $((end - start)) -le 20 ] || err "20,000 valid offers took $((end - start)) s (bound 20 s under the sanitizers)"

gen 50001 unique 47.14 > "$scratch/big.xml"
timeout 120 "$bin" check "$scratch/big.xml" > "$scratch/out" 2> "$scratch/err"
rc=$?
[ "$rc" = 1 ] || err "50,001 offers: exit code $rc, expected 1"
grep -q "more than 50000 offers in one catalog" "$scratch/err" || err "50,001 offers: no bound message: $(head -c 300 "$scratch/err")"
finish "catalog-scale: ok"
