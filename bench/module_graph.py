#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Which of the driver's modules call which, and the circles among them.

Reads the object files of a build's driver library (mpi/ and its rooms'
*.o, made by make)
with `nm`: module A calls module B when A's object leaves a symbol undefined
that B's object defines. Prints every edge with the functions it carries and
then the strongly connected components of more than one module (a circle:
A reaches B and B reaches A through calls). Exit status 1 when there is a
circle. The measurement behind issue 29's "no call-level circle among the
driver's stages".
With --python, the folder is a Python package (the front-end): module A
uses module B when A imports B (at its top or inside a function):
  bench/module_graph.py _build/mpich/mpi [--edges]
  bench/module_graph.py --python frontend/mpigauge [--edges]"""
import ast
import os
import subprocess
import sys


def symbols(obj):
    out = subprocess.run(["nm", obj], check=True, capture_output=True, text=True).stdout
    defined, undefined = set(), set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0] == "U":
            undefined.add(parts[1])
        elif len(parts) == 3 and parts[1] in "TDBRC" and parts[1].isupper():
            defined.add(parts[2])
    return defined, undefined


def python_imports(folder):
    """{module: (set(), {imported sibling: [line numbers]})} of a package's
    relative imports, in the shape of symbols()'s carried edges."""
    mods = {}
    for f in sorted(os.listdir(folder)):
        if not f.endswith(".py"):
            continue
        with open(os.path.join(folder, f), encoding="utf-8") as fh:
            tree = ast.parse(fh.read(), f)
        used = {}
        for n in ast.walk(tree):
            if isinstance(n, ast.ImportFrom) and n.level == 1:
                names = [n.module.split(".")[0]] if n.module else [a.name for a in n.names]
                for t in names:
                    used.setdefault(t, []).append(f"line {n.lineno}")
        mods[f[:-3]] = used
    return mods


def module(obj):
    name = os.path.basename(obj)[:-2]
    return name.split("-", 1)[1] if "-" in name else name


def components(nodes, edges):
    """Tarjan's strongly connected components."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
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
            out.append(sorted(comp))

    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return out


def main(argv):
    folder = next((a for a in argv if not a.startswith("--")), None)
    if folder is None:
        print(__doc__.split("\n\n")[-1], file=sys.stderr)
        return 2
    edges, carried = {}, {}
    if "--python" in argv:
        mods = python_imports(folder)
        for m, used in mods.items():
            for t, where in used.items():
                if t in mods and t != m:
                    edges.setdefault(m, set()).add(t)
                    carried[(m, t)] = where
    else:
        objs = sorted(os.path.join(d, f) for d, _, fs in os.walk(folder) for f in fs
                      if f.endswith(".o"))
        mods = {module(o): symbols(o) for o in objs}
        owner = {s: m for m, (d, _) in mods.items() for s in d}
        for m, (_, und) in mods.items():
            for s in und:
                t = owner.get(s)
                if t and t != m:
                    edges.setdefault(m, set()).add(t)
                    carried.setdefault((m, t), []).append(s)
    if "--edges" in argv:
        for (a, b), ss in sorted(carried.items()):
            print(f"{a} -> {b}: {', '.join(sorted(ss))}")
    circles = [c for c in components(mods, edges) if len(c) > 1]
    print(f"{len(mods)} modules, {sum(len(v) for v in edges.values())} edges, "
          f"{len(circles)} circle(s)")
    for c in circles:
        inner = sorted((a, b) for (a, b) in carried if a in c and b in c)
        print("circle: " + " ".join(c))
        for a, b in inner:
            print(f"  {a} -> {b}: {', '.join(sorted(carried[(a, b)]))}")
    return 1 if circles else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
