#!/usr/bin/env bash
# Unpacks nanoarrow's C sources into BUILD_DIR/nanoarrow-source, from PyPI's
# source distribution (sdist) of the `nanoarrow` Python package, which carries the
# whole C tree under subprojects/arrow-nanoarrow/.  interop/nanoarrow builds
# nanoarrow's own C Data integration library and our device adapter from it.
# The version is the one interop/peers.tsv pins for the nanoarrow peer (its
# expectations record what that version does: a new one is a deliberate
# change of both, and of the digest below, which is that version's sdist's).
#   ci/nanoarrow-source.sh build/default
set -euo pipefail
build_dir="$(realpath -m "${1:?usage: ci/nanoarrow-source.sh BUILD_DIR}")"
cd "$(dirname "$0")/.."
version="$(python3 ci/peers.py get nanoarrow packages)"
version="${version#nanoarrow==}"
sha256_of_0_9_0="1ce15bbed8532839347faa78824c5dbd3769bff60661003e34c6fba5dd881bd3"
if [ "$version" != 0.9.0 ]; then
  echo "ci/nanoarrow-source.sh: interop/peers.tsv pins nanoarrow $version; this script knows the digest of 0.9.0's sdist only" >&2
  exit 2
fi
sha256="$sha256_of_0_9_0"
source_dir="$build_dir/nanoarrow-source"
stamp="$source_dir/.version"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$version" ]; then
  exit 0
fi
download="$(mktemp -d)"
trap 'rm -rf "$download"' EXIT
archive="$download/nanoarrow-$version.tar.gz"
# From PyPI's simple index, checked against the pinned digest.  Not `pip
# download`: for an sdist it builds the package's metadata with meson in an
# isolated environment first, about 50 s here, for a file it then only copies.
python3 - "$version" "$sha256" "$archive" <<'PY'
import hashlib, os, re, sys, urllib.request
version, digest, archive = sys.argv[1:]
index = os.environ.get("PIP_INDEX_URL", "https://pypi.org/simple").rstrip("/")
try:
    page = urllib.request.urlopen(f"{index}/nanoarrow/", timeout=60).read().decode()
    links = re.findall(r'href="([^"]*/nanoarrow-' + re.escape(version) + r'\.tar\.gz)[#"]', page)
    if not links:
        sys.exit(f"{index}/nanoarrow/ lists no nanoarrow-{version}.tar.gz")
    data = urllib.request.urlopen(urllib.parse.urljoin(f"{index}/nanoarrow/", links[0]), timeout=120).read()
except OSError as failure:  # no network, no index: one line, not a traceback
    sys.exit(f"cannot download nanoarrow-{version}.tar.gz from {index}: {failure}")
if hashlib.sha256(data).hexdigest() != digest:
    sys.exit(f"nanoarrow-{version}.tar.gz from {links[0]} does not have the pinned sha256 {digest}")
open(archive, "wb").write(data)
PY
rm -rf "$source_dir"
mkdir -p "$source_dir"
tar -xzf "$archive" -C "$source_dir" --strip-components=3 "nanoarrow-$version/subprojects/arrow-nanoarrow"
[ -f "$source_dir/src/nanoarrow/nanoarrow.h" ] || { echo "no nanoarrow C tree in $archive" >&2; exit 2; }
echo "$version" >"$stamp"
echo "nanoarrow $version C sources in $source_dir"
