#!/bin/sh
# new-folder-sync: a sheet written into folders `sheet --out` creates
# survives a crash with those folders: the commit syncs the parent of each
# folder it created (their names), along with the files and the folder
# holding them (gen/outfile.h, gs_mkdirs). Seen through the test seam
# GS_TEST_SYNC_SAY, which names each folder synced; skipped when the binary
# was built without the seams (GPUSHEET_FAULT_INJECTION=OFF).
#
#   sh new-folder-sync.sh GPUSHEET_BIN SOURCE_DIR SCRATCH_DIR
set -u
bin=$1 src=$2 scratch=$3
. "$src/tests/lib/common.sh"

sheet() { # sheet OUT: the seed-7b sheet into OUT, folders synced on $scratch/say
	(cd "$src" && GS_TEST_SYNC_SAY=1 "$bin" sheet examples/seed-7b/workload.json --out "$1" \
		--date "$SITE_DATE") >/dev/null 2>"$scratch/say" || { cat "$scratch/say"; die "sheet $1 failed"; }
}
synced() { # synced DIR: was DIR named as synced?
	grep -qxF "gs-test: folder synced: $1" "$scratch/say"
}

# into the existing folder new/ (made here): only the sheet's own folder
mkdir "$scratch/new" || die "mkdir"
sheet "$scratch/new"
synced "$scratch/new" || skip "gpusheet built without the test seams (no folder named)"
[ "$(grep -c 'gs-test: folder synced:' "$scratch/say")" = 1 ] ||
	{ cat "$scratch/say"; err "an existing folder: other folders synced than its own"; }

# into new/a/b, both made by the sheet: new/ (for a), new/a (for b), new/a/b
sheet "$scratch/new/a/b"
for d in "$scratch/new" "$scratch/new/a" "$scratch/new/a/b"; do
	synced "$d" || { cat "$scratch/say"; err "new/a/b: $d not synced"; }
done
ls "$scratch/new/a/b/seed-7b.html" > /dev/null || err "new/a/b: no sheet"

# again into new/a/b, which now exists: its own folder only
sheet "$scratch/new/a/b"
synced "$scratch/new/a" && { cat "$scratch/say"; err "new/a/b again: new/a synced again"; }
synced "$scratch/new/a/b" || { cat "$scratch/say"; err "new/a/b again: its folder not synced"; }

finish "new-folder-sync: ok"
