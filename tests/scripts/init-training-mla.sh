#!/bin/sh
# `gpusheet init --task adaptation` on an MLA model (DeepSeek-R1's real
# config.json): LoRA by default on the five projections the model has,
# q_a_proj, q_b_proj, kv_a_proj_with_mqa, kv_b_proj and o_proj (worked in
# tests/data/training/README.md: 1,590,272 parameters a layer at rank 16).
# A script, not a golden case: the workload names its model folder relative
# to the file it writes, so it is written next to a copy of the folder.
# Usage: init-training-mla.sh GPUSHEET SOURCE_DIR SCRATCH_DIR
set -u
bin=$1 src=$2 scratch=$3
. "$src/tests/lib/common.sh"
m=$src/tests/data/models
w=$scratch/work
mkdir -p "$w" || die "cannot create $w"
cp -R "$m/deepseek-r1" "$w/" || die "copy"
cd "$w" || die "cd $w"

"$bin" init --model deepseek-r1 --task adaptation --context 4096 --sharding zero3 --cards 8 \
	--out mla.json >"$scratch/log" 2>&1 || { cat "$scratch/log"; die "init failed"; }
cmp -s mla.json "$m/init-deepseek-r1-mla-lora.json" ||
	{ diff -u "$m/init-deepseek-r1-mla-lora.json" mla.json; err "init output differs from tests/data/models/init-deepseek-r1-mla-lora.json"; }
python3 - mla.json <<'PY' || err "the LoRA targets are not MLA's five projections"
import json, sys
t = json.load(open(sys.argv[1]))["training"]["recipe"]["lora"]["targets"]
sys.exit(t != ["q_a_proj", "q_b_proj", "kv_a_proj_with_mqa", "kv_b_proj", "o_proj"])
PY
"$bin" check mla.json >"$scratch/log" 2>&1 || { cat "$scratch/log"; err "check of the written workload failed"; }
finish "ok: init on DeepSeek-R1 writes LoRA on MLA's five projections, as recorded"
