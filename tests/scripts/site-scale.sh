#!/bin/sh
# site-scale: `gpusheet site` stays linear in the number of workloads and
# keeps pages bounded by pagination.
#
# Builds two synthetic sets of workloads (copies of examples/seed-7b with
# different ids), N1 and N4 = 4 x N1, and checks that the CPU time per
# workload of the larger one is at most 2.5 x that of the smaller one (a
# quadratic step would give about 4x); that no page exceeds 2 MB; that the
# index is paginated by 100 (index-2.html ... index-K.html, K = ceil(N/100),
# at most 100 rows a page). Sizes are small enough for the sanitizer build;
# override with SITE_SCALE_N (the small N; the large one is 4x).
#
#   sh site-scale.sh GPUSHEET_BIN SOURCE_DIR SCRATCH_DIR
set -u
bin=$1 src=$2 scratch=$3
. "$src/tests/lib/common.sh"
N1=${SITE_SCALE_N:-150}
N2=$((N1 * 4))
MAX_PAGE=2097152   # 2 MB
MAX_RATIO_X100=250 # 2.5x

seed=$src/examples/seed-7b/workload.json
grep -q '"id": "seed-7b"' "$seed" || die "$seed has no \"id\": \"seed-7b\" line to rewrite"

# make_set N DIR: N workloads DIR/sNNNNN/workload.json, ids sNNNNN; a
# one-line "candidates" key is dropped so that every offer of the catalog is
# compared (the heaviest case).
make_set() {
	i=1
	while [ "$i" -le "$1" ]; do
		id=$(printf 's%05d' "$i")
		mkdir -p "$2/$id"
		sed -e "s/\"id\": \"seed-7b\"/\"id\": \"$id\"/" \
			-e '/^  "candidates": \[.*\],$/d' "$seed" >"$2/$id/workload.json"
		i=$((i + 1))
	done
}

# Cumulative user+sys CPU time of finished children, in milliseconds
# (second line of the POSIX `times` builtin: "XmY.YYYs XmY.YYYs").
# `times` must run in this shell (not in a $(...) subshell) to see them.
child_cpu_ms() {
	times >"$scratch/times.txt"
	sed -n 2p "$scratch/times.txt" | awk '{
		t = 0
		for (f = 1; f <= 2; f++) {
			split($f, a, "m"); sub("s", "", a[2]); t += a[1] * 60 + a[2]
		}
		printf "%d\n", t * 1000 }'
}
now_ms() {
	echo $(($(date +%s%N) / 1000000))
}

# build N: sets wall_ms and cpu_ms, checks the output.
build() {
	n=$1
	dir=$scratch/w$n
	out=$scratch/site$n
	make_set "$n" "$dir"
	child_cpu_ms >"$scratch/cpu0.txt"
	t0=$(now_ms)
	"$bin" site --catalog offers.xml --workloads "$dir" --out "$out" --date "$SITE_DATE" >"$scratch/build$n.log" 2>&1 ||
		{ cat "$scratch/build$n.log"; die "gpusheet site failed for $n workloads"; }
	t1=$(now_ms)
	child_cpu_ms >"$scratch/cpu1.txt"
	c0=$(cat "$scratch/cpu0.txt") c1=$(cat "$scratch/cpu1.txt")
	wall_ms=$((t1 - t0))
	cpu_ms=$((c1 - c0))
	echo "N=$n: wall ${wall_ms} ms ($((wall_ms * 1000 / n)) us/workload), cpu ${cpu_ms} ms ($((cpu_ms * 1000 / n)) us/workload)"

	nsheets=$(find "$out/sheets" -name '*.html' | wc -l)
	[ "$nsheets" -eq "$n" ] || err "N=$n: $nsheets sheets instead of $n"
	pages=$(((n + 99) / 100))
	[ -f "$out/index.html" ] || err "N=$n: no index.html"
	k=2
	while [ "$k" -le "$pages" ]; do
		[ -f "$out/index-$k.html" ] || err "N=$n: index-$k.html missing"
		k=$((k + 1))
	done
	[ -e "$out/index-$k.html" ] && err "N=$n: index-$k.html should not exist ($pages pages)"
	largest=0 largest_name=
	for p in "$out"/*.html "$out"/sheets/*.html; do
		size=$(wc -c <"$p")
		if [ "$size" -gt "$largest" ]; then largest=$size largest_name=${p#"$out"/}; fi
		[ "$size" -le "$MAX_PAGE" ] || err "N=$n: ${p#"$out"/} is $size bytes (limit $MAX_PAGE)"
	done
	for p in "$out"/index*.html; do
		# Workload rows: those of the table body (the header and the
		# per-offer count rows of the footer are not workloads).
		rows=$(sed -n '/<tbody>/,/<\/tbody>/p' "$p" | grep -c '<tr')
		[ "$rows" -ge 1 ] || err "N=$n: ${p#"$out"/} has no workload row"
		[ "$rows" -le 100 ] || err "N=$n: ${p#"$out"/} has $rows rows (limit 100)"
	done
	echo "N=$n: $nsheets sheets, $pages index pages, largest page $largest_name ($largest bytes)"
}

build "$N1"
w1=$wall_ms c1ms=$cpu_ms
build "$N2"
w2=$wall_ms c2ms=$cpu_ms
[ "$c1ms" -gt 0 ] || c1ms=1
[ "$w1" -gt 0 ] || w1=1
# per-workload ratio x100 = (t2 / N2) / (t1 / N1) x 100 = t2 x 100 / (4 t1)
cpu_ratio=$((c2ms * 100 / (4 * c1ms)))
wall_ratio=$((w2 * 100 / (4 * w1)))
echo "time per workload, N=$N2 vs N=$N1: cpu x$((cpu_ratio / 100)).$(printf '%02d' $((cpu_ratio % 100))), wall x$((wall_ratio / 100)).$(printf '%02d' $((wall_ratio % 100)))"
[ "$cpu_ratio" -le "$MAX_RATIO_X100" ] || err "CPU time per workload grows more than 2.5x from N=$N1 to N=$N2"
# wall time is shown, not checked: on a shared machine another job's load
# between the two runs moves it more than any quadratic step would

# The outputs are large (about 250 kB a workload): keep only the logs,
# unless a check failed.
if [ "$fails" -eq 0 ]; then
	rm -rf "$scratch/w$N1" "$scratch/w$N2" "$scratch/site$N1" "$scratch/site$N2"
else
	echo "outputs kept in $scratch"
fi
finish "all checks passed"
