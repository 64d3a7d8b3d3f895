//===- TilesToCPU.cpp - the tile level on the CPU -------------------------===//
//
// coopvec.tile_pack: the runtime copies the described matrix into a
// row-major scratch buffer (coopvecCpuConvertMatrix: the layout math lives
// once, in lib/Runtime, and checks the buffer bounds), then a loop nest
// decodes each element into its tile. coopvec.tile_mma: one
// vector.outerproduct per k (FMA rows for floats), which the upstream
// vector lowering takes to LLVM; with a fidelity clause, a call of the
// Wormhole model (coopvecCpuTileMmaFidelity) on stack slots.
//
//===----------------------------------------------------------------------===//

#include "LinAlgCoop/Conversion/CoopVecToCPU/CoopVecToCPU.h"
#include "RuntimeCalls.h"

#include "LinAlgCoop/Dialect/CoopVec/IR/CoopVecOps.h"
#include "LinAlgCoop/Runtime/Kernels.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::coopvec;

namespace {

Value constIndex(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}
Value constInt(OpBuilder &b, Location loc, int64_t v, unsigned bits) {
  return arith::ConstantOp::create(b, loc,
                                   b.getIntegerAttr(b.getIntegerType(bits), v));
}

/// coopvec.tile_pack -> coopvecCpuConvertMatrix into a row-major scratch
/// buffer (a plain copy of the stored units: the same interpretation code on
/// both sides, so no value changes), then a loop over the padded matrix
/// that decodes W[r][c] (transposed, 4-bit nibbles extended) into its tile.
class TilePackOpLowering : public OpConversionPattern<TilePackOp> {
public:
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(TilePackOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    MatrixDescAttr desc = op.getMatrixDesc();
    MemRefType packedType = op.getPacked().getType();
    Type elt = packedType.getElementType();
    unsigned unitBytes = desc.getElementBytes();
    bool subByte = desc.getInterpretation().isSubByte();
    if (!elt.isIntOrFloat() || elt.getIntOrFloatBitWidth() != 8 * unitBytes)
      return rewriter.notifyMatchFailure(op, "no byte-aligned decoding");
    Location loc = op.getLoc();
    int64_t storedRows = desc.getStoredRows();
    int64_t unitCols = desc.getStoredUnitCols();
    int64_t rowBytes = llvm::alignTo(unitCols * unitBytes, 16);
    int64_t total = storedRows * rowBytes;

    auto scratchType = MemRefType::get({total}, rewriter.getI8Type());
    Value scratch = memref::AllocOp::create(rewriter, loc, scratchType,
                                            rewriter.getI64IntegerAttr(64));
    // Any interpretation code of the unit's width copies the bits unchanged.
    int64_t code = unitBytes == 1   ? COOPVEC_TYPE_U8
                   : unitBytes == 2 ? COOPVEC_TYPE_U16
                                    : COOPVEC_TYPE_U32;
    cpu_lowering::RuntimeCallBuilder b(rewriter, op);
    using P = cpu_lowering::Params<CoopVecConvertMatrixParams>;
    using F = P::Field;
    P p;
    p.set(F::dst, b.bufferPointer(scratch))
        .set(F::dstBytes, b.constI64(total))
        .set(F::dstOffset, b.constI64(0))
        .set(F::dstInterp, b.constI32(code))
        .set(F::dstLayout, b.constI32(COOPVEC_LAYOUT_ROW_MAJOR))
        .set(F::dstStride, b.constI32(rowBytes))
        .set(F::src, b.bufferPointer(adaptor.getMatrix()))
        .set(F::srcBytes, b.bufferBytes(adaptor.getMatrix()))
        .set(F::srcOffset, b.indexAs(adaptor.getMatrixOffset(), b.i64()))
        .set(F::srcInterp, b.constI32(code))
        .set(F::srcLayout, b.constI32(static_cast<int64_t>(desc.getLayout())))
        .set(F::srcStride, b.indexAs(adaptor.getMatrixStride(), b.i32()))
        .set(F::rows, b.constI32(storedRows))
        .set(F::cols, b.constI32(unitCols));
    b.callChecked(cpu_lowering::RuntimeFn::coopvecCpuConvertMatrix,
                  {p.build(b)});

    // The scratch rows as elements (bytes for 4-bit pairs).
    Value c0 = constIndex(rewriter, loc, 0), c1 = constIndex(rewriter, loc, 1);
    auto viewType =
        MemRefType::get({storedRows, rowBytes / unitBytes}, elt);
    Value view = memref::ViewOp::create(rewriter, loc, viewType, scratch, c0,
                                        ValueRange{});
    ArrayRef<int64_t> shape = packedType.getShape();
    int64_t tm = shape[2], tk = shape[3];
    Value cm = constIndex(rewriter, loc, desc.getRows());
    Value ck = constIndex(rewriter, loc, desc.getCols());
    Value ctm = constIndex(rewriter, loc, tm), ctk = constIndex(rewriter, loc, tk);
    auto rows = scf::ForOp::create(rewriter, loc, c0,
                                   constIndex(rewriter, loc, shape[0] * tm), c1);
    rewriter.setInsertionPointToStart(rows.getBody());
    auto cols = scf::ForOp::create(rewriter, loc, c0,
                                   constIndex(rewriter, loc, shape[1] * tk), c1);
    rewriter.setInsertionPointToStart(cols.getBody());
    Value r = rows.getInductionVar(), c = cols.getInductionVar();
    Value inside = arith::AndIOp::create(
        rewriter, loc,
        arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ult, r, cm),
        arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ult, c, ck));
    auto ifOp = scf::IfOp::create(rewriter, loc, elt, inside,
                                  /*withElse=*/true);
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(&ifOp.getThenRegion().front());
      Value sr = desc.getTranspose() ? c : r;
      Value sc = desc.getTranspose() ? r : c;
      Value value;
      if (!subByte) {
        value = memref::LoadOp::create(rewriter, loc, view, ValueRange{sr, sc});
      } else {
        // Two stored columns to a byte, the even one in the low nibble.
        Value unit = arith::DivUIOp::create(rewriter, loc, sc,
                                            constIndex(rewriter, loc, 2));
        Value byte =
            memref::LoadOp::create(rewriter, loc, view, ValueRange{sr, unit});
        Value odd = arith::RemUIOp::create(rewriter, loc, sc,
                                           constIndex(rewriter, loc, 2));
        Value shift = arith::IndexCastOp::create(
            rewriter, loc, rewriter.getI8Type(),
            arith::MulIOp::create(rewriter, loc, odd,
                                  constIndex(rewriter, loc, 4)));
        Value nibble = arith::ShRUIOp::create(rewriter, loc, byte, shift);
        if (desc.getInterpretation().getIsUnsigned()) {
          value = arith::AndIOp::create(rewriter, loc, nibble,
                                        constInt(rewriter, loc, 0xF, 8));
        } else {
          Value four = constInt(rewriter, loc, 4, 8);
          value = arith::ShRSIOp::create(
              rewriter, loc,
              arith::ShLIOp::create(rewriter, loc, nibble, four), four);
        }
      }
      scf::YieldOp::create(rewriter, loc, value);
      rewriter.setInsertionPointToStart(&ifOp.getElseRegion().front());
      scf::YieldOp::create(
          rewriter, loc,
          ValueRange{arith::ConstantOp::create(rewriter, loc,
                                               rewriter.getZeroAttr(elt))});
    }
    memref::StoreOp::create(
        rewriter, loc, ifOp.getResult(0), adaptor.getPacked(),
        ValueRange{arith::DivUIOp::create(rewriter, loc, r, ctm),
                   arith::DivUIOp::create(rewriter, loc, c, ctk),
                   arith::RemUIOp::create(rewriter, loc, r, ctm),
                   arith::RemUIOp::create(rewriter, loc, c, ctk)});
    rewriter.setInsertionPointAfter(rows);
    memref::DeallocOp::create(rewriter, loc, scratch);
    rewriter.eraseOp(op);
    return success();
  }
};

/// coopvec.tile_mma -> operands extended to the accumulator type (exact),
/// then for k = 0, 1, ... one vector.outerproduct of lhs column k and rhs
/// row k into the accumulator: one FMA (float) or multiply-add (integer)
/// per result element and k, in increasing k.
class TileMmaOpLowering : public OpConversionPattern<TileMmaOp> {
public:
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(TileMmaOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (MathFidelityAttr fidelity = op.getFidelityAttr())
      return lowerFidelity(op, fidelity, adaptor, rewriter);
    Location loc = op.getLoc();
    VectorType accType = op.getAcc().getType();
    Type accElt = accType.getElementType();
    auto extend = [&](Value v, bool isUnsigned) -> Value {
      auto type = cast<VectorType>(v.getType());
      if (type.getElementType() == accElt)
        return v;
      VectorType wide = type.clone(accElt);
      if (isa<FloatType>(accElt))
        return arith::ExtFOp::create(rewriter, loc, wide, v);
      if (isUnsigned)
        return arith::ExtUIOp::create(rewriter, loc, wide, v);
      return arith::ExtSIOp::create(rewriter, loc, wide, v);
    };
    Value lhs = extend(adaptor.getLhs(), op.getLhsUnsigned());
    Value rhs = extend(adaptor.getRhs(), op.getRhsUnsigned());
    Value lhsCols =
        vector::TransposeOp::create(rewriter, loc, lhs, ArrayRef<int64_t>{1, 0});
    Value acc = adaptor.getAcc();
    int64_t k = op.getLhs().getType().getDimSize(1);
    for (int64_t i = 0; i < k; ++i) {
      Value col = vector::ExtractOp::create(rewriter, loc, lhsCols, i);
      Value row = vector::ExtractOp::create(rewriter, loc, rhs, i);
      acc = vector::OuterProductOp::create(rewriter, loc, accType, col, row,
                                           acc, vector::CombiningKind::ADD);
    }
    rewriter.replaceOp(op, acc);
    return success();
  }

private:
  /// With a fidelity clause the tile is one Wormhole matrix-unit step:
  /// the operands (extended to f32, exact) and the accumulator go to stack
  /// slots, coopvecCpuTileMmaFidelity runs the Dst loop of the model on
  /// them, and the accumulator slot holds the result.
  LogicalResult lowerFidelity(TileMmaOp op, MathFidelityAttr fidelity,
                              OpAdaptor adaptor,
                              ConversionPatternRewriter &rewriter) const {
    cpu_lowering::RuntimeCallBuilder b(rewriter, op);
    auto lhsType = cast<VectorType>(op.getLhs().getType());
    auto accType = cast<VectorType>(op.getAcc().getType());
    Value lhs = b.spill(b.extendToF32(adaptor.getLhs()));
    Value rhs = b.spill(b.extendToF32(adaptor.getRhs()));
    Value acc = b.spill(adaptor.getAcc());
    int64_t m = accType.getDimSize(0), n = accType.getDimSize(1),
            k = lhsType.getDimSize(1);
    b.callChecked(cpu_lowering::RuntimeFn::coopvecCpuTileMmaFidelity,
                  {b.constI32(static_cast<int64_t>(fidelity.getFidelity())),
                   b.constI32(cpu_lowering::wormholeSrcFormat(lhsType)),
                   b.constI32(cpu_lowering::wormholeFormat(fidelity.getDst())),
                   b.slotPointer(lhs), b.slotPointer(rhs), b.slotPointer(acc),
                   b.constI64(m), b.constI64(n), b.constI64(k)});
    rewriter.replaceOp(op, b.load(accType, acc));
    return success();
  }
};

/// coopvec.tile_pack_dst -> coopvecCpuTilePackDstFidelity on stack slots:
/// the Dst tile and, with l1_acc, the L1 values, which the runtime
/// overwrites with the packed results.
class TilePackDstOpLowering : public OpConversionPattern<TilePackDstOp> {
public:
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(TilePackDstOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    cpu_lowering::RuntimeCallBuilder b(rewriter, op);
    VectorType type = op.getResult().getType();
    MathFidelityAttr fidelity = op.getFidelity();
    Value dst = b.spill(adaptor.getDst());
    // Without l1_acc the packer ignores the L1 values: the slot need not be
    // written first.
    Value l1 = adaptor.getAcc() ? b.spill(adaptor.getAcc()) : b.stackSlot(type);
    Type pack = fidelity.getL1Format();
    b.callChecked(cpu_lowering::RuntimeFn::coopvecCpuTilePackDstFidelity,
                  {b.constI32(cpu_lowering::wormholeFormat(fidelity.getDst())),
                   b.constI32(cpu_lowering::wormholeFormat(pack)),
                   b.constI32(fidelity.getL1Acc() ? 1 : 0), b.slotPointer(dst),
                   b.slotPointer(l1), b.constI64(type.getNumElements())});
    rewriter.replaceOp(op, b.load(type, l1));
    return success();
  }
};

} // namespace

void mlir::coopvec::populateCoopVecTileToCPUPatterns(
    RewritePatternSet &patterns) {
  patterns.add<TilePackOpLowering, TileMmaOpLowering, TilePackDstOpLowering>(
      patterns.getContext());
}
