#!/bin/sh
# new-folder-sync: a sheet written into folders `sheet --out` creates
# survives a crash with those folders: the stage's commit flushes its file
# system before the swap and syncs the parent of the folder swapped in
# (gen/base/outfile.h, gs_outfile_stage_commit). Seen through the test seam
# GS_TEST_SYNC_SAY, which names each folder synced; skipped when the binary
# was built without the seams (GPUSHEET_FAULT_INJECTION=OFF).
#
#   sh new-folder-sync.sh GPUSHEET_BIN SOURCE_DIR SCRATCH_DIR
set -u
bin=$1 src=$2 scratch=$3
. "$src/tests/lib/common.sh"

sheet() { # sheet OUT: the seed-7b sheet into OUT, folders synced on $scratch/say
	(cd "$src" && GS_TEST_SYNC_SAY=1 "$bin" sheet --catalog offers.xml examples/seed-7b/workload.json --out "$1" \
		--date "$SITE_DATE") >/dev/null 2>"$scratch/say" || { cat "$scratch/say"; die "sheet $1 failed"; }
}
synced() { # synced DIR: was DIR named as synced?
	grep -qxF "gs-test: folder synced: $1" "$scratch/say"
}

# A lone sheet's folder is built in a stage beside it and swapped in whole
# (gen/base/outfile.h, gs_outfile_stage_*): the commit flushes the stage's file system
# (syncfs: the stage's files, their names, and every folder made for the
# stage, new/ and new/a below) before the swap, then syncs the folder the
# swap renamed in, the parent of --out.
sayflush() { grep -qxF "gs-test: file system flushed: $1" "$scratch/say"; }
order_ok() { # the flush before the sync of the parent
	awk -v p="$1" '$0 == "gs-test: file system flushed: " p { f = NR }
		$0 == "gs-test: folder synced: " p { s = NR } END { exit !(f && s && f < s) }' "$scratch/say"
}
mkdir "$scratch/new" || die "mkdir"
sheet "$scratch/new"
synced "$scratch" || skip "gpusheet built without the test seams (no folder named)"
sayflush "$scratch" || { cat "$scratch/say"; err "an existing folder: its file system not flushed before the swap"; }
order_ok "$scratch" || { cat "$scratch/say"; err "an existing folder: its parent synced before the flush"; }

# into new/a/b, new/a made for the stage: flushed with the stage, then the
# parent of the swapped folder synced
sheet "$scratch/new/a/b"
sayflush "$scratch/new/a" || { cat "$scratch/say"; err "new/a/b: the stage's file system not flushed"; }
synced "$scratch/new/a" || { cat "$scratch/say"; err "new/a/b: new/a not synced after the swap"; }
order_ok "$scratch/new/a" || { cat "$scratch/say"; err "new/a/b: new/a synced before the flush"; }
ls "$scratch/new/a/b/seed-7b.html" > /dev/null || err "new/a/b: no sheet"

# again into new/a/b, which now exists: the same, nothing else synced
sheet "$scratch/new/a/b"
synced "$scratch/new/a" || { cat "$scratch/say"; err "new/a/b again: new/a not synced"; }
[ "$(grep -c 'gs-test: folder synced:' "$scratch/say")" = 1 ] ||
	{ cat "$scratch/say"; err "new/a/b again: other folders synced than the parent"; }

finish "new-folder-sync: ok"
