#!/bin/sh
# Re-imports the bundled provider catalogs from their SkyPilot files.
#
#   tools/import-catalogs.sh GPUSHEET
#
# Each catalog/<name>.xml is the import of catalog/sources/<name>-v8-vms.csv,
# a verbatim copy of SkyPilot's catalogs/v8/<provider>/vms.csv at the commit
# named below (catalog/sources/README.md). The snapshots' dates are not
# recorded, so the claims carry the commit instead of a date. A catalog is
# written only when its import and validation succeed; the same files give
# the same bytes (tests/scripts/catalog-import.sh checks that).
set -eu
bin=${1:?usage: tools/import-catalogs.sh GPUSHEET}
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
imp() {
	# out provider file commit
	"$bin" catalog import --from skypilot "catalog/sources/$3" --provider "$2" \
		--source-ref "SkyPilot catalog commit $4" --out "catalog/$1" >/dev/null
}
imp lambda.xml Lambda lambda-v8-vms.csv 0f4070387edc953d7004cff197940e1918a1d6aa
imp nebius.xml Nebius nebius-v8-vms.csv 0082b0435f3912ae4c566856b272455cc78f4f61
imp hyperstack.xml Hyperstack hyperstack-v8-vms.csv fdc9d908ab0b2af9f468f139fb3f662c8c6b3257
imp cudo.xml Cudo cudo-v8-vms.csv 113567a74b2f208af08e0c9236e26cc354a2bf65
imp primeintellect.xml "Prime Intellect" primeintellect-v8-vms.csv d9a304ea01e96cd4a043159c60d9326d8de4cf0f
