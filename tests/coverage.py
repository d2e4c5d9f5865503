#!/usr/bin/env python3
"""Line and branch coverage of dnnmem.h, per part, from gcov data.

usage: coverage.py HEADER GCDA_DIR [PART]

Every program of the suite compiled the header into its own object, so each
.gcda holds counts for the header's lines that this program contains. gcov
(gcc's, --json-format) reads each one; a line counts as covered when any
program ran it, a branch (line, index) when any program took it. Lines are
assigned to the part whose implementation marker ("/* ==== N. Title") comes
last before them (code above the first marker counts to part 1). Prints one
row per part and ends with "dnnmem.h: lines L%, branches B%"; with PART,
first lists that part's lines with code never run or a branch never taken.
"""
import glob
import json
import os
import re
import subprocess
import sys


def header_parts(header):
    """(first line, number, title) of each part's implementation."""
    marks = []
    with open(header, encoding="utf-8") as f:
        for i, text in enumerate(f, 1):
            m = re.match(r"/\* ==== (\d+)\. (.*?) =+ \*/", text)
            if m:
                marks.append((i, int(m.group(1)), m.group(2)))
    # the implementation repeats the markers after the declarations: keep the
    # last run of 1..8 (each number's last occurrence)
    last = {}
    for line, num, title in marks:
        last[num] = (line, num, title)
    return sorted(last.values())


def part_of(line, parts):
    num = parts[0][1]
    for start, n, _ in parts:
        if line >= start:
            num = n
    return num


def gcov_json(gcda):
    out = subprocess.run(["gcov", "--json-format", "--stdout", "--branch-probabilities", os.path.abspath(gcda)],
                         cwd=os.path.dirname(gcda) or ".", capture_output=True, text=True)
    for chunk in out.stdout.splitlines():
        chunk = chunk.strip()
        if chunk.startswith("{"):
            yield json.loads(chunk)


def main():
    header, directory = sys.argv[1], sys.argv[2]
    base = os.path.basename(header)
    lines, branches = {}, {}  # line -> covered; (line, index) -> taken
    for gcda in sorted(glob.glob(os.path.join(directory, "**", "*.gcda"), recursive=True)):
        for data in gcov_json(gcda):
            for f in data.get("files", []):
                if os.path.basename(f["file"]) != base:
                    continue
                for ln in f["lines"]:
                    n = ln["line_number"]
                    lines[n] = lines.get(n, False) or ln["count"] > 0
                    for k, b in enumerate(ln.get("branches", [])):
                        if b.get("throw"):
                            continue
                        branches[(n, k)] = branches.get((n, k), False) or b["count"] > 0
    if not lines:
        print("coverage.py: no gcov data for %s under %s" % (base, directory))
        return 1
    parts = header_parts(header)
    if len(sys.argv) > 3:
        want = int(sys.argv[3])
        with open(header, encoding="utf-8") as f:
            text = f.read().splitlines()
        for n in sorted(lines):
            if part_of(n, parts) != want:
                continue
            missed = [k for (m, k), hit in branches.items() if m == n and not hit]
            if not lines[n] or missed:
                what = "never run" if not lines[n] else "branches %s never taken" % missed
                print("%6d  %-28s %s" % (n, what[:28], text[n - 1].strip()[:70]))
    rows = {num: [title, 0, 0, 0, 0] for _, num, title in parts}
    for n, hit in lines.items():
        row = rows[part_of(n, parts)]
        row[1] += 1
        row[2] += hit
    for (n, _), hit in branches.items():
        row = rows[part_of(n, parts)]
        row[3] += 1
        row[4] += hit

    def pct(hit, total):
        return 100.0 * hit / total if total else 100.0

    print("| part | lines | covered | branches | taken |")
    print("|---|---|---|---|---|")
    for num in sorted(rows):
        title, nl, hl, nb, hb = rows[num]
        print("| %d. %s | %d | %.1f%% | %d | %.1f%% |" % (num, title, nl, pct(hl, nl), nb, pct(hb, nb)))
    total_l = sum(r[1] for r in rows.values())
    hit_l = sum(r[2] for r in rows.values())
    total_b = sum(r[3] for r in rows.values())
    hit_b = sum(r[4] for r in rows.values())
    print("branches: %d, never taken: %d" % (total_b, total_b - hit_b))
    print("%s: lines %.1f%%, branches %.1f%%" % (base, pct(hit_l, total_l), pct(hit_b, total_b)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
