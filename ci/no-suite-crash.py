"""Fails a run whose report has a case that crashed in the suite's own code
(its crash_site says "in": "suite": CONFORMANCE.md, "Verdicts"): such a
case judged nothing of the library and is a defect of the suite, whatever
an expectations file says of the case.  Each is printed with where it
crashed.
    python3 ci/no-suite-crash.py REPORT.json
"""
import json
import sys

report = json.load(open(sys.argv[1]))
suite_crashes = [c for c in report["cases"] if c.get("crash_site", {}).get("in") == "suite"]
for case in suite_crashes:
    print("the suite crashed in its own code:", case["id"] + ":", case["message"])
sys.exit(1 if suite_crashes else 0)
