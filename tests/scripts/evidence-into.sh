#!/bin/sh
# evidence-into: `evidence import --into WORKLOAD.json` adds the measurement
# to the workload's evidence, the workload rewritten atomically, and the
# workload then reads back (gpusheet check) citing it. Refused, with nothing
# written (no measurement, no archive, the workload's bytes unchanged): an
# --out outside the workload's folder (also through ".."), a workload that
# is not JSON, a workload that already cites that file.
#
#   sh evidence-into.sh GPUSHEET_BIN SOURCE_DIR SCRATCH_DIR
set -u
bin=$1 src=$2 scratch=$3
. "$src/tests/lib/common.sh"
log=$src/tests/data/evidence-logs/vllm-10_v1_l40s_pr17122.log
mkdir -p "$scratch/w" || die "cannot make a folder"
cp "$src/tests/data/workload-full.json" "$scratch/w/workload.json" || die "cannot copy"
cd "$scratch" || die "cannot enter the scratch folder"
imp() { # imp OUT WORKLOAD
	"$bin" evidence import --from vllm "$log" --source "PR 17122" --gpu "NVIDIA L40S" \
		--out "$1" --into "$2" >out.txt 2>err.txt
}
before=$(cksum <w/workload.json)

imp other/run.json w/workload.json
[ $? -eq 1 ] || err "an --out outside the workload's folder was not refused"
grep -q "not in the workload's folder" err.txt || err "outside: $(cat err.txt)"
[ ! -e other ] || err "outside: a folder was made"
imp w/x/../../run.json w/workload.json
[ $? -eq 1 ] || err "an --out through .. was not refused"
[ ! -e run.json ] && [ ! -e w/x ] || err "through ..: something was written"
printf '{"schema": 1,\n' >w/bad.json
imp w/y.json w/bad.json
[ $? -eq 1 ] || err "a workload that is not JSON was not refused"
grep -q "bad.json:2:" err.txt || err "bad JSON: no line in $(cat err.txt)"
[ ! -e w/y.json ] && [ ! -e w/evidence ] || err "bad JSON: something was written"
[ "$(cksum <w/workload.json)" = "$before" ] || err "the workload changed on a refusal"

imp w/runs/l40s.json w/workload.json
[ $? -eq 0 ] || die "the import was refused: $(cat err.txt)"
[ -s w/runs/l40s.json ] || err "no measurement"
grep -q '"file": "runs/l40s.json"' w/workload.json || err "the workload does not cite runs/l40s.json"
grep -q "its evidence cites" out.txt || err "stdout does not say the workload cites it"
n=$(grep -c '"file":' w/workload.json)
[ "$n" -eq 4 ] || err "the workload cites $n files, want 4 (its two, quality.md's, the new one)"
ls w | grep -q '^\.' && err "a temporary file was left: $(ls -a w)"
"$bin" check w/workload.json >check.txt 2>&1 || err "the new workload does not check: $(head -5 check.txt)"
# the same file again: refused, nothing changed
rm w/runs/l40s.json
cp w/workload.json w/before.json
imp w/runs/l40s.json w/workload.json
[ $? -eq 1 ] || err "a file the workload already cites was not refused"
grep -q "already cites runs/l40s.json" err.txt || err "again: $(cat err.txt)"
cmp -s w/workload.json w/before.json || err "the workload changed on a refusal"
finish "evidence-into: added, read back, and refused with nothing written"
