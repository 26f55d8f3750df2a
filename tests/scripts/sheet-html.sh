#!/bin/sh
# The HTML decision sheet of every example, in English and Spanish, is
# well-formed and accessible. Usage: sheet-html.sh GPUSHEET SOURCE_DIR SCRATCH_DIR
# Skipped (77) without xmllint (Debian: libxml2-utils).
#
# Per page: `xmllint --html --noout` reports no error (libxml2 before 2.14
# only knows HTML 4, so "Tag main invalid" and the like for HTML5 sectioning
# elements are not errors of the page); <html lang="en"|"es">; every <table>
# opens with a <caption>; every header cell has scope="col" (or "row");
# no src/href/srcset/action points to http:// or https://; no <script>,
# no <iframe>/<object>/<embed>, no on*= event attribute; every local link or
# image points to a file that exists in the output folder.
set -u
bin=$1 src=$2 scratch=$3
. "$src/tests/lib/common.sh"
need xmllint "Debian: libxml2-utils"
cd "$src" || exit 1

# HTML5 elements libxml2's HTML 4 parser does not know.
html5='main|nav|section|article|aside|header|footer|figure|figcaption|time|picture|details|summary|mark|svg'

examples=$(example_ids) || die "no examples found"
n=0
for ex in $examples; do
	for lang in en es; do
		out="$scratch/$lang"
		if ! "$bin" sheet --catalog offers.xml "examples/$ex/workload.json" --out "$out" --lang "$lang" \
			--date 2026-11-29 > "$scratch/stdout" 2> "$scratch/stderr"; then
			err "$ex ($lang): gpusheet sheet failed"
			cat "$scratch/stderr"
			continue
		fi
		page="$out/$ex.html"
		[ -s "$page" ] || { err "$ex ($lang): no $ex.html"; continue; }
		n=$((n + 1))

		# well-formed
		xmllint --html --noout "$page" > "$scratch/xmllint" 2>&1
		if grep 'error' "$scratch/xmllint" | grep -Ev "Tag ($html5) invalid" > "$scratch/xmlerr"; then
			err "$lang/$ex.html: xmllint --html reports errors:"
			head -20 "$scratch/xmlerr"
		fi
		# a strict XML parse of the page as a tag soup would be too strict
		# (void elements); check instead that xmllint can re-serialize it.
		xmllint --html --xmlout "$page" > /dev/null 2>&1 || err "$lang/$ex.html: xmllint cannot serialize it"

		# language
		grep -q "<html lang=\"$lang\">" "$page" || err "$lang/$ex.html: no <html lang=\"$lang\">"

		# one line per page, for tag-level checks
		tr '\n\r\t' '   ' < "$page" > "$scratch/flat"

		# a caption per table, as its first child
		tables=$(grep -o '<table[ >]' "$scratch/flat" | wc -l)
		captions=$(grep -o '<table[^>]*>[[:space:]]*<caption[ >]' "$scratch/flat" | wc -l)
		[ "$tables" -gt 0 ] || err "$lang/$ex.html: no table at all"
		[ "$tables" = "$captions" ] || err "$lang/$ex.html: $tables tables, $captions open with a <caption>"
		caps=$(grep -o '<caption[ >]' "$scratch/flat" | wc -l)
		[ "$caps" = "$tables" ] || err "$lang/$ex.html: $caps captions for $tables tables"
		# empty captions are no captions
		grep -q '<caption[^>]*>[[:space:]]*</caption>' "$scratch/flat" && err "$lang/$ex.html: empty <caption>"

		# header cells
		grep -o '<th\( [^>]*\)\{0,1\}>' "$scratch/flat" > "$scratch/th"
		[ -s "$scratch/th" ] || err "$lang/$ex.html: no header cell"
		if grep -Ev 'scope="(col|row)"' "$scratch/th" > "$scratch/th-bad"; then
			err "$lang/$ex.html: header cells without scope:"
			sort -u "$scratch/th-bad" | head -5
		fi
		# header cells inside <thead> are column headers
		sed 's|</thead>|\n|g' "$scratch/flat" | sed -n 's|.*<thead>||p' | grep -o '<th\( [^>]*\)\{0,1\}>' \
			| grep -v 'scope="col"' > "$scratch/thead-bad"
		[ -s "$scratch/thead-bad" ] && err "$lang/$ex.html: a <thead> header cell without scope=\"col\""

		# no remote resources, no scripts
		if grep -Eio '(src|href|srcset|action|poster|data)[[:space:]]*=[[:space:]]*["'"'"']?[[:space:]]*(https?:)?//' "$scratch/flat" > "$scratch/remote"; then
			err "$lang/$ex.html: remote or protocol-relative URL in an attribute:"
			head -5 "$scratch/remote"
		fi
		grep -Eiq '<script' "$scratch/flat" && err "$lang/$ex.html: <script"
		grep -Eiq '<(iframe|object|embed|base|form)[ >]' "$scratch/flat" && err "$lang/$ex.html: iframe/object/embed/base/form element"
		grep -Eiq '<[a-z][^>]*[[:space:]]on[a-z]+[[:space:]]*=' "$scratch/flat" && err "$lang/$ex.html: an on*= event attribute"
		grep -Eiq '(src|href)[[:space:]]*=[[:space:]]*["'"'"']?[[:space:]]*(javascript|vbscript|data):' "$scratch/flat" \
			&& err "$lang/$ex.html: javascript:/data: URL"

		# every local link or image resolves inside the output folder
		grep -Eo '(src|href)="[^"#][^"]*"' "$scratch/flat" | sed 's/^[a-z]*="//; s/"$//' | sort -u > "$scratch/links"
		while IFS= read -r l; do
			case $l in
			/*|*..*) err "$lang/$ex.html: link leaves the output folder: $l" ;;
			*) [ -f "$out/$l" ] || err "$lang/$ex.html: link to a missing file: $l" ;;
			esac
		done < "$scratch/links"
		# charts are shown as images with a text alternative
		grep -o '<img[^>]*>' "$scratch/flat" | grep -v 'alt="[^"][^"]*"' > "$scratch/img-bad"
		[ -s "$scratch/img-bad" ] && err "$lang/$ex.html: <img> without a text alternative"
	done
done
[ "$n" -gt 0 ] || err "no page checked"
finish "sheet-html: $n pages ok"
