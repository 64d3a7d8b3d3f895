/* Checks every intrinsic of xl_vqmacc.h (4 operations x 4 LMULs x plain and
 * _tu x explicit and overloaded names) against a scalar reference of the
 * semantics in docs/RISCV.md, at vl = 16, every whole-tile vl up to VLMAX,
 * and vl not a multiple of 16 (a partial tile; B bytes past vl read as 0).
 * _tu forms must keep the elements at and past vl. Prints
 * "xl_vqmacc: N checks, M failures" and the VLEN. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "xl_vqmacc.h"

enum { MAXN = 512 };
static int8_t A[16], B[MAXN];
static int32_t C0[MAXN], C1[MAXN], C2[MAXN];
static long checks, failures;

static int32_t reference(int i, size_t vl, int aUnsigned, int bUnsigned) {
  int t = i / 16, r = (i % 16) / 4, c = i % 4;
  uint32_t sum = (uint32_t)C0[i];
  for (int k = 0; k < 4; ++k) {
    int a = aUnsigned ? (uint8_t)A[4 * r + k] : A[4 * r + k];
    size_t bi = 16 * t + 4 * k + c;
    int b = bi < vl ? (bUnsigned ? (uint8_t)B[bi] : B[bi]) : 0;
    sum += (uint32_t)(a * b);
  }
  return (int32_t)sum;
}

static void compare(const char *name, size_t vl, size_t vlmax, int tu,
                    int aUnsigned, int bUnsigned) {
  for (size_t i = 0; i < vlmax; ++i) {
    int32_t want = i < vl ? reference((int)i, vl, aUnsigned, bUnsigned) : C0[i];
    if (i >= vl && !tu)
      continue;
    ++checks;
    if (C1[i] != want || C2[i] != C1[i]) {
      if (++failures <= 10)
        printf("FAIL %s vl=%zu element %zu: %d (overloaded %d), want %d\n", name,
               vl, i, C1[i], C2[i], want);
    }
  }
}

/* One intrinsic at one vl: explicit name into C1, overloaded into C2. */
#define CASE(OP, SFX, POL, L32, L8, AT, BT, ALD, BLD, AU, BU)                  \
  do {                                                                         \
    size_t vlmax = __riscv_vsetvlmax_e32##L32();                               \
    vint32##L32##_t vd = __riscv_vle32_v_i32##L32(C0, vlmax);                  \
    v##AT##m1_t vs1 = ALD##m1((const AT##_t *)A, 16);                          \
    v##BT##L8##_t vs2 = BLD##L8((const BT##_t *)B, vlmax);                     \
    __riscv_vse32_v_i32##L32(                                                  \
        C1, __riscv_xl_##OP##_4x4x4_i32##L32##POL(vd, vs1, vs2, vl), vlmax);   \
    vd = __riscv_vle32_v_i32##L32(C0, vlmax);                                  \
    __riscv_vse32_v_i32##L32(C2, __riscv_xl_##OP##_4x4x4##POL(vd, vs1, vs2, vl), \
                             vlmax);                                           \
    compare(#OP "_4x4x4_i32" #L32 #POL, vl, vlmax, sizeof(#POL) > 1, AU, BU);  \
  } while (0)

#define OPS(L32, L8, POL)                                                      \
  CASE(vqmacc, , POL, L32, L8, int8, int8, __riscv_vle8_v_i8, __riscv_vle8_v_i8, 0, 0);       \
  CASE(vqmaccu, , POL, L32, L8, uint8, uint8, __riscv_vle8_v_u8, __riscv_vle8_v_u8, 1, 1);    \
  CASE(vqmaccus, , POL, L32, L8, uint8, int8, __riscv_vle8_v_u8, __riscv_vle8_v_i8, 1, 0);    \
  CASE(vqmaccsu, , POL, L32, L8, int8, uint8, __riscv_vle8_v_i8, __riscv_vle8_v_u8, 0, 1)

#define LMUL(L32, L8)                                                          \
  do {                                                                         \
    size_t vlmax = __riscv_vsetvlmax_e32##L32();                               \
    size_t vls[] = {16, 32, 48, vlmax, 20, 7, 1, vlmax - 3};                   \
    for (size_t v = 0; v < sizeof(vls) / sizeof(vls[0]); ++v) {                \
      size_t vl = vls[v];                                                      \
      if (vl == 0 || vl > vlmax)                                               \
        continue;                                                              \
      OPS(L32, L8, );                                                          \
      OPS(L32, L8, _tu);                                                       \
    }                                                                          \
  } while (0)

int main(void) {
  srand(7);
  for (int round = 0; round < 4; ++round) {
    for (int i = 0; i < 16; ++i)
      A[i] = (int8_t)(round == 0 ? (i & 1 ? -128 : 127) : rand());
    for (int i = 0; i < MAXN; ++i) {
      B[i] = (int8_t)(round == 0 ? (i & 2 ? -128 : -1) : rand());
      C0[i] = round == 1 ? (i & 1 ? INT32_MAX : INT32_MIN) : rand() - RAND_MAX / 2;
    }
    LMUL(m1, mf4);
    LMUL(m2, mf2);
    LMUL(m4, m1);
    LMUL(m8, m2);
  }
  printf("vlen %zu\n", __riscv_vsetvlmax_e8m1() * 8);
  printf("xl_vqmacc: %ld checks, %ld failures\n", checks, failures);
  return failures != 0;
}
