#!/bin/sh
# gpusheet-probe's command line, on any machine (with or without a GPU).
# Usage: cli.sh GPUSHEET_PROBE SCRATCH_DIR
set -u
probe=$1 scratch=$2
rm -rf "$scratch" && mkdir -p "$scratch" || exit 1
fail=0
n=0

# expect RC GREP_IN_STDERR -- ARGS...
expect() {
	want=$1 pattern=$2
	shift 3
	n=$((n + 1))
	"$probe" "$@" >"$scratch/out" 2>"$scratch/err"
	got=$?
	if [ "$got" -ne "$want" ]; then
		echo "FAIL: [$*] exit $got, expected $want"; sed 's/^/  stderr: /' "$scratch/err"; fail=1
		return
	fi
	if [ -n "$pattern" ] && ! grep -q -- "$pattern" "$scratch/err"; then
		echo "FAIL: [$*] stderr lacks '$pattern'"; sed 's/^/  stderr: /' "$scratch/err"; fail=1
	fi
}

D="--batch 2 --context 128 --width 1024 --warmup 3"
M="--device cuda:0 $D --dtype float32 --repeats 5"

# usage errors: exit 2 with the usage text
expect 2 usage --
expect 2 usage -- frobnicate
expect 2 usage -- measure
expect 2 usage -- measure --device cuda:0
expect 2 "bad device" -- environment --device gpu0
expect 2 "bad device" -- environment --device cuda:
expect 2 "bad device" -- environment --device cuda:-1
expect 2 "bad device" -- environment --device cuda:x1
expect 2 "bad dtype" -- measure --device cuda:0 $D --dtype float64 --repeats 5 --output "$scratch/a.json"
expect 2 "given twice" -- measure $M --batch 3 --output "$scratch/a.json"
expect 2 "bad value for '--batch'" -- measure --device cuda:0 --batch 0 --context 128 --width 1024 --dtype float32 --warmup 3 --repeats 5 --output "$scratch/a.json"
expect 2 "bad value for '--batch'" -- measure --device cuda:0 --batch -2 --context 128 --width 1024 --dtype float32 --warmup 3 --repeats 5 --output "$scratch/a.json"
expect 2 "bad value for '--repeats'" -- measure --device cuda:0 $D --dtype float32 --repeats 0 --output "$scratch/a.json"
expect 2 "unknown option" -- measure $M --frob 1 --output "$scratch/a.json"
expect 2 "needs a value" -- measure $M --output
expect 2 "does not apply" -- environment --device cuda:0 --batch 2
expect 2 "option '--output' is required" -- measure $M
expect 2 "int range" -- measure --device cuda:0 --batch 65536 --context 65536 --width 8 --dtype float32 --warmup 0 --repeats 1 --output "$scratch/a.json"
expect 2 "does not exist" -- measure $M --output "$scratch/no-such-dir/a.json"
expect 2 "is varied" -- sweep $M --vary context=64,128 --output-dir "$scratch"
expect 2 "cannot vary" -- sweep --device cuda:0 --batch 2 --width 8 --dtype float32 --warmup 0 --repeats 1 --vary seed=1,2 --output-dir "$scratch"
expect 2 "given twice" -- sweep --device cuda:0 --batch 2 --width 8 --dtype float32 --warmup 0 --repeats 1 --vary context=64,64 --output-dir "$scratch"
expect 2 "does not apply" -- sweep --device cuda:0 --batch 2 --width 8 --dtype float32 --warmup 0 --repeats 1 --vary context=64 --output "$scratch/a.json" --output-dir "$scratch"
# train
TR="--device cuda:0 --batch 2 --context 128 --width 1024 --dtype float32"
expect 2 "option '--optimizer' is required" -- train $TR --output "$scratch/a.json"
expect 2 "bad optimizer" -- train $TR --optimizer lamb --output "$scratch/a.json"
expect 2 "does not apply" -- train $TR --optimizer adam --warmup 3 --output "$scratch/a.json"
expect 2 "does not apply" -- measure $M --optimizer adam --output "$scratch/a.json"
expect 2 "option '--output' is required" -- train $TR --optimizer sgd
# several devices
expect 2 "goes with several devices" -- measure $M --output-dir "$scratch"
expect 2 "need --output-dir" -- measure --device all $D --dtype float32 --repeats 5
expect 2 "not --output" -- train --device all --batch 2 --context 128 --width 1024 --dtype float32 --optimizer sgd --output "$scratch/a.json" --output-dir "$scratch"
expect 2 "given twice" -- measure --device cuda:0,cuda:0 $D --dtype float32 --repeats 5 --output-dir "$scratch"
expect 2 "bad device" -- measure --device cuda:0,gpu1 $D --dtype float32 --repeats 5 --output-dir "$scratch"
expect 2 "bad device" -- sweep --device all --batch 2 --width 8 --dtype float32 --warmup 0 --repeats 1 --vary context=64 --output-dir "$scratch"
expect 0 "" -- --help
expect 0 "" -- --version
[ -e "$scratch/a.json" ] && { echo "FAIL: a refused command wrote a file"; fail=1; }

# an existing output is refused before any GPU work, and left as it was
printf 'keep me\n' >"$scratch/existing.json"
expect 2 "already exists" -- measure $M --output "$scratch/existing.json"
expect 2 "already exists" -- environment --device cuda:0 --output "$scratch/existing.json"
[ "$(cat "$scratch/existing.json")" = "keep me" ] || { echo "FAIL: existing file changed"; fail=1; }
mkdir "$scratch/sweep"
printf 'keep me\n' >"$scratch/sweep/context-128.json"
expect 2 "already exists" -- sweep --device cuda:0 --batch 2 --width 8 --dtype float32 --warmup 0 --repeats 1 --vary context=64,128 --output-dir "$scratch/sweep"
[ -e "$scratch/sweep/context-64.json" ] && { echo "FAIL: sweep ran a point before refusing"; fail=1; }

# an unknown device index: exit 2 with or without a GPU
expect 2 "not found\|no usable CUDA driver\|no CUDA device" -- environment --device cuda:4095
expect 2 "not found\|no usable CUDA driver\|no CUDA device" -- measure --device cuda:4095 $D --dtype float32 --repeats 5 --output "$scratch/b.json"
[ -e "$scratch/b.json" ] && { echo "FAIL: unknown device wrote a file"; fail=1; }

# without a GPU or driver: exit 2, one line, no file
"$probe" environment --device cuda:0 >/dev/null 2>&1
if [ $? -eq 2 ]; then
	expect 2 "no usable CUDA driver\|no CUDA device\|CUDA is not available" -- measure $M --output "$scratch/c.json"
	[ "$(wc -l <"$scratch/err")" -eq 1 ] || { echo "FAIL: no-GPU reason is not one line"; fail=1; }
	[ -e "$scratch/c.json" ] && { echo "FAIL: no-GPU measure wrote a file"; fail=1; }
	expect 2 "no usable CUDA driver\|no CUDA device\|CUDA is not available" -- environment --device cuda:0 --output "$scratch/d.json"
	[ -e "$scratch/d.json" ] && { echo "FAIL: no-GPU environment wrote a file"; fail=1; }
	mkdir "$scratch/sweep2"
	expect 2 "no usable CUDA driver\|no CUDA device\|CUDA is not available" -- sweep --device cuda:0 --batch 2 --width 8 --dtype float32 --warmup 0 --repeats 1 --vary context=64,128 --output-dir "$scratch/sweep2"
	[ -z "$(ls -A "$scratch/sweep2")" ] || { echo "FAIL: no-GPU sweep wrote files"; fail=1; }
else
	echo "note: a GPU is present; the no-GPU cases were not run (see probe/gpu-check.sh)"
fi

[ $fail -eq 0 ] && echo "ok: $n probe command-line cases"
exit $fail
