//===- Half.h - f16 <-> f32 conversions for the portable kernel path ------===//
//
// Bit-exact with F16C (vcvtph2ps, vcvtps2ph with RTNE): the portable path and
// the AVX2 path must round identically so that they differ only in the
// accumulation (FMA vs multiply+add). To be replaced by the Numerics
// library's conversions once that lands (one semantics, written once).
//
//===----------------------------------------------------------------------===//

#ifndef LINALGCOOP_LIB_RUNTIME_KERNELS_HALF_H
#define LINALGCOOP_LIB_RUNTIME_KERNELS_HALF_H

#include <cmath>
#include <cstdint>
#include <cstring>

namespace coopvec {
namespace kernels {

inline float halfToFloat(uint16_t h) {
  uint32_t sign = uint32_t(h & 0x8000) << 16;
  uint32_t exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
  uint32_t bits;
  if (exp == 0x1f) {
    bits = sign | 0x7f800000 | (mant << 13);
  } else if (exp != 0) {
    bits = sign | ((exp + 112) << 23) | (mant << 13);
  } else {
    // Zero or subnormal: mant * 2^-24 is exact in f32.
    float f = float(mant) * 5.9604644775390625e-8f;
    std::memcpy(&bits, &f, 4);
    bits |= sign;
  }
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

/// RTNE, overflow to infinity, NaN quieted with the payload truncated (as
/// vcvtps2ph does).
inline uint16_t floatToHalf(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  uint16_t sign = uint16_t((x >> 16) & 0x8000);
  x &= 0x7fffffff;
  if (x >= 0x7f800000)
    return sign | (x > 0x7f800000 ? uint16_t(0x7e00 | ((x >> 13) & 0x3ff))
                                  : uint16_t(0x7c00));
  if (x >= 0x477ff000) // 65520 and up round to infinity.
    return sign | 0x7c00;
  if (x < 0x38800000) { // Below 2^-14: subnormal or zero.
    float a;
    std::memcpy(&a, &x, 4);
    // a * 2^24 is exact; nearbyint rounds to nearest even (default mode);
    // 1024 is the smallest normal's encoding, so the carry is correct.
    return sign | uint16_t(std::nearbyint(a * 16777216.0f));
  }
  uint32_t h = (x >> 13) - (112u << 10);
  uint32_t rem = x & 0x1fff;
  if (rem > 0x1000 || (rem == 0x1000 && (h & 1)))
    ++h;
  return sign | uint16_t(h);
}

/// f32 -> 8-bit integer in [lo, hi]: RTNE, saturating, NaN -> 0 (the spec's
/// float-to-integer rule; it leaves NaN open).
inline int32_t floatToIntSat(float f, int32_t lo, int32_t hi) {
  if (!(f == f))
    return 0;
  if (f <= float(lo))
    return lo;
  if (f >= float(hi))
    return hi;
  return int32_t(std::nearbyint(f));
}

} // namespace kernels
} // namespace coopvec

#endif // LINALGCOOP_LIB_RUNTIME_KERNELS_HALF_H
