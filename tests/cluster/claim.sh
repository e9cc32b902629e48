# SPDX-License-Identifier: BSD-3-Clause
# Sourced by the cluster checks: mg_claim_cluster BASE sets MG_CLUSTER to a
# free instance name of netns-cluster.sh, BASE or BASE1..BASE7, taking down
# first an instance whose owner process (MG_CLUSTER_OWNER at its `up`) is
# gone; returns 1 when every name is in use. Needs H, the path of
# netns-cluster.sh.
mg_claim_cluster() {
    MG_CLUSTER=""
    for mg_sfx in "" 1 2 3 4 5 6 7; do
        mg_name=$1$mg_sfx
        if [ -e "/run/mgcluster-$mg_name" ]; then
            mg_owner=$(sed -n 's/^OWNER=//p' "/run/mgcluster-$mg_name/config" 2>/dev/null)
            [ -n "$mg_owner" ] && ! kill -0 "$mg_owner" 2>/dev/null || continue
            MG_CLUSTER=$mg_name "$H" down >/dev/null 2>&1 || continue
        fi
        MG_CLUSTER=$mg_name
        return 0
    done
    return 1
}
