#!/bin/sh
# include-flow: the includes of gen/ point down the stages of
# docs/architecture.md ("The flow"): a module (X.c with its X.h) includes
# only headers of its own stage or of the stages before it (base, read,
# decide, doc, chart, sheet, publish, publish/site, cli; the png/
# subfolder of chart/ is its stage's), and no two modules include each other,
# directly or through others. A private header without a .c of its name
# (sheet_int.h, site_ctx.h) and the files of its folder that include it
# are one module cut by job.
#
#   sh include-flow.sh GPUSHEET_BIN SOURCE_DIR SCRATCH_DIR
set -u
bin=$1 src=$2 scratch=$3
. "$src/tests/lib/common.sh"
need python3 "apt-get install python3"
python3 - "$src/gen" >"$scratch/report.txt" 2>&1 <<'PY'
import os, re, sys, collections
gen = sys.argv[1]
order = ['base', 'read', 'decide', 'doc', 'chart', 'sheet', 'publish', 'publish/site', 'cli']
files = {}        # file name -> (stage, folder, path)
for d, _, fs in os.walk(gen):
    for f in fs:
        if f.endswith(('.c', '.h')):
            rel = os.path.relpath(d, gen)
            parts = [x for x in rel.split('/') if x not in ('png', '.')]
            stage = '/'.join(parts)
            if stage not in order:
                print('unknown stage %s for %s' % (stage, os.path.join(rel, f)))
                sys.exit(1)
            if f in files:
                print('two files named %s' % f)
                sys.exit(1)
            files[f] = (stage, d, os.path.join(d, f))
base = lambda f: f.rsplit('.', 1)[0]
mods = set(base(f) for f in files)
# the private headers: a .h without its .c
private = {base(f) for f in files if f.endswith('.h') and base(f) + '.c' not in files}
incl = collections.defaultdict(set)
for f, (st, d, p) in files.items():
    for line in open(p, encoding='utf-8', errors='replace'):
        m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
        if m:
            if m.group(1) not in files:
                print('%s includes "%s", which is not in gen/' % (f, m.group(1)))
                sys.exit(1)
            incl[f].add(m.group(1))
# a module's name: a private header's, for the files of its folder that include it
owner = {}
for f, (st, d, p) in files.items():
    owner[f] = base(f)
for f, (st, d, p) in files.items():
    for h in incl[f]:
        if base(h) in private and files[h][1] == d and f.endswith('.c'):
            owner[f] = base(h)
for f in list(files):
    if f.endswith('.h') and base(f) + '.c' in files:
        owner[f] = owner[base(f) + '.c']
edges = collections.defaultdict(set)
bad = 0
for f in files:
    for h in incl[f]:
        a, b = owner[f], owner[h]
        if a == b:
            continue
        edges[a].add(b)
        sa, sb = files[f][0], files[h][0]
        if order.index(sb) > order.index(sa):
            print('against the flow: %s (%s) includes %s (%s)' % (f, sa, h, sb))
            bad += 1
index, low, stack, on, comps, count = {}, {}, [], set(), [], [0]
sys.setrecursionlimit(100000)
def visit(v):
    index[v] = low[v] = count[0]; count[0] += 1
    stack.append(v); on.add(v)
    for w in sorted(edges.get(v, ())):
        if w not in index:
            visit(w); low[v] = min(low[v], low[w])
        elif w in on:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        comp = []
        while True:
            w = stack.pop(); on.discard(w); comp.append(w)
            if w == v:
                break
        if len(comp) > 1:
            comps.append(sorted(comp))
for v in sorted(set(owner.values())):
    if v not in index:
        visit(v)
for c in comps:
    print('a circle of modules: %s' % ' '.join(c))
    bad += 1
print('%d modules, %d includes between them, %d problems' % (
    len(set(owner.values())), sum(len(e) for e in edges.values()), bad))
sys.exit(1 if bad else 0)
PY
rc=$?
cat "$scratch/report.txt"
[ "$rc" -eq 0 ] || err "an include against the flow or a circle (above)"
grep -q " 0 problems$" "$scratch/report.txt" || err "the check did not run to its end"
finish "every include points down the stages, no circle"
