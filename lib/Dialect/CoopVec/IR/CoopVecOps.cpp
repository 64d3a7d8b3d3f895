//===- CoopVecOps.cpp - coopvec operations and their verifiers ------------===//

#include "LinAlgCoop/Dialect/CoopVec/IR/CoopVecOps.h"
#include "LinAlgCoop/Runtime/Layout.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::coopvec;

#include "LinAlgCoop/Dialect/CoopVec/IR/CoopVecInterfaces.cpp.inc"

//===----------------------------------------------------------------------===//
// Custom directives
//===----------------------------------------------------------------------===//

static ParseResult parseInterp(OpAsmParser &parser, InterpretationAttr &attr) {
  SMLoc loc = parser.getCurrentLocation();
  StringRef name;
  if (parser.parseKeyword(&name))
    return failure();
  std::optional<Interpretation> interp = symbolizeInterpretation(name);
  if (!interp)
    return parser.emitError(loc)
           << "unknown interpretation '" << name << "'; expected one of "
           << listAllowedInterpretations(InterpretationRole::Input);
  attr = InterpretationAttr::get(parser.getContext(), *interp);
  return success();
}

static void printInterp(OpAsmPrinter &printer, Operation *,
                        InterpretationAttr attr) {
  printer << stringifyInterpretation(attr.getValue());
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

static LogicalResult verifyTranspose(Operation *op, MatrixDescAttr desc) {
  if (desc.getTranspose() && desc.isStrided())
    return op->emitOpError() << "transpose is not supported for the "
                             << stringifyMatrixLayout(desc.getLayout())
                             << " layout; use an optimal layout";
  return success();
}

static LogicalResult verifyRole(Operation *op, Interpretation interp,
                                InterpretationRole role) {
  if (isAllowedInterpretation(interp, role))
    return success();
  return op->emitOpError() << stringifyRole(role) << " interpretation "
                           << stringifyInterpretation(interp)
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

LogicalResult MatVecOp::verify() {
  VectorType inputType = getInput().getType();
  VectorType resultType = getResult().getType();
  MatrixDescAttr desc = getMatrixDesc();
  Interpretation inputInterp = getInputInterp();

  if (failed(verifyPhysicalElements(*this, inputType, "input")) ||
      failed(verifyPhysicalElements(*this, resultType, "result")) ||
      failed(verifyUnsignedFlag(*this, getInputUnsigned(), inputType,
                                "input")) ||
      failed(verifyUnsignedFlag(*this, getOutputUnsigned(), resultType,
                                "result")) ||
      failed(verifyRole(*this, inputInterp, InterpretationRole::Input)))
    return failure();

  int64_t k = desc.getCols();
  if (isPacked(inputInterp)) {
    if (!inputType.getElementType().isInteger(32))
      return emitOpError() << "packed interpretation "
                           << stringifyInterpretation(inputInterp)
                           << " needs i32 physical elements, but the input has "
                           << inputType.getElementType();
    int64_t words = llvm::divideCeil(k, 4);
    if (inputType.getNumElements() != words)
      return emitOpError() << "input has " << inputType.getNumElements()
                           << " packed words, but K = " << k << " needs "
                           << words << " (ceil(K/4))";
  } else if (inputType.getNumElements() != k) {
    return emitOpError() << "input has " << inputType.getNumElements()
                         << " elements, but the matrix has K = " << k;
  }
  if (resultType.getNumElements() != desc.getRows())
    return emitOpError() << "result has " << resultType.getNumElements()
                         << " elements, but the matrix has M = "
                         << desc.getRows();

  if (failed(verifyTranspose(*this, desc)) ||
      failed(verifyMatrixStride(*this, desc, getMatrixStride(), "matrix")) ||
      failed(verifyOffset(*this, getMatrixOffset(), 128, "matrix")))
    return failure();

  bool hasBuffer = getBias() != nullptr;
  if (hasBuffer != (getBiasOffset() != nullptr))
    return emitOpError("bias buffer and bias offset must be given together");
  if (hasBuffer != getBiasInterp().has_value())
    return emitOpError(hasBuffer ? "bias needs an interpretation"
                                 : "bias interpretation given without a bias");
  if (!hasBuffer)
    return success();
  if (failed(verifyRole(*this, *getBiasInterp(), InterpretationRole::Bias)))
    return failure();
  return verifyOffset(*this, getBiasOffset(), 64, "bias");
}

void MatVecOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  addBufferEffect(effects, getMatrixMutable(), /*writes=*/false);
  if (getBias())
    addBufferEffect(effects, getBiasMutable()[0], /*writes=*/false);
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
static int floatPrecisionRank(Interpretation interp) {
  switch (interp) {
  case Interpretation::F32:
    return 3;
  case Interpretation::F16:
    return 2;
  case Interpretation::F8_E4M3:
  case Interpretation::F8_E5M2:
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
  Interpretation from = src.getInterpretation();
  Interpretation to = dst.getInterpretation();
  if (from != to) {
    int fromRank = floatPrecisionRank(from), toRank = floatPrecisionRank(to);
    int high = std::max(fromRank, toRank), low = std::min(fromRank, toRank);
    if (high < 2 || low < 1)
      return emitOpError()
             << "cannot convert " << stringifyInterpretation(from) << " to "
             << stringifyInterpretation(to)
             << ": differing types need F32 or F16 on one side and a "
                "lower-precision float type on the other";
  }
  if (isFloat8(to) && !dst.isOptimal())
    return emitOpError() << stringifyInterpretation(to)
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
// MatrixSizeOp
//===----------------------------------------------------------------------===//

LogicalResult MatrixSizeOp::verify() {
  if (getDesc().getTranspose())
    return emitOpError("matrix size queries do not transpose");
  return verifyMatrixStride(*this, getDesc(), getStride(), "matrix");
}

OpFoldResult MatrixSizeOp::fold(FoldAdaptor adaptor) {
  MatrixDescAttr desc = getDesc();
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
      static_cast<uint32_t>(desc.getLayout()), desc.getRows(), desc.getCols(),
      desc.getElementBytes(), static_cast<uint32_t>(stride));
  if (size == 0 || size > static_cast<uint64_t>(INT64_MAX))
    return {};
  return IntegerAttr::get(IndexType::get(getContext()),
                          static_cast<int64_t>(size));
}

#define GET_OP_CLASSES
#include "LinAlgCoop/Dialect/CoopVec/IR/CoopVecOps.cpp.inc"
