#!/bin/sh
# site-stat-reuse: an unchanged rebuild reads no workload again (the stat
# cache beside OUT, gen/publish/site/site_stat.c: size, inode, mtime and
# ctime with nanoseconds of each workload and cited file) and renders
# nothing; a file touched with the same bytes is read again and its sheet
# reused; new bytes of the same size with the old mtime put back (touch -d)
# are caught (the ctime changed: git's full check); a cache not older than
# the files (the racy rule) trusts nothing; --rehash reads everything; every
# rebuild is the bytes of a clean build.
#
#   sh site-stat-reuse.sh GPUSHEET_BIN SOURCE_DIR SCRATCH_DIR
set -u
bin=$1 src=$2 scratch=$3
. "$src/tests/lib/common.sh"
N=6

build() { # build OUT LOG [options]
	b_out=$1 b_log=$2
	shift 2
	(cd "$scratch" && "$bin" site --catalog offers.xml --workloads w --out "$b_out" --date "$SITE_DATE" \
		--accept-synthetic --stats "$@") >"$scratch/$b_log" 2>&1 ||
		{ cat "$scratch/$b_log"; die "gpusheet site $* failed"; }
}
expect() { # expect LOG PATTERN WHAT
	grep -q "$2" "$scratch/$1" || { cat "$scratch/$1"; err "$1: $3"; }
}
read_unread() { # read_unread LOG READ UNREAD
	expect "$1" "^stats: $2 workloads\{0,1\} read, $3 trusted unread" "expected $2 read and $3 unread"
}
rendered() { # rendered LOG SHEETS
	expect "$1" "^stats: $2 sheets\{0,1\} rendered" "expected $2 sheets rendered"
}
same() { # same A B WHAT
	diff -r "$scratch/$1" "$scratch/$2" >"$scratch/diff.txt" 2>&1 || { head -n 20 "$scratch/diff.txt"; err "$3"; }
}

i=1
while [ "$i" -le "$N" ]; do
	case $((i % 2)) in 0) ex=seed-7b ;; *) ex=probe-dense ;; esac
	id=$(printf 'w%02d' "$i")
	mkdir -p "$scratch/w" && cp -R "$src/examples/$ex" "$scratch/w/$id" || die "cannot copy $ex"
	sed -e "s/\"id\": \"$ex\"/\"id\": \"$id\"/" "$src/examples/$ex/workload.json" >"$scratch/w/$id/workload.json"
	i=$((i + 1))
done
sleep 0.05   # (the files older than the build's start, whatever the clock's grain)

build out b1.log -j 2
read_unread b1.log $N 0
[ -f "$scratch/.out.gpusheet-stat" ] || err "no stat cache beside OUT"
[ ! -e "$scratch/out/.out.gpusheet-stat" ] || err "the stat cache is in OUT"
cp -R "$scratch/out" "$scratch/first"

# Nothing changed: nothing read, nothing rendered, the same bytes.
build out b2.log -j 2
read_unread b2.log 0 $N
rendered b2.log 0
expect b2.log "^stats: 0 pages rendered" "pages rendered again"
same first out "an unchanged rebuild differs"
build out b2b.log -j 1
read_unread b2b.log 0 $N
same first out "an unchanged rebuild (-j 1) differs"

# Touched, same bytes: read and hashed again, its sheet reused.
sleep 0.05
touch "$scratch/w/w02/workload.json"
sleep 0.05
build out b3.log -j 1
read_unread b3.log 1 $((N - 1))
rendered b3.log 0
same first out "a touched workload changed the site"

# New bytes, same size, the old mtime put back: the ctime tells (a title's letter).
f=$scratch/w/w03/workload.json
old=$(stat -c '%y' "$f")
sed -i 's/"title": "\(.\)/"title": "#/' "$f"
touch -d "$old" "$f"
[ "$(stat -c '%y' "$f")" = "$old" ] || die "cannot put the mtime back"
sleep 0.05
build out b4.log -j 2
read_unread b4.log 1 $((N - 1))
rendered b4.log 1
build clean4 c4.log -j 1
same clean4 out "a rebuild after a same-size change differs from a clean build"

# A cited measurement changed the same way: the workload is read, its sheet rendered.
m=$(ls "$scratch"/w/w05/measurements/*.json | head -n 1)
old=$(stat -c '%y' "$m")
sz=$(stat -c '%s' "$m")
sed -i 's/"seed": 1234/"seed": 4321/' "$m"
cmp -s "$m" "$src/examples/probe-dense/measurements/$(basename "$m")" && die "cannot change $m"
[ "$(stat -c '%s' "$m")" = "$sz" ] || die "$m changed size"
touch -d "$old" "$m"
sleep 0.05
build out b5.log -j 1
read_unread b5.log 1 $((N - 1))
rendered b5.log 1
build clean5 c5.log -j 2
same clean5 out "a rebuild after a cited file's same-size change differs from a clean build"

# The racy rule: a cache not older than the files trusts none of them.
build out b6.log -j 1
read_unread b6.log 0 $N
touch -d '2000-01-01 00:00:00' "$scratch/.out.gpusheet-stat"
build out b7.log -j 1
read_unread b7.log $N 0
rendered b7.log 0
same clean5 out "a racy rebuild differs"

# --rehash: everything read, nothing rendered.
build out b8.log -j 2 --rehash
read_unread b8.log $N 0
rendered b8.log 0
same clean5 out "a rebuild with --rehash differs"

# Another OUT's cache (a site copied): ignored, everything read.
cp -R "$scratch/out" "$scratch/copy"
cp "$scratch/.out.gpusheet-stat" "$scratch/.copy.gpusheet-stat"
build copy b9.log -j 1
read_unread b9.log $N 0

"$bin" verify "$scratch/out" >"$scratch/verify.log" 2>&1 || { cat "$scratch/verify.log"; err "verify refuses the rebuilt site"; }
finish
