//===- Pipeline.cpp - coopvec-dxil-pipeline: coopvec to DXIL-style LLVM IR ===//

#include "LinAlgCoop/Conversion/CoopVecToDXIL/CoopVecToDXIL.h"
#include "LinAlgCoop/Conversion/LowerToLLVM.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;
using namespace mlir::coopvec;

void mlir::coopvec::buildCoopVecDXILPipeline(
    OpPassManager &pm, const CoopVecDXILPipelineOptions &options) {
  ConvertCoopVecToDXILOptions dxilOptions;
  dxilOptions.profile = options.profile;
  dxilOptions.emulate = options.emulate;
  pm.addPass(createConvertCoopVecToDXIL(dxilOptions));
  // Everything around the dx.op calls.
  buildLowerToLLVMPasses(pm);
  if (options.hostDriver)
    pm.addPass(createCoopVecDXILLinkHostDriver());
}

void mlir::coopvec::registerCoopVecDXILPipeline() {
  PassPipelineRegistration<CoopVecDXILPipelineOptions>(
      "coopvec-dxil-pipeline",
      "Lower coopvec to DXIL-style LLVM IR: check the support profile, "
      "convert-coopvec-to-dxil, lower the rest to the LLVM dialect and, with "
      "host-driver=true, link the dx.op functions to the software driver so "
      "the module runs under mlir-runner / the JIT (mlir-translate "
      "--mlir-to-llvmir prints the .ll)",
      buildCoopVecDXILPipeline);
}
