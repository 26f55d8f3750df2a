#!/usr/bin/env python3
"""pysheet: the benchmark's Python peer of `gpusheet site`.

Reads the same inputs (workload JSON files, the XML offer catalog, the
measurement JSON files a workload cites) and writes the same files: for each
workload sheets/ID.md, ID.html, ID.json and its charts as SVG (ID-budget.svg,
ID-phases-N.svg; with --png also .png), then index.html and offers.html.
Templates with jinja2, charts with matplotlib (Agg), the way one would write
it in Python. It is a peer for timing, not a second implementation of every
rule: sizing (weights, KV cache, envelope), the memory verdict against each
offer's capacity per card, costs, and the pages around them.

    python3 bench/python/pysheet.py --workloads DIR --catalog FILE --out DIR [--png]
"""
import argparse
import json
import os
import sys
import xml.etree.ElementTree as ET
from decimal import Decimal

import jinja2
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

plt.rcParams.update({
    "svg.fonttype": "none",       # real <text>, like gpusheet's SVG
    "svg.hashsalt": "gpusheet",   # deterministic ids
    "font.family": "DejaVu Sans",
    "font.size": 9,
})

NS = {"c": "https://gpusheet.example/ns/catalog/1"}
GIB = 1 << 30
UNITS = {"GiB": GIB, "GB": 10**9, "MiB": 1 << 20, "MB": 10**6, "B": 1}
HERE = os.path.dirname(os.path.abspath(__file__))


def gib(b):
    return "%.2f GiB" % (b / GIB)


# ---------------------------------------------------------------- inputs

def read_catalog(path):
    root = ET.parse(path).getroot()
    offers = []
    for o in root.findall("c:offer", NS):
        mem = o.find("c:memory", NS)
        decl = o.find("c:declared-bytes", NS)
        plans = [{
            "hours": int(p.get("hours")),
            "price": Decimal(p.get("price")),
            "currency": p.get("currency"),
        } for p in o.findall("c:plan", NS)]
        offers.append({
            "id": o.get("id"),
            "provider": o.get("provider"),
            "model": o.find("c:gpu", NS).get("model"),
            "cards": int(o.find("c:lot", NS).get("cards")),
            "nominal_gb": mem.get("nominal-gb"),
            "capacity": int(decl.get("value")) if decl is not None
            else int(Decimal(mem.get("nominal-gb")) * 10**9),
            "capacity_prov": "observed" if decl is not None else "assumed",
            "plans": plans,
        })
    return root.get("title"), offers


def size_bytes(s):
    return int(Decimal(s["amount"]) * UNITS[s["unit"]])


def read_workload(path):
    with open(path, encoding="utf-8") as f:
        w = json.load(f)
    if w.get("schema") != "gpusheet-workload":
        raise ValueError("%s: $.schema: expected \"gpusheet-workload\"" % path)
    base = os.path.dirname(path)
    w["measurements"] = []
    for ev in w.get("evidence", []):
        with open(os.path.join(base, ev["file"]), encoding="utf-8") as f:
            w["measurements"].append((ev["file"], json.load(f)))
    return w


# ---------------------------------------------------------------- sizing

def sizing(w):
    m, d = w["model"], w["dimensions"]
    weights = m["parameters"] * w["weights"]["storage_bits"] // 8
    tokens = d.get("input_tokens", 0) + d.get("output_tokens", 0)
    seqs = d.get("sequences", d.get("batch", 1))
    kv = None
    if "cache" in w and all(k in m for k in ("layers", "kv_heads", "head_dim")):
        kv = (2 * m["layers"] * m["kv_heads"] * m["head_dim"] * tokens
              * w["cache"]["bytes_per_value"] * seqs)
    reserve = [(r["name"], size_bytes(r["size"])) for r in w.get("reserve", [])]
    envelope = weights + (kv or 0) + sum(b for _, b in reserve)
    return {"weights": weights, "kv": kv, "reserve": reserve, "envelope": envelope}


def decide(w, s, offers):
    wanted = set(w.get("candidates") or [o["id"] for o in offers])
    days = w.get("requirements", {}).get("campaign", {}).get("days")
    rows = []
    for o in offers:
        if o["id"] not in wanted:
            continue
        if s["weights"] > o["capacity"]:
            verdict, reason = "exclude", "weights alone %s above %s per card (calculated)" % (
                gib(s["weights"]), gib(o["capacity"]))
        elif s["envelope"] > o["capacity"]:
            verdict, reason = "to_confirm", "envelope %s above %s per card: a run must show the need" % (
                gib(s["envelope"]), gib(o["capacity"]))
        else:
            verdict, reason = "to_confirm", "no run on this card: a run of the limit input would confirm"
        plan = None
        if days:
            fit = [p for p in o["plans"] if p["hours"] >= days * 24]
            plan = min(fit, key=lambda p: p["price"]) if fit else None
        rows.append({"offer": o, "verdict": verdict, "reason": reason, "plan": plan,
                     "margin": o["capacity"] - s["envelope"]})
    rows.sort(key=lambda r: (r["verdict"] == "exclude",
                             r["plan"]["price"] if r["plan"] else Decimal("Infinity"),
                             -r["margin"]))
    return rows


# ---------------------------------------------------------------- charts

def save(fig, path, png):
    fig.savefig(path + ".svg", format="svg", metadata={"Date": None})
    if png:
        fig.savefig(path + ".png", format="png", dpi=100)
    plt.close(fig)


def budget_chart(w, s, rows, path, png):
    fig, ax = plt.subplots(figsize=(8, 4.5))
    parts = [("Weights", s["weights"])]
    if s["kv"] is not None:
        parts.append(("KV cache", s["kv"]))
    parts += s["reserve"]
    bottom = 0
    for (label, b), hatch in zip(parts, ("", "", "//", "//", "//", "//")):
        ax.bar([0], [b / GIB], bottom=[bottom / GIB], width=0.5, hatch=hatch,
               edgecolor="black", label="%s: %s" % (label, gib(b)))
        bottom += b
    ax.text(0, bottom / GIB, gib(bottom), ha="center", va="bottom", weight="bold")
    caps = sorted({(r["offer"]["capacity"], r["offer"]["capacity_prov"]) for r in rows})
    for cap, prov in caps[:8]:
        ax.axhline(cap / GIB, color="black", lw=1.5, ls="--" if prov == "assumed" else "-")
    ax.set_xlim(-1, 2)
    ax.set_xticks([])
    ax.set_ylabel("Memory (GiB)")
    ax.set_title("Memory budget against per-card capacity", loc="left", weight="bold")
    ax.legend(loc="upper right", fontsize=8)
    save(fig, path, png)


def phases_chart(name, m, path, png):
    phases = m.get("devices", [{}])[0].get("phases", []) if m.get("devices") else m.get("phases", [])
    fig, ax = plt.subplots(figsize=(8, 4.5))
    labels, alloc, resv = [], [], []
    for p in phases:
        labels.append(p.get("name", "?"))
        c = p.get("counters", p)
        alloc.append((c.get("max_allocated") or 0) / GIB)
        resv.append((c.get("max_reserved") or 0) / GIB)
    x = range(len(labels))
    ax.bar([i - 0.2 for i in x], alloc, width=0.4, label="allocated")
    ax.bar([i + 0.2 for i in x], resv, width=0.4, hatch="//", label="reserved")
    ax.set_xticks(list(x), labels)
    ax.set_ylabel("Memory (GiB)")
    ax.set_title("Counters per phase — %s" % name, loc="left", weight="bold")
    ax.legend()
    save(fig, path, png)


# ---------------------------------------------------------------- pages

ENV = jinja2.Environment(loader=jinja2.FileSystemLoader(os.path.join(HERE, "templates")),
                         autoescape=jinja2.select_autoescape(["html"]),
                         trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)
ENV.filters["gib"] = gib


def write(path, text):
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def sheet(w, catalog_name, offers, out, png):
    s = sizing(w)
    rows = decide(w, s, offers)
    wid = w["id"]
    charts = []
    budget_chart(w, s, rows, os.path.join(out, wid + "-budget"), png)
    charts.append((wid + "-budget", "Memory budget"))
    for i, (name, m) in enumerate(w["measurements"], 1):
        phases_chart(name, m, os.path.join(out, "%s-phases-%d" % (wid, i)), png)
        charts.append(("%s-phases-%d" % (wid, i), "Counters per phase — " + name))
    ctx = {"w": w, "s": s, "rows": rows, "charts": charts, "png": png, "catalog": catalog_name}
    write(os.path.join(out, wid + ".md"), ENV.get_template("sheet.md.j2").render(ctx))
    write(os.path.join(out, wid + ".html"), ENV.get_template("sheet.html.j2").render(ctx))
    decision = {
        "schema": "gpusheet-decision", "workload": wid, "catalog": catalog_name,
        "sizing": {"weights_bytes": s["weights"], "kv_cache_bytes": s["kv"],
                   "envelope_bytes": s["envelope"]},
        "offers": [{"offer": r["offer"]["id"], "verdict": r["verdict"], "reason": r["reason"],
                    "margin_bytes": r["margin"],
                    "cost": None if not r["plan"] else {
                        "amount": str(r["plan"]["price"]), "currency": r["plan"]["currency"]}}
                   for r in rows],
    }
    write(os.path.join(out, wid + ".json"),
          json.dumps(decision, indent=2, sort_keys=True, ensure_ascii=False) + "\n")
    return {"id": wid, "title": w["title"], "status": {r["offer"]["id"]: r["verdict"] for r in rows}}


def main():
    ap = argparse.ArgumentParser(description="Python peer of gpusheet site (benchmark)")
    ap.add_argument("--workloads", required=True, action="append")
    ap.add_argument("--catalog", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--png", action="store_true")
    a = ap.parse_args()
    title, offers = read_catalog(a.catalog)
    paths = sorted(os.path.join(root, "workload.json")
                   for d in a.workloads for root, _, files in os.walk(d)
                   if "workload.json" in files)
    sheets_dir = os.path.join(a.out, "sheets")
    os.makedirs(sheets_dir, exist_ok=True)
    done = []
    for p in paths:
        try:
            done.append(sheet(read_workload(p), title, offers, sheets_dir, a.png))
        except (OSError, ValueError, KeyError) as e:
            print("pysheet: %s: %s" % (p, e), file=sys.stderr)
            return 1
    write(os.path.join(a.out, "index.html"),
          ENV.get_template("index.html.j2").render(sheets=done, offers=offers, title=title))
    write(os.path.join(a.out, "offers.html"),
          ENV.get_template("offers.html.j2").render(offers=offers, title=title))
    print("%s/index.html (%d workloads)" % (a.out, len(done)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
