//===- QuantValues.h - Reading the values of a quantized product -*- C++ -*-===//
//
// How coopvecReferenceQuantizedMatMul and the kernels read zero points,
// scales and reductions: one definition of the grouping and the element
// decoding (Quantized.h).
//
//===----------------------------------------------------------------------===//

#ifndef LINALGCOOP_LIB_RUNTIME_REFERENCE_QUANTVALUES_H
#define LINALGCOOP_LIB_RUNTIME_REFERENCE_QUANTVALUES_H

#include "LinAlgCoop/Runtime/Kernels.h"
#include "LinAlgCoop/Runtime/Numerics.h"
#include "LinAlgCoop/Runtime/Quantized.h"

#include <cstdint>
#include <cstring>

namespace coopvec::quant {

/// Bytes of one value of a quantization interpretation; 0 if not one.
inline unsigned valueBytes(uint32_t interp) {
  switch (interp) {
  case COOPVEC_TYPE_I8:
  case COOPVEC_TYPE_U8:
    return 1;
  case COOPVEC_TYPE_F16:
  case COOPVEC_TYPE_BF16:
    return 2;
  case COOPVEC_TYPE_I32:
  case COOPVEC_TYPE_F32:
    return 4;
  default:
    return 0;
  }
}

/// One quantization value set: `base` null when absent.
struct Values {
  const uint8_t *base = nullptr;
  uint32_t interp = 0;
  uint32_t group = 0;      ///< 0: per tensor.
  uint64_t rowStride = 0;  ///< Bytes between rows (b or n).

  bool present() const { return base != nullptr; }

  /// Weight-side values: dense [rows][k / group] at `base + offset`.
  static Values weights(const void *buffer, uint64_t offset, uint32_t interp,
                        uint32_t group, uint32_t k) {
    Values v;
    if (!buffer)
      return v;
    v.base = static_cast<const uint8_t *>(buffer) + offset;
    v.interp = interp;
    v.group = group;
    v.rowStride = group ? uint64_t(k / group) * valueBytes(interp) : 0;
    return v;
  }

  /// Input-side values: [batch][k / group] rows `stride` bytes apart.
  static Values inputs(const void *buffer, uint64_t stride, uint32_t interp,
                       uint32_t group) {
    Values v;
    if (!buffer)
      return v;
    v.base = static_cast<const uint8_t *>(buffer);
    v.interp = interp;
    v.group = group;
    v.rowStride = group ? stride : 0;
    return v;
  }

  const uint8_t *at(uint32_t row, uint32_t k) const {
    if (group == 0)
      return base;
    return base + row * rowStride + uint64_t(k / group) * valueBytes(interp);
  }

  /// The integer value for (row, k): I8, U8 or I32.
  int64_t integer(uint32_t row, uint32_t k) const {
    const uint8_t *p = at(row, k);
    switch (interp) {
    case COOPVEC_TYPE_I8:
      return int8_t(*p);
    case COOPVEC_TYPE_U8:
      return *p;
    default: {
      int32_t v;
      std::memcpy(&v, p, 4);
      return v;
    }
    }
  }

  /// The float value for (row, k): F32, F16 or BF16, exact in f32.
  float real(uint32_t row, uint32_t k) const {
    const uint8_t *p = at(row, k);
    uint32_t bits = 0;
    switch (interp) {
    case COOPVEC_TYPE_F32: {
      float f;
      std::memcpy(&f, p, 4);
      return f;
    }
    case COOPVEC_TYPE_F16:
      std::memcpy(&bits, p, 2);
      return coopvecDecodeToF32(COOPVEC_FMT_F16, bits);
    default:
      std::memcpy(&bits, p, 2);
      return coopvecDecodeToF32(COOPVEC_FMT_BF16, bits);
    }
  }
};

/// The size of the compute groups: the finer scale grouping, K without
/// scales.
inline uint32_t computeGroup(const Values &inputScales,
                             const Values &weightScales, uint32_t k) {
  uint32_t sx = inputScales.present() && inputScales.group ? inputScales.group
                                                           : k;
  uint32_t sw = weightScales.present() && weightScales.group
                    ? weightScales.group
                    : k;
  return sx < sw ? sx : sw;
}

/// The zero points, scales and reductions of a quantized product.
struct Operands {
  Values weightZeroPoints, weightScales, inputZeroPoints, inputScales,
      reductions;

  explicit Operands(const CoopVecQuantMatMulParams &p)
      : weightZeroPoints(Values::weights(
            p.weightZeroPoints, p.weightZeroPointsOffset,
            p.weightZeroPointsInterp, p.weightZeroPointsGroup, p.k)),
        weightScales(Values::weights(p.weightScales, p.weightScalesOffset,
                                     p.weightScalesInterp,
                                     p.weightScalesGroup, p.k)),
        inputZeroPoints(Values::inputs(
            p.inputZeroPoints, p.inputZeroPointsStride,
            p.inputZeroPointsInterp, p.inputZeroPointsGroup)),
        inputScales(Values::inputs(p.inputScales, p.inputScalesStride,
                                   p.inputScalesInterp, p.inputScalesGroup)),
        reductions(Values::inputs(p.reductions, p.reductionsStride,
                                  p.reductionsInterp, p.reductionsGroup)) {}
};

} // namespace coopvec::quant

#endif // LINALGCOOP_LIB_RUNTIME_REFERENCE_QUANTVALUES_H
