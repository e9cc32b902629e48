/* SPDX-License-Identifier: BSD-3-Clause */
/* -D layouts: see mg_layout.h. */
#include "mg_layout.h"
#include "mg_pattern.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const mg_dt_layout_names[] = {"basic", "contiguous", "vector", "indexed", "resized"};

int mg_dt_parse(const char *text, mg_dt_layout *out, char *err, size_t errlen)
{
    char *end;
    memset(out, 0, sizeof *out);
    for (int k = 0; k < 5; ++k)
        if (k != MG_DT_VECTOR && strcmp(text, mg_dt_layout_names[k]) == 0) {
            out->kind = k;
            return 0;
        }
    if (strncmp(text, "vector:", 7) == 0) {
        errno = 0;
        out->kind = MG_DT_VECTOR;
        out->block = strtol(text + 7, &end, 10);
        if (errno == 0 && end != text + 7 && *end == ':') {
            const char *s = end + 1;
            out->stride = strtol(s, &end, 10);
            if (errno == 0 && end != s && *end == '\0' && out->block >= 1 &&
                out->block <= 1000000 && out->stride >= out->block && out->stride <= 1000000)
                return 0;
        }
        snprintf(err, errlen, "-D %s: want vector:B:S with 1 <= B <= S <= 1000000 (elements)",
                 text);
        return -1;
    }
    snprintf(err, errlen, "-D %s: not one of basic, contiguous, vector:B:S, indexed, resized",
             text);
    return -1;
}

uint64_t mg_dt_blocks(const mg_dt_layout *l, size_t e, uint64_t size,
                      void (*block)(void *arg, uint64_t off, uint64_t len), void *arg)
{
    uint64_t n = size / e, end = 0;
#define EMIT(o, len)                                                                               \
    do {                                                                                           \
        block(arg, (o), (len));                                                                    \
        end = (o) + (len);                                                                         \
    } while (0)
    if (n == 0)
        return 0;
    if (l->kind == MG_DT_BASIC || l->kind == MG_DT_CONTIGUOUS) {
        EMIT(0, n * e);
    } else if (l->kind == MG_DT_VECTOR) {
        uint64_t nb = n / (uint64_t)l->block, tail = n % (uint64_t)l->block;
        for (uint64_t k = 0; k < nb; ++k)
            EMIT(k * (uint64_t)l->stride * e, (uint64_t)l->block * e);
        if (tail)
            EMIT(nb * (uint64_t)l->stride * e, tail * e);
    } else if (l->kind == MG_DT_INDEXED) {
        uint64_t at = 0, done = 0;
        for (uint64_t k = 0; done < n; ++k) {
            uint64_t len = 1 + k % MG_DT_INDEXED_CYCLE;
            if (len > n - done)
                len = n - done;
            EMIT(at * e, len * e);
            at += 2 * len;
            done += len;
        }
    } else {
        for (uint64_t i = 0; i < n; ++i)
            EMIT(2 * i * e, e);
    }
#undef EMIT
    return end;
}

static void nothing(void *arg, uint64_t off, uint64_t len) { (void)arg, (void)off, (void)len; }

uint64_t mg_dt_extent(const mg_dt_layout *l, size_t e, uint64_t size)
{
    return mg_dt_blocks(l, e, size, nothing, NULL);
}

void mg_dt_label(const mg_dt_layout *l, const char *elem, char *out, size_t len)
{
    if (l->kind == MG_DT_BASIC)
        snprintf(out, len, "%s", elem);
    else if (l->kind == MG_DT_VECTOR)
        snprintf(out, len, "vector:%ld:%ld/%s", l->block, l->stride, elem);
    else
        snprintf(out, len, "%s/%s", mg_dt_layout_names[l->kind], elem);
}

typedef struct {
    const unsigned char *buf;
    uint64_t pay, poison, next, bad;
    int state; /* 0 good, 1 a payload byte, 2 a gap byte */
} check_walk;

static void check_block(void *arg, uint64_t off, uint64_t len)
{
    check_walk *w = arg;
    for (uint64_t i = w->next; i < off && !w->state; ++i) {
        const unsigned char poisoned = (unsigned char)~mg_pattern_byte(w->poison, i);
        if (w->buf[i] != poisoned)
            w->state = 2, w->bad = i;
    }
    for (uint64_t i = off; i < off + len && !w->state; ++i)
        if (w->buf[i] != mg_pattern_byte(w->pay, i))
            w->state = 1, w->bad = i;
    w->next = off + len;
}

int mg_dt_check(const mg_dt_layout *l, size_t e, uint64_t size, const unsigned char *buf,
                uint64_t pay, uint64_t poison, uint64_t *bad, int *gap)
{
    check_walk w = {buf, pay, poison, 0, 0, 0};
    mg_dt_blocks(l, e, size, check_block, &w);
    *bad = w.bad;
    *gap = w.state == 2;
    return w.state ? -1 : 0;
}
