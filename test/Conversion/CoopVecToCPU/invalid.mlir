// RUN: coopvec-opt %s --convert-coopvec-to-cpu --split-input-file -verify-diagnostics

func.func @strided_byte_buffer(%x: vector<4xf32>, %w: memref<?xi8, strided<[2]>>) -> vector<4xf32> {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{'coopvec.matvec' op byte buffer 'memref<?xi8, strided<[2]>>' must have unit stride for the CPU runtime}}
  %y = coopvec.matvec %x as F32, %w[%c0] matrix<F32, 4x4, TrainingOptimal>
         : vector<4xf32>, memref<?xi8, strided<[2]>> -> vector<4xf32>
  return %y : vector<4xf32>
}

// -----

// A batch whose rows are not contiguous.
func.func @strided_rows(%x: memref<?x4xf32, strided<[8, 2]>>, %y: memref<?x4xf32>, %w: memref<?xi8>) {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{'coopvec.batch_matvec' op batch 'memref<?x4xf32, strided<[8, 2]>>' must have contiguous rows (unit stride in its last dimension) for the CPU runtime}}
  coopvec.batch_matvec %x as F32, %w[%c0] matrix<F32, 4x4, TrainingOptimal> into %y
      : memref<?x4xf32, strided<[8, 2]>>, memref<?xi8> -> memref<?x4xf32>
  return
}
