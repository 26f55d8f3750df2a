#!/usr/bin/env python3
"""Fails on a figure without a provenance word in generated sheets.

Usage: provenance_scan.py [--user FILE]... FILE...  (decision JSON,
Markdown, HTML sheets and CI summaries). Each --user file is a workload
(JSON) or a catalog (XML) whose own strings (titles, descriptions, notes,
sources) are user text: it is taken out of a line before the line is
checked, since the tool does not label the words of its users. A golden file would accept a regression that drops a
provenance word everywhere at once; this scan would not.

Rules (see the issue "Verdicts that rest only on evidence", item 6):
  - JSON: every object with "bytes" has "provenance" (calculated, observed
    or assumed); a known "margin_bytes" has a "margin_provenance"; a known
    "total_cost" has a "provenance".
  - Markdown and HTML: every table row of a table whose header names a size
    unit or a byte count, and every other line, list item or paragraph that
    holds a size in GB or GiB, also holds a provenance word (or says the
    value is missing). The workload's own notes (user text) are not scanned.
"""
import html.parser
import json
import re
import sys

PROV = re.compile(r"calculated|observed|assumed|missing|calculad|observad|supuest|falta")
SIZE = re.compile(r"\d[\d,.\u00a0\u202f]*\s?(GiB|GB)\b")
SIZED_HEADER = re.compile(r"GiB|GB|[Bb]ytes|Capacity|Capacidad|Peak|Pico|allocator|asignador")
NOTES = re.compile(r"^#+ (Notes|Notas)\b")
fails = []


def fail(path, where, text):
    fails.append(f"{path}: {where}: no provenance word: {text[:160]}")


def scan_json(path):
    def walk(v, where):
        if isinstance(v, dict):
            if "bytes" in v and v.get("provenance") not in ("calculated", "observed", "assumed"):
                fail(path, where, json.dumps(v)[:160])
            if v.get("margin_bytes") is not None and v.get("margin_provenance") is None:
                fail(path, where + ".margin_bytes", str(v.get("margin_bytes")))
            if isinstance(v.get("total_cost"), dict) and "provenance" not in v["total_cost"]:
                fail(path, where + ".total_cost", json.dumps(v["total_cost"]))
            for k, x in v.items():
                walk(x, f"{where}.{k}")
        elif isinstance(v, list):
            for i, x in enumerate(v):
                walk(x, f"{where}[{i}]")
    walk(json.load(open(path, encoding="utf-8")), "$")


USER = []


def load_user(path):
    out = []
    if path.endswith(".xml"):
        import xml.etree.ElementTree as ET
        for el in ET.parse(path).iter():
            out += [v for v in el.attrib.values()]
            if el.text and el.text.strip():
                out.append(el.text.strip())
    else:
        def walk(v):
            if isinstance(v, str):
                out.append(v)
            elif isinstance(v, dict):
                for x in v.values():
                    walk(x)
            elif isinstance(v, list):
                for x in v:
                    walk(x)
        walk(json.load(open(path, encoding="utf-8")))
    # longest first, so that a string inside another is taken out after it
    USER.extend(sorted((x for x in out if len(x) > 3 and SIZE.search(x)), key=len, reverse=True))


def check_block(path, where, text, sized):
    text = text.replace("\\", "")
    for u in USER:
        text = text.replace(u, " ")
    if (sized or SIZE.search(text)) and not PROV.search(text):
        fail(path, where, text)


def scan_md(path):
    header_sized = False
    prev_blank = True
    for n, line in enumerate(open(path, encoding="utf-8"), 1):
        if NOTES.match(line):
            break
        if line.startswith("|"):
            if re.match(r"^\|( --- \|)+\s*$", line):
                continue
            if not header_sized and prev_blank:
                header_sized = bool(SIZED_HEADER.search(line))
                prev_blank = False
                continue
            check_block(path, f"line {n}", line.strip(), header_sized)
        else:
            header_sized = False
            check_block(path, f"line {n}", line.strip(), False)
        prev_blank = not line.startswith("|")
    return


class _Html(html.parser.HTMLParser):
    BLOCKS = ("tr", "li", "p", "caption", "h1", "h2", "h3")

    def __init__(self, path):
        super().__init__()
        self.path = path
        self.stack = []       # open blocks: [tag, text]
        self.sized = False    # header of the current table
        self.in_notes = False
        self.in_head = False

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self.sized = False
        if tag == "thead":
            self.in_head = True
        if tag in self.BLOCKS:
            self.stack.append([tag, ""])

    def handle_endtag(self, tag):
        if tag == "thead":
            self.in_head = False
        if tag in self.BLOCKS and self.stack and self.stack[-1][0] == tag:
            t, text = self.stack.pop()
            if self.stack:
                self.stack[-1][1] += " " + text
            if t == "h2" and NOTES.match("## " + text.strip()):
                self.in_notes = True
            if self.in_notes:
                return
            if t == "tr" and self.in_head:
                self.sized = bool(SIZED_HEADER.search(text))
            elif t == "tr":
                check_block(self.path, f"<tr> line {self.getpos()[0]}", " ".join(text.split()), self.sized)
            elif t in ("li", "p") and not self.stack:
                check_block(self.path, f"<{t}> line {self.getpos()[0]}", " ".join(text.split()), False)

    def handle_data(self, data):
        if self.stack:
            self.stack[-1][1] += data


def scan_html(path):
    p = _Html(path)
    p.feed(open(path, encoding="utf-8").read())


args = sys.argv[1:]
while len(args) >= 2 and args[0] == "--user":
    load_user(args[1])
    args = args[2:]
for f in args:
    if f.endswith(".json"):
        scan_json(f)
    elif f.endswith(".md"):
        scan_md(f)
    elif f.endswith(".html"):
        scan_html(f)
for x in fails:
    print("FAIL: " + x)
sys.exit(1 if fails else 0)
