//===- Kernels.cpp - C ABI of the CPU kernels: validation and dispatch ----===//
//
// Decodes and checks the DXIL-style arguments into a plan (Plan.h), picks the
// ISA once per call and splits the work over the pool. The accumulate ops
// live here too: they are bound by their atomic read-modify-writes, not by
// arithmetic, so one portable implementation serves every CPU.
//
//===----------------------------------------------------------------------===//

#include "LinAlgCoop/Runtime/Kernels.h"

#include "Half.h"
#include "Plan.h"
#include "ThreadPool.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <vector>

using namespace coopvec;
using namespace coopvec::kernels;
using layout::ceilDiv;
using layout::kPanelRows;
using layout::LayoutParams;
using layout::roundUp;

namespace {

//===----------------------------------------------------------------------===//
// ISA and thread selection
//===----------------------------------------------------------------------===//

std::atomic<int32_t> forcedPortable{-1};

bool cpuHasAvx2() {
#if defined(__x86_64__) || defined(__i386__)
  static const bool has = __builtin_cpu_supports("avx2") &&
                          __builtin_cpu_supports("fma") &&
                          __builtin_cpu_supports("f16c");
  return has;
#else
  return false;
#endif
}

bool envForcesPortable() {
  static const bool forced = [] {
    const char *env = std::getenv("COOPVEC_KERNELS_SCALAR");
    return env && env[0] && std::strcmp(env, "0") != 0;
  }();
  return forced;
}

bool useAvx2() {
  int32_t mode = forcedPortable.load(std::memory_order_relaxed);
  bool portable = mode < 0 ? envForcesPortable() : mode > 0;
  return !portable && cpuHasAvx2();
}

unsigned resolveThreads(uint32_t requested) {
  return requested ? std::min<uint32_t>(requested, 1024) : defaultThreadCount();
}

//===----------------------------------------------------------------------===//
// Argument decoding
//===----------------------------------------------------------------------===//

bool isFloatWeights(WeightKind w) {
  return w == WeightKind::F32 || w == WeightKind::F16;
}

/// Matrix interpretation -> (weight kind, element size).
bool decodeMatrix(uint32_t interp, WeightKind &kind, uint32_t &elemSize) {
  switch (interp) {
  case COOPVEC_TYPE_F32:
    kind = WeightKind::F32, elemSize = 4;
    return true;
  case COOPVEC_TYPE_F16:
    kind = WeightKind::F16, elemSize = 2;
    return true;
  case COOPVEC_TYPE_I8:
    kind = WeightKind::S8, elemSize = 1;
    return true;
  case COOPVEC_TYPE_U8:
    kind = WeightKind::U8, elemSize = 1;
    return true;
  default:
    return false;
  }
}

/// (physical type, interpretation) -> staging kind and bytes per vector.
bool decodeInput(uint32_t type, uint32_t interp, bool floatPath, uint32_t k,
                 InputKind &kind, uint64_t &bytes) {
  auto is32BitInt = [](uint32_t t) {
    return t == COOPVEC_TYPE_I32 || t == COOPVEC_TYPE_U32;
  };
  if (floatPath) {
    if (type == COOPVEC_TYPE_F32 && interp == COOPVEC_TYPE_F32)
      kind = InputKind::F32, bytes = 4ull * k;
    else if (type == COOPVEC_TYPE_F16 &&
             (interp == COOPVEC_TYPE_F16 || interp == COOPVEC_TYPE_F32))
      kind = InputKind::F16, bytes = 2ull * k;
    else if (type == COOPVEC_TYPE_F32 && interp == COOPVEC_TYPE_F16)
      kind = InputKind::F32RoundToF16, bytes = 4ull * k;
    else
      return false;
    return true;
  }
  bool u = interp == COOPVEC_TYPE_U8 || interp == COOPVEC_TYPE_PACKED_U8X32;
  if ((type == COOPVEC_TYPE_I8 || type == COOPVEC_TYPE_U8) && type == interp)
    kind = u ? InputKind::U8 : InputKind::S8, bytes = k;
  else if (is32BitInt(type) && (interp == COOPVEC_TYPE_PACKED_S8X32 ||
                                interp == COOPVEC_TYPE_PACKED_U8X32))
    kind = u ? InputKind::U8 : InputKind::S8, bytes = 4 * ceilDiv(k, 4);
  else if (interp != COOPVEC_TYPE_I8 && interp != COOPVEC_TYPE_U8)
    return false;
  else if (type == COOPVEC_TYPE_F32)
    kind = u ? InputKind::F32ToU8 : InputKind::F32ToS8, bytes = 4ull * k;
  else if (type == COOPVEC_TYPE_I32)
    kind = u ? InputKind::I32ToU8 : InputKind::I32ToS8, bytes = 4ull * k;
  else if (type == COOPVEC_TYPE_U32)
    kind = u ? InputKind::U32ToU8 : InputKind::U32ToS8, bytes = 4ull * k;
  else
    return false;
  return true;
}

/// The stored matrix as a validated layout: M x K, or K x M transposed.
int32_t storedLayout(uint32_t layout, bool transpose, uint32_t m, uint32_t k,
                     uint32_t elemSize, uint32_t stride, LayoutParams &p) {
  uint32_t rows = transpose ? k : m, cols = transpose ? m : k;
  // The optimal layouts ignore the stride; normalize it so validation does
  // not depend on garbage there.
  if (layout >= COOPVEC_LAYOUT_INFERENCING_OPTIMAL)
    stride = 0;
  if (int32_t st = coopvecLayoutValidate(layout, rows, cols, elemSize, stride))
    return st;
  p = LayoutParams{layout, rows, cols, elemSize, stride};
  return COOPVEC_OK;
}

/// Panel form of a stored matrix the microkernel can read in place, if any.
bool nativePanels(const LayoutParams &p, bool transpose, const uint8_t *base,
                  Panels &panels) {
  if (transpose)
    return false;
  uint32_t es = p.elemSize;
  if (p.layout == COOPVEC_LAYOUT_INFERENCING_OPTIMAL) {
    panels = Panels{base, p.panelBytes(),
                    uint64_t(kPanelRows) * layout::columnGroup(es) * es};
    return true;
  }
  // 8x8 tiles with columns of 8 rows contiguous are 8-row panels whose
  // columns are padded to a multiple of 8, for 1-column groups.
  if (p.layout == COOPVEC_LAYOUT_TRAINING_OPTIMAL && es != 1) {
    panels = Panels{base, 64ull * es * ceilDiv(p.cols, kPanelRows),
                    uint64_t(kPanelRows) * es};
    return true;
  }
  return false;
}

/// Batch tile so that a tile of staged inputs (~48 KiB) stays in L1/L2, a
/// multiple of the 6-vector register block.
uint32_t batchTileFor(uint64_t bytesPerVector, uint32_t batch) {
  uint64_t tile = 49152 / std::max<uint64_t>(bytesPerVector, 1);
  tile = std::max<uint64_t>(6, std::min<uint64_t>(96, tile / 6 * 6));
  return uint32_t(std::min<uint64_t>(tile, batch));
}

template <class Fn> void runTasks(unsigned numTasks, uint32_t threads, Fn fn) {
  parallelFor(numTasks, resolveThreads(threads), fn);
}

} // namespace

//===----------------------------------------------------------------------===//
// Matrix-vector multiply(-add)
//===----------------------------------------------------------------------===//

extern "C" int32_t coopvecMatVecMulAdd(
    void *output, uint32_t outputType, uint64_t outputStride,
    const void *input, uint32_t inputType, uint32_t inputInterp,
    uint64_t inputStride, uint32_t batch, const void *matrix,
    uint64_t matrixOffset, uint32_t matrixInterp, uint32_t m, uint32_t k,
    uint32_t layout, uint32_t transpose, uint32_t matrixStride,
    const void *bias, uint64_t biasOffset, uint32_t biasInterp,
    uint32_t numThreads) {
  if (batch == 0)
    return COOPVEC_OK;
  if (!output || !input || !matrix)
    return COOPVEC_ERROR_NULL_POINTER;
  if (m == 0 || k == 0)
    return COOPVEC_ERROR_INVALID_DIMENSIONS;
  MatVecPlan plan;
  uint32_t elemSize;
  if (!decodeMatrix(matrixInterp, plan.weights, elemSize))
    return COOPVEC_ERROR_UNSUPPORTED_TYPE;
  bool floatPath = isFloatWeights(plan.weights);
  plan.m = m;
  plan.k = k;
  plan.transpose = transpose != 0;
  plan.matrix = static_cast<const uint8_t *>(matrix) + matrixOffset;
  if (int32_t st = storedLayout(layout, plan.transpose, m, k, elemSize,
                                matrixStride, plan.stored))
    return st;
  plan.native = nativePanels(plan.stored, plan.transpose, plan.matrix,
                             plan.panels);

  uint64_t inputBytes;
  if (!decodeInput(inputType, inputInterp, floatPath, k, plan.inputKind,
                   inputBytes))
    return COOPVEC_ERROR_UNSUPPORTED_TYPE;
  plan.input = static_cast<const uint8_t *>(input);
  plan.inputStride = inputStride ? inputStride : inputBytes;
  if (plan.inputStride < inputBytes)
    return COOPVEC_ERROR_INVALID_STRIDE;
  plan.batch = batch;

  plan.bias = bias ? static_cast<const uint8_t *>(bias) + biasOffset : nullptr;
  plan.biasKind = BiasKind::None;
  if (bias) {
    if (floatPath && biasInterp == COOPVEC_TYPE_F32)
      plan.biasKind = BiasKind::F32;
    else if (floatPath && biasInterp == COOPVEC_TYPE_F16)
      plan.biasKind = BiasKind::F16;
    else if (!floatPath && biasInterp == COOPVEC_TYPE_I32)
      plan.biasKind = BiasKind::I32;
    else
      return COOPVEC_ERROR_UNSUPPORTED_TYPE;
  }

  uint32_t outElem;
  if (floatPath && outputType == COOPVEC_TYPE_F32)
    plan.outputKind = OutputKind::F32, outElem = 4;
  else if (floatPath && outputType == COOPVEC_TYPE_F16)
    plan.outputKind = OutputKind::F16, outElem = 2;
  else if (!floatPath && outputType == COOPVEC_TYPE_I32)
    plan.outputKind = OutputKind::I32, outElem = 4;
  else if (!floatPath && outputType == COOPVEC_TYPE_F32)
    plan.outputKind = OutputKind::I32ToF32, outElem = 4;
  else
    return COOPVEC_ERROR_UNSUPPORTED_TYPE;
  plan.output = static_cast<uint8_t *>(output);
  plan.outputStride = outputStride ? outputStride : uint64_t(outElem) * m;
  if (plan.outputStride < uint64_t(outElem) * m)
    return COOPVEC_ERROR_INVALID_STRIDE;

  // Tiles of the batch first; when they are too few to feed every thread,
  // the rows are split too (in whole 32-row strips).
  unsigned threads = resolveThreads(numThreads);
  plan.batchTile = batchTileFor(uint64_t(k) * (floatPath ? 4 : 2), batch);
  plan.numBatchTiles = uint32_t(ceilDiv(batch, plan.batchTile));
  uint64_t rowChunks = 1;
  if (threads > 1 && plan.numBatchTiles < 4 * threads)
    rowChunks = ceilDiv(4 * threads, plan.numBatchTiles);
  plan.rowChunk = uint32_t(roundUp(ceilDiv(m, rowChunks), 32));
  plan.numRowChunks = uint32_t(ceilDiv(m, plan.rowChunk));
  uint64_t numTasks = uint64_t(plan.numBatchTiles) * plan.numRowChunks;
  if (numTasks > 0xffffffffu)
    return COOPVEC_ERROR_INVALID_DIMENSIONS;

  bool avx2 = useAvx2();
  auto task = [&](unsigned t) {
    if (avx2)
      avx2::matVecTask(plan, t);
    else
      portable::matVecTask(plan, t);
  };
  parallelFor(unsigned(numTasks), threads, task);
  return COOPVEC_OK;
}

extern "C" int32_t coopvecMatVecMul(
    void *output, uint32_t outputType, uint64_t outputStride,
    const void *input, uint32_t inputType, uint32_t inputInterp,
    uint64_t inputStride, uint32_t batch, const void *matrix,
    uint64_t matrixOffset, uint32_t matrixInterp, uint32_t m, uint32_t k,
    uint32_t layout, uint32_t transpose, uint32_t matrixStride,
    uint32_t numThreads) {
  return coopvecMatVecMulAdd(output, outputType, outputStride, input,
                             inputType, inputInterp, inputStride, batch,
                             matrix, matrixOffset, matrixInterp, m, k, layout,
                             transpose, matrixStride, nullptr, 0, 0,
                             numThreads);
}

//===----------------------------------------------------------------------===//
// Fused MLP
//===----------------------------------------------------------------------===//

namespace {
/// Repacks one layer's weights into panels of the MLP's compute form: f32
/// (from F32/F16) in 1-column groups, or 8-bit widened to 16-bit in 2-column
/// groups (what S16Weights loads).
void packMlpWeights(const CoopVecMlpLayer &l, const LayoutParams &stored,
                    bool int8, std::vector<uint8_t> &buf, Panels &panels) {
  const uint8_t *src =
      static_cast<const uint8_t *>(l.weights) + l.weightsOffset;
  uint32_t m = l.outputs, k = l.inputs, g = int8 ? 2 : 1, es = int8 ? 2 : 4;
  uint64_t panelBytes = uint64_t(kPanelRows) * roundUp(k, g) * es;
  buf.assign(ceilDiv(m, kPanelRows) * panelBytes, 0);
  bool transpose = l.transpose != 0;
  for (uint32_t r = 0; r < m; ++r)
    for (uint32_t c = 0; c < k; ++c) {
      const uint8_t *e =
          src + (transpose ? stored.offset(c, r) : stored.offset(r, c));
      uint8_t *d = buf.data() + (r / kPanelRows) * panelBytes +
                   (c / g) * (kPanelRows * g * es) +
                   (r % kPanelRows) * (g * es) + (c % g) * es;
      if (int8) {
        int16_t v = int8_t(*e);
        std::memcpy(d, &v, 2);
      } else {
        float v;
        if (l.weightsInterp == COOPVEC_TYPE_F16) {
          uint16_t h;
          std::memcpy(&h, e, 2);
          v = halfToFloat(h);
        } else {
          std::memcpy(&v, e, 4);
        }
        std::memcpy(d, &v, 4);
      }
    }
  panels = Panels{buf.data(), panelBytes, uint64_t(kPanelRows) * g * es};
}
} // namespace

extern "C" int32_t coopvecMlpForward(float *output, uint64_t outputStride,
                                     const float *input, uint64_t inputStride,
                                     uint32_t batch,
                                     const CoopVecMlpLayer *layers,
                                     uint32_t numLayers, float inputScale,
                                     uint32_t outputExp, uint32_t numThreads) {
  if (batch == 0)
    return COOPVEC_OK;
  if (!output || !input || !layers)
    return COOPVEC_ERROR_NULL_POINTER;
  if (numLayers == 0 || numLayers > kMaxMlpLayers)
    return COOPVEC_ERROR_INVALID_ARGUMENT;
  MlpPlan plan;
  uint32_t interp = layers[0].weightsInterp;
  if (interp != COOPVEC_TYPE_F32 && interp != COOPVEC_TYPE_F16 &&
      interp != COOPVEC_TYPE_I8)
    return COOPVEC_ERROR_UNSUPPORTED_TYPE;
  plan.int8 = interp == COOPVEC_TYPE_I8;
  plan.numLayers = numLayers;
  uint32_t maxWidth = 0;
  LayoutParams stored[kMaxMlpLayers];
  for (uint32_t l = 0; l < numLayers; ++l) {
    const CoopVecMlpLayer &layer = layers[l];
    if (!layer.weights)
      return COOPVEC_ERROR_NULL_POINTER;
    if (layer.weightsInterp != interp)
      return COOPVEC_ERROR_UNSUPPORTED_TYPE;
    if (layer.outputs == 0 || layer.inputs == 0 ||
        (l > 0 && layer.inputs != layers[l - 1].outputs))
      return COOPVEC_ERROR_INVALID_DIMENSIONS;
    if (layer.activation > COOPVEC_ACTIVATION_RELU)
      return COOPVEC_ERROR_INVALID_ARGUMENT;
    if (layer.bias &&
        (plan.int8 ? layer.biasInterp != COOPVEC_TYPE_I32
                   : layer.biasInterp != COOPVEC_TYPE_F32 &&
                         layer.biasInterp != COOPVEC_TYPE_F16))
      return COOPVEC_ERROR_UNSUPPORTED_TYPE;
    uint32_t es = plan.int8 ? 1 : interp == COOPVEC_TYPE_F16 ? 2 : 4;
    if (int32_t st = storedLayout(layer.layout, layer.transpose != 0,
                                  layer.outputs, layer.inputs, es,
                                  layer.stride, stored[l]))
      return st;
    maxWidth = std::max({maxWidth, layer.outputs, layer.inputs});
  }
  plan.maxWidth = uint32_t(roundUp(maxWidth, 2));
  uint64_t inBytes = 4ull * layers[0].inputs;
  uint64_t outBytes = 4ull * layers[numLayers - 1].outputs;
  plan.inputStride = inputStride ? inputStride : inBytes;
  plan.outputStride = outputStride ? outputStride : outBytes;
  if (plan.inputStride < inBytes || plan.inputStride % 4 ||
      plan.outputStride < outBytes || plan.outputStride % 4)
    return COOPVEC_ERROR_INVALID_STRIDE;
  plan.input = input;
  plan.output = output;
  plan.batch = batch;
  plan.inputScale = inputScale;
  plan.outputExp = outputExp != 0;

  // Weights and biases in compute form, once per call.
  std::vector<uint8_t> weightBufs[kMaxMlpLayers];
  std::vector<float> biasF[kMaxMlpLayers];
  std::vector<int32_t> biasI[kMaxMlpLayers];
  for (uint32_t l = 0; l < numLayers; ++l) {
    const CoopVecMlpLayer &layer = layers[l];
    MlpLayerPlan &lp = plan.layers[l];
    packMlpWeights(layer, stored[l], plan.int8, weightBufs[l], lp.panels);
    lp.m = layer.outputs;
    lp.k = layer.inputs;
    lp.relu = layer.activation == COOPVEC_ACTIVATION_RELU;
    lp.requantScale = layer.requantScale;
    uint64_t padded = roundUp(layer.outputs, 32);
    const uint8_t *b =
        layer.bias ? static_cast<const uint8_t *>(layer.bias) + layer.biasOffset
                   : nullptr;
    if (plan.int8) {
      biasI[l].assign(padded, 0);
      if (b)
        std::memcpy(biasI[l].data(), b, 4ull * layer.outputs);
    } else {
      biasF[l].assign(padded, 0.0f);
      for (uint32_t i = 0; b && i < layer.outputs; ++i) {
        if (layer.biasInterp == COOPVEC_TYPE_F16) {
          uint16_t h;
          std::memcpy(&h, b + 2ull * i, 2);
          biasF[l][i] = halfToFloat(h);
        } else {
          std::memcpy(&biasF[l][i], b + 4ull * i, 4);
        }
      }
    }
    lp.biasF = biasF[l].data();
    lp.biasI = biasI[l].data();
  }

  // A tile's activations (~16 KiB per buffer) stay in L1 between layers.
  uint64_t tile = 16384 / (4ull * plan.maxWidth);
  tile = std::max<uint64_t>(6, std::min<uint64_t>(96, tile / 6 * 6));
  plan.batchTile = uint32_t(std::min<uint64_t>(tile, batch));
  plan.numBatchTiles = uint32_t(ceilDiv(batch, plan.batchTile));

  bool avx2 = useAvx2();
  auto task = [&](unsigned t) {
    if (avx2)
      avx2::mlpTask(plan, t);
    else
      portable::mlpTask(plan, t);
  };
  runTasks(plan.numBatchTiles, numThreads, task);
  return COOPVEC_OK;
}

//===----------------------------------------------------------------------===//
// Atomic accumulation
//===----------------------------------------------------------------------===//

namespace {
/// Adds `v` to the f32 at `p` (4-byte aligned) with a CAS loop.
void atomicAddF32(uint8_t *p, float v) {
  auto *word = reinterpret_cast<uint32_t *>(p);
  uint32_t old = __atomic_load_n(word, __ATOMIC_RELAXED);
  for (;;) {
    float f;
    std::memcpy(&f, &old, 4);
    f += v;
    uint32_t desired;
    std::memcpy(&desired, &f, 4);
    if (__atomic_compare_exchange_n(word, &old, desired, /*weak=*/true,
                                    __ATOMIC_RELAXED, __ATOMIC_RELAXED))
      return;
  }
}

/// Adds `lo`/`hi` to the two f16 halves of the aligned 32-bit word at `word`
/// (either may be skipped) in one CAS loop, rounding each sum RTNE.
void atomicAddF16Pair(uint8_t *wordPtr, bool hasLo, float lo, bool hasHi,
                      float hi) {
  auto *word = reinterpret_cast<uint32_t *>(wordPtr);
  uint32_t old = __atomic_load_n(word, __ATOMIC_RELAXED);
  for (;;) {
    uint32_t desired = old;
    // Little-endian: the half at the lower address is the low 16 bits.
    if (hasLo)
      desired = (desired & 0xffff0000u) |
                floatToHalf(halfToFloat(uint16_t(old)) + lo);
    if (hasHi)
      desired = (desired & 0x0000ffffu) |
                uint32_t(floatToHalf(halfToFloat(uint16_t(old >> 16)) + hi))
                    << 16;
    if (__atomic_compare_exchange_n(word, &old, desired, /*weak=*/true,
                                    __ATOMIC_RELAXED, __ATOMIC_RELAXED))
      return;
  }
}

/// Accumulates a run of (address, value) updates in order; consecutive f16
/// updates to the same 32-bit word are merged into one CAS.
struct Accumulator {
  bool half;
  uint8_t *pendingWord = nullptr;
  bool hasLo = false, hasHi = false;
  float lo = 0, hi = 0;

  void add(uint8_t *p, float v) {
    if (!half)
      return atomicAddF32(p, v);
    auto *w = reinterpret_cast<uint8_t *>(reinterpret_cast<uintptr_t>(p) &
                                          ~uintptr_t(3));
    if (w != pendingWord)
      flush();
    pendingWord = w;
    if (reinterpret_cast<uintptr_t>(p) & 2)
      hasHi = true, hi = v;
    else
      hasLo = true, lo = v;
  }
  void flush() {
    if (pendingWord && (hasLo || hasHi))
      atomicAddF16Pair(pendingWord, hasLo, lo, hasHi, hi);
    pendingWord = nullptr;
    hasLo = hasHi = false;
  }
};

bool decodeFloatType(uint32_t t, uint32_t &bytes) {
  if (t == COOPVEC_TYPE_F32)
    return bytes = 4, true;
  if (t == COOPVEC_TYPE_F16)
    return bytes = 2, true;
  return false;
}

float loadFloat(const uint8_t *p, uint32_t bytes) {
  if (bytes == 4) {
    float f;
    std::memcpy(&f, p, 4);
    return f;
  }
  uint16_t h;
  std::memcpy(&h, p, 2);
  return halfToFloat(h);
}

/// batch x n vectors of `type` into contiguous f32.
std::vector<float> widenVectors(const uint8_t *src, uint32_t bytes,
                                uint64_t stride, uint32_t batch, uint32_t n) {
  std::vector<float> out(uint64_t(batch) * n);
  for (uint32_t b = 0; b < batch; ++b)
    for (uint32_t i = 0; i < n; ++i)
      out[uint64_t(b) * n + i] = loadFloat(src + b * stride + uint64_t(i) * bytes, bytes);
  return out;
}
} // namespace

extern "C" int32_t coopvecOuterProductAccumulate(
    const void *a, uint32_t aType, uint64_t aStride, const void *b,
    uint32_t bType, uint64_t bStride, uint32_t batch, uint32_t m, uint32_t n,
    void *matrix, uint64_t matrixOffset, uint32_t matrixInterp,
    uint32_t layout, uint32_t matrixStride, uint32_t numThreads) {
  if (batch == 0)
    return COOPVEC_OK;
  if (!a || !b || !matrix)
    return COOPVEC_ERROR_NULL_POINTER;
  uint32_t aBytes, bBytes, es;
  if (!decodeFloatType(aType, aBytes) || !decodeFloatType(bType, bBytes) ||
      !decodeFloatType(matrixInterp, es))
    return COOPVEC_ERROR_UNSUPPORTED_TYPE;
  LayoutParams p;
  if (int32_t st = storedLayout(layout, false, m, n, es, matrixStride, p))
    return st;
  uint8_t *base = static_cast<uint8_t *>(matrix) + matrixOffset;
  if (reinterpret_cast<uintptr_t>(base) % es)
    return COOPVEC_ERROR_INVALID_ARGUMENT;
  aStride = aStride ? aStride : uint64_t(aBytes) * m;
  bStride = bStride ? bStride : uint64_t(bBytes) * n;
  if (aStride < uint64_t(aBytes) * m || bStride < uint64_t(bBytes) * n)
    return COOPVEC_ERROR_INVALID_STRIDE;
  std::vector<float> av = widenVectors(static_cast<const uint8_t *>(a), aBytes,
                                       aStride, batch, m);
  std::vector<float> bv = widenVectors(static_cast<const uint8_t *>(b), bBytes,
                                       bStride, batch, n);
  // Walk the storage's contiguous direction innermost so that the two
  // halves of an f16 word are adjacent updates: columns for row-major, rows
  // for the others (column-major and both optimal layouts keep 8 rows of a
  // column together).
  bool rowsInner = layout != COOPVEC_LAYOUT_ROW_MAJOR;
  uint32_t outer = rowsInner ? n : m, inner = rowsInner ? m : n;
  uint32_t chunk = std::max<uint32_t>(1, 4096 / inner);
  uint32_t numTasks = uint32_t(ceilDiv(outer, chunk));
  auto task = [&](unsigned t) {
    Accumulator acc{es == 2};
    uint32_t o1 = std::min<uint64_t>(outer, uint64_t(t + 1) * chunk);
    for (uint32_t o = t * chunk; o < o1; ++o) {
      for (uint32_t i = 0; i < inner; ++i) {
        uint32_t r = rowsInner ? i : o, c = rowsInner ? o : i;
        float sum = 0.0f;
        for (uint32_t s = 0; s < batch; ++s)
          sum += av[uint64_t(s) * m + r] * bv[uint64_t(s) * n + c];
        acc.add(base + p.offset(r, c), sum);
      }
      acc.flush();
    }
  };
  runTasks(numTasks, numThreads, task);
  return COOPVEC_OK;
}

extern "C" int32_t coopvecVectorAccumulate(const void *input,
                                           uint32_t inputType,
                                           uint64_t inputStride,
                                           uint32_t batch, uint32_t n,
                                           void *buffer, uint64_t offset,
                                           uint32_t accumInterp,
                                           uint32_t numThreads) {
  if (batch == 0)
    return COOPVEC_OK;
  if (!input || !buffer)
    return COOPVEC_ERROR_NULL_POINTER;
  if (n == 0)
    return COOPVEC_ERROR_INVALID_DIMENSIONS;
  uint32_t inBytes, es;
  if (!decodeFloatType(inputType, inBytes) ||
      !decodeFloatType(accumInterp, es))
    return COOPVEC_ERROR_UNSUPPORTED_TYPE;
  uint8_t *base = static_cast<uint8_t *>(buffer) + offset;
  if (reinterpret_cast<uintptr_t>(base) % es)
    return COOPVEC_ERROR_INVALID_ARGUMENT;
  inputStride = inputStride ? inputStride : uint64_t(inBytes) * n;
  if (inputStride < uint64_t(inBytes) * n)
    return COOPVEC_ERROR_INVALID_STRIDE;
  const auto *in = static_cast<const uint8_t *>(input);
  constexpr uint32_t kChunk = 4096;
  auto task = [&](unsigned t) {
    Accumulator acc{es == 2};
    uint32_t i1 = std::min<uint64_t>(n, uint64_t(t + 1) * kChunk);
    for (uint32_t i = t * kChunk; i < i1; ++i) {
      float sum = 0.0f;
      for (uint32_t s = 0; s < batch; ++s)
        sum += loadFloat(in + s * inputStride + uint64_t(i) * inBytes, inBytes);
      acc.add(base + uint64_t(i) * es, sum);
    }
    acc.flush();
  };
  runTasks(uint32_t(ceilDiv(n, kChunk)), numThreads, task);
  return COOPVEC_OK;
}

//===----------------------------------------------------------------------===//
// Configuration
//===----------------------------------------------------------------------===//

extern "C" void coopvecKernelsForcePortable(int32_t mode) {
  forcedPortable.store(mode < 0 ? -1 : mode > 0 ? 1 : 0,
                       std::memory_order_relaxed);
}

extern "C" const char *coopvecKernelsIsa(void) {
  return useAvx2() ? "avx2" : "portable";
}

extern "C" uint32_t coopvecKernelsDefaultThreads(void) {
  return defaultThreadCount();
}
