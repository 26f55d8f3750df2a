#!/bin/sh
# The probe's measurement writer, read back by the generator's reader.
# Usage: report.sh TEST_PROBE_REPORT GPUSHEET EXPECTED_JSON SCRATCH_DIR
# Runs the writer test program (which fills the report struct with fixed
# values, a failed phase and phases not run), compares the file with the
# expected bytes and runs `gpusheet check` on it.
set -u
writer=$1 gpusheet=$2 expected=$3 scratch=$4
rm -rf "$scratch" && mkdir -p "$scratch" || exit 1
out=$scratch/report.json
fail=0

"$writer" "$out" || { echo "FAIL: writer test program"; fail=1; }
if ! cmp -s "$expected" "$out"; then
	echo "FAIL: written file differs from $expected:"
	diff -u "$expected" "$out" | head -40
	fail=1
fi
if ! "$gpusheet" check "$out" >"$scratch/check.out" 2>&1; then
	echo "FAIL: gpusheet check refused the written file:"
	cat "$scratch/check.out"
	fail=1
fi
# no temporary file is left next to the output
leftover=$(find "$scratch" -name '.report.json.*' | head -1)
[ -z "$leftover" ] || { echo "FAIL: temporary file left: $leftover"; fail=1; }
[ $fail -eq 0 ] && echo "ok: writer output read back by gpusheet check"
exit $fail
