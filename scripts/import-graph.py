#!/usr/bin/env python3
"""Prints the folder-level import graph of src/ (an edge A → B when a file under src/A
names `crate::B` or `shiftdp::B`, doc examples included) and exits 1 if it has a loop,
or if code of src/ (not a comment) names the verification crate (`shiftdp_verify`,
which depends on the library and never the reverse).

Folders are the layers of the data flow (precision → tradeoff → composition → bounds,
renyi → schedules → exact → analysis); a loop means two layers depend on each other.
Usage: scripts/import-graph.py [SRC_DIR]"""
import os
import re
import sys

src = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src")
folders = sorted(d for d in os.listdir(src) if os.path.isdir(os.path.join(src, d)))
graph = {f: set() for f in folders}
upward = []
for root, _, files in os.walk(src):
    for name in files:
        if name.endswith(".rs"):
            with open(os.path.join(root, name), encoding="utf-8") as fh:
                code = [l for l in fh if not l.lstrip().startswith("//")]
                if any("shiftdp_verify" in l for l in code):
                    upward.append(os.path.relpath(os.path.join(root, name), src))
for f in folders:
    for root, _, files in os.walk(os.path.join(src, f)):
        for name in files:
            if name.endswith(".rs"):
                with open(os.path.join(root, name), encoding="utf-8") as fh:
                    for target in re.findall(r"\b(?:crate|shiftdp)::(\w+)", fh.read()):
                        if target in graph and target != f:
                            graph[f].add(target)

for f in folders:
    print(f"{f} → {', '.join(sorted(graph[f])) or '(none)'}")

# a loop is a strongly connected component of two or more folders (Tarjan)
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


for v in folders:
    if v not in index:
        visit(v)
for path in upward:
    print(f"src/{path} names shiftdp_verify: the library must not depend on verification", file=sys.stderr)
if loops or upward:
    for comp in loops:
        print("import loop among folders: " + ", ".join(comp), file=sys.stderr)
    sys.exit(1)
print("no import loop between folders")
