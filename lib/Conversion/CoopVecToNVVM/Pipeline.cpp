//===- Pipeline.cpp - coopvec-nvvm-pipeline: coopvec in GPU kernels to PTX -===//

#include "LinAlgCoop/Conversion/CoopVecToNVVM/CoopVecToNVVM.h"
#include "LinAlgCoop/Dialect/CoopVec/Transforms/Passes.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVM/NVVM/Utils.h"
#include "mlir/Transforms/Passes.h"

#include "llvm/Support/FileSystem.h"

using namespace mlir;
using namespace mlir::coopvec;

void mlir::coopvec::buildCoopVecNVVMPipeline(
    OpPassManager &pm, const CoopVecNVVMPipelineOptions &options) {
  // What the SM lacks (a located error per op), then what the lowering
  // lacks: never an llc "Cannot select".
  CoopVecCheckSupportOptions support;
  support.profile = options.chip;
  support.deviceOnly = true;
  pm.addPass(createCoopVecCheckSupport(support));
  ConvertCoopVecToNVVMOptions lowering;
  lowering.chip = options.chip;
  lowering.cooperative = options.cooperative;
  lowering.stageWarps = options.stageWarps;
  pm.addPass(createConvertCoopVecToNVVM(lowering));
  OpPassManager &device = pm.nest<gpu::GPUModuleOp>();
  // What the kernels around the coopvec ops are written with: strided
  // memrefs (subviews: expand-strided-metadata writes their offsets as
  // affine.apply, so it runs before lower-affine), affine maps and
  // structured control flow (vectors move with vector.load/vector.store,
  // which convert-gpu-to-nvvm lowers).
  device.addPass(memref::createExpandStridedMetadataPass());
  device.addPass(createLowerAffinePass());
  device.addPass(createSCFToControlFlowPass());
  device.addPass(createCanonicalizerPass());
  device.addPass(createConvertGpuOpsToNVVMOps());
  device.addPass(createReconcileUnrealizedCastsPass());
  GpuNVVMAttachTargetOptions target;
  target.chip = options.chip;
  target.features = "+ptx87";
  target.optLevel = options.optLevel;
  pm.addPass(createGpuNVVMAttachTarget(target));
  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget = options.format;
  // ptxas: the toolkit option, else $CUDA_ROOT/$CUDA_HOME/$CUDA_PATH
  // (NVVM::getCUDAToolkitPath), else /usr/local/cuda where it holds one,
  // else $PATH.
  binary.toolkitPath = options.toolkit;
  if (binary.toolkitPath.empty() && NVVM::getCUDAToolkitPath().empty() &&
      llvm::sys::fs::can_execute("/usr/local/cuda/bin/ptxas"))
    binary.toolkitPath = "/usr/local/cuda";
  pm.addPass(createGpuModuleToBinaryPass(binary));
}

void mlir::coopvec::registerCoopVecNVVMPipeline() {
  PassPipelineRegistration<CoopVecNVVMPipelineOptions>(
      "coopvec-nvvm-pipeline",
      "Lower the gpu.modules of a coopvec program to PTX or cubin: "
      "coopvec-check-support{profile=<chip> device-only}, "
      "convert-coopvec-to-nvvm "
      "(warp-cooperative mma.sync or per-lane loops), convert-gpu-to-nvvm, "
      "nvvm-attach-target (PTX 8.7) and gpu-module-to-binary{format} "
      "(format=bin runs ptxas from the CUDA toolkit). Host code and "
      "gpu.launch_func are left for the host lowering (gpu-to-llvm)",
      buildCoopVecNVVMPipeline);
}
