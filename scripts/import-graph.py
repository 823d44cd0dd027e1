#!/usr/bin/env python3
"""Prints the layer-level import graph of src/ (a layer is a folder or a module file at
the top of src/; an edge A → B when the code of a file of A, comments and doc examples
left out, names `crate::B` or `shiftdp::B`) and exits 1 if it has a loop, or if code of
src/ names the verification crate (`shiftdp_verify`, which depends on the library and
never the reverse).

The layers follow the data flow (precision → tradeoff → composition → bounds,
renyi → schedules → exact → results → analysis); a loop means two layers depend on each other.
Usage: scripts/import-graph.py [SRC_DIR]"""
import os
import re
import sys

src = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src")
# the layers: each folder, and each module file at the top of src/ (lib.rs excepted)
folders = sorted(d for d in os.listdir(src) if os.path.isdir(os.path.join(src, d)))
files_top = sorted(d[:-3] for d in os.listdir(src) if d.endswith(".rs") and d != "lib.rs")
graph = {f: set() for f in folders + files_top}
upward = []
for root, _, files in os.walk(src):
    for name in files:
        if name.endswith(".rs"):
            with open(os.path.join(root, name), encoding="utf-8") as fh:
                code = [l for l in fh if not l.lstrip().startswith("//")]
                if any("shiftdp_verify" in l for l in code):
                    upward.append(os.path.relpath(os.path.join(root, name), src))
def sources(node):
    """The .rs files of a layer: the file itself, or every file below the folder."""
    if node in files_top:
        yield os.path.join(src, node + ".rs")
        return
    for root, _, files in os.walk(os.path.join(src, node)):
        for name in files:
            if name.endswith(".rs"):
                yield os.path.join(root, name)


for f in graph:
    for path in sources(f):
        with open(path, encoding="utf-8") as fh:
            code = "".join(l for l in fh if not l.lstrip().startswith("//"))
            for target in re.findall(r"\b(?:crate|shiftdp)::(\w+)", code):
                if target in graph and target != f:
                    graph[f].add(target)

for f in sorted(graph):
    print(f"{f} → {', '.join(sorted(graph[f])) or '(none)'}")

# a loop is a strongly connected component of two or more layers (Tarjan)
index, low, stack, on, loops = {}, {}, [], set(), []


def visit(v):
    index[v] = low[v] = len(index)
    stack.append(v)
    on.add(v)
    for w in graph[v]:
        if w not in index:
            visit(w)
            low[v] = min(low[v], low[w])
        elif w in on:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        comp = []
        while True:
            w = stack.pop()
            on.discard(w)
            comp.append(w)
            if w == v:
                break
        if len(comp) > 1:
            loops.append(sorted(comp))


for v in sorted(graph):
    if v not in index:
        visit(v)
for path in upward:
    print(f"src/{path} names shiftdp_verify: the library must not depend on verification", file=sys.stderr)
if loops or upward:
    for comp in loops:
        print("import loop among folders and top-level modules: " + ", ".join(comp), file=sys.stderr)
    sys.exit(1)
print("no import loop between folders and top-level modules")
