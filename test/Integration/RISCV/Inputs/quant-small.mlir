// A quantized product for rv-run-errors.test: 5 x 8 I8 weights with
// per-row zero points, I8 input zero points per 4 columns.
func.func @main(%x: memref<?x8xi8>, %w: memref<?xi8>, %zw: memref<?xi8>, %zx: memref<?x2xi8>, %y: memref<?x5xi32>) {
  %c0 = arith.constant 0 : index
  %s = arith.constant 16 : index
  coopvec.batch_matvec %x as I8, %w[%c0] matrix<I8, 5x8, RowMajor> stride %s
      weight_zero_points %zw[%c0] as I8 group 8 : memref<?xi8>
      input_zero_points %zx as I8 group 4 : memref<?x2xi8>
      into %y : memref<?x8xi8>, memref<?xi8> -> memref<?x5xi32>
  return
}
