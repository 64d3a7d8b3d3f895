// Four byte buffers whose last bytes are summed: argument loading is what
// test/Runner/argument-memory.test measures.
func.func @last_bytes(%a: memref<?xi8>, %b: memref<?xi8>, %c: memref<?xi8>,
                      %d: memref<?xi8>) -> i8 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %a, %c0 : memref<?xi8>
  %last = arith.subi %n, %c1 : index
  %x = memref.load %a[%last] : memref<?xi8>
  %y = memref.load %b[%last] : memref<?xi8>
  %z = memref.load %c[%last] : memref<?xi8>
  %w = memref.load %d[%last] : memref<?xi8>
  %s0 = arith.addi %x, %y : i8
  %s1 = arith.addi %z, %w : i8
  %s = arith.addi %s0, %s1 : i8
  return %s : i8
}
