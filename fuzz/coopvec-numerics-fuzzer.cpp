//===- coopvec-numerics-fuzzer.cpp - conversions and MX, differentially --===//
//
// Decodes one call of the numerics C ABI (Numerics.h) from the input and
// checks it three ways: the AVX-512 and AVX2 paths of every bulk entry point
// against the forced scalar path, bit for bit; the scalar results against LLVM's APFloat
// through the test oracle (test/lib/Numerics/Oracle.h, which encodes the
// documented departures from APFloat); and every entry point with arbitrary
// (out-of-range) format, rounding and flag values for crashes and undefined
// behaviour. A mismatch prints the inputs and aborts.
//
//===----------------------------------------------------------------------===//

#include "LinAlgCoop/Runtime/Numerics.h"
#include "Oracle.h"

#include <fuzzer/FuzzedDataProvider.h>

#include <cinttypes>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

using llvm::APFloat;
using llvm::APInt;

namespace {

[[noreturn, gnu::format(printf, 1, 2)]] void fail(const char *format, ...) {
  va_list args;
  va_start(args, format);
  std::fputs("coopvec-numerics-fuzzer: mismatch: ", stderr);
  std::vfprintf(stderr, format, args);
  std::fputc('\n', stderr);
  va_end(args);
  std::abort();
}

constexpr unsigned kFloatDst[] = {
    COOPVEC_FMT_F16,   COOPVEC_FMT_BF16, COOPVEC_FMT_TF32, COOPVEC_FMT_E4M3,
    COOPVEC_FMT_E5M2,  COOPVEC_FMT_E2M3, COOPVEC_FMT_E3M2, COOPVEC_FMT_E2M1,
    COOPVEC_FMT_UE8M0, COOPVEC_FMT_UE4M3};
constexpr unsigned kFloatAll[] = {
    COOPVEC_FMT_F32,  COOPVEC_FMT_F16,   COOPVEC_FMT_BF16, COOPVEC_FMT_TF32,
    COOPVEC_FMT_E4M3, COOPVEC_FMT_E5M2,  COOPVEC_FMT_E2M3, COOPVEC_FMT_E3M2,
    COOPVEC_FMT_E2M1, COOPVEC_FMT_UE8M0, COOPVEC_FMT_UE4M3};
constexpr unsigned kIntegers[] = {COOPVEC_FMT_I8,  COOPVEC_FMT_U8,
                                  COOPVEC_FMT_I16, COOPVEC_FMT_U16,
                                  COOPVEC_FMT_I32, COOPVEC_FMT_U32};
constexpr unsigned kMxElems[] = {COOPVEC_FMT_E4M3, COOPVEC_FMT_E5M2,
                                 COOPVEC_FMT_E2M3, COOPVEC_FMT_E3M2,
                                 COOPVEC_FMT_E2M1};
constexpr size_t kMaxElements = 300;

template <typename T, size_t N>
T pick(FuzzedDataProvider &in, const T (&a)[N]) {
  return a[in.ConsumeIntegralInRange<size_t>(0, N - 1)];
}

/// Bytes of one element in a buffer (0: E2M1, two per byte).
size_t elementBytes(unsigned fmt) {
  switch (fmt) {
  case COOPVEC_FMT_F32:
  case COOPVEC_FMT_TF32:
    return 4;
  case COOPVEC_FMT_F16:
  case COOPVEC_FMT_BF16:
    return 2;
  case COOPVEC_FMT_E2M1:
    return 0;
  default:
    return 1;
  }
}

size_t bufferBytes(unsigned fmt, size_t n) {
  size_t bytes = elementBytes(fmt);
  return bytes ? n * bytes : (n + 1) / 2;
}

uint32_t loadCode(unsigned fmt, const std::vector<uint8_t> &buf, size_t i) {
  size_t bytes = elementBytes(fmt);
  if (!bytes)
    return (i & 1) ? buf[i / 2] >> 4 : buf[i / 2] & 0xF;
  uint32_t code = 0;
  std::memcpy(&code, buf.data() + i * bytes, bytes);
  return code;
}

/// A valid code of `fmt`: only the bits the format defines.
uint32_t maskCode(unsigned fmt, uint32_t bits) {
  if (fmt == COOPVEC_FMT_TF32)
    return bits & ~uint32_t(0x1FFF);
  unsigned width = coopvecFormatBits(fmt);
  return width >= 32 ? bits : bits & ((uint32_t(1) << width) - 1);
}

APFloat apValue(unsigned fmt, uint32_t bits) {
  if (fmt == COOPVEC_FMT_TF32)
    return APFloat(oracle::semantics(fmt), APInt(19, bits >> 13));
  if (fmt == COOPVEC_FMT_UE4M3)
    return APFloat(oracle::semantics(fmt), APInt(8, bits & 0x7F));
  unsigned width = APFloat::getSizeInBits(oracle::semantics(fmt));
  return APFloat(oracle::semantics(fmt), APInt(width, bits));
}

std::vector<float> consumeFloats(FuzzedDataProvider &in, size_t n) {
  std::vector<float> v(n);
  for (float &x : v)
    x = oracle::bitsFloat(in.ConsumeIntegral<uint32_t>());
  return v;
}

/// Runs `convert(out)` on every SIMD level (AVX-512, AVX2; a level the CPU
/// lacks runs the best one below it) and on the forced scalar path into
/// buffers of `bytes` bytes prefilled alike; checks they agree and returns
/// the scalar result.
template <typename F>
std::vector<uint8_t> bothPaths(const char *what, unsigned dst, size_t bytes,
                               F convert) {
  std::vector<uint8_t> scalar(bytes, 0xA5);
  coopvecNumericsCapSimd(COOPVEC_NUMERICS_SCALAR_PATH);
  convert(scalar.data());
  for (int level : {COOPVEC_NUMERICS_AVX512, COOPVEC_NUMERICS_AVX2}) {
    std::vector<uint8_t> simd(bytes, 0xA5);
    coopvecNumericsCapSimd(level);
    convert(simd.data());
    for (size_t i = 0; i < bytes; ++i)
      if (simd[i] != scalar[i])
        fail("%s to %s: byte %zu is 0x%02x on the %s path, 0x%02x on the "
             "scalar path",
             what, coopvecFormatName(dst), i, simd[i],
             coopvecNumericsSimdName(coopvecNumericsUsingSimd()), scalar[i]);
  }
  coopvecNumericsCapSimd(-1);
  return scalar;
}

void checkConvertF32Buffer(FuzzedDataProvider &in) {
  unsigned dst = pick(in, kFloatDst);
  unsigned rounding = in.ConsumeIntegralInRange<unsigned>(0, 5);
  unsigned flags = in.ConsumeIntegralInRange<unsigned>(0, 3);
  size_t n = in.ConsumeIntegralInRange<size_t>(0, kMaxElements);
  std::vector<uint32_t> rbits(n);
  for (uint32_t &r : rbits)
    r = in.ConsumeIntegral<uint32_t>();
  std::vector<float> src = consumeFloats(in, n);
  std::vector<uint8_t> out = bothPaths(
      "coopvecConvertF32Buffer", dst, bufferBytes(dst, n), [&](uint8_t *o) {
        coopvecConvertF32Buffer(dst, src.data(), o, n, rounding, flags,
                                rbits.data());
      });
  for (size_t i = 0; i < n; ++i) {
    uint32_t got = loadCode(dst, out, i);
    uint32_t scalar =
        coopvecConvertF32(dst, src[i], rounding, flags,
                          rounding == COOPVEC_RND_RS ? rbits[i] : 0);
    if (got != scalar)
      fail("coopvecConvertF32Buffer(%s) element %zu (0x%08" PRIx32
           "): 0x%" PRIx32 ", coopvecConvertF32 0x%" PRIx32,
           coopvecFormatName(dst), i, oracle::floatBits(src[i]), got, scalar);
    if (rounding == COOPVEC_RND_RS)
      continue;
    uint32_t expected =
        oracle::expectConvert(dst, APFloat(src[i]), rounding, flags);
    if (got != expected)
      fail("f32 0x%08" PRIx32 " to %s %s%s: 0x%" PRIx32
           ", APFloat oracle 0x%" PRIx32,
           oracle::floatBits(src[i]), coopvecFormatName(dst),
           oracle::modeName(rounding), oracle::flagsName(flags).c_str(), got,
           expected);
  }
}

void checkConvertHalfBuffer(FuzzedDataProvider &in) {
  unsigned src = in.ConsumeBool() ? COOPVEC_FMT_F16 : COOPVEC_FMT_BF16;
  unsigned dst = pick(in, kFloatDst);
  unsigned rounding = in.ConsumeIntegralInRange<unsigned>(0, 5);
  unsigned flags = in.ConsumeIntegralInRange<unsigned>(0, 3);
  size_t n = in.ConsumeIntegralInRange<size_t>(0, kMaxElements);
  std::vector<uint32_t> rbits(n);
  for (uint32_t &r : rbits)
    r = in.ConsumeIntegral<uint32_t>();
  std::vector<uint16_t> halves(n);
  for (uint16_t &h : halves)
    h = in.ConsumeIntegral<uint16_t>();
  std::vector<uint8_t> out = bothPaths(
      "coopvecConvertBuffer", dst, bufferBytes(dst, n), [&](uint8_t *o) {
        coopvecConvertBuffer(dst, src, halves.data(), o, n, rounding, flags,
                             rbits.data());
      });
  for (size_t i = 0; i < n; ++i) {
    uint32_t got = loadCode(dst, out, i);
    uint32_t scalar = coopvecConvert(dst, src, halves[i], rounding, flags,
                                     rounding == COOPVEC_RND_RS ? rbits[i] : 0);
    if (got != scalar)
      fail("coopvecConvertBuffer(%s from %s) element %zu (0x%04x): "
           "0x%" PRIx32 ", coopvecConvert 0x%" PRIx32,
           coopvecFormatName(dst), coopvecFormatName(src), i, halves[i], got,
           scalar);
    if (rounding == COOPVEC_RND_RS)
      continue;
    uint32_t expected =
        oracle::expectConvert(dst, apValue(src, halves[i]), rounding, flags);
    if (got != expected)
      fail("%s 0x%04x to %s %s%s: 0x%" PRIx32 ", APFloat oracle 0x%" PRIx32,
           coopvecFormatName(src), halves[i], coopvecFormatName(dst),
           oracle::modeName(rounding), oracle::flagsName(flags).c_str(), got,
           expected);
  }
}

void checkDecodeBuffer(FuzzedDataProvider &in) {
  unsigned src = pick(in, kFloatAll);
  size_t n = in.ConsumeIntegralInRange<size_t>(0, kMaxElements);
  std::vector<uint8_t> codes(bufferBytes(src, n));
  for (size_t i = 0; i < n; ++i) {
    uint32_t code = maskCode(src, in.ConsumeIntegral<uint32_t>());
    size_t bytes = elementBytes(src);
    if (bytes)
      std::memcpy(codes.data() + i * bytes, &code, bytes);
    else
      codes[i / 2] |= uint8_t(code << (i & 1 ? 4 : 0));
  }
  std::vector<uint8_t> out =
      bothPaths("coopvecDecodeBuffer", src, n * 4, [&](uint8_t *o) {
        coopvecDecodeBuffer(src, codes.data(), reinterpret_cast<float *>(o), n);
      });
  for (size_t i = 0; i < n; ++i) {
    float got;
    std::memcpy(&got, out.data() + i * 4, 4);
    uint32_t code = loadCode(src, codes, i);
    double expected = oracle::apDecode(src, code);
    if (!oracle::sameDouble(double(got), expected))
      fail("decoding %s 0x%" PRIx32 ": %a, APFloat %a", coopvecFormatName(src),
           code, double(got), expected);
    if (!oracle::sameDouble(coopvecDecode(src, code), expected))
      fail("coopvecDecode(%s, 0x%" PRIx32 "): %a, APFloat %a",
           coopvecFormatName(src), code, coopvecDecode(src, code), expected);
  }
}

void checkMx(FuzzedDataProvider &in) {
  unsigned elem = pick(in, kMxElems);
  size_t n = in.ConsumeIntegralInRange<size_t>(0, kMaxElements);
  std::vector<float> src = consumeFloats(in, n);
  size_t blocks = (n + COOPVEC_MX_BLOCK - 1) / COOPVEC_MX_BLOCK;
  size_t elemBytes = bufferBytes(elem, n);
  // Elements and scales in one buffer, so that both paths compare whole.
  std::vector<uint8_t> out =
      bothPaths("coopvecMxQuantize", elem, elemBytes + blocks, [&](uint8_t *o) {
        coopvecMxQuantize(elem, src.data(), n, o, o + elemBytes);
      });
  const uint8_t *scales = out.data() + elemBytes;
  for (size_t b = 0; b < blocks; ++b) {
    size_t first = b * COOPVEC_MX_BLOCK;
    size_t count = std::min<size_t>(COOPVEC_MX_BLOCK, n - first);
    uint8_t scale = coopvecMxBlockScale(elem, src.data() + first, count);
    if (scales[b] != scale)
      fail("coopvecMxQuantize(%s) block %zu: scale 0x%02x, "
           "coopvecMxBlockScale 0x%02x",
           coopvecFormatName(elem), b, scales[b], scale);
    for (size_t i = first; i < first + count; ++i) {
      uint32_t expected = coopvecMxQuantizeElement(elem, src[i], scale);
      if (loadCode(elem, out, i) != expected)
        fail("coopvecMxQuantize(%s) element %zu (0x%08" PRIx32
             ", scale 0x%02x): 0x%" PRIx32
             ", coopvecMxQuantizeElement 0x%" PRIx32,
             coopvecFormatName(elem), i, oracle::floatBits(src[i]), scale,
             loadCode(elem, out, i), expected);
    }
  }
  if (elem == COOPVEC_FMT_E2M1 && (n & 1) && out[elemBytes - 1] >> 4)
    fail("coopvecMxQuantize(e2m1) of %zu values set the last high nibble", n);

  std::vector<float> back(n);
  coopvecMxDequantize(elem, out.data(), scales, n, back.data());
  for (size_t i = 0; i < n; ++i) {
    uint8_t scale = scales[i / COOPVEC_MX_BLOCK];
    uint32_t code = loadCode(elem, out, i);
    double expected;
    if (scale == 0xFF) {
      expected = NAN;
    } else {
      // decode * 2^(scale - 127), one correct rounding to f32.
      APFloat v = apValue(elem, code);
      bool lost;
      v.convert(APFloat::IEEEsingle(), APFloat::rmNearestTiesToEven, &lost);
      v = llvm::scalbn(v, int(scale) - 127, APFloat::rmNearestTiesToEven);
      expected = double(v.convertToFloat());
    }
    if (!oracle::sameDouble(double(back[i]), expected))
      fail("coopvecMxDequantize(%s) element %zu (code 0x%" PRIx32
           ", scale 0x%02x): %a, APFloat %a",
           coopvecFormatName(elem), i, code, scale, double(back[i]), expected);
  }
}

void checkNvfp4(FuzzedDataProvider &in) {
  size_t n = in.ConsumeIntegralInRange<size_t>(0, kMaxElements);
  std::vector<float> src = consumeFloats(in, n);
  size_t blocks = (n + COOPVEC_NVFP4_BLOCK - 1) / COOPVEC_NVFP4_BLOCK;
  std::vector<uint8_t> elems((n + 1) / 2, 0xA5), scales(blocks, 0xA5);
  coopvecNvfp4Quantize(src.data(), n, elems.data(), scales.data());
  for (size_t b = 0; b < blocks; ++b) {
    size_t first = b * COOPVEC_NVFP4_BLOCK;
    size_t count = std::min<size_t>(COOPVEC_NVFP4_BLOCK, n - first);
    uint8_t scale = coopvecNvfp4BlockScale(src.data() + first, count);
    if (scales[b] != scale)
      fail("coopvecNvfp4Quantize block %zu: scale 0x%02x, "
           "coopvecNvfp4BlockScale 0x%02x",
           b, scales[b], scale);
    if (scale > 0x7F)
      fail("NVFP4 block %zu: scale 0x%02x has the sign bit set", b, scale);
  }
  if ((n & 1) && elems.back() >> 4)
    fail("coopvecNvfp4Quantize of %zu values set the last high nibble", n);
  std::vector<float> back(n);
  coopvecNvfp4Dequantize(elems.data(), scales.data(), n, back.data());
  for (size_t i = 0; i < n; ++i) {
    uint8_t scale = scales[i / COOPVEC_NVFP4_BLOCK];
    uint32_t code = loadCode(COOPVEC_FMT_E2M1, elems, i);
    double expected;
    if (scale == 0x7F) {
      expected = NAN;
    } else {
      // Both factors are exact in f32 and so is their product.
      APFloat v = apValue(COOPVEC_FMT_E2M1, code);
      APFloat s = apValue(COOPVEC_FMT_UE4M3, scale);
      bool lost;
      v.convert(APFloat::IEEEsingle(), APFloat::rmNearestTiesToEven, &lost);
      s.convert(APFloat::IEEEsingle(), APFloat::rmNearestTiesToEven, &lost);
      v.multiply(s, APFloat::rmNearestTiesToEven);
      expected = double(v.convertToFloat());
    }
    if (!oracle::sameDouble(double(back[i]), expected))
      fail("coopvecNvfp4Dequantize element %zu (code 0x%" PRIx32
           ", scale 0x%02x): %a, APFloat %a",
           i, code, scale, double(back[i]), expected);
    // The round trip keeps every finite value of a finite block within half
    // a step of the block's grid or clamps it to 6 * scale.
    if (scale != 0x7F && std::isfinite(src[i]) && std::isfinite(back[i]) &&
        std::signbit(back[i]) != std::signbit(src[i]) && back[i] != 0.0f)
      fail("NVFP4 round trip of %a gave %a (sign flipped)", double(src[i]),
           double(back[i]));
  }
}

int64_t integerValueOf(unsigned fmt, uint64_t bits) {
  switch (fmt) {
  case COOPVEC_FMT_I8:
    return int8_t(bits);
  case COOPVEC_FMT_U8:
    return uint8_t(bits);
  case COOPVEC_FMT_I16:
    return int16_t(bits);
  case COOPVEC_FMT_U16:
    return uint16_t(bits);
  case COOPVEC_FMT_I32:
    return int32_t(bits);
  default:
    return uint32_t(bits);
  }
}

void integerRangeOf(unsigned fmt, int64_t &lo, int64_t &hi) {
  unsigned width = 8u << ((fmt - COOPVEC_FMT_I8) / 2);
  bool isSigned = (fmt - COOPVEC_FMT_I8) % 2 == 0;
  lo = isSigned ? -(int64_t(1) << (width - 1)) : 0;
  hi = isSigned ? (int64_t(1) << (width - 1)) - 1 : (int64_t(1) << width) - 1;
}

uint64_t integerBitsOf(unsigned fmt, int64_t v) {
  unsigned width = 8u << ((fmt - COOPVEC_FMT_I8) / 2);
  return uint64_t(v) & ((uint64_t(1) << width) - 1);
}

void checkDxilConvert(FuzzedDataProvider &in) {
  bool srcInt = in.ConsumeBool(), dstInt = in.ConsumeBool();
  unsigned src = srcInt ? pick(in, kIntegers) : pick(in, kFloatAll);
  unsigned dst = dstInt ? pick(in, kIntegers) : pick(in, kFloatAll);
  uint64_t raw = in.ConsumeIntegral<uint64_t>();
  uint64_t bits = srcInt ? raw : maskCode(src, uint32_t(raw));
  uint64_t got = coopvecDxilConvert(dst, src, bits);
  uint64_t expected;
  if (srcInt && dstInt) {
    int64_t lo, hi, v = integerValueOf(src, bits);
    integerRangeOf(dst, lo, hi);
    expected = integerBitsOf(dst, std::min(std::max(v, lo), hi));
  } else if (srcInt) {
    // Every 32-bit integer is exact in double.
    int64_t v = integerValueOf(src, bits);
    expected = oracle::expectConvert(dst, APFloat(double(v)), COOPVEC_RND_RN,
                                     COOPVEC_CVT_SATFINITE);
    if (dst == COOPVEC_FMT_F32 || oracle::isUnsigned(dst))
      return; // APFloat's F32 and unsigned-scale rules differ (Oracle.h).
  } else if (dstInt) {
    double d = oracle::apDecode(src, uint32_t(bits));
    int64_t lo, hi;
    integerRangeOf(dst, lo, hi);
    if (std::isnan(d))
      expected = 0;
    else if (d <= double(lo))
      expected = integerBitsOf(dst, lo);
    else if (d >= double(hi))
      expected = integerBitsOf(dst, hi);
    else
      expected = integerBitsOf(dst, int64_t(std::nearbyint(d)));
  } else {
    if (dst == COOPVEC_FMT_F32 || oracle::isUnsigned(dst) ||
        oracle::isUnsigned(src))
      return;
    APFloat x = apValue(src, uint32_t(bits));
    unsigned flags =
        x.isInfinity() && oracle::hasInf(dst) ? 0 : COOPVEC_CVT_SATFINITE;
    expected = oracle::expectConvert(dst, x, COOPVEC_RND_RN, flags);
  }
  if (got != expected)
    fail("coopvecDxilConvert(%s from %s, 0x%" PRIx64 "): 0x%" PRIx64
         ", expected 0x%" PRIx64,
         coopvecFormatName(dst), coopvecFormatName(src), bits, got, expected);
}

void checkPacked(FuzzedDataProvider &in) {
  constexpr unsigned kX2[] = {
      COOPVEC_FMT_F16,  COOPVEC_FMT_BF16,  COOPVEC_FMT_E4M3,
      COOPVEC_FMT_E5M2, COOPVEC_FMT_E2M3,  COOPVEC_FMT_E3M2,
      COOPVEC_FMT_E2M1, COOPVEC_FMT_UE8M0, COOPVEC_FMT_UE4M3};
  unsigned fmt = pick(in, kX2);
  unsigned rounding = in.ConsumeIntegralInRange<unsigned>(0, 4);
  unsigned flags = in.ConsumeIntegralInRange<unsigned>(0, 3);
  std::vector<float> v = consumeFloats(in, 4);
  unsigned w = fmt == COOPVEC_FMT_F16 || fmt == COOPVEC_FMT_BF16 ? 16
               : fmt == COOPVEC_FMT_E2M1                         ? 4
                                                                 : 8;
  uint32_t mask = (uint32_t(1) << w) - 1;
  uint32_t e[4];
  for (unsigned i = 0; i < 4; ++i)
    e[i] = oracle::expectConvert(fmt, APFloat(v[i]), rounding, flags);
  uint32_t x2 = coopvecPackX2(fmt, v[0], v[1], rounding, flags, 0);
  if (x2 != ((e[0] << w) | e[1]))
    fail("coopvecPackX2(%s, %a, %a): 0x%" PRIx32 ", expected 0x%" PRIx32,
         coopvecFormatName(fmt), double(v[0]), double(v[1]), x2,
         (e[0] << w) | e[1]);
  float hi, lo;
  coopvecUnpackX2(fmt, x2, &hi, &lo);
  if (!oracle::sameDouble(hi, oracle::apDecode(fmt, e[0])) ||
      !oracle::sameDouble(lo, oracle::apDecode(fmt, e[1])))
    fail("coopvecUnpackX2(%s, 0x%" PRIx32 ") gave %a, %a",
         coopvecFormatName(fmt), x2, double(hi), double(lo));
  if (w == 16)
    return;
  uint32_t x4 = coopvecPackX4(fmt, v[0], v[1], v[2], v[3], rounding, flags, 0);
  uint32_t expected = 0;
  for (unsigned i = 0; i < 4; ++i)
    expected = (expected << w) | (e[i] & mask);
  if (x4 != expected)
    fail("coopvecPackX4(%s): 0x%" PRIx32 ", expected 0x%" PRIx32,
         coopvecFormatName(fmt), x4, expected);
  float out[4];
  coopvecUnpackX4(fmt, x4, out);
  for (unsigned i = 0; i < 4; ++i)
    if (!oracle::sameDouble(out[i], oracle::apDecode(fmt, e[i])))
      fail("coopvecUnpackX4(%s, 0x%" PRIx32 ") element %u gave %a",
           coopvecFormatName(fmt), x4, i, double(out[i]));
}

/// Every entry point with arbitrary enumerator values: no crash, no UB.
void checkArbitrary(FuzzedDataProvider &in) {
  unsigned dst = in.ConsumeIntegral<uint8_t>();
  unsigned src = in.ConsumeIntegral<uint8_t>();
  unsigned rounding = in.ConsumeIntegral<uint8_t>();
  unsigned flags = in.ConsumeIntegral<uint8_t>();
  uint32_t bits = in.ConsumeIntegral<uint32_t>();
  uint32_t rbits = in.ConsumeIntegral<uint32_t>();
  float x = oracle::bitsFloat(in.ConsumeIntegral<uint32_t>());
  volatile uint64_t sink = 0;
  sink += coopvecFormatBits(dst) + coopvecFormatIsFloat(dst) +
          coopvecFormatMaxFinite(dst) + coopvecStochasticBits(dst);
  sink += std::strlen(coopvecFormatName(dst));
  sink += coopvecConvertF32(dst, x, rounding, flags, rbits);
  sink += coopvecConvert(dst, src, bits, rounding, flags, rbits);
  sink += coopvecDxilConvert(dst, src, (uint64_t(rbits) << 32) | bits);
  sink += uint64_t(coopvecDecode(src, bits) != 0.0);
  sink += oracle::floatBits(coopvecDecodeToF32(src, bits));
  sink += coopvecPackX2(dst, x, x, rounding, flags, rbits);
  sink += coopvecPackX4(dst, x, x, x, x, rounding, flags, rbits);
  float out[4];
  coopvecUnpackX2(dst, bits, &out[0], &out[1]);
  coopvecUnpackX4(dst, bits, out);
  int32_t ints[4];
  coopvecDxilUnpackS8x32(bits, ints);
  coopvecDxilUnpackU8x32(bits, ints);
  sink += coopvecMxQuantizeElement(dst, x, uint8_t(rbits));
  float block[4] = {x, oracle::bitsFloat(bits), oracle::bitsFloat(rbits), 0};
  sink += coopvecMxBlockScale(dst, block, 4);
  sink += coopvecNvfp4BlockScale(block, 4);
  sink += oracle::floatBits(
      coopvecWormholeMul(x, oracle::bitsFloat(bits), rounding));
  (void)sink;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  FuzzedDataProvider in(data, size);
  switch (in.ConsumeIntegralInRange<unsigned>(0, 8)) {
  case 0:
    checkConvertF32Buffer(in);
    break;
  case 1:
    checkConvertHalfBuffer(in);
    break;
  case 2:
    checkDecodeBuffer(in);
    break;
  case 3:
    checkMx(in);
    break;
  case 4:
    checkNvfp4(in);
    break;
  case 5:
    checkDxilConvert(in);
    break;
  case 6:
    checkPacked(in);
    break;
  default:
    checkArbitrary(in);
    break;
  }
  return 0;
}
