//===- SimdPortable.h - 8-lane vector model in plain C++ ------------------===//
//
// The portable instantiation of the `Isa` interface that KernelBody.inc is
// written against (SimdAvx2.h is the other). Lanes are plain arrays; the
// compiler vectorizes them with whatever the baseline target offers.
//
//===----------------------------------------------------------------------===//

#ifndef LINALGCOOP_LIB_RUNTIME_KERNELS_SIMDPORTABLE_H
#define LINALGCOOP_LIB_RUNTIME_KERNELS_SIMDPORTABLE_H

#include "Convert.h"

#include <cstdint>
#include <cstring>

namespace coopvec {
namespace kernels {
namespace portable {

struct Isa {
  static constexpr const char *kName = "portable";
  /// Sizes the register blocks as for AVX2 (the compiler maps the lanes
  /// onto whatever the baseline offers).
  static constexpr unsigned kRegs = 16;
  struct F {
    float v[8];
  };
  struct I {
    int32_t v[8];
  };
  /// 8 rows x 2 columns of 16-bit weights, row-pair interleaved.
  struct W16 {
    int16_t v[16];
  };
  /// Two 16-bit inputs (columns 2j, 2j+1), applied to every row.
  struct X2 {
    int32_t lo, hi;
  };

  static F zeroF() { return F{}; }
  static F setF(float s) {
    F r;
    for (int l = 0; l < 8; ++l)
      r.v[l] = s;
    return r;
  }
  static F loadF32(const void *p) {
    F r;
    std::memcpy(r.v, p, sizeof(r.v));
    return r;
  }
  static F loadF16(const void *p) {
    uint16_t h[8];
    std::memcpy(h, p, sizeof(h));
    F r;
    for (int l = 0; l < 8; ++l)
      r.v[l] = halfToFloat(h[l]);
    return r;
  }
  static F bcastF(const float *p) { return setF(*p); }
  /// Not fused: the portable path must not depend on an FMA unit.
  static F fma(F a, F b, F c) {
    for (int l = 0; l < 8; ++l)
      c.v[l] = a.v[l] * b.v[l] + c.v[l];
    return c;
  }
  static F addF(F a, F b) {
    for (int l = 0; l < 8; ++l)
      a.v[l] += b.v[l];
    return a;
  }
  static F mulF(F a, F b) {
    for (int l = 0; l < 8; ++l)
      a.v[l] *= b.v[l];
    return a;
  }
  static F reluF(F a) {
    for (int l = 0; l < 8; ++l)
      a.v[l] = a.v[l] > 0.0f ? a.v[l] : 0.0f;
    return a;
  }
  /// Each lane rounded to bf16 (floatToBf16's rule) and widened back.
  static F roundBf16F(F a) {
    for (int l = 0; l < 8; ++l)
      a.v[l] = bf16ToFloat(floatToBf16(a.v[l]));
    return a;
  }
  static void storeF32(void *p, F a) { std::memcpy(p, a.v, sizeof(a.v)); }
  static void storeF16(void *p, F a) {
    uint16_t h[8];
    for (int l = 0; l < 8; ++l)
      h[l] = floatToHalf(a.v[l]);
    std::memcpy(p, h, sizeof(h));
  }

  static I zeroI() { return I{}; }
  static I loadI32(const void *p) {
    I r;
    std::memcpy(r.v, p, sizeof(r.v));
    return r;
  }
  static void storeI32(void *p, I a) { std::memcpy(p, a.v, sizeof(a.v)); }
  static I addI(I a, I b) {
    for (int l = 0; l < 8; ++l)
      a.v[l] = int32_t(uint32_t(a.v[l]) + uint32_t(b.v[l]));
    return a;
  }
  static I reluI(I a) {
    for (int l = 0; l < 8; ++l)
      a.v[l] = a.v[l] > 0 ? a.v[l] : 0;
    return a;
  }
  static F cvtIF(I a) {
    F r;
    for (int l = 0; l < 8; ++l)
      r.v[l] = float(a.v[l]);
    return r;
  }
  /// Lanes to int8 range (uint8 with u8) as 16-bit values: RTNE,
  /// saturating, NaN -> 0.
  static void storeS8AsI16(void *p, F a, bool u8 = false) {
    int16_t q[8];
    for (int l = 0; l < 8; ++l)
      q[l] = int16_t(u8 ? floatToU8(a.v[l]) : floatToS8(a.v[l]));
    std::memcpy(p, q, sizeof(q));
  }

  static W16 loadS8Pairs(const void *p) {
    int8_t b[16];
    std::memcpy(b, p, 16);
    W16 r;
    for (int l = 0; l < 16; ++l)
      r.v[l] = b[l];
    return r;
  }
  static W16 loadU8Pairs(const void *p) {
    uint8_t b[16];
    std::memcpy(b, p, 16);
    W16 r;
    for (int l = 0; l < 16; ++l)
      r.v[l] = b[l];
    return r;
  }
  static W16 loadS16Pairs(const void *p) {
    W16 r;
    std::memcpy(r.v, p, sizeof(r.v));
    return r;
  }
  static X2 bcastPair(const int16_t *p) { return X2{p[0], p[1]}; }
  static I maddPairs(I acc, W16 w, X2 x) {
    for (int l = 0; l < 8; ++l)
      acc.v[l] = int32_t(uint32_t(acc.v[l]) +
                         uint32_t(w.v[2 * l] * x.lo + w.v[2 * l + 1] * x.hi));
    return acc;
  }
};

} // namespace portable
} // namespace kernels
} // namespace coopvec

#endif // LINALGCOOP_LIB_RUNTIME_KERNELS_SIMDPORTABLE_H
