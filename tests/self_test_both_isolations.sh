#!/bin/sh
# The self-test's table (every twin, on DEVICE) is the same whether the
# cases run in prepared processes or each in a process of its own
# (CONFORMANCE.md, "Prepared processes": a prepared process never changes
# a verdict).  Usage: self_test_both_isolations.sh TEST_BROKEN_IMPLEMENTATIONS DEVICE
self_test=$1
device=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
for isolation in shared case; do
  "$self_test" --device "$device" --isolation "$isolation" >"$dir/$isolation.out" 2>&1 || {
    cat "$dir/$isolation.out"
    echo "the self-test on $device failed with --isolation $isolation"
    exit 1
  }
  grep '^| ' "$dir/$isolation.out" >"$dir/$isolation.table"
done
if ! diff "$dir/shared.table" "$dir/case.table"; then
  echo "the self-test's table on $device differs between --isolation shared (<) and case (>)"
  exit 1
fi
echo "the self-test's table on $device: $(wc -l <"$dir/case.table") rows, the same in both isolations"
