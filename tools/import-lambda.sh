#!/bin/sh
# Re-imports the bundled Lambda catalog from a SkyPilot vms.csv.
#
#   tools/import-lambda.sh GPUSHEET [FILE.csv REF]
#
# Without FILE.csv, re-imports the bundled copy catalog/sources/lambda-vms.csv
# (SkyPilot catalog, catalogs/v7/lambda/vms.csv, commit
# 11580132cea293395776b033c8533714d42abb4e; the snapshot's date is not
# recorded, so the claims carry the commit instead of a date). With a fresh
# file, give the reference it was taken at (e.g. "SkyPilot catalog commit
# <sha>"); the file is copied next to the catalog so that the claims' line
# numbers can be checked. The catalog is written only when the import and
# its validation succeed.
set -eu
bin=${1:?usage: tools/import-lambda.sh GPUSHEET [FILE.csv REF]}
here=$(cd "$(dirname "$0")/.." && pwd)
src=$here/catalog/sources/lambda-vms.csv
ref="SkyPilot catalog commit 11580132cea293395776b033c8533714d42abb4e"
if [ $# -ge 3 ]; then
	# Import the fresh file under the bundled name (claims cite it), and
	# keep it only when the import succeeded.
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	cp "$2" "$tmp/lambda-vms.csv"
	"$bin" catalog import --from skypilot "$tmp/lambda-vms.csv" --provider Lambda \
		--source-ref "$3" --out "$here/catalog/lambda.xml"
	cp "$tmp/lambda-vms.csv" "$src.new"
	mv "$src.new" "$src"
	echo "import-lambda: update the reference in catalog/sources/README.md and this script" >&2
	exit 0
fi
"$bin" catalog import --from skypilot "$src" --provider Lambda --source-ref "$ref" \
	--out "$here/catalog/lambda.xml"
