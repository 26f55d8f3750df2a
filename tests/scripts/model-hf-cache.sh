#!/bin/sh
# model-hf-cache: a model named by its repo id, read offline from a Hugging
# Face cache that this test builds itself, laid out as the Hub client lays
# it out: models--ORG--NAME/{refs,blobs,snapshots}, each snapshot file a
# relative link into blobs/.
# Usage: model-hf-cache.sh GPUSHEET SOURCE_DIR SCRATCH_DIR
#
# The files are the published config.json and model.safetensors.index.json
# of mistralai/Mistral-7B-v0.1 (tests/data/models/mistral-7b-v0.1, see its
# README). The cache holds two revisions of it:
#  - C1 (tag v0.1): config.json and the safetensors index;
#  - C2 (refs/main): the same config with another context length, and a
#    pytorch_model.bin.index.json (the safetensors index with its shards
#    renamed as the .bin shards of the same repo) beside a .bin shard of
#    garbage bytes, which must never be opened;
# plus a revision whose config.json is a dangling link, and another model
# whose links leave its own folder (into another model's blobs/, into its
# own refs/, to an absolute path outside the cache), which are refused.
set -u
bin=$1 src=$2 scratch=$3
. "$src/tests/lib/common.sh"
m=$src/tests/data/models/mistral-7b-v0.1
hub=$scratch/hf/hub
R=$hub/models--mistralai--Mistral-7B-v0.1
C1=26bca36bde8333b5d7f72e9ed20ccda6a618af24
C2=1111111111111111111111111111111111111111
C3=3333333333333333333333333333333333333333
mkdir -p "$R/blobs" "$R/refs" "$R/snapshots/$C1" "$R/snapshots/$C2" "$R/snapshots/$C3" ||
	die "cannot create the cache"

# blob: copies FILE into blobs/ under its SHA-256, prints the name
blob() {
	b_h=$(sha256sum < "$1" | cut -c1-64)
	cp "$1" "$R/blobs/$b_h" || die "cannot copy $1 into blobs/"
	echo "$b_h"
}
sed 's/"max_position_embeddings": 32768/"max_position_embeddings": 16384/' "$m/config.json" \
	> "$scratch/config-c2.json"
cmp -s "$m/config.json" "$scratch/config-c2.json" && die "the second config does not differ"
sed 's/model-0000\([12]\)-of-00002\.safetensors/pytorch_model-0000\1-of-00002.bin/' \
	"$m/model.safetensors.index.json" > "$scratch/bin-index.json"
printf 'not a pickle: must never be opened\n' > "$scratch/garbage.bin"
(cd "$R/snapshots/$C1" &&
	ln -s "../../blobs/$(blob "$m/config.json")" config.json &&
	ln -s "../../blobs/$(blob "$m/model.safetensors.index.json")" model.safetensors.index.json) ||
	die "snapshot C1"
(cd "$R/snapshots/$C2" &&
	ln -s "../../blobs/$(blob "$scratch/config-c2.json")" config.json &&
	ln -s "../../blobs/$(blob "$scratch/bin-index.json")" pytorch_model.bin.index.json &&
	ln -s "../../blobs/$(blob "$scratch/garbage.bin")" pytorch_model-00001-of-00002.bin) ||
	die "snapshot C2"
ln -s ../../blobs/0000000000000000000000000000000000000000000000000000000000000000 \
	"$R/snapshots/$C3/config.json" || die "snapshot C3"
printf '%s' "$C2" > "$R/refs/main"
printf '%s\n' "$C1" > "$R/refs/v0.1"
printf '%s' "$C3" > "$R/refs/broken"

export HF_HUB_CACHE="$hub"
unset HF_HOME

# the default revision, main: C2, the .bin index read for its total only
"$bin" model mistralai/Mistral-7B-v0.1 > "$scratch/out" 2>&1 || { cat "$scratch/out"; die "model by repo id failed"; }
grep -q "^Hugging Face cache: mistralai/Mistral-7B-v0.1, revision main = commit $C2\$" "$scratch/out" ||
	err "main does not resolve to commit C2"
grep -q "  read in: $R/snapshots/$C2\$" "$scratch/out" || err "the snapshot read is not named"
grep -q 'context length (tokens): 16,384' "$scratch/out" || err "C2's config.json was not the one read"
grep -q 'read from pytorch_model.bin.index.json, metadata.total_size): 14,483,464,192 bytes' "$scratch/out" ||
	err "the .bin index's total_size is not the weights"
grep -q "shards in PyTorch's pickle format (never read.*): pytorch_model-00001-of-00002.bin, pytorch_model-00002-of-00002.bin" "$scratch/out" ||
	err "the .bin shards are not listed as never read"

# a tag, and a commit, and the models--... folder itself (at main)
"$bin" model mistralai/Mistral-7B-v0.1@v0.1 > "$scratch/out" 2>&1 || { cat "$scratch/out"; die "model @v0.1 failed"; }
grep -q "revision v0.1 = commit $C1\$" "$scratch/out" || err "the tag v0.1 does not resolve to C1"
grep -q 'context length (tokens): 32,768' "$scratch/out" || err "C1's config.json was not the one read"
grep -q 'read from model.safetensors.index.json, metadata.total_size): 14,483,464,192 bytes' "$scratch/out" ||
	err "C1's safetensors index was not read"
"$bin" model "mistralai/Mistral-7B-v0.1@$C1" > "$scratch/out2" 2>&1 || err "model @COMMIT failed"
tail -n +4 "$scratch/out" > "$scratch/a"; tail -n +4 "$scratch/out2" > "$scratch/b"
cmp -s "$scratch/a" "$scratch/b" || err "@v0.1 and @C1 read different files"
"$bin" model "$R" > "$scratch/out" 2>&1 || { cat "$scratch/out"; err "model on the models--... folder failed"; }
grep -q "revision main = commit $C2\$" "$scratch/out" || err "the models--... folder is not read at main"
"$bin" model --json mistralai/Mistral-7B-v0.1@v0.1 > "$scratch/json" 2>&1 || err "model --json failed"
grep -q "\"commit\": \"$C1\"" "$scratch/json" || err "model --json has no hub.commit"

# HF_HOME/hub, then ~/.cache/huggingface/hub
(unset HF_HUB_CACHE; HF_HOME=$scratch/hf "$bin" model mistralai/Mistral-7B-v0.1 >/dev/null 2>&1) ||
	err "the cache under HF_HOME/hub is not found"
mkdir -p "$scratch/home/.cache/huggingface" && ln -s "$hub" "$scratch/home/.cache/huggingface/hub"
(unset HF_HUB_CACHE; HOME=$scratch/home "$bin" model mistralai/Mistral-7B-v0.1 >/dev/null 2>&1) ||
	err "the cache under ~/.cache/huggingface/hub is not found"

# refused, with what to do: not in the cache, an unknown revision, a dangling link
"$bin" model mistralai/Mistral-7B-v0.2 > "$scratch/out" 2>&1
rc=$?
[ $rc = 1 ] || err "a model not in the cache: exit $rc, expected 1"
grep -q "not in the Hugging Face cache: looked for $hub/models--mistralai--Mistral-7B-v0.2 " "$scratch/out" ||
	err "a model not in the cache: the message does not say where gpusheet looked"
grep -q "huggingface-cli download mistralai/Mistral-7B-v0.2 --include '\*.json'" "$scratch/out" ||
	err "a model not in the cache: no Hub command for its small files"
"$bin" model mistralai/Mistral-7B-v0.1@v9 > "$scratch/out" 2>&1 && err "an unknown revision was accepted"
grep -q 'no revision "v9" here.*the refs here: broken, main, v0.1' "$scratch/out" ||
	err "an unknown revision: the refs there are not listed"
"$bin" model mistralai/Mistral-7B-v0.1@broken > "$scratch/out" 2>&1 && err "a dangling link was accepted"
grep -q "snapshots/$C3/config.json: error: is a dangling symbolic link to '../../blobs/0000" "$scratch/out" ||
	err "the dangling link is not named as such"
"$bin" model "mistralai/Mistral-7B-v0.1@$C3" > /dev/null 2>&1 && err "a dangling link was accepted by commit"

# links that leave the model's own folder: refused, nothing of their target shown
E=$hub/models--evil--escape
mkdir -p "$E/blobs" "$E/refs" "$E/snapshots/$C1" || die "evil model"
printf '%s' "$C1" > "$E/refs/main"
printf '{"model_type": "llama", "secret": "do-not-show"}\n' > "$scratch/secret.json"
for target in "../../../models--mistralai--Mistral-7B-v0.1/blobs/$(sha256sum < "$m/config.json" | cut -c1-64)" \
	../../refs/main "$scratch/secret.json" ../../../../../secret.json; do
	rm -f "$E/snapshots/$C1/config.json"
	ln -s "$target" "$E/snapshots/$C1/config.json"
	"$bin" model evil/escape > "$scratch/out" 2>&1
	rc=$?
	[ $rc = 1 ] || err "a link to $target: exit $rc, expected 1"
	grep -q "is a symbolic link to '.*', outside the blobs/ of $E" "$scratch/out" ||
		{ cat "$scratch/out"; err "a link to $target is not refused as leaving the model's blobs/"; }
	grep -q do-not-show "$scratch/out" && err "the target of $target was read"
done

# a snapshot copied with cp -r: its relative links dangle, and the message says why
cp -R "$R/snapshots/$C1" "$scratch/copied"
"$bin" model "$scratch/copied" > "$scratch/out" 2>&1 && err "a copy with dangling links was accepted"
grep -q "copied/config.json: error: is a dangling symbolic link to '../../blobs/.*cp -rL" "$scratch/out" ||
	err "a dangling copy: the message does not name the link and cp -rL"

# init from any folder, then check and sheet: the commit is the revision
mkdir -p "$scratch/elsewhere" && cd "$scratch/elsewhere" || die "cd"
"$bin" init --model mistralai/Mistral-7B-v0.1@v0.1 --context 32768 --out work/workload.json \
	> "$scratch/out" 2>&1 || { cat "$scratch/out"; die "init --model REPO@v0.1 failed"; }
grep -q '"repo": "mistralai/Mistral-7B-v0.1"' work/workload.json || err "init does not name the repo"
grep -q "\"revision\": \"$C1\"" work/workload.json || err "init does not record commit C1"
grep -q '"id": "mistral-7b-v0.1"' work/workload.json || err "init's id is not the model's name"
"$bin" check work/workload.json > "$scratch/out" 2>&1 || { cat "$scratch/out"; err "check of the init sheet failed"; }
"$bin" sheet --catalog offers.xml work/workload.json --out work/sheet --date 2026-11-29 > "$scratch/out" 2>&1 ||
	{ cat "$scratch/out"; die "sheet of the init sheet failed"; }
md=work/sheet/mistral-7b-v0.1.md
grep -q "| Revision | $C1 |" "$md" || err "the sheet's revision is not commit C1"
grep -q "| Model | mistralai/Mistral-7B-v0.1 |" "$md" || err "the sheet's model is not the repo id"
grep -q "| Model files | geometry read from: mistralai/Mistral-7B-v0.1@$C1/config.json; weights and parameter count read from: mistralai/Mistral-7B-v0.1@$C1/model.safetensors.index.json" "$md" ||
	err "the sheet does not name the files by repo and commit"
grep -q "$hub" "$md" && err "the sheet shows the cache's path"
grep -q '| Weights only (calculated by the checkpoint.s index from its declared shapes, read from the index (shards. headers not read): .*) | 14,483,464,192 |' "$md" ||
	err "the sheet does not carry the index's exact weights"

# a workload naming the repo without a revision: main, its commit recorded
sed -e '/"revision":/d' -e 's/"repo": "\(.*\)",$/"repo": "\1"/' work/workload.json > work/main.json
"$bin" sheet --catalog offers.xml work/main.json --out work/sheet-main --date 2026-11-29 > "$scratch/out" 2>&1 ||
	{ cat "$scratch/out"; die "sheet at main failed"; }
grep -q "| Revision | $C2 |" work/sheet-main/mistral-7b-v0.1.md || err "main is not recorded as commit C2"
# a stated commit that is not the files' one
sed -e "s/\"repo\": \"mistralai\/Mistral-7B-v0.1\"/\"from\": \"..\/..\/hf\/hub\/models--mistralai--Mistral-7B-v0.1\/snapshots\/$C1\"/" \
	-e "s/\"revision\": \"$C1\"/\"revision\": \"$C2\"/" work/workload.json > work/wrong.json
"$bin" check work/wrong.json > "$scratch/out" 2>&1 && err "a revision that is not the snapshot's commit was accepted"
grep -q "at \$.model.revision: commit $C2 here, but the model's files are those of commit $C1" "$scratch/out" ||
	{ cat "$scratch/out"; err "the wrong revision is not named"; }
# the repo id when the cache lacks it: the message of the cache, then the key
sed -e 's/Mistral-7B-v0.1"/Mistral-7B-v0.2"/' work/workload.json > work/absent.json
"$bin" check work/absent.json > "$scratch/out" 2>&1 && err "a workload naming an absent repo was accepted"
grep -q 'at $.model.repo: cannot read the model "mistralai/Mistral-7B-v0.2" from the Hugging Face cache' "$scratch/out" ||
	err "an absent repo is not named at \$.model.repo"

# init through the models--... folder's snapshot path: named by path, the commit recorded,
# the id the model's name, never the commit
"$bin" init --model "$R/snapshots/$C1" --context 4096 --out work/snap.json > /dev/null 2>"$scratch/out" ||
	{ cat "$scratch/out"; err "init on a snapshot folder failed"; }
grep -q "\"revision\": \"$C1\"" work/snap.json || err "init on a snapshot does not record its commit"
grep -q '"id": "mistral-7b-v0.1"' work/snap.json || err "init on a snapshot names the sheet after the commit"
"$bin" check work/snap.json > /dev/null 2>&1 || err "check of the snapshot sheet failed"

finish "Hugging Face cache: repo ids, revisions, links into blobs/ only, .bin index, init/check/sheet"
