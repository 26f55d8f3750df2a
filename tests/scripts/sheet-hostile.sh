#!/bin/sh
# Hostile strings in every user field reach the sheet only as text.
# Usage: sheet-hostile.sh GPUSHEET SOURCE_DIR SCRATCH_DIR
#
# tests/data/sheet/hostile/ holds a workload whose every free-text field,
# a measurement whose every string (error, device name, frameworks,
# allocator settings, identity, ...) and a catalog whose every free-text
# attribute carry payloads: <script>, <img onerror>, [x](javascript:...),
# pipes, backticks, remote image syntax, raw HTML blocks in the notes.
# The sheet is rendered in English and Spanish, with the bundled catalog and
# with the hostile one, with a CI summary. Checks:
#  - HTML: no <script, no <iframe/<object/<embed, no on*= attribute in a
#    tag, no javascript:/data: URL and no remote URL in src/href, every
#    link local; the payloads are there, escaped (&lt;script&gt;);
#    xmllint --html finds no error (when xmllint is there);
#  - Markdown (sheet and summary), outside code spans and fenced blocks:
#    no unescaped '<' opening a tag or autolink (user '<' comes out as '\<'
#    or an entity), no link or image to anything but a local file, no link
#    reference definition; the notes' raw HTML does not pass through;
#  - JSON parses (when python3 or jq is there);
#  - SVG charts parse as XML and hold no <script or remote reference.
set -u
bin=$1 src=$2 scratch=$3
. "$src/tests/lib/common.sh"
cd "$src" || exit 1
data=tests/data/sheet/hostile

# Markdown with code spans and fenced code blocks replaced by CODE: what a
# Markdown renderer reads as markup.
md_markup() {
	awk '
	function close_at(s, n,   off) {
		off = 0
		while (match(s, /`+/)) {
			if (RLENGTH == n)
				return off + RSTART
			off += RSTART + RLENGTH - 1
			s = substr(s, RSTART + RLENGTH)
		}
		return 0
	}
	/^ ? ? ?(```|~~~)/ { fence = !fence; print "CODE"; next }
	fence { next }
	{
		line = $0; out = ""
		while (match(line, /`+/)) {
			pre = substr(line, 1, RSTART - 1); n = RLENGTH
			run = substr(line, RSTART, n); rest = substr(line, RSTART + n)
			if (pre ~ /\\$/) {   # an escaped backtick is text
				out = out pre "`"; line = substr(run, 2) rest; continue
			}
			j = close_at(rest, n)
			if (j == 0) { out = out pre run; line = rest; continue }
			out = out pre "CODE"; line = substr(rest, j + n)
		}
		print out line
	}' "$1"
}

check_md() {  # check_md FILE LABEL
	md_f=$1 md_what=$2
	md_markup "$md_f" > "$scratch/markup"
	if grep -nE '(^|[^\\])<[A-Za-z!/?]' "$scratch/markup" > "$scratch/bad"; then
		err "$md_what: unescaped '<' opens a tag or an autolink:"
		cut -c1-200 "$scratch/bad" | head -5
	fi
	grep -oE '(^|[^\\])\]\([^)]*\)' "$scratch/markup" | sed 's/^.\{0,1\}](//; s/)$//' > "$scratch/targets"
	while IFS= read -r t; do
		case $t in
		*:*|/*|*..*) err "$md_what: link or image to a non-local target: $t" ;;
		esac
	done < "$scratch/targets"
	if grep -nE '^ {0,3}\[([^]\\]|\\.)*\]:' "$scratch/markup" > "$scratch/bad"; then
		err "$md_what: a link reference definition:"
		cut -c1-200 "$scratch/bad" | head -5
	fi
	grep -Eiq '(^|[^\\])\]\([[:space:]]*<?[[:space:]]*(javascript|vbscript|data):' "$scratch/markup" \
		&& err "$md_what: javascript:/data: link"
	# the notes' raw HTML block and inline HTML come out as text
	grep -q 'onclick="alert(1)"' "$scratch/markup" && ! grep -q '\\<div onclick="alert(1)"\\>' "$scratch/markup" \
		&& err "$md_what: the notes' raw HTML passed through"
	return 0
}

check_html() {  # check_html FILE OUTDIR LABEL
	h_f=$1 h_out=$2 h_what=$3
	tr '\n\r\t' '   ' < "$h_f" > "$scratch/flat"
	# the tags only: escaped text (&lt;a href=...) is not markup
	grep -o '<[A-Za-z][^>]*>' "$scratch/flat" > "$scratch/tags"
	grep -Eiq '<script' "$scratch/flat" && err "$h_what: <script"
	grep -Eiq '<(iframe|object|embed|base|form|svg|math|style[^>]*>[^<]*evil)[ >]' "$scratch/flat" \
		&& err "$h_what: iframe/object/embed/base/form/svg element or user style"
	if grep -Ei '[[:space:]]on[a-z]+[[:space:]]*=' "$scratch/tags" > "$scratch/bad"; then
		err "$h_what: an on*= event attribute in a tag:"
		cut -c1-200 "$scratch/bad" | head -3
	fi
	grep -Ei '^<img' "$scratch/tags" | grep -Eiq 'onerror' && err "$h_what: <img> with onerror"
	grep -Eio '(src|href|srcset|action|formaction|poster|xlink:href)[[:space:]]*=[[:space:]]*("[^"]*"|'"'"'[^'"'"']*'"'"'|[^[:space:]>]+)' \
		"$scratch/tags" > "$scratch/attrs"
	if grep -Ei '(javascript|vbscript|data):' "$scratch/attrs" > "$scratch/bad"; then
		err "$h_what: javascript:/data: URL in an attribute:"
		head -3 "$scratch/bad"
	fi
	if grep -Ei '(https?:)?//|evil' "$scratch/attrs" > "$scratch/bad"; then
		err "$h_what: remote URL in an attribute:"
		head -3 "$scratch/bad"
	fi
	sed -n 's/^[a-z:]*="\(.*\)"$/\1/p' "$scratch/attrs" | grep -v '^#' | sort -u > "$scratch/links"
	while IFS= read -r l; do
		case $l in
		/*|*..*) err "$h_what: link leaves the output folder: $l" ;;
		*) [ -f "$h_out/$l" ] || err "$h_what: link to a missing file: $l" ;;
		esac
	done < "$scratch/links"
	# the payloads reached the page, as text
	grep -q '&lt;script&gt;alert(1)&lt;/script&gt;' "$scratch/flat" || err "$h_what: the escaped payload is not on the page"
	grep -q '&lt;img src=x onerror=alert(1)&gt;' "$scratch/flat" || err "$h_what: the escaped <img> payload is not on the page"
	if have xmllint; then
		xmllint --html --noout "$h_f" > "$scratch/xmllint" 2>&1
		if grep 'error' "$scratch/xmllint" | grep -Ev 'Tag (main|nav|section|article|aside|header|footer|figure|figcaption|time|picture|details|summary|mark) invalid' > "$scratch/bad"; then
			err "$h_what: xmllint --html reports errors:"
			head -10 "$scratch/bad"
		fi
	fi
}

check_json() {  # check_json FILE LABEL; $1 and $2 only
	if have python3; then
		python3 -c 'import json, sys; json.load(open(sys.argv[1], encoding="utf-8"))' "$1" 2> "$scratch/bad" \
			|| { err "$2: not valid JSON"; cat "$scratch/bad"; }
	elif have jq; then
		jq empty "$1" 2> "$scratch/bad" || { err "$2: not valid JSON"; cat "$scratch/bad"; }
	fi
	grep -q 'title <script>alert(1)</script>' "$1" || err "$2: the title is not kept as is in the JSON"
}

n=0
for cat in bundled hostile; do
	for lang in en es; do
		out="$scratch/$cat-$lang"
		set -- sheet "$data/workload.json" --out "$out" --lang "$lang" --date 2026-11-29 \
			--summary "$scratch/$cat-$lang-summary.md"
		[ $cat = hostile ] && set -- "$@" --catalog "$data/catalog.xml"
		if ! "$bin" "$@" > "$scratch/stdout" 2> "$scratch/stderr"; then
			err "$cat catalog, $lang: gpusheet sheet failed"
			cat "$scratch/stderr"
			continue
		fi
		n=$((n + 1))
		what="$cat-$lang"
		for f in hostile.md hostile.html hostile.json; do
			[ -s "$out/$f" ] || err "$what: $f missing"
		done
		check_md "$out/hostile.md" "$what/hostile.md"
		check_md "$scratch/$cat-$lang-summary.md" "$what/summary"
		grep -q '\\<script\\>alert(1)\\</script\\>' "$out/hostile.md" || err "$what/hostile.md: the payload is not there escaped as \\<script\\>"
		check_html "$out/hostile.html" "$out" "$what/hostile.html"
		check_json "$out/hostile.json" "$what/hostile.json"
		for svg in "$out"/hostile-*.svg; do
			[ -f "$svg" ] || continue
			if have xmllint; then
				xmllint --noout --nonet "$svg" 2> "$scratch/bad" || { err "$svg: not well-formed"; head -3 "$scratch/bad"; }
			fi
			grep -Eiq '<script|(href|src)="(https?:|javascript:)' "$svg" && err "$what: $(basename "$svg") holds a script or a remote reference"
		done
		# only the expected files, inside the output folder
		find "$out" -type f | sed "s|^$out/||" | grep -Ev '^(hostile(\.md|\.html|\.json|-[a-z0-9-]+\.(svg|png))|evidence/([0-9a-f]{64}\.json|manifest\.json))$' > "$scratch/extra"
		[ -s "$scratch/extra" ] && { err "$what: unexpected output files:"; head -5 "$scratch/extra"; }
	done
done
[ "$n" = 4 ] || err "only $n of 4 sheets rendered"
finish "sheet-hostile: ok ($n sheets)"
