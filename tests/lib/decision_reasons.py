#!/usr/bin/env python3
"""Checks what the decision schema cannot say about "reasons" (schema 2).

Usage: decision_reasons.py FILE... ; exit 1 and one line per fault.
  - every candidate's requirements.NAME.why indexes a reason of the same
    requirement and the same verdict;
  - the reasons are distinct (no two equal objects) and each is used;
  - they are numbered in first-appearance order over the candidates (in
    their order) and the requirements (memory, software, calendar, budget,
    quality, host).
"""
import json
import sys

REQS = ["memory", "software", "calendar", "budget", "quality", "host"]
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
            v = cand["requirements"][name]
            i = v["why"]
            where = f"candidates[{ci}].requirements.{name}"
            if i >= len(reasons):
                fail(path, f"{where}.why = {i}: only {len(reasons)} reasons")
                continue
            if reasons[i]["requirement"] != name or reasons[i]["verdict"] != v["verdict"]:
                fail(path, f"{where}: reasons[{i}] is {reasons[i]['requirement']} "
                     f"{reasons[i]['verdict']}, not {name} {v['verdict']}")
            if i not in seen:
                if i != len(seen):
                    fail(path, f"{where}.why = {i}: expected {len(seen)} (first-appearance order)")
                seen.append(i)
    if len(seen) != len(reasons):
        fail(path, f"{len(reasons) - len(seen)} reasons used by no verdict")
    keys = [json.dumps(r, sort_keys=True) for r in reasons]
    if len(set(keys)) != len(keys):
        fail(path, "two reasons are the same")
sys.exit(bad)
