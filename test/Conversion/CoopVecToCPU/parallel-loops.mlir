// RUN: coopvec-opt %s --coopvec-cpu-pipeline | FileCheck %s
// RUN: coopvec-opt %s --coopvec-cpu-pipeline="loop-workers=2 loop-min-task-size=64" | FileCheck %s --check-prefix=OPTS
// RUN: coopvec-opt %s --coopvec-cpu-pipeline="parallel-loops=false" | FileCheck %s --check-prefix=SEQ
// RUN: not coopvec-opt %s --coopvec-cpu-pipeline="loop-workers=-1" 2>&1 | FileCheck %s --check-prefix=BADOPT
// BADOPT: '-1' value invalid for uint argument

// The scf.parallel loops coopvec-batch leaves run on the async runtime's
// workers: async-parallel-for outlines the body into @parallel_compute_fn
// before coopvec is lowered, so the matvec's stack slots are that
// function's (one frame per worker), and @shade waits for the group of
// tasks. Only the runtime functions used stay declared.

// CHECK-LABEL: llvm.func @shade(
// CHECK:         llvm.mlir.constant(1000 : index)
// CHECK:         llvm.call @mlirAsyncRuntimGetNumWorkerThreads()
// CHECK:         llvm.call @mlirAsyncRuntimeCreateGroup(
// CHECK:         llvm.call @mlirAsyncRuntimeAwaitAllInGroup(
// CHECK:         llvm.return
// CHECK-LABEL: llvm.func @sum(
// CHECK-NOT:     mlirAsync
// CHECK:         llvm.return
// CHECK-LABEL: llvm.func @parallel_compute_fn(
// CHECK:         llvm.alloca {{.*}} x f32 {alignment = 64 : i64}
// CHECK:         llvm.call @coopvecCpuMatVecMulAdd(
// CHECK:         llvm.return
// CHECK:       llvm.func @async_execute_fn(
// CHECK:         llvm.call @mlirAsyncRuntimeExecute(
// CHECK-NOT:   llvm.func @mlirAsyncRuntimeAwaitValue(

// The worker count (2, split 8 ways each: 16 blocks; 0, the default, asks
// the runtime) and the smallest task are pipeline options.
// OPTS-LABEL: llvm.func @shade(
// OPTS-NOT:     @mlirAsyncRuntimGetNumWorkerThreads
// OPTS-DAG:     llvm.mlir.constant(64 : index)
// OPTS-DAG:     llvm.mlir.constant(16 : index)
// OPTS:         llvm.call @mlirAsyncRuntimeCreateGroup(

// SEQ-NOT: mlirAsync
// SEQ-NOT: parallel_compute_fn
// SEQ:     llvm.func @shade(
// SEQ:     llvm.call @coopvecCpuMatVecMulAdd(

// Per-pixel matvecs whose matrix offset varies with the pixel: not a shared
// matrix, so coopvec-batch leaves the loop.
func.func @shade(%w: memref<?xi8>, %out: memref<?x4xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %x = arith.constant dense<1.0> : vector<4xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %parity = arith.remui %i, %c2 : index
    %off = arith.muli %parity, %c64 : index
    %y = coopvec.matvec %x as F32, %w[%off] matrix<F32, 4x4, RowMajor> stride %c16
           : vector<4xf32>, memref<?xi8> -> vector<4xf32>
    vector.store %y, %out[%i, %c0] : memref<?x4xf32>, vector<4xf32>
    scf.reduce
  }
  return
}

// A loop with a reduction is not split (async-parallel-for does not take
// reductions): it stays on the calling thread.
func.func @sum(%in: memref<?xf32>, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %s = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%zero) -> f32 {
    %v = memref.load %in[%i] : memref<?xf32>
    scf.reduce(%v : f32) {
    ^bb0(%l: f32, %r: f32):
      %a = arith.addf %l, %r : f32
      scf.reduce.return %a : f32
    }
  }
  return %s : f32
}
