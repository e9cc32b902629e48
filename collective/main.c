/* SPDX-License-Identifier: BSD-3-Clause */
/* The one collective program. Installed as mpigauge_coll and, as links to
 * it, under every name it answers to (mpigauge_allreduce, mpigauge_iallreduce,
 * mpigauge_allreduce_init, ...: mpigauge_coll --list-names); the operation and
 * its form come from the name it was started under, or from the first
 * argument of mpigauge_coll (mpigauge_coll allreduce -m 8:1K). */
#include "mg_collective.h"
#include "mg_driver.h"
#include "mg_exit.h"

#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    const char *name = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
    if (strncmp(name, "mpigauge_", 9) == 0)
        name += 9;
    if (strcmp(name, "coll") != 0)
        return mg_coll_main(name, argc, argv);
    if (argc > 1 && strcmp(argv[1], "--list-names") == 0) {
        mg_coll_list_names(stdout);
        return MG_EXIT_OK;
    }
    if (argc < 2 || argv[1][0] == '-')
        return mg_main_refuse("coll", "usage", MG_EXIT_USAGE,
                              "no collective named: mpigauge_coll NAME [OPTIONS], or "
                              "mpigauge_NAME (the names: mpigauge_coll --list-names)",
                              argc, argv);
    name = argv[1];
    argv[1] = argv[0];
    return mg_coll_main(name, argc - 1, argv + 1);
}
