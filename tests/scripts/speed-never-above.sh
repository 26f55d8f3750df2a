#!/bin/sh
# Never above the bound: every published speed figure kept in tests/data/
# and examples/ as a workload's evidence (a benchmark imported with
# `evidence import --from llama-bench | vllm-bench`, citing its source)
# lies below the calculated upper bound the sheet computes for it.
# Usage: speed-never-above.sh GPUSHEET SOURCE_DIR SCRATCH_DIR
#
# Each such workload is rendered with `gpusheet sheet`, and every observed
# member of its decision JSON's "speeds" rows (observed_per_sequence,
# observed_total) is printed with its bound and ratio and checked:
#  - above_bound is false, and the figure below its bound (milli < bound_milli);
#  - ratio_milli is milli x 1000 / bound_milli, rounded down;
#  - provenance is "observed", and the figure names its evidence file and source.
# The one exception, on purpose: tests/data/sheet/speed-observed-above
# states a 9B model for a run of a 7B one; its figure must be above its
# bound (above_bound true), which proves the check can fail.
# The raw published logs of tests/data/speedlog/ are kept below their bound
# by unit/test_speedlog (worked by hand there).
set -u
bin=$1 src=$2 scratch=$3
. "$src/tests/lib/common.sh"
need python3 "apt-get install python3"
cd "$src" || exit 1

checked=0
for m in $(grep -rlE '"from": "(llama-bench|vllm-bench)"' tests/data/sheet examples --include='*.json' | sort); do
	dir=${m%/measurements/*}
	[ -f "$dir/workload.json" ] || continue
	echo "$dir"
done | sort -u > "$scratch/workloads"
[ -s "$scratch/workloads" ] || die "no workload with an imported speed benchmark found"

while IFS= read -r dir; do
	id=$(basename "$dir")
	out="$scratch/$id"
	mkdir -p "$out"
	"$bin" sheet "$dir/workload.json" --out "$out" --date 2026-11-29 --catalog offers.xml \
		> "$out/stdout" 2> "$out/stderr" || { err "$dir: gpusheet sheet failed: $(cat "$out/stderr")"; continue; }
	want_above=0
	[ "$id" = speed-observed-above ] && want_above=1
	n=$(python3 - "$out/$id.json" "$id" "$want_above" <<'EOF'
import json, sys
path, wid, want_above = sys.argv[1], sys.argv[2], sys.argv[3] == "1"
d = json.load(open(path))
f = d["speed_fields"]
n = bad = 0
for row in d["speeds"]:
    r = dict(zip(f, row))
    for kind in ("observed_per_sequence", "observed_total"):
        o = r.get(kind)
        if o is None:
            continue
        n += 1
        ratio = o["milli"] * 1000 // o["bound_milli"]
        print("%s %s: published %s tokens/s (%s, line %d of its log; %s), bound %d.%03d, ratio %d.%03d%s"
              % (wid, kind, o["as_printed"], o["evidence"], o["line"], o["source"],
                 o["bound_milli"] // 1000, o["bound_milli"] % 1000, ratio // 1000, ratio % 1000,
                 ", ABOVE" if o["above_bound"] else ""), file=sys.stderr)
        if o["ratio_milli"] != ratio or o["provenance"] != "observed" or not o["evidence"] or not o["source"]:
            print("FAIL: %s %s: ratio, provenance, evidence or source wrong: %r" % (wid, kind, o), file=sys.stderr)
            bad += 1
        if o["above_bound"] != want_above or (not want_above and o["milli"] >= o["bound_milli"]):
            print("FAIL: %s %s: above_bound %s, expected %s" % (wid, kind, o["above_bound"], want_above), file=sys.stderr)
            bad += 1
print(-1 if bad else n)
EOF
)
	case $n in
	-1|'') err "$dir: a published figure against its bound (above)" ;;
	0) err "$dir: its evidence holds a benchmark but the decision JSON shows no observed speed" ;;
	*) checked=$((checked + n)) ;;
	esac
done < "$scratch/workloads"

[ "$checked" -ge 3 ] || err "only $checked published figure(s) checked, expected at least 3"
finish "$checked published speed figure(s) checked against their bound"
