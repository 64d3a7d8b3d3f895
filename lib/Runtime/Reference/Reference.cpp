//===- Reference.cpp - reference semantics of the matrix ops -------------===//
//
// The element-by-element semantics of matrix-vector products, outer-product
// and vector accumulation for every ComponentType, layout and transpose:
// what the CPU target (CpuTarget.cpp) and the DXIL software driver
// (Dxil/DxOps.cpp) fall back to where the CPU kernels do not take a
// combination. Target-neutral plain C++; callers check their own rules.
//
//===----------------------------------------------------------------------===//

#include "LinAlgCoop/Runtime/Dxil.h"
#include "ReferenceInternal.h"

#include "LinAlgCoop/Runtime/Kernels.h"
#include "LinAlgCoop/Runtime/Layout.h"
#include "LinAlgCoop/Runtime/Numerics.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

using namespace coopvec::dxil;

//===----------------------------------------------------------------------===//
// Component types
//===----------------------------------------------------------------------===//

namespace {
constexpr unsigned kPacked = ~0u;

constexpr ComponentInfo kComponents[] = {
    {COOPVEC_TYPE_I16, COOPVEC_FMT_I16, 2, false, false, "I16", 16, true},
    {COOPVEC_TYPE_U16, COOPVEC_FMT_U16, 2, false, false, "U16", 16, true},
    {COOPVEC_TYPE_I32, COOPVEC_FMT_I32, 4, false, false, "I32", 32, true},
    {COOPVEC_TYPE_U32, COOPVEC_FMT_U32, 4, false, false, "U32", 32, true},
    {COOPVEC_TYPE_F16, COOPVEC_FMT_F16, 2, true, false, "F16", 16, true},
    {COOPVEC_TYPE_F32, COOPVEC_FMT_F32, 4, true, false, "F32", 32, true},
    {COOPVEC_TYPE_PACKED_S8X32, kPacked, 4, false, true, "PackedS8x32", 32,
     true},
    {COOPVEC_TYPE_PACKED_U8X32, kPacked, 4, false, true, "PackedU8x32", 32,
     true},
    {COOPVEC_TYPE_U8, COOPVEC_FMT_U8, 1, false, false, "U8", 8, true},
    {COOPVEC_TYPE_I8, COOPVEC_FMT_I8, 1, false, false, "I8", 8, true},
    {COOPVEC_TYPE_F8_E4M3, COOPVEC_FMT_E4M3, 1, true, false, "F8_E4M3", 8,
     true},
    {COOPVEC_TYPE_F8_E5M2, COOPVEC_FMT_E5M2, 1, true, false, "F8_E5M2", 8,
     true},
    {COOPVEC_TYPE_BF16, COOPVEC_FMT_BF16, 2, true, false, "BF16", 16, false},
    {COOPVEC_TYPE_F6_E2M3, COOPVEC_FMT_E2M3, 1, true, false, "F6_E2M3", 8,
     false},
    {COOPVEC_TYPE_F6_E3M2, COOPVEC_FMT_E3M2, 1, true, false, "F6_E3M2", 8,
     false},
    {COOPVEC_TYPE_F4_E2M1, COOPVEC_FMT_E2M1, 1, true, false, "F4_E2M1", 4,
     false},
    {COOPVEC_TYPE_I4, COOPVEC_FMT_I8, 1, false, false, "I4", 4, false},
    {COOPVEC_TYPE_U4, COOPVEC_FMT_U8, 1, false, false, "U4", 4, false},
};

/// Serialises the accumulations that have no lock-free kernel path.
std::mutex accumulateMutex;

constexpr uint32_t kMaxDim = 65536;
} // namespace

const ComponentInfo *coopvec::dxil::getElement(uint32_t type) {
  for (const ComponentInfo &info : kComponents)
    if (info.componentType == type)
      return &info;
  return nullptr;
}

const ComponentInfo *coopvec::dxil::getComponent(uint32_t type) {
  const ComponentInfo *info = getElement(type);
  return info && info->isDxil ? info : nullptr;
}

namespace {
/// A matrix or bias element code of the reference semantics: any non-packed
/// one.
const ComponentInfo *getMemoryElement(uint32_t type) {
  const ComponentInfo *info = getElement(type);
  return info && !info->isPacked ? info : nullptr;
}
} // namespace

const ComponentInfo *coopvec::dxil::getMemoryComponent(uint32_t type) {
  const ComponentInfo *info = getComponent(type);
  return info && !info->isPacked ? info : nullptr;
}

namespace {
uint32_t loadBits(const void *base, uint64_t offset, unsigned bytes) {
  uint32_t bits = 0;
  std::memcpy(&bits, static_cast<const uint8_t *>(base) + offset, bytes);
  return bits; // little-endian host: the low `bytes` bytes
}

void storeBits(void *base, uint64_t offset, unsigned bytes, uint32_t bits) {
  std::memcpy(static_cast<uint8_t *>(base) + offset, &bits, bytes);
}

/// Element `index` of a vector or stored row, from the memory unit `unit`
/// that holds it, as bits of `info`'s format: the nibble (index & 1) of a
/// 4-bit pair (I4 sign-extended to the I8 bits it decodes as), the low six
/// bits of an FP6 byte, else the unit itself.
uint32_t extractElement(const ComponentInfo *info, uint32_t unit,
                        uint32_t index) {
  if (info->bits == 4) {
    uint32_t nibble = (unit >> (4 * (index & 1))) & 0xF;
    if (info->componentType == COOPVEC_TYPE_I4 && (nibble & 0x8))
      nibble |= 0xF0;
    return nibble;
  }
  if (info->format == COOPVEC_FMT_E2M3 || info->format == COOPVEC_FMT_E3M2)
    return unit & 0x3F;
  return unit;
}

/// Bit `i` of a memory vector of `info` elements at `base + offset`.
uint32_t loadVectorElement(const ComponentInfo *info, const void *base,
                           uint64_t offset, uint32_t i) {
  if (info->bits == 4)
    return extractElement(info, loadBits(base, offset + i / 2, 1), i);
  return extractElement(
      info, loadBits(base, offset + uint64_t(i) * info->bytes, info->bytes),
      i);
}

/// Whether an element of `info` is updated in place by accumulation: the
/// 4-bit pairs and the padded FP6 bytes are not.
bool isWholeElement(const ComponentInfo *info) {
  return info->bits >= 8 && info->format != COOPVEC_FMT_E2M3 &&
         info->format != COOPVEC_FMT_E3M2;
}

/// The exact value of `bits` in `info`'s format.
double decode(const ComponentInfo *info, uint32_t bits) {
  return coopvecDecode(info->format, bits);
}

uint32_t bitsFromF32(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  return bits;
}

/// The exact value of a `from` register element `bits` read as `interp`
/// (DXIL conversion rules; a 4-bit integer saturates to its range).
double convertInput(const ComponentInfo *interp, const ComponentInfo *from,
                    uint32_t bits) {
  double value = decode(interp, uint32_t(coopvecDxilConvert(
                                    interp->format, from->format, bits)));
  if (interp->componentType == COOPVEC_TYPE_I4)
    return std::clamp(value, -8.0, 7.0);
  if (interp->componentType == COOPVEC_TYPE_U4)
    return std::min(value, 15.0);
  return value;
}

/// Converts the f32 `value` to `info`'s format (DXIL conversion rules).
uint32_t encodeF32(const ComponentInfo *info, float value) {
  return uint32_t(
      coopvecDxilConvert(info->format, COOPVEC_FMT_F32, bitsFromF32(value)));
}

/// The exact integer `value` rounded to nearest even as an f32 (always
/// finite: |value| < 2^127). The magnitude is shifted below 2^63 with the
/// bits shifted out ORed into its lowest bit, which lies far below an f32's
/// 24 bits, so one C conversion of the 64-bit value rounds as the whole
/// value would; the shift back by a power of two is exact.
float integerToF32(__int128 value) {
  unsigned __int128 magnitude =
      value < 0 ? -static_cast<unsigned __int128>(value)
                : static_cast<unsigned __int128>(value);
  int shift = 0;
  while (magnitude >> 63) {
    magnitude = (magnitude >> 1) | (magnitude & 1);
    ++shift;
  }
  float result = std::ldexp(static_cast<float>(static_cast<uint64_t>(magnitude)),
                            shift);
  return value < 0 ? -result : result;
}

/// Converts the exact integer `value` to `info`'s format: saturating for
/// integers, RTNE for floats.
uint32_t encodeInteger(const ComponentInfo *info, __int128 value) {
  if (!info->isFloat) {
    __int128 lo = 0, hi = 0;
    switch (info->format) {
    case COOPVEC_FMT_I8: lo = INT8_MIN, hi = INT8_MAX; break;
    case COOPVEC_FMT_U8: lo = 0, hi = UINT8_MAX; break;
    case COOPVEC_FMT_I16: lo = INT16_MIN, hi = INT16_MAX; break;
    case COOPVEC_FMT_U16: lo = 0, hi = UINT16_MAX; break;
    case COOPVEC_FMT_I32: lo = INT32_MIN, hi = INT32_MAX; break;
    default: lo = 0, hi = UINT32_MAX; break;
    }
    value = std::clamp(value, lo, hi);
    return uint32_t(uint64_t(value) & (info->bytes == 4 ? 0xFFFFFFFFu
                                       : info->bytes == 2 ? 0xFFFFu
                                                          : 0xFFu));
  }
  // Every value beyond i32 is beyond the 16- and 8-bit float ranges too, so
  // clamping first leaves their (saturated) result unchanged. f32 reaches
  // far beyond 64 bits (a sum of U32 x U32 products does), so it takes the
  // whole value.
  if (info->format == COOPVEC_FMT_F32)
    return bitsFromF32(integerToF32(value));
  __int128 clamped = std::clamp<__int128>(value, INT32_MIN, INT32_MAX);
  return uint32_t(coopvecDxilConvert(info->format, COOPVEC_FMT_I32,
                                     uint32_t(int32_t(clamped))));
}
} // namespace

uint32_t MatrixRef::load(uint32_t r, uint32_t c) const {
  return extractElement(
      interp, loadBits(buffer->base, elementOffset(r, c), interp->bytes), c);
}

namespace {
/// The scales of a block-scaled matrix: one byte per (logical row, block of
/// `block` elements along K), row-major, in `format` (UE8M0 or UE4M3).
struct BlockScaleRef {
  const uint8_t *base; ///< The first scale.
  unsigned format;
  uint32_t block;

  /// The scale of logical element (row, col) of a K-column matrix, exact.
  double at(uint32_t row, uint32_t col, uint32_t k) const {
    uint64_t perRow = (uint64_t(k) + block - 1) / block;
    return coopvecDecode(format, base[row * perRow + col / block]);
  }
};

/// The semantics of a matrix-vector product for every interpretation,
/// layout and transpose, element by element: logical values exact in double
/// (a block-scaled weight is its element times its scale, exact in f32
/// unless it overflows), integer paths summed exactly, float paths summed in
/// f32 (multiply then add, never fused). Arguments are checked by the
/// caller.
void referenceMatVec(const ComponentInfo *out, const ComponentInfo *in,
                     const ComponentInfo *interp, void *result,
                     const void *input, uint32_t inputCount,
                     const MatrixRef &ref, uint32_t transpose,
                     const ComponentInfo *biasInfo, const uint8_t *biasBase,
                     uint64_t biasOffset, const BlockScaleRef *scale) {
  uint32_t m = transpose ? ref.storedCols : ref.storedRows;
  uint32_t k = transpose ? ref.storedRows : ref.storedCols;
  // Logical input values as doubles (exact for every interpretation).
  std::vector<double> x(k);
  if (interp->isPacked) {
    for (uint32_t w = 0; w < inputCount; ++w) {
      int32_t bytes[4];
      uint32_t word = loadBits(input, uint64_t(w) * 4, 4);
      if (interp->componentType == COOPVEC_TYPE_PACKED_S8X32)
        coopvecDxilUnpackS8x32(word, bytes);
      else
        coopvecDxilUnpackU8x32(word, bytes);
      for (uint32_t j = 0; j < 4 && w * 4 + j < k; ++j)
        x[w * 4 + j] = bytes[j];
    }
  } else {
    for (uint32_t i = 0; i < k; ++i) {
      uint32_t bits = loadBits(input, uint64_t(i) * in->bytes, in->bytes);
      x[i] = convertInput(interp, in, bits);
    }
  }
  const ComponentInfo *mInfo = ref.interp;
  bool integerPath = !interp->isFloat && !mInfo->isFloat &&
                     (!biasInfo || !biasInfo->isFloat);
  auto weight = [&](uint32_t row, uint32_t col) {
    double w =
        decode(mInfo, transpose ? ref.load(col, row) : ref.load(row, col));
    return scale ? w * scale->at(row, col, k) : w;
  };
  auto biasAt = [&](uint32_t row) {
    return decode(biasInfo,
                  loadVectorElement(biasInfo, biasBase, biasOffset, row));
  };
  for (uint32_t row = 0; row < m; ++row) {
    uint32_t bits;
    if (integerPath) {
      __int128 sum = 0;
      for (uint32_t col = 0; col < k; ++col)
        sum += __int128(int64_t(weight(row, col))) * int64_t(x[col]);
      if (biasInfo)
        sum += int64_t(biasAt(row));
      bits = encodeInteger(out, sum);
    } else {
      // Multiply, then add, as separate statements: no FMA contraction, so
      // the result does not depend on the compiler or the ISA.
      float sum = 0.0f;
      for (uint32_t col = 0; col < k; ++col) {
        float product = float(weight(row, col)) * float(x[col]);
        sum = sum + product;
      }
      if (biasInfo)
        sum = sum + float(biasAt(row));
      bits = encodeF32(out, sum);
    }
    storeBits(result, uint64_t(row) * out->bytes, out->bytes, bits);
  }
}
} // namespace
extern "C" int32_t coopvecReferenceMatVecMulAdd(
    void *output, uint32_t outputType, const void *input, uint32_t inputType,
    uint32_t inputInterp, const void *matrix, uint64_t matrixOffset,
    uint32_t matrixInterp, uint32_t m, uint32_t k, uint32_t layout,
    uint32_t transpose, uint32_t matrixStride, const void *bias,
    uint64_t biasOffset, uint32_t biasInterp) {
  return coopvecReferenceBlockScaledMatVecMulAdd(
      output, outputType, input, inputType, inputInterp, matrix, matrixOffset,
      matrixInterp, m, k, layout, transpose, matrixStride, bias, biasOffset,
      biasInterp, /*scales=*/nullptr, 0, 0, 0);
}

extern "C" int32_t coopvecReferenceBlockScaledMatVecMulAdd(
    void *output, uint32_t outputType, const void *input, uint32_t inputType,
    uint32_t inputInterp, const void *matrix, uint64_t matrixOffset,
    uint32_t matrixInterp, uint32_t m, uint32_t k, uint32_t layout,
    uint32_t transpose, uint32_t matrixStride, const void *bias,
    uint64_t biasOffset, uint32_t biasInterp, const void *scales,
    uint64_t scalesOffset, uint32_t scaleType, uint32_t scaleBlock) {
  std::optional<BlockScaleRef> scale;
  if (scaleType && !scales)
    return COOPVEC_ERROR_NULL_POINTER;
  if (scaleType) {
    // The schemes of #coopvec.matrix: UE8M0 x 32 over the MX element types,
    // UE8M0 x 16 and UE4M3 x 16 over E2M1.
    uint32_t elem = matrixInterp;
    bool mx = elem == COOPVEC_TYPE_F8_E4M3 || elem == COOPVEC_TYPE_F8_E5M2 ||
              elem == COOPVEC_TYPE_F6_E2M3 || elem == COOPVEC_TYPE_F6_E3M2 ||
              elem == COOPVEC_TYPE_F4_E2M1;
    bool fp4 = elem == COOPVEC_TYPE_F4_E2M1;
    if (!((scaleType == COOPVEC_TYPE_UE8M0 && scaleBlock == 32 && mx) ||
          (scaleType == COOPVEC_TYPE_UE8M0 && scaleBlock == 16 && fp4) ||
          (scaleType == COOPVEC_TYPE_UE4M3 && scaleBlock == 16 && fp4)))
      return COOPVEC_ERROR_UNSUPPORTED_TYPE;
    scale = BlockScaleRef{static_cast<const uint8_t *>(scales) + scalesOffset,
                          scaleType == COOPVEC_TYPE_UE8M0 ? COOPVEC_FMT_UE8M0
                                                          : COOPVEC_FMT_UE4M3,
                          scaleBlock};
  }
  // Physical register elements are DXIL's 16- and 32-bit types; the
  // interpretations are any element code.
  const ComponentInfo *out = getComponent(outputType);
  const ComponentInfo *in = getComponent(inputType);
  const ComponentInfo *interp = getElement(inputInterp);
  const ComponentInfo *mInfo = getMemoryElement(matrixInterp);
  const ComponentInfo *biasInfo = bias ? getMemoryElement(biasInterp) : nullptr;
  if (!out || !in || !interp || !mInfo || (bias && !biasInfo) ||
      in->isPacked || out->isPacked || out->bytes < 2 || in->bytes < 2 ||
      (interp->isPacked && in->isFloat))
    return COOPVEC_ERROR_UNSUPPORTED_TYPE;
  if (!output || !input || !matrix)
    return COOPVEC_ERROR_NULL_POINTER;
  if (m == 0 || k == 0 || m > kMaxDim || k > kMaxDim ||
      matrixOffset > UINT32_MAX)
    return COOPVEC_ERROR_INVALID_DIMENSIONS;
  uint32_t storedRows = transpose ? k : m, storedCols = transpose ? m : k;
  // Bounds were checked by the caller (the memrefs carry the sizes).
  CoopVecDxBuffer buffer{const_cast<uint8_t *>(
                             static_cast<const uint8_t *>(matrix)),
                         UINT64_MAX};
  MatrixRef ref{&buffer,    uint32_t(matrixOffset), layout, matrixStride,
                storedRows, storedCols,             mInfo};
  if (coopvecLayoutValidate(layout, storedRows, ref.unitCols(), mInfo->bytes,
                            matrixStride) != COOPVEC_OK)
    return COOPVEC_ERROR_INVALID_STRIDE;
  uint32_t inputCount = interp->isPacked ? (k + 3) / 4 : k;
  referenceMatVec(out, in, interp, output, input, inputCount, ref, transpose,
                  biasInfo, static_cast<const uint8_t *>(bias), biasOffset,
                  scale ? &*scale : nullptr);
  return COOPVEC_OK;
}

//===----------------------------------------------------------------------===//
// Outer-product and vector accumulation
//===----------------------------------------------------------------------===//

namespace {
/// Reads element i of a register vector as a double (exact).
double loadElement(const void *vector, const ComponentInfo *type, uint32_t i) {
  return decode(type, loadBits(vector, uint64_t(i) * type->bytes, type->bytes));
}

/// Adds a product to the element of `dest` at `offset` under the accumulate
/// lock: with a float on either side in f32, rounded to `dest`; otherwise
/// exactly, saturated to `dest`.
void accumulateLocked(uint8_t *base, uint64_t offset, const ComponentInfo *dest,
                      bool floatProduct, float floatAddend,
                      int64_t integerAddend) {
  double old = decode(dest, loadBits(base, offset, dest->bytes));
  uint32_t bits;
  if (floatProduct)
    bits = encodeF32(dest, float(old) + floatAddend);
  else if (dest->isFloat)
    bits = encodeF32(dest, float(old) + float(integerAddend));
  else
    bits = encodeInteger(dest, __int128(int64_t(old)) + integerAddend);
  storeBits(base, offset, dest->bytes, bits);
}

/// matrix += a * b^T element by element under the accumulate lock: the
/// reference for combinations the lock-free kernels do not take.
void referenceOuterProduct(const void *a, const void *b,
                           const ComponentInfo *type, const MatrixRef &ref) {
  std::lock_guard<std::mutex> lock(accumulateMutex);
  for (uint32_t i = 0; i < ref.storedRows; ++i) {
    for (uint32_t j = 0; j < ref.storedCols; ++j) {
      double x = loadElement(a, type, i), y = loadElement(b, type, j);
      // Products in the vectors' type: f32 for floats, exact for integers.
      float floatProduct = float(x) * float(y);
      int64_t integerProduct = type->isFloat ? 0 : int64_t(x) * int64_t(y);
      accumulateLocked(ref.buffer->base, ref.elementOffset(i, j), ref.interp,
                       type->isFloat, floatProduct, integerProduct);
    }
  }
}

/// Adds an integer vector to an array with one atomic add per element;
/// integer atomics wrap, as hardware atomic adds do.
void referenceIntegerAccumulate(const void *input, uint32_t count,
                                const ComponentInfo *type, uint8_t *array) {
  for (uint32_t i = 0; i < count; ++i) {
    uint8_t *element = array + uint64_t(i) * type->bytes;
    uint32_t bits = loadBits(input, uint64_t(i) * type->bytes, type->bytes);
    if (type->bytes == 4)
      __atomic_fetch_add(reinterpret_cast<uint32_t *>(element), bits,
                         __ATOMIC_SEQ_CST);
    else
      __atomic_fetch_add(reinterpret_cast<uint16_t *>(element),
                         uint16_t(bits), __ATOMIC_SEQ_CST);
  }
}
} // namespace

extern "C" int32_t coopvecReferenceOuterProductAccumulate(
    const void *a, const void *b, uint32_t m, uint32_t n, uint32_t elementType,
    void *matrix, uint64_t matrixOffset, uint32_t matrixInterp,
    uint32_t layout, uint32_t matrixStride) {
  const ComponentInfo *type = getComponent(elementType);
  const ComponentInfo *interp = getMemoryElement(matrixInterp);
  if (!type || !interp || type->isPacked || type->bytes < 2 ||
      !isWholeElement(interp))
    return COOPVEC_ERROR_UNSUPPORTED_TYPE;
  if (!a || !b || !matrix)
    return COOPVEC_ERROR_NULL_POINTER;
  if (m == 0 || n == 0 || m > kMaxDim || n > kMaxDim ||
      matrixOffset > UINT32_MAX)
    return COOPVEC_ERROR_INVALID_DIMENSIONS;
  if (coopvecLayoutValidate(layout, m, n, interp->bytes, matrixStride) !=
      COOPVEC_OK)
    return COOPVEC_ERROR_INVALID_STRIDE;
  // Bounds were checked by the caller (the memrefs carry the sizes).
  CoopVecDxBuffer buffer{static_cast<uint8_t *>(matrix), UINT64_MAX};
  MatrixRef ref{&buffer, uint32_t(matrixOffset), layout, matrixStride, m, n,
                interp};
  referenceOuterProduct(a, b, type, ref);
  return COOPVEC_OK;
}

extern "C" int32_t coopvecReferenceVectorAccumulate(const void *input,
                                                    uint32_t count,
                                                    uint32_t elementType,
                                                    void *array) {
  const ComponentInfo *type = getComponent(elementType);
  if (!type || type->isFloat || type->isPacked || type->bytes < 2)
    return COOPVEC_ERROR_UNSUPPORTED_TYPE;
  if (!input || !array)
    return COOPVEC_ERROR_NULL_POINTER;
  if (reinterpret_cast<uintptr_t>(array) % type->bytes != 0)
    return COOPVEC_ERROR_INVALID_ARGUMENT;
  referenceIntegerAccumulate(input, count, type,
                             static_cast<uint8_t *>(array));
  return COOPVEC_OK;
}
