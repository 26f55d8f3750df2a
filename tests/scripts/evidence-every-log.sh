#!/bin/sh
# evidence-every-log: every real log in tests/data/evidence-logs/ (and in a
# data folder beside the source tree, ../shared/data/evidence, when there is
# one) goes through `evidence import`. Each ends one of three ways, never
# in a crash or a generic "no line this reader knows":
#   - imported (exit 0, the measurement reads back: `check` takes no part);
#   - refused by the name of what it is ("this is nvidia-smi output", an
#     Ollama server log, torch.cuda.memory_summary() output, a Markdown
#     document), exit 1, whichever --from is asked; an engine log given to
#     another engine's reader is named and sent to its own --from;
#   - for a log that does not name its GPU, refused with the flag that says
#     it ("give --gpu NAME"): nothing is guessed.
# The GPUs given below are those the log's attribution header names.
#
#   sh evidence-every-log.sh GPUSHEET_BIN SOURCE_DIR SCRATCH_DIR
set -u
bin=$1 src=$2 scratch=$3
. "$src/tests/lib/common.sh"

# the --from that reads a file, by its name's prefix; none: no reader takes it
from_of() {
	case $1 in
	vllm-*) echo vllm ;;
	sglang-*) echo sglang ;;
	llamacpp-*) echo llama.cpp ;;
	oom-*) echo torch-oom ;;
	*) echo none ;;
	esac
}
# what the refusal names, for a file no reader takes
name_of() {
	case $1 in
	nvsmi-*) echo "this is nvidia-smi output" ;;
	ollama-*) echo "this is an Ollama server log" ;;
	torch-summary-*) echo "this is torch.cuda.memory_summary() output" ;;
	*.md) echo "this is a Markdown document" ;;
	*) echo "" ;;
	esac
}
# the GPUs the attribution header names (as --gpu flags, one a line)
gpus_of() {
	case $1 in
	llamacpp-02_*) printf '%s\n' "--gpu" "0=RTX 4070 Ti" "--gpu" "1=RTX 3090 Ti" ;;
	vllm-01_*) printf '%s\n' "--gpu" "T4" ;;
	vllm-04_*) printf '%s\n' "--gpu" "RTX 3090" ;;
	vllm-10_*) printf '%s\n' "--gpu" "L40S" ;;
	vllm-11_*) printf '%s\n' "--gpu" "H100" ;;
	vllm-14_*) printf '%s\n' "--gpu" "A40" ;;
	vllm-20_*) printf '%s\n' "--gpu" "H100" ;;
	oom-03_*) printf '%s\n' "--gpu" "A100 80GB" ;;
	oom-05_*) printf '%s\n' "--gpu" "A40" ;;
	esac
}

# every format of --from, as the table gives them (log-formats.sh checks the other lists)
formats=$("$bin" evidence import --help | sed -n '1s/^usage: gpusheet evidence import --from \([^ ]*\)$/\1/p' | tr '|' ' ')
[ -n "$formats" ] || die "no --from list in evidence import --help"
n=0 imported=0 named=0 asked=0
one() { # one FILE
	f=$1 b=$(basename "$1")
	from=$(from_of "$b")
	n=$((n + 1))
	if [ "$from" = none ]; then
		want=$(name_of "$b")
		[ -n "$want" ] || { err "$b: no reader and no name for it in this test"; return; }
		for k in $formats; do
			rm -rf "$scratch/o"
			"$bin" evidence import --from "$k" "$f" --source "a test" --phase p \
				--out "$scratch/o/m.json" >"$scratch/out.txt" 2>"$scratch/err.txt"
			rc=$?
			if [ $rc -ne 1 ] || ! grep -qF "$want" "$scratch/err.txt"; then
				err "$b as $k: exit $rc, not refused as \"$want\": $(head -c 300 "$scratch/err.txt")"
			elif [ -e "$scratch/o/m.json" ]; then
				err "$b as $k: refused but wrote a measurement"
			fi
		done
		named=$((named + 1))
		return
	fi
	# another engine's reader names it and sends it to its own
	other=vllm
	[ "$from" = vllm ] && other=sglang
	rm -rf "$scratch/o"
	"$bin" evidence import --from "$other" "$f" --source "a test" --out "$scratch/o/m.json" \
		>"$scratch/out.txt" 2>"$scratch/err.txt"
	if [ $? -ne 1 ] || ! grep -q "this is .*read it with --from $from" "$scratch/err.txt"; then
		# a log with lines both readers know (none here today) may be read
		grep -q "no line of a" "$scratch/err.txt" &&
			err "$b as $other: a generic refusal: $(head -c 300 "$scratch/err.txt")"
	fi
	# its own reader, with the GPUs its header names and the first start
	set -- evidence import --from "$from" "$f" --source "a test" --start 1 --out "$scratch/o/m.json"
	gpus=$(gpus_of "$b")
	if [ -n "$gpus" ]; then
		while IFS= read -r a; do set -- "$@" "$a"; done <<EOG
$gpus
EOG
	fi
	rm -rf "$scratch/o"
	"$bin" "$@" >"$scratch/out.txt" 2>"$scratch/err.txt"
	rc=$?
	if [ $rc -eq 0 ]; then
		[ -s "$scratch/o/m.json" ] || err "$b: exit 0 but no measurement"
		imported=$((imported + 1))
	elif [ $rc -eq 1 ] && [ -z "$gpus" ] && grep -q "does not name the GPU of device .*give --gpu" "$scratch/err.txt"; then
		asked=$((asked + 1))
	else
		err "$b: exit $rc: $(head -c 400 "$scratch/err.txt")"
	fi
}

for dir in "$src/tests/data/evidence-logs" "$src/../shared/data/evidence"; do
	[ -d "$dir" ] || continue
	for f in "$dir"/*; do
		[ -f "$f" ] && one "$f"
	done
done
[ $n -ge 26 ] || err "only $n logs seen"
# the repository's logs alone import 10; with the project's shared folder
# of real logs beside the checkout, at least 12
want=10
[ -d "$src/../shared/data/evidence" ] && want=12
[ $imported -ge $want ] || err "only $imported imported (at least $want expected)"
finish "evidence-every-log: $n logs: $imported imported, $named refused by name, $asked asked for --gpu"
