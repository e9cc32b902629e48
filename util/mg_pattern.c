/* SPDX-License-Identifier: BSD-3-Clause */
/* Validation patterns: see mg_pattern.h. */
#include "mg_pattern.h"

uint64_t mg_mix64(uint64_t x)
{
    x += UINT64_C(0x9e3779b97f4a7c15);
    x = (x ^ (x >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    x = (x ^ (x >> 27)) * UINT64_C(0x94d049bb133111eb);
    return x ^ (x >> 31);
}

uint64_t mg_pattern_seed(int rank, uint64_t size_bytes, uint64_t iteration)
{
    return mg_mix64(mg_mix64(mg_mix64((uint64_t)(unsigned)rank) ^ size_bytes) ^ iteration);
}

static uint64_t word(uint64_t seed, uint64_t index)
{
    return mg_mix64(seed ^ (index * UINT64_C(0x100000001b3)));
}

uint8_t mg_pattern_byte(uint64_t seed, uint64_t off)
{
    return (uint8_t)(word(seed, off / 8) >> (8 * (off % 8)));
}

void mg_pattern_poison(void *buf, size_t len, uint64_t seed)
{
    unsigned char *p = buf;
    mg_pattern_fill(buf, len, seed);
    for (size_t i = 0; i < len; ++i)
        p[i] = (unsigned char)~p[i];
}

void mg_pattern_fill(void *buf, size_t len, uint64_t seed)
{
    unsigned char *p = buf;
    size_t words = len / 8;
    for (size_t w = 0; w < words; ++w) {
        uint64_t v = word(seed, w);
        for (int b = 0; b < 8; ++b)
            p[w * 8 + (size_t)b] = (unsigned char)(v >> (8 * b));
    }
    for (size_t i = words * 8; i < len; ++i)
        p[i] = mg_pattern_byte(seed, i);
}

int mg_pattern_check(const void *buf, size_t len, uint64_t seed, size_t *first_bad)
{
    const unsigned char *p = buf;
    size_t words = len / 8;
    for (size_t w = 0; w < words; ++w) {
        uint64_t v = word(seed, w);
        for (int b = 0; b < 8; ++b) {
            if (p[w * 8 + (size_t)b] != (unsigned char)(v >> (8 * b))) {
                *first_bad = w * 8 + (size_t)b;
                return -1;
            }
        }
    }
    for (size_t i = words * 8; i < len; ++i) {
        if (p[i] != mg_pattern_byte(seed, i)) {
            *first_bad = i;
            return -1;
        }
    }
    return 0;
}
