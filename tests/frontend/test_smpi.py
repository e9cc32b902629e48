# SPDX-License-Identifier: BSD-3-Clause
"""The SMPI export (model/smpi.py, `mpigauge model --smpi`): planted lines
come back exactly in the tables, the platform file holds SimGrid's own
format (a platform 4.1 document, the piecewise tables' grammar, a segment
from size z written from z - 1, z + 15 in lat-factor, a cluster and hostfile of the hosts asked
for), the export holds every measured size within its tolerance, and the
folder rules (new, empty or an earlier export; never a link nor someone
else's folder) and the refusals (no bw, two sets, one host)."""
import json
import os
import re
import tempfile
import unittest
import xml.etree.ElementTree as ET

import helpers as h

h.load_frontend()
import mpigauge.model.hockney as H  # noqa: E402
import mpigauge.model.smpi as S  # noqa: E402

SIZES = [0] + [1 << k for k in range(23)]
# one-way time: (first size, alpha us, us per byte); streaming per message the same form
LAT = ((0, 0.30, 0.0005), (8192, 2.0, 0.0002), (131072, 12.0, 0.0001))
STREAM = ((1, 0.05, 0.0004), (4096, 0.5, 0.00012))
WINDOW = 64


def line(planted, m):
    _, a, b = max((p for p in planted if p[0] <= m), key=lambda p: p[0])
    return a + b * m


def curve(planted, sizes, launches=3):
    return {m: [line(planted, m)] * launches for m in sizes}


def bw_curve(launches=3):
    return {m: [m / line(STREAM, m)] * launches for m in SIZES if m > 0}


def models():
    lat = H.fit_within(curve(LAT, SIZES), 0.001)
    stream = H.fit_within(S.stream_curve(bw_curve()), 0.001)
    return lat, stream


class Tables(unittest.TestCase):
    def test_planted_lines_come_back_exactly(self):
        lat, stream = models()
        self.assertEqual([r.lo for r in lat.regimes], [0, 8192, 131072])
        self.assertEqual([r.lo for r in stream.regimes], [1, 4096])
        os_, ois, wire = S.tables(lat, stream, WINDOW)
        for m in SIZES:
            one_way, rate = S.predicted(lat, stream, WINDOW, m)
            lat_us = S.predict_at(wire, m)
            self.assertAlmostEqual(one_way, line(LAT, m), places=9)
            self.assertAlmostEqual(S.predict_at(os_, m) + lat_us, line(LAT, m), places=9)
            # the wire carries what no send pays: alpha less the streaming g
            _, a, _ = max((p for p in LAT if p[0] <= m), key=lambda p: p[0])
            _, g, _ = max((p for p in STREAM if p[0] <= max(m, 1)), key=lambda p: p[0])
            self.assertAlmostEqual(lat_us, max(0.0, a - g), places=9)
            if m:
                ack = (lat_us + line(LAT, 4)) / WINDOW
                self.assertAlmostEqual(S.predict_at(ois, m) + ack, line(STREAM, m), places=9)
                self.assertAlmostEqual(rate, m / line(STREAM, m), places=6)

    def test_the_fewest_segments_within_the_tolerance(self):
        # a curve that bends (t = 1 + m^1.5 / 1e4): one line cannot hold it
        # within 2%, a few can; a looser tolerance needs fewer
        bend = {m: [1.0 + m ** 1.5 / 1e4] for m in SIZES[:16]}
        tight, loose = H.fit_within(bend, 0.02), H.fit_within(bend, 0.5)
        self.assertLessEqual(max(r.max_residual for r in tight.regimes), 0.02)
        self.assertLess(len(loose.regimes), len(tight.regimes))
        self.assertGreater(len(tight.regimes), 1)

    def test_a_line_below_the_axis_is_kept(self):
        # superlinear sizes: the segment's line meets the axis below zero;
        # SMPI takes a negative intercept, and the sizes keep their times
        sup = {m: [(m / 1000.0) ** 2 + 1.0] for m in (1 << 20, 1 << 21, 1 << 22)}
        sup.update({m: [1.0] for m in (0, 1, 2)})
        lat = H.fit_within(sup, 0.001)
        stream = H.fit_within(S.stream_curve(bw_curve()), 0.001)
        os_, _, wire = S.tables(lat, stream, WINDOW)
        self.assertLess(os_[-1].intercept, 0)
        self.assertEqual(wire[-1].intercept, 0.0)
        for m, (t,) in sup.items():
            self.assertAlmostEqual((S.predict_at(os_, m) + S.predict_at(wire, m)) / t, 1.0,
                                   places=6)


PIECEWISE = re.compile(r"^\d+:[-+0-9.e]+:[-+0-9.e]+(;\d+:[-+0-9.e]+:[-+0-9.e]+)*$")


class Format(unittest.TestCase):
    def test_the_platform_file_is_simgrids_format(self):
        lat, stream = models()
        text = S.platform(S.config(lat, stream, WINDOW), 1024, "a -- comment")
        root = ET.fromstring(text.split("\n", 2)[2])   # past the XML and DOCTYPE lines
        self.assertEqual((root.tag, root.get("version")), ("platform", "4.1"))
        props = {p.get("id"): p.get("value") for p in root.find("config")}
        self.assertEqual(set(props), {"smpi/os", "smpi/ois", "smpi/or", "smpi/lat-factor",
                                      "smpi/bw-factor", "smpi/send-is-detached-thresh",
                                      "smpi/simulate-computation", "network/crosstraffic"})
        for k in ("smpi/os", "smpi/ois", "smpi/or"):
            self.assertRegex(props[k], PIECEWISE)
        self.assertRegex(props["smpi/lat-factor"], r"^\d+:[-+0-9.e]+(;\d+:[-+0-9.e]+)*$")
        starts = [int(seg.split(":")[0]) for seg in props["smpi/os"].split(";")]
        self.assertEqual(starts, [0, 4095, 8191, 131071])   # segments from 4K, 8K and 128K
        first = props["smpi/os"].split(";")[0].split(":")
        self.assertAlmostEqual(float(first[1]), 0.05e-6)      # alpha - the wire's 0.25 us
        self.assertAlmostEqual(float(first[2]), 0.0005e-6)
        lat = [seg.split(":") for seg in props["smpi/lat-factor"].split(";")]
        self.assertAlmostEqual(float(lat[0][1]), 0.25)
        # looked up as the size + 16 bytes: from 4K written from 4095 + 16
        self.assertEqual([int(x[0]) for x in lat], [0, 4111, 8207, 131087])
        self.assertEqual(int(props["smpi/send-is-detached-thresh"]), 2 ** 31 - 1)
        cluster = root.find("cluster")
        self.assertEqual((cluster.get("radical"), cluster.get("prefix")), ("0-1023", "node-"))
        self.assertNotIn("--", text.split("<!--")[1].split("-->")[0])
        hosts = S.hostfile(1024).splitlines()
        self.assertEqual((len(hosts), hosts[0], hosts[-1]), (1024, "node-0", "node-1023"))
        with self.assertRaises(ValueError):
            S.platform([], 1)


class Command(unittest.TestCase):
    def results(self, d, lat_noise=1.0, bench=("latency", "bw")):
        recs = []
        for i in range(3):
            k = 1.0 + (i - 1) * 0.002 * lat_noise
            if "latency" in bench:
                recs.append(h.run_record("latency", launch_id=f"L{i}", sizes=tuple(SIZES)))
                recs += [h.result_record("latency", m, "us", line(LAT, m) * k, launch_id=f"L{i}")
                         for m in SIZES]
            if "bw" in bench:
                recs.append(h.run_record("bw", launch_id=f"B{i}", sizes=tuple(SIZES[1:]),
                                         window=WINDOW))
                recs += [h.result_record("bw", m, "MB/s", m / line(STREAM, m) / k,
                                         launch_id=f"B{i}") for m in SIZES[1:]]
        path = os.path.join(d, "r.jsonl")
        h.write_jsonl(path, recs)
        return path

    def test_the_export_written_and_checked(self):
        with tempfile.TemporaryDirectory() as d:
            path, out = self.results(d), os.path.join(d, "smpi")
            code, text, err = h.cli("model", path, "--smpi", out, "--smpi-hosts", "16")
            self.assertEqual(code, 0, err)
            self.assertIn("3 latency and 2 streaming segments, window 64", text)
            self.assertEqual(sorted(os.listdir(out)), ["hostfile", "platform.xml", "smpi.json"])
            self.assertEqual(len(h.read(os.path.join(out, "hostfile")).splitlines()), 16)
            doc = json.loads(h.read(os.path.join(out, "smpi.json")))
            self.assertEqual((doc["window"], doc["hosts"], doc["nranks"]), (WINDOW, 16, 2))
            for s in doc["sizes"]:
                self.assertAlmostEqual(s["latency_us"] / s["measured_latency_us"], 1.0, places=6)
                if s["size_bytes"]:
                    self.assertAlmostEqual(s["bw_mbps"] / s["measured_bw_mbps"], 1.0, places=6)
            # an earlier export's folder is written again
            code, _, err = h.cli("model", path, "--smpi", out)
            self.assertEqual(code, 0, err)
            self.assertEqual(len(h.read(os.path.join(out, "hostfile")).splitlines()), 2)

    def test_refusals(self):
        with tempfile.TemporaryDirectory() as d:
            path = self.results(d)
            other = os.path.join(d, "other")
            os.mkdir(other)
            h.write_jsonl(os.path.join(other, "keep.jsonl"), [{"a": 1}])
            code, _, err = h.cli("model", path, "--smpi", other)
            self.assertEqual(code, 2)
            self.assertIn("not an SMPI export of mpigauge", err)
            self.assertEqual(os.listdir(other), ["keep.jsonl"])
            os.symlink(other, os.path.join(d, "link"))
            code, _, err = h.cli("model", path, "--smpi", os.path.join(d, "link"))
            self.assertEqual((code, "a symbolic link" in err), (2, True))
            code, _, err = h.cli("model", path, "--smpi", os.path.join(d, "new"),
                                 "--smpi-hosts", "1")
            self.assertEqual((code, "2 to 1048576 hosts" in err), (2, True))
            self.assertFalse(os.path.exists(os.path.join(d, "new")))
            lat_only = os.path.join(d, "lat")
            os.mkdir(lat_only)
            code, _, err = h.cli("model", self.results(lat_only, bench=("latency",)),
                                 "--smpi", os.path.join(d, "new"))
            self.assertEqual(code, 2)
            self.assertIn("needs the bw curve beside latency", err)
            code, _, err = h.cli("model", path, path, "--smpi", os.path.join(d, "new"))
            self.assertEqual(code, 2)
            self.assertIn("--smpi exports one set; 2 given", err)
            self.assertFalse(os.path.exists(os.path.join(d, "new")))


if __name__ == "__main__":
    unittest.main()
