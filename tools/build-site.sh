#!/bin/sh
# Regenerate site/, the published site of examples/, reproducibly.
#
#   tools/build-site.sh [GPUSHEET]
#
# GPUSHEET is the gpusheet binary to use (default: $GPUSHEET, else
# build/gpusheet, else gpusheet on PATH). The date is fixed so that two runs
# give the same bytes; tests/scripts/site-reproducible.sh checks that the
# committed site/ equals a fresh build.
#
# The site is built into a temporary folder next to site/, verified with
# `gpusheet verify`, and only then swapped in: a failed build leaves the old
# site/ untouched and nothing half-written.
set -eu

SITE_DATE=2026-11-29
# The offers page charts the total campaign cost of this workload per offer
# (it compares every offer of both catalogs).
SITE_REFERENCE=llama70b-2card

root=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:-${GPUSHEET:-}}
if [ -z "$bin" ]; then
	if [ -x "$root/build/gpusheet" ]; then
		bin=$root/build/gpusheet
	else
		bin=$(command -v gpusheet || true)
	fi
fi
if [ -z "$bin" ] || [ ! -x "$bin" ]; then
	echo "build-site: no gpusheet binary (pass it as the first argument or set GPUSHEET)" >&2
	exit 2
fi
case $bin in
/*) ;;
*) bin=$(pwd)/$bin ;;
esac

cd "$root"
tmp=.site.new.$$
old=.site.old.$$
cleanup() {
	rm -rf "$tmp" "$old"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

rm -rf "$tmp"
# Relative paths on purpose: the pages quote the workload folders as given
# (catalogs are named by their file name). Every bundled catalog: the seed's
# offers and the five providers' snapshots (catalog/sources/README.md).
"$bin" site --workloads examples --catalog catalog/offers.xml --catalog catalog/lambda.xml \
	--catalog catalog/nebius.xml --catalog catalog/hyperstack.xml --catalog catalog/cudo.xml \
	--catalog catalog/primeintellect.xml \
	--out "$tmp" --date "$SITE_DATE" --accept-synthetic --reference "$SITE_REFERENCE"
"$bin" verify "$tmp" >/dev/null || {
	"$bin" verify "$tmp" >&2 || true
	echo "build-site: the new site does not verify; site/ left as it was" >&2
	exit 1
}
# Swap: the old site moves aside, the new one takes its name, the old one goes.
if [ -e site ]; then
	mv site "$old"
fi
mv "$tmp" site
rm -rf "$old"
echo "build-site: site/ rebuilt from examples/ (date $SITE_DATE)"
