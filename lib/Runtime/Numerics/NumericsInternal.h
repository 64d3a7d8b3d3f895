//===- NumericsInternal.h - Shared internals of CoopVecNumerics -*- C++ -*-===//
//
// Format descriptors, the exact rounding core and the SIMD kernel entry
// points shared by the scalar reference, the bulk dispatch and MX code.
//
//===----------------------------------------------------------------------===//

#ifndef LINALGCOOP_LIB_RUNTIME_NUMERICS_NUMERICSINTERNAL_H
#define LINALGCOOP_LIB_RUNTIME_NUMERICS_NUMERICSINTERNAL_H

#include "LinAlgCoop/Runtime/Numerics.h"

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace coopvec {
namespace numerics {

/// How a float format spends its all-ones exponent.
enum class Specials : uint8_t {
  Ieee,       ///< inf (mantissa 0) and NaN (mantissa != 0)
  NanOnly,    ///< all ones exponent and mantissa is NaN, no inf (E4M3)
  FiniteOnly, ///< every encoding is finite (E2M3, E3M2, E2M1)
  ScaleE8M0,  ///< UE8M0: 0xFF NaN, no zero, no subnormals
};

struct FloatFormat {
  uint8_t expBits;
  uint8_t manBits;
  int16_t bias;
  Specials specials;
  bool isSigned;
  /// Left shift of the encoding inside its container (TF32 is 13).
  uint8_t containerShift;
  /// Random bits consumed by stochastic rounding.
  uint8_t stochasticBits;
};

/// The descriptor of a float format, or nullptr for integer/unknown values.
const FloatFormat *getFloatFormat(unsigned format);

/// Right-aligned encoding (before containerShift) of the largest finite.
uint32_t maxFiniteEncoding(const FloatFormat &fmt);

/// A finite value as sign, magnitude and power of two: (-1)^neg * mag * 2^exp.
struct Unpacked {
  bool neg;
  uint64_t mag;
  int exp;
};

/// Rounds a finite nonzero value (mag != 0) or zero (mag == 0) to `fmt`;
/// returns the encoding shifted into its container. Handles relu, unsigned
/// formats, subnormals, overflow per the header's rules.
uint32_t roundToFormat(const FloatFormat &fmt, Unpacked v, unsigned rounding,
                       unsigned flags, uint32_t rbits);
/// Encoding for a NaN input (sign `neg`).
uint32_t encodeNaN(const FloatFormat &fmt, bool neg, unsigned flags);
/// Encoding for an infinite input.
uint32_t encodeInf(const FloatFormat &fmt, bool neg, unsigned flags);

inline uint32_t floatBits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
inline float bitsFloat(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

/// Unpacks f32 bits: returns 0 finite, 1 inf, 2 NaN (only `neg` is set).
inline int unpackF32(uint32_t u, Unpacked &v) {
  v.neg = (u >> 31) != 0;
  v.mag = 0;
  v.exp = 0;
  uint32_t e = (u >> 23) & 0xFF, m = u & 0x7FFFFF;
  if (e == 0xFF)
    return m ? 2 : 1;
  if (e == 0) {
    v.mag = m;
    v.exp = -149;
  } else {
    v.mag = m | 0x800000u;
    v.exp = int(e) - 150;
  }
  return 0;
}

/// Unpacks a finite double exactly.
inline Unpacked unpackFiniteDouble(double d) {
  uint64_t u;
  std::memcpy(&u, &d, 8);
  Unpacked v;
  v.neg = (u >> 63) != 0;
  uint64_t e = (u >> 52) & 0x7FF, m = u & ((uint64_t(1) << 52) - 1);
  if (e == 0) {
    v.mag = m;
    v.exp = -1074;
  } else {
    v.mag = m | (uint64_t(1) << 52);
    v.exp = int(e) - 1075;
  }
  return v;
}

/// Scalar f32 conversion (the reference every other path is tested against).
uint32_t convertF32Scalar(unsigned dst, uint32_t x, unsigned rounding,
                          unsigned flags, uint32_t rbits);

/// Bytes per element in bulk buffers; 0 for E2M1 (two per byte).
unsigned storageBytes(unsigned format);

//===----------------------------------------------------------------------===//
// SIMD kernels (x86_64/Avx2.cpp, x86_64/Avx512.cpp; NoSimd.cpp elsewhere).
// Each returns false (or 0 values handled) when it cannot handle the request,
// in which case the caller runs the scalar loop.
//===----------------------------------------------------------------------===//

/// Per-format constants of the round-to-nearest kernels.
struct SimdParams {
  int32_t manShift;     ///< 23 - manBits
  int32_t expAdjust;    ///< (127 - bias) << manBits
  int32_t manBits;
  int32_t biasDelta;    ///< 127 - bias
  int32_t maxEncoding;  ///< right-aligned MAX_NORM
  int32_t overflowAbove;///< largest |x| bits that round to <= MAX_NORM
  int32_t nanEncoding;  ///< positive NaN result (or +MAX for finite-only)
  int32_t overflowEncoding; ///< positive non-satfinite overflow (and +inf)
  int32_t signShift;    ///< shift of bit 31 to the format's sign bit
  bool isSigned;
  bool nanKeepsSign;
};

/// The lane constants both SIMD widths broadcast, derived once from the
/// SimdParams and the flags of one conversion.
struct SimdLaneConsts {
  int32_t roundBias;      ///< 2^(manShift-1) - 1: round half to even
  int32_t normalBelow;    ///< |x| bits above it have a normal result
  int32_t subnormalMagic; ///< f32 bits of 2^(emin - manBits + 23)
  int32_t overflowCode;   ///< MAX_NORM with satfinite, else inf/NaN
  bool relu;

  SimdLaneConsts(const SimdParams &p, unsigned flags)
      : roundBias((1 << (p.manShift - 1)) - 1),
        // |x| >= 2^emin (emin = 1 - bias) has a normal result binade.
        normalBelow(((p.biasDelta + 1) << 23) - 1),
        // Its ulp is the destination's subnormal quantum.
        subnormalMagic(((1 - (127 - p.biasDelta)) - p.manBits + 23 + 127)
                       << 23),
        overflowCode((flags & COOPVEC_CVT_SATFINITE) ? p.maxEncoding
                                                     : p.overflowEncoding),
        relu((flags & COOPVEC_CVT_RELU) != 0) {}
};

/// Fills `p` for RN conversion to `dst` with `flags`; false if unsupported.
bool getSimdParams(unsigned dst, unsigned flags, SimdParams &p);

bool cpuHasAvx2();
bool cpuHasAvx512();
/// The level the bulk entry points use now (CoopVecNumericsSimd).
int simdLevel();
bool simdEnabled();

/// f32 to `dst` (RN) at the current level.
bool simdConvertF32(unsigned dst, const SimdParams &p, unsigned flags,
                    const float *src, void *out, size_t n);
/// f16 widened to f32 at the current level (NaNs become canonical).
bool simdWidenF16(const uint16_t *src, float *out, size_t n);
/// MX quantization of whole blocks at the current level; returns the number
/// of values handled (a multiple of 32; a block holding inf/NaN stops it).
size_t simdMxQuantize(unsigned elem, const SimdParams &p, int emax,
                      const float *src, size_t n, uint8_t *elems,
                      uint8_t *scales);

/// The f32 bits of 2^(s - 127), the multiplier of an MX scale byte s < 0xFF
/// (s = 0 gives the subnormal 2^-127).
inline uint32_t mxScaleBits(uint8_t s) {
  return s ? uint32_t(s) << 23 : 0x00400000u;
}

/// The f32 values of the 256 codes of an MX element format (E4M3..E2M1).
const float *mxDecodeTable(unsigned elem);
/// MX dequantization of whole blocks at the current level through the
/// element's decode table; returns the number of values handled (a
/// multiple of 32).
size_t simdMxDequantize(unsigned elem, const float *table, const void *elems,
                        const uint8_t *scales, size_t n, float *dst);

bool avx2ConvertF32(unsigned dst, const SimdParams &p, unsigned flags,
                    const float *src, void *out, size_t n);
bool avx2WidenF16(const uint16_t *src, float *out, size_t n);
size_t avx2MxQuantize(unsigned elem, const SimdParams &p, int emax,
                      const float *src, size_t n, uint8_t *elems,
                      uint8_t *scales);
size_t avx2MxDequantize(unsigned elem, const float *table,
                        const void *elems, const uint8_t *scales, size_t n,
                        float *dst);
bool avx512ConvertF32(unsigned dst, const SimdParams &p, unsigned flags,
                      const float *src, void *out, size_t n);
bool avx512WidenF16(const uint16_t *src, float *out, size_t n);
size_t avx512MxQuantize(unsigned elem, const SimdParams &p, int emax,
                        const float *src, size_t n, uint8_t *elems,
                        uint8_t *scales);

size_t avx512MxDequantize(unsigned elem, const float *table,
                          const void *elems, const uint8_t *scales, size_t n,
                          float *dst);

/// Stores the scalar conversions of src[first..n) into a bulk buffer: the
/// tails the SIMD kernels leave.
void convertTailScalar(unsigned dst, unsigned flags, const float *src,
                       void *out, size_t first, size_t n);

} // namespace numerics
} // namespace coopvec

#endif // LINALGCOOP_LIB_RUNTIME_NUMERICS_NUMERICSINTERNAL_H
