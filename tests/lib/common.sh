# tests/lib/common.sh: the prologue and helpers of tests/scripts/*.sh.
# Not a test itself (every tests/scripts/*.sh is one). A script reads its
# arguments, then sources this file:
#
#	set -u
#	bin=$1 src=$2 scratch=$3
#	. "$src/tests/lib/common.sh"
#
# After that bin, src and scratch are absolute paths and scratch is a fresh,
# empty folder. Helpers:
#   err MSG        a failed check: prints "FAIL: MSG", counts it in $fails,
#                  and the script goes on
#   die MSG        a failure that ends the script: "FAIL: MSG", exit 1
#   skip MSG       the test cannot run here: "SKIP: MSG", exit 77 (ctest's
#                  SKIP_RETURN_CODE for the script tests)
#   have CMD       true when CMD is on the PATH
#   need CMD HINT  skip unless CMD is on the PATH (HINT: how to install it)
#   example_ids    the folders of examples/ that hold a workload.json, one a
#                  line; fails when there is none
#   site_build OUT LOG [DIR...]
#                  `gpusheet site` from the source root over examples/ (and
#                  the workload folders DIR) against the six bundled catalogs,
#                  as tools/build-site.sh does, into OUT, dated $SITE_DATE,
#                  with the reference workload $SITE_REFERENCE,
#                  with --accept-synthetic as the committed site/ is built,
#                  output to LOG; dies, showing LOG, when it fails
#   finish MSG     exit 1 after "N check(s) failed" when err ran, else
#                  prints MSG and exits 0

if [ -z "${bin:-}" ] || [ -z "${src:-}" ] || [ -z "${scratch:-}" ]; then
	echo "usage: sh SCRIPT GPUSHEET_BIN SOURCE_DIR SCRATCH_DIR"
	exit 2
fi

SITE_DATE=2026-11-29   # the date tools/build-site.sh gives the site
SITE_REFERENCE=llama70b-2card   # its --reference: the workload of the offers page's campaign chart
fails=0

err() {
	echo "FAIL: $*"
	fails=$((fails + 1))
}
die() {
	echo "FAIL: $*"
	exit 1
}
skip() {
	echo "SKIP: $*"
	exit 77
}
have() {
	command -v "$1" >/dev/null 2>&1
}
need() {
	have "$1" || skip "$1 not found ($2)"
}
finish() {
	if [ "$fails" -ne 0 ]; then
		echo "$fails check(s) failed"
		exit 1
	fi
	echo "$*"
	exit 0
}

abs() {
	case $1 in /*) echo "$1" ;; *) echo "$(pwd)/$1" ;; esac
}
bin=$(abs "$bin") src=$(abs "$src") scratch=$(abs "$scratch")
rm -rf "$scratch" && mkdir -p "$scratch" || die "cannot create $scratch"

example_ids() {
	(cd "$src/examples" && for d in */; do
		[ -f "$d/workload.json" ] && printf '%s\n' "${d%/}"
	done) | grep .
}

site_build() {
	sb_out=$1 sb_log=$2
	shift 2
	(cd "$src" && "$bin" site --workloads examples "$@" --catalog catalog/offers.xml \
		--catalog catalog/lambda.xml --catalog catalog/nebius.xml \
		--catalog catalog/hyperstack.xml --catalog catalog/cudo.xml \
		--catalog catalog/primeintellect.xml --out "$sb_out" --date "$SITE_DATE" \
		--accept-synthetic --reference "$SITE_REFERENCE") \
		>"$sb_log" 2>&1 || { cat "$sb_log"; die "gpusheet site failed (log above: $sb_log)"; }
}
