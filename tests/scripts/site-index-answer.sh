#!/bin/sh
# site-index-answer: the index's "offer to take" column answers with what a
# reader compares: the provider, the lot (cards x GPU) and the price per
# hour of the lot, calculated from the catalog; never "Total cost: missing"
# (a workload without a campaign has no total, and says nothing of one).
# The seed catalog's rtx4090-1x is 0.6547 USD/h on-demand (catalog/offers.xml),
# the seed-7b sheet's offer to take; it is the only offer of the
# "1 × RTX 4090 24 GB" lot, whose column links the GPU's page.
#
#   sh site-index-answer.sh GPUSHEET_BIN SOURCE_DIR SCRATCH_DIR
set -u
bin=$1 src=$2 scratch=$3
. "$src/tests/lib/common.sh"

out="$scratch/site"
(cd "$src" && "$bin" site --workloads examples/seed-7b examples/probe-dense --catalog offers.xml \
	--out "$out" --date 2026-11-29 >"$scratch/site.log" 2>&1) || { cat "$scratch/site.log"; die "site failed"; }
idx="$out/index.html"
[ -f "$idx" ] || die "no index.html"
grep -q "Total cost: missing" "$idx" && die "the index still says Total cost: missing"
grep -q "IteraGPU, 1 × RTX 4090 — <span class=\"hour\">0.6547 USD/h</span> on-demand (calculated)" "$idx" ||
	die "the offer to take does not give provider, lot and price per hour"
# the probe-dense workload states no campaign: no total cost in its row
python3 - "$idx" <<'PY' || die "a best-offer cell without a campaign speaks of a total cost"
import re, sys
html = open(sys.argv[1], encoding="utf-8").read()
cells = re.findall(r'<td class="best"[^>]*>(.*?)</td>', html, re.S)
assert cells, "no best-offer cell"
assert all("/h</span>" in c for c in cells), cells
probe = [c for c in cells if "sheets/probe-dense.html" in c]
assert probe and "Total cost" not in probe[0], probe
seed = [c for c in cells if "sheets/seed-7b.html" in c]
assert seed and "Total cost: <span" in seed[0], seed
PY
# a lot's cell: its class (the sheet's, its verdict's symbol and colour),
# its price per hour, the cost of a million tokens at the speed bound (a
# lower bound, said so: the seed-7b sheet's own figure, rounded down), its
# provider on hover and for screen readers; the data matrix.js sorts by
# (class, price per hour, cost per million tokens); the explanations after
# the table, behind a disclosure
python3 - "$idx" "$out" <<'PY' || die "the index's lots or its first screen are not as expected"
import os, re, sys
html = open(sys.argv[1], encoding="utf-8").read()
cell = ('<td class="v1" data-c="1" data-cost="654722" data-mtok="2719662">'
        '<a href="sheets/seed-7b.html#offer-rtx4090-1x" '
        'title="IteraGPU · rtx4090-1x">? fits the whole need</a><br><span class="cost">0.6547 USD/h</span>'
        '<br><span class="cost">≥ 2.7196 USD</span> per million tokens (bound)'
        '<span class="sr">, IteraGPU</span></td>')
assert cell in html, "seed-7b's RTX 4090 cell"
sheet = open(os.path.join(sys.argv[2], "sheets", "seed-7b.html"), encoding="utf-8").read()
assert "≥ 2.7196 USD" in sheet, "the sheet's cost per million tokens is not the index's"
best = re.search(r'<td class="best" data-v="1" data-c="1" data-cost="654722" data-mtok="2719662">'
                 r'IteraGPU, 1 × RTX 4090 — .*?<br><span class="cost">≥ 2.7196 USD</span> per million '
                 r'tokens \(bound\)<br>\? fits the whole need: <a href="sheets/seed-7b.html#offer-rtx4090-1x">',
                 html)
assert best, "the offer to take does not give its cost per million tokens and its class"
assert "Capacity holds the whole calculated need" in html, "the legend does not name the sheet's classes"
heads = re.findall(r'<th scope="col" class="lot"[^>]*><a href="(gpus/[^"]+)">([^<]+)</a>', html)
assert ("gpus/rtx-4090.html", "1 × RTX 4090 24 GB") in heads, heads
for link, _ in heads:
    assert os.path.isfile(os.path.join(sys.argv[2], link)), link
table_end = html.index("</table>")
details = html.index('<details class="help">')
assert details > table_end, "the explanations come before the table"
assert html.index("Legend") > details, "the legend is not behind the disclosure"
PY
echo "ok"
