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
uses module B when A imports B (at its top or inside a function; its
sub-packages' modules named PACKAGE.MODULE). With --layers, the package's
layering contract: a module imports from its own package and the packages
before it in LAYERS (its __init__.py), never from a later one, and each
module is listed in its package's __init__.py; exit status 1 on an upward
import, a package LAYERS does not name or a module its package's map omits:
  bench/module_graph.py _build/mpich/mpi [--edges]
  bench/module_graph.py --python frontend/mpigauge [--edges]
  bench/module_graph.py --layers frontend/mpigauge"""
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


def python_modules(folder):
    """{module key: path} of a package and its sub-packages: "cli",
    "verdict.compare" (relative to the package), __init__ files left out."""
    out = {}
    for d, subdirs, files in os.walk(folder):
        subdirs[:] = sorted(x for x in subdirs if not x.startswith(("_", ".")))
        rel = os.path.relpath(d, folder)
        for f in sorted(files):
            if f.endswith(".py") and f != "__init__.py":
                key = f[:-3] if rel == "." else rel.replace(os.sep, ".") + "." + f[:-3]
                out[key] = os.path.join(d, f)
    return out


def _target(key, node, mods):
    """The modules of the package one relative import names."""
    here = key.split(".")[:-1]
    base = here[:len(here) - (node.level - 1)] if node.level > 1 else here
    stem = base + (node.module.split(".") if node.module else [])
    first = ".".join(stem)
    if first in mods:
        return [first]
    return [t for t in (".".join(stem + [a.name]) for a in node.names) if t in mods]


def python_imports(folder):
    """{module: {imported module of the package: [line numbers]}} of a
    package's relative imports (its sub-packages' too), in the shape of
    symbols()'s carried edges."""
    paths = python_modules(folder)
    mods = {}
    for key, path in paths.items():
        with open(path, encoding="utf-8") as fh:
            tree = ast.parse(fh.read(), path)
        used = {}
        for n in ast.walk(tree):
            if isinstance(n, ast.ImportFrom) and n.level >= 1:
                for t in _target(key, n, paths):
                    used.setdefault(t, []).append(f"line {n.lineno}")
        mods[key] = used
    return mods


def layers(folder):
    """The package's LAYERS (its __init__.py), lowest first."""
    with open(os.path.join(folder, "__init__.py"), encoding="utf-8") as fh:
        for n in ast.parse(fh.read()).body:
            if isinstance(n, ast.Assign) and any(getattr(t, "id", "") == "LAYERS"
                                                 for t in n.targets):
                return list(ast.literal_eval(n.value))
    return []


def package_map(folder, pkg):
    """The modules a sub-package's __init__.py lists: the first word of each
    line of its docstring."""
    path = os.path.join(folder, *pkg.split("."), "__init__.py")
    try:
        with open(path, encoding="utf-8") as fh:
            doc = ast.get_docstring(ast.parse(fh.read()), clean=False) or ""
    except OSError:
        return set()
    return {line.split()[0] for line in doc.splitlines() if line.startswith("  ")}


def layer_faults(folder):
    """Each import from a later package of LAYERS than the importer's own
    (the root's modules, cli, sit above every package), each module of a
    package LAYERS does not name, and each module its package's map (the
    module list of its __init__.py) does not name."""
    order = layers(folder)
    mods = python_imports(folder)
    faults = []

    def rank(key):
        pkg = key.split(".")[0] if "." in key else None
        return len(order) if pkg is None else order.index(pkg) if pkg in order else -1
    for m, used in sorted(mods.items()):
        if rank(m) < 0:
            faults.append(f"{m}: its package {m.split('.')[0]!r} is not in LAYERS "
                          "(frontend/mpigauge/__init__.py)")
            continue
        if "." in m and m.rsplit(".", 1)[1] not in package_map(folder, m.rsplit(".", 1)[0]):
            faults.append(f"{m}: not in its package's map (the module list of "
                          f"{m.rsplit('.', 1)[0].replace('.', '/')}/__init__.py)")
        for t, where in sorted(used.items()):
            if rank(t) > rank(m):
                faults.append(f"{m} ({where[0]}) imports {t}: an upward import")
    return faults


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
    if "--layers" in argv:
        faults = layer_faults(folder)
        print(f"{len(python_modules(folder))} modules in {len(layers(folder))} layers, "
              f"{len(faults)} fault(s)")
        for f in faults:
            print(f)
        return 1 if faults else 0
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
