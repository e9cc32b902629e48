/* SPDX-License-Identifier: BSD-3-Clause */
/* Which environment variables hold secrets: the run record keeps the
 * variables of MPI libraries and launchers (OMPI_, UCX_, SLURM_, ...) but
 * writes "<redacted>" for the value of any whose name looks like a secret.
 *
 * The rule (doc/output.md): split the name at '_' into words (case does not
 * matter); it is a secret when a word contains TOKEN, SECRET, PASSWORD,
 * PASSWD, PASSPHRASE, JWT or CREDENTIAL, or is KEY or KEYS, or is APIKEY,
 * AUTHKEY, ACCESSKEY or PRIVATEKEY. So SLURM_JWT, OMPI_MCA_x_password,
 * UCX_IB_TOKEN and FI_API_KEY are redacted; UCX_IB_PKEY (an InfiniBand
 * partition key, a setting) is kept.
 */
#ifndef MG_SECRET_H
#define MG_SECRET_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MG_REDACTED "<redacted>"

/* 1 when the variable NAME (up to '=' or the end) looks like a secret. */
int mg_env_is_secret(const char *name);

#ifdef __cplusplus
}
#endif

#endif
