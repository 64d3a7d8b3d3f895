//===- Bulk.cpp - Buffer conversions and SIMD dispatch --------------------===//
//
// The bulk entry points choose between the AVX-512 and AVX2 kernels and the
// portable scalar loop at run time. The scalar loop calls the reference conversion
// element by element, so both paths are bit-identical by construction of the
// tests (test/lib/Numerics compares them on every tested input).
//
//===----------------------------------------------------------------------===//

#include "NumericsInternal.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <cstring>

using namespace coopvec::numerics;

namespace {

constexpr int kCapUnset = -2;

/// The cap set by coopvecNumericsCapSimd; kCapUnset: the start-up cap.
std::atomic<int> simdCap{kCapUnset};

/// The cap from the environment, read once.
int startupCap() {
  static const int cap = [] {
    const char *scalar = std::getenv("COOPVEC_NUMERICS_SCALAR");
    if (scalar && scalar[0] && std::strcmp(scalar, "0") != 0)
      return int(COOPVEC_NUMERICS_SCALAR_PATH);
    if (const char *isa = std::getenv("COOPVEC_NUMERICS_ISA")) {
      for (int level = COOPVEC_NUMERICS_SCALAR_PATH;
           level <= COOPVEC_NUMERICS_AVX512; ++level)
        if (std::strcmp(isa, coopvecNumericsSimdName(level)) == 0)
          return level;
    }
    return int(COOPVEC_NUMERICS_AVX512);
  }();
  return cap;
}

/// The best level the CPU has.
int cpuSimdLevel() {
  if (cpuHasAvx512())
    return COOPVEC_NUMERICS_AVX512;
  return cpuHasAvx2() ? COOPVEC_NUMERICS_AVX2 : COOPVEC_NUMERICS_SCALAR_PATH;
}

/// Stores one element code at index i following the bulk storage rules.
void storeCode(unsigned format, void *out, size_t i, uint32_t code) {
  switch (storageBytes(format)) {
  case 4:
    static_cast<uint32_t *>(out)[i] = code;
    return;
  case 2:
    static_cast<uint16_t *>(out)[i] = uint16_t(code);
    return;
  case 1:
    static_cast<uint8_t *>(out)[i] = uint8_t(code);
    return;
  default: {
    uint8_t *bytes = static_cast<uint8_t *>(out);
    if (i & 1)
      bytes[i / 2] = uint8_t((bytes[i / 2] & 0x0F) | (code << 4));
    else
      bytes[i / 2] = uint8_t(code & 0x0F); // clears the high nibble too
    return;
  }
  }
}

uint32_t loadCode(unsigned format, const void *in, size_t i) {
  switch (storageBytes(format)) {
  case 4:
    return static_cast<const uint32_t *>(in)[i];
  case 2:
    return static_cast<const uint16_t *>(in)[i];
  case 1:
    return static_cast<const uint8_t *>(in)[i];
  default: {
    uint8_t byte = static_cast<const uint8_t *>(in)[i / 2];
    return (i & 1) ? byte >> 4 : byte & 0x0F;
  }
  }
}

} // namespace

namespace coopvec {
namespace numerics {

int simdLevel() {
  int cap = simdCap.load(std::memory_order_relaxed);
  if (cap == kCapUnset)
    cap = startupCap();
  return std::min(cap, cpuSimdLevel());
}

bool simdEnabled() { return simdLevel() != COOPVEC_NUMERICS_SCALAR_PATH; }

bool simdConvertF32(unsigned dst, const SimdParams &p, unsigned flags,
                    const float *src, void *out, size_t n) {
  return simdLevel() == COOPVEC_NUMERICS_AVX512
             ? avx512ConvertF32(dst, p, flags, src, out, n)
             : avx2ConvertF32(dst, p, flags, src, out, n);
}

bool simdWidenF16(const uint16_t *src, float *out, size_t n) {
  return simdLevel() == COOPVEC_NUMERICS_AVX512 ? avx512WidenF16(src, out, n)
                                                : avx2WidenF16(src, out, n);
}

size_t simdMxQuantize(unsigned elem, const SimdParams &p, int emax,
                      const float *src, size_t n, uint8_t *elems,
                      uint8_t *scales) {
  return simdLevel() == COOPVEC_NUMERICS_AVX512
             ? avx512MxQuantize(elem, p, emax, src, n, elems, scales)
             : avx2MxQuantize(elem, p, emax, src, n, elems, scales);
}

size_t simdMxDequantize(unsigned elem, const float *table, const void *elems,
                        const uint8_t *scales, size_t n, float *dst) {
  return simdLevel() == COOPVEC_NUMERICS_AVX512
             ? avx512MxDequantize(elem, table, elems, scales, n, dst)
             : avx2MxDequantize(elem, table, elems, scales, n, dst);
}

void convertTailScalar(unsigned dst, unsigned flags, const float *src,
                       void *out, size_t first, size_t n) {
  for (size_t i = first; i < n; ++i)
    storeCode(dst, out, i,
              convertF32Scalar(dst, floatBits(src[i]), COOPVEC_RND_RN, flags,
                               0));
}

bool getSimdParams(unsigned dst, unsigned flags, SimdParams &p) {
  const FloatFormat *fmt = getFloatFormat(dst);
  if (!fmt || dst == COOPVEC_FMT_F32 || fmt->specials == Specials::ScaleE8M0)
    return false;
  p.manBits = fmt->manBits;
  p.manShift = 23 - fmt->manBits;
  p.biasDelta = 127 - fmt->bias;
  p.expAdjust = p.biasDelta << fmt->manBits;
  p.maxEncoding = int32_t(maxFiniteEncoding(*fmt));
  p.isSigned = fmt->isSigned;
  p.signShift = 31 - (fmt->expBits + fmt->manBits);
  p.nanEncoding = int32_t(encodeNaN(*fmt, false, 0) >> fmt->containerShift);
  p.nanKeepsSign = fmt->isSigned && fmt->specials != Specials::FiniteOnly &&
                   !(flags & COOPVEC_CVT_RELU);
  p.overflowEncoding = int32_t(
      encodeInf(*fmt, false, flags & COOPVEC_CVT_SATFINITE) >>
      fmt->containerShift);
  // Largest |x| that rounds (RN) to at most MAX_NORM: MAX_NORM plus half an
  // ulp is a tie, which rounds down only when MAX_NORM's significand is even.
  Unpacked maxV{false, 0, 0};
  int e = int(uint32_t(p.maxEncoding) >> fmt->manBits);
  uint32_t man = uint32_t(p.maxEncoding) & ((1u << fmt->manBits) - 1);
  maxV.mag = (uint64_t(man) | (uint64_t(1) << fmt->manBits)) * 2 + 1;
  maxV.exp = e - fmt->bias - fmt->manBits - 1;
  // (mag * 2^exp) is MAX_NORM + ulp/2, exact in f32 for every format here.
  float tie = float(std::ldexp(double(maxV.mag), maxV.exp));
  uint32_t tieBits = floatBits(tie);
  p.overflowAbove = int32_t((man & 1) ? tieBits - 1 : tieBits);
  return true;
}

} // namespace numerics
} // namespace coopvec

extern "C" {

void coopvecNumericsCapSimd(int level) {
  if (level < 0)
    level = kCapUnset;
  else if (level > COOPVEC_NUMERICS_AVX512)
    level = COOPVEC_NUMERICS_AVX512;
  simdCap.store(level, std::memory_order_relaxed);
}

void coopvecNumericsForceScalar(int force) {
  coopvecNumericsCapSimd(force ? COOPVEC_NUMERICS_SCALAR_PATH : -1);
}

int coopvecNumericsUsingSimd(void) { return simdLevel(); }

const char *coopvecNumericsSimdName(int level) {
  switch (level) {
  case COOPVEC_NUMERICS_SCALAR_PATH:
    return "scalar";
  case COOPVEC_NUMERICS_AVX2:
    return "avx2";
  case COOPVEC_NUMERICS_AVX512:
    return "avx512";
  default:
    return "unknown";
  }
}

void coopvecConvertF32Buffer(unsigned dst, const float *src, void *out,
                             size_t n, unsigned rounding, unsigned flags,
                             const uint32_t *rbits) {
  SimdParams p;
  if (rounding == COOPVEC_RND_RN && simdEnabled() &&
      getSimdParams(dst, flags, p) && simdConvertF32(dst, p, flags, src, out, n))
    return;
  for (size_t i = 0; i < n; ++i) {
    uint32_t r = rounding == COOPVEC_RND_RS && rbits ? rbits[i] : 0;
    storeCode(dst, out, i,
              convertF32Scalar(dst, floatBits(src[i]), rounding, flags, r));
  }
}

void coopvecConvertBuffer(unsigned dst, unsigned src, const void *in,
                          void *out, size_t n, unsigned rounding,
                          unsigned flags, const uint32_t *rbits) {
  if (src == COOPVEC_FMT_F32) {
    coopvecConvertF32Buffer(dst, static_cast<const float *>(in), out, n,
                            rounding, flags, rbits);
    return;
  }
  SimdParams p;
  if ((src == COOPVEC_FMT_F16 || src == COOPVEC_FMT_BF16) &&
      rounding == COOPVEC_RND_RN && simdEnabled() &&
      getSimdParams(dst, flags, p)) {
    // Widen exactly to f32 in cache-sized chunks and reuse the f32 kernel.
    float chunk[512];
    const uint16_t *halves = static_cast<const uint16_t *>(in);
    size_t i = 0;
    bool ok = true;
    for (; ok && i < n; i += 512) {
      size_t count = n - i < 512 ? n - i : 512;
      if (src == COOPVEC_FMT_F16) {
        ok = simdWidenF16(halves + i, chunk, count);
      } else {
        for (size_t j = 0; j < count; ++j)
          chunk[j] = bitsFloat(uint32_t(halves[i + j]) << 16);
      }
      if (!ok)
        break;
      // E2M1 output offsets are in bytes of two elements; chunks are even.
      size_t offset = storageBytes(dst) ? i * storageBytes(dst) : i / 2;
      ok = simdConvertF32(dst, p, flags, chunk,
                          static_cast<uint8_t *>(out) + offset, count);
    }
    if (ok)
      return;
  }
  for (size_t i = 0; i < n; ++i) {
    uint32_t r = rounding == COOPVEC_RND_RS && rbits ? rbits[i] : 0;
    storeCode(dst, out, i,
              coopvecConvert(dst, src, loadCode(src, in, i), rounding, flags,
                             r));
  }
}

void coopvecDecodeBuffer(unsigned src, const void *in, float *out, size_t n) {
  if (src == COOPVEC_FMT_F16 && simdEnabled() &&
      simdWidenF16(static_cast<const uint16_t *>(in), out, n))
    return;
  for (size_t i = 0; i < n; ++i)
    out[i] = coopvecDecodeToF32(src, loadCode(src, in, i));
}

} // extern "C"
