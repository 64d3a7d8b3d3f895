//===- DxOps.cpp - host semantics of dx.op 305-308 ------------------------===//
//
// The bodies of dx.op.matVecMul, matVecMulAdd, outerProductAccumulate and
// vectorAccumulate over raw byte buffers. Every spec rule that would make a
// call undefined is checked before any memory is touched (see Dxil.h); the
// CPU kernels run what they take, the reference (lib/Runtime/Reference)
// the rest.
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

constexpr uint32_t kMaxDim = 65536;
} // namespace

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

/// Bytes of a register element of ComponentType `type` (F16, F32, I16, I32);
/// 0 for any other value.
unsigned physicalBytes(uint32_t type) {
  switch (type) {
  case COOPVEC_TYPE_F16:
  case COOPVEC_TYPE_I16:
    return 2;
  case COOPVEC_TYPE_F32:
  case COOPVEC_TYPE_I32:
    return 4;
  default:
    return 0;
  }
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
  // Zero the result before any check, so that every error leaves it all
  // zero bits (an unsigned flag on a float result included).
  std::memset(result, 0, size_t(resultCount) * physicalBytes(resultType));
  const ComponentInfo *out = getPhysical(op, "result", resultType,
                                         outputUnsigned);
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
                getMemoryComponent(matrixInterp)};
  if (!checkMatrix(op, ref, transpose))
    return;
  const ComponentInfo *biasInfo = nullptr;
  if (bias) {
    biasInfo = getMemoryComponent(biasInterp);
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
  status = coopvecReferenceMatVecMulAdd(
      result, out->componentType, input, in->componentType, inputInterp,
      matrix->base, matrixOffset, matrixInterp, m, k, layout, transpose,
      matrixStride, bias ? bias->base : nullptr, biasOffset, biasInterp);
  if (status != COOPVEC_OK) {
    std::memset(result, 0, size_t(resultCount) * out->bytes);
    reportError(op, "the reference rejected the call (status %d)", status);
  }
}

//===----------------------------------------------------------------------===//
// dx.op.outerProductAccumulate / dx.op.vectorAccumulate
//===----------------------------------------------------------------------===//
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
                getMemoryComponent(matrixInterp)};
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
  status = coopvecReferenceOuterProductAccumulate(
      a, b, m, n, type->componentType, matrix->base, matrixOffset,
      matrixInterp, layout, matrixStride);
  if (status != COOPVEC_OK)
    reportError(op, "the reference rejected the call (status %d)", status);
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
  int32_t status = coopvecReferenceVectorAccumulate(
      input, count, type->componentType, buffer->base + offset);
  if (status != COOPVEC_OK)
    reportError(op, "the reference rejected the call (status %d)", status);
}
