"""Checks an interop matrix's report (adc-conform matrix --report-json)
against what is committed of it: the expected grid, exactly (each pair's
worst status, passed and total cases on each device, counted over the cases
whose entry does not let them end more than one way, and how many do), and
that every case
that found something wrong (fail, crash, timeout, unresolved, warning) is
matched by an entry of the expectations, which names its finding (the
report holds each case's entry; EXPECTATIONS names their files in messages).
A decline (not_supported) needs none: the spec lets a library decline.
    python3 ci/matrix-check.py REPORT.json CELLS.tsv EXPECTATIONS [--write]
With --write, CELLS.tsv is rewritten from the report instead.
"""
import json
import sys

HEADER = "# device\tproducer\tconsumer\tworst\tpassed\tcases\tunsettled"
# As harness/outcome/matrix_record.c ranks them: a cell shows its worst.
BADNESS = ["pass", "not_supported", "warning", "unresolved", "fail", "timeout", "crash"]


def unsettled(case):
    """A case its entry lets end more than one way (a race of the library's
    threads: "crash|pass"): its cell is compared without it."""
    return "|" in case["case"].get("expectation", {}).get("status", "")


def grid(report):
    """A line per cell of the report, in its order, counted over its settled
    cases: the worst status, how many passed, how many, and how many were
    left out as unsettled."""
    cells = {}
    for pair_case in report["cases"]:
        case = pair_case["case"]
        key = (case["device"], pair_case["producer"], pair_case["consumer"])
        cell = cells.setdefault(key, {"worst": "pass", "passed": 0, "cases": 0, "unsettled": 0})
        if unsettled(pair_case):
            cell["unsettled"] += 1
            continue
        cell["cases"] += 1
        cell["passed"] += case["status"] == "pass"
        if BADNESS.index(case["status"]) > BADNESS.index(cell["worst"]):
            cell["worst"] = case["status"]
    lines = []
    for c in report["matrix"]["cells"]:
        cell = cells.get((c["device"], c["producer"], c["consumer"]),
                         {"worst": "pass", "passed": 0, "cases": 0, "unsettled": 0})
        lines.append(f"{c['device']}\t{c['producer']}\t{c['consumer']}\t{cell['worst']}\t{cell['passed']}\t"
                     f"{cell['cases']}\t{cell['unsettled']}")
    return lines


def main(argv):
    if len(argv) not in (4, 5) or argv[4:] not in ([], ["--write"]):
        print(__doc__.strip().split("\n")[-2].strip(), file=sys.stderr)
        return 2
    report_path, cells_path, expectations = argv[1:4]
    report = json.load(open(report_path))
    rows = grid(report)
    if argv[4:] == ["--write"]:
        with open(cells_path, "w", encoding="utf-8") as out:
            out.write("# The expected interop matrix, written by ci/matrix-check.py --write from\n"
                      "# ci/peer-matrix.sh's report: a line per pair and device.\n")
            out.write(HEADER + "\n" + "\n".join(rows) + "\n")
        print(f"wrote {cells_path}: {len(rows)} cells")
        return 0
    with open(cells_path, encoding="utf-8") as committed:
        expected = [line.rstrip("\n") for line in committed if line.strip() and not line.startswith("#")]
    failed = False
    for line in sorted(set(expected) - set(rows)):
        print(f"{cells_path} has, the run has not: {line}")
        failed = True
    for line in sorted(set(rows) - set(expected)):
        print(f"the run has, {cells_path} has not: {line}")
        failed = True
    unlisted = [c for c in report["cases"]
                if c["case"]["status"] not in ("pass", "not_supported") and "expectation" not in c["case"]]
    for case in unlisted:
        print(f"not in {expectations}: {case['id']}: {case['case']['status']} [{case['blame']}]: "
              f"{case['case']['message'][:200]}")
        failed = True
    if not failed:
        print(f"the matrix is {cells_path}: {len(rows)} cells, {report['summary']['cases']} cases, "
              f"every disagreement named in {expectations}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
