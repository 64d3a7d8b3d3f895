//===- MatVecPlan.h - what the RISC-V lowerings share -----------*- C++ -*-===//
//
// The checks and constants of one coopvec.batch_matvec that every RISC-V
// lowering (EmitC for Nuclei and RVV, LLVM intrinsics for SiFive) reads, and
// the SiFive lowering's entry point for the pass.
//
//===----------------------------------------------------------------------===//

#ifndef LIB_CONVERSION_COOPVECTORISCV_MATVECPLAN_H
#define LIB_CONVERSION_COOPVECTORISCV_MATVECPLAN_H

#include "LinAlgCoop/Dialect/CoopVec/IR/CoopVecOps.h"

#include "mlir/IR/BuiltinOps.h"

#include <optional>
#include <string>

namespace mlir::coopvec::riscv {

/// What the lowering needs of one batch_matvec, or a reason it cannot.
struct MatVecPlan {
  int64_t m, k;
  int64_t matrixOffset, rowStep,
      colStep;       // W[m][k] at off + m*rowStep + k*colStep
  int64_t footprint; // bytes from the offset
  bool matrixUnsigned, inputUnsignedInterp, inputUnsignedValue;
  bool inputPacked; // PackedS8x32/PackedU8x32: four bytes to an i32 word
  bool hasBias;
  int64_t biasOffset;
  std::optional<int64_t> staticBatch;
};

/// The plan of `op`, or failure with the reason (a located error's text) in
/// `why`.
FailureOr<MatVecPlan> planMatVec(BatchMatVecOp op, std::string &why);

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
