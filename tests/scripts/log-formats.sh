#!/bin/sh
# log-formats: the formats of `evidence import --from` are one table
# (gen/read/logformat.c); its usage text is made from that table, and
# every list written elsewhere is checked against it here: the top-level
# usage, the measurement schema's import.from enum, docs/formats.md §3.2's
# synopsis and docs/evidence-import.md (each format named as `--from ID`).
#
#   sh log-formats.sh GPUSHEET_BIN SOURCE_DIR SCRATCH_DIR
set -u
bin=$1 src=$2 scratch=$3
. "$src/tests/lib/common.sh"
need python3 "apt-get install python3"

"$bin" evidence import --help >"$scratch/help.txt" 2>&1 || die "evidence import --help failed"
table=$(sed -n '1s/^usage: gpusheet evidence import --from \([^ ]*\)$/\1/p' "$scratch/help.txt")
[ -n "$table" ] || die "no --from list in: $(head -n 1 "$scratch/help.txt")"
"$bin" --help >"$scratch/top.txt" 2>&1 || die "gpusheet --help failed"

python3 - "$table" "$src" "$scratch/top.txt" <<'PY' || err "a list of log formats differs from the table"
import json, re, sys
table, src, top = sys.argv[1].split('|'), sys.argv[2], sys.argv[3]
bad = 0
def same(where, got):
    global bad
    if sorted(got) != sorted(table):
        print('%s lists %s; the table has %s' % (where, '|'.join(got), '|'.join(table)))
        bad = 1
m = re.search(r'evidence import --from (\S+)', open(top).read())
same('gpusheet --help', m.group(1).split('|') if m else [])
s = json.load(open(src + '/schemas/measurement.schema.json'))
def find(o):
    if isinstance(o, dict):
        if 'import' in o.get('properties', {}):
            return o['properties']['import']['properties']['from']['enum']
        for v in o.values():
            r = find(v)
            if r: return r
    if isinstance(o, list):
        for v in o:
            r = find(v)
            if r: return r
    return None
same('schemas/measurement.schema.json import.from', find(s) or [])
f = open(src + '/docs/formats.md').read()
m = re.search(r'gpusheet evidence import --from (\S+) LOG', f)
same('docs/formats.md', m.group(1).split('|') if m else [])
e = open(src + '/docs/evidence-import.md').read()
same('docs/evidence-import.md', [k for k in table if '--from ' + k in e] +
     [k for k in sorted(set(re.findall(r'--from ([a-z.\-]+)', e))) if k not in table])
sys.exit(bad)
PY
finish "the lists of log formats agree with the table ($table)"
