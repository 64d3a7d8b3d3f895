// y = W x with W = [[1, 2], [3, 4]] (F32, row-major, rows 16 bytes apart)
// read from an argument.
func.func @matvec(%x: vector<2xf32>, %w: memref<?xi8>) -> vector<2xf32> {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %y = coopvec.matvec %x as F32, %w[%c0] matrix<F32, 2x2, RowMajor> stride %c16
         : vector<2xf32>, memref<?xi8> -> vector<2xf32>
  return %y : vector<2xf32>
}
