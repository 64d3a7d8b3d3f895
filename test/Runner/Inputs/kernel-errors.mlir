// Converting a matrix onto itself: valid coopvec, but the runtime refuses
// an overlapping source and destination.
func.func @overlap(%x: vector<4xi32>, %w: memref<?xi8>) {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  coopvec.convert_matrix %w[%c0] matrix<F32, 1x4, RowMajor> stride %c16 to %w[%c0] matrix<F16, 1x4, RowMajor> stride %c16 : memref<?xi8>, memref<?xi8>
  return
}

// A 4x4 F32 row-major matrix needs 64 bytes.
func.func @f32_matrix(%x: vector<4xf32>, %w: memref<?xi8>) -> vector<4xf32> {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %y = coopvec.matvec %x as F32, %w[%c0] matrix<F32, 4x4, RowMajor> stride %c16
         : vector<4xf32>, memref<?xi8> -> vector<4xf32>
  return %y : vector<4xf32>
}
