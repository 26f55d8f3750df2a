#!/bin/sh
# site-many-offers: a catalog of 2,012 offers (the 12 of catalog/offers.xml
# and 2,000 copies of one) does not make any page of the site grow with it
# (finding D6: 10,000 offers gave an index of 10,002 columns): the index is
# paginated by 20 offers (index-1-2.html, ...) and the offers page by 100
# (offers-2.html, ...); every page stays under 400 kB and the site verifies.
#
#   sh site-many-offers.sh GPUSHEET_BIN SOURCE_DIR SCRATCH_DIR
set -u
bin=$1 src=$2 scratch=$3
. "$src/tests/lib/common.sh"
EXTRA=2000
MAX_PAGE=409600

awk -v n="$EXTRA" '
	/<offer id="h100-nvl-1x"/ { grab = 1 }
	grab { block = block $0 "\n" }
	grab && /<\/offer>/ { grab = 0 }
	/<\/catalog>/ {
		for (i = 1; i <= n; i++) {
			b = block
			sub(/id="h100-nvl-1x"/, sprintf("id=\"extra-%04d\"", i), b)
			printf "%s", b
		}
	}
	{ print }' "$src/catalog/offers.xml" >"$scratch/offers.xml"
[ "$(grep -c '<offer ' "$scratch/offers.xml")" -eq $((EXTRA + 12)) ] || die "the catalog was not built"
(cd "$src" && "$bin" site --workloads examples --catalog "$scratch/offers.xml" --out "$scratch/site" \
	--date "$SITE_DATE") >"$scratch/build.log" 2>&1 || { cat "$scratch/build.log"; die "site failed"; }
n_index=$(ls "$scratch/site" | grep -c '^index.*\.html$')
n_offers=$(ls "$scratch/site" | grep -c '^offers.*\.html$')
# 2,012 offers: 101 column pages of 20 (one row page); 21 offers pages of 100
[ "$n_index" -eq 101 ] || err "$n_index index pages, want 101"
[ "$n_offers" -eq 21 ] || err "$n_offers offers pages, want 21"
[ -f "$scratch/site/index-1-101.html" ] && [ -f "$scratch/site/offers-21.html" ] || err "the last pages are missing"
grep -q 'href="index-1-2.html"' "$scratch/site/index.html" || err "index.html does not link to the next offers"
grep -q 'href="offers-2.html"' "$scratch/site/offers.html" || err "offers.html does not link to page 2"
for f in "$scratch"/site/index*.html "$scratch"/site/offers*.html; do
	size=$(wc -c <"$f")
	[ "$size" -le "$MAX_PAGE" ] || err "$(basename "$f"): $size bytes, over $MAX_PAGE"
done
largest=$(ls -S "$scratch"/site/*.html | head -n 1)
echo "largest root page: $(basename "$largest"), $(wc -c <"$largest") bytes"
"$bin" verify "$scratch/site" >"$scratch/verify.txt" 2>&1 || { head -n 20 "$scratch/verify.txt"; err "verify rejects the site"; }
finish "ok: $n_index index pages, $n_offers offers pages, all under $MAX_PAGE bytes"
