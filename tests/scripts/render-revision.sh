#!/bin/sh
# render-revision: the committed site/ renders as it did when the render
# revision (GS_SITE_RENDER_REVISION, gen/publish/site/site.h) was last bumped. That
# revision is in every sheet's key, so that a rebuild by a newer gpusheet
# never reuses what an older one rendered; a change to the rendered bytes
# that does not bump it would leave old pages in rebuilt sites.
# tests/render-revision.txt holds "REVISION DIGEST": the revision and the
# SHA-256 of site/'s files (each "SHA-256  ./PATH" line of sha256sum, in
# byte order of the paths, but the keys file, which holds the revision).
# site-reproducible.sh checks that site/ is what this gpusheet renders; this
# script checks that the revision moved with it. It sees only what the
# examples render: bump the revision for any change to rendered bytes.
#
#   sh render-revision.sh GPUSHEET_BIN SOURCE_DIR SCRATCH_DIR
set -u
bin=$1 src=$2 scratch=$3
. "$src/tests/lib/common.sh"

have sha256sum || skip "no sha256sum"
rev=$(sed -n 's/^#define GS_SITE_RENDER_REVISION \([0-9][0-9]*\)$/\1/p' "$src/gen/publish/site/site.h")
[ -n "$rev" ] || die "no #define GS_SITE_RENDER_REVISION N in gen/publish/site/site.h"
read -r rec_rev rec_digest <"$src/tests/render-revision.txt" || die "tests/render-revision.txt is empty"
digest=$(cd "$src/site" && find . -type f ! -name .gpusheet-keys.json | LC_ALL=C sort |
	while IFS= read -r f; do sha256sum "$f"; done | sha256sum | cut -d ' ' -f 1)
if [ "$digest" != "$rec_digest" ]; then
	if [ "$rev" = "$rec_rev" ]; then
		die "site/ renders otherwise than at render revision $rev: bump GS_SITE_RENDER_REVISION in gen/publish/site/site.h to $((rev + 1)), rebuild site/ (tools/build-site.sh) and write \"$((rev + 1)) <digest this script prints then>\" into tests/render-revision.txt"
	fi
	die "site/'s digest is $digest, tests/render-revision.txt records $rec_digest for revision $rec_rev (gen/publish/site/site.h: $rev): write \"$rev $digest\" there"
fi
[ "$rev" = "$rec_rev" ] ||
	die "gen/publish/site/site.h has render revision $rev, tests/render-revision.txt $rec_rev for the same site/: write \"$rev $digest\" there"
finish "ok: render revision $rev, site/ digest $digest"
