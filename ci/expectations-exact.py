"""Checks a peer's report against its expectations file exactly, beyond what
adc-conform --expect checks: every case that did not pass (a SHOULD's
warning and not_supported included) must be matched by an entry, and every
entry must match a case of the devices the run judged (an entry for another
device, such as cuda, is a GPU run's to judge).
    python3 ci/expectations-exact.py REPORT.json EXPECTATIONS DEVICE...
"""
import json
import sys

report_path, expectations, judged_here = sys.argv[1], sys.argv[2], tuple(sys.argv[3:])
report = json.load(open(report_path))
unlisted = [c["id"] + ": " + c["status"] for c in report["cases"]
            if c["status"] != "pass" and "expectation" not in c]
unmatched = [entry for entry in report["summary"].get("unmatched_expectations", [])
             if entry["glob"].split("/")[0] in judged_here or "*" in entry["glob"].split("/")[0]]
for line in unlisted:
    print(f"not in {expectations}:", line)
for entry in unmatched:
    print("matches no case:", json.dumps(entry))
sys.exit(1 if unlisted or unmatched else 0)
