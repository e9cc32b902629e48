#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The release study's results as a history: every release one tag
(doc/releases.md). An interleaved results file holds several releases as
configurations; each configuration's launches are written to a file of
their own, without the configuration label and round (so that a benchmark
and size is one series across the tags), and added under the release's tag.

  bench/release_history.py --db DB FILE:LABEL:TAG [FILE:LABEL:TAG...]

The same TAG may take launches from several files (the study's suites); a
launch already in the history is refused by `history add` as usual, so
run it on a new database."""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
FRONTEND = os.path.join(os.path.dirname(HERE), "frontend", "mpigauge.py")
KEEP = ("launch", "run", "result", "sentinel")


def split(path, label):
    """The records of configuration `label`, without their configuration."""
    out, ids = [], set()
    with open(path, encoding="utf-8") as f:
        recs = [json.loads(line) for line in f if line.strip()]
    for r in recs:
        if r.get("type") == "launch" and r.get("config") == label:
            ids.add(r.get("launch_id"))
    for r in recs:
        if r.get("type") in KEEP and r.get("launch_id") in ids:
            r = {k: v for k, v in r.items() if k not in ("config", "round", "turns")}
            out.append(r)
    return out


def main(argv):
    if len(argv) < 3 or argv[0] != "--db":
        print(__doc__, file=sys.stderr)
        return 2
    db, specs = argv[1], argv[2:]
    with tempfile.TemporaryDirectory() as d:
        for i, spec in enumerate(specs):
            path, label, tag = spec.rsplit(":", 2)
            recs = split(path, label)
            if not recs:
                print(f"release_history: {path} has no launches of {label!r}", file=sys.stderr)
                return 1
            tmp = os.path.join(d, f"{i}.jsonl")
            with open(tmp, "w", encoding="utf-8") as f:
                for r in recs:
                    f.write(json.dumps(r, separators=(",", ":")) + "\n")
            rc = subprocess.run([sys.executable, FRONTEND, "history", "--db", db, "add", tmp,
                                 "--tag", tag]).returncode
            if rc != 0:
                return rc
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
