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

  /// The first byte of row `row`'s values.
  const uint8_t *rowBase(uint32_t row) const {
    return group ? base + row * rowStride : base;
  }

  /// Byte offset within a row of the value for K index `k`.
  uint64_t offset(uint32_t k) const {
    return group ? uint64_t(k / group) * valueBytes(interp) : 0;
  }

  const uint8_t *at(uint32_t row, uint32_t k) const {
    return rowBase(row) + offset(k);
  }

  /// The numerics format of a float value set (F32, F16 or BF16).
  unsigned floatFormat() const {
    return interp == COOPVEC_TYPE_F32   ? COOPVEC_FMT_F32
           : interp == COOPVEC_TYPE_F16 ? COOPVEC_FMT_F16
                                        : COOPVEC_FMT_BF16;
  }

  /// Whether each row holds exactly `n` values, one per `step` elements of
  /// K, with no gap between rows: `rows` rows are then one array.
  bool dense(uint32_t n, uint32_t step) const {
    return group == step && rowStride == uint64_t(n) * valueBytes(interp);
  }

  /// The integer value at `p`: I8, U8 or I32.
  int64_t integerAt(const uint8_t *p) const {
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

  /// The float value at `p`: F32, F16 or BF16, exact in f32.
  float realAt(const uint8_t *p) const {
    uint32_t bits = 0;
    switch (interp) {
    case COOPVEC_TYPE_F32: {
      float f;
      std::memcpy(&f, p, 4);
      return f;
    }
    default:
      std::memcpy(&bits, p, 2);
      return coopvecDecodeToF32(floatFormat(), bits);
    }
  }

  /// The integer value for (row, k).
  int64_t integer(uint32_t row, uint32_t k) const {
    return integerAt(at(row, k));
  }

  /// The float value for (row, k).
  float real(uint32_t row, uint32_t k) const { return realAt(at(row, k)); }
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
