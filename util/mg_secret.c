/* SPDX-License-Identifier: BSD-3-Clause */
/* Secret-looking environment variable names: see mg_secret.h. */
#include "mg_secret.h"

#include <ctype.h>
#include <string.h>

static const char *const inside[] = {"TOKEN", "SECRET",     "PASSWORD",   "PASSWD",
                                     "JWT",   "PASSPHRASE", "CREDENTIAL", NULL};
static const char *const whole[] = {"KEY",       "KEYS",       "APIKEY", "AUTHKEY",
                                    "ACCESSKEY", "PRIVATEKEY", NULL};

/* Whether the word w[0..n) looks like a secret (case does not matter). */
static int word_is_secret(const char *w, size_t n)
{
    char buf[128];
    if (n >= sizeof buf)
        n = sizeof buf - 1;
    for (size_t i = 0; i < n; ++i)
        buf[i] = (char)toupper((unsigned char)w[i]);
    buf[n] = '\0';
    for (const char *const *p = inside; *p; ++p)
        if (strstr(buf, *p))
            return 1;
    for (const char *const *p = whole; *p; ++p)
        if (strcmp(buf, *p) == 0)
            return 1;
    return 0;
}

int mg_env_is_secret(const char *name)
{
    const char *w = name;
    for (const char *c = name;; ++c) {
        if (*c == '_' || *c == '=' || *c == '\0') {
            if (c > w && word_is_secret(w, (size_t)(c - w)))
                return 1;
            if (*c != '_')
                return 0;
            w = c + 1;
        }
    }
}
