#!/bin/sh
# browser: the site in a real browser (Debian's Chromium driven by
# playwright-core, offline, over file://). Builds examples/ plus a hostile
# workload (tests/data/browser/hostile: script tags, an onerror image and a
# javascript: link in its title and notes) and runs tests/browser/browser-test.mjs
# on index.html, offers.html, one offer's page, one GPU's page and three sheets, each at 1280 and 390 px wide in
# light and dark colour schemes: no console error, no page error, no request
# outside the site folder, no injected script run (window.__pwned), no inline
# script, chart images loaded, no sideways page scroll, zero WCAG 2.1 A/AA
# violations from axe-core, Tab reaching every link and control, chart text
# >= 11 px at 1280 px, a clean print (no navigation, nothing sticky or
# clipped); on the index, the sticky header and first column,
# matrix.js's sorting and filters, and every row shown with scripts disabled.
# Full-page screenshots go to SCRATCH/screenshots/ (kept as test artifacts).
# A negative control (a page with its CSP removed, a script and an image from
# outside the site added) must make the browser test fail.
#
# Skipped (exit 77) when /usr/bin/chromium or tests/browser/node_modules is
# missing: .ci/run installs both (apt-get chromium, npm ci).
#
#   sh browser.sh GPUSHEET_BIN SOURCE_DIR SCRATCH_DIR
set -u
bin=$1 src=$2 scratch=$3
. "$src/tests/lib/common.sh"
chromium=${CHROMIUM:-/usr/bin/chromium}

[ -x "$chromium" ] || skip "no Chromium at $chromium (apt-get install chromium)"
[ -d "$src/tests/browser/node_modules/playwright-core" ] ||
	skip "tests/browser/node_modules/playwright-core missing (cd tests/browser && npm ci)"
[ -f "$src/tests/browser/node_modules/axe-core/axe.min.js" ] ||
	skip "tests/browser/node_modules/axe-core missing (cd tests/browser && npm ci)"
need node "apt-get install nodejs"
out=$scratch/site
test_js=$src/tests/browser/browser-test.mjs
export CHROMIUM="$chromium"

site_build "$out" "$scratch/build.log" tests/data/browser
[ -f "$out/sheets/hostile.html" ] || die "the hostile workload gave no sheet"

node "$test_js" "$out" "$scratch/screenshots" \
	index.html offers.html offers/rtx4090-1x.html gpus/rtx-4090.html sheets/hostile.html sheets/seed-7b.html \
	sheets/context-sweep.html ||
	die "the browser found problems (above)"

# Negative control: the harness must catch what it is there to catch.
ctl=$scratch/control
cp -R "$out" "$ctl" || die "cannot copy the site"
printf 'x' >"$scratch/outside.png"
page=$ctl/sheets/seed-7b.html
sed '/Content-Security-Policy/d' "$out/sheets/seed-7b.html" >"$page"
printf '%s\n' '<script>window.__pwned=1</script><img src="../../outside.png" alt="">' >>"$page"
if node "$test_js" "$ctl" "$scratch/screenshots-control" sheets/seed-7b.html >"$scratch/control.log" 2>&1; then
	cat "$scratch/control.log"
	die "negative control: the browser test passed a page that runs a script"
fi
grep -q 'window.__pwned is defined' "$scratch/control.log" ||
	{ cat "$scratch/control.log"; die "negative control: injected script not reported"; }
grep -q 'request outside the site: file://' "$scratch/control.log" ||
	{ cat "$scratch/control.log"; die "negative control: request outside the site not reported"; }
echo "ok: negative control caught ($(grep -c '^FAIL' "$scratch/control.log") problems)"
echo "screenshots:"
ls "$scratch"/screenshots/*.png | sed 's/^/  /'
exit 0
