#include "core/datatype.h"

#include <complex.h>
#include <stdbool.h>
#include <stddef.h>
#include <wchar.h>

#define PREDEF_BASE 0x200
#define PREDEF_COUNT 0x100

/* Layouts of the pair types as C lays out the structs MPI defines them by. */
struct float_int { float v; int i; };
struct double_int { double v; int i; };
struct long_int { long v; int i; };
struct short_int { short v; int i; };
struct long_double_int { long double v; int i; };

#define BASIC(h, type, nm) [(h) - PREDEF_BASE] = {sizeof(type), sizeof(type), 1, sizeof(type), 1, nm}
/* A pair's size counts only its data; its extent includes the struct's padding. Until the datatype
 * engine packs, transfers move whole extents: both sides use the same type, so layouts agree. */
#define PAIR(h, st, first, nm)                                                                         \
    [(h) - PREDEF_BASE] = {sizeof(first) + sizeof(int), sizeof(st), 2, sizeof(first),                  \
                           sizeof(first) + sizeof(int) == sizeof(st), nm}

static const struct skiff_type predefined[PREDEF_COUNT] = {
    BASIC(0x201, intptr_t, "MPI_AINT"),
    BASIC(0x202, int64_t, "MPI_COUNT"),
    BASIC(0x203, int64_t, "MPI_OFFSET"),
    BASIC(0x207, char, "MPI_PACKED"),
    BASIC(0x208, short, "MPI_SHORT"),
    BASIC(0x209, int, "MPI_INT"),
    BASIC(0x20a, long, "MPI_LONG"),
    BASIC(0x20b, long long, "MPI_LONG_LONG"),
    BASIC(0x20c, unsigned short, "MPI_UNSIGNED_SHORT"),
    BASIC(0x20d, unsigned, "MPI_UNSIGNED"),
    BASIC(0x20e, unsigned long, "MPI_UNSIGNED_LONG"),
    BASIC(0x20f, unsigned long long, "MPI_UNSIGNED_LONG_LONG"),
    BASIC(0x210, float, "MPI_FLOAT"),
    BASIC(0x212, float _Complex, "MPI_C_FLOAT_COMPLEX"),
    BASIC(0x213, float _Complex, "MPI_CXX_FLOAT_COMPLEX"),
    BASIC(0x214, double, "MPI_DOUBLE"),
    BASIC(0x216, double _Complex, "MPI_C_DOUBLE_COMPLEX"),
    BASIC(0x217, double _Complex, "MPI_CXX_DOUBLE_COMPLEX"),
    BASIC(0x220, long double, "MPI_LONG_DOUBLE"),
    BASIC(0x224, long double _Complex, "MPI_C_LONG_DOUBLE_COMPLEX"),
    BASIC(0x225, long double _Complex, "MPI_CXX_LONG_DOUBLE_COMPLEX"),
    PAIR(0x228, struct float_int, float, "MPI_FLOAT_INT"),
    PAIR(0x229, struct double_int, double, "MPI_DOUBLE_INT"),
    PAIR(0x22a, struct long_int, long, "MPI_LONG_INT"),
    [0x22b - PREDEF_BASE] = {2 * sizeof(int), 2 * sizeof(int), 2, sizeof(int), 1, "MPI_2INT"},
    PAIR(0x22c, struct short_int, short, "MPI_SHORT_INT"),
    PAIR(0x22d, struct long_double_int, long double, "MPI_LONG_DOUBLE_INT"),
    BASIC(0x238, bool, "MPI_C_BOOL"),
    BASIC(0x239, bool, "MPI_CXX_BOOL"),
    BASIC(0x23c, wchar_t, "MPI_WCHAR"),
    BASIC(0x240, int8_t, "MPI_INT8_T"),
    BASIC(0x241, uint8_t, "MPI_UINT8_T"),
    BASIC(0x243, char, "MPI_CHAR"),
    BASIC(0x244, signed char, "MPI_SIGNED_CHAR"),
    BASIC(0x245, unsigned char, "MPI_UNSIGNED_CHAR"),
    BASIC(0x247, unsigned char, "MPI_BYTE"),
    BASIC(0x248, int16_t, "MPI_INT16_T"),
    BASIC(0x249, uint16_t, "MPI_UINT16_T"),
    BASIC(0x250, int32_t, "MPI_INT32_T"),
    BASIC(0x251, uint32_t, "MPI_UINT32_T"),
    BASIC(0x258, int64_t, "MPI_INT64_T"),
    BASIC(0x259, uint64_t, "MPI_UINT64_T"),
};

const struct skiff_type *skiff_type_get(MPI_Datatype dt)
{
    uintptr_t h = (uintptr_t)dt;
    if (h <= PREDEF_BASE || h >= PREDEF_BASE + PREDEF_COUNT)
        return NULL;
    const struct skiff_type *t = &predefined[h - PREDEF_BASE];
    return t->size ? t : NULL;
}
