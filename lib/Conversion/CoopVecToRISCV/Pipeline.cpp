//===- Pipeline.cpp - coopvec-riscv-sifive-pipeline: coopvec to LLVM IR ---===//

#include "LinAlgCoop/Conversion/CoopVecToRISCV/CoopVecToRISCV.h"
#include "LinAlgCoop/Conversion/LowerToLLVM.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;
using namespace mlir::coopvec;

void mlir::coopvec::buildCoopVecSiFivePipeline(
    OpPassManager &pm, const CoopVecSiFivePipelineOptions &options) {
  ConvertCoopVecToRISCVOptions riscvOptions;
  riscvOptions.isa = "xsfvqmacc-" + options.shape.getValue();
  riscvOptions.lmul = options.lmul;
  riscvOptions.minVlen = options.minVlen;
  riscvOptions.emulateSiFive = options.emulate;
  pm.addPass(createConvertCoopVecToRISCV(riscvOptions));
  // The loops, memrefs and the error hook's strings around the intrinsics.
  buildLowerToLLVMPasses(pm);
}

void mlir::coopvec::registerCoopVecSiFivePipeline() {
  PassPipelineRegistration<CoopVecSiFivePipelineOptions>(
      "coopvec-riscv-sifive-pipeline",
      "Lower coopvec to LLVM IR for SiFive's XSfvqmacc: "
      "convert-coopvec-to-riscv{isa=xsfvqmacc-<shape>} (llvm.riscv.sf.vqmacc* "
      "on scalable vectors, or with emulate=true calls to sf_vqmacc.c), then "
      "everything else to the LLVM dialect (mlir-translate --mlir-to-llvmir "
      "prints the .ll)",
      buildCoopVecSiFivePipeline);
}
