/* SPDX-License-Identifier: BSD-3-Clause */
/* Option values as JSON: see mg_opts_json.h. */
#include "mg_opts_json.h"

#include <stdint.h>

void mg_opts_json_members(mg_json *j, const mg_opt_table *tables, size_t ntables)
{
    for (size_t t = 0; t < ntables; ++t) {
        for (const mg_opt *o = tables[t].opts; o->type != MG_OPT_END; ++o) {
            const char *v = (const char *)tables[t].base + o->offset;
            char buf[64];
            const char *name = mg_opt_key(o, buf, sizeof buf);
            if (name == NULL)
                continue;
            switch (o->type) {
            case MG_OPT_FLAG: mg_json_bool(j, name, *(const int *)v); break;
            case MG_OPT_LONG: mg_json_int(j, name, *(const long *)v); break;
            case MG_OPT_DOUBLE:
            case MG_OPT_PERCENT: mg_json_number(j, name, *(const double *)v); break;
            case MG_OPT_SIZE:
                mg_json_uint(j, name, (unsigned long long)*(const uint64_t *)v);
                break;
            case MG_OPT_STRING: mg_json_string(j, name, *(const char *const *)v); break;
            case MG_OPT_CHOICE: {
                int k = *(const int *)v, n = 0;
                while (o->choices && o->choices[n])
                    ++n;
                mg_json_string(j, name, k >= 0 && k < n ? o->choices[k] : NULL);
                break;
            }
            case MG_OPT_LIST: {
                const mg_list *l = (const mg_list *)v;
                mg_json_array_begin(j, name);
                for (int i = 0; i < l->n; ++i) {
                    if (o->choices)
                        mg_json_string(j, NULL, o->choices[l->v[i]]);
                    else
                        mg_json_int(j, NULL, l->v[i]);
                }
                mg_json_array_end(j);
                break;
            }
            case MG_OPT_END: break;
            }
        }
    }
}

void mg_opts_json(mg_json *j, const char *key, const mg_opt_table *tables, size_t ntables)
{
    mg_json_object_begin(j, key);
    mg_opts_json_members(j, tables, ntables);
    mg_json_object_end(j);
}

static void option_line(FILE *f, const char *program, const char *group, const mg_opt *o)
{
    mg_json j;
    char shortname[2] = {o->short_name, 0}, buf[64];

    mg_json_init(&j, f);
    mg_json_object_begin(&j, NULL);
    mg_json_string(&j, "type", "option");
    mg_json_string(&j, "program", program);
    mg_json_string(&j, "group", group);
    mg_json_string(&j, "short", o->short_name ? shortname : NULL);
    mg_json_string(&j, "long", o->long_name);
    mg_json_string(&j, "arg", o->arg_name);
    if (o->choices) {
        mg_json_array_begin(&j, "choices");
        for (const char *const *c = o->choices; *c; ++c)
            mg_json_string(&j, NULL, *c);
        mg_json_array_end(&j);
    }
    mg_json_string(&j, "default", o->def);
    mg_json_string(&j, "key", mg_opt_key(o, buf, sizeof buf));
    mg_json_string(&j, "help", o->help);
    mg_json_object_end(&j);
    fputc('\n', f);
}

void mg_opts_json_help(FILE *f, const char *program, const mg_opt_table *tables, size_t ntables)
{
    for (size_t t = 0; t < ntables; ++t)
        for (const mg_opt *o = tables[t].opts; o->type != MG_OPT_END; ++o)
            option_line(f, program, tables[t].group, o);
}
