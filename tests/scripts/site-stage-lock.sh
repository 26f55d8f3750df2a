#!/bin/sh
# site-stage-lock: the lock of a site's stage belongs to the run's own
# process, never to its workers. A worker forked with the stage folder's
# locked descriptor shares the lock (flock belongs to the open file), so a
# run killed while its workers were still dying left a stage that looked
# live to the next run, which kept it: site-kill.sh saw a stage left after
# a complete build. Here the workers of `site -j 2` are watched while they
# run: none may hold a descriptor of the stage folder itself (beyond the
# instant between the fork and its child handler, outfile.c).
#
#   sh site-stage-lock.sh GPUSHEET_BIN SOURCE_DIR SCRATCH_DIR
set -u
bin=$1 src=$2 scratch=$3
. "$src/tests/lib/common.sh"
need python3 "apt-get install python3"
[ -d /proc/self/fd ] || skip "no /proc"

python3 "$src/bench/gen_workloads.py" --workloads 60 --offers 50 "$scratch/in" >/dev/null ||
	die "gen_workloads.py failed"
out=$scratch/site
watched=0 held=
for round in 1 2 3; do
	rm -rf "$out"
	"$bin" site --workloads "$scratch/in/workloads" --catalog "$scratch/in/offers.xml" \
		--out "$out" -j 2 --date 2026-11-29 >"$scratch/log" 2>&1 &
	pid=$!
	while kill -0 "$pid" 2>/dev/null; do
		kids=$(cat "/proc/$pid/task/$pid/children" 2>/dev/null) || kids=
		for k in $kids; do
			for f in /proc/"$k"/fd/*; do
				l=$(readlink "$f" 2>/dev/null) || continue
				watched=1
				case "$l" in
				*/.site.gs-staging-??????)
					# A forked worker has its parent's descriptors until
					# fork's child handler drops the stage's (outfile.c,
					# pthread_atfork): a look in that instant sees it. Held
					# a tenth of a second later, it is held for good.
					sleep 0.1
					l2=$(readlink "$f" 2>/dev/null) || continue
					[ "$l2" = "$l" ] && held="worker $k holds $l" ;;
				esac
			done
		done
		[ -z "$held" ] || break
	done
	wait "$pid" || { cat "$scratch/log"; die "site failed"; }
	[ -z "$held" ] || break
done
[ -z "$held" ] || err "$held (the stage's lock would outlive a killed run)"
[ "$watched" -eq 1 ] || echo "note: no worker was seen running (a fast machine); nothing checked"
finish "ok: no worker holds the stage folder"
