#!/bin/sh
# golden-rc-guard: GS_UPDATE_GOLDEN=1 never rewrites an expected exit code.
# A copy of a real golden case is given a wrong expected-rc: the update run
# must fail, say so, and leave every file of the case as it was; the plain
# run must fail too. Then, with the right expected-rc, the update run
# passes and rewrites the case to the same bytes.
#
#   sh golden-rc-guard.sh GPUSHEET_BIN SOURCE_DIR SCRATCH_DIR
set -u
bin=$1 src=$2 scratch=$3
. "$src/tests/lib/common.sh"

from="$src/tests/cli/catalog-import-bad-bad-price"
[ -d "$from" ] || die "no golden case $from"
case="$scratch/case"
cp -R "$from" "$case"
want=$(cat "$case/expected-rc" 2>/dev/null || echo 0)
echo 3 > "$case/expected-rc"
(cd "$scratch" && find case -type f | LC_ALL=C sort | xargs sha256sum) > "$scratch/before"

GS_UPDATE_GOLDEN=1 sh "$src/tests/run-cli-case.sh" "$bin" "$case" "$src" > "$scratch/update.log" 2>&1 &&
	err "the update run passed although the exit code was not the expected one"
grep -q "never rewrites expected-rc" "$scratch/update.log" ||
	err "the update run does not say that it leaves expected-rc alone"
(cd "$scratch" && find case -type f | LC_ALL=C sort | xargs sha256sum) > "$scratch/after"
cmp -s "$scratch/before" "$scratch/after" || err "the update run rewrote the case: $(diff "$scratch/before" "$scratch/after")"
sh "$src/tests/run-cli-case.sh" "$bin" "$case" "$src" > "$scratch/plain.log" 2>&1 &&
	err "the plain run passed with a wrong expected-rc"

echo "$want" > "$case/expected-rc"
GS_UPDATE_GOLDEN=1 sh "$src/tests/run-cli-case.sh" "$bin" "$case" "$src" > "$scratch/update2.log" 2>&1 ||
	err "the update run failed with the right expected-rc: $(cat "$scratch/update2.log")"
diff -r "$from" "$case" > "$scratch/diff.log" || err "an update of an unchanged case changed it: $(cat "$scratch/diff.log")"
finish "GS_UPDATE_GOLDEN leaves expected-rc alone"
