// Vector and outer-product accumulation from the 100000 iterations of an
// scf.parallel loop into shared buffers. The CPU pipeline runs the loop on
// the async runtime's workers (async-parallel-for), so the updates race
// unless the runtime's accumulation is atomic; with --sequential-loops the
// same loop runs on one thread. Expected sums by hand: over i in [0, 1e5),
// sum(i mod 7) = 14285 * 21 + 10 = 299995 and sum(i mod 3) = 33333 * 3 = 99999.

// RUN: %numpy_python -c "import numpy as np; np.save('%t.vec.npy', np.zeros(4, np.int32)); np.save('%t.mat.npy', np.zeros((2, 4), np.int32)); np.save('%t.f32.npy', np.zeros(4, np.float32))"
// RUN: coopvec-run %s -e accumulate -a %t.vec.npy -a %t.mat.npy -a %t.f32.npy --print-args | FileCheck %s
// RUN: coopvec-run %s -e accumulate -a %t.vec.npy -a %t.mat.npy -a %t.f32.npy --print-args --sequential-loops | FileCheck %s

// CHECK: arg 0: [100000, 299995, -100000, 200000]
// CHECK: arg 1: {{\[}}[99999, 100000, 200000, 0], [-199998, -200000, -400000, 0]]
// CHECK: arg 2: [1e+05, 50000, -2e+05, 0]
func.func @accumulate(%vec: memref<?xi8>, %mat: memref<?xi8>, %vecf: memref<?xi8>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c7 = arith.constant 7 : index
  %c16 = arith.constant 16 : index
  %n = arith.constant 100000 : index
  %v0 = arith.constant dense<[1, 0, -1, 2]> : vector<4xi32>
  %a = arith.constant dense<[1, -2]> : vector<2xi32>
  %b0 = arith.constant dense<[0, 1, 2]> : vector<3xi32>
  %f = arith.constant dense<[1.0, 0.5, -2.0, 0.0]> : vector<4xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %r7 = arith.remui %i, %c7 : index
    %r7i = arith.index_cast %r7 : index to i32
    %v = vector.insert %r7i, %v0 [1] : i32 into vector<4xi32>
    coopvec.vector_accumulate %v, %vec[%c0] : vector<4xi32>, memref<?xi8>
    %r3 = arith.remui %i, %c3 : index
    %r3i = arith.index_cast %r3 : index to i32
    %b = vector.insert %r3i, %b0 [0] : i32 into vector<3xi32>
    coopvec.outer_product_accumulate %a, %b, %mat[%c0] matrix<I32, 2x3, RowMajor> stride %c16
        : vector<2xi32>, vector<3xi32>, memref<?xi8>
    coopvec.vector_accumulate %f, %vecf[%c0] : vector<4xf32>, memref<?xi8>
    scf.reduce
  }
  return
}
