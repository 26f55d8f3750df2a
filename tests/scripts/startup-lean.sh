#!/bin/sh
# startup-lean: only --png loads the PNG part (gen/chart/png/pngpart.h) and
# the libraries under Cairo (Cairo, pixman, fontconfig, FreeType, X11,
# libpng). Every other command, sheet and site without --png included,
# starts without them: the charts are SVG, laid out with built-in metrics.
# Without the part next to the executable, those commands still work, and
# --png says why it cannot render, exits 1 and writes nothing; a part that
# needs a symbol nothing defines is refused when loaded, by the symbol.
# Skipped (77) for a build with -DGPUSHEET_LAZY_PNG=OFF (no part to load).
#
#   sh startup-lean.sh GPUSHEET_BIN SOURCE_DIR SCRATCH_DIR
set -u
bin=$1 src=$2 scratch=$3
. "$src/tests/lib/common.sh"
cd "$src" || exit 1
part=$(dirname "$bin")/gpusheet-png.so
[ -f "$part" ] || skip "no gpusheet-png.so next to $bin (GPUSHEET_LAZY_PNG=OFF)"
pngheavy='lib(cairo|fontconfig|freetype|X11|xcb|pixman-1|png16)\.so|gpusheet-png'

# libraries the dynamic loader maps, as LD_DEBUG names them
loaded() {  # loaded OUTFILE COMMAND...
	o=$1
	shift
	LD_DEBUG=libs "$@" > /dev/null 2> "$o.ld"
	rc=$?
	grep -E 'calling init: ' "$o.ld" | sed 's/.*calling init: //' > "$o"
	return $rc
}

ldd "$bin" > "$scratch/ldd" 2>&1 || die "ldd $bin failed"
if grep -E "$pngheavy" "$scratch/ldd"; then
	err "the executable links a library of the PNG part directly (above)"
fi

loaded "$scratch/estimate" "$bin" estimate --parameters 7000000000 --bits 16 --reserve-gib 6 ||
	err "estimate failed"
loaded "$scratch/check" "$bin" check catalog/offers.xml || err "check (catalog) failed"
loaded "$scratch/sheet" "$bin" sheet --catalog offers.xml examples/seed-7b/workload.json --out "$scratch/out" ||
	err "sheet failed"
for c in estimate check sheet; do
	[ -s "$scratch/$c" ] || err "$c: LD_DEBUG shows no library at all (cannot tell)"
	if grep -E "$pngheavy" "$scratch/$c"; then
		err "$c loads the PNG part or its libraries (above)"
	fi
done
# the rendering libraries are linked in: the check above sees libraries
grep -qE 'libxml2\.so' "$scratch/sheet" || err "sheet did not load libxml2 (cannot tell)"

# --png does load it (the checks above can fail)
loaded "$scratch/sheet-png" "$bin" sheet --catalog offers.xml examples/seed-7b/workload.json --png \
	--out "$scratch/out-png" || err "sheet --png failed"
grep -q 'gpusheet-png\.so' "$scratch/sheet-png" || err "sheet --png did not load the PNG part"
grep -qE 'libcairo\.so' "$scratch/sheet-png" || err "sheet --png did not load Cairo"
ls "$scratch/out-png"/*.png > /dev/null 2>&1 || err "sheet --png wrote no PNG"

# an executable without its PNG part: SVG sheets still work, --png says
# why it cannot and writes nothing
mkdir "$scratch/nopng" || die "mkdir"
cp "$bin" "$scratch/nopng/" || die "cp"
"$scratch/nopng/gpusheet" sheet examples/seed-7b/workload.json --out "$scratch/nopng-out" \
	> /dev/null || err "sheet without the PNG part failed"
"$scratch/nopng/gpusheet" sheet examples/seed-7b/workload.json --png \
	--out "$scratch/nopng-png" > /dev/null 2> "$scratch/nopng.err"
rc=$?
[ "$rc" = 1 ] || err "sheet --png without the PNG part: exit code $rc, expected 1"
grep -q "cannot load the PNG part gpusheet-png.so" "$scratch/nopng.err" ||
	{ cat "$scratch/nopng.err"; err "sheet --png without the PNG part: no message naming it"; }
[ ! -e "$scratch/nopng-png" ] || err "sheet --png without the PNG part wrote something"
mkdir -p "$scratch/nopng-site-w/a" && cp examples/seed-7b/workload.json "$scratch/nopng-site-w/a/" ||
	die "cp"
"$scratch/nopng/gpusheet" site --workloads "$scratch/nopng-site-w" --png \
	--out "$scratch/nopng-site" > /dev/null 2> "$scratch/nopng-site.err"
rc=$?
[ "$rc" = 1 ] || err "site --png without the PNG part: exit code $rc, expected 1"
grep -q "cannot load the PNG part gpusheet-png.so" "$scratch/nopng-site.err" ||
	{ cat "$scratch/nopng-site.err"; err "site --png without the PNG part: no message naming it"; }
[ ! -e "$scratch/nopng-site" ] || err "site --png without the PNG part wrote something"

# The part is loaded RTLD_LAZY but linked -z now: a symbol of its own that
# no library defines is refused when it is loaded, with its name, and the
# command writes nothing (instead of "symbol lookup error" halfway through).
if have readelf; then
	readelf -d "$part" | grep -q 'BIND_NOW' || err "$part is not linked with -z now"
fi
badpart=$(dirname "$bin")/tests/badpart/gpusheet-png.so
[ -f "$badpart" ] || die "no $badpart (built by tests/CMakeLists.txt)"
mkdir "$scratch/badpart" || die "mkdir"
cp "$bin" "$badpart" "$scratch/badpart/" || die "cp"
"$scratch/badpart/gpusheet" sheet examples/seed-7b/workload.json --png --out "$scratch/badpart-out" \
	> /dev/null 2> "$scratch/badpart.err"
rc=$?
[ "$rc" = 1 ] || err "sheet --png with a part missing a symbol: exit code $rc, expected 1"
grep -q "cannot load the PNG part gpusheet-png.so.*undefined symbol: gs_test_missing_symbol" \
	"$scratch/badpart.err" ||
	{ cat "$scratch/badpart.err"; err "sheet --png with a part missing a symbol: no message naming it"; }
[ ! -e "$scratch/badpart-out" ] || err "sheet --png with a part missing a symbol wrote something"

finish "startup-lean: ok"
