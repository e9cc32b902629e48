/* SPDX-License-Identifier: BSD-3-Clause */
/* Streaming JSON writer: see mg_json.h. */
#include "mg_json.h"

#include <math.h>

void mg_json_init(mg_json *j, FILE *f)
{
    j->f = f;
    j->depth = 0;
    j->count[0] = 0;
}

/* Length of the valid UTF-8 sequence starting at s, 0 if invalid. */
static int utf8_len(const unsigned char *s)
{
    unsigned c = s[0];
    int n;
    unsigned cp;

    if (c < 0x80)
        return 1;
    if (c >= 0xC2 && c <= 0xDF) {
        n = 2;
        cp = c & 0x1F;
    } else if (c >= 0xE0 && c <= 0xEF) {
        n = 3;
        cp = c & 0x0F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4;
        cp = c & 0x07;
    } else {
        return 0;
    }
    for (int i = 1; i < n; ++i) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        cp = (cp << 6) | (s[i] & 0x3F);
    }
    if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10FFFF)) ||
        (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    return n;
}

void mg_json_write_string(FILE *f, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    fputc('"', f);
    while (*p) {
        unsigned c = *p;
        int n;
        switch (c) {
        case '"':
            fputs("\\\"", f);
            ++p;
            continue;
        case '\\':
            fputs("\\\\", f);
            ++p;
            continue;
        case '\n':
            fputs("\\n", f);
            ++p;
            continue;
        case '\r':
            fputs("\\r", f);
            ++p;
            continue;
        case '\t':
            fputs("\\t", f);
            ++p;
            continue;
        case '\b':
            fputs("\\b", f);
            ++p;
            continue;
        case '\f':
            fputs("\\f", f);
            ++p;
            continue;
        default: break;
        }
        if (c < 0x20 || c == 0x7F) {
            fprintf(f, "\\u%04x", c);
            ++p;
            continue;
        }
        n = utf8_len(p);
        if (n == 0) {
            fputs("\\ufffd", f);
            ++p;
            continue;
        }
        fwrite(p, 1, (size_t)n, f);
        p += n;
    }
    fputc('"', f);
}

static void value_prefix(mg_json *j, const char *key)
{
    if (j->count[j->depth]++ > 0)
        fputc(',', j->f);
    if (key != NULL) {
        mg_json_write_string(j->f, key);
        fputc(':', j->f);
    }
}

static void open_container(mg_json *j, const char *key, char c)
{
    value_prefix(j, key);
    fputc(c, j->f);
    if (j->depth + 1 < MG_JSON_MAX_DEPTH)
        j->depth++;
    j->count[j->depth] = 0;
}

static void close_container(mg_json *j, char c)
{
    fputc(c, j->f);
    if (j->depth > 0)
        j->depth--;
}

void mg_json_object_begin(mg_json *j, const char *key) { open_container(j, key, '{'); }
void mg_json_object_end(mg_json *j) { close_container(j, '}'); }
void mg_json_array_begin(mg_json *j, const char *key) { open_container(j, key, '['); }
void mg_json_array_end(mg_json *j) { close_container(j, ']'); }

void mg_json_string(mg_json *j, const char *key, const char *value)
{
    value_prefix(j, key);
    if (value == NULL)
        fputs("null", j->f);
    else
        mg_json_write_string(j->f, value);
}

void mg_json_number(mg_json *j, const char *key, double value)
{
    value_prefix(j, key);
    if (isfinite(value))
        fprintf(j->f, "%.10g", value);
    else
        fputs("null", j->f);
}

void mg_json_int(mg_json *j, const char *key, long long value)
{
    value_prefix(j, key);
    fprintf(j->f, "%lld", value);
}

void mg_json_uint(mg_json *j, const char *key, unsigned long long value)
{
    value_prefix(j, key);
    fprintf(j->f, "%llu", value);
}

void mg_json_bool(mg_json *j, const char *key, int value)
{
    value_prefix(j, key);
    fputs(value ? "true" : "false", j->f);
}

void mg_json_null(mg_json *j, const char *key)
{
    value_prefix(j, key);
    fputs("null", j->f);
}
