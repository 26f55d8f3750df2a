#!/bin/sh
# `gpusheet init --task adaptation` and `sheet` on checkpoints that fuse
# projections, and on GGUF headers (tests/data/training/README.md, "Fused
# projections" and "GGUF checkpoints", where each figure is worked by hand):
#  - Phi-4: a sparse safetensors checkpoint written from its real
#    config.json, its tensor names checked against its real index
#    (qkv_proj, gate_up_proj); init's default targets are qkv_proj and
#    o_proj, q_proj is refused naming qkv_proj; LoRA rank 16 on all-linear
#    trains 55,705,600 parameters, from the headers and from the geometry;
#  - the same model as a GGUF header (attn_qkv, ffn_up 2 x intermediate
#    wide): the same kinds and the same 55,705,600;
#  - Mixtral-8x7B as a GGUF header (ffn_*_exps: every expert in one
#    tensor): LoRA rank 16 on all-linear 242,225,152: the 240,123,904 of
#    q, k, v, o and the experts, the figure of its safetensors checkpoint
#    (checkpoint/README.md), and its router block_sparse_moe.gate, an
#    nn.Linear that PEFT's all-linear adapts (ffn_gate_inp, 4,096 x 8:
#    16 x 4,104 x 32 = 2,101,248);
#  - Phi-3-mini-4k (config.json only): all-linear 25,165,824 from the
#    geometry; Pythia-1B (GPT-NeoX): query_key_value and dense by default;
#  - gpt-oss-20b: all-linear is q, k, v, o (its experts are no linear
#    module): 7,962,624 at rank 16.
# A script, not a golden case: each workload names its model folder
# relative to the file init writes, so both are written in a scratch folder.
# Usage: init-training-fused.sh GPUSHEET SOURCE_DIR SCRATCH_DIR
set -u
bin=$1 src=$2 scratch=$3
. "$src/tests/lib/common.sh"
m=$src/tests/data/models
ck=$src/tests/data/training/checkpoint
w=$scratch/work
mkdir -p "$w" || die "cannot create $w"
cd "$w" || die "cd $w"
python3 "$ck/make-header.py" "$m/phi-4/config.json" phi4 "$m/phi-4/model.safetensors.index.json" ||
	die "the Phi-4 checkpoint's tensors differ from its published index"
mkdir -p phi4-gguf mixtral-gguf || die "mkdir"
python3 "$ck/make-gguf.py" "$m/phi-4/config.json" phi4-gguf/model.gguf || die "make-gguf phi-4"
python3 "$ck/make-gguf.py" "$m/mixtral-8x7b/config.json" mixtral-gguf/model.gguf || die "make-gguf mixtral"
cp -R "$m/phi-3-mini-4k" "$m/pythia-1b" . || die "copy"

# targets MODEL WANT [INIT OPTIONS]: the targets init writes
targets() {
	model=$1 want=$2
	shift 2
	rm -f "$model.json"
	"$bin" init --model "$model" --task adaptation --context 4096 "$@" --out "$model.json" \
		>"$scratch/log" 2>&1 || { cat "$scratch/log"; err "init $model $*"; return; }
	got=$(python3 -c 'import json,sys; print(",".join(json.load(open(sys.argv[1]))["training"]["recipe"]["lora"]["targets"]))' "$model.json")
	[ "$got" = "$want" ] || err "$model $*: targets $got, expected $want"
	"$bin" check "$model.json" >"$scratch/log" 2>&1 || { cat "$scratch/log"; err "check $model.json"; }
}

# trainable MODEL FIGURE [TEXT]: the sheet of MODEL.json gives FIGURE
# trainable parameters (and TEXT)
trainable() {
	rm -rf "out-$1"
	"$bin" sheet "$1.json" --out "out-$1" --date 2026-11-29 --catalog lambda.xml \
		>"$scratch/log" 2>&1 || { cat "$scratch/log"; err "sheet $1"; return; }
	grep -q "Trainable parameters: $2\." "out-$1/$1.md" || err "$1: trainable parameters not $2"
	[ -z "${3:-}" ] || grep -qF "$3" "out-$1/$1.md" || err "$1: no \"$3\" in the sheet"
}

for model in phi4 phi4-gguf; do
	targets $model qkv_proj,o_proj
	targets $model qkv_proj,o_proj,gate_up_proj,down_proj --lora-targets all-linear
	trainable $model 55,705,600 "LoRA's trainable parameters from the checkpoint 55,705,600, the same figure as the geometry gives"
	grep -qF "| attention (projections) | 2,621,440,000 |" "out-$model/$model.md" ||
		err "$model: attention's parameters not 2,621,440,000"
	rm -f bad.json
	"$bin" init --model $model --task adaptation --context 4096 --lora-targets q_proj,v_proj \
		--out bad.json >"$scratch/log" 2>&1 && err "$model: q_proj accepted"
	grep -q "LoRA target q_proj is no module of this model: its checkpoint fuses it into qkv_proj" \
		"$scratch/log" || { cat "$scratch/log"; err "$model: q_proj's refusal does not name qkv_proj"; }
	[ ! -e bad.json ] || err "$model: a refused init wrote its file"
done
grep -qF "GGUF header placed by its llama.cpp name" out-phi4-gguf/phi4-gguf.md ||
	err "the GGUF sheet does not say where its kinds come from"

targets mixtral-gguf q_proj,k_proj,v_proj,o_proj,gate,gate_proj,up_proj,down_proj \
	--lora-targets all-linear --microbatch 4
trainable mixtral-gguf 242,225,152 "| routed experts | 45,097,156,608 |"

targets phi-3-mini-4k qkv_proj,o_proj,gate_up_proj,down_proj --lora-targets all-linear
trainable phi-3-mini-4k 25,165,824
targets pythia-1b query_key_value,dense
targets pythia-1b query_key_value,dense,dense_h_to_4h,dense_4h_to_h --lora-targets all-linear

# gpt-oss: its experts are 3-D parameters, no linear module: all-linear is
# q, k, v, o (7,962,624 at rank 16), an MLP target refused with the reason
cp -R "$m/gpt-oss-20b" . || die "copy"
targets gpt-oss-20b q_proj,k_proj,v_proj,o_proj --lora-targets all-linear
trainable gpt-oss-20b 7,962,624
"$bin" init --model gpt-oss-20b --task adaptation --context 4096 --lora-targets up_proj \
	--out bad.json >"$scratch/log" 2>&1 && err "gpt-oss: up_proj accepted"
grep -q "its MLP is its experts, 3-D parameters" "$scratch/log" ||
	{ cat "$scratch/log"; err "gpt-oss: up_proj's refusal does not say why"; }
finish "ok: LoRA on fused modules and from GGUF headers, as worked by hand"
