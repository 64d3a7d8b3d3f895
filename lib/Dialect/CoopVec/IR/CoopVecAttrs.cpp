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
// Interpretations
//===----------------------------------------------------------------------===//

namespace {
/// What each named interpretation is: the table every query below reads.
struct InterpInfo {
  InterpKind kind;
  StringRef name;
  Type (*elementType)(MLIRContext *);
  bool isUnsigned, packed, isDxil;
  unsigned storageBits;
  bool blockFloat = false;
};

template <unsigned Width>
Type intType(MLIRContext *ctx) {
  return IntegerType::get(ctx, Width);
}
template <typename T>
Type floatType(MLIRContext *ctx) {
  return T::get(ctx);
}

using K = InterpKind;
// In InterpKind order.
constexpr InterpInfo kInterps[] = {
    {K::I16, "I16", intType<16>, false, false, true, 16},
    {K::U16, "U16", intType<16>, true, false, true, 16},
    {K::I32, "I32", intType<32>, false, false, true, 32},
    {K::U32, "U32", intType<32>, true, false, true, 32},
    {K::F16, "F16", floatType<Float16Type>, false, false, true, 16},
    {K::F32, "F32", floatType<Float32Type>, false, false, true, 32},
    {K::PackedS8x32, "PackedS8x32", intType<8>, false, true, true, 32},
    {K::PackedU8x32, "PackedU8x32", intType<8>, true, true, true, 32},
    {K::U8, "U8", intType<8>, true, false, true, 8},
    {K::I8, "I8", intType<8>, false, false, true, 8},
    {K::F8_E4M3, "F8_E4M3", floatType<Float8E4M3FNType>, false, false, true, 8},
    {K::F8_E5M2, "F8_E5M2", floatType<Float8E5M2Type>, false, false, true, 8},
    {K::BF16, "BF16", floatType<BFloat16Type>, false, false, false, 16},
    {K::F6_E2M3, "F6_E2M3", floatType<Float6E2M3FNType>, false, false, false,
     8},
    {K::F6_E3M2, "F6_E3M2", floatType<Float6E3M2FNType>, false, false, false,
     8},
    {K::F4_E2M1, "F4_E2M1", floatType<Float4E2M1FNType>, false, false, false,
     4},
    {K::I4, "I4", intType<4>, false, false, false, 4},
    {K::U4, "U4", intType<4>, true, false, false, 4},
    {K::BFP8, "BFP8", intType<8>, false, false, false, 8, true},
    {K::BFP4, "BFP4", intType<4>, false, false, false, 4, true},
};
static_assert(std::size(kInterps) == kNumInterpKinds,
              "one table row per InterpKind");

/// Row i describes InterpKind i (info() indexes by kind).
constexpr bool rowsInKindOrder() {
  for (unsigned i = 0; i < kNumInterpKinds; ++i)
    if (kInterps[i].kind != InterpKind(i))
      return false;
  return true;
}
static_assert(rowsInKindOrder(), "kInterps must list the kinds in order");

const InterpInfo &info(InterpKind kind) {
  return kInterps[unsigned(kind)];
}

/// The row of (elementType, isUnsigned, packed, blockFloat), if any.
const InterpInfo *lookup(Type elementType, bool isUnsigned, bool packed,
                         bool blockFloat = false) {
  for (const InterpInfo &row : kInterps)
    if (row.elementType(elementType.getContext()) == elementType &&
        row.isUnsigned == isUnsigned && row.packed == packed &&
        row.blockFloat == blockFloat)
      return &row;
  return nullptr;
}
} // namespace

StringRef mlir::coopvec::stringifyInterpKind(InterpKind kind) {
  return info(kind).name;
}

InterpretationAttr InterpretationAttr::get(MLIRContext *ctx, InterpKind kind) {
  const InterpInfo &row = info(kind);
  return get(ctx, row.elementType(ctx), row.isUnsigned, row.packed,
             row.blockFloat);
}

InterpKind InterpretationAttr::getKind() const {
  // The verifier admits only tabled combinations.
  return lookup(getElementType(), getIsUnsigned(), getPacked(), getBlockFloat())
      ->kind;
}

StringRef InterpretationAttr::getName() const { return info(getKind()).name; }

bool InterpretationAttr::isFloat() const {
  return isa<FloatType>(getElementType());
}

bool InterpretationAttr::isFloat8() const {
  return isFloat() && getElementType().getIntOrFloatBitWidth() == 8;
}

unsigned InterpretationAttr::getStorageBits() const {
  return info(getKind()).storageBits;
}

bool InterpretationAttr::isDxil() const { return info(getKind()).isDxil; }

static std::string listNames(function_ref<bool(const InterpInfo &)> keep) {
  SmallVector<StringRef> names;
  for (const InterpInfo &row : kInterps)
    if (keep(row))
      names.push_back(row.name);
  return llvm::join(names, ", ");
}

LogicalResult
InterpretationAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                           Type elementType, bool isUnsigned, bool packed,
                           bool blockFloat) {
  if (elementType && lookup(elementType, isUnsigned, packed, blockFloat))
    return success();
  return emitError() << "no interpretation reads " << elementType
                     << (isUnsigned ? " as unsigned" : "")
                     << (packed ? " packed into 32-bit words" : "")
                     << (blockFloat ? " as a block float" : "")
                     << "; expected one of "
                     << listNames([](const InterpInfo &) { return true; });
}

FailureOr<InterpretationAttr>
mlir::coopvec::parseInterpretationName(AsmParser &parser) {
  MLIRContext *ctx = parser.getContext();
  SMLoc loc = parser.getCurrentLocation();
  auto unknown = [&](auto &&what) -> FailureOr<InterpretationAttr> {
    return parser.emitError(loc)
           << "unknown interpretation '" << what << "'; expected one of "
           << listNames([](const InterpInfo &) { return true; })
           << " or their element types";
  };
  // A name, or a float type spelled as a keyword (bf16, f4E2M1FN).
  StringRef name;
  if (succeeded(parser.parseOptionalKeyword(&name))) {
    for (const InterpInfo &row : kInterps) {
      if (row.name == name)
        return InterpretationAttr::get(ctx, row.kind);
      Type type = row.elementType(ctx);
      std::string spelling;
      llvm::raw_string_ostream(spelling) << type;
      if (isa<FloatType>(type) && spelling == name)
        return InterpretationAttr::get(ctx, row.kind);
    }
    // An integer type: i8 and si8 are signed, ui8 unsigned.
    StringRef digits = name;
    bool isUnsigned = digits.consume_front("ui");
    if (!isUnsigned && !digits.consume_front("si"))
      digits.consume_front("i");
    unsigned width;
    if (digits.size() < name.size() && !digits.getAsInteger(10, width) &&
        width > 0 && width <= IntegerType::kMaxWidth)
      if (const InterpInfo *row =
              lookup(IntegerType::get(ctx, width), isUnsigned, false))
        return InterpretationAttr::get(ctx, row->kind);
    return unknown(name);
  }
  // Where integer types are not keywords (attribute parsers), as a type.
  Type type;
  if (parser.parseType(type))
    return failure();
  if (auto intType = dyn_cast<IntegerType>(type))
    if (const InterpInfo *row =
            lookup(IntegerType::get(ctx, intType.getWidth()),
                   intType.isUnsigned(), false))
      return InterpretationAttr::get(ctx, row->kind);
  return unknown(type);
}

Attribute InterpretationAttr::parse(AsmParser &parser, Type) {
  FailureOr<InterpretationAttr> interp;
  if (parser.parseLess() ||
      failed(interp = parseInterpretationName(parser)) ||
      parser.parseGreater())
    return {};
  return *interp;
}

void InterpretationAttr::print(AsmPrinter &printer) const {
  printer << '<' << getName() << '>';
}

static bool isAllowed(const InterpInfo &row, InterpretationRole role) {
  // A block-float datum means nothing without its block's exponent: a
  // matrix's block scales or an input's `exponents` clause give it.
  switch (role) {
  case InterpretationRole::Input:
    return true;
  case InterpretationRole::Matrix:
    return !row.packed;
  case InterpretationRole::Bias:
    return !row.packed && !row.blockFloat;
  case InterpretationRole::Accumulation:
    // Accumulation updates whole elements atomically; the 4-bit and the
    // padded 6-bit elements have no such update on any target here.
    return !row.packed && !row.blockFloat && row.storageBits >= 8 &&
           row.kind != K::F6_E2M3 && row.kind != K::F6_E3M2;
  }
  llvm_unreachable("unknown role");
}

bool mlir::coopvec::isAllowedInterpretation(InterpretationAttr interp,
                                            InterpretationRole role) {
  return isAllowed(info(interp.getKind()), role);
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
  return listNames(
      [role](const InterpInfo &row) { return isAllowed(row, role); });
}

FailureOr<InterpretationAttr>
mlir::coopvec::getPhysicalInterpretation(Type elementType, bool isUnsigned) {
  MLIRContext *ctx = elementType.getContext();
  if (elementType.isF16())
    return InterpretationAttr::get(ctx, K::F16);
  if (elementType.isF32())
    return InterpretationAttr::get(ctx, K::F32);
  if (elementType.isInteger(16))
    return InterpretationAttr::get(ctx, isUnsigned ? K::U16 : K::I16);
  if (elementType.isInteger(32))
    return InterpretationAttr::get(ctx, isUnsigned ? K::U32 : K::I32);
  return failure();
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
  return std::max(getInterpretation().getStorageBits() / 8, 1u);
}

int64_t MatrixDescAttr::getStoredUnitCols() const {
  return getInterpretation().isSubByte() ? llvm::divideCeil(getStoredCols(), 2)
                                         : getStoredCols();
}

bool MatrixDescAttr::isStrided() const {
  return getLayout() == MatrixLayout::RowMajor ||
         getLayout() == MatrixLayout::ColumnMajor;
}

int64_t MatrixDescAttr::getMinStride() const {
  int64_t elems = getLayout() == MatrixLayout::RowMajor ? getStoredUnitCols()
                                                        : getStoredRows();
  return elems * getElementBytes();
}

LogicalResult
MatrixDescAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                       InterpretationAttr interpretation, int64_t rows,
                       int64_t cols, MatrixLayout layout, bool transpose,
                       Type scaleType, int64_t blockSize) {
  for (auto [name, dim] : {std::pair<StringRef, int64_t>{"M", rows},
                           std::pair<StringRef, int64_t>{"K", cols}})
    if (dim < 1 || dim > kMaxMatrixDim)
      return emitError() << "matrix dimension " << name << " = " << dim
                         << " is out of range [1, " << kMaxMatrixDim << "]";
  if (!interpretation)
    return emitError() << "matrix interpretation is missing";
  if (!isAllowedInterpretation(interpretation, InterpretationRole::Matrix))
    return emitError() << "matrix interpretation "
                       << interpretation.getName()
                       << " is packed; packed interpretations are only "
                          "valid for input vectors";
  // The block-float formats share one exponent per 16 elements: the block
  // scales are those exponents.
  bool blockFloat = interpretation.isBlockFloat();
  if (!scaleType && blockSize == 0) {
    if (blockFloat)
      return emitError() << interpretation.getName()
                         << " elements need their shared exponents: 'scale "
                            "f8E8M0FNU block 16'";
    return success();
  }
  // The PTX 8.7 block-scale schemes: UE8M0 x 32 over the MX element types,
  // UE8M0 x 16 and UE4M3 x 16 over E2M1; and UE8M0 x 16 over the
  // block-float formats.
  InterpKind kind = interpretation.getKind();
  bool mxElement = kind == InterpKind::F8_E4M3 || kind == InterpKind::F8_E5M2 ||
                   kind == InterpKind::F6_E2M3 || kind == InterpKind::F6_E3M2 ||
                   kind == InterpKind::F4_E2M1;
  if (!scaleType)
    return emitError() << "block size " << blockSize
                       << " given without a block scale type";
  bool ue8m0 = isa<Float8E8M0FNUType>(scaleType);
  bool ue4m3 = isa<Float8E4M3FNType>(scaleType);
  if (!ue8m0 && !ue4m3)
    return emitError() << "block scale type must be f8E8M0FNU (UE8M0) or "
                          "f8E4M3FN (UE4M3), but got "
                       << scaleType;
  if (blockSize != 32 && blockSize != 16)
    return emitError() << "block size must be 32 or 16, but got "
                       << blockSize;
  bool scheme =
      (mxElement && ((ue8m0 && blockSize == 32) ||
                     (kind == InterpKind::F4_E2M1 && blockSize == 16))) ||
      (blockFloat && ue8m0 && blockSize == 16);
  if (!scheme)
    return emitError() << interpretation.getName() << " elements with "
                       << scaleType << " scales in blocks of " << blockSize
                       << " are not a block-scale scheme; expected "
                          "f8E8M0FNU x 32 over F8_E4M3, F8_E5M2, F6_E2M3, "
                          "F6_E3M2 or F4_E2M1, f8E8M0FNU x 16 or "
                          "f8E4M3FN x 16 over F4_E2M1, or f8E8M0FNU x 16 "
                          "over BFP8 or BFP4";
  return success();
}

Attribute MatrixDescAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseLess())
    return {};
  FailureOr<InterpretationAttr> interp = parseInterpretationName(parser);
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
  // Optional trailing clauses: `transpose`, then `scale T block B`.
  bool transpose = false;
  Type scaleType;
  int64_t blockSize = 0;
  while (succeeded(parser.parseOptionalComma())) {
    SMLoc clauseLoc = parser.getCurrentLocation();
    if (!transpose && !scaleType &&
        succeeded(parser.parseOptionalKeyword("transpose"))) {
      transpose = true;
      continue;
    }
    if (!scaleType && succeeded(parser.parseOptionalKeyword("scale"))) {
      if (parser.parseType(scaleType) || parser.parseKeyword("block") ||
          parser.parseInteger(blockSize))
        return {};
      continue;
    }
    parser.emitError(clauseLoc)
        << (scaleType   ? "expected '>' after the block scale"
            : transpose ? "expected 'scale <type> block <size>' after "
                          "'transpose'"
                        : "expected 'transpose' or 'scale <type> block "
                          "<size>'");
    return {};
  }
  if (parser.parseGreater())
    return {};
  return parser.getChecked<MatrixDescAttr>(loc, parser.getContext(), *interp,
                                           dims[0], dims[1], *layout,
                                           transpose, scaleType, blockSize);
}

void MatrixDescAttr::print(AsmPrinter &printer) const {
  printer << '<' << getInterpretation().getName() << ", "
          << getRows() << 'x' << getCols() << ", "
          << stringifyMatrixLayout(getLayout());
  if (getTranspose())
    printer << ", transpose";
  if (isBlockScaled())
    printer << ", scale " << getScaleType() << " block " << getBlockSize();
  printer << '>';
}

//===----------------------------------------------------------------------===//
// MathFidelityAttr
//===----------------------------------------------------------------------===//

static bool isF32OrBF16(Type type) { return type.isF32() || type.isBF16(); }

LogicalResult
MathFidelityAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                         MathFidelity fidelity, Type dst, Type pack,
                         bool l1Acc, int64_t kBlock) {
  if (!isF32OrBF16(dst))
    return emitError() << "math fidelity Dst format must be f32 or bf16, got "
                       << dst;
  if (pack && !isF32OrBF16(pack))
    return emitError() << "math fidelity packer format must be f32 or bf16, "
                          "got "
                       << pack;
  if (kBlock < 0 || kBlock % 32)
    return emitError() << "math fidelity k_block must be a positive multiple "
                          "of 32, got "
                       << kBlock;
  if (kBlock && !l1Acc)
    return emitError() << "math fidelity k_block needs l1_acc: blocks of K "
                          "are summed by packer L1 accumulation";
  return success();
}

Attribute MathFidelityAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  StringRef name;
  if (parser.parseLess())
    return {};
  SMLoc nameLoc = parser.getCurrentLocation();
  if (parser.parseKeyword(&name))
    return {};
  std::optional<MathFidelity> fidelity = symbolizeMathFidelity(name);
  if (!fidelity) {
    parser.emitError(nameLoc) << "unknown math fidelity '" << name
                              << "'; expected lofi, hifi2, hifi3 or hifi4";
    return {};
  }
  Type dst, pack;
  if (parser.parseComma() || parser.parseKeyword("dst") ||
      parser.parseEqual() || parser.parseType(dst))
    return {};
  // Optional clauses in this order: pack = T, l1_acc, k_block = B.
  bool l1Acc = false;
  int64_t kBlock = 0;
  while (succeeded(parser.parseOptionalComma())) {
    SMLoc clauseLoc = parser.getCurrentLocation();
    if (!pack && !l1Acc && !kBlock &&
        succeeded(parser.parseOptionalKeyword("pack"))) {
      if (parser.parseEqual() || parser.parseType(pack))
        return {};
      continue;
    }
    if (!l1Acc && !kBlock &&
        succeeded(parser.parseOptionalKeyword("l1_acc"))) {
      l1Acc = true;
      continue;
    }
    if (!kBlock && succeeded(parser.parseOptionalKeyword("k_block"))) {
      SMLoc valueLoc;
      if (parser.parseEqual() ||
          (valueLoc = parser.getCurrentLocation(),
           parser.parseInteger(kBlock)))
        return {};
      // 0 stands for "no blocks" and is not spelled.
      if (kBlock == 0) {
        parser.emitError(valueLoc, "math fidelity k_block must be a positive "
                                   "multiple of 32, got 0");
        return {};
      }
      continue;
    }
    parser.emitError(clauseLoc)
        << "expected 'pack = <type>', 'l1_acc' or 'k_block = <n>', in this "
           "order";
    return {};
  }
  if (parser.parseGreater())
    return {};
  return parser.getChecked<MathFidelityAttr>(loc, parser.getContext(),
                                             *fidelity, dst, pack, l1Acc,
                                             kBlock);
}

void MathFidelityAttr::print(AsmPrinter &printer) const {
  printer << '<' << stringifyMathFidelity(getFidelity()) << ", dst = "
          << getDst();
  if (getPack())
    printer << ", pack = " << getPack();
  if (getL1Acc())
    printer << ", l1_acc";
  if (getKBlock())
    printer << ", k_block = " << getKBlock();
  printer << '>';
}

//===----------------------------------------------------------------------===//
// ProfileAttr
//===----------------------------------------------------------------------===//

SmallVector<SmallVector<int64_t, 3>> MatVecSupportAttr::getTileShapes() const {
  SmallVector<SmallVector<int64_t, 3>> shapes;
  if (ArrayAttr tiles = getTiles())
    for (auto tile : tiles.getAsRange<DenseI64ArrayAttr>())
      shapes.emplace_back(tile.asArrayRef());
  return shapes;
}

bool ProfileAttr::hasFeature(StringRef feature) const {
  ArrayAttr features = getFeatures();
  return features &&
         llvm::any_of(features.getAsRange<StringAttr>(),
                      [&](StringAttr f) { return f.getValue() == feature; });
}

/// Whether `arch` is an SM name: sm_<digits> with an optional `a`
/// (arch-accelerated) or `f` (family) suffix, as NVVM spells them.
static bool isSmName(StringRef arch) {
  if (!arch.consume_front("sm_"))
    return false;
  if (arch.ends_with("a") || arch.ends_with("f"))
    arch = arch.drop_back();
  return !arch.empty() && llvm::all_of(arch, llvm::isDigit);
}

LogicalResult
ProfileAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                    StringAttr name, StringAttr kind, StringAttr arch,
                    SupportTier tier, ArrayAttr features, ArrayAttr matvec,
                    ArrayAttr outerProduct, ArrayAttr vectorAccumulate,
                    bool fp8OptimalOnly, bool outerProductTrainingOptimalOnly) {
  if (!name || name.getValue().empty())
    return emitError() << "profile name must not be empty";
  static constexpr StringRef kKinds[] = {"d3d12", "cpu",    "nvptx",
                                         "riscv", "vulkan", "tenstorrent"};
  if (kind && !llvm::is_contained(kKinds, kind.getValue()))
    return emitError() << "unknown profile kind '" << kind.getValue()
                       << "'; expected one of " << llvm::join(ArrayRef<StringRef>(kKinds), ", ");
  if (kind && arch && kind.getValue() == "nvptx" && !isSmName(arch.getValue()))
    return emitError() << "nvptx arch '" << arch.getValue()
                       << "' is not an SM name (sm_<N>, sm_<N>a or sm_<N>f)";
  if (features)
    for (Attribute feature : features) {
      auto str = dyn_cast<StringAttr>(feature);
      if (!str || str.getValue().empty())
        return emitError() << "profile features must be non-empty strings, "
                              "but got "
                           << feature;
    }
  for (Attribute entry : matvec) {
    auto row = dyn_cast<MatVecSupportAttr>(entry);
    if (!row)
      return emitError() << "profile 'matvec' entries must be "
                            "#coopvec.matvec_support, but got "
                         << entry;
    if (ArrayAttr tiles = row.getTiles())
      for (Attribute tile : tiles) {
        auto shape = dyn_cast<DenseI64ArrayAttr>(tile);
        if (!shape || shape.size() != 3 ||
            llvm::any_of(shape.asArrayRef(), [](int64_t d) { return d <= 0; }))
          return emitError() << "profile tile shapes must be array<i64: m, "
                                "n, k> of positive sizes, but got "
                             << tile;
      }
  }
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
