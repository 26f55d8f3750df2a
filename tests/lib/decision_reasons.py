#!/usr/bin/env python3
"""Checks what the decision schema cannot say about "reasons" (schema 5).

Usage: decision_reasons.py FILE... ; exit 1 and one line per fault.
  - every candidate's requirements (its lot's, and its budget) index a
    reason (not null: a merged budget reason is named by the one it is
    merged into) of the same requirement, and the candidate's class agrees
    with its reasons' verdicts (excluded: one exclude at least; retained:
    every one admissible or not required; a reference card is neither);
  - the reasons are distinct (no two equal rows) and each is used;
  - they are numbered in first-appearance order over the candidates (in
    their order) and the requirements (memory, software, calendar, budget,
    quality, host, regions, speed), merged budget reasons (null) left out.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import decision_doc  # noqa: E402

REQS = ["memory", "software", "calendar", "budget", "quality", "host", "regions", "speed"]
bad = 0


def fail(path, text):
    global bad
    print(f"FAIL: {path}: {text}")
    bad = 1


for path in sys.argv[1:]:
    doc = json.load(open(path, encoding="utf-8"))
    reasons = decision_doc.reasons(doc)
    live = [i for i, r in enumerate(reasons) if r is not None]
    seen = []
    for ci, cand in enumerate(decision_doc.candidates(doc)):
        for name in REQS:
            i = cand["requirements"][name]
            where = f"candidates[{ci}].requirements.{name}"
            if i >= len(reasons) or reasons[i] is None:
                fail(path, f"{where} = {i}: no such reason")
                continue
            if reasons[i]["requirement"] != name:
                fail(path, f"{where}: reasons[{i}] is of {reasons[i]['requirement']}, not {name}")
            if i not in seen:
                if i != live[len(seen)]:
                    fail(path, f"{where} = {i}: expected {live[len(seen)]} (first-appearance order)")
                seen.append(i)
        verdicts = [reasons[cand["requirements"][n]]["verdict"] for n in REQS
                    if cand["requirements"][n] < len(reasons) and reasons[cand["requirements"][n]]]
        excluded = "exclude" in verdicts
        retained = all(v in ("admissible", "not_required") for v in verdicts)
        # A reference card (no provider or no priced plan) is never retained
        # nor pre-selected, whatever its verdicts (schema 4).
        if cand["class"] != "reference":
            if (cand["class"] == "excluded") != excluded:
                fail(path, f"candidates[{ci}]: class {cand['class']}, its reasons say excluded: {excluded}")
            elif not excluded and (cand["class"] == "retained") != retained:
                fail(path, f"candidates[{ci}]: class {cand['class']}, its reasons say retained: {retained}")
    if len(seen) != len(live):
        fail(path, f"{len(live) - len(seen)} reasons used by no verdict")
    keys = [json.dumps(reasons[i], sort_keys=True) for i in live]
    if len(set(keys)) != len(keys):
        fail(path, "two reasons are the same")
sys.exit(bad)
