//===- QuantizedInKernel.cpp - The quantized batch_matvec in kernels -----===//

#include "LinAlgCoop/Conversion/QuantizedInKernel.h"
#include "LinAlgCoop/Conversion/BitConversions.h"
#include "LinAlgCoop/Conversion/OptimalLayout.h"
#include "LinAlgCoop/Dialect/CoopVec/Transforms/BatchesInKernels.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <climits>

using namespace mlir;
using namespace mlir::coopvec;

bool mlir::coopvec::isByteBuffer(Value buffer) {
  auto type = dyn_cast<MemRefType>(buffer.getType());
  return type && type.getRank() == 1 && type.getLayout().isIdentity() &&
         type.getElementType().isInteger(8);
}

namespace {

/// One clause of the quantized form: its values (a byte buffer at `offset`
/// on the weight side, a B x K/G memref on the input side), interpretation
/// and grouping (0: per tensor); `values` null when absent.
struct QuantClause {
  Value values, offset;
  InterpretationAttr interp;
  int64_t group = 0;

  explicit operator bool() const { return static_cast<bool>(values); }
  InterpKind kind() const { return interp.getKind(); }
  /// Bytes of one stored value.
  unsigned bytes() const { return interp.getStorageBits() / 8; }
};

QuantClause quantClause(Value values, Value offset, InterpretationAttr interp,
                        IntegerAttr group) {
  QuantClause q;
  if (!values)
    return q;
  q.values = values;
  q.offset = offset;
  q.interp = interp;
  q.group = group ? group.getInt() : 0;
  return q;
}

QuantClause quantClause(const BatchMatVecOp::InputSideClause &clause) {
  return quantClause(clause.values, Value(), clause.interp, clause.group);
}

/// The quantized form of a coopvec.batch_matvec inside a kernel, in the
/// reference's order (lib/Runtime/Reference/Quantized.cpp).
class QuantizedEmitter : KernelBuilder {
public:
  QuantizedEmitter(OpBuilder &b, BatchMatVecOp op, Value rows,
                   ExactFloatOp mulF, ExactFloatOp addF)
      : KernelBuilder{b, op.getLoc()}, op(op), rows(rows), mulF(mulF),
        addF(addF), desc(op.getMatrixDesc()), m(desc.getRows()),
        k(desc.getCols()) {
    zw = quantClause(op.getWeightZeroPoints(), op.getWeightZeroPointsOffset(),
                     op.getWeightZeroPointsInterpAttr(),
                     op.getWeightZeroPointsGroupAttr());
    sw = quantClause(op.getWeightScales(), op.getWeightScalesOffset(),
                     op.getWeightScalesInterpAttr(),
                     op.getWeightScalesGroupAttr());
    auto [inputZeroPoints, inputScales, reductions] = op.getInputSideClauses();
    zx = quantClause(inputZeroPoints);
    sx = quantClause(inputScales);
    red = quantClause(reductions);
    int64_t gx = sx && sx.group ? sx.group : k;
    int64_t gw = sw && sw.group ? sw.group : k;
    compute = std::min(gx, gw);
  }

  /// Per batch row and output: per compute group the exact i64 sum of
  /// (x - zx)(w - zw) (with reductions, sum (x - zx) w - zw (R - sum zx)
  /// per reduction group), then f32(acc) * sx * sw added in group order
  /// (mulF, addF: one rounding each), the bias, one rounding; an i32 output is
  /// the exact total plus the I32 bias, saturated.
  void emit() {
    Type outElem = cast<MemRefType>(op.getOutputs().getType()).getElementType();
    bool intOut = outElem.isInteger(32);
    auto batchLoop = scf::ForOp::create(b, loc, index(0), rows, index(1));
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(batchLoop.getBody());
    Value row = batchLoop.getInductionVar();
    auto outLoop = scf::ForOp::create(b, loc, index(0), index(m), index(1));
    b.setInsertionPointToStart(outLoop.getBody());
    Value n = outLoop.getInductionVar();
    Value start = intOut ? int64(0) : float32(0.0f);
    auto groups = scf::ForOp::create(b, loc, index(0), index(k / compute),
                                     index(1), ValueRange{start});
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(groups.getBody());
      Value k0 = arith::MulIOp::create(b, loc, groups.getInductionVar(),
                                       index(compute));
      Value acc = groupSum(row, n, k0);
      Value carried = groups.getRegionIterArgs()[0];
      Value next;
      if (intOut) {
        next = arith::AddIOp::create(b, loc, carried, acc);
      } else {
        Value a = arith::SIToFPOp::create(b, loc, f32(), acc);
        if (sx)
          a = mulF(b, loc, a, real(sx, inputAt(sx, row, k0)));
        if (sw)
          a = mulF(b, loc, a, real(sw, weightAt(sw, n, k0)));
        next = addF(b, loc, carried, a);
      }
      scf::YieldOp::create(b, loc, next);
    }
    Value y = groups.getResult(0);
    if (intOut) {
      if (op.getBias())
        y = arith::AddIOp::create(
            b, loc, y, arith::ExtSIOp::create(b, loc, i64(), biasBits(n, 4)));
      Value clamped = arith::MinSIOp::create(
          b, loc, arith::MaxSIOp::create(b, loc, y, int64(INT32_MIN)),
          int64(INT32_MAX));
      memref::StoreOp::create(b, loc,
                              arith::TruncIOp::create(b, loc, i32(), clamped),
                              op.getOutputs(), ValueRange{row, n});
      return;
    }
    if (op.getBias()) {
      InterpretationAttr bias = op.getBiasInterpAttr();
      y = addF(
          b, loc, y,
          realOfBits(bias.getKind(), biasBits(n, bias.getStorageBits() / 8)));
    }
    if (outElem.isF16())
      y = BitConversions{b, loc}.toF16(y);
    else if (outElem.isBF16())
      y = BitConversions{b, loc}.toBF16(y);
    memref::StoreOp::create(b, loc, y, op.getOutputs(), ValueRange{row, n});
  }

private:
  BatchMatVecOp op;
  Value rows;
  ExactFloatOp mulF, addF;
  MatrixDescAttr desc;
  int64_t m, k, compute;
  QuantClause zw, sw, zx, sx, red;

  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return arith::SubIOp::create(b, loc, x, y); }
  Value mul(Value x, Value y) { return arith::MulIOp::create(b, loc, x, y); }

  /// A weight-side value for output n at column k0: dense [M][K/G] at the
  /// clause's byte offset (per tensor, the one value), as stored bits.
  Value weightAt(const QuantClause &q, Value n, Value k0) {
    Value at = q.offset;
    if (q.group) {
      Value i = add(mul(n, index(k / q.group)),
                    arith::DivUIOp::create(b, loc, k0, index(q.group)));
      at = add(at, mul(i, index(q.bytes())));
    }
    return loadBytesLittleEndian(b, loc, q.values, at, q.bytes());
  }

  /// An input-side value for batch row `row` at column k0: [B][K/G] (per
  /// tensor, element (0, 0)).
  Value inputAt(const QuantClause &q, Value row, Value k0) {
    if (!q.group)
      return memref::LoadOp::create(b, loc, q.values,
                                    ValueRange{index(0), index(0)});
    return memref::LoadOp::create(
        b, loc, q.values,
        ValueRange{row, arith::DivUIOp::create(b, loc, k0, index(q.group))});
  }

  /// An I8, U8 or I32 value as i64.
  Value integer(const QuantClause &q, Value v) {
    if (q.kind() == InterpKind::U8)
      return arith::ExtUIOp::create(b, loc, i64(), v);
    return arith::ExtSIOp::create(b, loc, i64(), v);
  }

  /// The exact f32 of F32, F16 or BF16 bits (an integer of their width).
  Value realOfBits(InterpKind kind, Value bits) {
    BitConversions c{b, loc};
    if (kind == InterpKind::F32)
      return arith::BitcastOp::create(b, loc, f32(), bits);
    Value wide = arith::ExtUIOp::create(b, loc, i32(), bits);
    return kind == InterpKind::F16 ? c.f16ToF32(wide) : c.bf16ToF32(wide);
  }

  /// A scale as f32: bits from a byte buffer, or an f32/f16/bf16 element.
  Value real(const QuantClause &q, Value v) {
    if (v.getType().isF32())
      return v;
    if (v.getType().isF16() || v.getType().isBF16())
      v = arith::BitcastOp::create(b, loc, b.getI16Type(), v);
    return realOfBits(q.kind(), v);
  }

  Value biasBits(Value n, unsigned bytes) {
    return loadBytesLittleEndian(b, loc, op.getBias(),
                                 add(op.getBiasOffset(), mul(n, index(bytes))),
                                 bytes);
  }

  /// The stored weight (n, kk) as i64 of its signedness: I8/U8 a byte,
  /// I4/U4 the nibble of its stored column (the even one low).
  Value weight(Value n, Value kk) {
    InterpKind kind = desc.getInterpretation().getKind();
    bool nibbles = kind == InterpKind::I4 || kind == InterpKind::U4;
    Value byte = memref::LoadOp::create(
        b, loc, op.getMatrix(),
        ValueRange{matrixElementByte(b, loc, desc, op.getMatrixOffset(),
                                     op.getMatrixStride(), n, kk, 1, nibbles)});
    if (!nibbles)
      return kind == InterpKind::I8
                 ? Value(arith::ExtSIOp::create(b, loc, i64(), byte))
                 : Value(arith::ExtUIOp::create(b, loc, i64(), byte));
    Value nibble = arith::AndIOp::create(
        b, loc,
        storedNibble(b, loc, desc, arith::ExtUIOp::create(b, loc, i32(), byte),
                     n, kk),
        int32(15));
    Value wide = arith::ExtUIOp::create(b, loc, i64(), nibble);
    if (kind == InterpKind::U4)
      return wide;
    // Sign-extend four bits: (v ^ 8) - 8.
    return sub(arith::XOrIOp::create(b, loc, wide, int64(8)), int64(8));
  }

  Value input(Value row, Value kk) {
    Value x =
        memref::LoadOp::create(b, loc, op.getInputs(), ValueRange{row, kk});
    if (op.getInputInterp().getKind() == InterpKind::U8)
      return arith::ExtUIOp::create(b, loc, i64(), x);
    return arith::ExtSIOp::create(b, loc, i64(), x);
  }

  /// acc of the compute group [k0, k0 + compute) for (row, n).
  Value groupSum(Value row, Value n, Value k0) {
    Value k1 = add(k0, index(compute));
    auto terms =
        scf::ForOp::create(b, loc, k0, k1, index(1), ValueRange{int64(0)});
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(terms.getBody());
      Value kk = terms.getInductionVar();
      Value w = weight(n, kk);
      if (zw && !red)
        w = sub(w, integer(zw, weightAt(zw, n, kk)));
      Value x = input(row, kk);
      if (zx)
        x = sub(x, integer(zx, inputAt(zx, row, kk)));
      scf::YieldOp::create(b, loc,
                           add(terms.getRegionIterArgs()[0], mul(x, w)));
    }
    Value acc = terms.getResult(0);
    if (!red)
      return acc;
    // - zw(n, g0) (R(b, g0) - sum of zx over the reduction group).
    auto groups =
        scf::ForOp::create(b, loc, k0, k1, index(red.group), ValueRange{acc});
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(groups.getBody());
    Value g0 = groups.getInductionVar();
    Value r = integer(red, inputAt(red, row, g0));
    if (zx) {
      auto zeros = scf::ForOp::create(b, loc, g0, add(g0, index(red.group)),
                                      index(1), ValueRange{int64(0)});
      {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToStart(zeros.getBody());
        scf::YieldOp::create(
            b, loc,
            add(zeros.getRegionIterArgs()[0],
                integer(zx, inputAt(zx, row, zeros.getInductionVar()))));
      }
      r = sub(r, zeros.getResult(0));
    }
    Value term = mul(integer(zw, weightAt(zw, n, g0)), r);
    scf::YieldOp::create(b, loc, sub(groups.getRegionIterArgs()[0], term));
    return groups.getResult(0);
  }
};

} // namespace

std::string mlir::coopvec::whyQuantizedNotInKernel(BatchMatVecOp op) {
  for (Value buffer : {op.getMatrix(), op.getBias(), op.getWeightZeroPoints(),
                       op.getWeightScales()})
    if (buffer && !isByteBuffer(buffer))
      return "buffers must be 1-D i8 memrefs with the identity layout";
  return "";
}

void mlir::coopvec::emitQuantizedInKernel(BatchMatVecOp op, Value rows,
                                          ExactFloatOp mulF,
                                          ExactFloatOp addF) {
  OpBuilder b(op);
  QuantizedEmitter(b, op, rows, mulF, addF).emit();
  op.erase();
}
