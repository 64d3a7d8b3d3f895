//===- CoopVecNumericsOps.cpp - conversion and MX ops, folded by the runtime ===//
//
// Verifiers state PTX 8.7's cvt combinations; folders call the runtime's
// numerics library (include/LinAlgCoop/Runtime/Numerics.h), so a folded
// constant has exactly the bits the runtime computes. APFloat is only used to
// wrap result bit patterns, never to convert.
//
//===----------------------------------------------------------------------===//

#include "LinAlgCoop/Dialect/CoopVec/IR/CoopVecOps.h"
#include "LinAlgCoop/Runtime/Numerics.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::coopvec;

//===----------------------------------------------------------------------===//
// Formats
//===----------------------------------------------------------------------===//

std::optional<unsigned> mlir::coopvec::getNumericsFormat(Type type) {
  return TypeSwitch<Type, std::optional<unsigned>>(type)
      .Case([](Float32Type) { return COOPVEC_FMT_F32; })
      .Case([](Float16Type) { return COOPVEC_FMT_F16; })
      .Case([](BFloat16Type) { return COOPVEC_FMT_BF16; })
      .Case([](FloatTF32Type) { return COOPVEC_FMT_TF32; })
      .Case([](Float8E4M3FNType) { return COOPVEC_FMT_E4M3; })
      .Case([](Float8E5M2Type) { return COOPVEC_FMT_E5M2; })
      .Case([](Float6E2M3FNType) { return COOPVEC_FMT_E2M3; })
      .Case([](Float6E3M2FNType) { return COOPVEC_FMT_E3M2; })
      .Case([](Float4E2M1FNType) { return COOPVEC_FMT_E2M1; })
      .Case([](Float8E8M0FNUType) { return COOPVEC_FMT_UE8M0; })
      .Default([](Type) { return std::nullopt; });
}

static bool isWide(unsigned format) {
  return format == COOPVEC_FMT_F32 || format == COOPVEC_FMT_F16 ||
         format == COOPVEC_FMT_BF16;
}

static bool isFp8(unsigned f) {
  return f == COOPVEC_FMT_E4M3 || f == COOPVEC_FMT_E5M2;
}

static bool isFp6OrFp4(unsigned f) {
  return f == COOPVEC_FMT_E2M3 || f == COOPVEC_FMT_E3M2 ||
         f == COOPVEC_FMT_E2M1;
}

/// Bit pattern of a float attribute value in the runtime's convention (TF32
/// is an f32 pattern with the low 13 bits zero; LLVM's tf32 is 19 bits).
static uint32_t toRuntimeBits(const APFloat &value, unsigned format) {
  uint32_t bits = value.bitcastToAPInt().getZExtValue();
  return format == COOPVEC_FMT_TF32 ? bits << 13 : bits;
}

static APFloat fromRuntimeBits(FloatType type, unsigned format,
                               uint32_t bits) {
  if (format == COOPVEC_FMT_TF32)
    bits >>= 13;
  return APFloat(type.getFloatSemantics(), APInt(type.getWidth(), bits));
}

/// The PTX rule a conversion `src` -> `dst` violates, or an empty string.
static std::string checkPtxConversion(unsigned src, unsigned dst,
                                      RoundingMode rounding, bool satfinite,
                                      bool relu, bool hasRbits) {
  std::string dstName = coopvecFormatName(dst);
  std::string srcName = coopvecFormatName(src);
  auto in = [&](std::initializer_list<RoundingMode> modes) {
    return llvm::is_contained(modes, rounding);
  };
  std::string mode = stringifyRoundingMode(rounding).str();
  if (src == dst)
    return "converts " + srcName + " to itself";
  if ((rounding == RoundingMode::RS) != hasRbits)
    return hasRbits ? "random bits are only used by rounding rs"
                    : "rounding rs needs random bits (rbits)";
  if (!isWide(src)) {
    if (!isWide(dst))
      return "PTX converts " + srcName + " only to f16, bf16 or f32";
    if (rounding != RoundingMode::RN)
      return "widening " + srcName + " is exact; PTX defines it with rn only";
    return "";
  }
  if (rounding == RoundingMode::RS && src != COOPVEC_FMT_F32)
    return "PTX defines rounding rs only for f32 sources";
  if (dst == COOPVEC_FMT_F32)
    return "PTX converts to f32 only from the small formats";
  if (dst == COOPVEC_FMT_F16 || dst == COOPVEC_FMT_BF16) {
    if (src != COOPVEC_FMT_F32)
      return "PTX converts to " + dstName + " only from f32";
    if (!in({RoundingMode::RN, RoundingMode::RZ, RoundingMode::RM,
             RoundingMode::RP, RoundingMode::RS}))
      return "PTX does not define rounding " + mode + " for " + dstName;
    if (relu && !in({RoundingMode::RN, RoundingMode::RZ, RoundingMode::RS}))
      return "PTX defines relu for " + dstName + " only with rn, rz or rs";
    return "";
  }
  if (dst == COOPVEC_FMT_TF32) {
    if (src != COOPVEC_FMT_F32)
      return "PTX converts to tf32 only from f32";
    if (!in({RoundingMode::RNA, RoundingMode::RN, RoundingMode::RZ}))
      return "PTX defines tf32 conversion only with rna, rn or rz";
    if (relu && rounding == RoundingMode::RNA)
      return "PTX defines relu for tf32 only with rn or rz";
    return "";
  }
  if (isFp8(dst) || isFp6OrFp4(dst)) {
    if (isFp6OrFp4(dst) && src != COOPVEC_FMT_F32)
      return "PTX converts to " + dstName + " only from f32";
    if (!in({RoundingMode::RN, RoundingMode::RS}))
      return "PTX defines " + dstName + " conversion only with rn or rs";
    if (!satfinite)
      return "PTX requires satfinite for " + dstName;
    return "";
  }
  if (dst == COOPVEC_FMT_UE8M0) {
    if (src == COOPVEC_FMT_F16)
      return "PTX converts to ue8m0 only from f32 or bf16";
    if (!in({RoundingMode::RZ, RoundingMode::RP}))
      return "PTX defines ue8m0 conversion only with rz or rp";
    if (relu)
      return "PTX does not define relu for ue8m0";
    return "";
  }
  return "no conversion to " + dstName;
}

static unsigned getFlags(bool satfinite, bool relu) {
  return (satfinite ? COOPVEC_CVT_SATFINITE : 0) | (relu ? COOPVEC_CVT_RELU : 0);
}

//===----------------------------------------------------------------------===//
// ConvertOp
//===----------------------------------------------------------------------===//

LogicalResult ConvertOp::verify() {
  Type inType = getInput().getType(), outType = getResult().getType();
  auto inVec = dyn_cast<VectorType>(inType);
  auto outVec = dyn_cast<VectorType>(outType);
  if (bool(inVec) != bool(outVec) ||
      (inVec && (inVec.getRank() != 1 || inVec.isScalable() ||
                 outVec.isScalable() ||
                 inVec.getShape() != outVec.getShape())))
    return emitOpError() << "input " << inType << " and result " << outType
                         << " must both be scalars or 1-D fixed-length "
                            "vectors of one length";
  std::optional<unsigned> src = getNumericsFormat(getElementTypeOrSelf(inType));
  std::optional<unsigned> dst = getNumericsFormat(getElementTypeOrSelf(outType));
  if (!src || !dst)
    return emitOpError() << "converts between float types only (f32, f16, "
                            "bf16, tf32, f8E4M3FN, f8E5M2, f6E2M3FN, "
                            "f6E3M2FN, f4E2M1FN, f8E8M0FNU), but got "
                         << inType << " -> " << outType;
  if (*src == COOPVEC_FMT_TF32)
    return emitOpError("tf32 is a conversion destination only");
  if (Value rbits = getRbits()) {
    Type expected = IntegerType::get(getContext(), 32);
    if (inVec)
      expected = VectorType::get(inVec.getShape(), expected);
    if (rbits.getType() != expected)
      return emitOpError() << "random bits must be " << expected
                           << " (one i32 per element), but got "
                           << rbits.getType();
  }
  std::string reason = checkPtxConversion(*src, *dst, getRounding(),
                                          getSatfinite(), getRelu(),
                                          getRbits() != nullptr);
  if (!reason.empty())
    return emitOpError() << "invalid conversion " << coopvecFormatName(*src)
                         << " -> " << coopvecFormatName(*dst) << ": "
                         << reason;
  return success();
}

OpFoldResult ConvertOp::fold(FoldAdaptor adaptor) {
  Attribute input = adaptor.getInput();
  if (!input || (getRbits() && !adaptor.getRbits()))
    return {};
  auto dstType = cast<FloatType>(getElementTypeOrSelf(getResult().getType()));
  unsigned src = *getNumericsFormat(getElementTypeOrSelf(getInput().getType()));
  unsigned dst = *getNumericsFormat(dstType);
  unsigned rounding = static_cast<unsigned>(getRounding());
  unsigned flags = getFlags(getSatfinite(), getRelu());

  auto convertOne = [&](const APFloat &value, uint32_t rbits) {
    uint32_t bits = coopvecConvert(dst, src, toRuntimeBits(value, src),
                                   rounding, flags, rbits);
    return fromRuntimeBits(dstType, dst, bits);
  };

  if (auto scalar = dyn_cast<FloatAttr>(input)) {
    uint32_t rbits = 0;
    if (auto r = dyn_cast_or_null<IntegerAttr>(adaptor.getRbits()))
      rbits = r.getValue().getZExtValue();
    return FloatAttr::get(dstType, convertOne(scalar.getValue(), rbits));
  }
  auto values = dyn_cast<DenseFPElementsAttr>(input);
  if (!values)
    return {};
  SmallVector<uint32_t> rbits(values.getNumElements(), 0);
  if (Attribute r = adaptor.getRbits()) {
    auto ints = dyn_cast<DenseIntElementsAttr>(r);
    if (!ints)
      return {};
    for (auto [i, v] : llvm::enumerate(ints.getValues<APInt>()))
      rbits[i] = v.getZExtValue();
  }
  SmallVector<APFloat> results;
  for (auto [i, v] : llvm::enumerate(values.getValues<APFloat>()))
    results.push_back(convertOne(v, rbits[i]));
  return DenseFPElementsAttr::get(cast<ShapedType>(getResult().getType()),
                                  results);
}

//===----------------------------------------------------------------------===//
// PackOp
//===----------------------------------------------------------------------===//

/// Width of the packed word PTX uses for `count` elements of `format`.
static std::optional<unsigned> getPackedWidth(unsigned format,
                                              unsigned count) {
  switch (format) {
  case COOPVEC_FMT_E2M1:
    return count == 2 ? 8 : 16;
  case COOPVEC_FMT_E2M3:
  case COOPVEC_FMT_E3M2:
  case COOPVEC_FMT_E4M3:
  case COOPVEC_FMT_E5M2:
    return count == 2 ? 16 : 32;
  case COOPVEC_FMT_UE8M0:
    return count == 2 ? std::optional<unsigned>(16) : std::nullopt;
  case COOPVEC_FMT_F16:
  case COOPVEC_FMT_BF16:
    return count == 2 ? std::optional<unsigned>(32) : std::nullopt;
  default:
    return std::nullopt;
  }
}

LogicalResult PackOp::verify() {
  unsigned count = getInputs().size();
  if (count != 2 && count != 4)
    return emitOpError() << "packs 2 or 4 values, but got " << count;
  std::optional<unsigned> format = getNumericsFormat(getFormat());
  std::optional<unsigned> width =
      format ? getPackedWidth(*format, count) : std::nullopt;
  if (!width)
    return emitOpError() << "PTX has no " << getFormat() << "x" << count
                         << " packed form";
  if (getResult().getType().getWidth() != *width)
    return emitOpError() << getFormat() << "x" << count << " packs into i"
                         << *width << ", but the result is "
                         << getResult().getType();
  bool rs = getRounding() == RoundingMode::RS;
  if (count == 4 && !rs)
    return emitOpError("PTX defines the x4 forms only with rounding rs");
  if (count == 2 && rs && !isWide(*format))
    return emitOpError() << "PTX defines " << getFormat()
                         << "x2 without rounding rs; use the x4 form";
  std::string reason =
      checkPtxConversion(COOPVEC_FMT_F32, *format, getRounding(),
                         getSatfinite(), getRelu(), getRbits() != nullptr);
  if (!reason.empty())
    return emitOpError() << "invalid conversion f32 -> "
                         << coopvecFormatName(*format) << ": " << reason;
  return success();
}

OpFoldResult PackOp::fold(FoldAdaptor adaptor) {
  SmallVector<float, 4> values;
  for (Attribute attr : adaptor.getInputs()) {
    auto f = dyn_cast_or_null<FloatAttr>(attr);
    if (!f)
      return {};
    values.push_back(f.getValue().convertToFloat());
  }
  uint32_t rbits = 0;
  if (getRbits()) {
    auto r = dyn_cast_or_null<IntegerAttr>(adaptor.getRbits());
    if (!r)
      return {};
    rbits = r.getValue().getZExtValue();
  }
  unsigned format = *getNumericsFormat(getFormat());
  unsigned rounding = static_cast<unsigned>(getRounding());
  unsigned flags = getFlags(getSatfinite(), getRelu());
  uint32_t packed =
      values.size() == 2
          ? coopvecPackX2(format, values[0], values[1], rounding, flags, rbits)
          : coopvecPackX4(format, values[0], values[1], values[2], values[3],
                          rounding, flags, rbits);
  IntegerType type = getResult().getType();
  return IntegerAttr::get(type, APInt(type.getWidth(), packed));
}

//===----------------------------------------------------------------------===//
// MX quantize / dequantize
//===----------------------------------------------------------------------===//

/// Checks the (elements, scales, block) triple of a block-scaled vector of
/// `length` values.
static LogicalResult verifyBlockScaled(Operation *op, int64_t length,
                                       Type elementsType, Type scalesType,
                                       int64_t block) {
  auto elements = dyn_cast<VectorType>(elementsType);
  auto scales = dyn_cast<VectorType>(scalesType);
  if (!elements || !scales || elements.getRank() != 1 || scales.getRank() != 1)
    return op->emitOpError("elements and scales must be 1-D vectors");
  if (elements.getNumElements() != length)
    return op->emitOpError() << "has " << elements.getNumElements()
                             << " elements for " << length << " values";
  std::optional<unsigned> elem = getNumericsFormat(elements.getElementType());
  Type scale = scales.getElementType();
  if (isa<Float8E8M0FNUType>(scale)) {
    if (!elem || !(isFp8(*elem) || isFp6OrFp4(*elem)))
      return op->emitOpError()
             << "MX elements must be f8E4M3FN, f8E5M2, f6E2M3FN, f6E3M2FN or "
                "f4E2M1FN, but got "
             << elements.getElementType();
    if (block != COOPVEC_MX_BLOCK)
      return op->emitOpError() << "OCP MX (UE8M0 scales) uses blocks of "
                               << static_cast<int>(COOPVEC_MX_BLOCK) << ", but got " << block;
  } else if (isa<Float8E4M3FNType>(scale)) {
    if (!elem || *elem != COOPVEC_FMT_E2M1)
      return op->emitOpError() << "UE4M3 (f8E4M3FN) scales are NVFP4's and "
                                  "need f4E2M1FN elements, but got "
                               << elements.getElementType();
    if (block != COOPVEC_NVFP4_BLOCK)
      return op->emitOpError() << "NVFP4 (UE4M3 scales) uses blocks of "
                               << static_cast<int>(COOPVEC_NVFP4_BLOCK) << ", but got " << block;
  } else {
    return op->emitOpError() << "scales must be f8E8M0FNU (OCP MX UE8M0) or "
                                "f8E4M3FN (NVFP4 UE4M3), but got "
                             << scale;
  }
  int64_t blocks = llvm::divideCeil(length, block);
  if (scales.getNumElements() != blocks)
    return op->emitOpError() << "has " << scales.getNumElements()
                             << " scales, but " << length << " values in blocks of "
                             << block << " need " << blocks;
  return success();
}

LogicalResult MXQuantizeOp::verify() {
  return verifyBlockScaled(*this, getInput().getType().getNumElements(),
                           getElements().getType(), getScales().getType(),
                           getBlockSize());
}

LogicalResult MXDequantizeOp::verify() {
  return verifyBlockScaled(*this, getResult().getType().getNumElements(),
                           getElements().getType(), getScales().getType(),
                           getBlockSize());
}

/// Element codes in the runtime's bulk storage (E2M1 two per byte, element
/// 2i in the low nibble) from one code per element, and back.
static std::vector<uint8_t> packCodes(ArrayRef<uint8_t> codes, unsigned elem) {
  if (elem != COOPVEC_FMT_E2M1)
    return std::vector<uint8_t>(codes.begin(), codes.end());
  std::vector<uint8_t> packed((codes.size() + 1) / 2, 0);
  for (size_t i = 0; i < codes.size(); ++i)
    packed[i / 2] |= (codes[i] & 0xF) << (4 * (i % 2));
  return packed;
}

static std::vector<uint8_t> unpackCodes(ArrayRef<uint8_t> storage, size_t n,
                                        unsigned elem) {
  if (elem != COOPVEC_FMT_E2M1)
    return std::vector<uint8_t>(storage.begin(), storage.begin() + n);
  std::vector<uint8_t> codes(n);
  for (size_t i = 0; i < n; ++i)
    codes[i] = (storage[i / 2] >> (4 * (i % 2))) & 0xF;
  return codes;
}

static DenseElementsAttr codesToAttr(VectorType type, ArrayRef<uint8_t> codes) {
  auto elemType = cast<FloatType>(type.getElementType());
  SmallVector<APFloat> values;
  for (uint8_t c : codes)
    values.push_back(
        APFloat(elemType.getFloatSemantics(), APInt(elemType.getWidth(), c)));
  return DenseFPElementsAttr::get(type, values);
}

static std::optional<std::vector<uint8_t>> attrToCodes(Attribute attr) {
  auto values = dyn_cast_or_null<DenseFPElementsAttr>(attr);
  if (!values)
    return std::nullopt;
  std::vector<uint8_t> codes;
  for (const APFloat &v : values.getValues<APFloat>())
    codes.push_back(v.bitcastToAPInt().getZExtValue());
  return codes;
}

LogicalResult MXQuantizeOp::fold(FoldAdaptor adaptor,
                                 SmallVectorImpl<OpFoldResult> &results) {
  auto input = dyn_cast_or_null<DenseFPElementsAttr>(adaptor.getInput());
  if (!input)
    return failure();
  std::vector<float> values;
  for (const APFloat &v : input.getValues<APFloat>())
    values.push_back(v.convertToFloat());
  size_t n = values.size();
  VectorType elementsType = getElements().getType();
  VectorType scalesType = getScales().getType();
  unsigned elem = *getNumericsFormat(elementsType.getElementType());
  std::vector<uint8_t> storage(n, 0), scales(scalesType.getNumElements(), 0);
  if (isa<Float8E8M0FNUType>(scalesType.getElementType()))
    coopvecMxQuantize(elem, values.data(), n, storage.data(), scales.data());
  else
    coopvecNvfp4Quantize(values.data(), n, storage.data(), scales.data());
  results.push_back(codesToAttr(elementsType, unpackCodes(storage, n, elem)));
  results.push_back(codesToAttr(scalesType, scales));
  return success();
}

OpFoldResult MXDequantizeOp::fold(FoldAdaptor adaptor) {
  std::optional<std::vector<uint8_t>> codes = attrToCodes(adaptor.getElements());
  std::optional<std::vector<uint8_t>> scales = attrToCodes(adaptor.getScales());
  if (!codes || !scales)
    return {};
  auto elementsType = cast<VectorType>(getElements().getType());
  unsigned elem = *getNumericsFormat(elementsType.getElementType());
  size_t n = codes->size();
  std::vector<uint8_t> storage = packCodes(*codes, elem);
  std::vector<float> out(n);
  if (isa<Float8E8M0FNUType>(
          cast<VectorType>(getScales().getType()).getElementType()))
    coopvecMxDequantize(elem, storage.data(), scales->data(), n, out.data());
  else
    coopvecNvfp4Dequantize(storage.data(), scales->data(), n, out.data());
  SmallVector<APFloat> values;
  for (float f : out)
    values.push_back(APFloat(f));
  return DenseFPElementsAttr::get(getResult().getType(), values);
}

//===----------------------------------------------------------------------===//
// EltwiseMulOp
//===----------------------------------------------------------------------===//

LogicalResult EltwiseMulOp::verify() {
  VectorType operands = getLhs().getType(), result = getResult().getType();
  if (result.getShape() != operands.getShape())
    return emitOpError() << "result " << result
                         << " must have the operands' shape, "
                         << operands.getShape();
  return verifyPackerOperands(*this, getFidelity(), getAcc() != nullptr,
                              "an element-wise multiply has no K");
}

LogicalResult mlir::coopvec::verifyPackerOperands(Operation *op,
                                                  MathFidelityAttr fidelity,
                                                  bool hasAcc,
                                                  StringRef noKBlock) {
  if (fidelity.getKBlock() != 0)
    return op->emitOpError() << "takes no k_block: " << noKBlock;
  if (fidelity.getL1Acc() && !hasAcc)
    return op->emitOpError("with l1_acc needs the L1 values to accumulate "
                           "onto (acc %values)");
  if (!fidelity.getL1Acc() && hasAcc)
    return op->emitOpError("takes acc values only with l1_acc (without it "
                           "the packer overwrites L1)");
  return success();
}
