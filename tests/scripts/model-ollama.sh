#!/bin/sh
# `gpusheet model ollama:NAME[:TAG]` and `init --model ollama:...` read
# Ollama's store (gen/read/ollama.h) as it lies, and nothing beneath it
# through a symbolic link; a site built from such a workload rebuilds from
# its archive once the store is gone.
# Usage: model-ollama.sh GPUSHEET SOURCE_DIR SCRATCH_DIR
#
# A copy of tests/data/ollama (README.md there):
#  - the default store is HOME/.ollama/models when OLLAMA_MODELS is unset;
#  - init --model ollama:tiny writes tests/data/workload-ollama-tiny.json;
#  - a manifest that is a symbolic link (to the real one) is refused, and
#    so is a blobs/ folder that is one, and a blob that is one: exit 1, the
#    path named;
#  - the tiny model's sheet, built into a site, renders again with the
#    store removed, from the model's header archived in the site's
#    evidence, its weights 2,354 B and its q8_0 cache 272 B per token.
set -u
bin=$1 src=$2 scratch=$3
. "$src/tests/lib/common.sh"
have ln || skip "no ln"
store=$scratch/store
cp -R "$src/tests/data/ollama" "$store" || die "copy the store"
lib=$store/manifests/registry.ollama.ai/library
blob=sha256-08480a5af919280bc290079c26d5f939f148ef9fa4a845aa0949be013adbd0f5

# the default store: HOME/.ollama/models
mkdir -p "$scratch/home/.ollama" || die "mkdir home"
cp -R "$store" "$scratch/home/.ollama/models" || die "copy to home"
(unset OLLAMA_MODELS; HOME=$scratch/home "$bin" model ollama:tiny >"$scratch/log" 2>&1) ||
	{ cat "$scratch/log"; err "ollama:tiny not read from HOME/.ollama/models"; }
grep -q "^Ollama store: tiny:latest" "$scratch/log" || err "the default store: no Ollama line"

# a manifest that is a symbolic link
ln -s latest "$lib/tiny/linked" || die "ln manifest"
OLLAMA_MODELS=$store "$bin" model ollama:tiny:linked >/dev/null 2>"$scratch/log"
[ $? -eq 1 ] || err "a manifest that is a symbolic link was not refused with exit 1"
grep -q "tiny/linked" "$scratch/log" || { cat "$scratch/log"; err "the linked manifest: path not named"; }

# a blob that is a symbolic link
mkdir -p "$scratch/elsewhere" || die "mkdir elsewhere"
mv "$store/blobs/$blob" "$scratch/elsewhere/$blob" || die "mv blob"
ln -s "$scratch/elsewhere/$blob" "$store/blobs/$blob" || die "ln blob"
OLLAMA_MODELS=$store "$bin" model ollama:tiny >/dev/null 2>"$scratch/log"
[ $? -eq 1 ] || err "a blob that is a symbolic link was not refused with exit 1"
grep -q "blobs/$blob" "$scratch/log" || { cat "$scratch/log"; err "the linked blob: path not named"; }
rm "$store/blobs/$blob" && mv "$scratch/elsewhere/$blob" "$store/blobs/$blob" || die "restore blob"

# a blobs folder that is a symbolic link
mv "$store/blobs" "$scratch/blobs-real" && ln -s "$scratch/blobs-real" "$store/blobs" || die "ln blobs"
OLLAMA_MODELS=$store "$bin" model ollama:tiny >/dev/null 2>"$scratch/log"
[ $? -eq 1 ] || err "a blobs folder that is a symbolic link was not refused with exit 1"
grep -q "symbolic link is not followed" "$scratch/log" || { cat "$scratch/log"; err "the linked blobs folder: no reason"; }
rm "$store/blobs" && mv "$scratch/blobs-real" "$store/blobs" || die "restore blobs"

# init writes tests/data/workload-ollama-tiny.json (read by hand: model.ollama
# tiny:latest, the q8_0 cache without bytes per value), which passes check
OLLAMA_MODELS=$store "$bin" init --model ollama:tiny --context 2048 --kv-dtype q8_0 \
	--out "$scratch/init.json" >"$scratch/log" 2>&1 || { cat "$scratch/log"; err "init failed"; }
cmp -s "$scratch/init.json" "$src/tests/data/workload-ollama-tiny.json" ||
	{ diff -u "$src/tests/data/workload-ollama-tiny.json" "$scratch/init.json"; err "init output differs from tests/data/workload-ollama-tiny.json"; }
grep -q '"ollama": "tiny:latest"' "$scratch/init.json" || err "init: no model.ollama"

# a site rebuilds without the store
mkdir -p "$scratch/w/tiny" || die "mkdir w"
cp "$src/tests/data/workload-ollama-tiny.json" "$scratch/w/tiny/workload.json" || die "copy workload"
cd "$scratch" || die "cd"
OLLAMA_MODELS=$store "$bin" site --workloads w --out pub --date 2026-11-29 >"$scratch/log" 2>&1 ||
	{ cat "$scratch/log"; die "site with the store failed"; }
rm -rf "$store"
OLLAMA_MODELS=$store "$bin" site --workloads w --out pub --date 2026-11-30 >"$scratch/log" 2>&1 ||
	{ cat "$scratch/log"; die "site without the store did not rebuild from its archive"; }
grep -q '"weights": {"bytes":2354,' pub/sheets/tiny-latest.json ||
	err "the rebuilt sheet's weights are not 2,354 B"
grep -q '"bytes_per_token":{"bytes":272,' pub/sheets/tiny-latest.json ||
	err "the rebuilt sheet's q8_0 cache is not 272 B per token"
grep -q '2026-11-30' pub/sheets/tiny-latest.json || err "the sheet was not rendered again"
finish "ollama: the default store, links refused, a site rebuilt from its archive"
