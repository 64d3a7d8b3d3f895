//===- CoopVecToNVVM.h - coopvec to NVVM for NVIDIA GPUs --------*- C++ -*-===//
//
// The NVIDIA target: coopvec.matvec in GPU kernels as warp-cooperative
// mma.sync on tensor cores or per-lane loops, then PTX and cubin through
// gpu-module-to-binary (docs/NVIDIA.md).
//
//===----------------------------------------------------------------------===//

#ifndef LINALGCOOP_CONVERSION_COOPVECTONVVM_COOPVECTONVVM_H
#define LINALGCOOP_CONVERSION_COOPVECTONVVM_COOPVECTONVVM_H

#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir {
class OpPassManager;
class RewritePatternSet;

namespace coopvec {

#define GEN_PASS_DECL_CONVERTCOOPVECTONVVM
#include "LinAlgCoop/Conversion/Passes.h.inc"

/// Adds the pattern that rewrites coopvec.matvec in a gpu.func into the
/// warp-cooperative mma.sync step (when `cooperative`) guarded by a run-time
/// uniformity check, with the per-lane loop as the other branch, for SM
/// `chip`. Ops the lowering does not cover fail to match; the pass reports
/// them first. The cooperative step stages through a
/// memref.global in workgroup memory that the patterns create in the
/// gpu.module where it is missing, with a stage for each warp of a block
/// (known_block_size, else `stageWarps` warps; the warps beyond take the
/// per-lane path).
void populateCoopVecToNVVMPatterns(RewritePatternSet &patterns, StringRef chip,
                                   bool cooperative, int64_t stageWarps = 8);

/// Adds the patterns that rewrite coopvec.convert and coopvec.pack inside a
/// gpu.module into PTX cvt through NVVM's conversion ops.
void populateCoopVecNumericsToNVVMPatterns(RewritePatternSet &patterns);

/// Emits a located error when SM `chip` has no cvt for the coopvec.convert
/// or coopvec.pack `op` (fp8 before sm_89, fp6/fp4/ue8m0 before sm_100a,
/// rs off sm_100a, tf32 rn/rz before sm_90).
LogicalResult checkNumericsForNVVM(Operation *op, StringRef chip);

/// Options of the `coopvec-nvvm-pipeline` pipeline.
struct CoopVecNVVMPipelineOptions
    : public PassPipelineOptions<CoopVecNVVMPipelineOptions> {
  PassOptions::Option<std::string> chip{
      *this, "chip",
      llvm::cl::desc("The SM: sm_80, sm_89, sm_90, sm_100a or sm_120a "
                     "(also the coopvec profile checked)"),
      llvm::cl::init("sm_80")};
  PassOptions::Option<std::string> format{
      *this, "format",
      llvm::cl::desc("What gpu-module-to-binary embeds: isa (PTX), bin "
                     "(cubin, assembled by ptxas), fatbin, llvm or offload"),
      llvm::cl::init("bin")};
  PassOptions::Option<bool> cooperative{
      *this, "cooperative",
      llvm::cl::desc("Emit the warp-cooperative tensor-core step (false: "
                     "only the per-lane path)"),
      llvm::cl::init(true)};
  PassOptions::Option<int64_t> stageWarps{
      *this, "stage-warps",
      llvm::cl::desc("Warps per block with a shared-memory stage for the "
                     "cooperative step when a gpu.func has no "
                     "known_block_size (1 to 32, 1 KiB each); the warps "
                     "beyond take the per-lane path"),
      llvm::cl::init(8)};
  PassOptions::Option<std::string> toolkit{
      *this, "toolkit",
      llvm::cl::desc("CUDA toolkit whose bin/ptxas assembles format=bin "
                     "(default: $CUDA_ROOT, $CUDA_HOME or $CUDA_PATH, else "
                     "/usr/local/cuda, else ptxas on $PATH)"),
      llvm::cl::init("")};
  PassOptions::Option<unsigned> optLevel{
      *this, "opt-level",
      llvm::cl::desc("Optimization level of the NVPTX back end (0-3)"),
      llvm::cl::init(3)};
};

/// coopvec-check-support{profile=<chip>}, convert-coopvec-to-nvvm,
/// convert-gpu-to-nvvm in each gpu.module, nvvm-attach-target (PTX 8.7) and
/// gpu-module-to-binary. Host code is left for the host pipeline.
void buildCoopVecNVVMPipeline(OpPassManager &pm,
                              const CoopVecNVVMPipelineOptions &options);

/// Registers `coopvec-nvvm-pipeline`.
void registerCoopVecNVVMPipeline();

} // namespace coopvec
} // namespace mlir

#endif // LINALGCOOP_CONVERSION_COOPVECTONVVM_COOPVECTONVVM_H
