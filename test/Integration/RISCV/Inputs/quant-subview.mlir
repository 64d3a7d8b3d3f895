// quant-small.mlir with its weight zero points taken from a subview at
// byte 3 of the buffer passed in (rv-run-errors.test): the SiFive path
// reads them past the subview's offset.
func.func @main(%x: memref<?x8xi8>, %w: memref<?xi8>, %zwall: memref<?xi8>, %zx: memref<?x2xi8>, %y: memref<?x5xi32>) {
  %c0 = arith.constant 0 : index
  %s = arith.constant 16 : index
  %zw = memref.subview %zwall[3] [5] [1] : memref<?xi8> to memref<5xi8, strided<[1], offset: 3>>
  coopvec.batch_matvec %x as I8, %w[%c0] matrix<I8, 5x8, RowMajor> stride %s
      weight_zero_points %zw[%c0] as I8 group 8 : memref<5xi8, strided<[1], offset: 3>>
      input_zero_points %zx as I8 group 4 : memref<?x2xi8>
      into %y : memref<?x8xi8>, memref<?xi8> -> memref<?x5xi32>
  return
}
