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
#include "LinAlgCoop/Runtime/Numerics.h"

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

extern "C" int32_t coopvecCpuMatVecMulAdd(
    void *output, uint32_t outputType, uint64_t outputStride,
    const void *input, uint32_t inputType, uint32_t inputInterp,
    uint64_t inputStride, uint32_t batch, const void *matrix,
    uint64_t matrixOffset, uint32_t matrixInterp, uint32_t m, uint32_t k,
    uint32_t layout, uint32_t transpose, uint32_t matrixStride,
    const void *bias, uint64_t biasOffset, uint32_t biasInterp,
    uint32_t numThreads) {
  int32_t status = coopvecMatVecMulAdd(
      output, outputType, outputStride, input, inputType, inputInterp,
      inputStride, batch, matrix, matrixOffset, matrixInterp, m, k, layout,
      transpose, matrixStride, bias, biasOffset, biasInterp, numThreads);
  if (status != COOPVEC_ERROR_UNSUPPORTED_TYPE)
    return status;
  // Strides of 0 mean tightly packed, as for the kernels.
  bool packed = inputInterp == COOPVEC_TYPE_PACKED_S8X32 ||
                inputInterp == COOPVEC_TYPE_PACKED_U8X32;
  uint64_t inputCount = packed ? (uint64_t(k) + 3) / 4 : k;
  if (!inputStride)
    inputStride = inputCount * physicalBytes(inputType);
  if (!outputStride)
    outputStride = uint64_t(m) * physicalBytes(outputType);
  for (uint32_t b = 0; b < batch; ++b) {
    status = coopvecReferenceMatVecMulAdd(
        static_cast<uint8_t *>(output) + b * outputStride, outputType,
        static_cast<const uint8_t *>(input) + b * inputStride, inputType,
        inputInterp, matrix, matrixOffset, matrixInterp, m, k, layout,
        transpose, matrixStride, bias, biasOffset, biasInterp);
    if (status != COOPVEC_OK)
      return status;
  }
  return COOPVEC_OK;
}

extern "C" int32_t coopvecCpuOuterProductAccumulate(
    const void *a, uint32_t aType, uint64_t aStride, const void *b,
    uint32_t bType, uint64_t bStride, uint32_t batch, uint32_t m, uint32_t n,
    void *matrix, uint64_t matrixOffset, uint32_t matrixInterp,
    uint32_t layout, uint32_t matrixStride, uint32_t numThreads) {
  int32_t status = coopvecOuterProductAccumulate(
      a, aType, aStride, b, bType, bStride, batch, m, n, matrix, matrixOffset,
      matrixInterp, layout, matrixStride, numThreads);
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

extern "C" int32_t coopvecCpuVectorAccumulate(
    const void *input, uint32_t inputType, uint64_t inputStride,
    uint32_t batch, uint32_t n, void *buffer, uint64_t offset,
    uint32_t accumInterp, uint32_t numThreads) {
  int32_t status =
      coopvecVectorAccumulate(input, inputType, inputStride, batch, n, buffer,
                              offset, accumInterp, numThreads);
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

extern "C" int32_t coopvecCpuMlpForward(float *output, uint64_t outputStride,
                                        const float *input,
                                        uint64_t inputStride, uint32_t batch,
                                        const uint64_t *layerWords,
                                        uint32_t numLayers, uint32_t outputExp,
                                        uint32_t numThreads) {
  if (!layerWords || numLayers == 0)
    return COOPVEC_ERROR_INVALID_ARGUMENT;
  std::vector<CoopVecMlpLayer> layers(numLayers);
  for (uint32_t l = 0; l < numLayers; ++l) {
    const uint64_t *w = layerWords + l * COOPVEC_CPU_MLP_LAYER_WORDS;
    CoopVecMlpLayer &layer = layers[l];
    layer.weights = reinterpret_cast<const void *>(uintptr_t(w[0]));
    layer.weightsOffset = w[1];
    layer.weightsInterp = uint32_t(w[2]);
    layer.outputs = uint32_t(w[3]);
    layer.inputs = uint32_t(w[4]);
    layer.layout = uint32_t(w[5]);
    layer.transpose = uint32_t(w[6]);
    layer.stride = uint32_t(w[7]);
    layer.bias = reinterpret_cast<const void *>(uintptr_t(w[8]));
    layer.biasOffset = w[9];
    layer.biasInterp = uint32_t(w[10]);
    layer.activation = uint32_t(w[11]);
    layer.requantScale = 1.0f; // Float weights only: unused.
  }
  return coopvecMlpForward(output, outputStride, input, inputStride, batch,
                           layers.data(), numLayers, /*inputScale=*/1.0f,
                           outputExp, numThreads);
}

extern "C" int32_t coopvecCpuConvertMatrix(
    void *dst, uint64_t dstBytes, uint64_t dstOffset, uint32_t dstInterp,
    uint32_t dstLayout, uint32_t dstStride, const void *src,
    uint64_t srcBytes, uint64_t srcOffset, uint32_t srcInterp,
    uint32_t srcLayout, uint32_t srcStride, uint32_t rows, uint32_t cols) {
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
