#!/usr/bin/env bash
# A peer judged twice, through the JSON ABI and through the round-trip ABI
# (CONFORMANCE.md, "The round-trip ABI"), and the two verdicts compared
# case by case: the peer NAME of interop/peers.tsv whose producer is a
# library built here, lib<X>.so, and its round-trip library
# lib<X>_round_trip.so, each run by adc-conform as producer and consumer on
# the peer's producer_devices, with the peer's prefix.  Every case must end
# with the same status both ways, except those that
# interop/NAME/round-trip-differences.txt lists (optional; one
# `case-glob reason` a line, '#' comments): a difference there is one whose
# cause is known, said in its reason.  Prints a summary (at most 20 lines:
# the counts, then every difference not listed, with both messages, then the
# listed ones by reason) and keeps both reports in BUILD_DIR
# (round-trip-NAME-json.json, round-trip-NAME-round-trip.json).
# Exit status: 0 when every case ends the same or as listed; 1 when one does
# not; 2 on bad input (an unknown peer, a peer with no built library, a
# line with no reason, a run that gave no report); 77 (skipped, saying so)
# when the build has not both libraries.
#   ci/round-trip-compare.sh BUILD_DIR NAME
set -euo pipefail
if [ $# -ne 2 ]; then
  echo "usage: ci/round-trip-compare.sh BUILD_DIR NAME" >&2
  exit 2
fi
build_dir="$(realpath -m "$1")" name="$2"
cd "$(dirname "$0")/.."
library="$(python3 ci/peers.py get "$name" producer)"
prefix="$(python3 ci/peers.py get "$name" prefix)"
devices="$(python3 ci/peers.py get "$name" producer_devices)"
case "$library" in
  lib*.so) ;;
  *)
    echo "ci/round-trip-compare.sh: $name's producer is '$library', not a library built here (lib*.so)" >&2
    exit 2
    ;;
esac
round_trip="${library%.so}_round_trip.so"
for built in "$library" "$round_trip"; do
  if ! [ -f "$build_dir/$built" ]; then
    echo "skipped: this build has no $built"
    exit 77
  fi
done

# One judgment of LIBRARY as producer and consumer into REPORT (its console
# output beside it, REPORT.txt).  adc-conform's own exit status is the
# library's verdict (0, 1 or 3), which is not what is judged here; any
# other (bad input, a signal) leaves nothing to compare.  GITHUB_ACTIONS is
# cleared so that these verdicts make no annotations of their own.
judge() {
  local judged="$1" report="$2" status=0
  # Twice the default jobs: through the round trip a library whose data
  # differ on the simulated device (nanoarrow's N2, N7, N8) has a hundred
  # cases wait out the 1 s watch for late data asleep, which the default
  # jobs run a few at a time (nanoarrow: 65 s, 25 s so; the same statuses).
  local jobs=$((2 * ($(nproc) + 1)))
  local run=("$build_dir/adc-conform" --producer "$build_dir/$judged" --consumer "$build_dir/$judged"
    --device "$devices" --jobs "$jobs" --report-json "$report")
  [ "$prefix" = - ] || run+=(--prefix "$prefix")
  rm -f "$report"
  GITHUB_ACTIONS='' "${run[@]}" >"$report.txt" 2>&1 || status=$?
  if [ "$status" -ne 0 ] && [ "$status" -ne 1 ] && [ "$status" -ne 3 ] || ! [ -f "$report" ]; then
    echo "ci/round-trip-compare.sh: adc-conform on $judged exited $status without a report to compare:" >&2
    tail -n 5 "$report.txt" >&2
    exit 2
  fi
}
json_report="$build_dir/round-trip-$name-json.json"
round_trip_report="$build_dir/round-trip-$name-round-trip.json"
judge "$library" "$json_report"
judge "$round_trip" "$round_trip_report"

python3 - "$json_report" "$round_trip_report" "interop/$name/round-trip-differences.txt" \
  "$name" "$library" "$round_trip" "$devices" <<'EOF'
import fnmatch
import json
import os
import sys

json_path, round_trip_path, listing_path, name, library, round_trip, devices = sys.argv[1:]
MAX_LINES = 20
MESSAGE_CHARS = 160


def cases(path):
    with open(path, encoding="utf-8") as report:
        return {case["id"]: case for case in json.load(report)["cases"]}


def listing(path):
    """(glob, reason) pairs, in the file's order; a line without a reason is bad input."""
    entries = []
    if not os.path.exists(path):
        return entries
    with open(path, encoding="utf-8") as listed:
        for number, line in enumerate(listed, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            parts = line.split(None, 1)
            if len(parts) < 2 or not parts[1].strip():
                print(f"{path}:{number}: '{parts[0]}' has no reason; every listed difference needs one",
                      file=sys.stderr)
                sys.exit(2)
            entries.append((parts[0], parts[1].strip()))
    return entries


def said(case):
    if case is None:
        return "absent"
    message = " ".join(case.get("message", "").split())
    if len(message) > MESSAGE_CHARS:
        message = message[: MESSAGE_CHARS - 3] + "..."
    return f"{case['status']} ({message})" if message else case["status"]


by_json, by_round_trip = cases(json_path), cases(round_trip_path)
entries = listing(listing_path)
ids = sorted(set(by_json) | set(by_round_trip))
different = [i for i in ids if (by_json.get(i) or {}).get("status") != (by_round_trip.get(i) or {}).get("status")]
unlisted, reasons, matched = [], {}, set()
for case_id in different:
    entry = next((e for e in entries if fnmatch.fnmatchcase(case_id, e[0])), None)
    if entry is None:
        unlisted.append(case_id)
    else:
        matched.add(entry)
        reasons.setdefault(entry[1], []).append(case_id)

lines = [
    f"{name}: {len(ids)} cases compared on {devices}, {library} (JSON ABI) and {round_trip} "
    f"(round-trip ABI): {len(ids) - len(different)} same, {len(different)} different "
    f"({len(different) - len(unlisted)} listed in {listing_path}, {len(unlisted)} not)"
]
if entries and len(matched) < len(entries):
    lines.append(f"  {len(entries) - len(matched)} of the {len(entries)} listed entries matched no difference this run")
for case_id in unlisted:
    lines.append(f"  NOT LISTED {case_id}: JSON ABI {said(by_json.get(case_id))}"
                 f" | round trip {said(by_round_trip.get(case_id))}")
for reason, listed in sorted(reasons.items(), key=lambda item: -len(item[1])):
    lines.append(f"  listed, {len(listed)} case(s), e.g. {listed[0]}: {reason}")
if len(lines) > MAX_LINES:
    hidden = len(lines) - (MAX_LINES - 1)
    lines = lines[: MAX_LINES - 1] + [f"  ... {hidden} more line(s): the reports are {json_path} and {round_trip_path}"]
print("\n".join(lines))
sys.exit(1 if unlisted else 0)
EOF
