#!/usr/bin/env python3
"""Validates JSON files against a JSON Schema (draft 2020-12) with the
jsonschema library. Usage: validate_schema.py SCHEMA FILE... ; exit 1 and
one line per invalid file."""
import json
import sys

import jsonschema

schema = json.load(open(sys.argv[1], encoding="utf-8"))
validator = jsonschema.Draft202012Validator(schema)
bad = 0
for f in sys.argv[2:]:
    for e in validator.iter_errors(json.load(open(f, encoding="utf-8"))):
        print(f"FAIL: {f}: at {'/'.join(str(p) for p in e.absolute_path)}: {e.message[:200]}")
        bad = 1
        break
sys.exit(bad)
