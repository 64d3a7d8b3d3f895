//===- CoopVecAttrs.cpp - coopvec enums, attributes and their rules -------===//

#include "LinAlgCoop/Dialect/CoopVec/IR/CoopVecAttrs.h"
#include "LinAlgCoop/Dialect/CoopVec/IR/CoopVecDialect.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::coopvec;

#include "LinAlgCoop/Dialect/CoopVec/IR/CoopVecEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "LinAlgCoop/Dialect/CoopVec/IR/CoopVecAttrs.cpp.inc"

void CoopVecDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "LinAlgCoop/Dialect/CoopVec/IR/CoopVecAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// Interpretation tables
//===----------------------------------------------------------------------===//

bool mlir::coopvec::isPacked(Interpretation interp) {
  return interp == Interpretation::PackedS8x32 ||
         interp == Interpretation::PackedU8x32;
}

bool mlir::coopvec::isFloat8(Interpretation interp) {
  return interp == Interpretation::F8_E4M3 || interp == Interpretation::F8_E5M2;
}

bool mlir::coopvec::isFloat(Interpretation interp) {
  return interp == Interpretation::F16 || interp == Interpretation::F32 ||
         isFloat8(interp);
}

bool mlir::coopvec::isUnsigned(Interpretation interp) {
  switch (interp) {
  case Interpretation::U8:
  case Interpretation::U16:
  case Interpretation::U32:
  case Interpretation::PackedU8x32:
    return true;
  default:
    return false;
  }
}

unsigned mlir::coopvec::getElementBytes(Interpretation interp) {
  switch (interp) {
  case Interpretation::U8:
  case Interpretation::I8:
  case Interpretation::F8_E4M3:
  case Interpretation::F8_E5M2:
    return 1;
  case Interpretation::I16:
  case Interpretation::U16:
  case Interpretation::F16:
    return 2;
  case Interpretation::I32:
  case Interpretation::U32:
  case Interpretation::F32:
  case Interpretation::PackedS8x32:
  case Interpretation::PackedU8x32:
    return 4;
  }
  llvm_unreachable("unknown interpretation");
}

bool mlir::coopvec::isAllowedInterpretation(Interpretation interp,
                                            InterpretationRole role) {
  // Input vectors accept every interpretation; memory (matrix, bias,
  // accumulation) accepts every non-packed one.
  if (role == InterpretationRole::Input)
    return true;
  return !isPacked(interp);
}

StringRef mlir::coopvec::stringifyRole(InterpretationRole role) {
  switch (role) {
  case InterpretationRole::Input:
    return "input";
  case InterpretationRole::Matrix:
    return "matrix";
  case InterpretationRole::Bias:
    return "bias";
  case InterpretationRole::Accumulation:
    return "accumulation";
  }
  llvm_unreachable("unknown role");
}

std::string mlir::coopvec::listAllowedInterpretations(InterpretationRole role) {
  SmallVector<StringRef> names;
  for (uint32_t v = 0; v <= getMaxEnumValForInterpretation(); ++v)
    if (std::optional<Interpretation> interp = symbolizeInterpretation(v))
      if (isAllowedInterpretation(*interp, role))
        names.push_back(stringifyInterpretation(*interp));
  return llvm::join(names, ", ");
}

FailureOr<Interpretation>
mlir::coopvec::getPhysicalInterpretation(Type elementType, bool isUnsigned) {
  if (elementType.isF16())
    return Interpretation::F16;
  if (elementType.isF32())
    return Interpretation::F32;
  if (elementType.isInteger(16))
    return isUnsigned ? Interpretation::U16 : Interpretation::I16;
  if (elementType.isInteger(32))
    return isUnsigned ? Interpretation::U32 : Interpretation::I32;
  return failure();
}

Type mlir::coopvec::getStorageType(MLIRContext *ctx, Interpretation interp) {
  Builder b(ctx);
  switch (interp) {
  case Interpretation::I16:
  case Interpretation::U16:
    return b.getIntegerType(16);
  case Interpretation::I32:
  case Interpretation::U32:
  case Interpretation::PackedS8x32:
  case Interpretation::PackedU8x32:
    return b.getIntegerType(32);
  case Interpretation::I8:
  case Interpretation::U8:
    return b.getIntegerType(8);
  case Interpretation::F16:
    return b.getF16Type();
  case Interpretation::F32:
    return b.getF32Type();
  case Interpretation::F8_E4M3:
    return b.getType<Float8E4M3FNType>();
  case Interpretation::F8_E5M2:
    return b.getType<Float8E5M2Type>();
  }
  llvm_unreachable("unknown interpretation");
}

std::optional<MatrixLayout> mlir::coopvec::parseMatrixLayout(StringRef name) {
  if (name == "MulOptimal")
    return MatrixLayout::InferencingOptimal;
  if (name == "OuterProductOptimal")
    return MatrixLayout::TrainingOptimal;
  return symbolizeMatrixLayout(name);
}

//===----------------------------------------------------------------------===//
// MatrixDescAttr
//===----------------------------------------------------------------------===//

unsigned MatrixDescAttr::getElementBytes() const {
  return coopvec::getElementBytes(getInterpretation());
}

bool MatrixDescAttr::isStrided() const {
  return getLayout() == MatrixLayout::RowMajor ||
         getLayout() == MatrixLayout::ColumnMajor;
}

int64_t MatrixDescAttr::getMinStride() const {
  int64_t elems = getLayout() == MatrixLayout::RowMajor ? getStoredCols()
                                                        : getStoredRows();
  return elems * getElementBytes();
}

LogicalResult
MatrixDescAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                       Interpretation interpretation, int64_t rows,
                       int64_t cols, MatrixLayout layout, bool transpose) {
  for (auto [name, dim] : {std::pair<StringRef, int64_t>{"M", rows},
                           std::pair<StringRef, int64_t>{"K", cols}})
    if (dim < 1 || dim > kMaxMatrixDim)
      return emitError() << "matrix dimension " << name << " = " << dim
                         << " is out of range [1, " << kMaxMatrixDim << "]";
  if (!isAllowedInterpretation(interpretation, InterpretationRole::Matrix))
    return emitError() << "matrix interpretation "
                       << stringifyInterpretation(interpretation)
                       << " is packed; packed interpretations are only "
                          "valid for input vectors";
  return success();
}

/// Parses an interpretation keyword with a diagnostic that lists the valid
/// names.
static FailureOr<Interpretation> parseInterpretationKeyword(AsmParser &parser) {
  SMLoc loc = parser.getCurrentLocation();
  StringRef name;
  if (parser.parseKeyword(&name))
    return failure();
  if (std::optional<Interpretation> interp = symbolizeInterpretation(name))
    return *interp;
  return parser.emitError(loc)
         << "unknown interpretation '" << name << "'; expected one of "
         << listAllowedInterpretations(InterpretationRole::Input);
}

Attribute MatrixDescAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseLess())
    return {};
  FailureOr<Interpretation> interp = parseInterpretationKeyword(parser);
  if (failed(interp) || parser.parseComma())
    return {};
  SmallVector<int64_t, 2> dims;
  SMLoc dimsLoc = parser.getCurrentLocation();
  if (parser.parseDimensionList(dims, /*allowDynamic=*/false,
                                /*withTrailingX=*/false))
    return {};
  if (dims.size() != 2) {
    parser.emitError(dimsLoc, "expected matrix shape MxK");
    return {};
  }
  if (parser.parseComma())
    return {};
  SMLoc layoutLoc = parser.getCurrentLocation();
  StringRef layoutName;
  if (parser.parseKeyword(&layoutName))
    return {};
  std::optional<MatrixLayout> layout = parseMatrixLayout(layoutName);
  if (!layout) {
    parser.emitError(layoutLoc)
        << "unknown matrix layout '" << layoutName
        << "'; expected RowMajor, ColumnMajor, InferencingOptimal (MulOptimal) "
           "or TrainingOptimal (OuterProductOptimal)";
    return {};
  }
  bool transpose = false;
  if (succeeded(parser.parseOptionalComma())) {
    if (parser.parseKeyword("transpose"))
      return {};
    transpose = true;
  }
  if (parser.parseGreater())
    return {};
  return parser.getChecked<MatrixDescAttr>(loc, parser.getContext(), *interp,
                                           dims[0], dims[1], *layout,
                                           transpose);
}

void MatrixDescAttr::print(AsmPrinter &printer) const {
  printer << '<' << stringifyInterpretation(getInterpretation()) << ", "
          << getRows() << 'x' << getCols() << ", "
          << stringifyMatrixLayout(getLayout());
  if (getTranspose())
    printer << ", transpose";
  printer << '>';
}

//===----------------------------------------------------------------------===//
// ProfileAttr
//===----------------------------------------------------------------------===//

LogicalResult
ProfileAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                    StringAttr name, SupportTier tier, ArrayAttr matvec,
                    ArrayAttr outerProduct, ArrayAttr vectorAccumulate,
                    bool fp8OptimalOnly, bool outerProductTrainingOptimalOnly) {
  if (!name || name.getValue().empty())
    return emitError() << "profile name must not be empty";
  for (Attribute entry : matvec)
    if (!isa<MatVecSupportAttr>(entry))
      return emitError() << "profile 'matvec' entries must be "
                            "#coopvec.matvec_support, but got "
                         << entry;
  for (ArrayAttr list : {outerProduct, vectorAccumulate})
    for (Attribute entry : list)
      if (!isa<AccumSupportAttr>(entry))
        return emitError() << "profile accumulation entries must be "
                              "#coopvec.accum_support, but got "
                           << entry;
  if (tier < SupportTier::Tier1_1 &&
      (!outerProduct.empty() || !vectorAccumulate.empty()))
    return emitError() << "profile of tier "
                       << stringifySupportTier(tier)
                       << " cannot list outer-product or vector-accumulate "
                          "support (tier1_1 is needed)";
  if (tier == SupportTier::NotSupported && !matvec.empty())
    return emitError() << "profile without cooperative-vector support cannot "
                          "list matrix-vector support";
  return success();
}
