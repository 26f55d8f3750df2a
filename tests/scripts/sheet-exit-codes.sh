#!/bin/sh
# Exit codes of `gpusheet sheet` and what each leaves in the output folder.
# Usage: sheet-exit-codes.sh GPUSHEET SOURCE_DIR SCRATCH_DIR
#
#  1 (invalid input): nothing is written: a missing --out folder is not
#    created, an existing one keeps exactly its files, byte for byte
#    (including an earlier sheet of the same id);
#  2 (usage): the same;
#  3 (--require-retained, nothing retained, or a retained offer resting on
#    synthetic evidence): the sheet is written all the same; with something
#    retained on evidence the exit code is 0.
# The golden CLI cases (tests/cli/sheet-bad-*, sheet-usage-*,
# sheet-require-retained-*) check the messages; this checks the folders.
set -u
bin=$1 src=$2 scratch=$3
. "$src/tests/lib/common.sh"
cd "$src" || exit 1
d=tests/data/sheet

# A folder with a file and an earlier sheet, and its listing with checksums.
prepare() {
	rm -rf "$scratch/out" "$scratch/new"
	mkdir -p "$scratch/out/evidence"
	printf 'keep me\n' > "$scratch/out/keep.txt"
	printf 'earlier sheet\n' > "$scratch/out/none-retained.md"
	printf '{}\n' > "$scratch/out/evidence/manifest.json"
	(cd "$scratch/out" && find . -type f | sort | xargs cksum) > "$scratch/before"
}

expect_nothing() {  # expect_nothing WANT_RC LABEL ARGS... (ARGS use OUT for the folder)
	want=$1 label=$2
	shift 2
	for target in out new; do
		prepare
		dir="$scratch/$target"
		n=0
		for a in "$@"; do
			[ "$n" = 0 ] && set --
			n=$((n + 1))
			[ "$a" = OUT ] && a=$dir
			set -- "$@" "$a"
		done
		"$bin" "$@" > "$scratch/stdout" 2> "$scratch/stderr"
		rc=$?
		[ "$rc" = "$want" ] || { err "$label: exit code $rc, expected $want"; cat "$scratch/stderr"; }
		[ -s "$scratch/stdout" ] && err "$label: something on stdout"
		[ -s "$scratch/stderr" ] || err "$label: no message on stderr"
		if [ "$target" = new ]; then
			[ -e "$dir" ] && err "$label: the missing --out folder was created"
		else
			(cd "$dir" && find . -type f | sort | xargs cksum) > "$scratch/after"
			cmp -s "$scratch/before" "$scratch/after" || {
				err "$label: the existing --out folder changed:"
				diff "$scratch/before" "$scratch/after"
			}
			leftovers=$(find "$dir" -name '*.tmp*' -o -name '.*' -type f | head -3)
			[ -z "$leftovers" ] || err "$label: temporary files left: $leftovers"
		fi
		# restore the arguments with the OUT placeholder for the next target
		n=0
		for a in "$@"; do
			[ "$n" = 0 ] && set --
			n=$((n + 1))
			[ "$a" = "$dir" ] && a=OUT
			set -- "$@" "$a"
		done
	done
}

# invalid input: 1
expect_nothing 1 "id with ../" sheet "$d/bad-id/workload.json" --out OUT --date 2026-11-29
expect_nothing 1 "missing workload" sheet "$d/no-such-workload.json" --out OUT
expect_nothing 1 "bad evidence" sheet "$d/bad-evidence/workload.json" --out OUT
expect_nothing 1 "bad catalog" sheet "$d/none-retained/workload.json" --catalog tests/bad/catalog/malformed.xml --out OUT
expect_nothing 1 "missing catalog" sheet "$d/none-retained/workload.json" --catalog "$d/no-such-catalog.xml" --out OUT
expect_nothing 1 "bad workload" sheet tests/bad/workload/unknown-key.json --out OUT
# usage: 2
expect_nothing 2 "no workload" sheet --out OUT
expect_nothing 2 "two workloads" sheet "$d/none-retained/workload.json" "$d/none-retained/workload.json" --out OUT
expect_nothing 2 "bad --lang" sheet "$d/none-retained/workload.json" --out OUT --lang fr
expect_nothing 2 "bad --date" sheet "$d/none-retained/workload.json" --out OUT --date 2026-02-30
expect_nothing 2 "unknown option" sheet "$d/none-retained/workload.json" --out OUT --verbose

# --out is a file: invalid, the file untouched
printf 'a file\n' > "$scratch/file"
"$bin" sheet --catalog offers.xml "$d/none-retained/workload.json" --out "$scratch/file" > /dev/null 2>&1
rc=$?
[ "$rc" = 1 ] || err "--out naming a file: exit code $rc, expected 1"
[ "$(cat "$scratch/file")" = "a file" ] || err "--out naming a file: the file changed"

# nothing retained with --require-retained: 3, and the sheet is written
prepare
rm -rf "$scratch/out/evidence"
"$bin" sheet "$d/none-retained/workload.json" --catalog "$d/small-catalog.xml" --out "$scratch/out" \
	--date 2026-11-29 --require-retained --summary "$scratch/summary.md" > "$scratch/stdout" 2> "$scratch/stderr"
rc=$?
[ "$rc" = 3 ] || { err "--require-retained, nothing retained: exit code $rc, expected 3"; cat "$scratch/stderr"; }
for f in none-retained.md none-retained.html none-retained.json; do
	[ -s "$scratch/out/$f" ] || err "--require-retained, nothing retained: $f not written"
done
grep -q 'earlier sheet' "$scratch/out/none-retained.md" && err "--require-retained: the earlier sheet was not replaced"
[ "$(cat "$scratch/out/keep.txt")" = "keep me" ] || err "--require-retained: an unrelated file changed"
[ -s "$scratch/summary.md" ] || err "--require-retained, nothing retained: no summary written"
grep -q '"retained": \[\]' "$scratch/out/none-retained.json" || err "--require-retained: the JSON does not say nothing is retained"
# without --require-retained the same sheet exits 0
"$bin" sheet "$d/none-retained/workload.json" --catalog "$d/small-catalog.xml" --out "$scratch/out2" \
	--date 2026-11-29 > /dev/null 2>&1
rc=$?
[ "$rc" = 0 ] || err "nothing retained without --require-retained: exit code $rc, expected 0"
cmp -s "$scratch/out/none-retained.md" "$scratch/out2/none-retained.md" \
	|| err "--require-retained changes the sheet"
# Only synthetic evidence: nothing is retained, 3 (finding 1: a CI gate
# passed on a file no GPU produced).
"$bin" sheet --catalog offers.xml examples/probe-dense/workload.json --out "$scratch/out3" --date 2026-11-29 --require-retained \
	> /dev/null 2> "$scratch/stderr"
rc=$?
[ "$rc" = 3 ] || { err "--require-retained on synthetic evidence only: exit code $rc, expected 3"; cat "$scratch/stderr"; }
grep -q '"retained": \[\]' "$scratch/out3/probe-dense.json" || err "synthetic evidence retained an offer"
# Accepted for a demonstration: retained, but the gate still fails (3) and says why.
# The catalog is the constructed one of that case: an H200 lot with a provider
# and a price (the seed catalog's H200 is a reference card, never retained).
rentable=tests/cli/sheet-require-retained-synthetic/catalog.xml
"$bin" sheet examples/probe-dense/workload.json --catalog "$rentable" --out "$scratch/out4" \
	--date 2026-11-29 --require-retained --accept-synthetic > /dev/null 2> "$scratch/stderr"
rc=$?
[ "$rc" = 3 ] || { err "--require-retained --accept-synthetic: exit code $rc, expected 3"; cat "$scratch/stderr"; }
grep -q 'synthetic evidence' "$scratch/stderr" || err "--require-retained --accept-synthetic: no reason on stderr"
grep -q '"demonstration": true' "$scratch/out4/probe-dense.json" || err "demonstration not said in the JSON"

# Something retained on a non-synthetic run: 0. The run is a rule fixture
# made here from the example and deleted with the scratch folder: it stands
# for a device run only to test the exit code, and is never committed or
# published.
mkdir -p "$scratch/fixture/measurements"
cp examples/probe-dense/workload.json "$scratch/fixture/workload.json"
sed -e 's/"synthetic": true/"synthetic": false/' \
    -e 's/"synthetic_note": ".*",$/"synthetic_note": null,/' \
    -e 's/"produced_by": ".*",$/"produced_by": "sheet-exit-codes.sh rule fixture (not a GPU run)",/' \
	examples/probe-dense/measurements/h200-probe-dense.json > "$scratch/fixture/measurements/h200-probe-dense.json"
"$bin" sheet "$scratch/fixture/workload.json" --catalog "$rentable" --out "$scratch/out5" --date 2026-11-29 --require-retained \
	> /dev/null 2> "$scratch/stderr"
rc=$?
[ "$rc" = 0 ] || { err "--require-retained with a retained offer: exit code $rc, expected 0"; cat "$scratch/stderr"; }

# An output folder whose evidence/manifest.json is not a manifest: the
# archive cannot be updated, so the run fails (1) and must write nothing
# and leak nothing.
prepare
"$bin" sheet "$d/none-retained/workload.json" --catalog "$d/small-catalog.xml" --out "$scratch/out" \
	--date 2026-11-29 > /dev/null 2> "$scratch/stderr"
rc=$?
[ "$rc" = 1 ] || err "foreign manifest: exit code $rc, expected 1"
grep -q 'LeakSanitizer' "$scratch/stderr" && err "foreign manifest: memory leaked"
(cd "$scratch/out" && find . -type f | sort | xargs cksum) > "$scratch/after"
cmp -s "$scratch/before" "$scratch/after" || err "foreign manifest: files were written although the run failed"

finish "sheet-exit-codes: ok"
