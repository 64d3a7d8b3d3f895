//===- SupportRequirements.cpp - what each coopvec op needs from a target -===//
//
// The ops' SupportRequirementsOpInterface implementations: each op says what
// it needs (rows, features); --coopvec-check-support matches it against a
// profile without knowing the op.
//
//===----------------------------------------------------------------------===//

#include "LinAlgCoop/Dialect/CoopVec/IR/CoopVecOps.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::coopvec;
using Req = SupportRequirement;
using RK = SupportRequirement::Kind;

StringRef mlir::coopvec::getElementTypeFeature(Type type) {
  type = getElementTypeOrSelf(type);
  if (isa<Float8E4M3FNType, Float8E5M2Type>(type))
    return "fp8";
  if (isa<Float6E2M3FNType, Float6E3M2FNType>(type))
    return "fp6";
  if (isa<Float4E2M1FNType>(type))
    return "fp4";
  if (isa<Float8E8M0FNUType>(type))
    return "e8m0";
  if (type.isBF16())
    return "bf16";
  if (type.isTF32())
    return "tf32";
  return "";
}

/// A MatVec requirement; physical types that no interpretation names
/// (bf16 vectors) leave `input`/`output` null, which only a wildcard row
/// matches.
static Req matVecRequirement(InterpretationAttr interp, Type inputElem,
                             bool inputUnsigned, MatrixDescAttr desc,
                             InterpretationAttr bias, Type outputElem,
                             bool outputUnsigned) {
  MLIRContext *ctx = desc.getContext();
  Req r(RK::MatVec);
  r.matrix = desc;
  r.bias = bias;
  if (interp.getKind() == InterpKind::PackedS8x32) {
    r.input = interp;
    r.inputInterp = InterpretationAttr::get(ctx, InterpKind::I8);
  } else if (interp.getKind() == InterpKind::PackedU8x32) {
    r.input = interp;
    r.inputInterp = InterpretationAttr::get(ctx, InterpKind::U8);
  } else if (interp.isBlockFloat()) {
    // A block-float input's elements are its stored bytes.
    r.input = InterpretationAttr::get(ctx, InterpKind::I8);
    r.inputInterp = interp;
  } else {
    FailureOr<InterpretationAttr> physical =
        getPhysicalInterpretation(inputElem, inputUnsigned);
    r.input = succeeded(physical) ? *physical : InterpretationAttr();
    r.inputInterp = interp;
  }
  FailureOr<InterpretationAttr> output =
      getPhysicalInterpretation(outputElem, outputUnsigned);
  r.output = succeeded(output) ? *output : InterpretationAttr();
  return r;
}

static void addElementFeatures(SmallVectorImpl<Req> &reqs, TypeRange types) {
  for (Type type : types) {
    StringRef feature = getElementTypeFeature(type);
    if (!feature.empty() &&
        llvm::none_of(reqs, [&](const Req &r) {
          return r.kind == RK::Feature && r.feature == feature;
        }))
      reqs.push_back(Req::getFeature(feature));
  }
}

/// A block-scaled matrix needs the target's block-scaled products and its
/// scale type; a block-float one (BFP8, BFP4: its block scales are its
/// shared exponents) the target's block-float unpacking.
static void addBlockScaleRequirements(SmallVectorImpl<Req> &reqs,
                                      MatrixDescAttr desc) {
  if (!desc.isBlockScaled())
    return;
  if (desc.getInterpretation().isBlockFloat()) {
    reqs.push_back(Req::getFeature("bfp"));
    return;
  }
  reqs.push_back(Req::getFeature("block_scale"));
  addElementFeatures(reqs, desc.getScaleType());
}

/// A block-float input (BFP8, BFP4 with exponents) needs the target's
/// block-float unpacking, as a block-float matrix does.
static void addBlockFloatInputRequirement(SmallVectorImpl<Req> &reqs,
                                          InterpretationAttr input,
                                          MatrixDescAttr desc) {
  if (input.isBlockFloat() && !desc.getInterpretation().isBlockFloat())
    reqs.push_back(Req::getFeature("bfp"));
}

void MatVecOp::getSupportRequirements(SmallVectorImpl<Req> &reqs) {
  if (getFidelityAttr())
    reqs.push_back(Req::getFeature("math_fidelity"));
  addBlockScaleRequirements(reqs, getMatrixDesc());
  addBlockFloatInputRequirement(reqs, getInputInterp(), getMatrixDesc());
  reqs.push_back(matVecRequirement(
      getInputInterp(), getInput().getType().getElementType(),
      getInputUnsigned(), getMatrixDesc(), getBiasInterpAttr(),
      getResult().getType().getElementType(), getOutputUnsigned()));
}

void BatchMatVecOp::getSupportRequirements(SmallVectorImpl<Req> &reqs) {
  reqs.push_back(Req::getFeature("batch_matvec"));
  // The quantized form (i8 rows of stored values, zero points, scales,
  // reductions) has the verifier's type rules, not a matrix-vector row: a
  // target runs all of it or none.
  if (isQuantized()) {
    reqs.push_back(Req::getFeature("quantized"));
    return;
  }
  if (getFidelityAttr())
    reqs.push_back(Req::getFeature("math_fidelity"));
  addBlockScaleRequirements(reqs, getMatrixDesc());
  addBlockFloatInputRequirement(reqs, getInputInterp(), getMatrixDesc());
  reqs.push_back(matVecRequirement(
      getInputInterp(), getInputs().getType().getElementType(),
      getInputUnsigned(), getMatrixDesc(), getBiasInterpAttr(),
      getOutputs().getType().getElementType(), getOutputUnsigned()));
}

void MLPOp::getSupportRequirements(SmallVectorImpl<Req> &reqs) {
  reqs.push_back(Req::getFeature("mlp"));
  MLIRContext *ctx = getContext();
  auto f32 = InterpretationAttr::get(ctx, InterpKind::F32);
  ArrayRef<int64_t> biasLayers = getBiasLayers();
  for (auto [layer, desc] :
       llvm::enumerate(getMatrices().getAsRange<MatrixDescAttr>())) {
    Req r(RK::MatVec);
    r.input = r.inputInterp = r.output = f32;
    // BF16 layers read their inputs as BF16, I8 layers as I8, or U8 after
    // a ReLU, with I32 biases (see the op's description).
    InterpKind kind = desc.getInterpretation().getKind();
    bool quantized = kind == InterpKind::I8;
    if (kind == InterpKind::BF16)
      r.inputInterp = desc.getInterpretation();
    if (quantized)
      r.inputInterp = InterpretationAttr::get(
          ctx, layer > 0 && getActivations()[layer - 1] ==
                                static_cast<int32_t>(Activation::Relu)
                   ? InterpKind::U8
                   : InterpKind::I8);
    r.matrix = desc;
    if (llvm::is_contained(biasLayers, int64_t(layer)))
      r.bias = quantized ? InterpretationAttr::get(ctx, InterpKind::I32) : f32;
    reqs.push_back(r);
  }
}

void OuterProductAccumulateOp::getSupportRequirements(
    SmallVectorImpl<Req> &reqs) {
  Req r(RK::OuterProduct);
  r.elementType = getLhs().getType().getElementType();
  FailureOr<InterpretationAttr> input =
      getPhysicalInterpretation(r.elementType, /*isUnsigned=*/false);
  r.input = succeeded(input) ? *input : InterpretationAttr();
  r.matrix = getMatrixDesc();
  APInt stride;
  Value s = getMatrixStride();
  r.mayHaveStride =
      s && !(matchPattern(s, m_ConstantInt(&stride)) && stride.isZero());
  reqs.push_back(r);
}

void VectorAccumulateOp::getSupportRequirements(SmallVectorImpl<Req> &reqs) {
  Req r(RK::VectorAccumulate);
  r.elementType = getInput().getType().getElementType();
  FailureOr<InterpretationAttr> input =
      getPhysicalInterpretation(r.elementType, /*isUnsigned=*/false);
  r.input = succeeded(input) ? *input : InterpretationAttr();
  reqs.push_back(r);
}

void ConvertMatrixOp::getSupportRequirements(SmallVectorImpl<Req> &reqs) {
  for (MatrixDescAttr desc : {getSrcDesc(), getDstDesc()}) {
    Req r(RK::MatrixStorage);
    r.matrix = desc;
    reqs.push_back(r);
  }
}

// A size query is answered at compile time or by the host's layout math: it
// needs nothing from the target.
void MatrixSizeOp::getSupportRequirements(SmallVectorImpl<Req> &) {}

void ConvertOp::getSupportRequirements(SmallVectorImpl<Req> &reqs) {
  reqs.push_back(Req::getFeature("convert"));
  addElementFeatures(reqs, {getInput().getType(), getResult().getType()});
}

void PackOp::getSupportRequirements(SmallVectorImpl<Req> &reqs) {
  reqs.push_back(Req::getFeature("pack"));
  addElementFeatures(reqs, {getFormat()});
}

void MXQuantizeOp::getSupportRequirements(SmallVectorImpl<Req> &reqs) {
  reqs.push_back(Req::getFeature("mx"));
  addElementFeatures(reqs, {getElements().getType(), getScales().getType()});
}

void MXDequantizeOp::getSupportRequirements(SmallVectorImpl<Req> &reqs) {
  reqs.push_back(Req::getFeature("mx"));
  addElementFeatures(reqs, {getElements().getType(), getScales().getType()});
}

void EltwiseMulOp::getSupportRequirements(SmallVectorImpl<Req> &reqs) {
  reqs.push_back(Req::getFeature("math_fidelity"));
  addElementFeatures(reqs, {getLhs().getType()});
}

// The tiled form: a target that runs it lists `tile_mma` (the CPU does; the
// tile shapes a target multiplies are its profile rows' `tiles`).
void TilePackOp::getSupportRequirements(SmallVectorImpl<Req> &reqs) {
  reqs.push_back(Req::getFeature("tile_mma"));
}

void TilePackDstOp::getSupportRequirements(SmallVectorImpl<Req> &reqs) {
  reqs.push_back(Req::getFeature("tile_mma"));
  reqs.push_back(Req::getFeature("math_fidelity"));
}

void TileMmaOp::getSupportRequirements(SmallVectorImpl<Req> &reqs) {
  reqs.push_back(Req::getFeature("tile_mma"));
  if (getFidelityAttr())
    reqs.push_back(Req::getFeature("math_fidelity"));
  addElementFeatures(reqs, {getLhs().getType(), getRhs().getType()});
}
