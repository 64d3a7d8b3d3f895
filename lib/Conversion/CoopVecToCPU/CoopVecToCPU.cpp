//===- CoopVecToCPU.cpp - coopvec ops to CPU runtime calls ----------------===//
//
// Each coopvec op becomes a call into the C ABI of libcoopvec_runtime.so
// (Kernels.h, Layout.h, CpuTarget.h) followed by a status check. The calls
// are emitted with func/arith/memref/vector/scf ops and a few LLVM pointer
// ops, so the rest of the CPU pipeline is the upstream LLVM lowering. Every
// callee and every parameter struct comes from RuntimeFunctions.def
// (RuntimeAbi.h), which checks the C headers at compile time.
//
//===----------------------------------------------------------------------===//

#include "LinAlgCoop/Conversion/CoopVecToCPU/CoopVecToCPU.h"

#include "RuntimeCalls.h"

#include "LinAlgCoop/Dialect/CoopVec/IR/CoopVecDialect.h"
#include "LinAlgCoop/Dialect/CoopVec/IR/CoopVecOps.h"
#include "LinAlgCoop/Runtime/CpuTarget.h"
#include "LinAlgCoop/Runtime/Kernels.h"
#include "LinAlgCoop/Runtime/Layout.h"
#include "LinAlgCoop/Runtime/Numerics.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::coopvec {
#define GEN_PASS_DEF_CONVERTCOOPVECTOCPU
#include "LinAlgCoop/Conversion/Passes.h.inc"
} // namespace mlir::coopvec

using namespace mlir;
using namespace mlir::coopvec;
using cpu_abi::AbiStruct;
using cpu_abi::RuntimeFn;

//===----------------------------------------------------------------------===//
// The dialect's enums against the runtime's C enums
//===----------------------------------------------------------------------===//

// The lowering passes these enums to the runtime as their integer values.
#define COOPVEC_SAME_VALUE(dialect, runtime)                                   \
  static_assert(static_cast<int64_t>(dialect) == (runtime),                    \
                #dialect " differs from " #runtime)
COOPVEC_SAME_VALUE(MatrixLayout::RowMajor, COOPVEC_LAYOUT_ROW_MAJOR);
COOPVEC_SAME_VALUE(MatrixLayout::ColumnMajor, COOPVEC_LAYOUT_COLUMN_MAJOR);
COOPVEC_SAME_VALUE(MatrixLayout::InferencingOptimal,
                   COOPVEC_LAYOUT_INFERENCING_OPTIMAL);
COOPVEC_SAME_VALUE(MatrixLayout::TrainingOptimal,
                   COOPVEC_LAYOUT_TRAINING_OPTIMAL);
static_assert(getMaxEnumValForMatrixLayout() == COOPVEC_LAYOUT_TRAINING_OPTIMAL,
              "a MatrixLayout the runtime does not know");
COOPVEC_SAME_VALUE(RoundingMode::RN, COOPVEC_RND_RN);
COOPVEC_SAME_VALUE(RoundingMode::RZ, COOPVEC_RND_RZ);
COOPVEC_SAME_VALUE(RoundingMode::RM, COOPVEC_RND_RM);
COOPVEC_SAME_VALUE(RoundingMode::RP, COOPVEC_RND_RP);
COOPVEC_SAME_VALUE(RoundingMode::RNA, COOPVEC_RND_RNA);
COOPVEC_SAME_VALUE(RoundingMode::RS, COOPVEC_RND_RS);
COOPVEC_SAME_VALUE(MathFidelity::LoFi, COOPVEC_FIDELITY_LOFI);
COOPVEC_SAME_VALUE(MathFidelity::HiFi2, COOPVEC_FIDELITY_HIFI2);
COOPVEC_SAME_VALUE(MathFidelity::HiFi3, COOPVEC_FIDELITY_HIFI3);
COOPVEC_SAME_VALUE(MathFidelity::HiFi4, COOPVEC_FIDELITY_HIFI4);
static_assert(getMaxEnumValForMathFidelity() == COOPVEC_FIDELITY_HIFI4,
              "MathFidelity and CoopVecFidelity differ");
static_assert(getMaxEnumValForRoundingMode() == COOPVEC_RND_RS,
              "a RoundingMode the runtime does not know");
COOPVEC_SAME_VALUE(Activation::None, COOPVEC_ACTIVATION_NONE);
COOPVEC_SAME_VALUE(Activation::Relu, COOPVEC_ACTIVATION_RELU);
static_assert(getMaxEnumValForActivation() == COOPVEC_ACTIVATION_RELU,
              "an Activation the runtime does not know");
#undef COOPVEC_SAME_VALUE

namespace {
using namespace mlir::coopvec::cpu_lowering;

//===----------------------------------------------------------------------===//
// Patterns
//===----------------------------------------------------------------------===//

/// The common base: the thread count and whether to check bounds.
template <typename OpTy>
class RuntimeCallPattern : public OpConversionPattern<OpTy> {
public:
  RuntimeCallPattern(MLIRContext *ctx, unsigned numThreads, bool boundsChecks)
      : OpConversionPattern<OpTy>(ctx), numThreads(numThreads),
        boundsChecks(boundsChecks) {}

protected:
  unsigned numThreads;
  bool boundsChecks;
};

/// The bounds checks of a matrix-vector op's matrix and bias.
template <typename OpTy>
void checkMatVecBounds(RuntimeCallBuilder &b, OpTy op,
                       typename OpTy::Adaptor adaptor) {
  MatrixDescAttr desc = op.getMatrixDesc();
  checkMatrixBounds(b, adaptor.getMatrix(), adaptor.getMatrixOffset(), desc,
                    adaptor.getMatrixStride());
  if (adaptor.getBias())
    checkRangeBounds(b, adaptor.getBias(), adaptor.getBiasOffset(),
                     vectorBytes(op.getBiasInterpAttr(), desc.getRows()));
  if (adaptor.getScales())
    checkRangeBounds(b, adaptor.getScales(), adaptor.getScalesOffset(),
                     desc.getRows() * desc.getScalesPerRow());
}

using MatVecParams = Params<CoopVecMatVecParams>;

/// The runtime element type of a matrix-vector op's input (rows): the
/// physical type, or bytes (I8) for a block-float input's stored data.
template <typename OpTy>
int64_t inputElementType(OpTy op, ShapedType inputType) {
  if (op.getInputInterp().isBlockFloat())
    return COOPVEC_TYPE_I8;
  return physicalType(inputType.getElementType(), op.getInputUnsigned());
}

/// Sets the math-fidelity fields of coopvecCpuMatVecMulAdd's parameters:
/// all zero without the attribute.
void setFidelityFields(RuntimeCallBuilder &b, MathFidelityAttr fidelity,
                       MatVecParams &p) {
  using F = MatVecParams::Field;
  if (!fidelity) {
    p.set(F::fidelity, b.constI32(0))
        .set(F::dstFormat, b.constI32(0))
        .set(F::packFormat, b.constI32(0))
        .set(F::l1Acc, b.constI32(0))
        .set(F::kBlock, b.constI32(0));
    return;
  }
  Type pack = fidelity.getL1Format();
  p.set(F::fidelity,
        b.constI32(static_cast<int64_t>(fidelity.getFidelity()) + 1))
      .set(F::dstFormat, b.constI32(wormholeFormat(fidelity.getDst())))
      .set(F::packFormat, b.constI32(wormholeFormat(pack)))
      .set(F::l1Acc, b.constI32(fidelity.getL1Acc() ? 1 : 0))
      .set(F::kBlock, b.constI32(fidelity.getKBlock()));
}

/// Sets the matrix, bias and thread fields of coopvecCpuMatVecMulAdd's
/// parameters for coopvec.matvec/batch_matvec.
template <typename OpTy>
void setMatrixFields(RuntimeCallBuilder &b, OpTy op,
                     typename OpTy::Adaptor adaptor, unsigned numThreads,
                     MatVecParams &p) {
  using F = MatVecParams::Field;
  MatrixDescAttr desc = op.getMatrixDesc();
  p.set(F::matrix, b.bufferPointer(adaptor.getMatrix()))
      .set(F::matrixOffset, b.indexAs(adaptor.getMatrixOffset(), b.i64()))
      .set(F::matrixInterp, b.constI32(value(desc.getInterpretation())))
      .set(F::m, b.constI32(desc.getRows()))
      .set(F::k, b.constI32(desc.getCols()))
      .set(F::layout, b.constI32(value(desc.getLayout())))
      .set(F::transpose, b.constI32(desc.getTranspose() ? 1 : 0))
      .set(F::matrixStride, b.indexAs(adaptor.getMatrixStride(), b.i32()));
  if (adaptor.getBias())
    p.set(F::bias, b.bufferPointer(adaptor.getBias()))
        .set(F::biasOffset, b.indexAs(adaptor.getBiasOffset(), b.i64()))
        .set(F::biasInterp, b.constI32(value(op.getBiasInterpAttr())));
  else
    p.set(F::bias, b.nullPtr())
        .set(F::biasOffset, b.constI64(0))
        .set(F::biasInterp, b.constI32(0));
  p.set(F::numThreads, b.constI32(numThreads));
  if (desc.isBlockScaled())
    p.set(F::scales, b.bufferPointer(adaptor.getScales()))
        .set(F::scalesOffset, b.indexAs(adaptor.getScalesOffset(), b.i64()))
        .set(F::scaleType, b.constI32(isa<Float8E8M0FNUType>(desc.getScaleType())
                                          ? COOPVEC_TYPE_UE8M0
                                          : COOPVEC_TYPE_UE4M3))
        .set(F::scaleBlock, b.constI32(desc.getBlockSize()));
  else
    p.set(F::scales, b.nullPtr())
        .set(F::scalesOffset, b.constI64(0))
        .set(F::scaleType, b.constI32(0))
        .set(F::scaleBlock, b.constI32(0));
  setFidelityFields(b, op.getFidelityAttr(), p);
}

/// coopvec.matvec -> coopvecCpuMatVecMulAdd(batch = 1).
class MatVecOpLowering : public RuntimeCallPattern<MatVecOp> {
public:
  using RuntimeCallPattern::RuntimeCallPattern;

  LogicalResult
  matchAndRewrite(MatVecOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(checkByteBuffer(rewriter, op, adaptor.getMatrix())) ||
        failed(checkByteBuffer(rewriter, op, adaptor.getBias())) ||
        failed(checkByteBuffer(rewriter, op, adaptor.getScales())))
      return failure();
    RuntimeCallBuilder b(rewriter, op);
    VectorType inputType = op.getInput().getType();
    VectorType resultType = op.getResult().getType();
    if (boundsChecks)
      checkMatVecBounds(b, op, adaptor);

    Value inputSlot = b.spill(adaptor.getInput());
    Value resultSlot = b.stackSlot(resultType);
    using F = MatVecParams::Field;
    MatVecParams p;
    p.set(F::output, b.slotPointer(resultSlot))
        .set(F::outputType, b.constI32(physicalType(resultType.getElementType(),
                                                    op.getOutputUnsigned())))
        .set(F::outputStride, b.constI64(0))
        .set(F::input, b.slotPointer(inputSlot))
        .set(F::inputType, b.constI32(inputElementType(op, inputType)))
        .set(F::inputInterp, b.constI32(value(op.getInputInterp())))
        .set(F::inputStride, b.constI64(0))
        .set(F::batch, b.constI32(1));
    setMatrixFields(b, op, adaptor, numThreads, p);
    p.set(F::inputExponents,
          adaptor.getInputExponents()
              ? b.slotPointer(b.spill(adaptor.getInputExponents()))
              : b.nullPtr())
        .set(F::inputExponentsStride, b.constI64(0));
    b.callChecked(RuntimeFn::coopvecCpuMatVecMulAdd, {p.build(b)});
    rewriter.replaceOp(op, b.load(resultType, resultSlot));
    return success();
  }
};

/// coopvec.outer_product_accumulate -> coopvecCpuOuterProductAccumulate.
class OuterProductAccumulateOpLowering
    : public RuntimeCallPattern<OuterProductAccumulateOp> {
public:
  using RuntimeCallPattern::RuntimeCallPattern;

  LogicalResult
  matchAndRewrite(OuterProductAccumulateOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(checkByteBuffer(rewriter, op, adaptor.getMatrix())))
      return failure();
    RuntimeCallBuilder b(rewriter, op);
    MatrixDescAttr desc = op.getMatrixDesc();
    if (boundsChecks)
      checkMatrixBounds(b, adaptor.getMatrix(), adaptor.getMatrixOffset(),
                        desc, adaptor.getMatrixStride());
    Value lhs = b.spill(adaptor.getLhs());
    Value rhs = b.spill(adaptor.getRhs());
    Value elemType =
        b.constI32(physicalType(op.getLhs().getType().getElementType(),
                                /*isUnsigned=*/false));
    using P = Params<CoopVecOuterProductParams>;
    using F = P::Field;
    P p;
    p.set(F::a, b.slotPointer(lhs))
        .set(F::aType, elemType)
        .set(F::aStride, b.constI64(0))
        .set(F::b, b.slotPointer(rhs))
        .set(F::bType, elemType)
        .set(F::bStride, b.constI64(0))
        .set(F::batch, b.constI32(1))
        .set(F::m, b.constI32(desc.getRows()))
        .set(F::n, b.constI32(desc.getCols()))
        .set(F::matrix, b.bufferPointer(adaptor.getMatrix()))
        .set(F::matrixOffset, b.indexAs(adaptor.getMatrixOffset(), b.i64()))
        .set(F::matrixInterp, b.constI32(value(desc.getInterpretation())))
        .set(F::layout, b.constI32(value(desc.getLayout())))
        .set(F::matrixStride, b.indexAs(adaptor.getMatrixStride(), b.i32()))
        .set(F::numThreads, b.constI32(numThreads));
    b.callChecked(RuntimeFn::coopvecCpuOuterProductAccumulate, {p.build(b)});
    rewriter.eraseOp(op);
    return success();
  }
};

/// coopvec.vector_accumulate -> coopvecCpuVectorAccumulate; the array has the
/// element type of the vector.
class VectorAccumulateOpLowering
    : public RuntimeCallPattern<VectorAccumulateOp> {
public:
  using RuntimeCallPattern::RuntimeCallPattern;

  LogicalResult
  matchAndRewrite(VectorAccumulateOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(checkByteBuffer(rewriter, op, adaptor.getBuffer())))
      return failure();
    RuntimeCallBuilder b(rewriter, op);
    VectorType type = op.getInput().getType();
    if (boundsChecks)
      checkRangeBounds(b, adaptor.getBuffer(), adaptor.getOffset(),
                       type.getNumElements() *
                           (type.getElementTypeBitWidth() / 8));
    Value input = b.spill(adaptor.getInput());
    Value elemType =
        b.constI32(physicalType(type.getElementType(), /*isUnsigned=*/false));
    using P = Params<CoopVecVectorAccumulateParams>;
    using F = P::Field;
    P p;
    p.set(F::input, b.slotPointer(input))
        .set(F::inputType, elemType)
        .set(F::inputStride, b.constI64(0))
        .set(F::batch, b.constI32(1))
        .set(F::n, b.constI32(type.getNumElements()))
        .set(F::buffer, b.bufferPointer(adaptor.getBuffer()))
        .set(F::offset, b.indexAs(adaptor.getOffset(), b.i64()))
        .set(F::accumInterp, elemType)
        .set(F::numThreads, b.constI32(numThreads));
    b.callChecked(RuntimeFn::coopvecCpuVectorAccumulate, {p.build(b)});
    rewriter.eraseOp(op);
    return success();
  }
};

/// coopvec.convert_matrix -> coopvecCpuConvertMatrix, which checks both
/// footprints against the buffer sizes itself.
class ConvertMatrixOpLowering : public RuntimeCallPattern<ConvertMatrixOp> {
public:
  using RuntimeCallPattern::RuntimeCallPattern;

  LogicalResult
  matchAndRewrite(ConvertMatrixOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(checkByteBuffer(rewriter, op, adaptor.getSrc())) ||
        failed(checkByteBuffer(rewriter, op, adaptor.getDst())))
      return failure();
    RuntimeCallBuilder b(rewriter, op);
    MatrixDescAttr src = op.getSrcDesc(), dst = op.getDstDesc();
    using P = Params<CoopVecConvertMatrixParams>;
    using F = P::Field;
    P p;
    p.set(F::dst, b.bufferPointer(adaptor.getDst()))
        .set(F::dstBytes, b.bufferBytes(adaptor.getDst()))
        .set(F::dstOffset, b.indexAs(adaptor.getDstOffset(), b.i64()))
        .set(F::dstInterp, b.constI32(value(dst.getInterpretation())))
        .set(F::dstLayout, b.constI32(value(dst.getLayout())))
        .set(F::dstStride, b.indexAs(adaptor.getDstStride(), b.i32()))
        .set(F::src, b.bufferPointer(adaptor.getSrc()))
        .set(F::srcBytes, b.bufferBytes(adaptor.getSrc()))
        .set(F::srcOffset, b.indexAs(adaptor.getSrcOffset(), b.i64()))
        .set(F::srcInterp, b.constI32(value(src.getInterpretation())))
        .set(F::srcLayout, b.constI32(value(src.getLayout())))
        .set(F::srcStride, b.indexAs(adaptor.getSrcStride(), b.i32()))
        .set(F::rows, b.constI32(src.getRows()))
        .set(F::cols, b.constI32(src.getCols()));
    b.callChecked(RuntimeFn::coopvecCpuConvertMatrix, {p.build(b)});
    rewriter.eraseOp(op);
    return success();
  }
};

/// The runtime's element code of a quantized product's f32, f16, bf16 or
/// i32 memref elements.
int64_t quantTypeCode(Type type) {
  if (type.isF16())
    return COOPVEC_TYPE_F16;
  if (type.isBF16())
    return COOPVEC_TYPE_BF16;
  if (type.isInteger(32))
    return COOPVEC_TYPE_I32;
  return COOPVEC_TYPE_F32;
}

/// coopvec.batch_matvec -> coopvecCpuMatVecMulAdd over all rows: one
/// matrix-matrix product.
class BatchMatVecOpLowering : public RuntimeCallPattern<BatchMatVecOp> {
public:
  BatchMatVecOpLowering(MLIRContext *ctx, unsigned numThreads,
                        bool boundsChecks)
      : RuntimeCallPattern(ctx, numThreads, boundsChecks) {}

  LogicalResult
  matchAndRewrite(BatchMatVecOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (op.isQuantized())
      return rewriteQuantized(op, adaptor, rewriter);
    if (failed(checkByteBuffer(rewriter, op, adaptor.getMatrix())) ||
        failed(checkByteBuffer(rewriter, op, adaptor.getBias())) ||
        failed(checkByteBuffer(rewriter, op, adaptor.getScales())))
      return failure();
    RuntimeCallBuilder b(rewriter, op);
    MemRefType inputType = op.getInputs().getType();
    MemRefType outputType = op.getOutputs().getType();
    if (boundsChecks)
      checkMatVecBounds(b, op, adaptor);
    auto [inputs, inputStride, rows] = b.batchRows(adaptor.getInputs());
    auto [outputs, outputStride, outputRows] =
        b.batchRows(adaptor.getOutputs());
    b.checkSameRows(rows, outputRows);
    using F = MatVecParams::Field;
    MatVecParams p;
    p.set(F::output, outputs)
        .set(F::outputType, b.constI32(physicalType(outputType.getElementType(),
                                                    op.getOutputUnsigned())))
        .set(F::outputStride, outputStride)
        .set(F::input, inputs)
        .set(F::inputType, b.constI32(inputElementType(op, inputType)))
        .set(F::inputInterp, b.constI32(value(op.getInputInterp())))
        .set(F::inputStride, inputStride)
        .set(F::batch, rows);
    setMatrixFields(b, op, adaptor, numThreads, p);
    if (adaptor.getInputExponents()) {
      auto [exponents, exponentStride, exponentRows] =
          b.batchRows(adaptor.getInputExponents());
      b.checkSameRows(rows, exponentRows);
      p.set(F::inputExponents, exponents)
          .set(F::inputExponentsStride, exponentStride);
    } else {
      p.set(F::inputExponents, b.nullPtr())
          .set(F::inputExponentsStride, b.constI64(0));
    }
    b.callChecked(RuntimeFn::coopvecCpuMatVecMulAdd, {p.build(b)});
    rewriter.eraseOp(op);
    return success();
  }

private:
  /// The quantized form -> coopvecCpuQuantizedMatMul.
  LogicalResult rewriteQuantized(BatchMatVecOp op, OpAdaptor adaptor,
                                 ConversionPatternRewriter &rewriter) const {
    for (Value buffer : {adaptor.getMatrix(), adaptor.getBias(),
                         adaptor.getWeightZeroPoints(),
                         adaptor.getWeightScales()})
      if (failed(checkByteBuffer(rewriter, op, buffer)))
        return failure();
    RuntimeCallBuilder b(rewriter, op);
    MatrixDescAttr desc = op.getMatrixDesc();
    int64_t m = desc.getRows(), k = desc.getCols();
    auto groupOf = [](IntegerAttr group) -> int64_t {
      return group ? group.getInt() : 0;
    };
    auto bytesOf = [](InterpretationAttr interp) -> int64_t {
      return interp.getStorageBits() / 8;
    };
    if (boundsChecks) {
      checkMatrixBounds(b, adaptor.getMatrix(), adaptor.getMatrixOffset(),
                        desc, adaptor.getMatrixStride());
      if (adaptor.getBias())
        checkRangeBounds(b, adaptor.getBias(), adaptor.getBiasOffset(),
                         vectorBytes(op.getBiasInterpAttr(), m));
      auto weightValues = [&](Value buffer, Value offset,
                              InterpretationAttr interp, IntegerAttr group) {
        if (!buffer)
          return;
        int64_t g = groupOf(group);
        int64_t count = g == 0 ? 1 : m * (k / g);
        checkRangeBounds(b, buffer, offset, count * bytesOf(interp));
      };
      weightValues(adaptor.getWeightZeroPoints(),
                   adaptor.getWeightZeroPointsOffset(),
                   op.getWeightZeroPointsInterpAttr(),
                   op.getWeightZeroPointsGroupAttr());
      weightValues(adaptor.getWeightScales(), adaptor.getWeightScalesOffset(),
                   op.getWeightScalesInterpAttr(),
                   op.getWeightScalesGroupAttr());
    }
    auto [inputs, inputStride, rows] = b.batchRows(adaptor.getInputs());
    auto [outputs, outputStride, outputRows] =
        b.batchRows(adaptor.getOutputs());
    b.checkSameRows(rows, outputRows);

    using P = Params<CoopVecQuantMatMulParams>;
    using F = P::Field;
    P p;
    p.set(F::output, outputs)
        .set(F::outputType,
             b.constI32(quantTypeCode(op.getOutputs().getType().getElementType())))
        .set(F::outputStride, outputStride)
        .set(F::input, inputs)
        .set(F::inputInterp, b.constI32(value(op.getInputInterp())))
        .set(F::inputStride, inputStride)
        .set(F::batch, rows)
        .set(F::matrix, b.bufferPointer(adaptor.getMatrix()))
        .set(F::matrixOffset, b.indexAs(adaptor.getMatrixOffset(), b.i64()))
        .set(F::matrixInterp, b.constI32(value(desc.getInterpretation())))
        .set(F::m, b.constI32(m))
        .set(F::k, b.constI32(k))
        .set(F::layout, b.constI32(value(desc.getLayout())))
        .set(F::transpose, b.constI32(desc.getTranspose() ? 1 : 0))
        .set(F::matrixStride, b.indexAs(adaptor.getMatrixStride(), b.i32()))
        .set(F::numThreads, b.constI32(numThreads));
    if (adaptor.getBias())
      p.set(F::bias, b.bufferPointer(adaptor.getBias()))
          .set(F::biasOffset, b.indexAs(adaptor.getBiasOffset(), b.i64()))
          .set(F::biasInterp, b.constI32(value(op.getBiasInterpAttr())));
    else
      p.set(F::bias, b.nullPtr())
          .set(F::biasOffset, b.constI64(0))
          .set(F::biasInterp, b.constI32(0));

    auto setWeight = [&](Value buffer, Value offset, InterpretationAttr interp,
                         IntegerAttr group, F ptr, F off, F in, F grp) {
      if (buffer)
        p.set(ptr, b.bufferPointer(buffer))
            .set(off, b.indexAs(offset, b.i64()))
            .set(in, b.constI32(value(interp)))
            .set(grp, b.constI32(groupOf(group)));
      else
        p.set(ptr, b.nullPtr())
            .set(off, b.constI64(0))
            .set(in, b.constI32(0))
            .set(grp, b.constI32(0));
    };
    setWeight(adaptor.getWeightZeroPoints(),
              adaptor.getWeightZeroPointsOffset(),
              op.getWeightZeroPointsInterpAttr(),
              op.getWeightZeroPointsGroupAttr(), F::weightZeroPoints,
              F::weightZeroPointsOffset, F::weightZeroPointsInterp,
              F::weightZeroPointsGroup);
    setWeight(adaptor.getWeightScales(), adaptor.getWeightScalesOffset(),
              op.getWeightScalesInterpAttr(), op.getWeightScalesGroupAttr(),
              F::weightScales, F::weightScalesOffset, F::weightScalesInterp,
              F::weightScalesGroup);
    Value batchRows = rows; // A lambda captures no structured binding.
    auto setInput = [&](Value memref, InterpretationAttr interp,
                        IntegerAttr group, F ptr, F stride, F in, F grp) {
      if (!memref) {
        p.set(ptr, b.nullPtr())
            .set(stride, b.constI64(0))
            .set(in, b.constI32(0))
            .set(grp, b.constI32(0));
        return;
      }
      auto [base, rowStride, valueRows] = b.batchRows(memref);
      // Grouped values have one row per input row; per-tensor ones one row.
      if (groupOf(group) != 0)
        b.checkSameRows(batchRows, valueRows);
      p.set(ptr, base)
          .set(stride, rowStride)
          .set(in, b.constI32(value(interp)))
          .set(grp, b.constI32(groupOf(group)));
    };
    setInput(adaptor.getInputZeroPoints(), op.getInputZeroPointsInterpAttr(),
             op.getInputZeroPointsGroupAttr(), F::inputZeroPoints,
             F::inputZeroPointsStride, F::inputZeroPointsInterp,
             F::inputZeroPointsGroup);
    setInput(adaptor.getInputScales(), op.getInputScalesInterpAttr(),
             op.getInputScalesGroupAttr(), F::inputScales,
             F::inputScalesStride, F::inputScalesInterp, F::inputScalesGroup);
    setInput(adaptor.getReductions(), op.getReductionsInterpAttr(),
             op.getReductionsGroupAttr(), F::reductions, F::reductionsStride,
             F::reductionsInterp, F::reductionsGroup);
    b.callChecked(RuntimeFn::coopvecCpuQuantizedMatMul, {p.build(b)});
    rewriter.eraseOp(op);
    return success();
  }
};

/// coopvec.quantize_rows -> coopvecCpuQuantizeRows.
class QuantizeRowsOpLowering : public RuntimeCallPattern<QuantizeRowsOp> {
public:
  using RuntimeCallPattern::RuntimeCallPattern;

  LogicalResult
  matchAndRewrite(QuantizeRowsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RuntimeCallBuilder b(rewriter, op);
    auto [inputs, inputStride, rows] = b.batchRows(adaptor.getInputs());
    auto [outputs, outputStride, outputRows] =
        b.batchRows(adaptor.getOutputs());
    auto [scales, scalesStride, scaleRows] = b.batchRows(adaptor.getScales());
    b.checkSameRows(rows, outputRows);
    b.checkSameRows(rows, scaleRows);
    using P = Params<CoopVecQuantizeRowsParams>;
    using F = P::Field;
    P p;
    p.set(F::input, inputs)
        .set(F::inputType,
             b.constI32(quantTypeCode(op.getInputs().getType().getElementType())))
        .set(F::inputStride, inputStride)
        .set(F::batch, rows)
        .set(F::n, b.constI32(op.getInputs().getType().getDimSize(1)))
        .set(F::group, b.constI32(op.getGroup()))
        .set(F::output, outputs)
        .set(F::outputInterp, b.constI32(value(op.getOutputInterp())))
        .set(F::outputStride, outputStride)
        .set(F::scales, scales)
        .set(F::scaleType,
             b.constI32(quantTypeCode(op.getScales().getType().getElementType())))
        .set(F::scalesStride, scalesStride)
        .set(F::numThreads, b.constI32(numThreads));
    for (auto [memref, ptr, stride] :
         {std::tuple(adaptor.getZeroPoints(), F::zeroPoints,
                     F::zeroPointsStride),
          std::tuple(adaptor.getReductions(), F::reductions,
                     F::reductionsStride)}) {
      if (!memref) {
        p.set(ptr, b.nullPtr()).set(stride, b.constI64(0));
        continue;
      }
      auto [base, rowStride, valueRows] = b.batchRows(memref);
      b.checkSameRows(rows, valueRows);
      p.set(ptr, base).set(stride, rowStride);
    }
    b.callChecked(RuntimeFn::coopvecCpuQuantizeRows, {p.build(b)});
    rewriter.eraseOp(op);
    return success();
  }
};

/// coopvec.mlp -> coopvecCpuMlpForward: the fused network kernel, with the
/// layer table built in a stack slot.
class MLPOpLowering : public RuntimeCallPattern<MLPOp> {
public:
  MLPOpLowering(MLIRContext *ctx, unsigned numThreads, bool boundsChecks)
      : RuntimeCallPattern(ctx, numThreads, boundsChecks) {}

  LogicalResult
  matchAndRewrite(MLPOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    for (Value buffer : adaptor.getWeights())
      if (failed(checkByteBuffer(rewriter, op, buffer)))
        return failure();
    for (Value buffer : adaptor.getBiases())
      if (failed(checkByteBuffer(rewriter, op, buffer)))
        return failure();
    for (Value buffer : adaptor.getRequantScales())
      if (failed(checkByteBuffer(rewriter, op, buffer)))
        return failure();
    RuntimeCallBuilder b(rewriter, op);
    unsigned numLayers = op.getNumLayers();
    bool quantized = !adaptor.getRequantScales().empty();
    using Layer = Params<CoopVecMlpLayer>;
    using L = Layer::Field;
    auto [table, layerType] =
        b.structSlot(AbiStruct<CoopVecMlpLayer>::fields(), numLayers);
    Value unitScale = arith::ConstantOp::create(
        rewriter, op.getLoc(), rewriter.getF32FloatAttr(1.0f));
    for (unsigned l = 0; l < numLayers; ++l) {
      MatrixDescAttr desc = op.getLayerDesc(l);
      Value weights = adaptor.getWeights()[l];
      Value offset = adaptor.getWeightOffsets()[l];
      Value stride = adaptor.getWeightStrides()[l];
      if (boundsChecks)
        checkMatrixBounds(b, weights, offset, desc, stride);
      Layer layer;
      layer.set(L::weights, b.bufferPointer(weights))
          .set(L::weightsOffset, b.indexToI64(offset))
          .set(L::weightsInterp, b.constI32(value(desc.getInterpretation())))
          .set(L::outputs, b.constI32(desc.getRows()))
          .set(L::inputs, b.constI32(desc.getCols()))
          .set(L::layout, b.constI32(value(desc.getLayout())))
          .set(L::transpose, b.constI32(desc.getTranspose() ? 1 : 0))
          .set(L::stride, b.indexAs(stride, b.i32()))
          .set(L::biasInterp,
               b.constI32(quantized ? COOPVEC_TYPE_I32 : COOPVEC_TYPE_F32))
          .set(L::activation, b.constI32(op.getActivations()[l]))
          .set(L::requantScale, unitScale); // Unused: requantScales or float.
      if (quantized) {
        Value scales = adaptor.getRequantScales()[l];
        Value scalesOffset = adaptor.getRequantOffsets()[l];
        if (boundsChecks)
          checkRangeBounds(b, scales, scalesOffset, desc.getRows() * 4);
        layer.set(L::requantScales, b.bufferPointer(scales))
            .set(L::requantScalesOffset, b.indexToI64(scalesOffset));
      } else {
        layer.set(L::requantScales, b.nullPtr())
            .set(L::requantScalesOffset, b.constI64(0));
      }
      if (std::optional<unsigned> i = op.getBiasIndex(l)) {
        Value bias = adaptor.getBiases()[*i];
        Value biasOffset = adaptor.getBiasOffsets()[*i];
        if (boundsChecks)
          checkRangeBounds(b, bias, biasOffset, desc.getRows() * 4);
        layer.set(L::bias, b.bufferPointer(bias))
            .set(L::biasOffset, b.indexToI64(biasOffset));
      } else {
        layer.set(L::bias, b.nullPtr()).set(L::biasOffset, b.constI64(0));
      }
      layer.store(b, table, layerType, l);
    }
    auto [inputs, inputStride, rows] = b.batchRows(adaptor.getInputs());
    auto [outputs, outputStride, outputRows] =
        b.batchRows(adaptor.getOutputs());
    b.checkSameRows(rows, outputRows);
    using P = Params<CoopVecMlpParams>;
    using F = P::Field;
    P p;
    p.set(F::output, outputs)
        .set(F::outputStride, outputStride)
        .set(F::input, inputs)
        .set(F::inputStride, inputStride)
        .set(F::batch, rows)
        .set(F::layers, table)
        .set(F::numLayers, b.constI32(numLayers))
        .set(F::inputScale, quantized ? adaptor.getInputScale() : unitScale)
        .set(F::outputExp, b.constI32(op.getOutputExp() ? 1 : 0))
        .set(F::numThreads, b.constI32(numThreads));
    b.callChecked(RuntimeFn::coopvecCpuMlpForward, {p.build(b)});
    rewriter.eraseOp(op);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Numerics ops: through the numerics library, the one definition of every
// conversion (what constant folding computes too), on stack buffers where
// the codes' layout allows, else element by element.
//===----------------------------------------------------------------------===//

/// The bits of a float scalar as a zero-extended i32.
Value floatBitsI32(OpBuilder &b, Location loc, Value value) {
  auto type = cast<FloatType>(value.getType());
  Value bits = arith::BitcastOp::create(
      b, loc, b.getIntegerType(type.getWidth()), value);
  if (type.getWidth() == 32)
    return bits;
  return arith::ExtUIOp::create(b, loc, b.getI32Type(), bits);
}

/// The float of `type` whose bits are the low bits of the i32 `bits`.
Value floatFromBitsI32(OpBuilder &b, Location loc, FloatType type, Value bits) {
  if (type.getWidth() == 32)
    return arith::BitcastOp::create(b, loc, type, bits);
  Value narrow = arith::TruncIOp::create(
      b, loc, b.getIntegerType(type.getWidth()), bits);
  return arith::BitcastOp::create(b, loc, type, narrow);
}

/// Elements of a scalar-or-vector value, and the inverse.
SmallVector<Value> elementsOf(OpBuilder &b, Location loc, Value value) {
  auto vector = dyn_cast<VectorType>(value.getType());
  if (!vector)
    return {value};
  SmallVector<Value> elements;
  for (int64_t i = 0; i < vector.getNumElements(); ++i)
    elements.push_back(vector::ExtractOp::create(b, loc, value, i));
  return elements;
}

Value fromElements(OpBuilder &b, Location loc, Type type,
                   ArrayRef<Value> elements) {
  if (!isa<VectorType>(type))
    return elements.front();
  return vector::FromElementsOp::create(b, loc, cast<VectorType>(type),
                                        elements);
}

unsigned conversionFlags(bool satfinite, bool relu) {
  return (satfinite ? COOPVEC_CVT_SATFINITE : 0) |
         (relu ? COOPVEC_CVT_RELU : 0);
}

/// Whether a vector conversion between these element types can go through
/// coopvecConvertBuffer: both sides must be plain arrays of 8-, 16- or
/// 32-bit codes, as a vector of them is stored (not E2M1, nibble-packed in
/// the runtime's buffers; not 6-bit codes, one per byte there but
/// bit-packed in a stored vector; not TF32, kept as f32 patterns).
bool hasBulkConversion(Type srcType, FloatType dstType) {
  auto plain = [](unsigned width) {
    return width == 8 || width == 16 || width == 32;
  };
  return plain(srcType.getIntOrFloatBitWidth()) && plain(dstType.getWidth());
}

/// coopvec.convert -> one coopvecConvertBuffer over stack buffers for a
/// vector with a bulk form (the runtime's vectorized conversion, bit-exact
/// with the per-element one), else coopvecConvert per element.
class ConvertOpLowering : public RuntimeCallPattern<ConvertOp> {
public:
  using RuntimeCallPattern::RuntimeCallPattern;

  LogicalResult
  matchAndRewrite(ConvertOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RuntimeCallBuilder b(rewriter, op);
    Location loc = op.getLoc();
    Type resultType = op.getResult().getType();
    auto dstType = cast<FloatType>(getElementTypeOrSelf(resultType));
    Type srcType = getElementTypeOrSelf(op.getInput().getType());
    unsigned src = *getNumericsFormat(srcType);
    unsigned dst = *getNumericsFormat(dstType);
    Value rounding = b.constI32(static_cast<int64_t>(op.getRounding()));
    Value flags = b.constI32(conversionFlags(op.getSatfinite(), op.getRelu()));
    if (auto vectorType = dyn_cast<VectorType>(resultType);
        vectorType && hasBulkConversion(srcType, dstType)) {
      int64_t n = vectorType.getNumElements();
      Value in = b.spill(adaptor.getInput());
      Value codes = b.stackSlot(b.codesType(vectorType));
      Value rbits = adaptor.getRbits()
                        ? b.slotPointer(b.spill(adaptor.getRbits()))
                        : b.nullPtr();
      b.call(RuntimeFn::coopvecConvertBuffer,
             {b.constI32(dst), b.constI32(src), b.slotPointer(in),
              b.slotPointer(codes), b.constI64(n), rounding, flags, rbits});
      rewriter.replaceOp(op, b.loadCodes(vectorType, codes));
      return success();
    }
    SmallVector<Value> inputs = elementsOf(rewriter, loc, adaptor.getInput());
    SmallVector<Value> rbits;
    if (adaptor.getRbits())
      rbits = elementsOf(rewriter, loc, adaptor.getRbits());
    SmallVector<Value> results;
    for (auto [i, x] : llvm::enumerate(inputs)) {
      Value bits = b.call(RuntimeFn::coopvecConvert,
                          {b.constI32(dst), b.constI32(src),
                           floatBitsI32(rewriter, loc, x), rounding, flags,
                           rbits.empty() ? b.constI32(0) : rbits[i]})
                       .getResult(0);
      // The runtime's TF32 is an f32 pattern; the builtin tf32 is 19 bits.
      if (dst == COOPVEC_FMT_TF32)
        bits = arith::ShRUIOp::create(rewriter, loc, bits, b.constI32(13));
      results.push_back(floatFromBitsI32(rewriter, loc, dstType, bits));
    }
    rewriter.replaceOp(op, fromElements(rewriter, loc, resultType, results));
    return success();
  }
};

/// coopvec.pack -> coopvecPackX2 / coopvecPackX4.
class PackOpLowering : public RuntimeCallPattern<PackOp> {
public:
  using RuntimeCallPattern::RuntimeCallPattern;

  LogicalResult
  matchAndRewrite(PackOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RuntimeCallBuilder b(rewriter, op);
    Location loc = op.getLoc();
    SmallVector<Value> args{b.constI32(*getNumericsFormat(op.getFormat()))};
    llvm::append_range(args, adaptor.getInputs());
    args.append({b.constI32(static_cast<int64_t>(op.getRounding())),
                 b.constI32(conversionFlags(op.getSatfinite(), op.getRelu())),
                 adaptor.getRbits() ? adaptor.getRbits() : b.constI32(0)});
    RuntimeFn callee = op.getInputs().size() == 2 ? RuntimeFn::coopvecPackX2
                                                  : RuntimeFn::coopvecPackX4;
    Value packed = b.call(callee, args).getResult(0);
    IntegerType type = op.getResult().getType();
    if (type.getWidth() < 32)
      packed = arith::TruncIOp::create(rewriter, loc, type, packed);
    rewriter.replaceOp(op, packed);
    return success();
  }
};

/// Byte storage of block-scaled element codes in the runtime's layout (one
/// byte per element, E2M1 two per byte with element 2i in the low nibble).
int64_t codeStorageBytes(unsigned format, int64_t n) {
  return format == COOPVEC_FMT_E2M1 ? (n + 1) / 2 : n;
}

/// coopvec.mx_quantize -> coopvecMxQuantize / coopvecNvfp4Quantize on stack
/// buffers, then the codes read back into the result vectors.
class MXQuantizeOpLowering : public RuntimeCallPattern<MXQuantizeOp> {
public:
  using RuntimeCallPattern::RuntimeCallPattern;

  LogicalResult
  matchAndRewrite(MXQuantizeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RuntimeCallBuilder b(rewriter, op);
    Location loc = op.getLoc();
    VectorType elementsType = op.getElements().getType();
    VectorType scalesType = op.getScales().getType();
    auto elemType = cast<FloatType>(elementsType.getElementType());
    auto scaleType = cast<FloatType>(scalesType.getElementType());
    unsigned elem = *getNumericsFormat(elemType);
    int64_t n = elementsType.getNumElements();
    int64_t numScales = scalesType.getNumElements();
    Value src = b.spill(adaptor.getInput());
    auto i8 = rewriter.getI8Type();
    Value codes =
        b.stackSlot(VectorType::get({codeStorageBytes(elem, n)}, i8));
    Value scales = b.stackSlot(VectorType::get({numScales}, i8));
    if (isa<Float8E8M0FNUType>(scaleType))
      b.call(RuntimeFn::coopvecMxQuantize,
             {b.constI32(elem), b.slotPointer(src), b.constI64(n),
              b.slotPointer(codes), b.slotPointer(scales)});
    else
      b.call(RuntimeFn::coopvecNvfp4Quantize,
             {b.slotPointer(src), b.constI64(n), b.slotPointer(codes),
              b.slotPointer(scales)});

    // 8-bit codes and the scales as whole vectors; 6- and 4-bit codes (one
    // per byte, or nibble-packed) element by element.
    Value scaleVector = b.loadCodes(scalesType, scales);
    if (elemType.getWidth() == 8) {
      rewriter.replaceOp(op, {b.loadCodes(elementsType, codes), scaleVector});
      return success();
    }
    SmallVector<Value> elements;
    for (int64_t i = 0; i < n; ++i) {
      bool nibble = elem == COOPVEC_FMT_E2M1;
      Value byte = memref::LoadOp::create(
          rewriter, loc, codes, b.constIndex(nibble ? i / 2 : i));
      if (nibble && i % 2)
        byte = arith::ShRUIOp::create(rewriter, loc, byte, b.constI8(4));
      Value code = arith::TruncIOp::create(
          rewriter, loc, rewriter.getIntegerType(elemType.getWidth()), byte);
      elements.push_back(arith::BitcastOp::create(rewriter, loc, elemType, code));
    }
    rewriter.replaceOp(op, {fromElements(rewriter, loc, elementsType, elements),
                            scaleVector});
    return success();
  }
};

/// coopvec.eltwise_mul -> coopvecCpuEltwiseMulFidelity on stack slots: the
/// operands (extended to f32, exact) and, with l1_acc, the L1 values,
/// which the runtime overwrites with the results.
class EltwiseMulOpLowering : public RuntimeCallPattern<EltwiseMulOp> {
public:
  using RuntimeCallPattern::RuntimeCallPattern;

  LogicalResult
  matchAndRewrite(EltwiseMulOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RuntimeCallBuilder b(rewriter, op);
    VectorType resultType = op.getResult().getType();
    MathFidelityAttr fidelity = op.getFidelity();
    Value lhs = b.spill(b.extendToF32(adaptor.getLhs()));
    Value rhs = b.spill(b.extendToF32(adaptor.getRhs()));
    // Without l1_acc the packer ignores the L1 values: the slot need not be
    // written first.
    Value out =
        adaptor.getAcc() ? b.spill(adaptor.getAcc()) : b.stackSlot(resultType);
    Type pack = fidelity.getL1Format();
    b.callChecked(RuntimeFn::coopvecCpuEltwiseMulFidelity,
                  {b.constI32(static_cast<int64_t>(fidelity.getFidelity())),
                   b.constI32(wormholeSrcFormat(op.getLhs().getType())),
                   b.constI32(wormholeFormat(fidelity.getDst())),
                   b.constI32(wormholeFormat(pack)),
                   b.constI32(fidelity.getL1Acc() ? 1 : 0), b.slotPointer(lhs),
                   b.slotPointer(rhs), b.slotPointer(out),
                   b.constI64(resultType.getNumElements())});
    rewriter.replaceOp(op, b.load(resultType, out));
    return success();
  }
};

/// coopvec.mx_dequantize -> the codes written to stack buffers in the
/// runtime's layout, then coopvecMxDequantize / coopvecNvfp4Dequantize.
class MXDequantizeOpLowering : public RuntimeCallPattern<MXDequantizeOp> {
public:
  using RuntimeCallPattern::RuntimeCallPattern;

  LogicalResult
  matchAndRewrite(MXDequantizeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RuntimeCallBuilder b(rewriter, op);
    Location loc = op.getLoc();
    auto elementsType = cast<VectorType>(op.getElements().getType());
    auto scalesType = cast<VectorType>(op.getScales().getType());
    auto elemType = cast<FloatType>(elementsType.getElementType());
    unsigned elem = *getNumericsFormat(elemType);
    int64_t n = elementsType.getNumElements();
    auto i8 = rewriter.getI8Type();
    Value codes =
        b.stackSlot(VectorType::get({codeStorageBytes(elem, n)}, i8));
    Value scales = b.stackSlot(VectorType::get({scalesType.getNumElements()}, i8));
    // 8-bit codes and the scales as whole vectors; 6- and 4-bit codes
    // element by element.
    b.storeCodes(adaptor.getScales(), scales);
    if (elemType.getWidth() == 8) {
      b.storeCodes(adaptor.getElements(), codes);
    } else {
      // A 6- or 4-bit code widened to a byte.
      auto toByte = [&](Value v, unsigned width) -> Value {
        Value bits = arith::BitcastOp::create(
            rewriter, loc, rewriter.getIntegerType(width), v);
        return arith::ExtUIOp::create(rewriter, loc, i8, bits);
      };
      SmallVector<Value> elements =
          elementsOf(rewriter, loc, adaptor.getElements());
      for (int64_t i = 0; i < n; ++i) {
        Value byte = toByte(elements[i], elemType.getWidth());
        if (elem == COOPVEC_FMT_E2M1) {
          if (i % 2 == 0) {
            // The high nibble is the next element, or 0 after the last.
            Value high =
                i + 1 < n ? toByte(elements[i + 1], 4) : b.constI8(0);
            high = arith::ShLIOp::create(rewriter, loc, high, b.constI8(4));
            byte = arith::OrIOp::create(rewriter, loc, byte, high);
            memref::StoreOp::create(rewriter, loc, byte, codes,
                                    b.constIndex(i / 2));
          }
          continue;
        }
        memref::StoreOp::create(rewriter, loc, byte, codes, b.constIndex(i));
      }
    }
    VectorType resultType = op.getResult().getType();
    Value out = b.stackSlot(resultType);
    if (isa<Float8E8M0FNUType>(scalesType.getElementType()))
      b.call(RuntimeFn::coopvecMxDequantize,
             {b.constI32(elem), b.slotPointer(codes), b.slotPointer(scales),
              b.constI64(n), b.slotPointer(out)});
    else
      b.call(RuntimeFn::coopvecNvfp4Dequantize,
             {b.slotPointer(codes), b.slotPointer(scales), b.constI64(n),
              b.slotPointer(out)});
    rewriter.replaceOp(op, b.load(resultType, out));
    return success();
  }
};

/// coopvec.matrix_size (a dynamic stride: it did not fold) ->
/// coopvecLayoutDestinationSize; its 0 for invalid arguments is reported as
/// an invalid stride, the only operand that is not static.
class MatrixSizeOpLowering : public RuntimeCallPattern<MatrixSizeOp> {
public:
  using RuntimeCallPattern::RuntimeCallPattern;

  LogicalResult
  matchAndRewrite(MatrixSizeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RuntimeCallBuilder b(rewriter, op);
    Location loc = op.getLoc();
    MatrixDescAttr desc = op.getDesc();
    Value size =
        b.call(RuntimeFn::coopvecLayoutDestinationSize,
               {b.constI32(value(desc.getLayout())),
                b.constI32(desc.getStoredRows()),
                b.constI32(desc.getStoredUnitCols()),
                b.constI32(desc.getElementBytes()),
                b.indexAs(adaptor.getStride(), b.i32())})
            .getResult(0);
    Value invalid = arith::CmpIOp::create(rewriter, loc,
                                          arith::CmpIPredicate::eq, size,
                                          b.constI64(0));
    Value status =
        arith::SelectOp::create(rewriter, loc, invalid,
                                b.constI32(COOPVEC_ERROR_INVALID_STRIDE),
                                b.constI32(COOPVEC_OK));
    b.checkStatus(status);
    rewriter.replaceOp(op, arith::IndexCastOp::create(
                               rewriter, loc, rewriter.getIndexType(), size));
    return success();
  }
};

} // namespace

//===----------------------------------------------------------------------===//
// Pattern population
//===----------------------------------------------------------------------===//

void mlir::coopvec::populateCoopVecToCPUPatterns(RewritePatternSet &patterns,
                                                 unsigned numThreads,
                                                 bool boundsChecks,
                                                 unsigned batchThreads) {
  patterns
      .add<MatVecOpLowering, OuterProductAccumulateOpLowering,
           VectorAccumulateOpLowering, ConvertMatrixOpLowering,
           MatrixSizeOpLowering, ConvertOpLowering, PackOpLowering,
           MXQuantizeOpLowering, MXDequantizeOpLowering, EltwiseMulOpLowering>(
          patterns.getContext(), numThreads, boundsChecks);
  // A batch has the work to keep every core busy.
  patterns.add<BatchMatVecOpLowering, MLPOpLowering, QuantizeRowsOpLowering>(
      patterns.getContext(), batchThreads, boundsChecks);
  populateCoopVecTileToCPUPatterns(patterns);
}

//===----------------------------------------------------------------------===//
// Pass
//===----------------------------------------------------------------------===//

namespace {
struct ConvertCoopVecToCPUPass
    : public coopvec::impl::ConvertCoopVecToCPUBase<ConvertCoopVecToCPUPass> {
  using Base::Base;

  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    // Name the offending op or buffer rather than let the conversion report
    // a generic "failed to legalize".
    WalkResult walk = getOperation()->walk([](Operation *op) {
      if (!isa<CoopVecDialect>(op->getDialect()))
        return WalkResult::advance();
      if (!isa<MatVecOp, OuterProductAccumulateOp, VectorAccumulateOp,
               ConvertMatrixOp, MatrixSizeOp, BatchMatVecOp, MLPOp,
               QuantizeRowsOp, ConvertOp, PackOp, MXQuantizeOp, MXDequantizeOp,
               TilePackOp, TileMmaOp, TilePackDstOp, EltwiseMulOp>(op)) {
        op->emitOpError("is not supported by the CPU target yet");
        return WalkResult::interrupt();
      }
      for (Value operand : op->getOperands()) {
        auto type = dyn_cast<MemRefType>(operand.getType());
        if (!type || type.isLastDimUnitStride())
          continue;
        op->emitOpError() << (type.getRank() == 1 ? "byte buffer " : "batch ")
                          << type
                          << (type.getRank() == 1
                                  ? " must have unit stride for the CPU runtime"
                                  : " must have contiguous rows (unit stride "
                                    "in its last dimension) for the CPU "
                                    "runtime");
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return signalPassFailure();

    ConversionTarget target(*ctx);
    target.addIllegalDialect<CoopVecDialect>();
    target.addLegalDialect<arith::ArithDialect, func::FuncDialect,
                           LLVM::LLVMDialect, memref::MemRefDialect,
                           scf::SCFDialect, vector::VectorDialect>();
    RewritePatternSet patterns(ctx);
    populateCoopVecToCPUPatterns(patterns, numThreads, boundsChecks,
                                 batchThreads);
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
