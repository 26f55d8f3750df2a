#!/bin/sh
# out-mount-point: an OUT that is a mount point (a Docker volume, a tmpfs)
# cannot be renamed, so a stage could never be swapped in for it: `site`,
# `site --shard`, `merge` and `sheet` refuse it before anything is built,
# naming the mount point and the fix (a folder inside it), and the
# message says what OUT is ("sheet folder" for `sheet`). A folder inside
# the mount is built as usual. Mounts are made in a user namespace
# (unshare -rm); skipped where that is not allowed.
#
#   sh out-mount-point.sh GPUSHEET_BIN SOURCE_DIR SCRATCH_DIR
set -u
bin=$1 src=$2 scratch=$3
. "$src/tests/lib/common.sh"
need unshare "util-linux"
mkdir -p "$scratch/probe" || die "cannot create a folder"
unshare -rm sh -c "mount -t tmpfs none '$scratch/probe'" 2>/dev/null ||
	skip "no mount in a user namespace here"

cat >"$scratch/inner.sh" <<EOF
set -u
bin='$bin' src='$src' s='$scratch'
fails=0
bad() { echo "FAIL: \$*"; fails=\$((fails + 1)); }
for m in site shard merged sheet bind; do mkdir -p "\$s/\$m"; done
mkdir -p "\$s/bindsrc"
mount -t tmpfs none "\$s/site" && mount -t tmpfs none "\$s/shard" && mount -t tmpfs none "\$s/merged" &&
	mount -t tmpfs none "\$s/sheet" && mount --bind "\$s/bindsrc" "\$s/bind" || { echo "FAIL: mount"; exit 1; }
common="--accept-synthetic --date 2026-11-29"
# expect LABEL WHAT OUT CMD...: exit 1, the message naming OUT as a mount point and the fix, OUT empty
expect() {
	label=\$1 what=\$2 out=\$3
	shift 3
	"\$@" >"\$s/out.txt" 2>&1
	rc=\$?
	[ "\$rc" -eq 1 ] || { cat "\$s/out.txt"; bad "\$label: exit \$rc, want 1"; }
	grep -q "\$out: is a mount point (a volume, a tmpfs), which cannot be replaced whole as a \$what is; give a folder inside it instead" "\$s/out.txt" ||
		{ cat "\$s/out.txt"; bad "\$label: the message does not name the mount point and the fix"; }
	[ -z "\$(ls -A "\$out")" ] || bad "\$label: something was written into the mount point"
	echo "ok: \$label: \$(head -n 1 "\$s/out.txt" | cut -c1-160)"
}
expect "site into a tmpfs" site "\$s/site" "\$bin" site --workloads "\$src/examples/seed-7b" --out "\$s/site" \$common
expect "site --shard into a tmpfs" shard "\$s/shard" "\$bin" site --workloads "\$src/examples/seed-7b" --out "\$s/shard" --shard 1/1 \$common
"\$bin" site --workloads "\$src/examples/seed-7b" --out "\$s/shard/in" --shard 1/1 \$common >"\$s/out.txt" 2>&1 ||
	{ cat "\$s/out.txt"; bad "a shard in a folder inside the tmpfs failed"; }
expect "merge into a tmpfs" site "\$s/merged" "\$bin" merge "\$s/merged" "\$s/shard/in" \$common
expect "sheet into a tmpfs" "sheet folder" "\$s/sheet" "\$bin" sheet "\$src/examples/seed-7b/workload.json" --out "\$s/sheet" \$common
expect "sheet into a bind mount" "sheet folder" "\$s/bind" "\$bin" sheet "\$src/examples/seed-7b/workload.json" --out "\$s/bind" \$common
# the fix: a folder inside the mount
"\$bin" site --workloads "\$src/examples/seed-7b" --out "\$s/site/site" \$common >"\$s/out.txt" 2>&1 &&
	[ -f "\$s/site/site/index.html" ] || { cat "\$s/out.txt"; bad "a site in a folder inside the tmpfs failed"; }
"\$bin" sheet "\$src/examples/seed-7b/workload.json" --out "\$s/sheet/sheet" \$common >"\$s/out.txt" 2>&1 &&
	[ -f "\$s/sheet/sheet/seed-7b.html" ] || { cat "\$s/out.txt"; bad "a sheet in a folder inside the tmpfs failed"; }
exit \$fails
EOF
unshare -rm sh "$scratch/inner.sh" || err "$? check(s) failed inside the namespace"
finish "ok: a mount point as OUT refused up front, a folder inside it built"
