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

/// A grouping along K: `per_tensor` (0) or `group G`.
static ParseResult parseGrouping(OpAsmParser &parser, IntegerAttr &attr) {
  Builder &b = parser.getBuilder();
  if (succeeded(parser.parseOptionalKeyword("per_tensor"))) {
    attr = b.getI64IntegerAttr(0);
    return success();
  }
  int64_t group;
  if (parser.parseKeyword("group") || parser.parseInteger(group))
    return failure();
  attr = b.getI64IntegerAttr(group);
  return success();
}

static void printGrouping(OpAsmPrinter &printer, Operation *,
                          IntegerAttr attr) {
  if (!attr)
    return;
  if (attr.getInt() == 0)
    printer << "per_tensor";
  else
    printer << "group " << attr.getInt();
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

/// The rules of a block-float (BFP8, BFP4) input: `inputType` is one input
/// vector (a row of a batch), `exponentsType` one vector of its shared
/// exponents or null when there is no `exponents` clause.
template <typename OpTy>
static LogicalResult verifyBlockFloatInput(OpTy op, VectorType inputType,
                                           VectorType exponentsType) {
  InterpretationAttr interp = op.getInputInterp();
  if (!interp.isBlockFloat()) {
    if (exponentsType)
      return op.emitOpError() << "exponents are the shared exponents of a "
                                 "block-float (BFP8, BFP4) input, not of "
                              << interp.getName();
    return success();
  }
  if (!op.getFidelityAttr())
    return op.emitOpError() << "a " << interp.getName()
                            << " input is read by the Wormhole unpacker: it "
                               "needs a math-fidelity clause";
  if (!exponentsType)
    return op.emitOpError() << "a " << interp.getName()
                            << " input needs an exponents clause (one shared "
                               "exponent per 16 elements)";
  if (op.getInputUnsigned())
    return op.emitOpError() << "a " << interp.getName()
                            << " input is sign-magnitude: the unsigned flag "
                               "does not apply";
  if (!inputType.getElementType().isInteger(8))
    return op.emitOpError() << "a " << interp.getName()
                            << " input holds its stored bytes: i8 elements, "
                               "not "
                            << inputType.getElementType();
  int64_t k = op.getMatrixDesc().getCols();
  bool nibbles = interp.getKind() == InterpKind::BFP4;
  int64_t bytes = nibbles ? llvm::divideCeil(k, 2) : k;
  if (inputType.getNumElements() != bytes)
    return op.emitOpError()
           << "a " << interp.getName() << " input has "
           << inputType.getNumElements() << " bytes, but K = " << k << " needs "
           << bytes << (nibbles ? " (ceil(K/2))" : "");
  if (!exponentsType.getElementType().isInteger(8))
    return op.emitOpError() << "exponents are bytes (i8), not "
                            << exponentsType.getElementType();
  int64_t blocks = llvm::divideCeil(k, 16);
  if (exponentsType.getNumElements() != blocks)
    return op.emitOpError()
           << "exponents have " << exponentsType.getNumElements()
           << " elements, but K = " << k << " needs " << blocks
           << " (ceil(K/16))";
  return success();
}

/// The rules of a matrix-vector product with input vector type `inputType`
/// and result vector type `resultType` (and a block-float input's exponents
/// `exponentsType`, or null), shared by coopvec.matvec and
/// coopvec.batch_matvec (which applies them to its rows).
template <typename OpTy>
static LogicalResult verifyMatVecLike(OpTy op, VectorType inputType,
                                      VectorType resultType,
                                      VectorType exponentsType) {
  MatrixDescAttr desc = op.getMatrixDesc();
  InterpretationAttr inputInterp = op.getInputInterp();
  Operation *raw = op.getOperation();

  if (failed(verifyBlockFloatInput(op, inputType, exponentsType)))
    return failure();
  bool blockFloatInput = inputInterp.isBlockFloat();
  if ((!blockFloatInput &&
       failed(verifyPhysicalElements(raw, inputType, "input"))) ||
      failed(verifyPhysicalElements(raw, resultType, "result")) ||
      failed(
          verifyUnsignedFlag(raw, op.getInputUnsigned(), inputType, "input")) ||
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
  } else if (!blockFloatInput && inputType.getNumElements() != k) {
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
  if (desc.getInterpretation().isBlockFloat() && !op.getFidelityAttr())
    return op.emitOpError()
           << "a " << desc.getInterpretation().getName()
           << " matrix is read by the Wormhole unpacker: it needs a "
              "math-fidelity clause";

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

/// The rules of the math-fidelity form of a matrix-vector product (the
/// Wormhole model): one Src format for both operands, f32 results that hold
/// either L1 format exactly, and a bias only as the L1 accumulator's start.
template <typename OpTy>
static LogicalResult verifyFidelity(OpTy op, VectorType inputType,
                                    VectorType resultType) {
  MathFidelityAttr fidelity = op.getFidelityAttr();
  InterpretationAttr inputInterp = op.getInputInterp();
  InterpKind kind = inputInterp.getKind();
  if (kind != InterpKind::BF16 && kind != InterpKind::F32 &&
      !inputInterp.isBlockFloat())
    return op.emitOpError() << "math fidelity needs a BF16, F32, BFP8 or "
                               "BFP4 input interpretation (the unpacker's "
                               "BF16 or TF32 Src format), not "
                            << inputInterp.getName();
  // A block float reaches Src as BF16 (the unpacker's BFP8ToBF16).
  InterpretationAttr matrixInterp = op.getMatrixDesc().getInterpretation();
  if (inputInterp.isBlockFloat()) {
    if (matrixInterp.getKind() != InterpKind::BF16 &&
        !matrixInterp.isBlockFloat())
      return op.emitOpError()
             << "math fidelity with a " << inputInterp.getName()
             << " input needs a BF16, BFP8 or BFP4 matrix (the unpacker "
                "decodes block floats to BF16), not "
             << matrixInterp.getName();
  } else if (matrixInterp.isBlockFloat()) {
    if (kind != InterpKind::BF16)
      return op.emitOpError()
             << "math fidelity with a " << matrixInterp.getName()
             << " matrix needs a BF16 input interpretation (the unpacker "
                "decodes block floats to BF16), not "
             << inputInterp.getName();
  } else if (matrixInterp != inputInterp) {
    return op.emitOpError() << "math fidelity needs the matrix interpretation "
                               "to equal the input's ("
                            << inputInterp.getName()
                            << ": one Src format), not "
                            << matrixInterp.getName();
  }
  if (!inputInterp.isBlockFloat() &&
      !isa<FloatType>(inputType.getElementType()))
    return op.emitOpError() << "math fidelity needs float input elements "
                               "(f16 or f32), not "
                            << inputType.getElementType();
  if (!resultType.getElementType().isF32())
    return op.emitOpError() << "math fidelity needs f32 result elements (they "
                               "hold the packer's f32 or bf16 values exactly), "
                               "not "
                            << resultType.getElementType();
  if (!op.getBias())
    return success();
  if (!fidelity.getL1Acc())
    return op.emitOpError("math fidelity takes a bias only with l1_acc: the "
                          "bias is the L1 accumulator's initial value");
  Type pack = fidelity.getL1Format();
  if (op.getBiasInterpAttr().getElementType() != pack)
    return op.emitOpError() << "math fidelity needs the bias interpretation "
                               "to be the packer format "
                            << pack << ", not "
                            << op.getBiasInterpAttr().getName();
  return success();
}

LogicalResult MatVecOp::verify() {
  VectorType exponents = getInputExponents()
                             ? cast<VectorType>(getInputExponents().getType())
                             : VectorType();
  if (failed(verifyMatVecLike(*this, getInput().getType(),
                              getResult().getType(), exponents)))
    return failure();
  if (getFidelityAttr())
    return verifyFidelity(*this, getInput().getType(), getResult().getType());
  return success();
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

/// The storage element type of a quantization value's interpretation in an
/// input-side memref (I8/U8 -> i8, I32 -> i32, floats -> themselves).
static Type getQuantStorageType(InterpretationAttr interp) {
  MLIRContext *ctx = interp.getContext();
  switch (interp.getKind()) {
  case InterpKind::I8:
  case InterpKind::U8:
    return IntegerType::get(ctx, 8);
  case InterpKind::I32:
    return IntegerType::get(ctx, 32);
  case InterpKind::F32:
    return Float32Type::get(ctx);
  case InterpKind::F16:
    return Float16Type::get(ctx);
  case InterpKind::BF16:
    return BFloat16Type::get(ctx);
  default:
    return {};
  }
}

namespace {
/// One quantization clause of a batch_matvec, for the shared checks.
struct QuantClause {
  StringRef name;
  InterpretationAttr interp;
  IntegerAttr group;
  bool present;
  ArrayRef<InterpKind> allowed;
  StringRef allowedText;
  MemRefType memref; ///< Input-side clauses only.
};
} // namespace

/// The rules of the quantized form of coopvec.batch_matvec (see its ODS
/// description), one diagnostic each.
static LogicalResult verifyQuantizedBatch(BatchMatVecOp op) {
  MemRefType inputs = op.getInputs().getType();
  MemRefType outputs = op.getOutputs().getType();
  MatrixDescAttr desc = op.getMatrixDesc();
  int64_t k = desc.getCols(), m = desc.getRows();
  InterpKind matrix = desc.getInterpretation().getKind();
  if (matrix != InterpKind::I8 && matrix != InterpKind::U8 &&
      matrix != InterpKind::I4 && matrix != InterpKind::U4)
    return op.emitOpError() << "a quantized product takes an I8, U8, I4 or U4 "
                               "matrix, but got "
                            << desc.getInterpretation().getName();
  if (desc.isBlockScaled() || op.getScales())
    return op.emitOpError("a quantized product takes no block scales");
  InterpKind input = op.getInputInterp().getKind();
  if (!inputs.getElementType().isInteger(8) ||
      (input != InterpKind::I8 && input != InterpKind::U8) ||
      op.getInputUnsigned())
    return op.emitOpError() << "a quantized product takes i8 input rows read "
                               "as I8 or U8, but got "
                            << inputs.getElementType() << " read as "
                            << op.getInputInterp().getName();
  if (inputs.getDimSize(1) != k)
    return op.emitOpError() << "input rows have " << inputs.getDimSize(1)
                            << " elements, but the matrix has K = " << k;
  Type out = outputs.getElementType();
  if (!(out.isF32() || out.isF16() || out.isBF16() || out.isInteger(32)) ||
      op.getOutputUnsigned())
    return op.emitOpError() << "a quantized product writes f32, f16, bf16 or "
                               "i32 rows, but got "
                            << out;
  if (outputs.getDimSize(1) != m)
    return op.emitOpError() << "output rows have " << outputs.getDimSize(1)
                            << " elements, but the matrix has M = " << m;
  bool scaled = op.getWeightScales() || op.getInputScales();
  if (out.isInteger(32) && scaled)
    return op.emitOpError("an i32 result is the exact integer product and "
                          "takes no scales");
  if (failed(verifyTranspose(op, desc)) ||
      failed(verifyMatrixStride(op, desc, op.getMatrixStride(), "matrix")) ||
      failed(verifyOffset(op, op.getMatrixOffset(), 1, "matrix")))
    return failure();

  if ((op.getBias() != nullptr) != (op.getBiasOffset() != nullptr))
    return op.emitOpError("bias buffer and bias offset must be given together");
  if (op.getBias()) {
    InterpKind bias = op.getBiasInterpAttr().getKind();
    bool ok = out.isInteger(32) ? bias == InterpKind::I32
                                : (bias == InterpKind::F32 ||
                                   bias == InterpKind::F16 ||
                                   bias == InterpKind::BF16);
    if (!ok)
      return op.emitOpError()
             << "the bias of a quantized product with " << out
             << " results must be "
             << (out.isInteger(32) ? "I32" : "F32, F16 or BF16") << ", but is "
             << op.getBiasInterpAttr().getName();
  }

  static constexpr InterpKind kZeroPoints[] = {InterpKind::I8, InterpKind::U8,
                                               InterpKind::I32};
  static constexpr InterpKind kScales[] = {InterpKind::F32, InterpKind::F16,
                                           InterpKind::BF16};
  static constexpr InterpKind kReductions[] = {
      InterpKind::I32, InterpKind::I8, InterpKind::U8};
  auto [inZeroPoints, inScales, reductions] = op.getInputSideClauses();
  auto memrefOf = [](const BatchMatVecOp::InputSideClause &clause) {
    return clause.values ? cast<MemRefType>(clause.values.getType())
                         : MemRefType();
  };
  QuantClause clauses[] = {
      {"weight zero points",
       op.getWeightZeroPointsInterpAttr(),
       op.getWeightZeroPointsGroupAttr(),
       op.getWeightZeroPoints() != nullptr,
       kZeroPoints,
       "I8, U8 or I32",
       {}},
      {"weight scales",
       op.getWeightScalesInterpAttr(),
       op.getWeightScalesGroupAttr(),
       op.getWeightScales() != nullptr,
       kScales,
       "F32, F16 or BF16",
       {}},
      {"input zero points", inZeroPoints.interp, inZeroPoints.group,
       inZeroPoints.values != nullptr, kZeroPoints, "I8, U8 or I32",
       memrefOf(inZeroPoints)},
      {"input scales", inScales.interp, inScales.group,
       inScales.values != nullptr, kScales, "F32, F16 or BF16",
       memrefOf(inScales)},
      {"reductions", reductions.interp, reductions.group,
       reductions.values != nullptr, kReductions, "I32, I8 or U8",
       memrefOf(reductions)},
  };
  for (const QuantClause &c : clauses) {
    if (!c.present)
      continue;
    // The custom form always has both; the generic form may not.
    if (!c.interp || !c.group)
      return op.emitOpError() << c.name
                              << " need an interpretation and a grouping";
    if (!llvm::is_contained(c.allowed, c.interp.getKind()))
      return op.emitOpError() << c.name << " must be " << c.allowedText
                              << ", but are " << c.interp.getName();
    int64_t g = c.group.getInt();
    if (g < 0 || (g > 0 && k % g != 0))
      return op.emitOpError() << c.name << ": group size " << g
                              << " does not divide K = " << k;
    if (!c.memref)
      continue;
    if (c.memref.getElementType() != getQuantStorageType(c.interp))
      return op.emitOpError()
             << c.name << " read as " << c.interp.getName() << " need "
             << getQuantStorageType(c.interp) << " elements, but got "
             << c.memref;
    int64_t cols = g == 0 ? 1 : k / g;
    if (c.memref.getDimSize(1) != cols)
      return op.emitOpError() << c.name << " need " << cols
                              << " columns (one per group of K), but got "
                              << c.memref;
    if (g == 0 && !c.memref.isDynamicDim(0) && c.memref.getDimSize(0) != 1)
      return op.emitOpError() << c.name << " per tensor need one row, but got "
                              << c.memref;
    if (g != 0 && !c.memref.isDynamicDim(0) && !inputs.isDynamicDim(0) &&
        c.memref.getDimSize(0) != inputs.getDimSize(0))
      return op.emitOpError() << c.name << " need one row per input row ("
                              << inputs.getDimSize(0) << "), but got "
                              << c.memref;
  }
  for (auto [buffer, offset] :
       {std::pair(op.getWeightZeroPoints(), op.getWeightZeroPointsOffset()),
        std::pair(op.getWeightScales(), op.getWeightScalesOffset())}) {
    if ((buffer != nullptr) != (offset != nullptr))
      return op.emitOpError("a weight-side quantization buffer and its offset "
                            "must be given together");
    if (buffer && failed(verifyOffset(op, offset, 1, "quantization value")))
      return failure();
  }

  auto groupSize = [&](IntegerAttr group) {
    return !group || group.getInt() == 0 ? k : group.getInt();
  };
  // The compute groups: the finer scale grouping, which must refine the
  // other so that every compute group has one scale of each.
  int64_t sx = groupSize(op.getInputScalesGroupAttr());
  int64_t sw = groupSize(op.getWeightScalesGroupAttr());
  if (sx % sw != 0 && sw % sx != 0)
    return op.emitOpError() << "input scale groups of " << sx
                            << " and weight scale groups of " << sw
                            << " must nest (one size divides the other)";
  int64_t compute = std::min(sx, sw);
  if (!op.getReductions())
    return success();
  if (!op.getWeightZeroPoints())
    return op.emitOpError("reductions require weight zero points");
  int64_t r = op.getReductionsGroupAttr().getInt();
  if (r == 0)
    return op.emitOpError("reductions need the full input mask: one value per "
                          "row and group, not per_tensor");
  int64_t zw = groupSize(op.getWeightZeroPointsGroupAttr());
  if (zw % r != 0)
    return op.emitOpError() << "reduction groups of " << r
                            << " must equal or refine the weight zero points' "
                               "groups of "
                            << zw;
  if (compute % r != 0)
    return op.emitOpError() << "reduction groups of " << r
                            << " straddle the compute groups of " << compute
                            << " (the finer scale grouping)";
  return success();
}

LogicalResult BatchMatVecOp::verify() {
  MemRefType inputs = getInputs().getType(), outputs = getOutputs().getType();
  if (failed(verifyBatchShapes(*this, inputs, outputs)))
    return failure();
  if (isQuantized()) {
    if (getFidelityAttr())
      return emitOpError("math fidelity does not apply to the quantized form "
                         "(integer products have no fidelity phases)");
    if (getInputExponents())
      return emitOpError("exponents are the shared exponents of a "
                         "block-float input; the quantized form takes none");
    return verifyQuantizedBatch(*this);
  }
  // The rules of coopvec.matvec, applied to one row.
  VectorType exponentRow;
  if (Value exponents = getInputExponents()) {
    auto type = cast<MemRefType>(exponents.getType());
    if (type.isDynamicDim(1))
      return emitOpError() << "exponent rows must have a static length, but "
                              "got "
                           << type;
    if (!inputs.isDynamicDim(0) && !type.isDynamicDim(0) &&
        inputs.getDimSize(0) != type.getDimSize(0))
      return emitOpError() << "has " << inputs.getDimSize(0)
                           << " input rows but " << type.getDimSize(0)
                           << " exponent rows";
    exponentRow = getRowType(type);
  }
  if (failed(verifyMatVecLike(*this, getRowType(inputs), getRowType(outputs),
                              exponentRow)))
    return failure();
  if (getFidelityAttr())
    return verifyFidelity(*this, getRowType(inputs), getRowType(outputs));
  return success();
}

//===----------------------------------------------------------------------===//
// QuantizeRowsOp
//===----------------------------------------------------------------------===//

LogicalResult QuantizeRowsOp::verify() {
  MemRefType inputs = getInputs().getType(), outputs = getOutputs().getType();
  if (failed(verifyBatchShapes(*this, inputs, outputs)))
    return failure();
  Type in = inputs.getElementType();
  if (!in.isF32() && !in.isF16())
    return emitOpError() << "quantizes f32 or f16 rows, but got " << in;
  if (!outputs.getElementType().isInteger(8))
    return emitOpError() << "writes i8 rows, but got "
                         << outputs.getElementType();
  int64_t n = inputs.getDimSize(1);
  if (outputs.getDimSize(1) != n)
    return emitOpError() << "output rows have " << outputs.getDimSize(1)
                         << " elements, but input rows " << n;
  int64_t group = getGroup();
  if (group <= 0 || n % group != 0)
    return emitOpError() << "group size " << group
                         << " does not divide the row length " << n;
  InterpKind kind = getOutputInterp().getKind();
  if (kind != InterpKind::I8 && kind != InterpKind::U8)
    return emitOpError() << "quantizes to I8 or U8, but got "
                         << getOutputInterp().getName();
  if (kind == InterpKind::U8 && !getZeroPoints())
    return emitOpError("asymmetric U8 quantization needs zero points");
  if (kind == InterpKind::I8 && getZeroPoints())
    return emitOpError("symmetric I8 quantization takes no zero points");
  Type scale = getScales().getType().getElementType();
  if (!scale.isF32() && !scale.isF16() && !scale.isBF16())
    return emitOpError() << "scales must be f32, f16 or bf16, but got "
                         << scale;
  int64_t groups = n / group;
  for (Value v : {getScales(), getZeroPoints(), getReductions()}) {
    if (!v)
      continue;
    auto type = cast<MemRefType>(v.getType());
    if (v != getScales() && !type.getElementType().isInteger(32))
      return emitOpError() << "zero points and reductions must be i32, but "
                              "got "
                           << type;
    if (type.getDimSize(1) != groups)
      return emitOpError() << "needs " << groups
                           << " columns (one per group), but got " << type;
    if (!type.isDynamicDim(0) && !inputs.isDynamicDim(0) &&
        type.getDimSize(0) != inputs.getDimSize(0))
      return emitOpError() << "has " << inputs.getDimSize(0)
                           << " input rows but " << type;
  }
  return success();
}

void QuantizeRowsOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  addBufferEffect(effects, getInputsMutable(), /*writes=*/false);
  for (OpOperand *operand :
       {&getOutputsMutable(), &getScalesMutable()})
    effects.emplace_back(MemoryEffects::Write::get(), operand,
                         SideEffects::DefaultResource::get());
  for (MutableOperandRange range : {getZeroPointsMutable(),
                                    getReductionsMutable()})
    if (!range.empty())
      effects.emplace_back(MemoryEffects::Write::get(), &range[0],
                           SideEffects::DefaultResource::get());
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
  for (MutableOperandRange range :
       {getWeightZeroPointsMutable(), getWeightScalesMutable(),
        getInputZeroPointsMutable(), getInputScalesMutable(),
        getReductionsMutable(), getInputExponentsMutable()})
    if (!range.empty())
      addBufferEffect(effects, range[0], /*writes=*/false);
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
      weightsInterp.getKind() != InterpKind::F16 &&
      weightsInterp.getKind() != InterpKind::BF16 &&
      weightsInterp.getKind() != InterpKind::I8)
    return emitOpError() << "fused layers take F32, F16, BF16 or I8 weights, "
                            "but layer 0 has "
                         << weightsInterp.getName();
  bool quantized = weightsInterp.getKind() == InterpKind::I8;
  if (getRequantScales().size() != getRequantOffsets().size())
    return emitOpError("needs one offset per requant buffer");
  if (quantized && (!getInputScale() || getRequantScales().size() != numLayers))
    return emitOpError() << "has I8 weights, so it needs an input_scale and a "
                            "requant buffer for each of its "
                         << numLayers << " layers";
  if (!quantized && (getInputScale() || !getRequantScales().empty()))
    return emitOpError() << "input_scale and requant are for I8 weights, but "
                            "the layers have "
                         << weightsInterp.getName() << " weights";
  if (Value scale = getInputScale()) {
    FloatAttr constant;
    if (matchPattern(scale, m_Constant(&constant))) {
      APFloat v = constant.getValue();
      if (!v.isFiniteNonZero() || v.isNegative())
        return emitOpError() << "input_scale must be a positive finite f32, "
                                "but is "
                             << constant.getValueAsDouble();
    }
  }
  for (Value offset : getRequantOffsets())
    if (failed(verifyOffset(*this, offset, 4, "requant")))
      return failure();
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
  for (OpOperand &r : getRequantScalesMutable())
    addBufferEffect(effects, r, /*writes=*/false);
  effects.emplace_back(MemoryEffects::Write::get(), &getOutputsMutable(),
                       SideEffects::DefaultResource::get());
}

// Syntax:
//   coopvec.mlp %in layers [ %w[%off] matrix<...> stride %s
//                            (bias %b[%boff])? (relu | none)
//                            (requant %r[%roff])?, ... ]
//     (input_scale %q)? (exp)? into %out attr-dict
//     : type(%in), type(%out), (weight, bias and requant buffer types in
//       operand order)
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
    // The verifier allows requant only with one buffer per layer.
    if (l < getRequantScales().size() &&
        getRequantScales().size() == getRequantOffsets().size())
      p << " requant " << getRequantScales()[l] << '[' << getRequantOffsets()[l]
        << ']';
  }
  p << ']';
  if (Value scale = getInputScale())
    p << " input_scale " << scale;
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
  for (Value v : getRequantScales())
    p << ", " << v.getType();
}

ParseResult MLPOp::parse(OpAsmParser &parser, OperationState &result) {
  using Operand = OpAsmParser::UnresolvedOperand;
  MLIRContext *ctx = parser.getContext();
  Operand inputs, outputs, inputScale;
  bool hasInputScale = false;
  SmallVector<Operand> weights, offsets, strides, biases, biasOffsets, requants,
      requantOffsets;
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
    if (succeeded(parser.parseOptionalKeyword("requant"))) {
      Operand r, roff;
      if (parser.parseOperand(r) || parser.parseLSquare() ||
          parser.parseOperand(roff) || parser.parseRSquare())
        return failure();
      requants.push_back(r);
      requantOffsets.push_back(roff);
    }
    return success();
  };

  if (parser.parseOperand(inputs) || parser.parseKeyword("layers") ||
      parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Square,
                                     parseLayer))
    return failure();
  if (succeeded(parser.parseOptionalKeyword("input_scale"))) {
    if (parser.parseOperand(inputScale))
      return failure();
    hasInputScale = true;
  }
  if (succeeded(parser.parseOptionalKeyword("exp")))
    result.addAttribute(getOutputExpAttrName(result.name), UnitAttr::get(ctx));
  if (parser.parseKeyword("into") || parser.parseOperand(outputs) ||
      parser.parseOptionalAttrDict(result.attributes) || parser.parseColon())
    return failure();
  SmallVector<Type> types;
  SMLoc typesLoc = parser.getCurrentLocation();
  if (parser.parseTypeList(types))
    return failure();
  size_t expected = 2 + weights.size() + biases.size() + requants.size();
  if (types.size() != expected)
    return parser.emitError(typesLoc)
           << "expected " << expected
           << " types (inputs, outputs, then each weight, bias and requant "
              "buffer), but got "
           << types.size();

  Builder b(ctx);
  Type index = b.getIndexType();
  ArrayRef<Type> weightTypes = ArrayRef(types).slice(2, weights.size());
  ArrayRef<Type> biasTypes =
      ArrayRef(types).slice(2 + weights.size(), biases.size());
  ArrayRef<Type> requantTypes =
      ArrayRef(types).drop_front(2 + weights.size() + biases.size());
  if (parser.resolveOperand(inputs, types[0], result.operands) ||
      parser.resolveOperands(weights, weightTypes, typesLoc, result.operands) ||
      parser.resolveOperands(offsets, index, result.operands) ||
      parser.resolveOperands(strides, index, result.operands) ||
      parser.resolveOperands(biases, biasTypes, typesLoc, result.operands) ||
      parser.resolveOperands(biasOffsets, index, result.operands) ||
      (hasInputScale &&
       parser.resolveOperand(inputScale, b.getF32Type(), result.operands)) ||
      parser.resolveOperands(requants, requantTypes, typesLoc,
                             result.operands) ||
      parser.resolveOperands(requantOffsets, index, result.operands) ||
      parser.resolveOperand(outputs, types[1], result.operands))
    return failure();
  result.addAttribute(getMatricesAttrName(result.name),
                      b.getArrayAttr(matrices));
  result.addAttribute(getBiasLayersAttrName(result.name),
                      b.getDenseI64ArrayAttr(biasLayers));
  result.addAttribute(getActivationsAttrName(result.name),
                      b.getDenseI32ArrayAttr(activations));
  int32_t numLayers = weights.size(), numBiases = biases.size(),
          numRequants = requants.size();
  result.addAttribute(
      getOperandSegmentSizesAttrName(result.name),
      b.getDenseI32ArrayAttr({1, numLayers, numLayers, numLayers, numBiases,
                              numBiases, hasInputScale ? 1 : 0, numRequants,
                              int32_t(requantOffsets.size()), 1}));
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
