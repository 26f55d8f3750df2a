#!/bin/sh
# gpu-check.sh: checks gpusheet-probe on a machine with an NVIDIA GPU.
#
# Usage: probe/gpu-check.sh [--probe PATH] [--gpusheet PATH] [--device cuda:N]
#                           [--python PY] [--no-bridge] [--hf-config CONFIG.json] OUTDIR
#   --probe     the probe binary      (default build/gpusheet-probe)
#   --gpusheet  the generator binary  (default build/gpusheet), for `gpusheet check`
#   --device    the device to use     (default cuda:0)
#   --python    the Python with PyTorch for the bridge (default python3)
#   --no-bridge do not run the Python bridge (bridges/python)
#   --hf-config a Hugging Face config.json: also runs the bridge's generate
#               (three inputs) and LoRA examples on random weights of that
#               shape, when transformers is importable
#   OUTDIR      a new or empty folder: every file written and every log goes there
#
# Builds nothing and needs no network. Runs `environment`, the seed's
# measurement, a refused overwrite, two runs forced out of memory (an extra
# allocation in `inputs`, weights too large in `model_load`), a sweep over
# context and one over dtype, `train` with SGD and with Adam, measure and
# train on every visible device; checks every file with `gpusheet check` and
# with grep/sed/awk (no jq). When the Python has PyTorch with CUDA, runs the
# bridge too (its dense network forward and train, an out-of-memory run, a
# refused overwrite). Collects the files read from the GPU (synthetic: false)
# in OUTDIR/example/ (measurements/, workload.json, README.md), ready to copy
# under examples/. Prints a summary; exit 0 when every check passed, 1
# otherwise, 2 on a usage error. Paths in the logs are relative to OUTDIR.
set -u

probe=build/gpusheet-probe
gpusheet=build/gpusheet
device=cuda:0
python=python3
bridge=1
hfconfig=
out=
while [ $# -gt 0 ]; do
	case $1 in
	--probe) probe=$2; shift 2 ;;
	--gpusheet) gpusheet=$2; shift 2 ;;
	--device) device=$2; shift 2 ;;
	--python) python=$2; shift 2 ;;
	--no-bridge) bridge=0; shift ;;
	--hf-config) hfconfig=$2; shift 2 ;;
	-h|--help) sed -n '2,28p' "$0"; exit 0 ;;
	-*) echo "gpu-check.sh: unknown option $1" >&2; exit 2 ;;
	*) [ -z "$out" ] || { echo "gpu-check.sh: one OUTDIR only" >&2; exit 2; }
	   out=$1; shift ;;
	esac
done
[ -n "$out" ] || { echo "usage: gpu-check.sh [--probe PATH] [--gpusheet PATH] [--device cuda:N] OUTDIR" >&2; exit 2; }
[ -x "$probe" ] || { echo "gpu-check.sh: no probe at '$probe' (build it, or pass --probe)" >&2; exit 2; }
[ -x "$gpusheet" ] || { echo "gpu-check.sh: no gpusheet at '$gpusheet' (build it, or pass --gpusheet)" >&2; exit 2; }
if [ -e "$out" ] && [ -n "$(ls -A "$out" 2>/dev/null)" ]; then
	echo "gpu-check.sh: '$out' is not empty: give a new folder" >&2
	exit 2
fi
mkdir -p "$out/logs" || exit 2

# Absolute tools, then work inside OUTDIR: the logs name files relative to it.
abspath() {
	case $1 in /*) echo "$1" ;; *) echo "$(pwd)/$1" ;; esac
}
root=$(cd "$(dirname "$0")/.." && pwd)
probe=$(abspath "$probe")
gpusheet=$(abspath "$gpusheet")
[ -z "$hfconfig" ] || hfconfig=$(abspath "$hfconfig")
outname=$out
cd "$out" || exit 2
out=.

pass=0
fail=0
summary=$out/summary.txt
: >"$summary"

ok() {
	pass=$((pass + 1))
	echo "PASS  $*" | tee -a "$summary"
}
bad() {
	fail=$((fail + 1))
	echo "FAIL  $*" | tee -a "$summary"
}
# check DESCRIPTION COMMAND...: PASS when the command succeeds
check() {
	what=$1
	shift
	if "$@"; then ok "$what"; else bad "$what"; fi
}

# run NAME EXPECTED_RC PROBE_ARGS...: runs the probe, logs in logs/NAME.*
run() {
	name=$1 want=$2
	shift 2
	"$probe" "$@" >"$out/logs/$name.stdout" 2>"$out/logs/$name.stderr"
	got=$?
	if [ "$got" -eq "$want" ]; then
		ok "$name: exit $got"
	else
		bad "$name: exit $got, expected $want (see logs/$name.stderr)"
		sed 's/^/      /' "$out/logs/$name.stderr" | head -5
	fi
}

gscheck() {
	if "$gpusheet" check "$1" >"$out/logs/check-$(basename "$1").log" 2>&1; then
		ok "gpusheet check $(basename "$1")"
	else
		bad "gpusheet check $(basename "$1")"
		sed 's/^/      /' "$out/logs/check-$(basename "$1").log" | head -10
	fi
}

# Flattens a measurement into lines "PHASE BLOCK KEY VALUE" and
# "PHASE status VALUE" / "PHASE elapsed_us VALUE" (the probe's layout:
# indented by two spaces, one key per line).
flat() {
	awk '
	/"phases": \[/ { inph = 1 }
	inph && /"name": / { v = $2; gsub(/[",]/, "", v); phase = v }
	inph && /"(allocated|reserved|device_used)": \{/ { b = $1; gsub(/[":]/, "", b); block = b }
	inph && block != "" && /"(start|peak|end)": / {
		k = $1; gsub(/[":]/, "", k); v = $2; gsub(/,/, "", v); print phase, block, k, v
	}
	inph && /^ *\},?$/ { block = "" }
	inph && /"status": / { v = $2; gsub(/[",]/, "", v); print phase, "status", v }
	inph && /"elapsed_us": / { v = $2; gsub(/,/, "", v); print phase, "elapsed_us", v }
	' "$1"
}

# val FILE PHASE BLOCK KEY: one counter ("null" if not read)
val() {
	flat "$1" | awk -v p="$2" -v b="$3" -v k="$4" '$1 == p && $2 == b && $3 == k { print $4 }'
}
status_of() {
	flat "$1" | awk -v p="$2" '$1 == p && $2 == "status" { print $3 }'
}
is_int() {
	case $1 in ''|*[!0-9]*) return 1 ;; *) return 0 ;; esac
}
ge() {
	is_int "$1" && is_int "$2" && [ "$1" -ge "$2" ]
}
gt() {
	is_int "$1" && is_int "$2" && [ "$1" -gt "$2" ]
}
# between V LO HI: LO <= V < HI
between() {
	ge "$1" "$2" && is_int "$3" && [ "$1" -lt "$3" ]
}

# Every phase of a complete run: ok, every counter read, peaks above the
# levels, and reserved >= allocated at the same checkpoint.
# complete_run FILE [PHASE...]: the measure phases by default.
complete_run() {
	f=$1
	shift
	[ $# -gt 0 ] || set -- model_load inputs cold_forward warmup warm_forward
	all=1
	for ph in "$@"; do
		[ "$(status_of "$f" "$ph")" = ok ] || { echo "      $ph: status $(status_of "$f" "$ph")"; all=0; }
		for b in allocated reserved; do
			s=$(val "$f" "$ph" $b start) p=$(val "$f" "$ph" $b peak) e=$(val "$f" "$ph" $b end)
			{ ge "$p" "$s" && ge "$p" "$e"; } || { echo "      $ph $b: start $s peak $p end $e"; all=0; }
		done
		for k in start end; do
			a=$(val "$f" "$ph" allocated $k) r=$(val "$f" "$ph" reserved $k) u=$(val "$f" "$ph" device_used $k)
			ge "$r" "$a" || { echo "      $ph $k: reserved $r < allocated $a"; all=0; }
			ge "$u" "$r" || { echo "      $ph $k: device_used $u < reserved $r"; all=0; }
		done
		is_int "$(flat "$f" | awk -v p="$ph" '$1 == p && $2 == "elapsed_us" { print $3 }')" ||
			{ echo "      $ph: no elapsed_us"; all=0; }
	done
	[ $all -eq 1 ]
}

has() {
	grep -q -- "$2" "$1"
}
hasnt() {
	! grep -q -- "$2" "$1"
}

echo "gpusheet-probe GPU check: probe $probe, gpusheet $gpusheet, device $device, output $outname"
"$probe" --version | tee -a "$summary"

# 1. environment
run environment 0 environment --device "$device" --output "$out/environment.json"
if [ -f "$out/environment.json" ]; then
	check "environment: schema" has "$out/environment.json" '"schema": "gpusheet-environment"'
	check "environment: total bytes declared" has "$out/environment.json" '"total_bytes": [1-9][0-9]*,'
	check "environment: runtime version" has "$out/environment.json" '"runtime": "[0-9]'
	sed -n 's/^ *"name": "\(.*\)",$/      GPU: \1/p; s/^  "driver": \(.*\),$/      driver: \1/p' \
		"$out/environment.json" | tee -a "$summary"
else
	bad "environment: no file"
fi
run environment-stdout 0 environment --device "$device"
check "environment on stdout" has "$out/logs/environment-stdout.stdout" '"gpusheet-environment"'

# 2. the seed's command
seed=$out/seed.json
run seed 0 measure --device "$device" --batch 2 --context 128 --width 1024 --dtype float32 \
	--warmup 3 --repeats 5 --output "$seed"
if [ -f "$seed" ]; then
	gscheck "$seed"
	check "seed: real run (synthetic false)" has "$seed" '"synthetic": false'
	check "seed: protocol fresh, empty_cache false" has "$seed" '"empty_cache": false'
	check "seed: complete run, counters consistent" complete_run "$seed"
	# 4 layers of 1024 x 1024 float32 = 16 MiB of weights, at least
	check "seed: model_load holds the weights" ge "$(val "$seed" model_load allocated end)" 16777216
	a0=$(val "$seed" inputs allocated start) a1=$(val "$seed" inputs allocated end)
	check "seed: inputs adds the 1 MiB input" ge "$((a1 - a0))" 1048576
	check "seed: cold_forward allocates activations" \
		gt "$(val "$seed" cold_forward allocated peak)" "$(val "$seed" cold_forward allocated start)"
	flat "$seed" >"$out/logs/seed.flat"
else
	bad "seed: no file"
fi

# 3. an existing output is refused and left as it was
if [ -f "$seed" ]; then
	cp "$seed" "$out/logs/seed.copy"
	run refuse-overwrite 2 measure --device "$device" --batch 2 --context 128 --width 1024 \
		--dtype float32 --warmup 3 --repeats 5 --output "$seed"
	check "refused overwrite leaves the file unchanged" cmp -s "$seed" "$out/logs/seed.copy"
fi

# 4. out of memory in `inputs`: a ballast 1 GiB larger than the whole card
total=$(sed -n 's/^ *"total_bytes": \([0-9][0-9]*\),$/\1/p' "$out/environment.json" 2>/dev/null | head -1)
if is_int "$total"; then ballast=$((total + 1073741824)); else ballast=1125899906842624; fi
oom=$out/oom-ballast.json
run oom-ballast 1 measure --device "$device" --batch 2 --context 128 --width 1024 --dtype float32 \
	--warmup 3 --repeats 5 --extra-bytes "$ballast" --output "$oom"
if [ -f "$oom" ]; then
	gscheck "$oom"
	check "oom-ballast: model_load ok" [ "$(status_of "$oom" model_load)" = ok ]
	check "oom-ballast: inputs failed" [ "$(status_of "$oom" inputs)" = failed ]
	check "oom-ballast: error says out of memory" has "$oom" '"error": ".*out of memory'
	check "oom-ballast: later phases not_run" \
		[ "$(status_of "$oom" cold_forward)$(status_of "$oom" warmup)$(status_of "$oom" warm_forward)" = not_runnot_runnot_run ]
	check "oom-ballast: last values kept" is_int "$(val "$oom" inputs allocated end)"
	check "oom-ballast: not_run counters are null" [ "$(val "$oom" warm_forward allocated peak)" = null ]
	check "oom-ballast: extra allocation recorded as a condition" has "$oom" "\"extra_bytes\": $ballast"
	check "oom-ballast: not a dimension" hasnt "$oom" '"ballast_bytes"'
else
	bad "oom-ballast: no file"
fi

# 5. out of memory in `model_load`: 64 layers of 65536 x 65536 float32 (16 GiB each)
oomw=$out/oom-weights.json
run oom-weights 1 measure --device "$device" --batch 1 --context 1 --width 65536 --layers 64 \
	--dtype float32 --warmup 0 --repeats 1 --output "$oomw"
if [ -f "$oomw" ]; then
	gscheck "$oomw"
	check "oom-weights: model_load failed" [ "$(status_of "$oomw" model_load)" = failed ]
	check "oom-weights: error says out of memory" has "$oomw" '"error": ".*out of memory'
	check "oom-weights: partial peak recorded" gt "$(val "$oomw" model_load allocated peak)" 0
	check "oom-weights: inputs not_run" [ "$(status_of "$oomw" inputs)" = not_run ]
else
	bad "oom-weights: no file"
fi

# 6. a sweep over context, one fresh process per point
sw=$out/sweep-context
mkdir -p "$sw"
run sweep-context 0 sweep --device "$device" --batch 2 --width 1024 --dtype float16 --warmup 1 \
	--repeats 2 --vary context=1024,2048,4096 --output-dir "$sw"
i=0
prev=0
for c in 1024 2048 4096; do
	i=$((i + 1))
	f=$sw/context-$c.json
	if [ -f "$f" ]; then
		gscheck "$f"
		check "sweep context=$c: order $i" has "$f" "\"order\": $i,"
		check "sweep context=$c: dimension recorded" has "$f" "\"context\": $c,"
		check "sweep context=$c: complete run" complete_run "$f"
		p=$(val "$f" cold_forward allocated peak)
		check "sweep context=$c: cold peak grows with context" gt "$p" "$prev"
		is_int "$p" && prev=$p
	else
		bad "sweep context=$c: no file"
	fi
done

# 7. a sweep over dtype
sd=$out/sweep-dtype
mkdir -p "$sd"
run sweep-dtype 0 sweep --device "$device" --batch 2 --context 256 --width 2048 --warmup 1 \
	--repeats 2 --vary dtype=float32,float16,bfloat16 --output-dir "$sd"
for d in float32 float16 bfloat16; do
	f=$sd/dtype-$d.json
	if [ -f "$f" ]; then
		gscheck "$f"
		check "sweep dtype=$d: complete run" complete_run "$f"
	else
		bad "sweep dtype=$d: no file"
	fi
done
if [ -f "$sd/dtype-float32.json" ] && [ -f "$sd/dtype-float16.json" ]; then
	check "sweep dtype: float32 weights above float16" \
		gt "$(val "$sd/dtype-float32.json" model_load allocated end)" \
		"$(val "$sd/dtype-float16.json" model_load allocated end)"
fi

# 8. training: forward, backward, optimizer step, second step
# 4 layers of 1024 x 1024 float32: 16 MiB of weights, and as much of
# gradients; input (rows 2 x 128 = 256) and each activation 1 MiB.
TP="model_load inputs forward backward optimizer_step second_step"
for opt in sgd adam; do
	f=$out/train-$opt.json
	run train-$opt 0 train --device "$device" --batch 2 --context 128 --width 1024 --dtype float32 \
		--optimizer $opt --output "$f"
	if [ -f "$f" ]; then
		gscheck "$f"
		# shellcheck disable=SC2086
		check "train $opt: complete run" complete_run "$f" $TP
		check "train $opt: optimizer recorded" has "$f" "\"optimizer\": \"$opt\""
		i0=$(val "$f" inputs allocated end)
		check "train $opt: forward keeps 2 x 4 activations (8 MiB)" \
			ge "$(( $(val "$f" forward allocated end) - i0 ))" 8388608
		check "train $opt: backward keeps 16 MiB of gradients, releases activations" \
			between "$(( $(val "$f" backward allocated end) - i0 ))" 16777216 25165824
		s0=$(val "$f" optimizer_step allocated start) s1=$(val "$f" optimizer_step allocated end)
		if [ $opt = adam ]; then
			check "train adam: step allocates two moments (32 MiB)" \
				ge "$(( $(val "$f" optimizer_step allocated peak) - s0 ))" 33554432
			check "train adam: step ends 16 MiB higher (states in, gradients out)" \
				ge "$((s1 - s0))" 16777216
		else
			check "train sgd: step allocates nothing" [ "$(val "$f" optimizer_step allocated peak)" = "$s0" ]
			check "train sgd: step releases the gradients" ge "$((s0 - s1))" 16777216
		fi
		check "train $opt: second step returns to its start" \
			[ "$(val "$f" second_step allocated end)" = "$(val "$f" second_step allocated start)" ]
	else
		bad "train $opt: no file"
	fi
done

# 9. every visible device, each in its own process and file
ndev=$(sed -n 's/^  "device_count": \([0-9][0-9]*\),$/\1/p' "$out/environment.json" 2>/dev/null)
is_int "$ndev" || ndev=0
for mode in measure train; do
	dd=$out/all-devices-$mode
	mkdir -p "$dd"
	if [ $mode = measure ]; then
		run all-devices-$mode 0 measure --device all --batch 2 --context 128 --width 1024 \
			--dtype float32 --warmup 1 --repeats 2 --output-dir "$dd"
	else
		run all-devices-$mode 0 train --device all --batch 2 --context 128 --width 1024 \
			--dtype float32 --optimizer adam --output-dir "$dd"
	fi
	check "all devices ($mode): one file per visible device ($ndev)" \
		[ "$(find "$dd" -name 'cuda-*.json' | wc -l)" -eq "$ndev" ]
	k=0
	while [ $k -lt "$ndev" ]; do
		f=$dd/cuda-$k.json
		if [ -f "$f" ]; then
			gscheck "$f"
			check "all devices ($mode): cuda-$k.json is device $k" has "$f" "\"device\": $k,"
		else
			bad "all devices ($mode): no cuda-$k.json"
		fi
		k=$((k + 1))
	done
done

# 10. the Python bridge (bridges/python), when this Python has PyTorch with CUDA
skip() {
	echo "SKIP  $*" | tee -a "$summary"
}
# brun NAME EXPECTED_RC ARGS...: python -m gpusheet_measure ARGS, logs in logs/NAME.*
brun() {
	name=$1 want=$2
	shift 2
	PYTHONPATH=$root/bridges/python "$python" -m gpusheet_measure "$@" \
		>"$out/logs/$name.stdout" 2>"$out/logs/$name.stderr"
	got=$?
	if [ "$got" -eq "$want" ]; then
		ok "$name: exit $got"
	else
		bad "$name: exit $got, expected $want (see logs/$name.stderr)"
		tail -5 "$out/logs/$name.stderr" | sed 's/^/      /'
	fi
}
mlp=$root/bridges/python/examples/torch_mlp.py:run
MLP="--batch 2 --context 128 --width 1024 --dtype float32"
torch_cuda='import sys, torch; sys.exit(0 if torch.version.cuda and torch.cuda.is_available() else 1)'
if [ $bridge -eq 0 ]; then
	skip "bridge: --no-bridge"
elif ! "$python" -c "$torch_cuda" >/dev/null 2>&1; then
	skip "bridge: $python has no PyTorch with CUDA and a visible device"
else
	"$python" -c 'import torch; print("      torch", torch.__version__, "CUDA", torch.version.cuda)' |
		tee -a "$summary"
	mkdir -p "$out/bridge"
	brun bridge-environment 0 environment --device "$device" --output "$out/bridge/environment.json"
	bs=$out/bridge/mlp-seed.json
	# shellcheck disable=SC2086
	brun bridge-mlp-seed 0 measure --entry "$mlp" --device "$device" --output "$bs" --seed 1234 \
		--input-set synthetic-uniform --warmup 3 --repeats 5 -- $MLP
	if [ -f "$bs" ]; then
		gscheck "$bs"
		check "bridge seed: real run (synthetic false)" has "$bs" '"synthetic": false'
		check "bridge seed: produced_by" has "$bs" '"produced_by": "gpusheet-measure '
		check "bridge seed: complete run, counters consistent" complete_run "$bs"
		check "bridge seed: model_load holds the 16 MiB of weights" \
			ge "$(val "$bs" model_load allocated end)" 16777216
		if [ -f "$seed" ]; then
			echo "INFO  model_load allocated end: probe $(val "$seed" model_load allocated end)," \
				"PyTorch $(val "$bs" model_load allocated end) (the probe counts its cuBLAS workspace)" |
				tee -a "$summary"
			echo "INFO  cold_forward allocated peak: probe $(val "$seed" cold_forward allocated peak)," \
				"PyTorch $(val "$bs" cold_forward allocated peak)" | tee -a "$summary"
		fi
	else
		bad "bridge seed: no file"
	fi
	bt=$out/bridge/mlp-train-adam.json
	# shellcheck disable=SC2086
	brun bridge-mlp-train-adam 0 measure --entry "$mlp" --device "$device" --output "$bt" --seed 1234 \
		--input-set synthetic-uniform -- $MLP --train adam
	if [ -f "$bt" ]; then
		gscheck "$bt"
		# shellcheck disable=SC2086
		check "bridge train adam: complete run" complete_run "$bt" $TP
		check "bridge train adam: step allocates two moments (32 MiB)" \
			ge "$(( $(val "$bt" optimizer_step allocated peak) - $(val "$bt" optimizer_step allocated start) ))" 33554432
	else
		bad "bridge train adam: no file"
	fi
	if [ -f "$bs" ]; then
		cp "$bs" "$out/logs/bridge-seed.copy"
		# shellcheck disable=SC2086
		brun bridge-refuse-overwrite 2 measure --entry "$mlp" --device "$device" --output "$bs" -- $MLP
		check "bridge: refused overwrite leaves the file unchanged" cmp -s "$bs" "$out/logs/bridge-seed.copy"
	fi
	bo=$out/bridge/mlp-oom-extra.json
	# shellcheck disable=SC2086
	brun bridge-oom-extra 1 measure --entry "$mlp" --device "$device" --output "$bo" \
		--extra-bytes "$ballast" -- $MLP
	if [ -f "$bo" ]; then
		gscheck "$bo"
		check "bridge oom: inputs failed" [ "$(status_of "$bo" inputs)" = failed ]
		check "bridge oom: error says out of memory" has "$bo" '"error": ".*out of memory'
		check "bridge oom: later phases not_run" [ "$(status_of "$bo" warm_forward)" = not_run ]
		check "bridge oom: extra allocation recorded as a condition" has "$bo" "\"extra_bytes\": $ballast"
	else
		bad "bridge oom: no file"
	fi
	if [ -z "$hfconfig" ]; then
		skip "bridge Hugging Face examples: no --hf-config"
	elif ! "$python" -c 'import transformers' >/dev/null 2>&1; then
		skip "bridge Hugging Face examples: transformers is not importable"
	else
		# a run that does not fit is evidence too: exit 0 or 1, a file either way
		for input in usual long limit; do
			f=$out/bridge/hf-generate-$input.json
			PYTHONPATH=$root/bridges/python "$python" -m gpusheet_measure measure \
				--entry "$root/bridges/python/examples/hf_generate.py:run" --device "$device" \
				--output "$f" --input-set "$input" --seed 1234 --package transformers \
				--warmup 1 --repeats 2 -- --config "$hfconfig" --dtype bfloat16 --input $input \
				>"$out/logs/bridge-hf-$input.stdout" 2>"$out/logs/bridge-hf-$input.stderr"
			echo "INFO  bridge hf generate $input: exit $?" | tee -a "$summary"
			if [ -f "$f" ]; then gscheck "$f"; else bad "bridge hf generate $input: no file"; fi
		done
		f=$out/bridge/lora-step.json
		PYTHONPATH=$root/bridges/python "$python" -m gpusheet_measure measure \
			--entry "$root/bridges/python/examples/lora_step.py:run" --device "$device" \
			--output "$f" --seed 1234 --package transformers \
			-- --config "$hfconfig" --dtype bfloat16 --batch 1 --seq 1024 \
			>"$out/logs/bridge-lora.stdout" 2>"$out/logs/bridge-lora.stderr"
		echo "INFO  bridge LoRA step: exit $?" | tee -a "$summary"
		if [ -f "$f" ]; then gscheck "$f"; else bad "bridge LoRA step: no file"; fi
	fi
fi

# 11. the folder to commit: every file read from the GPU, a workload sheet
# citing the probe's seed run, a README saying what ran
ex=$out/example
mkdir -p "$ex/measurements"
real=0
for f in $(find "$out" -path "$ex" -prune -o -name '*.json' -print | sort); do
	grep -q '"schema": "gpusheet-measurement"' "$f" || continue
	grep -q '"synthetic": false' "$f" || continue
	name=$(echo "${f#./}" | sed 's|/|-|g')
	cp "$f" "$ex/measurements/$name"
	real=$((real + 1))
done
gpu=$(sed -n 's/^ *"name": "\(.*\)",$/\1/p' "$out/environment.json" 2>/dev/null | head -1)
driver=$(sed -n 's/^  "driver": "\(.*\)",$/\1/p' "$out/environment.json" 2>/dev/null)
{
	echo "# GPU check of $(date -u +%Y-%m-%d): ${gpu:-unknown device}"
	echo
	echo "Produced by \`probe/gpu-check.sh\` ($("$probe" --version)), device \`$device\`,"
	echo "driver ${driver:-unknown}. $pass checks passed, $fail failed so far (\`../summary.txt\`)."
	echo
	echo "\`measurements/\` holds the $real measurement file(s) read from the GPU"
	echo "(\`synthetic: false\`), named after their place in the check's folder:"
	echo
	for f in "$ex"/measurements/*.json; do
		[ -f "$f" ] || continue
		echo "- \`$(basename "$f")\`: $(sed -n 's/^    "code": "\(.*\)",$/\1/p' "$f" | head -1)," \
			"$(grep -c '"status": "ok"' "$f") phase entries ok, $(grep -c '"status": "failed"' "$f") failed"
	done
	echo
	echo "What did not run is in \`../summary.txt\` (SKIP and FAIL lines)."
} >"$ex/README.md"
if [ -f "$ex/measurements/seed.json" ]; then
	cat >"$ex/workload.json" <<EOF
{
  "schema": "gpusheet-workload",
  "schema_version": 1,
  "id": "gpu-check-probe-dense",
  "title": "The probe's small dense network on ${gpu:-the checked device}: batch 2, context 128, width 1024, float32",
  "model": {"name": "gpusheet-probe dense-mlp", "revision": "0.1.0", "parameters": 4194304},
  "task": "inference",
  "weights": {"storage_bits": 32, "storage_format": "float32", "compute_format": "float32",
              "reference_format": "float32"},
  "dimensions": {"batch": 2, "extra": {"context": 128, "width": 1024}},
  "inputs": {
    "usual": {"description": "The measurement protocol's command: batch 2, context 128, width 1024, 4 layers, float32.",
              "dimensions": {"batch": 2, "extra": {"context": 128, "width": 1024}}},
    "long": {"description": "The context sweep of the check: context 1024, 2048 and 4096 at batch 2, width 1024, float16.",
             "dimensions": {"batch": 2, "extra": {"context": 4096, "width": 1024}}},
    "limit": {"description": "Not measured by the check: name the limit of your own workload.",
              "dimensions": {}}
  },
  "evidence": [
    {"file": "measurements/seed.json",
     "covers": "gpusheet-probe measure on the GPU: model_load, inputs, cold_forward, 3 warm-up and 5 warm passes at batch 2, context 128, width 1024, 4 layers, float32."}
  ],
  "notes": "Written by probe/gpu-check.sh from its own run. The dense network of the measurement exercise, not a model: 4 layers of 1024 x 1024 float32 weights. It validates the way of measuring, never the capacity of a card for your own model."
}
EOF
	if "$gpusheet" check "$ex/workload.json" "$ex"/measurements/*.json >"$out/logs/check-example.log" 2>&1; then
		ok "example folder: gpusheet check"
	else
		bad "example folder: gpusheet check (see logs/check-example.log)"
	fi
else
	skip "example folder: no measurement read from a GPU (nothing to commit)"
fi

echo "----" | tee -a "$summary"
echo "$pass passed, $fail failed (files and logs in $outname)" | tee -a "$summary"
[ $fail -eq 0 ]
