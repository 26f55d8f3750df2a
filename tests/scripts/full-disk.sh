#!/bin/sh
# full-disk: a write that fails (a disk that fills, injected through the
# test seam GS_TEST_WRITE_BUDGET, see gen/base/outfile.h) at any byte leaves the
# output folder exactly as it was: for `sheet`, no evidence without its
# manifest entry and no sheet whose JSON is new while its HTML is old
# (finding D8); for `site`, the old site whole, and with -j 2 a worker's
# report lost to the full disk said with its errno. Skipped when the binary was
# built without the seam (GPUSHEET_FAULT_INJECTION=OFF).
#
#   sh full-disk.sh GPUSHEET_BIN SOURCE_DIR SCRATCH_DIR
set -u
bin=$1 src=$2 scratch=$3
. "$src/tests/lib/common.sh"
STEPS=30

sheet() { # sheet OUT LANG WORKLOAD [env...]: runs from the source root
	s_out=$1 s_lang=$2 s_w=$3
	shift 3
	(cd "$src" && env "$@" "$bin" sheet --catalog offers.xml "examples/$s_w/workload.json" --out "$s_out" \
		--lang "$s_lang" --date "$SITE_DATE") >"$scratch/run.log" 2>&1
}

# The old state: another workload's sheet, so that this one's evidence is new.
sheet "$scratch/old" en context-sweep || { cat "$scratch/run.log"; die "first sheet failed"; }
cp -a "$scratch/old" "$scratch/new" && sheet "$scratch/new" es seed-7b ||
	{ cat "$scratch/run.log"; die "reference sheet failed"; }
cp -a "$scratch/old" "$scratch/w" && sheet "$scratch/w" es seed-7b GS_TEST_WRITE_BUDGET=0
[ $? -ne 0 ] || skip "gpusheet built without the fault-injection seam"
grep -q 'No space left on device' "$scratch/run.log" || { cat "$scratch/run.log"; err "budget 0: no ENOSPC message"; }

# Bytes a run writes: the files it adds or changes.
total=$( (cd "$scratch/new" && find . -type f | while IFS= read -r f; do
	cmp -s "$f" "$scratch/old/$f" 2>/dev/null || wc -c <"$f"
done) | awk '{ s += $1 } END { print s + 0 }')
[ "$total" -gt 0 ] || die "the sheet writes nothing?"
step=$((total / STEPS + 1))
echo "sheet: $total bytes written; failing the write at every ${step}th byte"

failed=0 ok=0 b=0
while [ "$b" -le $((total + step)) ]; do
	rm -rf "$scratch/w" && cp -a "$scratch/old" "$scratch/w"
	if sheet "$scratch/w" es seed-7b GS_TEST_WRITE_BUDGET=$b; then
		want=$scratch/new ok=$((ok + 1))
	else
		want=$scratch/old failed=$((failed + 1))
		grep -q 'No space left on device' "$scratch/run.log" ||
			{ cat "$scratch/run.log"; err "budget $b: the failure does not say why"; }
	fi
	if ! diff -r "$scratch/w" "$want" >"$scratch/diff.txt" 2>&1; then
		head -n 10 "$scratch/diff.txt"
		err "budget $b bytes: the folder is neither the old one nor the new one"
	fi
	b=$((b + step))
done
[ "$failed" -gt 0 ] && [ "$ok" -gt 0 ] || err "expected failed and complete runs ($failed failed, $ok complete)"
echo "ok: sheet: $failed failed writes left the folder as it was, $ok complete runs"

# A sync that fails (GS_TEST_SYNC_FAIL=N, gen/base/outfile.h: the N-th file of a
# transaction; the files are synced by threads side by side): the sheet
# says why, exits 1, and the folder is the old one, whichever file it was.
for n in 1 2 3 4; do
	rm -rf "$scratch/w" && cp -a "$scratch/old" "$scratch/w"
	if sheet "$scratch/w" es seed-7b GS_TEST_SYNC_FAIL=$n; then
		err "sync $n failing: the sheet reported success"
	else
		grep -q 'cannot write: Input/output error' "$scratch/run.log" ||
			{ cat "$scratch/run.log"; err "sync $n failing: the failure does not say why"; }
	fi
	diff -r "$scratch/w" "$scratch/old" >"$scratch/diff.txt" 2>&1 ||
		{ head -n 10 "$scratch/diff.txt"; err "sync $n failing: the folder is not the old one"; }
done
rm -rf "$scratch/w" && cp -a "$scratch/old" "$scratch/w"
sheet "$scratch/w" es seed-7b GS_TEST_SYNC_FAIL=1000 || { cat "$scratch/run.log"; err "sync 1000: failed"; }
diff -r "$scratch/w" "$scratch/new" >/dev/null 2>&1 || err "sync 1000 (no such file): not the new folder"
echo "ok: sheet: a failing sync of any of the first 4 files left the folder as it was"

# site: the old site whole after any failed write.
site_build "$scratch/site-old" "$scratch/site.log"
sfailed=0
for b in 0 1000 50000 200000 400000 800000; do
	rm -rf "$scratch/s" && cp -a "$scratch/site-old" "$scratch/s"
	if (cd "$src" && env GS_TEST_WRITE_BUDGET=$b "$bin" site --catalog offers.xml --workloads examples --out "$scratch/s" \
		--lang es --date "$SITE_DATE") >"$scratch/run.log" 2>&1; then
		continue # the budget was enough
	fi
	sfailed=$((sfailed + 1))
	diff -r "$scratch/s" "$scratch/site-old" >/dev/null 2>&1 || err "site, budget $b: the old site was changed"
	left=$(ls -a "$scratch" | grep -c -e '\.gs-staging-' -e '\.gs-old-')
	[ "$left" -eq 0 ] || err "site, budget $b: a stage was left behind"
done
[ "$sfailed" -ge 3 ] || err "site: only $sfailed runs failed"

# site -j 2: a worker whose report cannot be written (its disk full) is
# said with its errno, not as "failed (exit 2)"; the old site whole.
rm -rf "$scratch/s" && cp -a "$scratch/site-old" "$scratch/s"
(cd "$src" && env GS_TEST_REPORT_ENOSPC=1 "$bin" site --workloads examples --out "$scratch/s" \
	--lang es --date "$SITE_DATE" -j 2) >"$scratch/run.log" 2>&1 && err "site -j 2, reports on a full disk: exit 0"
grep -q "gpusheet site: the worker of items [0-9]* to [0-9]* could not write its report (kept beside the output): No space left on device" \
	"$scratch/run.log" || { cat "$scratch/run.log"; err "site -j 2, reports on a full disk: the errno is not said"; }
diff -r "$scratch/s" "$scratch/site-old" >/dev/null 2>&1 || err "site -j 2, reports on a full disk: the old site was changed"
finish "ok: site: $sfailed failed writes left the old site whole, no stage left"
