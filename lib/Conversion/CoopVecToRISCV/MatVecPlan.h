//===- MatVecPlan.h - what the RISC-V lowerings share -----------*- C++ -*-===//
//
// The checks and constants of one matvec or batch_matvec that every RISC-V
// lowering (EmitC for Nuclei and RVV, LLVM intrinsics for SiFive) reads, and
// the SiFive lowering's entry point for the pass.
//
//===----------------------------------------------------------------------===//

#ifndef LIB_CONVERSION_COOPVECTORISCV_MATVECPLAN_H
#define LIB_CONVERSION_COOPVECTORISCV_MATVECPLAN_H

#include "LinAlgCoop/Conversion/OptimalLayout.h"
#include "LinAlgCoop/Dialect/CoopVec/IR/CoopVecOps.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <optional>
#include <string>

namespace mlir::coopvec::riscv {

/// Bytes of a zero point, scale or bias value of interpretation `interp`.
inline int64_t valueBytes(InterpretationAttr interp) {
  return std::max<int64_t>(1,
                           interp.getElementType().getIntOrFloatBitWidth() / 8);
}

/// One zero-point, scale or reduction clause of the quantized form.
struct QuantClause {
  InterpretationAttr interp; // null: absent
  int64_t group = 0;         // 0: per tensor
  int64_t offset = 0;        // weight side: the byte offset in its buffer
  int64_t cols = 1;          // input side: the memref's columns

  explicit operator bool() const { return static_cast<bool>(interp); }
  /// Values a row holds (1 per tensor).
  int64_t perRow(int64_t k) const { return group ? k / group : 1; }
};

/// What the lowering needs of one matvec or batch_matvec, or a reason it
/// cannot.
struct MatVecPlan {
  int64_t m, k;
  // Where W[m][k] is: RowMajor/ColumnMajor at off + m*rowStep + k*colStep;
  // the optimal layouts by include/LinAlgCoop/Runtime/Layout.h's formulas
  // for 1-byte elements, of the stored matrix (K x M when transposed; for
  // I4/U4 its byte matrix, storedCols byte columns).
  MatrixLayout layout;
  bool transpose;
  int64_t storedCols;
  int64_t matrixOffset, rowStep, colStep;
  int64_t footprint; // bytes from the offset
  bool matrixUnsigned, inputUnsignedInterp, inputUnsignedValue;
  // I4/U4 (the quantized form): two stored columns to a byte, the even one
  // in the low nibble; the steps above are between byte columns.
  bool matrixNibbles = false;
  bool inputPacked; // PackedS8x32/PackedU8x32: four bytes to an i32 word
  Type inputElt;    // i32 or f32 (i8 in the quantized form)
  bool floatOutput; // f32 or f16 results, bf16 in the quantized form (else i32)
  Type outputElt;
  bool hasBias;
  InterpretationAttr biasInterp;
  int64_t biasOffset;
  std::optional<int64_t> staticBatch;
  // The quantized form (docs/Dialects/CoopVecDialect.md).
  bool quantized = false;
  QuantClause weightZeroPoints, weightScales, inputZeroPoints, inputScales,
      reductions;
  // K is summed in int32 blocks of `block` columns (K without the quantized
  // form; else the gcd of K and every group size, so that each zero point,
  // scale and reduction is constant over a block); compute groups (whose
  // sums are scaled in f32) are `computeGroup` columns.
  int64_t block, computeGroup;
};

/// The byte of W[m][k] in the matrix buffer (for I4/U4 `col` is k's byte
/// column, or `m` is m's byte column when transposed), as index arithmetic
/// of either lowering's builder `B` (with
/// c(int64_t), add, mul, div and rem on non-negative values).
template <typename B, typename V>
V matrixByte(B &c, const MatVecPlan &p, V m, V col) {
  V at;
  if (p.layout == MatrixLayout::RowMajor ||
      p.layout == MatrixLayout::ColumnMajor) {
    at = c.add(c.mul(m, c.c(p.rowStep)), c.mul(col, c.c(p.colStep)));
  } else {
    // Stored element (r, s) of a rows x storedCols matrix of bytes.
    at = optimalLayoutOffset(c, p.layout, p.storedCols, /*elemSize=*/1,
                             p.transpose ? col : m, p.transpose ? m : col);
  }
  return c.add(c.c(p.matrixOffset), at);
}

/// The plan of `op`, or failure with the reason (a located error's text) in
/// `why`. A matvec is a batch of one.
FailureOr<MatVecPlan> planMatVec(BatchMatVecOp op, std::string &why);
FailureOr<MatVecPlan> planMatVec(MatVecOp op, std::string &why);

/// The vqmacc form (Nuclei's and SiFive's names) for the signedness of A
/// (the matrix) and B (the inputs): vqmacc, vqmaccu, vqmaccus, vqmaccsu.
StringRef vqmaccName(bool aUnsigned, bool bUnsigned);

/// The SiFive XSfvqmacc path of --convert-coopvec-to-riscv (`isa` is
/// xsfvqmacc-4x8x4 or xsfvqmacc-2x8x2; SiFiveVQMacc.cpp): checks the module,
/// reports located errors, rewrites it.
LogicalResult lowerToSiFiveVQMacc(ModuleOp module, StringRef isa, unsigned lmul,
                                  unsigned minVlen, bool emulate);

} // namespace mlir::coopvec::riscv

#endif // LIB_CONVERSION_COOPVECTORISCV_MATVECPLAN_H
