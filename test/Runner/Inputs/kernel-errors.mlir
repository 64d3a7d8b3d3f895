// An integer vector accumulation: valid coopvec, but the CPU runtime
// returns COOPVEC_ERROR_UNSUPPORTED_TYPE today.
func.func @int_accumulate(%x: vector<4xi32>, %w: memref<?xi8>) {
  %c0 = arith.constant 0 : index
  coopvec.vector_accumulate %x, %w[%c0] : vector<4xi32>, memref<?xi8>
  return
}
// (Matrix-vector products of every type run: see Integration/CPU.)

// A 4x4 F32 row-major matrix needs 64 bytes.
func.func @f32_matrix(%x: vector<4xf32>, %w: memref<?xi8>) -> vector<4xf32> {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %y = coopvec.matvec %x as F32, %w[%c0] matrix<F32, 4x4, RowMajor> stride %c16
         : vector<4xf32>, memref<?xi8> -> vector<4xf32>
  return %y : vector<4xf32>
}
