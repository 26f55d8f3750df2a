#!/bin/sh
# hostile-notes: Markdown notes beyond the documented bounds (16,384 bytes,
# 16 nested containers on a line, runs of 32 delimiters) are refused by
# `check` and `sheet` with the JSON path and the bound, before cmark-gfm
# sees them (findings D3: 120 kB of "> - " crashed the recursive walk; D4:
# inputs that took 11-62 s inside cmark-gfm). Inputs just within the bounds,
# built from the same slow patterns, render in a few seconds at most.
#
#   sh hostile-notes.sh GPUSHEET_BIN SOURCE_DIR SCRATCH_DIR
set -u
bin=$1 src=$2 scratch=$3
. "$src/tests/lib/common.sh"
need timeout "coreutils"
LIMIT=15   # seconds, under the sanitizers, for any one run

# notes NAME ITEM COUNT: examples/seed-7b with notes = ITEM repeated COUNT times
notes() {
	awk -v it="$2" -v n="$3" '/^  "notes": /{
		c = ($0 ~ /,$/) ? "," : ""; printf "%s", "  \"notes\": \""
		for (i = 0; i < n; i++) printf "%s", it
		print "\"" c; next } { print }' "$src/examples/seed-7b/workload.json" >"$scratch/$1.json"
}
run() { # run LABEL CMD...: sets rc and secs
	r_label=$1
	shift
	t0=$(date +%s)
	timeout "$LIMIT" "$@" >"$scratch/out.txt" 2>"$scratch/err.txt"
	rc=$?
	secs=$(($(date +%s) - t0))
	[ "$rc" -ne 124 ] || err "$r_label: still running after $LIMIT s"
	[ "$rc" -lt 128 ] || { cat "$scratch/err.txt"; err "$r_label: killed by a signal (exit $rc)"; }
}
refused() { # refused NAME ITEM COUNT PATTERN
	notes "$1" "$2" "$3"
	for cmd in check sheet; do
		if [ "$cmd" = check ]; then
			run "$1 ($cmd)" "$bin" check "$scratch/$1.json"
		else
			run "$1 ($cmd)" "$bin" sheet --catalog offers.xml "$scratch/$1.json" --out "$scratch/out-$1"
		fi
		if [ "$rc" -ne 1 ] || ! grep -qF -- "$4" "$scratch/err.txt"; then
			cat "$scratch/err.txt"
			err "$1 ($cmd): exit $rc, want 1 with \"$4\""
		else
			echo "ok: $1 ($cmd) refused in $secs s: $(cut -c1-160 "$scratch/err.txt" | head -n 1)"
		fi
	done
}
rendered() { # rendered NAME ITEM COUNT
	notes "$1" "$2" "$3"
	run "$1" "$bin" sheet --catalog offers.xml "$scratch/$1.json" --out "$scratch/out-$1"
	if [ "$rc" -ne 0 ]; then
		cat "$scratch/err.txt"
		err "$1: exit $rc, want 0 (within the bounds)"
	else
		echo "ok: $1 within the bounds rendered in $secs s"
	fi
}

refused deep-quote-list '> - ' 30000 'at $.notes: a string of 120000 bytes'
refused deep-quote-list-16k '> - ' 4000 'at $.notes: Markdown nested 8000 levels deep on line 1'
refused many-gt '>' 16000 'at $.notes: Markdown nested 16000 levels deep'
refused underscores 'a_____________________________________b ' 400 "a run of more than 32 '_'"
refused too-big 'word ' 3300 'at $.notes: Markdown of 16500 bytes, more than the bound of 16384 bytes'
refused indented '                                  - x\\n' 2 'Markdown nested 18 levels deep'

rendered quotes-16 '> > > > > > > > > > > > > > > > x\\n' 480
rendered lists-16 '- - - - - - - - - - - - - - - - x\\n' 480
rendered brackets '[]( ' 4000
rendered emphasis '**a' 5000
rendered underscore-pairs '_a' 8000
rendered backticks '`a' 8000
finish "ok: notes bounded"
