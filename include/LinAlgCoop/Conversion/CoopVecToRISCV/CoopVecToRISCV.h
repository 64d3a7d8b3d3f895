//===- CoopVecToRISCV.h - coopvec to C for RISC-V vector units --*- C++ -*-===//
//
// The RISC-V target: int8 matrix products as EmitC calling the Nuclei
// Xxlvqmacc intrinsics (docs/RISCV.md).
//
//===----------------------------------------------------------------------===//

#ifndef LINALGCOOP_CONVERSION_COOPVECTORISCV_COOPVECTORISCV_H
#define LINALGCOOP_CONVERSION_COOPVECTORISCV_COOPVECTORISCV_H

#include "mlir/Pass/Pass.h"

namespace mlir {
class RewritePatternSet;
class TypeConverter;

namespace coopvec {

#define GEN_PASS_DECL_CONVERTCOOPVECTORISCV
#include "LinAlgCoop/Conversion/Passes.h.inc"

/// Adds the patterns that rewrite func.func/func.return into emitc.func and
/// coopvec.batch_matvec (plain and quantized) and coopvec.matvec into C
/// loops around the vqmacc intrinsics (or, with
/// `generic`, RVV 1.0 widening multiply-adds), with accumulators of LMUL
/// `lmul` (0: chosen from the batch at `minVlen`). `converter` must be the
/// one of populateCoopVecToRISCVTypeConversions.
void populateCoopVecToRISCVPatterns(const TypeConverter &converter,
                                    RewritePatternSet &patterns, bool generic,
                                    unsigned lmul, unsigned minVlen);

/// memref<... x T> -> (!emitc.ptr<T>, i64 first dimension); vector<N x T>
/// -> !emitc.ptr<T>.
void populateCoopVecToRISCVTypeConversions(TypeConverter &converter);

} // namespace coopvec
} // namespace mlir

#endif // LINALGCOOP_CONVERSION_COOPVECTORISCV_COOPVECTORISCV_H
