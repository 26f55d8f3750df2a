#!/bin/sh
# model-archive: a sheet carries its model's files. A site of two workloads,
# one naming its model by repo id in a Hugging Face cache this test builds
# (snapshot links into blobs/), one by a path to a copy of the folder, is
# built; then the cache and the folder are moved away and the site built
# again, reused and rendered anew: byte-identical, and it verifies. The
# archive holds config.json and the index whole, the shards' headers only.
# A file changed under the same commit is an error naming it; a lone sheet
# rebuilds without its model too.
#
#   sh model-archive.sh GPUSHEET_BIN SOURCE_DIR SCRATCH_DIR
set -u
bin=$1 src=$2 scratch=$3
. "$src/tests/lib/common.sh"
tiny=$src/tests/data/models/tiny-llama
hub=$scratch/hf/hub
R=$hub/models--tiny--llama
C1=26bca36bde8333b5d7f72e9ed20ccda6a618af24
mkdir -p "$R/blobs" "$R/refs" "$R/snapshots/$C1" || die "cannot create the cache"
for f in "$tiny"/*; do
	h=$(sha256sum < "$f" | cut -c1-64)
	cp "$f" "$R/blobs/$h" && ln -s "../../blobs/$h" "$R/snapshots/$C1/$(basename "$f")" ||
		die "cannot put $f in the cache"
done
printf '%s' "$C1" > "$R/refs/main"
export HF_HUB_CACHE="$hub"
unset HF_HOME

wl=$scratch/workloads
mkdir -p "$wl/repo" "$wl/path" || die "mkdir"
sed 's|"model": {"from": "tiny-llama"}|"model": {"repo": "tiny/llama"}|' \
	"$src/tests/data/models/workload-from-tiny.json" > "$wl/repo/workload.json"
sed 's|"id": "from-tiny"|"id": "from-path"|' "$src/tests/data/models/workload-from-tiny.json" \
	> "$wl/path/workload.json"
cp -R "$tiny" "$wl/path/tiny-llama" || die "cp"

site() { # site OUT [options]
	o=$1
	shift
	"$bin" site --catalog offers.xml --workloads "$wl" --out "$o" --date 2026-11-29 "$@" > "$scratch/log" 2>&1
}
site "$scratch/site" --stats || { cat "$scratch/log"; die "the first site failed"; }
"$bin" verify "$scratch/site" > "$scratch/v" 2>&1 || { cat "$scratch/v"; die "the first site does not verify"; }
cp -R "$scratch/site" "$scratch/ref"
m=$scratch/site/evidence/manifest.json
for n in 'model:hf:tiny/llama@main/config.json' 'model:hf:tiny/llama@main/model.safetensors.index.json' \
	'model:hf:tiny/llama@main/model-00001-of-00002.safetensors.header' \
	'model:hf:tiny/llama@main#files.json' 'model:path:from-path:tiny-llama#files.json'; do
	grep -qF "\"$n\"" "$m" || err "the manifest does not name $n"
done
# a shard's header is its 8-byte length and its JSON header, never its tensors
sh1=$tiny/model-00001-of-00002.safetensors
hl=$(od -An -tu8 -N8 "$sh1" | tr -d ' ')
head -c $((hl + 8)) "$sh1" > "$scratch/h1"
h1=$(sha256sum < "$scratch/h1" | cut -c1-64)
[ -f "$scratch/site/evidence/$h1.header" ] || err "the first shard's header is not archived as $h1.header"
[ "$(wc -c < "$scratch/site/evidence/$h1.header")" -lt "$(wc -c < "$sh1")" ] ||
	err "more than the header of the shard was archived"
grep -q "archived with the sheet (read from there when the model is gone): <a href=\"../evidence/[0-9a-f]*.json\">config.json</a>" \
	"$scratch/site/sheets/from-tiny.html" || err "the sheet does not link its archived config.json"

# the model gone: the site rebuilds from its archive, reused and re-rendered
mv "$scratch/hf" "$scratch/hf-away" && mv "$wl/path/tiny-llama" "$scratch/tiny-away" || die "mv"
site "$scratch/site" --stats || { cat "$scratch/log"; die "the site without the model failed"; }
grep -q 'stats: 0 sheets rendered, 2 reused' "$scratch/log" || { cat "$scratch/log"; err "the sheets were not reused"; }
diff -r "$scratch/site" "$scratch/ref" > /dev/null || err "the site without the model differs (reused)"
site "$scratch/site" --lang es || { cat "$scratch/log"; die "the site in Spanish without the model failed"; }
site "$scratch/site" -j 1 --stats || { cat "$scratch/log"; die "the site rendered again without the model failed"; }
grep -q 'stats: 2 sheets rendered' "$scratch/log" || { cat "$scratch/log"; err "the sheets were not rendered again"; }
diff -r "$scratch/site" "$scratch/ref" > /dev/null || err "the site without the model differs (rendered)"
"$bin" verify "$scratch/site" > "$scratch/v" 2>&1 || { cat "$scratch/v"; err "the site without the model does not verify"; }

# an archived file altered: refused, naming it
f=$(ls "$scratch/site/evidence/"*.header | head -n 1)
cp -R "$scratch/site" "$scratch/tampered"
chmod u+w "$scratch/tampered/evidence/$(basename "$f")"
printf 'x' >> "$scratch/tampered/evidence/$(basename "$f")"
"$bin" site --catalog offers.xml --workloads "$wl" --out "$scratch/tampered" --date 2026-11-29 -j 1 --lang es > "$scratch/log" 2>&1 &&
	err "a site was built from an altered archive"
grep -q "$(basename "$f"): error: .*not the .* it is archived under" "$scratch/log" ||
	{ cat "$scratch/log"; err "the altered archived file is not named"; }

# the model back, one file changed under the same commit: an error naming it
mv "$scratch/hf-away" "$scratch/hf" || die "mv back"
cfg=$R/snapshots/$C1/config.json
cp "$tiny/config.json" "$scratch/cfg" && printf ' ' >> "$scratch/cfg" && rm "$cfg" && cp "$scratch/cfg" "$cfg" || die "cfg"
site "$scratch/site" && err "a model changed under the same commit was accepted"
grep -q "$cfg: error: the model changed under commit $C1: the content of this file has SHA-256" "$scratch/log" ||
	{ cat "$scratch/log"; err "the changed file is not named"; }
diff -r "$scratch/site" "$scratch/ref" > /dev/null || err "a refused build changed the site"

# a lone sheet, then again without its model folder
mv "$scratch/tiny-away" "$wl/path/tiny-llama" || die "mv"
"$bin" sheet --catalog offers.xml "$wl/path/workload.json" --out "$scratch/lone" --date 2026-11-29 > "$scratch/log" 2>&1 ||
	{ cat "$scratch/log"; die "the lone sheet failed"; }
cp -R "$scratch/lone" "$scratch/lone-ref"
rm -r "$wl/path/tiny-llama"
"$bin" sheet --catalog offers.xml "$wl/path/workload.json" --out "$scratch/lone" --date 2026-11-29 > "$scratch/log" 2>&1 ||
	{ cat "$scratch/log"; die "the lone sheet without its model failed"; }
diff -r "$scratch/lone" "$scratch/lone-ref" > /dev/null || err "the lone sheet without its model differs"
"$bin" verify "$scratch/lone" > "$scratch/v" 2>&1 || { cat "$scratch/v"; err "the lone sheet does not verify"; }
# without an archive, the model's absence is said as before
"$bin" sheet --catalog offers.xml "$wl/path/workload.json" --out "$scratch/other" --date 2026-11-29 > "$scratch/log" 2>&1 &&
	err "a sheet without its model nor an archive was built"
grep -q "tiny-llama: error: no such file or folder" "$scratch/log" || { cat "$scratch/log"; err "no message for the absent model"; }
finish "a sheet carries its model's files: rebuilt without the model, byte for byte"
