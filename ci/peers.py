"""Reads interop/peers.tsv, the one table of the peers (its header says
what each column holds), for the scripts derived from it.

    python3 ci/peers.py names                 every peer's name, one a line
    python3 ci/peers.py get NAME COLUMN       one cell ("-" when empty)
    python3 ci/peers.py roles NAME            the roles it is judged in, one a line
    python3 ci/peers.py packages              every pinned package, once each
    python3 ci/peers.py matrix BUILD DEVICES  the peers judged on every device of DEVICES
                                              (comma-separated) in a role, as
                                              adc-conform matrix's arguments, one a line:
                                              --library=NAME=SPEC, and --ROLE-devices=NAME=LIST
                                              for a role judged on some of DEVICES alone

A malformed table, an unknown peer or column, or two peers pinning one
package to different versions is one error line and exit status 2.
"""
import os
import sys

TABLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "interop", "peers.tsv")
ROLES = ("producer", "consumer")


def fail(message):
    print(f"interop/peers.tsv: {message}", file=sys.stderr)
    sys.exit(2)


def read_table(path=TABLE):
    """The rows, each a dict of the header's columns, in the table's order."""
    header, rows = None, []
    with open(path, encoding="utf-8") as table:
        for number, line in enumerate(table, 1):
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            cells = line.split("\t")
            if header is None:
                header = cells
                continue
            if len(cells) != len(header):
                fail(f"line {number} has {len(cells)} columns, the header {len(header)}")
            row = dict(zip(header, cells))
            if any(row.get(f"{role}_devices", "-") == "-" and row.get(role, "-") != "-" for role in ROLES):
                fail(f"line {number}: a role judged needs its devices")
            rows.append(row)
    if header is None:
        fail("no header row")
    return rows


def find(rows, name):
    for row in rows:
        if row["name"] == name:
            return row
    fail(f"no peer named '{name}' (the peers: {', '.join(r['name'] for r in rows)})")


def pinned_packages(rows):
    """Every package once, in the table's order; a package pinned twice differently is an error."""
    pins = {}
    for row in rows:
        for requirement in row["packages"].split():
            if requirement == "-":
                continue
            package, _, version = requirement.partition("==")
            if not version:
                fail(f"{row['name']}: '{requirement}' is not pinned (PACKAGE==VERSION)")
            if pins.setdefault(package, requirement) != requirement:
                fail(f"{package} is pinned as {pins[package]} and as {requirement}")
    return list(pins.values())


def matrix_library(row, build):
    """--library NAME=SPEC of adc-conform matrix for a peer: its built library
    and prefix, or its Python module's factory and consumer function."""
    producer, consumer = row["producer"], row["consumer"]
    if producer.startswith("python:") or consumer.startswith("python:"):
        module = (producer if producer != "-" else consumer).split(":")[1]
        factory = producer.split(":")[2] if producer != "-" else ""
        function = consumer.split(":")[2] if consumer != "-" else ""
        for side in (producer, consumer):
            if side != "-" and side.split(":")[1] != module:
                fail(f"{row['name']}: its producer and consumer are in different modules")
        return f"{row['name']}=python:{module}:{factory}" + (f":{function}" if function else "")
    library = producer if producer != "-" else consumer
    if "-" not in (producer, consumer) and producer != consumer:
        fail(f"{row['name']}: its producer and consumer are different libraries")
    prefix = f":{row['prefix']}" if row["prefix"] != "-" else ""
    return f"{row['name']}={os.path.join(build, library)}{prefix}"


def matrix_arguments(row, build, devices):
    """adc-conform matrix's arguments for a peer, each one --OPTION=VALUE:
    its --library, and for a role judged on some of DEVICES alone, the
    --ROLE-devices that says which."""
    arguments = [f"--library={matrix_library(row, build)}"]
    for role in ROLES:
        if row[role] == "-":
            continue
        judged = [device for device in devices if device in row[f"{role}_devices"].split(",")]
        if not judged:
            fail(f"{row['name']}: its {role} is judged on none of {','.join(devices)}")
        if judged != devices:
            arguments.append(f"--{role}-devices={row['name']}={','.join(judged)}")
    return arguments


def judged_on(row, devices):
    return any(row[role] != "-" and set(devices) <= set(row[f"{role}_devices"].split(",")) for role in ROLES)


def main(argv):
    rows = read_table()
    if argv[:1] == ["names"] and len(argv) == 1:
        print("\n".join(row["name"] for row in rows))
    elif argv[:1] == ["get"] and len(argv) == 3:
        row = find(rows, argv[1])
        if argv[2] not in row:
            fail(f"no column '{argv[2]}' (the columns: {', '.join(row)})")
        print(row[argv[2]])
    elif argv[:1] == ["roles"] and len(argv) == 2:
        row = find(rows, argv[1])
        print("\n".join(role for role in ROLES if row[role] != "-"))
    elif argv[:1] == ["matrix"] and len(argv) == 3:
        devices = argv[2].split(",")
        for row in rows:
            if judged_on(row, devices):
                print("\n".join(matrix_arguments(row, argv[1], devices)))
    elif argv == ["packages"]:
        print("\n".join(pinned_packages(rows)))
    else:
        print("usage:\n" + __doc__.strip().split("\n\n")[1], file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
