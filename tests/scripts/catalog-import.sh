#!/bin/sh
# `gpusheet catalog import`: what it leaves on disk.
# Usage: catalog-import.sh GPUSHEET SOURCE_DIR SCRATCH_DIR
#
#  - the bundled provider catalogs (every catalog/<name>.xml but the seed's
#    offers.xml) are what
#    tools/import-catalogs.sh gives from catalog/sources/, byte for byte,
#    and each passes `gpusheet check`;
#  - on bad input with --strict (one file per rule, a 50 MB file of
#    garbage) the exit code is 1, an existing --out file keeps its bytes and no other file appears;
#  - a 50 MB file is refused from its size, before it is read.
# The golden CLI cases (tests/cli/catalog-import-*) check the messages.
set -u
bin=$1 src=$2 scratch=$3
. "$src/tests/lib/common.sh"
need python3 "apt-get install python3"
cd "$src" || exit 1

# The bundled snapshots: tools/import-catalogs.sh, run on a copy of the
# tree, gives every catalog/<name>.xml byte for byte, and each passes check.
mkdir -p "$scratch/tree/tools" "$scratch/tree/catalog"
cp tools/import-catalogs.sh "$scratch/tree/tools/"
cp -R catalog/sources "$scratch/tree/catalog/"
"$scratch/tree/tools/import-catalogs.sh" "$bin" >"$scratch/report.txt" 2>&1 ||
	{ cat "$scratch/report.txt"; die "tools/import-catalogs.sh failed"; }
for x in $(cd catalog && ls *.xml | sed -n 's/\.xml$//p' | grep -v '^offers$'); do
	cmp -s "$scratch/tree/catalog/$x.xml" "catalog/$x.xml" ||
		err "catalog/$x.xml differs from a fresh import (run tools/import-catalogs.sh)"
	"$bin" check "catalog/$x.xml" >/dev/null 2>&1 || err "catalog/$x.xml does not pass check"
done
rm -rf "$scratch/tree"

# 50 MB of garbage, made here (not committed).
head -c 50000000 /dev/urandom >"$scratch/garbage-50mb.csv"

mkdir -p "$scratch/out"
for f in tests/bad/import/*.csv "$scratch/garbage-50mb.csv"; do
	printf 'earlier catalog\n' >"$scratch/out/catalog.xml"
	"$bin" catalog import --from skypilot "$f" --provider P --source-ref r --strict \
		--out "$scratch/out/catalog.xml" >"$scratch/log" 2>&1
	rc=$?
	[ "$rc" = 1 ] || err "$f: exit code $rc, expected 1"
	grep -q 'error' "$scratch/log" || err "$f: no error message"
	[ "$(cat "$scratch/out/catalog.xml")" = "earlier catalog" ] || err "$f: the existing output was changed"
	[ "$(ls -A "$scratch/out" | wc -l)" = 1 ] || err "$f: files left behind: $(ls -A "$scratch/out")"
done
grep -q 'the limit is 16777216 bytes' "$scratch/log" || err "the 50 MB file is not refused for its size"
rm -f "$scratch/garbage-50mb.csv"

# Re-import into a folder replaces the provider's catalog there: the same
# file and offer ids, the new prices and the source's date.
rm -rf "$scratch/folder" && mkdir -p "$scratch/folder"
cp catalog/lambda.xml catalog/offers.xml "$scratch/folder/"
sed 's/,31.92,/,30.00,/' catalog/sources/lambda-v8-vms.csv >"$scratch/lambda-v8-vms.csv"
"$bin" catalog import --from skypilot "$scratch/lambda-v8-vms.csv" --provider Lambda \
	--source-date 2026-12-01 --source-ref "SkyPilot catalog commit 0f40703, edited" \
	--out "$scratch/folder" >/dev/null 2>"$scratch/log" || { cat "$scratch/log"; err "re-import into a folder failed"; }
[ "$(ls "$scratch/folder" | tr '\n' ' ')" = "lambda.xml offers.xml " ] || err "re-import left: $(ls "$scratch/folder")"
grep -q 'replacing .*lambda.xml (Lambda' "$scratch/log" || err "re-import does not say what it replaces"
grep -q 'provider="Lambda" date="2026-12-01"' "$scratch/folder/lambda.xml" || err "the new snapshot's date is not recorded"
grep -q 'price="30.00"' "$scratch/folder/lambda.xml" || err "the new price is not in the catalog"
[ "$(grep -o 'offer id="[^"]*"' "$scratch/folder/lambda.xml")" = "$(grep -o 'offer id="[^"]*"' catalog/lambda.xml)" ] ||
	err "re-import changed the offer ids"

# Mithril's one price is its auction's floor: found by the provider typed,
# or by the file's own name or folder (SkyPilot's mithril/vms.csv), never
# by a folder that merely starts with the name
mkdir -p "$scratch/mithril" "$scratch/mithril-user"
cp catalog/sources/mithril-v8-vms.csv "$scratch/mithril/vms.csv"
cp catalog/sources/mithril-v8-vms.csv "$scratch/mithril-user/other.csv"
"$bin" catalog import --from skypilot "$scratch/mithril/vms.csv" --provider Other --source-ref r \
	--out "$scratch/m1.xml" 2>/dev/null | grep -q '^Prices: 4 rows give one figure in both columns' ||
	err "mithril/vms.csv: the auction's floor rule was not applied"
"$bin" catalog import --from skypilot "$scratch/mithril-user/other.csv" --provider Other --source-ref r \
	--out "$scratch/m2.xml" 2>/dev/null | grep -q '^Prices:' &&
	err "mithril-user/other.csv: the auction's floor rule applied to a folder that is not the provider's"
grep -c 'interruptible="false"' "$scratch/m1.xml" | grep -qx 0 || err "mithril/vms.csv kept an on-demand plan"

# Without --catalog, every bundled catalog is compared, and the answer
# names the date (or the commit) of the price it quotes.
"$bin" sheet tests/data/sheet/regions/workload.json --out "$scratch/all" --date 2026-12-05 >/dev/null 2>"$scratch/log" ||
	{ cat "$scratch/log"; err "a sheet against every bundled catalog failed"; }
n=$(python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["candidates"]))' "$scratch/all/regions.json")
[ "$n" -gt 800 ] || err "a sheet without --catalog compared $n offers, expected every bundled one (over 800)"
grep -q 'prices undated, SkyPilot catalog commit\|prices of 20' "$scratch/all/regions.md" ||
	err "the answer does not name the price's date"
finish "ok: bundled catalog reproducible; bad input writes nothing; re-import replaces; every bundled catalog by default"
