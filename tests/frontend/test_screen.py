# SPDX-License-Identifier: BSD-3-Clause
"""The all-pairs screen's front-end (`mpigauge screen report`,
frontend/mpigauge/screen.py) on three screens of the emulated four-node
cluster (bench/screen_trials.sh, trial 1): nodeD's uplink slowed, the path
nodeB - nodeC slowed, nothing slowed. The verdict in words, the matrix in
JSON, the SVG picture, the exit codes, bad input."""
import json
import os
import tempfile
import unittest
import xml.etree.ElementTree as ET

import helpers as h
from helpers import load_frontend

mg = load_frontend()
import mpigauge.screen.screen as S  # noqa: E402

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")
NODE, LINK, HEALTHY = (os.path.join(DATA, f"screen-{k}.jsonl") for k in ("node", "link", "healthy"))


class Screen(unittest.TestCase):
    def test_node_named(self):
        s = S.load(NODE)
        self.assertEqual(s.hosts, ["nodeA", "nodeB", "nodeC", "nodeD"])
        self.assertEqual(s.exit_code(), 3)
        lines = S.verdict_lines(s)
        self.assertEqual(len(lines), 1, lines)
        self.assertTrue(lines[0].startswith("slow node  nodeD  bw: 3 of 3 pairs flagged, x0.3"),
                        lines)

    def test_link_named(self):
        s = S.load(LINK)
        lines = S.verdict_lines(s)
        self.assertEqual(len(lines), 1, lines)
        self.assertTrue(lines[0].startswith("slow link  nodeB - nodeC  bw: x0.3"), lines)
        self.assertEqual(s.summary["links"], [["nodeB", "nodeC"]])

    def test_healthy(self):
        s = S.load(HEALTHY)
        self.assertEqual(s.exit_code(), 0)
        self.assertEqual(S.verdict_lines(s),
                         ["nothing found: no pair more than 20% worse than the reference"])

    def test_matrix_symmetric_with_flags(self):
        m = S.matrix(S.load(NODE))
        bw = m["metrics"]["bw"]
        for a in range(4):
            self.assertIsNone(bw["values"][a][a])
            for b in range(4):
                self.assertEqual(bw["values"][a][b], bw["values"][b][a])
                self.assertEqual(bw["flagged"][a][b], a != b and 3 in (a, b))
        self.assertEqual(m["summary"]["named"], ["nodeD"])

    def test_svg_is_well_formed(self):
        root = ET.fromstring(S.svg(S.load(LINK)))
        ns = "{http://www.w3.org/2000/svg}"
        rects = root.findall(ns + "rect")
        self.assertEqual(len(rects), 16)
        framed = [r for r in rects if r.get("stroke") == "#000"]
        self.assertEqual(len(framed), 2)  # nodeB-nodeC and nodeC-nodeB

    def test_report_command(self):
        with tempfile.TemporaryDirectory() as d:
            pic, grid = os.path.join(d, "m.svg"), os.path.join(d, "m.json")
            rc, out, err = h.cli("screen", "report", NODE, "--picture", pic, "--matrix", grid)
            self.assertEqual(rc, 3, err)
            self.assertIn("slow node  nodeD", out)
            with open(grid, encoding="utf-8") as f:
                self.assertEqual(json.load(f)["hosts"][3], "nodeD")
            ET.parse(pic)
            rc, out, _ = h.cli("screen", "report", HEALTHY, "--format", "json")
            self.assertEqual(rc, 0)
            self.assertEqual(json.loads(out)["summary"]["found"], False)

    def test_bad_input(self):
        with tempfile.TemporaryDirectory() as d:
            bad = os.path.join(d, "bad.jsonl")
            with open(bad, "w") as f:
                f.write('{"type":"other"}\nnot json\n')
            rc, _, err = h.cli("screen", "report", bad)
            self.assertEqual(rc, 2)
            self.assertIn("bad.jsonl:2: not JSON", err)
            with open(NODE, encoding="utf-8") as f:
                text = f.read()
            with open(bad, "w") as f:
                f.write(text.replace('"screen_summary"', '"other"'))
            rc, _, err = h.cli("screen", "report", bad)
            self.assertEqual(rc, 2)
            self.assertIn("not a complete screen", err)
            rc, _, err = h.cli("screen", "report", NODE, "--picture", os.path.join(d, "x.png"))
            self.assertEqual(rc, 2)
            self.assertIn("SVG", err)
            rc, _, err = h.cli("screen", "report", NODE, "--matrix", NODE)
            self.assertEqual(rc, 2)
            self.assertEqual(os.path.getsize(NODE) > 0, True)
            rc, _, err = h.cli("screen", "run")
            self.assertEqual(rc, 2)
            self.assertIn("-o FILE", err)
            for n in ("0", "-2", "1"):
                rc, _, err = h.cli("screen", "run", "-n", n, "-o", os.path.join(d, "s.jsonl"),
                                   "--launcher", "false")
                self.assertEqual(rc, 2)
                self.assertIn(f"-n {n}: a screen needs 2 or more ranks", err)
            self.assertFalse(os.path.exists(os.path.join(d, "s.jsonl")))


def mutated(change):
    """The node screen's records with change(records) applied."""
    with open(NODE, encoding="utf-8") as f:
        recs = [json.loads(line) for line in f]
    change({r["type"]: r for r in recs}, recs)
    return recs


class Damaged(unittest.TestCase):
    """A crafted or damaged screen file: one line naming the file and the
    record, exit 2, nothing written; nothing of it reaches the picture
    unescaped (issue 53: HIGH 3, MEDIUM 5, LOW 5)."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.path = os.path.join(self.tmp.name, "s.jsonl")
        self.pic = os.path.join(self.tmp.name, "s.svg")

    def tearDown(self):
        self.tmp.cleanup()

    def report(self, recs, *extra):
        h.write_jsonl(self.path, recs)
        return h.cli("screen", "report", self.path, "--picture", self.pic, *extra)

    def test_a_script_in_a_field_never_reaches_the_picture(self):
        script = "<script>alert(1)</script>"
        rc, _, err = self.report(mutated(lambda t, _: t["screen"].update(reps=script)))
        self.assertEqual(rc, 2)
        self.assertIn("a screen record: reps is not an integer", err)
        self.assertFalse(os.path.exists(self.pic))
        # text fields are escaped: a host, the library, a verdict's unit

        def texts(t, recs):
            t["screen"]["units"][3]["host"] = script
            t["screen"]["mpi_library"] = script
            for r in recs:
                if r["type"] == "screen_verdict":
                    r["unit"] = script
        rc, _, err = self.report(mutated(texts))
        self.assertEqual(rc, 3, err)
        with open(self.pic, encoding="utf-8") as f:
            svg = f.read()
        self.assertNotIn("<script", svg)
        self.assertIn("&lt;script&gt;", svg)
        root = ET.fromstring(svg)
        self.assertEqual(root.findall(".//{http://www.w3.org/2000/svg}script"), [])

    def test_every_kind_of_damage_is_one_line(self):
        def pair(t, recs, **kw):
            next(r for r in recs if r["type"] == "screen_pair").update(kw)

        def verdict(t, recs, **kw):
            next(r for r in recs if r["type"] == "screen_verdict").update(kw)
        cases = [
            (lambda t, r: verdict(t, r, metric=None), "screen_verdict record: no metric"),
            (lambda t, r: verdict(t, r, metric=["bw"]), "metric is not a string"),
            (lambda t, r: verdict(t, r, metric="hops"), "metric 'hops' is not one of bw, lat"),
            (lambda t, r: verdict(t, r, unit=None), "screen_verdict record: no unit"),
            (lambda t, r: verdict(t, r, named=[{"unit": 9, "flagged": 1, "pairs": 3}]),
             "names unit 9, outside 0..3"),
            (lambda t, r: verdict(t, r, named=["x"]), "names a unit that: not an object"),
            (lambda t, r: verdict(t, r, links=[[0, "x"]]), "not a measured pair"),
            (lambda t, r: t["screen"].update(units=[1, 2, 3, 4]), "a unit: not an object"),
            (lambda t, r: t["screen"]["units"][0].pop("host"), "a unit: no host"),
            (lambda t, r: t["screen"].update(mpi_library=7), "mpi_library is not a string"),
            (lambda t, r: t["screen"].update(nunits=5), "4 units where nunits is 5"),
            (lambda t, r: t["screen"].update(alpha="0.05"), "alpha is not a number"),
            (lambda t, r: pair(t, r, a=7), "units outside 0..3"),
            (lambda t, r: pair(t, r, ratio_ci95=[1]), "ratio_ci95 not two numbers"),
            (lambda t, r: pair(t, r, median="fast"), "median is not a number"),
            (lambda t, r: t["screen_summary"].update(exit_code="boom"),
             "exit_code is not an integer"),
            (lambda t, r: t["screen_summary"].update(exit_code=44),
             "exit_code 44 is not one mpigauge_screen gives"),
            (lambda t, r: t["screen_summary"].update(exit_code=300), "exit_code 300"),
            (lambda t, r: t["screen_summary"].update(conclusive="yes"),
             "conclusive is not a boolean"),
        ]
        for change, says in cases:
            rc, out, err = self.report(mutated(change))
            self.assertEqual((rc, out), (2, ""), says)
            self.assertIn(says, err)
            self.assertEqual(len(err.strip().splitlines()), 1, err)
            self.assertNotIn("Traceback", err)
            self.assertFalse(os.path.exists(self.pic))
        with open(self.path, "w") as f:
            f.write("[" * 100000 + "]" * 100000 + "\n")
        rc, _, err = h.cli("screen", "report", self.path)
        self.assertEqual(rc, 2)
        self.assertIn("s.jsonl:1: not JSON", err)

    def test_a_screen_too_large_to_draw_is_refused_in_a_moment(self):
        n = 30000

        def many(t, recs):
            t["screen"]["units"] = [{"unit": k, "host": f"n{k}", "rank": k} for k in range(n)]
            t["screen"]["nunits"] = n
        rc, _, err = self.report(mutated(many))
        self.assertEqual(rc, 2)
        self.assertIn("30000 units; a picture shows at most 256", err)
        rc, _, err = h.cli("screen", "report", self.path, "--matrix",
                           os.path.join(self.tmp.name, "m.json"))
        self.assertEqual(rc, 2)
        self.assertIn("at most 2048", err)
        rc, out, _ = h.cli("screen", "report", self.path)   # the verdict in words
        self.assertEqual(rc, 3)
        self.assertIn("slow node  n3", out)


class LinkShare(unittest.TestCase):
    def test_report_says_the_share_of_the_link(self):
        """A bandwidth between nodes with known links gets an "of link"
        column in `mpigauge report`: 12000 MB/s of 100 Gbit/s is 96%."""
        with open(os.path.join(DATA, "new.jsonl"), encoding="utf-8") as f:
            recs = [json.loads(line) for line in f]
        for r in recs:
            if r["type"] == "run":
                r["nnodes"], r["hosts"] = 2, ["n1", "n2"]
                r["links"] = [{"device": "mlx5_0:1", "gbps": 100}, {"device": "ib0", "gbps": 200}]
        with tempfile.TemporaryDirectory() as d:
            path, page = os.path.join(d, "two.jsonl"), os.path.join(d, "two.html")
            h.write_jsonl(path, recs)
            rc, _, err = h.cli("report", path, "-o", page, "--no-plot")
            self.assertEqual(rc, 0, err)
            with open(page, encoding="utf-8") as f:
                text = f.read()
        self.assertIn("<th>of link</th>", text)
        self.assertRegex(text, r"<td>64K</td><td class=num>12000</td><td class=num>[^<]*</td>"
                               r"<td class=num>96%</td>")
        self.assertEqual(text.count("<th>of link</th>"), 1)  # bw only, not latency


if __name__ == "__main__":
    unittest.main()


FAKE_LAUNCHER = """#!/bin/sh
# a launcher that writes the screen of $MG_FAKE_SCREEN to the program's -o
# as the program does (a temporary renamed into place), then behaves as
# $MG_FAKE_END says: exit, or hang (MPI_Finalize that never returns)
while [ $# -gt 0 ]; do [ "$1" = -o ] && out=$2; shift; done
if [ -n "$MG_FAKE_SCREEN" ]; then
    cp "$MG_FAKE_SCREEN" "$out.tmp" && mv "$out.tmp" "$out"
fi
[ "$MG_FAKE_END" = exit ] && exit 0
exec sleep 300
"""


class ScreenRun(unittest.TestCase):
    """`screen run` through a fake launcher: a launch that hangs after its
    screen is whole is stopped --exit-grace later and reported; one that
    writes nothing is stopped at --timeout with one error."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        d = self.tmp.name
        self.launcher = os.path.join(d, "launch.sh")
        prog = os.path.join(d, "mpigauge_screen")
        for p, text in ((self.launcher, FAKE_LAUNCHER), (prog, "#!/bin/sh\nexit 1\n")):
            with open(p, "w") as f:
                f.write(text)
            os.chmod(p, 0o755)
        self.out = os.path.join(d, "s.jsonl")
        self.env = dict(os.environ)
        self.addCleanup(os.environ.clear)
        self.addCleanup(os.environ.update, self.env)

    def run_screen(self, screen, end, *extra):
        os.environ["MG_FAKE_SCREEN"], os.environ["MG_FAKE_END"] = screen, end
        return h.cli("screen", "run", "--launcher", "sh " + self.launcher, "--mpi", "openmpi",
                     "--bindir", self.tmp.name, "-o", self.out, *extra)

    def test_a_launch_that_hangs_after_its_screen_is_stopped_and_reported(self):
        import time
        t0 = time.time()
        rc, out, err = self.run_screen(NODE, "hang", "--exit-grace", "0.5", "--timeout", "60")
        self.assertEqual(rc, 3, err)
        self.assertLess(time.time() - t0, 30)
        self.assertIn("slow node  nodeD", out)
        self.assertIn("had not ended 0.5 s later: stopped", err)

    def test_a_launch_that_ends_is_reported_without_a_note(self):
        rc, out, err = self.run_screen(HEALTHY, "exit")
        self.assertEqual(rc, 0, err)
        self.assertIn("nothing found", out)
        self.assertEqual(err, "")

    def test_a_launch_that_writes_nothing_is_stopped_at_the_timeout(self):
        rc, _, err = self.run_screen("", "hang", "--timeout", "0.5")
        self.assertEqual(rc, 1)
        self.assertEqual(err.strip().splitlines(), [
            "mpigauge screen: error: the launch took more than 0.5 s (--timeout; the program's "
            "--time-budget bounds the screen)"])
        self.assertFalse(os.path.exists(self.out))
        rc, _, err = self.run_screen("", "hang", "--exit-grace", "0")
        self.assertEqual(rc, 2)
        self.assertIn("--exit-grace 0: give seconds above 0", err)
