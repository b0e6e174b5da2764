#!/usr/bin/env bash
# Runs the standalone reproductions of a peer's findings (interop/<peer>/repro)
# and checks that each still reproduces.  A reproduction exits 0 when the
# misbehaviour shows ("REPRODUCED Fn: ..."), 1 when the peer behaved as the
# spec asks ("NOT REPRODUCED Fn: ...": the peer fixed it), 2 on a setup error.
#   ci/check-reproductions.sh PEER PROGRAM...
set -uo pipefail
peer="${1:?usage: ci/check-reproductions.sh PEER PROGRAM...}"
shift
[ "$#" -gt 0 ] || { echo "no reproduction of $peer given"; exit 2; }
failed=0
for program in "$@"; do
  name="$(basename "$program")"
  echo "== $name"
  output="$(timeout 60 "$program" 2>&1)"
  status=$?
  printf '%s\n' "$output"
  # The finding's number, as the program's verdict line gives it.
  finding="$(grep -oE 'REPRODUCED [A-Z]+[0-9]+' <<<"$output" | head -n 1 | cut -d' ' -f2)"
  case "$status" in
    0) ;;
    1)
      echo "finding ${finding:-?} of $peer no longer reproduces ($name): the peer fixed it; retire ${finding:-it} from CONFORMANCE.md and interop/$peer/*-expectations.txt"
      failed=1
      ;;
    2) echo "$name failed to run: a setup error (exit status 2), so it says nothing of its finding"; failed=1 ;;
    124) echo "$name failed to run: it ran past 60 s"; failed=1 ;;
    *)
      if [ "$status" -gt 128 ]; then
        echo "$name failed to run: killed by signal SIG$(kill -l $((status - 128)) 2>/dev/null || echo $((status - 128)))"
      else
        echo "$name failed to run (exit status $status)"
      fi
      failed=1
      ;;
  esac
done
if [ "$failed" -ne 0 ]; then
  exit 1
fi
echo "every finding of $peer still reproduces ($# programs)"
