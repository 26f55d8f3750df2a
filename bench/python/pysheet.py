#!/usr/bin/env python3
"""pysheet: the benchmark's Python peer of `gpusheet site`.

Reads the same inputs (workload JSON files, the XML offer catalog, the
measurement JSON files a workload cites) and writes the same kinds of files
as `gpusheet site`:

- for each workload sheets/ID.html, ID.json (the decision, schema 3 with
  its reasons array) and its charts as SVG (ID-budget.svg, ID-phases-N.svg;
  with --png also .png; with --md also ID.md);
- index.html and its pages (a workload x offer matrix, 100 workloads x 20
  offers a page: index-P.html, index-P-C.html), offers.html (the catalog
  grouped by provider and GPU model, with its two charts, 100 offers a
  page), offers/OFFER.html (every workload on one offer, 100 a page:
  OFFER~2.html), style.css and evidence/manifest.json (the sha256 of every
  workload and cited file).

Templates with jinja2 (autoescaped HTML), charts with matplotlib (Agg), the
user's notes with python-markdown, the way one would write it in Python. It
is a peer for timing, not a second implementation of every evidence rule:
six requirements per offer with simple rules in the spirit of gpusheet's
(memory from the calculation, software, calendar, budget, quality and host
from what the catalog and the workload document); measurements are charted
but decide no verdict.

    python3 bench/python/pysheet.py --workloads DIR --catalog FILE --out DIR [--png] [--md]
"""
import argparse
import datetime
import hashlib
import json
import os
import shutil
import sys
import xml.etree.ElementTree as ET
from decimal import Decimal

import jinja2
import markdown
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
UNITS = {"GiB": GIB, "GB": 10**9, "bytes": 1}
HERE = os.path.dirname(os.path.abspath(__file__))
GENERATOR = "pysheet 0.1.0"

REQS = ("memory", "software", "calendar", "budget", "quality", "host")
REQ_TITLE = {"memory": "Memory", "software": "Software", "calendar": "Calendar",
             "budget": "Budget", "quality": "Quality", "host": "Host"}
VERDICT = {"admissible": "✔ admissible", "to_confirm": "? to confirm",
           "exclude": "✘ exclude", "not_required": "— not required"}
STATUS = {"retained": "✔ retained", "preselected": "? pre-selected",
          "excluded": "✘ excluded"}
STATUS_RANK = {"retained": 0, "preselected": 1, "excluded": 2}
EXCLUSION = {"calculated_certainty": "calculated certainty",
             "catalog_claim": "dated catalog claim",
             "observed_failure": "observed failure"}
MISSING = {
    "missing.calendar": "a documented availability window covering the campaign, from the provider.",
    "missing.campaign": "the campaign's start and duration, to compute a total cost.",
    "missing.capacity": "the capacity actually available on the card.",
    "missing.exchange": "the cost in the budget's currency (a quote or a dated exchange rate).",
    "missing.host": "the host's RAM or interconnect, documented by the provider.",
    "missing.measurement": "a successful measurement on this GPU model covering the required dimensions.",
    "missing.placement_and_measurement": "a documented placement across the lot's cards and a successful measurement of it on this GPU model.",
    "missing.price": "a dated price for a plan covering the campaign.",
    "missing.quality": "an evaluation against the criterion on these weights, cited as a file or a reference with its date and scope.",
    "missing.software": "documentation that the required software environment is installed, and a run in it.",
    "missing.software_run": "a successful run on this GPU model whose recorded versions (frameworks, runtime, driver) meet the requirement.",
}
SHEET_PAGE = 100    # workloads per index and per-offer page
OFFER_COLS = 20     # offers per index page
OFFERS_PAGE = 100   # offers per offers page


# ---------------------------------------------------------------- numbers

def hundredths_of(b, unit):
    """b / unit to two decimals, rounded half up (exact, no float)."""
    h = (b * 100 + unit // 2) // unit
    return "%d.%02d" % divmod(h, 100)


def gib(b):
    return hundredths_of(b, GIB)


def gb(b):
    return hundredths_of(b, 10**9)


def num(n):
    return "{:,}".format(n)


def money(hundredths):
    return "{:,}.{:02d}".format(hundredths // 100, hundredths % 100)


def qty(b, prov):
    return "%s GiB (%s)" % (gib(b), prov)


def hundredths(text):
    return int(Decimal(text) * 100)


def size_bytes(s):
    return int(Decimal(s["amount"]) * UNITS[s["unit"]])


def dims(d):
    """A workload's dimensions as (name, value) pairs, its named extra
    dimensions included."""
    out = [(k, v) for k, v in d.items() if k != "extra"]
    return out + sorted(d.get("extra", {}).items())


def offer_list(ids, total=None, count_beyond=None):
    """How a reason names its offers (all of the total, or their ids), or
    a source or a note (a count beyond count_beyond, or their ids)."""
    if total is not None and len(ids) == total and total > 1:
        return "every offer (%d)" % total
    if count_beyond is not None and len(ids) > count_beyond:
        return "%d offers" % len(ids)
    return ids


# ---------------------------------------------------------------- inputs

def claim(el):
    return {"source": el.get("source"), "date": el.get("date") or el.get("ref")}


def read_catalog(path):
    root = ET.parse(path).getroot()
    offers = []
    for o in root.findall("c:offer", NS):
        gpu = o.find("c:gpu", NS)
        mem = o.find("c:memory", NS)
        decl = o.find("c:declared-bytes", NS)
        nominal = None
        if mem is not None:
            nominal = (int(Decimal(mem.get("nominal-gb")) * 10**9) if mem.get("nominal-gb")
                       else int(mem.get("mib")) << 20)
        if decl is not None:
            capacity, cap_source = int(decl.get("value")), "declared"
        else:
            capacity, cap_source = nominal, ("nominal" if nominal is not None else None)
        avail = o.find("c:availability", NS)
        host = o.find("c:host", NS)
        inter = o.find("c:interconnect", NS)
        notes = o.find("c:notes", NS)
        offers.append({
            "id": o.get("id"),
            "provider": o.get("provider"),
            "segment": o.get("segment"),
            "model": gpu.get("model"),
            "device_name": gpu.get("device-name"),
            "cards": int(o.find("c:lot", NS).get("cards")),
            "nominal_gb": mem.get("nominal-gb") if mem is not None else None,
            "mib": mem.get("mib") if mem is not None else None,
            "nominal": nominal,
            "memory_claim": claim(mem) if mem is not None else None,
            "declared": int(decl.get("value")) if decl is not None else None,
            "declared_claim": claim(decl) if decl is not None else None,
            "capacity": capacity,
            "capacity_source": cap_source,
            "plans": [dict(claim(p), hours=int(p.get("hours")),
                           price=hundredths(p.get("price")), currency=p.get("currency"),
                           billing_hours=int(p.get("billing-hours") or 0),
                           interruptible=p.get("interruptible") == "true")
                      for p in o.findall("c:plan", NS)],
            "availability": None if avail is None else dict(
                claim(avail), kind=avail.get("kind"), start=avail.get("from"),
                end=avail.get("to"), stock=avail.get("stock")),
            "software": [dict(claim(s), name=s.get("name"), installed=s.get("installed") == "true")
                         for s in o.findall("c:software", NS)],
            "host_ram": None if host is None else dict(
                claim(host), bytes=int(Decimal(host.get("ram-gb")) * 10**9)),
            "interconnect": None if inter is None else dict(claim(inter), name=inter.get("name")),
            "notes": " ".join(notes.text.split()) if notes is not None and notes.text else None,
        })
    return root.get("title"), os.path.basename(path), offers


def sha256_file(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest(), os.path.getsize(path)


def read_workload(path):
    with open(path, encoding="utf-8") as f:
        w = json.load(f)
    if w.get("schema") != "gpusheet-workload":
        raise ValueError("%s: $.schema: expected \"gpusheet-workload\"" % path)
    w["path"] = path
    w["sha256"], w["size"] = sha256_file(path)
    base = os.path.dirname(path)
    w["measurements"] = []
    for ev in w.get("evidence", []):
        p = os.path.join(base, ev["file"])
        with open(p, encoding="utf-8") as f:
            m = json.load(f)
        digest, size = sha256_file(p)
        w["measurements"].append({"file": ev["file"], "path": p, "covers": ev.get("covers"),
                                  "data": m, "sha256": digest, "size": size})
    return w


# ---------------------------------------------------------------- sizing

def sizing(w):
    m, d = w["model"], w["dimensions"]
    bits = w["weights"]["storage_bits"]
    weights = m["parameters"] * bits // 8
    tokens = d.get("input_tokens", 0) + d.get("output_tokens", 0)
    seqs = d.get("sequences", d.get("batch", 1))
    kv = kv_formula = None
    if "cache" in w and all(k in m for k in ("layers", "kv_heads", "head_dim")):
        bpv = w["cache"]["bytes_per_value"]
        kv = 2 * m["layers"] * m["kv_heads"] * m["head_dim"] * tokens * bpv * seqs
        kv_formula = "2 x %d x %d x %d x %s tokens x %d B x %d" % (
            m["layers"], m["kv_heads"], m["head_dim"], num(tokens), bpv, seqs)
    reserve = [{"name": r["name"], "bytes": size_bytes(r["size"]),
                "size": "%s %s" % (r["size"]["amount"], r["size"]["unit"]),
                "reason": r.get("reason")} for r in w.get("reserve", [])]
    reserve_total = sum(r["bytes"] for r in reserve)
    envelope = weights + reserve_total
    need = envelope + (kv or 0)
    formats = [{"bits": b, "weights": m["parameters"] * b // 8,
                "envelope": m["parameters"] * b // 8 + reserve_total,
                "theoretical": b < 8} for b in (16, 8, 4)]
    parts = [("Weights only", weights, "calculated")]
    if kv is not None:
        parts.append(("KV cache", kv, "calculated"))
    parts += [(r["name"], r["bytes"], "assumed") for r in reserve]
    largest = max(parts, key=lambda p: p[1])
    return {"weights": weights, "weights_formula": "%s x %d / 8" % (num(m["parameters"]), bits),
            "kv": kv, "kv_formula": kv_formula, "reserve": reserve,
            "reserve_total": reserve_total, "envelope": envelope, "need": need,
            "formats": formats, "parts": parts, "largest": largest,
            "largest_pct": largest[1] * 100 // need if need else 0,
            "theoretical": bits < 8}    # 4 bits: no scales, no modules kept wider


# ---------------------------------------------------------------- verdicts

def reason(req, verdict, key, text, missing=None, evidence=None, exclusion=None):
    return {"requirement": req, "verdict": verdict, "reason": key, "text": text,
            "missing": missing, "evidence": evidence["source"] if evidence else None,
            "evidence_date": evidence["date"] if evidence else None,
            "exclusion": exclusion, "note": None, "orientation": None,
            "rests_on_synthetic": False, "lower_bound": False}


NOT_REQUIRED = "The workload states no such requirement."


def memory_verdict(o, s):
    cap = o["capacity"]
    if cap is None:
        return reason("memory", "to_confirm", "why.memory.capacity_unknown",
                      "No memory figure is known for this card: the capacity per card is missing.",
                      "missing.capacity")
    a, b = qty(s["need"], "assumed"), qty(cap, "assumed")
    margin = cap - s["need"]
    m = ("\u2212" if margin < 0 else "") + qty(abs(margin), "assumed")
    w = qty(s["weights"], "calculated")
    if o["cards"] == 1 and s["weights"] > cap:
        return reason("memory", "exclude", "why.memory.weights_exceed_card",
                      "Calculated certainty: the weights alone (%s) exceed the card (%s), "
                      "and no offloading is declared." % (w, b),
                      exclusion="calculated_certainty")
    if o["cards"] > 1 and s["weights"] > cap * o["cards"]:
        return reason("memory", "exclude", "why.memory.weights_exceed_lot",
                      "Calculated certainty: the weights alone (%s) exceed every card of the lot "
                      "together (capacity per card %s), and no offloading is declared." % (w, b),
                      exclusion="calculated_certainty")
    if margin < 0 and o["cards"] > 1:
        return reason("memory", "to_confirm", "why.memory.calc_needs_placement",
                      "Calculated need %s exceeds one card (%s, margin %s); the lot's cards do not "
                      "pool their memory and no placement is documented." % (a, b, m),
                      "missing.placement_and_measurement")
    if margin < 0:
        return reason("memory", "to_confirm", "why.memory.calc_above",
                      "Calculated need %s above the capacity per card %s: margin %s. "
                      "Only a measurement can tell." % (a, b, m), "missing.measurement")
    return reason("memory", "to_confirm", "why.memory.calc_fits",
                  "Calculated need %s against the capacity per card %s: margin %s, but nothing "
                  "is observed on %s." % (a, b, m, o["model"]), "missing.measurement")


def software_verdict(o, req):
    sw = req.get("software")
    if not sw:
        return reason("software", "not_required", "why.not_required", NOT_REQUIRED)
    listed = [x for x in o["software"] if x["installed"]]
    if listed:
        return reason("software", "to_confirm", "why.software.listed_only",
                      "The offer lists %s (%s); a commercial page proves what is offered, not "
                      "what runs." % (", ".join(x["name"] for x in listed), listed[0]["source"]),
                      "missing.software_run", evidence=listed[0])
    return reason("software", "to_confirm", "why.software.undocumented",
                  "The catalog does not document the required environment (%s) as installed."
                  % sw.get("description", "as required"), "missing.software")


def calendar_verdict(o, req, campaign_end):
    camp = req.get("campaign")
    if not camp:
        return reason("calendar", "not_required", "why.not_required", NOT_REQUIRED)
    av = o["availability"]
    if av is None:
        return reason("calendar", "to_confirm", "why.calendar.unknown",
                      "The catalog documents no availability.", "missing.calendar")
    if av["kind"] == "unavailable":
        return reason("calendar", "exclude", "why.calendar.unavailable",
                      "The provider documents the offer as unavailable.",
                      evidence=av, exclusion="catalog_claim")
    if av["kind"] == "on-request":
        return reason("calendar", "to_confirm", "why.calendar.on_request",
                      "Availability on request only.", "missing.calendar", evidence=av)
    if av["kind"] == "stock":
        return reason("calendar", "to_confirm", "why.calendar.stock_only",
                      "A declared stock proves no availability window.", "missing.calendar",
                      evidence=av)
    if av["start"] <= camp["start"] and campaign_end <= av["end"]:
        return reason("calendar", "admissible", "why.calendar.window_covers",
                      "The documented window %s to %s covers the campaign."
                      % (av["start"], av["end"]), evidence=av)
    return reason("calendar", "exclude", "why.calendar.window_misses",
                  "The documented window %s to %s does not cover the campaign."
                  % (av["start"], av["end"]), evidence=av, exclusion="catalog_claim")


def campaign_cost(o, req):
    """The cheapest plan covering the campaign (whole plans back to back,
    hours billed by the plan's unit), or None."""
    camp = req.get("campaign")
    if not camp:
        return None
    best = None
    for p in o["plans"]:
        if p["interruptible"]:
            continue
        hours = camp["days"] * 24
        if p["billing_hours"]:
            hours = -(-hours // p["billing_hours"]) * p["billing_hours"]
        units = -(-hours // p["hours"])
        cost = {"hundredths": units * p["price"], "currency": p["currency"],
                "plan_units": units, "plan_hours": p["hours"], "plan": p}
        if best is None or (cost["currency"], cost["hundredths"]) < (best["currency"], best["hundredths"]):
            best = cost
    return best


def budget_verdict(o, req, cost):
    bud = req.get("budget")
    if not bud:
        return reason("budget", "not_required", "why.not_required", NOT_REQUIRED)
    if not req.get("campaign"):
        return reason("budget", "to_confirm", "why.budget.no_campaign",
                      "No campaign start and duration are declared, so no total cost can be "
                      "computed.", "missing.campaign")
    if cost is None:
        return reason("budget", "to_confirm", "why.budget.no_price",
                      "The catalog gives no price for this offer.", "missing.price")
    if cost["currency"] != bud["currency"]:
        return reason("budget", "to_confirm", "why.budget.other_currency",
                      "The price is in %s, the budget in %s." % (cost["currency"], bud["currency"]),
                      "missing.exchange", evidence=cost["plan"])
    limit = hundredths(bud["amount"])
    words = (money(cost["hundredths"]), cost["currency"], money(limit), cost["currency"])
    if cost["hundredths"] <= limit:
        return reason("budget", "admissible", "why.budget.within",
                      "The cheapest plan covering the campaign costs %s %s, within the budget "
                      "of %s %s." % words, evidence=cost["plan"])
    return reason("budget", "exclude", "why.budget.over",
                  "The cheapest plan covering the campaign costs %s %s, above the budget of "
                  "%s %s." % words, evidence=cost["plan"], exclusion="catalog_claim")


def quality_verdict(w, req):
    q = req.get("quality")
    if not q:
        return reason("quality", "not_required", "why.not_required", NOT_REQUIRED)
    ev = q.get("evidence")
    if ev:
        return reason("quality", "admissible", "why.quality.cited",
                      "Cited evaluation of the weights in %s against the criterion, covering: %s."
                      % (w["weights"].get("storage_format"), ev["scope"]),
                      evidence={"source": ev.get("file") or ev.get("reference"),
                                "date": ev["date"]})
    ref, fmt = w["weights"].get("reference_format"), w["weights"].get("storage_format")
    if not ref:
        return reason("quality", "to_confirm", "why.quality.no_reference",
                      "No reference format is declared for the quality criterion, and no "
                      "evaluation is cited.", "missing.quality")
    if ref != fmt:
        return reason("quality", "to_confirm", "why.quality.format_changed",
                      "The weights are stored as %s, not in the reference format %s, and no "
                      "evaluation is cited." % (fmt, ref), "missing.quality")
    return reason("quality", "to_confirm", "why.quality.same_format_unverified",
                  "The weights stay in the reference format %s, but the same format is not by "
                  "itself evidence: no evaluation is cited." % ref, "missing.quality")


def host_verdict(o, req):
    h = req.get("host")
    if not h:
        return reason("host", "not_required", "why.not_required", NOT_REQUIRED)
    if "ram" in h:
        need = size_bytes(h["ram"])
        if o["host_ram"] is None:
            return reason("host", "to_confirm", "why.host.ram_unknown",
                          "The catalog does not document the host RAM (%s required)."
                          % qty(need, "assumed"), "missing.host")
        if o["host_ram"]["bytes"] < need:
            return reason("host", "exclude", "why.host.ram_short",
                          "Host RAM %s is below the required %s."
                          % (qty(o["host_ram"]["bytes"], "assumed"), qty(need, "assumed")),
                          evidence=o["host_ram"], exclusion="catalog_claim")
    if h.get("interconnect"):
        if o["interconnect"] is None:
            return reason("host", "to_confirm", "why.host.interconnect_unknown",
                          "The catalog does not document the interconnect (%s required)."
                          % h["interconnect"], "missing.host")
        if o["interconnect"]["name"] != h["interconnect"]:
            return reason("host", "to_confirm", "why.host.interconnect_other",
                          "The required interconnect %s differs from the documented one (%s)."
                          % (h["interconnect"], o["interconnect"]["name"]), "missing.host")
    return reason("host", "admissible", "why.host.documented",
                  "The host documented by the provider meets the declared needs.",
                  evidence=o["host_ram"] or o["interconnect"])


def decide(w, s, offers):
    """Every offer the workload compares, with six verdicts, its status and
    cost, in the table's order (retained by rank, pre-selected, excluded);
    the distinct reasons numbered by first appearance."""
    wanted = set(w.get("candidates") or [o["id"] for o in offers])
    req = w.get("requirements", {})
    camp = req.get("campaign")
    campaign_end = None
    if camp:
        start = datetime.date.fromisoformat(camp["start"])
        campaign_end = (start + datetime.timedelta(days=camp["days"] - 1)).isoformat()
    quality = quality_verdict(w, req)    # the same for every offer
    rows = []
    for o in offers:
        if o["id"] not in wanted:
            continue
        cost = campaign_cost(o, req)
        verdicts = {
            "memory": memory_verdict(o, s),
            "software": software_verdict(o, req),
            "calendar": calendar_verdict(o, req, campaign_end),
            "budget": budget_verdict(o, req, cost),
            "quality": quality,
            "host": host_verdict(o, req),
        }
        kinds = [v["verdict"] for v in verdicts.values()]
        if "exclude" in kinds:
            status = "excluded"
        elif all(k in ("admissible", "not_required") for k in kinds):
            status = "retained"
        else:
            status = "preselected"
        if verdicts["memory"]["verdict"] == "exclude":
            # the weights alone do not fit: they are the need, no margin is useful
            need, margin = (s["weights"], "calculated"), None
        else:
            need = (s["need"], "assumed")
            margin = None if o["capacity"] is None else o["capacity"] - s["need"]
        rows.append({"offer": o, "verdicts": verdicts, "status": status, "cost": cost,
                     "need": need, "margin": margin})
    rows.sort(key=lambda r: (STATUS_RANK[r["status"]], r["cost"] is None,
                             r["cost"]["hundredths"] if r["cost"] else 0,
                             r["margin"] is None, -(r["margin"] or 0), r["offer"]["id"]))
    # distinct reasons, numbered in order of first appearance
    reasons, index = [], {}
    for r in rows:
        r["why"] = {}
        for name in REQS:
            v = r["verdicts"][name]
            key = (name, v["verdict"], v["reason"], v["text"], v["evidence"],
                   v["evidence_date"], v["exclusion"], v["missing"])
            if key not in index:
                index[key] = len(reasons)
                reasons.append(dict(v, offers=[]))
            r["why"][name] = index[key]
            reasons[index[key]]["offers"].append(r["offer"]["id"])
    return rows, reasons


def sources_and_notes(rows):
    """The distinct sources of the memory figures and prices, and the
    distinct catalog notes, numbered by first appearance over the rows."""
    sources, sidx, notes, nidx = [], {}, [], {}
    for r in rows:
        o = r["offer"]
        r["sources"], r["note"] = [], None
        cited = []
        if o["memory_claim"]:
            cited.append(("memory", o["memory_claim"]))
        if o["declared_claim"]:
            cited.append(("memory", o["declared_claim"]))
        cited += [("price", p) for p in o["plans"]]
        for what, c in cited:
            key = (c["source"], c["date"])
            if key not in sidx:
                sidx[key] = len(sources)
                sources.append({"source": c["source"], "date": c["date"],
                                "memory": [], "price": []})
            src = sources[sidx[key]]
            if not src[what] or src[what][-1] != o["id"]:
                src[what].append(o["id"])
            if sidx[key] + 1 not in r["sources"]:
                r["sources"].append(sidx[key] + 1)
        if o["notes"]:
            if o["notes"] not in nidx:
                nidx[o["notes"]] = len(notes)
                notes.append({"text": o["notes"], "offers": []})
            notes[nidx[o["notes"]]]["offers"].append(o["id"])
            r["note"] = nidx[o["notes"]] + 1
    for src in sources:
        if src["memory"] and src["memory"] == src["price"]:
            src["what"] = [("memory figure and price of", src["memory"])]
        else:
            src["what"] = [(label, src[k]) for label, k in
                           (("memory figure of", "memory"), ("price of", "price")) if src[k]]
    return sources, sidx, notes


def decision(rows):
    retained = [r for r in rows if r["status"] == "retained"]
    pre = [r for r in rows if r["status"] == "preselected"]
    excluded = [r for r in rows if r["status"] == "excluded"]
    groups, gidx = [], {}
    for r in pre:
        todo = tuple(REQ_TITLE[n] for n in REQS if r["verdicts"][n]["verdict"] == "to_confirm")
        if todo not in gidx:
            gidx[todo] = len(groups)
            groups.append({"todo": todo, "offers": []})
        groups[gidx[todo]]["offers"].append(r["offer"]["id"])
    for r in excluded:
        r["exclusions"] = ["%s: %s" % (REQ_TITLE[n], EXCLUSION[r["verdicts"][n]["exclusion"]])
                           for n in REQS if r["verdicts"][n]["verdict"] == "exclude"]
    kind = "retained" if retained else ("preselection" if pre else "none")
    best = retained[0] if retained else (pre[0] if pre else None)
    return {"kind": kind, "retained": retained, "preselected": pre, "excluded": excluded,
            "groups": groups, "best": best,
            "todo": [REQ_TITLE[n] for n in REQS
                     if best and best["verdicts"][n]["verdict"] == "to_confirm"]}


# ---------------------------------------------------------------- charts

def save(fig, path, png):
    fig.savefig(path + ".svg", format="svg", metadata={"Date": None})
    if png:
        fig.savefig(path + ".png", format="png", dpi=100)
    plt.close(fig)


def budget_chart(s, caps, path, png):
    fig, ax = plt.subplots(figsize=(8, 4.5))
    bottom = 0
    for (label, b, _), hatch in zip(s["parts"], ("", "", "//", "//", "//", "//")):
        ax.bar([0], [b / GIB], bottom=[bottom / GIB], width=0.5, hatch=hatch,
               edgecolor="black", label="%s: %s GiB" % (label, gib(b)))
        bottom += b
    ax.text(0, bottom / GIB, gib(bottom) + " GiB", ha="center", va="bottom", weight="bold")
    for c in caps:
        ax.axhline(c["bytes"] / GIB, color="black", lw=1.5, ls="--")    # assumed capacities
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
        # a missing counter is no bar (matplotlib skips NaN), never a zero
        alloc.append(((p.get("allocated") or {}).get("peak") or float("nan")) / GIB)
        resv.append(((p.get("reserved") or {}).get("peak") or float("nan")) / GIB)
    x = range(len(labels))
    ax.bar([i - 0.2 for i in x], alloc, width=0.4, label="allocated")
    ax.bar([i + 0.2 for i in x], resv, width=0.4, hatch="//", label="reserved")
    ax.set_xticks(list(x), labels)
    ax.set_ylabel("Memory (GiB)")
    ax.set_title("Counters per phase — %s" % name, loc="left", weight="bold")
    ax.legend()
    save(fig, path, png)


def bars_chart(title, unit, bars, path, png):
    fig, ax = plt.subplots(figsize=(8, max(3.0, 0.18 * len(bars) + 1.2)))
    y = range(len(bars))
    ax.barh(list(y), [v for _, v in bars], color="#4a78b0")
    ax.set_yticks(list(y), [label for label, _ in bars], fontsize=7)
    ax.invert_yaxis()
    ax.set_xlabel(unit)
    ax.set_title(title, loc="left", weight="bold")
    fig.tight_layout()
    save(fig, path, png)


# ---------------------------------------------------------------- pages

def md_escape(text):
    out = str(text)
    for c in "\\`*_[]<>|":
        out = out.replace(c, "\\" + c)
    return out


ENV = jinja2.Environment(loader=jinja2.FileSystemLoader(os.path.join(HERE, "templates")),
                         autoescape=jinja2.select_autoescape(["html", "html.j2"],
                                                             default_for_string=False),
                         trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)
ENV.filters.update(gib=gib, gb=gb, num=num, money=money, qty=qty, md=md_escape)
ENV.globals.update(dims=dims, REQS=REQS, REQ_TITLE=REQ_TITLE, VERDICT=VERDICT, STATUS=STATUS,
                   MISSING=MISSING, EXCLUSION=EXCLUSION, GENERATOR=GENERATOR,
                   root="")    # the site's root from a page: "../" below it


def write(path, text):
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def cost_text(c):
    if c is None:
        return "missing"
    p = c["plan"]
    text = "%s %s = %d x %d h x %s %s" % (money(c["hundredths"]), c["currency"], c["plan_units"],
                                         p["hours"], money(p["price"]), c["currency"])
    if p["hours"] == 1 and not p["billing_hours"]:
        text += " (billed by the whole hour)"
    return text


def capacity_text(o):
    if o["capacity"] is None:
        return "missing"
    how = "device-declared bytes" if o["capacity_source"] == "declared" else (
        "nominal GB x 10^9" if o["nominal_gb"] else "MiB x 2^20")
    return "%s GiB (assumed, %s)" % (gib(o["capacity"]), how)


def offer_text(o):
    mem = ("%s GB nominal" % o["nominal_gb"]) if o["nominal_gb"] else (
        "%s MiB" % o["mib"] if o["mib"] else "memory missing")
    text = "%s, %d x %s (assumed)" % (o["model"], o["cards"], mem)
    return text + (" — " + o["provider"] if o["provider"] else "")


def need_bar(need, capacity, width=20):
    """The summary card's bar: the need's share of the capacity."""
    full = min(width, need * width // capacity)
    return "[" + "█" * full + "░" * (width - full) + "]"


def invalidators(w):
    d = w["dimensions"]
    text = ", ".join("%s = %s" % (k, num(v)) for k, v in dims(d))
    items = ["A longer input or more concurrent sequences than the limit input (%s)" % text,
             "Another evaluation or export run after the measured phases, with its own peak.",
             "Another driver, runtime, framework or allocator version or setting than the ones "
             "recorded."]
    if not w["measurements"]:
        items.append("No measurement yet: every memory figure is calculated or assumed; a run "
                     "of the workload on the candidate card can contradict it.")
    return items


def sheet(w, cat, offers, out, png, md, date):
    s = sizing(w)
    rows, reasons = decide(w, s, offers)
    sources, sidx, notes = sources_and_notes(rows)
    dec = decision(rows)
    total = len(rows)
    for r in reasons:
        r["for"] = offer_list(r["offers"], total)
        r["source_no"] = sidx.get((r["evidence"], r["evidence_date"]), -1) + 1
    for src in sources:
        src["what"] = [(label, offer_list(ids, count_beyond=3)) for label, ids in src["what"]]
    for n in notes:
        n["for"] = offer_list(n["offers"], count_beyond=3)
    by_req = {name: [(i, r) for i, r in enumerate(reasons)
                     if r["requirement"] == name and r["verdict"] != "not_required"]
              for name in REQS}
    wid = w["id"]
    # The chart's capacity lines: one per distinct capacity (the models
    # sharing it named together), at most 6, first the offers whose memory
    # verdict is decided, then the others, in the table's order.
    caps, by_bytes = [], {}
    decided = [r for r in rows if r["verdicts"]["memory"]["verdict"] in ("admissible", "exclude")]
    for r in decided + [r for r in rows if r not in decided]:
        o = r["offer"]
        if len(caps) == 6:
            break
        if o["capacity"] is None:
            continue
        cap = by_bytes.get(o["capacity"])
        if cap is not None:
            if o["model"] not in cap["label"]:
                cap["label"] += " / " + o["model"]
            continue
        mem = ("%s GB" % o["nominal_gb"]) if o["nominal_gb"] else "%s MiB" % o["mib"]
        cap = {"label": "%s (%s)" % (o["model"], mem), "bytes": o["capacity"]}
        by_bytes[o["capacity"]] = cap
        caps.append(cap)
    charts = [(wid + "-budget", "Memory budget per card against capacities")]
    budget_chart(s, caps, os.path.join(out, wid + "-budget"), png)
    for i, m in enumerate(w["measurements"], 1):
        stem = "%s-phases-%d" % (wid, i)
        phases_chart(m["file"], m["data"], os.path.join(out, stem), png)
        charts.append((stem, "Counters per phase — " + m["file"]))
    ctx = {"root": "../", "w": w, "s": s, "rows": rows, "reasons": reasons, "by_req": by_req,
           "sources": sources, "notes": notes, "dec": dec, "caps": caps, "charts": charts,
           "png": png, "cat": cat, "date": date, "invalid": invalidators(w),
           "cost_text": cost_text, "need_bar": need_bar, "capacity_text": capacity_text, "offer_text": offer_text,
           "notes_html": markdown.markdown(w.get("notes") or "")}
    if md:
        write(os.path.join(out, wid + ".md"), ENV.get_template("sheet.md.j2").render(ctx))
    write(os.path.join(out, wid + ".html"), ENV.get_template("sheet.html.j2").render(ctx))
    write(os.path.join(out, wid + ".json"), decision_json(w, s, rows, reasons, dec, cat, date))
    return {"id": wid, "title": w["title"], "kind": dec["kind"], "best": dec["best"],
            "todo": dec["todo"],
            "cells": {r["offer"]["id"]: {
                "status": r["status"], "cost": r["cost"],
                "reason": (" ".join("%s: %s" % (REQ_TITLE[n], r["verdicts"][n]["text"])
                                    for n in REQS if r["verdicts"][n]["verdict"] == "exclude")
                           if r["status"] == "excluded" else
                           "Memory: " + r["verdicts"]["memory"]["text"])} for r in rows}}


def decision_json(w, s, rows, reasons, dec, cat, date):
    def q(b, prov):
        return None if b is None else {"bytes": b, "provenance": prov}
    cands = []
    for r in rows:
        o, c = r["offer"], r["cost"]
        cands.append({
            "offer": o["id"], "gpu_model": o["model"], "cards": o["cards"],
            "capacity_per_card": q(o["capacity"], "assumed"),
            "capacity_source": o["capacity_source"], "nominal_bytes": o["nominal"],
            "need_per_card": q(*r["need"]),
            "margin_bytes": r["margin"],
            "margin_provenance": None if r["margin"] is None else "assumed",
            "requirements": r["why"], "rests_on_synthetic": False, "status": r["status"],
            "total_cost": None if c is None else {
                "currency": c["currency"], "hundredths": c["hundredths"],
                "plan_hours": c["plan_hours"], "plan_units": c["plan_units"],
                "provenance": "assumed"},
        })
    doc = {
        "schema": "gpusheet-decision", "schema_version": 3, "generator": GENERATOR,
        "lang": "en", "date": date, "catalog": cat["file"],
        "accept_synthetic": False, "demonstration": False, "synthetic_evidence": False,
        "workload": {"id": w["id"], "title": w["title"], "model": w["model"].get("name"),
                     "task": w.get("task")},
        "sizing": {"weights": q(s["weights"], "calculated"), "kv_cache": q(s["kv"], "calculated"),
                   "reserve": q(s["reserve_total"], "assumed"),
                   "envelope": q(s["envelope"], "assumed"), "need": q(s["need"], "assumed"),
                   "training": None, "weights_theoretical": s["theoretical"]},
        "candidates": cands,
        "reasons": [{k: v for k, v in r.items() if k not in ("offers", "for", "source_no")}
                    for r in reasons],
        "decision": {"kind": dec["kind"],
                     "choice": dec["retained"][0]["offer"]["id"] if dec["retained"] else None,
                     "retained": [r["offer"]["id"] for r in dec["retained"]],
                     "preselected": [r["offer"]["id"] for r in dec["preselected"]]},
        "evidence": [{"file": m["file"], "covers": m["covers"], "sha256": m["sha256"],
                      "bytes": m["size"]} for m in w["measurements"]],
    }
    return json.dumps(doc, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


# ---------------------------------------------------------------- site pages

def mem_order(o):
    """By memory per card, unknown last; sorted() keeps the catalog's order
    within one capacity."""
    return (o["capacity"] is None, o["capacity"] or 0)


def index_name(page, col):
    if col == 0:
        return "index.html" if page == 0 else "index-%d.html" % (page + 1)
    return "index-%d-%d.html" % (page + 1, col + 1)


def write_index(out, done, offers, cat):
    cols = sorted(offers, key=mem_order)
    counts = {o["id"]: {"retained": 0, "preselected": 0, "excluded": 0} for o in cols}
    for d in done:
        for oid, cell in d["cells"].items():
            counts[oid][cell["status"]] += 1
    pages = [done[i:i + SHEET_PAGE] for i in range(0, len(done), SHEET_PAGE)] or [[]]
    colpages = [cols[i:i + OFFER_COLS] for i in range(0, len(cols), OFFER_COLS)] or [[]]
    tpl = ENV.get_template("index.html.j2")
    for p, sheets in enumerate(pages):
        for c, group in enumerate(colpages):
            groups = []
            for o in group:
                label = "missing" if o["capacity"] is None else gib(o["capacity"]) + " GiB"
                if groups and groups[-1]["label"] == label:
                    groups[-1]["n"] += 1
                else:
                    groups.append({"label": label, "n": 1})
            write(os.path.join(out, index_name(p, c)), tpl.render(
                cat=cat, sheets=sheets, offers=group, groups=groups, counts=counts,
                page=p, col=c, pages=len(pages), cols=len(colpages), index_name=index_name))


def offers_charts(out, offers, page, png):
    """The two charts of an offers page, one per currency, with their data."""
    prefix = "offers" if page == 0 else "offers-%d" % (page + 1)
    gib_day, hourly, no_price = {}, {}, []
    for o in offers:
        plans = [p for p in o["plans"]]
        if not plans:
            no_price.append(o["id"])
            continue
        for p in plans:
            if o["capacity"] is not None:
                # price x 2^30 x 24 / (bytes per card x cards x hours), in ten-thousandths
                v = (p["price"] * 100 * GIB * 24 * 2 // (o["capacity"] * o["cards"] * p["hours"]) + 1) // 2
                gib_day.setdefault(p["currency"], []).append((o, p, v))
        cheapest = min(plans, key=lambda p: p["price"] * 10**6 // p["hours"])
        v = (cheapest["price"] * 100 * 2 // cheapest["hours"] + 1) // 2
        hourly.setdefault(cheapest["currency"], []).append((o, cheapest, v))
    # an offer without a figure is no bar, but a row of each table with why
    unpriced = [(o, "no price known") for o in offers if not o["plans"]]
    unpriced += [(o, "no memory figure") for o in offers if o["plans"] and o["capacity"] is None]
    charts = []
    for n, cur in enumerate(sorted(gib_day), 1):
        rows = sorted(gib_day[cur], key=lambda t: t[2])
        stem = "%s-gib-day-%d" % (prefix, n)
        title = "Cost per GiB-day of each plan, %s" % cur
        bars_chart(title, "%s per GiB-day" % cur,
                   [("%s (%d h)" % (o["id"], p["hours"]), v / 10**4) for o, p, v in rows[:100]],
                   os.path.join(out, stem), png)
        charts.append({"stem": stem, "title": title, "unit": "Cost per GiB-day (%s)" % cur,
                       "prov": "calculated from catalog claims (assumed)",
                       "rows": [{"offer": o, "plan": p, "value": "%d.%04d" % divmod(v, 10**4)}
                                for o, p, v in rows], "missing": unpriced})
    for n, cur in enumerate(sorted(hourly), 1):
        rows = sorted(hourly[cur], key=lambda t: (mem_order(t[0]), t[2]))
        stem = "%s-hourly-%d" % (prefix, n)
        title = "Cheapest hourly price per offer (no reference workload), %s" % cur
        bars_chart(title, "%s per hour" % cur,
                   [(o["id"], v / 10**4) for o, p, v in rows[:100]],
                   os.path.join(out, stem), png)
        charts.append({"stem": stem, "title": title, "unit": "Price per hour (%s)" % cur,
                       "prov": "assumed (catalog claim)",
                       "rows": [{"offer": o, "plan": p, "value": "%d.%04d" % divmod(v, 10**4)}
                                for o, p, v in rows], "missing": unpriced[:len(no_price)]})
    return charts, no_price


def write_offers(out, offers, cat, png):
    pages = [offers[i:i + OFFERS_PAGE] for i in range(0, len(offers), OFFERS_PAGE)] or [[]]
    tpl = ENV.get_template("offers.html.j2")
    for p, page in enumerate(pages):
        charts, no_price = offers_charts(out, page, p, png)
        groups, gidx = [], {}
        for o in sorted(page, key=lambda o: (o["provider"] is None, o["provider"] or "", o["model"], o["id"])):
            key = (o["provider"], o["model"])
            if key not in gidx:
                gidx[key] = len(groups)
                groups.append({"provider": o["provider"], "model": o["model"], "offers": []})
            groups[gidx[key]]["offers"].append(o)
        name = "offers.html" if p == 0 else "offers-%d.html" % (p + 1)
        write(os.path.join(out, name), tpl.render(
            cat=cat, charts=charts, no_price=no_price, groups=groups, page=p, pages=len(pages),
            offer_text=offer_text))


def write_offer_pages(out, done, offers, cat):
    d = os.path.join(out, "offers")
    os.makedirs(d, exist_ok=True)
    tpl = ENV.get_template("offer.html.j2")
    for o in offers:
        rows = [(s, s["cells"][o["id"]]) for s in done if o["id"] in s["cells"]]
        pages = [rows[i:i + SHEET_PAGE] for i in range(0, len(rows), SHEET_PAGE)] or [[]]
        for p, page in enumerate(pages):
            name = o["id"] + (".html" if p == 0 else "~%d.html" % (p + 1))
            write(os.path.join(d, name), tpl.render(
                root="../", o=o, rows=page, page=p, pages=len(pages), cat=cat, offer_text=offer_text))


def write_manifest(out, workloads):
    entries = {}
    for w in workloads:
        for m in w["measurements"]:
            e = entries.setdefault(m["sha256"], {"bytes": m["size"], "names": [], "sheets": []})
            if m["file"] not in e["names"]:
                e["names"].append(m["file"])
            e["sheets"].append(w["id"])
    doc = {"format": "gpusheet-evidence/1", "entries": entries,
           "workloads": {w["id"]: {"sha256": w["sha256"], "bytes": w["size"]} for w in workloads}}
    os.makedirs(os.path.join(out, "evidence"), exist_ok=True)
    for w in workloads:
        for m in w["measurements"]:
            dst = os.path.join(out, "evidence", m["sha256"] + ".json")
            if not os.path.exists(dst):
                shutil.copyfile(m["path"], dst)
    write(os.path.join(out, "evidence", "manifest.json"),
          json.dumps(doc, indent=2, sort_keys=True) + "\n")


def main():
    ap = argparse.ArgumentParser(description="Python peer of gpusheet site (benchmark)")
    ap.add_argument("--workloads", required=True, action="append")
    ap.add_argument("--catalog", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--png", action="store_true")
    ap.add_argument("--md", action="store_true")
    a = ap.parse_args()
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    date = (datetime.datetime.fromtimestamp(int(epoch), datetime.timezone.utc).date()
            if epoch else datetime.date.today()).isoformat()
    title, fname, offers = read_catalog(a.catalog)
    cat = {"title": title, "file": fname}
    paths = sorted(os.path.join(root, "workload.json")
                   for d in a.workloads for root, _, files in os.walk(d)
                   if "workload.json" in files)
    sheets_dir = os.path.join(a.out, "sheets")
    os.makedirs(sheets_dir, exist_ok=True)
    done, workloads = [], []
    for p in paths:
        try:
            w = read_workload(p)
            done.append(sheet(w, cat, offers, sheets_dir, a.png, a.md, date))
        except (OSError, ValueError, KeyError, TypeError) as e:
            print("pysheet: %s: %s" % (p, e), file=sys.stderr)
            return 1
        # the manifest needs the hashes only, not the parsed files
        workloads.append({"id": w["id"], "sha256": w["sha256"], "size": w["size"],
                          "measurements": [{k: m[k] for k in ("file", "path", "sha256", "size")}
                                           for m in w["measurements"]]})
    write_index(a.out, done, offers, cat)
    write_offers(a.out, offers, cat, a.png)
    write_offer_pages(a.out, done, offers, cat)
    with open(os.path.join(HERE, "templates", "style.css"), encoding="utf-8") as f:
        write(os.path.join(a.out, "style.css"), f.read())
    write_manifest(a.out, workloads)
    print("%s/index.html (%d workloads)" % (a.out, len(done)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
