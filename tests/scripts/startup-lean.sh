#!/bin/sh
# startup-lean: the commands that render nothing do not load the rendering
# part (gen/cli/renderpart.h): estimate, kv and check of a JSON file start
# without Cairo, fontconfig, X11, libxml2 (and its ICU), cmark-gfm, nettle
# or libpng; sheet and check of a catalog load the rendering part, and only
# sheet --png loads the PNG part (gen/chart/png/pngpart.h: Cairo, libpng, X11...). Without the part next to
# the executable, those commands still work, and sheet says why it cannot
# render, exits 1 and writes nothing.
# Skipped (77) for a build with -DGPUSHEET_LAZY_RENDER=OFF (no part to load).
#
#   sh startup-lean.sh GPUSHEET_BIN SOURCE_DIR SCRATCH_DIR
set -u
bin=$1 src=$2 scratch=$3
. "$src/tests/lib/common.sh"
cd "$src" || exit 1
part=$(dirname "$bin")/gpusheet-render.so
[ -f "$part" ] || skip "no gpusheet-render.so next to $bin (GPUSHEET_LAZY_RENDER=OFF)"
heavy='lib(cairo|fontconfig|freetype|X11|xcb|xml2|icu[a-z]*|cmark-gfm|nettle|png16)\.so'

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
if grep -E "$heavy" "$scratch/ldd"; then
	err "the executable links a rendering library directly (above)"
fi

loaded "$scratch/estimate" "$bin" estimate --parameters 7000000000 --bits 16 --reserve-gib 6 ||
	err "estimate failed"
loaded "$scratch/kv" "$bin" kv --layers 32 --kv-heads 8 --head-dim 128 --tokens 8192 \
	--bytes-per-value 2 --sequences 1 || err "kv failed"
loaded "$scratch/check" "$bin" check examples/seed-7b/workload.json || err "check (JSON) failed"
for c in estimate kv check; do
	[ -s "$scratch/$c" ] || err "$c: LD_DEBUG shows no library at all (cannot tell)"
	if grep -E "$heavy" "$scratch/$c"; then
		err "$c loads a rendering library (above)"
	fi
	grep -q 'gpusheet-render' "$scratch/$c" && err "$c loads the rendering part"
done

# the commands that render do load it (the check above can fail)
loaded "$scratch/catalog" "$bin" check catalog/offers.xml || err "check (catalog) failed"
grep -q 'gpusheet-render\.so' "$scratch/catalog" || err "check of a catalog did not load the part"
grep -qE 'libxml2\.so' "$scratch/catalog" || err "check of a catalog did not load libxml2"
# a sheet loads the rendering part but, without --png, none of the PNG
# part's libraries (the charts are SVG, laid out with built-in metrics)
loaded "$scratch/sheet" "$bin" sheet --catalog offers.xml examples/seed-7b/workload.json --out "$scratch/out" ||
	err "sheet failed"
# (libxml2 as the sign: cmark-gfm and nettle may be linked into the part
# from their static archives, GPUSHEET_STATIC_SMALL_LIBS)
grep -qE 'libxml2\.so' "$scratch/sheet" || err "sheet did not load libxml2"
pngheavy='lib(cairo|fontconfig|freetype|X11|xcb|pixman-1|png16)\.so|gpusheet-png'
if grep -E "$pngheavy" "$scratch/sheet"; then
	err "sheet without --png loads the PNG part or its libraries (above)"
fi
loaded "$scratch/sheet-png" "$bin" sheet --catalog offers.xml examples/seed-7b/workload.json --png \
	--out "$scratch/out-png" || err "sheet --png failed"
grep -q 'gpusheet-png\.so' "$scratch/sheet-png" || err "sheet --png did not load the PNG part"
grep -qE 'libcairo\.so' "$scratch/sheet-png" || err "sheet --png did not load Cairo"
ls "$scratch/out-png"/*.png > /dev/null 2>&1 || err "sheet --png wrote no PNG"

# a rendering part without its PNG part: SVG sheets still work, --png says
# why it cannot and writes nothing
mkdir "$scratch/nopng" || die "mkdir"
cp "$bin" "$(dirname "$bin")/gpusheet-render.so" "$scratch/nopng/" || die "cp"
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

# The parts are loaded RTLD_LAZY (the references between the system
# libraries under them bound on first call) but are linked -z now
# themselves: a symbol of theirs that no library defines is refused when
# the part is loaded, with its name, and the command writes nothing
# (instead of "symbol lookup error" halfway through it).
if have readelf; then
	for p in "$part" "$(dirname "$bin")/gpusheet-png.so"; do
		readelf -d "$p" | grep -q 'BIND_NOW' || err "$p is not linked with -z now"
	done
fi
badpart=$(dirname "$bin")/tests/badpart/gpusheet-render.so
[ -f "$badpart" ] || die "no $badpart (built by tests/CMakeLists.txt)"
mkdir "$scratch/badpart" || die "mkdir"
cp "$bin" "$badpart" "$scratch/badpart/" || die "cp"
"$scratch/badpart/gpusheet" sheet examples/seed-7b/workload.json --out "$scratch/badpart-out" \
	> /dev/null 2> "$scratch/badpart.err"
rc=$?
[ "$rc" = 1 ] || err "sheet with a part missing a symbol: exit code $rc, expected 1"
grep -q "cannot load the rendering part gpusheet-render.so.*undefined symbol: gs_test_missing_symbol" \
	"$scratch/badpart.err" ||
	{ cat "$scratch/badpart.err"; err "sheet with a part missing a symbol: no message naming it"; }
[ ! -e "$scratch/badpart-out" ] || err "sheet with a part missing a symbol wrote something"

# an executable without its part
mkdir "$scratch/alone" || die "mkdir"
cp "$bin" "$scratch/alone/gpusheet" || die "cp"
"$scratch/alone/gpusheet" estimate --parameters 7000000000 --bits 16 --reserve-gib 6 > /dev/null ||
	err "estimate without the part failed"
"$scratch/alone/gpusheet" check examples/seed-7b/workload.json > /dev/null ||
	err "check (JSON) without the part failed"
"$scratch/alone/gpusheet" sheet examples/seed-7b/workload.json --out "$scratch/alone-out" \
	> /dev/null 2> "$scratch/alone.err"
rc=$?
[ "$rc" = 1 ] || err "sheet without the part: exit code $rc, expected 1"
grep -q "cannot load the rendering part gpusheet-render.so" "$scratch/alone.err" ||
	{ cat "$scratch/alone.err"; err "sheet without the part: no message naming the part"; }
[ ! -e "$scratch/alone-out" ] || err "sheet without the part wrote something"

finish "startup-lean: ok"
