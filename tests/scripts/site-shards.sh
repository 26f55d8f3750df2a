#!/bin/sh
# site-shards: `gpusheet site --shard K/N` then `gpusheet merge` give the same
# bytes as one `gpusheet site` (diff -r: sheets, pages, matrix.js, evidence
# and its manifest, the keys file), for N = 1, 3 and 12 over examples/ (9
# workloads: 12 leaves shards empty), and for N = 4 over 40 generated
# workloads that share evidence across shards (the manifest's "cited_by"
# lists are merged from several shards). Also: a shard is rebuilt
# incrementally; verify refuses a shard; a site and a shard never replace
# each other; bytes archived under two extensions by two shards are refused;
# a refused merge leaves OUT as it was; bad --shard values are usage errors.
# The other refusals are golden cases (tests/cli/merge-bad-*).
#
#   sh site-shards.sh GPUSHEET_BIN SOURCE_DIR SCRATCH_DIR
set -u
bin=$1 src=$2 scratch=$3
. "$src/tests/lib/common.sh"
N=40

REF=$SITE_REFERENCE  # the offers page's reference workload (examples/)
opts() { # the options of tools/build-site.sh, for site and merge alike
	printf '%s\n' --catalog catalog/offers.xml --catalog catalog/lambda.xml \
		--catalog catalog/nebius.xml --catalog catalog/hyperstack.xml \
		--catalog catalog/cudo.xml --catalog catalog/primeintellect.xml \
		--date "$SITE_DATE" --accept-synthetic --reference "$REF"
}

# shards DIR N PREFIX [OPTION...]: shards 1..N of DIR into PREFIX-K, in reverse order.
shards() {
	s_dir=$1 s_n=$2 s_pre=$3
	shift 3
	s_k=$s_n
	while [ "$s_k" -ge 1 ]; do
		(cd "$src" && "$bin" site --workloads "$s_dir" $(opts) --out "$s_pre-$s_k" \
			--shard "$s_k/$s_n" "$@") >"$s_pre-$s_k.log" 2>&1 ||
			{ cat "$s_pre-$s_k.log"; die "site --shard $s_k/$s_n of $s_dir failed"; }
		s_k=$((s_k - 1))
	done
}

# merge OUT LOG SHARD...: 0 when merge succeeded.
merge() {
	m_out=$1 m_log=$2
	shift 2
	(cd "$src" && "$bin" merge "$m_out" "$@" $(opts)) >"$m_log" 2>&1
}

same() { # same A B WHAT
	if ! diff -r "$1" "$2" >"$scratch/diff.txt" 2>&1; then
		head -n 20 "$scratch/diff.txt"
		err "$3: differs from the one-machine build"
	fi
}

site_build "$scratch/whole" "$scratch/whole.log"
[ -f "$scratch/whole/.gpusheet-keys.json" ] || die "the one-machine site has no keys file"

for n in 1 3 12; do
	shards examples "$n" "$scratch/ex$n" -j 2
	# the shard folders, given in any order
	set --
	k=$n
	while [ "$k" -ge 1 ]; do set -- "$@" "$scratch/ex$n-$k"; k=$((k - 1)); done
	merge "$scratch/merged$n" "$scratch/merged$n.log" "$@" ||
		{ cat "$scratch/merged$n.log"; die "merge of $n shards failed"; }
	same "$scratch/whole" "$scratch/merged$n" "examples, $n shard(s)"
	"$bin" verify "$scratch/merged$n" >"$scratch/verify$n.log" 2>&1 ||
		{ cat "$scratch/verify$n.log"; err "the merge of $n shards does not verify"; }
done
# --md: shards with the Markdown sheets merge into the one-machine --md site
site_build "$scratch/whole-md" "$scratch/whole-md.log" --md
[ -f "$scratch/whole-md/sheets/seed-7b.md" ] || err "site --md wrote no Markdown sheet"
shards examples 2 "$scratch/md2" --md
merge "$scratch/merged-md" "$scratch/merged-md.log" "$scratch/md2-1" "$scratch/md2-2" --md ||
	{ cat "$scratch/merged-md.log"; die "merge of 2 --md shards failed"; }
same "$scratch/whole-md" "$scratch/merged-md" "examples, 2 shards, --md"
# 12 shards of 9 workloads: cuts at floor(9*K/12) = 0 0 1 2 3 3 4 5 6 6 7 8 9
# for K = 0..12, so shards 1, 5 and 9 are empty and shard 2 holds workload 0.
for k in 1 5 9; do
	grep -q '"ids": \[\]' "$scratch/ex12-$k/.gpusheet-shard.json" || err "shard $k/12 is not empty"
done
[ "$(find "$scratch/ex12-2/sheets" -name '*.html' | wc -l)" -eq 1 ] || err "shard 2/12 does not hold one sheet"

# No sheet is rendered by merge: the merged sheets are the shards' files (hard links).
[ "$(stat -c %i "$scratch/merged3/sheets/seed-7b.html")" = \
  "$(find "$scratch"/ex3-*/sheets -name seed-7b.html -exec stat -c %i {} \;)" ] ||
	err "merge did not link the shard's sheet"

# A shard built again from the same inputs renders nothing and is the same bytes.
cp -R "$scratch/ex3-2" "$scratch/ex3-2.before"
(cd "$src" && "$bin" site --workloads examples $(opts) --out "$scratch/ex3-2" --shard 2/3 \
	--stats) >"$scratch/again.log" 2>&1 || { cat "$scratch/again.log"; die "shard rebuild failed"; }
grep -q '^stats: 0 sheets rendered, 3 reused' "$scratch/again.log" ||
	{ cat "$scratch/again.log"; err "a shard rebuilt from the same inputs rendered sheets"; }
diff -r "$scratch/ex3-2.before" "$scratch/ex3-2" >/dev/null 2>&1 || err "a shard rebuild changed it"

# verify refuses a shard folder, with one line that says what it is.
"$bin" verify "$scratch/ex3-1" >"$scratch/vshard.log" 2>&1
[ $? -eq 1 ] || err "verify of a shard: not exit 1"
grep -q '^.gpusheet-shard.json: a shard of a site' "$scratch/vshard.log" &&
	[ "$(grep -c ': ' "$scratch/vshard.log")" -eq 2 ] ||
	{ cat "$scratch/vshard.log"; err "verify of a shard does not say (only) that it is a shard"; }

# A site never replaces a shard, a shard never replaces a site.
cp -R "$scratch/ex3-1" "$scratch/keep-shard"
(cd "$src" && "$bin" site --workloads examples $(opts) --out "$scratch/ex3-1") \
	>"$scratch/over.log" 2>&1 && err "a site was written over a shard"
diff -r "$scratch/keep-shard" "$scratch/ex3-1" >/dev/null 2>&1 || err "a refused site changed the shard"
(cd "$src" && "$bin" site --workloads examples $(opts) --out "$scratch/merged3" --shard 1/3) \
	>"$scratch/over.log" 2>&1 && err "a shard was written over a site"
same "$scratch/whole" "$scratch/merged3" "a site after a refused shard"

# A refused merge (a shard missing; another --lang) leaves OUT as it was.
cp -R "$scratch/merged3" "$scratch/keep-site"
merge "$scratch/merged3" "$scratch/refused.log" "$scratch/ex3-1" "$scratch/ex3-3" &&
	err "a merge with shard 2/3 missing succeeded"
grep -q 'shard 2/3 is missing' "$scratch/refused.log" || { cat "$scratch/refused.log"; err "missing shard not named"; }
(cd "$src" && "$bin" merge "$scratch/merged3" "$scratch"/ex3-1 "$scratch"/ex3-2 "$scratch"/ex3-3 \
	$(opts) --lang es) >"$scratch/refused.log" 2>&1 && err "a merge with another --lang succeeded"
grep -q 'ex3-1: shard 1/3 was built with another --lang: en, this merge: es' "$scratch/refused.log" ||
	{ cat "$scratch/refused.log"; err "another --lang not named"; }
# --reference naming no workload: said, refused, OUT as it was.
(cd "$src" && "$bin" merge "$scratch/merged3" "$scratch"/ex3-1 "$scratch"/ex3-2 "$scratch"/ex3-3 \
	$(opts) --reference no-such-workload) >"$scratch/refused.log" 2>&1 &&
	err "a merge with an unknown --reference succeeded"
grep -q "reference 'no-such-workload': no workload of the site has this id" "$scratch/refused.log" ||
	{ cat "$scratch/refused.log"; err "an unknown --reference not named"; }
# A sheet's file missing from a shard: named, refused.
cp -R "$scratch/ex3-3" "$scratch/ex3-3-hole"
rm "$scratch/ex3-3-hole/sheets/seed-7b.html"
merge "$scratch/merged3" "$scratch/refused.log" "$scratch"/ex3-1 "$scratch"/ex3-2 "$scratch"/ex3-3-hole &&
	err "a merge with a sheet's file missing succeeded"
grep -q 'ex3-3-hole: sheets/seed-7b.html: cannot link or copy: No such file' "$scratch/refused.log" ||
	{ cat "$scratch/refused.log"; err "a missing sheet file not named"; }
# A full disk while merging (the fault-injection seam, gen/base/outfile.h; no
# seam: the merge succeeds and this check says nothing).
(cd "$src" && env GS_TEST_WRITE_BUDGET=0 "$bin" merge "$scratch/merged3" "$scratch"/ex3-1 \
	"$scratch"/ex3-2 "$scratch"/ex3-3 $(opts)) >"$scratch/full.log" 2>&1
st=$?
[ "$st" -eq 0 ] || [ "$st" -eq 1 ] && { [ "$st" -eq 0 ] || grep -q 'No space left on device' "$scratch/full.log"; } ||
	{ cat "$scratch/full.log"; err "a merge on a full disk: exit $st, or the error does not say why"; }
diff -r "$scratch/keep-site" "$scratch/merged3" >/dev/null 2>&1 || err "a refused merge changed OUT"
[ "$(find "$scratch" -maxdepth 1 -name '.merged3.gs-*' | wc -l)" -eq 0 ] || err "a refused merge left a stage"

# 40 workloads, copies of three examples: shards share evidence.
REF=g01  # a copy of llama70b-2card
mkdir -p "$scratch/gen" || die "cannot create $scratch/gen"
i=1
while [ "$i" -le "$N" ]; do
	case $((i % 3)) in 0) ex=context-sweep ;; 1) ex=llama70b-2card ;; *) ex=probe-dense ;; esac
	id=$(printf 'g%02d' "$i")
	cp -R "$src/examples/$ex" "$scratch/gen/$id" || die "cannot copy examples/$ex"
	sed -e "s/\"id\": \"$ex\"/\"id\": \"$id\"/" "$src/examples/$ex/workload.json" \
		>"$scratch/gen/$id/workload.json"
	i=$((i + 1))
done
(cd "$src" && "$bin" site --workloads "$scratch/gen" $(opts) --out "$scratch/gen-whole" -j 2) \
	>"$scratch/gen-whole.log" 2>&1 || { cat "$scratch/gen-whole.log"; die "site of $N workloads failed"; }
shards "$scratch/gen" 4 "$scratch/gen4"
merge "$scratch/gen-merged" "$scratch/gen-merged.log" "$scratch"/gen4-1 "$scratch"/gen4-2 \
	"$scratch"/gen4-3 "$scratch"/gen4-4 || { cat "$scratch/gen-merged.log"; die "merge of 4 shards failed"; }
same "$scratch/gen-whole" "$scratch/gen-merged" "$N workloads, 4 shards"
grep -q '"sheets/g01.html"' "$scratch/gen-merged/evidence/manifest.json" &&
	grep -q '"sheets/g40.html"' "$scratch/gen-merged/evidence/manifest.json" ||
	err "the merged manifest lacks citations of the first or the last shard"

# g02 (shard 1) and g38 (shard 4) cite the same new bytes as .json and as
# .measure: one machine archives them once, as .json, and g38's sheet links
# that; shard 4's sheet links the .measure: merge refuses, naming shard 4.
printf '\n' >>"$scratch/gen/g02/measurements/h200-probe-dense.json"
cp "$scratch/gen/g02/measurements/h200-probe-dense.json" "$scratch/gen/g38/measurements/h200-probe-dense.measure"
rm "$scratch/gen/g38/measurements/h200-probe-dense.json"
sed -i 's|measurements/h200-probe-dense.json|measurements/h200-probe-dense.measure|' "$scratch/gen/g38/workload.json"
shards "$scratch/gen" 4 "$scratch/genx4"
merge "$scratch/gen-merged" "$scratch/genx.log" "$scratch"/genx4-1 "$scratch"/genx4-2 \
	"$scratch"/genx4-3 "$scratch"/genx4-4 && err "evidence under two extensions was merged"
grep -q 'genx4-4/evidence/manifest.json: .* is archived as .*\.json and as .*\.measure' "$scratch/genx.log" ||
	{ cat "$scratch/genx.log"; err "the evidence conflict does not name the shard and both names"; }
same "$scratch/gen-whole" "$scratch/gen-merged" "a site after a refused merge"

# --shard takes K/N with 1 <= K <= N.
for bad in 0/3 4/3 3 a/b 1/0 /3 1/ -1/3 1/3x; do
	(cd "$src" && "$bin" site --workloads examples --out "$scratch/bad" --shard "$bad") \
		>"$scratch/bad.log" 2>&1
	st=$?
	[ "$st" -eq 2 ] && grep -q -- '--shard takes K/N' "$scratch/bad.log" ||
		{ cat "$scratch/bad.log"; err "--shard '$bad': exit $st, not a usage error saying what --shard takes"; }
done
[ ! -e "$scratch/bad" ] || err "a refused --shard wrote OUT"
finish "ok: merged shards (N = 1, 3, 12 of examples; 4 of $N workloads sharing evidence) equal one build; refusals keep OUT"
