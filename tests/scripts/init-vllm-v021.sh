#!/bin/sh
# `gpusheet init --engine vllm --engine-version 0.21`: vLLM 0.21 counts the
# CUDA graphs it profiles inside its budget, with gpu_memory_utilization
# 0.92 (gen/decide/runtime.c, PR 30515 and PR 38284).
# Usage: init-vllm-v021.sh GPUSHEET SOURCE_DIR SCRATCH_DIR
#
# Qwen3-8B's real config.json at 16,384 tokens:
#  - 0.21 writes tests/data/models/init-qwen3-8b-vllm-0.21.json (read by
#    hand): the 0.9-and-later terms (activation peak at 2,048 tokens,
#    logits, non-torch 0.13 GiB) and "vLLM CUDA graphs", assumed 0.52 GiB =
#    52 x 2^30 / 100 = 558,345,748 B (LMCache issue 3430, cited in it);
#  - 0.20 writes no CUDA graph item (captured outside the budget then);
#  - the sheet of the 0.21 workload takes gpu_memory_utilization 0.92 as
#    the version's default, with its source.
set -u
bin=$1 src=$2 scratch=$3
. "$src/tests/lib/common.sh"
m=$src/tests/data/models
w=$scratch/work
mkdir -p "$w" || die "cannot create $w"
cp -R "$m/qwen3-8b" "$w/" || die "copy"
cd "$w" || die "cd $w"

"$bin" init --model qwen3-8b --context 16384 --engine vllm --engine-version 0.21 --out v021.json \
	>"$scratch/log" 2>&1 || { cat "$scratch/log"; die "init --engine-version 0.21 failed"; }
cmp -s v021.json "$m/init-qwen3-8b-vllm-0.21.json" ||
	{ diff -u "$m/init-qwen3-8b-vllm-0.21.json" v021.json; err "init output differs from tests/data/models/init-qwen3-8b-vllm-0.21.json"; }
grep -q '"name": "vLLM CUDA graphs"' v021.json || err "0.21: no CUDA graph item"
grep -q '"amount": "558345748"' v021.json || err "0.21: the CUDA graph item is not 558,345,748 B"
"$bin" check v021.json >"$scratch/log" 2>&1 || { cat "$scratch/log"; err "check of v021.json failed"; }

"$bin" init --model qwen3-8b --context 16384 --engine vllm --engine-version 0.20 --out v020.json \
	>"$scratch/log" 2>&1 || { cat "$scratch/log"; die "init --engine-version 0.20 failed"; }
grep -q 'CUDA graphs"' v020.json && err "0.20: a CUDA graph item written (outside the budget then)"
grep -q 'outside the budget, in the share gpu_memory_utilization leaves' v020.json ||
	err "0.20: the non-torch item does not say the graphs are outside the budget"

"$bin" sheet --catalog offers.xml v021.json --out s021 --date 2026-11-29 >"$scratch/log" 2>&1 ||
	{ cat "$scratch/log"; die "sheet of the 0.21 workload failed"; }
grep -qF 'gpu\_memory\_utilization 0.920 (vLLM 0.21, vllm/config/cache.py' s021/qwen3-8b.md ||
	{ grep -n 'utilization' s021/qwen3-8b.md | head -3; err "0.21: the sheet does not take 0.92 with its source"; }
finish "init --engine vllm --engine-version 0.21: the CUDA graph term and 0.92"
