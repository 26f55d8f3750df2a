#!/bin/sh
# log-many-starts: a log of thousands of engine starts (a real vLLM start-up
# log, 8 lines, printed 3,000 times) is read in one pass: without --start
# it is refused in one line that lists the first 20 starts with their lines
# and then the count; --start N works for any N up to the last, its figures
# citing that start's lines; --start past the last is refused. Each in a
# few seconds and a few lines of output (each start is held alone against
# the bounds of a measurement, never all of them together).
#
#   sh log-many-starts.sh GPUSHEET_BIN SOURCE_DIR SCRATCH_DIR
set -u
bin=$1 src=$2 scratch=$3
. "$src/tests/lib/common.sh"
need timeout "coreutils"
log=$src/tests/data/evidence-logs/vllm-10_v1_l40s_pr17122.log
N=3000
per=$(wc -l <"$log")
# 4,096 copies by doubling, the first N of them kept
cp "$log" "$scratch/d.log" || die "cannot copy the log"
for i in 1 2 3 4 5 6 7 8 9 10 11 12; do
	cat "$scratch/d.log" "$scratch/d.log" >"$scratch/d2.log" && mv "$scratch/d2.log" "$scratch/d.log" ||
		die "cannot write the log"
done
head -n $((N * per)) "$scratch/d.log" >"$scratch/big.log" || die "cannot write the log"
imp() { # imp OUT [OPTION...]
	i_out=$1
	shift
	(cd "$scratch" && timeout 60 "$bin" evidence import --from vllm big.log --source "a test" \
		--gpu "NVIDIA L40S" --out "$i_out" "$@") >"$scratch/out.txt" 2>"$scratch/err.txt"
}

imp all.json
[ $? -eq 1 ] || { cat "$scratch/err.txt"; err "$N starts, no --start: not refused"; }
[ "$(wc -l <"$scratch/err.txt")" -eq 1 ] || { head "$scratch/err.txt"; err "$N starts: the refusal is $(wc -l <"$scratch/err.txt") lines, want 1"; }
grep -q "the log holds $N starts of the engine (at lines 5, 13, 21, .*, 157 and $((N - 20)) more): choose one with --start N" \
	"$scratch/err.txt" || { cut -c1-300 "$scratch/err.txt"; err "$N starts: the refusal does not list 20 starts then the count"; }

for k in 1 141 1500 $N; do
	imp "start-$k.json" --start "$k" || { cut -c1-300 "$scratch/err.txt"; err "--start $k: refused"; continue; }
	first=$(( (k - 1) * per + 1 ))
	last=$(( k * per ))
	lines=$(sed -n 's/^ *"line": \([0-9]*\),*$/\1/p' "$scratch/start-$k.json" | sort -n -u | tr '\n' ' ')
	[ -n "$lines" ] || err "--start $k: no figure cites a line"
	for l in $lines; do
		[ "$l" -ge "$first" ] && [ "$l" -le "$last" ] || err "--start $k: a figure cites line $l, outside lines $first to $last"
	done
	grep -q "\"start\": $k," "$scratch/start-$k.json" || err "--start $k: the measurement does not say start $k"
done
echo "ok: --start 1, 141, 1500 and $N of $N starts read"
imp past.json --start $((N + 1))
[ $? -eq 1 ] && grep -q -- "--start $((N + 1)): the log holds $N starts" "$scratch/err.txt" ||
	{ cut -c1-300 "$scratch/err.txt"; err "--start past the last: not refused so"; }
finish "ok: a log of $N starts read in one pass, any start chosen, the refusal short"
