//===- CoopVecOps.cpp - coopvec operations and their verifiers ------------===//

#include "LinAlgCoop/Dialect/CoopVec/IR/CoopVecOps.h"
#include "LinAlgCoop/Runtime/Layout.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::coopvec;

#include "LinAlgCoop/Dialect/CoopVec/IR/CoopVecInterfaces.cpp.inc"

//===----------------------------------------------------------------------===//
// Custom directives
//===----------------------------------------------------------------------===//

static ParseResult parseInterp(OpAsmParser &parser, InterpretationAttr &attr) {
  FailureOr<InterpretationAttr> interp = parseInterpretationName(parser);
  if (failed(interp))
    return failure();
  attr = *interp;
  return success();
}

static void printInterp(OpAsmPrinter &printer, Operation *,
                        InterpretationAttr attr) {
  printer << attr.getName();
}

static ParseResult parseOptionalInterp(OpAsmParser &parser,
                                       InterpretationAttr &attr) {
  return parseInterp(parser, attr);
}

static void printOptionalInterp(OpAsmPrinter &printer, Operation *op,
                                InterpretationAttr attr) {
  if (attr)
    printInterp(printer, op, attr);
}

//===----------------------------------------------------------------------===//
// Shared verification rules
//===----------------------------------------------------------------------===//

static std::optional<int64_t> getConstantIndex(Value value) {
  APInt constant;
  if (value && matchPattern(value, m_ConstantInt(&constant)))
    return constant.getSExtValue();
  return std::nullopt;
}

/// Physical elements of the four cooperative-vector operations are 16- or
/// 32-bit integers or floats.
static LogicalResult verifyPhysicalElements(Operation *op, VectorType type,
                                            StringRef what) {
  Type elem = type.getElementType();
  if (elem.isF16() || elem.isF32() || elem.isInteger(16) ||
      elem.isInteger(32))
    return success();
  return op->emitOpError() << what
                           << " elements must be 16- or 32-bit integers or "
                              "floats (f16, f32, i16, i32), but got "
                           << elem;
}

static LogicalResult verifyUnsignedFlag(Operation *op, bool isUnsigned,
                                        VectorType type, StringRef what) {
  if (isUnsigned && !isa<IntegerType>(type.getElementType()))
    return op->emitOpError()
           << "the unsigned flag is only valid for integer vectors, but the "
           << what << " is " << type;
  return success();
}

static LogicalResult verifyOffset(Operation *op, Value offset, int64_t align,
                                  StringRef what) {
  std::optional<int64_t> value = getConstantIndex(offset);
  if (!value)
    return success();
  if (*value < 0)
    return op->emitOpError() << what << " offset must be non-negative, but is "
                             << *value;
  if (*value % align != 0)
    return op->emitOpError() << what << " offset " << *value
                             << " must be a multiple of " << align << " bytes";
  return success();
}

/// Stride rules of a matrix in memory: RowMajor/ColumnMajor need a stride of
/// at least one stored row/column, 16-byte aligned (and, for conversions, a
/// multiple of the element size); optimal layouts ignore it, so it may be
/// omitted or 0.
static LogicalResult verifyMatrixStride(Operation *op, MatrixDescAttr desc,
                                        Value stride, StringRef what,
                                        bool requireAlign16 = true) {
  StringRef layout = stringifyMatrixLayout(desc.getLayout());
  if (desc.isStrided() && !stride)
    return op->emitOpError() << what << " stride is required for the "
                             << layout << " layout";
  std::optional<int64_t> value = getConstantIndex(stride);
  if (!value)
    return success();
  if (*value < 0)
    return op->emitOpError() << what << " stride must be non-negative, but is "
                             << *value;
  if (!desc.isStrided())
    return success();
  if (requireAlign16 && *value % 16 != 0)
    return op->emitOpError() << what << " stride " << *value
                             << " must be a multiple of 16 bytes";
  if (*value % desc.getElementBytes() != 0)
    return op->emitOpError() << what << " stride " << *value
                             << " must be a multiple of the element size ("
                             << desc.getElementBytes() << " bytes)";
  if (*value < desc.getMinStride())
    return op->emitOpError()
           << what << " stride " << *value << " is shorter than one "
           << (desc.getLayout() == MatrixLayout::RowMajor ? "row" : "column")
           << " of the " << layout << " matrix (" << desc.getMinStride()
           << " bytes)";
  return success();
}

/// Only matrix-vector products read block scales.
static LogicalResult verifyNotBlockScaled(Operation *op, MatrixDescAttr desc) {
  if (!desc.isBlockScaled())
    return success();
  return op->emitOpError() << "does not take block-scaled matrices (only "
                              "coopvec.matvec and coopvec.batch_matvec read "
                              "scales)";
}

static LogicalResult verifyTranspose(Operation *op, MatrixDescAttr desc) {
  if (desc.getTranspose() && desc.isStrided())
    return op->emitOpError() << "transpose is not supported for the "
                             << stringifyMatrixLayout(desc.getLayout())
                             << " layout; use an optimal layout";
  return success();
}

static LogicalResult verifyRole(Operation *op, InterpretationAttr interp,
                                InterpretationRole role) {
  if (isAllowedInterpretation(interp, role))
    return success();
  return op->emitOpError() << stringifyRole(role) << " interpretation "
                           << interp.getName()
                           << " is not valid; expected one of "
                           << listAllowedInterpretations(role);
}

static void addBufferEffect(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects,
    OpOperand &buffer, bool writes) {
  effects.emplace_back(MemoryEffects::Read::get(), &buffer,
                       SideEffects::DefaultResource::get());
  if (writes)
    effects.emplace_back(MemoryEffects::Write::get(), &buffer,
                         SideEffects::DefaultResource::get());
}

//===----------------------------------------------------------------------===//
// MatVecOp
//===----------------------------------------------------------------------===//

/// The rules of a matrix-vector product with input vector type `inputType`
/// and result vector type `resultType`, shared by coopvec.matvec and
/// coopvec.batch_matvec (which applies them to its rows).
template <typename OpTy>
static LogicalResult verifyMatVecLike(OpTy op, VectorType inputType,
                                      VectorType resultType) {
  MatrixDescAttr desc = op.getMatrixDesc();
  InterpretationAttr inputInterp = op.getInputInterp();
  Operation *raw = op.getOperation();

  if (failed(verifyPhysicalElements(raw, inputType, "input")) ||
      failed(verifyPhysicalElements(raw, resultType, "result")) ||
      failed(verifyUnsignedFlag(raw, op.getInputUnsigned(), inputType,
                                "input")) ||
      failed(verifyUnsignedFlag(raw, op.getOutputUnsigned(), resultType,
                                "result")) ||
      failed(verifyRole(raw, inputInterp, InterpretationRole::Input)))
    return failure();

  int64_t k = desc.getCols();
  if (inputInterp.getPacked()) {
    if (!inputType.getElementType().isInteger(32))
      return op.emitOpError()
             << "packed interpretation " << inputInterp.getName()
             << " needs i32 physical elements, but the input has "
             << inputType.getElementType();
    int64_t words = llvm::divideCeil(k, 4);
    if (inputType.getNumElements() != words)
      return op.emitOpError() << "input has " << inputType.getNumElements()
                              << " packed words, but K = " << k << " needs "
                              << words << " (ceil(K/4))";
  } else if (inputType.getNumElements() != k) {
    return op.emitOpError() << "input has " << inputType.getNumElements()
                            << " elements, but the matrix has K = " << k;
  }
  if (resultType.getNumElements() != desc.getRows())
    return op.emitOpError() << "result has " << resultType.getNumElements()
                            << " elements, but the matrix has M = "
                            << desc.getRows();

  if (failed(verifyTranspose(raw, desc)) ||
      failed(verifyMatrixStride(raw, desc, op.getMatrixStride(), "matrix")) ||
      failed(verifyOffset(raw, op.getMatrixOffset(), 128, "matrix")))
    return failure();

  if ((op.getScales() != nullptr) != (op.getScalesOffset() != nullptr))
    return op.emitOpError(
        "scales buffer and scales offset must be given together");
  if (desc.isBlockScaled() != (op.getScales() != nullptr))
    return op.emitOpError(desc.isBlockScaled()
                              ? "a block-scaled matrix needs a scales buffer"
                              : "scales given for a matrix without block "
                                "scales");
  if (op.getScales() &&
      failed(verifyOffset(raw, op.getScalesOffset(), 1, "scales")))
    return failure();

  bool hasBuffer = op.getBias() != nullptr;
  if (hasBuffer != (op.getBiasOffset() != nullptr))
    return op.emitOpError(
        "bias buffer and bias offset must be given together");
  if (hasBuffer != static_cast<bool>(op.getBiasInterpAttr()))
    return op.emitOpError(hasBuffer
                              ? "bias needs an interpretation"
                              : "bias interpretation given without a bias");
  if (!hasBuffer)
    return success();
  if (failed(verifyRole(raw, op.getBiasInterpAttr(), InterpretationRole::Bias)))
    return failure();
  return verifyOffset(raw, op.getBiasOffset(), 64, "bias");
}

LogicalResult MatVecOp::verify() {
  return verifyMatVecLike(*this, getInput().getType(), getResult().getType());
}

void MatVecOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  addBufferEffect(effects, getMatrixMutable(), /*writes=*/false);
  if (getBias())
    addBufferEffect(effects, getBiasMutable()[0], /*writes=*/false);
  if (getScales())
    addBufferEffect(effects, getScalesMutable()[0], /*writes=*/false);
}

//===----------------------------------------------------------------------===//
// OuterProductAccumulateOp
//===----------------------------------------------------------------------===//

LogicalResult OuterProductAccumulateOp::verify() {
  VectorType lhsType = getLhs().getType();
  VectorType rhsType = getRhs().getType();
  MatrixDescAttr desc = getMatrixDesc();
  if (failed(verifyPhysicalElements(*this, lhsType, "input")))
    return failure();
  if (lhsType.getElementType() != rhsType.getElementType())
    return emitOpError() << "input vectors must have the same element type, "
                            "but got "
                         << lhsType.getElementType() << " and "
                         << rhsType.getElementType();
  if (lhsType.getNumElements() != desc.getRows())
    return emitOpError() << "first input has " << lhsType.getNumElements()
                         << " elements, but the matrix has M = "
                         << desc.getRows();
  if (rhsType.getNumElements() != desc.getCols())
    return emitOpError() << "second input has " << rhsType.getNumElements()
                         << " elements, but the matrix has N = "
                         << desc.getCols();
  if (desc.getTranspose())
    return emitOpError("outer-product accumulation does not transpose the "
                       "matrix");
  if (failed(verifyNotBlockScaled(*this, desc)))
    return failure();
  if (failed(verifyRole(*this, desc.getInterpretation(),
                        InterpretationRole::Accumulation)) ||
      failed(verifyMatrixStride(*this, desc, getMatrixStride(), "matrix")))
    return failure();
  return verifyOffset(*this, getMatrixOffset(), 128, "matrix");
}

void OuterProductAccumulateOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  addBufferEffect(effects, getMatrixMutable(), /*writes=*/true);
}

//===----------------------------------------------------------------------===//
// VectorAccumulateOp
//===----------------------------------------------------------------------===//

LogicalResult VectorAccumulateOp::verify() {
  if (failed(verifyPhysicalElements(*this, getInput().getType(), "input")))
    return failure();
  return verifyOffset(*this, getOffset(), 64, "accumulation");
}

void VectorAccumulateOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  addBufferEffect(effects, getBufferMutable(), /*writes=*/true);
}

//===----------------------------------------------------------------------===//
// ConvertMatrixOp
//===----------------------------------------------------------------------===//

/// Rank of a float interpretation by precision, for the "one side is
/// FP32/FP16 and the other lower precision" rule.
static int floatPrecisionRank(InterpretationAttr interp) {
  switch (interp.getKind()) {
  case InterpKind::F32:
    return 3;
  case InterpKind::F16:
    return 2;
  case InterpKind::F8_E4M3:
  case InterpKind::F8_E5M2:
    return 1;
  default:
    return 0;
  }
}

LogicalResult ConvertMatrixOp::verify() {
  MatrixDescAttr src = getSrcDesc();
  MatrixDescAttr dst = getDstDesc();
  if (src.getRows() != dst.getRows() || src.getCols() != dst.getCols())
    return emitOpError() << "source is " << src.getRows() << "x"
                         << src.getCols() << " but destination is "
                         << dst.getRows() << "x" << dst.getCols()
                         << "; conversion keeps the shape";
  if (src.getTranspose() || dst.getTranspose())
    return emitOpError("matrix conversion does not transpose");
  if (failed(verifyNotBlockScaled(*this, src)) ||
      failed(verifyNotBlockScaled(*this, dst)))
    return failure();
  InterpretationAttr from = src.getInterpretation();
  InterpretationAttr to = dst.getInterpretation();
  // The conversion API (and the runtime's converter) moves whole elements of
  // the DXIL types; the others are produced by coopvec.mx_quantize or by the
  // host.
  for (InterpretationAttr interp : {from, to})
    if (!interp.isDxil())
      return emitOpError() << "matrix conversion takes the DXIL "
                              "interpretations, but got "
                           << interp.getName();
  if (from != to) {
    int fromRank = floatPrecisionRank(from), toRank = floatPrecisionRank(to);
    int high = std::max(fromRank, toRank), low = std::min(fromRank, toRank);
    if (high < 2 || low < 1)
      return emitOpError()
             << "cannot convert " << from.getName() << " to "
             << to.getName()
             << ": differing types need F32 or F16 on one side and a "
                "lower-precision float type on the other";
  }
  if (to.isFloat8() && !dst.isOptimal())
    return emitOpError() << to.getName()
                         << " destinations need an optimal layout, but got "
                         << stringifyMatrixLayout(dst.getLayout());
  if (failed(verifyMatrixStride(*this, src, getSrcStride(), "source",
                                /*requireAlign16=*/false)) ||
      failed(verifyMatrixStride(*this, dst, getDstStride(), "destination")))
    return failure();
  if (std::optional<int64_t> off = getConstantIndex(getSrcOffset()))
    if (*off < 0)
      return emitOpError() << "source offset must be non-negative, but is "
                           << *off;
  return verifyOffset(*this, getDstOffset(), 128, "destination");
}

void ConvertMatrixOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  addBufferEffect(effects, getSrcMutable(), /*writes=*/false);
  effects.emplace_back(MemoryEffects::Write::get(), &getDstMutable(),
                       SideEffects::DefaultResource::get());
}

//===----------------------------------------------------------------------===//
// Batched and fused ops
//===----------------------------------------------------------------------===//

/// The vector type of one row of a batch memref.
static VectorType getRowType(MemRefType batch) {
  return VectorType::get({batch.getDimSize(1)}, batch.getElementType());
}

static LogicalResult verifyBatchShapes(Operation *op, MemRefType inputs,
                                       MemRefType outputs) {
  for (MemRefType type : {inputs, outputs})
    if (type.isDynamicDim(1))
      return op->emitOpError() << "batch rows must have a static length, but "
                                  "got "
                               << type;
  if (!inputs.isDynamicDim(0) && !outputs.isDynamicDim(0) &&
      inputs.getDimSize(0) != outputs.getDimSize(0))
    return op->emitOpError() << "has " << inputs.getDimSize(0)
                             << " input rows but " << outputs.getDimSize(0)
                             << " output rows";
  return success();
}

//===----------------------------------------------------------------------===//
// BatchMatVecOp
//===----------------------------------------------------------------------===//

LogicalResult BatchMatVecOp::verify() {
  MemRefType inputs = getInputs().getType(), outputs = getOutputs().getType();
  if (failed(verifyBatchShapes(*this, inputs, outputs)))
    return failure();
  // The rules of coopvec.matvec, applied to one row.
  return verifyMatVecLike(*this, getRowType(inputs), getRowType(outputs));
}

void BatchMatVecOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  addBufferEffect(effects, getInputsMutable(), /*writes=*/false);
  addBufferEffect(effects, getMatrixMutable(), /*writes=*/false);
  if (getBias())
    addBufferEffect(effects, getBiasMutable()[0], /*writes=*/false);
  if (getScales())
    addBufferEffect(effects, getScalesMutable()[0], /*writes=*/false);
  effects.emplace_back(MemoryEffects::Write::get(), &getOutputsMutable(),
                       SideEffects::DefaultResource::get());
}

//===----------------------------------------------------------------------===//
// MLPOp
//===----------------------------------------------------------------------===//

std::optional<unsigned> MLPOp::getBiasIndex(unsigned l) {
  for (auto [i, layer] : llvm::enumerate(getBiasLayers()))
    if (layer == static_cast<int64_t>(l))
      return i;
  return std::nullopt;
}

LogicalResult MLPOp::verify() {
  MemRefType inputs = getInputs().getType(), outputs = getOutputs().getType();
  if (failed(verifyBatchShapes(*this, inputs, outputs)))
    return failure();
  if (!inputs.getElementType().isF32() || !outputs.getElementType().isF32())
    return emitOpError() << "inputs and outputs must be f32 rows, but got "
                         << inputs << " and " << outputs;
  unsigned numLayers = getNumLayers();
  if (numLayers == 0)
    return emitOpError("needs at least one layer");
  if (getWeights().size() != numLayers ||
      getWeightOffsets().size() != numLayers ||
      getWeightStrides().size() != numLayers ||
      getActivations().size() != numLayers)
    return emitOpError() << "has " << numLayers
                         << " layers, so it needs that many weights, weight "
                            "offsets, weight strides and activations";
  if (getBiases().size() != getBiasOffsets().size() ||
      getBiases().size() != getBiasLayers().size())
    return emitOpError("needs one bias offset and one layer index per bias");
  int64_t previous = -1;
  for (int64_t layer : getBiasLayers()) {
    if (layer <= previous || layer >= static_cast<int64_t>(numLayers))
      return emitOpError() << "bias layer indices must increase and be below "
                           << numLayers << ", but got " << layer;
    previous = layer;
  }

  InterpretationAttr weightsInterp = getLayerDesc(0).getInterpretation();
  if (weightsInterp.getKind() != InterpKind::F32 &&
      weightsInterp.getKind() != InterpKind::F16)
    return emitOpError() << "fused layers take F32 or F16 weights, but layer "
                            "0 has "
                         << weightsInterp.getName();
  int64_t width = inputs.getDimSize(1);
  for (unsigned l = 0; l < numLayers; ++l) {
    MatrixDescAttr desc = getLayerDesc(l);
    if (desc.getInterpretation() != weightsInterp)
      return emitOpError() << "every layer must have "
                           << weightsInterp.getName() << " weights, but layer "
                           << l << " has " << desc.getInterpretation().getName();
    if (desc.getCols() != width)
      return emitOpError() << "layer " << l << " takes K = " << desc.getCols()
                           << " values, but receives " << width;
    if (!symbolizeActivation(getActivations()[l]))
      return emitOpError() << "layer " << l << " has an unknown activation "
                           << getActivations()[l];
    if (failed(verifyTranspose(*this, desc)) ||
        failed(verifyMatrixStride(*this, desc, getWeightStrides()[l],
                                  "matrix")) ||
        failed(verifyOffset(*this, getWeightOffsets()[l], 128, "matrix")))
      return failure();
    width = desc.getRows();
  }
  if (width != outputs.getDimSize(1))
    return emitOpError() << "the last layer produces " << width
                         << " values, but output rows hold "
                         << outputs.getDimSize(1);
  for (Value offset : getBiasOffsets())
    if (failed(verifyOffset(*this, offset, 64, "bias")))
      return failure();
  return success();
}

void MLPOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  addBufferEffect(effects, getInputsMutable(), /*writes=*/false);
  for (OpOperand &w : getWeightsMutable())
    addBufferEffect(effects, w, /*writes=*/false);
  for (OpOperand &b : getBiasesMutable())
    addBufferEffect(effects, b, /*writes=*/false);
  effects.emplace_back(MemoryEffects::Write::get(), &getOutputsMutable(),
                       SideEffects::DefaultResource::get());
}

// Syntax:
//   coopvec.mlp %in layers [ %w[%off] matrix<...> stride %s
//                            (bias %b[%boff])? (relu | none), ... ]
//     (exp)? into %out attr-dict
//     : type(%in), type(%out), (weight and bias buffer types in operand order)
void MLPOp::print(OpAsmPrinter &p) {
  p << ' ' << getInputs() << " layers [";
  for (unsigned l = 0; l < getNumLayers(); ++l) {
    if (l)
      p << ", ";
    p << getWeights()[l] << '[' << getWeightOffsets()[l] << "] matrix";
    p.printStrippedAttrOrType(getLayerDesc(l));
    p << " stride " << getWeightStrides()[l];
    if (std::optional<unsigned> b = getBiasIndex(l))
      p << " bias " << getBiases()[*b] << '[' << getBiasOffsets()[*b] << ']';
    std::optional<Activation> act = symbolizeActivation(getActivations()[l]);
    p << ' ' << (act ? stringifyActivation(*act) : "?");
  }
  p << ']';
  if (getOutputExp())
    p << " exp";
  p << " into " << getOutputs();
  p.printOptionalAttrDict((*this)->getAttrs(),
                          {getMatricesAttrName(), getBiasLayersAttrName(),
                           getActivationsAttrName(), getOutputExpAttrName(),
                           getOperandSegmentSizesAttrName()});
  p << " : " << getInputs().getType() << ", " << getOutputs().getType();
  for (Value v : getWeights())
    p << ", " << v.getType();
  for (Value v : getBiases())
    p << ", " << v.getType();
}

ParseResult MLPOp::parse(OpAsmParser &parser, OperationState &result) {
  using Operand = OpAsmParser::UnresolvedOperand;
  MLIRContext *ctx = parser.getContext();
  Operand inputs, outputs;
  SmallVector<Operand> weights, offsets, strides, biases, biasOffsets;
  SmallVector<Attribute> matrices;
  SmallVector<int64_t> biasLayers;
  SmallVector<int32_t> activations;

  auto parseLayer = [&]() -> ParseResult {
    Operand w, off, stride;
    MatrixDescAttr desc;
    if (parser.parseOperand(w) || parser.parseLSquare() ||
        parser.parseOperand(off) || parser.parseRSquare() ||
        parser.parseKeyword("matrix") ||
        parser.parseCustomAttributeWithFallback(desc) ||
        parser.parseKeyword("stride") || parser.parseOperand(stride))
      return failure();
    weights.push_back(w);
    offsets.push_back(off);
    strides.push_back(stride);
    matrices.push_back(desc);
    if (succeeded(parser.parseOptionalKeyword("bias"))) {
      Operand b, boff;
      if (parser.parseOperand(b) || parser.parseLSquare() ||
          parser.parseOperand(boff) || parser.parseRSquare())
        return failure();
      biases.push_back(b);
      biasOffsets.push_back(boff);
      biasLayers.push_back(matrices.size() - 1);
    }
    SMLoc loc = parser.getCurrentLocation();
    StringRef name;
    if (parser.parseKeyword(&name))
      return failure();
    std::optional<Activation> act = symbolizeActivation(name);
    if (!act)
      return parser.emitError(loc) << "unknown activation '" << name
                                   << "'; expected relu or none";
    activations.push_back(static_cast<int32_t>(*act));
    return success();
  };

  if (parser.parseOperand(inputs) || parser.parseKeyword("layers") ||
      parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Square,
                                     parseLayer))
    return failure();
  if (succeeded(parser.parseOptionalKeyword("exp")))
    result.addAttribute(getOutputExpAttrName(result.name), UnitAttr::get(ctx));
  if (parser.parseKeyword("into") || parser.parseOperand(outputs) ||
      parser.parseOptionalAttrDict(result.attributes) || parser.parseColon())
    return failure();
  SmallVector<Type> types;
  SMLoc typesLoc = parser.getCurrentLocation();
  if (parser.parseTypeList(types))
    return failure();
  size_t expected = 2 + weights.size() + biases.size();
  if (types.size() != expected)
    return parser.emitError(typesLoc)
           << "expected " << expected
           << " types (inputs, outputs, then each weight and bias buffer), "
              "but got "
           << types.size();

  Builder b(ctx);
  Type index = b.getIndexType();
  ArrayRef<Type> weightTypes = ArrayRef(types).slice(2, weights.size());
  ArrayRef<Type> biasTypes = ArrayRef(types).drop_front(2 + weights.size());
  if (parser.resolveOperand(inputs, types[0], result.operands) ||
      parser.resolveOperands(weights, weightTypes, typesLoc, result.operands) ||
      parser.resolveOperands(offsets, index, result.operands) ||
      parser.resolveOperands(strides, index, result.operands) ||
      parser.resolveOperands(biases, biasTypes, typesLoc, result.operands) ||
      parser.resolveOperands(biasOffsets, index, result.operands) ||
      parser.resolveOperand(outputs, types[1], result.operands))
    return failure();
  result.addAttribute(getMatricesAttrName(result.name),
                      b.getArrayAttr(matrices));
  result.addAttribute(getBiasLayersAttrName(result.name),
                      b.getDenseI64ArrayAttr(biasLayers));
  result.addAttribute(getActivationsAttrName(result.name),
                      b.getDenseI32ArrayAttr(activations));
  int32_t numLayers = weights.size(), numBiases = biases.size();
  result.addAttribute(getOperandSegmentSizesAttrName(result.name),
                      b.getDenseI32ArrayAttr({1, numLayers, numLayers,
                                              numLayers, numBiases, numBiases,
                                              1}));
  return success();
}

//===----------------------------------------------------------------------===//
// MatrixSizeOp
//===----------------------------------------------------------------------===//

LogicalResult MatrixSizeOp::verify() {
  if (getDesc().getTranspose())
    return emitOpError("matrix size queries do not transpose");
  return verifyMatrixStride(*this, getDesc(), getStride(), "matrix");
}

OpFoldResult MatrixSizeOp::fold(FoldAdaptor adaptor) {
  MatrixDescAttr desc = getDesc();
  // An optimal layout's size is the target's: it folds only where the module
  // names its target (coopvec.profile). The folded value is the host's
  // layout math, the one the CPU runtime and the DXIL driver implement;
  // without a target the query stays for the lowering (a runtime call).
  if (desc.isOptimal()) {
    auto module = (*this)->getParentOfType<ModuleOp>();
    if (!module || !module->hasAttr(CoopVecDialect::getProfileAttrName()))
      return {};
  }
  int64_t stride = 0;
  if (getStride()) {
    auto strideAttr = dyn_cast_or_null<IntegerAttr>(adaptor.getStride());
    if (!strideAttr)
      return {};
    stride = strideAttr.getInt();
  }
  // The runtime's layout math is the one definition of every layout's size.
  if (stride < 0 || stride > UINT32_MAX)
    return {};
  uint64_t size = coopvecLayoutDestinationSize(
      static_cast<uint32_t>(desc.getLayout()), desc.getStoredRows(),
      desc.getStoredUnitCols(), desc.getElementBytes(),
      static_cast<uint32_t>(stride));
  if (size == 0 || size > static_cast<uint64_t>(INT64_MAX))
    return {};
  return IntegerAttr::get(IndexType::get(getContext()),
                          static_cast<int64_t>(size));
}

#define GET_OP_CLASSES
#include "LinAlgCoop/Dialect/CoopVec/IR/CoopVecOps.cpp.inc"
