# SPDX-License-Identifier: BSD-3-Clause
# netns-cluster.sh's launch lines: `build_launch` turns the run options and
# the program into the array LAUNCH, for each MPI and release (Open MPI 4's
# mpirun and 5's prterun, MPICH's and Intel MPI's Hydra). Sourced by
# netns-cluster.sh; uses its STATE, MGMT_NET, ALL_DEVICES, die and
# load_config.
# Launch lines. Sets the array LAUNCH from the run options and the program.
build_launch() {
    load_config
    local mpi=ompi np="" ppn=1 devices=rail0 envs=() kv launcher="" release="" cyclic=0
    TIMEOUT=300 DONE="" GRACE=20
    while [ $# -gt 0 ]; do
        case "$1" in
            --mpi|--np|--ppn|--devices|--env|--timeout|--done|--grace|--launcher) [ $# -ge 2 ] || die "$1 needs a value" ;;&
            --mpi) mpi=$2; shift 2 ;;
            --launcher) launcher=$2; shift 2 ;;
            --np) np=$2; shift 2 ;;
            --ppn) ppn=$2; shift 2 ;;
            --devices) devices=$2; shift 2 ;;
            --env) envs+=("$2"); shift 2 ;;
            --timeout) TIMEOUT=$2; shift 2 ;;
            --done) DONE=$2; shift 2 ;;
            --grace) GRACE=$2; shift 2 ;;
            --cyclic) cyclic=1; shift ;;
            --) shift; break ;;
            *) die "unknown run option '$1' (the program goes after --)" ;;
        esac
    done
    [ $# -ge 1 ] || die "no program (run options -- PROGRAM ARGS...)"
    [[ $ppn =~ ^[1-9][0-9]*$ ]] || die "--ppn must be a positive integer"
    [ -n "$np" ] || np=$((2 * ppn))
    [[ $np =~ ^[1-9][0-9]*$ ]] || die "--np must be a positive integer"
    [ "$devices" != all ] || devices=$ALL_DEVICES
    [[ $devices =~ ^rail[0-9](,rail[0-9])*$ ]] || die "--devices: a list of rail devices (rail0,rail1) or 'all'"
    # the launcher's release: its own --version (Open MPI 5's prterun takes
    # PRRTE's options, MPICH 5 has two netmods)
    if [ -n "$launcher" ]; then
        [ -x "$launcher" ] || die "--launcher $launcher: not an executable"
        release=$("$launcher" --version 2>/dev/null | grep -Eo '[0-9]+\.[0-9]+(\.[0-9]+)?' | head -n 1 | cut -d. -f1)
    fi
    # --cyclic: Hydra deals -ppn 1 round the hosts again and again
    local hppn=$ppn
    [ "$cyclic" = 0 ] || hppn=1
    case $mpi in
        ompi|ompi-ob1|ompi-ucx)
            LAUNCH=(env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 "${launcher:-mpirun.openmpi}"
                    -x OMPI_ALLOW_RUN_AS_ROOT -x OMPI_ALLOW_RUN_AS_ROOT_CONFIRM
                    --hostfile "$STATE/hostfile.ompi" --map-by "ppr:$ppn:node" -np "$np" --bind-to none)
            [ "$cyclic" = 0 ] || LAUNCH+=(--rank-by node)
            if [ "${release:-4}" -ge 5 ]; then
                LAUNCH+=(--prtemca plm_ssh_agent "$STATE/nsrsh" --prtemca oob_tcp_if_include "$MGMT_NET.0/24"
                         --prtemca prte_tmpdir_base "$STATE/tmp")
            else
                LAUNCH+=(--mca plm_rsh_agent "$STATE/nsrsh" --mca oob_tcp_if_include "$MGMT_NET.0/24"
                         --mca orte_tmpdir_base "$STATE/tmp")
            fi
            LAUNCH+=(--mca btl_tcp_if_include "$devices")
            if [ "$mpi" = ompi-ucx ]; then
                LAUNCH+=(--mca pml ucx --mca pml_ucx_tls any --mca pml_ucx_devices any
                         -x UCX_TLS=tcp,sm,self -x "UCX_NET_DEVICES=$devices")
            elif [ "${release:-4}" -ge 5 ]; then
                LAUNCH+=(--mca pml ob1 --mca btl tcp,sm,self)
            else
                LAUNCH+=(--mca pml ob1 --mca btl tcp,vader,self)
            fi
            for kv in ${envs[@]+"${envs[@]}"}; do LAUNCH+=(-x "$kv"); done ;;
        mpich|mpich-ofi|impi)
            if [ "$mpi" = impi ]; then
                [ -n "$launcher" ] || die "--mpi impi needs --launcher (Intel MPI's mpiexec)"
                # libfabric's tcp provider on the first device (FI_TCP_IFACE takes one)
                LAUNCH=(env "I_MPI_ROOT=$(dirname "$(dirname "$launcher")")" "$launcher"
                        -bootstrap ssh -bootstrap-exec "$STATE/nsrsh" -f "$STATE/hostfile.mpich"
                        -ppn "$hppn" -n "$np" -genv FI_PROVIDER tcp -genv FI_TCP_IFACE "${devices%%,*}")
            elif [ "$mpi" = mpich-ofi ]; then
                # MPICH 5 from PyPI (ch4:ucx,ofi) through libfabric's tcp provider
                LAUNCH=("${launcher:-mpiexec.mpich}" -launcher ssh -launcher-exec "$STATE/nsrsh"
                        -f "$STATE/hostfile.mpich" -ppn "$hppn" -n "$np"
                        -genv MPIR_CVAR_CH4_NETMOD ofi -genv FI_PROVIDER tcp
                        -genv FI_TCP_IFACE "${devices%%,*}")
            else
                LAUNCH=("${launcher:-mpiexec.mpich}" -launcher ssh -launcher-exec "$STATE/nsrsh"
                        -f "$STATE/hostfile.mpich" -ppn "$hppn" -n "$np"
                        -genv UCX_TLS tcp,sm,self -genv UCX_NET_DEVICES "$devices")
                # MPICH 5 from PyPI has ch4:ucx and ofi: UCX, as Debian's
                [ "${release:-4}" -ge 5 ] && LAUNCH+=(-genv MPIR_CVAR_CH4_NETMOD ucx)
            fi
            for kv in ${envs[@]+"${envs[@]}"}; do
                [[ $kv == *=* ]] || die "--env wants K=V, not '$kv'"
                LAUNCH+=(-genv "${kv%%=*}" "${kv#*=}")
            done ;;
        *) die "--mpi must be ompi, ompi-ucx, mpich, mpich-ofi or impi" ;;
    esac
    LAUNCH+=("$@")
}

