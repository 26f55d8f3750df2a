#!/bin/sh
# site-reproducible: the committed site/ is exactly what tools/build-site.sh
# builds from examples/ today, and a second build over the same folder
# changes nothing (archived evidence and manifest not even touched).
#
#   sh site-reproducible.sh GPUSHEET_BIN SOURCE_DIR SCRATCH_DIR
set -u
bin=$1 src=$2 scratch=$3
. "$src/tests/lib/common.sh"
out=$scratch/site

[ -d "$src/site" ] || die "no site/ in the source tree (run tools/build-site.sh)"

# 1. A fresh build, made the way tools/build-site.sh makes it (from the
#    source root, relative workload folder), equals the committed site/.
site_build "$out" "$scratch/build1.log"
if ! diff -r "$src/site" "$out" >"$scratch/diff1.txt" 2>&1; then
	echo "differences between the committed site/ and a fresh build:"
	diff -rq "$src/site" "$out" | sed 's/^/  /'
	echo "first lines of the diff:"
	head -n 60 "$scratch/diff1.txt"
	die "site/ is stale: run tools/build-site.sh and commit site/"
fi
echo "ok: committed site/ equals a fresh build ($(find "$out" -type f | wc -l) files)"

# 2. A second build over the same folder: byte-identical, nothing lost, and
#    evidence files (content-addressed, never rewritten) plus an unchanged
#    manifest keep their inode and mtime.
snapshot() {
	(cd "$1" && find . -type f | LC_ALL=C sort | while IFS= read -r f; do
		printf '%s %s\n' "$(stat -c '%i %y %s' "$f")" "$f"
	done)
}
cp -pR "$out" "$scratch/first" || die "cannot copy the first build"
snapshot "$out" >"$scratch/stat1.txt"
sleep 1   # so that a rewrite would show in the mtime even on coarse clocks
site_build "$out" "$scratch/build2.log"
snapshot "$out" >"$scratch/stat2.txt"
if ! diff -r "$scratch/first" "$out" >"$scratch/diff2.txt" 2>&1; then
	head -n 60 "$scratch/diff2.txt"
	die "a second build over the same folder changed or lost files"
fi
grep ' \./evidence/' "$scratch/stat1.txt" >"$scratch/ev1.txt"
grep ' \./evidence/' "$scratch/stat2.txt" >"$scratch/ev2.txt"
[ -s "$scratch/ev1.txt" ] || die "no evidence files in the site"
if ! diff "$scratch/ev1.txt" "$scratch/ev2.txt" >"$scratch/diff-ev.txt"; then
	cat "$scratch/diff-ev.txt"
	die "a second build touched archived evidence (inode/mtime changed)"
fi
echo "ok: second build identical, $(wc -l <"$scratch/ev1.txt") evidence files untouched"

# 3. The pages must not depend on the path the workloads were named by:
#    a build given the absolute paths of examples/ and of the catalogs must be byte-identical
#    (otherwise the builder's folders leak into published pages).
(cd "$scratch" && "$bin" site --workloads "$src/examples" --catalog "$src/catalog/offers.xml" \
	--catalog "$src/catalog/lambda.xml" --catalog "$src/catalog/nebius.xml" \
	--catalog "$src/catalog/hyperstack.xml" --catalog "$src/catalog/cudo.xml" \
	--catalog "$src/catalog/primeintellect.xml" --out "$scratch/site-abs" --date "$SITE_DATE" \
	--accept-synthetic --reference "$SITE_REFERENCE") \
	>"$scratch/build3.log" 2>&1 || { cat "$scratch/build3.log"; die "gpusheet site (absolute path) failed"; }
if ! diff -r "$out" "$scratch/site-abs" >"$scratch/diff3.txt" 2>&1; then
	echo "files that depend on the workload path given:"
	diff -rq "$out" "$scratch/site-abs" | sed 's/^/  /'
	head -n 20 "$scratch/diff3.txt"
	die "the site quotes the workload path as given on the command line"
fi
echo "ok: the site does not depend on the path of the workloads folder"
exit 0
