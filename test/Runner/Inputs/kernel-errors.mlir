// An I16 matrix: valid coopvec, but the CPU kernels return
// COOPVEC_ERROR_UNSUPPORTED_TYPE today.
func.func @i16_matrix(%x: vector<4xf32>, %w: memref<?xi8>) -> vector<4xf32> {
  %c0 = arith.constant 0 : index
  %y = coopvec.matvec %x as F32, %w[%c0] matrix<I16, 4x4, TrainingOptimal>
         : vector<4xf32>, memref<?xi8> -> vector<4xf32>
  return %y : vector<4xf32>
}

// A 4x4 F32 row-major matrix needs 64 bytes.
func.func @f32_matrix(%x: vector<4xf32>, %w: memref<?xi8>) -> vector<4xf32> {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %y = coopvec.matvec %x as F32, %w[%c0] matrix<F32, 4x4, RowMajor> stride %c16
         : vector<4xf32>, memref<?xi8> -> vector<4xf32>
  return %y : vector<4xf32>
}
