#!/bin/sh
# site-deep-folder: a workload folder nested deeper than `gpusheet site`
# walks (32 folders under a --workloads folder) is an error that names the
# folder, exit 1 and nothing written; it was dropped silently (the site
# said "0 workloads", exit 0). A workload 32 folders down is still found.
#
# The trees are built here, at test time (34 and 32 folders deep).
#
#   sh site-deep-folder.sh GPUSHEET_BIN SOURCE_DIR SCRATCH_DIR
set -u
bin=$1 src=$2 scratch=$3
. "$src/tests/lib/common.sh"

# deep_tree ROOT N: a copy of examples/seed-7b N folders under ROOT
# (ROOT/d01/d02/.../dNN); prints the workload's folder.
deep_tree() {
	dt=$1 i=1
	while [ "$i" -le "$2" ]; do
		dt=$dt/$(printf 'd%02d' "$i")
		i=$((i + 1))
	done
	mkdir -p "$dt" || die "cannot create $dt"
	cp "$src/examples/seed-7b/workload.json" "$dt/" || die "cannot copy examples/seed-7b"
	printf '%s\n' "$dt"
}

deep=$(deep_tree "$scratch/deep" 34)
rc=0
"$bin" site --workloads "$scratch/deep" --catalog "$src/catalog/offers.xml" \
	--out "$scratch/out-deep" --accept-synthetic >"$scratch/deep.log" 2>&1 || rc=$?
[ "$rc" -eq 1 ] || { cat "$scratch/deep.log"; err "34 folders deep: exit $rc, want 1"; }
[ ! -e "$scratch/out-deep" ] || err "34 folders deep: $scratch/out-deep was written"
grep -q "too deep" "$scratch/deep.log" || { cat "$scratch/deep.log"; err "34 folders deep: no 'too deep' message"; }
# the folder named is the first one past the limit (d33), under which the workload lies
case $deep in */d33/d34) ;; *) die "deep_tree: unexpected path $deep" ;; esac
grep -qF "${deep%/d34}" "$scratch/deep.log" ||
	{ cat "$scratch/deep.log"; err "34 folders deep: the message does not name ${deep%/d34}"; }

deep=$(deep_tree "$scratch/ok" 32)
rc=0
"$bin" site --workloads "$scratch/ok" --catalog "$src/catalog/offers.xml" \
	--out "$scratch/out-ok" --accept-synthetic >"$scratch/ok.log" 2>&1 || rc=$?
[ "$rc" -eq 0 ] || { cat "$scratch/ok.log"; err "32 folders deep: exit $rc, want 0"; }
grep -q "(1 workload)" "$scratch/ok.log" || { cat "$scratch/ok.log"; err "32 folders deep: the workload was not found"; }

finish "site-deep-folder: a folder too deep is an error that names it; 32 deep is found"
