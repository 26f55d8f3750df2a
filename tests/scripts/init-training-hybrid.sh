#!/bin/sh
# `gpusheet init --task adaptation` and `--task training`, then `check` and
# `sheet`, on the hybrids of attention and state layers, with no hand edit
# of the workload (docs/formats.md §1.4, "Hybrids"):
#  - Nemotron-3-Nano-30B-A3B (Mamba2, attention and MoE layers): LoRA by
#    default on every token mixer's projections, q_proj, k_proj, v_proj,
#    o_proj, in_proj, out_proj: 6 x 311,296 + 23 x 316,416 = 9,145,344 at
#    rank 16; all-linear adds up_proj and down_proj of every expert and
#    the shared expert (no gate_proj): 441,936,896;
#  - Qwen3-Next-80B-A3B (Gated DeltaNet and attention layers, each with
#    its MoE block): q_proj, k_proj, v_proj, o_proj, in_proj_qkvz,
#    in_proj_ba, out_proj by default: 12 x 344,064 + 36 x 361,472 =
#    17,141,760; all-linear 3,046,478,592 (the router gate's adapter included)
# (each figure worked in tests/unit/test_training.c).
# A script, not a golden case: each workload names its model folder
# relative to the file init writes, so both are written in a scratch folder.
# Usage: init-training-hybrid.sh GPUSHEET SOURCE_DIR SCRATCH_DIR
set -u
bin=$1 src=$2 scratch=$3
. "$src/tests/lib/common.sh"
m=$src/tests/data/models
w=$scratch/work
mkdir -p "$w" || die "cannot create $w"
cd "$w" || die "cd $w"
cp -R "$m/nemotron-3-nano-30b-a3b" "$m/qwen3-next-80b-a3b-thinking" . || die "copy"

# run MODEL TASK NAME WANT [INIT OPTIONS]: init, check and sheet with no
# edit; the sheet gives WANT trainable parameters and one row per layer kind
run() {
	model=$1 task=$2 name=$3 want=$4
	shift 4
	rm -rf "$name.json" "out-$name"
	"$bin" init --model "$model" --task "$task" --context 4096 --microbatch 1 "$@" \
		--out "$name.json" >"$scratch/log" 2>&1 || { cat "$scratch/log"; err "init $name"; return; }
	"$bin" check "$name.json" >"$scratch/log" 2>&1 || { cat "$scratch/log"; err "check $name"; return; }
	"$bin" sheet "$name.json" --out "out-$name" --date 2026-11-29 --catalog lambda.xml \
		>"$scratch/log" 2>&1 || { cat "$scratch/log"; err "sheet $name"; return; }
	grep -q "Trainable parameters: $want\." "out-$name/$model.md" ||
		err "$name: trainable parameters not $want"
	python3 - "out-$name/$model.json" <<'PY' || err "$name: no layer kinds with a state mixer"
import json, sys
k = json.load(open(sys.argv[1]))["sizing"]["training_recipe"]["layer_kinds"]
sys.exit(not any(x["mixer"] in ("mamba2", "gated_deltanet") for x in k))
PY
}

run nemotron-3-nano-30b-a3b adaptation nemotron-lora 9,145,344
run nemotron-3-nano-30b-a3b adaptation nemotron-all 441,936,896 --lora-targets all-linear
run nemotron-3-nano-30b-a3b training nemotron-full 31,577,940,288
run qwen3-next-80b-a3b-thinking adaptation next-lora 17,141,760
run qwen3-next-80b-a3b-thinking adaptation next-all 3,046,478,592 --lora-targets all-linear
run qwen3-next-80b-a3b-thinking adaptation next-qlora 17,141,760 --qlora
run qwen3-next-80b-a3b-thinking training next-full 79,674,391,296
python3 - nemotron-lora.json next-lora.json <<'PY' || err "init's default targets"
import json, sys
t = [json.load(open(f))["training"]["recipe"]["lora"]["targets"] for f in sys.argv[1:]]
sys.exit(t != [["q_proj", "k_proj", "v_proj", "o_proj", "in_proj", "out_proj"],
               ["q_proj", "k_proj", "v_proj", "o_proj", "in_proj_qkvz", "in_proj_ba",
                "out_proj"]])
PY
finish "ok: init, check and sheet size Nemotron-H and Qwen3-Next training with no edit"
