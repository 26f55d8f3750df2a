#!/bin/sh
# site-untouched: a rebuild with every input unchanged (the stat cache
# beside OUT trusts every workload unread), the same options and OUT's
# folders as the last build left them, writes nothing: every file of OUT
# keeps its inode and its times, and --stats says so. Anything else runs
# the build, whose bytes are a clean build's: a sheet removed from OUT, a
# stray file added there, a workload touched, another --date or
# --reference, the catalog changed, the paths in another order, a cache not
# older than OUT's folders (the racy rule), --rehash.
#
#   sh site-untouched.sh GPUSHEET_BIN SOURCE_DIR SCRATCH_DIR
set -u
bin=$1 src=$2 scratch=$3
. "$src/tests/lib/common.sh"
N=4

build() { # build OUT LOG [options]
	b_out=$1 b_log=$2
	shift 2
	(cd "$scratch" && "$bin" site --workloads w/a --workloads w/b --out "$b_out" \
		--catalog cat.xml --date "$SITE_DATE" --accept-synthetic --stats "$@") \
		>"$scratch/$b_log" 2>&1 || { cat "$scratch/$b_log"; die "gpusheet site $* failed"; }
}
untouched() { # untouched LOG
	grep -q "^stats: every input unchanged since .*: nothing written" "$scratch/$1" ||
		{ cat "$scratch/$1"; err "$1: expected OUT left untouched"; }
}
built() { # built LOG WHAT
	if grep -q "nothing written" "$scratch/$1"; then
		cat "$scratch/$1"
		err "$1: OUT left untouched after $2"
	fi
}
listing() { # listing DIR: every file and folder with its inode and times
	(cd "$scratch/$1" && find . -printf '%i %T@ %C@ %s %p\n' | LC_ALL=C sort -k 5)
}
same() { # same A B WHAT
	diff -r "$scratch/$1" "$scratch/$2" >"$scratch/diff.txt" 2>&1 || { head -n 20 "$scratch/diff.txt"; err "$3"; }
}
settle() { sleep 0.05; }   # (past the clock's grain: the racy rule)

cp "$src/catalog/offers.xml" "$scratch/cat.xml" || die "cannot copy the catalog"
i=1
while [ "$i" -le "$N" ]; do
	case $((i % 2)) in 0) ex=seed-7b half=a ;; *) ex=probe-dense half=b ;; esac
	id=$(printf 'w%02d' "$i")
	mkdir -p "$scratch/w/$half" && cp -R "$src/examples/$ex" "$scratch/w/$half/$id" || die "cannot copy $ex"
	sed -e "s/\"id\": \"$ex\"/\"id\": \"$id\"/" "$src/examples/$ex/workload.json" >"$scratch/w/$half/$id/workload.json"
	i=$((i + 1))
done
settle

build out b1.log -j 2
built b1.log "a first build"
build clean c1.log -j 1
settle

# Nothing changed: nothing read, nothing written, not even a link.
listing out >"$scratch/l1.txt"
build out b2.log -j 2
untouched b2.log
grep -q "^stats: 0 sheets rendered, $N reused" "$scratch/b2.log" || { cat "$scratch/b2.log"; err "b2.log: counts"; }
grep -q "^stats: 0 workloads read, $N trusted unread" "$scratch/b2.log" || err "b2.log: read counts"
grep -q "^stats: 0 pages rendered, [1-9][0-9]* reused" "$scratch/b2.log" || err "b2.log: page counts"
listing out >"$scratch/l2.txt"
cmp -s "$scratch/l1.txt" "$scratch/l2.txt" || { diff "$scratch/l1.txt" "$scratch/l2.txt" | head; err "an untouched rebuild changed a file's inode or times"; }
build out b3.log -j 1
untouched b3.log
same clean out "an untouched site differs from a clean build"

# A sheet removed from OUT: built again, the sheet back.
rm "$scratch/out/sheets/w02.html"
build out b4.log -j 1
built b4.log "a sheet removed from OUT"
same clean out "the site after a removed sheet differs from a clean build"
settle
build out b5.log -j 1
untouched b5.log

# A stray file in OUT's offers/: built again, the file gone.
echo stray >"$scratch/out/offers/stray.html"
build out b6.log -j 1
built b6.log "a file added to OUT"
[ ! -e "$scratch/out/offers/stray.html" ] || err "the stray file is still in OUT"
same clean out "the site after a stray file differs from a clean build"

# A workload touched (same bytes): read again, then untouched again.
settle
touch "$scratch/w/a/w02/workload.json"
settle
build out b7.log -j 1
built b7.log "a touched workload"
grep -q "^stats: 1 workload read" "$scratch/b7.log" || { cat "$scratch/b7.log"; err "b7.log: the touched workload not read"; }
same clean out "the site after a touch differs from a clean build"
settle
build out b8.log -j 1
untouched b8.log

# Another option: another site.
build out b9.log -j 1 --date 2026-11-30
built b9.log "another --date"
build out b10.log -j 1
built b10.log "the date back"
same clean out "the site with its date back differs from a clean build"
settle
build out b11.log -j 1 --reference w01
built b11.log "a --reference"
settle
build out b12.log -j 1
built b12.log "no --reference after one"
settle

# The catalog changed (a comment: other bytes, another key).
build out b13.log -j 1
untouched b13.log
printf '<!-- changed -->\n' >>"$scratch/cat.xml"
build out b14.log -j 1
built b14.log "a changed catalog"
cp "$src/catalog/offers.xml" "$scratch/cat.xml"
build out b15.log -j 1
built b15.log "the catalog put back"
same clean out "the site with the catalog put back differs from a clean build"
settle

# The paths in another order (the folders given the other way round).
(cd "$scratch" && "$bin" site --workloads w/b --workloads w/a --out out --catalog cat.xml \
	--date "$SITE_DATE" --accept-synthetic --stats -j 1) >"$scratch/b16.log" 2>&1 ||
	{ cat "$scratch/b16.log"; die "the swapped build failed"; }
built b16.log "the paths in another order"
settle
build out b17.log -j 1
built b17.log "the paths' order back"
settle

# The racy rule: a cache not older than OUT's folders trusts nothing.
build out b18.log -j 1
untouched b18.log
touch -d '2000-01-01 00:00:00' "$scratch/.out.gpusheet-stat"
build out b19.log -j 1
built b19.log "a racy cache"

# --rehash: everything read again.
settle
build out b20.log -j 1
untouched b20.log
build out b21.log -j 1 --rehash
built b21.log "--rehash"
grep -q "^stats: $N workloads read, 0 trusted unread" "$scratch/b21.log" || err "b21.log: --rehash read counts"
same clean out "the site after --rehash differs from a clean build"

"$bin" verify "$scratch/out" >"$scratch/verify.log" 2>&1 || { cat "$scratch/verify.log"; err "verify refuses the site"; }
finish "an unchanged rebuild leaves OUT untouched; every other change builds"
