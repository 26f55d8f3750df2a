#!/bin/sh
# site-memory: the peak memory of `gpusheet site` (parent and workers), of a
# shard, of `merge` and of a rebuild that reuses every sheet does not grow
# with the number of workloads (issue 11: each result is spooled to a file
# as it completes and read back a page at a time, site.h and
# site_results.h, and so is what the validation learns of each workload,
# site_learnt.h; what stays per workload is its path, its id and a few
# offsets: about 0.15 KB in a release build).
#
# Builds SMALL and LARGE = 4 x SMALL generated workloads x 50 offers
# (bench/gen_workloads.py) the same way: shard 1/2 with -j 1 and shard 2/2
# with -j 2 (the one-process and the worker paths), `merge` of the two, then
# `site -j 1` over the merged site (a rebuild: every sheet reused through
# the keys file), and checks for each step that LARGE's peak RSS (wait4 of
# the command, through tests/lib/peakrss.c: the largest of the process and
# its workers) is at most MARGIN above SMALL's. SMALL is two full pages of
# workloads (200), so that a page's buffers are as large at both sizes and
# what remains is what grows per workload. From 200 to 800 workloads under
# AddressSanitizer: before the spool (~80 KB a workload) that was ~47 MiB;
# with the results in memory (~1.5 KB a workload in a release build) 0.65
# to 1.6 MiB (shard 2/2, the merge and the rebuild fail the margin); now
# 0.1 to 0.4 MiB. Then `site -j 1` and `-j 2` over SMALL and VLARGE = 64 x
# SMALL workloads whose first is invalid: every workload is read and
# validated, none rendered, so that what the validation keeps of each is
# not hidden under a sheet's buffers; each peak (the smaller of two runs)
# may grow by at most 3,400 KiB (~0.27 KB a workload): under
# AddressSanitizer it grew by 4.2-4.9 MiB (-j 1 and -j 2) with what was
# learnt kept in an array (main at 1fa68dd, which fails it), by 2.3-2.5 MiB
# with it spooled. These runs are made from the scratch folder, so that
# the paths kept (a workload's path stays in memory) are as long wherever
# it lies. The four steps of run() take absolute paths, whose length is
# the checkout's: a site keeps each workload's path once (end to end in one
# block, site_find.c), by design, so their margin is MARGIN_KB plus one
# path per workload added (LARGE - SMALL of them, at the length of this
# run's paths): from a checkout 30 folders deep (paths of ~600 bytes) that
# is ~350 KiB more. Any other copy kept per workload still fails it: the
# stat cache built in memory and the list of paths found, copied into the
# block at the end, grew the rebuild's peak by 2,072 KiB there; 668 now.
# Not a timed test: the margins are in bytes.
# Under AddressSanitizer freed memory sits in a quarantine that grows with
# every allocation made, live or not, so the quarantine is turned off for
# these runs (ASAN_OPTIONS, ignored by other builds), and so is the leak
# check at exit: it was the peak of every run (~30 MiB, against ~18 MiB
# without it), which hid what grew under it. Also checks that the
# merged site equals the rebuilt one, and that the keys file is a line per
# page and per sheet, each the sorted compact dump of itself but for
# "sheet" first, the pages sorted by name and the sheets by id
# (docs/formats.md, section 6).
# Override the sizes with SITE_MEMORY_N (the small one) and
# SITE_MEMORY_FACTOR (the large one is that many times it, 4).
#
#   sh site-memory.sh GPUSHEET_BIN SOURCE_DIR SCRATCH_DIR
set -u
bin=$1 src=$2 scratch=$3
. "$src/tests/lib/common.sh"
need python3 "sh tools/install-deps.sh --test"
SMALL=${SITE_MEMORY_N:-200}
LARGE=$((SMALL * ${SITE_MEMORY_FACTOR:-4}))
MARGIN_KB=768    # ~1.3 KB a workload (600 of them)
VLARGE=$((SMALL * 64))
VMARGIN_KB=3400  # ~0.27 KB a workload (12,600 of them)
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=0:thread_local_quarantine_size_kb=0:detect_leaks=0
export ASAN_OPTIONS

# The peaks are measured by tests/lib/peakrss.c, a small process the
# command is forked from (ctest gives its path in GS_PEAKRSS; by hand it is
# built here): a peak measured from Python is never below Python's own.
peakrss=${GS_PEAKRSS:-}
if [ -z "$peakrss" ]; then
	have cc || skip "GS_PEAKRSS is not set (ctest sets it) and there is no cc to build tests/lib/peakrss.c"
	cc -O2 -o "$scratch/peakrss" "$src/tests/lib/peakrss.c" || die "cannot build tests/lib/peakrss.c"
	peakrss=$scratch/peakrss
fi
# absolute, for the runs made from the scratch folder (validate; common.sh
# makes bin, src and scratch absolute)
case $peakrss in /*) ;; *) peakrss=$PWD/$peakrss ;; esac

# peak_kb LOG CMD...: runs CMD, prints its peak RSS in KiB (largest of it and
# its waited-for descendants); its output goes to LOG; dies when it fails.
peak_kb() {
	p_log=$1
	shift
	"$peakrss" "$scratch/peak.kb" "$@" >"$p_log" 2>&1 || { cat "$p_log"; die "$* failed"; }
	cat "$scratch/peak.kb"
}

# run N: the four steps over N workloads; sets shard1_kb shard2_kb merge_kb rebuild_kb.
run() {
	n=$1
	in=$scratch/in$n
	python3 "$src/bench/gen_workloads.py" "$in" --workloads "$n" --offers 50 >/dev/null ||
		die "gen_workloads.py failed for $n workloads"
	set -- --workloads "$in/workloads" --catalog "$in/offers.xml" --date "$SITE_DATE" --accept-synthetic
	shard1_kb=$(peak_kb "$scratch/shard1-$n.log" "$bin" site "$@" --out "$scratch/s1-$n" --shard 1/2 -j 1) || exit 1
	shard2_kb=$(peak_kb "$scratch/shard2-$n.log" "$bin" site "$@" --out "$scratch/s2-$n" --shard 2/2 -j 2) || exit 1
	merge_kb=$(peak_kb "$scratch/merge-$n.log" "$bin" merge "$scratch/m-$n" "$scratch/s1-$n" "$scratch/s2-$n" \
		--catalog "$in/offers.xml" --date "$SITE_DATE" --accept-synthetic) || exit 1
	cp -R "$scratch/m-$n" "$scratch/r-$n"
	rebuild_kb=$(peak_kb "$scratch/rebuild-$n.log" "$bin" site "$@" --out "$scratch/r-$n" -j 1) || exit 1
	diff -r "$scratch/m-$n" "$scratch/r-$n" >/dev/null || err "N=$n: the rebuild differs from the merged site"
	python3 -c '
import json, sys
raw = open(sys.argv[1], encoding="utf-8").read()
def dump(v):
    return json.dumps(v, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
lines = raw.split("\n")
if lines.pop() != "":
    sys.exit(1)
pages, sheets = [], []
for line in lines[1:]:
    o = json.loads(line)
    if "page" in o and not sheets:
        pages.append((o["page"], "{\"page\":" + dump(o["page"]) + ",\"key\":" + dump(o["key"]) + "}"))
    else:
        sid = o.pop("sheet")
        sheets.append((sid, "{\"sheet\":" + dump(sid) + "," + dump(o)[1:]))
again = ["{\"format\":\"gpusheet-keys/4\"}"] + [x for _, x in sorted(pages)] + [x for _, x in sorted(sheets)]
sys.exit(0 if lines == again and len(set(i for i, _ in sheets)) == len(sheets) else 1)
' "$scratch/m-$n/.gpusheet-keys.json" || err "N=$n: the keys file is not a line per page and per sheet, each its own sorted compact dump"
	echo "N=$n: peak RSS, KiB: shard 1/2 -j 1 $shard1_kb, shard 2/2 -j 2 $shard2_kb, merge $merge_kb, rebuild $rebuild_kb"
}

# the margin of run()'s steps: MARGIN_KB and one path per workload added
plen=$(printf '%s' "$scratch/in$LARGE/workloads/w00000/workload.json" | wc -c)
MARGIN_KB=$((MARGIN_KB + (LARGE - SMALL) * plen / 1024))
echo "margin of the four steps: $MARGIN_KB KiB (paths of $plen bytes)"

# check STEP SMALL_KB LARGE_KB
check() {
	[ "$3" -le $(($2 + MARGIN_KB)) ] ||
		err "$1: peak RSS grows from $2 KiB ($SMALL workloads) to $3 KiB ($LARGE workloads), more than $MARGIN_KB KiB"
}

# validate N: site -j 1 and -j 2 over N workloads whose first has an error
# (its id a number): every workload is read and validated, none rendered,
# nothing written; sets val1_kb val2_kb, each the smaller peak of two runs
# (a run's peak moves by up to ~0.5 MiB under AddressSanitizer, with the
# load). What the validation learns of each workload is all that grows
# here, without a sheet's or a page's buffers to hide it under.
validate() {
	n=$1
	in=$scratch/v$n
	python3 "$src/bench/gen_workloads.py" "$in" --workloads "$n" --offers 50 >/dev/null ||
		die "gen_workloads.py failed for $n workloads"
	sed -i 's/"id": "w00000"/"id": 7/' "$in/workloads/w00000/workload.json"
	for j in 1 2; do
		best=
		for try in 1 2; do
			# (from the scratch folder: the paths kept are as long wherever it is)
			(cd "$scratch" && "$peakrss" peak.kb "$bin" site --workloads "v$n/workloads" \
				--catalog "v$n/offers.xml" --date "$SITE_DATE" --accept-synthetic \
				--out "vo-$n" -j "$j") >"$scratch/val-$n.log" 2>&1
			st=$?
			[ "$st" -eq 1 ] && grep -q 'w00000/workload.json' "$scratch/val-$n.log" ||
				{ cat "$scratch/val-$n.log"; die "N=$n -j $j: exit $st, expected 1 naming w00000"; }
			[ ! -e "$scratch/vo-$n" ] || die "N=$n -j $j: an invalid set wrote OUT"
			kb=$(cat "$scratch/peak.kb")
			[ -n "$best" ] && [ "$best" -le "$kb" ] || best=$kb
		done
		eval "val${j}_kb=\$best"
	done
	echo "N=$n, the first workload invalid: peak RSS, KiB (the smaller of two runs): -j 1 $val1_kb, -j 2 $val2_kb"
}

run "$SMALL"
a1=$shard1_kb a2=$shard2_kb am=$merge_kb ar=$rebuild_kb
run "$LARGE"
check "shard 1/2 -j 1" "$a1" "$shard1_kb"
check "shard 2/2 -j 2" "$a2" "$shard2_kb"
check "merge" "$am" "$merge_kb"
check "rebuild -j 1" "$ar" "$rebuild_kb"

validate "$SMALL"
v1=$val1_kb v2=$val2_kb
validate "$VLARGE"
vcheck() { # vcheck STEP SMALL_KB LARGE_KB
	[ "$3" -le $(($2 + VMARGIN_KB)) ] ||
		err "$1: peak RSS grows from $2 KiB ($SMALL workloads) to $3 KiB ($VLARGE workloads), more than $VMARGIN_KB KiB"
}
vcheck "validation -j 1" "$v1" "$val1_kb"
vcheck "validation -j 2" "$v2" "$val2_kb"

if [ "$fails" -eq 0 ]; then
	rm -rf "$scratch"/in* "$scratch"/v[0-9]* "$scratch"/s1-* "$scratch"/s2-* "$scratch"/m-* "$scratch"/r-*
else
	echo "outputs kept in $scratch"
fi
finish "all checks passed"
