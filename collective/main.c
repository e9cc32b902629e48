/* One collective program: the operation and its form come from the name
 * (collective/local.mk compiles this file once per program with
 * -DMG_COLL_NAME="allreduce", "iallreduce", "allreduce_init", ...). */
#include "mg_collective.h"

int main(int argc, char **argv) { return mg_coll_main(MG_COLL_NAME, argc, argv); }
