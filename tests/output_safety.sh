#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The -o file is never put where it must not go and leaves nothing behind
# (mpi/driver/mg_outfile.c), run for real with the build's MPI (TAP):
#   /dev/null is written through and stays a character device; a FIFO is
#   written through; a folder and a link to nothing are refused (exit 2)
#   before anything is measured; a link keeps pointing at its target, which
#   is replaced; a failed run leaves an earlier FILE as it was and says so;
#   another user's link in a sticky, world-writable folder is not followed
#   (as root too); a stale temporary of a dead process is removed, one of a live process
#   kept; buffers that cannot be allocated leave no temporary; a full disk (a 4 KiB tmpfs, as root) ends in exit 1 with nothing
#   left; SIGTERM and SIGINT to rank 0, to the launcher and to its process
#   group, and SIGKILL to rank 0, leave no temporary file and no process
#   (rank 0's guard); SIGKILL to the guard as well: the next run removes it;
#   --samples naming the -o file (the same name, a link, a hard link) is
#   refused before measuring and both files keep their bytes; a secret in a
#   control variable (Open MPI's mca_base_env_list) never reaches the file;
#   --samples to a FIFO with no reader or a name too long for its temporary
#   is refused before measuring, to /dev/full fails with a message, to a
#   FIFO with a reader is written through.
# Environment as for mpi_cases.sh (MPIEXEC, MPIEXEC_FLAGS, MG_BINDIR).
set -u
. "$(dirname "$0")/mpi_env.sh"
prog=$(mg_program latency)
[ -n "$prog" ] || { echo "1..0 # SKIP mpigauge_latency not built"; exit 0; }
work=$(mktemp -d)
trap 'umount "$work/full" 2>/dev/null; rm -rf "$work"' EXIT
cd "$work" || exit 1
host=$(hostname)
n=0
ok() { # ok COND-EXIT DESCRIPTION
    n=$((n + 1))
    if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi
}
run() { # run ARGS...: a quick latency run, output to run.out / run.err
    # shellcheck disable=SC2086
    timeout -k 10 120 "$MPIEXEC" $MPIEXEC_FLAGS -n 2 "$prog" -m 8 -i 20 -x 2 "$@" \
        >run.out 2>run.err </dev/null
}
echo "1..26"

if [ "$(id -u)" = 0 ]; then
    run -o /dev/null
    rc=$?
    [ "$rc" = 0 ] && [ -c /dev/null ]
    ok $? "-o /dev/null as root: exit $rc, /dev/null is still a character device"
else
    echo "ok 1 # SKIP not root"
    n=1
fi

# a link planted by another user in a shared sticky folder (issue: realpath
# and rename bypass the kernel's protected_symlinks): refused, victim intact;
# one's own link there is still followed
if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1; then
    mkdir -m 700 private && echo "secret" >private/victim.conf
    mkdir -m 1777 shared
    ln -s "$work/private/victim.conf" shared/results.jsonl
    chown -h nobody shared/results.jsonl
    run -i 1000000000 -o shared/results.jsonl
    rc=$?
    [ "$rc" = 2 ] && grep -q "sticky, world-writable" run.err &&
        [ "$(cat private/victim.conf)" = secret ] && [ -L shared/results.jsonl ] &&
        [ -z "$(ls shared | grep -v '^results.jsonl$')" ]
    ok $? "-o through another user's link in a sticky shared folder: exit $rc, target intact"
    echo "mine" >private/mine.jsonl
    ln -s "$work/private/mine.jsonl" shared/mine.jsonl
    run -o shared/mine.jsonl
    rc=$?
    [ "$rc" = 0 ] && head -c 15 private/mine.jsonl | grep -q '"type":"run"'
    ok $? "-o through one's own link in a sticky shared folder: exit $rc, target written"
else
    n=$((n + 2)); echo "ok $((n - 1)) # SKIP not root"; echo "ok $n # SKIP not root"
fi

mkdir adir
run -i 1000000000 -o adir
rc=$?
[ "$rc" = 2 ] && grep -q "is a folder: not replaced" run.err && [ -z "$(ls adir)" ]
ok $? "-o FOLDER: exit $rc before measuring, folder untouched"

ln -s nowhere/x dangling
run -o dangling
rc=$?
[ "$rc" = 2 ] && [ -L dangling ] && [ ! -e nowhere ]
ok $? "-o to a link to nothing: exit $rc, nothing created"

echo old >target.jsonl
ln -s target.jsonl link.jsonl
run -o link.jsonl
rc=$?
[ "$rc" = 0 ] && [ -L link.jsonl ] && head -c 15 target.jsonl | grep -q '"type":"run"'
ok $? "-o LINK: exit $rc, the link stays, its target holds the results"

mkfifo fifo
(cat fifo >fifo.out) &
reader=$!
run -o fifo
rc=$?
wait $reader
[ "$rc" = 0 ] && [ -p fifo ] && [ "$(grep -c '"type":"run"' fifo.out)" = 1 ] && grep -q '"type":"result"' fifo.out
ok $? "-o FIFO: exit $rc, written through to the reader, still a FIFO"

echo yesterday >old.jsonl
run -m bad -o old.jsonl
rc=$?
[ "$rc" = 2 ] && [ "$(cat old.jsonl)" = yesterday ] &&
    grep -q "output file 'old.jsonl' was not written; the file there is from an earlier run" run.err
ok $? "a failed run leaves an earlier FILE as it was and says so (exit $rc)"

# pid 2^22 + 1 is above Linux's largest pid: no such process
touch "new.jsonl.tmp.$host.4194305.abcdef" "new.jsonl.tmp.$host.$$.ghijkl" \
    "new.jsonl.tmp.otherhost.4194305.mnopqr"
run -o new.jsonl
rc=$?
[ "$rc" = 0 ] && [ ! -e "new.jsonl.tmp.$host.4194305.abcdef" ] &&
    [ -e "new.jsonl.tmp.$host.$$.ghijkl" ] && [ -e "new.jsonl.tmp.otherhost.4194305.mnopqr" ] &&
    grep -q "removed 1 temporary file" run.err
ok $? "a dead process's temporary is removed, a live one's and another host's kept (exit $rc)"
rm -f new.jsonl.tmp.*

# a disk that fills up: the file cannot be completed, exit 1, nothing left
if [ "$(id -u)" = 0 ] && mkdir full && mount -t tmpfs -o size=4k mg-full full 2>/dev/null; then
    run -m 1:4M -i 5 --sentinel -o full/out.jsonl
    rc=$?
    left=$(ls -A full)
    umount full
    [ "$rc" = 1 ] && [ -z "$left" ] && grep -q "cannot complete output file" run.err
    ok $? "a full disk: exit $rc, no FILE and no temporary left (found: '$left')"
else
    n=$((n + 1))
    echo "ok $n # SKIP needs root to mount a small tmpfs"
fi

# buffers that cannot be had (an address-space limit): a usage error after
# the -o file was opened, and its temporary goes
bw=$(mg_program bw)
(
    ulimit -v 3000000
    # shellcheck disable=SC2086
    timeout -k 10 120 "$MPIEXEC" $MPIEXEC_FLAGS -n 2 "$bw" -m 2G -i 1 -o "$work/alloc.jsonl" \
        >run.out 2>run.err </dev/null
)
rc=$?
[ "$rc" = 2 ] && grep -q "cannot allocate" run.err && [ -z "$(ls alloc.jsonl* 2>/dev/null)" ]
ok $? "buffers that cannot be allocated: exit $rc, no temporary left"

ranks() { pgrep -f "^$prog .*$work/sig.jsonl"; }
# start_and_hit SIG WHO: a long run with -o; once its temporary exists, SIG
# to rank 0 (this run's ranks: argv[0] first, its own -o path; the lowest
# pid is rank 0) or to the launcher; wait until the launcher and the ranks
# are gone (30 s at most)
start_and_hit() {
    rm -f sig.jsonl*
    # shellcheck disable=SC2086
    timeout -k 10 120 "$MPIEXEC" $MPIEXEC_FLAGS -n 2 "$prog" -m 8 -i 1000000000 -x 10 \
        -o "$work/sig.jsonl" >/dev/null 2>&1 </dev/null &
    launcher=$!
    tries=0
    while ! ls sig.jsonl.tmp.* >/dev/null 2>&1 && [ $tries -lt 100 ]; do
        sleep 0.1
        tries=$((tries + 1))
    done
    sleep 0.5
    case $2 in
    launcher) kill -"$1" "$launcher" ;;
    group) kill -"$1" -- "-$(ps -o pgid= -p "$launcher" | tr -d ' ')" ;;
    # rank 0's guard too, stopped first so that it cannot act on rank 0's end
    # shellcheck disable=SC2046
    everything) kill -STOP $(ranks) && kill -"$1" $(ranks) ;;
    *) kill -"$1" "$(ranks | sort -n | head -n 1)" ;;
    esac
    wait "$launcher"
    tries=0
    while [ -n "$(ranks)" ] && [ $tries -lt 300 ]; do
        sleep 0.1
        tries=$((tries + 1))
    done
}
# signal SIG WHO: no FILE, no process and no temporary may be left. Rank
# 0's guard (util/mg_guard.h) removes the temporary when a launcher's SIGKILL
# comes before rank 0's handler ran (Open MPI's mpirun follows its SIGTERM
# with SIGKILL after odls_base_sigkill_timeout, Hydra as soon as one rank
# died), and after a SIGKILL to rank 0 itself.
signal() {
    start_and_hit "$1" "$2"
    left="$(ls sig.jsonl* 2>/dev/null | tr '\n' ' ')$(ranks | tr '\n' ' ')"
    [ -z "$left" ]
    ok $? "SIG$1 to $2 during a -o run: no FILE, no process, no temporary ($left)"
}
signal TERM rank0
signal INT rank0
signal KILL rank0
signal TERM launcher
signal INT launcher
# SIGINT to the launcher's whole process group (Ctrl-C at a terminal)
start_and_hit INT group
left="$(ls sig.jsonl* 2>/dev/null | tr '\n' ' ')$(ranks | tr '\n' ' ')"
[ -z "$left" ]
ok $? "SIGINT to the process group during a -o run: nothing left ($left)"
# one left all the same (the guard killed too) is removed by the next run
# with the same -o once its process is gone
start_and_hit KILL everything
left=$(ls sig.jsonl.tmp.* 2>/dev/null | wc -l)
run -o "$work/sig.jsonl"
rc=$?
[ "$left" = 1 ] && [ "$rc" = 0 ] && [ -z "$(ls sig.jsonl.tmp.* 2>/dev/null)" ] &&
    [ -s sig.jsonl ] && [ -z "$(ranks)" ] && grep -q "removed 1 temporary file" run.err
ok $? "SIGKILL to rank 0 and its guard: the temporary ($left) is removed by the next run"
# --samples FILE that is the -o file (the samples would be renamed over the
# results): refused before measuring, exit 2, the file's bytes as they were;
# the same through a symbolic link and through a hard link (device and inode)
printf 'earlier results\n' >same.jsonl
ln -s same.jsonl same-link.jsonl
ln same.jsonl same-hard.jsonl
for pair in "same.jsonl same.jsonl" "same-link.jsonl same.jsonl" "same.jsonl same-hard.jsonl"; do
    set -- $pair
    run -o "$1" --samples "$2"
    rc=$?
    [ "$rc" = 2 ] && [ "$(cat same.jsonl)" = "earlier results" ] && [ -L same-link.jsonl ] &&
        grep -q "are the same file" run.err && [ ! -s run.out ] &&
        [ -z "$(ls same*.tmp.* 2>/dev/null)" ]
    ok $? "-o $1 --samples $2: exit $rc, refused before measuring, the file unchanged"
done
# A secret handed to the library as a control variable (Open MPI's
# mca_base_env_list, which its launcher forwards to the ranks' environment):
# the cvars record says <redacted>, the value is nowhere in the file.
if [ "${MG_MPI_FLAVOR:-}" = openmpi ] || "$prog" --version 2>/dev/null | grep -qi "open mpi"; then
    OMPI_MCA_mca_base_env_list="AWS_SECRET_ACCESS_KEY=mgSecretValue42" run -o cv.jsonl --format json
    rc=$?
    [ "$rc" = 0 ] && ! grep -q mgSecretValue42 cv.jsonl run.out run.err &&
        grep -q '\["mca_base_env_list","<redacted>"' cv.jsonl
    ok $? "a secret in Open MPI's mca_base_env_list: exit $rc, <redacted> in the cvars record"
else
    n=$((n + 1)); echo "ok $n # SKIP Open MPI's mca_base_env_list"
fi
# --samples: what cannot be written is refused before measuring (exit 2,
# nothing on standard output); a failed write says why (exit 1)
mkfifo sfifo
long=$(printf '%0250d' 0)
for bad in "sfifo:a pipe with no reader" "$long:the name is too long"; do
    path=${bad%%:*} why=${bad#*:}
    run --samples "$path"
    rc=$?
    [ "$rc" = 2 ] && [ ! -s run.out ] && grep -q "$why" run.err && [ -z "$(ls ./*.tmp.* 2>/dev/null)" ]
    ok $? "--samples ${path%"${path#?????}"}...: exit $rc before measuring ($why)"
done
run --samples /dev/full
rc=$?
[ "$rc" = 1 ] && grep -q "cannot write samples file '/dev/full': No space left on device" run.err
ok $? "--samples /dev/full: exit $rc, the reason said"
# a FIFO with a reader is written through, whole
cat sfifo >sfifo.got &
reader=$!
run --samples sfifo
rc=$?
wait $reader
[ "$rc" = 0 ] && head -n 1 sfifo.got | grep -q '"type":"samples"' && [ -p sfifo ]
ok $? "--samples to a FIFO with a reader: exit $rc, written through, the FIFO stays"
exit 0
