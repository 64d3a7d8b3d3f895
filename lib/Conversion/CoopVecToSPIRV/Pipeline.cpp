//===- Pipeline.cpp - coopvec-vulkan-pipeline: coopvec kernels to SPIR-V --===//

#include "LinAlgCoop/Conversion/CoopVecToSPIRV/CoopVecToSPIRV.h"
#include "LinAlgCoop/Dialect/CoopVec/Transforms/Passes.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/GPUToSPIRV/GPUToSPIRVPass.h"
#include "mlir/Conversion/MathToSPIRV/MathToSPIRVPass.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Dialect/SPIRV/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::coopvec;

void mlir::coopvec::buildCoopVecVulkanPipeline(
    OpPassManager &pm, const CoopVecVulkanPipelineOptions &options) {
  CoopVecCheckSupportOptions support;
  support.profile = "vulkan1.3";
  support.deviceOnly = true;
  pm.addPass(createCoopVecCheckSupport(support));
  ConvertCoopVecToSPIRVOptions lowering;
  lowering.fma = options.fma;
  lowering.workgroupSize.assign(options.workgroupSize.begin(),
                               options.workgroupSize.end());
  pm.addPass(createConvertCoopVecToSPIRV(lowering));
  // Loads and stores through one-row views of a batch (the quantized form
  // coopvec-batch-to-gpu launches) read the whole buffer instead, with
  // their index arithmetic in arith: SPIR-V has no memref.subview.
  pm.addNestedPass<gpu::GPUModuleOp>(memref::createFoldMemRefAliasOpsPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createLowerAffinePass());
  pm.addNestedPass<gpu::GPUModuleOp>(createCanonicalizerPass());
  // convert-gpu-to-spirv has no math patterns: math ops become
  // GLSL.std.450 ops first, under the spirv.target_env that
  // convert-coopvec-to-spirv put on the gpu.module.
  pm.addNestedPass<gpu::GPUModuleOp>(createConvertMathToSPIRVPass());
  // Upstream convert-gpu-to-spirv plus compare-and-swap loops for the float
  // atomics.
  pm.addPass(createCoopVecConvertGPUToSPIRV());
  OpPassManager &spirvModule = pm.nest<spirv::ModuleOp>();
  spirvModule.addPass(spirv::createSPIRVLowerABIAttributesPass());
  spirvModule.addPass(spirv::createSPIRVUpdateVCEPass());
  pm.addPass(createCoopVecNestSPIRVModules());
  if (!options.binary)
    return;
  pm.addPass(createGpuModuleToBinaryPass());
  pm.addPass(createCoopVecVulkanLaunchArgs());
}

void mlir::coopvec::registerCoopVecVulkanPipeline() {
  PassPipelineRegistration<CoopVecVulkanPipelineOptions>(
      "coopvec-vulkan-pipeline",
      "Lower the gpu.modules of a coopvec program to Vulkan SPIR-V: "
      "coopvec-check-support{profile=vulkan1.3 device-only}, "
      "convert-coopvec-to-spirv, fold-memref-alias-ops and lower-affine "
      "in each gpu.module, "
      "convert-math-to-spirv in each gpu.module, "
      "coopvec-convert-gpu-to-spirv (convert-gpu-to-spirv with "
      "compare-and-swap loops), spirv-lower-abi-attrs, spirv-update-vce, "
      "coopvec-nest-spirv-modules, then (binary=true) gpu-module-to-binary "
      "and coopvec-vulkan-launch-args. Host code is left for the host "
      "lowering (gpu-to-llvm) and libcoopvec_vulkan_runtime.so",
      buildCoopVecVulkanPipeline);
}
