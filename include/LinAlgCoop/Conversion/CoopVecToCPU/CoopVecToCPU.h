//===- CoopVecToCPU.h - coopvec to CPU runtime calls ------------*- C++ -*-===//
//
// The CPU target: lowering of coopvec ops to calls into the runtime's C ABI
// (libcoopvec_runtime.so) and the pipeline that takes a coopvec program down
// to the LLVM dialect for the JIT.
//
//===----------------------------------------------------------------------===//

#ifndef LINALGCOOP_CONVERSION_COOPVECTOCPU_COOPVECTOCPU_H
#define LINALGCOOP_CONVERSION_COOPVECTOCPU_COOPVECTOCPU_H

#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir {
class OpPassManager;
class RewritePatternSet;

namespace coopvec {

#define GEN_PASS_DECL_CONVERTCOOPVECTOCPU
#include "LinAlgCoop/Conversion/Passes.h.inc"

/// Adds the patterns that rewrite each coopvec op into runtime calls.
/// `numThreads` is passed to the kernel calls of single-vector ops and
/// `batchThreads` to those of batched and fused ops (0: the runtime's
/// default, all cores); with `boundsChecks`, every buffer access is checked
/// against the memref's size first.
void populateCoopVecToCPUPatterns(RewritePatternSet &patterns,
                                  unsigned numThreads = 1,
                                  bool boundsChecks = true,
                                  unsigned batchThreads = 0);

/// The CPU lowering of the tile level (coopvec.tile_pack, coopvec.tile_mma);
/// part of populateCoopVecToCPUPatterns.
void populateCoopVecTileToCPUPatterns(RewritePatternSet &patterns);

/// Options of --coopvec-cpu-pipeline.
struct CoopVecCPUPipelineOptions
    : public PassPipelineOptions<CoopVecCPUPipelineOptions> {
  PassOptions::Option<unsigned> numThreads{
      *this, "num-threads",
      llvm::cl::desc("Threads each runtime call may use (0: runtime default)"),
      llvm::cl::init(1)};
  PassOptions::Option<unsigned> batchThreads{
      *this, "batch-threads",
      llvm::cl::desc("Threads a batched or fused op may use (0: all cores)"),
      llvm::cl::init(0)};
  PassOptions::Option<bool> batch{
      *this, "batch",
      llvm::cl::desc("Run --coopvec-batch first: per-invocation network "
                     "loops become batched and fused kernels"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> boundsChecks{
      *this, "bounds-checks",
      llvm::cl::desc("Check every buffer access against the memref size"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> parallelLoops{
      *this, "parallel-loops",
      llvm::cl::desc("Run the scf.parallel loops that coopvec-batch leaves "
                     "(those without reductions) on the worker threads of "
                     "MLIR's async runtime (async-parallel-for; the JIT then "
                     "needs libmlir_async_runtime.so); false runs them "
                     "sequentially"),
      llvm::cl::init(true)};
  PassOptions::Option<unsigned> loopWorkers{
      *this, "loop-workers",
      llvm::cl::desc("Workers a parallel loop is split for (0: ask the "
                     "async runtime, one per core)"),
      llvm::cl::init(0)};
  PassOptions::Option<unsigned> loopMinTaskSize{
      *this, "loop-min-task-size",
      llvm::cl::desc("Fewest iterations of a parallel loop worth a task of "
                     "their own (at least 1); shorter loops run on the "
                     "calling thread"),
      llvm::cl::init(1000)};
  PassOptions::Option<bool> gpuHost{
      *this, "gpu-host",
      llvm::cl::desc("Also lower the host side of a GPU program whose "
                     "gpu.modules are already compiled to gpu.binary: "
                     "gpu-async-region on every function first (gpu.alloc, "
                     "gpu.memcpy, gpu.launch_func, ... then run in order on "
                     "one stream) and gpu-to-llvm before the casts are "
                     "reconciled; the JIT then needs a runtime with the "
                     "mgpu* functions (libcoopvec_cuda_runtime.so)"),
      llvm::cl::init(false)};
};

/// Builds the default CPU pipeline: coopvec and the upstream dialects around
/// it (func, arith, math, memref, vector, scf, cf, affine, index) down to the
/// LLVM dialect, ready for the ExecutionEngine.
void buildCoopVecCPUPipeline(OpPassManager &pm,
                             const CoopVecCPUPipelineOptions &options);

/// Registers --coopvec-cpu-pipeline.
void registerCoopVecCPUPipeline();

} // namespace coopvec
} // namespace mlir

#endif // LINALGCOOP_CONVERSION_COOPVECTOCPU_COOPVECTOCPU_H
