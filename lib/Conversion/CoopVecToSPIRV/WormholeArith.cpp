//===- WormholeArith.cpp - The Wormhole fidelity model in shader code
//------===//
//
// Each builder mirrors the function of lib/Runtime/Numerics/Wormhole.cpp
// named in its comment in WormholeArith.h.
//
//===----------------------------------------------------------------------===//

#include "WormholeArith.h"
#include "LinAlgCoop/Conversion/BitConversions.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"

using namespace mlir;
using namespace mlir::coopvec;

using P = arith::CmpIPredicate;

/// The f32 sign bit as an i32 constant's (signed) value.
constexpr int64_t kSign = INT32_MIN;

Value WormholeArith::c32(int64_t v) {
  return arith::ConstantIntOp::create(b, loc, i32(), v);
}
Value WormholeArith::c64(int64_t v) {
  return arith::ConstantIntOp::create(b, loc, i64(), v);
}
Value WormholeArith::cIndex(int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

Value WormholeArith::limb(Value i) {
  return memref::LoadOp::create(b, loc, sum, ValueRange{i});
}
void WormholeArith::setLimb(Value i, Value v) {
  memref::StoreOp::create(b, loc, v, sum, ValueRange{i});
}

WormholeArith::Datum WormholeArith::readDatum(Value bits) {
  BitConversions c{b, loc};
  Value e = c.band(c.shr(bits, c32(23)), 0xFF);
  Value zero = c.cmp(P::eq, e, c32(0));
  Value sig =
      c.select(zero, c32(0), c.bor(c.band(bits, 0x7FFFFF), c32(0x800000)));
  return Datum{c.cmp(P::ne, c.shr(bits, c32(31)), c32(0)),
               arith::ExtUIOp::create(b, loc, i64(), sig), c.sub(e, c32(150))};
}

Value WormholeArith::unpack(Value bits, bool bf16) {
  BitConversions c{b, loc};
  Value zero = c.cmp(P::eq, c.band(bits, 0x7F800000), c32(0));
  return c.select(
      zero, c.band(bits, kSign),
      c.band(bits, bf16 ? int32_t(0xFFFF0000) : int32_t(0xFFFFE000)));
}

Value WormholeArith::inputToSrc(Value element, bool bf16) {
  BitConversions c{b, loc};
  Value bits;
  if (element.getType().isF16()) {
    // f16 -> f32 is exact; on the bits, so that no driver flushes.
    Value half = arith::BitcastOp::create(b, loc, b.getI16Type(), element);
    bits = arith::BitcastOp::create(
        b, loc, i32(), c.f16ToF32(arith::ExtUIOp::create(b, loc, i32(), half)));
  } else {
    bits = arith::BitcastOp::create(b, loc, i32(), element);
  }
  if (bf16) // Nearest even, NaN the quiet NaN of its sign.
    return unpack(c.shl(c.toBF16Bits(arith::BitcastOp::create(
                            b, loc, b.getF32Type(), bits)),
                        c32(16)),
                  true);
  Value nan = c.cmp(P::ugt, c.band(bits, 0x7FFFFFFF), c32(0x7F800000));
  Value quiet = c.bor(c.band(bits, kSign), c32(0x7FC00000));
  return unpack(c.select(nan, quiet, bits), false);
}

Value WormholeArith::bfpToBits(Value datum, Value sharedExp, unsigned bits) {
  BitConversions c{b, loc};
  // The datum moved to the top of a byte: sign, then 7 magnitude bits.
  Value d = c.band(c.shl(datum, c32(8 - bits)), 0xFF);
  Value sign = c.shr(d, c32(7));
  Value mag = c.band(c.shl(d, c32(1)), 0xFF);
  Value isZero = c.cmp(P::eq, mag, c32(0));
  // Normalize: the leading one to bit 7 (FindUMsb of a nonzero byte).
  Value msb =
      spirv::GLFindUMsbOp::create(b, loc, c.select(isZero, c32(1), mag));
  Value lz = c.sub(c32(7), msb);
  mag = c.band(c.shl(mag, lz), 0xFF);
  // The exponent wraps as the hardware's u8 does.
  Value exp = c.band(c.sub(c.band(sharedExp, 0xFF), lz), 0xFF);
  Value bf16 =
      c.bor(c.bor(c.shl(sign, c32(15)), c.shl(exp, c32(7))), c.band(mag, 0x7E));
  Value zero =
      c.select(c.cmp(P::ne, sign, c32(0)), c32(int32_t(0xFF800000)), c32(0));
  return c.select(isZero, zero, c.shl(bf16, c32(16)));
}

void WormholeArith::clear() {
  // Straight-line code: lavapipe counts every loop iteration of an
  // invocation against its limit (docs/Vulkan.md).
  for (int64_t i = 0; i < kSumLimbs; ++i)
    setLimb(cIndex(i), c64(0));
}

void WormholeArith::add(Value neg, Value mag, Value exp) {
  // Bit (exp - kSumLsbExp) of the accumulator: limb `word`, bit `bit`.
  BitConversions c{b, loc};
  Value shift = c.sub(exp, c32(kSumLsbExp));
  Value word = arith::IndexCastUIOp::create(b, loc, b.getIndexType(),
                                            c.shr(shift, c32(5)));
  Value bit = arith::ExtUIOp::create(b, loc, i64(), c.band(shift, 31));
  Value v = arith::ShLIOp::create(b, loc, mag, bit);
  Value lo = arith::AndIOp::create(b, loc, v, c64(0xFFFFFFFF));
  Value hi = arith::ShRUIOp::create(b, loc, v, c64(32));
  auto addSigned = [&](Value at, Value part) {
    Value negated = arith::SubIOp::create(b, loc, c64(0), part);
    Value term = arith::SelectOp::create(b, loc, neg, negated, part);
    setLimb(at, arith::AddIOp::create(b, loc, limb(at), term));
  };
  addSigned(word, lo);
  addSigned(arith::AddIOp::create(b, loc, word, cIndex(1)), hi);
}

void WormholeArith::addDatum(Value bits) {
  Datum d = readDatum(bits);
  add(d.neg, d.sig, d.exp);
}

void WormholeArith::addProduct(Value a, Value bd, Value phase, Value live) {
  BitConversions c{b, loc};
  Datum da = readDatum(a), db = readDatum(bd);
  Value sigA = arith::TruncIOp::create(b, loc, i32(), da.sig);
  Value sigB = arith::TruncIOp::create(b, loc, i32(), db.sig);
  Value loA = c.cmp(P::ne, c.band(phase, 1), c32(0));
  Value loB = c.cmp(P::ne, c.band(phase, 2), c32(0));
  // SrcA: sig[23:19] at exp + 19, or sig[18:14] at exp + 14.
  Value am =
      c.select(loA, c.band(c.shr(sigA, c32(14)), 0x1F), c.shr(sigA, c32(19)));
  Value ae = c.add(da.exp, c.select(loA, c32(14), c32(19)));
  // SrcB: sig[23:17] at exp + 17, or sig[16:13] at exp + 13.
  Value bm =
      c.select(loB, c.band(c.shr(sigB, c32(13)), 0xF), c.shr(sigB, c32(17)));
  Value be = c.add(db.exp, c.select(loB, c32(13), c32(17)));
  Value mag = arith::ExtUIOp::create(b, loc, i64(),
                                     arith::MulIOp::create(b, loc, am, bm));
  if (live)
    mag = arith::SelectOp::create(b, loc, live, mag, c64(0));
  add(arith::XOrIOp::create(b, loc, da.neg, db.neg), mag, c.add(ae, be));
}

Value WormholeArith::round(bool bf16) {
  BitConversions c{b, loc};
  Value mask = c64(0xFFFFFFFF);
  // Straight-line code over the limbs, in SSA values (see clear()).
  // Carries: every limb to 32 bits, the final carry the sign (0 or -1).
  SmallVector<Value> limbs;
  Value carry = c64(0);
  for (int64_t i = 0; i < kSumLimbs; ++i) {
    Value v = arith::AddIOp::create(b, loc, limb(cIndex(i)), carry);
    limbs.push_back(arith::AndIOp::create(b, loc, v, mask));
    carry = arith::ShRSIOp::create(b, loc, v, c64(32));
  }
  Value neg = arith::CmpIOp::create(b, loc, P::slt, carry, c64(0));
  // The magnitude (two's-complement negation when negative) and the index
  // of its highest nonzero limb (-1 for zero).
  Value plusOne = c64(1), top = c32(-1);
  for (int64_t i = 0; i < kSumLimbs; ++i) {
    Value flipped = arith::AddIOp::create(
        b, loc, arith::XOrIOp::create(b, loc, limbs[i], mask), plusOne);
    limbs[i] = arith::SelectOp::create(
        b, loc, neg, arith::AndIOp::create(b, loc, flipped, mask), limbs[i]);
    plusOne = arith::ShRUIOp::create(b, loc, flipped, c64(32));
    top = c.select(arith::CmpIOp::create(b, loc, P::ne, limbs[i], c64(0)),
                   c32(i), top);
  }
  Value isZero = c.cmp(P::slt, top, c32(0));
  // The leading limb and the next one (0 below limb 0): 33 to 64
  // significant bits, x * 2^xExp. Ties away from zero need only the first
  // bit below the kept 24 (or 8), which they hold, so no sticky bit.
  Value hiLimb = c64(0), loLimb = c64(0);
  for (int64_t i = 0; i < kSumLimbs; ++i) {
    hiLimb = arith::SelectOp::create(b, loc, c.cmp(P::eq, top, c32(i)),
                                     limbs[i], hiLimb);
    loLimb = arith::SelectOp::create(b, loc, c.cmp(P::eq, top, c32(i + 1)),
                                     limbs[i], loLimb);
  }
  Value x = arith::OrIOp::create(
      b, loc, arith::ShLIOp::create(b, loc, hiLimb, c64(32)), loLimb);
  Value below = c.sub(top, c32(1));
  Value xExp =
      c.add(arith::MulIOp::create(b, loc, below, c32(32)), c32(kSumLsbExp));
  // Round to `precision` bits, to nearest, ties away from zero.
  int64_t precision = bf16 ? 8 : 24;
  Value msb =
      c.add(spirv::GLFindUMsbOp::create(
                b, loc,
                arith::TruncIOp::create(
                    b, loc, i32(),
                    arith::SelectOp::create(b, loc, isZero, c64(1), hiLimb))),
            c32(32));
  Value shift = c.sub(msb, c32(precision - 1));
  Value shift64 = arith::ExtUIOp::create(b, loc, i64(), shift);
  Value q = arith::ShRUIOp::create(b, loc, x, shift64);
  Value half = arith::AndIOp::create(
      b, loc,
      arith::ShRUIOp::create(b, loc, x,
                             arith::SubIOp::create(b, loc, shift64, c64(1))),
      c64(1));
  q = arith::AddIOp::create(b, loc, q, half);
  Value overflow = arith::ShRUIOp::create(b, loc, q, c64(precision));
  q = arith::ShRUIOp::create(b, loc, q, overflow);
  Value q32 = arith::TruncIOp::create(b, loc, i32(), q);
  // The unbiased exponent of the rounded value.
  Value e = c.add(c.add(c.add(shift, xExp), c32(precision - 1)),
                  arith::TruncIOp::create(b, loc, i32(), overflow));
  Value sign = c.select(neg, c32(kSign), c32(0));
  Value normal = c.bor(c.bor(sign, c.shl(c.add(e, c32(127)), c32(23))),
                       c.shl(c.band(q32, (int64_t(1) << (precision - 1)) - 1),
                             c32(24 - precision)));
  Value result = c.select(c.cmp(P::sgt, e, c32(127)),
                          c.bor(sign, c32(0x7F800000)), normal);
  Value flushed =
      arith::OrIOp::create(b, loc, isZero, c.cmp(P::slt, e, c32(-126)));
  return c.select(flushed, c32(0), result);
}
