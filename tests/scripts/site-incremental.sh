#!/bin/sh
# site-incremental: a rebuild over an existing site renders only the sheets
# whose inputs changed (their keys in OUT/.gpusheet-keys.json, see
# gen/publish/site/site.h) and is byte-identical to a clean build; an option that changes
# every sheet (--lang) re-renders all of them; a changed measurement file
# re-renders the sheet that cites it; `verify` accepts the keys file; keys
# files edited, reformatted, with a broken entry or cut short are trusted no
# further than each entry's key.
#
# Uses a generated folder of 12 workloads (copies of examples/probe-dense
# and examples/seed-7b with their measurements).
#
#   sh site-incremental.sh GPUSHEET_BIN SOURCE_DIR SCRATCH_DIR
set -u
bin=$1 src=$2 scratch=$3
. "$src/tests/lib/common.sh"
N=12

build() { # build OUT LOG [options]: prints the "stats:" line to LOG
	b_out=$1 b_log=$2
	shift 2
	(cd "$scratch" && "$bin" site --catalog offers.xml --workloads w --out "$b_out" --date "$SITE_DATE" \
		--accept-synthetic --stats "$@") >"$scratch/$b_log" 2>&1 ||
		{ cat "$scratch/$b_log"; die "gpusheet site $* failed"; }
}
expect_stats() { # expect_stats LOG RENDERED REUSED
	grep -q "^stats: $2 sheets\{0,1\} rendered, $3 reused from the previous site$" "$1" ||
		{ cat "$1"; err "$1: expected $2 rendered and $3 reused"; }
}
expect_pages() { # expect_pages LOG RENDERED REUSED (patterns)
	grep -q "^stats: $2 pages\{0,1\} rendered, $3 reused from the previous site$" "$1" ||
		{ cat "$1"; err "$1: expected $2 pages rendered and $3 reused"; }
}
same() { # same A B WHAT
	diff -r "$1" "$2" >"$scratch/diff.txt" 2>&1 || { head -n 20 "$scratch/diff.txt"; err "$3"; }
}

i=1
while [ "$i" -le "$N" ]; do
	case $((i % 2)) in 0) ex=seed-7b ;; *) ex=probe-dense ;; esac
	id=$(printf 'w%02d' "$i")
	mkdir -p "$scratch/w" && cp -R "$src/examples/$ex" "$scratch/w/$id" || die "cannot copy $ex"
	sed -e "s/\"id\": \"$ex\"/\"id\": \"$id\"/" "$src/examples/$ex/workload.json" >"$scratch/w/$id/workload.json"
	i=$((i + 1))
done

build out b1.log -j 2
expect_stats "$scratch/b1.log" $N 0
[ -f "$scratch/out/.gpusheet-keys.json" ] || err "no keys file"
"$bin" verify "$scratch/out" >"$scratch/verify.log" 2>&1 || { cat "$scratch/verify.log"; err "verify refuses the site with its keys"; }

# Nothing changed: nothing rendered (sheets, index and offer pages), same bytes.
cp -R "$scratch/out" "$scratch/first"
build out b2.log -j 2
expect_stats "$scratch/b2.log" 0 $N
expect_pages "$scratch/b2.log" 0 "[1-9][0-9]*"
same "$scratch/first" "$scratch/out" "a rebuild with nothing changed differs"

# One workload changed (its title): only it is rendered; equals a clean build.
sed -i 's/"title": "/"title": "Changed: /' "$scratch/w/w03/workload.json"
grep -q '"title": "Changed: ' "$scratch/w/w03/workload.json" || die "cannot change w03's title"
build out b3.log -j 2
expect_stats "$scratch/b3.log" 1 $((N - 1))
build clean3 c3.log -j 1
expect_stats "$scratch/c3.log" $N 0
same "$scratch/clean3" "$scratch/out" "a rebuild after one change differs from a clean build"
grep -q 'Changed: ' "$scratch/out/sheets/w03.html" || err "w03 was not rendered again"

# One measurement file changed (a trailing blank line: new bytes, new hash):
# only the sheet that cites it; one process this time.
printf '\n' >>"$scratch/w/w05/measurements/h200-probe-dense.json"
build out b4.log -j 1
expect_stats "$scratch/b4.log" 1 $((N - 1))
build clean4 c4.log -j 2
same "$scratch/clean4" "$scratch/out" "a rebuild after a new measurement differs from a clean build"

# A workload gone, an option that changes every sheet.
rm -r "$scratch/w/w12"
build out b5.log --lang es
expect_stats "$scratch/b5.log" $((N - 1)) 0
build clean5 c5.log --lang es
same "$scratch/clean5" "$scratch/out" "a rebuild in another language differs from a clean build"
[ ! -e "$scratch/out/sheets/w12.html" ] || err "the sheet of a removed workload is still there"

# A keys file that cannot be read: a full build, same bytes.
printf 'not json' >"$scratch/out/.gpusheet-keys.json"
build out b6.log --lang es
expect_stats "$scratch/b6.log" $((N - 1)) 0
same "$scratch/clean5" "$scratch/out" "a build over an unreadable keys file differs from a clean build"
# A keys file of the earlier format (gpusheet-keys/3, one JSON object):
# verify names it and says to build again; a build over it is a full build.
printf '{"format":"gpusheet-keys/3","pages":{\n},"sheets":{\n}}\n' >"$scratch/out/.gpusheet-keys.json"
"$bin" verify "$scratch/out" >"$scratch/verify3.log" 2>&1 && err "verify accepts a keys file of format 3"
grep -q 'is of format gpusheet-keys/3, written by an earlier gpusheet.*from scratch' "$scratch/verify3.log" ||
	{ cat "$scratch/verify3.log"; err "verify does not say the keys file is of an earlier format"; }
build out b6b.log --lang es
expect_stats "$scratch/b6b.log" $((N - 1)) 0
same "$scratch/clean5" "$scratch/out" "a build over a keys file of format 3 differs from a clean build"
# A keys file edited by hand (a title, a status digit out of range): those
# sheets are rendered, the index is a clean build's.
sed -i -e '0,/"title":"/s//"title":"Edited /' -e '0,/"status":"[0-3]/s//"status":"9/' \
	"$scratch/out/.gpusheet-keys.json"
grep -q '"title":"Edited ' "$scratch/out/.gpusheet-keys.json" &&
	grep -q '"status":"9' "$scratch/out/.gpusheet-keys.json" || die "cannot edit the keys file"
build out b7.log --lang es
grep -q '^stats: [12] sheets\{0,1\} rendered' "$scratch/b7.log" ||
	{ cat "$scratch/b7.log"; err "an edited keys entry was reused"; }
same "$scratch/clean5" "$scratch/out" "a build over an edited keys file differs from a clean build"
# The keys file is read a line at a time, each sheet's line found by its
# prefix and parsed by jansson when used (gen/publish/site/site_keysfile.c):
# a file whose newlines are removed is one line, not this format: a full
# build; a sheet's line that jansson refuses (a bad escape) is that sheet
# rendered, the others reused; a file cut short (its last line without
# its newline) is refused: a full build.
keys=$scratch/out/.gpusheet-keys.json
tr -d '\n' <"$keys" >"$scratch/keys.tmp" && mv "$scratch/keys.tmp" "$keys"
build out b8.log --lang es
expect_stats "$scratch/b8.log" $((N - 1)) 0
same "$scratch/clean5" "$scratch/out" "a build over a keys file of one line differs from a clean build"
grep -q '^{"sheet":"' "$keys" && [ "$(grep -c '^{"page":"' "$keys")" -gt 1 ] ||
	die "the keys file is not a line per page and per sheet"
sed -i '0,/\],"key":"/s//],"key":"\\x/' "$keys"
grep -q '^{"sheet":".*\],"key":"\\x' "$keys" || die "cannot break a sheet's line"
build out b9.log --lang es
expect_stats "$scratch/b9.log" 1 $((N - 2))
same "$scratch/clean5" "$scratch/out" "a build over a broken sheet's line differs from a clean build"
# A reused sheet's line is copied into the new keys file as it is: a line
# not written the way a build writes it (a blank after "why":[) is that
# sheet rendered, the keys file a clean build's.
sed -i '0,/"why":\[/s//"why":[ /' "$keys"
grep -q '"why":\[ ' "$keys" || die "cannot reformat a sheet's reasons"
build out b9b.log --lang es
expect_stats "$scratch/b9b.log" 1 $((N - 2))
same "$scratch/clean5" "$scratch/out" "a build over reformatted reasons differs from a clean build"
# Reasons with a string that jansson refuses (an escape \u not followed by
# four hex digits): that sheet rendered, not its bytes copied into the new
# keys file, where no reader could parse them again.
sed -i '0,/"why":\["/s//"why":["\\uZZZZ/' "$keys"
grep -q '"why":\["\\uZZZZ' "$keys" || die "cannot break a sheet's reasons"
build out b9c.log --lang es
expect_stats "$scratch/b9c.log" 1 $((N - 2))
same "$scratch/clean5" "$scratch/out" "a build over reasons jansson refuses differs from a clean build"
# A sheet's line without its prefix ({"sheet": "ID", with a blank): the
# file is refused, a full build.
sed -i '0,/^{"sheet":"/s//{"sheet": "/' "$keys"
grep -q '^{"sheet": "' "$keys" || die "cannot break a sheet's prefix"
build out b9d.log --lang es
expect_stats "$scratch/b9d.log" $((N - 1)) 0
same "$scratch/clean5" "$scratch/out" "a build over a line without its prefix differs from a clean build"
"$bin" verify "$scratch/out" >"$scratch/verify2.log" 2>&1 || { cat "$scratch/verify2.log"; err "verify refuses a rebuilt keys file"; }
head -c 3000 "$keys" >"$scratch/keys.tmp" && mv "$scratch/keys.tmp" "$keys"
build out b10.log --lang es
expect_stats "$scratch/b10.log" $((N - 1)) 0
same "$scratch/clean5" "$scratch/out" "a build over a truncated keys file differs from a clean build"
# The pages' lines are read once, in order, each parsed by jansson: a
# page's key that is not a string is no page reused; a name written with a
# \u escape is the same name (jansson decodes it): every page reused; the
# same bytes each time.
build out b10b.log --lang es
total=$(sed -n 's/^stats: 0 pages\{0,1\} rendered, \([0-9]*\) reused from the previous site$/\1/p' "$scratch/b10b.log")
[ -n "$total" ] && [ "$total" -gt 1 ] || { cat "$scratch/b10b.log"; die "no pages reused to start from"; }
sed -E -i '0,/"page":"index.html","key":"[0-9a-f]{64}"/s//"page":"index.html","key":7/' "$keys"
grep -q '"page":"index.html","key":7' "$keys" || die "cannot break a page's key"
build out b10c.log --lang es
expect_pages "$scratch/b10c.log" "$total" 0
same "$scratch/clean5" "$scratch/out" "a build over a page key that is not a string differs from a clean build"
sed -i '0,/"page":"index.html"/s//"page":"index\\u002ehtml"/' "$keys"
grep -q '"page":"index\\u002ehtml"' "$keys" || die "cannot escape a page's name"
build out b10d.log --lang es
expect_pages "$scratch/b10d.log" 0 "$total"
same "$scratch/clean5" "$scratch/out" "a build over an escaped page name differs from a clean build"
# Pages: 150 generated workloads x 3 offers are two index pages and two
# pages per offer (100 workloads a page). A new title for a workload of the
# second hundred re-renders its sheet, its index page and its offers'
# pages of that hundred (1 + 3 pages); the first hundred's pages (1 + 3)
# are linked from the old site; the site equals a clean build.
need python3 "sh tools/install-deps.sh --test"
python3 "$src/bench/gen_workloads.py" "$scratch/g" --workloads 150 --offers 3 >/dev/null ||
	die "gen_workloads.py failed"
gbuild() { # gbuild OUT LOG
	"$bin" site --workloads "$scratch/g/workloads" --catalog "$scratch/g/offers.xml" --out "$scratch/$1" \
		--date "$SITE_DATE" --accept-synthetic --stats -j 2 >"$scratch/$2" 2>&1 ||
		{ cat "$scratch/$2"; err "site failed ($2)"; }
}
gbuild gout g1.log
expect_pages "$scratch/g1.log" 8 0
python3 -c '
import json, sys
w = json.load(open(sys.argv[1], encoding="utf-8"))
w["title"] = "Changed: " + w["title"]
json.dump(w, open(sys.argv[1], "w", encoding="utf-8"), indent=2)
' "$scratch/g/workloads/w00120/workload.json" || die "cannot change w00120's title"
gbuild gout g2.log
expect_stats "$scratch/g2.log" 1 149
expect_pages "$scratch/g2.log" 4 4
gbuild gclean g3.log
same "$scratch/gclean" "$scratch/gout" "a rebuild after one change on the second index page differs from a clean build"
grep -q 'Changed: ' "$scratch/gout/index-2.html" || err "index-2.html was not rendered again"
finish "ok: rebuilds render only what changed and equal clean builds"
