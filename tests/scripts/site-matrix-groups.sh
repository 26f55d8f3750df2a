#!/bin/sh
# site-matrix-groups: the index matrix gives one column to equivalent offers
# (one provider, GPU model, cards per lot and memory figure, and the same
# status for every workload of the site), headed by the group, its price
# range and the links to each offer's page; the per-offer pages stay, and a
# group's cells link to a fragment the sheet has. Offers that differ in
# their memory figure, or in the status one workload gives them, are
# columns of their own.
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
# heads OUT: the number of offer columns of the index (lots and single offers)
heads() {
	grep -o '<th scope="col"[^>]*data-mem=' "$1/index.html" | wc -l | tr -d ' '
}

build "$cat" "$scratch/same"
lot=$(grep -o 'class="lot">[^<]*<span class="sub">[^<]*' "$scratch/same/index.html")
[ "$lot" = 'class="lot">P · 1 x RTX 4090 · 24 GB · 0.1389–0.1667 USD/h<span class="sub">3 offers (' ] ||
	err "the group's head: got '$lot'"
for o in grp-a grp-b grp-c; do
	grep -q "<a href=\"offers/$o.html\"><code>$o</code></a>" "$scratch/same/index.html" ||
		err "the group's head does not link to $o's page"
	[ -f "$scratch/same/offers/$o.html" ] || err "no page for $o"
	grep -q "id=\"offer-$o\"" "$scratch/same/sheets/seed-7b.html" || err "the sheet has no fragment for $o"
done
[ "$(heads "$scratch/same")" = 2 ] || err "expected 2 columns (the group and solo), got $(heads "$scratch/same")"
grep -q 'href="sheets/seed-7b.html#offer-grp-a"' "$scratch/same/index.html" ||
	err "the group's cell does not link to its first offer's fragment"
grep -q 'href="sheets/seed-7b.html#offer-grp-b"' "$scratch/same/index.html" &&
	err "grp-b has a cell of its own although it is in the group"

# another memory figure: its own column
awk '/id="grp-c"/ { c = 1 } c && /nominal-gb="24"/ { sub(/nominal-gb="24"/, "nominal-gb=\"32\""); c = 0 } { print }' \
	"$cat" >"$scratch/mem.xml"
build "$scratch/mem.xml" "$scratch/mem"
[ "$(heads "$scratch/mem")" = 3 ] || err "grp-c at 32 GB: expected 3 columns, got $(heads "$scratch/mem")"
grep -q 'class="lot">P · 1 x RTX 4090 · 24 GB · 0.1389–0.1667 USD/h<span class="sub">2 offers' "$scratch/mem/index.html" ||
	err "grp-c at 32 GB: the group of grp-a and grp-b is not headed as 2 offers"

# a price over the workload's budget (60 USD for the campaign): another status, its own column
awk '/id="grp-b"/ { c = 1 } c && /price="12.00"/ { sub(/price="12.00"/, "price=\"70.00\""); c = 0 } { print }' \
	"$cat" >"$scratch/budget.xml"
build "$scratch/budget.xml" "$scratch/budget"
[ "$(heads "$scratch/budget")" = 3 ] || err "grp-b over budget: expected 3 columns, got $(heads "$scratch/budget")"
grep -q 'href="sheets/seed-7b.html#offer-grp-b"' "$scratch/budget/index.html" ||
	err "grp-b over budget has no cell of its own"
finish "equivalent offers share a column of the index, and only they"
