//===- LowerToLLVM.cpp - the upstream tail of every target pipeline -------===//

#include "LinAlgCoop/Conversion/LowerToLLVM.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"

using namespace mlir;

void mlir::coopvec::buildLowerToLLVMPasses(OpPassManager &pm, bool gpuHost) {
  // High-level vector ops (transfers, contractions) become loops and simple
  // vector ops before anything is lowered to LLVM.
  pm.addNestedPass<func::FuncOp>(createConvertVectorToSCFPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(arith::createArithExpandOpsPass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createConvertVectorToLLVMPass());
  // Math ops with an LLVM intrinsic first; libm calls for the rest (erf,
  // atan2, ...), which the JIT resolves in the process.
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass());
  // Subviews and reinterpret casts become metadata arithmetic, which may
  // produce affine.apply.
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createUBToLLVMConversionPass());
  // Host GPU ops keep memref operands until here; their lowering (and the
  // kernels' argument packing) meets the descriptors of the passes above.
  if (gpuHost)
    pm.addPass(createGpuToLLVMConversionPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}
