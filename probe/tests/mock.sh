#!/bin/sh
# gpusheet-probe's own logic end to end, through a mock CUDA runtime.
# Usage: mock.sh GPUSHEET_PROBE_MOCK GPUSHEET GPU_CHECK_SH SCRATCH_DIR
#
# 1. probe/gpu-check.sh runs in full against the mock build: every check
#    must pass except the one that wants a real run (synthetic: false),
#    since the mock build marks its files synthetic.
# 2. Cases the GPU check cannot provoke: an error that breaks the context
#    (later reads are null), no device, a sweep with a failed point.
set -u
probe=$1 gpusheet=$2 gpucheck=$3 scratch=$4
rm -rf "$scratch" && mkdir -p "$scratch" || exit 1
fail=0
M="--device cuda:0 --batch 2 --context 128 --width 1024 --dtype float32 --warmup 3 --repeats 5"

sh "$gpucheck" --probe "$probe" --gpusheet "$gpusheet" "$scratch/gpu-check" >"$scratch/gpu-check.log" 2>&1
fails=$(grep '^FAIL' "$scratch/gpu-check/summary.txt")
if [ "$fails" != "FAIL  seed: real run (synthetic false)" ]; then
	echo "FAIL: gpu-check.sh against the mock:"; grep -v '^PASS' "$scratch/gpu-check.log"; fail=1
fi
grep -q '^PASS  sweep dtype: float32 weights above float16' "$scratch/gpu-check/summary.txt" ||
	{ echo "FAIL: gpu-check.sh did not run to its end"; fail=1; }

# the 4th synchronisation (end of `inputs`) reports an illegal address, which sticks
PROBE_MOCK_FAIL_SYNC=4 "$probe" measure $M --output "$scratch/sticky.json" >/dev/null 2>"$scratch/sticky.err"
rc=$?
[ $rc -eq 1 ] || { echo "FAIL: sticky error: exit $rc, expected 1"; fail=1; }
"$gpusheet" check "$scratch/sticky.json" >/dev/null 2>&1 || { echo "FAIL: sticky error: gpusheet check"; fail=1; }
grep -q '"error": "cudaDeviceSynchronize after the phase: an illegal memory access' "$scratch/sticky.json" ||
	{ echo "FAIL: sticky error: error text"; fail=1; }
# inputs failed: its start was read, its end could not be: null, not 0
awk '/"name": "inputs"/ { f = 1 } f && /"end": null/ { n++ } f && /"elapsed_us"/ { exit } END { exit n != 3 }' \
	"$scratch/sticky.json" || { echo "FAIL: sticky error: end values of inputs are not null"; fail=1; }
awk '/"name": "inputs"/ { f = 1 } f && /"start": [0-9]/ { n++ } f && /"elapsed_us"/ { exit } END { exit n != 3 }' \
	"$scratch/sticky.json" || { echo "FAIL: sticky error: start values of inputs were not kept"; fail=1; }
[ "$(grep -c '"status": "not_run"' "$scratch/sticky.json")" -eq 3 ] || { echo "FAIL: sticky error: not_run count"; fail=1; }
grep -q 'phase inputs failed' "$scratch/sticky.err" || { echo "FAIL: sticky error: no message"; fail=1; }

# no device: exit 2, one line, no file
PROBE_MOCK_DEVICES=0 "$probe" measure $M --output "$scratch/nodev.json" >/dev/null 2>"$scratch/nodev.err"
rc=$?
[ $rc -eq 2 ] && [ ! -e "$scratch/nodev.json" ] && grep -q 'no CUDA device' "$scratch/nodev.err" &&
	[ "$(wc -l <"$scratch/nodev.err")" -eq 1 ] || { echo "FAIL: no device: exit $rc"; cat "$scratch/nodev.err"; fail=1; }
"$probe" measure --device cuda:1 --batch 2 --context 128 --width 1024 --dtype float32 --warmup 3 --repeats 5 --output "$scratch/dev1.json" >/dev/null 2>"$scratch/dev1.err"
rc=$?
[ $rc -eq 2 ] && [ ! -e "$scratch/dev1.json" ] && grep -q 'cuda:1 not found' "$scratch/dev1.err" ||
	{ echo "FAIL: unknown device: exit $rc"; fail=1; }

# a sweep goes on after a failed point and exits 1
mkdir "$scratch/sweep"
"$probe" sweep --device cuda:0 --batch 1 --context 1 --dtype float32 --warmup 0 --repeats 1 \
	--vary width=256,60000,512 --output-dir "$scratch/sweep" >"$scratch/sweep.out" 2>&1
rc=$?
[ $rc -eq 1 ] || { echo "FAIL: sweep with a failed point: exit $rc"; fail=1; }
for w in 256 60000 512; do
	"$gpusheet" check "$scratch/sweep/width-$w.json" >/dev/null 2>&1 || { echo "FAIL: sweep width=$w: gpusheet check"; fail=1; }
done
grep -q '^width=60000: failed' "$scratch/sweep.out" && grep -q '^width=512: ok' "$scratch/sweep.out" ||
	{ echo "FAIL: sweep summary"; cat "$scratch/sweep.out"; fail=1; }
grep -q '"order": 3,' "$scratch/sweep/width-512.json" || { echo "FAIL: sweep order"; fail=1; }

[ $fail -eq 0 ] && echo "ok: probe through the mock runtime (gpu-check.sh and failure cases)"
exit $fail
