#!/usr/bin/env python3
"""Checks what the decision schema cannot say about "reasons" (schemas 3 and 4).

Usage: decision_reasons.py FILE... ; exit 1 and one line per fault.
  - every candidate's requirements.NAME indexes a reason of the same
    requirement (the reason holds the verdict), and the candidate's status
    agrees with its reasons' verdicts (excluded: one exclude at least;
    retained: every one admissible or not required; a reference card's
    status is "reference", and only an excluded candidate is of class
    "excluded");
  - the reasons are distinct (no two equal objects) and each is used;
  - they are numbered in first-appearance order over the candidates (in
    their order) and the requirements (memory, software, calendar, budget,
    quality, host, regions, speed).
"""
import json
import sys

REQS = ["memory", "software", "calendar", "budget", "quality", "host", "regions", "speed"]
bad = 0


def fail(path, text):
    global bad
    print(f"FAIL: {path}: {text}")
    bad = 1


for path in sys.argv[1:]:
    doc = json.load(open(path, encoding="utf-8"))
    reasons = doc["reasons"]
    seen = []
    for ci, cand in enumerate(doc["candidates"]):
        for name in REQS:
            i = cand["requirements"][name]
            where = f"candidates[{ci}].requirements.{name}"
            if i >= len(reasons):
                fail(path, f"{where} = {i}: only {len(reasons)} reasons")
                continue
            if reasons[i]["requirement"] != name:
                fail(path, f"{where}: reasons[{i}] is of {reasons[i]['requirement']}, not {name}")
            if i not in seen:
                if i != len(seen):
                    fail(path, f"{where} = {i}: expected {len(seen)} (first-appearance order)")
                seen.append(i)
        verdicts = [reasons[cand["requirements"][n]]["verdict"] for n in REQS
                    if cand["requirements"][n] < len(reasons)]
        excluded = "exclude" in verdicts
        retained = all(v in ("admissible", "not_required") for v in verdicts)
        want = "excluded" if excluded else "retained" if retained else "preselected"
        # A reference card (no provider or no priced plan) is never retained
        # nor pre-selected, whatever its verdicts (schema 4).
        if cand.get("class") == "reference":
            want = "reference"
        elif cand.get("class") is not None and (cand["class"] == "excluded") != excluded:
            fail(path, f"candidates[{ci}]: class {cand['class']}, its reasons say {want}")
        if cand["status"] != want:
            fail(path, f"candidates[{ci}]: status {cand['status']}, its reasons say {want}")
    if len(seen) != len(reasons):
        fail(path, f"{len(reasons) - len(seen)} reasons used by no verdict")
    keys = [json.dumps(r, sort_keys=True) for r in reasons]
    if len(set(keys)) != len(keys):
        fail(path, "two reasons are the same")
sys.exit(bad)
