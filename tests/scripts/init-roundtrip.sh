#!/bin/sh
# `gpusheet init` -> `gpusheet check` -> `gpusheet sheet`, from the model's
# own files, with nothing typed by hand but the context.
# Usage: init-roundtrip.sh GPUSHEET SOURCE_DIR SCRATCH_DIR
#
#  - Mistral-7B-v0.1 (the published config.json and safetensors index):
#    the written sheet equals tests/data/models/init-mistral-7b-v0.1.json
#    (read by hand), passes check, and its decision sheet carries the exact
#    weights of the index (14,483,464,192 B, named with its file) and the
#    dense KV cache 2 x 32 layers x 8 KV heads x 128 x 32,768 tokens x 2 B =
#    4,294,967,296 B (init's default), with the windowed 4,096-token figure
#    (536,870,912 B) beside it, not counted; with --engine sglang at 8,192
#    tokens it equals tests/data/models/workload-sglang-mistral-8k.json;
#  - the tiny sharded checkpoint with --task lora and the tiny GGUF with
#    --task full write a training recipe and pass check; every training
#    option is written, and the options that contradict the task refused;
#  - a model outside the sheet's folder is named by a path up from it, a
#    folder link inside it as typed;
#  - init refuses to overwrite (exit 1, the file untouched) and refuses a
#    hostile checkpoint naming the file and byte offset, writing nothing.
set -u
bin=$1 src=$2 scratch=$3
. "$src/tests/lib/common.sh"
m=$src/tests/data/models
w=$scratch/work
mkdir -p "$w" || die "cannot create $w"
cp -R "$m/mistral-7b-v0.1" "$m/tiny-llama" "$m/tiny-gguf" "$m/bad" "$w/" || die "copy"

cd "$w" || die "cd $w"
"$bin" init --model mistral-7b-v0.1 --context 32768 --out mistral.json >"$scratch/log" 2>&1 ||
	{ cat "$scratch/log"; die "init mistral failed"; }
cmp -s mistral.json "$m/init-mistral-7b-v0.1.json" ||
	{ diff -u "$m/init-mistral-7b-v0.1.json" mistral.json; err "init output differs from tests/data/models/init-mistral-7b-v0.1.json"; }
"$bin" check mistral.json >"$scratch/log" 2>&1 || { cat "$scratch/log"; err "check of the init sheet failed"; }
# --engine sglang: the runtime declared, an empty reserve (SGLang's static
# budget holds the weights and the KV pool only), as read by hand in
# tests/data/models/workload-sglang-mistral-8k.json
"$bin" init --model mistral-7b-v0.1 --context 8192 --engine sglang --id sglang-mistral-8k \
	--out sglang.json >"$scratch/log" 2>&1 || { cat "$scratch/log"; die "init --engine sglang failed"; }
cmp -s sglang.json "$m/workload-sglang-mistral-8k.json" ||
	{ diff -u "$m/workload-sglang-mistral-8k.json" sglang.json; err "init --engine sglang differs from tests/data/models/workload-sglang-mistral-8k.json"; }
"$bin" sheet --catalog offers.xml mistral.json --out sheet --date 2026-11-29 >"$scratch/log" 2>&1 ||
	{ cat "$scratch/log"; die "sheet of the init sheet failed"; }
md=sheet/mistral-7b-v0.1.md
grep -q '| Weights only (calculated by the checkpoint.s index from its declared shapes, read from the index (shards. headers not read): mistral-7b-v0.1/model.safetensors.index.json (metadata.total\\_size)) | 14,483,464,192 |' "$md" ||
	err "the sheet does not show the index's exact weights with their file"
grep -q '| Model files | geometry read from: mistral-7b-v0.1/config.json;' "$md" ||
	err "the sheet does not name config.json as the geometry's source"
grep -q '| KV cache (2 x 32 x 8 x 128 x 32,768 tokens x 2 B x 1) | 4,294,967,296 |' "$md" ||
	err "the dense KV cache (init's default) is not 4,294,967,296 B"
grep -q '| KV cache if the runtime keeps only the sliding window (4,096 tokens kept per sequence; the model.s window: 4,096; not counted in the need) | 536,870,912 |' "$md" ||
	err "the sliding-window KV cache is not shown beside it as 536,870,912 B"
grep -q '"kind": "dense"' mistral.json || err "init did not write a dense cache by default"
grep -q 'sliding window of 4,096 tokens on every layer' mistral.json || err "init's notes do not name the window"
grep -q '| Parameters | 7,241,732,096 |' "$md" || err "parameters are not the geometry's 7,241,732,096"
# a context beyond max_position_embeddings (32,768): written, with a warning
"$bin" init --model mistral-7b-v0.1 --context 65536 --out long.json >/dev/null 2>"$scratch/log" ||
	{ cat "$scratch/log"; err "init at 65,536 tokens failed"; }
grep -q "warning: the context of 65,536 tokens exceeds the model's max_position_embeddings (32,768)" "$scratch/log" ||
	{ cat "$scratch/log"; err "init did not warn of a context beyond max_position_embeddings"; }
"$bin" init --model mistral-7b-v0.1 --context 32768 --out ok.json >/dev/null 2>"$scratch/log"
grep -q warning "$scratch/log" && err "init warned at the model's own context"

# training: the recipe, its items calculated by the sheet (docs/formats.md §1.4)
"$bin" init --model tiny-llama --context 64 --task lora --id tiny-lora \
	--out lora.json >/dev/null 2>"$scratch/log" || { cat "$scratch/log"; err "init lora failed"; }
"$bin" check lora.json >/dev/null 2>&1 || err "check lora.json failed"
# the workload's word for it, the same sheet
"$bin" init --model tiny-llama --context 64 --task adaptation --id tiny-lora \
	--out lora2.json >/dev/null 2>"$scratch/log" || { cat "$scratch/log"; err "init --task adaptation failed"; }
cmp -s lora.json lora2.json || err "--task adaptation and --task lora write different sheets"
grep -q '"task": "adaptation"' lora.json || err "lora.json's task is not adaptation"
# every header read: the replicated norms, 3 x 8 float32 = 96 B (docs/formats.md §5.2)
grep -A2 '"tensor_parallel_replicated"' lora.json | grep -q '"amount": "96"' ||
	err "init did not write the 96 replicated bytes of tiny-llama's headers"
grep -q tensor_parallel_replicated mistral.json &&
	err "init wrote replicated bytes from an index alone (its shards' headers not read)"
# the defaults: LoRA rank 16 on q, k, v, o, AdamW, full checkpointing, microbatch 1,
# no generated tokens, no KV cache
grep -q '"method": "lora"' lora.json || err "lora.json: the method is not lora"
grep -q '"rank": 16' lora.json || err "lora.json: the rank is not 16"
grep -q '"checkpointing": "full"' lora.json || err "lora.json: checkpointing is not full"
grep -q '"microbatch": 1' lora.json || err "lora.json: microbatch is not 1"
grep -q 'output_tokens\|"cache"\|"sequences"' lora.json && err "lora.json: generated tokens, sequences or a cache in a training workload"
"$bin" sheet --catalog offers.xml lora.json --out lsheet --date 2026-11-29 >/dev/null 2>&1 || err "sheet of lora.json failed"
# rank 16 on q, k, v, o of its one layer: 16 x (2 x (8 + 8) + 2 x (8 + 4)) = 896
grep -q 'Trainable parameters: 896\.' lsheet/tiny-lora.md || err "LoRA trainable parameters are not 896"
grep -q '"kv_cache": null' lsheet/tiny-lora.json || err "the training sheet counts a KV cache"
grep -q '"training_recipe": {' lsheet/tiny-lora.json || err "no sizing.training_recipe in the decision JSON"
# the options: QLoRA, 8-bit AdamW, ZeRO-2 over 2 cards with the optimizer offloaded
"$bin" init --model tiny-llama --context 64 --task adaptation --qlora --microbatch 2 --accumulation 8 \
	--lora-rank 4 --lora-targets q_proj,v_proj --optimizer adamw8bit --checkpointing selective \
	--sharding zero2 --cards 2 --offload optimizer --id tiny-qlora --out qlora.json >/dev/null 2>"$scratch/log" ||
	{ cat "$scratch/log"; err "init with every training option failed"; }
"$bin" check qlora.json >/dev/null 2>&1 || err "check qlora.json failed"
for k in '"method": "qlora"' '"rank": 4' '"optimizer": "adamw8bit"' '"checkpointing": "selective"' \
	'"sharding": "zero2"' '"cards": 2' '"offload": "optimizer"' '"accumulation": 8' '"microbatch": 2'; do
	grep -q "$k" qlora.json || err "qlora.json lacks $k"
done
# refused: inference's options for a training, a training option for inference, cards without sharding
for bad in "--task training --output-tokens 16" "--task adaptation --sequences 2" "--microbatch 2" \
	"--task adaptation --cards 2" "--task adaptation --lora-targets q_proj,x_proj" \
	"--task training --lora-rank 8" "--task adaptation --optimizer adam"; do
	# shellcheck disable=SC2086
	"$bin" init --model tiny-llama --context 64 $bad --out refused.json >/dev/null 2>"$scratch/log" &&
		err "init $bad was accepted"
	[ -e refused.json ] && err "init $bad wrote a file"
	[ -s "$scratch/log" ] || err "init $bad: no message"
done
# a GGUF whose header gives no intermediate size: a training recipe cannot be sized, refused plainly
"$bin" init --model tiny-gguf --context 64 --task full --out full.json >/dev/null 2>"$scratch/log" &&
	err "init full on a GGUF without an intermediate size was accepted"
grep -q 'intermediate' "$scratch/log" || { cat "$scratch/log"; err "the refusal does not name the intermediate size"; }
[ -e full.json ] && err "a refused init wrote full.json"
"$bin" init --model tiny-llama --context 64 --task training --sharding fsdp --cards 2 --out full.json \
	>/dev/null 2>"$scratch/log" || { cat "$scratch/log"; err "init full failed"; }
"$bin" check full.json >/dev/null 2>&1 || err "check full.json failed"
grep -q '"method": "full"' full.json || err "full.json: the method is not full"
"$bin" init --model tiny-gguf --context 64 --out gguf.json >/dev/null 2>"$scratch/log" ||
	{ cat "$scratch/log"; err "init on a GGUF failed"; }
"$bin" sheet --catalog offers.xml gguf.json --out sheet --date 2026-11-29 >/dev/null 2>&1 || err "sheet of gguf.json failed"
grep -q 'read from the checkpoint headers: tiny-gguf/model.gguf) | 2,354 |' sheet/tiny-gguf.md ||
	err "the GGUF sheet does not carry the file's 2,354 bytes with its name"

# never overwrites
sum=$(cksum < mistral.json)
"$bin" init --model mistral-7b-v0.1 --context 4096 --out mistral.json >/dev/null 2>"$scratch/log"
rc=$?
[ $rc = 1 ] || err "init over an existing file: exit $rc, expected 1"
grep -q "already exists" "$scratch/log" || err "init over an existing file: no 'already exists' message"
[ "$(cksum < mistral.json)" = "$sum" ] || err "init changed an existing file"

# a model outside the sheet's folder: named by a path up from it, which check follows
mkdir -p sub
"$bin" init --model mistral-7b-v0.1 --context 4096 --out sub/w.json >/dev/null 2>"$scratch/log" ||
	{ cat "$scratch/log"; err "init with the model outside the sheet's folder failed"; }
grep -q '"from": "../mistral-7b-v0.1"' sub/w.json || err "the model outside the folder is not named ../mistral-7b-v0.1"
"$bin" check sub/w.json >"$scratch/log" 2>&1 || { cat "$scratch/log"; err "check of sub/w.json failed"; }
# a folder link inside the sheet's folder is followed like a folder, and named as typed
ln -s ../tiny-llama sub/tiny
"$bin" init --model sub/tiny --context 64 --out sub/t.json >/dev/null 2>"$scratch/log" ||
	{ cat "$scratch/log"; err "init through a folder link inside the sheet's folder failed"; }
grep -q '"from": "tiny"' sub/t.json || err "the folder link is not named as typed (tiny)"

# a hostile checkpoint: refused with file and byte offset, nothing written
"$bin" init --model bad/st-overlap.safetensors --context 64 --out hostile.json >/dev/null 2>"$scratch/log"
rc=$?
[ $rc = 1 ] || err "hostile checkpoint: exit $rc, expected 1"
grep -q 'st-overlap.safetensors: error: at byte 120:' "$scratch/log" || err "hostile checkpoint: no file and byte offset"
[ ! -e hostile.json ] || err "hostile checkpoint: a file was written"
ls | grep -q '\.tmp-' && err "a temporary file was left behind"

finish "init round trip: inference, lora and full; refusals"
