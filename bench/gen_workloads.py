#!/usr/bin/env python3
"""Generate the benchmark inputs: N workloads derived from examples/seed-7b
and a catalog of M offers derived from catalog/offers.xml.

    python3 bench/gen_workloads.py OUT_DIR [--workloads 200] [--offers 50] [--same]

Writes OUT_DIR/workloads/wNNNNN/workload.json and OUT_DIR/offers.xml.
Deterministic: the same arguments give the same files. Workloads vary the
parameter count, storage bits, prompt length, sequences and reserve, so that
every sheet is different (with --same every workload is seed-7b itself, only
the id changes: the per-sheet cost of the seed example). No "candidates":
each sheet compares every offer of the catalog.
"""
import argparse
import copy
import json
import os
import xml.etree.ElementTree as ET

NS = "https://gpusheet.example/ns/catalog/1"


def make_catalog(src, dst, n):
    ET.register_namespace("", NS)
    tree = ET.parse(src)
    root = tree.getroot()
    base = list(root)
    for o in base:
        root.remove(o)
    for i in range(n):
        o = copy.deepcopy(base[i % len(base)])
        o.set("id", "%s-b%02d" % (o.get("id"), i))
        for plan in o.findall("{%s}plan" % NS):
            cents = int(round(float(plan.get("price")) * 100)) + 37 * i
            plan.set("price", "%d.%02d" % (cents // 100, cents % 100))
        root.append(o)
    root.set("title", "benchmark catalog (%d offers)" % n)
    tree.write(dst, encoding="UTF-8", xml_declaration=True)


def make_workloads(seed_path, out, n, same):
    with open(seed_path, encoding="utf-8") as f:
        seed = json.load(f)
    seed.pop("candidates", None)
    for i in range(n):
        w = copy.deepcopy(seed)
        w["id"] = "w%05d" % i
        if not same:
            bits = (16, 8, 4)[i % 3]
            w["title"] = "benchmark workload %d: %d bits" % (i, bits)
            w["model"]["parameters"] = 1000000000 * (1 + i % 70)
            w["weights"]["storage_bits"] = bits
            tokens = 1024 * (1 + i % 16)
            seqs = 1 + i % 4
            w["dimensions"].update(input_tokens=tokens - 512, output_tokens=512,
                                   batch=seqs, sequences=seqs)
            w["inputs"]["limit"]["dimensions"].update(input_tokens=tokens - 512,
                                                      output_tokens=512,
                                                      batch=seqs, sequences=seqs)
            w["reserve"][0]["size"]["amount"] = str(2 + i % 7)
        d = os.path.join(out, "workloads", w["id"])
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "workload.json"), "w", encoding="utf-8") as f:
            json.dump(w, f, indent=2, ensure_ascii=False)
            f.write("\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out")
    ap.add_argument("--workloads", type=int, default=200)
    ap.add_argument("--offers", type=int, default=50)
    ap.add_argument("--same", action="store_true")
    ap.add_argument("--source", default=os.path.join(os.path.dirname(__file__), ".."))
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    make_catalog(os.path.join(a.source, "catalog", "offers.xml"),
                 os.path.join(a.out, "offers.xml"), a.offers)
    make_workloads(os.path.join(a.source, "examples", "seed-7b", "workload.json"),
                   a.out, a.workloads, a.same)


if __name__ == "__main__":
    main()
