#!/bin/sh
# `gpusheet init --kv-dtype`: the KV cache's width, written and sized.
# Usage: init-kv-dtype.sh GPUSHEET SOURCE_DIR SCRATCH_DIR
#
# Llama-3.1-8B's real config.json (32 layers, 8 KV heads, head_dim 128):
#  - q8_0 writes tests/data/models/init-llama-3.1-8b-q8_0.json (read by
#    hand): the cache's dtype and no bytes per value, passes check, and its
#    sheet counts 2 x 32 x 8 x (128 / 32 x 34 B) = 69,632 B per token,
#    69,632 x 8,192 = 570,425,344 B at its context;
#  - q4_0: 2 x 32 x 8 x (128 / 32 x 18 B) = 36,864 B per token,
#    301,989,888 B at 8,192 tokens; fp8 writes 1 B per value and counts
#    65,536 B per token; fp16 131,072; each sheet's decision JSON gives
#    sizing.kv_dtype with the dtype, its block (34 B per 32 values for
#    q8_0, 18 for q4_0, 1 and 2 B per value for fp8 and fp16) and those
#    bytes per token, calculated;
#  - refused, nothing written: q8_0 under --engine vllm (exit 2), an
#    unknown dtype (exit 2, the accepted ones named), q8_0 on a model whose
#    layers keep different caches (Gemma 2's windows, exit 1), q8_0 on a
#    head of 80 values (exit 1; fp8 is kept).
set -u
bin=$1 src=$2 scratch=$3
. "$src/tests/lib/common.sh"
m=$src/tests/data/models
w=$scratch/work
mkdir -p "$w" || die "cannot create $w"
cp -R "$m/llama-3.1-8b" "$m/gemma-2-9b" "$w/" || die "copy"
cd "$w" || die "cd $w"

"$bin" init --model llama-3.1-8b --context 8192 --kv-dtype q8_0 --out q8.json >"$scratch/log" 2>&1 ||
	{ cat "$scratch/log"; die "init --kv-dtype q8_0 failed"; }
cmp -s q8.json "$m/init-llama-3.1-8b-q8_0.json" ||
	{ diff -u "$m/init-llama-3.1-8b-q8_0.json" q8.json; err "init output differs from tests/data/models/init-llama-3.1-8b-q8_0.json"; }
grep -q '"dtype": "q8_0"' q8.json || err "q8.json: no cache dtype q8_0"
grep -q '"bytes_per_value"' q8.json && err "q8.json: a block type written with bytes per value"
"$bin" check q8.json >"$scratch/log" 2>&1 || { cat "$scratch/log"; err "check of q8.json failed"; }

# kv_row DTYPE PER_TOKEN TOTAL: init, sheet, and the KV row of the sheet
kv_row() {
	rm -rf "s-$1" "$1.json"
	"$bin" init --model llama-3.1-8b --context 8192 --kv-dtype "$1" --id "kv-$1" --out "$1.json" \
		>"$scratch/log" 2>&1 || { cat "$scratch/log"; err "init --kv-dtype $1 failed"; return; }
	"$bin" sheet --catalog offers.xml "$1.json" --out "s-$1" --date 2026-11-29 >"$scratch/log" 2>&1 ||
		{ cat "$scratch/log"; err "sheet of --kv-dtype $1 failed"; return; }
	grep -q "^| KV cache, $4 (2 x 32 x 8 x $5 = $2 B per token; x 8,192 tokens x 1) | $3 |" "s-$1/kv-$1.md" ||
		{ grep 'KV cache' "s-$1/kv-$1.md"; err "--kv-dtype $1: the KV row is not $2 B per token, $3 B"; }
	# the decision JSON: the dtype, its block and the bytes per token
	grep -q "^    \"kv_dtype\": {\"block_bytes\":$6,\"block_values\":$7,\"bytes_per_token\":{\"bytes\":$(echo "$2" | tr -d ,),\"provenance\":\"calculated\"},\"dtype\":\"$1\"," "s-$1/kv-$1.json" ||
		{ grep kv_dtype "s-$1/kv-$1.json"; err "--kv-dtype $1: the decision JSON's sizing.kv_dtype is not $6 B per $7 values, $2 B per token"; }
}
kv_row q8_0 69,632 570,425,344 'q8\\_0' '128 / 32 x 34 B' 34 32
kv_row q4_0 36,864 301,989,888 'q4\\_0' '128 / 32 x 18 B' 18 32
kv_row fp8 65,536 536,870,912 fp8 '128 x 1 B' 1 1
kv_row fp16 131,072 1,073,741,824 fp16 '128 x 2 B' 2 1
grep -q '"bytes_per_value": 1' fp8.json || err "--kv-dtype fp8 did not write 1 B per value"
grep -q '| KV cache | dense, q4\\_0, 18 B per block of 32 values |' s-q4_0/kv-q4_0.md ||
	err "the q4_0 sheet does not name the dtype and its block"

# refusals: nothing written
"$bin" init --model llama-3.1-8b --context 8192 --engine vllm --kv-dtype q8_0 --out r1.json \
	>/dev/null 2>"$scratch/log"
[ $? -eq 2 ] || err "q8_0 under --engine vllm was not refused with exit 2"
grep -q "vLLM keeps no such cache" "$scratch/log" || err "q8_0 under vLLM: no reason given"
"$bin" init --model llama-3.1-8b --context 8192 --kv-dtype int4 --out r2.json >/dev/null 2>"$scratch/log"
[ $? -eq 2 ] || err "an unknown --kv-dtype was not refused with exit 2"
grep -q 'fp16, bf16, fp32, fp8, q8_0 or q4_0' "$scratch/log" || err "an unknown --kv-dtype: the accepted ones not named"
"$bin" init --model gemma-2-9b --context 8192 --kv-dtype q4_0 --out r3.json >/dev/null 2>"$scratch/log"
[ $? -eq 1 ] || err "q4_0 on Gemma 2's layout was not refused with exit 1"
grep -q "do not all keep the same cache" "$scratch/log" || err "q4_0 on a layout: no reason given"
# a head of 80 values (Llama-3.1-8B's config with a head_dim key of 80): not whole blocks
mkdir -p odd-head || die "mkdir odd-head"
sed 's/"model_type": "llama",/"model_type": "llama",\n  "head_dim": 80,/' llama-3.1-8b/config.json >odd-head/config.json
grep -q '"head_dim": 80' odd-head/config.json || die "odd-head: no head_dim written"
"$bin" init --model odd-head --context 8192 --kv-dtype q8_0 --out r4.json >/dev/null 2>"$scratch/log"
[ $? -eq 1 ] || err "q8_0 on a head of 80 values was not refused with exit 1"
grep -q 'the head dimension 80 is not a multiple of 32' "$scratch/log" ||
	{ cat "$scratch/log"; err "q8_0 on a head of 80: no reason given"; }
"$bin" init --model odd-head --context 8192 --kv-dtype fp8 --out ok80.json >/dev/null 2>"$scratch/log" ||
	{ cat "$scratch/log"; err "fp8 on a head of 80 values was refused"; }
for f in r1.json r2.json r3.json r4.json; do
	[ ! -e "$f" ] || err "a refused init wrote $f"
done
ls | grep -q '\.tmp-' && err "a temporary file was left behind"
finish "init --kv-dtype: q8_0, q4_0, fp8 and fp16 on Llama-3.1-8B; refusals"
