#!/bin/sh
# evidence-read-once: each measurement a workload cites is opened once per
# run of that workload (gs_publish_load reads it; its SHA-256 for the keys and
# its archived copy come from those bytes, gen/publish/publish.h), so the bytes
# archived are the bytes that decided the verdict. Counts the openat calls
# that name each cited file of examples/ (by its base name, so that the
# descriptor-relative open of the confined read counts too) under strace:
# `site -j 1`, `site -j 2`, a rebuild over the site (every sheet reused),
# `sheet` of each example and `check` of the measurements: 1 each (before:
# 5, 5, 4, 3 and 2). Skipped without strace, or where it cannot trace (a
# container without ptrace); the unit tests test_publish and test_evidence
# check that the archive holds the bytes parsed, without strace.
#
#   sh evidence-read-once.sh GPUSHEET_BIN SOURCE_DIR SCRATCH_DIR
set -u
bin=$1 src=$2 scratch=$3
. "$src/tests/lib/common.sh"
need strace "apt-get install strace"
strace -f -qq -e trace=openat -o "$scratch/probe.tr" true >/dev/null 2>&1 ||
	skip "strace cannot trace here"

cited=$(cd "$src" && find examples -path '*/measurements/*.json' ! -path '*/evidence/*' | sort)
[ -n "$cited" ] || die "no measurement under examples/*/measurements/"

# count LABEL TRACE: each cited file named by exactly one openat of TRACE
count() {
	for f in $cited; do
		b=$(basename "$f")
		n=$(grep -c "\"[^\"]*$b\"" "$2")
		[ "$n" -eq 1 ] || err "$1: $f opened $n times, expected once"
	done
}

# LeakSanitizer cannot run under ptrace: off for the traced runs (the rest
# of the suite runs the same commands with it; ignored by other builds)
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
export ASAN_OPTIONS

# trace LABEL TRACE CMD...: CMD from the source root under strace; must succeed
trace() {
	t_label=$1 t_out=$2
	shift 2
	(cd "$src" && strace -f -qq -e trace=openat -o "$t_out" "$@") >"$t_out.log" 2>&1 ||
		{ cat "$t_out.log"; die "$t_label failed"; }
}

for j in 1 2; do
	trace "site -j $j" "$scratch/site-j$j.tr" "$bin" site --workloads examples \
		--catalog catalog/offers.xml --out "$scratch/site-j$j" --date "$SITE_DATE" \
		--accept-synthetic -j "$j"
	count "site -j $j" "$scratch/site-j$j.tr"
done
# (--rehash: unchanged files are otherwise not read at all, site-stat-reuse.sh)
trace "site rebuild" "$scratch/rebuild.tr" "$bin" site --workloads examples \
	--catalog catalog/offers.xml --out "$scratch/site-j1" --date "$SITE_DATE" \
	--accept-synthetic -j 1 --rehash
count "site rebuild" "$scratch/rebuild.tr"
diff -r "$scratch/site-j1" "$scratch/site-j2" >/dev/null || err "site: -j 2 differs from -j 1"

: >"$scratch/sheets.tr"
for id in $(example_ids); do
	trace "sheet $id" "$scratch/sheet.tr" "$bin" sheet "examples/$id/workload.json" \
		--catalog catalog/offers.xml --out "$scratch/sheet-$id" --date "$SITE_DATE" \
		--accept-synthetic
	cat "$scratch/sheet.tr" >>"$scratch/sheets.tr"
done
count "sheet" "$scratch/sheets.tr"

# shellcheck disable=SC2086
trace "check" "$scratch/check.tr" "$bin" check $cited
count "check" "$scratch/check.tr"

finish "ok: each cited file opened once by site -j 1, -j 2, a rebuild, sheet and check"
