#!/bin/sh
# gpusheet-probe's own logic end to end, through a mock CUDA runtime.
# Usage: mock.sh GPUSHEET_PROBE_MOCK GPUSHEET GPU_CHECK_SH SCRATCH_DIR
#
# 1. probe/gpu-check.sh runs in full against the mock build: every check
#    must pass except the one that wants a real run (synthetic: false),
#    since the mock build marks its files synthetic.
# 2. Cases the GPU check cannot provoke: an error that breaks the context
#    (later reads are null), no device, a sweep with a failed point, Adam's
#    states out of memory, several devices (the mock has as many as
#    PROBE_MOCK_DEVICES says; each process models one).
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

# train: Adam's states do not fit. The mock device: 300 MiB context + 8 MiB
# cuBLAS + the pool; the pool holds 68 MiB after backward (32 MiB workspace,
# 16 MiB weights, input and target, 16 MiB gradients, 2 MiB of rounding)
# and Adam needs 32 MiB more: a 396 MiB card leaves it 20 MiB.
T="--device cuda:0 --batch 2 --context 128 --width 1024 --dtype float32"
PROBE_MOCK_TOTAL=415236096 "$probe" train $T --optimizer adam --output "$scratch/train-oom.json" \
	>/dev/null 2>"$scratch/train-oom.err"
rc=$?
[ $rc -eq 1 ] || { echo "FAIL: train adam out of memory: exit $rc, expected 1"; cat "$scratch/train-oom.err"; fail=1; }
"$gpusheet" check "$scratch/train-oom.json" >/dev/null 2>&1 || { echo "FAIL: train-oom: gpusheet check"; fail=1; }
grep -q '"error": "cudaMallocAsync(Adam .* moment of layer [0-9]*, 4194304 bytes): out of memory' \
	"$scratch/train-oom.json" || { echo "FAIL: train-oom: error text"; fail=1; }
[ "$(grep -c '"status": "ok"' "$scratch/train-oom.json")" -eq 4 ] &&
	[ "$(grep -c '"status": "failed"' "$scratch/train-oom.json")" -eq 1 ] &&
	[ "$(grep -c '"status": "not_run"' "$scratch/train-oom.json")" -eq 1 ] ||
	{ echo "FAIL: train-oom: 4 ok, optimizer_step failed, second_step not_run"; fail=1; }
grep -q 'phase optimizer_step failed' "$scratch/train-oom.err" || { echo "FAIL: train-oom: no message"; fail=1; }

# several devices: each in its own process and file, named by its index
mkdir "$scratch/all" "$scratch/list" "$scratch/refused"
PROBE_MOCK_DEVICES=2 "$probe" measure --device all --batch 2 --context 128 --width 1024 --dtype float32 \
	--warmup 1 --repeats 1 --output-dir "$scratch/all" >"$scratch/all.out" 2>&1
rc=$?
[ $rc -eq 0 ] || { echo "FAIL: --device all: exit $rc"; cat "$scratch/all.out"; fail=1; }
for k in 0 1; do
	f=$scratch/all/cuda-$k.json
	"$gpusheet" check "$f" >/dev/null 2>&1 || { echo "FAIL: --device all: cuda-$k.json"; fail=1; }
	grep -q "\"index\": $k," "$f" && grep -q "\"device\": $k," "$f" && grep -q "Mock GPU $k" "$f" ||
		{ echo "FAIL: --device all: cuda-$k.json is not device $k"; fail=1; }
done
grep -q '^cuda:1: ok: ' "$scratch/all.out" || { echo "FAIL: --device all: summary"; fail=1; }
PROBE_MOCK_DEVICES=3 "$probe" train --device cuda:2,cuda:0 --batch 2 --context 128 --width 1024 \
	--dtype float32 --optimizer sgd --output-dir "$scratch/list" >"$scratch/list.out" 2>&1
rc=$?
[ $rc -eq 0 ] && [ "$(ls "$scratch/list")" = "cuda-0.json
cuda-2.json" ] && [ "$(grep '^cuda:' "$scratch/list.out" | cut -d: -f1-2 | tr '\n' ' ')" = "cuda:2 cuda:0 " ] ||
	{ echo "FAIL: train on a device list: exit $rc"; cat "$scratch/list.out"; fail=1; }
# refused before anything runs: an unknown index, an existing file
PROBE_MOCK_DEVICES=2 "$probe" measure --device cuda:0,cuda:5 --batch 1 --context 1 --width 8 \
	--dtype float32 --warmup 0 --repeats 1 --output-dir "$scratch/refused" >/dev/null 2>"$scratch/refused.err"
rc=$?
[ $rc -eq 2 ] && [ -z "$(ls "$scratch/refused")" ] && grep -q 'cuda:5 not found' "$scratch/refused.err" ||
	{ echo "FAIL: device list with an unknown index: exit $rc"; fail=1; }
printf 'keep me\n' >"$scratch/refused/cuda-1.json"
PROBE_MOCK_DEVICES=2 "$probe" measure --device all --batch 1 --context 1 --width 8 \
	--dtype float32 --warmup 0 --repeats 1 --output-dir "$scratch/refused" >/dev/null 2>"$scratch/refused.err"
rc=$?
[ $rc -eq 2 ] && [ ! -e "$scratch/refused/cuda-0.json" ] && grep -q 'already exists' "$scratch/refused.err" ||
	{ echo "FAIL: --device all with an existing file: exit $rc"; fail=1; }

[ $fail -eq 0 ] && echo "ok: probe through the mock runtime (gpu-check.sh, failure cases, train, several devices)"
exit $fail
