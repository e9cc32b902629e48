# SPDX-License-Identifier: BSD-3-Clause
"""`mpigauge history` and `mpigauge dashboard`: adding files (and refusing
the same launches twice), list, show, check (exit 1 on a regression; paired
when both sides are configurations of one interleaved run), export back to
JSON Lines, and a damaged or foreign database refused and left alone."""
import json
import re
import os
import sqlite3
import tempfile
import unittest

import helpers as h
from helpers import load_frontend

mg = load_frontend()
BASE = os.path.join(h.DATA, "base.jsonl")
NEW = os.path.join(h.DATA, "new.jsonl")


cli = h.cli


class HistoryCase(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.d = self.tmp.name
        self.db = os.path.join(self.d, "h.sqlite")

    def tearDown(self):
        self.tmp.cleanup()

    def hist(self, *argv):
        return cli("history", "--db", self.db, *argv)

    def add_two(self):
        self.assertEqual(self.hist("add", BASE, "--tag", "v1")[0], 0)
        self.assertEqual(self.hist("add", NEW, "--tag", "v2")[0], 0)


class TestAdd(HistoryCase):
    """add and list."""

    def test_add_counts_launches_and_list_shows_tags_in_order(self):
        rc, out, _ = self.hist("add", BASE, "--tag", "v1")
        self.assertEqual(rc, 0)
        self.assertIn("added 11 launches", out)
        self.hist("add", NEW)                          # default tag: the file's name
        rc, out, _ = self.hist("list")
        self.assertEqual(rc, 0)
        lines = out.splitlines()
        self.assertTrue(lines[2].startswith("v1 ") and lines[3].startswith("new "), out)
        self.assertIn("MPICH 4.0.2", lines[3])
        self.assertRegex(lines[2], r"\s11\s+3\s")      # 11 launches of 3 benchmarks

    def test_a_cvars_set_is_not_a_launch(self):
        # a program's own file: the cvars set (no launch id) before each run record
        recs = [json.loads(line) for line in open(BASE)]
        cv = {"type": "cvars", "digest": "00aa", "mpi_library": "x",
              "fields": ["name", "value"], "cvars": [["a", "1"]]}
        out = []
        for r in recs:
            if r.get("type") == "run":
                out.append(cv)
            out.append(r)
        path = os.path.join(self.d, "with-cvars.jsonl")
        h.write_jsonl(path, out)
        rc, text, _ = self.hist("add", path, "--tag", "v1")
        self.assertEqual(rc, 0)
        self.assertIn("added 11 launches", text)
        self.assertNotIn("without results", text)

    def test_same_launches_twice_are_refused_and_nothing_is_added(self):
        self.hist("add", BASE, "--tag", "v1")
        rc, _, err = self.hist("add", BASE, "--tag", "again")
        self.assertEqual(rc, 2)
        self.assertIn("11 of its 11 launches are already in the history (tag 'v1'", err)
        _, out, _ = self.hist("list")
        self.assertNotIn("again", out)

    def test_file_without_results_and_bad_tags_are_refused(self):
        empty = os.path.join(self.d, "empty.jsonl")
        h.write_jsonl(empty, [{"type": "session", "session_id": "x"}])
        self.assertEqual(self.hist("add", empty)[0], 2)
        for tag in ("a@b", "last", " "):
            rc, _, err = self.hist("add", BASE, "--tag", tag)
            self.assertEqual(rc, 2, tag)
            self.assertIn("--tag", err)

    def test_row_values_come_from_the_run_records(self):
        self.add_two()
        db = sqlite3.connect(self.db)
        row = db.execute("SELECT library, nranks, hosts, date_utc, benchmark FROM launches "
                         "WHERE tag = 'v2' ORDER BY id LIMIT 1").fetchone()
        self.assertEqual(row, ("MPICH Version:\t4.0.2", 2, "node1", "2026-11-22T09:00:00Z",
                               "latency"))
        n = db.execute("SELECT count(*) FROM results r JOIN launches l ON l.id = r.launch "
                       "WHERE l.tag = 'v1'").fetchone()[0]
        self.assertEqual(n, 32)                        # every result line of base.jsonl
        db.close()


class TestShowCheckExport(HistoryCase):
    def test_show_gives_the_median_over_launches_per_tag(self):
        self.add_two()
        rc, out, _ = self.hist("show", "latency", "--size", "64K", "--format", "json")
        self.assertEqual(rc, 0)
        recs = [json.loads(l) for l in out.splitlines()]
        self.assertEqual([r["tag"] for r in recs], ["v1", "v2"])
        self.assertAlmostEqual(recs[0]["median"], 5.0 * 1.000, places=6)
        self.assertAlmostEqual(recs[1]["median"], 6.0, places=6)
        self.assertEqual(recs[1]["launches"], 5)
        self.assertLessEqual(recs[1]["ci95_low"], recs[1]["median"])
        rc, _, err = self.hist("show", "nosuch")
        self.assertEqual(rc, 2)
        self.assertIn("benchmarks: bibw, bw, latency", err)

    def test_check_exits_1_on_a_regression_and_names_it(self):
        self.add_two()
        rc, out, err = self.hist("check", "v2", "--against", "last")
        self.assertEqual(rc, 1)
        self.assertIn("regression: 2 of 6 series of v2 are slower than v1", err)
        self.assertRegex(out, r"latency\s+64K\s+us\s+5\.00\s+6\.00\s+1\.200.*slower")
        rc, out, _ = self.hist("check", "v1", "--against", "v1")
        self.assertEqual(rc, 2)

    def test_check_a_file_against_a_tag_without_regression_exits_0(self):
        self.hist("add", BASE, "--tag", "v1")
        rc, out, _ = self.hist("check", BASE, "--against", "last", "--format", "json")
        self.assertEqual(rc, 0)
        verdicts = [json.loads(l).get("verdict") for l in out.splitlines()]
        self.assertIn("same", verdicts)
        self.assertNotIn("slower", verdicts)

    def test_check_floors_gate_on_absolute_values(self):
        self.hist("add", BASE, "--tag", "v1")
        # no regression; floors met: exit 0, one line per series checked
        rc, _, err = self.hist("check", BASE, "--against", "last", "--floor", "bw:64K=100",
                               "--floor", "latency=1000")
        self.assertEqual(rc, 0, err)
        self.assertRegex(err, r"floor bw 64K: \S+ MB/s \[\S+, \S+\], at least 100\.0: met")
        self.assertEqual(len(re.findall(r"^floor latency ", err, re.M)), 3)
        # a ceiling the latency misses: exit 1, said
        rc, _, err = self.hist("check", BASE, "--against", "last", "--floor", "latency:8=0.01")
        self.assertEqual(rc, 1)
        self.assertRegex(err, r"floor latency 8: .* at most 0\.010: BEYOND")
        for bad in ("bw", "bw:1M=", "bw:1M=-3", "bw:abc=5", "nosuch=5", "bw:3K=5",
                    "latency:8=inf", "latency:8=1e400", "latency:8=nan"):
            rc, out, err = self.hist("check", BASE, "--against", "last", "--floor", bad)
            self.assertEqual(rc, 2, (bad, err))
            self.assertIn("--floor", err)
            self.assertNotIn("n/a", err)
            self.assertEqual(out, "", "a floor is checked before the comparison is made")

    def test_configurations_of_one_interleaved_run_are_paired(self):
        recs = h.interleaved_records({"release": [1.0, 1.6, 1.0, 1.6, 1.0, 1.6, 1.0, 1.6],
                                      "new": [1.2, 1.92, 1.2, 1.92, 1.2, 1.92, 1.2, 1.92]})
        path = os.path.join(self.d, "nightly.jsonl")
        h.write_jsonl(path, recs)
        rc, out, _ = self.hist("add", path, "--tag", "n1")
        self.assertIn("configurations new, release", out)
        rc, out, _ = self.hist("check", "n1@new", "--against", "n1@release")
        self.assertEqual(rc, 1, out)
        self.assertIn("signed-rank", out)              # paired by round, not Mann-Whitney
        rc, _, err = self.hist("check", "n1@other", "--against", "n1@release")
        self.assertEqual(rc, 2)
        self.assertIn("has no configuration 'other'", err)

    def test_export_gives_the_launches_back_and_they_are_known(self):
        self.add_two()
        out_path = os.path.join(self.d, "all.jsonl")
        self.assertEqual(self.hist("export", "-o", out_path)[0], 0)
        recs = [json.loads(l) for l in open(out_path, encoding="utf-8")]
        self.assertEqual(sum(r["type"] == "run" for r in recs), 21)
        self.assertEqual(sum(r["type"] == "result" for r in recs), 32 + 30)
        # the same launches again are refused; a fresh history takes them whole
        self.assertEqual(self.hist("add", out_path, "--tag", "copy")[0], 2)
        rc, out, _ = cli("history", "--db", os.path.join(self.d, "b.sqlite"), "add", out_path)
        self.assertEqual(rc, 0)
        self.assertIn("added 21 launches", out)
        # and compare reads the export like any results file
        one = os.path.join(self.d, "v2.jsonl")
        self.hist("export", "--tag", "v2", "-o", one)
        self.assertEqual(cli("compare", BASE, one)[0], 0)


class TestDatabaseFiles(HistoryCase):
    def assert_refused(self, data, words):
        with open(self.db, "wb") as f:
            f.write(data)
        for argv in (("list",), ("add", BASE)):
            rc, _, err = self.hist(*argv)
            self.assertEqual(rc, 2, argv)
            self.assertIn(words, err)
            self.assertIn("left as it is", err)
            self.assertEqual(err.count("\n"), 1, err)
        with open(self.db, "rb") as f:
            self.assertEqual(f.read(), data)

    def test_a_file_that_is_not_sqlite_is_refused_and_untouched(self):
        self.assert_refused(b"benchmark,size\n8,0.2\n", "not an SQLite database")

    def test_another_programs_database_is_refused(self):
        db = sqlite3.connect(self.db)
        db.execute("CREATE TABLE songs (title TEXT)")
        db.commit()
        db.close()
        data = open(self.db, "rb").read()
        self.assert_refused(data, "an SQLite database of another program")

    def test_a_damaged_history_is_refused(self):
        self.add_two()
        data = bytearray(open(self.db, "rb").read())
        for i in range(4096, len(data), 4096):          # every page but the header's
            data[i + 8:i + 200] = b"\xff" * 192
        self.assert_refused(bytes(data), "damaged")

    def test_missing_history_is_named_for_reading(self):
        rc, _, err = self.hist("list")
        self.assertEqual(rc, 2)
        self.assertIn("no history at", err)
        self.assertFalse(os.path.exists(self.db))


class TestDashboard(HistoryCase):
    def test_a_benchmark_is_filed_by_the_family_its_run_record_names(self):
        # "allreduce_hier" is no name the front-end knows: its record says where it goes;
        # a record without the field (an older mpigauge) is filed under point-to-point
        f = os.path.join(self.d, "fam.jsonl")
        h.write_jsonl(f, [h.run_record("allreduce_hier", family="collective"),
                          h.result_record("allreduce_hier", 8, "us", 3.0),
                          h.run_record("put_new", family="onesided"),
                          h.result_record("put_new", 8, "us", 2.0),
                          h.run_record("allreduce"), h.result_record("allreduce", 8, "us", 4.0)])
        self.assertEqual(self.hist("add", f, "--tag", "v1")[0], 0)
        site = os.path.join(self.d, "site")
        self.assertEqual(cli("dashboard", "--db", self.db, "-o", site)[0], 0)

        def page(name):
            with open(os.path.join(site, name), encoding="utf-8") as fh:
                return fh.read()
        self.assertIn("allreduce_hier", page("collective.html"))
        self.assertIn("put_new", page("onesided.html"))
        self.assertNotIn("allreduce_hier", page("pt2pt.html"))
        self.assertIn("allreduce, 2 ranks", page("pt2pt.html"))
        self.assertEqual(mg.History(self.db).families(),
                         {"allreduce_hier": "collective", "put_new": "onesided", "allreduce": None})

    def test_site_has_a_page_per_family_regressions_and_provenance(self):
        self.add_two()
        site = os.path.join(self.d, "site")
        rc, out, _ = cli("dashboard", "--db", self.db, "-o", site)
        self.assertEqual(rc, 0, out)
        names = sorted(os.listdir(site))
        self.assertEqual([n for n in names if n.endswith(".html")],
                         ["collective.html", "index.html", "onesided.html", "overlap.html",
                          "pt2pt.html"])
        index = open(os.path.join(site, "index.html"), encoding="utf-8").read()
        self.assertIn("Regressions of v2 against v1", index)
        self.assertRegex(index, r"latency, 2 ranks, size 64K</td><td>v1</td><td>6\.00</td>"
                                r"<td class=num>1\.20</td><td class=regress>slower")
        pt2pt = open(os.path.join(site, "pt2pt.html"), encoding="utf-8").read()
        # per size: latency 3, bw 3, bibw 2; per benchmark: one chart of every size
        self.assertEqual(pt2pt.count("<svg"), 8 + 3)
        self.assertEqual(pt2pt.count('data-regression="1"'), 2)
        # the grid: one row per benchmark, v2 against v1, speedup and verdict per size
        grid = pt2pt[pt2pt.index("<table class=grid>"):pt2pt.index("</table>")]
        self.assertIn("v2 against v1", grid)
        self.assertEqual(grid.count("<tr><th>"), 3)    # header, bw, latency (bibw: v1 only)
        self.assertRegex(grid, r'class="num v-slower" style="background:#[0-9a-f]{6}" '
                               r'title="latency, 2 ranks, 64K: 6 us in v2, speedup 0\.833 '
                               r'against v1, slower"><a href="#c-latency_2_ranks_size_64K-[0-9a-f]{6}">'
                               r'0\.83\u25bc</a>')
        anchor = re.search(r'href="#(c-latency_2_ranks_size_64K-[0-9a-f]{6})"', grid).group(1)
        self.assertIn(f'id="{anchor}"', pt2pt)
        self.assertEqual(mg.overview.cell_colour(1.0), "#ffffff")
        self.assertEqual(mg.overview.cell_colour(2.0), "#69d769")
        self.assertEqual(mg.overview.cell_colour(0.5), "#e15f5f")
        self.assertIn('href="provenance/v1-', pt2pt)
        prov = [n for n in os.listdir(os.path.join(site, "provenance"))]
        self.assertEqual(len(prov), 2)
        text = open(os.path.join(site, "provenance", sorted(prov)[1]), encoding="utf-8").read()
        self.assertEqual(text.count("<details"), 10)   # v2's launches

    def test_every_stored_field_is_escaped(self):
        """A payload in every text field of the records (a run date of "<!--" once hid
        every regression on the overview) is shown as text; the regressions stay."""
        pay = '<!--"><script>document.body.dataset.pwned=1</script>'

        def poison(r):
            r = dict(r)
            if r["type"] == "run":
                r.update(date_utc=pay, mpi_library=pay, mpi_library_version=pay,
                         hosts=[pay, pay], bindings=[pay, pay], mpigauge_version=pay)
            return r
        paths = []
        for src, name in ((BASE, "b.jsonl"), (NEW, "n.jsonl")):
            recs = [poison(json.loads(l)) for l in open(src, encoding="utf-8")]
            paths.append(os.path.join(self.d, name))
            h.write_jsonl(paths[-1], recs)
        self.assertEqual(self.hist("add", paths[0], "--tag", "v1" + pay)[0], 0)
        self.assertEqual(self.hist("add", paths[1], "--tag", "v2")[0], 0)
        site = os.path.join(self.d, "site")
        rc, out, err = cli("dashboard", "--db", self.db, "-o", site)
        self.assertEqual(rc, 0, err)
        for root, _, files in os.walk(site):
            for f in files:
                if f.endswith(".html"):
                    text = open(os.path.join(root, f), encoding="utf-8").read()
                    self.assertNotIn("<!--", text, f)
                    self.assertNotIn("<script>document", text, f)
        index = open(os.path.join(site, "index.html"), encoding="utf-8").read()
        self.assertIn("Regressions of v2 against v1&lt;!--", index)
        self.assertIn("<td class=regress>slower", index)

    def test_by_date_orders_the_tags_by_their_runs_and_labels_them_with_the_date(self):
        later = [dict(r, date_utc="2027-01-05T00:00:00Z") if r["type"] == "run" else r
                 for r in (json.loads(l) for l in open(NEW, encoding="utf-8"))]
        path = os.path.join(self.d, "later.jsonl")
        h.write_jsonl(path, later)
        self.hist("add", path, "--tag", "b-later")     # added first, run later
        self.hist("add", BASE, "--tag", "a-earlier")
        site = os.path.join(self.d, "site")
        self.assertEqual(cli("dashboard", "--db", self.db, "-o", site, "--by", "date")[0], 0)
        page = open(os.path.join(site, "pt2pt.html"), encoding="utf-8").read()
        first = page.index(">2026-11-22<")
        self.assertLess(first, page.index(">2027-01-05<"))
        index = open(os.path.join(site, "index.html"), encoding="utf-8").read()
        self.assertIn("Regressions of b-later against a-earlier", index)

    def test_a_long_tag_has_a_page_name_a_file_system_takes(self):
        import mpigauge.history.dashboard as D
        long1, long2 = "a" * 299 + "1", "a" * 299 + "2"
        self.assertLessEqual(len(D.slug(long1).encode()), 100)
        self.assertNotEqual(D.slug(long1), D.slug(long2))
        self.assertTrue(D.slug("é" * 200).startswith("tag-"))
        self.assertRegex(D.slug("v1.2 rc"), r"^v1\.2_rc-[0-9a-f]{6}$")

    def test_a_folder_that_is_not_a_dashboard_is_never_replaced(self):
        self.add_two()
        mine = os.path.join(self.d, "mine")
        os.mkdir(mine)
        with open(os.path.join(mine, "notes.txt"), "w") as f:
            f.write("keep")
        rc, _, err = cli("dashboard", "--db", self.db, "-o", mine)
        self.assertEqual(rc, 2)
        self.assertIn("not an mpigauge dashboard", err)
        self.assertEqual(os.listdir(mine), ["notes.txt"])
        site = os.path.join(self.d, "site")
        self.assertEqual(cli("dashboard", "--db", self.db, "-o", site)[0], 0)
        self.assertEqual(cli("dashboard", "--db", self.db, "-o", site)[0], 0)  # its own: replaced
        self.assertEqual(sorted(os.listdir(self.d)), ["h.sqlite", "mine", "site"])
        # an empty folder of someone's is not a dashboard either; a link is never followed
        empty = os.path.join(self.d, "empty")
        os.mkdir(empty)
        ino = os.stat(empty).st_ino
        rc, _, err = cli("dashboard", "--db", self.db, "-o", empty)
        self.assertEqual((rc, "not an mpigauge dashboard" in err), (2, True), err)
        self.assertEqual((os.listdir(empty), os.stat(empty).st_ino), ([], ino))
        link = os.path.join(self.d, "link")
        os.symlink(site, link)
        rc, _, err = cli("dashboard", "--db", self.db, "-o", link)
        self.assertEqual((rc, "symbolic link" in err), (2, True), err)
        self.assertTrue(os.path.islink(link))
        self.assertEqual(sorted(os.listdir(self.d)), ["empty", "h.sqlite", "link", "mine", "site"])


if __name__ == "__main__":
    unittest.main()


class TestBadValuesAndConcurrency(HistoryCase):
    def test_bad_values_stay_out_and_the_dashboard_works(self):
        recs = [json.loads(l) for l in open(BASE, encoding="utf-8")]
        bad = {0: 0.0, 1: -1.0, 2: float("inf"), 3: float("nan")}
        k = 0
        for r in recs:
            if r["type"] == "result":
                if k in bad:
                    r["median"] = bad[k]
                elif k == 4:
                    r["size_bytes"] = 10 ** 30
                elif k == 5:
                    r["variant"] = ["a", "list"]
                k += 1
            if r["type"] == "run":
                r["mpi_library"] = None
        path = os.path.join(self.d, "bad.jsonl")
        with open(path, "w", encoding="utf-8") as f:
            for r in recs:
                f.write(json.dumps(r) + "\n")
        rc, out, err = self.hist("add", path, "--tag", "bad")
        self.assertEqual(rc, 0, err)
        self.assertIn("results not added to the history", err)
        from mpigauge.history.history import History
        db = History(self.db)
        meds = [m for (m,) in db.db.execute("SELECT median FROM results")]
        sizes = [s for (s,) in db.db.execute("SELECT size_bytes FROM results")]
        db.close()
        self.assertTrue(meds and all(m > 0 and m < float("inf") for m in meds))
        self.assertLess(max(sizes), 1 << 62)
        self.assertEqual(self.hist("add", NEW, "--tag", "v2")[0], 0)
        site = os.path.join(self.d, "site")
        self.assertEqual(cli("dashboard", "--db", self.db, "-o", site)[0], 0)
        self.assertEqual(self.hist("show", "latency")[0], 0)
        # and a tag can be removed whole
        rc, out, _ = self.hist("remove", "bad")
        self.assertEqual(rc, 0)
        self.assertIn("removed 'bad'", out)
        rc, out, _ = self.hist("list")
        self.assertNotIn("bad", out)
        self.assertEqual(self.hist("remove", "bad")[0], 2)
        for tag in ("a\nb", "x" * 300):
            self.assertEqual(self.hist("add", BASE, "--tag", tag)[0], 2)

    def test_mutated_databases_end_in_a_message_never_a_traceback(self):
        """Seeded byte mutations of a real history: every command ends with an exit code
        (0, 1 or 2), never an exception."""
        import random
        self.add_two()
        good = open(self.db, "rb").read()
        rng = random.Random(int(os.environ.get("MG_FUZZ_SEED", "11")))
        site = os.path.join(self.d, "site")
        for i in range(60):
            data = bytearray(good)
            for _ in range(rng.choice((1, 4, 32))):
                k = rng.randrange(len(data))
                data[k] = rng.randrange(256)
            with open(self.db, "wb") as f:
                f.write(bytes(data))
            for argv in (("history", "--db", self.db, "list"),
                         ("history", "--db", self.db, "show", "latency"),
                         ("history", "--db", self.db, "check", "v2", "--against", "v1"),
                         ("dashboard", "--db", self.db, "-o", site)):
                rc, _, err = cli(*argv)
                self.assertIn(rc, (0, 1, 2), (i, argv, err))
                self.assertNotIn("Traceback", err)

    def test_our_mark_without_our_tables_is_refused(self):
        import sqlite3
        d = sqlite3.connect(self.db)
        d.execute("PRAGMA application_id = %d" % 0x4D474831)
        d.execute("CREATE TABLE x (a)")
        d.commit()
        d.close()
        before = open(self.db, "rb").read()
        for argv in (("list",), ("add", BASE, "--tag", "t")):
            rc, _, err = self.hist(*argv)
            self.assertEqual(rc, 2)
            self.assertIn("without its tables", err)
        self.assertEqual(open(self.db, "rb").read(), before)

    def test_concurrent_adds_lose_nothing_and_trace_nothing(self):
        """Eight rounds of two processes adding at once: the same file under one tag,
        and each its own file into a new database."""
        import subprocess
        import sys

        def pair(db, a, b):
            cmd = [sys.executable, h.FRONTEND, "history", "--db", db, "add"]
            ps = [subprocess.Popen(cmd + list(x), stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, text=True) for x in (a, b)]
            return [(p.wait(timeout=120), p.stderr.read(), p.stdout.read(), p.stderr.close(),
                     p.stdout.close()) for p in ps]
        for i in range(8):
            db = os.path.join(self.d, f"same{i}.sqlite")
            res = pair(db, (BASE, "--tag", "t"), (BASE, "--tag", "t"))
            self.assertEqual(sorted(r[0] for r in res), [0, 2], res)
            for rc, err, _, _, _ in res:
                self.assertNotIn("Traceback", err)
                if rc == 2:
                    self.assertIn("already in the history", err)
            db2 = os.path.join(self.d, f"new{i}.sqlite")
            res = pair(db2, (BASE, "--tag", "a"), (NEW, "--tag", "b"))
            self.assertEqual([r[0] for r in res], [0, 0], res)
            rc, out, _ = cli("history", "--db", db2, "list")
            self.assertEqual(rc, 0)
            self.assertIn("a ", out)
            self.assertIn("b ", out)
