#!/bin/sh
# `gpusheet init --images WxH[xN]` on Qwen2.5-VL-7B's real files
# (tests/data/models/qwen2.5-vl-7b-instruct), the tokens worked by hand in
# tests/unit/test_vision.c:
#  - 4 images of 1,280 x 720: 4 x 1,196 = 4,784 tokens added to the
#    32,512 input tokens = 37,296; the sheet's KV cache 57,344 B per token x
#    (37,296 + 256) = 2,153,381,888 B;
#  - one image of 4,000 x 3,000: 15,301 tokens (input 47,813); one of
#    8,000 x 6,000, bounded by max_pixels: 16,170 tokens;
#  - the vision tower's activations, an assumed reserve item: 4 images x
#    (728 / 14) x (1,288 / 14) = 4 x 4,784 patches x 3,420 intermediate
#    (vision_config) x 2 x 2 B = 261,780,480 B; MedGemma-27B (Gemma 3's
#    SigLIP), 2 images x (896 / 14)^2 = 4,096 patches x 4,304 x 2 x 2 B =
#    141,033,472 B; none without images;
#  - no --images on a model that takes images: the notes say so;
#  - a malformed --images, and --images on a model without a vision tower,
#    are refused (exit 1) and write nothing.
set -u
bin=$1 src=$2 scratch=$3
. "$src/tests/lib/common.sh"
m=$src/tests/data/models
w=$scratch/work
mkdir -p "$w" || die "cannot create $w"
cd "$w" || die "cd $w"
cp -R "$m/qwen2.5-vl-7b-instruct" "$m/qwen3-8b" "$m/medgemma-27b-it" "$w/" || die "copy"
vl=qwen2.5-vl-7b-instruct
in_tokens() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["dimensions"]["input_tokens"])' "$1"; }
"$bin" init --model $vl --context 32768 --images 1280x720x4 --out four.json >"$scratch/log" 2>&1 ||
	{ cat "$scratch/log"; die "init --images 1280x720x4 failed"; }
[ "$(in_tokens four.json)" = 37296 ] || err "4 images of 1280x720: input_tokens $(in_tokens four.json), not 37,296"
grep -q '"images": 4' four.json || err "the images are not a dimension"
grep -q '= 1,196 tokens after the merger; 4,784 image tokens' four.json || err "the notes do not work out 1,196 tokens"
vision_item() { python3 -c 'import json,sys; print(" ".join(r["size"]["amount"] for r in json.load(open(sys.argv[1]))["reserve"] if r["name"] == "vision tower activations"))' "$1"; }
[ "$(vision_item four.json)" = 261780480 ] || err "4 images: the vision tower's activations are $(vision_item four.json), not 261,780,480 B"
grep -q '4 image(s) x 4,784 patches (52 x 92 of 14 pixels' four.json || err "the vision item does not show its formula"
"$bin" init --model medgemma-27b-it --context 8192 --images 1280x720x2 --out mg.json >"$scratch/log" 2>&1 ||
	{ cat "$scratch/log"; err "init --images on MedGemma failed"; }
[ "$(vision_item mg.json)" = 141033472 ] || err "MedGemma: the vision tower's activations are $(vision_item mg.json), not 141,033,472 B"
"$bin" check four.json >"$scratch/log" 2>&1 || { cat "$scratch/log"; err "check four.json failed"; }
"$bin" sheet four.json --out s4 --date 2026-12-05 >"$scratch/log" 2>&1 || { cat "$scratch/log"; err "sheet four.json failed"; }
grep -q '^| KV cache (2 x 28 x 4 x 128 x 37,552 tokens x 2 B x 1) | 2,153,381,888 |' s4/$vl.md ||
	err "the sheet's KV cache does not count the image tokens"
"$bin" init --model $vl --context 32768 --images 4000x3000 --out big.json >"$scratch/log" 2>&1 ||
	{ cat "$scratch/log"; err "init --images 4000x3000 failed"; }
[ "$(in_tokens big.json)" = 47813 ] || err "4000x3000: input_tokens $(in_tokens big.json), not 32,512 + 15,301"
"$bin" init --model $vl --context 32768 --images 8000x6000x1 --out huge.json >"$scratch/log" 2>&1 ||
	{ cat "$scratch/log"; err "init --images 8000x6000x1 failed"; }
[ "$(in_tokens huge.json)" = 48682 ] || err "8000x6000: input_tokens $(in_tokens huge.json), not 32,512 + 16,170"
grep -q 'resizes each to 4116 x 3080' huge.json || err "8000x6000 is not bounded by max_pixels"
"$bin" init --model $vl --context 32768 --out none.json >"$scratch/log" 2>&1 || { cat "$scratch/log"; err "init without images failed"; }
grep -q 'this workload gives none' none.json || err "a model that takes images, no images: not said"
[ -z "$(vision_item none.json)" ] || err "no images, yet a vision tower activations item"
for bad in 1280x 1280 x720 1280x720x0 1280x720x2000 1280xx720 axb; do
	"$bin" init --model $vl --context 32768 --images "$bad" --out bad.json >"$scratch/log" 2>&1
	[ $? -eq 1 ] || err "--images $bad was not refused with exit 1"
	[ ! -e bad.json ] || { err "--images $bad wrote a file"; rm -f bad.json; }
done
"$bin" init --model qwen3-8b --context 32768 --images 1280x720 --out t.json >"$scratch/log" 2>&1
[ $? -eq 1 ] || err "--images on a text model was not refused"
grep -q 'no vision tower' "$scratch/log" || err "the refusal does not say the model has no vision tower"
[ ! -e t.json ] || err "--images on a text model wrote a file"
finish "init --images"
