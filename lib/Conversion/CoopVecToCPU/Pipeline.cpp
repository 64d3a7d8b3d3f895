//===- Pipeline.cpp - the default CPU pipeline: coopvec to LLVM -----------===//
//
// --coopvec-cpu-pipeline: convert-coopvec-to-cpu, then the upstream lowerings
// of everything a coopvec program is written with, ending in the LLVM
// dialect that the ExecutionEngine (coopvec-run) translates and JITs.
//
//===----------------------------------------------------------------------===//

#include "LinAlgCoop/Conversion/CoopVecToCPU/CoopVecToCPU.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Async/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "LinAlgCoop/Conversion/LowerToLLVM.h"
#include "LinAlgCoop/Dialect/CoopVec/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

#include <algorithm>
#include <cstdint>

using namespace mlir;

void mlir::coopvec::buildCoopVecCPUPipeline(
    OpPassManager &pm, const CoopVecCPUPipelineOptions &options) {
  // Host GPU ops in program order on one stream, the form gpu-to-llvm
  // lowers (it leaves synchronous gpu.alloc and gpu.memcpy alone).
  if (options.gpuHost)
    pm.addNestedPass<func::FuncOp>(createGpuAsyncRegionPass());
  // Cooperative batching first: per-invocation loops become matrix-matrix
  // and fused network kernels.
  if (options.batch)
    pm.addPass(coopvec::createCoopVecBatch());
  // The parallel loops left are split into tasks for the async runtime's
  // thread pool. Their bodies are outlined into functions before coopvec is
  // lowered, so the stack slots of the ops inside land in those functions'
  // frames, one per worker.
  if (options.parallelLoops) {
    AsyncParallelForPassOptions loopOptions;
    // async-parallel-for asks the runtime for its worker count at -1.
    loopOptions.numWorkerThreads =
        options.loopWorkers ? int32_t(std::min<unsigned>(options.loopWorkers,
                                                         INT32_MAX))
                            : -1;
    loopOptions.minTaskSize = int32_t(std::clamp<unsigned>(
        options.loopMinTaskSize, 1, INT32_MAX));
    pm.addPass(createAsyncParallelForPass(loopOptions));
  }
  ConvertCoopVecToCPUOptions cpuOptions;
  cpuOptions.numThreads = options.numThreads;
  cpuOptions.batchThreads = options.batchThreads;
  cpuOptions.boundsChecks = options.boundsChecks;
  pm.addPass(createConvertCoopVecToCPU(cpuOptions));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  if (options.parallelLoops) {
    pm.addPass(createAsyncToAsyncRuntimePass());
    pm.addPass(createAsyncRuntimeRefCountingPass());
    pm.addPass(createAsyncRuntimeRefCountingOptPass());
    pm.addPass(createConvertAsyncToLLVMPass());
    // convert-async-to-llvm declares the whole async runtime API in every
    // module; only the functions a program calls stay.
    pm.addPass(createSymbolDCEPass());
  }
  buildLowerToLLVMPasses(pm, options.gpuHost);
  pm.addPass(createCanonicalizerPass());
}

void mlir::coopvec::registerCoopVecCPUPipeline() {
  PassPipelineRegistration<CoopVecCPUPipelineOptions>(
      "coopvec-cpu-pipeline",
      "Lower a coopvec program with func/arith/math/memref/vector/scf/affine "
      "to the LLVM dialect for the CPU JIT: coopvec-batch (unless "
      "batch=false), async-parallel-for (unless parallel-loops=false), "
      "convert-coopvec-to-cpu "
      "(runtime calls into libcoopvec_runtime.so), canonicalize, cse, "
      "async-to-async-runtime, async-runtime-ref-counting, "
      "async-runtime-ref-counting-opt, convert-async-to-llvm, symbol-dce, "
      "convert-vector-to-scf, lower-affine, arith-expand, convert-scf-to-cf, "
      "convert-vector-to-llvm, convert-math-to-llvm, convert-math-to-libm, "
      "expand-strided-metadata, lower-affine, finalize-memref-to-llvm, "
      "convert-arith-to-llvm, convert-index-to-llvm, convert-func-to-llvm, "
      "convert-cf-to-llvm, convert-ub-to-llvm, reconcile-unrealized-casts, "
      "canonicalize. Options: batch, num-threads, batch-threads, "
      "bounds-checks (as for convert-coopvec-to-cpu), parallel-loops, "
      "loop-workers, loop-min-task-size, gpu-host (gpu-async-region first "
      "and gpu-to-llvm before reconcile-unrealized-casts, for the host side "
      "of GPU programs)",
      buildCoopVecCPUPipeline);
}
