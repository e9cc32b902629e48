/* SPDX-License-Identifier: BSD-3-Clause */
/* Secret-looking environment variable names: see mg_secret.h. */
#include "mg_secret.h"

#include <ctype.h>
#include <string.h>

static const char *const inside[] = {"TOKEN", "SECRET",     "PASSWORD",   "PASSWD",
                                     "JWT",   "PASSPHRASE", "CREDENTIAL", NULL};
static const char *const whole[] = {"KEY",       "KEYS",       "APIKEY", "AUTHKEY",
                                    "ACCESSKEY", "PRIVATEKEY", NULL};
/* secret as a whole word after the first (DB_PASS, LDAP_PWD), but not alone:
 * PWD is the working folder, PASS or AUTH alone are no credentials */
static const char *const later[] = {"PASS", "PWD",       "CRED",    "COOKIE",
                                    "AUTH", "SIGNATURE", "PRIVKEY", NULL};

/* Whether the word w[0..n) looks like a secret (case does not matter); not
 * the first word of the name: `later` words count too. */
static int word_is_secret(const char *w, size_t n, int not_first)
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
    for (const char *const *p = later; not_first && *p; ++p)
        if (strcmp(buf, *p) == 0)
            return 1;
    return 0;
}

int mg_env_is_secret(const char *name)
{
    const char *w = name;
    int words = 0;
    for (const char *c = name;; ++c) {
        if (*c == '_' || *c == '=' || *c == '\0') {
            if (c > w && word_is_secret(w, (size_t)(c - w), words > 0))
                return 1;
            words += c > w;
            if (*c != '_')
                return 0;
            w = c + 1;
        }
    }
}

static int ident_char(char c, int first)
{
    return c == '_' || isalpha((unsigned char)c) || (!first && isdigit((unsigned char)c));
}

int mg_cvar_is_secret(const char *name, const char *value, int is_string)
{
    return mg_env_value_has_secret(value) || (is_string && mg_env_is_secret(name));
}

int mg_env_value_has_secret(const char *value)
{
    for (const char *c = value; *c; ++c) {
        const char *e = c;
        if (!ident_char(*c, 1) || (c > value && ident_char(c[-1], 0)))
            continue;
        while (ident_char(*e, 0))
            ++e;
        if (*e == '=' && mg_env_is_secret(c))
            return 1;
    }
    return 0;
}
