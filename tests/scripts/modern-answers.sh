#!/bin/sh
# The answer against every bundled catalog for three models people deploy
# now, from their real files (tests/data/models/), nothing typed but the
# flags of init and a campaign and budget; the figures are worked by hand
# in tests/data/models/README.md ("Three sheets on real configs"):
#  - DeepSeek-R1 at 32,768 tokens, --format fp8 (its checkpoint's block
#    format; only config.json is committed), tensor parallel 8, vLLM:
#    weights 673,150,582,112 B, the MLA latent as vLLM keeps it
#    70,272 B x 32,768 = 2,302,672,896 B, replicated on every card; the
#    offer to take has 8 cards;
#  - gpt-oss-20b at 131,072 tokens, vLLM: weights 13,761,264,768 B (the
#    index's MXFP4 total), the cache with its 128-token windows
#    3,224,371,200 B;
#  - Qwen2.5-VL-7B with 4 images of 1,280 x 720 (4 x 1,196 tokens) at
#    32,768 tokens, vLLM: weights 16,584,333,312 B (the index), KV cache
#    57,344 B x 37,552 tokens = 2,153,381,888 B;
#  - MedGemma-27B (Gemma 3) with 2 images of 1,280 x 720 (2 x 260 tokens)
#    at 8,192 tokens, vLLM: weights 54,864,813,280 B (the index), KV cache
#    81,920 B x 8,720 tokens on the 10 full layers + 436,207,616 B on the
#    52 windowed ones = 1,150,550,016 B.
# Each sheet names an offer to take, of class fits or lower_bound_fits,
# rentable and priced, first among the candidates and in the first sentence.
set -u
bin=$1 src=$2 scratch=$3
. "$src/tests/lib/common.sh"
need python3 "apt-get install python3"
m=$src/tests/data/models
cd "$scratch" || die "cd $scratch"

run() {
	# name folder weights kv cards -- init flags
	name=$1 dir=$2 wb=$3 kv=$4 cards=$5
	shift 6
	cp -R "$m/$dir" "$scratch/$dir" || die "copy $dir"
	"$bin" init --model "$dir" "$@" --out "$name.json" >/dev/null 2>"$scratch/log" ||
		{ cat "$scratch/log"; err "init $name failed"; return; }
	python3 - "$name.json" <<'PY' || err "$name: could not add the campaign and budget"
import json, sys
p = sys.argv[1]
w = json.load(open(p))
w["requirements"]["campaign"] = {"start": "2026-12-01", "days": 3}
w["requirements"]["budget"] = {"amount": "5000.00", "currency": "USD"}
json.dump(w, open(p, "w"), indent=2)
PY
	"$bin" sheet "$name.json" --out "out-$name" --date 2026-11-29 >/dev/null 2>"$scratch/log" ||
		{ cat "$scratch/log"; err "sheet $name failed"; return; }
	GS_LIB="$src/tests/lib" python3 - "out-$name" "$name" "$wb" "$kv" "$cards" <<'PY' || err "$name: the answer breaks a rule (above)"
import json, sys, glob
out, name, wb, kv, cards = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
j = [f for f in glob.glob(out + "/*.json") if not f.endswith("manifest.json")]
d = json.load(open(j[0]))
# schema 5: rows and tables read back into one object per candidate and reason
import os
sys.path.insert(0, os.environ["GS_LIB"])
import decision_doc
d["candidates"], d["reasons"] = decision_doc.candidates(d), decision_doc.reasons(d)
md = open(j[0][:-5] + ".md", encoding="utf-8").read()
bad = 0
def fail(t):
    global bad
    print("FAIL: %s: %s" % (name, t)); bad = 1
def row(label_start, value):
    for l in md.split("\n"):
        if l.startswith("| " + label_start) and ("| {:,} |".format(value)) in l:
            return True
    return False
if not row("Weights only", wb):
    fail("no weights row of {:,} B".format(wb))
if not row("KV cache", kv):
    fail("no KV cache row of {:,} B".format(kv))
best = d["decision"]["offer_to_take"]
if best is None:
    fail("no offer to take")
else:
    c = {x["offer"]: x for x in d["candidates"]}[best]
    if c["class"] not in ("fits", "lower_bound_fits"):
        fail("offer to take %s is of class %s" % (best, c["class"]))
    if c["cards"] != cards:
        fail("offer to take %s has %d cards, not %d" % (best, c["cards"], cards))
    if c["capacity_per_card"]["bytes"] < c["lower_bound_per_card"]["bytes"]:
        fail("offer to take %s does not hold the lower bound" % best)
    if c["price_per_hour"]["on_demand"] is None and c["price_per_hour"]["interruptible"] is None:
        fail("offer to take %s has no price" % best)
    first = [l for l in md.split("\n") if l.startswith("**Answer:**")]
    if not first or ("take `%s`" % best) not in first[0]:
        fail("the first sentence does not name %s" % best)
    if d["candidates"][0]["offer"] != best:
        fail("the offer to take is not the first candidate")
print("%s: offer to take %s" % (name, best))
sys.exit(bad)
PY
}

run deepseek-r1 deepseek-r1 673150582112 2302672896 8 -- \
	--context 32768 --format fp8 --tensor-parallel 8 --engine vllm
run gpt-oss-20b gpt-oss-20b 13761264768 3224371200 1 -- --context 131072 --engine vllm
run qwen2.5-vl qwen2.5-vl-7b-instruct 16584333312 2153381888 1 -- \
	--context 32768 --images 1280x720x4 --engine vllm
run medgemma medgemma-27b-it 54864813280 1150550016 1 -- \
	--context 8192 --images 1280x720x2 --engine vllm
grep -q 'pools it into 256 tokens.*at most 260 tokens an image.*520 image tokens in all' \
	medgemma.json || err "medgemma: the notes do not give Gemma 3's image rule"
# pan and scan on: its crops' sentence needs the tokenizer, refused by name
cp -R "$m/medgemma-27b-it" "$scratch/mg-pas" || die "copy"
echo '{"do_pan_and_scan": true}' >"$scratch/mg-pas/preprocessor_config.json"
if "$bin" init --model mg-pas --context 8192 --images 1280x720 --out pas.json >/dev/null 2>"$scratch/log"; then
	err "init with pan and scan on succeeded"
else
	grep -q 'do_pan_and_scan is true' "$scratch/log" || { cat "$scratch/log"; err "pan and scan not named"; }
	[ ! -e pas.json ] || err "init with pan and scan on wrote its workload"
fi
# DeepSeek-R1 as its config.json's torch_dtype says (bf16, 1,342,052,838,400 B), no
# placement: no offer holds it, and the lever names the real formats with
# their bytes: fp8 673,150,582,112 B = 626.92 GiB, awq-int4 351,522,112,256 B
# = 327.38 GiB (tests/data/models/README.md)
cp -R "$m/deepseek-r1" "$scratch/ds16" || die "copy"
"$bin" init --model ds16 --context 32768 --out ds16.json >/dev/null 2>"$scratch/log" ||
	{ cat "$scratch/log"; err "init ds16 failed"; }
"$bin" sheet ds16.json --out out-ds16 --date 2026-11-29 >/dev/null 2>"$scratch/log" ||
	{ cat "$scratch/log"; err "sheet ds16 failed"; }
grep -q '^\*\*What to change:\*\* the weights dominate.* fp8: 626.92 GiB, .* awq-int4: 327.38 GiB, .*by its format.s rule' \
	out-ds16/ds16.md || err "the lever does not name the real formats with their bytes"
finish "modern-answers: an offer to take for DeepSeek-R1, gpt-oss-20b, Qwen2.5-VL-7B and MedGemma-27B"
