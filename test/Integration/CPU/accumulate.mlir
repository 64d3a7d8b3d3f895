// Outer-product and vector accumulation from 8 concurrent invocations, each
// calling 100 times, into one shared buffer: every update must land (the
// runtime's CAS loops). Small integers keep every sum exact, so the expected
// values are 800 times one contribution, computed by hand.

// RUN: %numpy_python -c "import numpy as np; np.save('%t.f32.npy', np.zeros((2, 4), np.float32)); np.save('%t.f16.npy', np.zeros((2, 8), np.float16)); np.save('%t.vec.npy', np.zeros(20, np.float32))"
// RUN: coopvec-run %s -e outer_f32 -a %t.f32.npy --invocations 8 --repeat 100 --print-args | FileCheck %s --check-prefix=OUTER32
// RUN: coopvec-run %s -e outer_f16 -a %t.f16.npy --invocations 8 --repeat 10 --print-args | FileCheck %s --check-prefix=OUTER16
// RUN: coopvec-run %s -e vector_f32 -a %t.vec.npy --invocations 8 --repeat 100 --print-args | FileCheck %s --check-prefix=VEC32
// RUN: not coopvec-run %s -e outer_training_optimal -a %t.f32.npy --print-args 2>&1 | FileCheck %s --check-prefix=TRAIN --implicit-check-not=arg

// a = [1, 2], b = [1, 2, 3]; RowMajor 2x3 f32, stride 16 bytes (4 floats).
// OUTER32: arg 0: {{\[}}[800, 1600, 2400, 0], [1600, 3200, 4800, 0]]
func.func @outer_f32(%m: memref<?xi8>) {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %a = arith.constant dense<[1.0, 2.0]> : vector<2xf32>
  %b = arith.constant dense<[1.0, 2.0, 3.0]> : vector<3xf32>
  coopvec.outer_product_accumulate %a, %b, %m[%c0] matrix<F32, 2x3, RowMajor> stride %c16
      : vector<2xf32>, vector<3xf32>, memref<?xi8>
  return
}

// f16 inputs into an F16 ColumnMajor 3x2 matrix (stride 16 bytes: columns of
// 8 halves): element (i, j) at j * 8 + i. 80 contributions.
// OUTER16: arg 0: {{\[}}[80, 160, 240, 0, 0, 0, 0, 0], [-80, -160, -240, 0, 0, 0, 0, 0]]
func.func @outer_f16(%m: memref<?xi8>) {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %a = arith.constant dense<[1.0, 2.0, 3.0]> : vector<3xf16>
  %b = arith.constant dense<[1.0, -1.0]> : vector<2xf16>
  coopvec.outer_product_accumulate %a, %b, %m[%c0] matrix<F16, 3x2, ColumnMajor> stride %c16
      : vector<3xf16>, vector<2xf16>, memref<?xi8>
  return
}

// Vector accumulate at byte offset 64 (element 16).
// VEC32: arg 0: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 800, -1600, 2400, 200]
func.func @vector_f32(%buf: memref<?xi8>) {
  %c64 = arith.constant 64 : index
  %v = arith.constant dense<[1.0, -2.0, 3.0, 0.25]> : vector<4xf32>
  coopvec.vector_accumulate %v, %buf[%c64] : vector<4xf32>, memref<?xi8>
  return
}

// TrainingOptimal 2x3 f32 (one 8x8 tile, 256 bytes; the .npy has 32): the
// bounds check stops the call before the kernel touches memory.
// TRAIN: coopvec runtime error: coopvec.outer_product_accumulate at {{.*}}accumulate.mlir:[[@LINE+5]]:3: COOPVEC_ERROR_BUFFER_TOO_SMALL (-5)
func.func @outer_training_optimal(%m: memref<?xi8>) {
  %c0 = arith.constant 0 : index
  %a = arith.constant dense<[1.0, 2.0]> : vector<2xf32>
  %b = arith.constant dense<[1.0, 2.0, 3.0]> : vector<3xf32>
  coopvec.outer_product_accumulate %a, %b, %m[%c0] matrix<F32, 2x3, TrainingOptimal>
      : vector<2xf32>, vector<3xf32>, memref<?xi8>
  return
}
