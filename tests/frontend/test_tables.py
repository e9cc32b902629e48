# SPDX-License-Identifier: BSD-3-Clause
"""compare: the Markdown table against a golden file, text and HTML output,
keys that are never mixed, provenance warnings, exit codes."""
import contextlib
import io
import os
import tempfile
import unittest

import helpers as h

mg = h.load_frontend()
BASE = os.path.join(h.DATA, "base.jsonl")
NEW = os.path.join(h.DATA, "new.jsonl")


def run_cli(*argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = mg.main(list(argv))
    return rc, out.getvalue(), err.getvalue()


class TestGolden(unittest.TestCase):
    def test_markdown_table(self):
        rc, out, err = run_cli("compare", BASE, NEW, "--format", "markdown")
        self.assertEqual(rc, 0, err)
        golden = os.path.join(h.GOLDEN, "compare.md")
        if os.environ.get("MG_UPDATE_GOLDEN"):
            with open(golden, "w") as f:
                f.write(out)
        with open(golden) as f:
            self.assertEqual(out, f.read())

    def test_markdown_from_output_extension(self):
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, "cmp.md")
            rc, out, _ = run_cli("compare", BASE, NEW, "-o", p)
            self.assertEqual((rc, out), (0, ""))
            with open(p) as f, open(os.path.join(h.GOLDEN, "compare.md")) as g:
                self.assertEqual(f.read(), g.read())


class TestCompare(unittest.TestCase):
    def test_text_table(self):
        rc, out, _ = run_cli("compare", BASE, NEW)
        self.assertEqual(rc, 0)
        lines = out.splitlines()
        self.assertTrue(lines[0].startswith("MPICH 4.0.2 vs Open MPI v4.1.4 ("))
        row = [l for l in lines if l.startswith("latency") and " 64K " in l][0]
        self.assertTrue(row.rstrip().endswith("slower"), row)
        self.assertIn("summary: 3 same, 2 slower, 1 faster", out)

    def test_html_is_a_page(self):
        rc, out, _ = run_cli("compare", BASE, NEW, "--format", "html", "--no-plot")
        self.assertEqual(rc, 0)
        self.assertTrue(out.startswith("<!DOCTYPE html>"))
        self.assertIn('<tr class="slower">', out)
        self.assertIn("</html>", out)

    def test_fail_on_regression(self):
        rc, _, err = run_cli("compare", BASE, NEW, "--fail-on-regression")
        self.assertEqual(rc, 1)
        self.assertIn("regression", err)
        rc, _, _ = run_cli("compare", BASE, BASE, "--fail-on-regression")
        self.assertEqual(rc, 0)

    def test_labels(self):
        rc, out, _ = run_cli("compare", "old=" + BASE, "new=" + NEW, "--format", "md")
        self.assertIn("### new vs old", out)

    def test_same_library_labels_fall_back_to_file_names(self):
        rc, out, _ = run_cli("compare", BASE, BASE)
        self.assertIn("base.jsonl", out.splitlines()[0])

    def test_never_compares_different_sizes_units_or_configs(self):
        with tempfile.TemporaryDirectory() as d:
            a = os.path.join(d, "a.jsonl")
            b = os.path.join(d, "b.jsonl")
            h.write_jsonl(a, [h.run_record("bw", window=64), h.result_record("bw", 8, "MB/s", 60),
                              h.result_record("bw", 16, "MB/s", 100)])
            h.write_jsonl(b, [h.run_record("bw", window=32), h.result_record("bw", 8, "MB/s", 30),
                              h.run_record("bw", window=64), h.result_record("bw", 16, "us", 1.0),
                              h.result_record("bw", 8, "MB/s", 61)])
            base, new = mg.load_results(a, "a"), mg.load_results(b, "b")
            rows, only_base, only_new = mg.compare_sets(base, new)
            self.assertEqual(len(rows), 1)
            self.assertEqual(rows[0].key.size, 8)
            self.assertEqual(rows[0].new_median, 61)
            self.assertEqual([k.size for _, k in only_base], [16])
            self.assertEqual(sorted((k.size, k.unit) for _, k in only_new), [(8, "MB/s"), (16, "us")])
            rc, out, err = run_cli("compare", a, b)
            self.assertIn("bw (2 ranks, window=64)", out)
            self.assertIn("only in b.jsonl: bw (2 ranks, window=32) (MB/s): sizes 8", out)

    def test_provenance_warnings(self):
        with tempfile.TemporaryDirectory() as d:
            a = os.path.join(d, "a.jsonl")
            b = os.path.join(d, "b.jsonl")
            h.write_jsonl(a, [h.run_record("latency"), h.result_record("latency", 8, "us", 0.2)])
            h.write_jsonl(b, [h.run_record("latency", hosts=("n1", "n2"),
                                           bindings=("0-1 (unbound)", "0-1 (unbound)")),
                              h.result_record("latency", 8, "us", 0.2)])
            rc, out, err = run_cli("compare", "A=" + a, "B=" + b)
            self.assertEqual(rc, 0)
            self.assertIn("host count differs: A: 1; B: 2 (latency)", err)
            self.assertIn("binding differs: A: bound; B: unbound (latency)", err)
            self.assertNotIn("CPU model", err)

    def test_a_different_cpu_model_is_warned(self):
        with tempfile.TemporaryDirectory() as d:
            a, b = os.path.join(d, "a.jsonl"), os.path.join(d, "b.jsonl")
            ra, rb = h.run_record("latency"), h.run_record("latency")
            ra["cpu_model"] = "Xeon (family 6 model 143, avx512f)"
            rb["cpu_model"] = "Xeon (family 6 model 85, avx512f)"
            ra["kernel"] = rb["kernel"] = "Linux 6.1.0"
            h.write_jsonl(a, [ra, h.result_record("latency", 8, "us", 0.2)])
            h.write_jsonl(b, [rb, h.result_record("latency", 8, "us", 0.2)])
            rc, out, err = run_cli("compare", "A=" + a, "B=" + b)
            self.assertEqual(rc, 0)
            self.assertIn("CPU model differs: A: Xeon (family 6 model 143, avx512f); "
                          "B: Xeon (family 6 model 85, avx512f) (latency)", err)
            self.assertNotIn("kernel differs", err)

    def test_validation_failures_are_not_compared(self):
        with tempfile.TemporaryDirectory() as d:
            a = os.path.join(d, "a.jsonl")
            h.write_jsonl(a, [h.run_record("latency"),
                              h.result_record("latency", 8, "us", 0.2, validation="failed")])
            rc, out, err = run_cli("compare", a, BASE)
            self.assertEqual(rc, 2)
            self.assertIn("nothing in common", err)

    def test_usage_errors(self):
        rc, _, err = run_cli("compare", BASE)
        self.assertEqual(rc, 2)
        self.assertIn("compare needs BASE and NEW", err)
        rc, _, err = run_cli("compare", BASE, "/no/such/file.jsonl")
        self.assertEqual(rc, 2)
        self.assertIn("cannot read /no/such/file.jsonl", err)
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, "x.jsonl")
            with open(p, "w") as f:
                f.write("hello\n")
            rc, _, err = run_cli("compare", p, BASE)
            self.assertEqual(rc, 2)
            self.assertIn("no run records", err)


class TestPlotAndReport(unittest.TestCase):
    def test_report_without_plot_is_self_contained(self):
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, "r.html")
            rc, _, err = run_cli("report", BASE, NEW, "-o", p, "--no-plot")
            self.assertEqual(rc, 0, err)
            with open(p) as f:
                page = f.read()
            self.assertIn("Provenance", page)
            self.assertIn("Comparison", page)
            self.assertNotIn("<script", page)
            self.assertNotIn(" src=", page)

    def test_plot_without_matplotlib_says_so(self):
        real = mg.plot.import_pyplot
        mg.plot.import_pyplot = lambda: None
        try:
            rc, _, err = run_cli("plot", BASE, "-o", "/tmp/never.png")
        finally:
            mg.plot.import_pyplot = real
        self.assertEqual(rc, 3)
        self.assertIn("needs matplotlib", err)
        self.assertIn("pip install matplotlib", err)

    @unittest.skipIf(mg.import_pyplot() is None, "matplotlib is not installed")
    def test_plot_png(self):
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, "p.png")
            rc, _, err = run_cli("plot", BASE, NEW, "-o", p)
            self.assertEqual(rc, 0, err)
            with open(p, "rb") as f:
                head = f.read(24)
            self.assertEqual(head[:8], b"\x89PNG\r\n\x1a\n")
            w, hgt = int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")
            self.assertEqual((w, hgt), (1560, 390))  # 3 panels in a row, 5.2 x 3.9 in at 100 dpi

    def test_against_ranks_takes_launches_at_several_rank_counts(self):
        """footprint over ranks=N lines: a line per stage, the rank count of
        each launch on x; a series at one rank count only is no line."""
        from mpigauge.look.plot import rank_lines
        from mpigauge.data.results import load_inputs
        with tempfile.TemporaryDirectory() as d:
            src = os.path.join(d, "fp.jsonl")
            recs = []
            for n in (8, 2, 4):
                lid = f"L{n}"
                recs.append(h.run_record("footprint", nranks=n, hosts=("n",) * n,
                                         bindings=("0",) * n, sizes=(0,), launch_id=lid))
                for stage, mib in (("init", 4.0), ("window", 4.5)):
                    recs.append(h.result_record("footprint", 0, "MiB", mib + n / 8,
                                                launch_id=lid, variant=f"stage={stage}"))
            recs.append(h.run_record("latency", nranks=2, launch_id="L"))
            recs.append(h.result_record("latency", 8, "us", 0.3, launch_id="L"))
            h.write_jsonl(src, recs)
            lines = rank_lines(load_inputs([src]))
            (panel, per), = lines.items()
            self.assertEqual(panel[1:], (0, "MiB"))
            self.assertEqual(list(per), ["footprint [stage=init]", "footprint [stage=window]"])
            self.assertEqual([p[:2] for p in per["footprint [stage=window]"]],
                             [(2, 4.75), (4, 5.0), (8, 5.5)])

    @unittest.skipIf(mg.import_pyplot() is None, "matplotlib is not installed")
    def test_plot_against_ranks_has_a_line_per_collective(self):
        from mpigauge.look.plot import rank_lines
        from mpigauge.data.results import load_inputs
        with tempfile.TemporaryDirectory() as d:
            src = os.path.join(d, "sweep.jsonl")
            recs = []
            for bench in ("bcast", "allreduce", "alltoall", "barrier"):
                sizes = (0,) if bench == "barrier" else (8, 1024)
                recs.append(h.run_record(bench, nranks=4, hosts=("n",) * 4,
                                         bindings=("0",) * 4, sizes=sizes))
                for n in (2, 3, 4):
                    for size in sizes:
                        recs.append(h.result_record(bench, size, "us", n * 1.5 + size / 1024,
                                                    variant=f"ranks={n}"))
            h.write_jsonl(src, recs)
            lines = rank_lines(load_inputs([src]), 1024)
            self.assertEqual(len(lines), 1)               # one panel: one set, one size
            (panel, per), = lines.items()
            self.assertEqual(panel[1:], (1024, "us"))
            # barrier (size 0 only) is a line of every size's panel
            self.assertEqual(list(per), ["bcast", "allreduce", "alltoall", "barrier"])
            self.assertEqual([p[:2] for p in per["barrier"]], [(2, 3.0), (3, 4.5), (4, 6.0)])
            self.assertEqual([p[:2] for p in per["bcast"]], [(2, 4.0), (3, 5.5), (4, 7.0)])
            out = os.path.join(d, "r.png")
            rc, _, err = run_cli("plot", src, "--against", "ranks", "--size", "1K", "-o", out)
            self.assertEqual(rc, 0, err)
            with open(out, "rb") as f:
                self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")
            rc, _, err = run_cli("plot", BASE, "--against", "ranks", "-o", out)
            self.assertEqual(rc, 2)
            self.assertIn("--ranks-sweep", err)
            rc, _, err = run_cli("plot", src, "--size", "8", "-o", out)
            self.assertEqual(rc, 2)
            self.assertIn("--against ranks", err)


if __name__ == "__main__":
    unittest.main()


class TestReportHeadlines(unittest.TestCase):
    def test_headline_figures_first_and_in_the_summary(self):
        import tempfile
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "r.html")
            rc, text, err = h.cli("report", BASE, NEW, "--summary", "--no-plot", "-o", out)
            self.assertEqual(rc, 0, err)
            self.assertEqual(text.splitlines()[:4], [
                "Open MPI v4.1.4:",
                "  latency      0.200 us at 8 B (95% CI 0.199-0.201)",
                "  bw           12000 MB/s peak, at 64 KiB (95% CI 11964-12048)",
                "  bibw         2200 MB/s peak, at 1 KiB (95% CI 2178-2222)"])
            with open(out) as f:
                page = f.read()
            # the table of contents, then the headlines, the comparison, each set's details
            order = [page.index(x) for x in ('<ul class="toc">', 'id="headlines"',
                                             'id="comparison"', 'id="set-1"', 'id="set-2"')]
            self.assertEqual(order, sorted(order))
