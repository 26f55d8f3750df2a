#!/bin/sh
# site-reference: `gpusheet site --reference ID` changes the offers page and
# its charts only (the campaign chart of ID instead of the hourly prices),
# the same with -j 1 and -j 2; an id that is no workload's is refused with
# exit 1 before anything is written (no OUT created, an existing site left
# byte for byte); the charts name every offer not drawn (no price known).
#
#   sh site-reference.sh GPUSHEET_BIN SOURCE_DIR SCRATCH_DIR
set -u
bin=$1 src=$2 scratch=$3
. "$src/tests/lib/common.sh"

build() {
	out=$1
	shift
	(cd "$src" && "$bin" site --workloads examples --catalog catalog/offers.xml \
		--catalog catalog/lambda.xml --out "$out" --date "$SITE_DATE" --accept-synthetic "$@") \
		>"$out.log" 2>&1
}

# 1. Without and with a reference: only offers.html and the second chart differ.
build "$scratch/plain" -j 1 || { cat "$scratch/plain.log"; die "site without --reference failed"; }
build "$scratch/ref" -j 1 --reference llama70b-2card || { cat "$scratch/ref.log"; die "site --reference failed"; }
[ -f "$scratch/plain/offers-hourly-1.svg" ] || err "no hourly price chart without --reference"
[ -f "$scratch/ref/offers-campaign-1.svg" ] || err "no campaign chart with --reference"
[ -f "$scratch/ref/offers-hourly-1.svg" ] && err "an hourly price chart with --reference"
cmp -s "$scratch/plain/offers-gib-day-1.svg" "$scratch/ref/offers-gib-day-1.svg" ||
	err "the cost per GiB-day chart depends on --reference"
changed=$(diff -rq "$scratch/plain" "$scratch/ref" | sed "s|$scratch/||g" | LC_ALL=C sort)
want="Files plain/offers.html and ref/offers.html differ
Only in plain: offers-hourly-1.svg
Only in ref: offers-campaign-1.svg"
[ "$changed" = "$want" ] || err "--reference changed more or less than the offers page: $changed"
grep -q 'Total campaign cost per offer: llama70b-2card, USD' "$scratch/ref/offers-campaign-1.svg" ||
	err "the campaign chart's title does not name the reference workload"
grep -q 'href="sheets/llama70b-2card.html"' "$scratch/ref/offers.html" ||
	err "the offers page does not link the reference workload's sheet"
# every offer of the bundled catalog without a plan is listed, not drawn
for id in h100-sxm-1x b200-1x mi300x-1x; do
	grep -q "<code>$id</code>" "$scratch/ref/offers.html" || err "$id missing from the offers page"
	grep -q ">$id<" "$scratch/ref/offers-gib-day-1.svg" && err "$id (no price) drawn in the cost per GiB-day chart"
done
grep -q '<p>No price known: ' "$scratch/ref/offers.html" || err "the offers without a price are not listed under the chart"
# The data tables, by hand: rtx4090-1x 47.14 USD / 3 days / (24e9 B = 22.3517 GiB)
# = 0.7030 USD per GiB-day; rtx6000ada-1x 55.71 / 3 / 44.7035 = 0.4154; an
# offer without a plan is a row that says so, with its memory per card
# (h100-sxm-1x: 80e9 B = 74.51 GiB).
page() { tr -d '\n' <"$scratch/ref/offers.html"; }
page | grep -q '<td><code>rtx4090-1x</code></td><td>22.35</td><td>0.7030</td><td>72 h</td><td>calculated from catalog claims (assumed)</td>' ||
	err "the cost per GiB-day table lacks rtx4090-1x at 0.7030"
page | grep -q '<td><code>rtx6000ada-1x</code></td><td>44.70</td><td>0.4154</td>' ||
	err "the cost per GiB-day table lacks rtx6000ada-1x at 0.4154"
page | grep -q '<td><code>h100-sxm-1x</code></td><td>74.51</td><td>no price known</td>' ||
	err "the table does not say h100-sxm-1x has no price"
page | grep -q '<th scope="col">Cost per GiB-day (USD)</th>' || err "no unit in the cost per GiB-day header"
echo "ok: --reference changes the offers page and its campaign chart only"

# 2. -j 2 gives the same bytes.
build "$scratch/ref2" -j 2 --reference llama70b-2card || { cat "$scratch/ref2.log"; die "site -j 2 --reference failed"; }
diff -r "$scratch/ref" "$scratch/ref2" >/dev/null || err "-j 2 --reference differs from -j 1"

# 3. An unknown id: exit 1, said, nothing written; an existing site untouched.
cp -pR "$scratch/ref" "$scratch/before"
build "$scratch/new" --reference no-such-workload
rc=$?
[ "$rc" = 1 ] || err "unknown --reference: exit $rc (want 1)"
grep -q "reference 'no-such-workload'" "$scratch/new.log" || { cat "$scratch/new.log"; err "unknown --reference: not said"; }
[ -e "$scratch/new" ] && err "unknown --reference: OUT was created"
build "$scratch/ref" --reference no-such-workload
[ $? = 1 ] || err "unknown --reference over a site: not refused"
diff -r "$scratch/before" "$scratch/ref" >/dev/null || err "unknown --reference changed the existing site"
# (the stat cache of each site, .NAME.gpusheet-stat beside it, is meant to stay: README, "Incremental builds")
left=$(ls -A "$scratch" | grep -v -e '^plain' -e '^ref' -e '^before' -e '^new\.log$' -e '^\.[a-z0-9]*\.gpusheet-stat$')
[ -z "$left" ] || err "left next to the sites: $left"
echo "ok: an unknown --reference is refused, nothing written"

finish "site-reference: all checks passed"
