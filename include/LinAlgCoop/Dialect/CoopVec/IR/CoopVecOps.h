//===- CoopVecOps.h - coopvec operations ------------------------*- C++ -*-===//

#ifndef LINALGCOOP_DIALECT_COOPVEC_IR_COOPVECOPS_H
#define LINALGCOOP_DIALECT_COOPVEC_IR_COOPVECOPS_H

#include "LinAlgCoop/Dialect/CoopVec/IR/CoopVecAttrs.h"
#include "LinAlgCoop/Dialect/CoopVec/IR/CoopVecDialect.h"
#include "LinAlgCoop/Dialect/CoopVec/IR/SupportRequirements.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include <array>

#include "LinAlgCoop/Dialect/CoopVec/IR/CoopVecInterfaces.h.inc"

#define GET_OP_CLASSES
#include "LinAlgCoop/Dialect/CoopVec/IR/CoopVecOps.h.inc"

namespace mlir::coopvec {
/// The runtime numerics library's CoopVecFormat (Runtime/Numerics.h) of a
/// builtin float type (f32, f16, bf16, tf32, f8E4M3FN, f8E5M2, f6E2M3FN,
/// f6E3M2FN, f4E2M1FN, f8E8M0FNU), if it has one.
std::optional<unsigned> getNumericsFormat(Type type);

/// The packer rules of an op that ends in L1 (coopvec.eltwise_mul,
/// coopvec.tile_pack_dst): L1 values to accumulate onto (`hasAcc`) exactly
/// when `fidelity` has l1_acc, and no k_block (`noKBlock` says why).
LogicalResult verifyPackerOperands(Operation *op, MathFidelityAttr fidelity,
                                   bool hasAcc, StringRef noKBlock);
} // namespace mlir::coopvec

#endif // LINALGCOOP_DIALECT_COOPVEC_IR_COOPVECOPS_H
