# SPDX-License-Identifier: BSD-3-Clause
"""The front-end's unit tests as TAP, for `make check` (one line per test)."""
import os
import sys
import unittest

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)


def flatten(suite):
    for t in suite:
        if isinstance(t, unittest.TestSuite):
            yield from flatten(t)
        else:
            yield t


def main():
    tests = list(flatten(unittest.TestLoader().discover(HERE, pattern="test_*.py")))
    print(f"1..{len(tests)}", flush=True)
    bad = 0
    for i, t in enumerate(tests, 1):
        r = unittest.TestResult()
        t.run(r)
        name = t.id()
        if r.skipped:
            print(f"ok {i} - {name} # SKIP {r.skipped[0][1]}")
        elif r.failures or r.errors:
            bad += 1
            print(f"not ok {i} - {name}")
            for _, tb in r.failures + r.errors:
                print("\n".join("# " + line for line in tb.splitlines()[-12:]))
        else:
            print(f"ok {i} - {name}")
        sys.stdout.flush()
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
