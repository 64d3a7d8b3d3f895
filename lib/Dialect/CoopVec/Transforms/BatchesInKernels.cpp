//===- BatchesInKernels.cpp - batch ops inside GPU kernels
//-----------------===//
//
// coopvec.batch_matvec and coopvec.mlp inside a kernel, as loops of
// coopvec.matvec (see BatchesInKernels.h).
//
//===----------------------------------------------------------------------===//

#include "LinAlgCoop/Dialect/CoopVec/Transforms/BatchesInKernels.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::coopvec;

Value mlir::coopvec::loadBytesLittleEndian(OpBuilder &b, Location loc,
                                           Value buffer, Value at,
                                           unsigned bytes) {
  Type wide = b.getIntegerType(8 * bytes);
  Value value;
  for (unsigned i = 0; i < bytes; ++i) {
    Value where =
        i ? Value(arith::AddIOp::create(
                b, loc, at, arith::ConstantIndexOp::create(b, loc, i)))
          : at;
    Value byte = memref::LoadOp::create(b, loc, buffer, ValueRange{where});
    if (bytes == 1)
      return byte;
    Value part = arith::ExtUIOp::create(b, loc, wide, byte);
    if (i)
      part = arith::ShLIOp::create(
          b, loc, part, arith::ConstantIntOp::create(b, loc, wide, 8 * i));
    value = i ? Value(arith::OrIOp::create(b, loc, value, part)) : part;
  }
  return value;
}

Value mlir::coopvec::loadF32Bytes(OpBuilder &b, Location loc, Value buffer,
                                  Value at) {
  return arith::BitcastOp::create(b, loc, b.getF32Type(),
                                  loadBytesLittleEndian(b, loc, buffer, at, 4));
}

Value mlir::coopvec::createRowMatVec(OpBuilder &b, BatchMatVecOp op, Value row,
                                     Value exponents,
                                     const IRMapping *buffers) {
  auto outType = cast<MemRefType>(op.getOutputs().getType());
  auto buffer = [&](Value v) {
    return v && buffers ? buffers->lookupOrDefault(v) : v;
  };
  return MatVecOp::create(
      b, op.getLoc(),
      VectorType::get({outType.getDimSize(1)}, outType.getElementType()), row,
      op.getInputInterpAttr(), op.getInputUnsignedAttr(),
      buffer(op.getMatrix()), op.getMatrixOffset(), op.getMatrixStride(),
      op.getMatrixDescAttr(), buffer(op.getBias()), op.getBiasOffset(),
      op.getBiasInterpAttr(), op.getOutputUnsignedAttr(),
      buffer(op.getScales()), op.getScalesOffset(), op.getFidelityAttr(),
      exponents);
}

/// Replaces `op` by a loop over rows [0, `rows`) of its batch: each row of
/// `inputs` loaded as a vector, `body` of (builder, row index, that vector)
/// stored to the same row of `outputs`.
static void expandRowLoop(Operation *op, Value rows, Value inputs,
                          Value outputs,
                          function_ref<Value(OpBuilder &, Value, Value)> body) {
  auto inType = cast<MemRefType>(inputs.getType());
  OpBuilder b(op);
  Location loc = op->getLoc();
  Value c0 = arith::ConstantIndexOp::create(b, loc, 0);
  auto loop = scf::ForOp::create(b, loc, c0, rows,
                                 arith::ConstantIndexOp::create(b, loc, 1));
  b.setInsertionPointToStart(loop.getBody());
  Value row = loop.getInductionVar();
  Value vector = vector::LoadOp::create(
      b, loc, VectorType::get({inType.getDimSize(1)}, inType.getElementType()),
      inputs, ValueRange{row, c0});
  vector::StoreOp::create(b, loc, body(b, row, vector), outputs,
                          ValueRange{row, c0});
  op->erase();
}

void mlir::coopvec::expandBatchInKernel(BatchMatVecOp op, Value rows) {
  expandRowLoop(
      op, rows, op.getInputs(), op.getOutputs(),
      [&](OpBuilder &b, Value row, Value vector) {
        Value exponents;
        if (Value batch = op.getInputExponents()) {
          auto type = cast<MemRefType>(batch.getType());
          Value c0 = arith::ConstantIndexOp::create(b, op.getLoc(), 0);
          exponents = vector::LoadOp::create(
              b, op.getLoc(),
              VectorType::get({type.getDimSize(1)}, type.getElementType()),
              batch, ValueRange{row, c0});
        }
        return createRowMatVec(b, op, vector, exponents);
      });
}

Value mlir::coopvec::emitMlpRow(OpBuilder &b, MLPOp op, Value row,
                                LoadF32Fn loadF32, const IRMapping *buffers) {
  auto buffer = [&](Value v) {
    return v && buffers ? buffers->lookupOrDefault(v) : v;
  };
  InterpKind weights = op.getLayerDesc(0).getInterpretation().getKind();
  bool int8 = weights == InterpKind::I8;
  Location loc = op.getLoc();
  MLIRContext *ctx = op.getContext();
  auto index = [&](int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  FloatType f32 = b.getF32Type();
  auto interp = [&](InterpKind k) { return InterpretationAttr::get(ctx, k); };
  auto isRelu = [&](unsigned l) {
    return op.getActivations()[l] == static_cast<int32_t>(Activation::Relu);
  };
  Value zero = arith::ConstantFloatOp::create(b, loc, f32, APFloat(0.0f));
  // `f` applied to each element of an f32 vector, in scalar code (a long
  // vector constant could not be split by the SPIR-V lowering).
  auto map = [&](Value v, function_ref<Value(int64_t, Value)> f) {
    auto type = cast<VectorType>(v.getType());
    SmallVector<Value> elements;
    for (int64_t i = 0; i < type.getNumElements(); ++i)
      elements.push_back(f(i, vector::ExtractOp::create(b, loc, v, i)));
    return Value(vector::FromElementsOp::create(b, loc, type, elements));
  };

  Value h = row;
  if (int8)
    h = map(h, [&](int64_t, Value x) {
      return Value(arith::MulFOp::create(b, loc, x, op.getInputScale()));
    });
  for (unsigned l = 0; l < op.getNumLayers(); ++l) {
    MatrixDescAttr desc = op.getLayerDesc(l);
    InterpKind input =
        weights == InterpKind::BF16 ? InterpKind::BF16 : InterpKind::F32;
    if (int8)
      input = l > 0 && isRelu(l - 1) ? InterpKind::U8 : InterpKind::I8;
    Value bias, biasOffset;
    InterpretationAttr biasInterp;
    if (std::optional<unsigned> i = op.getBiasIndex(l)) {
      bias = buffer(op.getBiases()[*i]);
      biasOffset = op.getBiasOffsets()[*i];
      biasInterp = interp(int8 ? InterpKind::I32 : InterpKind::F32);
    }
    Value stride = desc.isStrided() ? op.getWeightStrides()[l] : Value();
    h = MatVecOp::create(b, loc, VectorType::get({desc.getRows()}, f32), h,
                         interp(input), /*input_unsigned=*/nullptr,
                         buffer(op.getWeights()[l]), op.getWeightOffsets()[l],
                         stride, desc, bias, biasOffset, biasInterp,
                         /*output_unsigned=*/nullptr, /*scales=*/Value(),
                         /*scales_offset=*/Value(), /*fidelity=*/nullptr,
                         /*input_exponents=*/Value());
    if (isRelu(l))
      h = map(h, [&](int64_t, Value x) {
        Value positive =
            arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, x, zero);
        return Value(arith::SelectOp::create(b, loc, positive, x, zero));
      });
    if (int8) {
      Value scales = buffer(op.getRequantScales()[l]);
      Value offset = op.getRequantOffsets()[l];
      h = map(h, [&](int64_t r, Value x) {
        Value at = arith::AddIOp::create(b, loc, offset, index(4 * r));
        return Value(
            arith::MulFOp::create(b, loc, x, loadF32(b, loc, scales, at)));
      });
    }
  }
  if (op.getOutputExp())
    h = map(h, [&](int64_t, Value x) {
      return Value(math::ExpOp::create(b, loc, x));
    });
  return h;
}

void mlir::coopvec::expandMlpInKernel(MLPOp op, Value rows, LoadF32Fn loadF32) {
  // The network's inputs are f32 (the verifier's rule), so the loaded row is
  // the first layer's K f32.
  expandRowLoop(op, rows, op.getInputs(), op.getOutputs(),
                [&](OpBuilder &b, Value, Value vector) {
                  return emitMlpRow(b, op, vector, loadF32);
                });
}
