//===- OptimalLayout.h - Optimal-layout offsets, generated code -*- C++ -*-===//
//
// The byte offset of a stored element in the InferencingOptimal and
// TrainingOptimal layouts, as index arithmetic of a lowering's builder, for
// lowerings that read the matrix element by element in generated code (the
// RISC-V packers, the Vulkan shaders, the NVIDIA kernels); and, in arith,
// the byte of a matrix element in any layout (matrixElementByte). The
// formulas are Layout.h's (the CPU runtime computes them in
// lib/Runtime/Layout/LayoutMath.h, which generated code cannot call): 8-row
// panels of column groups (pairs of 8-bit elements, single wider ones), and
// 8 x 8 tiles stored column by column.
//
//===----------------------------------------------------------------------===//

#ifndef LINALGCOOP_CONVERSION_OPTIMALLAYOUT_H
#define LINALGCOOP_CONVERSION_OPTIMALLAYOUT_H

#include "LinAlgCoop/Dialect/CoopVec/IR/CoopVecAttrs.h"

#include "mlir/IR/Builders.h"

#include "llvm/Support/MathExtras.h"

#include <cassert>
#include <cstdint>
#include <utility>

namespace mlir::coopvec {

/// Bytes from the matrix's start to stored element (r, s) of a matrix of
/// `storedCols` stored columns of `elemSize`-byte elements in `layout`
/// (InferencingOptimal or TrainingOptimal). `B` builds index arithmetic on
/// `V` with c(int64_t), add, mul, div and rem (on non-negative values).
template <typename B, typename V>
V optimalLayoutOffset(B &c, MatrixLayout layout, int64_t storedCols,
                      int64_t elemSize, V r, V s) {
  assert((layout == MatrixLayout::InferencingOptimal ||
          layout == MatrixLayout::TrainingOptimal) &&
         "not an optimal layout");
  constexpr int64_t kPanelRows = 8;
  auto part = [&](V v, int64_t d) {
    return std::make_pair(c.div(v, c.c(d)), c.rem(v, c.c(d)));
  };
  auto [rp, ri] = part(r, kPanelRows);
  if (layout == MatrixLayout::InferencingOptimal) {
    // Panels of 8 rows; in each, groups of G columns (G = 2 for 8-bit
    // elements, else 1) of 8 x G elements, row by row.
    int64_t g = elemSize == 1 ? 2 : 1;
    int64_t panel = kPanelRows * llvm::alignTo(storedCols, g) * elemSize;
    auto [sp, si] = part(s, g);
    return c.add(
        c.add(c.mul(rp, c.c(panel)), c.mul(sp, c.c(kPanelRows * g * elemSize))),
        c.add(c.mul(ri, c.c(g * elemSize)), c.mul(si, c.c(elemSize))));
  }
  // 8 x 8 tiles, a row of tiles after another, each column by column.
  int64_t tileCols = llvm::divideCeil(storedCols, kPanelRows);
  auto [sp, si] = part(s, kPanelRows);
  return c.add(c.mul(c.add(c.mul(rp, c.c(tileCols)), sp), c.c(64 * elemSize)),
               c.mul(c.add(c.mul(si, c.c(kPanelRows)), ri), c.c(elemSize)));
}

/// Byte index of element (row, col) of `bytes` bytes of the (logical) M x
/// K matrix `desc` at byte `offset` (with `stride` in the strided layouts);
/// with `nibbles` (4-bit elements), of the byte of its stored column pair.
Value matrixElementByte(OpBuilder &b, Location loc, MatrixDescAttr desc,
                        Value offset, Value stride, Value row, Value col,
                        unsigned bytes, bool nibbles);

/// The byte `byte` (an i32) of the 4-bit element (row, col) of `desc`
/// shifted so that the element is its low nibble (the even stored column
/// is the low one); an even column's neighbour stays above it, so a reader
/// of more than the low four bits masks them.
Value storedNibble(OpBuilder &b, Location loc, MatrixDescAttr desc, Value byte,
                   Value row, Value col);

} // namespace mlir::coopvec

#endif // LINALGCOOP_CONVERSION_OPTIMALLAYOUT_H
