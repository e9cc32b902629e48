# SPDX-License-Identifier: BSD-3-Clause
"""Other suites' text output as mpigauge result records (`mpigauge import`,
doc/import.md): the OSU Micro-Benchmarks' tables (every layout OSU 7.x
prints: sizes or none, Validation, -f's columns, -z's tails, the
non-blocking columns, osu_mbw_mr's message rate, -T all's tables, osu_init's
line) and the Intel MPI Benchmarks' (IMB-MPI1, IMB-P2P, IMB-NBC, ...: every
"Benchmarking" section with its process count). Pure: text in, tables out;
import_cli writes them.

A table becomes one run record (one launch, as a file of an mpigauge
program), marked "imported", and a result record per row. The figure a row
carries in "median" is the suite's own: OSU's mean over its iterations,
IMB's t_avg (or t) and Mbytes/sec; "statistic" says which, and there are no
samples: `compare` tells apart what one value per side allows and what it
does not."""
import math
import re
from typing import NamedTuple

# OSU's titles ("# OSU MPI Latency Test v7.4") -> program names
_P2P = {
    "Latency": "osu_latency", "Bandwidth": "osu_bw", "Bi-Directional Bandwidth": "osu_bibw",
    "Multiple Bandwidth / Message Rate": "osu_mbw_mr", "Multi Latency": "osu_multi_lat",
    "Multi-threaded Latency": "osu_latency_mt", "Multi-process Latency": "osu_latency_mp",
    "Latency Persistent": "osu_latency_persistent",
    "Bandwidth Persistent": "osu_bw_persistent",
    "Bi-Directional Bandwidth Persistent": "osu_bibw_persistent",
    "Init": "osu_init", "Hello World": "osu_hello",
    "MPI_Put Latency": "osu_put_latency", "MPI_Get latency": "osu_get_latency",
    "MPI_Accumulate latency": "osu_acc_latency", "MPI_Compare_and_swap latency": "osu_cas_latency",
    "MPI_Fetch_and_op latency": "osu_fop_latency",
    "MPI_Get_accumulate latency": "osu_get_acc_latency", "MPI_Put Bandwidth": "osu_put_bw",
    "MPI_Get Bandwidth": "osu_get_bw", "MPI_Put Bi-directional Bandwidth": "osu_put_bibw",
}
_COLL = {
    "Allgather": "allgather", "Allgatherv": "allgatherv", "Allreduce": "allreduce",
    "All-to-All Personalized Exchange": "alltoall", "All-to-All": "alltoall",
    "All-to-Allv Personalized Exchange": "alltoallv", "All-to-Allv": "alltoallv",
    "All-to-Allw Personalized Exchange": "alltoallw", "All-to-Allw": "alltoallw",
    "Barrier": "barrier", "Broadcast": "bcast", "Gather": "gather", "Gatherv": "gatherv",
    "Reduce": "reduce", "Reduce_scatter": "reduce_scatter",
    "Reduce_scatter_block": "reduce_scatter_block", "Scatter": "scatter", "Scatterv": "scatterv",
    "Neighborhood Allgather": "neighbor_allgather",
    "Neighborhood Allgatherv": "neighbor_allgatherv",
    "Neighborhood Alltoall": "neighbor_alltoall", "Neighborhood Alltoallv": "neighbor_alltoallv",
    "Neighborhood All-to-Allv": "neighbor_alltoallv",
    "Neighborhood Alltoallw": "neighbor_alltoallw", "Neighborhood All-to-Allw": "neighbor_alltoallw",
}
_TITLE = re.compile(r"^# OSU (?:MPI(?:-CUDA|-ROCM|-OPENACC|-MANAGED|-CUDA MANAGED)? )?(.*?) ?Test"
                    r"(?: v(\S+))?\s*$")

# OSU's column titles, longest first (titles are one space apart at worst)
_OSU_COLUMNS = [
    ("Size", "size"), ("Avg Latency(us)", "us"), ("Latency (us)", "us"),
    ("Bandwidth (MB/s)", "MB/s"), ("Messages/s", "msg_rate_per_s"), ("MB/s", "MB/s"),
    ("Overall(us)", "us"), ("Compute(us)", "compute_us"), ("Coll. Init(us)", "init_us"),
    ("MPI_Test(us)", "test_us"), ("MPI_Wait(us)", "wait_us"), ("Pure Comm.(us)", "pure_us"),
    ("Min Comm.(us)", "min_comm_us"), ("Max Comm.(us)", "max_comm_us"),
    ("Overlap(%)", "overlap_pct"), ("Min Latency(us)", "min_rank_us"),
    ("Max Latency(us)", "max_rank_us"), ("Iterations", "iterations"),
    ("Validation", "validation"), ("Transmit Size", "transmit_bytes"),
]
# the fields that can be a row's figure (OSU's time or bandwidth, IMB's t,
# t_avg or t_ovrl): above 0 (IMB's Mbytes/sec is 0.00 at 0 bytes)
FIGURES = frozenset(["us", "MB/s", "t_us", "t_avg_us", "t_ovrl_us"])
_TAIL = re.compile(r"P(\d+(?:\.\d+)?) Tail (?:Lat\(us\)|BW\(MB/s\))")


# OSU's programs that run on exactly two processes (the others say how many
# only in osu_mbw_mr's pairs and osu_init's and osu_hello's lines)
PAIR_PROGRAMS = frozenset(
    ["osu_latency", "osu_bw", "osu_bibw", "osu_latency_mt", "osu_latency_persistent",
     "osu_bw_persistent", "osu_bibw_persistent"] +
    [v for k, v in _P2P.items() if k.startswith("MPI_")])


def osu_program(title):
    """The OSU program of a title's middle ("Latency", "Non-blocking
    Allreduce Latency"), or None."""
    if title in _P2P:
        return _P2P[title]
    m = re.fullmatch(r"(Non-[Bb]locking )?(.*?)( Persistent)? Latency", title)
    if m and m.group(2) in _COLL:
        name = _COLL[m.group(2)]
        return ("osu_i" + name if m.group(1) else "osu_" + name) + \
            ("_persistent" if m.group(3) else "")
    return None


class Table(NamedTuple):
    """One table of another suite's output: its program and benchmark name,
    suite, version, process count (None: not printed), the figure's unit and
    statistic, its rows ({field: value}, "size" and "figure" always), what
    it printed of its options, and the line it starts on."""
    suite: str
    program: str
    benchmark: str
    version: str
    nranks: object
    unit: str
    statistic: str
    rows: list
    options: dict
    line: int
    library: object = None  # the MPI library the output names (mpigauge's drop-in), or None


def osu_columns(header):
    """[(title, field)] of an OSU column-title line ("# Size  Avg ...")."""
    text = header.lstrip("#").strip()
    out = []
    while text:
        for title, field in _OSU_COLUMNS:
            if text.startswith(title):
                break
        else:
            m = _TAIL.match(text)
            if not m:
                raise ValueError(f"unknown column title at {text[:24]!r}")
            title, field = m.group(0), "p" + m.group(1)
        out.append((title, field))
        text = text[len(title):].lstrip()
    return out


_COUNTS = ("size", "iterations", "transmit_bytes", "repetitions")
MAX_SIZE = 1 << 62      # bytes: beyond any message an MPI program sends


def _number(word):
    """A finite number, or None (nan, inf and 1e400 are not figures)."""
    try:
        v = float(word)
    except ValueError:
        return None
    return v if math.isfinite(v) else None


def _is_float(word):
    try:
        float(word)
    except ValueError:
        return False
    return True


def _value(field, word, title, lineno):
    """A row's field from its word: a size or count a whole number from 0 to
    2^62, any other figure a finite number, the figure itself above 0;
    ValueError naming the line otherwise."""
    if field in _COUNTS:
        if not re.fullmatch(r"[0-9]{1,19}", word) or int(word) > MAX_SIZE:
            raise ValueError(f"line {lineno}: {word!r} under {title} is not a whole number "
                             "from 0 to 2^62")
        return int(word)
    v = _number(word)
    if v is None:
        raise ValueError(f"line {lineno}: {word!r} under {title} is not a "
                         + ("finite number" if _is_float(word) else "number"))
    if field in FIGURES and not v > 0:
        raise ValueError(f"line {lineno}: {word!r} under {title}: a time or rate above 0 "
                         "was expected")
    return v


def _osu_row(cols, words, lineno):
    """A row's fields from its words; ValueError when they do not fit."""
    if len(words) != len(cols):
        raise ValueError(f"line {lineno}: {len(words)} fields under {len(cols)} column titles")
    row = {}
    for (title, field), w in zip(cols, words):
        if field == "validation":
            if w not in ("Pass", "Fail"):
                raise ValueError(f"line {lineno}: {w!r} under Validation")
            row[field] = "passed" if w == "Pass" else "failed"
            continue
        v = _value(field, w, title, lineno)
        if "figure" not in row and field in ("us", "MB/s"):
            row["figure"], row["unit"] = v, field
        else:
            row[field] = v
    row.setdefault("size", 0)
    return row


class _OsuState:
    """What the lines of an OSU output set so far."""

    def __init__(self):
        self.tables = []
        self.title = None       # (program, version, line)
        self.datatype = None
        self.options = {}
        self.cols = None
        self.rows = []
        self.dropin = None      # mpigauge's note line: (version, library, ranks)


# The note line of mpigauge's OSU drop-in (mpi/driver/mg_output.c): its
# figures are medians over samples, not OSU's means, and it names the library
_DROPIN = re.compile(r"# mpigauge (\S+), (.+), (\d+) ranks? on \d+ nodes?: every figure a "
                     r"median over samples")


def _osu_close(st):
    """The table the lines so far make, into st.tables (taken by the caller)."""
    if st.title and st.rows:
        program, version, line = st.title
        opts = dict(st.options)
        if st.datatype:
            opts["datatype"] = st.datatype
        nranks = opts.get("nprocs") or (2 * opts["pairs"] if "pairs" in opts else
                                        2 if program in PAIR_PROGRAMS else None)
        suite, statistic, library = "OSU Micro-Benchmarks", "mean", None
        if st.dropin:  # the same table printed by mpigauge: its version, medians, library
            suite, statistic = "mpigauge (OSU drop-in)", "median"
            version, library, nranks = st.dropin[0], st.dropin[1], nranks or st.dropin[2]
        st.tables.append(Table(suite, program, program, version, nranks, st.rows[0]["unit"],
                               statistic, st.rows, opts, line, library))
    st.rows = []


def _osu_comment(st, line, lineno):
    """A comment line: a title, the datatype, osu_mbw_mr's pairs, the
    one-sided window, or the column titles."""
    m = _TITLE.match(line)
    if m:
        _osu_close(st)
        program = osu_program(m.group(1))
        if program is None:
            raise ValueError(f"line {lineno}: an OSU title this importer does not know: "
                             f"{line.strip()!r}")
        st.title, st.datatype, st.options, st.cols = (program, m.group(2) or "", lineno), None, {}, None
        st.dropin = None
        return
    if st.title is None:
        return
    if (m := _DROPIN.match(line)):
        st.dropin = (m.group(1), m.group(2), int(m.group(3)))
        return
    if line.startswith("# Datatype: "):
        _osu_close(st)
        st.datatype = line[len("# Datatype: "):].strip().rstrip(".")
    elif (m := re.match(r"# \[ pairs: (\d+) \] \[ window size: (\d+) \]", line)):
        st.options["pairs"], st.options["window"] = int(m.group(1)), int(m.group(2))
    elif (m := re.match(r"# (Window creation|Synchronization): (.*)", line)):
        st.options[m.group(1).lower().replace(" ", "_")] = m.group(2).strip()
    elif re.match(r"#\s*(Size\s|Avg Latency\(us\)|Overall\(us\))", line):
        _osu_close(st)
        st.cols = osu_columns(line)
        if st.cols[0][1] != "size":
            st.cols = [("Size", "size")] + st.cols
            st.options["no_size"] = True


def _lines(text):
    """Lines without their ends, of a text or of an open file (read as it goes)."""
    return (line.rstrip("\r\n") for line in (text.splitlines() if isinstance(text, str)
                                             else text))


def parse_osu(text):
    """The tables of one OSU output (ValueError: what does not fit)."""
    return list(iter_osu(text))


def iter_osu(text, foreign=None):
    """The tables of one OSU output, a text or an open file, each as soon as
    it ends: a file of any length is read line by line, one table in memory
    at a time (ValueError: what does not fit). foreign, a list: a line in a
    table that is not one of its rows (a site log's `date`, a launcher's
    message) ends the table there instead, and what was left is appended
    to the list, one sentence a line."""
    st = _OsuState()
    for lineno, line in enumerate(_lines(text), 1):
        try:
            _osu_line(st, line, lineno)
        except ValueError as e:
            if foreign is None or st.cols is None or line.startswith("#"):
                raise
            _osu_close(st)
            st.cols = None
            foreign.append(f"{e}: {line.strip()[:80]!r} is not a row: the table ends "
                           "at the line before")
        yield from st.tables
        st.tables = []
    _osu_close(st)
    yield from st.tables


def _osu_line(st, line, lineno):
    """One line of an OSU output into st (a table it ends into st.tables)."""
    if line.startswith("#"):
        _osu_comment(st, line, lineno)
        return
    if not line.strip() or st.title is None:
        return
    m = re.match(r"nprocs: (\d+), min: ([\d.]+) ms, max: ([\d.]+) ms, avg: ([\d.]+) ms", line)
    if m:
        st.options["nprocs"] = int(m.group(1))
        st.rows.append({"size": 0, "figure": 1e3 * float(m.group(4)), "unit": "us",
                        "min_rank_us": 1e3 * float(m.group(2)),
                        "max_rank_us": 1e3 * float(m.group(3))})
        return
    if (m := re.match(r"This is a test with (\d+) processes", line)):
        st.options["nprocs"] = int(m.group(1))
        return
    if st.cols is None:
        return            # a program's own message before its table
    words = line.split()
    if st.options.get("no_size"):
        words = ["0"] + words
    st.rows.append(_osu_row(st.cols, words, lineno))


# IMB's column titles -> fields; the figure is t[usec], else t_avg[usec],
# else t_ovrl[usec] (IMB-NBC); Mbytes/sec a second series
_IMB_FIELDS = {"#bytes": "size", "#repetitions": "repetitions", "t[usec]": "t_us",
               "t_min[usec]": "t_min_us", "t_max[usec]": "t_max_us", "t_avg[usec]": "t_avg_us",
               "Mbytes/sec": "mbytes_per_s", "Msg/sec": "msg_rate_per_s",
               "t_ovrl[usec]": "t_ovrl_us", "t_pure[usec]": "t_pure_us", "t_CPU[usec]": "t_cpu_us",
               "overlap[%]": "overlap_pct", "defects": "defects"}


def _imb_part(line):
    """("IMB-MPI1", "2021.11") of IMB's banner, or None."""
    m = re.match(r"#\s+Intel\(R\) MPI Benchmarks (\S+), (\S+) part", line)
    if not m:
        return None
    part = re.sub(r"^(IMB|MPI)-", "", m.group(2))
    return ("IMB-MPI1" if part == "1" else "IMB-" + part, m.group(1).rstrip(","))


def _imb_table(part, version, section, nprocs, cols, rows, calling, line):
    name = section.split()[0]
    if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_-]{0,63}", name):
        raise ValueError(f"line {line}: {name!r} is not the name of an IMB benchmark")
    prefix = "imb" if part == "IMB-MPI1" else "imb_" + part[4:].lower()
    fig = next((f for f in ("t_us", "t_avg_us", "t_ovrl_us") if f in cols), None)
    if fig is None:
        raise ValueError(f"line {line}: the section {section!r} has no time column (t[usec], "
                         "t_avg[usec] or t_ovrl[usec])")
    stat = {"t_us": "t", "t_avg_us": "t_avg", "t_ovrl_us": "t_ovrl"}[fig]
    out = []
    for r in rows:
        r = dict(r, figure=r[fig], unit="us")
        r.setdefault("size", 0)
        out.append(r)
    opts = {"section": section, "calling_sequence": calling} if calling else {"section": section}
    return Table("Intel MPI Benchmarks", part, f"{prefix}_{name.lower()}", version, nprocs,
                 "us", stat, out, opts, line)


def parse_imb(text):
    """The "Benchmarking" sections of one IMB output (ValueError: what does
    not fit)."""
    return list(iter_imb(text))


def iter_imb(text):
    """The "Benchmarking" sections of one IMB output, a text or an open file,
    each as soon as it ends (as iter_osu; ValueError: what does not fit)."""
    part, version, calling = "IMB-MPI1", "", ""
    section, nprocs, cols, rows, start = None, None, None, [], 0
    seq_until = 0     # the calling sequence: the first comment in the lines up to this one

    def close():
        if section and rows:
            yield _imb_table(part, version, section, nprocs, cols, rows, calling, start)

    for lineno, line in enumerate(_lines(text), 1):
        if lineno <= seq_until and line.startswith("#") and line[1:].strip():
            calling, seq_until = line[1:].strip(), 0
        if (p := _imb_part(line)):
            part, version = p
        elif line.startswith("# Calling sequence was:"):
            calling, seq_until = "", lineno + 3
        elif (m := re.match(r"# Benchmarking (.+?)\s*$", line)):
            yield from close()
            section, nprocs, cols, rows, start = m.group(1), None, None, [], lineno
        elif (m := re.match(r"# #processes = (\d+)", line)):
            nprocs = int(m.group(1))
        elif section and line.split()[:1] in (["#bytes"], ["#repetitions"]):
            cols = [_IMB_FIELDS.get(w, w) for w in line.split()]
        elif section and cols and line.strip() and not line.startswith("#"):
            words = line.split()
            if len(words) != len(cols):
                raise ValueError(f"line {lineno}: {line.strip()!r} does not fit the columns "
                                 f"{' '.join(cols)}")
            rows.append({c: _value(c, w, c, lineno) for c, w in zip(cols, words)})
    yield from close()
