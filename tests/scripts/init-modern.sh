#!/bin/sh
# `gpusheet init` -> `check` -> `sheet` on the real configs of the
# architecture table (tests/data/models/README.md), with nothing typed by
# hand but the context (32,768 tokens, 256 generated):
#  - every folder gives a workload that passes check and a sheet;
#  - DeepSeek-R1's workload carries its MLA layout and its active parameters
#    (37,552,297,472), and its sheet counts the larger cache, transformers'
#    (4,997,120 B x 32,768 tokens = 163,745,628,160 B), with vLLM's
#    (70,272 B x 32,768 = 2,302,672,896 B) beside it, not counted;
#  - Nemotron-3-Nano's sheet counts transformers' 250,691,584 B (6,144 B
#    per token x 32,768 + 49,364,992 B of state) and shows vLLM's 250,408,960;
#  - DeepSeek-R1's layout stated by hand (tests/data/models/
#    workload-layout-deepseek.json) is sized without the model's files;
#  - --kv-dtype fp8 writes 1 B per value; llama.cpp's q4_0 on DeepSeek-R1's
#    MLA layout (sized as vLLM and transformers keep it, neither keeping
#    q4_0) is refused with exit 1 and writes nothing; an unknown dtype (q5_0)
#    with exit 2.
set -u
bin=$1 src=$2 scratch=$3
. "$src/tests/lib/common.sh"
m=$src/tests/data/models
w=$scratch/work
rm -rf "$w"
mkdir -p "$w" || die "cannot create $w"
cd "$w" || die "cd $w"
for d in deepseek-r1 gpt-oss-20b medgemma-27b-it nemotron-3-nano-30b-a3b phi-4 \
	qwen2.5-vl-7b-instruct qwen3-30b-a3b qwen3-8b qwen3-next-80b-a3b-thinking; do
	cp -R "$m/$d" "$w/" || die "copy $d"
	"$bin" init --model "$d" --context 32768 --out "$d.json" >"$scratch/log" 2>&1 ||
		{ cat "$scratch/log"; err "init $d failed"; continue; }
	"$bin" check "$d.json" >"$scratch/log" 2>&1 || { cat "$scratch/log"; err "check $d failed"; }
	"$bin" sheet "$d.json" --out "sheet-$d" --date 2026-12-05 >"$scratch/log" 2>&1 ||
		{ cat "$scratch/log"; err "sheet $d failed"; }
done
python3 - "$w/deepseek-r1.json" <<'PY' || err "DeepSeek-R1's workload lacks its layout or active parameters"
import json, sys
m = json.load(open(sys.argv[1]))["model"]
assert m["active_parameters"] == 37552297472, m
assert m["cache_layout"] == [{"kind": "mla", "layers": 61, "kv_lora_rank": 512,
	"qk_rope_head_dim": 64, "kv_heads": 128, "qk_nope_head_dim": 128, "v_head_dim": 128}], m
PY
md=sheet-deepseek-r1/deepseek-r1.md
grep -q '| KV cache as this runtime keeps it: transformers (4,997,120 B per token.*no runtime declared: the larger of vLLM and transformers is counted) | 163,745,628,160 |' "$md" ||
	err "DeepSeek-R1's sheet does not count transformers' cache"
grep -q '| KV cache as this other runtime keeps it: vllm (70,272 B per token.*not counted in the need) | 2,302,672,896 |' "$md" ||
	err "DeepSeek-R1's sheet does not show vLLM's cache beside it"
md=sheet-nemotron-3-nano-30b-a3b/nemotron-3-nano-30b-a3b.md
grep -q 'transformers (6,144 B per token.* + 49,364,992 B of constant state.*) | 250,691,584 |' "$md" ||
	err "Nemotron's sheet does not count its state"
grep -q 'vllm (6,144 B per token.* + 49,082,368 B of constant state.*) | 250,408,960 |' "$md" ||
	err "Nemotron's sheet does not show vLLM's state"
# a layout stated by hand sizes the cache without the model's files:
# 4 sequences of 32,768 tokens, transformers 4 x 163,745,628,160 counted,
# vLLM 4 x 2,302,672,896 beside it
cp "$m/workload-layout-deepseek.json" stated.json || die "copy"
"$bin" sheet stated.json --out sheet-stated --date 2026-12-05 >"$scratch/log" 2>&1 ||
	{ cat "$scratch/log"; err "sheet of the stated layout failed"; }
grep -q 'transformers (4,997,120 B per token.*x 4 sequence(s).*) | 654,982,512,640 |' sheet-stated/layout-deepseek.md ||
	err "the stated layout's sheet does not count 4 x transformers' cache"
grep -q 'vllm (70,272 B per token.*) | 9,210,691,584 |' sheet-stated/layout-deepseek.md ||
	err "the stated layout's sheet does not show 4 x vLLM's cache"
"$bin" init --model deepseek-r1 --context 32768 --kv-dtype fp8 --out fp8.json >"$scratch/log" 2>&1 ||
	{ cat "$scratch/log"; err "init --kv-dtype fp8 failed"; }
grep -q '"bytes_per_value": 1' fp8.json || err "--kv-dtype fp8 did not write 1 B per value"
"$bin" init --model deepseek-r1 --context 32768 --kv-dtype q4_0 --out q4.json >"$scratch/log" 2>&1
[ $? -eq 1 ] || err "--kv-dtype q4_0 on an MLA layout was not refused with exit 1"
grep -q "llama.cpp's block type" "$scratch/log" || err "--kv-dtype q4_0 on a layout: no reason given"
[ ! -e q4.json ] || err "--kv-dtype q4_0 wrote a file"
"$bin" init --model deepseek-r1 --context 32768 --kv-dtype q5_0 --out q5.json >"$scratch/log" 2>&1
[ $? -eq 2 ] || err "--kv-dtype q5_0 was not refused with exit 2"
[ ! -e q5.json ] || err "--kv-dtype q5_0 wrote a file"
finish "init on the real configs of the architecture table; --kv-dtype"
