#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# slurm_local.sh - throw-away single-node Slurm cluster on loopback (no systemd),
# for mpigauge's `make check-slurm` (tests/slurm/check_slurm.sh).
#
# Tested on Debian 12 (slurm-wlm 22.05.8, munge 0.5.15), as root, with
# Open MPI 4.1.4 (srun --mpi=pmix, mpirun) and MPICH 4.0.2 (srun --mpi=pmi2,
# mpiexec). Everything (config, munge key/socket, state, logs, PID files)
# lives under one directory; nothing under /etc is modified.
#
# Usage:
#   slurm_local.sh start  [DIR]   install packages if missing, write config,
#                                 start munged + slurmctld + slurmd, wait until
#                                 the node is idle and a 1-task srun works
#   slurm_local.sh stop   [DIR]   cancel jobs, then stop only the daemons whose
#                                 PID files are under DIR
#   slurm_local.sh status [DIR]   show daemon PIDs and sinfo
#   slurm_local.sh env    [DIR]   print "export SLURM_CONF=DIR/slurm.conf"
#
# DIR defaults to $SLURM_LOCAL_DIR or /tmp/slurm-local.
# After start, clients need:  export SLURM_CONF=DIR/slurm.conf
#   (or: eval "$(slurm_local.sh env DIR)")
#
# Knobs (environment):
#   SLURM_LOCAL_CTLD_PORT    slurmctld port            (default 6817)
#   SLURM_LOCAL_SLURMD_PORT  slurmd port               (default 6818)
#   SLURM_LOCAL_TIMEOUT      seconds to wait for ready (default 60)
#   SLURM_LOCAL_MPI_DEFAULT  MpiDefault                (default pmi2; Open MPI
#                            then needs "srun --mpi=pmix")
#   SLURM_LOCAL_TASK_PLUGIN  TaskPlugin                (default task/none: no
#                            CPU binding by srun, no cgroups needed)
#   SLURM_LOCAL_NO_INSTALL=1 never run apt-get
#   SLURM_LOCAL_CLUSTER      ClusterName               (default local)
#   SLURM_LOCAL_CPUS=N       advertise N CPUs instead of the real layout
#                            (SlurmdParameters=config_overrides), so that e.g.
#                            "srun -n 4" works on a 2-core machine
set -u

MODE=${1:-}
DIR=${2:-${SLURM_LOCAL_DIR:-/tmp/slurm-local}}
DIR=${DIR%/}
CTLD_PORT=${SLURM_LOCAL_CTLD_PORT:-6817}
SLURMD_PORT=${SLURM_LOCAL_SLURMD_PORT:-6818}
TIMEOUT=${SLURM_LOCAL_TIMEOUT:-60}
MPI_DEFAULT=${SLURM_LOCAL_MPI_DEFAULT:-pmi2}
TASK_PLUGIN=${SLURM_LOCAL_TASK_PLUGIN:-task/none}
CLUSTER=${SLURM_LOCAL_CLUSTER:-local}
CPUS=${SLURM_LOCAL_CPUS:-}

CONF=$DIR/slurm.conf
MUNGE_SOCK=$DIR/munge-run/munge.socket.2
MUNGE_PID=$DIR/run/munged.pid
CTLD_PID=$DIR/run/slurmctld.pid
SLURMD_PID=$DIR/run/slurmd.pid

log() { printf '[slurm-local] %s\n' "$*" >&2; }
# shellcheck source=tests/slurm/slurm_conf.sh
. "$(dirname "$0")/slurm_conf.sh"
die() { log "ERROR: $*"; exit 1; }

usage() { sed -n '2,36p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }

# --- helpers ---------------------------------------------------------------

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN{printf "%.2f", b-a}'; }

# PID from a pid file, only if that process is alive (not a zombie) and its
# command line mentions DIR (guards against stale files / PID reuse).
live_pid() {
    local f=$1 pid st
    [ -r "$f" ] || return 1
    pid=$(tr -dc '0-9' < "$f")
    [ -n "$pid" ] && [ -d "/proc/$pid" ] || return 1
    st=$(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null) || return 1
    [ "$st" != Z ] || return 1
    tr '\0' ' ' < "/proc/$pid/cmdline" 2>/dev/null | grep -qF -- "$DIR/" || return 1
    echo "$pid"
}

port_in_use() {  # true if something accepts TCP connections on 127.0.0.1:$1
    (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

show_logs() {
    local f
    for f in "$DIR"/log/*.log; do
        [ -f "$f" ] || continue
        log "---- last lines of $f"
        tail -n 15 "$f" >&2
    done
}

install_if_missing() {
    local missing=""
    command -v munged    >/dev/null 2>&1 || missing="$missing munge"
    command -v slurmctld >/dev/null 2>&1 || missing="$missing slurmctld"
    command -v slurmd    >/dev/null 2>&1 || missing="$missing slurmd"
    command -v srun      >/dev/null 2>&1 || missing="$missing slurm-client"
    [ -z "$missing" ] && return 0
    [ "${SLURM_LOCAL_NO_INSTALL:-0}" = 1 ] && die "missing:$missing (SLURM_LOCAL_NO_INSTALL=1)"
    command -v apt-get >/dev/null 2>&1 || die "missing:$missing and no apt-get"
    log "installing slurm-wlm munge (missing:$missing)"
    export DEBIAN_FRONTEND=noninteractive
    if ! apt-get install -y -q slurm-wlm munge >"$DIR/apt-get.log" 2>&1; then
        apt-get update -q >>"$DIR/apt-get.log" 2>&1
        apt-get install -y -q slurm-wlm munge >>"$DIR/apt-get.log" 2>&1 \
            || { tail -n 20 "$DIR/apt-get.log" >&2; die "apt-get install failed"; }
    fi
}

node_line() {
    # Real layout from slurmd -C, e.g.
    # NodeName=vm CPUs=2 Boards=1 SocketsPerBoard=1 CoresPerSocket=2 ThreadsPerCore=1 RealMemory=24105
    local host=$1 line mem
    line=$(slurmd -C 2>/dev/null | grep -m1 '^NodeName=')
    if [ -n "$CPUS" ]; then
        # fake CPU count (oversubscription for tests); needs config_overrides
        mem=$(echo "$line" | grep -o 'RealMemory=[0-9]*')
        line="NodeName=$host CPUs=$CPUS Boards=1 SocketsPerBoard=1 CoresPerSocket=$CPUS ThreadsPerCore=1 $mem"
    elif [ -n "$line" ]; then
        line=$(echo "$line" | sed -e "s/^NodeName=[^ ]*/NodeName=$host/" -e 's/ UpTime=.*//')
    else
        line="NodeName=$host CPUs=$(nproc)"
    fi
    echo "$line NodeAddr=127.0.0.1 State=UNKNOWN"
}

write_conf() {
    local host=$1
    cat > "$CONF" <<EOF
# generated by slurm_local.sh $(date -u +%FT%TZ)
ClusterName=$CLUSTER
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$CTLD_PORT
SlurmdPort=$SLURMD_PORT
$(slurm_conf_auth "$DIR" "$MUNGE_SOCK")
SlurmdSpoolDir=$DIR/spool
SlurmctldPidFile=$CTLD_PID
SlurmdPidFile=$SLURMD_PID
SlurmctldLogFile=$DIR/log/slurmctld.log
SlurmdLogFile=$DIR/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
$(slurm_conf_policy "$TASK_PLUGIN" "$MPI_DEFAULT")
$([ -n "$CPUS" ] && echo SlurmdParameters=config_overrides)
$(node_line "$host")
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
}

# --- modes -----------------------------------------------------------------

do_stop() {
    local pids=() name f pid i
    [ -d "$DIR" ] || { log "nothing to stop ($DIR does not exist)"; return 0; }
    # cancel jobs first, so that slurmstepd processes exit with them
    if [ -f "$CONF" ] && live_pid "$CTLD_PID" >/dev/null; then
        local jobs
        jobs=$(SLURM_CONF=$CONF timeout 10 squeue -h -o %A 2>/dev/null | tr '\n' ' ')
        if [ -n "${jobs// /}" ]; then
            log "cancelling jobs: $jobs"
            SLURM_CONF=$CONF timeout 10 scancel $jobs 2>/dev/null
            for i in $(seq 1 50); do
                [ -z "$(SLURM_CONF=$CONF timeout 5 squeue -h -o %A 2>/dev/null)" ] && break
                sleep 0.2
            done
        fi
    fi
    for f in "$SLURMD_PID" "$CTLD_PID" "$MUNGE_PID"; do
        name=$(basename "$f" .pid)
        if pid=$(live_pid "$f"); then
            log "stopping $name (pid $pid)"
            kill -TERM "$pid" 2>/dev/null
            pids+=("$pid:$name:$f")
        fi
    done
    for entry in ${pids[@]+"${pids[@]}"}; do
        pid=${entry%%:*}; f=${entry##*:}
        for i in $(seq 1 50); do   # up to 10 s
            [ -d "/proc/$pid" ] && [ "$(awk '{print $3}' /proc/$pid/stat 2>/dev/null)" != Z ] || break
            sleep 0.2
        done
        if [ -d "/proc/$pid" ] && [ "$(awk '{print $3}' /proc/$pid/stat 2>/dev/null)" != Z ]; then
            log "pid $pid did not exit after SIGTERM, sending SIGKILL"
            kill -KILL "$pid" 2>/dev/null
        fi
        rm -f "$f"
    done
    [ ${#pids[@]} -eq 0 ] && log "no daemons of $DIR were running"
    # slurmstepd processes are not ours to kill by name; just report leftovers
    local left
    left=$(ps -eo pid=,stat=,comm= | awk '$3 == "slurmstepd" && $2 !~ /^Z/ {printf "%s ", $1}')
    [ -n "$left" ] && log "warning: slurmstepd processes still present: $left"
    return 0
}

do_status() {
    local f pid rc=0
    for f in "$MUNGE_PID" "$CTLD_PID" "$SLURMD_PID"; do
        if pid=$(live_pid "$f"); then echo "$(basename "$f" .pid): running (pid $pid)"
        else echo "$(basename "$f" .pid): not running"; rc=1; fi
    done
    [ -f "$CONF" ] && SLURM_CONF=$CONF timeout 10 sinfo 2>&1
    return $rc
}

do_start() {
    [ "$(id -u)" = 0 ] || die "must run as root (SlurmdUser=root, munged)"
    case "$DIR" in /*) ;; *) die "DIR must be an absolute path" ;; esac
    mkdir -p "$DIR/log" "$DIR/run" || die "cannot create $DIR"

    if live_pid "$CTLD_PID" >/dev/null || live_pid "$SLURMD_PID" >/dev/null \
       || live_pid "$MUNGE_PID" >/dev/null; then
        log "daemons of $DIR already running; run '$0 stop $DIR' first"
        do_status; return 1
    fi
    install_if_missing
    for p in "$CTLD_PORT" "$SLURMD_PORT"; do
        port_in_use "$p" && die "port $p on 127.0.0.1 already in use (another slurm?); set SLURM_LOCAL_CTLD_PORT/SLURM_LOCAL_SLURMD_PORT"
    done

    local t0 host i state
    t0=$(now)
    host=$(hostname -s 2>/dev/null || hostname)
    # fresh cluster each time: wipe state/spool/logs from a previous run
    rm -rf "$DIR/state" "$DIR/spool" "$DIR/munge-run" "$DIR/log"/*.log "$DIR/run"/*.pid
    mkdir -p "$DIR/state" "$DIR/spool" "$DIR/munge-key" "$DIR/munge-run" "$DIR/log" "$DIR/run"
    chmod 700 "$DIR/munge-key"; chmod 755 "$DIR" "$DIR/munge-run"
    write_conf "$host"

    # munge
    if [ ! -s "$DIR/munge-key/munge.key" ]; then
        if command -v mungekey >/dev/null 2>&1; then
            mungekey -c -b 1024 -k "$DIR/munge-key/munge.key" || die "mungekey failed"
        else
            dd if=/dev/urandom of="$DIR/munge-key/munge.key" bs=128 count=1 status=none
        fi
        chmod 600 "$DIR/munge-key/munge.key"
    fi
    munged --force -S "$MUNGE_SOCK" --key-file="$DIR/munge-key/munge.key" \
        --pid-file="$MUNGE_PID" --seed-file="$DIR/munge-key/munged.seed" \
        --log-file="$DIR/log/munged.log" || { show_logs; die "munged failed to start"; }
    for i in $(seq 1 50); do
        munge -n -S "$MUNGE_SOCK" 2>/dev/null | unmunge -S "$MUNGE_SOCK" >/dev/null 2>&1 && break
        sleep 0.1
    done
    munge -n -S "$MUNGE_SOCK" 2>/dev/null | unmunge -S "$MUNGE_SOCK" >/dev/null 2>&1 \
        || { show_logs; do_stop; die "munge does not answer on $MUNGE_SOCK"; }

    # slurm daemons (they daemonize and write their own PID files)
    slurmctld -f "$CONF" || { show_logs; do_stop; die "slurmctld failed to start"; }
    slurmd -f "$CONF" || { show_logs; do_stop; die "slurmd failed to start"; }

    export SLURM_CONF=$CONF
    state=""
    for i in $(seq 1 $((TIMEOUT * 5))); do
        state=$(timeout 5 sinfo -h -n "$host" -o %T 2>/dev/null | head -n1)
        [ "$state" = idle ] && break
        if [ $((i % 25)) = 0 ]; then   # every 5 s: make sure daemons are alive
            live_pid "$CTLD_PID" >/dev/null || { show_logs; do_stop; die "slurmctld died"; }
            live_pid "$SLURMD_PID" >/dev/null || { show_logs; do_stop; die "slurmd died"; }
        fi
        sleep 0.2
    done
    if [ "$state" != idle ]; then
        show_logs; sinfo -R >&2 2>/dev/null; do_stop
        die "node not idle after ${TIMEOUT}s (state: ${state:-unknown})"
    fi
    log "node $host idle after $(elapsed "$t0") s"
    # final smoke test: a real job step
    if ! timeout "$TIMEOUT" srun -N1 -n1 --mpi=none /bin/true; then
        show_logs; do_stop; die "srun smoke test failed"
    fi
    log "ready after $(elapsed "$t0") s (srun -n1 true ok)"
    log "use: export SLURM_CONF=$CONF"
    echo "export SLURM_CONF=$CONF"
}

case "$MODE" in
    start)  do_start ;;
    stop)   do_stop ;;
    status) do_status ;;
    env)    echo "export SLURM_CONF=$CONF" ;;
    *)      usage ;;
esac
