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
# files at the context each log ran (its max_model_len) and at the vLLM
# version its attribution header names (`--engine-version`): the terms
# outside the weights and the KV cache are then vLLM's own for that version
# (gen/decide/runtime.c): the profiling step's activation peak and, under
# V1, its logits (calculated from the geometry, on an assumed shape) and the
# non-torch memory (assumed, cited). Each log and the GPU its header names:
#   vllm-04, start 1 and 2   Llama-3.1-8B   RTX 3090   max_model_len 20000, 29000, vLLM 0.6.4
#   vllm-10                  Llama-3.1-8B   L40S       max_model_len 32768, vLLM 0.8.4
#   vllm-11                  Qwen3-235B-A22B-FP8, 4 x H100, tensor parallel 4, vLLM 0.10
#                            (max_num_batched_tokens 8192: vLLM's default for
#                            `vllm serve` on a card of 70 GiB or more whose name
#                            has no "a100", which the prediction takes from the
#                            log's card, gen/decide/runtime.c)
# vllm-10 does not say whether it ran `vllm serve` (2,048 tokens a step) or
# the LLM class (8,192, `init --entry-point llm`): the table takes the
# default, `vllm serve`; the LLM class's prediction is printed after it,
# outside the table. The one SGLang
# log whose budget can be predicted (sglang-05, with Qwen3-30B-A3B's
# geometry) comes last, outside the table too.
set -u
bin=${1:-build/gpusheet}
logs=tests/data/evidence-logs
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

wl() { # wl NAME MODEL CONTEXT VERSION [INIT OPTIONS...]
	name=$1 model=$2 ctx=$3 ver=$4
	shift 4
	"$bin" init --model "$model" --context "$ctx" --output-tokens 1 --engine vllm \
		--engine-version "$ver" "$@" --out "$tmp/$name.json" >/dev/null ||
		{ echo "init $name failed" >&2; exit 1; }
}
wl l8b-20000 tests/data/models/llama-3.1-8b 20000 0.6.4
wl l8b-29000 tests/data/models/llama-3.1-8b 29000 0.6.4
wl l8b-32768 tests/data/models/llama-3.1-8b 32768 0.8.4
wl l8b-32768-llm tests/data/models/llama-3.1-8b 32768 0.8.4 --entry-point llm
wl q235 tests/data/models/qwen3-235b-a22b 16384 0.10 --format fp8 --tensor-parallel 4

n=0
one() { # one LABEL LOG WORKLOAD GPU [START]
	n=$((n + 1))
	set -- "$1" "$2" "$3" "$4" "${5:-1}"
	echo "== $1"
	"$bin" evidence import --from "${from:-vllm}" "$logs/$2" --source "bench" --gpu "$4" --start "$5" \
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
	"$tmp/q235.json" "H100 SXM"

echo
echo "term | predictions with the term observed | median |difference| | worst |difference|"
echo "--- | --- | --- | ---"
for term in "weights per card" "other terms" "KV pool" "KV pool tokens" "maximum concurrency"; do
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

echo
echo "outside the table: vllm-10 as the LLM class would run it (8,192 tokens a step)"
mv "$tmp/all.txt" "$tmp/all-table.txt"
one "vllm-10 (Llama-3.1-8B, L40S, 32768, LLM class)" vllm-10_v1_l40s_pr17122.log "$tmp/l8b-32768-llm.json" "L40S"

echo
echo "SGLang, its own rule (docs/formats.md 1.4), outside the vLLM table"
mv "$tmp/all.txt" "$tmp/all-llm.txt" 2>/dev/null
# sglang-05: Qwen3-30B-A3B's geometry, mem_fraction_static 0.911 as the log
# prints it (tests/data/models/workload-sglang-qwen3-30b-a3b.json)
from=sglang
one "sglang-05 (Qwen3MoE, an AMD Instinct card, ROCm)" \
	sglang-05_kv-dtype-form-rocm_pr18263.log tests/data/models/workload-sglang-qwen3-30b-a3b.json \
	"AMD Instinct, not named"

