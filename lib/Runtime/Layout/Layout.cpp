//===- Layout.cpp - Matrix layout validation, sizes, offsets, conversion --===//

#include "LinAlgCoop/Runtime/Layout.h"
#include "LayoutMath.h"

#include <cstring>

using namespace coopvec::layout;

namespace {
/// Largest footprint accepted, so that every offset and size computed later
/// in 64-bit arithmetic (including rounding up) is far from overflowing.
constexpr unsigned __int128 kMaxFootprint = uint64_t(1) << 62;

unsigned __int128 wideFootprint(const LayoutParams &p) {
  using U = unsigned __int128;
  auto ceil8 = [](U a) { return (a + 7) / 8; };
  switch (p.layout) {
  case COOPVEC_LAYOUT_ROW_MAJOR:
    return U(p.rows - 1) * p.stride + U(p.cols) * p.elemSize;
  case COOPVEC_LAYOUT_COLUMN_MAJOR:
    return U(p.cols - 1) * p.stride + U(p.rows) * p.elemSize;
  case COOPVEC_LAYOUT_INFERENCING_OPTIMAL: {
    U g = columnGroup(p.elemSize);
    return ceil8(p.rows) * 8 * ((p.cols + g - 1) / g * g) * p.elemSize;
  }
  default:
    return ceil8(p.rows) * ceil8(p.cols) * 64 * p.elemSize;
  }
}

bool isRowOrColumnMajor(uint32_t layout) {
  return layout == COOPVEC_LAYOUT_ROW_MAJOR ||
         layout == COOPVEC_LAYOUT_COLUMN_MAJOR;
}
} // namespace

extern "C" int32_t coopvecLayoutValidate(uint32_t layout, uint32_t rows,
                                         uint32_t cols, uint32_t elemSize,
                                         uint32_t stride) {
  if (layout > COOPVEC_LAYOUT_TRAINING_OPTIMAL)
    return COOPVEC_ERROR_INVALID_LAYOUT;
  if (rows == 0 || cols == 0)
    return COOPVEC_ERROR_INVALID_DIMENSIONS;
  if (elemSize != 1 && elemSize != 2 && elemSize != 4)
    return COOPVEC_ERROR_INVALID_ELEMENT_SIZE;
  if (isRowOrColumnMajor(layout)) {
    uint64_t line = uint64_t(layout == COOPVEC_LAYOUT_ROW_MAJOR ? cols : rows) *
                    elemSize;
    if (stride == 0 || stride % elemSize != 0 || stride < line)
      return COOPVEC_ERROR_INVALID_STRIDE;
  }
  LayoutParams p{layout, rows, cols, elemSize, stride};
  if (wideFootprint(p) > kMaxFootprint)
    return COOPVEC_ERROR_INVALID_DIMENSIONS;
  return COOPVEC_OK;
}

extern "C" uint64_t coopvecLayoutDestinationSize(uint32_t layout,
                                                 uint32_t rows, uint32_t cols,
                                                 uint32_t elemSize,
                                                 uint32_t stride) {
  if (coopvecLayoutValidate(layout, rows, cols, elemSize, stride) != COOPVEC_OK)
    return 0;
  return roundUp(LayoutParams{layout, rows, cols, elemSize, stride}.footprint(),
                 16);
}

extern "C" int64_t coopvecLayoutElementOffset(uint32_t layout, uint32_t rows,
                                              uint32_t cols, uint32_t elemSize,
                                              uint32_t stride, uint32_t row,
                                              uint32_t col) {
  if (coopvecLayoutValidate(layout, rows, cols, elemSize, stride) !=
          COOPVEC_OK ||
      row >= rows || col >= cols)
    return -1;
  return int64_t(
      LayoutParams{layout, rows, cols, elemSize, stride}.offset(row, col));
}

namespace {
/// Copies one element; the switch lets the compiler emit a single move.
inline void copyElement(uint8_t *dst, const uint8_t *src, uint32_t elemSize) {
  switch (elemSize) {
  case 1:
    *dst = *src;
    return;
  case 2:
    std::memcpy(dst, src, 2);
    return;
  default:
    std::memcpy(dst, src, 4);
    return;
  }
}

/// The element conversion loop, walking the destination in its storage
/// order for the optimal layouts so that writes are sequential.
void convertElements(uint8_t *dst, const LayoutParams &d, const uint8_t *src,
                     const LayoutParams &s) {
  uint32_t es = d.elemSize;
  if (d.layout == COOPVEC_LAYOUT_COLUMN_MAJOR) {
    for (uint32_t c = 0; c < d.cols; ++c)
      for (uint32_t r = 0; r < d.rows; ++r)
        copyElement(dst + d.offset(r, c), src + s.offset(r, c), es);
    return;
  }
  if (d.layout == COOPVEC_LAYOUT_ROW_MAJOR) {
    for (uint32_t r = 0; r < d.rows; ++r)
      for (uint32_t c = 0; c < d.cols; ++c)
        copyElement(dst + d.offset(r, c), src + s.offset(r, c), es);
    return;
  }
  // Optimal destinations: panel (tile row) by panel, column by column, rows
  // innermost, which is the storage order of both optimal layouts up to the
  // column pairing of 8-bit InferencingOptimal.
  for (uint32_t r0 = 0; r0 < d.rows; r0 += kPanelRows) {
    uint32_t rEnd = d.rows - r0 < kPanelRows ? d.rows : r0 + kPanelRows;
    for (uint32_t c = 0; c < d.cols; ++c)
      for (uint32_t r = r0; r < rEnd; ++r)
        copyElement(dst + d.offset(r, c), src + s.offset(r, c), es);
  }
}
} // namespace

extern "C" int32_t coopvecLayoutConvert(void *dst, uint64_t dstSize,
                                        uint32_t dstLayout, uint32_t dstStride,
                                        const void *src, uint64_t srcSize,
                                        uint32_t srcLayout, uint32_t srcStride,
                                        uint32_t rows, uint32_t cols,
                                        uint32_t elemSize) {
  if (!dst || !src)
    return COOPVEC_ERROR_NULL_POINTER;
  if (int32_t st = coopvecLayoutValidate(dstLayout, rows, cols, elemSize,
                                         dstStride))
    return st;
  if (int32_t st = coopvecLayoutValidate(srcLayout, rows, cols, elemSize,
                                         srcStride))
    return st;
  LayoutParams d{dstLayout, rows, cols, elemSize, dstStride};
  LayoutParams s{srcLayout, rows, cols, elemSize, srcStride};
  // Only the bytes the layouts actually touch are required, not the rounded
  // destination size: a row-major source inside a larger buffer is common.
  uint64_t dstBytes = d.footprint(), srcBytes = s.footprint();
  if (dstSize < dstBytes || srcSize < srcBytes)
    return COOPVEC_ERROR_BUFFER_TOO_SMALL;
  auto *d8 = static_cast<uint8_t *>(dst);
  auto *s8 = static_cast<const uint8_t *>(src);
  // Compare as integers: relational operators on unrelated pointers are
  // unspecified.
  uintptr_t dBegin = reinterpret_cast<uintptr_t>(d8);
  uintptr_t sBegin = reinterpret_cast<uintptr_t>(s8);
  if (dBegin < sBegin + srcBytes && sBegin < dBegin + dstBytes)
    return COOPVEC_ERROR_OVERLAP;
  if (dstLayout == COOPVEC_LAYOUT_INFERENCING_OPTIMAL ||
      dstLayout == COOPVEC_LAYOUT_TRAINING_OPTIMAL)
    std::memset(d8, 0, dstBytes);
  convertElements(d8, d, s8, s);
  return COOPVEC_OK;
}
