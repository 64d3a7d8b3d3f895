//===- coopvec-opt.cpp - coopvec optimizer driver -------------------------===//
//
// Parses, verifies, transforms and prints coopvec IR together with the
// upstream dialects it composes with.
//
//===----------------------------------------------------------------------===//

#include "LinAlgCoop/Dialect/CoopVec/IR/CoopVecDialect.h"
#include "LinAlgCoop/Dialect/CoopVec/Transforms/Passes.h"
#include "LinAlgCoop/InitAll.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::coopvec::registerAllDialects(registry);
  mlir::coopvec::registerAllPasses();
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "coopvec optimizer driver\n", registry));
}
