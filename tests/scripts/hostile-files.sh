#!/bin/sh
# hostile-files: evidence that is not a regular file inside the workload's
# folder is refused before any byte is read (findings D1, D2), and inputs
# beyond the documented bounds are refused fast and small (D5; the bounds
# are in docs/formats.md):
#  - a FIFO as evidence, or given to `check`: refused, no hang (timeout);
#  - a folder as evidence: refused;
#  - a symlink to a measurement outside the folder, a symlinked folder on
#    the way, a symlink to /etc/passwd: refused, and no byte of the target
#    in any message nor any file written;
#  - a file over 8 MiB, an array of 1,001 items, a string of 65,537 bytes:
#    refused with the JSON path and the bound, in seconds, in little memory;
#  - cited files of more than 64 MiB together (each under 8 MiB): refused
#    with the citation that crosses the bound, nothing written.
#
#   sh hostile-files.sh GPUSHEET_BIN SOURCE_DIR SCRATCH_DIR
set -u
bin=$1 src=$2 scratch=$3
. "$src/tests/lib/common.sh"
need timeout "coreutils"
EV=measurements/rtx6000ada-lora-step.json
TIME_LIMIT=20      # seconds for any refusal (a hang is killed at this)

fresh() { # fresh NAME: a copy of examples/lora-adapt in $scratch/NAME
	rm -rf "$scratch/$1" && cp -R "$src/examples/lora-adapt" "$scratch/$1" || die "cannot copy lora-adapt"
	w=$scratch/$1
}
# refused LABEL PATTERN CMD...: exit 1 (not a hang, not a crash), stderr says PATTERN
refused() {
	r_label=$1 r_pat=$2
	shift 2
	timeout "$TIME_LIMIT" "$@" >"$scratch/out.txt" 2>"$scratch/err.txt"
	r_rc=$?
	if [ "$r_rc" -eq 124 ]; then
		err "$r_label: still running after $TIME_LIMIT s (hang)"
	elif [ "$r_rc" -ne 1 ]; then
		cat "$scratch/err.txt"
		err "$r_label: exit $r_rc, want 1"
	elif ! grep -qF -- "$r_pat" "$scratch/err.txt"; then
		cat "$scratch/err.txt"
		err "$r_label: the message does not say \"$r_pat\""
	else
		echo "ok: $r_label: $(head -n 1 "$scratch/err.txt" | cut -c1-200)"
	fi
}

# D1: a FIFO as the evidence file; and given to check directly.
fresh fifo
rm -f "$w/$EV" && mkfifo "$w/$EV" || skip "mkfifo failed"
refused "FIFO evidence (sheet)" "is a FIFO, not a regular file" \
	"$bin" sheet --catalog offers.xml "$w/workload.json" --out "$scratch/out-fifo"
[ ! -e "$scratch/out-fifo" ] || err "FIFO evidence: an output folder was written"
refused "FIFO evidence (site)" "is a FIFO, not a regular file" \
	"$bin" site --catalog offers.xml --workloads "$w" --out "$scratch/site-fifo"
refused "FIFO given to check" "is a FIFO, not a regular file" "$bin" check "$w/$EV"

# A folder in place of the evidence file.
fresh dir
rm -f "$w/$EV" && mkdir "$w/$EV"
refused "folder as evidence" "is a folder, not a regular file" "$bin" sheet --catalog offers.xml "$w/workload.json" --out "$scratch/out-dir"

# D2: symlinks out of the folder. The outside measurement is a valid one
# with a marker in it that must never show.
mkdir -p "$scratch/outside"
sed 's/"schema": "gpusheet-measurement"/"schema": "gpusheet-measurement", "zz_marker": "OUTSIDE-SECRET-7431"/' \
	"$src/examples/lora-adapt/$EV" >"$scratch/outside/m.json"
fresh link
rm -f "$w/$EV" && ln -s "$scratch/outside/m.json" "$w/$EV"
refused "symlink to a file outside" "is a symbolic link" "$bin" sheet --catalog offers.xml "$w/workload.json" --out "$scratch/out-link"
fresh linkdir
rm -rf "$w/measurements" && mkdir -p "$scratch/outside/measurements" &&
	cp "$scratch/outside/m.json" "$scratch/outside/$EV" && ln -s "$scratch/outside/measurements" "$w/measurements"
refused "symlinked folder on the path" "'measurements' is a symbolic link" \
	"$bin" sheet --catalog offers.xml "$w/workload.json" --out "$scratch/out-linkdir"
fresh passwd
rm -f "$w/$EV" && ln -s /etc/passwd "$w/$EV"
refused "symlink to /etc/passwd" "is a symbolic link" "$bin" sheet --catalog offers.xml "$w/workload.json" --out "$scratch/out-passwd"
for o in out-link out-linkdir out-passwd; do
	[ ! -e "$scratch/$o" ] || err "$o: an output folder was written"
done
first=$(head -n 1 /etc/passwd | cut -d: -f1)
for f in "$scratch"/err.txt; do
	grep -q "OUTSIDE-SECRET" "$f" && err "a byte of the outside file is in a message"
	[ -n "$first" ] && grep -q "$first" "$f" && err "the first token of /etc/passwd is in a message"
done

# Bounds (D5): refused fast, with the path and the bound.
big() { # big FILE PREFIX ITEM COUNT SUFFIX [SEP]: PREFIX ITEM,ITEM,... SUFFIX
	awk -v p="$2" -v it="$3" -v n="$4" -v s="$5" -v sep="${6-,}" 'BEGIN {
		printf "%s", p; for (i = 0; i < n; i++) printf "%s%s", (i ? sep : ""), it; printf "%s\n", s }' >"$1"
}
big "$scratch/items.json" '{"schema": "gpusheet-measurement", "phases": [' '{}' 1001 ']}'
refused "array of 1,001 items" "at \$.phases: an array of 1001 items, more than the bound of 1000 items" \
	"$bin" check "$scratch/items.json"
big "$scratch/string.json" '{"schema": "gpusheet-measurement", "notes": "' 'x' 65537 '"}' ''
refused "string of 65,537 bytes" "at \$.notes: a string of 65537 bytes, more than the bound of 65536 bytes" \
	"$bin" check "$scratch/string.json"
big "$scratch/huge.json" '{"schema": "gpusheet-measurement", "phases": [' '{"name": "p", "status": "ok"}' 1000000 ']}'
t0=$(date +%s)
if [ -x /usr/bin/time ]; then
	refused "a 30 MB measurement of 10^6 phases" "more than the bound of 8388608 bytes" \
		/usr/bin/time -f '%M' -o "$scratch/rss.txt" "$bin" check "$scratch/huge.json"
	rss=$(tail -n 1 "$scratch/rss.txt")
	# under ASan a bare start costs ~30 MB; the refusal reads nothing
	[ "$rss" -lt 200000 ] || err "10^6 phases: $rss KB of memory"
	echo "ok: 10^6 phases refused with a peak of $rss KB"
else
	refused "a 30 MB measurement of 10^6 phases" "more than the bound of 8388608 bytes" \
		"$bin" check "$scratch/huge.json"
fi
t1=$(date +%s)
[ $((t1 - t0)) -le 5 ] || err "10^6 phases: refused in $((t1 - t0)) s, want <= 5"
# A workload's cited files together: 64 MiB at most. Nine distinct files
# of 7.5 MiB (a valid measurement padded with blanks, each one alone
# accepted: 8 of them are 60 MiB), hard links of one so the disk holds one.
fresh total
{ cat "$w/$EV"; head -c $((7680 * 1024 - $(wc -c <"$w/$EV"))) /dev/zero | tr '\0' ' '; } \
	>"$w/measurements/big-0.json" || die "cannot write a 7.5 MiB measurement"
cites=
for i in 0 1 2 3 4 5 6 7 8; do
	[ "$i" = 0 ] || ln "$w/measurements/big-0.json" "$w/measurements/big-$i.json" ||
		skip "hard links not available"
	cites="$cites{\"file\": \"measurements/big-$i.json\", \"covers\": \"the same run\"}, "
done
sed "s|\"evidence\": \[|\"evidence\": [$cites|" "$src/examples/lora-adapt/workload.json" >"$w/workload.json"
grep -q 'big-8.json' "$w/workload.json" || die "the citations were not added"
pat="$w/workload.json: error: at \$.evidence[8].file: evidence 'measurements/big-8.json': the files cited up to it are 70778880 bytes together, more than the bound of 67108864 bytes for a workload"
refused "cited files of 67.5 MiB together (sheet)" "$pat" \
	"$bin" sheet --catalog offers.xml "$w/workload.json" --out "$scratch/out-total"
[ ! -e "$scratch/out-total" ] || err "cited files over the bound: an output folder was written"
refused "cited files of 67.5 MiB together (site)" "$pat" \
	"$bin" site --catalog offers.xml --workloads "$w" --out "$scratch/site-total"
[ ! -e "$scratch/site-total" ] || err "cited files over the bound: a site was written"
# 8 of them (60 MiB) are within it
sed "s|, *{\"file\": \"measurements/big-8.json\"[^}]*}||" "$w/workload.json" >"$w/w8.json"
mv "$w/w8.json" "$w/workload.json"
timeout "$TIME_LIMIT" "$bin" sheet --catalog offers.xml "$w/workload.json" --out "$scratch/out-total8" >"$scratch/out.txt" 2>&1 ||
	{ cat "$scratch/out.txt"; err "cited files of 60 MiB together: refused"; }

finish "ok: hostile files refused"
