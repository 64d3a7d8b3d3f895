//===- BitConversions.cpp - Float conversions on the bits in arith --------===//

#include "LinAlgCoop/Conversion/BitConversions.h"

#include <cmath>

using namespace mlir;
using namespace mlir::coopvec;

Value BitConversions::dxilToF16(Value x) {
  Value bits = arith::BitcastOp::create(b, loc, i32, x);
  Value sign = band(shr(bits, int32(16)), int32(0x8000));
  Value a = band(bits, int32(0x7fffffff));
  Value exponent = shr(a, int32(23));
  Value fraction = band(a, int32(0x7fffff));
  // Normal results: drop 13 fraction bits.
  Value normalBase =
      bor(shl(arith::SubIOp::create(b, loc, exponent, int32(112)), int32(10)),
          shr(fraction, int32(13)));
  Value normalRest = band(a, int32(0x1fff));
  // Subnormal results (and zero): the significand shifted to units of
  // 2^-24, by 14 to 25 places.
  Value shift = arith::MinSIOp::create(
      b, loc,
      arith::MaxSIOp::create(
          b, loc, arith::SubIOp::create(b, loc, int32(126), exponent),
          int32(14)),
      int32(25));
  Value significand = bor(fraction, int32(0x800000));
  Value subBase = shr(significand, shift);
  Value subRest =
      band(significand,
           arith::SubIOp::create(b, loc, shl(int32(1), shift), int32(1)));
  Value subHalf = shl(int32(1), arith::SubIOp::create(b, loc, shift, int32(1)));
  Value normal = cmp(P::uge, a, int32(0x38800000));
  Value base = select(normal, normalBase, subBase);
  Value rest = select(normal, normalRest, subRest);
  Value half = select(normal, int32(0x1000), subHalf);
  Value tie = arith::AndIOp::create(b, loc, cmp(P::eq, rest, half),
                                    cmp(P::ne, band(base, int32(1)), int32(0)));
  Value up = arith::OrIOp::create(b, loc, cmp(P::ugt, rest, half), tie);
  Value rounded = arith::AddIOp::create(
      b, loc, base, arith::ExtUIOp::create(b, loc, i32, up));
  // Finite values from 65520 up round beyond 65504: saturate.
  Value magnitude =
      select(cmp(P::uge, a, int32(0x477ff000)), int32(0x7bff), rounded);
  magnitude =
      select(cmp(P::eq, a, int32(0x7f800000)), int32(0x7c00), magnitude);
  Value nan = bor(int32(0x7e00), band(shr(a, int32(13)), int32(0x1ff)));
  magnitude = select(cmp(P::ugt, a, int32(0x7f800000)), nan, magnitude);
  Value half16 =
      arith::TruncIOp::create(b, loc, b.getI16Type(), bor(sign, magnitude));
  return arith::BitcastOp::create(b, loc, b.getF16Type(), half16);
}

Value BitConversions::dxilToF8(Value x, bool e5m2) {
  const int64_t man = e5m2 ? 2 : 3, bias = e5m2 ? 15 : 7;
  const int64_t drop = 23 - man, emin = 1 - bias;
  const int64_t maxCode = e5m2 ? 0x7b : 0x7e, nanCode = e5m2 ? 0x7e : 0x7f;
  Value bits = arith::BitcastOp::create(b, loc, i32, x);
  Value sign = band(shr(bits, int32(24)), int32(0x80));
  Value a = band(bits, int32(0x7fffffff));
  // Normal results: round the f32 pattern to `man` fraction bits, then
  // rebias the exponent.
  Value lsb = band(shr(a, int32(drop)), int32(1));
  Value normal = sub(
      shr(add(add(a, int32((int64_t(1) << (drop - 1)) - 1)), lsb), int32(drop)),
      int32((127 - bias) << man));
  // Subnormal results: |x| in units of 2^(emin - man), rounded.
  Value exponent = shr(a, int32(23));
  Value isF32Normal = cmp(P::ne, exponent, int32(0));
  Value significand = select(
      isF32Normal,
      arith::OrIOp::create(b, loc, band(a, int32(0x7fffff)), int32(0x800000)),
      band(a, int32(0x7fffff)));
  Value e = select(isF32Normal, exponent, int32(1));
  Value shift = arith::MinSIOp::create(b, loc, sub(int32(150 + emin - man), e),
                                       int32(25));
  Value base = shr(significand, shift);
  Value rest = band(significand, sub(shl(int32(1), shift), int32(1)));
  Value half = shl(int32(1), sub(shift, int32(1)));
  Value up = arith::OrIOp::create(
      b, loc, cmp(P::ugt, rest, half),
      arith::AndIOp::create(b, loc, cmp(P::eq, rest, half),
                            cmp(P::ne, band(base, int32(1)), int32(0))));
  Value subnormal = add(base, arith::ExtUIOp::create(b, loc, i32, up));
  Value magnitude =
      select(cmp(P::uge, a, int32((127 + emin) << 23)), normal, subnormal);
  // Beyond the range: +-MAX_NORM (E4M3's rounding can reach its NaN code).
  magnitude =
      select(cmp(P::ugt, magnitude, int32(maxCode)), int32(maxCode), magnitude);
  Value inf = int32(e5m2 ? 0x7c : maxCode);
  magnitude = select(cmp(P::eq, a, int32(0x7f800000)), inf, magnitude);
  magnitude =
      select(cmp(P::ugt, a, int32(0x7f800000)), int32(nanCode), magnitude);
  return arith::OrIOp::create(b, loc, sign, magnitude);
}

Value BitConversions::f8ToF32(Value code, bool e5m2) {
  return smallFloatToF32(code, e5m2 ? kE5M2 : kE4M3);
}

Value BitConversions::smallFloatToF32(Value code, const SmallFloat &format) {
  using Specials = SmallFloat::Specials;
  const int64_t man = format.manBits, bias = format.bias;
  const int64_t width = format.expBits + man;
  const int64_t ones = (int64_t(1) << width) - 1;
  Value sign = format.isSigned
                   ? shl(band(code, int64_t(1) << width), int32(31 - width))
                   : int32(0);
  Value magnitude = band(code, ones);
  Value exponent = shr(magnitude, int32(man));
  Value fraction = band(magnitude, (int64_t(1) << man) - 1);
  Value normal = bor(shl(add(exponent, int32(127 - bias)), int32(23)),
                     shl(fraction, int32(23 - man)));
  // Subnormal: fraction * 2^(1 - bias - man), exact in f32.
  Value scaled = arith::MulFOp::create(
      b, loc, arith::UIToFPOp::create(b, loc, b.getF32Type(), fraction),
      arith::ConstantFloatOp::create(
          b, loc, b.getF32Type(),
          APFloat(std::ldexp(1.0f, int(1 - bias - man)))));
  Value bits = select(cmp(P::eq, exponent, int32(0)),
                      arith::BitcastOp::create(b, loc, i32, scaled), normal);
  if (format.specials == Specials::Ieee)
    bits =
        select(cmp(P::eq, exponent, int32((int64_t(1) << format.expBits) - 1)),
               select(cmp(P::eq, fraction, int32(0)), int32(0x7f800000),
                      int32(0x7fc00000)),
               bits);
  else if (format.specials == Specials::NanOnly)
    bits = select(cmp(P::eq, magnitude, int32(ones)), int32(0x7fc00000), bits);
  return arith::BitcastOp::create(b, loc, b.getF32Type(), bor(sign, bits));
}

Value BitConversions::ue8m0ToF32(Value code) {
  Value exponent = band(code, 0xff);
  Value bits = select(cmp(P::eq, exponent, int32(0)), int32(0x00400000),
                      shl(exponent, int32(23)));
  bits = select(cmp(P::eq, exponent, int32(0xff)), int32(0x7fc00000), bits);
  return arith::BitcastOp::create(b, loc, b.getF32Type(), bits);
}

Value BitConversions::f16ToF32(Value bits) {
  Value sign = shl(band(bits, 0x8000), int32(16));
  Value exponent = band(shr(bits, int32(10)), 0x1f);
  Value fraction = band(bits, 0x3ff);
  // Normal: the exponent rebiased (15 -> 127); inf and NaN: all ones.
  Value normal =
      bor(shl(add(exponent, int32(112)), int32(23)), shl(fraction, int32(13)));
  Value special = bor(int32(0x7f800000), shl(fraction, int32(13)));
  // Zero and subnormal: fraction * 2^-24, exact in f32.
  Value scaled = arith::MulFOp::create(
      b, loc, arith::UIToFPOp::create(b, loc, b.getF32Type(), fraction),
      arith::ConstantFloatOp::create(b, loc, b.getF32Type(),
                                     APFloat(std::ldexp(1.0f, -24))));
  Value magnitude =
      select(cmp(P::eq, exponent, int32(0)),
             arith::BitcastOp::create(b, loc, i32, scaled),
             select(cmp(P::eq, exponent, int32(31)), special, normal));
  return arith::BitcastOp::create(b, loc, b.getF32Type(), bor(sign, magnitude));
}

Value BitConversions::bf16ToF32(Value bits) {
  return arith::BitcastOp::create(b, loc, b.getF32Type(),
                                  shl(band(bits, 0xffff), int32(16)));
}

Value BitConversions::toF16(Value x) {
  // The DXIL rule, less its saturation and NaN payload.
  Value dxil = arith::ExtUIOp::create(
      b, loc, i32,
      arith::BitcastOp::create(b, loc, b.getI16Type(), dxilToF16(x)));
  Value bits = arith::BitcastOp::create(b, loc, i32, x);
  Value sign = band(shr(bits, int32(16)), int32(0x8000));
  Value a = band(bits, int32(0x7fffffff));
  Value result =
      select(cmp(P::uge, a, int32(0x477ff000)), bor(sign, int32(0x7c00)), dxil);
  result = select(cmp(P::ugt, a, int32(0x7f800000)), bor(sign, int32(0x7e00)),
                  result);
  return arith::BitcastOp::create(
      b, loc, b.getF16Type(),
      arith::TruncIOp::create(b, loc, b.getI16Type(), result));
}

Value BitConversions::toBF16Bits(Value x) {
  Value bits = arith::BitcastOp::create(b, loc, i32, x);
  Value lsb = band(shr(bits, int32(16)), int32(1));
  Value rounded = shr(add(add(bits, int32(0x7fff)), lsb), int32(16));
  Value nan = bor(band(shr(bits, int32(16)), int32(0x8000)), int32(0x7fc0));
  return select(cmp(P::ugt, band(bits, int32(0x7fffffff)), int32(0x7f800000)),
                nan, rounded);
}

Value BitConversions::toBF16(Value x) {
  return arith::BitcastOp::create(
      b, loc, b.getBF16Type(),
      arith::TruncIOp::create(b, loc, b.getI16Type(), toBF16Bits(x)));
}

Value BitConversions::dxilToBF16Bits(Value x) {
  Value bits = arith::BitcastOp::create(b, loc, i32, x);
  Value sign = band(shr(bits, int32(16)), int32(0x8000));
  Value rounded = toBF16Bits(x);
  // A finite value that rounds to infinity saturates.
  Value overflow = arith::AndIOp::create(
      b, loc, cmp(P::ult, band(bits, int32(0x7fffffff)), int32(0x7f800000)),
      cmp(P::eq, band(rounded, int32(0x7fff)), int32(0x7f80)));
  return select(overflow, bor(sign, int32(0x7f7f)), rounded);
}
