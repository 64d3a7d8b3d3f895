//===- TestUtil.h - Shared helpers of the runtime kernel test drivers -----===//
//
// Deliberately independent of the runtime's internals: the layout formulas
// and the f16 conversion are re-derived here from their documentation so
// that a bug in the runtime cannot hide behind the same bug in the test.
//
//===----------------------------------------------------------------------===//

#ifndef COOPVEC_TEST_LIB_KERNELS_TESTUTIL_H
#define COOPVEC_TEST_LIB_KERNELS_TESTUTIL_H

#include "LinAlgCoop/Runtime/Kernels.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdarg>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace cvtest {

/// Counts checks and failures; prints the first few failures.
struct Checker {
  uint64_t checks = 0, failures = 0;
  __attribute__((format(printf, 3, 4))) void check(bool ok, const char *fmt,
                                                    ...) {
    ++checks;
    if (ok)
      return;
    if (++failures <= 20) {
      std::printf("FAIL: ");
      va_list args;
      va_start(args, fmt);
      std::vprintf(fmt, args);
      va_end(args);
      std::printf("\n");
    }
  }
  int finish(const char *name) {
    std::printf("%s: %llu checks, %llu failures\n", name,
                (unsigned long long)checks, (unsigned long long)failures);
    return failures ? 1 : 0;
  }
};

/// Byte offset of (r, c) per the formulas documented in Layout.h, in the
/// test's own words: panels of 8 rows, tiles of 8x8.
inline uint64_t refOffset(uint32_t layout, uint32_t rows, uint32_t cols,
                          uint32_t es, uint32_t stride, uint64_t r, uint64_t c) {
  (void)rows;
  switch (layout) {
  case 0:
    return r * stride + c * es;
  case 1:
    return c * stride + r * es;
  case 2: {
    uint64_t g = es == 1 ? 2 : 1;
    uint64_t kp = (cols + g - 1) / g * g;
    uint64_t panel = 8 * kp * es;
    uint64_t group = c / g, within = c % g;
    return (r / 8) * panel + group * 8 * g * es + (r % 8) * g * es + within * es;
  }
  default: {
    uint64_t tilesPerRow = (cols + 7) / 8;
    uint64_t tile = (r / 8) * tilesPerRow + c / 8;
    return tile * 64 * es + ((c % 8) * 8 + (r % 8)) * es;
  }
  }
}

inline uint64_t refSize(uint32_t layout, uint32_t rows, uint32_t cols,
                        uint32_t es, uint32_t stride) {
  uint64_t bytes;
  switch (layout) {
  case 0:
    bytes = uint64_t(rows - 1) * stride + uint64_t(cols) * es;
    break;
  case 1:
    bytes = uint64_t(cols - 1) * stride + uint64_t(rows) * es;
    break;
  case 2: {
    uint64_t g = es == 1 ? 2 : 1;
    bytes = (rows + 7) / 8 * 8 * ((cols + g - 1) / g * g) * es;
    break;
  }
  default:
    bytes = uint64_t((rows + 7) / 8) * ((cols + 7) / 8) * 64 * es;
  }
  return (bytes + 15) / 16 * 16;
}

/// f16 -> f32 by the IEEE definition (value = mantissa * 2^exponent).
inline float halfValue(uint16_t h) {
  int exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
  double v;
  if (exp == 0x1f)
    v = mant ? NAN : INFINITY;
  else if (exp == 0)
    v = std::ldexp(double(mant), -24);
  else
    v = std::ldexp(double(mant + 1024), exp - 25);
  return float((h & 0x8000) ? -v : v);
}

/// f32 -> f16, RTNE, by searching the neighbouring encodings (slow, obvious).
inline uint16_t halfFromFloat(float f) {
  if (std::isnan(f))
    return 0x7e00;
  uint16_t sign = std::signbit(f) ? 0x8000 : 0;
  double a = std::fabs(double(f));
  if (a >= 65520.0)
    return sign | 0x7c00;
  // Candidates: the largest encoding <= a and the next one.
  uint16_t lo = 0;
  for (int step = 1 << 14; step; step >>= 1)
    if (lo + step <= 0x7bff && halfValue(uint16_t(lo + step)) <= a)
      lo = uint16_t(lo + step);
  double vlo = halfValue(lo);
  if (vlo == a || lo == 0x7bff)
    return sign | lo;
  double vhi = halfValue(uint16_t(lo + 1));
  double dlo = a - vlo, dhi = vhi - a;
  uint16_t pick = dlo < dhi ? lo : dhi < dlo ? uint16_t(lo + 1)
                                             : ((lo & 1) ? uint16_t(lo + 1) : lo);
  return sign | pick;
}

inline int32_t satRtne(double v, int32_t lo, int32_t hi) {
  if (std::isnan(v))
    return 0;
  double r = std::nearbyint(v);
  return r < lo ? lo : r > hi ? hi : int32_t(r);
}

/// The kernel ISAs this CPU can run, lowest first (portable always).
inline const std::vector<const char *> &availableIsas() {
  static const std::vector<const char *> isas = [] {
    std::vector<const char *> v;
    for (const char *isa : {"portable", "avx2", "avx512"})
      if (coopvecKernelsForceIsa(isa) == 0)
        v.push_back(isa);
    coopvecKernelsForceIsa(nullptr);
    return v;
  }();
  return isas;
}

/// Prints the tested ISAs ("isas: portable avx2 avx512").
inline void printIsas() {
  std::string line;
  for (const char *isa : availableIsas())
    line += std::string(" ") + isa;
  std::printf("isas:%s\n", line.c_str());
}

} // namespace cvtest

#endif // COOPVEC_TEST_LIB_KERNELS_TESTUTIL_H
