#!/usr/bin/env python3
"""Writes the seed corpus of tests/fuzz/fuzz_round_trip (its corpus folder,
tests/fuzz/corpus/fuzz_round_trip/seed_*): deterministic, standard library
only.  The regression_* inputs beside the seeds are kept.

An input is read as a stream of choices (tests/fuzz/fuzz_bytes.h): its first
byte picks the number of fields (0: one), its second the first field's row
of the type table (taken modulo the table's rows).  Seed k < 64 starts with
0, k, so that every row of a table of up to 64 rows is drawn at the top;
seeds 64 and up start with any byte (up to four fields).  A few hundred
bytes from a generator seeded with the seed's number follow: children,
parameters, lengths and values.

    python3 tests/fuzz/make_round_trip_seeds.py
    python3 tests/fuzz/make_round_trip_seeds.py --check build/default/fuzz_round_trip

--check writes nothing: it replays the corpus through the target with
FUZZ_ROUND_TRIP_PRINT=1 and says which shapes the files written reach
(every type at the top and below, a dictionary inside a list and inside a
union, a union with a view member, views over 20 variadic buffers or more,
long and empty batches, several batches); it exits 1 when one is missing.
"""

import json
import os
import random
import subprocess
import sys

TOP_ROW_SEEDS = 64
MORE_SEEDS = 12
FOLDER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus", "fuzz_round_trip")


def write():
    os.makedirs(FOLDER, exist_ok=True)
    for k in range(TOP_ROW_SEEDS + MORE_SEEDS):
        rng = random.Random("fuzz_round_trip/%d" % k)
        head = bytes([0, k]) if k < TOP_ROW_SEEDS else bytes([rng.randrange(256)])
        tail = bytes(rng.randrange(256) for _ in range(rng.randint(200, 700)))
        with open(os.path.join(FOLDER, "seed_%02d" % k), "wb") as out:
            out.write(head + tail)


def shapes_of(field, parents, found):
    name = field["type"]["name"]
    found.add("type " + name)
    if "dictionary" in field:
        for parent in parents:
            found.add("dictionary inside " + parent)
    if name == "union":
        for child in field["children"]:
            if child["type"]["name"].endswith("view"):
                found.add("union of views")
    for child in field.get("children", []):
        shapes_of(child, parents + [name], found)


def check(binary):
    environment = dict(os.environ, FUZZ_ROUND_TRIP_PRINT="1")
    run = subprocess.run([binary, FOLDER], env=environment, capture_output=True, text=True, check=True)
    found = set()
    for line in run.stderr.splitlines():
        if not line.startswith("{"):
            continue
        document = json.loads(line)
        for field in document["schema"]["fields"]:
            shapes_of(field, [], found)
        batches = document["batches"]
        found.update("several batches" for _ in batches[1:])
        for batch in batches:
            found.update(["long batch"] if batch["count"] >= 100 else ["empty batch"] if batch["count"] == 0 else [])
        found.update("20 variadic buffers or more" for _ in range(line.count('"VARIADIC_DATA_BUFFERS"'))
                     if any(len(b.split(",")) >= 20 for b in line.split('"VARIADIC_DATA_BUFFERS": [')[1:]))
    wanted = {"dictionary inside list", "dictionary inside union", "union of views", "20 variadic buffers or more",
              "long batch", "empty batch", "several batches"}
    wanted |= {"type " + name for name in ("null", "bool", "int", "floatingpoint", "decimal", "date", "time",
                                           "timestamp", "duration", "interval", "binary", "largebinary", "utf8",
                                           "largeutf8", "fixedsizebinary", "binaryview", "utf8view", "list",
                                           "largelist", "fixedsizelist", "listview", "largelistview", "struct",
                                           "map", "union", "runendencoded")}
    missing = sorted(wanted - found)
    print("reached: %s" % ", ".join(sorted(found)))
    if missing:
        print("missing: %s" % ", ".join(missing))
    return 1 if missing else 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["--check"]:
        sys.exit(check(sys.argv[2]))
    write()
