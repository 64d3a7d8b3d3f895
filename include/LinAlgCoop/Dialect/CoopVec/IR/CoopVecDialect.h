//===- CoopVecDialect.h - coopvec dialect declaration -----------*- C++ -*-===//

#ifndef LINALGCOOP_DIALECT_COOPVEC_IR_COOPVECDIALECT_H
#define LINALGCOOP_DIALECT_COOPVEC_IR_COOPVECDIALECT_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Dialect.h"

#include "LinAlgCoop/Dialect/CoopVec/IR/CoopVecDialect.h.inc"

#endif // LINALGCOOP_DIALECT_COOPVEC_IR_COOPVECDIALECT_H
