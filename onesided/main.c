/* SPDX-License-Identifier: BSD-3-Clause */
/* The one RMA program. Installed as mpigauge_rma and, as links to it, under
 * every name it answers to (mpigauge_put_latency, mpigauge_get_bw, ...:
 * mpigauge_rma --list-names); the program comes from the name it was started
 * under, or from the first argument of mpigauge_rma (mpigauge_rma put_bw). */
#include "mg_driver.h"
#include "mg_exit.h"
#include "rma.h"

#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    const char *name = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
    if (strncmp(name, "mpigauge_", 9) == 0)
        name += 9;
    if (strcmp(name, "rma") != 0)
        return mg_rma_main(name, argc, argv);
    if (argc > 1 && strcmp(argv[1], "--list-names") == 0) {
        mg_rma_list_names(stdout);
        return MG_EXIT_OK;
    }
    if (argc < 2 || argv[1][0] == '-')
        return mg_main_refuse("rma", "usage", MG_EXIT_USAGE,
                              "no program named: mpigauge_rma NAME [OPTIONS], or mpigauge_NAME "
                              "(the names: mpigauge_rma --list-names)",
                              argc, argv);
    name = argv[1];
    argv[1] = argv[0];
    return mg_rma_main(name, argc - 1, argv + 1);
}
