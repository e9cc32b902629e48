#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The GROMACS input of the applications study (doc/applications.md): in DIR
# (made when missing), a 3 nm box of 884 SPC/E waters (OPLS-AA, from
# GROMACS's own spc216.gro), PME electrostatics, 1 nm cut-offs, 2 fs steps,
# minimised (steepest descent), then STEPS steps (default 2000), written as DIR/topol.tpr with the serial
# `gmx`. Run it with
#   {mpirun} -n 2 gmx_mpi -quiet -nobackup mdrun -s DIR/topol.tpr -deffnm DIR/md \
#       -ntomp 1 -nb cpu -notunepme -dlb no -noconfout
# (one OpenMP thread a rank; no PME tuning and no dynamic load balancing, so
# every launch runs the same decomposition; GROMACS prints its wall time on
# its `Time:` line, `mpigauge app --figure gromacs`).
#   bench/apps/gromacs.sh DIR [STEPS]
set -eu
dir=$1 steps=${2:-2000}
mkdir -p "$dir"
cd "$dir"
cat >topol.top <<EOT
#include "oplsaa.ff/forcefield.itp"
#include "oplsaa.ff/spce.itp"
[ system ]
water box, mpigauge applications study
[ molecules ]
SOL 884
EOT
cat >md.mdp <<EOT
integrator = md
dt = 0.002
nsteps = $steps
cutoff-scheme = Verlet
coulombtype = PME
rcoulomb = 1.0
rvdw = 1.0
fourierspacing = 0.12
tcoupl = v-rescale
tc-grps = System
tau-t = 0.1
ref-t = 300
gen-vel = yes
gen-temp = 300
gen-seed = 1
nstcalcenergy = 100
nstenergy = 0
nstlog = 0
nstxout-compressed = 0
EOT
gmx -quiet -nobackup solvate -cs spc216.gro -box 3 3 3 -o conf.gro >solvate.log 2>&1
n=$(awk '/Number of solvent molecules/ { print $NF }' solvate.log)
[ "$n" = 884 ] || { echo "gromacs.sh: solvate gave ${n:-no} waters, not 884 (see $dir/solvate.log)" >&2; exit 1; }
# the solvated box has close contacts at its faces: minimised first (serial)
cat >em.mdp <<EOT
integrator = steep
nsteps = 500
emtol = 500
cutoff-scheme = Verlet
coulombtype = PME
rcoulomb = 1.0
rvdw = 1.0
EOT
gmx -quiet -nobackup grompp -f em.mdp -c conf.gro -p topol.top -o em.tpr >grompp-em.log 2>&1 ||
    { echo "gromacs.sh: grompp of the minimisation failed (see $dir/grompp-em.log)" >&2; exit 1; }
gmx -quiet -nobackup mdrun -s em.tpr -deffnm em -ntmpi 1 -ntomp 1 >em.log.out 2>&1 ||
    { echo "gromacs.sh: the minimisation failed (see $dir/em.log.out)" >&2; exit 1; }
gmx -quiet -nobackup grompp -f md.mdp -c em.gro -p topol.top -o topol.tpr >grompp.log 2>&1 ||
    { echo "gromacs.sh: grompp failed (see $dir/grompp.log)" >&2; exit 1; }
echo "$dir/topol.tpr"
