//===- Numerics.cpp - Scalar reference conversions of CoopVecNumerics -----===//
//
// The exact rounding core: every conversion first unpacks its input to
// sign * integer * 2^exp (exact), then rounds once to the destination. No
// floating-point arithmetic is involved, so the host's rounding mode, FTZ/DAZ
// state or x87 precision cannot change a result.
//
//===----------------------------------------------------------------------===//

#include "NumericsInternal.h"

#include <cmath>
#include <limits>

using namespace coopvec::numerics;

namespace {

// Indexed by CoopVecFormat for the float formats F32 ... UE4M3.
constexpr FloatFormat kFloatFormats[] = {
    /*F32*/ {8, 23, 127, Specials::Ieee, true, 0, 0},
    /*F16*/ {5, 10, 15, Specials::Ieee, true, 0, 13},
    /*BF16*/ {8, 7, 127, Specials::Ieee, true, 0, 16},
    /*TF32*/ {8, 10, 127, Specials::Ieee, true, 13, 13},
    /*E4M3*/ {4, 3, 7, Specials::NanOnly, true, 0, 16},
    /*E5M2*/ {5, 2, 15, Specials::Ieee, true, 0, 16},
    /*E2M3*/ {2, 3, 1, Specials::FiniteOnly, true, 0, 16},
    /*E3M2*/ {3, 2, 3, Specials::FiniteOnly, true, 0, 16},
    /*E2M1*/ {2, 1, 1, Specials::FiniteOnly, true, 0, 16},
    /*UE8M0*/ {8, 0, 127, Specials::ScaleE8M0, false, 0, 16},
    /*UE4M3*/ {4, 3, 7, Specials::NanOnly, false, 0, 16},
};

uint32_t signBit(const FloatFormat &fmt) {
  return uint32_t(1) << (fmt.expBits + fmt.manBits);
}

uint32_t allOnesExp(const FloatFormat &fmt) {
  return (uint32_t(1) << fmt.expBits) - 1;
}

/// The result of an overflowing magnitude (after rounding in unbounded
/// range), following the header's overflow rules.
uint32_t overflowEncoding(const FloatFormat &fmt, bool neg, unsigned rounding,
                          unsigned flags) {
  uint32_t sign = neg ? signBit(fmt) : 0;
  bool toMax;
  if (fmt.specials == Specials::FiniteOnly || (flags & COOPVEC_CVT_SATFINITE)) {
    toMax = true;
  } else {
    switch (rounding) {
    case COOPVEC_RND_RZ:
      toMax = true;
      break;
    case COOPVEC_RND_RP:
      toMax = neg;
      break;
    case COOPVEC_RND_RM:
      toMax = !neg;
      break;
    default:
      toMax = false;
      break;
    }
  }
  uint32_t enc;
  if (toMax) {
    enc = sign | maxFiniteEncoding(fmt);
  } else {
    switch (fmt.specials) {
    case Specials::Ieee:
      enc = sign | (allOnesExp(fmt) << fmt.manBits);
      break;
    case Specials::NanOnly:
      enc = sign | (signBit(fmt) - 1);
      break;
    default: // ScaleE8M0 (FiniteOnly always saturates).
      enc = 0xFF;
      break;
    }
  }
  return enc << fmt.containerShift;
}

/// Rounding decision for a magnitude K * 2^shift + rem, where rem < 2^shift.
/// `shift` > 0. Returns true when the kept integer K must be incremented.
bool roundsUp(uint64_t mag, int shift, uint64_t kept, bool neg,
              unsigned rounding, unsigned stochasticBits, uint32_t rbits) {
  using U128 = unsigned __int128;
  // Beyond 127 dropped bits the 64-bit magnitude is entirely below half an
  // ulp and below any random threshold: behave as a tiny nonzero remainder.
  U128 rem, half;
  int effShift = shift;
  if (shift > 127) {
    rem = mag;
    effShift = 127;
  } else {
    rem = U128(mag) & ((U128(1) << shift) - 1);
  }
  half = U128(1) << (effShift - 1);
  bool inexact = rem != 0;
  switch (rounding) {
  case COOPVEC_RND_RN:
    return rem > half || (rem == half && (kept & 1));
  case COOPVEC_RND_RNA:
    return rem >= half;
  case COOPVEC_RND_RZ:
    return false;
  case COOPVEC_RND_RP:
    return inexact && !neg;
  case COOPVEC_RND_RM:
    return inexact && neg;
  case COOPVEC_RND_RS: {
    unsigned w = stochasticBits;
    if (w == 0)
      return false;
    // The w most significant dropped bits; lower dropped bits are truncated.
    U128 top = effShift >= int(w) ? rem >> (effShift - int(w))
                                  : rem << (int(w) - effShift);
    uint64_t random = rbits & ((uint64_t(1) << w) - 1);
    return uint64_t(top) + random >= (uint64_t(1) << w);
  }
  default:
    return false;
  }
}

bool isIntegerFormat(unsigned format) {
  return format >= COOPVEC_FMT_I8 && format <= COOPVEC_FMT_U32;
}

/// Range of an integer format.
void integerRange(unsigned format, int64_t &lo, int64_t &hi) {
  switch (format) {
  case COOPVEC_FMT_I8:
    lo = INT8_MIN, hi = INT8_MAX;
    return;
  case COOPVEC_FMT_U8:
    lo = 0, hi = UINT8_MAX;
    return;
  case COOPVEC_FMT_I16:
    lo = INT16_MIN, hi = INT16_MAX;
    return;
  case COOPVEC_FMT_U16:
    lo = 0, hi = UINT16_MAX;
    return;
  case COOPVEC_FMT_I32:
    lo = INT32_MIN, hi = INT32_MAX;
    return;
  default:
    lo = 0, hi = UINT32_MAX;
    return;
  }
}

/// Sign- or zero-extends integer bits of `format`.
int64_t integerValue(unsigned format, uint64_t bits) {
  switch (format) {
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

uint64_t integerBits(unsigned format, int64_t v) {
  unsigned width = coopvecFormatBits(format);
  return uint64_t(v) & ((uint64_t(1) << width) - 1);
}

/// Classifies and unpacks a float-format bit pattern: 0 finite, 1 inf, 2 NaN.
int unpackFormat(const FloatFormat &fmt, uint32_t bits, Unpacked &v) {
  bits >>= fmt.containerShift;
  unsigned width = fmt.expBits + fmt.manBits;
  v.neg = fmt.isSigned && ((bits >> width) & 1);
  uint32_t e = (bits >> fmt.manBits) & allOnesExp(fmt);
  uint32_t m = bits & ((uint32_t(1) << fmt.manBits) - 1);
  switch (fmt.specials) {
  case Specials::Ieee:
    if (e == allOnesExp(fmt))
      return m ? 2 : 1;
    break;
  case Specials::NanOnly:
    if (e == allOnesExp(fmt) && m == (uint32_t(1) << fmt.manBits) - 1)
      return 2;
    break;
  case Specials::ScaleE8M0:
    if (e == 0xFF)
      return 2;
    v.mag = 1;
    v.exp = int(e) - 127;
    return 0;
  case Specials::FiniteOnly:
    break;
  }
  int emin = 1 - fmt.bias;
  if (e == 0) {
    v.mag = m;
    v.exp = emin - fmt.manBits;
  } else {
    v.mag = m | (uint32_t(1) << fmt.manBits);
    v.exp = int(e) - fmt.bias - fmt.manBits;
  }
  return 0;
}

/// Round-to-nearest-even of a finite double to an integer, then clamped.
int64_t roundToIntegerSaturating(double d, int64_t lo, int64_t hi) {
  if (d <= double(lo))
    return lo;
  if (d >= double(hi))
    return hi;
  // |d| < 2^32 here: floor and the difference are exact in double.
  double fl = std::floor(d);
  double diff = d - fl;
  int64_t r = int64_t(fl);
  if (diff > 0.5 || (diff == 0.5 && (r & 1)))
    ++r;
  return r < lo ? lo : (r > hi ? hi : r);
}

} // namespace

namespace coopvec {
namespace numerics {

const FloatFormat *getFloatFormat(unsigned format) {
  if (format > COOPVEC_FMT_UE4M3)
    return nullptr;
  return &kFloatFormats[format];
}

uint32_t maxFiniteEncoding(const FloatFormat &fmt) {
  uint32_t manMask = (uint32_t(1) << fmt.manBits) - 1;
  switch (fmt.specials) {
  case Specials::Ieee:
    return ((allOnesExp(fmt) - 1) << fmt.manBits) | manMask;
  case Specials::NanOnly:
    return (allOnesExp(fmt) << fmt.manBits) | (manMask - 1);
  case Specials::FiniteOnly:
    return (allOnesExp(fmt) << fmt.manBits) | manMask;
  case Specials::ScaleE8M0:
    return 0xFE;
  }
  return 0;
}

uint32_t encodeNaN(const FloatFormat &fmt, bool neg, unsigned flags) {
  if ((flags & COOPVEC_CVT_RELU) || !fmt.isSigned)
    neg = false;
  uint32_t sign = neg ? signBit(fmt) : 0;
  uint32_t enc = 0;
  switch (fmt.specials) {
  case Specials::Ieee:
    enc = sign | (allOnesExp(fmt) << fmt.manBits) |
          (uint32_t(1) << (fmt.manBits - 1));
    break;
  case Specials::NanOnly:
    enc = sign | (signBit(fmt) - 1);
    break;
  case Specials::FiniteOnly:
    enc = maxFiniteEncoding(fmt);
    break;
  case Specials::ScaleE8M0:
    enc = 0xFF;
    break;
  }
  return enc << fmt.containerShift;
}

uint32_t encodeInf(const FloatFormat &fmt, bool neg, unsigned flags) {
  if ((flags & COOPVEC_CVT_RELU) && neg)
    return roundToFormat(fmt, Unpacked{false, 0, 0}, COOPVEC_RND_RN, flags, 0);
  if (!fmt.isSigned)
    neg = false;
  // An infinite input overflows in every rounding mode toward it.
  return overflowEncoding(fmt, neg, COOPVEC_RND_RN, flags);
}

uint32_t roundToFormat(const FloatFormat &fmt, Unpacked v, unsigned rounding,
                       unsigned flags, uint32_t rbits) {
  bool neg = v.neg;
  if ((flags & COOPVEC_CVT_RELU) && neg) {
    v.mag = 0;
    neg = false;
  }
  if (!fmt.isSigned)
    neg = false;
  uint32_t sign = neg ? signBit(fmt) : 0;
  if (v.mag == 0) {
    if (fmt.specials == Specials::ScaleE8M0)
      return 0; // No zero: the smallest scale, 2^-127.
    return sign << fmt.containerShift;
  }

  const int p = fmt.manBits;
  int msb = 63 - __builtin_clzll(v.mag);
  int e = msb + v.exp; // floor(log2 |v|)
  int emin = 1 - fmt.bias;
  bool hasSubnormals = fmt.specials != Specials::ScaleE8M0;
  int te = (!hasSubnormals || e >= emin) ? e : emin;
  int q = te - p; // weight of the result's last place
  int shift = q - v.exp;

  uint64_t kept;
  if (shift <= 0) {
    kept = v.mag << -shift; // exact; kept < 2^(p+1)
  } else {
    kept = shift >= 64 ? 0 : v.mag >> shift;
    if (roundsUp(v.mag, shift, kept, neg, rounding, fmt.stochasticBits, rbits))
      ++kept;
  }
  if (kept >> (p + 1)) { // carried into the next binade
    kept >>= 1;
    ++q;
  }

  if (!hasSubnormals) {
    // UE8M0: kept == 1, the value is 2^q.
    int biased = q + 127;
    if (biased < 0)
      return 0; // clamps to the smallest scale
    if (biased > 254)
      return overflowEncoding(fmt, neg, rounding, flags);
    return uint32_t(biased);
  }

  int64_t enc;
  if (kept >= (uint64_t(1) << p))
    enc = (int64_t(q + p + fmt.bias) << p) | int64_t(kept - (uint64_t(1) << p));
  else
    enc = int64_t(kept); // subnormal or zero
  if (enc > int64_t(maxFiniteEncoding(fmt)))
    return overflowEncoding(fmt, neg, rounding, flags);
  return (sign | uint32_t(enc)) << fmt.containerShift;
}

uint32_t convertF32Scalar(unsigned dst, uint32_t x, unsigned rounding,
                          unsigned flags, uint32_t rbits) {
  const FloatFormat *fmt = getFloatFormat(dst);
  if (!fmt)
    return uint32_t(coopvecDxilConvert(dst, COOPVEC_FMT_F32, x));
  Unpacked v;
  switch (unpackF32(x, v)) {
  case 1:
    return encodeInf(*fmt, v.neg, flags);
  case 2:
    return encodeNaN(*fmt, v.neg, flags);
  default:
    return roundToFormat(*fmt, v, rounding, flags, rbits);
  }
}

unsigned storageBytes(unsigned format) {
  switch (format) {
  case COOPVEC_FMT_F32:
  case COOPVEC_FMT_TF32:
  case COOPVEC_FMT_I32:
  case COOPVEC_FMT_U32:
    return 4;
  case COOPVEC_FMT_F16:
  case COOPVEC_FMT_BF16:
  case COOPVEC_FMT_I16:
  case COOPVEC_FMT_U16:
    return 2;
  case COOPVEC_FMT_E2M1:
    return 0;
  default:
    return 1;
  }
}

} // namespace numerics
} // namespace coopvec

//===----------------------------------------------------------------------===//
// C ABI
//===----------------------------------------------------------------------===//

extern "C" {

unsigned coopvecFormatBits(unsigned format) {
  switch (format) {
  case COOPVEC_FMT_F32:
  case COOPVEC_FMT_TF32:
  case COOPVEC_FMT_I32:
  case COOPVEC_FMT_U32:
    return 32;
  case COOPVEC_FMT_F16:
  case COOPVEC_FMT_BF16:
  case COOPVEC_FMT_I16:
  case COOPVEC_FMT_U16:
    return 16;
  case COOPVEC_FMT_E2M3:
  case COOPVEC_FMT_E3M2:
    return 6;
  case COOPVEC_FMT_E2M1:
    return 4;
  case COOPVEC_FMT_E4M3:
  case COOPVEC_FMT_E5M2:
  case COOPVEC_FMT_UE8M0:
  case COOPVEC_FMT_UE4M3:
  case COOPVEC_FMT_I8:
  case COOPVEC_FMT_U8:
    return 8;
  default:
    return 0;
  }
}

const char *coopvecFormatName(unsigned format) {
  switch (format) {
  case COOPVEC_FMT_F32:
    return "f32";
  case COOPVEC_FMT_F16:
    return "f16";
  case COOPVEC_FMT_BF16:
    return "bf16";
  case COOPVEC_FMT_TF32:
    return "tf32";
  case COOPVEC_FMT_E4M3:
    return "e4m3";
  case COOPVEC_FMT_E5M2:
    return "e5m2";
  case COOPVEC_FMT_E2M3:
    return "e2m3";
  case COOPVEC_FMT_E3M2:
    return "e3m2";
  case COOPVEC_FMT_E2M1:
    return "e2m1";
  case COOPVEC_FMT_UE8M0:
    return "ue8m0";
  case COOPVEC_FMT_UE4M3:
    return "ue4m3";
  case COOPVEC_FMT_I8:
    return "i8";
  case COOPVEC_FMT_U8:
    return "u8";
  case COOPVEC_FMT_I16:
    return "i16";
  case COOPVEC_FMT_U16:
    return "u16";
  case COOPVEC_FMT_I32:
    return "i32";
  case COOPVEC_FMT_U32:
    return "u32";
  default:
    return "?";
  }
}

int coopvecFormatIsFloat(unsigned format) {
  return getFloatFormat(format) != nullptr;
}

uint32_t coopvecFormatMaxFinite(unsigned format) {
  if (const FloatFormat *fmt = getFloatFormat(format))
    return maxFiniteEncoding(*fmt) << fmt->containerShift;
  if (isIntegerFormat(format)) {
    int64_t lo, hi;
    integerRange(format, lo, hi);
    return uint32_t(hi);
  }
  return 0;
}

unsigned coopvecStochasticBits(unsigned format) {
  const FloatFormat *fmt = getFloatFormat(format);
  return fmt ? fmt->stochasticBits : 0;
}

uint32_t coopvecConvertF32(unsigned dst, float x, unsigned rounding,
                           unsigned flags, uint32_t rbits) {
  return convertF32Scalar(dst, floatBits(x), rounding, flags, rbits);
}

uint32_t coopvecConvert(unsigned dst, unsigned src, uint32_t srcBits,
                        unsigned rounding, unsigned flags, uint32_t rbits) {
  const FloatFormat *from = getFloatFormat(src);
  const FloatFormat *to = getFloatFormat(dst);
  if (!from || !to)
    return uint32_t(coopvecDxilConvert(dst, src, srcBits));
  Unpacked v;
  switch (unpackFormat(*from, srcBits, v)) {
  case 1:
    return encodeInf(*to, v.neg, flags);
  case 2:
    return encodeNaN(*to, v.neg, flags);
  default:
    return roundToFormat(*to, v, rounding, flags, rbits);
  }
}

double coopvecDecode(unsigned format, uint32_t bits) {
  const FloatFormat *fmt = getFloatFormat(format);
  if (!fmt) {
    if (isIntegerFormat(format))
      return double(integerValue(format, bits));
    return std::numeric_limits<double>::quiet_NaN();
  }
  Unpacked v;
  switch (unpackFormat(*fmt, bits, v)) {
  case 1:
    return v.neg ? -std::numeric_limits<double>::infinity()
                 : std::numeric_limits<double>::infinity();
  case 2:
    return v.neg ? -std::numeric_limits<double>::quiet_NaN()
                 : std::numeric_limits<double>::quiet_NaN();
  default: {
    double d = std::ldexp(double(v.mag), v.exp);
    return v.neg ? -d : d;
  }
  }
}

float coopvecDecodeToF32(unsigned format, uint32_t bits) {
  // The two 16-bit formats directly (scales and biases are decoded one at
  // a time in hot loops): the same values, NaN canonical as below.
  if (format == COOPVEC_FMT_BF16) {
    bits &= 0xFFFF;
    if ((bits & 0x7FFF) > 0x7F80)
      return bitsFloat(bits & 0x8000 ? 0xFFC00000u : 0x7FC00000u);
    return bitsFloat(bits << 16);
  }
  if (format == COOPVEC_FMT_F16) {
    uint32_t sign = (bits & 0x8000) << 16, exp = (bits >> 10) & 0x1F,
             man = bits & 0x3FF;
    if (exp == 0x1F)
      return bitsFloat(man ? sign | 0x7FC00000u : sign | 0x7F800000u);
    if (exp == 0) // Zero or subnormal: man * 2^-24, exact.
      return std::copysign(float(man) * 0x1p-24f, sign ? -1.0f : 1.0f);
    return bitsFloat(sign | (exp + 112) << 23 | man << 13);
  }
  double d = coopvecDecode(format, bits);
  if (std::isnan(d))
    return bitsFloat(std::signbit(d) ? 0xFFC00000u : 0x7FC00000u);
  return float(d); // exact for every format of 32 bits or fewer
}

//===----------------------------------------------------------------------===//
// Packed forms
//===----------------------------------------------------------------------===//

/// Field width of one element inside a packed word; 0 if not packable.
static unsigned packedFieldBits(unsigned format) {
  switch (format) {
  case COOPVEC_FMT_F16:
  case COOPVEC_FMT_BF16:
    return 16;
  case COOPVEC_FMT_E4M3:
  case COOPVEC_FMT_E5M2:
  case COOPVEC_FMT_E2M3:
  case COOPVEC_FMT_E3M2:
  case COOPVEC_FMT_UE8M0:
  case COOPVEC_FMT_UE4M3:
    return 8;
  case COOPVEC_FMT_E2M1:
    return 4;
  default:
    return 0;
  }
}

uint32_t coopvecPackX2(unsigned format, float a, float b, unsigned rounding,
                       unsigned flags, uint32_t rbits) {
  unsigned w = packedFieldBits(format);
  if (!w)
    return 0;
  // PTX f16x2/bf16x2 .rs: upper 16 random bits for a, lower for b (the
  // conversion masks them to the format's width).
  uint32_t hi = coopvecConvertF32(format, a, rounding, flags, rbits >> 16);
  uint32_t lo = coopvecConvertF32(format, b, rounding, flags, rbits & 0xFFFF);
  return (hi << w) | lo;
}

uint32_t coopvecPackX4(unsigned format, float a, float b, float e, float f,
                       unsigned rounding, unsigned flags, uint32_t rbits) {
  unsigned w = packedFieldBits(format);
  if (w != 8 && w != 4)
    return 0;
  uint32_t randAB, randEF;
  if (format == COOPVEC_FMT_E2M1) {
    randAB = (((rbits >> 24) & 0xFF) << 8) | ((rbits >> 8) & 0xFF);
    randEF = (((rbits >> 16) & 0xFF) << 8) | (rbits & 0xFF);
  } else {
    randAB = rbits >> 16;
    randEF = rbits & 0xFFFF;
  }
  uint32_t r = coopvecConvertF32(format, a, rounding, flags, randAB);
  r = (r << w) | coopvecConvertF32(format, b, rounding, flags, randAB);
  r = (r << w) | coopvecConvertF32(format, e, rounding, flags, randEF);
  r = (r << w) | coopvecConvertF32(format, f, rounding, flags, randEF);
  return r;
}

void coopvecUnpackX2(unsigned format, uint32_t packed, float *hi, float *lo) {
  unsigned w = packedFieldBits(format);
  uint32_t mask = w ? (uint32_t(1) << w) - 1 : 0;
  *hi = coopvecDecodeToF32(format, (packed >> w) & mask);
  *lo = coopvecDecodeToF32(format, packed & mask);
}

void coopvecUnpackX4(unsigned format, uint32_t packed, float out[4]) {
  unsigned w = packedFieldBits(format);
  if (w != 8 && w != 4)
    w = 0; // no x4 form (F16, BF16): every element is code 0, as in x2
  uint32_t mask = w ? (uint32_t(1) << w) - 1 : 0;
  for (unsigned i = 0; i < 4; ++i)
    out[i] = coopvecDecodeToF32(format, (packed >> (w * (3 - i))) & mask);
}

//===----------------------------------------------------------------------===//
// DXIL interpretation conversions
//===----------------------------------------------------------------------===//

uint64_t coopvecDxilConvert(unsigned dst, unsigned src, uint64_t bits) {
  const FloatFormat *to = getFloatFormat(dst);
  if (isIntegerFormat(src)) {
    int64_t v = integerValue(src, bits);
    if (isIntegerFormat(dst)) {
      int64_t lo, hi;
      integerRange(dst, lo, hi);
      return integerBits(dst, v < lo ? lo : (v > hi ? hi : v));
    }
    if (!to)
      return 0;
    Unpacked u{v < 0, uint64_t(v < 0 ? -v : v), 0};
    return roundToFormat(*to, u, COOPVEC_RND_RN, COOPVEC_CVT_SATFINITE, 0);
  }
  const FloatFormat *from = getFloatFormat(src);
  if (!from)
    return 0;
  if (isIntegerFormat(dst)) {
    double d = coopvecDecode(src, uint32_t(bits));
    if (std::isnan(d))
      return 0;
    int64_t lo, hi;
    integerRange(dst, lo, hi);
    return integerBits(dst, roundToIntegerSaturating(d, lo, hi));
  }
  if (!to)
    return 0;
  Unpacked v;
  switch (unpackFormat(*from, uint32_t(bits), v)) {
  case 1:
    return encodeInf(*to, v.neg,
                     to->specials == Specials::Ieee ? 0 : COOPVEC_CVT_SATFINITE);
  case 2:
    return encodeNaN(*to, v.neg, 0);
  default:
    return roundToFormat(*to, v, COOPVEC_RND_RN, COOPVEC_CVT_SATFINITE, 0);
  }
}

void coopvecDxilUnpackS8x32(uint32_t packed, int32_t out[4]) {
  for (unsigned i = 0; i < 4; ++i)
    out[i] = int8_t(packed >> (8 * i));
}

void coopvecDxilUnpackU8x32(uint32_t packed, int32_t out[4]) {
  for (unsigned i = 0; i < 4; ++i)
    out[i] = uint8_t(packed >> (8 * i));
}

} // extern "C"
