#!/bin/sh
# datadir: where the binary finds its catalog, schemas and templates (item 6
# of issue 13).
#  - a binary outside its build tree, with no data next to it, refuses with
#    a message instead of using the source tree compiled into it;
#  - installed (cmake --install), it finds its data next to itself;
#  - GPUSHEET_DATADIR, when set, is used, or refused with a message naming it.
#
#   sh datadir.sh GPUSHEET_BIN SOURCE_DIR SCRATCH_DIR
set -u
bin=$1 src=$2 scratch=$3
. "$src/tests/lib/common.sh"
need cmake "the build tool"
w=$src/examples/seed-7b/workload.json
build=$(dirname "$bin")
# outside the build tree (the scratch folder is inside it)
out=$(mktemp -d "${TMPDIR:-/tmp}/gs-datadir-XXXXXX") || die "mktemp failed"
trap 'rm -rf "$out"' EXIT

mkdir -p "$out/lone" && cp "$bin" "$out/lone/gpusheet" || die "cannot copy the binary"
if "$out/lone/gpusheet" check "$w" >"$scratch/out.txt" 2>"$scratch/err.txt"; then
	err "a binary outside its build tree used the source tree's data"
else
	grep -q 'no data folder next to the binary' "$scratch/err.txt" || { cat "$scratch/err.txt"; err "no message"; }
fi
echo "ok: outside the build tree, without data: $(cat "$scratch/err.txt")"

cmake --install "$build" --prefix "$out/inst" >"$out/install.log" 2>&1 ||
	{ cat "$out/install.log"; die "cmake --install failed"; }
"$out/inst/bin/gpusheet" check "$w" >"$scratch/out.txt" 2>&1 || { cat "$scratch/out.txt"; err "the installed binary fails"; }
(cd "$scratch" && "$out/inst/bin/gpusheet" sheet "$w" --out "$scratch/o1") >"$scratch/out.txt" 2>&1 ||
	{ cat "$scratch/out.txt"; err "the installed binary cannot make a sheet"; }
# the PNG part, from the install's LIBDIR/gpusheet (gen/chart/png/pngpart.h)
(cd "$scratch" && "$out/inst/bin/gpusheet" sheet "$w" --png --out "$scratch/o2") >"$scratch/out.txt" 2>&1 ||
	{ cat "$scratch/out.txt"; err "the installed binary cannot load its PNG part"; }
ls "$scratch/o2"/*.png >/dev/null 2>&1 || err "the installed binary wrote no PNG"
echo "ok: the installed binary finds its data and its PNG part next to itself"

if GPUSHEET_DATADIR="$scratch/nope" "$bin" check "$w" >"$scratch/out.txt" 2>"$scratch/err.txt"; then
	err "a bad GPUSHEET_DATADIR was passed over in silence"
else
	grep -qF "GPUSHEET_DATADIR is '$scratch/nope', which holds no catalog/catalog.rng" "$scratch/err.txt" ||
		{ cat "$scratch/err.txt"; err "the message does not name GPUSHEET_DATADIR"; }
fi
GPUSHEET_DATADIR="$out/inst/share/gpusheet" "$out/lone/gpusheet" check "$w" >"$scratch/out.txt" 2>&1 ||
	{ cat "$scratch/out.txt"; err "GPUSHEET_DATADIR is not used"; }
finish "ok: GPUSHEET_DATADIR used or refused with a message"
