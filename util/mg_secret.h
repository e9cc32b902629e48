/* SPDX-License-Identifier: BSD-3-Clause */
/* Which environment variables hold secrets: the run record keeps the
 * variables of MPI libraries and launchers (OMPI_, UCX_, SLURM_, ...) but
 * writes "<redacted>" for the value of any whose name looks like a secret.
 *
 * The rule (doc/output.md): split the name at '_' into words (case does not
 * matter); it is a secret when a word contains TOKEN, SECRET, PASSWORD,
 * PASSWD, PASSPHRASE, JWT or CREDENTIAL, or is KEY or KEYS, or is APIKEY,
 * AUTHKEY, ACCESSKEY or PRIVATEKEY, or, after the first word, is PASS, PWD,
 * CRED, COOKIE, AUTH, SIGNATURE or PRIVKEY. So SLURM_JWT,
 * OMPI_MCA_x_password, UCX_IB_TOKEN, FI_API_KEY, SLURM_PRIVKEY and DB_PASS
 * are redacted; UCX_IB_PKEY (an InfiniBand partition key, a setting) and
 * PWD are kept. A value that holds NAME=... with a secret NAME (Open MPI's
 * OMPI_MCA_mca_base_env_list=AWS_SECRET_ACCESS_KEY=...) is redacted too.
 * The front-end applies the same rule (frontend/mpigauge/common.py); both
 * are tested on tests/fixtures/secrets.txt.
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

/* 1 when a variable's value holds NAME=... with a secret NAME. */
int mg_env_value_has_secret(const char *value);

/* 1 when an MPI_T control variable's value is to be redacted: a value
 * holding NAME=... with a secret NAME (any type), or a string value under a
 * secret-looking name; a number, switch or enum under such a name (MPICH's
 * MPIR_CVAR_CH4_OFI_ENABLE_MR_PROV_KEY) is a setting and kept. */
int mg_cvar_is_secret(const char *name, const char *value, int is_string);

#ifdef __cplusplus
}
#endif

#endif
