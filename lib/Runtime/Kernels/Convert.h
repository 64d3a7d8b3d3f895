//===- Convert.h - The kernels' element conversions, from CoopVecNumerics -===//
//
// The kernels convert with the numerics library's reference semantics (one
// definition of f16 rounding and of the DXIL float-to-integer rule for the
// whole project): scalar calls where single elements are converted, the bulk
// entry points (AVX2 inside the library when the CPU has it) for whole input
// vectors. The AVX2/AVX-512 microkernels' own F16C and vcvtps2dq sequences
// give the same results for every non-NaN value; NaN payloads are not part
// of the kernels' contract (the library returns the canonical quiet NaN,
// F16C keeps the payload).
//
// Included before any target pragma, so these stay baseline code.
//
//===----------------------------------------------------------------------===//

#ifndef LINALGCOOP_LIB_RUNTIME_KERNELS_CONVERT_H
#define LINALGCOOP_LIB_RUNTIME_KERNELS_CONVERT_H

#include "LinAlgCoop/Runtime/Numerics.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace coopvec {
namespace kernels {

inline float halfToFloat(uint16_t h) {
  return coopvecDecodeToF32(COOPVEC_FMT_F16, h);
}

/// f32 -> f16 by the DXIL rule of Numerics.h (the one the reference
/// semantics use): RTNE, a finite value beyond the range gives +-65504,
/// +-inf stays +-inf.
inline uint16_t floatToHalf(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  return uint16_t(coopvecDxilConvert(COOPVEC_FMT_F16, COOPVEC_FMT_F32, bits));
}

/// f32 -> bf16 by the DXIL rule of Numerics.h: RTNE, a finite value beyond
/// the range gives +-MAX_NORM, +-inf stays +-inf, NaN stays NaN.
inline uint16_t floatToBf16(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  return uint16_t(coopvecDxilConvert(COOPVEC_FMT_BF16, COOPVEC_FMT_F32, bits));
}

/// The f32 value of a bf16 (exact).
inline float bf16ToFloat(uint16_t h) {
  uint32_t bits = uint32_t(h) << 16;
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

/// f32 -> int8 / uint8 by the DXIL rule: RTNE, saturating, NaN -> 0.
inline int32_t floatToS8(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  return int8_t(
      uint8_t(coopvecDxilConvert(COOPVEC_FMT_I8, COOPVEC_FMT_F32, bits)));
}
inline int32_t floatToU8(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  return uint8_t(coopvecDxilConvert(COOPVEC_FMT_U8, COOPVEC_FMT_F32, bits));
}

/// n f16 values at `src` (any alignment) widened to f32.
inline void halvesToFloats(const uint8_t *src, float *dst, size_t n) {
  if (reinterpret_cast<uintptr_t>(src) % 2 == 0) {
    coopvecDecodeBuffer(COOPVEC_FMT_F16, src, dst, n);
    return;
  }
  for (size_t i = 0; i < n; ++i) {
    uint16_t h;
    std::memcpy(&h, src + 2 * i, 2);
    dst[i] = halfToFloat(h);
  }
}

/// n f32 values at `src` (any alignment) rounded to f16 (floatToHalf's
/// rule) and widened back.
inline void floatsThroughHalf(const uint8_t *src, float *dst, size_t n) {
  std::memcpy(dst, src, n * 4);
  uint16_t tmp[256];
  for (size_t i = 0; i < n; i += 256) {
    size_t c = n - i < 256 ? n - i : 256;
    coopvecConvertF32Buffer(COOPVEC_FMT_F16, dst + i, tmp, c, COOPVEC_RND_RN,
                            0, nullptr);
    // The bulk conversion overflows to inf (IEEE); a finite input saturates.
    for (size_t j = 0; j < c; ++j)
      if ((tmp[j] & 0x7FFF) == 0x7C00 && std::isfinite(dst[i + j]))
        tmp[j] = uint16_t((tmp[j] & 0x8000) | 0x7BFF);
    coopvecDecodeBuffer(COOPVEC_FMT_F16, tmp, dst + i, c);
  }
}

} // namespace kernels
} // namespace coopvec

#endif // LINALGCOOP_LIB_RUNTIME_KERNELS_CONVERT_H
