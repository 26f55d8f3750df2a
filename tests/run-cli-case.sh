#!/bin/sh
# Runs one CLI golden case. Usage: run-cli-case.sh GPUSHEET CASE_DIR SOURCE_DIR
#
# A case folder holds:
#   args             one argument per line; @SRC@ is the source tree, @OUT@ a
#                    fresh empty folder, @CASE@ the case folder
#   expected-rc      the exit code (default 0)
#   expected-stdout  compared byte for byte (absent: stdout must be empty)
#   expected-stderr  compared byte for byte (absent: not compared)
#   expected-out/    each file in it is compared with the same name in @OUT@;
#                    files in @OUT@ that are not listed there are ignored
#   env              optional lines NAME=VALUE exported before the run
#   setup            optional: a sh script run first, in SOURCE_DIR, with a
#                    fresh folder @IN@ as $1 (inputs too large for the tree,
#                    made there: a sparse checkpoint); @IN@ in args names it,
#                    and its path in stdout and stderr reads @IN@
# The command runs in SOURCE_DIR, so paths in messages are stable.
# With GS_UPDATE_GOLDEN=1 the expectations (stdout, stderr, expected-out/)
# are rewritten from the run, but never expected-rc: an exit code other than
# the expected one fails the case, says so, and rewrites nothing (an exit
# code is changed by hand, on purpose).
set -u
bin=$1 case=$2 src=$3
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/out" "$tmp/in"
if [ -f "$case/setup" ]; then
	(cd "$src" && sh "$case/setup" "$tmp/in") || { echo "the case's setup failed"; exit 1; }
fi
set --
while IFS= read -r line || [ -n "$line" ]; do
	line=$(printf '%s' "$line" | sed -e "s|@SRC@|$src|g" -e "s|@OUT@|$tmp/out|g" -e "s|@CASE@|$case|g" -e "s|@IN@|$tmp/in|g")
	set -- "$@" "$line"
done < "$case/args"
if [ -f "$case/env" ]; then
	while IFS= read -r kv || [ -n "$kv" ]; do
		[ -n "$kv" ] && export "$kv"
	done < "$case/env"
fi
cd "$src" || exit 1
if [ -f "$case/stdin" ]; then
	"$bin" "$@" < "$case/stdin" > "$tmp/stdout" 2> "$tmp/stderr"
else
	"$bin" "$@" < /dev/null > "$tmp/stdout" 2> "$tmp/stderr"
fi
rc=$?
# Paths of the scratch folder are not part of the expectation.
sed -i -e "s|$tmp/out|@OUT@|g" -e "s|$tmp/in|@IN@|g" "$tmp/stdout" "$tmp/stderr"
want_rc=0
[ -f "$case/expected-rc" ] && want_rc=$(cat "$case/expected-rc")
if [ "${GS_UPDATE_GOLDEN:-0}" = 1 ]; then
	if [ "$rc" != "$want_rc" ]; then
		echo "exit code $rc, expected $want_rc: GS_UPDATE_GOLDEN never rewrites expected-rc;" \
			"nothing of this case was rewritten"
		echo "--- stderr:"; cat "$tmp/stderr"
		exit 1
	fi
	cp "$tmp/stdout" "$case/expected-stdout"
	[ -f "$case/expected-stderr" ] && cp "$tmp/stderr" "$case/expected-stderr"
	if [ -d "$case/expected-out" ]; then
		for f in "$case/expected-out"/*; do
			cp "$tmp/out/$(basename "$f")" "$f"
		done
	fi
	exit 0
fi
fail=0
if [ "$rc" != "$want_rc" ]; then
	echo "exit code $rc, expected $want_rc"; fail=1
fi
if [ -f "$case/expected-stdout" ]; then
	diff -u "$case/expected-stdout" "$tmp/stdout" || fail=1
elif [ -s "$tmp/stdout" ]; then
	echo "unexpected stdout:"; cat "$tmp/stdout"; fail=1
fi
if [ -f "$case/expected-stderr" ]; then
	diff -u "$case/expected-stderr" "$tmp/stderr" || fail=1
fi
if [ -d "$case/expected-out" ]; then
	for f in "$case/expected-out"/*; do
		name=$(basename "$f")
		if [ ! -f "$tmp/out/$name" ]; then
			echo "missing output $name"; fail=1
		else
			cmp -s "$f" "$tmp/out/$name" || { echo "output $name differs"; diff -u "$f" "$tmp/out/$name" | head -40; fail=1; }
		fi
	done
fi
[ $fail = 0 ] || { echo "--- stderr:"; cat "$tmp/stderr"; }
exit $fail
