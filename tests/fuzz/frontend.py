# SPDX-License-Identifier: BSD-3-Clause
"""The front-end's readers fuzzed (TAP), in the process, from seed files:
each mutant (bytes flipped, cut, repeated, spliced with another seed, tokens
of JSON and TOML put in) goes through the command that reads it, and must
end in an exit code (0, 1 or 2) with a message, never an exception:

  cvars    results with a cvars record: `cvars FILE --list`, `compare`
  samples  a samples file: `report --samples`, the loader and the detector
  export   a sweep of forced algorithms: `best --export ompi-rules|mpich-json`
  toml     a --configs file: `run --dry-run`

Deterministic (a seed per target), bounded by MG_FUZZ_SECONDS (default 20)
per target; a failing input is kept in MG_FUZZ_OUT (default a temporary
folder) and named.
    python3 tests/fuzz/frontend.py [TARGET...]"""
import contextlib
import io
import json
import os
import random
import sys
import tempfile
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "frontend"))
import helpers as h  # noqa: E402

mg = h.load_frontend()
TOKENS = [b"null", b"NaN", b"-1", b"1e400", b"1" + b"0" * 400, b"[]", b"{}", b'"\xc2\xb2"',
          b'"$\\\\foo$"', b"[[", b"]]", b'"', b"\\u0000", b"=", b"[[sweep]]", b"\n", b"true",
          b'"type":"cvars"', b'"type":"sample_series"', b"99", b"-0", b"1e-320"]


def seeds(d):
    """{target: [seed file bytes]}."""
    from test_cvars import OLD, NEW, cvars_record, with_cvars
    from test_tuning import sweep_records
    out = {}
    recs_a = with_cvars(h.synthetic_set("L", {}, launches=2), cvars_record(OLD))
    recs_b = with_cvars(h.synthetic_set("L", {}, launches=2), cvars_record(NEW))
    out["cvars"] = [_jsonl(recs_a), _jsonl(recs_b)]
    head = {"type": "samples", "benchmark": "latency", "fields": ["start_s", "per_iteration_s",
                                                                  "iterations"]}
    ser = {"type": "sample_series", "size_bytes": 8, "start_s": [i * 1e-3 for i in range(40)],
           "per_iteration_s": [2e-6 if i % 7 else 3e-3 for i in range(40)],
           "iterations": [5] * 40, "rank_per_iteration_s": [[1e-6] * 40, [2e-6] * 40]}
    out["samples"] = [_jsonl([head, ser]), _jsonl([head, dict(ser, size_bytes=1024,
                                                              variant="ways=2")])]
    envs = {"default": {}, "rd": {"OMPI_MCA_coll_tuned_use_dynamic_rules": "1",
                                  "OMPI_MCA_coll_tuned_allreduce_algorithm": "3",
                                  "MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM": "recursive_doubling"}}
    truth = {("default", "allreduce"): {8: 4.0, 1024: 8.0}, ("rd", "allreduce"): {8: 3.0, 1024: 9.0}}
    out["export"] = [_jsonl(sweep_records(envs, truth))]
    out["toml"] = [b'[defaults]\nbindir = "b"\nenv = { A = "1" }\n[[config]]\nlabel = "x"\n'
                   b'args = ["-W", "8"]\n[[config]]\nlabel = "y"\nlauncher_args = "--mca btl self"\n',
                   b'[[sweep]]\nlabel = "alg{value}"\nvar = "OMPI_MCA_x"\nvalues = [1, 2, "r"]\n'
                   b'env = { B = "2" }\n']
    return out


def _jsonl(recs):
    return "".join(json.dumps(r) + "\n" for r in recs).encode()


def mutate(rng, data, pool):
    b = bytearray(data)
    for _ in range(rng.randint(1, 6)):
        op = rng.randrange(7)
        i = rng.randrange(len(b) + 1)
        if op == 0 and b:
            b[min(i, len(b) - 1)] ^= 1 << rng.randrange(8)
        elif op == 1:
            b[i:i] = rng.choice(TOKENS)
        elif op == 2:
            del b[i:i + rng.randint(1, 64)]
        elif op == 3:
            b = b[:i]
        elif op == 4 and b:
            j = rng.randrange(len(b))
            b[i:i] = b[j:j + rng.randint(1, 200)]
        elif op == 5:
            other = rng.choice(pool)
            b = b[:i] + other[rng.randrange(len(other) + 1):]
        else:
            b[i:i] = bytes([rng.randrange(256)])
    return bytes(b)


def cli(*argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        return mg.main(list(argv))


def run_target(target, path, d, lib):
    """The commands that read `path` as `target`; an exception escapes."""
    if target == "cvars":
        rcs = [cli("cvars", path, "--list"), cli("compare", path, path)]
    elif target == "samples":
        rcs = [cli("report", os.path.join(d, "res.jsonl"), "--samples", path, "--no-plot", "-o",
                   os.path.join(d, "r.html"))]
        try:
            mg.samples.describe_spikes(mg.samples.load(path)[1])
        except mg.UsageError:
            pass
    elif target == "export":
        rcs = [cli("best", path, "--export", "ompi-rules", os.path.join(d, "o.rules")),
               cli("best", path, "--export", "mpich-json", os.path.join(d, "o.json"),
                   "--library", lib)]
    else:
        rcs = [cli("run", "--suite", "quick", "--configs", path, "--dry-run", "--bindir", d)]
    bad = [rc for rc in rcs if rc not in (0, 1, 2)]
    if bad:
        raise AssertionError(f"exit {bad[0]}")


def main(targets):
    seconds = float(os.environ.get("MG_FUZZ_SECONDS", "20"))
    keep = os.environ.get("MG_FUZZ_OUT") or tempfile.mkdtemp(prefix="mg-fuzz-")
    print(f"1..{len(targets)}")
    with tempfile.TemporaryDirectory() as d:
        h.write_jsonl(os.path.join(d, "res.jsonl"), h.synthetic_set("L", {}, launches=1))
        lib = os.path.join(d, "libmpi.so")
        with open(lib, "wb") as f:
            f.write(b"\x00" + json.dumps({"collective=allreduce": {"comm_type=intra": {
                "algorithm=MPIR_Allreduce_intra_recursive_doubling": {}}}}).encode() + b"\x00"
                + b"algorithm=MPIR_Allreduce_intra_recursive_doubling\x00")
        pool = seeds(d)
        allseeds = [s for v in pool.values() for s in v]
        failed = 0
        for k, t in enumerate(targets, 1):
            rng = random.Random(k * 7919)
            path = os.path.join(d, f"in.{t}")
            n, bad, t0 = 0, None, time.time()
            while time.time() - t0 < seconds and bad is None:
                data = mutate(rng, rng.choice(pool[t]), allseeds) if n else pool[t][0]
                with open(path, "wb") as f:
                    f.write(data)
                n += 1
                try:
                    run_target(t, path, d, lib)
                except Exception:       # noqa: BLE001 (any escape is the finding)
                    bad = traceback.format_exc().strip().splitlines()[-1]
                    kept = os.path.join(keep, f"{t}-{n}")
                    with open(kept, "wb") as f:
                        f.write(data)
            if bad is None:
                print(f"ok {k} - {t}: {n} inputs, every one an exit code and a message")
            else:
                failed += 1
                print(f"not ok {k} - {t}: input {n} ({kept}): {bad}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:] or ["cvars", "samples", "export", "toml"]))
