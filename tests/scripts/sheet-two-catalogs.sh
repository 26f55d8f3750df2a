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
# The device read 85,899,345,920 B = 80.00 GiB: both A100 80GB offers take it.
for id in a100-80gb-1x lambda-gpu_8x_a100_80gb_sxm4; do
	row "$id" | grep -q '| 80.00 GiB (assumed, from a synthetic measurement, total bytes read on the device)' ||
		err "$id: the measurement's device does not match it"
done
# "A100" (40960 MiB x 2^20 = 40.00 GiB) and "H100" stay on the catalog's figure.
row lambda-gpu_1x_a100 | grep -q '| 40.00 GiB (assumed, a provider.s MiB x 2^20)' ||
	err "lambda-gpu_1x_a100 was matched by a guess"
row lambda-gpu_1x_h100_sxm5 | grep -q '| 80.00 GiB (assumed, a provider.s MiB x 2^20)' ||
	err "lambda-gpu_1x_h100_sxm5 was matched by a guess"
# Each offer says which catalog it comes from.
grep -q '^| `lambda-gpu_8x_a100_80gb_sxm4` A100-80GB, 8 x 81920 MiB .* — Lambda (catalog: lambda.xml) |' "$md" || err "origin of the Lambda offer not shown"
grep -q '^| `a100-80gb-1x` A100 80GB, 1 x 80 GB .*(catalog: offers.xml) |' "$md" || err "origin of the bundled offer not shown"
# 72 h x 22.32 USD = 1,607.04 USD for the 8-card lot (the v8 snapshot's price,
# lambda-v8-vms.csv), billed by the hour.
grep -q '1,607.04 USD = 72 x 1 h x 22.32 USD. Billed by the whole hour' "$md" || err "per-hour cost arithmetic not shown"
finish "ok: one device, offers of two providers, no guess"
