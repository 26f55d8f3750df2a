#!/bin/sh
# out-lock: two runs into one output folder never lose a sheet nor leave a
# stat cache that lies (base/outlock.h).
#  - two `sheet` runs of different workloads into one folder at once, with
#    --wait: both sheets are there, every time; without --wait: a run that
#    exits 0 has its sheet there, a refused one says who holds the lock;
#  - two `site` runs of different workload sets into one OUT at once, with
#    --wait: both exit 0, OUT is one of the two sites whole, and the next
#    build of either set gives that set's site (the stat cache describes
#    OUT: never "nothing written" over the other set's site);
#  - a lock left by a dead process is taken over; one held by a live
#    process refuses without --wait, and with it waits until that process
#    ends.
# GS_TRIALS (default 20): the trials of each race.
#
#   sh out-lock.sh GPUSHEET_BIN SOURCE_DIR SCRATCH_DIR
set -u
bin=$1 src=$2 scratch=$3
. "$src/tests/lib/common.sh"
need timeout "coreutils"
TRIALS=${GS_TRIALS:-20}
LIMIT=120
ex=$src/examples
common="--accept-synthetic --date 2026-11-29"

# --- two sheets at once, --wait
i=0
while [ "$i" -lt "$TRIALS" ]; do
	o=$scratch/sheets-$i
	timeout "$LIMIT" "$bin" sheet "$ex/lora-adapt/workload.json" --out "$o" $common --wait \
		>"$scratch/a.txt" 2>&1 &
	pa=$!
	timeout "$LIMIT" "$bin" sheet "$ex/seed-7b/workload.json" --out "$o" $common --wait \
		>"$scratch/b.txt" 2>&1
	rb=$?
	wait "$pa"
	ra=$?
	[ "$ra" -eq 0 ] && [ "$rb" -eq 0 ] || { cat "$scratch/a.txt" "$scratch/b.txt"; err "sheets, trial $i: exit $ra and $rb"; }
	[ -f "$o/lora-adapt.html" ] && [ -f "$o/seed-7b.html" ] || { ls "$o"; err "sheets, trial $i: a sheet was lost"; }
	[ ! -e "$scratch/.sheets-$i.gpusheet-lock" ] || err "sheets, trial $i: the lock was left"
	rm -rf "$o"
	i=$((i + 1))
done
echo "ok: two sheet runs at once with --wait, $TRIALS trials: both sheets kept"

# --- two sheets at once, no --wait: a refusal is said, a success is kept
i=0 refused=0
while [ "$i" -lt "$TRIALS" ]; do
	o=$scratch/sheets-$i
	"$bin" sheet "$ex/lora-adapt/workload.json" --out "$o" $common >"$scratch/a.txt" 2>&1 &
	pa=$!
	"$bin" sheet "$ex/seed-7b/workload.json" --out "$o" $common >"$scratch/b.txt" 2>&1
	rb=$?
	wait "$pa"
	ra=$?
	for r in "a $ra lora-adapt" "b $rb seed-7b"; do
		set -- $r
		if [ "$2" -eq 0 ]; then
			[ -f "$o/$3.html" ] || err "sheets without --wait, trial $i: $3 exited 0 and its sheet is lost"
		elif [ "$2" -eq 1 ]; then
			grep -q "another gpusheet run (pid [0-9]*) is writing it" "$scratch/$1.txt" ||
				{ cat "$scratch/$1.txt"; err "sheets without --wait, trial $i: $3 refused without saying why"; }
			refused=$((refused + 1))
		else
			err "sheets without --wait, trial $i: $3 exit $2"
		fi
	done
	rm -rf "$o"
	i=$((i + 1))
done
echo "ok: two sheet runs at once without --wait, $TRIALS trials: $refused refused with the holder named, no sheet lost"

# --- two sites at once, --wait; then each set rebuilt: its own site
mkdir -p "$scratch/A" "$scratch/B" && cp -R "$ex/lora-adapt" "$ex/seed-7b" "$scratch/A/" &&
	cp -R "$ex/context-sweep" "$scratch/B/" || die "cannot copy the examples"
site() { # site SET OUT [OPTION...]
	s_set=$1 s_out=$2
	shift 2
	timeout "$LIMIT" "$bin" site --workloads "$scratch/$s_set" --out "$s_out" $common "$@"
}
sheets_of() { # the sheets' ids in OUT, one line
	ls "$1/sheets" 2>/dev/null | sed -n 's/\.html$//p' | grep -v '^index' | LC_ALL=C sort | tr '\n' ' '
}
want_A="lora-adapt seed-7b " want_B="context-sweep "
i=0
while [ "$i" -lt "$TRIALS" ]; do
	o=$scratch/site
	site A "$o" --wait >"$scratch/a.txt" 2>&1 &
	pa=$!
	site B "$o" --wait >"$scratch/b.txt" 2>&1
	rb=$?
	wait "$pa"
	ra=$?
	[ "$ra" -eq 0 ] && [ "$rb" -eq 0 ] || { cat "$scratch/a.txt" "$scratch/b.txt"; err "sites, trial $i: exit $ra and $rb"; }
	got=$(sheets_of "$o")
	[ "$got" = "$want_A" ] || [ "$got" = "$want_B" ] || err "sites, trial $i: OUT holds the sheets $got"
	# the next build of the other set, then of the first: each its own site
	for set in A B; do
		site "$set" "$o" --stats >"$scratch/c.txt" 2>&1 || { cat "$scratch/c.txt"; err "sites, trial $i: the build of $set failed"; }
		got=$(sheets_of "$o")
		eval "want=\$want_$set"
		[ "$got" = "$want" ] || { cat "$scratch/c.txt"; err "sites, trial $i: the build of $set left $got (a stat cache describing the other site)"; }
	done
	i=$((i + 1))
done
echo "ok: two site runs at once with --wait, $TRIALS trials: OUT one site whole, its stat cache true"

# --- a stale lock (a dead process's) is taken over
o=$scratch/stale
sh -c 'exit 0' &
dead=$!
wait "$dead"
printf 'gpusheet-lock %s 1\n' "$dead" >"$scratch/.stale.gpusheet-lock"
"$bin" sheet "$ex/seed-7b/workload.json" --out "$o" $common >"$scratch/a.txt" 2>&1 ||
	{ cat "$scratch/a.txt"; err "a stale lock was not taken over"; }
[ ! -e "$scratch/.stale.gpusheet-lock" ] || err "the stale lock is still there"
# what a run killed between creating its lock and writing it leaves: empty,
# or the lock's text cut before its newline; taken over (both are written
# under the folder's flock, so no live run is ever seen half-way)
for cut in '' 'gpusheet-lock' "gpusheet-lock $dead"; do
	printf '%s' "$cut" >"$scratch/.stale.gpusheet-lock"
	"$bin" sheet "$ex/seed-7b/workload.json" --out "$o" $common >"$scratch/a.txt" 2>&1 ||
		{ cat "$scratch/a.txt"; err "a lock cut to '$cut' was not taken over"; }
	[ ! -e "$scratch/.stale.gpusheet-lock" ] || err "the cut lock '$cut' is still there"
done
# other text: refused, kept
printf 'not a lock\n' >"$scratch/.stale.gpusheet-lock"
"$bin" sheet "$ex/seed-7b/workload.json" --out "$o" $common >"$scratch/a.txt" 2>&1
[ $? -eq 1 ] && grep -q "not a lock gpusheet wrote" "$scratch/a.txt" ||
	{ cat "$scratch/a.txt"; err "a lock of other text: not refused"; }
rm -f "$scratch/.stale.gpusheet-lock"
# a live holder: refused, or waited for with --wait
sleep 30 &
live=$!
start=$(sed 's/.*) //' "/proc/$live/stat" 2>/dev/null | cut -d' ' -f20)
printf 'gpusheet-lock %s %s\n' "$live" "${start:-0}" >"$scratch/.stale.gpusheet-lock"
"$bin" sheet "$ex/seed-7b/workload.json" --out "$o" $common >"$scratch/a.txt" 2>&1
[ $? -eq 1 ] && grep -q "another gpusheet run (pid $live) is writing it" "$scratch/a.txt" ||
	{ cat "$scratch/a.txt"; err "a live lock: not refused with its pid"; }
( sleep 2; kill "$live" ) &
t0=$(date +%s)
"$bin" sheet "$ex/seed-7b/workload.json" --out "$o" $common --wait >"$scratch/a.txt" 2>&1 ||
	{ cat "$scratch/a.txt"; err "--wait: the run failed after the holder ended"; }
t1=$(date +%s)
grep -q "waiting for it to end" "$scratch/a.txt" || { cat "$scratch/a.txt"; err "--wait: no message"; }
[ $((t1 - t0)) -ge 1 ] || err "--wait: did not wait"
wait
finish "ok: one run at a time per output folder"
