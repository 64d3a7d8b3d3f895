//===- Pipeline.cpp - coopvec-vulkan-pipeline: coopvec kernels to SPIR-V --===//

#include "LinAlgCoop/Conversion/CoopVecToSPIRV/CoopVecToSPIRV.h"
#include "LinAlgCoop/Dialect/CoopVec/Transforms/Passes.h"

#include "mlir/Conversion/GPUToSPIRV/GPUToSPIRVPass.h"
#include "mlir/Conversion/MathToSPIRV/MathToSPIRV.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Dialect/SPIRV/IR/TargetAndABI.h"
#include "mlir/Dialect/SPIRV/Transforms/Passes.h"
#include "mlir/Dialect/SPIRV/Transforms/SPIRVConversion.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::coopvec;

namespace {
/// The math ops of a gpu.module as GLSL.std.450 ops (MathToSPIRV's
/// patterns), with the types of the module's SPIR-V target:
/// convert-gpu-to-spirv has no math patterns, and convert-math-to-spirv
/// reads only a `spirv.target_env` attribute, not gpu.module targets (under
/// its default environment, without Float16, it widens f16 to f32).
struct MathToSPIRVInGPUModule
    : PassWrapper<MathToSPIRVInGPUModule, OperationPass<gpu::GPUModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(MathToSPIRVInGPUModule)

  StringRef getArgument() const override { return "coopvec-math-to-spirv"; }
  StringRef getDescription() const override {
    return "math ops of a gpu.module to SPIR-V, by its SPIR-V target";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<spirv::SPIRVDialect>();
  }

  void runOnOperation() override {
    gpu::GPUModuleOp device = getOperation();
    bool hasMath = device
                       .walk([](Operation *op) {
                         return isa<math::MathDialect>(op->getDialect())
                                    ? WalkResult::interrupt()
                                    : WalkResult::advance();
                       })
                       .wasInterrupted();
    if (!hasMath)
      return;
    spirv::TargetEnvAttr env = spirv::lookupTargetEnvOrDefault(device);
    if (ArrayAttr targets = device.getTargetsAttr())
      for (Attribute target : targets)
        if (auto spirvEnv = dyn_cast<spirv::TargetEnvAttr>(target)) {
          env = spirvEnv;
          break;
        }
    std::unique_ptr<ConversionTarget> target =
        SPIRVConversionTarget::get(env);
    target->addIllegalDialect<math::MathDialect>();
    SPIRVTypeConverter typeConverter(env);
    RewritePatternSet patterns(&getContext());
    populateMathToSPIRVPatterns(typeConverter, patterns);
    if (failed(applyPartialConversion(device, *target, std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace

void mlir::coopvec::buildCoopVecVulkanPipeline(
    OpPassManager &pm, const CoopVecVulkanPipelineOptions &options) {
  CoopVecCheckSupportOptions support;
  support.profile = "vulkan1.3";
  pm.addPass(createCoopVecCheckSupport(support));
  ConvertCoopVecToSPIRVOptions lowering;
  lowering.fma = options.fma;
  lowering.workgroupSize.assign(options.workgroupSize.begin(),
                               options.workgroupSize.end());
  pm.addPass(createConvertCoopVecToSPIRV(lowering));
  pm.addNestedPass<gpu::GPUModuleOp>(createCanonicalizerPass());
  pm.addNestedPass<gpu::GPUModuleOp>(std::make_unique<MathToSPIRVInGPUModule>());
  pm.addPass(createConvertGPUToSPIRVPass(/*mapMemorySpace=*/true));
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
      "coopvec-check-support{profile=vulkan1.3}, convert-coopvec-to-spirv, "
      "math ops to GLSL.std.450 (by the gpu.module's target), "
      "convert-gpu-to-spirv, spirv-lower-abi-attrs, spirv-update-vce, "
      "coopvec-nest-spirv-modules, then (binary=true) gpu-module-to-binary "
      "and coopvec-vulkan-launch-args. Host code is left for the host "
      "lowering (gpu-to-llvm) and libcoopvec_vulkan_runtime.so",
      buildCoopVecVulkanPipeline);
}
