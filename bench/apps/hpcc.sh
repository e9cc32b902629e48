#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# One rank of hpcc (HPC Challenge) for the applications study
# (doc/applications.md): in DIR (made when missing), the rank that is 0
# writes hpccinf.txt for the launch's rank count (HPL N=NSIZE on a 1 x P
# grid, or 2 x 2 at 4 ranks; PTRANS at the same N) and removes the last
# launch's hpccoutf.txt; every rank runs hpcc; rank 0 then prints
# hpccoutf.txt and the sum of its timed phases as mpigauge_timed_phases_s=S
# (the study's figure for hpcc: `--figure 're:^mpigauge_timed_phases_s=([0-9.]+):s'`).
# The words after NSIZE are the command (default hpcc), so a profiler's
# `env LD_PRELOAD=... hpcc` in their place runs hpcc under it.
#   {mpirun} -n 2 bench/apps/hpcc.sh DIR NSIZE [COMMAND...]
set -eu
dir=$1 n=$2
shift 2
[ $# -gt 0 ] || set -- hpcc
rank=${OMPI_COMM_WORLD_RANK:-${PMI_RANK:-${PMIX_RANK:-0}}}
size=${OMPI_COMM_WORLD_SIZE:-${PMI_SIZE:-1}}
mkdir -p "$dir"
cd "$dir"
if [ "$rank" = 0 ]; then
    p=1 q=$size
    [ "$size" = 4 ] && p=2 q=2
    rm -f hpccoutf.txt
    cat >hpccinf.txt.new <<EOT
HPLinpack benchmark input file
mpigauge applications study
HPL.out      output file name (if any)
8            device out (6=stdout,7=stderr,file)
1            # of problems sizes (N)
$n           Ns
1            # of NBs
80           NBs
0            PMAP process mapping (0=Row-,1=Column-major)
1            # of process grids (P x Q)
$p           Ps
$q           Qs
16.0         threshold
1            # of panel fact
2            PFACTs (0=left, 1=Crout, 2=Right)
1            # of recursive stopping criterium
4            NBMINs (>= 1)
1            # of panels in recursion
2            NDIVs
1            # of recursive panel fact.
1            RFACTs (0=left, 1=Crout, 2=Right)
1            # of broadcast
1            BCASTs (0=1rg,1=1rM,2=2rg,3=2rM,4=Lng,5=LnM)
1            # of lookahead depth
1            DEPTHs (>=0)
2            SWAP (0=bin-exch,1=long,2=mix)
64           swapping threshold
0            L1 in (0=transposed,1=no-transposed) form
0            U  in (0=transposed,1=no-transposed) form
1            Equilibration (0=no,1=yes)
8            memory alignment in double (> 0)
##### This line (no. 32) is ignored (it serves as a separator). ######
0            Number of additional problem sizes for PTRANS
$n           values of N
0            number of additional blocking sizes for PTRANS
80           values of NB
EOT
    mv hpccinf.txt.new hpccinf.txt
fi
# hpcc reads the input on rank 0 only, after MPI_Init: the other ranks need none
rc=0
"$@" || rc=$?
if [ "$rank" = 0 ] && [ -f hpccoutf.txt ]; then
    cat hpccoutf.txt
    # the figure without start-up and shut-down: the sum of the summary's
    # timed phases (HPL, PTRANS, both RandomAccess runs, the FFT's pieces);
    # the local kernels (DGEMM, STREAM) and b_eff give rates, no time
    awk -F= '/^Begin of Summary section/ { on = 1 }
             on && ($1 == "HPL_time" || $1 == "PTRANS_time" || $1 == "MPIRandomAccess_LCG_time" ||
                    $1 == "MPIRandomAccess_time" || $1 ~ /^MPIFFT_time[0-9]$/) { s += $2; n++ }
             END { if (n) printf "mpigauge_timed_phases_s=%.6f\n", s }' hpccoutf.txt
fi
exit $rc
