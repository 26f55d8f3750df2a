#!/bin/sh
# `gpusheet init --images WxH[xN]` on Qwen2.5-VL-7B's real files
# (tests/data/models/qwen2.5-vl-7b-instruct), the tokens worked by hand in
# tests/unit/test_vision.c:
#  - 4 images of 1,280 x 720: 4 x 1,196 = 4,784 tokens added to the
#    32,512 input tokens = 37,296; the sheet's KV cache 57,344 B per token x
#    (37,296 + 256) = 2,153,381,888 B;
#  - one image of 4,000 x 3,000: 15,301 tokens (input 47,813); one of
#    8,000 x 6,000, bounded by max_pixels: 16,170 tokens;
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
cp -R "$m/qwen2.5-vl-7b-instruct" "$m/qwen3-8b" "$w/" || die "copy"
vl=qwen2.5-vl-7b-instruct
in_tokens() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["dimensions"]["input_tokens"])' "$1"; }
"$bin" init --model $vl --context 32768 --images 1280x720x4 --out four.json >"$scratch/log" 2>&1 ||
	{ cat "$scratch/log"; die "init --images 1280x720x4 failed"; }
[ "$(in_tokens four.json)" = 37296 ] || err "4 images of 1280x720: input_tokens $(in_tokens four.json), not 37,296"
grep -q '"images": 4' four.json || err "the images are not a dimension"
grep -q '= 1,196 tokens after the merger; 4,784 image tokens' four.json || err "the notes do not work out 1,196 tokens"
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
