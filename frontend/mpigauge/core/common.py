# SPDX-License-Identifier: BSD-3-Clause
"""Shared pieces of the front-end: exit codes, the usage error, installation
paths (set by the `mpigauge` script) and number formatting."""
import math
import os
import re
import sys

# Set by the `mpigauge` script (substituted by make) or left as in the source tree.
PATHS = {"version": None, "bindir": None, "suitesdir": None, "srcsuitesdir": None, "osudir": None,
         "profiledir": None,
         "script_dir": os.path.dirname(os.path.dirname(os.path.dirname(
             os.path.abspath(__file__))))}

# Exit codes of the front-end.
EXIT_OK, EXIT_FAIL, EXIT_USAGE, EXIT_NO_MATPLOTLIB, EXIT_INTERRUPTED = 0, 1, 2, 3, 130


class UsageError(Exception):
    """A problem with the command line or an input file: message, exit 2."""


class OutputError(Exception):
    """A results file could not be written (a full disk): message, exit 1."""


def configure(**paths):
    """Installation facts from the `mpigauge` script (version, bindir,
    suitesdir, srcsuitesdir, script_dir); values still of the form @x@ are
    ignored."""
    for k, v in paths.items():
        if v and not (v.startswith("@") and v.endswith("@")):
            PATHS[k] = v


def version():
    return PATHS["version"] or "source"


def split_words(text, where):
    """Words of `text` split like a POSIX shell; a quoting error is a
    UsageError naming `where`."""
    import shlex
    try:
        return shlex.split(text)
    except ValueError as e:
        raise UsageError(f"{where}: {e}") from None


def check_output_path(path, inputs=(), opt="-o"):
    """An output path of the front-end: a new file, or an existing regular
    file to replace. A symbolic link, device, pipe or folder is refused
    (UsageError), as is a folder that does not exist, and a file that is one
    of the command's inputs (a path of `inputs`, LABEL=FILE read as FILE;
    the same file through a hard link counts)."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        st = None
    except OSError as e:
        raise UsageError(f"{opt} {path}: {e.strerror}") from None
    import stat
    if st is not None and not stat.S_ISREG(st.st_mode):
        raise UsageError(f"{opt} {path}: exists and is not a regular file (a link, device, pipe "
                         "or folder is never replaced)")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise UsageError(f"{opt} {path}: folder {folder} does not exist")
    same = same_file_as(path, inputs)
    if same is not None:
        raise UsageError(f"{opt} {path}: is also an input of this command ({same}); it would "
                         "be replaced by its own output: choose another output name")


def same_file_as(path, inputs):
    """The first of inputs (LABEL=FILE read as FILE too) that is the very file
    `path` names (same device and inode; while `path` does not exist, the
    same real path), else None."""
    if path is None:
        return None
    try:
        st = os.stat(path)
    except OSError:
        st = None
    if st is None:
        # not there yet: the same name (after links) as an input that is
        # not there yet either, an output the command writes first
        real = os.path.realpath(path)
        for given in inputs:
            if given and os.path.realpath(str(given)) == real:
                return given
        return None
    for given in inputs:
        for cand in (given, str(given).partition("=")[2]):
            try:
                other = os.stat(cand) if cand else None
            except (OSError, ValueError):
                continue
            if other is not None and (other.st_dev, other.st_ino) == (st.st_dev, st.st_ino):
                return given
    return None


def open_input(path, mode="r", **kw):
    """open(path, mode) for reading a regular file: a pipe, device, socket or
    folder is refused (UsageError) without blocking on it or reading it (a
    FIFO with no writer, /dev/zero). Other failures raise OSError as open
    does."""
    import stat
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            kind = ("a folder" if stat.S_ISDIR(st.st_mode) else "a pipe" if stat.S_ISFIFO(st.st_mode)
                    else "a device" if stat.S_ISCHR(st.st_mode) or stat.S_ISBLK(st.st_mode)
                    else "a socket" if stat.S_ISSOCK(st.st_mode) else "not a regular file")
            raise UsageError(f"{path}: is {kind}; only regular files are read")
        os.set_blocking(fd, True)
        f = os.fdopen(fd, mode, **kw)
    except BaseException:
        os.close(fd)
        raise
    return f


def load_json(path, not_json):
    """The JSON value of a regular file (open_input); a file that is not
    JSON (or nested past Python's recursion limit, or not UTF-8) is a
    UsageError "PATH: not_json"."""
    import json
    try:
        with open_input(path, encoding="utf-8") as f:
            return json.load(f)
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise UsageError(f"{path}: {not_json}") from None


def check_link_followable(path, opt="-o"):
    """Refuse (UsageError) a symbolic link that the kernel's protected_symlinks
    rule would not let this process follow: one in a sticky, world-writable
    folder whose owner is neither this user nor the folder's owner (a link
    planted in /tmp or a shared scratch folder). Every link of the chain."""
    import stat
    cur = path
    for _ in range(40):
        try:
            st = os.lstat(cur)
        except OSError:
            return
        if not stat.S_ISLNK(st.st_mode):
            return
        folder = os.path.dirname(cur) or "."
        try:
            dst = os.stat(folder)
        except OSError:
            return
        shared = dst.st_mode & stat.S_ISVTX and dst.st_mode & stat.S_IWOTH
        if shared and st.st_uid not in (os.geteuid(), dst.st_uid):
            raise UsageError(f"{opt} {path}: a symbolic link of user {st.st_uid} in the shared "
                             f"(sticky, world-writable) folder {folder}: not followed, not "
                             "replaced (the kernel's protected_symlinks rule: only your own "
                             "links or the folder owner's are followed there)")
        try:
            cur = os.path.join(folder, os.readlink(cur))
        except OSError:
            return


def write_atomic(path, write):
    """Make `path` appear complete or not at all: write(tmp_path) writes a
    temporary file beside it, which is then renamed over it."""
    import tempfile
    check_output_path(path)
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=os.path.basename(path) + ".tmp.", dir=folder,
                               suffix=os.path.splitext(path)[1])
    os.close(fd)
    try:
        write(tmp)
        mask = os.umask(0)
        os.umask(mask)
        os.chmod(tmp, 0o666 & ~mask)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def check_output_folder(path, opt, is_ours, what):
    """An output folder of the front-end: new, empty, or one that is_ours
    (path) recognises as the command's own; a symbolic link, a file or
    someone else's folder is refused (UsageError, `what` naming the kind),
    as is a folder whose parent does not exist."""
    if os.path.islink(path):
        raise UsageError(f"{opt} {path}: a symbolic link: never followed or replaced")
    if os.path.lexists(path) and not os.path.isdir(path):
        raise UsageError(f"{opt} {path}: exists and is not a folder")
    if os.path.isdir(path) and os.listdir(path) and not is_ours(path):
        raise UsageError(f"{opt} {path}: a folder that is not {what}: give a new or empty "
                         "folder")
    parent = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(parent):
        raise UsageError(f"{opt} {path}: folder {parent} does not exist")


def write_text_atomic(path, text):
    def w(tmp):
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
    try:
        write_atomic(path, w)
    except OSError as e:
        raise UsageError(f"cannot write {path}: {e.strerror}") from None


def text_table(header, rows, right=()):
    """Lines of a plain-text table: the header, dashes, the rows; columns two spaces apart,
    those whose index is in `right` right-aligned, trailing blanks dropped."""
    rows = [[str(c) for c in r] for r in rows]
    widths = [max([len(h)] + [len(r[i]) for r in rows]) for i, h in enumerate(header)]

    def fmt(cells):
        return "  ".join(c.rjust(w) if i in right else c.ljust(w)
                         for i, (c, w) in enumerate(zip(cells, widths))).rstrip()
    return [fmt(header), fmt(["-" * w for w in widths])] + [fmt(r) for r in rows]


def warn(msg):
    print(f"mpigauge: warning: {msg}", file=sys.stderr)


def parse_size_arg(text):
    """A message size as the programs take it: 4096, 4K, 1M, 1G (argparse type)."""
    import argparse
    t = text.strip()
    mult = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}.get(t[-1:].upper(), 1)
    digits = t[:-1] if mult > 1 else t
    if not digits.isdigit():
        raise argparse.ArgumentTypeError(f"{text!r} is not a size (like 8, 4K, 1M)")
    return int(digits) * mult


def size_label(b):
    if not isinstance(b, int):
        return str(b)
    for shift, suffix in ((30, "G"), (20, "M"), (10, "K")):
        if b >= 1 << shift and b % (1 << shift) == 0:
            return f"{b >> shift}{suffix}"
    return str(b)


def fmt_num(v):
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return "n/a" if v is None else str(v)
    if isinstance(v, float) and (math.isnan(v) or math.isinf(v)):
        return "n/a"
    a = abs(v)
    if a >= 1000:
        return f"{v:.0f}"
    if a >= 100:
        return f"{v:.1f}"
    if a >= 1:
        return f"{v:.2f}"
    if a >= 0.01:
        return f"{v:.3f}"
    return f"{v:.3g}"


def fmt_p(p):
    if p is None:
        return "n/a"
    return f"{p:.3f}" if p >= 0.001 else "<0.001"


def now_utc():
    import datetime
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


# Secrets: the rule of util/mg_secret.c (both tested on tests/fixtures/secrets.txt)
REDACTED = "<redacted>"
_SECRET_INSIDE = ("TOKEN", "SECRET", "PASSWORD", "PASSWD", "JWT", "PASSPHRASE", "CREDENTIAL")
_SECRET_WHOLE = ("KEY", "KEYS", "APIKEY", "AUTHKEY", "ACCESSKEY", "PRIVATEKEY")
_SECRET_LATER = ("PASS", "PWD", "CRED", "COOKIE", "AUTH", "SIGNATURE", "PRIVKEY")
_ASSIGN_RE = re.compile(r"(?<![A-Za-z0-9_])([A-Za-z_][A-Za-z0-9_]*)=")
_PAIR_RE = re.compile(r"(?<![A-Za-z0-9_])([A-Za-z_][A-Za-z0-9_]*)=(\"[^\"]*\"|'[^']*'|\S*)")


def env_is_secret(name):
    """Whether the variable NAME (up to '=') looks like a secret: a word (split at
    '_', any case) contains TOKEN, SECRET, ...; or is KEY, APIKEY, ...; or, after
    the first word, is PASS, PWD, CRED, COOKIE, AUTH, SIGNATURE or PRIVKEY."""
    words = [w for w in str(name).split("=", 1)[0].upper().split("_") if w]
    for i, w in enumerate(words):
        if any(x in w for x in _SECRET_INSIDE) or w in _SECRET_WHOLE or \
                (i > 0 and w in _SECRET_LATER):
            return True
    return False


def value_has_secret(value):
    """Whether a value holds NAME=... with a secret NAME (Open MPI's
    mca_base_env_list=AWS_SECRET_ACCESS_KEY=...)."""
    return any(env_is_secret(m.group(1)) for m in _ASSIGN_RE.finditer(str(value)))


def redact_env(env):
    """A copy of env with the values of secrets replaced by <redacted>."""
    return {k: REDACTED if env_is_secret(k) or value_has_secret(v) else v
            for k, v in (env or {}).items()}


def redact_text(text):
    """Every NAME=VALUE in text whose NAME or VALUE holds a secret, as NAME=<redacted>."""
    def one(m):
        if env_is_secret(m.group(1)) or value_has_secret(m.group(2)):
            return f"{m.group(1)}={REDACTED}"
        return m.group(0)
    return _PAIR_RE.sub(one, str(text))


def redact_argv(argv, env=None):
    """A command line as it may be recorded: -genv NAME VALUE of a secret
    with VALUE replaced, and every NAME=VALUE (-x NAME=VALUE, --config
    'a NAME=VALUE') by redact_text."""
    secret = {k for k, v in (env or {}).items() if env_is_secret(k) or value_has_secret(v)}
    out = [str(w) for w in argv]
    for i, w in enumerate(out):
        if w in ("-genv", "-env") and i + 2 < len(out) and \
                (out[i + 1] in secret or env_is_secret(out[i + 1])
                 or value_has_secret(out[i + 2])):
            out[i + 2] = REDACTED
    return [redact_text(w) for w in out]


def plain_text(text):
    """Text as matplotlib shows it literally: a `$` would start mathtext (a
    unit, label, host or title from a results file is never a formula)."""
    return str(text).replace("$", r"\$")


def terminal_text(text):
    """Text as it may reach a terminal: a character that is not printable (an
    escape sequence, a carriage return, a newline inside a name from a file)
    shown as Python writes it in a string (\\x1b, \\r, \\n), never sent
    raw."""
    text = str(text)
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def fmt_duration(s):
    s = int(round(s))
    return f"{s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d}" if s >= 3600 else f"{s // 60}:{s % 60:02d}"


def tail_text(text, lines=20, chars=4000):
    t = "\n".join(text.rstrip().splitlines()[-lines:])
    return t[-chars:]
