//===- ShaderOps.cpp - host semantics of dx.op 305-308 --------------------===//
//
// The bodies of dx.op.matVecMul, matVecMulAdd, outerProductAccumulate and
// vectorAccumulate over raw byte buffers. Every spec rule that would make a
// call undefined is checked before any memory is touched (see Dxil.h).
//
//===----------------------------------------------------------------------===//

#include "LinAlgCoop/Runtime/Dxil.h"
#include "DxilInternal.h"

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
#include <string>
#include <unordered_map>
#include <vector>

using namespace coopvec::dxil;

//===----------------------------------------------------------------------===//
// Component types, errors
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

std::atomic<uint32_t> errorCount{0};
/// How often each distinct error line was printed: like the Vulkan
/// validation layers' duplicate message limit, a line is printed at most
/// kDuplicateLimit times (a failing call in a long loop would otherwise print
/// it once per iteration); every error is counted all the same. Lines past
/// the first kMaxTrackedErrors distinct ones are not tracked and always
/// printed.
std::mutex printMutex;
std::unordered_map<std::string, uint32_t> printedErrors;
constexpr uint32_t kDuplicateLimit = 10;
constexpr size_t kMaxTrackedErrors = 4096;
/// -1: not decided yet (read COOPVEC_DXIL_ABORT_ON_ERROR on first error).
std::atomic<int> abortOnError{-1};
std::atomic<uint32_t> tier{COOPVEC_DX_TIER_1_1};
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

bool coopvec::dxil::isMemoryInterpretation(uint32_t type) {
  const ComponentInfo *info = getComponent(type);
  return info && !info->isPacked;
}

void coopvec::dxil::reportError(const char *op, const char *format, ...) {
  char message[512];
  va_list args;
  va_start(args, format);
  std::vsnprintf(message, sizeof(message), format, args);
  va_end(args);
  std::string line = std::string("coopvec-dxil: error: ") +
                     (op ? op : "(unnamed)") + ": " + message;
  {
    std::lock_guard<std::mutex> lock(printMutex);
    auto it = printedErrors.find(line);
    if (it == printedErrors.end() && printedErrors.size() < kMaxTrackedErrors)
      it = printedErrors.emplace(line, 0).first;
    uint32_t times = it == printedErrors.end() ? 0 : ++it->second;
    if (times <= kDuplicateLimit)
      std::fprintf(stderr, "%s\n", line.c_str());
    if (times == kDuplicateLimit)
      std::fprintf(stderr,
                   "coopvec-dxil: error: the error above was reported %u "
                   "times; further identical ones are counted "
                   "(coopvecDxGetError) but not printed\n",
                   kDuplicateLimit);
    std::fflush(stderr);
  }
  errorCount.fetch_add(1);
  int mode = abortOnError.load();
  if (mode < 0) {
    const char *env = std::getenv("COOPVEC_DXIL_ABORT_ON_ERROR");
    mode = env && env[0] == '1';
  }
  if (mode)
    std::abort();
}

uint32_t coopvec::dxil::currentTier() { return tier.load(); }

extern "C" uint32_t coopvecDxGetError(void) { return errorCount.load(); }
extern "C" void coopvecDxClearError(void) { errorCount.store(0); }
extern "C" void coopvecDxSetAbortOnError(int32_t value) {
  abortOnError.store(value != 0);
}
extern "C" uint32_t coopvecDxGetTier(void) { return tier.load(); }
extern "C" int32_t coopvecDxSetTier(uint32_t value) {
  if (value > COOPVEC_DX_TIER_1_1)
    return COOPVEC_DX_E_INVALIDARG;
  tier.store(value);
  return COOPVEC_DX_S_OK;
}

//===----------------------------------------------------------------------===//
// Shared checks
//===----------------------------------------------------------------------===//

namespace {
/// The CoopVecFormat of a physical register element: ComponentType 8/9/2/4
/// with the op's unsigned flag.
const ComponentInfo *getPhysical(const char *op, const char *what,
                                 uint32_t type, uint32_t isUnsigned) {
  const ComponentInfo *info = nullptr;
  if (type == COOPVEC_TYPE_F16 || type == COOPVEC_TYPE_F32)
    info = getComponent(type);
  else if (type == COOPVEC_TYPE_I16)
    info = getComponent(isUnsigned ? COOPVEC_TYPE_U16 : COOPVEC_TYPE_I16);
  else if (type == COOPVEC_TYPE_I32)
    info = getComponent(isUnsigned ? COOPVEC_TYPE_U32 : COOPVEC_TYPE_I32);
  if (!info) {
    reportError(op, "%s element type %u is not f16 (8), f32 (9), i16 (2) or "
                    "i32 (4)",
                what, type);
    return nullptr;
  }
  if (isUnsigned && info->isFloat) {
    reportError(op, "the %s unsigned flag is set on a float vector", what);
    return nullptr;
  }
  return info;
}

const char *layoutName(uint32_t layout) {
  static const char *const names[] = {"RowMajor", "ColumnMajor",
                                      "InferencingOptimal", "TrainingOptimal"};
  return layout < 4 ? names[layout] : "?";
}

bool isStrided(uint32_t layout) {
  return layout == COOPVEC_LAYOUT_ROW_MAJOR ||
         layout == COOPVEC_LAYOUT_COLUMN_MAJOR;
}

/// A matrix in a buffer: the checks every matrix operand passes, and its
/// element addresses.
struct MatrixRef {
  const CoopVecDxBuffer *buffer;
  uint32_t offset, layout, stride;
  uint32_t storedRows, storedCols;
  const ComponentInfo *interp;

  /// Stored columns in layout units: column pairs for 4-bit elements.
  uint32_t unitCols() const {
    return interp->bits == 4 ? (storedCols + 1) / 2 : storedCols;
  }

  /// Byte offset in the buffer of stored element (r, c) (of the byte that
  /// holds it, for 4-bit elements).
  uint64_t elementOffset(uint32_t r, uint32_t c) const {
    return offset + uint64_t(coopvecLayoutElementOffset(
                        layout, storedRows, unitCols(), interp->bytes, stride,
                        r, interp->bits == 4 ? c / 2 : c));
  }

  /// The bits of stored element (r, c) in `interp`'s format.
  uint32_t load(uint32_t r, uint32_t c) const;
};

/// Checks a matrix operand (handle, interpretation, layout, alignment,
/// stride, bounds); reports and returns false on the first violation.
bool checkMatrix(const char *op, const MatrixRef &matrix, uint32_t transpose) {
  if (!matrix.buffer || (!matrix.buffer->base && matrix.buffer->sizeInBytes)) {
    reportError(op, "the matrix handle is null");
    return false;
  }
  if (!matrix.interp || matrix.interp->isPacked) {
    reportError(op, "the matrix interpretation is not one of I16, U16, I32, "
                    "U32, F16, F32, U8, I8, F8_E4M3, F8_E5M2");
    return false;
  }
  if (matrix.layout > COOPVEC_LAYOUT_TRAINING_OPTIMAL) {
    reportError(op, "matrix layout %u is not RowMajor (0), ColumnMajor (1), "
                    "InferencingOptimal (2) or TrainingOptimal (3)",
                matrix.layout);
    return false;
  }
  if (transpose && isStrided(matrix.layout)) {
    reportError(op, "a %s matrix cannot be transposed (only the optimal "
                    "layouts can)",
                layoutName(matrix.layout));
    return false;
  }
  if (matrix.offset % 128 != 0) {
    reportError(op, "the matrix offset %u is not a multiple of 128 bytes",
                matrix.offset);
    return false;
  }
  uint64_t footprint;
  if (isStrided(matrix.layout)) {
    bool rowMajor = matrix.layout == COOPVEC_LAYOUT_ROW_MAJOR;
    uint64_t lines = rowMajor ? matrix.storedRows : matrix.storedCols;
    uint64_t line =
        uint64_t(rowMajor ? matrix.unitCols() : matrix.storedRows) *
        matrix.interp->bytes;
    if (matrix.stride % 16 != 0 || matrix.stride < line) {
      reportError(op, "the %s matrix stride %u is not a multiple of 16 bytes "
                      "at least one %s (%llu bytes) long",
                  layoutName(matrix.layout), matrix.stride,
                  rowMajor ? "row" : "column", (unsigned long long)line);
      return false;
    }
    footprint = (lines - 1) * matrix.stride + line;
  } else {
    footprint = coopvecLayoutDestinationSize(matrix.layout, matrix.storedRows,
                                             matrix.unitCols(),
                                             matrix.interp->bytes, 0);
  }
  if (uint64_t(matrix.offset) + footprint > matrix.buffer->sizeInBytes) {
    reportError(op, "the %ux%u %s %s matrix at offset %u needs bytes [%u, "
                    "%llu), beyond the %llu-byte buffer",
                matrix.storedRows, matrix.storedCols, matrix.interp->name,
                layoutName(matrix.layout), matrix.offset, matrix.offset,
                (unsigned long long)(matrix.offset + footprint),
                (unsigned long long)matrix.buffer->sizeInBytes);
    return false;
  }
  return true;
}

/// Checks an array of `count` elements of `bytes` at `offset` (`align`-byte
/// aligned offset) in `buffer`.
bool checkArray(const char *op, const char *what,
                const CoopVecDxBuffer *buffer, uint32_t offset,
                uint32_t count, unsigned bytes, unsigned align) {
  if (!buffer || (!buffer->base && buffer->sizeInBytes)) {
    reportError(op, "the %s handle is null", what);
    return false;
  }
  if (offset % align != 0) {
    reportError(op, "the %s offset %u is not a multiple of %u bytes", what,
                offset, align);
    return false;
  }
  uint64_t end = uint64_t(offset) + uint64_t(count) * bytes;
  if (end > buffer->sizeInBytes) {
    reportError(op, "the %u-element %s at offset %u needs bytes [%u, %llu), "
                    "beyond the %llu-byte buffer",
                count, what, offset, offset, (unsigned long long)end,
                (unsigned long long)buffer->sizeInBytes);
    return false;
  }
  return true;
}

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
  // clamping first leaves their (saturated) result unchanged; f32 takes the
  // 64-bit value, which one C conversion rounds correctly.
  if (info->format == COOPVEC_FMT_F32) {
    __int128 clamped =
        std::clamp<__int128>(value, INT64_MIN, INT64_MAX);
    return bitsFromF32(static_cast<float>(static_cast<int64_t>(clamped)));
  }
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
/// The semantics of a matrix-vector product for every interpretation,
/// layout and transpose, element by element: logical values exact in double,
/// integer paths summed exactly, float paths summed in f32 (multiply then
/// add, never fused). Arguments are checked by the caller.
void referenceMatVec(const ComponentInfo *out, const ComponentInfo *in,
                     const ComponentInfo *interp, void *result,
                     const void *input, uint32_t inputCount,
                     const MatrixRef &ref, uint32_t transpose,
                     const ComponentInfo *biasInfo, const uint8_t *biasBase,
                     uint64_t biasOffset) {
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
    return decode(mInfo, transpose ? ref.load(col, row) : ref.load(row, col));
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

//===----------------------------------------------------------------------===//
// dx.op.matVecMul / dx.op.matVecMulAdd
//===----------------------------------------------------------------------===//

extern "C" void coopvecDxMatVecMulAdd(
    const char *op, void *result, uint32_t resultType, uint32_t resultCount,
    const void *input, uint32_t inputType, uint32_t inputCount,
    uint32_t inputUnsigned, uint32_t inputInterp,
    const CoopVecDxBuffer *matrix, uint32_t matrixOffset,
    uint32_t matrixInterp, uint32_t m, uint32_t k, uint32_t layout,
    uint32_t transpose, uint32_t matrixStride, const CoopVecDxBuffer *bias,
    uint32_t biasOffset, uint32_t biasInterp, uint32_t outputUnsigned) {
  const ComponentInfo *out = getPhysical(op, "result", resultType,
                                         outputUnsigned);
  if (out)
    std::memset(result, 0, size_t(resultCount) * out->bytes);
  if (!out || tier.load() < COOPVEC_DX_TIER_1_0) {
    if (out)
      reportError(op, "the device does not support cooperative vectors");
    return;
  }
  const ComponentInfo *in = getPhysical(op, "input", inputType, inputUnsigned);
  if (!in)
    return;
  const ComponentInfo *interp = getComponent(inputInterp);
  if (!interp) {
    reportError(op, "input interpretation %u is not a SM 6.9 ComponentType",
                inputInterp);
    return;
  }
  if (interp->isPacked && in->format != COOPVEC_FMT_I32 &&
      in->format != COOPVEC_FMT_U32) {
    reportError(op, "the packed interpretation %s needs a 32-bit integer "
                    "input vector",
                interp->name);
    return;
  }
  if (m == 0 || k == 0 || m > kMaxDim || k > kMaxDim) {
    reportError(op, "M = %u and K = %u must be in [1, %u]", m, k, kMaxDim);
    return;
  }
  uint32_t expectedInput = interp->isPacked ? (k + 3) / 4 : k;
  if (inputCount != expectedInput || resultCount != m) {
    reportError(op, "a %ux%u product needs %u input and %u result elements, "
                    "but got %u and %u",
                m, k, expectedInput, m, inputCount, resultCount);
    return;
  }
  MatrixRef ref{matrix,
                matrixOffset,
                layout,
                matrixStride,
                transpose ? k : m,
                transpose ? m : k,
                isMemoryInterpretation(matrixInterp) ? getComponent(matrixInterp)
                                                     : nullptr};
  if (!checkMatrix(op, ref, transpose))
    return;
  const ComponentInfo *biasInfo = nullptr;
  if (bias) {
    biasInfo = isMemoryInterpretation(biasInterp) ? getComponent(biasInterp)
                                                  : nullptr;
    if (!biasInfo) {
      reportError(op, "bias interpretation %u is not one of I16, U16, I32, "
                      "U32, F16, F32, U8, I8, F8_E4M3, F8_E5M2",
                  biasInterp);
      return;
    }
    if (!checkArray(op, "bias vector", bias, biasOffset, m, biasInfo->bytes,
                    64))
      return;
  }

  // The CPU kernels, where they take the combination: bit-identical to the
  // CPU lowering, which calls them with the same arguments.
  int32_t status = coopvecMatVecMulAdd(
      result, out->componentType, 0, input, in->componentType, inputInterp, 0,
      /*batch=*/1, matrix->base, matrixOffset, matrixInterp, m, k, layout,
      transpose, matrixStride, bias ? bias->base : nullptr, biasOffset,
      biasInterp, /*numThreads=*/1);
  if (status == COOPVEC_OK)
    return;
  if (status != COOPVEC_ERROR_UNSUPPORTED_TYPE) {
    std::memset(result, 0, size_t(resultCount) * out->bytes);
    reportError(op, "the CPU kernel rejected the call (status %d)", status);
    return;
  }

  // The reference for every other combination.
  referenceMatVec(out, in, interp, result, input, inputCount, ref, transpose,
                  biasInfo, bias ? bias->base : nullptr, biasOffset);
}

extern "C" int32_t coopvecReferenceMatVecMulAdd(
    void *output, uint32_t outputType, const void *input, uint32_t inputType,
    uint32_t inputInterp, const void *matrix, uint64_t matrixOffset,
    uint32_t matrixInterp, uint32_t m, uint32_t k, uint32_t layout,
    uint32_t transpose, uint32_t matrixStride, const void *bias,
    uint64_t biasOffset, uint32_t biasInterp) {
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
                  biasInfo, static_cast<const uint8_t *>(bias), biasOffset);
  return COOPVEC_OK;
}

//===----------------------------------------------------------------------===//
// dx.op.outerProductAccumulate / dx.op.vectorAccumulate
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

extern "C" void coopvecDxOuterProductAccumulate(
    const char *op, const void *a, uint32_t m, const void *b, uint32_t n,
    uint32_t elementType, const CoopVecDxBuffer *matrix, uint32_t matrixOffset,
    uint32_t matrixInterp, uint32_t layout, uint32_t matrixStride) {
  if (tier.load() < COOPVEC_DX_TIER_1_1) {
    reportError(op, "outerProductAccumulate needs tier 1.1, but the device "
                    "is tier %s",
                tier.load() == COOPVEC_DX_TIER_1_0 ? "1.0" : "0");
    return;
  }
  const ComponentInfo *type = getPhysical(op, "input", elementType, 0);
  if (!type)
    return;
  if (m == 0 || n == 0 || m > kMaxDim || n > kMaxDim) {
    reportError(op, "M = %u and N = %u must be in [1, %u]", m, n, kMaxDim);
    return;
  }
  MatrixRef ref{matrix,       matrixOffset, layout, matrixStride, m, n,
                isMemoryInterpretation(matrixInterp) ? getComponent(matrixInterp)
                                                     : nullptr};
  if (!checkMatrix(op, ref, /*transpose=*/0))
    return;
  uintptr_t address = reinterpret_cast<uintptr_t>(matrix->base) + matrixOffset;
  if (address % ref.interp->bytes != 0) {
    reportError(op, "the matrix address is not %u-byte aligned, as atomic "
                    "accumulation into %s needs",
                ref.interp->bytes, ref.interp->name);
    return;
  }

  int32_t status = coopvecOuterProductAccumulate(
      a, elementType, 0, b, elementType, 0, /*batch=*/1, m, n, matrix->base,
      matrixOffset, matrixInterp, layout, matrixStride, /*numThreads=*/1);
  if (status == COOPVEC_OK)
    return;
  if (status != COOPVEC_ERROR_UNSUPPORTED_TYPE) {
    reportError(op, "the CPU kernel rejected the call (status %d)", status);
    return;
  }
  referenceOuterProduct(a, b, type, ref);
}

extern "C" void coopvecDxVectorAccumulate(const char *op, const void *input,
                                          uint32_t count, uint32_t elementType,
                                          const CoopVecDxBuffer *buffer,
                                          uint32_t offset) {
  if (tier.load() < COOPVEC_DX_TIER_1_1) {
    reportError(op, "vectorAccumulate needs tier 1.1, but the device is "
                    "tier %s",
                tier.load() == COOPVEC_DX_TIER_1_0 ? "1.0" : "0");
    return;
  }
  const ComponentInfo *type = getPhysical(op, "input", elementType, 0);
  if (!type || !checkArray(op, "output array", buffer, offset, count,
                           type->bytes, 64))
    return;
  uintptr_t address = reinterpret_cast<uintptr_t>(buffer->base) + offset;
  if (address % type->bytes != 0) {
    reportError(op, "the output array address is not %u-byte aligned, as "
                    "atomic accumulation needs",
                type->bytes);
    return;
  }
  if (type->isFloat) {
    int32_t status =
        coopvecVectorAccumulate(input, elementType, 0, /*batch=*/1, count,
                                buffer->base, offset, elementType,
                                /*numThreads=*/1);
    if (status != COOPVEC_OK)
      reportError(op, "the CPU kernel rejected the call (status %d)", status);
    return;
  }
  referenceIntegerAccumulate(input, count, type, buffer->base + offset);
}

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
