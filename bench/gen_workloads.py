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

Without --same the workloads come from four examples (see FAMILIES):
seed-7b varied in parameters, formats (bf16, fp8, int4, fp16, int8,
float32), prompt length, sequences and reserve; context-sweep (three
measurements and their sweep), lora-adapt (an adaptation with training
components and a measurement) and llama70b-2card (a two-card lot and its
measurement), copied with their measurement files; every workload varies
its budget (amount, currency, or none) and campaign (start, days, or none).
With --check GPUSHEET every generated file goes through `gpusheet check`
and the generator fails if one is refused: the benchmark times valid work,
never an early exit.
"""
import argparse
import copy
import json
import os
import shutil
import subprocess
import sys
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


# The workload families, by example: (example, share out of 10). seed-7b has
# no measurement and its model is varied freely; the others carry their
# measurements, so their model and dimensions stay those the measurements
# were taken with (a site refuses a measurement that contradicts its
# workload), and only the budget, the campaign and the title vary.
FAMILIES = (("seed-7b", 6), ("context-sweep", 2), ("lora-adapt", 1), ("llama70b-2card", 1))
# (storage bits, storage format, compute format): several formats.
FORMATS = ((16, "bf16", "bf16"), (8, "fp8", "bf16"), (4, "int4", "bf16"),
           (16, "fp16", "fp16"), (8, "int8", "bf16"), (32, "float32", "float32"))
CURRENCIES = ("USD", "USD", "EUR")


def family_of(i):
    k, acc = i % 10, 0
    for name, share in FAMILIES:
        acc += share
        if k < acc:
            return name
    raise AssertionError("shares must add up to 10")


def vary_requirements(w, i):
    req = w.setdefault("requirements", {})
    # budgets: absent one workload in 11, another currency one in 3, else
    # an amount from tight to loose
    if i % 11 == 5:
        req.pop("budget", None)
    else:
        cents = 1500 + (i * 7919) % 60000
        req["budget"] = {"amount": "%d.%02d" % (cents // 100, cents % 100),
                         "currency": CURRENCIES[i % 3]}
    # campaigns: absent one workload in 13, else 1 to 30 days from a start
    # in December 2026
    if i % 13 == 7:
        req.pop("campaign", None)
    else:
        req["campaign"] = {"start": "2026-12-%02d" % (1 + i % 28), "days": 1 + (i * 5) % 30}


def make_workloads(source, out, n, same):
    for i in range(n):
        fam = "seed-7b" if same else family_of(i)
        src = os.path.join(source, "examples", fam)
        with open(os.path.join(src, "workload.json"), encoding="utf-8") as f:
            w = json.load(f)
        w.pop("candidates", None)
        w["id"] = "w%05d" % i
        if not same:
            vary_requirements(w, i)
            w["title"] = "benchmark workload %d (%s, %s)" % (i, fam, w["task"])
        if fam == "seed-7b" and not same:
            bits, sfmt, cfmt = FORMATS[i % len(FORMATS)]
            w["title"] = "benchmark workload %d: %s, %d bits" % (i, sfmt, bits)
            w["model"]["parameters"] = 1000000000 * (1 + i % 70)
            w["weights"].update(storage_bits=bits, storage_format=sfmt,
                                compute_format=cfmt, reference_format="bf16")
            if sfmt != "bf16":
                w["requirements"]["quality"] = {
                    "criterion": "The bf16 outputs: %s weights have to be evaluated "
                                 "against them before the sheet can admit a card." % sfmt}
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
        if os.path.isdir(os.path.join(src, "measurements")):
            shutil.copytree(os.path.join(src, "measurements"), os.path.join(d, "measurements"),
                            dirs_exist_ok=True)
        with open(os.path.join(d, "workload.json"), "w", encoding="utf-8") as f:
            json.dump(w, f, indent=2, ensure_ascii=False)
            f.write("\n")


def check(gpusheet, out):
    """Every generated workload and measurement and the catalog through
    `gpusheet check`, in one run; exits if one is refused."""
    files = [os.path.join(out, "offers.xml")]
    for root, _, names in sorted(os.walk(os.path.join(out, "workloads"))):
        files += [os.path.join(root, x) for x in sorted(names)
                  if x.endswith(".json") and (x == "workload.json" or
                                              os.path.basename(root) == "measurements")]
    p = subprocess.run([gpusheet, "check"] + files, capture_output=True, text=True)
    if p.returncode != 0:
        bad = [x for x in (p.stdout + p.stderr).splitlines() if not x.endswith(")") or ": ok (" not in x]
        sys.exit("gen_workloads: gpusheet check refused the generated inputs (exit %d):\n%s"
                 % (p.returncode, "\n".join(bad[:40])))
    return len(files)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out")
    ap.add_argument("--workloads", type=int, default=200)
    ap.add_argument("--offers", type=int, default=50)
    ap.add_argument("--same", action="store_true")
    ap.add_argument("--source", default=os.path.join(os.path.dirname(__file__), ".."))
    ap.add_argument("--check", metavar="GPUSHEET",
                    help="run GPUSHEET check on every generated file and fail if one is refused")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    make_catalog(os.path.join(a.source, "catalog", "offers.xml"),
                 os.path.join(a.out, "offers.xml"), a.offers)
    make_workloads(a.source, a.out, a.workloads, a.same)
    if a.check:
        check(a.check, a.out)


if __name__ == "__main__":
    main()
