#!/bin/sh
# site-kill: `gpusheet site` killed with SIGKILL at random moments over an
# existing site leaves the complete old site or the complete new one, never
# a mix (finding D9). The builds alternate between English and Spanish so
# that a mix would show: after each kill OUT must verify and equal, byte for
# byte, one of the two reference builds. At least 30 kills must land while
# `site` runs; leftover stages of killed runs are removed by the next run.
#
#   sh site-kill.sh GPUSHEET_BIN SOURCE_DIR SCRATCH_DIR
set -u
bin=$1 src=$2 scratch=$3
. "$src/tests/lib/common.sh"
KILLS=30
out=$scratch/site

build() { # build LANG OUT
	(cd "$src" && "$bin" site --catalog offers.xml --workloads examples --out "$2" --lang "$1" --date "$SITE_DATE") \
		>"$scratch/build.log" 2>&1 || { cat "$scratch/build.log"; die "site --lang $1 failed"; }
}
ms() { # milliseconds since the epoch
	date +%s%3N
}

# The build time, the shorter of the two reference builds; on a machine
# whose load changes, it is shortened again each time a run ends before its
# kill (else the kills would land after the end of most runs).
t0=$(ms)
build en "$scratch/ref-en"
t1=$(ms)
build es "$scratch/ref-es"
t2=$(ms)
dur=$((t1 - t0))
[ $((t2 - t1)) -ge "$dur" ] || dur=$((t2 - t1))
[ "$dur" -gt 0 ] || dur=1
echo "one build takes about $dur ms; kills land uniformly in [0, $((dur + dur / 4))] ms"
build en "$out"

killed=0 tries=0 lang=es
while [ "$killed" -lt "$KILLS" ] && [ "$tries" -lt $((KILLS * 3)) ]; do
	tries=$((tries + 1))
	r=$(od -An -N2 -tu2 /dev/urandom | tr -d ' ')
	delay=$((r % (dur + dur / 4 + 1)))
	(cd "$src" && exec "$bin" site --catalog offers.xml --workloads examples --out "$out" --lang "$lang" --date "$SITE_DATE") \
		>/dev/null 2>&1 &
	pid=$!
	sleep "$(printf '%d.%03d' $((delay / 1000)) $((delay % 1000)))"
	kill -KILL "$pid" 2>/dev/null
	wait "$pid"
	status=$?
	if [ "$status" -eq 137 ]; then
		killed=$((killed + 1))
	elif [ "$dur" -gt 20 ]; then
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
		die "try $tries (kill after $delay ms, exit $status): OUT is neither the old nor the new site"
	fi
	# the next build switches language, so that a mix would show
	if [ "$now" = en ]; then lang=es; else lang=en; fi
done
[ "$killed" -ge "$KILLS" ] || die "only $killed of $tries runs were killed while running"
echo "ok: $killed of $killed kills left a complete site that verifies ($tries runs)"

# A run that completes removes the stages of the killed ones.
build en "$out"
left=$(ls -a "$scratch" | grep -c -e '\.gs-staging-' -e '\.gs-old-')
[ "$left" -eq 0 ] || { ls -a "$scratch"; err "$left stage folder(s) left after a complete build"; }
diff -r "$out" "$scratch/ref-en" >/dev/null || err "the final build differs from the reference"
finish "ok: no stage left after a complete build"
