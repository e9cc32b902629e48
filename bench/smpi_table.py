#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The SMPI reproduction table of bench/smpi_check.sh: per size, the
measured median (latency us, bw MB/s), what smpirun reported on the export,
and their ratio; exit 1 when a size is off by more than LIMIT percent.
  smpi_table.py EXPORT/smpi.json SIMULATED.txt NAME LIMIT"""
import json
import sys


def main(doc_path, sim_path, name, limit):
    with open(doc_path, encoding="utf-8") as f:
        doc = json.load(f)
    sim = {}
    with open(sim_path, encoding="utf-8") as f:
        for line in f:
            parts = line.split()
            if len(parts) == 3 and parts[0] in ("latency", "bw"):
                sim[(parts[0], int(parts[1]))] = float(parts[2])
    rows, worst, missing = [], (0.0, "", 0), 0
    for s in doc["sizes"]:
        z = s["size_bytes"]
        cells = []
        for bench, key in (("latency", "latency_us"), ("bw", "bw_mbps")):
            meas, got = s.get("measured_" + key), sim.get((bench, z))
            if not meas:
                cells.append("")
                continue
            if got is None:
                missing += 1
                cells.append(f"{meas:.4g} | (none) | ")
                continue
            r = got / meas
            worst = max(worst, (abs(r - 1.0), bench, z))
            cells.append(f"{meas:.4g} | {got:.4g} | x{r:.3f}")
        rows.append(f"| {z} | " + " | ".join(c or " | | " for c in cells) + " |")
    print(f"\n{name} ({doc['set']}, {doc['nranks']} ranks, window {doc['window']}): "
          "measured median against SMPI on the export")
    print("| size B | latency us | SMPI | ratio | bw MB/s | SMPI | ratio |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    print("\n".join(rows))
    ok = worst[0] * 100 <= limit and not missing
    print(f"{name}: worst {100 * worst[0]:.1f}% ({worst[1]} at {worst[2]} B); "
          f"{missing} sizes not simulated; within {limit:g}%: {'yes' if ok else 'NO'}")
    return 0 if ok else 1


if __name__ == "__main__":
    if len(sys.argv) != 5:
        sys.exit(__doc__.strip().splitlines()[-1].strip())
    sys.exit(main(sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])))
