#!/bin/sh
# hostile-messages: messages are safe to print (findings D12, D13).
#  - an id holding ESC and BEL, a path holding an OSC title sequence: the
#    message has the file and the location, shows the bytes as \x1b / \x07,
#    and holds no control byte at all;
#  - an id of 5,000 bytes is quoted cut at 200 bytes with its length (the
#    message under 600 bytes);
#  - a path is never cut: a missing file named by a path of some 5,000
#    bytes is named whole;
#  - a --catalog path with invalid UTF-8: the decision JSON keeps its
#    "catalog" field, and the JSON, Markdown and HTML are valid UTF-8.
#
#   sh hostile-messages.sh GPUSHEET_BIN SOURCE_DIR SCRATCH_DIR
set -u
bin=$1 src=$2 scratch=$3
. "$src/tests/lib/common.sh"
need iconv "libc-bin"
w=$src/examples/seed-7b/workload.json

no_control() { # no_control LABEL FILE: no byte below 0x20 but newline, no DEL
	if LC_ALL=C tr -d '\n' <"$2" | LC_ALL=C grep -q '[[:cntrl:]]'; then
		od -c "$2" | head -n 5
		err "$1: a control byte reaches the terminal"
	fi
}

sed 's/"id": "seed-7b"/"id": "a\\u001b[31mred\\u0007"/' "$w" >"$scratch/esc.json"
"$bin" check "$scratch/esc.json" >"$scratch/out.txt" 2>"$scratch/err.txt" && err "check accepts the id"
no_control "id with ESC" "$scratch/err.txt"
grep -qF 'esc.json: error: at $.id:' "$scratch/err.txt" || { cat "$scratch/err.txt"; err "id with ESC: no file or path"; }
grep -qF '"a\x1b[31mred\x07"' "$scratch/err.txt" || { cat "$scratch/err.txt"; err "id with ESC: not shown escaped"; }

bad="$scratch/x$(printf '\033]0;pwn\007')"
"$bin" sheet --catalog offers.xml "$bad/workload.json" --out "$scratch/o1" >"$scratch/out.txt" 2>"$scratch/err.txt" && err "sheet reads a missing file"
no_control "path with an OSC sequence" "$scratch/err.txt"
grep -qF 'x\x1b]0;pwn\x07/workload.json: error: cannot read' "$scratch/err.txt" ||
	{ cat "$scratch/err.txt"; err "path with an OSC sequence: not shown escaped"; }

long=$(head -c 5000 /dev/zero | tr '\0' a)
sed "s/\"id\": \"seed-7b\"/\"id\": \"$long\"/" "$w" >"$scratch/long.json"
# from the scratch folder: the message names long.json, so that its length
# is the cut id's (and the message's words), wherever the checkout lies
(cd "$scratch" && "$bin" check long.json) >"$scratch/out.txt" 2>"$scratch/err.txt" && err "check accepts a 5,000-byte id"
grep -q "found \"a\{200\}\.\.\.(5000 bytes)\"" "$scratch/err.txt" || { cut -c1-300 "$scratch/err.txt"; err "long id: not cut at 200 bytes with its length"; }
[ "$(wc -c <"$scratch/err.txt")" -lt 600 ] || err "long id: a message of $(wc -c <"$scratch/err.txt") bytes"

# a path of some 5,000 bytes (20 folders of 250), missing: named whole as
# the file of a message and in a message's words (verify's 'DIR')
seg=$(head -c 250 /dev/zero | tr '\0' b)
lp=$scratch
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do lp=$lp/$seg; done
"$bin" check "$lp/workload.json" >"$scratch/out.txt" 2>"$scratch/err.txt" && err "check reads a missing file"
grep -qF "$lp/workload.json: error: " "$scratch/err.txt" || { cut -c1-300 "$scratch/err.txt"; err "long path: the file is not named whole"; }
"$bin" verify "$lp" >"$scratch/out.txt" 2>"$scratch/err.txt" && err "verify passes a missing folder"
grep -qF "cannot read '$lp'" "$scratch/err.txt" || { cut -c1-300 "$scratch/err.txt"; err "long path: verify's message does not name it whole"; }

cat="$scratch/cat$(printf '\377').xml"
cp "$src/catalog/offers.xml" "$cat" || die "cannot copy the catalog"
(cd "$src" && "$bin" sheet examples/seed-7b/workload.json --catalog "$cat" --out "$scratch/o2") \
	>"$scratch/out.txt" 2>"$scratch/err.txt" || { cat "$scratch/err.txt"; die "sheet with the catalog failed"; }
grep -qF '"catalog": "' "$scratch/o2/seed-7b.json" || err "invalid UTF-8 catalog path: the JSON lost its catalog field"
for f in seed-7b.json seed-7b.md seed-7b.html; do
	iconv -f UTF-8 -t UTF-8 "$scratch/o2/$f" >/dev/null 2>&1 || err "$f is not valid UTF-8"
done
finish "ok: messages escaped and cut, outputs valid UTF-8"
