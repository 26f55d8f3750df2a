#!/bin/sh
# site-jobs: `gpusheet site -j N` writes the same bytes for any N (sheets,
# index and offers pages, evidence archive and manifest), and an error in
# one workload names it, fails the build and leaves OUT as it was; the
# validation's messages are the same for any N.
#
# Builds examples/ and a generated folder of 60 workloads (copies of three
# examples with their measurements, so that workers share evidence and the
# manifest's "cited_by" lists are merged from several workers) with -j 1, 2
# and 4, and compares the trees byte for byte. Two workloads cite the same
# bytes under different extensions from different workers: the build must
# still equal the one-process build (the first name wins). The error case
# uses the fault-injection seam (GS_TEST_WRITE_BUDGET, gen/base/outfile.h; that
# part is skipped without it).
#
#   sh site-jobs.sh GPUSHEET_BIN SOURCE_DIR SCRATCH_DIR
set -u
bin=$1 src=$2 scratch=$3
. "$src/tests/lib/common.sh"
N=60

# make_set DIR: N workloads DIR/gNN/, copies of three examples with new ids.
make_set() {
	i=1
	for ex in context-sweep llama70b-2card probe-dense; do
		grep -q '"id": "'"$ex"'"' "$src/examples/$ex/workload.json" ||
			die "examples/$ex/workload.json has no \"id\": \"$ex\" line to rewrite"
	done
	while [ "$i" -le "$N" ]; do
		case $((i % 3)) in 0) ex=context-sweep ;; 1) ex=llama70b-2card ;; *) ex=probe-dense ;; esac
		id=$(printf 'g%02d' "$i")
		cp -R "$src/examples/$ex" "$1/$id" || die "cannot copy examples/$ex"
		sed -e "s/\"id\": \"$ex\"/\"id\": \"$id\"/" "$src/examples/$ex/workload.json" \
			>"$1/$id/workload.json"
		i=$((i + 1))
	done
	# g02 (the first worker) and g59 (the last one) cite bytes no other
	# workload cites (the probe's file and a trailing blank line), g59 under
	# another extension: a one-process build archives them once, as .json.
	printf '\n' >>"$1/g02/measurements/h200-probe-dense.json"
	cp "$1/g02/measurements/h200-probe-dense.json" "$1/g59/measurements/h200-probe-dense.measure"
	rm "$1/g59/measurements/h200-probe-dense.json"
	sed -i 's|measurements/h200-probe-dense.json|measurements/h200-probe-dense.measure|' \
		"$1/g59/workload.json"
}

build() { # build OUT LOG JOBS DIR...
	b_out=$1 b_log=$2 b_j=$3
	shift 3
	(cd "$src" && "$bin" site --workloads "$@" --catalog catalog/offers.xml \
		--catalog catalog/lambda.xml --out "$b_out" --date "$SITE_DATE" \
		--accept-synthetic -j "$b_j") >"$b_log" 2>&1
}

mkdir -p "$scratch/gen" || die "cannot create $scratch/gen"
make_set "$scratch/gen"

for set in examples gen; do
	case $set in examples) dir=examples ;; *) dir=$scratch/gen ;; esac
	for j in 1 2 4; do
		build "$scratch/$set-j$j" "$scratch/$set-j$j.log" "$j" "$dir" ||
			{ cat "$scratch/$set-j$j.log"; die "$set: site -j $j failed"; }
	done
	for j in 2 4; do
		if ! diff -r "$scratch/$set-j1" "$scratch/$set-j$j" >"$scratch/diff.txt" 2>&1; then
			head -n 20 "$scratch/diff.txt"
			err "$set: -j $j differs from -j 1"
		fi
	done
done
n=$(find "$scratch/gen-j1/sheets" -name 'g*.html' | wc -l)
[ "$n" -eq "$N" ] || err "gen: $n sheets, expected $N"
grep -q 'h200-probe-dense.measure"' "$scratch/gen-j1/evidence/manifest.json" ||
	err "gen: the second name of the shared evidence is not in the manifest"
[ "$(find "$scratch/gen-j1/evidence" -name '*.measure' | wc -l)" -eq 0 ] ||
	err "gen: the shared evidence was archived under a second name"
grep -q '"sheets/g01.html"' "$scratch/gen-j1/evidence/manifest.json" &&
	grep -q '"sheets/g58.html"' "$scratch/gen-j1/evidence/manifest.json" ||
	err "gen: the manifest lacks citations of the first or the last worker"

# The validation pass runs in the workers too: with errors in workloads of
# different workers (a syntax error, an id used twice, a cited file
# missing), every -j prints the same messages in the same order, fails and
# writes nothing.
cp -R "$scratch/gen" "$scratch/broken" || die "cannot copy the generated set"
printf '{"id": ' >"$scratch/broken/g05/workload.json"
sed -i 's/"id": "g57"/"id": "g03"/' "$scratch/broken/g57/workload.json"
rm "$scratch/broken/g40/measurements/"*
for j in 1 2 4; do
	if build "$scratch/broken-j$j" "$scratch/broken-j$j.log" "$j" "$scratch/broken"; then
		err "broken: site -j $j succeeded"
	fi
	[ ! -e "$scratch/broken-j$j" ] || err "broken: site -j $j wrote OUT"
done
grep -q 'g05/workload.json' "$scratch/broken-j1.log" && grep -q '"g03" is also used' "$scratch/broken-j1.log" &&
	grep -q 'g40/' "$scratch/broken-j1.log" ||
	{ cat "$scratch/broken-j1.log"; err "broken: -j 1 does not name the three errors"; }
for j in 2 4; do
	cmp -s "$scratch/broken-j1.log" "$scratch/broken-j$j.log" ||
		{ diff "$scratch/broken-j1.log" "$scratch/broken-j$j.log"; err "broken: -j $j's messages differ from -j 1's"; }
done

# The workloads are read as the sheets are rendered, into the stage: their
# errors still come first, and nothing is created, where OUT is inside a
# folder still to create, or OUT is a file (the stage cannot be made).
printf 'x\n' >"$scratch/afile"
for j in 1 2; do
	for out in "$scratch/nope/deeper/out" "$scratch/afile"; do
		if build "$out" "$scratch/other-j$j.log" "$j" "$scratch/broken"; then
			err "broken, OUT $out: site -j $j succeeded"
		fi
		cmp -s "$scratch/broken-j1.log" "$scratch/other-j$j.log" ||
			{ diff "$scratch/broken-j1.log" "$scratch/other-j$j.log"; err "broken, OUT $out: -j $j's messages differ"; }
	done
	[ ! -e "$scratch/nope" ] || err "broken: site -j $j created OUT's parent folder"
	[ "$(cat "$scratch/afile")" = x ] || err "broken: site -j $j changed the file given as OUT"
	[ "$(find "$scratch" -maxdepth 1 -name '.afile.gs-*' | wc -l)" -eq 0 ] || err "broken: a stage was left"
done

# -j takes a positive number.
for bad in 0 -1 x 257 ''; do
	if (cd "$src" && "$bin" site --catalog offers.xml --workloads examples --out "$scratch/bad" -j "$bad") \
		>"$scratch/bad.log" 2>&1; then
		err "-j '$bad' accepted"
	elif [ $? -ne 2 ] || ! grep -q -- '-j takes' "$scratch/bad.log"; then
		cat "$scratch/bad.log"
		err "-j '$bad': not a usage error that says what -j takes"
	fi
done
[ ! -e "$scratch/bad" ] || err "a refused -j wrote OUT"

# An error in one workload (a full disk in the worker that renders it): exit
# 1, the message names the workload, OUT is the old site, no stage is left.
# Run from the scratch folder with relative paths: the budget of 0 bytes
# fails the first write, which must be a worker's. What the parent learns
# of each workload (its evidence paths among it) is spooled through a 64 KB
# buffer (base/spool.c) that these 60 workloads fill, and write, first,
# when their paths are absolute in a checkout some 30 folders deep.
cp -R "$scratch/gen-j1" "$scratch/old"
(cd "$scratch" && env GS_TEST_WRITE_BUDGET=0 "$bin" site --catalog offers.xml --workloads gen \
	--out old -j 2) >"$scratch/fail.log" 2>&1
status=$?
[ "$status" -ne 0 ] ||
	finish "ok: -j 1, 2 and 4 give the same bytes (examples and $N workloads); error case skipped (no fault-injection seam)"
[ "$status" -eq 1 ] || { cat "$scratch/fail.log"; err "failed build: exit $status, expected 1"; }
grep -q 'gen/g[0-9][0-9]/workload.json' "$scratch/fail.log" ||
	{ cat "$scratch/fail.log"; err "the error does not name the workload"; }
grep -q 'No space left on device' "$scratch/fail.log" ||
	{ cat "$scratch/fail.log"; err "the error does not say why"; }
diff -r "$scratch/gen-j1" "$scratch/old" >/dev/null 2>&1 || err "a failed -j 2 build changed OUT"
left=$(find "$scratch" -maxdepth 1 -name '.old.gs-*' | wc -l)
[ "$left" -eq 0 ] || err "a failed -j 2 build left a stage"
finish "ok: -j 1, 2 and 4 give the same bytes (examples and $N workloads); a failed workload is named and OUT is kept"
