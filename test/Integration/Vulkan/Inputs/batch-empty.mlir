// A host batch_matvec for batch.test's empty and three-row batches.
func.func @f16(%x: memref<?x64xf16>, %w: memref<?xi8>, %y: memref<?x16xf32>) {
  %c0 = arith.constant 0 : index
  %stride = arith.constant 128 : index
  coopvec.batch_matvec %x as F16, %w[%c0] matrix<F16, 16x64, RowMajor> stride %stride
      into %y : memref<?x64xf16>, memref<?xi8> -> memref<?x16xf32>
  return
}
