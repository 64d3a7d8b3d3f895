//===- CoopVecOps.h - coopvec operations ------------------------*- C++ -*-===//

#ifndef LINALGCOOP_DIALECT_COOPVEC_IR_COOPVECOPS_H
#define LINALGCOOP_DIALECT_COOPVEC_IR_COOPVECOPS_H

#include "LinAlgCoop/Dialect/CoopVec/IR/CoopVecAttrs.h"
#include "LinAlgCoop/Dialect/CoopVec/IR/CoopVecDialect.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "LinAlgCoop/Dialect/CoopVec/IR/CoopVecInterfaces.h.inc"

#define GET_OP_CLASSES
#include "LinAlgCoop/Dialect/CoopVec/IR/CoopVecOps.h.inc"

#endif // LINALGCOOP_DIALECT_COOPVEC_IR_COOPVECOPS_H
