// Integer outer-product and vector accumulation (the runtime's reference
// path: a process-wide lock for outer products, atomic adds for vectors)
// from 8 concurrent invocations calling 100 times each into one shared
// buffer: every update must land. Expected values are 800 times one
// contribution, computed by hand.

// RUN: %numpy_python -c "import numpy as np; np.save('%t.i32.npy', np.zeros((2, 4), np.int32)); np.save('%t.vec.npy', np.zeros(8, np.int32)); np.save('%t.i16.npy', np.zeros(8, np.int16))"
// RUN: coopvec-run %s -e outer_i32 -a %t.i32.npy --invocations 8 --repeat 100 --print-args | FileCheck %s --check-prefix=OUTER
// RUN: coopvec-run %s -e outer_i16_into_i8 -a %t.i16.npy --print-args | FileCheck %s --check-prefix=SAT
// RUN: coopvec-run %s -e vector_i32 -a %t.vec.npy --invocations 8 --repeat 100 --print-args | FileCheck %s --check-prefix=VEC

// a = [1, -2], b = [3, 4, 5]; I32 RowMajor 2x3, stride 16 bytes (4 ints).
// OUTER: arg 0: {{\[}}[2400, 3200, 4000, 0], [-4800, -6400, -8000, 0]]
func.func @outer_i32(%m: memref<?xi8>) {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %a = arith.constant dense<[1, -2]> : vector<2xi32>
  %b = arith.constant dense<[3, 4, 5]> : vector<3xi32>
  coopvec.outer_product_accumulate %a, %b, %m[%c0] matrix<I32, 2x3, RowMajor> stride %c16
      : vector<2xi32>, vector<3xi32>, memref<?xi8>
  return
}

// i16 products accumulated into an I8 RowMajor 1x4 matrix saturate:
// [100, -100, 2, 0] * 3 = [300, -300, 6, 0] -> [127, -128, 6, 0] (the buffer
// is an i16 array of 8: its first 4 bytes hold the I8 matrix, so the
// first i16 is 0x807F and the second 0x0006).
// SAT: arg 0: [-32641, 6, 0, 0, 0, 0, 0, 0]
func.func @outer_i16_into_i8(%m: memref<?xi8>) {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %a = arith.constant dense<[3]> : vector<1xi16>
  %b = arith.constant dense<[100, -100, 2, 0]> : vector<4xi16>
  coopvec.outer_product_accumulate %a, %b, %m[%c0] matrix<I8, 1x4, RowMajor> stride %c16
      : vector<1xi16>, vector<4xi16>, memref<?xi8>
  return
}

// VEC: arg 0: [800, -800, 1600, 0, 0, 0, 0, 0]
func.func @vector_i32(%m: memref<?xi8>) {
  %c0 = arith.constant 0 : index
  %v = arith.constant dense<[1, -1, 2, 0]> : vector<4xi32>
  coopvec.vector_accumulate %v, %m[%c0] : vector<4xi32>, memref<?xi8>
  return
}
