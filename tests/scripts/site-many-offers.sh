#!/bin/sh
# site-many-offers: a catalog of 2,012 offers (the 12 of catalog/offers.xml
# and 2,000 copies of one) does not make any page of the site grow with it
# (finding D6: 10,000 offers gave an index of 10,002 columns): the index is
# paginated by 20 lots (index-1-2.html, ...) and the offers page by 100
# (offers-2.html, ...); every page stays under 400 kB and the site verifies;
# the pagers link a few pages each, and lead to every page.
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
			# a memory figure of its own: a lot of its own (one column)
			sub(/nominal-gb="94"/, sprintf("nominal-gb=\"%d\"", 94 + i), b)
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
# The pagers (101 and 21 pages): a page links a few pages around it and at
# each scale (gs_site_nav_pager_pages), not every page; every link leads to a
# page of the site, every page ends whole, and every page is reached from
# the first by following them.
for f in "$scratch"/site/index*.html "$scratch"/site/offers*.html; do
	[ "$(tail -n 1 "$f")" = "</html>" ] || err "$(basename "$f") does not end with </html>"
	grep -o 'href="\(index\|offers\)[-0-9]*\.html"' "$f" | sed 's/^href="//; s/"$//' | sort -u |
	while read -r t; do
		[ -f "$scratch/site/$t" ] || echo "$(basename "$f") links $t, which is not there"
	done
done >"$scratch/links.txt"
[ -s "$scratch/links.txt" ] && { head -n 5 "$scratch/links.txt"; err "pager links lead nowhere"; }
n_links=$(grep -o '<p>GPU columns 50 / 101: .*</p>' "$scratch/site/index-1-50.html" | grep -o '<a href' | wc -l)
[ "$n_links" -ge 10 ] && [ "$n_links" -le 30 ] || err "index-1-50.html's pager has $n_links links, want 10 to 30"
grep -q '<strong>50</strong>' "$scratch/site/index-1-50.html" || err "index-1-50.html's pager does not show its page"
for first in index.html offers.html; do
	echo "$first" >"$scratch/reached"
	while :; do
		before=$(wc -l <"$scratch/reached")
		while read -r f; do
			grep -o '<p>\(Page\|Offers\|GPU columns\) [0-9]* / [0-9]*: .*</p>' "$scratch/site/$f" |
				grep -o 'href="[^"]*"' | sed 's/^href="//; s/"$//'
		done <"$scratch/reached" >"$scratch/next"
		sort -u "$scratch/reached" "$scratch/next" >"$scratch/reached.new"
		mv "$scratch/reached.new" "$scratch/reached"
		[ "$(wc -l <"$scratch/reached")" -eq "$before" ] && break
	done
	case $first in
	index.html) want=$n_index ;;
	*) want=$n_offers ;;
	esac
	[ "$(wc -l <"$scratch/reached")" -eq "$want" ] ||
		err "$(wc -l <"$scratch/reached") pages reached from $first by its pagers, want $want"
done
largest=$(ls -S "$scratch"/site/*.html | head -n 1)
echo "largest root page: $(basename "$largest"), $(wc -c <"$largest") bytes"
"$bin" verify "$scratch/site" >"$scratch/verify.txt" 2>&1 || { head -n 20 "$scratch/verify.txt"; err "verify rejects the site"; }
finish "ok: $n_index index pages, $n_offers offers pages, all under $MAX_PAGE bytes"
