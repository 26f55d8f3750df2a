#!/bin/sh
# site-verify: `gpusheet verify` accepts a freshly built site and catches,
# each on its own, a changed evidence byte, a missing evidence file and a
# broken link; pages stay under 2 MB and request nothing over http(s); the
# manifest's cited_by entries name pages that exist.
#
#   sh site-verify.sh GPUSHEET_BIN SOURCE_DIR SCRATCH_DIR
set -u
bin=$1 src=$2 scratch=$3
. "$src/tests/lib/common.sh"
MAX_PAGE=2097152   # 2 MB

out=$scratch/site
report=$scratch/verify.txt

site_build "$out" "$scratch/build.log"

# verify_ok LABEL: the site must verify cleanly.
verify_ok() {
	if "$bin" verify "$out" >"$report" 2>"$report.err"; then
		echo "ok: verify passes ($1)"
	else
		cat "$report" "$report.err"
		err "verify rejects the site ($1)"
	fi
}
# verify_finds LABEL PATTERN: verify must exit non-zero and print a line
# containing PATTERN (fixed string). Problem lines are on stdout ($report),
# the summary on stderr.
verify_finds() {
	"$bin" verify "$out" >"$report" 2>"$report.err"
	rc=$?
	if [ "$rc" -eq 0 ]; then
		cat "$report" "$report.err"
		err "$1: verify exits 0"
	elif ! grep -qF -- "$2" "$report"; then
		cat "$report"
		err "$1: verify exits $rc but does not say \"$2\""
	else
		echo "ok: $1 detected (exit $rc): $(grep -F -- "$2" "$report" | head -n 1)"
	fi
}

verify_ok "fresh build"

ev=$(cd "$out/evidence" && ls | grep -v '^manifest\.json$' | LC_ALL=C sort | head -n 1)
[ -n "$ev" ] || die "no archived evidence file in the site"
cp -p "$out/evidence/$ev" "$scratch/evidence.bak" || die "cannot back up $ev"

# (a) one byte changed (same size): a hash mismatch naming the file.
byte=$(dd if="$out/evidence/$ev" bs=1 skip=20 count=1 2>/dev/null)
if [ "$byte" = "Z" ]; then new=Y; else new=Z; fi
printf '%s' "$new" | dd of="$out/evidence/$ev" bs=1 seek=20 conv=notrunc 2>/dev/null
verify_finds "changed byte" "evidence/$ev: hash mismatch"
if [ "$(grep -c . "$report")" -ne 1 ]; then
	cat "$report"
	err "changed byte: expected exactly one problem line"
fi
cp -p "$scratch/evidence.bak" "$out/evidence/$ev"
verify_ok "evidence restored"

# (b) one evidence file deleted: named as missing.
rm -f "$out/evidence/$ev"
verify_finds "deleted evidence" "evidence/$ev: missing file"
cp -p "$scratch/evidence.bak" "$out/evidence/$ev"
verify_ok "evidence restored again"

# (c) a copy of a page with a broken link appended: named as broken link.
cp "$out/index.html" "$out/broken-copy.html"
printf '%s\n' '<a href="nope.html">x</a>' >>"$out/broken-copy.html"
verify_finds "broken link" "broken-copy.html: broken link: nope.html"
if [ "$(grep -c . "$report")" -ne 1 ]; then
	cat "$report"
	err "broken link: expected exactly one problem line"
fi
rm -f "$out/broken-copy.html"
verify_ok "page copy removed"

# (d) the manifest's cited_by changed to a missing page, then to another
#     page that does not link to the evidence; (e) names no longer sorted;
#     (f) a page's evidence link whose entry does not cite it; (g) a stray
#     temporary file. Each is named by verify (item 5 of issue 13).
m=$out/evidence/manifest.json
cp -p "$m" "$scratch/manifest.bak"
c1=$(grep -m 1 -A 1 '"cited_by": \[' "$m" | tail -n 1 | tr -d ' ",')
[ -n "$c1" ] || die "no cited_by entry in the manifest"
sed "0,\|\"$c1\"|s|\"$c1\"|\"sheets/nope.html\"|" "$scratch/manifest.bak" >"$m"
verify_finds "cited_by to a missing page" "names a missing page: sheets/nope.html"
sed "0,\|\"$c1\"|s|\"$c1\"|\"offers.html\"|" "$scratch/manifest.bak" >"$m"
verify_finds "cited_by to a page without the link" "names offers.html, which does not link to it"
verify_finds "a page's link not cited" "$c1: links to evidence/"
awk '/"names": \[/ { print; print "        \"zzz.json\","; next } { print }' "$scratch/manifest.bak" >"$m"
verify_finds "names not sorted" "\"names\" is not sorted and unique"
cp -p "$scratch/manifest.bak" "$m"
verify_ok "manifest restored"
: >"$out/sheets/.gs-tmp-0123456789abcdef"
verify_finds "stray temporary file" "sheets/.gs-tmp-0123456789abcdef: temporary file left behind"
rm -f "$out/sheets/.gs-tmp-0123456789abcdef"
verify_ok "temporary file removed"

# Page sizes and external requests.
pages=$(cd "$out" && find . -name '*.html' -type f | LC_ALL=C sort)
[ -n "$pages" ] || die "no pages in the site"
npages=0
largest=0
for p in $pages; do
	npages=$((npages + 1))
	size=$(wc -c <"$out/$p")
	[ "$size" -gt "$largest" ] && largest=$size
	[ "$size" -le "$MAX_PAGE" ] || err "$p is $size bytes (limit $MAX_PAGE)"
	if grep -Eio "(src|href|srcset)[[:space:]]*=[[:space:]]*[\"']?[[:space:]]*https?://[^\"' >]*" "$out/$p" >"$scratch/ext.txt"; then
		sed "s|^|  $p: |" "$scratch/ext.txt"
		err "$p links to http(s) in src/href"
	fi
done
echo "ok: $npages pages, largest $largest bytes, no http(s) in src/href"

# The manifest's cited_by entries are paths relative to the site (see
# gen/publish/evidence.h): each must name an existing page.
awk '/"cited_by": \[/ { c = 1; next } c && /\]/ { c = 0 } c { gsub(/[ ",]/, ""); print }' \
	"$out/evidence/manifest.json" | LC_ALL=C sort -u >"$scratch/cited.txt"
[ -s "$scratch/cited.txt" ] || err "the manifest cites no page"
while IFS= read -r c; do
	[ -f "$out/$c" ] || err "evidence/manifest.json: cited_by \"$c\" is not a page of the site"
done <"$scratch/cited.txt"

# A site whose workloads cite no evidence still has the manifest every
# page's navigation links to (empty), so that it verifies.
"$bin" site --workloads "$src/examples/seed-7b" --catalog "$src/catalog/offers.xml" --out "$scratch/noev" \
	--date 2026-11-29 > /dev/null 2> "$scratch/noev.err" || { cat "$scratch/noev.err"; err "site of seed-7b failed"; }
grep -q '"entries": {}' "$scratch/noev/evidence/manifest.json" ||
	err "a site without evidence has no empty manifest"
"$bin" verify "$scratch/noev" > "$scratch/noev.verify" 2>&1 ||
	{ cat "$scratch/noev.verify"; err "a site without evidence does not verify"; }

finish "all checks passed"
