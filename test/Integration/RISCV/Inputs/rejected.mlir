func.func @main(%x: memref<?x6xi32>, %w: memref<?xi8>, %y: memref<?x5xi32>) {
  %c0 = arith.constant 0 : index
  coopvec.batch_matvec %x as I8, %w[%c0] matrix<I8, 5x6, InferencingOptimal> unsigned_result into %y
      : memref<?x6xi32>, memref<?xi8> -> memref<?x5xi32>
  return
}
