#!/bin/sh
# Runs one test of the Python bridge (bridges/python) from ctest.
# Usage: run.sh recorder-stand-in|cli|torch-cpu GPUSHEET SCRATCH_DIR
#
# recorder-stand-in and cli need only python3; torch-cpu needs a python3 that imports
# torch (Debian's python3-torch, a CPU build, installed by
# tools/install-deps.sh --test). Exit 77 (skipped) only when there is no
# python3 at all.
set -u
test=$1 gpusheet=$2 scratch=$3
here=$(cd "$(dirname "$0")" && pwd)
command -v python3 >/dev/null 2>&1 || { echo "skipped: python3 not found"; exit 77; }
export PYTHONDONTWRITEBYTECODE=1
case $test in
recorder-stand-in) exec python3 "$here/test_recorder_standin.py" "$gpusheet" "$scratch" ;;
cli) exec python3 "$here/test_cli.py" "$scratch" ;;
torch-cpu)
	# Debian's python3-torch belongs to the system interpreter, which need
	# not be the first python3 on PATH
	for py in python3 /usr/bin/python3; do
		if command -v "$py" >/dev/null 2>&1 && "$py" -c 'import torch' >/dev/null 2>&1; then
			exec "$py" "$here/test_torch_cpu.py" "$scratch"
		fi
	done
	echo "FAIL: no python3 imports torch (sh tools/install-deps.sh --test installs python3-torch)"
	exit 1 ;;
*) echo "usage: run.sh recorder-stand-in|cli|torch-cpu GPUSHEET SCRATCH_DIR" >&2; exit 2 ;;
esac
