#!/bin/sh
# tests/hostile/run.sh: every file gpusheet reads or keeps in or beside an
# output folder, put through the four forms a hostile neighbour can plant
# there: a FIFO, a symbolic link to /dev/zero, a folder, and a 2 GB sparse
# file. For each: the command ends within $LIMIT seconds (no hang), its
# peak memory stays under $RSS_KB (nothing read without a bound), its exit
# status is the one expected, a refusal says why, and OUT's bytes are what
# they must be: a clean build's when the file is only gpusheet's own state
# (ignored, then replaced), untouched when the run is refused.
#
# The files: a site's keys file (OUT/.gpusheet-keys.json), its stat cache
# (.OUT.gpusheet-stat beside it) and the name an older gpusheet wrote that
# cache through (.OUT.gpusheet-stat.tmp, never opened now), the replaced
# site's evidence/manifest.json, OUT's lock (.OUT.gpusheet-lock), a
# shard's keys file and stat cache, the files `merge` reads from a shard
# (.gpusheet-shard.json, .gpusheet-keys.json, evidence/manifest.json), the keys file
# `verify` checks, and a lone sheet's folder (its evidence/manifest.json,
# its lock).
#
#   sh tests/hostile/run.sh GPUSHEET_BIN SOURCE_DIR SCRATCH_DIR
set -u
bin=$1 src=$2 scratch=$3
. "$src/tests/lib/common.sh"
need timeout "coreutils"
need truncate "coreutils"
need mkfifo "coreutils"
LIMIT=60          # seconds for any run under the sanitizers (a hang is killed at this)
RSS_KB=1000000    # peak memory of any run: a 2 GB file read whole would pass it
FORMS="fifo zero folder sparse"

# plant FORM PATH: the hostile form at PATH (whatever was there removed)
plant() {
	rm -rf "$2" || die "cannot remove $2"
	case $1 in
	fifo) mkfifo "$2" ;;
	zero) ln -s /dev/zero "$2" ;;
	folder) mkdir "$2" ;;
	sparse) truncate -s 2G "$2" ;;
	esac || die "cannot plant a $1 at $2"
}
# what a refusal of FORM must say
reason() {
	case $1 in
	fifo) echo "FIFO" ;;
	zero) echo "symbolic link" ;;
	folder) echo "folder" ;;
	sparse) echo "more than the bound" ;;
	esac
}
# snap DIR: names, types and sizes of everything under DIR, and the bytes
# of its regular files (a sparse one by its size only)
snap() {
	# (a folder's own size is its file system's business: not compared)
	(cd "$1" 2>/dev/null && find . \( -type d -printf '%p %y\n' \) -o \( ! -type d -printf '%p %y %s %l\n' \) |
		LC_ALL=C sort &&
		find . -type f -size -64M -print0 | LC_ALL=C sort -z | xargs -0 -r md5sum)
}
# run LABEL WANT_RC PATTERN CMD...: exit WANT_RC within LIMIT, peak under
# RSS_KB, stderr holding PATTERN (when not empty)
run() {
	r_label=$1 r_want=$2 r_pat=$3
	shift 3
	t0=$(date +%s)
	if [ -x /usr/bin/time ]; then
		timeout "$LIMIT" /usr/bin/time -f '%M' -o "$scratch/rss.txt" "$@" \
			>"$scratch/out.txt" 2>"$scratch/err.txt"
	else
		timeout "$LIMIT" "$@" >"$scratch/out.txt" 2>"$scratch/err.txt"
	fi
	r_rc=$?
	t1=$(date +%s)
	if [ "$r_rc" -eq 124 ]; then
		err "$r_label: still running after $LIMIT s (a hang)"
		return 1
	fi
	if [ "$r_rc" -ne "$r_want" ]; then
		head -n 5 "$scratch/err.txt"
		err "$r_label: exit $r_rc, want $r_want"
		return 1
	fi
	if [ -n "$r_pat" ] && ! grep -qF -- "$r_pat" "$scratch/err.txt" "$scratch/out.txt"; then
		head -n 5 "$scratch/err.txt" "$scratch/out.txt"
		err "$r_label: the message does not say \"$r_pat\""
		return 1
	fi
	if [ -x /usr/bin/time ]; then
		rss=$(tail -n 1 "$scratch/rss.txt")
		[ "$rss" -lt "$RSS_KB" ] || { err "$r_label: a peak of $rss KB"; return 1; }
	fi
	echo "ok: $r_label: exit $r_rc in $((t1 - t0)) s${rss:+, $rss KB}"
}
# same LABEL A B: trees A and B hold the same bytes
same() {
	snap "$2" >"$scratch/a.snap"
	snap "$3" >"$scratch/b.snap"
	cmp -s "$scratch/a.snap" "$scratch/b.snap" ||
		{ diff "$scratch/a.snap" "$scratch/b.snap" | head -n 10; err "$1: OUT is not what it must be"; }
}

w=$scratch/w
mkdir -p "$w" && cp -R "$src/examples/lora-adapt" "$src/examples/seed-7b" "$w/" || die "cannot copy the examples"
# site OUT [OPTION...]: the site of $w into OUT (a script, so that run can time it)
cat >"$scratch/site" <<EOF || die "cannot write the site script"
#!/bin/sh
out=\$1
shift
exec "$bin" site --workloads "$w" --out "\$out" --accept-synthetic --date 2026-11-29 "\$@"
EOF
chmod +x "$scratch/site" || die "cannot make the site script executable"
site() {
	"$scratch/site" "$@"
}
site "$scratch/ref" >"$scratch/log" 2>&1 || { cat "$scratch/log"; die "the reference site failed"; }
site "$scratch/refshard" --shard 1/1 >"$scratch/log" 2>&1 || { cat "$scratch/log"; die "the reference shard failed"; }
"$bin" sheet "$w/lora-adapt/workload.json" --out "$scratch/refsheet" --accept-synthetic \
	--date 2026-11-29 >"$scratch/log" 2>&1 || { cat "$scratch/log"; die "the reference sheet failed"; }
[ -f "$scratch/ref/.gpusheet-keys.json" ] && [ -f "$scratch/.ref.gpusheet-stat" ] &&
	[ -f "$scratch/ref/evidence/manifest.json" ] && [ -f "$scratch/refshard/.gpusheet-shard.json" ] &&
	[ -f "$scratch/refsheet/evidence/manifest.json" ] || die "a file this test plants over was not written"

o=$scratch/o
for form in $FORMS; do
	why=$(reason "$form")
	# --- gpusheet's own state: ignored (a full build), replaced, OUT as a clean build's
	rm -rf "$o" && mkdir "$o" && cp -R "$scratch/ref" "$o/site"
	plant "$form" "$o/site/.gpusheet-keys.json"
	run "site, keys file a $form" 0 "" "$scratch/site" "$o/site" && same "keys file a $form" "$scratch/ref" "$o/site"
	[ -f "$o/site/.gpusheet-keys.json" ] && [ ! -L "$o/site/.gpusheet-keys.json" ] ||
		err "keys file a $form: not replaced by a regular file"

	rm -rf "$o" && mkdir "$o" && cp -R "$scratch/ref" "$o/site"
	plant "$form" "$o/.site.gpusheet-stat"
	run "site, stat cache a $form" 0 "" "$scratch/site" "$o/site" && same "stat cache a $form" "$scratch/ref" "$o/site"
	if [ "$form" != folder ]; then
		[ -f "$o/.site.gpusheet-stat" ] && [ ! -L "$o/.site.gpusheet-stat" ] &&
			[ "$(wc -c <"$o/.site.gpusheet-stat")" -lt 100000 ] ||
			err "stat cache a $form: not replaced by the build's"
	fi
	# and the next build trusts the new cache: nothing written
	if [ "$form" != folder ]; then
		run "site again after a $form stat cache" 0 "" "$scratch/site" "$o/site" --stats &&
			{ grep -q "nothing written" "$scratch/out.txt" || err "stat cache a $form: the next build is not untouched"; }
	fi

	# the predictable temporary name of older builds: never opened, never followed
	rm -rf "$o" && mkdir "$o" && cp -R "$scratch/ref" "$o/site"
	plant "$form" "$o/.site.gpusheet-stat.tmp"
	snap "$o" | grep 'gpusheet-stat.tmp' >"$scratch/tmp-before.txt"
	run "site, .OUT.gpusheet-stat.tmp a $form" 0 "" "$scratch/site" "$o/site" &&
		same ".OUT.gpusheet-stat.tmp a $form" "$scratch/ref" "$o/site"
	snap "$o" | grep 'gpusheet-stat.tmp' | cmp -s - "$scratch/tmp-before.txt" ||
		err ".OUT.gpusheet-stat.tmp a $form: it was touched"

	# the replaced site's evidence manifest
	rm -rf "$o" && mkdir "$o" && cp -R "$scratch/ref" "$o/site"
	plant "$form" "$o/site/evidence/manifest.json"
	run "site, old evidence/manifest.json a $form" 0 "" "$scratch/site" "$o/site" &&
		same "old manifest a $form" "$scratch/ref" "$o/site"

	# a shard's own keys file and stat cache
	rm -rf "$o" && mkdir "$o" && cp -R "$scratch/refshard" "$o/shard"
	plant "$form" "$o/shard/.gpusheet-keys.json"
	run "site --shard, keys file a $form" 0 "" "$scratch/site" "$o/shard" --shard 1/1 &&
		same "shard keys file a $form" "$scratch/refshard" "$o/shard"
	rm -rf "$o" && mkdir "$o" && cp -R "$scratch/refshard" "$o/shard"
	plant "$form" "$o/.shard.gpusheet-stat"
	run "site --shard, stat cache a $form" 0 "" "$scratch/site" "$o/shard" --shard 1/1 &&
		same "shard stat cache a $form" "$scratch/refshard" "$o/shard"

	# --- refused, with the reason, OUT untouched
	rm -rf "$o" && mkdir "$o" && cp -R "$scratch/ref" "$o/site"
	plant "$form" "$o/.site.gpusheet-lock"
	snap "$o/site" >"$scratch/before.snap"
	run "site, its lock a $form" 1 "$why" "$scratch/site" "$o/site" &&
		{ snap "$o/site" | cmp -s - "$scratch/before.snap" || err "lock a $form: OUT changed"; }
	[ -e "$o/.site.gpusheet-lock" ] || [ -L "$o/.site.gpusheet-lock" ] || err "lock a $form: removed"

	for f in .gpusheet-shard.json .gpusheet-keys.json evidence/manifest.json; do
		rm -rf "$o" && mkdir "$o" && cp -R "$scratch/refshard" "$o/shard"
		plant "$form" "$o/shard/$f"
		run "merge, the shard's $f a $form" 1 "$why" \
			"$bin" merge "$o/merged" "$o/shard" --accept-synthetic --date 2026-11-29 &&
			{ [ ! -e "$o/merged" ] || err "merge, $f a $form: OUT written"; }
	done

	rm -rf "$o" && mkdir "$o" && cp -R "$scratch/ref" "$o/site"
	plant "$form" "$o/site/.gpusheet-keys.json"
	run "verify, keys file a $form" 1 ".gpusheet-keys.json" "$bin" verify "$o/site"

	rm -rf "$o" && mkdir "$o" && cp -R "$scratch/refsheet" "$o/sheet"
	plant "$form" "$o/sheet/evidence/manifest.json"
	snap "$o/sheet" >"$scratch/before.snap"
	run "sheet, its folder's evidence/manifest.json a $form" 1 "$why" \
		"$bin" sheet "$w/lora-adapt/workload.json" --out "$o/sheet" --accept-synthetic --date 2026-11-29 &&
		{ snap "$o/sheet" | cmp -s - "$scratch/before.snap" || err "sheet manifest a $form: OUT changed"; }
	rm -rf "$o" && mkdir "$o" && cp -R "$scratch/refsheet" "$o/sheet"
	plant "$form" "$o/.sheet.gpusheet-lock"
	snap "$o/sheet" >"$scratch/before.snap"
	run "sheet, its lock a $form" 1 "$why" \
		"$bin" sheet "$w/lora-adapt/workload.json" --out "$o/sheet" --accept-synthetic --date 2026-11-29 &&
		{ snap "$o/sheet" | cmp -s - "$scratch/before.snap" || err "sheet lock a $form: OUT changed"; }
done
rm -rf "$o"
finish "ok: every file in or beside OUT, as a FIFO, a link to /dev/zero, a folder and a 2 GB sparse file: no hang, no growth, nothing overwritten"
