#!/bin/sh
# sheet-kill: a lone `gpusheet sheet` killed with SIGKILL at random moments
# over a folder holding an older sheet leaves the complete old folder or the
# complete new one, never a mix: the folder is built in a stage and swapped
# in whole (outfile.h). The runs alternate between English and Spanish so
# that a mix would show; the folder also holds another workload's sheet and
# evidence, which must stay as they were. After each kill OUT must verify
# and equal, byte for byte, one of the two reference folders. At least 30
# kills must land while `sheet` runs.
#
#   sh sheet-kill.sh GPUSHEET_BIN SOURCE_DIR SCRATCH_DIR
set -u
bin=$1 src=$2 scratch=$3
. "$src/tests/lib/common.sh"
KILLS=30
out=$scratch/out

sheet() { # sheet LANG OUT WORKLOAD
	(cd "$src" && "$bin" sheet --catalog offers.xml "examples/$3/workload.json" --out "$2" --lang "$1" --date "$SITE_DATE") \
		>"$scratch/build.log" 2>&1 || { cat "$scratch/build.log"; die "sheet --lang $1 failed"; }
}
ms() { date +%s%3N; }

# the folder before: another workload's sheet, then probe-dense's in each language
sheet en "$scratch/base" context-sweep
cp -a "$scratch/base" "$scratch/ref-en" && cp -a "$scratch/base" "$scratch/ref-es" || die "cp"
t0=$(ms)
sheet en "$scratch/ref-en" probe-dense
t1=$(ms)
sheet es "$scratch/ref-es" probe-dense
t2=$(ms)
dur=$((t1 - t0))
[ $((t2 - t1)) -ge "$dur" ] || dur=$((t2 - t1))
[ "$dur" -gt 0 ] || dur=1
echo "one sheet takes about $dur ms; kills land uniformly in [0, $((dur + dur / 4))] ms"
cp -a "$scratch/ref-en" "$out" || die "cp"

killed=0 tries=0 lang=es
while [ "$killed" -lt "$KILLS" ] && [ "$tries" -lt $((KILLS * 4)) ]; do
	tries=$((tries + 1))
	r=$(od -An -N2 -tu2 /dev/urandom | tr -d ' ')
	delay=$((r % (dur + dur / 4 + 1)))
	(cd "$src" && exec "$bin" sheet --catalog offers.xml examples/probe-dense/workload.json --out "$out" --lang "$lang" \
		--date "$SITE_DATE") >/dev/null 2>&1 &
	pid=$!
	sleep "$(printf '%d.%03d' $((delay / 1000)) $((delay % 1000)))"
	kill -KILL "$pid" 2>/dev/null
	wait "$pid"
	status=$?
	if [ "$status" -eq 137 ]; then
		killed=$((killed + 1))
	elif [ "$dur" -gt 10 ]; then
		dur=$((dur * 3 / 4))
	fi
	if ! "$bin" verify "$out" >"$scratch/verify.txt" 2>&1; then
		head -n 20 "$scratch/verify.txt"
		die "try $tries (kill after $delay ms, exit $status): verify rejects OUT"
	fi
	if diff -r "$out" "$scratch/ref-en" >/dev/null 2>&1; then
		now=en
	elif diff -r "$out" "$scratch/ref-es" >/dev/null 2>&1; then
		now=es
	else
		diff -rq "$out" "$scratch/ref-en" | head -n 10
		die "try $tries (kill after $delay ms, exit $status): OUT is neither the old nor the new sheet"
	fi
	if [ "$now" = en ]; then lang=es; else lang=en; fi
done
[ "$killed" -ge "$KILLS" ] || die "only $killed of $tries runs were killed while running"
echo "ok: $killed of $killed kills left a complete folder that verifies ($tries runs)"

# a run that completes removes the stages of the killed ones
sheet en "$out" probe-dense
left=$(ls -a "$scratch" | grep -c -e '\.gs-staging-' -e '\.gs-old-')
[ "$left" -eq 0 ] || { ls -a "$scratch"; err "$left stage folder(s) left after a complete run"; }
diff -r "$out" "$scratch/ref-en" >/dev/null || err "the final run differs from the reference"

# a folder that is not only sheets is refused, naming what it holds, and left as it was
mkdir -p "$scratch/mixed/notes" && cp -a "$scratch/ref-en/." "$scratch/mixed/" || die "mixed"
(cd "$src" && "$bin" sheet --catalog offers.xml examples/probe-dense/workload.json --out "$scratch/mixed" --lang es \
	--date "$SITE_DATE") >"$scratch/log" 2>&1 && err "a folder holding another folder was replaced"
grep -q "mixed/notes: a folder, which a sheet does not write" "$scratch/log" ||
	{ cat "$scratch/log"; err "the refusal does not name the folder"; }
[ -d "$scratch/mixed/notes" ] || err "the refused folder lost its contents"
finish "ok: a killed lone sheet leaves the old folder or the new one"
