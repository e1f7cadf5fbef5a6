/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz-input.h - the byte reader the harnesses share: an input is a
 * program of operations, each an opcode byte followed by its operands.
 * Reads past the end give 0, so every input is a valid program and the
 * fuzzer never wastes executions on a parse error.
 */
#ifndef FUZZ_INPUT_H
#define FUZZ_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct FuzzIn {
    const uint8_t *data;
    size_t size;
    size_t pos;
} FuzzIn;

static inline bool fuzz_more(const FuzzIn *in)
{
    return in->pos < in->size;
}

static inline uint8_t fuzz_u8(FuzzIn *in)
{
    return in->pos < in->size ? in->data[in->pos++] : 0;
}

/* little-endian, as the corpus files are written */
static inline uint16_t fuzz_u16(FuzzIn *in)
{
    uint16_t lo = fuzz_u8(in);

    return lo | (uint16_t)fuzz_u8(in) << 8;
}

static inline uint32_t fuzz_u32(FuzzIn *in)
{
    uint32_t lo = fuzz_u16(in);

    return lo | (uint32_t)fuzz_u16(in) << 16;
}

/*
 * An invariant of the core does not hold: say which (the fuzzer keeps
 * the input) and stop with a crash libFuzzer reports as such.
 */
#define FUZZ_CHECK(cond)                                                   \
    do {                                                                   \
        if (!(cond)) {                                                     \
            fprintf(stderr, "%s:%d: invariant failed: %s\n", __FILE__,     \
                    __LINE__, #cond);                                      \
            abort();                                                       \
        }                                                                  \
    } while (0)

/*
 * FUZZ_MEASURE=1 in the environment: print each new maximum of value, so
 * that a campaign shows how close the inputs come to a bound (this is how
 * the constants in docs/fuzzing.md were picked).
 */
#define FUZZ_MEASURE(name, value)                                          \
    do {                                                                   \
        static double max_;                                                \
        static int on_ = -1;                                               \
        double v_ = (double)(value);                                       \
        if (on_ < 0) {                                                     \
            on_ = getenv("FUZZ_MEASURE") != NULL;                          \
        }                                                                  \
        if (on_ && v_ > max_) {                                            \
            max_ = v_;                                                     \
            fprintf(stderr, "measure %s %.3f\n", name, v_);                \
        }                                                                  \
    } while (0)

#endif
