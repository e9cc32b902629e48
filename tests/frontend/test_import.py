# SPDX-License-Identifier: BSD-3-Clause
"""`mpigauge import osu|imb`: OSU 7.4's and Intel MPI 2021.19's IMB text
outputs (real ones, made here: tests/fixtures/import/) as result records;
every OSU title of OSU 7.4 known; compare on four outputs a side (a test)
and on one (a tolerance check, said so); history and its check on imported
tags; a file that does not parse writes nothing."""
import glob
import json
import os
import tempfile
import unittest

import helpers as h
from helpers import load_frontend

load_frontend()
from mpigauge.data import importer  # noqa: E402  (after load_frontend put it on the path)

FIX = os.path.join(h.TOP, "tests", "fixtures")
IMP = os.path.join(FIX, "import")


def text(name):
    with open(os.path.join(IMP, name), encoding="utf-8") as f:
        return f.read()


class ParseOsu(unittest.TestCase):
    def test_every_title_of_osu_74(self):
        """The 92 cases of tests/fixtures/osu/headers74.txt: each title names its program."""
        seen = 0
        with open(os.path.join(FIX, "osu", "headers74.txt"), encoding="utf-8") as f:
            for line in f:
                if line.startswith("== "):
                    prog = line.split()[1]
                elif line.startswith("H|# OSU"):
                    m = importer._TITLE.match(line[2:].rstrip("\n"))
                    self.assertEqual(importer.osu_program(m.group(1)), prog, line)
                    self.assertEqual(m.group(2), "7.4")
                    seen += 1
        self.assertEqual(seen, 92)

    def test_collective_with_f_and_c(self):
        (t,) = importer.parse_osu(text("osu74-mpich-bcast-fc.txt"))
        self.assertEqual((t.program, t.version, t.unit, t.statistic, t.nranks),
                         ("osu_bcast", "7.4", "us", "mean", None))
        self.assertEqual([r["size"] for r in t.rows], [1, 2, 4, 8, 16, 32, 64])
        self.assertEqual(t.rows[1], {"size": 2, "figure": 0.26, "unit": "us", "min_rank_us": 0.26,
                                     "max_rank_us": 0.26, "iterations": 100,
                                     "validation": "passed"})

    def test_three_datatypes_three_tables(self):
        ts = importer.parse_osu(text("osu74-mpich-allreduce-typed.txt"))
        self.assertEqual([(t.options["datatype"], [r["size"] for r in t.rows]) for t in ts],
                         [("MPI_CHAR", [1, 2, 4, 8, 16]), ("MPI_INT", [4, 8, 16]),
                          ("MPI_FLOAT", [4, 8, 16])])
        self.assertEqual(ts[1].rows[0]["figure"], 0.82)

    def test_layouts(self):
        (b,) = importer.parse_osu(text("osu74-mpich-barrier-f.txt"))
        self.assertEqual(b.rows, [{"size": 0, "figure": 2.26, "unit": "us", "min_rank_us": 2.23,
                                   "max_rank_us": 2.3, "iterations": 100}])
        (m,) = importer.parse_osu(text("osu74-mpich-mbw_mr.txt"))
        self.assertEqual((m.nranks, m.unit, m.options["pairs"], m.options["window"]),
                         (2, "MB/s", 1, 64))
        self.assertEqual(m.rows[0], {"size": 1, "figure": 3.13, "unit": "MB/s",
                                     "msg_rate_per_s": 3125541.78})
        (n,) = importer.parse_osu(text("osu74-mpich-iallreduce-z.txt"))
        self.assertEqual(sorted(n.rows[0]), ["compute_us", "figure", "overlap_pct", "p50", "p90",
                                             "p99", "pure_us", "size", "unit"])
        (w,) = importer.parse_osu(text("osu74-mpich-bw-cz.txt"))
        self.assertEqual((w.rows[0]["validation"], w.rows[0]["p50"], w.unit), ("passed", 9.73, "MB/s"))
        (i,) = importer.parse_osu(text("osu74-mpich-init.txt"))
        self.assertEqual((i.nranks, i.rows[0]["figure"]), (2, 44000.0))
        (p,) = importer.parse_osu(text("osu74-mpich-put_latency.txt"))
        self.assertEqual((p.nranks, p.options["window_creation"], p.options["synchronization"]),
                         (2, "MPI_Win_allocate", "MPI_Win_flush"))

    def test_what_does_not_fit_is_named(self):
        bad = "# OSU MPI Latency Test v7.4\n# Size       Avg Latency(us)\n1   0.5   junk\n"
        with self.assertRaisesRegex(ValueError, "line 3: 3 fields under 2 column titles"):
            importer.parse_osu(bad)
        with self.assertRaisesRegex(ValueError, "line 1: an OSU title this importer does not know"):
            importer.parse_osu("# OSU MPI Frobnicate Test v7.4\n")

    def test_a_table_is_given_as_soon_as_it_ends(self):
        """A file is read line by line: the first table comes out before the
        lines after it are read (100 MB of output never sits in memory)."""
        def lines():
            yield "# OSU MPI Latency Test v7.4\n"
            yield "# Size       Avg Latency(us)\n"
            yield "1   0.50\n"
            yield "# OSU MPI Bandwidth Test v7.4\n"
            raise AssertionError("read past the first table before giving it")
        first = next(importer.iter_osu(lines()))
        self.assertEqual((first.program, first.rows[0]["figure"]), ("osu_latency", 0.5))


class ParseImb(unittest.TestCase):
    def test_mpi1(self):
        ts = importer.parse_imb(text("impi2021.19-imb-mpi1.txt"))
        self.assertEqual([(t.program, t.benchmark, t.nranks, t.statistic, len(t.rows)) for t in ts],
                         [("IMB-MPI1", "imb_pingpong", 2, "t", 5),
                          ("IMB-MPI1", "imb_sendrecv", 2, "t_avg", 5),
                          ("IMB-MPI1", "imb_allreduce", 2, "t_avg", 3),
                          ("IMB-MPI1", "imb_barrier", 2, "t_avg", 1)])
        self.assertEqual(ts[0].version, "2021.11")
        self.assertEqual(ts[0].rows[4], {"size": 8, "repetitions": 200, "t_us": 0.49,
                                         "mbytes_per_s": 16.17, "figure": 0.49, "unit": "us"})
        self.assertIn("IMB-MPI1 PingPong Sendrecv", ts[0].options["calling_sequence"])

    def test_process_counts_parts(self):
        ts = importer.parse_imb(text("impi2021.19-imb-mpi1-np.txt"))
        self.assertEqual([(t.benchmark, t.nranks) for t in ts],
                         [("imb_allreduce", 2), ("imb_allreduce", 3), ("imb_barrier", 2),
                          ("imb_barrier", 3)])
        (n,) = importer.parse_imb(text("impi2021.19-imb-nbc.txt"))
        self.assertEqual((n.program, n.benchmark, n.statistic), ("IMB-NBC", "imb_nbc_iallreduce",
                                                                 "t_ovrl"))
        ts = importer.parse_imb(text("impi2021.19-imb-p2p.txt"))
        self.assertEqual([t.benchmark for t in ts], ["imb_p2p_pingpong", "imb_p2p_unirandom"])
        self.assertEqual(ts[0].rows[2]["msg_rate_per_s"], 1481368)


class ImportCommand(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.d = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def imp(self, name, files, *more):
        out = os.path.join(self.d, name)
        rc, _, err = h.cli("import", "osu", *files, "-o", out, "-q", *more)
        self.assertEqual(rc, 0, err)
        return out

    def test_records_and_compare_over_four_outputs(self):
        base = self.imp("b.jsonl", sorted(glob.glob(os.path.join(IMP, "osu74-openmpi-latency-*"))),
                        "--mpi-library", "Open MPI 4.1.4")
        new = self.imp("n.jsonl", sorted(glob.glob(os.path.join(IMP, "osu74-mpich-latency-*"))),
                       "--mpi-library", "MPICH 4.0.2")
        with open(base, encoding="utf-8") as f:
            recs = [json.loads(x) for x in f]
        runs = [r for r in recs if r["type"] == "run"]
        self.assertEqual(len(runs), 4)
        self.assertEqual((runs[0]["nranks"], runs[0]["family"], runs[0]["imported"]["statistic"]),
                         (2, "imported", "mean"))
        res = [r for r in recs if r["type"] == "result"]
        self.assertEqual(len(res), 44)
        self.assertTrue(all(r["launch_id"].startswith("import-") and r["imported"] for r in res))
        rc, out, err = h.cli("compare", base, new, "--format", "json")
        self.assertEqual(rc, 0, err)
        rows = [json.loads(x) for x in out.splitlines()]
        series = [r for r in rows if r["type"] == "series"]
        self.assertEqual((rows[0]["type"], rows[0]["series"], len(series)), ("comparison", 11, 11))
        self.assertTrue(all((len(r["launches"]["base"]), len(r["launches"]["new"]), r["nranks"])
                            == (4, 4, 2) for r in series), series[0])
        self.assertTrue(all(r["test"].startswith("mann-whitney") for r in series))

    def test_one_output_a_side_is_a_tolerance_check(self):
        b = self.imp("b1.jsonl", [os.path.join(IMP, "osu74-openmpi-latency-1.txt")])
        n = self.imp("n1.jsonl", [os.path.join(IMP, "osu74-openmpi-latency-1.txt")])
        rc, out, _ = h.cli("compare", b, n)
        self.assertEqual(rc, 0)
        self.assertIn("within tolerance", out)
        self.assertNotIn(" same", out)
        self.assertIn("the ratio is all it gives", out)

    def test_one_output_a_side_fails_beyond_the_tolerance_when_slower(self):
        src = os.path.join(IMP, "osu74-openmpi-latency-1.txt")
        scaled = {}
        for name, factor in (("slow", 2.0), ("fast", 0.5)):
            path = os.path.join(self.d, f"{name}.txt")
            with open(src, encoding="utf-8") as f, open(path, "w", encoding="utf-8") as g:
                for line in f:
                    parts = line.split()
                    if len(parts) == 2 and parts[0].isdigit():
                        line = f"{parts[0]:<10}{float(parts[1]) * factor:>16.2f}\n"
                    g.write(line)
            scaled[name] = self.imp(f"{name}.jsonl", [path])
        b = self.imp("b1.jsonl", [src])
        rc, out, err = h.cli("compare", b, scaled["slow"], "--fail-on-regression")
        self.assertEqual(rc, 1, out)
        self.assertIn("beyond the tolerance on the slower side", err)
        self.assertIn("beyond tolerance", out)
        # no test ran, and the header says so; the missing sentinels said once
        self.assertIn("no test ran", out)
        self.assertNotIn("Mann-Whitney", out)
        self.assertNotIn("Benjamini", out)
        self.assertEqual(out.count("without sentinels"), 1, out)
        self.assertNotIn("imported: no sentinels", out)
        rc, out, err = h.cli("compare", b, scaled["fast"], "--fail-on-regression")
        self.assertEqual(rc, 0, err)
        self.assertIn("beyond tolerance", out)

    def test_imported_against_mpigauge_says_why_nothing_is_compared(self):
        b = self.imp("b1.jsonl", [os.path.join(IMP, "osu74-openmpi-latency-1.txt")])
        own = os.path.join(self.d, "own.jsonl")
        with open(own, "w", encoding="utf-8") as f:
            f.writelines(json.dumps(r) + "\n" for r in h.synthetic_set("Open MPI 4.1.4", {}))
        rc, _, err = h.cli("compare", b, own)
        self.assertEqual(rc, 2)
        self.assertRegex(err, r"is imported \(osu_latency: OSU's or IMB's own figures under "
                         r"their programs' names and options\), .* mpigauge's own results "
                         r"\(bw, latency\)")

    def test_means_meet_an_imported_osu_output_and_mpigauge_run(self):
        b = self.imp("b.jsonl", sorted(glob.glob(os.path.join(IMP, "osu74-openmpi-latency-*"))))
        own = os.path.join(self.d, "own.jsonl")
        recs = h.synthetic_set("Open MPI 4.1.4", {})
        for r in recs:  # means twice the medians: the comparison must read the means
            if r["type"] == "result":
                r["mean"] = 2 * r["median"]
        h.write_jsonl(own, recs)
        rc, _, err = h.cli("compare", b, own)
        self.assertEqual(rc, 2)
        self.assertIn("or with mpigauge's means of the same benchmark by --means", err)
        rc, out, err = h.cli("compare", b, own, "--means", "--format", "json")
        self.assertEqual(rc, 0, err)
        rows = [json.loads(x) for x in out.splitlines()]
        series = {r["size_bytes"]: r for r in rows if r["type"] == "series"}
        # OSU's 8 and 1024 bytes meet mpigauge's latency; its bw has no OSU side
        self.assertEqual(sorted(series), [8, 1024])
        s8 = series[8]
        self.assertEqual((s8["benchmark"], len(s8["launches"]["base"]),
                          len(s8["launches"]["new"])), ("latency", 4, 5))
        # the means, 0.40 us, against OSU's 0.485 us: x0.82 (the medians, 0.20 us, x0.41)
        self.assertTrue(0.75 < s8["ratio"] < 0.9, s8["ratio"])
        self.assertTrue(s8["test"].startswith("mann-whitney"), s8)
        rc, out, err = h.cli("compare", b, own, "--means")
        self.assertIn("over per-launch means (--means: OSU's figure;", out)
        # an OSU program without an mpigauge benchmark among the results is named
        other = self.imp("f.jsonl", [os.path.join(IMP, "osu74-mpich-barrier-f.txt")])
        rc, out, err = h.cli("compare", other, own, "--means")
        self.assertEqual(rc, 2)
        self.assertIn("--means: no mpigauge benchmark among the results for osu_barrier", err)

    def history_shows(self, results, tag, bench, figure):
        """results added under tag; history show's 8-byte line of bench has figure."""
        db = os.path.join(self.d, "h.sqlite")
        self.assertEqual(h.cli("history", "--db", db, "add", results, "--tag", tag)[0], 0)
        rc, out, err = h.cli("history", "--db", db, "show", bench, "--size", "8")
        self.assertEqual(rc, 0, err)
        self.assertRegex(out, rf"{bench}\s+2\s+-\s+8\s+{tag}\s+{figure} us")

    def test_the_drop_in_output_is_mpigauge_and_a_history_says_the_tool_changed(self):
        src = os.path.join(IMP, "mpigauge-dropin-openmpi-latency.txt")
        t = importer.parse_osu(text("mpigauge-dropin-openmpi-latency.txt"))[0]
        self.assertEqual((t.suite, t.statistic, t.library, t.nranks, t.version),
                         ("mpigauge (OSU drop-in)", "median", "Open MPI 4.1.4", 2,
                          "0.1.0-g57dfa4e-dirty"))
        outs = sorted(glob.glob(os.path.join(IMP, "osu74-openmpi-latency-*")))
        osu, osu2 = self.imp("o.jsonl", outs[:2]), self.imp("o2.jsonl", outs[2:])
        drop = self.imp("d.jsonl", [src])
        with open(drop, encoding="utf-8") as f:
            run = json.loads(f.readline())
        self.assertEqual((run["mpi_library"], run["imported"]["statistic"]),
                         ("Open MPI 4.1.4", "median"))
        db = os.path.join(self.d, "h.sqlite")
        for path, tag in ((osu, "4.1.4"), (osu2, "4.1.4b"), (drop, "4.1.5")):
            self.assertEqual(h.cli("history", "--db", db, "add", path, "--tag", tag)[0], 0)
        rc, out, err = h.cli("history", "--db", db, "show", "osu_latency", "--size", "8")
        self.assertEqual(rc, 0, err)
        self.assertEqual(err.count("the tool changed"), 1, err)
        self.assertIn("the tool changed between tags 4.1.4b and 4.1.5: OSU Micro-Benchmarks 7.4 "
                      "(means) -> mpigauge (OSU drop-in) 0.1.0-g57dfa4e-dirty (medians)", err)
        self.assertIn("`--tag 4.1.5-mpigauge`", err)

    def test_history_of_imported_tags(self):
        b = self.imp("b.jsonl", sorted(glob.glob(os.path.join(IMP, "osu74-openmpi-latency-*"))))
        self.history_shows(b, "ompi", "osu_latency", r"0\.485")

    def test_imb_into_compare_and_history(self):
        out = os.path.join(self.d, "imb.jsonl")
        rc, _, err = h.cli("import", "imb", os.path.join(IMP, "impi2021.19-imb-mpi1.txt"),
                           os.path.join(IMP, "impi2021.19-imb-mpi1-np.txt"), "-o", out, "-q",
                           "--mpi-library", "Intel MPI 2021.19")
        self.assertEqual(rc, 0, err)
        with open(out, encoding="utf-8") as f:
            recs = [json.loads(x) for x in f]
        runs = [r for r in recs if r["type"] == "run"]
        self.assertEqual([(r["benchmark"], r["nranks"]) for r in runs],
                         [("imb_pingpong", 2), ("imb_sendrecv", 2), ("imb_allreduce", 2),
                          ("imb_barrier", 2), ("imb_allreduce", 2), ("imb_allreduce", 3),
                          ("imb_barrier", 2), ("imb_barrier", 3)])
        mbs = [r for r in recs if r["type"] == "result" and r["unit"] == "MB/s"]
        self.assertEqual([(r["benchmark"], r["size_bytes"], r["median"]) for r in mbs][:2],
                         [("imb_pingpong", 1, 1.77), ("imb_pingpong", 2, 3.61)])
        # the two runs' 2-process Allreduce and Barrier: one launch a side, a tolerance check
        other = os.path.join(self.d, "np.jsonl")
        self.assertEqual(h.cli("import", "imb", os.path.join(IMP, "impi2021.19-imb-mpi1-np.txt"),
                               "-o", other, "-q")[0], 0)
        single = os.path.join(self.d, "one.jsonl")
        self.assertEqual(h.cli("import", "imb", os.path.join(IMP, "impi2021.19-imb-mpi1.txt"),
                               "-o", single, "-q")[0], 0)
        rc, text, err = h.cli("compare", single, other, "--format", "json")
        self.assertEqual(rc, 0, err)
        series = [json.loads(x) for x in text.splitlines()][1:]
        self.assertEqual(sorted({(r["benchmark"], r["nranks"]) for r in series}),
                         [("imb_allreduce", 2), ("imb_barrier", 2)])
        self.assertTrue(all(r["verdict"] in ("within tolerance", "beyond tolerance")
                            for r in series), [r["verdict"] for r in series])
        self.history_shows(out, "impi", "imb_pingpong", r"0\.490")

    def test_a_foreign_line_ends_the_table_when_asked(self):
        log = os.path.join(self.d, "site.log")
        with open(log, "w", encoding="utf-8") as f:
            f.write("Sun Nov 29 10:00:01 UTC 2026\n# OSU MPI Latency Test v7.4\n"
                    "# Datatype: MPI_CHAR.\n# Size       Avg Latency(us)\n"
                    "1                       0.19\n2                       0.18\n"
                    "[vm:01234] 1 more process has sent help message help-mpi-btl-base.txt\n"
                    "4                       0.18\n"
                    "# OSU MPI Bandwidth Test v7.4\n# Size      Bandwidth (MB/s)\n"
                    "1                       4.50\n")
        out = os.path.join(self.d, "o.jsonl")
        rc, _, err = h.cli("import", "osu", log, "-o", out)
        self.assertEqual(rc, 2)
        self.assertIn("line 7: 9 fields under 2 column titles; nothing written "
                      "(--end-at-foreign-line", err)
        self.assertFalse(os.path.exists(out))
        rc, _, err = h.cli("import", "osu", log, "-o", out, "--end-at-foreign-line")
        self.assertEqual(rc, 0, err)
        self.assertIn("line 7: 9 fields under 2 column titles: '[vm:01234] 1 more process", err)
        self.assertIn("the table ends at the line before", err)
        with open(out, encoding="utf-8") as f:
            recs = [json.loads(x) for x in f]
        res = [(r["benchmark"], r["size_bytes"], r["median"]) for r in recs
               if r["type"] == "result"]
        # the latency table's two rows before the foreign line; its third row
        # (after it) is left out; the next table is whole
        self.assertEqual(res, [("osu_latency", 1, 0.19), ("osu_latency", 2, 0.18),
                               ("osu_bw", 1, 4.5)])

    def test_a_file_that_does_not_parse_writes_nothing(self):
        bad = os.path.join(self.d, "bad.txt")
        with open(bad, "w", encoding="utf-8") as f:
            f.write("# OSU MPI Latency Test v7.4\n# Size       Avg Latency(us)\n1  x\n")
        out = os.path.join(self.d, "o.jsonl")
        rc, _, err = h.cli("import", "osu", os.path.join(IMP, "osu74-mpich-init.txt"), bad,
                           "-o", out)
        self.assertEqual(rc, 2)
        self.assertIn("bad.txt: line 3: 'x' under Avg Latency(us) is not a number", err)
        self.assertFalse(os.path.exists(out))
        rc, _, err = h.cli("import", "imb", os.path.join(IMP, "osu74-mpich-init.txt"))
        self.assertEqual(rc, 2)
        self.assertIn("no IMB table with rows found", err)

    def test_figures_sizes_and_counts_that_are_not_so(self):
        """Every figure a finite number above 0, every size and count a whole
        number from 0: else the file and line, exit 2, nothing written."""
        osu = "# OSU MPI Latency Test v7.4\n# Size       Avg Latency(us)\n{size}  {fig}\n"
        out = os.path.join(self.d, "o.jsonl")
        bad = os.path.join(self.d, "bad.txt")
        for size, fig, says in (("8", "nan", "'nan' under Avg Latency(us) is not a finite number"),
                                ("8", "inf", "is not a finite number"),
                                ("8", "1e400", "'1e400' under Avg Latency(us) is not a finite"),
                                ("8", "-0", "'-0' under Avg Latency(us): a time or rate above 0"),
                                ("8", "0.00", "a time or rate above 0"),
                                ("8", "-1.5", "a time or rate above 0"),
                                ("inf", "1.5", "'inf' under Size is not a whole number"),
                                ("-8", "1.5", "'-8' under Size is not a whole number"),
                                ("8.5", "1.5", "'8.5' under Size is not a whole number"),
                                ("1" + "0" * 30, "1.5", "is not a whole number from 0 to 2^62")):
            with open(bad, "w", encoding="utf-8") as f:
                f.write(osu.format(size=size, fig=fig))
            rc, _, err = h.cli("import", "osu", bad, "-o", out)
            self.assertEqual(rc, 2, (size, fig))
            self.assertIn("bad.txt: line 3: ", err)
            self.assertIn(says, err)
            self.assertEqual(len(err.strip().splitlines()), 1, err)
            self.assertFalse(os.path.exists(out))
        imb = ("# Benchmarking PingPong\n# #processes = 2\n"
               "       {head}      t[usec]   Mbytes/sec\n  {b}   {r}   {t}   0.00\n")
        for fill, says in (({"head": "#bytes #repetitions", "b": "inf", "r": "1000", "t": "0.2"},
                            "line 4: 'inf' under size is not a whole number"),
                           ({"head": "#bytes #repetitions", "b": "0", "r": "inf", "t": "0.2"},
                            "line 4: 'inf' under repetitions is not a whole number"),
                           ({"head": "#bytes #repetitions", "b": "0", "r": "10", "t": "nan"},
                            "line 4: 'nan' under t_us is not a finite number")):
            with open(bad, "w", encoding="utf-8") as f:
                f.write(imb.format(**fill))
            rc, _, err = h.cli("import", "imb", bad, "-o", out)
            self.assertEqual(rc, 2, fill)
            self.assertIn(says, err)
        with open(bad, "w", encoding="utf-8") as f:
            f.write("# Benchmarking PingPong\n# #processes = 2\n  #bytes #repetitions  Mbytes/sec\n"
                    "  0  1000  0.00\n")
        rc, _, err = h.cli("import", "imb", bad, "-o", out)
        self.assertEqual(rc, 2)
        self.assertIn("line 1: the section 'PingPong' has no time column", err)
        self.assertFalse(os.path.exists(out))
        # IMB's 0.00 Mbytes/sec at 0 bytes is a rate, not the figure: imported
        with open(bad, "w", encoding="utf-8") as f:
            f.write(imb.format(head="#bytes #repetitions", b="0", r="1000", t="0.20"))
        rc, _, err = h.cli("import", "imb", bad, "-o", out, "-q")
        self.assertEqual(rc, 0, err)
        for opt, v in (("--ranks", "-3"), ("--ranks", "0"), ("--nodes", "-1")):
            rc, _, err = h.cli("import", "osu", os.path.join(IMP, "osu74-mpich-init.txt"), opt, v)
            self.assertEqual(rc, 2)
            self.assertIn(f"{opt} {v}: give 1 or more", err)

    def test_a_name_with_escapes_reaches_the_terminal_shown(self):
        bad = os.path.join(self.d, "x\x1b[2Jy.txt")
        with open(bad, "w", encoding="utf-8") as f:
            f.write("# OSU MPI Latency Test v7.4\n# Size  Avg Latency(us)\n1  x\n")
        rc, _, err = h.cli("import", "osu", bad)
        self.assertEqual(rc, 2)
        self.assertNotIn("\x1b", err)
        self.assertIn("x\\x1b[2Jy.txt", err)
        rc, _, err = h.cli("import", "osu", os.path.join(IMP, "osu74-mpich-init.txt"),
                           "--mpi-library", "Open MPI\x1b[31m 4.1.4")
        self.assertEqual(rc, 2)
        self.assertIn("--mpi-library", err)
        self.assertNotIn("\x1b", err)
        with open(bad, "w", encoding="utf-8") as f:
            f.write("# Benchmarking Ping\x1b[2JPong\n# #processes = 2\n"
                    "  #bytes #repetitions  t[usec]  Mbytes/sec\n  0  1000  0.20  0.00\n")
        rc, _, err = h.cli("import", "imb", bad)
        self.assertEqual(rc, 2)
        self.assertIn("is not the name of an IMB benchmark", err)
        self.assertNotIn("\x1b", err)


if __name__ == "__main__":
    unittest.main()
