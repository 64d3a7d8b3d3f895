//===- Quantized.cpp - reference semantics of the quantized product -------===//
//
// coopvecReferenceQuantizedMatMul: coopvec.batch_matvec's quantized form
// element by element, as Quantized.h states it (integer parts exact in
// int64, f32 steps in a fixed order, never fused), and
// coopvecReferenceQuantizeRows, coopvec.quantize_rows element by element.
//
//===----------------------------------------------------------------------===//

#include "LinAlgCoop/Runtime/Quantized.h"
#include "QuantValues.h"
#include "ReferenceInternal.h"

#include "LinAlgCoop/Runtime/Kernels.h"
#include "LinAlgCoop/Runtime/Layout.h"
#include "LinAlgCoop/Runtime/Numerics.h"

#include <algorithm>
#include <cmath>
#include <cstring>

using namespace coopvec::dxil;
using coopvec::quant::Values;

namespace {
bool isGroupOk(uint32_t group, uint32_t k) {
  return group == 0 || k % group == 0;
}

bool oneOf(uint32_t v, std::initializer_list<uint32_t> set) {
  return std::find(set.begin(), set.end(), v) != set.end();
}

uint32_t sizeOr(uint32_t group, uint32_t k) { return group ? group : k; }

/// Stores the f32 `y` as the output element type (RTNE).
void storeReal(uint8_t *out, uint32_t type, float y) {
  if (type == COOPVEC_TYPE_F32) {
    std::memcpy(out, &y, 4);
    return;
  }
  uint32_t bits = coopvecConvertF32(
      type == COOPVEC_TYPE_F16 ? COOPVEC_FMT_F16 : COOPVEC_FMT_BF16, y,
      COOPVEC_RND_RN, 0, 0);
  std::memcpy(out, &bits, 2);
}
} // namespace

extern "C" int32_t
coopvecQuantizedMatMulCheck(const CoopVecQuantMatMulParams *p) {
  if (!p)
    return COOPVEC_ERROR_NULL_POINTER;
  if (!oneOf(p->outputType, {COOPVEC_TYPE_F32, COOPVEC_TYPE_F16,
                             COOPVEC_TYPE_BF16, COOPVEC_TYPE_I32}) ||
      !oneOf(p->inputInterp, {COOPVEC_TYPE_I8, COOPVEC_TYPE_U8}) ||
      !oneOf(p->matrixInterp, {COOPVEC_TYPE_I8, COOPVEC_TYPE_U8,
                               COOPVEC_TYPE_I4, COOPVEC_TYPE_U4}))
    return COOPVEC_ERROR_UNSUPPORTED_TYPE;
  std::initializer_list<uint32_t> zps = {COOPVEC_TYPE_I8, COOPVEC_TYPE_U8,
                                         COOPVEC_TYPE_I32};
  std::initializer_list<uint32_t> scales = {COOPVEC_TYPE_F32, COOPVEC_TYPE_F16,
                                            COOPVEC_TYPE_BF16};
  if ((p->weightZeroPoints && !oneOf(p->weightZeroPointsInterp, zps)) ||
      (p->inputZeroPoints && !oneOf(p->inputZeroPointsInterp, zps)) ||
      (p->weightScales && !oneOf(p->weightScalesInterp, scales)) ||
      (p->inputScales && !oneOf(p->inputScalesInterp, scales)) ||
      (p->reductions && !oneOf(p->reductionsInterp, zps)))
    return COOPVEC_ERROR_UNSUPPORTED_TYPE;
  bool scaled = p->weightScales || p->inputScales;
  if (p->outputType == COOPVEC_TYPE_I32 && scaled)
    return COOPVEC_ERROR_UNSUPPORTED_TYPE;
  if (p->bias && (p->outputType == COOPVEC_TYPE_I32
                      ? p->biasInterp != COOPVEC_TYPE_I32
                      : !oneOf(p->biasInterp, scales)))
    return COOPVEC_ERROR_UNSUPPORTED_TYPE;
  if (!p->output || !p->input || !p->matrix)
    return COOPVEC_ERROR_NULL_POINTER;
  uint32_t k = p->k;
  if (p->m == 0 || k == 0 || p->m > 65536 || k > 65536 ||
      p->matrixOffset > UINT32_MAX)
    return COOPVEC_ERROR_INVALID_DIMENSIONS;
  for (uint32_t g : {p->weightZeroPointsGroup, p->weightScalesGroup,
                     p->inputZeroPointsGroup, p->inputScalesGroup,
                     p->reductionsGroup})
    if (!isGroupOk(g, k))
      return COOPVEC_ERROR_INVALID_DIMENSIONS;
  uint32_t sx = sizeOr(p->inputScales ? p->inputScalesGroup : 0, k);
  uint32_t sw = sizeOr(p->weightScales ? p->weightScalesGroup : 0, k);
  if (sx % sw != 0 && sw % sx != 0)
    return COOPVEC_ERROR_INVALID_DIMENSIONS;
  if (p->reductions) {
    uint32_t r = p->reductionsGroup;
    if (!p->weightZeroPoints || r == 0 ||
        sizeOr(p->weightZeroPointsGroup, k) % r != 0 ||
        std::min(sx, sw) % r != 0)
      return COOPVEC_ERROR_INVALID_ARGUMENT;
  }
  const ComponentInfo *mInfo = getElement(p->matrixInterp);
  uint32_t storedRows = p->transpose ? k : p->m;
  uint32_t storedCols = p->transpose ? p->m : k;
  uint32_t units = mInfo->bits == 4 ? (storedCols + 1) / 2 : storedCols;
  if (coopvecLayoutValidate(p->layout, storedRows, units, mInfo->bytes,
                            p->matrixStride) != COOPVEC_OK)
    return COOPVEC_ERROR_INVALID_STRIDE;
  return COOPVEC_OK;
}

extern "C" int32_t
coopvecReferenceQuantizedMatMul(const CoopVecQuantMatMulParams *p) {
  if (int32_t status = coopvecQuantizedMatMulCheck(p))
    return status;
  uint32_t k = p->k, m = p->m;
  const ComponentInfo *mInfo = getElement(p->matrixInterp);
  CoopVecDxBuffer buffer{
      const_cast<uint8_t *>(static_cast<const uint8_t *>(p->matrix)),
      UINT64_MAX};
  MatrixRef ref{&buffer,
                uint32_t(p->matrixOffset),
                p->layout,
                p->matrixStride,
                p->transpose ? k : m,
                p->transpose ? m : k,
                mInfo};
  auto weight = [&](uint32_t n, uint32_t kk) -> int64_t {
    uint32_t bits = p->transpose ? ref.load(kk, n) : ref.load(n, kk);
    // load() gives the I8 bits of an I4 (sign-extended nibble) and the
    // U8 bits of a U4.
    return mInfo->format == COOPVEC_FMT_I8 ? int64_t(int8_t(bits))
                                           : int64_t(bits & 0xFF);
  };
  coopvec::quant::Operands operands(*p);
  const Values &wz = operands.weightZeroPoints, &ws = operands.weightScales,
               &xz = operands.inputZeroPoints, &xs = operands.inputScales,
               &red = operands.reductions;
  uint32_t compute = coopvec::quant::computeGroup(xs, ws, k);
  bool intOut = p->outputType == COOPVEC_TYPE_I32;
  unsigned outBytes = coopvec::quant::valueBytes(p->outputType);
  Values bias = Values::weights(p->bias, p->biasOffset, p->biasInterp, 1, 1);

  for (uint32_t b = 0; b < p->batch; ++b) {
    const uint8_t *x = static_cast<const uint8_t *>(p->input) +
                       uint64_t(b) * p->inputStride;
    auto input = [&](uint32_t kk) -> int64_t {
      return p->inputInterp == COOPVEC_TYPE_I8 ? int64_t(int8_t(x[kk]))
                                               : int64_t(x[kk]);
    };
    auto xzp = [&](uint32_t kk) -> int64_t {
      return xz.present() ? xz.integer(b, kk) : 0;
    };
    uint8_t *out = static_cast<uint8_t *>(p->output) +
                   uint64_t(b) * p->outputStride;
    for (uint32_t n = 0; n < m; ++n) {
      float y = 0.0f;
      __int128 total = 0;
      for (uint32_t j0 = 0; j0 < k; j0 += compute) {
        int64_t acc = 0;
        for (uint32_t kk = j0; kk < j0 + compute; ++kk) {
          int64_t w = weight(n, kk);
          if (!red.present() && wz.present())
            w -= wz.integer(n, kk);
          acc += (input(kk) - xzp(kk)) * w;
        }
        if (red.present()) {
          for (uint32_t g0 = j0; g0 < j0 + compute; g0 += red.group) {
            int64_t zeroSum = 0;
            for (uint32_t kk = g0; kk < g0 + red.group; ++kk)
              zeroSum += xzp(kk);
            acc -= wz.integer(n, g0) * (red.integer(b, g0) - zeroSum);
          }
        }
        if (intOut) {
          total += acc;
          continue;
        }
        float a = float(acc);
        if (xs.present())
          a = a * xs.real(b, j0);
        if (ws.present())
          a = a * ws.real(n, j0);
        y = y + a;
      }
      uint8_t *dst = out + uint64_t(n) * outBytes;
      if (intOut) {
        if (bias.present())
          total += bias.integer(n, 0);
        int32_t v = int32_t(std::clamp<__int128>(total, INT32_MIN, INT32_MAX));
        std::memcpy(dst, &v, 4);
        continue;
      }
      if (bias.present())
        y = y + bias.real(n, 0);
      storeReal(dst, p->outputType, y);
    }
  }
  return COOPVEC_OK;
}

//===----------------------------------------------------------------------===//
// Row quantization
//===----------------------------------------------------------------------===//

extern "C" int32_t
coopvecQuantizeRowsCheck(const CoopVecQuantizeRowsParams *p) {
  if (!p || !p->input || !p->output || !p->scales ||
      (p->outputInterp == COOPVEC_TYPE_U8 && !p->zeroPoints))
    return COOPVEC_ERROR_NULL_POINTER;
  if (!oneOf(p->inputType, {COOPVEC_TYPE_F32, COOPVEC_TYPE_F16}) ||
      !oneOf(p->outputInterp, {COOPVEC_TYPE_I8, COOPVEC_TYPE_U8}) ||
      !oneOf(p->scaleType,
             {COOPVEC_TYPE_F32, COOPVEC_TYPE_F16, COOPVEC_TYPE_BF16}) ||
      (p->outputInterp == COOPVEC_TYPE_I8 && p->zeroPoints))
    return COOPVEC_ERROR_UNSUPPORTED_TYPE;
  if (p->group == 0 || p->n % p->group != 0)
    return COOPVEC_ERROR_INVALID_DIMENSIONS;
  return COOPVEC_OK;
}

extern "C" int32_t
coopvecReferenceQuantizeRows(const CoopVecQuantizeRowsParams *p) {
  if (int32_t status = coopvecQuantizeRowsCheck(p))
    return status;
  bool asym = p->outputInterp == COOPVEC_TYPE_U8;
  unsigned scaleFmt = p->scaleType == COOPVEC_TYPE_F32   ? COOPVEC_FMT_F32
                      : p->scaleType == COOPVEC_TYPE_F16 ? COOPVEC_FMT_F16
                                                         : COOPVEC_FMT_BF16;
  unsigned scaleBytes = scaleFmt == COOPVEC_FMT_F32 ? 4 : 2;
  uint32_t groups = p->n / p->group;
  for (uint32_t b = 0; b < p->batch; ++b) {
    const uint8_t *in =
        static_cast<const uint8_t *>(p->input) + uint64_t(b) * p->inputStride;
    uint8_t *q = static_cast<uint8_t *>(p->output) + uint64_t(b) * p->outputStride;
    uint8_t *scaleRow =
        static_cast<uint8_t *>(p->scales) + uint64_t(b) * p->scalesStride;
    auto value = [&](uint32_t i) -> float {
      if (p->inputType == COOPVEC_TYPE_F32) {
        float f;
        std::memcpy(&f, in + uint64_t(i) * 4, 4);
        return f;
      }
      uint16_t h;
      std::memcpy(&h, in + uint64_t(i) * 2, 2);
      return coopvecDecodeToF32(COOPVEC_FMT_F16, h);
    };
    for (uint32_t g = 0; g < groups; ++g) {
      uint32_t i0 = g * p->group, i1 = i0 + p->group;
      float lo = 0.0f, hi = 0.0f, amax = 0.0f;
      for (uint32_t i = i0; i < i1; ++i) {
        float v = value(i);
        if (std::isnan(v))
          continue;
        lo = std::min(lo, v);
        hi = std::max(hi, v);
        amax = std::max(amax, std::fabs(v));
      }
      float s = asym ? (hi - lo) / 255.0f : amax / 127.0f;
      // The stored scale is the one used.
      uint32_t sBits = coopvecConvertF32(scaleFmt, s, COOPVEC_RND_RN, 0, 0);
      s = coopvecDecodeToF32(scaleFmt, sBits);
      if (!(s > 0.0f) || std::isinf(s)) {
        s = 1.0f;
        sBits = coopvecConvertF32(scaleFmt, 1.0f, COOPVEC_RND_RN, 0, 0);
      }
      std::memcpy(scaleRow + uint64_t(g) * scaleBytes, &sBits, scaleBytes);
      int32_t z = 0;
      if (asym) {
        float zf = std::nearbyint(-lo / s);
        z = int32_t(std::clamp(zf, 0.0f, 255.0f));
        std::memcpy(static_cast<uint8_t *>(p->zeroPoints) +
                        uint64_t(b) * p->zeroPointsStride + uint64_t(g) * 4,
                    &z, 4);
      }
      int32_t sum = 0;
      for (uint32_t i = i0; i < i1; ++i) {
        float v = value(i);
        float r = std::isnan(v) ? 0.0f : std::nearbyint(v / s);
        int32_t qi;
        if (asym)
          qi = int32_t(std::clamp(r + float(z), 0.0f, 255.0f));
        else
          qi = int32_t(std::clamp(r, -127.0f, 127.0f));
        q[i] = uint8_t(qi);
        sum += qi;
      }
      if (p->reductions)
        std::memcpy(static_cast<uint8_t *>(p->reductions) +
                        uint64_t(b) * p->reductionsStride + uint64_t(g) * 4,
                    &sum, 4);
    }
  }
  return COOPVEC_OK;
}
