// A per-invocation matvec in an scf.parallel loop that --coopvec-batch
// cannot batch (the matrix offset varies with the invocation) runs 200000
// iterations without growing the stack: its stack slots live in the entry
// block of the function that runs the body (200000 iterations of
// per-iteration slots would overflow an 8 MiB stack), on the async
// runtime's workers or, with --sequential-loops, on the calling thread.
// RUN: coopvec-run %s -e main | FileCheck %s
// RUN: coopvec-run %s -e main --sequential-loops | FileCheck %s
// The lowered program also runs in mlir-runner (an -O level runs LLVM's
// coroutine passes, which the async lowering needs).
// RUN: coopvec-opt %s --coopvec-cpu-pipeline | mlir-runner -O2 -e main \
// RUN:   -entry-point-result=f32 \
// RUN:   -shared-libs=%coopvec_libs/libcoopvec_runtime.so,%mlir_async_runtime \
// RUN:   | FileCheck %s --check-prefix=RUNNER
// RUNNER: 2.000000e+05
// CHECK: 2e+05


func.func @main() -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %n = arith.constant 200000 : index
  // Two 4x4 F32 matrices, row-major with 16-byte rows, 128 bytes apart; the
  // first element of each is 1, every other 0.
  %w = memref.alloc() : memref<256xi8>
  %wf = memref.view %w[%c0][] : memref<256xi8> to memref<64xf32>
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  scf.for %j = %c0 to %c64 step %c1 {
    memref.store %zero, %wf[%j] : memref<64xf32>
  }
  memref.store %one, %wf[%c0] : memref<64xf32>
  %c32 = arith.constant 32 : index
  memref.store %one, %wf[%c32] : memref<64xf32>
  %out = memref.alloc(%n) : memref<?xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %parity = arith.remui %i, %c2 : index
    %c128 = arith.constant 128 : index
    %off = arith.muli %parity, %c128 : index
    %x = arith.constant dense<1.0> : vector<4xf32>
    %y = coopvec.matvec %x as F32, %w[%off] matrix<F32, 4x4, RowMajor> stride %c16
           : vector<4xf32>, memref<256xi8> -> vector<4xf32>
    %e = vector.extract %y[0] : f32 from vector<4xf32>
    memref.store %e, %out[%i] : memref<?xf32>
    scf.reduce
  }
  %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> f32 {
    %v = memref.load %out[%i] : memref<?xf32>
    %a = arith.addf %acc, %v : f32
    scf.yield %a : f32
  }
  memref.dealloc %out : memref<?xf32>
  memref.dealloc %w : memref<256xi8>
  return %sum : f32
}
