//===- WormholeArith.h - The Wormhole fidelity model in shader code -*- C++
//-*-//
//
// The Tenstorrent Wormhole math-fidelity model of the CPU runtime
// (lib/Runtime/Numerics/Wormhole.cpp, docs/WormholeFidelity.md) built in
// integer arith/scf/memref code for a per-invocation coopvec.matvec on
// Vulkan: the same operand reading, mantissa slices, exact sums and
// roundings, so a shader's results equal the CPU's bit for bit.
//
// The runtime sums exactly in a 640-bit two's-complement accumulator. Here
// the accumulator is a Function-storage array of kSumLimbs i64 values, each
// a 32-bit limb that takes signed additions without carrying (17 terms of
// at most 2^32 per limb stay far inside i64); rounding first propagates the
// carries, takes the sign from the final carry and the magnitude's two
// leading limbs, then rounds to nearest, ties away.
//
//===----------------------------------------------------------------------===//

#ifndef LINALGCOOP_CONVERSION_COOPVECTOSPIRV_WORMHOLEARITH_H
#define LINALGCOOP_CONVERSION_COOPVECTOSPIRV_WORMHOLEARITH_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

namespace mlir::coopvec {

/// Builders for the Wormhole model's integer steps, on f32 bit patterns in
/// i32 values.
struct WormholeArith {
  /// Limbs of the exact accumulator and the weight of bit 0 of limb 0: the
  /// smallest term is a lo x lo slice product of two minimum normals
  /// (2^-271), the largest below 2^263, so 640 bits hold every sum of 17
  /// terms with room for the sign.
  static constexpr int64_t kSumLimbs = 20;
  static constexpr int64_t kSumLsbExp = -300;

  OpBuilder &b;
  Location loc;
  /// The accumulator: memref<kSumLimbs x i64> in Function storage.
  Value sum;

  /// A datum the Tensix datapath reads: zero (exponent 0, denormals
  /// flushed) or (-1)^neg * sig * 2^exp, exponent 255 an ordinary binade.
  struct Datum {
    Value neg; ///< i1
    Value sig; ///< i64: 24 bits with the implicit one; 0 for zero
    Value exp; ///< i32
  };
  Datum readDatum(Value bits);

  /// The unpacker's Src datum: exponent 0 keeps only the sign, BF16 keeps
  /// the top 16 bits, TF32 the top 19.
  Value unpack(Value bits, bool bf16);

  /// An f32 or f16 input element read as BF16 or F32 (coopvecConvert, round
  /// to nearest even; a NaN the canonical quiet NaN of its sign), then
  /// unpacked: the SrcB bits.
  Value inputToSrc(Value element, bool bf16);

  /// The BF16 value (as f32 bits) of a block-float datum of `bits` bits
  /// (the low bits of an i32, the bits above ignored) with its block's
  /// shared exponent (the low byte of an i32): coopvecWormholeBfpToFloat.
  Value bfpToBits(Value datum, Value sharedExp, unsigned bits);

  /// Sets the accumulator to zero.
  void clear();
  /// Adds (-1)^neg * mag * 2^exp (mag an i64 below 2^40).
  void add(Value neg, Value mag, Value exp);
  void addDatum(Value bits);
  /// Adds the phase-`phase` (i32) product of the SrcA datum `a` and the
  /// SrcB datum `bd` (f32 bits): SrcA's 1 + 4 significand bits or its next
  /// 5 (phases 1, 3) times SrcB's 1 + 6 or its next 4 (phases 2, 3);
  /// nothing where `live` (an i1, if given) is false.
  void addProduct(Value a, Value bd, Value phase, Value live = {});
  /// The sum rounded to F32 (`bf16` false) or BF16, to nearest with ties
  /// away at the format's precision and an unbounded exponent; +0 below
  /// 2^-126 and for zero, the all-ones exponent with a zero mantissa from
  /// 2^128 up (writeDatum). Returns f32 bits.
  Value round(bool bf16);

private:
  Type i32() { return b.getI32Type(); }
  Type i64() { return b.getI64Type(); }
  Value c32(int64_t v);
  Value c64(int64_t v);
  Value cIndex(int64_t v);
  Value limb(Value i);
  void setLimb(Value i, Value v);
};

} // namespace mlir::coopvec

#endif // LINALGCOOP_CONVERSION_COOPVECTOSPIRV_WORMHOLEARITH_H
