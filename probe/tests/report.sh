#!/bin/sh
# The probe's measurement writer, read back by the generator's reader.
# Usage: report.sh TEST_PROBE_REPORT GPUSHEET EXPECTED_JSON EXPECTED_TRAIN_JSON SCRATCH_DIR
# Runs the writer test program (which fills the report struct with fixed
# values, a failed phase and phases not run, once for measure and once for
# train), compares each file with its expected bytes and runs
# `gpusheet check` on it.
set -u
writer=$1 gpusheet=$2 expected=$3 expected_train=$4 scratch=$5
rm -rf "$scratch" && mkdir -p "$scratch" || exit 1
out=$scratch/report.json
out_train=$scratch/report-train.json
fail=0

"$writer" "$out" "$out_train" || { echo "FAIL: writer test program"; fail=1; }
for pair in "$expected:$out" "$expected_train:$out_train"; do
	want=${pair%%:*} got=${pair#*:}
	if ! cmp -s "$want" "$got"; then
		echo "FAIL: written file differs from $want:"
		diff -u "$want" "$got" | head -40
		fail=1
	fi
	if ! "$gpusheet" check "$got" >"$scratch/check.out" 2>&1; then
		echo "FAIL: gpusheet check refused $got:"
		cat "$scratch/check.out"
		fail=1
	fi
done
# no temporary file is left next to the outputs
leftover=$(find "$scratch" -name '.report*.json.*' | head -1)
[ -z "$leftover" ] || { echo "FAIL: temporary file left: $leftover"; fail=1; }
[ $fail -eq 0 ] && echo "ok: writer output (measure and train) read back by gpusheet check"
exit $fail
