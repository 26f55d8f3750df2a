#!/bin/sh
# `gpusheet init --format` and `--tensor-parallel` on the real configs
# (tests/data/models/README.md), the bytes worked by hand in
# tests/unit/test_wformat.c:
#  - Qwen3-8B in each format: the workload carries weights.format, passes
#    check, and its sheet counts the format's bytes, labelled theoretical;
#  - gpt-oss-20b in mxfp4: 13,761,264,768 B, the real index's total_size;
#  - gpt-oss-20b in awq-int4 is refused (2,880 input features are not whole
#    groups of 128), exit 1, nothing written; an unknown format exit 2;
#  - a hand-written weights.format beside storage_bits is refused;
#  - --tensor-parallel 4 writes requirements.tensor_parallel 4, and on a
#    mixture of experts the notes state the experts a card under expert
#    parallelism.
set -u
bin=$1 src=$2 scratch=$3
. "$src/tests/lib/common.sh"
m=$src/tests/data/models
w=$scratch/work
mkdir -p "$w" || die "cannot create $w"
cd "$w" || die "cd $w"
cp -R "$m/qwen3-8b" "$m/gpt-oss-20b" "$w/" || die "copy"
for fb in bf16:16,381,470,720 int8:9,438,504,960 fp8:9,437,399,040 \
	awq-int4:6,098,479,104 gptq-int4:6,103,787,520 mxfp4:6,179,874,816 \
	nvfp4:6,396,932,064; do
	f=${fb%%:*} b=${fb#*:}
	"$bin" init --model qwen3-8b --context 32768 --format "$f" --out "q-$f.json" \
		>"$scratch/log" 2>&1 || { cat "$scratch/log"; err "init --format $f failed"; continue; }
	grep -q "\"format\": \"$f\"" "q-$f.json" || err "$f: no weights.format in the workload"
	"$bin" check "q-$f.json" >"$scratch/log" 2>&1 || { cat "$scratch/log"; err "check $f failed"; }
	"$bin" sheet "q-$f.json" --out "s-$f" --date 2026-12-05 >"$scratch/log" 2>&1 ||
		{ cat "$scratch/log"; err "sheet $f failed"; continue; }
	grep -q "^| Weights only ($f by the format's rule.*) | $b |" "s-$f/qwen3-8b.md" ||
		err "$f: the sheet does not count $b B"
	grep -q '"weights_theoretical": true' "s-$f/qwen3-8b.json" ||
		err "$f: the weights are not labelled theoretical"
done
"$bin" init --model gpt-oss-20b --context 131072 --format mxfp4 --out g.json >"$scratch/log" 2>&1 ||
	{ cat "$scratch/log"; err "init gpt-oss --format mxfp4 failed"; }
"$bin" sheet g.json --out s-g --date 2026-12-05 >"$scratch/log" 2>&1 ||
	{ cat "$scratch/log"; err "sheet gpt-oss mxfp4 failed"; }
grep -q "^| Weights only (mxfp4 by the format's rule.*routed experts only.*) | 13,761,264,768 |" \
	s-g/gpt-oss-20b.md || err "gpt-oss in mxfp4 is not the index's 13,761,264,768 B"
"$bin" init --model gpt-oss-20b --context 32768 --format awq-int4 --out a.json >"$scratch/log" 2>&1
[ $? -eq 1 ] || err "awq-int4 on gpt-oss was not refused with exit 1"
grep -q "not of 8 and 128" "$scratch/log" || err "the awq-int4 refusal does not say why"
[ ! -e a.json ] || err "a refused --format wrote a file"
"$bin" init --model qwen3-8b --context 32768 --format int4 --out u.json >"$scratch/log" 2>&1
[ $? -eq 2 ] || err "an unknown format was not refused with exit 2"
[ ! -e u.json ] || err "an unknown format wrote a file"
python3 - q-awq-int4.json bad.json <<'PY' || die "cannot write bad.json"
import json, sys
w = json.load(open(sys.argv[1]))
w["weights"]["storage_bits"] = 4
json.dump(w, open(sys.argv[2], "w"))
PY
"$bin" check bad.json >"$scratch/log" 2>&1
[ $? -eq 1 ] || err "weights.format beside storage_bits was not refused"
grep -q 'weights.format.*remove storage_bits' "$scratch/log" || err "the refusal does not name weights.format"
# weights.format by hand: on a model without a covered geometry (a GGUF),
# without model.from, and an unknown format: each refused at $.weights.format
python3 - q-awq-int4.json "$m/tiny-gguf" <<'PY' || die "cannot write the bad workloads"
import json, sys
base = json.load(open(sys.argv[1]))
for name, model, fmt in (("bad-gguf", {"from": sys.argv[2]}, "nvfp4"),
                         ("bad-nofrom", {"name": "x", "parameters": 1000}, "nvfp4"),
                         ("bad-unknown", base["model"], "int3")):
    w = json.loads(json.dumps(base))
    w["model"] = model
    w["weights"] = {"format": fmt}
    if name != "bad-unknown":
        w.pop("cache", None)
    json.dump(w, open(name + ".json", "w"))
PY
for b in bad-gguf:covered.architecture bad-nofrom:needs.model.from bad-unknown:expected.one.of; do
	f=${b%%:*} msg=${b#*:}
	"$bin" check "$f.json" >"$scratch/log" 2>&1
	[ $? -eq 1 ] || err "$f was not refused with exit 1"
	grep -q "at \$.weights.format: .*$msg" "$scratch/log" || { cat "$scratch/log"; err "$f: no error at \$.weights.format"; }
done
"$bin" init --model qwen3-8b --context 32768 --tensor-parallel 4 --out tp.json >"$scratch/log" 2>&1 ||
	{ cat "$scratch/log"; err "init --tensor-parallel failed"; }
grep -q '"tensor_parallel": 4' tp.json || err "--tensor-parallel 4 not written"
"$bin" init --model qwen3-8b --context 32768 --tensor-parallel 65 --out tp65.json >/dev/null 2>&1
[ $? -eq 1 ] || err "--tensor-parallel 65 was not refused"
# expert parallelism, in the notes: Qwen3-30B-A3B's 48 layers x 128 experts x
# 3 x 2,048 x 768 = 28,991,029,248 parameters of routed experts, 32 a card of 4
cp -R "$m/qwen3-30b-a3b" "$w/" || die "copy"
"$bin" init --model qwen3-30b-a3b --context 32768 --tensor-parallel 4 --out ep.json >"$scratch/log" 2>&1 ||
	{ cat "$scratch/log"; err "init qwen3-30b-a3b --tensor-parallel 4 failed"; }
grep -q 'each card would hold 32 of the 128 routed experts: their matrices, 28,991,029,248 of the 30,532,122,624 parameters' ep.json ||
	err "the notes do not state the experts under expert parallelism"
finish "init --format and --tensor-parallel"
