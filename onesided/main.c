/* SPDX-License-Identifier: BSD-3-Clause */
/* The one RMA program. Installed as mpigauge_rma and, as links to it, under
 * every name it answers to (mpigauge_put_latency, mpigauge_get_bw, ...:
 * mpigauge_rma --list-names); the program comes from the name it was started
 * under, or from the first argument of mpigauge_rma (mpigauge_rma put_bw). */
#include "mg_bench.h"
#include "rma.h"

int main(int argc, char **argv)
{
    return mg_main_named("rma", "RMA program", mg_rma_main, mg_rma_list_names, argc, argv);
}
