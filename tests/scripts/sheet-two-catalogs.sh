#!/bin/sh
# A sheet against two catalogs: a measurement on an "NVIDIA A100-SXM4-80GB"
# matches the A100 80GB offers of both providers (offers.xml: model
# "A100 80GB"; lambda.xml: model "A100-80GB") through the GPU alias table,
# and no offer whose name is ambiguous ("A100": 40 or 80 GB; "H100": SXM,
# PCIe or NVL). Stated by hand here; tests/cli/sheet-two-catalogs keeps the
# whole sheet.
# Usage: sheet-two-catalogs.sh GPUSHEET SOURCE_DIR SCRATCH_DIR
set -u
bin=$1 src=$2 scratch=$3
. "$src/tests/lib/common.sh"
cd "$src" || exit 1

"$bin" sheet tests/data/sheet/two-catalogs/workload.json --catalog catalog/offers.xml \
	--catalog catalog/lambda.xml --out "$scratch" --date 2026-11-29 --accept-synthetic \
	>"$scratch/log" 2>&1 || { cat "$scratch/log"; die "gpusheet sheet failed"; }
md=$scratch/two-catalogs.md
row() {  # the candidates-table row of an offer
	grep "^| \`$1\`" "$md"
}
# The device read 85,899,345,920 B = 80.00 GiB: both A100 80GB offers take it
# (the Lambda lot is excluded by its budget: not a row of the table, its
# memory verdict in the reason that names both).
row a100-80gb-1x | grep -q '| 80.00 GiB (assumed, from a synthetic measurement, total bytes read on the device)' ||
	err "a100-80gb-1x: the measurement's device does not match it"
grep -q '^  - \*\*✔ admissible\*\* for `lambda-gpu_8x_a100_80gb_sxm4`, `a100-80gb-1x`\. Observed need .* within the capacity per card 80\.00 GiB (assumed, from a synthetic measurement)' "$md" ||
	err "lambda-gpu_8x_a100_80gb_sxm4: the measurement's device does not match it"
grep -q '^| Excluded | Budget: ✘ exclude | 1 offer (prices calculated): `8 x A100 80GB`: `lambda-gpu_8x_a100_80gb_sxm4`, 22.32 USD/h |$' "$md" ||
	err "lambda-gpu_8x_a100_80gb_sxm4: not named among the excluded offers"
# "A100" with 40960 MiB is the A100 40GB by its figure (the only one it
# agrees with): its reported total, never the 80 GB device's. "H100" with
# 81920 MiB may be SXM or PCIe: the claim read in decimal GB (80 GB).
# (A table of several rows says how each capacity was obtained once, below
# it, marked [cN] in the cells; each cell keeps its own provenance word.)
basis() { # OFFER FIGURE: the words of the row's capacity mark
	awk -v id="$1" -v fig="$2" '
	index($0, "| `" id "`") == 1 {
		p = "| " fig " (assumed) \\[c"; k = index($0, p)
		if (k) { s = substr($0, k + length(p)); n = substr(s, 1, index(s, "\\]") - 1) }
	}
	/^Capacity per card, how each figure was obtained/ { line = $0 }
	END {
		q = "\\[c" n "\\] "; k = index(line, q)
		if (n == "" || !k) exit 1
		print substr(line, k + length(q))
	}' "$md"
}
basis lambda-gpu_1x_a100 39.49 | grep -q '^total a device of this model reports to the CUDA runtime (cited)' ||
	err "lambda-gpu_1x_a100 was matched by a guess"
basis lambda-gpu_1x_h100_sxm5 74.51 | grep -q "^a provider.s MiB figure read as nominal GB" ||
	err "lambda-gpu_1x_h100_sxm5 was matched by a guess"
# Each offer of the table says which catalog it comes from.
grep -q '^| `lambda-gpu_1x_a100` A100, 1 x 40960 MiB (assumed: the provider.s figure) — Lambda (catalog: lambda.xml) |' "$md" || err "origin of the Lambda offer not shown"
grep -q '^| `a100-80gb-1x` A100 80GB, 1 x 80 GB .*(catalog: offers.xml) |' "$md" || err "origin of the bundled offer not shown"
# 72 h x 1.99 USD = 143.28 USD (the v8 snapshot's price, lambda-v8-vms.csv),
# billed by the hour: the mark, and the sentence once below the table; the
# excluded 8-card lot's 72 h x 22.32 USD in its budget reason.
grep -q '143.28 USD = 72 x 1 h x 1.99 USD †' "$md" || err "per-hour cost arithmetic not shown"
[ "$(grep -c 'Billed by the whole hour' "$md")" = 1 ] || err "the billing sentence is not written once"
grep -q 'costs 1,607.04 USD, above the budget of 1,200.00 USD' "$md" || err "the excluded lot's cost not shown"
finish "ok: one device, offers of two providers, no guess"
