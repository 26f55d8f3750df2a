#!/bin/sh
# evidence-link-swap: a cited file replaced by a symbolic link between any
# check and the read is not followed. The test seam GS_TEST_SWAP_BEFORE_OPEN
# (a GS_FAULT_INJECTION build; gen/base/infile.c) renames a link over the cited
# measurement just before its open. The link points to a valid copy of the
# same measurement outside the workload's folder, so that a reader that
# checked the name first and then followed it would succeed: the sheet must
# be refused, saying the file is a symbolic link, and nothing written.
#
#   sh evidence-link-swap.sh GPUSHEET_BIN SOURCE_DIR SCRATCH_DIR
set -u
bin=$1 src=$2 scratch=$3
. "$src/tests/lib/common.sh"
w=$scratch/probe-dense
cp -R "$src/examples/probe-dense" "$w" || die "cp"
f=$w/measurements/h200-probe-dense.json
cp "$f" "$scratch/outside.json" && ln -s "$scratch/outside.json" "$w/measurements/swap" || die "link"

# without the swap: the sheet is made
(cd "$src" && "$bin" sheet --catalog offers.xml "$w/workload.json" --out "$scratch/ok" --date 2026-11-29) \
	> "$scratch/log" 2>&1 || { cat "$scratch/log"; die "the sheet without the swap failed"; }

(cd "$src" && GS_TEST_SWAP_BEFORE_OPEN="$w/measurements/swap:$f" \
	"$bin" sheet --catalog offers.xml "$w/workload.json" --out "$scratch/out" --date 2026-11-29) > "$scratch/log" 2>&1
rc=$?
grep -q "gs-test: swapped $f in before the open" "$scratch/log" ||
	skip "gpusheet built without the fault-injection seam"
[ -L "$f" ] || die "the seam did not put the link in place"
[ "$rc" -eq 1 ] || { cat "$scratch/log"; err "a link swapped in before the open: exit $rc, expected 1"; }
grep -qF "evidence 'measurements/h200-probe-dense.json': 'measurements/h200-probe-dense.json' is a symbolic link (not followed" \
	"$scratch/log" || { cat "$scratch/log"; err "the swapped link is not named as a symbolic link"; }
[ ! -e "$scratch/out/probe-dense.html" ] || err "a sheet was written from a swapped link"
finish "a link swapped in before the open of a cited file is not followed"
