#!/bin/bash
# The second device call of this run, kept as it ran (from the checkout's
# root, as ./gpu-call2.sh, with .gpu-bundle carried): the host-function
# thread started with the device, and nanoarrow's "unspecified launch
# failure" by concurrency.
set -u
cd "$(dirname "$0")"
bundle=.gpu-bundle
built_at=$(cat $bundle/built-at)
[ "$built_at" != "$PWD" ] && [ ! -e "$built_at" ] && mkdir -p "$(dirname "$built_at")" && ln -s "$PWD" "$built_at"
build=$(cat $bundle/build-dir); mkdir -p "$(dirname "$build")"; [ -e "$build" ] || ln -s "$PWD/$bundle/default" "$build"
export LD_LIBRARY_PATH=$PWD/$bundle/lib
C=$build/adc-conform; A=$build/libadc_nanoarrow.so; o=$OUT
count() { python3 - "$1" <<'PY'
import json, sys, collections
d = json.load(open(sys.argv[1]))
s = collections.Counter(c["status"] for c in d["cases"])
lb = collections.Counter(c.get("left_behind", "") for c in d["cases"] if c.get("left_behind"))
ulf = sum("unspecified launch failure" in json.dumps(c) for c in d["cases"])
print(sys.argv[1].split("/")[-1], dict(s), "shared_attempt:", sum("shared_attempt" in c for c in d["cases"]),
      "launch-failure cases:", ulf, "left_behind:", dict(lb.most_common(3)))
PY
}
SECONDS=0
timeout 30 $C --producer reference --consumer reference --device cuda --filter 'cuda/consumer.*sync_event*' --report-json $o/threads.json > $o/threads.log 2>&1; echo "threads exit $? at $SECONDS s"; count $o/threads.json
timeout 110 $build/test_reference_pair > $o/test_reference_pair.log 2>&1; echo "test_reference_pair exit $? at $SECONDS s"; grep -E "Checks|:F:|:E:" $o/test_reference_pair.log | head
run=($C --producer $A --consumer $A --prefix nanoarrow --device cuda --filter 'cuda/device_array.*' --expect interop/nanoarrow/expectations.txt)
for j in 16 8 4 2; do timeout 40 "${run[@]}" --jobs $j --report-json $o/na-jobs-$j.json > $o/na-jobs-$j.log 2>&1; echo "jobs $j exit $? at $SECONDS s"; count $o/na-jobs-$j.json; done
CUDA_LAUNCH_BLOCKING=1 timeout 40 "${run[@]}" --report-json $o/na-blocking.json > $o/na-blocking.log 2>&1; echo "blocking exit $? at $SECONDS s"; count $o/na-blocking.json
timeout 40 "${run[@]}" --isolation case --report-json $o/na-case.json > $o/na-case.log 2>&1; echo "isolation case exit $? at $SECONDS s"; count $o/na-case.json
