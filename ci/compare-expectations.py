#!/usr/bin/env python3
"""Compares an adc-conform JSON report with an expectations file.

Each line of the file is `case-glob status reason` (the format of
adc-conform --expect; '#' lines and blank lines are skipped), and a case is
judged by the first entry whose glob (fnmatch, '*' crossing '/') matches its
ID.  Fails, naming each, on a case that does not pass and matches no entry,
a case that ends otherwise than its entry says (a pass included), an entry
matching no case, or an incomplete report.

    ci/compare-expectations.py REPORT.json EXPECTATIONS.txt
"""
import fnmatch
import json
import sys


def read_expectations(path):
    entries = []
    with open(path, encoding="utf-8") as file:
        for number, line in enumerate(file, 1):
            text = line.strip()
            if not text or text.startswith("#"):
                continue
            parts = text.split(None, 2)
            if len(parts) < 3 or parts[1] == "pass":
                sys.exit(f"{path}:{number}: expected 'case-glob status reason' with a status other than pass")
            entries.append({"glob": parts[0], "status": parts[1], "reason": parts[2], "line": number, "cases": 0})
    return entries


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    with open(sys.argv[1], encoding="utf-8") as file:
        report = json.load(file)
    entries = read_expectations(sys.argv[2])
    problems = []
    if not report["summary"].get("complete", False):
        problems.append("the report is incomplete")
    counts = {}
    for case in report["cases"]:
        entry = next((e for e in entries if fnmatch.fnmatchcase(case["id"], e["glob"])), None)
        status = case["status"]
        if entry is None:
            if status != "pass":
                problems.append(f"{case['id']}: {status} and not expected ({case.get('message', '')})")
            outcome = status
        else:
            entry["cases"] += 1
            if status == entry["status"]:
                outcome = "expected_" + status
            else:
                problems.append(f"{case['id']}: {status}, expected {entry['status']} "
                                f"(line {entry['line']}: {entry['reason']})")
                outcome = "unexpected_" + status
        key = (case["role"], outcome)
        counts[key] = counts.get(key, 0) + 1
    for entry in entries:
        if entry["cases"] == 0:
            problems.append(f"line {entry['line']}: '{entry['glob']}' matches no case")
    for (role, outcome), count in sorted(counts.items()):
        print(f"{role:9} {outcome:24} {count}")
    if problems:
        print(f"{len(problems)} difference(s) from {sys.argv[2]}:")
        for problem in problems:
            print("  " + problem)
        return 1
    print(f"as expected: every case matches {sys.argv[2]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
