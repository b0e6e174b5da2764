#!/usr/bin/env bash
# Prints the wall time of the complete CPU run against the reference pair
# (target: under 2 s on a 2-core machine).  Five runs; prints each and the
# median.  A benchmark, not a test: it never fails on a slow machine.
set -euo pipefail
conform="${1:-build/default/adc-conform}"
times=()
for _ in 1 2 3 4 5; do
  start=$(date +%s.%N)
  "$conform" --producer reference --consumer reference >/dev/null
  end=$(date +%s.%N)
  times+=("$(echo "$end - $start" | bc -l)")
done
sorted=$(printf '%s\n' "${times[@]}" | sort -n)
median=$(echo "$sorted" | sed -n 3p)
cases=$("$conform" --producer reference --consumer reference --list | wc -l)
printf 'benchmark: complete CPU run, reference pair, %d cases, %s jobs: ' "$cases" "$(nproc)"
printf '%.3f ' "${times[@]}"
printf 's; median %.3f s (target < 2 s)\n' "$median"
