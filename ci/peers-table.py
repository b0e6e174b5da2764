"""README's table of the peers, made from their reports, never by hand.

    python3 ci/peers-table.py --write BUILD_DIR   rewrite the table in README.md
    python3 ci/peers-table.py --check BUILD_DIR   exit 1 where README.md's table differs

A row per peer and role of interop/peers.tsv, from the report its test
wrote (BUILD_DIR/peer-<name>-<role>.json, ci/peer-conformance.sh): the
devices, the side's verdict, the cases, and the findings its expectations
name (each entry's reason starts with the finding's number, "F1: ...").
Only what every run of an unchanged suite and peer repeats is shown: a
case whose status varies from run to run (an entry `fail|pass`) moves no
figure of the table.  Where a report is missing (a peer this build cannot
judge) --check is skipped (exit 77), saying which; --write refuses.
"""
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import peers  # noqa: E402  (ci/peers.py, the table's reader)

README = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "README.md")
BEGIN = "<!-- peers table: made by ci/peers-table.py --write from the peers' reports -->"
END = "<!-- end of the peers table -->"
VERDICTS = {"conforms": "conforms", "does_not_conform": "**does not conform**",
            "not_shown": "not shown to conform", "not_tested": "not tested"}
FINDING = re.compile(r"^([A-Z]+[0-9]+):")


def finding_order(finding):
    letters, number = re.match(r"([A-Z]+)([0-9]+)", finding).groups()
    return letters, int(number)


def row_of(peer, role, report):
    side = report["summary"]["sides"][role]
    findings = set()
    for case in report["cases"]:
        match = FINDING.match(case.get("expectation", {}).get("reason", ""))
        if match:
            findings.add(match.group(1))
    devices = peer[f"{role}_devices"].replace(",", ", ")
    return (f"| {peer['library']} | {role} | {devices} | {VERDICTS.get(side['verdict'], side['verdict'])} "
            f"| {report['summary']['cases']} | {', '.join(sorted(findings, key=finding_order)) or 'none'} |")


def make_table(build_dir):
    """The table's lines, or the reports that are missing."""
    lines = ["| Library | Role | Devices | Verdict | Cases | Findings |", "|---|---|---|---|---|---|"]
    missing = []
    for peer in peers.read_table():
        for role in peers.ROLES:
            if peer[role] == "-":
                continue
            path = os.path.join(build_dir, f"peer-{peer['name']}-{role}.json")
            if not os.path.exists(path):
                missing.append(path)
                continue
            lines.append(row_of(peer, role, json.load(open(path))))
    return lines, missing


def main(argv):
    if len(argv) != 2 or argv[0] not in ("--write", "--check"):
        print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
        return 2
    mode, build_dir = argv
    text = open(README, encoding="utf-8").read()
    if BEGIN not in text or END not in text:
        print(f"README.md has no peers table between '{BEGIN}' and '{END}'", file=sys.stderr)
        return 2
    lines, missing = make_table(build_dir)
    if missing:
        print(f"{'skipped' if mode == '--check' else 'cannot write'}: no report {', '.join(missing)} "
              "(its peer's test, ci/peer-conformance.sh, writes it)")
        return 77 if mode == "--check" else 2
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    made = head + BEGIN + "\n" + "\n".join(lines) + "\n" + END + tail
    if mode == "--write":
        open(README, "w", encoding="utf-8").write(made)
        return 0
    if made != text:
        current = rest.split(END, 1)[0].strip().splitlines()
        for line in sorted(set(current) ^ set(lines)):
            print(("README has:  " if line in current else "reports say: ") + line)
        print(f"README.md's peers table is not the one the reports make: ci/peers-table.py --write {build_dir}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
