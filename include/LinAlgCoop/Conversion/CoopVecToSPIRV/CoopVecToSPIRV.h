//===- CoopVecToSPIRV.h - coopvec to SPIR-V for Vulkan ----------*- C++ -*-===//
//
// The Vulkan target: coopvec ops in GPU kernels as per-invocation loops with
// packed int8 dot products, lowered with the rest of the kernel by
// convert-gpu-to-spirv and serialized by gpu-module-to-binary; the host
// launches them through libcoopvec_vulkan_runtime.so (docs/Vulkan.md).
//
//===----------------------------------------------------------------------===//

#ifndef LINALGCOOP_CONVERSION_COOPVECTOSPIRV_COOPVECTOSPIRV_H
#define LINALGCOOP_CONVERSION_COOPVECTOSPIRV_COOPVECTOSPIRV_H

#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir {
class OpPassManager;
class RewritePatternSet;

namespace coopvec {

#define GEN_PASS_DECL_CONVERTCOOPVECTOSPIRV
#define GEN_PASS_DECL_COOPVECNESTSPIRVMODULES
#define GEN_PASS_DECL_COOPVECCONVERTGPUTOSPIRV
#define GEN_PASS_DECL_COOPVECVULKANLAUNCHARGS
#include "LinAlgCoop/Conversion/Passes.h.inc"

/// Adds the patterns that rewrite coopvec.matvec and
/// coopvec.vector_accumulate in a gpu.func into arith/scf/memref code and
/// SPIR-V dot products and atomics (float products fused when `fma`). Ops
/// the lowering does not cover fail to match; the pass reports them first.
void populateCoopVecToSPIRVPatterns(RewritePatternSet &patterns, bool fma);

/// Adds the patterns that split vectors of more than four elements in a
/// kernel into scalars: vector.load/vector.store become element accesses,
/// elementwise ops act per element, and vector.extract folds through
/// vector.from_elements, broadcasts and constants.
void populateScalarizeLongVectorsPatterns(RewritePatternSet &patterns);

/// Whether `op` is an arith or math op on bf16 values (scalars or vectors)
/// other than arith.bitcast and arith.select: coopvec-convert-gpu-to-spirv
/// carries bf16 as its 16 bits (Vulkan 1.3 has no bf16) and rejects such
/// ops with a located error.
bool isBF16Arithmetic(Operation *op);

/// Options of the `coopvec-vulkan-pipeline` pipeline.
struct CoopVecVulkanPipelineOptions
    : public PassPipelineOptions<CoopVecVulkanPipelineOptions> {
  PassOptions::Option<bool> fma{
      *this, "fma",
      llvm::cl::desc("Float products with GL.Fma (default: multiply then "
                     "add, bit-identical to the CPU reference)"),
      llvm::cl::init(false)};
  PassOptions::ListOption<int32_t> workgroupSize{
      *this, "workgroup-size",
      llvm::cl::desc("Workgroup size of kernels whose size neither "
                     "known_block_size nor their launches give")};
  PassOptions::Option<bool> binary{
      *this, "binary",
      llvm::cl::desc("Serialize the gpu.modules to SPIR-V binaries and "
                     "rewrite the launches for the Vulkan runtime (false: "
                     "stop at the spirv.modules)"),
      llvm::cl::init(true)};
};

/// coopvec-check-support{profile=vulkan1.3}, convert-coopvec-to-spirv,
/// convert-gpu-to-spirv, spirv-lower-abi-attrs and spirv-update-vce on each
/// spirv.module, coopvec-nest-spirv-modules, then (binary=true)
/// gpu-module-to-binary and coopvec-vulkan-launch-args. Host code is left
/// for the host pipeline.
void buildCoopVecVulkanPipeline(OpPassManager &pm,
                                const CoopVecVulkanPipelineOptions &options);

/// Registers `coopvec-vulkan-pipeline`.
void registerCoopVecVulkanPipeline();

} // namespace coopvec
} // namespace mlir

#endif // LINALGCOOP_CONVERSION_COOPVECTOSPIRV_COOPVECTOSPIRV_H
