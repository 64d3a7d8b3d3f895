//===- MX.cpp - OCP MX and NVFP4 block quantization ------------------------===//
//
// Block scales and element quantization as the header specifies. Scaling by
// an MX scale is an exact exponent shift of the unpacked value, so every
// element is rounded exactly once.
//
//===----------------------------------------------------------------------===//

#include "NumericsInternal.h"

#include <cmath>
#include <cstring>

using namespace coopvec::numerics;

namespace {

/// floor(log2(MAX_NORM)) of an MX element format, or -1 if not an element.
int mxElementEmax(unsigned elem) {
  switch (elem) {
  case COOPVEC_FMT_E4M3:
    return 8;
  case COOPVEC_FMT_E5M2:
    return 15;
  case COOPVEC_FMT_E2M3:
    return 2;
  case COOPVEC_FMT_E3M2:
    return 4;
  case COOPVEC_FMT_E2M1:
    return 2;
  default:
    return -1;
  }
}

/// True if the block holds an inf or NaN.
bool hasNonFinite(const float *block, size_t count) {
  for (size_t i = 0; i < count; ++i)
    if ((floatBits(block[i]) & 0x7F800000u) == 0x7F800000u)
      return true;
  return false;
}

uint32_t maxAbsBits(const float *block, size_t count) {
  uint32_t amax = 0;
  for (size_t i = 0; i < count; ++i) {
    uint32_t a = floatBits(block[i]) & 0x7FFFFFFFu;
    amax = a > amax ? a : amax;
  }
  return amax;
}

void storeElement(unsigned elem, void *elems, size_t i, uint32_t code) {
  uint8_t *bytes = static_cast<uint8_t *>(elems);
  if (elem != COOPVEC_FMT_E2M1) {
    bytes[i] = uint8_t(code);
    return;
  }
  if (i & 1)
    bytes[i / 2] = uint8_t((bytes[i / 2] & 0x0F) | (code << 4));
  else
    bytes[i / 2] = uint8_t(code & 0x0F);
}

uint32_t loadElement(unsigned elem, const void *elems, size_t i) {
  const uint8_t *bytes = static_cast<const uint8_t *>(elems);
  if (elem != COOPVEC_FMT_E2M1)
    return bytes[i];
  return (i & 1) ? bytes[i / 2] >> 4 : bytes[i / 2] & 0x0F;
}

void mxQuantizeBlockScalar(unsigned elem, const float *block, size_t count,
                           void *elems, size_t base, uint8_t *scale) {
  uint8_t s = coopvecMxBlockScale(elem, block, count);
  *scale = s;
  for (size_t j = 0; j < count; ++j)
    storeElement(elem, elems, base + j,
                 coopvecMxQuantizeElement(elem, block[j], s));
}

} // namespace

namespace coopvec {
namespace numerics {

const float *mxDecodeTable(unsigned elem) {
  // One table per element format, indexed by format code - E4M3 (the MX
  // element formats are consecutive, see mxElementEmax).
  struct Tables {
    float values[5][256];
    Tables() {
      for (unsigned f = 0; f < 5; ++f)
        for (unsigned code = 0; code < 256; ++code) {
          // Exact: every element value is an f32 value.
          values[f][code] = float(coopvecDecode(COOPVEC_FMT_E4M3 + f, code));
        }
    }
  };
  static const Tables tables;
  return tables.values[elem - COOPVEC_FMT_E4M3];
}

} // namespace numerics
} // namespace coopvec

extern "C" {

uint8_t coopvecMxBlockScale(unsigned elem, const float *block, size_t count) {
  int emax = mxElementEmax(elem);
  if (emax < 0 || hasNonFinite(block, count))
    return 0xFF;
  uint32_t amax = maxAbsBits(block, count);
  if (amax == 0)
    return 0x00;
  Unpacked v{};
  unpackF32(amax, v);
  int log2Floor = (63 - __builtin_clzll(v.mag)) + v.exp;
  int s = log2Floor - emax;
  s = s < -127 ? -127 : (s > 127 ? 127 : s);
  return uint8_t(s + 127);
}

uint32_t coopvecMxQuantizeElement(unsigned elem, float v, uint8_t scale) {
  const FloatFormat *fmt = getFloatFormat(elem);
  if (!fmt || mxElementEmax(elem) < 0 || scale == 0xFF)
    return 0;
  Unpacked u;
  switch (unpackF32(floatBits(v), u)) {
  case 1:
    return encodeInf(*fmt, u.neg, COOPVEC_CVT_SATFINITE);
  case 2:
    return encodeNaN(*fmt, u.neg, COOPVEC_CVT_SATFINITE);
  default:
    u.exp -= int(scale) - 127; // exact division by 2^(scale-127)
    return roundToFormat(*fmt, u, COOPVEC_RND_RN, COOPVEC_CVT_SATFINITE, 0);
  }
}

void coopvecMxQuantize(unsigned elem, const float *src, size_t n, void *elems,
                       uint8_t *scales) {
  int emax = mxElementEmax(elem);
  if (emax < 0)
    return;
  uint8_t *bytes = static_cast<uint8_t *>(elems);
  SimdParams p;
  bool simd = simdEnabled() && getSimdParams(elem, COOPVEC_CVT_SATFINITE, p);
  size_t i = 0;
  while (i < n) {
    if (simd) {
      size_t done = simdMxQuantize(
          elem, p, emax, src + i, n - i,
          bytes + (elem == COOPVEC_FMT_E2M1 ? i / 2 : i), scales + i / 32);
      i += done;
      if (i >= n)
        break;
    }
    // One block through the reference: an inf/NaN block, the partial last
    // block, or every block on the scalar path.
    size_t count = n - i < COOPVEC_MX_BLOCK ? n - i : size_t(COOPVEC_MX_BLOCK);
    mxQuantizeBlockScalar(elem, src + i, count, elems, i, scales + i / 32);
    i += count;
  }
}

void coopvecMxDequantize(unsigned elem, const void *elems,
                         const uint8_t *scales, size_t n, float *dst) {
  size_t i = 0;
  if (mxElementEmax(elem) >= 0 && simdEnabled())
    i = simdMxDequantize(elem, mxDecodeTable(elem), elems, scales, n, dst);
  for (; i < n; ++i) {
    uint8_t s = scales[i / COOPVEC_MX_BLOCK];
    if (s == 0xFF) {
      dst[i] = bitsFloat(0x7FC00000u);
      continue;
    }
    double v = coopvecDecode(elem, loadElement(elem, elems, i));
    // Exact in double; the conversion to float is the only rounding.
    dst[i] = float(std::ldexp(v, int(s) - 127));
  }
}

uint8_t coopvecNvfp4BlockScale(const float *block, size_t count) {
  if (hasNonFinite(block, count))
    return 0x7F;
  double amax = double(bitsFloat(maxAbsBits(block, count)));
  const FloatFormat &ue4m3 = *getFloatFormat(COOPVEC_FMT_UE4M3);
  return uint8_t(roundToFormat(ue4m3, unpackFiniteDouble(amax / 6.0),
                               COOPVEC_RND_RN, COOPVEC_CVT_SATFINITE, 0));
}

static uint8_t nvfp4QuantizeElement(float v, uint8_t scale) {
  const FloatFormat &e2m1 = *getFloatFormat(COOPVEC_FMT_E2M1);
  if (scale == 0x7F)
    return 0;
  double s = coopvecDecode(COOPVEC_FMT_UE4M3, scale);
  Unpacked u;
  if (unpackF32(floatBits(v), u) != 0)
    return uint8_t(encodeNaN(e2m1, u.neg, COOPVEC_CVT_SATFINITE));
  if (s == 0.0)
    return u.neg ? 0x8 : 0x0;
  return uint8_t(roundToFormat(e2m1, unpackFiniteDouble(double(v) / s),
                               COOPVEC_RND_RN, COOPVEC_CVT_SATFINITE, 0));
}

void coopvecNvfp4Quantize(const float *src, size_t n, uint8_t *elems,
                          uint8_t *scales) {
  for (size_t i = 0; i < n; i += COOPVEC_NVFP4_BLOCK) {
    size_t count =
        n - i < COOPVEC_NVFP4_BLOCK ? n - i : size_t(COOPVEC_NVFP4_BLOCK);
    uint8_t s = coopvecNvfp4BlockScale(src + i, count);
    scales[i / COOPVEC_NVFP4_BLOCK] = s;
    for (size_t j = 0; j < count; ++j)
      storeElement(COOPVEC_FMT_E2M1, elems, i + j,
                   nvfp4QuantizeElement(src[i + j], s));
  }
}

void coopvecNvfp4Dequantize(const uint8_t *elems, const uint8_t *scales,
                            size_t n, float *dst) {
  for (size_t i = 0; i < n; ++i) {
    uint8_t s = scales[i / COOPVEC_NVFP4_BLOCK];
    if (s == 0x7F) {
      dst[i] = bitsFloat(0x7FC00000u);
      continue;
    }
    double v = coopvecDecode(COOPVEC_FMT_E2M1,
                             loadElement(COOPVEC_FMT_E2M1, elems, i));
    // e2m1 (3 significant bits) times ue4m3 (4 bits) is exact in double.
    dst[i] = float(v * coopvecDecode(COOPVEC_FMT_UE4M3, s));
  }
}

} // extern "C"
