#!/usr/bin/env python3
"""Benchmarks of gpusheet, run by hand (never from ctest). See bench/README.md.

    python3 bench/run.py --gpusheet build-release/gpusheet [--runs 5] [--py-runs 3]
                         [--before OTHER/build-release/gpusheet]
                         [--only startup,sheet,loop,site,jobs,shards,scale,rebuild,unchanged,memory,keys,bytes] [--scratch DIR]
                         [--python /usr/bin/python3] [--shards-workloads 1000] [--scale-sizes 1000,10000]
                         [--bytes-workloads 1000]

Every figure is measured here, on this machine, as min / median / max over
several runs: CPU is user + system time of the child process (wait4), wall is
the elapsed time around it; peak RSS is wait4's ru_maxrss, the largest of the
process and its children (the -j workers), measured through tests/lib/peakrss.c
(built here with cc) when it can be: a process's peak counts the memory of the
one it was forked from until its exec, so measured straight from Python it is
never below this script's own (14-21 MiB). Prints a Markdown report on stdout.
The default --only leaves out shards and scale (minutes; scale at 10,000
workloads writes gigabytes).
"""
import argparse
import atexit
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.dirname(HERE)


_PEAKRSS = []   # [path of the built tests/lib/peakrss.c, or None], once


def _peakrss():
    """tests/lib/peakrss.c built into a temporary folder, or None (no cc)."""
    if not _PEAKRSS:
        d = tempfile.mkdtemp(prefix="gpusheet-peakrss.")
        atexit.register(shutil.rmtree, d, True)
        exe = os.path.join(d, "peakrss")
        cc = shutil.which("cc") or shutil.which("gcc")
        ok = cc and subprocess.call([cc, "-O2", "-o", exe, os.path.join(SRC, "tests", "lib", "peakrss.c")],
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) == 0
        if not ok:
            print("bench: no cc to build tests/lib/peakrss.c: peak RSS figures are at least "
                  "this script's own", file=sys.stderr)
        _PEAKRSS.append(exe if ok else None)
    return _PEAKRSS[0]


def run(cmd, quiet=True):
    """Runs cmd; returns (cpu seconds, wall seconds, max RSS KiB)."""
    helper = _peakrss()
    out = None
    if helper:
        fd, out = tempfile.mkstemp(prefix="gpusheet-peak.")
        os.close(fd)
        cmd = [helper, out] + list(cmd)
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL if quiet else None,
                         stderr=subprocess.PIPE, cwd=SRC)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    err = p.stderr.read().decode(errors="replace")
    p.stderr.close()
    p.returncode = os.waitstatus_to_exitcode(status)
    peak = ru.ru_maxrss
    if out:
        with open(out) as f:
            text = f.read().strip()
        os.unlink(out)
        if p.returncode == 0:
            peak = int(text)
        cmd = cmd[2:]
    if p.returncode != 0:
        sys.exit("bench: %s failed (exit %d):\n%s" % (" ".join(cmd), p.returncode, err))
    return ru.ru_utime + ru.ru_stime, wall, peak


def stats(xs, scale=1000.0, fmt="%.2f"):
    return " / ".join(fmt % (v * scale) for v in (min(xs), statistics.median(xs), max(xs)))


def fresh(path):
    shutil.rmtree(path, ignore_errors=True)
    return path


def load():
    return "%.2f / %.2f / %.2f" % os.getloadavg()


def side_by_side(bins, runs, one_run):
    """Runs one_run(binary) for each binary in turn, runs times (alternated:
    both see the same moments of a shared machine); per binary, the lists of
    CPU and wall seconds."""
    res = {b: ([], []) for b in bins}
    for _ in range(runs):
        for b in bins:
            c, w, _ = one_run(b)
            res[b][0].append(c)
            res[b][1].append(w)
    return res


def columns(gs, before):
    """(label, binary) of each column: the binary alone, or before then after."""
    return [("", gs)] if not before else [("before", before), ("after", gs)]


def bench_startup(gs, runs, out, before=None):
    cols = columns(gs, before)
    out.append("## Start-up: commands that render nothing\n")
    out.append("Load average (1 / 5 / 15 min) before: %s.\n" % load())
    head = ["command"]
    for label, _ in cols:
        head += ["%sCPU ms (min / median / max)" % (label + " " if label else ""),
                 "%swall ms (min / median / max)" % (label + " " if label else "")]
    out.append("| " + " | ".join(head) + " |")
    out.append("|" + " --- |" * len(head))
    cmds = {
        "estimate": ["estimate", "--parameters", "7000000000", "--bits", "16", "--reserve-gib", "6"],
        "kv": ["kv", "--layers", "32", "--kv-heads", "8", "--head-dim", "128", "--tokens", "8192",
               "--bytes-per-value", "2", "--sequences", "4"],
        "check (JSON)": ["check", "examples/seed-7b/workload.json"],
    }
    for name, args in cmds.items():
        res = side_by_side([b for _, b in cols], runs, lambda b: run([b] + args))
        row = ["`%s`" % name]
        for _, b in cols:
            row += [stats(res[b][0]), stats(res[b][1])]
        out.append("| " + " | ".join(row) + " |")
    out.append("\nLoad average after: %s.\n" % load())


def bench_sheet(gs, runs, scratch, out, before=None):
    cols = columns(gs, before)
    out.append("## One sheet of examples/seed-7b, `gpusheet sheet` process (SVG only)\n")
    out.append("Into a fresh folder each run%s. Load average (1 / 5 / 15 min) before: %s.\n" % (
        ", before and after alternated" if before else "", load()))

    def one(b):
        d = fresh(os.path.join(scratch, "sheet"))
        return run([b, "sheet", "examples/seed-7b/workload.json", "--out", d,
                    "--date", "2026-11-29"])

    res = side_by_side([b for _, b in cols], runs, one)
    out.append("| | %s |" % " | ".join(
        "%smin / median / max (ms)" % (label + ": " if label else "") for label, _ in cols))
    out.append("|" + " --- |" * (len(cols) + 1))
    out.append("| CPU | %s |" % " | ".join(stats(res[b][0]) for _, b in cols))
    out.append("| wall | %s |" % " | ".join(stats(res[b][1]) for _, b in cols))
    out.append("\nLoad average after: %s.\n" % load())


GS = []   # [the gpusheet under test], for gen's check


def gen(scratch, name, n, offers, same):
    """The inputs, generated once; every generated file is checked with
    `gpusheet check` (the generator fails on a refused one)."""
    d = os.path.join(scratch, name)
    if not os.path.isdir(os.path.join(d, "workloads")):
        args = [sys.executable, os.path.join(HERE, "gen_workloads.py"), d,
                "--workloads", str(n), "--offers", str(offers), "--check", GS[0]]
        if same:
            args.append("--same")
        subprocess.run(args, check=True, cwd=SRC)
    return d


def expect_sheets(out_dir, n, png=False):
    """Fails the benchmark unless out_dir/sheets holds n sheets (HTML, JSON,
    budget chart, and its PNG with png): a site that refused inputs or
    stopped early must not pass for a fast one."""
    d = os.path.join(out_dir, "sheets")
    names = set(os.listdir(d)) if os.path.isdir(d) else set()
    kinds = [".html", ".json", "-budget.svg"] + (["-budget.png"] if png else [])
    for k in kinds:
        got = sum(1 for x in names if x.endswith(k))
        if got != n:
            sys.exit("bench: %s: %d files *%s, expected %d" % (d, got, k, n))


def site(gs, inputs, out_dir, catalog=True, extra=()):
    cmd = [gs, "site", "--workloads", os.path.join(inputs, "workloads"), "--out", out_dir,
           "--date", "2026-11-29", "--accept-synthetic"]
    if catalog:
        cmd += ["--catalog", os.path.join(inputs, "offers.xml")]
    return run(cmd + list(extra))


def bench_loop(gs, runs, scratch, out):
    """CPU of one seed-7b sheet inside the site loop: a site of 101 copies
    of seed-7b minus a site of 1, divided by 100 (start-up, catalog, index
    and offers pages cancel out)."""
    one = gen(scratch, "same-1", 1, 12, True)
    many = gen(scratch, "same-101", 101, 12, True)
    per = []
    for _ in range(runs):
        c1, _, _ = site(gs, one, fresh(os.path.join(scratch, "s1")), catalog=False)
        c2, _, _ = site(gs, many, fresh(os.path.join(scratch, "s101")), catalog=False)
        per.append((c2 - c1) / 100)
    out.append("## One seed-7b sheet inside the site loop (bundled catalog, 12 offers)\n")
    out.append("(site of 101 copies − site of 1) / 100, CPU ms: %s\n" % stats(per))


def bench_site(gs, py, runs, py_runs, scratch, out, before=None):
    """The 200 × 50 site, SVG only then with --png, gpusheet and the Python
    peer (and with --before, the other build) alternated in one run; every
    run's output is counted."""
    n = 200
    inputs = gen(scratch, "w200", n, 50, False)
    pysheet = os.path.join(HERE, "python", "pysheet.py")
    ratios = []
    for png in (False, True):
        extra = ("--png",) if png else ()
        g_cpu, g_wall, g_rss, p_cpu, p_wall, p_rss = [], [], [], [], [], []
        b_cpu, b_wall, b_rss = [], [], []

        def one(cmd, name, cpu, wall, rss):
            d = fresh(os.path.join(scratch, name))
            c, w, r = cmd(d)
            expect_sheets(d, n, png)
            cpu.append(c / n)
            wall.append(w)
            rss.append(r)

        for i in range(max(runs, py_runs)):
            if i < runs and before:
                one(lambda d: site(before, inputs, d, extra=("-j", "1") + extra), "site-b",
                    b_cpu, b_wall, b_rss)
            if i < runs:
                one(lambda d: site(gs, inputs, d, extra=("-j", "1") + extra), "site-c",
                    g_cpu, g_wall, g_rss)
            if i < py_runs:
                one(lambda d: run([py, pysheet, "--workloads", os.path.join(inputs, "workloads"),
                                   "--catalog", os.path.join(inputs, "offers.xml"), "--out", d]
                                  + list(extra)), "site-py", p_cpu, p_wall, p_rss)
        what = "with --png (SVG and PNG)" if png else "SVG only (the default)"
        out.append("## %d workloads × 50 offers, side by side, %s\n" % (n, what))
        out.append("Load average (1 / 5 / 15 min) after: %s.\n" % load())
        out.append("| program | CPU per sheet, ms (min / median / max) | wall, s (min / median / max) | peak RSS, MiB (median) | runs |")
        out.append("| --- | --- | --- | --- | --- |")
        out.append("| gpusheet site -j 1 | %s | %s | %.1f | %d |" % (
            stats(g_cpu), stats(g_wall, 1.0), statistics.median(g_rss) / 1024, len(g_cpu)))
        if b_cpu:
            out.append("| before: site -j 1 | %s | %s | %.1f | %d |" % (
                stats(b_cpu), stats(b_wall, 1.0), statistics.median(b_rss) / 1024, len(b_cpu)))
        if p_cpu:
            out.append("| Python (jinja2 + matplotlib) | %s | %s | %.1f | %d |" % (
                stats(p_cpu), stats(p_wall, 1.0), statistics.median(p_rss) / 1024, len(p_cpu)))
        out.append("")
        if p_cpu:
            ratios.append((what, statistics.median(p_cpu) / statistics.median(g_cpu),
                           min(p_cpu) / max(g_cpu), max(p_cpu) / min(g_cpu)))
            if b_cpu:
                ratios.append((what + ", before", statistics.median(p_cpu) / statistics.median(b_cpu),
                               min(p_cpu) / max(b_cpu), max(p_cpu) / min(b_cpu)))
    for what, med, lo, hi in ratios:
        out.append("CPU ratio, Python / gpusheet, %s: **%.1f×** (medians; %.1f× to %.1f× "
                   "from the worst to the best pairing)\n" % (what, med, lo, hi))


def bench_jobs(gs, runs, scratch, out):
    """Wall time of a 1,000-workload site (50 offers) with -j 1 and -j 2, and
    of a rebuild over it after one workload changed (one sheet rendered, the
    other 999 linked from the old site) and after none changed."""
    n = 1000
    inputs = gen(scratch, "w1000", n, 50, False)
    walls = {"-j 1": [], "-j 2": [], "rebuild, one changed (-j 2)": [],
             "rebuild, none changed (-j 2)": []}
    cpus = {k: [] for k in walls}
    for _ in range(runs):
        for j in ("1", "2"):
            c, w, _ = site(gs, inputs, fresh(os.path.join(scratch, "jobs-" + j)), extra=("-j", j))
            walls["-j " + j].append(w)
            cpus["-j " + j].append(c)
    inc = fresh(os.path.join(scratch, "jobs-inc"))
    site(gs, inputs, inc, extra=("-j", "2"))
    wdir = os.path.join(inputs, "workloads")
    first = sorted(d for d in os.listdir(wdir) if os.path.isdir(os.path.join(wdir, d)))[0]
    victim = os.path.join(wdir, first, "workload.json")
    with open(victim, "rb") as f:
        original = f.read()
    try:
        for i in range(runs):
            with open(victim, "wb") as f:   # new bytes (trailing blanks): a new key
                f.write(original + b" " * (i + 1))
            c, w, _ = site(gs, inputs, inc, extra=("-j", "2"))
            walls["rebuild, one changed (-j 2)"].append(w)
            cpus["rebuild, one changed (-j 2)"].append(c)
            c, w, _ = site(gs, inputs, inc, extra=("-j", "2"))
            walls["rebuild, none changed (-j 2)"].append(w)
            cpus["rebuild, none changed (-j 2)"].append(c)
    finally:
        with open(victim, "wb") as f:
            f.write(original)
    out.append("## 1,000 workloads × 50 offers: -j and incremental rebuilds (SVG only)\n")
    out.append("| build | wall, s (min / median / max) | CPU, s (min / median / max) | runs |")
    out.append("| --- | --- | --- | --- |")
    for k in walls:
        out.append("| %s | %s | %s | %d |" % (k, stats(walls[k], 1.0), stats(cpus[k], 1.0), len(walls[k])))
    out.append("")
    out.append("Speed-up of -j 2 over -j 1 (medians of wall): **%.2f×**\n" % (
        statistics.median(walls["-j 1"]) / statistics.median(walls["-j 2"])))


def tree_size(path):
    """Bytes and files under path, each inode once (hard links are not copies)."""
    seen, total, files = set(), 0, 0
    for d, _, names in os.walk(path):
        for n in names:
            st = os.lstat(os.path.join(d, n))
            if (st.st_dev, st.st_ino) in seen:
                continue
            seen.add((st.st_dev, st.st_ino))
            total += st.st_size
            files += 1
    return total, files


def same_tree(a, b):
    return subprocess.run(["diff", "-r", "-q", a, b], stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL).returncode == 0


def bench_shards(gs, runs, scratch, out, n=1000):
    """A 1,000-workload site (50 offers) built whole with -j 1, against two
    shards built one after the other with -j 1 (as two CI jobs would, here
    on one machine) and merged; the merged site is compared byte for byte."""
    inputs = gen(scratch, "w%d" % n, n, 50, False)
    rows = {"one build (-j 1)": [], "shard 1/2 (-j 1)": [], "shard 2/2 (-j 1)": [],
            "merge of the 2 shards": []}
    cpus = {k: [] for k in rows}
    whole = os.path.join(scratch, "shards-whole")
    merged = os.path.join(scratch, "shards-merged")
    common = ["--catalog", os.path.join(inputs, "offers.xml"), "--date", "2026-11-29",
              "--accept-synthetic"]
    identical = True
    for _ in range(runs):
        c, w, _ = site(gs, inputs, fresh(whole), extra=("-j", "1"))
        rows["one build (-j 1)"].append(w)
        cpus["one build (-j 1)"].append(c)
        for k in (1, 2):
            c, w, _ = site(gs, inputs, fresh(os.path.join(scratch, "shard-%d" % k)),
                           extra=("-j", "1", "--shard", "%d/2" % k))
            rows["shard %d/2 (-j 1)" % k].append(w)
            cpus["shard %d/2 (-j 1)" % k].append(c)
        c, w, _ = run([gs, "merge", fresh(merged), os.path.join(scratch, "shard-1"),
                       os.path.join(scratch, "shard-2")] + common)
        rows["merge of the 2 shards"].append(w)
        cpus["merge of the 2 shards"].append(c)
        identical = identical and same_tree(whole, merged)
    out.append("## %s workloads × 50 offers: two shards and a merge (SVG only)\n" % format(n, ","))
    out.append("| build | wall, s (min / median / max) | CPU, s (min / median / max) | runs |")
    out.append("| --- | --- | --- | --- |")
    for k in rows:
        out.append("| %s | %s | %s | %d |" % (k, stats(rows[k], 1.0), stats(cpus[k], 1.0), len(rows[k])))
    out.append("")
    out.append("Merged site byte-identical to the one build (diff -r): **%s**\n" % (
        "yes" if identical else "NO"))


def bench_scale(gs, runs, scratch, out, sizes):
    """Sites of each size × 50 offers with -j 2: wall, CPU and peak RSS (of
    the process and its workers), output bytes and files without and with
    --png, and the rebuild after one workload changed."""
    out.append("## Scale: workloads × 50 offers, -j 2\n")
    out.append("| workloads | wall, s | CPU, s | peak RSS, MiB | output, bytes (files) | with --png, bytes (files) | rebuild, one changed: wall, s | runs |")
    out.append("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for n in sizes:
        inputs = gen(scratch, "w%d" % n, n, 50, False)
        svg = os.path.join(scratch, "scale-%d" % n)
        png = os.path.join(scratch, "scale-%d-png" % n)
        walls, cpus, rss, rebuild = [], [], [], []
        for _ in range(runs):
            c, w, r = site(gs, inputs, fresh(svg), extra=("-j", "2"))
            walls.append(w)
            cpus.append(c)
            rss.append(r)
        size, files = tree_size(svg)
        site(gs, inputs, fresh(png), extra=("-j", "2", "--png"))
        psize, pfiles = tree_size(png)
        shutil.rmtree(png, ignore_errors=True)
        wdir = os.path.join(inputs, "workloads")
        first = sorted(d for d in os.listdir(wdir) if os.path.isdir(os.path.join(wdir, d)))[0]
        victim = os.path.join(wdir, first, "workload.json")
        with open(victim, "rb") as f:
            original = f.read()
        try:
            for i in range(runs):
                with open(victim, "wb") as f:   # new bytes (trailing blanks): a new key
                    f.write(original + b" " * (i + 1))
                _, w, _ = site(gs, inputs, svg, extra=("-j", "2"))
                rebuild.append(w)
        finally:
            with open(victim, "wb") as f:
                f.write(original)
        shutil.rmtree(svg, ignore_errors=True)
        out.append("| %d | %s | %s | %s | %d (%d) | %d (%d) | %s | %d |" % (
            n, stats(walls, 1.0), stats(cpus, 1.0), stats(rss, 1 / 1024.0, "%.1f"),
            size, files, psize, pfiles, stats(rebuild, 1.0), runs))
    out.append("")
    out.append("Figures are min / median / max; bytes count each file once (hard links too).\n")


def bench_rebuild(gs, runs, scratch, out, sizes):
    """Incremental rebuilds at each size × 50 offers: a site built once with
    -j 2, then, with -j 1 and -j 2, rebuilds after one workload changed (new
    bytes only: trailing blanks, same results; and a new title: its sheet,
    the index pages of its rows and the per-offer pages of its page of 100
    workloads change) and with none changed. Wall and CPU (the process and
    its workers), and the load average before and after."""
    out.append("## Incremental rebuilds: workloads × 50 offers\n")
    out.append("| workloads | rebuild | wall, s (min / median / max) | CPU, s (min / median / max) | runs |")
    out.append("| --- | --- | --- | --- | --- |")
    loads = ["%.1f" % os.getloadavg()[0]]
    for n in sizes:
        inputs = gen(scratch, "w%d" % n, n, 50, False)
        d = os.path.join(scratch, "rebuild-%d" % n)
        site(gs, inputs, fresh(d), extra=("-j", "2"))
        wdir = os.path.join(inputs, "workloads")
        first = sorted(x for x in os.listdir(wdir) if os.path.isdir(os.path.join(wdir, x)))[0]
        victim = os.path.join(wdir, first, "workload.json")
        with open(victim, "rb") as f:
            original = f.read()
        rows = {}
        try:
            for i in range(runs):
                for j in ("1", "2"):
                    with open(victim, "wb") as f:   # new bytes (trailing blanks): a new key
                        f.write(original + b" " * (2 * i + int(j)))
                    rows.setdefault("-j %s, one changed (blanks)" % j, []).append(
                        site(gs, inputs, d, extra=("-j", j)))
                    w = json.loads(original)
                    w["title"] = "%s (changed %d-%s)" % (w["title"], i, j)
                    with open(victim, "w", encoding="utf-8") as f:
                        json.dump(w, f, indent=2, ensure_ascii=False)
                    rows.setdefault("-j %s, one changed (title)" % j, []).append(
                        site(gs, inputs, d, extra=("-j", j)))
                    rows.setdefault("-j %s, none changed" % j, []).append(
                        site(gs, inputs, d, extra=("-j", j)))
        finally:
            with open(victim, "wb") as f:
                f.write(original)
        shutil.rmtree(d, ignore_errors=True)
        for k in sorted(rows):
            out.append("| %d | %s | %s | %s | %d |" % (
                n, k, stats([r[1] for r in rows[k]], 1.0), stats([r[0] for r in rows[k]], 1.0),
                len(rows[k])))
        loads.append("%.1f" % os.getloadavg()[0])
    out.append("")
    out.append("Load average (1 min) at the start and after each size: %s.\n" % ", ".join(loads))


def bench_unchanged(gs, runs, scratch, out, sizes, before=None):
    """Issue 28, item 4: an unchanged rebuild against a full build, at each
    size × 50 offers, -j 2: each run a full build into a fresh folder, then
    a rebuild of it with nothing changed; with --before, the other build's
    full build and unchanged rebuild alternated with them (same moments of
    a shared machine). The ratio is of the medians."""
    progs = [("gpusheet", gs)] + ([("before", before)] if before else [])
    out.append("## An unchanged rebuild against a full build: workloads × 50 offers, -j 2\n")
    out.append("Scratch on %s.\n" % fs_type(scratch))
    out.append("| workloads | program | full build, wall s | full build, CPU s | unchanged rebuild, wall s "
               "| unchanged rebuild, CPU s | unchanged / full, wall (CPU) | runs |")
    out.append("| --- | --- | --- | --- | --- | --- | --- | --- |")
    loads = ["%.1f" % os.getloadavg()[0]]
    for n in sizes:
        inputs = gen(scratch, "w%d" % n, n, 50, False)
        rows = {name: ([], []) for name, _ in progs}
        for i in range(runs):
            for name, prog in progs:
                d = os.path.join(scratch, "unchanged-%s-%d" % (name, n))
                shutil.rmtree(d, ignore_errors=True)
                stat_cache = os.path.join(scratch, ".unchanged-%s-%d.gpusheet-stat" % (name, n))
                if os.path.exists(stat_cache):
                    os.unlink(stat_cache)
                rows[name][0].append(site(prog, inputs, d, extra=("-j", "2")))
                time.sleep(0.05)   # (past the clock's grain: not racy)
                rows[name][1].append(site(prog, inputs, d, extra=("-j", "2")))
        for name, _ in progs:
            full, same = rows[name]
            fw, fc = statistics.median(r[1] for r in full), statistics.median(r[0] for r in full)
            uw, uc = statistics.median(r[1] for r in same), statistics.median(r[0] for r in same)
            out.append("| %d | %s | %s | %s | %s | %s | %.1f %% (%.1f %%) | %d |" % (
                n, name, stats([r[1] for r in full], 1.0), stats([r[0] for r in full], 1.0),
                stats([r[1] for r in same], 1.0), stats([r[0] for r in same], 1.0),
                100.0 * uw / fw, 100.0 * uc / fc, len(full)))
            shutil.rmtree(os.path.join(scratch, "unchanged-%s-%d" % (name, n)), ignore_errors=True)
        loads.append("%.1f" % os.getloadavg()[0])
    out.append("")
    out.append("Load average (1 min) at the start and after each size: %s.\n" % ", ".join(loads))


def bench_keys(gs, runs, scratch, out, sizes, before=None):
    """What reads the keys file (issue 37): at each size × 50 offers, -j 2,
    each run a full build into a fresh folder, then rebuilds of it after one
    workload changed (new bytes: 1 sheet rendered, the others reused through
    the keys file), with none changed, and with none changed but --rehash
    (every input read again, every sheet reused through the keys file);
    wall, CPU and peak RSS (the process and its workers) of each, and the
    keys file's bytes. With --before, the other build's runs alternated
    with them (same moments of a shared machine)."""
    progs = [("gpusheet", gs)] + ([("before", before)] if before else [])
    steps = ["full build", "one changed", "none changed", "none changed, --rehash"]
    out.append("## The keys file: builds and rebuilds, workloads × 50 offers, -j 2\n")
    out.append("Scratch on %s.\n" % fs_type(scratch))
    out.append("| workloads | program | step | wall, s | CPU, s | peak RSS, MiB | runs |")
    out.append("| --- | --- | --- | --- | --- | --- | --- |")
    loads = ["%.1f" % os.getloadavg()[0]]
    for n in sizes:
        inputs = gen(scratch, "w%d" % n, n, 50, False)
        wdir = os.path.join(inputs, "workloads")
        first = sorted(x for x in os.listdir(wdir) if os.path.isdir(os.path.join(wdir, x)))[0]
        victim = os.path.join(wdir, first, "workload.json")
        with open(victim, "rb") as f:
            original = f.read()
        rows = {(name, st): [] for name, _ in progs for st in steps}
        kbytes = {}
        try:
            for i in range(runs):
                for name, prog in progs:
                    d = os.path.join(scratch, "keys-%s-%d" % (name, n))
                    shutil.rmtree(d, ignore_errors=True)
                    stat_cache = os.path.join(scratch, ".keys-%s-%d.gpusheet-stat" % (name, n))
                    if os.path.exists(stat_cache):
                        os.unlink(stat_cache)
                    with open(victim, "wb") as f:
                        f.write(original)
                    rows[(name, steps[0])].append(site(prog, inputs, d, extra=("-j", "2")))
                    expect_sheets(d, n)
                    kbytes[name] = os.path.getsize(os.path.join(d, ".gpusheet-keys.json"))
                    time.sleep(0.05)   # (past the clock's grain: not racy)
                    with open(victim, "wb") as f:   # new bytes (trailing blanks): a new key
                        f.write(original + b" " * (i + 1))
                    rows[(name, steps[1])].append(site(prog, inputs, d, extra=("-j", "2")))
                    time.sleep(0.05)
                    rows[(name, steps[2])].append(site(prog, inputs, d, extra=("-j", "2")))
                    rows[(name, steps[3])].append(site(prog, inputs, d, extra=("-j", "2", "--rehash")))
                    shutil.rmtree(d, ignore_errors=True)
        finally:
            with open(victim, "wb") as f:
                f.write(original)
        for name, _ in progs:
            for st in steps:
                r = rows[(name, st)]
                out.append("| %d | %s | %s | %s | %s | %s | %d |" % (
                    n, name, st, stats([x[1] for x in r], 1.0), stats([x[0] for x in r], 1.0),
                    stats([x[2] for x in r], 1 / 1024.0, "%.1f"), len(r)))
        out.append("")
        out.append("Keys file at %d workloads: %s.\n" % (n, ", ".join(
            "%s %d bytes" % (name, kbytes[name]) for name, _ in progs)))
        loads.append("%.1f" % os.getloadavg()[0])
    out.append("Load average (1 min) at the start and after each size: %s.\n" % ", ".join(loads))


def fs_type(path):
    """The file system type of path (tmpfs, ext4...), as stat -f says."""
    try:
        return subprocess.run(["stat", "-f", "-c", "%T", path], capture_output=True,
                              text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "an unknown file system"


def default_scratch():
    """A fresh folder on tmpfs where there is one (/dev/shm): on this
    machine's ext4 (no journal), creating a file scans the inodes deleted
    in the last seconds to minutes (the kernel's recently_deleted), so a
    run right after the bench removed the previous output spends up to
    half of gpusheet's CPU in the kernel, an artefact of the bench itself;
    --scratch DIR to measure on another file system."""
    shm = "/dev/shm"
    if os.path.isdir(shm) and os.access(shm, os.W_OK):
        return tempfile.mkdtemp(prefix="gpusheet-bench.", dir=shm)
    return tempfile.mkdtemp(prefix="gpusheet-bench.")


def bench_memory(gs, scratch, out, sizes):
    """Peak RSS (wait4's ru_maxrss: the largest of the process and its
    workers) of every way a site is built, at each size × 50 offers, side by
    side: -j 1 and -j 2 into a fresh folder, a rebuild after one workload
    changed (-j 1 and -j 2), two shards (-j 1 and -j 2) and their merge.
    One run each: the peak depends on the inputs, not on the load."""
    steps = ["site -j 1, fresh", "site -j 2, fresh", "rebuild -j 1, one changed",
             "rebuild -j 2, one changed", "shard 1/2 -j 1", "shard 2/2 -j 2", "merge of the 2 shards"]
    rss = {k: [] for k in steps}
    walls = {k: [] for k in steps}
    for n in sizes:
        inputs = gen(scratch, "w%d" % n, n, 50, False)
        d = os.path.join(scratch, "mem-%d" % n)
        common = ["--catalog", os.path.join(inputs, "offers.xml"), "--date", "2026-11-29",
                  "--accept-synthetic"]

        def note(step, r):
            walls[step].append(r[1])
            rss[step].append(r[2])

        note(steps[0], site(gs, inputs, fresh(d), extra=("-j", "1")))
        note(steps[1], site(gs, inputs, fresh(d), extra=("-j", "2")))
        wdir = os.path.join(inputs, "workloads")
        first = sorted(x for x in os.listdir(wdir) if os.path.isdir(os.path.join(wdir, x)))[0]
        victim = os.path.join(wdir, first, "workload.json")
        with open(victim, "rb") as f:
            original = f.read()
        try:
            for i, step in enumerate((steps[2], steps[3])):
                with open(victim, "wb") as f:   # new bytes (trailing blanks): a new key
                    f.write(original + b" " * (i + 1))
                note(step, site(gs, inputs, d, extra=("-j", "1" if i == 0 else "2")))
        finally:
            with open(victim, "wb") as f:
                f.write(original)
        shutil.rmtree(d, ignore_errors=True)
        for k, j in ((1, "1"), (2, "2")):
            note(steps[3 + k], site(gs, inputs, fresh(os.path.join(scratch, "mem-shard-%d" % k)),
                                    extra=("-j", j, "--shard", "%d/2" % k)))
        note(steps[6], run([gs, "merge", fresh(d), os.path.join(scratch, "mem-shard-1"),
                            os.path.join(scratch, "mem-shard-2")] + common))
        for x in (d, os.path.join(scratch, "mem-shard-1"), os.path.join(scratch, "mem-shard-2")):
            shutil.rmtree(x, ignore_errors=True)
    out.append("## Peak RSS: workloads × 50 offers\n")
    out.append("| build | " + " | ".join("%s workloads: peak RSS, MiB (wall, s)" % format(n, ",")
                                        for n in sizes) + " |")
    out.append("| --- |" + " --- |" * len(sizes))
    for k in steps:
        out.append("| %s | %s |" % (k, " | ".join("%.1f (%.1f)" % (r / 1024.0, w)
                                                  for r, w in zip(rss[k], walls[k]))))
    out.append("")


# What each kind of file of a site weighs, and what each way of reaching the
# 1 GB goal that the generator does not take would save (bench/README.md,
# "Output bytes: where they go and the options left").
BYTES_KINDS = (
    ("sheet HTML", lambda r: r.startswith("sheets/") and r.endswith(".html")),
    ("decision JSON", lambda r: r.startswith("sheets/") and r.endswith(".json")),
    ("sheet charts (SVG)", lambda r: r.startswith("sheets/") and r.endswith(".svg")),
    ("per-offer pages", lambda r: r.startswith("offers/")),
    ("index pages", lambda r: r.startswith("index")),
    ("keys file", lambda r: r == ".gpusheet-keys.json"),
    ("the rest (offers page, its charts, style, script, manifest)", lambda r: True),
)


def _html_optional_end_tags(b):
    """The bytes without the end tags HTML lets a writer omit in what the
    site writes (</td>, </th>, </tr>, </li>), each table cell on its row's
    line: the same document tree for an HTML parser."""
    import re
    s = re.sub(rb"</td>|</th>|</tr>|</li>", b"", b)
    return re.sub(rb"\n(?=<t[dh][ >])", b"", s)


def _json_without_defaults(b):
    """The decision JSON with every null and false member left out, written
    as compactly as the generator writes it (a schema version 4)."""
    def strip(o):
        if isinstance(o, dict):
            return {k: strip(v) for k, v in o.items() if v is not None and v is not False}
        if isinstance(o, list):
            return [strip(x) for x in o]
        return o
    d = json.loads(b)
    return (len(json.dumps(d, separators=(",", ":"), ensure_ascii=False).encode()),
            len(json.dumps(strip(d), separators=(",", ":"), ensure_ascii=False).encode()))


def bench_bytes(gs, scratch, out, n):
    """One site of n workloads × 50 offers (no PNG, no Markdown): its bytes
    per kind of file, per workload; then what each option not taken would
    save, measured on these bytes (each option's transformation applied to
    the files it touches)."""
    inputs = gen(scratch, "w%d" % n, n, 50, False)
    d = fresh(os.path.join(scratch, "bytes-%d" % n))
    site(gs, inputs, d, extra=("-j", "2"))
    kinds = {k: 0 for k, _ in BYTES_KINDS}
    end_tags = {"sheet HTML": 0, "per-offer pages": 0, "index pages": 0}
    json_defaults = 0
    total = 0
    for root, _, names in os.walk(d):
        for name in names:
            path = os.path.join(root, name)
            rel = os.path.relpath(path, d)
            with open(path, "rb") as f:
                b = f.read()
            total += len(b)
            kind = next(k for k, match in BYTES_KINDS if match(rel))
            kinds[kind] += len(b)
            if kind in end_tags:
                end_tags[kind] += len(b) - len(_html_optional_end_tags(b))
            elif kind == "decision JSON":
                before, after = _json_without_defaults(b)
                json_defaults += before - after
    shutil.rmtree(d, ignore_errors=True)
    per = lambda x: "%.1f" % (x / n / 1000.0)
    at10k = lambda x: "%.3f" % (x / n * 10000 / 1e9)
    out.append("## Output bytes: %s workloads × 50 offers, no PNG, no Markdown\n" % format(n, ","))
    out.append("| file | KB a workload (1 KB = 1,000 bytes) |")
    out.append("| --- | --- |")
    for k, _ in BYTES_KINDS:
        out.append("| %s | %s |" % (k, per(kinds[k])))
    out.append("| **all** | **%s** (%s GB at 10,000 workloads) |" % (per(total), at10k(total)))
    out.append("")
    eh = sum(end_tags.values())
    options = (
        ("HTML: the optional end tags left out (%s)" % ", ".join(
            "%s %s" % (k, per(v)) for k, v in end_tags.items()), eh),
        ("decision JSON: null and false members left out (schema version 4)", json_defaults),
        ("per-offer pages only when asked", kinds["per-offer pages"]),
    )
    out.append("Options not taken, each measured alone on these bytes:\n")
    out.append("| option | saves, KB a workload | site at 10,000 workloads, GB |")
    out.append("| --- | --- | --- |")
    for label, saved in options:
        out.append("| %s | %s | %s |" % (label, per(saved), at10k(total - saved)))
    out.append("| the first two together | %s | %s |" % (
        per(eh + json_defaults), at10k(total - eh - json_defaults)))
    out.append("")


def main():
    ap = argparse.ArgumentParser(description="gpusheet benchmarks (by hand)")
    ap.add_argument("--gpusheet", required=True)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--py-runs", type=int, default=3, help="0: gpusheet only")
    ap.add_argument("--only", default="startup,sheet,loop,site,jobs")
    ap.add_argument("--scratch")
    ap.add_argument("--shards-workloads", type=int, default=1000,
                    help="workloads of --only shards")
    ap.add_argument("--bytes-workloads", type=int, default=1000,
                    help="workloads of --only bytes (bytes per workload do not depend on it)")
    ap.add_argument("--scale-sizes", default="1000,10000",
                    help="workload counts of --only scale, rebuild and memory, comma-separated")
    ap.add_argument("--unchanged-sizes", default="600,10000",
                    help="workload counts of --only unchanged, comma-separated")
    ap.add_argument("--python", default="/usr/bin/python3",
                    help="the Python with Debian's python3-jinja2, python3-matplotlib and python3-markdown")
    ap.add_argument("--before",
                    help="another gpusheet (an older build, its parts and data beside it): "
                    "startup and sheet measure it and --gpusheet alternately, side by side")
    a = ap.parse_args()
    gs = os.path.abspath(a.gpusheet)
    GS.append(gs)
    before = os.path.abspath(a.before) if a.before else None
    scratch = a.scratch or default_scratch()
    os.makedirs(scratch, exist_ok=True)
    only = set(a.only.split(","))
    out = ["# gpusheet bench: %s, %d CPUs (%s), scratch on %s\n" % (
        os.uname().machine, os.cpu_count(), " ".join(os.uname()[2:3]), fs_type(scratch))]
    if "startup" in only:
        bench_startup(gs, max(a.runs, 20), out, before)
    if "sheet" in only:
        bench_sheet(gs, max(a.runs, 20), scratch, out, before)
    if "loop" in only:
        bench_loop(gs, a.runs, scratch, out)
    if "site" in only:
        bench_site(gs, a.python, a.runs, a.py_runs, scratch, out, before)
    if "jobs" in only:
        bench_jobs(gs, a.runs, scratch, out)
    if "shards" in only:
        bench_shards(gs, a.runs, scratch, out, a.shards_workloads)
    if "rebuild" in only:
        bench_rebuild(gs, a.runs, scratch, out, [int(x) for x in a.scale_sizes.split(",")])
    if "unchanged" in only:
        bench_unchanged(gs, a.runs, scratch, out, [int(x) for x in a.unchanged_sizes.split(",")],
                        before)
    if "keys" in only:
        bench_keys(gs, a.runs, scratch, out, [int(x) for x in a.scale_sizes.split(",")], before)
    if "scale" in only:
        bench_scale(gs, a.runs, scratch, out, [int(x) for x in a.scale_sizes.split(",")])
    if "memory" in only:
        bench_memory(gs, scratch, out, [int(x) for x in a.scale_sizes.split(",")])
    if "bytes" in only:
        bench_bytes(gs, scratch, out, a.bytes_workloads)
    print("\n".join(out))
    if not a.scratch:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
