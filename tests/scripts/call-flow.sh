#!/bin/sh
# call-flow: the calls of gen/ point down the stages as its includes do
# (include-flow.sh), and no two files call each other, directly or through
# others. include-flow cannot see a circle made by calls: a file may call
# a function that its includes never name a second time (a private header
# that declares the other file's function, a table of function pointers).
#
# Each file of gen/ is a node here (stricter than include-flow, where the
# files that share a private header are one module). A use is a reference
# to a function that gen/ defines (gs_*), on an indented line (inside a
# body or an initialiser: a declaration or definition starts at column 0),
# from the file that uses it to the file that defines it.
#
# No circle is known (issue 37's two, doc with its writers and seven files
# of publish/site, are gone): S_KNOWN below is empty, and a circle fails.
# Were one ever allowed again, it would be listed there, and a known
# circle that is gone must leave the list, so the list only shrinks.
#
#   sh call-flow.sh GPUSHEET_BIN SOURCE_DIR SCRATCH_DIR
set -u
bin=$1 src=$2 scratch=$3
. "$src/tests/lib/common.sh"
need python3 "apt-get install python3"
python3 - "$src/gen" >"$scratch/report.txt" 2>&1 <<'PY'
import os, re, sys, collections
S_KNOWN = []
gen = sys.argv[1]
order = ['base', 'read', 'decide', 'doc', 'chart', 'sheet', 'publish', 'publish/site', 'cli']
files = {}
for d, _, fs in os.walk(gen):
    for f in fs:
        if f.endswith(('.c', '.h')):
            rel = os.path.relpath(d, gen)
            parts = [x for x in rel.split('/') if x not in ('png', '.')]
            files[f] = ('/'.join(parts), d, os.path.join(d, f))
base = lambda f: f.rsplit('.', 1)[0]
def strip(t):
    t = re.sub(r'/\*.*?\*/', ' ', t, flags=re.S)
    t = re.sub(r'//[^\n]*', ' ', t)
    t = re.sub(r'"(\\.|[^"\\\n])*"', '""', t)
    return t
text = {f: strip(open(p, encoding='utf-8', errors='replace').read()) for f, (s, d, p) in files.items()}
# definitions: at column 0, a function name followed by ( and, before the next ;, a {
defs = {}
defre = re.compile(r'^(?!static\b)[A-Za-z_][\w \t\*]*?\b(gs_\w+)\s*\(([^;{]*)\)\s*(?:__attribute__\s*\(\(.*?\)\)\s*)?\{', re.M)
inl = re.compile(r'^static\s+inline\s+[\w \t\*]*?\b(gs_\w+)\s*\(', re.M)
for f, t in text.items():
    for m in defre.finditer(t):
        defs.setdefault(m.group(1), f)
    if f.endswith('.h'):
        for m in inl.finditer(t):
            defs.setdefault(m.group(1), f)
print("%d functions defined in gen/" % len(defs))
mod = lambda f: base(f)
edges = collections.defaultdict(set)
why = {}
for f, t in text.items():
    for m in re.finditer(r'\b(gs_\w+)\b', t):
        n = m.group(1)
        ls = t.rfind('\n', 0, m.start()) + 1
        if t[ls:ls + 1] not in (' ', '\t'):
            continue   # a declaration or a definition at column 0, not a use
        if n in defs:
            a, b = mod(f), mod(defs[n])
            if a != b:
                edges[a].add(b); why.setdefault((a, b), (f, n))
bad = 0
for (a, b), (f, n) in sorted(why.items()):
    sa, sb = files[f][0], files[defs[n]][0]
    if order.index(sb) > order.index(sa):
        print('against the flow: %s (%s) uses %s of %s (%s)' % (f, sa, n, defs[n], sb)); bad += 1
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
            if w == v: break
        if len(comp) > 1: comps.append(sorted(comp))
for v in sorted(set(mod(f) for f in files)):
    if v not in index: visit(v)
known = [sorted(k) for k in S_KNOWN]
for c in comps:
    if c in known:
        print('a known circle of calls: %s' % ' '.join(c))
        continue
    print('a circle of calls: %s' % ' '.join(c)); bad += 1
    for a in c:
        for b in sorted(edges[a]):
            if b in c: print('   %s -> %s (%s uses %s)' % (a, b, *why[(a, b)]))
for k in known:
    if k not in comps:
        print('the known circle %s is gone: take it out of S_KNOWN' % ' '.join(k)); bad += 1
print('%d modules, %d uses between them, %d problems' % (
    len(set(mod(f) for f in files)), sum(len(e) for e in edges.values()), bad))
sys.exit(1 if bad else 0)
PY
rc=$?
cat "$scratch/report.txt"
[ "$rc" -eq 0 ] || err "a call against the flow or a new circle of calls (above)"
grep -q " 0 problems$" "$scratch/report.txt" || err "the check did not run to its end"
finish "every call points down the stages; no circle of calls but the known ones"
