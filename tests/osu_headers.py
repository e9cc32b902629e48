#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""OSU 7.4's table headers, character for character, under OSU's names
(doc/osu.md, "What is the same"): the comment lines before the first row
(the blank line of the collectives' preamble, the title with its version,
the window, pairs and datatype lines, the column titles) and the shape of
every row (its fields: numbers where OSU has numbers, the same words where
OSU has words). mpigauge's own note, one line starting `# mpigauge`, is
the only line allowed beside OSU's.

  osu_headers.py record OSU_PREFIX FIXTURE [MPIEXEC...]
      run every case with OSU's programs (OSU_PREFIX/libexec/
      osu-micro-benchmarks/mpi/*/NAME, as bench/build_osu.sh installs them)
      and write what they printed (headers and row shapes) to FIXTURE
  osu_headers.py check OSU_DIR FIXTURE [--all|--kinds] [MPIEXEC...]
      run the cases with the programs of OSU_DIR (mpigauge --osu-dir) and
      compare with FIXTURE; TAP, one test per case. By default the cases
      of one name per header kind and every option case; --all every case,
      --kinds one name per header kind only. A name this build lacks is
      skipped, said.

MPIEXEC defaults to `mpiexec -n 2`."""
import glob
import os
import re
import subprocess
import sys

SMALL = ["-m", "1:4", "-i", "4", "-x", "1"]
NOSIZE = ["-i", "4", "-x", "1"]
# programs of OSU trees that are not OSU 7.4's (a fork's), and the fan
# programs, which need two nodes
NOT_RECORDED = {"osu_get_mbw", "osu_get_multi_lat", "osu_bw_fan_in", "osu_bw_fan_out"}

# one name per header kind: the cases run without --all
KINDS = {"osu_latency", "osu_bw", "osu_bibw", "osu_mbw_mr", "osu_multi_lat", "osu_latency_mt",
         "osu_latency_persistent", "osu_bw_persistent", "osu_init", "osu_hello",
         "osu_allreduce", "osu_bcast", "osu_barrier", "osu_iallreduce", "osu_ibarrier",
         "osu_ibcast", "osu_allreduce_persistent", "osu_barrier_persistent",
         "osu_put_latency", "osu_get_acc_latency", "osu_fop_latency", "osu_put_bw"}

# the option cases: (name, arguments)
OPTIONS = [
    ("osu_latency", SMALL + ["-c"]), ("osu_latency", SMALL + ["-z"]),
    ("osu_latency", SMALL + ["-c", "-z50,99"]),
    ("osu_bw", SMALL + ["-c"]), ("osu_bw", SMALL + ["-z"]), ("osu_bibw", SMALL + ["-W", "8"]),
    ("osu_mbw_mr", SMALL + ["-c"]), ("osu_mbw_mr", SMALL + ["-z"]),
    ("osu_mbw_mr", SMALL + ["-R", "0"]), ("osu_mbw_mr", SMALL + ["-W", "16"]),
    ("osu_allreduce", SMALL + ["-c"]), ("osu_allreduce", SMALL + ["-z"]),
    ("osu_allreduce", SMALL + ["-f"]), ("osu_allreduce", SMALL + ["-f", "-c", "-z"]),
    ("osu_allreduce", ["-m", "4:16", "-i", "4", "-x", "1", "-T", "mpi_int"]),
    ("osu_bcast", ["-m", "8:32", "-i", "4", "-x", "1", "-D", "vect:8:4"]),
    ("osu_barrier", NOSIZE + ["-f"]), ("osu_barrier", NOSIZE + ["-z"]),
    ("osu_iallreduce", SMALL + ["-c"]), ("osu_iallreduce", SMALL + ["-z"]),
    ("osu_ibarrier", NOSIZE + ["-z"]),
    ("osu_put_latency", SMALL + ["-z"]), ("osu_put_latency", SMALL + ["-w", "create", "-s", "lock"]),
    ("osu_get_latency", SMALL + ["-s", "fence"]), ("osu_put_bw", SMALL + ["-s", "pscw"]),
    ("osu_acc_latency", ["-m", "4:16", "-i", "4", "-x", "1", "-T", "mpi_int"]),
    ("osu_get_acc_latency", SMALL + ["-s", "lock_all"]),
]


def args_of(name):
    """The arguments of a name's base case."""
    if "barrier" in name or name in ("osu_cas_latency", "osu_fop_latency"):
        return list(NOSIZE)
    if name in ("osu_init", "osu_hello"):
        return []
    if name == "osu_latency_mt":
        return SMALL + ["-t", "1:1"]
    return list(SMALL)


def cases(names, every, options=True):
    """[(name, args)]: the base case of each name (of one per kind unless
    every), then the option cases (unless not options)."""
    out = [(n, args_of(n)) for n in names if every or n in KINDS]
    return out + [(n, list(a)) for n, a in OPTIONS if n in names and options]


def is_number(s):
    return re.fullmatch(r"-?[0-9]+(\.[0-9]+)?", s) is not None


def shape(line, sized):
    """A row with its numbers as N (but the size, the first field of a
    table with a size column), its spaces as one."""
    fields = line.split()
    first = fields[:1] if sized else []
    rest = " ".join(fields[len(first):])
    return " ".join(first + [re.sub(r"-?[0-9]+(\.[0-9]+)?", "N", rest)]).strip()


def digest(text):
    """(header lines, row shapes) of a table: the lines before the first
    row, and each row's shape."""
    head, shapes, started = [], [], False
    for line in text.splitlines():
        first = line.split()[:1]
        if first and is_number(first[0].rstrip(":")):
            started = True
        if not started and not line.startswith("nprocs:") and not line.startswith("This is"):
            head.append(line)
            continue
        started = True
        if line.startswith("#") or not line.strip():
            shapes.append(line)
            continue
        shapes.append(shape(line, any("# Size" in h for h in head)))
    return head, shapes


def key(name, args):
    return " ".join([name] + args)


def run(mpiexec, prog, args):
    p = subprocess.run(mpiexec + [prog] + args, capture_output=True, text=True, timeout=180,
                       check=False)
    return p.returncode, p.stdout, p.stderr


def write_fixture(path, entries):
    with open(path, "w", encoding="utf-8") as f:
        f.write("# OSU 7.4's headers and row shapes (tests/osu_headers.py record)\n")
        for k, (head, shapes) in entries.items():
            f.write(f"== {k}\n")
            for line in head:
                f.write(f"H|{line}\n")
            for line in shapes:
                f.write(f"R|{line}\n")


def read_fixture(path):
    entries, cur = {}, None
    with open(path, encoding="utf-8") as f:
        for line in f.read().splitlines():
            if line.startswith("== "):
                cur = entries.setdefault(line[3:], ([], []))
            elif line.startswith("H|"):
                cur[0].append(line[2:])
            elif line.startswith("R|"):
                cur[1].append(line[2:])
    return entries


def record(prefix, fixture, mpiexec):
    found = {os.path.basename(p): p for p in
             glob.glob(os.path.join(prefix, "libexec/osu-micro-benchmarks/mpi/*/*")) +
             glob.glob(os.path.join(prefix, "libexec/osu-micro-benchmarks/mpi/*/*/*"))
             if os.path.isfile(p) and os.access(p, os.X_OK)
             and os.path.basename(p) not in NOT_RECORDED}
    names = sorted(found)
    entries = {}
    for name, args in cases(names, True):
        rc, out, err = run(mpiexec, found[name], args)
        if rc != 0 or not re.search(r"^# OSU .* Test v", out, re.MULTILINE):
            print(f"{key(name, args)}: exit {rc}, not recorded: {(out + err).strip()[:200]}",
                  file=sys.stderr)
            continue
        entries[key(name, args)] = digest(out)
    write_fixture(fixture, entries)
    print(f"{len(entries)} cases written to {fixture}")
    return 0


def ours(text):
    """mpigauge's output without its one note line (checked: exactly one)."""
    lines = text.splitlines()
    notes = [i for i, line in enumerate(lines) if line.startswith("# mpigauge")]
    if len(notes) != 1:
        return None
    del lines[notes[0]]
    return "\n".join(lines) + "\n"


def diff(want, got):
    """The first difference of two line lists, or None."""
    for i in range(max(len(want), len(got))):
        a = want[i] if i < len(want) else "(nothing)"
        b = got[i] if i < len(got) else "(nothing)"
        if a != b:
            return f"line {i + 1}: OSU {a!r}, mpigauge {b!r}"
    return None


def check(osu_dir, fixture, every, mpiexec, options=True):
    entries = read_fixture(fixture)
    names = sorted({k.split()[0] for k in entries})
    todo = [c for c in cases(names, every, options) if key(*c) in entries]
    print(f"1..{len(todo)}")
    failed = 0
    for i, (name, args) in enumerate(todo, 1):
        k = key(name, args)
        prog = os.path.join(osu_dir, name)
        if not os.path.exists(prog):
            print(f"ok {i} - {k} # SKIP this build has no {name}")
            continue
        rc, out, err = run(mpiexec, prog, args)
        text = ours(out) if rc == 0 else None
        why = f"exit {rc}: {err.strip()[:300]}" if rc != 0 else (
            "not exactly one '# mpigauge' note line" if text is None else None)
        if why is None:
            head, shapes = digest(text)
            why = diff(entries[k][0], head)
            if why is None:
                d = diff(entries[k][1], shapes)
                why = None if d is None else "rows: " + d
        if why is None:
            print(f"ok {i} - {k}")
        else:
            failed += 1
            print(f"not ok {i} - {k}\n#   {why}")
            for line in out.splitlines()[:12]:
                print(f"#   | {line}")
    return 1 if failed else 0


def main(argv):
    if len(argv) >= 4 and argv[1] == "record":
        return record(argv[2], argv[3], argv[4:] or ["mpiexec", "-n", "2"])
    if len(argv) >= 4 and argv[1] == "check":
        rest = argv[4:]
        every, kinds = "--all" in rest, "--kinds" in rest
        rest = [a for a in rest if a not in ("--all", "--kinds")]
        return check(argv[2], argv[3], every, rest or ["mpiexec", "-n", "2"], not kinds)
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
