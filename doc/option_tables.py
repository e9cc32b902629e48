#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The option tables and the catalogue of programs in doc/, made from the
programs' own rows and descriptions.

Every program prints its option rows with `--help --format json` (one record
per option: group, names, argument, default, help; mpi/driver/mg_plan.c). This
script runs every program of a build, merges their rows and writes three
Markdown tables into the files that hold the markers

    <!-- options:common -->     every program's options
    <!-- options:programs -->   the options of single programs (and which)
    <!-- options:rails -->      the multirail options
    <!-- options:catalogue_FAMILY -->   the programs of a family (pt2pt,
                                overlap, collective, onesided), each with
                                the line its --help describes it by

each ended by `<!-- /options -->`. So a default or a help text lives in one
place, the row, and the documents cannot drift from the programs.

    option_tables.py --bindir DIR [--bindir DIR...] [--launcher CMD] --check FILE...
    option_tables.py --bindir DIR ... --write FILE...

--check exits 1 and prints a diff when a file differs from what the rows
give (make check runs it); --write rewrites the regions (make option-tables).
Programs run as singletons unless --launcher is given (e.g. "mpirun -n 1").
"""
import argparse
import concurrent.futures
import difflib
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile

FAMILIES = ("pt2pt", "overlap", "collective", "onesided")
# The families that are one program installed under many names.
MULTI = {"collective": "mpigauge_coll", "onesided": "mpigauge_rma"}
# programs of such a family's folder that are programs of their own
# (comm_create, guidelines): named one by one, never in "collectives"
ALONE = set()
MARK = re.compile(r"(<!-- options:(\w+) -->\n)(.*?)(<!-- /options -->)", re.S)


def family_dirs(bindirs):
    """(family, folder) for every family folder given or inside a build tree given."""
    for d in bindirs:
        if os.path.basename(os.path.normpath(d)) in FAMILIES:
            yield os.path.basename(os.path.normpath(d)), d
        else:
            for fam in FAMILIES:
                if os.path.isdir(os.path.join(d, fam)):
                    yield fam, os.path.join(d, fam)


def find_programs(bindirs):
    """(family, name, command) of every program, in a stable order."""
    found = {}
    for fam, d in family_dirs(bindirs):
        if fam in MULTI:
            coll = os.path.join(d, MULTI[fam])
            if os.access(coll, os.X_OK):
                names = subprocess.run([coll, "--list-names"], capture_output=True, text=True,
                                       check=True, timeout=60).stdout.split()
                found.update({n: (fam, n, [coll, n]) for n in names})
        # every other program of the folder (beside a family's one program and
        # its names, which are links to it: comm_create, guidelines)
        for f in sorted(os.listdir(d)):
            p = os.path.join(d, f)
            if f.startswith("mpigauge_") and "." not in f and os.path.isfile(p) \
                    and not os.path.islink(p) and os.access(p, os.X_OK) \
                    and f != MULTI.get(fam) and f[9:] not in found:
                found[f[9:]] = (fam, f[9:], [p])
                if fam in MULTI:
                    ALONE.add(f[9:])
    return sorted(found.values(), key=lambda t: (FAMILIES.index(t[0]), t[1]))


def option_rows(command, launcher):
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    out = subprocess.run(launcher + command + ["--help", "--format", "json"],
                         capture_output=True, text=True, env=env, timeout=120)
    if out.returncode != 0:
        raise SystemExit(f"option_tables: {' '.join(command)} --help --format json exited "
                         f"{out.returncode}: {out.stderr.strip()[:300]}")
    rows = [json.loads(line) for line in out.stdout.splitlines() if line.startswith("{")]
    rows = [r for r in rows if r.get("type") == "option"]
    if not rows:
        raise SystemExit(f"option_tables: {' '.join(command)} printed no option records")
    return rows


def description(command, launcher):
    """The line a program's --help describes it by (the one after Usage:)."""
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    out = subprocess.run(launcher + command + ["--help"], capture_output=True, text=True,
                         env=env, timeout=120)
    lines = out.stdout.splitlines()
    if out.returncode != 0 or len(lines) < 2 or not lines[0].startswith("Usage:"):
        raise SystemExit(f"option_tables: {' '.join(command)} --help gave no description")
    return lines[1].strip()


def gather(bindirs, launcher):
    """{program: (family, rows, description)} for every program found."""
    progs = find_programs(bindirs)
    if not progs:
        raise SystemExit("option_tables: no mpigauge programs under " + ", ".join(bindirs))
    with concurrent.futures.ThreadPoolExecutor(max_workers=4) as pool:
        rows = list(pool.map(lambda p: option_rows(p[2], launcher), progs))
        descs = list(pool.map(lambda p: description(p[2], launcher), progs))
    return {p[1]: (p[0], r, d) for p, r, d in zip(progs, rows, descs)}


def catalogue(family, progs):
    """The programs of a family with their descriptions; of the collectives
    the blocking forms (every build has them; the non-blocking iNAME and
    persistent NAME_init forms are said once, above the table)."""
    names = [n for n, v in progs.items() if v[0] == family
             and (family != "collective" or coll_form(n)[1] == "blocking")]
    if not names:
        raise SystemExit(f"option_tables: no programs of family {family}")
    lines = ["| program | what it measures (its --help) |", "| --- | --- |"]
    return lines + [f"| `{n}` | {progs[n][2].replace('|', chr(92) + '|')} |" for n in names]


def row_key(r):
    """Rows that differ only in their default are one row of the table."""
    return (r["short"], r["long"], r["arg"], r["help"])


def cell_option(r):
    names = (f"-{r['short']}, " if r["short"] else "") + "--" + r["long"]
    if r["arg"]:
        names += " " + r["arg"]
    return "`" + names.replace("|", "\\|") + "`"


def cell_meaning(r, defaults):
    """The help and the default; defaults: [(default, program)], one per program."""
    values = list(dict.fromkeys(d for d, _ in defaults))
    text = r["help"]
    if values == [None]:
        pass
    elif len(values) == 1:
        text += f" (default {values[0]})"
    else:
        text += " (default " + "; ".join(
            f"{v if v is not None else 'none'} for " + ", ".join(p for d, p in defaults if d == v)
            for v in values) + ")"
    return text.replace("|", "\\|")


def coll_form(name):
    """(base, form) of a collective program's name."""
    if name.endswith("_init"):
        return name[:-5], "persistent"
    if name.startswith("i"):
        return name[1:], "non-blocking"
    return name, "blocking"


def collective_label(names, all_names):
    """A name for a set of collective programs that reads the same whichever
    forms the build has (Open MPI 4.1 has no persistent collectives)."""
    forms = {coll_form(n)[1] for n in names}
    all_forms = {coll_form(n)[1] for n in all_names}
    bases = sorted({coll_form(n)[0] for n in names})
    of_forms = {n for n in all_names if coll_form(n)[1] in forms}
    what = "collectives" if set(names) == of_forms else ", ".join(bases)
    if forms == all_forms:
        return what
    if len(all_forms - forms) == 1:
        return f"{what} (not the {next(iter(all_forms - forms))} forms)"
    return f"{what} ({', '.join(sorted(forms))} forms)"


def programs_cell(names, progs):
    by_family = {f: [n for n in names if progs[n][0] == f] for f in FAMILIES}
    parts = [", ".join(by_family["pt2pt"]), ", ".join(by_family["overlap"])]
    alone = [n for n in by_family["collective"] if n in ALONE]
    many = [n for n in by_family["collective"] if n not in ALONE]
    if many:
        every = [n for n in progs if progs[n][0] == "collective" and n not in ALONE]
        parts.append(collective_label(many, every))
    parts.append(", ".join(alone))
    if by_family["onesided"]:
        every = [n for n in progs if progs[n][0] == "onesided"]
        parts.append("RMA programs" if len(by_family["onesided"]) == len(every)
                     else ", ".join(by_family["onesided"]))
    return ", ".join(p for p in parts if p)


def merged(progs, groups):
    """[(row, [programs])] of the rows in these groups, first seen first."""
    order, where = [], {}
    for name, (_, rows, _) in progs.items():
        for r in rows:
            if r["group"] not in groups:
                continue
            k = row_key(r)
            if k not in where:
                where[k] = []
                order.append((k, r))
            where[k].append((r["default"], name))
    return [(r, where[k]) for k, r in order]


def table(kind, progs):
    lines = []
    if kind == "common":
        rows = merged(progs, {"common"})
        odd = [r["long"] for r, defs in rows if len(defs) != len(progs)]
        if odd:
            raise SystemExit("option_tables: common options not in every program: " + ", ".join(odd))
        lines += ["| option | meaning |", "| --- | --- |"]
        lines += [f"| {cell_option(r)} | {cell_meaning(r, defs)} |" for r, defs in rows]
    elif kind == "programs":
        lines += ["| option | programs | meaning |", "| --- | --- | --- |"]
        lines += [f"| {cell_option(r)} | {programs_cell([p for _, p in defs], progs)} | "
                  f"{cell_meaning(r, defs)} |" for r, defs in merged(progs, {"benchmark", "sync"})]
    elif kind == "rails":
        rows = merged(progs, {"rails"})
        lines += ["| option | meaning |", "| --- | --- |"]
        lines += [f"| {cell_option(r)} | {cell_meaning(r, defs)} |" for r, defs in rows]
    elif kind.startswith("catalogue_") and kind[10:] in FAMILIES:
        lines += catalogue(kind[10:], progs)
    else:
        raise SystemExit(f"option_tables: unknown table '{kind}'")
    return "\n".join(lines) + "\n"


def regenerate(text, progs):
    return MARK.sub(lambda m: m.group(1) + table(m.group(2), progs) + m.group(4), text)


def write_atomically(path, text):
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(os.path.abspath(path)), prefix=".opt-")
    try:
        with os.fdopen(fd, "w") as f:
            f.write(text)
        os.chmod(tmp, os.stat(path).st_mode & 0o777)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bindir", action="append", required=True,
                    help="a build tree or a folder of programs (repeatable; ':' separates too)")
    ap.add_argument("--launcher", default="", help='run each program under CMD ("mpirun -n 1")')
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--check", action="store_true", help="exit 1 with a diff on a difference")
    mode.add_argument("--write", action="store_true", help="rewrite the tables in the files")
    ap.add_argument("files", nargs="+")
    a = ap.parse_args(argv)
    bindirs = [d for b in a.bindir for d in b.split(":") if d]
    progs = gather(bindirs, shlex.split(a.launcher))
    status = 0
    for path in a.files:
        with open(path) as f:
            old = f.read()
        if not MARK.search(old):
            raise SystemExit(f"option_tables: {path} has no <!-- options:KIND --> region")
        new = regenerate(old, progs)
        if new == old:
            continue
        if a.write:
            write_atomically(path, new)
            print(f"option_tables: rewrote {path}")
        else:
            status = 1
            sys.stdout.writelines(difflib.unified_diff(
                old.splitlines(True), new.splitlines(True), path, path + " (from the rows)"))
    if status:
        print("option_tables: the tables differ from the programs' rows: run "
              "`make option-tables` and commit the result", file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main())
