//===- LowerToLLVM.h - the upstream tail of every target pipeline -*- C++ -*-===//

#ifndef LINALGCOOP_CONVERSION_LOWERTOLLVM_H
#define LINALGCOOP_CONVERSION_LOWERTOLLVM_H

namespace mlir {
class OpPassManager;
namespace coopvec {

/// Adds the upstream passes that lower what surrounds coopvec's own
/// lowering (func, arith, math, memref, vector, scf, cf, affine, index, ub)
/// to the LLVM dialect, in the order they need: vector transfers to loops,
/// structured control flow to branches, subviews to metadata arithmetic,
/// then every dialect to LLVM and the casts reconciled. Shared by the CPU
/// and DXIL pipelines. With `gpuHost`, gpu-to-llvm also lowers the host
/// side of GPU programs (gpu.launch_func of gpu.binary kernels, gpu.alloc,
/// gpu.memcpy, ...) before the casts are reconciled.
void buildLowerToLLVMPasses(OpPassManager &pm, bool gpuHost = false);

} // namespace coopvec
} // namespace mlir

#endif // LINALGCOOP_CONVERSION_LOWERTOLLVM_H
