//===- Layout.h - Matrix layouts: sizes, element offsets, conversion -*- C -*-===//
//
// The C ABI of the layout math shared by the dialect (constant folding of the
// size query), the CPU kernels and the tests. Plain C, no allocation, no
// global state: every function is a pure function of its scalar arguments.
//
// Layouts (values match DXIL's MatrixLayout and D3D12_LINEAR_ALGEBRA_MATRIX_
// LAYOUT). A matrix has `rows` x `cols` elements of `elemSize` bytes
// (1, 2 or 4); element (r, c) lives at byte offset:
//
//   RowMajor (0):     r * stride + c * elemSize
//   ColumnMajor (1):  c * stride + r * elemSize
//     stride >= row (column) length in bytes and a multiple of elemSize.
//
//   InferencingOptimal (2) -- "row panels", the operand format of the CPU
//   matrix-vector kernels. Rows are grouped in panels of 8 (the 8 f32 lanes
//   of an AVX2 register); inside a panel the columns are walked in groups of
//   G = (elemSize == 1 ? 2 : 1) and each group stores its 8 rows x G columns
//   row by row, so one 16/32-byte load yields one column group of 8 rows
//   (vcvtph2ps for f16, vpmovsxbw/vpmovzxbw + vpmaddwd pairs for 8-bit):
//     Kp     = roundUp(cols, G)
//     panel  = 8 * Kp * elemSize                         (bytes)
//     off    = (r / 8) * panel + (c / G) * (8 * G * elemSize)
//            + (r % 8) * (G * elemSize) + (c % G) * elemSize
//     size   = ceil(rows / 8) * panel                    (a multiple of 16)
//
//   TrainingOptimal (3) -- "8x8 tiles", symmetric in rows and columns so that
//   both W and W^T (the backward pass) are one tile transposition away, and a
//   column of a tile (8 rows of one column) is contiguous for the outer
//   product update. Tiles are ordered row of tiles by row of tiles:
//     TC     = ceil(cols / 8)
//     off    = ((r / 8) * TC + c / 8) * 64 * elemSize
//            + ((c % 8) * 8 + r % 8) * elemSize
//     size   = ceil(rows / 8) * TC * 64 * elemSize       (a multiple of 64)
//
// The stride is ignored for the optimal layouts. Padding elements (rows past
// `rows`, columns past `cols`) are written as zero by coopvecLayoutConvert and
// never influence a kernel's result.
//
//===----------------------------------------------------------------------===//

#ifndef LINALGCOOP_RUNTIME_LAYOUT_H
#define LINALGCOOP_RUNTIME_LAYOUT_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// DXIL MatrixLayout values.
enum CoopVecMatrixLayout {
  COOPVEC_LAYOUT_ROW_MAJOR = 0,
  COOPVEC_LAYOUT_COLUMN_MAJOR = 1,
  COOPVEC_LAYOUT_INFERENCING_OPTIMAL = 2,
  COOPVEC_LAYOUT_TRAINING_OPTIMAL = 3,
};

/// Status codes shared by the layout and kernel entry points.
enum CoopVecStatus {
  COOPVEC_OK = 0,
  COOPVEC_ERROR_INVALID_LAYOUT = -1,
  COOPVEC_ERROR_INVALID_DIMENSIONS = -2,
  COOPVEC_ERROR_INVALID_ELEMENT_SIZE = -3,
  COOPVEC_ERROR_INVALID_STRIDE = -4,
  COOPVEC_ERROR_BUFFER_TOO_SMALL = -5,
  COOPVEC_ERROR_OVERLAP = -6,
  COOPVEC_ERROR_NULL_POINTER = -7,
  COOPVEC_ERROR_UNSUPPORTED_TYPE = -8,
  COOPVEC_ERROR_INVALID_ARGUMENT = -9,
};

/// Returns COOPVEC_OK if (layout, rows, cols, elemSize, stride) describes a
/// valid matrix, else the reason. rows and cols must be non-zero, elemSize
/// 1, 2 or 4; for row/column-major the stride must be a non-zero multiple of
/// elemSize not smaller than a row (column); the footprint must fit in
/// 2^63 bytes.
int32_t coopvecLayoutValidate(uint32_t layout, uint32_t rows, uint32_t cols,
                              uint32_t elemSize, uint32_t stride);

/// The analog of GetLinearAlgebraMatrixConversionDestinationInfo: the number
/// of bytes a matrix occupies in `layout`, rounded up to a multiple of 16.
/// Returns 0 for invalid arguments (see coopvecLayoutValidate).
uint64_t coopvecLayoutDestinationSize(uint32_t layout, uint32_t rows,
                                      uint32_t cols, uint32_t elemSize,
                                      uint32_t stride);

/// Byte offset of element (row, col), or -1 for invalid arguments or an
/// element outside the matrix.
int64_t coopvecLayoutElementOffset(uint32_t layout, uint32_t rows,
                                   uint32_t cols, uint32_t elemSize,
                                   uint32_t stride, uint32_t row,
                                   uint32_t col);

/// Copies a rows x cols matrix of elemSize-byte elements from one layout to
/// another (no type conversion). `srcSize`/`dstSize` are the bytes available
/// at src/dst; each must be at least the destination size of its layout.
/// Padding of an optimal destination is zeroed; bytes between the rows
/// (columns) of a row-(column-)major destination are left untouched. The
/// buffers must not overlap. Returns COOPVEC_OK or an error status.
int32_t coopvecLayoutConvert(void *dst, uint64_t dstSize, uint32_t dstLayout,
                             uint32_t dstStride, const void *src,
                             uint64_t srcSize, uint32_t srcLayout,
                             uint32_t srcStride, uint32_t rows, uint32_t cols,
                             uint32_t elemSize);

#ifdef __cplusplus
} // extern "C"
#endif

#endif // LINALGCOOP_RUNTIME_LAYOUT_H
