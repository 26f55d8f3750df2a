#!/bin/sh
# Fuzz campaigns with libFuzzer (clang), over the harnesses of tests/fuzz/.
#
#   tools/fuzz.sh [SECONDS] [HARNESS...]
#
# SECONDS per harness (default 60); HARNESS among workload, measurement,
# catalog, notes, sheet, import, model, keys, logimport (default all). Builds build-fuzz/ with clang,
# GPUSHEET_FUZZ=ON and the sanitizers, then runs each harness from its seed
# corpus (tests/fuzz/corpus/NAME, never written) into a working corpus
# (build-fuzz/corpus/NAME, kept between runs). A crash, leak, timeout or
# out-of-memory stops the script with exit 1 and leaves the input in
# build-fuzz/artifacts/; copy it to tests/fuzz/regressions/NAME/ once fixed,
# so that ctest replays it in every build.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
secs=${1:-60}
[ $# -gt 0 ] && shift
harnesses=${*:-workload measurement catalog notes sheet import model keys logimport}
build=$root/build-fuzz
jobs=$(nproc 2>/dev/null || echo 2)

command -v clang >/dev/null || { echo "fuzz.sh: clang not found (apt-get install clang)" >&2; exit 2; }
CC=clang cmake -S "$root" -B "$build" -DGPUSHEET_FUZZ=ON -DGPUSHEET_SANITIZE=ON \
	-DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
targets=
for h in $harnesses; do targets="$targets --target fuzz_$h"; done
# shellcheck disable=SC2086
cmake --build "$build" -j"$jobs" $targets >/dev/null
mkdir -p "$build/artifacts"
export LSAN_OPTIONS="suppressions=$root/tests/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
status=0
for h in $harnesses; do
	mkdir -p "$build/corpus/$h"
	echo "fuzz.sh: $h for $secs s"
	# the bound on one input (-max_len) is above every input bound of
	# docs/formats.md but the file bound, so the bounds themselves are fuzzed
	if ! "$build/tests/fuzz/fuzz_$h" -max_total_time="$secs" -timeout=20 -rss_limit_mb=2048 \
		-max_len=131072 -print_final_stats=1 -artifact_prefix="$build/artifacts/$h-" \
		"$build/corpus/$h" "$root/tests/fuzz/corpus/$h" >"$build/fuzz-$h.log" 2>&1; then
		tail -n 40 "$build/fuzz-$h.log"
		echo "fuzz.sh: $h FAILED; input in $build/artifacts/ (add it to tests/fuzz/regressions/$h/)" >&2
		status=1
	else
		grep -E '^stat::number_of_executed_units|^stat::peak_rss_mb' "$build/fuzz-$h.log" | sed "s/^/  $h: /"
	fi
done
exit "$status"
