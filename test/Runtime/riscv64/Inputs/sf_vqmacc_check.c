/* Checks every function of sf_vqmacc.h (4 operations x 2 shapes x 4 LMULs)
 * against a scalar reference of the semantics in docs/RISCV.md ("SiFive
 * XSfvqmacc"), written from the index formulas of QEMU's XSfvqmacc helper:
 * vl in bytes of vs2, one tile, several, every byte of the group, and one
 * tile less. 4x8x4 needs VLEN >= 256 (its A tile is 32 bytes of an LMUL-1
 * register) and is skipped below. Prints "sf_vqmacc: N checks, M failures"
 * and the VLEN. With the argument "reserved" it passes a vl that is not
 * whole B tiles, which must trap (an illegal instruction, as the hardware's
 * reserved encoding) instead of returning. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sf_vqmacc.h"

enum { MAXB = 1024, MAXC = 256 };
static int8_t A[32], B[MAXB];
static int32_t C0[MAXC], C1[MAXC];
static long checks, failures;

static int32_t reference(int tm, int tn, size_t i, size_t vl, int aUnsigned,
                         int bUnsigned) {
  size_t t = i / (tm * tn), r = (i % (tm * tn)) / tn, c = i % tn;
  uint32_t sum = (uint32_t)C0[i];
  for (int k = 0; k < 8; ++k) {
    int a = aUnsigned ? (uint8_t)A[8 * r + k] : A[8 * r + k];
    /* QEMU's XSfvqmacc helper: ivs2 = TILE_SIZE * it + im * ROWS + in. */
    size_t bi = 8 * tn * t + tn * k + c;
    int b = bUnsigned ? (uint8_t)B[bi] : B[bi];
    sum += (uint32_t)(a * b);
  }
  return (int32_t)sum;
}

static void compare(const char *name, int tm, int tn, size_t vl, int aUnsigned,
                    int bUnsigned) {
  for (size_t i = 0; i < vl * tm / 8; ++i) {
    ++checks;
    int32_t want = reference(tm, tn, i, vl, aUnsigned, bUnsigned);
    if (C1[i] != want && ++failures <= 10)
      printf("FAIL %s vl=%zu element %zu: %d, want %d\n", name, vl, i, C1[i],
             want);
  }
}

#define CASE(OP, SHAPE, TM, TN, L32, L8S, AT, BT, ALD, BLD, AU, BU)            \
  do {                                                                         \
    size_t cmax = __riscv_vsetvlmax_e32##L32();                                \
    vint32##L32##_t vd = __riscv_vle32_v_i32##L32(C0, cmax);                   \
    v##AT##m1_t vs1 = ALD##m1((const AT##_t *)A, 8 * (TM));                    \
    v##BT##L8S##_t vs2 = BLD##L8S((const BT##_t *)B, vl);                      \
    __riscv_vse32_v_i32##L32(                                                  \
        C1, coopvec_sf_##OP##_##SHAPE##_i32##L32(vd, vs1, vs2, vl),            \
        vl *(TM) / 8);                                                         \
    compare(#OP "_" #SHAPE "_i32" #L32, TM, TN, vl, AU, BU);                   \
  } while (0)

#define OPS(SHAPE, TM, TN, L32, L8S)                                           \
  CASE(vqmacc, SHAPE, TM, TN, L32, L8S, int8, int8, __riscv_vle8_v_i8,         \
       __riscv_vle8_v_i8, 0, 0);                                               \
  CASE(vqmaccu, SHAPE, TM, TN, L32, L8S, uint8, uint8, __riscv_vle8_v_u8,      \
       __riscv_vle8_v_u8, 1, 1);                                               \
  CASE(vqmaccus, SHAPE, TM, TN, L32, L8S, uint8, int8, __riscv_vle8_v_u8,      \
       __riscv_vle8_v_i8, 1, 0);                                               \
  CASE(vqmaccsu, SHAPE, TM, TN, L32, L8S, int8, uint8, __riscv_vle8_v_i8,      \
       __riscv_vle8_v_u8, 0, 1)

/* vl in bytes of vs2: one B tile, two, the whole group, one tile less. */
#define LMUL(SHAPE, TM, TN, L32, L8S)                                          \
  do {                                                                         \
    size_t bmax = __riscv_vsetvlmax_e8##L8S();                                 \
    size_t tile = 8 * (TN);                                                    \
    size_t vls[] = {tile, 2 * tile, bmax, bmax - tile};                        \
    for (size_t v = 0; v < sizeof(vls) / sizeof(vls[0]); ++v) {                \
      size_t vl = vls[v];                                                      \
      if (vl == 0 || vl > bmax || vl % tile)                                   \
        continue;                                                              \
      OPS(SHAPE, TM, TN, L32, L8S);                                            \
    }                                                                          \
  } while (0)

int main(int argc, char **argv) {
  size_t vlen = __riscv_vsetvlmax_e8m1() * 8;
  if (argc > 1 && !strcmp(argv[1], "reserved")) {
    /* vl = 5 bytes, a third of a 2x8x2 B tile: must trap, never return. */
    vint32m1_t vd = __riscv_vmv_v_x_i32m1(0, __riscv_vsetvlmax_e32m1());
    vint8m1_t vs = __riscv_vmv_v_x_i8m1(1, __riscv_vsetvlmax_e8m1());
    vd = coopvec_sf_vqmacc_2x8x2_i32m1(vd, vs, vs, 5);
    printf("reserved vl returned %d\n", __riscv_vmv_x_s_i32m1_i32(vd));
    return 0;
  }
  srand(11);
  for (int round = 0; round < 4; ++round) {
    for (int i = 0; i < 32; ++i)
      A[i] = (int8_t)(round == 0 ? (i & 1 ? -128 : 127) : rand());
    for (int i = 0; i < MAXB; ++i)
      B[i] = (int8_t)(round == 0 ? (i & 2 ? -128 : -1) : rand());
    for (int i = 0; i < MAXC; ++i)
      C0[i] = round == 1 ? (i & 1 ? INT32_MAX : INT32_MIN) : rand() - RAND_MAX / 2;
    if (vlen >= 256) {
      LMUL(4x8x4, 4, 4, m1, mf2);
      LMUL(4x8x4, 4, 4, m2, m1);
      LMUL(4x8x4, 4, 4, m4, m2);
      LMUL(4x8x4, 4, 4, m8, m4);
    }
    LMUL(2x8x2, 2, 2, m1, m1);
    LMUL(2x8x2, 2, 2, m2, m2);
    LMUL(2x8x2, 2, 2, m4, m4);
    LMUL(2x8x2, 2, 2, m8, m8);
  }
  printf("vlen %zu%s\n", vlen, vlen >= 256 ? "" : " (2x8x2 only)");
  printf("sf_vqmacc: %ld checks, %ld failures\n", checks, failures);
  return failures != 0;
}
