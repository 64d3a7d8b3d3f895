//===- InitAll.h - register every coopvec dialect and pass ------*- C++ -*-===//
//
// One place that tools (coopvec-opt, coopvec-run, coopvec-translate) use to
// register the coopvec dialect, the upstream dialects it composes with, and
// every pass and pipeline of the project.
//
//===----------------------------------------------------------------------===//

#ifndef LINALGCOOP_INITALL_H
#define LINALGCOOP_INITALL_H

#include "LinAlgCoop/Conversion/Passes.h"
#include "LinAlgCoop/Dialect/CoopVec/IR/CoopVecDialect.h"
#include "LinAlgCoop/Dialect/CoopVec/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/SPIRV/Target.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"

namespace mlir::coopvec {

/// Registers the coopvec dialect and the upstream dialects coopvec programs
/// are written with.
inline void registerAllDialects(DialectRegistry &registry) {
  registry.insert<CoopVecDialect, arith::ArithDialect, cf::ControlFlowDialect,
                  func::FuncDialect, gpu::GPUDialect, index::IndexDialect,
                  LLVM::LLVMDialect, NVVM::NVVMDialect, math::MathDialect,
                  memref::MemRefDialect, scf::SCFDialect,
                  spirv::SPIRVDialect, vector::VectorDialect>();
  mlir::registerAllExtensions(registry);
  // gpu-module-to-binary (coopvec-nvvm-pipeline) serializes through the
  // #nvvm.target attribute's model and the dialects' LLVM IR translations.
  NVVM::registerNVVMTargetInterfaceExternalModels(registry);
  // ... and coopvec-vulkan-pipeline through #spirv.target_env's.
  spirv::registerSPIRVTargetInterfaceExternalModels(registry);
  registerAllToLLVMIRTranslations(registry);
}

/// Registers every coopvec pass and pipeline, and the upstream passes that
/// pipelines are built from.
inline void registerAllPasses() {
  mlir::registerAllPasses();
  registerCoopVecPasses();
  registerCoopVecConversionPasses();
  // Pipelines (PassPipelineRegistration) of each target are registered here.
  registerCoopVecCPUPipeline();
  registerCoopVecDXILPipeline();
  registerCoopVecSiFivePipeline();
  registerCoopVecNVVMPipeline();
  registerCoopVecVulkanPipeline();
}

} // namespace mlir::coopvec

#endif // LINALGCOOP_INITALL_H
