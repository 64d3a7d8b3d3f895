//===- Oracle.h - APFloat-based expected results for the numerics tests ---===//
//
// The independent side of every comparison: LLVM's APFloat for in-range
// values, and the header's documented rules (written out again here, not
// shared with the library) where APFloat is known to be wrong: inf/NaN into
// FP4/FP6, negative values and zero into E8M0, and satfinite, which APFloat
// does not model.
//
//===----------------------------------------------------------------------===//

#ifndef COOPVEC_TEST_LIB_NUMERICS_ORACLE_H
#define COOPVEC_TEST_LIB_NUMERICS_ORACLE_H

#include "LinAlgCoop/Runtime/Numerics.h"

#include "llvm/ADT/APFloat.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

namespace oracle {

using llvm::APFloat;
using llvm::APInt;

/// Float formats exercised as conversion destinations.
constexpr unsigned kSmallFormats[] = {
    COOPVEC_FMT_E4M3, COOPVEC_FMT_E5M2,  COOPVEC_FMT_E2M3, COOPVEC_FMT_E3M2,
    COOPVEC_FMT_E2M1, COOPVEC_FMT_UE8M0, COOPVEC_FMT_UE4M3};
constexpr unsigned kAllDstFormats[] = {
    COOPVEC_FMT_F16,  COOPVEC_FMT_BF16, COOPVEC_FMT_TF32,  COOPVEC_FMT_E4M3,
    COOPVEC_FMT_E5M2, COOPVEC_FMT_E2M3, COOPVEC_FMT_E3M2,  COOPVEC_FMT_E2M1,
    COOPVEC_FMT_UE8M0, COOPVEC_FMT_UE4M3};
constexpr unsigned kDeterministicModes[] = {COOPVEC_RND_RN, COOPVEC_RND_RZ,
                                            COOPVEC_RND_RM, COOPVEC_RND_RP,
                                            COOPVEC_RND_RNA};

inline const llvm::fltSemantics &semantics(unsigned fmt) {
  switch (fmt) {
  case COOPVEC_FMT_F32:
    return APFloat::IEEEsingle();
  case COOPVEC_FMT_F16:
    return APFloat::IEEEhalf();
  case COOPVEC_FMT_BF16:
    return APFloat::BFloat();
  case COOPVEC_FMT_TF32:
    return APFloat::FloatTF32();
  case COOPVEC_FMT_E4M3:
  case COOPVEC_FMT_UE4M3: // E4M3 with the sign bit 0
    return APFloat::Float8E4M3FN();
  case COOPVEC_FMT_E5M2:
    return APFloat::Float8E5M2();
  case COOPVEC_FMT_E2M3:
    return APFloat::Float6E2M3FN();
  case COOPVEC_FMT_E3M2:
    return APFloat::Float6E3M2FN();
  case COOPVEC_FMT_E2M1:
    return APFloat::Float4E2M1FN();
  default:
    return APFloat::Float8E8M0FNU();
  }
}

inline APFloat::roundingMode apMode(unsigned rounding) {
  switch (rounding) {
  case COOPVEC_RND_RZ:
    return APFloat::rmTowardZero;
  case COOPVEC_RND_RM:
    return APFloat::rmTowardNegative;
  case COOPVEC_RND_RP:
    return APFloat::rmTowardPositive;
  case COOPVEC_RND_RNA:
    return APFloat::rmNearestTiesToAway;
  default:
    return APFloat::rmNearestTiesToEven;
  }
}

inline const char *modeName(unsigned rounding) {
  static const char *names[] = {"rn", "rz", "rm", "rp", "rna", "rs"};
  return rounding < 6 ? names[rounding] : "?";
}

inline std::string flagsName(unsigned flags) {
  std::string s;
  if (flags & COOPVEC_CVT_SATFINITE)
    s += ".satfinite";
  if (flags & COOPVEC_CVT_RELU)
    s += ".relu";
  return s;
}

/// Bit pattern in the library's container convention.
inline uint32_t bitsOf(unsigned fmt, const APFloat &v) {
  uint32_t b = uint32_t(v.bitcastToAPInt().getZExtValue());
  if (fmt == COOPVEC_FMT_TF32)
    return b << 13;
  if (fmt == COOPVEC_FMT_UE4M3)
    return b & 0x7F;
  return b;
}

inline bool isUnsigned(unsigned fmt) {
  return fmt == COOPVEC_FMT_UE8M0 || fmt == COOPVEC_FMT_UE4M3;
}
inline bool isFiniteOnly(unsigned fmt) {
  return fmt == COOPVEC_FMT_E2M3 || fmt == COOPVEC_FMT_E3M2 ||
         fmt == COOPVEC_FMT_E2M1;
}
inline bool hasInf(unsigned fmt) {
  return fmt == COOPVEC_FMT_F32 || fmt == COOPVEC_FMT_F16 ||
         fmt == COOPVEC_FMT_BF16 || fmt == COOPVEC_FMT_TF32 ||
         fmt == COOPVEC_FMT_E5M2;
}

inline uint32_t largest(unsigned fmt, bool neg) {
  return bitsOf(fmt, APFloat::getLargest(semantics(fmt),
                                         neg && !isUnsigned(fmt)));
}

/// Expected result of converting `x` to `dst` (deterministic modes).
inline uint32_t expectConvert(unsigned dst, APFloat x, unsigned rounding,
                              unsigned flags) {
  const llvm::fltSemantics &sem = semantics(dst);
  bool relu = flags & COOPVEC_CVT_RELU, sat = flags & COOPVEC_CVT_SATFINITE;
  if (x.isNaN()) {
    bool neg = x.isNegative() && !relu && !isUnsigned(dst);
    if (isFiniteOnly(dst))
      return largest(dst, false); // PTX: NaN -> +MAX_NORM
    if (dst == COOPVEC_FMT_UE8M0)
      return 0xFF;
    if (dst == COOPVEC_FMT_E4M3 || dst == COOPVEC_FMT_UE4M3)
      return bitsOf(dst, APFloat::getNaN(sem, neg));
    return bitsOf(dst, APFloat::getQNaN(sem, neg));
  }
  if (relu && x.isNegative())
    x = APFloat::getZero(x.getSemantics(), false);
  if (isUnsigned(dst))
    x.clearSign();
  if (x.isInfinity()) {
    bool neg = x.isNegative();
    if (sat || isFiniteOnly(dst))
      return largest(dst, neg);
    if (dst == COOPVEC_FMT_UE8M0)
      return 0xFF;
    if (!hasInf(dst))
      return bitsOf(dst, APFloat::getNaN(sem, neg));
    return bitsOf(dst, APFloat::getInf(sem, neg));
  }
  bool negIn = x.isNegative();
  bool lost;
  APFloat r = x;
  r.convert(sem, apMode(rounding), &lost);
  if (sat && (r.isInfinity() || r.isNaN()))
    return largest(dst, negIn);
  return bitsOf(dst, r);
}

/// Exact double value of a format's bit pattern according to APFloat.
inline double apDecode(unsigned fmt, uint32_t bits) {
  APFloat v(0.0);
  switch (fmt) {
  case COOPVEC_FMT_UE4M3:
    v = APFloat(semantics(fmt), APInt(8, bits & 0x7F));
    break;
  case COOPVEC_FMT_TF32:
    v = APFloat(semantics(fmt), APInt(19, bits >> 13));
    break;
  default: {
    unsigned width = llvm::APFloat::getSizeInBits(semantics(fmt));
    v = APFloat(semantics(fmt), APInt(width, bits & ((1ull << width) - 1)));
    break;
  }
  }
  // APFloat classifies E8M0's 0xFF as NaN, but converting that NaN to IEEE
  // double yields the bit pattern of +inf (its zero-width payload): ask for
  // the category first.
  if (v.isNaN())
    return v.isNegative() ? -NAN : NAN;
  bool lost;
  v.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &lost);
  return v.convertToDouble();
}

/// Same double, NaNs compared as NaN, zeros by sign.
inline bool sameDouble(double a, double b) {
  if (a != a || b != b)
    return a != a && b != b;
  uint64_t ua, ub;
  std::memcpy(&ua, &a, 8);
  std::memcpy(&ub, &b, 8);
  return ua == ub;
}

inline float bitsFloat(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
inline uint32_t floatBits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

/// splitmix64: deterministic, seedable test randomness.
struct Rng {
  uint64_t state;
  explicit Rng(uint64_t seed) : state(seed) {}
  uint64_t next() {
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  uint32_t next32() { return uint32_t(next() >> 32); }
  double uniform() { return double(next() >> 11) * 0x1p-53; }
};

} // namespace oracle

#endif // COOPVEC_TEST_LIB_NUMERICS_ORACLE_H
