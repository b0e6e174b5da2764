#!/bin/sh
# The self-test on cuda (test_broken_implementations --device cuda) where
# this machine has no CUDA GPU has tested nothing: it must exit 77 with
# "not run: no cuda device (the probe's reason)", never 0, so that
# ci/gpu-session.sh lists the step as not run.  Where a CUDA GPU is, the
# same run must run the twin and pass.  adc-conform tells which: its one
# case on cuda ends not_supported (exit 3) exactly where the probe fails.
# Usage: self_test_without_device.sh ADC_CONFORM TEST_BROKEN_IMPLEMENTATIONS
conform=$1
self_test=$2
"$conform" --producer reference --device cuda --filter 'cuda/array.release.sets_null/int32_nulls' \
  --jobs 1 >/dev/null 2>&1
probe=$?
out=$("$self_test" --device cuda --own-rule producer_wrong_value 2>&1)
status=$?
echo "$out"
if [ "$probe" -eq 3 ]; then
  echo "no CUDA GPU here (adc-conform exit 3): expecting exit 77, got $status"
  [ "$status" -eq 77 ] && echo "$out" | grep -q '^not run: no cuda device (.*)$'
else
  echo "adc-conform exit $probe on cuda: expecting the self-test to run and pass, got $status"
  [ "$probe" -eq 0 ] && [ "$status" -eq 0 ]
fi
