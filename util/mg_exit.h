/* SPDX-License-Identifier: BSD-3-Clause */
/* Exit codes of every mpigauge program (Automake's conventions for 77/99). */
#ifndef MG_EXIT_H
#define MG_EXIT_H

#define MG_EXIT_OK 0        /* measured, validated, written */
#define MG_EXIT_FAIL 1      /* a measurement or validation failed */
#define MG_EXIT_USAGE 2     /* bad option, bad size, wrong rank count, memory guard, output file */
#define MG_EXIT_SKIP 77     /* not applicable here (e.g. a feature the MPI library lacks) */
#define MG_EXIT_INTERNAL 99 /* MPI error or internal error (via MPI_Abort) */

#endif
