#!/usr/bin/env python3
"""Checks what docs/architecture.md says of the code's structure.

    ci/check-architecture.py SOURCE_DIR

- every path the page names exists (a `<name>` in it stands for any name:
  `spec-tests/rules_<family>.c` must match at least one file);
- every folder of the layers declares its target with adc_layer in its own
  CMakeLists.txt (the include roots that refuse an include going up a
  layer: cmake/AdcLayer.cmake);
- no two modules of the layers (a module: x.c with x.h) include each
  other's headers in a circle, directly or through others;
- no include reaches another folder by a relative path ("../"), around
  the include roots.

Prints one line per problem and exits 1 when there is any."""
import glob
import os
import re
import sys

LAYER_FOLDERS = ["arrow_format", "spec-tests"] + [
    "harness/" + name for name in ("support", "device", "consumer_feed", "rule_api", "wire", "runner",
                                   "outcome", "report", "cli", "commands")]
# Folders whose includes are checked for circles and relative paths.
CODE_FOLDERS = LAYER_FOLDERS + ["reference", "harness/python", "fixtures/deliberately_broken/rule_twins",
                                 "fixtures/deliberately_broken/misbehaving"]
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.MULTILINE)
SOURCE_SUFFIXES = (".c", ".h", ".inc", ".cc", ".cu", ".hip")


def named_paths(page):
    """The backquoted words of the page that look like paths of the tree."""
    for word in re.findall(r"`([^`\s]+)`", page):
        if "/" not in word or word.startswith(("-", "http", "\"")) or "=" in word:
            continue
        yield word.rstrip(",.:;")


def missing_paths(root):
    page = open(os.path.join(root, "docs", "architecture.md"), encoding="utf-8").read()
    for path in sorted(set(named_paths(page))):
        pattern = re.sub(r"<[^>]*>", "*", path)
        if not glob.glob(os.path.join(root, pattern)):
            yield f"docs/architecture.md names {path}, which is not in the tree"


def folders_without_layer(root):
    for folder in LAYER_FOLDERS:
        cmake = os.path.join(root, folder, "CMakeLists.txt")
        if not os.path.exists(cmake) or "adc_layer(" not in open(cmake, encoding="utf-8").read():
            yield f"{folder} does not declare its target with adc_layer in {folder}/CMakeLists.txt"


def module_graph(root):
    """module -> the modules whose headers its files include."""
    graph = {}
    for folder in CODE_FOLDERS:
        for path in sorted(glob.glob(os.path.join(root, folder, "*"))):
            if not path.endswith(SOURCE_SUFFIXES):
                continue
            module = os.path.join(folder, os.path.splitext(os.path.basename(path))[0])
            edges = graph.setdefault(module, set())
            for included in INCLUDE.findall(open(path, encoding="utf-8", errors="replace").read()):
                # "folder/x.h" through an include root, or "x.h" beside the file.
                for candidate in (os.path.join(folder, included), os.path.join("harness", included), included):
                    if os.path.isfile(os.path.join(root, candidate)):
                        target = os.path.splitext(os.path.normpath(candidate))[0]
                        if target != module:
                            edges.add(target)
                        break
    return graph


def circles(graph):
    """The strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []
    counter = [0]
    sys.setrecursionlimit(100000)

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, ()):
            if w not in graph:
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def relative_includes(root):
    for folder in CODE_FOLDERS + ["tests", "tests/fuzz", "tests/benchmarks", "interop/arrow-cpp", "interop/nanoarrow"]:
        for path in sorted(glob.glob(os.path.join(root, folder, "*"))):
            if path.endswith(SOURCE_SUFFIXES):
                for included in INCLUDE.findall(open(path, encoding="utf-8", errors="replace").read()):
                    if included.startswith("../") or "/../" in included:
                        yield f'{os.path.relpath(path, root)} includes "{included}", around the include roots'


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    problems = list(missing_paths(root))
    problems += folders_without_layer(root)
    problems += [f"a circle of includes: {' -> '.join(c)}" for c in circles(module_graph(root))]
    problems += relative_includes(root)
    for problem in problems:
        print(problem)
    if not problems:
        print("the architecture holds: every path named exists, every layer has its target, no circle")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
