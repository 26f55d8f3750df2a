#!/bin/sh
# evidence-not-a-page: no file named by a workload or a log becomes a page
# of the published site. A measurement named run.html and a log named
# capture.html (its bytes a script) are archived by their kind (.json,
# .log), whatever the name; the sheet links them so; `verify` passes that
# site and refuses one holding evidence/<sha>.html or .svg.
#
#   sh evidence-not-a-page.sh GPUSHEET_BIN SOURCE_DIR SCRATCH_DIR
set -u
bin=$1 src=$2 scratch=$3
. "$src/tests/lib/common.sh"

w=$scratch/w
cp -R "$src/examples/llama7b-a40-oom" "$w" || die "cannot copy the example"
# the real log, with a script appended (a new hash, never archived before)
{ cat "$w"/measurements/evidence/*.txt; echo '<script>alert(document.domain)</script>'; } \
	>"$scratch/capture.html" || die "cannot write the log"
(cd "$scratch" && "$bin" evidence import --from torch-oom capture.html --source "a test" \
	--out w/measurements/run.html --gpu "NVIDIA A40" --model huggyllama/llama-7b \
	--dtype float16 --dims batch=8,input_tokens=2048,output_tokens=2048) >"$scratch/import.txt" 2>&1 ||
	{ cat "$scratch/import.txt"; die "evidence import failed"; }
grep -q "the log is evidence/[0-9a-f]\{64\}\.log$" "$scratch/import.txt" ||
	{ cat "$scratch/import.txt"; err "import: the log named capture.html is not archived as .log"; }
ls "$w/measurements/evidence" | grep -v '^manifest.json$' | grep -qv '\.\(txt\|log\)$' &&
	err "import: the workload's archive holds a file that is not .txt or .log"
sed 's|measurements/a40-oom-batch8.json|measurements/run.html|' "$src/examples/llama7b-a40-oom/workload.json" \
	>"$w/workload.json"
"$bin" site --workloads "$w" --out "$scratch/site" --accept-synthetic >"$scratch/site.txt" 2>&1 ||
	{ cat "$scratch/site.txt"; die "site failed"; }
pages=$(ls "$scratch/site/evidence" | grep -v '^manifest.json$' | grep -v '\.\(json\|log\|txt\|header\)$')
[ -z "$pages" ] || err "the site's archive holds $pages"
n=$(ls "$scratch/site/evidence" | grep -c '\.log$')
[ "$n" -eq 1 ] || err "the site's archive holds $n .log files, want 1 (the log named capture.html)"
grep -q 'evidence/[0-9a-f]\{64\}\.html' "$scratch/site/sheets/"*.html &&
	err "a sheet links evidence as .html"
"$bin" verify "$scratch/site" >"$scratch/verify.txt" 2>&1 ||
	{ cat "$scratch/verify.txt"; err "verify refused the site"; }

# a page planted in the archive (what an older gpusheet kept): refused
for ext in html svg xhtml; do
	rm -rf "$scratch/v" && cp -R "$scratch/site" "$scratch/v"
	f=$(ls "$scratch/v/evidence" | grep '\.log$')
	mv "$scratch/v/evidence/$f" "$scratch/v/evidence/${f%.log}.$ext"
	"$bin" verify "$scratch/v" >"$scratch/verify.txt" 2>&1 && err "verify passed evidence/*.$ext"
	grep -q "${f%.log}.$ext: archived under the extension .$ext, which a browser may render" \
		"$scratch/verify.txt" || { cat "$scratch/verify.txt"; err "verify: no reason given for .$ext"; }
done
# a site whose manifest names such a file: the next build refuses it before writing
rm -rf "$scratch/v" && cp -R "$scratch/site" "$scratch/v"
f=$(ls "$scratch/v/evidence" | grep '\.log$')
sed -i "s/${f%.log}\.log/${f%.log}.html/" "$scratch/v/evidence/manifest.json"
mv "$scratch/v/evidence/$f" "$scratch/v/evidence/${f%.log}.html"
"$bin" evidence import --from torch-oom "$scratch/capture.html" --source "a test" \
	--out "$scratch/v/evidence/../again.json" --gpu "NVIDIA A40" >"$scratch/again.txt" 2>&1 &&
	err "evidence import added to an archive naming an .html file"
grep -q "a browser could render it as a page" "$scratch/again.txt" ||
	{ cat "$scratch/again.txt"; err "evidence import: no reason for the refused archive"; }
# --out in a folder that does not exist yet: created, as init does
(cd "$scratch" && "$bin" evidence import --from torch-oom capture.html --source "a test" \
	--out fresh/runs/run.json --gpu "NVIDIA A40") >"$scratch/fresh.txt" 2>&1 ||
	{ cat "$scratch/fresh.txt"; err "evidence import did not create the --out folder"; }
[ -f "$scratch/fresh/runs/run.json" ] || err "evidence import: fresh/runs/run.json not written"
ls "$scratch/fresh/runs/evidence" | grep -q '\.log$' || err "evidence import: the new folder holds no archived log"
finish "ok: evidence archived by kind, never as a page"
