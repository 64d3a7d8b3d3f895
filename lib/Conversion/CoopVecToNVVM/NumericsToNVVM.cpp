//===- NumericsToNVVM.cpp - coopvec numerics ops in GPU kernels to NVVM ---===//
//
// coopvec.convert and coopvec.pack inside a gpu.module become the PTX cvt
// instructions they model (seed 004), through MLIR 22's NVVM conversion ops:
//
//   f32 -> f16/bf16 rn/rz (relu, satfinite)   nvvm.convert.f32x2.to.{f16x2,bf16x2}
//   f32 -> f16/bf16 rs (sm_100a)              the same with random bits
//   f32 -> f16/bf16 rm/rp                     cvt.{rm,rp}.{f16,bf16}.f32 (inline
//                                             PTX: no NVVM op or intrinsic has
//                                             these modes, and llc cannot
//                                             select llvm.fptrunc.round)
//   f32 -> e4m3/e5m2 rn (sm_89)               nvvm.convert.f32x2.to.f8x2
//   f32 -> e2m3/e3m2/e2m1 rn (sm_100a/120a)   nvvm.convert.f32x2.to.{f6x2,f4x2}
//   f32 -> ue8m0 rz/rp (sm_100a/120a)         nvvm.convert.f32x2.to.f8x2
//   f32 -> fp8/fp6/fp4 rs (sm_100a)           nvvm.convert.f32x4.to.{f8x4,f6x4,f4x4}
//   e4m3/e5m2/fp6/fp4 -> f16                  nvvm.convert.{f8x2,f6x2,f4x2}.to.f16x2
//   ue8m0 -> bf16 (sm_100a/120a)              nvvm.convert.f8x2.to.bf16x2
//
// f16 and bf16 sources are widened to f32 first (exact); wider results of the
// small formats go through f16 (or bf16 for ue8m0), which hold them exactly.
// Elements are converted two at a time, as the x2 instructions do.
// coopvec.mx_quantize/mx_dequantize compute block scales with integer
// arithmetic and convert elements through the same instructions.
//
// The results are the CPU runtime's bit for bit
// (include/LinAlgCoop/Runtime/Numerics.h), which fixes two things PTX leaves
// to the hardware: a NaN becomes the canonical quiet NaN with the input's sign
// (PTX: "canonical NaN", 0x7FFF for f16), and relu gives +0 for -0. Both are
// one select or mask per element. docs/NVIDIA.md lists what was run where.
//
//===----------------------------------------------------------------------===//

#include "LinAlgCoop/Conversion/CoopVecToNVVM/CoopVecToNVVM.h"
#include "LinAlgCoop/Dialect/CoopVec/IR/CoopVecDialect.h"
#include "LinAlgCoop/Dialect/CoopVec/IR/CoopVecOps.h"
#include "LinAlgCoop/Runtime/Numerics.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::coopvec;

namespace {

bool isFp8(unsigned f) { return f == COOPVEC_FMT_E4M3 || f == COOPVEC_FMT_E5M2; }
bool isFp6(unsigned f) { return f == COOPVEC_FMT_E2M3 || f == COOPVEC_FMT_E3M2; }
bool isSmall(unsigned f) {
  return isFp8(f) || isFp6(f) || f == COOPVEC_FMT_E2M1 ||
         f == COOPVEC_FMT_UE8M0;
}

/// The SM number of `chip` (sm_90 -> 90, sm_100a -> 100).
int smNumber(StringRef chip) {
  int n = 0;
  chip.drop_front(3).take_while(llvm::isDigit).getAsInteger(10, n);
  return n;
}

/// Width in bits of a format's code.
unsigned codeBits(unsigned f) { return coopvecFormatBits(f); }

/// The code the CPU runtime gives a NaN of sign `negative` in `f`, or
/// nullopt where `f` has no NaN (FP6/FP4: +MAX_NORM, which PTX gives too).
std::optional<uint32_t> canonicalNaN(unsigned f, bool negative) {
  uint32_t sign = negative ? 1u << (codeBits(f) - 1) : 0;
  switch (f) {
  case COOPVEC_FMT_F32:
    return 0x7fc00000u | sign;
  case COOPVEC_FMT_F16:
    return 0x7e00u | sign;
  case COOPVEC_FMT_BF16:
    return 0x7fc0u | sign;
  case COOPVEC_FMT_E4M3:
    return 0x7fu | sign;
  case COOPVEC_FMT_E5M2:
    return 0x7eu | sign;
  case COOPVEC_FMT_UE8M0:
    return 0xffu;
  default:
    return std::nullopt;
  }
}

/// Emits the conversion of one coopvec.convert or coopvec.pack.
class CvtEmitter {
public:
  CvtEmitter(OpBuilder &b, Location loc, unsigned src, unsigned dst,
             RoundingMode rounding, bool satfinite, bool relu)
      : b(b), loc(loc), src(src), dst(dst), rounding(rounding),
        satfinite(satfinite), relu(relu) {}

  /// Codes (right-aligned in an i32) of `values` converted to `dst`.
  /// `values` are f32/f16/bf16 (narrowing) or codes of `src` in i32
  /// (widening: then the results are f32 bit patterns... see widen()).
  /// `rbits` holds one i32 per value (RS only).
  SmallVector<Value> narrow(ArrayRef<Value> values, ArrayRef<Value> rbits) {
    SmallVector<Value> wide;
    for (Value v : values)
      wide.push_back(v.getType().isF32()
                         ? v
                         : arith::ExtFOp::create(b, loc, b.getF32Type(), v));
    SmallVector<Value> codes;
    for (size_t i = 0; i < wide.size(); i += 2) {
      Value x0 = wide[i];
      bool pair = i + 1 < wide.size();
      Value x1 = pair ? wide[i + 1] : x0;
      SmallVector<Value, 2> out;
      if (rounding == RoundingMode::RS)
        out = stochasticPair(x0, x1, rbits[i], pair ? rbits[i + 1] : rbits[i]);
      else
        out = nearestPair(x0, x1, pair);
      codes.push_back(fixNarrow(out[0], x0, values[i]));
      if (pair)
        codes.push_back(fixNarrow(out[1], x1, values[i + 1]));
    }
    return codes;
  }

  /// `x` converted to `dst` by the x4 form with the caller's packed random
  /// bits (coopvec.pack x4): codes a, b, e, f.
  SmallVector<Value> narrowQuad(ArrayRef<Value> x, Value word) {
    SmallVector<Value> raw = quad(x, word);
    SmallVector<Value> codes;
    for (auto [code, value] : llvm::zip(raw, x))
      codes.push_back(fixNarrow(code, value, value));
    return codes;
  }

  /// `values` (i32 codes of `src`) widened: f16, bf16 or f32 bit patterns
  /// in i32.
  SmallVector<Value> widen(ArrayRef<Value> values) {
    SmallVector<Value> out;
    for (size_t i = 0; i < values.size(); i += 2) {
      bool pair = i + 1 < values.size();
      Value c0 = values[i], c1 = pair ? values[i + 1] : values[i];
      auto [h0, h1] = widenPair(c0, c1);
      out.push_back(fixWiden(finishWiden(h0), c0));
      if (pair)
        out.push_back(fixWiden(finishWiden(h1), c1));
    }
    return out;
  }

private:
  Type i8() { return b.getI8Type(); }
  Type i16() { return b.getI16Type(); }
  Type i32() { return b.getI32Type(); }
  Value int32(int64_t v) {
    return arith::ConstantIntOp::create(b, loc, i32(), v);
  }
  Value zext32(Value v) { return arith::ExtUIOp::create(b, loc, i32(), v); }
  Value shr(Value v, int64_t n) {
    return arith::ShRUIOp::create(b, loc, v, int32(n));
  }
  Value shl(Value v, int64_t n) {
    return arith::ShLIOp::create(b, loc, v, int32(n));
  }
  Value mask(Value v, uint32_t m) {
    return arith::AndIOp::create(b, loc, v, int32(int32_t(m)));
  }
  Value bitsOf(Value f) {
    return arith::BitcastOp::create(
        b, loc, b.getIntegerType(f.getType().getIntOrFloatBitWidth()), f);
  }
  Value bits32(Value f) {
    Value bits = bitsOf(f);
    return bits.getType().isInteger(32) ? bits : zext32(bits);
  }
  /// The two halves of a packed i16/i32 result `hi:lo` as i32 codes of
  /// `width` bits each: {hi, lo}.
  SmallVector<Value, 2> split(Value packed, unsigned half, unsigned width) {
    Value p = packed.getType().isInteger(32) ? packed : zext32(packed);
    uint32_t m = width >= 32 ? ~0u : (1u << width) - 1;
    return {mask(shr(p, half), m), mask(p, m)};
  }
  Type elementOf(unsigned f) {
    switch (f) {
    case COOPVEC_FMT_E4M3:
      return b.getType<Float8E4M3FNType>();
    case COOPVEC_FMT_E5M2:
      return b.getType<Float8E5M2Type>();
    case COOPVEC_FMT_E2M3:
      return b.getType<Float6E2M3FNType>();
    case COOPVEC_FMT_E3M2:
      return b.getType<Float6E3M2FNType>();
    case COOPVEC_FMT_E2M1:
      return b.getType<Float4E2M1FNType>();
    default:
      return b.getType<Float8E8M0FNUType>();
    }
  }
  NVVM::FPRoundingMode nvvmRounding() {
    switch (rounding) {
    case RoundingMode::RN:
      return NVVM::FPRoundingMode::RN;
    case RoundingMode::RZ:
      return NVVM::FPRoundingMode::RZ;
    case RoundingMode::RM:
      return NVVM::FPRoundingMode::RM;
    case RoundingMode::RP:
      return NVVM::FPRoundingMode::RP;
    case RoundingMode::RNA:
      return NVVM::FPRoundingMode::RNA;
    case RoundingMode::RS:
      return NVVM::FPRoundingMode::RS;
    }
    llvm_unreachable("rounding mode");
  }
  NVVM::SaturationMode nvvmSat() {
    return satfinite ? NVVM::SaturationMode::SATFINITE
                     : NVVM::SaturationMode::NONE;
  }

  /// {code(x0), code(x1)} for every rounding but RS.
  /// Single-element instructions (cvt.rm/rp) convert x1 only when `pair`.
  SmallVector<Value, 2> nearestPair(Value x0, Value x1, bool pair) {
    auto rnd = NVVM::FPRoundingModeAttr::get(b.getContext(), nvvmRounding());
    auto sat = NVVM::SaturationModeAttr::get(b.getContext(), nvvmSat());
    switch (dst) {
    case COOPVEC_FMT_F16:
    case COOPVEC_FMT_BF16: {
      if (rounding == RoundingMode::RM || rounding == RoundingMode::RP)
        return {directedHalf(x0), pair ? directedHalf(x1) : Value()};
      Value pair =
          dst == COOPVEC_FMT_F16
              ? NVVM::ConvertF32x2ToF16x2Op::create(
                    b, loc, VectorType::get({2}, b.getF16Type()), x0, x1,
                    Value(), rnd, sat, b.getBoolAttr(relu))
                    .getResult()
              : NVVM::ConvertF32x2ToBF16x2Op::create(
                    b, loc, VectorType::get({2}, b.getBF16Type()), x0, x1,
                    Value(), rnd, sat, b.getBoolAttr(relu))
                    .getResult();
      // x0 (the op's src_hi) is the upper half.
      return split(LLVM::BitcastOp::create(b, loc, i32(), pair), 16, 16);
    }
    case COOPVEC_FMT_E2M1: {
      Value packed = NVVM::ConvertF32x2ToF4x2Op::create(
          b, loc, i8(), x0, x1, b.getBoolAttr(relu),
          TypeAttr::get(elementOf(dst)));
      return split(packed, 4, 4);
    }
    case COOPVEC_FMT_E2M3:
    case COOPVEC_FMT_E3M2: {
      Value packed = NVVM::ConvertF32x2ToF6x2Op::create(
          b, loc, i16(), x0, x1, b.getBoolAttr(relu),
          TypeAttr::get(elementOf(dst)));
      return split(packed, 8, 6);
    }
    default: { // E4M3, E5M2, UE8M0
      Value packed = NVVM::ConvertF32x2ToF8x2Op::create(
          b, loc, i16(), x0, x1, rnd, sat, b.getBoolAttr(relu),
          TypeAttr::get(elementOf(dst)));
      return split(packed, 8, 8);
    }
    }
  }

  /// cvt.{rm,rp}.{f16,bf16}.f32: no NVVM op, intrinsic or LLVM instruction
  /// has these modes, so the one PTX instruction is written out. PTX does
  /// not combine them with .satfinite: an infinite result becomes MAX_NORM
  /// here instead (NaN stays).
  Value directedHalf(Value x) {
    std::string text =
        (Twine("cvt.") + (rounding == RoundingMode::RM ? "rm" : "rp") +
         (dst == COOPVEC_FMT_F16 ? ".f16" : ".bf16") + ".f32 $0, $1;")
            .str();
    auto asmOp = LLVM::InlineAsmOp::create(
        b, loc, i16(), ValueRange{x}, text, "=h,f",
        /*has_side_effects=*/false, /*is_align_stack=*/false,
        LLVM::TailCallKind::None, LLVM::AsmDialectAttr(), ArrayAttr());
    Value code = zext32(asmOp.getResult(0));
    if (!satfinite)
      return code;
    uint32_t inf = dst == COOPVEC_FMT_F16 ? 0x7c00 : 0x7f80;
    Value isInf = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                        mask(code, 0x7fff), int32(inf));
    return arith::SelectOp::create(
        b, loc, isInf,
        arith::OrIOp::create(b, loc, mask(code, 0x8000), int32(inf - 1)),
        code);
  }

  /// RS: per-element random bits placed where the packed forms read them
  /// (Numerics.h): x2 f16/bf16: x0 rbits[31:16], x1 rbits[15:0]; x4 with
  /// x0 as `a` and x1 as `e` (b = f = 0) for fp8/fp6: x0 [31:16], x1
  /// [15:0]; e2m1x4: x0 {[31:24], [15:8]}, x1 {[23:16], [7:0]}.
  SmallVector<Value, 2> stochasticPair(Value x0, Value x1, Value r0, Value r1) {
    if (dst == COOPVEC_FMT_F16 || dst == COOPVEC_FMT_BF16) {
      Value word =
          arith::OrIOp::create(b, loc, shl(r0, 16), mask(r1, 0xffff));
      auto rnd = NVVM::FPRoundingModeAttr::get(b.getContext(),
                                               NVVM::FPRoundingMode::RS);
      auto sat = NVVM::SaturationModeAttr::get(b.getContext(), nvvmSat());
      Value pair =
          dst == COOPVEC_FMT_F16
              ? NVVM::ConvertF32x2ToF16x2Op::create(
                    b, loc, VectorType::get({2}, b.getF16Type()), x0, x1,
                    word, rnd, sat, b.getBoolAttr(relu))
                    .getResult()
              : NVVM::ConvertF32x2ToBF16x2Op::create(
                    b, loc, VectorType::get({2}, b.getBF16Type()), x0, x1,
                    word, rnd, sat, b.getBoolAttr(relu))
                    .getResult();
      return split(LLVM::BitcastOp::create(b, loc, i32(), pair), 16, 16);
    }
    Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0.0f));
    Value word;
    if (dst == COOPVEC_FMT_E2M1)
      word = arith::OrIOp::create(
          b, loc,
          arith::OrIOp::create(b, loc, shl(mask(shr(r0, 8), 0xff), 24),
                               shl(mask(r0, 0xff), 8)),
          arith::OrIOp::create(b, loc, shl(mask(shr(r1, 8), 0xff), 16),
                               mask(r1, 0xff)));
    else
      word = arith::OrIOp::create(b, loc, shl(r0, 16), mask(r1, 0xffff));
    SmallVector<Value> codes = quad({x0, zero, x1, zero}, word);
    return {codes[0], codes[2]};
  }

  /// cvt.rs.satfinite{.relu}.<dst>x4.f32 of {a, b, e, f}: four codes.
  SmallVector<Value> quad(ArrayRef<Value> x, Value word) {
    Value v = vector::FromElementsOp::create(
        b, loc, VectorType::get({4}, b.getF32Type()), x);
    auto reluAttr = b.getBoolAttr(relu);
    auto ty = TypeAttr::get(elementOf(dst));
    Value packed;
    unsigned width;
    if (dst == COOPVEC_FMT_E2M1) {
      packed = NVVM::ConvertF32x4ToF4x4Op::create(b, loc, i16(), v, word,
                                                   reluAttr, ty);
      width = 4;
    } else {
      auto bytes = VectorType::get({4}, i8());
      Value vec =
          isFp8(dst)
              ? NVVM::ConvertF32x4ToF8x4Op::create(b, loc, bytes, v, word,
                                                   reluAttr, ty)
                    .getResult()
              : NVVM::ConvertF32x4ToF6x4Op::create(b, loc, bytes, v, word,
                                                   reluAttr, ty)
                    .getResult();
      packed = LLVM::BitcastOp::create(b, loc, i32(), vec);
      width = 8;
    }
    Value p = packed.getType().isInteger(32) ? packed : zext32(packed);
    uint32_t m = (1u << codeBits(dst)) - 1;
    // a is the most significant element.
    return {mask(shr(p, 3 * width), m), mask(shr(p, 2 * width), m),
            mask(shr(p, width), m), mask(p, m)};
  }

  /// The NaN and relu rules of Numerics.h on a narrowed code of input `x`
  /// (f32), widened from `source` (whose sign a NaN keeps: the GPU's f16 to
  /// f32 conversion gives its canonical NaN, without the sign).
  Value fixNarrow(Value code, Value x, Value source) {
    unsigned width = codeBits(dst);
    if (relu && dst != COOPVEC_FMT_UE8M0) // -0 -> +0; the NaN sign below
      code = mask(code, ~(1u << (width - 1)));
    std::optional<uint32_t> pos = canonicalNaN(dst, false);
    if (!pos)
      return code;
    Value isNaN = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, x, x);
    Value nan = int32(int32_t(*pos));
    if (!relu && dst != COOPVEC_FMT_UE8M0) {
      unsigned sourceBits = source.getType().getIntOrFloatBitWidth();
      Value sign = shr(bits32(source), sourceBits - 1);
      nan = arith::OrIOp::create(b, loc, nan, shl(sign, width - 1));
    }
    return arith::SelectOp::create(b, loc, isNaN, nan, code);
  }

  /// The exact f16 (bf16 for ue8m0) values of two codes.
  std::pair<Value, Value> widenPair(Value c0, Value c1) {
    if (src == COOPVEC_FMT_E2M1) {
      Value byte = arith::TruncIOp::create(
          b, loc, i8(), arith::OrIOp::create(b, loc, shl(c1, 4), c0));
      Value halves = NVVM::ConvertF4x2ToF16x2Op::create(
          b, loc, VectorType::get({2}, b.getF16Type()), byte,
          b.getBoolAttr(relu), TypeAttr::get(elementOf(src)));
      return {vector::ExtractOp::create(b, loc, halves, 0),
              vector::ExtractOp::create(b, loc, halves, 1)};
    }
    Value bytes = vector::FromElementsOp::create(
        b, loc, VectorType::get({2}, i8()),
        ValueRange{arith::TruncIOp::create(b, loc, i8(), c0),
                   arith::TruncIOp::create(b, loc, i8(), c1)});
    Value halves;
    auto ty = TypeAttr::get(elementOf(src));
    if (src == COOPVEC_FMT_UE8M0)
      halves = NVVM::ConvertF8x2ToBF16x2Op::create(
          b, loc, VectorType::get({2}, b.getBF16Type()), bytes, ty);
    else if (isFp6(src))
      halves = NVVM::ConvertF6x2ToF16x2Op::create(
          b, loc, VectorType::get({2}, b.getF16Type()), bytes,
          b.getBoolAttr(relu), ty);
    else
      halves = NVVM::ConvertF8x2ToF16x2Op::create(
          b, loc, VectorType::get({2}, b.getF16Type()), bytes,
          b.getBoolAttr(relu), ty);
    return {vector::ExtractOp::create(b, loc, halves, 0),
            vector::ExtractOp::create(b, loc, halves, 1)};
  }

  /// An exact f16/bf16 value as the destination's bits in an i32.
  Value finishWiden(Value half) {
    if (half.getType() == (dst == COOPVEC_FMT_F16 ? b.getF16Type()
                                                  : b.getBF16Type()) &&
        dst != COOPVEC_FMT_F32)
      return bits32(half);
    Value f = arith::ExtFOp::create(b, loc, b.getF32Type(), half);
    if (dst == COOPVEC_FMT_F32)
      return bitsOf(f);
    // f16 -> bf16 or bf16 -> f16 through f32: the value fits, no rounding.
    Type to = dst == COOPVEC_FMT_F16 ? Type(b.getF16Type())
                                     : Type(b.getBF16Type());
    return bits32(arith::TruncFOp::create(b, loc, to, f));
  }

  /// The NaN and relu rules on a widened result of source code `code`.
  Value fixWiden(Value bits, Value code) {
    unsigned width = codeBits(dst);
    if (relu)
      bits = mask(bits, ~(1u << (width - 1)));
    Value isNaN;
    auto eq = [&](Value v, uint32_t c) {
      return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, v,
                                   int32(c));
    };
    switch (src) {
    case COOPVEC_FMT_E4M3:
      isNaN = eq(mask(code, 0x7f), 0x7f);
      break;
    case COOPVEC_FMT_E5M2:
      isNaN = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt,
                                    mask(code, 0x7f), int32(0x7c));
      break;
    case COOPVEC_FMT_UE8M0:
      isNaN = eq(code, 0xff);
      break;
    default: // FP6/FP4: finite only
      return bits;
    }
    Value nan = int32(int32_t(*canonicalNaN(dst, false)));
    if (!relu && src != COOPVEC_FMT_UE8M0)
      nan = arith::OrIOp::create(
          b, loc, nan, shl(shr(mask(code, 0x80), 7), width - 1));
    return arith::SelectOp::create(b, loc, isNaN, nan, bits);
  }

  OpBuilder &b;
  Location loc;
  unsigned src, dst;
  RoundingMode rounding;
  bool satfinite, relu;
};

SmallVector<Value> elementsOf(OpBuilder &b, Location loc, Value v) {
  auto vec = dyn_cast<VectorType>(v.getType());
  if (!vec)
    return {v};
  SmallVector<Value> out;
  for (int64_t i = 0; i < vec.getNumElements(); ++i)
    out.push_back(vector::ExtractOp::create(b, loc, v, i));
  return out;
}

/// The elements of a small-format scalar or vector as i32 codes.
SmallVector<Value> codesOf(OpBuilder &b, Location loc, Value v) {
  SmallVector<Value> codes;
  for (Value x : elementsOf(b, loc, v))
    codes.push_back(b.createOrFold<arith::ExtUIOp>(
        loc, b.getI32Type(),
        arith::BitcastOp::create(
            b, loc, b.getIntegerType(x.getType().getIntOrFloatBitWidth()),
            x)));
  return codes;
}

/// Codes (i32) as a scalar or vector of `type`.
Value fromCodes(OpBuilder &b, Location loc, Type type, ArrayRef<Value> codes) {
  Type element = getElementTypeOrSelf(type);
  unsigned width = element.getIntOrFloatBitWidth();
  SmallVector<Value> values;
  for (Value code : codes) {
    Value bits = code;
    if (width < 32)
      bits = arith::TruncIOp::create(b, loc, b.getIntegerType(width), code);
    values.push_back(arith::BitcastOp::create(b, loc, element, bits));
  }
  if (auto vec = dyn_cast<VectorType>(type))
    return vector::FromElementsOp::create(b, loc, vec, values);
  return values.front();
}

struct ConvertToNVVM : OpRewritePattern<ConvertOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ConvertOp op,
                                PatternRewriter &rewriter) const override {
    if (!op->getParentOfType<gpu::GPUModuleOp>())
      return rewriter.notifyMatchFailure(op, "host code");
    Location loc = op.getLoc();
    Type resultType = op.getResult().getType();
    Type dstElement = getElementTypeOrSelf(resultType);
    unsigned src = *getNumericsFormat(getElementTypeOrSelf(op.getInput()));
    unsigned dst = *getNumericsFormat(dstElement);
    CvtEmitter emit(rewriter, loc, src, dst, op.getRounding(),
                    op.getSatfinite(), op.getRelu());
    SmallVector<Value> codes;
    if (isSmall(src)) {
      codes = emit.widen(codesOf(rewriter, loc, op.getInput()));
    } else {
      SmallVector<Value> rbits;
      if (op.getRbits())
        rbits = elementsOf(rewriter, loc, op.getRbits());
      codes = emit.narrow(elementsOf(rewriter, loc, op.getInput()), rbits);
    }
    rewriter.replaceOp(op, fromCodes(rewriter, loc, resultType, codes));
    return success();
  }
};

struct PackToNVVM : OpRewritePattern<PackOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(PackOp op,
                                PatternRewriter &rewriter) const override {
    if (!op->getParentOfType<gpu::GPUModuleOp>())
      return rewriter.notifyMatchFailure(op, "host code");
    Location loc = op.getLoc();
    unsigned dst = *getNumericsFormat(op.getFormat());
    CvtEmitter emit(rewriter, loc, COOPVEC_FMT_F32, dst, op.getRounding(),
                    op.getSatfinite(), op.getRelu());
    SmallVector<Value> inputs(op.getInputs());
    SmallVector<Value> codes;
    if (inputs.size() == 4) {
      codes = emit.narrowQuad(inputs, op.getRbits());
    } else {
      // narrow() takes one word per element and puts element 0's low half in
      // rbits[31:16], element 1's in rbits[15:0]: the x2 layout again.
      SmallVector<Value> rbits;
      if (Value r = op.getRbits())
        rbits = {arith::ShRUIOp::create(
                     rewriter, loc, r,
                     arith::ConstantIntOp::create(rewriter, loc,
                                                  rewriter.getI32Type(), 16)),
                 r};
      codes = emit.narrow(inputs, rbits);
    }
    // FP6 elements are padded to a byte; a is the most significant.
    unsigned slot = isFp6(dst) ? 8 : coopvecFormatBits(dst);
    Value packed = codes.front();
    for (Value code : ArrayRef(codes).drop_front())
      packed = arith::OrIOp::create(
          rewriter, loc,
          arith::ShLIOp::create(rewriter, loc, packed,
                                arith::ConstantIntOp::create(
                                    rewriter, loc, rewriter.getI32Type(),
                                    slot)),
          code);
    IntegerType type = op.getResult().getType();
    if (type.getWidth() < 32)
      packed = arith::TruncIOp::create(rewriter, loc, type, packed);
    rewriter.replaceOp(op, packed);
    return success();
  }
};

/// floor(log2(MAX_NORM)) of an MX element format (Numerics.h).
int mxEmax(unsigned elem) {
  switch (elem) {
  case COOPVEC_FMT_E4M3:
    return 8;
  case COOPVEC_FMT_E5M2:
    return 15;
  case COOPVEC_FMT_E3M2:
    return 4;
  default: // E2M3, E2M1
    return 2;
  }
}

/// Integer helpers for the block-scale code.
struct IntBuilder {
  OpBuilder &b;
  Location loc;
  Value c(int64_t v) {
    return arith::ConstantIntOp::create(b, loc, b.getI32Type(), v);
  }
  Value bits(Value f) {
    return arith::BitcastOp::create(b, loc, b.getI32Type(), f);
  }
  Value flt(Value i) {
    return arith::BitcastOp::create(b, loc, b.getF32Type(), i);
  }
  Value eq(Value x, int64_t v) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, x, c(v));
  }
  Value sel(Value cond, Value t, Value f) {
    return arith::SelectOp::create(b, loc, cond, t, f);
  }
  Value sel(Value cond, int64_t t, Value f) { return sel(cond, c(t), f); }
};

/// coopvec.mx_quantize in GPU code, one block at a time, exactly as the
/// runtime (Numerics.h, "OCP MX block quantization"):
///   MX:     amax by integer max of |bits|; the UE8M0 scale from its exponent
///           (ctlz for a subnormal amax), clamped; elements x * 2^-s (a
///           normal power of two: exact unless the product is an f32
///           subnormal, which rounds to +-0 in every element format either
///           way) through cvt.rn.satfinite;
///   NVFP4:  scale = cvt.rn.satfinite.e4m3 of amax / 6 and elements of
///           x / scale (div.rn: a quotient that is not dyadic is never an
///           e4m3 or e2m1 tie, so rounding it twice is rounding it once).
/// A block with an infinity or NaN gets the NaN scale and zero codes.
struct MXQuantizeToNVVM : OpRewritePattern<MXQuantizeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(MXQuantizeOp op,
                                PatternRewriter &rewriter) const override {
    if (!op->getParentOfType<gpu::GPUModuleOp>())
      return rewriter.notifyMatchFailure(op, "host code");
    Location loc = op.getLoc();
    IntBuilder ib{rewriter, loc};
    VectorType elemsType = op.getElements().getType();
    VectorType scalesType = op.getScales().getType();
    unsigned elem = *getNumericsFormat(elemsType.getElementType());
    bool nvfp4 = !isa<Float8E8M0FNUType>(scalesType.getElementType());
    SmallVector<Value> xs = elementsOf(rewriter, loc, op.getInput());
    int64_t block = op.getBlockSize();
    SmallVector<Value> codes, scales;
    for (int64_t start = 0; start < int64_t(xs.size()); start += block) {
      ArrayRef<Value> blockXs =
          ArrayRef(xs).slice(start, std::min<int64_t>(block, xs.size() - start));
      Value amax = ib.c(0);
      for (Value x : blockXs)
        amax = arith::MaxUIOp::create(
            rewriter, loc, amax,
            arith::AndIOp::create(rewriter, loc, ib.bits(x),
                                  ib.c(0x7fffffff)));
      Value nonFinite = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::uge, amax, ib.c(0x7f800000));
      SmallVector<Value> scaled;
      Value scale;
      if (!nvfp4) {
        // floor(log2(amax)): the exponent, or for a subnormal amax
        // (31 - ctlz) - 149.
        Value exp = arith::ShRUIOp::create(rewriter, loc, amax, ib.c(23));
        Value lz = LLVM::CountLeadingZerosOp::create(rewriter, loc, amax,
                                                     /*is_zero_poison=*/false);
        Value log2 = ib.sel(ib.eq(exp, 0),
                            arith::SubIOp::create(rewriter, loc, ib.c(-118), lz),
                            arith::SubIOp::create(rewriter, loc, exp, ib.c(127)));
        Value s = arith::SubIOp::create(rewriter, loc, log2, ib.c(mxEmax(elem)));
        s = arith::MinSIOp::create(
            rewriter, loc, arith::MaxSIOp::create(rewriter, loc, s, ib.c(-127)),
            ib.c(127));
        scale = ib.sel(nonFinite, 0xff,
                       ib.sel(ib.eq(amax, 0), 0,
                              arith::AddIOp::create(rewriter, loc, s,
                                                    ib.c(127))));
        // 2^-s: s <= 126 even for a non-finite amax, so the exponent field
        // 127 - s is in [1, 254].
        Value factor = ib.flt(arith::ShLIOp::create(
            rewriter, loc, arith::SubIOp::create(rewriter, loc, ib.c(127), s),
            ib.c(23)));
        for (Value x : blockXs)
          scaled.push_back(arith::MulFOp::create(rewriter, loc, x, factor));
      } else {
        Value six = arith::ConstantOp::create(rewriter, loc,
                                              rewriter.getF32FloatAttr(6.0f));
        Value q = arith::DivFOp::create(rewriter, loc, ib.flt(amax), six);
        CvtEmitter toE4M3(rewriter, loc, COOPVEC_FMT_F32, COOPVEC_FMT_E4M3,
                          RoundingMode::RN, /*satfinite=*/true, false);
        scale = ib.sel(nonFinite, 0x7f, toE4M3.narrow({q}, {}).front());
        CvtEmitter fromE4M3(rewriter, loc, COOPVEC_FMT_E4M3, COOPVEC_FMT_F32,
                            RoundingMode::RN, false, false);
        Value d = ib.flt(fromE4M3.widen({scale}).front());
        Value zeroScale = ib.eq(scale, 0);
        for (Value x : blockXs) {
          // A scale of 0: +-0 with the sign kept.
          Value signedZero = ib.flt(arith::AndIOp::create(
              rewriter, loc, ib.bits(x), ib.c(int32_t(0x80000000u))));
          scaled.push_back(arith::SelectOp::create(
              rewriter, loc, zeroScale, signedZero,
              arith::DivFOp::create(rewriter, loc, x, d)));
        }
      }
      CvtEmitter toElem(rewriter, loc, COOPVEC_FMT_F32, elem, RoundingMode::RN,
                        /*satfinite=*/true, false);
      for (Value code : toElem.narrow(scaled, {}))
        codes.push_back(ib.sel(nonFinite, 0, code));
      scales.push_back(scale);
    }
    rewriter.replaceOp(op, {fromCodes(rewriter, loc, elemsType, codes),
                            fromCodes(rewriter, loc, scalesType, scales)});
    return success();
  }
};

/// coopvec.mx_dequantize in GPU code: each element decoded by cvt (exact,
/// to f32) times its block's scale (MX: the power of two 2^(s-127) as an
/// f32, 2^-127 a subnormal; NVFP4: the decoded UE4M3): one rounding, as the
/// runtime's. A NaN scale gives the canonical NaN, a NaN element its own.
struct MXDequantizeToNVVM : OpRewritePattern<MXDequantizeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(MXDequantizeOp op,
                                PatternRewriter &rewriter) const override {
    if (!op->getParentOfType<gpu::GPUModuleOp>())
      return rewriter.notifyMatchFailure(op, "host code");
    Location loc = op.getLoc();
    IntBuilder ib{rewriter, loc};
    VectorType elemsType = op.getElements().getType();
    VectorType scalesType = op.getScales().getType();
    unsigned elem = *getNumericsFormat(elemsType.getElementType());
    bool nvfp4 = !isa<Float8E8M0FNUType>(scalesType.getElementType());
    SmallVector<Value> codes = codesOf(rewriter, loc, op.getElements());
    SmallVector<Value> scaleCodes = codesOf(rewriter, loc, op.getScales());
    CvtEmitter decode(rewriter, loc, elem, COOPVEC_FMT_F32, RoundingMode::RN,
                      false, false);
    SmallVector<Value> decoded = decode.widen(codes);
    SmallVector<Value> factors, nanScale;
    for (Value s : scaleCodes) {
      if (nvfp4) {
        CvtEmitter fromE4M3(rewriter, loc, COOPVEC_FMT_E4M3, COOPVEC_FMT_F32,
                            RoundingMode::RN, false, false);
        factors.push_back(ib.flt(fromE4M3.widen({s}).front()));
        nanScale.push_back(ib.eq(s, 0x7f));
      } else {
        factors.push_back(ib.flt(ib.sel(
            ib.eq(s, 0), 0x00400000,
            arith::ShLIOp::create(rewriter, loc, s, ib.c(23)))));
        nanScale.push_back(ib.eq(s, 0xff));
      }
    }
    int64_t block = op.getBlockSize();
    SmallVector<Value> results;
    for (auto [i, bits] : llvm::enumerate(decoded)) {
      Value v = ib.flt(bits);
      Value product = ib.bits(
          arith::MulFOp::create(rewriter, loc, v, factors[i / block]));
      Value isNaN =
          arith::CmpFOp::create(rewriter, loc, arith::CmpFPredicate::UNO, v, v);
      Value r = ib.sel(isNaN, bits, product);
      r = ib.sel(nanScale[i / block], 0x7fc00000, r);
      results.push_back(ib.flt(r));
    }
    rewriter.replaceOp(op, vector::FromElementsOp::create(
                               rewriter, loc, op.getResult().getType(),
                               results));
    return success();
  }
};

} // namespace

LogicalResult mlir::coopvec::checkNumericsForNVVM(Operation *op,
                                                  StringRef chip) {
  auto unsupported = [&](const Twine &what) {
    return op->emitOpError("is not supported by convert-coopvec-to-nvvm on ")
           << chip << ": " << what;
  };
  unsigned src, dst;
  RoundingMode rounding = RoundingMode::RN;
  if (isa<MXQuantizeOp, MXDequantizeOp>(op)) {
    // Block scaling is integer arithmetic here; the elements need their cvt.
    Type elems = isa<MXQuantizeOp>(op)
                     ? Type(cast<MXQuantizeOp>(op).getElements().getType())
                     : Type(cast<MXDequantizeOp>(op).getElements().getType());
    src = COOPVEC_FMT_F32;
    dst = *getNumericsFormat(getElementTypeOrSelf(elems));
  } else if (auto convert = dyn_cast<ConvertOp>(op)) {
    src = *getNumericsFormat(getElementTypeOrSelf(convert.getInput()));
    dst = *getNumericsFormat(getElementTypeOrSelf(convert.getResult()));
    rounding = convert.getRounding();
  } else {
    auto pack = cast<PackOp>(op);
    src = COOPVEC_FMT_F32;
    dst = *getNumericsFormat(pack.getFormat());
    rounding = pack.getRounding();
  }
  int sm = smNumber(chip);
  bool blackwell = chip == "sm_100a" || chip == "sm_120a";
  for (unsigned f : {src, dst}) {
    if (isFp8(f) && sm < 89)
      return unsupported(Twine("PTX converts ") + coopvecFormatName(f) +
                         " from sm_89"),
             failure();
    if ((isFp6(f) || f == COOPVEC_FMT_E2M1 || f == COOPVEC_FMT_UE8M0) &&
        !blackwell)
      return unsupported(Twine("PTX converts ") + coopvecFormatName(f) +
                         " on sm_100a and sm_120a only"),
             failure();
  }
  if (rounding == RoundingMode::RS && chip != "sm_100a")
    return unsupported("cvt.rs (stochastic rounding) is sm_100a only"),
           failure();
  // nvvm.convert.float.to.tf32 gives the f32 pattern, but the builtin tf32
  // is a 19-bit type no LLVM type converter maps, so a tf32 value could not
  // leave the op.
  if (dst == COOPVEC_FMT_TF32)
    return unsupported("tf32 results (the builtin tf32 has no LLVM type in "
                       "GPU code)"),
           failure();
  return success();
}

void mlir::coopvec::populateCoopVecNumericsToNVVMPatterns(
    RewritePatternSet &patterns) {
  patterns.add<ConvertToNVVM, PackToNVVM, MXQuantizeToNVVM,
               MXDequantizeToNVVM>(patterns.getContext());
}
