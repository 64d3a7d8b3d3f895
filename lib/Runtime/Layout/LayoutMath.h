//===- LayoutMath.h - Unchecked inline layout offsets for the runtime -----===//
//
// The formulas documented in LinAlgCoop/Runtime/Layout.h, as inline C++ for
// the hot loops of the layout converter and the kernels' packers. Callers
// validate the arguments once (coopvecLayoutValidate) and then use these.
//
//===----------------------------------------------------------------------===//

#ifndef LINALGCOOP_LIB_RUNTIME_LAYOUT_LAYOUTMATH_H
#define LINALGCOOP_LIB_RUNTIME_LAYOUT_LAYOUTMATH_H

#include "LinAlgCoop/Runtime/Layout.h"

#include <cstdint>

namespace coopvec {
namespace layout {

/// Rows per panel of InferencingOptimal and tile edge of TrainingOptimal.
constexpr uint32_t kPanelRows = 8;

/// Columns interleaved per panel step of InferencingOptimal: 8-bit elements
/// go in pairs so that vpmaddwd can consume a (row, 2 columns) pair per lane.
constexpr uint32_t columnGroup(uint32_t elemSize) {
  return elemSize == 1 ? 2 : 1;
}

constexpr uint64_t ceilDiv(uint64_t a, uint64_t b) { return (a + b - 1) / b; }
constexpr uint64_t roundUp(uint64_t a, uint64_t b) { return ceilDiv(a, b) * b; }

/// A validated matrix shape; offsets are computed without checks.
struct LayoutParams {
  uint32_t layout;
  uint32_t rows;
  uint32_t cols;
  uint32_t elemSize;
  uint32_t stride;

  /// Bytes from one InferencingOptimal panel to the next.
  uint64_t panelBytes() const {
    return uint64_t(kPanelRows) * roundUp(cols, columnGroup(elemSize)) *
           elemSize;
  }

  uint64_t offset(uint64_t r, uint64_t c) const {
    switch (layout) {
    case COOPVEC_LAYOUT_ROW_MAJOR:
      return r * stride + c * elemSize;
    case COOPVEC_LAYOUT_COLUMN_MAJOR:
      return c * stride + r * elemSize;
    case COOPVEC_LAYOUT_INFERENCING_OPTIMAL: {
      uint64_t g = columnGroup(elemSize);
      return (r / kPanelRows) * panelBytes() +
             (c / g) * (kPanelRows * g * elemSize) +
             (r % kPanelRows) * (g * elemSize) + (c % g) * elemSize;
    }
    default: { // COOPVEC_LAYOUT_TRAINING_OPTIMAL
      uint64_t tileCols = ceilDiv(cols, kPanelRows);
      return ((r / kPanelRows) * tileCols + c / kPanelRows) * 64 * elemSize +
             ((c % kPanelRows) * kPanelRows + r % kPanelRows) * elemSize;
    }
    }
  }

  /// Bytes the layout spans, before rounding up to 16.
  uint64_t footprint() const {
    switch (layout) {
    case COOPVEC_LAYOUT_ROW_MAJOR:
      return uint64_t(rows - 1) * stride + uint64_t(cols) * elemSize;
    case COOPVEC_LAYOUT_COLUMN_MAJOR:
      return uint64_t(cols - 1) * stride + uint64_t(rows) * elemSize;
    case COOPVEC_LAYOUT_INFERENCING_OPTIMAL:
      return ceilDiv(rows, kPanelRows) * panelBytes();
    default:
      return ceilDiv(rows, kPanelRows) * ceilDiv(cols, kPanelRows) * 64 *
             elemSize;
    }
  }
};

} // namespace layout
} // namespace coopvec

#endif // LINALGCOOP_LIB_RUNTIME_LAYOUT_LAYOUTMATH_H
