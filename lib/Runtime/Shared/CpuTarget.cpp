//===- CpuTarget.cpp - CPU target glue: checks, errors, conversion --------===//
//
// Everything lowered CPU code calls besides the kernels. Semantics come from
// Layout.h (addressing) and Numerics.h (element conversion); nothing here
// rounds or addresses on its own.
//
//===----------------------------------------------------------------------===//

#include "LinAlgCoop/Runtime/CpuTarget.h"
#include "LinAlgCoop/Runtime/Dxil.h"
#include "LinAlgCoop/Runtime/Kernels.h"
#include "LinAlgCoop/Runtime/Layout.h"
#include "LinAlgCoop/Runtime/Numerics.h"
#include "LinAlgCoop/Runtime/Quantized.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <vector>

namespace {

std::atomic<CoopVecCpuErrorHandler> errorHandler{nullptr};

bool isOptimal(uint32_t layout) {
  return layout == COOPVEC_LAYOUT_INFERENCING_OPTIMAL ||
         layout == COOPVEC_LAYOUT_TRAINING_OPTIMAL;
}

/// DXIL ComponentType -> (Numerics format, element bytes); false for packed
/// and unknown values, which never describe a matrix.
bool decodeInterp(uint32_t interp, unsigned &format, uint32_t &bytes) {
  switch (interp) {
  case COOPVEC_TYPE_I16:
    format = COOPVEC_FMT_I16, bytes = 2;
    return true;
  case COOPVEC_TYPE_U16:
    format = COOPVEC_FMT_U16, bytes = 2;
    return true;
  case COOPVEC_TYPE_I32:
    format = COOPVEC_FMT_I32, bytes = 4;
    return true;
  case COOPVEC_TYPE_U32:
    format = COOPVEC_FMT_U32, bytes = 4;
    return true;
  case COOPVEC_TYPE_F16:
    format = COOPVEC_FMT_F16, bytes = 2;
    return true;
  case COOPVEC_TYPE_F32:
    format = COOPVEC_FMT_F32, bytes = 4;
    return true;
  case COOPVEC_TYPE_U8:
    format = COOPVEC_FMT_U8, bytes = 1;
    return true;
  case COOPVEC_TYPE_I8:
    format = COOPVEC_FMT_I8, bytes = 1;
    return true;
  case COOPVEC_TYPE_F8_E4M3:
    format = COOPVEC_FMT_E4M3, bytes = 1;
    return true;
  case COOPVEC_TYPE_F8_E5M2:
    format = COOPVEC_FMT_E5M2, bytes = 1;
    return true;
  default:
    return false;
  }
}

} // namespace

extern "C" const char *coopvecStatusName(int32_t status) {
  switch (status) {
  case COOPVEC_OK:
    return "COOPVEC_OK";
  case COOPVEC_ERROR_INVALID_LAYOUT:
    return "COOPVEC_ERROR_INVALID_LAYOUT";
  case COOPVEC_ERROR_INVALID_DIMENSIONS:
    return "COOPVEC_ERROR_INVALID_DIMENSIONS";
  case COOPVEC_ERROR_INVALID_ELEMENT_SIZE:
    return "COOPVEC_ERROR_INVALID_ELEMENT_SIZE";
  case COOPVEC_ERROR_INVALID_STRIDE:
    return "COOPVEC_ERROR_INVALID_STRIDE";
  case COOPVEC_ERROR_BUFFER_TOO_SMALL:
    return "COOPVEC_ERROR_BUFFER_TOO_SMALL";
  case COOPVEC_ERROR_OVERLAP:
    return "COOPVEC_ERROR_OVERLAP";
  case COOPVEC_ERROR_NULL_POINTER:
    return "COOPVEC_ERROR_NULL_POINTER";
  case COOPVEC_ERROR_UNSUPPORTED_TYPE:
    return "COOPVEC_ERROR_UNSUPPORTED_TYPE";
  case COOPVEC_ERROR_INVALID_ARGUMENT:
    return "COOPVEC_ERROR_INVALID_ARGUMENT";
  default:
    return "unknown status";
  }
}

extern "C" void coopvecCpuSetErrorHandler(CoopVecCpuErrorHandler handler) {
  errorHandler.store(handler);
}

extern "C" void coopvecCpuReportError(int32_t status, const char *site) {
  // The first failing thread (a parallel loop's workers run the same ops)
  // reports and ends the process; any other blocks here until it has.
  static std::mutex reportLock;
  reportLock.lock();
  // Results printed so far belong before the error in a combined log.
  std::fflush(stdout);
  std::fprintf(stderr, "coopvec runtime error: %s: %s (%d)\n",
               site ? site : "<unknown op>", coopvecStatusName(status),
               static_cast<int>(status));
  std::fflush(stderr);
  if (CoopVecCpuErrorHandler handler = errorHandler.load())
    handler(status, site);
  std::abort();
}

extern "C" uint64_t coopvecCpuMatrixFootprint(uint32_t layout, uint32_t rows,
                                              uint32_t cols, uint32_t elemSize,
                                              uint32_t stride) {
  if (isOptimal(layout))
    stride = 0;
  if (coopvecLayoutValidate(layout, rows, cols, elemSize, stride) !=
      COOPVEC_OK)
    return 0;
  if (isOptimal(layout))
    return coopvecLayoutDestinationSize(layout, rows, cols, elemSize, stride);
  // The last element has the largest offset of a row- or column-major
  // matrix: the stride is at least one row (column).
  int64_t last = coopvecLayoutElementOffset(layout, rows, cols, elemSize,
                                            stride, rows - 1, cols - 1);
  return last < 0 ? 0 : static_cast<uint64_t>(last) + elemSize;
}

extern "C" int32_t coopvecCpuCheckRange(uint64_t bufferBytes, uint64_t offset,
                                        uint64_t bytes) {
  if (offset > bufferBytes || bytes > bufferBytes - offset)
    return COOPVEC_ERROR_BUFFER_TOO_SMALL;
  return COOPVEC_OK;
}

extern "C" int32_t coopvecCpuCheckMatrix(uint64_t bufferBytes, uint64_t offset,
                                         uint32_t layout, uint32_t rows,
                                         uint32_t cols, uint32_t elemSize,
                                         uint32_t stride) {
  if (isOptimal(layout))
    stride = 0;
  if (int32_t status =
          coopvecLayoutValidate(layout, rows, cols, elemSize, stride))
    return status;
  return coopvecCpuCheckRange(
      bufferBytes, offset,
      coopvecCpuMatrixFootprint(layout, rows, cols, elemSize, stride));
}

/// Bytes of one element of a physical ComponentType.
static uint64_t physicalBytes(uint32_t type) {
  switch (type) {
  case COOPVEC_TYPE_I16:
  case COOPVEC_TYPE_U16:
  case COOPVEC_TYPE_F16:
    return 2;
  default:
    return 4;
  }
}

/// An f32 or f16 element at `src` read as the BF16 or F32 interpretation
/// `interp`: rounded to nearest even, as the reference reads inputs.
static float readAsInterp(const uint8_t *src, uint32_t type, uint32_t interp) {
  unsigned from = type == COOPVEC_TYPE_F16 ? COOPVEC_FMT_F16 : COOPVEC_FMT_F32;
  unsigned to = interp == COOPVEC_TYPE_BF16 ? COOPVEC_FMT_BF16 : COOPVEC_FMT_F32;
  uint32_t bits = 0;
  std::memcpy(&bits, src, type == COOPVEC_TYPE_F16 ? 2 : 4);
  return coopvecDecodeToF32(
      to, coopvecConvert(to, from, bits, COOPVEC_RND_RN, 0, 0));
}

/// A stored BF16 or F32 value (little-endian) as f32.
static float loadBf16OrF32(const uint8_t *src, bool bf16) {
  uint32_t bits = 0;
  if (bf16) {
    uint16_t half;
    std::memcpy(&half, src, 2);
    bits = uint32_t(half) << 16;
  } else {
    std::memcpy(&bits, src, 4);
  }
  float value;
  std::memcpy(&value, &bits, 4);
  return value;
}

/// The datum of stored column `col` of a block float of `bits` (8 or 4)
/// from its byte: BFP4 packs two columns to a byte, the even one low (as
/// I4 does).
static uint8_t bfpDatum(uint8_t byte, uint32_t col, unsigned bits) {
  return bits == 4 ? uint8_t((byte >> (4 * (col & 1))) & 0xF) : byte;
}

/// The math-fidelity form of coopvecCpuMatVecMulAdd: gathers the input rows
/// (in0, batch x k) and the transposed matrix (in1, k x m) as f32 values of
/// their L1 formats and hands them to the Wormhole model, which owns every
/// numeric decision.
static int32_t wormholeMatVec(const CoopVecMatVecParams *p) {
  // BF16 or F32 matrices read as their inputs; block floats (BFP8, BFP4)
  // with their shared exponents as UE8M0 x 16 block scales, unpacked to
  // BF16. Inputs are f16/f32 values read as BF16 or F32 (TF32), or block
  // floats with their exponents, unpacked to BF16.
  auto bfpBitsOf = [](uint32_t interp) -> unsigned {
    return interp == COOPVEC_TYPE_BFP8   ? 8
           : interp == COOPVEC_TYPE_BFP4 ? 4
                                         : 0;
  };
  const uint32_t interp = p->matrixInterp;
  const unsigned bfpBits = bfpBitsOf(interp);
  const unsigned inputBfpBits = bfpBitsOf(p->inputInterp);
  bool bf16 = interp == COOPVEC_TYPE_BF16;
  bool plain = bf16 || interp == COOPVEC_TYPE_F32;
  // One Src format for both operands: BF16 (BF16 values and block floats)
  // or TF32 (F32 values).
  bool srcBf16 = p->inputInterp == COOPVEC_TYPE_BF16 || inputBfpBits;
  if (!(plain && !p->scaleType &&
        (p->inputInterp == interp || (bf16 && inputBfpBits))) &&
      !(bfpBits && srcBf16 && p->scaleType == COOPVEC_TYPE_UE8M0 &&
        p->scaleBlock == 16))
    return COOPVEC_ERROR_UNSUPPORTED_TYPE;
  bool floatInput =
      p->inputType == COOPVEC_TYPE_F32 || p->inputType == COOPVEC_TYPE_F16;
  if ((inputBfpBits ? p->inputType != COOPVEC_TYPE_I8 : !floatInput) ||
      p->outputType != COOPVEC_TYPE_F32)
    return COOPVEC_ERROR_UNSUPPORTED_TYPE;
  if (!p->input || !p->output || !p->matrix || (bfpBits && !p->scales) ||
      (inputBfpBits && !p->inputExponents))
    return COOPVEC_ERROR_NULL_POINTER;
  CoopVecWormholeConfig cfg = {p->fidelity - 1,
                               srcBf16 ? unsigned(COOPVEC_FMT_BF16)
                                       : unsigned(COOPVEC_FMT_TF32),
                               p->dstFormat, p->packFormat, p->l1Acc};
  if (coopvecWormholeCheckConfig(&cfg) != COOPVEC_WH_OK)
    return COOPVEC_ERROR_INVALID_ARGUMENT;
  const uint32_t m = p->m, k = p->k, batch = p->batch;
  // Layout units: an element, or for BFP4 the byte of a stored column pair
  // (the even column in the low nibble), as for I4.
  const uint32_t elemBytes = bfpBits ? 1 : bf16 ? 2 : 4;
  const uint32_t storedRows = p->transpose ? k : m,
                 storedCols = p->transpose ? m : k;
  const uint32_t unitCols = bfpBits == 4 ? (storedCols + 1) / 2 : storedCols;
  const uint32_t stride = isOptimal(p->layout) ? 0 : p->matrixStride;
  if (int32_t status = coopvecLayoutValidate(p->layout, storedRows, unitCols,
                                             elemBytes, stride))
    return status;
  const auto *matrix = static_cast<const uint8_t *>(p->matrix) + p->matrixOffset;
  const uint8_t *exponents =
      bfpBits ? static_cast<const uint8_t *>(p->scales) + p->scalesOffset
              : nullptr;
  const uint32_t blocksPerRow = (k + 15) / 16;
  std::vector<float> weights(size_t(k) * m); // in1: k x m
  for (uint32_t i = 0; i < m; ++i)
    for (uint32_t kk = 0; kk < k; ++kk) {
      uint32_t r = p->transpose ? kk : i, c = p->transpose ? i : kk;
      int64_t offset =
          coopvecLayoutElementOffset(p->layout, storedRows, unitCols, elemBytes,
                                     stride, r, bfpBits == 4 ? c / 2 : c);
      if (offset < 0)
        return COOPVEC_ERROR_INVALID_ARGUMENT;
      float w;
      if (bfpBits) {
        w = coopvecWormholeBfpToFloat(
            bfpDatum(matrix[offset], c, bfpBits),
            exponents[size_t(i) * blocksPerRow + kk / 16], bfpBits);
      } else {
        w = loadBf16OrF32(matrix + offset, bf16);
      }
      weights[size_t(kk) * m + i] = w;
    }
  std::vector<float> inputs(size_t(batch) * k); // in0: batch x k
  if (inputBfpBits) {
    // The stored bytes of each row, decoded with their block's exponent as
    // the unpacker does (the matrix's BFP path above, along the row).
    const uint64_t rowBytes = inputBfpBits == 4 ? (k + 1) / 2 : k;
    const uint64_t inputStride = p->inputStride ? p->inputStride : rowBytes;
    const uint64_t exponentStride = p->inputExponentsStride
                                        ? p->inputExponentsStride
                                        : uint64_t(blocksPerRow);
    for (uint32_t b = 0; b < batch; ++b) {
      const auto *row =
          static_cast<const uint8_t *>(p->input) + b * inputStride;
      const auto *rowExponents =
          static_cast<const uint8_t *>(p->inputExponents) + b * exponentStride;
      for (uint32_t kk = 0; kk < k; ++kk)
        inputs[size_t(b) * k + kk] = coopvecWormholeBfpToFloat(
            bfpDatum(row[inputBfpBits == 4 ? kk / 2 : kk], kk, inputBfpBits),
            rowExponents[kk / 16], inputBfpBits);
    }
  } else {
    const uint64_t inputBytes = p->inputType == COOPVEC_TYPE_F16 ? 2 : 4;
    const uint64_t inputStride =
        p->inputStride ? p->inputStride : k * inputBytes;
    for (uint32_t b = 0; b < batch; ++b)
      for (uint32_t kk = 0; kk < k; ++kk)
        inputs[size_t(b) * k + kk] =
            readAsInterp(static_cast<const uint8_t *>(p->input) +
                             b * inputStride + kk * inputBytes,
                         p->inputType, p->inputInterp);
  }
  // The L1 output buffer starts from the bias (the verifier allows one only
  // with L1 accumulation), else from zero.
  std::vector<float> out(size_t(batch) * m, 0.0f);
  if (p->bias) {
    bool biasBf16 = p->biasInterp == COOPVEC_TYPE_BF16;
    if ((!biasBf16 && p->biasInterp != COOPVEC_TYPE_F32) ||
        biasBf16 != (p->packFormat == COOPVEC_FMT_BF16) || !p->l1Acc)
      return COOPVEC_ERROR_UNSUPPORTED_TYPE;
    const auto *bias = static_cast<const uint8_t *>(p->bias) + p->biasOffset;
    for (uint32_t b = 0; b < batch; ++b)
      for (uint32_t i = 0; i < m; ++i)
        out[size_t(b) * m + i] =
            loadBf16OrF32(bias + uint64_t(i) * (biasBf16 ? 2 : 4), biasBf16);
  }
  int status = coopvecWormholeMatmul(&cfg, inputs.data(), weights.data(),
                                     out.data(), batch, m, k, p->kBlock);
  if (status != COOPVEC_WH_OK)
    return COOPVEC_ERROR_INVALID_ARGUMENT;
  const uint64_t outputStride = p->outputStride ? p->outputStride : m * 4ull;
  for (uint32_t b = 0; b < batch; ++b)
    std::memcpy(static_cast<uint8_t *>(p->output) + b * outputStride,
                out.data() + size_t(b) * m, size_t(m) * 4);
  return COOPVEC_OK;
}

extern "C" int32_t coopvecCpuMatVecMulAdd(const CoopVecMatVecParams *p) {
  if (!p)
    return COOPVEC_ERROR_NULL_POINTER;
  if (p->fidelity)
    return wormholeMatVec(p);
  // The kernels take no block scales: a block-scaled matrix goes through the
  // reference.
  if (p->scaleType && !p->scales)
    return COOPVEC_ERROR_NULL_POINTER;
  int32_t status = COOPVEC_ERROR_UNSUPPORTED_TYPE;
  if (!p->scaleType)
    status = coopvecMatVecMulAdd(
        p->output, p->outputType, p->outputStride, p->input, p->inputType,
        p->inputInterp, p->inputStride, p->batch, p->matrix, p->matrixOffset,
        p->matrixInterp, p->m, p->k, p->layout, p->transpose,
        p->matrixStride, p->bias, p->biasOffset, p->biasInterp,
        p->numThreads);
  if (status != COOPVEC_ERROR_UNSUPPORTED_TYPE)
    return status;
  void *output = p->output;
  const void *input = p->input;
  uint32_t outputType = p->outputType, inputType = p->inputType,
           inputInterp = p->inputInterp, m = p->m, k = p->k;
  uint64_t inputStride = p->inputStride, outputStride = p->outputStride;
  // Strides of 0 mean tightly packed, as for the kernels.
  bool packed = inputInterp == COOPVEC_TYPE_PACKED_S8X32 ||
                inputInterp == COOPVEC_TYPE_PACKED_U8X32;
  uint64_t inputCount = packed ? (uint64_t(k) + 3) / 4 : k;
  if (!inputStride)
    inputStride = inputCount * physicalBytes(inputType);
  if (!outputStride)
    outputStride = uint64_t(m) * physicalBytes(outputType);
  for (uint32_t b = 0; b < p->batch; ++b) {
    status = coopvecReferenceBlockScaledMatVecMulAdd(
        static_cast<uint8_t *>(output) + b * outputStride, outputType,
        static_cast<const uint8_t *>(input) + b * inputStride, inputType,
        inputInterp, p->matrix, p->matrixOffset, p->matrixInterp, m, k,
        p->layout, p->transpose, p->matrixStride, p->bias, p->biasOffset,
        p->biasInterp, p->scales, p->scalesOffset, p->scaleType,
        p->scaleBlock);
    if (status != COOPVEC_OK)
      return status;
  }
  return COOPVEC_OK;
}

extern "C" int32_t
coopvecCpuOuterProductAccumulate(const CoopVecOuterProductParams *p) {
  if (!p)
    return COOPVEC_ERROR_NULL_POINTER;
  const void *a = p->a, *b = p->b;
  void *matrix = p->matrix;
  uint32_t aType = p->aType, bType = p->bType, batch = p->batch, m = p->m,
           n = p->n, matrixInterp = p->matrixInterp, layout = p->layout,
           matrixStride = p->matrixStride;
  uint64_t aStride = p->aStride, bStride = p->bStride,
           matrixOffset = p->matrixOffset;
  int32_t status = coopvecOuterProductAccumulate(
      a, aType, aStride, b, bType, bStride, batch, m, n, matrix, matrixOffset,
      matrixInterp, layout, matrixStride, p->numThreads);
  if (status != COOPVEC_ERROR_UNSUPPORTED_TYPE)
    return status;
  // The reference takes one element type for both vectors, as the dialect.
  if (aType != bType)
    return status;
  if (!aStride)
    aStride = uint64_t(m) * physicalBytes(aType);
  if (!bStride)
    bStride = uint64_t(n) * physicalBytes(bType);
  for (uint32_t i = 0; i < batch; ++i) {
    status = coopvecReferenceOuterProductAccumulate(
        static_cast<const uint8_t *>(a) + i * aStride,
        static_cast<const uint8_t *>(b) + i * bStride, m, n, aType, matrix,
        matrixOffset, matrixInterp, layout, matrixStride);
    if (status != COOPVEC_OK)
      return status;
  }
  return COOPVEC_OK;
}

extern "C" int32_t
coopvecCpuVectorAccumulate(const CoopVecVectorAccumulateParams *p) {
  if (!p)
    return COOPVEC_ERROR_NULL_POINTER;
  const void *input = p->input;
  void *buffer = p->buffer;
  uint32_t inputType = p->inputType, batch = p->batch, n = p->n,
           accumInterp = p->accumInterp;
  uint64_t inputStride = p->inputStride, offset = p->offset;
  int32_t status =
      coopvecVectorAccumulate(input, inputType, inputStride, batch, n, buffer,
                              offset, accumInterp, p->numThreads);
  if (status != COOPVEC_ERROR_UNSUPPORTED_TYPE || accumInterp != inputType)
    return status;
  if (!inputStride)
    inputStride = uint64_t(n) * physicalBytes(inputType);
  for (uint32_t i = 0; i < batch; ++i) {
    status = coopvecReferenceVectorAccumulate(
        static_cast<const uint8_t *>(input) + i * inputStride, n, inputType,
        static_cast<uint8_t *>(buffer) + offset);
    if (status != COOPVEC_OK)
      return status;
  }
  return COOPVEC_OK;
}

extern "C" int32_t coopvecCpuMlpForward(const CoopVecMlpParams *p) {
  if (!p)
    return COOPVEC_ERROR_NULL_POINTER;
  return coopvecMlpForward(
      static_cast<float *>(p->output), p->outputStride,
      static_cast<const float *>(p->input), p->inputStride, p->batch,
      static_cast<const CoopVecMlpLayer *>(p->layers), p->numLayers,
      p->inputScale, p->outputExp, p->numThreads);
}

extern "C" int32_t
coopvecCpuConvertMatrix(const CoopVecConvertMatrixParams *p) {
  if (!p)
    return COOPVEC_ERROR_NULL_POINTER;
  void *dst = p->dst;
  const void *src = p->src;
  uint64_t dstBytes = p->dstBytes, dstOffset = p->dstOffset,
           srcBytes = p->srcBytes, srcOffset = p->srcOffset;
  uint32_t dstInterp = p->dstInterp, dstLayout = p->dstLayout,
           dstStride = p->dstStride, srcInterp = p->srcInterp,
           srcLayout = p->srcLayout, srcStride = p->srcStride,
           rows = p->rows, cols = p->cols;
  if (!dst || !src)
    return COOPVEC_ERROR_NULL_POINTER;
  unsigned dstFormat, srcFormat;
  uint32_t dstElem, srcElem;
  if (!decodeInterp(dstInterp, dstFormat, dstElem) ||
      !decodeInterp(srcInterp, srcFormat, srcElem))
    return COOPVEC_ERROR_UNSUPPORTED_TYPE;
  if (isOptimal(dstLayout))
    dstStride = 0;
  if (isOptimal(srcLayout))
    srcStride = 0;
  if (int32_t st = coopvecCpuCheckMatrix(srcBytes, srcOffset, srcLayout, rows,
                                         cols, srcElem, srcStride))
    return st;
  if (int32_t st = coopvecCpuCheckMatrix(dstBytes, dstOffset, dstLayout, rows,
                                         cols, dstElem, dstStride))
    return st;

  auto *out = static_cast<uint8_t *>(dst) + dstOffset;
  const auto *in = static_cast<const uint8_t *>(src) + srcOffset;
  uint64_t outSpan =
      coopvecCpuMatrixFootprint(dstLayout, rows, cols, dstElem, dstStride);
  uint64_t inSpan =
      coopvecCpuMatrixFootprint(srcLayout, rows, cols, srcElem, srcStride);
  if (out < in + inSpan && in < out + outSpan)
    return COOPVEC_ERROR_OVERLAP;

  // Without a type change the layout library copies the matrix (the same
  // bytes: an optimal destination's padding zeroed, the gaps between the rows
  // of a strided one untouched), 8x faster than the general loop below
  // (2048 x 2048 F32 row-major to InferencingOptimal: 12.5 vs 99 ms).
  if (srcInterp == dstInterp &&
      coopvecLayoutConvert(out, outSpan, dstLayout, dstStride, in, inSpan,
                           srcLayout, srcStride, rows, cols,
                           dstElem) == COOPVEC_OK)
    return COOPVEC_OK;
  if (isOptimal(dstLayout))
    std::memset(out, 0, outSpan);
  for (uint32_t r = 0; r < rows; ++r) {
    for (uint32_t c = 0; c < cols; ++c) {
      int64_t from = coopvecLayoutElementOffset(srcLayout, rows, cols, srcElem,
                                                srcStride, r, c);
      int64_t to = coopvecLayoutElementOffset(dstLayout, rows, cols, dstElem,
                                              dstStride, r, c);
      uint64_t bits = 0;
      // Elements are little-endian, as on every host the JIT runs on.
      std::memcpy(&bits, in + from, srcElem);
      if (srcInterp != dstInterp)
        bits = coopvecDxilConvert(dstFormat, srcFormat, bits);
      std::memcpy(out + to, &bits, dstElem);
    }
  }
  return COOPVEC_OK;
}

extern "C" int32_t
coopvecCpuQuantizedMatMul(const CoopVecQuantMatMulParams *params) {
  int32_t status = coopvecKernelsQuantizedMatMul(params);
  if (status != COOPVEC_ERROR_UNSUPPORTED_TYPE)
    return status;
  return coopvecReferenceQuantizedMatMul(params);
}

extern "C" int32_t
coopvecCpuQuantizeRows(const CoopVecQuantizeRowsParams *params) {
  int32_t status = coopvecKernelsQuantizeRows(params);
  if (status != COOPVEC_ERROR_UNSUPPORTED_TYPE)
    return status;
  return coopvecReferenceQuantizeRows(params);
}

extern "C" int32_t coopvecCpuTileMmaFidelity(
    uint32_t fidelity, uint32_t srcFormat, uint32_t dstFormat, const float *lhs,
    const float *rhs, float *acc, uint64_t m, uint64_t n, uint64_t k) {
  if (!lhs || !rhs || !acc)
    return COOPVEC_ERROR_NULL_POINTER;
  // No packer: the pack fields only need to be valid.
  CoopVecWormholeConfig cfg = {fidelity, srcFormat, dstFormat, dstFormat, 0};
  return coopvecWormholeTileMma(&cfg, lhs, rhs, acc, m, n, k) == COOPVEC_WH_OK
             ? COOPVEC_OK
             : COOPVEC_ERROR_INVALID_ARGUMENT;
}

extern "C" int32_t coopvecCpuTilePackDstFidelity(uint32_t dstFormat,
                                                 uint32_t packFormat,
                                                 uint32_t l1Acc,
                                                 const float *dst, float *l1,
                                                 uint64_t n) {
  if (!dst || !l1)
    return COOPVEC_ERROR_NULL_POINTER;
  // The packer takes no fidelity or Src format: those fields only need to
  // be valid.
  CoopVecWormholeConfig cfg = {COOPVEC_FIDELITY_LOFI, COOPVEC_FMT_BF16,
                               dstFormat, packFormat, l1Acc};
  return coopvecWormholePack(&cfg, dst, l1, n) == COOPVEC_WH_OK
             ? COOPVEC_OK
             : COOPVEC_ERROR_INVALID_ARGUMENT;
}

extern "C" int32_t
coopvecCpuEltwiseMulFidelity(uint32_t fidelity, uint32_t srcFormat,
                             uint32_t dstFormat, uint32_t packFormat,
                             uint32_t l1Acc, const float *lhs, const float *rhs,
                             float *out, uint64_t n) {
  if (!lhs || !rhs || !out)
    return COOPVEC_ERROR_NULL_POINTER;
  CoopVecWormholeConfig cfg = {fidelity, srcFormat, dstFormat, packFormat,
                               l1Acc};
  return coopvecWormholeEltwiseMul(&cfg, lhs, rhs, out, n) == COOPVEC_WH_OK
             ? COOPVEC_OK
             : COOPVEC_ERROR_INVALID_ARGUMENT;
}
