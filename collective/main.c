/* SPDX-License-Identifier: BSD-3-Clause */
/* The one collective program. Installed as mpigauge_coll and, as links to
 * it, under every name it answers to (mpigauge_allreduce, mpigauge_iallreduce,
 * mpigauge_allreduce_init, ...: mpigauge_coll --list-names); the operation and
 * its form come from the name it was started under, or from the first
 * argument of mpigauge_coll (mpigauge_coll allreduce -m 8:1K). */
#include "mg_bench.h"
#include "mg_collective.h"

int main(int argc, char **argv)
{
    return mg_main_named("coll", "collective", mg_coll_main, mg_coll_list_names, argc, argv);
}
