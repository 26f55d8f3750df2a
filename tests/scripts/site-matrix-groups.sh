#!/bin/sh
# site-matrix-groups: the index matrix gives one column to each lot of a GPU
# model (model, cards per lot and memory per card), whatever its providers
# and the statuses its offers get; the column's head names the lot
# ("1 × RTX 4090 24 GB"), its number of offers and the range of their
# hourly prices, and links to the GPU's page, which lists each offer by
# price per hour and links its page. A cell gives the lot's best offer for
# the workload: the best class first, in the sheet's order (retained, fits
# the whole need, ..., excluded), then the cheapest price per hour of the
# lot, named by its class, its price per hour and its cost of a million
# tokens at the speed bound, linked to that offer's fragment of the sheet,
# its provider in the title and for screen readers.
# An offer with another memory figure is a column of its own.
# The test catalog (tests/data/site-grouping/lots.xml): grp-a, grp-b, grp-c
# are 1 × RTX 4090 24 GB at 10.00, 12.00 and 11.00 USD for 72 hours, that is
# 0.138889, 0.166667 and 0.152778 USD/h (price / hours, half up to the
# millionth); solo is 1 × RTX 6000 Ada 48 GB at 20.00 USD for 72 hours;
# grp-a reports a stock of 12 lots.
#
#   sh site-matrix-groups.sh GPUSHEET_BIN SOURCE_DIR SCRATCH_DIR
set -u
bin=$1 src=$2 scratch=$3
. "$src/tests/lib/common.sh"

cat="$src/tests/data/site-grouping/lots.xml"
mkdir -p "$scratch/wl/a"
python3 - "$src/examples/seed-7b/workload.json" "$scratch/wl/a/workload.json" <<'PY' ||
import json, sys
w = json.load(open(sys.argv[1], encoding="utf-8"))
w.pop("candidates", None)   # every offer of the test catalog is a candidate
json.dump(w, open(sys.argv[2], "w", encoding="utf-8"), indent=2)
PY
	die "cannot write the workload"

# build CATALOG OUT: the site of the one workload against CATALOG
build() {
	"$bin" site --workloads "$scratch/wl" --catalog "$1" --out "$2" --date 2026-12-01 \
		--accept-synthetic >"$2.log" 2>&1 || { cat "$2.log"; die "site against $1 failed"; }
}
# heads OUT: the number of lot columns of the index
heads() {
	grep -o '<th scope="col" class="lot"' "$1/index.html" | wc -l | tr -d ' '
}

build "$cat" "$scratch/same"
idx=$scratch/same/index.html
grep -q '<th scope="col" class="lot" data-mem="24000000000"><a href="gpus/rtx-4090.html">1 × RTX 4090 24 GB</a><span class="sub">3 offers · 0.1389–0.1667 USD/h</span></th>' "$idx" ||
	err "the lot's head: got '$(grep -o '<th scope="col" class="lot"[^<]*<a[^<]*</a><span[^<]*' "$idx" | head -1)'"
[ "$(heads "$scratch/same")" = 2 ] || err "expected 2 columns (the RTX 4090 lot and solo), got $(heads "$scratch/same")"
# every offer of a lot the same status: the cheapest per hour, grp-a
grep -q '<td class="v1" data-c="1" data-cost="138889" data-mtok="576933"><a href="sheets/seed-7b.html#offer-grp-a" title="P · grp-a">? fits the whole need</a><br><span class="cost">0.1389 USD/h</span><br><span class="cost">≥ 0.5769 USD</span> per million tokens (bound)<span class="sr">, P</span></td>' "$idx" ||
	err "the lot's cell is not its cheapest offer, grp-a, with its price per hour and provider"
for o in grp-b grp-c; do
	grep -q "href=\"sheets/seed-7b.html#offer-$o\"" "$idx" && err "$o has a cell although grp-a is cheaper"
done
gpu=$scratch/same/gpus/rtx-4090.html
[ -f "$gpu" ] || die "no GPU page for the RTX 4090"
# the GPU page: each offer by price per hour, linked to its page
order=$(grep -o '<td><a href="../offers/[^"]*.html"><code' "$gpu" | sed 's|.*offers/||; s|.html.*||' | tr '\n' ' ')
[ "$order" = "grp-a grp-c grp-b " ] || err "the GPU page's offers by price: got '$order'"
grep -q '<td data-cost="152778">0.1528 USD/h</td>' "$gpu" || err "the GPU page does not give grp-c's price per hour"
for o in grp-a grp-b grp-c; do
	[ -f "$scratch/same/offers/$o.html" ] || err "no page for $o"
	grep -q "id=\"offer-$o\"" "$scratch/same/sheets/seed-7b.html" || err "the sheet has no fragment for $o"
done
grep -q 'href="../sheets/seed-7b.html#offer-grp-a"' "$gpu" || err "the GPU page's workload cell does not link grp-a's fragment"
# capacity: the stock the catalog reports for grp-a, with its source and date
grep -q '<td>12 lots reported (test stock page, 2026-11-02)</td>' "$gpu" ||
	err "the GPU page does not give grp-a's reported stock with its source"
# the workloads column: the one workload pre-selects each offer
grep -q '<td>✔ 0 retained, ? 1 pre-selected, ✘ 0 excluded<br><a href="../offers/grp-a.html">' "$gpu" ||
	err "the GPU page does not count grp-a's workloads by verdict"
grep -q 'href="gpus/rtx-6000-ada.html">1 × RTX 6000 Ada 48 GB</a>' "$idx" || err "solo's head does not link its GPU's page"

# another memory figure: its own column
awk '/id="grp-c"/ { c = 1 } c && /nominal-gb="24"/ { sub(/nominal-gb="24"/, "nominal-gb=\"32\""); c = 0 } { print }' \
	"$cat" >"$scratch/mem.xml"
build "$scratch/mem.xml" "$scratch/mem"
[ "$(heads "$scratch/mem")" = 3 ] || err "grp-c at 32 GB: expected 3 columns, got $(heads "$scratch/mem")"
grep -q '1 × RTX 4090 24 GB</a><span class="sub">2 offers · 0.1389–0.1667 USD/h</span>' "$scratch/mem/index.html" ||
	err "grp-c at 32 GB: the lot of grp-a and grp-b is not headed as 2 offers"

# grp-b the cheapest per hour (90.00 USD for 720 hours: 0.125 USD/h) but
# over the workload's budget (60 USD for the campaign): excluded, so the
# lot's cell stays grp-a (pre-selected), a better status before a lower price
awk '/id="grp-b"/ { c = 1 } c && /hours="72" price="12.00"/ { sub(/hours="72" price="12.00"/, "hours=\"720\" price=\"90.00\""); c = 0 } { print }' \
	"$cat" >"$scratch/budget.xml"
build "$scratch/budget.xml" "$scratch/budget"
[ "$(heads "$scratch/budget")" = 2 ] || err "grp-b over budget: expected 2 columns, got $(heads "$scratch/budget")"
grep -q 'href="sheets/seed-7b.html#offer-grp-b"' "$scratch/budget/index.html" &&
	err "grp-b, excluded, is the lot's cell although grp-a is pre-selected"
grep -q 'href="sheets/seed-7b.html#offer-grp-a" title="P · grp-a">? fits the whole need' "$scratch/budget/index.html" ||
	err "grp-b over budget: the lot's cell is not grp-a, pre-selected"
order=$(grep -o '<td><a href="../offers/[^"]*.html"><code' "$scratch/budget/gpus/rtx-4090.html" | sed 's|.*offers/||; s|.html.*||' | tr '\n' ' ')
[ "$order" = "grp-b grp-a grp-c " ] || err "grp-b at 0.125 USD/h: the GPU page's offers by price: got '$order'"
finish "a column per lot of a GPU model, its best offer in each cell, the GPU's page by price"
