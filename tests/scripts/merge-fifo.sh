#!/bin/sh
# merge-fifo: `gpusheet merge` reads a shard's files only when they are
# regular files. A shard whose .gpusheet-shard.json, or whose
# evidence/manifest.json, is a FIFO (no writer: a plain open() blocks
# forever) is refused at once: exit 1, and the message names the file and
# says it is a FIFO. Each merge runs under `timeout 20`, so that a merge
# that blocks fails the test (exit 124) instead of hanging it.
#
#   sh merge-fifo.sh GPUSHEET_BIN SOURCE_DIR SCRATCH_DIR
set -u
bin=$1 src=$2 scratch=$3
. "$src/tests/lib/common.sh"
command -v mkfifo >/dev/null 2>&1 || skip "no mkfifo"
command -v timeout >/dev/null 2>&1 || skip "no timeout"

opts() {
	printf '%s\n' --catalog catalog/offers.xml --date 2026-11-29 --accept-synthetic
}
# merge_fifo SHARD_DIR WHAT: the merge of SHARD_DIR fails at once, naming WHAT as a FIFO.
merge_fifo() {
	(cd "$src" && timeout 20 "$bin" merge "$scratch/out-$2" "$1" $(opts)) \
		>"$scratch/merge-$2.log" 2>&1
	rc=$?
	if [ "$rc" = 124 ]; then
		err "merge with $2 a FIFO: still blocked after 20 s"
	elif [ "$rc" != 1 ]; then
		cat "$scratch/merge-$2.log"
		err "merge with $2 a FIFO: exit code $rc, expected 1"
	fi
	grep -q "$2.*is a FIFO, not a regular file" "$scratch/merge-$2.log" ||
		{ cat "$scratch/merge-$2.log"; err "merge with $2 a FIFO: the message does not say so"; }
	[ -e "$scratch/out-$2" ] && err "merge with $2 a FIFO: wrote $scratch/out-$2"
}

rm -rf "$scratch"
mkdir -p "$scratch" || die "cannot create $scratch"
# one shard (1/1) of the examples, which cite evidence; it merges
(cd "$src" && "$bin" site --workloads examples $(opts) --out "$scratch/shard" --shard 1/1) \
	>"$scratch/shard.log" 2>&1 || { cat "$scratch/shard.log"; die "site --shard 1/1 failed"; }
[ -f "$scratch/shard/evidence/manifest.json" ] || die "the shard has no evidence/manifest.json"
(cd "$src" && timeout 120 "$bin" merge "$scratch/merged" "$scratch/shard" $(opts)) \
	>"$scratch/merged.log" 2>&1 || { cat "$scratch/merged.log"; die "the merge of the shard failed"; }

# its identity a FIFO
cp -R "$scratch/shard" "$scratch/fifo-id"
rm "$scratch/fifo-id/.gpusheet-shard.json"
mkfifo "$scratch/fifo-id/.gpusheet-shard.json" || die "mkfifo failed"
merge_fifo "$scratch/fifo-id" .gpusheet-shard.json

# its evidence manifest a FIFO
cp -R "$scratch/shard" "$scratch/fifo-manifest"
rm "$scratch/fifo-manifest/evidence/manifest.json"
mkfifo "$scratch/fifo-manifest/evidence/manifest.json" || die "mkfifo failed"
merge_fifo "$scratch/fifo-manifest" manifest.json

finish "merge-fifo: ok"
