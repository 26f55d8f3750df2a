#!/bin/sh
# site-index-answer: the index's "offer to take" column answers with what a
# reader compares: the provider, the lot (cards x GPU) and the price per
# hour of the lot, calculated from the catalog; never "Total cost: missing"
# (a workload without a campaign has no total, and says nothing of one).
# The seed catalog's rtx4090-1x is 0.6547 USD/h on-demand (catalog/offers.xml),
# the seed-7b sheet's offer to take.
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
echo "ok"
