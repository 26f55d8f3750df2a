#!/bin/sh
# Re-imports the bundled provider catalogs from their SkyPilot files.
#
#   tools/import-catalogs.sh GPUSHEET
#
# Each catalog/<name>.xml is the import of a file in catalog/sources/: a copy
# of SkyPilot's catalogs/v8/<provider>/vms.csv (Azure: catalogs/v6, the last
# version with an Azure file; AWS, Google Cloud and Oracle: their GPU rows;
# RunPod: a sample of four pages) at the commit named below
# (catalog/sources/README.md). The snapshots' dates are not recorded, so the
# claims carry the commit instead of a date. A catalog is written only when
# its import and validation succeed; the same files give the same bytes
# (tests/scripts/catalog-import.sh checks that). A file that fails is named
# and the others are still imported; the script then exits 1.
set -u
bin=${1:?usage: tools/import-catalogs.sh GPUSHEET}
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here" || exit 1
failed=
imp() {
	# out provider file commit
	"$bin" catalog import --from skypilot "catalog/sources/$3" --provider "$2" \
		--source-ref "SkyPilot catalog commit $4" --out "catalog/$1" >/dev/null 2>&1 ||
		{ echo "tools/import-catalogs.sh: catalog/sources/$3 did not import" >&2; failed="$failed $3"; }
}
imp lambda.xml Lambda lambda-v8-vms.csv 0f4070387edc953d7004cff197940e1918a1d6aa
imp nebius.xml Nebius nebius-v8-vms.csv 0082b0435f3912ae4c566856b272455cc78f4f61
imp hyperstack.xml Hyperstack hyperstack-v8-vms.csv fdc9d908ab0b2af9f468f139fb3f662c8c6b3257
imp cudo.xml Cudo cudo-v8-vms.csv 113567a74b2f208af08e0c9236e26cc354a2bf65
imp primeintellect.xml "Prime Intellect" primeintellect-v8-vms.csv d9a304ea01e96cd4a043159c60d9326d8de4cf0f
imp aws.xml AWS aws-v8-vms-gpu-rows.csv 00148f2af3672e2229b4f7bf8157d5a3f36e3c35
imp gcp.xml "Google Cloud" gcp-v8-vms-gpu-rows.csv 006059e0f18acb1341e22a27751e9f80df6ba92f
imp oci.xml Oracle oci-v8-vms-gpu-rows.csv 0588751183820cf2dab5c8a89447e8aac9f73fd5
imp azure.xml Azure azure-v6-vms-gpu-rows.csv 098741e70562f65d7af1cceb81e33b284f742604
imp runpod.xml RunPod runpod-v8-vms-gpu-rows-SAMPLE.csv 01acdfd419ce5afae1289ff14825b893ced0c196
imp vast.xml Vast.ai vast-v8-vms.csv 01b8cdda287814b30ff0acb49746cca19fbd4355
imp shadeform.xml Shadeform shadeform-v8-vms.csv 002363dac75913b446b2d3d564ae795678849dfd
imp spheron.xml Spheron spheron-v8-vms.csv 38989832381639474084a75fd97e82a4290070ea
imp yotta.xml Yotta yotta-v8-vms.csv 1f6904890c9bb9408f1d11e2865c3c1ee4d409c0
imp daytona.xml Daytona daytona-v8-vms.csv 0eb5da57210acb5149367bd2b2f23237591aa2f5
imp verda.xml Verda verda-v8-vms.csv 000c1d0bf24621f4ac37cfa585f0897c1aa1d9cf
imp seeweb.xml Seeweb seeweb-v8-vms.csv 004a1aef76542bb40d12fcedaaf091551ddf5fb4
imp mithril.xml Mithril mithril-v8-vms.csv 1f9eb0c264f9a6d78833766f4b18353ac7dfdde9
[ -z "$failed" ] || { echo "tools/import-catalogs.sh: failed:$failed" >&2; exit 1; }
