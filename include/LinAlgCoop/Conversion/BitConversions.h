//===- BitConversions.h - Float conversions on f32 bits ---------*- C++ -*-===//
//
// The float conversions a lowering builds in integer arithmetic on an f32's
// bits, where the target has no instruction with the rounding coopvec needs
// (SPIR-V leaves OpFConvert's rounding to the driver; the RISC-V path has no
// f16 arithmetic without Zfh): shared by convert-coopvec-to-spirv and the
// SiFive XSfvqmacc lowering.
//
//===----------------------------------------------------------------------===//

#ifndef LINALGCOOP_CONVERSION_BITCONVERSIONS_H
#define LINALGCOOP_CONVERSION_BITCONVERSIONS_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"

namespace mlir::coopvec {

/// Float conversions built in integer arithmetic on i32 values (the bits of
/// an f32), with builders for the integer ops they use.
struct BitConversions {
  OpBuilder &b;
  Location loc;
  using P = arith::CmpIPredicate;

  Type i32 = b.getI32Type();
  Value int32(int64_t v) {
    return arith::ConstantIntOp::create(b, loc, i32, v);
  }
  Value shr(Value v, Value n) { return arith::ShRUIOp::create(b, loc, v, n); }
  Value shl(Value v, Value n) { return arith::ShLIOp::create(b, loc, v, n); }
  Value band(Value v, Value m) { return arith::AndIOp::create(b, loc, v, m); }
  Value band(Value v, int64_t m) { return band(v, int32(m)); }
  Value bor(Value v, Value m) { return arith::OrIOp::create(b, loc, v, m); }
  Value add(Value l, Value r) { return arith::AddIOp::create(b, loc, l, r); }
  Value sub(Value l, Value r) { return arith::SubIOp::create(b, loc, l, r); }
  Value cmp(P p, Value l, Value r) {
    return arith::CmpIOp::create(b, loc, p, l, r);
  }
  Value select(Value c, Value t, Value f) {
    return arith::SelectOp::create(b, loc, c, t, f);
  }

  /// f32 -> f16 by the DXIL rule: round to nearest even, a finite value
  /// beyond the range saturates to +-65504, infinities stay, NaN stays NaN
  /// (quiet, the payload's top bits kept, as APFloat does). In integer
  /// arithmetic on the bits: SPIR-V's OpFConvert rounding is the driver's
  /// choice (Vulkan allows the FPRoundingMode decoration only on a value
  /// that is stored), and RISC-V without Zfh has no f16 arithmetic.
  Value dxilToF16(Value x);

  /// f32 -> E4M3 or E5M2 code (in an i32) by the DXIL rule
  /// (coopvecDxilConvert): round to nearest even, finite values beyond the
  /// range saturate to +-MAX_NORM, infinities saturate for E4M3 (which has
  /// none) and stay for E5M2, NaN gives the sign and the NaN code. On the
  /// bits, like dxilToF16.
  Value dxilToF8(Value x, bool e5m2);

  /// The exact f32 value of an E4M3 or E5M2 code (the low byte of an i32).
  Value f8ToF32(Value code, bool e5m2);

  /// A float format of at most 8 bits: the element types of block-scaled
  /// matrices and the UE4M3 scale (coopvecDecode's FloatFormat).
  struct SmallFloat {
    enum class Specials { Ieee, NanOnly, FiniteOnly };
    int64_t expBits, manBits, bias;
    bool isSigned;
    Specials specials;
  };
  static constexpr SmallFloat kE4M3{4, 3, 7, true,
                                    SmallFloat::Specials::NanOnly};
  static constexpr SmallFloat kE5M2{5, 2, 15, true, SmallFloat::Specials::Ieee};
  static constexpr SmallFloat kE2M3{2, 3, 1, true,
                                    SmallFloat::Specials::FiniteOnly};
  static constexpr SmallFloat kE3M2{3, 2, 3, true,
                                    SmallFloat::Specials::FiniteOnly};
  static constexpr SmallFloat kE2M1{2, 1, 1, true,
                                    SmallFloat::Specials::FiniteOnly};
  static constexpr SmallFloat kUE4M3{4, 3, 7, false,
                                     SmallFloat::Specials::NanOnly};

  /// The exact f32 value of a `format` code in the low bits of an i32 (bits
  /// above the format's width are ignored, as coopvecDecode ignores them):
  /// Ieee formats have inf and NaN at the all-ones exponent, NanOnly ones
  /// NaN at all ones (E4M3's 0x7f), FiniteOnly ones neither. A NaN is the
  /// quiet NaN of its sign.
  Value smallFloatToF32(Value code, const SmallFloat &format);

  /// The exact f32 value of a UE8M0 scale (the low byte of an i32): 2^(e -
  /// 127), so 2^-127 (an f32 subnormal) for 0, and NaN for 0xff.
  Value ue8m0ToF32(Value code);

  /// The exact f32 value of f16 bits (the low 16 bits of an i32); a NaN
  /// keeps its sign and payload.
  Value f16ToF32(Value bits);

  /// The f32 value of bf16 bits (the low 16 bits of an i32).
  Value bf16ToF32(Value bits);

  /// f32 -> f16 by the rule of the CPU runtime's coopvecConvertF32: round to
  /// nearest even, inf beyond the range (no saturation), NaN the quiet NaN
  /// of its sign (0x7e00).
  Value toF16(Value x);

  /// f32 -> bf16, round to nearest even, NaN the quiet NaN of its sign
  /// (0x7fc0), as coopvecConvertF32.
  Value toBF16(Value x);
  /// The same as bf16 bits (the low 16 bits of an i32).
  Value toBF16Bits(Value x);

  /// f32 -> bf16 bits (the low 16 bits of an i32) by the DXIL rule
  /// (coopvecDxilConvert): round to nearest even, a finite value beyond the
  /// range saturates to +-0x7f7f, infinities stay, NaN the quiet NaN of its
  /// sign (0x7fc0).
  Value dxilToBF16Bits(Value x);
};

} // namespace mlir::coopvec

#endif // LINALGCOOP_CONVERSION_BITCONVERSIONS_H
