/* SPDX-License-Identifier: BSD-3-Clause */
/* Key-value lists: see mg_kv.h. */
#include "mg_kv.h"

#include <stdlib.h>
#include <string.h>

/* Room for one more event: the storage doubled when full, up to
 * MG_KV_MAX. 0, or -1 (none to be had). */
static int kv_room(mg_kvlist *l)
{
    mg_kv *grown;
    int cap;
    if (l->n < l->cap)
        return 0;
    if (l->cap >= MG_KV_MAX)
        return -1;
    cap = l->cap ? 2 * l->cap : 32;
    if (cap > MG_KV_MAX)
        cap = MG_KV_MAX;
    if ((grown = realloc(l->item, (size_t)cap * sizeof *grown)) == NULL)
        return -1;
    l->item = grown;
    l->cap = cap;
    return 0;
}

static mg_kv *kv_add(mg_kvlist *l, mg_kv_kind kind, const char *key)
{
    mg_kv *e;
    if (kv_room(l) != 0) {
        l->overflow++;
        return NULL;
    }
    e = &l->item[l->n++];
    memset(e, 0, sizeof *e);
    e->kind = kind;
    e->key = key;
    return e;
}

void mg_kv_init(mg_kvlist *l) { memset(l, 0, sizeof *l); }

void mg_kv_clear(mg_kvlist *l)
{
    l->n = 0;
    l->overflow = 0;
}

void mg_kv_free(mg_kvlist *l)
{
    free(l->item);
    mg_kv_init(l);
}

void mg_kv_number(mg_kvlist *l, const char *key, double v)
{
    mg_kv *e = kv_add(l, MG_KV_NUMBER, key);
    if (e)
        e->number = v;
}

void mg_kv_string(mg_kvlist *l, const char *key, const char *v)
{
    mg_kv *e = kv_add(l, v ? MG_KV_STRING : MG_KV_NULL, key);
    if (e && v)
        snprintf(e->string, sizeof e->string, "%s", v);
}

void mg_kv_null(mg_kvlist *l, const char *key) { kv_add(l, MG_KV_NULL, key); }
void mg_kv_object(mg_kvlist *l, const char *key) { kv_add(l, MG_KV_OBJECT, key); }
void mg_kv_array(mg_kvlist *l, const char *key) { kv_add(l, MG_KV_ARRAY, key); }
void mg_kv_end(mg_kvlist *l) { kv_add(l, MG_KV_END, NULL); }

/* Index just past the member that starts at i (a whole object or array). */
static int kv_skip(const mg_kvlist *l, int i)
{
    int depth = 0;
    do {
        mg_kv_kind k = l->item[i].kind;
        depth += k == MG_KV_OBJECT || k == MG_KV_ARRAY;
        depth -= k == MG_KV_END;
        i++;
    } while (depth > 0 && i < l->n);
    return i;
}

int mg_kv_complete(const mg_kvlist *l)
{
    int depth = 0;
    if (l->overflow)
        return 0;
    for (int i = 0; i < l->n; ++i) {
        mg_kv_kind k = l->item[i].kind;
        depth += k == MG_KV_OBJECT || k == MG_KV_ARRAY;
        depth -= k == MG_KV_END;
        if (depth < 0 || depth >= MG_JSON_MAX_DEPTH - 1)
            return 0;
    }
    return depth == 0;
}

static void table_value(FILE *f, const mg_kvlist *l, int i)
{
    const mg_kv *e = &l->item[i];
    if (e->kind == MG_KV_NUMBER)
        fprintf(f, "%.10g", e->number);
    else if (e->kind == MG_KV_STRING)
        fputs(e->string, f);
    else if (e->kind == MG_KV_NULL)
        fputs("none", f);
    else /* a nested object or array: its scalar members as k=v, space-separated */
        for (int j = i + 1, first = 1; j < l->n && l->item[j].kind != MG_KV_END;
             j = kv_skip(l, j), first = 0) {
            fprintf(f, "%s%s%s", first ? "" : " ", l->item[j].key ? l->item[j].key : "",
                    l->item[j].key ? "=" : "");
            table_value(f, l, j);
        }
}

void mg_kv_write_lines(FILE *f, const mg_kvlist *l)
{
    if (!mg_kv_complete(l))
        return;
    for (int i = 0; i < l->n; i = kv_skip(l, i)) {
        const mg_kv *e = &l->item[i];
        if (e->kind == MG_KV_ARRAY) {
            int j = i + 1;
            if (l->item[j].kind == MG_KV_END)
                fprintf(f, "# %s: none\n", e->key);
            for (; j < l->n && l->item[j].kind != MG_KV_END; j = kv_skip(l, j)) {
                fprintf(f, "# %s: ", e->key);
                table_value(f, l, j);
                fputc('\n', f);
            }
            continue;
        }
        fprintf(f, "# %s: ", e->key);
        table_value(f, l, i);
        fputc('\n', f);
    }
}

/* The string member `key` among the members from i to the END of their
 * level. */
static const char *find_member(const mg_kvlist *l, int i, const char *key)
{
    for (; i < l->n && l->item[i].kind != MG_KV_END; i = kv_skip(l, i))
        if (l->item[i].kind == MG_KV_STRING && l->item[i].key && strcmp(l->item[i].key, key) == 0)
            return l->item[i].string;
    return NULL;
}

const char *mg_kv_find_string(const mg_kvlist *l, const char *object, const char *key)
{
    if (!mg_kv_complete(l))
        return NULL;
    if (object == NULL)
        return find_member(l, 0, key);
    for (int i = 0; i < l->n; i = kv_skip(l, i))
        if (l->item[i].kind == MG_KV_OBJECT && l->item[i].key &&
            strcmp(l->item[i].key, object) == 0)
            return find_member(l, i + 1, key);
    return NULL;
}

void mg_kv_write_json(mg_json *j, const mg_kvlist *l)
{
    char open[MG_JSON_MAX_DEPTH]; /* 'o' or 'a' of each open member */
    int depth = 0;
    if (!mg_kv_complete(l))
        return;
    for (int i = 0; i < l->n; ++i) {
        const mg_kv *e = &l->item[i];
        switch (e->kind) {
        case MG_KV_NUMBER: mg_json_number(j, e->key, e->number); break;
        case MG_KV_STRING: mg_json_string(j, e->key, e->string); break;
        case MG_KV_NULL: mg_json_null(j, e->key); break;
        case MG_KV_OBJECT:
        case MG_KV_ARRAY:
            open[depth++] = e->kind == MG_KV_ARRAY ? 'a' : 'o';
            if (e->kind == MG_KV_ARRAY)
                mg_json_array_begin(j, e->key);
            else
                mg_json_object_begin(j, e->key);
            break;
        case MG_KV_END:
            if (open[--depth] == 'a')
                mg_json_array_end(j);
            else
                mg_json_object_end(j);
            break;
        }
    }
}
