#!/bin/sh
# init-unusual-models: `init` never fails with "internal error" on files
# that `model` reads: a valid workload (checked by `check` and rendered by
# `sheet`), or a plain refusal naming what is missing. Cases: every model
# folder of tests/data/models, and three made here:
#  - a safetensors shard whose tensor names gpusheet does not place (no
#    tensor kept whole under tensor parallelism: none stated, not 0 bytes);
#  - config.json alone, with a torch_dtype gpusheet does not know;
#  - the same with the shards' index (total bytes, no types).
#
#   sh init-unusual-models.sh GPUSHEET_BIN SOURCE_DIR SCRATCH_DIR
set -u
bin=$1 src=$2 scratch=$3
. "$src/tests/lib/common.sh"
need python3 "python3"
tiny=$src/tests/data/models/tiny-llama

mkdir -p "$scratch/unplaced" "$scratch/dtype" "$scratch/dtype-index" || die "cannot create folders"
cp "$tiny/config.json" "$scratch/unplaced/" || die "cannot copy config.json"
python3 - "$scratch/unplaced/model.safetensors" <<'EOF' || die "cannot write the shard"
import json, struct, sys
hdr = {"foo.bar": {"dtype": "BF16", "shape": [4], "data_offsets": [0, 8]}}
h = json.dumps(hdr).encode()
h += b" " * ((8 - len(h) % 8) % 8)
open(sys.argv[1], "wb").write(struct.pack("<Q", len(h)) + h + b"\0" * 8)
EOF
sed 's/"bfloat16"/"float8_e4m3fn"/' "$tiny/config.json" >"$scratch/dtype/config.json"
cp "$scratch/dtype/config.json" "$tiny/model.safetensors.index.json" "$scratch/dtype-index/" ||
	die "cannot copy the index"

n=0
for m in "$scratch/unplaced" "$scratch/dtype" "$scratch/dtype-index" "$src"/tests/data/models/*/; do
	m=${m%/}
	[ -d "$m" ] || continue
	"$bin" model "$m" >"$scratch/model.txt" 2>&1 || continue   # not a model `model` reads
	n=$((n + 1))
	out=$scratch/w-$n.json
	"$bin" init --model "$m" --context 64 --out "$out" >"$scratch/init.txt" 2>&1
	rc=$?
	if grep -q "internal error" "$scratch/init.txt"; then
		cat "$scratch/init.txt"
		err "init $m: an internal error"
	elif [ "$rc" -eq 0 ]; then
		"$bin" check "$out" >"$scratch/check.txt" 2>&1 ||
			{ cat "$scratch/check.txt"; err "init $m: the workload written does not pass check"; }
		"$bin" sheet "$out" --out "$scratch/sheet-$n" >"$scratch/sheet.txt" 2>&1 ||
			{ cat "$scratch/sheet.txt"; err "init $m: the workload written gives no sheet"; }
	elif [ "$rc" -eq 1 ]; then
		[ ! -e "$out" ] || err "init $m: refused, and a file was written"
	else
		cat "$scratch/init.txt"
		err "init $m: exit $rc"
	fi
done
[ "$n" -ge 5 ] || err "only $n model folders read"
"$bin" init --model "$scratch/unplaced" --context 64 --out "$scratch/unplaced.json" >"$scratch/init.txt" 2>&1 ||
	{ cat "$scratch/init.txt"; err "a shard of unplaced tensors: refused"; }
grep -q tensor_parallel_replicated "$scratch/unplaced.json" 2>/dev/null &&
	err "a shard of unplaced tensors: a replicated size stated"
for m in dtype dtype-index; do
	"$bin" init --model "$scratch/$m" --context 64 --out "$scratch/$m.json" >"$scratch/init.txt" 2>&1 &&
		err "$m: init wrote a workload without the weights' bits"
	grep -q "torch_dtype \"float8_e4m3fn\" gives no width gpusheet knows: the weights' bits are missing" \
		"$scratch/init.txt" || { cat "$scratch/init.txt"; err "$m: the refusal does not say what is missing"; }
done
# a 2 GB config.json (sparse): too large, said so with its size, not "not a regular file"
mkdir -p "$scratch/huge" && truncate -s 2G "$scratch/huge/config.json" || die "cannot plant the sparse config"
"$bin" model "$scratch/huge" >"$scratch/huge.txt" 2>&1 && err "model read a 2 GB config.json"
grep -q "config.json.*2147483648 bytes, too large: a model's JSON file" "$scratch/huge.txt" ||
	{ cat "$scratch/huge.txt"; err "a 2 GB config.json: the message does not give its size and the bound"; }
grep -q "not a regular file" "$scratch/huge.txt" && err "a 2 GB config.json is called not a regular file"
finish "ok: init on $n model folders: a valid workload or a plain refusal, never an internal error"
