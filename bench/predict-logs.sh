#!/bin/sh
# predict-logs: gpusheet's prediction against every real vLLM log of
# tests/data/evidence-logs/ whose model's geometry the repository holds
# (tests/data/models/, examples/), through `evidence import --predict`.
# Prints each prediction, then per term the median and the worst absolute
# difference over the predictions that have the term observed.
#
#   sh bench/predict-logs.sh [GPUSHEET_BIN]     (from the source root)
#
# The workloads are written by `gpusheet init --engine vllm` from the model's
# files at the context each log ran (its max_model_len), so the terms that
# are assumed are init's: the CUDA context and workspaces (1 GiB) and the
# profiling activation peak. Each log and the GPU its header names:
#   vllm-04, start 1 and 2   Llama-3.1-8B   RTX 3090   max_model_len 20000, 29000
#   vllm-10                  Llama-3.1-8B   L40S       max_model_len 32768
#   vllm-11                  Qwen3-235B-A22B-FP8, 4 x H100, tensor parallel 4
#                            (examples/qwen3-235b-fp8-tp4-h100/workload.json)
set -u
bin=${1:-build/gpusheet}
logs=tests/data/evidence-logs
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

wl() { # wl NAME MODEL CONTEXT
	"$bin" init --model "$2" --context "$3" --output-tokens 1 --engine vllm --out "$tmp/$1.json" \
		>/dev/null || { echo "init $1 failed" >&2; exit 1; }
}
wl l8b-20000 tests/data/models/llama-3.1-8b 20000
wl l8b-29000 tests/data/models/llama-3.1-8b 29000
wl l8b-32768 tests/data/models/llama-3.1-8b 32768

n=0
one() { # one LABEL LOG WORKLOAD GPU [START]
	n=$((n + 1))
	set -- "$1" "$2" "$3" "$4" "${5:-1}"
	echo "== $1"
	"$bin" evidence import --from vllm "$logs/$2" --source "bench" --gpu "$4" --start "$5" \
		--out "$tmp/m$n/m.json" --predict "$3" >"$tmp/p$n.txt" 2>&1 ||
		{ cat "$tmp/p$n.txt"; echo "(no prediction)"; return; }
	grep -v '^/' "$tmp/p$n.txt" | grep -v "figures, .* from " | sed 's/^/  /'
	# "  TERM: predicted ..., observed ..., +x.y %"
	sed -n 's/^  \([^:]*\): predicted .*, \([-+][0-9.]*\) %$/\1|\2/p' "$tmp/p$n.txt" >>"$tmp/all.txt"
}
one "vllm-04 start 1 (Llama-3.1-8B, RTX 3090, 20000)" vllm-04_v0.6.4_profiling-results_issue10517.log \
	"$tmp/l8b-20000.json" "RTX 3090" 1
one "vllm-04 start 2 (Llama-3.1-8B, RTX 3090, 29000)" vllm-04_v0.6.4_profiling-results_issue10517.log \
	"$tmp/l8b-29000.json" "RTX 3090" 2
one "vllm-10 (Llama-3.1-8B, L40S, 32768)" vllm-10_v1_l40s_pr17122.log "$tmp/l8b-32768.json" "L40S"
one "vllm-11 (Qwen3-235B-A22B-FP8, 4 x H100, TP 4)" vllm-11_v1_moe-tp4_issue21348.log \
	examples/qwen3-235b-fp8-tp4-h100/workload.json "H100 SXM"

echo
echo "term | predictions with the term observed | median |difference| | worst |difference|"
echo "--- | --- | --- | ---"
for term in "weights per card" "other terms" "KV pool" "KV pool tokens"; do
	grep "^$term|" "$tmp/all.txt" | cut -d'|' -f2 | tr -d '+-' | sort -n >"$tmp/t.txt"
	k=$(wc -l <"$tmp/t.txt")
	if [ "$k" -eq 0 ]; then
		echo "$term | 0 | - | -"
		continue
	fi
	# the median: the middle value, or the mean of the two middle ones
	med=$(awk -v k="$k" '{ v[NR] = $1 } END { if (k % 2) printf "%.1f", v[(k + 1) / 2];
		else printf "%.2f", (v[k / 2] + v[k / 2 + 1]) / 2 }' "$tmp/t.txt")
	worst=$(tail -n 1 "$tmp/t.txt")
	echo "$term | $k | $med % | $worst %"
done
